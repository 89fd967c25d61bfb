"""Problem -> OR-Tools CP-SAT model.

One Boolean per problem variable (index i-1 holds variable i); ExactlyOne and
AtMostOne map to CP-SAT's own constraints, Exactly(k) to a linear sum, Clause
to a Boolean or, Regular to ``add_automaton``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from ..problem import AtMostOne, Clause, Exactly, ExactlyOne, Problem, Regular
from . import kept
from .kept import EncodingStopped


@dataclass
class CpSatEncoding:
    problem: Problem
    model: cp_model.CpModel
    vars: list  # vars[i-1] is problem variable i

    def lit(self, l: int):
        v = self.vars[abs(l) - 1]
        return v if l > 0 else v.Not()


def encode_cpsat(problem: Problem, expired=None) -> CpSatEncoding:
    """The CP-SAT model of ``problem``.  ``expired`` (a callable), asked
    before each constraint, stops the building with EncodingStopped when it
    answers True: building is Python, tens of seconds for a large nonogram
    (a 200x200 one: 22 s), and no solver's own limit covers it.  Within
    :func:`keeping` of a problem it derives from, the model starts as a copy
    of that problem's (made in C++) and only the constraints after that
    problem's are added."""
    base = kept.base_of(("cpsat",), problem)
    if base is None:
        model = cp_model.CpModel()
        xs = [model.new_bool_var(f"x{i}") for i in range(1, problem.n_vars + 1)]
        rest = problem.constraints
    else:
        # the copy's variables have the same indices, which is all a
        # variable object carries into a constraint or a solver's answer
        model, xs, rest = base[0].model.clone(), base[0].vars, problem.constraints[base[1]:]
    enc = CpSatEncoding(problem, model, xs)
    for c in rest:
        if expired is not None and expired():
            raise EncodingStopped
        if isinstance(c, ExactlyOne):
            model.add_exactly_one([xs[v - 1] for v in c.vars])
        elif isinstance(c, AtMostOne):
            model.add_at_most_one([xs[v - 1] for v in c.vars])
        elif isinstance(c, Exactly):
            model.add(sum(xs[v - 1] for v in c.vars) == c.bounded_k)
        elif isinstance(c, Clause):
            model.add_bool_or([enc.lit(l) for l in c.lits])
        elif isinstance(c, Regular):
            from .regular import regular_cpsat

            regular_cpsat(model, [xs[v - 1] for v in c.vars], c.automaton)
        else:  # pragma: no cover
            raise TypeError(f"cannot encode {type(c).__name__}")
    return enc


def keeping(problem: Problem, expired=None):
    """A block that builds ``problem``'s model on entering and lets
    :func:`encode_cpsat` start from a copy of it for the problems derived
    from it until it ends (:mod:`.kept`); nothing is kept when ``expired``
    answers True first."""
    return kept.keeping(("cpsat",), problem, lambda: encode_cpsat(problem, expired))
