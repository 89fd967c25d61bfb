"""Symmetry breaking by the full lex-leader constraint: one solution per orbit.

Order the primary variables by id, x = (x_1, ..., x_n), and read a solution
as that 0/1 vector.  For a symmetry g the image solution is the vector
x o g (position i holds x_{g(i)}).  The lex-leader constraint adds, for
*every* element g of the group G,

    x <=_lex x o g.

Why this is exact for counting (not just sound for satisfiability): the
solutions form a union of G-orbits; within an orbit O the vectors are
distinct 0/1 strings, so exactly one of them, the lexicographic minimum m,
satisfies m <=_lex m o g for all g (every m o g lies in O, since G is closed
under inverses).  Every other member y of O has some g with y o g = m <_lex y
and is excluded.  So the constrained problem has exactly one solution per
orbit, whether solutions are themselves symmetric (then m o g = m for some g
and the constraint holds with equality) or pieces repeat (a repeated piece is
one Exactly(k) constraint, so swapping copies is not a second solution).
It needs the whole group: with only generators, or a truncated vector, the
constraint is sound (at least one solution per orbit) but not exact, so
:func:`lex_leader` refuses a symmetry list that is not closed.

Encoding of x <=_lex y (y = x o g) with auxiliary "prefix equal" variables
e_i, e_0 = true, over the positions g moves (a fixed position compares x_i
with itself and is always equal):

    e_{i-1} -> (-x_i or y_i)                      x_i <= y_i while equal so far
    e_i <-> e_{i-1} and (x_i <-> y_i)             e_i fully defined

The e_i are functions of x, so even an unprojected model count is unchanged.
The constraints go into the Problem IR itself (auxiliary, non-primary
variables and Clause constraints), so every target (DIMACS, CP-SAT, OPB)
and every back end gets them alike.
"""

from __future__ import annotations

from ..problem import Clause, Problem


class LexLeaderError(ValueError):
    """The symmetries cannot be broken exactly (not a group of primary permutations)."""


def lex_leader(problem: Problem) -> tuple[Problem, dict]:
    """A copy of ``problem`` with one solution per symmetry orbit, and facts
    about what was added (group size, auxiliary variables, clauses)."""
    group = [dict(g) for g in problem.symmetries]
    info = {"group": len(group), "aux_vars": 0, "clauses": 0}
    out = Problem(meanings=list(problem.meanings), constraints=list(problem.constraints),
                  primary=list(problem.primary), symmetries=[], fixed_weight=problem.fixed_weight,
                  redundant=list(problem.redundant), _index=dict(problem._index))
    if len(group) <= 1:
        return out, info
    _check_group(problem, group)
    order = sorted(problem.primary)
    for gi, g in enumerate(group):
        moved = [v for v in order if g.get(v, v) != v]
        if not moved:
            continue  # the identity
        prev = None  # e_{i-1}; None stands for "true"
        for i, x in enumerate(moved):
            y = g[x]
            # e_{i-1} -> (-x or y)
            out.add(Clause(_guard(prev, (-x, y))))
            if i == len(moved) - 1:
                break  # nothing reads the last e
            e = out.var(("lex-equal-prefix", gi, x), primary=False)
            info["aux_vars"] += 1
            # e -> e_{i-1};  e -> (x <-> y);  e_{i-1} and (x <-> y) -> e
            if prev is not None:
                out.add(Clause((-e, prev)))
            out.add(Clause((-e, -x, y)))
            out.add(Clause((-e, x, -y)))
            out.add(Clause(_guard(prev, (x, y, e))))
            out.add(Clause(_guard(prev, (-x, -y, e))))
            prev = e
    info["clauses"] = len(out.constraints) - len(problem.constraints)
    return out, info


def _guard(prev: int | None, lits: tuple[int, ...]) -> tuple[int, ...]:
    return lits if prev is None else (-prev, *lits)


def _check_group(problem: Problem, group: list[dict[int, int]]) -> None:
    primary = set(problem.primary)
    keys = []
    for k, g in enumerate(group):
        for a, b in g.items():
            if a not in primary or b not in primary:
                raise LexLeaderError(f"symmetry {k} moves variable {a} to {b}, not both primary: "
                                     "the lex-leader constraint needs permutations of the primary variables")
        if sorted(g.values()) != sorted(g.keys()):
            raise LexLeaderError(f"symmetry {k} is not a permutation")
        keys.append(_key(g))
    present = set(keys)
    if () not in present:
        raise LexLeaderError("the symmetry list lacks the identity: it must hold the whole group")
    # closure under composition: without it the lex-leader is not exact
    for g in group:
        for h in group:
            gh = {v: g.get(h.get(v, v), h.get(v, v)) for v in set(g) | set(h)}
            if _key(gh) not in present:
                raise LexLeaderError(f"the {len(group)} symmetries are not closed under composition: "
                                     "the lex-leader constraint would not give exactly one solution per orbit")


def _key(g: dict[int, int]) -> tuple:
    return tuple(sorted((a, b) for a, b in g.items() if a != b))
