"""The .toml polyform format: boards, pieces, every lattice, and errors
with file:line."""

from __future__ import annotations

import pytest

from puzzlesat import jobs
from puzzlesat.backends import Status, get_backend
from puzzlesat.errors import InputError
from puzzlesat.loading import bundled, load_puzzle
from puzzlesat.models.tiling import art
from puzzlesat.models.tiling.render import drawing
from puzzlesat.models.tiling.tomlfile import load

HEXAGON_ART = '''
   o o o o
  o o o o o
 o o o o o o
o o o o o o o
 o o o o o o
  o o o o o
   o o o o
'''


def _load(text: str):
    return load(text, "t.toml")


def _error(text: str) -> str:
    with pytest.raises(InputError) as e:
        _load(text)
    return str(e.value)


# ------------------------------------------------------------------ boards

def test_an_empty_holes_list_means_no_holes_but_a_piece_needs_cells():
    t = _load('lattice = "hex"\n[board]\nsize = [3, 2]\nholes = []\n[[pieces]]\nset = "dihexes"\ncount = 3\n')
    assert len(t.board) == 6 and t.holes == set()
    r = jobs.count(t, get_backend("exact"))
    assert (r.count, r.complete) == (3, True)  # the three dihexes' 3 tilings of the 3x2 rhombus
    assert _error('[board]\nsize = [2, 2]\n[[pieces]]\nname = "X"\ncells = []\n') == (
        "t.toml:5: cells must be a list of cells, e.g. [[1, 1], [1, 2]]; got []")

def test_square_size_board_with_holes_and_expected_counts():
    t = _load('title = "x"\nsource = "y"\n[board]\nsize = [3, 4]\nholes = [[1, 1], [3, 4]]\n'
              '[[pieces]]\nset = "dominoes"\ncount = 5\n[expected]\ncount = 7\nunique = 2\n')
    assert t.lattice.name == "square" and t.dims == (3, 4)
    assert len(t.board) == 10 and t.holes == {(0, 0), (2, 3)}
    assert [(p.name, p.count) for p in t.pieces] == [("D2", 5)]
    assert t.expected == {"count": 7, "unique": 2} and t.title == "x" and t.source == "y"


def test_a_3d_size_names_the_cubic_lattice_and_sets_become_flat_pieces():
    t = _load('[board]\nsize = [2, 2, 5]\n[[pieces]]\nset = "tetrominoes"\n')
    assert t.lattice.name == "cubic" and t.dims == (2, 2, 5)
    assert all(len(c) == 3 and c[2] == 0 for p in t.pieces for c in p.cells)
    info = {r["name"]: r for r in t.info(t.compile())["pieces"]}
    assert info["O4"]["orientations"] == 3 and info["I4"]["orientations"] == 1  # I4 only fits along the 5


def test_art_board_with_holes():
    t = _load('[board]\nart = """\n####\n#**#\n####\n"""\n[[pieces]]\nname = "I"\nart = "##"\ncount = 5\n')
    assert t.dims is None and len(t.board) == 10 and t.holes == {(1, 1), (1, 2)}
    out = jobs.solve(t, get_backend("exact"))
    assert out.status == Status.SOLVED
    assert t.render_text(out.solution).splitlines()[1][1:3] == "**"


def test_hex_hexagon_equals_the_drawn_hexagon():
    a = _load('lattice = "hex"\n[board]\nhexagon = 4\n[[pieces]]\nset = "tetrahexes"\n[[pieces]]\nset = "trihexes"\n')
    b = _load(f'lattice = "hex"\n[board]\nart = """{HEXAGON_ART}"""\n[[pieces]]\nset = "tetrahexes"\n'
              '[[pieces]]\nset = "trihexes"\n')
    assert len(a.board) == 37
    shift = (min(b.board)[0] - min(a.board)[0], min(b.board)[1] - min(a.board)[1])
    assert {(q + shift[0], r + shift[1]) for q, r in a.board} == set(b.board)
    assert len(a.compile().symmetries) == 12


@pytest.mark.parametrize("lattice,size,cells", [("hex", [3, 4], 12), ("triangle", [6, 6], 72), ("no0", [2, 2], 4 + 16)])
def test_size_boards_on_the_other_lattices(lattice, size, cells):
    piece = {"hex": "monohexes", "triangle": "moniamonds"}.get(lattice)
    pieces = f'[[pieces]]\nset = "{piece}"\n' if piece else '[[pieces]]\nname = "o"\nart = "o"\n'
    t = _load(f'lattice = "{lattice}"\n[board]\nsize = {size}\n{pieces}')
    assert len(t.board) == cells


def test_triangle_and_no0_hexagons():
    assert len(_load('lattice = "triangle"\n[board]\nhexagon = 2\n[[pieces]]\nset = "diamonds"\n').board) == 24
    t = _load('lattice = "no0"\n[board]\nhexagon = 2\n[[pieces]]\nset = "no0"\n')
    assert sum(1 for c in t.board if c[0] % 3 == 0) == 7 and len(t.board) == 7 + 24


@pytest.mark.parametrize("name", ["hex", "triangle", "no0"])
def test_printed_boards_read_back_as_the_same_board(name):
    """The text renderer and the art reader share one layout per lattice."""
    t = load_puzzle({"hex": "hexagon-tetrahexes-trihexes", "triangle": "hexiamonds-6x6", "no0": "no0"}[name])
    out = jobs.solve(t, get_backend("exact"))
    text = drawing(t, out.solution)  # render_text adds a legend line for the hexagon (K = I3)
    if name == "no0":  # circles print as their piece's letter: mark them as circles again
        pos = art.positions("no0", t.board)
        circles = {pos[c] for c in t.board if t.lattice.is_circle(c)}
        lines = [list(l) for l in text.splitlines()]
        text = "\n".join("".join("o" if (i, j) in circles else ch for j, ch in enumerate(l))
                          for i, l in enumerate(lines))
    cells = set(art.parse(name, text))
    lo_a, lo_b = min(cells), min(t.board)
    shift = (lo_b[0] - lo_a[0], lo_b[1] - lo_a[1])
    assert t.lattice.is_translation(shift)
    assert {(x + shift[0], y + shift[1]) for x, y in cells} == set(t.board)


# ------------------------------------------------------------------ pieces

def test_pieces_by_art_and_cells_with_counts_and_one_sided():
    t = _load('[board]\nsize = [4, 4]\n[[pieces]]\nname = "L"\nart = """\n#\n#\n##\n"""\ncount = 3\n'
              '[[pieces]]\nname = "J"\ncells = [[1, 2], [2, 2], [3, 2], [3, 1]]\none_sided = true\n')
    pieces = {p.name: p for p in t.pieces}
    assert pieces["L"].count == 3 and not pieces["L"].one_sided and pieces["J"].one_sided
    assert sorted(pieces["J"].cells) == [(0, 0), (1, 0), (2, -1), (2, 0)]  # normalised
    assert pieces["L"].line == 3 and pieces["J"].line == 11


def test_set_counts_and_one_sided_sets():
    t = _load('lattice = "no0"\n[board]\nhexagon = 2\n[[pieces]]\nset = "no0"\ncounts = { L = 2, A = 3 }\n')
    counts = {p.name: p.count for p in t.pieces}
    assert counts["L"] == 2 and counts["A"] == 3 and counts["B"] == 1
    t = _load('lattice = "hex"\n[board]\nhexagon = 3\n[[pieces]]\nset = "tetrahexes"\none_sided = true\n')
    assert len(t.pieces) == 10 and all(p.one_sided for p in t.pieces)


def test_hex_and_no0_piece_cells():
    t = _load('lattice = "hex"\n[board]\nhexagon = 2\n[[pieces]]\nname = "V"\ncells = [[1, 1], [2, 1], [2, 2]]\n'
              'count = 2\n[[pieces]]\nname = "m"\ncells = [[5, 5]]\n')
    assert sorted(t.pieces[0].cells) == [(0, 0), (1, 0), (1, 1)]
    t = _load('lattice = "no0"\n[board]\nhexagon = 1\n[[pieces]]\nname = "P"\n'
              'cells = [[1, 1], [2, 2], [3, 0], [0, 3], [2, -1], [-1, 2], [0, 0]]\n')
    assert len(t.pieces[0].cells) == 7


def test_identical_pieces_are_one_piece_with_a_count():
    t = _load('[board]\nsize = [2, 4]\n[[pieces]]\nname = "A"\nart = "###\\n#"\n[[pieces]]\nname = "B"\n'
              'art = "###\\n  #"\n')
    assert [(p.name, p.count) for p in t.pieces] == [("A", 2)]
    assert "identical" in t.notes[0]


# ----------------------------------------------------------- the bundled ones

def test_bundled_toml_instances_load():
    names = [n for n, p in bundled().items() if p.suffix == ".toml"]
    assert {"hexagon-tetrahexes-trihexes", "hexiamonds-6x6", "no0"} <= set(names)
    for n in names:
        t = load_puzzle(n)
        assert t.title and t.area_mismatch() is None, n


@pytest.fixture(scope="module")
def hexagon():
    t = load_puzzle("hexagon-tetrahexes-trihexes")
    return t, t.compile()


@pytest.mark.parametrize("backend", ["cadical195", "glucose4", "minisat22", "cpsat", "exact"])
def test_hexagon_solves_to_a_verified_board_on_every_back_end(hexagon, backend):
    t, problem = hexagon
    out = jobs.solve(t, get_backend(backend), problem=problem)
    assert out.status == Status.SOLVED
    t.verify(out.solution)
    assert sorted(n for n, _ in out.solution.placements) == sorted(p.name for p in t.pieces)
    lines = t.render_text(out.solution).splitlines()
    assert [len(l.split()) for l in lines[:-1]] == [4, 5, 6, 7, 6, 5, 4]  # offset rows
    assert lines[-1] == "legend: K = I3"  # I is I4's


def test_small_square_examples_carry_verified_counts():
    for name in ("tetromino-L-4x4", "pentomino-8x8-four-holes", "tetromino-pairs-5x8"):
        assert set(load_puzzle(name).expected) == {"count", "unique"}, name
    t = load_puzzle("tetromino-L-4x4")  # the others are in benchmarks/lattices.py
    assert jobs.count(t, get_backend("exact")).count == t.expected["count"]
    assert jobs.count(t, get_backend("exact"), unique=True).count == t.expected["unique"]


# ------------------------------------------------------------------ errors

BOARD = "[board]\nsize = [2, 2]\n"
DOMINOES = '[[pieces]]\nset = "dominoes"\n'


@pytest.mark.parametrize("text,message", [
    ('lattice = "hexx"\n' + BOARD + DOMINOES,
     "t.toml:1: unknown lattice 'hexx'; known: line, square, cubic, cubic4, hex, triangle, no0"),
    ("[board]\nsize = [2, 2\n" + DOMINOES, "t.toml:3: TOML syntax: Unclosed array"),
    ("[board]\nsize = [2, 2]\ncolour = 'red'\n" + DOMINOES,
     "t.toml:3: unknown key 'colour' in [board]; expected one of: size, hexagon, art, holes"),
    (BOARD + DOMINOES + "extra = 1\n",
     "t.toml:5: unknown key 'extra' in a [[pieces]] set entry; expected one of: set, one_sided, count, counts"),
    ("titel = 'x'\n" + BOARD + DOMINOES,
     "t.toml:1: unknown key 'titel' in the file; expected one of: title, source, lattice, board, pieces, expected"),
    # dotted keys and sub-tables at their own line (QA: no line, or the [[pieces]] header's)
    ("title = 'x'\nextra.sub = 1\n" + BOARD + DOMINOES,
     "t.toml:2: unknown key 'extra' in the file; expected one of: title, source, lattice, board, pieces, expected"),
    (BOARD + DOMINOES + "count = 2\n[extra.sub]\nx = 1\n",
     "t.toml:6: unknown key 'extra' in the file; expected one of: title, source, lattice, board, pieces, expected"),
    (BOARD + DOMINOES + "count = 2\nsub.x = 1\n",
     "t.toml:6: unknown key 'sub' in a [[pieces]] set entry; expected one of: set, one_sided, count, counts"),
    ("[board]\nsize = [2, 2]\nb.c.d = 1\n" + DOMINOES,
     "t.toml:3: unknown key 'b' in [board]; expected one of: size, hexagon, art, holes"),
    # XML cannot hold U+FFFE: the SVG of a piece so named was unreadable (QA)
    (BOARD + "[[pieces]]\nname = 'z\uffff'\ncells = [[1, 1], [1, 2]]\n",
     "t.toml:4: piece name 'z\\uffff' holds a noncharacter (U+FFFF)"),
    ('title = "a\ufdd0"\n' + BOARD + DOMINOES, "t.toml:1: title 'a\\ufdd0' holds a noncharacter (U+FDD0)"),
    # pieces written inline, in an array over several lines: each at its own
    # line, not the array's first (session 31 noticed)
    ("pieces = [\n  { name = 'A', art = '##' },  # [[x]] { y = 1 }\n  # { z = 2 }\n"
     "  { name = 'B', colour = 'red', art = '##' },\n]\n" + BOARD,
     "t.toml:4: unknown key 'colour' in a [[pieces]] entry; expected one of: name, art, cells, count, one_sided"),
    ("pieces = [{ name = 'A', art = '''\n##\n''' },\n  'B',\n]\n" + BOARD,
     "t.toml:1: pieces must be one or more [[pieces]] tables"),
    ("pieces = [\n  { name = 'A', art = \"\"\"\n\\\"\"\"#\"\"\" },\n  { set = 'dominoes', counts = { I2 = 1 } },\n]\n"
     + BOARD, "t.toml:4: counts: the set dominoes has no piece 'I2'; its pieces: D2"),
    ("pieces = [\n  { name = 'A', art = '##' },\n  { name = 'B', count = 2, art = '''\n##\n#\t#\n''' },\n]\n"
     + BOARD, "t.toml:5: piece B: a tab in a drawing: use spaces, columns matter"),
    # (a line of an array that looks like a table header is not one)
    ("[board]\nholes = [\n  [1, 1]\n]\nsize = [2, 0]\n" + DOMINOES,
     "t.toml:5: a size must be at least 1, got 0"),
    (BOARD + DOMINOES + "[[pieces]]\nname = 'X'\nart = '# #'\ncolor = 1\n",
     "t.toml:8: unknown key 'color' in a [[pieces]] entry; expected one of: name, art, cells, count, one_sided"),
    ('lattice = "hex"\n' + BOARD + "[[pieces]]\nname = 'X'\ncells = [[1, 1], [3, 1]]\n",
     "t.toml:6: piece X is not connected on the hex lattice (its hexagons must share edges)"),
    ('lattice = "triangle"\n' + BOARD + "[[pieces]]\nname = 'X'\ncells = [[1, 1], [2, 2]]\n",
     "t.toml:6: cells: (1, 1) is not a cell of the triangle lattice "
     "(file cells are (x, y) with x = y (mod 3) and x != 1 (mod 3))"),
    ('lattice = "hex"\n' + BOARD + "[[pieces]]\nname = 'X'\ncells = [[1, 1, 1]]\n",
     "t.toml:6: cells: (1, 1, 1) has 3 coordinates, the hex lattice has 2"),
    ('lattice = "hex"\n[board]\nart = """\n o o\no  o\n"""\n' + DOMINOES,
     "t.toml:5: board art: 'o' at column 4 is not at a cell position of the hex lattice "
     "(hexagons in a row are two columns apart and each row is shifted by one column)"),
    ('lattice = "no0"\n' + BOARD + "[[pieces]]\nname = 'Q'\nart = '''\n#\n o\n\n o\n'''\n",
     "t.toml:10: piece Q: 'o' at column 2 is not at a cell position of the no0 lattice (circles (o O @) sit "
     "two columns apart on every other line, consecutive circle lines shifted by one column, and gaps on the "
     "lines between)"),
    ('lattice = "no0"\n' + BOARD + "[[pieces]]\nname = 'Q'\nart = '##'\n",
     "t.toml:6: piece Q: a no0 drawing needs at least one circle (o O @)"),
    ('lattice = "triangle"\n[board]\nart = """\n#\t#\n"""\n' + DOMINOES,
     "t.toml:4: board art: a tab in a drawing: use spaces, columns matter"),
    (BOARD + '[[pieces]]\nset = "pentominoes"\ncounts = { Q = 2 }\n',
     "t.toml:5: counts: the set pentominoes has no piece 'Q'; its pieces: F I L N P T U V W X Y Z"),
    (BOARD + '[[pieces]]\nset = "hexiamonds"\n',
     "t.toml:4: unknown piece set 'hexiamonds' for the square lattice; known: monominoes, dominoes, trominoes, "
     "tetrominoes, pentominoes, hexominoes, one-sided-monominoes, one-sided-dominoes, one-sided-trominoes, "
     "one-sided-tetrominoes, one-sided-pentominoes, one-sided-hexominoes"),
    ("[board]\nsize = [2, 2]\nhexagon = 2\n" + DOMINOES,
     "t.toml:3: [board] needs exactly one of size, hexagon or art; got size and hexagon"),
    ("[board]\nhexagon = 2\n" + DOMINOES,
     "t.toml:2: hexagon boards are for the hex, triangle and no0 lattices, not square"),
    ("title = 'x'\n" + BOARD, "t.toml: no [[pieces]] given"),
    (DOMINOES, "t.toml: no [board] table (give its size, hexagon or art)"),
    ("[board]\nsize = [2, 2]\nholes = [[3, 3]]\n" + DOMINOES, "t.toml:3: hole (3, 3) is not on the board"),
    (BOARD + DOMINOES + "count = 0\n", "t.toml:5: count must be at least 1, got 0"),
    (BOARD + DOMINOES + "one_sided = 'yes'\n", "t.toml:5: one_sided must be true or false, got 'yes'"),
    # values are echoed as TOML writes them, not as Python does
    (BOARD + DOMINOES + "one_sided = 2024-01-01\n", "t.toml:5: one_sided must be true or false, got 2024-01-01"),
    (BOARD + DOMINOES + "count = true\n", "t.toml:5: count must be a whole number, got true"),
    ("[board]\nsize = [2, 2]\nholes = [[1, {a = 1}]]\n" + DOMINOES,
     "t.toml:3: holes: [1, { a = 1 }] is not a cell (a list of whole numbers)"),
    (BOARD + DOMINOES + "[expected]\nunique = -1\n", "t.toml:6: expected unique must be at least 0, got -1"),
    (BOARD + DOMINOES + "[expected]\nsolutions = 3\n",
     "t.toml:6: unknown key 'solutions' in [expected]; expected one of: count, unique"),
    (BOARD + "[[pieces]]\nname = 'A'\ncount = 2\n", "t.toml:3: piece A: give exactly one of art or cells"),
    (BOARD + "[[pieces]]\ncount = 2\n", "t.toml:3: a [[pieces]] entry needs a set or a name"),
    ('lattice = "cubic"\n[board]\nart = "##"\n' + DOMINOES,
     "t.toml:3: board art is for 2-D lattices; give the cubic board's size"),
    ("[board]\nsize = [2, 'x']\n" + DOMINOES, "t.toml:2: a size must be a whole number, got 'x'"),
    ('lattice = "square"\n[board]\nsize = [2, 2, 2]\n' + DOMINOES,
     "t.toml:3: size has 3 numbers but the square lattice has 2 dimensions"),
    # no lattice named: the size's dimension chooses one, as in a .box file (QA: "the square lattice")
    ("[board]\nsize = [2, 2, 1, 1, 1]\n" + DOMINOES,
     "t.toml:2: a box has 1 to 4 dimensions (the size's numbers), got 5"),
    ("[board]\nsize = []\n" + DOMINOES, "t.toml:2: a box has 1 to 4 dimensions (the size's numbers), got 0"),
    # the free L and the one-sided L are different pieces: one name cannot be both
    ("[board]\nsize = [2, 4]\n[[pieces]]\nname = 'L'\ncells = [[1, 1], [2, 1], [3, 1], [3, 2]]\n"
     "[[pieces]]\nname = 'L'\none_sided = true\ncells = [[1, 1], [2, 1], [3, 1], [3, 2]]\n",
     "t.toml:6: piece L defined again with a different shape or one-sidedness (first at line 3)"),
    # the art, not the piece, must be a string (QA)
    ('[board]\nsize = [1, 2]\n[[pieces]]\nname = "D"\nart = ["##"]\n',
     "t.toml:5: piece D's art must be a string, got ['##']"),
    # a hexagon on a lattice without hexagon boards: said before its number (QA)
    ('[board]\nhexagon = 0\n[[pieces]]\nset = "dominoes"\n',
     "t.toml:2: hexagon boards are for the hex, triangle and no0 lattices, not square"),
])
def test_errors_name_file_and_line(text, message):
    assert _error(text) == message


def test_a_cli_error_exits_2(tmp_path, cli):
    p = tmp_path / "bad.toml"
    p.write_text('lattice = "hexx"\n' + BOARD + DOMINOES)
    r = cli("solve", p)
    assert r.code == 2 and r.err.strip() == f"puzzlesat: {p}:1: unknown lattice 'hexx'; known: line, square, " \
                                           "cubic, cubic4, hex, triangle, no0"


# ------------------------------------------------ huge boards, refused early

CAP = "is too large (at most 1,000,000)"


@pytest.mark.parametrize("text,message", [
    ("[board]\nsize = [100000, 100000]\n" + DOMINOES, f"t.toml:2: a board of 10,000,000,000 cells {CAP}"),
    ('lattice = "cubic"\n[board]\nsize = [100, 100, 101]\n' + DOMINOES, f"t.toml:3: a board of 1,010,000 cells {CAP}"),
    ('lattice = "cubic4"\n[board]\nsize = [2, 100, 100, 100]\n' + DOMINOES,
     f"t.toml:3: a board of 2,000,000 cells {CAP}"),
    ('lattice = "hex"\n[board]\nhexagon = 1000000000\n[[pieces]]\nset = "monohexes"\n',
     f"t.toml:3: a board of 2,999,999,997,000,000,001 cells {CAP}"),
    ('lattice = "hex"\n[board]\nsize = [1001, 1000]\n[[pieces]]\nset = "monohexes"\n',
     f"t.toml:3: a board of 1,001,000 cells {CAP}"),
    ('lattice = "triangle"\n[board]\nsize = [1000, 1000]\n[[pieces]]\nset = "moniamonds"\n',
     f"t.toml:3: a board of 2,000,000 cells {CAP}"),
    ('lattice = "triangle"\n[board]\nhexagon = 1000\n[[pieces]]\nset = "moniamonds"\n',
     f"t.toml:3: a board of 6,000,000 cells {CAP}"),
    ('lattice = "no0"\n[board]\nsize = [1000, 1000]\n[[pieces]]\nset = "no0"\n',
     f"t.toml:3: a board of 3,004,000 cells {CAP}"),
    ('lattice = "no0"\n[board]\nhexagon = 1000\n[[pieces]]\nset = "no0"\n',
     f"t.toml:3: a board of 8,997,001 cells {CAP}"),
    ('[board]\nart = """\n' + ("#" * 1001 + "\n") * 1000 + '"""\n' + DOMINOES,
     f"t.toml:2: a board of 1,001,000 cells {CAP}"),
    # a hex literal may have any length
    ("[board]\nsize = [2, 0x" + "F" * 5000 + "]\n" + DOMINOES, f"t.toml:2: a board of at least 10^6020 cells {CAP}"),
    # a decimal one of more than 4,300 digits is refused by the TOML reader's int()
    ("[board]\nsize = [2,\n  " + "9" * 5000 + "]\n" + DOMINOES, "t.toml:3: a number of 5,000 digits is too large"),
    (BOARD + DOMINOES + "count = 0x" + "F" * 5000 + "\n",
     "t.toml:5: count must be at most 10^1000, got at least 10^6020"),
])
def test_a_board_too_large_is_refused_before_any_cell_is_made(text, message):
    assert _error(text) == message


@pytest.mark.parametrize("text,line", [
    ('title = "[[[["  # [[[[\n[board]\nsize = [2,\n' + "[" * 1000 + "]" * 1000 + "]\n" + DOMINOES, 4),
    ("[board]\nsize = [2, 2]\n" + DOMINOES + "x = " + "{a=" * 3000 + "1" + "}" * 3000 + "\n", 5),
    # (shallower: tomllib reads it, and quoting it in the error overflowed, review)
    ("[board]\nsize = [2, 2]\nholes = " + "[" * 400 + "]" * 400 + "\n" + DOMINOES, 3),
])
def test_nesting_too_deep_for_the_toml_reader_is_an_error_at_its_line(text, line):
    # tomllib recurses once per level: a RecursionError was a traceback (QA)
    assert _error(text) == f"t.toml:{line}: TOML: arrays or inline tables nested too deeply to read"


# the line index reads values too: every string it finds decodes, at the
# place it notes, to what the TOML reader read there
LINE_INDEX_TEXTS = [
    'x = [\n 1,\n [2, "a]"],\n {a = "}", b = \'#\'}, # c ]\n]\ny = "after"\n',
    "s = '''a\n''''\nt = '''''b'''''\n",
    's = """\\"""\n"""""\nt = "\\t\\u00e9\\\\"\n',
    'd = 1979-05-27 07:32:00\nu = { a.b = [1, { c = """x\ny""" }] }\nv = [ # c\n]\nw = "z"\n',
    "pieces = [\n  { name = 'A', art = '''\n##\n''' },  # [[x]]\n  [ 'q', \"\"\"\nr\"\"\" ],\n]\n[board]\nk = 'v'\n",
]


def _value(data, path):
    for k in path:
        data = data[k]
    return data


@pytest.mark.parametrize("text", LINE_INDEX_TEXTS)
def test_the_line_index_finds_each_string_where_the_toml_reader_reads_it(text):
    from puzzlesat.models.tiling.tomlfile import _decoded, _Lines, tomllib
    data, lines = tomllib.loads(text), _Lines(text)
    strings = {}

    def walk(v, path):
        if isinstance(v, str):
            strings[path] = v
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(x, path + (k,))
        elif isinstance(v, list):
            for k, x in enumerate(v):
                walk(x, path + (k,))
    walk(data, ())
    assert set(lines.string_at) == set(strings)
    for path, (no, col) in lines.string_at.items():
        assert "".join(ch for _, _, ch in _decoded(lines._raw, no, col)) == _value(data, path), path


def test_the_line_index_notes_each_inline_table_and_its_keys_at_their_line():
    from puzzlesat.models.tiling.tomlfile import _Lines
    assert _Lines(LINE_INDEX_TEXTS[0]).at == {("x",): 1, ("x", 2): 4, ("x", 2, "a"): 4, ("x", 2, "b"): 4, ("y",): 6}
    assert _Lines(LINE_INDEX_TEXTS[3]).at == {("d",): 1, ("u",): 2, ("u", "a"): 2, ("u", "a", "b"): 2,
                                              ("u", "a", "b", 1): 2, ("u", "a", "b", 1, "c"): 2, ("v",): 4, ("w",): 6}


@pytest.mark.parametrize("lattice,board,pieces", [
    ("square", "size = [3, 4]", DOMINOES),
    ("cubic", "size = [2, 3, 4]", DOMINOES),
    ("cubic4", "size = [2, 3, 1, 2]", DOMINOES),
    ("line", "size = [7]", '[[pieces]]\nname = "d"\ncells = [[1], [2]]\n'),
    ("hex", "size = [3, 5]", '[[pieces]]\nset = "monohexes"\n'),
    ("triangle", "size = [4, 3]", '[[pieces]]\nset = "moniamonds"\n'),
    ("no0", "size = [3, 2]", '[[pieces]]\nset = "no0"\n'),
    ("hex", "hexagon = 3", '[[pieces]]\nset = "monohexes"\n'),
    ("triangle", "hexagon = 3", '[[pieces]]\nset = "moniamonds"\n'),
    ("no0", "hexagon = 3", '[[pieces]]\nset = "no0"\n'),
    ("square", 'art = """\n####\n#**#\n.##\n"""', DOMINOES),
    ("hex", f'art = """{HEXAGON_ART}"""', '[[pieces]]\nset = "monohexes"\n'),
])
def test_the_cell_count_checked_is_the_board_built(monkeypatch, lattice, board, pieces):
    """The count is computed from the declaration, not the cells: it must be
    exactly the board's, holes included, on every lattice and form."""
    from puzzlesat.models.tiling import build
    text = f'lattice = "{lattice}"\n[board]\n{board}\n{pieces}'
    t = _load(text)
    n = len(t.board) + len(t.holes)
    monkeypatch.setattr(build, "MAX_BOARD_CELLS", n)
    assert len(_load(text).board) == len(t.board)
    monkeypatch.setattr(build, "MAX_BOARD_CELLS", n - 1)
    assert _error(text) == f"t.toml:3: a board of {n:,} cells is too large (at most {n - 1:,})"


def test_a_huge_board_is_exit_2_without_a_traceback(tmp_path, cli):
    p = tmp_path / "big.toml"
    p.write_text('lattice = "hex"\n[board]\nhexagon = 1000000000\n[[pieces]]\nset = "monohexes"\n')
    r = cli("count", p)
    assert r.code == 2 and "Traceback" not in r.err
    assert r.err.strip() == f"puzzlesat: {p}:3: a board of 2,999,999,997,000,000,001 cells {CAP}"


# ------------------------------------------------ echoed text stays short

@pytest.mark.parametrize("text,message", [
    ('lattice = "' + "x" * 100 + '"\n' + BOARD + DOMINOES,
     "t.toml:1: unknown lattice '" + "x" * 56 + "...; known: line, square, cubic, cubic4, hex, triangle, no0"),
    ("k" * 100 + " = 1\n" + BOARD + DOMINOES,
     "t.toml:1: unknown key '" + "k" * 56 + "... in the file; expected one of: title, source, lattice, board, "
     "pieces, expected"),
    ("[board]\nsize = [2, '" + "a" * 100 + "']\n" + DOMINOES,
     "t.toml:2: a size must be a whole number, got '" + "a" * 56 + "..."),
    ("[board]\nsize = [2, 2]\nholes = '" + "h" * 100 + "'\n" + DOMINOES,
     "t.toml:3: holes must be a list of cells, e.g. [[1, 1], [1, 2]]; got '" + "h" * 56 + "..."),
    ("[board]\nsize = [2, 2]\nholes = [[1, " + "9" * 100 + "]]\n" + DOMINOES,
     "t.toml:3: hole (1, " + "9" * 54 + "...) is not on the board"),
    (BOARD + "[[pieces]]\nname = '" + "Q" * 100 + "'\ncells = [[1, 1], [2, 2]]\n",
     "t.toml:5: piece " + "Q" * 57 + "... is not connected on the square lattice (its cells must share edges)"),
    (BOARD + "[[pieces]]\nset = '" + "s" * 100 + "'\n",
     "t.toml:4: unknown piece set '" + "s" * 56 + "... for the square lattice; known: monominoes, dominoes, "
     "trominoes, tetrominoes, pentominoes, hexominoes, one-sided-monominoes, one-sided-dominoes, "
     "one-sided-trominoes, one-sided-tetrominoes, one-sided-pentominoes, one-sided-hexominoes"),
])
def test_echoed_text_is_shortened(text, message):
    assert _error(text) == message


# ------------------------------- piece cells as in .box; printed text checked

PIECE = BOARD + "[[pieces]]\nname = 'X'\n"


@pytest.mark.parametrize("text,message", [
    # square and cubic file coordinates are 1-based, as in .box ("indices start at 1")
    (PIECE + "cells = [[0, 1], [0, 2]]\n", "t.toml:5: cells: (0, 1): indices start at 1"),
    (PIECE + "cells = [[-5, 1], [-5, 2]]\n", "t.toml:5: cells: (-5, 1): indices start at 1"),
    ('lattice = "cubic"\n[board]\nsize = [2, 2, 2]\n[[pieces]]\nname = "X"\ncells = [[1, 1, 1], [1, 1, 0]]\n',
     "t.toml:6: cells: (1, 1, 0): indices start at 1"),
    ('lattice = "line"\n[board]\nsize = [3]\n[[pieces]]\nname = "X"\ncells = [[0], [1]]\n',
     "t.toml:6: cells: (0): indices start at 1"),
    ("[board]\nsize = [2, 2]\nholes = [[0, 1]]\n" + DOMINOES, "t.toml:3: holes: (0, 1): indices start at 1"),
    # a huge coordinate is refused before anything is done with it
    (PIECE + "cells = [[0x" + "F" * 300000 + ", 1], [0x" + "F" * 300000 + ", 2]]\n",
     "t.toml:5: cells: (at least 10^361235, 1): a coordinate must be at most 10^1000 in size"),
    ('lattice = "hex"\n' + PIECE + "cells = [[1, -1" + "0" * 1001 + "], [1, 2]]\n",
     "t.toml:6: cells: (1, -1" + "0" * 52 + "...): a coordinate must be at most 10^1000 in size"),
])
def test_piece_cells_are_file_coordinates_as_in_box(text, message):
    assert _error(text) == message


def test_large_1_based_and_signed_hex_coordinates_are_shapes():
    t = _load(PIECE + "cells = [[100000000000000000000, 1], [100000000000000000000, 2]]\n")
    assert t.pieces[0].cells == ((0, 0), (0, 1))  # as .box reads (10^20, 1), (10^20, 2)
    # hex file coordinates are axial + 1 and signed: a hexagon board is centred on the origin
    t = _load('lattice = "hex"\n[board]\nhexagon = 2\nholes = [[0, 1]]\n[[pieces]]\nname = "X"\n'
              'cells = [[0, 0], [-1, 0]]\n')
    assert (-1, 0) in t.holes and sorted(t.pieces[0].cells) == [(0, 0), (1, 0)]


@pytest.mark.parametrize("text,message", [
    ('title = """a\nb"""\n' + DOMINOES + BOARD, "t.toml:1: title must be one line, got 'a\\nb'"),
    ('title = "a\\r\\nb"\n' + DOMINOES + BOARD, "t.toml:1: title must be one line, got 'a\\r\\nb'"),
    ('title = "a\\u001bb"\n' + DOMINOES + BOARD, "t.toml:1: title 'a\\x1bb' holds a control character (U+001B)"),
    ('source = "a\\u009bb"\n' + DOMINOES + BOARD, "t.toml:1: source 'a\\x9bb' holds a control character (U+009B)"),
    ('source = "a\\u0000"\n' + DOMINOES + BOARD, "t.toml:1: source 'a\\x00' holds a control character (U+0000)"),
    (BOARD + '[[pieces]]\nname = "\\u001b[31mX"\ncells = [[1, 1], [1, 2]]\n',
     "t.toml:4: piece name '\\x1b[31mX' holds a control character (U+001B)"),
    (BOARD + '[[pieces]]\nname = "X\\u007f"\ncells = [[1, 1], [1, 2]]\n',
     "t.toml:4: piece name 'X\\x7f' holds a control character (U+007F)"),
    ('title = "a\\u2066b"\n' + DOMINOES + BOARD,
     "t.toml:1: title 'a\\u2066b' holds a bidirectional control character (U+2066)"),
])
def test_printed_text_is_one_line_without_control_characters(text, message):
    assert _error(text) == message


def test_a_source_may_run_over_lines_and_a_title_may_hold_a_tab():
    t = _load('title = "a\\tb"\nsource = """Isobe (1965),\nthe paper"""\n' + BOARD + DOMINOES)
    assert t.title == "a\tb" and t.source == "Isobe (1965),\nthe paper"


def test_an_escape_in_a_name_never_reaches_the_terminal(tmp_path, cli):
    p = tmp_path / "esc.toml"
    p.write_text(BOARD + '[[pieces]]\nname = "\\u001b[31mX"\ncells = [[1, 1], [1, 2]]\ncount = 2\n')
    for args in (("solve", p), ("solve", "--json", p)):
        r = cli(*args)
        assert r.code == 2 and "Traceback" not in r.err and "\x1b" not in r.out + r.err
        assert f"{p}:4: piece name '\\x1b[31mX' holds a control character (U+001B)" in r.err


# ------------------------------------------ QA: nothing silently dropped or altered

def test_one_sided_false_on_a_one_sided_set_is_refused_at_its_line(tmp_path, cli):
    text = '[board]\nsize = [4, 7]\n[[pieces]]\nset = "one-sided-tetrominoes"\none_sided = false\n'
    message = ("one_sided = false contradicts the set one-sided-tetrominoes, whose pieces never turn over; "
               "for pieces that may, give set = 'tetrominoes'")
    assert _error(text) == f"t.toml:5: {message}"
    p = tmp_path / "os.toml"
    p.write_text(text)
    r = cli("info", p)
    assert (r.code, r.out, r.err.strip()) == (2, "", f"puzzlesat: {p}:5: {message}")
    # true on a one-sided set says what the set is: accepted, the same pieces
    same = _load(text.replace("false", "true"))
    assert [(p.name, p.one_sided) for p in same.pieces] == [(p.name, p.one_sided) for p in _load(text[:-18]).pieces]
    assert len(same.pieces) == 7 and all(p.one_sided for p in same.pieces if p.name != "O4")


@pytest.mark.parametrize("written,name", [(" D", " D"), ("D ", "D "), ("\\tD", "\tD"), ("D\\u3000", "D\u3000")])
def test_a_piece_name_is_never_trimmed(written, name):
    assert _error(f'[board]\nsize = [2, 2]\n[[pieces]]\nname = "{written}"\ncells = [[1, 1], [1, 2]]\ncount = 2\n') == (
        f"t.toml:4: piece name {name!r} must be non-empty, without spaces")


def test_a_board_written_as_an_array_of_tables_is_refused_at_its_line(tmp_path, cli):
    assert _error("# a board\n[[board]]\nsize = [2, 2]\n" + DOMINOES) == "t.toml:2: board must be a table: [board]"
    p = tmp_path / "board_array.toml"
    p.write_text("[[board]]\nsize = [2, 2]\n" + DOMINOES)
    r = cli("info", p)
    assert (r.code, r.err.strip()) == (2, f"puzzlesat: {p}:1: board must be a table: [board]")


def test_a_title_taken_from_the_file_name_has_its_control_characters_escaped(tmp_path, cli):
    assert _load(BOARD + DOMINOES + "count = 2\n").title == "t"
    assert load(BOARD + DOMINOES + "count = 2\n", "d/t\x1b[31m\u202e.toml").title == "t\\x1b[31m\\u202e"
    p = tmp_path / "t\x1b[31m.toml"
    p.write_text(BOARD + DOMINOES + "count = 2\n")
    for args in (("info", p), ("solve", p), ("count", p)):
        r = cli(*args)
        assert r.code == 0 and "\x1b" not in r.out + r.err, args
    assert cli("info", p).out.splitlines()[0] == "t\\x1b[31m"


@pytest.mark.parametrize("piece,line", [
    ('art = """\n###\n###\n"""\n', 5),
    ("cells = [[1, 1], [1, 2], [1, 3], [2, 1], [2, 2], [2, 3]]\n", 5),
])
def test_a_piece_larger_than_a_board_may_be_is_refused_before_any_work(monkeypatch, piece, line):
    from puzzlesat.models.tiling import build, tomlfile
    text = '[board]\nsize = [2, 2]\n[[pieces]]\nname = "H"\n' + piece
    monkeypatch.setattr(build, "MAX_BOARD_CELLS", 6)
    assert _load(text).pieces[0].cells  # 6 cells: as many as a board may have
    monkeypatch.setattr(build, "MAX_BOARD_CELLS", 5)
    monkeypatch.setattr(tomlfile, "is_connected", None)  # refused before anything is done with its cells
    assert _error(text) == f"t.toml:{line}: piece H of 6 cells is too large (at most 5, as a board)"


@pytest.mark.parametrize("art,line", [
    # a one-line string with \n escapes: its lines are not file lines; the line of art = itself
    ('art = "o o\\noo"', 3),
    ("art = 'oo'", 3),
    # a line-ending backslash drops the newline and the blank lines after it
    ('art = """\\\no o\noo"""', 5),
    ('art = """\\\n\n  o o \\\n   oo\no o"""', 6),  # "o o oo" on line 5 and 6: the second o of "oo" at fault
    # spaces after the opening quotes: the newline is kept, the first line is "   "
    ('art = """   \no o\n oo\no"""', 5),
    ("art = '''   \no o\n oo\no'''", 5),
    ('art = """\no o\n oo\no"""', 5),
    # \n escapes in a multi-line string, and an escaped quote
    ('art = """o \\"\\n oo\no o"""', 3),
    ('art = """o o\\u000A o o\no o\n oo"""', 5),
])
def test_a_drawing_error_is_at_the_line_that_holds_it(art, line):
    message = _error(f'lattice = "hex"\n[board]\n{art}\n[[pieces]]\nset = "monohexes"\n')
    assert message.startswith(f"t.toml:{line}: board art: 'o' at column ") and "hex lattice" in message


# ------------------------------ QA: what does not print is no cell, nor part of a name

COMBINING = "is a combining mark, which would count as a cell of its own"
FORMAT = "is a format character, which would count as a cell of its own"


@pytest.mark.parametrize("text,message", [
    # "e" + U+0301 shows as one "é" but made two cells
    ('[board]\nart = """\ne\u0301e\n"""\n' + DOMINOES,
     f"t.toml:3: board art: U+0301 COMBINING ACUTE ACCENT at column 2 {COMBINING}"),
    ('[board]\nart = """\n##\n#\u20dd#\n"""\n' + DOMINOES,
     f"t.toml:4: board art: U+20DD COMBINING ENCLOSING CIRCLE at column 2 {COMBINING}"),
    ('[board]\nart = "##\\n##\\u0308"\n' + DOMINOES,
     f"t.toml:2: board art: U+0308 COMBINING DIAERESIS at column 3 {COMBINING}"),
    (BOARD + '[[pieces]]\nname = "D"\nart = """\n#\u200b#\n"""\n',
     f"t.toml:6: piece D: U+200B ZERO WIDTH SPACE at column 2 {FORMAT}"),
    ('lattice = "hex"\n[board]\nart = """\n o o\u0301\no o o\n"""\n[[pieces]]\nset = "monohexes"\n',
     f"t.toml:4: board art: U+0301 COMBINING ACUTE ACCENT at column 5 {COMBINING}"),
])
def test_a_combining_mark_or_format_character_in_a_drawing_is_refused(text, message):
    assert _error(text) == message


CONTROL = "is a control character, which would count as a cell of its own"
BLANK = "is a blank other than the space, which would count as a cell: use a space"


@pytest.mark.parametrize("text,message", [
    # an escape made "##<ESC>##" a board of 5 cells, solved by 5 monominoes (QA)
    ('[board]\nart = "##\\u001b##"\n' + DOMINOES, f"t.toml:2: board art: U+001B at column 3 {CONTROL}"),
    ('[board]\nart = "##\\f##"\n' + DOMINOES, f"t.toml:2: board art: U+000C at column 3 {CONTROL}"),
    ('[board]\nart = "##\\r##"\n' + DOMINOES, f"t.toml:2: board art: U+000D at column 3 {CONTROL}"),
    ('[board]\nart = "##\\u0085##"\n' + DOMINOES, f"t.toml:2: board art: U+0085 at column 3 {CONTROL}"),
    # a no-break space looked like a gap and was a cell
    ('[board]\nart = """\n##\u00a0##\n"""\n' + DOMINOES,
     f"t.toml:3: board art: U+00A0 NO-BREAK SPACE at column 3 {BLANK}"),
    ('[board]\nart = "##\\u3000##"\n' + DOMINOES,
     f"t.toml:2: board art: U+3000 IDEOGRAPHIC SPACE at column 3 {BLANK}"),
    ('[board]\nart = "##\\u2028##"\n' + DOMINOES,
     f"t.toml:2: board art: U+2028 LINE SEPARATOR at column 3 {BLANK}"),
    (BOARD + '[[pieces]]\nname = "D"\nart = "#\\u00a0#"\n',
     f"t.toml:5: piece D: U+00A0 NO-BREAK SPACE at column 2 {BLANK}"),
])
def test_a_control_character_or_an_odd_blank_in_a_drawing_is_refused(text, message):
    assert _error(text) == message


@pytest.mark.parametrize("name,message", [
    ("D\\u200b", "piece name 'D\\u200b' holds a format character (U+200B ZERO WIDTH SPACE), which does not print"),
    ("\\u00adD", "piece name '\\xadD' holds a format character (U+00AD SOFT HYPHEN), which does not print"),
    ("D\\u200dE", "piece name 'D\\u200dE' holds a format character (U+200D ZERO WIDTH JOINER), which does not print"),
    ("D\\ufeff", "piece name 'D\\ufeff' holds a format character (U+FEFF ZERO WIDTH NO-BREAK SPACE), "
                 "which does not print"),
])
def test_a_format_character_in_a_piece_name_is_refused(name, message):
    # 'D' and 'D' + a zero-width space print alike, and were two pieces
    assert _error(f'[board]\nsize = [2, 2]\n[[pieces]]\nname = "D"\ncells = [[1, 1], [1, 2]]\n'
                  f'[[pieces]]\nname = "{name}"\ncells = [[1, 1], [1, 2]]\n') == f"t.toml:7: {message}"


@pytest.mark.parametrize("name,message", [
    ("\\u0301", "piece name '\\u0301' begins with a combining mark (U+0301 COMBINING ACUTE ACCENT), which prints "
                "on the character before it"),
    ("\\u0308D", "piece name '\\u0308D' begins with a combining mark (U+0308 COMBINING DIAERESIS), which prints "
                 "on the character before it"),
])
def test_a_piece_name_beginning_with_a_combining_mark_is_refused(name, message):
    # a name of a mark alone printed as nothing in the legend (QA); a mark
    # after a letter (e + U+0301, an e acute) is a name like any other
    assert _error(f'[board]\nsize = [2, 2]\n[[pieces]]\nname = "{name}"\ncells = [[1, 1], [1, 2]]\ncount = 2\n') == (
        f"t.toml:4: {message}")
    ok = _load('[board]\nsize = [2, 1]\n[[pieces]]\nname = "e\\u0301"\ncells = [[1, 1]]\ncount = 2\n')
    assert [p.name for p in ok.pieces] == ["e\u0301"]


def test_a_merge_note_gives_the_merged_count_however_the_names_interleave(tmp_path, cli):
    piece = '[[pieces]]\nname = "{}"\ncells = [[1, 1], [1, 2]]\n'
    text = '[board]\nsize = [2, 4]\n' + "".join(piece.format(n) for n in "DEED")
    t = _load(text)
    assert [(p.name, p.count) for p in t.pieces] == [("D", 4)]
    assert t.notes == ["piece E is identical to piece D: counted as one piece D with count 4",
                       "piece D is given by 2 [[pieces]] entries (lines 3 and 12): one piece, their counts added up",
                       "piece E is given by 2 [[pieces]] entries (lines 6 and 9): one piece, their counts added up"]
    t = _load('[board]\nsize = [3, 4]\n' + "".join(piece.format(n) for n in "DEFE") + "count = 3\n")
    assert [(p.name, p.count) for p in t.pieces] == [("D", 6)]
    assert t.notes == ["pieces E and F are identical to piece D: counted as one piece D with count 6",
                       "piece E is given by 2 [[pieces]] entries (lines 6 and 12): one piece, their counts added up"]
    p = tmp_path / "m.toml"
    p.write_text(text)
    r = cli("info", p)
    assert r.code == 0
    assert "note: piece E is identical to piece D: counted as one piece D with count 4" in r.out.splitlines()


def test_a_piece_name_given_by_two_entries_is_said(tmp_path, cli):
    # two entries of the same name and shape were one piece of count 2
    # without a word: a copied entry is more likely a slip than meant (QA)
    t = _load('[board]\nsize = [2, 2]\n[[pieces]]\nname = "D"\ncells = [[1, 1], [1, 2]]\n'
              '[[pieces]]\nname = "D"\ncells = [[1, 1], [2, 1]]\n')
    assert [(p.name, p.count) for p in t.pieces] == [("D", 2)]
    assert t.notes == ["piece D is given by 2 [[pieces]] entries (lines 3 and 6): one piece, their counts added up"]
    # a standard set given twice: a note per piece of it
    t = _load('[board]\nsize = [2, 8]\n[[pieces]]\nset = "tetrominoes"\n[[pieces]]\nset = "tetrominoes"\n'
              '[[pieces]]\nset = "tetrominoes"\n')
    assert len(t.notes) == 5 and t.notes[0].endswith("given by 3 [[pieces]] entries (lines 3, 5 and 7): "
                                                     "one piece, their counts added up")
    # one entry with a count says nothing
    assert _load('[board]\nsize = [2, 2]\n[[pieces]]\nname = "D"\ncells = [[1, 1], [1, 2]]\ncount = 2\n').notes == []


def test_a_sub_table_of_a_piece_is_reported_at_its_own_header():
    # [pieces.foo] after [[pieces]] belongs to that piece: its error named the [[pieces]] line
    assert _error('[board]\nsize = [2, 4]\n\n[[pieces]]\nset = "dominoes"\ncount = 3\n\n'
                  '[pieces.foo]\ncells = [[1,1],[1,2]]\n') == (
        "t.toml:8: unknown key 'foo' in a [[pieces]] set entry; expected one of: set, one_sided, count, counts")
    assert _error('[board]\nsize = [2, 4]\n[[pieces]]\nname = "d"\ncells = [[1,1],[1,2]]\n[[pieces]]\nname = "e"\n'
                  'cells = [[1,1],[1,2]]\ncount = 3\n[pieces.counts]\nx = 1\n').startswith(
        "t.toml:10: unknown key 'counts' in a [[pieces]] entry")


@pytest.mark.parametrize("source,line", [
    ('source = """a \\""" b"""\n', 3),  # an escaped quote in a basic string: not its end
    ('source = """note \\"""\n[board]\nsize = [9, 9]\n"""\n', 6),
    ('source = """a""" # """\n', 3),  # quotes in the comment after it
    ("source = \'\'\'a\\\'\'\'\n", 3),  # no escapes in a literal one
    ('source = """\nx \\"""\n y"""\n', 5),  # over lines
])
def test_lines_after_a_multi_line_string_are_found(source, line):
    # the quotes were counted: an escaped one ended the string, and later
    # errors had no line or another's (QA)
    text = source + '[board]\nsize = [2, "x"]\n' + DOMINOES
    assert _error(text) == f"t.toml:{line}: a size must be a whole number, got 'x'"


def test_one_sided_on_a_flat_piece_in_a_box_is_said_to_change_nothing():
    # a turn of the 3-D box turns a flat piece over: the count is the free
    # piece's (10 on 1 x 4 x 4 for four L), which was not said (QA)
    from puzzlesat import jobs

    text = '[board]\nsize = [1, 4, 4]\n[[pieces]]\nname = "L"\nart = "#\\n#\\n##"\ncount = 4\none_sided = true\n'
    t = _load(text)
    assert t.notes[0] == "one_sided changes nothing for piece L: in 3-D a turn takes it onto its mirror image"
    assert jobs.count(t).count == jobs.count(_load(text.replace("true", "false"))).count == 10
    # in the plane it does change the count, and nothing is said
    flat = _load(text.replace("[1, 4, 4]", "[4, 4]"))
    assert jobs.count(flat).count == 3 and not any("one_sided" in n for n in flat.notes)


def test_a_set_count_that_counts_gives_every_piece_is_said_unused():
    # count = 3 beside counts for every piece of the set was dropped without a word (QA)
    t = _load('[board]\nsize = [1, 4]\n[[pieces]]\nset = "dominoes"\ncount = 3\ncounts = { D2 = 2 }\n')
    assert [(p.name, p.count) for p in t.pieces] == [("D2", 2)]
    assert t.notes == ["line 5: count = 3 applies to no piece: counts gives every piece of the set dominoes its own"]
    t = _load('[board]\nsize = [2, 4]\n[[pieces]]\nset = "trominoes"\ncount = 1\ncounts = { L3 = 1 }\n'
              '[[pieces]]\nname = "O"\ncells = [[1, 1], [1, 2]]\n')  # count still sets I3's: no note
    assert t.notes == []


def test_info_shows_the_source(tmp_path, cli):
    # source was read and checked, then shown nowhere (QA)
    import json

    p = tmp_path / "s.toml"
    p.write_text('source = """Isobe 1965,\nreprinted"""\n[board]\nsize = [1, 4]\n[[pieces]]\nset = "dominoes"\ncount = 2\n')
    assert cli("info", p).out.splitlines()[:3] == ["s", "source: Isobe 1965,", "        reprinted"]
    assert json.loads(cli("info", p, "--json").out)["source"] == "Isobe 1965,\nreprinted"
    p.write_text('[board]\nsize = [1, 4]\n[[pieces]]\nset = "dominoes"\ncount = 2\n')
    out = cli("info", p).out.splitlines()
    assert out[0] == "s" and not out[1].startswith("source")
    assert json.loads(cli("info", p, "--json").out)["source"] is None


def test_a_blank_title_is_replaced_by_the_file_name_with_a_note():
    # the file's name stood in for title = "" without a word (QA)
    body = '[board]\nsize = [2, 2]\n[[pieces]]\nname = "D"\ncells = [[1, 1], [1, 2]]\ncount = 2\n'
    for title in ('""', '"  "', '"\\u200b"'):  # (a zero-width space alone prints as nothing too)
        t = _load(f"title = {title}\n" + body)
        assert t.title == "t"
        assert t.notes[0] == "line 1: title is blank: the puzzle is titled by the file's name, 't'"
    assert _load('title = "x"\n' + body).notes == []


def test_one_sided_on_a_plane_piece_that_is_its_own_mirror_image_is_said_to_change_nothing():
    # one_sided = true on a T changed nothing and said nothing (QA); a
    # one-sided set holds such pieces (I, O, T) by design: no note for those
    from puzzlesat import jobs

    T = '[[pieces]]\nname = "T"\nart = "###\\n.#."\none_sided = true\ncount = 2\n'
    t = _load('[board]\nsize = [2, 4]\n' + T)
    assert t.notes == ["one_sided changes nothing for piece T: it is its own mirror image"]
    assert jobs.count(t).count == jobs.count(_load('[board]\nsize = [2, 4]\n' + T.replace("true", "false"))).count
    both = _load('[board]\nsize = [3, 4]\n' + T.replace("count = 2", "count = 1")
                 + '[[pieces]]\nname = "O"\nart = "##\\n##"\none_sided = true\n'
                 + '[[pieces]]\nname = "L"\nart = "#..\\n###"\none_sided = true\n')
    assert both.notes == ["one_sided changes nothing for pieces T, O: each is its own mirror image"]
    plain_set = _load('[board]\nsize = [4, 7]\n[[pieces]]\nset = "one-sided-tetrominoes"\n')
    assert {"I4", "O4", "T4"} <= {p.name for p in plain_set.pieces} and plain_set.notes == []


def test_a_leading_combining_mark_in_a_message_is_written_as_an_escape():
    # printed, it sat on the opening quote: "unknown piece set '́tetrominoes'" (QA)
    assert _error('[board]\nsize = [2, 4]\n[[pieces]]\nset = "\\u0301tetrominoes"\n').startswith(
        "t.toml:4: unknown piece set '\\u0301tetrominoes' for the square lattice; known: ")
    assert _error('lattice = "\\u0301hex"\n[board]\nsize = [2, 4]\n[[pieces]]\nset = "dominoes"\n').startswith(
        "t.toml:1: unknown lattice '\\u0301hex'; known: ")


def test_a_title_of_a_combining_mark_alone_is_blank():
    t = _load('title = "\\u0301"\n[board]\nsize = [1, 2]\n[[pieces]]\nname = "D"\nart = "##"\n')
    assert t.title == "t" and t.notes[0] == "line 1: title is blank: the puzzle is titled by the file's name, 't'"
