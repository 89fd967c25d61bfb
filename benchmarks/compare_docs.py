"""Regenerate the comparison shown in docs/dimacs.md (table, CSV, plot).

    python benchmarks/compare_docs.py [--time-limit 120]

Runs ``puzzlesat compare pentomino-3x20 --count`` on the exact-cover engine,
PySAT CaDiCaL, CP-SAT, three Debian solver binaries through ``external:``
(``minisat``, ``picosat`` and ``cadical``, from the Debian packages of the
same names: ``apt-get install minisat picosat cadical``) and Ganak, and
writes benchmarks/compare-3x20.{txt,csv} and docs/compare-3x20.png.  Each run
is a child process killed past its limit; expect several minutes (the
external solvers restart from scratch for every blocking clause, and Ganak
is slow on exact covers).

The three files are replaced only when ``compare`` answered: exit 0, or 3
when some runs hit the time limit (the table says which).  On any other exit
(bad input, a missing solver, a disagreement or a solver that failed) the old
files are kept, the reason is said on stderr and this script exits with
compare's code.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import sys
import tempfile
from pathlib import Path

from puzzlesat.cli import main

HERE = Path(__file__).resolve().parent
EXTERNAL = ("minisat", "picosat", "cadical")  # each the name of its Debian package too
BACKENDS = ",".join(["exact", "cadical195", "cpsat", *(f"external:{s}" for s in EXTERNAL), "ganak"])
ANSWERED = (0, 3)  # 3: some runs hit the time limit, the table is still an answer


def missing_prerequisites() -> list[str]:
    """What the comparison needs and this machine lacks, each said with how to get it."""
    missing = []
    absent = [s for s in EXTERNAL if not shutil.which(s)]
    if absent:
        missing.append(f"solver binar{'y' if len(absent) == 1 else 'ies'} {', '.join(absent)} not on PATH "
                       f"(Debian: apt-get install {' '.join(absent)})")
    try:
        import pyganak  # noqa: F401
    except ImportError:
        missing.append("Ganak's Python module pyganak is not importable (pip install pyganak)")
    return missing


def run(time_limit: float) -> int:
    missing = missing_prerequisites()
    if missing:
        print(f"compare_docs: cannot run the comparison: {'; '.join(missing)}; "
              "the committed compare-3x20 files are kept", file=sys.stderr)
        return 2
    outputs = {"compare-3x20.txt": HERE / "compare-3x20.txt", "compare-3x20.csv": HERE / "compare-3x20.csv",
               "compare-3x20.png": HERE.parent / "docs" / "compare-3x20.png"}
    # written beside the real files (one file system, so os.replace is a
    # rename) and moved over them only if compare answered
    with tempfile.TemporaryDirectory(dir=HERE, prefix=".compare-docs-") as tmp:
        new = {name: Path(tmp) / name for name in outputs}
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            try:
                rc = main(["compare", "pentomino-3x20", "--count", "-b", BACKENDS, "-t", str(time_limit),
                           "--csv", str(new["compare-3x20.csv"]), "--plot", str(new["compare-3x20.png"])])
            except SystemExit as e:  # argparse inside compare
                rc = e.code if isinstance(e.code, int) else 2
        sys.stdout.write(buf.getvalue())
        if rc not in ANSWERED:
            print(f"compare_docs: puzzlesat compare failed (exit {rc}); "
                  f"{', '.join(str(p.relative_to(HERE.parent)) for p in outputs.values())} left as they were",
                  file=sys.stderr)
            return rc
        new["compare-3x20.txt"].write_text(buf.getvalue())
        for name, dest in outputs.items():
            os.replace(new[name], dest)
    # (compare named the plot at its temporary path)
    print(f"compare_docs: wrote {', '.join(str(p.relative_to(HERE.parent)) for p in outputs.values())}",
          file=sys.stderr)
    return rc


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=120.0)
    t = ap.parse_args().time_limit
    if not t > 0:
        ap.error(f"--time-limit: {t} is not a positive number of seconds")
    sys.exit(run(t))
