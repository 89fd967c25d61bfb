"""Boxes of several kinds of piece, each repeated: the exact-cover engine with
and without the count the board's area implies.

A tiling's model leaves out the count of one piece (Problem.redundant: the
largest, which the area and the other counts fix).  Next to other counts
(Algorithm M's multiplicity items) that left the piece unbounded, and
miniexact found no solution in 30 s for four of each tetromino in a 4x20 box
(QA, session 16). The exact-cover translation now states it there. This
times, for each box, the first solution (`solve -b exact`) and where it is
small enough the count, with the count stated ("stated", the default) and
without it ("left out", the old translation: the baseline), each in a fresh
child process killed at the limit, CPU seconds:

    python benchmarks/repeated_kinds.py [--time-limit 30]

The two translations must give the same answer (the same count, or both a
first solution): where both answered and they differ the answer column says
DISAGREE, the difference is printed under the table and the exit code is 1.
A child that fails shows its error in its cell (exit code 1 too).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile

#: name -> (.toml text, job): "solve" for boxes with too many solutions to count
BOXES = {
    "tetrominoes-x4-4x20": ('[board]\nsize = [4, 20]\n[[pieces]]\nset = "tetrominoes"\ncount = 4\n', "solve"),
    "tetrominoes-x4-8x10": ('[board]\nsize = [8, 10]\n[[pieces]]\nset = "tetrominoes"\ncount = 4\n', "solve"),
    "pentominoes-x2-10x12": ('[board]\nsize = [10, 12]\n[[pieces]]\nset = "pentominoes"\ncount = 2\n', "solve"),
    "pentominoes-x2-6x20": ('[board]\nsize = [6, 20]\n[[pieces]]\nset = "pentominoes"\ncount = 2\n', "solve"),
    "tetromino-pairs-5x8": (None, "count"),  # bundled: 3,106 solutions
    "tetrominoes-x2-4x10": ('[board]\nsize = [4, 10]\n[[pieces]]\nset = "tetrominoes"\ncount = 2\n', "count"),
}


def run_one(path: str, job: str, stated: bool) -> dict:
    from puzzlesat.backends import get_backend
    from puzzlesat.loading import load_puzzle

    puzzle = load_puzzle(path)
    problem = puzzle.compile()
    if not stated:
        problem.redundant = []
    be = get_backend("exact", isolate=False)
    before = resource.getrusage(resource.RUSAGE_SELF)
    r = be.search(problem, limit=1 if job == "solve" else None, keep=job == "solve")
    after = resource.getrusage(resource.RUSAGE_SELF)
    for sol in r.solutions:  # decoded and verified, as every answer is
        puzzle.verify(puzzle.decode(problem, sol))
    return {"count": r.count, "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "algorithm": r.stats.get("algorithm")}


def measure(path: str, job: str, stated: bool, limit: float) -> dict:
    cmd = [sys.executable, __file__, "--one", path, job, "stated" if stated else "left-out"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return {"timeout": limit}
    try:
        if p.returncode == 0:
            return json.loads(p.stdout.splitlines()[-1])
    except (ValueError, IndexError):
        pass
    # a failed child: the last line of its stderr (the exception), not its traceback
    return {"error": (p.stderr.strip().splitlines() or [f"exit code {p.returncode}"])[-1]}


def cell(r: dict, base: dict | None = None) -> str:
    if "error" in r:
        return f"error: {r['error']}"
    if "timeout" in r:
        return f">{r['timeout']:g} (no answer)"
    s = f"{r['cpu']:.3f}"
    if base is not None and "cpu" in base and base["cpu"] > 0:
        s += f" ({r['cpu'] / base['cpu']:.2g}x)"
    elif base is not None and "timeout" in base:
        s += f" (<{r['cpu'] / base['timeout']:.2g}x)"
    return s


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--one", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        path, job, how = args.one
        print(json.dumps(run_one(path, job, how == "stated")))
        return 0
    print(f"CPU seconds, exact-cover engine (miniexact), each run in a fresh process, limit {args.time_limit:g} s")
    print()
    print("| box | job | answer | count left out (baseline) | count stated |")
    print("|---|---|---|---|---|")
    disagree, failed = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (text, job) in BOXES.items():
            path = name
            if text is not None:
                path = os.path.join(tmp, name + ".toml")
                with open(path, "w") as f:
                    f.write(text)
            old = measure(path, job, False, args.time_limit)
            new = measure(path, job, True, args.time_limit)
            failed += "error" in old or "error" in new
            if "count" in old and "count" in new and old["count"] != new["count"]:
                disagree.append(f"{name}: {job}: count left out {old['count']:,}, count stated {new['count']:,}")
                answer = "DISAGREE"
            else:
                answer = new.get("count", old.get("count", "?"))
                if job == "solve" and answer in (0, 1):
                    answer = "solved" if answer else "no solution"
                elif isinstance(answer, int):
                    answer = f"{answer:,}"
            print(f"| {name} | {'first solution' if job == 'solve' else 'count'} | {answer} | {cell(old)} | "
                  f"{cell(new, old)} |", flush=True)
    for d in disagree:
        print(f"DISAGREE: {d}")
    if failed:
        print(f"{failed} box{'es' * (failed != 1)} with a run that failed (see the table)")
    return 1 if disagree or failed else 0


if __name__ == "__main__":
    sys.exit(main())
