"""Options and helpers shared by the commands."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import time
from pathlib import Path

from ..cli import Switch
from ..cli import say as note  # a warning or note on stderr, repeated in --json's warnings
from ..errors import BuildTimeLimit, InputError, UsageError, printable
from ..encoders import deadline
from ..encoders.cnf import DEFAULT_ENCODING, ENCODINGS, RESTORING_SIGINT
from ..jobs import pick_backend
from ..loading import LOADERS, family_of, load_puzzle
from ..problem import AtMostOne, Exactly, ExactlyOne


def add_instance(p) -> None:
    p.add_argument("instance", metavar="INSTANCE", help="a puzzle file, or the name of a bundled instance (puzzlesat list)")


def add_backend_options(p, job: str) -> None:
    default = {"count": "the fastest exact engine available",
               "check": "cadical195, handing over to cpsat when a search from the file's goal picture "
                        "has not ended after 0.5 s",
               # (QA: it said cadical195, which is one of the two)
               "solve": "exact raced against cadical195 where both take the puzzle (tilings, and "
                        "nonograms that are exact covers) and no --encoding is given (on dominoes of the plane "
                        "kasteleyn joins a race not over after 1 s, to prove there is no tiling), "
                        "else cadical195"}[job]
    p.add_argument("--backend", "-b", metavar="NAME", help=f"engine (puzzlesat backends); default: {default}")
    p.add_argument("--encoding", "-e", metavar="NAME", choices=list(ENCODINGS),
                   help=f"CNF cardinality encoding: {', '.join(ENCODINGS)} (default {DEFAULT_ENCODING})")
    p.add_argument("--time-limit", "-t", type=positive_seconds, metavar="S", help="give up after S seconds")


def add_color_option(p) -> None:
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the board (default: when printing to a terminal)")


def positive_seconds(s: str) -> float:
    """A --time-limit's value: a positive number of seconds, at most MAX_SECONDS."""
    import argparse

    try:
        v = float(s)
    except ValueError:
        v = None
    if v is None or v != v or "_" in s:  # (float() takes nan and 1_0 = 10)
        raise argparse.ArgumentTypeError(f"not a number: {s!r}") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {s!r}")
    if v > MAX_SECONDS:  # inf too: the solvers' own timers take no more
        raise argparse.ArgumentTypeError(f"at most {MAX_SECONDS:,} seconds (a week): {s!r}")
    return v


#: the longest time limit taken (solver timers overflow on float('inf') or 1e10)
MAX_SECONDS = 604_800


def comma_list(s: str) -> list[str]:
    """A comma-separated option's items, each once, in order; at least one."""
    import argparse

    items = [x.strip() for x in s.split(",")]
    if not any(items):
        raise argparse.ArgumentTypeError(f"names nothing: {s!r}")
    if not all(items):  # "exact," or "a,,b": a name left out, or a typo
        raise argparse.ArgumentTypeError(f"an empty name between commas: {s!r}")
    twice = next((x for i, x in enumerate(items) if x in items[:i]), None)
    if twice is not None:
        raise argparse.ArgumentTypeError(f"{twice!r} is named twice: {s!r}")
    return items


def positive_int(s: str) -> int:
    import argparse

    try:
        v = None if "_" in s else int(s)  # (int() reads 1_0 as 10)
    except ValueError:
        v = None
    if v is None:
        raise argparse.ArgumentTypeError(f"not a whole number: {s!r}")
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {s!r}")
    return v


def add_preprocess_option(p) -> None:
    p.add_argument("--preprocess", action=Switch, default=None,
                   help="let the family simplify the model first, as nonograms do unless --no-preprocess is "
                        "given (the cells line logic fixes become units, and each block's possible starts "
                        "shrink to agree with them); other families have no such step")


def add_progress_option(p) -> None:
    p.add_argument("--progress", action=Switch, default=None,
                   help="show progress on stderr (default: when stderr is a terminal)")


def redraws_lines() -> bool:
    """Whether stderr is a terminal that can redraw a progress line (not TERM=dumb)."""
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


def wants_progress(args) -> bool:
    """--progress / --no-progress, or by default: on a terminal that can redraw a line."""
    return redraws_lines() if args.progress is None else args.progress


#: the most "ignored" warnings printed for one file (the rest are counted)
MAX_WARNINGS = 10


def warn_ignored(ignored, where: str) -> None:
    """The warnings a reader gave for ``where`` (what it read past), on stderr;
    also those it gave before it refused the file."""
    for msg in ignored[:MAX_WARNINGS]:
        note(f"puzzlesat: warning: {msg}")
    if len(ignored) > MAX_WARNINGS:
        note(f"puzzlesat: warning: ... and {len(ignored) - MAX_WARNINGS} more things ignored in {where}")


def load(args, family: str | None = None, then=None, compile_unless=None, precheck: bool = False):
    """(puzzle, compiled problem) for the command's instance (``family``:
    the only family the command takes, checked before compiling; ``then``:
    a further step, ``then(puzzle)``, timed with them, whose result comes
    third; ``compile_unless(result)`` true: nothing is compiled, and the
    problem is None; ``precheck``: nor is it when the puzzle's counts show
    it has no solution (:meth:`Puzzle.counts_differ`), which the job then
    says without a model).  With a time
    limit, reading and compiling (and ``then``) count against it: past the
    limit they stop (BuildTimeLimit), and the search gets what is left
    (``args.time_limit`` becomes the remainder)."""
    # the steps a time limit covers, named before reading (what its message
    # says must not depend on how far reading got): check line-solves
    # (``then``), solve and count line-solve a nonogram as they compile it
    # unless told not to
    args.line_solving = then is not None or (hasattr(args, "preprocess") and args.preprocess is not False
                                             and family_of(args.instance) == "nonogram")
    steps = steps_before_search(args)
    with before_search(args, steps, steps):
        # the command line first: it is at fault whatever the puzzle.  Under
        # the time limit too: importing the engine's library is part of the
        # run (OR-Tools' 0.4-0.6 s made -b cpsat end that much later, QA)
        check_backend_option(args)
        return _load(args, family, then, compile_unless, precheck)


def steps_before_search(args, *more: str) -> str:
    """How the messages name the steps before a search: "reading and
    compiling", with line solving when the puzzle is line-solved as it is
    compiled (a nonogram preprocessed: ``args.line_solving``, see
    :func:`load`), then ``more``."""
    steps = ["reading", "compiling", *(["line solving"] if getattr(args, "line_solving", False) else []), *more]
    return ", ".join(steps[:-1]) + " and " + steps[-1]


def time_limit_said(args, searched: float) -> str:
    """'the time limit (10 s: 6.2 s reading and compiling, 3.8 s of search)',
    or without the first part when reading took no time worth naming: a
    search's own seconds alone looked like the limit cut short."""
    given, built = getattr(args, "time_limit_given", None), getattr(args, "build_seconds", 0.0)
    # a search that ran past the limit was being stopped (an outside solver
    # that ignores SIGTERM gets a second before it is killed): said as such,
    # the seconds of search alone read as if the limit were not kept
    over = searched - (given - built) if given is not None else 0.0
    stopping = f", the last {over:.3f} s of it stopping the solver" if over >= 0.05 else ""
    if given is None or built < 0.05:
        return f"the time limit ({searched:.3f} s{stopping})"
    doing = getattr(args, "build_doing", "reading and compiling")
    return f"the time limit ({given:g} s: {built:.1f} s {doing}, then {searched:.3f} s of search{stopping})"


@contextlib.contextmanager
def before_search(args, doing: str, in_all: str, alarm: bool = True):
    """A step before the search (load's reading and compiling; a count's
    precheck and choice of engine, which took 4-6 s past ``-t`` on a
    640x640 board): under a time limit it counts against it, stops with
    BuildTimeLimit past it, and leaves the search what is left
    (``args.time_limit`` becomes the remainder; ``time_limit_given`` and
    ``build_seconds`` are for reports of a search it stopped).
    ``in_all``: how time_limit_said names the steps so far together.
    ``alarm`` False: the step keeps to ``args.time_limit`` itself (a Dask
    client that a signal stopped half made waits 20 s in its clean-up), and
    raises BuildTimeLimit with the message the block is given."""
    limit = getattr(args, "time_limit", None)
    if limit is None or threading.current_thread() is not threading.main_thread():
        yield None
        return
    given = getattr(args, "time_limit_given", limit)
    start = time.monotonic()
    message = f"the time limit ({given:g} s) ran out while {doing} {args.instance}, before any search"
    with time_limited(limit if alarm else None, message):
        yield message
    # what is left for the search (at least a moment: the timer did not fire)
    spent = time.monotonic() - start
    args.time_limit = max(limit - spent, 1e-3)
    args.time_limit_given = given
    args.build_seconds = getattr(args, "build_seconds", 0.0) + spent
    args.build_doing = in_all


#: seconds after which a time limit that ran out where it could not be
#: raised (_unsafe_to_raise) is tried again
RAISE_RETRY = 0.005


def _unsafe_to_raise(frame) -> bool:
    """Whether an exception raised at ``frame`` would not reach the command:
    in a module being imported (the import machinery wraps it, e.g. in
    "Error calling __set_name__": a traceback, exit 1, QA) or in a
    finaliser (``__del__``: Python prints it as ignored, and goes on); or
    where SIGINT is being put back after PySAT's encoder caught one."""
    if frame is not None and frame.f_code in RESTORING_SIGINT:
        return True  # (SIGINT would be held back for good)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


@contextlib.contextmanager
def time_limited(seconds: float | None, message: str, stop_encoders: bool = False):
    """Run the block with a limit on its wall time (None: none): past it,
    BuildTimeLimit(message) is raised in it (a SIGALRM timer, so only in the
    main thread; elsewhere the block runs unlimited).  For the work before
    a search, which no solver's own limit covers: reading, compiling,
    writing an export.  ``stop_encoders``: a large call into PySAT's C
    cardinality encoder, where SIGALRM waits, is stopped at the limit too
    (:mod:`..encoders.deadline`), for a block that takes a KeyboardInterrupt
    nowhere but here."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    if stop_encoders:
        end = time.monotonic() + seconds
        try:
            with deadline.stopped_at(end), time_limited(seconds, message):
                yield
        except KeyboardInterrupt:
            if time.monotonic() < end:
                raise
            raise BuildTimeLimit(message) from None  # (the encoder stopped by the limit)
        return

    def ran_out(signum, frame):
        if _unsafe_to_raise(frame):
            signal.setitimer(signal.ITIMER_REAL, RAISE_RETRY)  # a moment later, out of it
            return
        raise BuildTimeLimit(message)

    previous = signal.signal(signal.SIGALRM, ran_out)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_backend_option(args) -> None:
    """``--backend`` (and ``--encoding`` with it) as the command line gives
    them, before any puzzle is read: an unknown name, an encoding for an
    engine without a CNF (BackendOptionError) and, for the commands that
    need solutions (solve, check), an engine that only counts are usage
    errors.  Whether the engine can take the puzzle is the input's business
    (:func:`backend_for`)."""
    name = getattr(args, "backend", None)
    if name is None:
        return
    from ..backends import get_backend

    be = get_backend(name, encoding=getattr(args, "encoding", None))
    if not be.can_enumerate and args.command in ("solve", "check"):
        what = "it cannot solve" if args.command == "solve" else "check needs the solutions themselves"
        raise UsageError(f"backend {name!r} only counts solutions; {what} (use e.g. 'cadical195')")


#: the Problem constraints a CNF cardinality encoding writes (``--encoding``)
CARDINALITY = (ExactlyOne, AtMostOne, Exactly)


def encoding_matters(problem) -> bool:
    """Whether the CNF of ``problem`` depends on the cardinality encoding:
    it has a cardinality constraint the encodings write differently, one
    over two or more variables that neither forces them all nor none
    (clauses and automata are written the same whatever the encoding)."""
    for c in problem.constraints:
        if isinstance(c, CARDINALITY):
            k = getattr(c, "k", 1)
            if len(c.vars) >= 2 and 0 < k < len(c.vars):
                return True
    return False


def no_engine_note(args, precheck: bool = False) -> None:
    """Say that the engine or encoding given was not used: the model's unit
    clauses fixed every variable (a nonogram line logic solves,
    preprocessed; or one whose lines are all empty or full, even as
    stated), so no search ran; or, with ``precheck``, the puzzle's precheck
    found it has no solution (the reason is in the report)."""
    unused = " and ".join(f"{o} {v}" for o, v in (("--backend", getattr(args, "backend", None)),
                                                    ("--encoding", getattr(args, "encoding", None))) if v is not None)
    if unused:
        why = (f"{args.instance} has no solution, known before any search" if precheck else
               f"the model of {args.instance} is unit clauses that fix every variable: no search")
        note(f"puzzlesat: note: {why}, so {unused} {'is' if ' and ' not in unused else 'are'} not used")


def no_cardinality_note(option: str, instance: str | None = None) -> str:
    """The note for an ``--encoding`` given for a model it cannot change
    (``instance``: which one, where a command reads several)."""
    if instance is None:
        return f"puzzlesat: note: {option} has no effect: this model has no cardinality constraints"
    return f"puzzlesat: note: {option} has no effect on {instance}: its model has no cardinality constraints"


def load_untimed(args):
    """(puzzle, compiled problem) for ``args.instance`` as :func:`load` reads
    it (its warnings and notes said), without a time limit and without the
    back end options (``compare`` reads several instances and checks its
    own)."""
    return _load(args)


def _load(args, family: str | None = None, then=None, compile_unless=None, precheck: bool = False):
    puzzle = load_puzzle(args.instance)
    if family is not None and puzzle.family != family:
        raise InputError(f"{args.command} is for {family}s; this is a {puzzle.family} puzzle "
                         f"(try 'puzzlesat count')", args.instance)
    if Path(puzzle.path or "") != Path(args.instance) and Path(args.instance).is_file():
        # a bundled name was read, not the file of that name here
        note(f"puzzlesat: note: {args.instance} is read as the bundled instance of that name; the file "
             f"{args.instance} here has no puzzle suffix ({', '.join(sorted(LOADERS))}) and is not read")
    elif Path(puzzle.path or "") != Path(args.instance) and Path(args.instance).is_dir():
        note(f"puzzlesat: note: {args.instance} is read as the bundled instance of that name; the directory "
             f"{args.instance} here is not a puzzle file")
    elif Path(puzzle.path or "") != Path(args.instance):
        # the name of a file here without its suffix (tetromino-L-4x4 for an edited tetromino-L-4x4.toml)
        here = [args.instance + sfx for sfx in sorted(LOADERS) if Path(args.instance + sfx).is_file()
                and not (puzzle.path and os.path.samefile(args.instance + sfx, puzzle.path))]
        if here:
            note(f"puzzlesat: note: {args.instance} is read as the bundled instance of that name, not "
                 f"{' or '.join(here)} here (give the file's name with its suffix to read it)")
    if getattr(args, "json", False) and getattr(args, "color", None) == "always":
        note("puzzlesat: warning: --color always has no effect with --json (JSON has no colours)")
    elif getattr(args, "color", None) == "always" and not getattr(puzzle, "renders_color", True):
        note(f"puzzlesat: warning: --color always has no effect: {puzzle.family} drawings have no colours")
    warn_ignored(puzzle.ignored, args.instance)
    if args.command != "info":  # (info lists them itself) what the model makes of the file, said where it
        for msg in getattr(puzzle, "notes", ()):  # counts: two names of one shape are one piece (QA)
            note(f"puzzlesat: note: {printable(args.instance)}: {msg}")
    if hasattr(args, "preprocess"):  # solve, count, check: the family's step, unless --no-preprocess
        if args.preprocess and not hasattr(puzzle, "preprocess"):
            raise InputError(f"--preprocess: {puzzle.family} puzzles have no preprocessing step", args.instance)
        if args.preprocess is False and not hasattr(puzzle, "preprocess"):  # (asks for what happens anyway)
            note(f"puzzlesat: note: --no-preprocess has no effect: {puzzle.family} puzzles have no "
                 "preprocessing step")
        if hasattr(puzzle, "preprocess"):
            puzzle.preprocess = args.preprocess is not False
    if getattr(args, "no_goal", False) and not hasattr(puzzle, "goal"):
        raise InputError(f"--no-goal: {puzzle.family} puzzles have no goal to leave out", args.instance)
    if getattr(args, "no_goal", False) and getattr(puzzle, "goal", None) is None:
        note(f"puzzlesat: warning: --no-goal: {args.instance} has no goal picture; nothing to leave out")
    extra = then(puzzle) if then is not None else None
    if compile_unless is not None and compile_unless(extra):
        return puzzle, None, extra
    if precheck and puzzle.counts_differ():
        return (puzzle, None) if then is None else (puzzle, None, extra)
    problem = puzzle.compile()
    if getattr(args, "encoding", None) is not None and not encoding_matters(problem):
        # said, then left out: what follows runs as without it (count's
        # choice of engine, export's header, decode's check of the CNF's)
        note(no_cardinality_note(f"--encoding {args.encoding}"))
        args.encoding = None
    return (puzzle, problem) if then is None else (puzzle, problem, extra)


def check_writable(option: str, out: str | None) -> None:
    """An output file that cannot be written is refused before anything
    runs, as the write would fail: found after the search, it lost the
    result (a solve's drawing, a compare's runs).  An empty name is a
    usage error (it was taken for no file at all, and nothing written)."""
    if out is None or out == "-":
        return
    if out == "":
        raise UsageError(f"{option}: the file name is empty")
    if os.path.isdir(out):
        raise InputError("cannot write: Is a directory", out)
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise InputError("cannot write: No such file or directory", out)
    if not os.access(out if os.path.exists(out) else parent, os.W_OK):
        raise InputError("cannot write: Permission denied", out)
    # tried, as access() cannot tell (root may write anywhere, but not in
    # /proc): where the file is to be (a symbolic link's target), a file of
    # another name made and taken away again -- the output's own name is never
    # made, nor removed -- and an existing file opened for appending,
    # unchanged (a named pipe or a device is not opened: that would wait for
    # a reader)
    try:
        if os.path.isfile(out):  # (through its links)
            os.close(os.open(out, os.O_WRONLY | os.O_APPEND))
        elif not os.path.exists(out):  # (/dev/stdout exists: its link leads to no path, pipe:[N])
            import tempfile

            fd, probe = tempfile.mkstemp(dir=os.path.dirname(os.path.realpath(out)), prefix=".puzzlesat-probe-")
            os.close(fd)
            os.unlink(probe)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror or e}", out) from None


def same_file(a: str, b: str) -> bool:
    """Whether two output paths name one file: the same path, or two names
    (a hard link, a symbolic one) of a file that exists."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # (one does not exist yet)
        return False


def refuse_overwriting(option: str, out: str | None, *inputs: str | None) -> None:
    """An output file that is one of the puzzle files given would be
    overwritten by the output: refused before anything runs."""
    if not out or out == "-" or not os.path.exists(out):
        return
    for src in inputs:
        if src and os.path.exists(src) and os.path.samefile(out, src):
            raise InputError(f"{option} {out} is the puzzle file itself: writing there would overwrite the puzzle")


def backend_for(args, problem, job):
    return pick_backend(problem, args.backend, job, args.encoding)



def add_goal_option(p) -> None:
    p.add_argument("--no-goal", action="store_true",
                   help="do not start from the file's goal picture: by default a nonogram's goal, once "
                        "verified, is the first solution and the search for another starts next to it")
