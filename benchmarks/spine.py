#!/usr/bin/env python3
"""Speed of the spine's jobs per back end and CNF encoding.

    python benchmarks/spine.py [--time-limit S] [--quick] [--jobs solve-3x4x5,unique-3x20,unique-6x10]

Times `solve` on pentomino-3x4x5, and `count --unique` on pentomino-3x20 and
pentomino-6x10, for each back end x encoding, each run capped at the time
limit.  A run cut at the limit shows ``>`` before its seconds and its ratio
(it would have needed longer); a count cut short also reports its rate,
solutions found per second, and the time it would need at that rate to find
all of them (their number taken from the baseline, else another run that
finished, else the instance's published count).  Figures are wall seconds on
a shared machine: read the ratio column, measured against the named baseline
in the same run (solve: cadical195/mixed; counts: the exact-cover engine).
When the baseline itself is cut, the heading says so, a finished run's ratio
is an upper bound (``<``) and a cut run's is unknown (``—``).
"""

from __future__ import annotations

import argparse
import math
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


JOBS = {"solve-3x4x5": "pentomino-3x4x5", "unique-3x20": "pentomino-3x20",
        "unique-6x10": "pentomino-6x10", "solve-6x10": "pentomino-6x10"}
DEFAULT_JOBS = "solve-3x4x5,unique-3x20,unique-6x10"


def run_one(job, backend, encoding, limit):
    puzzle = load_puzzle(JOBS[job])
    problem = puzzle.compile()
    be = get_backend(backend, encoding=encoding) if encoding else get_backend(backend)
    t0 = time.perf_counter()
    if job.startswith("solve"):
        out = jobs.solve(puzzle, be, time_limit=limit, problem=problem)
        return time.perf_counter() - t0, out.status.value, out.status.value == "solved"
    out = jobs.count(puzzle, be, unique=True, time_limit=limit, problem=problem)
    return time.perf_counter() - t0, out.count, out.complete


def sig(x: float, digits: int = 2) -> str:
    """``x`` to ``digits`` significant digits, in plain notation (0.0042, 0.31, 2.1, 67, 340)."""
    if x == 0:
        return "0"
    d = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{round(x, d):.{d}f}"


def total_count(job, rows, base_name):
    """The number of solutions a count job has, and where it is known from:
    the baseline's complete count, else another run's, else the instance's
    published count (None when none of them knows)."""
    done = [r for r in rows if r[4]]
    for r in sorted(done, key=lambda r: f"{r[0]}/{r[1]}" != base_name and r[0] != base_name):
        return r[3], f"{r[0]}/{r[1]}" if r[1] != "-" else r[0]
    known = load_puzzle(JOBS[job]).expected.get("unique")
    return (known, "the published count") if known is not None else (None, None)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--quick", action="store_true", help="fewer encodings")
    ap.add_argument("--jobs", default=DEFAULT_JOBS,
                    help=f"comma-separated, from: {', '.join(JOBS)} (default: {DEFAULT_JOBS})")
    args = ap.parse_args()
    wanted = args.jobs.split(",")
    unknown = [j for j in wanted if j not in JOBS]
    if unknown:
        print(f"spine.py: --jobs: unknown job{'s' * (len(unknown) > 1)} {', '.join(map(repr, unknown))}; "
              f"the jobs are: {', '.join(JOBS)}", file=sys.stderr)
        return 2
    if not args.time_limit > 0:
        print(f"spine.py: --time-limit: {args.time_limit} is not a positive number of seconds", file=sys.stderr)
        return 2
    print(f"# puzzlesat spine benchmark: {platform.node()} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cpus, python {platform.python_version()}, time limit {args.time_limit:g} s")
    for job in dict.fromkeys(wanted):
        rows = []
        for backend, enc in configs(args.quick):
            secs, result, complete = run_one(job, backend, enc, args.time_limit)
            rows.append((backend, enc or "-", secs, result, complete))
        base_name = "cadical195/mixed" if job.startswith("solve") else "exact"
        base_row = next(r for r in rows if f"{r[0]}/{r[1]}" == base_name or r[0] == base_name)
        base, base_cut = base_row[2], not base_row[4]
        counting = not job.startswith("solve")
        total, source = total_count(job, rows, base_name) if counting else (None, None)
        print(f"\n## {job} (baseline: {base_name}, {'> ' if base_cut else ''}{base:.3f} s"
              f"{', cut at the limit: the ratios are bounds at best' if base_cut else ''})\n")
        if counting and any(not r[4] for r in rows):
            print("A cut count's rate is the solutions it found per second; 'needs' is the time it would take "
                  "to find all " + (f"{total} (known from {source})" if total is not None else
                                    "of them (unknown here: no run finished and none is published)")
                  + " at that rate.\n")
        print("| backend | encoding | seconds | x baseline | result | complete |"
              + (" rate (/s) | needs (s) |" if counting else ""))
        print("|---|---|---:|---:|---:|---|" + ("---:|---:|" if counting else ""))
        for backend, enc, secs, result, complete in rows:
            cut = not complete
            shown = f"> {secs:.3f} (cut at limit)" if cut else f"{secs:.3f}"
            ratio = secs / base if base > 0 else math.inf
            # a cut run took at least this long; against a cut baseline a
            # finished run's ratio is an upper bound, two cut runs' none
            x = ("—" if cut and base_cut else f"> {sig(ratio)}" if cut else f"< {sig(ratio)}" if base_cut
                 else sig(ratio))
            extra = ""
            if counting:
                rate = result / secs if secs > 0 else math.inf
                needs = "—" if not cut else ("? (none found yet)" if result == 0 else
                                             "?" if total is None else f"~{sig(total / rate)}")
                extra = f" {sig(rate)} | {needs} |"
            print(f"| {backend} | {enc} | {shown} | {x} | {'>= ' if cut and counting else ''}{result} | "
                  f"{complete} |{extra}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
