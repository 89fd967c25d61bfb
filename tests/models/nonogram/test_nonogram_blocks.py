"""The block-start (order-literal) line encoding of models/nonogram/blocks.py:
exact and parsimonious against brute force, and the same solutions as the
run-length automaton whichever way the lines are stated."""

from __future__ import annotations

import itertools
import random

import pytest
from pysat.solvers import Solver

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.models.nonogram.blocks import BlockStart, block_clauses, block_positions, start_bounds
from puzzlesat.models.nonogram.clues import runs
from puzzlesat.models.nonogram.puzzle import LINE_ENCODINGS, Nonogram


def _words(n):
    return list(itertools.product((0, 1), repeat=n))


@pytest.mark.parametrize("n", range(0, 9))
def test_models_are_the_clue_words_each_once(n):
    """Every model, auxiliaries included, is blocked: so each word appearing
    once means the order literals are functions of the cells."""
    for clue in sorted({runs(w) for w in _words(n)}):
        ids: dict = {}

        def order_var(j, p):
            return ids.setdefault((j, p), n + 1 + len(ids))

        clauses = [list(c) for c in block_clauses(list(range(1, n + 1)), clue, order_var)]
        found = []
        with Solver(name="minisat22", bootstrap_with=clauses) as s:
            while s.solve():
                m = s.get_model()
                found.append(tuple(1 if m[i] > 0 else 0 for i in range(n)))
                s.add_clause([-l for l in m])
        assert sorted(found) == [w for w in _words(n) if runs(w) == clue], clue
        assert len(ids) <= n * max(1, len(clue))


@pytest.mark.parametrize("n", range(1, 9))
def test_each_model_takes_exactly_one_start_of_each_block(n):
    """block_positions' alternatives partition the line's words: in every
    model exactly one alternative of each movable block holds, the one at
    the block's start (a count splits on them)."""
    for clue in sorted({runs(w) for w in _words(n)}):
        ids: dict = {}

        def order_var(j, p):
            return ids.setdefault((j, p), n + 1 + len(ids))

        clauses = [list(c) for c in block_clauses(list(range(1, n + 1)), clue, order_var)]
        parts = block_positions(clue, n, order_var)
        lo, hi = start_bounds(clue, n)
        assert [len(alts) for alts in parts] == [h - l + 1 for l, h in zip(lo, hi) if h > l]
        movable = [j for j in range(len(clue)) if hi[j] > lo[j]]
        with Solver(name="minisat22", bootstrap_with=clauses) as s:
            while s.solve():
                m = set(s.get_model())
                word = [1 if i in m else 0 for i in range(1, n + 1)]
                starts = [i for i in range(n) if word[i] and (i == 0 or not word[i - 1])]
                for j, alts in zip(movable, parts):
                    held = [k for k, alt in enumerate(alts) if all(l in m for l in alt)]
                    assert held == [starts[j] - lo[j]], (clue, word, j)
                s.add_clause([-l for l in m])


def test_start_bounds():
    assert start_bounds((2, 1), 6) == ([0, 3], [2, 5])
    assert start_bounds((3,), 3) == ([0], [0])


def test_order_literals_say_what_they_mean():
    p = Nonogram(3, 1, [(1,)], [(), (1,), ()], line_encoding="blocks")
    prob = p.compile()
    aux = [m for m in prob.meanings if isinstance(m, BlockStart)]
    assert set(aux) == {BlockStart(("row", 0), 0, 0), BlockStart(("row", 0), 0, 1)}
    assert all(prob.lookup(m) not in prob.primary for m in aux)
    assert str(aux[0]) == "block 1 of row 1 starts at or before cell 1"


@pytest.mark.parametrize("how", LINE_ENCODINGS)
def test_every_line_encoding_counts_like_brute_force(how):
    rnd = random.Random(11)
    for _ in range(6):
        grid = [[rnd.randint(0, 1) for _ in range(4)] for _ in range(4)]
        p = Nonogram(4, 4, [runs(r) for r in grid], [runs(col) for col in zip(*grid)], line_encoding=how)
        brute = sum(1 for bits in itertools.product((0, 1), repeat=16)
                    if all(runs(bits[r * 4:(r + 1) * 4]) == p.rows[r] for r in range(4))
                    and all(runs(bits[c::4]) == p.cols[c] for c in range(4)))
        for backend in ("cadical195", "cpsat"):
            out = jobs.count(p, get_backend(backend), time_limit=30)
            assert out.complete and out.count == brute, (how, backend)


def test_unknown_line_encoding_is_refused():
    with pytest.raises(ValueError, match="unknown line encoding 'dfa'"):
        Nonogram(1, 1, [(1,)], [(1,)]).compile(line_encoding="dfa")
