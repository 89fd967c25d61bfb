"""Findings of an acceptance review of the nonogram family, each a test.

1. ``.non``: a clue line that is not a number is named at its line (it used
   to end the section silently, and the error blamed the section's header);
   a ``====`` bundle separator is refused as such.
2. ``check``: the goal is compared with every solution the report lists.
3. ``check``: a line-logic contradiction is said in the text, and ``--steps``
   prints the round that hit it.
4. Counts and nouns agree in the messages ("1 row clue", "in 1 round").
"""

from __future__ import annotations

import json
import re

import pytest

from puzzlesat.errors import InputError
from puzzlesat.models.nonogram import ninfile, nonfile, xmlfile
from puzzlesat.models.nonogram.linesolve import line_solve


def _error(mod, text: str, path: str) -> str:
    with pytest.raises(InputError) as e:
        mod.load(text, path)
    return str(e.value)


# ------------------------------------------- 1. .non clue lines that are no number

@pytest.mark.parametrize("text,message", [
    # the review's file: the row section's second line
    ("width 3\nheight 3\nrows\n1\nx\n1\ncolumns\n1\n3\n1\n", "f.non:5: row 2 clue 'x': 'x' is not a whole number"),
    # the same in the column section
    ("width 3\nheight 3\nrows\n1\n3\n1\ncolumns\n1\nx\n1\n", "f.non:9: column 2 clue 'x': 'x' is not a whole number"),
    # named even where the section then comes out short
    ("width 1\nheight 3\nrows\n1\nx\ncolumns\n3\n", "f.non:5: row 2 clue 'x': 'x' is not a whole number"),
    # no key has a comma in it, nor starts with '?'
    ("width 1\nheight 3\nrows\n1\nx,1\n1\ncolumns\n3\n", "f.non:5: row 2 clue 'x,1': 'x' is not a whole number"),
    ("width 1\nheight 3\nrows\n1\n1\n?\ncolumns\n3\n", "f.non:6: row 3 clue '?': '?' is not a whole number"),
    # a blank line that only separates does not hide the bad clue after it
    ("width 1\nheight 3\nrows\n1\n\nx\n1\ncolumns\n3\n", "f.non:6: row 2 clue 'x': 'x' is not a whole number"),
    # a known key (any case) ends a short section: then the count is the error
    ("width 1\nheight 3\nrows\n1\n1\nTitle \"t\"\ncolumns\n3\n", "f.non:3: 2 row clues for height 3 (line 6's 'Title \"t\"' ended the section)"),
    ("width 3\nheight 1\nrows\n3\ncolumns\n1\ngoal \"111\"\n", "f.non:5: 1 column clue for width 3 (line 7's 'goal \"111\"' ended the section)"),
])
def test_a_non_numeric_clue_line_is_named_at_its_line(text, message):
    assert _error(nonfile, text, "f.non") == message


def test_the_same_clue_in_the_other_formats_gets_the_same_words():
    assert _error(ninfile, "1 3\n1\nx\n1\n3\n", "f.nin") == "f.nin:3: row 2 clue 'x': 'x' is not a whole number"
    xml = ('<puzzle>\n<clues type="columns"><line><count>3</count></line></clues>\n<clues type="rows">\n'
           '<line><count>1</count></line>\n<line><count>x</count></line>\n<line><count>1</count></line>\n'
           '</clues>\n</puzzle>\n')
    assert _error(xmlfile, xml, "f.xml") == "f.xml:5: row 2 clue 'x': 'x' is not a whole number"


def test_after_a_complete_section_an_unknown_line_is_still_ignored_with_a_warning():
    # FORMAT.md: "Parsers must ignore any line that they don't recognize"
    p = nonfile.load("width 1\nheight 3\nrows\n1\n1\n1\nx\ncolumns\n3\nnotes \"n\"\n", "f.non")
    assert p.rows == [(1,), (1,), (1,)] and p.cols == [(3,)]
    assert p.ignored == ("f.non:7: unknown key 'x' ignored", "f.non:10: unknown key 'notes' ignored")


def test_a_key_line_inside_a_section_is_ignored_with_a_warning_and_the_clues_go_on():
    p = nonfile.load('width 1\nheight 3\nrows\n1\ngaol "x"\n1\n1\ncolumns\n3\n', "f.non")
    assert p.rows == [(1,), (1,), (1,)]
    assert p.ignored == ("f.non:5: unknown key 'gaol' inside the 'rows' clues ignored (a misspelling of 'goal'?)",)
    # when the section then comes out short, the error says what was ignored in it
    assert _error(nonfile, "width 1\nheight 3\nrows\n1\nauthor me\ncolumns\n3\n", "f.non") == (
        "f.non:3: 1 row clue for height 3 (line 5's 'author' was ignored as an unknown key, not read as a clue)")


def test_a_blank_last_line_of_a_section_is_an_empty_clue_when_the_count_needs_it():
    # FORMAT.md: "blank lines may be present if a row has no hints"; the last row too
    p = nonfile.load("width 1\nheight 3\nrows\n1\n1\n\ncolumns\n2\n", "f.non")
    assert p.rows == [(1,), (1,), ()]
    # a blank line more than the count is a separator, as before
    p = nonfile.load("width 1\nheight 3\nrows\n1\n1\n\n\ncolumns\n2\n", "f.non")
    assert p.rows == [(1,), (1,), ()]
    assert _error(nonfile, "width 1\nheight 3\nrows\n1\n\ncolumns\n1\n", "f.non") == "f.non:3: 1 row clue for height 3"


@pytest.mark.parametrize("key,value", [("goal", '"1"'), ("title", '"t"'), ("license", "MIT")])
def test_a_key_given_twice_is_an_error_not_a_silent_replacement(key, value):
    text = f"width 1\nheight 1\n{key} {value}\nrows\n1\ncolumns\n1\n{key.upper()} {value}\n"
    assert _error(nonfile, text, "f.non") == f"f.non:8: {key} given twice (first on line 3)"


@pytest.mark.parametrize("text,line", [
    ("width 1\nheight 1\nrows\n1\ncolumns\n1\n====\nwidth 1\nheight 1\nrows\n0\ncolumns\n0\n", 7),
    ("width 1\nheight 2\nrows\n1\n====\n", 5),  # inside a section that is still short
])
def test_a_bundle_of_puzzles_is_refused_at_its_separator(text, line):
    assert _error(nonfile, text, "p.non") == (
        f"p.non:{line}: '====' divides a bundle of several puzzles (FORMAT.md's .nonpack); packs of several "
        "puzzles are not supported: give one puzzle per file")


def test_a_rejected_pack_exits_2_without_a_traceback(cli, tmp_path):
    f = tmp_path / "pack.non"
    f.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n====\nwidth 1\nheight 1\nrows\n0\ncolumns\n0\n")
    r = cli("solve", f)
    assert (r.code, r.out) == (2, "")
    assert r.err == (f"puzzlesat: {f}:7: '====' divides a bundle of several puzzles (FORMAT.md's .nonpack); "
                     "packs of several puzzles are not supported: give one puzzle per file\n")


# ------------------------------------------------- 4. counts and nouns agree

@pytest.mark.parametrize("mod,path,text,message", [
    (nonfile, "f.non", "width 1\nheight 3\nrows\n1\ncolumns\n1\n", "f.non:3: 1 row clue for height 3"),
    (nonfile, "f.non", "width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal \"11\"\n",
     "f.non:7: goal has 2 cells, expected 1 (1 x 1)"),
    (nonfile, "f.non", "width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal \"1\"\n",
     "f.non:8: goal has 1 cell, expected 2 (2 x 1)"),
    (ninfile, "f.nin", "1 1\n1\n1\n1\n", "f.nin:4: more clue lines than 1 row + 1 column: '1' is line 3 of the clues"),
    (ninfile, "f.nin", "2 1\n1\n", "f.nin:2: expected 1 row clue then 2 column clues, found 1 row clue line and "
     "0 column clue lines"),
    (xmlfile, "f.xml", '<puzzle>\n<clues type="columns"><line><count>1</count></line><line/></clues>\n'
     '<clues type="rows"><line><count>1</count></line></clues>\n<solution><image>\n|X|\n</image></solution>\n'
     '</puzzle>\n', "f.xml:5: row 1 of the goal image has 1 cell, expected 2"),  # the row's own line
])
def test_parser_messages_say_one_thing_in_the_singular(mod, path, text, message):
    assert _error(mod, text, path) == message


def test_the_precheck_says_one_black_cell():
    p = nonfile.load("width 2\nheight 2\nrows\n1\n0\ncolumns\n1\n1\n", "s.non")
    assert p.precheck() == ("the row clues ask for 1 black cell but the column clues for 2, "
                            "so no picture satisfies both")


# ---------------------------------- 2. check compares the goal with every listed solution

TWINS = "width 5\nheight 3\nrows\n1,1\n3\n1,1\ncolumns\n1\n1\n3\n1\n1\n"
TWIN_A, TWIN_B = ["#.#..", ".###.", "..#.#"], ["..#.#", ".###.", "#.#.."]


def _goal(picture: list[str]) -> str:
    return 'goal "' + "".join(picture).replace("#", "1").replace(".", "0") + '"\n'


@pytest.mark.parametrize("picture", [TWIN_A, TWIN_B])
def test_check_no_goal_finds_the_goal_among_the_two_solutions(cli, tmp_path, picture):
    f = tmp_path / "twinsgoal.non"
    f.write_text(TWINS + _goal(picture))
    j = cli("check", f, "--no-goal", "--json").json()
    assert (j["unique"], j["matches_goal"]) == (False, True)
    assert sorted(j["solutions"]) == sorted([TWIN_A, TWIN_B])
    at = j["solutions"].index(picture) + 1
    assert j["goal_solution"] == at
    r = cli("check", f, "--no-goal")
    assert r.code == 0
    assert f"goal:          solution {at} below is the goal" in r.out.splitlines()
    assert "differs" not in r.out
    # with the goal used (the default) it is solution 1
    j = cli("check", f, "--json").json()
    assert (j["matches_goal"], j["goal_solution"], j["solutions"][0]) == (True, 1, picture)
    # and the report says so: the engine only looked for a second solution
    # (it said "solvable: yes (cpsat, 27.8 s)" of a verified goal, QA)
    lines = cli("check", f, "-b", "cadical195").out.splitlines()
    assert lines[1] == "solvable:      yes: the file's goal is a solution (verified)"
    assert re.fullmatch(r"unique:        no \(cadical195, \d+\.\d{3} s\): at least two solutions \(shown below\)",
                        lines[2]), lines
    assert re.fullmatch(r"solvable:      yes \(cadical195, \d+\.\d{3} s\)",
                        cli("check", f, "-b", "cadical195", "--no-goal").out.splitlines()[1])


def test_check_says_when_neither_listed_solution_is_the_goal(cli, tmp_path):
    # the 3 x 3 permutation matrices: six solutions, two listed; a goal not
    # among them is named a third solution (the parser checked it fits the clues)
    f = tmp_path / "perm.non"
    clues = "width 3\nheight 3\nrows\n1\n1\n1\ncolumns\n1\n1\n1\n"
    f.write_text(clues)
    listed = cli("check", f, "--json").json()["solutions"]
    assert len(listed) == 2
    perms = [["".join("#" if c == p[r] else "." for c in range(3)) for r in range(3)]
             for p in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))]
    others = [p for p in perms if p not in listed]
    assert len(others) == 4
    f.write_text(clues + _goal(others[0]))
    j = cli("check", f, "--no-goal", "--json").json()
    assert (j["solutions"], j["matches_goal"], j["goal_solution"]) == (listed, False, None)
    r = cli("check", f, "--no-goal")
    assert ("goal:          neither solution below is the goal (which fits the clues: a third solution)"
            in r.out.splitlines())


def test_check_unique_puzzle_says_the_solution_is_the_goal(cli):
    j = cli("check", "dancer", "--json").json()
    assert (j["unique"], j["matches_goal"], j["goal_solution"], len(j["solutions"])) == (True, True, 1, 1)
    assert "goal:          the solution found is the goal" in cli("check", "dancer").out.splitlines()


def test_check_lists_the_line_logic_solution_and_searches_nothing(starved):
    # line logic alone proves dancer unique; the report lists that solution,
    # and no search runs (a search given no time, as here, was stopped)
    code, out = starved("check", "dancer", "--no-goal", "--json")
    j = json.loads(out)
    assert (code, j["complete"], j["stopped_by"], j["searched"], j["backend"]) == (0, True, None, False, None)
    assert (j["unique"], j["unique_by_line_logic"], j["matches_goal"], j["goal_solution"]) == (True, True, True, 1)
    assert j["solutions"] == [[".##..", ".##.#", "..#.#", ".###.", "#.#..", "#.#..", "..##.", ".#.#.", ".#.##",
                               "##..."]]


# ---------------------------------------------- 3. check on a line-logic contradiction

CONTRA = "width 3\nheight 3\nrows\n1,1\n1\n1,1\ncolumns\n1,1\n1\n2\n"


def test_line_solving_records_the_round_that_hits_the_contradiction():
    p = nonfile.load(CONTRA, "c.non")
    r = line_solve(p, record=True)
    assert (r.contradiction, r.contradiction_at, r.fixed) == (True, "column 3", 8)
    assert [(x.lines, x.fixed, x.contradiction) for x in r.rounds] == [("rows", 6, None), ("columns", 2, "column 3")]
    assert r.rounds[-1].grid == [[1, 0, 1], [0, 1, None], [1, 0, 1]]
    assert sum(x.fixed for x in r.rounds) == r.fixed


def test_check_text_says_the_lines_contradict_and_where(cli, tmp_path):
    f = tmp_path / "contra.non"
    f.write_text(CONTRA)
    r = cli("check", f, "--steps")
    assert r.code == 1, r.err
    assert r.out == (
        "round 1 (rows): 6 cells fixed, 6 of 9 known\n#.#\n???\n#.#\n\n"
        "round 2 (columns): 2 cells fixed, 8 of 9 known\n#.#\n.#?\n#.#\n"
        "contradiction: no placement of column 3's clue fits its known cells, so there is no solution\n\n"
        "contra (3 x 3, 9 cells)\n"
        "solvable:      no: line logic finds no placement for column 3\n"
        "line solvable: no: line logic finds a contradiction (no solution): in round 2, after fixing 8 of 9 "
        "cells, no placement of column 3's clue fits\n"
        "goal:          none in the file\n")
    j = cli("check", f, "--steps", "--json").json()
    assert (j["line_rounds"], j["cells_fixed_by_lines"], j["line_contradiction"]) == (2, 8, "column 3")
    # with --no-preprocess an engine searched and found none: the verdict is its (it was given to line logic, QA)
    r = cli("check", f, "--no-preprocess", "-b", "cadical195")
    assert r.code == 1, r.err
    assert re.fullmatch(r"solvable:      no \(cadical195, \d+\.\d{3} s\)", r.out.splitlines()[1]), r.out
    assert r.out.splitlines()[2].startswith("line solvable: no: line logic finds a contradiction")
    assert [(s["lines"], s["fixed"], s["contradiction"]) for s in j["steps"]] == [
        ("rows", 6, None), ("columns", 2, "column 3")]


def test_check_on_sums_that_differ_also_says_where_line_logic_breaks(cli, tmp_path):
    # row sums 5, column sums 6: the precheck's reason, and line logic's contradiction
    f = tmp_path / "sums.non"
    f.write_text("width 3\nheight 3\nrows\n3\n1\n1\ncolumns\n3\n2\n1\n")
    r = cli("check", f)
    assert r.code == 1
    assert r.out.splitlines()[1:3] == [
        "solvable:      no: the row clues ask for 5 black cells but the column clues for 6, so no picture "
        "satisfies both",
        "line solvable: no: line logic finds a contradiction (no solution): in round 3, after fixing 9 of 9 "
        "cells, no placement of row 2's clue fits"]
    # and no engine was called: nothing was searched (the JSON said "searched": true)
    j = cli("check", f, "--json").json()
    assert (j["solvable"], j["searched"], j["backend"], j["seconds"]) == (False, False, None, 0.0)


CONTRA_SAID = ("line logic finds a contradiction: in round 2, after fixing 8 of 9 cells, no placement of column 3's "
               "clue fits")


@pytest.mark.parametrize("job,out", [
    ("solve", f"no solution: {CONTRA_SAID}\n"),
    ("count", f"0 solutions: {CONTRA_SAID}\n(no solver called)\n"),
])
def test_solve_and_count_say_line_logic_found_the_contradiction(cli, tmp_path, job, out):
    # preprocessed, the model is the empty clause: it was reported as "no
    # solution (proved by cadical195 ...)", an engine that only read it
    f = tmp_path / "contra.non"
    f.write_text(CONTRA)
    r = cli(job, f)
    assert (r.code, r.out, r.err) == (1 if job == "solve" else 0, out, "")
    j = cli(job, f, "--json").json()
    assert (j["backend"], j["method"], j["reason"], j["seconds"]) == (None, "precheck", CONTRA_SAID, 0.0)
    # an engine named is not used, and said so
    r = cli(job, f, "-b", "cpsat")
    assert r.out == out
    assert r.err == f"puzzlesat: note: {f} has no solution, known before any search, so --backend cpsat is not used\n"
    # the clues as stated: the engine searches and proves it
    j = cli(job, f, "--no-preprocess", "--json").json()
    assert (j["backend"], j["reason"]) == ("cadical195", None)
    assert j["status"] == "no-solution" if job == "solve" else (j["count"], j["complete"]) == (0, True)


def test_a_contradiction_compiles_to_the_empty_clause_alone():
    # its lines' clauses said nothing more: a 300x300 picture's took solve
    # past 4 GB before it said "no solution" (QA)
    from puzzlesat.models.nonogram.puzzle import Cell
    from puzzlesat.problem import Clause

    p = nonfile.load(CONTRA, "c.non")
    prob = p.compile(preprocess=True)
    assert prob.constraints == [Clause(())]
    assert [prob.meaning(v) for v in sorted(prob.primary)] == [Cell(r, c) for r in range(3) for c in range(3)]
    # as stated, the clues are all there
    assert len(p.compile(preprocess=False).constraints) > 6


def test_a_goal_that_is_no_solution_says_nothing_against_line_logic():
    # (the parsers refuse such a goal; a puzzle built otherwise keeps the
    # contradiction as its reason, not the goal's fault as line logic's)
    p = nonfile.load(CONTRA, "c.non")
    p.goal = ((1, 1, 1), (0, 0, 0), (0, 0, 0))
    p.preprocess = True
    assert p.precheck() == CONTRA_SAID


def test_check_on_a_contradiction_calls_no_engine_and_says_an_engine_named_is_not_used(cli, tmp_path):
    f = tmp_path / "contra.non"
    f.write_text(CONTRA)
    j = cli("check", f, "--json").json()
    assert (j["solvable"], j["searched"], j["backend"], j["reason"]) == (False, False, None, CONTRA_SAID)
    r = cli("check", f, "-b", "cpsat")
    assert r.code == 1
    assert r.err == f"puzzlesat: note: {f} has no solution, known before any search, so --backend cpsat is not used\n"


# ------------------------------------------------------- 4. singular in check

def test_check_says_one_cell_and_one_round(cli, tmp_path):
    f = tmp_path / "one.non"
    f.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    r = cli("check", f, "--steps")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "round 1 (rows): 1 cell fixed, 1 of 1 known"
    assert "one (1 x 1, 1 cell)" in lines
    # (every column is looked at once, so line solving takes at least two rounds)
    assert "line solvable: yes: line logic fixes 1 of 1 cell (100%) in 2 rounds" in lines


def test_check_warns_of_what_it_read_past_as_solve_does(cli, tmp_path):
    f = tmp_path / "k.non"
    f.write_text("width 2\nheight 1\ncolour red\nrows\n1\ncolumns\n1\n0\n")
    warning = f"puzzlesat: warning: {f}:3: unknown key 'colour' ignored (a misspelling of 'color'?)"
    for command in ("solve", "check"):
        r = cli(command, f)
        assert r.code == 0 and r.err.splitlines() == [warning], (command, r.err)
    r = cli("check", f, "--no-goal")
    assert r.err.splitlines() == [warning, f"puzzlesat: warning: --no-goal: {f} has no goal picture; "
                                           "nothing to leave out"]


@pytest.mark.parametrize("name,text", [
    ("black.nin", "3 1\n3\n1\n1\n1\n"),  # every line all black
    ("corners.nin", "3 3\n1 1\n0\n1 1\n1 1\n0\n1 1\n"),  # every line one placement
    ("black.non", "width 3\nheight 1\nrows\n3\ncolumns\n1\n1\n1\ngoal 111\n"),  # with its goal
])
def test_a_symmetric_nonogram_that_is_an_exact_cover_is_counted_to_a_limit(cli, tmp_path, name, text, monkeypatch,
                                                                          capsys):
    # its lines leave only exact-cover clauses, so count picks the exact-cover
    # engine; --limit and check's search for a second solution then blocked
    # solutions by clauses that engine cannot take, and a well-formed puzzle
    # was refused as "bad input".  The engine now enumerates them instead.
    import json

    from puzzlesat import jobs
    from puzzlesat.cli import main

    f = tmp_path / name
    f.write_text(text)
    # every line has one placement: the model is unit clauses, even as
    # stated, and no engine is called
    for how in ((), ("--no-preprocess",)):
        d = cli("count", f, "--limit", "2", "--json", *how).json()
        assert (d["count"], d["complete"], d["verdict"], d["backend"], d["method"]) == \
            (1, True, "unique", None, "units")
    # the engine's own way, with that shortcut off
    monkeypatch.setattr(jobs, "fixed_by_units", lambda problem: None)
    assert main(["count", str(f), "--limit", "2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["count"], d["complete"], d["verdict"], d["backend"]) == (1, True, "unique", "exact")
    for args in ((), ("-b", "exact")):
        r = cli("check", f, "--json", *args)
        assert r.code == 0, r.err
        assert (r.json()["solvable"], r.json()["unique"]) == (True, True)
