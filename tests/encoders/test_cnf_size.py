"""cnf_size (info's table) counts what encode_cnf builds, without building
the pairwise at-most-ones: compared with the CNF itself."""

from __future__ import annotations

import pytest

from puzzlesat.encoders.cnf import ENCODINGS, cnf_size, cnf_sizes, encode_cnf
from puzzlesat.encoders.dimacs import clean_clauses
from puzzlesat.loading import load_puzzle
from puzzlesat.models.nonogram.clues import RunLengthShape
from puzzlesat.problem import Problem


def _sizes(problem, encoding):
    """The sizes of the export: its clauses as written (no literal twice:
    info said 229,500 literals for tetromino-pairs-5x8's sortnetwrk, whose
    file has 229,122)."""
    enc = encode_cnf(problem, encoding)
    clauses = clean_clauses(enc.clauses)
    return enc.n_vars, len(clauses), sum(len(c) for c in clauses)


@pytest.mark.parametrize("encoding", list(ENCODINGS))
@pytest.mark.parametrize("name", ["dominoes-2x4", "pentomino-3x20", "hexiamonds-6x6", "no0",
                                  "tetromino-pairs-5x8", "5-dom", "dancer"])
def test_the_size_is_the_cnfs(name, encoding):
    problem = load_puzzle(name).compile()
    assert cnf_size(problem, encoding) == _sizes(problem, encoding)


@pytest.mark.parametrize("name", ["dominoes-2x4", "tetromino-pairs-5x8", "no0", "5-dom", "dancer"])
def test_every_encoding_sized_in_one_pass_is_its_own_size(name):
    # cnf_sizes counts clauses and automata once for all the encodings, and
    # each encoding's cardinality constraints apart
    puzzle = load_puzzle(name)
    models = [puzzle.compile()]
    if puzzle.family == "nonogram":  # automata too
        models.append(puzzle.compile(line_encoding="both"))
    for p in models:
        names = list(ENCODINGS) + ["mixed"]  # (a name twice: a row each)
        assert cnf_sizes(p, names) == [_sizes(p, e) for e in names]


def _edge_cases() -> Problem:
    p = Problem()
    v = [p.var(i) for i in range(45)]  # past mixed's pairwise bound (40)
    p.exactly_one(v[:1])
    p.at_most_one(v[1:2])
    p.exactly_one(v[2:4])
    p.at_most_one(v[4:7])
    p.exactly(1, v[7:12])
    p.exactly(2, v[12:16])
    p.at_most_one(v)
    p.exactly_one(v)
    p.clause([v[0], -v[0]])  # a tautology: dropped
    p.clause([v[1], v[1], v[2]])
    # a variable twice in a one-of-n: its pairwise clauses were counted uncleaned (review)
    p.exactly_one([v[0], v[0], v[1]])
    p.at_most_one([v[1], v[2], v[1]])
    p.exactly(2, [v[0], v[1], v[2], v[0]])
    # shapes seen before (each shape is encoded once): the same n with
    # another k or kind, and the same shape on other variables
    p.exactly(2, v[16:22])
    p.exactly_one(v[22:28])
    p.at_most_one(v[28:34])
    p.exactly(2, v[34:40])
    p.exactly(3, v[38:44])
    return p


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_the_edge_cases_of_one_of_n(encoding):
    p = _edge_cases()
    assert cnf_size(p, encoding) == _sizes(p, encoding)


def test_the_edge_cases_sized_in_one_pass():
    p = _edge_cases()
    p.clause([-1, 2, 3])
    p.regular([1, 2, 3], RunLengthShape((1, 1)).automaton())
    names = list(ENCODINGS)
    assert cnf_sizes(p, names) == [_sizes(p, e) for e in names]


def test_a_pairwise_size_that_would_not_fit_in_memory_is_counted_at_once():
    p = Problem()
    p.exactly_one([p.var(i) for i in range(200_000)])  # 2e10 binary clauses
    assert cnf_size(p, "pairwise") == (200_000, 19_999_900_001, 2 * 19_999_900_000 + 200_000)


def test_info_keeps_its_columns_apart_for_numbers_of_eleven_digits(monkeypatch, capsys):
    # 17,021,496,896 pairwise clauses (a 3,240-cell line board) ran into the variables column
    from puzzlesat.cli import main
    from puzzlesat.commands import info

    monkeypatch.setattr(info, "cnf_sizes", lambda problem, es: [(256040, 17021496896, 34053570152)] * len(es))
    assert main(["info", "dominoes-2x4", "--encodings", "pairwise"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["pairwise", "256040", "17021496896", "34053570152"]


def test_info_stops_at_its_time_limit_with_its_json_error(cli):
    r = cli("info", "pentomino-6x10", "-t", "0.001", "--json")
    assert (r.code, r.json()) == (3, {"error": "stopped: the time limit (0.001 s) ran out while sizing up "
                                               "pentomino-6x10", "kind": "time-limit", "exit_code": 3})
    r = cli("info", "pentomino-6x10", "-t", "-1")
    assert r.code == 2 and "Traceback" not in r.err


def test_info_time_limit_is_not_held_up_by_sizing_in_c(monkeypatch, capsys, tmp_path):
    # PySAT builds a cardinality constraint's clauses in C, where the limit's
    # signal waits: an Exactly(1600) on an 80x80 board took info -t 20 to
    # 49 s.  Here a sizing holds the signal back for 3 s, as C would; the
    # limit must end info without waiting for it to finish
    import signal
    import time

    from puzzlesat.cli import main
    from puzzlesat.commands import info

    done = tmp_path / "sized"

    def slow_in_c(problem, encodings):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            time.sleep(3)
            done.write_text(",".join(encodings))
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
        return [(1, 1, 1)] * len(encodings)

    monkeypatch.setattr(info, "cnf_sizes", slow_in_c)
    assert main(["info", "dominoes-2x4", "-t", "0.5", "--encodings", "mixed"]) == 3
    assert capsys.readouterr().err.strip() == \
        "puzzlesat: stopped: the time limit (0.5 s) ran out while sizing up dominoes-2x4"
    time.sleep(3.5)
    assert not done.exists()  # the sizing was stopped, not waited for
    # without a limit, the same sizing in this process (nothing to stop)
    assert main(["info", "dominoes-2x4", "--encodings", "mixed,pairwise", "--json"]) == 0
    assert done.read_text() == "mixed,pairwise"
