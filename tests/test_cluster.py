"""count --cluster: the sub-problems counted by the workers of a real Dask
scheduler (a LocalCluster of two worker processes on this machine)."""

from __future__ import annotations

import re
import json
import subprocess
import sys
import time

import pytest

from puzzlesat import cli, cluster as cluster_mod, jobs
from puzzlesat.backends import Backend, BackendError, SearchResult, get_backend
from puzzlesat.loading import load_puzzle


@pytest.fixture(scope="module")
def scheduler():
    from distributed import LocalCluster

    lc = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        yield lc.scheduler_address
    finally:
        lc.close()


def _cli(*args):
    r = subprocess.run([sys.executable, "-m", "puzzlesat", *args], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in r.stderr, r.stderr
    return r


@pytest.mark.parametrize("backend", ["exact", "cadical195"])
def test_cluster_counts_and_lists_the_same_verified_solutions_as_one_process(scheduler, backend):
    puzzle = load_puzzle("pentomino-3x20")
    cl = cluster_mod.Cluster(scheduler)
    try:
        far = jobs.count(puzzle, get_backend(backend), keep=True, cluster=cl)
        sent = cl.tasks
        uniq = jobs.count(puzzle, get_backend(backend), unique=True, cluster=cl)
    finally:
        cl.close()
    here = jobs.count(puzzle, get_backend(backend), keep=True, jobs=1)
    assert (far.count, far.complete) == (8, True)  # the 3x20 box's 8 tilings (2 up to symmetry)
    assert (uniq.count, uniq.complete) == (2, True)
    assert sent > 1  # the count went to the workers, split
    for s in far.solutions:
        puzzle.verify(s)  # the family's checker, again, in this process
    key = lambda s: sorted(s.placements)  # noqa: E731
    assert sorted(map(key, far.solutions)) == sorted(map(key, here.solutions))


def test_cluster_cli_text_and_json(scheduler):
    r = _cli("count", "pentomino-8x8-four-holes", "--cluster", scheduler)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "168 solutions"
    assert lines[-1].endswith(f"sub-problems sent to the Dask cluster at {scheduler} (2 workers, 2 threads)")
    r = _cli("count", "pentomino-8x8-four-holes", "--unique", "--cluster", scheduler, "--json")
    out = json.loads(r.stdout)
    assert (out["count"], out["complete"], out["jobs"]) == (21, True, None)
    assert out["cluster"]["address"] == scheduler
    assert (out["cluster"]["workers"], out["cluster"]["threads"]) == (2, 2)
    assert out["cluster"]["tasks"] > 1


def test_cluster_says_when_nothing_was_split(scheduler):
    r = _cli("count", "tetromino-L-4x4", "--cluster", scheduler)
    assert r.returncode == 0
    assert r.stdout.splitlines()[0] == "10 solutions"
    assert r.stdout.splitlines()[-1] == (
        f"counted here, not on the cluster at {scheduler}: nothing was split (problems with fewer than "
        f"{jobs.PARALLEL_MIN_VARS} primary variables, or few solutions by a quick bound, the runs of a count up to "
        "symmetry that list the solutions they weigh, and searches that start from a known solution, are not)")
    # a determinant is not split at all, however large the problem
    r = _cli("count", "dominoes-8x8", "--cluster", scheduler)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "12988816 solutions"
    assert r.stdout.splitlines()[-1] == (
        f"counted here, not on the cluster at {scheduler}: nothing was split (kasteleyn counts the whole at "
        "once: its parts together cost more than the whole)")
    # nor a model whose unit clauses fix every variable (dancer, line-solved)
    r = _cli("count", "dancer", "--cluster", scheduler)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "1 solution (unique)"
    assert r.stdout.splitlines()[-1] == (
        f"counted here, not on the cluster at {scheduler}: nothing to search (the model's unit clauses fix every "
        "variable)")


def test_cluster_time_limit_is_a_labelled_lower_bound(scheduler):
    r = _cli("count", "pentomino-6x10", "--cluster", scheduler, "-t", "0.5")
    assert r.returncode == cli.EXIT_INCOMPLETE
    first = r.stdout.splitlines()[0]
    assert re.fullmatch(r"at least \d+ solutions?, incomplete \(stopped by the time limit\)", first), first
    assert int(first.split()[2]) < 9356


@pytest.mark.parametrize("backend", ["exact", "cadical195", "ganak"])
def test_cluster_time_limit_with_every_counting_engine(scheduler, backend):
    # cadical195 with a time limit failed in Dask's daemonic workers, which
    # may not fork (an AssertionError from multiprocessing)
    r = _cli("count", "pentomino-6x10", "--cluster", scheduler, "-b", backend, "-t", "1")
    assert r.returncode == cli.EXIT_INCOMPLETE, r.stderr
    first = r.stdout.splitlines()[0]
    lower_bound = r"at least \d+ solutions?, incomplete \(stopped by the time limit\)"
    if backend == "ganak" and not re.fullmatch(lower_bound, first):  # unless a part was counted in time
        assert first == ("no count: ganak was stopped by the time limit before it finished "
                         "(a model counter has no partial count)")
    else:
        assert re.fullmatch(lower_bound, first), first


@pytest.mark.parametrize("backend", ["exact", "ganak", "cpsat", "minisat22"])
def test_cluster_a_real_engine_stops_on_the_flag_where_it_finds_nothing(scheduler, backend, mutilated):
    # the exact engine and Ganak search in a child process of the worker,
    # whose parent looks at the stop flag every 0.5 s meanwhile; CP-SAT and
    # MiniSat in the task, with a thread of theirs that looks (Asking: before
    # it, they looked at their next solution, and here there is none)
    cl = cluster_mod.Cluster(scheduler)
    try:
        work = (None, get_backend(backend), mutilated(16), False, time.time() + 120)
        cl.start(jobs._count_part, work, [(0, (), None)])
        time.sleep(2.0)  # its search has begun
        assert not cl._futures[0].done()
        assert cl.leftover({0}, "interrupted") == 0  # the flag goes up; up to 3 s for the task's count
        assert cl._futures[0].done()
        i, n, complete, stopped, *_ = cl._futures[0].result()
        assert (i, n, complete, stopped) == (0, 0, False, "callback")
    finally:
        cl.close()


class _Stuck(Backend):
    """Finds 7 solutions of whatever part it is given, then nothing more
    until its time limit (a part no engine finishes in time)."""

    name = "stuck"
    solutions_are_free = False

    def search(self, problem, *, limit=None, time_limit=None, keep=False, on_solution=None, phases=None,
               on_count=None):
        time.sleep(time_limit)
        return SearchResult(7 if time_limit > 0 else 0, False, self.name, time_limit, [], "time-limit")


@pytest.fixture
def fake_engine_cluster(scheduler):
    """A connection to the scheduler whose workers can run this module's fake engines."""
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import a test module
    cl = cluster_mod.Cluster(scheduler)
    try:
        yield cl
    finally:
        cl.close()
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def test_cluster_time_limit_adds_what_the_running_tasks_found(fake_engine_cluster):
    out = jobs.count(load_puzzle("pentomino-6x10"), _Stuck(), time_limit=3.0, cluster=fake_engine_cluster)
    # two single-thread workers, each in its first part at the deadline: their
    # 7 each, handed back when they stop (the parts started later find 0)
    assert (out.count, out.complete, out.stopped_by) == (14, False, "time-limit")


class _Trickle(Backend):
    """Counts one more solution every 0.05 s and says so (on_count) until its
    time limit, or until on_count answers True (the stop flag): then it
    hands back its count plus STOPPED, a mark that it stopped on the flag.
    Each step adds a byte to the file ``beat`` (the workers are processes
    on this machine): while any task runs, the file grows."""

    name = "trickle"
    solutions_are_free = False
    STOPPED = 1000

    def __init__(self, beat):
        self.beat = str(beat)

    def search(self, problem, *, limit=None, time_limit=None, keep=False, on_solution=None, phases=None,
               on_count=None):
        end = time.monotonic() + (time_limit if time_limit is not None else 120)
        k = 0
        while time.monotonic() < end:
            time.sleep(0.05)
            k += 1
            with open(self.beat, "a") as f:
                f.write(".")
            if on_count(k):
                return SearchResult(k + self.STOPPED, False, self.name, 0.0, [], "callback")
        return SearchResult(k, False, self.name, 0.0, [], "time-limit")


def _still(beat, within=5.0) -> bool:
    """Has every _Trickle stopped, within ``within`` seconds?  (The file
    ``beat`` stays the same size for a second; Dask forgets a cancelled task
    at once, so its own books cannot say whether the task's thread stopped.)"""
    end = time.monotonic() + within
    size = beat.stat().st_size
    while time.monotonic() < end:
        time.sleep(1.0)
        now = beat.stat().st_size
        if now == size:
            return True
        size = now
    return False


def test_cluster_tasks_report_their_counts_and_stop_on_the_flag(fake_engine_cluster, tmp_path):
    cl = fake_engine_cluster
    puzzle = load_puzzle("pentomino-3x20")
    beat = tmp_path / "beat"
    work = (puzzle, _Trickle(beat), puzzle.compile(), False, time.time() + 120)
    cl.start(jobs._count_part, work, [(0, (), None), (1, (), None)])
    end = time.monotonic() + 20
    while cl.partial({0, 1}) < 2 and time.monotonic() < end:  # what moves the progress line
        time.sleep(0.1)
    heard = cl.partial({0, 1})
    assert heard >= 2
    # Ctrl-C: the flag goes up, both tasks stop at their next report and hand back their counts
    n = cl.leftover({0, 1}, "interrupted")
    assert n >= 2 * _Trickle.STOPPED + heard
    cl.stop()
    assert _still(beat)


def test_cluster_limit_stops_the_running_tasks(fake_engine_cluster, tmp_path):
    cl = fake_engine_cluster
    beat = tmp_path / "beat"
    out = jobs.count(load_puzzle("pentomino-6x10"), _Trickle(beat), limit=5, cluster=cl)
    assert (out.count, out.complete, out.stopped_by) == (5, False, "limit")
    assert _still(beat)  # without the flag they would run on for 120 s


def test_cluster_ctrl_c_is_a_labelled_lower_bound(scheduler, interrupted):
    r = interrupted("count", "pentomino-6x10", "--cluster", scheduler, "--progress", after="counting: ")
    assert r.code == cli.EXIT_INCOMPLETE, r.err
    first = r.out.splitlines()[0]
    assert re.fullmatch(r"at least \d+ solutions?, incomplete \(interrupted \(Ctrl-C\)\)", first), r.out
    assert "Traceback" not in r.err


def test_cluster_and_jobs_exclude_each_other(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["count", "pentomino-3x20", "-j", "2", "--cluster", "tcp://127.0.0.1:1"])
    assert e.value.code == cli.EXIT_BAD_INPUT
    assert "argument --cluster: not allowed with argument --jobs/-j" in capsys.readouterr().err


def test_unreachable_scheduler_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setattr(cluster_mod, "CONNECT_TIMEOUT", 0.5)
    code = cli.main(["count", "pentomino-3x20", "--cluster", "tcp://127.0.0.1:1"])
    assert code == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("puzzlesat: cannot reach a Dask scheduler at 'tcp://127.0.0.1:1': "), err
    assert "Traceback" not in err


def test_the_time_limit_covers_connecting(capsys):
    # the connecting took its own 10 s (CONNECT_TIMEOUT) past -t 2 (QA): it
    # now gets what the time limit leaves, and running out there is exit 3
    t = time.monotonic()
    code = cli.main(["count", "pentomino-3x20", "--cluster", "tcp://127.0.0.1:1", "-t", "2"])
    assert time.monotonic() - t < cluster_mod.CONNECT_TIMEOUT
    assert code == cli.EXIT_INCOMPLETE
    err = capsys.readouterr().err
    assert re.fullmatch(r"puzzlesat: stopped: the time limit \(2 s\) ran out while connecting to the Dask "
                        r"scheduler at tcp://127.0.0.1:1 to count pentomino-3x20, before any search \(cannot reach a "
                        r"Dask scheduler at 'tcp://127.0.0.1:1': .*\)\n", err), err


def test_a_short_connecting_timeout_is_not_the_clients_for_good(scheduler):
    # Dask keeps the timeout it connected with for its pool and scatter: the
    # 0.1 s a time limit may leave the connecting was theirs after (review)
    c = cluster_mod.Cluster(scheduler, timeout=5)
    try:
        assert (c.client._timeout, c.client.rpc.timeout) == (cluster_mod.CONNECT_TIMEOUT,) * 2
    finally:
        c.close()


def test_an_empty_cluster_address_is_a_usage_error(capsys):
    # (it counted here without a word, QA)
    assert cli.main(["count", "dominoes-2x4", "--cluster", ""]) == cli.EXIT_BAD_INPUT
    assert capsys.readouterr().err == ("puzzlesat: --cluster: the scheduler's address is empty (such as "
                                       "tcp://HOST:8786)\n")


def test_workers_running_other_code_are_refused():
    with pytest.raises(BackendError, match=r"^1 of 2 Dask workers run another puzzlesat \(source hash differs "
                                           r"from this one's abc\): tcp://b; install the same version"):
        cluster_mod.check_workers({"tcp://a": "abc", "tcp://b": "def"}, "abc")
    cluster_mod.check_workers({"tcp://a": "abc", "tcp://b": "abc"}, "abc")  # the same code: fine


def test_fingerprint_follows_the_sources(tmp_path):
    import shutil
    from pathlib import Path

    copy = tmp_path / "puzzlesat"
    shutil.copytree(Path(cluster_mod.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert cluster_mod.code_fingerprint(copy) == cluster_mod.code_fingerprint()
    with open(copy / "jobs.py", "a") as f:
        f.write("\n# an edit\n")
    assert cluster_mod.code_fingerprint(copy) != cluster_mod.code_fingerprint()


def test_a_worker_left_running_across_an_update_is_refused(monkeypatch):
    # its files hash as the driver's, but a module it loaded before they
    # changed runs the old code: it passed the check and counted wrong (QA)
    import puzzlesat

    monkeypatch.setattr(puzzlesat, "IMPORTED_AT", 0.0)  # every file is newer
    assert cluster_mod.code_fingerprint() == "stale"
    monkeypatch.setattr(puzzlesat, "IMPORTED_AT", float("inf"))  # none is
    assert cluster_mod.code_fingerprint() not in ("stale", "")
    with pytest.raises(BackendError, match=r"^1 of 2 Dask workers have run since before their puzzlesat files "
                                           r"changed \(their code may be the old one\): tcp://b; restart them$"):
        cluster_mod.check_workers({"tcp://a": "abc", "tcp://b": "stale"}, "abc")


def test_a_cluster_lost_during_the_count_is_one_line(monkeypatch):
    # the scheduler killed mid-count: Dask cancels every future, and
    # fut.result() raised out of the driver, a traceback and exit 1 (QA)
    from distributed.client import FutureCancelledError

    class Gone:
        def result(self):
            raise FutureCancelledError("k", reason="scheduler-connection-lost")

    c = object.__new__(cluster_mod.Cluster)
    c.address = "tcp://127.0.0.1:8786"
    c._finished = __import__("queue").SimpleQueue()
    c._finished.put(Gone())
    with pytest.raises(BackendError, match=r"^the Dask cluster at tcp://127.0.0.1:8786 lost its scheduler or its "
                                           r"workers during the count \(.*scheduler-connection-lost.*\); the count "
                                           r"is lost"):
        c.next(1.0)


@pytest.mark.parametrize("address,why", [
    ("foo://bar", "unknown address scheme 'foo'"),
    ("not an address", "missing port number in address 'not an address'"),
])
def test_a_malformed_address_is_refused_at_once(address, why):
    r = _cli("count", "pentomino-3x20", "--cluster", address)
    assert r.returncode == 2
    assert r.stderr.startswith(f"puzzlesat: {address!r} is not a Dask scheduler address (such as tcp://HOST:8786): "
                               f"{why}")
    assert len(r.stderr.splitlines()) == 1  # no clean-up noise after it
