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
    ("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n", "b.non:6: 1 column clue for width 2"),
    ("width 2\nheight 2\nrows\n1\n1\n1\ncolumns\n1\n1\n", "b.non:6: more row clues than the height (2): '1' is clue 3"),
    ("width x\n", "b.non:1: width must be a positive whole number, got 'x'"),
    # int() reads other scripts' digits; the formats, as .box and DIMACS, mean 0-9
    ("width \uff12\n", "b.non:1: width must be a positive whole number: "
     "'\uff12' (U+FF12 FULLWIDTH DIGIT TWO) is not an ASCII digit 0-9"),
    ("width 2\nheight 1\nrows\n\uff11\ncolumns\n1\n0\n",
     "b.non:4: row 1 clue '\uff11': '\uff11' (U+FF11 FULLWIDTH DIGIT ONE) is not an ASCII digit 0-9"),
    ("rows\n1\nwidth 1\nheight 1\n", "b.non:1: 'rows' comes before 'height': the height must be given first"),
    ("width 3\nheight 1\nrows\n2,2\ncolumns\n1\n1\n1\n", "b.non:4: row 1 clue 2,2 needs 5 cells but the row has 3"),
    ("width 2\nheight 1\nrows\n-1\ncolumns\n1\n0\n", "b.non:4: negative number '-1' in row 1 clue '-1'"),
    ("width 2\nheight 1\nrows\n1,x\ncolumns\n1\n0\n", "b.non:4: row 1 clue '1,x': 'x' is not a whole number"),
    ("width 2\nheight 1\nrows\n1,0\ncolumns\n1\n0\n",
     "b.non:4: row 1 clue '1,0': a 0 must stand alone (it means an empty line)"),
    ("width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal \"101\"\n", "b.non:8: goal has 3 cells, expected 2 (2 x 1)"),
    ("width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal \"01\"\n",
     "b.non:8: goal does not match the clues: its column 1 has runs 0, the clue says 1"),
    ("width 2\nheight 1\nrows\n1a,1b\ncolumns\n1a\n1b\n",
     "b.non:4: multicolour nonograms (colours a, b) are not supported yet; only black-and-white ones"),
    # the line where a second colour first appears (it had no line at all)
    ("width 2\nheight 2\nrows\n1a\n1a\ncolumns\n1b\n1a\n",
     "b.non:7: multicolour nonograms (colours a, b) are not supported yet; only black-and-white ones"),
    ("width 1\nwidth 2\n", "b.non:2: width given twice (first on line 1)"),
    # a key among the clues ends the section: the clues after it went unnamed (QA)
    ('width 2\nheight 2\nrows\n2\ntitle "T"\n1\ncolumns\n2\n1\n',
     "b.non:3: 1 row clue for height 2 (line 5's 'title \"T\"' ended the section)"),
    # a first clue written on the section's own line reads as Simpson's 'rows H'
    ("width 3\nheight 2\nrows 1\n1\n2\ncolumns\n1\n1\n1\n",
     "b.non:3: 'rows 1' gives the height, as Simpson's 'rows H' does, and line 2 already gave it; "
     "a section's clues start on the line after a bare 'rows'"),
    ("columns 2\nwidth 2\n", "b.non:2: width given twice (first on line 1)"),
    # one letter given twice is no second colour (it said "multicolour nonograms (colours a ..., a ...)")
    ("width 1\nheight 1\ncolor a #ff0000\ncolor a #00ff00\nrows\n1a\ncolumns\n1a\n",
     "b.non:4: color a given twice (first on line 3)"),
    ("width 1\nheight 1\ncolor a #ff0000\ncolor A #ff0000\nrows\n1\ncolumns\n1\n",
     "b.non:4: color a given twice (first on line 3)"),
    # the clues in a, the color line defining b: it was read as black and white without a word
    ("width 1\nheight 1\nrows\n1a\ncolumns\n1a\ncolor b #ff0000\n",
     "b.non:7: the clues' colour is a (line 4), but the color line defines b, not a"),
    # a known key left without its value was accepted, the file name taken for the title
    ("title\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n", "b.non:1: 'title' needs a value, as in 'title \"...\"'"),
    # a stray clue after blank lines: the message named the first blank line, '' as clue 3
    ("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n\n\n3\n",
     "b.non:11: more column clues than the width (2): '3' is clue 3"),
    ("width 2\nheight 2\nrows\n1\n\n1\n1\ncolumns\n1\n1\n",
     "b.non:7: more row clues than the height (2): '1' is clue 3 (not counting blank lines)"),
    # text after an unquoted goal: its letters were named at "row 3" of a 2-row grid
    ("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\ngoal 1001 extra\n",
     "b.non:9: goal has 9 cells, expected 4 (2 x 2)"),
    # two colours defined only by color lines are a multicolour puzzle, whatever the clues say (mutation
    # audit: with only the clues' letters counted, plain clues loaded as black and white, and clues in
    # one of the two letters fell on the one-letter check with a ValueError traceback)
    ("width 1\nheight 1\ncolor a #ff0000\ncolor b #00ff00\nrows\n1\ncolumns\n1\n",
     "b.non:4: multicolour nonograms (colours a #ff0000, b #00ff00) are not supported yet; "
     "only black-and-white ones"),
    # clues in two letters are, whatever the color lines say
    ("width 2\nheight 1\ncolor a #ff0000\ncolor b #00ff00\nrows\n1a,1b\ncolumns\n1a\n1b\n",
     "b.non:4: multicolour nonograms (colours a, b) are not supported yet; only black-and-white ones"),
    # a colour no clue uses is no second colour in the goal either
    ("width 1\nheight 1\ncolor a #ff0000\ncolor b #00ff00\nrows\n1a\ncolumns\n1a\ngoal \"b\"\n",
     "b.non:9: goal: 'b' at row 1, column 1 is neither 0 (white) nor 1 or a (black)"),
    # a negative clue past the height is still a clue line, named as one (not an unknown key '-1')
    ("width 1\nheight 1\nrows\n1\n-1\ncolumns\n1\n", "b.non:5: negative number '-1' in row 2 clue '-1'"),
    # nine digits are allowed (MAX_DIGITS): the number is read, and then too long for the row
    ("width 2\nheight 1\nrows\n123456789\ncolumns\n1\n1\n",
     "b.non:4: row 1 clue 123456789 needs 123456789 cells but the row has 2"),
    ("width 2\nheight 1\nrows\n1234567890\ncolumns\n1\n1\n",
     "b.non:4: row 1 clue '1234567890': 1234567890 is too large (more than 9 digits)"),
    # a goal's stray closing quote was a cell: "goal has 7 cells, expected 6" (QA)
    ("width 3\nheight 2\nrows\n1,1\n3\ncolumns\n2\n1\n2\ngoal 101111\"\n",
     "b.non:10: goal: a quote with no opening quote before the goal: '101111\"'"),
    # the size is refused as soon as it is known, not as "0 row clues for height 100000"
    ("width 100000\nheight 100000\nrows\n",
     "b.non:2: a 100000 x 100000 grid (10,000,000,000 cells) is too large (at most 1,000,000 cells)"),
]


def test_non_a_colour_no_clue_uses_is_ignored_with_a_warning():
    # two colours defined, the clues all in one: black and white (it was
    # refused as multicolour, QA); the unused colour is said, not dropped
    p = nonfile.load("width 2\nheight 1\ncolor a #000000\ncolor b #ff0000\nrows\n1a\ncolumns\n1a\n0\n"
                     "goal \"a0\"\n", "b.non")
    assert (p.rows, p.cols, p.goal) == ([(1,)], [(1,), ()], ((1, 0),))
    assert list(p.ignored) == ["b.non:4: color b #ff0000 ignored: no clue uses colour b"]


@pytest.mark.parametrize("text,message", BAD_NON)
def test_non_errors(text, message):
    with pytest.raises(InputError) as e:
        nonfile.load(text, "b.non")
    assert str(e.value) == message


def test_non_a_grid_of_exactly_the_most_cells_loads_and_one_row_more_is_refused():
    # 1000 x 1000 is 1,000,000 cells, the most allowed (MAX_CELLS): read in full
    # (clues all 0, so quick); 1000 x 1001 is refused as soon as its size is known
    def grid(w, h):
        return f"width {w}\nheight {h}\nrows\n" + "0\n" * h + "columns\n" + "0\n" * w

    p = nonfile.load(grid(1000, 1000), "b.non")
    assert (p.width, p.height, len(p.rows), len(p.cols)) == (1000, 1000, 1000, 1000)
    with pytest.raises(InputError) as e:
        nonfile.load(grid(1000, 1001), "b.non")
    assert str(e.value) == "b.non:2: a 1000 x 1001 grid (1,001,000 cells) is too large (at most 1,000,000 cells)"


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
    ("2 1\n1\n1\n", "b.nin:3: expected 1 row clue then 2 column clues, found 1 row clue line and 1 column clue line"),
    ("2 1\n1\n1\n0\n1\n", "b.nin:5: more clue lines than 1 row + 2 columns: '1' is line 4 of the clues"),
    ("2 1\n3\n1\n1\n", "b.nin:2: row 1 clue 3 needs 3 cells but the row has 2"),
    # blank lines among the clues: the extra line is still named, as line 3 of the clues (not counting blanks)
    ("1 1\n1\n\n1\n\n2\n", "b.nin:6: more clue lines than 1 row + 1 column: '2' is line 3 of the clues"),
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
    text = text.replace('char="X">000</color>', 'char="X">000</color><color name="red" char="r">f00</color>')
    with pytest.raises(InputError) as e:
        xmlfile.load(text, "m.xml")
    assert str(e.value) == ("m.xml:15: multicolour puzzles (colours black, red) are not supported yet; "
                            "only black-and-white ones")


@pytest.mark.parametrize("text,message", [
    ("<puzzleset><puzzle>", "b.xml:1: not well-formed XML: no element found"),
    ("<x/>", "b.xml:1: no <puzzle> element: not a webpbn XML puzzle file"),
    # a puzzle in an element the reader ignores was read, that element and all else in it dropped (QA)
    ("<puzzleset>\n<wrap>\n<puzzle/>\n</wrap>\n</puzzleset>",
     "b.xml:3: <puzzle> inside <wrap> (line 2): webpbn's format puts it directly in the root <puzzleset> (line 1)"),
    # (its own parent, not the root's child that holds it: review)
    ("<puzzleset>\n<wrap>\n<inner>\n<puzzle/>\n</inner>\n</wrap>\n</puzzleset>",
     "b.xml:4: <puzzle> inside <inner> (line 3): webpbn's format puts it directly in the root <puzzleset> "
     "(line 1)"),
    ("<puzzleset>\n<puzzleset>\n<puzzle/>\n</puzzleset>\n</puzzleset>",
     "b.xml:3: <puzzle> inside <puzzleset> (line 2): webpbn's format puts it directly in the root <puzzleset> "
     "(line 1)"),
    ("<wrap>\n<title>t</title>\n<puzzle/>\n</wrap>",
     "b.xml:1: the root element is <wrap>: webpbn's format puts the <puzzle> (line 3) in a <puzzleset>, "
     "or has it as the root"),
    # (the search for one went one call deeper per level: a RecursionError at 1,000, QA)
    ("<puzzleset>" + "<a>" * 5000 + "</a>" * 5000 + "</puzzleset>",
     "b.xml:1: no <puzzle> element: not a webpbn XML puzzle file"),
    ("<puzzle>\n<clues type=\"rows\"><line><count>x</count></line></clues>\n</puzzle>",
     "b.xml:2: row 1 clue 'x': 'x' is not a whole number"),
    ("<puzzle>\n<clues type=\"rows\"><line><count>\uff11</count></line></clues>\n</puzzle>",
     "b.xml:2: row 1 clue '\uff11': '\uff11' (U+FF11 FULLWIDTH DIGIT ONE) is not an ASCII digit 0-9"),
    ("<puzzle>\n<clues type=\"rows\"><line><count>1</count></line></clues>\n</puzzle>",
     "b.xml:1: no <clues type=\"columns\">"),
])
def test_xml_errors(text, message):
    with pytest.raises(InputError) as e:
        xmlfile.load(text, "b.xml")
    assert str(e.value) == message


# ------------------------------------------------ what a file may not slip past

def _error(mod, text, path):
    with pytest.raises(InputError) as e:
        mod.load(text, path)
    return str(e.value)


def test_non_characters_after_a_number_are_ignored_with_a_warning():
    # FORMAT.md: "any characters after the number that aren't recognized should
    # be ignored" -- so `1;1` is the clue 1, and the user is told
    text = "width 7\nheight 2\nrows\n1;1,1.1 1abc\n1a,1A\ncolumns\n2\n0\n1\n0\n2\n0\n0\n"
    p = nonfile.load(text, "f.non")
    assert p.rows == [(1, 1, 1), (1, 1)]
    assert p.ignored == ("f.non:4: '1;1': ';1' after the number 1 ignored",
                         "f.non:4: '1.1': '.1' after the number 1 ignored",
                         "f.non:4: '1abc': 'abc' after the number 1 ignored")


def test_non_colour_letters_are_not_ignored_and_two_colours_are_still_refused():
    assert nonfile.load("width 1\nheight 1\nrows\n1a\ncolumns\n1a\n", "f.non").ignored == ()
    assert _error(nonfile, "width 2\nheight 1\nrows\n1a,1b;\ncolumns\n1a\n1b\n", "f.non") == (
        "f.non:7: multicolour nonograms (colours a, b) are not supported yet; only black-and-white ones "
        "(line 4's '1b;' was read as 1)")


def test_non_unknown_keys_are_ignored_with_a_warning():
    text = "width 2\nheight 1\ngaol \"10\"\nAuthor \"me\"\nrows\n1\ncolumns\n1\n0\n"
    p = nonfile.load(text, "f.non")
    assert p.goal is None
    assert p.ignored == ("f.non:3: unknown key 'gaol' ignored (a misspelling of 'goal'?)",
                         "f.non:4: unknown key 'Author' ignored")
    assert nonfile.load(DEMO, "demo.non").ignored == ()


@pytest.mark.parametrize("text,message", [
    # the warnings are lost when the file is refused: the error names what was ignored
    ("widht 2\nheight 1\nrows\n1\ncolumns\n1\n0\n",
     "f.non:5: 'columns' comes before 'width': the width must be given first "
     "(line 1's 'widht' is not a key: a misspelling of 'width'?)"),
    ("width 2\nheight 1\nrows\n1;1\ncolumns\n1\n1\ngoal \"11\"\n",
     "f.non:8: goal does not match the clues: its row 1 has runs 2, the clue says 1 "
     "(line 4's '1;1' was read as 1)"),
    ("width 3\nheight 1\nrows\n1;1,1.1,1;,1x1\ncolumns\n1\n1\n1\n",
     "f.non:4: row 1 clue 1,1,1,1 needs 7 cells but the row has 3 (line 4's '1;1' was read as 1; "
     "line 4's '1.1' was read as 1; line 4's '1;' was read as 1; 1 more ignored)"),
    # exactly MAX_NOTES (3) notes: all named, and nothing said of more
    ("widht 1\nheigth 1\ntitel x\nrows\n1\ncolumns\n1\n",
     "f.non:4: 'rows' comes before 'height': the height must be given first (line 1's 'widht' is not a key: "
     "a misspelling of 'width'?; line 2's 'heigth' is not a key: a misspelling of 'height'?; line 3's 'titel' "
     "is not a key: a misspelling of 'title'?)"),
    ("widht 1\nheigth 1\ntitel x\nwidht 1\nrows\n1\ncolumns\n1\n",
     "f.non:5: 'rows' comes before 'height': the height must be given first (line 1's 'widht' is not a key: "
     "a misspelling of 'width'?; line 2's 'heigth' is not a key: a misspelling of 'height'?; line 3's 'titel' "
     "is not a key: a misspelling of 'title'?; 1 more ignored)"),
    # an unknown key that is no misspelling explains nothing
    ("width 2\nheight 1\nauthor \"me\"\nrows\n2,1\ncolumns\n1\n1\n",
     "f.non:5: row 1 clue 2,1 needs 4 cells but the row has 2"),
])
def test_non_errors_name_what_was_ignored(text, message):
    assert _error(nonfile, text, "f.non") == message


@pytest.mark.parametrize("text,message", [
    ("2 2\n1;1\n2\n2\n1\n", "f.nin:2: row 1 clue '1;1': '1;1' is not a whole number"),
    ("2 1\n\u0661\n1\n0\n",
     "f.nin:2: row 1 clue '\u0661': '\u0661' (U+0661 ARABIC-INDIC DIGIT ONE) is not an ASCII digit 0-9"),
    ("2 2\n1\n2\n1x\n2\n", "f.nin:4: column 1 clue '1x': '1x' is not a whole number"),
    ("2 2\n1\n2\n1 1.5\n2\n", "f.nin:4: column 1 clue '1 1.5': '1.5' is not a whole number"),
    ("2 1\n1 0\n1\n0\n", "f.nin:2: row 1 clue '1 0': a 0 must stand alone (it means an empty line)"),
])
def test_nin_clues_are_whole_numbers_only(text, message):
    assert _error(ninfile, text, "f.nin") == message


def _xml(rows: str) -> str:
    return ('<puzzle>\n<clues type="columns"><line><count>1</count></line></clues>\n'
            f'<clues type="rows">\n{rows}\n</clues>\n</puzzle>\n')


@pytest.mark.parametrize("rows,message", [
    ("<line><count>1x</count></line>", "f.xml:4: row 1 clue '1x': '1x' is not a whole number"),
    ("<line>\n<count>1</count>\n<count>-1</count>\n</line>", "f.xml:6: negative number '-1' in row 1 clue '1,-1'"),
    ("<line><count></count></line>", "f.xml:4: row 1 clue: an empty <count> (it must hold a whole number)"),
    ("<line><count> </count></line>", "f.xml:4: row 1 clue: an empty <count> (it must hold a whole number)"),
    ("<line>\n<count/></line>", "f.xml:5: row 1 clue: an empty <count> (it must hold a whole number)"),
])
def test_xml_counts_are_whole_numbers(rows, message):
    assert xmlfile.load(_xml("<line><count>1</count></line>"), "f.xml").rows == [(1,)]
    assert _error(xmlfile, _xml(rows), "f.xml") == message


def test_xml_entity_declarations_are_refused_at_once():
    # "billion laughs": 10**9 copies of "lol" from 1 KB; it used to hang the parser
    names = ["lol"] + [f"lol{i}" for i in range(1, 10)]
    decls = ['<!ENTITY lol "lol">'] + [f'<!ENTITY {names[i]} "{("&" + names[i - 1] + ";") * 10}">'
                                       for i in range(1, 10)]
    text = ('<?xml version="1.0"?>\n<!DOCTYPE puzzleset [\n' + "\n".join(decls) + '\n]>\n'
            '<puzzleset><puzzle><title>&lol9;</title></puzzle></puzzleset>\n')
    assert len(text) < 1024
    # refused at the first declaration (line 3), before any expansion
    assert _error(xmlfile, text, "f.xml") == "f.xml:3: entity declarations are not supported"


def test_xml_text_in_many_pieces_is_read_whole():
    # expat hands text over line by line; the parser joins the pieces once (adding
    # them one by one was quadratic: 400,000 lines took 14 s, now 0.3 s; not timed here)
    title = "a\n" * 20_000
    p = xmlfile.load(XML.replace("<title>Tiny</title>", f"<title>{title}</title>"), "t.xml")
    assert p.title == title.strip()


def test_a_huge_clue_is_not_repeated_whole_in_a_message():
    huge = ",".join(["1"] * 100_000)
    shown = "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1..."
    assert len(shown) == 60
    expected = f"row 1 clue {shown} needs 199999 cells but the row has 2"
    assert _error(nonfile, f"width 2\nheight 1\nrows\n{huge}\ncolumns\n1\n0\n", "f.non") == f"f.non:4: {expected}"
    assert _error(ninfile, f"2 1\n{huge}\n1\n0\n", "f.nin") == f"f.nin:2: {expected}"
    counts = "<count>1</count>" * 100_000
    assert _error(xmlfile, _xml(f"<line>{counts}</line>"), "f.xml") == (
        f"f.xml:4: row 1 clue {shown} needs 199999 cells but the row has 1")
    assert _error(nonfile, f"width 2\nheight 1\nrows\n{huge},x\ncolumns\n1\n0\n", "f.non") == (
        f"f.non:4: row 1 clue '{shown}': 'x' is not a whole number")
    assert _error(nonfile, f"width 2\nheight 1\n{huge}\n", "f.non") == (
        f"f.non:3: clue line '{shown}' outside a 'rows' or 'columns' section "
        "(more clue lines than the height or width?)")
    assert _error(ninfile, f"{huge}\n", "f.nin") == (
        f"f.nin:1: expected 'WIDTH HEIGHT' on the first line, got '{shown}'")


@pytest.mark.parametrize("mod,text,message", [
    # int() refuses over 4,300 digits with a traceback; these never reach it
    (nonfile, "width 2\nheight 1\nrows\n" + "1" * 5000 + "\ncolumns\n1\n0\n",
     f"f.non:4: row 1 clue '{'1' * 57}...': {'1' * 57}... is too large (more than 9 digits)"),
    (nonfile, "width " + "1" * 5000 + "\n", f"f.non:1: width {'1' * 57}... is too large (more than 9 digits)"),
    (ninfile, "2 " + "1" * 5000 + "\n", f"f.nin:1: height {'1' * 57}... is too large (more than 9 digits)"),
    (nonfile, "width 0\n", "f.non:1: width must be a positive whole number, got 0"),
    (nonfile, "width 0002\nheight 1\nrows\n02\ncolumns\n1\n1\n", None),
])
def test_numbers_too_large_for_any_puzzle_are_refused(mod, text, message):
    path = "f.non" if mod is nonfile else "f.nin"
    if message is None:
        assert mod.load(text, path).rows == [(2,)]
    else:
        assert _error(mod, text, path) == message


def test_cli_prints_what_was_ignored_as_a_warning_and_still_solves(tmp_path, cli):
    f = tmp_path / "w.non"
    f.write_text("width 2\nheight 2\nrows\n1;1\n2\ncolumns\n2\n1\nauthor \"me\"\n")
    r = cli("solve", f)
    assert r.code == 0, r.err
    assert r.err.splitlines()[:2] == [f"puzzlesat: warning: {f}:4: '1;1': ';1' after the number 1 ignored",
                                      f"puzzlesat: warning: {f}:9: unknown key 'author' ignored"]
    assert "solved" in r.out


def test_bundled_instances_load():
    for name in ("dancer", "scardy-cat", "5-dom", "letter-p", "twins"):
        p = load_puzzle(name)
        assert p.family == "nonogram"


def test_runs():
    assert runs([0, 1, 1, 0, 1]) == (2, 1) and runs([]) == () and runs([1, 1]) == (2,)


def test_a_grid_too_large_to_build(tmp_path):
    f = tmp_path / "big.nin"
    f.write_text("2000 1000\n" + "0\n" * 3000)
    with pytest.raises(InputError) as e:
        load_puzzle(str(f))
    assert str(e.value) == f"{f}:1: a 2000 x 1000 grid (2,000,000 cells) is too large (at most 1,000,000 cells)"


@pytest.mark.parametrize("rows,message", [
    ("<line>1 2</line>", "f.xml:4: row 1 clue: text '1 2' directly inside <line>; each number goes in its own <count>"),
    ("<line><count>1</count><note>x</note></line>", "f.xml:4: <note> inside <line>: only <count> elements belong there"),
    ("<row><count>1</count></row>", "f.xml:4: <row> inside <clues>: only <line> elements belong there"),
])
def test_xml_clues_hold_only_what_the_dtd_allows(rows, message):
    assert _error(xmlfile, _xml(rows), "f.xml") == message


# ------------------------- .xml: nothing repeated or unknown is dropped silently

def _tiny(old: str, new: str) -> str:
    assert old in XML
    return XML.replace(old, new, 1)


GOAL = '<solution type="goal">\n<image>\n|X.X|\n|X..|\n</image>\n</solution>\n'


@pytest.mark.parametrize("text,message", [
    (_tiny("<title>Tiny</title>\n", "<title>Tiny</title>\n<title>Two</title>\n"),
     "t.xml:8: <title> given twice in one <puzzle> (first on line 7)"),
    (_tiny("<author>Someone</author>\n", "<author>Someone</author>\n<author>Else</author>\n"),
     "t.xml:9: <author> given twice in one <puzzle> (first on line 8)"),
    (_tiny("<puzzleset>\n", "<puzzleset>\n<source>a</source>\n<source>b</source>\n"),
     "t.xml:5: <source> given twice in one <puzzleset> (first on line 4)"),
    # a goal that contradicts the clues, then a valid one: the second used to win silently
    (_tiny("</solution>\n", "</solution>\n" + GOAL.replace("|X.X|", "|XXX|")),
     "t.xml:27: <solution type=\"goal\"> given twice (first on line 21)"),
    (_tiny('<solution type="goal">', "<solution>"), None),  # type="goal" is the default
    (_tiny('<solution type="goal">', '<solution type="frob">'),
     "t.xml:21: <solution type='frob'>: expected type \"goal\", \"solution\" or \"saved\""),
    (_tiny("</image>\n", "</image>\n<image>\n|X.X|\n</image>\n"),
     "t.xml:26: <solution type=\"goal\"> holds 2 <image>s, expected one"),
    (_tiny('<color name="black" char="X">000</color>\n',
           '<color name="black" char="X">000</color>\n<color name="black" char="#">000</color>\n'),
     "t.xml:12: colour 'black' defined twice (first on line 11)"),
    (_tiny("<title>Tiny</title>", "<title>Tiny <b>bold</b></title>"),
     "t.xml:7: <b> inside <title>: only text belongs there"),
    (_tiny("<image>\n", "<image>\n<row/>\n"), "t.xml:23: <row> inside <image>: only text belongs there"),
    (_tiny("</image>\n", "</image>\n<note>n</note>\n"),
     "t.xml:26: <note> inside <solution>: only <image> elements belong there"),
    # text where elements belong: it was dropped silently, outside <line> (QA)
    (_tiny("</image>\n", "</image>\nX.X\n"), "t.xml:26: text 'X.X' directly inside <solution>: only <image> "
                                              "elements belong there"),
    (_tiny('<clues type="rows">\n', '<clues type="rows">\n1 1\n'),
     "t.xml:18: text '1 1' directly inside <clues>: only <line> elements belong there"),
])
def test_xml_a_repeated_element_is_an_error(text, message):
    if message is None:
        assert xmlfile.load(text, "t.xml").goal == ((1, 0, 1), (1, 0, 0))
    else:
        assert _error(xmlfile, text, "t.xml") == message


def test_xml_clues_in_the_background_colour_are_refused():
    # they were read as black: a clue counts cells of a colour other than the background
    text = _tiny("<count>2</count>", '<count color="white">2</count>')
    assert _error(xmlfile, text.replace("<count>", '<count color="white">'), "t.xml") == (
        "t.xml:13: the clues count cells of the background colour 'white' (backgroundcolor); "
        "a clue counts cells of another colour")


def test_xml_a_solution_image_beside_the_goal_is_checked_and_said_unused():
    # it was never read: a bad character in it passed, a different picture went unsaid
    other = '<solution type="solution">\n<image>\n|X.X|\n|X?.|\n</image>\n</solution>\n'
    assert _error(xmlfile, _tiny("</solution>\n", "</solution>\n" + other), "t.xml") == (
        "t.xml:30: row 2 of the solution image: '?' is neither '.' (white) nor 'X' (black)")
    p = xmlfile.load(_tiny("</solution>\n", "</solution>\n" + other.replace("X?.", "X..")), "t.xml")
    assert p.goal == ((1, 0, 1), (1, 0, 0))
    assert p.ignored == ('t.xml:27: <solution type="solution"> (the same picture) not used: '
                         "the goal is the one checked",)


def test_xml_a_different_solution_image_beside_the_goal_is_not_used(tmp_path, cli):
    # the goal is the picture checked: a "solution" image that breaks the clues
    # (|XX.| has a run of 2 where row 1 says 1,1) is left aside, said so, not
    # taken in the goal's place (which would refuse a good file)
    other = '<solution type="solution">\n<image>\n|XX.|\n|X..|\n</image>\n</solution>\n'
    text = _tiny("</solution>\n", "</solution>\n" + other)
    p = xmlfile.load(text, "t.xml")
    assert p.goal == ((1, 0, 1), (1, 0, 0))
    assert p.ignored == ('t.xml:27: <solution type="solution"> (another picture) not used: '
                         "the goal is the one checked",)
    f = tmp_path / "t.xml"
    f.write_text(text)
    r = cli("info", str(f))
    assert r.code == 0, r.err
    assert f'{f}:27: <solution type="solution"> (another picture) not used: the goal is the one checked' in r.err


def test_xml_saved_solutions_are_partial_grids_and_may_repeat():
    # (not read, and said so: a saved grid of garbage passed without a word, QA)
    saved = '<solution type="saved">\n<image>\n|X??|\n|?..|\n</image>\n</solution>\n'
    p = xmlfile.load(_tiny("</solution>\n", "</solution>\n" + saved + saved), "t.xml")
    assert p.goal == ((1, 0, 1), (1, 0, 0))
    assert p.ignored == tuple(f't.xml:{n}: <solution type="saved"> (a partly solved grid a solver kept) not read'
                              for n in (27, 33))


def test_xml_unknown_elements_and_attributes_are_ignored_with_a_warning():
    text = _tiny('<puzzle type="grid" defaultcolor="black">\n',
                 '<puzzle type="grid" defaultcolor="black" foo="bar">\n<frob>1</frob>\n<titel>x</titel>\n')
    text = text.replace("<count>2</count>", '<count colour="red">2</count>')
    p = xmlfile.load(text, "t.xml")
    assert p.title == "Tiny" and p.cols == [(2,), (), (1,)]
    assert p.ignored == ("t.xml:4: unknown attribute 'foo' on <puzzle> ignored",
                         "t.xml:5: unknown element <frob> inside <puzzle> ignored",
                         "t.xml:6: unknown element <titel> inside <puzzle> ignored (a misspelling of <title>?)",
                         "t.xml:15: unknown attribute 'colour' on <count> ignored (a misspelling of 'color'?)")
    # text inside <puzzle> or <puzzleset>, where unknown elements are ignored too
    stray = _tiny("<title>Tiny</title>\n", "<title>Tiny</title>\nhello\n").replace("<puzzleset>\n", "<puzzleset>\nx\n")
    assert xmlfile.load(stray, "t.xml").ignored == ("t.xml:4: text 'x' directly inside <puzzleset> ignored",
                                                    "t.xml:9: text 'hello' directly inside <puzzle> ignored")
    # what webpbn defines and the tool does not use is accepted quietly
    known = _tiny("<title>Tiny</title>\n", "<title>Tiny</title>\n<authorid>s</authorid>\n"
                  "<description>d</description>\n<note>n</note>\n")
    known = known.replace('<puzzle type="grid" defaultcolor="black">',
                          '<puzzle type="grid" defaultcolor="black" backgroundcolor="white">')
    assert xmlfile.load(known, "t.xml").ignored == ()
    assert xmlfile.load(XML, "t.xml").ignored == ()


def test_xml_an_error_names_the_misspelling_that_may_explain_it():
    text = _tiny('<clues type="rows">', '<clue type="rows">').replace("</clues>\n<solution", "</clue>\n<solution")
    assert _error(xmlfile, text, "t.xml") == (
        't.xml:4: no <clues type="rows"> (line 17\'s <clue> was ignored: a misspelling of <clues>?)')


@pytest.mark.parametrize("old,new,message", [
    # with an external DTD named, expat skips an undefined entity silently (the title became the file name)
    ("<title>Tiny</title>", "<title>&a;</title>",
     "t.xml:7: undefined entity '&a;' (not an XML or HTML entity; a literal & is written &amp;)"),
    ("<title>Tiny</title>", '<title>x</title><color name="&b;" char="o">f00</color>',
     "t.xml:7: undefined entity '&b;' (not an XML or HTML entity; a literal & is written &amp;)"),
    # html.unescape would read the legacy "&not" in it: "\u00acit;"
    ("<title>Tiny</title>", "<title>&notit;</title>",
     "t.xml:7: undefined entity '&notit;' (not an XML or HTML entity; a literal & is written &amp;)"),
])
def test_xml_an_undefined_entity_is_an_error(old, new, message):
    assert _error(xmlfile, _tiny(old, new), "t.xml") == message


def test_xml_title_and_author_decode_their_entities_once():
    # the title was unescaped a second time: "AT&amp;amp;T" read "AT&T",
    # where the author (and XML) says "AT&amp;T" (QA)
    text = _tiny("<author>Someone</author>", "<author>R&amp;amp;D &amp;lt;3</author>")
    p = xmlfile.load(text.replace("<title>Tiny</title>", "<title>AT&amp;amp;T &amp;lt;3 &eacute;</title>"),
                     "t.xml")
    assert (p.title, p.meta["by"]) == ("AT&amp;T &lt;3 \u00e9", "R&amp;D &lt;3")


def test_xml_a_puzzle_without_a_title_takes_its_sets():
    # as it takes the set's author, copyright, source and id (the title was the file's name, QA)
    text = _tiny("<title>Tiny</title>\n", "").replace("<puzzleset>\n", "<puzzleset>\n<title>Set</title>\n")
    p = xmlfile.load(text, "t.xml")
    assert (p.title, p.ignored) == ("Set", ())
    assert xmlfile.load(text.replace("<author>", "<title>Own</title>\n<author>"), "t.xml").title == "Own"
    assert _error(xmlfile, text.replace("<title>Set</title>", "<title>&#x202e;DER</title>"), "t.xml") == (
        "t.xml:4: title '\\u202eDER' holds a bidirectional control character (U+202E)")


def test_xml_html_entities_are_text_that_moves_no_line():
    # &NewLine; was put in as a line break before expat read the file: every
    # later error a line late; &LT; (HTML's <) broke the markup (QA)
    text = _tiny("<author>Someone</author>", "<author>a&NewLine;b &LT;&AMP;&QUOT;</author>")
    assert xmlfile.load(text, "t.xml").meta["by"] == 'a\nb <&"'
    assert _error(xmlfile, text.replace("|X.X|", "|X?X|"), "t.xml") == (
        "t.xml:23: row 1 of the goal image: '?' is neither '.' (white) nor 'X' (black)")
    text = _tiny('<color name="black" char="X">', '<color name="black" char="&QUOT;">').replace("|X.X|\n|X..|", '|"."|\n|"..|')
    assert xmlfile.load(text, "t.xml").goal == ((1, 0, 1), (1, 0, 0))


def test_xml_entities_in_comments_and_cdata_are_text():
    p = xmlfile.load(_tiny("<author>Someone</author>", "<!-- &a; --><author><![CDATA[&copy;]]> &amp; &copy;</author>"),
                     "t.xml")
    assert p.meta["by"] == "&copy; & \u00a9"


# ---------------------------------- goal images: only white and black characters

@pytest.mark.parametrize("old,new,message", [
    ("|X.X|", "|X?X|", "t.xml:23: row 1 of the goal image: '?' is neither '.' (white) nor 'X' (black)"),
    ("|X..|", "|X[.X].|", "t.xml:24: row 2 of the goal image: '[' is neither '.' (white) nor 'X' (black)"),
    ("|X..|", "|x..|", "t.xml:24: row 2 of the goal image: 'x' is neither '.' (white) nor 'X' (black)"),
    ("|X..|", "|X. |", "t.xml:24: row 2 of the goal image: ' ' is neither '.' (white) nor 'X' (black)"),
    ('<color name="black" char="X">000</color>', '<color name="black">000</color>',
     "t.xml:22: the goal image needs a character for colour 'black' (<color name=\"black\" char=\"...\">)"),
    ('<color name="black" char="X">', '<color name="black" char="XY">',
     "t.xml:11: colour 'black': char 'XY' is not one character"),
])
def test_xml_goal_characters(old, new, message):
    assert _error(xmlfile, _tiny(old, new), "t.xml") == message


def test_xml_goal_characters_follow_the_files_colours():
    # a file's own characters, another background name, another clue colour: all read as the file says
    text = (XML.replace('char=".">fff', 'char="0">fff').replace('char="X">000', 'char="1">000')
            .replace("|X.X|\n|X..|", "|101|\n|100|"))
    assert xmlfile.load(text, "t.xml").goal == ((1, 0, 1), (1, 0, 0))
    text = (XML.replace('defaultcolor="black"', 'defaultcolor="ink" backgroundcolor="paper"')
            .replace('<color name="white" char=".">fff</color>\n<color name="black" char="X">000</color>',
                     '<color name="paper" char="-">fff</color>\n<color name="ink" char="#">000</color>')
            .replace("|X.X|\n|X..|", "|#-#|\n|#--|"))
    assert xmlfile.load(text, "t.xml").goal == ((1, 0, 1), (1, 0, 0))
    # webpbn's predefined white '.' and black 'X' need no <color>
    text = XML.replace('<color name="white" char=".">fff</color>\n<color name="black" char="X">000</color>\n', "")
    assert xmlfile.load(text, "t.xml").goal == ((1, 0, 1), (1, 0, 0))


NON_1x4 = "width 4\nheight 1\nrows\n1,1\ncolumns\n1\n0\n1\n0\n"


@pytest.mark.parametrize("goal,message", [
    # FORMAT.md: "0 is a blank; anything else is a filled spot, likely either a 1 or a color
    # character": 'x' and '.' were read as black without a word
    ('goal "10x1"', "f.non:10: goal: 'x' at row 1, column 3 is neither 0 (white) nor 1 (black)"),
    ('goal "1.##"', "f.non:10: goal: '.' at row 1, column 2 is neither 0 (white) nor 1 (black)"),
    ('goal "1020"', "f.non:10: goal: '2' at row 1, column 3 is neither 0 (white) nor 1 (black)"),
    ('goal "10\n1\n?"', "f.non:12: goal: '?' at row 1, column 4 is neither 0 (white) nor 1 (black)"),
    ('goal "1010"', None),
    ('goal "10\n10"', None),
    ("goal 10 10", None),
])
def test_non_goal_characters(goal, message):
    if message is None:
        assert nonfile.load(NON_1x4 + goal + "\n", "f.non").goal == ((1, 0, 1, 0),)
    else:
        assert _error(nonfile, NON_1x4 + goal + "\n", "f.non") == message


def test_non_goal_colour_letters_are_black_when_the_file_uses_them():
    text = "width 4\nheight 1\nrows\n1a,1a\ncolumns\n1a\n0\n1a\n0\n"
    assert nonfile.load(text + 'goal "a0A0"\n', "f.non").goal == ((1, 0, 1, 0),)
    assert nonfile.load(NON_1x4 + 'color a #ff0000\ngoal "a0a0"\n', "f.non").goal == ((1, 0, 1, 0),)
    assert _error(nonfile, text + 'goal "a0b0"\n', "f.non") == (
        "f.non:10: goal: 'b' at row 1, column 3 is neither 0 (white) nor 1 or a (black)")
    assert _error(nonfile, NON_1x4 + 'goal "a0a0"\n', "f.non") == (
        "f.non:10: goal: 'a' at row 1, column 1 is neither 0 (white) nor 1 (black)")


# ------------------------------------------- a comma with no number beside it

@pytest.mark.parametrize("clue,message", [
    ("1,", "row 1 clue '1,': no number after the last comma"),
    (",1", "row 1 clue ',1': no number before the first comma"),
    ("1,,1", "row 1 clue '1,,1': no number between two commas"),
    ("1, ,1", "row 1 clue '1, ,1': no number between two commas"),
    (",", "row 1 clue ',': no number before the first comma"),
    ("1" + "," * 200_000, f"row 1 clue '1{',' * 56}...': no number between two commas"),
])
def test_an_empty_field_in_a_clue_is_an_error(clue, message):
    # these were dropped silently (while .non warns for `1;1` and .nin refuses it)
    assert _error(nonfile, f"width 3\nheight 1\nrows\n{clue}\ncolumns\n1\n0\n1\n", "f.non") == f"f.non:4: {message}"
    assert _error(ninfile, f"3 1\n{clue}\n1\n0\n1\n", "f.nin") == f"f.nin:2: {message}"


def test_commas_and_blanks_still_separate_numbers():
    for clue in ("1,1", "1, 1", "1 1", " 1 ,  1 "):
        assert nonfile.load(f"width 3\nheight 1\nrows\n{clue}\ncolumns\n1\n0\n1\n", "f.non").rows == [(1, 1)]
        assert ninfile.load(f"3 1\n{clue}\n1\n0\n1\n", "f.nin").rows == [(1, 1)]


@pytest.mark.parametrize("head,message", [
    ("3 1", None), ("3x1", None), ("3,1", None), ("3 x 1", None), ("3, 1", None),
    ("2xx2", "f.nin:1: expected 'WIDTH HEIGHT' on the first line, got '2xx2'"),
    ("2,,2", "f.nin:1: expected 'WIDTH HEIGHT' on the first line, got '2,,2'"),
    ("3 1 1", "f.nin:1: expected 'WIDTH HEIGHT' on the first line, got '3 1 1'"),
    ("3 1;", "f.nin:1: height must be a positive whole number, got '1;'"),
])
def test_nin_header_is_width_and_height_with_one_separator(head, message):
    text = f"{head}\n1,1\n1\n0\n1\n"
    if message is None:
        assert (ninfile.load(text, "f.nin").width, ninfile.load(text, "f.nin").height) == (3, 1)
    else:
        assert _error(ninfile, text, "f.nin") == message


def test_line_numbers_count_line_feeds_only():
    # str.splitlines() also breaks at U+2028: the error was one line late
    assert _error(nonfile, 'width 2\nheight 1\nby "a\u2028b"\nrows\n2,1\ncolumns\n1\n1\n', "f.non") == (
        "f.non:5: row 1 clue 2,1 needs 4 cells but the row has 2")
    assert _error(ninfile, "# a\u2028b\n2 1\n2,1\n1\n1\n", "f.nin") == (
        "f.nin:3: row 1 clue 2,1 needs 4 cells but the row has 2")


def test_no_control_character_reaches_the_terminal_from_a_title_or_its_metadata():
    # info, check and list print them: an ESC would be an escape sequence
    assert _error(nonfile, 'title "\x1b[31mRED"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "f.non") == (
        "f.non:1: title '\\x1b[31mRED' holds a control character (U+001B)")
    assert _error(nonfile, 'width 1\nheight 1\nby "a\x07b"\nrows\n1\ncolumns\n1\n', "f.non") == (
        "f.non:3: by 'a\\x07b' holds a control character (U+0007)")
    assert _error(nonfile, 'title "\u202eDER"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "f.non") == (
        "f.non:1: title '\\u202eDER' holds a bidirectional control character (U+202E)")
    # a tab, and line breaks in XML text, are white space
    assert nonfile.load('title "a\tb"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "f.non").title == "a\tb"
    # written as an escape: html.unescape dropped this one unsaid (the title was "ab"), QA
    assert _error(nonfile, 'title "a&#x1b;b"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "f.non") == (
        "f.non:1: title 'a\\x1bb' holds a control character (U+001B)")
    assert _error(nonfile, 'title "a&#xFFFE;"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "f.non") == (
        "f.non:1: title 'a\\ufffe' holds a noncharacter (U+FFFE)")  # (the SVG drawing could not be read)
    assert _error(nonfile, 'width 1\nheight 1\nby "a&#133;b"\nrows\n1\ncolumns\n1\n', "f.non") == (
        "f.non:3: by 'a\\x85b' holds a control character (U+0085)")  # (read as an ellipsis)


@pytest.mark.parametrize("value,message", [
    ('"T" junk', "f.non:1: title: text 'junk' after the title's closing quote"),  # (the title was '"T" junk')
    ('"T', "f.non:1: title: no closing quote"),
    ('"&#0;"', "f.non:1: title: '&#0;' numbers no character"),  # (html.unescape: U+FFFD)
    ('"&#x110000;"', "f.non:1: title: '&#x110000;' numbers no character"),
    ('"&#' + "9" * 5000 + ';"', "f.non:1: title: '&#" + "9" * 55 + "...' numbers no character"),
])
def test_non_text_values_are_read_whole_or_refused(value, message):
    assert _error(nonfile, f"title {value}\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n", "f.non") == message


@pytest.mark.parametrize("value,title", [
    ('"The "Big" one"', 'The "Big" one'), ("plain words", "plain words"), ('"&copy 2004 &amp; &#65;&#x42;"', "\u00a9 2004 & AB"),
    ('"&#38;#65;"', "&#65;"),  # (one reading: an escaped & starts no second escape)
    ('"&notit;"', "\u00acit;"),  # (HTML's reading of a legacy name)
])
def test_non_text_values_in_quotes_and_escapes(value, title):
    assert nonfile.load(f"title {value}\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n", "f.non").title == title


def test_a_title_taken_from_the_file_name_has_its_control_characters_escaped(tmp_path, cli):
    # a file that gives no title is titled by its name, which may hold an ESC
    assert nonfile.load("width 1\nheight 1\nrows\n1\ncolumns\n1\n", "d/n\x1b[31m.non").title == "n\\x1b[31m"
    p = tmp_path / "n\x1b[31m.non"
    p.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    r = cli("info", p)
    assert r.code == 0 and "\x1b" not in r.out + r.err
    assert r.out.splitlines()[0] == "n\\x1b[31m"


# ------------------------------- QA: a goal's closing quote, colour lines, colour names

@pytest.mark.parametrize("goal,message", [
    # the goal ran on past its closing quote, swallowing the lines after it
    ('goal "1010" # my goal', "f.non:10: goal: text '# my goal' after the goal's closing quote"),
    ('goal "1010"x', "f.non:10: goal: text 'x' after the goal's closing quote"),
    ('goal "10\n10" mine', "f.non:11: goal: text 'mine' after the goal's closing quote"),
    ('goal "1010" "1010"', "f.non:10: goal: text '\"1010\"' after the goal's closing quote"),
    # a goal without its closing quote stops at the next key, and says so at its own line
    ('goal "1010\ntitle "x"', "f.non:10: goal: no closing quote before line 11's 'title \"x\"'"),
])
def test_non_text_after_the_goals_closing_quote_is_an_error(goal, message):
    assert _error(nonfile, NON_1x4 + goal + "\n", "f.non") == message


def test_non_text_after_a_goal_before_the_clues_is_an_error_at_its_line(tmp_path, cli):
    text = 'width 2\nheight 3\ngoal "110010" # my goal\ntitle "t"\nrows\n1\n1\n1\ncolumns\n1,1\n1\n'
    assert _error(nonfile, text, "f.non") == "f.non:3: goal: text '# my goal' after the goal's closing quote"
    p = tmp_path / "g.non"
    p.write_text(text)
    r = cli("info", p)
    assert (r.code, r.out, r.err.strip()) == (
        2, "", f"puzzlesat: {p}:3: goal: text '# my goal' after the goal's closing quote")


COLOR = ("expected a colour letter (a-z, or A-Z read as a-z), a space and a six-digit hex colour, as in "
         "'color a #ff0000'")


@pytest.mark.parametrize("line,message", [
    ("color hello world", f"f.non:3: malformed color line 'color hello world': {COLOR}"),
    ("color", f"f.non:3: malformed color line 'color': {COLOR}"),
    ("color a", f"f.non:3: malformed color line 'color a': {COLOR}"),
    ("color a #ff00", f"f.non:3: malformed color line 'color a #ff00': {COLOR}"),
    ("color ab #ff0000", f"f.non:3: malformed color line 'color ab #ff0000': {COLOR}"),
    ("color a #ff0000 red", f"f.non:3: malformed color line 'color a #ff0000 red': {COLOR}"),
    ("color 1 #ff0000", f"f.non:3: malformed color line 'color 1 #ff0000': {COLOR}"),
])
def test_non_a_malformed_color_line_is_an_error(line, message):
    # no file of the shared data has a color line; these were accepted silently
    text = f"width 2\nheight 1\n{line}\nrows\n1\ncolumns\n1\n0\n"
    assert _error(nonfile, text, "f.non") == message
    for good in ("color a #ff0000", "color b #80FF80", "color a ff0000"):
        assert nonfile.load(text.replace(line, good), "f.non").rows == [(1,)]


@pytest.mark.parametrize("old,new,message", [
    ('defaultcolor="black"', 'defaultcolor="nosuch"',
     "t.xml:4: colour 'nosuch' is not defined (defaultcolor='nosuch'; webpbn predefines black and white, "
     "a <color> element defines any other)"),
    ('defaultcolor="black"', 'defaultcolor="black" backgroundcolor="nosuch"',
     "t.xml:4: colour 'nosuch' is not defined (backgroundcolor='nosuch'; webpbn predefines black and white, "
     "a <color> element defines any other)"),
    # it read "multicolour puzzles (colours black, nosuch) are not supported yet"
    ("<count>2</count>", '<count color="nosuch">2</count>',
     "t.xml:13: colour 'nosuch' is not defined (<count color='nosuch'>; webpbn predefines black and white, "
     "a <color> element defines any other)"),
])
def test_xml_a_colour_that_is_not_defined_is_an_error(old, new, message):
    assert _error(xmlfile, _tiny(old, new), "t.xml") == message


def test_xml_predefined_and_declared_colours_are_defined():
    bare = XML.replace('<color name="white" char=".">fff</color>\n<color name="black" char="X">000</color>\n', "")
    text = bare.replace('defaultcolor="black"', 'defaultcolor="black" backgroundcolor="white"')
    assert xmlfile.load(text, "t.xml").goal == ((1, 0, 1), (1, 0, 0))
    text = _tiny("<count>2</count>", '<count color="black">2</count>')
    assert xmlfile.load(text, "t.xml").cols == [(2,), (), (1,)]
    text = _tiny('<color name="black" char="X">000</color>', '<color name="ink" char="X">000</color>')
    text = text.replace('defaultcolor="black"', 'defaultcolor="ink"')
    assert xmlfile.load(text, "t.xml").goal == ((1, 0, 1), (1, 0, 0))


def test_a_blank_line_among_clues_that_is_ignored_is_said():
    # a blank line is an empty clue when that gives the right count, else it
    # is dropped; dropped among the clues (not around them), it may be the
    # author's empty row with one clue line too many: it was dropped unsaid (QA)
    warning = "{}:3: blank line among the row clues ignored: the other lines are the 3 clues (an empty clue is written 0)"
    p = ninfile.load("3 3\n1\n\n1\n1\n0\n3\n0\n", "f.nin")
    assert (p.rows, p.cols, p.ignored) == ([(1,), (1,), (1,)], [(), (3,), ()], (warning.format("f.nin"),))
    p = nonfile.load("width 3\nheight 3\nrows\n1\n\n1\n1\ncolumns\n0\n3\n0\n", "f.non")
    assert p.ignored == (warning.format("f.non").replace(":3:", ":5:"),)
    # between the sections, and around them, a blank line only parts them
    assert ninfile.load("3 3\n\n1\n1\n1\n\n0\n3\n0\n\n", "f.nin").ignored == ()
    assert nonfile.load("width 3\nheight 3\nrows\n\n1\n1\n1\n\ncolumns\n0\n3\n0\n", "f.non").ignored == ()
    # and where it gives the right count it is the empty clue it reads as
    p = ninfile.load("3 3\n1\n\n1\n0\n3\n0\n", "f.nin")
    assert (p.rows, p.ignored) == ([(1,), (), (1,)], ())


def test_a_section_whose_blank_lines_can_be_read_two_ways_is_said():
    # a blank line ending the row clues and one among them: the first is
    # taken as a separator and the second as an empty row; the other reading
    # (an empty first row) solves where this one has no solution, and
    # nothing was said (QA)
    p = nonfile.load("width 3\nheight 3\nrows\n\n1,1\n\n3\ncolumns\n2\n1\n2\n", "f.non")
    assert p.rows == [(1, 1), (), (3,)]
    assert p.ignored == ("f.non:4: blank line at the start of the row clues taken as a separator, and line 6's "
                         "as an empty row clue: which blank line is which is a guess (write an empty clue as 0)",)
    p = nonfile.load("width 3\nheight 3\nrows\n2\n1\n2\ncolumns\n1,1\n\n3\n\n", "f.non")
    assert p.cols == [(1, 1), (), (3,)]
    assert p.ignored == ("f.non:11: blank line at the end of the column clues taken as a separator, and line "
                         "9's as an empty column clue: which blank line is which is a guess (write an empty "
                         "clue as 0)",)
    # blank lines that only part the sections, or only stand for empty clues, are no guess
    assert nonfile.load("width 3\nheight 3\nrows\n\n1,1\n0\n3\n\ncolumns\n2\n1\n2\n", "f.non").ignored == ()
    assert nonfile.load("width 3\nheight 3\nrows\n1,1\n\n3\ncolumns\n2\n1\n2\n", "f.non").ignored == ()


def test_a_nin_header_is_read_before_its_clues():
    # 100000 x 100000 was "expected 100,000 row clues then 100,000 column
    # clues, found 1 row clue line and 0 column clue lines" (QA)
    with pytest.raises(InputError) as e:
        ninfile.load("100000 100000\n1\n", "big.nin")
    assert str(e.value) == "big.nin:1: a 100000 x 100000 grid (10,000,000,000 cells) is too large (at most " \
                           "1,000,000 cells)"
    # "3X2" as "3x2"
    p = ninfile.load("3X2\n1\n1\n1\n1\n0\n", "f.nin")
    assert (p.width, p.height, p.rows, p.cols) == (3, 2, [(1,), (1,)], [(1,), (1,), ()])


@pytest.mark.parametrize("reader,text,path,warning,title", [
    # a title the file gives blank was replaced by the file's name (or the
    # catalogue number), or printed as a blank line, without a word (QA)
    (nonfile, 'title ""\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "blank.non",
     "blank.non:1: title is blank: the puzzle is titled 'blank'", "blank"),
    (nonfile, 'catalogue "c-7"\ntitle "   "\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "f.non",
     "f.non:2: title is blank: the puzzle is titled 'c-7'", "c-7"),
    (xmlfile, None, "t.xml", "t.xml:7: title is blank: the puzzle is titled 'webpbn.com #9'", "webpbn.com #9"),
    # a blank catalogue is passed over too, and a title of format characters
    # alone (a zero-width space, a byte-order mark) is blank: it printed as
    # an empty heading, without a word (QA)
    (nonfile, 'catalogue "   "\ntitle ""\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "f.non",
     "f.non:2: title is blank: the puzzle is titled 'f'", "f"),
    (nonfile, 'title "&#x200B;&#xFEFF;"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "zw.non",
     "zw.non:1: title is blank: the puzzle is titled 'zw'", "zw"),
    # a file name that is blank itself, or holds an ESC (shown escaped once)
    (nonfile, 'title ""\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "d/   .non",
     "d/   .non:1: title is blank: the puzzle is titled 'nonogram'", "nonogram"),
    (nonfile, 'title ""\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "a\x1bb.non",
     "a\x1bb.non:1: title is blank: the puzzle is titled 'a\\x1bb'", "a\\x1bb"),
])
def test_a_blank_title_is_replaced_with_a_warning(reader, text, path, warning, title):
    if text is None:
        text = _tiny("<title>Tiny</title>", "<title> </title>")
        assert text.splitlines()[6] == "<title> </title>"
    p = reader.load(text, path)
    assert (p.title, p.ignored) == (title, (warning,))
    assert nonfile.load('title "x"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "f.non").ignored == ()


def test_xml_a_blank_title_takes_its_sets():
    text = _tiny("<title>Tiny</title>", "<title></title>").replace("<puzzleset>\n", "<puzzleset>\n<title>Set</title>\n")
    p = xmlfile.load(text, "t.xml")
    assert (p.title, p.ignored) == ("Set", ())


def test_a_blank_catalogue_is_no_title_either():
    p = nonfile.load('catalogue "   "\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "f.non")
    assert (p.title, p.ignored) == ("f", ())
