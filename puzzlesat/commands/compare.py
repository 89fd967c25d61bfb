"""puzzlesat compare: the same job on several back ends and encodings, side by side.

Each run (instance x back end x encoding) is a child process -- this module
run with ``--worker`` -- in its own process group, given the time limit and
killed (the whole group: external solvers, Ganak's forked counter) when it
overruns it by a grace period.  A run reports the model's size, the time to
the first solution, the time to finish (solve: prove a solution or none;
count: the count) and the result; every solution a run finds is decoded and
verified by the family, as in ``solve`` and ``count``.

Agreement: per instance, every complete count (or solve verdict) must be the
same, and no incomplete count may exceed a complete one.  A disagreement is
printed loudly and the exit code is 4; a run stopped by the time limit makes
it 3 (the table is still complete as far as it goes), an engine that could
not start 2.  Every solution a run lists is verified, so a complete count
below what another run listed is the wrong one (:func:`_row_agrees`).
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from ..backends import BackendError, SolverFailed
from ..cli import EXIT_BAD_INPUT, EXIT_INCOMPLETE, EXIT_INTERNAL, EXIT_OK, emit_json
from ..cli import say as note
from ..encoders.cnf import DEFAULT_ENCODING, ENCODINGS
from ..errors import InputError, Terminated, UsageError, die_of_sigterm

NAME = "compare"
HELP = "run the same job on several back ends / encodings and tabulate size, time, count and agreement"
DEFAULT_TIME_LIMIT = 60.0
GRACE = 15.0  # seconds beyond the time limit for loading, encoding and a clean stop
NO_ENCODING = "-"


def add_arguments(p) -> None:
    from .common import positive_seconds, comma_list

    p.add_argument("instances", metavar="INSTANCE", nargs="+", help="puzzle files or bundled names")
    p.add_argument("--backends", "-b", metavar="LIST", type=comma_list,
                   help="comma-separated engines (default: cadical195,cpsat,exact and external:minisat, "
                        "external:cadical where installed; ganak too with --count)")
    # default None, not DEFAULT_ENCODING: an -e given is checked against the engines (plan)
    p.add_argument("--encodings", "-e", metavar="LIST", type=comma_list,
                   help=f"comma-separated CNF encodings for CNF engines (default {DEFAULT_ENCODING}; 'all')")
    job = p.add_mutually_exclusive_group()
    job.add_argument("--count", dest="job", action="store_const", const="count", help="count every solution")
    job.add_argument("--solve", dest="job", action="store_const", const="solve", help="find one solution (default)")
    p.add_argument("--time-limit", "-t", type=positive_seconds, default=DEFAULT_TIME_LIMIT, metavar="S",
                   help=f"per run (default {DEFAULT_TIME_LIMIT:g}); a run still going {GRACE:g} s later is killed")
    p.add_argument("--csv", metavar="FILE", nargs="?", const="-",
                   help="write the table as CSV (to FILE, or stdout without one)")
    p.add_argument("--plot", metavar="FILE.png", type=_plot_path,
                   help="draw the comparison (matplotlib; .png, .svg, .pdf, ...)")
    p.set_defaults(job="solve")


def _plot_path(s: str) -> str:
    """A file name whose suffix matplotlib can write (checked before any run)."""
    import argparse
    import os

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    kinds = FigureCanvasAgg.get_supported_filetypes()
    suffix = os.path.splitext(s)[1].lstrip(".").lower()
    if suffix not in kinds:
        raise argparse.ArgumentTypeError(f"{s!r}: a plot is written as one of {', '.join('.' + k for k in kinds)}")
    return s


# --------------------------------------------------------------- the parent


def default_backends(job: str) -> list[str]:
    names = ["cadical195", "cpsat", "exact"]
    names += [f"external:{s}" for s in ("minisat", "cadical") if shutil.which(s)]
    if job == "count":
        names.append("ganak")
    return names


def plan(instances, backends, encodings, job: str = "solve", encodings_given: bool = False) -> list[dict]:
    """The runs: every instance x back end, times every encoding for the
    engines that take one (CNF engines).  Refused here: a back end name
    that is no engine, one that cannot do the job, and ``encodings_given``
    (-e on the command line) when no engine takes an encoding (UsageErrors:
    the command line is at fault, whatever the puzzle); an engine that is
    not installed (InputError)."""
    from ..backends import BackendError, get_backend

    takes: dict[str, bool] = {}
    for b in backends:
        try:
            be = get_backend(b)
        except BackendError as e:
            raise (UsageError if isinstance(e, UsageError) else InputError)(f"--backends: {e}") from None
        if job == "solve" and not be.can_enumerate:
            raise UsageError(f"--backends: {b} only counts solutions, it cannot solve "
                             "(compare it with --count, or leave it out)")
        takes[b] = hasattr(be, "encoding")
    if encodings_given and not any(takes.values()):
        which = (f"backend {backends[0]!r} does not use" if len(backends) == 1 else
                 f"none of the backends {', '.join(map(repr, backends))} uses")
        raise UsageError(f"--encodings: {which} a CNF encoding; --encodings is for the CNF engines")
    runs = []
    for inst in instances:
        for b in backends:
            for e in (encodings if takes[b] else [NO_ENCODING]):
                runs.append({"instance": inst, "backend": b, "encoding": e})
    return runs


def run_one(spec: dict, job: str, time_limit: float, grace: float = GRACE) -> dict:
    """One run in a child process group; killed past time_limit + grace."""
    from ..backends.external import kill_group, sigterm_raises

    fd, out = tempfile.mkstemp(prefix="puzzlesat-cmp-", suffix=".json")
    os.close(fd)
    payload = json.dumps({**spec, "job": job, "time_limit": time_limit, "out": out, "parent": os.getpid()})
    argv = [sys.executable, "-m", "puzzlesat.commands.compare", "--worker", payload]
    t0 = time.perf_counter()
    row = {**spec, "job": job, "time_limit": time_limit}
    try:
        proc = None
        try:
            with sigterm_raises() as guard:  # the run, in a session of its own, dies with compare (below)
                with guard.held():  # a SIGTERM now is raised once proc is set
                    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.PIPE, start_new_session=True)
                _, err = proc.communicate(timeout=time_limit + grace)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            proc.communicate()
            row.update(status="killed", complete=False, wall=round(time.perf_counter() - t0, 3),
                       error=f"still running {grace:g} s after the {time_limit:g} s limit: killed")
            return row
        except BaseException:
            if proc is not None:
                kill_group(proc)
            raise
        row["wall"] = round(time.perf_counter() - t0, 3)
        try:
            with open(out) as f:
                row.update(json.load(f))
        except (OSError, ValueError):
            msg = err.decode(errors="replace").strip().splitlines()
            row.update(status="error", complete=False, solver_failed=True,  # (it died: out of memory, a signal)
                       error=(msg[-1] if msg else f"worker exited with code {proc.returncode}"))
        return row
    finally:
        os.unlink(out)


def agreement(rows: list[dict], job: str) -> dict:
    """Per instance: the agreed answer, or the disagreement."""
    out = {}
    for inst in dict.fromkeys(r["instance"] for r in rows):
        rs = [r for r in rows if r["instance"] == inst]
        invalid = [r for r in rs if r.get("status") == "invalid"]
        extra = {}
        if job == "count":
            done = {r["count"] for r in rs if r.get("complete")}
            lows = [r["count"] for r in rs if not r.get("complete") and r.get("count") is not None]
            agreed = next(iter(done)) if len(done) == 1 else None
            bad = len(done) > 1 or (agreed is not None and any(n > agreed for n in lows))
            answer = None if bad else agreed  # (a count in dispute is no answer, review)
            # a run that lists solutions verified each one (distinct, as its
            # engine enumerates them): a complete count below that many is
            # wrong, and the one complete count left standing is right
            proven = max((r["count"] for r in rs if r.get("listed") and r.get("count") is not None), default=0)
            extra = {"verified": proven, "standing": sorted(c for c in done if c >= proven)}
        else:
            verdicts = {r["result"] for r in rs if r.get("result") in ("solved", "no-solution")}
            bad = len(verdicts) > 1
            answer = next(iter(verdicts)) if len(verdicts) == 1 else None
        out[inst] = {"agree": not bad and not invalid, "disagree": bad, "answer": answer,
                     "invalid": [r["backend"] for r in invalid], **extra,
                     "detail": _detail(rs, job) if bad or invalid else None}
    return out


def _row_agrees(r: dict, a: dict, job: str) -> bool | None:
    """Whether the answered run ``r`` is right as far as its instance's
    agreement ``a`` can tell (None: it cannot tell): a run the verifier
    refused is wrong, and only it when the other answers agree (QA: one
    liar marked every verified run "NO <<<"); of solve verdicts in dispute
    a verified solution proves "no solution" wrong.  Of counts in dispute, a
    complete count below the solutions another run listed and verified is
    wrong; when one complete count is left standing, it is right, and so is
    a lower bound not above it; else every count is marked (none is proved),
    but a lower bound that fits every complete count, which says nothing.
    A lower bound with no complete count to agree with says nothing either
    (it said "yes", QA)."""
    if r.get("status") == "invalid":
        return False
    if job != "count":
        return not a["disagree"] or r.get("result") == "solved"
    complete = r.get("complete")
    if not a["disagree"]:
        return True if complete or a["answer"] is not None else None
    standing = a["standing"]
    if complete and r["count"] < a["verified"]:
        return False
    if len(standing) == 1:
        return r["count"] <= standing[0]
    if not complete and all(r["count"] <= c for c in standing):
        return None
    return False


def _answered(r: dict, job: str) -> bool:
    """Whether the run gave an answer: a verdict, or a count (a partial one
    is a lower bound, which can disagree), or one the verifier refused."""
    if r.get("status") == "invalid":
        return True
    if job == "count":
        return r.get("count") is not None
    return r.get("result") in ("solved", "no-solution")


def _detail(rs, job) -> str:
    """Each run's answer, for the MISMATCH line: a run without one (invalid,
    killed, failed) says which it was, not 'None (incomplete)'."""
    key = "count" if job == "count" else "result"

    def said(r) -> str:
        status = r.get("status")
        if status in ("invalid", "killed", "error", "interrupted"):
            return {"invalid": "INVALID (a wrong answer)", "killed": "KILLED",
                    "error": "ERROR", "interrupted": "INTERRUPTED"}[status]
        if status == "unsupported":
            return "n/a"
        value = r.get(key)
        return ("no answer" if value is None else str(value)) + ("" if r.get("complete") else " (incomplete)")
    return "; ".join(f"{r['backend']}{'' if r['encoding'] == NO_ENCODING else '/' + r['encoding']}: {said(r)}"
                     for r in rs)


def run(args) -> int:
    if args.csv == "-" and args.json:
        raise UsageError("--json and --csv without a file would both write to stdout")
    import argparse

    from .common import (check_writable, encoding_matters, load_untimed, no_cardinality_note, redraws_lines,
                         refuse_overwriting, same_file)

    if args.csv and args.csv != "-" and args.plot and same_file(args.csv, args.plot):
        raise UsageError(f"--csv and --plot both write to {args.plot}")  # (the table replaced the plot)

    check_writable("--plot", args.plot)
    check_writable("--csv", args.csv)

    problems = {}
    files: dict[str, str] = {}
    for inst in args.instances:
        # a bad name, a malformed file or a model that cannot be built fails
        # before anything runs, as bad input; what a reader read past is
        # said, as solve and count say it (the runs' own readers are silent)
        if inst in problems:  # its runs twice over, as a back end named twice
            raise UsageError(f"INSTANCE: {inst!r} is given twice")
        puzzle, problems[inst] = load_untimed(argparse.Namespace(instance=inst, command=args.command,
                                                                 json=args.json))
        same = files.setdefault(os.path.realpath(puzzle.path) if puzzle.path else inst, inst)
        if same != inst:  # a bundled name and its file's path
            raise UsageError(f"INSTANCE: {same!r} and {inst!r} are the same file")

    for opt, out in (("--plot", args.plot), ("--csv", args.csv)):
        refuse_overwriting(opt, out, *args.instances)
    backends = args.backends or default_backends(args.job)
    from ..backends.pysat_backend import canonical

    named: dict[str, str] = {}
    for b in backends:  # a PySAT alias and its solver's name (cd195, cadical195) would run it twice
        same = named.setdefault(canonical(b) or b, b)
        if same != b:
            raise UsageError(f"--backends: {same!r} and {b!r} name the same engine")
    given = args.encodings is not None
    encodings = list(ENCODINGS) if args.encodings == ["all"] else args.encodings or [DEFAULT_ENCODING]
    for e in encodings:
        if e not in ENCODINGS:
            raise UsageError(f"--encodings: unknown encoding {e!r}; choose from: {', '.join(ENCODINGS)}")
    runs = plan(args.instances, backends, encodings, args.job, encodings_given=given)
    if given and any(r["encoding"] != NO_ENCODING for r in runs):
        for inst, problem in problems.items():
            if not encoding_matters(problem):
                # its runs on one engine are runs of one CNF: one is made
                # (-e all ran a nonogram 10 times on each CNF engine, QA)
                note(no_cardinality_note(f"--encodings {','.join(args.encodings)}", inst)
                     + (" (one run per CNF engine)" if len(encodings) > 1 else ""))
                runs = [r for r in runs if r["instance"] != inst or r["encoding"] in (NO_ENCODING, encodings[0])]
    from ..jobs import fit_terminal

    rows = []
    quiet = args.json or args.csv == "-"
    interrupted = False
    for i, spec in enumerate(runs, 1):
        if not quiet and redraws_lines():
            line = f"[{i}/{len(runs)}] {spec['instance']} {spec['backend']} {spec['encoding']}"
            sys.stderr.write(f"\r{fit_terminal(line)}\x1b[K")
            sys.stderr.flush()
        try:
            rows.append(run_one(spec, args.job, args.time_limit))
        except KeyboardInterrupt:
            # the runs done so far are the answer (they were lost with the
            # Ctrl-C); the one running is marked, the rest are not run
            rows.append({**spec, "job": args.job, "time_limit": args.time_limit, "status": "interrupted",
                         "complete": False, "stopped_by": "interrupted", "error": "stopped by Ctrl-C"})
            interrupted = True
            break
    if not quiet and sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    if interrupted:
        note(f"puzzlesat: interrupted: {len(rows) - 1} of {len(runs)} runs done, "
             f"{len(runs) - len(rows)} not run")
    agree = agreement(rows, args.job)
    for r in rows:
        # a run with no result (an error, killed, an engine that cannot take
        # the problem, a search stopped with no answer) neither agrees nor
        # disagrees (QA: stopped runs said "yes" to an answer they never gave)
        r["agree"] = None if r.get("status") in NO_RESULT or not _answered(r, args.job) else \
            _row_agrees(r, agree[r["instance"]], args.job)
    mismatch = any(not a["agree"] for a in agree.values())
    incomplete = any(not r.get("complete") for r in rows if r.get("status") != "unsupported")
    if args.plot:
        plot(rows, args.job, args.time_limit, args.plot)
    if args.csv:
        write_csv(rows, args.csv)
    if args.json:
        emit_json({"job": args.job, "time_limit": args.time_limit, "runs": [_public(r) for r in rows],
                   "agreement": agree,
                   "mismatch": mismatch, "interrupted": interrupted, "runs_planned": len(runs)})
    elif args.csv != "-":
        print(table(rows, args.job))
        for inst, why in dict.fromkeys((r["instance"], r["precheck"]) for r in rows if r.get("precheck")):
            print(f"({inst} has no solution, known before any search: {why}; the engines ran all the same)")
        for inst, a in agree.items():
            if not a["agree"]:
                # a wrong answer, found by the verifier, is not a disagreement
                # between answers (it said "back ends disagree" for one liar)
                what = "back ends disagree" if a["disagree"] else (
                    f"{', '.join(dict.fromkeys(a['invalid']))} gave a wrong answer (refused by the verifier)")
                if a["disagree"] and args.job != "count":
                    liars = dict.fromkeys(r["backend"] for r in rows
                                          if r["instance"] == inst and r.get("result") == "no-solution")
                    what = f"{', '.join(liars)} said no solution, but a solution was found and verified"
                elif a["disagree"]:
                    mine = [r for r in rows if r["instance"] == inst]
                    low = dict.fromkeys(r["backend"] for r in mine if r.get("complete") and r["count"] < a["verified"])
                    if low:
                        listers = dict.fromkeys(r["backend"] for r in mine
                                                if r.get("listed") and r.get("count") == a["verified"])
                        what = (f"{', '.join(low)} counted fewer than the {a['verified']:,} solutions "
                                f"{', '.join(listers)} listed and verified")
                print(f"\n!!! MISMATCH on {inst}: {a['detail']}", file=sys.stderr)
                print(f"!!! MISMATCH on {inst}: {what}")
        if args.plot:
            print(f"plot written to {args.plot}", file=sys.stderr)
    if mismatch or any(r.get("solver_failed") for r in rows):
        return EXIT_INTERNAL  # as solve and count say a wrong answer or a solver that failed
    if any(r.get("bad_input") for r in rows):
        return EXIT_BAD_INPUT  # an engine that could not take its run, as solve says it
    return EXIT_INCOMPLETE if incomplete or interrupted else EXIT_OK


# ----------------------------------------------------------------- output

#: run statuses with no result to agree or disagree with
NO_RESULT = ("error", "killed", "unsupported", "interrupted")

COLUMNS = ("instance", "backend", "encoding", "variables", "clauses", "first_s", "total_s", "result", "count",
           "agree")


def _fmt_s(x) -> str:
    return "-" if x is None else f"{x:.3f}"


def _fmt_n(x) -> str:
    """A size, or "-" when there is none (0 is a size: a model of no variable)."""
    return "-" if x is None else str(x)


def _cells(r, job) -> list[str]:
    if r.get("status") in ("killed", "error", "interrupted"):
        res = {"killed": "KILLED", "error": "ERROR", "interrupted": "INTERRUPTED"}[r["status"]]
    elif r.get("status") == "invalid":
        res = "INVALID"
    elif r.get("status") == "unsupported":
        res = "n/a"
    else:
        res = r.get("result", "?")
        if res == "unknown" and r.get("stopped_by") not in (None, "time-limit"):
            res += f" ({r['stopped_by']})"  # as a count's "stopped (...)" says
    count = r.get("count")
    if job == "count":
        cnt = "-" if count is None else (str(count) if r.get("complete") else f">={count}")
    else:
        cnt = "-"
    total = r.get("total_s")
    if r.get("status") in ("error", "unsupported", "invalid"):
        total_s = "-"
    elif _ran_out(r):
        total_s = f">{r.get('time_limit') or 0:g}"
    else:  # done, or stopped early for another reason (a solver that gave up)
        total_s = _fmt_s(total)
    return [os.path.basename(r["instance"]), r["backend"], r["encoding"], _fmt_n(r.get("variables")),
            _fmt_n(r.get("clauses")), _fmt_s(r.get("first_s")), total_s,
            res, cnt, "-" if r["agree"] is None else "yes" if r["agree"] else "NO <<<"]


def _ran_out(r) -> bool:
    """Whether the time limit ended the run (killed at it, or stopped by
    it): its time is "more than the limit", not when it stopped."""
    return not r.get("complete") and r.get("status") != "interrupted" and (
        r.get("status") == "killed" or r.get("stopped_by") == "time-limit" or r.get("total_s") is None)


def table(rows, job) -> str:
    head = ["instance", "backend", "encoding", "vars", "clauses", "first (s)",
            "solve (s)" if job == "solve" else "count (s)", "result", "count", "agree"]
    body = [_cells(r, job) for r in rows]
    w = [max(len(x) for x in col) for col in zip(head, *body)]
    right = {3, 4, 5, 6, 8}
    lines = []
    for i, row in enumerate([head] + body):
        lines.append("  ".join(c.rjust(w[j]) if j in right else c.ljust(w[j]) for j, c in enumerate(row)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * x for x in w))
    errs = [r for r in rows if r.get("error")]
    for r in errs:
        enc = "" if r["encoding"] == NO_ENCODING else f" {r['encoding']}"
        lines.append(f"note: {r['instance']} {r['backend']}{enc}: {r['error']}")
    return "\n".join(lines)


def _public(r: dict) -> dict:
    """A run as --json and --csv give it: an engine without a CNF encoding
    has encoding null (empty in CSV), not the table's "-" (QA)."""
    return {**r, "encoding": None} if r.get("encoding") == NO_ENCODING else r


def write_csv(rows, path) -> None:
    fields = ["instance", "backend", "encoding", "job", "variables", "clauses", "constraints", "first_s",
              "total_s", "wall", "result", "count", "complete", "stopped_by", "agree", "status", "error"]
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(_public(r))
    if path == "-":
        sys.stdout.write(buf.getvalue())
        return
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(buf.getvalue())
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror}", path) from None


def plot(rows, job, time_limit, path) -> None:
    """One panel per instance: a bar per run, time to finish (log scale),
    the time to the first solution as a marker; stopped runs hatched at the
    limit, disagreeing runs in red."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    insts = list(dict.fromkeys(r["instance"] for r in rows))
    fig, axes = plt.subplots(len(insts), 1, figsize=(max(6.0, 0.9 * max(
        sum(1 for r in rows if r["instance"] == i) for i in insts) + 2), 3.2 * len(insts) + 0.4), squeeze=False,
                             layout="constrained")
    for ax, inst in zip(axes[:, 0], insts):
        rs = [r for r in rows if r["instance"] == inst]
        labels, heights, colors, hatches, firsts = [], [], [], [], []
        for r in rs:
            lab = r["backend"].replace("external:", "ext:")
            if r["encoding"] != NO_ENCODING:
                lab += "\n" + r["encoding"]
            labels.append(lab)
            done = r.get("complete")
            if r.get("status") == "unsupported":
                t = 1e-3
            else:
                t = time_limit if _ran_out(r) else r.get("total_s")
            # (a run of 0.000 s was drawn up to the limit: `0.0 or time_limit`, QA)
            heights.append(time_limit if t is None else max(t, 1e-3))
            colors.append("#d62728" if r["agree"] is False else ("#1f77b4" if done else "#bbbbbb"))
            hatches.append("" if done else "//")
            firsts.append(r.get("first_s"))
        xs = range(len(rs))
        bars = ax.bar(xs, heights, color=colors, edgecolor="black", linewidth=0.5)
        for b, h in zip(bars, hatches):
            b.set_hatch(h)
        for x, f in zip(xs, firsts):
            if f is not None and job == "count":
                ax.plot([x], [max(f, 1e-3)], marker="v", color="black", markersize=7)
        for x, r, h in zip(xs, rs, heights):
            txt = _bar_text(r, job)
            ax.annotate(txt, (x, h), ha="center", va="bottom", fontsize=7, xytext=(0, 2), textcoords="offset points")
        ax.set_yscale("log")
        ax.axhline(time_limit, color="grey", linestyle=":", linewidth=1)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("seconds (log)")
        disagree = any(r["agree"] is False for r in rs)
        what = "count" if job == "count" else "solve"
        ax.set_title(f"{inst}: time to {what}" + ("  -- BACK ENDS DISAGREE" if disagree else ""),
                     fontsize=10, color="#d62728" if disagree else "black")
        ax.set_ylim(top=time_limit * 3)
    handles = [Patch(facecolor="#1f77b4", label="finished"),
               Patch(facecolor="#bbbbbb", hatch="//", label=f"stopped at the {time_limit:g} s limit"),
               Patch(facecolor="#d62728", label="disagrees")]
    if job == "count":
        from matplotlib.lines import Line2D

        handles.append(Line2D([], [], marker="v", color="black", linestyle="", label="first solution"))
    # below the panels, where it covers no bar or label
    fig.legend(handles=handles, fontsize=7, loc="outside lower center", ncol=len(handles))
    try:
        fig.savefig(path, dpi=110)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror}", path) from None
    finally:
        plt.close(fig)


def _bar_text(r, job) -> str:
    if r.get("status") in ("killed", "error", "invalid", "interrupted"):
        return r["status"]
    if r.get("status") == "unsupported":
        return "n/a"
    if job == "count":
        n = r.get("count")
        if n is None:
            return "no count" if r.get("stopped_by") else "?"
        return str(n) if r.get("complete") else f">={n}"
    return {"solved": "sat", "no-solution": "unsat"}.get(r.get("result"), r.get("result", "?"))


# ----------------------------------------------------------------- the worker


def worker(spec: dict) -> dict:
    """One run in this process: sizes, time to first solution, time to finish."""
    from .. import jobs
    from ..backends import get_backend
    from ..encoders.cnf import cnf_size
    from ..errors import VerificationError, plural
    from ..loading import load_puzzle

    t0 = time.perf_counter()
    puzzle = load_puzzle(spec["instance"])
    problem = puzzle.compile()
    compile_s = time.perf_counter() - t0
    enc_name = spec["encoding"]
    be = get_backend(spec["backend"], encoding=None if enc_name == NO_ENCODING else enc_name)
    if enc_name != NO_ENCODING and getattr(be, "encoding", enc_name) != enc_name:
        be = type(be)(encoding=enc_name)  # registry engines (ganak) take the encoding as an option
    out = {"compile_s": round(compile_s, 4), "time_limit": spec["time_limit"], "constraints": len(problem.constraints)}
    if enc_name != NO_ENCODING:
        # counted, not built: the engine builds its own CNF (a second copy in
        # memory, and the time of a pairwise one, for two numbers)
        n_vars, n_clauses, _ = cnf_size(problem, enc_name)
        out.update(variables=n_vars, clauses=n_clauses)
    else:
        out.update(variables=problem.n_vars, clauses=None)
    why = be.supports(problem)
    if why:
        return {**out, "status": "unsupported", "result": "n/a", "complete": None,
                "error": f"cannot take this problem: {why}"}
    # the engines run also where the puzzle's own check knows there is no
    # solution, as for a mutilated chessboard (compare measures the engines:
    # it gave every one "no solution" in 0.000 s, QA); the reason is said
    reason = puzzle.precheck()
    if reason:
        out["precheck"] = reason
    limit = spec["time_limit"]
    first = [None]
    start = time.perf_counter()
    try:
        if spec["job"] == "solve":
            r = be.solve(problem, time_limit=limit)
            total = time.perf_counter() - start
            if r.status.value == "solved":  # no assignment is as bad as a wrong one
                jobs.decode_verified(puzzle, problem, r.assignment, be.name)
            elif r.status.value == "no-solution":  # refuted by a verified goal, as solve refuses it
                jobs.refuse_none(puzzle, problem, be.name)
            return {**out, "status": "ok", "result": r.status.value, "complete": r.status.value != "unknown",
                    "stopped_by": r.stopped_by if r.status.value == "unknown" else None,
                    "first_s": round(total, 4) if r.assignment is not None else None, "total_s": round(total, 4),
                    "count": None}

        def on_solution(sol):
            if first[0] is None:
                first[0] = time.perf_counter() - start
            jobs.decode_verified(puzzle, problem, sol, be.name)

        r = be.search(problem, time_limit=limit, on_solution=on_solution if be.can_enumerate else None)
        total = time.perf_counter() - start
        if r.complete and r.count == 0:  # as count refuses it
            jobs.refuse_none(puzzle, problem, be.name)
        if r.complete and r.count and reason:  # (a model counter's count is checked no other way)
            raise VerificationError(f"{be.name} counted {plural(r.count, 'solution')}, but there is none: {reason}")
        # a stopped model counter has no partial count (its 0 is no lower bound worth showing)
        partial = r.complete or be.can_enumerate
        return {**out, "status": "ok", "listed": bool(be.can_enumerate),  # (each solution verified: on_solution)
                "result": "counted" if r.complete else f"stopped ({r.stopped_by})" + ("" if partial else ", no count"),
                "complete": r.complete, "stopped_by": r.stopped_by, "count": r.count if partial else None,
                "first_s": None if first[0] is None else round(first[0], 4), "total_s": round(total, 4)}
    except VerificationError as e:
        return {**out, "status": "invalid", "complete": False, "error": str(e)}
    except SolverFailed as e:  # the row keeps the model's size (it showed "-")
        return {**out, "status": "error", "complete": False, "error": str(e), "solver_failed": True}


def _worker_main(argv) -> int:
    spec = json.loads(argv[1])
    from ..backends.base import die_with_parent

    die_with_parent(spec.get("parent"))  # its own session: compare's Ctrl-C and SIGTERM do not reach it, SIGKILL too
    try:
        row = worker(spec)
    except Terminated:  # compare stopped this run: its outside solver is killed
        die_of_sigterm()
        raise
    except SolverFailed as e:  # a crash: exit 4 for the whole compare, as for solve
        row = {"status": "error", "complete": False, "error": str(e), "solver_failed": True}
    except (InputError, BackendError) as e:  # said as the commands say it, exit 2 as theirs (an
        # external: file that is no program this machine runs: it was exit 3, as if the time limit, QA)
        row = {"status": "error", "complete": False, "error": str(e), "bad_input": True}
    except Exception as e:  # reported in the table, never a traceback in the parent
        row = {"status": "error", "complete": False, "error": f"{type(e).__name__}: {e}", "solver_failed": True}
    with open(spec["out"], "w") as f:
        json.dump(row, f, default=str)
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--worker":
        sys.exit(_worker_main(sys.argv[1:]))
    sys.exit(EXIT_BAD_INPUT)
