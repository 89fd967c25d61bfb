"""Problem -> OPB (the pseudo-Boolean competition format), with the variable map.

Exact covers are linear equations over 0/1 variables, so OPB states them
without any cardinality encoding: a board cell is ``+1 x3 +1 x17 ... = 1 ;``,
a piece used k times ``... = k ;``.  AtMostOne becomes ``-1 x.. >= -1 ;``,
a clause ``+1 x1 -1 x2 >= 0 ;`` (x1 or not x2: x1 + (1 - x2) >= 1), using only
``>=`` and ``=`` and no ``~x`` literals so that old parsers (minisat+) read
it.  Regular (nonogram lines) has no linear form: its CNF (encoders/regular.py)
is written as clauses over auxiliary variables numbered after the problem's.

The first line is the mandatory ``* #variable= N #constraint= M``; the other
``*`` comments carry the identity line and variable map, as in DIMACS.
PB solvers answer ``s SATISFIABLE`` / ``v x1 -x2 ...``, which
:func:`puzzlesat.encoders.dimacs.read_answer` reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from pysat.formula import IDPool

from ..problem import AtMostOne, Clause, Exactly, ExactlyOne, Problem, Regular
from .dimacs import clean_clauses, problem_digest, source_comments, var_comments


@dataclass
class OpbExport:
    comments: list[str]
    n_vars: int
    constraints: list[str]

    @property
    def n_constraints(self) -> int:
        return len(self.constraints)

    def lines(self) -> Iterator[str]:
        yield f"* #variable= {self.n_vars} #constraint= {len(self.constraints)}\n"
        for c in self.comments:
            yield c + "\n"
        for c in self.constraints:
            yield c + "\n"


def build_opb(problem: Problem, *, title: str = "", instance: str = "", family: str = "",
              describe: Callable[[object], str] = str, notes: Iterable[str] = (),
              digest: str | None = None, unique: bool = False) -> OpbExport:
    pool = IDPool()
    for m in problem.meanings:
        pool.id(("var", m))
    cons: list[str] = []
    for c in problem.constraints:
        if isinstance(c, ExactlyOne):
            cons.append(_sum(c.vars, 1) + " = 1 ;")
        elif isinstance(c, Exactly):
            cons.append(_sum(c.vars, 1) + f" = {c.k} ;")
        elif isinstance(c, AtMostOne):
            cons.append(_sum(c.vars, -1) + " >= -1 ;")
        elif isinstance(c, Clause):
            cons.extend(_clause(cl) for cl in clean_clauses([c.lits]))
        elif isinstance(c, Regular):
            from .regular import regular_cnf

            cons.extend(_clause(cl) for cl in clean_clauses(regular_cnf(list(c.vars), c.automaton, pool)))
        else:  # pragma: no cover - the IR is closed
            raise TypeError(f"cannot write {type(c).__name__} as OPB")
    n_vars = max(pool.top, problem.n_vars)
    primary = sorted(problem.primary)
    com = ["* puzzlesat OPB export (pseudo-Boolean competition format)"] + source_comments("*", title, instance, family)
    com += ["* " + " ".join(n.split()) for n in notes]
    com.append(f"* puzzlesat-header problem={digest or problem_digest(problem)} format=opb "
               f"unique={'yes' if unique else 'no'} vars={n_vars} constraints={len(cons)} primary={len(primary)}")
    com += var_comments("*", problem, describe)
    return OpbExport(com, n_vars, cons)


def _sum(vars_, coef: int) -> str:
    return " ".join(f"{coef:+d} x{v}" for v in vars_)


def _clause(lits) -> str:
    if not lits:
        return "+0 x1 >= 1 ;"  # unsatisfiable, as the empty clause is
    neg = sum(1 for l in lits if l < 0)
    return " ".join(f"{'+1' if l > 0 else '-1'} x{abs(l)}" for l in lits) + f" >= {1 - neg} ;"
