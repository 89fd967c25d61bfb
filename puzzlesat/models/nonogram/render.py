"""Pictures of nonogram grids: terminal text, plain text, SVG and PNG.

Grids are rows of 1 (black), 0 (white) or None (unknown, in partial grids
the line solver produces).
"""

from __future__ import annotations

import io
from html import escape
from typing import Sequence

Row = Sequence[int | None]

#: terminal glyphs, two columns wide so cells look square
BLOCK = {1: "██", 0: "· ", None: "  "}
#: plain glyphs (JSON, files): one character per cell
PLAIN = {1: "#", 0: ".", None: "?"}


def text(grid: Sequence[Row]) -> str:
    """Block characters, two terminal columns per cell."""
    return "\n".join("".join(BLOCK[v] for v in row).rstrip() for row in grid)


def plain(grid: Sequence[Row]) -> str:
    """``#`` black, ``.`` white, ``?`` unknown; one character per cell."""
    return "\n".join("".join(PLAIN[v] for v in row) for row in grid)


CELL = 16  # SVG cell size in px


def svg(puzzle, grid: Sequence[Row]) -> str:
    """The picture with its clues: row clues on the left, column clues on top."""
    rows = [",".join(map(str, c)) or "0" for c in puzzle.rows]
    col_clues = [[str(b) for b in c] or ["0"] for c in puzzle.cols]
    font = CELL * 0.7
    left = max(len(" ".join(r.split(","))) for r in rows) * font * 0.62 + CELL * 0.6 if rows else 0
    top = max(len(c) for c in col_clues) * CELL + CELL * 0.3 if col_clues else 0
    w, h = puzzle.width * CELL, puzzle.height * CELL
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + w + 2:.0f}" '
           f'height="{top + h + 2:.0f}" viewBox="0 0 {left + w + 2:.1f} {top + h + 2:.1f}" '
           f'font-family="sans-serif" font-size="{font:.1f}">']
    if puzzle.title:
        out.append(f"<title>{escape(puzzle.title)}</title>")
    out.append(f'<rect x="0" y="0" width="{left + w + 2:.1f}" height="{top + h + 2:.1f}" fill="white"/>')
    for r, clue in enumerate(rows):
        y = top + r * CELL + CELL * 0.75
        out.append(f'<text x="{left - CELL * 0.3:.1f}" y="{y:.1f}" text-anchor="end">{" ".join(clue.split(","))}</text>')
    for c, clue in enumerate(col_clues):
        x = left + c * CELL + CELL / 2
        for k, b in enumerate(clue):
            y = top - (len(clue) - k) * CELL + CELL * 0.75
            # a number wider than its column is drawn smaller (100 and 99 side by side read "10099", QA)
            wide = len(b) * font * 0.62 > CELL * 0.85
            size = f' font-size="{CELL * 0.85 / (len(b) * 0.62):.1f}"' if wide else ""
            out.append(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle"{size}>{b}</text>')
    out.append(f'<g transform="translate({left:.1f},{top:.1f})">')
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v == 1:
                out.append(f'<rect x="{c * CELL}" y="{r * CELL}" width="{CELL}" height="{CELL}" fill="black"/>')
            elif v is None:
                out.append(f'<rect x="{c * CELL}" y="{r * CELL}" width="{CELL}" height="{CELL}" fill="#ddd"/>')
    for r in range(puzzle.height + 1):
        sw = 1.2 if r % 5 == 0 or r == puzzle.height else 0.4
        out.append(f'<line x1="0" y1="{r * CELL}" x2="{w}" y2="{r * CELL}" stroke="#888" stroke-width="{sw}"/>')
    for c in range(puzzle.width + 1):
        sw = 1.2 if c % 5 == 0 or c == puzzle.width else 0.4
        out.append(f'<line x1="{c * CELL}" y1="0" x2="{c * CELL}" y2="{h}" stroke="#888" stroke-width="{sw}"/>')
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def png(puzzle, grid: Sequence[Row], scale: int | None = None) -> bytes:
    """The picture alone as a PNG (black on white, unknown cells grey)."""
    from PIL import Image  # Pillow comes with matplotlib

    w, h = puzzle.width, puzzle.height
    if scale is None:
        scale = max(4, min(24, 600 // max(w, h, 1)))
    img = Image.new("L", (max(w, 1), max(h, 1)), 255)
    shade = {1: 0, 0: 255, None: 200}
    img.putdata([shade[v] for row in grid for v in row] or [255])
    img = img.resize((max(w, 1) * scale, max(h, 1) * scale), Image.NEAREST)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()
