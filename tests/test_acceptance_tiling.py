"""Acceptance review of the tiling formats and drawings: each test reproduces
one finding of the review and pins the behaviour that fixed it."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.errors import InputError
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling import art
from puzzlesat.models.tiling.boxfile import load as load_box
from puzzlesat.models.tiling.render import glyphs
from puzzlesat.models.tiling.lattice import get_lattice
from puzzlesat.models.tiling.standard import standard_set
from puzzlesat.models.tiling.tomlfile import load

# ------------------------------------------------ 1. telling pieces apart

ONE_SIDED_TETROMINO_PAIRS = '[board]\nsize = [7, 8]\n[[pieces]]\nset = "one-sided-tetrominoes"\ncount = 2\n'
ONE_SIDED_PENTOMINOES = '[board]\nsize = [6, 15]\n[[pieces]]\nset = "one-sided-pentominoes"\n'

CASES = {
    "one-sided tetromino pairs 7x8": lambda: load(ONE_SIDED_TETROMINO_PAIRS, "pairs.toml"),
    "one-sided pentominoes 6x15": lambda: load(ONE_SIDED_PENTOMINOES, "os.toml"),
    "hexagon": lambda: load_puzzle("hexagon-tetrahexes-trihexes"),
    "tetromino pairs 5x8": lambda: load_puzzle("tetromino-pairs-5x8"),
    "pentominoes 6x10": lambda: load_puzzle("pentomino-6x10"),
    "pentominoes 2x3x10": lambda: load_puzzle("pentomino-2x3x10"),
    "pentominoes 3x4x5": lambda: load_puzzle("pentomino-3x4x5"),
    "I-trominoes 2x2x2x3": lambda: load_box("BOX / 2 * 2 * 2 * 3\n" + "ELEMENT / (I) (1, 1), (1, 2), (1, 3)\n" * 8,
                                            "i3.box"),
}


@lru_cache(maxsize=None)
def _solved(case):
    puzzle = CASES[case]()
    out = jobs.solve(puzzle, get_backend("exact"))
    assert out.solution is not None
    return puzzle, out.solution


def _read_back(puzzle, text):
    """The printed drawing read as a reader would: cell -> glyph, and the
    legend's glyph -> piece name."""
    lines = text.split("\n")
    legend = {}
    if lines[-1].startswith("legend: "):
        for part in lines.pop()[len("legend: "):].split(", "):
            glyph, name = part.split(" = ")
            for g in glyph.split("/"):
                legend[g] = name
    assert not any(line.startswith(("legend", "note")) for line in lines), text
    if puzzle.dims is not None and len(puzzle.dims) > 2:  # labelled layers side by side
        grid = _read_layers(lines)
    elif puzzle.dims is not None:  # a 2-D box: row r, column c
        grid = {(r, c): ch for r, row in enumerate(lines) for c, ch in enumerate(row)}
    else:  # the lattice's art layout, read as a board file would be, moved onto the board
        drawn = art.parse(puzzle.lattice.name, "\n".join(lines))
        shift = [a - b for a, b in zip(min(puzzle.board), min(drawn))]
        grid = {tuple(x + d for x, d in zip(c, shift)): ch for c, ch in drawn.items()}
    return grid, legend


def _read_layers(lines):
    """A 3-D/4-D box's drawing: rows of layers apart by blank lines, each
    layer's cells under its label ``layer a`` / ``layer a,b`` (1-based
    leading coordinates), row r and column c of a layer being cell
    (a-1, [b-1,] r, c)."""
    grid = {}
    rows = "\n".join(lines).split("\n\n")
    for block in rows:
        head, *body = block.split("\n")
        labels = [(m.start(), tuple(int(x) - 1 for x in m.group(1).split(",")))
                  for m in re.finditer(r"layer ([0-9,]+)", head)]
        assert labels and re.sub(r"layer [0-9,]+", "", head).strip() == "", head
        for i, (at, lead) in enumerate(labels):
            end = labels[i + 1][0] if i + 1 < len(labels) else None
            for r, line in enumerate(body):
                for c, ch in enumerate(line[at:end].rstrip()):
                    grid[lead + (r, c)] = ch
    return grid


def _regions(lattice, grid):
    """(glyph, cells) of every connected region of one glyph."""
    seen, out = set(), []
    for start, ch in grid.items():
        if start in seen:
            continue
        region, todo = {start}, [start]
        while todo:
            for q in lattice.neighbours(todo.pop()):
                if q not in region and grid.get(q) == ch:
                    region.add(q)
                    todo.append(q)
        seen |= region
        out.append((ch, frozenset(region)))
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_every_glyph_region_is_one_placed_piece_and_names_it(case):
    puzzle, solution = _solved(case)
    grid, legend = _read_back(puzzle, puzzle.render_text(solution))
    placed = {frozenset(cells): name for name, cells in solution.placements}
    regions = _regions(puzzle.lattice, grid)
    assert len(regions) == len(placed) and {r for _, r in regions} == set(placed)  # the placements
    named = set(legend.values())
    for glyph, region in regions:
        assert glyph.isalpha() or glyph in legend  # letters unless the legend says otherwise
        name = legend.get(glyph) or legend.get(glyph.upper())
        if name is None:  # not in the legend: the piece whose name begins with that letter
            (name,) = {n for n in placed.values() if n[0].upper() == glyph.upper() and n not in named}
        assert name == placed[region]


def test_the_broken_cases_print_a_legend_and_the_common_sets_none(cli, tmp_path):
    f = tmp_path / "pairs.toml"
    f.write_text(ONE_SIDED_TETROMINO_PAIRS)
    r = cli("solve", f, "-b", "exact", "--color", "never")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert len(lines) == 9 and all(len(line) == 8 for line in lines[:7])
    assert lines[7] == "legend: M = L4', U = S4'"
    assert set("".join(lines[:7]).upper()) == set("ILMOSTU")
    f = tmp_path / "os.toml"
    f.write_text(ONE_SIDED_PENTOMINOES)
    lines = cli("solve", f, "-b", "exact", "--color", "never").out.splitlines()
    assert lines[6] == "legend: G = F', M = L', O = N', Q = P', A = Y', B = Z'"
    assert "".join(lines[:6]).isupper()  # lower case is for second copies only
    lines = cli("solve", "hexagon-tetrahexes-trihexes", "-b", "exact", "--color", "never").out.splitlines()
    assert lines[7] == "legend: K = I3"
    for name in ("pentomino-6x10", "tetromino-pairs-5x8"):
        lines = cli("solve", name, "-b", "exact", "--color", "never").out.splitlines()
        assert lines[-1].startswith("solved by exact in ") and not any("legend" in x for x in lines), name


def _set_names(lattice, name):
    return [n for n, _, _ in standard_set(get_lattice(lattice), name)]


def test_glyphs_of_the_standard_sets():
    pent = glyphs(_set_names("square", "pentominoes"))
    assert pent.first == {c: c for c in "FILNPTUVWXYZ"} and pent.legend() == ""
    tet = glyphs(_set_names("square", "tetrominoes"), frozenset(_set_names("square", "tetrominoes")))
    assert tet.first == {"I4": "I", "L4": "L", "O4": "O", "S4": "S", "T4": "T"} and tet.legend() == ""
    assert tet.second == {"I4": "i", "L4": "l", "O4": "o", "S4": "s", "T4": "t"}
    # P5/p5, U5/u5, Y5/y5: a letter is one piece's, in both cases
    ph = glyphs(_set_names("hex", "pentahexes"))
    assert len(set(ph.first.values())) == 22 and all(g.isupper() for g in ph.first.values())
    assert ph.legend() == "legend: Z = p5, B = u5, F = y5"  # Q R S T U are q5 r5 S5 T5 U5's


def test_glyphs_past_the_alphabet():
    hexominoes = [f"H6-{k}" for k in range(1, 36)]  # the set's names (in another order)
    assert sorted(hexominoes) == _set_names("square", "hexominoes")
    g = glyphs(hexominoes)
    assert [g.first[n] for n in hexominoes] == list("HIJKLMNOPQRSTUVWXYZABCDEFG012345678")
    assert g.legend().startswith("legend: I = H6-2, J = H6-3, ") and g.legend().endswith(", 8 = H6-35")
    # a repeated piece takes a letter before the others, so its copies still alternate case
    g = glyphs(hexominoes, frozenset({"H6-35"}))
    assert (g.first["H6-35"], g.second["H6-35"]) == ("I", "i") and g.first["H6-34"] == "8"
    # past the letters, a repeated piece takes two symbols, one per alternate copy
    many = [f"P{k}" for k in range(1, 29)]
    g = glyphs(many, frozenset(many[:27]))
    assert (g.first["P27"], g.second["P27"], g.first["P28"]) == ("0", "1", "2")
    assert g.legend().endswith(", O = P26, 0/1 = P27, 2 = P28")
    # past every symbol: one shared glyph, named as such
    g = glyphs([f"P{k}" for k in range(1, 64)])
    assert g.legend().endswith(", } = P59, ? = any of P60 P61 P62 P63 "
                               "(more pieces than glyphs; SVG drawings (solve --svg) outline each)")


def test_copies_that_cannot_alternate_are_reported(tmp_path, cli):
    # the one tiling of this board by three dominoes has each touching the
    # other two: upper and lower case cannot keep them apart, and the
    # drawing says so rather than let two of them read as one piece
    f = tmp_path / "d.toml"
    f.write_text('[board]\nart = """\n###\n##.\n.#.\n"""\n[[pieces]]\nset = "dominoes"\ncount = 3\n')
    r = cli("solve", f, "-b", "exact", "--color", "never")
    assert r.code == 0, r.err
    assert r.out.splitlines()[:4] == [
        "dDD", "dD", " D",
        "note: touching copies of D2 look alike in places (two cases cannot always keep them apart); "
        "SVG drawings (solve --svg) outline every copy"]
    # --json says it too, beside its rows (it said nothing)
    f.write_text('[board]\nsize = [3, 3]\nholes = [[2, 3], [3, 1], [3, 3]]\n[[pieces]]\nset = "dominoes"\ncount = 3\n')
    d = cli("solve", f, "-b", "exact", "--json").json()["solution"]
    assert (d["rows"], d["look_alike"]) == (["dDD", "dD*", "*D*"], ["D2"])
    assert cli("solve", "pentomino-6x10", "--json").json()["solution"]["look_alike"] == []


@pytest.mark.parametrize("instance", ["hexiamonds-6x6", "no0", "pentomino-3x4x5"])
def test_json_rows_draw_every_lattice_the_text_draws(cli, instance):
    # --json gave rows for square boxes only; a hexagonal, triangular or
    # No.0 board, or a 3-D box, drawn as text had none
    d = cli("solve", instance, "-b", "exact", "--json").json()["solution"]
    text = cli("solve", instance, "-b", "exact", "--color", "never").out.splitlines()
    assert d["rows"] == text[:len(d["rows"])] and text[len(d["rows"])].startswith("solved by exact")
    # every piece's glyph appears once per cell it covers
    drawn = "".join(d["rows"])
    for p in d["placements"]:
        assert drawn.count(d["glyphs"][p["piece"]]) == len(p["cells"]), p["piece"]


# ------------------------------------------------ 2. a title by default


def test_a_tiling_file_without_a_title_is_titled_by_its_stem_as_a_nonogram_is(cli, tmp_path):
    files = {"strip.box": "BOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n",
             "bar.toml": '[board]\nsize = [1, 2]\n[[pieces]]\nset = "dominoes"\n',
             "blank.toml": 'title = " "\n[board]\nsize = [1, 2]\n[[pieces]]\nset = "dominoes"\n',
             "dot.non": "width 1\nheight 1\nrows\n1\ncolumns\n1\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        r = cli("info", tmp_path / name, "--json")
        assert r.code == 0, r.err
        assert r.json()["title"] == name.split(".")[0], name
    (tmp_path / "t.box").write_text("# title: Two cells\nBOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n")
    assert cli("info", tmp_path / "t.box", "--json").json()["title"] == "Two cells"


# ------------------------------------------------ 3. suffixes in any case


def test_puzzle_file_suffixes_match_in_any_case(cli, tmp_path):
    (tmp_path / "X.BOX").write_text("BOX / 1 * 2\nELEMENT / (D) (1, 1), (1, 2)\n")
    (tmp_path / "Y.Toml").write_text('[board]\nsize = [1, 2]\n[[pieces]]\nset = "dominoes"\n')
    (tmp_path / "OK.NON").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    for name, family in (("X.BOX", "tiling"), ("Y.Toml", "tiling"), ("OK.NON", "nonogram")):
        r = cli("solve", tmp_path / name, "--json")
        assert r.code == 0, r.err
        assert (r.json()["family"], r.json()["status"]) == (family, "solved")
    (tmp_path / "Z.TXT").write_text("x\n")
    r = cli("info", tmp_path / "Z.TXT")
    assert (r.code, r.out) == (2, "")
    assert r.err == (f"puzzlesat: {tmp_path / 'Z.TXT'}: unknown puzzle format '.TXT'; "
                     "known: .box, .nin, .non, .toml, .xml\n")


# ------------------------------------------------ 4. .box details
# (the error cases are in tests/models/tiling/test_boxfile.py)


def test_one_sided_lines_add_up():
    t = load_box("# one-sided: A\n# one-sided: B\nBOX / 2 * 4\nELEMENT / (A) (1, 1), (2, 1), (2, 2)\n"
                 "ELEMENT / (B) (1, 1), (1, 2)\n", "f.box")
    assert [(p.name, p.one_sided) for p in t.pieces] == [("A", True), ("B", True)]
    assert t.ignored == ()


def test_a_name_repeated_in_one_sided_is_said():
    t = load_box("# one-sided: A A\n# one-sided: B A\nBOX / 2 * 4\nELEMENT / (A) (1, 1), (2, 1), (2, 2)\n"
                 "ELEMENT / (B) (1, 1), (1, 2)\n", "f.box")
    assert [(p.name, p.one_sided) for p in t.pieces] == [("A", True), ("B", True)]
    assert t.ignored == ("f.box:1: '# one-sided:' names A again (first on this line); read once",
                         "f.box:2: '# one-sided:' names A again (first at line 1); read once")


# ------------------------------------------------ 5. sets on the line


def test_the_line_takes_the_straight_square_sets(cli, tmp_path):
    f = tmp_path / "line.toml"
    f.write_text('[board]\nsize = [6]\n[[pieces]]\nset = "dominoes"\ncount = 2\n'
                 '[[pieces]]\nset = "monominoes"\ncount = 2\n')
    t = load(f.read_text(), str(f))
    assert [(p.name, p.cells, p.count) for p in t.pieces] == [("D2", ((0,), (1,)), 2), ("O1", ((0,),), 2)]
    r = cli("count", f, "--json")
    assert (r.code, r.json()["count"]) == (0, 6)  # 4! / (2! 2!) orders of two dominoes and two monominoes


@pytest.mark.parametrize("pieces,message", [
    ('set = "trominoes"',
     "t.toml:4: the trominoes set does not fit the line lattice: L3 is not straight (the line lattice takes the "
     "sets monominoes, dominoes, one-sided-monominoes and one-sided-dominoes, and straight pieces given by cells "
     "or art)"),
    ('set = "triamonds"',
     "t.toml:4: unknown piece set 'triamonds' for the line lattice; known: monominoes, dominoes, "
     "one-sided-monominoes, one-sided-dominoes"),
])
def test_a_set_the_line_cannot_hold_is_refused_by_name(pieces, message):
    with pytest.raises(InputError) as e:
        load(f"[board]\nsize = [6]\n[[pieces]]\n{pieces}\n", "t.toml")
    assert str(e.value) == message


def test_boxes_of_three_and_four_dimensions_still_take_flat_square_sets():
    t = load('[board]\nsize = [2, 2, 2]\n[[pieces]]\nset = "tetrominoes"\ncounts = { O4 = 2 }\n'
             '[[pieces]]\nname = "filler"\ncells = [[1, 1, 1]]\n', "t.toml")
    assert {p.name: p.cells[0] for p in t.pieces}["O4"] == (0, 0, 0)
    assert all(len(c) == 3 for p in t.pieces for c in p.cells)


# ------------------------------------------------ 6. one, not ones


@pytest.mark.parametrize("text,message", [
    ('lattice = "line"\n[board]\nsize = [6, 10]\n[[pieces]]\nset = "dominoes"\n',
     "t.toml:3: size has 2 numbers but the line lattice has 1 dimension"),
    ('lattice = "hex"\n[board]\nsize = [6]\n[[pieces]]\nset = "dihexes"\n',
     "t.toml:3: a hex board's size is [width, height], got 1 number"),
    ('lattice = "hex"\n[board]\nsize = [1, 3]\n[[pieces]]\nname = "a"\ncells = [[1]]\n',
     "t.toml:6: cells: (1) has 1 coordinate, the hex lattice has 2"),
])
def test_toml_messages_count_in_the_singular(text, message):
    with pytest.raises(InputError) as e:
        load(text, "t.toml")
    assert str(e.value) == message


def test_area_and_verifier_messages_count_in_the_singular():
    from puzzlesat.errors import VerificationError
    from puzzlesat.models.tiling.puzzle import TilingSolution

    t = load('[board]\nsize = [1, 3]\n[[pieces]]\nname = "a"\ncells = [[1, 1]]\n', "t.toml")
    assert t.area_mismatch() == "the pieces cover 1 cell but the board has 3 free cells"
    t = load('[board]\nsize = [1, 3]\n[[pieces]]\nname = "a"\ncells = [[1, 1]]\ncount = 2\n'
             '[[pieces]]\nname = "b"\ncells = [[1, 1], [1, 2]]\n', "t.toml")
    with pytest.raises(VerificationError) as e:
        t.verify(TilingSolution([("a", ((0, 0),)), ("b", ((0, 1), (0, 2)))]))
    assert str(e.value) == "piece a used 1 time, expected 2"
