"""DIMACS writer invariants, the answer reader's edge cases, lex-leader exactness."""

from __future__ import annotations

import itertools

import pytest
from pysat.solvers import Solver

from puzzlesat.encoders.cnf import clean_clause, encode_cnf
from puzzlesat.encoders.dimacs import (Header, build_dimacs, clean_clauses, falsified, problem_digest,
                                       read_answer, read_cnf)
from puzzlesat.encoders.lexleader import LexLeaderError, lex_leader
from puzzlesat.errors import InputError
from puzzlesat.loading import load_puzzle
from puzzlesat.problem import Clause, Problem

TINY_NON = """title "tiny"
width 3
height 3

rows
1
3
1

columns
1
3
1
"""


def _export(name, encoding="mixed"):
    puzzle = load_puzzle(name)
    problem = puzzle.compile()
    enc = encode_cnf(problem, encoding)
    return puzzle, problem, enc, build_dimacs(enc, title=puzzle.title, instance=name, family=puzzle.family,
                                              describe=puzzle.describe_var)


def _check_invariants(text: str, problem: Problem, describe) -> None:
    lines = text.splitlines()
    p_idx = [i for i, l in enumerate(lines) if l.startswith("p ")]
    assert len(p_idx) == 1
    head, body = lines[:p_idx[0]], lines[p_idx[0] + 1:]
    assert all(l.startswith("c") for l in head), "every comment comes before the header"
    assert not any(l.startswith("c") for l in body), "no comment after the header"
    _, fmt, v, c = lines[p_idx[0]].split()
    assert fmt == "cnf"
    clauses = [list(map(int, l.split())) for l in body]
    assert all(cl[-1] == 0 and 0 not in cl[:-1] for cl in clauses)
    clauses = [cl[:-1] for cl in clauses]
    assert int(c) == len(clauses), "clause count exact"
    assert int(v) == max(abs(x) for cl in clauses for x in cl), "variable count exact (the highest id)"
    for cl in clauses:
        assert len(set(cl)) == len(cl), f"duplicate literal in {cl}"
        assert not any(-x in cl for x in cl), f"tautology {cl}"
    show = [l for l in head if l.startswith("c p show ")]
    assert len(show) == 1
    ids = list(map(int, show[0].split()[3:]))
    assert ids[-1] == 0 and ids[:-1] == sorted(problem.primary), "projection line == primary variables"
    assert "c t pmc" in head
    var_lines = [l for l in head if l.startswith("c var ")]
    assert [int(l.split()[2]) for l in var_lines] == sorted(problem.primary)
    for l in var_lines[:5]:
        vid = int(l.split()[2])
        assert l == f"c var {vid} " + " ".join(describe(problem.meaning(vid)).split())
    hdr = [l for l in head if l.startswith("c puzzlesat-header ")]
    h = Header.parse(hdr[0])
    assert (h.problem, h.vars, h.clauses, h.primary) == (problem_digest(problem), int(v), int(c), len(problem.primary))


@pytest.mark.parametrize("name,encoding", [("pentomino-3x20", "mixed"), ("pentomino-3x20", "seqcounter"),
                                           ("dominoes-2x4", "pairwise")])
def test_writer_invariants_tiling(name, encoding):
    puzzle, problem, enc, exp = _export(name, encoding)
    text = exp.text()
    _check_invariants(text, problem, puzzle.describe_var)
    assert "c var 1 place " in text
    cnf = read_cnf(text)
    assert cnf.show == sorted(problem.primary) and not cnf.comments_after_p
    assert cnf.header.encoding == encoding
    n, aux = len(problem.primary), enc.n_vars > problem.n_vars
    assert (f"c {n} primary variables (a solution is the set of them that are true); "
            + (f"variables {n + 1}..{enc.n_vars} are auxiliary" if aux else "no auxiliary variables")) in text


def test_writer_invariants_nonogram(tmp_path):
    path = tmp_path / "tiny.non"
    path.write_text(TINY_NON)
    puzzle = load_puzzle(str(path))
    problem = puzzle.compile()
    exp = build_dimacs(encode_cnf(problem), describe=puzzle.describe_var)
    _check_invariants(exp.text(), problem, puzzle.describe_var)
    assert "c var 1 cell row 1 column 1 is black" in exp.text()
    # the block-start variables are the problem's own but not primary: they
    # are auxiliary too (the line said "no auxiliary variables")
    n = len(problem.primary)
    assert problem.n_vars > n and sorted(problem.primary) == list(range(1, n + 1))
    assert (f"c {n} primary variables (a solution is the set of them that are true); "
            f"variables {n + 1}..{exp.n_vars} are auxiliary") in exp.text().splitlines()


def test_the_auxiliary_variables_are_named_as_ranges():
    from puzzlesat.encoders.dimacs import _auxiliary

    assert _auxiliary([1, 2, 3], 3) == "no auxiliary variables"
    assert _auxiliary([1, 2], 3) == "variable 3 is auxiliary"
    assert _auxiliary([2, 5, 6], 8) == "variables 1, 3..4, 7..8 are auxiliary"


def test_writer_cleans_duplicate_and_tautological_literals():
    p = Problem()
    a, b, c = (p.var(x) for x in "abc")
    p.clause([a, a, b])
    p.clause([a, -a, c])  # a tautology: dropped
    p.clause([c])
    exp = build_dimacs(encode_cnf(p, "pairwise"))
    assert [list(cl) for cl in exp.clauses] == [[a, b], [c]]
    assert "p cnf 3 2\n" in exp.text()
    assert clean_clauses([[1, 1, -2], [3, -3], []]) == [[1, -2], []]


@pytest.mark.parametrize("lits, cleaned", [
    ((1, 1), [1]), ((1, -1), None), ((1, 1, 2), [1, 2]), ((2, 1, 2), [2, 1]), ((1, 2, 2), [1, 2]),
    ((1, -1, 2), None), ((1, 2, -1), None), ((1, 2, -2), None), ((-3, 1, 1, 3), None), ((4, 5, 4, 6), [4, 5, 6]),
])
def test_clean_clause_drops_repeats_and_tautologies(lits, cleaned):
    got = clean_clause(lits)
    assert (got if got is None else list(got)) == cleaned


def test_a_clean_clause_is_the_problems_own_tuple_not_a_copy():
    # a copy of every clause was a fifth of the memory of a 400x400 nonogram's model and CNF
    p = Problem()
    a, b, c, d = (p.var(x) for x in "abcd")
    for lits in ((a, b), (a, -b, c), (a, b, c, d), (d,)):
        p.clause(lits)
    p.clause((a, a, c))
    enc = encode_cnf(p)
    assert [cl is con.lits for cl, con in zip(enc.clauses, p.constraints)] == [True, True, True, True, False]
    assert list(enc.clauses[4]) == [a, c]


def test_empty_clause_written_as_a_lone_zero():
    p = Problem()
    p.var("a")
    p.clause([])
    text = build_dimacs(encode_cnf(p)).text()
    assert text.endswith("p cnf 1 1\n0\n")


@pytest.mark.parametrize("encoding", ["pairwise", "seqcounter", "totalizer", "mixed"])
def test_an_exact_count_above_the_number_of_its_variables_is_unsatisfiable(encoding):
    # exactly 2 of 1 variable, and exactly one of none, can never hold: each is
    # the empty clause, not nothing (nothing would make the CNF satisfiable)
    from puzzlesat.problem import Exactly, ExactlyOne

    for constraint in (lambda a: Exactly(2, (a,)), lambda a: ExactlyOne(())):
        p = Problem()
        a = p.var("a")
        p.add(constraint(a))
        enc = encode_cnf(p, encoding)
        assert enc.clauses == [[]]
        with Solver(name="minisat22", bootstrap_with=enc.clauses) as s:
            assert s.solve() is False
    # an at-most count above its variables' number is no constraint at all
    p = Problem()
    a = p.var("a")
    p.add(Exactly(0, ()))
    assert encode_cnf(p, encoding).clauses == []


def test_digest_tells_instances_apart_and_is_stable():
    a = load_puzzle("pentomino-3x20").compile()
    b = load_puzzle("pentomino-4x15").compile()
    assert problem_digest(a) != problem_digest(b)
    assert problem_digest(a) == problem_digest(load_puzzle("pentomino-3x20").compile())


@pytest.mark.parametrize("name, line_encoding, digest", [
    ("pentomino-3x20", None, "5c99b7067b6cc79d"), ("no0", None, "c53b6af32095655b"),
    ("tetromino-L-4x4", None, "5716dd1f610b0a7d"), ("dancer", None, "4865efab0baa13c0"),
    ("5-dom", None, "b1af1e1884013fb6"), ("dancer", "both", "af35d5c92dc36d8c"),
])
def test_digest_is_the_one_earlier_exports_carry(name, line_encoding, digest):
    # the values the digest had before it was hashed in chunks (97fb9e3):
    # decode checks an export's header against it, so it must not change
    puzzle = load_puzzle(name)
    problem = puzzle.compile(line_encoding=line_encoding) if line_encoding else puzzle.compile()
    assert problem_digest(problem) == digest


# ---------------------------------------------------------------- answers


def test_competition_answer_split_over_lines_with_comments():
    ans = read_answer("c solver 1.0\nc\ns SATISFIABLE\nv 1 -2\nv 3\n\nv -4 0\nc done\n", "a.out")
    assert ans.status == "SAT" and ans.style == "competition"
    assert ans.values == {1: True, 2: False, 3: True, 4: False}
    assert ans.line_of[3] == 5 and ans.true_vars() == {1, 3} and ans.is_contiguous()


def test_partial_assignment_and_pb_tokens():
    ans = read_answer("s SATISFIABLE\nv x7 -x2 0\n")
    assert ans.values == {7: True, 2: False} and not ans.is_contiguous()
    # the PB competition's answers end without a 0
    assert read_answer("s SATISFIABLE\nv -x1 x2\nv x3\n").values == {1: False, 2: True, 3: True}
    # the ending 0 is in neither form: it may end a PB model too
    assert read_answer("s SATISFIABLE\nv x1\nv -x2 0\n").values == {1: True, 2: False}


def test_leading_zeros_make_no_number_too_large():
    # the digit limit counted the zeros too (review)
    assert read_answer("s SATISFIABLE\nv " + "0" * 25 + "1 -2 0\n").values == {1: True, 2: False}
    assert read_cnf("p cnf " + "0" * 25 + "2 1\n1 2 0\n").n_vars == 2


def test_any_white_space_follows_the_line_type():
    # DIMACS separates by white space: a tab after 'v' was "unexpected line" (QA)
    ans = read_answer("c\ta comment\ns\tSATISFIABLE\nv\t1 -2\tx0\n".replace("x0", "0"))
    assert ans.status == "SAT" and ans.values == {1: True, 2: False}


def test_minisat_result_file():
    ans = read_answer("SAT\n-1 2 3 0\n", "r.txt")
    assert ans.style == "minisat" and ans.values == {1: False, 2: True, 3: True}
    assert read_answer("UNSAT\n").status == "UNSAT"
    assert read_answer("INDET\n").status == "UNKNOWN"


@pytest.mark.parametrize("text,status", [("s UNSATISFIABLE\n", "UNSAT"), ("c x\ns UNKNOWN\n", "UNKNOWN"),
                                         ("s INDETERMINATE\n", "UNKNOWN"),
                                         # Debian's CaDiCaL past -t: no status line (it was "no status line", QA)
                                         ("c banner\nc UNKNOWN\nc exit 0\n", "UNKNOWN")])
def test_statuses_without_model(text, status):
    assert read_answer(text).status == status


@pytest.mark.parametrize("text,line,words", [
    ("hello world\n", 1, "not a SAT solver's answer"),
    ("c only comments\n\n", None, "no status line"),
    ("c the solver said it: c UNKNOWN\n", None, "no status line"),  # (a comment that only mentions it)
    ("", None, "no status line"),
    ("v 1 2 0\n", 1, "'v' line before"),
    ("s SATISFIABLE\nv 1 2\nv -1 0\n", 3, "variable 1 is given both values (first on line 2)"),
    ("s SATISFIABLE\nv 1 2\n", 2, "does not end with 0"),
    # a literal cut short at the end of the output: truncated, not a bad literal
    ("s SATISFIABLE\nv 1 -2\nv 3 -", 3, "does not end with 0: the output looks truncated (it stops at '-', a "
                                        "literal cut short)"),
    ("s SATISFIABLE\nv x1 -x", 2, "looks truncated (it stops at '-x'"),
    ("s SATISFIABLE\nv 1 -\n", 2, "not a literal: '-'"),  # the line was ended: no cut
    ("s SATISFIABLE\nv 1 - 2", 2, "not a literal: '-'"),
    ("s SATISFIABLE\n", 1, "gives no model"),
    ("s SATISFIABLE\nv 1 0\nv 2 0\n", 3, "after the model's terminating 0"),
    ("s SATISFIABLE\nv 1 two 0\n", 2, "not a literal: 'two'"),
    ("s SATISFIED\n", 1, "unknown status line"),
    ("s UNSATISFIABLE\nv 1 0\n", 2, "not SATISFIABLE"),
    ("s SATISFIABLE\nv 1 0\ns UNSATISFIABLE\n", 3, "contradicts line 1"),
    ("s SATISFIABLE\nv 1 0\nsome chatter\n", 3, "unexpected line"),
    ("SAT\n1 -0\n", 2, "'-0' is not a literal"),
    ("SAT\n1 2 0\nUNSAT\n", 3, "second status line"),
    # one model, one literal form: DIMACS (1, -1) or the PB competition's (x1, -x1)
    ("s SATISFIABLE\nv 1 3 x4 6 0\n", 2, "mixed literal forms: 'x4' is pseudo-Boolean (x1, -x1) but the model's "
     "first literal, '1' (line 2), is DIMACS (1, -1): a solver writes all its literals one way"),
    ("s SATISFIABLE\nv x1 -x2\nv 3 x4 x6\n", 3, "mixed literal forms: '3' is DIMACS (1, -1) but the model's "
     "first literal, 'x1' (line 2), is pseudo-Boolean (x1, -x1): a solver writes all its literals one way"),
    ("SAT\n1 -x2 3 0\n", 2, "not a literal: '-x2' (MiniSat's result file writes DIMACS literals: 2, -2)"),
    ("s SATISFIABLE\nv x1 x0\n", 2, "not a literal: 'x0' (pseudo-Boolean variables are x1, x2, ...)"),
    # int() refuses 4,301 digits with a ValueError: it was a traceback (QA)
    ("s SATISFIABLE\nv 1 " + "7" * 4301 + " 0\n", 2, "a literal of 4,301 digits is too large"),
    ("s SATISFIABLE\nv x" + "7" * 20 + "\n", 2, "a literal of 20 digits is too large"),
    ("c puzzlesat-header problem=abc encoding=mixed unique=no vars=" + "9" * 5000 + " clauses=2 primary=3\n"
     "s SATISFIABLE\nv 1 0\n", 1, "the vars= field of 5,000 digits is too large"),
])
def test_answer_errors_name_file_and_line(text, line, words):
    with pytest.raises(InputError) as e:
        read_answer(text, "ans.txt")
    assert words in str(e.value)
    assert e.value.path == "ans.txt" and e.value.line == line
    if line is not None:
        assert str(e.value).startswith(f"ans.txt:{line}: ")


def test_variable_beyond_header_names_its_line():
    ans = read_answer("s SATISFIABLE\nv 1 2\nv 3 9 0\n", "a")
    ans.check_range(9)
    with pytest.raises(InputError, match=r"^a:3: variable 9 is beyond the 8 variables"):
        ans.check_range(8)


def test_answer_carrying_a_header_line():
    ans = read_answer("c puzzlesat-header problem=abc encoding=mixed unique=no vars=3 clauses=2 primary=3\n"
                      "s SATISFIABLE\nv 1 0\n")
    assert ans.header.problem == "abc" and ans.header_line == 1


def test_read_cnf_checks_counts():
    with pytest.raises(InputError, match=r"^x:2: the 'p cnf' line says 2 clauses, the file has 1$"):
        read_cnf("c a comment\np cnf 2 2\n1 2 0\n", "x")
    # (the end of the file, named by its line: it had none)
    with pytest.raises(InputError, match=r"^x:3: the last clause does not end with 0$"):
        read_cnf("p cnf 2 2\n1 2 0\n-1\n\n", "x")
    for text, what in (("p cnf " + "9" * 4301 + " 1\n1 0\n", "the variable count of 4,301 digits"),
                       ("p cnf 2 " + "9" * 20 + "\n1 0\n", "the clause count of 20 digits"),
                       ("c p show 1 " + "9" * 4301 + " 0\np cnf 2 1\n1 0\n", "a variable of 4,301 digits"),
                       ("p cnf 2 1\n1 -" + "9" * 4301 + " 0\n", "a literal of 4,301 digits")):
        with pytest.raises(InputError, match=f"^x:[12]: {what} is too large$"):
            read_cnf(text, "x")
    with pytest.raises(InputError, match=r"x:2: literal 3 beyond"):
        read_cnf("p cnf 2 1\n1 3 0\n", "x")
    assert falsified([[1, 2], [-1], [3]], {1: True, 2: False}) == [1]


# ------------------------------------------------------------- lex-leader

SQUARE_DOMINOES = "# title: 8 dominoes in a 4x4 box\nBOX / 4 * 4\n" + "ELEMENT / (D) (1, 1), (1, 2)\n" * 8


def _solutions(problem):
    with Solver(name="cadical195", bootstrap_with=encode_cnf(problem, "pairwise").clauses) as s:
        out = []
        while s.solve():
            m = s.get_model()
            sol = frozenset(v for v in problem.primary if m[v - 1] > 0)
            out.append(sol)
            s.add_clause([-v for v in sol] if problem.fixed_weight else
                         [(-v if v in sol else v) for v in problem.primary])
        return out


def _orbits(problem, sols):
    seen, n = set(), 0
    for s in sols:
        if s in seen:
            continue
        n += 1
        for g in problem.symmetries:
            seen.add(frozenset(g.get(v, v) for v in s))
    return n


@pytest.mark.parametrize("source", ["dominoes-2x4", "tetromino-L-2x4", "square-dominoes"])
def test_lex_leader_gives_exactly_one_solution_per_orbit(tmp_path, source):
    if source == "square-dominoes":  # symmetric tilings and a repeated piece, group of 8
        path = tmp_path / "sq.box"
        path.write_text(SQUARE_DOMINOES)
        source = str(path)
    problem = load_puzzle(source).compile()
    sols = _solutions(problem)
    broken, info = lex_leader(problem)
    assert broken.symmetries == [] and problem.symmetries  # the original is untouched
    assert broken.primary == problem.primary and broken.n_vars == problem.n_vars + info["aux_vars"]
    kept = _solutions(broken)
    assert len(kept) == _orbits(problem, sols) < len(sols)
    # every kept solution is the lexicographic minimum of its orbit
    order = sorted(problem.primary)
    for s in kept:
        vec = [int(v in s) for v in order]
        for g in problem.symmetries:
            assert [int(g.get(v, v) in s) for v in order] >= vec


@pytest.mark.slow
def test_lex_leader_counts_3x20_orbits():
    problem = load_puzzle("pentomino-3x20").compile()
    broken, info = lex_leader(problem)
    assert info["group"] == 4
    assert len(_solutions(broken)) == 2


def test_lex_leader_refuses_a_non_group():
    p = Problem()
    a, b, c = (p.var(x) for x in "abc")
    p.symmetries = [{}, {a: b, b: c, c: a}]  # a 3-cycle without its square
    with pytest.raises(LexLeaderError, match="not closed"):
        lex_leader(p)
    p.symmetries = [{a: b, b: a}, {a: c, c: a}]
    with pytest.raises(LexLeaderError, match="identity"):
        lex_leader(p)
