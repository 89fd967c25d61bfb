"""Options a user can get wrong, and answers that must say what happened
(cases an outside review of the CLI found)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from puzzlesat.loading import load_puzzle
from puzzlesat.commands.common import check_writable


@pytest.mark.parametrize("value,why", [
    ("inf", "at most 604,800 seconds (a week): 'inf'"),   # used to overflow the solvers' timers (traceback)
    ("1e10", "at most 604,800 seconds (a week): '1e10'"),
    ("nan", "not a number: 'nan'"),                        # used to stop at once, "at least 0"
    ("1_0", "not a number: '1_0'"),                        # float() reads 10
    ("ten", "not a number: 'ten'"),
    ("0", "must be positive: '0'"),
])
def test_time_limit_must_be_finite_and_positive(cli, value, why):
    r = cli("solve", "pentomino-3x20", "-t", value)
    assert r.code == 2 and r.out == ""
    assert r.err.splitlines()[-1] == f"puzzlesat solve: error: argument --time-limit/-t: {why}"


@pytest.mark.parametrize("opt,value,why", [
    ("--limit", "1_0", "not a whole number: '1_0'"),  # int() reads 10
    ("--limit", "2.5", "not a whole number: '2.5'"),
    ("--limit", "0", "must be at least 1: '0'"),
    ("--jobs", "1_0", "not a whole number: '1_0'"),
])
def test_a_count_option_takes_whole_numbers_as_written(cli, opt, value, why):
    r = cli("count", "pentomino-3x20", opt, value)
    assert r.code == 2 and r.out == ""
    name = {"--limit": "--limit/-n", "--jobs": "--jobs/-j"}[opt]
    assert r.err.splitlines()[-1] == f"puzzlesat count: error: argument {name}: {why}"


def test_compare_refuses_a_plot_it_cannot_write_before_running(cli):
    r = cli("compare", "pentomino-3x20", "-b", "exact", "--plot", "out.txt")
    assert r.code == 2
    last = r.err.splitlines()[-1]
    assert last.startswith("puzzlesat compare: error: argument --plot: 'out.txt': a plot is written as one of ")
    assert ".png" in last and ".svg" in last


@pytest.mark.parametrize("args,opt", [
    (("compare", "pentomino-3x20", "-b", ","), "--backends/-b"),
    (("compare", "pentomino-3x20", "-e", " , "), "--encodings/-e"),
    (("info", "pentomino-3x20", "--encodings", ","), "--encodings"),
])
def test_a_list_option_that_names_nothing(cli, args, opt):
    r = cli(*args)
    assert r.code == 2
    assert r.err.splitlines()[-1].endswith(f"error: argument {opt}: names nothing: {args[-1]!r}")


@pytest.mark.parametrize("args,opt,why", [
    (("info", "dominoes-2x4", "--encodings", "mixed,,pairwise"), "--encodings", "an empty name between commas"),
    (("compare", "pentomino-3x20", "-b", "exact,"), "--backends/-b", "an empty name between commas"),
    (("info", "dominoes-2x4", "--encodings", "mixed,mixed"), "--encodings", "'mixed' is named twice"),
])
def test_a_list_option_drops_nothing_silently(cli, args, opt, why):
    # an empty item or a repeated one is a typo or a slip, not something to drop quietly
    r = cli(*args)
    assert (r.code, r.out) == (2, "")
    assert r.err.splitlines()[-1].endswith(f"error: argument {opt}: {why}: {args[-1]!r}")


def test_compare_refuses_an_alias_next_to_its_solver(cli):
    r = cli("compare", "pentomino-3x20", "-b", "cd195,cadical195")
    assert (r.code, r.err) == (2, "puzzlesat: --backends: 'cd195' and 'cadical195' name the same engine\n")


def test_compare_refuses_an_instance_given_twice(cli):
    # it ran twice over, where a back end named twice is refused (QA)
    r = cli("compare", "dominoes-2x4", "pentomino-3x20", "dominoes-2x4", "-b", "exact")
    assert (r.code, r.out, r.err) == (2, "", "puzzlesat: INSTANCE: 'dominoes-2x4' is given twice\n")
    path = load_puzzle("dominoes-2x4").path
    r = cli("compare", "dominoes-2x4", str(path), "-b", "exact", "--json")
    assert (r.code, r.json()) == (2, {"error": f"INSTANCE: 'dominoes-2x4' and '{path}' are the same file",
                                      "kind": "usage", "exit_code": 2})


def test_no_goal_without_a_goal_and_color_with_json_are_said(cli):
    r = cli("count", "letter-p", "--no-goal", "--limit", "1")
    assert r.code in (0, 3)
    assert "puzzlesat: warning: --no-goal: letter-p has no goal picture; nothing to leave out" in r.err.splitlines()
    r = cli("solve", "dominoes-2x4", "--json", "--color", "always")
    assert r.code == 0 and r.json()["status"] == "solved"
    assert r.err == "puzzlesat: warning: --color always has no effect with --json (JSON has no colours)\n"

    # a goal that the count would never start from: said (QA: silently ignored)
    r = cli("count", "dancer", "--unique", "--no-goal")
    assert (r.code, r.err) == (0, "puzzlesat: note: --no-goal: a count up to symmetry (--unique) never starts from "
                                  "the goal; here it only keeps the goal out of the lower bound a stopped count "
                                  "gives\n")
    r = cli("count", "dancer", "-b", "ganak", "--no-goal", "--no-preprocess")
    assert (r.code, r.err) == (0, "puzzlesat: note: --no-goal: ganak, which counts without listing solutions, "
                                  "never starts from the goal; here it only keeps the goal out of the lower bound a "
                                  "stopped count gives\n")
    r = cli("count", "dancer", "--no-goal")  # where it does leave the goal out: nothing to say
    assert (r.code, r.err) == (0, "")


def test_a_directory_of_a_bundled_name_is_said(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dominoes-2x4").mkdir()
    r = cli("count", "dominoes-2x4")
    assert r.code == 0
    assert r.err == ("puzzlesat: note: dominoes-2x4 is read as the bundled instance of that name; the directory "
                     "dominoes-2x4 here is not a puzzle file\n")


def test_jobs_has_a_ceiling(cli):
    r = cli("count", "pentomino-3x20", "-j", "100000")
    assert r.code == 2
    assert "argument --jobs/-j: at most 256 worker processes: '100000'" in r.err.splitlines()[-1]


def test_no_goal_on_a_tiling_is_refused(cli):
    r = cli("count", "pentomino-3x20", "--no-goal")
    assert (r.code, r.out) == (2, "")
    assert r.err == "puzzlesat: pentomino-3x20: --no-goal: tiling puzzles have no goal to leave out\n"


def test_a_solver_that_gives_up_is_not_blamed_on_the_time_limit(cli, tmp_path):
    giveup = tmp_path / "giveup"
    giveup.write_text("#!/bin/sh\necho 's UNKNOWN'\nexit 0\n")
    giveup.chmod(0o755)
    r = cli("solve", "pentomino-3x20", "-b", f"external:{giveup}")
    assert r.code == 3
    assert r.out.startswith(f"unknown: external:{giveup} found no solution, nor proved that there is none: "
                            "solver gave up (")


def test_a_program_that_prints_no_answer_is_an_error(cli):
    r = cli("solve", "pentomino-3x20", "-b", "external:/bin/true")  # exits 0 without a word
    assert (r.code, r.out) == (4, "")  # the solver failed, not the input
    assert r.err == ("puzzlesat: solver failed: true exited with code 0 and printed nothing on its standard output: "
                     "is it a DIMACS SAT solver?\n")


@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical is not installed: apt-get install -y cadical")
def test_a_solver_that_answers_on_stderr_is_shown_it(cli, tmp_path):
    fake = tmp_path / "onerr"
    fake.write_text('#!/bin/sh\ncadical -q "$@" >&2\n')
    fake.chmod(0o755)
    r = cli("solve", "dominoes-2x4", "-b", f"external:{fake}")
    assert (r.code, r.out) == (4, "")
    assert r.err.startswith("puzzlesat: solver failed: onerr exited with code 10 and printed nothing on its standard "
                            "output: is it a DIMACS SAT solver? Its standard error ends: s SATISFIABLE | v ")


def test_a_solver_path_that_is_no_program_is_said_what_it_is(cli, tmp_path):
    plain = tmp_path / "plain"
    plain.write_text("#!/bin/sh\n")
    r = cli("solve", "dominoes-2x4", "-b", f"external:{plain}")
    assert (r.code, r.err) == (2, f"puzzlesat: external solver '{plain}' is not executable (chmod +x {plain})\n")
    r = cli("solve", "dominoes-2x4", "-b", f"external:{tmp_path}")
    assert (r.code, r.err) == (2, f"puzzlesat: external solver '{tmp_path}' is a directory, not a solver\n")
    r = cli("solve", "dominoes-2x4", "-b", "external:nosuchsolver")
    assert (r.code, r.err) == (2, "puzzlesat: external solver 'nosuchsolver' not found (not on PATH, not an "
                                  "executable file)\n")


def test_a_solver_that_crashes_is_exit_4_not_bad_input(cli, tmp_path):
    crash = tmp_path / "crash"
    crash.write_text("#!/bin/sh\necho 'c starting' >&2\nkill -SEGV $$\n")
    crash.chmod(0o755)
    r = cli("solve", "pentomino-3x20", "-b", f"external:{crash}", "--json")
    assert (r.code, r.json()["kind"], r.json()["exit_code"]) == (4, "solver-failed", 4)
    assert r.json()["error"] == "solver failed: crash was killed by signal SIGSEGV (exit code -11): c starting"


def test_an_area_mismatch_calls_no_solver(cli, tmp_path):
    f = tmp_path / "area.box"
    f.write_text("BOX / 2 * 4\n" + "ELEMENT / (D) (1, 1), (1, 2)\n" * 3)
    r = cli("count", f)
    assert r.code == 0  # a count that ended: 0
    assert r.out == "0 solutions: the pieces cover 6 cells but the board has 8 free cells\n(no solver called)\n"
    d = cli("count", f, "--json").json()
    assert (d["count"], d["complete"], d["method"], d["verdict"]) == (0, True, "precheck", "none")
    r = cli("solve", f)
    assert r.code == 1
    assert r.out == "no solution: the pieces cover 6 cells but the board has 8 free cells\n"


def test_an_area_mismatch_chooses_no_count_engine(monkeypatch, tmp_path, capsys):
    # choosing one took 2.2 of the 4.3 s that a 1 x 100,000 strip of
    # 99,999 monominoes took to say so (the determinant's plan; QA)
    from puzzlesat import jobs
    from puzzlesat.cli import main

    monkeypatch.setattr(jobs, "choose_count_backend", lambda *a, **k: pytest.fail("an engine was chosen"))
    f = tmp_path / "strip.toml"
    f.write_text('[board]\nsize = [1, 40]\n[[pieces]]\nset = "monominoes"\ncount = 39\n')
    assert main(["count", str(f)]) == 0
    assert capsys.readouterr().out == ("0 solutions: the pieces cover 39 cells but the board has 40 free cells\n"
                                       "(no solver called)\n")


def test_check_knows_uniqueness_from_line_logic_without_a_search(starved, cli):
    # dancer: line logic fixes all 50 cells, so the grid it forced is the one
    # solution: no search runs (a search given no time, as here, was stopped
    # and proved nothing; a 200,001-cell row ran one to the time limit)
    code, out = starved("check", "dancer", "--no-goal", "--json")
    d = json.loads(out)
    assert code == 0 and (d["stopped_by"], d["complete"], d["searched"]) == (None, True, False)
    assert (d["solvable"], d["unique"], d["unique_by_line_logic"], d["matches_goal"]) == (True, True, True, True)
    code, out = starved("check", "dancer", "--no-goal")
    assert out.splitlines()[1:3] == ["solvable:      yes (line logic, no search)",
                                     "unique:        yes: line logic alone fixes every cell"]
    # an engine asked for is not used: said
    r = cli("check", "dancer", "-b", "minisat22")
    assert r.code == 0 and r.err == ("puzzlesat: note: line logic alone solves dancer: no search, so --backend "
                                     "minisat22 is not used\n")


def test_check_compiles_nothing_when_line_logic_solves_it(monkeypatch, capsys):
    # the model is for the search; line logic solving every cell needs none
    # (compiling was 17 of the 19 s a 200,001-cell row took)
    from puzzlesat import cli
    from puzzlesat.models.nonogram.puzzle import Nonogram

    def compiled(self):
        raise AssertionError("compiled")
    monkeypatch.setattr(Nonogram, "compile", compiled)
    assert cli.main(["check", "dancer", "--json", "-b", "minisat22", "-e", "seqcounter"]) == 0
    out, err = capsys.readouterr()
    d = json.loads(out)
    assert (d["solvable"], d["unique"], d["searched"], d["backend"]) == (True, True, False, None)
    assert err == ("puzzlesat: note: line logic alone solves dancer: no search, so --backend minisat22 and "
                   "--encoding seqcounter are not used\n")
    with pytest.raises(AssertionError, match="compiled"):  # a puzzle line logic leaves open is compiled
        cli.main(["check", "5-dom", "--json"])


def test_check_compares_no_goal_when_it_found_no_solution(cli, starved, tmp_path):
    # the 2x2 diagonals: line logic fixes nothing; a search stopped at once
    # knows nothing, so the goal is not compared (null), not "false"
    f = tmp_path / "d2.non"
    f.write_text('width 2\nheight 2\n\nrows\n1\n1\n\ncolumns\n1\n1\n\ngoal "1001"\n')
    d = json.loads(starved("check", f, "--no-goal", "--json")[1])
    assert (d["solvable"], d["unique"], d["unique_by_line_logic"], d["matches_goal"]) == (None, None, False, None)
    d = cli("check", f, "--json").json()  # searched to the end: two solutions, the goal one of them
    assert (d["solvable"], d["unique"], d["matches_goal"]) == (True, False, True)


def test_json_errors_are_json_too(cli, tmp_path):
    f = tmp_path / "bad.box"
    f.write_text("BOX / 2 * x\n")
    r = cli("solve", f, "--json")
    assert r.code == 2
    d = r.json()
    assert d == {"error": r.err.strip().removeprefix("puzzlesat: "), "kind": "bad-input", "exit_code": 2}
    assert d["error"].startswith(f"{f}:1: ")


@pytest.mark.parametrize("args,message", [
    (["solve", "pentomino-3x20", "-e", "foo"], "puzzlesat solve: argument --encoding/-e: invalid choice: 'foo' "),
    (["count", "pentomino-3x20", "--limit", "0"], "puzzlesat count: argument --limit/-n: must be at least 1: '0'"),
    (["compare", "pentomino-3x20", "--count", "--solve"], "puzzlesat compare: argument --solve: not allowed "),
])
def test_command_line_errors_are_json_too(cli, args, message):
    r = cli(*args, "--json")
    assert r.code == 2
    d = r.json()
    assert (d["kind"], d["exit_code"]) == ("usage", 2) and d["error"].startswith(message), d
    assert r.err.splitlines()[-1] == "puzzlesat " + d["error"].removeprefix("puzzlesat ").replace(": ", ": error: ", 1)


def test_version(cli):
    r = cli("--version")
    assert r.code == 0 and re.fullmatch(r"puzzlesat \d+\.\d+\.\d+\S*\n", r.out), r.out


def test_drawing_options_are_checked_and_never_silently_skipped(cli, tmp_path):
    r = cli("solve", "pentomino-3x20", "--png", tmp_path / "a.png", "-b", "external:/bin/false")
    # refused before any solver runs (/bin/false would fail with exit code 1)
    assert (r.code, r.out) == (2, "")
    assert r.err == "puzzlesat: --png: no PNG drawing for tiling puzzles; use --svg\n"
    svg = tmp_path / "a.svg"
    r = cli("solve", "pentomino-5x3x2x2", "-b", "exact", "--svg", svg)  # no tiling exists
    assert r.code == 1 and not svg.exists()
    assert r.err == f"puzzlesat: --svg {svg} not written: no solution to draw\n"


def test_a_command_that_wrote_its_json_and_then_failed_writes_one_object(cli, tmp_path):
    # decode writes its report (valid: false), then fails verification (exit 4)
    from puzzlesat.backends import get_backend
    from puzzlesat.loading import load_puzzle

    problem = load_puzzle("pentomino-3x20").compile()
    lits = sorted(get_backend("exact").solve(problem).assignment)
    cnf = tmp_path / "m.cnf"
    assert cli("export", "pentomino-3x20", "-o", cnf).code == 0
    n = next(int(l.split()[2]) for l in cnf.read_text().splitlines() if l.startswith("p cnf"))
    values = set(lits[1:]) | {lits[0] + 1}  # one piece moved onto its neighbour's cells
    a = tmp_path / "a.txt"
    a.write_text("s SATISFIABLE\nv " + " ".join(str(v if v in values else -v) for v in range(1, n + 1)) + " 0\n")
    r = cli("decode", "pentomino-3x20", a, "--cnf", cnf, "--json")
    assert r.code == 4
    assert len(r.out.splitlines()) == 1
    assert r.json()["valid"] is False


def test_warnings_about_ignored_input_are_capped(cli, tmp_path):
    # 12 unknown keys: 10 warnings, then how many more
    f = tmp_path / "w.non"
    f.write_text("".join(f"key{i} x\n" for i in range(12)) + "width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    r = cli("solve", f)
    assert r.code == 0
    lines = r.err.splitlines()
    assert lines[:10] == [f"puzzlesat: warning: {f}:{i + 1}: unknown key 'key{i}' ignored" for i in range(10)]
    assert lines[10:] == [f"puzzlesat: warning: ... and 2 more things ignored in {f}"]


def test_a_drawing_on_stdout_moves_the_report_to_stderr(cli, tmp_path):
    r = cli("solve", "dancer", "--svg", "-")
    assert r.code == 0, r.err
    assert r.out.startswith("<svg ") and r.out.rstrip().endswith("</svg>")
    assert r.err.splitlines()[-1].startswith("solved ")
    assert not (tmp_path / "-").exists()
    r = subprocess.run([sys.executable, "-m", "puzzlesat", "solve", "dancer", "--png", "-"], capture_output=True)
    assert r.returncode == 0 and r.stdout.startswith(b"\x89PNG\r\n\x1a\n")
    r = cli("solve", "dancer", "--svg", "-", "--json")
    assert r.code == 2 and r.json()["error"] == "--json and --svg - would both write to stdout"


def test_a_drawing_whose_name_says_another_format_gets_a_note(cli, tmp_path):
    r = cli("solve", "dancer", "--png", tmp_path / "x.svg")
    assert r.code == 0, r.err
    assert r.err == f"puzzlesat: note: --png writes PNG, and {tmp_path / 'x.svg'} does not end in .png\n"
    assert (tmp_path / "x.svg").read_bytes().startswith(b"\x89PNG")


def test_a_file_shadowed_by_a_bundled_name_is_mentioned(cli, tmp_path):
    (tmp_path / "pentomino-3x20").write_text("not read\n")
    r = cli("solve", "pentomino-3x20", "-b", "exact", cwd=tmp_path)
    assert r.code == 0, r.err
    assert r.err == ("puzzlesat: note: pentomino-3x20 is read as the bundled instance of that name; the file "
                     "pentomino-3x20 here has no puzzle suffix (.box, .nin, .non, .toml, .xml) and is not read\n")
    (tmp_path / "mine.box").write_text("BOX / 2 * 2\nELEMENT / (A) (1, 1), (1, 2), (2, 1), (2, 2)\n")
    for name in ("mine.box", "./mine.box", str(tmp_path / "mine.box")):
        r = cli("solve", name, "-b", "exact", cwd=tmp_path)
        assert (r.code, r.err) == (0, ""), (name, r.err)
    # an edited copy under the bundled name, its suffix left off: read the bundled one, and said (QA)
    (tmp_path / "pentomino-3x20").unlink()
    (tmp_path / "pentomino-3x20.box").write_text("BOX / 2 * 2\nELEMENT / (A) (1, 1), (1, 2), (2, 1), (2, 2)\n")
    r = cli("solve", "pentomino-3x20", "-b", "exact", cwd=tmp_path)
    assert r.code == 0 and r.err == ("puzzlesat: note: pentomino-3x20 is read as the bundled instance of that "
                                     "name, not pentomino-3x20.box here (give the file's name with its suffix "
                                     "to read it)\n")
    r = cli("solve", "pentomino-3x20.box", "-b", "exact", cwd=tmp_path)
    assert (r.code, r.err) == (0, "")
    # in the bundled instances' own directory, the file is the one read: nothing to say (review)
    bundled = load_puzzle("pentomino-3x20").path
    r = cli("info", "pentomino-3x20", cwd=os.path.dirname(bundled))
    assert (r.code, r.err) == (0, "")


@pytest.mark.parametrize("name,limit,count,complete", [
    ("tetromino-L-4x4", 1, 1, False),   # 3 classes: the views method weighed them all in one run
    ("tetromino-L-4x4", 3, 3, True),
    ("dominoes-2x4", 1, 1, False),      # 4 classes, by Burnside: its identity run listed two
    ("dominoes-2x4", 2, 2, False),
    ("dominoes-2x4", 5, 4, True),
])
def test_limit_holds_for_a_count_up_to_symmetry(cli, name, limit, count, complete):
    from puzzlesat import jobs
    from puzzlesat.backends import get_backend
    from puzzlesat.loading import load_puzzle

    d = cli("count", name, "--unique", "--limit", str(limit), "--show", "5", "--json").json()
    assert (d["count"], d["complete"]) == (count, complete)
    assert d["stopped_by"] == (None if complete else "limit")
    assert len(d["solutions"]) == count  # never more shown than counted
    # the solutions shown are of different classes: their least images differ
    puzzle = load_puzzle(name)
    full = jobs.count(puzzle, get_backend("exact"), unique=True, keep=True)
    rows = {tuple(s["rows"]) for s in d["solutions"]}
    assert len(rows) == count
    assert rows <= {tuple(puzzle.solution_json(s)["rows"]) for s in full.solutions}


def test_outputs_never_overwrite_the_puzzle_file(cli, tmp_path):
    f = tmp_path / "p.box"
    text = "BOX / 2 * 4\n" + "ELEMENT / (D) (1, 1), (1, 2)\n" * 4
    f.write_text(text)
    # (a --plot file has an image suffix, so it is never a puzzle file)
    for args, opt in [(("export", f, "-o", f), "-o"), (("solve", f, "--svg", tmp_path / "." / "p.box"), "--svg"),
                      (("compare", "dominoes-2x4", f, "-b", "exact", "--csv", f), "--csv")]:
        r = cli(*args)
        shown = args[-1]
        assert (r.code, r.err) == (2, f"puzzlesat: {opt} {shown} is the puzzle file itself: writing there would "
                                      "overwrite the puzzle\n"), args
        assert f.read_text() == text


def test_a_named_pipe_is_refused_not_waited_on(cli, tmp_path):
    import os

    f = tmp_path / "p.box"
    os.mkfifo(f)
    r = cli("solve", f)  # (run_cli has a timeout: a read that waits fails the test)
    assert (r.code, r.err) == (2, f"puzzlesat: {f}: is not a regular file (a named pipe or a device?): not read\n")


@pytest.mark.parametrize("command", ["solve", "count"])
def test_the_time_limit_covers_reading_and_compiling(cli, tmp_path, command):
    # a 500x500 board of monominoes takes many seconds to compile: -t stops
    # that too, before any search, as incomplete (exit 3), not after it
    f = tmp_path / "big.toml"
    f.write_text("[board]\nsize = [500, 500]\n[[pieces]]\nset = \"monominoes\"\ncount = 250000\n")
    why = f"the time limit (0.3 s) ran out while reading and compiling {f}, before any search"
    r = cli(command, str(f), "-t", "0.3")
    assert (r.code, r.out, r.err) == (3, "", f"puzzlesat: stopped: {why}\n")
    r = cli(command, str(f), "-t", "0.3", "--json")
    assert (r.code, r.json()) == (3, {"error": f"stopped: {why}", "kind": "time-limit", "exit_code": 3})


def test_a_search_stopped_by_the_time_limit_says_what_reading_took(shared_dir, monkeypatch, capsys):
    # QA: "-t 40" ended with "within the time limit (12.771 s)", the search's
    # share of it; the reading and compiling that took the rest is said too
    import time

    from puzzlesat import cli
    from puzzlesat.commands import common

    real = common._load
    monkeypatch.setattr(common, "_load", lambda *a: (time.sleep(0.4), real(*a))[1])
    faase = shared_dir / "data/nonograms/survey/faase.non"  # no solution from scratch in seconds
    assert cli.main(["solve", str(faase), "-t", "3"]) == 3
    out, err = capsys.readouterr()
    m = re.fullmatch(r"unknown: cadical195 found no solution, nor proved that there is none, within the time "
                     r"limit \(3 s: (\d+\.\d) s reading, compiling and line solving, then (\d+\.\d{3}) s of "
                     r"search\)\n", out)
    assert m and float(m[1]) >= 0.4 and float(m[1]) + float(m[2]) >= 2.9, (out, err)


@pytest.mark.parametrize("command,option,doing", [
    ("solve", None, "reading, compiling and line solving"),
    ("count", None, "reading, compiling and line solving"),
    ("solve", "--no-preprocess", "reading and compiling"),
    ("count", "--no-preprocess", "reading and compiling"),
])
def test_the_time_limit_says_line_solving_when_the_nonogram_is_preprocessed(cli, tmp_path, command, option, doing):
    # solve and count line-solve a nonogram as they compile it (by default):
    # the message said "reading and compiling" all the same
    f = tmp_path / "big.non"
    clue = ",".join(["1"] * 100)
    f.write_text("width 300\nheight 300\nrows\n" + f"{clue}\n" * 300 + "columns\n" + f"{clue}\n" * 300)
    r = cli(command, str(f), "-t", "0.3", *([option] if option else []))
    assert (r.code, r.out, r.err) == (
        3, "", f"puzzlesat: stopped: the time limit (0.3 s) ran out while {doing} {f}, before any search\n")


@pytest.mark.parametrize("command,option,doing", [
    ("solve", None, "reading, compiling and line solving"),
    ("count", "--no-preprocess", "reading and compiling"),
    ("check", "--no-preprocess", "reading, compiling and line solving"),
])
def test_the_steps_named_do_not_depend_on_how_far_reading_got(shared_dir, monkeypatch, capsys, command, option,
                                                              doing):
    # QA: a limit that ran out while the file was read said "reading and
    # compiling" for a nonogram solve then line-solves (the steps were
    # known only once it was read): here it runs out before the reading
    import time

    from puzzlesat import cli
    from puzzlesat.commands import common

    real = common._load
    monkeypatch.setattr(common, "_load", lambda *a: (time.sleep(0.5), real(*a))[1])
    f = shared_dir / "data/nonograms/survey/webpbn-00001.non"
    assert cli.main([command, str(f), "-t", "0.1", *([option] if option else [])]) == 3
    assert capsys.readouterr().err == (f"puzzlesat: stopped: the time limit (0.1 s) ran out while {doing} {f}, "
                                       "before any search\n")


def test_checks_time_limit_covers_reading_line_solving_and_compiling(cli, tmp_path):
    # check's -t covered only the search: a puzzle whose model takes a
    # minute to build (300 lines of 100 blocks, 24 M clauses) ran past it
    f = tmp_path / "big.non"
    clue = ",".join(["1"] * 100)
    f.write_text("width 300\nheight 300\nrows\n" + f"{clue}\n" * 300 + "columns\n" + f"{clue}\n" * 300)
    why = f"the time limit (0.3 s) ran out while reading, compiling and line solving {f}, before any search"
    r = cli("check", str(f), "-t", "0.3")
    assert (r.code, r.out, r.err) == (3, "", f"puzzlesat: stopped: {why}\n")
    r = cli("check", str(f), "-t", "0.3", "--json")
    assert (r.code, r.json()) == (3, {"error": f"stopped: {why}", "kind": "time-limit", "exit_code": 3})


@pytest.mark.parametrize("args,message", [
    (("solve", "dominoes-2x4", "--svg", "-"), "--json and --svg - would both write to stdout"),
    (("export", "dominoes-2x4", "-o", "-"), "--json and '-o -' would both write to stdout; give -o a file"),
    (("compare", "dominoes-2x4", "-b", "cd195,cadical195"), "--backends: 'cd195' and 'cadical195' name the same engine"),
])
def test_options_that_contradict_each_other_are_a_usage_error(cli, args, message):
    # the command line is at fault, whatever the puzzle: kind "usage", as argparse's own errors
    r = cli(*args, "--json")
    assert (r.code, r.json()) == (2, {"error": message, "kind": "usage", "exit_code": 2})


def test_json_carries_the_warnings_said_on_stderr(cli, tmp_path):
    f = tmp_path / "k.non"
    f.write_text("width 2\nheight 1\ncolour red\nrows\n1\ncolumns\n1\n0\n")
    warning = f"warning: {f}:3: unknown key 'colour' ignored (a misspelling of 'color'?)"
    r = cli("solve", f, "--json")
    assert (r.code, r.err, r.json()["warnings"]) == (0, f"puzzlesat: {warning}\n", [warning])
    # a failure's object too: the warnings came before the error
    b = tmp_path / "w.box"
    b.write_text("# titel: x\nBOX / 2 * x\n")
    r = cli("solve", b, "--json")
    assert r.code == 2
    assert r.json() == {"error": f"{b}:2: BOX sizes must be whole numbers separated by '*', got '2 * x'",
                        "kind": "bad-input", "exit_code": 2,
                        "warnings": [f"warning: {b}:1: unknown comment key 'titel' read as a comment "
                                     "(a misspelling of 'title'?)"]}
    # and none when nothing was said
    assert "warnings" not in cli("solve", "dominoes-2x4", "--json").json()


_INTERRUPTED_IMPORT = """
import sys
class Interrupting:
    def find_spec(self, name, path=None, target=None):
        if name == "puzzlesat.cli":
            raise KeyboardInterrupt
sys.meta_path.insert(0, Interrupting())
sys.argv = ["puzzlesat", "solve", "dominoes-2x4"] + sys.argv[1:]
from puzzlesat.program import entry
entry()
"""


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_ctrl_c_while_python_imports_the_program_is_an_interruption(json_flag):
    # a Ctrl-C in the first ~0.2 s landed in the imports: a traceback and
    # exit 1 or 130 instead of "interrupted", exit 3, the JSON object
    r = subprocess.run([sys.executable, "-c", _INTERRUPTED_IMPORT, *json_flag], capture_output=True, text=True,
                       timeout=60)
    assert (r.returncode, r.stderr) == (3, "puzzlesat: interrupted\n")
    assert r.stdout == ('{"error": "interrupted", "kind": "interrupted", "exit_code": 3}\n' if json_flag else "")


def test_ctrl_c_while_the_options_are_read_is_an_interruption(monkeypatch, capsys):
    from puzzlesat import cli

    def interrupted():
        raise KeyboardInterrupt

    import signal

    monkeypatch.setattr(cli, "build_parser", interrupted)
    monkeypatch.setattr(sys, "argv", ["puzzlesat", "count", "dominoes-2x4", "--json"])
    handler = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as e:
            cli.entry()
    finally:  # entry sets the program's own (this process goes on testing)
        signal.signal(signal.SIGINT, handler)
    assert e.value.code == 3
    out, err = capsys.readouterr()
    assert (json.loads(out), err) == ({"error": "interrupted", "kind": "interrupted", "exit_code": 3},
                                      "puzzlesat: interrupted\n")


@pytest.mark.parametrize("name,data,message", [
    ("lat.non", b'width 1\nheight 1\ntitle "caf\xe9"\nrows\n1\ncolumns\n1\n',
     ":3: byte 0xE9 at column 11 is not UTF-8 text (invalid continuation byte); save it as UTF-8"),
    # after a byte-order mark too (offsets into the text after the mark were read in the bytes before it; review)
    ("bom.non", b'\xef\xbb\xbfwidth 1\nheight 1\ntitle "caf\xe9"\nrows\n1\ncolumns\n1\n',
     ":3: byte 0xE9 at column 11 is not UTF-8 text (invalid continuation byte); save it as UTF-8"),
    ("iso.xml", b'<?xml version="1.0" encoding="ISO-8859-1"?>\n<puzzleset><puzzle><title>caf\xe9</title>'
                b'</puzzle></puzzleset>\n',
     ":2: byte 0xE9 at column 30 is not UTF-8 text (invalid continuation byte); its XML declaration says "
     "ISO-8859-1, but puzzlesat reads UTF-8 only (convert it: iconv -f ISO-8859-1 -t UTF-8)"),
    ("bin.toml", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ": not a text file (it holds NUL bytes)"),
    # a stray NUL in UTF-8 text is the reader's to name at its line (review)
    ("nul.toml", b'[board]\nsize = [1, 2]\n[[pieces]]\nname = "D\x00"\nart = "DD"\n',
     ":4: TOML syntax: Illegal character '\\x00'"),
    # UTF-16 or UTF-32 text was "not a text file" (QA)
    ("u16.xml", '<?xml version="1.0" encoding="UTF-16"?>\n<puzzleset/>\n'.encode("utf-16"),
     ": the file is UTF-16 text, but puzzlesat reads UTF-8 only (convert it: iconv -f UTF-16 -t UTF-8)"),
    ("u32.non", "width 1\n".encode("utf-32"),
     ": the file is UTF-32 text, but puzzlesat reads UTF-8 only (convert it: iconv -f UTF-32 -t UTF-8)"),
    ("le.non", "width 1\nheight 1\n".encode("utf-16-le"),
     ": the file is UTF-16LE text, but puzzlesat reads UTF-8 only (convert it: iconv -f UTF-16LE -t UTF-8)"),
    ("be.nin", "1 1\n1\n1\n".encode("utf-16-be"),
     ": the file is UTF-16BE text, but puzzlesat reads UTF-8 only (convert it: iconv -f UTF-16BE -t UTF-8)"),
])
def test_a_file_that_is_not_utf8_is_named_with_its_line(cli, tmp_path, name, data, message):
    # it said "not a text file (invalid continuation byte)", with no line, for
    # a Latin-1 title or an XML file in the encoding its declaration names
    f = tmp_path / name
    f.write_bytes(data)
    r = cli("info", f)
    assert (r.code, r.out, r.err) == (2, "", f"puzzlesat: {f}{message}\n")


@pytest.mark.parametrize("name,text", [
    ("p.non", "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n"),
    ("p.nin", "2 2\n1\n1\n1\n1\n"),
    ("p.box", "BOX / 2 * 1\nELEMENT / (A) (1, 1), (2, 1)\n"),
    ("p.toml", '[board]\nsize = [2, 1]\n[[pieces]]\nset = "dominoes"\ncount = 1\n'),
    ("p.xml", '<?xml version="1.0"?>\n<puzzleset><puzzle type="grid" defaultcolor="black">\n'
              '<clues type="columns"><line><count>1</count></line><line><count>1</count></line></clues>\n'
              '<clues type="rows"><line><count>1</count></line><line><count>1</count></line></clues>\n'
              '</puzzle></puzzleset>\n'),
])
@pytest.mark.parametrize("end", ["\r\n", "\r"])
def test_every_reader_takes_any_line_end(cli, tmp_path, name, text, end):
    # an old Mac editor's bare CR made a .non or .nin file one line: "width
    # must be a positive whole number, got '2\rheight 2\rrows...'" (QA)
    f = tmp_path / name
    f.write_bytes(text.replace("\n", end).encode())
    r = cli("count", f, "--json")
    assert (r.code, r.json()["count"]) == (0, 2 if name.endswith(("non", "nin", "xml")) else 1)
    # and a bad byte is said at the line an editor shows
    f.write_bytes(text.replace("\n", end).encode().replace(b"1", b"\xe9", 1))
    r = cli("info", f)
    line = text[:text.index("1")].count("\n") + 1
    assert r.code == 2 and r.err.startswith(f"puzzlesat: {f}:{line}: byte 0xE9 at column "), r.err


def test_a_file_name_with_an_escape_is_echoed_escaped_in_errors_and_warnings(cli, tmp_path):
    # the error named the file as it is, and its ESC reached the terminal
    f = tmp_path / "b\x1b[31m.toml"
    f.write_text("[board]\nsize = [2, x]\n")
    r = cli("info", f)
    assert r.code == 2 and "\x1b" not in r.err
    assert r.err.startswith(f"puzzlesat: {tmp_path}/b\\x1b[31m.toml:2: ")
    f = tmp_path / "w\x1b[31m.non"  # a warning (an unknown key read past) names it too
    f.write_text("width 1\nheight 1\nfoo 1\nrows\n1\ncolumns\n1\n")
    r = cli("info", f)
    assert r.code == 0 and "\x1b" not in r.err + r.out
    assert r.err.startswith(f"puzzlesat: warning: {tmp_path}/w\\x1b[31m.non:3: ")


@pytest.mark.parametrize("args,code", [(["solve", "{sums}"], 1), (["count", "twins", "--limit", "2"], 3),
                                       (["count", "twins", "--limit", "2", "--json"], 3), (["solve", "twins"], 0)])
def test_a_reader_gone_from_stdout_leaves_the_exit_code_alone(tmp_path, args, code):
    # `| head` closing the pipe made every run exit 0: a puzzle with no
    # solution, an incomplete count too (a script with pipefail read success)
    import subprocess
    import sys

    sums = tmp_path / "sums.nin"
    sums.write_text("2 1\n1\n1\n1\n")  # row sum 1, column sums 2: no solution
    p = subprocess.Popen([sys.executable, "-m", "puzzlesat", *[a.format(sums=sums) for a in args]],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    p.stdout.close()  # gone before the answer is written
    err = p.stderr.read()
    assert (p.wait(timeout=60), "Traceback" in err) == (code, False), err


def test_check_writes_every_count_of_cells_alike(cli, tmp_path):
    # "line logic fixes 200001 of 200,001 cells": one number with commas, one without
    f = tmp_path / "row.non"
    f.write_text("width 1001\nheight 1\nrows\n1001\ncolumns\n" + "1\n" * 1001)
    lines = cli("check", f, "--steps").out.splitlines()
    assert lines[0] == "round 1 (rows): 1,001 cells fixed, 1,001 of 1,001 known"
    assert "line solvable: yes: line logic fixes 1,001 of 1,001 cells (100%) in 2 rounds" in lines


@pytest.mark.parametrize("args,opt", [
    (["solve", "pentomino-3x20", "--svg"], "--svg"),
    (["solve", "5-dom", "--png"], "--png"),
    (["compare", "pentomino-3x20", "-t", "5", "--plot"], "--plot"),
    (["compare", "pentomino-3x20", "-t", "5", "--csv"], "--csv"),
    (["export", "pentomino-3x20", "-o"], "-o"),
])
def test_an_output_that_cannot_be_written_is_refused_before_the_search(cli, tmp_path, args, opt):
    # found after the search, it lost the result (a compare of many runs)
    bad = tmp_path / "no" / "such" / ("out.png" if opt in ("--plot", "--png") else "out.txt")
    r = cli(*args, bad)
    assert (r.code, r.out, r.err) == (2, "", f"puzzlesat: {bad}: cannot write: No such file or directory\n")
    folder = tmp_path / "a.png"
    folder.mkdir()
    r = cli(*args, folder)
    assert (r.code, r.out, r.err) == (2, "", f"puzzlesat: {folder}: cannot write: Is a directory\n")
    if opt != "--plot":  # (its type checks the suffix first: '': a plot is written as one of ...)
        # an empty name was taken for no file at all, and nothing was written
        r = cli(*args, "")
        assert (r.code, r.out, r.err) == (2, "", f"puzzlesat: {opt}: the file name is empty\n")
    # a directory that exists but takes no new file, which access() does not
    # tell (root may write anywhere): written after the search, QA
    proc = "/proc/out.png" if opt in ("--plot", "--png") else "/proc/out.txt"
    r = cli(*args, proc)
    why = "No such file or directory" if os.geteuid() == 0 else "Permission denied"  # (access() says it to others)
    assert (r.code, r.out, r.err) == (2, "", f"puzzlesat: {proc}: cannot write: {why}\n")
    # nor through a symbolic link to such a place (it was not tried: review)
    link = tmp_path / ("link.png" if opt in ("--plot", "--png") else "link.txt")
    link.symlink_to(proc)
    r = cli(*args, link)
    assert (r.code, r.out) == (2, "") and r.err.startswith(f"puzzlesat: {link}: cannot write: "), r.err
    # an existing file is only tried: left as it was, and no new file is left behind
    old = tmp_path / ("old.png" if opt in ("--plot", "--png") else "old.txt")
    old.write_text("kept")
    before = sorted(os.listdir(tmp_path))
    check_writable(opt, str(old))
    check_writable(opt, str(tmp_path / "new.txt"))
    assert old.read_text() == "kept" and sorted(os.listdir(tmp_path)) == before


def test_solve_help_names_the_default_it_uses(cli):
    # it said "default: cadical195", while a tiling's solve races exact against it (QA)
    r = cli("solve", "--help")
    text = " ".join(r.out.split())
    assert r.code == 0 and ("default: exact raced against cadical195 where both take the puzzle (tilings, and "
                            "nonograms that are exact covers) and no --encoding is given (on dominoes of the plane "
                            "kasteleyn joins a race not over after 1 s, to prove there is no tiling), else "
                            "cadical195") in text
    tiling, nonogram = (json.loads(cli("solve", name, "--json").out) for name in ("pentomino-3x20", "5-dom"))
    assert "raced against" in tiling["backend_choice"] and tiling["backend"] in ("exact", "cadical195")
    assert nonogram["backend"] == "cadical195"


def test_a_time_limit_that_runs_out_in_an_import_is_raised_after_it(tmp_path, monkeypatch):
    # the limit's SIGALRM fired while a module was imported: the import
    # wrapped it ("Error calling __set_name__") and the command ended in a
    # traceback, exit 1 (QA); now it waits for the import to end
    from puzzlesat.commands.common import time_limited
    from puzzlesat.errors import BuildTimeLimit

    (tmp_path / "slow_import_for_limit.py").write_text(
        "import time\n\n\nclass Slow:\n    def __set_name__(self, owner, name):\n"
        "        t = time.perf_counter()\n        while time.perf_counter() - t < 0.2:\n            pass\n\n\n"
        "class Owner:\n    x = Slow()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BuildTimeLimit, match="^out of time$"):
        with time_limited(0.02, "out of time"):
            import slow_import_for_limit  # noqa: F401
            assert "slow_import_for_limit" in sys.modules  # (whole)
            while True:
                pass
    monkeypatch.delitem(sys.modules, "slow_import_for_limit")


@pytest.mark.parametrize("cause,kind,message", [
    ("BuildTimeLimit", "time-limit", "puzzlesat: stopped: the time limit (1 s) ran out"),
    ("KeyboardInterrupt", "interrupted", "puzzlesat: interrupted"),
])
def test_a_wrapped_time_limit_or_interrupt_is_still_one(monkeypatch, capsys, cause, kind, message):
    from puzzlesat import cli, errors
    from puzzlesat.commands import common

    def wrapped(*a, **k):
        try:
            raise getattr(errors, cause, KeyboardInterrupt)("the time limit (1 s) ran out")
        except BaseException as e:
            raise RuntimeError("Error calling __set_name__") from e

    monkeypatch.setattr(common, "load_puzzle", wrapped)
    assert cli.main(["solve", "pentomino-3x20", "--json"]) == 3
    out, err = capsys.readouterr()
    assert json.loads(out) == {"error": message.removeprefix("puzzlesat: "), "kind": kind, "exit_code": 3}
    assert err.strip() == message


def test_a_search_past_its_time_limit_is_said_to_have_been_stopping():
    # an outside solver that ignores SIGTERM is killed a second later: the
    # report read "3 s: 0.1 s reading and compiling, then 3.943 s of search"
    import argparse

    from puzzlesat.commands.common import time_limit_said

    args = argparse.Namespace(time_limit_given=3.0, build_seconds=0.1)
    assert time_limit_said(args, 3.943) == ("the time limit (3 s: 0.1 s reading and compiling, then 3.943 s of "
                                            "search, the last 1.043 s of it stopping the solver)")
    assert time_limit_said(args, 2.91) == "the time limit (3 s: 0.1 s reading and compiling, then 2.910 s of search)"
    args = argparse.Namespace(time_limit_given=1.0, build_seconds=0.01)
    assert time_limit_said(args, 1.968) == "the time limit (1.968 s, the last 0.978 s of it stopping the solver)"


def test_importing_the_engine_counts_against_the_time_limit(monkeypatch, capsys):
    # the engine was made (its library imported: OR-Tools takes 0.4-0.6 s)
    # before the clock started, and -b cpsat ended that much past -t (QA)
    import time

    from puzzlesat import cli
    from puzzlesat.commands import common

    real = common.check_backend_option

    def slow_import(args):
        time.sleep(1.5)
        real(args)

    monkeypatch.setattr(common, "check_backend_option", slow_import)
    assert cli.main(["solve", "pentomino-3x20", "-b", "cpsat", "-t", "1", "--json"]) == 3
    out, _ = capsys.readouterr()
    assert json.loads(out) == {"error": "stopped: the time limit (1 s) ran out while reading and compiling "
                                        "pentomino-3x20, before any search", "kind": "time-limit", "exit_code": 3}


def test_ctrl_c_inside_pysats_cardinality_encoder_is_an_interruption(tmp_path, monkeypatch, capsys):
    # PySAT's C encoder turns a Ctrl-C into pycard.error("Caught keyboard
    # interrupt"): `export`, `info` or a CNF solve interrupted while the CNF
    # was built ended in a traceback and exit 1 ("no solution")
    import pycard
    from pysat.card import CardEnc

    from puzzlesat import cli

    def interrupted(*args, **kwargs):
        raise pycard.error("Caught keyboard interrupt")

    monkeypatch.setattr(CardEnc, "atmost", interrupted)
    out = tmp_path / "m.cnf"
    assert cli.main(["export", "dominoes-2x4", "-e", "seqcounter", "-o", str(out), "--json"]) == 3
    captured = capsys.readouterr()
    assert (json.loads(captured.out), captured.err) == (
        {"error": "interrupted", "kind": "interrupted", "exit_code": 3}, "puzzlesat: interrupted\n")
    assert not out.exists()
    # any other failure of the encoder is not taken for one
    monkeypatch.setattr(CardEnc, "atmost", lambda *a, **k: (_ for _ in ()).throw(pycard.error("bad encoding")))
    with pytest.raises(pycard.error, match="bad encoding"):
        cli.main(["export", "dominoes-2x4", "-e", "seqcounter", "-o", str(out)])


#: the end of the programs below: does a Ctrl-C after the first still interrupt?
_THEN_A_CTRL_C = """
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(2)
    print("a Ctrl-C after it: lost")
except KeyboardInterrupt:
    print("a Ctrl-C after it: interrupted")
"""


#: the start of the programs below: Ctrl-C handled as in a terminal (a
#: background job of a shell script, as CI may run the tests, starts with
#: SIGINT ignored, and Python keeps it so)
_CTRL_C_AS_IN_A_TERMINAL = "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"


def _python(program: str, timeout: float) -> str:
    got = subprocess.run([sys.executable, "-c", _CTRL_C_AS_IN_A_TERMINAL + program + _THEN_A_CTRL_C],
                         capture_output=True, text=True, timeout=timeout)
    assert got.returncode == 0, got.stderr
    return got.stdout


_AFTER_ENCODER_INTERRUPT = """
import ctypes, os, signal, time
from puzzlesat.encoders import cnf

def interrupted(lits, k, vpool, encoding):
    # what PySAT's C encoder leaves behind when it catches a Ctrl-C: its own
    # C handler for SIGINT (here: ignore, set below Python's bookkeeping),
    # and SIGINT blocked, as its longjmp out of the handler leaves it
    libc = ctypes.CDLL(None)
    libc.signal.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.signal(signal.SIGINT, 1)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    raise cnf._CardError("Caught keyboard interrupt")

try:
    cnf._card_enc(interrupted, [1, 2, 3], 1, None, None)
except KeyboardInterrupt:
    print("first Ctrl-C: interrupted")
"""


def test_a_ctrl_c_after_one_inside_the_cardinality_encoder_still_interrupts():
    # PySAT's encoder returned with SIGINT blocked and its own handler in
    # place: every later Ctrl-C was held back for good
    assert _python(_AFTER_ENCODER_INTERRUPT, 60) == "first Ctrl-C: interrupted\na Ctrl-C after it: interrupted\n"


_ENCODER_AT_A_DEADLINE = """
import os, signal, time
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from puzzlesat.encoders import cnf, deadline

n, k = 5000, 500  # (about 10 s of CardEnc.equals, most of it in C)
try:
    with deadline.stopped_at(time.monotonic() + 0.2):
        cnf._card_enc(CardEnc.equals, list(range(1, n + 1)), k, IDPool(start_from=n + 1), EncType.seqcounter)
    print("encoded in full")
except KeyboardInterrupt:
    print("stopped at the deadline")
"""


def test_a_large_cardinality_encoding_is_stopped_at_the_deadline():
    # SIGALRM, the limit's signal, waits for PySAT's C encoder, which answers
    # SIGINT alone: `export -t 5` of 80x80 dominoes and monominoes ran 18 s
    assert _python(_ENCODER_AT_A_DEADLINE, 120) == "stopped at the deadline\na Ctrl-C after it: interrupted\n"


def _dominoes_and_monominoes(path, n: int):
    path.write_text(f'title="md {n}"\n[board]\nsize=[{n},{n}]\n[[pieces]]\nset="dominoes"\ncount={n * n // 4}\n'
                    f'[[pieces]]\nset="monominoes"\ncount={n * n // 2}\n')
    return path


def test_export_time_limit_inside_the_cardinality_encoder(tmp_path):
    # an Exactly(800) over the 1,600 monomino placements: seconds in PySAT's
    # encoder, where the limit used to wait
    board = _dominoes_and_monominoes(tmp_path / "md40.toml", 40)
    out = tmp_path / "md40.cnf"
    got = subprocess.run([sys.executable, "-m", "puzzlesat", "export", str(board), "-o", str(out), "-t", "1"],
                         capture_output=True, text=True, timeout=300)
    assert (got.returncode, got.stdout, got.stderr) == (
        3, "", f"puzzlesat: stopped: the time limit (1 s) ran out while exporting {board}: nothing written\n")
    assert not out.exists()


def test_export_under_a_time_limit_it_keeps_is_the_same_file(tmp_path):
    # the monominoes' Exactly(288) over 576 placements is large enough for
    # the deadline's timer to be armed around it, and disarmed
    board = _dominoes_and_monominoes(tmp_path / "md24.toml", 24)
    plain, limited = tmp_path / "plain.cnf", tmp_path / "limited.cnf"
    for out, extra in ((plain, []), (limited, ["-t", "120"])):
        got = subprocess.run([sys.executable, "-m", "puzzlesat", "export", str(board), "-o", str(out), *extra],
                             capture_output=True, text=True, timeout=300)
        assert got.returncode == 0, got.stderr
    assert limited.read_bytes() == plain.read_bytes()
    assert "p cnf 278160 558916\n" in plain.read_text()


def _run_in(preexec, *args, stdout=subprocess.PIPE, cwd=None):
    return subprocess.run([sys.executable, "-m", "puzzlesat", *args], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=120, preexec_fn=preexec, cwd=cwd)


@pytest.mark.parametrize("args", [["solve", "pentomino-3x20"], ["count", "pentomino-3x20", "--json"],
                                  ["export", "pentomino-3x20", "-o", "-"], ["list"], ["check", "dancer"],
                                  ["solve", "dancer", "--png", "-"]])
@pytest.mark.parametrize("buffered", [False, True])
def test_output_that_cannot_be_written_is_said_in_one_line(args, buffered, monkeypatch):
    # a full disk was a traceback and exit 1 ("no solution"), or with
    # buffered output "Exception ignored" and exit 120
    if buffered:
        monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    else:
        monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    with open("/dev/full", "w") as full:
        r = _run_in(None, *args, stdout=full)
    said = "puzzlesat: cannot write the output: No space left on device\n"
    if "--png" in args:  # the report, on stderr beside the drawing, comes first: the solution is not lost
        assert r.returncode == 2 and r.stderr.endswith("variable\n" + said), r.stderr
        assert r.stderr.splitlines()[-2].startswith("solved in ")
    else:
        assert (r.returncode, r.stderr) == (2, said)


@pytest.mark.parametrize("args,code,err", [
    (["count", "pentomino-3x20"], 2, "puzzlesat: cannot write the output: standard output is closed\n"),
    (["export", "pentomino-3x20", "-o", "-"], 2, "puzzlesat: cannot write the output: standard output is closed\n"),
    # what writes no output works, and its file does not become stdout
    (["export", "pentomino-3x20", "-o", "m.cnf"], 0, "wrote m.cnf (dimacs: 8,451 variables, 23,427 clauses; "
                                                      "1,236 primary variables)\n"),
])
def test_a_closed_stdout_is_said_in_one_line(args, code, err, tmp_path):
    import os

    r = _run_in(lambda: os.close(1), *args, cwd=tmp_path)
    assert (r.returncode, r.stderr) == (code, err)
    if code == 0:
        assert (tmp_path / "m.cnf").read_text().startswith("c ")


def test_a_closed_stdin_or_stderr_is_no_traceback(tmp_path):
    import os

    r = _run_in(lambda: os.close(0), "decode", "pentomino-3x20", "-")
    assert (r.returncode, r.stderr) == (2, "puzzlesat: -: standard input is closed: give the answer as a file\n")
    r = subprocess.run([sys.executable, "-m", "puzzlesat", "solve", "nonexist", "--json"], stdout=subprocess.PIPE,
                       text=True, timeout=120, preexec_fn=lambda: os.close(2))
    assert (r.returncode, json.loads(r.stdout)["kind"]) == (2, "bad-input")  # (the message went nowhere, not here)


@pytest.mark.parametrize("args,first", [
    # a warning about the options to a closed stderr went to stdout: before
    # the JSON object, into the DIMACS file (QA)
    (["solve", "tetromino-L-2x4", "-b", "exact", "-b", "cadical195", "--json"], "{"),
    (["export", "tetromino-L-2x4", "-o", "-", "-e", "pairwise", "-e", "mixed"], "c puzzlesat DIMACS export"),
    (["solve", "tetromino-L-2x4", "--preprocess", "--no-preprocess", "--json"], '{"error": '),
])
def test_a_closed_stderr_takes_no_message_to_stdout(args, first):
    import os

    r = subprocess.run([sys.executable, "-m", "puzzlesat", *args], stdout=subprocess.PIPE, text=True, timeout=120,
                       preexec_fn=lambda: os.close(2))
    assert r.returncode == (2 if "--preprocess" in args else 0)
    assert r.stdout.startswith(first), r.stdout[:200]
    if "--json" in args:
        json.loads(r.stdout)


def test_a_message_that_cannot_be_written_does_not_end_the_run():
    # 2>/dev/full: a note or warning raised where it was printed, the
    # failure's message failed again, and the run ended with exit 1 and no output
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "puzzlesat", "count", "dominoes-2x4", "-b", "exact", "-b", "ganak",
                            "-j", "2"], stdout=subprocess.PIPE, stderr=full, text=True, timeout=120)
    assert (r.returncode, r.stdout.splitlines()[0]) == (0, "5 solutions")


def test_a_system_limit_is_said_in_one_line(tmp_path):
    import os
    import resource

    gone = tmp_path / "gone"
    gone.mkdir()

    def leave_a_deleted_directory():
        os.chdir(gone)
        os.rmdir(gone)

    r = _run_in(leave_a_deleted_directory, "export", "pentomino-3x20", "-o", "m.cnf")
    assert (r.returncode, r.stderr) == (2, "puzzlesat: the current directory no longer exists "
                                           "(it was deleted or moved away)\n")
    r = _run_in(lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16)),
                "count", "pentomino-3x4x5", "-j", "2", "-t", "3")
    assert (r.returncode, r.stderr) == (2, "puzzlesat: too many open files (raise the limit: ulimit -n)\n")


def test_running_out_of_memory_is_said_in_one_line(monkeypatch, capsys, tmp_path):
    # (a real one: export of a 60x60 board of pentominoes and dominoes under
    # `ulimit -v 700000` was a MemoryError traceback, exit 1; it takes 40 s)
    from puzzlesat import cli
    from puzzlesat.commands import export

    def too_big(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(export, "encode_cnf", too_big)
    assert cli.main(["export", "pentomino-3x20", "-o", str(tmp_path / "m.cnf"), "--json"]) == 2
    out, err = capsys.readouterr()
    message = "out of memory (the model is too large for the memory this run may use)"
    assert (json.loads(out), err) == ({"error": message, "kind": "environment", "exit_code": 2},
                                      f"puzzlesat: {message}\n")


def test_a_standard_output_that_cannot_show_the_glyphs_gets_ascii(cli, tmp_path, monkeypatch):
    # a nonogram's picture (█, ·) under PYTHONIOENCODING=ascii or a Latin-1
    # terminal was a UnicodeEncodeError traceback, exit 1 ("no solution")
    monkeypatch.setenv("PYTHONIOENCODING", "ascii")
    picture = cli("solve", "dancer").out.splitlines()
    monkeypatch.delenv("PYTHONIOENCODING")
    rows = cli("solve", "dancer", "--json").json()["solution"]
    assert [line[::2] for line in picture[:len(rows)]] == rows  # (two characters a cell)
    # any other character it lacks is a '?', said once
    (tmp_path / "e.box").write_text("BOX / 2 * 1\nELEMENT / (\u00e9) (1, 1), (1, 2)\n", encoding="utf-8")
    monkeypatch.setenv("PYTHONIOENCODING", "ascii")
    r = cli("solve", tmp_path / "e.box")
    assert (r.code, r.out.splitlines()[:3], r.err) == (
        0, ["A", "A", "legend: A = ?"],
        "puzzlesat: warning: standard output's encoding (ascii) cannot show some characters: "
        "written as '?' (set PYTHONIOENCODING=utf-8)\n")


@pytest.mark.parametrize("args,message", [
    (("compare", "pentomino-3x20", "-b", "exact", "--csv", "same.png", "--plot", "./same.png"),
     "puzzlesat: --csv and --plot both write to ./same.png\n"),
    (("solve", "dancer", "--svg", "same.out", "--png", "./same.out"),
     "puzzlesat: --svg and --png both write to same.out\n"),
])
def test_two_outputs_to_the_same_file_are_refused(cli, tmp_path, args, message):
    # compare wrote the plot and then the CSV over it, exit 0; solve compared
    # the names as written, so ./same.out slipped past
    r = cli(*args, cwd=tmp_path)
    assert (r.code, r.err, list(tmp_path.iterdir())) == (2, message, [])


def test_two_names_of_one_file_are_refused_as_the_same_output(cli, tmp_path):
    # a hard link passed the comparison of real paths: the PNG was written over the SVG
    (tmp_path / "a.svg").write_text("old")
    os.link(tmp_path / "a.svg", tmp_path / "b.png")
    r = cli("solve", "dancer", "--svg", "a.svg", "--png", "b.png", cwd=tmp_path)
    assert (r.code, r.err, (tmp_path / "a.svg").read_text()) == (
        2, "puzzlesat: --svg and --png both write to a.svg\n", "old")
    os.link(tmp_path / "a.svg", tmp_path / "c.csv")
    r = cli("compare", "pentomino-3x20", "-b", "exact", "--csv", "c.csv", "--plot", "a.svg", cwd=tmp_path)
    assert (r.code, r.err) == (2, "puzzlesat: --csv and --plot both write to a.svg\n")


def test_png_without_pillow_is_said_before_the_search_and_writes_nothing(tmp_path):
    # a broken install: a traceback after the search, and an empty PNG left behind
    (tmp_path / "PIL").mkdir()
    (tmp_path / "PIL" / "__init__.py").write_text("raise ImportError('no Pillow here')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([sys.executable, "-m", "puzzlesat", "solve", "dancer", "--png", "d.png"],
                       capture_output=True, text=True, cwd=tmp_path, env=env)
    assert (r.returncode, r.stdout, r.stderr) == (
        2, "", "puzzlesat: --png: cannot draw PNG: Pillow is not importable (no Pillow here); "
               "reinstall puzzlesat's dependencies, or use --svg\n")
    assert not (tmp_path / "d.png").exists()


def test_png_to_a_terminal_is_refused():
    # the PNG's bytes were written to the terminal
    import pty

    main, sub = pty.openpty()
    try:
        r = subprocess.run([sys.executable, "-m", "puzzlesat", "solve", "dancer", "--png", "-"], stdout=sub,
                           stderr=subprocess.PIPE, text=True, timeout=120)
        os.close(sub)
        shown = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # (the terminal's other end closed: all read)
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(main)
    assert (r.returncode, r.stderr, shown) == (
        2, "puzzlesat: --png -: standard output is a terminal, which cannot show a PNG; redirect it "
           "(> picture.png) or give --png a file\n", b"")


def test_a_drawing_that_cannot_be_written_comes_after_the_solution_found(cli, tmp_path):
    r = cli("solve", "dancer", "--svg", "/dev/full")  # (Linux: a device that is always full)
    assert r.code == 2 and r.out.splitlines()[-1].startswith("solved ")
    assert r.err.splitlines()[-1] == "puzzlesat: /dev/full: cannot write: No space left on device"


def test_a_dumb_terminal_gets_no_colour_and_no_redrawn_progress_line(monkeypatch):
    # TERM=dumb cannot show escapes: 24-bit colours and "\x1b[K" were written to it
    import argparse

    from puzzlesat import cli
    from puzzlesat.commands.common import wants_progress

    class Terminal:
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.setattr(sys, "stderr", Terminal())
    monkeypatch.delenv("NO_COLOR", raising=False)
    args = argparse.Namespace(color="auto", progress=None)
    monkeypatch.setenv("TERM", "xterm")
    assert (cli.use_color(args), wants_progress(args)) == (True, True)
    monkeypatch.setenv("TERM", "dumb")
    assert (cli.use_color(args), wants_progress(args)) == (False, False)
    # asked for by name, they are given
    args = argparse.Namespace(color="always", progress=True)
    assert (cli.use_color(args), wants_progress(args)) == (True, True)


def test_the_progress_line_is_cut_to_the_terminal_width(monkeypatch):
    # a longer one wrapped, and each redraw left the wrapped part behind
    from puzzlesat import jobs

    line = "counting (cadical195 beside it, to prove there is none): 0 solutions, 0.0/s, 1.2s"
    monkeypatch.setattr(os, "get_terminal_size", lambda fd: os.terminal_size((20, 24)))
    assert jobs.fit_terminal(line) == line[:19]
    monkeypatch.setattr(os, "get_terminal_size", lambda fd: os.terminal_size((200, 24)))
    assert jobs.fit_terminal(line) == line

    def not_a_terminal(fd):
        raise OSError("not a terminal")

    monkeypatch.setattr(os, "get_terminal_size", not_a_terminal)
    assert jobs.fit_terminal(line) == line


@pytest.mark.parametrize("sig", ["SIGHUP", "SIGINT"])
def test_a_signal_ignored_when_puzzlesat_starts_stays_ignored(sig):
    # under nohup (SIGHUP) or as a script's background job (SIGINT) the
    # signal stopped the run, and a split count's workers died of it
    import signal
    import time

    signum = getattr(signal, sig)
    p = subprocess.Popen([sys.executable, "-m", "puzzlesat", "count", "pentomino-3x4x5", "-j", "2", "-t", "4",
                          "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True, preexec_fn=lambda: signal.signal(signum, signal.SIG_IGN))
    time.sleep(2.0)
    os.killpg(p.pid, signum)  # the whole group: the program and its workers
    out, err = p.communicate(timeout=60)
    d = json.loads(out)
    assert (p.returncode, d["stopped_by"], d["complete"], d["count"] > 0) == (3, "time-limit", False, True), err


def test_check_says_in_words_what_stopped_its_search(starved, shared_dir):
    # "unique: unknown (search stopped by interrupted)", "stopped (time-limit)"
    code, out = starved("check", shared_dir / "data/nonograms/survey/knotty.non")
    assert code == 3 and "\nunique:        unknown (the search was stopped by the time limit)\n" in out, out
    code, out = starved("check", "5-dom")
    assert code == 3 and re.search(r"\nsolvable:      unknown: cadical195 stopped by the time limit after "
                                   r"\d+\.\d{3} s\n", out), out


def _stop_in(monkeypatch, owner, name, after: int = 0):
    """``owner.name`` sleeps past any short time limit from its call number
    ``after`` + 1 on (the calls: the list returned; clear it to start again)."""
    import time

    real, calls = getattr(owner, name), []

    def slow(*a, **k):
        calls.append(1)
        if len(calls) > after:
            time.sleep(5)
        return real(*a, **k)

    monkeypatch.setattr(owner, name, slow)
    return calls


def test_check_steps_stopped_while_compiling_still_shows_the_line_solving_rounds(monkeypatch, capsys):
    # QA: the rounds, all finished, were lost with the stop message
    from puzzlesat import cli
    from puzzlesat.models.nonogram.puzzle import Nonogram

    assert cli.main(["check", "5-dom", "--steps"]) == 0
    whole = capsys.readouterr().out
    rounds = whole[:whole.index("5-Dom (")]  # every round, then the report
    # and line logic's verdict, known by then (it was dropped, QA)
    verdict = next(line for line in whole.splitlines() if line.startswith("line solvable: "))
    assert verdict == "line solvable: no: line logic fixes 0 of 121 cells (0%) in 2 rounds"
    assert cli.main(["check", "5-dom", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    known = ("line_solvable", "cells_fixed_by_lines", "cells", "line_rounds", "line_contradiction")
    _stop_in(monkeypatch, Nonogram, "compile")
    assert cli.main(["check", "5-dom", "--steps", "-t", "0.5"]) == 3
    r = capsys.readouterr()
    assert (r.out, r.err) == (rounds + verdict + "\n", "puzzlesat: stopped: the time limit (0.5 s) ran out while "
                                                      "reading, compiling and line solving 5-dom, before any search\n")
    assert cli.main(["check", "5-dom", "--steps", "-t", "0.5", "--json"]) == 3
    got = json.loads(capsys.readouterr().out)
    assert (got["kind"], got["line_solving_finished"]) == ("time-limit", True)
    assert [s["grid"] for s in got["steps"]] == [
        block.splitlines()[1:] for block in rounds.strip("\n").split("\n\n")]
    assert {k: got[k] for k in known} == {k: report[k] for k in known}
    # without --steps: the verdict alone
    assert cli.main(["check", "5-dom", "-t", "0.5"]) == 3
    assert capsys.readouterr().out == verdict + "\n"


def test_check_stopped_by_ctrl_c_before_any_search_says_what_it_knows(monkeypatch, capsys):
    # Ctrl-C while compiling, or in the middle of line solving, dropped the
    # rounds --steps had finished, which the time limit kept (QA)
    from puzzlesat import cli
    from puzzlesat.models.nonogram import linesolve
    from puzzlesat.models.nonogram.puzzle import Nonogram

    assert cli.main(["check", "5-dom", "--steps"]) == 0
    whole = capsys.readouterr().out
    rounds = whole[:whole.index("5-Dom (")]
    verdict = next(line for line in whole.splitlines() if line.startswith("line solvable: "))

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(Nonogram, "compile", interrupted)
        assert cli.main(["check", "5-dom", "--steps"]) == 3
        r = capsys.readouterr()
        assert (r.out, r.err) == (rounds + verdict + "\n", "puzzlesat: interrupted\n")
        assert cli.main(["check", "5-dom", "--json"]) == 3
        got = json.loads(capsys.readouterr().out)
        assert (got["kind"], got["cells_fixed_by_lines"], got["line_rounds"], got["cells"]) == \
            ("interrupted", 0, 2, 121)
    real, calls = linesolve.solve_line, []

    def stops_in_round_2(*a, **k):
        calls.append(1)
        if len(calls) > 11:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(linesolve, "solve_line", stops_in_round_2)
    assert cli.main(["check", "5-dom", "--steps"]) == 3
    r = capsys.readouterr()
    assert r.out == rounds.split("\n\n")[0] + "\n\n(line solving was stopped by Ctrl-C after 1 round)\n"


def test_check_steps_stopped_while_line_solving_shows_the_rounds_finished(monkeypatch, capsys):
    from puzzlesat import cli
    from puzzlesat.models.nonogram import linesolve

    assert cli.main(["check", "5-dom", "--steps"]) == 0
    first = capsys.readouterr().out.split("\n\n")[0]  # round 1: the 11 rows
    calls = _stop_in(monkeypatch, linesolve, "solve_line", after=11)  # in round 2: its first column
    assert cli.main(["check", "5-dom", "--steps", "-t", "0.5"]) == 3
    r = capsys.readouterr()
    assert r.out == first + "\n\n(line solving was stopped by the time limit after 1 round)\n"
    calls.clear()
    assert cli.main(["check", "5-dom", "--steps", "-t", "0.5", "--json"]) == 3
    got = json.loads(capsys.readouterr().out)
    assert (len(got["steps"]), got["line_solving_finished"]) == (1, False)
    assert got["steps"][0]["grid"] == first.splitlines()[1:]


@pytest.mark.parametrize("args,warning", [
    (("solve", "dominoes-2x4", "-b", "exact", "-b", "cadical195"),
     "-b is given twice (exact, then cadical195): the last, cadical195, is used"),
    (("count", "dominoes-2x4", "--limit", "2", "--backend", "exact", "--limit", "3"),
     "--limit is given twice (2, then 3): the last, 3, is used"),
    (("count", "dominoes-2x4", "-t", "5", "--time-limit", "10", "-t", "20"),
     "-t / --time-limit is given 3 times (5, then 10, then 20): the last, 20, is used"),
    # (each value as long as tells it apart: "10, then 10", QA)
    (("count", "dominoes-2x4", "-t", "10", "-t", "10.0000001"),
     "-t is given twice (10, then 10.0000001): the last, 10.0000001, is used"),
])
def test_an_option_given_twice_says_which_value_is_used(cli, args, warning):
    # QA: the last silently won (-b exact -b cadical195 ran cadical195 alone)
    r = cli(*args)
    assert r.code in (0, 3), r.err
    assert r.err == f"puzzlesat: warning: {warning}\n"
    j = cli(*args, "--json").json()
    assert j["warnings"] == [f"warning: {warning}"]
    assert j["backend"] == ("cadical195" if "cadical195" in args else "exact")


def test_an_option_repeated_alike_changes_nothing_and_says_nothing(cli):
    r = cli("count", "dominoes-2x4", "-b", "exact", "-b", "exact", "--no-preprocess", "--no-preprocess")
    assert (r.code, r.err) == (0, "puzzlesat: note: --no-preprocess has no effect: tiling puzzles have no "
                                  "preprocessing step\n")
    assert r.out.startswith("5 solutions\n")


@pytest.mark.parametrize("first,second", [("--preprocess", "--no-preprocess"), ("--no-progress", "--progress")])
def test_a_switch_given_both_ways_is_a_usage_error(cli, first, second):
    # QA: the last one silently won
    r = cli("solve", "letter-p", first, second)
    assert (r.code, r.out) == (2, "")
    assert r.err.startswith("usage: puzzlesat solve ")
    assert r.err.endswith(f"\npuzzlesat solve: error: {first} and {second} contradict each other\n")
    for json_option in ("--json", "--jso"):  # (an abbreviation got no JSON object, QA)
        j = cli("solve", "letter-p", first, second, json_option).json()
        assert j == {"error": f"puzzlesat solve: {first} and {second} contradict each other", "kind": "usage",
                     "exit_code": 2}
    r = cli("solve", "letter-p", "--", "--json")  # (an argument there, not the option: no JSON object)
    assert (r.code, r.out) == (2, "")


@pytest.mark.parametrize("args,message", [
    (("solve", "dominoes-2x4", "--no-goal"),
     "unrecognized arguments: --no-goal (--no-goal is an option of count and check, not of solve)"),
    (("solve", "dominoes-2x4", "--show=3"), "unrecognized arguments: --show=3 (--show is an option of count, "
                                            "not of solve)"),
    (("solve", "dominoes-2x4", "--bogus"), "unrecognized arguments: --bogus"),
    # its own option in the wrong place: not said to be another command's (QA)
    (("solve", "dominoes-2x4", "--", "-b"),
     "unrecognized arguments: -b (-b is an option of solve: give it after 'solve', before any '--')"),
    (("--json", "solve", "dominoes-2x4"),
     "unrecognized arguments: --json (--json is an option of solve: give it after 'solve', before any '--')"),
])
def test_an_option_of_another_command_says_whose_it_is(cli, args, message):
    # QA: the top level's usage, "puzzlesat COMMAND ...", and no word of where the option belongs
    r = cli(*args)
    if "--json" in args:  # (asked for, if in the wrong place: the error object)
        assert (r.code, r.json()) == (2, {"error": f"puzzlesat solve: {message}", "kind": "usage", "exit_code": 2})
    else:
        assert (r.code, r.out) == (2, "")
    assert r.err.startswith("usage: puzzlesat solve ")
    assert r.err.endswith(f"\npuzzlesat solve: error: {message}\n")


def test_a_stopped_count_up_to_symmetry_counts_the_verified_goal_as_one_class(starved):
    # the goal, verified, is a solution: "at least 0" said less than is known (QA)
    code, out = starved("count", "dancer", "--unique", "--no-preprocess")
    assert (code, out.splitlines()[0]) == (3, "at least 1 solution up to symmetry, incomplete (stopped by the "
                                              "time limit)")
    code, out = starved("count", "dancer", "--unique", "--no-preprocess", "--no-goal")
    assert (code, out.splitlines()[0]) == (3, "at least 0 solutions up to symmetry, incomplete (stopped by the "
                                              "time limit)")


def test_a_counter_stopped_early_counts_the_verified_goal(starved):
    # Ganak has no partial count ("no count"), but the goal is a solution
    code, out = starved("count", "dancer", "--no-preprocess", "-b", "ganak")
    assert (code, out.splitlines()[0]) == (3, "at least 1 solution, incomplete (stopped by the time limit)")


def test_a_listing_stopped_after_a_counters_count_is_said(monkeypatch, capsys):
    # the solutions --show asks of a counter are listed after its count; a
    # Ctrl-C there left the count standing without a word, and a note said
    # the counter could not list them (review)
    from puzzlesat import cli, jobs

    real = jobs._search_verified

    def listing_interrupted(puzzle, backend, *a, **k):
        if backend.name != "ganak":  # (the count itself runs)
            raise KeyboardInterrupt
        return real(puzzle, backend, *a, **k)

    monkeypatch.setattr(jobs, "_search_verified", listing_interrupted)
    assert cli.main(["count", "dominoes-2x4", "-b", "ganak", "--show", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (out[0], out[-1]) == ("5 solutions", "(no solution shown: listing them after ganak's count was "
                                                "interrupted (Ctrl-C))")
