"""The 1965 .box format: what it accepts and the exact errors it gives."""

from __future__ import annotations

import pytest

from puzzlesat.errors import InputError
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.boxfile import load

PAPER_4D = """\
BOX / 5 * 3 * 2 * 2
RESERVE / (I) (1, 1, 1, 1), (2, 1, 1, 1), (3, 1, 1, 1),
          (4, 1, 1, 1), (5, 1, 1, 1)
ELEMENT / (I) (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)
ELEMENT / (X) (2, 1), (2, 2), (2, 3), (1, 2), (3, 2)
"""


def test_continuation_lines_fixed_piece_and_short_elements():
    t = load(PAPER_4D, "paper.box")
    assert t.dims == (5, 3, 2, 2)
    # the I is fixed in place: it leaves the piece list and its cells the board
    assert [p.name for p in t.pieces] == ["X"]
    assert t.fixed == [("I", tuple((i, 0, 0, 0) for i in range(5)))]
    assert len(t.board) == 60 - 5
    # a 2-coordinate element in a 4-D box gets the missing coordinates = 1
    assert all(len(c) == 4 and c[2:] == (0, 0) for c in t.piece("X").cells)


def test_holes_and_title():
    t = load_puzzle("pentomino-8x8-hole")
    assert len(t.board) == 60 and len(t.holes) == 4
    assert (3, 3) in t.holes and (3, 3) not in t.board
    assert "8x8" in t.title


def test_same_element_twice_is_one_piece_with_count_two():
    t = load("BOX / 2 * 2\nELEMENT / (D) (1, 1), (1, 2)\nELEMENT / (D) (1, 1), (2, 1)\n", "d.box")
    assert [(p.name, p.count) for p in t.pieces] == [("D", 2)]


def test_congruent_elements_with_different_names_are_merged_and_said():
    t = load("BOX / 2 * 2\nELEMENT / (A) (1, 1), (1, 2)\nELEMENT / (B) (1, 1), (2, 1)\n", "d.box")
    assert [(p.name, p.count) for p in t.pieces] == [("A", 2)]
    assert t.notes == ["piece B is identical to piece A: counted as one piece A with count 2"]


def test_one_sided_comment():
    t = load("# one-sided: L\nBOX / 2 * 4\nELEMENT / (L) (1, 1), (2, 1), (3, 1), (3, 2)\n", "l.box")
    assert t.piece("L").one_sided


@pytest.mark.parametrize("text,message", [
    ("", "f.box: no BOX statement (expected e.g. 'BOX / 6 * 10')"),
    ("BOX / 3 * x\n", "f.box:1: BOX sizes must be whole numbers separated by '*', got '3 * x'"),
    ("BOX / 2 * 2 * 2 * 2 * 2\n", "f.box:1: a BOX has 1 to 4 dimensions, got 5"),
    ("hello\nBOX / 3\n", "f.box:1: expected a BOX, RESERVE or ELEMENT statement, found 'hello'"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, 1, 1)\n", "f.box:2: cell (1, 1, 1) has 3 coordinates, the box has 2 dimensions"),
    ("BOX / 3 * 3\nELEMENT / (A) (0, 1)\n", "f.box:2: cell (0, 1): indices start at 1"),
    ("BOX / 3 * 3\nELEMENT / A (1, 1)\n", "f.box:2: ELEMENT needs a symbol in parentheses, e.g. 'ELEMENT / (X) (1, 1), ...'"),
    ("BOX / 3 * 3\nRESERVE / (*) (4, 1)\n", "f.box:2: reserved cell (4, 1) lies outside the 3 * 3 box"),
    ("BOX / 3 * 3\nRESERVE / (Q) (1, 1)\n", "f.box:2: RESERVE (Q) names no ELEMENT; use (*) for holes"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, 1), (1, 1)\n", "f.box:2: cell (1, 1) is listed twice"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, 1), (1, 2)\nELEMENT / (A) (1, 1)\n",
     "f.box:3: piece A defined again with a different shape (first at line 2)"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, 1) junk\n",
     "f.box:2: unexpected text 'junk': cells are written (i, j, ...) separated by commas"),
    ("BOX / 3 * 3\nRESERVE / (A) (1, 1), (2, 2)\nELEMENT / (A) (1, 1), (1, 2)\n",
     "f.box:2: RESERVE (A): these cells are not a placement of piece A"),
])
def test_errors_name_file_line_and_problem(text, message):
    with pytest.raises(InputError) as e:
        load(text, "f.box")
    assert str(e.value) == message


def test_piece_larger_than_box_is_refused_at_its_line():
    t = load("BOX / 2 * 2\nELEMENT / (I) (1, 1), (2, 1), (3, 1)\nELEMENT / (O) (1, 1)\n", "f.box")
    with pytest.raises(InputError) as e:
        t.compile()
    assert str(e.value) == "f.box:2: piece I fits nowhere on the board"
