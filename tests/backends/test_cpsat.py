"""The "cpsat" back end's search: a limit stops it at exactly that many
solutions, and a search the clock stopped is never complete."""

from __future__ import annotations

import itertools

from puzzlesat.backends import get_backend
from puzzlesat.problem import Problem


def _two_of_four() -> Problem:
    """Exactly two of four variables: C(4, 2) = 6 solutions."""
    p = Problem(fixed_weight=True)
    p.exactly(2, [p.var(i) for i in range(4)])
    return p


def test_the_six_solutions_of_two_of_four():
    r = get_backend("cpsat").search(_two_of_four(), keep=True)
    assert (r.count, r.complete, r.stopped_by) == (6, True, None)
    assert set(r.solutions) == {frozenset(c) for c in itertools.combinations(range(1, 5), 2)}


def test_a_limit_stops_at_exactly_that_many_solutions():
    r = get_backend("cpsat").search(_two_of_four(), limit=2, keep=True)
    assert (r.count, r.complete, r.stopped_by) == (2, False, "limit")
    assert len(set(r.solutions)) == 2


def test_a_search_stopped_by_the_time_limit_with_solutions_found_is_not_complete():
    # 2^40 - 1 solutions: CP-SAT enumerates until the clock stops it, and
    # says FEASIBLE (solutions found, the search not finished), not OPTIMAL
    p = Problem()
    p.clause([p.var(i) for i in range(40)])
    r = get_backend("cpsat").search(p, time_limit=0.5)
    assert r.count > 0
    assert (r.complete, r.stopped_by) == (False, "time-limit")


def test_a_feasible_status_is_not_taken_for_a_finished_enumeration(monkeypatch):
    # the search ran to its end, but the solver reports FEASIBLE (as it does
    # when its time limit cut the enumeration): only OPTIMAL or INFEASIBLE is complete
    from ortools.sat.python import cp_model

    from puzzlesat.backends import cpsat_backend

    real = cpsat_backend._run

    def feasible(*a):
        real(*a)
        return cp_model.FEASIBLE

    monkeypatch.setattr(cpsat_backend, "_run", feasible)
    r = get_backend("cpsat").search(_two_of_four())
    assert (r.count, r.complete, r.stopped_by) == (6, False, "time-limit")


def _failing_import(cause):
    def import_module(name):
        try:
            raise cause
        except BaseException as e:
            raise ImportError("initialization failed") from e
    return import_module


def test_an_interrupt_while_or_tools_loads_is_an_interrupt_not_a_missing_backend(monkeypatch, capsys):
    # OR-Tools' module initialisation turns a Ctrl-C into ImportError("initialization
    # failed"): it was reported as "backend 'cpsat' is not installed", bad input, exit 2
    import json
    import types

    from puzzlesat import backends
    from puzzlesat.cli import main

    fake = types.SimpleNamespace(import_module=_failing_import(KeyboardInterrupt()))
    monkeypatch.setattr(backends, "importlib", fake)
    assert main(["solve", "dominoes-2x4", "-b", "cpsat", "--json"]) == 3
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"error": "interrupted", "kind": "interrupted", "exit_code": 3}
    assert captured.err == "puzzlesat: interrupted\n"
    # an import that fails of itself is still a back end that is not installed
    fake.import_module = _failing_import(OSError("libortools.so: cannot open shared object file"))
    assert main(["solve", "dominoes-2x4", "-b", "cpsat"]) == 2
    assert capsys.readouterr().err == "puzzlesat: backend 'cpsat' is not installed: initialization failed\n"
