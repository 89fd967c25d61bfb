"""Colouring arguments in the tiling precheck: the mutilated chessboard and
its kin are answered "no solution" with the reason, without a search, and a
refutation is never wrong (checked against the brute-force tiler of
test_jobs, which shares nothing with the placement generator)."""

from __future__ import annotations

import itertools
import random

import pytest

from puzzlesat.models.tiling.boxfile import load as load_box
from puzzlesat.models.tiling.colouring import PERIOD, _reachable, colourings
from puzzlesat.models.tiling.lattice import LATTICES, get_lattice

from ...test_jobs import BOX_PIECES, _box_text, brute_tilings


def _mutilated(tmp_path, n):
    f = tmp_path / f"mutilated{n}.toml"
    f.write_text(f'[board]\nsize = [{n}, {n}]\nholes = [[1, 1], [{n}, {n}]]\n'
                 f'[[pieces]]\nname = "domino"\ncells = [[1, 1], [1, 2]]\ncount = {(n * n - 2) // 2}\n')
    return f


CHECKERBOARD = ("colour each cell by the sum of its coordinates mod 2 (a checkerboard): the board has "
                "48 cells of colour 0 and 50 of colour 1, but each domino covers 1 of colour 0 and 1 "
                "of colour 1 wherever it lies")


@pytest.mark.parametrize("engine", ["exact", "cadical195"])
def test_the_mutilated_chessboard_has_no_solution_by_its_colouring_without_a_search(cli, tmp_path, engine):
    # 10 x 10: the exact-cover engine searched for more than a minute
    f = _mutilated(tmp_path, 10)
    r = cli("solve", f, "-b", engine)
    assert (r.code, r.out.splitlines()) == (1, [f"no solution: {CHECKERBOARD}"])
    d = cli("count", f, "-b", engine, "--json").json()
    assert (d["count"], d["complete"], d["method"], d["reason"]) == (0, True, "precheck", CHECKERBOARD)


def test_a_colouring_counts_pieces_that_cover_either_balance(cli, tmp_path):
    # 4x4 without two opposite corners by one L tetromino (covers 2 and 2)
    # and two V trominoes and two dominoes: balanced with a V of each kind,
    # so no refutation; the count says 0 or more by search, not by colouring
    f = tmp_path / "mixed.toml"
    f.write_text('[board]\nsize = [4, 4]\nholes = [[1, 1], [4, 4]]\n[[pieces]]\nname = "L"\n'
                 'cells = [[1, 1], [2, 1], [3, 1], [3, 2]]\n[[pieces]]\nname = "V"\n'
                 'cells = [[1, 1], [2, 1], [2, 2]]\ncount = 2\n[[pieces]]\nname = "D"\n'
                 'cells = [[1, 1], [1, 2]]\ncount = 2\n')
    d = cli("count", f, "-b", "exact", "--json").json()
    assert d["method"] != "precheck" and d["count"] > 0


def test_up_and_down_triangles_refute_diamonds_on_an_unbalanced_board(cli, tmp_path):
    # line 0: up, down, up, down, up; line 1, column 1: up: 4 up and 2 down
    f = tmp_path / "tri.toml"
    f.write_text('lattice = "triangle"\n[board]\nart = """\nXXXXX\n.X\n"""\n'
                 '[[pieces]]\nset = "diamonds"\ncount = 3\n')
    r = cli("solve", f)
    assert r.code == 1 and r.out.startswith(
        "no solution: colour each cell by whether it points down (0) or up (1): the board has ")
    assert r.out.rstrip().endswith("but each D2 covers 1 of colour 0 and 1 of colour 1 wherever it lies")


def test_no0_circles_and_gaps_are_counted_apart(cli, tmp_path):
    # one circle and its three upper gaps, against two one-bump pieces (two circles)
    f = tmp_path / "n.toml"
    f.write_text('lattice = "no0"\n[board]\nart = """\n###\n o\n"""\n[[pieces]]\nname = "b"\n'
                 'art = """\n #\n o\n"""\ncount = 2\n')
    r = cli("solve", f)
    assert (r.code, r.out.splitlines()) == (1, [
        "no solution: colour each cell by whether it is a circle (0) or a gap (1): the board has 1 cell "
        "of colour 0 and 3 of colour 1, but each b covers 1 of colour 0 and 1 of colour 1 wherever it lies"])


SOUNDNESS_PIECES = ["D", "V", "I", "L", "O", "M"]


def test_a_colouring_never_refutes_a_board_that_has_a_tiling():
    # random small boards with holes: every refutation is checked against
    # the brute-force tiler; the boards are drawn so that refutations occur
    rng = random.Random(17)
    refuted = solvable = 0
    for _ in range(400):
        rows, cols = rng.randint(2, 4), rng.randint(2, 5)
        cells = list(itertools.product(range(rows), range(cols)))
        holes = tuple(rng.sample(cells, rng.randint(0, 3)))
        area = rows * cols - len(holes)
        counts: dict[str, int] = {}
        left = area
        while left:
            n = rng.choice([p for p in SOUNDNESS_PIECES if len(BOX_PIECES[p]) <= left and p != "M"] or ["M"])
            counts[n] = counts.get(n, 0) + 1
            left -= len(BOX_PIECES[n])
        puzzle = load_box(_box_text(rows, cols, holes, counts), "case.box")
        why = puzzle.precheck()
        tilings = brute_tilings(rows, cols, set(holes), {n: (BOX_PIECES[n], k) for n, k in counts.items()})
        if why and "colour" in why:
            refuted += 1
            assert tilings == [], (rows, cols, holes, counts, why)
        solvable += bool(tilings)
    assert refuted >= 20 and solvable >= 20, (refuted, solvable)


def _random_options(rng, m: int) -> list:
    """1-3 pieces, each (name, 1-3 copies, 1-3 count vectors over m colours
    of one size 1-4): what _reachable takes."""
    options = []
    for _p in range(rng.randint(1, 3)):
        size = rng.randint(1, 4)
        sigs = set()
        for _s in range(rng.randint(1, 3)):
            v = [0] * m
            for _c in range(size):
                v[rng.randrange(m)] += 1
            sigs.add(tuple(v))
        options.append(("p", rng.randint(1, 3), sigs))
    return options


def _plain_sums(options, m: int, every_copy: bool) -> set:
    """Every count vector the options reach, as a plain set: each piece used
    its count times (``every_copy``), or any number of times up to it."""
    sums = {(0,) * m}
    for _n, count, sigs in options:
        for _c in range(count):
            step = {tuple(a + b for a, b in zip(x, d)) for x in sums for d in sigs}
            sums = step if every_copy else sums | step
    return sums


def test_the_subset_sum_of_count_vectors_matches_a_plain_set_of_sums():
    rng = random.Random(3)
    for _ in range(500):
        m = rng.choice([2, 3, 4])
        options = _random_options(rng, m)
        sums = _plain_sums(options, m, every_copy=True)
        # half the targets reachable by construction, half random of the right area
        target = rng.choice(sorted(sums))
        if rng.random() < 0.5:
            t = [0] * m
            for _c in range(sum(target)):
                t[rng.randrange(m)] += 1
            target = tuple(t)
        assert _reachable(target, options) == (target in sums), (target, options)


@pytest.mark.parametrize("name", list(LATTICES))
def test_every_colouring_repeats_with_the_period_the_check_relies_on(name):
    # the check keeps one placement per orientation and first cell modulo
    # PERIOD: sound only if each colouring repeats under those translations
    lat = get_lattice(name)
    assert colourings(lat)
    rng = random.Random(5)
    for col in colourings(lat):
        for _ in range(200):
            p = tuple(rng.randint(-20, 20) for _ in range(lat.dim))
            if not lat.is_cell(p):
                continue
            v = tuple(PERIOD * rng.randint(-3, 3) for _ in range(lat.dim))
            q = tuple(a + b for a, b in zip(p, v))
            assert col.of(p) == col.of(q) and 0 <= col.of(p) < col.colours


def test_a_board_of_separate_regions_is_checked_region_by_region(cli, tmp_path):
    # two mutilated 8x8 boards side by side, corners of opposite colours
    # missing: balanced as a whole; the exact-cover engine searched one for
    # more than a minute
    f = tmp_path / "halves.toml"
    f.write_text('[board]\nsize = [8, 17]\nholes = [' + "".join(f"[{i}, 9], " for i in range(1, 9))
                 + '[1, 1], [8, 8], [1, 10], [8, 17]]\n[[pieces]]\nset = "dominoes"\ncount = 62\n')
    r = cli("solve", f, "-b", "exact")
    assert (r.code, r.out.splitlines()) == (1, [
        "no solution: the board falls into 2 separate regions; colour each cell by the sum of its coordinates "
        "mod 2 (a checkerboard): the one at (1,2) has 30 cells of colour 0 and 32 of colour 1, and no choice "
        "among the pieces covers that"])
    # a region whose area no choice of the pieces has: 4 cells, and a domino and a straight tromino
    f = tmp_path / "area.toml"
    f.write_text('[board]\nsize = [1, 6]\nholes = [[1, 5]]\n[[pieces]]\nname = "I"\n'
                 'cells = [[1, 1], [1, 2], [1, 3]]\n[[pieces]]\nname = "d"\ncells = [[1, 1], [1, 2]]\n')
    r = cli("solve", f, "-b", "exact")
    assert (r.code, r.out.splitlines()) == (1, [
        "no solution: the board falls into 2 separate regions; the one at (1,1) has 4 cells, and no choice "
        "among the pieces has that area and fits in it"])


def test_the_regions_sub_multiset_sums_match_a_plain_set_of_sums():
    rng = random.Random(4)
    for _ in range(300):
        m = rng.choice([1, 2, 3])
        options = _random_options(rng, m)
        sums = _plain_sums(options, m, every_copy=False)
        target = tuple(rng.randint(0, 6) for _ in range(m))
        if rng.random() < 0.5:
            target = rng.choice(sorted(sums))
        assert _reachable(target, options, every_copy=False) == (target in sums), (target, options)


def test_colours_are_those_of_the_file_coordinates():
    # the message's "colour 0" is what a reader works out from the file's
    # 1-based coordinates: on a line, file position 1 is odd, colour 1
    from puzzlesat.models.tiling.colouring import colourings as cols

    line = get_lattice("line")
    check = cols(line)[0]
    assert check.what == "its position mod 2" and check.of((0,)) == 1  # file position 1
    cube = get_lattice("cubic")
    assert cols(cube)[0].of((0, 0, 0)) == 1  # file (1, 1, 1): sum 3
    assert cols(get_lattice("square"))[0].of((0, 0)) == 0  # file (1, 1): sum 2
