"""The 1965 BOX / RESERVE / ELEMENT format (Isobe), suffix ``.box``.

    BOX / 5 * 4 * 3
    RESERVE / (*) (4, 4), (4, 5), (5, 4), (5, 5)
    ELEMENT / (I) (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)

One statement a line; a line that does not start with a keyword continues the
statement before it.  Indices start at 1.  An element may have fewer
coordinates than the box has dimensions (missing ones are 1).  A RESERVE whose
symbol is ``*`` makes holes; any other symbol fixes that ELEMENT in place at
those cells (one of its copies).  An ELEMENT given twice with the same name
and shape is one piece with count 2.

Extensions, all in comments (``#`` to end of line): ``# title: ...``,
``# source: ...``, ``# expected-count: N``, ``# expected-unique: N``, and
``# one-sided: A B`` to keep the named elements from turning over.
"""

from __future__ import annotations

import re

from ...errors import InputError
from .build import PieceSpec, build_tiling
from .lattice import CubicLattice

_KEYWORD = re.compile(r"^\s*(BOX|RESERVE|ELEMENT)\s*/\s*(.*)$", re.IGNORECASE)
_META = re.compile(r"^\s*#\s*(title|source|expected-count|expected-unique|one-sided)\s*:\s*(.*?)\s*$", re.IGNORECASE)
_SYMBOL = re.compile(r"^\s*\(\s*([^()\s]+)\s*\)\s*(.*)$", re.DOTALL)
_TUPLE = re.compile(r"\(([^()]*)\)")


def load(text: str, path: str):
    meta: dict[str, str] = {}
    statements: list[list] = []  # [keyword, body, line]
    for no, raw in enumerate(text.splitlines(), 1):
        m = _META.match(raw)
        if m:
            meta[m.group(1).lower()] = m.group(2)
            continue
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        m = _KEYWORD.match(line)
        if m:
            statements.append([m.group(1).upper(), m.group(2), no])
        elif statements:
            statements[-1][1] += " " + line.strip()
        else:
            raise InputError(f"expected a BOX, RESERVE or ELEMENT statement, found {line.strip()!r}", path, no)

    boxes = [s for s in statements if s[0] == "BOX"]
    if not boxes:
        raise InputError("no BOX statement (expected e.g. 'BOX / 6 * 10')", path)
    if len(boxes) > 1:
        raise InputError("a second BOX statement", path, boxes[1][2])
    _, body, bline = boxes[0]
    try:
        dims = tuple(int(x) for x in body.split("*"))
    except ValueError:
        raise InputError(f"BOX sizes must be whole numbers separated by '*', got {body.strip()!r}", path, bline) from None
    if not 1 <= len(dims) <= 4:
        raise InputError(f"a BOX has 1 to 4 dimensions, got {len(dims)}", path, bline)
    if any(d < 1 for d in dims):
        raise InputError(f"BOX sizes must be positive, got {body.strip()!r}", path, bline)

    one_sided = set(meta.get("one-sided", "").split())
    elements: list[PieceSpec] = []
    reserves: list[tuple[str, list, int]] = []
    for kw, body, no in statements:
        if kw == "BOX":
            continue
        m = _SYMBOL.match(body)
        if not m:
            raise InputError(f"{kw} needs a symbol in parentheses, e.g. '{kw} / (X) (1, 1), ...'", path, no)
        sym, rest = m.group(1), m.group(2)
        cells = _cells(rest, len(dims), path, no, allow_short=(kw == "ELEMENT"))
        if kw == "ELEMENT":
            elements.append(PieceSpec(sym, cells, 1, sym in one_sided, no))
        else:
            for c in cells:
                for i, (x, d) in enumerate(zip(c, dims)):
                    if not 0 <= x < d:
                        raise InputError(f"reserved cell {_fmt(c)} lies outside the {_fmt_dims(dims)} box", path, no)
            reserves.append((sym, cells, no))

    unknown = one_sided - {e.name for e in elements}
    if unknown:
        raise InputError(f"'# one-sided:' names no ELEMENT {', '.join(sorted(unknown))}", path)
    expected = {}
    for key, field in (("expected-count", "count"), ("expected-unique", "unique")):
        if key in meta:
            try:
                expected[field] = int(meta[key])
            except ValueError:
                raise InputError(f"'# {key}:' must be a whole number, got {meta[key]!r}", path) from None
    return build_tiling(
        lattice=CubicLattice(len(dims)),
        dims=dims,
        holes_or_fixed=reserves,
        pieces=elements,
        path=path,
        title=meta.get("title", ""),
        source=meta.get("source"),
        expected=expected,
    )


def _cells(rest: str, d: int, path: str, no: int, allow_short: bool) -> list[tuple[int, ...]]:
    tuples = _TUPLE.findall(rest)
    leftover = _TUPLE.sub("", rest).replace(",", "").strip()
    if leftover:
        raise InputError(f"unexpected text {leftover!r}: cells are written (i, j, ...) separated by commas", path, no)
    if not tuples:
        raise InputError("no cells given", path, no)
    out = []
    for t in tuples:
        try:
            xs = [int(x) for x in t.split(",")]
        except ValueError:
            raise InputError(f"cell ({t}) must be whole numbers separated by commas", path, no) from None
        if len(xs) > d or (len(xs) < d and not allow_short):
            raise InputError(f"cell ({t}) has {len(xs)} coordinates, the box has {d} dimensions", path, no)
        if any(x < 1 for x in xs):
            raise InputError(f"cell ({t}): indices start at 1", path, no)
        out.append(tuple(x - 1 for x in xs) + (0,) * (d - len(xs)))
    if len(set(out)) != len(out):
        dup = next(c for c in out if out.count(c) > 1)
        raise InputError(f"cell {_fmt(dup)} is listed twice", path, no)
    return out


def _fmt(c) -> str:
    return "(" + ", ".join(str(x + 1) for x in c) + ")"


def _fmt_dims(dims) -> str:
    return " * ".join(map(str, dims))
