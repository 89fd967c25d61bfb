"""The benchmark scripts still run against the code they measure.

They reach into the jobs layer and the encoders, so a rename there breaks
them without any other test noticing: benchmarks/nonograms.py called
``jobs._known`` for a day after it had become ``jobs.verified_known``, and
every ``+goal`` run "crashed".  Each runs here on its smallest input, every
engine variant's code path once, and its answers are checked.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _run(*args: str, timeout: float = 120) -> tuple[str, str]:
    """(the table on stdout, the runs' lines on stderr)"""
    r = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    return r.stdout, r.stderr


def test_the_nonogram_benchmark_runs_every_variant(shared_dir):
    engines = ["default+goal+pre", "cadical195+sym", "cpsat+dfa", "cadical195+dfa+order", "glucose4+both"]
    # (webpbn #1 has a goal, for +goal; 5-Dom's clues have a symmetry, for +sym)
    out, runs = _run("benchmarks/nonograms.py", "--sets", "survey", "n-dom", "--only", "webpbn-00001", "5-dom",
                     "--engines", *engines, "--baseline", "default+goal+pre", "--time-limit", "60")
    rows = [line.split() for line in runs.splitlines()]
    assert [(row[0], row[1], row[-1]) for row in rows] == [
        (puzzle, e, "unique") for puzzle in ("survey/webpbn-00001.non", "n-dom/5-dom.non") for e in engines]
    assert "Verdicts agree across engines." in out


def test_the_counting_benchmark_reports_the_median_of_its_rounds():
    out, runs = _run("benchmarks/counting.py", "-i", "dominoes-2x4", "-e", "raw", "exact", "--rounds", "3")
    reports = [json.loads(line.split(None, 2)[2]) for line in runs.splitlines() if line.startswith("dominoes-2x4 ")]
    assert len(reports) == 6 and all(r["status"] == "ok" and r["count"] == 5 for r in reports)
    assert "| dominoes-2x4 | 5 |" in out
    # the run reported: the median's, and a timeout or an error is never averaged away
    import importlib.util

    spec = importlib.util.spec_from_file_location("counting", REPO / "benchmarks" / "counting.py")
    counting = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(counting)
    ok = [{"status": "ok", "cpu": c} for c in (0.3, 0.1, 0.2, 0.4)]
    assert counting._median_run(ok)["cpu"] == 0.2
    assert counting._median_run(ok + [{"status": "timeout"}]) == {"status": "timeout"}
    r = subprocess.run([sys.executable, "benchmarks/counting.py", "--rounds", "0"], cwd=REPO, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.strip().splitlines()[-1] == "counting.py: error: --rounds 0: at least 1"


def test_the_counting_benchmark_waits_for_threads_that_spin_before_its_clock():
    # numpy's OpenBLAS threads spin ~50 ms after its import, and the CPU time
    # measured is every thread's: that spin was in each run's window
    import importlib.util
    import threading
    import time

    spec = importlib.util.spec_from_file_location("counting", REPO / "benchmarks" / "counting.py")
    counting = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(counting)
    stop = time.perf_counter() + 0.3

    def spin():
        while time.perf_counter() < stop:
            pass
    threading.Thread(target=spin).start()
    counting.settle()
    assert time.perf_counter() >= stop
    before = time.process_time()
    time.sleep(0.05)
    assert time.process_time() - before < 0.01  # nothing spins any more


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads live processes from /proc")
def test_the_nonogram_benchmark_counts_a_child_still_running():
    # a first solution sent by a child still searching (symmetric-first) was
    # timed without that child's CPU: only finished children counted
    import importlib.util
    import multiprocessing
    import time

    spec = importlib.util.spec_from_file_location("nonograms", REPO / "benchmarks" / "nonograms.py")
    nonograms = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(nonograms)
    ready = multiprocessing.get_context("fork").Event()

    def burn():
        start = time.process_time()
        while time.process_time() - start < 0.3:
            pass
        ready.set()
        time.sleep(60)

    before = nonograms._cpu()
    child = multiprocessing.get_context("fork").Process(target=burn)
    child.start()
    try:
        assert ready.wait(60)
        assert nonograms._cpu() - before >= 0.29  # its 0.3 s, though it has not ended
    finally:
        child.kill()
        child.join()


def test_the_counting_benchmark_runs_every_engine():
    engines = ["raw", "exact", "count", "unique", "unique-burnside", "ganak", "cadical195", "default",
               "default-unique"]
    _, runs = _run("benchmarks/counting.py", "-i", "dominoes-2x4", "-e", *engines, "--timeout", "60")
    got = {}
    for line in runs.splitlines():
        name, _, rest = line.partition(" ")
        if name == "dominoes-2x4" and rest.strip().split(" ", 1)[0] in engines:
            engine, report = rest.strip().split(" ", 1)
            got[engine] = json.loads(report)
    assert {e: (r["status"], r["count"]) for e, r in got.items()} == {
        e: ("ok", 4 if "unique" in e else 5) for e in engines}


def test_the_preprocessing_benchmark_runs_its_clause_orders(shared_dir):
    # (its solve table takes minutes: the part that reaches into the jobs layer runs here)
    out, _ = _run("benchmarks/preprocessing.py", "--orders", "2", "--puzzle",
                  str(shared_dir / "data" / "nonograms" / "n-dom" / "5-dom.non"))
    lines = out.splitlines()
    assert [line.split(",")[0].strip() for line in lines] == ["as stated", "preprocessed"]
    assert all(", fixed by all 2 symmetries, " in line for line in lines)


def _refused(*args: str, timeout: float = 120) -> str:
    """A bad-input run: exit 2, one line on stderr, no traceback; the line."""
    r = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    return r.stderr.strip().splitlines()[-1]


def test_the_nonogram_benchmark_refuses_an_unknown_set(shared_dir):
    # (it printed empty tables and "Verdicts agree across engines.")
    assert "no set 'nosuch'" in _refused("benchmarks/nonograms.py", "--sets", "nosuch")


def test_the_nonogram_benchmark_shows_a_failed_run_as_an_error(shared_dir):
    # kasteleyn only counts domino tilings: its runs fail, and were shown as "> 3"
    r = subprocess.run([sys.executable, "benchmarks/nonograms.py", "--sets", "n-dom", "--only", "5-dom",
                        "--engines", "kasteleyn", "cadical195", "--baseline", "cadical195", "--time-limit", "60"],
                       cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 4, r.stdout + r.stderr
    assert "| n-dom/5-dom.non | 11x11 | error | " in r.stdout
    assert "(+1 error)" in r.stdout and "timeout" not in r.stdout
    assert "1 run failed" in r.stdout and "- n-dom/5-dom.non kasteleyn: BackendError" in r.stdout


def test_the_spine_benchmark_refuses_an_unknown_job():
    line = _refused("benchmarks/spine.py", "--jobs", "unique-3x4x5")
    assert "unknown job 'unique-3x4x5'" in line and "solve-3x4x5" in line


def test_compile_times_refuses_a_nonogram():
    assert "tilings only" in _refused("benchmarks/compile_times.py", "5-dom")


def test_restricted_piece_says_when_no_piece_can_be_restricted():
    out, _ = _run("benchmarks/restricted_piece.py", "tetromino-L-4x4")
    assert "no piece to restrict" in out


def test_symmetric_first_reports_a_failed_run_in_its_cell():
    r = subprocess.run([sys.executable, "benchmarks/symmetric_first.py", "--sizes", "20", "--engines", "kasteleyn",
                        "--rounds", "1"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 4 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "| 20x20 | kasteleyn | 1 | error | error | — | — |" in r.stdout


def test_parallel_counts_says_the_data_is_missing(tmp_path):
    import os

    r = subprocess.run([sys.executable, "benchmarks/parallel_counts.py"], cwd=REPO, capture_output=True, text=True,
                       timeout=60, env={**os.environ, "PUZZLESAT_SHARED": str(tmp_path)})
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "no nonogram data" in r.stderr and str(tmp_path) in r.stderr


def test_parallel_counts_takes_any_instance_and_an_engine(tmp_path):
    # (it was nonogram_jobs.py: files only, always with --no-goal, which a
    # tiling refuses, and the engine count picks)
    r = subprocess.run([sys.executable, "benchmarks/parallel_counts.py", "-b", "exact", "-t", "30", "tetromino-L-4x4"],
                       cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    row = r.stdout.splitlines()[-1]
    assert re.fullmatch(r"\| tetromino-L-4x4 \| 10 in [\d.]+ s wall, [\d.]+ CPU-s, 1 parts \| 10 in [\d.]+ s wall, "
                        r"[\d.]+ CPU-s, 1 parts \| [\d.]+x wall \|", row), row
    r = subprocess.run([sys.executable, "benchmarks/parallel_counts.py", "nosuch-instance"], cwd=REPO,
                       capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == "parallel_counts.py: no such file or bundled instance: nosuch-instance\n"


def test_the_argument_free_scripts_have_help():
    # (cluster_counts --help started a Dask cluster, site_sums --help raised ValueError)
    for script in ("benchmarks/cluster_counts.py", "benchmarks/site_sums.py"):
        out, _ = _run(script, "--help")
        assert out.startswith("usage: ")


def test_site_sums_says_which_boards_it_skipped():
    out, _ = _run("benchmarks/site_sums.py", "4x4")
    assert out.strip() == "4x4: skipped: no mirror with 10 or more sites (the most: 4)"
