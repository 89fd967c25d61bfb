"""Drawing tiling solutions: text (one symbol per piece) and SVG.

Square/cubic boxes draw as grids: 1-D a row, 2-D rows x columns, 3-D the
layers along the first axis side by side, 4-D a grid of layers (first axis
down, second across).  Other lattices register a drawer in ``TEXT`` / ``SVG``
keyed by lattice name.
"""

from __future__ import annotations

import colorsys
from itertools import product

SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
HOLE = "*"
EMPTY = "."


def symbols(names: list[str]) -> dict[str, str]:
    """One character per piece name: its first letter when those are all
    different, else letters in order."""
    firsts = [n[0] for n in names]
    if len(set(firsts)) == len(firsts) and HOLE not in firsts and EMPTY not in firsts:
        return dict(zip(names, firsts))
    return {n: SYMBOLS[i % len(SYMBOLS)] for i, n in enumerate(names)}


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


def copy_symbols(solution, sym: dict[str, str]) -> dict:
    """cell -> symbol, the copies of a repeated piece alternating upper and
    lower case so that neighbouring copies stay apart."""
    seen: dict[str, int] = {}
    out = {}
    for name, cells in solution.placements:
        k = seen.get(name, 0)
        seen[name] = k + 1
        ch = sym[name].swapcase() if k % 2 else sym[name]
        for c in cells:
            out[c] = ch
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
    sym = symbols(piece_names(puzzle))
    cs = copy_symbols(solution, sym)
    d = len(puzzle.dims)
    if d <= 2:
        return "\n".join(_grid_lines(puzzle, owner, sym, color, (), cs))
    if d == 3:
        blocks = [_grid_lines(puzzle, owner, sym, color, (a,), cs) for a in range(puzzle.dims[0])]
        return "\n".join(_side_by_side(blocks, [puzzle.dims[2]] * len(blocks)))
    if d == 4:
        out = []
        for a in range(puzzle.dims[0]):
            blocks = [_grid_lines(puzzle, owner, sym, color, (a, b), cs) for b in range(puzzle.dims[1])]
            out.extend(_side_by_side(blocks, [puzzle.dims[3]] * len(blocks)))
            out.append("")
        return "\n".join(out).rstrip("\n")
    # higher dimensions: one line per piece
    return "\n".join(f"{sym[n]}: " + " ".join(str(tuple(x + 1 for x in c)) for c in cells)
                     for n, cells in solution.placements)


def text_generic(puzzle, solution, color: bool) -> str:
    sym = symbols(piece_names(puzzle))
    return "\n".join(f"{sym[n]} {n}: " + " ".join(str(tuple(c)) for c in cells)
                     for n, cells in solution.placements)


TEXT = {"line": text_box, "square": text_box, "cubic": text_box, "cubic4": text_box}
SVG: dict = {}


def text(puzzle, solution, color: bool = False) -> str:
    if puzzle.dims is not None and puzzle.lattice.name in TEXT:
        return TEXT[puzzle.lattice.name](puzzle, solution, color)
    return TEXT.get(puzzle.lattice.name, text_generic)(puzzle, solution, color)


def svg_box(puzzle, solution) -> str:
    """Squares; 3-D/4-D boxes as their 2-D layers laid out as in text_box."""
    owner = cell_owner(puzzle, solution)
    copy = {c: i for i, (_, cells) in enumerate(solution.placements) for c in cells}
    names = piece_names(puzzle)
    idx = {n: i for i, n in enumerate(names)}
    sym = symbols(names)
    dims = puzzle.dims
    s = 28
    d = len(dims)
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
                out.append(f'<text x="{x + s / 2}" y="{y + s * 0.68}" font-size="{s * 0.5}" '
                           f'text-anchor="middle" font-family="sans-serif">{sym[n]}</text>')
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


SVG.update({"line": svg_box, "square": svg_box, "cubic": svg_box, "cubic4": svg_box})


def svg(puzzle, solution) -> str:
    fn = SVG.get(puzzle.lattice.name)
    if fn is None or (fn is svg_box and puzzle.dims is None):
        raise NotImplementedError(f"no SVG drawing for the {puzzle.lattice.name} lattice yet")
    return fn(puzzle, solution)
