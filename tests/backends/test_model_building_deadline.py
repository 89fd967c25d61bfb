"""CP-SAT's model is built in Python before the solver's own time limit
starts: the building stops at the deadline too (a 200x200 nonogram's model
took 22 s, and `count -t 20` ran 37-41 s)."""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from puzzlesat.backends import get_backend
from puzzlesat.backends.base import Status
from puzzlesat.loading import load_puzzle


def _slow_clauses(monkeypatch, seconds):
    """Each clause of the model takes ``seconds`` to add (dancer's lines are
    clauses of block starts: 327 constraints)."""
    built, real = [], cp_model.CpModel.add_bool_or

    def slow(model, *args, **kwargs):
        time.sleep(seconds)
        built.append(1)
        return real(model, *args, **kwargs)

    monkeypatch.setattr(cp_model.CpModel, "add_bool_or", slow)
    return built


def test_a_search_stops_building_the_model_at_the_deadline(monkeypatch):
    problem = load_puzzle("dancer").compile()
    built = _slow_clauses(monkeypatch, 0.005)
    r = get_backend("cpsat").search(problem, time_limit=0.2)
    assert (r.count, r.complete, r.stopped_by) == (0, False, "time-limit")
    assert 0 < len(built) < len(problem.constraints) // 2


def test_a_solve_stops_building_the_model_at_the_deadline(monkeypatch):
    problem = load_puzzle("dancer").compile()  # (the same puzzle compiles the same problem)
    built = _slow_clauses(monkeypatch, 0.005)
    r = get_backend("cpsat").solve(problem, time_limit=0.2)
    assert (r.status, r.stopped_by) == (Status.UNKNOWN, "time-limit")
    assert 0 < len(built) < len(problem.constraints) // 2
    # with time enough, the same model is built whole and solved
    built.clear()
    r = get_backend("cpsat").solve(problem, time_limit=60)
    assert (r.status, len(built)) == (Status.SOLVED, len(problem.constraints))
    dancer = load_puzzle("dancer")
    dancer.verify(dancer.decode(problem, r.assignment))
