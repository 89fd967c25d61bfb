"""The general polyform format, suffix ``.toml``: any lattice, boards as a
size or as ASCII art, pieces from a standard set or drawn.  The full
description, with examples, is docs/toml-format.md; in short::

    title = "Pentominoes in a 6 x 10 box"
    source = "where the puzzle (and its published count) comes from"
    lattice = "square"        # square (default), line, cubic, cubic4, hex, triangle, no0

    [board]                   # exactly one of size, hexagon, art
    size = [6, 10]            # square/cubic: a box; hex: a parallelogram of
                              # hexagons; triangle: of rhombi (2 triangles
                              # each); no0: of circles, with every gap touching them
    hexagon = 4               # hex, triangle, no0: a regular hexagon of side 4
    art = '''
    ######
    ##**##
    ######
    '''                       # 2-D lattices: the board drawn (art.py); * = a hole
    holes = [[1, 1], [6, 10]] # cells no piece covers, in file coordinates

    [[pieces]]
    set = "pentominoes"       # a standard set (standard.py) ...
    one_sided = false         # ... its one-sided variant when true
    count = 1                 # copies of every piece of the set
    counts = { X = 2 }        # copies of some pieces of the set

    [[pieces]]
    name = "L"                # ... or one piece, drawn or listed
    art = '''
    #
    ###
    '''
    cells = [[1, 1], [2, 1]]  # (instead of art)
    count = 2
    one_sided = false

    [expected]                # published or independently verified counts
    count = 8
    unique = 2

File coordinates (``cells``, ``holes``, and every cell printed in JSON) are
the lattice's coordinates plus one: 1-based (row, column, ...) on square and
cubic lattices; on the hex lattice axial (q, r) + 1; on the triangle and No.0
lattices the scaled coordinates of lattice.py + 1.  Drawing is easier: an
``art`` string is read in the lattice's layout (art.py), columns counted from
the first character of each line.

Every key a user writes is either used or refused: unknown keys, unknown
lattices, sets and piece names, cells that are not cells of the lattice,
disconnected pieces, malformed drawings and boards (and pieces) of more than
build.MAX_BOARD_CELLS cells (counted from the size or hexagon before any cell
is made; a drawing's cells, as many as its marks, once read) are errors
naming file:line.  So are, as in ``.box``, a coordinate below 1 on the square
and cubic lattices (their file coordinates are 1-based; hex, triangle and
no0 ones may be 0 or negative: a hexagon board is centred on the origin), a
coordinate beyond 10^1000 either way, a title of more than one line, and a
control character (an ESC would reach the terminal) in a title, source or
piece name, and a format character (Unicode's Cf: a zero-width space or
joiner, a soft hyphen) in a piece name, which would print as nothing.
Pieces may be disconnected on no lattice: a piece is a polyform.
"""

from __future__ import annotations

import datetime
import math
import re
import sys
from itertools import product

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from ...errors import (InputError, blank, control_character, number, plural, quoted, shorten, text_lines,
                      title_from_path)
from . import art
from .build import (PieceSpec, build_tiling, cell_text, check_board_cells, check_piece_cells, format_character,
                    leading_mark, not_connected)
from .geometry import is_connected
from .lattice import LATTICES, CubicLattice, Lattice, Point, get_lattice
from .standard import SetDoesNotFit, set_names, standard_set

TOP_KEYS = ("title", "source", "lattice", "board", "pieces", "expected")
BOARD_KEYS = ("size", "hexagon", "art", "holes")
SET_KEYS = ("set", "one_sided", "count", "counts")
PIECE_KEYS = ("name", "art", "cells", "count", "one_sided")
EXPECTED_KEYS = ("count", "unique")


def load(text: str, path: str):
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        line = int(m.group(1)) if m else None
        if m is None and "end of document" in msg:
            line = max(1, len(text_lines(text)))
        msg = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", msg)
        raise InputError(f"TOML syntax: {msg}", path, line) from None
    except RecursionError:  # tomllib reads nested arrays and inline tables by recursion (QA)
        raise InputError("TOML: arrays or inline tables nested too deeply to read", path,
                         _deepest_line(text)) from None
    except ValueError as e:  # tomllib lets int()'s refusal of a number of more than 4,300 digits through
        m = re.search(r"value has (\d+) digits", str(e))
        if m is None:
            raise InputError(f"TOML: {shorten(str(e))}", path) from None
        at = re.search(r"\d[\d_]{%d,}" % (int(m.group(1)) - 1), text)
        line = text.count("\n", 0, at.start()) + 1 if at else None
        raise InputError(f"a number of {int(m.group(1)):,} digits is too large", path, line) from None
    try:
        return _Reader(text, path).read(data)
    except RecursionError:  # nesting tomllib still reads, too deep to quote in a message (review)
        raise InputError("TOML: arrays or inline tables nested too deeply to read", path,
                         _deepest_line(text)) from None


def _deepest_line(text: str, deep: int = 100) -> int | None:
    """The line where brackets and braces first nest ``deep`` levels (outside
    strings and comments, roughly: for an error's line only)."""
    depth, quote, line = 0, None, 1
    for i, ch in enumerate(text):
        if ch == "\n":
            line += 1
            if quote in ("#", '"', "'"):  # (a comment, or a one-line string, ends here)
                quote = None
        elif quote is not None:
            if ch == quote and text[i - 1] != "\\":
                quote = None
        elif ch in "\"'#":
            quote = ch
        elif ch in "[{":
            depth += 1
            if depth >= deep:
                return line
        elif ch in "]}":
            depth -= 1
    return None


# ------------------------------------------------------------ line numbers


_BASIC_BODY = re.compile(r'(?:[^"\\]|\\.?)*')  # up to a quote; a backslash escapes the next character
_LITERAL_BODY = re.compile(r"[^']*")


def _quote_run(line: str, j: int, quote: str) -> int:
    """How many of ``quote`` start at ``line[j]``, up to five: a multi-line
    string ends at the last three of them (the others are its text)."""
    return len(line[j:j + 5]) - len(line[j:j + 5].lstrip(quote))


def _string_end(raw: list[str], i: int, j: int) -> tuple[int, int]:
    """Where the TOML string whose opening quote is at ``raw[i][j]`` ends:
    the position right after its closing quote.  In a basic string (double
    quotes) a backslash escapes the next character; a multi-line string
    ends at the last three of a run of up to five quotes.  An unclosed
    string ends at the end of its line, or of the text when multi-line."""
    line = raw[i]
    q = next(q for q in ('"""', "'''", '"', "'") if line.startswith(q, j))
    body = _BASIC_BODY if q[0] == '"' else _LITERAL_BODY
    j += len(q)
    while i < len(raw):
        line = raw[i]
        while True:
            j = body.match(line, j).end()
            if j >= len(line):
                break
            if line.startswith(q, j):
                return i, j + (_quote_run(line, j, q[0]) if len(q) == 3 else 1)
            j += 1  # one or two quotes in a multi-line string
        if len(q) == 1:
            return i, len(line)
        i, j = i + 1, 0
    return len(raw) - 1, len(raw[-1]) if raw else 0


def _given_again(specs: list[PieceSpec]) -> list[str]:
    """A note per piece name two [[pieces]] entries give (the same shape: a
    different one is an error): one piece, whose counts add up.  A .box file
    gives a line per copy, but an entry has a count, and a second entry of
    the same name is more likely a slip than meant (QA)."""
    entries: dict[str, list[PieceSpec]] = {}
    for spec in specs:
        entries.setdefault(spec.name, []).append(spec)
    notes = []
    for name, given in entries.items():
        if len(given) > 1:
            lines = [str(g.line) for g in given if g.line is not None]
            where = f" (lines {', '.join(lines[:-1])} and {lines[-1]})" if len(lines) == len(given) else ""
            notes.append(f"piece {shorten(name)} is given by {len(given)} [[pieces]] entries{where}: "
                         "one piece, their counts added up")
    return notes


class _Lines:
    """Where each table and key of a TOML text is (1-based lines), found by
    scanning the text: tomllib reports lines for syntax errors only."""

    _HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$")
    _KEY_TEXT = r"""((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=[ \t]*"""
    _KEY = re.compile(r"^\s*" + _KEY_TEXT)
    _INLINE_KEY = re.compile(_KEY_TEXT)
    _SCALAR = re.compile(r"[^,\]}#]*")
    _BLANK = re.compile(r"[ \t]*")
    _PLAIN = re.compile(r"[^\"'{}\[\]#]*")

    def __init__(self, text: str):
        self.at: dict[tuple, int] = {}
        #: key -> (line, column) where its value starts, when the value is a string
        self.string_at: dict[tuple, tuple[int, int]] = {}
        self._raw = text_lines(text)
        table: tuple = ()
        arrays: dict[tuple, int] = {}
        i = 0
        while i < len(self._raw):
            line, no = self._raw[i], i + 1
            i += 1
            h = self._HEADER.match(line)
            if h:
                name = tuple(_split_key(h.group(2)))
                # [pieces.foo] after [[pieces]] is a table in the array's last
                # element: ("pieces", k, "foo"), not a table of its own (its
                # error named the [[pieces]] line)
                for k in range(len(name) - 1, 0, -1):
                    if name[:k] in arrays:
                        name = name[:k] + (arrays[name[:k]],) + name[k:]
                        break
                if h.group(1) == "[[":
                    k = arrays.get(name, -1) + 1
                    arrays[name] = k
                    self.at.setdefault(name, no)  # "board must be a table" when [[board]] is an array of them
                    table = name + (k,)
                else:
                    table = name
                # (each dotted prefix too: [extra.sub]'s unknown key 'extra' had no line)
                for k in range(1, len(table) + 1):
                    self.at.setdefault(table[:k], no)
                continue
            m = self._KEY.match(line)
            if not m:
                continue
            key = table + tuple(_split_key(m.group(1)))
            self._key(key, len(table), no)
            i = self._value(no - 1, m.end(), key)[0] + 1  # (a value may run over several lines)

    def _key(self, key: tuple, known: int, no: int) -> None:
        """A key is at line ``no``, and so is each of its dotted prefixes
        longer than ``known`` ('sub' of sub.x = 1)."""
        for k in range(known + 1, len(key) + 1):
            self.at.setdefault(key[:k], no)

    def _value(self, i: int, j: int, key: tuple) -> tuple[int, int]:
        """Scan the value of ``key`` that starts at ``raw[i][j]`` (0-based):
        note the line of each inline table and each of its keys (an unknown
        key in a [[pieces]] entry written inline, in a ``pieces = [...]``
        array over several lines, was named at the array's first line) and
        where each string starts.  Returns the position right after the
        value.  Iterative: nesting tomllib reads is read here too; numbers,
        commas and blanks in arrays are skipped a run at a time (a list of
        90,000 holes)."""
        raw = self._raw
        stack: list[list] = []  # ["[", path, commas so far: the next element's index] or ["{", path]
        want = True  # a value comes next
        while i < len(raw):
            line = raw[i]
            if want:
                want = False
                ch = line[j:j + 1]
                if ch in ("[", "{"):
                    stack.append([ch, key, 0])
                    if ch == "{":
                        self.at.setdefault(key, i + 1)
                    j += 1
                elif ch in ("'", '"'):
                    self.string_at.setdefault(key, (i + 1, j))
                    i, j = _string_end(raw, i, j)
                else:  # a number, a boolean, a date: up to what ends it
                    j = self._SCALAR.match(line, j + 1).end()
                continue
            if not stack:
                return i, j
            top = stack[-1]
            if top[0] == "[":  # up to a string, a bracket, a brace or a comment
                start, j = j, self._PLAIN.match(line, j).end()
                top[2] += line.count(",", start, j)
            else:
                j = self._BLANK.match(line, j).end()
            if j >= len(line) or line[j] == "#":  # (line ends and comments separate things in both)
                i, j = i + 1, 0
                continue
            ch = line[j]
            if ch in "]}":
                stack.pop()
                j += 1
            elif top[0] == "[":
                key, want = top[1] + (top[2],), True
            elif ch == ",":
                j += 1
            else:
                m = self._INLINE_KEY.match(line, j)
                if not m:  # not TOML that tomllib read: stop noting
                    return i, len(line)
                key = top[1] + tuple(_split_key(m.group(1)))
                self._key(key, len(top[1]), i + 1)
                j, want = m.end(), True
        return len(raw) - 1, len(raw[-1]) if raw else 0

    def line(self, *path) -> int | None:
        path = tuple(path)
        while path:
            if path in self.at:
                return self.at[path]
            path = path[:-1]
        return None

    def string_line(self, key: tuple, line: int, column: int | None) -> int | None:
        """The file line of the character at ``line`` and ``column`` (0-based;
        no column: the line's first character) of the string written for
        ``key``, as TOML decodes it: a newline right after an opening
        triple quote is dropped, a line-ending backslash joins lines, a
        ``\\n`` escape starts a new line without a new file line.  None when
        no string was found for ``key``."""
        if key not in self.string_at:
            return None
        at = 0
        for i, j, ch in _decoded(self._raw, *self.string_at[key]):
            if at == line and (column is None or column == 0):
                return i + 1
            if ch == "\n":
                at += 1
            elif at == line:
                column -= 1
            if at > line:
                return None
        return None


_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r"}


def _decoded(raw: list[str], no: int, col: int):
    """(0-based file line, column, character) of each character of the TOML
    string that starts at line ``no`` (1-based), column ``col`` of ``raw``,
    as the TOML reader decodes it (an escape is one character, at its
    backslash); stops at the closing quote."""
    i = no - 1
    line = raw[i]
    q = next(q for q in ('"""', "'''", '"', "'") if line.startswith(q, col))
    multi, basic = len(q) == 3, q[0] == '"'
    j = col + len(q)
    if multi and j == len(line):  # a newline right after the opening quotes is not in the string
        i, j = i + 1, 0
    while i < len(raw):
        line = raw[i]
        if j >= len(line):
            if not multi:
                return
            yield i, j, "\n"
            i, j = i + 1, 0
            continue
        if line.startswith(q, j):
            if multi:  # a run of up to five quotes ends in the closing three
                for k in range(_quote_run(line, j, q[0]) - 3):
                    yield i, j + k, q[0]
            return
        ch = line[j]
        if not (basic and ch == "\\"):
            yield i, j, ch
            j += 1
            continue
        if multi and not line[j + 1:].strip(" \t"):  # a line-ending backslash: up to the next non-blank
            i, j = i + 1, 0
            while i < len(raw) and not raw[i].strip(" \t"):
                i += 1
            if i < len(raw):
                j = len(raw[i]) - len(raw[i].lstrip(" \t"))
            continue
        e = line[j + 1:j + 2]
        digits = {"u": 4, "U": 8, "x": 2}.get(e, 0)
        try:
            decoded = chr(int(line[j + 2:j + 2 + digits], 16)) if digits else _ESCAPES.get(e, e)
        except ValueError:
            return
        yield i, j, decoded
        j += 2 + digits


def _split_key(s: str) -> list:
    parts = re.findall(r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""", s)
    return [p[1:-1] if p[:1] in "\"'" else p for p in parts]


# ------------------------------------------------------------------ reading


class _Reader:
    def __init__(self, text: str, path: str):
        self.text, self.path = text, path
        self.lines = _Lines(text)
        self.notes: list[str] = []  # (said by every command that reads the file)

    def fail(self, msg: str, *where) -> None:
        raise InputError(msg, self.path, self.lines.line(*where))

    # -------------------------------------------------------------- checks
    def _keys(self, table: dict, allowed, *where, what: str) -> None:
        for k in table:
            if k not in allowed:
                self.fail(f"unknown key {shorten(quoted(k))} in {what}; expected one of: {', '.join(allowed)}",
                          *where, k)

    def _int(self, v, *where, what: str, minimum: int, bounded: bool = True) -> int:
        """``bounded``: at most 10^1000, so that the rest of the program can
        print it (TOML hex literals have no length limit); board sizes are
        bounded by the board's cell count instead."""
        if not isinstance(v, int) or isinstance(v, bool):
            self.fail(f"{what} must be a whole number, got {_echo(v)}", *where)
        if v < minimum:
            self.fail(f"{what} must be at least {minimum}, got {_echo(v)}", *where)
        if bounded and v > 10 ** 1000:
            self.fail(f"{what} must be at most 10^1000, got {_echo(v)}", *where)
        return v

    def _bool(self, v, *where, what: str) -> bool:
        if not isinstance(v, bool):
            self.fail(f"{what} must be true or false, got {_echo(v)}", *where)
        return v

    def _str(self, v, *where, what: str) -> str:
        if not isinstance(v, str):
            self.fail(f"{what} must be a string, got {_echo(v)}", *where)
        return v

    def _text(self, v, *where, what: str, one_line: bool = False) -> str:
        """A string that is printed: a title is one line, and no printed text
        holds a control character (a tab is white space; a source may run
        over several lines)."""
        self._str(v, *where, what=what)
        if one_line and len(v.splitlines()) > 1:
            self.fail(f"{what} must be one line, got {_echo(v)}", *where)
        control = control_character(v.replace("\n", "") if not one_line else v)
        if control:
            self.fail(f"{what} {_echo(v)} holds {control}", *where)
        return v

    # ---------------------------------------------------------------- file
    def read(self, data: dict):
        self._keys(data, TOP_KEYS, what="the file")
        title = self._text(data.get("title", ""), "title", what="title", one_line=True)
        if "title" in data and blank(title):  # (the file name stood in without a word)
            at = self.lines.line("title")
            self.notes.append(f"{'' if at is None else f'line {at}: '}title is blank: the puzzle is titled "
                              f"by the file's name, '{title_from_path(self.path, 'tiling')}'")
        source = data.get("source")
        if source is not None:
            self._text(source, "source", what="source")
        board = data.get("board")
        if board is None:
            self.fail("no [board] table (give its size, hexagon or art)")
        if not isinstance(board, dict):
            self.fail("board must be a table: [board]", "board")
        lattice = self._lattice(data, board)
        cells, holes, dims = self._board(lattice, board)
        pieces = data.get("pieces")
        if pieces is None:
            self.fail("no [[pieces]] given")
        if not isinstance(pieces, list) or not all(isinstance(p, dict) for p in pieces) or not pieces:
            self.fail("pieces must be one or more [[pieces]] tables", "pieces")
        specs: list[PieceSpec] = []
        for i, entry in enumerate(pieces):
            specs.extend(self._pieces(lattice, entry, i))
        expected = self._expected(data.get("expected"))
        hole_line = self.lines.line("board", "holes") or self.lines.line("board", "art") or self.lines.line("board")
        tiling = build_tiling(lattice=lattice, pieces=specs, path=self.path, dims=dims, board=cells,
                              holes_or_fixed=[("*", sorted(holes), hole_line)] if holes else [],
                              title=title, source=source, expected=expected)
        tiling.notes.extend(self.notes + _given_again(specs))
        return tiling

    def _lattice(self, data: dict, board: dict) -> Lattice:
        if "lattice" not in data:
            size = board.get("size")
            if isinstance(size, list) and len(size) in (1, 3, 4) and "art" not in board:
                return CubicLattice(len(size))  # a box's dimension names its lattice
            if isinstance(size, list) and (len(size) == 0 or len(size) > 4) and "art" not in board:
                # (as a .box file says it; "the square lattice has 2 dimensions"
                # named a lattice the file never asked for, QA)
                self.fail(f"a box has 1 to 4 dimensions (the size's numbers), got {len(size)}", "board", "size")
            return get_lattice("square")
        name = self._str(data["lattice"], "lattice", what="lattice")
        if name not in LATTICES:
            self.fail(f"unknown lattice {shorten(quoted(name))}; known: {', '.join(LATTICES)}", "lattice")
        return get_lattice(name)

    # --------------------------------------------------------------- board
    def _board(self, lattice: Lattice, board: dict):
        self._keys(board, BOARD_KEYS, "board", what="[board]")
        given = [k for k in ("size", "hexagon", "art") if k in board]
        if len(given) != 1:
            self.fail("[board] needs exactly one of size, hexagon or art"
                      + (f"; got {' and '.join(given)}" if given else ""), "board", *(given[1:2]))
        kind = given[0]
        dims = None
        holes: set[Point] = set()
        if kind == "size":
            size = board["size"]
            if not isinstance(size, list) or not size:
                self.fail(f"size must be a list of whole numbers, e.g. [6, 10]; got {_echo(size)}",
                          "board", "size")
            for v in size:
                self._int(v, "board", "size", what="a size", minimum=1, bounded=False)
            cells = self._size_board(lattice, size)
            if isinstance(lattice, CubicLattice):
                dims = tuple(size)
        elif kind == "hexagon":
            if lattice.name not in ("hex", "triangle", "no0"):  # (before the number: QA)
                self.fail(f"hexagon boards are for the hex, triangle and no0 lattices, not {lattice.name}",
                          "board", "hexagon")
            n = self._int(board["hexagon"], "board", "hexagon", what="hexagon", minimum=1, bounded=False)
            check_board_cells(_hexagon_cells(lattice, n), self.path, self.lines.line("board", "hexagon"))
            cells = _hexagon(lattice, n)
        else:
            if lattice.dim != 2:
                self.fail(f"board art is for 2-D lattices; give the {lattice.name} board's size", "board", "art")
            drawn = self._art(lattice, board["art"], ("board", "art"), what="board art", board=True)
            cells = set(drawn)
            holes = {c for c, ch in drawn.items() if ch == "*"}
        if "holes" in board:
            for c in self._cell_list(lattice, board["holes"], ("board", "holes"), what="holes"):
                if c not in cells:
                    self.fail(f"hole {_fmt(c)} is not on the board", "board", "holes")
                if c in holes:
                    self.fail(f"hole {_fmt(c)} is given twice", "board", "holes")
                holes.add(c)
        return cells, holes, dims

    def _size_board(self, lattice: Lattice, size: list[int]) -> set[Point]:
        if isinstance(lattice, CubicLattice):
            if len(size) != lattice.dim:
                self.fail(f"size has {plural(len(size), 'number')} but the {lattice.name} lattice has "
                          f"{plural(lattice.dim, 'dimension')}", "board", "size")
            self._check_cells(_size_cells(lattice, size), "board", "size")
            return set(product(*[range(n) for n in size]))
        if len(size) != 2:
            self.fail(f"a {lattice.name} board's size is [width, height], got {plural(len(size), 'number')}",
                      "board", "size")
        if lattice.name not in ("hex", "triangle", "no0"):
            self.fail(f"the {lattice.name} lattice has no size boards; draw the board with art", "board", "size")
        self._check_cells(_size_cells(lattice, size), "board", "size")
        w, h = size
        if lattice.name == "hex":
            return {(q, r) for q in range(w) for r in range(h)}
        if lattice.name == "triangle":
            return {(k + 3 * i, k + 3 * j) for i in range(w) for j in range(h) for k in (1, 2)}
        return _with_gaps(lattice, {(3 * i, 3 * j) for i in range(w) for j in range(h)})  # no0

    def _check_cells(self, cells: int, *where) -> None:
        check_board_cells(cells, self.path, self.lines.line(*where))

    # ----------------------------------------------------------------- art
    def _art(self, lattice: Lattice, text, where: tuple, what: str, board: bool = False) -> dict[Point, str]:
        self._str(text, *where, what=what if board else f"{what}'s art")  # (it said "piece D must be", QA)
        name = lattice.name
        pad = 0
        if isinstance(lattice, CubicLattice) and lattice.dim != 2:
            name, pad = "square", lattice.dim - 2
        elif art.layout(name) is None:
            self.fail(f"the {lattice.name} lattice has no ASCII-art layout; give cells", *where)
        try:
            drawn = art.parse(name, text)
        except art.ArtError as e:
            line = None
            if e.line is not None:  # the drawing's own line, where the string is written as file lines
                line = self.lines.string_line(where, e.line, e.column)
            if line is None:
                line = self.lines.line(*where)
            raise InputError(f"{what}: {e}", self.path, line) from None
        if board:  # a drawing makes one cell per mark: as many as the text is long, so counted once read
            self._check_cells(len(drawn), *where)
        if pad > 0:
            return {c + (0,) * pad: ch for c, ch in drawn.items()}
        if pad < 0:  # a 1-D lattice: one line of art
            if len({c[0] for c in drawn}) > 1:
                self.fail(f"{what}: a {lattice.name} shape is drawn on one line", *where)
            return {(c[1],): ch for c, ch in drawn.items()}
        return drawn

    def _cell_list(self, lattice: Lattice, value, where: tuple, what: str) -> list[Point]:
        if not isinstance(value, list) or (not value and what != "holes"):  # holes = []: none
            self.fail(f"{what} must be a list of cells, e.g. [[1, 1], [1, 2]]; got {_echo(value)}", *where)
        out = []
        short_ok = isinstance(lattice, CubicLattice) and what == "cells"
        for cell in value:
            if (not isinstance(cell, list) or not cell
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)):
                self.fail(f"{what}: {_echo(cell)} is not a cell (a list of whole numbers)", *where)
            if len(cell) > lattice.dim or (len(cell) < lattice.dim and not short_ok):
                self.fail(f"{what}: {_fmt_user(cell)} has {plural(len(cell), 'coordinate')}, the "
                          f"{lattice.name} lattice has {lattice.dim}", *where)
            if any(abs(x) > 10 ** 1000 for x in cell):
                self.fail(f"{what}: {_fmt_user(cell)}: a coordinate must be at most 10^1000 in size", *where)
            if isinstance(lattice, CubicLattice) and any(x < 1 for x in cell):
                self.fail(f"{what}: {_fmt_user(cell)}: indices start at 1", *where)
            c = tuple(x - 1 for x in cell) + (0,) * (lattice.dim - len(cell))
            if not lattice.is_cell(c):
                self.fail(f"{what}: {_fmt_user(cell)} is not a cell of the {lattice.name} lattice"
                          f"{_CELL_RULES.get(lattice.name, '')}", *where)
            if c in out:
                self.fail(f"{what}: {_fmt_user(cell)} is listed twice", *where)
            out.append(c)
        return out

    # -------------------------------------------------------------- pieces
    def _pieces(self, lattice: Lattice, entry: dict, i: int) -> list[PieceSpec]:
        where = ("pieces", i)
        line = self.lines.line(*where)
        if "set" in entry:
            self._keys(entry, SET_KEYS, *where, what="a [[pieces]] set entry")
            return self._set(lattice, entry, where, line)
        if "name" not in entry:
            self.fail("a [[pieces]] entry needs a set or a name", *where)
        self._keys(entry, PIECE_KEYS, *where, what="a [[pieces]] entry")
        name = self._str(entry["name"], *where, "name", what="name")
        control = control_character(name)
        if control:
            self.fail(f"piece name {_echo(name)} holds {control}", *where, "name")
        invisible = format_character(name)  # (the bidirectional ones are refused above, as control characters)
        if invisible:
            self.fail(f"piece name {_echo(name)} holds {invisible}, which does not print", *where, "name")
        mark = leading_mark(name)
        if mark:
            self.fail(f"piece name {shorten(quoted(name))} begins with {mark}, which prints on the character before it",
                      *where, "name")
        if not name or any(ch.isspace() for ch in name):  # leading and trailing ones too: never trimmed
            self.fail(f"piece name {_echo(name)} must be non-empty, without spaces", *where, "name")
        count = self._int(entry.get("count", 1), *where, "count", what="count", minimum=1)
        one_sided = self._bool(entry.get("one_sided", False), *where, "one_sided", what="one_sided")
        given = [k for k in ("art", "cells") if k in entry]
        if len(given) != 1:
            self.fail(f"piece {shorten(name)}: give exactly one of art or cells"
                      + (" (both given)" if len(given) == 2 else ""), *where)
        if given[0] == "art":
            drawn = self._art(lattice, entry["art"], where + ("art",), what=f"piece {shorten(name)}")
            check_piece_cells(name, len(drawn), self.path, self.lines.line(*where, "art"))  # as a board's
            cells = sorted(drawn)
        else:
            if isinstance(entry["cells"], list):
                check_piece_cells(name, len(entry["cells"]), self.path, self.lines.line(*where, "cells"))
            cells = self._cell_list(lattice, entry["cells"], where + ("cells",), what="cells")
        if not is_connected(lattice, cells):
            self.fail(not_connected(lattice, name), *where, given[0])
        return [PieceSpec(name, cells, count, one_sided, line)]

    def _set(self, lattice: Lattice, entry: dict, where: tuple, line: int | None) -> list[PieceSpec]:
        name = self._str(entry["set"], *where, "set", what="set")
        one_sided = self._bool(entry.get("one_sided", False), *where, "one_sided", what="one_sided")
        count = self._int(entry.get("count", 1), *where, "count", what="count", minimum=1)
        full = ("one-sided-" + name) if one_sided and not name.startswith("one-sided-") else name
        try:
            pieces = standard_set(lattice, full)  # a box of another dimension takes the square sets
        except SetDoesNotFit as e:
            self.fail(e.args[0], *where, "set")
        except KeyError:
            known = ", ".join(set_names(lattice)) or "none"
            self.fail(f"unknown piece set {shorten(quoted(name))} for the {lattice.name} lattice; known: {known}",
                      *where, "set")
        if "one_sided" in entry and not one_sided and name.startswith("one-sided-"):
            self.fail(f"one_sided = false contradicts the set {shorten(name)}, whose pieces never turn over; "
                      f"for pieces that may, give set = {_echo(name[len('one-sided-'):])}", *where, "one_sided")
        counts = entry.get("counts", {})
        if not isinstance(counts, dict):
            self.fail("counts must be a table of piece name = count, e.g. counts = { X = 2 }", *where, "counts")
        names = [p[0] for p in pieces]
        for k, v in counts.items():
            if k not in names:
                self.fail(f"counts: the set {full} has no piece {shorten(quoted(k))}; its pieces: {' '.join(names)}",
                          *where, "counts")
            self._int(v, *where, "counts", what=f"counts.{shorten(k)}", minimum=1)
        if "count" in entry and set(names) <= set(counts):  # (it was dropped unsaid, QA)
            at = self.lines.line(*where, "count")
            self.notes.append(f"{'' if at is None else f'line {at}: '}count = {count} applies to no piece: "
                              f"counts gives every piece of the set {full} its own")
        return [PieceSpec(pname, list(cells), counts.get(pname, count), os_, line, from_set=True)
                for pname, cells, os_ in pieces]

    def _expected(self, exp) -> dict:
        if exp is None:
            return {}
        if not isinstance(exp, dict):
            self.fail("expected must be a table: [expected]", "expected")
        self._keys(exp, EXPECTED_KEYS, "expected", what="[expected]")
        return {k: self._int(v, "expected", k, what=f"expected {k}", minimum=0) for k, v in exp.items()}


_CELL_RULES = {
    "triangle": " (file cells are (x, y) with x = y (mod 3) and x != 1 (mod 3))",
    "no0": " (file cells are (x, y) with x = y (mod 3))",
}


def _size_cells(lattice: Lattice, size: list[int]) -> int:
    """How many cells ``size = [...]`` makes (what _size_board builds)."""
    if isinstance(lattice, CubicLattice):
        return math.prod(size)
    w, h = size
    if lattice.name == "hex":
        return w * h
    if lattice.name == "triangle":
        return 2 * w * h
    # no0: w h circles and the 2 (w + 1)(h + 1) triangles of the rhombi around
    # them, but the two corner ones that touch no circle
    return w * h + 2 * (w + 1) * (h + 1) - 2


def _hexagon_cells(lattice: Lattice, n: int) -> int:
    """How many cells ``hexagon = n`` makes (what _hexagon builds)."""
    if lattice.name == "triangle":
        return 6 * n * n
    circles = 3 * n * (n - 1) + 1
    if lattice.name == "no0":
        return circles + 6 * n * n  # every triangle of the hexagon of side n touches a circle
    return circles


def _echo(value) -> str:
    """A value a user wrote, for a message, as TOML writes it (``true``, a
    date, ``{ a = 1 }``; a string quoted), shortened.  Never fails: repr()
    refuses ints of more than 4,300 digits (a TOML hex literal)."""
    try:
        return shorten(_as_toml(value))
    except ValueError:
        return "a value holding a number too large to print"


def _as_toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() >= 10_000:
        return number(value)
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date
        return value.isoformat()
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_as_toml(v)}" for k, v in value.items()) + " }" if value else "{}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_as_toml(v) for v in value) + "]"
    return quoted(value) if isinstance(value, str) else repr(value)


def _with_gaps(lattice: Lattice, circles: set[Point]) -> set[Point]:
    """Circles and every gap touching at least one of them (No.0's box)."""
    return set(circles) | {g for c in circles for g in lattice.neighbours(c)}


def _hexagon(lattice: Lattice, n: int) -> set[Point]:
    """The regular hexagon of side n centred on the origin: n hexagons a
    side, 6 n^2 triangles, or circles n a side with their gaps."""
    dist = lambda i, j: max(abs(i), abs(j), abs(i + j))
    if lattice.name == "hex":
        return {(q, r) for q in range(-n + 1, n) for r in range(-n + 1, n) if dist(q, r) < n}
    if lattice.name == "no0":
        return _with_gaps(lattice, {(3 * i, 3 * j) for i in range(-n + 1, n) for j in range(-n + 1, n)
                                    if dist(i, j) < n})
    out = set()
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            for k, corners in ((1, ((0, 0), (1, 0), (0, 1))), (2, ((1, 0), (0, 1), (1, 1)))):
                if all(dist(i + a, j + b) <= n for a, b in corners):
                    out.add((k + 3 * i, k + 3 * j))
    return out


def _fmt(c) -> str:
    return cell_text(x + 1 for x in c)


def _fmt_user(cell) -> str:
    return cell_text(cell)
