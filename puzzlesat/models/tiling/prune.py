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
visited, and so break that).  The pass costs a flood fill per placement, on
the board's cells as the bits of an integer (:class:`Cells`); it is skipped
where placements x cells exceeds ``MAX_WORK``.
"""

from __future__ import annotations

from .geometry import is_connected

#: skip the pass when placements x board cells exceeds this: ~0.5 s in the
#: worst case measured (P pentominoes in a 3 x 1000 strip, where most
#: placements split the strip and both sides are filled whole); ordinary
#: boards take far less (100 x 100 dominoes, 2e8: 0.3 s)
MAX_WORK = 10_000_000


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
    cells = Cells(board, lattice)
    fillable = {p.name: _sums(tiling.pieces, without=p.name) for p in tiling.pieces}
    # the test is geometric: a board symmetry maps a dead placement to a
    # dead one (of its image piece, with as many copies of the same area),
    # so one flood fill per orbit of placements settles the whole orbit
    # (5x3x2x2: 11.4 -> 1.8 ms, its 32 symmetries)
    group = [g for g in problem.symmetries if g]
    settled: dict[int, bool] = {}
    for v in sorted(problem.primary):
        if v in settled:
            continue
        m = problem.meaning(v)
        cut = _cuts_off(cells.mask(m.cells), cells, fillable[m.piece])
        settled[v] = cut
        for g in group:
            settled[g.get(v, v)] = cut
    return sorted(v for v, cut in settled.items() if cut)


def _sums(pieces, without: str) -> int:
    """Bit set of the areas that some multiset of the pieces can cover, one
    copy of ``without`` (the piece being placed) taken out."""
    reach = 1
    for p in pieces:
        for _ in range(p.count - (p.name == without)):
            reach |= reach << len(p.cells)
    return reach


class Cells:
    """The board's cells as the bits of an integer, so that a flood fill is a
    few shifts per step instead of a visit per cell.

    A cell's bit is its place in the board's bounding box, row-major: on a
    grid lattice a neighbour in a given direction is then always the same
    number of bits away.  The adjacent pairs are grouped by that distance
    ``d``; ``steps`` holds, for each ``d``, the bits of the cells whose
    neighbour is ``d`` bits up (or down, for d < 0).  Any lattice works (the
    groups are built from its ``neighbours``); a regular one has few groups
    (4 for squares, 6 for triangles)."""

    def __init__(self, board, lattice):
        order = sorted(board)
        if order and all(isinstance(x, int) for c in order for x in c):
            lo = [min(c[k] for c in order) for k in range(len(order[0]))]
            hi = [max(c[k] for c in order) for k in range(len(order[0]))]
            stride = 1
            strides = []
            for k in reversed(range(len(lo))):
                strides.append(stride)
                stride *= hi[k] - lo[k] + 1
            strides.reverse()
            self.bit = {c: sum((x - l) * st for x, l, st in zip(c, lo, strides)) for c in order}
        else:  # (no lattice here has such points, but nothing below needs a grid)
            self.bit = {c: i for i, c in enumerate(order)}
        groups: dict[int, int] = {}
        for c in order:
            i = self.bit[c]
            for q in lattice.neighbours(c):
                j = self.bit.get(q)
                if j is not None:
                    groups[j - i] = groups.get(j - i, 0) | 1 << i
        self.steps = sorted(groups.items())
        #: the board's connected components, as masks
        self.components = []
        rest = self.mask(order)
        while rest:
            comp = self.fill(rest & -rest, rest)
            self.components.append(comp)
            rest &= ~comp

    def mask(self, cells) -> int:
        out = 0
        for c in cells:
            out |= 1 << self.bit[c]
        return out

    def around(self, bits: int) -> int:
        """The cells next to ``bits`` (and ``bits`` itself)."""
        out = bits
        for d, has in self.steps:
            x = bits & has
            out |= x << d if d > 0 else x >> -d
        return out

    def fill(self, start: int, free: int) -> int:
        """The cells of ``free`` connected to ``start`` within it."""
        region = start
        while True:
            grown = self.around(region) & free
            if grown == region:
                return region
            region = grown

    def component(self, bits: int) -> int:
        """The component holding the (connected) cells ``bits``."""
        return next(comp for comp in self.components if comp & bits)


def _cuts_off(used: int, cells: Cells, reach: int) -> bool:
    """Does taking the cells ``used`` (connected) leave a free region next
    to them whose size is not in ``reach``?

    Every region left in the component of ``used`` is entered from a cell
    next to ``used`` (a path from anywhere in it to ``used`` ends in one).
    So once a fill has reached all of those cells not yet in a region, it
    is in the last region, which is the rest of the component: its size is
    known without filling it whole.  (The regions are still each counted
    whole, so the answer does not depend on the order of the fill: see the
    module doc.)"""
    free = cells.component(used) & ~used
    border = cells.around(used) & free
    while border:
        region = border & -border
        while border & ~region:
            grown = cells.around(region) & free
            if grown == region:
                break
            region = grown
        else:  # every border cell reached: the region is all that is free
            region = free
        if not (reach >> region.bit_count()) & 1:
            return True
        border &= ~region
        free &= ~region
    return False
