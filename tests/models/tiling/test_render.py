"""Text and SVG drawings of tiling solutions on every lattice."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import lru_cache

import pytest

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.render import drawing, symbols
from puzzlesat.models.tiling.render import text as render_text  # (some tests import text itself)
from puzzlesat.models.tiling.tomlfile import load

NS = "{http://www.w3.org/2000/svg}"


def _solved(puzzle):
    out = jobs.solve(puzzle, get_backend("exact"))
    assert out.solution is not None
    return out.solution


@lru_cache(maxsize=None)
def _case(kind):
    """(puzzle, one solution), solved once per test run."""
    puzzle = PUZZLES[kind]()
    return puzzle, _solved(puzzle)


def _svg(kind):
    puzzle, solution = _case(kind)
    root = ET.fromstring(puzzle.render_svg(solution))
    assert root.tag == NS + "svg" and float(root.get("width")) > 0
    return root


PUZZLES = {
    "square box": lambda: load_puzzle("tetromino-L-4x4"),
    "square art": lambda: load("[board]\nart = '''\n####\n#**#\n####\n'''\n[[pieces]]\nname = 'I'\n"
                               "art = '##'\ncount = 5\n", "t.toml"),
    "cubic box": lambda: load("[board]\nsize = [2, 2, 2]\n[[pieces]]\nset = 'dominoes'\ncount = 4\n", "t.toml"),
    "hex": lambda: load_puzzle("hexagon-tetrahexes-trihexes"),
    "triangle": lambda: load_puzzle("hexiamonds-6x6"),
    "no0": lambda: load_puzzle("no0"),
}


@pytest.mark.parametrize("kind", list(PUZZLES))
def test_svg_for_every_lattice(kind):
    root = _svg(kind)
    polygons = root.findall(NS + "polygon")
    rects = root.findall(NS + "rect")
    circles = root.findall(NS + "circle")
    if kind == "hex":
        assert len(polygons) == 37 and all(len(p.get("points").split()) == 6 for p in polygons)
    elif kind == "triangle":
        assert len(polygons) == 72 and all(len(p.get("points").split()) == 3 for p in polygons)
    elif kind == "no0":
        assert len(circles) == 13  # the 40 bumps are teeth on them
        assert len([t for t in root.findall(NS + "text")]) == 13
    elif kind == "square art":
        assert len(polygons) == 12 and all(len(p.get("points").split()) == 4 for p in polygons)
    else:
        assert len(rects) > 1
    # thick lines between pieces
    assert root.findall(NS + "line") or kind in ("square box", "cubic box")


def test_no0_svg_labels_each_circle_with_its_pieces_name():
    # it drew the text drawing's glyph, which only the text's legend explains (QA)
    from pathlib import Path

    base = load_puzzle("no0")
    text = Path(base.path).read_text()
    head = text[:text.index("[[pieces]]")]  # the board; the set's pieces written out, L named Lx
    pieces = "".join(f'[[pieces]]\nname = "{p.name if p.name != "L" else "Lx"}"\ncount = {p.count}\n'
                     f'cells = {[[x + 1 for x in c] for c in p.cells]}\n' for p in base.pieces)
    puzzle = load(head + pieces, "t.toml")
    solution = _solved(puzzle)
    owner = {c: n for n, cells in solution.placements for c in cells if puzzle.lattice.is_circle(c)}
    labels = [t.text for t in ET.fromstring(puzzle.render_svg(solution)).findall(NS + "text")]
    assert sorted(labels) == sorted(owner.values()) and "Lx" in labels


@pytest.mark.parametrize("name,signs", [("A", 1), ("I#12", 4), ("e\u0301mile", 5),
                                        ("\U0001F468\u200d\U0001F469\u200d\U0001F467", 1), ("\U0001F44D\U0001F3FD", 1)])
def test_labels_are_sized_by_the_signs_they_print(name, signs):
    # a family emoji (five code points, one sign) was drawn at a fifth of a letter's size (QA)
    from puzzlesat.models.tiling.render import _glyph_count

    assert _glyph_count(name) == signs


@pytest.mark.parametrize("lattice,size", [("square", "[1, 2]"), ("hex", "[2, 1]")])
def test_a_long_name_fits_its_cell_and_an_emoji_is_a_letter(lattice, size):
    # on hex and triangle boards every label was 0.4 units whatever its length: "emile" ran out of its cell
    fam = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    sizes = {}
    for name in ("A", fam, "emilebrontosaurus"):
        puzzle = load(f'lattice = "{lattice}"\n[board]\nsize = {size}\n[[pieces]]\nname = "{name}"\n'
                      "cells = [[1, 1], [2, 1]]\n" if lattice == "hex" else
                      f'[board]\nsize = {size}\n[[pieces]]\nname = "{name}"\ncells = [[1, 1], [1, 2]]\n', "t.toml")
        texts = ET.fromstring(puzzle.render_svg(_solved(puzzle))).findall(NS + "text")
        sizes[name] = {(t.text, float(t.get("font-size"))) for t in texts}
    (a, one), = sizes["A"]
    assert sizes[fam] == {(fam, one)}
    (label, small), = sizes["emilebrontosaurus"]  # (a box shows the initial, as the text drawing does)
    assert (label, small) == ("E", one) if lattice == "square" else small * 17 <= one * 2 * 1.01


def test_solve_writes_svg_from_the_cli(tmp_path, cli):
    out = tmp_path / "no0.svg"
    r = cli("solve", "no0", "--svg", out, "--backend", "exact")
    assert r.code == 0, r.err
    assert ET.parse(out).getroot().tag == NS + "svg"


def test_hex_text_is_offset_rows():
    t, solution = _case("hex")
    lines = drawing(t, solution).splitlines()  # render_text adds the legend line (K = I3)
    assert [len(l) - len(l.lstrip()) for l in lines] == [3, 2, 1, 0, 1, 2, 3]
    assert all(l.strip()[1::2].strip() == "" for l in lines)  # one column between hexagons


def test_triangle_text_is_one_character_per_triangle():
    t, solution = _case("triangle")
    lines = t.render_text(solution).splitlines()
    assert len(lines) == 6 and all(len(l.strip()) == 12 for l in lines)
    assert [len(l) - len(l.lstrip()) for l in lines] == [1, 2, 3, 4, 5, 6]


def test_no0_text_alternates_circle_and_gap_lines():
    t, solution = _case("no0")
    lines = t.render_text(solution).splitlines()
    assert [len(l.replace(" ", "")) for l in lines] == [9, 4, 11, 5, 11, 4, 9]


def test_symbols_stay_distinct_when_first_letters_clash():
    sym = symbols(["A3", "I3", "V3", "I4", "J4"])
    # I4 has no other letter; J is J4's, so the next free one after I
    assert sym == {"A3": "A", "I3": "I", "V3": "V", "I4": "K", "J4": "J"}
    # a letter is one piece's in both cases: "l2" may not take L's lower case
    sym = symbols(["L", "l2"], repeated=frozenset({"L"}))
    assert sym == {"L": "L", "l2": "M"}
    assert symbols(list("FILNPTUVWXYZ")) == {c: c for c in "FILNPTUVWXYZ"}


def test_square_svg_names_a_piece_whose_letter_the_legend_would_explain():
    # one-sided tetrominoes: L4' and S4' are drawn M and U in text (named on
    # the legend line); the SVG has no legend, so their cells carry the names
    puzzle = load("[board]\nsize = [7, 8]\n[[pieces]]\nset = 'one-sided-tetrominoes'\ncount = 2\n", "t.toml")
    solution = _solved(puzzle)
    labels = [t.text for t in ET.fromstring(puzzle.render_svg(solution)).iter(NS + "text")]
    assert sorted(set(labels)) == ["I", "L", "L4'", "O", "S", "S4'", "T"]
    assert len(labels) == 56  # one per cell


def test_different_pieces_sharing_the_overflow_glyph_are_not_called_look_alike_copies():
    # 62 pieces: past the 26 letters and the fallback glyphs, several draw as
    # "?", which the legend names; the note said "touching copies of p60 p61
    # ... look alike", but no piece there has two copies
    from puzzlesat.models.tiling.puzzle import TilingSolution
    from puzzlesat.models.tiling.render import look_alike, text

    n = 62
    body = "".join(f'[[pieces]]\nname = "p{k}"\ncells = [{", ".join(f"[{i}]" for i in range(1, k + 1))}]\n'
                   for k in range(1, n + 1))
    t = load(f'lattice = "line"\n[board]\nsize = [{n * (n + 1) // 2}]\n' + body, "t.toml")
    at, placed = 0, []
    for k in range(1, n + 1):  # each piece in turn along the line: the last ones touch
        placed.append((f"p{k}", tuple((at + i,) for i in range(k))))
        at += k
    sol = TilingSolution(placed)
    t.verify(sol)
    assert look_alike(t, sol) == []
    lines = text(t, sol).splitlines()
    assert "?" in lines[0] and lines[1].startswith("legend: ") and "? = any of p" in lines[1]
    assert not any(line.startswith("note: touching copies") for line in lines)


def _cell_texts(svg: str) -> list[str]:
    """The texts drawn in the cells (not the layers' labels)."""
    return [e.text for e in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text") if e.get("class") != "layer"]


def test_a_layered_box_labels_its_layers_in_svg_as_in_text():
    from puzzlesat.models.tiling.render import svg_box

    for size, heads in (("[2, 3, 4]", ["layer 1   layer 2"]),
                        ("[2, 2, 2, 3]", ["layer 1,1   layer 1,2", "layer 2,1   layer 2,2"])):
        t = load(f'[board]\nsize = {size}\n[[pieces]]\nset = "trominoes"\ncount = 4\n', "t.toml")
        sol = jobs.solve(t, get_backend("exact")).solution
        labels = [e.text for e in ET.fromstring(svg_box(t, sol)).iter("{http://www.w3.org/2000/svg}text")
                  if e.get("class") == "layer"]
        assert labels == [label for head in heads for label in head.split("   ")]
        assert [line for line in render_text(t, sol).splitlines() if line.startswith("layer")] == heads


def test_a_layered_box_numbers_the_copies_of_a_repeated_piece_in_svg():
    # a copy spans layers, where outlines cannot follow it: 4-D SVG could not tell copies apart
    from puzzlesat.models.tiling.render import svg_box

    t = load('lattice = "cubic4"\n[board]\nsize = [2, 2, 2, 2]\n[[pieces]]\nset = "dominoes"\ncount = 8\n', "t.toml")
    sol = jobs.solve(t, get_backend("exact")).solution
    texts = _cell_texts(svg_box(t, sol))
    assert sorted(texts) == sorted(f"D#{k}" for k in range(1, 9) for _ in range(2))
    # a copy's number is apart from the name: the third L is not the tromino L3 (QA)
    box = load('[board]\nsize = [2, 3, 3]\n[[pieces]]\nname = "L"\nart = "#\\n#\\n##"\ncount = 3\n'
               '[[pieces]]\nset = "trominoes"\n', "t.toml")
    sol = jobs.solve(box, get_backend("exact")).solution
    texts = _cell_texts(svg_box(box, sol))
    assert sorted(set(texts)) == ["I", "L#1", "L#2", "L#3", "L3"] and texts.count("L3") == 3
    # in a flat box the outlines tell copies apart: plain letters
    flat = load('[board]\nsize = [2, 4]\n[[pieces]]\nset = "dominoes"\ncount = 4\n', "f.toml")
    sol = jobs.solve(flat, get_backend("exact")).solution
    texts = _cell_texts(svg_box(flat, sol))
    assert texts == ["D"] * 8


@pytest.mark.parametrize("text,placed,drawn", [
    # a chain of copies that touch: two cases keep them all apart; taken in
    # the placements' order, the last took its neighbour's case and the note
    # said two cases could not (QA)
    ('[board]\nsize = [6, 3]\nholes = [[3, 2], [4, 2], [5, 2]]\n[[pieces]]\nname = "I"\n'
     'cells = [[1, 1], [1, 2], [1, 3]]\ncount = 5\n',
     [("I", ((0, 0), (0, 1), (0, 2))), ("I", ((5, 0), (5, 1), (5, 2))), ("I", ((1, 0), (1, 1), (1, 2))),
      ("I", ((2, 0), (3, 0), (4, 0))), ("I", ((2, 2), (3, 2), (4, 2)))],
     ["III", "iii", "I*I", "I*I", "I*I", "iii"]),
])
def test_touching_copies_alternate_cases_wherever_two_cases_can(text, placed, drawn):
    from puzzlesat.models.tiling.puzzle import TilingSolution
    from puzzlesat.models.tiling.render import look_alike
    from puzzlesat.models.tiling.render import text as draw

    t = load(text, "t.toml")
    sol = TilingSolution(placed)
    t.verify(sol)
    assert draw(t, sol).splitlines() == drawn
    assert look_alike(t, sol) == []


def test_three_copies_around_a_triangle_are_still_said_to_look_alike():
    # three dominoes that touch each other pairwise: two cases cannot do it
    from puzzlesat.models.tiling.puzzle import TilingSolution
    from puzzlesat.models.tiling.render import look_alike

    t = load('[board]\nsize = [2, 3]\n[[pieces]]\nset = "dominoes"\ncount = 3\n', "t.toml")
    sol = TilingSolution([("D2", ((0, 0), (1, 0))), ("D2", ((0, 1), (0, 2))), ("D2", ((1, 1), (1, 2)))])
    t.verify(sol)
    assert look_alike(t, sol) == ["D2"]
