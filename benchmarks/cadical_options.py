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
    run_table(__file__, args.puzzle, args.options, args.timeout, "options",
              check=json.loads)  # a malformed one fails here, not in the child


def run_table(script: str, puzzle: str, runs: list[str], timeout: float, label: str, check=None) -> None:
    """Each run in its own process (``script --child PUZZLE RUN``, which prints
    one JSON line with ``result`` and ``cpu``), killed at ``timeout`` wall
    seconds; one markdown table row per run.  ``check(run)`` is called just
    before it is started.  Shared with benchmarks/other_solvers.py."""
    print(f"| {label} | result | CPU s |")
    print("|---|---|---|")
    for run in runs:
        if check is not None:
            check(run)
        try:
            p = subprocess.run([sys.executable, script, "--child", puzzle, run], capture_output=True,
                               text=True, timeout=timeout)
            r = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else None
            cell = f"{r['result']} | {r['cpu']:.1f}" if r else f"error | {p.stderr.strip()[-200:]}"
        except subprocess.TimeoutExpired:
            cell = f"no result | > {timeout:g} wall"
        print(f"| `{run}` | {cell} |", flush=True)

if __name__ == "__main__":
    main()
