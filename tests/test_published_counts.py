"""Counts of bundled instances up to symmetry, against published values.

Each expected number below comes from the literature or from another
program (cited on its line), never from puzzlesat.  Every solution the
exact-cover engine lists is checked twice: by the family's verifier and by
an independent check written here (the placements partition the board's free
cells, each piece is used once, each placement is a rotation/reflection plus
translation of its piece, computed with the hand-written matrices of
tests/hand_geometry.py) and the listed solutions are pairwise inequivalent under the board's symmetries
(found here by brute force, not with puzzlesat's geometry).

Raw counts.  In all of these instances every piece is used once and at
least one piece has no symmetry of its own (the F pentomino; F6, G6, H6, J6,
P6 among the hexiamonds; J4, P4 among the tetrahexes).  A board symmetry g
fixing a tiling must map that piece's placement onto itself, so g restricted
to it is a symmetry of the piece: the identity on a plane piece.  In 2-D that
makes g the identity; in a 3-D box g could still be the mirror through the
piece's own plane, but in 2x3x10 and 2x5x6 a flat pentomino (3x3 footprint
for F) lies in a plane whose normal is the axis of length 2, whose mirror
moves every cell to the other layer.  So no tiling is symmetric, every orbit
has |G| tilings, and raw = |G| x unique exactly.  The boards of two of
each tetromino (copies alike) do have symmetric tilings: there the published
numbers of symmetric ones are checked too.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from itertools import product
from pathlib import Path

import pytest

import puzzlesat.instances
from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.loading import load_puzzle

from .hand_geometry import apply, board_symmetries, signed_permutations, sixfold

INSTANCES = Path(puzzlesat.instances.__file__).parent / "tiling"

# ----------------------------------------------------------- geometry, by hand (and hand_geometry)


def normalise(cells, step):
    """Translate so that the least cell lies in [0, step)^d (translations are
    the vectors whose coordinates are multiples of step)."""
    lo = min(cells)
    t = tuple(x - x % step for x in lo)
    return tuple(sorted(tuple(a - b for a, b in zip(c, t)) for c in cells))


def shape_class(cells, maps, step):
    return min(normalise([apply(m, c) for c in cells], step) for m in maps)


class Checker:
    """Independent re-checks of decoded tilings (cached per placement, since
    the same placements recur across thousands of solutions)."""

    def __init__(self, free, shapes, maps, step, syms, copies: int = 1):
        self.free, self.shapes, self.maps, self.step, self.syms = frozenset(free), shapes, maps, step, syms
        self.copies = copies
        self._congruent = set()
        self._images = {}

    def tiling(self, placements):
        """A partition of the free cells, each piece used ``copies`` times,
        each placement congruent to its piece."""
        assert Counter(n for n, _ in placements) == Counter({n: self.copies for n in self.shapes})
        covered = [tuple(c) for _, cells in placements for c in cells]
        assert len(covered) == len(set(covered)) == len(self.free) and set(covered) == self.free
        for n, cells in placements:
            key = (n, frozenset(cells))
            if key not in self._congruent:
                assert shape_class(cells, self.maps, self.step) == self.shapes[n], (n, cells)
                self._congruent.add(key)

    def images(self, cells):
        """The placement's images under every board symmetry, in sym order."""
        key = frozenset(cells)
        if key not in self._images:
            self._images[key] = [tuple(sorted(tuple(a + b for a, b in zip(apply(m, c), t)) for c in cells))
                                 for m, t in self.syms]
        return self._images[key]

    def solution_class(self, placements):
        imgs = [(n, self.images(cells)) for n, cells in placements]
        return min(tuple(sorted((n, im[k]) for n, im in imgs)) for k in range(len(self.syms)))

    def fixed_by(self, placements) -> list[int]:
        """The indices of the board symmetries that map the tiling onto
        itself (copies of a piece may trade places)."""
        imgs = [(n, self.images(cells)) for n, cells in placements]
        itself = sorted((n, tuple(sorted(map(tuple, cells)))) for n, cells in placements)
        return [k for k in range(len(self.syms)) if sorted((n, im[k]) for n, im in imgs) == itself]


def box_elements(name, dims):
    """The ELEMENT statements of a bundled .box file, read with a regex here
    (not puzzlesat's parser): 0-based cells padded to the box's dimension."""
    out = {}
    for line in (INSTANCES / f"{name}.box").read_text().splitlines():
        m = re.match(r"ELEMENT / \((\w+)\) (.*)", line)
        if m:
            cells = [tuple(int(x) - 1 for x in c.split(",")) for c in re.findall(r"\(([\d, ]+)\)", m.group(2))]
            out[m.group(1)] = [c + (0,) * (len(dims) - len(c)) for c in cells]
    assert sorted(out) == sorted("FILNPTUVWXYZ")
    return out


def box_cells(dims, holes=()):
    return {c for c in product(*(range(n) for n in dims)) if c not in set(holes)}


# ------------------------------------------------------------------ cases

CENTRE_2x2 = [(3, 3), (3, 4), (4, 3), (4, 4)]

# (instance, published count up to symmetry, the board's symmetries, box dims, holes)
BOXES = [
    # Isobe 1965 (background.md section 1); Haselgrove & Haselgrove, Eureka 23 (1960): 368
    ("pentomino-4x15", 368, 4, (4, 15), ()),
    # Isobe 1965 (background.md section 1); Haselgrove & Haselgrove, Eureka 23 (1960): 1010
    ("pentomino-5x12", 1010, 4, (5, 12), ()),
    # Dana Scott, "Programming a combinatorial puzzle" (Princeton, 1958, MANIAC): 65
    ("pentomino-8x8-hole", 65, 8, (8, 8), CENTRE_2x2),
    # C. J. Bouwkamp's enumerations of the solid pentomino boxes (1967-69): 2x3x10 has 12
    ("pentomino-2x3x10", 12, 8, (2, 3, 10), ()),
    # C. J. Bouwkamp's enumerations of the solid pentomino boxes (1967-69): 2x5x6 has 264
    ("pentomino-2x5x6", 264, 8, (2, 5, 6), ()),
]


def _hexagon(n):
    return {(q, r) for q in range(-n + 1, n) for r in range(-n + 1, n) if max(abs(q), abs(r), abs(q + r)) < n}


def _rhombus(w, h):
    return {(k + 3 * i, k + 3 * j) for i in range(w) for j in range(h) for k in (1, 2)}


LATTICE_CASES = [
    # D. Goodger, Polyform Puzzler, puzzler/puzzles/hexiamonds.py, class Hexiamonds6x6: "156 solutions"
    # (O'Beirne's hexiamonds, New Scientist 1961); duplicates under the rhombus's 4 symmetries removed
    ("hexiamonds-6x6", 156, 4, _rhombus(6, 6), 3,
     "C6 E6 F6 G6 H6 I6 J6 O6 P6 S6 V6 X6"),
    # D. Goodger, Polyform Puzzler, puzzler/puzzles/polyhexes34.py, class Polyhexes34Hexagon: "12,290
    # solutions" (P4 fixed in one of its 12 orientations); Noshita's problem (background.md section 4)
    ("hexagon-tetrahexes-trihexes", 12290, 12, _hexagon(4), 1,
     "I4 J4 O4 P4 S4 U4 Y4 A3 I3 V3"),
]


def _check_listed_unique(puzzle, out, free, shapes, maps, step, nsym):
    """One solution per class, each verified twice, pairwise inequivalent."""
    syms = board_symmetries(free, maps, step)
    assert len(syms) == nsym
    assert len(out.solutions) == out.count
    check = Checker(free, shapes, maps, step, syms)
    classes = set()
    for sol in out.solutions:
        puzzle.verify(sol)
        check.tiling(sol.placements)
        classes.add(check.solution_class(sol.placements))
    assert len(classes) == out.count


@pytest.mark.parametrize("case", BOXES, ids=lambda c: c[0])
def test_box_unique_count_is_the_published_one(case):
    name, published, nsym, dims, holes = case
    puzzle = load_puzzle(name)
    free = box_cells(dims, holes)
    assert set(puzzle.board) == free and len(free) == 60
    maps = signed_permutations(len(dims))
    shapes = {n: shape_class(c, maps, 1) for n, c in box_elements(name, dims).items()}
    out = jobs.count(puzzle, get_backend("exact"), unique=True, keep=True)
    assert (out.count, out.complete) == (published, True)
    _check_listed_unique(puzzle, out, free, shapes, maps, 1, nsym)


@pytest.mark.parametrize("case", LATTICE_CASES, ids=lambda c: c[0])
def test_lattice_unique_count_is_the_published_one(case):
    name, published, nsym, board, step, names = case
    puzzle = load_puzzle(name)
    # the bundled board is this one, up to a lattice translation
    assert normalise(puzzle.board, step) == normalise(board, step)
    maps = sixfold()
    shapes = {p.name: shape_class(p.cells, maps, step) for p in puzzle.pieces}
    assert sorted(shapes) == sorted(names.split()) and all(p.count == 1 for p in puzzle.pieces)
    out = jobs.count(puzzle, get_backend("exact"), unique=True, keep=True)
    assert (out.count, out.complete) == (published, True)
    _check_listed_unique(puzzle, out, set(puzzle.board), shapes, maps, step, nsym)


# D. Goodger, Polyform Puzzler, puzzler/puzzles/pentominoes.py, classes Pentominoes8x8FourHoles1-4:
# the 8x8 square without four single cells (0-based (x, y)), distinct up to the board's symmetries
FOUR_HOLES = [
    ("corners-in", ((1, 1), (1, 6), (6, 1), (6, 6)), 188, 8),   # FourHoles1: "188 solutions"
    ("square", ((2, 2), (2, 5), (5, 2), (5, 5)), 21, 8),        # FourHoles2: "21 solutions" (bundled)
    ("pinwheel", ((2, 3), (3, 5), (4, 2), (5, 4)), 126, 4),     # FourHoles3: "126 solutions"
    ("diagonal", ((2, 2), (3, 3), (4, 4), (5, 5)), 74, 4),      # FourHoles4: "74 solutions"
]


@pytest.mark.parametrize("case", FOUR_HOLES, ids=lambda c: c[0])
def test_8x8_with_four_holes_counts_are_the_published_ones(case, tmp_path):
    name, holes, published, nsym = case
    free = box_cells((8, 8), holes)
    if name == "square":
        puzzle = load_puzzle("pentomino-8x8-four-holes")
    else:
        art = "\n".join("".join("*" if (x, y) in holes else "#" for x in range(8)) for y in range(8))
        f = tmp_path / "holes.toml"
        f.write_text(f'[board]\nart = """\n{art}\n"""\n[[pieces]]\nset = "pentominoes"\n')
        puzzle = load_puzzle(str(f))
    # (the board is the same up to the swap of x and y, which maps each hole set onto itself or
    # its mirror image: the count up to symmetry does not change)
    assert {tuple(c) for c in puzzle.board} in (free, {(y, x) for x, y in free})
    free = {tuple(c) for c in puzzle.board}
    maps = signed_permutations(2)
    shapes = {n: shape_class(c, maps, 1) for n, c in box_elements("pentomino-6x10", (6, 10)).items()}
    assert sorted(shapes) == sorted(p.name for p in puzzle.pieces)
    out = jobs.count(puzzle, get_backend("exact"), unique=True, keep=True)
    assert (out.count, out.complete) == (published, True)
    _check_listed_unique(puzzle, out, free, shapes, maps, 1, nsym)


# raw = |G| x published (module docstring); the two slowest enumerations are in the slow tier
RAW = [
    ("pentomino-4x15", 4 * 368),
    pytest.param("pentomino-5x12", 4 * 1010, marks=pytest.mark.slow),
    ("pentomino-8x8-hole", 8 * 65),
    ("pentomino-2x3x10", 8 * 12),
    pytest.param("pentomino-2x5x6", 8 * 264, marks=pytest.mark.slow),
    ("hexiamonds-6x6", 4 * 156),
    ("hexagon-tetrahexes-trihexes", 12 * 12290),
]


@pytest.mark.parametrize("name,raw", RAW)
def test_raw_count_is_the_symmetry_group_times_the_published_one(name, raw):
    out = jobs.count(load_puzzle(name), get_backend("exact"))
    assert (out.count, out.complete) == (raw, True)


def test_cli_counts_4x15_up_to_symmetry():
    # 368: Isobe 1965 (background.md section 1); Haselgrove & Haselgrove 1960
    proc = subprocess.run([sys.executable, "-m", "puzzlesat", "count", "pentomino-4x15", "--unique", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert (d["count"], d["complete"], d["unique"]) == (368, True, True)


# ------------------------------------------- two of each tetromino (identical copies)

#: the five free tetrominoes, drawn here (not puzzlesat's piece table)
TETROMINOES = {"I": [(0, 0), (0, 1), (0, 2), (0, 3)], "L": [(0, 0), (1, 0), (2, 0), (2, 1)],
               "O": [(0, 0), (0, 1), (1, 0), (1, 1)], "S": [(0, 1), (0, 2), (1, 0), (1, 1)],
               "T": [(0, 0), (0, 1), (0, 2), (1, 1)]}

# R. Tomas, "Tetrominoes" (CERN home page, rtomas.web.cern.ch/rtomas/Tetrominoes), by Algorithm X:
# two of each tetromino on the 8x5 board, copies alike and symmetric tilings removed: 783, of
# which 13 are symmetric under the half-turn and none under a mirror; every tile distinct,
# 99392 = 770 * 2^7 + 13 * 2^6 (so 99392 / 2^5 = 3106 with the copies alike).  On the 10x4
# board: 449, none symmetric; 57472 = 449 * 2^7 tilings with every tile distinct.
PAIRS = [
    # (board, up to symmetry, fixed by the half-turn, raw with every tile distinct)
    ((5, 8), 783, 13, 99392),
    ((4, 10), 449, 0, 57472),
]


@pytest.mark.parametrize("case", PAIRS, ids=lambda c: f"{c[0][0]}x{c[0][1]}")
def test_two_of_each_tetromino_counts_are_the_published_ones(case, tmp_path):
    (rows, cols), published, half_turn, distinct = case
    if (rows, cols) == (5, 8):
        puzzle = load_puzzle("tetromino-pairs-5x8")
    else:
        f = tmp_path / "pairs.toml"
        f.write_text(f'[board]\nsize = [{rows}, {cols}]\n[[pieces]]\nset = "tetrominoes"\ncount = 2\n')
        puzzle = load_puzzle(str(f))
    free = box_cells((rows, cols))
    assert set(puzzle.board) == free
    maps = signed_permutations(2)
    shapes = {p.name: shape_class(p.cells, maps, 1) for p in puzzle.pieces}
    # the bundled set is the five tetrominoes, two of each
    assert sorted(shapes.values()) == sorted(shape_class(c, maps, 1) for c in TETROMINOES.values())
    assert all(p.count == 2 for p in puzzle.pieces)
    out = jobs.count(puzzle, get_backend("exact"), unique=True, keep=True)
    assert (out.count, out.complete) == (published, True)
    syms = board_symmetries(free, maps, 1)
    assert len(syms) == 4
    check = Checker(free, shapes, maps, 1, syms, copies=2)
    classes, fixed = set(), Counter()
    for sol in out.solutions:
        puzzle.verify(sol)
        check.tiling(sol.placements)
        classes.add(check.solution_class(sol.placements))
        fixed[tuple(syms[k][0] for k in check.fixed_by(sol.placements))] += 1
    assert len(classes) == published
    # the symmetric ones: fixed by the identity and the half-turn alone (no mirror fixes any)
    identity, turn = ((1, 0), (0, 1)), ((-1, 0), (0, -1))
    assert fixed == Counter({(identity,): published - half_turn, (identity, turn): half_turn} if half_turn
                            else {(identity,): published})
    # raw, copies alike: each class has 4 tilings, 2 if symmetric; every tile distinct multiplies by 2^5
    raw = jobs.count(puzzle, get_backend("exact"))
    assert (raw.count, raw.complete) == (4 * (published - half_turn) + 2 * half_turn, True)
    assert raw.count * 2 ** 5 == distinct
