"""Counting sub-problems on a Dask cluster (``count --cluster ADDRESS``).

:func:`puzzlesat.jobs.split` turns a count into disjoint sub-problems, each
nothing but a tuple of literals to force.  Locally a pool of forked processes
counts them; here the workers of a Dask ``distributed`` scheduler do.  The
puzzle, the compiled problem and the back end are sent once to every worker
(scattered, broadcast), then one small task per sub-problem: ``(index,
literals, budget)``.  A worker counts its sub-problem with the same
:func:`puzzlesat.jobs._count_part` code a local worker runs, decoding and
verifying every solution it keeps, and the driver adds the counts up.

Set-up on the machines (each needs this puzzlesat, installed the same way)::

    dask scheduler                        # prints tcp://HOST:8786
    dask worker tcp://HOST:8786           # on every machine, one or more
    puzzlesat count pentomino-3x4x5 --cluster tcp://HOST:8786

On connecting, the driver checks that every worker runs the same puzzlesat
source (a hash of its modules): objects pickled by one version and run by
another could otherwise count the wrong thing without an error.

While it runs, each task sends its count so far to the driver (an event
on a topic of the job's own, at most every REPORT_EVERY seconds), which
moves the progress line, and at the same times looks at the job's stop flag
(a Dask ``Event``).

Stopping: every task is given the job's deadline as a wall-clock time
(clocks are assumed in step, as NTP keeps them) and stops there on its own.
On Ctrl-C, or when ``--limit`` is reached, the driver raises the stop flag,
and a task stops at its next look.  The engines that cannot be interrupted
(miniexact, Ganak, PySAT's CaDiCaL, Kissat, Lingeling) search in a child
process (:class:`puzzlesat.backends.base.Child`: a new Python, since Dask's
daemonic workers may not fork, kept by the worker thread for its next task
when this one's search ran to its end), which the task kills at the deadline
or on the flag: it looks every 0.5 s, also while the search finds nothing.  The
others (CP-SAT, PySAT's MiniSat, Glucose) search in the task, stop at the
deadline on their own, and look at the flag at each solution and every
0.5 s from a thread that interrupts them (:class:`~puzzlesat.backends.base.Asking`).  At the time
limit and on Ctrl-C the driver waits up to LEFTOVER_GRACE seconds for the
running tasks' counts so far, takes the last count it heard from a task
that has not answered by then, and reports the sum with the finished ones'
(a lower bound).  Tasks not started are cancelled.
"""

from __future__ import annotations

import hashlib
import os
import queue
import sys
import time
import uuid
from concurrent.futures import CancelledError
from pathlib import Path

from .backends import BackendError

#: seconds to reach the scheduler and to wait for its first worker
CONNECT_TIMEOUT = 10.0
#: seconds a count stopped by its time limit waits for the tasks still
#: running to hand back their counts so far (they stop at the same deadline)
LEFTOVER_GRACE = 3.0
#: seconds between a running task's reports (its count, a look at the stop flag)
REPORT_EVERY = 0.5


def code_fingerprint(root: Path | None = None) -> str:
    """A hash of this puzzlesat's Python sources (what workers must share);
    ``root``: another copy of the package.  For this process's own copy, a
    module it has loaded whose file changed since it imported puzzlesat (a
    worker left running across an update) may run other code than the files
    say: the hash is then "stale", which no driver matches (QA: such a worker
    passed the check and counted with the old code)."""
    own = root is None
    root = Path(__file__).resolve().parent if root is None else Path(root)
    if own and _changed_since_import(root):
        return "stale"
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _changed_since_import(root: Path) -> bool:
    """Whether a puzzlesat module this process has loaded from ``root`` has a
    file changed after the process imported puzzlesat (its code in memory may
    be older).  (Not the process's start: a process exec'd by a script that
    began as the files were written kept the script's start time, and every
    file looked changed since.)"""
    import puzzlesat

    started = puzzlesat.IMPORTED_AT
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not (name == "puzzlesat" or name.startswith("puzzlesat.")) or not path:
            continue
        try:
            if Path(path).resolve().is_relative_to(root) and os.stat(path).st_mtime > started:
                return True
        except OSError:
            continue
    return False


def check_workers(theirs: dict[str, str], mine: str) -> None:
    """Refuse workers whose source hash (``theirs``: worker -> hash) is not ``mine``."""
    if mine == "stale":
        raise BackendError("this puzzlesat's files changed after it started: run the command again")
    stale = sorted(w for w, fp in theirs.items() if fp == "stale")
    if stale:
        raise BackendError(f"{len(stale)} of {len(theirs)} Dask workers have run since before their puzzlesat "
                           f"files changed (their code may be the old one): {', '.join(stale)}; restart them")
    odd = sorted(w for w, fp in theirs.items() if fp != mine)
    if odd:
        raise BackendError(f"{len(odd)} of {len(theirs)} Dask workers run another puzzlesat "
                           f"(source hash differs from this one's {mine}): {', '.join(odd)}; "
                           "install the same version on every worker")


class Unreached(BackendError):
    """No scheduler with a worker answered within the connecting's timeout
    (which a time limit may have cut short)."""


class Cluster:
    """A connection to a Dask scheduler that counts sub-problems."""

    def __init__(self, address: str, timeout: float | None = None):
        """Connected to the scheduler at ``address``, with a worker, within
        ``timeout`` seconds (CONNECT_TIMEOUT), importing Dask included."""
        start = time.monotonic()
        timeout = CONNECT_TIMEOUT if timeout is None else timeout

        def left() -> float:  # (rounded: Dask's messages repeat it as given)
            return round(max(timeout - (time.monotonic() - start), 0.1), 2)

        try:
            from distributed import Client
        except ImportError as e:  # pragma: no cover - a dependency in pyproject.toml
            raise BackendError(f"--cluster needs Dask's 'distributed' package: {e}") from None
        from distributed.comm.addressing import resolve_address

        self.address = address
        try:
            # checked first: a Client that fails on a malformed address leaves
            # an object whose clean-up waits 20 s and prints a traceback
            resolve_address(address)
        except (ValueError, OSError) as e:
            raise BackendError(f"{address!r} is not a Dask scheduler address (such as tcp://HOST:8786): {e}") from None
        try:
            self.client = Client(address, timeout=left(), set_as_default=False)
        except (OSError, TimeoutError, ValueError, TypeError) as e:
            raise Unreached(f"cannot reach a Dask scheduler at {address!r}: {e or type(e).__name__}") from None
        except MemoryError:
            # what answers there is no Dask scheduler: its first bytes read as a
            # huge frame length (an SSH banner was said to be "out of memory", QA)
            raise BackendError(f"what answers at {address!r} is not a Dask scheduler (it does not speak Dask's "
                               "protocol)") from None
        # the timeout given to connect is the client's for everything after
        # (its pool's connections to the workers, scatter, close): put back
        # to the usual one, as a time limit left the connecting 0.1 s, say (review)
        if hasattr(self.client, "_timeout"):
            self.client._timeout = CONNECT_TIMEOUT
        if hasattr(getattr(self.client, "rpc", None), "timeout"):
            self.client.rpc.timeout = CONNECT_TIMEOUT
        try:
            try:  # (within the same timeout: a time limit gives the connecting this much in all)
                self.client.wait_for_workers(1, timeout=left())
            except TimeoutError:
                raise Unreached(f"the Dask scheduler at {address} has no workers after {timeout:g} s "
                                   f"(start one with: dask worker {address})") from None
            theirs = self.client.run(code_fingerprint)
            check_workers(theirs, code_fingerprint())
            self.workers = len(theirs)
            self.threads = sum(self.client.nthreads().values())
        except BaseException:
            self.client.close()
            raise
        self._futures: list = []
        self._finished: queue.SimpleQueue = queue.SimpleQueue()
        #: the running job's name (its topic and stop flag are named after it)
        self._job: str | None = None
        #: part -> the last count its task reported (written in the client's thread)
        self._heard: dict[int, int] = {}
        #: sub-problems sent so far
        self.tasks = 0

    def describe(self) -> str:
        return f"{self.address} ({self.workers} workers, {self.threads} threads)"

    def start(self, fn, work, tasks) -> None:
        """Send ``work`` to every worker once, then one ``fn(work, task,
        channel)`` per task (``channel``: a :class:`TaskChannel` to this job)."""
        self._job = uuid.uuid4().hex
        self._heard = {}
        self.client.subscribe_topic(_topic(self._job), self._hear)
        channel = TaskChannel(self._job)
        shared = self.client.scatter([work], broadcast=True, hash=False)[0]
        self._futures = [self.client.submit(fn, shared, t, channel, pure=False) for t in tasks]
        self._finished = queue.SimpleQueue()
        for f in self._futures:
            f.add_done_callback(self._finished.put)  # called in the client's thread
        self.tasks += len(tasks)

    def next(self, timeout: float | None):
        """The result of the next task to finish (raises TimeoutError after
        ``timeout`` seconds; a task's own exception is raised here)."""
        from distributed.scheduler import KilledWorker

        try:
            fut = self._finished.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None
        try:
            return fut.result()
        except KilledWorker as e:
            raise BackendError(f"a sub-problem kept killing Dask workers at {self.address}: {e}") from None
        except (CancelledError, OSError) as e:  # (not a Ctrl-C's: stop() cancels only after the last next())
            # the scheduler, or every worker, gone in the middle of the count:
            # it was a traceback, exit 1 (QA)
            raise BackendError(f"the Dask cluster at {self.address} lost its scheduler or its workers during the "
                               f"count ({e or type(e).__name__}); the count is lost: start it again once the "
                               "cluster is back, or count here without --cluster") from None

    def _hear(self, event) -> None:
        """A running task's report: (timestamp, (part, count so far))."""
        i, n = event[1]
        if n > self._heard.get(i, 0):
            self._heard[i] = n

    def partial(self, parts) -> int:
        """The counts these (unfinished) parts' tasks last reported."""
        return sum(self._heard.get(i, 0) for i in parts)

    def leftover(self, parts, why: str | None) -> int:
        """What these unfinished parts add to a count stopped now (``why``:
        its stopped_by).  At the deadline every task stops on its own; after
        Ctrl-C the stop flag tells them to.  Either way they hand back their
        counts so far, and those that arrive within LEFTOVER_GRACE seconds
        count; a part that has not answered by then counts what its task
        last reported.  Stopped by the limit (or an error), the reports are
        enough and nothing is waited for."""
        counts = {i: self._heard.get(i, 0) for i in parts}
        if why != "time-limit":
            self._raise_stop_flag()
        if why not in ("time-limit", "interrupted"):
            return sum(counts.values())
        end = time.monotonic() + LEFTOVER_GRACE
        waiting = set(parts)
        try:
            while waiting:
                try:
                    i, n, *_ = self.next(max(0.0, end - time.monotonic()))
                except TimeoutError:
                    break
                if i in waiting:
                    waiting.discard(i)
                    counts[i] = max(counts[i], n)
        except KeyboardInterrupt:  # a second Ctrl-C: what has been heard so far
            pass
        return sum(counts.values())

    def _raise_stop_flag(self) -> None:
        if self._job is None:
            return
        from distributed import Event

        try:
            Event(_stop_flag(self._job), client=self.client).set()
        except Exception:  # noqa: BLE001 - a scheduler gone: nothing left to stop
            pass

    def stop(self) -> None:
        """Stop the running tasks, cancel those not started (the next job starts afresh)."""
        if self._futures:
            if any(not f.done() for f in self._futures):
                self._raise_stop_flag()
            self.client.cancel(self._futures)
        if self._job is not None:
            try:
                self.client.unsubscribe_topic(_topic(self._job))
            except Exception:  # noqa: BLE001 - a client already closed has no subscriptions
                pass
            self._job = None
        self._futures = []

    def close(self) -> None:
        self.stop()
        self.client.close()


def _topic(job: str) -> str:
    return f"puzzlesat-count-{job}"


def _stop_flag(job: str) -> str:
    return f"puzzlesat-stop-{job}"


class TaskChannel:
    """A task's line to the driver (see :func:`puzzlesat.jobs._count_part`):
    ``report(i, n)`` sends part ``i``'s count so far and answers whether the
    job's stop flag is up, at most every REPORT_EVERY seconds per part (in
    between it answers what it last saw).  Pickled, it is only the job's
    name: a worker makes its own Event and finds its worker on first use."""

    def __init__(self, job: str):
        self.job = job
        self._next: dict[int, float] = {}
        self._stop = False
        self._flag = None

    def __getstate__(self):
        return {"job": self.job}

    def __setstate__(self, state):
        self.__init__(state["job"])

    def report(self, i: int, n: int) -> bool:
        now = time.monotonic()
        if self._stop or now < self._next.get(i, 0.0):
            return self._stop
        self._next[i] = now + REPORT_EVERY
        from distributed import Event, get_worker

        try:
            get_worker().log_event(_topic(self.job), (i, n))
            if self._flag is None:
                self._flag = Event(_stop_flag(self.job))
            self._stop = self._flag.is_set()
        except ValueError:  # not in a Dask worker: nobody to tell
            pass
        return self._stop
