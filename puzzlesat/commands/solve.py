"""puzzlesat solve: find one solution, verify it and draw it."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import jobs
from ..backends import Status
from ..cli import EXIT_INCOMPLETE, EXIT_NO_SOLUTION, EXIT_OK, emit_json, use_color
from ..errors import InputError, UsageError
from .common import (add_backend_options, add_color_option, add_instance, add_preprocess_option,
                     add_progress_option, backend_for, check_writable, load, no_engine_note, note,
                     refuse_overwriting, same_file, time_limit_said, wants_progress)

NAME = "solve"
HELP = "solve a puzzle and print the verified solution"


def add_arguments(p) -> None:
    add_instance(p)
    add_backend_options(p, "solve")
    add_color_option(p)
    add_preprocess_option(p)
    add_progress_option(p)
    p.add_argument("--svg", metavar="FILE", help="also draw the solution as SVG ('-': on stdout, the report "
                                                 "then on stderr)")
    p.add_argument("--png", metavar="FILE", help="also draw the solution as PNG, where the family can ('-': on "
                                                 "stdout, the report then on stderr)")


def run(args) -> int:
    check_writable("--svg", args.svg)
    check_writable("--png", args.png)
    puzzle, problem = load(args, precheck=True)
    render_png = getattr(puzzle, "render_png", None)
    if args.png and render_png is None:  # said before solving, not after
        raise InputError(f"--png: no PNG drawing for {puzzle.family} puzzles; use --svg")
    if args.png:
        try:  # (Pillow comes with matplotlib; a broken install was a traceback after the search)
            import PIL.Image  # noqa: F401
        except ImportError as e:
            raise InputError(f"--png: cannot draw PNG: Pillow is not importable ({e}); "
                             "reinstall puzzlesat's dependencies, or use --svg") from None
    if args.png == "-" and sys.stdout.isatty():  # (as gzip does: binary reaches no terminal)
        raise UsageError("--png -: standard output is a terminal, which cannot show a PNG; "
                         "redirect it (> picture.png) or give --png a file")
    if args.svg == "-" and args.png == "-":
        raise UsageError("--svg - and --png - would both write to stdout")
    drawing_on_stdout = "-" in (args.svg, args.png)
    if drawing_on_stdout and args.json:
        raise UsageError(f"--json and {'--svg' if args.svg == '-' else '--png'} - would both write to stdout")
    if args.svg and args.svg != "-" and args.png and args.png != "-" and same_file(args.svg, args.png):
        raise UsageError(f"--svg and --png both write to {args.svg}")
    for opt, path, suffix in (("--svg", args.svg, ".svg"), ("--png", args.png, ".png")):
        refuse_overwriting(opt, path, args.instance, puzzle.path)
        if path and path != "-" and not path.lower().endswith(suffix):
            note(f"puzzlesat: note: {opt} writes {suffix[1:].upper()}, and {path} does not end in {suffix}")
    # (no model: the puzzle's counts show there is no solution, which the job says)
    backend = backend_for(args, problem, "solve") if problem is not None else None
    out = jobs.solve(puzzle, backend, time_limit=args.time_limit, problem=problem, progress=wants_progress(args))
    if out.status == Status.NO_SOLUTION and out.method != "precheck":
        _check_no_solution(args, puzzle, problem, out.backend)
    if out.method in (jobs.UNITS, "precheck"):
        no_engine_note(args, precheck=out.method == "precheck")
    if out.solution is None:
        for opt, path in (("--svg", args.svg), ("--png", args.png)):
            if path:
                note(f"puzzlesat: {opt} {path} not written: no solution to draw")

    def draw() -> None:
        if out.solution is not None:
            if args.svg:
                _write(args.svg, puzzle.render_svg(out.solution))
            if args.png:
                render_png(out.solution, args.png)

    if args.json:  # (drawn first: a drawing that cannot be written is the one JSON object said)
        draw()
        emit_json({
            "instance": args.instance, "title": puzzle.title, "family": puzzle.family,
            "status": out.status.value, "backend": out.backend, "seconds": round(out.seconds, 6),
            "solution": puzzle.solution_json(out.solution) if out.solution is not None else None,
            "reason": out.reason, "method": out.method or "search", "stopped_by": out.stopped_by,
            "backend_choice": out.choice,
        })
    else:
        report = sys.stderr if drawing_on_stdout else sys.stdout
        if out.status == Status.SOLVED:
            # the report on stderr beside a drawing on stdout: coloured when asked to (--color always)
            color = args.color == "always" if drawing_on_stdout else use_color(args)
            print(puzzle.render_text(out.solution, color=color), file=report)
            how = f", {out.method}" if out.method and out.method != "search" else ""
            raced = f" ({out.choice})" if out.choice else ""
            if out.backend is None:  # (the model's units fixed it all)
                print(f"solved in {out.seconds:.3f} s, {jobs.UNITS_SAID}", file=report)
            else:
                print(f"solved by {out.backend}{how} in {out.seconds:.3f} s{raced}", file=report)
        elif out.status == Status.NO_SOLUTION:
            raced = f", {out.choice}" if out.choice else ""
            print("no solution" + (f": {out.reason}" if out.reason else
                                   f" (proved by {out.backend} in {out.seconds:.3f} s{raced})"), file=report)
        elif out.stopped_by == "interrupted":
            print(f"interrupted: {out.backend} had found no solution, nor proved that there is none, when stopped "
                  f"({out.seconds:.3f} s)", file=report)
        elif out.stopped_by in (None, "time-limit"):
            print(f"unknown: {out.backend} found no solution, nor proved that there is none, within "
                  f"{time_limit_said(args, out.seconds)}", file=report)
        else:  # e.g. an external solver that ended without an answer
            print(f"unknown: {out.backend} found no solution, nor proved that there is none: {out.stopped_by} "
                  f"({out.seconds:.3f} s)", file=report)
        report.flush()
        draw()  # (after the report: a drawing that cannot be written, disk full, lost the solution found)
    return {Status.SOLVED: EXIT_OK, Status.NO_SOLUTION: EXIT_NO_SOLUTION}.get(out.status, EXIT_INCOMPLETE)


def _check_no_solution(args, puzzle, problem, engine: str) -> None:
    """An engine's "no solution" against what the file knows, as decode
    checks a solver's UNSAT: a solution the file gives (a nonogram's goal),
    verified, proves the engine wrong (exit 4); a count it expects is said."""
    jobs.refuse_none(puzzle, problem, engine, args.instance)
    expected = jobs.expected_some(puzzle)
    if expected:
        note(f"puzzlesat: warning: the instance file expects {expected}; {engine} says there is none")


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror}", path) from None
