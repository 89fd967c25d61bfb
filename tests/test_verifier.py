"""The families' checkers, rule by rule: each breaks one rule of a valid
solution and expects that rule's message (a checker that lost any one of its
checks fails here), and a back end that lies is caught end to end (exit 4)."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys

import pytest

from puzzlesat import jobs
from puzzlesat.backends import get_backend
from puzzlesat.backends.base import Backend, SearchResult, SolveResult, Status
from puzzlesat.errors import VerificationError
from puzzlesat.loading import load_puzzle
from puzzlesat.models.tiling.puzzle import TilingSolution


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


# ------------------------------------------------------------------ tilings


def test_a_valid_solution_passes():
    puzzle = load_puzzle("pentomino-8x8-hole")
    sol = jobs.solve(puzzle, get_backend("exact")).solution
    puzzle.verify(sol)  # the reference every test below breaks in one way


def test_overlap():
    puzzle = load_puzzle("dominoes-2x4")
    sol = jobs.solve(puzzle, get_backend("exact")).solution
    (n0, c0), (n1, c1) = sol.placements[:2]
    bad = TilingSolution([(n0, c0), (n1, c0)] + sol.placements[2:])  # the second domino on top of the first
    r, c = c0[0]
    with pytest.raises(VerificationError, match=rf"^cell \({r + 1}, {c + 1}\) covered by both D and D$"):
        puzzle.verify(bad)


def test_a_hole_covered():
    puzzle = load_puzzle("pentomino-8x8-hole")  # the central 2x2, rows and columns 4-5, is not a free cell
    sol = jobs.solve(puzzle, get_backend("exact")).solution
    name, cells = sol.placements[0]
    bad = TilingSolution([(name, cells[:-1] + ((3, 3),))] + sol.placements[1:])
    with pytest.raises(VerificationError, match=rf"^piece {name} covers \(4, 4\), which is not a free cell of the "
                                                r"board$"):
        puzzle.verify(bad)


def test_a_cell_off_the_board(tmp_path):
    puzzle = load_puzzle(_write(tmp_path, "line.box", "BOX / 4\nELEMENT / (D) (1), (2)\n"
                                                      "ELEMENT / (M) (1)\nELEMENT / (M) (1)\n"))
    bad = TilingSolution([("D", ((3,), (4,))), ("M", ((0,),)), ("M", ((1,),)), ("M", ((2,),))])
    with pytest.raises(VerificationError, match=r"^piece D covers \(5\), which is not a free cell of the board$"):
        puzzle.verify(bad)


def test_a_cell_left_uncovered():
    puzzle = load_puzzle("pentomino-3x20")
    sol = jobs.solve(puzzle, get_backend("exact")).solution
    name, cells = sol.placements[-1]
    with pytest.raises(VerificationError, match=r"^cell \(\d+, \d+\) is not covered$"):
        puzzle.verify(TilingSolution(sol.placements[:-1]))


def test_a_fixed_piece_left_out(tmp_path):
    # the RESERVE'd L's cells are not free cells, so nothing else noticed them bare
    puzzle = load_puzzle(_write(tmp_path, "fixed.box", "BOX / 2 * 4\nRESERVE / (L) (1, 1), (2, 1), (2, 2), (2, 3)\n"
                                                       + "ELEMENT / (L) (1, 1), (2, 1), (2, 2), (2, 3)\n" * 2))
    sol = jobs.solve(puzzle, get_backend("exact")).solution
    puzzle.verify(sol)
    kept = [pl for pl in sol.placements if pl != ("L", ((0, 0), (1, 0), (1, 1), (1, 2)))]
    assert len(kept) == 1
    with pytest.raises(VerificationError, match=r"^piece L fixed at \(1, 1\) \(2, 1\) \(2, 2\) \(2, 3\) is missing$"):
        puzzle.verify(TilingSolution(kept))


def test_a_piece_used_too_often(tmp_path):
    # a 1-D box of 4 cells: one domino and two monominoes; two dominoes cover
    # it exactly, every placement a true domino: only the piece count is wrong
    puzzle = load_puzzle(_write(tmp_path, "line.box", "BOX / 4\nELEMENT / (D) (1), (2)\n"
                                                      "ELEMENT / (M) (1)\nELEMENT / (M) (1)\n"))
    good = TilingSolution([("D", ((0,), (1,))), ("M", ((2,),)), ("M", ((3,),))])
    puzzle.verify(good)
    bad = TilingSolution([("D", ((0,), (1,))), ("D", ((2,), (3,)))])
    with pytest.raises(VerificationError, match=r"^piece D used 2 times, expected 1$"):
        puzzle.verify(bad)


def test_an_unknown_piece():
    puzzle = load_puzzle("pentomino-3x20")
    sol = jobs.solve(puzzle, get_backend("exact")).solution
    name, cells = sol.placements[0]
    bad = TilingSolution([("Q", cells)] + sol.placements[1:])
    with pytest.raises(VerificationError, match=r"^unknown piece 'Q' placed at "):
        puzzle.verify(bad)


def test_a_deformed_piece():
    puzzle = load_puzzle("dominoes-2x4")
    # two cells in a column and two in a row are dominoes; a diagonal pair is not
    bad = TilingSolution([("D", ((0, 0), (1, 1))), ("D", ((1, 0), (0, 1))), ("D", ((0, 2), (0, 3))),
                          ("D", ((1, 2), (1, 3)))])
    with pytest.raises(VerificationError, match=r"^piece D placed at .* is not an image of its shape$"):
        puzzle.verify(bad)


@pytest.mark.parametrize("one_sided", [False, True])
def test_a_mirrored_one_sided_piece(tmp_path, one_sided):
    # two L tetrominoes in a 2x4 box; the mirror tiling uses two J's
    text = ("BOX / 2 * 4\nELEMENT / (L) (1, 1), (2, 1), (3, 1), (3, 2)\n"
            "ELEMENT / (L) (1, 1), (2, 1), (3, 1), (3, 2)\n")
    if one_sided:
        text = "# one-sided: L\n" + text
    puzzle = load_puzzle(_write(tmp_path, "ls.box", text))
    sol = jobs.solve(puzzle, get_backend("exact")).solution
    puzzle.verify(sol)
    mirror = TilingSolution([(n, tuple((1 - r, c) for r, c in cells)) for n, cells in sol.placements])
    if not one_sided:
        puzzle.verify(mirror)  # a free piece may be turned over
        return
    with pytest.raises(VerificationError, match=r"^piece L placed at .* is not an image of its shape$"):
        puzzle.verify(mirror)


# ---------------------------------------------------------------- nonograms


def test_nonogram_rows_right_and_a_column_wrong(tmp_path):
    # 2x2, every row and column one black cell: the two diagonals solve it
    puzzle = load_puzzle(_write(tmp_path, "diag.nin", "2 2\n1\n1\n1\n1\n"))
    puzzle.verify(((1, 0), (0, 1)))
    with pytest.raises(VerificationError, match=r"^column 1 has runs 2, its clue is 1$"):
        puzzle.verify(((1, 0), (1, 0)))  # both rows still one black cell each


def test_nonogram_a_row_wrong_and_a_grid_of_the_wrong_size(tmp_path):
    puzzle = load_puzzle(_write(tmp_path, "diag.nin", "2 2\n1\n1\n1\n1\n"))
    with pytest.raises(VerificationError, match=r"^row 1 has runs 2, its clue is 1$"):
        puzzle.verify(((1, 1), (0, 0)))
    with pytest.raises(VerificationError, match=r"^the grid is not 2 wide and 2 high$"):
        puzzle.verify(((1, 0),))
    # a row one cell too long whose runs and columns still read right (a
    # mutant without the width check survived, review)
    with pytest.raises(VerificationError, match=r"^the grid is not 2 wide and 2 high$"):
        puzzle.verify(((1, 0, 0), (0, 1)))


# --------------------------------------------------- a lying back end, end to end


@pytest.fixture
def liar(tmp_path):
    """An external "SAT solver" that always answers the same wrong model:
    variables 1-4 true (on dominoes-2x4, two dominoes on the same cells)."""
    path = tmp_path / "liar"
    path.write_text("#!/bin/sh\necho 's SATISFIABLE'\necho 'v 1 2 3 4 0'\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def _run(*args):
    r = subprocess.run([sys.executable, "-m", "puzzlesat", *args], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert "Traceback" not in r.stderr, r.stderr
    return r


@pytest.mark.parametrize("job", ["solve", "count"])
def test_a_lying_outside_solver_is_caught(liar, job):
    # its model breaks the CNF it was given: caught before decoding
    r = _run(job, "dominoes-2x4", "-b", f"external:{liar}")
    assert r.returncode == 4
    assert r.stderr.strip() == (f"puzzlesat: verification failed: backend external:{liar} returned a model that "
                                "breaks a clause it was given (clause 4 of the CNF): -1 -2 0")
    assert r.stdout == ""  # nothing the liar said is printed as a solution


def test_compare_marks_a_lying_backend_invalid(liar):
    r = _run("compare", "dominoes-2x4", "--backends", f"external:{liar},exact", "--json")
    assert r.returncode == 4
    import json

    out = json.loads(r.stdout)
    runs = {row["backend"]: row for row in out["runs"]}
    assert runs[f"external:{liar}"]["status"] == "invalid"
    assert "breaks a clause it was given" in runs[f"external:{liar}"]["error"]
    assert (runs["exact"]["status"], runs["exact"]["result"]) == ("ok", "solved")
    assert out["agreement"]["dominoes-2x4"]["invalid"] == [f"external:{liar}"]


@pytest.mark.parametrize("job", ["solve", "count"])
def test_compare_refuses_a_no_solution_the_goal_disproves(tmp_path, job):
    # solve and count refuse an UNSAT their verified goal disproves; compare
    # showed "no-solution" (or "counted 0"), agreeing, exit 0
    path = tmp_path / "unsat"
    path.write_text("#!/bin/sh\necho 's UNSATISFIABLE'\nexit 20\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    r = _run("compare", "dancer", "--backends", f"external:{path}", "--json", *(["--count"] if job == "count" else []))
    assert r.returncode == 4
    import json

    out = json.loads(r.stdout)
    (row,) = out["runs"]
    assert (row["status"], row["agree"]) == ("invalid", False)
    assert row["error"] == (f"external:{path} says there is no solution, but the solution the puzzle file gives "
                            "(its goal) is one (verified): the engine is wrong")
    r = _run("compare", "dancer", "--backends", f"external:{path},cadical195")
    assert r.returncode == 4
    assert r.stdout.splitlines()[-1] == f"!!! MISMATCH on dancer: external:{path} gave a wrong answer (refused by " \
                                        "the verifier)"


class _Answers(Backend):
    """A back end that answers ``assignment`` every time, whatever the
    problem (no CNF involved: only the puzzle's checker stands between it and
    the user)."""

    def __init__(self, name: str, assignment: frozenset | None):
        self.name, self.assignment = name, assignment

    def supports(self, problem):
        return None

    def solve(self, problem, *, time_limit=None):
        return SolveResult(Status.SOLVED, self.assignment, self.name, 0.0)

    def search(self, problem, *, limit=None, time_limit=None, keep=False, on_solution=None, phases=None,
               on_count=None):
        if on_solution is not None:
            on_solution(self.assignment)
        return SearchResult(1, True, self.name, 0.0)


def _liar():
    """Variables 1-4 true: on dominoes-2x4, two dominoes on the same cells."""
    return _Answers("liar", frozenset({1, 2, 3, 4}))


LIE = "backend liar returned an invalid solution: cell (1, 2) covered by both D and D"


def test_the_puzzle_checker_stands_between_a_lying_engine_and_the_user():
    puzzle = load_puzzle("dominoes-2x4")
    with pytest.raises(VerificationError, match=re.escape(LIE) + "$"):
        jobs.solve(puzzle, _liar())
    with pytest.raises(VerificationError, match=re.escape(LIE) + "$"):
        jobs.count(puzzle, _liar(), keep=True)


def test_a_solved_answer_without_an_assignment_is_not_a_solution():
    with pytest.raises(VerificationError, match=r"^backend mute reported a solution but returned no assignment$"):
        jobs.solve(load_puzzle("dominoes-2x4"), _Answers("mute", None))


def test_an_outside_solver_repeating_a_model_is_caught(tmp_path):
    # a "solver" that always prints the same valid model of twins (2 solutions):
    # each answer decodes to a true solution, but the second one breaks the
    # blocking clause of the first; counted as found, twins would have 2,969
    import shutil

    cnf = tmp_path / "twins.cnf"
    assert _run("export", "twins", "-o", str(cnf)).returncode == 0
    r = subprocess.run([shutil.which("minisat"), str(cnf), str(tmp_path / "model")], capture_output=True, text=True)
    assert r.returncode == 10
    sat, model = (tmp_path / "model").read_text().split("\n", 1)
    assert sat == "SAT"
    fake = tmp_path / "fixed"
    fake.write_text(f"#!/bin/sh\necho 's SATISFIABLE'\necho 'v {model.strip()}'\nexit 10\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    # (twins has no goal to leave out; the model exported is the clues as stated)
    r = _run("count", "twins", "-b", f"external:{fake}", "--no-preprocess")
    assert r.returncode == 4, (r.stdout, r.stderr)
    assert r.stderr.startswith(f"puzzlesat: verification failed: backend external:{fake} returned a model that "
                               "breaks a clause it was given (")
    assert r.stdout == ""
    # count on twins searches its symmetric solutions first, with
    # equalities the fixed model breaks; plain blocking is caught as well:
    from puzzlesat.backends.external import ExternalBackend

    puzzle = load_puzzle("twins")
    with pytest.raises(VerificationError, match=r"\(the blocking clause of solution 1: it answered that "
                                                 r"solution again\): -?\d+( -?\d+)* 0$"):
        jobs.count(puzzle, ExternalBackend(str(fake)), use_known=False)
