"""The verifier's congruence test (models/tiling/congruence.py): written from
the lattices' documented coordinates, it must agree with the placements the
encoder generates without sharing their point groups or translation tests."""

from __future__ import annotations

import pytest

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.errors import VerificationError
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling import lattice as lattice_module
from puzzlesat.models.tiling.congruence import congruent
from puzzlesat.models.tiling.puzzle import TilingSolution

L = ((0, 0), (1, 0), (2, 0), (2, 1))  # the L tetromino, rows first


@pytest.mark.parametrize("cells, free, one_sided", [
    (((5, 5), (6, 5), (7, 5), (7, 6)), True, True),  # a translate
    (((0, 3), (0, 2), (0, 1), (1, 1)), True, True),  # a quarter turn
    (((0, 1), (1, 1), (2, 1), (2, 0)), True, False),  # its mirror image: J
    (((0, 0), (1, 0), (2, 0), (3, 0)), False, False),  # I
    (((0, 0), (1, 0), (2, 0)), False, False),  # too few cells
    (((0, 0), (1, 0), (2, 0), (2, 0)), False, False),  # a cell twice
])
def test_square_images_turns_and_mirrors(cells, free, one_sided):
    assert congruent("square", L, cells, False) is free
    assert congruent("square", L, cells, True) is one_sided


def test_a_flat_piece_turned_over_in_three_dimensions_is_a_turn():
    flat = [(0,) + c for c in L]
    mirror = [(0, r, 1 - c) for r, c in L]
    assert congruent("cubic", flat, mirror, True)  # a half turn about the long axis
    # in the plane the same mirror image is not a turn
    assert not congruent("square", L, [(r, 1 - c) for r, c in L], True)
    # a 3-D chiral tetracube and its mirror image
    chiral = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)]
    assert congruent("cubic", chiral, [(x, y, -z) for x, y, z in chiral], False)
    assert not congruent("cubic", chiral, [(x, y, -z) for x, y, z in chiral], True)


def test_hexagonal_distances():
    # axial (q, r): (1, 0) and (0, 1) are both neighbours of the origin, (1, 1) is not
    assert congruent("hex", [(0, 0), (1, 0)], [(3, 3), (3, 4)], False)
    assert not congruent("hex", [(0, 0), (1, 0)], [(0, 0), (1, 1)], False)
    # (1, -1) is a neighbour too: the bar of three along it is the straight I3
    assert congruent("hex", [(0, 0), (1, 0), (2, 0)], [(0, 0), (1, -1), (2, -2)], True)


def test_triangles_and_no0_circles():
    down, up = (1, 1), (2, 2)  # the triangles 0, a, b and a, b, a + b: they share an edge
    assert congruent("triangle", [down, up], [(4, 1), (5, 2)], False)
    assert not congruent("triangle", [down, up], [(1, 1), (4, 1)], False)  # two down triangles
    # a No.0 circle with a bump: the same at a translate by a lattice vector,
    # not where the circle would land on a gap
    bumped = [(0, 0), (1, 1)]
    assert congruent("no0", bumped, [(3, 0), (4, 1)], False)
    assert not congruent("no0", bumped, [(1, 1), (2, 2)], False)


@pytest.mark.parametrize("name", ["pentomino-3x4x5", "no0", "hexiamonds-6x6", "hexagon-tetrahexes-trihexes",
                                  "pentomino-5x3x2x2", "tetromino-pairs-5x8"])
def test_every_placement_the_encoder_makes_is_congruent_and_no_other_piece_is(name):
    puzzle = load_puzzle(name)
    problem = puzzle.compile()
    # which pieces are images of which (the encoder's view, for the test's other side)
    alike = {(p.name, q.name): p.name == q.name or _same_shape(puzzle, p, q)
             for p in puzzle.pieces for q in puzzle.pieces if len(p.cells) == len(q.cells)}
    for v in problem.primary:
        m = problem.meaning(v)
        for p in puzzle.pieces:
            if len(p.cells) == len(m.cells):
                fits = congruent(puzzle.lattice.name, p.cells, m.cells, p.one_sided)
                assert fits is alike[p.name, m.piece], (p.name, m)


def _same_shape(puzzle, p, q) -> bool:
    """p is an image of q under the lattice's group."""
    from puzzlesat.models.tiling.geometry import normalize

    target = normalize(puzzle.lattice, q.cells)
    return any(normalize(puzzle.lattice, [tuple(sum(m[i][j] * c[j] for j in range(len(c))) for i in range(len(m)))
                                          for c in p.cells]) == target for m in puzzle.lattice.group(p.one_sided))


def test_the_verifier_asks_nothing_of_the_lattice_the_encoder_uses(monkeypatch):
    # the verifier's check shared the point groups and translation test
    # that generate placements: a wrong No.0 is_translation let every bogus
    # placement through both (review)
    puzzle = load_puzzle("no0")
    solution = jobs.solve(puzzle, get_backend("exact")).solution
    fresh = load_puzzle("no0")

    def refuse(*_):
        raise AssertionError("the verifier used the encoder's lattice")

    for cls in (lattice_module.Lattice, lattice_module.No0Lattice, lattice_module._SixFold):
        for attr in ("group", "is_translation", "anchor", "point_group", "rotations"):
            if attr in vars(cls):  # (a property, for the cached ones: it takes precedence over a cached value)
                monkeypatch.setattr(cls, attr, property(refuse) if attr in ("point_group", "rotations") else refuse)
    fresh.verify(solution)
    # a piece moved by a vector that takes circles onto gaps is refused
    name, cells = next((n, c) for n, c in solution.placements if len(c) > 1)
    moved = tuple((x + 1, y + 1) for x, y in cells)
    fresh.board = frozenset(moved)
    with pytest.raises(VerificationError, match=f"^piece {name} placed at .* is not an image of its shape$"):
        fresh.verify(TilingSolution([(name, moved)]))


def test_a_piece_of_a_thousand_cells_is_checked_at_once():
    # the first version searched a bijection by recursion, one level per
    # cell: a 1,000-cell piece was a RecursionError (review)
    bar = [(x,) for x in range(1000)]
    assert congruent("line", bar, [(x + 7,) for x in range(1000)], True)
    assert not congruent("line", bar, [(x + (x >= 500),) for x in range(1000)], False)  # a gap in it
    square = [(r, c) for r in range(31) for c in range(31)]
    assert congruent("square", square, [(c + 2, 30 - r) for r, c in square], True)
    assert not congruent("square", square, [(r, c) for r, c in square if (r, c) != (0, 0)] + [(31, 0)], False)
