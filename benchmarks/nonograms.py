"""Nonogram speed: time to solve and to decide uniqueness, per puzzle and back end.

    python benchmarks/nonograms.py [--sets survey n-dom nonogram-db]
        [--engines cadical195 glucose4 minisat22 cpsat cadical195+pre ...]
        [--baseline cpsat] [--time-limit 30] [--only NAME ...]

Each run is one search for two solutions (``count --limit 2``), in a fresh
forked process killed after ``--time-limit`` wall seconds: "first" is
the CPU time until the first solution (= solve), "decide" until the search
proved there is no second one or found it (= uniqueness decided), both
including compiling and encoding.  CPU seconds are that process's (all
its threads), since the machine is shared.  Every solution is verified against
the clues and, when it is the only one and the file has a goal, the goal.

Engine variants: ``NAME+pre`` gives the back end the cells the line solver
fixes as unit clauses and narrows the block starts to agree with them, as
``solve``, ``count`` and ``check`` do unless ``--no-preprocess`` is given
(without ``+pre``: the clues as stated).  Lines are stated the default
way (block-start order literals, ``line_encoding="blocks"``) unless
``NAME+goal`` decides uniqueness as ``count --limit 2`` does by default when
the file has a goal picture: the goal, verified, is the first solution (its
"first" time is the load and check), and the search for a second starts from
its values; puzzles without a goal get the plain search.  ``default+goal+pre``
is exactly the CLI's ``count --limit 2`` with no ``-b``: the engine ``count``
picks (CaDiCaL; the exact-cover engine for a model line logic reduced to
units), which hands a search from the goal that has not ended after 0.5 s
over to CP-SAT.
``NAME+sym`` runs the jobs layer's symmetric-first search where ``solve`` and
``count --limit 2`` do (puzzles whose clues have a symmetry), a plain search
elsewhere.  ``NAME+dfa`` (one Regular per line: the run-length automaton, i.e.
add_automaton for CP-SAT) or ``NAME+both``; ``NAME+dfa+order`` adds the
order literals [state >= q] to the CNF encoding of run-length automata.  Ratios are against
``--baseline`` (default: the plain CP-SAT automaton model), measured in the
same run.  The shared data is found beside the repository (../shared) or at
$PUZZLESAT_SHARED.

A run cut by the time limit shows ``> LIMIT``; a run that failed (the engine
raised, or its process died) shows ``error``, is counted apart in the totals
and listed with its reason under the tables.  The exit code is 4 when the
verdicts disagree or a run failed, 2 for bad arguments (an unknown set,
engine or variant), else 0.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import signal
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from puzzlesat import jobs  # noqa: E402
from puzzlesat.backends import get_backend  # noqa: E402
from puzzlesat.backends.base import Deadline  # noqa: E402
from puzzlesat.encoders import regular  # noqa: E402
from puzzlesat.loading import load_puzzle  # noqa: E402

SHARED = Path(os.environ.get("PUZZLESAT_SHARED", REPO.parent / "shared"))
DATA = SHARED / "data" / "nonograms"
DEFAULT_ENGINES = ["cadical195", "glucose4", "minisat22", "cpsat", "cadical195+dfa", "glucose4+dfa", "cpsat+dfa"]


def files(sets: list[str]) -> list[Path]:
    out = []
    for s in sets:
        fs = sorted((DATA / s).rglob("*.non"))
        if s == "n-dom":
            fs.sort(key=lambda p: int(p.stem.split("-")[0]))
        out += fs
    return out


FLAGS = ("pre", "goal", "sym", "dfa", "both", "order")


def _work(path: Path, engine: str, send) -> None:
    """In a forked child: one search for two solutions, reporting CPU times;
    an exception is reported as ("error", its one-line message)."""
    os.setsid()  # its own process group: a timeout kills solver children too
    try:
        _search(path, engine, send)
    except BaseException as e:  # (the run failed: said as such, not as a timeout)
        send.send(("error", f"{type(e).__name__}: {e}".splitlines()[0]))


def _search(path: Path, engine: str, send) -> None:
    name, *flags = engine.split("+")
    regular.ORDER_LITERALS = "order" in flags
    c0 = _cpu()
    puzzle = load_puzzle(str(path))
    how = "regular" if "dfa" in flags else "both" if "both" in flags else "blocks"
    problem = puzzle.compile(preprocess="pre" in flags, line_encoding=how)
    # "default": the engine count picks, free to hand the search from the goal over
    backend = jobs.choose_count_backend(problem)[0] if name == "default" else get_backend(name)
    seen, first = [], []

    def note_first():
        if not first:
            first.append(_cpu() - c0)
            send.send(("first", first[0]))

    def on_solution(sol):
        grid = puzzle.decode(problem, sol)
        puzzle.verify(grid)
        seen.append(grid)
        note_first()
        return None

    # the jobs layer's symmetric-first search, where solve / count --limit 2 use it
    if "goal" in flags and jobs.verified_known(puzzle, problem) is not None:
        # count --limit 2 as the CLI runs it: the verified goal is the first
        # solution, the search for a second starts from it
        note_first()
        out = jobs.count(puzzle, backend, limit=2, keep=True, problem=problem, may_switch=name == "default")
        count, complete, seen = out.count, out.complete, out.solutions
    elif "sym" in flags and jobs._symmetric_first(puzzle, problem, backend):
        found = jobs._search_symmetric_first(puzzle, problem, backend, 2, Deadline(None), note_first)
        count, complete, seen = len(found.decoded), found.complete, found.decoded
    else:
        r = backend.search(problem, limit=2, on_solution=on_solution)
        count, complete = r.count, r.complete
    # (an engine that ended on its own before deciding was labelled "none")
    verdict = ("multiple" if count >= 2 else "incomplete" if not complete else "unique" if count == 1 else "none")
    if verdict == "unique" and puzzle.goal is not None and not puzzle.matches_goal(seen[0]):
        raise AssertionError(f"{path}: the only solution is not the goal")
    send.send(("done", _cpu() - c0, verdict))


def _cpu() -> float:
    """This process's CPU seconds plus its children's, finished or not (a
    solver run under a time limit may be a forked child; a symmetric-first
    search keeps its paused children to the end).  Until session 34 only the
    finished ones counted: a first solution that a child still running
    sent was timed without that child (Knotty's "first" read 0.11 s)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime + _live_children_cpu(os.getpid())


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _live_children_cpu(pid: int) -> float:
    """The CPU seconds of ``pid``'s live descendants (Linux /proc; 0 elsewhere):
    each one's own (utime, stime) and its finished children's (cutime,
    cstime), which a live process holds until it is reaped."""
    total = 0.0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            continue
        for kid in kids:
            try:
                with open(f"/proc/{kid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:  # (gone meanwhile: then it is a finished child, counted above)
                continue
            total += sum(int(x) for x in fields[11:15]) / _TICK + _live_children_cpu(kid)
    return total


def run_one(path: Path, engine: str, time_limit: float) -> dict:
    """Run :func:`_work` in a fresh process (CPU time is then its own, and a
    run that overstays the limit is simply killed)."""
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    # not daemonic: back ends run solvers under a time limit in child processes
    proc = ctx.Process(target=_work, args=(path, engine, send))
    w0 = time.perf_counter()
    proc.start()
    send.close()
    out = {"first": None, "decide": None, "verdict": "timeout", "error": None}
    try:
        while True:
            left = time_limit - (time.perf_counter() - w0)
            if left <= 0 or not recv.poll(left):
                break
            try:
                msg = recv.recv()
            except EOFError:  # died without a word (a signal, the OOM killer, os._exit)
                proc.join(1)
                out["verdict"], out["error"] = "error", f"the run's process died (exit code {proc.exitcode})"
                break
            if msg[0] == "first":
                out["first"] = msg[1]
            elif msg[0] == "error":
                out["verdict"], out["error"] = "error", msg[1]
                break
            else:
                out["verdict"] = msg[2]
                if msg[2] != "incomplete":  # (an undecided run has no time to decide)
                    out["decide"] = msg[1]
                break
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.join()
    out["wall"] = time.perf_counter() - w0
    return out


def fmt(x) -> str:
    return "—" if x is None else f"{x:.2f}"


def _bad_input(msg: str) -> int:
    print(f"nonograms.py: {msg}", file=sys.stderr)
    return 2


def _check_engine(engine: str) -> str | None:
    """Why ``engine`` cannot be run (an unknown back end or variant flag), or None."""
    name, *flags = engine.split("+")
    unknown = [f for f in flags if f not in FLAGS]
    if unknown:
        return f"--engines/--baseline: {engine!r}: unknown variant {'+'.join(unknown)!r}; " \
               f"the variants are +{', +'.join(FLAGS)}"
    if name != "default":
        try:
            get_backend(name)
        except Exception as e:  # BackendError and its kin: the message names the choices
            return f"--engines/--baseline: {engine!r}: {e}"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="+", default=["survey", "n-dom", "nonogram-db"])
    ap.add_argument("--engines", nargs="+", default=DEFAULT_ENGINES)
    ap.add_argument("--baseline", default="cpsat+dfa")
    ap.add_argument("--time-limit", type=float, default=30.0, help="per run, seconds (default 30)")
    ap.add_argument("--only", nargs="*", help="only puzzles whose file name contains one of these")
    args = ap.parse_args(argv)
    if not DATA.is_dir():
        return _bad_input(f"no nonogram data at {DATA} (set PUZZLESAT_SHARED)")
    known = sorted(d.name for d in DATA.iterdir() if d.is_dir())
    for s in args.sets:
        if s not in known or not any((DATA / s).rglob("*.non")):
            return _bad_input(f"--sets: no set {s!r} (no .non files in {DATA / s}); "
                              f"the sets are: {', '.join(known)}")
    if args.time_limit <= 0:
        return _bad_input(f"--time-limit: {args.time_limit} is not a positive number of seconds")
    for e in dict.fromkeys(args.engines + [args.baseline]):
        why = _check_engine(e)
        if why:
            return _bad_input(why)
    chosen = [f for f in files(args.sets) if not args.only or any(o in f.name for o in args.only)]
    if not chosen:
        return _bad_input(f"--only {' '.join(args.only)}: no puzzle in the sets {', '.join(args.sets)} matches")
    for o in args.only or ():
        if not any(o in f.name for f in chosen):
            print(f"nonograms.py: note: --only {o!r} matches no puzzle in the sets given", file=sys.stderr)
    engines = list(dict.fromkeys(args.engines + ([args.baseline] if args.baseline not in args.engines else [])))
    results: dict[tuple[str, str], dict] = {}
    rows = []
    for f in chosen:
        label = str(f.relative_to(DATA))
        p = load_puzzle(str(f))
        for e in engines:
            res = run_one(f, e, args.time_limit)
            results[(label, e)] = res
            print(f"{label:40s} {e:16s} first {fmt(res['first']):>6s}  decide {fmt(res['decide']):>6s}  "
                  f"{res['verdict']}" + (f" ({res['error']})" if res["error"] else ""), file=sys.stderr, flush=True)
        rows.append((label, f"{p.width}x{p.height}"))

    # one markdown table per measure: CPU seconds per puzzle and engine, then totals and ratios
    out = []
    for measure, title in (("decide", "CPU s to decide uniqueness (solve + prove no second solution)"),
                           ("first", "CPU s to the first solution")):
        out.append(f"\n### {title}\n")
        out.append("| puzzle | size | " + " | ".join(engines) + " |")
        out.append("|---|---|" + "---|" * len(engines))
        for label, size in rows:
            cells = []
            for e in engines:
                r = results[(label, e)]
                v = r[measure]
                # a run that failed is an error, not a time: never "> limit"
                cells.append(fmt(v) if v is not None else "error" if r["verdict"] == "error"
                             else "undecided" if r["verdict"] == "incomplete" else f"> {args.time_limit:g}")
            out.append(f"| {label} | {size} | " + " | ".join(cells) + " |")
        for s in args.sets:
            labels = [l for l, _ in rows if l.startswith(s + "/")]
            if not labels:
                continue
            tot = []
            for e in engines:
                rs = [results[(l, e)] for l in labels]
                done = [r[measure] for r in rs if r[measure] is not None]
                errors = sum(1 for r in rs if r[measure] is None and r["verdict"] == "error")
                timeouts = len(rs) - len(done) - errors
                extra = [f"+{timeouts} timeout{'s' * (timeouts != 1)}"] * bool(timeouts) + \
                    [f"+{errors} error{'s' * (errors != 1)}"] * bool(errors)
                tot.append(f"{sum(done):.2f}" + (f" ({', '.join(extra)})" if extra else ""))
            out.append(f"| **total {s}** | {len(labels)} | " + " | ".join(f"**{t}**" for t in tot) + " |")
        base = args.baseline
        ratios = []
        for e in engines:
            pairs = [(results[(l, e)][measure], results[(l, base)][measure]) for l, _ in rows]
            both = [(a, b) for a, b in pairs if a is not None and b is not None]
            if both:
                ratios.append(f"{sum(b for _, b in both) / max(1e-9, sum(a for a, _ in both)):.2f}x")
            else:
                ratios.append("—")
        out.append(f"| *speed-up vs {base}* (on puzzles both finish) | | " + " | ".join(ratios) + " |")
    # answers only: a timeout or a failed run gives none (the failures are listed)
    verdicts = {}
    for (label, e), r in results.items():
        if r["verdict"] not in ("timeout", "error", "incomplete"):
            verdicts.setdefault(label, set()).add(r["verdict"])
    bad = {l: v for l, v in verdicts.items() if len(v) > 1}
    failed = [(label, e, r["error"]) for (label, e), r in results.items() if r["verdict"] == "error"]
    out.append("")
    if bad:
        out.append(f"DISAGREEMENT: {bad}")
    elif failed:
        out.append(f"Verdicts of the runs that finished agree across engines; {len(failed)} "
                   f"run{'s' * (len(failed) != 1)} failed, with no verdict:")
    else:
        out.append("Verdicts agree across engines.")
    if failed:
        if bad:
            out.append(f"ERRORS: {len(failed)} run{'s' * (len(failed) != 1)} failed, with no verdict:")
        out += [f"- {label} {e}: {why}" for label, e, why in failed]
    print("\n".join(out))
    return 4 if bad or failed else 0


if __name__ == "__main__":
    sys.exit(main())
