"""PySAT back ends: Kissat, which cannot take a clause after solving, counts
by solving afresh with every blocking clause so far."""

from __future__ import annotations

import pytest

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.loading import load_puzzle

from .test_exactcover import brute_force, random_problem, two_kinds


@pytest.fixture(scope="module")
def kissat():
    return get_backend("kissat404")


def test_kissat_counts_by_restarting(kissat):
    p = two_kinds(3, 4, 11)
    r = kissat.count(p)
    assert (r.count, r.complete, r.stopped_by) == (35, True, None)
    assert r.stats["restarts"] == 35  # one fresh solver per solution found


@pytest.mark.parametrize("seed", range(8))
def test_kissat_counts_random_covers(kissat, seed):
    import random

    p = random_problem(random.Random(seed), 7)
    assert kissat.count(p).count == len(brute_force(p))


def test_kissat_counts_a_tiling_raw_and_up_to_symmetry(kissat):
    t = load_puzzle("pentomino-3x20")
    sols = jobs.count(t, kissat, keep=True).solutions
    assert len(sols) == 8 and len({tuple(sorted(s.placements)) for s in sols}) == 8
    for s in sols:
        t.verify(s)
    assert jobs.count(t, kissat, unique=True).count == 2


def test_kissat_decides_that_a_nonogram_has_two_solutions(kissat):
    t = load_puzzle("twins")
    out = jobs.count(t, kissat, limit=2, keep=True)
    assert (out.count, out.complete) == (2, False)
    a, b = out.solutions
    assert a != b
    t.verify(a)
    t.verify(b)
    assert jobs.count(t, kissat, limit=2, time_limit=30).count == 2  # in a child, under a limit
