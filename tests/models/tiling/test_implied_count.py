"""One piece count follows from the others and the board's area: the model
leaves the costliest one out, and every count stays what it was."""

from __future__ import annotations

import pytest

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.tomlfile import load
from puzzlesat.problem import Exactly, ExactlyOne

STRIP = '''title = "monominoes and dominoes in a strip"
[board]
size = [1, 11]
[[pieces]]
set = "monominoes"
count = 3
[[pieces]]
set = "dominoes"
count = 4
'''


def piece_constraints(t, problem):
    """{piece name: k} for the count constraints in ``problem``."""
    out = {}
    for c in problem.constraints:
        if isinstance(c, (Exactly, ExactlyOne)):
            names = {problem.meaning(v).piece for v in c.vars}
            cells = [set(problem.meaning(v).cells) for v in c.vars]
            if len(names) == 1 and not set.intersection(*cells):  # not a cell's constraint
                out[names.pop()] = c.k if isinstance(c, Exactly) else 1
    return out


def with_all_counts(t, problem):
    """The model with every piece's count constraint, the left-out one added back."""
    extra = []
    have = piece_constraints(t, problem)
    for p in t.pieces:
        if p.name not in have:
            extra.append(Exactly(p.count, tuple(v for v in problem.primary if problem.meaning(v).piece == p.name)))
    return problem.with_constraints(extra, symmetries=problem.symmetries)


def test_a_board_of_one_piece_kind_has_no_count_constraint():
    t = load_puzzle("dominoes-8x8")
    p = t.compile()
    assert piece_constraints(t, p) == {}
    assert sum(isinstance(c, ExactlyOne) for c in p.constraints) == 64  # the cells


def test_only_the_largest_count_is_left_out():
    t = _strip()
    assert piece_constraints(t, t.compile()) == {"O1": 3}  # the dominoes' 4 follows from 11 - 3
    t = load_puzzle("tetromino-pairs-5x8")
    assert len(piece_constraints(t, t.compile())) == 4  # five kinds of two: one left out
    t = load_puzzle("pentomino-6x10")
    assert set(piece_constraints(t, t.compile()).values()) == {1} and len(piece_constraints(t, t.compile())) == 12


def _strip():
    return load(STRIP, "strip.toml")


@pytest.mark.parametrize("name", ["tetromino-pairs-5x8", "strip", "dominoes-2x4", "no0"])
def test_counts_are_those_of_the_model_with_every_count(name):
    t = _strip() if name == "strip" else load_puzzle(name)
    problem = t.compile()
    exact = get_backend("exact")
    n = jobs.count(t, exact, problem=problem).count
    assert n == exact.count(with_all_counts(t, problem)).count
    if name == "strip":
        assert n == 35  # C(7, 3) orders of 3 monominoes and 4 dominoes
    else:
        assert n == t.expected["count"]


def test_every_engine_counts_a_domino_board_the_same():
    t = load("[board]\nsize = [4, 6]\n[[pieces]]\nset = \"dominoes\"\ncount = 12\n", "d.toml")
    problem = t.compile()
    counts = {b: jobs.count(t, get_backend(b), problem=problem).count for b in ("exact", "ganak", "cadical195")}
    assert counts == {"exact": 281, "ganak": 281, "cadical195": 281}  # 4x6 domino tilings
    # up to symmetry, by canonical forms of the enumerated tilings (not Burnside)
    raw = jobs.count(t, get_backend("exact"), problem=problem, keep=True).solutions
    maps = [lambda r, c: (r, c), lambda r, c: (3 - r, c), lambda r, c: (r, 5 - c), lambda r, c: (3 - r, 5 - c)]
    canon = {min(tuple(sorted(tuple(sorted(f(*x) for x in cells)) for _, cells in s.placements)) for f in maps)
             for s in raw}
    unique = {b: jobs.count(t, get_backend(b), problem=problem, unique=True).count for b in ("exact", "ganak")}
    assert unique == {"exact": len(canon), "ganak": len(canon)}


def test_info_says_which_count_the_model_leaves_out(cli):
    r = cli("info", "dominoes-8x8", "--encodings", "mixed")
    assert "note: piece D2's count (32) follows from the board's area: the model states no constraint for it" \
        in r.out.splitlines()
    assert "constraints: 64 exactly-one constraints" in r.out
    d = cli("info", "tetromino-pairs-5x8", "--json").json()
    assert d["implied_count"] == "I4" and d["problem"]["constraints"] == {"Exactly": 4, "ExactlyOne": 40}
    assert cli("info", "pentomino-6x10", "--json").json()["implied_count"] is None
    # (thousands grouped in both counts: "2,056 variables (2056 primary)", QA)
    assert "problem: 2,056 variables (2,056 primary), constraints: 72 exactly-one constraints" \
        in cli("info", "pentomino-6x10", "--encodings", "mixed").out.splitlines()
