"""The race `solve` runs by default on a tiling: exact cover against CaDiCaL,
the first decisive answer wins, the other engine is stopped; failures,
time limits and Ctrl-C."""

from __future__ import annotations

import re
import threading
import time

import pytest

from puzzlesat import jobs
from puzzlesat.backends import SearchResult, SolverFailed, Status, get_backend
from puzzlesat.backends.base import Backend
from puzzlesat.backends.race import Race
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.tomlfile import load as load_toml

#: two mutilated 8x8 boards joined by a door two cells high (one region,
#: balanced as a whole, so the precheck passes it), in dominoes and one 2x2
#: square: no tiling, which CaDiCaL proves in a fraction of a second and
#: dancing links not in minutes (the square keeps the determinant out)
DOOR = ('[board]\nsize = [8, 17]\nholes = [' + "".join(f"[{i}, 9], " for i in range(1, 9) if i not in (4, 5))
        + '[1, 1], [8, 8], [1, 10], [8, 17]]\n[[pieces]]\nset = "dominoes"\ncount = 61\n'
        '[[pieces]]\nname = "O"\ncells = [[1, 1], [1, 2], [2, 1], [2, 2]]\ncount = 1\n')
#: the same of 16x16 boards: CaDiCaL takes minutes too
BIG_DOOR = ('[board]\nsize = [16, 33]\nholes = [' + "".join(f"[{i}, 17], " for i in range(1, 17) if i not in (7, 8))
            + '[1, 1], [16, 16], [1, 18], [16, 33]]\n[[pieces]]\nset = "dominoes"\ncount = 253\n'
            '[[pieces]]\nname = "O"\ncells = [[1, 1], [1, 2], [2, 1], [2, 2]]\ncount = 1\n')
#: and in dominoes alone: the determinant of its planar graph is 0 at once
BIG_DOMINO_DOOR = ('[board]\nsize = [16, 33]\nholes = ['
                   + "".join(f"[{i}, 17], " for i in range(1, 17) if i not in (7, 8))
                   + '[1, 1], [16, 16], [1, 18], [16, 33]]\n[[pieces]]\nset = "dominoes"\ncount = 255\n')


def test_solve_races_exact_against_cadical_on_a_tiling_and_not_elsewhere():
    p = load_puzzle("pentomino-3x4x5")
    be = jobs.pick_backend(p.compile(), None, "solve")
    assert isinstance(be, Race) and [e.name for e in be.engines] == ["exact", "cadical195"]
    # a named engine, an encoding (exact takes none) or a nonogram: one engine
    assert jobs.pick_backend(p.compile(), "exact", "solve").name == "exact"
    assert jobs.pick_backend(p.compile(), None, "solve", "seqcounter").name == "cadical195"
    assert jobs.pick_backend(load_puzzle("dancer").compile(), None, "solve").name == "cadical195"


def test_the_engine_that_proves_no_tiling_wins_and_the_other_is_stopped():
    puzzle = load_toml(DOOR, "door.toml")
    assert puzzle.precheck() is None
    before = threading.active_count()
    out = jobs.solve(puzzle)
    assert (out.status, out.backend, out.choice) == (Status.NO_SOLUTION, "cadical195", "raced against exact")
    assert threading.active_count() == before  # the exact engine's thread has ended


def test_the_winners_solution_is_decoded_and_verified(cli):
    r = cli("solve", "pentomino-3x4x5", "--json")
    assert r.code == 0, r.err
    d = r.json()
    assert d["backend"] in ("exact", "cadical195")
    assert d["backend_choice"] == "raced against " + ("cadical195" if d["backend"] == "exact" else "exact")
    placed = d["solution"]["placements"]
    assert sorted(x["piece"] for x in placed) == sorted("FILNPTUVWXYZ")
    cells = [tuple(c) for x in placed for c in x["cells"]]
    assert len(cells) == len(set(cells)) == 60
    last = cli("solve", "pentomino-3x4x5").out.splitlines()[-1]
    assert re.fullmatch(r"solved by (exact|cadical195) in \d+\.\d{3} s \(raced against (cadical195|exact)\)", last)


class _Fake(Backend):
    """An engine that answers ``result`` after ``delay`` seconds (or raises
    it), or waits until its on_count says stop."""

    def __init__(self, name, result, delay=0.0):
        self.name, self.result, self.delay = name, result, delay
        self.stopped = False

    def search(self, problem, *, limit=None, time_limit=None, keep=False, on_solution=None, phases=None,
               on_count=None):
        end = time.monotonic() + self.delay
        while time.monotonic() < end:
            if on_count is not None and on_count(0):
                self.stopped = True
                return SearchResult(0, False, self.name, 0.0, [], "callback")
            time.sleep(0.005)
        if isinstance(self.result, BaseException):
            raise self.result
        return self.result


def test_a_failed_engine_leaves_the_race_to_the_other():
    answer = SearchResult(1, False, "b", 0.1, [frozenset({1})], "limit")
    failing = _Fake("a", SolverFailed("solver a crashed"))
    r = Race([failing, _Fake("b", answer, 0.2)]).search(None, limit=1, keep=True)
    assert (r.backend, r.solutions, r.stats["race"]) == ("b", [frozenset({1})], "a | b")


def test_with_no_answer_a_failure_is_raised_not_dropped():
    slow = _Fake("b", SearchResult(0, False, "b", 1.0, [], "time-limit"), 0.1)
    with pytest.raises(SolverFailed, match="solver a crashed"):
        Race([_Fake("a", SolverFailed("solver a crashed")), slow]).search(None, limit=1)


def test_the_loser_is_asked_to_stop_as_soon_as_the_winner_answers():
    loser = _Fake("slow", SearchResult(1, True, "slow", 60.0, []), delay=60)
    winner = SearchResult(0, True, "fast", 0.05, [])
    t = time.monotonic()
    r = Race([_Fake("fast", winner, 0.05), loser]).search(None, limit=1)
    assert (r.backend, r.complete, loser.stopped) == ("fast", True, True)
    assert time.monotonic() - t < 30  # not the loser's 60 s


def test_no_answer_within_the_limit_is_unknown_stopped_by_the_time_limit(cli, tmp_path):
    big = tmp_path / "big.toml"
    big.write_text(BIG_DOOR)
    r = cli("solve", big, "-t", "1", "--json")
    assert r.code == 3, r.err
    d = r.json()
    assert (d["status"], d["stopped_by"], d["backend"], d["backend_choice"]) == (
        "unknown", "time-limit", "exact | cadical195", "a race of exact and cadical195")


def test_ctrl_c_ends_a_race(interrupted, tmp_path):
    big = tmp_path / "big.toml"
    big.write_text(BIG_DOOR)
    r = interrupted("solve", big, "--json", "--progress", after="solving (exact | cadical195): ")
    assert r.code == 3, r.err
    assert "Traceback" not in r.err
    d = r.json()
    assert (d["status"], d["stopped_by"], d["backend"]) == ("unknown", "interrupted", "exact | cadical195")


def test_a_failure_beside_a_winning_answer_is_said_not_dropped(monkeypatch):
    # the answer stands (it is verified); the engine that failed is named with it
    from puzzlesat.backends import race

    real = race.Race.search

    def one_fails(self, problem, **kw):
        self.engines[1] = _Fake("cadical195", SolverFailed("cadical195 crashed"))
        return real(self, problem, **kw)

    monkeypatch.setattr(race.Race, "search", one_fails)
    out = jobs.solve(load_puzzle("pentomino-3x20"))
    assert (out.status, out.backend) == (Status.SOLVED, "exact")
    assert out.choice == "raced against cadical195; cadical195: cadical195 crashed"


def test_on_dominoes_the_determinant_joins_the_race_and_proves_there_is_none(cli, tmp_path):
    # CaDiCaL and dancing links search this board for minutes; the
    # determinant, which lists nothing, joins after their first second
    f = tmp_path / "door.toml"
    f.write_text(BIG_DOMINO_DOOR)
    d = cli("solve", f, "--json", "-t", "60").json()
    assert (d["status"], d["backend"], d["backend_choice"]) == (
        "no-solution", "kasteleyn", "raced against exact and cadical195")
    race = jobs.pick_backend(load_toml(BIG_DOMINO_DOOR, "door.toml").compile(), None, "solve")
    assert ([e.name for e in race.engines], [e.name for e in race.refuters]) == (
        ["exact", "cadical195"], ["kasteleyn"])
    # a board with a tiling is answered before the refuter would start
    d = cli("solve", "dominoes-8x8", "--json").json()
    assert (d["status"], d["backend_choice"]) == ("solved", "raced against " + (
        "cadical195" if d["backend"] == "exact" else "exact"))
    assert len(d["solution"]["placements"]) == 32


@pytest.fixture
def refuters_soon(monkeypatch):
    from puzzlesat.backends import race

    monkeypatch.setattr(race, "REFUTERS_AFTER", 0.05)


def _counter(result):
    c = _Fake("counter", result)
    c.can_enumerate = False
    return c


def test_a_refuter_that_proves_none_ends_the_race(refuters_soon):
    slow = _Fake("slow", SearchResult(1, True, "slow", 60.0, []), delay=60)
    r = Race([slow, _Fake("b", SearchResult(0, False, "b", 0.1, [], "time-limit"), 60)],
             [_counter(SearchResult(0, True, "counter", 0.01, []))]).search(None, limit=1)
    assert (r.count, r.complete, r.backend, r.stats["race"]) == (0, True, "counter", "slow | b")
    assert slow.stopped
    assert r.seconds >= 0.05  # the race's time, head start included, not the refuter's own 0.01


def test_a_refuter_that_finds_some_or_fails_leaves_the_race_to_the_engines(refuters_soon):
    answer = SearchResult(1, False, "b", 0.1, [frozenset({1})], "limit")
    for refuter in (_counter(SearchResult(7, True, "counter", 0.0, [])), _counter(SolverFailed("it broke"))):
        race = Race([_Fake("a", SearchResult(0, False, "a", 0.3, [], "time-limit"), 0.3),
                     _Fake("b", answer, 0.3)], [refuter])
        r = race.search(None, limit=1, keep=True)
        assert (r.backend, r.solutions, r.stats["refuters"]) == ("b", [frozenset({1})], ["counter"])
        assert "race_failed" not in r.stats


def test_a_race_that_ends_sooner_starts_no_refuter():
    refuter = _counter(SearchResult(0, True, "counter", 0.0, []))
    race = Race([_Fake("a", SearchResult(1, False, "a", 0.0, [frozenset({1})], "limit")),
                 _Fake("b", SearchResult(0, False, "b", 0.0, [], "time-limit"), 5)], [refuter])
    r = race.search(None, limit=1, keep=True)
    assert (r.backend, r.stats["refuters"]) == ("a", [])
