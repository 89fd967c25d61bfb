"""Knuth's estimate of a solution count, and the default count engine it picks."""

from __future__ import annotations

import math
import random

import pytest

from puzzlesat import jobs
from puzzlesat.encoders.exactcover import exact_cover
from puzzlesat.estimate import _Tree, estimate_solutions, solution_bound
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.tomlfile import load as load_toml
from puzzlesat.problem import Automaton, Problem

from .backends.test_exactcover import brute_force, dominoes, random_problem, two_kinds


class _Replay:
    """A stand-in for random.Random that takes the choices of a given path
    (then the first option), recording the branching degrees."""

    def __init__(self, path):
        self.path, self.taken, self.degrees = path, [], []

    def choice(self, seq):
        i = self.path[len(self.taken)] if len(self.taken) < len(self.path) else 0
        self.taken.append(i)
        self.degrees.append(len(seq))
        return seq[i]


def solution_leaves(tree: _Tree) -> int:
    """Walk every descent path; count those that end in a solution.  The
    estimator is unbiased exactly when this equals the number of solutions
    (each solution is the end of one path, and its estimate is then the
    product of the degrees, which is 1 / its probability)."""
    leaves, path = 0, []
    while True:
        rng = _Replay(path)
        value = tree.descend(rng)
        product = 1
        for d in rng.degrees:
            product *= d
        if value:
            assert value == product
            leaves += 1
        taken, degrees = rng.taken, rng.degrees
        j = len(taken) - 1
        while j >= 0 and taken[j] == degrees[j] - 1:
            j -= 1
        if j < 0:
            return leaves
        path = taken[:j] + [taken[j] + 1]


def choose(k, n):
    p = Problem()
    p.exactly(k, [p.var(i) for i in range(n)])
    return p


@pytest.mark.parametrize("problem, n", [(dominoes(4, 4), 36), (dominoes(3, 6), 41), (two_kinds(3, 4, 11), 35),
                                        (choose(2, 4), 6), (choose(3, 6), 20)])
def test_every_solution_ends_exactly_one_descent(problem, n):
    # two_kinds has multiplicity items (Exactly(3), Exactly(4)): C(7, 3) = 35 orders;
    # choose(k, n) branches on its multiplicity item k times: C(n, k) sets, not n!/(n-k)! sequences
    assert sum(solution_leaves(_Tree(ec)) for ec in exact_cover(problem)) == n


@pytest.mark.parametrize("seed", range(25))
def test_every_solution_ends_exactly_one_descent_on_random_covers(seed):
    # multiplicities, secondary items, equalities and units
    rng = random.Random(seed)
    p = random_problem(rng, rng.randint(2, 8))
    assert sum(solution_leaves(_Tree(ec)) for ec in exact_cover(p)) == len(brute_force(p))


def test_estimates_a_loose_cover_closely_and_reproducibly():
    e = estimate_solutions(dominoes(6, 6), descents=2000)
    assert e.hit_rate == 1.0 and e.descents == 2000
    assert 0.9 * 6728 < e.solutions < 1.1 * 6728
    assert estimate_solutions(dominoes(6, 6), descents=50) == estimate_solutions(dominoes(6, 6), descents=50)


def test_a_spent_budget_stops_after_one_batch():
    e = estimate_solutions(dominoes(8, 8), batch=16, budget=0.0)
    assert e.descents == 16 and e.hit_rate == 1.0


def test_stops_in_the_first_batch_once_most_of_its_descents_have_died():
    # 9 dead descents of 16 settle it: the batch would end below the hit
    # rate whatever its last ones did (the rest of the batch was 7 more
    # descents: 7 ms of a pentomino box's engine choice)
    e = estimate_solutions(load_puzzle("pentomino-6x10").compile(), batch=16)
    hits = round(e.hit_rate * e.descents)
    assert e.descents <= 16 and e.descents - hits == 9 and e.hit_rate < 0.5


def test_no_estimate_for_a_problem_that_is_not_an_exact_cover():
    p = Problem()
    v = [p.var(i) for i in range(3)]
    p.regular(v, Automaton(((0, 1), (0, None)), 0, frozenset({0, 1})))
    assert estimate_solutions(p) is None


# ---------------------------------------------------- the default count engine

def test_count_picks_the_determinant_for_dominoes_and_the_model_counter_for_a_mixed_board():
    t = load_puzzle("dominoes-8x8")
    backend, why = jobs.choose_count_backend(t.compile(), listing=False)
    assert backend.name == "kasteleyn" and why == (
        "the tilings are the perfect matchings of a planar graph (a vertex per cell, an edge per domino; "
        "monominoes' cells summed over): Kasteleyn's determinant counts them without listing them")
    out = jobs.count(t)
    assert (out.count, out.complete, out.backend, out.method) == (12_988_816, True, "kasteleyn", "determinant")
    assert out.choice == why
    # up to symmetry: determinants of the quotient graphs too
    backend, why = jobs.choose_count_backend(t.compile(), listing=False, unique=True)
    assert backend.name == "kasteleyn" and why.endswith("): Burnside's lemma with Kasteleyn's determinant of the "
                                                        "board and of its quotient by each symmetry (the tilings "
                                                        "that symmetry fixes) counts the classes without listing them")
    # with a 2x2 square among the dominoes no determinant counts: Knuth's
    # estimate sends the count to the model counter from MODEL_COUNT_FROM
    # solutions (6x10, about 2e7), and to the exact engine below (6x8, about 1.4e6)
    for size, dominoes, engine, about in (("6, 10", 28, "ganak", "about 2e+07 solutions by Knuth's estimate"),
                                          ("6, 8", 22, "exact", None)):
        mixed = load_toml(f'[board]\nsize = [{size}]\n[[pieces]]\nset = "dominoes"\ncount = {dominoes}\n'
                          '[[pieces]]\ncells = [[1, 1], [1, 2], [2, 1], [2, 2]]\nname = "O"\n', "mixed.toml")
        for unique in (False, True):
            backend, why = jobs.choose_count_backend(mixed.compile(), listing=False, unique=unique)
            assert backend.name == engine and (why or "").startswith(about or ""), (size, unique)
            assert (why is None) == (about is None)


def test_count_enumerates_when_solutions_are_listed_or_few():
    t = load_puzzle("dominoes-8x8")
    backend, why = jobs.choose_count_backend(t.compile(), listing=True)
    assert (backend.name, why) == ("exact", None)
    out = jobs.count(t, limit=3, keep=True)
    assert (out.count, out.complete, out.backend, out.choice) == (3, False, "exact", None)
    assert len({tuple(sorted(s.placements)) for s in out.solutions}) == len(out.solutions) == 3
    for s in out.solutions:
        t.verify(s)
    for name in ("pentomino-6x10", "tetromino-pairs-5x8", "no0", "hexagon-tetrahexes-trihexes"):
        backend, why = jobs.choose_count_backend(load_puzzle(name).compile(), listing=False)
        assert (backend.name, why) == ("exact", None), name


# ----------------------------------------------------- the bound before descents

def random_cover(rng: random.Random) -> Problem:
    """Random options over a few items, ExactlyOne per item (the shape the
    bound counts), sometimes with a piece-like Exactly(k) or an AtMostOne
    over some options."""
    p = Problem()
    n_items, n_opts = rng.randint(1, 7), rng.randint(1, 13)
    opts = [p.var(o) for o in range(n_opts)]
    items: list[list[int]] = [[] for _ in range(n_items)]
    for v in opts:
        for i in rng.sample(range(n_items), rng.randint(1, min(3, n_items))):
            items[i].append(v)
    for vs in items:
        p.exactly_one(vs)
    if rng.random() < 0.4:
        group = rng.sample(opts, rng.randint(1, n_opts))
        p.exactly(rng.randint(0, min(3, len(group))), group)
    if rng.random() < 0.3:
        p.at_most_one(rng.sample(opts, rng.randint(1, n_opts)))
    return p


def test_the_bound_is_never_below_the_count():
    rng = random.Random(7)
    tight = 0
    for _ in range(300):
        p = random_cover(rng)
        count = len(brute_force(p))
        bound = sum(solution_bound(ec) for ec in exact_cover(p))
        assert bound >= count, p.constraints
        tight += bound == count > 0
    assert tight > 50  # not a bound of inf or of every subset
    # with random equalities, units, multiplicities and secondary items
    for seed in range(60):
        p = random_problem(random.Random(seed), random.Random(seed).randint(2, 8))
        assert sum(solution_bound(ec) for ec in exact_cover(p)) >= len(brute_force(p)), seed
    assert [solution_bound(ec) for ec in exact_cover(dominoes(2, 8))] == [34]
    # an option no counted item holds may be taken or not: no finite bound
    assert solution_bound(exact_cover(choose(2, 4))[0]) == math.inf
    # past a float's range: inf (math.fsum raised OverflowError, and count with it)
    assert solution_bound(exact_cover(dominoes(40, 40))[0]) == math.inf


def test_a_small_cover_is_counted_without_descents(monkeypatch):
    # tetromino-L-4x4's 10 tilings: 128 descents took 7 of the 10 ms the
    # default unique count took; the bound (32,000) settles it at once
    monkeypatch.setattr(_Tree, "descend", lambda self, rng: pytest.fail("a descent was made"))
    t = load_puzzle("tetromino-L-4x4")
    e = estimate_solutions(t.compile(), few=jobs.ENUMERATE_BELOW)
    assert (e.solutions, e.hit_rate, e.descents, e.bounded) == (32_000, 1.0, 0, True)
    for unique in (False, True):
        backend, why = jobs.choose_count_backend(t.compile(), listing=False, unique=unique)
        assert (backend.name, why) == ("exact", None), unique
    out = jobs.count(t, unique=True)
    assert (out.count, out.complete, out.backend, out.choice) == (3, True, "exact", None)


def test_a_bound_past_a_floats_range_still_chooses():
    # 800 dominoes with an encoding named: no determinant, the estimate chooses (it raised; review)
    board = load_toml('[board]\nsize = [40, 40]\n[[pieces]]\nset = "dominoes"\ncount = 800\n', "b.toml").compile()
    backend, why = jobs.choose_count_backend(board, "mixed", listing=False)
    assert backend.name == "ganak" and why.startswith("about "), why


def test_a_cover_the_bound_does_not_settle_is_estimated():
    e = estimate_solutions(dominoes(8, 8), few=jobs.ENUMERATE_BELOW, descents=32, budget=10)
    assert (e.descents, e.bounded) == (32, False)  # its bound is 5.3e10
    assert e.solutions > jobs.ENUMERATE_BELOW  # 12,988,816
