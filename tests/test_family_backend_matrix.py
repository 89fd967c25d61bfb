"""Families x back ends that the rest of the fast tier leaves out: 1-D boxes,
3-D and 4-D boxes on every engine, the triangular lattice on CP-SAT, the
hexagonal, triangular and No.0 lattices on Ganak, and Ganak on nonograms.

Expected values come from closed forms (OEIS A045310 for the perfect
matchings of the hypercube, MacMahon's formula for lozenge tilings of a
hexagon, multinomials on a line) and from the brute-force tilers and
nonogram solver below, written from scratch: their own matrices (in
hand_geometry.py), their own placement generator, first-empty-cell search,
classes counted by marking each tiling's images under the symmetries found
by trying every isometry of the board.  Every solution an engine lists is checked by the family's verifier
and by an independent check here (a partition of the free cells, each piece
its count times, each placement one the brute force generated), and the
listed set is compared with the brute force's.  Ganak lists nothing: its
counts are compared with the same brute-force numbers the exact-cover engine
must reproduce in the neighbouring parametrisation.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from puzzlesat import jobs
from puzzlesat.backends import BackendError, Status, get_backend
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.build import PieceSpec, build_tiling
from puzzlesat.models.tiling.lattice import get_lattice
from puzzlesat.models.tiling.standard import standard_set

from .hand_geometry import apply, board_symmetries, shift, signed_permutations, sixfold

ENGINES = ["exact", "cadical195", "cpsat", "ganak"]  # the last only counts (kasteleyn: at the end)

# ------------------------------------------------------------ geometry, by hand (and hand_geometry)


def placements_of(shape, maps, board, step):
    """Every image M x + t of the shape inside the board (t: coordinates multiples of step)."""
    out = set()
    for m in maps:
        img = [apply(m, c) for c in shape]
        for a in img:
            for b in board:
                t = tuple(y - x for x, y in zip(a, b))
                if any(x % step for x in t):
                    continue
                pl = shift(img, t)
                if pl <= board:
                    out.add(pl)
    return out


def piece_options(board, pieces, maps, step):
    """{name: every placement of that piece in the board}."""
    return {n: placements_of(c, maps, frozenset(board), step) for n, (c, _) in pieces.items()}


def brute_tilings(board, pieces, options):
    """Every tiling of ``board`` by ``pieces`` {name: (cells, count)} placed
    as ``options`` allows, as a frozenset of (name, frozenset(cells)); first
    empty cell in sorted order."""
    board = frozenset(board)
    by_cell = {x: [(n, pl) for n in options for pl in options[n] if x in pl] for x in board}
    left = {n: k for n, (_, k) in pieces.items()}
    order = sorted(board)
    found = []

    def go(covered, chosen):
        free = next((x for x in order if x not in covered), None)
        if free is None:
            if not any(left.values()):
                found.append(frozenset(chosen))
            return
        for n, pl in by_cell[free]:
            if left[n] and not (pl & covered):
                left[n] -= 1
                go(covered | pl, chosen + [(n, pl)])
                left[n] += 1

    go(frozenset(), [])
    return found


def orbits(tilings, syms):
    """The number of classes of tilings under the symmetries: take a tiling
    not seen yet, mark its whole orbit (which must consist of tilings)."""
    tilings = set(tilings)
    cells = {c for s in tilings for _, pl in s for c in pl}
    moves = [{c: tuple(a + b for a, b in zip(apply(m, c), t)) for c in cells} for m, t in syms]
    seen, n = set(), 0
    for s in tilings:
        if s in seen:
            continue
        n += 1
        for g in moves:
            img = frozenset((name, frozenset(g[c] for c in pl)) for name, pl in s)
            assert img in tilings
            seen.add(img)
    return n


def as_set(solution):
    return frozenset((n, frozenset(map(tuple, cells))) for n, cells in solution.placements)


def check_tiling(puzzle, solution, board, pieces, options):
    """puzzle.verify, then independently: the placements partition the free
    cells, each piece is used its count times, each placement is one that
    placements_of generated for its piece (an image under the matrices above
    plus a lattice translation)."""
    puzzle.verify(solution)
    pls = solution.placements
    assert Counter(n for n, _ in pls) == Counter({n: k for n, (_, k) in pieces.items()})
    covered = [tuple(c) for _, cells in pls for c in cells]
    assert len(covered) == len(set(covered)) == len(board) and set(covered) == set(board)
    for n, cells in pls:
        assert frozenset(map(tuple, cells)) in options[n], (n, cells)


@dataclasses.dataclass
class Case:
    """A board, its pieces {name: (cells, count)}, and what the brute force
    says about it: every placement, every tiling, the board's symmetries."""

    board: frozenset
    pieces: dict
    options: dict
    tilings: list
    syms: list

    @classmethod
    def solve(cls, board, pieces, maps, step):
        board = frozenset(board)
        options = piece_options(board, pieces, maps, step)
        return cls(board, pieces, options, brute_tilings(board, pieces, options), board_symmetries(board, maps, step))

    @property
    def orbits(self):
        return orbits(self.tilings, self.syms)


def _count_and_list(puzzle, engine, case, problem=None):
    """Raw count (on engines that list, listing up to LIST_AT_MOST solutions
    and checking each), then the count up to symmetry; both against the
    brute force."""
    problem = problem or puzzle.compile()
    backend = get_backend(engine)
    listing = backend.can_enumerate
    few = len(case.tilings) <= LIST_AT_MOST
    raw = jobs.count(puzzle, backend, keep=listing, keep_at_most=None if few else LIST_AT_MOST, problem=problem)
    assert (raw.count, raw.complete) == (len(case.tilings), True)
    if listing:
        assert len(raw.solutions) == min(len(case.tilings), LIST_AT_MOST)
        for sol in raw.solutions:
            check_tiling(puzzle, sol, case.board, case.pieces, case.options)
        listed = {as_set(s) for s in raw.solutions}
        assert len(listed) == len(raw.solutions) and listed <= set(case.tilings)
        assert listed == set(case.tilings) or not few
    uniq = jobs.count(puzzle, get_backend(engine), unique=True, problem=problem)
    assert (uniq.count, uniq.complete) == (case.orbits, True)


#: list and re-check at most this many solutions of one count (the rest are counted)
LIST_AT_MOST = 1000


def _box_text(dims, holes, pieces):
    """A .box file in Isobe's format (1-based); a repeated piece is its ELEMENT repeated."""
    lines = ["BOX / " + " * ".join(map(str, dims))]
    if holes:
        lines.append("RESERVE / (*) " + ", ".join("(" + ", ".join(str(x + 1) for x in h) + ")" for h in holes))
    for n, (cells, k) in pieces.items():
        lines += [f"ELEMENT / ({n}) " + ", ".join("(" + ", ".join(str(x + 1) for x in c) + ")" for c in cells)] * k
    return "\n".join(lines) + "\n"


def _box(dims, holes=()):
    return frozenset(c for c in product(*(range(n) for n in dims)) if c not in set(holes))


def _box_case(dims, holes, pieces):
    d = len(dims)
    pieces = {n: ([tuple(c) + (0,) * (d - len(c)) for c in cells], k) for n, (cells, k) in pieces.items()}
    return Case.solve(_box(dims, holes), pieces, signed_permutations(d), 1)


def _load_box(tmp_dir, dims, holes, case):
    """The board written as a .box file, loaded and compiled (once per module:
    compiling finds the 384 symmetries of the 4-cube, about 1.5 s)."""
    path = tmp_dir / "board.box"
    path.write_text(_box_text(dims, holes, case.pieces))
    puzzle = load_puzzle(str(path))
    assert puzzle.dims == dims and set(puzzle.board) == case.board
    return puzzle, puzzle.compile()


M1, D2, I3 = [(0,)], [(0,), (1,)], [(0,), (1,), (2,)]
V3 = [(0, 0), (0, 1), (1, 0)]
L4 = [(0, 0), (1, 0), (2, 0), (2, 1)]
O4 = [(0, 0), (0, 1), (1, 0), (1, 1)]

# ------------------------------------------------------------------ 1-D boxes

LINES = {
    # 4!/(2!2!) = 6 orders of D D M M; DMMD and MDDM are palindromes: (6 + 2) / 2 = 4 classes
    "6: D2 D2 M M": ((6,), (), {"D": (D2, 2), "M": (M1, 2)}),
    # a hole in the middle (the reversal still a symmetry) and a piece used once
    "9 hole 5: I3 D2 D2 M": ((9,), [(4,)], {"I": (I3, 1), "D": (D2, 2), "M": (M1, 1)}),
    # a hole off centre: no symmetry left
    "7 hole 2: I3 D2 M": ((7,), [(1,)], {"I": (I3, 1), "D": (D2, 1), "M": (M1, 1)}),
}


@pytest.fixture(scope="module")
def line_cases(tmp_path_factory):
    out = {}
    for name, (dims, holes, pieces) in LINES.items():
        case = _box_case(dims, holes, pieces)
        out[name] = (case, *_load_box(tmp_path_factory.mktemp("line"), dims, holes, case))
    return out


def test_line_brute_force_itself(line_cases):
    c = line_cases["6: D2 D2 M M"][0]
    assert (len(c.tilings), c.orbits, len(c.syms)) == (6, 4, 2)
    assert [len(line_cases[n][0].syms) for n in LINES] == [2, 2, 1]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", list(LINES))
def test_line_boxes(line_cases, name, engine):
    case, puzzle, problem = line_cases[name]
    assert puzzle.lattice.name == "line"
    assert len(problem.symmetries) == len(case.syms)
    _count_and_list(puzzle, engine, case, problem)


# ------------------------------------------------------------ 3-D and 4-D boxes

BOXES = {
    # perfect matchings of the cube graph Q3: 9 (OEIS A045310)
    "2x2x2 dominoes": ((2, 2, 2), {"D": (D2, 4)}, 9),
    "2x2x3 V x4": ((2, 2, 3), {"V": (V3, 4)}, None),
    # a piece used once, mixed sizes, flat pieces turned in 3-D
    "2x2x3 L V D MMM": ((2, 2, 3), {"L": (L4, 1), "V": (V3, 1), "D": (D2, 1), "M": (M1, 3)}, None),
    # perfect matchings of the 4-cube graph Q4: 272 (OEIS A045310: 1, 2, 9, 272, ...)
    "2x2x2x2 dominoes": ((2, 2, 2, 2), {"D": (D2, 8)}, 272),
    # flat squares and trominoes turned into every plane of the 4-cube, O used once
    "2x2x2x2 O VV DDD": ((2, 2, 2, 2), {"O": (O4, 1), "V": (V3, 2), "D": (D2, 3)}, None),
}

# measured here: Ganak's raw count of these boards takes 1-35 s, and its
# Burnside over the 4-cube's 384 symmetries 4-13 s; CP-SAT enumerates the
# 9,696 tilings of the mixed 4-D board in about 4 s
SLOW = {("2x2x3 L V D MMM", "ganak"), ("2x2x2x2 O VV DDD", "ganak"), ("2x2x2x2 O VV DDD", "cpsat"),
        ("2x2x2x2 dominoes", "ganak")}

# the boxes' symmetry groups: 2^d d! for a cube; 2x2x3: 8 flips times swapping the two 2-axes
GROUP_ORDER = {(2, 2, 2): 48, (2, 2, 3): 16, (2, 2, 2, 2): 384}


@pytest.fixture(scope="module")
def box_cases(tmp_path_factory):
    out = {}
    for name, (dims, pieces, _) in BOXES.items():
        case = _box_case(dims, (), pieces)
        out[name] = (case, *_load_box(tmp_path_factory.mktemp("box"), dims, (), case))
    return out


def test_box_brute_force_on_known_numbers(box_cases):
    for name, (dims, _, known) in BOXES.items():
        case = box_cases[name][0]
        assert len(case.syms) == GROUP_ORDER[dims], name
        if known is not None:
            assert len(case.tilings) == known, name


@pytest.mark.parametrize("name,engine", [
    pytest.param(n, e, marks=[pytest.mark.slow] if (n, e) in SLOW else [], id=f"{n}-{e}")
    for n in BOXES for e in ENGINES])
def test_3d_and_4d_boxes(box_cases, name, engine):
    case, puzzle, problem = box_cases[name]
    assert len(problem.symmetries) == len(case.syms)
    _count_and_list(puzzle, engine, case, problem)


@pytest.mark.parametrize("engine", ["cpsat", "cadical195"])
def test_4d_solve_is_a_verified_perfect_matching_of_q4(box_cases, engine):
    case, puzzle, problem = box_cases["2x2x2x2 dominoes"]
    out = jobs.solve(puzzle, get_backend(engine), problem=problem)
    assert out.status == Status.SOLVED
    check_tiling(puzzle, out.solution, case.board, case.pieces, case.options)
    # each domino joins two cells differing in exactly one coordinate: an edge of Q4
    for _, (a, b) in out.solution.placements:
        assert sum(x != y for x, y in zip(a, b)) == 1
    assert as_set(out.solution) in set(case.tilings)


# ------------------------------------------- triangular, hexagonal and No.0 boards

TRI, HEX, NO0 = get_lattice("triangle"), get_lattice("hex"), get_lattice("no0")


def _tri_hexagon(n):
    """The regular hexagon of side n in triangles (6 n^2 of them): the
    triangles (k + 3i, k + 3j), k = 1 pointing down and k = 2 up, whose three
    corners lie within hexagonal distance n of the origin."""
    dist = lambda i, j: max(abs(i), abs(j), abs(i + j))
    return frozenset((k + 3 * i, k + 3 * j) for i in range(-n, n + 1) for j in range(-n, n + 1)
                     for k, corners in ((1, ((0, 0), (1, 0), (0, 1))), (2, ((1, 0), (0, 1), (1, 1))))
                     if all(dist(i + a, j + b) <= n for a, b in corners))


def _hexagon(n):
    """The regular hexagon of side n in hexagons (axial coordinates)."""
    return frozenset((q, r) for q in range(-n + 1, n) for r in range(-n + 1, n) if max(abs(q), abs(r), abs(q + r)) < n)


NO0_GAPS = [(1, 1), (2, -1), (-1, 2), (-2, 1), (-1, -1), (1, -2)]  # the six gaps around the circle (0, 0)


def _no0_hexagon2():
    """No.0's hexagon of side 2: 7 circles and the 24 gaps touching them."""
    circles = [(3 * i, 3 * j) for i in (-1, 0, 1) for j in (-1, 0, 1) if abs(i + j) < 2]
    return frozenset(circles) | {(x + a, y + b) for x, y in circles for a, b in NO0_GAPS}


def macmahon(a, b, c):
    """Lozenge tilings of the hexagon with sides a, b, c, a, b, c (MacMahon)."""
    n = Fraction(1)
    for i, j, k in product(range(1, a + 1), range(1, b + 1), range(1, c + 1)):
        n *= Fraction(i + j + k - 1, i + j + k - 2)
    assert n.denominator == 1
    return int(n)


DIAMOND = [(1, 1), (2, -1)]  # a down triangle and the up triangle across its edge


def _named(lattice, setname):
    return {n: list(c) for n, c, _ in standard_set(lattice, setname)}


def _lattice_puzzle(lattice, case):
    specs = [PieceSpec(n, list(c), k, False) for n, (c, k) in case.pieces.items()]
    puzzle = build_tiling(lattice=lattice, pieces=specs, path=None, board=set(case.board))
    problem = puzzle.compile()
    assert len(problem.symmetries) == len(case.syms)
    return puzzle, problem


LATTICE_CASES = {
    # lozenge tilings of the hexagon of side 2: MacMahon's 20
    "triangle hexagon-2 diamonds": (TRI, 3, _tri_hexagon(2), lambda: {"D2": (DIAMOND, 12)}),
    # lozenge tilings of the hexagon of side 3: MacMahon's 980
    "triangle hexagon-3 diamonds": (TRI, 3, _tri_hexagon(3), lambda: {"D2": (DIAMOND, 27)}),
    # the hexagon of side 3 (19 hexagons): six bent trihexes and a monohex; some solutions are symmetric
    "hex hexagon-3 V3x6 H1": (HEX, 1, _hexagon(3), lambda: {"V3": (_named(HEX, "trihexes")["V3"], 6),
                                                            "H1": ([(0, 0)], 1)}),
    # No.0's hexagon of side 2: I, and two each of G (the chiral one, here free), C and D
    "no0 hexagon-2 I GG CC DD": (NO0, 3, _no0_hexagon2(), lambda: {
        n: (_named(NO0, "no0")[n], k) for n, k in (("I", 1), ("G", 2), ("C", 2), ("D", 2))}),
}

# measured: Ganak's Burnside count of the 980 lozenge tilings takes ~25 s
LATTICE_RUNS = [(n, e) for n in LATTICE_CASES for e in ENGINES]
LATTICE_SLOW = {("triangle hexagon-3 diamonds", "ganak")}


@pytest.fixture(scope="module")
def lattice_cases():
    out = {}
    for name, (lattice, step, board, pieces) in LATTICE_CASES.items():
        case = Case.solve(board, pieces(), sixfold(), step)
        out[name] = (case, *_lattice_puzzle(lattice, case))
    return out


def test_lattice_boards_and_brute_force_on_known_numbers(lattice_cases):
    assert [len(_tri_hexagon(n)) for n in (1, 2, 3)] == [6, 24, 54]
    assert len(_hexagon(3)) == 19
    board = _no0_hexagon2()
    assert sum(1 for x, y in board if x % 3 == 0) == 7 and len(board) == 7 + 24
    assert [macmahon(n, n, n) for n in (1, 2, 3)] == [2, 20, 980]
    assert len(lattice_cases["triangle hexagon-2 diamonds"][0].tilings) == 20
    assert len(lattice_cases["triangle hexagon-3 diamonds"][0].tilings) == 980
    for name in LATTICE_CASES:
        case = lattice_cases[name][0]
        assert len(case.syms) == 12, name  # every hexagon keeps all 12 isometries
    # some solutions are symmetric: fewer tilings than 12 per class (the orbit counting matters)
    hexcase = lattice_cases["hex hexagon-3 V3x6 H1"][0]
    no0case = lattice_cases["no0 hexagon-2 I GG CC DD"][0]
    assert len(hexcase.tilings) < 12 * hexcase.orbits and len(no0case.tilings) < 12 * no0case.orbits


@pytest.mark.parametrize("name,engine", [
    pytest.param(n, e, marks=[pytest.mark.slow] if (n, e) in LATTICE_SLOW else [], id=f"{n}-{e}")
    for n, e in LATTICE_RUNS])
def test_lattice_boards_on_every_engine(lattice_cases, name, engine):
    case, puzzle, problem = lattice_cases[name]
    _count_and_list(puzzle, engine, case, problem)


def test_ganak_counts_the_980_lozenge_tilings_of_the_hexagon_of_side_3(lattice_cases):
    # the raw count only (its count up to symmetry is in the slow tier)
    case, puzzle, problem = lattice_cases["triangle hexagon-3 diamonds"]
    out = jobs.count(puzzle, get_backend("ganak"), problem=problem)
    assert (out.count, out.complete) == (macmahon(3, 3, 3), True) == (len(case.tilings), True)


def test_cpsat_solves_the_hexiamonds_rhombus():
    puzzle = load_puzzle("hexiamonds-6x6")
    board = frozenset(puzzle.board)
    # the bundled board is the 6 x 6 rhombus of 72 triangles, up to a lattice translation
    rhombus = {(k + 3 * i, k + 3 * j) for i in range(6) for j in range(6) for k in (1, 2)}
    lo, lo2 = min(board), min(rhombus)
    assert {(x - lo[0] + lo2[0], y - lo[1] + lo2[1]) for x, y in board} == rhombus and (lo[0] - lo2[0]) % 3 == 0
    pieces = {p.name: (list(p.cells), p.count) for p in puzzle.pieces}
    assert sorted(pieces) == "C6 E6 F6 G6 H6 I6 J6 O6 P6 S6 V6 X6".split()
    options = piece_options(board, pieces, sixfold(), 3)
    out = jobs.solve(puzzle, get_backend("cpsat"))
    assert out.status == Status.SOLVED
    check_tiling(puzzle, out.solution, board, pieces, options)


# ------------------------------------------------------------- nonograms on Ganak


def _runs(bits):
    return tuple(len(list(g)) for k, g in itertools.groupby(bits) if k)


def brute_nonogram(rows, cols, width):
    """Every picture: each row one of the fillings of its clue, columns checked."""
    options = [[b for b in product((0, 1), repeat=width) if _runs(b) == tuple(clue)] for clue in rows]
    return [grid for grid in product(*options)
            if all(_runs(r[c] for r in grid) == tuple(cols[c]) for c in range(width))]


def clue_symmetries(rows, cols):
    """The flips of a rectangular grid that map the clues onto themselves, as maps on pictures."""
    rows, cols = [tuple(r) for r in rows], [tuple(c) for c in cols]
    rev = lambda clues: [tuple(reversed(c)) for c in clues]
    flips = {
        (False, False): (rows, cols),
        (True, False): (rows[::-1], rev(cols)),    # upside down
        (False, True): (rev(rows), cols[::-1]),    # left to right
        (True, True): (rev(rows)[::-1], rev(cols)[::-1]),
    }
    return [(v, h) for (v, h), (r, c) in flips.items() if (r, c) == (rows, cols)]


def picture_orbits(grids, flips):
    def image(g, v, h):
        g = g[::-1] if v else g
        return tuple(tuple(r[::-1]) if h else tuple(r) for r in g)

    return len({min(image(g, v, h) for v, h in flips) for g in grids})


@pytest.mark.parametrize("encoding", ["blocks", "regular"])
@pytest.mark.parametrize("name,solutions,classes", [("twins", 2, 1), ("letter-p", 1, 1)])
def test_ganak_counts_nonograms(name, solutions, classes, encoding):
    puzzle = dataclasses.replace(load_puzzle(name), line_encoding=encoding)
    grids = brute_nonogram(puzzle.rows, puzzle.cols, puzzle.width)
    flips = clue_symmetries(puzzle.rows, puzzle.cols)
    assert (len(grids), picture_orbits(grids, flips)) == (solutions, classes)
    for g in grids:
        puzzle.verify(g)  # the brute force's pictures satisfy the family's checker too
    problem = puzzle.compile()
    assert len(problem.symmetries) == len(flips)
    out = jobs.count(puzzle, get_backend("ganak"), problem=problem)
    assert (out.count, out.complete, out.backend) == (solutions, True, "ganak")
    uniq = jobs.count(puzzle, get_backend("ganak"), unique=True, problem=problem)
    assert (uniq.count, uniq.complete) == (classes, True)


def test_twins_has_two_mirror_image_solutions_by_brute_force():
    p = load_puzzle("twins")
    grids = brute_nonogram(p.rows, p.cols, p.width)
    assert sorted(grids) == [((0, 0, 1, 0, 1), (0, 1, 1, 1, 0), (1, 0, 1, 0, 0)),
                             ((1, 0, 1, 0, 0), (0, 1, 1, 1, 0), (0, 0, 1, 0, 1))]
    assert len(clue_symmetries(p.rows, p.cols)) == 4


@pytest.mark.parametrize("encoding,why", [
    ("blocks", "not an exact cover: Clause uses non-primary variable "),
    ("regular", "not an exact cover: Regular (automaton) constraints have no exact-cover form"),
])
def test_the_exact_cover_engine_declines_nonograms_and_says_why(encoding, why):
    puzzle = dataclasses.replace(load_puzzle("twins"), line_encoding=encoding)
    problem = puzzle.compile()
    reason = get_backend("exact").supports(problem)
    assert reason is not None and reason.startswith(why)
    if encoding == "blocks":
        assert reason.endswith(": an exact cover has options for primary variables only")
    with pytest.raises(BackendError, match="backend 'exact' cannot take this problem: not an exact cover"):
        jobs.count(puzzle, get_backend("exact"), problem=problem)


# ------------------------------------------------------------ the determinant (kasteleyn)


def test_kasteleyn_counts_the_domino_boards_whose_graph_is_planar(lattice_cases, box_cases):
    # the brute force's numbers: lozenge tilings of the triangle lattice's
    # hexagons (honeycomb graphs) and the perfect matchings of the cube Q3
    # (planar too); Q4 is not planar, and the engine says so
    kb = get_backend("kasteleyn")
    for name in ("triangle hexagon-2 diamonds", "triangle hexagon-3 diamonds"):
        case, puzzle, problem = lattice_cases[name]
        out = jobs.count(puzzle, kb, problem=problem)
        assert (out.count, out.complete, out.method) == (len(case.tilings), True, "determinant"), name
    case, puzzle, problem = box_cases["2x2x2 dominoes"]
    assert jobs.count(puzzle, kb, problem=problem).count == len(case.tilings) == 9
    case, puzzle, problem = box_cases["2x2x2x2 dominoes"]
    assert kb.supports(problem) == "its graph (cells joined by the placements that cover both) is not planar"
    # the default count takes the determinant where it can and there are
    # many tilings (the side-5 hexagon's 267,227,532 lozenge tilings:
    # MacMahon's formula), the exact-cover engine for few (980, listed in
    # less time than the determinant's modules take to load), and Ganak or
    # the exact-cover engine where it cannot
    from puzzlesat.models.tiling.tomlfile import load as load_toml

    side5 = load_toml('lattice = "triangle"\n[board]\nhexagon = 5\n[[pieces]]\nset = "diamonds"\ncount = 75\n',
                      "side5.toml")
    out = jobs.count(side5)
    assert (out.count, out.backend) == (267_227_532, "kasteleyn")
    _, puzzle3, problem3 = lattice_cases["triangle hexagon-3 diamonds"]
    assert (jobs.count(puzzle3, problem=problem3).backend, len(lattice_cases["triangle hexagon-3 diamonds"][0].tilings)) \
        == ("exact", 980)
    assert jobs.choose_count_backend(problem, listing=False)[0].name != "kasteleyn"
