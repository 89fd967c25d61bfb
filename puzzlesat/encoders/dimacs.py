"""DIMACS CNF out, solver answers back in.

Writing
=======

Every comment comes before the ``p cnf`` line (some solvers reject comments
after it), in this order::

    c puzzlesat DIMACS export
    c title: the 12 pentominoes in a 3x20 box (Isobe 1965)
    c instance: pentomino-3x20
    c family: tiling
    c encoding: mixed (cardinality encoding of ExactlyOne / Exactly(k))
    c puzzlesat-header problem=3f2a... encoding=mixed unique=no vars=1872 clauses=10214 primary=1872
    c var 1 place I orientation 0 cells (1,1) (1,2) (1,3) (1,4) (1,5)
    ...                                        one line per primary variable
    c p show 1 2 ... 1872 0                    the projection set: primary variables
    c t pmc                                    projected model counting
    p cnf 1872 10214

``problem=`` is a digest of the compiled problem (variables' meanings,
constraints, primary set), so an answer or a CNF from another instance, or
another encoding, is recognised.  The ``c var`` lines use the family's
``describe_var`` (a placement: piece, orientation index, 1-based cells; a
nonogram cell: its row and column); auxiliary variables get no line.

Clauses never repeat a literal or hold both x and -x; ``p cnf V C`` counts
exactly the variables (the highest id) and clauses written.

Reading answers
===============

:func:`read_answer` accepts

- SAT-competition output: ``c`` comments, one ``s SATISFIABLE`` /
  ``s UNSATISFIABLE`` / ``s UNKNOWN`` line, and for SAT the model in ``v``
  lines, split over any number of lines, ended by ``0``; variables left out
  are unassigned (a partial assignment).  Pseudo-Boolean solvers' ``v x1
  -x2`` lines (the PB competition's, which end without a 0) are read too.
- MiniSat's result file: ``SAT`` then the literals ending in ``0``, or
  ``UNSAT`` (``INDET`` when it gave up).
- No status line but a comment ``c UNKNOWN``: Debian's CaDiCaL past its
  ``-t`` or ``-c``, which gave up (UNKNOWN), as the external back end reads it.

Status words are read as solvers write them, in capitals.  Anything else
is an :class:`~puzzlesat.errors.InputError` naming the file and line: not a
solver output, a status not in capitals, a second status line, a
non-integer literal (or one written with non-ASCII digits), literals of
both forms in one model (``1`` and ``x4``), a PB literal in a MiniSat
result file or ``x0``, a model without its ending 0, a variable beyond the
CNF's header, a variable given both values, a literal given twice, a
second ``c puzzlesat-header`` line or one that does not say what
:meth:`Header.line` writes.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence, TextIO

from ..errors import InputError, shorten, text_lines
from ..problem import Clause, Problem, Regular
from .cnf import ENCODINGS, CnfEncoding, clean_clause

HEADER_TAG = "puzzlesat-header"


# ----------------------------------------------------------------- identity


def problem_digest(problem: Problem) -> str:
    """A short, stable digest of a compiled problem (16 hex digits).

    Built from the variables' printed meanings, the constraints and the
    primary set, so it changes when the instance changes and not when the
    file's comments or layout do.  Files written by earlier versions carry
    it, so its bytes stay as they were; they are hashed in chunks (one
    update per meaning and per constraint was a quarter of exporting a
    200x200 nonogram).
    """
    h = hashlib.sha256()
    _feed(h, (f"{m}\n" for m in problem.meanings))
    _feed(h, (_constraint_text(c) for c in problem.constraints))
    h.update(repr(sorted(problem.primary)).encode())
    return h.hexdigest()[:16]


def _constraint_text(c) -> str:
    if type(c) is Clause:
        return f"Clause{c.lits!r}\n"
    if isinstance(c, Regular):
        a = c.automaton
        return f"Regular{(c.vars, a.transitions, a.start, sorted(a.accepting))!r}\n"
    return f"{type(c).__name__}{(getattr(c, 'k', 1), c.vars)!r}\n"


def _feed(h, texts: Iterator[str], chunk: int = 1 << 14) -> None:
    """``h.update(t.encode())`` for each text, ``chunk`` texts at a time
    (the same bytes, so the same digest)."""
    while True:
        part = "".join(itertools.islice(texts, chunk))
        if not part:
            return
        h.update(part.encode())


@dataclass
class Header:
    """The identity line of an export: what the CNF was built from."""

    problem: str
    encoding: str
    unique: bool
    vars: int
    clauses: int
    primary: int
    #: warnings ("file:line: ...") for the fields :meth:`parse` does not know
    ignored: tuple[str, ...] = field(default=(), compare=False)

    def line(self) -> str:
        return (f"c {HEADER_TAG} problem={self.problem} encoding={self.encoding} "
                f"unique={'yes' if self.unique else 'no'} vars={self.vars} clauses={self.clauses} "
                f"primary={self.primary}")

    @classmethod
    def parse(cls, line: str, path: str | None = None, lineno: int | None = None) -> "Header":
        """The header in ``line``, every field checked: an export writes
        each of the six once, so a field missing, given twice or with a value
        no export writes is an InputError at ``path``:``lineno``.  A field
        this version does not know (one a newer version may add) is not an
        error but not dropped silently either: it is in ``ignored``."""
        fields, counts, ignored = header_fields(line.split()[2:], _HEADER_FIELDS, ("vars", "clauses", "primary"),
                                                path, lineno)
        if fields["encoding"] not in ENCODINGS:
            raise _malformed(f"unknown encoding {shorten(fields['encoding'])!r}; choose one of: "
                             f"{', '.join(ENCODINGS)}", path, lineno)
        return cls(fields["problem"], fields["encoding"], fields["unique"] == "yes", counts["vars"],
                   counts["clauses"], counts["primary"], ignored)


def _malformed(problem: str, path, lineno) -> InputError:
    return InputError(f"malformed '{HEADER_TAG}' comment: {problem}", path, lineno)


def header_fields(tokens: list[str], known: tuple[str, ...], numbers: tuple[str, ...], path: str | None,
                  lineno: int | None) -> tuple[dict[str, str], dict[str, int], tuple[str, ...]]:
    """The NAME=VALUE fields of an export's identity line (DIMACS or OPB), each
    of ``known`` once, ``unique`` yes or no, ``numbers`` whole numbers:
    (fields, the numbers, warnings for unknown fields).  A field this version
    does not know (one a newer version may add) is not an error but not
    dropped silently either."""
    fields: dict[str, str] = {}
    ignored = []
    for tok in tokens:
        key, eq, value = tok.partition("=")
        if not eq or not key:
            raise _malformed(f"{shorten(tok)!r} is not a NAME=VALUE field", path, lineno)
        if key in fields:
            raise _malformed(f"{shorten(key)}= given twice", path, lineno)
        fields[key] = value
        if key not in known:
            ignored.append(str(InputError(f"unknown field {shorten(tok)!r} in the '{HEADER_TAG}' comment "
                                          "ignored (written by a newer puzzlesat?)", path, lineno)))
    for key in known:
        if key not in fields:
            raise _malformed(f"no {key}= field", path, lineno)
    if fields["unique"] not in ("yes", "no"):
        raise _malformed(f"unique={shorten(fields['unique'])}: expected unique=yes or unique=no", path, lineno)
    counts = {}
    for key in numbers:
        if not re.fullmatch(r"[0-9]+", fields[key]):  # ASCII: int() would read a full-width '１'
            raise _malformed(f"{key}={shorten(fields[key])}: not a whole number (digits 0-9)", path, lineno)
        counts[key] = _whole(fields[key], f"the {key}= field", path, lineno)
    return fields, counts, tuple(ignored)


#: the fields of a header line, as :meth:`Header.line` writes them
_HEADER_FIELDS = ("problem", "encoding", "unique", "vars", "clauses", "primary")


# ------------------------------------------------------------------ writing


def clean_clauses(clauses: Iterable[Iterable[int]]) -> list[Sequence[int]]:
    """Clauses without repeated literals; tautologies (x and -x) dropped."""
    return [cl for cl in map(clean_clause, clauses) if cl is not None]


@dataclass
class DimacsExport:
    """A CNF ready to write: comments, header counts and clauses."""

    comments: list[str]
    n_vars: int
    clauses: list[Sequence[int]]
    header: Header

    def lines(self) -> Iterator[str]:
        for c in self.comments:
            yield c + "\n"
        yield f"p cnf {self.n_vars} {len(self.clauses)}\n"
        for cl in self.clauses:
            yield (" ".join(map(str, cl)) + " 0\n") if cl else "0\n"

    def write(self, out: TextIO) -> None:
        out.writelines(self.lines())

    def text(self) -> str:
        return "".join(self.lines())


def build_dimacs(enc: CnfEncoding, *, title: str = "", instance: str = "", family: str = "",
                 describe: Callable[[object], str] = str, unique: bool = False,
                 notes: Iterable[str] = (), digest: str | None = None, var_map: bool = True) -> DimacsExport:
    """The export of ``enc``; ``digest`` is the problem digest of the
    instance (before symmetry breaking) for the header line; ``var_map``
    False leaves out the ``c var`` lines (a back end writing for a solver)."""
    problem = enc.problem
    clauses = clean_clauses(enc.clauses)
    # (a list of every literal for this was 0.7 GB on a 400x400 nonogram)
    n_vars = max(enc.n_vars, max((max(cl) for cl in clauses if cl), default=0),
                 -min((min(cl) for cl in clauses if cl), default=0))
    primary = sorted(problem.primary)
    header = Header(digest or problem_digest(problem), enc.encoding, unique, n_vars, len(clauses), len(primary))
    com = ["c puzzlesat DIMACS export"] + source_comments("c", title, instance, family)
    com.append(f"c encoding: {enc.encoding} (cardinality encoding of ExactlyOne / Exactly(k))")
    for n in notes:
        com.append("c " + _one_line(n))
    com.append(header.line())
    aux = _auxiliary(primary, n_vars)
    com.append(f"c {len(primary)} primary variables (a solution is the set of them that are true); {aux}")
    if var_map:
        com += var_comments("c", problem, describe)
    com.append("c p show " + " ".join(map(str, primary)) + (" 0" if primary else "0"))
    com.append("c t pmc")
    return DimacsExport(com, n_vars, clauses, header)


def _auxiliary(primary: list[int], n_vars: int) -> str:
    """Which of variables 1..n_vars are not primary, as ranges: those the
    encoder added and the problem's own secondary ones (a nonogram's block
    starts), which it numbers before them."""
    spans: list[list[int]] = []
    p = set(primary)
    for v in range(1, n_vars + 1):
        if v not in p:
            if spans and spans[-1][1] == v - 1:
                spans[-1][1] = v
            else:
                spans.append([v, v])
    if not spans:
        return "no auxiliary variables"
    text = ", ".join(str(a) if a == b else f"{a}..{b}" for a, b in spans)
    return f"variable{'s' if n_vars - len(p) > 1 else ''} {text} {'are' if n_vars - len(p) > 1 else 'is'} auxiliary"


def _one_line(s: str) -> str:
    return " ".join(str(s).split())


def source_comments(prefix: str, title: str, instance: str, family: str) -> list[str]:
    """The ``<prefix> title: ...``, ``instance``, ``family`` comment lines of
    every export format, for the fields given, each on one line."""
    return [f"{prefix} {key}: {_one_line(value)}"
            for key, value in (("title", title), ("instance", instance), ("family", family)) if value]


def var_comments(prefix: str, problem: Problem, describe: Callable[[object], str]) -> list[str]:
    """One ``<prefix> var <id> <meaning>`` line per primary variable, in id order."""
    return [f"{prefix} var {v} " + _one_line(describe(problem.meaning(v))) for v in sorted(problem.primary)]


# ------------------------------------------------------------------ reading


@dataclass
class Answer:
    """A solver's verdict and (for SAT) its possibly partial assignment."""

    status: str  # "SAT", "UNSAT", "UNKNOWN"
    style: str  # "competition" or "minisat"
    values: dict[int, bool] = field(default_factory=dict)
    line_of: dict[int, int] = field(default_factory=dict)  # var -> line it was given on
    header: Header | None = None  # a puzzlesat-header comment, when the answer carries one
    header_line: int | None = None
    path: str | None = None

    def true_vars(self) -> frozenset:
        return frozenset(v for v, b in self.values.items() if b)

    def max_var(self) -> int:
        return max(self.values, default=0)

    def is_contiguous(self) -> bool:
        """Every variable 1..max_var() is assigned (a solver's full model)."""
        return len(self.values) == self.max_var()

    def check_range(self, n_vars: int, what: str = "the CNF") -> None:
        """InputError at the line of the first variable beyond ``n_vars``."""
        beyond = [v for v in self.values if v > n_vars]
        if beyond:
            v = min(beyond, key=lambda u: (self.line_of[u], u))
            raise InputError(f"variable {v} is beyond the {n_vars} variables of {what}: "
                             "the answer belongs to a different instance or encoding", self.path, self.line_of[v])


_STATUS = {"SATISFIABLE": "SAT", "UNSATISFIABLE": "UNSAT", "UNKNOWN": "UNKNOWN", "INDETERMINATE": "UNKNOWN"}
_MINISAT_STATUS = {"SAT": "SAT", "UNSAT": "UNSAT", "INDET": "UNKNOWN"}
_LIT = re.compile(r"^(-?)x?([0-9]+)$")  # ASCII digits: int() would also read a full-width '１' as 1
#: the two ways answers write literals: DIMACS (SAT solvers) and the PB competition's
_FORMS = {False: "DIMACS (1, -1)", True: "pseudo-Boolean (x1, -x1)"}


def read_answer(text: str, path: str | None = None) -> Answer:
    """Parse a SAT-competition or MiniSat-style answer (see module doc)."""
    ans: Answer | None = None
    header, header_line = None, None
    ended_at: int | None = None  # line of the terminating 0
    status_line = last_lit_line = None
    pb = False  # pseudo-Boolean answers write x7 / -x7 and end without a 0
    first_lit: tuple[str, int] | None = None  # the model's first literal and its line: it sets the form
    says_unknown = False  # a comment 'c UNKNOWN' before any status line
    for lineno, raw in enumerate(text_lines(text), 1):
        line = raw.strip()
        if not line:
            continue
        first, rest = (line.split(None, 1) + [""])[:2]  # (any white space after 'v', 's' or 'c': DIMACS's)
        if first == "c":
            if ans is None and rest.strip() == "UNKNOWN":
                says_unknown = True
            if rest.split()[:1] == [HEADER_TAG]:
                if header is not None:
                    raise InputError(f"second '{HEADER_TAG}' comment (the first is line {header_line})",
                                     path, lineno)
                header, header_line = Header.parse(line, path, lineno), lineno
            continue
        if ans is None:
            if first == "s":
                st = _STATUS.get(rest.strip())
                if st is None and rest.strip().upper() in _STATUS:
                    raise InputError(f"status line {_show(line)} is not in capitals: the SAT-competition "
                                     f"format writes 's {rest.strip().upper()}'", path, lineno)
                if st is None:
                    raise InputError(f"unknown status line {_show(line)}: expected 's SATISFIABLE', "
                                     "'s UNSATISFIABLE' or 's UNKNOWN'", path, lineno)
                ans = Answer(st, "competition", path=path)
            elif line in _MINISAT_STATUS:
                ans = Answer(_MINISAT_STATUS[line], "minisat", path=path)
            elif line.upper() in _MINISAT_STATUS:
                raise InputError(f"status line {_show(line)} is not in capitals: MiniSat writes "
                                 f"{line.upper()!r}", path, lineno)
            elif first == "v":
                raise InputError("'v' line before any 's SATISFIABLE' status line", path, lineno)
            else:
                raise InputError("not a SAT solver's answer: expected a SAT-competition 's SATISFIABLE' / "
                                 "'s UNSATISFIABLE' line or MiniSat's 'SAT' / 'UNSAT' result file, found "
                                 f"{_show(line)}", path, lineno)
            status_line = lineno
            continue
        # after the status line
        if ans.style == "competition":
            if first == "s":
                if _STATUS.get(rest.strip().upper()) != ans.status:
                    raise InputError(f"status line {_show(line)} contradicts line {status_line}", path, lineno)
                # the competition format has one status line: two are two outputs run together
                raise InputError(f"second status line {_show(line)} (the first is line {status_line})",
                                 path, lineno)
            if first != "v":
                raise InputError("unexpected line in a SAT-competition answer: expected 'v' or 'c', "
                                 f"found {_show(line)}", path, lineno)
            tokens = rest.split()
        else:
            if line.upper() in _MINISAT_STATUS:
                raise InputError(f"second status line {_show(line)} (the first is line {status_line})",
                                 path, lineno)
            tokens = line.split()
        if ans.status != "SAT":
            raise InputError(f"a model after a status that is not SATISFIABLE (line {status_line})", path, lineno)
        for i, tok in enumerate(tokens):
            m = _LIT.match(tok)
            if m is None:
                if tok in ("-", "x", "-x") and ended_at is None and i == len(tokens) - 1 \
                        and text.rstrip(" \t").endswith(line):
                    # the answer's last bytes, a literal cut short (a solver killed mid-write)
                    raise InputError(f"the model does not end with 0: the output looks truncated (it stops at "
                                     f"{tok!r}, a literal cut short)", path, lineno)
                raise InputError(f"not a literal: {shorten(tok)!r}{_ascii_hint(tok)}", path, lineno)
            if ended_at is not None:
                raise InputError(f"literal {tok} after the model's terminating 0 (line {ended_at})", path, lineno)
            neg, num = m.groups()
            is_pb = "x" in tok
            v = _whole(num, "a literal", path, lineno)
            if is_pb and ans.style == "minisat":
                raise InputError(f"not a literal: {shorten(tok)!r} (MiniSat's result file writes DIMACS literals: "
                                 f"{v}, -{v})", path, lineno)
            if is_pb and v == 0:
                raise InputError(f"not a literal: {shorten(tok)!r} (pseudo-Boolean variables are x1, x2, ...)",
                                 path, lineno)
            if v != 0:  # a literal, not the ending 0: in the form of the model's first one
                if first_lit is None:
                    first_lit = (tok, lineno)
                elif is_pb != ("x" in first_lit[0]):
                    raise InputError(f"mixed literal forms: {shorten(tok)!r} is {_FORMS[is_pb]} but the model's "
                                     f"first literal, {first_lit[0]!r} (line {first_lit[1]}), is "
                                     f"{_FORMS[not is_pb]}: a solver writes all its literals one way",
                                     path, lineno)
            pb = pb or is_pb
            if v == 0:
                if neg:
                    raise InputError("'-0' is not a literal", path, lineno)
                ended_at = lineno
                continue
            val = not neg
            old = ans.values.get(v)
            if old is None:
                ans.values[v] = val
                ans.line_of[v] = lineno
            elif old != val:
                raise InputError(f"variable {v} is given both values (first on line {ans.line_of[v]})",
                                 path, lineno)
            else:  # no solver repeats a literal: a file edited or pasted together (1 1 for 1 11?)
                raise InputError(f"literal {tok} is given twice (first on line {ans.line_of[v]})", path, lineno)
            last_lit_line = lineno
    if ans is None and says_unknown:
        # Debian's CaDiCaL (sc2021) past -t or -c: 'c UNKNOWN', no status
        # line, exit 0; the external back end takes it as giving up, and so
        # does this (it was "no status line", QA)
        ans = Answer("UNKNOWN", "competition", path=path)
    if ans is None:
        raise InputError("not a SAT solver's answer: no status line ('s SATISFIABLE', 's UNSATISFIABLE', "
                         "'SAT' or 'UNSAT')", path)
    if ans.status == "SAT" and ended_at is None and not (pb and last_lit_line is not None):
        if last_lit_line is None:
            raise InputError("the answer says SATISFIABLE but gives no model ('v' lines); MiniSat writes "
                             "its model only to a result file: minisat model.cnf result.txt",
                             path, status_line)
        raise InputError("the model does not end with 0: the output looks truncated", path, last_lit_line)
    ans.header, ans.header_line = header, header_line
    return ans


#: digits past which a number in a DIMACS file is refused: int() refuses
#: 4,301, and no variable or count of a CNF has 20
MAX_DIGITS = 19


def _whole(digits: str, what: str, path: str | None, lineno: int) -> int:
    """``digits`` (ASCII, maybe with a '-'), as an int, or a file:line
    error when it is too long to be any number a CNF holds."""
    n = len(digits.lstrip("-").lstrip("0"))  # (leading zeros make no number larger)
    if n > MAX_DIGITS:
        raise InputError(f"{what} of {n:,} digits is too large", path, lineno)
    return int(digits)


def _ascii_hint(tok: str) -> str:
    """Why a token that looks like a number is not one: the digits DIMACS
    reads are ASCII 0-9, and a full-width '１' is not 1."""
    return " (digits must be ASCII 0-9)" if any(ch.isdigit() and not ch.isascii() for ch in tok) else ""


def _show(line: str) -> str:
    return repr(line if len(line) <= 60 else line[:57] + "...")


# ------------------------------------------------------------ CNF files


@dataclass
class CnfFile:
    """What :func:`read_cnf` found: counts, clauses, projection, header."""

    n_vars: int
    clauses: list[list[int]]
    show: list[int] | None
    header: Header | None
    comments_after_p: bool
    header_line: int | None = None
    n_clauses: int = 0
    p_line: int | None = None


def read_cnf(text: str, path: str | None = None, *, keep_clauses: bool = True) -> CnfFile:
    """A DIMACS CNF (for tests, pyganak and ``decode --cnf``): checks the
    ``p cnf`` counts against the clauses and collects ``c p show`` lines."""
    n_vars = n_clauses = None
    clauses: list[list[int]] = []
    cur: list[int] = []
    show: list[int] | None = None
    header = header_line = p_line = None
    after_p = False
    count = 0
    last_line = None  # the line of the last literal read
    for lineno, raw in enumerate(text_lines(text), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("c"):
            if n_vars is not None:
                after_p = True
            parts = line.split()
            if parts[1:3] == ["p", "show"]:
                if not all(re.fullmatch(r"[0-9]+", t) for t in parts[3:]):
                    raise InputError(f"a 'c p show' line lists variables (whole numbers), got "
                                     f"{shorten(' '.join(parts[3:]))!r}", path, lineno)
                ids = [_whole(t, "a variable", path, lineno) for t in parts[3:]]
                show = (show or []) + [i for i in ids if i != 0]
            elif parts[1:2] == [HEADER_TAG]:
                if header is not None:
                    raise InputError(f"second '{HEADER_TAG}' comment (the first is line {header_line})",
                                     path, lineno)
                header, header_line = Header.parse(line, path, lineno), lineno
            continue
        if line.startswith("p"):
            parts = line.split()
            if (len(parts) != 4 or parts[1] != "cnf" or n_vars is not None
                    or not all(re.fullmatch(r"[0-9]+", t) for t in parts[2:])):
                raise InputError(f"bad problem line {shorten(line)!r} (expected 'p cnf VARIABLES CLAUSES')",
                                 path, lineno)
            n_vars, n_clauses = (_whole(parts[2], "the variable count", path, lineno),
                                 _whole(parts[3], "the clause count", path, lineno))
            p_line = lineno
            continue
        if n_vars is None:
            if not re.fullmatch(r"-?[0-9]+(\s+-?[0-9]+)*", line):
                raise InputError(f"not a DIMACS CNF file: {shorten(line)!r} is neither a comment ('c ...'), "
                                 "the 'p cnf' line nor a clause", path, lineno)
            raise InputError("clause before the 'p cnf' line", path, lineno)
        for tok in line.split():
            if not re.fullmatch(r"-?[0-9]+", tok):  # ASCII: int() would read a full-width '１'
                raise InputError(f"not a literal: {shorten(tok)!r}{_ascii_hint(tok)}", path, lineno)
            lit = _whole(tok, "a literal", path, lineno)
            last_line = lineno
            if abs(lit) > n_vars:
                raise InputError(f"literal {lit} beyond the header's {n_vars} variables", path, lineno)
            if lit == 0:
                count += 1
                if keep_clauses:
                    clauses.append(cur)
                cur = []
            else:
                cur.append(lit)
    if n_vars is None:
        raise InputError("no 'p cnf' line: not a DIMACS CNF file", path)
    if cur:
        raise InputError("the last clause does not end with 0", path, last_line)
    if count != n_clauses:
        raise InputError(f"the 'p cnf' line says {n_clauses} clauses, the file has {count}", path, p_line)
    if header is not None and (header.vars, header.clauses) != (n_vars, n_clauses):
        raise InputError(f"the 'p cnf' line says {n_vars} variables and {n_clauses} clauses but the "
                         f"'{HEADER_TAG}' comment (line {header_line}) says {header.vars} and "
                         f"{header.clauses}: the file was changed after puzzlesat wrote it", path, p_line)
    return CnfFile(n_vars, clauses, show, header, after_p, header_line, n_clauses, p_line)


def falsified(clauses: Iterable[list[int]], values: dict[int, bool]) -> list[int]:
    """Indices (0-based) of the clauses whose every literal is assigned false."""
    out = []
    for i, cl in enumerate(clauses):
        if all(values.get(abs(l)) is (l < 0) for l in cl):
            out.append(i)
    return out


#: conflicts the check that a partial answer extends to a model may spend
#: (its primary values fix the rest by propagation in every export; past the
#: budget the answer is taken as it is)
EXTEND_CONFLICTS = 100_000
#: values named in a message about a partial answer no model has
CONFLICT_SHOWN = 12


def conflict_said(lits: list[str]) -> str:
    """'its literal 5' or 'its literals 1 -2 together' (the first
    CONFLICT_SHOWN, then '...'): the values of :func:`no_model_with`'s core,
    as a message about an answer says them."""
    shown = " ".join(lits[:CONFLICT_SHOWN]) + (" ..." if len(lits) > CONFLICT_SHOWN else "")
    return f"its literal {shown}" if len(lits) == 1 else f"its literals {shown} together"


def no_model_with(clauses: Iterable[Sequence[int]], values: dict[int, bool]) -> list[int] | None:
    """None when some model of ``clauses`` has every value of ``values`` (or
    the check ran out of EXTEND_CONFLICTS), else the values (as literals,
    by variable) that no model has together: the solver's core.  For an
    answer that leaves variables unassigned, which no clause then shows
    false, though no model may have the values it gives."""
    from pysat.solvers import Solver

    assumptions = [v if b else -v for v, b in sorted(values.items())]
    with Solver(name="minisat22", bootstrap_with=clauses) as s:
        s.conf_budget(EXTEND_CONFLICTS)
        if s.solve_limited(assumptions=assumptions) is not False:
            return None
        return sorted(s.get_core() or assumptions, key=abs)
