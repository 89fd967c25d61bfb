"""Placements that can be in no tiling because they cut off a region no set
of the remaining pieces can fill.

Every piece is connected (lattice neighbours), so in a tiling each piece lies
inside one connected region of the cells left free by any other placement:
a region's size must be a sum of the areas of pieces still available.  A
placement that leaves a region of an impossible size (a single cell in a
corner of a pentomino board, 7 cells when all pieces have 5, ...) is false in
every solution.  Saying so up front spares every engine the dead branches
(about 6% of the 6x10 placements, 15% of the exact-cover count time: see
benchmarks/counting-results.md).

The test is geometric, so the set of dead placements is closed under the
board's symmetries and symmetry-reduced counting stays exact (regions are
explored whole: a cut-off exploration would depend on the order cells are
visited, and so break that).  The pass costs a flood fill per placement; on
boards where that would exceed ``MAX_WORK`` cell visits it is skipped.
"""

from __future__ import annotations

from .geometry import is_connected

#: skip the pass when placements x board cells exceeds this (~1 s of Python)
MAX_WORK = 3_000_000


def dead_placements(tiling, problem) -> list[int]:
    """The placement variables of ``problem`` (compiled from ``tiling``) that
    leave a free region no multiset of the other pieces can fill; [] when a
    piece is disconnected (the argument needs connected pieces)."""
    lattice = tiling.lattice
    if not all(is_connected(lattice, p.cells) for p in tiling.pieces):
        return []
    board = tiling.board
    if len(problem.primary) * len(board) > MAX_WORK:
        return []
    index = {c: i for i, c in enumerate(sorted(board))}
    adj = [[index[q] for q in lattice.neighbours(c) if q in index] for c in sorted(board)]
    fillable = {p.name: _sums(tiling.pieces, without=p.name) for p in tiling.pieces}
    dead = []
    for v in sorted(problem.primary):
        m = problem.meaning(v)
        used = {index[c] for c in m.cells}
        if _cuts_off(used, adj, fillable[m.piece]):
            dead.append(v)
    return dead


def _sums(pieces, without: str) -> int:
    """Bit set of the areas that some multiset of the pieces can cover, one
    copy of ``without`` (the piece being placed) taken out."""
    reach = 1
    for p in pieces:
        for _ in range(p.count - (p.name == without)):
            reach |= reach << len(p.cells)
    return reach


def _cuts_off(used: set[int], adj: list[list[int]], reach: int) -> bool:
    seen = set(used)
    for c in used:
        for start in adj[c]:
            if start in seen:
                continue
            seen.add(start)
            region = [start]
            i = 0
            while i < len(region):
                for q in adj[region[i]]:
                    if q not in seen:
                        seen.add(q)
                        region.append(q)
                i += 1
            if not (reach >> len(region)) & 1:
                return True
    return False
