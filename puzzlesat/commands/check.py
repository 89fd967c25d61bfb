"""puzzlesat check: the report a nonogram designer wants.

Is there a solution, is it unique (a search for two), can line logic alone
solve it (the fixpoint of Kikuchi's line rule, background.md section 3), how
many cells line logic fixes (or where it finds the lines contradict each
other), and, when the file has a goal picture, whether the solution found is
that picture: with two solutions listed, which of them is (``goal_solution``,
1-based, in the JSON; ``matches_goal`` is true when either is).  ``--steps``
shows the line-solving rounds as partial grids, the one that hits a
contradiction included.
"""

from __future__ import annotations

import sys

from .. import jobs
from ..cli import EXIT_INCOMPLETE, EXIT_NO_SOLUTION, EXIT_OK, emit_json, use_color
from ..cli import Switch
from ..cli import say as note
from ..errors import BuildTimeLimit
from .common import (add_backend_options, add_color_option, add_goal_option, add_instance, add_progress_option,
                     backend_for, load, no_engine_note, wants_progress)
from .count import _stopped

NAME = "check"
HELP = "nonograms: solvable? unique? solvable by line logic alone? matches its goal?"
DESCRIPTION = (HELP + " Uniqueness is decided by a search for two solutions on the chosen back end "
               "(a goal picture in the file, once verified, is the first; see --no-goal); "
               "line logic is the fixpoint of the rule 'a cell is fixed when every placement of its "
               "line consistent with the known cells agrees on it'.")


def add_arguments(p) -> None:
    add_instance(p)
    add_backend_options(p, "check")
    add_color_option(p)
    p.add_argument("--steps", action="store_true", help="print each line-solving round as a partial grid")
    p.add_argument("--preprocess", action=Switch, default=None,
                   help="give the back end the cells line logic fixes as unit clauses, and only the block "
                        "starts that agree with them (the default; --no-preprocess: the clues as stated)")
    add_goal_option(p)
    add_progress_option(p)


def run(args) -> int:
    # reading, line solving and compiling count against -t, as for solve and
    # count; when line logic fixes every cell there is nothing to search, and
    # nothing is compiled (17 of the 19 s of a 200,001-cell row).  The
    # preprocessing compiles with the same fixpoint, not a second one.
    seen = []  # the puzzle, once read: a time limit that stops what follows still shows its rounds

    def line_solve(p):
        seen.append(p)
        return p.line_solved(record=args.steps)

    try:
        puzzle, problem, lines = load(args, family="nonogram", then=line_solve, compile_unless=_solved_by_lines)
    except (BuildTimeLimit, KeyboardInterrupt) as e:
        if seen:
            _said_before_stop(seen[0], e, args)
        raise
    searched = problem is not None
    if searched:
        # (its search is a count to two: one engine, not solve's race)
        backend = backend_for(args, problem, "check")
        out = jobs.count(puzzle, backend, limit=2, keep=True, time_limit=args.time_limit, problem=problem,
                         progress=wants_progress(args), use_known=not args.no_goal,
                         may_switch=args.backend is None)
        if out.method == "precheck":
            no_engine_note(args, precheck=True)
    else:
        # _solved_by_lines: the grid, checked by the family's verifier below
        unused = " and ".join(f"{o} {v}" for o, v in (("--backend", args.backend), ("--encoding", args.encoding))
                              if v is not None)
        if unused:
            note(f"puzzlesat: note: line logic alone solves {args.instance}: no search, so {unused} "
                 f"{'is' if ' and ' not in unused else 'are'} not used")
        out = jobs.CountOutcome(1, True, False, None, 0.0, method="line logic")
    found = out.count
    if out.reason:  # impossible before solving (row and column sums differ)
        solvable, unique = False, False
    elif out.complete:
        solvable, unique = found >= 1, found == 1
    else:
        solvable = True if found >= 1 else None
        unique = False if found >= 2 else None
    if lines.contradiction:
        puzzle.line_contradiction()  # (a verified goal proves line logic wrong, as it does an engine)
        solvable, unique = False, False
    first = out.solutions[0] if out.solutions else None
    by_lines = not searched
    if by_lines:
        # every cell forced by line logic, each step sound: this grid (checked
        # by the family's verifier) is the one solution, whatever the search did
        first = tuple(tuple(int(v) for v in row) for row in lines.grid)
        puzzle.verify(first)
        solvable, unique = True, True
    listed = out.solutions[:2] or ([first] if first is not None else [])  # the solutions the report shows
    goal_at = None  # which of them (1-based) is the goal
    if puzzle.goal is None:
        matches = None
    elif listed:
        goal_at = next((k for k, s in enumerate(listed, 1) if puzzle.matches_goal(s)), None)
        matches = goal_at is not None
    else:  # no solution to compare: known not to match only when there is none
        matches = None if solvable is None else False
    report = {
        "instance": args.instance, "title": puzzle.title, "family": puzzle.family,
        "width": puzzle.width, "height": puzzle.height,
        "solvable": solvable, "unique": unique,
        "line_solvable": lines.solved, "cells_fixed_by_lines": lines.fixed, "cells": lines.cells,
        "line_rounds": len(lines.rounds), "line_contradiction": lines.contradiction_at,
        "matches_goal": matches, "goal_solution": goal_at,
        "backend": out.backend, "backend_choice": out.choice,
        "seconds": round(out.seconds, 6), "complete": out.complete,
        "stopped_by": out.stopped_by, "preprocess": puzzle.preprocess, "reason": out.reason,
        "searched": searched and out.method != "precheck",  # (sums that differ: no engine was called)
        "solutions": [puzzle.solution_json(s) for s in listed],
        "unique_by_line_logic": by_lines,
    }
    if args.steps:
        report["steps"] = _steps_json(lines)
    if args.json:
        emit_json(report)
    else:
        _print(puzzle, report, lines, out, args)
    if solvable is False:
        return EXIT_NO_SOLUTION
    return EXIT_OK if solvable and unique is not None else EXIT_INCOMPLETE


def _solved_by_lines(lines) -> bool:
    """Line logic fixed every cell, each step sound, with no contradiction:
    that grid is the one solution, and a search for two has nothing to add
    (a 200,001-cell row line logic solves at once ran a CaDiCaL search to the
    time limit)."""
    return lines.solved and not lines.contradiction


def _steps_json(lines) -> list[dict]:
    from ..models.nonogram import render

    return [{"lines": r.lines, "fixed": r.fixed, "grid": render.plain(r.grid).splitlines(),
             "contradiction": r.contradiction} for r in lines.rounds]


def _print_steps(lines) -> None:
    from ..models.nonogram import render
    from ..errors import number, plural

    total = 0
    for k, r in enumerate(lines.rounds, 1):
        total += r.fixed
        print(f"round {k} ({r.lines}): {plural(r.fixed, 'cell')} fixed, {number(total)} of {number(lines.cells)} known")
        print(render.plain(r.grid))
        if r.contradiction:
            print(f"contradiction: no placement of {r.contradiction}'s clue fits its known cells, "
                  "so there is no solution")
        print()


def _said_before_stop(puzzle, stop: BaseException, args) -> None:
    """What check knows when the time limit or Ctrl-C stops it before any
    search: with ``--steps`` the line-solving rounds finished by then (all of
    them, when it was compiling that ran out), and once line solving has
    ended, its verdict (line solvable, the cells it fixes): printed before
    the message, or in JSON the error object's ``steps``,
    ``line_solving_finished``, ``line_solvable``, ``cells_fixed_by_lines``,
    ``cells``, ``line_rounds`` and ``line_contradiction`` (they were dropped,
    though known, and Ctrl-C dropped the rounds too; QA)."""
    lines, finished = puzzle.lines_so_far()
    if lines is None:
        return
    extra = {}
    if args.steps:
        extra.update(steps=_steps_json(lines), line_solving_finished=finished)
    if finished:
        extra.update(line_solvable=lines.solved, cells_fixed_by_lines=lines.fixed,
                     cells=lines.cells, line_rounds=len(lines.rounds), line_contradiction=lines.contradiction_at)
    if args.json:
        stop.json_extra = extra
        return
    if args.steps:
        _print_steps(lines)
        if not finished:
            from ..errors import plural

            by = "Ctrl-C" if isinstance(stop, KeyboardInterrupt) else "the time limit"
            print(f"(line solving was stopped by {by} after {plural(len(lines.rounds), 'round')})")
    if finished:
        _print_line_solvable(lines)
    sys.stdout.flush()


def _print_line_solvable(lines) -> None:
    from ..errors import number, plural

    if lines.contradiction:
        print(f"line solvable: no: line logic finds a contradiction (no solution): {lines.contradiction_said()}")
        return
    pct = 100.0 * lines.fixed / lines.cells if lines.cells else 100.0
    print(f"line solvable: {'yes' if lines.solved else 'no'}: line logic fixes {number(lines.fixed)} of "
          f"{plural(lines.cells, 'cell')} ({pct:.0f}%) in {plural(len(lines.rounds), 'round')}")


def _yes(v) -> str:
    return "unknown" if v is None else ("yes" if v else "no")


def _print(puzzle, rep, lines, out, args) -> None:
    from ..errors import plural

    if args.steps:
        _print_steps(lines)
    print(f"{puzzle.title} ({puzzle.width} x {puzzle.height}, {plural(rep['cells'], 'cell')})")
    if out.choice:
        print(f"({out.backend} chosen: {out.choice})")
    how = f"{out.backend}, {out.seconds:.3f} s"
    if lines.contradiction and not puzzle.sums_differ() and not rep["searched"]:
        # (the precheck's reason says it at length: on the "line solvable" line;
        # with --no-preprocess an engine searched, and said no: QA)
        print(f"solvable:      no: line logic finds no placement for {lines.contradiction_at}")
    elif rep["reason"]:
        print(f"solvable:      no: {rep['reason']}")
    elif rep["unique_by_line_logic"]:
        print("solvable:      yes (line logic, no search)")
    elif rep["solvable"] is None:
        print(f"solvable:      unknown: {out.backend} {_stopped(out.stopped_by)} after {out.seconds:.3f} s")
    elif rep["solvable"] and out.method == "known-solution-first":
        # the engine only looked for a second: the first is the file's goal (QA)
        print("solvable:      yes: the file's goal is a solution (verified)")
    else:
        print(f"solvable:      {_yes(rep['solvable'])} ({how})")
    if rep["solvable"]:
        if rep["unique"] is None:
            print(f"unique:        unknown (the search was {_stopped(out.stopped_by)})")
        elif rep["unique_by_line_logic"]:
            print("unique:        yes: line logic alone fixes every cell")
        else:  # (from the goal, the engine's search is this line's: said here)
            by = f" ({how})" if out.method == "known-solution-first" else ""
            print(f"unique:        yes{by}" if rep["unique"] else
                  f"unique:        no{by}: at least two solutions (shown below)")
    _print_line_solvable(lines)
    listed = rep["solutions"]
    if puzzle.goal is None:
        print("goal:          none in the file")
    elif rep["matches_goal"] is None or rep["solvable"] is not True:
        print("goal:          not compared (no solution found)")
    elif len(listed) < 2:
        print("goal:          " + ("the solution found is the goal" if rep["matches_goal"]
                                   else "the solution found differs from the goal"))
    elif rep["goal_solution"]:
        print(f"goal:          solution {rep['goal_solution']} below is the goal")
    else:  # the parser checked the goal against the clues: it is a solution too
        print("goal:          neither solution below is the goal (which fits the clues: a third solution)")
    if rep["solvable"] and rep["unique"] is False:
        for i, s in enumerate(out.solutions[:2], 1):
            print(f"\nsolution {i}:\n{puzzle.render_text(s, color=use_color(args))}")
