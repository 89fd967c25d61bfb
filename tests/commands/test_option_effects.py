"""Options that cannot do what they say: refused (a usage error, exit 2) when
the command line contradicts itself, or said on stderr (and in --json's
"warnings") when they have no effect on this puzzle -- never dropped in
silence.  And compare says what the files it reads say, as solve does."""

from __future__ import annotations

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

CARDINALITY_NOTE = "note: --encoding totalizer has no effect: this model has no cardinality constraints"
NO_CNF = "does not use a CNF encoding; --encoding is for the CNF engines"
TITEL = "unknown comment key 'titel' read as a comment (a misspelling of 'title'?)"


def _titel_box(tmp_path):
    f = tmp_path / "w.box"
    f.write_text("# titel: x\nBOX / 2 * 2\nELEMENT / (D) (1, 1), (1, 2)\nELEMENT / (D) (1, 1), (1, 2)\n")
    return f


def _usage(r, message):
    """``r`` (run with --json) failed as a usage error saying ``message``."""
    assert (r.code, r.err, r.json()) == (2, f"puzzlesat: {message}\n",
                                         {"error": message, "kind": "usage", "exit_code": 2})


# ------------------------------------------------ 1. compare -e without a CNF engine


@pytest.mark.parametrize("backends,which", [
    ("exact,cpsat", "none of the backends 'exact', 'cpsat' uses"),
    ("exact", "backend 'exact' does not use"),
])
def test_compare_refuses_encodings_when_no_engine_takes_one(cli, backends, which):
    r = cli("compare", "tetromino-L-4x4", "-b", backends, "-e", "ladder,totalizer", "--json")
    _usage(r, f"--encodings: {which} a CNF encoding; --encodings is for the CNF engines")


def test_compare_takes_encodings_when_some_engine_does(cli):
    r = cli("compare", "dominoes-2x4", "-b", "exact,cadical195", "-e", "ladder", "--json")
    assert r.code == 0, r.err
    assert [(x["backend"], x["encoding"]) for x in r.json()["runs"]] == [("exact", None), ("cadical195", "ladder")]
    assert "warnings" not in r.json()


# ---------------------------------------------- 2. compare says the files' warnings


def test_compare_says_the_files_warnings(cli, tmp_path):
    f = _titel_box(tmp_path)
    warning = f"warning: {f}:1: {TITEL}"
    r = cli("compare", f, "-b", "exact")
    assert r.code == 0, r.err
    assert r.err == f"puzzlesat: {warning}\n"
    r = cli("compare", f, "-b", "exact", "--json")
    assert (r.code, r.err, r.json()["warnings"]) == (0, f"puzzlesat: {warning}\n", [warning])
    # as solve says them
    assert cli("solve", f, "--json").json()["warnings"] == [warning]


# ------------------------------------------------------- 3. the kind of an option error


@pytest.mark.parametrize("args,message", [
    (("count", "tetromino-L-4x4", "-b", "exact", "-e", "ladder"), f"backend 'exact' {NO_CNF}"),
    (("count", "tetromino-L-4x4", "-b", "nosuch"), "unknown backend 'nosuch'; run 'puzzlesat backends' to see "
                                                    "the choices"),
    (("solve", "dancer", "-b", "nosuch"), "unknown backend 'nosuch'; run 'puzzlesat backends' to see the choices"),
    # an engine that cannot take the encoding is refused for any puzzle, this one too
    (("solve", "dancer", "-b", "cpsat", "-e", "ladder"), f"backend 'cpsat' {NO_CNF}"),
    (("solve", "dancer", "-b", "ganak"), "backend 'ganak' only counts solutions; it cannot solve "
                                         "(use e.g. 'cadical195')"),
    (("check", "dancer", "-b", "ganak"), "backend 'ganak' only counts solutions; check needs the solutions "
                                         "themselves (use e.g. 'cadical195')"),
    (("compare", "dancer", "-b", "nosuch"), "--backends: unknown backend 'nosuch'; run 'puzzlesat backends' "
                                            "to see the choices"),
    (("compare", "dancer", "-b", "exact,ganak"), "--backends: ganak only counts solutions, it cannot solve "
                                                 "(compare it with --count, or leave it out)"),
    (("info", "dancer", "--encodings", "pairwise,nosuch"),
     "--encodings: unknown encoding 'nosuch'; choose from: mixed, pairwise, seqcounter, ladder, bitwise, "
     "sortnetwrk, cardnetwrk, totalizer, mtotalizer, kmtotalizer (or 'all')"),
    (("info", "dancer", "--encodings", "all,pairwise"),  # it said "unknown encoding 'all'"
     "--encodings: 'all' stands alone: it names every encoding; give 'all' or a list of them (mixed, pairwise, "
     "seqcounter, ladder, bitwise, sortnetwrk, cardnetwrk, totalizer, mtotalizer, kmtotalizer)"),
])
def test_a_back_end_or_encoding_the_command_line_gets_wrong_is_a_usage_error(cli, args, message):
    _usage(cli(*args, "--json"), message)


def test_the_options_are_checked_before_the_puzzle_is_read(cli, tmp_path):
    bad = tmp_path / "bad.box"
    bad.write_text("BOX / 2 * x\n")
    _usage(cli("solve", bad, "-b", "exact", "-e", "ladder", "--json"), f"backend 'exact' {NO_CNF}")


def test_an_engine_that_cannot_take_this_puzzle_is_bad_input(cli):
    # the same command line works on a tiling: the input decides, so bad-input
    # (5-Dom: line logic fixes none of its cells, so its model keeps every
    # block clause; dancer's, line-solved, is unit clauses, which it takes)
    r = cli("solve", "5-dom", "-b", "exact", "--json")
    assert (r.code, r.json()["kind"]) == (2, "bad-input")
    assert r.json()["error"].startswith("backend 'exact' cannot take this problem: not an exact cover: ")
    assert cli("solve", "tetromino-L-4x4", "-b", "exact").code == 0


# ------------------------------------------- 4. --encoding on a model without cardinality


# check on a puzzle line logic solves compiles no model, and says so instead
NO_SEARCH_NOTE = "note: line logic alone solves dancer: no search, so --encoding totalizer is not used"


@pytest.mark.parametrize("command,said", [(("solve",), CARDINALITY_NOTE), (("count",), CARDINALITY_NOTE),
                                          (("check",), NO_SEARCH_NOTE)])
def test_encoding_without_cardinality_constraints_is_noted(cli, command, said):
    r = cli(*command, "dancer", "-e", "totalizer", "--json")
    assert r.code == 0, r.err
    assert (r.err, r.json()["warnings"]) == (f"puzzlesat: {said}\n", [said])
    plain = cli(*command, "dancer", "--json").json()
    assert r.json()["backend"] == plain["backend"]  # the engine chosen as without -e


def test_encoding_with_cardinality_constraints_gets_no_note(cli):
    r = cli("solve", "tetromino-L-4x4", "-e", "totalizer", "--json")
    assert (r.code, r.err) == (0, "")
    assert "warnings" not in r.json()


def test_compare_notes_encodings_for_a_model_without_cardinality(cli):
    r = cli("compare", "dancer", "dominoes-2x4", "-b", "cadical195", "-e", "ladder,totalizer", "--json")
    note = ("note: --encodings ladder,totalizer has no effect on dancer: its model has no cardinality "
            "constraints (one run per CNF engine)")
    assert (r.code, r.err, r.json()["warnings"]) == (0, f"puzzlesat: {note}\n", [note])
    # the default encoding, not given: nothing to say
    r = cli("compare", "dancer", "-b", "cadical195", "--json")
    assert (r.code, r.err) == (0, "") and "warnings" not in r.json()


NO_ENCODING_LINE = ("c encoding: none (the model has no cardinality constraints: the CNF is the same with "
                    "every --encoding)")


def _answer(cnf, tmp_path):
    """A SAT-competition answer to the DIMACS file ``cnf``."""
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf)).clauses) as s:
        assert s.solve()
        model = s.get_model()
    ans = tmp_path / "answer.txt"
    ans.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    return ans


def test_export_claims_no_encoding_for_a_model_without_cardinality(cli, tmp_path):
    given, plain = tmp_path / "t.cnf", tmp_path / "m.cnf"
    r = cli("export", "dancer", "-e", "totalizer", "-o", given, "--json")
    assert r.code == 0, r.err
    assert (r.err, r.json()["warnings"], r.json()["encoding"]) == (f"puzzlesat: {CARDINALITY_NOTE}\n",
                                                                   [CARDINALITY_NOTE], None)
    assert cli("export", "dancer", "-o", plain).code == 0
    text = given.read_text()
    assert text == plain.read_text()  # the same file, whatever -e said
    lines = text.splitlines()
    assert NO_ENCODING_LINE in lines and not any("totalizer" in x for x in lines)
    # a model with cardinality constraints still says its encoding
    t = tmp_path / "tiling.cnf"
    r = cli("export", "dominoes-2x4", "-e", "totalizer", "-o", t, "--json")
    assert (r.code, r.err, r.json()["encoding"]) == (0, "", "totalizer")
    assert "c encoding: totalizer (cardinality encoding of ExactlyOne / Exactly(k))" in t.read_text().splitlines()


def test_decode_takes_any_encoding_for_a_model_without_cardinality(cli, tmp_path):
    cnf = tmp_path / "d.cnf"
    assert cli("export", "dancer", "-o", cnf).code == 0
    ans = _answer(cnf, tmp_path)
    r = cli("decode", "dancer", ans, "--cnf", cnf, "-e", "totalizer", "--json")
    assert r.code == 0, r.err
    d = r.json()
    assert (d["valid"], d["encoding"], d["falsified_clauses"], d["warnings"]) == (True, None, 0, [CARDINALITY_NOTE])
    assert r.err == f"puzzlesat: {CARDINALITY_NOTE}\n"
    # an export of an older version names the -e it was given: still read, with any -e or none
    old = tmp_path / "old.cnf"
    old.write_text(cnf.read_text().replace(NO_ENCODING_LINE, "c encoding: totalizer (cardinality encoding of "
                                                             "ExactlyOne / Exactly(k))")
                   .replace(" encoding=mixed ", " encoding=totalizer "))
    assert " encoding=totalizer " in old.read_text()
    for e in (("-e", "mixed"), ("-e", "totalizer"), ()):
        r = cli("decode", "dancer", ans, "--cnf", old, *e, "--json")
        assert (r.code, r.json()["valid"], r.json()["encoding"]) == (0, True, None), (e, r.err)


def test_decode_still_checks_the_encoding_of_a_model_with_cardinality(cli, tmp_path):
    cnf = tmp_path / "t.cnf"
    assert cli("export", "dominoes-2x4", "-e", "totalizer", "-o", cnf).code == 0
    r = cli("decode", "dominoes-2x4", _answer(cnf, tmp_path), "--cnf", cnf, "-e", "ladder")
    assert r.code == 2
    assert r.err.endswith("--encoding ladder, but the CNF was exported with --encoding totalizer\n"), r.err


# ------------------------------------------------------ 5. --color always without colours


COLOR_WARNING = "warning: --color always has no effect: nonogram drawings have no colours"


@pytest.mark.parametrize("command", [("solve",), ("count", "--show", "1"), ("check",)])
def test_color_always_on_a_drawing_without_colours_is_said(cli, command):
    r = cli(command[0], "dancer", *command[1:], "--color", "always")
    assert r.code == 0, r.err
    assert r.err == f"puzzlesat: {COLOR_WARNING}\n"
    assert "\x1b[" not in r.out


def test_color_always_warnings_name_one_reason(cli):
    # with --json, JSON is why: one warning, not two
    r = cli("solve", "dancer", "--color", "always", "--json")
    assert r.json()["warnings"] == ["warning: --color always has no effect with --json (JSON has no colours)"]
    # a tiling is coloured: nothing to say
    r = cli("solve", "tetromino-L-4x4", "--color", "always")
    assert (r.code, r.err) == (0, "") and "\x1b[" in r.out


def test_color_always_on_a_count_that_draws_nothing_is_said(cli):
    r = cli("count", "tetromino-L-4x4", "--color", "always")
    assert r.code == 0 and r.out.startswith("10 solutions\n") and "\x1b[" not in r.out
    assert r.err == ("puzzlesat: warning: --color always has no effect: count draws no solution without "
                     "--show (or --limit 1 or 2)\n")
    r = cli("count", "tetromino-L-4x4", "--color", "always", "--show", "1")  # drawn, in colour: nothing to say
    assert (r.code, r.err) == (0, "") and "\x1b[" in r.out


def test_color_always_colours_the_report_beside_a_drawing_on_stdout(cli):
    r = cli("solve", "tetromino-L-4x4", "--svg", "-", "--color", "always")
    assert r.code == 0, r.err
    assert r.out.startswith("<svg") and "\x1b[" in r.err
    assert "\x1b[" not in cli("solve", "tetromino-L-4x4", "--svg", "-").err


def test_more_jobs_than_cores_is_said(monkeypatch, capsys, tmp_path):
    # -j 256 took 25.6 s where -j 2 took 1.6 s on two cores, without a word (QA)
    import json

    from puzzlesat import cli
    from puzzlesat.commands import count

    monkeypatch.setattr(count, "CORES", 2)
    assert cli.main(["count", "pentomino-3x20", "-b", "exact", "-j", "3", "--json"]) == 0
    out, err = capsys.readouterr()
    d = json.loads(out)
    said = ("note: --jobs 3 is more than the 2 cores it may run on: worker processes beyond those take turns on "
            "them (a split count is slower, not faster)")
    assert (d["count"], d["jobs"], d["warnings"], err) == (8, 3, [said], f"puzzlesat: {said}\n")
    assert cli.main(["count", "pentomino-3x20", "-b", "exact", "-j", "2"]) == 0
    assert capsys.readouterr().err == ""
    # nor when no count runs: the pieces' area shows there is none
    f = tmp_path / "odd.box"
    f.write_text("BOX / 2 * 3\nELEMENT / (D) (1, 1), (1, 2)\n")
    assert cli.main(["count", str(f), "-j", "3"]) == 0
    assert capsys.readouterr() == ("0 solutions: the pieces cover 2 cells but the board has 6 free cells\n"
                                   "(no solver called)\n", "")
