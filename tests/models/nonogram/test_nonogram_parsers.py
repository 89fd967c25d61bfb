"""The three nonogram formats: every shared puzzle parses; bad input is named
by file:line with the exact message."""

from __future__ import annotations

import pytest

from puzzlesat.errors import InputError
from puzzlesat.loading import load_puzzle
from puzzlesat.models.nonogram import ninfile, nonfile, xmlfile
from puzzlesat.models.nonogram.clues import runs

DEMO = """catalogue "webpbn.com #1"
title "Demo &amp; test"
by "Jan Wolter"
license CC-BY-3.0
width 5
height 10

rows
2
2,1
1,1
3
1,1
1,1
2
1,1
1,2
2

columns
2,1
2,1,3
7
1,3
2,1

goal "01100011010010101110101001010000110010100101111000"
"""


def test_every_shared_puzzle_parses_and_its_goal_fits(shared_dir):
    files = sorted((shared_dir / "data" / "nonograms").rglob("*.non"))
    assert len(files) >= 60
    for f in files:
        p = load_puzzle(str(f))
        assert p.family == "nonogram" and len(p.rows) == p.height and len(p.cols) == p.width
        if p.goal is not None:
            p.verify(p.goal)  # the parser already refuses a goal that breaks the clues
    with_goal = [f for f in files if "n-dom" not in str(f)]
    assert all(load_puzzle(str(f)).goal is not None for f in with_goal)


def test_non_demo():
    p = nonfile.load(DEMO, "demo.non")
    assert (p.width, p.height) == (5, 10)
    assert p.title == "Demo & test" and p.meta["license"] == "CC-BY-3.0"
    assert p.rows[1] == (2, 1) and p.cols[2] == (7,)
    assert p.goal[0] == (0, 1, 1, 0, 0)


def test_non_empty_lines_and_zero_are_empty_clues_and_rows_may_come_first():
    text = "width 3\nheight 3\nrows\n1\n\n0\ncolumns\n1\n0\n0\n"
    p = nonfile.load(text, "e.non")
    assert p.rows == [(1,), (), ()] and p.cols == [(1,), (), ()]
    text2 = "height 2\nwidth 2\n\ncolumns\n1\n1\n\nrows\n2\n0\n"
    p2 = nonfile.load(text2, "e2.non")
    assert p2.rows == [(2,), ()] and p2.cols == [(1,), (1,)]


def test_non_blank_separator_lines_in_simpsons_style_are_ignored():
    text = "width 2\nheight 4\nrows\n1\n1\n\n1\n1\ncolumns\n4\n0\n"
    p = nonfile.load(text, "s.non")
    assert p.rows == [(1,), (1,), (1,), (1,)]


def test_simpsons_rows_n_columns_n_set_the_size():
    p = nonfile.load("columns 2\nrows 1\nrows\n2\ncolumns\n1\n1\n", "s.non")
    assert (p.width, p.height) == (2, 1)


BAD_NON = [
    ("height 2\nrows\n1\n1\ncolumns\n1\n", "b.non:5: 'columns' comes before 'width': the width must be given first"),
    ("height 1\nrows\n1\n", "b.non: missing the width (a 'width N' line)"),
    ("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n", "b.non:6: 1 column clues for width 2"),
    ("width 2\nheight 2\nrows\n1\n1\n1\ncolumns\n1\n1\n", "b.non:6: more row clues than the height (2): '1' is clue 3"),
    ("width x\n", "b.non:1: width must be a positive whole number, got 'x'"),
    ("rows\n1\nwidth 1\nheight 1\n", "b.non:1: 'rows' comes before 'height': the height must be given first"),
    ("width 3\nheight 1\nrows\n2,2\ncolumns\n1\n1\n1\n", "b.non:4: row 1 clue 2,2 needs 5 cells but the row has 3"),
    ("width 2\nheight 1\nrows\n-1\ncolumns\n1\n0\n", "b.non:4: negative number '-1' in row 1 clue '-1'"),
    ("width 2\nheight 1\nrows\n1,x\ncolumns\n1\n0\n", "b.non:4: row 1 clue '1,x': 'x' is not a number"),
    ("width 2\nheight 1\nrows\n1,0\ncolumns\n1\n0\n",
     "b.non:4: row 1 clue '1,0': a 0 must stand alone (it means an empty line)"),
    ("width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal \"101\"\n", "b.non:8: goal has 3 cells, expected 2 (2 x 1)"),
    ("width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal \"01\"\n",
     "b.non:8: goal does not match the clues: its column 1 has runs 0, the clue says 1"),
    ("width 2\nheight 1\nrows\n1a,1b\ncolumns\n1a\n1b\n",
     "b.non: multicolour nonograms (colours a, b) are not supported yet; only black-and-white ones"),
    ("width 1\nwidth 2\n", "b.non:2: width given twice (first on line 1)"),
]


@pytest.mark.parametrize("text,message", BAD_NON)
def test_non_errors(text, message):
    with pytest.raises(InputError) as e:
        nonfile.load(text, "b.non")
    assert str(e.value) == message


def test_row_and_column_sums_that_differ_are_reported_before_solving():
    p = nonfile.load("width 2\nheight 2\nrows\n2\n1\ncolumns\n1\n1\n", "s.non")
    assert p.precheck() == ("the row clues ask for 3 black cells but the column clues for 2, "
                            "so no picture satisfies both")


NIN = "# a comment\n3 2\n1 1\n3\n2\n1\n2\n"


def test_nin():
    p = ninfile.load(NIN, "p.nin")
    assert (p.width, p.height) == (3, 2)
    assert p.rows == [(1, 1), (3,)] and p.cols == [(2,), (1,), (2,)]


@pytest.mark.parametrize("text,message", [
    ("", "b.nin: empty file: expected 'WIDTH HEIGHT' on the first line"),
    ("3\n", "b.nin:1: expected 'WIDTH HEIGHT' on the first line, got '3'"),
    ("2 1\n1\n1\n", "b.nin:3: expected 1 row clues then 2 column clues, found 1 row and 1 column clue lines"),
    ("2 1\n1\n1\n0\n1\n", "b.nin:5: more clue lines than 1 rows + 2 columns: '1' is line 4 of the clues"),
    ("2 1\n3\n1\n1\n", "b.nin:2: row 1 clue 3 needs 3 cells but the row has 2"),
])
def test_nin_errors(text, message):
    with pytest.raises(InputError) as e:
        ninfile.load(text, "b.nin")
    assert str(e.value) == message


XML = """<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<puzzle type="grid" defaultcolor="black">
<source>webpbn.com</source>
<id>#9</id>
<title>Tiny</title>
<author>Someone</author>
<copyright>&copy; 2024 Someone</copyright>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="columns">
<line><count>2</count></line>
<line></line>
<line><count>1</count></line>
</clues>
<clues type="rows">
<line><count>1</count><count>1</count></line>
<line><count>1</count></line>
</clues>
<solution type="goal">
<image>
|X.X|
|X..|
</image>
</solution>
</puzzle>
</puzzleset>
"""


def test_xml():
    p = xmlfile.load(XML, "t.xml")
    assert (p.width, p.height) == (3, 2) and p.title == "Tiny"
    assert p.cols == [(2,), (), (1,)] and p.rows == [(1, 1), (1,)]
    assert p.goal == ((1, 0, 1), (1, 0, 0))
    assert p.meta["copyright"] == "\u00a9 2024 Someone" and p.meta["catalogue"] == "webpbn.com #9"


def test_xml_multicolour_is_refused_clearly():
    text = XML.replace("<line><count>1</count></line>\n</clues>\n<clues type=\"rows\">",
                       "<line><count color=\"red\">1</count></line>\n</clues>\n<clues type=\"rows\">")
    with pytest.raises(InputError) as e:
        xmlfile.load(text, "m.xml")
    assert str(e.value) == ("m.xml:15: multicolour puzzles (colours black, red) are not supported yet; "
                            "only black-and-white ones")


@pytest.mark.parametrize("text,message", [
    ("<puzzleset><puzzle>", "b.xml:1: not well-formed XML: no element found"),
    ("<x/>", "b.xml:1: no <puzzle> element: not a webpbn XML puzzle file"),
    ("<puzzle>\n<clues type=\"rows\"><line><count>x</count></line></clues>\n</puzzle>",
     "b.xml:2: row 1 clue 'x': 'x' is not a number"),
    ("<puzzle>\n<clues type=\"rows\"><line><count>1</count></line></clues>\n</puzzle>",
     "b.xml:1: no <clues type=\"columns\">"),
])
def test_xml_errors(text, message):
    with pytest.raises(InputError) as e:
        xmlfile.load(text, "b.xml")
    assert str(e.value) == message


def test_bundled_instances_load():
    for name in ("dancer", "scardy-cat", "5-dom", "letter-p", "twins"):
        p = load_puzzle(name)
        assert p.family == "nonogram"


def test_runs():
    assert runs([0, 1, 1, 0, 1]) == (2, 1) and runs([]) == () and runs([1, 1]) == (2,)
