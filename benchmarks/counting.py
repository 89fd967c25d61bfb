"""Counting speed: each instance x engine, as ratios to the first engine
given (by default ``raw``, miniexact used directly).

    python benchmarks/counting.py                      # the default set
    python benchmarks/counting.py -i pentomino-6x10 -e raw exact ganak
    python benchmarks/counting.py -i repeated-L-8x8 -e raw unique unique-burnside
    python benchmarks/counting.py -i dominoes-board-10x10 -e unique:ganak unique:kasteleyn default-unique
    python benchmarks/counting.py -e raw exact ganak cadical195 unique \
        --timeout 60 --timeout-for raw=600 exact=600 unique=600 --out benchmarks/counting-results.md

Engines:

- ``raw``: the baseline — miniexact driven directly (items = ExactlyOne /
  Exactly(k) / AtMostOne constraints, options = variables; Algorithm X, or M
  when an item has a multiplicity), a bare ``while solve() == 10`` loop in
  this process, none of puzzlesat's back-end machinery.  Every piece's count
  is an item, as one would write it: the tiling model leaves out the one
  count the others imply (``Problem.redundant``), and the baseline states it
  where other counts of 2 or more are (as the exact engine does; until
  session 32 it did not, which made raw 1.9x slower on tetromino-pairs-5x8,
  so ratios to it too favourable); a board of one repeated piece keeps
  Algorithm X over the cells alone;
- ``raw-orbits``: the same bare miniexact on the problem with one piece
  restricted to one placement per symmetry orbit, where that alone counts up
  to symmetry (every orbit of the piece's placements is free): the issue's
  "~1.1 CPU-s" way to count the 2,339 6x10 solutions, a baseline for ``unique``;
- ``exact``: puzzlesat's "exact" back end (translation, forked child,
  streaming); ``exact:x``, ``exact:m``, ``exact:c`` force an algorithm;
- ``ganak``: projected model counting on the CNF;
- ``kasteleyn``: the determinant of a planar graph's Kasteleyn matrix (only
  dominoes on boards of the plane);
- ``cadical195`` (or any PySAT name): blocking-clause counting;
- ``count``: ``jobs.count()`` with the exact back end — what ``puzzlesat
  count -b exact --jobs 1`` does: the family's implied constraints (dead
  placements) added first, every solution decoded and verified;
- ``unique``: ``jobs.count(unique=True)`` with the exact back end (symmetry
  reduction too) — the count of solutions up to symmetry, not the raw count;
  ``unique-burnside``: the same without the views method (boards where
  every piece repeats then take Burnside's lemma, as before session 6);
  ``unique:ENGINE`` (e.g. ``unique:ganak``, ``unique:kasteleyn``): the same
  count up to symmetry with that back end;
- ``default``, ``default-unique``: ``jobs.count()`` with no back end given —
  what ``puzzlesat count`` does: the exact engine, or Ganak when Knuth's
  estimate finds very many solutions (the estimate's cost included).

Every (instance, engine) runs in its own process (new session, killed as a
group on timeout) and reports the CPU seconds of the count alone (its own and
its children's, problem building excluded).  The modules every engine uses
(miniexact, puzzlesat's jobs and back ends, PySAT, pyganak) are imported
before the clock starts, for every engine alike, so that a tiny count is not
mostly module loading (on a machine with PYTHONDONTWRITEBYTECODE set, that
includes compiling puzzlesat's sources each time); ``--cold`` times the
imports too.  After the imports the run waits until the process uses no CPU
while it sleeps (numpy's OpenBLAS threads spin for ~50 ms after its import,
and CPU time counts every thread: up to ~40 ms in each run's window until
session 33) and collects garbage once (the imports' objects otherwise brought a full
collection into some counts: 16-27 ms of tetromino-pairs-5x8's unique
count, which a ``puzzlesat count`` process, with a third as many objects,
never pays).  The machine is shared: compare
the ratios within one run, not the absolute seconds across runs; for
runs of milliseconds, ``--rounds N`` measures each N times, the engines in
turn, and reports the run of median CPU time.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import signal
import subprocess
import sys
import time

DEFAULT_INSTANCES = [
    "dominoes-6x6", "dominoes-8x8", "strip-monodomino",
    "pentomino-6x10", "pentomino-5x12", "pentomino-4x15", "pentomino-3x20",
    "pentomino-8x8-hole", "pentomino-8x8-four-holes", "pentomino-2x5x6", "pentomino-2x3x10",
    "pentomino-3x4x5", "pentomino-5x3x2x2",
    "tetromino-L-4x4", "tetromino-pairs-5x8", "hexiamonds-6x6", "hexagon-tetrahexes-trihexes", "no0",
]
DEFAULT_ENGINES = ["raw", "exact", "ganak", "cadical195"]
#: engines that count up to symmetry
UNIQUE_ENGINES = ("unique", "unique-burnside", "default-unique")


def counts_classes(engine: str) -> bool:
    """Whether the engine's count is up to symmetry."""
    return engine in UNIQUE_ENGINES or engine.startswith("unique:") or engine == "raw-orbits"


# ---------------------------------------------------------------- instances


def synthetic(name: str):
    """Problems built here, for a run without any puzzle family."""
    from puzzlesat.problem import Problem

    if name.startswith("dominoes-"):
        rows, cols = map(int, name.split("-")[1].split("x"))
        p = Problem(fixed_weight=True)
        cover: dict = {}
        for r in range(rows):
            for c in range(cols):
                for r2, c2 in ((r, c + 1), (r + 1, c)):
                    if r2 < rows and c2 < cols:
                        v = p.var((r, c, r2, c2))
                        cover.setdefault((r, c), []).append(v)
                        cover.setdefault((r2, c2), []).append(v)
        for cell in sorted(cover):
            p.exactly_one(cover[cell])
        return p
    if name == "strip-monodomino":
        # a 1x26 strip with 8 identical monominoes and 9 identical dominoes
        # (multiplicity items: Algorithm M)
        p = Problem(fixed_weight=True)
        n, k1, k2 = 26, 8, 9
        a = [p.var(("A", i)) for i in range(n)]
        b = [p.var(("B", i)) for i in range(n - 1)]
        cells: dict = {}
        for i in range(n):
            cells.setdefault(i, []).append(a[i])
        for i in range(n - 1):
            cells.setdefault(i, []).append(b[i])
            cells.setdefault(i + 1, []).append(b[i])
        p.exactly(k1, a)
        p.exactly(k2, b)
        for i in sorted(cells):
            p.exactly_one(cells[i])
        return p
    return None


#: cells of the pieces for ``repeated-<piece>-<rows>x<cols>`` boards: one
#: piece, as many copies as fill the box (no constraint every symmetry maps
#: onto itself, the case of the views method)
REPEATED_PIECES = {
    "L": [(0, 0), (1, 0), (2, 0), (2, 1)], "V": [(0, 0), (1, 0), (1, 1)],
    "P": [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)], "Y": [(0, 0), (1, 0), (2, 0), (3, 0), (1, 1)],
}
REPEATED_INSTANCES = ["repeated-L-4x6", "repeated-V-6x6", "repeated-P-6x10", "repeated-Y-5x10", "repeated-L-8x8"]


def repeated(name: str):
    """A box puzzle of one repeated piece, e.g. repeated-L-8x8 (16 L tetrominoes)."""
    from puzzlesat.models.tiling.boxfile import load as load_box

    _, piece, size = name.split("-")
    rows, cols = map(int, size.split("x"))
    cells = REPEATED_PIECES[piece]
    lines = [f"BOX / {rows} * {cols}"]
    lines += [f"ELEMENT / ({piece}) " + ", ".join(f"({r + 1}, {c + 1})" for r, c in cells)] * (rows * cols // len(cells))
    return load_box("\n".join(lines) + "\n", f"{name}.box")


def domino_board(name: str):
    """``dominoes-board-<rows>x<cols>``: the rectangle of dominoes as a board
    puzzle, with its symmetries (the synthetic ``dominoes-<r>x<c>`` has none);
    ``dominoes-board-<rows>x<cols>-m<k>``: with k monominoes (one piece)."""
    from puzzlesat.models.tiling.tomlfile import load as load_toml

    parts = name.split("-")
    rows, cols = map(int, parts[2].split("x"))
    k = int(parts[3][1:]) if len(parts) > 3 else 0
    mono = f'[[pieces]]\ncells = [[1, 1]]\nname = "M"\ncount = {k}\n' if k else ""
    return load_toml(f'[board]\nsize = [{rows}, {cols}]\n[[pieces]]\nset = "dominoes"\n'
                     f'count = {(rows * cols - k) // 2}\n{mono}', f"{name}.toml")


def load(name: str):
    """(problem, puzzle or None); None if the instance does not exist here.
    A bundled instance of the name comes first (dominoes-8x8)."""
    if name.startswith("repeated-"):
        puzzle = repeated(name)
        return puzzle.compile(), puzzle
    if name.startswith("dominoes-board-"):
        puzzle = domino_board(name)
        return puzzle.compile(), puzzle
    try:
        from puzzlesat.loading import load_puzzle

        puzzle = load_puzzle(name)
    except Exception:
        p = synthetic(name)
        return (p, None) if p is not None else (None, None)
    return puzzle.compile(), puzzle


# ------------------------------------------------------------------ engines


def orbit_restricted(problem):
    """The problem with one piece restricted to one placement per symmetry
    orbit (the textbook way to count up to symmetry, e.g. the 6x10's X in one
    quadrant), or None when some orbit of every invariant piece is smaller
    than the group (then this alone would not count orbits exactly)."""
    from puzzlesat import jobs
    from puzzlesat.problem import Clause

    group = problem.symmetries
    found = jobs._invariant_exactly_one(problem, group) if len(group) > 1 else None
    if found is None or any(len(orb) != len(group) for orb in found[1]):
        return None
    c, orbits = found
    reps = {orb[0] for orb in orbits}
    return problem.with_constraints([Clause((-v,)) for v in c.vars if v not in reps])


def raw_miniexact(problem) -> int:
    """The baseline: miniexact used directly, count only (unit clauses
    ``(-v)`` drop option ``v``)."""
    import miniexact

    from puzzlesat.problem import AtMostOne, Clause, Exactly, ExactlyOne

    from puzzlesat.encoders.exactcover import stated_counts

    prim, sec, dropped = [], [], set()
    for c in stated_counts(problem):  # (every piece's count, as the exact engine states them)
        if isinstance(c, Clause) and len(c.lits) == 1 and c.lits[0] < 0:
            dropped.add(-c.lits[0])
        elif isinstance(c, ExactlyOne):
            prim.append((1, c.vars))
        elif isinstance(c, Exactly):
            prim.append((c.k, c.vars))
        elif isinstance(c, AtMostOne):
            sec.append(c.vars)
        else:
            raise ValueError(f"raw miniexact cannot take {type(c).__name__}")
    multi = any(k != 1 for k, _ in prim)
    h = miniexact.miniexacts_m() if multi else miniexact.miniexacts_x()
    opts: dict[int, list[int]] = {v: [] for v in problem.primary}
    for j, (k, vs) in enumerate(prim):
        item = h.primary(f"p{j}", k, k)
        for v in vs:
            opts[v].append(item)
    for j, vs in enumerate(sec):
        item = h.secondary(f"s{j}")
        for v in vs:
            opts[v].append(item)
    for v in problem.primary:
        if opts[v] and v not in dropped:
            h.add(opts[v])
    n = 0
    while h.solve() == 10:
        n += 1
    return n


def preload() -> None:
    """Import what any engine uses, so that no engine's clock includes it."""
    import miniexact  # noqa: F401
    import pysat.solvers  # noqa: F401

    import networkx  # noqa: F401  (the kasteleyn engine imports it when a problem is one it counts)
    import numpy  # noqa: F401

    import puzzlesat.backends.exactcover  # noqa: F401
    import puzzlesat.backends.ganak  # noqa: F401
    import puzzlesat.backends.kasteleyn  # noqa: F401
    import puzzlesat.backends.pysat_backend  # noqa: F401
    import puzzlesat.estimate  # noqa: F401
    import puzzlesat.jobs  # noqa: F401


def settle(most: float = 2.0) -> None:
    """Wait until this process stops using CPU while it sleeps (at most
    ``most`` seconds).  Importing numpy starts OpenBLAS's threads, which
    spin for about 50 ms, and the CPU time measured is every thread's: the
    spin fell in each run's window, up to ~40 ms of CPU in a run of 50 ms or
    more, as much as raw miniexact's whole count of tetromino-pairs-5x8
    (session 33)."""
    end = time.perf_counter() + most
    while time.perf_counter() < end:
        before = time.process_time()
        time.sleep(0.02)
        if time.process_time() - before < 0.001:
            return


def run_one(instance: str, engine: str, timeout: float, cold: bool = False) -> dict:
    """Measure one count in this process (called in a child of the driver)."""
    problem, puzzle = load(instance)
    if problem is None:
        return {"status": "missing"}
    if not cold:
        preload()
        settle()
        gc.collect()
    before_self = time.process_time()
    before_kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    complete, stopped, extra = True, None, {}
    if engine == "raw":
        n = raw_miniexact(problem)
    elif engine == "raw-orbits":
        restricted = orbit_restricted(problem)
        if restricted is None:
            return {"status": "n/a"}
        n = raw_miniexact(restricted)
    elif counts_classes(engine) or engine in ("count", "default"):
        from puzzlesat import jobs
        from puzzlesat.backends import get_backend

        if puzzle is None:
            return {"status": "n/a"}
        if engine == "unique-burnside":  # as before the views method
            jobs._view_cell = lambda problem, group: None
        # default*: the engine count picks by itself (the exact one, or Ganak when
        # Knuth's estimate finds very many solutions), estimate included
        backend = (None if engine.startswith("default")
                   else get_backend(engine.split(":")[1] if ":" in engine else "exact"))
        why = None if backend is None else backend.supports(problem)
        if why:
            return {"status": "unsupported", "why": why}
        out = jobs.count(puzzle, backend, unique=counts_classes(engine),
                         time_limit=timeout,
                         problem=problem)
        n, complete, stopped = out.count, out.complete, out.stopped_by
        extra = {"method": out.method, "runs": out.subproblems, "backend": out.backend}
    else:
        from puzzlesat.backends import get_backend

        if engine.startswith("exact:"):
            be = get_backend("exact", algorithm=engine.split(":")[1])
        else:
            be = get_backend(engine)
        why = be.supports(problem)
        if why:
            return {"status": "unsupported", "why": why}
        r = be.count(problem, time_limit=timeout)
        n, complete, stopped = r.count, r.complete, r.stopped_by
        extra = {k: v for k, v in r.stats.items() if k in ("algorithm", "cases", "clauses", "encoding")}
    wall = time.perf_counter() - t0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (time.process_time() - before_self) + (kids.ru_utime - before_kids.ru_utime) + (kids.ru_stime - before_kids.ru_stime)
    return {"status": "ok" if complete else "partial", "count": n, "cpu": cpu, "wall": wall,
            "stopped_by": stopped, **extra}


def measure(instance: str, engine: str, timeout: float, cold: bool = False) -> dict:
    """run_one in a fresh process, killed (with its children) past the timeout."""
    cmd = [sys.executable, __file__, "--one", instance, engine, "--timeout", str(timeout)] + (["--cold"] if cold else [])
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"status": "timeout"}
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # stray grandchildren
        except ProcessLookupError:
            pass
    if proc.returncode != 0:
        return {"status": "error", "why": (err.strip().splitlines() or ["?"])[-1]}
    return json.loads(out.strip().splitlines()[-1])


# ------------------------------------------------------------------- report


def _median_run(runs: list[dict]) -> dict:
    """Of one engine's runs on one instance, the one of median CPU time
    (the lower middle of an even number) when all finished; else the first
    that did not (a timeout or an error is not averaged away)."""
    bad = [r for r in runs if r["status"] != "ok"]
    if bad:
        return bad[0]
    return sorted(runs, key=lambda r: r["cpu"])[(len(runs) - 1) // 2]


def cell(r: dict, base: dict | None) -> str:
    st = r["status"]
    if st in ("missing", "n/a"):
        return "-"
    if st in ("unsupported", "timeout", "error"):
        return st
    s = f"{r['cpu']:.2f}"
    if st == "partial":
        s = f">{r['cpu']:.0f} (≥{r['count']})"
    elif base and base.get("status") == "ok" and base["cpu"] > 0:
        s += f" ({r['cpu'] / base['cpu']:.2g}x)"
    return s


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-i", "--instances", nargs="+", default=DEFAULT_INSTANCES)
    ap.add_argument("-e", "--engines", nargs="+", default=DEFAULT_ENGINES)
    ap.add_argument("--timeout", type=float, default=60.0, help="wall seconds per run (default 60)")
    ap.add_argument("--timeout-for", nargs="+", default=[], metavar="ENGINE=SECONDS",
                    help="a different timeout for some engines, e.g. raw=600 exact=600")
    ap.add_argument("--out", help="also write the markdown table to this file")
    ap.add_argument("--rounds", type=int, default=1, metavar="N",
                    help="measure each run N times, the engines in turn, and report the median (default 1)")
    ap.add_argument("--cold", action="store_true",
                    help="time the module imports too (default: imported before the clock starts)")
    ap.add_argument("--one", nargs=2, metavar=("INSTANCE", "ENGINE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(*args.one, args.timeout, args.cold)))
        return 0

    if args.rounds < 1:
        ap.error(f"--rounds {args.rounds}: at least 1")
    engines = args.engines
    timeouts = {e: args.timeout for e in engines}
    for spec in args.timeout_for:
        eng, _, sec = spec.partition("=")
        if eng not in engines:  # (a misspelt engine's timeout was ignored unsaid)
            ap.error(f"--timeout-for {spec}: {eng!r} is not among the engines run ({' '.join(engines)})")
        try:
            timeouts[eng] = float(sec)
        except ValueError:
            ap.error(f"--timeout-for {spec}: expected ENGINE=SECONDS")
    rows, skipped = [], []
    for inst in args.instances:
        runs: dict[str, list] = {eng: [] for eng in engines}
        for _ in range(args.rounds):  # (engines alternate within a round: the machine's load hits all alike)
            for eng in engines:
                runs[eng].append(r := measure(inst, eng, timeouts[eng], args.cold))
                if r["status"] == "missing":
                    break
                print(f"{inst:24} {eng:12} {json.dumps(r)}", file=sys.stderr, flush=True)
            if any(r[-1]["status"] == "missing" for r in runs.values() if r):
                break
        results = {eng: _median_run(rs) for eng, rs in runs.items() if rs}
        if any(r["status"] == "missing" for r in results.values()):
            print(f"{inst:24} not available here, skipped", file=sys.stderr)
            skipped.append(inst)
            continue
        counts = {r["count"] for e, r in results.items() if r["status"] == "ok" and not counts_classes(e)}
        classes = {r["count"] for e, r in results.items() if r["status"] == "ok" and counts_classes(e)}
        if len(counts) > 1 or len(classes) > 1:
            print(f"!! {inst}: engines disagree: {counts} {classes}", file=sys.stderr)
        rows.append((inst, results, counts, classes))

    base_name = engines[0]
    head = ["instance", "solutions"] + [f"{e} CPU-s" + (" (baseline)" if e == base_name else "") for e in engines]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for inst, results, counts, classes in rows:
        n = "/".join(str(c) for c in sorted(counts)) if counts else "?"
        if classes:
            n += f" ({'/'.join(str(c) for c in sorted(classes))} unique)"
        base = results.get(base_name)
        lines.append("| " + " | ".join([inst, n] + [cell(results[e], base if e != base_name else None)
                                                   for e in engines]) + " |")
    if skipped:
        lines.append(f"\n(not available here, skipped: {' '.join(skipped)})")
    table = "\n".join(lines)
    print(table)
    if args.out:
        with open(args.out, "w") as f:
            f.write(f"<!-- {' '.join([os.path.basename(sys.executable), 'benchmarks/counting.py'] + (argv or sys.argv[1:]))} -->\n")
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
