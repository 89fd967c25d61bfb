"""The benchmark scripts still run against the code they measure.

They reach into the jobs layer and the encoders, so a rename there breaks
them without any other test noticing: benchmarks/nonograms.py called
``jobs._known`` for a day after it had become ``jobs.verified_known``, and
every ``+goal`` run "crashed".  Each runs here on its smallest input, every
engine variant's code path once, and its answers are checked.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
