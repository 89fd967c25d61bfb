"""A model whose unit clauses fix every primary variable is answered without
a search (a nonogram line logic solves, preprocessed), and its one solution
is still decoded and verified by the family."""

from __future__ import annotations

import json

import pytest

from puzzlesat import jobs
from puzzlesat.loading import load_puzzle
from puzzlesat.problem import Clause, Problem


def _units(*lits: int, primary: int = 3, extra: list | None = None) -> Problem:
    p = Problem()
    for i in range(primary):
        p.var(("x", i))
    p.var("aux", primary=False)
    for lit in lits:
        p.add(Clause((lit,)))
    for c in extra or []:
        p.add(c)
    return p


def test_units_that_fix_every_primary_variable_are_the_solution():
    assert jobs.fixed_by_units(_units(1, -2, 3)) == frozenset({1, 3})
    assert jobs.fixed_by_units(_units(-1, -2, -3, 1 * -1)) == frozenset()  # (a unit twice)
    assert jobs.fixed_by_units(_units(1, -2, 3, 4)) == frozenset({1, 3})  # (the auxiliary, fixed too)


@pytest.mark.parametrize("problem", [
    _units(1, -2),  # the third is free: two solutions
    _units(1, -2, 3, -1),  # contradicting units: none, which an engine says
    _units(1, -2, 3, extra=[Clause((1, 2))]),  # a clause of two
    _units(1, -2, 3, extra=[Clause(())]),  # the empty clause
    _units(primary=0),  # nothing at all
])
def test_anything_else_is_searched(problem):
    assert jobs.fixed_by_units(problem) is None


def test_solve_and_count_of_a_line_solved_nonogram_call_no_engine(cli):
    r = cli("solve", "dancer", "--json")
    j = r.json()
    assert (r.code, j["status"], j["backend"], j["method"]) == (0, "solved", None, "units")
    puzzle = load_puzzle("dancer")
    assert j["solution"] == puzzle.solution_json(puzzle.goal)
    r = cli("count", "dancer", "--limit", "2", "--json")
    j = r.json()
    assert (r.code, j["count"], j["complete"], j["verdict"], j["backend"], j["method"]) == \
        (0, 1, True, "unique", None, "units")
    r = cli("count", "letter-p", "--unique")
    assert r.code == 0
    first, second = r.out.splitlines()[:2]
    assert first == "1 solution up to symmetry (unique)"
    assert second.startswith("no search: the model's unit clauses fix every variable, 1 symmetry, ")
    # an engine the user named is said not to be used, not passed over in silence
    r = cli("solve", "dancer", "-b", "cpsat")
    assert r.code == 0 and r.out.splitlines()[-1].startswith("solved in ")
    assert r.out.splitlines()[-1].endswith(" s, no search: the model's unit clauses fix every variable")
    assert r.err.strip() == ("puzzlesat: note: the model of dancer is unit clauses that fix every variable: no "
                             "search, so --backend cpsat is not used")
    # an engine that could not take the model is not called either: a note,
    # as for the others (it was "cannot take this problem", exit 2, QA)
    r = cli("count", "dancer", "-b", "kasteleyn")
    assert (r.code, r.out.splitlines()[0]) == (0, "1 solution (unique)")
    assert r.err.strip() == ("puzzlesat: note: the model of dancer is unit clauses that fix every variable: no "
                             "search, so --backend kasteleyn is not used")
    # the solution is at hand, so it is shown, whatever the engine named
    # could list (the hint named "None" as the engine that counts without listing)
    r = cli("count", "dancer", "--limit", "1", "-b", "ganak")
    assert r.code == 0 and "None" not in r.out
    assert r.out.split("\n\n")[1].rstrip("\n") == "solution 1:\n" + puzzle.render_text(puzzle.goal)
    # as stated, the clues are searched
    j = cli("solve", "dancer", "--no-preprocess", "--json").json()
    assert j["backend"] is not None and j["method"] != "units"


def test_no_engine_is_chosen_by_measuring_a_model_of_units(monkeypatch, capsys):
    # choosing the default engine (Knuth's estimate, the exact-cover
    # classification behind the solve race) took half of count's time on a
    # line-solved 500x500 picture, for an engine that is never called
    from puzzlesat import estimate
    from puzzlesat.backends import exactcover

    def refused(*args, **kwargs):
        raise AssertionError("an engine was measured for a model its units settle")

    monkeypatch.setattr(estimate, "estimate_solutions", refused)
    monkeypatch.setattr(exactcover, "unsupported_reason", refused)
    from puzzlesat.cli import main

    for job in (["count", "dancer"], ["solve", "dancer"], ["count", "dancer", "--unique"]):
        code = main([*job, "--json"])  # (in this process, where the stand-ins are)
        j = json.loads(capsys.readouterr().out)
        assert (code, j["backend"], j["method"]) == (0, None, "units"), job
    # a model its units do not settle is measured as before
    with pytest.raises(AssertionError, match="an engine was measured"):
        jobs.choose_count_backend(load_puzzle("pentomino-3x20").compile(), listing=False)


def test_a_model_of_units_even_as_stated_is_not_called_preprocessed(cli, tmp_path):
    # every line empty or full: the clues as stated are unit clauses already (QA)
    f = tmp_path / "zero.nin"
    f.write_text("2 1\n0\n0\n0\n")
    r = cli("solve", f, "--no-preprocess", "-b", "cadical195", "--json")
    assert (r.code, r.json()["backend"], r.json()["method"], r.json()["solution"]) == (0, None, "units", [".."])
    assert r.err.strip() == (f"puzzlesat: note: the model of {f} is unit clauses that fix every variable: no search, "
                             "so --backend cadical195 is not used")


def test_the_solution_the_units_give_is_verified(monkeypatch, capsys):
    # line logic "fixing" a wrong grid (every cell white) must not reach the
    # user: the family's verifier stands between, as for any engine
    from puzzlesat.cli import main
    from puzzlesat.models.nonogram import linesolve

    real = linesolve.line_solve

    def wrong(puzzle, record=False, start=None, sink=None):
        r = real(puzzle, record=record, start=start, sink=sink)
        r.grid = [[0] * puzzle.width for _ in range(puzzle.height)]
        return r

    monkeypatch.setattr(linesolve, "line_solve", wrong)
    assert main(["solve", "dancer"]) == 4
    assert capsys.readouterr().err.strip() == ("puzzlesat: verification failed: backend unit propagation returned an "
                                               "invalid solution: row 1 has runs 0, its clue is 2")
    assert main(["count", "dancer"]) == 4
