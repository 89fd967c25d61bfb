"""Which piece to restrict to orbit representatives in a count up to symmetry.

jobs._orbits restricts the invariant ExactlyOne constraint (one every
symmetry maps onto itself) whose orbits are most often free -- the largest
share of its orbits that no symmetry but the identity fixes, fewest
variables breaking ties: for the 6x10 box, the X pentomino.  This times the
same count with each invariant constraint in turn, CPU seconds in this
process (its children included), exact-cover engine:

    python benchmarks/restricted_piece.py pentomino-6x10

An instance with no invariant ExactlyOne constraint (tetromino-L-4x4: four
copies of one piece, so its only ExactlyOne constraints are its cells',
which the symmetries move) has no piece to restrict: that is said and
nothing is timed.
"""

from __future__ import annotations

import argparse
import resource
import sys

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.loading import load_puzzle
from puzzlesat.problem import ExactlyOne


def cpu() -> float:
    r, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime + c.ru_utime + c.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("instance")
    args = ap.parse_args()
    try:
        puzzle = load_puzzle(args.instance)
        problem = puzzle.compile()
    except Exception as e:  # a bad name or file: said in one line
        print(f"restricted_piece.py: {e}", file=sys.stderr)
        return 2
    group = problem.symmetries
    found = jobs._invariant_exactly_one(problem, group)
    if found is None:
        print(f"{args.instance}: no ExactlyOne constraint is mapped onto itself by all {len(group)} symmetries, "
              "so there is no piece to restrict to orbit representatives; nothing to time")
        return 0
    default = found[0]
    chosen = jobs._invariant_exactly_one
    print("| restricted constraint | variables | orbits | count up to symmetry | CPU s |")
    print("|---|---|---|---|---|")
    try:
        for c in problem.constraints:
            if not isinstance(c, ExactlyOne) or any(g.get(v, v) not in set(c.vars) for g in group for v in c.vars):
                continue
            orbits = jobs._orbits_of(c.vars, group)
            jobs._invariant_exactly_one = lambda p, g, c=c, o=orbits: (c, o)
            piece = problem.meaning(c.vars[0]).piece
            t = cpu()
            out = jobs.count(puzzle, get_backend("exact"), unique=True, problem=problem)
            mark = " (the default)" if c is default else ""
            print(f"| piece {piece}{mark} | {len(c.vars)} | {len(orbits)} | {out.count} | {cpu() - t:.2f} |",
                  flush=True)
    finally:
        jobs._invariant_exactly_one = chosen
    return 0


if __name__ == "__main__":
    sys.exit(main())
