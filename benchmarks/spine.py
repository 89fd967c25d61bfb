#!/usr/bin/env python3
"""Speed of the spine's jobs per back end and CNF encoding.

    python benchmarks/spine.py [--time-limit S] [--quick] [--jobs solve-3x4x5,unique-3x20,unique-6x10]

Times `solve` on pentomino-3x4x5, and `count --unique` on pentomino-3x20 and
pentomino-6x10, for each back end x encoding, each run capped at the time
limit (a count cut short reports its rate, solutions per second, and the
time it would need at that rate).  Figures are wall seconds on a shared
machine: read the ratio column, measured against the named baseline in the
same run (solve: cadical195/mixed; counts: the exact-cover engine).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.loading import load_puzzle

SAT = ["cadical195", "glucose4", "glucose3", "minisat22"]
ENCODINGS = ["mixed", "pairwise", "seqcounter", "ladder", "bitwise", "totalizer"]


def configs(quick: bool):
    out = [("cadical195", "mixed")]
    for s in SAT:
        for e in (["mixed", "pairwise", "seqcounter"] if quick else ENCODINGS):
            if (s, e) not in out:
                out.append((s, e))
    return out + [("cpsat", None), ("exact", None)]


def run_one(job, backend, encoding, limit):
    inst = {"solve-3x4x5": "pentomino-3x4x5", "unique-3x20": "pentomino-3x20",
            "unique-6x10": "pentomino-6x10", "solve-6x10": "pentomino-6x10"}[job]
    puzzle = load_puzzle(inst)
    problem = puzzle.compile()
    be = get_backend(backend, encoding=encoding) if encoding else get_backend(backend)
    t0 = time.perf_counter()
    if job.startswith("solve"):
        out = jobs.solve(puzzle, be, time_limit=limit, problem=problem)
        return time.perf_counter() - t0, out.status.value, out.status.value == "solved"
    out = jobs.count(puzzle, be, unique=True, time_limit=limit, problem=problem)
    return time.perf_counter() - t0, out.count, out.complete


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--quick", action="store_true", help="fewer encodings")
    ap.add_argument("--jobs", default="solve-3x4x5,unique-3x20,unique-6x10")
    args = ap.parse_args()
    print(f"# puzzlesat spine benchmark: {platform.node()} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cpus, python {platform.python_version()}, time limit {args.time_limit:g} s")
    for job in args.jobs.split(","):
        rows = []
        base = None
        for backend, enc in configs(args.quick):
            if job.startswith("solve") and backend == "exact":
                pass
            secs, result, complete = run_one(job, backend, enc, args.time_limit)
            rows.append((backend, enc or "-", secs, result, complete))
        base_name = "cadical195/mixed" if job.startswith("solve") else "exact"
        base = next(r[2] for r in rows if f"{r[0]}/{r[1]}" == base_name or r[0] == base_name)
        print(f"\n## {job} (baseline: {base_name}, {base:.3f} s)\n")
        print("| backend | encoding | seconds | x baseline | result | complete |")
        print("|---|---|---:|---:|---:|---|")
        for backend, enc, secs, result, complete in rows:
            note = "" if complete else " (cut at limit)"
            print(f"| {backend} | {enc} | {secs:.3f}{note} | {secs / base:.1f} | {result} | {complete} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
