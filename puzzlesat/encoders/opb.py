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

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from pysat.formula import IDPool

from ..problem import AtMostOne, Clause, Exactly, ExactlyOne, Problem, Regular
from .dimacs import HEADER_TAG, clean_clauses, problem_digest, source_comments, var_comments


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
    header = OpbHeader(fields["problem"], fields["unique"] == "yes", counts["vars"], counts["constraints"],
                       counts["primary"], ignored)
    _check_body(text, header, lineno, path)
    return header, lineno


def _check_body(text: str, header: OpbHeader, header_line: int, path: str | None) -> None:
    """The constraints of an OPB export as :func:`build_opb` writes them
    (terms ``+1 x3``, then ``=`` or ``>=``, a whole number and ``;``), as
    many as its first line and identity line say, over its variables: a file
    cut short or changed after it was written is refused, as a DIMACS file
    is by :func:`puzzlesat.encoders.dimacs.read_cnf` (decode read the first
    line and the identity line only, QA)."""
    from ..errors import InputError, shorten, text_lines

    lines = text_lines(text)
    m = re.fullmatch(r"\*\s*#variable=\s*([0-9]+)\s+#constraint=\s*([0-9]+)\b.*", lines[0].lstrip("\ufeff").strip())
    if m is None:
        raise InputError(f"bad first line {shorten(lines[0].strip())!r} (expected '* #variable= N #constraint= M')",
                         path, 1)
    n_vars, n_cons = int(m.group(1)), int(m.group(2))
    if (header.vars, header.constraints) != (n_vars, n_cons):
        raise InputError(f"the first line says {n_vars} variables and {n_cons} constraints but the "
                         f"'{HEADER_TAG}' comment (line {header_line}) says {header.vars} and "
                         f"{header.constraints}: the file was changed after puzzlesat wrote it", path, 1)
    count = 0
    row: list[str] = []
    start = None  # the line the constraint being read starts on
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("*"):
            continue
        if not row and _LINE.fullmatch(line):  # (the export's own lines: one regex, not a token loop)
            top = max(map(int, _VAR_IN.findall(line)))
            if top > n_vars:
                raise InputError(f"variable x{top} beyond the first line's {n_vars} variables", path, lineno)
            count += 1
            continue
        for tok in line.replace(";", " ; ").split():
            if tok != ";":
                if not row:
                    start = lineno
                row.append(tok)
                continue
            _check_row(row, n_vars, path, start)
            count += 1
            row = []
    if row:
        raise InputError("the last constraint does not end with ';'", path, start)
    if count != n_cons:
        raise InputError(f"the first line says {n_cons} constraints, the file has {count}", path, 1)


#: a whole constraint on one line, as build_opb writes it
_LINE = re.compile(r"(?:[+-][0-9]+ x[1-9][0-9]* )+(?:=|>=) -?[0-9]+ ;")
_VAR_IN = re.compile(r"x([1-9][0-9]*)")
_COEF = re.compile(r"[+-][0-9]+")
_VAR = re.compile(r"x([1-9][0-9]*)")
_RHS = re.compile(r"-?[0-9]+")


def _check_row(row: list[str], n_vars: int, path: str | None, line: int | None) -> None:
    """One constraint's tokens (without its ';'): terms, then ``=`` or ``>=``
    and a whole number."""
    from ..errors import InputError, shorten

    said = shorten(" ".join(row) + " ;")
    terms, tail = row[:-2], row[-2:]
    if (len(row) < 4 or len(terms) % 2 or tail[0] not in ("=", ">=") or not _RHS.fullmatch(tail[1])
            or not all(_COEF.fullmatch(c) and _VAR.fullmatch(v) for c, v in zip(terms[::2], terms[1::2]))):
        raise InputError(f"not a constraint as puzzlesat writes them: {said!r} (expected terms such as '+1 x3', "
                         "then '=' or '>=', a whole number and ';')", path, line)
    for v in terms[1::2]:
        if int(v[1:]) > n_vars:
            raise InputError(f"variable {v} beyond the first line's {n_vars} variables", path, line)


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
