"""OR-Tools CP-SAT as a back end: solve in parallel, enumerate with one worker.

CP-SAT enumerates assignments of every model variable; the encoder adds only
the problem's variables (automata keep their states internal), so when every
problem variable is primary its enumeration counts solutions exactly.
Otherwise two models that differ only off the primary variables are folded
into one by remembering the primary sets seen.
"""

from __future__ import annotations

import os

from ortools.sat.python import cp_model

from ..encoders.cpsat import EncodingStopped, encode_cpsat, keeping
from ..problem import Problem
from .base import Asking, Backend, Deadline, SearchResult, SolveResult, Status, run_stoppable


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, enc, limit, keep, on_solution, dedupe):
        super().__init__()
        self.enc, self.limit, self.keep, self.on_solution = enc, limit, keep, on_solution
        self.primary = enc.problem.primary
        self.count = 0
        self.solutions = []
        self.seen = set() if dedupe else None
        self.stopped = None

    def on_solution_callback(self):
        sol = frozenset(v for v in self.primary if self.boolean_value(self.enc.vars[v - 1]))
        if self.seen is not None:
            if sol in self.seen:
                return
            self.seen.add(sol)
        self.count += 1
        if self.keep:
            self.solutions.append(sol)
        if self.on_solution is not None and self.on_solution(sol):
            self.stopped = "callback"
            self.stop_search()
        elif self.limit is not None and self.count >= self.limit:
            self.stopped = "limit"
            self.stop_search()


class CpSatBackend(Backend):
    name = "cpsat"

    def __init__(self, workers: int | None = None):
        self.workers = workers or min(8, os.cpu_count() or 1)

    def _solver(self, time_limit, workers):
        s = cp_model.CpSolver()
        s.parameters.num_workers = workers
        if time_limit is not None:
            s.parameters.max_time_in_seconds = max(0.001, time_limit)
        return s

    def keeping(self, problem: Problem, expired=None):
        return keeping(problem, expired)

    def solve(self, problem: Problem, *, time_limit=None) -> SolveResult:
        deadline = Deadline(time_limit)
        try:
            enc = encode_cpsat(problem, deadline.expired)
        except EncodingStopped:
            return SolveResult(Status.UNKNOWN, None, self.name, deadline.elapsed(), stopped_by="time-limit")
        s = self._solver(deadline.remaining(), self.workers)  # building the model took part of the limit
        try:
            st = _run(s, enc.model)
        except KeyboardInterrupt:
            return SolveResult(Status.UNKNOWN, None, self.name, deadline.elapsed(), stopped_by="interrupted")
        if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            sol = frozenset(v for v in problem.primary if s.boolean_value(enc.vars[v - 1]))
            return SolveResult(Status.SOLVED, sol, self.name, deadline.elapsed())
        if st == cp_model.INFEASIBLE:
            return SolveResult(Status.NO_SOLUTION, None, self.name, deadline.elapsed())
        return SolveResult(Status.UNKNOWN, None, self.name, deadline.elapsed(), stopped_by="time-limit")

    def search(self, problem: Problem, *, limit=None, time_limit=None, keep=False, on_solution=None,
               phases=None, on_count=None, hand_back=None):  # on_count: asked every ASK_EVERY s (Asking)
        deadline = Deadline(time_limit)
        try:
            enc = encode_cpsat(problem, deadline.expired)
        except EncodingStopped:
            return SearchResult(0, False, self.name, deadline.elapsed(), [], "time-limit")
        if phases is not None:
            for v in problem.primary:
                enc.model.add_hint(enc.vars[v - 1], v in phases)
        s = self._solver(deadline.remaining(), 1)
        if limit == 1 and phases is not None:
            # one solution next to a known one (a second solution of a
            # nonogram, its goal blocked): no enumeration, whose restrictions
            # made faase's take 3x as long, and no presolve, which would
            # hide the hint behind its reductions (7x as long with it);
            # benchmarks/nonograms-results.md, session 10
            s.parameters.cp_model_presolve = False
        else:
            s.parameters.enumerate_all_solutions = True
        dedupe = len(problem.primary) != problem.n_vars
        cb = _Collector(enc, limit, keep, on_solution, dedupe)
        stopped = None
        with Asking(on_count, lambda: cb.count, s.stop_search) as asking:
            try:
                st = _run(s, enc.model, cb)
            except KeyboardInterrupt:
                st, stopped = cp_model.UNKNOWN, "interrupted"
        stopped = stopped or cb.stopped or ("callback" if asking.fired else None)
        complete = stopped is None and st in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        if not complete and stopped is None:
            stopped = "time-limit"
        return SearchResult(cb.count, complete, self.name, deadline.elapsed(), cb.solutions, stopped)


def _run(solver, model, callback=None):
    """solver.solve with Ctrl-C handled by Python, not by CP-SAT.

    CP-SAT's own SIGINT handler is not async-signal-safe: it logs (and so
    allocates) inside the handler, and a Ctrl-C landing while the solver
    was in malloc (its presolve allocates a lot) deadlocked the process for
    good (seen on faase: the handler waiting on the allocator lock its own
    thread held).  It also left itself installed after the solve, so a later
    Ctrl-C killed puzzlesat outright.  So CP-SAT is told not to catch SIGINT
    and the solve runs where Python sees Ctrl-C (:func:`run_stoppable`).
    """
    solver.parameters.catch_sigint_signal = False
    return run_stoppable(lambda: solver.solve(model, callback), solver.stop_search)
