"""Shared test helpers: where the shared data lives, a CLI runner."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PUZZLESAT_SHARED", REPO.parent / "shared"))


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
