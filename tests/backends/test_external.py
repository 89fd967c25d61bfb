"""external:PATH_OR_NAME: real DIMACS solvers end to end, and fake ones for
the failure modes (hangs, crashes, lies, garbage).

The real solvers come from Debian packages (minisat, picosat, cadical,
cryptominisat); a test needing one that is absent is skipped with the
package to install in its reason (pytest -rs shows it), never silently.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import time
from pathlib import Path

import pytest

import puzzlesat.instances
from puzzlesat import jobs
from puzzlesat.backends import BackendError, BackendOptionError, Status, get_backend
from puzzlesat.backends.external import ExternalBackend
from puzzlesat.loading import load_puzzle
from puzzlesat.problem import Problem
from puzzlesat.errors import UsageError, VerificationError

TINY_NON = "width 3\nheight 3\n\nrows\n1\n3\n1\n\ncolumns\n1\n3\n1\n"
SOLVERS = {"minisat": "minisat", "picosat": "picosat", "cadical": "cadical", "cryptominisat5": "cryptominisat"}


def needs(binary):
    return pytest.mark.skipif(shutil.which(binary) is None,
                              reason=f"{binary} is not installed: apt-get install -y {SOLVERS[binary]}")


ALL = [pytest.param(b, marks=needs(b)) for b in SOLVERS]


@pytest.mark.parametrize("solver", ALL)
def test_solve_verified(solver):
    puzzle = load_puzzle("tetromino-L-2x4")
    out = jobs.solve(puzzle, get_backend(f"external:{solver}"), time_limit=60)
    assert out.status == Status.SOLVED  # decode_verified ran the family's checker


@pytest.mark.parametrize("solver", [pytest.param("minisat", marks=needs("minisat")),
                                    pytest.param("cadical", marks=needs("cadical"))])
def test_solve_6x10_verified(solver):
    puzzle = load_puzzle("pentomino-6x10")
    out = jobs.solve(puzzle, get_backend(f"external:{solver}"), time_limit=60)
    assert out.status == Status.SOLVED  # decode_verified ran the family's checker


@pytest.mark.parametrize("solver", ALL)
@pytest.mark.parametrize("name,expected", [("dominoes-2x4", 5), ("tetromino-L-2x4", 2)])
def test_count_by_blocking_clauses(solver, name, expected):
    be = get_backend(f"external:{solver}")
    out = jobs.count(load_puzzle(name), be, time_limit=60)
    assert (out.count, out.complete) == (expected, True)


@needs("minisat")
def test_count_up_to_symmetry_and_encodings():
    puzzle = load_puzzle("dominoes-2x4")
    for enc in ("pairwise", "seqcounter", "totalizer"):
        be = get_backend("external:minisat", encoding=enc)
        assert be.encoding == enc
        assert jobs.count(puzzle, be, unique=True).count == 4


@needs("picosat")
def test_nonogram_count(tmp_path):
    
    p = tmp_path / "tiny.non"
    p.write_text(TINY_NON)
    out = jobs.count(load_puzzle(str(p)), get_backend("external:picosat"))
    assert (out.count, out.complete) == (1, True)


@pytest.mark.parametrize("solver", [pytest.param("minisat", marks=needs("minisat")),
                                    pytest.param("cadical", marks=needs("cadical"))])
def test_unsatisfiable(solver):
    p = Problem()
    a, b = p.var("a"), p.var("b")
    p.exactly_one([a, b])
    p.clause([a])
    p.clause([b])
    be = get_backend(f"external:{solver}")
    assert be.solve(p).status == Status.NO_SOLUTION
    r = be.search(p)
    assert (r.count, r.complete) == (0, True)


@needs("minisat")
def test_limit_and_stats():
    r = get_backend("external:minisat").search(load_puzzle("dominoes-2x4").compile(), limit=2, keep=True)
    assert (r.count, r.complete, r.stopped_by) == (2, False, "limit")
    assert len(set(r.solutions)) == 2 and r.stats["calls"] == 2


def test_unknown_binary():
    with pytest.raises(BackendError, match="not found") as e:  # not installed, as for other engines
        get_backend("external:no-such-solver-xyz")
    assert not isinstance(e.value, UsageError)
    # what -b says is at fault: a usage error (JSON kind usage)
    with pytest.raises(BackendOptionError, match="^external: give a solver"):
        get_backend("external:")
    with pytest.raises(BackendOptionError, match="^external:'x: No closing quotation$"):
        get_backend("external:'x")


# ------------------------------------------------------------ fake solvers


def _fake(tmp_path, name, body):
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def _problem():
    p = Problem(fixed_weight=True)
    a, b = p.var("a"), p.var("b")
    p.exactly_one([a, b])
    return p


def test_hung_solver_and_its_children_are_killed(tmp_path):
    pidfile = tmp_path / "pids"
    exe = _fake(tmp_path, "hang", f"trap '' TERM\nsleep 300 &\necho $! > {pidfile}\necho $$ >> {pidfile}\n"
                                  "while true; do sleep 1; done\n")
    t0 = time.perf_counter()
    r = ExternalBackend(exe).search(_problem(), time_limit=1.0)
    assert time.perf_counter() - t0 < 10
    assert (r.count, r.complete, r.stopped_by) == (0, False, "time-limit")
    time.sleep(0.2)
    for pid in map(int, pidfile.read_text().split()):
        assert not _alive(pid), f"process {pid} survived the time limit"


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie awaiting its reaper is dead for our purpose
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("command,sig", [("solve", "TERM"), ("compare", "TERM"), ("compare", "INT")])
def test_stopping_puzzlesat_kills_the_outside_solver(tmp_path, command, sig):
    # the solver runs in a session of its own: a SIGTERM to puzzlesat (as
    # `timeout` sends), or compare stopping its run, left it running, orphaned
    import signal
    import subprocess
    import sys

    pidfile = tmp_path / "pids"
    exe = _fake(tmp_path, "hang", f"sleep 300 &\necho $! > {pidfile}\necho $$ >> {pidfile}\nwait\n")
    argv = [sys.executable, "-m", "puzzlesat", command, "dominoes-2x4", "-b", f"external:{exe}"]
    if command == "compare":
        argv[-1] += ",exact"
    p = subprocess.Popen(argv + ["-t", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 60
    while len(pidfile.read_text().split() if pidfile.exists() else []) < 2:
        assert time.monotonic() < end and p.poll() is None, p.communicate()
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM if sig == "TERM" else signal.SIGINT)
    p.communicate(timeout=30)
    # SIGTERM: it dies of it, as before; Ctrl-C: compare says "interrupted"
    assert p.returncode == (-signal.SIGTERM if sig == "TERM" else 3)
    time.sleep(0.3)
    for pid in map(int, pidfile.read_text().split()):
        assert not _alive(pid), f"process {pid} outlived puzzlesat {command}"


def test_crash_is_a_backend_error_with_stderr(tmp_path):
    exe = _fake(tmp_path, "crash", "echo 'parse error: boom' >&2\nexit 1\n")
    with pytest.raises(BackendError, match="exit code 1: parse error: boom"):
        ExternalBackend(exe).search(_problem())


def test_exit_code_contradicting_answer(tmp_path):
    exe = _fake(tmp_path, "liar", "echo 's UNSATISFIABLE'\nexit 10\n")
    with pytest.raises(BackendError, match="exited with 10 but answered UNSAT"):
        ExternalBackend(exe).search(_problem())


def test_solve_checks_a_no_solution_against_what_the_file_knows(tmp_path, capsys):
    # decode already refused an UNSAT answer when the file gives a solution;
    # solve with the same lying solver said "no solution", exit 1 (QA)
    from puzzlesat.cli import main

    exe = _fake(tmp_path, "liar", "echo 's UNSATISFIABLE'\nexit 20\n")
    # (as stated: preprocessed, line logic solves dancer, and no engine is called)
    assert main(["solve", "dancer", "-b", f"external:{exe}", "--no-preprocess"]) == 4
    assert capsys.readouterr().err == (f"puzzlesat: verification failed: external:{exe} says there is no solution, "
                                       "but the solution dancer gives (its goal) is one (verified): the engine is "
                                       "wrong\n")
    # a count the file expects is a comment: said, not held against the answer
    assert main(["solve", "dominoes-2x4", "-b", f"external:{exe}"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("no solution (proved by external:") and err == (
        f"puzzlesat: warning: the instance file expects 5 solutions; external:{exe} says there is none\n")
    # a file stating only its count up to symmetry expects solutions all the
    # same (the warning was not given); decode and count say so too
    assert main(["solve", "pentomino-6x10", "-b", f"external:{exe}"]) == 1
    warning = "puzzlesat: warning: the instance file expects 2,339 solutions up to symmetry; "
    assert capsys.readouterr().err == warning + f"external:{exe} says there is none\n"
    answer = tmp_path / "unsat.txt"
    answer.write_text("s UNSATISFIABLE\n")
    assert main(["decode", "pentomino-6x10", str(answer)]) == 1
    assert capsys.readouterr().err == warning + "the solver says there is none\n"
    assert main(["count", "pentomino-6x10", "-b", f"external:{exe}"]) == 0
    assert capsys.readouterr().err == warning + "the count is 0\n"
    # a file that says nothing of its solutions: nothing to check
    p = tmp_path / "square.toml"
    p.write_text('[board]\nsize = [2, 2]\n[[pieces]]\nset = "dominoes"\ncount = 2\n')
    assert main(["solve", str(p), "-b", f"external:{exe}"]) == 1
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("command", [["count", "--unique"], ["count", "--no-goal"], ["count", "--unique", "--json"],
                                     ["check", "--no-goal"]])
def test_count_and_check_check_a_count_of_none_against_what_the_file_knows(tmp_path, capsys, command):
    # solve refused the lying solver's "no solution"; a count that did not
    # start from the goal (--unique, --no-goal) said "0 solutions", exit 0,
    # and check "solvable: no", exit 1 (QA)
    from puzzlesat.cli import main

    # 5-Dom (which line logic does not solve: check searches) with its goal
    assert main(["solve", "5-dom", "--json", "-b", "cpsat"]) == 0
    rows = json.loads(capsys.readouterr().out)["solution"]
    dom = tmp_path / "5-dom.non"
    source = Path(puzzlesat.instances.__file__).parent / "nonogram" / "5-dom.non"
    dom.write_text(source.read_text() + 'goal "' + "".join(rows).replace("#", "1").replace(".", "0") + '"\n')
    exe = _fake(tmp_path, "liar", "echo 's UNSATISFIABLE'\nexit 20\n")
    assert main(command[:1] + [str(dom)] + command[1:] + ["-b", f"external:{exe}"]) == 4
    out, err = capsys.readouterr()
    message = (f"verification failed: external:{exe} says there is no solution, but the solution the puzzle file "
               "gives (its goal) is one (verified): the engine is wrong")
    if "--json" in command:
        assert json.loads(out) == {"error": message, "kind": "verification-failed", "exit_code": 4}
    else:
        assert (out, err) == ("", f"puzzlesat: {message}\n")


@pytest.mark.parametrize("job", [["check"], ["check", "--no-preprocess"], ["solve"], ["count"]])
def test_a_line_logic_contradiction_is_refused_when_the_goal_is_a_solution(monkeypatch, capsys, job):
    # line logic is sound: its contradiction against a verified goal is a
    # fault, refused as an engine's "no solution" is (review); solve and
    # count take line logic's contradiction as their answer (no engine is
    # called), so they refuse it too; check, which line-solves whatever
    # the search, says so in the same words (QA: "the engine is wrong")
    from puzzlesat.cli import main
    from puzzlesat.models.nonogram import linesolve

    real = linesolve.line_solve

    def wrong(puzzle, record=False, start=None, sink=None):
        r = real(puzzle, record=record, start=start, sink=sink)
        r.contradiction, r.contradiction_at = True, "row 1"
        return r

    monkeypatch.setattr(linesolve, "line_solve", wrong)
    assert main([*job[:1], "dancer", *job[1:]]) == 4
    assert capsys.readouterr().err == ("puzzlesat: verification failed: line logic says there is no solution (in round "
                                       "9, after fixing 50 of 50 cells, no placement of row 1's clue fits), but the "
                                       "file's goal picture is one (verified): line logic is wrong\n")


@needs("minisat")
def test_a_split_count_stopped_early_prints_no_worker_traceback(cli):
    # the pool's SIGTERM became the back end's Terminated in each worker (to
    # kill the solver's own session), which printed "Process ForkPoolWorker-N:
    # Traceback ..." at every stopped count (QA); and no solver outlives it
    r = cli("count", "pentomino-3x4x5", "-b", "external:minisat", "-j", "2", "-t", "2", "--json")
    d = r.json()
    assert (r.code, d["complete"], d["stopped_by"], d["subproblems"] > 1) == (3, False, "time-limit", True)
    assert "Traceback" not in r.err and "ForkPoolWorker" not in r.err, r.err
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert not [line for line in ps.splitlines() if line.startswith("minisat ")], ps


def test_garbage_output_with_sat_exit_code(tmp_path):
    exe = _fake(tmp_path, "garbage", "echo 'I think so'\nexit 10\n")
    with pytest.raises(BackendError, match="cannot read"):
        ExternalBackend(exe).search(_problem())


def test_model_beyond_the_cnf(tmp_path):
    exe = _fake(tmp_path, "wide", "echo 's SATISFIABLE'\necho 'v 1 -2 99 0'\nexit 10\n")
    with pytest.raises(BackendError, match="variable 99 is beyond"):
        ExternalBackend(exe).search(_problem())


def test_solver_giving_up_is_unknown(tmp_path):
    exe = _fake(tmp_path, "giveup", "echo 's UNKNOWN'\nexit 0\n")
    r = ExternalBackend(exe).search(_problem())
    assert (r.complete, r.stopped_by) == (False, "solver gave up")
    assert ExternalBackend(exe).solve(_problem()).status == Status.UNKNOWN


@pytest.mark.parametrize("job", [["solve", "twins"], ["count", "twins", "--limit", "2"], ["check", "twins"]])
def test_a_solver_that_gives_up_ends_the_symmetric_first_search(tmp_path, cli, job):
    # twins' clues are symmetric: its search tries the symmetric subspaces in
    # doubling time slices, and took a solver's 's UNKNOWN' for a slice that
    # ran out: called again and again, for ever without -t (QA)
    calls = tmp_path / "calls"
    exe = _fake(tmp_path, "giveup", f"echo x >> {calls}\necho 's UNKNOWN'\nexit 0\n")
    r = cli(*job, "-b", f"external:{exe}", "--json", timeout=60)
    assert r.code == 3, r.err
    assert calls.read_text() == "x\n"
    assert r.json()["stopped_by"] == "solver gave up"


def test_a_solver_that_says_unknown_in_a_comment_and_exits_0_gave_up(tmp_path):
    # Debian's CaDiCaL (sc2021) past -t or -c: 'c UNKNOWN', exit 0, no status
    # line; that was "solver failed ... no status line", exit 4, and a count
    # lost the solutions it had found
    exe = _fake(tmp_path, "cadical", "echo 'c --- [ result ] ---'\necho 'c UNKNOWN'\nexit 0\n")
    r = ExternalBackend(exe).search(_problem())
    assert (r.complete, r.stopped_by) == (False, "solver gave up")
    assert ExternalBackend(exe).solve(_problem()).status == Status.UNKNOWN
    # a first call that answers, then one that gives up: the count keeps the first
    exe = _fake(tmp_path, "twice", f"if [ -e {tmp_path}/once ]; then echo 'c UNKNOWN'; exit 0; fi\n"
                                   f"touch {tmp_path}/once\necho 's SATISFIABLE'\necho 'v 1 -2 0'\nexit 10\n")
    r = ExternalBackend(exe).search(_problem())
    assert (r.count, r.complete, r.stopped_by) == (1, False, "solver gave up")
    # other chatter with exit 0 and no status line is still no answer
    exe = _fake(tmp_path, "chatter", "echo 'c nothing to say'\nexit 0\n")
    with pytest.raises(BackendError, match=r"^cannot read chatter's answer: chatter output: not a SAT solver's answer: no status line"):
        ExternalBackend(exe).search(_problem())


def test_a_crash_by_a_signal_is_named(tmp_path):
    exe = _fake(tmp_path, "segv", "echo 'c started'\nkill -SEGV $$\n")
    # (with nothing on stderr, its last lines on stdout are its last words)
    with pytest.raises(BackendError, match=r"^segv was killed by signal SIGSEGV \(exit code -11\): c started$"):
        ExternalBackend(exe).search(_problem())


def test_a_result_file_solver_that_wrote_none_is_said_so(tmp_path):
    # MiniSat writes its answer to a file; one that wrote none was reported as
    # "cannot read ... /tmp/puzzlesat-ext-XXXX/result.txt:1", a file that never was
    exe = _fake(tmp_path, "minisat", "echo 'c parsing'\necho 'oops' >&2\nexit 0\n")
    with pytest.raises(BackendError, match=r"^minisat exited with code 0 and wrote no result file \(nor an answer "
                                           r"on its output\): oops$"):
        ExternalBackend(exe).search(_problem())


def test_a_solver_that_gives_up_with_its_own_exit_code_is_unknown_not_failed(tmp_path):
    # CryptoMiniSat past --maxtime prints 's INDETERMINATE' and exits 15:
    # that was "failed with exit code 15" (exit 4), where decode of the same
    # output says unknown (exit 3) (QA)
    exe = _fake(tmp_path, "cms", "echo 's INDETERMINATE'\nexit 15\n")
    r = ExternalBackend(exe).search(_problem())
    assert (r.complete, r.stopped_by) == (False, "solver gave up: exit code 15")
    assert ExternalBackend(exe).solve(_problem()).status == Status.UNKNOWN
    # an exit code of its own with anything else is still a failure
    exe = _fake(tmp_path, "sat15", "echo 's SATISFIABLE'\necho 'v 2 0'\nexit 15\n")
    with pytest.raises(BackendError, match="^sat15 failed with exit code 15$"):
        ExternalBackend(exe).search(_problem())


def test_a_solver_that_gives_up_says_why_in_its_comments(tmp_path):
    # minisat+ given a CNF prints 'c PARSE ERROR! ...' and 's UNKNOWN' on
    # stdout and exits 5: "solver gave up: exit code 5" hid the reason (QA)
    exe = _fake(tmp_path, "pb", "echo 'c Parsing PB file...'\necho 'c PARSE ERROR! [line 1] Empty expression.'\n"
                                "echo 's UNKNOWN'\nexit 5\n")
    r = ExternalBackend(exe).search(_problem())
    assert (r.complete, r.stopped_by) == (False, "solver gave up: exit code 5: c Parsing PB file... | "
                                                 "c PARSE ERROR! [line 1] Empty expression.")
    # stderr, where there is any, is the solver's word (its stdout's chatter is not added)
    exe = _fake(tmp_path, "pb2", "echo 'c banner'\necho 'bad input' >&2\necho 's UNKNOWN'\nexit 5\n")
    assert ExternalBackend(exe).search(_problem()).stopped_by == "solver gave up: exit code 5: bad input"
    # a long line is cut
    exe = _fake(tmp_path, "pb3", "printf 'c %0300d\\n' 0\necho 's UNKNOWN'\nexit 5\n")
    assert ExternalBackend(exe).search(_problem()).stopped_by == "solver gave up: exit code 5: c " + "0" * 198


def test_status_and_model_lines_may_have_a_tab_after_their_letter(tmp_path):
    # decode read 's<TAB>SATISFIABLE' and 'v<TAB>...'; the external back end
    # kept only lines starting 's ' or 'v ' and said "no status line" (QA)
    exe = _fake(tmp_path, "tabs", "printf 's\\tSATISFIABLE\\nv\\t-1\\nv\\t2 0\\n'\nexit 10\n")
    r = ExternalBackend(exe).search(_problem(), limit=1, keep=True)
    assert r.solutions == [frozenset({2})]


def test_options_pass_through_and_chatter_is_ignored(tmp_path):
    # prints its arguments as comments, a banner line, then a split model
    exe = _fake(tmp_path, "chatty", 'echo "c args: $*"\necho "WARNING: banner"\n'
                                    "echo 's SATISFIABLE'\necho 'v -1'\necho 'v 2 0'\nexit 10\n")
    be = get_backend(f"external:{exe} --foo 'a b'")
    r = be.search(_problem(), limit=1, keep=True)
    assert r.solutions == [frozenset({2})]


def test_compare_with_a_crashed_solver_exits_4_as_solve_does(tmp_path):
    # a solver that crashed is exit 4 for solve; compare said 3 (incomplete)
    import json
    import subprocess
    import sys

    exe = _fake(tmp_path, "crash", "echo 'parse error: boom' >&2\nexit 1\n")
    r = subprocess.run([sys.executable, "-m", "puzzlesat", "compare", "dominoes-2x4", "-b", f"external:{exe},exact",
                        "--json"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 4, r.stderr
    runs = {x["backend"]: x for x in json.loads(r.stdout)["runs"]}
    crashed = runs[f"external:{exe}"]
    assert (crashed["status"], crashed["solver_failed"]) == ("error", True)
    assert (crashed["variables"], crashed["clauses"]) == (10, 24)  # the model's size stays (it showed "-")
    assert (runs["exact"]["result"], runs["exact"]["agree"]) == ("solved", True)
    r = subprocess.run([sys.executable, "-m", "puzzlesat", "compare", "dominoes-2x4", "-b", "exact,cadical195"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr


def test_a_solver_that_cannot_start_is_bad_input_in_compare_as_in_solve(tmp_path, cli):
    # a script whose '#!' interpreter is not there: the system says "No such
    # file or directory" of a file that is; compare said exit 3, as if the
    # time limit had stopped it (QA)
    exe = tmp_path / "orphan"
    exe.write_text("#!/nonexistent/interp\n")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    why = (f"cannot run {exe}: No such file or directory: its first line, '#!/nonexistent/interp', names an "
           "interpreter that is not there")
    r = cli("solve", "dominoes-2x4", "-b", f"external:{exe}")
    assert (r.code, r.err.strip()) == (2, f"puzzlesat: {why}")
    r = cli("compare", "dominoes-2x4", "-b", f"external:{exe},exact", "--json")
    assert r.code == 2, r.err
    runs = {x["backend"]: x for x in r.json()["runs"]}
    assert (runs[f"external:{exe}"]["status"], runs[f"external:{exe}"]["error"]) == ("error", why)
    assert runs["exact"]["result"] == "solved"
    # Windows line ends: the '#!/bin/sh' it names is there, '/bin/sh\r' is not (review)
    crlf = tmp_path / "crlf"
    crlf.write_bytes(b"#!/bin/sh\r\nexit 20\r\n")
    crlf.chmod(crlf.stat().st_mode | stat.S_IEXEC)
    r = cli("solve", "dominoes-2x4", "-b", f"external:{crlf}")
    assert (r.code, r.err.strip()) == (2, f"puzzlesat: cannot run {crlf}: No such file or directory: its first "
                                          "line, '#!/bin/sh\\r', ends in a carriage return (Windows line ends), "
                                          "so the interpreter it names is not there: convert it (dos2unix)")
    junk = tmp_path / "junk"
    junk.write_bytes(bytes(range(1, 200)))
    junk.chmod(junk.stat().st_mode | stat.S_IEXEC)
    r = cli("solve", "dominoes-2x4", "-b", f"external:{junk}")
    assert (r.code, r.err.strip()) == (2, f"puzzlesat: cannot run {junk}: Exec format error: it is not a program "
                                          "this machine can run (nor a script starting with '#!')")


def test_ctrl_c_in_compare_keeps_the_runs_done(tmp_path):
    # the finished runs were lost: compare printed "interrupted" and nothing else
    import signal
    import subprocess
    import sys

    pidfile = tmp_path / "pids"
    exe = _fake(tmp_path, "hang", f"sleep 300 &\necho $! > {pidfile}\necho $$ >> {pidfile}\nwait\n")
    p = subprocess.Popen([sys.executable, "-m", "puzzlesat", "compare", "dominoes-2x4", "-b",
                          f"exact,external:{exe},cadical195", "-t", "60"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 60
    while len(pidfile.read_text().split() if pidfile.exists() else []) < 2:
        assert time.monotonic() < end and p.poll() is None, p.communicate()
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 3, err
    assert err == "puzzlesat: interrupted: 1 of 3 runs done, 1 not run\n"
    lines = out.splitlines()
    exact = lines[2].split()
    assert exact[1:4] + exact[7:] == ["exact", "-", "10", "solved", "-", "yes"]
    assert lines[3].split()[1] == f"external:{exe}" and "INTERRUPTED" in lines[3].split()
    assert lines[3].split()[6] == "-"  # its time: not ">60", which says the time limit stopped it (review)
    assert len(lines) == 5 and lines[4] == f"note: dominoes-2x4 external:{exe} mixed: stopped by Ctrl-C"


def test_a_solver_that_repeats_its_answer_is_caught_by_the_blocking_clause(tmp_path):
    # every call answers a=1, b=0: the second breaks the clause blocking the
    # first, and is refused rather than counted as a second solution
    exe = _fake(tmp_path, "parrot", "echo 's SATISFIABLE'\necho 'v 1 -2 0'\nexit 10\n")
    with pytest.raises(VerificationError, match=r"^backend external:.*parrot returned a model that breaks a clause it was "
                                           r"given \(the blocking clause of solution 1: it answered that solution "
                                           r"again\): -1 0$"):
        ExternalBackend(exe).search(_problem(), limit=3)


@needs("cadical")
def test_count_with_a_solver_that_replays_its_first_answer_fails_verification(tmp_path, capsys):
    # a real model of dancer's CNF (CaDiCaL's, on the first call), replayed at
    # every later call: count must say the engine is wrong (exit 4), not count it twice
    from puzzlesat.cli import main

    answer = tmp_path / "answer"
    exe = _fake(tmp_path, "replay", f'if [ ! -e {answer} ]; then cadical -q "$@" > {answer}; fi\n'
                                    f"cat {answer}\nexit 10\n")
    assert main(["count", "dancer", "-b", f"external:{exe}", "--limit", "3", "--no-goal", "--no-preprocess"]) == 4
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(
        f"puzzlesat: verification failed: backend external:{exe} returned a model that breaks a clause it was given "
        "(the blocking clause of solution 1: it answered that solution again): ")


@needs("cadical")
def test_a_banner_starting_with_s_is_not_read_as_the_status_line(tmp_path, capsys):
    # 'starting up' begins with an s but is no 's SATISFIABLE' line: chatter, ignored
    from puzzlesat.cli import main

    exe = _fake(tmp_path, "banner", 'echo "starting up"\necho "v-ish chatter"\nexec cadical -q "$@"\n')
    assert main(["solve", "dancer", "-b", f"external:{exe}", "--no-preprocess"]) == 0
    assert capsys.readouterr().err == ""


def test_a_model_of_true_literals_only_is_checked_with_the_others_false(tmp_path, capsys):
    # a "solver" that answers, as its true literals only, a real tiling of
    # dominoes-2x4 that the CNF it was given rules out (a fixed-point
    # equality of --unique needs a placement it leaves out): no clause had
    # every literal assigned false, so 5 classes were counted for 4 (QA)
    import sys

    from pysat.solvers import Solver

    from puzzlesat.cli import main
    from puzzlesat.encoders.cnf import encode_cnf

    problem = load_puzzle("dominoes-2x4").compile()
    enc = encode_cnf(problem, "mixed")
    tilings = []
    with Solver(name="minisat22", bootstrap_with=enc.clauses) as s:
        while s.solve():
            tiling = [v for v in s.get_model() if v > 0 and v in set(problem.primary)]
            tilings.append(tiling)
            s.add_clause([-v for v in tiling])
    assert len(tilings) == 5
    (tmp_path / "tilings.json").write_text(json.dumps(tilings))
    exe = tmp_path / "sneaky"
    exe.write_text(f"#!{sys.executable}\n" + f'''import json, sys
from pysat.formula import CNF
from pysat.solvers import Solver
cnf = CNF(from_file=sys.argv[-1])
with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
    for t in json.load(open({str(tmp_path / "tilings.json")!r})):
        outright = any(all(-l in t for l in c) for c in cnf.clauses)
        if not outright and not s.solve(assumptions=t):
            print("s SATISFIABLE"); print("v", *t, 0); sys.exit(10)
    if s.solve():
        print("s SATISFIABLE"); print("v", *s.get_model(), 0); sys.exit(10)
    print("s UNSATISFIABLE"); sys.exit(20)
''')
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    assert main(["count", "dominoes-2x4", "--unique", "-b", f"external:{exe}"]) == 4
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(
        f"puzzlesat: verification failed: backend external:{exe} returned a model that breaks a clause it was given "
        "(clause ")


def test_a_model_that_leaves_variables_out_must_extend_to_a_model():
    from puzzlesat.backends.external import _check_model

    # 1 and 2 true force 3 true, which the unit -3 forbids: no model has them,
    # though no clause has all its literals assigned false
    clauses = [[-1, -2, 3], [-3]]
    with pytest.raises(VerificationError, match=r"^backend x returned a model that leaves 1 of the 3 variables "
                                                r"unassigned, and no model of the CNF it was given \(blocking clauses "
                                                r"included\) has its literals 1 2 together \(a primary variable it "
                                                r"leaves out is read as false\)$"):
        _check_model("x", {1: True, 2: True}, clauses, [], 3)
    _check_model("x", {1: True, 2: False}, clauses, [], 3)  # 3 false extends it
    with pytest.raises(VerificationError, match=r"has its literal -2 \(a primary"):
        _check_model("x", {2: False}, [[-3]], [[2, 3]], 3)  # a blocking clause counts too


def test_a_solver_path_under_home_is_expanded(tmp_path, cli):
    # external:~/solver: no shell expands the ~ (it was "not executable", review)
    exe = tmp_path / "giveup"
    exe.write_text("#!/bin/sh\necho 's UNKNOWN'\n")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    import os
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "puzzlesat", "solve", "dominoes-2x4", "-b", "external:~/giveup",
                        "--json"], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "HOME": str(tmp_path)})
    assert r.returncode == 3, r.stderr
    assert json.loads(r.stdout)["stopped_by"] == "solver gave up"
