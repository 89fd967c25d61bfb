"""The 1965 BOX / RESERVE / ELEMENT format (Isobe), suffix ``.box``.

    BOX / 5 * 4 * 3
    RESERVE / (*) (4, 4), (4, 5), (5, 4), (5, 5)
    ELEMENT / (I) (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)

One statement a line; a line that does not start with a keyword continues the
statement before it (a line that starts with a keyword but no "/" is an error,
not a continuation).  Indices start at 1.  An element may have fewer
coordinates than the box has dimensions (missing ones are 1).  A RESERVE whose
symbol is ``*`` makes holes; any other symbol fixes that ELEMENT in place at
those cells (one of its copies).  An ELEMENT given twice with the same name
and shape is one piece with count 2.

Extensions, all in comments (``#`` to end of line): ``# title: ...`` (by
default the file's name without its suffix), ``# source: ...``,
``# expected-count: N``, ``# expected-unique: N``, each at most once, and
``# one-sided: A B`` to keep the named elements from turning over (on as
many lines as you like).  A problem in a statement continued over several
lines is reported at the line that holds the offending text, quoted as
written.
"""

from __future__ import annotations

import bisect
import math
import re

from ...errors import InputError, plural
from .build import PieceSpec, build_tiling, cell_text, check_board_cells, not_connected, shorten
from .geometry import is_connected
from .lattice import CubicLattice

_KEYWORD = re.compile(r"^\s*(BOX|RESERVE|ELEMENT)\s*/\s*(.*)$", re.IGNORECASE)
#: a keyword without its "/": never a continuation of the statement before
_BARE_KEYWORD = re.compile(r"^\s*(BOX|RESERVE|ELEMENT)(?![A-Za-z0-9_])", re.IGNORECASE)
#: a word and a "/": a statement, with a misspelt keyword (continuations are numbers and cells)
_WORD_SLASH = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_-]*)\s*/")
_USAGE = {"BOX": "BOX / 5 * 4 * 3", "RESERVE": "RESERVE / (*) (r, c), ...", "ELEMENT": "ELEMENT / (NAME) (r, c), ..."}
_DIGITS = re.compile(r"\s*([+-]?)(\d+)\s*", re.ASCII)
_META = re.compile(r"^\s*#\s*(title|source|expected-count|expected-unique|one-sided)\s*:\s*(.*?)\s*$", re.IGNORECASE)
_SYMBOL = re.compile(r"^\s*\(\s*([^()\s]+)\s*\)\s*(.*)$", re.DOTALL)
_TUPLE = re.compile(r"\(([^()]*)\)")


class _Statement:
    """A statement's keyword and its text after the "/", its continuation
    lines joined by spaces; ``line_at`` finds the file line of any place in
    that text, so that a problem on a continuation line is reported there."""

    def __init__(self, keyword: str, body: str, line: int):
        self.keyword, self.body, self.line = keyword, body, line
        self._offsets, self._lines = [0], [line]  # where each line's text starts in body, increasing

    def add(self, text: str, line: int) -> None:
        self.body += " "
        self._offsets.append(len(self.body))
        self._lines.append(line)
        self.body += text

    def line_at(self, offset: int) -> int:
        return self._lines[bisect.bisect_right(self._offsets, offset) - 1]


def load(text: str, path: str):
    meta: dict[str, str] = {}
    meta_line: dict[str, int] = {}
    one_sided: dict[str, int] = {}  # element name -> the line of its '# one-sided:'
    statements: list[_Statement] = []
    for no, raw in enumerate(text.splitlines(), 1):
        m = _META.match(raw)
        if m:
            key = m.group(1).lower()
            if key == "one-sided":  # names add up, line by line
                for name in m.group(2).split():
                    one_sided.setdefault(name, no)
                continue
            if key in meta:
                raise InputError(f"'# {key}:' given twice (first at line {meta_line[key]})", path, no)
            meta[key], meta_line[key] = m.group(2), no
            continue
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        m = _KEYWORD.match(line)
        if m:
            statements.append(_Statement(m.group(1).upper(), m.group(2), no))
            continue
        bare = _BARE_KEYWORD.match(line)
        if bare:
            kw = bare.group(1).upper()
            raise InputError(f"'{kw}' must be followed by ' / ' ({_USAGE[kw]})", path, no)
        word = _WORD_SLASH.match(line)
        if word:
            raise InputError(f"unknown statement {shorten(word.group(1))!r}; expected BOX, RESERVE or ELEMENT",
                             path, no)
        if statements:
            statements[-1].add(line.strip(), no)
        else:
            raise InputError(f"expected a BOX, RESERVE or ELEMENT statement, found {shorten(line.strip())!r}",
                             path, no)

    boxes = [s for s in statements if s.keyword == "BOX"]
    if not boxes:
        raise InputError("no BOX statement (expected e.g. 'BOX / 6 * 10')", path)
    if len(boxes) > 1:
        raise InputError(f"a second BOX statement (the first is at line {boxes[0].line})", path, boxes[1].line)
    body, bline = boxes[0].body, boxes[0].line
    sizes = [_whole(x) for x in body.split("*")]
    if any(d is None for d in sizes):
        raise InputError(f"BOX sizes must be whole numbers separated by '*', got {shorten(body.strip())!r}",
                         path, bline)
    if not 1 <= len(sizes) <= 4:
        raise InputError(f"a BOX has 1 to 4 dimensions, got {len(sizes)}", path, bline)
    if any(isinstance(d, int) and d < 1 for d in sizes):
        raise InputError(f"BOX sizes must be positive, got {shorten(body.strip())!r}", path, bline)
    # before any cell exists; a size of more digits than int() reads counts as 10^(digits - 1)
    check_board_cells(math.prod(d if isinstance(d, int) else 10 ** (len(d) - 1) for d in sizes), path, bline)
    dims = tuple(sizes)

    lattice = CubicLattice(len(dims))
    elements: list[PieceSpec] = []
    reserves: list[tuple[str, list, int, list]] = []
    for st in statements:
        kw, no = st.keyword, st.line
        if kw == "BOX":
            continue
        m = _SYMBOL.match(st.body)
        if not m:
            raise InputError(f"{kw} needs a symbol in parentheses, e.g. '{kw} / (X) (1, 1), ...'", path, no)
        sym = m.group(1)
        cells, lines = _cells(st, m.start(2), len(dims), path, allow_short=(kw == "ELEMENT"))
        if kw == "ELEMENT":
            if not is_connected(lattice, cells):
                raise InputError(not_connected(lattice, sym), path, no)
            elements.append(PieceSpec(sym, cells, 1, sym in one_sided, no))
        else:
            for c, at in zip(cells, lines):
                if any(not 0 <= x < d for x, d in zip(c, dims)):
                    raise InputError(f"reserved cell {_fmt(c)} lies outside the {_fmt_dims(dims)} box", path, at)
            reserves.append((sym, cells, no, lines))

    unknown = [n for n in one_sided if n not in {e.name for e in elements}]
    if unknown:
        raise InputError(f"'# one-sided:' names no ELEMENT {shorten(', '.join(unknown))}", path,
                         one_sided[unknown[0]])
    expected = {}
    for key, field in (("expected-count", "count"), ("expected-unique", "unique")):
        if key in meta:
            try:
                expected[field] = int(meta[key])
            except ValueError:
                raise InputError(f"'# {key}:' must be a whole number, got {shorten(meta[key])!r}", path,
                                 meta_line[key]) from None
    return build_tiling(
        lattice=lattice,
        dims=dims,
        holes_or_fixed=reserves,
        pieces=elements,
        path=path,
        title=meta.get("title", ""),
        source=meta.get("source"),
        expected=expected,
    )


def _cells(st: _Statement, start: int, d: int, path: str, allow_short: bool) -> tuple[list, list[int]]:
    """The cells written in ``st.body`` from ``start`` on, and the file line
    of each; every problem is reported at the line of the text at fault,
    quoted as written."""
    rest = st.body[start:]
    at = lambda offset: st.line_at(start + offset)  # noqa: E731
    first_line: dict[tuple[int, ...], int] = {}  # cell -> its line, in the order written
    matches = list(_TUPLE.finditer(rest))
    gaps = []  # (offset, text) between the cells
    end = 0
    for m in matches:
        gaps.append((end, rest[end:m.start()]))
        end = m.end()
    gaps.append((end, rest[end:]))
    for offset, gap in gaps:  # nothing but commas between cells
        junk = gap.strip(" ,")
        if junk:
            hint = " (a '(' without its ')')" if "(" in junk and ")" not in junk else ""
            raise InputError(f"unexpected text {shorten(junk)!r}{hint}: cells are written (i, j, ...) "
                             "separated by commas", path, at(offset + len(gap) - len(gap.lstrip(" ,"))))
    for m in matches:
        t, no = m.group(1), at(m.start())
        xs = [_whole(x) for x in t.split(",")]
        if any(x is None for x in xs):
            raise InputError(f"cell ({shorten(t)}) must be whole numbers separated by commas", path, no)
        huge = next((x for x in xs if isinstance(x, str)), None)
        if huge is not None:
            raise InputError(f"cell ({shorten(t)}): a coordinate of {len(huge):,} digits is too large", path, no)
        if len(xs) > d or (len(xs) < d and not allow_short):
            raise InputError(f"cell ({shorten(t)}) has {plural(len(xs), 'coordinate')}, the box has "
                             f"{plural(d, 'dimension')}", path, no)
        if any(x < 1 for x in xs):
            raise InputError(f"cell ({shorten(t)}): indices start at 1", path, no)
        c = tuple(x - 1 for x in xs) + (0,) * (d - len(xs))
        if c in first_line:
            first = first_line[c]
            raise InputError(f"cell {_fmt(c)} is listed twice" + (f" (first at line {first})" if first != no else ""),
                             path, no)
        first_line[c] = no
    if not first_line:
        raise InputError("no cells given", path, at(0))
    return list(first_line), list(first_line.values())


def _whole(text: str) -> int | str | None:
    """A whole number as int() reads it; None when it is not one.  A number of
    more digits than int() reads (4,300) is its digits, a str (or -1 when
    negative: every check below only needs its sign)."""
    try:
        return int(text)
    except ValueError:
        m = _DIGITS.fullmatch(text)
        if not m:
            return None
        digits = m.group(2).lstrip("0") or "0"
        if len(digits) < 4000:
            return int(m.group(1) + digits)
        return -1 if m.group(1) == "-" else digits


def _fmt(c) -> str:
    return cell_text(x + 1 for x in c)


def _fmt_dims(dims) -> str:
    return shorten(" * ".join(map(str, dims)))
