"""Colouring arguments: a well-formed tiling with no solution, shown without
a search.

Colour the lattice's cells with a few colours.  A placement covers some
number of cells of each colour, so a tiling covers the board's colour counts
exactly with the sum over its pieces of one placement's counts each.  When
no choice of one placement per piece copy adds up to the board's counts,
there is no tiling.  That is the mutilated chessboard (two opposite corners
of an 8 x 8 board cut off: 30 white and 32 black cells, and a domino covers
one of each), which the exact-cover engine can only refute by exhausting
its search: more than a minute on the 10 x 10 board, where CaDiCaL takes
0.3 s (session 17).

The check is a subset sum over count vectors: the reachable sums, one piece
copy at a time, with every sum that already passes the board's count of
some colour dropped.  It gives up on a colouring (says nothing) when that
would take more than ``MAX_WORK``.  It never reads the encoder's model
beyond the placements' cells, so a refutation here does not depend on the
encodings being right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from .lattice import CubicLattice, HexLattice, Lattice, No0Lattice, Point, TriangleLattice

#: every colouring here repeats under translations by multiples of PERIOD in
#: each coordinate, so a placement's counts depend only on its orientation
#: and where its first cell lies modulo PERIOD
PERIOD = 6

#: the work (piece copies x count vectors x 64-bit words of the set of sums)
#: past which the check gives up on a colouring: a few tens of milliseconds
MAX_WORK = 2_000_000


@dataclass(frozen=True)
class Colouring:
    what: str  # completes "colour each cell by ..."
    colours: int
    of: Callable[[Point], int]


def colourings(lattice: Lattice) -> list[Colouring]:
    """The colourings tried on ``lattice``: the classic ones for its cells.
    Square, cubic and hex colourings are of the file coordinates (the
    lattice's plus one, as the user writes and reads them), so that "colour
    0" is what a reader working them out from the file gets."""
    if isinstance(lattice, CubicLattice):
        d = lattice.dim
        out = [Colouring("the sum of its coordinates mod 2 (a checkerboard)" if d > 1 else
                         "its position mod 2", 2, lambda p: (sum(p) + d) % 2)]
        if d > 1:
            out += [Colouring(f"coordinate {i + 1} mod 2 (stripes)", 2, lambda p, i=i: (p[i] + 1) % 2)
                    for i in range(d)]
        out.append(Colouring("the sum of its coordinates mod 3 (diagonals)" if d > 1 else
                             "its position mod 3", 3, lambda p: (sum(p) + d) % 3))
        if d > 1:
            out.append(Colouring("coordinate 1 minus coordinate 2, mod 3 (diagonals)", 3,
                                 lambda p: (p[0] - p[1]) % 3))
        return out
    if isinstance(lattice, HexLattice):
        return [Colouring("q - r mod 3 (no two neighbours alike)", 3, lambda p: (p[0] - p[1]) % 3),
                Colouring("its row r mod 2 (stripes)", 2, lambda p: (p[1] + 1) % 2),
                Colouring("its column q mod 2 (stripes)", 2, lambda p: (p[0] + 1) % 2),
                Colouring("q + r mod 2 (stripes)", 2, lambda p: (p[0] + p[1]) % 2)]
    if isinstance(lattice, TriangleLattice):
        return [Colouring("whether it points down (0) or up (1)", 2, lambda p: p[0] % 3 - 1)]
    if isinstance(lattice, No0Lattice):
        return [Colouring("whether it is a circle (0) or a gap (1)", 2, lambda p: min(p[0] % 3, 1)),
                Colouring("whether it is a circle (0), a down gap (1) or an up gap (2)", 3,
                          lambda p: p[0] % 3)]
    return []


#: the colouring of a region's area alone: a region of 3 cells and dominoes
AREA = Colouring("", 1, lambda p: 0)


def obstruction(lattice: Lattice, board: Iterable[Point],
                pieces: list[tuple[str, int, list[tuple[int, tuple[Point, ...]]]]]) -> str | None:
    """Why no tiling exists by a colouring of ``lattice``, or None.

    ``pieces``: (name, count, its placements as (orientation index, cells)),
    the placements of one orientation being translates of one shape with
    their cells in the same order.  The board's area must equal the
    pieces' (checked before).

    A board of separate regions (cells joined through lattice neighbours)
    is checked region by region too: each region is covered by some of the
    piece copies, so its area and colour counts must be a sum over a
    sub-multiset of them.  Two mutilated 8x8 boards side by side, missing
    corners of opposite colours, are balanced as a whole; the exact-cover
    engine searched one for more than a minute."""
    board = set(board)
    region = _regions(lattice, board)
    # one placement per region, orientation and first cell modulo PERIOD: a
    # 30 x 40 box of 240 pentominoes has 100,000 placements and 32 kinds
    kinds: list[dict] = []
    for name, count, places in pieces:
        seen = {}
        for k, cells in places:
            seen.setdefault((region[cells[0]], k, tuple(x % PERIOD for x in cells[0])), cells)
        kinds.append(seen)
    whole = [(name, count, list(seen.values())) for (name, count, _p), seen in zip(pieces, kinds)]
    for col in colourings(lattice):
        why = _refutes(col, list(board), whole)
        if why:
            return why
    parts = max(region.values(), default=0) + 1
    if parts == 1:
        return None
    cells_of: list[list[Point]] = [[] for _ in range(parts)]
    for c in sorted(board):
        cells_of[region[c]].append(c)
    for i in sorted(range(parts), key=lambda i: cells_of[i][0]):
        mine = [(name, count, [cells for (r, _k, _f), cells in seen.items() if r == i])
                for (name, count, _p), seen in zip(pieces, kinds)]
        for col in [AREA] + colourings(lattice):
            why = _refutes(col, cells_of[i], mine, every_copy=False)
            if why:
                return (f"the board falls into {parts} separate regions; " if col is AREA else
                        f"the board falls into {parts} separate regions; colour each cell by {col.what}: ") + why
    return None


def _regions(lattice: Lattice, board: set) -> dict:
    """Each board cell's region number (cells joined through neighbours)."""
    region: dict = {}
    n = 0
    for start in sorted(board):
        if start in region:
            continue
        region[start] = n
        todo = [start]
        while todo:
            c = todo.pop()
            for q in lattice.neighbours(c):
                if q in board and q not in region:
                    region[q] = n
                    todo.append(q)
        n += 1
    return region


def _where(cell: Point) -> str:
    return "(" + ",".join(str(x + 1) for x in cell) + ")"


def _counts(colour: dict, colours: int, cells: Iterable[Point]) -> tuple[int, ...]:
    out = [0] * colours
    for c in cells:
        out[colour[c]] += 1
    return tuple(out)


def _refutes(col: Colouring, board: list[Point], pieces, every_copy: bool = True) -> str | None:
    """Why ``board`` cannot be covered by the pieces under ``col``, or None:
    by every piece copy (``every_copy``: the whole board), or by some of
    them (a region of it)."""
    colour = {c: col.of(c) for c in board}
    target = _counts(colour, col.colours, board)
    options = []
    for name, count, places in pieces:
        sigs = {_counts(colour, col.colours, cells) for cells in places}
        if sigs:
            options.append((name, count, sigs))
        elif every_copy:
            return None  # a piece that fits nowhere is precheck's other message
    if _reachable(target, options, every_copy):
        return None
    if not every_copy:
        where = _where(min(board))
        if col is AREA:
            return (f"the one at {where} has {len(board)} {'cell' if len(board) == 1 else 'cells'}, and no "
                    "choice among the pieces has that area and fits in it")
        return f"the one at {where} has {_listing(target, cells=True)}, and no choice among the pieces covers that"
    return (f"colour each cell by {col.what}: the board has {_listing(target, cells=True)}, "
            f"but {_no_choice(options)}")


def _reachable(target: tuple[int, ...], options, every_copy: bool = True) -> bool:
    """Whether one count vector per piece copy (``every_copy``; else per
    copy of some of them) can add up to ``target``; True (nothing shown)
    when finding out would pass ``MAX_WORK``.

    With every copy used, a vector's last count is its size minus the
    others, so the sums are kept over the others only.  The sums are the
    set bits of one integer: the vector (a, b) is bit a * rb + b, with each
    radix ``r`` wide enough that one copy's step never carries into the next
    digit, and a mask that drops the sums past the target in any digit."""
    if not options:
        return not any(target)
    dims = target[:-1] if every_copy else target
    steps = [max(max(sig[i] for sig in sigs) for _n, _c, sigs in options) for i in range(len(dims))]
    radix = [t + s + 1 for t, s in zip(dims, steps)]
    bits = 1
    for r in radix:
        bits *= r
    copies = sum(count * len(sigs) for _n, count, sigs in options)
    if copies * (bits // 64 + 1) > MAX_WORK:
        return True

    def code(vec) -> int:
        out = 0
        for r, v in zip(radix, vec):
            out = out * r + v
        return out

    mask = 1  # the allowed values of the digits placed so far, lowest first
    width = 1  # how many bits those digits span
    for t, r in zip(reversed(dims), reversed(radix)):
        row, have = mask, 1  # row: this digit's values 0 .. have-1 allowed
        while have < t + 1:
            n = min(have, t + 1 - have)
            row |= (row & ((1 << (n * width)) - 1)) << (have * width)
            have += n
        mask, width = row, width * r
    goal = code(dims)
    sums = 1  # the zero vector
    for _name, count, sigs in options:
        shifts = sorted({code(sig[:len(dims)]) for sig in sigs})
        for _ in range(count):
            nxt = 0 if every_copy else sums
            for sh in shifts:
                nxt |= sums << sh
            sums = nxt & mask
            if not sums:
                return False
            if not every_copy and sums >> goal & 1:
                return True
    return bool(sums >> goal & 1)


def _listing(counts: tuple[int, ...], cells: bool = False) -> str:
    parts = [f"{n} of colour {i}" for i, n in enumerate(counts)]
    if cells:
        parts[0] = f"{counts[0]} {'cell' if counts[0] == 1 else 'cells'} of colour 0"
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _no_choice(options) -> str:
    """Why the pieces cannot add up: each piece's one count vector when
    they have one, else the general statement."""
    if all(len(sigs) == 1 for _n, _c, sigs in options):
        each = []
        for name, count, sigs in options:
            (sig,) = sigs
            each.append(f"{'each ' if count > 1 else ''}{name} covers {_listing(sig)}")
        if len(each) <= 3:
            return "; ".join(each) + " wherever it lies"
    return "no choice of one placement for each piece adds up to that"
