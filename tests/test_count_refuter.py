"""The refuter beside a default count: when the count's engine (exact cover
on a tiling) has found no solution for a while, CaDiCaL tries to prove there
is none, and a proof ends the count with the answer 0."""

from __future__ import annotations

import re
import time

import pytest

from puzzlesat import jobs
from puzzlesat.backends import SearchResult, SolverFailed, get_backend
from puzzlesat.backends.base import Backend
from puzzlesat.errors import VerificationError
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.tomlfile import load as load_toml

#: two mutilated 8x8 boards joined by a door two cells high, to be tiled by
#: dominoes and one 2x2 square: one region, balanced as a whole (the
#: precheck's colourings pass it), no tiling (the left half has two cells of
#: one colour too many, and the door lets one through); CaDiCaL proves it in
#: a fraction of a second, dancing links searches for more than a minute,
#: and the square keeps it from the determinant that counts domino tilings
DOOR = ('[board]\nsize = [8, 17]\nholes = [' + "".join(f"[{i}, 9], " for i in range(1, 9) if i not in (4, 5))
        + '[1, 1], [8, 8], [1, 10], [8, 17]]\n[[pieces]]\nset = "dominoes"\ncount = 61\n'
        '[[pieces]]\nname = "O"\ncells = [[1, 1], [1, 2], [2, 1], [2, 2]]\ncount = 1\n')


@pytest.fixture
def soon(monkeypatch):
    """The refuter starts after 0.05 s instead of REFUTE_AFTER."""
    monkeypatch.setattr(jobs, "REFUTE_AFTER", 0.05)


class _Slow(Backend):
    """The exact engine after ``delay`` seconds of nothing but asking its
    caller's on_count, as engines do (so a refuter started early runs while
    no solution has been found)."""

    name = "slow-exact"

    def __init__(self, delay=0.3):
        self.inner, self.delay = get_backend("exact"), delay
        self.solutions_are_free = self.inner.solutions_are_free

    def search(self, problem, **kwargs):
        end = time.monotonic() + self.delay
        while time.monotonic() < end:
            if kwargs.get("on_count") is not None and kwargs["on_count"](0):
                return SearchResult(0, False, self.name, 0.0, [], "callback")
            time.sleep(0.01)
        return self.inner.search(problem, **kwargs)


class _Refuter(Backend):
    """Stands in for REFUTER: records that it ran, then answers ``result``
    (or raises it) once the count has found a solution or ended, or at once."""

    name = "fake-refuter"

    def __init__(self, result, wait=True):
        self.result, self.wait, self.ran = result, wait, False

    def search(self, problem, *, limit=None, time_limit=None, keep=False, on_solution=None, phases=None,
               on_count=None):
        self.ran = True
        while self.wait and not on_count(0):
            time.sleep(0.005)
        if isinstance(self.result, BaseException):
            raise self.result
        return self.result


def test_a_default_count_that_finds_nothing_ends_when_cadical_proves_there_is_none(soon):
    puzzle = load_toml(DOOR, "door.toml")
    assert puzzle.precheck() is None
    out = jobs.count(puzzle, time_limit=60)
    assert (out.count, out.complete, out.stopped_by, out.method, out.backend) == (0, True, None, "refuted",
                                                                                 "cadical195")
    assert out.choice == ("exact had found no solution after 0.05 s; cadical195, started beside it, "
                          "proved there is none")
    assert out.seconds < 30  # (the exact engine alone runs into the minute's limit)


def test_the_cli_says_who_proved_it(cli, tmp_path):
    f = tmp_path / "door.toml"
    f.write_text(DOOR)
    r = cli("count", f, "-t", "60", "--progress")
    assert r.code == 0, r.err
    # the progress line says what the second engine is doing, once it is
    # ("\r"-separated; text mode reads them as lines)
    frames = [x for x in r.err.replace("\x1b[K", "").splitlines() if x.strip()]
    # (", 0/27 sub-problems": the count is split over the cores)
    assert re.match(r"counting: 0 solutions, 0\.0/s, 0\.\ds", frames[0]), frames
    assert any(re.match(r"counting \(cadical195 beside it, to prove there is none\): 0 solutions, 0\.0/s, "
                        r"1\.\ds", x) for x in frames), frames
    lines = r.out.splitlines()
    assert lines[0] == "0 solutions"
    assert re.fullmatch(r"cadical195, refuted, \d+\.\d{3} s", lines[1]), r.out
    assert lines[2] == ("(cadical195 chosen: exact had found no solution after 1 s; cadical195, started beside "
                        "it, proved there is none)")
    d = cli("count", f, "--limit", "2", "--unique", "--json", "-t", "60").json()
    assert (d["count"], d["complete"], d["verdict"], d["method"], d["backend"]) == (0, True, "none", "refuted",
                                                                                 "cadical195")


def test_an_engine_the_user_names_counts_alone(cli, tmp_path):
    f = tmp_path / "door.toml"
    f.write_text(DOOR)
    d = cli("count", f, "-b", "exact", "-t", "1.5", "--json").json()
    assert (d["count"], d["complete"], d["stopped_by"], d["backend"], d["method"]) == (
        0, False, "time-limit", "exact", "enumerate")


def test_a_refuter_that_finds_a_solution_leaves_the_count_to_finish(soon, monkeypatch):
    spy = _Refuter(SearchResult(1, False, "fake-refuter", 0.0, [], "limit"), wait=False)
    monkeypatch.setattr(jobs, "_refuter_for", lambda *a: [spy])
    out = jobs.count(load_puzzle("pentomino-3x20"), _Slow(), may_switch=True, jobs=1)
    assert spy.ran
    assert (out.count, out.complete, out.method, out.backend, out.choice) == (8, True, "enumerate", "slow-exact",
                                                                             None)


def test_the_real_refuter_on_a_board_with_solutions_changes_nothing(soon):
    out = jobs.count(load_puzzle("pentomino-3x20"), _Slow(), may_switch=True, jobs=1)
    assert (out.count, out.complete, out.method, out.backend) == (8, True, "enumerate", "slow-exact")
    # (the determinant first: it finds, if asked, that it does not take pentominoes)
    assert [e.name for e in jobs._refuter_for(_Slow(), load_puzzle("pentomino-3x20").compile(), True)] == [
        "kasteleyn", "cadical195"]


def test_a_failed_refuter_leaves_the_count_as_it_was(soon, monkeypatch):
    broken = _Refuter(SolverFailed("refuter crashed"), wait=False)
    monkeypatch.setattr(jobs, "_refuter_for", lambda *a: [broken])
    out = jobs.count(load_puzzle("pentomino-3x20"), _Slow(), may_switch=True, jobs=1)
    assert broken.ran
    assert (out.count, out.complete, out.backend) == (8, True, "slow-exact")


def test_a_proof_of_none_beside_verified_solutions_is_an_error_not_an_answer(soon, monkeypatch):
    liar = _Refuter(SearchResult(0, True, "fake-refuter", 0.0, []))
    monkeypatch.setattr(jobs, "_refuter_for", lambda *a: [liar])
    with pytest.raises(VerificationError, match=r"^fake-refuter proved this problem has no solution, but "
                                                r"slow-exact found \d+ that passed the puzzle's checks$"):
        jobs.count(load_puzzle("pentomino-3x20"), _Slow(), may_switch=True, jobs=1)


def test_no_refuter_where_it_has_nothing_to_add():
    problem = load_puzzle("pentomino-3x20").compile()
    # the user's own engine, a model counter; CaDiCaL counting has only the determinant
    assert jobs._refuter_for(get_backend("exact"), problem, False) == []
    assert jobs._refuter_for(get_backend("ganak"), problem, True) == []
    assert [e.name for e in jobs._refuter_for(get_backend("cadical195"), problem, True)] == ["kasteleyn"]


#: the door between two mutilated 16x16 boards, dominoes only: CaDiCaL too
#: searches for minutes, the determinant of its planar graph is 0 at once
BIG_DOOR = ('[board]\nsize = [16, 33]\nholes = [' + "".join(f"[{i}, 17], " for i in range(1, 17) if i not in (7, 8))
            + '[1, 1], [16, 16], [1, 18], [16, 33]]\n[[pieces]]\nset = "dominoes"\ncount = 255\n')


def test_on_dominoes_the_determinant_refutes_a_count_that_lists(soon):
    # (--limit 2 lists the solutions it finds: the exact-cover engine counts,
    # and the determinant is the refuter)
    puzzle = load_toml(BIG_DOOR, "door.toml")
    assert puzzle.precheck() is None
    out = jobs.count(puzzle, limit=2, keep=True, time_limit=60)
    assert (out.count, out.complete, out.method, out.backend) == (0, True, "refuted", "kasteleyn")
    assert out.choice == ("exact had found no solution after 0.05 s; kasteleyn, started beside it, "
                          "proved there is none")
    # a board with a solution: the determinant finds it has some, and the count goes on
    out = jobs.count(load_puzzle("dominoes-8x8"), _Slow(), limit=3, may_switch=True)
    assert (out.count, out.complete, out.stopped_by, out.backend) == (3, False, "limit", "slow-exact")


def test_a_count_that_finds_solutions_at_once_starts_no_refuter(monkeypatch):
    # (the first of 6x10's solutions comes at ~0.06 s, the 2,000th at ~1.1 s:
    # the refuter's time comes in between, with solutions found; with the
    # 0.05 s of ``soon`` the first solution raced it, and lost under load)
    monkeypatch.setattr(jobs, "REFUTE_AFTER", 0.5)
    spy = _Refuter(SearchResult(1, False, "fake-refuter", 0.0, [], "limit"), wait=False)
    monkeypatch.setattr(jobs, "_refuter_for", lambda *a: [spy])
    out = jobs.count(load_puzzle("pentomino-6x10"), limit=2000, keep=True, jobs=1)
    assert (out.count, spy.ran) == (2000, False)


class _SlowToAnswerSupports(_Refuter):
    """A refuter whose supports() takes ``seconds`` of pure work (the
    determinant's planarity test: 6 s on a 640x640 board)."""

    def __init__(self, seconds):
        super().__init__(SearchResult(0, True, "fake-refuter", 0.0, []))
        self.seconds = seconds

    def supports(self, problem):
        time.sleep(self.seconds)
        return None


def test_a_count_that_ends_does_not_wait_for_a_refuter_still_asking_if_it_takes_the_problem(soon, monkeypatch):
    # the count's end joined the refuter's thread: a count past its time
    # limit waited those seconds too
    slow = _SlowToAnswerSupports(3.0)
    monkeypatch.setattr(jobs, "_refuter_for", lambda *a: [slow])
    t = time.monotonic()
    out = jobs.count(load_puzzle("pentomino-3x20"), _Slow(0.3), may_switch=True, jobs=1)
    assert time.monotonic() - t < 2.0
    assert (out.count, out.complete, out.method, slow.ran) == (8, True, "enumerate", False)


def test_the_precheck_and_the_choice_of_engine_count_against_the_time_limit(monkeypatch, capsys):
    # they ran after the limit's clock for reading and compiling had
    # stopped: 4-6 s past -t on a 640x640 board of dominoes
    from puzzlesat import cli
    from puzzlesat.models.tiling.puzzle import Tiling

    monkeypatch.setattr(Tiling, "precheck", lambda self: time.sleep(5))
    t = time.monotonic()
    assert cli.main(["count", "pentomino-3x20", "-t", "1"]) == 3
    assert time.monotonic() - t < 3.0
    assert capsys.readouterr().err == ("puzzlesat: stopped: the time limit (1 s) ran out while checking and "
                                       "choosing an engine for pentomino-3x20, before any search\n")


def test_the_split_into_sub_problems_counts_against_the_time_limit(monkeypatch):
    # the parts were given what was left before the split (1.1 s on a
    # 640x640 board of dominoes), not after it
    from puzzlesat.backends.base import SearchResult as Result

    real_split, given = jobs.split, []

    def slow_split(problem, target):
        time.sleep(1.0)
        return real_split(problem, target)

    def parts_given(self, problem, parts, keep, budget, remaining):
        given.append(remaining)
        return Result(0, False, "exact", 0.0, [], "time-limit")

    monkeypatch.setattr(jobs, "split", slow_split)
    monkeypatch.setattr(jobs._Counter, "_run_parts", parts_given)
    jobs.count(load_puzzle("pentomino-3x4x5"), get_backend("exact"), time_limit=5, jobs=2)
    # 5 s less the split's second (this count is split at once: no serial slice first)
    assert len(given) == 1 and given[0] <= 5 - 1.0
