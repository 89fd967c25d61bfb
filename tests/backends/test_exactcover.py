"""The "exact" back end (miniexact): counts, solutions, limits, interrupts.

Counts are cross-checked against brute force over all 2^n assignments and
against the PySAT back end.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import signal
import threading

import pytest

from puzzlesat.backends import BackendError, Status, get_backend
from puzzlesat.problem import Automaton, Clause, Problem, equalities

# ------------------------------------------------------------------ helpers (also used by test_ganak)


def dominoes(rows: int, cols: int) -> Problem:
    """Domino tilings of a rows x cols board: one ExactlyOne per cell."""
    p = Problem(fixed_weight=True)
    cover: dict = {}
    for r in range(rows):
        for c in range(cols):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < rows and c2 < cols:
                    v = p.var(("domino", (r, c), (r2, c2)))
                    cover.setdefault((r, c), []).append(v)
                    cover.setdefault((r2, c2), []).append(v)
    for cell in sorted(cover):
        p.exactly_one(cover[cell])
    return p


def rotate180(p: Problem, rows: int, cols: int) -> dict[int, int]:
    """The half-turn of a dominoes() board as a permutation of its variables."""
    perm = {}
    for v in p.primary:
        _, (r1, c1), (r2, c2) = p.meaning(v)
        image = sorted([(rows - 1 - r1, cols - 1 - c1), (rows - 1 - r2, cols - 1 - c2)])
        perm[v] = p.lookup(("domino", *image))
    return perm


def two_kinds(n_a: int, n_b: int, length: int) -> Problem:
    """A 1 x length strip covered by n_a identical monominoes A and n_b
    identical dominoes B: Exactly(k) per piece kind, ExactlyOne per cell."""
    p = Problem(fixed_weight=True)
    cells: dict = {}
    a = [p.var(("A", i)) for i in range(length)]
    b = [p.var(("B", i)) for i in range(length - 1)]
    for i, v in enumerate(a):
        cells.setdefault(i, []).append(v)
    for i, v in enumerate(b):
        cells.setdefault(i, []).append(v)
        cells.setdefault(i + 1, []).append(v)
    p.exactly(n_a, a)
    p.exactly(n_b, b)
    for i in sorted(cells):
        p.exactly_one(cells[i])
    return p


def brute_force(problem: Problem) -> set[frozenset]:
    n = problem.n_vars
    out = set()
    for bits in itertools.product((0, 1), repeat=n):
        true = frozenset(v for v, b in zip(range(1, n + 1), bits) if b)
        if problem.is_satisfied_by(true):
            out.add(true)
    return out


def random_problem(rng: random.Random, n: int) -> Problem:
    """Random exact-cover shapes: ExactlyOne, Exactly(k), AtMostOne, equalities, units."""
    p = Problem()
    vs = [p.var(i) for i in range(n)]
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["one", "k", "k", "amo"])
        group = rng.sample(vs, rng.randint(1, n))
        if kind == "one":
            p.exactly_one(group)
        elif kind == "k":
            p.exactly(rng.randint(0, min(4, len(group))), group)
        else:
            p.at_most_one(group)
    for _ in range(rng.randint(0, 3)):
        a, b = rng.sample(vs, 2)
        p.add(Clause((-a, b)))
        p.add(Clause((a, -b)))
    if rng.random() < 0.3:
        p.clause([rng.choice(vs) * rng.choice((1, -1))])
    return p


@pytest.fixture(scope="module")
def exact():
    return get_backend("exact")


# -------------------------------------------------------------------- counts


@pytest.mark.parametrize("rows, cols, n", [(2, 3, 3), (2, 4, 5), (3, 4, 11), (4, 4, 36), (6, 6, 6728)])
def test_domino_counts(exact, rows, cols, n):
    p = dominoes(rows, cols)
    r = exact.count(p)
    assert (r.count, r.complete, r.stopped_by) == (n, True, None)
    assert r.stats["algorithm"] == "x"
    if rows * cols <= 16:
        assert get_backend("cadical195").count(p).count == n


def test_enumerated_solutions_are_the_brute_force_ones(exact):
    p = dominoes(2, 4)
    r = exact.enumerate(p)
    assert len(r.solutions) == r.count == 5
    assert set(r.solutions) == brute_force(p)


@pytest.mark.parametrize("n_a, n_b, length", [(2, 1, 4), (1, 2, 5), (3, 2, 7), (0, 3, 6), (2, 2, 5)])
def test_repeated_pieces_use_algorithm_m(exact, n_a, n_b, length):
    p = two_kinds(n_a, n_b, length)
    r = exact.count(p)
    assert r.stats["algorithm"] == "m"
    assert r.count == len(brute_force(p)) == get_backend("cadical195").count(p).count


def test_x_refuses_multiplicities():
    assert "more than once" in get_backend("exact", algorithm="x").supports(two_kinds(2, 1, 4))


@pytest.mark.parametrize("algorithm", ["x", "c", "m"])
def test_every_algorithm_counts_plain_covers(algorithm):
    assert get_backend("exact", algorithm=algorithm).count(dominoes(4, 4)).count == 36


def test_secondary_items(exact):
    # cells of a 1x4 strip: each at most once covered by monominoes/dominoes
    p = Problem()
    vs = [p.var(("A", i)) for i in range(4)] + [p.var(("B", i)) for i in range(3)]
    for i in range(4):
        p.at_most_one([vs[i]] + [vs[4 + j] for j in (i - 1, i) if 0 <= j < 3])
    r = exact.enumerate(p)
    assert set(r.solutions) == brute_force(p)
    assert r.count == 29  # partial tilings of a 1x4 strip: f(n) = 2 f(n-1) + f(n-2)


def test_burnside_fixed_points(exact):
    # the 4x4 board's domino tilings fixed by the half-turn
    p = dominoes(4, 4)
    fixed = p.with_constraints(equalities(rotate180(p, 4, 4)))
    want = get_backend("cadical195").count(fixed).count
    assert exact.count(fixed).count == want == 8
    small = dominoes(2, 4)
    fixed_small = small.with_constraints(equalities(rotate180(small, 2, 4)))
    assert set(exact.enumerate(fixed_small).solutions) == brute_force(fixed_small)


def test_burnside_with_repeated_pieces(exact):
    # strip of 2 monominoes + 2 dominoes, fixed by reversal: weighted options
    n = 6
    p = two_kinds(2, 2, n)
    rev = {p.lookup(("A", i)): p.lookup(("A", n - 1 - i)) for i in range(n)}
    rev.update({p.lookup(("B", i)): p.lookup(("B", n - 2 - i)) for i in range(n - 1)})
    fixed = p.with_constraints(equalities(rev))
    r = exact.enumerate(fixed)
    assert set(r.solutions) == brute_force(fixed)
    assert r.count == get_backend("cadical195").count(fixed).count


def test_weighted_options_split_into_cases(exact):
    # exactly 2 of 4 with x1 == x2: the merged option counts 2 toward the item
    p = Problem()
    xs = [p.var(i) for i in range(4)]
    p.exactly(2, xs)
    p.exactly_one([xs[0], xs[2], xs[3]])
    fixed = p.with_constraints(equalities({xs[0]: xs[1], xs[1]: xs[0]}))
    r = exact.enumerate(fixed)
    assert r.stats["cases"] == 2
    assert set(r.solutions) == brute_force(fixed) == {frozenset({1, 2})}


def test_unit_clauses(exact):
    p = dominoes(3, 4)
    v = p.primary[0]
    out = exact.count(p.with_constraints([Clause((-v,))])).count
    into = exact.count(p.with_constraints([Clause((v,))])).count
    assert out + into == 11 and out and into


@pytest.mark.parametrize("seed", range(60))
def test_random_problems(exact, seed):
    rng = random.Random(seed)
    p = random_problem(rng, rng.randint(2, 8))
    want = brute_force(p)
    r = exact.enumerate(p)
    assert len(r.solutions) == len(set(r.solutions)) == r.count
    assert set(r.solutions) == want


def test_no_solution(exact):
    p = dominoes(3, 3)
    r = exact.count(p)
    assert (r.count, r.complete) == (0, True)
    assert exact.solve(p).status is Status.NO_SOLUTION


def test_empty_problem_has_one_solution(exact):
    assert exact.count(Problem()).count == 1


def test_solve(exact):
    p = dominoes(4, 4)
    s = exact.solve(p)
    assert s.status is Status.SOLVED and p.is_satisfied_by(s.assignment)


# ---------------------------------------------------------- stopping early


def test_limit(exact):
    r = exact.count(dominoes(6, 6), limit=100)
    assert (r.count, r.complete, r.stopped_by) == (100, False, "limit")


def test_callback_stops(exact):
    seen = []
    r = exact.count(dominoes(6, 6), on_solution=lambda s: seen.append(s) or len(seen) == 7)
    assert (r.count, r.complete, r.stopped_by) == (7, False, "callback")


@pytest.mark.parametrize("isolate", [True, False])
@pytest.mark.parametrize("make", [lambda: dominoes(3, 4), lambda: two_kinds(2, 2, 6)], ids=["x", "m"])
def test_hand_back_streams_the_matching_solutions_and_counts_all(make, isolate):
    p = make()
    every = brute_force(p)
    a, b, c = p.primary[0], p.primary[-1], p.primary[len(p.primary) // 2]
    sets = [frozenset((a, b)), frozenset((c,))]
    seen = []
    r = get_backend("exact", isolate=isolate).search(p, on_solution=lambda s: seen.append(s) and False,
                                                     hand_back=sets)
    assert (r.count, r.complete) == (len(every), True)
    want = {s for s in every if any(m <= s for m in sets)}
    assert want and len(want) < len(every)  # (the test tells them apart)
    assert sorted(seen, key=sorted) == sorted(want, key=sorted)
    assert r.unsent == len(every) - len(want)
    # kept solutions are those handed back too; a limit still counts every solution
    r = get_backend("exact", isolate=isolate).search(p, keep=True, limit=len(every) - 1, hand_back=sets)
    assert (r.count, r.complete, r.stopped_by) == (len(every) - 1, False, "limit")
    assert set(r.solutions) <= want
    # stopped at the first one handed back, in the middle of its batch: the
    # count holds it; the batch's unsent solutions are not said (a Ctrl-C
    # there must not give solutions not yet weighed the unsent ones' weight)
    r = get_backend("exact", isolate=isolate).search(p, on_solution=lambda s: True, hand_back=sets)
    assert (r.stopped_by, r.count, r.unsent) == ("callback", 1, 0)


def test_hand_back_sets_of_merged_and_of_dropped_variables(exact):
    p = dominoes(2, 4)
    v, w = p.primary[0], p.primary[1]
    fixed = p.with_constraints([Clause((-w,))])  # w is no option: a set naming it never holds
    case, = exact._cases(fixed)
    assert case.option_sets([frozenset((v, w)), frozenset((w,))]) == []
    seen = []
    r = exact.search(fixed, on_solution=lambda s: seen.append(s) and False, hand_back=[frozenset((v, w))])
    assert (r.count, seen) == (len(brute_force(fixed)), [])
    # equal variables are one option: a set of both is that option alone
    half = dominoes(4, 4)
    merged = half.with_constraints(equalities(rotate180(half, 4, 4)))
    u = next(x for x in merged.primary if rotate180(half, 4, 4)[x] != x)
    case, = exact._cases(merged)
    images = case.option_sets([frozenset((u, rotate180(half, 4, 4)[u]))])
    assert len(images) == 1 and len(images[0]) == 1
    every = get_backend("cadical195").enumerate(merged).solutions
    seen = []
    r = exact.search(merged, on_solution=lambda s: seen.append(s) and False, hand_back=[frozenset((u,))])
    assert r.count == len(every) == 8
    assert set(seen) == {s for s in every if u in s} and 0 < len(seen) < 8


def test_time_limit_gives_a_lower_bound(exact):
    # 12,988,816 tilings, ~7 s of work: a limit that did not stop it would end complete
    r = exact.count(dominoes(8, 8), time_limit=0.3)
    assert (r.complete, r.stopped_by) == (False, "time-limit")
    assert 0 < r.count < 12_988_816


def test_time_limit_inline():
    r = get_backend("exact", isolate=False).count(dominoes(8, 8), time_limit=0.2)
    assert (r.complete, r.stopped_by) == (False, "time-limit") and r.count > 0


def test_inline_counts_agree():
    assert get_backend("exact", isolate=False).count(dominoes(6, 6)).count == 6728


def _x_nodes(case) -> int:
    """Nodes of Algorithm X's tree (branching on the first item with the
    fewest options), by plain recursion: small covers only."""
    opts = [set(its) for its in case.options]
    primary = {j for j, (_, p) in enumerate(case.items) if p}

    def walk(open_items, live):
        if not open_items:
            return 1
        item = min(sorted(open_items), key=lambda j: sum(1 for o in live if j in opts[o]))
        n = 1
        for o in [o for o in live if item in opts[o]]:
            n += walk(open_items - opts[o], [q for q in live if not (opts[q] & opts[o])])
        return n

    return walk(frozenset(primary), list(range(len(opts))))


@pytest.mark.parametrize("seed", range(12))
def test_tree_bound_is_an_upper_bound(seed):
    from puzzlesat.backends.exactcover import tree_bound
    from puzzlesat.encoders.exactcover import exact_cover

    rng = random.Random(seed)
    for _ in range(100):  # a problem with an Algorithm X case (the bound is for its tree)
        p = dominoes(rng.randint(1, 4), rng.randint(2, 4)) if seed % 2 else random_problem(rng, rng.randint(2, 8))
        cases = [case for case in exact_cover(p) if not case.needs_multiplicity]
        if cases:
            break
    assert cases
    for case in cases:
        assert _x_nodes(case) <= tree_bound(case)


def test_the_tree_bound_of_a_large_board_is_infinite_not_an_overflow(exact):
    # 32x32 dominoes: b = 4, d = 512; the bound as an int overflowed float()
    # and solve -b exact died with a traceback
    from puzzlesat.backends.exactcover import tree_bound
    from puzzlesat.encoders.exactcover import exact_cover

    p = dominoes(32, 32)
    assert all(tree_bound(case) == math.inf for case in exact_cover(p))
    r = exact.count(p, limit=1)
    assert (r.count, r.complete, r.stopped_by) == (1, False, "limit")


def test_a_provably_tiny_search_runs_inline_a_larger_one_in_a_child(exact):
    r = exact.count(dominoes(2, 4))  # 5 tilings; bound 121 nodes
    assert (r.count, r.stats["isolated"]) == (5, False)
    r = exact.count(dominoes(6, 6))
    assert (r.count, r.stats["isolated"]) == (6728, True)


@pytest.fixture
def python_sigint():
    """Python's own SIGINT handler (KeyboardInterrupt) for the test: a
    shell starts a background job with SIGINT ignored, and Python then
    installs none (the Ctrl-C tests failed in `./test.sh &`)."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


def test_ctrl_c_gives_a_lower_bound(exact, python_sigint):
    problem = dominoes(8, 8)  # built first: the signal must land in the count (~8 s)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        r = exact.count(problem)
    finally:
        timer.cancel()
    assert (r.complete, r.stopped_by) == (False, "interrupted")
    assert 0 < r.count < 12_988_816


def test_ctrl_c_still_a_lower_bound_after_a_cpsat_run(exact, python_sigint):
    # CP-SAT installs its own SIGINT handler and used to leave it behind:
    # the next Ctrl-C killed the process (exit 130) instead of ending the count
    assert get_backend("cpsat").count(dominoes(2, 4)).count == 5
    test_ctrl_c_gives_a_lower_bound(exact, None)



# ------------------------------------------------ counts the others imply


def _box(tmp_path, rows, cols, pieces, count):
    from puzzlesat.loading import load_puzzle

    f = tmp_path / f"{pieces}-{rows}x{cols}.toml"
    f.write_text(f'[board]\nsize = [{rows}, {cols}]\n[[pieces]]\nset = "{pieces}"\ncount = {count}\n')
    return load_puzzle(str(f))


def test_the_count_the_area_implies_is_stated_next_to_other_counts(tmp_path, exact):
    # four of each tetromino in a 4x20 box: the model leaves out I4's count
    # (the area fixes it); without it Algorithm M placed I4 without bound and
    # found no solution in 30 s (QA); stated, the first comes in milliseconds
    from puzzlesat.encoders.exactcover import exact_cover

    puzzle = _box(tmp_path, 4, 20, "tetrominoes", 4)
    problem = puzzle.compile()
    assert [(c.k, {problem.meaning(v).piece for v in c.vars}) for c in problem.redundant] == [(4, {"I4"})]
    (case,) = exact_cover(problem)
    assert sorted(m for m, primary in case.items if primary and m != 1) == [4, 4, 4, 4, 4]
    r = exact.search(problem, limit=1, keep=True, time_limit=60)
    assert r.count == 1
    puzzle.verify(puzzle.decode(problem, r.solutions[0]))
    # alone it bounds nothing, and is left out: dominoes stay Algorithm X
    (case,) = exact_cover(dominoes_box := _box(tmp_path, 4, 4, "dominoes", 8).compile())
    assert dominoes_box.redundant and not case.needs_multiplicity


def test_stating_the_implied_count_changes_no_count(tmp_path, exact):
    # two of each tetromino in a 4x10 box, raw and up to symmetry (Burnside's
    # fixed-point problems merge options: the stated item is weighed too)
    from puzzlesat import jobs

    puzzle = _box(tmp_path, 4, 10, "tetrominoes", 2)
    problem = puzzle.compile()
    bare = problem.with_constraints([], symmetries=problem.symmetries)
    bare.redundant = []
    counts = {}
    for unique in (False, True):
        with_it = jobs.count(puzzle, exact, unique=unique, problem=problem)
        without = jobs.count(puzzle, exact, unique=unique, problem=bare)
        assert with_it.complete and without.complete and with_it.count == without.count
        counts[unique] = with_it.count
    assert counts[False] == 1796
    # and a CNF engine, which never states it, agrees up to symmetry
    cadical = jobs.count(puzzle, get_backend("cadical195"), unique=True, problem=problem, time_limit=120)
    assert (cadical.count, cadical.complete) == (counts[True], True)


# ------------------------------------------------------------------ refusals


def test_unsupported_problem():
    p = Problem()
    v = [p.var(i) for i in range(3)]
    p.regular(v, Automaton(((0, 0),), 0, frozenset({0})))
    b = get_backend("exact")
    assert "Regular" in b.supports(p)
    with pytest.raises(BackendError, match="Regular"):
        b.count(p)


def test_registered():
    from puzzlesat.backends import list_backends

    row = next(r for r in list_backends() if r["name"] == "exact")
    assert row["available"] and "miniexact" in row["description"]


def test_too_many_cases_is_a_clear_refusal_at_search(exact):
    # supports() only classifies the constraints (the translation is the
    # search's); a refusal only the translation finds comes from search()
    from tests.encoders.test_exactcover import too_many_cases

    p = too_many_cases()
    assert exact.supports(p) is None
    with pytest.raises(BackendError, match=r"cannot take this problem: not an exact cover: equalities split .* cases"):
        exact.count(p)
