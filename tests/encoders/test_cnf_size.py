"""cnf_size (info's table) counts what encode_cnf builds, without building
the pairwise at-most-ones: compared with the CNF itself."""

from __future__ import annotations

import pytest

from puzzlesat.encoders.cnf import ENCODINGS, cnf_size, encode_cnf
from puzzlesat.encoders.dimacs import clean_clauses
from puzzlesat.loading import load_puzzle
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


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_the_edge_cases_of_one_of_n(encoding):
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
    assert cnf_size(p, encoding) == _sizes(p, encoding)


def test_a_pairwise_size_that_would_not_fit_in_memory_is_counted_at_once():
    p = Problem()
    p.exactly_one([p.var(i) for i in range(200_000)])  # 2e10 binary clauses
    assert cnf_size(p, "pairwise") == (200_000, 19_999_900_001, 2 * 19_999_900_000 + 200_000)


def test_info_keeps_its_columns_apart_for_numbers_of_eleven_digits(monkeypatch, capsys):
    # 17,021,496,896 pairwise clauses (a 3,240-cell line board) ran into the variables column
    from puzzlesat.cli import main
    from puzzlesat.commands import info

    monkeypatch.setattr(info, "cnf_size", lambda problem, e: (256040, 17021496896, 34053570152))
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

    def slow_in_c(problem, encoding):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            time.sleep(3)
            done.write_text(encoding)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
        return 1, 1, 1

    monkeypatch.setattr(info, "cnf_size", slow_in_c)
    assert main(["info", "dominoes-2x4", "-t", "0.5", "--encodings", "mixed"]) == 3
    assert capsys.readouterr().err.strip() == \
        "puzzlesat: stopped: the time limit (0.5 s) ran out while sizing up dominoes-2x4"
    time.sleep(3.5)
    assert not done.exists()  # the sizing was stopped, not waited for
    # without a limit, the same sizing in this process (nothing to stop)
    assert main(["info", "dominoes-2x4", "--encodings", "mixed", "--json"]) == 0
    assert done.read_text() == "mixed"
