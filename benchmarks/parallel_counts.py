"""Parallel counts: `count -j 1` against `count -j 2`, same run.

    python benchmarks/parallel_counts.py [--time-limit 20] [-b ENGINE] [INSTANCE ...]

With no instance: a generated 20x20 puzzle whose every row and column clue
is ``1,1`` (far too many solutions to finish: the figure is the solutions
counted within the limit) and the survey's small puzzles and n-Dom 10-13
(unique: the serial slice should leave them unsplit, at -j 1's speed).  An
instance is a file or a bundled instance's name (pentomino-3x20), of any
family; ``-b`` names the engine (default: the one `count` picks), e.g.

    python benchmarks/parallel_counts.py -b ganak -t 300 pentomino-3x20 dO-10x12.toml

Each count is `puzzlesat count INSTANCE [-b ENGINE] --json -t T` in a fresh
process (with --no-goal for a nonogram file); wall seconds and CPU seconds
(the process and its children).  The shared data is found beside the
repository (../shared) or at $PUZZLESAT_SHARED, as for
benchmarks/nonograms.py; a count that fails shows its error in its cell and
makes the exit code 4.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: the shared data, beside the repository or at $PUZZLESAT_SHARED (as benchmarks/nonograms.py)
SHARED = Path(os.environ.get("PUZZLESAT_SHARED", REPO.parent / "shared"))
DATA = SHARED / "data" / "nonograms"


def ones(n: int, folder: Path) -> Path:
    f = folder / f"ones-{n}.non"
    f.write_text(f"width {n}\nheight {n}\nrows\n" + "1,1\n" * n + "columns\n" + "1,1\n" * n)
    return f


#: the suffixes of nonogram files, whose goal the count leaves out
NONOGRAM_SUFFIXES = (".non", ".nin", ".xml")


def run(f: Path, jobs: int, limit: float, backend: str | None = None) -> dict:
    k0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    extra = (["--no-goal"] if f.suffix in NONOGRAM_SUFFIXES else []) + (["-b", backend] if backend else [])
    p = subprocess.run([sys.executable, "-m", "puzzlesat", "count", str(f), "-j", str(jobs), *extra, "--json",
                        "-t", str(limit)], capture_output=True, text=True)
    wall, k1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        d = json.loads(p.stdout)
    except ValueError:
        d = {}
    if "count" not in d:  # a failed count: its JSON error, else its last line on stderr
        why = d.get("error") or (p.stderr.strip().splitlines() or [""])[-1] or f"exit code {p.returncode}"
        return {"error": str(why)}
    return {"count": d["count"], "complete": d["complete"], "parts": d["subproblems"], "wall": wall,
            "cpu": (k1.ru_utime - k0.ru_utime) + (k1.ru_stime - k0.ru_stime)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path, metavar="INSTANCE")
    ap.add_argument("-t", "--time-limit", type=float, default=20.0)
    ap.add_argument("-b", "--backend", help="the engine (default: the one count picks)")
    args = ap.parse_args(argv)
    if not args.time_limit > 0:
        return _bad_input(f"--time-limit: {args.time_limit} is not a positive number of seconds")
    from puzzlesat.errors import InputError
    from puzzlesat.loading import load_puzzle

    for f in args.files:
        if not f.is_file():
            try:
                load_puzzle(str(f))  # a bundled instance's name
            except InputError:
                return _bad_input(f"no such file or bundled instance: {f}")
    if not args.files:
        data = [*sorted((DATA / "survey").glob("webpbn-*.non")),
                *(DATA / "n-dom" / f"{n}-dom.non" for n in (10, 11, 12, 13))]
        if not DATA.is_dir() or not all(f.is_file() for f in data) or len(data) == 4:
            return _bad_input(f"no nonogram data (survey/webpbn-*.non, n-dom/10..13-dom.non) at {DATA} "
                              "(set PUZZLESAT_SHARED, or give the files)")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        files = args.files or [ones(20, Path(tmp)), *data]
        print("| puzzle | -j 1 | -j 2 | -j 2 / -j 1 |")
        print("|---|---|---|---|")
        for f in files:
            a, b = run(f, 1, args.time_limit, args.backend), run(f, 2, args.time_limit, args.backend)

            def cell(r):
                if "error" in r:
                    return f"error: {r['error']}"
                n = f"{r['count']:,}" + ("" if r["complete"] else "+")
                return f"{n} in {r['wall']:.2f} s wall, {r['cpu']:.2f} CPU-s, {r['parts']} parts"
            if "error" in a or "error" in b:
                failed += 1
                ratio = "—"
            elif a["complete"] and b["complete"]:
                ratio = f"{b['wall'] / a['wall']:.2f}x wall"
            else:
                ratio = f"{b['count'] / max(1, a['count']):.2f}x solutions"
            print(f"| {f.name} | {cell(a)} | {cell(b)} | {ratio} |", flush=True)
    return 4 if failed else 0


def _bad_input(msg: str) -> int:
    print(f"parallel_counts.py: {msg}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
