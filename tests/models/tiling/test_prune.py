"""Dead placements (ones that cut off a region no remaining pieces can fill)."""

from __future__ import annotations

import pytest

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.build import PieceSpec, build_tiling
from puzzlesat.models.tiling.lattice import CubicLattice
from puzzlesat.models.tiling.prune import dead_placements


def _used_placements(tiling, problem):
    """Every placement some solution uses, by enumerating the unpruned problem."""
    r = get_backend("exact").search(problem, keep=True)
    assert r.complete
    return set().union(*r.solutions), r.count


@pytest.mark.parametrize("name", ["pentomino-3x20", "pentomino-8x8-four-holes", "tetromino-L-4x4",
                                  "tetromino-pairs-5x8", "no0", "hexiamonds-6x6"])
def test_dead_placements_are_in_no_solution_and_close_under_symmetry(name):
    t = load_puzzle(name)
    p = t.compile()
    dead = set(dead_placements(t, p))
    used, _ = _used_placements(t, p)
    assert dead  # every one of these boards has some
    assert not dead & used
    for g in p.symmetries:
        assert {g.get(v, v) for v in dead} == dead


def test_corner_cut_offs_are_dead_on_3x20():
    t = load_puzzle("pentomino-3x20")
    p = t.compile()
    dead = set(dead_placements(t, p))
    # the oracle, written here: all pieces are pentominoes, one of each, so a
    # placement is dead exactly when a region of the cells it leaves free
    # (4-neighbour flood fill on the 3x20 grid) is not a multiple of 5
    free = {(r, c) for r in range(3) for c in range(20)}
    expect = set()
    for v in p.primary:
        left = free - set(p.meaning(v).cells)
        while left:
            stack, size = [left.pop()], 0
            while stack:
                r, c = stack.pop()
                size += 1
                for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if q in left:
                        left.remove(q)
                        stack.append(q)
            if size % 5:
                expect.add(v)
                break
    assert dead == expect
    assert len(dead) > len(p.primary) // 4  # an I along the long side is fine; a corner cell cut off is not


def _strip(n, pieces):
    t = build_tiling(lattice=CubicLattice(2), path=None, dims=(1, n),
                     pieces=[PieceSpec(name, [(0, i) for i in range(k)]) for name, k in pieces])
    p = t.compile()
    return t, p, {(p.meaning(v).piece, min(c[1] for c in p.meaning(v).cells)) for v in dead_placements(t, p)}


def test_dead_on_a_strip():
    # 1x5 with a domino and a tromino: a piece leaving a single cell alone is dead
    t, p, dead = _strip(5, [("D", 2), ("T", 3)])
    assert dead == {("D", 1), ("D", 2), ("T", 1)}
    assert jobs.count(t, get_backend("exact")).count == 2


def test_region_sizes_are_sums_of_the_other_pieces():
    # 1x6 with a monomino too: one cell alone is now fillable, but two lone
    # cells on either side of the tromino are each fillable only by the monomino:
    # regions are checked one at a time, so that placement stays
    t, p, dead = _strip(6, [("M", 1), ("D", 2), ("T", 3)])
    assert ("D", 1) not in dead and ("T", 1) not in dead
    # the domino at 2-3 leaves 2 and 2: only one domino, and 2 = 1 + ... no:
    # sums of {M, T} are 0, 1, 3, 4 -- 2 is not one of them
    assert ("D", 2) in dead
    assert jobs.count(t, get_backend("exact")).count == 6


def test_disconnected_pieces_turn_the_test_off():
    lat = CubicLattice(2)
    pieces = [PieceSpec("gap", [(0, 0), (0, 2)]), PieceSpec("D", [(0, 0), (0, 1)])]
    t = build_tiling(lattice=lat, pieces=pieces, path=None, dims=(1, 4))
    assert dead_placements(t, t.compile()) == []


@pytest.mark.parametrize("name", ["pentomino-3x20", "pentomino-8x8-hole", "no0", "hexiamonds-6x6"])
def test_counts_unchanged_by_pruning(name):
    t = load_puzzle(name)
    p = t.compile()
    exact = get_backend("exact")
    raw = exact.count(p).count
    pruned = jobs.count(t, exact, problem=p)
    assert pruned.count == raw


def test_count_reports_the_implied_constraints_it_added(cli):
    r = cli("count", "pentomino-3x20", "-b", "exact", "--json")
    assert r.code == 0, r.err
    out = r.json()
    t = load_puzzle("pentomino-3x20")
    assert out["count"] == 8
    assert out["implied_constraints"] == len(dead_placements(t, t.compile())) > 0
    text = cli("count", "pentomino-3x20", "-b", "exact")
    assert f"{out['implied_constraints']} implied constraints added" in text.out


def _oracle(tiling, problem) -> set[int]:
    """Dead placements by the definition, written independently of prune.py:
    for each placement, flood-fill the board's other cells by the lattice's
    neighbours (cell tuples, no bits), and call it dead when a region next to
    it has a size no multiset of the other pieces sums to."""
    board = set(tiling.board)
    dead = set()
    for v in problem.primary:
        m = problem.meaning(v)
        sums = {0}
        for p in tiling.pieces:
            for _ in range(p.count - (p.name == m.piece)):
                sums |= {s + len(p.cells) for s in sums}
        used = set(m.cells)
        left = board - used
        starts = [q for c in used for q in tiling.lattice.neighbours(c) if q in left]
        for s in starts:
            if s not in left:
                continue  # in a region already measured
            left.discard(s)
            stack, size = [s], 0
            while stack:
                c = stack.pop()
                size += 1
                for q in tiling.lattice.neighbours(c):
                    if q in left:
                        left.discard(q)
                        stack.append(q)
            if size not in sums:
                dead.add(v)
                break
    return dead


@pytest.mark.parametrize("name", ["pentomino-8x8-four-holes", "pentomino-8x8-hole", "pentomino-2x3x10",
                                  "pentomino-5x3x2x2", "tetromino-pairs-5x8", "hexiamonds-6x6",
                                  "hexagon-tetrahexes-trihexes", "no0"])
def test_dead_placements_match_the_definition_on_every_lattice(name):
    t = load_puzzle(name)
    p = t.compile()
    assert set(dead_placements(t, p)) == _oracle(t, p)


def test_a_board_in_two_parts_is_measured_per_part():
    # a 1x6 strip whose cell 3 is a hole: parts 0-2 and 4-5, a tromino and a
    # domino.  The domino at 0-1 leaves cell 2 alone in its part: dead (only
    # the tromino is left), though the cells free on the whole board (2, 4, 5)
    # would be a tromino's worth.  The domino at 4-5 leaves nothing next to it.
    lat = CubicLattice(2)
    board = {(0, c) for c in range(6) if c != 3}
    t = build_tiling(lattice=lat, board=board, path=None,
                     pieces=[PieceSpec("T", [(0, 0), (0, 1), (0, 2)]), PieceSpec("D", [(0, 0), (0, 1)])])
    p = t.compile()
    dead = {(p.meaning(v).piece, min(c[1] for c in p.meaning(v).cells)) for v in dead_placements(t, p)}
    assert dead == {("D", 0), ("D", 1)}
    assert set(dead_placements(t, p)) == _oracle(t, p)
    assert jobs.count(t, get_backend("exact")).count == 1


def test_one_flood_fill_per_orbit_holds_where_symmetries_swap_pieces():
    # dead_placements settles each orbit of placements under the board's
    # symmetries with one flood fill.  Here the reflections map a one-sided L
    # onto the one-sided J (same area, same count), and a fixed domino sits
    # at the centre: the orbits mix two pieces' placements, and the answer
    # must still be the definition's, placement by placement
    lat = CubicLattice(2)
    L = [(0, 0), (1, 0), (2, 0), (2, 1)]
    J = [(0, 1), (1, 1), (2, 1), (2, 0)]
    t = build_tiling(lattice=lat, path=None, dims=(3, 8),
                     pieces=[PieceSpec("L", L, count=2, one_sided=True), PieceSpec("J", J, count=2, one_sided=True),
                             PieceSpec("D", [(0, 0), (0, 1)], count=4)],
                     holes_or_fixed=[("D", [(1, 3), (1, 4)], 1)])
    p = t.compile()
    assert len(p.symmetries) == 4
    swaps = [g for g in p.symmetries
             if any(p.meaning(v).piece == "L" and p.meaning(g.get(v, v)).piece == "J" for v in p.primary)]
    assert len(swaps) == 2  # the two reflections
    dead = set(dead_placements(t, p))
    assert len(dead) == 8 and dead == _oracle(t, p)
    assert jobs.count(t, get_backend("exact"), problem=p).count == get_backend("exact").count(p).count == 88
