"""Regenerate the comparison shown in docs/dimacs.md (table, CSV, plot).

    python benchmarks/compare_docs.py [--time-limit 120]

Runs ``puzzlesat compare pentomino-3x20 --count`` on the exact-cover engine,
PySAT CaDiCaL, CP-SAT, three Debian solver binaries through ``external:``
and Ganak, and writes benchmarks/compare-3x20.{txt,csv} and
docs/compare-3x20.png.  Each run is a child process killed past its limit;
expect several minutes (the external solvers restart from scratch for every
blocking clause, and Ganak is slow on exact covers).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path

from puzzlesat.cli import main

HERE = Path(__file__).resolve().parent
BACKENDS = "exact,cadical195,cpsat,external:minisat,external:picosat,external:cadical,ganak"


def run(time_limit: float) -> int:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(["compare", "pentomino-3x20", "--count", "-b", BACKENDS, "-t", str(time_limit),
                   "--csv", str(HERE / "compare-3x20.csv"), "--plot", str(HERE.parent / "docs" / "compare-3x20.png")])
    (HERE / "compare-3x20.txt").write_text(buf.getvalue())
    sys.stdout.write(buf.getvalue())
    return rc


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=120.0)
    sys.exit(run(ap.parse_args().time_limit))
