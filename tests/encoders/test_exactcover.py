"""Problem -> exact cover: checked without a solver.

Each case's exact covers are found by brute force over sets of options and
mapped back to variables; the union over the cases must be exactly the set of
assignments that satisfy the Problem (brute force over all 2^n).
"""

from __future__ import annotations

import itertools
import random

import pytest

from puzzlesat.encoders.exactcover import MAX_CASES, NotExactCover, exact_cover, unsupported_reason
from puzzlesat.problem import Automaton, Clause, Problem, equalities

from tests.backends.test_exactcover import brute_force, dominoes


# ------------------------------------------------------------------ helpers


def covers(case) -> list[frozenset]:
    """Every exact cover of one case, by brute force over sets of options."""
    found = []
    n = len(case.options)
    for bits in itertools.product((0, 1), repeat=n):
        chosen = [o for o in range(n) if bits[o]]
        hits = [0] * len(case.items)
        for o in chosen:
            for j in case.options[o]:
                hits[j] += 1
        if all((h == m) if primary else (h <= 1) for h, (m, primary) in zip(hits, case.items)):
            found.append(case.solution(chosen))
    return found


def translated(problem: Problem) -> list[frozenset]:
    return [s for case in exact_cover(problem) for s in covers(case)]


def random_problem(rng: random.Random, n: int) -> Problem:
    """A random problem made only of shapes the translation supports."""
    p = Problem()
    vs = [p.var(i) for i in range(n)]
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["one", "k", "amo", "amo"])
        group = rng.sample(vs, rng.randint(1, n))
        if kind == "one":
            p.exactly_one(group)
        elif kind == "k":
            p.exactly(rng.randint(0, min(3, len(group))), group)
        else:
            p.at_most_one(group)
    for _ in range(rng.randint(0, 2)):
        a, b = rng.sample(vs, 2)
        p.add(Clause((-a, b)))
        p.add(Clause((a, -b)))
    if rng.random() < 0.3:
        p.clause([rng.choice(vs) * rng.choice((1, -1))])
    if rng.random() < 0.2:
        a, b = rng.sample(vs, 2)
        p.clause([-a, -b])
    return p


# -------------------------------------------------------------------- tests


def test_dominoes_become_one_plain_case():
    p = dominoes(2, 3)
    (case,) = exact_cover(p)
    assert len(case.options) == 7 and case.items == [(1, True)] * 6
    assert not case.needs_multiplicity
    assert sorted(map(sorted, covers(case))) == sorted(map(sorted, brute_force(p)))
    assert len(covers(case)) == 3


def test_exactly_k_is_a_multiplicity_item():
    p = Problem()
    xs = [p.var(i) for i in range(4)]
    p.exactly(2, xs)
    (case,) = exact_cover(p)
    assert case.items == [(2, True)] and case.needs_multiplicity
    assert len(translated(p)) == 6


def test_at_most_one_is_secondary_and_undecided_options_get_a_dummy():
    p = Problem()
    a, b, c = p.var("a"), p.var("b"), p.var("c")
    p.at_most_one([a, b])
    (case,) = exact_cover(p)
    assert (1, False) in case.items
    # a, b, c are decided by no primary item: each gets a "false" dummy option
    assert sum(1 for m in case.members if not m) == 3
    assert set(translated(p)) == brute_force(p)
    assert len(brute_force(p)) == 6  # {}, a, b times c free


def test_unit_clauses_remove_and_force_options():
    p = dominoes(2, 4)
    first = p.primary[0]
    removed = p.with_constraints([Clause((-first,))])
    forced = p.with_constraints([Clause((first,))])
    assert all(first not in m for case in exact_cover(removed) for m in case.members)
    assert set(translated(removed)) == brute_force(removed)
    assert set(translated(forced)) == brute_force(forced)
    assert len(translated(removed)) + len(translated(forced)) == 5


def test_contradictory_units_mean_no_case():
    p = dominoes(2, 2)
    v = p.primary[0]
    assert exact_cover(p.with_constraints([Clause((v,)), Clause((-v,))])) == []


def test_equalities_merge_options():
    # 2x4 dominoes fixed by the 180-degree rotation
    p = dominoes(2, 4)
    rot = {}
    for v in p.primary:
        _, (r1, c1), (r2, c2) = p.meaning(v)
        rot[v] = p.lookup(("domino", *sorted([(1 - r2, 3 - c2), (1 - r1, 3 - c1)])))
    fixed = p.with_constraints(equalities(rot))
    (case,) = exact_cover(fixed)
    assert any(len(m) == 2 for m in case.members)
    assert set(translated(fixed)) == brute_force(fixed)
    assert len(brute_force(fixed)) == 3  # all-vertical, all-horizontal, vertical-ends


def test_weighted_multiplicity_item_splits_into_cases():
    # exactly 2 of 4, with x1 == x2: {x1, x2} or {x3, x4}
    p = Problem()
    xs = [p.var(i) for i in range(4)]
    p.exactly(2, xs)
    q = p.with_constraints(equalities({xs[0]: xs[1], xs[1]: xs[0]}))
    cases = exact_cover(q)
    assert len(cases) == 2
    assert sorted(map(sorted, translated(q))) == [[1, 2], [3, 4]]


def test_merged_option_covering_a_cell_twice_is_dropped():
    p = Problem()
    a, b, c = p.var("a"), p.var("b"), p.var("c")
    p.exactly_one([a, b, c])
    q = p.with_constraints(equalities({a: b, b: a}))
    (case,) = exact_cover(q)
    assert [m for m in case.members if m] == [(c,)]
    assert set(translated(q)) == brute_force(q) == {frozenset({c})}


@pytest.mark.parametrize("seed", range(300))
def test_random_problems_match_brute_force(seed):
    rng = random.Random(seed)
    p = random_problem(rng, rng.randint(2, 7))
    got = translated(p)
    assert len(got) == len(set(got)), "cases must not share solutions"
    assert set(got) == brute_force(p)


def random_split_problem(rng: random.Random, n: int) -> Problem:
    """Multiplicity items with equalities, so merged options get weights > 1."""
    p = Problem()
    vs = [p.var(i) for i in range(n)]
    for _ in range(rng.randint(1, 2)):
        group = rng.sample(vs, rng.randint(3, n))
        p.exactly(rng.randint(2, min(4, len(group))), group)
    if rng.random() < 0.5:
        p.exactly_one(rng.sample(vs, rng.randint(1, n)))
    for _ in range(rng.randint(1, 3)):
        a, b = rng.sample(vs, 2)
        p.add(Clause((-a, b)))
        p.add(Clause((a, -b)))
    return p


@pytest.mark.parametrize("seed", range(150))
def test_random_weighted_splits_match_brute_force(seed):
    rng = random.Random(seed)
    p = random_split_problem(rng, rng.randint(4, 8))
    got = translated(p)
    assert len(got) == len(set(got))
    assert set(got) == brute_force(p)


@pytest.mark.parametrize("make, needle", [
    (lambda p, v: p.regular(v[:2], Automaton(((0, 0),), 0, frozenset({0}))), "Regular"),
    (lambda p, v: p.clause([v[0], v[1], v[2]]), "no exact-cover form"),
    (lambda p, v: p.clause([v[0], v[1]]), "at least one of two"),
    (lambda p, v: p.clause([-v[0], v[1]]), "implication without its converse"),
])
def test_unsupported_shapes_say_why(make, needle):
    p = Problem()
    v = [p.var(i) for i in range(3)]
    p.exactly_one(v)
    make(p, v)
    assert needle in unsupported_reason(p)
    with pytest.raises(NotExactCover):
        exact_cover(p)


def test_non_primary_variables_are_refused():
    p = Problem()
    a = p.var("a")
    aux = p.var("aux", primary=False)
    p.exactly_one([a, aux])
    assert "non-primary" in unsupported_reason(p)


def test_supported_problem_has_no_reason():
    assert unsupported_reason(dominoes(3, 4)) is None


def too_many_cases() -> Problem:
    """16 multiplicity items, each split two ways by one equality: 2**16 cases."""
    p = Problem()
    for i in range(16):
        xs = [p.var((i, j)) for j in range(4)]
        p.exactly(2, xs)
        p.add(Clause((-xs[0], xs[1])))
        p.add(Clause((xs[0], -xs[1])))
    return p


def test_too_many_cases_is_refused():
    p = too_many_cases()
    assert 2 ** 16 > MAX_CASES
    with pytest.raises(NotExactCover, match="cases"):
        exact_cover(p)
