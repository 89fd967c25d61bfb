"""How late each interruptible PySAT solver answers interrupt().

    python benchmarks/interrupt_latency.py [INSTANCE] [--seconds 4]

Counts INSTANCE (default pentomino-3x4x5) by blocking clauses for about
``--seconds`` per solver, each solve_limited interrupted by a timer after
0.25 s; reports how long after the timer each interrupted solve returned
(mean and max).  The solvers that answer late search in a killable child
under a time limit (pysat_backend.SLOW_INTERRUPT).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time

from pysat.solvers import Solver

from puzzlesat.backends.pysat_backend import NO_INTERRUPT, SLOW_INTERRUPT, SOLVERS, unavailable_reason
from puzzlesat.encoders.cnf import encode_cnf
from puzzlesat.loading import load_puzzle

SLICE = 0.25


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("instance", nargs="?", default="pentomino-3x4x5")
    ap.add_argument("--seconds", type=float, default=4.0)
    args = ap.parse_args(argv)
    problem = load_puzzle(args.instance).compile()
    enc = encode_cnf(problem, "mixed")
    primary = set(problem.primary)
    print("| solver | interrupts | mean late (s) | max late (s) | in SLOW_INTERRUPT |")
    print("|---|---|---|---|---|")
    for name in SOLVERS:
        if name in NO_INTERRUPT or unavailable_reason(name):
            continue
        late = []
        with Solver(name=name, bootstrap_with=enc.clauses) as s:
            end = time.perf_counter() + args.seconds
            while time.perf_counter() < end:
                timer = threading.Timer(SLICE, s.interrupt)
                t0 = time.perf_counter()
                timer.start()
                res = s.solve_limited(expect_interrupt=True)
                timer.cancel()
                if res is None:
                    late.append(time.perf_counter() - t0 - SLICE)
                s.clear_interrupt()
                if res is False:
                    break
                if res:
                    s.add_clause([-x for x in s.get_model() if x in primary])
        mean = sum(late) / len(late) if late else 0.0
        print(f"| {name} | {len(late)} | {mean:.3f} | {max(late, default=0.0):.3f} | "
              f"{'yes' if name in SLOW_INTERRUPT else 'no'} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
