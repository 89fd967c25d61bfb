"""Shared test helpers: where the shared data lives, a CLI runner."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PUZZLESAT_SHARED", REPO.parent / "shared"))


#: set by .ci/run: a skipped test fails the run (a missing solver or data set
#: must not turn checks off unnoticed); elsewhere skips are listed (-rs)
STRICT = os.environ.get("PUZZLESAT_CI") == "1"


def pytest_sessionfinish(session, exitstatus):
    if not STRICT:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped:
        reporter.write_line(f"PUZZLESAT_CI=1: {len(skipped)} test(s) skipped; CI allows none "
                            "(install what the skip reasons name)", red=True)
        session.exitstatus = 1


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"shared data not found at {SHARED} (set PUZZLESAT_SHARED)")
    return SHARED


class CliResult:
    def __init__(self, proc):
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def json(self):
        return json.loads(self.out)


def run_cli(*args, cwd=None, timeout=300) -> CliResult:
    """Run ``puzzlesat`` as a user would (a fresh process, its real exit code)."""
    proc = subprocess.run([sys.executable, "-m", "puzzlesat", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, env={**os.environ, "NO_COLOR": "1"})
    return CliResult(proc)


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def starved(monkeypatch, capsys):
    """Run puzzlesat in this process with every count's search given no time
    (-t stops the reading first when given that little): ``run(*args)`` ->
    (exit code, stdout)."""
    from puzzlesat import cli, jobs

    real = jobs.count
    monkeypatch.setattr(jobs, "count", lambda *a, **k: real(*a, **{**k, "time_limit": 1e-9}))

    def run(*args):
        code = cli.main([str(a) for a in args])
        return code, capsys.readouterr().out
    return run


def run_interrupted(*args, after: str, twice: bool = False) -> CliResult:
    """Run ``puzzlesat`` and press Ctrl-C one second after ``after`` (a
    string, or a compiled pattern to search for) first appears on its stderr
    (its progress line: the search, not the loading, is interrupted; a fixed
    sleep raced the loading on a busy machine).  With
    ``twice``, as `timeout -s INT` does: SIGINT to the process, then at once
    to its whole process group (its own session here)."""
    import os
    import signal
    import time

    p = subprocess.Popen([sys.executable, "-m", "puzzlesat", *map(str, args)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=twice,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = ""
    while (after.search(seen) is None) if isinstance(after, re.Pattern) else (after not in seen):
        c = p.stderr.read(1)
        assert c, (p.wait(), seen)
        seen += c
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    if twice:
        time.sleep(0.01)  # (signals sent at once merge into one)
        os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return CliResult(subprocess.CompletedProcess(p.args, p.returncode, out, seen + err))


@pytest.fixture
def interrupted():
    return run_interrupted


def mutilated_board(n: int):
    """The compiled problem of dominoes on the n x n board without two
    opposite corners: no solution (each domino covers one cell of each
    colour), and for n = 16 a search of many seconds for Algorithm X, CDCL
    and Ganak alike, with nothing to hand back meanwhile."""
    from puzzlesat.models.tiling.boxfile import load

    text = f"BOX / {n} * {n}\nRESERVE / (*) (1, 1), ({n}, {n})\n" + "ELEMENT / (D) (1, 1), (1, 2)\n" * ((n * n - 2) // 2)
    return load(text, "mutilated.box").compile()


@pytest.fixture
def mutilated():
    """:func:`mutilated_board`, for a test module (they cannot import this one)."""
    return mutilated_board
