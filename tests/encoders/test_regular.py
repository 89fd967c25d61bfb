"""Regular(vars, automaton) in CNF and CP-SAT, on run-length automata.

The CNF must be exact (its models, projected on the letters, are the
accepted words, each once) and unit propagation on it must be GAC: exactly
the values some accepted word consistent with the fixed letters takes.
"""

from __future__ import annotations

import itertools
import random

import pytest
from ortools.sat.python import cp_model
from pysat.formula import IDPool
from pysat.solvers import Solver

from puzzlesat.encoders.regular import regular_cnf, regular_cpsat
from puzzlesat.models.nonogram.clues import clue_automaton, placements, runs
from puzzlesat.problem import Automaton


def _cnf(n, automaton):
    pool = IDPool(start_from=n + 1)
    return regular_cnf(list(range(1, n + 1)), automaton, pool)


def _words(n):
    return list(itertools.product((0, 1), repeat=n))


def _all_clues(n):
    return sorted({runs(w) for w in _words(n)})


@pytest.mark.parametrize("n", range(0, 8))
def test_dfa_accepts_exactly_the_words_with_those_runs(n):
    for clue in _all_clues(n):
        a = clue_automaton(clue)
        acc = [w for w in _words(n) if a.accepts(w)]
        assert acc == [w for w in _words(n) if runs(w) == clue]
        assert len(acc) == placements(clue, n)


def test_empty_clue_is_all_white():
    a = clue_automaton(())
    assert a.accepts([0, 0, 0]) and not a.accepts([0, 1, 0])


@pytest.mark.parametrize("n", range(1, 8))
def test_cnf_models_are_the_accepted_words_each_once(n):
    for clue in _all_clues(n) + [(n,), (n + 1,)]:
        clauses = _cnf(n, clue_automaton(clue))
        found = []
        with Solver(name="minisat22", bootstrap_with=clauses) as s:
            while s.solve():
                m = s.get_model()
                found.append(tuple(1 if m[i] > 0 else 0 for i in range(n)))
                s.add_clause([-l for l in m])  # block the whole model: counts auxiliaries too
        assert sorted(found) == [w for w in _words(n) if runs(w) == clue], clue


def _gac_by_brute_force(clue, known):
    n = len(known)
    words = [w for w in _words(n) if runs(w) == clue and all(k is None or k == b for k, b in zip(known, w))]
    return [{w[i] for w in words} for i in range(n)]


def unit_propagate(clauses, assumptions):
    """Plain unit propagation to a fixpoint: the set of implied literals, or
    None on a conflict.  Written out here so the test depends on no solver's
    notion of which literals it reports."""
    val = set(assumptions)
    if any(-l in val for l in val):
        return None
    changed = True
    while changed:
        changed = False
        for cl in clauses:
            if any(l in val for l in cl):
                continue
            free = [l for l in cl if -l not in val]
            if not free:
                return None
            if len(free) == 1:
                val.add(free[0])
                changed = True
    return val


@pytest.mark.parametrize("seed", range(3))
def test_unit_propagation_is_gac(seed):
    rnd = random.Random(seed)
    for _ in range(60):
        n = rnd.randint(1, 8)
        clue = runs(rnd.choice(_words(n)))
        known = [rnd.choice((None, None, None, 0, 1)) for _ in range(n)]
        clauses = _cnf(n, clue_automaton(clue))
        assumptions = [i + 1 if k else -(i + 1) for i, k in enumerate(known) if k is not None]
        expect = _gac_by_brute_force(clue, known)
        implied = unit_propagate(clauses, assumptions)
        if not all(expect):  # no consistent word: UP must find the conflict
            assert implied is None, (clue, known)
            continue
        assert implied is not None, (clue, known)
        for i in range(n):
            fixed = 1 if (i + 1) in implied else 0 if -(i + 1) in implied else None
            want = next(iter(expect[i])) if len(expect[i]) == 1 else None
            assert fixed == want, (clue, known, i)


def test_up_alone_fixes_the_middle_of_a_long_run():
    """Clue n-1 in a line of n: the run covers cells 2..n-1 wherever it sits,
    and unit propagation finds that with no cell known."""
    n = 9
    implied = unit_propagate(_cnf(n, clue_automaton((n - 1,))), [])
    assert {v for v in implied if abs(v) <= n} == set(range(2, n))


def test_cnf_of_an_impossible_line_is_unsatisfiable():
    clauses = _cnf(3, clue_automaton((2, 2)))
    with Solver(name="minisat22", bootstrap_with=clauses) as s:
        assert not s.solve()


def test_cnf_of_a_generic_non_monotone_automaton():
    """Words over {0,1} with an even number of 1s: states loop back."""
    even = Automaton(((0, 1), (1, 0)), 0, frozenset({0}))
    for n in range(1, 7):
        with Solver(name="minisat22", bootstrap_with=_cnf(n, even)) as s:
            found = set()
            while s.solve():
                m = s.get_model()
                found.add(tuple(1 if m[i] > 0 else 0 for i in range(n)))
                s.add_clause([-m[i] for i in range(n)])
        assert found == {w for w in _words(n) if sum(w) % 2 == 0}


class _All(cp_model.CpSolverSolutionCallback):
    def __init__(self, xs):
        super().__init__()
        self.xs, self.words = xs, []

    def on_solution_callback(self):
        self.words.append(tuple(self.value(x) for x in self.xs))


@pytest.mark.parametrize("clue,n", [((), 4), ((1,), 4), ((2, 1), 5), ((1, 1, 1), 5), ((3,), 3), ((2, 2), 4)])
def test_cpsat_automaton_solutions_are_the_accepted_words(clue, n):
    m = cp_model.CpModel()
    xs = [m.new_bool_var(f"x{i}") for i in range(n)]
    regular_cpsat(m, xs, clue_automaton(clue))
    s = cp_model.CpSolver()
    # as the back end does: CP-SAT's own SIGINT handler stays installed after
    # the solve, and a later test's Ctrl-C (test_exactcover's) then killed
    # pytest itself (exit 130) when this file ran before that one
    s.parameters.catch_sigint_signal = False
    s.parameters.enumerate_all_solutions = True
    s.parameters.num_workers = 1
    cb = _All(xs)
    s.solve(m, cb)
    assert sorted(cb.words) == [w for w in _words(n) if runs(w) == clue]


def test_optional_order_literals_keep_the_encoding_exact(monkeypatch):
    from puzzlesat.encoders import regular

    monkeypatch.setattr(regular, "ORDER_LITERALS", True)
    for n in (4, 6):
        for clue in _all_clues(n):
            with Solver(name="minisat22", bootstrap_with=_cnf(n, clue_automaton(clue))) as s:
                found = []
                while s.solve():
                    m = s.get_model()
                    found.append(tuple(1 if m[i] > 0 else 0 for i in range(n)))
                    s.add_clause([-l for l in m])
            assert sorted(found) == [w for w in _words(n) if runs(w) == clue]
