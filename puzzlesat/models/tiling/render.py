"""Drawing tiling solutions: text (one glyph per piece) and SVG.

Every piece has a glyph of its own (``glyphs``): its name's first letter
where that is free, else another letter, named on a legend line after the
drawing; the copies of a repeated piece alternate the letter's upper and
lower case (``copy_symbols``), and a note says when two touching copies
still look alike.

Square/cubic boxes draw as grids: 1-D a row, 2-D rows x columns, 3-D the
layers along the first axis side by side, 4-D a grid of layers (first axis
down, second across), each layer under a label naming its leading
coordinates (``layer 2``, ``layer 2,1``; 1-based, as .box and --json
count).  Boards of 2-D lattices given by their cells (hex,
triangle, No.0, square art boards) draw in the lattice's ASCII-art layout
(art.py), so a printed board can be pasted back into a .toml file.  SVG
draws every cell as its polygon (squares, hexagons, triangles) with thick
lines between pieces; No.0 draws circles with their bumps.  Drawers are
registered in ``TEXT`` / ``SVG`` keyed by lattice name.
"""

from __future__ import annotations

import colorsys
import math
import unicodedata
from dataclasses import dataclass
from itertools import product

from . import art

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LETTER = frozenset(LETTERS)
#: glyphs once the 26 letters are taken, in order: never ``.`` or ``*``
#: (empty, hole), a space, a quote or a backslash (a printed board may be
#: pasted into a TOML string), nor ``?`` (OVERFLOW) or the No.0 circle mark ``@``
FALLBACK = "0123456789#$%&+=!~^<>/|:;-_()[]{}"
#: shared by every piece past the fallback glyphs (named in the legend)
OVERFLOW = "?"
HOLE = "*"
EMPTY = "."


@dataclass(frozen=True)
class Glyphs:
    """How pieces are drawn as text.  ``first[name]`` is a piece's glyph,
    ``second[name]`` the glyph its copies alternate with (the lower case of
    its letter; the same glyph when it has no second one)."""

    first: dict
    second: dict
    natural: dict  # name -> is its glyph its name's first letter?

    def legend(self) -> str:
        """One line naming the piece of every glyph that is not its piece's
        first letter ("" when there is none)."""
        names = [n for n in self.first if not self.natural[n]]
        if not names:
            return ""
        parts = []
        shared = [n for n in names if self.first[n] == OVERFLOW]
        for n in names:
            if n in shared:
                continue
            g = self.first[n]
            if self.second[n] != g and g not in _LETTER:
                g += "/" + self.second[n]
            parts.append(f"{g} = {n}")
        if shared:
            parts.append(f"{OVERFLOW} = any of {' '.join(shared)} "
                         "(more pieces than glyphs; SVG drawings (solve --svg) outline each)")
        return "legend: " + ", ".join(parts)


def _initial(name: str) -> str | None:
    """A name's first character as an upper-case ASCII letter, or None."""
    c = name[:1].upper()
    return c if c in _LETTER else None


def glyphs(names: list[str], repeated: frozenset = frozenset()) -> Glyphs:
    """One glyph per piece, every piece its own: a letter owns both its cases
    (the upper for a piece, the lower for its alternate copies), so no two
    pieces share a letter in either case.

    First, name by name (those that begin with a capital first), each piece
    takes its name's first letter (an ASCII letter, in upper case) while
    that is free.  The rest (the ``repeated`` ones first, since their copies
    need both cases) take the first free letter of their name's other
    letters, else the next free letter after their first one in the
    alphabet (wrapping round); once all 26 are taken, a FALLBACK symbol
    (two for a repeated piece: one per alternate copy), and past those
    OVERFLOW.  A piece whose glyph is not its first letter is named by the
    legend."""
    taken: set[str] = set()
    first: dict[str, str] = {}
    for n in sorted(names, key=lambda n: not n[:1].isupper()):  # "X" before "x" to letter X
        c = _initial(n)
        if c is not None and c not in taken:
            first[n] = c
            taken.add(c)
    rest = sorted((n for n in names if n not in first), key=lambda n: n not in repeated)
    pool = list(FALLBACK)
    second: dict[str, str] = {}
    for n in rest:
        c = _free_letter(n, taken)
        if c is not None:
            first[n] = c
            taken.add(c)
        elif len(pool) >= (2 if n in repeated else 1):
            first[n] = pool.pop(0)
            if n in repeated:
                second[n] = pool.pop(0)
        else:
            first[n] = OVERFLOW
    for n in names:
        g = first[n]
        second.setdefault(n, g.lower() if g in _LETTER else g)
    order = {n: first[n] for n in names}
    return Glyphs(order, second, {n: first[n] == _initial(n) for n in names})


def _free_letter(name: str, taken: set[str]) -> str | None:
    others = [c.upper() for c in name[1:] if c.upper() in _LETTER]
    start = LETTERS.index(_initial(name)) + 1 if _initial(name) else 0
    for c in others + [LETTERS[(start + k) % 26] for k in range(26)]:
        if c not in taken:
            return c
    return None


def symbols(names: list[str], repeated: frozenset = frozenset()) -> dict[str, str]:
    """piece name -> its glyph (see ``glyphs``)."""
    return glyphs(names, repeated).first


def glyphs_for(puzzle) -> Glyphs:
    """The glyphs of a puzzle's pieces; a piece is repeated when it has more
    than one copy on the board, fixed copies included."""
    names = piece_names(puzzle)
    copies = {n: 0 for n in names}
    for p in puzzle.pieces:
        copies[p.name] += p.count
    for n, _ in puzzle.fixed:
        copies[n] += 1
    return glyphs(names, frozenset(n for n, k in copies.items() if k > 1))


def _symbols_for(puzzle) -> dict[str, str]:
    return glyphs_for(puzzle).first


def piece_names(puzzle) -> list[str]:
    names = [p.name for p in puzzle.pieces]
    for n, _ in puzzle.fixed:
        if n not in names:
            names.append(n)
    return names


def colour(i: int, n: int) -> tuple[int, int, int]:
    h = (i * 0.618033988749895) % 1.0
    r, g, b = colorsys.hls_to_rgb(h, 0.62, 0.55)
    return int(r * 255), int(g * 255), int(b * 255)


def cell_owner(puzzle, solution) -> dict:
    owner = {}
    for name, cells in solution.placements:
        for c in cells:
            owner[c] = name
    return owner


def copy_symbols(puzzle, solution, g: Glyphs) -> dict:
    """cell -> glyph: the copies of a repeated piece in upper or lower case
    (its first or second glyph), chosen so that touching copies differ
    wherever two cases allow it.  The copies that touch form a graph; each
    connected part of it is coloured by a breadth-first search from its
    first copy (upper case), which keeps every two touching copies apart
    when the part has no odd cycle.  In a part with one (three dominoes
    around a T), each copy takes the case fewer of its touching copies have
    taken, in the search's order.  (Taking copies in the placements' order
    drew a chain of four as "I i I I": QA; "DDD" where two dominoes met was
    one copy's order alternating with the next's, not the board's.)"""
    where = {c: i for i, (_, cells) in enumerate(solution.placements) for c in cells}
    touching: list[set[int]] = []
    for i, (name, cells) in enumerate(solution.placements):
        touching.append({where[q] for c in cells for q in puzzle.lattice.neighbours(c)
                         if where.get(q, i) != i and solution.placements[where[q]][0] == name})
    case: dict[int, bool] = {}  # copy -> upper?
    for start in range(len(solution.placements)):
        if start in case:
            continue
        order, seen = [start], {start}
        for i in order:  # (the list grows as it is read: breadth first)
            for j in sorted(touching[i]):
                if j not in seen:
                    seen.add(j)
                    order.append(j)
        part: dict[int, bool] = {start: True}
        for i in order[1:]:  # two cases, alternating from a neighbour already coloured
            part[i] = not next(part[j] for j in sorted(touching[i]) if j in part)
        if any(part[i] == part[j] for i in order for j in touching[i]):  # an odd cycle
            part = {}
            for i in order:
                uppers = sum(1 for j in touching[i] if part.get(j) is True)
                lowers = sum(1 for j in touching[i] if part.get(j) is False)
                part[i] = uppers <= lowers
        case.update(part)
    out = {}
    for i, (name, cells) in enumerate(solution.placements):
        ch = g.first[name] if case[i] else g.second[name]
        for c in cells:
            out[c] = ch
    return out


def drawn_alike(puzzle, solution, cellsym: dict) -> list[str]:
    """The pieces two of whose touching copies ``cellsym`` draws with the
    same glyph: two cases cannot keep three copies that touch each other
    (three dominoes around a T) apart.  Different pieces drawn alike (the
    OVERFLOW glyph) are the legend's to name, not copies of one piece."""
    where = {c: i for i, (_, cells) in enumerate(solution.placements) for c in cells}
    out = []
    for i, (name, cells) in enumerate(solution.placements):
        if name not in out and any(where.get(q, i) != i and solution.placements[where[q]][0] == name
                                   and cellsym.get(q) == cellsym[c]
                                   for c in cells for q in puzzle.lattice.neighbours(c)):
            out.append(name)
    return out


def _grid_lines(puzzle, owner, sym, color, fixed_prefix=(), cellsym=None):
    """Lines of the 2-D slice of a box whose leading coordinates are fixed_prefix."""
    dims = puzzle.dims[len(fixed_prefix):]
    if len(dims) == 1:
        dims = (1,) + dims
        mk = lambda r, c: fixed_prefix + (c,)
    else:
        mk = lambda r, c: fixed_prefix + (r, c)
    names = piece_names(puzzle)
    idx = {n: i for i, n in enumerate(names)}
    lines = []
    for r in range(dims[0]):
        row = []
        for c in range(dims[1]):
            p = mk(r, c)
            n = owner.get(p)
            if n is None:
                row.append(HOLE if p in puzzle.holes else EMPTY)
            elif color:
                rr, gg, bb = colour(idx[n], len(names))
                row.append(f"\x1b[30;48;2;{rr};{gg};{bb}m{cellsym[p]}\x1b[0m")
            else:
                row.append(cellsym[p])
        lines.append("".join(row))
    return lines


def _side_by_side(blocks: list[list[str]], widths: list[int], gap: str = "   ") -> list[str]:
    h = max(len(b) for b in blocks)
    out = []
    for i in range(h):
        parts = []
        for b, w in zip(blocks, widths):
            s = b[i] if i < len(b) else ""
            parts.append(s + " " * (w - _visible_len(s)))
        out.append(gap.join(parts).rstrip())
    return out


def _visible_len(s: str) -> int:
    import re

    return len(re.sub(r"\x1b\[[0-9;]*m", "", s))


def text_box(puzzle, solution, color: bool) -> str:
    owner = cell_owner(puzzle, solution)
    g = glyphs_for(puzzle)
    sym = g.first
    cs = copy_symbols(puzzle, solution, g)
    d = len(puzzle.dims)
    if d <= 2:
        return "\n".join(_grid_lines(puzzle, owner, sym, color, (), cs))
    if d in (3, 4):
        # each layer under its label: the 1-based leading coordinates of its
        # cells, as .box and --json number them (rows the next coordinate,
        # columns the last)
        rows = ([[(a,) for a in range(puzzle.dims[0])]] if d == 3
                else [[(a, b) for b in range(puzzle.dims[1])] for a in range(puzzle.dims[0])])
        out = []
        for prefixes in rows:
            blocks = [[layer_label(fixed)] + _grid_lines(puzzle, owner, sym, color, fixed, cs)
                      for fixed in prefixes]
            out.extend(_side_by_side(blocks, [max(puzzle.dims[-1], len(b[0])) for b in blocks]))
            out.append("")
        return "\n".join(out).rstrip("\n")
    # higher dimensions: one line per piece
    return "\n".join(f"{sym[n]}: " + " ".join(str(tuple(x + 1 for x in c)) for c in cells)
                     for n, cells in solution.placements)


def layer_label(fixed: tuple) -> str:
    """The line above a 3-D/4-D box's layer: ``layer 2`` holds the cells
    whose first coordinate is 2 (1-based), ``layer 2,1`` those of a 4-D box
    whose first two are 2 and 1."""
    return "layer " + ",".join(str(x + 1) for x in fixed)


def text_generic(puzzle, solution, color: bool) -> str:
    sym = _symbols_for(puzzle)
    return "\n".join(f"{sym[n]} {n}: " + " ".join(str(tuple(c)) for c in cells)
                     for n, cells in solution.placements)


def text_layout(puzzle, solution, color: bool) -> str:
    """A 2-D board in its lattice's ASCII-art layout: one symbol per cell,
    ``*`` for holes."""
    names = piece_names(puzzle)
    idx = {n: i for i, n in enumerate(names)}
    cs = copy_symbols(puzzle, solution, glyphs_for(puzzle))
    owner = cell_owner(puzzle, solution)
    chars = {}
    for c in set(puzzle.board) | set(puzzle.holes) | set(owner):
        n = owner.get(c)
        if n is None:
            chars[c] = HOLE if c in puzzle.holes else EMPTY
        elif color:
            rr, gg, bb = colour(idx[n], len(names))
            chars[c] = f"\x1b[30;48;2;{rr};{gg};{bb}m{cs[c]}\x1b[0m"
        else:
            chars[c] = cs[c]
    return "\n".join(art.draw(puzzle.lattice.name, chars))


TEXT = {"line": text_box, "square": text_box, "cubic": text_box, "cubic4": text_box,
        "hex": text_layout, "triangle": text_layout, "no0": text_layout}
SVG: dict = {}


def text(puzzle, solution, color: bool = False) -> str:
    """The drawing, then the legend line when a glyph is not its piece's
    first letter (see ``glyphs``)."""
    out = [drawing(puzzle, solution, color)]
    if _drawer(puzzle) is text_generic:  # its lines name their pieces
        return out[0]
    g = glyphs_for(puzzle)
    if g.legend():
        out.append(g.legend())
    alike = look_alike(puzzle, solution)
    if alike:
        out.append(f"note: touching copies of {' '.join(alike)} look alike in places (two cases cannot always "
                   "keep them apart); SVG drawings (solve --svg) outline every copy")
    return "\n".join(out)


def look_alike(puzzle, solution) -> list[str]:
    """The pieces two of whose touching copies the text drawing shows with
    the same glyph (its note, and ``look_alike`` in --json)."""
    return drawn_alike(puzzle, solution, copy_symbols(puzzle, solution, glyphs_for(puzzle)))


def drawing(puzzle, solution, color: bool = False) -> str:
    """The board alone, one glyph per cell (``text`` adds the legend)."""
    return _drawer(puzzle)(puzzle, solution, color)


def draws_rows(puzzle) -> bool:
    """Whether ``drawing`` is a picture of the board, one glyph per cell
    (``rows`` in --json), rather than a list of placements: every lattice
    with an ASCII-art layout, and boxes of 1-4 dimensions."""
    d = _drawer(puzzle)
    return d is text_layout or (d is text_box and len(puzzle.dims) <= 4)


def _drawer(puzzle):
    name = puzzle.lattice.name
    if puzzle.dims is None and art.layout(name) is not None:
        return text_layout
    if puzzle.dims is None and TEXT.get(name) is text_box:
        return text_generic
    return TEXT.get(name, text_generic)


def svg_box(puzzle, solution) -> str:
    """Squares; 3-D/4-D boxes as their 2-D layers laid out and labelled as
    in text_box."""
    owner = cell_owner(puzzle, solution)
    copy = {c: i for i, (_, cells) in enumerate(solution.placements) for c in cells}
    names = piece_names(puzzle)
    idx = {n: i for i, n in enumerate(names)}
    g = glyphs_for(puzzle)
    # a cell shows its piece's letter when that is the name's initial, else
    # the name itself (the text drawing's legend has no place here)
    label = {n: g.first[n] if g.natural[n] else n for n in names}
    dims = puzzle.dims
    s = 28
    d = len(dims)
    # a copy of a repeated piece spans layers, where outlines cannot follow
    # it: in a 3-D or 4-D box each copy's cells are numbered (D#1, D#2, ...;
    # "L3" was both the third copy of L and the tromino L3, QA)
    number: dict[int, str] = {}
    if d >= 3:
        copies: dict[str, int] = {}
        for n, _cells in solution.placements:
            copies[n] = copies.get(n, 0) + 1
        seen: dict[str, int] = {}
        for i, (n, _cells) in enumerate(solution.placements):
            if copies[n] > 1:
                seen[n] = seen.get(n, 0) + 1
                number[i] = f"#{seen[n]}"
    if d == 1:
        layers = [((), (0, 0))]
        rows, cols = 1, dims[0]
    else:
        rows, cols = dims[-2], dims[-1]
        lead = list(product(*[range(n) for n in dims[:-2]]))
        layers = []
        for key in lead:
            if d == 3:
                pos = (0, key[0])
            elif d == 4:
                pos = (key[0], key[1])
            else:
                pos = (0, 0)
            layers.append((key, pos))
    gap = 1
    maxr = max(p[0] for _, p in layers) + 1
    maxc = max(p[1] for _, p in layers) + 1
    W = (maxc * (cols + gap) - gap) * s + 2 * s
    H = (maxr * (rows + gap) - gap) * s + 2 * s
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">',
           f'<rect width="{W}" height="{H}" fill="white"/>']
    for key, (lr, lc) in layers:
        ox = s + lc * (cols + gap) * s
        oy = s + lr * (rows + gap) * s
        if d in (3, 4):  # (in the margin above the layer, as the text drawing labels it)
            out.append(f'<text class="layer" x="{ox}" y="{oy - 8}" font-size="12" font-family="sans-serif">'
                       f'{layer_label(key)}</text>')
        for r in range(rows):
            for c in range(cols):
                p = (c,) if d == 1 else key + (r, c)
                x, y = ox + c * s, oy + r * s
                n = owner.get(p)
                if n is None:
                    fill = "#333" if p in puzzle.holes else "#eee"
                    out.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{fill}" stroke="#999"/>')
                    continue
                rr, gg, bb = colour(idx[n], len(names))
                out.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="rgb({rr},{gg},{bb})"/>')
                text = label[n] + number.get(copy[p], "")
                size = _label_size(text, s * 0.5, s * 0.85)
                out.append(f'<text x="{x + s / 2}" y="{y + s * 0.5 + size * 0.36:.1f}" font-size="{size:.1f}" '
                           f'text-anchor="middle" font-family="sans-serif">{_esc(text)}</text>')
                # thick borders between different pieces
                for (dr, dc, x1, y1, x2, y2) in ((-1, 0, x, y, x + s, y), (1, 0, x, y + s, x + s, y + s),
                                                 (0, -1, x, y, x, y + s), (0, 1, x + s, y, x + s, y + s)):
                    q = (c + dc,) if d == 1 else key + (r + dr, c + dc)
                    if d == 1 and dr:
                        q = None
                    if copy.get(q) != copy[p]:
                        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="black" stroke-width="2"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------ polygon SVG

SQRT3 = math.sqrt(3.0)


def _plane(x: float, y: float) -> tuple[float, float]:
    """The point x a + y b of the 6-fold lattices' basis (b down-right)."""
    return (x + y / 2.0, y * SQRT3 / 2.0)


def _square_polygon(p):
    r, c = p
    return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]


def _hex_polygon(p):
    cx, cy = _plane(p[0], p[1])
    rad = 1 / SQRT3  # circumradius of a hexagon of width 1
    return [(cx + rad * math.cos(math.radians(a)), cy + rad * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)]


_TRI_CORNERS = {1: ((-1, -1), (2, -1), (-1, 2)), 2: ((1, -2), (1, 1), (-2, 1))}


def _triangle_polygon(p):
    return [_plane((p[0] + dx) / 3.0, (p[1] + dy) / 3.0) for dx, dy in _TRI_CORNERS[p[0] % 3]]


#: lattice name -> cell -> polygon corners (in lattice units, y down)
POLYGONS = {"square": _square_polygon, "hex": _hex_polygon, "triangle": _triangle_polygon}


def _svg_frame(points, unit, margin=1.0):
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    x0, y0 = min(xs) - margin, min(ys) - margin
    W = (max(xs) - min(xs) + 2 * margin) * unit
    H = (max(ys) - min(ys) + 2 * margin) * unit
    to = lambda x, y: ((x - x0) * unit, (y - y0) * unit)
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W:.0f}" height="{H:.0f}" '
            f'viewBox="0 0 {W:.1f} {H:.1f}">', f'<rect width="{W:.1f}" height="{H:.1f}" fill="white"/>']
    return head, to


def _pts(seq) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in seq)


def _copies(solution) -> dict:
    """cell -> index of the piece copy covering it."""
    return {c: i for i, (_, cells) in enumerate(solution.placements) for c in cells}


def svg_polygons(puzzle, solution) -> str:
    """Every cell as its polygon, filled with its piece's colour; thick lines
    where neighbouring cells belong to different piece copies (found by
    shared polygon edges, so it works for any tiling by polygons); one label
    per piece copy."""
    poly = POLYGONS[puzzle.lattice.name]
    names = piece_names(puzzle)
    idx = {n: i for i, n in enumerate(names)}
    owner = cell_owner(puzzle, solution)
    copy = _copies(solution)
    cells = sorted(set(puzzle.board) | set(puzzle.holes) | set(owner))
    corners = {c: poly(c) for c in cells}
    unit = 36
    out, to = _svg_frame([pt for c in cells for pt in corners[c]], unit, 0.5)
    key = lambda pt: (round(pt[0] * 1000), round(pt[1] * 1000))
    edges: dict = {}
    for c in cells:
        cs = corners[c]
        for a, b in zip(cs, cs[1:] + cs[:1]):
            edges.setdefault(frozenset((key(a), key(b))), []).append(c)
    for c in cells:
        n = owner.get(c)
        if n is None:
            fill = "#333" if c in puzzle.holes else "#eee"
        else:
            rr, gg, bb = colour(idx[n], len(names))
            fill = f"rgb({rr},{gg},{bb})"
        out.append(f'<polygon points="{_pts(to(*pt) for pt in corners[c])}" fill="{fill}" stroke="{fill}" '
                   f'stroke-width="0.5"/>')
    for c in cells:
        cs = corners[c]
        for a, b in zip(cs, cs[1:] + cs[:1]):
            others = [d for d in edges[frozenset((key(a), key(b)))] if d != c]
            other = others[0] if others else None
            if other is None or copy.get(other) != copy.get(c) or copy.get(c) is None:
                if other is not None and other < c:
                    continue  # drawn from the other side
                (x1, y1), (x2, y2) = to(*a), to(*b)
                out.append(f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" stroke="black" '
                           f'stroke-width="2" stroke-linecap="round"/>')
    for i, (n, pcells) in enumerate(solution.placements):
        cx = sum(sum(x for x, _ in corners[c]) / len(corners[c]) for c in pcells) / len(pcells)
        cy = sum(sum(y for _, y in corners[c]) / len(corners[c]) for c in pcells) / len(pcells)
        best = min(pcells, key=lambda c: (sum(x for x, _ in corners[c]) / len(corners[c]) - cx) ** 2
                   + (sum(y for _, y in corners[c]) / len(corners[c]) - cy) ** 2)
        bx = sum(x for x, _ in corners[best]) / len(corners[best])
        by = sum(y for _, y in corners[best]) / len(corners[best])
        x, y = to(bx, by)
        size = _label_size(n, unit * 0.4, unit * 0.8)  # (a long name ran out of its cell, QA)
        out.append(f'<text x="{x:.1f}" y="{y + size * 0.37:.1f}" font-size="{size:.1f}" '
                   f'text-anchor="middle" font-family="sans-serif">{_esc(n)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _glyph_count(text: str) -> int:
    """About how many signs ``text`` prints: combining marks, variation
    selectors, skin-tone modifiers and what a zero-width joiner joins add
    none (a family emoji, five code points, is one sign; its label was
    sized for five)."""
    n, joined = 0, False
    for ch in text:
        if ch == "\u200d":
            joined = True
            continue
        if (unicodedata.category(ch) in ("Mn", "Me") or "\ufe00" <= ch <= "\ufe0f"
                or "\U0001f3fb" <= ch <= "\U0001f3ff"):
            continue
        if not joined:
            n += 1
        joined = False
    return max(n, 1)


def _label_size(text: str, full: float, room: float) -> float:
    """The font size of a label: ``full`` for one sign, else small enough
    that it fits ``room`` (about 0.85 em a sign, sans-serif capitals)."""
    k = _glyph_count(text)
    return full if k == 1 else min(full, room / k)


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg_no0(puzzle, solution) -> str:
    """Circles with their bumps: each bump is a pointed tooth growing out of
    its own circle into its gap, outlined together with the circle so that
    every piece reads as one shape; gaps no piece covers are grey."""
    lat = puzzle.lattice
    names = piece_names(puzzle)
    idx = {n: i for i, n in enumerate(names)}
    owner = cell_owner(puzzle, solution)
    copy = _copies(solution)
    cells = sorted(set(puzzle.board) | set(puzzle.holes) | set(owner))
    centre = {c: _plane(c[0] / 3.0, c[1] / 3.0) for c in cells}
    unit = 48
    out, to = _svg_frame(list(centre.values()), unit, 0.9)
    fill = {}
    for c in cells:
        n = owner.get(c)
        if n is None:
            fill[c] = "#333" if c in puzzle.holes else "#ddd"
        else:
            rr, gg, bb = colour(idx[n], len(names))
            fill[c] = f"rgb({rr},{gg},{bb})"
    radius, side, tip = 0.42, 0.56, 0.74
    circles = [c for c in cells if lat.is_circle(c)]
    teeth = []  # (gap, circle, [inner-left, far-left, tip, far-right, inner-right])
    for g in (c for c in cells if not lat.is_circle(c)):
        gx, gy = _plane(g[0] / 3.0, g[1] / 3.0)
        corners = [_plane((g[0] + dx) / 3.0, (g[1] + dy) / 3.0) for dx, dy in _TRI_CORNERS[g[0] % 3]]
        mine = [c for c in lat.neighbours(g) if copy.get(g) is not None and copy.get(c) == copy.get(g)]
        if not mine:  # an uncovered gap (or a hole): its triangle, shrunk
            small = [(gx + 0.5 * (x - gx), gy + 0.5 * (y - gy)) for x, y in corners]
            out.append(f'<polygon points="{_pts(to(*pt) for pt in small)}" fill="{fill[g]}" stroke="#999"/>')
            continue
        ox, oy = _plane(mine[0][0] / 3.0, mine[0][1] / 3.0)
        vs = [v for v in lat.neighbours(g) if v != mine[0]]  # the gap's two other circles
        others = [_plane(v[0] / 3.0, v[1] / 3.0) for v in vs]
        d = math.hypot(gx - ox, gy - oy)
        ux, uy = (gx - ox) / d, (gy - oy) / d
        pts = []
        for k, (x, y) in enumerate(others):
            vx, vy = x - ox, y - oy  # unit length: circles are one apart
            inner = (ox + (radius - 0.05) * vx, oy + (radius - 0.05) * vy)
            far = (ox + side * vx, oy + side * vy)
            pts.extend([inner, far] if k == 0 else [far, inner])
            if k == 0:
                pts.append((ox + tip * ux, oy + tip * uy))
        # a side shared with a tooth of the same piece copy is not outlined
        shared = []
        for v in vs:
            twin = [h for h in lat.neighbours(mine[0]) if h != g and v in lat.neighbours(h)]
            shared.append(any(copy.get(h) is not None and copy.get(h) == copy.get(g) for h in twin))
        teeth.append((g, pts, shared))
    for g, pts, _ in teeth:  # outlined teeth
        out.append(f'<polygon points="{_pts(to(*pt) for pt in pts)}" fill="{fill[g]}" stroke="black" '
                   f'stroke-width="1.5" stroke-linejoin="round"/>')
    for c in circles:
        x, y = to(*centre[c])
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius * unit:.1f}" fill="{fill[c]}" stroke="black" '
                   f'stroke-width="1.5"/>')
    for g, pts, shared in teeth:  # open each circle's outline where its teeth join it
        out.append(f'<polygon points="{_pts(to(*pt) for pt in pts)}" fill="{fill[g]}"/>')
        out.append(f'<polyline points="{_pts(to(*pt) for pt in pts[1:-1])}" fill="none" stroke="black" '
                   f'stroke-width="1.5" stroke-linejoin="round"/>')
        for (a, b), same in zip(((pts[0], pts[1]), (pts[-1], pts[-2])), shared):
            if same:
                continue
            # the tooth's side, from the circle's edge outwards
            (x1, y1), (x2, y2) = to(*_towards(a, b, 0.05 / (side - radius + 0.05))), to(*b)
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="black" '
                       f'stroke-width="1.5"/>')
    for c in circles:
        n = owner.get(c)
        if n is not None:  # the piece's name, as the other drawings give it (its text glyph had no legend here, QA)
            x, y = to(*centre[c])
            size = _label_size(n, unit * 0.38, unit * 0.78)
            out.append(f'<text x="{x:.1f}" y="{y + size * 0.37:.1f}" font-size="{size:.1f}" '
                       f'text-anchor="middle" font-family="sans-serif">{_esc(n)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _towards(a, b, t):
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


SVG.update({"line": svg_box, "square": svg_box, "cubic": svg_box, "cubic4": svg_box,
            "hex": svg_polygons, "triangle": svg_polygons, "no0": svg_no0})


def svg(puzzle, solution) -> str:
    name = puzzle.lattice.name
    fn = SVG.get(name)
    if fn is svg_box and puzzle.dims is None:
        fn = svg_polygons if name in POLYGONS else None
    if fn is None:
        raise NotImplementedError(f"no SVG drawing for the {name} lattice yet")
    return fn(puzzle, solution)
