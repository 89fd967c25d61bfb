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
    # a dihedral map takes each line of the box onto a line, read forwards or
    # backwards: where it takes a line's first two cells says which (a line of
    # one cell stays a line of its kind).  Comparing clues line by line is
    # O(h + w); cell by cell it was most of compiling a 1000 x 1000 puzzle.
    row_clues = [_norm(rows[r]) for r in range(r0, r1 + 1)]
    col_clues = [_norm(cols[c]) for c in range(c0, c1 + 1)]
    clue_of = {"row": row_clues, "column": col_clues}

    def image_clue(f, kind, i, n):
        first = f(i, 0) if kind == "row" else f(0, i)
        if n == 1:
            return clue_of[kind][first[0] if kind == "row" else first[1]]
        second = f(i, 1) if kind == "row" else f(1, i)
        if first[0] == second[0]:  # a row
            clue = row_clues[first[0]]
            return clue if second[1] > first[1] else clue[::-1]
        clue = col_clues[first[1]]
        return clue if second[0] > first[0] else clue[::-1]

    out: list[dict[Point, Point]] = [{}]
    seen = {_corners(lambda r, c: (r, c), h, w)}  # two maps that move every cell alike are one
    for f in maps:
        if not (all(image_clue(f, "row", i, w) == row_clues[i] for i in range(h))
                and all(image_clue(f, "column", j, h) == col_clues[j] for j in range(w))):
            continue
        key = _corners(f, h, w)
        if key in seen:  # on a one-row box the mirror top-bottom is the identity
            continue
        seen.add(key)
        g = {}
        for r in range(h):
            for c in range(w):
                rr, cc = f(r, c)
                if (rr, cc) != (r, c):
                    g[(r + r0, c + c0)] = (rr + r0, cc + c0)
        out.append(g)
    return out


def _corners(f, h: int, w: int) -> tuple:
    """Where ``f`` takes three corners of an h x w box: a dihedral map of the
    box is the affine map they fix (on a box one cell wide or high, its action
    along that side is no action)."""
    return f(0, 0), f(0, w - 1), f(h - 1, 0)


def _norm(clue) -> tuple[int, ...]:
    return tuple(n for n in clue if n)


def _span(lines) -> tuple[int, int]:
    lo, hi = 0, len(lines) - 1
    while lo <= hi and not _norm(lines[lo]):
        lo += 1
    while hi >= lo and not _norm(lines[hi]):
        hi -= 1
    return lo, hi
