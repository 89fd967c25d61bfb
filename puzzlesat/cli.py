"""The ``puzzlesat`` command: argument parsing, printing and exit codes only.

Each subcommand is a module in ``puzzlesat.commands`` with ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> exit code``; add a module name to
``COMMANDS`` to add a command.

Exit codes: 0 done (solved / counted completely), 1 no solution,
2 bad input (a one-line message, never a traceback) or a system the run
cannot go on in (out of memory, a full or closed stdout, ...), 3 incomplete (time
limit, --limit on a count that had more, Ctrl-C: the count printed is a lower
bound), 4 a back end returned a solution that fails verification, or back
ends disagree, or a solver failed (an outside solver crashed or answered
nonsense).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import json
import sys
import time

from .backends import BackendError, SolverFailed
from .encoders.cnf import EncodingError
from .errors import (BuildTimeLimit, InputError, Terminated, UsageError, VerificationError, die_of_sigterm,
                     printable)

COMMANDS = ("solve", "count", "info", "list_cmd", "backends_cmd", "export", "decode", "compare", "check")

EXIT_OK, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_INCOMPLETE, EXIT_INTERNAL = 0, 1, 2, 3, 4


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's usage errors are bad input too: exit 2, one line
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        if _wants_json(_argv):  # the one object --json promises, as for any other failure
            emit_json({"error": f"{self.prog}: {message}", "kind": "usage", "exit_code": EXIT_BAD_INPUT})
        sys.exit(EXIT_BAD_INPUT)


#: the arguments being parsed (for _Parser.error)
_argv: list[str] = []


def _wants_json(argv: list[str]) -> bool:
    """Whether the command line asks for --json, or an abbreviation of it
    that names no other option (--js, --jso), before any '--' (after it, a
    word is an argument: QA)."""
    words = argv[:argv.index("--")] if "--" in argv else argv
    return any(len(w) >= 4 and "--json".startswith(w) for w in words)


#: options given more than once with different values, in the order met:
#: (dest, [(option string, value), ...]) (said once the command line is read)
_repeated: dict[str, list[tuple[str, object]]] = {}


def _given(action, option_string, values) -> None:
    """Keeps what each option was given (for _say_repeated)."""
    if option_string is None:  # (a positional)
        return
    seen = _repeated.setdefault(action.dest, [])
    seen.append((option_string, values))


class _Store(argparse._StoreAction):
    """argparse's ``store``, which keeps silently the last of an option
    given twice: ``-b exact -b cadical195`` ran cadical195 alone (QA)."""

    def __call__(self, parser, namespace, values, option_string=None):
        _given(self, option_string, values)
        super().__call__(parser, namespace, values, option_string)


class Switch(argparse.BooleanOptionalAction):
    """``--x`` / ``--no-x``; both given contradict each other (a usage
    error: the last used to win, QA)."""

    def __call__(self, parser, namespace, values, option_string=None):
        _given(self, option_string, not option_string.startswith("--no-"))
        super().__call__(parser, namespace, values, option_string)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("puzzlesat")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree not installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="puzzlesat", description="Compile puzzles to SAT / CP-SAT, solve, count and verify them.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for modname in COMMANDS:
        mod = importlib.import_module(f".commands.{modname}", __package__)
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP))
        p.register("action", None, _Store)
        p.register("action", "store", _Store)
        p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


#: seconds within which a second SIGINT is the same Ctrl-C delivered again
#: (`timeout -s INT` signals the process and then its group; a key bounce)
SIGINT_ECHO = 0.5


def entry() -> None:
    """The ``puzzlesat`` program (``python -m puzzlesat`` too): :func:`main`,
    then exit with its code.

    One Ctrl-C stops the work and the answer so far is written.  A SIGINT
    within SIGINT_ECHO seconds of the one before is that Ctrl-C again and is
    ignored: raised as a second KeyboardInterrupt it landed anywhere in the
    stopping and the writing of the answer (a split count said 0, a JSON
    object was cut short, the exit code became death by SIGINT).  A later
    one is a second Ctrl-C (it cuts a cluster's wait for its tasks' counts
    short).  Once :func:`main` has returned, SIGINT is ignored."""
    import signal

    last = [-SIGINT_ECHO]

    def on_sigint(signum, frame):
        now = time.monotonic()
        if now - last[0] < SIGINT_ECHO:
            return
        last[0] = now
        raise KeyboardInterrupt

    # a signal ignored when the program started stays ignored (nohup's SIGHUP;
    # SIGINT for a background job of a script): it was handled, and stopped the run
    ignored = {sig for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
               if signal.getsignal(sig) is signal.SIG_IGN}
    if signal.SIGINT not in ignored:
        signal.signal(signal.SIGINT, on_sigint)
    terminating = tuple(sig for sig in (signal.SIGTERM, signal.SIGHUP) if sig not in ignored)

    def on_terminate(signum, frame):
        # once: the way out (stopping the pool, killing a child) is not cut short
        for sig in terminating:
            signal.signal(sig, signal.SIG_IGN)
        raise Terminated(signum)

    for sig in terminating:
        signal.signal(sig, on_terminate)
    try:
        code = main()
    except Terminated as e:  # what the run started is stopped: now die of the signal
        die_of_sigterm(e.signum)
        raise
    except KeyboardInterrupt:  # outside the command's run (importing it, reading the options)
        from .program import interrupted_before_start

        interrupted_before_start(json_written=_json_written)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in terminating:  # nothing left to stop
        signal.signal(sig, signal.SIG_DFL)
    # what is left is only freed on the way out: the collector need not look
    # through it again (a 200x200 nonogram's model, 0.9 GB, took 2-3 s after
    # its answer was printed, past -t; QA)
    import gc

    gc.freeze()
    sys.exit(code)


def _commands(parser) -> dict:
    """Each command's name and its parser."""
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


def _unrecognized(commands: dict, command: str, extra: list[str]) -> str:
    """argparse's message, from the command's parser (the top one printed
    the usage of ``puzzlesat COMMAND`` alone), and which commands take an
    option it names when others do (``solve --no-goal``: count and check)."""
    message = f"unrecognized arguments: {' '.join(extra)}"
    for arg in extra:
        if not arg.startswith("-"):
            continue
        option = arg.split("=", 1)[0]
        if option in commands[command]._option_string_actions:  # before the command, or after a '--'
            message += f" ({option} is an option of {command}: give it after '{command}', before any '--')"
            continue
        takers = [name for name, p in commands.items() if name != command and option in p._option_string_actions]
        if takers:
            listed = ", ".join(takers[:-1]) + (" and " if len(takers) > 1 else "") + takers[-1]
            message += f" ({option} is an option of {listed}, not of {command})"
    return message


def _say_repeated(command) -> None:
    """An option given twice: a switch both ways is a usage error; any other
    whose values differ keeps the last, said in a warning (a value repeated
    alike changes nothing)."""
    for dest, seen in _repeated.items():
        values = [v for _, v in seen]
        if len(seen) < 2 or all(v == values[0] for v in values):
            continue
        action = next(a for a in command._actions if a.dest == dest)
        if isinstance(action, Switch):
            first = next(o for o, v in seen if v != values[-1])
            command.error(f"{first} and {seen[-1][0]} contradict each other")
        options = " / ".join(dict.fromkeys(o for o, _ in seen))
        said = ", then ".join(_shown(v) for v in values)
        times = "twice" if len(seen) == 2 else f"{len(seen)} times"
        say(f"puzzlesat: warning: {options} is given {times} ({said}): the last, {_shown(values[-1])}, is used")


def _shown(value) -> str:
    """An option's value in a message: a number as short as tells it apart
    (``:g`` said "10, then 10" for -t 10 -t 10.0000001, QA)."""
    if isinstance(value, (list, tuple)):
        return ",".join(map(_shown, value))
    return repr(value).removesuffix(".0") if isinstance(value, float) else str(value)


class _QuietStream:
    """sys.stderr while the program runs: a message that cannot be written
    (``2>/dev/full``, a reader gone) is dropped, and the run goes on to its
    own exit code.  A warning so written raised there, and the failure's
    own message failed again: exit 1, no output at all (QA)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError):  # (ValueError: the stream was closed)
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            pass

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    # (first: a usage error or a warning about the options, written to a
    # closed stderr, went to stdout, before --json's object or into export -o -)
    _plug_closed_streams()
    real_stderr = sys.stderr
    sys.stderr = _QuietStream(real_stderr)
    try:
        return _main(argv)
    finally:
        sys.stderr = real_stderr


def _main(argv: list[str] | None) -> int:
    global _json_written, _argv
    _json_written = False
    _said.clear()
    _argv = list(sys.argv[1:] if argv is None else argv)
    _repeated.clear()
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if not getattr(args, "_run", None):
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        parser.print_help(sys.stderr)  # (a usage error, exit 2: on stderr, as argparse's own; QA)
        return EXIT_BAD_INPUT
    commands = _commands(parser)
    command = commands[args.command]
    if extra:
        command.error(_unrecognized(commands, args.command, extra))
    _say_repeated(command)
    real_stdout = sys.stdout
    sys.stdout = _ClosedPipeSafe(real_stdout)
    try:
        code = args._run(args)
        sys.stdout.flush()  # a full disk said here, not at exit (exit 120 and "Exception ignored")
        return code
    except _OutputFailed as e:
        sys.stdout.drop()
        return _fail(args, f"puzzlesat: cannot write the output: {e}", "output", EXIT_BAD_INPUT)
    except SolverFailed as e:  # the engine, not the input: as for a wrong answer
        return _fail(args, f"puzzlesat: solver failed: {e}", "solver-failed", EXIT_INTERNAL)
    except UsageError as e:
        return _fail(args, f"puzzlesat: {e}", "usage", EXIT_BAD_INPUT)
    except (InputError, BackendError, EncodingError) as e:
        if getattr(e, "warnings", ()):
            from .commands.common import warn_ignored

            warn_ignored(e.warnings, e.path or "the input")
        return _fail(args, f"puzzlesat: {e}", "bad-input", EXIT_BAD_INPUT)
    except VerificationError as e:
        return _fail(args, f"puzzlesat: verification failed: {e}", "verification-failed", EXIT_INTERNAL)
    except KeyboardInterrupt as e:
        return _fail(args, "puzzlesat: interrupted", "interrupted", EXIT_INCOMPLETE, getattr(e, "json_extra", None))
    except BuildTimeLimit as e:
        return _fail(args, f"puzzlesat: stopped: {e}", "time-limit", EXIT_INCOMPLETE, getattr(e, "json_extra", None))
    except BrokenPipeError:  # (binary output, sys.stdout.buffer: its answer is unknown here)
        return EXIT_OK
    except MemoryError:
        return _fail(args, "puzzlesat: out of memory (the model is too large for the memory this run may use)",
                     "environment", EXIT_BAD_INPUT)
    except OSError as e:  # the system, not the input (too many open files, no working directory, ...)
        if isinstance(sys.stdout, _ClosedPipeSafe) and _is_stdout_error(e):  # (binary, sys.stdout.buffer)
            sys.stdout.drop()
            return _fail(args, f"puzzlesat: cannot write the output: {e.strerror or e}", "output", EXIT_BAD_INPUT)
        return _fail(args, f"puzzlesat: {_describe_os_error(e)}", "environment", EXIT_BAD_INPUT)
    except Exception as e:
        # a time limit or Ctrl-C that something wrapped on its way out (an
        # import's "Error calling __set_name__"): still what it was
        cause = _wrapped(e, (BuildTimeLimit, KeyboardInterrupt))
        if isinstance(cause, BuildTimeLimit):
            return _fail(args, f"puzzlesat: stopped: {cause}", "time-limit", EXIT_INCOMPLETE)
        if isinstance(cause, KeyboardInterrupt):
            return _fail(args, "puzzlesat: interrupted", "interrupted", EXIT_INCOMPLETE)
        raise
    finally:
        sys.stdout = real_stdout


def _wrapped(e: BaseException, kinds: tuple) -> BaseException | None:
    """The exception of one of ``kinds`` that ``e`` was raised from or
    while handling, if any."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, kinds):
            return e
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return None


class _OutputFailed(Exception):
    """Standard output cannot be written: closed, or the disk is full."""


def _plug_closed_streams() -> None:
    """Standard streams the shell closed (``>&-``, ``<&-``, ``2>&-``): their
    descriptors are taken by /dev/null, so that no file this run opens
    becomes "standard output" by getting descriptor 1; a closed stderr is
    written to /dev/null (the exit code still tells), a closed stdout makes
    any output an error (:class:`_ClosedPipeSafe`), a closed stdin is said
    where it is read.  (Python sets each such stream to None; printing to
    it was an AttributeError traceback, exit 1.)"""
    import os

    for fd, name, mode in ((0, "stdin", os.O_RDONLY), (1, "stdout", os.O_WRONLY), (2, "stderr", os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            got = os.open(os.devnull, mode)
            if got != fd:  # (a lower one was closed too and took it: it is plugged in its turn)
                os.dup2(got, fd)
                os.close(got)
        if name == "stderr" and sys.stderr is None:
            sys.stderr = open(fd, "w", closefd=False)


def _is_stdout_error(e: OSError) -> bool:
    """Whether ``e`` is what writing binary output to stdout raises when it fails."""
    return e.filename is None and e.errno in (errno.ENOSPC, errno.EFBIG, errno.EIO, errno.EBADF, errno.EDQUOT)


def _describe_os_error(e: OSError) -> str:
    """An error of the system, said in words (no errno numbers)."""
    import os

    if e.errno == errno.ENOENT and e.filename is None:
        try:
            os.getcwd()
        except OSError:
            return "the current directory no longer exists (it was deleted or moved away)"
    if e.errno in (errno.EMFILE, errno.ENFILE):
        return "too many open files (raise the limit: ulimit -n)"
    what = e.strerror or str(e)
    return f"{e.filename}: {what}" if e.filename else what


#: the text pictures' glyphs, for a standard output that cannot show them
_ASCII_GLYPHS = str.maketrans({"\u2588": "#", "\u00b7": "."})


class _ClosedPipeSafe:
    """sys.stdout while a command runs: a reader that has gone (``| head``)
    makes the rest of the output go nowhere, and the command ends with its
    own exit code.  A BrokenPipeError in the middle of the answer ended
    every run with 0, a run with no solution (1) or an incomplete count (3)
    included.  Any other failure to write (a full disk, a closed stdout)
    is :class:`_OutputFailed`, said in one line with exit 2."""

    def __init__(self, stream):
        self._missing = stream is None
        self._warned = False
        if stream is None:  # closed by the shell: nothing may be written
            import os

            stream = open(os.devnull, "w")
        self._stream = stream

    def drop(self) -> None:
        """Output failed: what is still buffered goes nowhere (flushing it at
        exit failed again: "Exception ignored", exit 120)."""
        self._closed()
        self._missing = True

    def _closed(self) -> None:
        import os

        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):  # not a file: nothing more to write to
            pass

    def write(self, text: str) -> int:
        if self._missing:
            if text:
                raise _OutputFailed("standard output is closed")
            return 0
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._closed()
            return len(text)
        except OSError as e:
            raise _OutputFailed(e.strerror or str(e)) from None
        except UnicodeEncodeError:
            return self.write(self._encodable(text))

    def _encodable(self, text: str) -> str:
        """``text`` as this stream's encoding can write it (PYTHONIOENCODING=ascii,
        a Latin-1 terminal): the pictures' glyphs become the ASCII that --json
        uses (``#``, ``.``), and any other character it lacks a ``?``, said
        once on stderr.  (A nonogram's picture was a UnicodeEncodeError
        traceback, exit 1.)"""
        encoding = getattr(self._stream, "encoding", None) or "ascii"
        text = text.translate(_ASCII_GLYPHS)
        fixed = text.encode(encoding, errors="replace").decode(encoding, errors="replace")
        if fixed != text and not self._warned:
            self._warned = True
            say(f"puzzlesat: warning: standard output's encoding ({encoding}) cannot show some characters: "
                "written as '?' (set PYTHONIOENCODING=utf-8)")
        return fixed

    def flush(self) -> None:
        if self._missing:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._closed()
        except OSError as e:
            raise _OutputFailed(e.strerror or str(e)) from None

    def writelines(self, lines) -> None:
        if self._missing:
            for line in lines:
                self.write(line)
            return
        try:
            self._stream.writelines(lines)
        except BrokenPipeError:
            self._closed()
        except OSError as e:
            raise _OutputFailed(e.strerror or str(e)) from None

    def isatty(self) -> bool:
        return not self._missing and self._stream.isatty()

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _fail(args, message: str, kind: str, code: int, extra: dict | None = None) -> int:
    """The message on stderr; with --json, also the one JSON object promised
    on stdout (what went wrong, and the exit code; ``extra``: what the
    command had to say before it stopped, such as ``check --steps``'s
    rounds)."""
    print(message, file=sys.stderr)
    if getattr(args, "json", False) and not _json_written:  # a command may have said more itself
        try:
            emit_json({"error": message.removeprefix("puzzlesat: "), "kind": kind, "exit_code": code,
                       **(extra or {})})
        except (BrokenPipeError, _OutputFailed):  # (the output is what failed)
            pass
    return code


_json_written = False
#: the warnings and notes this run printed on stderr (for --json's "warnings")
_said: list[str] = []


def say(message: str) -> None:
    """A warning or note on stderr; a --json object repeats it under "warnings".
    Control characters other than line breaks are written as escapes: a
    warning names files, whose names may hold an ESC."""
    message = printable(message, keep="\n")
    print(message, file=sys.stderr)
    _said.append(message.removeprefix("puzzlesat: "))


def emit_json(obj) -> None:
    global _json_written
    _json_written = True
    if _said and isinstance(obj, dict) and "warnings" not in obj:
        obj = {**obj, "warnings": list(_said)}
    json.dump(obj, sys.stdout, indent=None, default=str)
    sys.stdout.write("\n")


def use_color(args) -> bool:
    import os

    if getattr(args, "color", "auto") == "always":
        return True
    if getattr(args, "color", "auto") == "never" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return sys.stdout.isatty()


if __name__ == "__main__":
    entry()
