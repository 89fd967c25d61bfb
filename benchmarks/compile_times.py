"""Milliseconds to load and compile each bundled tiling instance: the fixed
cost every command (solve, count, info, export) pays before any engine runs.

    python benchmarks/compile_times.py [--repeat N] [NAME ...]

For each instance: the least of N (default 5) wall times, in this process,
of loading the file and compiling it (placements and the board's
symmetries), the symmetries' share of it, the symmetry count and the
number of placement variables.  Tilings only: a nonogram's compile has no
separate symmetry step to time (its clue symmetries are part of it), so a
NAME of another family is refused.  Before any timing one instance is
loaded and compiled once, untimed, so that the lazy imports do not land in
the first instance's figure.  To compare two versions, run it with each
on PYTHONPATH in turn (from a directory outside the checkouts), and quote
the ratios of the two runs' figures.
"""

from __future__ import annotations

import argparse
import sys
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="tiling instances, bundled names or files (default: every bundled "
                                             "tiling); other families are refused")
    ap.add_argument("--repeat", type=int, default=5, help="timings per instance, the least is shown (default 5)")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        print(f"compile_times.py: --repeat: {args.repeat} is not a positive number", file=sys.stderr)
        return 2

    from puzzlesat.loading import LOADERS, bundled, load_puzzle, suffix

    names = args.names or [n for n, path in bundled().items() if "tiling" in LOADERS[suffix(path)]]
    for name in names:  # all checked before any is timed
        try:
            puzzle = load_puzzle(name)
        except Exception as e:  # a bad name or file
            print(f"compile_times.py: {e}", file=sys.stderr)
            return 2
        if puzzle.family != "tiling":
            print(f"compile_times.py: {name}: a {puzzle.family} puzzle; this measures tilings only "
                  "(their compile and its symmetry step)", file=sys.stderr)
            return 2
    if names:  # warm-up, untimed: the lazy imports of loading, compiling and the symmetries
        puzzle = load_puzzle(names[0])
        puzzle._symmetries(puzzle.compile())
    total = 0.0
    print(f"{'instance':30s} {'compile ms':>10s} {'symmetries ms':>13s} {'|G|':>4s} {'vars':>6s}")
    for name in names:
        best = best_sym = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            puzzle = load_puzzle(name)
            problem = puzzle.compile()
            best = min(best, time.perf_counter() - t0)
            t0 = time.perf_counter()
            group = puzzle._symmetries(problem)
            best_sym = min(best_sym, time.perf_counter() - t0)
        total += best
        print(f"{name:30s} {best * 1e3:10.1f} {best_sym * 1e3:13.1f} {len(group):4d} {len(problem.primary):6d}",
              flush=True)
    print(f"{'total':30s} {total * 1e3:10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
