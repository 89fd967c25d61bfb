"""A nonogram line as block starts in the order encoding, written as clauses.

The alternative to the run-length automaton (``Regular``) for one line: block
``j`` of the clue ``(b_0, ..., b_{k-1})`` starts at an integer position
``s_j``, and the family emits, as auxiliary (non-primary) Problem variables,
the order literals

    ``y[j, p]`` = "block j starts at or before position p"

for the positions ``lo_j <= p < hi_j`` where that is undecided (``lo_j`` and
``hi_j`` are the leftmost and rightmost starts the clue allows; below ``lo_j``
the literal is false, from ``hi_j`` on it is true).  Clauses, where ``x_i``
is cell ``i`` of the line (true = black):

1. ``y[j, p] -> y[j, p + 1]``  (the order literals of one block are monotone);
2. ``y[j + 1, p] -> y[j, p - b_j - 1]``  (``s_j + b_j + 1 <= s_{j+1}``: a gap
   of at least one white cell between consecutive blocks);
3. ``-x_i | -y[j, i] | y[j, i - b_j]`` for every block j that can cover i
   (a white cell is covered by no block);
4. ``-x_i | y[0, i]`` and ``-x_i | -y[j, i] | y[j + 1, i] | -y[j, i - b_j]``
   (a black cell is covered by the last block started at or before it).

Exact: a model of 1-2 is a sequence of starts separated by gaps, and 3-4 say
the black cells are exactly the union of those blocks, so the words the
clauses allow are the clue's words; and the starts are functions of the
word, so the encoding is parsimonious (counting all variables or only the
cells gives the same number).  No auxiliary variable besides the order
literals (at most ``n`` per block), no cardinality constraint.

Unlike the automaton encoding, unit propagation on one line is *not* full
line reasoning.  What it gives instead are literals a CDCL solver learns
well over ("block j has started by column p"), in a CNF a third the size:
measured 3-4x faster than the automaton encoding, alone or together, on
every puzzle of the benchmark (benchmarks/nonograms-results.md).  This is
the integer model of Tamura's Copris nonogram solver written out by hand.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Sequence


class _Constant:
    """True or false in a clause under construction (not an int: ``in``
    compares by ==, and True == 1 would take literal 1 for it)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_TRUE, _FALSE = _Constant("TRUE"), _Constant("FALSE")


class BlockStart(NamedTuple):
    """Meaning of an order literal: block ``block`` (0-based) of ``line`` starts
    at or before ``pos``.  ``line`` is ``("row", r)`` or ``("column", c)``."""

    line: tuple[str, int]
    block: int
    pos: int

    def __str__(self) -> str:
        kind, i = self.line
        return f"block {self.block + 1} of {kind} {i + 1} starts at or before cell {self.pos + 1}"


def start_bounds(clue: Sequence[int], n: int) -> tuple[list[int], list[int]]:
    """Leftmost and rightmost start of each block of ``clue`` in a line of ``n``."""
    lo, hi = [], []
    a = 0
    for b in clue:
        lo.append(a)
        a += b + 1
    e = n
    for b in reversed(clue):
        e -= b
        hi.append(e)
        e -= 1
    hi.reverse()
    return lo, hi


def block_clauses(cells: Sequence[int], clue: Sequence[int],
                  order_var: Callable[[int, int], int],
                  bounds: tuple[Sequence[int], Sequence[int]] | None = None) -> list[tuple[int, ...]]:
    """The clauses above for one line.

    ``cells`` are the line's cell literals; ``order_var(j, p)`` returns the
    variable of "block j starts at or before p" (called only for undecided
    ones).  The clue must fit the line (the parsers check it).  ``bounds``:
    each block's leftmost and rightmost start, when narrower than the clue
    alone allows (the line solver's, :func:`.linesolve.start_ranges`); every
    solution's starts must lie within them.  The clauses stay exact: a
    block's rightmost start plus its length and a gap is at most the next
    one's (the starts of one placement), which clause 2 needs beyond the
    windows.
    """
    n, k = len(cells), len(clue)
    if k == 0:
        return [(-x,) for x in cells]
    lo, hi = bounds if bounds is not None else start_bounds(clue, n)
    y = [{p: order_var(j, p) for p in range(lo[j], hi[j])} for j in range(k)]
    # each negative literal made once and shared by its clauses: negating in
    # every clause made a new int object each time (a sixth of the model's
    # memory on a 400x400 puzzle)
    ny = [{p: -v for p, v in d.items()} for d in y]
    nx = [-x for x in cells]
    TRUE, FALSE = _TRUE, _FALSE

    def ge(j: int, p: int):
        """Literal (or constant) for s_j <= p."""
        if j >= k or p < lo[j]:
            return FALSE
        if p >= hi[j]:
            return TRUE
        return y[j][p]

    def gt(j: int, p: int):
        """Literal (or constant) for s_j > p, the negation of ``ge(j, p)``."""
        if j >= k or p < lo[j]:
            return TRUE
        if p >= hi[j]:
            return FALSE
        return ny[j][p]

    out: list[tuple[int, ...]] = []

    def add(*lits) -> None:
        """A clause of literals and constants."""
        if TRUE in lits:
            return
        out.append(tuple(l for l in lits if l is not FALSE) if FALSE in lits else lits)

    for j in range(k):
        for p in range(lo[j], hi[j] - 1):
            add(ny[j][p], y[j][p + 1])
        if j + 1 < k:
            for p in range(lo[j + 1], hi[j + 1]):
                add(ny[j + 1][p], ge(j, p - clue[j] - 1))
    first = 0  # below it, every block j has s_{j+1} <= i for sure: its clauses at i hold
    for i, x in enumerate(cells):
        add(nx[i], ge(0, i))
        while first + 1 < k and hi[first + 1] <= i:
            first += 1
        for j in range(first, k):
            if i < lo[j]:
                break  # block j (and every later one) cannot have started yet
            b = clue[j]
            if i < hi[j] + b:  # block j can cover i
                add(x, gt(j, i), ge(j, i - b))
            add(nx[i], gt(j, i), ge(j + 1, i), gt(j, i - b))
    return out


def block_positions(clue: Sequence[int], n: int, order_var: Callable[[int, int], int],
                    bounds: tuple[Sequence[int], Sequence[int]] | None = None) -> list[list[tuple[int, ...]]]:
    """For each block of ``clue`` that can move, its starts as alternatives
    over the order literals: "starts at p" is ``y[j, p] & -y[j, p - 1]``
    (one literal at either end).  Exactly one holds in every solution, so a
    count can split on them (Problem.partitions).  ``bounds`` as for
    :func:`block_clauses`."""
    lo, hi = bounds if bounds is not None else start_bounds(clue, n)
    out = []
    for j in range(len(clue)):
        if hi[j] == lo[j]:
            continue
        alts = [(order_var(j, lo[j]),)]
        alts += [(order_var(j, p), -order_var(j, p - 1)) for p in range(lo[j] + 1, hi[j])]
        alts.append((-order_var(j, hi[j] - 1),))
        out.append(alts)
    return out
