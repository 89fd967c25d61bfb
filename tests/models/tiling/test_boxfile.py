"""The 1965 .box format: what it accepts and the exact errors it gives."""

from __future__ import annotations

import pytest

from puzzlesat.errors import InputError
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.boxfile import load


def _refusal(text: str) -> str:
    """The message loading ``text`` as f.box is refused with."""
    with pytest.raises(InputError) as e:
        load(text, "f.box")
    return str(e.value)

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


@pytest.mark.parametrize("command", ["solve", "count", "export"])
def test_the_merge_is_said_by_every_command_that_reads_the_file(cli, tmp_path, command):
    # only info said it: solve drew B as A, and count counted one piece of count 2, unsaid (QA)
    f = tmp_path / "d.box"
    f.write_text("BOX / 2 * 2\nELEMENT / (A) (1, 1), (1, 2)\nELEMENT / (B) (1, 1), (2, 1)\n")
    r = cli(command, f, *(["-o", tmp_path / "d.cnf"] if command == "export" else []))
    assert r.code == 0, r.err
    assert r.err.splitlines()[0] == (f"puzzlesat: note: {f}: piece B is identical to piece A: counted as one "
                                     "piece A with count 2")
    assert len(r.err.splitlines()) == 1 + (command == "export")  # (export's "wrote ...")
    r = cli("info", f)
    assert "puzzlesat: note:" not in r.err and "piece B is identical to piece A" in r.out


def test_a_one_sided_piece_that_is_its_own_mirror_image_is_the_free_piece():
    # a one-sided domino lies the same ways as a free one: one piece, or
    # swapping the two copies would count each tiling twice
    t = load("# one-sided: A\nBOX / 2 * 2\nELEMENT / (A) (1, 1), (1, 2)\nELEMENT / (B) (1, 1), (2, 1)\n", "d.box")
    assert [(p.name, p.count) for p in t.pieces] == [("A", 2)]
    assert t.notes == ["piece B is identical to piece A: counted as one piece A with count 2",
                       "one_sided changes nothing for piece A: it is its own mirror image"]
    # a one-sided L is not the free L (it cannot turn over)
    t = load("# one-sided: A\nBOX / 2 * 4\nELEMENT / (A) (1, 1), (2, 1), (3, 1), (3, 2)\n"
             "ELEMENT / (B) (1, 1), (2, 1), (3, 1), (3, 2)\n", "l.box")
    assert [(p.name, p.count) for p in t.pieces] == [("A", 1), ("B", 1)]


def test_reserve_may_name_a_piece_merged_into_another():
    t = load("BOX / 2 * 4\nELEMENT / (A) (1, 1), (1, 2)\nELEMENT / (B) (1, 1), (1, 2)\n"
             "ELEMENT / (C) (1, 1), (1, 2)\nELEMENT / (D) (1, 1), (1, 2)\nRESERVE / (B) (2, 3), (2, 4)\n", "r.box")
    assert [(p.name, p.count) for p in t.pieces] == [("A", 3)]
    assert t.fixed == [("A", ((1, 2), (1, 3)))]


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
    # a name with a space: it said a symbol in parentheses was needed, and there was one
    ("BOX / 3 * 3\nELEMENT / (A B) (1, 1)\n", "f.box:2: ELEMENT symbol 'A B' holds a space; a piece name is one word"),
    ("BOX / 3 * 3\nELEMENT / (1, 1), (1, 2)\n",
     "f.box:2: ELEMENT needs a symbol in parentheses, e.g. 'ELEMENT / (X) (1, 1), ...'"),
    ("BOX / 3 * 3\nRESERVE / (*) (4, 1)\n", "f.box:2: reserved cell (4, 1) lies outside the 3 * 3 box"),
    ("BOX / 3 * 3\nRESERVE / (Q) (1, 1)\n", "f.box:2: RESERVE (Q) names no ELEMENT; use (*) for holes"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, 1), (1, 1)\n", "f.box:2: cell (1, 1) is listed twice"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, 1), (1, 2)\nELEMENT / (A) (1, 1)\n",
     "f.box:3: piece A defined again with a different shape (first at line 2)"),
    ("# one-sided: A\nBOX / 3 * 3\nELEMENT / (A) (1, 1), (2, 1), (2, 2)\nELEMENT / (B) (1, 1), (2, 1), (2, 2)\n"
     "ELEMENT / (B) (1, 1), (1, 2)\n", "f.box:5: piece B defined again with a different shape (first at line 4)"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, 1) junk\n",
     "f.box:2: unexpected text 'junk': cells are written (i, j, ...) separated by commas"),
    ("BOX / 3 * 3\nRESERVE / (A) (1, 1), (2, 2)\nELEMENT / (A) (1, 1), (1, 2)\n",
     "f.box:2: RESERVE (A): these cells are not a placement of piece A"),
    # the acceptance review's: the line of the text at fault, keys given once
    ("# expected-count: 3\nBOX / 1 * 2\n# expected-count: 5\nELEMENT / (D) (1, 1), (1, 2)\n",
     "f.box:3: '# expected-count:' given twice (first at line 1)"),
    ("# Title: a\n# title: b\nBOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n",
     "f.box:2: '# title:' given twice (first at line 1)"),
    # a statement over three lines: the duplicate is on the third
    ("BOX / 2 * 2\nELEMENT / (A) (1, 1),\n  (1, 2),\n  (1, 1)\n",
     "f.box:4: cell (1, 1) is listed twice (first at line 2)"),
    ("BOX / 2 * 2\nELEMENT / (A) (1, 1),\n  (1, 2, 1)\n",
     "f.box:3: cell (1, 2, 1) has 3 coordinates, the box has 2 dimensions"),
    ("BOX / 2\nELEMENT / (A) (1, 1)\n", "f.box:2: cell (1, 1) has 2 coordinates, the box has 1 dimension"),
    ("BOX / 2 * 2\nRESERVE / (*) (1, 1)\nRESERVE / (*) (1, 2),\n  (1, 1)\nELEMENT / (D) (2, 1), (2, 2)\n",
     "f.box:4: cell (1, 1) is reserved twice (first at line 2)"),
    ("BOX / 2 * 2\nRESERVE / (*) (1, 1),\n  (3, 1)\n", "f.box:3: reserved cell (3, 1) lies outside the 2 * 2 box"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, 1),\n  junk\n",
     "f.box:3: unexpected text 'junk': cells are written (i, j, ...) separated by commas"),
    # the user's text as written, commas included
    ("BOX / 3 * 3\nELEMENT / (A) (1, 1), (3, 2\n",
     "f.box:2: unexpected text '(3, 2' (a '(' without its ')'): cells are written (i, j, ...) separated by commas"),
    ("# one-sided: A\n# one-sided: Q\nBOX / 1 * 2\nELEMENT / (A) (1, 1), (1, 2)\n",
     "f.box:2: '# one-sided:' names no ELEMENT Q"),
])
def test_errors_name_file_line_and_problem(text, message):
    assert _refusal(text) == message


def test_piece_larger_than_box_is_no_solution_naming_its_line():
    # since 368e848 a well-formed file whose piece fits nowhere is no solution (exit 1), not bad input
    t = load("BOX / 2 * 2\nELEMENT / (I) (1, 1), (2, 1), (3, 1)\nELEMENT / (O) (1, 1)\n", "f.box")
    assert t.precheck() == "piece I (f.box:2) fits nowhere on the board"


# ------------------------------------------------ huge boards, refused early

@pytest.mark.parametrize("text,message", [
    ("BOX / 100000 * 100000\n", "f.box:1: a board of 10,000,000,000 cells is too large (at most 1,000,000)"),
    ("BOX / 100000000000000000000000000000 * 1\n",
     "f.box:1: a board of 100,000,000,000,000,000,000,000,000,000 cells is too large (at most 1,000,000)"),
    ("BOX / 1000 * 1001\n", "f.box:1: a board of 1,001,000 cells is too large (at most 1,000,000)"),
    ("BOX / 2 * 100 * 100 * 100\n", "f.box:1: a board of 2,000,000 cells is too large (at most 1,000,000)"),
    # more digits than int() reads (4,300): still a size, counted without reading it
    ("BOX / 3 * " + "9" * 5000 + "\n", "f.box:1: a board of at least 10^4999 cells is too large (at most 1,000,000)"),
    ("# title: t\nBOX / 100000 *\n      100000\nELEMENT / (D) (1, 1), (1, 2)\n",
     "f.box:2: a board of 10,000,000,000 cells is too large (at most 1,000,000)"),
])
def test_a_board_too_large_is_refused_before_any_cell_is_made(text, message):
    assert _refusal(text + "ELEMENT / (D) (1, 1), (1, 2)\n") == message


def test_the_cap_is_on_cells_and_inclusive(monkeypatch):
    from puzzlesat.models.tiling import build
    monkeypatch.setattr(build, "MAX_BOARD_CELLS", 12)
    assert len(load("BOX / 3 * 4\nELEMENT / (D) (1, 1), (1, 2)\n", "f.box").board) == 12
    assert _refusal("BOX / 13\nELEMENT / (D) (1), (2)\n") == "f.box:1: a board of 13 cells is too large (at most 12)"


def test_every_bundled_board_is_far_below_the_cap():
    from puzzlesat.loading import bundled
    from puzzlesat.models.tiling.build import MAX_BOARD_CELLS
    for name, path in bundled().items():
        if path.suffix in (".box", ".toml"):
            t = load_puzzle(name)
            assert 100 * (len(t.board) + len(t.holes)) < MAX_BOARD_CELLS, name


def test_a_huge_board_is_exit_2_without_a_traceback(tmp_path, cli):
    f = tmp_path / "big.box"
    f.write_text("BOX / 100000 * 100000\nELEMENT / (D) (1, 1), (1, 2)\n")
    r = cli("count", f)
    assert r.code == 2 and "Traceback" not in r.err
    assert r.err.strip() == f"puzzlesat: {f}:1: a board of 10,000,000,000 cells is too large (at most 1,000,000)"


# --------------------------------------------- pieces are connected, as in .toml

@pytest.mark.parametrize("text,message", [
    ("BOX / 2 * 2\nELEMENT / (D) (1, 1), (2, 2)\nELEMENT / (D) (1, 1), (2, 2)\n",
     "f.box:2: piece D is not connected on the square lattice (its cells must share edges)"),
    ("BOX / 2 * 2 * 2\nELEMENT / (D) (1, 1, 1), (1, 2, 2)\n",
     "f.box:2: piece D is not connected on the cubic lattice (its cells must share edges)"),
    ("BOX / 5\nELEMENT / (D) (1), (3)\n",
     "f.box:2: piece D is not connected on the line lattice (its cells must share edges)"),
    # short cells in a 4-D box are flat pieces: connected in their plane or not at all
    ("BOX / 3 * 3 * 2 * 2\nELEMENT / (L) (1, 1), (2, 1), (3, 2)\n",
     "f.box:2: piece L is not connected on the cubic4 lattice (its cells must share edges)"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, 1), (1, 2)\nELEMENT / (B) (1, 1),\n    (3, 3)\n",
     "f.box:3: piece B is not connected on the square lattice (its cells must share edges)"),
])
def test_a_disconnected_element_is_refused(text, message):
    assert _refusal(text) == message


def test_connected_elements_in_higher_dimensions_load():
    t = load("BOX / 2 * 2 * 2\nELEMENT / (D) (1, 1, 1), (1, 1, 2)\nELEMENT / (V) (1, 1), (2, 1), (2, 2)\n", "f.box")
    assert sorted(p.name for p in t.pieces) == ["D", "V"]


# --------------------------------- a keyword without "/" is not a continuation

@pytest.mark.parametrize("text,message", [
    ("BOX / 2 * 4\nELEMENT (D) (1,1), (1,2)\n",
     "f.box:2: 'ELEMENT' must be followed by ' / ' (ELEMENT / (NAME) (r, c), ...)"),
    ("BOX / 2 * 4\nelement (D) (1,1), (1,2)\n",
     "f.box:2: 'ELEMENT' must be followed by ' / ' (ELEMENT / (NAME) (r, c), ...)"),
    ("BOX / 2 * 4\nELEMENT / (D) (1, 1), (1, 2)\n  Reserve (*) (2, 1)\n",
     "f.box:3: 'RESERVE' must be followed by ' / ' (RESERVE / (*) (r, c), ...)"),
    ("BOX 2 * 4\nELEMENT / (D) (1, 1), (1, 2)\n", "f.box:1: 'BOX' must be followed by ' / ' (BOX / 5 * 4 * 3)"),
    ("BOX / 2 * 4\nELEMENT(D) (1, 1), (1, 2)\n",
     "f.box:2: 'ELEMENT' must be followed by ' / ' (ELEMENT / (NAME) (r, c), ...)"),
    ("BOX / 2 * 4\nELEMNT / (D) (1, 1), (1, 2)\n", "f.box:2: unknown statement 'ELEMNT'; expected BOX, RESERVE or ELEMENT"),
])
def test_a_keyword_without_slash_is_reported_at_its_own_line(text, message):
    assert _refusal(text) == message


def test_genuine_continuations_still_continue():
    t = load("BOX / 2 *\n  4\nRESERVE / (*) (1, 1),\n  (1, 2)\nELEMENT / (D) (1, 1),\n  (1, 2)\n"
             "ELEMENT / (D)\n  (1, 1), (1, 2)\nELEMENT / (D) (1, 1), (1, 2)\n", "f.box")
    assert t.dims == (2, 4) and t.holes == {(0, 0), (0, 1)}
    assert [(p.name, p.count, len(p.cells)) for p in t.pieces] == [("D", 3, 2)]


# ------------------------------------------------ echoed text stays short

@pytest.mark.parametrize("text,message", [
    ("hello" * 100 + "\n",
     "f.box:1: expected a BOX, RESERVE or ELEMENT statement, found '" + ("hello" * 12)[:57] + "...'"),
    ("BOX / 3 * " + "x" * 200 + "\n",
     "f.box:1: BOX sizes must be whole numbers separated by '*', got '3 * " + "x" * 53 + "...'"),
    ("BOX / 3 * -" + "3" * 200 + "\n", "f.box:1: BOX sizes must be positive, got '3 * -" + "3" * 52 + "...'"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, 1) " + "junk " * 40 + "\n",
     "f.box:2: unexpected text '" + ("junk " * 12)[:57] + "...': cells are written (i, j, ...) separated by commas"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, " + "y" * 100 + ")\n",
     "f.box:2: cell (1, " + "y" * 54 + "...) must be whole numbers separated by commas"),
    ("BOX / 3 * 3\nELEMENT / (A) (" + "1, " * 50 + "1)\n",
     "f.box:2: cell (" + ("1, " * 19) + "...) has 51 coordinates, the box has 2 dimensions"),
    ("BOX / 3 * 3\nELEMENT / (A) (1, " + "9" * 5000 + ")\n",
     "f.box:2: cell (1, " + "9" * 54 + "...): a coordinate of 5,000 digits is too large"),
    ("BOX / 3 * 3\nRESERVE / (*) (1, " + "9" * 100 + ")\n",
     "f.box:2: reserved cell (1, " + "9" * 54 + "...) lies outside the 3 * 3 box"),
    ("BOX / 3 * 3\nRESERVE / (" + "Q" * 100 + ") (1, 1)\n",
     "f.box:2: RESERVE (" + "Q" * 57 + "...) names no ELEMENT; use (*) for holes"),
    ("BOX / 3 * 3\nELEMENT / (" + "Q" * 100 + ") (1, 1), (3, 3)\n",
     "f.box:2: piece " + "Q" * 57 + "... is not connected on the square lattice (its cells must share edges)"),
    ("# expected-count: " + "many " * 30 + "\nBOX / 3 * 3\nELEMENT / (A) (1, 1)\n",
     "f.box:1: '# expected-count:' must be a whole number, got '" + ("many " * 12)[:57] + "...'"),
])
def test_echoed_text_is_shortened(text, message):
    assert _refusal(text) == message


# ----------------------------- comment extensions: values checked, typos said

@pytest.mark.parametrize("text,message", [
    ("# title:\n", "f.box:1: '# title:' has no value; expected a one-line title"),
    ("# source:   \n", "f.box:1: '# source:' has no value; expected where the puzzle comes from"),
    ("# one-sided:\n", "f.box:1: '# one-sided:' has no value; expected the names of ELEMENTs, e.g. '# one-sided: L N'"),
    ("# expected-count:\n", "f.box:1: '# expected-count:' has no value; expected a whole number"),
    # as the .toml reader's "expected count must be at least 0"
    ("# expected-count: -5\n", "f.box:1: '# expected-count:' must be at least 0, got -5"),
    ("# expected-unique: -1\n", "f.box:1: '# expected-unique:' must be at least 0, got -1"),
    ("# expected-count: 1_000\n", "f.box:1: '# expected-count:' must be a whole number, got '1_000'"),
    ("# expected-count: ٥\n",
     "f.box:1: '# expected-count:' '٥': '٥' (U+0665 ARABIC-INDIC DIGIT FIVE) is not an ASCII digit 0-9"),
    ("# expected-count: 1" + "0" * 1001 + "\n", "f.box:1: '# expected-count:' must be at most 10^1000, got at least 10^1001"),
    ("# expected-count: 1" + "0" * 5000 + "\n", "f.box:1: '# expected-count:' must be at most 10^1000, got at least 10^5000"),
])
def test_a_known_comment_key_needs_a_good_value(text, message):
    assert _refusal(text + "BOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n") == message


def test_expected_counts_of_zero_are_read():
    t = load("# expected-count: 0\n# expected-unique: 00\nBOX / 1 * 3\nELEMENT / (D) (1, 1), (1, 2)\n", "f.box")
    assert t.expected == {"count": 0, "unique": 0}


KEYS = "the keys are title, source, expected-count, expected-unique, one-sided"


@pytest.mark.parametrize("comment,warning", [
    ("# titel: x", "f.box:1: unknown comment key 'titel' read as a comment (a misspelling of 'title'?)"),
    ("# frobnicate: 3", f"f.box:1: unknown comment key 'frobnicate' read as a comment ({KEYS})"),
    ("#one-side: L", "f.box:1: unknown comment key 'one-side' read as a comment (a misspelling of 'one-sided'?)"),
    ("# expected_count: 8",
     "f.box:1: unknown comment key 'expected_count' read as a comment (a misspelling of 'expected-count'?)"),
    # another case or several words: a key only when close to a known one
    ("# Expected count: 8",
     "f.box:1: unknown comment key 'Expected count' read as a comment (a misspelling of 'expected-count'?)"),
    ("# Titel: x", "f.box:1: unknown comment key 'Titel' read as a comment (a misspelling of 'title'?)"),
    ("# note:", f"f.box:1: unknown comment key 'note' read as a comment ({KEYS})"),
])
def test_a_comment_that_reads_as_an_unknown_key_is_a_warning(comment, warning):
    t = load(comment + "\nBOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n", "f.box")
    assert t.ignored == (warning,)
    assert t.title == "f" and not t.expected and not t.pieces[0].one_sided  # read as a comment


@pytest.mark.parametrize("comment,key,value", [
    ("# one-sided L", "one-sided", "L"), ("# one-sided = L", "one-sided", "L"), ("# One-Sided L", "one-sided", "L"),
    ("# expected-count 3", "expected-count", "3"), ("#expected-count = 3", "expected-count", "3"),
    ("# expected-unique 7", "expected-unique", "7"), ("# title my puzzle", "title", "my puzzle"),
    ("# source", "source", "..."), ("# one_sided L", "one-sided", "L"), ("# expected_count 3", "expected-count", "3"),
])
def test_a_known_key_without_its_colon_is_a_warning(comment, key, value):
    # QA: "# one-sided L" was a plain comment without a word, and the count
    # of four L tetrominoes in 4x4 came out 10 instead of 3
    t = load(comment + "\nBOX / 1 * 2\nELEMENT / (L) (1, 1), (1, 2)\n", "f.box")
    assert t.ignored == (f"f.box:1: '# {key}' without a ':' is read as a comment, not as the key "
                         f"(write '# {key}: {value}')",)
    assert t.title == "f" and not t.expected and not t.pieces[0].one_sided  # read as a comment


def test_a_suggested_value_leaves_out_its_format_characters():
    # a zero-width space in the value was printed as it is: the suggestion
    # looked like "L", and copied it named no piece (a name holds none);
    # written as an escape, it was typed as one (review)
    t = load("# one-sided L\u200b\n# title 👩\u200d💻 x\u00ad\nBOX / 1 * 2\nELEMENT / (L) (1, 1), (1, 2)\n", "f.box")
    assert t.ignored == ("f.box:1: '# one-sided' without a ':' is read as a comment, not as the key "
                         "(write '# one-sided: L', without its format character (U+200B ZERO WIDTH SPACE))",
                         "f.box:2: '# title' without a ':' is read as a comment, not as the key "
                         "(write '# title: 👩\u200d💻 x', without its format character (U+00AD SOFT HYPHEN))")


@pytest.mark.parametrize("comment", [
    "# Title of the puzzle", "# one-sidedness", "# titles", "# sourced from x",
    # prose with a key's word first (QA): punctuation after it, or a ":" later
    "# source code: https://github.com/x/y", "# title, source and counts are below", "# title.",
    "# a plain comment", "# Note: the I is fixed", "# see http://example.org/x", "# http://example.org",
    "# Isobe, 1965: the paper", "#", "# 12:30", "# (1, 1): a corner",
])
def test_plain_comments_stay_quiet_comments(comment):
    t = load(comment + "\nBOX / 1 * 2  " + comment + "\nELEMENT / (D) (1, 1), (1, 2)\n", "f.box")
    assert t.ignored == () and t.title == "f"


def test_a_long_s_in_a_key_is_read_as_an_s():
    # the case-blind match took "ſ" for "s", and lower() kept it: a key of
    # no known name, a KeyError traceback without a value (QA)
    t = load("# one-ſided: L\n# ſource: x\nBOX / 1 * 4\nELEMENT / (L) (1, 1), (1, 2)\n", "f.box")
    assert t.pieces[0].one_sided and t.source == "x" and t.ignored == ()
    assert _refusal("# one-ſided:\nBOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n") == (
        "f.box:1: '# one-sided:' has no value; expected the names of ELEMENTs, e.g. '# one-sided: L N'")


def test_a_misspelt_key_line_gets_one_warning():
    # "# one-sided L N: what" read as the key 'one-sided L N' (misspelt) and
    # also as 'one-sided' without its ':' (QA: two warnings for one line)
    t = load("# one-sided L N: what\nBOX / 1 * 2\nELEMENT / (L) (1, 1), (1, 2)\n", "f.box")
    assert t.ignored == (
        "f.box:1: unknown comment key 'one-sided L N' read as a comment (a misspelling of 'one-sided'?)",)


def test_a_key_in_a_comment_after_a_statement_is_not_read_and_is_said():
    # keys are read on a line of their own; after a statement one was a
    # comment with no word, though it looks like a key (QA)
    t = load("BOX / 1 * 2   # expected-count: 7\nELEMENT / (D) (1, 1), (1, 2)  #Title: x\n", "f.box")
    assert t.ignored == (
        "f.box:1: '# expected-count:' after a statement is a plain comment, not read: a key goes on a line of its own",
        "f.box:2: '# title:' after a statement is a plain comment, not read: a key goes on a line of its own")
    assert t.expected == {} and t.title == "f"


def test_the_warnings_are_printed_before_the_error_when_the_file_is_refused(tmp_path, cli):
    f = tmp_path / "k.box"
    f.write_text("# titel: two dominoes\nBOX / 2 * 2\nELEMENT / (D) (1, 1), (1 2)\n")
    r = cli("info", f)
    assert r.code == 2
    assert r.err.splitlines() == [
        f"puzzlesat: warning: {f}:1: unknown comment key 'titel' read as a comment (a misspelling of 'title'?)",
        f"puzzlesat: {f}:3: cell (1 2) must be whole numbers separated by commas"]


def test_the_unknown_key_warning_reaches_the_cli(tmp_path, cli):
    f = tmp_path / "k.box"
    f.write_text("# titel: two dominoes\nBOX / 2 * 2\nELEMENT / (D) (1, 1), (1, 2)\nELEMENT / (D) (1, 1), (1, 2)\n")
    r = cli("info", f)
    assert r.code == 0
    assert f"puzzlesat: warning: {f}:1: unknown comment key 'titel' read as a comment (a misspelling of 'title'?)" \
        in r.err.splitlines()


# ------------------------------------------------ cells: commas, digits, names

C = "cells are written (i, j, ...) separated by commas"


@pytest.mark.parametrize("text,message", [
    ("ELEMENT / (D) (1, 1), (1, 2),\n", f"f.box:2: a ',' after the last cell (1, 2): {C}"),
    ("ELEMENT / (D) (1, 1),\n   (1, 2),\n", f"f.box:3: a ',' after the last cell (1, 2): {C}"),
    ("ELEMENT / (D) , (1, 1), (1, 2)\n", f"f.box:2: a ',' before the first cell (1, 1): {C}"),
    ("ELEMENT / (D) (1, 1) (1, 2)\n", f"f.box:2: no ',' between (1, 1) and (1, 2): {C}"),
    ("ELEMENT / (D) (1, 1)\n   (1, 2)\n", f"f.box:3: no ',' between (1, 1) and (1, 2): {C}"),
    ("ELEMENT / (D) (1, 1),\n  , (1, 2)\n", f"f.box:3: 2 commas between (1, 1) and (1, 2): {C}"),
    ("RESERVE / (*) (2, 1) (2, 2)\nELEMENT / (D) (1, 1), (1, 2)\n",
     f"f.box:2: no ',' between (2, 1) and (2, 2): {C}"),
    ("ELEMENT / (*) (1, 1), (1, 2)\nELEMENT / (D) (2, 1), (2, 2)\n",
     "f.box:2: ELEMENT (*): '*' is RESERVE's symbol for holes, not a piece name"),
    ("ELEMENT / (D) (١, 1), (1, 2)\n", "f.box:2: cell (١, 1): '١' (U+0661 ARABIC-INDIC DIGIT ONE) is not an ASCII digit 0-9"),
    ("ELEMENT / (D) (1, 1), (1, ２)\n", "f.box:2: cell (1, ２): '２' (U+FF12 FULLWIDTH DIGIT TWO) is not an ASCII digit 0-9"),
    ("ELEMENT / (D) (1, 1), (1, 1_0)\n", "f.box:2: cell (1, 1_0) must be whole numbers separated by commas"),
])
def test_cells_are_written_as_the_format_says(text, message):
    assert _refusal("BOX / 2 * 2\n" + text) == message


@pytest.mark.parametrize("box,message", [
    ("BOX / ２ * 2", "f.box:1: BOX sizes '２ * 2': '２' (U+FF12 FULLWIDTH DIGIT TWO) is not an ASCII digit 0-9"),
    ("BOX / ٢ * 2", "f.box:1: BOX sizes '٢ * 2': '٢' (U+0662 ARABIC-INDIC DIGIT TWO) is not an ASCII digit 0-9"),
    ("BOX / 1_0 * 2", "f.box:1: BOX sizes must be whole numbers separated by '*', got '1_0 * 2'"),
])
def test_box_sizes_are_ascii_digits(box, message):
    assert _refusal(box + "\nELEMENT / (D) (1, 1), (1, 2)\n") == message


def test_white_space_between_cells_may_be_tabs():
    t = load("BOX / 2 * 2\nELEMENT / (D)\t(1, 1),\t(1,\t2)\n", "f.box")
    assert [p.name for p in t.pieces] == ["D"]


@pytest.mark.parametrize("text,message", [
    ("BOX / 2 * 2\nELEMENT / (\x1b[31mX) (1, 1), (1, 2)\n",
     "f.box:2: 'ELEMENT / (\\x1b[31mX) (1, 1), (1, 2)' holds a control character (U+001B)"),
    ("BOX / 2 * 2\nELEMENT / (X) (1, 1), (1, 2)\nRESERVE / (X\x07) (1, 1), (1, 2)\n",
     "f.box:3: 'RESERVE / (X\\x07) (1, 1), (1, 2)' holds a control character (U+0007)"),
    ("# title: red \x1b[31mtext\nBOX / 1 * 2\nELEMENT / (X) (1, 1), (1, 2)\n",
     "f.box:1: '# title:' 'red \\x1b[31mtext' holds a control character (U+001B)"),
    ("# source: a\x9bb\nBOX / 1 * 2\nELEMENT / (X) (1, 1), (1, 2)\n",
     "f.box:1: '# source:' 'a\\x9bb' holds a control character (U+009B)"),
    ("BOX / 1 * 2\n# one-sided: X\x1b\nELEMENT / (X) (1, 1), (1, 2)\n",
     "f.box:2: '# one-sided:' 'X\\x1b' holds a control character (U+001B)"),
    # a right-to-left override would turn the legend line around on the terminal
    ("BOX / 1 * 2\nELEMENT / (X\u202e) (1, 1), (1, 2)\n",
     "f.box:2: 'ELEMENT / (X\\u202e) (1, 1), (1, 2)' holds a bidirectional control character (U+202E)"),
])
def test_control_characters_are_refused(text, message):
    assert _refusal(text) == message


def test_line_numbers_count_line_feeds_only():
    # str.splitlines() also breaks at U+2028 and U+0085: the error was one line late
    assert _refusal("# a comment\u2028with a line separator\nBOX / 2 * 2\nELEMENT / (D) (1, 1), (1 2)\n") == (
        "f.box:3: cell (1 2) must be whole numbers separated by commas")
    assert _refusal("# \x85\nBOX / 2 * 2\nELEMENT / (D) (1, 1), (1 2)\n") == (
        "f.box:3: cell (1 2) must be whole numbers separated by commas")


def test_a_zero_width_joiner_is_no_control_character_in_a_title_but_refused_in_a_name():
    # in a title a format character other than the bidirectional ones is harmless (an emoji sequence) ...
    assert load("# title: \U0001F469\u200d\U0001F4BB\nBOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n",
                "f.box").title == "\U0001F469\u200d\U0001F4BB"
    # ... and in a name between two symbols (the sequence prints as one sign) ...
    assert [p.name for p in load("BOX / 1 * 2\nELEMENT / (\U0001F469\u200d\U0001F4BB) (1, 1), (1, 2)\n",
                                 "f.box").pieces] == ["\U0001F469\u200d\U0001F4BB"]
    # ... but elsewhere in a name, which tells pieces apart: 'D' and 'D' + U+200D would print alike
    assert _refusal("BOX / 1 * 2\nELEMENT / (D\u200d) (1, 1), (1, 2)\n") == (
        "f.box:2: ELEMENT name 'D\\u200d' holds a format character (U+200D ZERO WIDTH JOINER), "
        "which does not print")


def test_a_control_character_is_a_cli_error_that_does_not_reach_the_terminal(tmp_path, cli):
    f = tmp_path / "esc.box"
    f.write_text("BOX / 1 * 2\nELEMENT / (\x1b[31mX) (1, 1), (1, 2)\n")
    for args in (("info", f), ("info", "--json", f)):
        r = cli(*args)
        assert r.code == 2 and "Traceback" not in r.err and "\x1b" not in r.out + r.err
        assert f"{f}:2: 'ELEMENT / (\\x1b[31mX) (1, 1), (1, 2)' holds a control character (U+001B)" in r.err


def test_a_tab_in_a_title_is_white_space():
    assert load("# title: a\tb\nBOX / 1 * 2\nELEMENT / (X) (1, 1), (1, 2)\n", "f.box").title == "a\tb"


# ------------------------------------- QA: the line of the text at fault, pieces capped

STRAY = ("'hello' is not a BOX size (sizes are whole numbers separated by '*'); a line that starts with no "
         "keyword continues the statement before it, here the BOX of line 1")


def test_a_stray_line_after_box_is_reported_at_its_own_line(tmp_path, cli):
    f = tmp_path / "stray.box"
    f.write_text("BOX / 2 * 4\nhello\n" + "ELEMENT / (D) (1, 1), (1, 2)\n" * 4)
    r = cli("info", f)
    assert (r.code, r.out, r.err.strip()) == (2, "", f"puzzlesat: {f}:2: {STRAY}")


@pytest.mark.parametrize("text,message", [
    ("BOX / 2 * 4\n  hello\n", f"f.box:2: {STRAY}"),
    ("BOX / 2 *\n  4\nhello\n", f"f.box:3: {STRAY}"),
    # a size that is no number, or not positive, on a continuation line: that line
    ("BOX / 2 *\n  x\n", "f.box:2: BOX sizes must be whole numbers separated by '*', got '2 * x'"),
    ("BOX / 2 *\n  0\n", "f.box:2: BOX sizes must be positive, got '2 * 0'"),
    ("BOX / 2 *\n  \uff14\n",
     "f.box:2: BOX sizes '2 * \uff14': '\uff14' (U+FF14 FULLWIDTH DIGIT FOUR) is not an ASCII digit 0-9"),
    # text after a size on its own line is the whole statement's problem, as before
    ("BOX / 2 * 4 hello\n", "f.box:1: BOX sizes must be whole numbers separated by '*', got '2 * 4 hello'"),
])
def test_box_size_problems_are_at_the_line_of_the_size(text, message):
    assert _refusal(text + "ELEMENT / (D) (1, 1), (1, 2)\n") == message


def test_a_piece_larger_than_a_board_may_be_is_refused_before_any_work(monkeypatch):
    from puzzlesat.models.tiling import boxfile, build
    text = "BOX / 3\nELEMENT / (H) (1), (2),\n  (3)\nELEMENT / (D) (1), (2)\n"
    monkeypatch.setattr(build, "MAX_BOARD_CELLS", 3)
    assert [len(p.cells) for p in load(text, "f.box").pieces] == [3, 2]
    monkeypatch.setattr(build, "MAX_BOARD_CELLS", 2)
    monkeypatch.setattr(boxfile, "is_connected", None)  # refused before anything is done with its cells
    assert _refusal(text.replace("BOX / 3", "BOX / 2")) == (
        "f.box:2: piece H of 3 cells is too large (at most 2, as a board)")


@pytest.mark.parametrize("comment", ["# Title: two", "#title:two", "#  TITLE :two"])
def test_comment_keys_are_read_in_any_case_and_spacing(comment):
    assert load(comment + "\nBOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n", "f.box").title == "two"


def test_a_title_taken_from_the_file_name_has_its_control_characters_escaped():
    t = load("BOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n", "d/x\x1b]0;\x07y.box")
    assert t.title == "x\\x1b]0;\\x07y"


# ------------------------------------------ QA: no pieces, '+' signs, merge notes, names

NO_ELEMENT = "no ELEMENT statement (expected e.g. 'ELEMENT / (D) (1, 1), (1, 2)'): a puzzle needs pieces"


@pytest.mark.parametrize("text", [
    "# title: t\n# expected-unique: 2339\nBOX / 6 * 10\n",
    "BOX / 2 * 2\nRESERVE / (*) (1, 1), (1, 2)\n",
])
def test_a_file_without_an_element_is_refused(text):
    # the pieces covered 0 cells: "0 solutions", exit 0 (a file cut after its BOX line)
    assert _refusal(text) == f"f.box: {NO_ELEMENT}"


def test_a_file_cut_after_its_box_line_is_bad_input(tmp_path, cli):
    from puzzlesat.loading import bundled
    f = tmp_path / "t.box"
    f.write_text("".join(bundled()["pentomino-6x10"].read_text().splitlines(keepends=True)[:3]))
    assert f.read_text().endswith("BOX / 6 * 10\n")
    for command in ("count", "solve"):
        r = cli(command, f)
        assert (r.code, r.out, r.err.strip()) == (2, "", f"puzzlesat: {f}: {NO_ELEMENT}"), command


PLUS = "a '+' sign is not part of a number (numbers are the ASCII digits 0-9)"


@pytest.mark.parametrize("text,message", [
    ("BOX / +2 * 4\nELEMENT / (D) (1, 1), (1, 2)\n", f"f.box:1: BOX sizes '+2 * 4': '+2': {PLUS}"),
    ("BOX / 2 *\n  +4\nELEMENT / (D) (1, 1), (1, 2)\n", f"f.box:2: BOX sizes '2 * +4': '+4': {PLUS}"),
    ("BOX / 2 * 4\nELEMENT / (D) (+1, 1), (1, 2)\n", f"f.box:2: cell (+1, 1): '+1': {PLUS}"),
    ("BOX / 2 * 4\nELEMENT / (D) (1, 1),\n  (1, +2)\n", f"f.box:3: cell (1, +2): '+2': {PLUS}"),
    ("BOX / 2 * 4\nRESERVE / (*) (1,+1)\nELEMENT / (D) (1, 1), (1, 2)\n", f"f.box:2: cell (1,+1): '+1': {PLUS}"),
    ("# expected-count: +5\nBOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n", f"f.box:1: '# expected-count:' '+5': {PLUS}"),
    ("# expected-unique: +0\nBOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n",
     f"f.box:1: '# expected-unique:' '+0': {PLUS}"),
])
def test_a_plus_sign_is_no_part_of_a_number(text, message):
    assert _refusal(text) == message


@pytest.mark.parametrize("names,notes", [
    # the note said "count 2" when the merged piece had 4 copies
    ("DEED", ["piece E is identical to piece D: counted as one piece D with count 4"]),
    ("DEDE", ["piece E is identical to piece D: counted as one piece D with count 4"]),
    ("ABCD", ["pieces B, C and D are identical to piece A: counted as one piece A with count 4"]),
    ("ABAB", ["piece B is identical to piece A: counted as one piece A with count 4"]),
])
def test_a_merge_note_gives_the_merged_count(names, notes):
    t = load("BOX / 2 * 4\n" + "".join(f"ELEMENT / ({n}) (1, 1), (1, 2)\n" for n in names), "d.box")
    assert [(p.name, p.count) for p in t.pieces] == [(names[0], 4)]
    assert t.notes == notes


def test_a_merge_note_counts_the_copies_fixed_in_place(tmp_path, cli):
    text = ("BOX / 2 * 4\n" + "".join(f"ELEMENT / ({n}) (1, 1), (1, 2)\n" for n in "DEED")
            + "RESERVE / (E) (1, 1), (1, 2)\n")
    t = load(text, "d.box")
    assert [(p.name, p.count) for p in t.pieces] == [("D", 3)]
    assert t.notes == ["piece E is identical to piece D: counted as one piece D with count 4, 1 of them fixed in place"]
    f = tmp_path / "d.box"
    f.write_text(text.replace("RESERVE / (E) (1, 1), (1, 2)\n", ""))
    r = cli("info", f)
    assert r.code == 0
    assert "note: piece E is identical to piece D: counted as one piece D with count 4" in r.out.splitlines()


@pytest.mark.parametrize("text,message", [
    ("BOX / 1 * 2\nELEMENT / (D\u200b) (1, 1), (1, 2)\n",
     "f.box:2: ELEMENT name 'D\\u200b' holds a format character (U+200B ZERO WIDTH SPACE), which does not print"),
    ("BOX / 1 * 4\nELEMENT / (D) (1, 1), (1, 2)\nELEMENT / (\u00adD) (1, 1), (1, 2)\n",
     "f.box:3: ELEMENT name '\\xadD' holds a format character (U+00AD SOFT HYPHEN), which does not print"),
    ("BOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\nRESERVE / (D\u2060) (1, 1), (1, 2)\n",
     "f.box:3: RESERVE name 'D\\u2060' holds a format character (U+2060 WORD JOINER), which does not print"),
    ("# one-sided: L D\ufeff\nBOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n",
     "f.box:1: '# one-sided:' name 'D\\ufeff' holds a format character (U+FEFF ZERO WIDTH NO-BREAK SPACE), "
     "which does not print"),
])
def test_a_format_character_in_a_name_is_refused(text, message):
    # 'D' and 'D' + a zero-width space print alike and were two pieces
    assert _refusal(text) == message


@pytest.mark.parametrize("text,message", [
    ("BOX / 1 * 2\nELEMENT / (\u0301) (1, 1), (1, 2)\n",
     "f.box:2: ELEMENT name '\\u0301' begins with a combining mark (U+0301 COMBINING ACUTE ACCENT), which prints "
     "on the character before it"),
    ("BOX / 1 * 4\nELEMENT / (D) (1, 1), (1, 2)\nRESERVE / (\u20ddD) (1, 1), (1, 2)\n",
     "f.box:3: RESERVE name '\\u20ddD' begins with a combining mark (U+20DD COMBINING ENCLOSING CIRCLE), which "
     "prints on the character before it"),
    ("BOX / 1 * 2\nELEMENT / (e\u0301) (1, 1), (1, 2)\n", None),  # a mark after a letter is the letter's
])
def test_a_name_beginning_with_a_combining_mark_is_refused(text, message):
    # a name of a mark alone printed as nothing in the legend ("A = " + the
    # mark on the space before it), QA
    if message is None:
        assert [p.name for p in load(text, "f.box").pieces] == ["e\u0301"]
    else:
        assert _refusal(text) == message


LOOP = "is a symbolic link loop (its links lead back to one another, never to a file): not read"


def test_a_symbolic_link_loop_is_said(tmp_path, cli):
    # it said "no such file": Path.exists() is False for a loop
    a, b = tmp_path / "a.box", tmp_path / "b.box"
    a.symlink_to(b)
    b.symlink_to(a)
    r = cli("count", a)
    assert (r.code, r.out, r.err.strip()) == (2, "", f"puzzlesat: {a}: {LOOP}")
    with pytest.raises(InputError) as e:
        load_puzzle(str(b))
    assert str(e.value) == f"{b}: {LOOP}"
    # a link to nothing is no missing file either; a missing file is
    dangling = tmp_path / "d.box"
    dangling.symlink_to("gone.box")
    with pytest.raises(InputError) as e:
        load_puzzle(str(dangling))
    assert str(e.value) == f"{dangling}: is a symbolic link to 'gone.box', which does not exist"
    with pytest.raises(InputError) as e:
        load_puzzle(str(tmp_path / "gone.box"))
    assert str(e.value) == f"{tmp_path / 'gone.box'}: no such file"


def test_a_title_of_a_zero_width_space_has_no_value():
    # it was taken as the title, and printed as an empty heading (QA)
    assert _refusal("# title: \u200b\nBOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n") == (
        "f.box:1: '# title:' has no value; expected a one-line title")


def test_a_one_sided_name_beginning_with_a_combining_mark_is_refused():
    # it was said as "names no ELEMENT ́D", the mark on the space (QA)
    assert _refusal("# one-sided: \u0301D\nBOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n") == (
        "f.box:1: '# one-sided:' name '\\u0301D' begins with a combining mark (U+0301 COMBINING ACUTE ACCENT), "
        "which prints on the character before it")


def test_one_sided_on_a_piece_that_is_its_own_mirror_image_is_noted():
    t = load("# one-sided: T\nBOX / 2 * 4\nELEMENT / (T) (1, 1), (1, 2), (1, 3), (2, 2)\n"
             "ELEMENT / (T) (1, 1), (1, 2), (1, 3), (2, 2)\n", "f.box")
    assert t.notes == ["one_sided changes nothing for piece T: it is its own mirror image"]
