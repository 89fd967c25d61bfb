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
many lines as you like); keys are read in any case, with or without spaces
around the ``#`` and the ``:`` (``# Title:``, ``#title:a``).  A known key
without a value is an error, and so is
a negative expected count.  Any other comment stays a comment: other tools
write .box files too.  But a comment of the shape ``# key: value`` whose key
is one lower-case word (``# titel: x``, ``# frobnicate: 3``) or looks like a
known key (``# Expected count: 8``) is read as a comment with a warning
(``Tiling.ignored``), so that a misspelt key is not dropped without a word;
a known key in a comment after a statement (``BOX / 2 * 4  # title: x``) is
not read, with a warning too: keys go on a line of their own; so is a
known key without its ``:`` (``# one-sided L``, ``# expected-count = 3``).
A problem in a statement continued over several lines is reported at the
line that holds the offending text, quoted as written.

Strict where the paper's examples are: cells are separated by exactly one
comma (none missing, none before the first cell or after the last), numbers
are the ASCII digits 0-9 (Python's int() also reads other scripts' digits,
``1_000`` and ``+2``), ``*`` names holes, never an ELEMENT, a statement or a
key's value holds no control characters (an ESC would reach the terminal),
and a name no format character (a zero-width space: it does not print).  A
file needs at least one ELEMENT (a board with no pieces is no puzzle).
"""

from __future__ import annotations

import bisect
import difflib
import math
import re

from ...errors import InputError, blank, control_character, foreign_digit, number, plural, quoted, text_lines
from .build import (PieceSpec, build_tiling, cell_text, check_board_cells, check_piece_cells, format_character,
                    leading_mark, not_connected, shorten, without_format_characters)
from .geometry import is_connected
from .lattice import CubicLattice

_KEYWORD = re.compile(r"^\s*(BOX|RESERVE|ELEMENT)\s*/\s*(.*)$", re.IGNORECASE)
#: a keyword without its "/": never a continuation of the statement before
_BARE_KEYWORD = re.compile(r"^\s*(BOX|RESERVE|ELEMENT)(?![A-Za-z0-9_])", re.IGNORECASE)
#: a word and a "/": a statement, with a misspelt keyword (continuations are numbers and cells)
_WORD_SLASH = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_-]*)\s*/")
_USAGE = {"BOX": "BOX / 5 * 4 * 3", "RESERVE": "RESERVE / (*) (r, c), ...", "ELEMENT": "ELEMENT / (NAME) (r, c), ..."}
_DIGITS = re.compile(r"\s*(-?)(\d+)\s*", re.ASCII)
#: a number written with a "+": refused (numbers are the digits 0-9; a "-" is read, to say what is wrong)
_PLUS = re.compile(r"\s*\+\d+\s*", re.ASCII)
_META_KEYS = ("title", "source", "expected-count", "expected-unique", "one-sided")
_META = re.compile(r"^\s*#\s*(%s)\s*:\s*(.*?)\s*$" % "|".join(_META_KEYS), re.IGNORECASE)
#: what a known key's value is, for the error when it has none
_META_VALUE = {"title": "a one-line title", "source": "where the puzzle comes from",
               "expected-count": "a whole number", "expected-unique": "a whole number",
               "one-sided": "the names of ELEMENTs, e.g. '# one-sided: L N'"}
#: a comment that reads "# key: value" (the ":" then a space or the end: "# http://..." is no key)
_KEY_COMMENT = re.compile(r"^\s*#\s*([^:#]{1,40}?)\s*:(?:\s|$)")
#: a known key without its ":" (``# one-sided L``, ``# expected-count = 3``, ``# one_sided L``; title
#: and source in lower case only, since "# Title of ..." may be prose), followed by a space, "=" or the
#: end, with no ":" later ("# source code: ..." is another key): a comment, with a warning (QA: dropped
#: unsaid, and the count changed)
_KEY_NO_COLON = re.compile(r"^\s*#\s*(one[-_]sided|expected[-_]count|expected[-_]unique|(?-i:title|source))"
                           r"(?=\s|=|$)\s*=?\s*([^:]*?)\s*$", re.IGNORECASE)
#: a key that is one lower-case word
_LOWER_WORD = re.compile(r"[a-z][a-z0-9_-]*")
_SYMBOL = re.compile(r"^\s*\(\s*([^()\s]+)\s*\)\s*(.*)$", re.DOTALL)
_TUPLE = re.compile(r"\(([^()]*)\)")
#: what may stand between cells besides the one comma: white space
_GAP = " \t\f\v,"


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
    warnings: list[str] = []
    try:
        tiling = _load(text, path, warnings)
    except InputError as e:
        e.warnings = tuple(warnings)
        raise
    tiling.ignored = tuple(warnings)
    return tiling


def _load(text: str, path: str, warnings: list[str]):
    meta: dict[str, str] = {}
    meta_line: dict[str, int] = {}
    one_sided: dict[str, int] = {}  # element name -> the line of its '# one-sided:'
    statements: list[_Statement] = []
    for no, raw in enumerate(text_lines(text), 1):
        m = _META.match(raw)
        if m:
            # (casefold, not lower: the case-blind match takes a long s for an s, "# one-ſided:", and
            # lower() kept it, a key of no known name: a KeyError traceback, QA)
            key, value = m.group(1).casefold(), m.group(2)
            if blank(value):  # (a zero-width space alone was a title that printed as nothing, QA)
                raise InputError(f"'# {key}:' has no value; expected {_META_VALUE[key]}", path, no)
            control = control_character(value)
            if control:
                raise InputError(f"'# {key}:' {shorten(quoted(value))} holds {control}", path, no)
            if key == "one-sided":  # names add up, line by line
                for name in value.split():
                    invisible = format_character(name)
                    if invisible:
                        raise InputError(f"'# one-sided:' name {shorten(quoted(name))} holds {invisible}, "
                                         "which does not print", path, no)
                    mark = leading_mark(name)
                    if mark:
                        raise InputError(f"'# one-sided:' name {shorten(quoted(name))} begins with {mark}, which "
                                         "prints on the character before it", path, no)
                    if name in one_sided:
                        where = "on this line" if one_sided[name] == no else f"at line {one_sided[name]}"
                        warnings.append(f"{path}:{no}: '# one-sided:' names {shorten(name)} again "
                                        f"(first {where}); read once")
                    one_sided.setdefault(name, no)
                continue
            if key in meta:
                raise InputError(f"'# {key}:' given twice (first at line {meta_line[key]})", path, no)
            meta[key], meta_line[key] = value, no
            continue
        unknown = _unknown_key(raw)
        if unknown:
            warnings.append(f"{path}:{no}: {unknown}")
        bare_key = _KEY_NO_COLON.match(raw)
        if bare_key:
            key, value = bare_key.group(1).casefold().replace("_", "-"), bare_key.group(2)
            shown = without_format_characters(value)
            left_out = f", without its {format_character(value).removeprefix('a ')}" if shown != value else ""
            warnings.append(f"{path}:{no}: '# {key}' without a ':' is read as a comment, not as the key "
                            f"(write '# {key}: {shorten(shown) if shown else '...'}'{left_out})")
        line, hash_, comment = raw.partition("#")
        line = line.rstrip()
        if not line.strip():
            continue
        after = _META.match(hash_ + comment)
        if after:  # a key is read on a line of its own only (QA: this one was dropped unsaid)
            warnings.append(f"{path}:{no}: '# {after.group(1).casefold()}:' after a statement is a plain comment, "
                            "not read: a key goes on a line of its own")
        control = control_character(line)
        if control:
            raise InputError(f"{shorten(quoted(line.strip()))} holds {control}", path, no)
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
    box = boxes[0]
    body, bline = box.body, box.line
    parts, offset = [], 0  # (the text of each size, where it starts in body)
    for part in body.split("*"):
        parts.append((part, offset))
        offset += len(part) + 1
    sizes = [_whole(x) for x, _ in parts]
    # each problem at the line of the size at fault: a stray line after BOX continues it
    at = lambda k: box.line_at(parts[k][1] + len(parts[k][0]) - len(parts[k][0].lstrip()))  # noqa: E731
    foreign = next((k for k, (x, _) in enumerate(parts) if foreign_digit(x)), None)
    if foreign is not None:
        raise InputError(f"BOX sizes {shorten(body.strip())!r}: {foreign_digit(body)}", path, at(foreign))
    plus = next((k for k, (x, _) in enumerate(parts) if _PLUS.fullmatch(x)), None)
    if plus is not None:
        raise InputError(f"BOX sizes {shorten(body.strip())!r}: {_plus_sign(parts[plus][0])}", path, at(plus))
    if any(d is None for d in sizes):
        k = sizes.index(None)
        _stray_text(box, parts[k][0], parts[k][1], path)
        raise InputError(f"BOX sizes must be whole numbers separated by '*', got {shorten(body.strip())!r}",
                         path, at(k))
    if not 1 <= len(sizes) <= 4:
        raise InputError(f"a BOX has 1 to 4 dimensions, got {len(sizes)}", path, bline)
    if any(isinstance(d, int) and d < 1 for d in sizes):
        k = next(k for k, d in enumerate(sizes) if isinstance(d, int) and d < 1)
        raise InputError(f"BOX sizes must be positive, got {shorten(body.strip())!r}", path, at(k))
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
            spaced = re.match(r"\s*\(([^()]*[^()\s]\s+[^()\s][^()]*)\)", st.body)
            if spaced and not re.fullmatch(r"[\d\s,+-]*", spaced.group(1)):  # (not a cell: its symbol left out)
                raise InputError(f"{kw} symbol {shorten(quoted(spaced.group(1).strip()))} holds a space; a piece "
                                 "name is one word", path, no)
            raise InputError(f"{kw} needs a symbol in parentheses, e.g. '{kw} / (X) (1, 1), ...'", path, no)
        sym = m.group(1)
        if kw == "ELEMENT" and sym == "*":
            raise InputError("ELEMENT (*): '*' is RESERVE's symbol for holes, not a piece name", path, no)
        invisible = format_character(sym)
        if invisible:
            raise InputError(f"{kw} name {shorten(quoted(sym))} holds {invisible}, which does not print", path, no)
        mark = leading_mark(sym)
        if mark:
            raise InputError(f"{kw} name {shorten(quoted(sym))} begins with {mark}, which prints on the character "
                             "before it", path, no)
        cells, lines = _cells(st, m.start(2), len(dims), path, allow_short=(kw == "ELEMENT"),
                              piece=sym if kw == "ELEMENT" else None)
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
            expected[field] = _count(key, meta[key], path, meta_line[key])
    tiling = build_tiling(
        lattice=lattice,
        dims=dims,
        holes_or_fixed=reserves,
        pieces=elements,
        path=path,
        title=meta.get("title", ""),
        source=meta.get("source"),
        expected=expected,
    )
    if not elements:  # said last: a problem in a statement (a RESERVE of no ELEMENT) has a line
        raise InputError("no ELEMENT statement (expected e.g. 'ELEMENT / (D) (1, 1), (1, 2)'): "
                         "a puzzle needs pieces", path)
    return tiling


def _stray_text(box: _Statement, part: str, offset: int, path: str) -> None:
    """InputError for text after a BOX size on a line of its own (a line
    without a keyword continues the statement before it): ``BOX / 2 * 4``
    then ``hello`` is the BOX's '2 * 4 hello', but 'hello' is at fault.
    Returns when the size is not that."""
    m = re.match(r"(\s*[+-]?\d+\s+)(\S.*)$", part, re.ASCII | re.DOTALL)
    if not m:
        return
    junk = offset + len(m.group(1))
    line = box.line_at(junk)
    if line != box.line_at(offset + len(part) - len(part.lstrip())):
        raise InputError(f"{shorten(m.group(2).strip())!r} is not a BOX size (sizes are whole numbers separated "
                         "by '*'); a line that starts with no keyword continues the statement before it, here "
                         f"the BOX of line {box.line}", path, line)


def _unknown_key(raw: str) -> str | None:
    """The warning for a comment that reads as a misspelt or unknown key
    (``# titel: x``), or None for a plain comment.  A key of one lower-case
    word is taken for an attempted key; a key in other case or of several
    words only when it is close to a known one (``# Expected count: 8``),
    so that ``# Note: ...`` in another tool's file stays a quiet comment."""
    m = _KEY_COMMENT.match(raw)
    if not m:
        return None
    key = m.group(1)
    guess = difflib.get_close_matches(re.sub(r"[\s_]+", "-", key.lower()), _META_KEYS, n=1, cutoff=0.75)
    if not guess and not _LOWER_WORD.fullmatch(key):
        return None
    hint = f"a misspelling of {guess[0]!r}?" if guess else f"the keys are {', '.join(_META_KEYS)}"
    return f"unknown comment key {shorten(key)!r} read as a comment ({hint})"


def _count(key: str, value: str, path: str, line: int) -> int:
    """An expected count: a whole number from 0 to 10^1000, as in .toml."""
    foreign = foreign_digit(value)
    if foreign:
        raise InputError(f"'# {key}:' {shorten(value)!r}: {foreign}", path, line)
    if _PLUS.fullmatch(value):
        raise InputError(f"'# {key}:' {_plus_sign(value)}", path, line)
    n = _whole(value)
    if n is None:
        raise InputError(f"'# {key}:' must be a whole number, got {shorten(value)!r}", path, line)
    if isinstance(n, int) and n < 0:
        raise InputError(f"'# {key}:' must be at least 0, got {shorten(value)}", path, line)
    if isinstance(n, str) or n > 10 ** 1000:
        digits = n if isinstance(n, str) else str(n)
        raise InputError(f"'# {key}:' must be at most 10^1000, got {number(10 ** (len(digits) - 1))}",
                         path, line)
    return n


def _cells(st: _Statement, start: int, d: int, path: str, allow_short: bool,
           piece: str | None = None) -> tuple[list, list[int]]:
    """The cells written in ``st.body`` from ``start`` on, and the file line
    of each; every problem is reported at the line of the text at fault,
    quoted as written.  ``piece``: the ELEMENT's name, whose cells are
    counted against the cap before anything else is done with them."""
    rest = st.body[start:]
    at = lambda offset: st.line_at(start + offset)  # noqa: E731
    first_line: dict[tuple[int, ...], int] = {}  # cell -> its line, in the order written
    matches = list(_TUPLE.finditer(rest))
    if piece is not None:
        check_piece_cells(piece, len(matches), path, st.line)
    gaps = []  # (offset, text) between the cells
    end = 0
    for m in matches:
        gaps.append((end, rest[end:m.start()]))
        end = m.end()
    gaps.append((end, rest[end:]))
    for offset, gap in gaps:  # nothing but commas between cells
        junk = gap.strip(_GAP)
        if junk:
            hint = " (a '(' without its ')')" if "(" in junk and ")" not in junk else ""
            raise InputError(f"unexpected text {shorten(junk)!r}{hint}: cells are written (i, j, ...) "
                             "separated by commas", path, at(offset + len(gap) - len(gap.lstrip(_GAP))))
    for k, (offset, gap) in enumerate(gaps):  # ... and exactly one comma
        commas = gap.count(",")
        if not matches or commas == (1 if 0 < k < len(matches) else 0):
            continue
        comma = offset + gap.find(",")
        if k == 0:
            problem, line = f"a ',' before the first cell {_quote(matches[0])}", at(comma)
        elif k == len(matches):
            problem, line = f"a ',' after the last cell {_quote(matches[-1])}", at(comma)
        elif commas == 0:
            problem = f"no ',' between {_quote(matches[k - 1])} and {_quote(matches[k])}"
            line = at(matches[k].start())
        else:
            problem, line = (f"{commas} commas between {_quote(matches[k - 1])} and {_quote(matches[k])}",
                             at(offset + gap.find(",", gap.find(",") + 1)))
        raise InputError(f"{problem}: cells are written (i, j, ...) separated by commas", path, line)
    for m in matches:
        t, no = m.group(1), at(m.start())
        foreign = foreign_digit(t)
        if foreign:
            raise InputError(f"cell ({shorten(t)}): {foreign}", path, no)
        plus = next((x for x in t.split(",") if _PLUS.fullmatch(x)), None)
        if plus is not None:
            raise InputError(f"cell ({shorten(t)}): {_plus_sign(plus)}", path, no)
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


def _plus_sign(text: str) -> str:
    """Why ``text``, a number written with a "+" (``+2``), is refused."""
    return f"{shorten(text.strip())!r}: a '+' sign is not part of a number (numbers are the ASCII digits 0-9)"


def _whole(text: str) -> int | str | None:
    """A whole number in ASCII digits, with an optional "-" and spaces
    around it; None when it is not one.  A number of more digits than int()
    reads (4,300) is its digits, a str (or -1 when negative: every check
    below only needs its sign)."""
    m = _DIGITS.fullmatch(text)  # ASCII digits only: int() reads "２", "٢" and "1_0" too
    if not m:
        return None
    digits = m.group(2).lstrip("0") or "0"
    if len(digits) < 4000:
        return int(m.group(1) + digits)
    return -1 if m.group(1) == "-" else digits


def _quote(m: re.Match) -> str:
    """A cell as written, for a message."""
    return f"({shorten(m.group(1))})"


def _fmt(c) -> str:
    return cell_text(x + 1 for x in c)


def _fmt_dims(dims) -> str:
    return shorten(" * ".join(map(str, dims)))
