"""Solvers outside puzzlesat's back ends on one nonogram's CNF: the time to a first solution.

    python benchmarks/other_solvers.py ../shared/data/nonograms/survey/faase.non \\
        exact exact+sums exact+sums+bands clasp:crafty clasp:auto --timeout 95

Engines (each run in its own process, killed at ``--timeout`` wall seconds;
prints the CPU seconds of the search, building excluded):

- ``exact``: the Exact pseudo-Boolean solver (cutting planes; PyPI
  ``exact``) on the CNF, every clause a linear constraint ``sum >= 1``;
  ``+sums`` adds each row's and column's cell count (= its clue's sum) as a
  linear equality, ``+bands`` every band's (rows 0..k, columns 0..k) — the
  counting arguments resolution sees poorly;
- ``clasp:CONFIG``: clasp through clingo's Python API (PyPI ``clingo``) on
  the same CNF (a choice rule per variable, an integrity constraint per
  clause), with ``--configuration=CONFIG`` (auto, crafty, jumpy, trendy, ...).

Neither package is a puzzlesat dependency: install them somewhere else and
put them on the path, e.g. ``pip install --target /tmp/other exact clingo``
and ``PYTHONPATH=/tmp/other``.  The CNF is the puzzle's model (cell
variables first, row by row), by default as stated: the one ``puzzlesat
solve -b cadical195 --no-preprocess`` gives the solver.  With
``--preprocess`` it is the one ``puzzlesat solve -b cadical195`` gives by
default (the cells line logic fixes as unit clauses, each block's starts
narrowed to agree).  The table's first line says which was measured.
"""

from __future__ import annotations

import argparse
import json
import time


def child(puzzle_path: str, engine: str, preprocess: bool = False) -> None:
    from puzzlesat.encoders.cnf import encode_cnf
    from puzzlesat.loading import load_puzzle

    puzzle = load_puzzle(puzzle_path)
    cnf = encode_cnf(puzzle.compile(preprocess=True) if preprocess else puzzle.compile())
    n_vars = max((abs(lit) for cl in cnf.clauses for lit in cl), default=0)
    width, height = puzzle.width, puzzle.height
    if engine.startswith("exact"):
        import exact

        s = exact.Exact([("verbosity", "0")])
        for v in range(1, n_vars + 1):
            s.addVariable(f"x{v}", 0, 1)
        for cl in cnf.clauses:
            # a negative literal -v is 1 - x_v: move its 1 to the bound
            s.addConstraint([(1 if lit > 0 else -1, f"x{abs(lit)}") for lit in cl], True,
                            1 - sum(1 for lit in cl if lit < 0))

        def exactly(cells, k):
            s.addConstraint([(1, f"x{r * width + c + 1}") for r, c in cells], True, k, True, k)

        if "+sums" in engine:
            for r in range(height):
                exactly([(r, c) for c in range(width)], sum(puzzle.rows[r]))
            for c in range(width):
                exactly([(r, c) for r in range(height)], sum(puzzle.cols[c]))
        if "+bands" in engine:
            for k in range(1, width):
                exactly([(r, c) for r in range(height) for c in range(k)], sum(sum(puzzle.cols[c]) for c in range(k)))
            for k in range(1, height):
                exactly([(r, c) for r in range(k) for c in range(width)], sum(sum(puzzle.rows[r]) for r in range(k)))
        t = time.process_time()
        result = s.runFull(False, 0)
    elif engine.startswith("clasp:"):
        import clingo

        ctl = clingo.Control([f"--configuration={engine.split(':', 1)[1]}"])
        with ctl.backend() as b:
            atoms = [0] + [b.add_atom() for _ in range(n_vars)]
            b.add_rule(atoms[1:], [], True)
            for cl in cnf.clauses:
                b.add_rule([], [-atoms[lit] if lit > 0 else atoms[-lit] for lit in cl])
        t = time.process_time()
        result = str(ctl.solve())
    else:
        raise SystemExit(f"unknown engine {engine!r}")
    print(json.dumps({"result": result, "cpu": round(time.process_time() - t, 2)}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzle")
    ap.add_argument("engines", nargs="+", help="exact[+sums][+bands] or clasp:CONFIG, one run each")
    ap.add_argument("--timeout", type=float, default=95.0, help="wall seconds per run (default %(default)s)")
    from cadical_options import add_preprocess_option, run_table  # (this directory is on the path as a script)

    add_preprocess_option(ap)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.puzzle, args.engines[0], args.preprocess)
        return
    run_table(__file__, args.puzzle, args.engines, args.timeout, "engine", preprocess=args.preprocess)

if __name__ == "__main__":
    main()
