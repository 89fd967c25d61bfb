"""PySAT's CDCL solvers as a back end: solve, and count by blocking clauses.

Counting blocks only the primary variables of each model found (never the
encoder's auxiliaries, which would make counts depend on the encoding), with
short blocking clauses when the problem says all solutions have equal weight.
"""

from __future__ import annotations

import threading

from pysat.solvers import Solver, SolverNames
from pysolvers import error as _SolverError

from ..encoders.cnf import DEFAULT_ENCODING, check_encoding, encode_cnf, keeping
from ..problem import Problem
from .base import (Asking, Backend, BackendError, Child, Deadline, SearchResult, Slices, Tally, blocking_clause,
                   can_fork, dying_of_sigterm, ignore_sigint, may_start_child, run_stoppable)

#: canonical name -> aliases, as PySAT spells them
SOLVERS: dict[str, tuple[str, ...]] = {
    k: v for k, v in vars(SolverNames).items() if not k.startswith("_")
}
#: the largest model (constraints) whose search in slices is paused between
#: them, rather than started afresh in each (see PySatBackend.slices)
PAUSED_AT_MOST = 1_000_000
#: PySAT solvers that cannot take clauses after solving: they count by
#: solving afresh, with every blocking clause so far, after each solution
NON_INCREMENTAL = {"kissat404"}
#: PySAT solvers whose solve cannot be interrupted: a time limit runs them in a
#: child process that is killed at the deadline
NO_INTERRUPT = {"cadical103", "cadical153", "cadical195", "cadical300", "cryptosat", "kissat404", "lingeling"}
#: PySAT solvers that take interrupt() only between restarts: on the 3x4x5
#: box Glucose and Gluecard answered it 0.3-0.6 s late on average and up to
#: 2 s, MapleCM up to 0.7 s (MiniSat, Maple, MergeSat: under 5 ms;
#: benchmarks/interrupt_latency.py), so a time limit overran by that much;
#: they too search in a child process that is killed at the deadline
SLOW_INTERRUPT = {"glucose3", "glucose4", "glucose42", "gluecard3", "gluecard4", "maplecm"}
#: PySAT solvers whose library puts in a SIGINT handler of its own while it
#: solves: pycryptosat's writes "c" on stdout (into a --json answer) and
#: "*** INTERRUPTED ***" on stderr, and its solve then ends with no answer,
#: which read as the time limit (QA); they always search in a child, which
#: holds SIGINT back (ignore_sigint)
OWN_SIGINT = {"cryptosat"}
DEFAULT_SOLVER = "cadical195"


def canonical(name: str) -> str | None:
    for canon, aliases in SOLVERS.items():
        if name == canon or name in aliases:
            return canon
    return None


def pysat_name(canon: str) -> str:
    """The name PySAT's Solver takes for solver ``canon``: for two of them
    (cryptosat, minisatgh) it takes the aliases only, not the key, and both
    were said to be missing from this PySAT build (QA)."""
    aliases = SOLVERS[canon]
    return canon if canon in aliases else aliases[-1]


class PySatBackend(Backend):
    def __init__(self, solver: str = DEFAULT_SOLVER, encoding: str = DEFAULT_ENCODING):
        canon = canonical(solver)
        if canon is None:
            raise ValueError(f"unknown PySAT solver {solver!r}")
        self.solver = canon
        self.encoding = check_encoding(encoding)
        self.name = canon
        problem = unavailable_reason(canon)
        if problem:
            raise BackendError(f"backend {canon!r} is not available here: {problem}")

    def _new(self, clauses):
        return Solver(name=pysat_name(self.solver), bootstrap_with=clauses)

    def keeping(self, problem: Problem, expired=None):
        return keeping(problem, self.encoding, expired)

    def search(self, problem: Problem, *, limit=None, time_limit=None, keep=False, on_solution=None,
               phases=None, on_count=None, hand_back=None):
        # on_count: solutions reach on_solution one by one, and on_count is
        # asked with the count so far every ASK_EVERY s: by the parent of a
        # search in a child, or by Asking in _search_here
        if self._stopped_by_killing() and may_start_child() and (
                time_limit is not None or self.responsive or on_count is not None or self.solver in OWN_SIGINT):
            return self._search_in_child(problem, limit, time_limit, keep, on_solution, phases, on_count)
        return self._search_here(problem, limit, time_limit, keep, on_solution, phases, on_count)

    def slices(self, problem: Problem, *, limit=None) -> Slices:
        """The solvers searched in a forked child (those a time limit stops
        only by killing it) pause it between slices instead: the next slice
        goes on from where the last one stopped.  Not for a model of more
        than PAUSED_AT_MOST constraints: the symmetric-first search keeps a
        search per tier, up to four solvers' memory at once where one was
        (a 500 x 500 disc's subspace has 1.7 million clauses); those
        search afresh in each slice, as before."""
        if self._stopped_by_killing() and may_start_child() and can_fork() \
                and len(problem.constraints) <= PAUSED_AT_MOST:
            return _PausedChild(self, problem, limit)
        return Slices(self, problem, limit)

    def _stopped_by_killing(self) -> bool:
        """Whether this solver holds the GIL and ignores interrupt(), or takes
        it seconds late: a child process is the only way to stop it at a
        deadline or on a caller's word (on_count), or to let progress be
        drawn."""
        return self.solver in NO_INTERRUPT or self.solver in SLOW_INTERRUPT

    def _search_here(self, problem, limit, time_limit, keep, on_solution, phases, on_count=None):
        """search() in this process; a solver that takes interrupt() also
        asks ``on_count`` every ASK_EVERY seconds (:class:`Asking`)."""
        deadline = Deadline(time_limit)
        enc = encode_cnf(problem, self.encoding)
        tally, stopped = Tally(keep, on_solution), None
        complete = False
        stats = {"variables": enc.n_vars, "clauses": enc.n_clauses, "encoding": self.encoding}
        incremental = self.solver not in NON_INCREMENTAL
        blocks: list[list[int]] = []  # a non-incremental solver starts afresh with them
        s = self._new(enc.clauses)
        hint = None if phases is None else [v if v in phases else -v for v in problem.primary]
        stats["phases"] = _set_phases(s, hint)
        # (an interruptible solver is incremental: s stays the same one)
        asking = Asking(on_count if self.solver not in NO_INTERRUPT else None, lambda: tally.count,
                        lambda: _interrupt(s))
        try:
            with asking:  # ends before the solver is deleted (its thread calls interrupt())
                while True:
                    if limit is not None and tally.count >= limit:
                        stopped = "limit"
                        break
                    res = _solve(s, deadline, self.responsive or asking.on_count is not None)
                    if res is None:
                        stopped = "callback" if asking.fired else "time-limit"
                        break
                    if not res:
                        complete = True
                        break
                    sol = enc.true_primary(s.get_model())
                    if tally.add(sol):
                        stopped = "callback"
                        break
                    if incremental:
                        s.add_clause(blocking_clause(problem, sol))
                    else:
                        # it cannot take a clause after solving: a new solver with
                        # every blocking clause so far (each solve starts cold)
                        blocks.append(blocking_clause(problem, sol))
                        s.delete()
                        s = self._new(enc.clauses + blocks)
                        _set_phases(s, hint)
                        stats["restarts"] = len(blocks)
        except KeyboardInterrupt:
            stopped = "interrupted"
        except _SolverError as e:  # PySAT turns Ctrl-C inside a solver into this
            if "interrupt" not in str(e):
                raise
            stopped = "interrupted"
            abandon(s)
        finally:
            s.delete()
        return SearchResult(tally.count, complete, self.name, deadline.elapsed(), tally.solutions, stopped, stats)


    def _search_in_child(self, problem, limit, time_limit, keep, on_solution, phases=None, on_count=None):
        """search() in a child process streaming solutions back, killed at the
        deadline or when ``on_count``, asked every ASK_EVERY seconds without
        a solution, answers True."""
        deadline = Deadline(time_limit)
        child = Child(_child_main, (self, problem, limit, phases))
        tally, stopped, complete, stats, done = Tally(keep, on_solution), None, False, {}, False
        try:
            stopped, complete, stats, done = _read_child(child, self.name, deadline, tally, on_count)
        except KeyboardInterrupt:
            stopped = "interrupted"
        finally:
            child.close(reuse=done)
        return SearchResult(tally.count, complete, self.name, deadline.elapsed(), tally.solutions, stopped, stats)


def _read_child(child: Child, name: str, deadline: Deadline, tally: Tally, on_count=None):
    """A search child's solutions into ``tally``, until its search ends, the
    deadline passes, or ``tally``'s callback or ``on_count`` (asked every
    ASK_EVERY seconds without a solution) says stop: (stopped_by, complete,
    stats, ended), ``ended`` once the child has sent its last message."""
    while True:
        got = child.wait(deadline, asking=on_count is not None)
        if got == "timeout":
            return "time-limit", False, {}, False
        if got == "ask":
            if on_count(tally.count):
                return "callback", False, {}, False
            continue
        msg = child.recv(f"the {name} search")
        if isinstance(msg, tuple):
            _, complete, stopped, stats = msg
            return stopped, complete, stats, True
        if tally.add(frozenset(msg)):
            return "callback", False, {}, False


class _PausedChild(Slices):
    """One search in a forked child, stopped (SIGSTOP) at the end of each
    slice and continued (SIGCONT) at the start of the next: a stopped
    process uses no CPU, and a parent that dies takes it along
    (die_with_parent's SIGKILL ends a stopped process too)."""

    def __init__(self, backend: PySatBackend, problem: Problem, limit):
        super().__init__(backend, problem, limit)
        self.child = Child(_child_main, (backend, problem, limit, None))
        self.paused = self.ended = False
        self.end: tuple = (False, None)  # (complete, stopped_by) of the search, once it has ended

    def run(self, budget):
        deadline = Deadline(budget)
        tally, stats = Tally(True, None), {}
        (complete, stopped) = self.end
        if not self.ended:
            if self.paused:
                self.child.resume()
                self.paused = False
            try:
                stopped, complete, stats, self.ended = _read_child(self.child, self.backend.name, deadline, tally)
            except KeyboardInterrupt:
                stopped = "interrupted"
                self.close()
            else:
                if self.ended:
                    self.end = (complete, stopped)
                else:  # (out of time: its tally has no callback to stop it)
                    self.paused = self.child.pause()
        return SearchResult(tally.count, complete, self.backend.name, deadline.elapsed(), tally.solutions,
                            stopped, stats)

    def close(self) -> None:
        self.child.close(reuse=self.ended)


def _child_main(conn, backend: PySatBackend, problem, limit, phases):
    """A child's search: each solution sent as it is found, then ("done", ...)."""
    ignore_sigint()  # the parent handles Ctrl-C
    # the parent draws the progress line and stops this child by killing it:
    # a responsive search here (each solve in a thread of its own, see
    # _solve) made a count of 40,320 solutions 5x slower with progress on
    backend.responsive = False
    r = backend._search_here(problem, limit, None, False, lambda sol: conn.send(sorted(sol)), phases)
    conn.send(("done", r.complete, r.stopped_by, r.stats))
    conn.close()


def abandon(s: Solver) -> None:
    """Let go of a solver that a Ctrl-C left in mid-search, without freeing it.

    PySAT's solve() in the main thread catches SIGINT in C and jumps out of
    the solver wherever it was (siglongjmp), leaving its data half-updated:
    deleting it afterwards freed bad pointers, and about one Ctrl-C in three
    on a long nonogram solve ended in ``free(): invalid pointer`` (exit 134)
    or a segfault instead of the interrupted answer.  Its C handle is
    dropped instead, so that neither delete() nor the garbage collector
    touches that memory again; the program is ending anyway."""
    inner = getattr(s, "solver", None)
    if inner is None:
        return
    for key, value in list(vars(inner).items()):
        if type(value).__name__ == "PyCapsule":  # the C solver (cadical, glucose, minisat, ...)
            setattr(inner, key, None)


def _set_phases(s: Solver, lits) -> bool | None:
    """Give the solver preferred values; None without a hint, False where
    the solver takes none (Kissat in PySAT)."""
    if lits is None:
        return None
    try:
        s.set_phases(lits)
    except NotImplementedError:
        return False
    return True


#: conflicts a solve may take in the calling thread before it goes to a
#: stoppable thread of its own (see _solve)
FAST_CONFLICTS = 100


def _budget(s: Solver, conflicts: int) -> bool:
    """Set (or with -1 lift) the solver's conflict budget; False where
    PySAT has no limited solve for it (Lingeling)."""
    try:
        s.conf_budget(conflicts)
    except NotImplementedError:
        return False
    return True


_PROBED: dict[str, str] = {}


def unavailable_reason(canon: str) -> str:
    """'' if PySAT can run solver ``canon`` here, else why not (probed once)."""
    if canon not in _PROBED:
        try:
            with Solver(name=pysat_name(canon), bootstrap_with=[[1]]) as s:
                s.solve()
            _PROBED[canon] = ""
        except Exception as e:  # built without it, or pycryptosat missing
            msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            if type(e).__name__ == "NoSuchSolverError":
                msg = "this PySAT build does not include it"
            _PROBED[canon] = msg
    return _PROBED[canon]


def _solve(s: Solver, deadline: Deadline, responsive: bool = False):
    """s.solve() under the deadline: True / False, or None when time ran out.

    With a deadline, or when ``responsive``, the solve runs as
    solve_limited (which releases the GIL) under :func:`run_stoppable`, so
    that a timer or a Ctrl-C can interrupt it and progress can be drawn."""
    remaining = deadline.remaining()
    if remaining is None and not responsive:
        with dying_of_sigterm():
            return s.solve()
    if remaining is not None and remaining <= 0:
        return None
    # most solves of an enumeration end within a few conflicts: tried here
    # first, in this thread, a thread and a timer per solve cost 1-2 ms of
    # wall time each on a loaded machine (7 of a 5,040-solution count's 9 s);
    # a Ctrl-C waits for at most FAST_CONFLICTS conflicts
    if _budget(s, FAST_CONFLICTS):
        res = s.solve_limited(expect_interrupt=True)
        _budget(s, -1)
        if res is not None:
            return res
        # (out of budget; an interrupt() meanwhile stays set and stops the
        # solve below at once, as it should; CaDiCaL has no clear_interrupt)
        remaining = deadline.remaining()
        if remaining is not None and remaining <= 0:
            return None
    timer = threading.Timer(remaining, _interrupt, (s,)) if remaining is not None else None
    if timer:
        timer.start()
    try:
        res = run_stoppable(lambda: s.solve_limited(expect_interrupt=True), lambda: _interrupt(s))
    finally:
        if timer:
            timer.cancel()
    if res is None:
        _interrupt(s, clear=True)
    return res


def _interrupt(s: Solver, clear: bool = False) -> None:
    """s.interrupt() (or with ``clear`` s.clear_interrupt()), where the
    solver has one: CryptoMiniSat in PySAT has none, and searches here only
    in a pool's worker, which its parent ends (NO_INTERRUPT)."""
    try:
        s.clear_interrupt() if clear else s.interrupt()
    except NotImplementedError:
        pass
