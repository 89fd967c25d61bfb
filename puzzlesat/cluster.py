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

Stopping: every task is given the job's deadline as a wall-clock time
(clocks are assumed in step, as NTP keeps them) and stops there on its own:
engines that can stop mid-search (PySAT, CP-SAT) at once, the exact-cover
engine (inline in Dask's daemonic workers) between two solutions.  At the
time limit the driver waits up to LEFTOVER_GRACE seconds for the running
tasks' counts so far and reports the sum with the finished ones' (a lower
bound); on Ctrl-C it reports the finished ones' at once.  Either way it
cancels the tasks not started.
"""

from __future__ import annotations

import hashlib
import queue
import time
from pathlib import Path

from .backends import BackendError

#: seconds to reach the scheduler and to wait for its first worker
CONNECT_TIMEOUT = 10.0
#: seconds a count stopped by its time limit waits for the tasks still
#: running to hand back their counts so far (they stop at the same deadline)
LEFTOVER_GRACE = 3.0


def code_fingerprint(root: Path | None = None) -> str:
    """A hash of this puzzlesat's Python sources (what workers must share);
    ``root``: another copy of the package."""
    root = Path(__file__).resolve().parent if root is None else Path(root)
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def check_workers(theirs: dict[str, str], mine: str) -> None:
    """Refuse workers whose source hash (``theirs``: worker -> hash) is not ``mine``."""
    odd = sorted(w for w, fp in theirs.items() if fp != mine)
    if odd:
        raise BackendError(f"{len(odd)} of {len(theirs)} Dask workers run another puzzlesat "
                           f"(source hash differs from this one's {mine}): {', '.join(odd)}; "
                           "install the same version on every worker")


class Cluster:
    """A connection to a Dask scheduler that counts sub-problems."""

    def __init__(self, address: str, timeout: float | None = None):
        try:
            from distributed import Client
        except ImportError as e:  # pragma: no cover - a dependency in pyproject.toml
            raise BackendError(f"--cluster needs Dask's 'distributed' package: {e}") from None
        from distributed.comm.addressing import resolve_address

        self.address = address
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        try:
            # checked first: a Client that fails on a malformed address leaves
            # an object whose clean-up waits 20 s and prints a traceback
            resolve_address(address)
        except (ValueError, OSError) as e:
            raise BackendError(f"{address!r} is not a Dask scheduler address (such as tcp://HOST:8786): {e}") from None
        try:
            self.client = Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError, TypeError) as e:
            raise BackendError(f"cannot reach a Dask scheduler at {address!r}: {e or type(e).__name__}") from None
        try:
            try:
                self.client.wait_for_workers(1, timeout=timeout)
            except TimeoutError:
                raise BackendError(f"the Dask scheduler at {address} has no workers after {timeout:g} s "
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
        #: sub-problems sent so far
        self.tasks = 0

    def describe(self) -> str:
        return f"{self.address} ({self.workers} workers, {self.threads} threads)"

    def start(self, fn, work, tasks) -> None:
        """Send ``work`` to every worker once, then one ``fn(work, task)`` per task."""
        shared = self.client.scatter([work], broadcast=True, hash=False)[0]
        self._futures = [self.client.submit(fn, shared, t, pure=False) for t in tasks]
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

    def partial(self, parts) -> int:
        """Running tasks report nothing until they end."""
        return 0

    def leftover(self, parts, timed_out: bool) -> int:
        """At the job's deadline every task stops on its own and hands back
        its count so far: those that arrive within LEFTOVER_GRACE seconds
        count (after Ctrl-C the tasks go on, so nothing is waited for)."""
        total = 0
        if not timed_out:
            return total
        end = time.monotonic() + LEFTOVER_GRACE
        waiting = set(parts)
        while waiting:
            try:
                i, n, *_ = self.next(max(0.0, end - time.monotonic()))
            except TimeoutError:
                break
            if i in waiting:
                waiting.discard(i)
                total += n
        return total

    def stop(self) -> None:
        """Cancel what has not finished (the next job starts afresh)."""
        if self._futures:
            self.client.cancel(self._futures)
        self._futures = []

    def close(self) -> None:
        self.stop()
        self.client.close()
