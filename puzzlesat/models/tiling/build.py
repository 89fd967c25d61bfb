"""Turning parsed piece and board descriptions into a checked Tiling.

Shared by every tiling file format, so that all of them merge repeated
pieces, fix pieces in place and report problems the same way.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from itertools import product

from ...errors import InputError, blank, number, shorten, title_from_path
from .art import char_name
from .geometry import canonical, normalize, orientation_set
from .lattice import Lattice, Point
from .puzzle import Piece, Tiling


#: The most cells a board may have.  Checked from the declared sizes before
#: any cell is enumerated, so that a typo such as ``BOX / 100000 * 100000``
#: is an error rather than a machine out of memory.  The bundled instances
#: have at most 64 cells; compiling even 10^5 cells is already slow.
MAX_BOARD_CELLS = 1_000_000

_CONNECTED = {
    "no0": "circles connect to the gaps around them",
    "hex": "its hexagons must share edges",
    "triangle": "its triangles must share edges",
}


def cell_text(coordinates) -> str:
    """``(x, y, ...)`` for a message, shortened; never fails on a huge number
    (str() refuses ints of more than 4,300 digits)."""
    return "(" + shorten(", ".join(str(x) if x.bit_length() < 10_000 else number(x) for x in coordinates)) + ")"


def check_board_cells(cells: int, path: str | None, line: int | None) -> None:
    """InputError unless a board of ``cells`` cells is small enough to build."""
    if cells > MAX_BOARD_CELLS:
        raise InputError(f"a board of {number(cells)} cells is too large (at most {MAX_BOARD_CELLS:,})", path, line)


def check_piece_cells(name: str, cells: int, path: str | None, line: int | None) -> None:
    """InputError unless a piece of ``cells`` cells is at most a board's
    cap: a larger one fits on no board, and turning it costs as much as it
    is large.  Checked as soon as its cells are counted, before any work on them."""
    if cells > MAX_BOARD_CELLS:
        raise InputError(f"piece {shorten(name)} of {number(cells)} cells is too large "
                         f"(at most {MAX_BOARD_CELLS:,}, as a board)", path, line)


def not_connected(lattice: Lattice, name: str) -> str:
    """The message for a piece whose cells do not form one polyform."""
    return (f"piece {shorten(name)} is not connected on the {lattice.name} lattice "
            f"({_CONNECTED.get(lattice.name, 'its cells must share edges')})")


@dataclass
class PieceSpec:
    name: str
    cells: list[Point]
    count: int = 1
    one_sided: bool = False
    line: int | None = None
    from_set: bool = False  # (one_sided then came with the set: no note when it changes nothing, see build_tiling)


def build_tiling(*, lattice: Lattice, pieces: list[PieceSpec], path: str | None,
                 dims: tuple[int, ...] | None = None, board: set[Point] | None = None,
                 holes_or_fixed: list[tuple] = (),
                 title: str = "", source: str | None = None, expected: dict | None = None) -> Tiling:
    """``dims`` (a box of lattice cells) or ``board`` (explicit cells) gives
    the region; each ``holes_or_fixed`` entry is (symbol, cells, line) or
    (symbol, cells, line, the line of each cell): symbol ``*`` reserves
    holes, a piece name fixes one copy of that piece there.
    A file without a title is titled by its name's stem, as nonograms are."""
    if blank(title):
        title = title_from_path(path, "tiling")
    if board is None:
        check_board_cells(math.prod(dims), path, None)  # the formats check first, with a line
        board = set(product(*[range(n) for n in dims]))
    else:
        check_board_cells(len(board), path, None)
    board = set(board)
    notes: list[str] = []

    merged: dict[str, Piece] = {}
    # identical pieces: the same set of orientations, so a one-sided piece
    # that is its own mirror image (a domino) is the free piece of its shape
    shape_owner: dict[frozenset, str] = {}
    alias: dict[str, str] = {}  # a name merged into another piece -> that piece
    first_line: dict[str, int | None] = {}  # where a merged name was first defined
    # a .box file has a line per copy: 45,000 domino lines took 4.3 s of
    # orientations, the same set each time
    sets: dict[tuple, frozenset] = {}

    def ways(shape, one_sided) -> frozenset:
        key = (shape, one_sided)
        if key not in sets:
            sets[key] = orientation_set(lattice, shape, one_sided)
        return sets[key]

    mirror_images: list[str] = []  # one_sided asked of a piece that is its own mirror image (2-D)
    for spec in pieces:
        if spec.count < 1:
            raise InputError(f"piece {shorten(spec.name)}: count must be at least 1, got {number(spec.count)}",
                             path, spec.line)
        check_piece_cells(spec.name, len(spec.cells), path, spec.line)  # the formats check first
        for c in spec.cells:
            if not lattice.is_cell(c):
                raise InputError(f"piece {shorten(spec.name)}: {shorten(c)} is not a cell of the "
                                 f"{lattice.name} lattice", path, spec.line)
        shape = normalize(lattice, spec.cells)
        key = ways(shape, spec.one_sided)
        if (spec.one_sided and not spec.from_set and lattice.dim < 3 and spec.name not in mirror_images
                and key == ways(shape, False)):
            mirror_images.append(spec.name)
        if spec.name in merged or spec.name in alias:
            prev = merged[alias.get(spec.name, spec.name)]
            if ways(prev.cells, prev.one_sided) != key:
                first = first_line.get(spec.name, prev.line)
                raise InputError(f"piece {shorten(spec.name)} defined again with a different shape"
                                 + (" or one-sidedness" if canonical(lattice, shape, lattice.point_group)
                                    == canonical(lattice, prev.cells, lattice.point_group) else "")
                                 + f" (first at line {first})", path, spec.line)
            prev.count += spec.count
            continue
        if key in shape_owner:
            # identical pieces are one piece with a count, or swaps would count twice
            first = merged[shape_owner[key]]
            first.count += spec.count
            alias[spec.name] = first.name
            first_line[spec.name] = spec.line
            continue
        shape_owner[key] = spec.name
        merged[spec.name] = Piece(spec.name, shape, spec.count, spec.one_sided, spec.line)

    holes: set[Point] = set()
    fixed: list[tuple[str, tuple]] = []
    reserved_at: dict[Point, int | None] = {}
    for sym, cells, line, *per_cell in holes_or_fixed:
        for c, at in zip(cells, per_cell[0] if per_cell else [line] * len(cells)):
            if c not in board:
                raise InputError(f"reserved cell {_fmt(c)} is not on the board", path, at)
            if c in reserved_at:
                first = reserved_at[c]
                raise InputError(f"cell {_fmt(c)} is reserved twice"
                                 + (f" (first at line {first})" if first is not None and first != at else ""),
                                 path, at)
            reserved_at[c] = at
        if sym == "*":
            holes.update(cells)
            continue
        piece = merged.get(alias.get(sym, sym))
        if piece is None:
            raise InputError(f"RESERVE ({shorten(sym)}) names no ELEMENT; use (*) for holes", path, line)
        if not _is_image(lattice, piece, cells):
            raise InputError(f"RESERVE ({shorten(sym)}): these cells are not a placement of piece {shorten(sym)}",
                             path, line)
        if piece.count == 0:
            raise InputError(f"RESERVE ({shorten(sym)}): every copy of piece {shorten(sym)} is already fixed",
                             path, line)
        piece.count -= 1
        fixed.append((piece.name, tuple(sorted(cells))))
    notes.extend(_merge_notes(merged, alias, fixed))
    fixed_cells = {c for _, cells in fixed for c in cells}
    free = frozenset(board - holes - fixed_cells)
    live = [p for p in merged.values() if p.count > 0]
    if lattice.dim >= 3:
        # a flat piece in a box turns over by a turn of the box: one_sided
        # keeps nothing from it, which was not said (QA)
        same = [p.name for p in live if p.one_sided and orientation_set(lattice, p.cells, True)
                == orientation_set(lattice, p.cells, False)]
        if same:
            said = f"piece {shorten(same[0])}" if len(same) == 1 else f"pieces {shorten(', '.join(same))}"
            notes.append(f"one_sided changes nothing for {said}: in {lattice.dim}-D a turn takes "
                         f"{'it' if len(same) == 1 else 'each'} onto its mirror image")
    elif mirror_images:
        # in the plane only where the file asks it of the piece itself: a
        # one-sided set holds such pieces (the I, O and T tetrominoes) by design
        said = (f"piece {shorten(mirror_images[0])}" if len(mirror_images) == 1
                else f"pieces {shorten(', '.join(mirror_images))}")
        notes.append(f"one_sided changes nothing for {said}: "
                     f"{'it is its' if len(mirror_images) == 1 else 'each is its'} own mirror image")
    spent = [p for p in merged.values() if p.count == 0]
    return Tiling(lattice=lattice, board=free, pieces=live, fixed=fixed, spent=spent, holes=frozenset(holes),
                  dims=tuple(dims) if dims else None, title=title, path=path, expected=expected or {},
                  notes=notes, source=source)


def _merge_notes(merged: dict[str, Piece], alias: dict[str, str], fixed: list[tuple[str, tuple]]) -> list[str]:
    """One note per piece that others were merged into, written once every
    copy is counted (the names may come in any order: D, E, E, D is one
    piece D with count 4), with the copies a RESERVE fixed in place."""
    names_of: dict[str, list[str]] = {}  # in the order of their first merge
    for name, owner in alias.items():
        names_of.setdefault(owner, []).append(name)
    held_of: dict[str, int] = {}
    for name, _ in fixed:
        held_of[name] = held_of.get(name, 0) + 1
    notes = []
    for owner, names in names_of.items():
        held = held_of.get(owner, 0)
        total = merged[owner].count + held
        said = (f"piece {shorten(names[0])} is" if len(names) == 1
                else f"pieces {shorten(', '.join(names[:-1]) + ' and ' + names[-1])} are")
        notes.append(f"{said} identical to piece {shorten(owner)}: counted as one piece {shorten(owner)} "
                     f"with count {number(total)}" + (f", {number(held)} of them fixed in place" if held else ""))
    return notes


def format_character(name: str) -> str | None:
    """"a format character (U+200B ZERO WIDTH SPACE)" when the piece name
    ``name`` holds one (Unicode category Cf: zero-width spaces and joiners,
    soft hyphens, bidirectional controls), else None.  They do not print,
    so two names that look the same on the terminal would be two pieces.
    A zero-width joiner between two symbols (an emoji sequence such as
    U+1F469 U+200D U+1F4BB, which prints as one sign) is no such character."""
    for i, ch in enumerate(name):
        if _invisible(name, i):
            return f"a format character ({char_name(ch)})"
    return None


def leading_mark(name: str) -> str | None:
    """"a combining mark (U+0301 COMBINING ACUTE ACCENT)" when the piece
    name ``name`` begins with one, else None: the mark prints on whatever
    comes before the name (a space in the legend, ``A = \u0301``), so a
    name of marks alone prints as nothing (QA)."""
    if name and unicodedata.category(name[0]).startswith("M"):
        return f"a combining mark ({char_name(name[0])})"
    return None


def without_format_characters(text: str) -> str:
    """``text`` without the format characters :func:`format_character`
    finds: a suggested value for the user to type, where a zero-width space
    would not show (and written as an escape, would be typed as one)."""
    return "".join(ch for i, ch in enumerate(text) if not _invisible(text, i))


def _invisible(text: str, i: int) -> bool:
    ch = text[i]
    if ch == "\u200d" and 0 < i < len(text) - 1 and all(
            unicodedata.category(c) == "So" for c in (text[i - 1], text[i + 1])):
        return False
    return unicodedata.category(ch) == "Cf"


def _is_image(lattice: Lattice, piece: Piece, cells) -> bool:
    target = normalize(lattice, cells)
    return any(normalize(lattice, [tuple(sum(m[i][j] * p[j] for j in range(len(p))) for i in range(len(m)))
                                   for p in piece.cells]) == target
               for m in lattice.group(piece.one_sided))


def _fmt(c) -> str:
    return cell_text(x + 1 for x in c)
