"""The "ganak" back end: exact projected counts, checked against brute force,
the exact-cover engine and PySAT; counts only; time limits."""

from __future__ import annotations


import random

import pytest

from puzzlesat.backends import BackendError, get_backend
from puzzlesat.backends.ganak import GanakBackend
from puzzlesat.problem import Automaton, Clause, Problem, equalities

from .test_exactcover import brute_force, dominoes, random_problem, rotate180, two_kinds


@pytest.fixture(scope="module")
def ganak():
    return get_backend("ganak")


@pytest.mark.parametrize("rows, cols, n", [(2, 3, 3), (2, 4, 5), (4, 4, 36), (6, 6, 6728), (8, 8, 12_988_816)])
def test_domino_counts(ganak, rows, cols, n):
    r = ganak.count(dominoes(rows, cols))
    assert (r.count, r.complete, r.stopped_by) == (n, True, None)


@pytest.mark.parametrize("encoding", ["seqcounter", "totalizer", "pairwise"])
def test_auxiliary_variables_are_projected_away(encoding):
    # these encodings add variables that are not primary
    p = two_kinds(2, 2, 6)
    assert GanakBackend(encoding=encoding).count(p).count == len(brute_force(p))


def _tilings(rows, cols):
    """Every domino tiling of the board, each a set of dominoes (pairs of cells),
    by covering the first empty cell every way: no Problem, no engine."""
    def fill(covered, placed):
        free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in covered]
        if not free:
            yield frozenset(placed)
            return
        r, c = free[0]
        for other in ((r, c + 1), (r + 1, c)):
            if other[0] < rows and other[1] < cols and other not in covered:
                yield from fill(covered | {(r, c), other}, placed + [frozenset({(r, c), other})])
    return list(fill(frozenset(), []))


def test_agrees_with_exact_and_pysat_on_fixed_points(ganak):
    p = dominoes(4, 4)
    fixed = p.with_constraints(equalities(rotate180(p, 4, 4)))
    n = ganak.count(fixed).count
    assert n == get_backend("exact").count(fixed).count == get_backend("cadical195").count(fixed).count
    # and each agrees with the tilings a half-turn maps to themselves, listed by brute force
    tilings = _tilings(4, 4)
    half_turn = [t for t in tilings if {frozenset((3 - r, 3 - c) for r, c in d) for d in t} == t]
    assert (len(tilings), n) == (36, len(half_turn))


def test_a_limit_equal_to_the_count_is_a_complete_count(ganak, cli):
    # exactly `limit` solutions: the count is whole, not capped (the cap is for more than `limit`)
    r = ganak.count(dominoes(2, 3), limit=3)
    assert (r.count, r.complete, r.stopped_by) == (3, True, None)
    # twins has exactly two solutions (all 2^15 grids tried against its clues):
    # --limit 2 decides that it is not unique
    import itertools

    from puzzlesat.loading import load_puzzle
    from puzzlesat.models.nonogram.clues import runs

    twins = load_puzzle("twins")
    w, h = twins.width, twins.height
    grids = [[bits[k * w:(k + 1) * w] for k in range(h)] for bits in itertools.product((0, 1), repeat=w * h)]
    assert sum(all(runs(g[k]) == twins.rows[k] for k in range(h)) and
               all(runs([g[k][c] for k in range(h)]) == twins.cols[c] for c in range(w)) for g in grids) == 2
    r = cli("count", "twins", "-b", "ganak", "--limit", "2")
    assert (r.code, r.out.splitlines()[0]) == (0, "2 solutions: not unique"), r.err


@pytest.mark.parametrize("seed", range(15))
def test_random_problems(ganak, seed):
    rng = random.Random(seed)
    p = random_problem(rng, rng.randint(2, 8))
    assert ganak.count(p).count == len(brute_force(p))


def test_non_exact_cover_constraints(ganak):
    # a Regular line and a general clause: fine for a CNF counter
    p = Problem()
    v = [p.var(i) for i in range(5)]
    # no two adjacent ones
    p.regular(v, Automaton(((0, 1), (0, None)), 0, frozenset({0, 1})))
    p.clause([v[0], v[2], v[4]])
    assert ganak.count(p).count == len(brute_force(p))


def test_free_primary_variables_count(ganak):
    p = Problem()
    a, b, c = p.var("a"), p.var("b"), p.var("c")
    p.exactly_one([a, b])
    assert ganak.count(p).count == 4  # c is free


def test_non_primary_variables_are_projected(ganak):
    p = Problem()
    a, b = p.var("a"), p.var("b")
    h = p.var("hidden", primary=False)
    p.clause([a, h])
    p.clause([b, -h])
    assert ganak.count(p).count == 3  # every (a, b) but (0, 0)


def test_no_solution(ganak):
    r = ganak.count(dominoes(3, 3))
    assert (r.count, r.complete) == (0, True)


@pytest.mark.parametrize("isolate", [True, False])
def test_no_solution_over_no_variable(isolate, tmp_path, cli):
    # an empty clause and no variable (no piece fits anywhere): Ganak
    # answered 1, and compare showed it as "counted 1, agree: yes" (review)
    p = Problem()
    p.clause([])
    r = GanakBackend(isolate=isolate).count(p)
    assert (r.count, r.complete) == (0, True)
    box = tmp_path / "big.box"
    box.write_text("BOX / 2 * 2\nELEMENT / (L) (1, 1), (2, 1), (3, 1), (3, 2)\n")
    out = cli("compare", box, "--count", "--backends", "ganak,exact", "-t", "20", "--json")
    assert out.code == 0
    assert [(r["backend"], r["count"]) for r in out.json()["runs"]] == [("ganak", 0), ("exact", 0)]
    # (its table said "-" for a model of 0 variables)
    row = cli("compare", box, "--count", "--backends", "ganak", "-t", "20").out.splitlines()[2].split()
    assert row[:5] == ["big.box", "ganak", "mixed", "0", "5"] and row[-2:] == ["0", "yes"]


def test_compare_refuses_a_count_the_precheck_rules_out(tmp_path, monkeypatch):
    # a model counter's count is checked by nothing else: a count of 1 on a
    # board where no piece fits passed as "counted 1, agree: yes" (review)
    from puzzlesat.backends.base import SearchResult
    from puzzlesat.commands import compare

    box = tmp_path / "big.box"
    box.write_text("BOX / 2 * 2\nELEMENT / (L) (1, 1), (2, 1), (3, 1), (3, 2)\n")
    monkeypatch.setattr(GanakBackend, "search", lambda self, problem, **kw: SearchResult(1, True, "ganak", 0.0))
    row = compare.worker({"instance": str(box), "backend": "ganak", "encoding": "mixed", "job": "count",
                          "time_limit": 5})
    assert row["status"] == "invalid"
    assert row["error"] == ("ganak counted 1 solution, but there is none: piece L (" + str(box)
                            + ":2) fits nowhere on the board")


def test_limit_caps_the_count(ganak):
    r = ganak.count(dominoes(4, 4), limit=10)
    assert (r.count, r.complete, r.stopped_by) == (10, False, "limit")
    assert r.stats["exact_count"] == 36


def test_time_limit(ganak):
    # 258,584,046,368 tilings, ~10 s of work: a limit that did not stop it would end complete
    r = ganak.count(dominoes(10, 10), time_limit=0.05)
    assert (r.count, r.complete, r.stopped_by) == (0, False, "time-limit")


def test_inline(capfd):
    assert GanakBackend(isolate=False).count(dominoes(4, 4)).count == 36


def test_counts_only(ganak):
    p = dominoes(2, 2)
    assert not ganak.can_enumerate
    for call in (lambda: ganak.solve(p), lambda: ganak.enumerate(p),
                 lambda: ganak.search(p, keep=True), lambda: ganak.count(p, on_solution=print)):
        with pytest.raises(BackendError, match="only counts"):
            call()


def test_a_count_capped_by_the_limit_still_says_the_whole_count_ganak_found(ganak, cli):
    # Ganak counts the whole before the limit applies; the capped answer
    # dropped it, "at least 2" where 5 was known (QA).  dominoes-2x4: the
    # 2 x 4 board has F(5) = 5 domino tilings
    r = cli("count", "dominoes-2x4", "-b", "ganak", "--limit", "2")
    assert r.code == 3, r.err
    assert r.out.splitlines()[0] == ("at least 2 solutions, incomplete (stopped at --limit): not unique; "
                                     "ganak counted 5 in all")
    j = cli("count", "dominoes-2x4", "-b", "ganak", "--limit", "2", "--json").json()
    assert (j["count"], j["complete"], j["count_without_limit"], j["verdict"]) == (2, False, 5, "multiple")
    # and shows two of them, as --show 2 does with a counter (it said it could
    # not: "ganak counts without listing solutions", QA)
    assert len(j["solutions"]) == 2 and j["solutions"][0] != j["solutions"][1]
    for sol in j["solutions"]:  # four dominoes covering the 2 x 4 board's 8 cells, each once
        cells = [tuple(c) for p in sol["placements"] for c in p["cells"]]
        assert [len(p["cells"]) for p in sol["placements"]] == [2] * 4
        assert sorted(cells) == [(r, c) for r in (1, 2) for c in (1, 2, 3, 4)]
    assert r.out.count("\nsolution ") == 2
    # an engine that lists stops at the limit and knows no more
    j = cli("count", "dominoes-2x4", "-b", "exact", "--limit", "2", "--json").json()
    assert (j["count"], j["complete"], j["count_without_limit"]) == (2, False, None)
    j = cli("count", "dominoes-2x4", "-b", "ganak", "--json").json()
    assert (j["count"], j["complete"], j["count_without_limit"]) == (5, True, None)


def test_a_count_up_to_symmetry_capped_by_the_limit_says_the_whole_count(ganak, cli):
    # (QA: said for raw counts only) tetromino-L-4x4: 10 tilings, 3 up to symmetry
    j = cli("count", "tetromino-L-4x4", "-b", "ganak", "--unique", "--limit", "2", "--json").json()
    assert (j["count"], j["complete"], j["count_without_limit"], j["verdict"]) == (2, False, 3, "multiple")
    j = cli("count", "tetromino-L-4x4", "-b", "ganak", "--unique", "--json").json()
    assert (j["count"], j["complete"], j["count_without_limit"]) == (3, True, None)


def test_jobs_for_a_count_that_is_never_split_is_said_to_have_no_effect(ganak, cli):
    # QA: -j 4 -b ganak ran in one process, and the JSON said "jobs": 4
    r = cli("count", "dominoes-2x4", "-b", "ganak", "-j", "4")
    assert (r.code, r.out.splitlines()[0]) == (0, "5 solutions")
    assert r.err == ("puzzlesat: note: --jobs 4 has no effect: ganak counts the whole at once (its parts "
                     "together cost more than the whole)\n")
    assert cli("count", "dominoes-2x4", "-b", "ganak", "-j", "1").err == ""
    # (it splits what is worth it; more workers than cores get a note of their own)
    from puzzlesat.commands.count import CORES

    assert cli("count", "dominoes-2x4", "-b", "exact", "-j", str(min(4, CORES))).err == ""


def test_the_whole_count_past_the_limit_settles_the_verdict(ganak, cli):
    # QA: --limit 1 said verdict null (and no "not unique") where 5 were counted
    r = cli("count", "dominoes-2x4", "-b", "ganak", "--limit", "1")
    assert r.out.splitlines()[0] == ("at least 1 solution, incomplete (stopped at --limit): not unique; "
                                     "ganak counted 5 in all")
    for extra, whole in (((), 5), (("--unique",), 4)):
        j = cli("count", "dominoes-2x4", "-b", "ganak", "--limit", "1", "--json", *extra).json()
        assert (j["count"], j["count_without_limit"], j["verdict"]) == (1, whole, "multiple")
