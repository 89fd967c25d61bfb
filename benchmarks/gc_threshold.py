"""The program's garbage-collector thresholds (program.GC_THRESHOLD) against
Python's default (700, 10, 10), on whole CLI runs, measured in the same run.

    python benchmarks/gc_threshold.py [--rounds 3]

Each command runs as a fresh ``python -c`` process that sets
``program.GC_THRESHOLD`` and calls the program's entry: "tuned" keeps the
program's value, "default" puts Python's back.  Rounds alternate the two;
the figures are user+system CPU seconds of the process and its children
(resource.RUSAGE_CHILDREN), averaged over the rounds, and the ratio is
tuned / default.  The 500x500 disc nonogram is written to a
temporary file (benchmarks/symmetric_first.py draws it); webpbn #1611 is read
from the shared data (../shared, or $PUZZLESAT_SHARED).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DEFAULT = (700, 10, 10)
#: the shared data, beside the repository or at $PUZZLESAT_SHARED (as benchmarks/nonograms.py)
SHARED = Path(os.environ.get("PUZZLESAT_SHARED", REPO.parent / "shared"))


def _disc_file(n: int, folder: str) -> str:
    from benchmarks.symmetric_first import disc

    p = disc(n)
    path = os.path.join(folder, f"disc-{n}.nin")
    with open(path, "w") as f:
        f.write(f"{p.width} {p.height}\n")
        for clue in list(p.rows) + list(p.cols):
            f.write((" ".join(map(str, clue)) or "0") + "\n")
    return path


def run(argv: list[str], threshold) -> tuple[float, int]:
    code = ("import sys; from puzzlesat import program; "
            f"program.GC_THRESHOLD = {tuple(threshold)!r}; sys.argv = ['puzzlesat'] + {argv!r}; program.entry()")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from puzzlesat.program import GC_THRESHOLD

    with tempfile.TemporaryDirectory() as tmp:
        commands = [
            ["solve", _disc_file(500, tmp)],
            ["info", "pentomino-3x4x5"],
            ["count", "pentomino-6x10", "--unique"],
            ["count", "pentomino-3x20"],
            ["solve", str(SHARED / "data/nonograms/survey/webpbn-01611.non")],
        ]
        print(f"tuned {GC_THRESHOLD} against default {DEFAULT}, {args.rounds} rounds alternating\n")
        print("| command | tuned CPU s | default CPU s | tuned / default |")
        print("|---|---|---|---|")
        for argv in commands:
            sums = {"tuned": 0.0, "default": 0.0}
            for _ in range(args.rounds):
                for name, th in (("tuned", GC_THRESHOLD), ("default", DEFAULT)):
                    cpu, rc = run(argv, th)
                    if rc not in (0, 1):
                        raise SystemExit(f"{' '.join(argv)}: exit {rc}")
                    sums[name] += cpu
            t, d = sums["tuned"] / args.rounds, sums["default"] / args.rounds
            print(f"| `{' '.join(a if '/' not in a else Path(a).name for a in argv)}` | {t:.2f} | {d:.2f} "
                  f"| {t / d:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
