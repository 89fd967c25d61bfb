"""backends.base.Child: engines that cannot be interrupted search in a child
process, forked, or a new Python in a daemonic process (a Dask worker may
not have multiprocessing children); the local pool's workers search inline."""

from __future__ import annotations

import multiprocessing
import operator

import pytest

from puzzlesat import jobs
from puzzlesat.backends import BackendError, get_backend
from puzzlesat.backends.base import Child
from puzzlesat.loading import load_puzzle


def _in_daemon(fn, *args, initializer=None, **kw):
    """``fn(*args, **kw)`` in the daemonic worker of a forked pool, as in a Dask worker."""
    with multiprocessing.get_context("fork").Pool(1, initializer=initializer) as pool:
        return pool.apply(fn, args, kw)


def _search(engine: str, problem, **kw):
    r = get_backend(engine).search(problem, **kw)
    return r.count, r.complete, r.stopped_by, r.stats.get("isolated")


def _answer_true(n):
    return True


def _daemonic() -> bool:
    return multiprocessing.current_process().daemon


def test_the_helper_runs_in_a_daemonic_process():
    assert _in_daemon(_daemonic) is True


def test_cadical_with_a_time_limit_searches_in_a_daemonic_process():
    # it was "AssertionError: daemonic processes are not allowed to have
    # children" (count --cluster -b cadical195 -t N)
    p = load_puzzle("pentomino-3x20").compile()
    assert _in_daemon(_search, "cadical195", p, limit=2, time_limit=60)[:3] == (2, False, "limit")


def test_the_exact_engine_in_a_daemonic_process_stops_at_the_deadline_without_a_solution(mutilated):
    assert _in_daemon(_search, "exact", mutilated(16), time_limit=0.5) == (0, False, "time-limit", True)


@pytest.mark.parametrize("engine", ["exact", "ganak", "cadical195", "cpsat", "minisat22", "glucose4"])
def test_a_caller_stops_a_search_through_on_count_while_no_solution_comes(engine, mutilated):
    # how a split count's running part sees its job's stop flag: asked now
    # and then even while the engine has nothing to hand back (in a child's
    # parent, or, for engines that take an interrupt, from a thread: Asking)
    assert _in_daemon(_search, engine, mutilated(16), on_count=_answer_true)[:3] == (0, False, "callback")
    assert _search(engine, mutilated(16), on_count=_answer_true)[:3] == (0, False, "callback")


def test_an_outside_solver_is_killed_when_on_count_says_stop(tmp_path):
    sleeper = tmp_path / "sleeper"
    sleeper.write_text("#!/bin/sh\nsleep 60\n")
    sleeper.chmod(0o755)
    asked = []
    r = get_backend(f"external:{sleeper}").search(load_puzzle("dominoes-2x4").compile(),
                                                   on_count=lambda n: asked.append(n) or len(asked) == 2)
    assert (r.count, r.complete, r.stopped_by, asked) == (0, False, "callback", [0, 0])


def test_the_local_pool_workers_search_inline():
    # their parent terminates the pool: no child process per sub-problem
    p = load_puzzle("dominoes-8x8").compile()
    r = _in_daemon(_search, "exact", p, limit=3, initializer=jobs._pool_worker_start)
    assert r == (3, False, "limit", False)
    assert _in_daemon(_search, "exact", p, limit=3) == (3, False, "limit", True)


def test_a_child_that_dies_is_named_with_its_exit_code(capfd):
    child = Child(operator.truediv, (0,))  # truediv(conn, 0): a TypeError in the child
    try:
        with pytest.raises(BackendError) as e:
            child.recv("the test search")
    finally:
        child.close()
    assert str(e.value) == "the test search died (exit code 1)"


def _recv_error(fn, args) -> str:
    child = Child(fn, args)
    try:
        child.recv("the test search")
    except BackendError as e:
        return str(e)
    finally:
        child.close()
    return "no error"


def test_a_new_python_that_dies_is_named_with_its_exit_code_and_last_words():
    assert _in_daemon(_recv_error, operator.truediv, (0,)) == (
        "the test search died (exit code 1): TypeError: unsupported operand type(s) for /: '_JobConnection' and 'int'")


def _pids_of_searches(engines_and_kw) -> list[int]:
    """The pid of the child that ran each search, one after another in this thread."""
    from puzzlesat.backends import base

    pids, start = [], base.Child.__init__

    def spy(self, fn, args):
        start(self, fn, args)
        pids.append(self.pid)

    base.Child.__init__ = spy
    try:
        for engine, problem, kw in engines_and_kw:
            get_backend(engine).search(problem, **kw)
    finally:
        base.Child.__init__ = start
    return pids


def test_a_new_python_serves_the_next_search_of_its_thread_unless_it_was_stopped(mutilated):
    # starting a new Python costs ~0.1 s, more than a small cluster task's search
    small, big = load_puzzle("dominoes-2x4").compile(), load_puzzle("dominoes-8x8").compile()
    pids = _in_daemon(_pids_of_searches, [
        ("exact", big, dict(limit=3)), ("ganak", small, {}), ("cadical195", small, dict(time_limit=60)),
        ("exact", mutilated(16), dict(on_count=_answer_true)),  # stopped: killed
        ("exact", big, {"limit": 3}), ("ganak", mutilated(16), dict(time_limit=0.5)), ("exact", big, {"limit": 3})])
    assert len(pids) == 7
    assert pids[0] == pids[1] == pids[2] == pids[3]
    assert pids[4] == pids[5] and len({pids[0], pids[4], pids[6]}) == 3


def _silent_then_a_search() -> tuple[str, bool]:
    first = Child(operator.not_, ())  # not_(conn): returns without a word
    pid = first.pid
    try:
        with pytest.raises(BackendError) as e:
            first.recv("the test search")
    finally:
        first.close()
    pids = _pids_of_searches([("exact", load_puzzle("dominoes-8x8").compile(), dict(limit=3))])
    return str(e.value), pids == [pid]


def test_a_job_that_ends_without_an_answer_is_an_error_and_its_new_python_serves_on():
    assert _in_daemon(_silent_then_a_search) == ("the test search ended without an answer", True)


def _search_from(directory: str):
    import os

    os.chdir(directory)
    return _search("exact", load_puzzle("dominoes-8x8").compile(), limit=3)


def test_a_new_python_imports_this_puzzlesat_not_one_in_the_current_directory(tmp_path):
    # the current directory comes first on a `python -c` child's sys.path
    (tmp_path / "puzzlesat").mkdir()
    (tmp_path / "puzzlesat" / "__init__.py").write_text("raise ImportError('the decoy puzzlesat')\n")
    assert _in_daemon(_search_from, str(tmp_path)) == (3, False, "limit", True)


def _descendants(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(c) for c in f.read().split()]
    except OSError:
        return []
    return [d for k in kids for d in [k, *_descendants(k)]]


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("args,kids", [
    (["count", "pentomino-3x4x5", "-j", "1", "-t", "60"], 1),  # the engine's child
    (["count", "pentomino-3x4x5", "-j", "2", "-t", "60"], 2),  # the pool's workers
    (["compare", "pentomino-3x4x5", "--count", "-b", "exact", "-t", "60"], 1),  # compare's run
])
def test_what_puzzlesat_started_dies_with_it_even_by_sigkill(args, kids):
    # a parent killed by SIGKILL (the OOM killer, kill -9, a cancelled CI job)
    # cleans nothing up: its search went on at full CPU past -t, re-parented to 1
    import os
    import signal
    import subprocess
    import sys
    import time

    p = subprocess.Popen([sys.executable, "-m", "puzzlesat", *args], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        t = time.monotonic()
        while len(_descendants(p.pid)) < kids and time.monotonic() - t < 60:
            time.sleep(0.05)
        time.sleep(0.3)
        started = _descendants(p.pid)
        assert len(started) >= kids
    finally:
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
    t = time.monotonic()
    while any(map(_running, started)) and time.monotonic() - t < 5:
        time.sleep(0.05)
    left = [k for k in started if _running(k)]
    for k in left:
        os.kill(k, signal.SIGKILL)
    assert left == []
