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
    ("width 1\nheight 3\nrows\n1\n1\nTitle \"t\"\ncolumns\n3\n", "f.non:3: 2 row clues for height 3"),
    ("width 3\nheight 1\nrows\n3\ncolumns\n1\ngoal \"111\"\n", "f.non:5: 1 column clue for width 3"),
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
     '</puzzle>\n', "f.xml:4: row 1 of the goal image has 1 cell, expected 2"),
])
def test_parser_messages_say_one_thing_in_the_singular(mod, path, text, message):
    assert _error(mod, text, path) == message


def test_the_precheck_says_one_black_cell():
    p = nonfile.load("width 2\nheight 2\nrows\n1\n0\ncolumns\n1\n1\n", "s.non")
    assert p.precheck() == ("the row clues ask for 1 black cell but the column clues for 2, "
                            "so no picture satisfies both")
