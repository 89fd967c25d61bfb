"""The simple ``.nin`` format (Jakub Wilk's nonogram solver):

    5 10          width and height
    2             then `height` row clues, top to bottom,
    2 1           numbers separated by blanks (or commas)
    ...
    2 1           then `width` column clues, left to right

``0`` is an empty clue; an empty line is one too when the count of lines
comes out right that way (otherwise blank lines are ignored, with a
warning for one among the row or among the column clues).  Lines starting
with ``#`` are comments.  Anything else in a clue line that is not a whole
number (``1;1``, ``1x``), and a comma with no number on one side (``1,``,
``1,,1``), is an error: no spec lets a reader ignore it.  The first line is
the width and height, apart by blanks, or by one comma or ``x`` (``5x10``,
``5X10``).
"""

from __future__ import annotations

import re

from ...errors import InputError, plural, text_lines
from .build import Draft, Ignored, blank_lines, check_grid_size, echo, finish, load_noting, read_clue, read_size
from .nonfile import clue_tokens
from .puzzle import Nonogram

#: the first line: the width and the height, apart by blanks or by one comma or "x" ("X")
_HEADER = re.compile(r"([^\s,xX]+)(?:\s*[,xX]\s*|\s+)([^\s,xX]+)")


def load(text: str, path: str) -> Nonogram:
    return load_noting(_load, text, path, Ignored(path))


def _load(text: str, path: str, ignored: Ignored) -> Nonogram:
    lines = [(n + 1, s.strip()) for n, s in enumerate(text_lines(text)) if not s.strip().startswith("#")]
    while lines and lines[0][1] == "":
        lines.pop(0)
    if not lines:
        raise InputError("empty file: expected 'WIDTH HEIGHT' on the first line", path, None)
    head_line, head = lines.pop(0)
    dims = _HEADER.fullmatch(head)  # "5 10", and "5,10" or "5x10"; not "5xx10" or "5,,10"
    if dims is None:
        raise InputError(f"expected 'WIDTH HEIGHT' on the first line, got {echo(head)!r}", path, head_line)
    dims = dims.groups()
    d = Draft(path)
    d.width = read_size(dims[0], "width", path, head_line)
    d.height = read_size(dims[1], "height", path, head_line)
    d.width_line = d.height_line = head_line
    check_grid_size(d)  # (before the clue lines: 100000x100000 was "expected 100,000 row clues ...")
    while lines and lines[-1][1] == "":
        lines.pop()
    need = d.height + d.width
    if len(lines) != need:
        nonblank = [(n, s) for n, s in lines if s]
        if len(nonblank) == need:
            # (a blank line between the row and the column clues only parts them)
            blank_lines(lines, nonblank[:d.height], "row", d.height, ignored)
            blank_lines(lines, nonblank[d.height:], "column", d.width, ignored)
        if len(nonblank) >= need:
            lines = nonblank
    if len(lines) > need:
        n, s = lines[need]
        raise InputError(f"more clue lines than {plural(d.height, 'row')} + {plural(d.width, 'column')}: "
                         f"{echo(s)!r} is line "
                         f"{need + 1} of the clues", path, n)
    if len(lines) < need:
        got_rows = min(len(lines), d.height)
        raise InputError(f"expected {plural(d.height, 'row clue')} then {plural(d.width, 'column clue')}, "
                         f"found {plural(got_rows, 'row clue line')} and "
                         f"{plural(len(lines) - got_rows, 'column clue line')}", path,
                         lines[-1][0] if lines else head_line)
    rows, cols = lines[:d.height], lines[d.height:]
    d.rows = [_clue(s, path, n, f"row {k + 1} clue") for k, (n, s) in enumerate(rows)]
    d.cols = [_clue(s, path, n, f"column {k + 1} clue") for k, (n, s) in enumerate(cols)]
    d.row_lines, d.col_lines = [n for n, _ in rows], [n for n, _ in cols]
    d.rows_line, d.cols_line = head_line, head_line
    return finish(d)


def _clue(text: str, path: str, line: int, what: str):
    """Whole numbers separated by blanks or commas; anything else (a comma with
    no number on one side too) is an error."""
    return read_clue(clue_tokens(text, what, path, line), text, what, path, line)
