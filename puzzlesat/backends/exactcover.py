"""Exact cover by dancing links (miniexact: Knuth's Algorithms X, C and M).

The translation Problem -> items/options lives in
:mod:`puzzlesat.encoders.exactcover`; this module runs it.  Algorithm X
(``"x"``) takes exact covers whose primary items are each covered once,
Algorithm M (``"m"``) the ones with multiplicities (repeated pieces); ``"auto"``
picks X where it can (measured faster, see benchmarks/counting-results.md).

miniexact's ``solve()`` is a blocking C call that returns at each solution and
has no callback or interrupt, so the search runs in a child process
(:class:`~puzzlesat.backends.base.Child`: forked, or a new Python in a
daemonic Dask worker) that streams counts (and, when asked for, solutions)
back through a pipe; the parent enforces the time limit and Ctrl-C by
killing the child, and reports what it had received as a lower bound.  In
the local pool's workers (whose parent terminates them), or where the search
tree provably has so few nodes that starting a child costs more than the
search (:func:`tree_bound`), the search runs inline and can stop only
between solutions.
"""

from __future__ import annotations

import math
import time

from ..encoders.exactcover import ExactCover, NotExactCover, exact_cover, unsupported_reason
from ..problem import Problem
from .base import Backend, BackendError, Child, Deadline, SearchResult, ignore_sigint, may_start_child

ALGORITHMS = ("auto", "x", "m", "c")
#: seconds between progress messages from the search
REPORT_EVERY = 0.05
#: solutions per message when solutions are streamed
BATCH = 2048
#: a search whose tree provably has at most this many nodes runs inline: a
#: child process would cost more than the search (miniexact visits ~1e7
#: nodes a second), and Ctrl-C waits for it no longer than that
INLINE_NODES = 200_000


class ExactCoverBackend(Backend):
    name = "exact"
    # a count need not stream every solution through the pipe to be decoded
    solutions_are_free = False

    def __init__(self, algorithm: str = "auto", isolate: bool | None = None):
        """``algorithm``: auto / x / m / c.  ``isolate``: run the search in a
        child process (None: unless the tree is tiny or this is a local
        pool worker, see :func:`~puzzlesat.backends.base.may_start_child`)."""
        if algorithm not in ALGORITHMS:
            raise BackendError(f"unknown miniexact algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
        import miniexact  # noqa: F401  (fail at construction when missing)

        self.algorithm = algorithm
        self.isolate = isolate
        self._cache: tuple | None = None

    # -- translation, cached for the supports() + search() pair
    def _cases(self, problem: Problem) -> list[ExactCover]:
        key = (id(problem), len(problem.constraints), problem.n_vars)
        if self._cache is not None and self._cache[0] == key and self._cache[1] is problem:
            return self._cache[2]
        cases = exact_cover(problem)
        self._cache = (key, problem, cases)
        return cases

    def supports(self, problem: Problem) -> str | None:
        if self.algorithm == "auto":
            # classifying the constraints is enough (a fraction of the full
            # translation, which the search does; callers that pick an engine
            # often search another problem); a rare refusal found only by the
            # translation (too many cases) is raised by the search
            why = unsupported_reason(problem)
            return None if why is None else f"not an exact cover: {why}"
        try:
            return self._refusal(self._cases(problem))
        except NotExactCover as e:
            return f"not an exact cover: {e}"

    def _refusal(self, cases) -> str | None:
        if self.algorithm in ("x", "c") and any(c.needs_multiplicity for c in cases):
            return f"algorithm {self.algorithm.upper()} cannot cover an item more than once (use M)"
        return None

    def search(self, problem: Problem, *, limit=None, time_limit=None, keep=False, on_solution=None,
               phases=None, on_count=None, hand_back=None):
        deadline = Deadline(time_limit)
        # supports() in full: the translation classifies the constraints
        # itself (auto's supports() would classify them once more)
        try:
            cases = self._cases(problem)
            why = self._refusal(cases)
        except NotExactCover as e:
            why = f"not an exact cover: {e}"
        if why:
            raise BackendError(f"backend 'exact' cannot take this problem: {why}")
        algos = [_pick(self.algorithm, c) for c in cases]
        want = keep or on_solution is not None
        # hand_back: the child streams only the solutions that choose every
        # option of one of these sets, and counts the others
        sets = None if hand_back is None or not want else [c.option_sets(hand_back) for c in cases]
        stats = {"cases": len(cases), "algorithm": "/".join(sorted(set(algos))) or "-",
                 "options": sum(len(c.options) for c in cases),
                 "items": sum(len(c.items) for c in cases)}
        isolate = self.isolate
        if isolate is None:
            isolate = may_start_child() and not all(a == "x" and tree_bound(c) <= INLINE_NODES
                                                    for c, a in zip(cases, algos))
        stats["isolated"] = bool(isolate)

        count, sols, stopped, complete = 0, [], None, False
        if not cases:  # the translation already found the problem infeasible
            return SearchResult(0, True, self.name, deadline.elapsed(), [], None, stats)
        if limit is not None and limit <= 0:
            return SearchResult(0, False, self.name, deadline.elapsed(), [], "limit", stats)

        def take(batch) -> bool:
            """Record streamed solutions; True when the caller wants to stop."""
            nonlocal count, stopped
            for ci, chosen in batch:
                sol = cases[ci].solution(chosen)
                count += 1
                if keep:
                    sols.append(sol)
                if on_solution is not None and on_solution(sol):
                    stopped = "callback"
                    return True
            return False

        sent = unsent = 0  # (hand_back: the solutions in the batches read, and those left out of them)
        if isolate:
            messages = _in_child(cases, algos, limit, want, deadline, sets)
        else:
            messages = _with_deadline(_messages(cases, algos, limit, want, sets), deadline)
        try:
            for msg in _with_deadline(messages, deadline):
                kind = msg[0]
                if kind == "timeout":
                    stopped = "time-limit"
                    break
                if kind == "sols":
                    if take(msg[1]):
                        break
                    if sets is not None:  # (only once the batch is taken: see SearchResult.unsent)
                        sent += len(msg[1])
                        count, unsent = msg[2], msg[2] - sent
                        if on_count is not None and on_count(count):
                            stopped = "callback"
                            break
                elif kind in ("n", "idle"):
                    if kind == "n":
                        count = msg[1]
                        if sets is not None:
                            unsent = count - sent
                    if on_count is not None and on_count(count):
                        stopped = "callback"
                        break
                elif kind == "done":
                    if not want or sets is not None:
                        count = msg[1]
                        if sets is not None:
                            unsent = count - sent
                        if on_count is not None:
                            on_count(count)
                    if msg[2] == "limit":
                        stopped = "limit"
                    else:
                        complete = True
                    break
        except KeyboardInterrupt:
            stopped = "interrupted"
        finally:
            messages.close()
        return SearchResult(count, complete, self.name, deadline.elapsed(), sols, stopped, stats, unsent=unsent)


def tree_bound(case: ExactCover) -> float:
    """An upper bound on the nodes of Algorithm X's search tree for ``case``.

    Each node branches on one primary item, over at most ``b`` options (the
    most any primary item has); each level covers at least ``w`` primary
    items (the fewest an option covers), so at most ``d`` = ceil(items / w)
    levels: at most 1 + b + ... + b**d nodes.  Only tiny covers get a small
    bound (four L tetrominoes in a 4x4 box: 168,421 nodes, with b = 20 and
    d = 4), which is all it is for."""
    primary = [j for j, (_, p) in enumerate(case.items) if p]
    if not primary:
        return 1.0
    per_item = [0] * len(case.items)
    fewest = len(case.items)
    for its in case.options:
        covers = 0
        for j in its:
            per_item[j] += 1
            covers += case.items[j][1]
        if covers:
            fewest = min(fewest, covers)
    b = max(per_item[j] for j in primary)
    d = -(-len(primary) // max(fewest, 1))
    if b <= 1:
        return float(d + 1)
    if d * math.log(b) > 700:  # past a float (a 32x32 board of dominoes: b = 4, d = 512)
        return math.inf
    return (float(b) ** (d + 1) - 1) / (b - 1)


def _pick(algorithm: str, case: ExactCover) -> str:
    if algorithm == "auto":
        return "m" if case.needs_multiplicity else "x"
    return algorithm


def _with_deadline(messages, deadline: Deadline):
    """Pass an inline search's messages on, then ("timeout",) once time is up."""
    try:
        for msg in messages:
            yield msg
            if deadline.expired() and msg[0] != "done":
                yield ("timeout",)
                return
    finally:
        messages.close()


# ------------------------------------------------------------------- the search


def _new_solver(algorithm: str):
    import miniexact

    return {"x": miniexact.miniexacts_x, "m": miniexact.miniexacts_m, "c": miniexact.miniexacts_c}[algorithm]()


def load(case: ExactCover, algorithm: str):
    """A miniexact solver holding ``case`` and the map solver option id -> case option index."""
    h = _new_solver(algorithm)
    ids = [0] * len(case.items)
    for j, (mult, primary) in enumerate(case.items):
        if primary:
            ids[j] = h.primary(f"i{j}", mult, mult)
    for j, (mult, primary) in enumerate(case.items):
        if not primary:
            ids[j] = h.secondary(f"i{j}")
    back = {}
    for o, its in enumerate(case.options):
        back[h.add([ids[j] for j in its])] = o
    return h, back


def _messages(cases, algos, limit, want, sets=None):
    """Run the search; yield ("n", count) now and then, ("sols", [(case,
    options)], count) when ``want``, and finally ("done", count, "limit" |
    None).  ``sets``, per case a list of sets of options: only the solutions
    that choose every option of one of them are sent (the others are
    counted)."""
    total = 0
    batch: list = []
    last = time.perf_counter()
    for ci, (case, algo) in enumerate(zip(cases, algos)):
        if limit is not None and total >= limit:
            yield from _flush(batch, total, want, sets is not None)
            yield ("done", total, "limit")
            return
        match = None if sets is None else _matcher(sets[ci])
        if not case.options:  # miniexact wants at least one option
            if case.n_primary == 0:
                total += 1
                if want and (match is None or match(())):
                    batch.append((ci, ()))
            continue
        h, back = load(case, algo)
        while h.solve() == 10:
            total += 1
            if want:
                chosen = tuple(back[o] for o in h.selected_options())
                if match is None or match(chosen):
                    batch.append((ci, chosen))
            if limit is not None and total >= limit:
                yield from _flush(batch, total, want, sets is not None)
                yield ("done", total, "limit")
                return
            if len(batch) >= BATCH or total & 63 == 0:
                now = time.perf_counter()
                if len(batch) >= BATCH or now - last >= REPORT_EVERY:
                    last = now
                    yield from _flush(batch, total, want, sets is not None)
                    batch = []
        del h
    yield from _flush(batch, total, want, sets is not None)
    yield ("done", total, None)


def _matcher(sets):
    """chosen options -> True when they include every option of one of ``sets``."""
    if frozenset() in sets:
        return lambda chosen: True
    by_option: dict[int, list[frozenset[int]]] = {}
    for s in sets:
        by_option.setdefault(min(s), []).append(s)

    def match(chosen) -> bool:
        got = None
        for o in chosen:
            for s in by_option.get(o, ()):
                got = got or frozenset(chosen)
                if s <= got:
                    return True
        return False
    return match


def _flush(batch, total, want, counted=False):
    """The batch of solutions, with the count so far, or that count alone
    when no solution is sent (``counted``: solutions were left unsent)."""
    if want and batch:
        yield ("sols", list(batch), total)
    elif not want or counted:
        yield ("n", total)


def _child_main(conn, cases, algos, limit, want, sets=None):
    ignore_sigint()  # the parent handles Ctrl-C
    try:
        for msg in _messages(cases, algos, limit, want, sets):
            conn.send(msg)
    except BaseException as e:  # report, then die quietly
        conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


def _in_child(cases, algos, limit, want, deadline: Deadline, sets=None):
    """_messages run in a child process, then ("timeout",) once time is up; the
    child is killed when this generator ends or is closed."""
    child = Child(_child_main, (cases, algos, limit, want, sets))
    done = False
    try:
        while True:
            got = child.wait(deadline, asking=True)
            if got == "timeout":
                yield ("timeout",)
                return
            if got == "ask":
                yield ("idle",)
                continue
            msg = child.recv("the miniexact search")
            done = msg[0] in ("done", "error")
            if msg[0] == "error":
                raise BackendError(f"the miniexact search failed: {msg[1]}")
            yield msg
            if msg[0] == "done":
                return
    finally:
        child.close(reuse=done)
