"""What every nonogram parser shares: reading clues and sizes, and the checks a
well-formed puzzle must pass before it is worth solving.

Every check names the file and the line that caused it (InputError), so the
CLI prints ``path:line: message`` and exits 2.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from ...errors import InputError, blank, control_character, foreign_digit, plural, title_from_path
from ...errors import shorten as echo
from .clues import Clue, min_length, runs
from .puzzle import Grid, Nonogram

#: the most digits a number may have: a line of a billion cells is past any
#: solver, and int() refuses more than 4,300 digits with a traceback
MAX_DIGITS = 9
#: the most cells a grid may have (webpbn's largest puzzles have about 10,000)
MAX_CELLS = 1_000_000


def fmt(clue: Sequence[int]) -> str:
    """A clue as files write it: ``2,1``, and ``0`` for the empty clue."""
    return ",".join(map(str, clue)) if clue else "0"


def read_clue(tokens: Sequence[str], text: str, what: str, path: str | None, line: int | None) -> Clue:
    """The clue whose numbers are ``tokens``, each a whole number; the file
    wrote it as ``text`` (for messages).  ``0`` alone is the empty clue.
    InputError naming ``path``:``line`` for anything else."""
    out: list[int] = []
    for tok in tokens:
        foreign = foreign_digit(tok)  # int() reads "２" and "١"; the formats mean 0-9
        if foreign:
            raise InputError(f"{what} {echo(text)!r}: {foreign}", path, line)
        if re.match(r"-\d", tok):
            raise InputError(f"negative number {echo(tok)!r} in {what} {echo(text)!r}", path, line)
        if not re.fullmatch(r"\d+", tok):
            raise InputError(f"{what} {echo(text)!r}: {echo(tok)!r} is not a whole number", path, line)
        if len(tok.lstrip("0")) > MAX_DIGITS:
            raise InputError(f"{what} {echo(text)!r}: {echo(tok)} is too large (more than "
                             f"{MAX_DIGITS} digits)", path, line)
        out.append(int(tok))
    if out == [0]:
        return ()
    if 0 in out:
        raise InputError(f"{what} {echo(text)!r}: a 0 must stand alone (it means an empty line)", path, line)
    return tuple(out)


def read_size(text: str, what: str, path: str | None, line: int | None) -> int:
    """A width or height: a positive whole number; InputError otherwise."""
    t = text.strip()
    foreign = foreign_digit(t)
    if foreign:
        raise InputError(f"{what} must be a positive whole number: {foreign}", path, line)
    if not re.fullmatch(r"\d+", t):
        raise InputError(f"{what} must be a positive whole number, got {echo(t)!r}", path, line)
    if not t.lstrip("0"):
        raise InputError(f"{what} must be a positive whole number, got 0", path, line)
    if len(t.lstrip("0")) > MAX_DIGITS:
        raise InputError(f"{what} {echo(t)} is too large (more than {MAX_DIGITS} digits)", path, line)
    return int(t)


@dataclass
class Draft:
    """A puzzle as a parser collected it, with the line each part came from."""

    path: str | None
    width: int | None = None
    height: int | None = None
    width_line: int | None = None
    height_line: int | None = None
    rows: list[Clue] | None = None
    cols: list[Clue] | None = None
    row_lines: list[int | None] = field(default_factory=list)
    col_lines: list[int | None] = field(default_factory=list)
    rows_line: int | None = None  # the line that starts the row clues
    cols_line: int | None = None
    goal: str | None = None  # row-major cells, "0" (or the background) = white
    goal_line: int | None = None
    title: str = ""
    meta: dict = field(default_factory=dict)
    #: the line of the title and of each meta value, where the format has one
    meta_lines: dict = field(default_factory=dict)


#: how many of the ignored things an error message names
MAX_NOTES = 3


class Ignored:
    """What a file said that its reader ignores: the warnings
    (``Nonogram.ignored``), and the notes an error message adds, for the
    ignored things that may explain it.  Each reader adds its own kinds."""

    def __init__(self, path: str):
        self.path = path
        self.warnings: list[str] = []
        self.notes: list[str] = []

    def explain(self, e: InputError) -> InputError:
        """``e``, its message naming what was ignored before it (if anything was)."""
        if not self.notes:
            return e
        notes = self.notes[:MAX_NOTES]
        if len(self.notes) > MAX_NOTES:
            notes.append(f"{len(self.notes) - MAX_NOTES} more ignored")
        return InputError(f"{e.message} ({'; '.join(notes)})", e.path, e.line)


def blank_lines(lines: list[tuple[int, str]], clue_lines: list[tuple[int, str]], what: str, clues: int,
                ignored: Ignored) -> None:
    """Warn of each blank line of ``lines`` that lies between two of
    ``clue_lines`` (the row or the column clues): it is read as no clue,
    because the other lines are as many as the clues; an empty row or
    column the author meant would leave one clue line too many (QA:
    nothing was said)."""
    if clue_lines:
        first, last = clue_lines[0][0], clue_lines[-1][0]
        for n, s in lines:
            if not s and first < n < last:
                ignored.warnings.append(
                    f"{ignored.path}:{n}: blank line among the {what} clues ignored: the other lines are "
                    f"the {clues} clues (an empty clue is written 0)")


def load_noting(load, text: str, path: str, ignored: Ignored) -> Nonogram:
    """``load(text, path, ignored)``, its errors explained by what it
    ignored, the warnings kept on the puzzle."""
    try:
        p = load(text, path, ignored)
    except InputError as e:
        raise ignored.explain(e) from None
    p.ignored = tuple(ignored.warnings)
    return p


def check_grid_size(d: Draft) -> None:
    """The grid's cells against MAX_CELLS, once the width and height are known
    (a reader calls it as soon as they are: a 100000 x 100000 grid with its
    clues cut off was "0 row clues for height 100000")."""
    if d.width * d.height > MAX_CELLS:
        line = max(d.width_line or 0, d.height_line or 0) or None
        raise InputError(f"a {d.width} x {d.height} grid ({d.width * d.height:,} cells) is too large "
                         f"(at most {MAX_CELLS:,} cells)", d.path, line)


def finish(d: Draft, white: str = "0", ignored: Ignored | None = None) -> Nonogram:
    """Check a draft and make the Nonogram; InputError naming file:line otherwise.
    A title the file gives blank is replaced, with a warning in ``ignored``."""
    p = d.path
    if d.width is None:
        raise InputError("missing the width (a 'width N' line)", p, None)
    if d.height is None:
        raise InputError("missing the height (a 'height N' line)", p, None)
    if d.rows is None:
        raise InputError("missing the row clues (a 'rows' line followed by the clues)", p, None)
    if d.cols is None:
        raise InputError("missing the column clues (a 'columns' line followed by the clues)", p, None)
    check_grid_size(d)
    if len(d.rows) != d.height:
        raise InputError(f"{plural(len(d.rows), 'row clue')} for height {d.height}", p, d.rows_line)
    if len(d.cols) != d.width:
        raise InputError(f"{plural(len(d.cols), 'column clue')} for width {d.width}", p, d.cols_line)
    for kind, clues, lines, n in (("row", d.rows, d.row_lines, d.width), ("column", d.cols, d.col_lines, d.height)):
        for i, clue in enumerate(clues):
            if min_length(clue) > n:
                line = lines[i] if i < len(lines) else None
                raise InputError(f"{kind} {i + 1} clue {echo(fmt(clue))} needs {min_length(clue)} cells "
                                 f"but the {kind} has {n}", p, line)
    goal: Grid | None = None
    if d.goal is not None:
        cells = d.goal
        if len(cells) != d.width * d.height:
            raise InputError(f"goal has {plural(len(cells), 'cell')}, expected {d.width * d.height} "
                             f"({d.width} x {d.height})", p, d.goal_line)
        goal = tuple(tuple(0 if ch in white else 1 for ch in cells[r * d.width:(r + 1) * d.width])
                     for r in range(d.height))
        for r, clue in enumerate(d.rows):
            if runs(goal[r]) != clue:
                raise InputError(f"goal does not match the clues: its row {r + 1} has runs "
                                 f"{echo(fmt(runs(goal[r])))}, the clue says {echo(fmt(clue))}", p, d.goal_line)
        for c, clue in enumerate(d.cols):
            got = runs(goal[r][c] for r in range(d.height))
            if got != clue:
                raise InputError(f"goal does not match the clues: its column {c + 1} has runs "
                                 f"{echo(fmt(got))}, the clue says {echo(fmt(clue))}", p, d.goal_line)
    for key, text in (("title", d.title), *d.meta.items()):
        control = control_character(text.replace("\n", "").replace("\r", ""))  # (XML text may wrap)
        if control:  # printed by info, check and list: an ESC would reach the terminal
            raise InputError(f"{key} {echo(text)!r} holds {control}", p, d.meta_lines.get(key))
    # the first that prints as something: the title, the catalogue, the file's name
    title = next((t for t in (d.title, d.meta.get("catalogue", "")) if not blank(t)), None) \
        or title_from_path(p, "nonogram")
    if blank(d.title) and "title" in d.meta_lines and ignored is not None:  # (said nothing, QA)
        ignored.warnings.append(f"{p}:{d.meta_lines['title']}: title is blank: the puzzle is titled '{title}'")
    return Nonogram(width=d.width, height=d.height, rows=list(d.rows), cols=list(d.cols),
                    goal=goal, title=title, path=p, meta=dict(d.meta))
