"""Komaki's "No.0": circles with bumps on the No.0 lattice."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from puzzlesat import jobs
from puzzlesat.backends import Status, get_backend
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.geometry import canonical, orientations
from puzzlesat.models.tiling.lattice import get_lattice
from puzzlesat.models.tiling.standard import standard_set

NO0 = get_lattice("no0")


def _bumps(cells):
    return len(cells) - 1


def test_a_circle_has_six_gaps_and_a_gap_three_circles():
    assert sorted(NO0.neighbours((0, 0))) == [(-2, 1), (-1, -1), (-1, 2), (1, -2), (1, 1), (2, -1)]
    for g in NO0.neighbours((0, 0)):
        assert len(NO0.neighbours(g)) == 3 and (0, 0) in NO0.neighbours(g)
        assert all(NO0.is_circle(c) for c in NO0.neighbours(g))


def test_thirteen_gap_patterns_up_to_rotation_and_reflection():
    gaps = NO0.neighbours((0, 0))
    patterns = {canonical(NO0, [(0, 0), *sub], NO0.point_group)
                for k in range(7) for sub in combinations(gaps, k)}
    assert len(patterns) == 13  # the empty one included


def test_the_twelve_pieces_and_their_bumps():
    pieces = standard_set(NO0, "no0")
    assert [n for n, _, _ in pieces] == list("ABCDEFGHIJKL")
    assert [_bumps(c) for _, c, _ in pieces] == [6, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1]
    for _, cells, _ in pieces:
        circles = [c for c in cells if NO0.is_circle(c)]
        assert len(circles) == 1
        assert set(cells) - set(circles) <= set(NO0.neighbours(circles[0]))


def test_only_one_piece_is_chiral():
    pieces = standard_set(NO0, "no0")
    chiral = [n for n, cells, _ in pieces
              if len(orientations(NO0, cells, NO0.point_group)) != len(orientations(NO0, cells, NO0.rotations))]
    assert chiral == ["G"]
    assert [n for n, _, _ in standard_set(NO0, "one-sided-no0")] == list("ABCDEFG") + ["G'"] + list("HIJKL")


def test_orientation_counts():
    got = {n: len(orientations(NO0, c, NO0.point_group)) for n, c, _ in standard_set(NO0, "no0")}
    assert got == {"A": 1, "B": 6, "C": 6, "D": 6, "E": 3, "F": 6, "G": 12, "H": 2,
                   "I": 6, "J": 6, "K": 3, "L": 6}


@pytest.fixture(scope="module")
def no0():
    t = load_puzzle("no0")
    return t, t.compile()


def test_the_box(no0):
    t, problem = no0
    circles = [c for c in t.board if NO0.is_circle(c)]
    assert len(circles) == 13 and len(t.board) - 13 == 40
    # every gap touching one of the circles, and no other
    assert set(t.board) - set(circles) == {g for c in circles for g in NO0.neighbours(c)}
    rows = Counter(c[1] for c in circles)
    assert sorted(rows.values()) == [4, 4, 5]
    assert len(problem.symmetries) == 4  # two mirrors and a half turn
    pieces = {p.name: p for p in t.pieces}
    assert len(pieces) == 12 and pieces["L"].count == 2
    assert sum(p.count for p in t.pieces) == 13 and sum(_bumps(p.cells) * p.count for p in t.pieces) == 40


@pytest.mark.parametrize("backend", ["cadical195", "glucose4", "minisat22", "cpsat", "exact"])
def test_solves_to_a_verified_box_on_every_back_end(no0, backend):
    t, problem = no0
    out = jobs.solve(t, get_backend(backend), problem=problem)
    assert out.status == Status.SOLVED
    t.verify(out.solution)  # jobs.solve verified it too
    assert len(out.solution.placements) == 13
    for name, cells in out.solution.placements:
        circles = [c for c in cells if NO0.is_circle(c)]
        assert len(circles) == 1  # one circle with its own bumps
        assert set(cells) - set(circles) <= set(NO0.neighbours(circles[0]))
    text = t.render_text(out.solution)
    assert len(text.splitlines()) == 7


def test_unique_count_never_counts_the_two_one_bump_pieces_twice(no0):
    t, problem = no0
    exact = get_backend("exact")
    unique = jobs.count(t, exact, unique=True, problem=problem)
    assert unique.complete and unique.count == t.expected["unique"] == 1797


@pytest.mark.slow
def test_raw_count(no0):
    t, problem = no0
    assert jobs.count(t, get_backend("exact"), problem=problem).count == t.expected["count"] == 7188
