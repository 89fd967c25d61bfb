"""puzzlesat count: count all solutions, or those distinct up to symmetry."""

from __future__ import annotations

import os
import sys
import time

from .. import jobs
from ..cli import EXIT_INCOMPLETE, EXIT_OK, emit_json, use_color
from ..cli import say as note
from ..errors import BuildTimeLimit, UsageError, plural
from .common import (add_backend_options, add_color_option, add_goal_option, add_instance, add_preprocess_option,
                     add_progress_option, backend_for, before_search, load, no_engine_note, positive_int,
                     steps_before_search, wants_progress)

NAME = "count"
#: the cores this process may run on (a container's or taskset's, not the machine's)
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
HELP = "count solutions (--unique: up to the board's symmetries)"


def add_arguments(p) -> None:
    add_instance(p)
    add_backend_options(p, "count")
    add_color_option(p)
    add_preprocess_option(p)
    add_goal_option(p)
    p.add_argument("--unique", "-u", action="store_true",
                   help="count solutions distinct up to the puzzle's symmetries (rotations, reflections)")
    p.add_argument("--limit", "-n", type=positive_int, metavar="N", help="stop after N solutions")
    p.add_argument("--show", type=_shown, nargs="?", const=2, default=0, metavar="K",
                   help="print the first K solutions found (default K=2)")
    where = p.add_mutually_exclusive_group()
    # default None, not the core count: argparse would not see a -j equal to its default beside --cluster
    where.add_argument("--jobs", "-j", type=_jobs, metavar="N",
                       help=f"count large problems as sub-problems in N worker processes (default: all {CORES} cores)")
    where.add_argument("--cluster", metavar="ADDRESS",
                       help="count the sub-problems on the workers of a Dask scheduler instead, e.g. tcp://host:8786 "
                            "(every worker needs this puzzlesat installed; see README)")
    add_progress_option(p)


#: the most worker processes --jobs starts (each is a fork of this process)
MAX_JOBS = 256


def _jobs(s: str) -> int:
    import argparse

    n = positive_int(s)
    if n > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"at most {MAX_JOBS} worker processes: {s!r} (this machine has {CORES} cores)")
    return n


def _shown(s: str) -> int:
    """--show's K; an instance's name or file given as K is the instance,
    which an option with an optional value takes when it comes first."""
    import argparse
    import shlex

    try:
        return positive_int(s)
    except argparse.ArgumentTypeError as e:
        from ..loading import bundled

        if not (os.path.exists(s) or s in bundled()):  # (a word that is no instance: the plain message)
            raise
        raise argparse.ArgumentTypeError(f"{e}: --show takes the word after it as its K; put the instance "
                                         f"first (puzzlesat count {shlex.quote(s)} --show), or give K") from None


def run(args) -> int:
    puzzle, problem = load(args, precheck=True)  # (None: its counts show there is no solution)
    # the few solutions --show prints need no enumerating engine for the count
    listing = args.limit is not None
    with before_search(args, "checking and choosing an engine for",
                       steps_before_search(args, "choosing an engine")):
        prechecked = bool(puzzle.precheck())
        if prechecked:
            # no engine is called (jobs.count says why): choosing one took seconds
            # on a large board (the determinant's plan, Knuth's estimate); an
            # engine given is not asked whether it takes the problem (the
            # determinant refused a board whose area the pieces miss, exit 2,
            # where every other engine said 0 solutions)
            backend = jobs.get_backend(args.backend or jobs.DEFAULT_SOLVE_BACKEND, encoding=args.encoding)
            choice = None
        elif args.backend is None:
            backend, choice = jobs.choose_count_backend(problem, args.encoding, listing=listing, unique=args.unique)
        else:
            backend, choice = backend_for(args, problem, "count"), None
    if args.no_goal and getattr(puzzle, "goal", None) is not None and (args.unique or not backend.can_enumerate):
        # (jobs.count starts from the goal only in a plain count by an engine that lists solutions)
        # (the verified goal is one solution: a stopped count's "at least 1", unless --no-goal)
        why = ("a count up to symmetry (--unique)" if args.unique
               else f"{backend.name}, which counts without listing solutions,")
        note(f"puzzlesat: note: --no-goal: {why} never starts from the goal; here it only keeps the goal out "
             "of the lower bound a stopped count gives")
    if args.jobs is not None and args.jobs > 1 and not backend.splits_pay and not args.cluster:
        # (said as the cluster's line says it; -j 1 asks for what happens anyway)
        note(f"puzzlesat: note: --jobs {args.jobs} has no effect: {backend.name} counts the whole at once "
             "(its parts together cost more than the whole)")
    elif args.jobs is not None and args.jobs > CORES and not prechecked:  # (no count runs at all)
        # (-j 256 took 25.6 s where -j 2 took 1.6 s on two cores, without a word: QA)
        note(f"puzzlesat: note: --jobs {args.jobs} is more than the {plural(CORES, 'core')} it may run on: worker "
             "processes beyond those take turns on them (a split count is slower, not faster)")
    progress = wants_progress(args)
    # (--limit 1 or 2 shows what it found, unless --show says how many: QA)
    n_shown = args.show or (2 if args.limit and args.limit <= 2 else 0)
    if args.color == "always" and not n_shown and not args.json and getattr(puzzle, "renders_color", True):
        # (with --json, or for a family drawn without colours, load said so)
        note("puzzlesat: warning: --color always has no effect: count draws no solution without --show "
             "(or --limit 1 or 2)")
    cluster = None
    if args.cluster is not None and not args.cluster.strip():  # (it counted here without a word, QA)
        raise UsageError("--cluster: the scheduler's address is empty (such as tcp://HOST:8786)")
    if args.cluster:
        from ..cluster import CONNECT_TIMEOUT, Cluster, Unreached

        if progress:
            print(f"connecting to the Dask scheduler at {args.cluster} ...", file=sys.stderr, flush=True)
        # under a time limit, in the time left (it took its own 10 s past -t 2, QA)
        with before_search(args, f"connecting to the Dask scheduler at {args.cluster} to count",
                           steps_before_search(args, "choosing an engine", "connecting to the cluster"),
                           alarm=False) as ran_out:
            timeout = CONNECT_TIMEOUT if ran_out is None else min(CONNECT_TIMEOUT, args.time_limit)
            start = time.monotonic()
            try:
                cluster = Cluster(args.cluster, timeout=timeout)
            except Unreached as e:
                # (Dask gives up a little before the timeout it is given; a
                # worker running other code is no time limit's doing)
                if ran_out is not None and timeout < CONNECT_TIMEOUT and time.monotonic() - start >= 0.9 * timeout:
                    raise BuildTimeLimit(f"{ran_out} ({e})") from None
                raise
    try:
        # only the solutions shown are kept (a count of millions lists none of the rest)
        out = jobs.count(puzzle, backend, unique=args.unique, limit=args.limit, time_limit=args.time_limit,
                         # (--limit 1 or 2 prints what it found, as --show 2: a counter's come from an
                         # engine that lists them, as for --show; it said that it could not show them, QA)
                         keep=bool(args.show) or (args.limit is not None and args.limit <= 2),
                         keep_at_most=n_shown, progress=progress,
                         problem=problem, jobs=args.jobs or CORES, use_known=not args.no_goal,
                         may_switch=args.backend is None, cluster=cluster)
    finally:
        if cluster is not None:
            cluster.close()
    shown = out.solutions[:n_shown]
    if out.method in (jobs.UNITS, "precheck"):
        no_engine_note(args, precheck=out.method == "precheck")
    # the job may have handed over to another engine; a precheck called none
    choice = None if out.method == "precheck" else out.choice or choice
    # a counter (Ganak, a determinant) stopped before it finished knows no count at all
    no_count = not out.complete and out.count == 0 and not backend.can_enumerate
    exp = puzzle.expected.get("unique" if args.unique else "count")
    # (a warning, as solve and decode say it, and in --json's warnings: it was
    # a "note:" in the text alone, QA)
    if exp is not None and out.complete and exp != out.count:
        note(f"puzzlesat: warning: the instance file expects {exp:,}; the count is {out.count:,}")
    elif exp is None and out.complete and out.count == 0 and (some := jobs.expected_some(puzzle, args.unique)):
        # (only the other kind of count stated: none contradicts it too)
        note(f"puzzlesat: warning: the instance file expects {some}; the count is 0")
    if args.json:
        if problem is None:  # (not compiled: the counts showed no solution)
            symmetries = None
        elif out.method == "precheck":
            # a piece that fits nowhere leaves no placement for the symmetries
            # to permute (1); the board's own that map the pieces onto pieces
            symmetries = puzzle.info(problem).get("piece_symmetries") or len(problem.symmetries)
        else:
            symmetries = len(problem.symmetries)
        emit_json({
            "instance": args.instance, "title": puzzle.title, "family": puzzle.family,
            # "unique" is the --unique option (counted up to symmetry), kept for
            # scripts that read it; "up_to_symmetry" says the same plainly, next
            # to "verdict", which says whether the puzzle's solution is unique
            "count": None if no_count else out.count, "unique": args.unique, "up_to_symmetry": args.unique,
            "complete": out.complete,
            "stopped_by": out.stopped_by, "backend": out.backend, "backend_choice": choice,
            "method": out.method,
            "seconds": round(out.seconds, 6), "symmetries": symmetries,
            "jobs": None if cluster else args.jobs or CORES, "subproblems": out.subproblems,
            "cluster": None if cluster is None else {"address": cluster.address, "workers": cluster.workers,
                                                      "threads": cluster.threads, "tasks": cluster.tasks},
            "implied_constraints": out.implied,
            "expected": puzzle.expected.get("unique" if args.unique else "count"),
            "reason": out.reason,
            # the whole count a counter found, where --limit capped "count"
            "count_without_limit": out.whole,
            "verdict": _verdict(out, args.unique and problem is not None and len(problem.symmetries) > 1),
            "solutions": [puzzle.solution_json(s) for s in shown],
        })
    else:
        what = ("solution" if out.count == 1 else "solutions") + (" up to symmetry" if args.unique else "")
        if out.complete:
            line = f"{out.count} {what}"
            if out.count == 1 and not (args.unique and len(problem.symmetries) > 1):
                # (one class of symmetric solutions may hold several: a
                # nonogram and its mirror image are not a unique puzzle)
                line += " (unique)"
        elif no_count:
            line = (f"no count: {out.backend} was {_stopped(out.stopped_by)} before it finished "
                    f"(a {'determinant' if backend.count_method == 'determinant' else 'model counter'} "
                    "has no partial count)")
        else:
            line = f"at least {out.count} {what}, incomplete ({_stopped(out.stopped_by)})"
        if args.limit is not None and _verdict(out) == "multiple":
            line += ": not unique"
        if out.whole is not None:  # (found whole before the limit applied: dropping it said less than known)
            line += f"; {out.backend} counted {out.whole:,} in all"
        if out.reason:
            line += f": {out.reason}"
        sym = (f", {plural(len(problem.symmetries), 'symmetry', 'symmetries')}" if args.unique and problem is not None
               else "")
        implied = f", {out.implied} implied constraints added" if out.implied else ""
        if out.method == "precheck":
            print(f"{line}\n(no solver called)")
        elif out.backend is None:  # (the model's units fixed it all)
            print(f"{line}\n{jobs.UNITS_SAID}{sym}, {out.seconds:.3f} s")
        else:
            print(f"{line}\n{out.backend}, {out.method}{sym}{implied}, {out.seconds:.3f} s")
        if choice:
            print(f"({out.backend} chosen: {choice})")
        if cluster is not None:
            if cluster.tasks:
                print(f"{cluster.tasks} sub-problems sent to the Dask cluster at {cluster.describe()}")
            elif out.method == jobs.UNITS:
                print(f"counted here, not on the cluster at {cluster.address}: nothing to search (the model's "
                      "unit clauses fix every variable)")
            elif not backend.splits_pay:
                print(f"counted here, not on the cluster at {cluster.address}: nothing was split ({out.backend} "
                      "counts the whole at once: its parts together cost more than the whole)")
            elif out.stopped_by == "interrupted":  # (before any was sent: neither reason below held, QA)
                print(f"nothing sent to the cluster at {cluster.address}: the count was stopped before any "
                      "sub-problem was")
            else:
                print(f"counted here, not on the cluster at {cluster.address}: nothing was split (problems with "
                      f"fewer than {jobs.PARALLEL_MIN_VARS} primary variables, or few solutions by a quick bound, "
                      "the runs of a count up to symmetry that list the solutions they weigh, and searches that "
                      "start from a known solution, are not)")
        for i, s in enumerate(shown, 1):
            print(f"\nsolution {i}:\n{puzzle.render_text(s, color=use_color(args))}")
        if n_shown and not shown and out.listing_stopped:
            # (it said the counter could not list them, when the listing was stopped, QA)
            print(f"(no solution shown: listing them after {out.backend}'s count was {_stopped(out.listing_stopped)})")
    return EXIT_OK if out.complete else EXIT_INCOMPLETE


def _stopped(why: str | None) -> str:
    """'stopped by the time limit', ... for a count's stopped_by."""
    return {"time-limit": "stopped by the time limit", "interrupted": "interrupted (Ctrl-C)",
            "limit": "stopped at --limit"}.get(why, f"stopped ({why})")


def _verdict(out, classes: bool = False) -> str | None:
    """'none', 'unique' or 'multiple' when the count settles whether the
    puzzle has one solution (e.g. --limit 2).  ``classes``: the count is of
    classes of symmetric solutions, under a group that moves something: one
    class may hold one solution or several, so 1 settles nothing."""
    # (a counter's whole count, found before --limit applied, settles it too:
    # --limit 1 said nothing where 5 were known, QA)
    n, complete = (out.whole, True) if out.whole is not None else (out.count, out.complete)
    if complete and n <= 1:
        if n == 1 and classes:
            return None
        return "none" if n == 0 else "unique"
    if n >= 2:
        return "multiple"
    return None
