"""How far failed-literal probing takes a nonogram beyond line logic.

On the automaton CNF, unit propagation is line logic (every line's clue
enforced in full), so setting a cell and propagating is a line-logic probe.
A cell whose one value propagates to a conflict takes the other; a cell
whose two values agree on some cell fixes that one too.  Rounds repeat until
nothing new is fixed.  Prints the cells known after line logic and after each
round, with CPU seconds.  ``--then ENGINE`` then searches for a solution
of the puzzle's usual model with the cells probing fixed given as units
(verified by the family's checker when found):

    python benchmarks/nonogram_probing.py ../shared/data/nonograms/survey/faase.non
    python benchmarks/nonogram_probing.py ../shared/data/nonograms/survey/faase.non --then cpsat --time-limit 150
"""

from __future__ import annotations

import argparse
import time

from pysat.solvers import Solver

from puzzlesat.backends import get_backend
from puzzlesat.encoders.cnf import encode_cnf
from puzzlesat.loading import load_puzzle
from puzzlesat.problem import Clause


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzle")
    ap.add_argument("--then", metavar="ENGINE", help="then search with this back end from the cells probing fixed")
    ap.add_argument("--time-limit", type=float, default=60.0, help="for --then (seconds, wall)")
    args = ap.parse_args()
    puzzle = load_puzzle(args.puzzle)
    problem = puzzle.compile(line_encoding="regular", preprocess=True)  # line logic's cells as units
    cells = sorted(problem.primary)
    t0 = time.process_time()
    known: dict[int, bool] = {}
    for c in problem.constraints:  # the units preprocessing added
        lits = getattr(c, "lits", None)
        if lits is not None and len(lits) == 1 and abs(lits[0]) in problem.primary:
            known[abs(lits[0])] = lits[0] > 0
    print(f"line logic: {len(known)} of {len(cells)} cells known")
    with Solver(name="glucose4", bootstrap_with=encode_cnf(problem).clauses) as s:
        rnd = 0
        while True:
            rnd += 1
            before = len(known)
            for v in cells:
                if v in known:
                    continue
                ok_true, by_true = s.propagate([v])
                ok_false, by_false = s.propagate([-v])
                if not ok_true and not ok_false:
                    print(f"round {rnd}: cell variable {v} has no value: no solution")
                    return
                units = [-v] if not ok_true else [v] if not ok_false else \
                    [l for l in set(by_true) & set(by_false) if abs(l) in problem.primary and abs(l) not in known]
                for u in units:
                    s.add_clause([u])
                    known[abs(u)] = u > 0
            print(f"round {rnd}: {len(known)} of {len(cells)} cells known, {time.process_time() - t0:.2f} CPU-s",
                  flush=True)
            if len(known) == before:
                break
    if args.then:
        usual = puzzle.compile()  # its cell variables are the same (checked below)
        assert all(usual.meaning(v) == problem.meaning(v) for v in cells)
        start = usual.with_constraints([Clause((v if val else -v,)) for v, val in known.items()])
        t, w = time.process_time(), time.perf_counter()
        r = get_backend(args.then).search(start, limit=1, time_limit=args.time_limit, keep=True)
        found = "no solution" if r.complete and not r.solutions else "a solution" if r.solutions else "no result"
        print(f"{args.then} from the {len(known)} cells: {found} ({r.stopped_by or 'ended'}), "
              f"{time.perf_counter() - w:.1f} s wall, {time.process_time() - t:.1f} CPU-s in this process")
        if r.solutions:
            puzzle.verify(puzzle.decode(usual, r.solutions[0]))
            print("verified")


if __name__ == "__main__":
    main()
