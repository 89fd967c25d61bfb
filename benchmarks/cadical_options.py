"""CaDiCaL 1.9.5's options on one puzzle's CNF: the time to a first solution.

Each option set runs in its own process (PySAT cannot interrupt CaDiCaL),
killed at ``--timeout`` wall seconds; prints one line per run with the CPU
seconds of the solve (building the CNF excluded).  The CNF is the puzzle's
model in the default line encoding, by default as stated: the one
``puzzlesat solve -b cadical195 --no-preprocess`` gives the solver.  With
``--preprocess`` (nonograms) it is the one ``puzzlesat solve -b cadical195``
gives by default: the cells line logic fixes as unit clauses and each
block's starts narrowed to agree with them.  The table's first line says
which was measured:

    python benchmarks/cadical_options.py ../shared/data/nonograms/survey/faase.non \\
        '{}' '{"phase": 0}' '{"phase": 0, "stabilizeonly": 1}' '{"phase": 0, "stabilizeonly": 1, "seed": 1}'

Option names and values: https://github.com/arminbiere/cadical/blob/master/src/options.hpp
(PySAT's ``configure`` accepts a misspelt name without a word: check them).

Keys starting with ``+`` are not CaDiCaL's but change what it is given (nonograms):

- ``"+bands": "columns" | "rows" | "both"``: for every k, the number of black
  cells in columns (rows) 0..k-1, which the clues give, as a cardinality
  equality in CNF (``"+card": "totalizer"`` (default) or ``"seqcounter"``);
- ``"+phases": "marginals"``: each cell's initial phase black when, averaged
  over its row and its column, more than half of the line's placements make
  it black (PySAT's ``set_phases``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path


def child(puzzle_path: str, options: dict, preprocess: bool = False) -> None:
    from pysat.solvers import Cadical195

    from puzzlesat.encoders.cnf import encode_cnf
    from puzzlesat.loading import load_puzzle

    extras = {k: options.pop(k) for k in list(options) if k.startswith("+")}
    puzzle = load_puzzle(puzzle_path)
    problem = puzzle.compile(preprocess=True) if preprocess else puzzle.compile()
    clauses = list(encode_cnf(problem).clauses)
    if extras:
        clauses, phases = nonogram_extras(puzzle, problem, clauses, extras)
    s = Cadical195(bootstrap_with=clauses)
    if options:
        s.configure(options)
    if extras.get("+phases"):
        s.set_phases(phases)
    t = time.process_time()
    sat = s.solve()
    print(json.dumps({"result": "SAT" if sat else "UNSAT", "cpu": round(time.process_time() - t, 2)}))


def nonogram_extras(puzzle, problem, clauses, extras):
    """The CNF with the ``+`` keys' additions, and the initial phases."""
    from pysat.card import CardEnc, EncType

    unknown = set(extras) - {"+bands", "+card", "+phases"}
    if unknown:
        raise SystemExit(f"unknown key(s) {sorted(unknown)}")
    cell = {}
    for v in problem.primary:
        m = problem.meaning(v)
        cell[m.row, m.col] = v
    W, H = puzzle.width, puzzle.height
    top = max((abs(x) for c in clauses for x in c), default=0)
    enc = {"totalizer": EncType.totalizer, "seqcounter": EncType.seqcounter}[extras.get("+card", "totalizer")]
    bands = extras.get("+bands")
    sides = {"columns": ("columns",), "rows": ("rows",), "both": ("columns", "rows"), None: ()}[bands]
    for side in sides:
        n = W if side == "columns" else H
        for k in range(1, n):
            if side == "columns":
                lits = [cell[r, c] for c in range(k) for r in range(H)]
                total = sum(sum(puzzle.cols[c]) for c in range(k))
            else:
                lits = [cell[r, c] for r in range(k) for c in range(W)]
                total = sum(sum(puzzle.rows[r]) for r in range(k))
            e = CardEnc.equals(lits=lits, bound=total, top_id=top, encoding=enc)
            clauses += e.clauses
            top = max(top, e.nv)
    phases = []
    if extras.get("+phases") == "marginals":
        rows = [black_share(puzzle.rows[r], W) for r in range(H)]
        cols = [black_share(puzzle.cols[c], H) for c in range(W)]
        phases = [cell[r, c] if rows[r][c] + cols[c][r] > 1 else -cell[r, c] for r in range(H) for c in range(W)]
    elif extras.get("+phases"):
        raise SystemExit(f"unknown +phases {extras['+phases']!r}")
    return clauses, phases


def black_share(clue, n: int) -> list[float]:
    """For each cell of a line of ``n`` cells, the share of the clue's
    placements that make it black."""
    k = len(clue)
    if k == 0:
        return [0.0] * n
    # after[j][p]: ways to place blocks j.. with block j starting at p or later
    after = [[0] * (n + 2) for _ in range(k + 1)]
    after[k] = [1] * (n + 2)
    for j in range(k - 1, -1, -1):
        for p in range(n - clue[j], -1, -1):
            after[j][p] = after[j][p + 1] + after[j + 1][min(p + clue[j] + 1, n + 1)]
    # before[j][s]: ways to place blocks ..j-1 so that block j may start at s
    before = [[1] * (n + 2)] + [[0] * (n + 2) for _ in range(k)]
    for j in range(1, k + 1):
        run, b = 0, clue[j - 1]
        for s in range(n + 2):
            t = s - b - 1  # the latest start of block j-1 that leaves a gap before s
            if t >= 0:
                run += before[j - 1][t]
            before[j][s] = run
    total = after[0][0]
    black = [0] * n
    for j in range(k):
        for s in range(n - clue[j] + 1):
            w = before[j][s] * after[j + 1][min(s + clue[j] + 1, n + 1)]
            for i in range(s, s + clue[j]):
                black[i] += w
    return [b / total for b in black]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzle")
    ap.add_argument("options", nargs="+", help="JSON objects of CaDiCaL options, one run each ('{}': defaults)")
    ap.add_argument("--timeout", type=float, default=100.0, help="wall seconds per run (default %(default)s)")
    add_preprocess_option(ap)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.puzzle, json.loads(args.options[0]), args.preprocess)
        return
    for o in args.options:  # a malformed one fails here, before any run
        try:
            if not isinstance(json.loads(o), dict):
                raise ValueError("not a JSON object")
        except ValueError as e:
            print(f"cadical_options.py: options {o!r}: {e}", file=sys.stderr)
            sys.exit(2)
    run_table(__file__, args.puzzle, args.options, args.timeout, "options", preprocess=args.preprocess)


def add_preprocess_option(ap) -> None:
    """``--preprocess``, shared with benchmarks/other_solvers.py."""
    ap.add_argument("--preprocess", action="store_true",
                    help="measure the preprocessed CNF (nonograms: the model puzzlesat solve gives by default); "
                         "default: the model as stated (puzzlesat solve --no-preprocess)")


def describe_model(puzzle_path: str, preprocess: bool) -> str:
    """The line saying which CNF is measured; exits (2) with a one-line
    message when the puzzle cannot be loaded or has no preprocessing step."""
    from puzzlesat.loading import load_puzzle

    try:
        puzzle = load_puzzle(puzzle_path)
    except Exception as e:  # InputError and its kin: a bad path or file
        print(f"{Path(sys.argv[0]).name}: {e}", file=sys.stderr)
        sys.exit(2)
    if preprocess and not hasattr(puzzle, "preprocess"):
        print(f"{Path(sys.argv[0]).name}: --preprocess: {puzzle.family} puzzles have no preprocessing step",
              file=sys.stderr)
        sys.exit(2)
    return (f"CNF of {puzzle_path}: " + ("preprocessed (as puzzlesat solve gives it by default)" if preprocess else
                                        "the model as stated (puzzlesat solve --no-preprocess)"))


def run_table(script: str, puzzle: str, runs: list[str], timeout: float, label: str, check=None,
              preprocess: bool = False) -> None:
    """Each run in its own process (``script --child PUZZLE RUN``, which prints
    one JSON line with ``result`` and ``cpu``), killed at ``timeout`` wall
    seconds; one markdown table row per run, after a line saying which CNF
    (``preprocess``: the preprocessed model).  ``check(run)`` is called just
    before it is started.  Shared with benchmarks/other_solvers.py."""
    print(describe_model(puzzle, preprocess) + "\n")
    print(f"| {label} | result | CPU s |")
    print("|---|---|---|")
    for run in runs:
        if check is not None:
            check(run)
        try:
            p = subprocess.run([sys.executable, script, "--child", puzzle, run,
                                *(["--preprocess"] if preprocess else [])], capture_output=True,
                               text=True, timeout=timeout)
            r = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else None
            # a failed child: the last line of its stderr (the exception), not the whole traceback
            why = (p.stderr.strip().splitlines() or [f"exit code {p.returncode}"])[-1][-200:].replace("|", "\\|")
            cell = f"{r['result']} | {r['cpu']:.1f}" if r else f"error | {why}"
        except subprocess.TimeoutExpired:
            cell = f"no result | > {timeout:g} wall"
        print(f"| `{run}` | {cell} |", flush=True)

if __name__ == "__main__":
    main()
