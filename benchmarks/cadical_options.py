"""CaDiCaL 1.9.5's options on one puzzle's CNF: the time to a first solution.

Each option set runs in its own process (PySAT cannot interrupt CaDiCaL),
killed at ``--timeout`` wall seconds; prints one line per run with the CPU
seconds of the solve (building the CNF excluded).  The CNF is the one
``puzzlesat solve -b cadical195`` gives the solver (default line encoding):

    python benchmarks/cadical_options.py ../shared/data/nonograms/survey/faase.non \\
        '{}' '{"phase": 0}' '{"phase": 0, "stabilizeonly": 1}' '{"phase": 0, "stabilizeonly": 1, "seed": 1}'

Option names and values: https://github.com/arminbiere/cadical/blob/master/src/options.hpp
(PySAT's ``configure`` accepts a misspelt name without a word: check them).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time


def child(puzzle_path: str, options: dict) -> None:
    from pysat.solvers import Cadical195

    from puzzlesat.encoders.cnf import encode_cnf
    from puzzlesat.loading import load_puzzle

    cnf = encode_cnf(load_puzzle(puzzle_path).compile())
    s = Cadical195(bootstrap_with=cnf.clauses)
    if options:
        s.configure(options)
    t = time.process_time()
    sat = s.solve()
    print(json.dumps({"result": "SAT" if sat else "UNSAT", "cpu": round(time.process_time() - t, 2)}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzle")
    ap.add_argument("options", nargs="+", help="JSON objects of CaDiCaL options, one run each ('{}': defaults)")
    ap.add_argument("--timeout", type=float, default=100.0, help="wall seconds per run (default %(default)s)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.puzzle, json.loads(args.options[0]))
        return
    print("| options | result | CPU s |")
    print("|---|---|---|")
    for opt in args.options:
        json.loads(opt)  # a malformed one fails here, not in the child
        try:
            p = subprocess.run([sys.executable, __file__, "--child", args.puzzle, opt], capture_output=True,
                               text=True, timeout=args.timeout)
            r = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else None
            cell = f"{r['result']} | {r['cpu']:.1f}" if r else f"error | {p.stderr.strip()[-200:]}"
        except subprocess.TimeoutExpired:
            cell = f"no result | > {args.timeout:g} wall"
        print(f"| `{opt}` | {cell} |", flush=True)


if __name__ == "__main__":
    main()
