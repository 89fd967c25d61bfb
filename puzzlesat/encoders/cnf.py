"""Problem -> CNF (PySAT), with a selectable cardinality encoding.

Problem variables keep their numbers: the pool is keyed by meaning and hands
out ids 1..n to the problem's variables in order, so CNF id == problem
variable and decoding needs no table.  Auxiliary variables (counters,
automaton states) come after n and are never primary.

Encodings of ExactlyOne / AtMostOne / Exactly(k) (PySAT's ``EncType`` names):

- ``pairwise``: no auxiliaries, n(n-1)/2 binary clauses; the fastest to
  enumerate with on exact covers, and the largest (1.3 M clauses on 6x10).
- ``seqcounter``, ``ladder``, ``bitwise``, ``sortnetwrk``, ``cardnetwrk``,
  ``totalizer``, ``mtotalizer``, ``kmtotalizer``: PySAT's.
- ``mixed`` (the default): pairwise for groups of up to ``MIXED_PAIRWISE_MAX``
  variables, sequential counter above; bounded clause count, and most
  exact-cover cells are small groups.

Pairwise, bitwise and ladder only say "at most one"; for Exactly(k) with
k > 1 those choices (and mixed) fall back to the sequential counter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from pycard import error as _CardError
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ..problem import AtMostOne, Clause, Exactly, ExactlyOne, Problem, Regular
from . import deadline, kept
from .kept import EncodingStopped

ENCODINGS = {
    "mixed": None,
    "pairwise": EncType.pairwise,
    "seqcounter": EncType.seqcounter,
    "ladder": EncType.ladder,
    "bitwise": EncType.bitwise,
    "sortnetwrk": EncType.sortnetwrk,
    "cardnetwrk": EncType.cardnetwrk,
    "totalizer": EncType.totalizer,
    "mtotalizer": EncType.mtotalizer,
    "kmtotalizer": EncType.kmtotalizer,
}
DEFAULT_ENCODING = "mixed"
MIXED_PAIRWISE_MAX = 40
_AT_MOST_ONE_ONLY = (None, EncType.pairwise, EncType.bitwise, EncType.ladder)


class EncodingError(ValueError):
    pass


@dataclass
class CnfEncoding:
    """A CNF for a Problem: clauses over ids 1..n_vars, the first
    ``problem.n_vars`` of which are the problem's variables."""

    problem: Problem
    encoding: str
    clauses: list[Sequence[int]]  # (lists, and the tuples of Clause constraints as they are)
    pool: IDPool

    @property
    def n_vars(self) -> int:
        return max(self.pool.top, self.problem.n_vars)

    @property
    def n_clauses(self) -> int:
        return len(self.clauses)

    def true_primary(self, model) -> frozenset:
        """The true primary variables of a solver model (list of literals)."""
        n = self.problem.n_vars
        true = {l for l in model if 0 < l <= n}
        return frozenset(v for v in self.problem.primary if v in true)


def check_encoding(name: str) -> str:
    if name not in ENCODINGS:
        raise EncodingError(f"unknown encoding {name!r}; choose one of: {', '.join(ENCODINGS)}")
    return name


def encode_cnf(problem: Problem, encoding: str = DEFAULT_ENCODING, expired=None) -> CnfEncoding:
    """The CNF of ``problem``.  Within :func:`keeping` of a problem it
    derives from, only the constraints after that problem's are encoded
    (the result is the same).  ``expired`` (a callable), asked before each
    constraint, stops the encoding with EncodingStopped when it answers True."""
    check_encoding(encoding)
    base = kept.base_of(("cnf", encoding), problem)
    if base is None:
        pool, clauses, rest = _pool(problem), [], problem.constraints
    else:
        enc, n = base
        pool, clauses, rest = IDPool(start_from=enc.n_vars + 1), list(enc.clauses), problem.constraints[n:]
    first = len(clauses)
    for i, c in enumerate(rest):
        if expired is not None and not i % 256 and expired():
            raise EncodingStopped
        if type(c) is Clause:  # (most of a nonogram's, and every equality's: the short way)
            clauses.append(clean_clause(c.lits))
        else:
            clauses.extend(_encode_one(c, encoding, pool))
    if None in clauses[first:]:  # tautologies, dropped
        clauses[first:] = [cl for cl in clauses[first:] if cl is not None]
    return CnfEncoding(problem, encoding, clauses, pool)


def keeping(problem: Problem, encoding: str = DEFAULT_ENCODING, expired=None):
    """A block that encodes ``problem`` on entering and lets
    :func:`encode_cnf` start from it for the problems derived from it until
    it ends (:mod:`.kept`); nothing is kept when ``expired`` answers True first."""
    return kept.keeping(("cnf", encoding), problem, lambda: encode_cnf(problem, encoding, expired))


def cnf_size(problem: Problem, encoding: str = DEFAULT_ENCODING) -> tuple[int, int, int]:
    """(variables, clauses, literals) of ``encode_cnf(problem, encoding)``,
    without keeping its clauses: each constraint's are counted and dropped,
    and a pairwise at-most-one's are counted without being built (n(n-1)/2
    binary clauses).  ``info`` built every encoding in full: 24 GB on a
    legal 3,240-cell line board with pieces up to 80 long (QA)."""
    return cnf_sizes(problem, [encoding])[0]


def cnf_sizes(problem: Problem, encodings: Sequence[str]) -> list[tuple[int, int, int]]:
    """:func:`cnf_size` for each of ``encodings``, in one pass: clauses and
    automata are written alike whatever the cardinality encoding, so they
    are counted once (``info`` sized a nonogram's CNF once per encoding: 16.7
    of its 21.5 s on a 120x120 picture, for six equal rows)."""
    for e in encodings:
        check_encoding(e)
    pool = _pool(problem)
    same = [0, 0, 0]  # clauses, literals, auxiliary variables: every encoding's
    own = {e: [0, 0, 0] for e in encodings}
    # a cardinality constraint's size depends only on its kind, k and the
    # number of its (distinct) variables: each shape is encoded once per
    # encoding (22 pentahexes in a hexagon of side 8 have 191 constraints of
    # 45 shapes, whose totalizers took most of info's 53 s)
    sizes: dict[tuple, tuple[int, int, int]] = {}
    for c in problem.constraints:
        if isinstance(c, (Clause, Regular)):
            _count(same, c, None, pool)
            continue
        for e, total in own.items():
            pairs = _pairwise_size(c, e)
            if pairs is not None:
                total[0] += pairs[0]
                total[1] += pairs[1]
                continue
            shape = _shape(c)
            key = None if shape is None else (e, shape)
            got = sizes.get(key)
            if got is None:
                got = _count([0, 0, 0], c, e, pool)
                if key is not None:
                    sizes[key] = got
            for i in range(3):
                total[i] += got[i]
    return [(problem.n_vars + same[2] + own[e][2], same[0] + own[e][0], same[1] + own[e][1]) for e in encodings]


def _count(total: list[int], c, encoding: str | None, pool: IDPool) -> list[int]:
    """Add one constraint's clauses, literals and auxiliary variables, as
    the export writes them (the sorting and cardinality networks repeat a
    literal in some clauses), to ``total``, and return it."""
    top = pool.top
    for cl in ((c.lits,) if isinstance(c, Clause) else _encode_one(c, encoding, pool)):
        cl = cl if cl is None else clean_clause(cl)
        if cl is not None:
            total[0] += 1
            total[1] += len(cl)
    total[2] += pool.top - top
    return total


def _shape(c) -> tuple | None:
    """What a cardinality constraint's clauses depend on, up to renaming
    its variables: (kind, k, n) when its n variables are distinct; None
    for any other constraint."""
    k = {ExactlyOne: 1, AtMostOne: 1}.get(type(c)) or (c.k if isinstance(c, Exactly) else None)
    if k is None or len(set(c.vars)) < len(c.vars):
        return None
    return type(c).__name__, k, len(c.vars)


def _pool(problem: Problem) -> IDPool:
    """Fresh ids for the auxiliary variables, from n_vars + 1 on (the
    problem's variables, 1..n_vars, are its own: registering each meaning,
    as this did, took 0.4 s per encoding on 179,400 placements)."""
    return IDPool(start_from=problem.n_vars + 1)


def _encode_one(c, encoding: str, pool: IDPool) -> list:
    """One constraint's clauses (None for a clause that is a tautology)."""
    if isinstance(c, Clause):
        return [clean_clause(c.lits)]
    if isinstance(c, ExactlyOne):
        return _card(list(c.vars), 1, encoding, pool, exact=True)
    if isinstance(c, AtMostOne):
        return _card(list(c.vars), 1, encoding, pool, exact=False)
    if isinstance(c, Exactly):
        return _card(list(c.vars), c.k, encoding, pool, exact=True)
    if isinstance(c, Regular):
        from .regular import regular_cnf

        return regular_cnf(list(c.vars), c.automaton, pool)
    raise EncodingError(f"cannot encode {type(c).__name__}")  # pragma: no cover - the IR is closed


def _pairwise_size(c, encoding: str) -> tuple[int, int] | None:
    """(clauses, literals) of a one-of-n constraint that :func:`_card`
    encodes pairwise (n >= 2: the clause of all n when exact, and the
    n(n-1)/2 binary clauses), or None for any other constraint."""
    if isinstance(c, (ExactlyOne, AtMostOne)) or (isinstance(c, Exactly) and c.k == 1):
        n = len(c.vars)
        if len(set(c.vars)) < n:
            return None  # a variable twice: its clauses, cleaned as written, are counted one by one
        if n >= 2 and (encoding == "pairwise" or (encoding == "mixed" and n <= MIXED_PAIRWISE_MAX)):
            exact = not isinstance(c, AtMostOne)
            pairs = n * (n - 1) // 2
            return pairs + exact, 2 * pairs + (n if exact else 0)
    return None


def clean_clause(lits):
    """Drop repeated literals; a tautology (x and -x) becomes None (dropped).
    A clause that has neither is returned as it is, not copied: the
    Problem's tuple of a Clause is the encoding's clause (a copy of each
    was a fifth of the memory of a 400x400 nonogram's model and CNF)."""
    n = len(lits)
    if n == 2:  # (the most common by far)
        a, b = lits
        return None if a == -b else [a] if a == b else lits
    if n == 3:
        a, b, c = lits
        if a != b and a != c and b != c:
            return None if a == -b or a == -c or b == -c else lits
    seen: dict[int, None] = {}
    for l in lits:
        if -l in seen:
            return None
        seen[l] = None
    return lits if len(seen) == n else list(seen)


def _card(lits: list[int], k: int, encoding: str, pool: IDPool, exact: bool) -> list[list[int]]:
    n = len(lits)
    if k < 0:
        return [[]]
    if k > n:
        return [[]] if exact else []
    if k == 0:
        return [[-l] for l in lits]
    if not exact and k >= n:
        return []
    if exact and k == n:
        return [[l] for l in lits]
    out: list[list[int]] = []
    if k == 1:
        if exact:
            out.append(list(lits))
        if n == 1:
            return out
        if encoding == "pairwise" or (encoding == "mixed" and n <= MIXED_PAIRWISE_MAX):
            out.extend([-lits[i], -lits[j]] for i in range(n) for j in range(i + 1, n))
            return out
        enc = ENCODINGS[encoding] if encoding != "mixed" else EncType.seqcounter
        out.extend(_card_enc(CardEnc.atmost, lits, 1, pool, enc).clauses)
        return out
    enc = ENCODINGS[encoding]
    if enc in _AT_MOST_ONE_ONLY:
        enc = EncType.seqcounter
    f = _card_enc(CardEnc.equals if exact else CardEnc.atmost, lits, k, pool, enc)
    return f.clauses  # (PySAT's own new lists: a copy of each was a fifth of encoding 80x80 dominoes and monominoes)


def _card_enc(make, lits, k, pool, enc):
    """PySAT's cardinality encoder; a Ctrl-C inside it, which its C code
    turns into ``pycard.error("Caught keyboard interrupt")``, is a
    KeyboardInterrupt again (it was a traceback and exit 1, "no solution").
    A large call under a time limit is stopped at it (:mod:`.deadline`)."""
    timed = deadline.timed(len(lits) * max(k, 1))
    try:
        if timed is None:
            return make(lits, k, vpool=pool, encoding=enc)
        timer, seconds = timed
        timer.arm(seconds)
        try:
            return make(lits, k, vpool=pool, encoding=enc)
        finally:
            timer.disarm()
    except _CardError as e:
        if "interrupt" in str(e):
            deadline.sigint_as_python_had_it()
            raise KeyboardInterrupt from None
        raise


#: the code that puts SIGINT back after PySAT's encoder caught one: a time
#: limit must not be raised there (commands.common._unsafe_to_raise), or
#: SIGINT stays held back for good
RESTORING_SIGINT = (deadline.sigint_as_python_had_it.__code__, _card_enc.__code__)
