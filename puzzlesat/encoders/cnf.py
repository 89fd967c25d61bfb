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

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ..problem import AtMostOne, Clause, Exactly, ExactlyOne, Problem, Regular

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
    clauses: list[list[int]]
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


def encode_cnf(problem: Problem, encoding: str = DEFAULT_ENCODING) -> CnfEncoding:
    check_encoding(encoding)
    pool = IDPool()
    for m in problem.meanings:
        pool.id(("var", m))
    assert pool.top == problem.n_vars
    clauses: list[list[int]] = []
    for c in problem.constraints:
        if isinstance(c, Clause):
            clauses.append(_clean_clause(c.lits))
        elif isinstance(c, ExactlyOne):
            clauses.extend(_card(list(c.vars), 1, encoding, pool, exact=True))
        elif isinstance(c, AtMostOne):
            clauses.extend(_card(list(c.vars), 1, encoding, pool, exact=False))
        elif isinstance(c, Exactly):
            clauses.extend(_card(list(c.vars), c.k, encoding, pool, exact=True))
        elif isinstance(c, Regular):
            from .regular import regular_cnf

            clauses.extend(regular_cnf(list(c.vars), c.automaton, pool))
        else:  # pragma: no cover - the IR is closed
            raise EncodingError(f"cannot encode {type(c).__name__}")
    return CnfEncoding(problem, encoding, [cl for cl in clauses if cl is not None], pool)


def _clean_clause(lits) -> list[int] | None:
    """Drop repeated literals; a tautology (x and -x) becomes None (dropped)."""
    seen: dict[int, None] = {}
    for l in lits:
        if -l in seen:
            return None
        seen[l] = None
    return list(seen)


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
        out.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=enc).clauses)
        return out
    enc = ENCODINGS[encoding]
    if enc in _AT_MOST_ONE_ONLY:
        enc = EncType.seqcounter
    f = CardEnc.equals(lits, k, vpool=pool, encoding=enc) if exact else CardEnc.atmost(lits, k, vpool=pool, encoding=enc)
    return [list(cl) for cl in f.clauses]
