#!/usr/bin/env python3
"""Raw and unique counts of the bundled hex, triangle and No.0 puzzles, per back end.

    python benchmarks/lattices.py                         # all, 600 s per count
    python benchmarks/lattices.py --timeout 60 -i no0 -b exact cadical195
    python benchmarks/lattices.py --out benchmarks/lattices-results.md

Each count is ``puzzlesat count INSTANCE [--unique] --backend B --json
--time-limit T [--jobs 1]`` in its own process: a count that runs out of time prints
the lower bound it reached ("≥ n").  Every solution a back end returns is
decoded and verified (except ganak's, which only counts), so enumerating
engines pay for that too.  Seconds are wall time of the count itself on a
shared machine: compare within a run.

The raw hexagon count (147,480) is the point of this table: blocking
clauses enumerate it one solution at a time, the exact-cover engine
streams it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import signal
import subprocess
import sys
import time

INSTANCES = ["hexagon-tetrahexes-trihexes", "hexiamonds-6x6", "no0"]
#: one engine process per count, where the CLI can split counts over workers
JOBS = ["--jobs", "1"] if "--jobs" in subprocess.run(
    [sys.executable, "-m", "puzzlesat", "count", "--help"], capture_output=True, text=True).stdout else []
BACKENDS = ["exact", "ganak", "cadical195", "glucose4", "minisat22", "cpsat"]


def run(instance: str, backend: str, unique: bool, timeout: float) -> dict:
    cmd = [sys.executable, "-m", "puzzlesat", "count", instance, "--backend", backend, "--json",
           "--time-limit", str(timeout)] + (["--unique"] if unique else []) + JOBS
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout + 60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"count": None, "complete": False, "seconds": time.perf_counter() - t0, "note": "killed"}
    try:  # the last JSON line: an engine may print its own lines on stdout
        data = json.loads(next(l for l in reversed(out.splitlines()) if l.startswith("{")))
    except (StopIteration, json.JSONDecodeError):
        return {"count": None, "complete": False, "seconds": time.perf_counter() - t0,
                "note": (err.strip().splitlines() or ["no output"])[-1][:80]}
    return {"count": data["count"], "complete": data["complete"], "seconds": data["seconds"],
            "expected": data.get("expected"), "note": data.get("stopped_by") or ""}


def secs(x: float) -> str:
    """Seconds to 3 significant digits in plain notation (0.0421, 0.5, 3.87, 147): a fast count is not 0.0."""
    if x <= 0:
        return "0"
    d = max(0, 2 - math.floor(math.log10(x)))
    return f"{round(x, d):.{d}f}"


def cell(r: dict) -> str:
    if r["count"] is None:
        return f"- ({r['note']})"
    n = f"{r['count']:,}" if r["complete"] else f"≥ {r['count']:,}"
    mark = "" if not r["complete"] or r.get("expected") in (None, r["count"]) else " (expected differs!)"
    return f"{n} in {secs(r['seconds'])} s{mark}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-i", "--instances", nargs="+", default=INSTANCES)
    ap.add_argument("-b", "--backends", nargs="+", default=BACKENDS)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per count (default 600)")
    ap.add_argument("--out", help="also write the markdown table here")
    args = ap.parse_args()
    if not args.timeout > 0:
        print(f"lattices.py: --timeout: {args.timeout} is not a positive number of seconds", file=sys.stderr)
        return 2
    # the command as given, every option in it: what reproduces this table
    lines = [f"timeout {args.timeout:g} s per count; "
             f"`{shlex.join(['python', 'benchmarks/lattices.py', *sys.argv[1:]])}`", "",
             "| instance | back end | raw count | unique count |", "|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    for inst in args.instances:
        for be in args.backends:
            raw = run(inst, be, False, args.timeout)
            uniq = run(inst, be, True, args.timeout)
            row = f"| {inst} | {be} | {cell(raw)} | {cell(uniq)} |"
            print(row, flush=True)
            lines.append(row)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
