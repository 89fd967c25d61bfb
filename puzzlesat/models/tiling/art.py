"""ASCII art for 2-D lattices: reading shapes drawn as text, and placing
cells on a character grid for drawing them back.

One *layout* per lattice maps a lattice cell to a (line, column) position and
back, so that what the text renderer prints is also what a file may contain:

``square``
    one character per square: line = row, column = column.
``hex``
    offset rows: a hexagon is one character, hexagons in a row sit two
    columns apart and each row is shifted one column from the one above::

         a a
        a b b
         b b

    (line r, column 2q + r is the axial cell (q, r)).  Only the relative
    positions matter: the whole drawing may start in either column parity.
``triangle``
    one character per triangle, a row of triangles alternating
    up, down, up, ...: the character at line y, column x is an up-pointing
    triangle when x + y is even and a down-pointing one when it is odd
    (columns count from the first character of the line, lines from the
    first line of the drawing, blank lines included).  So ``AB`` on the
    first line is a rhombus of two triangles, and a 2 x 2 rhombus of
    unit rhombi is::

         ABAB
          ABAB

``no0``
    circles on one line, gaps on the next: a circle line holds circles
    (``o``, ``O`` or ``@``) two columns apart, and consecutive circle lines
    are shifted one column, as for hexagons; the line between two circle
    lines holds the gaps, one per column: the gap directly below a circle
    of the line above is an up-pointing gap (touching that circle and the
    two below it), the gap directly above a circle of the line below is a
    down-pointing one.  So the six gaps around a circle in column c are in
    columns c-1, c, c+1 of the lines above and below it; the piece with all
    six bumps is::

        ###
         o
        ###

    Gaps may be drawn with any mark other than a circle mark (a hole,
    ``*``, may stand for a circle or a gap).  Which lines
    hold circles is read from the circle marks, so a drawing may begin with
    a line of gaps.

In every layout ``.`` and spaces are empty; any other character is a cell
(for a board, ``*`` is a hole: a reserved cell that no piece covers).  A
character is one column and one cell, so a combining mark (``e`` and U+0301,
which a terminal shows as one "é") and a format character (a zero-width
space) are refused: each would be a cell of its own that shows as none.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Callable

from .lattice import Point

EMPTY_CHARS = " ."
CIRCLE_CHARS = "oO@"
HOLE = "*"


class ArtError(ValueError):
    """A drawing that is not a shape of its lattice; ``line``/``column`` are
    0-based positions in the drawing, when one character is to blame."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.line, self.column = line, column


@dataclass(frozen=True)
class Layout:
    #: cell -> (line, column)
    position: Callable[[Point], tuple[int, int]]
    #: (line, column, character) -> cell, or None when no cell may be drawn there
    cell_at: Callable[[int, int, str], Point | None]
    #: whole-drawing shifts (lines, columns) tried in order when the drawing
    #: as given does not fit; the first that fits is used
    shifts: tuple[tuple[int, int], ...] = ((0, 0),)
    #: how far the renderer may move a drawing without changing what it reads
    #: back as: a (lines, columns) step and a columns step
    line_step: tuple[int, int] = (1, 0)
    column_step: int = 1
    #: what a cell position means, for error messages
    rule: str = ""


def _square_cell(line, col, ch):
    return (line, col)


def _hex_position(p):
    q, r = p
    return (r, 2 * q + r)


def _hex_cell(line, col, ch):
    if (col - line) % 2:
        return None
    return ((col - line) // 2, line)


def _tri_position(p):
    x, y = p
    return (y // 3, (2 * x + y) // 3)


def _tri_cell(line, col, ch):
    if (col + line) % 2 == 0:  # up-pointing: the (2, 2) class
        return (2 + 3 * ((col - line - 2) // 2), 2 + 3 * line)
    return (1 + 3 * ((col - line - 1) // 2), 1 + 3 * line)


def _no0_position(p):
    x, y = p
    return (2 * (y // 3) + (0 if x % 3 == 0 else 1), (2 * x + y) // 3)


def _no0_cell(line, col, ch):
    circle = ch in CIRCLE_CHARS or (ch == HOLE and line % 2 == 0)  # a hole may be either
    if line % 2 == 0:
        j = line // 2
        if not circle or (col - j) % 2:
            return None
        return (3 * ((col - j) // 2), 3 * j)
    if circle:
        return None
    j = (line - 1) // 2
    if (col - j) % 2:  # down-pointing gap, above a circle of the next line
        return (1 + 3 * ((col - j - 1) // 2), 1 + 3 * j)
    return (2 + 3 * ((col - j - 2) // 2), 2 + 3 * j)


LAYOUTS: dict[str, Layout] = {
    "square": Layout(lambda p: (p[0], p[1]), _square_cell),
    # hex drawings are read in either column parity and no0 drawings in
    # either line and column parity (``shifts``), so the renderer may move
    # them by single columns (and no0 by single lines)
    "hex": Layout(_hex_position, _hex_cell, shifts=((0, 0), (0, 1)), line_step=(1, 1), column_step=1,
                  rule="hexagons in a row are two columns apart and each row is shifted by one column"),
    "triangle": Layout(_tri_position, _tri_cell, line_step=(1, 1), column_step=2),
    "no0": Layout(_no0_position, _no0_cell, shifts=((0, 0), (0, 1), (1, 0), (1, 1)), line_step=(1, 0),
                  column_step=1,
                  rule=f"circles ({' '.join(CIRCLE_CHARS)}) sit two columns apart on every other line, "
                       "consecutive circle lines shifted by one column, and gaps on the lines between"),
}


def layout(lattice_name: str) -> Layout | None:
    return LAYOUTS.get(lattice_name)


def marks(text: str) -> list[tuple[int, int, str]]:
    """(line, column, character) of every non-empty character."""
    out = []
    for i, row in enumerate(text.split("\n")):
        row = row.rstrip("\r")
        for j, ch in enumerate(row):
            if ch == "\t":
                raise ArtError("a tab in a drawing: use spaces, columns matter", i, j)
            odd = _not_a_mark(ch) if not ch.isascii() or not ch.isprintable() else None
            if odd:
                raise ArtError(f"{char_name(ch)} at column {j + 1} is {odd}", i, j)
            if ch not in EMPTY_CHARS:
                out.append((i, j, ch))
    return out


def _not_a_mark(ch: str) -> str | None:
    """Why ``ch`` cannot be drawn (a character that takes no column of its
    own on the terminal or looks like a space, yet would be a cell), else
    None."""
    category = unicodedata.category(ch)
    if category == "Cc":  # (an escape, a form feed, a carriage return inside a line: QA)
        return "a control character, which would count as a cell of its own"
    if category in ("Zs", "Zl", "Zp"):  # (a no-break space looked empty and was a cell, QA)
        return "a blank other than the space, which would count as a cell: use a space"
    if unicodedata.combining(ch) or category in ("Mn", "Me"):
        return "a combining mark, which would count as a cell of its own"
    if category == "Cf":
        return "a format character, which would count as a cell of its own"
    return None


def char_name(ch: str) -> str:
    """``U+0301 COMBINING ACUTE ACCENT``: a character that cannot be shown quoted."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def parse(lattice_name: str, text: str) -> dict[Point, str]:
    """cell -> the character drawn there.  ArtError if the drawing is empty or
    no whole-drawing shift makes every mark a cell of the lattice."""
    lay = LAYOUTS.get(lattice_name)
    if lay is None:
        raise ArtError(f"the {lattice_name} lattice has no ASCII-art layout; give cells instead")
    ms = marks(text)
    if not ms:
        raise ArtError("the drawing is empty")
    if lattice_name == "no0" and not any(ch in CIRCLE_CHARS for _, _, ch in ms):
        raise ArtError(f"a no0 drawing needs at least one circle ({' '.join(CIRCLE_CHARS)})")
    best = None  # (number of misplaced marks, first misplaced mark) over the shifts
    for dl, dc in lay.shifts:
        out: dict[Point, str] = {}
        bad = []
        for i, j, ch in ms:
            p = lay.cell_at(i + dl, j + dc, ch)
            if p is None:
                bad.append((i, j, ch))
            else:
                out[p] = ch
        if not bad:
            return out
        if best is None or len(bad) < best[0]:
            best = (len(bad), bad[0])
    i, j, ch = best[1]
    raise ArtError(f"{ch!r} at column {j + 1} is not at a cell position of the {lattice_name} lattice"
                   + (f" ({lay.rule})" if lay.rule else ""), i, j)


def positions(lattice_name: str, cells) -> dict[Point, tuple[int, int]]:
    """cell -> (line, column), moved to start at line 0 and column 0 or 1
    by translations of the drawing that keep its meaning."""
    lay = LAYOUTS[lattice_name]
    pos = {c: lay.position(c) for c in cells}
    if not pos:
        return pos
    dl, dc = lay.line_step
    k = min(l for l, _ in pos.values()) // dl
    pos = {c: (l - k * dl, col - k * dc) for c, (l, col) in pos.items()}
    m = min(col for _, col in pos.values()) // lay.column_step
    return {c: (l, col - m * lay.column_step) for c, (l, col) in pos.items()}


def draw(lattice_name: str, chars: dict[Point, str]) -> list[str]:
    """Lines of text with ``chars[cell]`` at each cell's position (see
    ``positions``), trailing spaces stripped."""
    pos = positions(lattice_name, chars)
    if not pos:
        return []
    h = max(l for l, _ in pos.values()) + 1
    w = max(c for _, c in pos.values()) + 1
    grid = [[" "] * w for _ in range(h)]
    for cell, (l, c) in pos.items():
        grid[l][c] = chars[cell]
    return ["".join(r).rstrip() for r in grid]
