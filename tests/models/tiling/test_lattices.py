"""The hexagonal and triangular lattices: their point groups, generated
piece sets, orientation counts, and unique counts of small boards checked
against an independent brute-force tiler."""

from __future__ import annotations

import pytest

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.models.tiling.build import PieceSpec, build_tiling
from puzzlesat.models.tiling.geometry import is_connected, orientations, polyforms
from puzzlesat.models.tiling.lattice import LATTICES, get_lattice
from puzzlesat.models.tiling.standard import named_shapes, standard_set

HEX, TRI = get_lattice("hex"), get_lattice("triangle")

# The Gram matrix of the basis a = (1, 0), b = (1/2, sqrt 3 / 2), times 2:
# a matrix M is an isometry of the plane iff M^T G M = G.
GRAM = ((2, 1), (1, 2))


def _mul(a, b):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(2)) for j in range(2)) for i in range(2))


def _t(m):
    return tuple(zip(*m))


@pytest.mark.parametrize("name", ["hex", "triangle", "no0"])
def test_point_group_is_the_12_isometries_of_a_hexagon(name):
    lat = get_lattice(name)
    group = lat.point_group
    assert len(group) == 12 and len(set(group)) == 12 and len(lat.rotations) == 6
    assert group[0] == ((1, 0), (0, 1))
    for m in group:
        assert _mul(_mul(_t(m), GRAM), m) == GRAM  # an isometry
        for n in group:
            assert _mul(m, n) in group  # closed


@pytest.mark.parametrize("name", ["hex", "triangle", "no0"])
def test_symmetries_map_cells_and_neighbours_to_cells_and_neighbours(name):
    lat = get_lattice(name)
    cells = [(x, y) for x in range(-4, 5) for y in range(-4, 5) if lat.is_cell((x, y))]
    for p in cells:
        for q in lat.neighbours(p):
            assert lat.is_cell(q) and p in lat.neighbours(q)
        for m in lat.point_group:
            mp = tuple(sum(m[i][j] * p[j] for j in range(2)) for i in range(2))
            assert lat.is_cell(mp)
            img = sorted(tuple(sum(m[i][j] * q[j] for j in range(2)) for i in range(2)) for q in lat.neighbours(p))
            assert img == sorted(lat.neighbours(mp))


def test_the_triangle_lattice_has_up_and_down_triangles_swapped_by_a_sixth_turn():
    assert TRI.is_cell((1, 1)) and TRI.is_cell((2, 2)) and not TRI.is_cell((0, 0)) and not TRI.is_cell((1, 2))
    sixth = ((0, -1), (1, 1))
    assert sixth in TRI.rotations
    assert _apply(sixth, (1, 1)) == (-1, 2) and (-1) % 3 == 2  # a (1, 1)-class triangle becomes (2, 2)-class
    assert len(TRI.neighbours((1, 1))) == 3 and len(HEX.neighbours((0, 0))) == 6
    assert not TRI.is_translation((1, 1)) and TRI.is_translation((3, -6))


def test_lattices_are_registered():
    for name in ("hex", "triangle", "no0", "square", "cubic"):
        assert name in LATTICES and get_lattice(name).name == name


# ------------------------------------------------------------ piece sets

POLYHEXES_FREE = [1, 1, 3, 7, 22, 82]
POLYHEXES_ONE_SIDED = [1, 1, 3, 10, 33, 147]
POLYIAMONDS_FREE = [1, 1, 1, 3, 4, 12, 24]
POLYIAMONDS_ONE_SIDED = [1, 1, 1, 4, 6, 19, 43]


def test_polyhex_and_polyiamond_counts():
    assert [len(polyforms(HEX, n)) for n in range(1, 6)] == POLYHEXES_FREE[:5]
    assert [len(polyforms(HEX, n, one_sided=True)) for n in range(1, 6)] == POLYHEXES_ONE_SIDED[:5]
    assert [len(polyforms(TRI, n)) for n in range(1, 8)] == POLYIAMONDS_FREE
    assert [len(polyforms(TRI, n, one_sided=True)) for n in range(1, 8)] == POLYIAMONDS_ONE_SIDED


@pytest.mark.parametrize("lattice,name,size,free,one_sided", [
    ("hex", "trihexes", 3, 3, 3), ("hex", "tetrahexes", 4, 7, 10), ("hex", "pentahexes", 5, 22, 33),
    ("triangle", "tetriamonds", 4, 3, 4), ("triangle", "pentiamonds", 5, 4, 6),
    ("triangle", "hexiamonds", 6, 12, 19),
])
def test_standard_sets(lattice, name, size, free, one_sided):
    lat = get_lattice(lattice)
    pieces = standard_set(lat, name)
    assert len(pieces) == free and len({p[0] for p in pieces}) == free
    assert all(len(cells) == size and is_connected(lat, cells) and not os_ for _, cells, os_ in pieces)
    os_set = standard_set(lat, "one-sided-" + name)
    assert len(os_set) == one_sided and all(p[2] for p in os_set)
    # the mirror images are exactly the primed names
    assert sorted(n for n, _, _ in os_set if not n.endswith("'")) == sorted(n for n, _, _ in pieces)


def test_conventional_names():
    assert [p[0] for p in standard_set(HEX, "trihexes")] == ["A3", "I3", "V3"]
    assert [p[0] for p in standard_set(HEX, "tetrahexes")] == ["I4", "J4", "O4", "P4", "S4", "U4", "Y4"]
    assert [p[0] for p in standard_set(TRI, "hexiamonds")] == \
        ["C6", "E6", "F6", "G6", "H6", "I6", "J6", "O6", "P6", "S6", "V6", "X6"]
    # the chiral hexiamonds, as O'Beirne's set has them
    chiral = sorted(n[:-1] for n, _, _ in standard_set(TRI, "one-sided-hexiamonds") if n.endswith("'"))
    assert chiral == ["F6", "G6", "H6", "I6", "J6", "P6", "S6"]


@pytest.mark.parametrize("lattice", ["hex", "triangle", "no0"])
def test_every_drawn_name_is_a_generated_shape(lattice):
    lat = get_lattice(lattice)
    from puzzlesat.models.tiling.geometry import canonical
    from puzzlesat.models.tiling.standard import SETS
    for size, names in named_shapes(lattice).items():
        setname = next(n for n, spec in SETS[lattice].items() if spec[0] == size)
        generated = {canonical(lat, c, lat.point_group) for _, c, _ in standard_set(lat, setname)}
        for name, cells in names.items():
            assert canonical(lat, cells, lat.point_group) in generated, name
        assert {p[0] for p in standard_set(lat, setname)} >= set(names)


@pytest.mark.parametrize("lattice,setname,expected", [
    # 12 / (order of the piece's own symmetry group)
    ("hex", "trihexes", {"A3": 2, "I3": 3, "V3": 6}),
    ("hex", "tetrahexes", {"I4": 3, "O4": 3, "U4": 6, "Y4": 2, "J4": 12, "P4": 12, "S4": 6}),
    ("triangle", "hexiamonds", {"O6": 1, "X6": 3, "E6": 6, "V6": 6, "C6": 6, "I6": 6, "S6": 6,
                                "F6": 12, "G6": 12, "H6": 12, "J6": 12, "P6": 12}),
])
def test_orientation_counts(lattice, setname, expected):
    lat = get_lattice(lattice)
    got = {n: len(orientations(lat, cells, lat.point_group)) for n, cells, _ in standard_set(lat, setname)}
    assert got == expected
    # a piece without mirror symmetry has half as many when it may only turn
    for n, cells, _ in standard_set(lat, setname):
        if expected[n] == 12:
            assert len(orientations(lat, cells, lat.rotations)) == 6


# ------------------------------------------- unique counts vs brute force

def _apply(m, p):
    return (m[0][0] * p[0] + m[0][1] * p[1], m[1][0] * p[0] + m[1][1] * p[1])


def _maps(one_sided):
    """The 6 turns (and, unless one-sided, 6 flips) of the plane, built from
    scratch from the 60-degree turn and one mirror, not with lattice.py."""
    maps = []
    r, s = ((0, -1), (1, 1)), ((0, 1), (1, 0))
    m = ((1, 0), (0, 1))
    for _ in range(6):
        maps.append(m)
        if not one_sided:
            maps.append(_mul(m, s))
        m = _mul(m, r)
    return maps


def _brute_force(lat, board, pieces):
    """(raw count, orbit count) of tilings of ``board`` by ``pieces``
    (name, cells, count, one_sided): backtracking on the first empty cell,
    orbits by canonical form under the board's symmetries."""
    board = frozenset(board)
    step = 3 if lat.name == "triangle" else 1
    shapes = {}
    for name, cells, _, one_sided in pieces:
        seen = set()
        for m in _maps(one_sided):
            img = [_apply(m, p) for p in cells]
            for b in board:
                for a in img:
                    t = (b[0] - a[0], b[1] - a[1])
                    if t[0] % step or t[1] % step:
                        continue
                    placed = frozenset((p[0] + t[0], p[1] + t[1]) for p in img)
                    if placed <= board:
                        seen.add(placed)
        shapes[name] = sorted(seen, key=sorted)
    left = {name: count for name, _, count, _ in pieces}
    order = sorted(board)
    solutions = []

    def go(covered, chosen):
        free = next((c for c in order if c not in covered), None)
        if free is None:
            if not any(left.values()):
                solutions.append(frozenset(chosen))
            return
        for name in left:
            if not left[name]:
                continue
            for pl in shapes[name]:
                if free in pl and not (pl & covered):
                    left[name] -= 1
                    go(covered | pl, chosen + [(name, pl)])
                    left[name] += 1

    go(frozenset(), [])
    # the board's symmetries, found independently: maps x -> M x + t onto itself
    syms = []
    lo = min(board)
    for m in _maps(False):
        img = [_apply(m, p) for p in board]
        t = (lo[0] - min(img)[0], lo[1] - min(img)[1])
        if {(p[0] + t[0], p[1] + t[1]) for p in img} != set(board):
            continue
        # a symmetry of the puzzle must also map each piece's placements onto
        # the placements of a piece with the same count: the piece itself, or
        # for a chiral one-sided piece under a mirror, its mirror piece
        move = lambda pl: frozenset((_apply(m, p)[0] + t[0], _apply(m, p)[1] + t[1]) for p in pl)
        swap = {}
        for name in shapes:
            moved = {move(pl) for pl in shapes[name]}
            swap[name] = next((other for other in shapes if set(shapes[other]) == moved
                               and left[other] == left[name]), None)
        if None not in swap.values():
            syms.append((m, t, swap))
    canon = set()
    for sol in solutions:
        forms = []
        for m, t, swap in syms:
            forms.append(tuple(sorted((swap[n], tuple(sorted((_apply(m, p)[0] + t[0], _apply(m, p)[1] + t[1])
                                                             for p in pl))) for n, pl in sol)))
        canon.add(min(forms))
    return len(solutions), len(canon), len(syms)


def _tiling(lat, board, pieces):
    specs = [PieceSpec(n, list(c), k, os_) for n, c, k, os_ in pieces]
    return build_tiling(lattice=lat, pieces=specs, path=None, board=set(board))


def _hexagon(n):
    return {(q, r) for q in range(-n + 1, n) for r in range(-n + 1, n) if max(abs(q), abs(r), abs(q + r)) < n}


def _hex_set(name):
    return {n: c for n, c, _ in standard_set(HEX, name)}


def _tri_set(name):
    return {n: c for n, c, _ in standard_set(TRI, name)}


I2 = [(0, 0), (1, 0)]
MONO = [(0, 0)]
TRI_HEX = _tri_set("hexiamonds")

HEX_CASES = [
    # hexagon of side 2 (7 cells): a monohex and three dihexes: symmetric solutions
    ("hexagon-2 mono+3 dihexes", _hexagon(2), [("H1", MONO, 1, False), ("I2", I2, 3, False)]),
    # the same board with two trihexes and a monohex
    ("hexagon-2 A3+V3+H1", _hexagon(2), [("A3", _hex_set("trihexes")["A3"], 1, False),
                                          ("V3", _hex_set("trihexes")["V3"], 1, False), ("H1", MONO, 1, False)]),
    # a 3 x 4 parallelogram in six dihexes (a repeated piece)
    ("parallelogram 3x4 dihexes", {(q, r) for q in range(3) for r in range(4)}, [("I2", I2, 6, False)]),
    # a 4 x 3 parallelogram in three copies of a chiral tetrahex
    ("parallelogram 4x3 P4x3", {(q, r) for q in range(4) for r in range(3)},
     [("P4", _hex_set("tetrahexes")["P4"], 3, False)]),
    # a 4 x 2 parallelogram in two J4: its one solution is symmetric
    ("parallelogram 4x2 J4x2", {(q, r) for q in range(4) for r in range(2)},
     [("J4", _hex_set("tetrahexes")["J4"], 2, False)]),
]

TRI_CASES = [
    # the hexagon of 6 triangles in three diamonds: symmetric solutions
    ("hexagon-1 diamonds", {(1, 1), (2, -1), (-1, 2), (-2, 1), (-1, -1), (1, -2)},
     [("D2", [(1, 1), (2, 2)], 3, False)]),
    # a 2 x 3 rhombus (12 triangles) in four triamonds
    ("rhombus 2x3 triamonds", {(k + 3 * i, k + 3 * j) for i in range(3) for j in range(2) for k in (1, 2)},
     [("I3", [(1, 1), (2, 2), (4, 1)], 4, False)]),
    # the hexagon of side 2 (24 triangles) in two of each tetriamond
    ("hexagon-2 tetriamonds x2", None, [(n, c, 2, False) for n, c, _ in standard_set(TRI, "tetriamonds")]),
    # a 2 x 3 rhombus in two copies of a chiral hexiamond that may not flip:
    # the rhombus's mirrors are no symmetries of this puzzle
    ("rhombus 2x3 one-sided F6x2", {(k + 3 * i, k + 3 * j) for i in range(2) for j in range(3) for k in (1, 2)},
     [("F6", TRI_HEX["F6"], 2, True)]),
    # the hexagon of side 2 in the one-sided tetriamonds, C4 and T4 twice (24 cells)
    ("hexagon-2 one-sided tetriamonds", None,
     [(n, c, 1 if n.startswith("I") else 2, True) for n, c, _ in standard_set(TRI, "one-sided-tetriamonds")]),
]


def _tri_hexagon(n):
    dist = lambda i, j: max(abs(i), abs(j), abs(i + j))
    return {(k + 3 * i, k + 3 * j) for i in range(-n, n + 1) for j in range(-n, n + 1)
            for k, cs in ((1, ((0, 0), (1, 0), (0, 1))), (2, ((1, 0), (0, 1), (1, 1))))
            if all(dist(i + a, j + b) <= n for a, b in cs)}


@pytest.mark.parametrize("lat,case", [(HEX, c) for c in HEX_CASES] + [(TRI, c) for c in TRI_CASES],
                         ids=[c[0] for c in HEX_CASES + TRI_CASES])
def test_unique_counts_match_brute_force(lat, case):
    _, board, pieces = case
    board = board if board is not None else _tri_hexagon(2)
    assert len(board) == sum(len(c) * k for _, c, k, _ in pieces)
    raw, orbits, nsym = _brute_force(lat, board, pieces)
    assert raw > 0
    puzzle = _tiling(lat, board, pieces)
    assert len(puzzle.compile().symmetries) == nsym
    exact = get_backend("exact")
    assert jobs.count(puzzle, exact).count == raw
    assert jobs.count(puzzle, exact, unique=True).count == orbits
    assert jobs.count(puzzle, get_backend("cadical195"), unique=True).count == orbits


def test_the_brute_force_cases_include_symmetric_solutions():
    """Burnside/orbit counting is only tested where it matters: some
    orbits are smaller than the board's symmetry group."""
    symmetric = 0
    for lat, (_, board, pieces) in [(HEX, c) for c in HEX_CASES] + [(TRI, c) for c in TRI_CASES]:
        raw, orbits, nsym = _brute_force(lat, board if board is not None else _tri_hexagon(2), pieces)
        symmetric += raw < orbits * nsym
    assert symmetric >= 3


def test_triangle_hexagon_has_6n2_triangles_and_12_symmetries():
    assert _tri_hexagon(1) == TRI_CASES[0][1]
    for n in (1, 2, 3):
        board = _tri_hexagon(n)
        assert len(board) == 6 * n * n
    t = _tiling(TRI, _tri_hexagon(2), [(n, c, 2, False) for n, c, _ in standard_set(TRI, "tetriamonds")])
    assert len(t.compile().symmetries) == 12
