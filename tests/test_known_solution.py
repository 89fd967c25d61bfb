"""A solution the puzzle file gives (a nonogram's goal) is verified, counted
first, and the search for another starts next to it (a phase hint)."""

from __future__ import annotations

import dataclasses

import pytest

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.backends.base import blocking_clause
from puzzlesat.backends.pysat_backend import unavailable_reason
from puzzlesat.loading import load_puzzle
from puzzlesat.problem import Clause

#: Twins (two mirror-image solutions) with its goal: the goal's mirror image
#: is the second solution
TWINS_WITH_GOAL = """width 5
height 3
rows
1,1
3
1,1
columns
1
1
3
1
1
goal "101000111000101"
"""
TWINS_SOLUTIONS = {((1, 0, 1, 0, 0), (0, 1, 1, 1, 0), (0, 0, 1, 0, 1)),
                   ((0, 0, 1, 0, 1), (0, 1, 1, 1, 0), (1, 0, 1, 0, 0))}


@pytest.mark.parametrize("backend", ["cadical195", "glucose4", "cpsat"])
def test_the_goal_is_the_first_solution_and_uniqueness_is_still_searched(backend):
    p = load_puzzle("dancer")
    out = jobs.count(p, get_backend(backend), limit=2, keep=True)
    assert (out.count, out.complete, out.method) == (1, True, "known-solution-first")
    assert p.matches_goal(out.solutions[0]) and out.subproblems == 1  # one search: for a second
    plain = jobs.count(p, get_backend(backend), limit=2, keep=True, use_known=False)
    assert (plain.count, plain.complete) == (1, True) and plain.method != "known-solution-first"


def test_a_symmetric_image_of_the_goal_is_a_second_solution_without_a_search(tmp_path):
    path = tmp_path / "twins.non"
    path.write_text(TWINS_WITH_GOAL)
    p = load_puzzle(str(path))
    out = jobs.count(p, get_backend("cadical195"), limit=2, keep=True)
    assert (out.count, out.stopped_by, out.subproblems) == (2, "limit", 0)
    assert {tuple(s) for s in out.solutions} == TWINS_SOLUTIONS  # each decoded and verified
    every = jobs.count(p, get_backend("cadical195"), keep=True)
    assert (every.count, every.complete, every.subproblems) == (2, True, 1)


def test_a_goal_that_is_no_solution_is_never_counted():
    # the loader rejects such a file; through the API the goal is checked again
    p = load_puzzle("dancer")
    wrong = tuple(tuple(1 - x for x in row) for row in p.goal)
    out = jobs.count(dataclasses.replace(p, goal=wrong), get_backend("cadical195"), limit=2, keep=True)
    assert (out.count, out.complete) == (1, True) and out.method != "known-solution-first"
    assert p.matches_goal(out.solutions[0])


@pytest.mark.parametrize("backend,name", [(b, n) for b in ("cadical195", "glucose4", "minisat22", "kissat404", "cpsat")
                                          for n in ("twins", "dominoes-2x4")] + [("exact", "dominoes-2x4")])
def test_a_phase_hint_changes_no_count(backend, name):
    be = get_backend(backend)
    problem = load_puzzle(name).compile()
    hint = frozenset(problem.primary[::2])  # any assignment, a solution or not
    r = be.search(problem, phases=hint)
    assert (r.count, r.complete) == ({"twins": 2, "dominoes-2x4": 5}[name], True)


def test_cpsat_finds_the_one_more_solution_next_to_a_hint_and_proves_there_is_none():
    # limit 1 with a hint (a nonogram's second solution, its goal blocked)
    # is a plain solve without presolve, not an enumeration
    problem = load_puzzle("twins").compile()
    first, second = get_backend("cadical195").search(problem, keep=True).solutions
    one_blocked = problem.with_constraints([Clause(tuple(blocking_clause(problem, first)))])
    r = get_backend("cpsat").search(one_blocked, phases=first, limit=1, keep=True)
    assert (r.count, r.complete, r.stopped_by, r.solutions) == (1, False, "limit", [second])
    both_blocked = one_blocked.with_constraints([Clause(tuple(blocking_clause(problem, second)))])
    r = get_backend("cpsat").search(both_blocked, phases=first, limit=1)
    assert (r.count, r.complete, r.stopped_by) == (0, True, None)


def test_the_hint_reaches_the_sat_solver():
    p = load_puzzle("dancer")
    problem = p.compile()
    goal = p.known_solution(problem)
    r = get_backend("cadical195").search(problem, phases=goal, limit=1, keep=True)
    assert r.stats["phases"] is True and r.solutions == [goal]  # unique: the hint is the answer
    assert get_backend("cadical195").search(problem, limit=1).stats["phases"] is None
    assert not unavailable_reason("kissat404")  # in python-sat, a dependency
    assert get_backend("kissat404").search(problem, phases=goal).stats["phases"] is False  # it takes no phases


def test_cli_uses_the_goal_unless_told_not_to(cli):
    # (without preprocessing: line logic solves dancer, and the preprocessed
    # model, unit clauses alone, goes to the exact-cover engine, which lists)
    j = cli("count", "dancer", "--limit", "2", "--json", "--no-preprocess").json()
    assert (j["count"], j["verdict"], j["method"]) == (1, "unique", "known-solution-first")
    j = cli("count", "dancer", "--limit", "2", "--json", "--no-goal", "--no-preprocess").json()
    assert (j["count"], j["verdict"]) == (1, "unique") and j["method"] != "known-solution-first"
    j = cli("check", "dancer", "--json", "--no-goal").json()
    assert (j["unique"], j["matches_goal"]) == (True, True)


#: eight solutions, clues without symmetry: the others take a search
EIGHT_WITH_GOAL = """width 5
height 4
rows
1,1
2
1
1
columns
1
1
1
1
2
goal "01001000111000000100"
"""


def test_a_default_engine_hands_the_search_from_the_goal_over(tmp_path, monkeypatch):
    path = tmp_path / "eight.non"
    path.write_text(EIGHT_WITH_GOAL)
    p = load_puzzle(str(path))
    monkeypatch.setattr(jobs, "HANDOVER_AFTER", 0.0)  # at once (0.5 s by default)
    out = jobs.count(p, get_backend("cadical195"), keep=True, may_switch=True)
    assert (out.count, out.complete, out.backend) == (8, True, "cpsat")
    assert out.choice == ("cadical195 found no further solution in 0 s from the known one; cpsat, whose "
                          "solution hint holds better on large puzzles, took over")
    assert len({tuple(s) for s in out.solutions}) == 8  # each decoded and verified
    # the user's own engine is never replaced
    own = jobs.count(p, get_backend("cadical195"), keep=True)
    assert (own.count, own.backend, own.choice) == (8, "cadical195", None)
    # nor one that ends in time
    monkeypatch.setattr(jobs, "HANDOVER_AFTER", 60.0)
    quick = jobs.count(p, get_backend("cadical195"), limit=2, may_switch=True)
    assert (quick.count, quick.backend, quick.choice) == (2, "cadical195", None)


def test_check_says_when_the_engine_changed(tmp_path, capsys, monkeypatch):
    import json

    from puzzlesat.cli import main

    path = tmp_path / "eight.non"
    path.write_text(EIGHT_WITH_GOAL)
    monkeypatch.setattr(jobs, "HANDOVER_AFTER", 0.0)  # in this process, hence main() and not a fresh one
    assert main(["check", str(path), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["solvable"], d["unique"], d["backend"]) == (True, False, "cpsat")
    assert d["backend_choice"].startswith("cadical195 found no further solution in 0 s")
    assert main(["check", str(path), "--json", "-b", "cadical195"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["unique"], d["backend"], d["backend_choice"]) == (False, "cadical195", None)
    assert main(["count", str(path), "--limit", "2"]) == 3  # stopped by the limit
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "at least 2 solutions, incomplete (stopped at --limit): not unique"
    assert lines[1].startswith("cpsat, known-solution-first, ")
    assert lines[2] == ("(cpsat chosen: cadical195 found no further solution in 0 s from the known one; "
                        "cpsat, whose solution hint holds better on large puzzles, took over)")
