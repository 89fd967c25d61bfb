"""How many solutions an exact cover has, roughly: Knuth's estimator.

A random descent of the exact-cover search tree (Algorithm X's: branch on
the item with the fewest live options, take one of them uniformly at
random) that ends in a solution estimates the number of solutions by the
product of the branching degrees along its path; one that ends in a dead end
estimates 0.  Every solution is reached by exactly one path, so the mean is
unbiased (Knuth, "Estimating the efficiency of backtrack programs", 1975).

``count`` uses it to choose an engine: enumerating engines pay per solution,
a model counter does not.  The estimate only needs its order of magnitude,
and only where most descents end in solutions (a loosely constrained cover
such as a board of dominoes); there the variance is small.  Where most
descents die (pentomino boxes), solutions are few and far between, the mean
of a few dozen descents says little, and enumeration is the right choice
anyway.

A tiny cover's descents cost more than counting it: :func:`solution_bound`
first bounds its count from above (one pass over the options), and when the
bound already settles the choice no descent is made.

Works on the Problem IR through its exact-cover form; knows no puzzle rule.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from heapq import heappop, heappush

from .encoders.exactcover import ExactCover, NotExactCover, exact_cover
from .problem import Problem


@dataclass(frozen=True)
class Estimate:
    solutions: float  # the mean of the descents' estimates (or, when bounded, the bound)
    hit_rate: float  # the share of descents that ended in a solution
    descents: int
    bounded: bool = False  # no descents: ``solutions`` is solution_bound's upper bound


def estimate_solutions(problem: Problem, *, descents: int = 128, batch: int = 16,
                       min_hit_rate: float = 0.5, seed: int = 0, budget: float = 0.3,
                       few: float | None = None) -> Estimate | None:
    """Knuth's estimate of ``problem``'s solution count, or None when the
    problem is not an exact cover.  Descents run in batches; after each batch
    the run stops early once fewer than ``min_hit_rate`` of them have ended
    in a solution (the estimate is then unreliable and reported as such, at
    the cost of at most one batch: a batch stops as soon as its end would be
    below the rate whatever its last descents do), or once ``budget`` CPU seconds have passed (a
    large cover then gets fewer descents).  Seeded: the same problem gets the
    same answer, unless the budget cuts it short.

    ``few``: when :func:`solution_bound` proves fewer solutions than that,
    no descent is made and the Estimate is the bound (``bounded``, with a hit
    rate of 1: it is certain)."""
    try:
        cases = exact_cover(problem)
    except NotExactCover:
        return None
    if not cases:
        return Estimate(0.0, 0.0, 0)
    if few is not None:
        bound = sum(solution_bound(ec) for ec in cases)
        if bound < few:
            return Estimate(bound, 1.0, 0, bounded=True)
    rng = random.Random(seed)
    start = time.process_time()
    trees = [_Tree(ec) for ec in cases]
    total = 0.0
    hits = 0
    done = 0
    while done < descents:
        end = done + min(batch, descents - done)
        while done < end:
            # the cases partition the solutions: the estimate is the sum
            values = [t.descend(rng) for t in trees]
            total += sum(values)
            hits += any(values)
            done += 1
            if hits + (end - done) < min_hit_rate * end:
                break  # (the batch would end below the hit rate whatever its last descents: 9 of
                # a pentomino box's 16 dead descents settle it, a third of 5x3x2x2's count up to symmetry)
        if hits < min_hit_rate * done or time.process_time() - start > budget:
            break
    return Estimate(total / done, hits / done, done)


def fewer_than(problem: Problem, few: float) -> bool:
    """Whether :func:`solution_bound` proves that the exact cover
    ``problem`` has fewer than ``few`` solutions (False when it is no exact
    cover, or the bound says nothing)."""
    try:
        cases = exact_cover(problem)
    except NotExactCover:
        return False
    return sum(solution_bound(ec) for ec in cases) < few


def solution_bound(ec: ExactCover) -> float:
    """An upper bound on the number of ``ec``'s solutions, in one pass over
    its options (inf when some option covers no item the bound counts, or
    past a float's range).

    Keep only the primary items covered once (dropping constraints only adds
    solutions) and number them.  Build a solution by always covering the
    lowest uncovered item j: every lower item is covered, so the option
    taken has j as its lowest item, and the next uncovered item is at least
    next(o), the first item above j that o leaves out.  Each solution is one
    such sequence, so the solutions from "j is the lowest uncovered item" are
    at most f(j) = sum over options o whose lowest item is j of g(next(o)),
    where g(k) = max(f(k'), k' >= k) and f(n) = 1 (all covered).  It can be
    exact (2 x 8 dominoes numbered row by row: 34), but it is loose wherever
    the dropped items (a piece used once) prune the covers: it only spares
    the descents of small boards (tetromino-L-4x4: 32,000 against 10)."""
    kept = {j: i for i, j in enumerate(j for j, (mult, primary) in enumerate(ec.items) if primary and mult == 1)}
    n = len(kept)
    nexts: list[list[int]] = [[] for _ in range(n)]  # by lowest item: next(o) of each option
    for its in ec.options:
        ks = sorted(kept[i] for i in its if i in kept)
        if not ks:
            return math.inf  # taken or not by every solution alike
        nxt = ks[0] + 1
        for k in ks[1:]:
            if k != nxt:
                break
            nxt += 1
        nexts[ks[0]].append(nxt)
    g = [1.0] * (n + 1)
    f = 1.0
    for j in range(n - 1, -1, -1):
        f = sum(g[k] for k in nexts[j])  # (inf past 1e308: fsum raised OverflowError on 40 x 40 dominoes)
        g[j] = max(f, g[j + 1])
    return f


class _Tree:
    """The search tree of one exact cover, for random descents."""

    def __init__(self, ec: ExactCover):
        self.options = [tuple(its) for its in ec.options]
        self.item_options: list[list[int]] = [[] for _ in ec.items]
        for o, its in enumerate(self.options):
            for i in its:
                self.item_options[i].append(o)
        self.need0 = [m if primary else 0 for m, primary in ec.items]
        self.cap0 = [m for m, _ in ec.items]
        self.live0 = [len(os) for os in self.item_options]

    def descend(self, rng: random.Random) -> float:
        need, cap, live = self.need0[:], self.cap0[:], self.live0[:]
        alive = [True] * len(self.options)
        options, item_options = self.options, self.item_options
        # the open items (still to be covered) in heaps by their number of
        # live options; the MRV item is the lowest-numbered one in the lowest
        # non-empty heap (ties by number keep a descent on a board's frontier,
        # where fewer descents strand a cell).  Entries go stale when an item
        # loses an option (live counts only fall) or is covered: dropped lazily.
        heaps: list[list[int]] = [[] for _ in range(max(live, default=0) + 1)]
        for i, n in enumerate(need):
            if n > 0:
                heaps[live[i]].append(i)
        n_open = sum(len(h) for h in heaps)
        product = 1.0

        def kill(o):
            alive[o] = False
            for i in options[o]:
                live[i] -= 1
                if need[i] > 0:
                    heappush(heaps[live[i]], i)

        def mrv():
            for k, h in enumerate(heaps):
                while h and (need[h[0]] == 0 or live[h[0]] != k):
                    heappop(h)
                if h:
                    return h[0]
            raise AssertionError("an open item in no heap")

        while n_open:
            item = mrv()
            cands = [o for o in item_options[item] if alive[o]]
            if not cands:
                return 0.0
            o = rng.choice(cands)
            product *= len(cands)
            kill(o)
            for i in options[o]:
                cap[i] -= 1
                if need[i] > 0:
                    need[i] -= 1
                    if need[i] == 0:
                        n_open -= 1
                if cap[i] == 0:
                    for o2 in item_options[i]:
                        if alive[o2]:
                            kill(o2)
            if need[item] > 0:
                # an item still to be covered again: its options are taken in
                # increasing order, so each multiset of them is one path
                for o2 in item_options[item]:
                    if o2 < o and alive[o2]:
                        kill(o2)
        return product
