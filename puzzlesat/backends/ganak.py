"""Ganak (pyganak) as a back end: exact projected model counting, counts only.

The CNF comes from :func:`~puzzlesat.encoders.cnf.encode_cnf`; the primary
variables are the projection (sampling) set, so auxiliary variables of any
cardinality encoding are quantified away and the count is the number of
distinct solutions.  Ganak returns a number, never the solutions, so this
engine cannot solve or enumerate.

``Counter.count()`` is one blocking C++ call that also prints to the
process's stdout, so it runs in a child process (forked, or a new Python in a
daemonic Dask worker); the parent enforces the time limit, Ctrl-C and a
sub-problem's stop flag by killing it (a count stopped that way is unknown:
0, incomplete).  Wherever it runs (inline in a local pool worker, say), its
prints go to /dev/null, never into the command's output.  ``count`` does
not split a Ganak count (``splits_pay``): the sub-problem paths serve a
part handed to it directly.
"""

from __future__ import annotations

import ctypes
import os
import sys
from contextlib import contextmanager

from ..encoders.cnf import check_encoding, encode_cnf, keeping
from ..problem import Problem
from .base import Backend, BackendError, Child, Deadline, SearchResult, ignore_sigint, may_start_child

DEFAULT_ENCODING = "mixed"


class GanakBackend(Backend):
    name = "ganak"
    can_enumerate = False
    #: a split count's parts cost Ganak more than the whole (its component
    #: cache is shared by nothing across parts): -j 2 took 2.0-2.5x the CPU
    #: and 1.0-1.3x the wall-clock of -j 1 on pentomino-3x20, more than 6x and 3x
    #: on 10x12 dominoes with a square, benchmarks/counting-results.md
    splits_pay = False

    def __init__(self, encoding: str = DEFAULT_ENCODING, isolate: bool | None = None, seed: int = 0):
        """``isolate``: count in a child process (None: but in a local pool
        worker, see :func:`~puzzlesat.backends.base.may_start_child`);
        without one the time limit cannot be enforced."""
        import pyganak  # noqa: F401  (fail at construction when missing)

        self.encoding = check_encoding(encoding)
        self.isolate = isolate
        self.seed = seed

    def keeping(self, problem: Problem, expired=None):
        return keeping(problem, self.encoding, expired)

    def search(self, problem: Problem, *, limit=None, time_limit=None, keep=False, on_solution=None,
               phases=None, on_count=None, hand_back=None):  # on_count: asked with 0 now and then (no count until the end)
        if keep or on_solution is not None:
            raise BackendError("backend 'ganak' only counts solutions; use another backend "
                               "(e.g. 'exact' or 'cadical195') to solve or enumerate")
        deadline = Deadline(time_limit)
        enc = encode_cnf(problem, self.encoding)
        stats = {"variables": enc.n_vars, "clauses": enc.n_clauses, "encoding": self.encoding,
                 "projection": len(problem.primary)}
        job = (enc.clauses, enc.n_vars, list(problem.primary), self.seed)
        isolate = self.isolate
        if isolate is None:
            isolate = may_start_child()
        stats["isolated"] = bool(isolate)
        total, stopped = None, None
        try:
            if isolate:
                total, stopped = _count_in_child(job, deadline, on_count)
            else:
                total = _count(*job)
        except KeyboardInterrupt:
            stopped = "interrupted"
        if total is None:
            return SearchResult(0, False, self.name, deadline.elapsed(), [], stopped, stats)
        stats["exact_count"] = total
        if limit is not None and total > limit:
            # the interface promises at most `limit`; the exact number is in stats
            return SearchResult(limit, False, self.name, deadline.elapsed(), [], "limit", stats)
        return SearchResult(total, True, self.name, deadline.elapsed(), [], None, stats)

    def solve(self, problem: Problem, *, time_limit=None):
        raise BackendError("backend 'ganak' only counts solutions; it cannot solve "
                           "(use e.g. 'exact' or 'cadical195')")

    def enumerate(self, problem: Problem, *, limit=None, time_limit=None):
        raise BackendError("backend 'ganak' only counts solutions; it cannot enumerate them "
                           "(use e.g. 'exact' or 'cadical195')")


def _count(clauses, n_vars, projection, seed) -> int:
    from pyganak import Counter

    if any(len(cl) == 0 for cl in clauses):
        # no model; Ganak answers 1 for empty clauses over no variable (a
        # board where no piece fits: review)
        return 0
    with _stdout_to_devnull():  # Ganak writes "c o ..." lines to stdout
        c = Counter(verbose=0, seed=seed)
        if n_vars:
            c.new_vars(n_vars)
        c.add_clauses(clauses)
        c.set_sampling_set(projection)
        return int(c.count())


@contextmanager
def _stdout_to_devnull():
    """File descriptor 1 points at /dev/null meanwhile; what C/C++ code
    buffered for it is flushed there before it is put back."""
    sys.stdout.flush()
    libc = ctypes.CDLL(None)
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        libc.fflush(None)  # C stdio (and C++ streams synced with it)
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


def _child_main(conn, job):
    ignore_sigint()  # the parent handles Ctrl-C
    try:
        conn.send(("ok", _count(*job)))
    except BaseException as e:
        conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


def _count_in_child(job, deadline: Deadline, on_count=None) -> tuple[int | None, str | None]:
    """(the count, None), or (None, why it stopped first: "time-limit", or
    "callback" when ``on_count``, asked every ASK_EVERY seconds with a
    count of 0 so far, answers True); a child stopped early is killed."""
    child = Child(_child_main, (job,))
    answered = False
    try:
        while True:
            got = child.wait(deadline, asking=on_count is not None)
            if got == "message":
                break
            if got == "timeout":
                return None, "time-limit"
            if on_count(0):
                return None, "callback"
        kind, value = child.recv("the Ganak count")
        answered = True
        if kind == "error":
            raise BackendError(f"the Ganak count failed: {value}")
        return value, None
    finally:
        child.close(reuse=answered)
