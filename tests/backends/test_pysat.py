"""PySAT back ends: Kissat, which cannot take a clause after solving, counts
by solving afresh with every blocking clause so far."""

from __future__ import annotations

import os
import time

import pytest

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.loading import load_puzzle

from .test_exactcover import brute_force, random_problem, two_kinds


@pytest.fixture(scope="module")
def kissat():
    return get_backend("kissat404")


def test_kissat_counts_by_restarting(kissat):
    # (each count here is bounded: one more than the answer, and a time limit:
    # a restart that lost its blocking clauses hung the test instead of failing it)
    p = two_kinds(3, 4, 11)
    r = kissat.count(p, limit=36, time_limit=60)
    assert (r.count, r.complete, r.stopped_by) == (35, True, None)
    assert r.stats["restarts"] == 35  # one fresh solver per solution found


@pytest.mark.parametrize("seed", range(8))
def test_kissat_counts_random_covers(kissat, seed):
    import random

    p = random_problem(random.Random(seed), 7)
    expected = len(brute_force(p))
    r = kissat.count(p, limit=expected + 1, time_limit=60)
    assert (r.count, r.complete) == (expected, True)


def test_kissat_counts_a_tiling_raw_and_up_to_symmetry(kissat):
    t = load_puzzle("pentomino-3x20")
    out = jobs.count(t, kissat, keep=True, limit=9, time_limit=60)
    sols = out.solutions
    assert out.complete and len(sols) == 8 and len({tuple(sorted(s.placements)) for s in sols}) == 8
    for s in sols:
        t.verify(s)
    out = jobs.count(t, kissat, unique=True, time_limit=60)
    assert (out.count, out.complete) == (2, True)


def test_kissat_decides_that_a_nonogram_has_two_solutions(kissat):
    t = load_puzzle("twins")
    out = jobs.count(t, kissat, limit=2, keep=True)
    assert (out.count, out.complete) == (2, False)
    a, b = out.solutions
    assert a != b
    t.verify(a)
    t.verify(b)
    assert jobs.count(t, kissat, limit=2, time_limit=30).count == 2  # in a child, under a limit


@pytest.mark.parametrize("name,in_child", [("glucose4", True), ("glucose3", True), ("maplecm", True),
                                           ("minisat22", False), ("cadical195", True)])
def test_solvers_slow_to_take_an_interrupt_search_in_a_child_under_a_time_limit(name, in_child, monkeypatch):
    # Glucose looks at interrupt() only between restarts: -t 2 on the 3x4x5
    # box ran 2.7-3.1 s; in a child it is killed at the deadline instead
    from puzzlesat.backends.pysat_backend import PySatBackend

    used = []
    real = PySatBackend._search_in_child
    monkeypatch.setattr(PySatBackend, "_search_in_child", lambda self, *a, **k: used.append(1) or real(self, *a, **k))
    puzzle = load_puzzle("pentomino-3x20")
    out = jobs.count(puzzle, get_backend(name), time_limit=60, jobs=1, keep=True)
    assert (out.count, out.complete, bool(used)) == (8, True, in_child)
    for sol in out.solutions:
        puzzle.verify(sol)


def test_a_search_in_a_child_is_not_responsive_there(monkeypatch):
    # the parent draws the progress line; the child, copied from a back end
    # made responsive for it, ran each solve in a thread of its own: a
    # count of 40,320 solutions took 5x as long with progress on
    from puzzlesat.backends import pysat_backend

    def no_thread(*args):
        raise AssertionError("a solve in a thread of its own, in the child")

    monkeypatch.setattr(pysat_backend, "run_stoppable", no_thread)
    # (a child holds SIGINT back for good: not this test's process)
    monkeypatch.setattr(pysat_backend, "ignore_sigint", lambda: None)
    sent = []

    class Conn:
        def send(self, msg):
            sent.append(msg)

        def close(self):
            pass

    be = get_backend("cadical195")
    be.responsive = True
    problem = load_puzzle("dominoes-2x4").compile()
    pysat_backend._child_main(Conn(), be, problem, None, None)
    assert len(sent) == 6 and sent[-1][:3] == ("done", True, None)  # the 5 tilings of 2x4, then the end


def test_short_solves_of_a_responsive_search_stay_in_this_thread(monkeypatch):
    # a thread (and under -t a timer) per solve cost 1-2 ms of wall time on
    # a loaded machine: an 8x8 nonogram of 1s (40,320 solutions) on
    # minisat22 took 27 s against 4 s; solves within FAST_CONFLICTS
    # conflicts run here, the rest as before
    from puzzlesat.backends import pysat_backend
    from puzzlesat.backends.base import run_stoppable

    threaded = []

    def counting(work, stop):
        threaded.append(1)
        return run_stoppable(work, stop)

    monkeypatch.setattr(pysat_backend, "run_stoppable", counting)
    be = get_backend("minisat22")
    be.responsive = True
    r = be.search(load_puzzle("dominoes-2x4").compile(), time_limit=60)
    assert (r.count, r.complete, threaded) == (5, True, [])
    # a solve past the budget goes to a thread of its own, and is right
    from pysat.examples.genhard import PHP

    from puzzlesat.backends.base import Deadline
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=PHP(7).clauses) as s:
        assert pysat_backend._solve(s, Deadline(60), responsive=True) is False
    assert threaded == [1]
    # CaDiCaL too (a split count's workers search inline): it has a budget
    # but no clear_interrupt, which the first version called
    with Solver(name="cadical195", bootstrap_with=PHP(7).clauses) as s:
        assert pysat_backend._solve(s, Deadline(60), responsive=True) is False


def test_a_solver_left_in_mid_search_by_ctrl_c_is_not_freed(monkeypatch):
    # PySAT's solve() catches SIGINT in C and jumps out of the solver
    # wherever it was; freeing that solver afterwards crashed about one
    # Ctrl-C in three on a long nonogram solve ("free(): invalid pointer",
    # exit 134). Its C handle is let go instead, and the answer so far stays.
    import pysat.solvers
    from pysolvers import error as solver_error

    from puzzlesat.backends import pysat_backend

    real_solve, calls, freed = pysat_backend._solve, [], []

    def interrupted_second_time(s, deadline, responsive=False):
        calls.append(1)
        if len(calls) == 2:
            raise solver_error("Caught keyboard interrupt")
        return real_solve(s, deadline, responsive)

    be, problem = get_backend("cadical195"), load_puzzle("dominoes-2x4").compile()  # (its check frees one)
    monkeypatch.setattr(pysat_backend, "_solve", interrupted_second_time)
    monkeypatch.setattr(pysat.solvers.pysolvers, "cadical195_del", lambda *a: freed.append(a))
    r = be.search(problem)
    assert (r.count, r.complete, r.stopped_by, freed) == (1, False, "interrupted", [])
    # a search that ends normally still frees its solver
    monkeypatch.setattr(pysat_backend, "_solve", real_solve)
    r = be.search(problem)
    assert (r.count, r.complete, len(freed)) == (5, True, 1)


def test_cryptominisat_and_minisat_gh_run_by_the_names_pysat_takes():
    # PySAT takes only these two's aliases, not their keys (its SolverNames'
    # attribute names): both were said not to be "in this PySAT build" (QA)
    import importlib.util

    from puzzlesat.backends.pysat_backend import unavailable_reason

    problem = load_puzzle("dominoes-2x4").compile()
    assert unavailable_reason("minisatgh") == ""
    assert get_backend("mgh").name == get_backend("minisatgh").name == "minisatgh"
    assert get_backend("mgh").count(problem).count == 5
    if importlib.util.find_spec("pycryptosat") is None:  # (pyganak's wheel ships it here)
        assert unavailable_reason("cryptosat") == "Package 'pycryptosat' is unavailable. Check your installation."
        return
    assert unavailable_reason("cryptosat") == ""
    assert get_backend("cms").name == "cryptosat"
    r = get_backend("cms").count(problem, time_limit=30)  # (no interrupt(): a child stopped by killing it)
    assert (r.count, r.complete) == (5, True)


def test_ctrl_c_in_a_cryptominisat_search_is_an_interruption_and_prints_nothing(mutilated, capfd):
    # pycryptosat puts in a SIGINT handler of its own while it solves: it
    # wrote "c" on stdout (inside a --json answer) and "*** INTERRUPTED ***"
    # on stderr, and its solve came back with no answer, which read as the
    # time limit.  It searches in a child, which holds SIGINT back.
    import signal
    import threading

    import importlib.util

    if importlib.util.find_spec("pycryptosat") is None:
        return  # (the test above checks what is said then)
    problem = mutilated(16)  # built first: the signal must land in the search
    old = signal.signal(signal.SIGINT, signal.default_int_handler)  # (a background shell job ignores it)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        r = get_backend("cms").search(problem)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    assert (r.count, r.complete, r.stopped_by) == (0, False, "interrupted")
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")


# every PySAT solver the registry offers, each run on what the families
# compile to (the tiling and nonogram tests exercise a few of them in depth)
ALL_PYSAT = list(__import__("puzzlesat.backends.pysat_backend", fromlist=["SOLVERS"]).SOLVERS)


@pytest.mark.parametrize("name", ALL_PYSAT)
def test_every_pysat_solver_counts_tilings_raw_and_up_to_symmetry_and_a_nonogram(name):
    from puzzlesat.backends.pysat_backend import unavailable_reason
    from puzzlesat.backends.base import BackendError

    why = unavailable_reason(name)
    if why:  # (a solver this python-sat wheel leaves out, or cryptosat without pycryptosat)
        with pytest.raises(BackendError) as e:
            get_backend(name)
        assert str(e.value) == f"backend {name!r} is not available here: {why}"
        return
    backend = get_backend(name)
    # counters (Exactly(k) beside ExactlyOne) against brute force
    for seed in range(3):
        import random

        p = random_problem(random.Random(seed), 7)
        assert backend.count(p).count == len(brute_force(p))
    t = load_puzzle("tetromino-L-4x4")  # (pentomino-3x20 took seconds on some of them)
    exact = get_backend("exact")
    out = jobs.count(t, backend, keep=True)
    assert (out.count, out.complete) == (jobs.count(t, exact).count, True) == (10, True)
    assert len({tuple(sorted(s.placements)) for s in out.solutions}) == 10
    for s in out.solutions:
        t.verify(s)
    assert jobs.count(t, backend, unique=True).count == jobs.count(t, exact, unique=True).count == 3
    # under a time limit (a child process for the solvers slow to take an interrupt)
    out = jobs.count(t, backend, time_limit=60)
    assert (out.count, out.complete) == (10, True)
    n = load_puzzle("twins")  # two pictures
    out = jobs.count(n, backend, limit=2, keep=True)
    assert out.count == 2 and out.solutions[0] != out.solutions[1]
    for s in out.solutions:
        n.verify(s)
    assert jobs.solve(load_puzzle("dancer"), backend).status.value == "solved"


def _pigeonhole(n: int):
    """n + 1 pigeons in n holes: no solution, and CDCL solvers take a while
    to see it (CaDiCaL about 0.3 s for n = 8)."""
    from puzzlesat.problem import AtMostOne, Problem

    p = Problem()
    x = {(i, j): p.var(("x", i, j)) for i in range(n + 1) for j in range(n)}
    for i in range(n + 1):
        p.exactly_one([x[i, j] for j in range(n)])
    for j in range(n):
        p.constraints.append(AtMostOne(tuple(x[i, j] for i in range(n + 1))))
    return p


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads a process's state from /proc")
def test_a_search_run_in_slices_is_paused_between_them_and_goes_on_in_the_same_child():
    # symmetric-first searches in slices of 1 s, 2 s, 4 s ...: each slice
    # started the search afresh in a new child (Knotty's count --limit 2
    # without its goal: 11 s, 4 s when the slices go on from where they stopped)
    be = get_backend("cadical195")
    run = be.slices(_pigeonhole(8), limit=1)
    pid = run.child.pid
    try:
        slices = 0
        while True:
            r = run.run(0.02)
            slices += 1
            assert run.child.pid == pid  # the same search, taken up again
            if r.complete:
                break
            assert r.stopped_by == "time-limit" and r.count == 0
            # stopped, using no CPU between slices (SIGSTOP takes effect soon after it is sent)
            for _ in range(1000):
                if _state(pid) == "T":
                    break
                time.sleep(0.001)
            assert _state(pid) == "T"
            assert slices < 100_000
        assert (r.count, r.solutions) == (0, []) and slices > 1
    finally:
        run.close()
    assert not os.path.exists(f"/proc/{pid}") or _state(pid) == "Z"


def test_closing_a_paused_search_kills_its_child():
    be = get_backend("cadical195")
    run = be.slices(_pigeonhole(9), limit=1)
    r = run.run(0.05)
    assert (r.stopped_by, r.complete) == ("time-limit", False)
    pid = run.child.pid
    run.close()
    assert not os.path.exists(f"/proc/{pid}") or _state(pid) == "Z"


def test_symmetric_first_in_tiny_paused_slices_finds_the_right_solutions(monkeypatch):
    # every slice ends in a pause, and a slice's solutions start every search again
    from puzzlesat.backends.base import Child

    monkeypatch.setattr(jobs, "FIRST_SLICE", 0.001)
    monkeypatch.setattr(jobs, "SLICE_PER_ENCODING", 0.0)
    pauses = []
    real = Child.pause
    monkeypatch.setattr(Child, "pause", lambda self: pauses.append(1) or real(self))
    puzzle = load_puzzle("twins")
    out = jobs.count(puzzle, get_backend("cadical195"), limit=3, time_limit=60, keep=True)
    assert (out.count, out.complete, len(set(out.solutions))) == (2, True, 2)
    assert pauses  # (the slices ended in pauses)
    for sol in out.solutions:
        puzzle.verify(sol)


def test_a_large_model_searches_afresh_in_each_slice(monkeypatch):
    # paused searches hold a solver's memory each, one per tier: past
    # PAUSED_AT_MOST constraints the slices start afresh, as before
    from puzzlesat.backends import pysat_backend
    from puzzlesat.backends.base import Slices

    be = get_backend("cadical195")
    p = _pigeonhole(4)
    monkeypatch.setattr(pysat_backend, "PAUSED_AT_MOST", len(p.constraints) - 1)
    run = be.slices(p, limit=1)
    assert type(run) is Slices
    r = run.run(30)
    assert (r.count, r.complete) == (0, True)
    monkeypatch.setattr(pysat_backend, "PAUSED_AT_MOST", len(p.constraints))
    run = be.slices(p, limit=1)
    try:
        assert type(run) is pysat_backend._PausedChild
    finally:
        run.close()
