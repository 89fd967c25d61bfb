"""Orientations, placements and symmetries on the square/cubic lattices."""

from __future__ import annotations

import pytest

from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.geometry import orientations, polyforms
from puzzlesat.models.tiling.lattice import CubicLattice
from puzzlesat.models.tiling.standard import standard_set


def _info(name):
    t = load_puzzle(name)
    p = t.compile()
    return {r["name"]: r for r in t.info(p)["pieces"]}, p


def test_z_has_12_orientations_in_the_3x4x5_box():
    info, _ = _info("pentomino-3x4x5")
    assert info["Z"]["orientations"] == 12
    # every pentomino lives in the box; the X's 3 orientations are the 3 planes
    assert info["X"]["orientations"] == 3


def test_f_has_8_orientations_in_2d_and_placement_counts_of_6x10():
    info, problem = _info("pentomino-6x10")
    assert info["F"]["orientations"] == 8
    assert info["X"]["orientations"] == 1 and info["I"]["orientations"] == 2
    # X: a 3x3 cross centred anywhere inside a 6x10 box: 4 * 8 centres
    assert info["X"]["placements"] == 32
    assert problem.n_vars == 2056  # the figure solver-notes.md quotes for 6x10


def test_one_sided_piece_has_only_rotations():
    lat = CubicLattice(2)
    f = standard_set(lat, "pentominoes")
    cells = dict((n, c) for n, c, _ in f)["F"]
    assert len(orientations(lat, cells, lat.rotations)) == 4
    assert len(orientations(lat, cells, lat.point_group)) == 8


@pytest.mark.parametrize("n,free,one_sided", [(1, 1, 1), (2, 1, 1), (3, 2, 2), (4, 5, 7), (5, 12, 18), (6, 35, 60)])
def test_polyomino_counts(n, free, one_sided):
    lat = CubicLattice(2)
    assert len(polyforms(lat, n)) == free
    assert len(polyforms(lat, n, one_sided=True)) == one_sided


def test_polycube_counts():
    # free polycubes in 3-D where mirror images count as the same (point group with reflections)
    lat = CubicLattice(3)
    assert [len(polyforms(lat, n)) for n in (1, 2, 3, 4)] == [1, 1, 2, 7]
    # one-sided (rotations only): the chiral tetracube pair counts twice
    assert len(polyforms(lat, 4, one_sided=True)) == 8


def test_standard_set_names():
    lat = CubicLattice(2)
    assert [n for n, _, _ in standard_set(lat, "pentominoes")] == list("FILNPTUVWXYZ")
    names = [n for n, _, _ in standard_set(lat, "one-sided-tetrominoes")]
    assert names == ["I4", "L4", "L4'", "O4", "S4", "S4'", "T4"]


@pytest.mark.parametrize("name,syms", [("pentomino-6x10", 4), ("pentomino-8x8-hole", 8), ("pentomino-3x4x5", 8),
                                       ("pentomino-2x5x6", 8),
                                       # 16 axis flips times the swap of the two axes of length 2
                                       ("pentomino-5x3x2x2", 32)])
def test_board_symmetry_group_sizes(name, syms):
    _, p = _info(name)
    assert len(p.symmetries) == syms


def test_transform_a_coordinate_at_a_time_equals_the_matrix_product():
    # transform works column by column (a drawn 700 x 700 piece's
    # orientations took seconds point by point): every matrix, including
    # entries other than 0 and +-1, and the empty shape
    import random

    from puzzlesat.models.tiling.geometry import transform
    from puzzlesat.models.tiling.lattice import apply

    rnd = random.Random(7)
    for d in range(1, 5):
        for _ in range(100):
            m = tuple(tuple(rnd.randint(-2, 2) for _ in range(d)) for _ in range(d))
            pts = [tuple(rnd.randint(-9, 9) for _ in range(d)) for _ in range(rnd.randint(0, 12))]
            assert transform(m, pts) == [apply(m, p) for p in pts]


def test_a_piece_larger_than_the_board_is_never_turned_by_compiling(monkeypatch, tmp_path):
    # its orientations cannot lie on the board: compiling and the symmetries
    # skipped nothing but that work (a drawn 700 x 700 piece took ~10 s
    # before "the pieces cover 490,000 cells but the board has 16")
    from puzzlesat.models.tiling import puzzle as tiling_puzzle

    f = tmp_path / "big.toml"
    f.write_text('[board]\nsize = [2, 2]\n[[pieces]]\nname = "P"\nart = """\n###\n##\n"""\n'
                 '[[pieces]]\nname = "I"\ncells = [[1, 1], [1, 2]]\n')
    t = load_puzzle(str(f))
    turned = []
    real = tiling_puzzle.orientations

    def spy(lattice, cells, group):
        turned.append(len(cells))
        return real(lattice, cells, group)

    monkeypatch.setattr(tiling_puzzle, "orientations", spy)
    problem = t.compile()
    assert turned == [2]  # the domino only
    assert t.precheck() == "the pieces cover 7 cells but the board has 4 free cells"
    assert len(problem.primary) == 4 and len(problem.symmetries) == 8  # the square's, the P being nowhere


def _random_symmetric_board(rng) -> str:
    """A .toml board with symmetries to find: a square, rectangle, cubic or
    hexagon board with holes closed under a random set of its maps (or
    none), pieces one-sided or not, some repeated."""
    kind = rng.choice(["square", "rect", "cubic", "hex", "triangle"])
    if kind in ("square", "rect"):
        m = rng.randint(3, 7)
        n = m if kind == "square" else rng.randint(3, 7)
        holes = set()
        for _ in range(rng.randint(0, 3)):
            i, j = rng.randint(1, m), rng.randint(1, n)
            holes |= {(i, j), (m + 1 - i, n + 1 - j)}  # the half turn's pairs
            if rng.random() < 0.5 and m == n:
                holes |= {(j, m + 1 - i), (m + 1 - j, i)}  # and the quarter turns'
        spec = f"holes = [{', '.join(f'[{i}, {j}]' for i, j in sorted(holes))}]\n" if holes else ""
        one = str(rng.random() < 0.3).lower()
        return (f'[board]\nsize = [{m}, {n}]\n{spec}[[pieces]]\nset = "tetrominoes"\none_sided = {one}\n'
                '[[pieces]]\nset = "dominoes"\ncount = 2\n')
    if kind == "cubic":
        a, b, c = rng.randint(2, 3), rng.randint(2, 4), rng.randint(2, 4)
        return f'[board]\nsize = [{a}, {b}, {c}]\nholes = [[1, 1, 1]]\n[[pieces]]\nset = "trominoes"\n'
    if kind == "hex":
        return f'lattice = "hex"\n[board]\nhexagon = {rng.randint(2, 4)}\n[[pieces]]\nset = "trihexes"\n'
    return f'lattice = "triangle"\n[board]\nhexagon = {rng.randint(1, 3)}\n[[pieces]]\nset = "tetriamonds"\n'


def test_the_array_route_finds_the_same_symmetries(monkeypatch):
    # from ARRAYS_FROM cells (and placements) numpy finds the board's maps
    # and the placements' images (300 x 300 dominoes: 6.2 -> 2.6 s compile);
    # forced on every board here, each must be what the point-by-point
    # route finds, in the same order
    import random

    from puzzlesat.loading import bundled
    from puzzlesat.models.tiling import geometry
    from puzzlesat.models.tiling.tomlfile import load as load_toml

    import numpy as np

    from puzzlesat.models.tiling import puzzle

    rng = random.Random(5)
    boards = [load_puzzle(n) for n, p in sorted(bundled().items()) if p.suffix in (".box", ".toml")]
    boards += [load_toml(_random_symmetric_board(rng), "b.toml") for _ in range(40)]
    found = []
    keyed = puzzle._cell_weights
    for board in boards:
        seen = []
        # (the last with every set of cells one key: rows looked up as bytes)
        for at, weights in ((10 ** 9, keyed), (0, keyed), (0, lambda n: np.zeros(n, dtype=np.uint64))):
            monkeypatch.setattr(geometry, "ARRAYS_FROM", at)
            monkeypatch.setattr(puzzle, "_cell_weights", weights)
            board._problem = None
            problem = board.compile()
            seen.append((geometry.board_symmetries(board.lattice, board.board, board.holes), problem.symmetries))
        assert seen[0] == seen[1] == seen[2], board.title
        found.append(len(seen[0][1]))
    # boards with no symmetry but the identity, and groups of 2 to 32 maps (the 4-D box)
    assert {1, 2, 4, 8, 12, 32} <= set(found), sorted(set(found))


def test_placements_are_found_by_their_cells_when_keys_collide():
    # a row's key is its cells' random numbers summed; two sets of cells
    # with one key are told apart by the cells themselves
    import numpy as np

    from puzzlesat.models.tiling.puzzle import _RowIndex

    weight = np.array([1, 2, 3, 4], dtype=np.uint64)
    rows = np.array([[0, 3], [0, 1]])
    index = _RowIndex(rows, weight)
    assert index.exact  # keys 5 and 3
    assert index.find(np.array([[1, 0], [3, 0]]), np.sort(rows, axis=1)).tolist() == [1, 0]
    # {1, 2} has {0, 3}'s key, and is no row
    assert index.find(np.array([[2, 1]]), np.sort(rows, axis=1)) is None
    assert not index.exact
    assert index.find(np.array([[3, 0], [0, 1]]), np.sort(rows, axis=1)).tolist() == [0, 1]
    # rows that share a key: the rows are the keys from the start
    rows = np.array([[1, 2], [0, 3]])
    index = _RowIndex(rows, weight)
    assert not index.exact
    assert index.find(np.array([[3, 0], [2, 1]]), np.sort(rows, axis=1)).tolist() == [1, 0]
    assert index.find(np.array([[0, 2]]), np.sort(rows, axis=1)) is None
