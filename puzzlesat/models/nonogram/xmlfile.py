"""webpbn's XML format (https://webpbn.com/pbn_fmt.html), black and white only.

    <puzzleset>
      <puzzle type="grid" defaultcolor="black">
        <title>Demo</title> <author>...</author> <copyright>...</copyright>
        <color name="white" char=".">fff</color>
        <color name="black" char="X">000</color>
        <clues type="columns"><line><count>2</count><count>1</count></line>...</clues>
        <clues type="rows">...</clues>
        <solution type="goal"><image>
          |.XX..|
          ...
        </image></solution>
      </puzzle>
    </puzzleset>

A ``<count>`` may name a colour (``color="red"``; default: the puzzle's
``defaultcolor``).  A colour named there, or by ``defaultcolor`` or
``backgroundcolor``, must be webpbn's predefined ``black`` or ``white`` or
one a ``<color>`` element defines: any other is an error at its line.  A
puzzle whose clues use more than one colour is a multicolour puzzle:
refused with a clear "not supported yet".  The goal is
the ``<solution type="goal">`` image (a ``type="solution"`` image is used
when there is no goal, and beside a goal is read and checked as it is, then
left aside with a warning; ``type="saved"``, a partly solved grid, is not
read, with a warning).  Clues in the background colour are an error.
A goal cell is the background colour's character (white) or the clue
colour's (black; colours ``white`` ``.`` and ``black`` ``X`` unless a
``<color>`` says otherwise); any other character (``?``, a ``[...]`` set,
another colour) is an error.  Errors carry the line of the element at
fault, tracked with expat; HTML entities such as ``&copy;`` (used by webpbn
exports, declared only in their DTD) are replaced before parsing, and any
other entity is an error (expat would drop it silently when the file names
an external DTD).  A ``<count>`` must hold a whole number.  Entity
declarations (``<!ENTITY ...>`` in the document's own DTD subset) are
refused: nested ones expand exponentially ("billion laughs").

What webpbn's format defines is read or checked; nothing else is dropped
silently.  An element or attribute the format does not define, where it
cannot change the puzzle (inside ``<puzzleset>`` and ``<puzzle>``, an
attribute), is ignored with a warning in ``Nonogram.ignored``, as the
``.non`` reader does for unknown keys; inside ``<clues>``, ``<line>``,
``<solution>`` and the text elements it is an error.  An element that
holds one value (``<title>``, ``<author>``, ...; a colour's name; the goal
and solution images) given twice is an error: the second would replace
the first.  Known elements the tool does not use (``<description>``,
``<note>``, ``<authorid>``) are accepted quietly.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from html.entities import html5
from xml.parsers import expat

from ...errors import InputError, plural
from .build import Draft, Ignored, echo, finish, load_noting, read_clue
from .puzzle import Nonogram


@dataclass
class _El:
    tag: str
    attrs: dict
    line: int
    children: list = field(default_factory=list)
    text: str = ""  # set when the element ends, from the pieces expat delivered
    pieces: list = field(default_factory=list, repr=False)
    text_line: int = 0  # the line of its first text that is not white space

    def find(self, tag: str):
        return next((c for c in self.children if c.tag == tag), None)

    def findall(self, tag: str):
        return [c for c in self.children if c.tag == tag]

    def iter(self, tag: str):
        """The elements ``tag`` below this one, in document order (a loop,
        not a recursion: a file may nest elements 100,000 deep)."""
        stack = [iter(self.children)]
        while stack:
            c = next(stack[-1], None)
            if c is None:
                stack.pop()
                continue
            if c.tag == tag:
                yield c
            stack.append(iter(c.children))


_XML_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}
#: an entity reference or declaration, or a comment or CDATA section (whose text holds neither)
#: (one left open runs to the end: expat names it, and no later start scans the text again)
_ENTITY_OR_LITERAL = re.compile(r"<!--.*?(?:-->|\Z)|<!\[CDATA\[.*?(?:\]\]>|\Z)|(<!ENTITY)|&([A-Za-z_:][\w.:-]*);",
                                re.DOTALL)

#: webpbn's format (pbn_fmt.html, its DTD): the elements each element may hold
#: (None: text only), and the attributes each may carry
_TEXT = ("source", "id", "title", "author", "authorid", "copyright", "description", "note")
_CHILDREN = {
    "puzzleset": ("source", "id", "title", "author", "authorid", "copyright", "note", "puzzle"),
    "puzzle": _TEXT + ("color", "clues", "solution"),
    "clues": ("line",), "line": ("count",), "solution": ("image",),
    **{tag: None for tag in _TEXT + ("color", "count", "image")},
}
_ATTRIBUTES = {"puzzle": ("type", "defaultcolor", "backgroundcolor"), "color": ("name", "char"),
               "clues": ("type",), "count": ("color",), "solution": ("type", "id")}
#: where an element the format does not define is ignored with a warning
#: (elsewhere it is an error: it may be a clue or the goal gone wrong)
_OPEN = ("puzzleset", "puzzle")
#: the elements a puzzle or a puzzle set holds at most once
_SINGLE = ("source", "id", "title", "author", "authorid", "copyright", "description")
_SOLUTION_TYPES = ("goal", "solution", "saved")


def _fix_entities(text: str, path: str) -> str:
    """``text`` with its HTML entities (``&copy;``) replaced by references
    to their characters (``&#169;``); an entity that is neither an XML nor an HTML one is an error
    (with an external DTD named, expat would drop it silently).  An entity
    declaration is refused here too, so that whichever comes first is named."""
    def sub(m):
        decl, name = m.groups()
        if decl:
            raise InputError("entity declarations are not supported", path, text.count("\n", 0, m.start()) + 1)
        if name is None or name in _XML_ENTITIES:  # a comment, CDATA, or &amp; and its kin
            return m.group(0)
        u = html5.get(name + ";")  # exactly: html.unescape reads "&notit;" as "\u00acit;"
        if u is None:
            raise InputError(f"undefined entity {echo(m.group(0))!r} (not an XML or HTML entity; "
                             "a literal & is written &amp;)", path, text.count("\n", 0, m.start()) + 1)
        # as character references, which expat reads as text: the characters
        # themselves broke the markup (&LT; is HTML's <) or moved every later
        # line (&NewLine;), QA
        return "".join(f"&#{ord(ch)};" for ch in u)

    return _ENTITY_OR_LITERAL.sub(sub, text)


def _parse_tree(text: str, path: str) -> _El:
    p = expat.ParserCreate()
    root = _El("#document", {}, 1)
    stack = [root]

    def start(tag, attrs):
        el = _El(tag, attrs, p.CurrentLineNumber)
        stack[-1].children.append(el)
        stack.append(el)

    def end(tag):
        el = stack.pop()
        el.text, el.pieces = "".join(el.pieces), []

    def chars(data):
        el = stack[-1]
        el.pieces.append(data)  # joined once at the end: += would be quadratic
        if not el.text_line and not data.isspace():
            el.text_line = p.CurrentLineNumber

    def entity(name, *_):
        raise InputError("entity declarations are not supported", path, p.CurrentLineNumber)

    def skipped(name, _is_parameter):  # an entity that escaped _fix_entities (a name it does not match)
        raise InputError(f"undefined entity '&{echo(name)};'", path, p.CurrentLineNumber)

    p.StartElementHandler, p.EndElementHandler, p.CharacterDataHandler = start, end, chars
    p.EntityDeclHandler, p.SkippedEntityHandler = entity, skipped
    fixed = _fix_entities(text, path)
    try:
        p.Parse(fixed, True)
    except expat.ExpatError as e:
        raise InputError(f"not well-formed XML: {expat.ErrorString(e.code)}", path, e.lineno) from None
    return root


class _Ignored(Ignored):
    """What a file held that webpbn's format does not define and the reader
    ignores (see Ignored); the notes are the likely misspellings among them."""

    def __init__(self, path: str):
        super().__init__(path)
        self._guesses: dict = {}

    def _guess(self, name: str, known) -> str | None:
        key = (name, known)
        if key not in self._guesses:  # once per name: a file may repeat one 100,000 times
            guess = difflib.get_close_matches(name.lower(), known, n=1)
            self._guesses[key] = guess[0] if guess else None
        return self._guesses[key]

    def element(self, el: _El, parent: _El) -> None:
        guess = self._guess(el.tag, _CHILDREN[parent.tag])
        hint = f" (a misspelling of <{guess}>?)" if guess else ""
        self.warnings.append(f"{self.path}:{el.line}: unknown element <{echo(el.tag)}> inside "
                             f"<{parent.tag}> ignored{hint}")
        if guess:
            self.notes.append(f"line {el.line}'s <{echo(el.tag)}> was ignored: a misspelling of <{guess}>?")

    def text(self, el: _El) -> None:
        self.warnings.append(f"{self.path}:{el.text_line}: text {echo(el.text.strip())!r} directly inside "
                             f"<{el.tag}> ignored")

    def attribute(self, name: str, el: _El) -> None:
        guess = self._guess(name, _ATTRIBUTES.get(el.tag, ()))
        hint = f" (a misspelling of {guess!r}?)" if guess else ""
        self.warnings.append(f"{self.path}:{el.line}: unknown attribute {echo(name)!r} on <{el.tag}> "
                             f"ignored{hint}")
        if guess:
            self.notes.append(f"line {el.line}'s attribute {echo(name)!r} was ignored: a misspelling "
                              f"of {guess!r}?")


def _check(el: _El, path: str, ignored: _Ignored) -> None:
    """``el`` and what it holds against webpbn's format: an unknown attribute
    is ignored with a warning; an unknown element too inside <puzzleset> and
    <puzzle>, an error elsewhere; a single-valued element given twice is an
    error."""
    for name in el.attrs:
        if name not in _ATTRIBUTES.get(el.tag, ()):
            ignored.attribute(name, el)
    allowed = _CHILDREN[el.tag]
    if allowed is None:
        if el.children:
            c = el.children[0]
            raise InputError(f"<{echo(c.tag)}> inside <{el.tag}>: only text belongs there", path, c.line)
        return
    # text where only elements belong: ignored with a warning where unknown
    # elements are, else an error (a clue or a goal gone astray); a <line>'s
    # is refused as the clue it is (below, in _load)
    if el.tag != "line" and el.text.strip():
        if el.tag in _OPEN:
            ignored.text(el)
        else:
            raise InputError(f"text {echo(el.text.strip())!r} directly inside <{el.tag}>: only "
                             f"<{'>, <'.join(allowed)}> elements belong there", path, el.text_line)
    first: dict[str, int] = {}
    for c in el.children:
        if c.tag not in allowed:
            if el.tag not in _OPEN:
                raise InputError(f"<{echo(c.tag)}> inside <{el.tag}>: only <{'>, <'.join(allowed)}> "
                                 "elements belong there", path, c.line)
            ignored.element(c, el)
            continue
        if c.tag in _SINGLE:
            if c.tag in first:
                raise InputError(f"<{c.tag}> given twice in one <{el.tag}> (first on line {first[c.tag]})",
                                 path, c.line)
            first[c.tag] = c.line
        _check(c, path, ignored)


def _parent(top: _El, target: _El) -> _El:
    """The element that holds ``target`` (somewhere below ``top``)."""
    stack = [top]
    while stack:
        el = stack.pop()
        if any(c is target for c in el.children):
            return el
        stack.extend(el.children)
    raise ValueError("not below top")  # pragma: no cover - target comes from top.iter


def load(text: str, path: str) -> Nonogram:
    return load_noting(_load, text, path, _Ignored(path))


def _load(text: str, path: str, ignored: _Ignored) -> Nonogram:
    root = _parse_tree(text, path)
    top = root.children[0]  # (expat: a document has one root element)
    # the puzzle is the root, or in the <puzzleset> that is: one anywhere
    # else (in an element the reader would ignore) was read all the same (QA)
    puzzles = [top] if top.tag == "puzzle" else top.findall("puzzle") if top.tag == "puzzleset" else []
    if not puzzles:
        astray = next(top.iter("puzzle"), None)
        if astray is None:
            raise InputError("no <puzzle> element: not a webpbn XML puzzle file", path, 1)
        if top.tag != "puzzleset":
            raise InputError(f"the root element is <{echo(top.tag)}>: webpbn's format puts the <puzzle> "
                             f"(line {astray.line}) in a <puzzleset>, or has it as the root", path, top.line)
        outer = _parent(top, astray)
        raise InputError(f"<puzzle> inside <{echo(outer.tag)}> (line {outer.line}): webpbn's format puts it "
                         f"directly in the root <puzzleset> (line {top.line})", path, astray.line)
    if len(puzzles) > 1:
        raise InputError(f"{len(puzzles)} puzzles in one file; give one puzzle per file", path, puzzles[1].line)
    pz = puzzles[0]
    kind = pz.attrs.get("type", "grid")
    if kind != "grid":
        raise InputError(f"puzzle type {echo(kind)!r} is not supported (only 'grid')", path, pz.line)
    _check(top, path, ignored)
    default = pz.attrs.get("defaultcolor", "black")
    background = pz.attrs.get("backgroundcolor", "white")
    chars = _colours(pz, path)
    for attr, name in (("defaultcolor", default), ("backgroundcolor", background)):
        if name not in chars:
            raise _undefined(name, f"{attr}={echo(name)!r}", path, pz.line)

    d = Draft(path)
    used: dict[str, int] = {}
    for clues in pz.findall("clues"):
        which = clues.attrs.get("type")
        if which not in ("rows", "columns"):
            shown = which if which is None else echo(which)
            raise InputError(f"<clues type={shown!r}>: expected type \"rows\" or \"columns\"", path, clues.line)
        lines = clues.findall("line")
        out = []
        for k, ln in enumerate(lines):
            what = f"{which[:-1]} {k + 1} clue"
            counts = ln.findall("count")
            if ln.text.strip():  # webpbn's DTD: a line holds <count> elements only
                raise InputError(f"{what}: text {echo(ln.text.strip())!r} directly inside <line>; each number "
                                 "goes in its own <count>", path, ln.line)
            for cnt in counts:
                colour = cnt.attrs.get("color", default)
                if colour not in chars:  # (before the multicolour check: a misspelt colour is no second one)
                    raise _undefined(colour, f"<count color={echo(colour)!r}>", path, cnt.line)
                used.setdefault(colour, cnt.line)
                if not cnt.text.strip():
                    raise InputError(f"{what}: an empty <count> (it must hold a whole number)", path, cnt.line)
            text = ",".join(cnt.text.strip() for cnt in counts)
            for cnt in counts:  # each count checked on its own line
                read_clue([cnt.text.strip()], text, what, path, cnt.line)
            out.append(read_clue([cnt.text.strip() for cnt in counts], text, what, path, ln.line))
        if which == "rows":
            if d.rows is not None:
                raise InputError("row clues given twice", path, clues.line)
            d.rows, d.row_lines, d.rows_line = out, [ln.line for ln in lines], clues.line
            d.height, d.height_line = len(out), clues.line
        else:
            if d.cols is not None:
                raise InputError("column clues given twice", path, clues.line)
            d.cols, d.col_lines, d.cols_line = out, [ln.line for ln in lines], clues.line
            d.width, d.width_line = len(out), clues.line
    if len(used) > 1:
        second = sorted(used.items(), key=lambda kv: kv[1])[1]
        names = ", ".join(echo(c) for c in sorted(used))
        raise InputError(f"multicolour puzzles (colours {names}) are not supported yet; only black-and-white ones",
                         path, second[1])
    if background in used:  # (one colour: the multicolour check is above)
        raise InputError(f"the clues count cells of the background colour {echo(background)!r} "
                         "(backgroundcolor); a clue counts cells of another colour", path, used[background])
    if d.rows is None:
        raise InputError("no <clues type=\"rows\">", path, pz.line)
    if d.cols is None:
        raise InputError("no <clues type=\"columns\">", path, pz.line)
    if d.height == 0 or d.width == 0:
        raise InputError("a puzzle needs at least one row and one column", path, pz.line)

    sols: dict[str, _El] = {}
    for sol in pz.findall("solution"):
        which = sol.attrs.get("type", "goal")
        if which not in _SOLUTION_TYPES:
            raise InputError(f"<solution type={echo(which)!r}>: expected type \"goal\", \"solution\" or "
                             "\"saved\"", path, sol.line)
        img = sol.findall("image")
        if len(img) != 1:
            raise InputError(f"<solution type=\"{which}\"> holds {plural(len(img), '<image>', '<image>s')}, "
                             "expected one", path, (img[1] if img else sol).line)
        if which == "saved":  # a partly solved grid, kept by solvers: not a goal, several allowed
            ignored.warnings.append(f"{path}:{sol.line}: <solution type=\"saved\"> (a partly solved grid a "
                                    "solver kept) not read")
            continue
        if which in sols:  # a second goal would silently replace the first
            raise InputError(f"<solution type=\"{which}\"> given twice (first on line {sols[which].line})",
                             path, sol.line)
        sols[which] = sol
    black = next(iter(used), default)  # the clues' one colour
    images = {which: _goal(sol.find("image"), d, chars, background, black, path, which)
              for which, sol in sols.items()}
    which = "goal" if "goal" in sols else "solution" if "solution" in sols else None
    if which is not None:
        d.goal, d.goal_line = images[which], sols[which].find("image").line
    if len(images) == 2:  # read and checked as the goal is, and said to be left aside
        other = sols["solution"]
        same = "the same picture" if images["solution"] == images["goal"] else "another picture"
        ignored.warnings.append(f"{path}:{other.line}: <solution type=\"solution\"> ({same}) not used: "
                                "the goal is the one checked")
    # the puzzle's own, else its set's (the set's title was dropped unsaid, QA)
    for tag, key in (("title", "title"), ("author", "by"), ("copyright", "copyright"), ("source", "source"),
                     ("id", "catalogue")):
        el = pz.find(tag)
        if not _text(el) and root.find("puzzleset") is not None:  # (none, or a blank one)
            theirs = root.find("puzzleset").find(tag)
            if _text(theirs) or el is None:
                el = theirs
        v = _text(el)  # (expat has decoded its entities: no second pass)
        if v:
            d.meta[key] = v
            d.meta_lines[key] = el.line
        elif key == "title" and el is not None:
            d.meta_lines[key] = el.line  # (a blank title: finish says what stands in for it)
    d.title = d.meta.pop("title", "")
    if "catalogue" in d.meta and "source" in d.meta:
        d.meta["catalogue"] = f"{d.meta.pop('source')} {d.meta['catalogue']}"
    return finish(d, ignored=ignored)


def _text(el) -> str:
    return el.text.strip() if el is not None else ""


def _colours(pz: _El, path: str) -> dict[str, str | None]:
    """The character of each colour of ``pz`` (its <color> elements, over
    webpbn's predefined white '.' and black 'X'); a colour defined twice is
    an error: the second would replace the first."""
    chars: dict[str, str | None] = {"white": ".", "black": "X"}
    where: dict[str, int] = {}
    for c in pz.findall("color"):
        name, char = c.attrs.get("name"), c.attrs.get("char")
        if name is None:
            raise InputError("<color> without a name", path, c.line)
        if name in where:
            raise InputError(f"colour {echo(name)!r} defined twice (first on line {where[name]})", path, c.line)
        if char is not None and len(char) != 1:
            raise InputError(f"colour {echo(name)!r}: char {echo(char)!r} is not one character", path, c.line)
        where[name] = c.line
        chars[name] = char
    return chars


def _undefined(name: str, where: str, path: str, line: int) -> InputError:
    """The error for a colour named (``where``) that no <color> defines and
    webpbn does not predefine (its predefined colours: black and white)."""
    return InputError(f"colour {echo(name)!r} is not defined ({where}; webpbn predefines black and white, "
                      "a <color> element defines any other)", path, line)


def _goal(img: _El, d: Draft, chars: dict, background: str, black: str, path: str, which: str = "goal") -> str:
    """The goal image's cells, row-major, as "0" (white: the background
    colour's character) and "1" (black: the clue colour's); any other
    character is an error at its line."""
    white_ch, black_ch = chars.get(background), chars.get(black)
    for name, ch in ((background, white_ch), (black, black_ch)):
        if ch is None:
            raise InputError(f"the {which} image needs a character for colour {echo(name)!r} "
                             f"(<color name=\"{echo(name)}\" char=\"...\">)", path, img.line)
    if white_ch == black_ch:
        raise InputError(f"the {which} image cannot tell white from black: colours {echo(background)!r} and "
                         f"{echo(black)!r} have the same character {white_ch!r}", path, img.line)
    cells = str.maketrans({white_ch: "0", black_ch: "1"})
    rows = []  # (line, cells): the image's text starts on the <image> tag's line
    for k, raw in enumerate(img.text.split("\n")):
        r = raw.strip()
        if r:
            rows.append((img.line + k, r[1:-1] if len(r) >= 2 and r[0] == r[-1] == "|" else r))
    out = []
    for k, (line, r) in enumerate(rows):
        bad = next((ch for ch in r if ch not in (white_ch, black_ch)), None)
        if bad is not None:
            raise InputError(f"row {k + 1} of the {which} image: {echo(bad)!r} is neither {white_ch!r} "
                             f"({echo(background)}) nor {black_ch!r} ({echo(black)})", path, line)
        if len(r) != d.width:
            raise InputError(f"row {k + 1} of the {which} image has {plural(len(r), 'cell')}, expected {d.width}",
                             path, line)
        out.append(r.translate(cells))
    if len(rows) != d.height:
        raise InputError(f"the {which} image has {plural(len(rows), 'row')}, expected {d.height}", path, img.line)
    return "".join(out)
