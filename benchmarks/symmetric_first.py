"""The symmetric-first search on large symmetric nonograms: its cost against
the plain search, measured in the same run.

    python benchmarks/symmetric_first.py [--sizes 250 500 1000] [--engines cadical195 cpsat]
        [--rounds 2] [--time-limit 300]

Each puzzle is a disc drawn in an N x N box (every row and column one run,
the clues fixed by all eight symmetries of the square): easy for any engine
(unit propagation alone solves it) and large, so that what the
symmetric-first search adds (its subspaces' equalities, a model per
subspace, forked time slices) is what is measured.  Each run is ``solve``
(jobs.solve) in a fresh forked process on the model as stated, i.e. what
``puzzlesat solve --no-preprocess`` searches (the CLI preprocesses by
default, and line logic alone solves these discs: no search would run):
"sym" with the symmetric-first search where the CLI uses it, "plain" with it
switched off (the baseline).  The times are
CPU seconds of that process and its children, compiling included; the
solution is verified.  Rounds alternate sym and plain; the ratio is
sym / plain per round.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from puzzlesat import jobs  # noqa: E402
from puzzlesat.backends import Status, get_backend  # noqa: E402
from puzzlesat.models.nonogram.clues import runs  # noqa: E402
from puzzlesat.models.nonogram.puzzle import Nonogram  # noqa: E402


def disc(n: int) -> Nonogram:
    r = n / 2.2
    grid = [[int((i + 0.5 - n / 2) ** 2 + (j + 0.5 - n / 2) ** 2 < r * r) for j in range(n)] for i in range(n)]
    return Nonogram(n, n, [runs(row) for row in grid], [runs(col) for col in zip(*grid)])


def _cpu() -> float:
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def _work(n: int, engine: str, symmetric: bool, send) -> None:
    os.setsid()  # its own process group: a timeout kills solver children too
    if not symmetric:
        jobs._symmetric_first = lambda *a, **k: False
    c0 = _cpu()
    puzzle = disc(n)
    out = jobs.solve(puzzle, get_backend(engine))  # decoded and verified
    assert out.status == Status.SOLVED, out
    send.send((_cpu() - c0, out.method or "search"))


def run(n: int, engine: str, symmetric: bool, time_limit: float):
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_work, args=(n, engine, symmetric, send))
    proc.start()
    send.close()
    got = recv.recv() if recv.poll(time_limit) else None
    if got is None:
        try:
            os.killpg(proc.pid, 9)
        except ProcessLookupError:
            pass
    proc.join()
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000])
    ap.add_argument("--engines", nargs="+", default=["cadical195", "cpsat"])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=300.0)
    args = ap.parse_args()
    print("| disc | engine | round | sym CPU s | plain CPU s | sym / plain | how sym found it |")
    print("|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for engine in args.engines:
            for k in range(1, args.rounds + 1):
                sym = run(n, engine, True, args.time_limit)
                plain = run(n, engine, False, args.time_limit)
                s = f"{sym[0]:.2f}" if sym else f"> {args.time_limit:g}"
                p = f"{plain[0]:.2f}" if plain else f"> {args.time_limit:g}"
                ratio = f"{sym[0] / plain[0]:.2f}x" if sym and plain else "—"
                print(f"| {n}x{n} | {engine} | {k} | {s} | {p} | {ratio} | {sym[1] if sym else '—'} |", flush=True)


if __name__ == "__main__":
    main()
