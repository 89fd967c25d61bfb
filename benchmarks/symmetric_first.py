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
sym / plain per round.  A run past the time limit shows ``> LIMIT``; a run
that failed shows ``error``, its reason is listed under the table, the
table goes on and the exit code is 4.
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
    try:
        if not symmetric:
            jobs._symmetric_first = lambda *a, **k: False
        c0 = _cpu()
        puzzle = disc(n)
        out = jobs.solve(puzzle, get_backend(engine))  # decoded and verified
        if out.status != Status.SOLVED:
            raise RuntimeError(f"solve ended {out.status.value}, not solved")
        send.send(("done", _cpu() - c0, out.method or "search"))
    except BaseException as e:  # the run failed: said for its cell, the table goes on
        send.send(("error", f"{type(e).__name__}: {e}".splitlines()[0]))


def run(n: int, engine: str, symmetric: bool, time_limit: float) -> dict:
    """{"cpu", "how"} for a solve, {"error"} for a run that failed, {} for one
    killed at the time limit."""
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_work, args=(n, engine, symmetric, send))
    proc.start()
    send.close()
    got: dict = {}
    if recv.poll(time_limit):
        try:
            msg = recv.recv()
            got = {"cpu": msg[1], "how": msg[2]} if msg[0] == "done" else {"error": msg[1]}
        except EOFError:  # died without a word (a signal, the OOM killer)
            proc.join(1)
            got = {"error": f"the run's process died (exit code {proc.exitcode})"}
    try:
        os.killpg(proc.pid, 9)
    except ProcessLookupError:
        pass
    proc.join()
    return got


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000])
    ap.add_argument("--engines", nargs="+", default=["cadical195", "cpsat"])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=300.0)
    args = ap.parse_args()
    bad = ([f"--sizes: {n} is not a positive size" for n in args.sizes if n < 1]
           + [f"--rounds: {args.rounds} is not a positive number"] * (args.rounds < 1)
           + [f"--time-limit: {args.time_limit} is not a positive number of seconds"] * (not args.time_limit > 0))
    for e in args.engines:
        try:
            get_backend(e)
        except Exception as exc:  # an unknown or uninstalled engine
            bad.append(f"--engines: {exc}")
    if bad:
        print(f"symmetric_first.py: {bad[0]}", file=sys.stderr)
        return 2
    print("| disc | engine | round | sym CPU s | plain CPU s | sym / plain | how sym found it |")
    print("|---|---|---|---|---|---|---|")
    failed = []

    def cell(r: dict, what: str) -> str:
        if "error" in r:
            failed.append(f"{what}: {r['error']}")
            return "error"
        return f"{r['cpu']:.2f}" if r else f"> {args.time_limit:g}"

    for n in args.sizes:
        for engine in args.engines:
            for k in range(1, args.rounds + 1):
                sym = run(n, engine, True, args.time_limit)
                plain = run(n, engine, False, args.time_limit)
                s = cell(sym, f"{n}x{n} {engine} round {k} sym")
                p = cell(plain, f"{n}x{n} {engine} round {k} plain")
                ratio = f"{sym['cpu'] / plain['cpu']:.2f}x" if "cpu" in sym and "cpu" in plain else "—"
                print(f"| {n}x{n} | {engine} | {k} | {s} | {p} | {ratio} | {sym.get('how', '—')} |", flush=True)
    if failed:
        print(f"\n{len(failed)} run{'s' * (len(failed) != 1)} failed:")
        print("\n".join(f"- {f}" for f in failed))
    return 4 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
