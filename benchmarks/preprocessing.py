"""What line-logic preprocessing does to `solve` on nonograms: this checkout
with and without it (`solve`, `solve --no-preprocess`), and optionally a
baseline revision's `solve` and `solve --preprocess`, measured in the same
run.

    python benchmarks/preprocessing.py [--baseline REV] [--rounds 2]
    python benchmarks/preprocessing.py --orders 8 [--puzzle FILE]

Puzzles: a disc in a 500x500 box (line logic solves it; its clues have
all eight symmetries of the square), random pictures at 70% black drawn
from fixed seeds (300x300 seed 1, which line logic barely opens; 300x300
seed 3, which it nearly solves; 120x120), Knotty and webpbn #1611 from the
survey.  Each command runs as a fresh process (:func:`model_memory.run`);
the figures are its peak RSS and user+system CPU seconds, the best of
``--rounds`` runs.  The baseline is REV in a temporary git worktree.

``--orders N`` measures instead how much luck is in one model's search
time: CaDiCaL's time to a solution of the Knotty subspace that the
symmetric-first search finds the picture in (solutions fixed by all four
symmetries), for the model as stated and preprocessed, the clauses in
their own order and then shuffled by seeds 1..N-1.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from model_memory import picture_file, run  # noqa: E402
from symmetric_first import disc  # noqa: E402

SHARED = Path(os.environ.get("PUZZLESAT_SHARED", REPO.parent / "shared"))
SURVEY = SHARED / "data" / "nonograms" / "survey"


def puzzles(folder: str) -> list[tuple[str, str]]:
    d = disc(500)
    path = os.path.join(folder, "disc-500.nin")
    with open(path, "w") as f:
        f.write("500 500\n")
        for clue in d.rows + d.cols:
            f.write((" ".join(map(str, clue)) or "0") + "\n")
    return [("disc 500x500", path),
            ("random 300x300 70%, seed 1", picture_file(300, 0.7, 1, folder)),
            ("random 300x300 70%, seed 3", picture_file(300, 0.7, 3, folder)),
            ("random 120x120 70%, seed 2", picture_file(120, 0.7, 2, folder)),
            ("Knotty", str(SURVEY / "knotty.non")),
            ("webpbn #1611", str(SURVEY / "webpbn-01611.non"))]


def solves(baseline: str | None, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        if baseline:
            subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), baseline], cwd=REPO, check=True)
        try:
            columns = [("solve", REPO, []), ("solve --no-preprocess", REPO, ["--no-preprocess"])]
            if baseline:
                columns += [(f"{baseline}: solve", base, []), (f"{baseline}: solve --preprocess", base, ["--preprocess"])]
            print(f"CPU s and peak MB, best of {rounds}\n")
            print("| puzzle | " + " | ".join(c[0] for c in columns) + " |")
            print("|---|" + "---|" * len(columns))
            for name, path in puzzles(tmp):
                cells = []
                for _, checkout, extra in columns:
                    best = None
                    for _ in range(rounds):
                        mb, cpu, code = run(checkout, ["solve", path, *extra], tmp)
                        if code != 0:
                            raise SystemExit(f"{name}: solve {' '.join(extra)}: exit {code}")
                        best = (mb, cpu) if best is None or cpu < best[1] else best
                    cells.append(f"{best[1]:.2f} s, {best[0]:.0f} MB")
                print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
        finally:
            if baseline:
                subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=REPO)
                subprocess.run(["git", "worktree", "prune"], cwd=REPO)


def orders(path: str, n: int) -> None:
    from pysat.solvers import Solver

    from puzzlesat.encoders.cnf import encode_cnf
    from puzzlesat.jobs import _subspaces
    from puzzlesat.loading import load_puzzle
    from puzzlesat.problem import equalities

    for pre in (False, True):
        problem = load_puzzle(path).compile(preprocess=pre)
        label, gens = _subspaces(problem.symmetries)[0]
        sub = problem.with_constraints([c for g in gens for c in equalities(g)])
        clauses = [list(c) for c in encode_cnf(sub).clauses]
        times = []
        for seed in range(n):
            cls = list(clauses)
            if seed:
                random.Random(seed).shuffle(cls)
            with Solver(name="cadical195", bootstrap_with=cls) as s:
                t = time.process_time()
                assert s.solve()
                times.append(time.process_time() - t)
        print(f"{'preprocessed' if pre else 'as stated':>12}, {label}, {len(clauses)} clauses: "
              + " ".join(f"{t:.2f}" for t in times) + f"; median {statistics.median(times):.2f} s")  # (of an even count: the mean of the middle two)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", help="git revision to compare with")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--orders", type=int, help="the clause-order experiment instead, with this many orders")
    ap.add_argument("--puzzle", default=str(SURVEY / "knotty.non"), help="for --orders (default: Knotty)")
    args = ap.parse_args()
    if args.orders:
        orders(args.puzzle, args.orders)
    else:
        solves(args.baseline, args.rounds)


if __name__ == "__main__":
    main()
