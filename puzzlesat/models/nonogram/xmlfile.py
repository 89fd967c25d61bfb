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
``defaultcolor``).  A puzzle whose clues use more than one colour is a
multicolour puzzle: refused with a clear "not supported yet".  The goal is
the ``<solution type="goal">`` image (a ``type="solution"`` image is used
when there is no goal); cells other than the background colour's character
are black.  Errors carry the line of the element at fault, tracked with
expat; HTML entities such as ``&copy;`` (used by webpbn exports, declared
only in their DTD) are replaced before parsing.  A ``<count>`` must hold a
whole number.  Entity declarations (``<!ENTITY ...>`` in the document's own
DTD subset) are refused: nested ones expand exponentially ("billion laughs").
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from xml.parsers import expat

from ...errors import InputError, plural
from .build import Draft, echo, finish, read_clue
from .puzzle import Nonogram


@dataclass
class _El:
    tag: str
    attrs: dict
    line: int
    children: list = field(default_factory=list)
    text: str = ""  # set when the element ends, from the pieces expat delivered
    pieces: list = field(default_factory=list, repr=False)

    def find(self, tag: str):
        return next((c for c in self.children if c.tag == tag), None)

    def findall(self, tag: str):
        return [c for c in self.children if c.tag == tag]

    def iter(self, tag: str):
        for c in self.children:
            if c.tag == tag:
                yield c
            yield from c.iter(tag)


_XML_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}


def _fix_entities(text: str) -> str:
    def sub(m):
        name = m.group(1)
        if name in _XML_ENTITIES:
            return m.group(0)
        u = html.unescape(m.group(0))
        return u if u != m.group(0) else m.group(0)

    return re.sub(r"&([A-Za-z][A-Za-z0-9]*);", sub, text)


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
        stack[-1].pieces.append(data)  # joined once at the end: += would be quadratic

    def entity(name, *_):
        raise InputError("entity declarations are not supported", path, p.CurrentLineNumber)

    p.StartElementHandler, p.EndElementHandler, p.CharacterDataHandler = start, end, chars
    p.EntityDeclHandler = entity
    try:
        p.Parse(_fix_entities(text), True)
    except expat.ExpatError as e:
        raise InputError(f"not well-formed XML: {expat.ErrorString(e.code)}", path, e.lineno) from None
    return root


def load(text: str, path: str) -> Nonogram:
    root = _parse_tree(text, path)
    puzzles = list(root.iter("puzzle"))
    if not puzzles:
        raise InputError("no <puzzle> element: not a webpbn XML puzzle file", path, 1)
    if len(puzzles) > 1:
        raise InputError(f"{len(puzzles)} puzzles in one file; give one puzzle per file", path, puzzles[1].line)
    pz = puzzles[0]
    kind = pz.attrs.get("type", "grid")
    if kind != "grid":
        raise InputError(f"puzzle type {echo(kind)!r} is not supported (only 'grid')", path, pz.line)
    default = pz.attrs.get("defaultcolor", "black")
    background = pz.attrs.get("backgroundcolor", "white")
    chars = {c.attrs.get("name"): c.attrs.get("char") for c in pz.findall("color")}

    d = Draft(path)
    used: dict[str, int] = {}
    for clues in pz.findall("clues"):
        which = clues.attrs.get("type")
        if which not in ("rows", "columns"):
            shown = which if which is None else echo(which)
            raise InputError(f"<clues type={shown!r}>: expected type \"rows\" or \"columns\"", path, clues.line)
        lines = clues.findall("line")
        _only(clues, "line", path)
        out = []
        for k, ln in enumerate(lines):
            what = f"{which[:-1]} {k + 1} clue"
            counts = ln.findall("count")
            _only(ln, "count", path)
            if ln.text.strip():  # webpbn's DTD: a line holds <count> elements only
                raise InputError(f"{what}: text {echo(ln.text.strip())!r} directly inside <line>; each number "
                                 "goes in its own <count>", path, ln.line)
            for cnt in counts:
                colour = cnt.attrs.get("color", default)
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
    if d.rows is None:
        raise InputError("no <clues type=\"rows\">", path, pz.line)
    if d.cols is None:
        raise InputError("no <clues type=\"columns\">", path, pz.line)
    if d.height == 0 or d.width == 0:
        raise InputError("a puzzle needs at least one row and one column", path, pz.line)

    sols = {s.attrs.get("type", "goal"): s for s in pz.findall("solution")}
    sol = sols.get("goal") or sols.get("solution")
    white = chars.get(background) or "."
    if sol is not None:
        img = sol.find("image")
        if img is not None:
            rows = [r.strip().strip("|") for r in img.text.strip().splitlines() if r.strip()]
            if any("?" in r for r in rows):
                pass  # an incomplete image is not a goal
            else:
                if len(rows) != d.height or any(len(r) != d.width for r in rows):
                    bad = next((k for k, r in enumerate(rows) if len(r) != d.width), None)
                    what = (f"row {bad + 1} of the goal image has {plural(len(rows[bad]), 'cell')}, "
                            f"expected {d.width}" if bad is not None else
                            f"the goal image has {plural(len(rows), 'row')}, expected {d.height}")
                    raise InputError(what, path, img.line + (bad or 0))
                d.goal, d.goal_line = "".join(rows), img.line
    d.title = html.unescape(_text(pz.find("title")))
    for tag, key in (("author", "by"), ("copyright", "copyright"), ("source", "source"), ("id", "catalogue")):
        v = _text(pz.find(tag)) or _text(root.find("puzzleset").find(tag) if root.find("puzzleset") else None)
        if v:
            d.meta[key] = v
    if "catalogue" in d.meta and "source" in d.meta:
        d.meta["catalogue"] = f"{d.meta.pop('source')} {d.meta['catalogue']}"
    return finish(d, white=white)


def _text(el) -> str:
    return el.text.strip() if el is not None else ""


def _only(el: _El, tag: str, path: str) -> None:
    """webpbn's DTD allows only ``tag`` elements inside ``el`` (<clues>: <line>,
    <line>: <count>); anything else would be dropped, so it is an error."""
    for c in el.children:
        if c.tag != tag:
            raise InputError(f"<{echo(c.tag)}> inside <{el.tag}>: only <{tag}> elements belong there", path, c.line)
