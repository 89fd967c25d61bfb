"""Steve Simpson's ``.non`` format, with the nonogram-db extensions.

    title "Demo"            (any key line: title, by, copyright, license, ...)
    width 5
    height 10
    rows                    then `height` clue lines: 2,1 / 0 / (empty line)
    columns                 then `width` clue lines
    goal "0110001101..."    optional: the picture, row-major, 0 = white, 1 = black

Rules followed (nonogram-db FORMAT.md, and Simpson's original page):

- ``width``/``height`` come before the clue sections; Simpson's ``rows H``
  and ``columns W`` set the height/width too.
- A clue is numbers separated by commas; ``0`` or an empty line is an empty
  clue.  Blank lines may also just separate keys: blank lines at a section's
  ends are dropped while it has more lines than clues (with a warning when
  a blank line among its clues is then an empty clue: which is which is a
  guess), and blank lines
  inside it are empty clues when that gives the right count, else ignored
  with a warning (Simpson's files use blank lines as separators,
  nonogram-db's as empties).
- A section runs on while its lines start with a digit.  Until it has as
  many lines as the height (width), a line that does not is still one of its
  clues, and an error names it (``row 2 clue 'x': 'x' is not a whole
  number``), unless it is the next key: its first word is a known key
  (``columns``, ``goal``, ...; the section is then short, an error too), or
  it reads ``WORD VALUE`` like any key line (``author "me"``), an unknown key
  ignored with a warning, as FORMAT.md asks, and the clues go on after it.
  A bare word (``x``) or anything with a comma is no key line: a bad clue.
  Once the section is complete, the next line that is no clue ends it.
- FORMAT.md's bundles of several puzzles (``====`` lines between them, a
  ``.nonpack``) are refused at the separator: one puzzle per file.
- A number may carry a colour letter (``3a``).  One colour is black and
  white; more than one is a multicolour puzzle, which is refused clearly.
  Other characters after a number are ignored, as FORMAT.md asks (``1;1``
  reads as 1), with a warning in ``Nonogram.ignored``.  A comma with no
  number on one side (``1,``, ``,1``, ``1,,1``) is an error.
- A goal cell is ``0`` (white), ``1`` or the file's colour letter (black);
  FORMAT.md calls anything but 0 "a filled spot, likely either a 1 or a
  color character", but any other character (``x``, or ``.``, white in
  other formats) is an error at its line: it is likelier a slip than black.
- A goal in quotes may run over several lines, up to its closing quote;
  text after that quote (``goal "0110" # mine``) is an error at its line.
- A ``color`` line is a letter, a space and a six-digit hex colour
  (``color a #ff0000``), as FORMAT.md defines it; anything else after
  ``color`` is an error (a misread colour could not be told apart from
  black and white).
- Lines with an unknown key are ignored, as FORMAT.md asks, each with a
  warning; string values may be quoted (nothing after the closing quote)
  and carry HTML escapes, a numeric one the very character it numbers.  A key other
  than ``color`` given twice is an error (the second would replace the first),
  as is one colour letter given twice, a ``color`` line for a letter other
  than the clues' one, and a known key with no value (``title`` alone).
- Warnings are lost when the file is refused, so an error message also
  names what was ignored that may explain it: a key that looks like a
  misspelling of a known key (``widht 2``), a number's ignored tail.
"""

from __future__ import annotations

import difflib
import html
import re

from ...errors import InputError, plural, text_lines
from .build import blank_lines, check_grid_size, Draft, Ignored, echo, finish, load_noting, read_clue, read_size
from .puzzle import Nonogram

_META = ("title", "by", "copyright", "license", "catalogue")
_KEYS = ("width", "height", "rows", "columns", "goal", "color") + _META
#: a clue token: a number, then what follows it (a colour letter, or to ignore)
_TOKEN = re.compile(r"(\d+)(.*)", re.DOTALL)
#: a line that may be a key line with a value: a word, then something after it
_KEY_VALUE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\s+\S.*", re.DOTALL)
#: FORMAT.md's color key's value: "a character designation (from a-z), then a space, then a six-digit hex
#: color like #808080" (the "#" may be left out; letters are read in any case, as in clues)
_COLOR = re.compile(r"[A-Za-z]\s+#?[0-9A-Fa-f]{6}")
#: FORMAT.md's divider between the puzzles of a bundle
_PACK_SEPARATOR = re.compile(r"={4,}")


class _Ignored(Ignored):
    """What a .non file said that the format lets a reader ignore (see Ignored)."""

    def key(self, key: str, line: int, section: str | None = None) -> None:
        """An unknown key on ``line``; ``section``: the clue section it interrupts."""
        guess = difflib.get_close_matches(key.lower(), _KEYS, n=1)
        hint = f" (a misspelling of {guess[0]!r}?)" if guess else ""
        inside = f" inside the '{section}' clues" if section else ""
        self.warnings.append(f"{self.path}:{line}: unknown key {echo(key)!r}{inside} ignored{hint}")
        if guess:
            self.notes.append(f"line {line}'s {echo(key)!r} is not a key: a misspelling of {guess[0]!r}?")
        elif section:  # it may be a clue gone wrong: a short section's error names it
            self.notes.append(f"line {line}'s {echo(key)!r} was ignored as an unknown key, not read as a clue")

    def tail(self, token: str, number: str, tail: str, line: int) -> None:
        self.warnings.append(f"{self.path}:{line}: {echo(token)!r}: {echo(tail)!r} after the number "
                             f"{number} ignored")
        self.notes.append(f"line {line}'s {echo(token)!r} was read as {number}")


def _is_clue_line(s: str) -> bool:
    return s == "" or s[0].isdigit() or (s[0] == "-" and s[1:2].isdigit())


def _is_known_key(s: str) -> bool:
    return bool(s) and s.split(None, 1)[0].lower() in _KEYS


def _pack(line: str, path: str, lineno: int) -> InputError:
    return InputError(f"{echo(line)!r} divides a bundle of several puzzles (FORMAT.md's .nonpack); packs "
                      "of several puzzles are not supported: give one puzzle per file", path, lineno)


#: a character reference, numeric or named (HTML reads some names without
#: their ';', as in "&copy 2004")
_CHAR_REF = re.compile(r"&(?:#([0-9]+)|#[xX]([0-9a-fA-F]+)|[A-Za-z][A-Za-z0-9]*);?")


def _text_value(s: str, key: str, path: str, lineno: int) -> str:
    """A text value (title, by, ...): in quotes or not, its HTML escapes
    read.  Text after the closing quote is an error, as after the goal's
    (it was kept, quotes and all).  A numeric escape is the character it
    numbers: html.unescape dropped some control characters unsaid (the
    file's own are refused) and read others as other characters (&#x85;
    as an ellipsis); one that numbers no character is an error."""
    s = s.strip()
    if s.startswith('"'):
        end = s.rfind('"')
        if end == 0:
            raise InputError(f"{key}: no closing quote", path, lineno)
        if s[end + 1:].strip():
            raise InputError(f"{key}: text {echo(s[end + 1:].strip())!r} after the {key}'s closing quote",
                             path, lineno)
        s = s[1:end]

    def char(m) -> str:
        if m.group(1) is None and m.group(2) is None:
            return html.unescape(m.group(0))
        digits, base = (m.group(1), 10) if m.group(1) is not None else (m.group(2), 16)
        digits = digits.lstrip("0")
        n = int(digits, base) if digits and len(digits) <= 8 else 0  # (more digits: past U+10FFFF)
        if n == 0 or n > 0x10FFFF or 0xD800 <= n <= 0xDFFF:
            raise InputError(f"{key}: {echo(m.group(0))!r} numbers no character", path, lineno)
        return chr(n)

    return _CHAR_REF.sub(char, s)


def load(text: str, path: str) -> Nonogram:
    return load_noting(_load, text, path, _Ignored(path))


def _load(text: str, path: str, ignored: _Ignored) -> Nonogram:
    lines = text_lines(text)
    d = Draft(path)
    colours: dict[str, int] = {}  # each colour letter of a clue -> the line it first appears on
    colour_keys: dict[str, tuple[str, int]] = {}  # each colour letter a color line defines -> (value, line)
    seen: dict[str, int] = {}  # the line of each goal and descriptive key
    i = 0
    while i < len(lines):
        lineno = i + 1
        s = lines[i].strip()
        i += 1
        if not s:
            continue
        if _PACK_SEPARATOR.fullmatch(s):
            raise _pack(s, path, lineno)
        if _is_clue_line(s):
            raise InputError(f"clue line {echo(s)!r} outside a 'rows' or 'columns' section "
                             "(more clue lines than the height or width?)", path, lineno)
        parts = s.split(None, 1)
        key, rest = parts[0].lower(), (parts[1] if len(parts) > 1 else "")
        if key in ("width", "height") or (key in ("rows", "columns") and rest.strip()):
            attr = "width" if key in ("width", "columns") else "height"
            if getattr(d, attr) is not None:
                first = getattr(d, attr + '_line')
                if key in ("rows", "columns"):  # (clues written on the section's own line?)
                    raise InputError(f"{echo(s)!r} gives the {attr}, as Simpson's '{key} "
                                     f"{'H' if key == 'rows' else 'W'}' does, and line {first} already gave it; "
                                     f"a section's clues start on the line after a bare '{key}'", path, lineno)
                raise InputError(f"{attr} given twice (first on line {first})", path, lineno)
            setattr(d, attr, read_size(rest, attr, path, lineno))
            setattr(d, attr + "_line", lineno)
            if d.width is not None and d.height is not None:
                check_grid_size(d)
        elif key in ("rows", "columns"):
            attr, dim = ("height", d.height) if key == "rows" else ("width", d.width)
            if (d.rows if key == "rows" else d.cols) is not None:
                raise InputError(f"'{key}' section given twice", path, lineno)
            if dim is None:
                raise InputError(f"'{key}' comes before '{attr}': the {attr} must be given first", path, lineno)
            section = []
            ended_by = None  # (line, text) of a key that ended the section before its clues did
            while i < len(lines):
                t = lines[i].strip()
                if not _is_clue_line(t):
                    if _PACK_SEPARATOR.fullmatch(t):
                        raise _pack(t, path, i + 1)
                    if len(section) >= dim or _is_known_key(t):
                        if t.split(None, 1)[0].lower() not in ("rows", "columns"):  # (the next section: no news)
                            ended_by = (i + 1, t)
                        break  # the next key
                    if _KEY_VALUE.fullmatch(t):  # FORMAT.md: ignore a line not recognized
                        ignored.key(t.split(None, 1)[0], i + 1, section=key)
                        i += 1
                        continue
                    # where a clue must be, and no key: a bad clue, which _clue names
                section.append((i + 1, t))
                i += 1
            clues, where = _section(section, dim, key, path, lineno, colours, ignored, ended_by)
            if key == "rows":
                d.rows, d.row_lines, d.rows_line = clues, where, lineno
            else:
                d.cols, d.col_lines, d.cols_line = clues, where, lineno
        elif key in seen:  # a second value would silently replace the first
            raise InputError(f"{key} given twice (first on line {seen[key]})", path, lineno)
        elif key == "goal":
            seen[key] = lineno
            parts = [(lineno, rest.strip())]  # each line's part of the goal, for a message's line
            if parts[0][1].startswith('"'):  # a quoted goal may run on over several lines
                parts[0] = (lineno, parts[0][1][1:])
                while '"' not in parts[-1][1]:
                    if i == len(lines) or _is_known_key(lines[i].strip()):
                        ahead = f" before line {i + 1}'s {echo(lines[i].strip())!r}" if i < len(lines) else ""
                        raise InputError(f"goal: no closing quote{ahead}", path, lineno)
                    parts.append((i + 1, lines[i].strip()))
                    i += 1
                n, t = parts[-1]
                t, after = t.split('"', 1)
                if after.strip():  # (a '# comment' too: the format has no comments)
                    raise InputError(f"goal: text {echo(after.strip())!r} after the goal's closing quote", path, n)
                parts[-1] = (n, t)
            elif '"' in parts[0][1]:  # (the quote was counted as a cell: "goal has 7 cells, expected 6", QA)
                raise InputError(f"goal: a quote with no opening quote before the goal: {echo(parts[0][1])!r}",
                                 path, lineno)
            goal = [(n, ch) for n, t in parts for ch in re.sub(r"\s+", "", t)]
            d.goal, d.goal_line = "".join(ch for _, ch in goal), lineno
        elif key == "color":
            if not _COLOR.fullmatch(rest.strip()):
                raise InputError(f"malformed color line {echo(s)!r}: expected a colour letter (a-z, or A-Z read as "
                                 "a-z), a space and a six-digit hex colour, as in 'color a #ff0000'", path, lineno)
            letter = rest.strip()[0].lower()
            if letter in colour_keys:  # (one letter given twice is no second colour)
                raise InputError(f"color {echo(letter)} given twice (first on line {colour_keys[letter][1]})",
                                 path, lineno)
            colour_keys[letter] = (rest.strip(), lineno)
        elif key in _META:
            if not rest.strip():  # (a value left out: nothing to keep, and nothing said)
                raise InputError(f"'{key}' needs a value, as in '{key} \"...\"'", path, lineno)
            seen[key] = lineno
            d.meta[key] = _text_value(rest, key, path, lineno)
        else:  # FORMAT.md: "Parsers must ignore any line that they don't recognize"
            ignored.key(parts[0], lineno)
    if len(colours) == 1 and len(colour_keys) > 1 and set(colours) <= set(colour_keys):
        # colours defined that no clue uses: a black-and-white puzzle (two
        # were refused as multicolour, QA); said, and its goal knows only the
        # clues' colour
        for letter, (value, at) in sorted(colour_keys.items(), key=lambda kv: kv[1][1]):
            if letter not in colours:
                ignored.warnings.append(f"{path}:{at}: color {echo(value)} ignored: no clue uses colour {letter}")
        colour_keys = {letter: v for letter, v in colour_keys.items() if letter in colours}
    if len(colours) > 1 or len(colour_keys) > 1:
        # the line of the second colour: where the file stops being black and white
        line = (sorted(v[1] for v in colour_keys.values())[1] if len(colour_keys) > 1
                else sorted(colours.values())[1])
        names = (", ".join(sorted(colours)) if len(colours) > 1
                 else ", ".join(echo(v) for v, _ in colour_keys.values()))
        raise InputError(f"multicolour nonograms (colours {names}) are not supported yet; "
                         "only black-and-white ones", path, line)
    if colours and colour_keys and set(colours) != set(colour_keys):
        # one letter in the clues, another defined: a slip either way
        (clue_letter, at), = colours.items()
        (key_letter, (_, key_line)), = colour_keys.items()
        raise InputError(f"the clues' colour is {clue_letter} (line {at}), but the color line defines "
                         f"{key_letter}, not {clue_letter}", path, key_line)
    if d.goal is not None:
        d.goal = _goal(goal, d.width, d.height, set(colours) | set(colour_keys), path)
    d.title = d.meta.get("title", "")
    d.meta_lines = dict(seen)
    return finish(d, ignored=ignored)


def _goal(cells: list[tuple[int, str]], width: int | None, height: int | None, colours: set, path: str) -> str:
    """The goal's cells as "0" (white) and "1" (black).  FORMAT.md: "0 is a
    blank; anything else is a filled spot, likely either a 1 or a color
    character designation"; so 1 and the file's colour letter are black, and
    any other character (``x``, ``.``) is an error at its line rather than
    read as black (``.`` is white in other formats)."""
    black = ["1"] + sorted(c for c in colours if c)
    ok = {"0", *black, *(c.upper() for c in black)}
    for k, (line, ch) in enumerate(cells):
        if width and height and k >= width * height:
            break  # past the grid: finish says the goal has too many cells ('e' at row 3 of 2 said nothing)
        if ch not in ok:
            at = f"row {k // width + 1}, column {k % width + 1}" if width else f"cell {k + 1}"
            raise InputError(f"goal: {echo(ch)!r} at {at} is neither 0 (white) nor "
                             f"{' or '.join(black)} (black)", path, line)
    return "".join("0" if ch == "0" else "1" for _, ch in cells)


def _section(section, expected: int, key: str, path, header_line: int, colours: dict, ignored: _Ignored,
             ended_by: tuple[int, str] | None = None):
    """The clues of one section, and the line of each.  Each clue is read
    before the count is checked: a bad clue is named at its own line.  A
    section too short names the key that ended it (``ended_by``: its line
    and text), if one did: a key among the clues hides the clues after it."""
    trimmed = []  # the blank lines at the section's ends taken for separators
    while section and section[-1][1] == "" and len(section) > expected:
        trimmed.append(section.pop()[0])
    while section and section[0][1] == "" and len(section) > expected:
        trimmed.append(section.pop(0)[0])
    what = "row" if key == "rows" else "column"
    empties = [n for n, s in section if s == ""]
    if trimmed and empties and len(section) == expected:
        # which blank is the separator and which the empty clue is a guess
        # (the other guess may solve where this one has no solution, QA)
        ignored.warnings.append(
            f"{ignored.path}:{min(trimmed)}: blank line at the {'end' if min(trimmed) > empties[0] else 'start'} "
            f"of the {what} clues taken as a separator, and line {empties[0]}'s as an empty {what} clue: "
            "which blank line is which is a guess (write an empty clue as 0)")
    if len(section) != expected:
        nonblank = [(n, s) for n, s in section if s]
        if len(nonblank) == expected:
            blank_lines(section, nonblank, what, expected, ignored)
            section = nonblank
    while len(section) != expected and section and section[-1][1] == "":  # blanks ending a short section
        section.pop()
    dim = "height" if key == "rows" else "width"
    clues = [_clue(s, path, n, colours, ignored, what=f"{what} {k + 1} clue") for k, (n, s) in enumerate(section)]
    if len(section) > expected:
        nonblank = [(n, s) for n, s in section if s]
        # the first clue too many, not counting blank lines if that still leaves
        # one (a stray '3' after two blank lines was named as the first blank)
        skip = len(nonblank) > expected
        n, s = nonblank[expected] if skip else section[expected]
        raise InputError(f"more {what} clues than the {dim} ({expected}): {echo(s)!r} is clue {expected + 1}"
                         + (" (not counting blank lines)" if skip and nonblank[:expected] != section[:expected]
                            else ""), path, n)
    if len(section) < expected:
        ended = f" (line {ended_by[0]}'s {echo(ended_by[1])!r} ended the section)" if ended_by else ""
        raise InputError(f"{plural(len(section), what + ' clue')} for {dim} {expected}{ended}", path, header_line)
    return clues, [n for n, _ in section]


def clue_tokens(text: str, what: str, path, line: int) -> list[str]:
    """The numbers of a clue line (``.non`` and ``.nin``), separated by commas
    or blanks.  A comma with no number before or after it (``1,``, ``,1``,
    ``1,,1``) is an error: an empty field may be a number left out."""
    t = text.strip()
    fields = t.split(",")
    for k, f in enumerate(fields):
        if len(fields) > 1 and not f.strip():
            where = ("before the first comma" if k == 0 else "after the last comma" if k == len(fields) - 1
                     else "between two commas")
            raise InputError(f"{what} {echo(t)!r}: no number {where}", path, line)
    return [tok for f in fields for tok in f.split()]


def _clue(text: str, path, line: int, colours: dict, ignored: _Ignored, what: str):
    """A clue line: numbers separated by commas (or blanks), each maybe with
    a colour letter (``3a``, collected into ``colours``); any other
    characters after a number are ignored, as FORMAT.md asks, with a warning
    (``1;1`` reads as 1)."""
    parts = []  # (token, its number, what follows the number)
    for tok in clue_tokens(text, what, path, line):  # not a number at all: read_clue says so
        m = _TOKEN.fullmatch(tok)
        parts.append((tok, *m.groups()) if m else (tok, tok, ""))
    clue = read_clue([number for _, number, _ in parts], text.strip(), what, path, line)
    for tok, number, tail in parts:
        if re.fullmatch(r"[A-Za-z]", tail):
            colours.setdefault(tail.lower(), line)
        elif tail:
            ignored.tail(tok, str(int(number)), tail, line)
    return clue
