"""The CLI as a user runs it: output, JSON shapes, exit codes, error lines."""

from __future__ import annotations

import json
import re

import pytest

from puzzlesat.loading import load_puzzle


def test_solve_prints_the_board_and_backend(cli):
    r = cli("solve", "pentomino-3x20")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert [len(l) for l in lines[:3]] == [20, 20, 20]
    assert sorted("".join(lines[:3])) == sorted("FILNPTUVWXYZ" * 5)
    # a tiling: the exact-cover engine raced against CaDiCaL, the first answer taken
    assert re.fullmatch(r"solved by (exact|cadical195) in \d+\.\d{3} s \(raced against (cadical195|exact)\)",
                        lines[3]), lines[3]
    assert cli("solve", "pentomino-3x20", "-b", "cadical195").out.splitlines()[3].startswith(
        "solved by cadical195 in ")


def test_solve_json(cli):
    r = cli("solve", "pentomino-6x10", "--json", "--backend", "glucose4")
    assert r.code == 0, r.err
    d = r.json()
    assert d["status"] == "solved" and d["backend"] == "glucose4"
    assert len(d["solution"]["placements"]) == 12
    assert len(d["solution"]["rows"]) == 6


def test_count_json_unique(cli):
    r = cli("count", "pentomino-3x20", "--unique", "--json")
    assert r.code == 0, r.err
    d = r.json()
    assert {k: d[k] for k in ("count", "up_to_symmetry", "unique", "complete")} == {
        "count": 2, "up_to_symmetry": True, "unique": True, "complete": True}
    assert isinstance(d["backend"], str) and isinstance(d["seconds"], float)
    # up_to_symmetry is the option; verdict is about the puzzle's solutions
    d = cli("count", "letter-p", "--limit", "2", "--json").json()
    assert (d["up_to_symmetry"], d["verdict"]) == (False, "unique")


def test_count_limit_is_incomplete_with_exit_3(cli):
    r = cli("count", "dominoes-2x4", "--limit", "2", "--backend", "minisat22")
    assert r.code == 3
    assert r.out.startswith("at least 2 solutions, incomplete (stopped at --limit)")
    # --limit 2 shows the two it found, as --show 2 would; a --show given says how many (it was overridden)
    d = cli("count", "pentomino-3x20", "--limit", "2", "--json").json()
    assert (d["count"], d["verdict"], len(d["solutions"])) == (2, "multiple", 2)
    assert len({json.dumps(s) for s in d["solutions"]}) == 2
    d = cli("count", "pentomino-3x20", "--limit", "2", "--show", "1", "--json").json()
    assert (d["count"], d["verdict"], len(d["solutions"])) == (2, "multiple", 1)
    r = cli("count", "pentomino-3x20", "--limit", "2", "--show", "1")
    assert r.code == 3 and r.out.count("solution 1") == 1 and "solution 2" not in r.out, r.out


def test_count_says_when_it_picks_the_model_counter(cli, tmp_path):
    # 28 dominoes and a 2x2 square on 6x10: no determinant (the square
    # covers four cells), about 2e7 tilings
    f = tmp_path / "mixed.toml"
    f.write_text('[board]\nsize = [6, 10]\n[[pieces]]\nset = "dominoes"\ncount = 28\n'
                 '[[pieces]]\ncells = [[1, 1], [1, 2], [2, 1], [2, 2]]\nname = "O"\n')
    r = cli("count", f, "--unique")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "7867251 solutions up to symmetry"  # (-b exact: the same, in 6.4 s)
    assert lines[1].startswith("ganak, symmetry-reduced, 4 symmetries, ")
    assert lines[2] == ("(ganak chosen: about 2e+07 solutions by Knuth's estimate over 128 random descents, "
                        "too many to enumerate one by one)")
    # on 6x8, about 1.4e6: the exact engine lists them sooner (0.6 s, Ganak 2.2 s);
    # with 500,000 as the bar, Ganak was chosen
    f.write_text(f.read_text().replace("[6, 10]", "[6, 8]").replace("28", "22"))
    r = cli("count", f, "--json").json()
    assert (r["count"], r["backend"], r["backend_choice"]) == (991721, "exact", None)
    # dominoes alone up to symmetry: Burnside with determinants
    d = cli("count", "dominoes-8x8", "--unique", "--json").json()
    assert (d["count"], d["backend"], d["method"], d["expected"]) == (1629189, "kasteleyn", "symmetry-reduced",
                                                                      1629189)
    # the raw count of dominoes on a board of the plane: a determinant
    d = cli("count", "dominoes-8x8", "--json").json()
    assert (d["count"], d["backend"], d["method"], d["expected"]) == (12988816, "kasteleyn", "determinant", 12988816)
    assert d["backend_choice"].startswith("the tilings are the perfect matchings of a planar graph")
    d = cli("count", "pentomino-3x20", "--json").json()  # few solutions: enumerated
    assert (d["count"], d["backend"], d["backend_choice"]) == (8, "exact", None)
    d = cli("count", "dominoes-8x8", "--limit", "2", "--json").json()  # listed: enumerated
    assert (d["count"], d["backend"], d["verdict"]) == (2, "exact", "multiple")


def test_show_lists_a_few_and_the_counter_still_counts(cli):
    # 12,988,816 tilings: listing them all (as --show once did) takes minutes
    # and GBs; the exact-cover engine lists one, the determinant counts
    d = cli("count", "dominoes-8x8", "--show", "1", "--json").json()
    assert (d["count"], d["complete"], d["backend"]) == (12988816, True, "kasteleyn")
    assert len(d["solutions"]) == 1
    rows = d["solutions"][0]["rows"]
    assert len(rows) == 8 and all(len(r) == 8 for r in rows)
    r = cli("count", "dominoes-8x8", "--show", "-1")
    assert r.code == 2 and "argument --show: must be at least 1: '-1'" in r.err


def test_a_stopped_model_counter_says_it_has_no_count(cli, tmp_path):
    # 8 monominoes and 14 dominoes on 6x6: 154,396,898 tilings, Ganak takes
    # 30-55 s; stopped at 1 s it has nothing, which is not "at least 0"
    f = tmp_path / "md6.toml"
    f.write_text('[board]\nsize = [6, 6]\n[[pieces]]\nset = "monominoes"\ncount = 8\n'
                 '[[pieces]]\nset = "dominoes"\ncount = 14\n')
    r = cli("count", f, "-b", "ganak", "-t", "1.0", "--progress")
    assert r.code == 3, r.err
    assert r.out.splitlines()[0] == ("no count: ganak was stopped by the time limit before it finished "
                                     "(a model counter has no partial count)")
    frames = _frames(r.err)
    assert _clock(frames, "counting (ganak): "), frames  # its clock, not "0 solutions, 0.0/s"
    assert not any("solutions" in x for x in frames), frames
    r = cli("count", f, "-b", "ganak", "-t", "1.0", "--json")
    assert r.code == 3, r.err
    out = json.loads(r.out)
    assert (out["count"], out["complete"], out["stopped_by"], out["verdict"]) == (None, False, "time-limit", None)


def test_count_plain_text(cli):
    r = cli("count", "dominoes-2x4", "--unique", "--backend", "cpsat")
    assert r.code == 0
    assert r.out.splitlines()[0] == "4 solutions up to symmetry"


def test_info_table_and_json(cli):
    r = cli("info", "pentomino-3x4x5", "--json", "--encodings", "pairwise,seqcounter")
    assert r.code == 0, r.err
    d = r.json()
    z = next(p for p in d["pieces"] if p["name"] == "Z")
    assert (z["orientations"], z["placements"]) == (12, z["placements"]) and z["placements"] > 0
    assert [s["encoding"] for s in d["cnf"]] == ["pairwise", "seqcounter"]
    assert all(s["clauses"] > 0 for s in d["cnf"])
    r = cli("info", "pentomino-6x10")
    assert "F" in r.out and "orientations" in r.out and "pairwise" in r.out



def test_info_counts_the_board_symmetries_and_says_why_there_is_no_solution(cli, tmp_path):
    # a piece that fits nowhere has no placements: the board still has its 4
    # symmetries, and info says what solve would (it said "1 board
    # symmetries" and nothing about the piece)
    f = tmp_path / "nofit.toml"
    f.write_text('[board]\nsize = [2, 3]\n[[pieces]]\nname = "I6"\n'
                 'cells = [[1,1],[1,2],[1,3],[1,4],[1,5],[1,6]]\n')
    r = cli("info", f)
    assert r.code == 0 and r.out.splitlines()[1] == "square board, 6 cells to cover, 4 board symmetries"
    assert f"no solution possible: piece I6 ({f}:3) fits nowhere on the board" in r.out.splitlines()
    d = cli("info", f, "--json").json()
    assert (d["board_symmetries"], d["piece_symmetries"]) == (4, 4)
    # (one cell: it said "1 cells to cover", QA)
    one = tmp_path / "one.toml"
    one.write_text('[board]\nsize = [1, 1]\n[[pieces]]\nname = "M"\nart = "#"\n')
    assert cli("info", one).out.splitlines()[1] == "square board, 1 cell to cover, 1 board symmetry"
    # pieces fixed in place: the cells they cover are the board's too (it
    # counted the free 2 x 2's 8 symmetries for a 2 x 4 box, QA)
    box = tmp_path / "fixed.box"
    box.write_text("BOX / 2 * 4\nRESERVE / (D) (1, 1), (2, 1)\nRESERVE / (D) (1, 4), (2, 4)\n"
                   + "ELEMENT / (D) (1, 1), (1, 2)\n" * 4)
    assert cli("info", box).out.splitlines()[1] == "square board, 4 cells to cover, 4 board symmetries"
    # (and the pieces' symmetries over the same cells: the mirror that swaps
    # the two fixed M keeps the pieces, 2 of 2, not "1 of them", review)
    box.write_text("BOX / 1 * 3\nRESERVE / (M) (1, 1)\nRESERVE / (M) (1, 3)\n" + "ELEMENT / (M) (1, 1)\n" * 3)
    assert cli("info", box).out.splitlines()[1] == "square board, 1 cell to cover, 2 board symmetries"
    box.write_text("BOX / 2 * 4\nRESERVE / (D) (1, 1), (1, 2)\n" + "ELEMENT / (D) (1, 1), (1, 2)\n" * 4)
    # (what cuts them down is the piece fixed in place: said, QA)
    assert cli("info", box).out.splitlines()[1] == (
        "square board, 6 cells to cover, 4 board symmetries (1 of them also maps the set of pieces onto itself "
        "and the pieces fixed in place onto pieces fixed in place)")
    assert d["no_solution"] == f"piece I6 ({f}:3) fits nowhere on the board" and d["area_mismatch"] is None
    # count's precheck answer says the board's symmetries too (it said 1: no placement to permute)
    assert cli("count", f, "--unique", "--json").json()["symmetries"] == 4
    # two one-sided L (no J): the reflections do not map the pieces onto pieces
    f = tmp_path / "l2.toml"
    f.write_text('[board]\nsize = [2, 4]\n[[pieces]]\nname = "L"\ncells = [[1,1],[2,1],[2,2],[2,3]]\n'
                 'one_sided = true\ncount = 2\n')
    assert cli("info", f).out.splitlines()[1] == (
        "square board, 8 cells to cover, 4 board symmetries (2 of them also map the set of pieces onto itself)")
    d = cli("info", f, "--json").json()
    assert (d["board_symmetries"], d["piece_symmetries"], d["no_solution"]) == (4, 2, None)
    assert cli("count", f, "--unique", "--json").json()["symmetries"] == 2
    # a flat box: its 1 x 3 x 4 turns move the cells as the 3 x 4 rectangle's 4 do
    assert cli("info", "pentomino-2x5x6", "--json").json()["board_symmetries"] == 8
    f = tmp_path / "flat.toml"
    f.write_text('lattice = "cubic"\n[board]\nsize = [1, 3, 4]\n[[pieces]]\nset = "dominoes"\ncount = 6\n')
    assert cli("info", f, "--json").json()["board_symmetries"] == 4
    # a nonogram whose clues ask for different numbers of black cells
    f = tmp_path / "sums.nin"
    f.write_text("2 2\n1\n1\n2\n2\n")
    r = cli("info", f)
    assert r.code == 0 and ("no solution possible: the row clues ask for 2 black cells but the column "
                            "clues for 4, so no picture satisfies both") in r.out.splitlines()

def test_info_text_reads_as_text(cli):
    lines = cli("info", "dancer").out.splitlines()
    assert "has_goal: yes" in lines
    assert lines[-4:] == ["problem: 124 variables (50 primary), constraints: 327 clauses",
                          "the same CNF with every cardinality encoding (the model has no cardinality constraints):",
                          "encoding      variables    clauses    literals",
                          "all                 124        327         738"]
    assert "constraints: 72 exactly-one constraints" in cli("info", "pentomino-3x20").out
    assert "aliases: )" not in cli("backends").out


def test_info_says_what_a_model_of_no_or_trivial_constraints_is(cli, tmp_path):
    # a board the fixed pieces fill: "constraints: " with nothing after it
    f = tmp_path / "full.box"
    f.write_text("BOX / 2 * 2\nRESERVE / (D) (1, 1), (1, 2)\nRESERVE / (D) (2, 1), (2, 2)\n"
                 + "ELEMENT / (D) (1, 1), (1, 2)\n" * 2)
    out = cli("info", f).out.splitlines()
    assert "problem: 0 variables (0 primary), constraints: none" in out
    assert out[2] == "no pieces to place: every copy is fixed"
    # an impossible count (two dominoes, no free cell) is an exactly-k constraint
    # every encoding writes alike: it was said to be no cardinality constraint
    f = tmp_path / "none.toml"
    f.write_text('[board]\nart = "**"\n[[pieces]]\nname = "D"\ncells = [[1, 1], [1, 2]]\ncount = 2\n')
    assert cli("info", f).out.splitlines()[-4:] == [
        "problem: 0 variables (0 primary), constraints: 1 exactly-k constraint",
        "the same CNF with every cardinality encoding (each cardinality constraint of the model is written alike "
        "by all of them: it forces all its variables, or none, or cannot hold):",
        "encoding      variables    clauses    literals",
        "all                   0          1           0"]
    # two encodings that agree on a model where encodings matter keep a row each
    out = cli("info", "dominoes-2x4", "--encodings", "pairwise,mixed").out.splitlines()
    assert [line.split()[0] for line in out[-2:]] == ["pairwise", "mixed"]


def test_info_on_6x10_matches_solver_notes(cli):
    # solver-notes.md: 6x10 pairwise has 2,056 variables
    d = cli("info", "pentomino-6x10", "--json", "--encodings", "pairwise").json()
    assert d["cnf"][0]["variables"] == 2056


def test_list_and_backends(cli):
    r = cli("list", "--json")
    names = {i["name"] for i in r.json()["instances"]}
    assert {"pentomino-3x20", "pentomino-6x10", "pentomino-5x3x2x2", "pentomino-8x8-hole"} <= names
    r = cli("backends", "--json")
    got = {b["name"] for b in r.json()["backends"]}
    assert {"cadical195", "glucose4", "minisat22", "cpsat"} <= got


def test_show_before_the_instance_says_what_happened(cli):
    # --show K is optional: it took the instance as its K (QA)
    r = cli("count", "--show", "pentomino-3x20")
    assert r.code == 2
    assert r.err.splitlines()[-1] == (
        "puzzlesat count: error: argument --show: not a whole number: 'pentomino-3x20': --show takes the word after "
        "it as its K; put the instance first (puzzlesat count pentomino-3x20 --show), or give K")
    assert cli("count", "dominoes-2x4", "--show", "1.5").err.splitlines()[-1] == (
        "puzzlesat count: error: argument --show: not a whole number: '1.5'")
    # a word that is no instance gets no such advice (the instance came first: review)
    assert cli("count", "dominoes-2x4", "--show", "x").err.splitlines()[-1] == (
        "puzzlesat count: error: argument --show: not a whole number: 'x'")


def test_no_command_is_a_usage_error_on_stderr(cli):
    # the help went to stdout, with exit 2 (QA)
    r = cli()
    assert (r.code, r.out) == (2, "")
    assert r.err.startswith("usage: puzzlesat [-h] [--version] COMMAND ...\n") and "\n    solve " in r.err
    r = cli("--help")  # asked for: on stdout, exit 0
    assert (r.code, r.err) == (0, "") and r.out.startswith("usage: puzzlesat ")


def test_a_dimacs_solver_on_the_path_given_as_a_backend_is_named_external(cli, tmp_path):
    # -b minisat with minisat installed: "did you mean 'minisatep'?" (review)
    exe = tmp_path / "picosat"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    r = run_with_path(tmp_path, "solve", "dancer", "-b", "picosat")
    assert (r.returncode, r.stderr) == (2, f"puzzlesat: unknown backend 'picosat'; did you mean 'external:picosat'? "
                                           f"({exe} is a program on the PATH) (run 'puzzlesat backends' to see "
                                           "the choices)\n")


def run_with_path(path, *args):
    import os
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "puzzlesat", *args], capture_output=True, text=True,
                          env={**os.environ, "PATH": f"{path}{os.pathsep}{os.environ.get('PATH', '')}"})


def test_backends_lists_the_dimacs_solvers_on_the_path(monkeypatch, tmp_path):
    # installed solvers were left to the line "external:PATH_OR_NAME" (QA)
    from puzzlesat.backends import list_backends

    for name in ("kissat", "not-a-solver"):
        exe = tmp_path / name
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    rows = [r for r in list_backends() if r["name"].startswith("external:")]
    assert [(r["name"], r["available"], r["description"]) for r in rows] == [
        ("external:PATH_OR_NAME", True, "any DIMACS solver binary (external:cadical, external:/path/to/kissat -q)"),
        ("external:kissat", True, f"the DIMACS solver {tmp_path / 'kissat'}, found on the PATH")]


def test_no_solution_exit_1(cli, tmp_path):
    f = tmp_path / "odd.box"
    f.write_text("BOX / 2 * 3\nELEMENT / (D) (1, 1), (1, 2)\n")
    r = cli("solve", str(f))
    assert r.code == 1
    assert r.out.strip() == "no solution: the pieces cover 2 cells but the board has 6 free cells"


def test_no_solution_proved_by_a_solver(cli, tmp_path):
    # the right area, but two T tetrominoes cannot tile a 2x4 box
    f = tmp_path / "tt.box"
    f.write_text("BOX / 2 * 4\nELEMENT / (T) (1, 1), (1, 2), (1, 3), (2, 2)\n"
                 "ELEMENT / (T) (1, 1), (1, 2), (1, 3), (2, 2)\n")
    r = cli("solve", str(f), "-b", "cadical195")
    assert r.code == 1
    assert r.out.startswith("no solution (proved by cadical195 in ")
    r = cli("solve", str(f))
    assert r.code == 1
    assert re.fullmatch(r"no solution \(proved by (exact|cadical195) in \d+\.\d{3} s, raced against "
                        r"(cadical195|exact)\)\n", r.out), r.out
    r = cli("count", str(f), "--json")
    assert (r.code, r.json()["count"], r.json()["complete"]) == (0, 0, True)


@pytest.mark.parametrize("family,text,why", [
    ("tiling", "BOX / 1000 * 1000\nELEMENT / (I) (1,1), (2,1)\n",
     "the pieces cover 2 cells but the board has 1,000,000 free cells"),
    ("nonogram", "width 2\nheight 1\nrows\n2\ncolumns\n1\n0\n",
     "the row clues ask for 2 black cells but the column clues for 1, so no picture satisfies both"),
])
def test_counts_that_differ_are_said_without_compiling_a_model(monkeypatch, capsys, tmp_path, family, text, why):
    # a 1000 x 1000 board that one domino cannot cover took 15 s and a GB
    # of placements to be told so (QA): solve and count now build no model
    from puzzlesat import cli
    from puzzlesat.models.nonogram.puzzle import Nonogram
    from puzzlesat.models.tiling.puzzle import Tiling

    def no_compile(self):
        raise AssertionError("compiled")

    monkeypatch.setattr(Tiling, "compile", no_compile)
    monkeypatch.setattr(Nonogram, "compile", no_compile)
    f = tmp_path / ("p.box" if family == "tiling" else "p.non")
    f.write_text(text)
    assert cli.main(["solve", str(f)]) == 1
    assert capsys.readouterr().out == f"no solution: {why}\n"
    assert cli.main(["count", str(f), "--unique", "-b", "cpsat"]) == 0
    assert capsys.readouterr().out == f"0 solutions up to symmetry: {why}\n(no solver called)\n"
    assert cli.main(["count", str(f), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    # (no model was built: no symmetries were looked for)
    assert (d["count"], d["method"], d["reason"], d["symmetries"], d["verdict"]) == (0, "precheck", why, None, "none")
    assert cli.main(["solve", str(f), "--json"]) == 1
    d = json.loads(capsys.readouterr().out)
    assert (d["status"], d["method"], d["reason"], d["backend"]) == ("no-solution", "precheck", why, None)


def test_piece_that_fits_nowhere_is_no_solution_named_at_its_line(cli, tmp_path):
    # a well-formed puzzle (the areas match: 3 + 1 = 4) with no solution: exit 1
    # with the reason, as for an area mismatch, and no solver called; the
    # model is still there for info and export
    f = tmp_path / "no.box"
    f.write_text("BOX / 1 * 4\nELEMENT / (V) (1, 1), (2, 1), (2, 2)\nELEMENT / (O) (1, 1)\n")
    why = f"piece V ({f}:2) fits nowhere on the board"
    r = cli("solve", str(f))
    assert (r.code, r.out) == (1, f"no solution: {why}\n")
    # no engine ran, and none is named (solve named its race "exact | cadical195")
    d = cli("count", str(f), "--json").json()
    assert (d["count"], d["complete"], d["method"], d["reason"], d["backend"]) == (0, True, "precheck", why, None)
    d = cli("solve", str(f), "--json").json()  # no search ran: solve says so as count does
    assert (d["status"], d["method"], d["reason"], d["backend"]) == ("no-solution", "precheck", why, None)
    info = cli("info", str(f), "--json")
    assert info.code == 0
    assert [(p["name"], p["placements"]) for p in info.json()["pieces"]] == [("V", 0), ("O", 4)]
    out = tmp_path / "no.cnf"
    assert cli("export", str(f), "-o", str(out)).code == 0
    assert "\n0\n" in out.read_text()  # the empty clause: V's Exactly(1) of no placements


@pytest.mark.parametrize("args,message", [
    (["solve", "no-such-thing"], "puzzlesat: unknown instance 'no-such-thing': not a file, nor a bundled name (run 'puzzlesat list')"),
    (["solve", "missing.box"], "puzzlesat: missing.box: no such file"),
    (["solve", "pentomino-3x20", "--backend", "nope"], "puzzlesat: unknown backend 'nope'; run 'puzzlesat backends' to see the choices"),
    # a typo, or the wrong case, gets the name meant
    (["solve", "pentomno-3x20"], "puzzlesat: unknown instance 'pentomno-3x20': not a file, nor a bundled name; "
                                 "did you mean 'pentomino-3x20'? (run 'puzzlesat list')"),
    (["solve", "Dancer"], "puzzlesat: unknown instance 'Dancer': not a file, nor a bundled name; "
                          "did you mean 'dancer'? (run 'puzzlesat list')"),
    (["solve", "dancer", "-b", "cadicl195"], "puzzlesat: unknown backend 'cadicl195'; did you mean 'cadical195'? "
                                             "(run 'puzzlesat backends' to see the choices)"),
    (["solve", "dancer", "-b", "CPSAT"], "puzzlesat: unknown backend 'CPSAT'; did you mean 'cpsat'? "
                                        "(run 'puzzlesat backends' to see the choices)"),
    (["solve", "dancer", "-b", "extrnal:minisat"], "puzzlesat: unknown backend 'extrnal:minisat'; did you mean "
                                                   "'external:minisat'? (run 'puzzlesat backends' to see the choices)"),
    (["solve", "dancer", "-b", "nope:minisat"], "puzzlesat: unknown backend 'nope:minisat'; "
                                                "run 'puzzlesat backends' to see the choices"),
    (["solve", "dancer", "-b", "ls"], "puzzlesat: unknown backend 'ls'; run 'puzzlesat backends' to see the choices"),
])
def test_bad_input_is_one_line_exit_2(cli, args, message):
    r = cli(*args)
    assert r.code == 2
    assert r.err.strip() == message
    assert "Traceback" not in r.err


def test_bad_encoding_and_bad_file_line(cli, tmp_path):
    r = cli("solve", "pentomino-3x20", "--encoding", "nope")
    assert r.code == 2 and "invalid choice: 'nope'" in r.err
    f = tmp_path / "bad.box"
    f.write_text("BOX / 3 * 3\nELEMENT / (A) (1, 1), (9, 9, 9)\n")
    r = cli("count", str(f))
    assert r.code == 2
    assert r.err.strip() == f"puzzlesat: {f}:2: cell (9, 9, 9) has 3 coordinates, the box has 2 dimensions"


def test_works_from_any_directory(cli, tmp_path):
    r = cli("count", "dominoes-2x4", "--json", cwd=tmp_path)
    assert r.code == 0 and r.json()["count"] == 5


def test_svg_output(cli, tmp_path):
    out = tmp_path / "b.svg"
    r = cli("solve", "pentomino-3x4x5", "--svg", str(out))
    assert r.code == 0, r.err
    svg = out.read_text()
    assert svg.startswith("<svg") and svg.count("<rect") > 60


def test_encoding_on_an_engine_without_cnf_is_refused(cli):
    r = cli("count", "dominoes-2x4", "-b", "cpsat", "-e", "pairwise")
    assert r.code == 2
    assert r.err.strip() == ("puzzlesat: backend 'cpsat' does not use a CNF encoding; "
                             "--encoding is for the CNF engines")


def test_encoding_reaches_ganak(cli):
    r = cli("count", "dominoes-2x4", "-b", "ganak", "-e", "pairwise", "--json")
    assert r.code == 0, r.err
    assert r.json()["count"] == 5


def test_count_limit_2_answers_unique_or_multiple(cli):
    r = cli("count", "twins", "--limit", "2", "--json")
    d = r.json()
    assert (r.code, d["count"], d["complete"], d["verdict"]) == (3, 2, False, "multiple")
    assert len(d["solutions"]) == 2 and d["solutions"][0] != d["solutions"][1]
    r = cli("count", "dancer", "--limit", "2")
    assert r.code == 0
    assert r.out.splitlines()[0] == "1 solution (unique)"
    # a model counter counts them all (2, complete): the verdict all the same,
    # and the two solutions, listed by an engine that lists them (as --show 2)
    r = cli("count", "twins", "--limit", "2", "-b", "ganak", "--json")
    d = r.json()
    assert (r.code, d["count"], d["complete"], d["verdict"], d["backend"]) == (0, 2, True, "multiple", "ganak")
    twins = load_puzzle("twins")
    assert len(d["solutions"]) == 2 and d["solutions"][0] != d["solutions"][1]
    for rows in d["solutions"]:
        twins.verify(tuple(tuple(int(c == "#") for c in row) for row in rows))


def test_preprocess_on_solve_and_count(cli):
    r = cli("count", "dancer", "--limit", "2", "--preprocess", "--json")
    assert (r.code, r.json()["verdict"]) == (0, "unique")
    r = cli("solve", "pentomino-3x20", "--preprocess")
    assert r.code == 2
    assert r.err.strip() == "puzzlesat: pentomino-3x20: --preprocess: tiling puzzles have no preprocessing step"
    # asking for what happens anyway is no error, and is not passed over in silence
    r = cli("solve", "pentomino-3x20", "--no-preprocess")
    assert r.code == 0
    assert r.err.strip() == "puzzlesat: note: --no-preprocess has no effect: tiling puzzles have no preprocessing step"


@pytest.mark.parametrize("command", ["solve", "count", "check"])
def test_nonograms_are_preprocessed_unless_told_not_to(cli, command):
    # line logic solves dancer: preprocessed, its model is the cells' unit
    # clauses, an exact cover the exact-cover engine takes; as stated, its
    # clues' block clauses are not
    r = cli(command, "dancer", "-b", "exact", "--json")
    assert r.code == 0
    assert {"solve": lambda j: j["status"] == "solved", "count": lambda j: (j["count"], j["complete"]) == (1, True),
            "check": lambda j: len(j["solutions"]) == 1}[command](r.json())
    if command == "check":  # (line logic alone: no search, and no model)
        assert (r.json()["preprocess"], r.json()["unique"], r.json()["searched"]) == (True, True, False)
    r = cli(command, "dancer", "-b", "exact", "--json", "--no-preprocess")
    if command == "check":  # line logic decides it all the same
        assert (r.code, r.json()["preprocess"], r.json()["unique"]) == (0, False, True)
    else:
        assert (r.code, r.json()["kind"]) == (2, "bad-input")
        assert r.json()["error"].startswith("backend 'exact' cannot take this problem: not an exact cover: ")


def test_check_compiles_with_the_fixpoint_it_reports(monkeypatch, capsys):
    # one line solve for the report and the preprocessing, not two (5-Dom:
    # line logic fixes nothing, so a search follows)
    from puzzlesat.cli import main
    from puzzlesat.models.nonogram import linesolve

    calls, real = [], linesolve.line_solve

    def counted(*a, **k):
        calls.append(k.get("record"))
        return real(*a, **k)

    monkeypatch.setattr(linesolve, "line_solve", counted)
    assert main(["check", "5-dom", "--json", "--steps"]) == 0
    assert '"preprocess": true' in capsys.readouterr().out
    assert calls == [True]


@pytest.mark.parametrize("backend", ["cadical195", "glucose4", "cpsat"])
def test_ctrl_c_ends_a_solve_labelled_interrupted(backend, request, interrupted):
    # A Ctrl-C is not the time limit: say so (it used to print "within the time
    # limit" with no limit given).  CP-SAT's own SIGINT handler deadlocked
    # about one Ctrl-C in four during the presolve of faase; Python handles
    # it now.  5x3x2x2 has no tiling and takes the PySAT solvers > 10 s to
    # prove; faase keeps CP-SAT busy past its (slow) loading.
    if backend == "cpsat":  # only this variant needs the shared data
        instance = str(request.getfixturevalue("shared_dir") / "data" / "nonograms" / "survey" / "faase.non")
    else:
        instance = "pentomino-5x3x2x2"
    r = interrupted("solve", instance, "-b", backend, "--json", "--progress", after=f"solving ({backend}): ")
    assert r.code == 3, r.err
    assert "Traceback" not in r.err and "terminate" not in r.err
    d = r.json()
    assert (d["status"], d["stopped_by"], d["backend"]) == ("unknown", "interrupted", backend)
    assert d["seconds"] < 60


def _clock(frames: list[str], prefix: str) -> list[float]:
    """The seconds shown by the progress frames that are ``prefix`` + "N.Ns"."""
    pat = re.compile(re.escape(prefix) + r"(\d+\.\d)s")
    return [float(m.group(1)) for f in frames if (m := pat.fullmatch(f))]


def _frames(err: str) -> list[str]:
    return [f.replace("\x1b[K", "") for f in err.splitlines()]  # "\r"-separated; text mode reads them as lines


#: two 16x16 boards side by side, joined by a door two cells high in a wall
#: of holes, the left without two opposite corners of one colour, the right
#: without two of the other, in dominoes: no tiling (the door passes at most
#: one cell's imbalance), which CDCL solvers and the exact-cover engine do
#: not prove in minutes (the kasteleyn engine's determinant does, at once:
#: these tests name their engine), nor the precheck: the board is one region, balanced
#: as a whole (one 16x16 board without two corners it refutes at once, and
#: the two halves without the door region by region); it builds in
#: milliseconds, so a time limit is all search (-t counts the building too)
MUTILATED = ('[board]\nsize = [16, 33]\nholes = ['
             + "".join(f"[{i}, 17], " for i in range(1, 17) if i not in (7, 8))
             + '[1, 1], [16, 16], [1, 18], [16, 33]]\n[[pieces]]\nset = "dominoes"\ncount = 255\n')


@pytest.mark.parametrize("backend", ["cadical195", "glucose4", "cpsat"])
def test_progress_clock_moves_while_no_solution_arrives(cli, backend, request, tmp_path):
    # a search that finds nothing before the limit: the progress line must
    # keep counting the seconds all the same (a heartbeat, which needs the
    # solver to leave the GIL: CaDiCaL runs in a child for it).  CP-SAT may
    # prove the mutilated board has no tiling (its LP sees the colouring), but
    # faase's first solution takes it minutes (faase builds in about 1 s,
    # which -t counts: 5 s leaves the search more than 1 s on a busy machine)
    if backend == "cpsat":
        instance = request.getfixturevalue("shared_dir") / "data" / "nonograms" / "survey" / "faase.non"
        extra, limit = ["--no-goal"], "5"
    else:
        instance = tmp_path / "mutilated.toml"
        instance.write_text(MUTILATED)
        extra, limit = [], "2"
    r = cli("solve", instance, "-b", backend, "-t", limit, "--progress")
    assert r.code == 3, r.err
    assert r.out.startswith("unknown: ")
    shown = _clock(_frames(r.err), f"solving ({backend}): ")
    assert len(set(shown)) >= 2 and max(shown) >= 1.0, r.err  # frames at the heartbeat's pace, not one at the end
    r = cli("count", instance, "-b", backend, "-t", limit, "--progress", "-j", "1", *extra)
    assert r.code == 3, r.err
    assert r.out.startswith("at least 0 solutions, incomplete (stopped by the time limit)")
    shown = _clock(_frames(r.err), "counting: 0 solutions, 0.0/s, ")
    assert len(set(shown)) >= 2 and max(shown) >= 1.0, r.err


def test_no_progress_draws_nothing(cli, tmp_path):
    f = tmp_path / "mutilated.toml"
    f.write_text(MUTILATED)
    r = cli("solve", f, "-b", "glucose4", "-t", "0.8", "--no-progress")
    assert (r.code, r.err) == (3, "")


def test_check_draws_progress_while_it_searches(cli, shared_dir):
    # check runs the count job's search for two; the heartbeat keeps its clock moving
    r = cli("check", shared_dir / "data" / "nonograms" / "n-dom" / "14-dom.non", "-t", "0.8", "--progress")
    assert r.code in (0, 3), r.err
    assert any(re.fullmatch(r"counting: .* \d+\.\ds", f) for f in _frames(r.err)), r.err
    r = cli("check", shared_dir / "data" / "nonograms" / "n-dom" / "14-dom.non", "-t", "0.8", "--no-progress")
    assert r.err == ""


def test_exact_engine_progress_shows_solutions_so_far(cli):
    # the exact engine counts without handing solutions back: its running
    # count (Backend.search on_count) is what moves the line
    r = cli("count", "pentomino-5x12", "-b", "exact", "-j", "1", "--progress")
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == "4040 solutions"
    shown = [int(m.group(1)) for f in _frames(r.err) if (m := re.match(r"counting: (\d+) solutions, ", f))]
    assert any(0 < n < 4040 for n in shown), _frames(r.err)
    assert shown == sorted(shown)


def test_cpsat_progress_never_shows_more_solutions_than_it_found(cli):
    # CP-SAT hands each solution back and is also asked every 0.5 s with its
    # count so far; the line showed both added up
    r = cli("count", "pentomino-6x10", "-b", "cpsat", "-j", "1", "-t", "2", "--progress")
    assert r.code == 3, r.err
    found = int(re.match(r"at least (\d+) solutions", r.out).group(1))
    shown = [int(m.group(1)) for f in _frames(r.err) if (m := re.match(r"counting: (\d+) solutions, ", f))]
    assert shown and max(shown) <= found and shown == sorted(shown), (found, _frames(r.err))


def test_ganak_keeps_stdout_clean(cli):
    # Ganak prints "c o ..." lines; in pool workers (which cannot fork a
    # child to hide them) they went into the JSON; it is no longer split
    # (its parts cost more than the whole), and it still prints nothing
    r = cli("count", "pentomino-3x20", "-b", "ganak", "-u", "-j", "2", "--json")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert (out["count"], out["complete"], out["backend"], out["subproblems"]) == (2, True, "ganak", 1)


def test_one_class_of_symmetric_solutions_is_not_called_unique(cli):
    # twins has two solutions, mirror images: --unique counts one class, and
    # said "1 solution up to symmetry (unique)", verdict "unique"
    r = cli("count", "twins", "--unique")
    assert r.code == 0 and r.out.splitlines()[0] == "1 solution up to symmetry"
    d = cli("count", "twins", "--unique", "--json").json()
    assert (d["count"], d["complete"], d["verdict"]) == (1, True, None)
    assert cli("count", "twins", "--limit", "2", "--json").json()["verdict"] == "multiple"
    # with no symmetry to merge solutions, one is one
    d = cli("count", "letter-p", "--unique", "--json").json()
    assert (d["count"], d["symmetries"], d["verdict"]) == (1, 1, "unique")


@pytest.mark.parametrize("backend,extra,runs", [("glucose4", [], 1), ("cadical195", [], 1),
                                                ("minisat22", ["-t", "60"], 3), ("maplechrono", ["-t", "60"], 3)])
def test_sigterm_ends_a_solve_whose_solver_holds_the_interpreter(backend, extra, runs, tmp_path):
    # without a time limit or a progress line glucose4 and cadical195 search
    # in this process, in one C call; the program's SIGTERM handler waited
    # for its end: `timeout 3 puzzlesat solve ... -b glucose4` ran 579 s.
    # With -t, minisat22 and maplechrono search in a thread: the handler's
    # exception left it running while the solver was freed (a segfault or
    # an abort in about half the runs).  The board takes minutes, so only
    # the signal can end the run within the wait.
    import signal
    import subprocess
    import sys
    import time

    f = tmp_path / "mutilated.toml"
    f.write_text(MUTILATED)
    for _ in range(runs):
        p = subprocess.Popen([sys.executable, "-m", "puzzlesat", "solve", str(f), "-b", backend, "--no-progress",
                              *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)  # read, compiled (milliseconds) and searching
        p.send_signal(signal.SIGTERM)
        try:
            out, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            pytest.fail(f"puzzlesat solve -b {backend} outlived SIGTERM by 60 s")
        assert (p.returncode, out, err) == (-signal.SIGTERM, "", "")


def test_a_count_other_than_the_file_expects_is_a_warning(cli, tmp_path):
    # (as solve and decode say it; count said "note:", outside --json's warnings, QA)
    f = tmp_path / "d.box"
    f.write_text("# expected-count: 7\nBOX / 2 * 4\n" + "ELEMENT / (D) (1, 1), (1, 2)\n" * 4)
    r = cli("count", f)
    assert (r.code, r.out.splitlines()[0], r.err) == (
        0, "5 solutions", "puzzlesat: warning: the instance file expects 7; the count is 5\n")
    j = cli("count", f, "--json").json()  # (said in the text alone, review)
    assert (j["count"], j["expected"], j["warnings"]) == (
        5, 7, ["warning: the instance file expects 7; the count is 5"])
