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

from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from pysat.formula import IDPool

from ..problem import AtMostOne, Clause, Exactly, ExactlyOne, Problem, Regular
from .dimacs import clean_clauses, problem_digest, source_comments, var_comments


#: one linear constraint: its terms (coefficient, variable), ">=" or "=", and its right side
Row = tuple[tuple[tuple[int, int], ...], str, int]


@dataclass
class OpbExport:
    comments: list[str]
    n_vars: int
    rows: list[Row]

    @property
    def n_constraints(self) -> int:
        return len(self.rows)

    def constraint(self, i: int) -> str:
        """Constraint ``i`` (0-based) as the file writes it."""
        return _text(self.rows[i])

    def broken(self, values: dict[int, bool]) -> list[int]:
        """Indices (0-based) of the constraints that ``values`` break: every
        variable assigned, and the sum off its side (decode's check of a PB
        solver's answer, as falsified() is of a SAT solver's)."""
        out = []
        for i, (terms, op, rhs) in enumerate(self.rows):
            if all(v in values for _, v in terms):
                total = sum(c for c, v in terms if values[v])
                if (total != rhs) if op == "=" else (total < rhs):
                    out.append(i)
        return out

    def lines(self) -> Iterator[str]:
        yield f"* #variable= {self.n_vars} #constraint= {self.n_constraints}\n"
        for c in self.comments:
            yield c + "\n"
        for r in self.rows:
            yield _text(r) + "\n"


def build_opb(problem: Problem, *, title: str = "", instance: str = "", family: str = "",
              describe: Callable[[object], str] = str, notes: Iterable[str] = (),
              digest: str | None = None, unique: bool = False) -> OpbExport:
    pool = IDPool(start_from=problem.n_vars + 1)  # auxiliaries after the problem's variables
    cons: list[Row] = []
    for c in problem.constraints:
        if isinstance(c, ExactlyOne):
            cons.append((_sum(c.vars, 1), "=", 1))
        elif isinstance(c, Exactly):
            cons.append((_sum(c.vars, 1), "=", c.bounded_k))
        elif isinstance(c, AtMostOne):
            cons.append((_sum(c.vars, -1), ">=", -1))
        elif isinstance(c, Clause):
            cons.extend(_clause(cl) for cl in clean_clauses([c.lits]))
        elif isinstance(c, Regular):
            from .regular import regular_cnf

            cons.extend(_clause(cl) for cl in clean_clauses(regular_cnf(list(c.vars), c.automaton, pool)))
        else:  # pragma: no cover - the IR is closed
            raise TypeError(f"cannot write {type(c).__name__} as OPB")
    # a cell or piece no placement covers is a constraint without terms,
    # which the format has no room for (minisat+: "Empty expression"): it
    # gets the term 0 x1, as the empty clause does
    cons = [r if r[0] else (((0, 1),),) + r[1:] for r in cons]
    n_vars = max(pool.top, problem.n_vars, 1 if any(r[0] == ((0, 1),) for r in cons) else 0)
    primary = sorted(problem.primary)
    com = ["* puzzlesat OPB export (pseudo-Boolean competition format)"] + source_comments("*", title, instance, family)
    com += ["* " + " ".join(n.split()) for n in notes]
    com.append(f"* puzzlesat-header problem={digest or problem_digest(problem)} format=opb "
               f"unique={'yes' if unique else 'no'} vars={n_vars} constraints={len(cons)} primary={len(primary)}")
    com += var_comments("*", problem, describe)
    return OpbExport(com, n_vars, cons)


@dataclass
class OpbHeader:
    """The identity line of an OPB export (``* puzzlesat-header ... format=opb``)."""

    problem: str
    unique: bool
    vars: int
    constraints: int
    primary: int
    #: warnings ("file:line: ...") for fields this version does not know
    ignored: tuple[str, ...] = field(default=(), compare=False)


_OPB_FIELDS = ("problem", "format", "unique", "vars", "constraints", "primary")


def is_opb(text: str) -> bool:
    """Whether ``text`` reads as an OPB file (its mandatory first line)."""
    return text.lstrip("\ufeff").startswith("* #variable=")


def read_opb_header(text: str, path: str | None = None) -> tuple[OpbHeader, int]:
    """The ``puzzlesat-header`` comment of an OPB export and its line: every
    field checked as for DIMACS (:meth:`puzzlesat.encoders.dimacs.Header.parse`)."""
    from ..errors import InputError, shorten, text_lines
    from .dimacs import HEADER_TAG, header_fields

    found = None
    for lineno, raw in enumerate(text_lines(text), 1):
        parts = raw.split()
        if parts[:2] == ["*", HEADER_TAG]:
            if found is not None:
                raise InputError(f"second '{HEADER_TAG}' comment (the first is line {found[1]})", path, lineno)
            found = (parts[2:], lineno)
        elif parts[:1] != ["*"] and raw.strip():
            break  # the comments come first
    if found is None:
        raise InputError(f"no '* {HEADER_TAG}' line: not an OPB file written by puzzlesat export", path)
    tokens, lineno = found
    fields, counts, ignored = header_fields(tokens, _OPB_FIELDS, ("vars", "constraints", "primary"), path, lineno)
    if fields["format"] != "opb":
        raise InputError(f"malformed '{HEADER_TAG}' comment: format={shorten(fields['format'])}, expected "
                         "format=opb", path, lineno)
    return OpbHeader(fields["problem"], fields["unique"] == "yes", counts["vars"], counts["constraints"],
                     counts["primary"], ignored), lineno


def _sum(vars_, coef: int) -> tuple[tuple[int, int], ...]:
    return tuple((coef, v) for v in vars_)


def _clause(lits) -> Row:
    if not lits:
        return (), ">=", 1  # unsatisfiable, as the empty clause is (written 0 x1 >= 1)
    neg = sum(1 for l in lits if l < 0)
    return tuple((1 if l > 0 else -1, abs(l)) for l in lits), ">=", 1 - neg


def _text(row: Row) -> str:
    terms, op, rhs = row
    return " ".join(f"{c:+d} x{v}" for c, v in terms) + f" {op} {rhs} ;"
