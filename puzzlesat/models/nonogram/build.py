"""What every nonogram parser shares: reading one clue, and the checks a
well-formed puzzle must pass before it is worth solving.

Every check names the file and the line that caused it (InputError), so the
CLI prints ``path:line: message`` and exits 2.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...errors import InputError
from .clues import Clue, min_length, runs
from .puzzle import Grid, Nonogram

_TOKEN = re.compile(r"^(\d+)([A-Za-z]?)(.*)$")


def parse_clue(text: str, path: str | None, line: int | None,
               colours: set | None = None, what: str = "clue") -> Clue:
    """A clue from ``"3,1,2"`` (commas and/or blanks between numbers).

    ``"0"`` and ``""`` are the empty clue.  A letter after a number is a
    colour designation (nonogram-db); it is collected into ``colours`` if
    given, and other trailing characters are ignored, as FORMAT.md asks.
    """
    tokens = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    out: list[int] = []
    for tok in tokens:
        m = _TOKEN.match(tok)
        if m is None:
            if re.match(r"^-\d", tok):
                raise InputError(f"negative number {tok!r} in {what} {text.strip()!r}", path, line)
            raise InputError(f"{what} {text.strip()!r}: {tok!r} is not a number", path, line)
        if colours is not None and m.group(2):
            colours.add(m.group(2).lower())
        out.append(int(m.group(1)))
    if out == [0]:
        return ()
    if 0 in out:
        raise InputError(f"{what} {text.strip()!r}: a 0 must stand alone (it means an empty line)", path, line)
    return tuple(out)


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


def finish(d: Draft, white: str = "0") -> Nonogram:
    """Check a draft and make the Nonogram; InputError naming file:line otherwise."""
    p = d.path
    if d.width is None:
        raise InputError("missing the width (a 'width N' line)", p, None)
    if d.height is None:
        raise InputError("missing the height (a 'height N' line)", p, None)
    if d.rows is None:
        raise InputError("missing the row clues (a 'rows' line followed by the clues)", p, None)
    if d.cols is None:
        raise InputError("missing the column clues (a 'columns' line followed by the clues)", p, None)
    if len(d.rows) != d.height:
        raise InputError(f"{len(d.rows)} row clues for height {d.height}", p, d.rows_line)
    if len(d.cols) != d.width:
        raise InputError(f"{len(d.cols)} column clues for width {d.width}", p, d.cols_line)
    for kind, clues, lines, n in (("row", d.rows, d.row_lines, d.width), ("column", d.cols, d.col_lines, d.height)):
        for i, clue in enumerate(clues):
            if min_length(clue) > n:
                line = lines[i] if i < len(lines) else None
                raise InputError(f"{kind} {i + 1} clue {_fmt(clue)} needs {min_length(clue)} cells "
                                 f"but the {kind} has {n}", p, line)
    goal: Grid | None = None
    if d.goal is not None:
        cells = d.goal
        if len(cells) != d.width * d.height:
            raise InputError(f"goal has {len(cells)} cells, expected {d.width * d.height} "
                             f"({d.width} x {d.height})", p, d.goal_line)
        goal = tuple(tuple(0 if ch in white else 1 for ch in cells[r * d.width:(r + 1) * d.width])
                     for r in range(d.height))
        for r, clue in enumerate(d.rows):
            if runs(goal[r]) != clue:
                raise InputError(f"goal does not match the clues: its row {r + 1} has runs "
                                 f"{_fmt(runs(goal[r]))}, the clue says {_fmt(clue)}", p, d.goal_line)
        for c, clue in enumerate(d.cols):
            got = runs(goal[r][c] for r in range(d.height))
            if got != clue:
                raise InputError(f"goal does not match the clues: its column {c + 1} has runs "
                                 f"{_fmt(got)}, the clue says {_fmt(clue)}", p, d.goal_line)
    title = d.title or d.meta.get("catalogue", "") or (_stem(p) if p else "nonogram")
    return Nonogram(width=d.width, height=d.height, rows=list(d.rows), cols=list(d.cols),
                    goal=goal, title=title, path=p, meta=dict(d.meta))


def _fmt(clue) -> str:
    return ",".join(map(str, clue)) if clue else "0"


def _stem(path: str) -> str:
    from pathlib import Path

    return Path(path).stem


def positive_int(text: str, what: str, path: str | None, line: int | None) -> int:
    t = text.strip()
    if not re.fullmatch(r"\d+", t):
        raise InputError(f"{what} must be a positive whole number, got {t!r}", path, line)
    v = int(t)
    if v == 0:
        raise InputError(f"{what} must be a positive whole number, got 0", path, line)
    return v
