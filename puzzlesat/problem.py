"""The solver-neutral middle of puzzlesat: a Problem over Boolean variables.

A Problem is a list of Boolean variables, each with a *meaning* (a hashable,
printable key chosen by the puzzle family), and a list of constraints over
them.  Variables are numbered 1..n in the order they were added, so a literal
is a signed int exactly as in DIMACS; encoders map those numbers to their own
ids (keyed by meaning) and add auxiliary variables after them.

Families build Problems; encoders and back ends read them.  Nothing here knows
what a pentomino or a nonogram is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable, Sequence


class ProblemError(ValueError):
    """A constraint refers to a variable that does not exist, or is malformed."""


# ----------------------------------------------------------------- constraints


@dataclass(frozen=True, slots=True)
class ExactlyOne:
    """Exactly one of ``vars`` is true (an exact-cover item)."""

    vars: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Exactly:
    """Exactly ``k`` of ``vars`` are true (a multiplicity item)."""

    k: int
    vars: tuple[int, ...]

    @property
    def bounded_k(self) -> int:
        """``k`` moved into -1..len(vars)+1: the same constraint (one that
        cannot hold stays one that cannot hold) with a number any solver's
        integers hold, where ``k`` is whatever a user wrote (a piece's
        count of 10**20 made OR-Tools raise a TypeError)."""
        return min(max(self.k, -1), len(self.vars) + 1)


@dataclass(frozen=True, slots=True)
class AtMostOne:
    """At most one of ``vars`` is true (a secondary item)."""

    vars: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Clause:
    """At least one of the signed literals ``lits`` holds."""

    lits: tuple[int, ...]


@dataclass(frozen=True)
class Automaton:
    """A DFA over the alphabet {0, 1}.

    ``transitions[state]`` is a pair ``(next_on_0, next_on_1)`` where ``None``
    means "reject".  States are 0..len(transitions)-1.
    """

    transitions: tuple[tuple[int | None, int | None], ...]
    start: int
    accepting: frozenset[int]

    @property
    def n_states(self) -> int:
        return len(self.transitions)

    def accepts(self, word: Iterable[int]) -> bool:
        state: int | None = self.start
        for bit in word:
            state = self.transitions[state][1 if bit else 0]
            if state is None:
                return False
        return state in self.accepting


@dataclass(frozen=True, slots=True)
class Regular:
    """The word formed by the values of ``vars`` is accepted by ``automaton``."""

    vars: tuple[int, ...]
    automaton: Automaton


Constraint = ExactlyOne | Exactly | AtMostOne | Clause | Regular

#: A solution as back ends report it: the set of *primary* variables that are true.
Assignment = frozenset


# --------------------------------------------------------------------- problem


@dataclass
class Problem:
    """Variables with meanings, constraints, primary variables and symmetries.

    ``primary``: the variables whose values make a solution.  Solutions are
    told apart by these only; back ends block and count over them.

    ``symmetries``: permutations of the primary variables that map solutions
    to solutions, each a dict ``var -> var`` (variables it fixes may be
    omitted).  They generate nothing: the list holds the whole group, identity
    included, each element once (:func:`distinct_permutations`), so that
    Burnside's lemma can average over it and the views method weigh by it.

    ``fixed_weight``: every solution makes the same number of primary
    variables true (true of exact covers and of nonograms), so blocking the
    true primary literals alone excludes exactly one solution.  Back ends use
    it to keep blocking clauses short; without it they block every primary
    literal.
    """

    meanings: list[Hashable] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    primary: list[int] = field(default_factory=list)
    symmetries: list[dict[int, int]] = field(default_factory=list)
    fixed_weight: bool = False
    #: ways to split the solutions that the constraints imply without stating
    #: them as ExactlyOne (a nonogram's block positions): each a list of
    #: alternatives, conjunctions of literals, exactly one of which holds in
    #: every solution.  Only a count's splitting (jobs.split) reads them.
    partitions: list[list[tuple[int, ...]]] = field(default_factory=list)
    #: constraints that the others imply, left out of ``constraints`` (a
    #: tiling's piece count that the board's area fixes: in CNF a counter
    #: Ganak pays 26 s for on 6x6 dominoes).  An engine states them where
    #: that helps: the exact-cover translation does next to other counts,
    #: or Algorithm M places that piece without bound and finds the other
    #: counts short only deep down (no solution in 30 s for four of each
    #: tetromino in a 4x20 box; 10 ms with it).
    redundant: list[Constraint] = field(default_factory=list)
    _index: dict[Hashable, int] = field(default_factory=dict, repr=False)

    # -- variables
    @property
    def n_vars(self) -> int:
        return len(self.meanings)

    def var(self, meaning: Hashable, primary: bool = True) -> int:
        """The variable for ``meaning``, created (1-based) on first use."""
        v = self._index.get(meaning)
        if v is None:
            self.meanings.append(meaning)
            v = len(self.meanings)
            self._index[meaning] = v
            if primary:
                self.primary.append(v)
        return v

    def lookup(self, meaning: Hashable) -> int | None:
        return self._index.get(meaning)

    def meaning(self, var: int) -> Hashable:
        return self.meanings[var - 1]

    # -- constraints
    def add(self, constraint: Constraint) -> None:
        n = len(self.meanings)  # (not the property: once per variable, a third of the time on big problems)
        bad = _out_of_range(_constraint_vars(constraint), n)
        if bad is not None:
            raise ProblemError(f"variable {bad} out of range 1..{n} in {constraint!r}")
        self.constraints.append(constraint)

    def add_clauses(self, clauses: Iterable[tuple[int, ...]]) -> None:
        """``add(Clause(c))`` for each of ``clauses`` (tuples), checked
        together first: when one is out of range, none is added."""
        if not isinstance(clauses, (list, tuple)):
            clauses = list(clauses)  # (read twice below: a generator was added as nothing, audit)
        n = len(self.meanings)
        if _out_of_range([l for c in clauses for l in c], n) is not None:
            for c in clauses:
                bad = _out_of_range(c, n)
                if bad is not None:
                    raise ProblemError(f"variable {bad} out of range 1..{n} in {Clause(c)!r}")
        self.constraints.extend(map(Clause, clauses))

    def exactly_one(self, vars: Sequence[int]) -> None:
        self.add(ExactlyOne(tuple(vars)))

    def exactly(self, k: int, vars: Sequence[int]) -> None:
        self.add(Exactly(k, tuple(vars)) if k != 1 else ExactlyOne(tuple(vars)))

    def at_most_one(self, vars: Sequence[int]) -> None:
        self.add(AtMostOne(tuple(vars)))

    def clause(self, lits: Sequence[int]) -> None:
        self.add(Clause(tuple(lits)))

    def regular(self, vars: Sequence[int], automaton: Automaton) -> None:
        self.add(Regular(tuple(vars), automaton))

    # -- derived problems
    def with_constraints(self, extra: Iterable[Constraint], *, symmetries: list[dict[int, int]] | None = None) -> "Problem":
        """A copy sharing the variables, with ``extra`` constraints appended.

        The copy keeps no symmetries unless given: extra constraints usually
        break them.
        """
        p = Problem(
            meanings=self.meanings,
            constraints=list(self.constraints),
            primary=self.primary,
            symmetries=symmetries or [],
            fixed_weight=self.fixed_weight,
            partitions=self.partitions,
            redundant=self.redundant,  # (implied still: extra constraints only take solutions away)
            _index=self._index,
        )
        for c in extra:
            p.add(c)
        return p

    def is_satisfied_by(self, true_vars: frozenset[int]) -> bool:
        """Check every constraint on a full assignment (true set of all vars).

        For tests and debugging; families verify solutions with their own,
        independent checkers.
        """
        for c in self.constraints:
            if isinstance(c, Clause):
                if not any((l > 0) == (abs(l) in true_vars) for l in c.lits):
                    return False
            elif isinstance(c, Regular):
                if not c.automaton.accepts(1 if v in true_vars else 0 for v in c.vars):
                    return False
            else:
                n = sum(1 for v in c.vars if v in true_vars)
                if isinstance(c, ExactlyOne) and n != 1:
                    return False
                if isinstance(c, Exactly) and n != c.k:
                    return False
                if isinstance(c, AtMostOne) and n > 1:
                    return False
        return True

    def stats(self) -> dict:
        kinds: dict[str, int] = {}
        for c in self.constraints:
            kinds[type(c).__name__] = kinds.get(type(c).__name__, 0) + 1
        return {"variables": self.n_vars, "primary": len(self.primary), "constraints": kinds,
                "symmetries": len(self.symmetries)}


def _constraint_vars(c: Constraint) -> tuple[int, ...]:
    return c.lits if isinstance(c, Clause) else c.vars


def _out_of_range(lits: Sequence[int], n: int) -> int | None:
    """The first of ``lits`` whose variable is not in 1..n, or None.  The
    test is max and min, in C: a loop over every literal was a third of a
    nonogram's compiling."""
    if lits and (max(lits) > n or min(lits) < -n or 0 in lits):
        return next(v for v in lits if not 1 <= abs(v) <= n)
    return None


def equalities(perm: dict[int, int]) -> list[Clause]:
    """Clauses saying a solution is fixed by ``perm``: x == perm(x) for all x."""
    out = []
    for a, b in perm.items():
        if a != b:
            out.append(Clause((-a, b)))
            out.append(Clause((a, -b)))
    return out


def distinct_permutations(perms: Iterable[dict]) -> list[dict]:
    """Each permutation once, in order: two maps that move every point alike
    (the turns of a flat 1 x 3 x 4 box; a mirror of a one-row grid and the
    identity) are one symmetry.  Points a map fixes may be listed or not."""
    seen, out = set(), []
    for g in perms:
        key = frozenset((a, b) for a, b in g.items() if a != b)
        if key not in seen:
            seen.add(key)
            out.append(g)
    return out
