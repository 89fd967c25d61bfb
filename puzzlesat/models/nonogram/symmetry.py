"""The symmetries of a nonogram's clues.

A rotation or reflection ``f`` of the grid maps every solution to a solution
when each line's image is a line whose clue, read in the image's direction,
is the original clue.  Empty lines along the border are black-free in every
solution, so the test runs on the bounding box of the non-empty lines: a
40x40 puzzle whose last row and column are empty can still be symmetric
under the rotations of its 39x39 box (webpbn's "Knotty" is).

The maps form a group (identity included) and become the Problem's
``symmetries``: ``count --unique`` counts pictures up to them, and the
symmetric-first search (jobs) looks for a picture they fix first.
"""

from __future__ import annotations

from ...problem import distinct_permutations

Point = tuple[int, int]


def clue_symmetries(rows, cols) -> list[dict[Point, Point]]:
    """Every dihedral map of the box of non-empty lines that preserves the
    clues, as {cell: image} over the box's cells (identity first, as {})."""
    r0, r1 = _span(rows)
    c0, c1 = _span(cols)
    if r0 > r1 or c0 > c1:
        return [{}]
    h, w = r1 - r0 + 1, c1 - c0 + 1
    maps = [
        lambda r, c: (r, w - 1 - c),  # mirror left-right
        lambda r, c: (h - 1 - r, c),  # mirror top-bottom
        lambda r, c: (h - 1 - r, w - 1 - c),  # half turn
    ]
    if h == w:
        maps += [
            lambda r, c: (c, r),  # transpose
            lambda r, c: (w - 1 - c, h - 1 - r),  # anti-transpose
            lambda r, c: (c, w - 1 - r),  # quarter turn
            lambda r, c: (h - 1 - c, r),  # three quarter turns
        ]
    lines = [(rows[r], [(r, c) for c in range(c0, c1 + 1)]) for r in range(r0, r1 + 1)]
    lines += [(cols[c], [(r, c) for r in range(r0, r1 + 1)]) for c in range(c0, c1 + 1)]
    clue_of = {}
    for clue, cells in lines:
        clue_of[tuple(cells)] = _norm(clue)
        clue_of[tuple(reversed(cells))] = _norm(clue)[::-1]
    out: list[dict[Point, Point]] = [{}]
    for f in maps:
        def g(p, f=f):
            rr, cc = f(p[0] - r0, p[1] - c0)
            return (rr + r0, cc + c0)

        if all(clue_of.get(tuple(g(p) for p in cells)) == _norm(clue) for clue, cells in lines):
            out.append({p: g(p) for _, cells in lines[: h] for p in cells if g(p) != p})
    return distinct_permutations(out)  # on a one-row box the mirror top-bottom is the identity


def _norm(clue) -> tuple[int, ...]:
    return tuple(n for n in clue if n)


def _span(lines) -> tuple[int, int]:
    lo, hi = 0, len(lines) - 1
    while lo <= hi and not _norm(lines[lo]):
        lo += 1
    while hi >= lo and not _norm(lines[hi]):
        hi -= 1
    return lo, hi
