"""puzzlesat export / decode: files other tools read, answers read back,
round trips through real solvers, and the errors a user can cause."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import threading

import pytest

from puzzlesat.cli import main
from puzzlesat.encoders.dimacs import read_cnf
from puzzlesat.loading import load_puzzle

needs = {b: pytest.mark.skipif(shutil.which(b) is None, reason=f"{b} is not installed: apt-get install -y {b}")
         for b in ("minisat", "picosat")}

# a nonogram with exactly one solution: an arrow pointing up
NONO = """title "arrow"
width 5
height 5

rows
1
3
5
1
1

columns
1
2
5
2
1
"""


@pytest.fixture
def nono(tmp_path):
    p = tmp_path / "arrow.non"
    p.write_text(NONO)
    return str(p)


def _run_solver(solver, cnf, tmp_path):
    if solver == "minisat":
        out = tmp_path / "result.txt"
        rc = subprocess.run(["minisat", "-verb=0", cnf, str(out)], capture_output=True, timeout=120).returncode
        assert rc == 10
        return str(out)
    proc = subprocess.run([solver, cnf], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 10
    out = tmp_path / f"{solver}.out"
    out.write_text(proc.stdout)
    return str(out)


# ------------------------------------------------------------- export


def test_export_dimacs_to_stdout(capsys):
    assert main(["export", "dominoes-2x4", "-o", "-"]) == 0
    out = capsys.readouterr().out
    cnf = read_cnf(out)
    assert cnf.header.encoding == "mixed" and cnf.show == sorted(load_puzzle("dominoes-2x4").compile().primary)
    assert out.splitlines()[0] == "c puzzlesat DIMACS export"


def test_export_json_summary(tmp_path, capsys):
    out = tmp_path / "m.cnf"
    assert main(["export", "pentomino-3x20", "-o", str(out), "-e", "seqcounter", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    cnf = read_cnf(out.read_text())
    assert (info["variables"], info["clauses"], info["encoding"]) == (cnf.n_vars, len(cnf.clauses), "seqcounter")
    assert info["primary"] == len(cnf.show) == 1236


def test_export_cpsat_text_proto_solves(tmp_path):
    from ortools.sat.python import cp_model

    out = tmp_path / "m.pb.txt"
    assert main(["export", "dominoes-2x4", "--format", "cpsat", "-o", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("# puzzlesat CP-SAT model") and "# var 1 place D" in text
    model = cp_model.CpModel()
    assert model.proto.parse_text_format(text)
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False  # else its SIGINT handler outlives the solve (see test_regular)
    assert solver.solve(model) == cp_model.OPTIMAL
    puzzle = load_puzzle("dominoes-2x4")
    problem = puzzle.compile()
    true = frozenset(v for v in problem.primary if solver.boolean_value(model.get_bool_var_from_proto_index(v - 1)))
    puzzle.verify(puzzle.decode(problem, true))


def test_export_opb(tmp_path, nono):
    out = tmp_path / "m.opb"
    assert main(["export", "dominoes-2x4", "--format", "opb", "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0].startswith("* #variable= ")
    n_cons = int(lines[0].split()[-1])
    body = [l for l in lines if not l.startswith("*")]
    assert len(body) == n_cons and all(l.endswith(" ;") for l in body)
    assert any(l.endswith("= 1 ;") for l in body)  # a board cell
    # Regular constraints (nonogram lines) go out as clauses over auxiliaries
    assert main(["export", nono, "--format", "opb", "-o", str(out)]) == 0
    assert ">= " in out.read_text()


def test_export_unique_counts_orbits_with_a_model_counter(tmp_path):
    out = tmp_path / "u.cnf"
    assert main(["export", "dominoes-2x4", "--unique", "-o", str(out)]) == 0
    text = out.read_text()
    assert "lex-leader symmetry breaking over the 4 symmetries" in text
    cnf = read_cnf(text)
    assert cnf.header.unique
    assert _pyganak_count(cnf) == 4
    # the comment's figures are what --unique added (it gave 105 clauses for 126)
    assert main(["export", "dominoes-2x4", "-o", str(tmp_path / "plain.cnf")]) == 0
    plain = read_cnf((tmp_path / "plain.cnf").read_text())
    aux, added = map(int, re.search(r"\((\d+) auxiliary variables, (\d+) clauses\)", text).groups())
    assert (aux, added) == (cnf.n_vars - plain.n_vars, len(cnf.clauses) - len(plain.clauses)) == (21, 126)


def test_export_unique_of_an_instance_without_symmetries_says_nothing_was_added(capsys):
    # dancer's picture has no symmetry of the grid: the group is the identity alone
    assert main(["export", "dancer", "--unique", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert "c --unique: the instance has no symmetries; nothing added" in out.splitlines()
    assert "lex-leader" not in out


def test_export_of_a_piece_that_fits_nowhere_is_unsatisfiable(tmp_path, capsys):
    # a straight hexomino on a 2x3 board has no placement: each of the 6 cells
    # and the piece is an exactly-one over no variable, the empty clause
    board = tmp_path / "i6.toml"
    board.write_text('[board]\nsize = [2, 3]\n[[pieces]]\nname = "I"\n'
                     "cells = [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 6]]\n")
    assert main(["export", str(board), "-o", "-"]) == 0
    lines = capsys.readouterr().out.splitlines()
    body = lines[lines.index("p cnf 0 7") + 1:]
    assert body == ["0"] * 7
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=read_cnf("\n".join(lines) + "\n").clauses) as s:
        assert s.solve() is False


@pytest.mark.parametrize("count", ["99999999999999999999", str(2**63 - 1)])
def test_a_piece_count_no_machine_integer_holds_exports_as_an_unsatisfiable_model(count, tmp_path, capsys):
    # an I pentomino 10**20 times: the CP-SAT model said sum == 10**20 and
    # OR-Tools raised a TypeError (a traceback, exit 1); the same constraint
    # with a number it holds is written instead, and says no solution
    from ortools.sat.python import cp_model

    board = tmp_path / "many.toml"
    board.write_text('[board]\nsize = [2, 5]\n[[pieces]]\nname = "I"\n'
                     f"cells = [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5]]\ncount = {count}\n")
    out = tmp_path / "m.pbtxt"
    assert main(["export", str(board), "-o", str(out)]) == 0
    model = cp_model.CpModel()
    assert model.proto.parse_text_format(out.read_text())
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False
    assert solver.solve(model) == cp_model.INFEASIBLE
    assert main(["export", str(board), "-o", str(tmp_path / "m.opb")]) == 0
    assert "+1 x1 +1 x2 = 3 ;" in (tmp_path / "m.opb").read_text().splitlines()
    capsys.readouterr()
    assert main(["compare", str(board), "-b", "cpsat,minisat22", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["runs"]
    assert [(r["backend"], r["result"]) for r in rows] == [("cpsat", "no-solution"), ("minisat22", "no-solution")]


def _pyganak_count(cnf) -> int:
    """pyganak reading the exported file: clauses and the `c p show` line."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as pool:
        return pool.apply(_ganak_child, (cnf.n_vars, cnf.clauses, cnf.show))


def _ganak_child(n_vars, clauses, show):
    import os

    from pyganak import Counter

    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # Ganak prints 'c o' lines
    c = Counter(verbose=0, seed=0)
    c.new_vars(n_vars)
    c.add_clauses(clauses)
    c.set_sampling_set(show)
    return int(c.count())


def test_pyganak_counts_a_small_export_like_count(tmp_path, capsys):
    out = tmp_path / "t.cnf"
    assert main(["export", "tetromino-L-2x4", "-o", str(out)]) == 0
    assert main(["count", "tetromino-L-2x4", "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)["count"]
    assert _pyganak_count(read_cnf(out.read_text())) == expected == 2


@pytest.mark.slow
def test_pyganak_counts_the_3x20_export_like_count(tmp_path, capsys):
    """Ganak takes a few CPU minutes on this one (pytest -m slow)."""
    out = tmp_path / "p.cnf"
    assert main(["export", "pentomino-3x20", "-e", "pairwise", "-o", str(out)]) == 0
    assert main(["count", "pentomino-3x20", "-b", "exact", "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)["count"]
    assert _pyganak_count(read_cnf(out.read_text())) == expected == 8


def test_export_errors(tmp_path, capsys):
    assert main(["export", "dominoes-2x4", "-o", "-", "--json"]) == 2
    assert capsys.readouterr().err == "puzzlesat: --json and '-o -' would both write to stdout; give -o a file\n"
    bad = tmp_path / "no" / "such" / "dir.cnf"
    assert main(["export", "dominoes-2x4", "-o", str(bad)]) == 2
    assert capsys.readouterr().err == f"puzzlesat: {bad}: cannot write: No such file or directory\n"
    assert main(["export", "dominoes-2x4", "-f", "cpsat", "-e", "pairwise", "-o", "-"]) == 2
    assert capsys.readouterr().err == ("puzzlesat: --encoding chooses a CNF encoding; the cpsat format keeps "
                                       "cardinality constraints as they are\n")


def test_export_time_limit_writes_nothing_and_keeps_the_old_file(tmp_path, capsys, monkeypatch):
    # one limit for reading, compiling, encoding and writing; a DIMACS writer
    # slowed down here stands for the 1000 x 1000 puzzle's 20 s of it
    import time

    from puzzlesat.commands import export

    real = export.build_dimacs
    monkeypatch.setattr(export, "build_dimacs", lambda *a, **k: (time.sleep(30), real(*a, **k))[1])
    out = tmp_path / "model.cnf"
    out.write_text("an older export\n")
    assert main(["export", "dominoes-2x4", "-o", str(out), "-t", "0.3"]) == 3
    assert capsys.readouterr().err == ("puzzlesat: stopped: the time limit (0.3 s) ran out while exporting "
                                       "dominoes-2x4: nothing written\n")
    assert out.read_text() == "an older export\n" and sorted(p.name for p in tmp_path.iterdir()) == ["model.cnf"]
    assert main(["export", "dominoes-2x4", "-o", str(out), "-t", "0.3", "--json"]) == 3
    assert json.loads(capsys.readouterr().out)["kind"] == "time-limit"
    monkeypatch.setattr(export, "build_dimacs", real)
    assert main(["export", "dominoes-2x4", "-o", str(out), "-t", "60"]) == 0
    assert read_cnf(out.read_text()).n_vars == 10


@pytest.mark.parametrize("where", ["just after the rename", "as the export returns"])
@pytest.mark.parametrize("output", ["file", "stdout"])
def test_a_time_limit_once_the_export_is_in_place_is_no_failure(tmp_path, capsys, monkeypatch, where, output):
    # the limit's signal landing after the file was renamed into place (freeing
    # a large model as the export returned took a while) said "nothing
    # written", exit 3, over a complete file (audit)
    from puzzlesat.commands import export
    from puzzlesat.errors import BuildTimeLimit

    fired = []

    def limit():  # (once: the limit's timer fires once)
        if not fired:
            fired.append(True)
            raise BuildTimeLimit("the time limit (60 s) ran out while exporting dominoes-2x4: nothing written")

    if where == "just after the rename" and output == "file":
        real_replace = os.replace
        monkeypatch.setattr(export.os, "replace", lambda a, b: (real_replace(a, b), limit()))
    elif where == "just after the rename":  # (stdout: just after its flush)
        real_flush = export.sys.stdout.flush
        monkeypatch.setattr(export.sys.stdout, "flush", lambda: (real_flush(), limit()))
    else:
        real_write = export._write
        monkeypatch.setattr(export, "_write", lambda *a: (real_write(*a), limit()))
    out = tmp_path / "model.cnf"
    if output == "file":
        assert main(["export", "dominoes-2x4", "-o", str(out), "-t", "60"]) == 0
        assert capsys.readouterr().err.startswith(f"wrote {out} (dimacs: ")
        text = out.read_text()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["model.cnf"]
    else:
        assert main(["export", "dominoes-2x4", "-o", "-", "-t", "60"]) == 0
        text = capsys.readouterr().out
    assert fired and read_cnf(text).n_vars == 10


def test_export_is_written_whole_or_not_at_all(tmp_path):
    from puzzlesat.commands.export import _write

    def lines():
        yield "p cnf 1 1\n"
        raise KeyboardInterrupt  # Ctrl-C in the middle of writing
    out = tmp_path / "new.cnf"
    with pytest.raises(KeyboardInterrupt):
        _write(str(out), lines(), {})
    assert list(tmp_path.iterdir()) == []  # no truncated model, no part file
    # a new file gets the umask's permissions, an existing one keeps its own
    old = os.umask(0o022)
    try:
        _write(str(out), ["p cnf 0 0\n"], {})
        assert out.stat().st_mode & 0o777 == 0o644
        out.chmod(0o600)
        _write(str(out), ["p cnf 1 0\n"], {})
        assert out.stat().st_mode & 0o777 == 0o600 and out.read_text() == "p cnf 1 0\n"
    finally:
        os.umask(old)


def test_export_writes_through_a_link_and_into_a_fifo(tmp_path, capsys):
    # renaming the new file over the path replaced a symbolic link by a file
    # (its target kept the old model) and a FIFO (or /dev/null) by a file
    real = tmp_path / "real.cnf"
    real.write_text("an older export\n")
    (tmp_path / "link.cnf").symlink_to(real)
    assert main(["export", "dominoes-2x4", "-o", str(tmp_path / "link.cnf")]) == 0
    assert (tmp_path / "link.cnf").is_symlink() and read_cnf(real.read_text()).n_vars == 10
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.cnf", "real.cnf"]
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    assert main(["export", "dominoes-2x4", "-o", str(fifo)]) == 0
    reader.join(10)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and got == [real.read_text()]
    assert main(["export", "dominoes-2x4", "-o", os.devnull]) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    # /dev/stdout into a pipe: its link leads to /proc/PID/fd/pipe:[N], no directory for a part file (review)
    import sys

    r = subprocess.run([sys.executable, "-m", "puzzlesat", "export", "dominoes-2x4", "-o", "/dev/stdout"],
                       capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, real.read_text()), r.stderr
    # a name as long as a name may be (255 bytes): the part file's own name is short
    long = tmp_path / ("x" * 251 + ".cnf")
    assert main(["export", "dominoes-2x4", "-o", str(long)]) == 0
    assert long.read_text() == real.read_text()
    capsys.readouterr()


# ------------------------------------------------------- round trips


_ROUND_TRIPS = [("tetromino-L-2x4", "mixed"), ("dominoes-2x4", "seqcounter"), ("pentomino-3x20", "mixed"),
                ("nonogram", "mixed"), ("nonogram", "pairwise")]


# picosat needs 10-40 s on 3x20, so it round-trips the small boards and the nonogram only
@pytest.mark.parametrize("solver,instance,encoding",
                         [pytest.param(s, i, e, marks=needs[s]) for s in ("minisat", "picosat")
                          for i, e in _ROUND_TRIPS if not (s == "picosat" and i == "pentomino-3x20")])
def test_round_trip(solver, instance, encoding, tmp_path, nono, capsys):
    inst = nono if instance == "nonogram" else instance
    cnf = str(tmp_path / "m.cnf")
    assert main(["export", inst, "-e", encoding, "-o", cnf]) == 0
    answer = _run_solver(solver, cnf, tmp_path)
    capsys.readouterr()
    assert main(["decode", inst, answer, "--cnf", cnf, "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    # (a nonogram's model has no cardinality constraint: no encoding applies)
    assert res["valid"] and res["encoding"] == (None if instance == "nonogram" else encoding) \
        and res["falsified_clauses"] == 0
    # without --cnf the encoding must be given
    assert main(["decode", inst, answer, "-e", encoding]) == 0
    assert "verified" in capsys.readouterr().out


@needs["minisat"]
def test_round_trip_unique(tmp_path, capsys):
    cnf = str(tmp_path / "u.cnf")
    assert main(["export", "dominoes-2x4", "--unique", "-o", cnf]) == 0
    answer = _run_solver("minisat", cnf, tmp_path)
    assert main(["decode", "dominoes-2x4", answer, "--cnf", cnf]) == 0
    # without --cnf and without --unique the lex-leader auxiliaries are "beyond" the plain CNF
    assert main(["decode", "dominoes-2x4", answer]) == 2
    assert main(["decode", "dominoes-2x4", answer, "--unique"]) == 0


# ---------------------------------------------------------- decode errors


def _answer(tmp_path, text, name="a.txt"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def _solution_lits(name):
    """A verified solution's true primary variables, from the exact-cover engine."""
    from puzzlesat.backends import get_backend

    puzzle = load_puzzle(name)
    problem = puzzle.compile()
    return problem, sorted(get_backend("exact").solve(problem).assignment)


def test_decode_partial_assignment(tmp_path, capsys):
    problem, lits = _solution_lits("pentomino-3x20")
    a = _answer(tmp_path, "s SATISFIABLE\n" + "".join(f"v {v}\n" for v in lits) + "v 0\n")
    assert main(["decode", "pentomino-3x20", a]) == 0
    out = capsys.readouterr().out
    assert "decoded 12 true primary variables" in out and "(competition style, 12 of" in out


def test_decode_unsat_is_no_solution(tmp_path, capsys):
    assert main(["decode", "pentomino-3x20", _answer(tmp_path, "c x\ns UNSATISFIABLE\n")]) == 1
    assert capsys.readouterr().out.startswith("no solution")
    assert main(["decode", "pentomino-3x20", _answer(tmp_path, "UNSAT\n")]) == 1
    assert main(["decode", "pentomino-3x20", _answer(tmp_path, "s UNKNOWN\n")]) == 3


def test_decode_checks_an_unsat_answer_against_what_the_file_knows(tmp_path, capsys):
    unsat = _answer(tmp_path, "s UNSATISFIABLE\n")
    # a count the file expects is said (3x20 says 8, and 2 up to symmetry)
    assert main(["decode", "pentomino-3x20", unsat]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("no solution") and err == (
        "puzzlesat: warning: the instance file expects 8 solutions; the solver says there is none\n")
    assert main(["decode", "pentomino-3x20", unsat, "--unique"]) == 1
    assert capsys.readouterr().err.endswith("expects 2 solutions up to symmetry; the solver says there is none\n")
    # a goal picture, verified, proves the CNF satisfiable: the answer is wrong
    assert main(["decode", "dancer", unsat, "--json"]) == 4
    out, err = capsys.readouterr()
    d = json.loads(out)
    assert (d["valid"], d["kind"], d["exit_code"]) == (False, "verification-failed", 4)
    assert err == (f"puzzlesat: verification failed: {unsat}: the solver says the CNF is unsatisfiable, but the "
                   "goal picture of dancer is a solution (verified): the solver (or the answer file) is wrong\n")
    # no goal, no expected count: nothing to hold it against
    assert main(["decode", "5-dom", unsat]) == 1
    assert capsys.readouterr().err == ""


def test_decode_invalid_tiling_names_cell_and_pieces(tmp_path, capsys):
    problem, lits = _solution_lits("pentomino-3x20")
    wrong = [lits[0] + 1] + lits[1:]  # the first placement shifted to its neighbour variable
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, wrong)) + " 0\n")
    assert main(["decode", "pentomino-3x20", a]) == 4
    err = capsys.readouterr().err
    # the moved piece now overlaps the one that covered its new cell
    moved, was = problem.meaning(wrong[0]), problem.meaning(lits[0])
    (cell,) = set(moved.cells) - set(was.cells)
    owner = next(problem.meaning(v).piece for v in lits[1:] if cell in problem.meaning(v).cells)
    r, c = cell
    pair = f"({moved.piece} and {owner}|{owner} and {moved.piece})"
    assert re.fullmatch(rf"puzzlesat: verification failed: {re.escape(a)}: the solver's model is not a solution: "
                        rf"cell \({r + 1}, {c + 1}\) covered by both {pair}\n", err), err


def test_decode_invalid_nonogram_names_the_line(tmp_path, nono, capsys):
    puzzle = load_puzzle(nono)
    problem = puzzle.compile()
    a = _answer(tmp_path, "s SATISFIABLE\nv 3 0\n")  # one black cell in row 1 only
    assert main(["decode", nono, a]) == 4
    err = capsys.readouterr().err
    assert "row 2 has runs" in err and "its clue is 3" in err


@pytest.mark.parametrize("text,line,words", [
    ("hello\n", 1, "not a SAT solver's answer"),
    ("s SATISFIABLE\nv 1 -1 0\n", 2, "given both values"),
    ("s SATISFIABLE\nv 1\nv 99999 0\n", 3, "variable 99999 is beyond the"),
])
def test_decode_bad_answers_exit_2_with_file_line(tmp_path, capsys, text, line, words):
    a = _answer(tmp_path, text)
    assert main(["decode", "dominoes-2x4", a]) == 2
    err = capsys.readouterr().err
    assert f"{a}:{line}: " in err and words in err


def test_decode_answer_from_another_instance(tmp_path, capsys):
    cnf = str(tmp_path / "m.cnf")
    assert main(["export", "pentomino-4x15", "-o", cnf]) == 0
    problem, lits = _solution_lits("pentomino-3x20")
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, lits)) + " 0\n")
    capsys.readouterr()
    # the CNF the solver read names another instance
    assert main(["decode", "pentomino-3x20", a, "--cnf", cnf]) == 2
    assert "written for a different instance" in capsys.readouterr().err
    # a complete model of another instance's CNF: wrong size, and it does not decode
    full = tmp_path / "full.txt"
    assert main(["export", "dominoes-2x4", "-o", str(tmp_path / "d.cnf")]) == 0
    n = read_cnf((tmp_path / "d.cnf").read_text()).n_vars
    dom_problem, dom_lits = _solution_lits("dominoes-2x4")
    full.write_text("s SATISFIABLE\nv " + " ".join(str(v if v in dom_lits else -v) for v in range(1, n + 1)) + " 0\n")
    capsys.readouterr()
    assert main(["decode", "pentomino-3x20", str(full)]) == 2
    err = capsys.readouterr().err
    assert f"{full}: the answer assigns variables 1..{n} only, but this instance's CNF (encoding mixed) has" in err
    assert "it was cut short, or it belongs to a different instance or encoding (the decoded board fails:" in err


def test_decode_short_answer_says_it_may_be_cut_short(tmp_path, capsys):
    a = _answer(tmp_path, "s SATISFIABLE\nv 1 -2 0\n")
    assert main(["decode", "dominoes-2x4", a]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"puzzlesat: {a}: the answer assigns variables 1..2 only, but this instance's CNF "
                          "(encoding mixed) has 10: it was cut short, or it belongs to a different instance or "
                          "encoding (the decoded board fails: ")


def test_decode_an_answer_of_the_primary_variables_alone_is_judged_as_a_model(tmp_path, capsys):
    # twins: 15 cells, 33 variables.  Its right picture as the 15 cells alone
    # decodes (a partial model); a wrong one is the solver's fault, exit 4,
    # not "cut short" (exit 2, QA)
    twins = load_puzzle("twins")
    problem = twins.compile(preprocess=False)
    assert (len(problem.primary), problem.primary) == (15, list(range(1, 16)))
    assert main(["count", "twins", "--limit", "1", "--json"]) == 3
    rows = json.loads(capsys.readouterr().out)["solutions"][0]
    cells = [c == "#" for row in rows for c in row]
    right = _answer(tmp_path, "SAT\n" + " ".join(str(v if b else -v) for v, b in enumerate(cells, 1)) + " 0\n",
                    "right.txt")
    assert main(["decode", "twins", right]) == 0
    capsys.readouterr()
    wrong = _answer(tmp_path, "SAT\n" + " ".join(str(-v if b else v) for v, b in enumerate(cells, 1)) + " 0\n",
                    "wrong.txt")
    assert main(["decode", "twins", wrong]) == 4
    assert capsys.readouterr().err.startswith(f"puzzlesat: verification failed: {wrong}: the solver's model is "
                                              "not a solution: row 1 has runs ")


def test_decode_short_answer_with_the_cnf_is_bad_input_too(tmp_path, capsys):
    # with --cnf (or a header line in the answer) naming this instance, a
    # short answer was reported as a failed verification, exit 4
    cnf = str(tmp_path / "m.cnf")
    assert main(["export", "tetromino-L-4x4", "-o", cnf]) == 0
    header = next(line for line in open(cnf) if line.startswith("c puzzlesat-header"))
    a = _answer(tmp_path, "s SATISFIABLE\nv 1 -2 3 4 -5 6 -7 -8 -9 -10 0\n")
    capsys.readouterr()
    assert main(["decode", "tetromino-L-4x4", a, "--cnf", cnf]) == 2
    assert capsys.readouterr().err.startswith(
        f"puzzlesat: {a}: the answer assigns variables 1..10 only, but {cnf} has 48: it was cut short, "
        "or it belongs to another CNF (the decoded board fails: ")
    b = _answer(tmp_path, header + "s SATISFIABLE\nv 1 -2 3 4 -5 6 -7 -8 -9 -10 0\n", "b.txt")
    assert main(["decode", "tetromino-L-4x4", b]) == 2
    assert capsys.readouterr().err.startswith(
        f"puzzlesat: {b}: the answer assigns variables 1..10 only, but its 'puzzlesat-header' comment (line 1) "
        "says the CNF has 48: it was cut short, or it belongs to another CNF (the decoded board fails: ")


def test_decode_names_the_export_a_whole_model_of_another_size_fits(tmp_path, capsys):
    # a solver's whole model of the seqcounter export, decoded as the default
    # (mixed): the hint named --unique, which was not the cause
    cnf = tmp_path / "s.cnf"
    assert main(["export", "tetromino-L-4x4", "-e", "seqcounter", "-o", str(cnf)]) == 0
    clauses = read_cnf(cnf.read_text()).clauses
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=clauses) as s:
        assert s.solve()
        model = s.get_model()
    n = read_cnf(cnf.read_text()).n_vars
    assert len(model) == n > 48
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, model[:48])) + "\nv "
                + " ".join(map(str, model[48:])) + " 0\n")
    capsys.readouterr()
    assert main(["decode", "tetromino-L-4x4", a]) == 2
    assert capsys.readouterr().err == (
        f"puzzlesat: {a}:3: variables 49..{n} are beyond the 48 variables of this instance's CNF (encoding mixed), "
        f"but the answer has all {n} variables of its export with -e seqcounter: decode with that (or give "
        "--cnf FILE, the CNF the solver read)\n")
    assert main(["decode", "tetromino-L-4x4", a, "-e", "seqcounter"]) == 0


def test_decode_header_in_answer_is_checked(tmp_path, capsys):
    a = _answer(tmp_path, "c puzzlesat-header problem=0000000000000000 encoding=mixed unique=no vars=3 "
                          "clauses=1 primary=3\ns SATISFIABLE\nv 1 0\n")
    assert main(["decode", "dominoes-2x4", a]) == 2
    assert f"{a}:1: written for a different instance" in capsys.readouterr().err


def test_decode_missing_file(capsys, tmp_path):
    assert main(["decode", "dominoes-2x4", str(tmp_path / "nope.txt")]) == 2
    assert "nope.txt" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("minisat+") is None, reason="minisat+ is not installed: apt-get install -y minisat+")
@pytest.mark.parametrize("instance", ["dominoes-2x4", "nonogram"])
def test_opb_round_trip_with_a_pb_solver(instance, tmp_path, nono, capsys):
    inst = nono if instance == "nonogram" else instance
    opb = str(tmp_path / "m.opb")
    assert main(["export", inst, "-f", "opb", "-o", opb]) == 0
    proc = subprocess.run(["minisat+", opb], capture_output=True, text=True, timeout=120)
    ans = tmp_path / "pb.out"
    ans.write_text(proc.stdout)
    assert main(["decode", inst, str(ans)]) == 0
    assert "verified" in capsys.readouterr().out


def test_decode_an_unsat_answer_to_an_opb_file_names_the_opb_constraints(tmp_path, capsys):
    # it said "the solver proved the CNF unsatisfiable" of an OPB file
    opb = str(tmp_path / "m.opb")
    assert main(["export", "dominoes-2x4", "-o", opb]) == 0
    ans = _answer(tmp_path, "s UNSATISFIABLE\n")
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", ans, "--cnf", opb]) == 1
    assert capsys.readouterr().out == "no solution (the solver proved the OPB file's constraints unsatisfiable)\n"
    assert main(["export", "dancer", "-o", opb]) == 0
    capsys.readouterr()
    assert main(["decode", "dancer", ans, "--cnf", opb]) == 4
    assert capsys.readouterr().err == (f"puzzlesat: verification failed: {ans}: the solver says the OPB file's "
                                       "constraints are unsatisfiable, but the goal picture of dancer is a solution "
                                       "(verified): the solver (or the answer file) is wrong\n")


@pytest.mark.parametrize("name,first", [("m.opb", "* #variable= 10 #constraint= 8"),
                                        ("m.OPB", "* #variable= 10 #constraint= 8"),
                                        ("m.pb", "* #variable= 10 #constraint= 8"),
                                        ("m.pbtxt", "# puzzlesat CP-SAT model (CpModelProto, text format)"),
                                        ("m.cnf", "c puzzlesat DIMACS export"), ("m.txt", "c puzzlesat DIMACS export")])
def test_export_writes_the_format_its_file_name_says(tmp_path, capsys, name, first):
    # "-o m.opb" wrote DIMACS to it (QA)
    out = tmp_path / name
    assert main(["export", "dominoes-2x4", "-o", str(out)]) == 0
    assert out.read_text().splitlines()[0] == first
    assert capsys.readouterr().err.startswith(f"wrote {out} (")


def test_an_encoding_for_a_format_the_file_name_chose_says_where_the_format_came_from(tmp_path, capsys):
    out = tmp_path / "m.opb"
    assert main(["export", "dominoes-2x4", "-o", str(out), "-e", "ladder"]) == 2
    assert capsys.readouterr().err == (
        f"puzzlesat: --encoding chooses a CNF encoding; the opb format (the name {out} asks for it; -f dimacs "
        "writes a CNF there) keeps cardinality constraints as they are\n")
    assert not out.exists()


def test_export_says_when_the_format_and_the_file_name_disagree(tmp_path, capsys):
    out = tmp_path / "m.cnf"
    assert main(["export", "dominoes-2x4", "-f", "opb", "-o", str(out)]) == 0
    assert out.read_text().startswith("* #variable= ")
    assert capsys.readouterr().err.splitlines()[0] == (
        f"puzzlesat: warning: writing opb (--format) to {out}, a name that says dimacs")


@pytest.mark.parametrize("pieces", ["ELEMENT / (I) (1, 1), (2, 1), (3, 1)\nELEMENT / (O) (1, 1)\n",
                                    # no variable at all: a piece fixed in place over every cell
                                    ("RESERVE / (Q) (1, 1), (1, 2), (2, 1), (2, 2)\nELEMENT / (Q) (1, 1), (1, 2), (2, 1), (2, 2)\n"
                                     "ELEMENT / (O) (1, 1)\n")])
def test_an_opb_constraint_without_terms_is_written_as_the_format_allows(pieces, tmp_path, capsys):
    # a cell or piece no placement covers was written " = 1 ;", which the
    # format has no room for (minisat+: "PARSE ERROR! ... Empty expression")
    box = tmp_path / "b.box"
    box.write_text("BOX / 2 * 2\n" + pieces)
    opb = tmp_path / "m.opb"
    assert main(["export", str(box), "-f", "opb", "-o", str(opb)]) == 0
    lines = opb.read_text().splitlines()
    rows = [l for l in lines if not l.startswith("*")]
    assert "+0 x1 = 1 ;" in rows and all(re.match(r"^([+-]\d+ x\d+ )+(=|>=) -?\d+ ;$", r) for r in rows), rows
    n_vars = int(re.match(r"\* #variable= (\d+) ", lines[0]).group(1))
    assert n_vars >= 1 and max(int(v) for r in rows for v in re.findall(r"x(\d+)", r)) <= n_vars
    if shutil.which("minisat+"):
        proc = subprocess.run(["minisat+", str(opb)], capture_output=True, text=True, timeout=120)
        assert "s UNSATISFIABLE" in proc.stdout.splitlines(), proc.stdout
        ans = tmp_path / "pb.out"
        ans.write_text(proc.stdout)
        capsys.readouterr()
        assert main(["decode", str(box), str(ans), "--cnf", str(opb)]) == 1
        assert "no solution" in capsys.readouterr().out


@pytest.mark.parametrize("edit,message", [
    (lambda t: t.replace("c p show 1 2 3 ", "c p show 1 2 x ", 1),
     "a 'c p show' line lists variables (whole numbers), got '1 2 x 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 ...'"),
    (lambda t: re.sub(r"^p cnf (\d+) \d+$", r"p cnf \1 abc", t, count=1, flags=re.M),
     "bad problem line 'p cnf 8451 abc' (expected 'p cnf VARIABLES CLAUSES')"),
    # ASCII digits only: int() would read a full-width digit as the number it looks like
    (lambda t: t.replace("c p show 1 2 3 ", "c p show 1 2 \uff13 ", 1),
     "a 'c p show' line lists variables (whole numbers), got "
     "'1 2 \uff13 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 ...'"),
    (lambda t: re.sub(r"^p cnf 8451 (\d+)$", "p cnf \uff18451 \\1", t, count=1, flags=re.M),
     "bad problem line 'p cnf \uff18451 23427' (expected 'p cnf VARIABLES CLAUSES')"),
    (lambda t: re.sub(r"^-1 1237 0$", "-\uff11 1237 0", t, count=1, flags=re.M),
     "not a literal: '-\uff11' (digits must be ASCII 0-9)"),
])
def test_decode_names_the_line_of_a_malformed_cnf(tmp_path, capsys, edit, message):
    cnf = tmp_path / "m.cnf"
    assert main(["export", "pentomino-3x20", "-o", str(cnf)]) == 0
    text = edit(cnf.read_text())
    bad = tmp_path / "bad.cnf"
    bad.write_text(text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l != cnf.read_text().splitlines()[i - 1])
    a = _answer(tmp_path, "s SATISFIABLE\nv 1 0\n")
    capsys.readouterr()
    assert main(["decode", "pentomino-3x20", a, "--cnf", str(bad)]) == 2
    assert capsys.readouterr().err == f"puzzlesat: {bad}:{line}: {message}\n"


def test_decode_says_when_unique_is_the_mismatch(tmp_path, capsys):
    plain, uniq = tmp_path / "m.cnf", tmp_path / "mu.cnf"
    assert main(["export", "pentomino-3x20", "-o", str(plain)]) == 0
    assert main(["export", "pentomino-3x20", "--unique", "-o", str(uniq)]) == 0
    n_plain = read_cnf(plain.read_text()).n_vars
    n_uniq = read_cnf(uniq.read_text()).n_vars
    capsys.readouterr()
    # an answer to the --unique CNF (its last variable true), read as the plain one
    a = _answer(tmp_path, f"s SATISFIABLE\nv {n_uniq} 0\n")
    assert main(["decode", "pentomino-3x20", a]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {a}:2: variable {n_uniq} is beyond the {n_plain} variables of "
                                       "this instance's CNF (encoding mixed) but within its --unique export's: "
                                       "decode with --unique if it answers that export (else it belongs to a "
                                       "different instance or encoding)\n")
    # both from stdin: refused before either is read
    assert main(["decode", "pentomino-3x20", "-", "--cnf", "-"]) == 2
    assert capsys.readouterr().err == ("puzzlesat: the answer and --cnf would both be read from stdin ('-'); "
                                       "give one of them a file\n")
    # --unique given, the CNF named exported without it
    assert main(["decode", "pentomino-3x20", a, "--unique", "--cnf", str(plain)]) == 2
    line = read_cnf(plain.read_text()).header_line
    assert capsys.readouterr().err == (f"puzzlesat: {plain}:{line}: --unique, but the CNF was exported without "
                                       "--unique (decode without it)\n")


def _exported_model(cnf):
    """Export pentomino-3x20 to ``cnf``: (the CNF read back, a CaDiCaL model of it)."""
    from pysat.solvers import Solver

    assert main(["export", "pentomino-3x20", "-o", str(cnf)]) == 0
    parsed = read_cnf(cnf.read_text())
    with Solver(name="cadical195", bootstrap_with=parsed.clauses) as s:
        assert s.solve()
        return parsed, s.get_model()


def test_decode_unique_of_a_plain_export_names_unique_not_the_encoding(tmp_path, capsys):
    cnf = tmp_path / "plain.cnf"
    parsed, model = _exported_model(cnf)
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    capsys.readouterr()
    assert main(["decode", "pentomino-3x20", a, "--unique"]) == 0  # the board is a solution all the same
    err = capsys.readouterr().err
    assert err.startswith("puzzlesat: note: the answer falsifies ") and " clauses of the mixed encoding with --unique " in err
    assert err.endswith("; it has the size of the export without --unique: was it exported without --unique?\n")


def test_decode_a_whole_model_that_breaks_a_clause_of_the_only_export_of_its_size_fails(tmp_path, capsys):
    # without --cnf: a solver's whole model of this export's size, an
    # auxiliary variable wrong, was "verified", exit 0, with a note asking
    # whether another encoding was used; no other export has its size (QA)
    cnf = tmp_path / "plain.cnf"
    parsed, model = _exported_model(cnf)
    flipped = [l if abs(l) != 1237 else -l for l in model]
    bad = [i for i, cl in enumerate(parsed.clauses) if all(flipped[abs(x) - 1] != x for x in cl)]
    assert bad
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, flipped)) + " 0\n")
    capsys.readouterr()
    assert main(["decode", "pentomino-3x20", a]) == 4
    first = " ".join(map(str, parsed.clauses[bad[0]]))
    assert capsys.readouterr().err == (
        f"puzzlesat: verification failed: {a}: the answer is not a model of this instance's CNF (encoding mixed): "
        f"it falsifies {len(bad)} clause{'s' if len(bad) > 1 else ''} (first: clause {bad[0] + 1}: {first} 0), "
        f"and no other export of pentomino-3x20 has its {parsed.n_vars} variables, so the solver (or the answer "
        "file) is wrong, though its primary variables decode to a valid board\n")
    # with --cnf too, the same verdict (it was already exit 4)
    assert main(["decode", "pentomino-3x20", a, "--cnf", str(cnf)]) == 4
    # another export of that size (dominoes-2x4: seqcounter and bitwise, 18 variables) may be what it answers: a note
    from pysat.solvers import Solver

    sc = tmp_path / "sc.cnf"
    assert main(["export", "dominoes-2x4", "-e", "seqcounter", "-o", str(sc)]) == 0
    parsed = read_cnf(sc.read_text())
    assert parsed.n_vars == 18
    with Solver(name="cadical195", bootstrap_with=parsed.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    for aux in range(11, 19):
        flipped = [l if abs(l) != aux else -l for l in model]
        if any(all(flipped[abs(x) - 1] != x for x in cl) for cl in parsed.clauses):
            break
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, flipped)) + " 0\n")
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", a, "-e", "seqcounter", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["valid"] and d["note"].endswith("; it has the size of this instance's export with -e bitwise: was it "
                                             "exported with that?")
    # a note as every note is: on stderr and in --json's warnings
    assert d["warnings"] == ["note: " + d["note"]]
    # letter-p: no cardinality constraint and no symmetry, so every export is
    # one CNF; its --unique export was named as the other of that size, and
    # the note read "export with : was it exported with that?" (review)
    lp = tmp_path / "lp.cnf"
    assert main(["export", "letter-p", "-o", str(lp)]) == 0
    parsed = read_cnf(lp.read_text())
    with Solver(name="cadical195", bootstrap_with=parsed.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    prim = parsed.header.primary
    for aux in range(prim + 1, parsed.n_vars + 1):
        flipped = [l if abs(l) != aux else -l for l in model]
        if any(all(flipped[abs(x) - 1] != x for x in cl) for cl in parsed.clauses):
            break
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, flipped)) + " 0\n")
    capsys.readouterr()
    for unique in ([], ["--unique"]):
        assert main(["decode", "letter-p", a, *unique]) == 4
        assert (f"and no other export of letter-p has its {parsed.n_vars} variables, so the solver (or the answer "
                "file) is wrong") in capsys.readouterr().err


def test_decode_a_model_of_the_primary_variables_exactly_is_judged_as_a_partial_model(tmp_path, capsys):
    # twins: 15 primary variables, 33 in its export, 66 with --unique.  A
    # projected solver's answer (variables 1..15) that is not its orbit's
    # leader was exit 2, "it answers another CNF", where the same answer
    # written as its true literals alone was exit 4 (QA); no export has 15
    from pysat.solvers import Solver

    from puzzlesat.loading import load_puzzle

    uniq = tmp_path / "u.cnf"
    assert main(["export", "twins", "--unique", "-o", str(uniq)]) == 0
    u = read_cnf(uniq.read_text())
    puzzle = load_puzzle("twins")
    problem = puzzle.compile()
    assert (len(problem.primary), u.n_vars) == (15, 66)
    assert main(["export", "twins", "-o", str(tmp_path / "p.cnf")]) == 0
    plain = read_cnf((tmp_path / "p.cnf").read_text())
    with Solver(name="cadical195", bootstrap_with=plain.clauses) as s:
        follower = None
        for m in s.enum_models():
            prim = [l for l in m if abs(l) <= 15]
            with Solver(name="cadical195", bootstrap_with=u.clauses) as t:
                if not t.solve(assumptions=prim):
                    follower = prim
                    break
    assert follower is not None  # (twins has solutions in orbits of more than one)
    capsys.readouterr()
    for written in (follower, [l for l in follower if l > 0]):
        a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, written)) + " 0\n")
        assert main(["decode", "twins", a, "--cnf", str(uniq)]) == 4
        err = capsys.readouterr().err
        assert err.startswith(f"puzzlesat: verification failed: {a}: the answer is not ")
        assert err.endswith(", so the solver (or the answer file) is wrong, though its primary variables decode "
                            "to a valid board\n"), err


def test_decode_a_whole_model_of_the_plain_export_given_the_unique_cnf_names_the_plain_export(tmp_path, capsys):
    # the answer to the export without --unique, with --cnf naming the --unique
    # one: it was "the solver (or the answer file) is wrong", exit 4
    cnf, uniq = tmp_path / "plain.cnf", tmp_path / "u.cnf"
    parsed, model = _exported_model(cnf)
    assert main(["export", "pentomino-3x20", "--unique", "-o", str(uniq)]) == 0
    n_uniq = read_cnf(uniq.read_text()).n_vars
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    capsys.readouterr()
    assert main(["decode", "pentomino-3x20", a, "--cnf", str(uniq)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"puzzlesat: {a}: the answer assigns variables 1..{len(model)} only, but {uniq} has "
                          f"{n_uniq} and the answer falsifies ")
    assert err.endswith(f" of it: it answers this instance's export with -e mixed (without --unique), not {uniq}\n")


def test_decode_a_whole_model_of_another_instance_is_not_sent_to_its_unique_export(tmp_path, capsys):
    # 3x20's whole model (1..n) decoded as the hexagon, whose plain CNF is smaller and
    # --unique one larger: the hint said "decode with --unique", which cannot fit
    # a model that stops short of that export's last variable
    cnf = tmp_path / "plain.cnf"
    parsed, model = _exported_model(cnf)
    assert main(["export", "hexagon-tetrahexes-trihexes", "-o", str(tmp_path / "o.cnf")]) == 0
    assert main(["export", "hexagon-tetrahexes-trihexes", "--unique", "-o", str(tmp_path / "ou.cnf")]) == 0
    n_other = read_cnf((tmp_path / "o.cnf").read_text()).n_vars
    n_other_u = read_cnf((tmp_path / "ou.cnf").read_text()).n_vars
    assert n_other < len(model) < n_other_u  # the case: beyond the plain CNF, within the --unique one
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    capsys.readouterr()
    assert main(["decode", "hexagon-tetrahexes-trihexes", a]) == 2
    err = capsys.readouterr().err
    assert "--unique" not in err
    assert err.endswith(f"is beyond the {n_other} variables of this instance's CNF (encoding mixed): the answer "
                        "belongs to a different instance or encoding\n")
    # with --unique, the count it names is the --unique CNF's, and says so
    assert main(["decode", "hexagon-tetrahexes-trihexes", a, "--unique"]) == 2
    assert f"but this instance's CNF (encoding mixed, --unique) has {n_other_u}: it was cut short" in \
        capsys.readouterr().err


def test_decode_refuses_an_answer_that_breaks_a_clause_of_the_cnf_it_names(tmp_path, capsys):
    # the CNF's identity line fixes the encoding: a falsified clause is the
    # solver's (or the file's) fault, not a hint at another export (QA: exit 0,
    # "verified", and a note asking about another --encoding)
    cnf = tmp_path / "m.cnf"
    parsed, model = _exported_model(cnf)
    last = len(model)  # an auxiliary variable (primary ones come first)
    model[-1] = -model[-1]
    bad = [i for i, cl in enumerate(parsed.clauses) if all((l > 0) != (model[abs(l) - 1] > 0) for l in cl)]
    assert bad and last not in parsed.show
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    capsys.readouterr()
    assert main(["decode", "pentomino-3x20", a, "--cnf", str(cnf)]) == 4
    first = " ".join(map(str, parsed.clauses[bad[0]]))
    assert capsys.readouterr().err == (
        f"puzzlesat: verification failed: {a}: the answer is not a model of {cnf}: it falsifies "
        f"{len(bad)} clause{'s' if len(bad) > 1 else ''} (first: clause {bad[0] + 1}: {first} 0), so the solver "
        "(or the answer file) is wrong, though its primary variables decode to a valid board\n")
    assert main(["decode", "pentomino-3x20", a, "--cnf", str(cnf), "--json"]) == 4
    d = json.loads(capsys.readouterr().out)
    assert (d["valid"], d["kind"], d["exit_code"], d["falsified_clauses"]) == (False, "verification-failed", 4,
                                                                               len(bad))


def test_decode_refuses_a_partial_answer_no_model_of_the_cnf_has(tmp_path, capsys):
    # a --unique export keeps one tiling per orbit; an answer giving only the
    # primary variables of another tiling of the orbit falsified no clause
    # (its auxiliary variables were unassigned) and was "verified" (QA)
    from pysat.solvers import Solver

    from puzzlesat.backends import get_backend

    cnf = tmp_path / "u.cnf"
    assert main(["export", "tetromino-L-4x4", "--unique", "-o", str(cnf)]) == 0
    parsed = read_cnf(cnf.read_text())
    problem = load_puzzle("tetromino-L-4x4").compile()
    every = [sorted(s) for s in get_backend("exact").enumerate(problem).solutions]
    kept, dropped = [], []
    for sol in every:
        with Solver(name="cadical195", bootstrap_with=parsed.clauses) as solver:
            (kept if solver.solve(assumptions=sol) else dropped).append(sol)
    assert (len(every), len(kept)) == (10, 3)
    capsys.readouterr()
    for sol in kept:  # a leader's primary variables: the rest follows
        a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, sol)) + " 0\n")
        assert main(["decode", "tetromino-L-4x4", a, "--cnf", str(cnf)]) == 0
        assert capsys.readouterr().err == ""
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(map(str, dropped[0])) + " 0\n")
    assert main(["decode", "tetromino-L-4x4", a, "--cnf", str(cnf), "--json"]) == 4
    d = json.loads(capsys.readouterr().out)
    assert (d["valid"], d["kind"], d["unassigned"]) == (False, "verification-failed", parsed.n_vars - 4)
    m = re.fullmatch(rf"{re.escape(a)}: the answer is not part of a model of {re.escape(str(cnf))}: it leaves "
                     rf"{parsed.n_vars - 4} of the {parsed.n_vars} variables unassigned, and no model of the CNF "
                     r"has its literals? ([-\d ]+?)( together)?, so the solver \(or the answer file\) is wrong, "
                     "though its primary variables decode to a valid board", d["error"])
    assert m, d["error"]
    core = [int(x) for x in m.group(1).split()]
    assert d["conflicting_values"] == len(core) and set(core) <= set(dropped[0]) and (len(core) > 1) == bool(m[2])
    with Solver(name="cadical195", bootstrap_with=parsed.clauses) as solver:
        assert not solver.solve(assumptions=core)
    # without the CNF's identity line it may answer the export without --unique: a note
    assert main(["decode", "tetromino-L-4x4", a, "--unique"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("puzzlesat: note: the answer is part of no model of the mixed encoding with --unique: it leaves ")
    assert err.endswith("; was it the answer to the export without --unique? (that keeps every solution, "
                        "not one per orbit)\n")
    assert main(["decode", "tetromino-L-4x4", a]) == 0 and capsys.readouterr().err == ""


# ------------------------------------------- strict header and answer reading


def _dominoes_cnf(tmp_path, edit=lambda t: t, name="d.cnf"):
    """dominoes-2x4's export (10 variables), edited; and its header's line."""
    assert main(["export", "dominoes-2x4", "-o", str(tmp_path / "plain.cnf")]) == 0
    text = (tmp_path / "plain.cnf").read_text()
    line = read_cnf(text).header_line
    p = tmp_path / name
    p.write_text(edit(text))
    return str(p), line


# a dominoes-2x4 tiling: its true variables
DOMINO_OK = "s SATISFIABLE\nv 1 3 4 6 0\n"


@pytest.mark.parametrize("old,new,problem", [
    ("encoding=mixed", "encoding=bogus",
     "unknown encoding 'bogus'; choose one of: mixed, pairwise, seqcounter, ladder, bitwise, sortnetwrk, "
     "cardnetwrk, totalizer, mtotalizer, kmtotalizer"),
    ("unique=no", "unique=maybe", "unique=maybe: expected unique=yes or unique=no"),
    ("vars=10", "vars=\uff11\uff10", "vars=\uff11\uff10: not a whole number (digits 0-9)"),
    ("encoding=mixed", "encoding=mixed encoding=pairwise", "encoding= given twice"),
    ("unique=no", "unique=no fast", "'fast' is not a NAME=VALUE field"),
    (" primary=10", "", "no primary= field"),
])
def test_decode_cnf_header_fields_are_checked(tmp_path, capsys, old, new, problem):
    cnf, line = _dominoes_cnf(tmp_path, lambda t: t.replace(old, new, 1))
    a = _answer(tmp_path, DOMINO_OK)
    capsys.readouterr()
    message = f"{cnf}:{line}: malformed 'puzzlesat-header' comment: {problem}"
    assert main(["decode", "dominoes-2x4", a, "--cnf", cnf]) == 2
    assert capsys.readouterr().err == f"puzzlesat: {message}\n"
    assert main(["decode", "dominoes-2x4", a, "--cnf", cnf, "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {"error": message, "kind": "bad-input", "exit_code": 2}


def test_decode_header_in_answer_is_checked_as_strictly(tmp_path, capsys):
    a = _answer(tmp_path, "c puzzlesat-header problem=9cbdb34add188a8c encoding=mixed unique=maybe vars=10 "
                          "clauses=24 primary=10\n" + DOMINO_OK)
    assert main(["decode", "dominoes-2x4", a]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {a}:1: malformed 'puzzlesat-header' comment: unique=maybe: "
                                       "expected unique=yes or unique=no\n")


def test_decode_cnf_header_given_twice(tmp_path, capsys):
    cnf, line = _dominoes_cnf(tmp_path, lambda t: re.sub(r"^(c puzzlesat-header .*\n)", r"\1\1", t, flags=re.M))
    a = _answer(tmp_path, DOMINO_OK)
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", a, "--cnf", cnf]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {cnf}:{line + 1}: second 'puzzlesat-header' comment (the first "
                                       f"is line {line})\n")
    header = next(l for l in open(cnf) if l.startswith("c puzzlesat-header"))
    twice = _answer(tmp_path, header + "c\n" + header + DOMINO_OK, "twice.txt")
    assert main(["decode", "dominoes-2x4", twice]) == 2
    assert capsys.readouterr().err == f"puzzlesat: {twice}:3: second 'puzzlesat-header' comment (the first is line 1)\n"


def test_decode_unknown_header_field_is_a_warning_naming_it(tmp_path, capsys):
    # a newer version may add a field: read past it, but say so (the digest,
    # the counts and the puzzle's own verification still check the answer)
    cnf, line = _dominoes_cnf(tmp_path, lambda t: t.replace(" primary=10", " primary=10 extra=1", 1))
    a = _answer(tmp_path, DOMINO_OK)
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", a, "--cnf", cnf, "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["valid"]
    assert err == (f"puzzlesat: warning: {cnf}:{line}: unknown field 'extra=1' in the 'puzzlesat-header' comment "
                   "ignored (written by a newer puzzlesat?)\n")


def test_decode_header_mismatches_name_the_header_line(tmp_path, capsys):
    cnf, line = _dominoes_cnf(tmp_path)
    # the answer's own header must be the CNF's
    header = next(l for l in open(cnf) if l.startswith("c puzzlesat-header"))
    a = _answer(tmp_path, header.replace("encoding=mixed", "encoding=pairwise") + DOMINO_OK)
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", a, "--cnf", cnf]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {a}:1: its 'puzzlesat-header' comment differs from the one on "
                                       f"line {line} of {cnf}: the answer and the CNF come from different exports\n")
    a = _answer(tmp_path, DOMINO_OK)
    assert main(["decode", "dominoes-2x4", a, "--cnf", cnf, "-e", "pairwise"]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {cnf}:{line}: --encoding pairwise, but the CNF was exported "
                                       "with --encoding mixed\n")


@pytest.mark.parametrize("text,line,problem", [
    # no solver repeats a literal: a file pasted together or a typo ('1 1' for '1 11'), not dropped silently
    ("s SATISFIABLE\nv 1 1 3 4 6 0\n", 2, "literal 1 is given twice (first on line 2)"),
    ("s SATISFIABLE\nv 1 -2 3\nv -2 4 6 0\n", 3, "literal -2 is given twice (first on line 2)"),
    ("s SATISFIABLE\ns SATISFIABLE\nv 1 3 4 6 0\n", 2, "second status line 's SATISFIABLE' (the first is line 1)"),
    ("s satisfiable\nv 1 3 4 6 0\n", 1,
     "status line 's satisfiable' is not in capitals: the SAT-competition format writes 's SATISFIABLE'"),
    ("sat\n1 3 4 6 0\n", 1, "status line 'sat' is not in capitals: MiniSat writes 'SAT'"),
    ("s SATISFIABLE\nv \uff11 3 4 6 0\n", 2, "not a literal: '\uff11' (digits must be ASCII 0-9)"),
    ("s SATISFIABLE\nv 1 3\nv 4 6 11 0\n", 3, "variable 11 is beyond the 10 variables of this instance's CNF "
     "(encoding mixed) but within its --unique export's: decode with --unique if it answers that export "
     "(else it belongs to a different instance or encoding)"),
    ("s SATISFIABLE\nv 1 3\nv 4 6 99 0\n", 3, "variable 99 is beyond the 10 variables of this instance's CNF "
     "(encoding mixed): the answer belongs to a different instance or encoding"),
    # DIMACS and PB literals in one model (the docs' "non-literal"): decoded as a tiling, exit 0
    ("s SATISFIABLE\nv 1 3 x4 6 0\n", 2, "mixed literal forms: 'x4' is pseudo-Boolean (x1, -x1) but the model's "
     "first literal, '1' (line 2), is DIMACS (1, -1): a solver writes all its literals one way"),
    ("s SATISFIABLE\nv x1 3 x4 x6\n", 2, "mixed literal forms: '3' is DIMACS (1, -1) but the model's first "
     "literal, 'x1' (line 2), is pseudo-Boolean (x1, -x1): a solver writes all its literals one way"),
    ("SAT\n1 3 x4 6 0\n", 2, "not a literal: 'x4' (MiniSat's result file writes DIMACS literals: 4, -4)"),
])
def test_decode_answer_read_strictly(tmp_path, capsys, text, line, problem):
    a = _answer(tmp_path, text)
    assert main(["decode", "dominoes-2x4", a]) == 2
    assert capsys.readouterr().err == f"puzzlesat: {a}:{line}: {problem}\n"
    assert main(["decode", "dominoes-2x4", a, "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {"error": f"{a}:{line}: {problem}", "kind": "bad-input",
                                                   "exit_code": 2}


def test_decode_reads_a_pb_model_in_one_form(tmp_path, capsys):
    # the PB competition's literals, with or without the ending 0, still decode
    assert main(["decode", "dominoes-2x4", _answer(tmp_path, "s SATISFIABLE\nv x1 -x2 x3\nv x4 -x5 x6\n")]) == 0
    assert main(["decode", "dominoes-2x4", _answer(tmp_path, "s SATISFIABLE\nv x1 x3 x4 x6 0\n")]) == 0


@pytest.mark.parametrize("text", ["s SATISFIABLE\nv 0\n", "SAT\n0\n"])
def test_decode_empty_model_says_it_assigns_no_variables(tmp_path, capsys, text):
    # it said "the answer assigns variables 1..0 only"
    a = _answer(tmp_path, text)
    assert main(["decode", "dominoes-2x4", a]) == 2
    assert capsys.readouterr().err == (
        f"puzzlesat: {a}: the answer assigns no variables, but this instance's CNF (encoding mixed) has 10: it was "
        "cut short, or it belongs to a different instance or encoding (the decoded board fails: cell (1, 1) is not "
        "covered)\n")
    cnf, _ = _dominoes_cnf(tmp_path)
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", a, "--cnf", cnf]) == 2
    assert capsys.readouterr().err.startswith(f"puzzlesat: {a}: the answer assigns no variables, but {cnf} has 10: ")


@needs["minisat"]
@pytest.mark.parametrize("options,edit,problem", [
    # an answer's own header: its counts are those of the export its encoding= and unique= name, as vars= was
    ([], ("primary=10", "primary=11"),
     "the CNF has 11 primary variables but this instance with encoding mixed has 10"),
    ([], ("clauses=24", "clauses=99"), "the CNF has 99 clauses but this instance with encoding mixed has 24"),
    ([], ("vars=10", "vars=11"), "the CNF has 11 variables but this instance with encoding mixed has 10"),
    # the --unique pairwise export's header with the plain mixed export's clause count
    (["-e", "pairwise", "--unique"], (re.compile(r"clauses=\d+"), "clauses=24"),
     "the CNF has 24 clauses but this instance with encoding pairwise and --unique has {clauses}"),
    (["-e", "pairwise", "--unique"], (re.compile(r"primary=\d+"), "primary=31"),
     "the CNF has 31 primary variables but this instance with encoding pairwise and --unique has 10"),
])
def test_decode_checks_every_count_of_an_answers_header(tmp_path, capsys, options, edit, problem):
    cnf = str(tmp_path / "m.cnf")
    assert main(["export", "dominoes-2x4", *options, "-o", cnf]) == 0
    exported = read_cnf(open(cnf).read())
    header = next(line for line in open(cnf) if line.startswith("c puzzlesat-header"))
    result = _run_solver("minisat", cnf, tmp_path)  # a genuine answer, to which the header is added
    ok = _answer(tmp_path, header + open(result).read(), "ok.txt")
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", ok]) == 0
    old, new = edit
    bad = _answer(tmp_path, (old.sub(new, header) if isinstance(old, re.Pattern) else header.replace(old, new))
                  + open(result).read(), "bad.txt")
    capsys.readouterr()
    message = f"{bad}:1: " + problem.format(clauses=exported.n_clauses) + ": exported by another version of puzzlesat?"
    assert main(["decode", "dominoes-2x4", bad]) == 2
    assert capsys.readouterr().err == f"puzzlesat: {message}\n"
    assert main(["decode", "dominoes-2x4", bad, "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {"error": message, "kind": "bad-input", "exit_code": 2}


def test_decode_checks_the_primary_count_of_the_cnf_and_opb_headers(tmp_path, capsys):
    # --cnf: the 'p cnf' line already pins vars= and clauses=; primary= was not checked
    cnf, line = _dominoes_cnf(tmp_path, lambda t: t.replace(" primary=10", " primary=11", 1))
    ok = _answer(tmp_path, DOMINO_OK)
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", ok, "--cnf", cnf]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {cnf}:{line}: the CNF has 11 primary variables but this "
                                       "instance with encoding mixed has 10: exported by another version of "
                                       "puzzlesat?\n")
    opb = tmp_path / "d.opb"
    assert main(["export", "dominoes-2x4", "-f", "opb", "-o", str(opb)]) == 0
    line = next(i for i, t in enumerate(opb.read_text().splitlines(), 1) if t.startswith("* puzzlesat-header"))
    text = opb.read_text()
    old, new = " primary=10", " primary=11"
    assert old in text
    opb.write_text(text.replace(old, new, 1))
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", ok, "--cnf", str(opb)]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {opb}:{line}: the OPB file has 11 primary variables but this "
                                       "instance's OPB export has 10: exported by another version of puzzlesat?\n")
    # constraints= (vars= too) against the first line, as a CNF's against its 'p cnf' line
    opb.write_text(text.replace(" constraints=8 ", " constraints=9 ", 1))
    assert main(["decode", "dominoes-2x4", ok, "--cnf", str(opb)]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {opb}:1: the first line says 10 variables and 8 constraints but "
                                       f"the 'puzzlesat-header' comment (line {line}) says 10 and 9: the file was "
                                       "changed after puzzlesat wrote it\n")
    # and both against the constraints the file has, as a CNF's clauses (they were not read, QA)
    opb.write_text(text.replace("#constraint= 8", "#constraint= 9", 1).replace(" constraints=8 ", " constraints=9 "))
    assert main(["decode", "dominoes-2x4", ok, "--cnf", str(opb)]) == 2
    assert capsys.readouterr().err == f"puzzlesat: {opb}:1: the first line says 9 constraints, the file has 8\n"
    body = text.splitlines(keepends=True)
    for changed, said in [
            (body[:-1], f"{opb}:1: the first line says 8 constraints, the file has 7"),  # cut short
            (body[:-1] + [body[-1].replace(" ;", "")], f"{opb}:{len(body)}: the last constraint does not end with ';'"),
            (body[:-1] + [body[-1].replace("+1 x10", "+1 x11")], f"{opb}:{len(body)}: variable x11 beyond the first "
                                                                 "line's 10 variables"),
            (body[:-1] + ["+1 x6 + x10 = 1 ;\n"], f"{opb}:{len(body)}: not a constraint as puzzlesat writes them: "
                                                  "'+1 x6 + x10 = 1 ;' (expected terms such as '+1 x3', then '=' or "
                                                  "'>=', a whole number and ';')"),
            (body[:-1] + ["+1 x6 +1 x10 <= 1 ;\n"], f"{opb}:{len(body)}: not a constraint as puzzlesat writes them: "
                                                    "'+1 x6 +1 x10 <= 1 ;' (expected terms such as '+1 x3', then "
                                                    "'=' or '>=', a whole number and ';')")]:
        opb.write_text("".join(changed))
        assert main(["decode", "dominoes-2x4", ok, "--cnf", str(opb)]) == 2
        assert capsys.readouterr().err == f"puzzlesat: {said}\n"
    # written over two lines, a constraint is still one (the format ends it at ';')
    opb.write_text("".join(body[:-1]) + body[-1].replace(" = ", "\n= "))
    assert main(["decode", "dominoes-2x4", ok, "--cnf", str(opb)]) == 0


def test_decode_reads_a_bom_and_real_solvers(tmp_path, capsys, monkeypatch):
    import io

    assert main(["decode", "dominoes-2x4", _answer(tmp_path, DOMINO_OK)]) == 0
    # a byte-order mark (Windows editors) is not content, as in puzzle files: answer, stdin and --cnf
    a = _answer(tmp_path, "\ufeff" + DOMINO_OK)
    cnf, _ = _dominoes_cnf(tmp_path, lambda t: "\ufeff" + t)
    assert main(["decode", "dominoes-2x4", a, "--cnf", cnf]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("\ufeff" + DOMINO_OK))
    assert main(["decode", "dominoes-2x4", "-"]) == 0
    # any line end: a bare CR made "s SATISFIABLE\rv 1 3 4 6 0" one line
    for end in ("\r\n", "\r"):
        a = _answer(tmp_path, DOMINO_OK.replace("\n", end))
        cnf, _ = _dominoes_cnf(tmp_path, lambda t: t.replace("\n", end))
        assert main(["decode", "dominoes-2x4", a, "--cnf", cnf]) == 0
    capsys.readouterr()
    # real solvers' output, comments and several 'v' lines included, is still read
    a = _answer(tmp_path, "c a banner\ns SATISFIABLE\nv 1 -2 3\nv 4 -5\nv 6 -7 -8 -9 -10 0\nc done\n")
    assert main(["decode", "dominoes-2x4", a]) == 0
    assert main(["decode", "dominoes-2x4", _answer(tmp_path, "SAT\n1 -2 3 4 -5 6 -7 -8 -9 -10 0\n")]) == 0


@pytest.mark.parametrize("solver,argv", [("cadical", ["cadical"]),
                                         ("cryptominisat5", ["cryptominisat5", "--verb", "0"])])
def test_decode_reads_other_real_solvers(tmp_path, capsys, solver, argv):
    if shutil.which(solver) is None:
        pytest.skip(f"{solver} is not installed")
    cnf, _ = _dominoes_cnf(tmp_path)
    proc = subprocess.run(argv + [cnf], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 10
    a = _answer(tmp_path, proc.stdout, f"{solver}.out")
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", a, "--cnf", cnf]) == 0
    assert "verified" in capsys.readouterr().out


def test_decode_json_of_a_failed_verification_keeps_the_readme_promise(tmp_path, capsys):
    a = _answer(tmp_path, "s SATISFIABLE\nv 1 3 4 0\n")
    assert main(["decode", "dominoes-2x4", a, "--json"]) == 4
    out, err = capsys.readouterr()
    res = json.loads(out)
    # README: a failure's object has "error", "kind" and "exit_code"; the result's keys stay
    assert (res["error"], res["kind"], res["exit_code"]) == ("cell (2, 3) is not covered", "verification-failed", 4)
    assert (res["valid"], res["instance"], res["status"], res["assigned"]) == (False, "dominoes-2x4", "SAT", 3)
    assert err == (f"puzzlesat: verification failed: {a}: the solver's model is not a solution: cell (2, 3) is not "
                   "covered\n")
    # a primary variable left out of an answer that gives false ones too is
    # said: read as false, it may be all that is wrong (QA)
    a = _answer(tmp_path, "s SATISFIABLE\nv 1 -2 3 4 -5 -7 -8 -9 -10 0\n")
    assert main(["decode", "dominoes-2x4", a]) == 4
    assert capsys.readouterr().err == (f"puzzlesat: verification failed: {a}: the solver's model is not a solution: "
                                       "cell (2, 3) is not covered; it leaves 1 primary variable unassigned "
                                       "(first: 6), read as false\n")


def test_decode_checks_an_answer_against_its_opb_export(tmp_path, capsys):
    # an OPB export given as --cnf: its identity line is checked as a DIMACS
    # one is (it was refused as "not a DIMACS CNF file")
    opb = tmp_path / "d.opb"
    assert main(["export", "dominoes-2x4", "-f", "opb", "-o", str(opb)]) == 0
    line = next(i for i, t in enumerate(opb.read_text().splitlines(), 1) if t.startswith("* puzzlesat-header"))
    ok = _answer(tmp_path, DOMINO_OK)
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", ok, "--cnf", str(opb)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"decoded 4 true primary variables from {ok} (competition style, 4 of 10 variables of the OPB file "
        "assigned); verified")
    assert main(["decode", "dominoes-2x4", ok, "--cnf", str(opb), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["format"], d["encoding"], d["valid"], d["variables"]) == ("opb", None, True, 10)
    # another instance's OPB export; options it cannot have; a wrong answer
    other = tmp_path / "o.opb"
    assert main(["export", "tetromino-L-2x4", "-f", "opb", "-o", str(other)]) == 0
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", ok, "--cnf", str(other)]) == 2
    assert "written for a different instance" in capsys.readouterr().err
    assert main(["decode", "dominoes-2x4", ok, "--cnf", str(opb), "-e", "mixed"]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {opb}:{line}: --encoding mixed, but this is an OPB export, "
                                       "which states the constraints without a CNF encoding (decode without "
                                       "--encoding)\n")
    assert main(["decode", "dominoes-2x4", ok, "--cnf", str(opb), "--unique"]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {opb}:{line}: --unique, but the OPB file was exported "
                                       "without --unique (decode without it)\n")
    bad = _answer(tmp_path, "s SATISFIABLE\nv 1 2 4 6 0\n", "bad.txt")
    assert main(["decode", "dominoes-2x4", bad, "--cnf", str(opb)]) == 4
    assert "the solver's model is not a solution" in capsys.readouterr().err
    far = _answer(tmp_path, "s SATISFIABLE\nv 1 3 4 6 11 0\n", "far.txt")
    assert main(["decode", "dominoes-2x4", far, "--cnf", str(opb)]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {far}:2: variable 11 is beyond the 10 variables of {opb}: "
                                       "the answer belongs to a different instance or encoding\n")
    # an OPB file puzzlesat did not write; an edited identity line
    plain = tmp_path / "plain.opb"
    plain.write_text("".join(t for t in opb.read_text().splitlines(True) if "puzzlesat-header" not in t))
    assert main(["decode", "dominoes-2x4", ok, "--cnf", str(plain)]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {plain}: no '* puzzlesat-header' line: not an OPB file "
                                       "written by puzzlesat export\n")
    opb.write_text(opb.read_text().replace(" format=opb ", " format=opb format=opb "))
    assert main(["decode", "dominoes-2x4", ok, "--cnf", str(opb)]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {opb}:{line}: malformed 'puzzlesat-header' comment: "
                                       "format= given twice\n")


@pytest.mark.skipif(shutil.which("minisat+") is None, reason="minisat+ is not installed: apt-get install -y minisat+")
def test_decode_a_pb_solvers_answer_to_a_nonogram_with_its_opb_file(tmp_path, nono, capsys):
    opb = str(tmp_path / "m.opb")
    assert main(["export", nono, "-f", "opb", "-o", opb, "--unique"]) == 0
    proc = subprocess.run(["minisat+", opb], capture_output=True, text=True, timeout=120)
    ans = tmp_path / "pb.out"
    ans.write_text(proc.stdout)
    capsys.readouterr()
    assert main(["decode", nono, str(ans), "--cnf", opb]) == 0
    assert "of the OPB file assigned); verified" in capsys.readouterr().out


def test_decode_refuses_binary_answers_opb_as_cnf_and_edited_counts(tmp_path, capsys):
    # a binary file is not echoed back: refused as a puzzle file would be
    a = tmp_path / "bin.ans"
    a.write_bytes(b"\x7fELF\x02\x01\xff\xfe")
    assert main(["decode", "dominoes-2x4", str(a)]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {a}:1: byte 0xFF at column 7 is not UTF-8 text (invalid "
                                       "start byte); save it as UTF-8\n")
    # a Latin-1 comment in a text answer: its line, as for a puzzle file (QA: no line)
    a.write_bytes(DOMINO_OK.encode() + b"c caf\xe9\n")
    assert main(["decode", "dominoes-2x4", str(a)]) == 2
    line = DOMINO_OK.count("\n") + 1
    assert capsys.readouterr().err == (f"puzzlesat: {a}:{line}: byte 0xE9 at column 6 is not UTF-8 text (invalid "
                                       "continuation byte); save it as UTF-8\n")
    a.write_text(DOMINO_OK + "\0")
    assert main(["decode", "dominoes-2x4", str(a)]) == 2
    assert capsys.readouterr().err == f"puzzlesat: {a}: not a text file (it holds NUL bytes)\n"
    a.write_bytes(DOMINO_OK.encode("utf-16"))  # it said "not a text file" too (QA)
    assert main(["decode", "dominoes-2x4", str(a)]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {a}: the file is UTF-16 text, but puzzlesat reads UTF-8 only "
                                       "(convert it: iconv -f UTF-16 -t UTF-8)\n")
    ok = _answer(tmp_path, DOMINO_OK)
    # a file that is neither DIMACS nor OPB
    other = _answer(tmp_path, "* not OPB\n", "x.cnf")
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", ok, "--cnf", other]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {other}:1: not a DIMACS CNF file: '* not OPB' "
                                       "is neither a comment ('c ...'), the 'p cnf' line nor a clause\n")
    # a 'p cnf' line edited against the header comment puzzlesat wrote
    cnf, line = _dominoes_cnf(tmp_path, lambda t: t.replace("p cnf 10 ", "p cnf 12 "))
    p_line = next(i for i, l in enumerate(open(cnf).read().splitlines(), 1) if l.startswith("p cnf"))
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", ok, "--cnf", cnf]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {cnf}:{p_line}: the 'p cnf' line says 12 variables and 24 "
                                       f"clauses but the 'puzzlesat-header' comment (line {line}) says 10 and 24: "
                                       "the file was changed after puzzlesat wrote it\n")


@pytest.mark.parametrize("status,code", [("s UNSATISFIABLE", 1), ("s UNKNOWN", 3)])
def test_decode_checks_the_header_counts_of_an_answer_without_a_model(tmp_path, capsys, status, code):
    # an UNSAT answer to another export proves nothing about this one: its
    # wrong clauses= was accepted and said "no solution" (exit 1)
    cnf = str(tmp_path / "m.cnf")
    assert main(["export", "dominoes-2x4", "-o", cnf]) == 0
    header = next(line for line in open(cnf) if line.startswith("c puzzlesat-header"))
    n = read_cnf(open(cnf).read()).n_clauses
    ok = _answer(tmp_path, header + status + "\n", "ok.txt")
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", ok]) == code
    bad = _answer(tmp_path, header.replace(f" clauses={n} ", f" clauses={n + 1} ", 1) + status + "\n", "bad.txt")
    capsys.readouterr()
    assert main(["decode", "dominoes-2x4", bad]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {bad}:1: the CNF has {n + 1} clauses but this instance with "
                                       f"encoding mixed has {n}: exported by another version of puzzlesat?\n")


def test_decode_checks_an_answer_against_the_opb_files_constraints(tmp_path, capsys):
    # only the header and the board were checked: a --unique export's answer
    # that is a valid tiling but not its class's representative (it breaks
    # the lex-leader constraints) decoded, exit 0 (QA); now the constraints
    # are evaluated, and a partial answer is checked to extend to a model
    from pysat.solvers import Solver

    from puzzlesat.backends import get_backend
    from puzzlesat.encoders.cnf import encode_cnf
    from puzzlesat.encoders.lexleader import lex_leader

    opb = tmp_path / "u.opb"
    assert main(["export", "pentomino-3x20", "-f", "opb", "--unique", "-o", str(opb)]) == 0
    n = int(opb.read_text().split()[2])  # "* #variable= N ..."
    problem = load_puzzle("pentomino-3x20").compile()
    tilings = get_backend("exact").enumerate(problem).solutions
    with Solver(name="cadical195", bootstrap_with=encode_cnf(lex_leader(problem)[0], "mixed").clauses) as s:
        # a tiling is its class's leader when the --unique model has it
        leaders = [s.get_model() for t in tilings if s.solve(assumptions=[v if v in t else -v for v in problem.primary])]
        other = next(t for t in tilings if not s.solve(assumptions=[v if v in t else -v for v in problem.primary]))
    assert len(tilings) == 8 and len(leaders) == 2

    def pb(values, name):
        return _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(f"{'' if b else '-'}x{v}" for v, b in values) + "\n",
                       name)

    capsys.readouterr()
    good = pb(((abs(x), x > 0) for x in leaders[0][:n]), "good.txt")
    assert main(["decode", "pentomino-3x20", good, "--cnf", str(opb)]) == 0
    capsys.readouterr()
    full = pb(((v, v in other) for v in range(1, n + 1)), "full.txt")
    assert main(["decode", "pentomino-3x20", full, "--cnf", str(opb), "--json"]) == 4
    out, err = capsys.readouterr()
    assert json.loads(out)["broken_constraints"] > 0
    assert err.startswith(f"puzzlesat: verification failed: {full}: the answer is not a model of {opb}: it breaks ")
    assert err.rstrip().endswith("so the solver (or the answer file) is wrong, though its primary variables "
                                 "decode to a valid board")
    part = pb(((v, v in other) for v in problem.primary), "part.txt")
    assert main(["decode", "pentomino-3x20", part, "--cnf", str(opb)]) == 4
    assert capsys.readouterr().err.startswith(
        f"puzzlesat: verification failed: {part}: the answer is not part of a model of {opb}: it leaves "
        f"{n - len(problem.primary)} of the {n} variables unassigned, and no model of the OPB file has its literals -x")
    # the leader's primary variables alone extend to a model
    lead = pb(((abs(x), x > 0) for x in leaders[0] if abs(x) in set(problem.primary)), "lp.txt")
    assert main(["decode", "pentomino-3x20", lead, "--cnf", str(opb)]) == 0


def test_a_nonograms_partial_opb_answer_is_checked_on_its_cells(tmp_path, nono, capsys):
    # the line models' auxiliary variables are numbered after the cells, in
    # the OPB file as in the CNF: an answer of the cells alone extends
    opb = tmp_path / "n.opb"
    assert main(["export", nono, "-f", "opb", "-o", str(opb)]) == 0
    puzzle = load_puzzle(nono)
    problem = puzzle.compile()
    from puzzlesat.backends import get_backend

    cells = sorted(get_backend("cadical195").solve(problem).assignment)
    a = _answer(tmp_path, "s SATISFIABLE\nv " + " ".join(f"{'' if v in cells else '-'}x{v}" for v in problem.primary)
                + "\n")
    capsys.readouterr()
    assert main(["decode", nono, a, "--cnf", str(opb)]) == 0


# ---------------------------------------------------------- compressed files


@pytest.mark.parametrize("suffix,unpack", [(".gz", "gzip"), (".xz", "lzma"), (".bz2", "bz2")])
@pytest.mark.parametrize("name,fmt", [("m.cnf", "dimacs"), ("m.opb", "opb"), ("m.pbtxt", "cpsat")])
def test_export_to_a_compressed_name_compresses(tmp_path, capsys, suffix, unpack, name, fmt):
    # m.cnf.gz got the plain text under a .gz name, without a word (QA); the
    # format is the name's without its compression
    import importlib

    plain, packed = tmp_path / name, tmp_path / (name + suffix)
    assert main(["export", "tetromino-L-4x4", "-o", str(plain)]) == 0
    assert main(["export", "tetromino-L-4x4", "-o", str(packed), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["format"] == fmt
    assert importlib.import_module(unpack).decompress(packed.read_bytes()) == plain.read_bytes()


@needs["minisat"]
def test_decode_reads_compressed_answers_and_cnf(tmp_path, capsys):
    import bz2
    import gzip
    import lzma

    cnf = tmp_path / "m.cnf.gz"
    assert main(["export", "pentomino-3x20", "-o", str(cnf)]) == 0
    plain = tmp_path / "m.cnf"
    plain.write_bytes(gzip.decompress(cnf.read_bytes()))
    answer = _run_solver("minisat", str(cnf), tmp_path)  # (minisat reads gzip itself)
    text = open(answer, "rb").read()
    for packed, pack in (("a.gz", gzip.compress), ("a.xz", lzma.compress), ("a.bz2", bz2.compress)):
        (tmp_path / packed).write_bytes(pack(text))
        capsys.readouterr()
        assert main(["decode", "pentomino-3x20", str(tmp_path / packed), "--cnf", str(cnf), "--json"]) == 0
        res = json.loads(capsys.readouterr().out)
        assert (res["valid"], res["true_primary"], res["falsified_clauses"]) == (True, 12, 0)
    # cut short: said so, exit 2
    (tmp_path / "cut.gz").write_bytes(gzip.compress(text)[:40])
    assert main(["decode", "pentomino-3x20", str(tmp_path / "cut.gz")]) == 2
    assert capsys.readouterr().err == (f"puzzlesat: {tmp_path / 'cut.gz'}: a gzip file that cannot be decompressed "
                                       "(Compressed file ended before the end-of-stream marker was reached): cut "
                                       "short or damaged?\n")
