"""The one interface every engine implements, and this project's own status enum.

A back end receives a :class:`~puzzlesat.problem.Problem` and returns sets of
true *primary* variables.  It never knows what the variables mean.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Optional

from ..problem import Problem


class Status(str, Enum):
    SOLVED = "solved"
    NO_SOLUTION = "no-solution"
    UNKNOWN = "unknown"


class BackendError(Exception):
    """A back end cannot be used (unknown name, not installed, unsupported problem)."""


class SolverFailed(BackendError):
    """A back end was run and failed: an outside solver crashed, exited with
    a code it should not, or answered something unreadable.  Not the user's
    input at fault (exit 4, as for a wrong answer), unlike a BackendError."""


#: Called with each solution found; returning True stops the search early.
OnSolution = Callable[[frozenset], Optional[bool]]


@dataclass
class SolveResult:
    status: Status
    assignment: frozenset | None
    backend: str
    seconds: float
    stats: dict = field(default_factory=dict)
    #: why an UNKNOWN search stopped: "time-limit" or "interrupted" (Ctrl-C)
    stopped_by: str | None = None


@dataclass
class SearchResult:
    """What a counting/enumerating search found.

    ``complete`` is True when every solution was found; otherwise ``count`` is
    a lower bound and ``stopped_by`` says why ("limit", "time-limit",
    "interrupted", "callback").
    """

    count: int
    complete: bool
    backend: str
    seconds: float
    solutions: list[frozenset] = field(default_factory=list)
    stopped_by: str | None = None
    stats: dict = field(default_factory=dict)
    #: the true primary variables of each kept solution, where the job keeps
    #: decoded solutions in ``solutions`` (jobs._search_verified)
    assignments: list[frozenset] = field(default_factory=list)
    #: solutions counted and deliberately not handed back (``hand_back``):
    #: each holds none of the sets.  A stopped search says only those of the
    #: messages it had read to the end: a Ctrl-C in the middle of a batch
    #: leaves them out, so that no solution handed back, or about to be, is
    #: among them
    unsent: int = 0


class Deadline:
    """A wall-clock budget; ``None`` means no limit."""

    def __init__(self, seconds: float | None):
        self.start = time.perf_counter()
        self.end = None if seconds is None else self.start + seconds

    def remaining(self) -> float | None:
        return None if self.end is None else max(0.0, self.end - time.perf_counter())

    def expired(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def next_look(self, asking: bool) -> float | None:
        """Seconds to wait for a search before looking again: the time left
        (None: no limit), at most ASK_EVERY when the caller is to be asked
        meanwhile (its on_count)."""
        remaining = self.remaining()
        if not asking:
            return remaining
        every = ask_every()
        return every if remaining is None else min(remaining, every)


class Backend:
    """Base class: subclasses implement :meth:`search`, and :meth:`solve` if
    they have a faster way to find one solution than a search with limit 1."""

    name: str = "?"
    #: True when the engine can return solutions (a pure counter cannot).
    can_enumerate: bool = True
    #: True when handing each solution back costs nothing next to finding it
    #: (blocking-clause SAT, CP-SAT): counts then verify every solution.
    #: False for engines that count much faster without building solutions.
    solutions_are_free: bool = True
    #: Set by jobs that draw progress: keep the calling thread free (the GIL
    #: released) during a long search, so a progress line can be redrawn and
    #: Ctrl-C handled, even where that costs a little (a forked search).
    responsive: bool = False
    #: how an engine that cannot enumerate counts (count's "method")
    count_method: str = "model-count"
    #: False for an engine whose count a split does not speed up (a
    #: determinant: each part would cost as much as the whole; Ganak: the
    #: parts together cost it several times the whole)
    splits_pay: bool = True

    def supports(self, problem: Problem) -> str | None:
        """None if this engine can take ``problem``, else the reason it cannot."""
        return None

    def search(
        self,
        problem: Problem,
        *,
        limit: int | None = None,
        time_limit: float | None = None,
        keep: bool = False,
        on_solution: OnSolution | None = None,
        phases: frozenset | None = None,
        on_count: Callable[[int], Optional[bool]] | None = None,
        hand_back: list[frozenset[int]] | None = None,
    ) -> SearchResult:
        """Count (and hand back) solutions.  ``phases``, a set of true primary
        variables, is a hint: an engine that can start its search from that
        assignment (a solver's saved phases, CP-SAT's solution hint) does, and
        the others ignore it.  Searching for a second solution next to a
        known one is much faster that way (faase: 22 s instead of over 110).
        ``on_count`` is called now and then with the number of solutions
        found so far (progress, and the partial count of a sub-problem still
        running when a split count stops): by an engine that counts without
        handing each solution to ``on_solution`` as it goes, and by every
        engine at least every ASK_EVERY seconds while its search finds
        nothing (:class:`Child`, :class:`Asking`), except the PySAT solvers
        that hold the GIL when they search inline (a local pool's worker).
        Like ``on_solution``, returning True stops the search (stopped_by
        "callback"); it may be called from a thread of the engine's own.
        ``hand_back``, sets of primary variables, is a hint too: an engine
        whose solutions are not free (``solutions_are_free`` False) may hand
        back, to ``on_solution`` and in ``solutions``, only the solutions
        that set every variable of one of these sets true, and count the
        others without building them; the others hand back every one (a
        count up to symmetry weighs only such solutions, see jobs._views)."""
        raise NotImplementedError

    def keeping(self, problem: Problem, expired: Callable[[], bool] | None = None):
        """A block within which this engine's searches of problems derived
        from ``problem`` (``problem.with_constraints(...)``) start from one
        encoding of it, built on entering the block, instead of encoding
        each whole; a search in a child forked inside the block inherits it.
        ``expired``, asked while that encoding is built, gives it up (each
        search then encodes on its own).  An engine without an encoding
        worth keeping does nothing."""
        return nullcontext()

    def slices(self, problem: Problem, *, limit: int | None = None) -> "Slices":
        """A search for up to ``limit`` solutions of ``problem``, run in time
        slices (:meth:`Slices.run`).  Here each slice searches afresh; an
        engine that can stop a search and take it up again where it stopped
        (a forked solver, paused between slices) overrides this, so that a
        search given 1 s, then 2 s, then 4 s does not do the first second's
        work three times."""
        return Slices(self, problem, limit)

    # -- conveniences built on search
    def solve(self, problem: Problem, *, time_limit: float | None = None) -> SolveResult:
        r = self.search(problem, limit=1, time_limit=time_limit, keep=True)
        if r.solutions:
            return SolveResult(Status.SOLVED, r.solutions[0], r.backend, r.seconds, r.stats)
        if r.complete:
            return SolveResult(Status.NO_SOLUTION, None, r.backend, r.seconds, r.stats)
        return SolveResult(Status.UNKNOWN, None, r.backend, r.seconds, r.stats, r.stopped_by or "time-limit")

    def count(self, problem: Problem, *, limit: int | None = None, time_limit: float | None = None,
              on_solution: OnSolution | None = None) -> SearchResult:
        return self.search(problem, limit=limit, time_limit=time_limit, on_solution=on_solution)

    def enumerate(self, problem: Problem, *, limit: int | None = None,
                  time_limit: float | None = None) -> SearchResult:
        return self.search(problem, limit=limit, time_limit=time_limit, keep=True)


class Slices:
    """A search run slice by slice (:meth:`Backend.slices`): each
    :meth:`run` searches for at most ``budget`` seconds and returns what that
    slice found (the SearchResult of the slice: its solutions, kept; complete
    when the search has ended).  Once a slice has found solutions, the
    caller starts a new search (with those solutions blocked) rather than
    run this one on.  This one searches afresh in every slice."""

    def __init__(self, backend: Backend, problem: Problem, limit: int | None):
        self.backend, self.problem, self.limit = backend, problem, limit

    def run(self, budget: float | None) -> SearchResult:
        return self.backend.search(self.problem, limit=self.limit, time_limit=budget, keep=True)

    def close(self) -> None:
        pass


class Tally:
    """The bookkeeping every search shares: count each solution found, keep
    it when asked, and ask the caller's callback whether to stop."""

    def __init__(self, keep: bool, on_solution: OnSolution | None):
        self.keep, self.on_solution = keep, on_solution
        self.count = 0
        self.solutions: list[frozenset] = []

    def add(self, sol: frozenset) -> bool:
        """Record ``sol``; True when the callback asks to stop."""
        self.count += 1
        if self.keep:
            self.solutions.append(sol)
        return self.on_solution is not None and bool(self.on_solution(sol))


def blocking_clause(problem: Problem, true_primary: frozenset) -> list[int]:
    """The clause excluding exactly the solution whose true primary set is given.

    With ``problem.fixed_weight`` the true literals suffice (no other solution
    can contain them all); otherwise every primary variable is blocked.
    """
    if problem.fixed_weight:
        return [-v for v in true_primary]
    return [(-v if v in true_primary else v) for v in problem.primary]


def can_fork() -> bool:
    """True when a search may run in a forked child here (fork exists, and this
    is not a daemonic pool worker, which may not have children)."""
    return "fork" in multiprocessing.get_all_start_methods() and not multiprocessing.current_process().daemon


#: Set in the local pool's forked workers (jobs._ForkPool): their parent
#: stops them by terminating the pool and enforces the time limit, so an
#: engine there searches inline rather than start a child per sub-problem.
STOPPED_BY_PARENT = False


#: seconds a parent waiting on a :class:`Child` goes without asking the
#: caller's on_count (a split count's part looks at its stop flag then, also
#: while its search finds nothing)
ASK_EVERY = 0.5

_ASKING = threading.local()


def ask_every() -> float:
    """ASK_EVERY, or what :func:`asking_every` set for this thread (the
    engines of a race: their losers stop soon after the winner answers)."""
    return getattr(_ASKING, "every", ASK_EVERY)


@contextmanager
def asking_every(seconds: float):
    """Searches started in this thread ask their on_count every ``seconds``."""
    old = getattr(_ASKING, "every", None)
    _ASKING.every = seconds
    try:
        yield
    finally:
        if old is None:
            del _ASKING.every
        else:
            _ASKING.every = old


class Asking:
    """While a search runs in this process, ask the caller's ``on_count``
    (with ``count()``, the solutions so far) every ASK_EVERY seconds from a
    thread of its own, and when it answers True, call ``stop()`` (the
    solver's thread-safe interrupt; again at each later look, since a stop
    landing before the solver has started its search is lost) and set
    :attr:`fired`.  So an engine that searches inline sees its caller's word
    (a split count's stop flag) also while no solution comes.  The thread
    runs in a copy of the caller's context (a Dask task's worker is found
    through a context variable).  A no-op when ``on_count`` is None."""

    def __init__(self, on_count, count: Callable[[], int], stop: Callable[[], object]):
        self.on_count, self.count, self.stop = on_count, count, stop
        self.fired = False
        self.every = ask_every()  # the searching thread's pace, read there
        self._done = threading.Event()
        self._thread = None
        self._error: BaseException | None = None

    def __enter__(self) -> "Asking":
        if self.on_count is not None:
            import contextvars

            ctx = contextvars.copy_context()
            self._thread = threading.Thread(target=ctx.run, args=(self._run,), name="asking", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        try:
            while not self._done.wait(self.every):
                if not self.fired and self.on_count(self.count()):
                    self.fired = True
                if self.fired:
                    self.stop()
        except BaseException as e:  # raised again in the searching thread, at the end
            self._error = e
            self.stop()

    def __exit__(self, *exc) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        if self._error is not None and exc[0] is None:
            raise self._error


def may_start_child() -> bool:
    """Whether an engine asked to pick (``isolate=None``) should search in a
    :class:`Child`: everywhere but in the local pool's workers."""
    return not STOPPED_BY_PARENT


#: a reused child's word that its job has ended (sent after the job's last
#: message, when its function has returned)
_END = ("puzzlesat.child.end",)

#: per thread, the idle new Python kept for the thread's next :class:`Child`
_IDLE = threading.local()


class Child:
    """``fn(conn, *args)`` run in a child process, sending its messages back
    through ``conn`` (``conn.send(obj)``, ``conn.close()``); the parent reads
    them with :meth:`wait` and :meth:`recv` and ends the child with
    :meth:`close`, at a deadline, on Ctrl-C or when it has heard enough.

    The child is forked where this process may fork.  A daemonic process
    (the workers of a Dask cluster) may not have multiprocessing children;
    there it is a new Python process instead, which imports ``fn`` by name
    and receives ``args`` pickled (so ``fn`` must be a module-level function
    and ``args`` picklable), in a session of its own (a Ctrl-C at the
    terminal is the parent's to handle) and killed if its parent thread
    dies.  Starting one costs about 0.1 s, more than a small sub-problem's
    search, so it serves one job after another: a job that ran to its end
    leaves it to the next :class:`Child` of the same thread
    (``close(reuse=True)``); a job stopped early kills it.  ``fn`` ignores
    SIGINT itself in a forked child."""

    def __init__(self, fn, args: tuple):
        self.proc = self.server = None
        self.ended = False
        if can_fork():
            ctx = multiprocessing.get_context("fork")
            self.conn, send = ctx.Pipe(duplex=False)
            self.proc = ctx.Process(target=_forked_child, args=(fn, send, *args), kwargs={"parent": os.getpid()},
                                    daemon=True)
            self.proc.start()
            send.close()
            return
        server, _IDLE.server = getattr(_IDLE, "server", None), None
        if server is None or not server.alive():
            if server is not None:
                server.kill()
            server = _Server()
        self.server, self.conn = server, server.conn
        try:
            server.jobs.send((fn, args))
        except (BrokenPipeError, ConnectionResetError):  # it died: recv() says how
            pass
        except BaseException:  # not picklable: a mistake here, not in the child
            self.server = None
            server.kill()
            raise

    @property
    def pid(self) -> int:
        return self.proc.pid if self.proc is not None else self.server.popen.pid

    def wait(self, deadline: Deadline, asking: bool = False) -> str:
        """Wait for the child's next message: "message" when one is waiting
        (or the child is gone: :meth:`recv` says so), "timeout" once the
        deadline has passed, or, when ``asking``, "ask" after ASK_EVERY
        seconds without one (time to ask the caller's on_count)."""
        if deadline.expired():
            return "timeout"
        if self.conn.poll(deadline.next_look(asking)):
            return "message"
        return "timeout" if deadline.expired() else "ask"

    def recv(self, what: str):
        """The next message; a BackendError naming ``what`` (e.g. "the Ganak
        count") if the child died, or its job ended, without one."""
        try:
            msg = self.conn.recv()
        except EOFError:
            msg = None
        else:
            if msg != _END:
                return msg
            self.ended = True
            raise BackendError(f"{what} ended without an answer")
        if self.proc is not None:
            self.proc.join()
            code, why = self.proc.exitcode, ""
        else:
            code, why = self.server.popen.wait(), self.server.last_words()
        raise BackendError(f"{what} died (exit code {code}){why}") from None

    def pause(self) -> bool:
        """Stop a forked child where it is (SIGSTOP), to :meth:`resume` it
        later; False where that cannot be done (a new Python serving a
        daemonic process, or a child gone)."""
        if self.proc is None:
            return False
        try:
            os.kill(self.proc.pid, signal.SIGSTOP)
        except ProcessLookupError:
            return False
        return True

    def resume(self) -> None:
        if self.proc is not None:
            try:
                os.kill(self.proc.pid, signal.SIGCONT)
            except ProcessLookupError:  # (gone: recv() says how)
                pass

    def close(self, reuse: bool = False) -> None:
        """Kill the child if it still runs (paused or not), and reap it.  ``reuse``: the
        caller has read the job's last message; a new Python then waits for
        the job's end and is kept for this thread's next Child."""
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join()
            self.conn.close()
            return
        server, self.server = self.server, None
        if server is None:
            return
        if reuse and not self.ended:
            try:
                self.ended = server.conn.poll(END_GRACE) and server.conn.recv() == _END
            except (EOFError, OSError):
                pass
        if self.ended and server.alive() and getattr(_IDLE, "server", None) is None:
            _IDLE.server = server
        else:
            server.kill()


#: seconds a reused child has, after its job's last message, to say its job
#: has ended (its function returns right after that message)
END_GRACE = 1.0


class _Server:
    """A new Python running :class:`Child` jobs one after another: a job
    (``(fn, args)``) arrives on one pipe, its messages and then ``_END`` go
    back on another; stderr goes to a file (a pipe nobody reads could fill
    up and stop it), read for its last line if it dies."""

    def __init__(self):
        import os
        import subprocess
        import sys
        import tempfile
        from multiprocessing.connection import Connection

        self.stderr = tempfile.TemporaryFile()
        job_r, job_w = os.pipe()
        msg_r, msg_w = os.pipe()
        try:
            self.popen = subprocess.Popen(
                [sys.executable, "-c", _SPAWNED, _package_root(), str(job_r), str(msg_w)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.stderr,
                pass_fds=(job_r, msg_w), start_new_session=True)
        except BaseException:
            for fd in (job_w, msg_r):
                os.close(fd)
            self.stderr.close()
            raise
        finally:
            os.close(job_r)
            os.close(msg_w)
        self.jobs = Connection(job_w, readable=False)
        self.conn = Connection(msg_r, writable=False)

    def alive(self) -> bool:
        return self.popen.poll() is None

    def last_words(self) -> str:
        self.stderr.seek(0)
        lines = self.stderr.read().decode(errors="replace").strip().splitlines()
        return f": {lines[-1]}" if lines else ""

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
        self.popen.wait()
        self.jobs.close()
        self.conn.close()
        self.stderr.close()


#: a new Python's program: import this very puzzlesat (its directory comes
#: first on sys.path, before the current directory, which could hold another)
_SPAWNED = ("import sys; sys.path.insert(0, sys.argv[1]); "
            "from puzzlesat.backends.base import _spawned_child; _spawned_child()")


def _package_root() -> str:
    import os

    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class _JobConnection:
    """A job's end of a reused child's message pipe: closing it tells the
    parent the job has ended, and leaves the pipe open for the next job."""

    def __init__(self, conn):
        self._conn, self.closed = conn, False

    def send(self, obj) -> None:
        self._conn.send(obj)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._conn.send(_END)


def default_termination() -> None:
    """In a forked child: SIGTERM and SIGHUP kill it again.  The parent's
    handlers (cli.entry) raise Terminated so that its cleanup runs; a child
    stopped by its parent (``kill``, a pool's terminate) has no cleanup of its
    own, and the exception printed a traceback in a pool worker."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) is not signal.SIG_IGN:  # (ignored from the start, as under nohup: still)
            signal.signal(sig, signal.SIG_DFL)


def die_with_parent(parent: int | None = None) -> None:
    """Linux: this process is killed when the thread that started it ends,
    even by SIGKILL (the OOM killer, ``kill -9``, a cancelled CI job), which
    leaves no cleanup to the parent: a search child, a pool worker or a
    compare run went on at full CPU after its parent was gone, past any
    time limit.  ``parent`` (its pid, taken before the fork): if it died
    already, before this was set, this process ends now."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def _forked_child(fn, conn, *args, parent: int | None = None) -> None:
    die_with_parent(parent)
    default_termination()
    fn(conn, *args)


def _spawned_child() -> None:
    """The body of a :class:`Child` started as a new Python process: its
    jobs, one after another, until its parent closes the job pipe.  A job
    that raises kills it, with the traceback on stderr."""
    import sys
    from multiprocessing.connection import Connection

    ignore_sigint()
    die_with_parent()  # should the parent be killed without closing us
    jobs = Connection(int(sys.argv[2]), writable=False)
    out = Connection(int(sys.argv[3]), readable=False)
    while True:
        try:
            fn, args = jobs.recv()
        except EOFError:
            return
        conn = _JobConnection(out)
        fn(conn, *args)
        conn.close()


def _start_holding_sigint(thread: threading.Thread) -> None:
    """thread.start() with SIGINT held back until the thread runs (where
    the platform can hold signals): a Ctrl-C then arrives once it does."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:  # pragma: no cover - not on Linux or macOS
        thread.start()
        return
    before = block(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        thread.start()
    finally:
        block(signal.SIG_SETMASK, before)  # (held back for good in a child: ignore_sigint)


def ignore_sigint() -> None:
    """SIGINT ignored, and held back, in this process for good: for a child
    or a pool worker, whose parent handles Ctrl-C (the terminal sends it to
    the whole process group).  Held back too, as a solver library may put in
    a handler of its own while it solves: pycryptosat's printed "c" on
    stdout, inside a --json answer, and "*** INTERRUPTED ***" on stderr
    (QA).  The mask passes to the threads started here afterwards."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    block = getattr(signal, "pthread_sigmask", None)
    if block is not None:
        block(signal.SIG_BLOCK, {signal.SIGINT})


@contextmanager
def dying_of_sigterm():
    """SIGTERM and SIGHUP end this process at once while inside: for a call
    into a solver that holds the GIL (CaDiCaL, Glucose, MiniSat solving in
    this process when nothing asked for a stoppable search).

    The program's handler for them (cli.entry) raises where the program is,
    so that what it started is stopped on the way out; but Python runs a
    handler only between bytecodes, so during such a call it waited for the
    solver's end: `timeout 3 puzzlesat solve ... -b glucose4` ran 579 s
    (session 17).  Such a call starts nothing to stop, so dying as an
    unhandled signal would is the same answer, on time.  (Ctrl-C needs no
    help: PySAT's solve raises KeyboardInterrupt on SIGINT itself.)  Main
    thread only; a handler of SIG_IGN or the default is left alone."""
    saved = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            handler = signal.getsignal(sig)
            if callable(handler):
                saved[sig] = handler
                signal.signal(sig, signal.SIG_DFL)
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def run_stoppable(work: Callable[[], object], stop: Callable[[], object]):
    """``work()``, a blocking call into a solver that releases the GIL, with
    Ctrl-C turned into ``stop()`` (the solver's own thread-safe interrupt).

    Python runs signal handlers in the main thread between bytecodes only, so
    a Ctrl-C during a long C call would wait for its end.  Run from the main
    thread, ``work`` goes to a helper thread while the main thread waits in
    Python; a Ctrl-C (or SIGTERM's Terminated) there calls ``stop()``, waits
    for ``work`` to return and re-raises it.  (Waiting on an Event, not Thread.join:
    a KeyboardInterrupt inside join() can mark the running thread finished
    (CPython 3.11), and the solver thread then aborted the process at exit.)
    Elsewhere it just calls ``work()``.
    """
    if threading.current_thread() is not threading.main_thread():
        return work()
    out: dict = {}
    finished = threading.Event()

    def run():
        try:
            out["value"] = work()
        except BaseException as e:  # re-raised in the caller's thread
            out["error"] = e
        finally:
            finished.set()

    worker = threading.Thread(target=run, name="solver", daemon=True)
    try:
        # a Ctrl-C during start() must stop the work too, or the caller frees
        # the solver under it (a segfault): held until the thread runs
        _start_holding_sigint(worker)
        while not finished.wait(0.05):
            pass
    except BaseException:
        # stop() again until work returns: a stop that lands before the solver
        # has started its search is lost; a second Ctrl-C must not leave it
        # running.  SIGTERM (errors.Terminated) too: left running, the solver
        # was freed under its thread on the way out (a segfault or an abort in
        # 3 of 6 runs of `kill` on minisat22 -t 30, session 17)
        while True:
            try:
                stop()
                if finished.wait(0.1):
                    break
            except KeyboardInterrupt:
                continue
        worker.join()
        raise
    worker.join()
    if "error" in out:
        raise out["error"]
    return out["value"]
