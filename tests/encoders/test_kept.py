"""Encodings kept for a problem while problems derived from it are searched
(encoders/kept.py): the same clauses or model as a fresh encoding, built
from the kept one, and never from a stale one."""

from __future__ import annotations

import time

import pytest

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.backends.base import Backend, SearchResult
from puzzlesat.encoders import cnf, cpsat, kept
from puzzlesat.loading import load_puzzle
from puzzlesat.models.nonogram.puzzle import Nonogram
from puzzlesat.problem import Clause, Exactly, Problem, equalities


def _spy_fresh(monkeypatch) -> list:
    """Every fresh CNF encoding (one that does not start from a kept one)."""
    fresh = []
    real = cnf._pool

    def pool(problem):
        fresh.append(problem)
        return real(problem)

    monkeypatch.setattr(cnf, "_pool", pool)
    return fresh


@pytest.mark.parametrize("encoding", ["mixed", "totalizer", "pairwise"])
def test_a_derived_problem_gets_the_fresh_encoding_clause_for_clause(monkeypatch, encoding):
    problem = load_puzzle("pentomino-3x20").compile()
    derived = problem.with_constraints([Clause((1,)), Clause((-2, 3)), Exactly(2, (4, 5, 6, 7))])
    expected = cnf.encode_cnf(derived, encoding)
    fresh = _spy_fresh(monkeypatch)
    with cnf.keeping(problem, encoding):
        assert fresh == [problem]
        got = cnf.encode_cnf(derived, encoding)
        assert fresh == [problem]  # started from the kept one
        again = cnf.encode_cnf(derived.with_constraints([Clause((8, 9))]), encoding)  # derived twice over
        assert fresh == [problem]
    assert got.clauses == expected.clauses and got.n_vars == expected.n_vars
    assert [list(cl) for cl in again.clauses] == [list(cl) for cl in expected.clauses] + [[8, 9]]
    # the kept one is let go with the block, and another encoding is not offered it
    cnf.encode_cnf(derived, encoding)
    assert fresh == [problem, derived]
    with cnf.keeping(problem, encoding):
        other = "seqcounter" if encoding != "seqcounter" else "mixed"
        cnf.encode_cnf(derived, other)
    assert fresh[-1] is derived


def test_engines_sharing_an_encoder_encode_the_problem_once(monkeypatch):
    # a race of two CNF engines with the same encoding keeps the problem twice
    problem = load_puzzle("pentomino-3x20").compile()
    encoded = []
    real = cnf.encode_cnf

    def encode(prob, encoding="mixed", expired=None):
        encoded.append((prob, encoding))
        return real(prob, encoding, expired)

    monkeypatch.setattr(cnf, "encode_cnf", encode)
    with cnf.keeping(problem), cnf.keeping(problem):
        assert encoded == [(problem, "mixed")]
        with cnf.keeping(problem, "totalizer"):  # another encoder: its own
            assert encoded[1:] == [(problem, "totalizer")]
    assert kept._KEPT == {}


def test_a_problem_changed_after_it_was_kept_is_encoded_afresh(monkeypatch):
    problem = Problem()
    xs = [problem.var(i) for i in range(6)]
    problem.exactly(2, xs)
    fresh = _spy_fresh(monkeypatch)
    with cnf.keeping(problem):
        problem.clause([xs[0], xs[1]])  # the kept encoding no longer says all of it
        derived = problem.with_constraints([Clause((-xs[2],))])
        got = cnf.encode_cnf(derived)
        assert fresh == [problem, derived]
        other = Problem(meanings=list(problem.meanings), constraints=list(problem.constraints))
        cnf.encode_cnf(other)  # the same constraints over other variables: not derived
        assert fresh[-1] is other
    assert got.clauses == cnf.encode_cnf(derived).clauses


def test_keeping_gives_up_when_the_time_is_out(monkeypatch):
    problem = load_puzzle("pentomino-3x20").compile()
    fresh = _spy_fresh(monkeypatch)
    with cnf.keeping(problem, expired=lambda: True):
        assert kept.base_of(("cnf", "mixed"), problem) is None
        cnf.encode_cnf(problem.with_constraints([Clause((1,))]))
    assert len(fresh) == 2
    with pytest.raises(kept.EncodingStopped):
        cnf.encode_cnf(problem, expired=lambda: True)


def test_a_cpsat_model_is_copied_from_the_kept_one():
    # rows of three cells, "1 1" each: two solutions per row (x.x is the only one); a
    # Regular, an Exactly and clauses on top
    p = Nonogram(3, 2, [(1, 1), (1, 1)], [(2,), (), (2,)])
    problem = p.compile()
    be = get_backend("cpsat")
    whole = be.search(problem, keep=True)
    assert (whole.count, whole.complete) == (1, True)
    blocked = problem.with_constraints([Clause(tuple(-v for v in whole.solutions[0]))])
    with cpsat.keeping(problem):
        base = kept.base_of(("cpsat",), problem)[0]
        n = len(base.model.proto.constraints)
        r = be.search(blocked, keep=True)
        assert (r.count, r.complete) == (0, True)
        assert len(base.model.proto.constraints) == n  # the kept model itself is untouched
        assert be.search(problem, keep=True).solutions == whole.solutions


def test_cpsat_counts_the_same_from_a_kept_model():
    problem = load_puzzle("pentomino-3x20").compile()
    be = get_backend("cpsat")
    first = next(iter(be.search(problem, limit=1, keep=True).solutions))
    fixed = problem.with_constraints(equalities(problem.symmetries[1]))
    expected = be.search(fixed).count
    with be.keeping(problem):
        assert be.search(fixed).count == expected
        assert be.search(problem.with_constraints([Clause((v,)) for v in first])).count == 1


@pytest.mark.parametrize("name", ["minisat22", "cpsat"])
def test_the_symmetric_first_search_encodes_the_problem_once(monkeypatch, name):
    # the 2x2 diagonals: two solutions, no subspace fixed by all 8 symmetries,
    # so a count to 2 runs the whole group's subspace, single symmetries'
    # and the whole problem, each with the solutions so far blocked
    p = Nonogram(2, 2, [(1,), (1,)], [(1,), (1,)])
    problem = p.compile()
    offered = []
    real = kept.base_of

    def base_of(kind, prob):
        got = real(kind, prob)
        offered.append(got is not None)
        return got

    monkeypatch.setattr(kept, "base_of", base_of)
    out = jobs.count(p, get_backend(name), limit=2, keep=True)
    assert (out.count, len(set(out.solutions))) == (2, 2)
    for s in out.solutions:
        p.verify(s)
    # the problem once, then each subspace and each run from a kept encoding
    assert len(offered) >= 4 and offered.count(False) == 1, offered
    assert problem.symmetries  # (the search ran: the clues are symmetric)


class _Slow(Backend):
    """An engine whose encoding takes 0.2 s, whose first four searches run
    out of time and whose others find no solution, recording each one's time
    limit."""

    name = "slow"

    def __init__(self):
        self.limits = []

    def keeping(self, problem, expired=None):
        time.sleep(0.2)
        return super().keeping(problem, expired)

    def search(self, problem, *, limit=None, time_limit=None, keep=False, on_solution=None, phases=None,
               on_count=None):
        self.limits.append(time_limit)
        if len(self.limits) > 4:
            return SearchResult(0, True, self.name, 0.0, [])
        return SearchResult(0, False, self.name, 0.0, [], "time-limit")


def test_a_time_slice_outlasts_the_encoding_it_loads(monkeypatch):
    monkeypatch.setattr(jobs, "FIRST_SLICE", 0.01)
    p = Nonogram(2, 2, [(1,), (1,)], [(1,), (1,)])
    be = _Slow()
    out = jobs.count(p, be, limit=2, time_limit=60)
    assert (out.count, out.complete) == (0, True)
    slices = be.limits
    # a round of three subspaces, each a slice of at least three times its
    # encoding's time (the problem's and its own, 0.4 s), and the whole
    # problem (0.2 s); the next round's slices no shorter, for the subspaces
    # proved empty; then all the time left for the whole problem, alone
    assert len(slices) == 8, slices
    assert all(t >= jobs.SLICE_PER_ENCODING * 0.4 for t in slices[:3] + slices[4:7]), slices
    assert jobs.SLICE_PER_ENCODING * 0.2 <= slices[3] < jobs.SLICE_PER_ENCODING * 0.4, slices
    assert slices[7] > 50, slices


def test_a_subspace_proved_empty_lets_its_encoding_go(monkeypatch):
    # the 2x2 diagonals: no picture is fixed by all 8 symmetries, so that
    # subspace is proved empty first; its model (as large as the problem's)
    # is not kept for the rest of the search
    p = Nonogram(2, 2, [(1,), (1,)], [(1,), (1,)])
    be = get_backend("minisat22")
    real = be.search
    kept_then = []

    def search(problem, **kw):
        kept_then.append(len(kept._KEPT))
        return real(problem, **kw)

    monkeypatch.setattr(be, "search", search)
    out = jobs.count(p, be, limit=2, keep=True)
    assert out.count == 2
    # the problem's and the subspace being searched, never a dropped one's
    assert len(kept_then) >= 3 and max(kept_then) == 2, kept_then
    assert kept._KEPT == {}  # and all let go at the end


def test_a_ctrl_c_while_the_encodings_are_let_go_keeps_the_outcome(monkeypatch):
    # the search had ended (its limit reached) when the Ctrl-C came, in the
    # moment the kept encodings were being freed: the outcome stands
    from contextlib import contextmanager

    p = Nonogram(2, 2, [(1,), (1,)], [(1,), (1,)])
    be = get_backend("minisat22")

    entered = []

    @contextmanager
    def keeping(problem, expired=None):
        entered.append(problem)
        first = len(entered) == 1  # the whole problem's, let go last
        yield
        if first:
            raise KeyboardInterrupt

    monkeypatch.setattr(be, "keeping", keeping)
    out = jobs.count(p, be, limit=2, keep=True)
    assert (out.count, out.complete, out.stopped_by) == (2, False, "limit")
    for s in out.solutions:
        p.verify(s)
