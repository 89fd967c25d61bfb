"""The Problem IR's own checks: variables in range, clauses added in bulk."""

from __future__ import annotations

import pytest

from puzzlesat.problem import AtMostOne, Clause, Exactly, ExactlyOne, Problem, ProblemError, Regular


def _problem(n: int) -> Problem:
    p = Problem()
    for i in range(n):
        p.var(("v", i))
    return p


@pytest.mark.parametrize("constraint, bad", [
    (Clause((1, 0, 2)), 0), (Clause((1, 4)), 4), (Clause((-4, 2)), -4), (ExactlyOne((1, 2, 5)), 5),
    (Exactly(2, (7, 1, 2)), 7), (AtMostOne((0,)), 0),
])
def test_a_variable_out_of_range_is_named(constraint, bad):
    p = _problem(3)
    with pytest.raises(ProblemError) as e:
        p.add(constraint)
    assert str(e.value) == f"variable {bad} out of range 1..3 in {constraint!r}"
    assert p.constraints == []


def test_variables_in_range_either_sign_are_accepted():
    p = _problem(3)
    for c in (Clause((1, -3)), Clause(()), ExactlyOne((1, 2, 3)), Clause((-1, -2, -3))):
        p.add(c)
    assert len(p.constraints) == 4


def test_add_clauses_is_add_clause_for_each():
    p, q = _problem(4), _problem(4)
    clauses = [(1, -2), (3,), (), (-4, 2, 1)]
    p.add_clauses(clauses)
    for c in clauses:
        q.add(Clause(c))
    assert p.constraints == q.constraints
    assert all(a.lits is c for a, c in zip(p.constraints, clauses))  # (the tuples themselves)
    r = _problem(4)
    r.add_clauses(c for c in clauses)  # a generator, read once
    assert r.constraints == q.constraints


@pytest.mark.parametrize("clauses, bad", [([(1, 2), (2, 5)], 5), ([(1,), (-5, 1)], -5), ([(2, 0)], 0)])
def test_add_clauses_names_the_first_bad_variable_and_adds_none(clauses, bad):
    p = _problem(4)
    with pytest.raises(ProblemError) as e:
        p.add_clauses(clauses)
    assert str(e.value).startswith(f"variable {bad} out of range 1..4 in Clause(")
    assert p.constraints == []


def test_constraints_carry_no_instance_dict():
    # a dict per Clause was 40 of the ~250 bytes per clause of a big nonogram's model
    for c in (Clause((1,)), ExactlyOne((1,)), Exactly(1, (1,)), AtMostOne((1,)), Regular((1,), None)):
        assert not hasattr(c, "__dict__")
