"""Ganak (pyganak) as a back end: exact projected model counting, counts only.

The CNF comes from :func:`~puzzlesat.encoders.cnf.encode_cnf`; the primary
variables are the projection (sampling) set, so auxiliary variables of any
cardinality encoding are quantified away and the count is the number of
distinct solutions.  Ganak returns a number, never the solutions, so this
engine cannot solve or enumerate.

``Counter.count()`` is one blocking C++ call that also prints to the
process's stdout, so it runs in a forked child; the parent enforces the time
limit and Ctrl-C by killing it (a count stopped that way is unknown: 0,
incomplete).  Wherever it runs (in a pool worker of a split count, say, which
cannot fork), its prints go to /dev/null, never into the command's output.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from contextlib import contextmanager

from ..encoders.cnf import check_encoding, encode_cnf
from ..problem import Problem
from .base import Backend, BackendError, Deadline, SearchResult, can_fork

DEFAULT_ENCODING = "mixed"


class GanakBackend(Backend):
    name = "ganak"
    can_enumerate = False

    def __init__(self, encoding: str = DEFAULT_ENCODING, isolate: bool | None = None, seed: int = 0):
        """``isolate``: count in a child process (None: whenever this process
        may have children); without one the time limit cannot be enforced."""
        import pyganak  # noqa: F401  (fail at construction when missing)

        self.encoding = check_encoding(encoding)
        self.isolate = isolate
        self.seed = seed

    def search(self, problem: Problem, *, limit=None, time_limit=None, keep=False, on_solution=None,
               phases=None, on_count=None):  # on_count: a model counter has no count until it ends
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
            isolate = can_fork()
        stats["isolated"] = bool(isolate)
        total, stopped = None, None
        try:
            if isolate:
                total = _count_in_child(job, deadline)
                if total is None:
                    stopped = "time-limit"
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
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    try:
        conn.send(("ok", _count(*job)))
    except BaseException as e:
        conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


def _count_in_child(job, deadline: Deadline) -> int | None:
    """The count, or None if the deadline passed first (the child is killed)."""
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child_main, args=(send, job), daemon=True)
    proc.start()
    send.close()
    try:
        if not recv.poll(deadline.remaining()):
            return None
        try:
            kind, value = recv.recv()
        except EOFError:
            proc.join()
            raise BackendError(f"the Ganak count died (exit code {proc.exitcode})") from None
        if kind == "error":
            raise BackendError(f"the Ganak count failed: {value}")
        return value
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()
