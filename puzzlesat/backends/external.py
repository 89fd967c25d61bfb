"""Any DIMACS SAT solver binary as a back end: ``external:PATH_OR_NAME``.

The problem is written as DIMACS (encoders/dimacs.py, with the projection
line but no variable map: a back end does not know what variables mean),
the solver runs as a child process in its own process group, and its answer
is read back with :func:`~puzzlesat.encoders.dimacs.read_answer`.

- Exit codes: 10 satisfiable, 20 unsatisfiable (the SAT-competition
  convention); the answer's status line must agree.  Any other code with no
  status line is an error (a crash, a bad option), and so is exit code 0
  with no answer at all; ``s UNKNOWN`` or no answer within the time limit
  is "unknown".
- Output: the ``s``/``v`` lines on stdout (cadical, picosat, kissat,
  cryptominisat5, lingeling, ...), or for MiniSat and Glucose, which print
  their model only to a result file, that file (passed as the second
  argument).
- Time limit: the whole process group is sent SIGTERM, then SIGKILL, so a
  hung solver (and any helper it forked) is stopped.
- Counting: one solver call per solution, each with the blocking clauses of
  the solutions so far (primary variables only, short clauses when the
  problem is fixed-weight, as base.blocking_clause), until UNSAT.  Every
  call starts from scratch, so this is for checking and for small counts.

``PATH_OR_NAME`` may carry options, shell-quoted: ``external:cadical -q``
or ``external:'/opt/kissat/bin/kissat --sat'``.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from ..encoders.cnf import DEFAULT_ENCODING, check_encoding, encode_cnf, keeping
from ..encoders.dimacs import build_dimacs, conflict_said, falsified, no_model_with, read_answer
from ..errors import InputError, Terminated, VerificationError
from ..problem import Problem
from .base import Backend, BackendError, Deadline, SearchResult, SolverFailed, Tally, blocking_clause

#: solvers that write their model to a result file given as the 2nd argument
RESULT_FILE_SOLVERS = ("minisat", "minisat2", "minisat22", "glucose", "glucose-syrup", "glucose_static")
#: DIMACS solvers ``backends`` looks for on the PATH, to list as external:NAME
KNOWN_SOLVERS = ("cadical", "kissat", "minisat", "glucose", "glucose-syrup", "cryptominisat5", "picosat",
                 "lingeling", "plingeling", "treengeling", "clasp")
#: quiet options for solvers whose default chatter is large
QUIET = {"cadical": ["-q"], "cryptominisat5": ["--verb", "0"], "kissat": ["-q"], "minisat": ["-verb=0"]}


def external_backend(arg: str, encoding: str | None = None, **options) -> "ExternalBackend":
    """The ``external:`` factory (backends._FACTORIES)."""
    return ExternalBackend(arg, encoding=encoding or DEFAULT_ENCODING, **options)


class ExternalBackend(Backend):
    def __init__(self, command: str, encoding: str = DEFAULT_ENCODING, keep_files: str | None = None):
        from . import BackendOptionError  # (the package imports this module lazily)

        # what -b says is at fault, whatever the puzzle (JSON kind usage); a
        # solver named but not found is not installed, as for other engines
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise BackendOptionError(f"external:{command}: {e}") from None
        if not argv:
            raise BackendOptionError("external: give a solver, e.g. external:cadical or external:/path/to/solver")
        there = os.path.expanduser(argv[0])  # (external:~/solver: no shell expanded it)
        exe = shutil.which(there)
        if exe is None:
            if os.sep in argv[0] and os.path.isdir(there):
                raise BackendError(f"external solver {argv[0]!r} is a directory, not a solver")
            if os.sep in argv[0] and os.path.isfile(there):  # (there, but which() wants it executable)
                raise BackendError(f"external solver {argv[0]!r} is not executable (chmod +x {shlex.quote(argv[0])})")
            raise BackendError(f"external solver {argv[0]!r} not found (not on PATH, not an executable file)")
        self.exe, self.args = exe, argv[1:]
        self.base = os.path.basename(exe)
        self.result_file = self.base in RESULT_FILE_SOLVERS
        if not self.args:
            self.args = list(QUIET.get(self.base, []))
        self.encoding = check_encoding(encoding)
        self.name = "external:" + command
        self.keep_files = keep_files  # a directory to leave the last CNF/answer in (debugging)

    # -- one solver call
    def _run(self, cnf_text: str, workdir: str, deadline: Deadline, n_vars: int, ask=None):
        """(status, values, why): "SAT" / "UNSAT" / "UNKNOWN", the model, and
        for UNKNOWN why ("time-limit", "solver gave up", or "callback" when
        ``ask()``, called every ASK_EVERY seconds while the solver runs,
        answers True)."""
        cnf = os.path.join(workdir, "model.cnf")
        res = os.path.join(workdir, "result.txt")
        Path(cnf).write_text(cnf_text)
        if os.path.exists(res):
            os.unlink(res)
        argv = [self.exe, *self.args, cnf] + ([res] if self.result_file else [])
        remaining = deadline.remaining()
        if remaining is not None and remaining <= 0:
            return "UNKNOWN", None, "time-limit"
        out_path = os.path.join(workdir, "stdout.txt")
        err_path = os.path.join(workdir, "stderr.txt")
        with open(out_path, "wb") as out, open(err_path, "wb") as err, \
                sigterm_raises() as guard:  # the except below kills the solver
            proc = None
            try:
                with guard.held():  # a SIGTERM now is raised once proc is set
                    try:
                        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                                start_new_session=True)
                    except OSError as e:
                        raise BackendError(f"cannot run {self.exe}: {_why_not_run(self.exe, e)}") from None
                while True:
                    try:
                        rc = proc.wait(timeout=deadline.next_look(ask is not None))
                        break
                    except subprocess.TimeoutExpired:
                        if deadline.expired():
                            kill_group(proc)
                            return "UNKNOWN", None, "time-limit"
                        if ask():
                            kill_group(proc)
                            return "UNKNOWN", None, "callback"
            except BaseException:
                if proc is not None:
                    kill_group(proc)
                raise
        printed, says_unknown, answer, chatter = _scan_output(out_path)
        if self.result_file and os.path.exists(res):
            text = Path(res).read_text(errors="replace")
        else:
            text = answer
        # (a result-file solver that wrote none: its stdout was read, and the
        # message named the missing file in a directory already gone)
        where = res if self.result_file and os.path.exists(res) else f"{self.base} output"
        if rc not in (0, 10, 20):
            # its last words: on stderr, or among its comments on stdout
            # (minisat+ given a CNF: 'c PARSE ERROR! ...', 's UNKNOWN', exit 5)
            tail = _tail(err_path) or chatter
            if _gave_up(text, where):
                # CryptoMiniSat past its --maxtime: 's INDETERMINATE', exit 15
                return "UNKNOWN", {}, f"solver gave up: exit code {rc}" + (": " + " | ".join(tail) if tail else "")
            how = f"exit code {rc}"
            if rc < 0:  # (Popen's -N: "exit code -11" did not say it crashed)
                try:
                    how = f"signal {signal.Signals(-rc).name} (exit code {rc})"
                except ValueError:
                    how = f"signal {-rc} (exit code {rc})"
            raise SolverFailed(f"{self.base} {'was killed by' if rc < 0 else 'failed with'} {how}"
                               + (": " + " | ".join(tail) if tail else ""))
        if not text.strip() and rc == 0 and says_unknown:
            # Debian's CaDiCaL (sc2021) past -t or -c prints 'c UNKNOWN' and
            # exits 0, with no status line: it gave up (it was "solver failed")
            return "UNKNOWN", None, "solver gave up"
        if not text.strip() and self.result_file and not os.path.exists(res):
            tail = _tail(err_path) or chatter
            raise SolverFailed(f"{self.base} exited with code {rc} and wrote no result file (nor an answer on its "
                               "output)" + (": " + " | ".join(tail) if tail else ""))
        if not text.strip() and not printed:
            # a solver that gives up says so ('s UNKNOWN', MiniSat's INDET):
            # silence is no answer at all (not a SAT solver, a wrong option);
            # one that wrote its answer on stderr is shown it (QA)
            tail = _tail(err_path)
            raise SolverFailed(f"{self.base} exited with code {rc} and printed nothing on its standard output: is it "
                               "a DIMACS SAT solver?" + (" Its standard error ends: " + " | ".join(tail) if tail else ""))
        try:
            ans = read_answer(text, where)
        except InputError as e:
            raise SolverFailed(f"cannot read {self.base}'s answer: {e}") from None
        expect = {10: "SAT", 20: "UNSAT"}.get(rc)
        if expect is not None and ans.status != expect:
            raise SolverFailed(f"{self.base} exited with {rc} but answered {ans.status}")
        if ans.status == "SAT":
            try:
                ans.check_range(n_vars, "the CNF given to the solver")
            except InputError as e:
                raise SolverFailed(f"{self.base} answered a model outside its input: {e}") from None
        return ans.status, ans.values, (None if ans.status != "UNKNOWN" else "solver gave up")

    def keeping(self, problem: Problem, expired=None):
        return keeping(problem, self.encoding, expired)

    def search(self, problem: Problem, *, limit=None, time_limit=None, keep=False, on_solution=None,
               phases=None, on_count=None, hand_back=None):  # on_count: asked every ASK_EVERY s while the solver runs
        deadline = Deadline(time_limit)
        enc = encode_cnf(problem, self.encoding)
        # the variable map is the family's business: only the projection goes out
        exp = build_dimacs(enc, var_map=False)
        comments = "".join(c + "\n" for c in exp.comments)
        body = "".join(list(exp.lines())[len(exp.comments) + 1:])
        stats = {"variables": exp.n_vars, "clauses": len(exp.clauses), "encoding": self.encoding,
                 "solver": self.exe, "calls": 0}
        primary = set(problem.primary)
        tally, stopped, complete = Tally(keep, on_solution), None, False
        blocking: list[list[int]] = []
        workdir = self.keep_files or tempfile.mkdtemp(prefix="puzzlesat-ext-")
        os.makedirs(workdir, exist_ok=True)
        try:
            while True:
                if limit is not None and tally.count >= limit:
                    stopped = "limit"
                    break
                text = (comments + f"p cnf {exp.n_vars} {len(exp.clauses) + len(blocking)}\n" + body
                        + "".join(" ".join(map(str, cl)) + " 0\n" for cl in blocking))
                stats["calls"] += 1
                t0 = time.perf_counter()
                status, values, why = self._run(text, workdir, deadline, exp.n_vars,
                                                None if on_count is None else lambda: on_count(tally.count))
                stats.setdefault("call_seconds", []).append(round(time.perf_counter() - t0, 4))
                if status == "UNKNOWN":
                    stopped = why
                    break
                if status == "UNSAT":
                    complete = True
                    break
                # a primary variable the model leaves out is false: so the
                # solution is read, and so it is checked (a clause that needs
                # one true, a fixed-point equality of --unique or a split's
                # forced literal, went unseen: a count of 5 for 4, QA)
                values = {**dict.fromkeys(primary, False), **values}
                _check_model(self.name, values, exp.clauses, blocking, exp.n_vars)
                sol = frozenset(v for v, b in values.items() if b and v in primary)
                if tally.add(sol):
                    stopped = "callback"
                    break
                cl = blocking_clause(problem, sol)
                if not cl:
                    complete = True  # the empty solution blocked: nothing else can exist
                    break
                blocking.append(cl)
        except KeyboardInterrupt:
            stopped = "interrupted"
        finally:
            if not self.keep_files:
                shutil.rmtree(workdir, ignore_errors=True)
        return SearchResult(tally.count, complete, self.name, deadline.elapsed(), tally.solutions, stopped, stats)


def _check_model(name: str, values: dict, clauses, blocking, n_vars: int) -> None:
    """An outside solver's model must satisfy the CNF it was given, the
    blocking clauses included (one that answered the same model twice would
    otherwise be counted twice: the puzzle's checker sees a valid solution).
    Solvers may leave variables out of a model: a clause fails when every
    one of its literals is assigned false, and a model that leaves some out
    must extend to a model of the CNF (as decode checks an answer)."""
    given = list(clauses) + list(blocking)
    bad = falsified(given, values)
    if bad:
        k = bad[0] + 1
        what = (f"clause {k} of the CNF" if k <= len(clauses)
                else f"the blocking clause of solution {k - len(clauses)}: it answered that solution again")
        raise VerificationError(f"backend {name} returned a model that breaks a clause it was given "
                                f"({what}): {' '.join(map(str, given[bad[0]]))} 0")
    if len(values) < n_vars:
        core = no_model_with(given, values)
        if core is not None:
            raise VerificationError(
                f"backend {name} returned a model that leaves {n_vars - len(values)} of the {n_vars} variables "
                f"unassigned, and no model of the CNF it was given (blocking clauses included) has "
                f"{conflict_said(list(map(str, core)))} (a primary variable it leaves out is read as false)")


def _why_not_run(exe: str, e: OSError) -> str:
    """Why ``exe``, an executable file, did not start: its '#!' interpreter
    missing said as such (the system says "No such file or directory" of a
    file that is there), a file of no format this machine runs too."""
    import errno

    if e.errno == errno.ENOENT and os.path.isfile(exe):
        try:
            with open(exe, "rb") as f:
                first = f.readline(200).decode(errors="replace").rstrip("\n")
        except OSError:
            first = ""
        if first.startswith("#!") and first.endswith("\r"):  # ('#!/bin/sh' blamed: /bin/sh\r is not there)
            return (f"{e.strerror}: its first line, {first!r}, ends in a carriage return (Windows line ends), "
                    "so the interpreter it names is not there: convert it (dos2unix)")
        first = first.strip()
        if first.startswith("#!"):
            return f"{e.strerror}: its first line, {first!r}, names an interpreter that is not there"
    if e.errno == errno.ENOEXEC:
        return f"{e.strerror}: it is not a program this machine can run (nor a script starting with '#!')"
    return e.strerror or str(e)


def _gave_up(text: str, where: str) -> bool:
    """Whether an answer reads as a solver's 'I do not know' (``s UNKNOWN``,
    ``s INDETERMINATE``)."""
    try:
        return read_answer(text, where).status == "UNKNOWN"
    except InputError:
        return False


def _tail(path: str, lines: int = 3) -> list[str]:
    """The last few lines of a solver's stderr, read from its end."""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - 4096))
        return f.read().decode(errors="replace").strip().splitlines()[-lines:]


def _is_answer_line(line: str) -> bool:
    """An ``s`` or ``v`` line (any white space after the letter, as decode
    reads them); comments and any other chatter (banners, warnings) are not
    part of the answer."""
    return line[:1] in ("s", "v") and (len(line) == 1 or line[1].isspace())


#: a comment line by which a solver without a status line says it gave up
_UNKNOWN_COMMENT = re.compile(r"c\s+(UNKNOWN|INDETERMINATE)\s*")


def _scan_output(path: str, lines: int = 3) -> tuple[bool, bool, str, list[str]]:
    """(printed anything, said 'c UNKNOWN', its s and v lines, its last few
    other lines, each cut to 200 characters) of a solver's stdout, read a
    line at a time: read whole (and split, a second copy), a solver's 1 GB
    of comments took 2 GB."""
    from collections import deque

    printed = unknown = False
    kept = []
    chatter = deque(maxlen=lines)
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if _is_answer_line(line):
                kept.append(line)
            elif line.strip():
                unknown = unknown or bool(_UNKNOWN_COMMENT.fullmatch(line))
                chatter.append(line.strip()[:200])
            printed = printed or bool(line.strip())
    return printed, unknown, "\n".join(kept), list(chatter)


class _Guard:
    """What :func:`sigterm_raises` yields: ``held()`` defers the signal to
    the end of a block (starting the child: a SIGTERM between its start
    and the caller's ``proc = ...`` left it running, orphaned)."""

    def __init__(self):
        self.holding = False
        self.pending: int | None = None

    @contextmanager
    def held(self):
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.pending is not None:
            raise Terminated(self.pending)


@contextmanager
def sigterm_raises():
    """While inside, SIGTERM or SIGHUP to this process raises
    :class:`Terminated` (as the program's own handlers, cli.entry, do), so
    that the caller's ``except BaseException: kill_group(proc)`` kills a
    child that runs in a session of its own (so that its whole tree can be
    killed at a deadline), where a signal to this process, or to its
    process group (compare's runs, `timeout`), never reaches it; inside
    ``guard.held()`` it is raised at the block's end.  The program's entry
    point then dies of the signal.  Only the main thread handles signals;
    elsewhere nothing changes."""
    guard = _Guard()
    if threading.current_thread() is not threading.main_thread():
        yield guard
        return

    def on_signal(signum, frame):
        if guard.holding:
            guard.pending = guard.pending or signum
            return
        raise Terminated(signum)

    sigs = (signal.SIGTERM, signal.SIGHUP)
    old = {sig: signal.signal(sig, on_signal) for sig in sigs}
    try:
        yield guard
    finally:
        for sig in sigs:
            signal.signal(sig, old[sig] if old[sig] is not None else signal.SIG_DFL)


def kill_group(proc: subprocess.Popen, grace: float = 1.0) -> None:
    """SIGTERM the child's process group, SIGKILL it if still alive after ``grace``."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=grace)
            if sig == signal.SIGTERM:
                # the leader is gone; make sure nothing it forked survives
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            return
        except subprocess.TimeoutExpired:
            continue
