"""puzzlesat compare: table, JSON, CSV, plot, agreement, and killing runs."""

from __future__ import annotations

import csv
import json
import shutil
import stat

import pytest

from puzzlesat.cli import main
from puzzlesat.commands.compare import _row_agrees, agreement, run_one

needs_minisat = pytest.mark.skipif(shutil.which("minisat") is None,
                                   reason="minisat is not installed: apt-get install -y minisat")

TINY_NON = "width 3\nheight 3\n\nrows\n1\n3\n1\n\ncolumns\n1\n3\n1\n"


def _fake(tmp_path, name, body):
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


@needs_minisat
def test_count_json_csv_plot(tmp_path, capsys):
    non = tmp_path / "tiny.non"
    non.write_text(TINY_NON)
    png, cs = tmp_path / "c.png", tmp_path / "c.csv"
    rc = main(["compare", "dominoes-2x4", str(non), "--count", "-b", "exact,cadical195,external:minisat",
               "-e", "pairwise,seqcounter", "-t", "30", "--json", "--csv", str(cs), "--plot", str(png)])
    assert rc == 0
    res = json.loads(capsys.readouterr().out)
    assert res["job"] == "count" and not res["mismatch"]
    assert res["agreement"]["dominoes-2x4"] == {"agree": True, "disagree": False, "answer": 5, "invalid": [],
                                               "verified": 5, "standing": [5], "detail": None}
    assert res["agreement"][str(non)]["answer"] == 1
    runs = res["runs"]
    # exact takes no encoding: one run per instance; the CNF engines one per encoding
    assert [(r["backend"], r["encoding"]) for r in runs if r["instance"] == "dominoes-2x4"] == [
        ("exact", None), ("cadical195", "pairwise"), ("cadical195", "seqcounter"),
        ("external:minisat", "pairwise"), ("external:minisat", "seqcounter")]
    na = [r for r in runs if r["status"] == "unsupported"]
    assert [(r["instance"], r["backend"]) for r in na] == [(str(non), "exact")]  # no exact-cover form
    for r in runs:
        if r in na:
            continue
        assert r["complete"] and r["agree"] and r["first_s"] is not None and r["total_s"] >= r["first_s"]
    sizes = {(r["backend"], r["encoding"]): (r["variables"], r["clauses"]) for r in runs
             if r["instance"] == "dominoes-2x4"}
    assert sizes[("cadical195", "pairwise")] == sizes[("external:minisat", "pairwise")]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = list(csv.DictReader(cs.open()))
    assert len(rows) == len(runs) and rows[0]["count"] == "5" and rows[0]["agree"] == "True"


def test_solve_table(capsys):
    assert main(["compare", "tetromino-L-2x4", "--solve", "-b", "cadical195,cpsat,exact", "-t", "30"]) == 0
    out = capsys.readouterr().out
    head, rule, *body = out.splitlines()
    assert head.split()[:5] == ["instance", "backend", "encoding", "vars", "clauses"]
    assert "agree" in head and len(body) == 3
    assert all(line.split()[-1] == "yes" and "solved" in line for line in body)


def test_csv_to_stdout(capsys):
    assert main(["compare", "dominoes-2x4", "--count", "-b", "exact", "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("instance,backend,encoding,job,variables,clauses")
    assert lines[1].startswith("dominoes-2x4,exact,,count,")  # (no encoding: empty, as any value missing)


def test_mismatch_is_loud_and_exits_4(tmp_path, capsys):
    liar = _fake(tmp_path, "liar", "echo 's UNSATISFIABLE'\nexit 20\n")
    rc = main(["compare", "dominoes-2x4", "--count", "-b", f"exact,external:{liar}", "-t", "30"])
    assert rc == 4
    cap = capsys.readouterr()
    assert "MISMATCH on dominoes-2x4" in cap.out and "NO <<<" in cap.out
    assert f"!!! MISMATCH on dominoes-2x4: exact: 5; external:{liar}/mixed: 0" in cap.err.splitlines()


def test_a_wrong_answer_is_named_in_the_mismatch_line(tmp_path, capsys):
    # a model that breaks a clause: the run has no answer, and the MISMATCH
    # line says INVALID (it said "None (incomplete) INVALID", QA)
    bad = _fake(tmp_path, "bad", "echo 's SATISFIABLE'\necho 'v 1 2 3 4 5 6 7 8 9 10 0'\nexit 10\n")
    assert main(["compare", "dominoes-2x4", "--solve", "-b", f"exact,external:{bad}", "-t", "30"]) == 4
    err = capsys.readouterr().err.splitlines()
    assert f"!!! MISMATCH on dominoes-2x4: exact: solved; external:{bad}/mixed: INVALID (a wrong answer)" in err


@pytest.mark.parametrize("says", ["echo 's SATISFIABLE'\necho 'v 1 2 3 4 5 6 7 8 9 10 0'\nexit 10\n",
                                  "echo 's UNSATISFIABLE'\nexit 20\n"])
def test_the_run_proved_wrong_is_marked_and_the_verified_ones_are_not(tmp_path, capsys, says):
    # a model the verifier refuses, or "no solution" against a verified
    # solution: the liar alone is wrong (every run was marked "NO <<<")
    liar = _fake(tmp_path, "liar", says)
    assert main(["compare", "dominoes-2x4", "--solve", "-b", f"exact,cadical195,external:{liar}", "--json"]) == 4
    runs = {r["backend"]: r["agree"] for r in json.loads(capsys.readouterr().out)["runs"]}
    assert runs == {"exact": True, "cadical195": True, f"external:{liar}": False}
    assert main(["compare", "dominoes-2x4", "--solve", "-b", f"exact,external:{liar}"]) == 4
    out = capsys.readouterr().out.splitlines()
    assert [line.split("  ")[-1] for line in out[2:4]] == ["yes", "NO <<<"]
    assert out[-1] == f"!!! MISMATCH on dominoes-2x4: external:{liar} " + (
        "gave a wrong answer (refused by the verifier)" if "v 1" in says
        else "said no solution, but a solution was found and verified")


def test_hung_solver_is_stopped_and_the_run_marked_incomplete(tmp_path, capsys):
    hang = _fake(tmp_path, "hang", "trap '' TERM\nwhile true; do sleep 1; done\n")
    rc = main(["compare", "dominoes-2x4", "--count", "-b", f"exact,external:{hang}", "-t", "1", "--json"])
    assert rc == 3
    runs = json.loads(capsys.readouterr().out)["runs"]
    assert runs[1]["complete"] is False and runs[1]["stopped_by"] == "time-limit"
    assert runs[1]["agree"]  # 0 found so far is no contradiction


def test_a_model_without_cardinality_constraints_runs_once_per_cnf_engine(capsys):
    # its CNF is the same with every encoding: -e all said so, then ran the
    # nonogram ten times on each CNF engine (QA)
    assert main(["compare", "twins", "dominoes-2x4", "--count", "-b", "cadical195",
                 "-e", "pairwise,ladder", "--json"]) == 0
    out, err = capsys.readouterr()
    runs = [(r["instance"], r["encoding"], r["count"]) for r in json.loads(out)["runs"]]
    assert runs == [("twins", "pairwise", 2), ("dominoes-2x4", "pairwise", 5), ("dominoes-2x4", "ladder", 5)]
    assert err == ("puzzlesat: note: --encodings pairwise,ladder has no effect on twins: its model has no "
                   "cardinality constraints (one run per CNF engine)\n")


@pytest.mark.parametrize("job", ["--solve", "--count"])
def test_a_run_that_gave_up_early_shows_its_time_not_the_limit(tmp_path, capsys, job):
    # the table said ">30" (the time limit) for any run not complete, one
    # that gave up at once too, while the JSON had its 0.01 s (QA)
    unknown = _fake(tmp_path, "unknown", "echo 's UNKNOWN'\nexit 0\n")
    hang = _fake(tmp_path, "hang", "while true; do sleep 1; done\n")
    rc = main(["compare", "dominoes-2x4", job, "-b", f"external:{unknown},external:{hang}", "-t", "1"])
    assert rc == 3
    out = capsys.readouterr().out.splitlines()
    gave_up, ran_out = (line.split() for line in out[2:4])
    assert gave_up[1] == f"external:{unknown}" and float(gave_up[6]) < 1
    assert " ".join(gave_up[7:11]) == ("unknown (solver gave up)" if job == "--solve" else "stopped (solver gave up)")
    assert ran_out[1] == f"external:{hang}" and ran_out[6] == ">1"


def test_a_run_past_its_grace_is_killed(tmp_path):
    # building the CNF of 40x40 dominoes and monominoes alone outlasts limit +
    # grace many times over: its Exactly(800) over 1,600 monomino placements
    # is seconds in PySAT's C encoder (6x10's totalizer CNF, used here until
    # encoding got faster, could end within the 0.3 s)
    board = tmp_path / "md40.toml"
    board.write_text('title="md 40"\n[board]\nsize=[40,40]\n[[pieces]]\nset="dominoes"\ncount=400\n'
                     '[[pieces]]\nset="monominoes"\ncount=800\n')
    row = run_one({"instance": str(board), "backend": "cadical195", "encoding": "seqcounter"}, "count",
                  time_limit=0.01, grace=0.3)
    assert row["status"] == "killed" and row["complete"] is False and "killed" in row["error"]


def test_agreement_rules():
    rows = [{"instance": "a", "backend": "x", "encoding": "-", "count": 5, "complete": True},
            {"instance": "a", "backend": "y", "encoding": "-", "count": 6, "complete": False}]
    assert not agreement(rows, "count")["a"]["agree"]  # a lower bound above the exact count
    rows[1]["count"] = 3
    assert agreement(rows, "count")["a"]["agree"]
    solve = [{"instance": "b", "backend": "x", "encoding": "-", "result": "solved", "complete": True},
             {"instance": "b", "backend": "y", "encoding": "-", "result": "no-solution", "complete": True}]
    assert not agreement(solve, "solve")["b"]["agree"]


def _marks(rows):
    a = agreement(rows, "count")["a"]
    return a["agree"], [_row_agrees(r, a, "count") for r in rows]


def test_a_count_below_the_solutions_another_run_verified_is_the_wrong_one():
    # 10 listed and verified refute a complete count of 1: that run alone is
    # wrong, and a lower bound of 0 fits the count left standing (every row
    # was "NO <<<", QA)
    def row(backend, count, complete, listed=True):
        return {"instance": "a", "backend": backend, "encoding": "-", "count": count, "complete": complete,
                "listed": listed}

    assert _marks([row("exact", 10, True), row("liar", 1, True), row("slow", 0, False)]) == \
        (False, [True, False, True])
    # a count in dispute is no answer: the liar's alone complete one was "answer" (review)
    a = agreement([row("liar", 1, True), row("slow", 4, False)], "count")["a"]
    assert (a["agree"], a["answer"], a["verified"], a["standing"]) == (False, None, 4, [])
    # a counter's count is verified no other way: two complete counts, none
    # refuted, are both marked; a lower bound fitting both says nothing
    assert _marks([row("ganak", 10, True, False), row("liar", 1, True, False), row("slow", 0, False)]) == \
        (False, [False, False, None])
    # a lower bound above the count left standing is wrong too
    assert _marks([row("exact", 10, True), row("liar", 1, True), row("over", 12, False, False)]) == \
        (False, [True, False, False])
    # lower bounds and no complete count: nothing to agree with (it said "yes", QA)
    assert _marks([row("slow", 3, False), row("slower", 0, False)]) == (True, [None, None])
    assert _marks([row("exact", 3, True), row("slower", 0, False)]) == (True, [True, True])


def test_the_count_proved_wrong_is_named(tmp_path, capsys):
    # answers the first call as CaDiCaL does, then "no more": 1 of 10
    once = _fake(tmp_path, "once", f'if [ ! -e {tmp_path}/called ]; then touch {tmp_path}/called; '
                                   'exec cadical -q "$@"; fi\necho "s UNSATISFIABLE"\nexit 20\n')
    assert main(["compare", "tetromino-L-4x4", "--count", "-b", f"exact,external:{once}", "--json"]) == 4
    out = json.loads(capsys.readouterr().out)
    assert [(r["backend"], r["count"], r["listed"], r["agree"]) for r in out["runs"]] == \
        [("exact", 10, True, True), (f"external:{once}", 1, True, False)]
    (tmp_path / "called").unlink()
    assert main(["compare", "tetromino-L-4x4", "--count", "-b", f"exact,external:{once}"]) == 4
    assert capsys.readouterr().out.splitlines()[-1] == \
        f"!!! MISMATCH on tetromino-L-4x4: external:{once} counted fewer than the 10 solutions exact listed and verified"


@pytest.mark.parametrize("argv,words", [
    (["compare", "dominoes-2x4", "-b", "nosuch"], "unknown backend"),
    (["compare", "dominoes-2x4", "-e", "nosuch"], "unknown encoding"),
    (["compare", "no-such-instance"], "unknown instance"),
    (["compare", "dominoes-2x4", "--json", "--csv"], "both write to stdout"),
])
def test_bad_input(argv, words, capsys):
    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_a_stopped_model_counter_shows_no_count(capsys):
    # Ganak does not finish 3x20 in a second (benchmarks/counting-results.md);
    # its 0 so far is no count, so the table says "-", not ">=0"
    rc = main(["compare", "pentomino-3x20", "--count", "-b", "ganak", "-t", "1", "--json"])
    assert rc == 3
    (run,) = json.loads(capsys.readouterr().out)["runs"]
    assert (run["complete"], run["count"], run["result"]) == (False, None, "stopped (time-limit), no count")
    # no answer, so it neither agrees nor disagrees (it said "yes", QA)
    assert run["agree"] is None
    assert main(["compare", "pentomino-3x20", "--count", "-b", "ganak", "-t", "1"]) == 3
    row = capsys.readouterr().out.splitlines()[-1].split()
    assert row[-3:] == ["count", "-", "-"] and "(time-limit)," in row


def test_a_malformed_file_is_refused_before_anything_runs(tmp_path, capsys):
    bad = tmp_path / "bad.box"
    bad.write_text("BOX / 2 * 4\nL ELEMENT / 0,0 / 1,0 / 2,0 / 2,1\nL ELEMENT / 0,0 / 1,0 / 2,0 / 2,1\n"
                   "garbage here\n")
    assert main(["compare", "pentomino-3x20", str(bad), "-b", "exact", "--json"]) == 2
    err = json.loads(capsys.readouterr().out)  # the error object alone: no run, no table
    assert (err["kind"], err["exit_code"]) == ("bad-input", 2) and err["error"].startswith(f"{bad}:")


def test_an_engine_that_cannot_do_the_job_is_refused(capsys):
    assert main(["compare", "pentomino-3x20", "-b", "exact,ganak"]) == 2
    assert capsys.readouterr().err == ("puzzlesat: --backends: ganak only counts solutions, it cannot solve "
                                       "(compare it with --count, or leave it out)\n")


def test_a_run_that_failed_neither_agrees_nor_disagrees(tmp_path, capsys):
    garbage = _fake(tmp_path, "garbage", "echo 'I think so'\nexit 10\n")
    rc = main(["compare", "dominoes-2x4", "--count", "-b", f"exact,external:{garbage}", "--json"])
    out = json.loads(capsys.readouterr().out)
    # a run without a result, and no mismatch; but a solver that failed is
    # exit 4 for compare as for solve (it was 3, as if merely incomplete)
    assert rc == 4
    exact, bad = out["runs"]
    assert (exact["agree"], bad["status"], bad["agree"], out["mismatch"]) == (True, "error", None, False)
    assert main(["compare", "dominoes-2x4", "--count", "-b", f"exact,external:{garbage}"]) == 4
    rows = [r.split() for r in capsys.readouterr().out.splitlines() if r.startswith("dominoes-2x4 ")]
    assert rows[0][-2:] == ["5", "yes"] and rows[1][-3:] == ["ERROR", "-", "-"], rows


@pytest.mark.parametrize("job", ["--solve", "--count"])
def test_the_engines_run_where_the_puzzle_knows_there_is_no_solution(tmp_path, capsys, job):
    # the mutilated chessboard: its colouring precheck knows there is no
    # tiling, and compare gave every engine "no solution" in 0.000 s
    # without running it (QA); it compares the engines, so they run
    board = tmp_path / "mut.toml"
    board.write_text('[board]\nsize = [4, 4]\nholes = [[1, 1], [4, 4]]\n[[pieces]]\nset = "dominoes"\ncount = 7\n')
    ran = tmp_path / "ran"
    fake = _fake(tmp_path, "unsat.sh", f'touch "{ran}"\necho "s UNSATISFIABLE"\nexit 20\n')
    assert main(["compare", str(board), job, "-b", f"exact,external:{fake}", "-t", "30", "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)["runs"]
    assert ran.exists()
    assert [(r["backend"], r["status"], r["result"], "note" in r) for r in runs] == [
        (b, "ok", "no-solution" if job == "--solve" else "counted", False) for b in ("exact", f"external:{fake}")]
    if job == "--count":
        assert [r["count"] for r in runs] == [0, 0]
    # why there is none is said, beside the engines' answers
    why = ("colour each cell by the sum of its coordinates mod 2 (a checkerboard): the board has 6 cells of colour "
           "0 and 8 of colour 1, but each D2 covers 1 of colour 0 and 1 of colour 1 wherever it lies")
    assert [r["precheck"] for r in runs] == [why, why]
    assert main(["compare", str(board), job, "-b", "exact", "-t", "30"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"({board} has no solution, known before any search: {why}; the engines ran all the same)")


def test_a_run_of_no_time_is_drawn_at_the_floor_not_at_the_limit(tmp_path, monkeypatch):
    # a determinant's 0.000 s bar reached the limit's line, as if it ran out (QA)
    import matplotlib.axes

    from puzzlesat.commands.compare import plot

    drawn = []
    real = matplotlib.axes.Axes.bar
    monkeypatch.setattr(matplotlib.axes.Axes, "bar", lambda self, x, h, **kw: (drawn.append(list(h)),
                                                                                real(self, x, h, **kw))[1])
    row = {"instance": "a", "encoding": "-", "status": "ok", "result": "counted", "count": 0, "agree": True,
           "complete": True, "first_s": None}
    rows = [{**row, "backend": "kasteleyn", "total_s": 0.0}, {**row, "backend": "exact", "total_s": 0.5},
            {**row, "backend": "ganak", "total_s": None, "complete": False, "count": None, "agree": None,
             "stopped_by": "time-limit", "result": "stopped (time-limit), no count"}]
    plot(rows, "count", 3.0, str(tmp_path / "p.png"))
    assert drawn == [[1e-3, 0.5, 3.0]]
