"""The jobs a user runs — solve, count, count up to symmetry — on any family
and any back end.  Every solution a back end hands back is decoded and
verified here, by the family's own checker.

Counting up to symmetry (``unique``) never enumerates every raw solution when
it can avoid it.  Let G be the problem's symmetry group and S its solutions.

* If some ExactlyOne constraint C (a piece used once) is mapped onto itself by
  all of G, every solution has exactly one variable of C true.  Pick one
  representative r in each G-orbit of C's variables.  For a solution orbit O,
  the solutions in O whose C-variable is r number |Stab(r)| / |Stab(s)|
  (Stab(s) <= Stab(r) because s determines its C-variable).  Hence

      #orbits = sum over reps r of  #(Stab(r)-orbits of solutions with r true)

  and by Burnside's lemma on each term, with S_r the solutions with r true,

      #orbits = sum over reps r of (1/|Stab(r)|) sum over h in Stab(r) of #fix_h(S_r)
              = sum over h in G, k >= 1 of (1/k) #fix_h(union of S_r over reps
                r with |Stab(r)| = k that h fixes).

  One run per (h, k) pair that occurs: C restricted to those reps (the other
  C-variables forbidden) plus "fixed by h" equalities.  The identity with
  k = 1 is the big run, the usual asymmetric placements counted once each
  (for 6x10 the blog post's trick, made general); the other runs count
  symmetric placements and symmetric solutions and are small.  At most a few
  times |G| runs, however symmetric the pieces (a recursion on stabilisers
  made thousands of tiny runs on the 3-D boxes).  The identity runs go
  first: the solutions an h fixes are among the identity run's for the same
  k, so when that is empty its (h, k) runs are skipped (a box with no tiling
  costs one run per k, not one per (h, k)).
* Without such a constraint (every piece repeats), the *views* of one cell:
  what a solution looks like from each image of the cell, brought back to
  it.  The solutions whose own view is the least are listed and each
  weighed by |Stab(S)| / (how many views tie for least); see
  :func:`_views`.  It searches about |G| times less than the raw count, but
  weighs solution by solution, so it is used while they are few.
* Otherwise, Burnside's lemma: #orbits = (1/|G|) sum over g
  of #solutions fixed by g, a fixed solution being one with x == g(x) for
  every variable (equalities that every back end takes as clauses).

Both are exact when solutions are themselves symmetric and when pieces repeat
(a repeated piece is one Exactly(k) constraint, never swapped copies).
"""

from __future__ import annotations

import collections
import math
import sys
import threading
import time
from contextlib import ExitStack, contextmanager, nullcontext
from fractions import Fraction
from typing import Callable
from dataclasses import dataclass, field

from .backends import Backend, BackendError, SearchResult, SolveResult, Status, get_backend
from .backends import base as backend_base
from .backends.base import Deadline, blocking_clause
from .errors import Terminated, VerificationError, die_of_sigterm, plural
from .problem import AtMostOne, Clause, ExactlyOne, Problem, distinct_permutations, equalities
from .puzzle import Puzzle

DEFAULT_SOLVE_BACKEND = "cadical195"
#: the engines ``solve`` races when no --backend is given and each takes the
#: problem (a tiling): dancing links finds most boxes' first solution 10-100x
#: sooner, CaDiCaL proves parity-bound boards empty where dancing links
#: searches for minutes (backends/race.py, benchmarks/solve_default.py); on
#: dominoes in the plane, the determinant (MATCHING_COUNTER, a refuter)
#: proves a board empty where both search for minutes
SOLVE_RACE = ("exact", "cadical195")
#: the engines that join solve's race after its first second, only to prove
#: there is no solution (race.REFUTERS_AFTER)
SOLVE_REFUTERS = ("kasteleyn",)
#: engines tried in order when ``count`` is given no --backend
COUNT_PREFERENCE = ("exact", "cadical195")
#: the model counter ``count`` prefers for exact covers with very many solutions
MODEL_COUNTER = "ganak"
#: the engine ``count`` prefers, ahead of any estimate, for a count of the
#: perfect matchings of a planar graph (dominoes on any board of the
#: plane): a determinant, polynomial however many tilings there are
#: (12,988,816 on the 8x8 board in ~5 ms, where enumerating takes 7 s and
#: Ganak 0.6 s; a count of 0 on two mutilated 16x16 boards joined by a door,
#: where every other engine searches for minutes); up to symmetry when it
#: also takes every Burnside run (8x8: 0.1 s, Ganak 1.0 s)
MATCHING_COUNTER = "kasteleyn"
#: why MATCHING_COUNTER takes a count (the start of count's backend_choice)
MATCHINGS = ("the tilings are the perfect matchings of a planar graph (a vertex per cell, an edge per domino; "
             "monominoes' cells summed over)")
#: estimated solutions below which a matching problem is enumerated rather
#: than given to MATCHING_COUNTER: importing networkx and numpy takes ~0.13 s,
#: while the exact engine lists ~2 us a solution (6x6 dominoes: 6,728 in
#: 15 ms; `count` on it 0.35 s with the determinant, 0.23 s with -b exact)
ENUMERATE_BELOW = 50_000
#: from how many constraints (a board's cells, for dominoes) a problem that
#: MATCHING_COUNTER takes goes to it without Knuth's estimate: a planar
#: board that large has far more than ENUMERATE_BELOW tilings but for thin
#: strips and boards with none, and the estimate costs 0.07 s on 20x20,
#: 0.28 s on 40x40 (the determinant 0.44 s)
ESTIMATE_MATCHINGS_BELOW = 200
#: estimated solutions above which Ganak's count beats the exact engine's
#: listing.  It was 500,000, measured on domino boards, which the
#: determinant has counted since; on the covers that reach this test
#: (session 23, benchmarks/counting-results.md) the exact engine lists
#: 0.15-1.8 million a second, while Ganak takes 2-5 s where its width is
#: small (dominoes and a 2x2 square: 6x8's 991,721, exact 0.61 s, Ganak
#: 2.2 s; 6x9's 5.5e6 at par; 6x10's 3.1e7, 17 s against 4.3 s) and far
#: more with trominoes among them (6x8 with two straight ones, 6.0e6: 4.1 s
#: against 11 s; 6x8 of trominoes, 1.5e6: 1.7 s against more than 60 s)
MODEL_COUNT_FROM = 10_000_000


# ---------------------------------------------------------------- back ends


def pick_backend(problem: Problem, name: str | None, job: str, encoding: str | None = None) -> Backend:
    """The named back end, or the default for ``job``: "count", "solve"
    (a :class:`~.backends.race.Race` where two engines take the problem),
    or any other (check's count to two): CaDiCaL."""
    if name is not None:
        be = get_backend(name, encoding=encoding)
        why = be.supports(problem)
        if why and fixed_by_units(problem) is None:  # (units settle it: no engine is called, and a note says so)
            raise BackendError(f"backend {name!r} cannot take this problem: {why}")
        return be
    if job == "count":
        return choose_count_backend(problem, encoding)[0]
    if job == "solve" and fixed_by_units(problem) is None:
        race = _race(SOLVE_RACE, problem, encoding)
        if race is not None:
            return race
    return _first_supporting((DEFAULT_SOLVE_BACKEND,), problem, encoding)


def _race(names, problem: Problem, encoding: str | None) -> Backend | None:
    """A :class:`Race` of the engines named that take ``problem`` (an
    engine that takes no CNF encoding refuses one), or None if fewer than
    two do."""
    from .backends.race import Race

    engines = list(_supporting(names, problem, encoding))
    if len(engines) < 2:
        return None
    # (whether a refuter takes the problem is asked in the race, if it comes
    # to that: the determinant's planarity test takes 0.5 s on 100x100)
    return Race(engines, list(_installed(SOLVE_REFUTERS)) if encoding is None else [])


def choose_count_backend(problem: Problem, encoding: str | None = None, *,
                         listing: bool = True, unique: bool = False) -> tuple[Backend, str | None]:
    """The default engine for a count, and why when it is not the usual one.

    Enumerating engines pay for every solution; counters do not.  When the
    solutions need not be listed (``listing`` False): a count of the
    perfect matchings of a planar graph goes to MATCHING_COUNTER (up to
    symmetry too, when it also takes each symmetry's Burnside run, whose
    equalities make a quotient graph); and when Knuth's estimate
    (:mod:`.estimate`) says an exact cover has very many solutions, with
    most random descents ending in one, the model counter is used.  A
    matching problem the estimate finds fewer than ENUMERATE_BELOW solutions
    in is enumerated: the determinant's modules alone take longer to load
    (a problem of ESTIMATE_MATCHINGS_BELOW constraints or more is not
    estimated first).  A cover that a quick upper bound already puts below
    ENUMERATE_BELOW is enumerated without random descents.  A model its
    unit clauses settle (:func:`fixed_by_units`) calls no engine: the plain
    default is named, without the choice's seconds (on a line-solved
    500x500 nonogram, classifying its 250,000 units as an exact cover took
    half the count's time)."""
    est = None
    if fixed_by_units(problem) is not None:
        return _first_supporting((DEFAULT_SOLVE_BACKEND,), problem, encoding), None
    if not listing:
        from .estimate import estimate_solutions

        found = None
        # a graph's vertices are ExactlyOne items: a model with none (a
        # nonogram that unit clauses settle) is no matching problem, though
        # its empty graph has one matching (it was explained as tilings, QA)
        graph = encoding is None and any(isinstance(c, ExactlyOne) for c in problem.constraints)
        if graph and len(problem.constraints) >= ESTIMATE_MATCHINGS_BELOW:
            found = next(_supporting((MATCHING_COUNTER,), problem, None), None)
        estimated = found is None
        if estimated:
            est = estimate_solutions(problem, few=ENUMERATE_BELOW)  # (None: not an exact cover)
            few = _reliable(est) and est.solutions < ENUMERATE_BELOW
            if graph and not few:
                found = next(_supporting((MATCHING_COUNTER,), problem, None), None)
        if found is not None:
            if not (unique and len(problem.symmetries) > 1):
                return found, f"{MATCHINGS}: Kasteleyn's determinant counts them without listing them"
            if all(found.supports(problem.with_constraints(equalities(g))) is None
                   for g in problem.symmetries if g):
                return found, (f"{MATCHINGS}: Burnside's lemma with Kasteleyn's determinant of the board and of "
                               "its quotient by each symmetry (the tilings that symmetry fixes) counts the classes "
                               "without listing them")
            if not estimated:
                est = estimate_solutions(problem, few=ENUMERATE_BELOW)
    if _reliable(est) and est.solutions >= MODEL_COUNT_FROM:
        be = next(_supporting((MODEL_COUNTER,), problem, encoding), None)
        if be is not None:
            about = "more than 1e+308" if math.isinf(est.solutions) else f"about {est.solutions:.2g}"
            return be, (f"{about} solutions by Knuth's estimate over "
                        f"{est.descents} random descents, too many to enumerate one by one")
    return _first_supporting(COUNT_PREFERENCE, problem, encoding), None


def _reliable(est) -> bool:
    """Most of the estimate's random descents ended in a solution: it can be
    trusted."""
    return est is not None and est.hit_rate >= 0.5


def _installed(names, encoding: str | None = None):
    """The engines named, in order, that are installed (an engine that takes
    no CNF encoding refuses one: it is skipped)."""
    for name in names:
        try:
            yield get_backend(name, encoding=encoding)
        except BackendError:
            continue


def _supporting(names, problem: Problem, encoding: str | None):
    """The engines named, in order, that are installed and take ``problem``."""
    return (be for be in _installed(names, encoding) if be.supports(problem) is None)


def _first_supporting(prefs, problem: Problem, encoding: str | None) -> Backend:
    found = next(_supporting(prefs, problem, encoding), None)
    return found if found is not None else get_backend(DEFAULT_SOLVE_BACKEND, encoding=encoding)


# -------------------------------------------------------------------- solve


@dataclass
class SolveOutcome:
    status: Status
    solution: object | None
    backend: str | None  # None: no engine was called (a precheck)
    seconds: float
    reason: str | None = None  # why there is no solution, when known without solving
    method: str | None = None  # how it was found, when not by one plain search
    stopped_by: str | None = None  # UNKNOWN: "time-limit" or "interrupted" (Ctrl-C)
    choice: str | None = None  # how the engine was chosen, when by a race


def solve(puzzle: Puzzle, backend: Backend | None = None, *, time_limit: float | None = None,
          problem: Problem | None = None, progress: bool = False) -> SolveOutcome:
    """Find one solution, decoded and verified.  ``progress``: the elapsed
    time on stderr while the search runs."""
    reason = puzzle.precheck()
    if reason:
        # (no engine was called: the outcome names none)
        return SolveOutcome(Status.NO_SOLUTION, None, None, 0.0, reason, method="precheck")
    problem = problem or puzzle.compile()
    clock = Deadline(None)
    fixed = fixed_by_units(problem)
    if fixed is not None:
        sol = decode_verified(puzzle, problem, fixed, "unit propagation")
        return SolveOutcome(Status.SOLVED, sol, None, clock.elapsed(), method=UNITS)
    backend = backend or pick_backend(problem, None, "solve")
    try:
        with _drawing_progress(backend, progress, f"solving ({backend.name})", counting=False):
            if _symmetric_first(puzzle, problem, backend):
                deadline = Deadline(time_limit)
                found = _search_symmetric_first(puzzle, problem, backend, 1, deadline)
                status = (Status.SOLVED if found.decoded else
                          Status.NO_SOLUTION if found.complete else Status.UNKNOWN)
                return SolveOutcome(status, found.decoded[0] if found.decoded else None, backend.name,
                                    deadline.elapsed(), method=found.how,
                                    stopped_by=found.stopped_by if status == Status.UNKNOWN else None)
            r: SolveResult = backend.solve(problem, time_limit=time_limit)
    except KeyboardInterrupt:
        # a Ctrl-C outside the solver's own call (building its model: faase's
        # CP-SAT model takes a second or two) is the same answer
        return SolveOutcome(Status.UNKNOWN, None, backend.name, clock.elapsed(), stopped_by="interrupted")
    sol = None
    if r.status == Status.SOLVED:
        sol = decode_verified(puzzle, problem, r.assignment, r.backend)
    choice = None
    if "race" in r.stats:
        others = [e.name for e in backend.engines if e.name != r.backend]
        others += [name for name in r.stats["refuters"] if name != r.backend]
        choice = (f"raced against {' and '.join(others)}" if r.status != Status.UNKNOWN else
                  f"a race of {' and '.join(e.name for e in backend.engines)}")
        for failure in r.stats.get("race_failed", []):  # the answer stands; the failure is said
            choice += f"; {failure}"
    return SolveOutcome(r.status, sol, r.backend, r.seconds, stopped_by=r.stopped_by, choice=choice)


#: the method of a solution no engine searched for (:func:`fixed_by_units`)
UNITS = "units"
#: what the reports say of it
UNITS_SAID = "no search: the model's unit clauses fix every variable"


def fixed_by_units(problem: Problem) -> frozenset | None:
    """The one solution of a model made of unit clauses that fix every
    primary variable (a nonogram line logic solves, preprocessed: its cells'
    units), as its true primary variables; None for any other model.  A
    search would only find it again: on a line-solved 500x500 picture the
    symmetric-first search took 4.2 s to."""
    if not problem.constraints or not problem.primary:
        return None
    value: dict[int, bool] = {}
    for c in problem.constraints:
        if type(c) is not Clause or len(c.lits) != 1:
            return None
        lit = c.lits[0]
        if value.setdefault(abs(lit), lit > 0) != (lit > 0):
            return None  # contradicting units: the engines say "none"
    if any(v not in value for v in problem.primary):
        return None
    return frozenset(v for v in problem.primary if value[v])


def decode_verified(puzzle: Puzzle, problem: Problem, assignment: frozenset | None, backend: str):
    if assignment is None:
        raise VerificationError(f"backend {backend} reported a solution but returned no assignment")
    sol = puzzle.decode(problem, assignment)
    try:
        puzzle.verify(sol)
    except VerificationError as e:
        raise VerificationError(f"backend {backend} returned an invalid solution: {e}") from None
    return sol


# ------------------------------------------------- symmetric-first search

#: the first time slice (seconds) of the symmetric-first search, doubled each round
FIRST_SLICE = 1.0
#: a slice is at least this many times the time its model took to encode
SLICE_PER_ENCODING = 3.0
#: symmetric subspaces tried besides the whole group's (cyclic subgroups, largest first)
MAX_SUBGROUPS = 2


def _symmetric_first(puzzle: Puzzle, problem: Problem, backend: Backend, want: int = 1) -> bool:
    return (getattr(puzzle, "symmetric_first", False) and len(problem.symmetries) > 1
            and backend.can_enumerate and (want <= 1 or _blocks(backend, problem)))


def _blocks(backend: Backend, problem: Problem) -> bool:
    """Whether ``backend`` can search ``problem`` with found solutions
    blocked by clauses, as the searches for more solutions than one from
    symmetric subspaces or from a known solution do.  The exact-cover engine
    takes only clauses of an exact-cover form, so on a nonogram that is an
    exact cover (lines all black, say) it enumerates instead.  The probe is
    the longest blocking clause this problem can have."""
    lits = tuple(-v for v in problem.primary) if problem.fixed_weight else tuple(problem.primary)
    return backend.supports(problem.with_constraints([Clause(lits)])) is None


@dataclass
class _Found:
    decoded: list
    complete: bool
    stopped_by: str | None
    how: str
    runs: int


@dataclass(eq=False)
class _Tier:
    """A space the symmetric-first search searches: the solutions fixed by
    ``gens`` (none: the whole problem)."""

    label: str
    gens: list[dict[int, int]]
    problem: Problem | None = None  # with the generators' equalities, once built
    shortest: float = 0.0  # its shortest slice (seconds)
    kept: ExitStack | None = None  # what keeps its encoding
    run: backend_base.Slices | None = None  # its search since the last solution found, taken up slice by slice


def _close_run(tier: _Tier) -> None:
    if tier.run is not None:
        tier.run.close()
        tier.run = None


def _subspaces(group: list[dict[int, int]]) -> list[tuple[str, list[dict[int, int]]]]:
    """(label, generators) for the solutions fixed by the whole group, then
    by the cyclic subgroups of single elements, largest first, each once:
    the solutions fixed by the generators, whose equalities the search
    builds when it first needs them (on a 500x500 nonogram they are 1.6
    million clauses, which took 2 s to build).

    ``group`` is the whole group.  An element is known by its images of a
    few variables that tell all elements apart (a base), so a product is
    found without composing whole permutations: a 200x200 nonogram's eight
    symmetries move 40,000 variables, and composing them whole took seconds
    before the first search, outside any time limit."""
    group = distinct_permutations(group)  # as Problem promises; a caller's list may not
    base: list[int] = []
    moved = sorted({v for g in group for v in g})

    def told_apart(extra: list[int]) -> int:
        return len({tuple(g.get(b, b) for b in base + extra) for g in group})

    while told_apart([]) < len(group):
        # a variable that splits the elements most: a sample first, else any
        now = told_apart([])
        best = max(moved[:64] + moved[64::max(1, len(moved) // 256)], key=lambda v: told_apart([v]))
        if told_apart([best]) == now:
            best = next(v for v in moved if told_apart([v]) > now)
        base.append(best)
        moved.remove(best)
    index = {tuple(g.get(b, b) for b in base): i for i, g in enumerate(group)}

    def times(i: int, j: int) -> int:  # the element x -> g_i(g_j(x))
        gi, gj = group[i], group[j]
        return index[tuple(gi.get(gj.get(b, b), gj.get(b, b)) for b in base)]

    identity = index[tuple(base)]

    def generated(gens: list[int]) -> frozenset[int]:
        out, todo = {identity}, [identity]
        while todo:
            x = todo.pop()
            for g in gens:
                y = times(g, x)
                if y not in out:
                    out.add(y)
                    todo.append(y)
        return frozenset(out)

    others = [i for i, g in enumerate(group) if g]
    # the whole group's fixed points: equalities of a generating set suffice
    gens: list[int] = []
    for i in sorted(others, key=lambda i: -len(generated([i]))):
        if i not in generated(gens):
            gens.append(i)
    whole = generated(gens)
    tiers = [(f"fixed by all {len(whole)} symmetries" if len(whole) > 1 else "no symmetry",
              [group[i] for i in gens])]
    seen = {whole}
    for sub, i in sorted(((generated([i]), i) for i in others), key=lambda t: -len(t[0])):
        if sub in seen or len(tiers) > MAX_SUBGROUPS:
            continue
        seen.add(sub)
        tiers.append((f"fixed by a symmetry of order {len(sub)}", [group[i]]))
    return tiers


def _search_symmetric_first(puzzle: Puzzle, problem: Problem, backend: Backend, want: int,
                            deadline: Deadline, tick=lambda: None) -> _Found:
    """Up to ``want`` solutions, looking in symmetric subspaces as well as in
    the whole space.

    Designers draw symmetric pictures, and a picture fixed by the clues'
    symmetries lives in a much smaller search space (webpbn's Knotty: no
    engine finds any solution in minutes, while one fixed by its quarter
    turns takes about a second).  So the search interleaves, in rounds of
    doubling time slices: the solutions fixed by the whole group, those
    fixed by single symmetries, and the whole problem.  (A puzzle whose
    clues are symmetric and whose solution is unique has a symmetric
    solution: the symmetries map it to a solution, so to itself.)  A subspace proved
    empty is dropped; once the whole problem is alone it gets all the time
    left.  Every solution found is blocked for the later searches, and its
    images under the symmetries are solutions too (verified like any other):
    an asymmetric picture gives a second solution for free.  Complete only
    when the whole problem is proved to have no further solution.
    """
    tiers = [_Tier(label, gens) for label, gens in _subspaces(problem.symmetries)]
    tiers.append(_Tier("any", [], problem))
    found: list[frozenset] = []
    seen: set[frozenset] = set()  # (a list's `in` made a count to 20,000 take 80 s)
    decoded: list = []
    blocks: list[Clause] = []
    how, runs = "search", 0

    def add(sol: frozenset, label: str) -> None:
        nonlocal how
        if sol in seen or len(found) >= want:  # (never more than asked for: the images came on top)
            return
        decoded.append(decode_verified(puzzle, problem, sol, backend.name))
        found.append(sol)
        seen.add(sol)
        blocks.append(Clause(tuple(blocking_clause(problem, sol))))
        tick()
        if len(found) == 1:
            how = "search" if label == "any" else f"symmetric-first ({label})"

    def rounds(whole: ExitStack) -> _Found:
        nonlocal runs, tiers
        # each run searches the problem or a subspace's plus a few
        # clauses: all start from one encoding of it, kept here (a child
        # forked for CaDiCaL's time slice inherits it), and a slice lasts
        # at least a few times that encoding's time, so that loading the
        # model is not all it does (a 1000 x 1000 disc's picture took
        # 92 CPU-s when each run encoded afresh within its slice, 31 now,
        # and 16 with no subspaces; benchmarks/symmetric_first.py)
        start = time.perf_counter()
        whole.enter_context(backend.keeping(problem, deadline.expired))
        encoded = time.perf_counter() - start
        every = list(tiers)
        whole.callback(lambda: [_close_run(t) for t in every])  # (a paused search is killed here)
        tiers[-1].shortest = SLICE_PER_ENCODING * encoded
        slice_ = FIRST_SLICE
        while len(found) < want:
            progressed = False
            for tier in list(tiers):
                label = tier.label
                if deadline.expired():
                    return _Found(decoded, False, "time-limit", how, runs)
                if tier.problem is None:  # a subspace first searched: built and kept
                    start = time.perf_counter()
                    # (each generator's equalities: tying each orbit to its first
                    # variable instead took fewer clauses, under half for a
                    # square's eight symmetries, but CaDiCaL 4.4 s instead of
                    # 0.8 to find Knotty's picture)
                    tier.problem = problem.with_constraints([c for g in tier.gens for c in equalities(g)])
                    # (let go when the subspace is dropped: each a model as
                    # large as the problem's, a C++ one for CP-SAT)
                    tier.kept = whole.enter_context(ExitStack())
                    tier.kept.enter_context(backend.keeping(tier.problem, deadline.expired))
                    tier.shortest = SLICE_PER_ENCODING * (encoded + time.perf_counter() - start)
                if tier.run is None:
                    # (built before the budget is taken: a 500 x 500 puzzle's
                    # model takes a second to copy, which overran -t by as much)
                    tier.run = backend.slices(tier.problem.with_constraints(blocks), limit=want - len(found))
                remaining = deadline.remaining()
                if remaining is not None and remaining <= 0:
                    return _Found(decoded, False, "time-limit", how, runs)
                alone = len(tiers) == 1  # the whole problem, with all the time left
                budget = remaining if alone else min(max(slice_, tier.shortest),
                                                     math.inf if remaining is None else remaining)
                runs += 1
                # one incremental enumeration per run (the back end blocks as
                # it goes), taken up where the last slice left it (session 34:
                # Knotty's count --limit 2 without its goal searched its
                # symmetric subspace for 1 s, 2 s, then 2.07 s from the start,
                # 11 s in all)
                r = tier.run.run(budget)
                stopped = r.stopped_by == "interrupted"
                for sol in r.solutions:
                    if deadline.expired():  # (decoding thousands and their images takes a while)
                        return _Found(decoded, False, "time-limit", how, runs)
                    add(sol, label)
                    for g in problem.symmetries if not stopped else ():  # (Ctrl-C: what was found, at once)
                        if g:
                            add(frozenset(g.get(v, v) for v in sol), label)
                if stopped:
                    return _Found(decoded, False, "interrupted", how, runs)
                if r.stopped_by not in (None, "time-limit", "limit", "interrupted") and not r.solutions:
                    # the engine gave up (an outside solver's 's UNKNOWN'): its
                    # answer, not a slice that ran out; retried in doubling
                    # slices, it was called hundreds of times a second, for
                    # ever without -t (QA)
                    return _Found(decoded, False, r.stopped_by, how, runs)
                if r.solutions:  # every search goes on with them blocked: each starts again
                    for t in tiers:
                        _close_run(t)
                if len(found) >= want:
                    break
                if r.complete:  # no further solution in this subspace
                    if label == "any":
                        return _Found(decoded, True, None, how, runs)
                    tiers = [t for t in tiers if t is not tier]
                    _close_run(tier)
                    if tier.kept is not None:
                        tier.kept.close()
                    continue
                if alone:
                    return _Found(decoded, False, r.stopped_by or "time-limit", how, runs)
                if r.solutions:  # start the rounds again from the symmetric subspaces
                    progressed = True
                    break
            if not progressed:
                slice_ *= 2
        return _Found(decoded[:want], False, "limit", how, runs)

    outcome = None
    try:
        with ExitStack() as whole:
            outcome = rounds(whole)
    except KeyboardInterrupt:  # (one while the kept encodings are let go leaves the outcome as it was)
        pass
    return outcome if outcome is not None else _Found(decoded, False, "interrupted", how, runs)


# -------------------------------------------------------------------- count


@dataclass
class CountOutcome:
    count: int
    complete: bool
    unique: bool
    backend: str | None  # None: no engine was called (a precheck, line logic)
    seconds: float
    stopped_by: str | None = None
    method: str = "enumerate"
    reason: str | None = None
    solutions: list = field(default_factory=list)  # decoded, when kept
    subproblems: int = 1
    implied: int = 0  # constraints the family added before the search (Puzzle.implied)
    choice: str | None = None  # why the default engine was not the usual one
    #: the whole count, when an engine that counts without listing (Ganak,
    #: a determinant) finished it and the user's limit capped ``count``
    whole: int | None = None
    #: what stopped the listing of the solutions to show that follows such a
    #: count ("interrupted", "time-limit"), if anything did
    listing_stopped: str | None = None


def _few_to_split(problem: Problem) -> bool:
    """Whether a quick upper bound (:func:`estimate.solution_bound`) puts the
    exact cover ``problem`` below ENUMERATE_BELOW solutions: such a count
    ends sooner in one piece than its parts load (a 1 x 20,000 line of
    dominoes, one tiling: 16 parts took 16.7 s, one piece 1.75 s; each part
    loads the whole cover into miniexact again, and that load grows faster
    than the cover)."""
    from .estimate import fewer_than

    return fewer_than(problem, ENUMERATE_BELOW)


def fit_terminal(line: str) -> str:
    """A progress line cut to the width of the terminal on stderr: a longer
    one wrapped, and each redraw ("\\r") left the wrapped part behind."""
    import os

    try:
        width = os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return line
    return line[:width - 1] if width > 1 else line


class Progress:
    """Solutions so far, rate, elapsed time and, for split counts, sub-problems
    done / total and an ETA, on stderr, at most 5 times a second.

    A heartbeat thread redraws the line every half second, so the clock moves
    while no solution arrives (a long search, a hard "no more solutions"
    proof).  It can only run while the search releases the GIL; jobs ask the
    back end for that with ``Backend.responsive``.  ``counting=False`` draws
    a line with no solution count: a solve's, or a model counter's (it has
    no count until it ends)."""

    HEARTBEAT = 0.5

    def __init__(self, enabled: bool, label: str = "counting", counting: bool = True):
        #: what ``n`` counts: the runs' solutions, which a count up to
        #: symmetry adds up in its own way (they are not its classes)
        self.noun = "solutions"
        self.enabled = enabled
        self.label = label
        self.counting = counting
        self.start = time.perf_counter()
        self.last = 0.0
        self.n = 0
        #: --limit, when ``n`` counts what it caps: the parts of a split
        #: count find more before they stop, and the line showed 10,000 of a
        #: count then said to be "at least 5,000" (QA)
        self.limit: int | None = None
        self.parts_done = 0
        self.parts_total = 0
        #: when the first split's parts started (the ETA's clock: what ran
        #: before them, a serial slice or the solutions listed first, is no
        #: part's work)
        self.parts_since: float | None = None
        self.shown = False
        self._lock = threading.Lock()
        self._counting = threading.Lock()
        self._stop = threading.Event()
        self._beat = None
        if enabled:
            self._beat = threading.Thread(target=self._heartbeat, name="progress", daemon=True)
            self._beat.start()

    def _heartbeat(self) -> None:
        while not self._stop.wait(self.HEARTBEAT):
            self._draw(force=True)

    def tick(self, k: int = 1, force: bool = False) -> None:
        with self._counting:  # a search's thread and its engine's Asking thread count
            self.n += k
        if self.enabled:
            self._draw(force)

    def counted(self):
        """A callback ``(n, force=False)`` for one run that reports its count so
        far, not one solution at a time (the running parts of a split
        count): the line moves by what is new."""
        return self.for_run()[1]

    def for_run(self):
        """``(tick, counted)`` for one run: ``tick()`` for each solution it
        hands back, ``counted(n)`` (Backend.search's ``on_count``) with its
        count so far, which includes those: the line moves by what is new to
        both (a solution ticked is not counted again)."""
        seen = 0
        lock = threading.Lock()

        def tick() -> None:
            nonlocal seen
            with lock:
                seen += 1
            self.tick(1)

        def counted(n: int, force: bool = False) -> None:
            nonlocal seen
            with lock:
                new = max(0, n - seen)
                seen += new
            if new or force:
                self.tick(new, force)
        return tick, counted

    def _draw(self, force: bool) -> None:
        now = time.perf_counter()
        if not (force or now - self.last >= 0.2):
            return
        with self._lock:
            if self._stop.is_set():
                return
            self.last = now
            el = now - self.start
            parts = ""
            if self.parts_total:
                parts = f", {self.parts_done}/{self.parts_total} sub-problems"
                if self.parts_done:
                    ran = now - (self.parts_since or self.start)
                    eta = ran * (self.parts_total - self.parts_done) / self.parts_done
                    parts += f", ETA {eta:.0f}s"
            if not self.counting:
                line = f"{self.label}: {el:.1f}s{parts}"
            else:
                n = self.n if self.limit is None else min(self.n, self.limit)
                rate = n / el if el > 0 else 0.0
                line = f"{self.label}: {n} {self.noun}, {rate:.1f}/s, {el:.1f}s{parts}"
            sys.stderr.write(f"\r{fit_terminal(line)}\x1b[K")
            sys.stderr.flush()
            self.shown = True

    def done(self) -> None:
        if not self.enabled:
            return
        with self._lock:
            self._stop.set()
            if self.shown:
                sys.stderr.write("\r\x1b[K")
                sys.stderr.flush()


@contextmanager
def _drawing_progress(backend: Backend, enabled: bool, label: str = "counting", counting: bool = True):
    """A :class:`Progress` line for the job, with the back end asked to keep
    the GIL free meanwhile (the heartbeat needs it); both undone at the end."""
    responsive = backend.responsive
    backend.responsive = responsive or enabled
    prog = Progress(enabled, label, counting)
    try:
        yield prog
    finally:
        prog.done()
        backend.responsive = responsive


class _Counter:
    """Runs the sub-counts of one count job under one deadline and limit,
    verifying every solution a back end hands back."""

    def __init__(self, puzzle, backend, limit, deadline, keep, progress, jobs=1, keep_at_most=None, cluster=None):
        self.puzzle, self.backend, self.limit = puzzle, backend, limit
        self.deadline, self.keep, self.progress = deadline, keep, progress
        self.jobs = jobs
        #: a cluster.Cluster that counts the sub-problems instead of a local pool
        self.cluster = cluster
        self.keep_at_most = keep_at_most
        #: further solutions a search from a known one found before a hand-over
        self.seen_before_handover = 0
        self.solutions: list = []
        #: set for a count up to symmetry: the solutions kept are then one per
        #: class (the first seen), by the least image of their assignment
        self.group: list[dict[int, int]] | None = None
        self._classes: set = set()
        self.stopped_by: str | None = None
        self.runs = 0
        #: a lower bound the count has established between its runs (a
        #: verified known solution, a finished Burnside term): what a Ctrl-C
        #: that ends the count outside an engine's search still reports
        self.at_least = 0
        #: set when the count is to stop at once, its answer known otherwise
        #: (a :class:`_Refuter` proved there is no solution)
        self.halt = threading.Event()
        #: called at each look at ``halt`` (a :class:`_Refuter` starts itself
        #: there); set only while something may set ``halt``, and only then
        #: are searches that had no on_count given one (it makes some engines
        #: search in a child)
        self.look: Callable[[], None] | None = None

    def halted(self, *_) -> bool:
        """An engine's on_count, or a tick: True (stop) once ``halt`` is set."""
        look = self.look
        if look is not None:
            look()
        return self.halt.is_set()

    def raw_for(self, k: int) -> int:
        """How many raw solutions to list for ``k`` kept ones: k, or k x |G| in a
        count up to symmetry (so many raw ones hold k classes, if there are)."""
        return k * len(self.group) if self.group else k

    def room(self) -> int | None:
        """How many more solutions may be kept (None: any number)."""
        return None if self.keep_at_most is None else max(0, self.keep_at_most - len(self.solutions))

    def add_solutions(self, sols, assignments=None) -> None:
        if self.group and assignments is not None:
            fresh = []
            for decoded, a in zip(sols, assignments):
                key = min(tuple(sorted(g.get(v, v) for v in a)) for g in self.group)
                if key not in self._classes:
                    self._classes.add(key)
                    fresh.append(decoded)
            sols = fresh
        room = self.room()
        self.solutions.extend(sols if room is None else sols[:room])

    def run(self, problem: Problem, *, keep: bool, budget: int | None,
            phases: frozenset | None = None, see=None, cap: float | None = None,
            hand_back=None) -> SearchResult:
        """Count one (sub-)problem, split over a process pool when that pays
        (``phases``: a hint for the engine, see Backend.search; ``see``:
        called with each solution and its verified decoding; neither is
        split; ``cap``: seconds this run may take, within the job's time
        limit; ``hand_back``: the solutions ``see`` wants, see
        Backend.search)."""
        self.runs += 1
        if self.halt.is_set():
            return SearchResult(0, False, self.backend.name, 0.0, stopped_by="halted")
        room = self.room()
        keep_here = keep and self.keep and room != 0
        remaining = self.deadline.remaining()
        if cap is not None:
            remaining = cap if remaining is None else min(remaining, cap)
        if remaining is not None and remaining <= 0:
            self.stopped_by = self.stopped_by or "time-limit"
            return SearchResult(0, False, self.backend.name, 0.0, stopped_by="time-limit")
        workers = max(2, self.cluster.threads) if self.cluster else self.jobs
        splits = (workers > 1 and phases is None and see is None and len(problem.primary) >= PARALLEL_MIN_VARS
                  and self.backend.splits_pay and not _few_to_split(problem))
        want = None if room is None else self.raw_for(room) if budget is None else min(self.raw_for(room), budget)
        if keep_here and room is not None and see is None and self.backend.can_enumerate and (
                (splits and self.cluster is not None and want < (budget or math.inf))
                or not getattr(self.backend, "solutions_are_free", True)):
            # an engine that counts faster than it lists, or a count split over
            # a cluster (whose unfinished tasks' solutions are lost when the
            # time limit or Ctrl-C stops it; the local pool streams them; not
            # when the listing would be the whole count, as for --limit 2,
            # which the parts search faster together): list the few solutions
            # wanted, then count without listing (it finds those again: the
            # progress line shows them while they are listed, then the count's)
            listing = []

            def listed_one() -> bool:
                listing.append(1)
                self.progress.tick()
                return self.halted()
            first = _search_verified(self.puzzle, self.backend, problem, want, remaining, True, listed_one, phases,
                                     on_count=self.halted if self.look else None)
            self.add_solutions(first.solutions, first.assignments)
            if first.complete or first.stopped_by != "limit" or first.count >= (budget or math.inf):
                if not first.complete:
                    self.stopped_by = self.stopped_by or first.stopped_by
                return first
            self.progress.tick(-len(listing))
            keep_here = False
            remaining = self.deadline.remaining()
            listed = first.count
        else:
            listed = 0
        # what _search_verified keeps: nothing, everything, or enough for room
        keep_arg = keep_here and (True if room is None else self.raw_for(room))
        if splits and SERIAL_SLICE > 0 and problem.partitions \
                and not any(isinstance(c, ExactlyOne) for c in problem.constraints):
            # split only on the family's partitions (a nonogram's block
            # positions): such counts mostly end at once (a unique puzzle),
            # where the parts' fixed costs made them 2-4x slower, so split
            # only what a serial slice does not finish (that slice is lost)
            slice_ = SERIAL_SLICE if remaining is None else min(SERIAL_SLICE, remaining)
            first = _search_verified(self.puzzle, self.backend, problem, budget, slice_, keep_arg, self.halted,
                                     phases, on_count=self.halted if self.look else None)
            if first.complete or first.stopped_by != "time-limit" or slice_ == remaining:
                self.add_solutions(first.solutions, first.assignments)
                if not first.complete:
                    self.stopped_by = self.stopped_by or first.stopped_by
                    first.count = max(first.count, listed)
                self.progress.tick(first.count)
                return first
            listed = max(listed, first.count)
            remaining = None if remaining is None else remaining - first.seconds
        if splits:
            t_split = time.monotonic()
            parts = split(problem, workers * PARTS_PER_JOB)
            if remaining is not None:  # (the split counts against the time limit: 1.1 s on 640x640 dominoes)
                remaining = max(remaining - (time.monotonic() - t_split), 1e-3)
            if len(parts) > 1:
                r = self._run_parts(problem, parts, keep_arg, budget, remaining)
                if not r.complete:
                    self.stopped_by = self.stopped_by or r.stopped_by
                    # the solutions listed first are in the parts too: a
                    # stopped count has found at least as many
                    r.count = max(r.count, listed)
                return r
        tick, counted = self.progress.for_run()

        def ticked() -> bool:
            tick()
            return self.halted()

        def count_so_far(n: int) -> bool:
            counted(n)
            return self.halted()
        r = _search_verified(self.puzzle, self.backend, problem, budget, remaining, keep_arg, ticked,
                             phases, see, on_count=count_so_far, hand_back=hand_back)
        self.add_solutions(r.solutions, r.assignments)
        if not r.complete:
            self.stopped_by = self.stopped_by or r.stopped_by
            r.count = max(r.count, listed)
        if not self.backend.can_enumerate:
            self.progress.tick(r.count)
        return r

    def _run_parts(self, problem, parts, keep, budget, remaining) -> SearchResult:
        """Count the sub-problems on the executor (a pool of forked workers,
        or the Dask cluster) and add up.

        While they run, the solutions the unfinished ones have found so far
        (``executor.partial``) move the progress line; a count stopped by the
        time limit, Ctrl-C or the limit adds them to the finished ones' (each
        is a count of distinct solutions of its own disjoint part, so the sum
        is still a lower bound).  A cluster's running tasks report their
        counts now and then; they stop on their own at the job's deadline (a
        wall-clock time), or when the driver raises their stop flag (Ctrl-C,
        the limit), and hand back their counts so far, which
        ``executor.leftover`` collects for a short grace period."""
        deadline = Deadline(remaining)
        executor = self.cluster or _ForkPool(min(self.jobs, len(parts)))
        # the local pool streams the solutions its parts keep as they are
        # found (a cluster's tasks hand theirs back when they end)
        streams = hasattr(executor, "kept")

        def take_kept() -> None:
            if streams:
                got = executor.kept()
                if got:
                    self.add_solutions([d for _, d, _ in got], [a for _, _, a in got])
        stop_at = None if remaining is None or not self.cluster else time.time() + remaining
        work = (self.puzzle, self.backend, problem, keep, stop_at)
        # a counter's part is counted whole whatever the limit (as one count
        # is, see GanakBackend.search): then the parts, all finished, give the
        # whole count, which says a limit was not reached or by how much
        part_budget = budget if self.backend.can_enumerate else None
        total, complete, stopped = 0, True, None
        unfinished = set(range(len(parts)))
        counted = self.progress.counted()
        self.progress.parts_total += len(parts)
        if self.progress.parts_since is None:
            self.progress.parts_since = time.perf_counter()
        try:
            executor.start(_count_part, work, [(i, lits, part_budget) for i, lits in enumerate(parts)])
            while unfinished:
                if self.halted():
                    complete, stopped = False, "halted"
                    break
                wait = deadline.remaining()
                try:
                    i, n, ok, why, sols, assignments = executor.next(
                        POLL_PARTS if wait is None else min(wait, POLL_PARTS))
                except TimeoutError:
                    if deadline.expired():
                        complete, stopped = False, "time-limit"
                        break
                    partial = executor.partial(unfinished)
                    take_kept()  # (after reading the counts: theirs are queued)
                    counted(total + partial)
                    # a count may stop on the parts' counts so far unless
                    # their solutions are kept and not streamed
                    if budget is not None and (not keep or streams) and total + partial >= budget:
                        complete, stopped = False, "limit"
                        break
                    continue
                unfinished.discard(i)
                total += n
                take_kept()
                self.add_solutions(sols, assignments)
                self.progress.parts_done += 1
                counted(total + executor.partial(unfinished), force=True)
                if not ok:
                    complete, stopped = False, why
                    break
                # (all parts finished with the limit's number is a whole count:
                # --limit 8 of 8 solutions was "incomplete (stopped at --limit)")
                if budget is not None and total >= budget and (unfinished or total > budget):
                    complete, stopped = False, "limit"
                    break
        except KeyboardInterrupt:
            complete, stopped = False, "interrupted"
        finally:
            # a second Ctrl-C (or `timeout`'s SIGINT to the process and then
            # its group) landing here lost every count found: the count so far
            # is kept (a cluster's grace period still ends at a second Ctrl-C)
            # and the workers are stopped whatever comes
            if unfinished:
                try:
                    total += executor.leftover(unfinished, stopped)
                    take_kept()  # what the unfinished parts found (for --show)
                except KeyboardInterrupt:
                    total += executor.partial(unfinished)
                    complete, stopped = False, stopped or "interrupted"
            with _no_interrupts():
                executor.stop()
        stats = {"subproblems": len(parts)}
        if budget is not None and total >= budget:
            if stopped == "limit" and not unfinished:
                stats["exact_count"] = total  # every part counted whole
            total = budget  # as a single search stops at its budget
        return SearchResult(total, complete, self.backend.name, deadline.elapsed(), [], stopped, stats)


class _ForkPool:
    """The local executor of sub-problems: forked workers that inherit the
    work (no pickling of the problem); start, next and stop as cluster.Cluster has."""

    def __init__(self, processes: int):
        self.processes = processes
        self.pool = self.results = self.queue = None
        self.queue_torn = False

    def start(self, fn, work, tasks) -> None:
        import multiprocessing
        import os

        global _WORK, _PARTIAL, _KEPT
        ctx = multiprocessing.get_context("fork")
        _WORK = work  # the workers, forked next, inherit it
        # and this shared memory, where they leave each part's count so far
        _PARTIAL = ctx.RawArray("q", max((t[0] for t in tasks), default=0) + 1)
        # and this queue, where they put the solutions they keep
        _KEPT = self.queue = ctx.SimpleQueue()
        self.pool = ctx.Pool(self.processes, initializer=_pool_worker_start, initargs=(os.getpid(),))
        self.results = self.pool.imap_unordered(_count_part_here, tasks)

    def partial(self, parts) -> int:
        """The solutions the workers have found so far in these (unfinished) parts."""
        return sum(_PARTIAL[i] for i in parts) if _PARTIAL is not None else 0

    def leftover(self, parts, why: str | None) -> int:
        """What these unfinished parts add to a count stopped now (``why``:
        its stopped_by); the workers are terminated next, so no need to wait."""
        return self.partial(parts)

    def kept(self) -> list:
        """The solutions the workers have kept since the last call, as
        (part, decoding, assignment).  Read while they run: one terminated in
        the middle of a put leaves the queue unreadable."""
        if self.queue is None or self.queue_torn:
            return []
        # a Ctrl-C in the middle of a read leaves a message half read: the
        # queue is read no more (a half-read length would block the next read)
        self.queue_torn = True
        out = []
        while not self.queue.empty():
            out.append(self.queue.get())
        self.queue_torn = False
        return out

    def next(self, timeout: float | None):
        import multiprocessing

        try:
            return self.results.next(timeout=timeout)
        except multiprocessing.TimeoutError:
            raise TimeoutError from None

    #: seconds stop() gives Pool.terminate before it looks for a lock a dead worker held
    STOP_GRACE = 2.0

    def stop(self) -> None:
        global _WORK, _PARTIAL, _KEPT
        pool = self.pool
        if pool is not None:
            # Pool.terminate SIGTERMs the workers, then joins its task handler,
            # whose last act puts a sentinel on the result queue: a worker
            # killed in the middle of putting a part's result still holds that
            # queue's write lock (a semaphore shared with the workers), and the
            # join waited for ever (CPython gh-96995; one Ctrl-C in 120, QA)
            ender = threading.Thread(target=pool.terminate, daemon=True, name="pool-terminate")
            ender.start()
            ender.join(self.STOP_GRACE)
            if ender.is_alive():
                workers = list(pool._pool)
                for w in workers:
                    if w.exitcode is None:
                        w.kill()
                for w in workers:
                    w.join(1.0)
                lock = pool._outqueue._wlock
                if all(w.exitcode is not None for w in workers) and lock._semlock._get_value() == 0:
                    lock.release()  # no live worker holds it: a dead one did
                ender.join(self.STOP_GRACE)
            if not ender.is_alive():
                pool.join()
            # (else its threads, daemons, are given up: its workers are dead)
        if self.queue is not None:
            self.queue.close()
        _WORK = _PARTIAL = _KEPT = self.queue = None


#: problems with fewer primary variables are never split (pool start-up costs more)
PARALLEL_MIN_VARS = 300
#: sub-problems per worker, so that uneven parts balance out
PARTS_PER_JOB = 8
#: seconds a count split only on Problem.partitions runs serially first (most
#: end sooner; 0: split at once)
SERIAL_SLICE = 1.0
#: what forked pool workers count: (puzzle, backend, problem, keep, stop_at); see _count_part
_WORK = None
#: shared memory where forked pool workers leave each part's count so far
_PARTIAL = None
#: the queue where forked pool workers put the solutions they keep (_SharedCounts.kept)
_KEPT = None
#: seconds between looks at the running parts' counts (progress, --limit)
POLL_PARTS = 0.25


def _search_verified(puzzle, backend, problem, budget, time_limit, keep, tick, phases=None,
                     see=None, on_count=None, kept_to=None, hand_back=None) -> SearchResult:
    """backend.search, decoding and verifying every solution it hands back.

    Engines for which producing solutions is free (blocking-clause SAT,
    CP-SAT) hand back every one; engines that count faster without building
    solutions (``solutions_are_free = False``) only when they are kept or
    ``see`` (called with each solution and its decoding) wants them.
    ``keep``: False, True (keep every solution) or how many to keep at most.
    ``tick`` is called after each solution handed back; True from it, or from
    ``on_count`` (see Backend.search), stops the search.  ``kept_to``, when
    given, is called with each kept solution's decoding and assignment as it
    is found, before ``tick``, instead of handing them back at the end.
    ``hand_back`` (Backend.search) lets such an engine leave out the
    solutions ``see`` has no use for: they are counted, never built."""
    kept, assignments = [], []
    n_kept = 0
    wants_solutions = backend.can_enumerate and (keep or see is not None
                                                 or getattr(backend, "solutions_are_free", True))

    def on_solution(sol):
        nonlocal n_kept
        decoded = decode_verified(puzzle, problem, sol, backend.name)
        if keep and (keep is True or n_kept < keep):
            n_kept += 1
            if kept_to is not None:
                kept_to(decoded, sol)
            else:
                kept.append(decoded)
                assignments.append(sol)
        if see is not None:
            see(sol, decoded)
        return tick()  # (True: stop, from a part's channel)

    hint = {} if hand_back is None else {"hand_back": hand_back}
    r = backend.search(problem, limit=budget, time_limit=time_limit,
                       on_solution=on_solution if wants_solutions else None, phases=phases, on_count=on_count,
                       **hint)
    r.solutions, r.assignments = kept, assignments
    return r


def _count_part(work, task, channel=None):
    """Count one sub-problem: the shared problem with some literals forced
    (``work``: puzzle, back end, problem, what to keep, and the wall-clock
    time to stop at, or None).  ``channel``, when given, hears the part's
    count so far as it goes (``channel.report(i, n)``) and stops the search
    by answering True (at the engine's next solution or count report)."""
    i, lits, budget = task
    puzzle, backend, problem, keep, stop_at = work
    time_limit = None if stop_at is None else max(0.0, stop_at - time.time())
    sub = problem.with_constraints([Clause((l,)) for l in lits])
    tick = on_count = kept_to = None
    if channel is not None and hasattr(channel, "kept"):
        def kept_to(decoded, sol):
            channel.kept(i, decoded, sol)
    if channel is not None:
        found = 0
        channel.report(i, 0)

        def tick():
            nonlocal found
            found += 1
            return channel.report(i, found)

        def on_count(n):
            nonlocal found
            found = max(found, n)
            return channel.report(i, found)
    r = _search_verified(puzzle, backend, sub, budget, time_limit, keep, tick or (lambda: None),
                         on_count=on_count, kept_to=kept_to)
    return i, r.count, r.complete, r.stopped_by, r.solutions, r.assignments


class _SharedCounts:
    """A forked pool worker's channel: its parts' counts so far, in the
    shared memory the parent reads, and the solutions it keeps, on a queue
    the parent drains as they come (so that a count stopped early still has
    them).  It never asks a part to stop: the parent terminates the pool."""

    def __init__(self, counts, kept_queue):
        self.counts, self.kept_queue = counts, kept_queue

    def report(self, i: int, n: int) -> bool:
        self.counts[i] = n
        return False

    def kept(self, i: int, decoded, sol) -> None:
        # put before report: a count the parent reads has its solutions queued
        self.kept_queue.put((i, decoded, sol))


def _pool_worker_start(parent: int | None = None) -> None:
    """A forked pool worker's first act: its engines search inline (this
    parent terminates the pool to stop them; no child per sub-problem), and
    Ctrl-C, which the terminal sends to the whole process group, is the
    parent's to handle (a worker's own KeyboardInterrupt printed a
    traceback header on stderr)."""

    # first: a second Ctrl-C landing while die_with_parent ran raised a
    # KeyboardInterrupt traceback in a freshly forked worker (QA)
    backend_base.ignore_sigint()
    backend_base.die_with_parent(parent)  # (a parent killed by SIGKILL cannot terminate the pool)
    backend_base.STOPPED_BY_PARENT = True
    backend_base.default_termination()


@contextmanager
def _no_interrupts():
    """SIGINT ignored inside (main thread only): for stopping workers, which
    must finish once begun."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _count_part_here(task):
    """A forked pool worker: the work it inherited.  No time limit here: the
    parent enforces it by terminating the pool (its engines search inline,
    see _pool_worker_start).  An outside solver's back end turns that SIGTERM
    into Terminated, to kill the solver's own session on its way out; then
    the worker dies of the signal, as it would have (the exception printed a
    traceback on stderr at every stopped split count on external: solvers)."""
    try:
        return _count_part(_WORK, task, None if _PARTIAL is None else _SharedCounts(_PARTIAL, _KEPT))
    except Terminated as e:
        die_of_sigterm(e.signum)


def split(problem: Problem, target: int) -> list[tuple[int, ...]]:
    """Disjoint, exhaustive sub-problems as lists of literals to force true.

    Splits on the ExactlyOne constraint with the fewest variables (the most
    constrained cell: exactly one of its placements is in every solution, so
    forcing each in turn partitions the solutions), or the smallest of the
    family's ``Problem.partitions`` (alternatives that are conjunctions of
    literals: a nonogram block's starts), then on the next smallest,
    until there are at least ``target`` parts, or the next split would give
    more than 4 x ``target`` (each part has a fixed cost: 480 parts made the
    3x4x5 count slower than one).  Plain integers: any executor
    (a process pool here, Ray or Dask across machines) can count a part from
    the instance and its literals alone.
    """
    groups = [[(v,) for v in c.vars] for c in problem.constraints if isinstance(c, ExactlyOne) and len(c.vars) > 1]
    groups += [alts for alts in problem.partitions if len(alts) > 1]
    groups.sort(key=len)
    parts: list[tuple[int, ...]] = [()]
    for alts in groups:
        if len(parts) >= target or (len(parts) > 1 and len(parts) * len(alts) > 4 * target):
            break  # enough, or the next split would make parts whose fixed cost dominates
        parts = [p + a for p in parts for a in alts]
    return parts


#: the engine that tries to prove a default count's problem has no solution,
#: beside the count, once that has found none for REFUTE_AFTER seconds: the
#: exact-cover engine (count's default for tilings) searches for minutes on
#: boards that a parity argument empties and CaDiCaL refutes in a fraction of
#: a second (two mutilated boards joined by a door; solve races the two,
#: SOLVE_RACE), and the colourings of the precheck do not see every such board
REFUTER = "cadical195"
#: the head start: most counts that have solutions find one sooner, and
#: then no refuter runs (so it costs no core on them)
REFUTE_AFTER = 1.0
#: seconds between the refuter's looks at whether the count has found a
#: solution or ended (then it stops)
REFUTER_ASKS = 0.05


class _Refuter:
    """While a count runs (a context manager around it): once REFUTE_AFTER
    seconds have passed with no solution found, a thread of its own runs
    the first of ``candidates`` that takes the problem (``engine``) for one
    solution.  If that proves there is none, it sets ``refuted`` and the
    counter's ``halt``, so the count stops at its engines' next look.  It
    stops itself when the count finds a solution or ends, and when it finds
    one itself (the count will too).  A refuter that fails leaves the count
    as it was (``error``).

    The thread is started from the count's own looks at ``halt``
    (``_Counter.halted``: its engines ask every REFUTER_ASKS seconds, a
    split count's parent every POLL_PARTS), so a count that ends sooner
    starts none (a thread started and joined cost a count of a few cells a
    third of its time), and asks no candidate whether it takes the problem
    (the determinant's planarity test takes 0.5 s on a 100x100 board)."""

    def __init__(self, candidates: list[Backend], problem: Problem, ctr: "_Counter", deadline: Deadline):
        self.candidates, self.problem, self.ctr, self.deadline = candidates, problem, ctr, deadline
        self.engine: Backend | None = None
        self.refuted = False
        self.error: BaseException | None = None
        self._since = time.perf_counter()
        self._over = threading.Event()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    def __enter__(self) -> "_Refuter":
        self.ctr.look = self.look
        return self

    def look(self) -> None:
        """Start the refuter if it is time (called from any thread)."""
        if self._thread is not None or time.perf_counter() - self._since < REFUTE_AFTER or self._pointless():
            return
        with self._starting:
            if self._thread is None and not self._over.is_set():
                self._thread = threading.Thread(target=self._run, name="refuter", daemon=True)
                self._thread.start()

    def _pointless(self, *_) -> bool:
        # (solutions listed before the count are off the line once it starts)
        return self._over.is_set() or self.ctr.progress.n > 0 or bool(self.ctr.solutions)

    def _run(self) -> None:
        try:
            self.engine = next((e for e in self.candidates if e.supports(self.problem) is None), None)
            remaining = self.deadline.remaining()
            if self.engine is None or self._pointless() or (remaining is not None and remaining <= 0):
                return
            # (the progress line says what the second engine is doing, while it does)
            label = self.ctr.progress.label
            self.ctr.progress.label = label + f" ({self.engine.name} beside it, to prove there is none)"
            self.ctr.progress.tick(0, force=True)
            try:
                with backend_base.asking_every(REFUTER_ASKS):
                    r = self.engine.search(self.problem, limit=1, time_limit=remaining, on_count=self._pointless)
            finally:  # (it said so for the rest of the count, QA)
                self.ctr.progress.label = label
        except BaseException as e:  # (a thread's exception would only be printed)
            self.error = e
            return
        if r.complete and r.count == 0:
            self.refuted = True
            self.ctr.halt.set()

    def __exit__(self, *exc) -> None:
        self.ctr.look = None
        with self._starting:
            self._over.set()
        if self._thread is None:
            return
        # a search stops at its next look at _pointless; a thread still asking
        # whether the engine takes the problem (pure Python: the
        # determinant's planarity test ran 6 s past -t on a 640x640 board)
        # is let go, as a daemon, to see that the count is over when it is done
        self._thread.join(REFUTER_ASKS)
        while self._thread.is_alive() and self.engine is not None:
            self._thread.join(REFUTER_ASKS)


def _refuter_for(backend: Backend, problem: Problem, may_switch: bool) -> list[Backend]:
    """The engines to try, in order, to prove a default count (not the
    user's choice of engine) empty, when that count's engine lists
    solutions: the determinant (dominoes in the plane: a proof in
    milliseconds where CaDiCaL may take minutes), then REFUTER; never the
    count's own engine.  Whether each takes the problem is asked only if a
    refuter starts."""
    if not may_switch or not backend.can_enumerate:
        return []
    return [e for e in _installed((MATCHING_COUNTER, REFUTER)) if e.name != backend.name]


def count(puzzle: Puzzle, backend: Backend | None = None, *, unique: bool = False, limit: int | None = None,
          time_limit: float | None = None, keep: bool = False, progress: bool = False,
          problem: Problem | None = None, jobs: int = 1, use_known: bool = True,
          keep_at_most: int | None = None, may_switch: bool = False, cluster=None) -> CountOutcome:
    """Count solutions (``unique``: up to the puzzle's symmetries), exactly
    unless a limit, the time limit or Ctrl-C stops it (then ``complete`` is
    False and ``count`` a lower bound).  ``jobs`` > 1 splits large counts
    into sub-problems counted by that many worker processes; ``cluster`` (a
    connected :class:`puzzlesat.cluster.Cluster`) by its Dask workers.  With
    ``use_known``, a solution the puzzle file gives (a nonogram's goal) is
    verified and counted first, and the search for the others starts next
    to it (:func:`_count_from_known`).  ``keep`` lists the solutions found
    (decoded), at most ``keep_at_most`` of them when given: an engine that
    counts faster than it lists then lists those first and counts after.
    ``may_switch``: the engine is a default, not the user's choice, so the
    search from a known solution may hand over to ``HANDOVER_BACKEND``
    (always so when ``backend`` is None)."""
    may_switch = may_switch or backend is None
    reason = puzzle.precheck()
    if reason:
        return CountOutcome(0, True, unique, None, 0.0, method="precheck", reason=reason)
    problem = problem or puzzle.compile()
    clock = Deadline(None)
    fixed = fixed_by_units(problem)
    if fixed is not None:  # one solution, one class of them (listed: it is at hand, whoever asked)
        sol = decode_verified(puzzle, problem, fixed, "unit propagation")
        return CountOutcome(1, True, unique, None, clock.elapsed(), method=UNITS, solutions=[sol])
    choice = None
    if backend is None:
        backend, choice = choose_count_backend(problem, listing=keep or limit is not None, unique=unique)
    implied = puzzle.implied(problem)
    if implied:
        problem = problem.with_constraints(implied, symmetries=problem.symmetries)
    if unique and not backend.can_enumerate:
        _burnside_supported(backend, problem)
    lister = None
    whole = None
    if keep and not backend.can_enumerate:
        if keep_at_most is None:
            raise BackendError(f"backend {backend.name!r} only counts; it cannot list solutions")
        # a model counter counts; the few solutions wanted come from an engine that lists
        lister = _first_supporting(COUNT_PREFERENCE, problem, None)
    deadline = Deadline(time_limit)
    # a model counter has no count until it ends: its line shows the clock
    label = "counting" if backend.can_enumerate else f"counting ({backend.name})"
    with _drawing_progress(backend, progress, label, counting=backend.can_enumerate) as prog:
        ctr = _Counter(puzzle, backend, limit, deadline, keep, prog, jobs, keep_at_most, cluster)
        if unique and len(problem.symmetries) > 1:
            ctr.group = problem.symmetries  # what is kept: one solution per class
            prog.noun = "solutions seen by the runs (not classes)"
        else:
            prog.limit = limit
        # the method planned (a Ctrl-C may end the count before it says more)
        method = "enumerate" if backend.can_enumerate else backend.count_method
        refuters = _refuter_for(backend, problem, may_switch)
        watch = _Refuter(refuters, problem, ctr, deadline) if refuters else nullcontext()
        # (the count's engines look at ``halt`` that often)
        with watch, backend_base.asking_every(REFUTER_ASKS) if refuters else nullcontext():
            listing_stopped = None  # what stopped the listing of the solutions to show, if anything did
            if lister is not None:
                ctr.keep = False  # (the counter keeps none: the lister's come after its count, below)
            try:
                known = (verified_known(puzzle, problem) if use_known and not unique and backend.can_enumerate
                         and _blocks(backend, problem) else None)
                if unique and len(problem.symmetries) > 1:
                    method = "symmetry-reduced"
                    n, complete = _orbits(ctr, problem, problem.symmetries, limit)
                    if limit is not None:
                        # the methods count classes in batches (a run's weights, a
                        # Burnside sum) and list raw solutions: they may pass the
                        # limit, and the user's limit holds
                        if n > limit:
                            if complete:  # every class counted before the limit applied: said, not dropped
                                whole = n
                            n, complete = limit, False
                            ctr.stopped_by = ctr.stopped_by or "limit"
                        del ctr.solutions[limit:]
                elif known is not None:
                    method = "known-solution-first"
                    n, complete = _count_from_known(ctr, problem, *known, limit,
                                                    may_switch and backend.name != HANDOVER_BACKEND)
                    if ctr.backend is not backend:
                        n_seen = ctr.seen_before_handover
                        found_ = (f"only {plural(n_seen, 'further solution')}" if n_seen
                                  else "no further solution")
                        choice = (f"{backend.name} found {found_} in {HANDOVER_AFTER:g} s from the known "
                                  f"one; {ctr.backend.name}, whose solution hint holds better on large puzzles, "
                                  "took over")
                elif not unique and limit is not None and _symmetric_first(puzzle, problem, backend, limit):
                    method = "symmetric-first"
                    found = _search_symmetric_first(puzzle, problem, backend, limit, deadline, prog.tick)
                    n, complete = len(found.decoded), found.complete
                    method = "enumerate" if found.how == "search" else found.how
                    ctr.stopped_by = found.stopped_by
                    ctr.add_solutions(found.decoded if keep else [])
                    ctr.runs = found.runs
                else:
                    r = ctr.run(problem, keep=True, budget=limit)
                    n, complete = r.count, r.complete
                    if r.stopped_by == "limit":  # (a counter's whole count is found before the limit applies)
                        whole = r.stats.get("exact_count")
            except KeyboardInterrupt:  # (outside an engine's search, which reports what it had)
                n, complete = max(ctr.at_least, len(ctr.solutions)), False
                ctr.stopped_by = "interrupted"
            if not complete and not n and use_known and verified_known(puzzle, problem) is not None:
                # a count up to symmetry, or a counter's, does not start from the
                # file's solution, but that verified solution is one (and one
                # class): "at least 0", or "no count", said less than is known (QA)
                n = 1
            if lister is not None and (n or whole):
                # the few solutions asked for, after the count: a board with
                # none is not searched for one first (two mutilated boards
                # joined by a door: the determinant's 0 at once, where the
                # lister searched for minutes before the count began)
                want = ctr.raw_for(keep_at_most)
                if ctr.stopped_by == "interrupted" or deadline.expired():
                    listing_stopped = ctr.stopped_by if ctr.stopped_by == "interrupted" else "time-limit"
                else:
                    try:
                        shown = _search_verified(puzzle, lister, problem, want, deadline.remaining(), want,
                                                 lambda: None)
                        ctr.add_solutions(shown.solutions, shown.assignments)
                        if shown.stopped_by in ("interrupted", "time-limit"):
                            listing_stopped = shown.stopped_by
                    except KeyboardInterrupt:  # the count stands; the listing's stop is said
                        listing_stopped = "interrupted"
                if limit is not None:
                    del ctr.solutions[limit:]
    runs = max(ctr.runs, prog.parts_total)
    if isinstance(watch, _Refuter) and watch.refuted:
        refuter = watch.engine
        if n or ctr.solutions:
            # verified solutions and a proof that there is none: one engine is wrong
            raise VerificationError(f"{refuter.name} proved this problem has no solution, but {backend.name} "
                                    f"found {max(n, len(ctr.solutions))} that passed the puzzle's checks")
        refuse_none(puzzle, problem, refuter.name)
        return CountOutcome(0, True, unique, refuter.name, deadline.elapsed(), None, "refuted", None, [], runs,
                            len(implied), f"{backend.name} had found no solution after {REFUTE_AFTER:g} s; "
                                          f"{refuter.name}, started beside it, proved there is none")
    if complete and not n:
        refuse_none(puzzle, problem, ctr.backend.name)
    return CountOutcome(n, complete, unique, ctr.backend.name, deadline.elapsed(), ctr.stopped_by,
                        method, None, ctr.solutions, runs, len(implied), choice, whole, listing_stopped)


def refuse_none(puzzle: Puzzle, problem: Problem, engine: str, source: str = "the puzzle file") -> None:
    """An engine's "no solution" against a solution the puzzle file
    (``source``) gives, a nonogram's goal: once verified, it proves the
    engine wrong (VerificationError), as decode refuses such an UNSAT
    answer.  A count of none is checked so whether or not it started from
    the goal (--unique, --no-goal and the counters never do)."""
    if verified_known(puzzle, problem) is not None:
        raise VerificationError(f"{engine} says there is no solution, but the solution {source} gives (its goal) "
                                "is one (verified): the engine is wrong")


def expected_some(puzzle: Puzzle, unique: bool = False) -> str | None:
    """What the puzzle file expects, as "N solutions" (or "N solutions up
    to symmetry"), when it expects some: a "no solution" contradicts either
    count (a file stating only its count up to symmetry said nothing when
    an engine found none), the one of the job's kind said first."""
    from .errors import plural

    for key in (("unique", "count") if unique else ("count", "unique")):
        n = puzzle.expected.get(key)
        if n:
            return plural(n, "solution") + (" up to symmetry" if key == "unique" else "")
    return None


def verified_known(puzzle: Puzzle, problem: Problem) -> tuple[frozenset, object] | None:
    """The puzzle's own solution and its decoding, if it gives one that
    passes its verifier (one that does not is no help here, and the file's
    loader reports it)."""
    known = puzzle.known_solution(problem)
    if known is None:
        return None
    try:
        return known, decode_verified(puzzle, problem, known, "the puzzle file")
    except VerificationError:
        return None


#: the engine a default engine's search from a known solution hands over to,
#: and after how many seconds: CP-SAT decides faase (80x95) from its goal in
#: 4 CPU-s where CaDiCaL takes 28, but costs ~0.35 s on every small puzzle
#: that CaDiCaL decides at once; 0.5 s (1 s before session 10) saves knotty
#: ~0.5 s and no small puzzle of the shared sets needs CaDiCaL that long
#: (benchmarks/nonograms-results.md)
HANDOVER_BACKEND = "cpsat"
HANDOVER_AFTER = 0.5
#: from how many further solutions found in HANDOVER_AFTER the search is
#: listing them, not looking for one: it stays on its engine
HANDOVER_UNLESS = 100


def _handover(problem: Problem) -> Backend | None:
    """The engine to hand over to, made only when needed (importing
    OR-Tools alone costs ~0.4 CPU-s); None if it cannot take the problem."""
    try:
        other = get_backend(HANDOVER_BACKEND)
    except BackendError:
        return None
    return other if other.supports(problem) is None else None


def _count_from_known(ctr: _Counter, problem: Problem, known: frozenset, decoded,
                      limit: int | None, may_hand_over: bool = False) -> tuple[int, bool]:
    """Count with a verified solution in hand: it and its distinct images
    under the symmetries (solutions too, each verified) are counted without a
    search; the search then blocks them and starts from ``known``'s values
    (a phase hint the engines that can take one use).  For a uniqueness
    question on a puzzle whose intended picture is known, the hard part is
    then only the search for a second solution near the first.  With
    ``may_hand_over``, a search that has found fewer than HANDOVER_UNLESS
    further solutions in ``HANDOVER_AFTER`` seconds continues on
    ``HANDOVER_BACKEND`` (one listing more goes on, without the cap, on its
    engine; the solutions found so far are blocked)."""
    found = {known: decoded}
    for g in problem.symmetries:
        image = frozenset(g.get(v, v) for v in known)
        if image not in found and (limit is None or len(found) < limit):
            found[image] = decode_verified(ctr.puzzle, problem, image, "the puzzle file")
    for sol in found.values():
        if ctr.keep:
            ctr.add_solutions([sol])
        ctr.progress.tick()
    ctr.at_least = len(found)
    if limit is not None and len(found) >= limit:
        ctr.stopped_by = "limit"
        return len(found), False

    def without(sols):
        return problem.with_constraints([Clause(tuple(blocking_clause(problem, sol))) for sol in sols])

    rest = without(found)
    budget = None if limit is None else limit - len(found)
    if not may_hand_over or not ctr.backend.can_enumerate:
        r = ctr.run(rest, keep=True, budget=budget, phases=known)
        return len(found) + r.count, r.complete
    seen: list[frozenset] = []
    before = ctr.stopped_by
    r = ctr.run(rest, keep=True, budget=budget, phases=known, see=lambda sol, _: seen.append(sol),
                cap=HANDOVER_AFTER)
    if r.complete or r.stopped_by != "time-limit" or ctr.deadline.expired():
        return len(found) + r.count, r.complete
    ctr.at_least = len(found) + r.count  # (a Ctrl-C during the hand-over: OR-Tools' import, its model)
    ctr.stopped_by = before
    ctr.seen_before_handover = len(seen)
    if len(seen) < HANDOVER_UNLESS:
        # few solutions near the first: the rest of the search (most often
        # a proof that there is no other) goes on where a solution hint
        # holds better.  One that is listing solutions goes on as it is (a
        # count of 40,320 went to CP-SAT, 1.4x slower, QA)
        ctr.backend = _handover(problem) or ctr.backend
    r = ctr.run(without([*found, *seen]), keep=True, budget=None if budget is None else budget - len(seen),
                phases=known)
    return len(found) + len(seen) + r.count, r.complete


def _invariant_exactly_one(problem: Problem, group: list[dict[int, int]]):
    """The best ExactlyOne constraint that every symmetry maps onto itself,
    with its orbits; None if there is none."""
    best = None
    for c in problem.constraints:
        if not isinstance(c, ExactlyOne):
            continue
        vs = set(c.vars)
        if not all(all(g.get(v, v) in vs for v in c.vars) for g in group):
            continue
        orbits = _orbits_of(c.vars, group)
        free = sum(1 for orb in orbits if len(orb) == len(group))
        score = (free / max(1, len(orbits)), -len(c.vars))
        if best is None or score > best[0]:
            best = (score, c, orbits)
    return None if best is None else (best[1], best[2])


def _orbits_of(vars_, group) -> list[list[int]]:
    seen = set()
    out = []
    for v in sorted(vars_):
        if v in seen:
            continue
        orb = sorted({g.get(v, v) for g in group})
        seen.update(orb)
        out.append(orb)
    return out


def _orbits(ctr: _Counter, problem: Problem, group: list[dict[int, int]],
            limit: int | None) -> tuple[int, bool]:
    """Number of group-orbits of solutions of ``problem`` (see module doc)."""
    if len(group) == 1:
        r = ctr.run(problem, keep=True, budget=limit)
        return r.count, r.complete
    found = _invariant_exactly_one(problem, group)
    if found is None:
        cell = _view_cell(problem, group) if ctr.backend.can_enumerate else None
        if cell is None:
            return _burnside(ctr, problem, group, limit)
        return _views(ctr, problem, group, cell, limit)
    c, orbits = found
    reps = [orb[0] for orb in orbits]
    stab = {r: [i for i, g in enumerate(group) if g.get(r, r) == r] for r in reps}
    # one run per (element h, stabiliser order k): the piece restricted to the
    # representatives of order k that h fixes, plus "fixed by h" equalities
    terms: dict[tuple[int, int], list[int]] = {}
    for r in reps:
        for i in stab[r]:
            terms.setdefault((i, len(stab[r])), []).append(r)
    total = Fraction(0)
    complete = True
    # identity terms run first: the solutions h fixes are among them, so an
    # empty identity term (k) makes every (h, k) term empty without a search
    empty_k: set[int] = set()
    # a counter counts each term whole whatever the budget, so every term is
    # counted: the whole count of classes, said beside the limit's (as in
    # _burnside; it stopped at the limit, and the whole count was lost, QA)
    budgeted = limit is not None and ctr.backend.can_enumerate
    for (i, k), rs in sorted(terms.items(), key=lambda t: (bool(t[0][0] and group[t[0][0]]), t[0][1], t[0][0])):
        if budgeted and total >= limit:
            return math.ceil(total), False
        h = group[i]
        if h and k in empty_k:
            continue
        allowed = set(rs)
        extra = [Clause((-v,)) for v in c.vars if v not in allowed]
        if h:
            extra += equalities(h)
        restricted = problem.with_constraints(extra)
        # a counter that takes the Burnside runs (what the default engine's
        # choice asks) may refuse a restricted one: Burnside then (-b kasteleyn
        # refused a 3 x 7 board with one monomino that its Burnside runs
        # count, QA).  Asked run by run, past the deadline not at all: each
        # answer is a plan (a 41 x 41 board's 19 took 3 s past -t 1)
        if not ctr.backend.can_enumerate and not ctr.deadline.expired() and ctr.backend.supports(restricted):
            return _burnside(ctr, problem, group, limit)
        budget = math.ceil((limit - total) * k) if budgeted else None
        # identity runs list solutions (a class met twice is kept once: _Counter.group)
        r = ctr.run(restricted, keep=not h, budget=budget)
        # every term is >= 0, so a partial sum (of partial counts) is a lower bound
        total += Fraction(r.count, k)
        if not r.complete:
            return math.ceil(total), False
        ctr.at_least = max(ctr.at_least, math.ceil(total))
        if not h and r.count == 0:
            empty_k.add(k)
    if total.denominator != 1:
        raise ArithmeticError(f"orbit count {total} is not a whole number")
    return int(total), complete


#: canonical solutions the views method lists and weighs at most; when there
#: are more, it gives way to Burnside (see _views)
VIEWS_PROBE = 1000


def _view_cell(problem: Problem, group: list[dict[int, int]]) -> tuple[int, ...] | None:
    """The ExactlyOne constraint (a cell, for a tiling) the views method
    compares its images with: the one fewest symmetries map onto itself,
    then the one with the fewest variables (a corner: its placement is
    chosen early, and the conflicts prune early).  None when every such
    constraint has fewer variables than there are symmetries (dominoes:
    every solution would have tied views), or only on variables a solution
    does not name (not primary)."""
    best = None
    primary = set(problem.primary)
    for c in problem.constraints:
        if not isinstance(c, ExactlyOne) or len(c.vars) < len(group) or not primary.issuperset(c.vars):
            continue
        vs = set(c.vars)
        stab = sum(1 for g in group if all(g.get(v, v) in vs for v in vs))
        key = (stab, len(vs))
        if best is None or key < best[0]:
            best = (key, tuple(sorted(vs)))
    return None if best is None else best[1]


def _views(ctr: _Counter, problem: Problem, group: list[dict[int, int]], cell: tuple[int, ...],
           limit: int | None) -> tuple[int, bool]:
    """Number of orbits when no constraint is invariant (every piece repeats).

    ``cell`` is an ExactlyOne constraint C; each g in G maps it onto another,
    g(C), and in a solution S exactly one variable of g(C) is true, s_g.  The
    *view* of S through g is V_S(g) = g^-1(s_g), a variable of C (what S looks
    like from g(C), brought back to C).  Views permute along an orbit
    (V_{kS}(g) = V_S(k^-1 g)), so their least m is the orbit's.  Call S
    *canonical* when its own C-variable is m (V_S(e) <= V_S(g) for all g),
    and let A_S = {g : V_S(g) = m}.  Of S's orbit, |A_S| / |Stab(S)|
    solutions are canonical, so

        #orbits = sum over canonical S of |Stab(S)| / |A_S|.

    One run finds the canonical solutions ("p true in C excludes every q of
    g(C) with g^-1(q) < p": AtMostOne constraints, secondary items in an
    exact cover) and weighs them one by one: about |G| times less search
    than Burnside's identity term, which is the raw count.  A solution
    without a tie (A_S = {e}) weighs 1, as no g fixes it (a g in Stab(S)
    ties); so, unless solutions are kept, an engine that builds solutions
    at a cost (the exact one) hands back only those with a tie, p in C and
    g(p) both true, and counts the others (Backend.search's ``hand_back``:
    tetromino-pairs-5x8 weighs 259 of its 906).  Weighing costs a verified
    solution each, so when there are more than ``VIEWS_PROBE`` canonical
    solutions, Burnside (counting, not listing) is used instead: with a
    corner as C, ties are a third to most of them, and weighing them cost
    more than Burnside on every large board measured (repeated-L-8x8 with
    no probe: about 2x as long; benchmarks/counting-results.md, session 33).
    """
    others = [g for g in group if g]
    inverses = [{b: a for a, b in g.items()} for g in others]
    images = [frozenset(g.get(v, v) for v in cell) for g in others]
    order = {v: i for i, v in enumerate(cell)}
    in_cell = frozenset(cell)
    canonical = []
    for g in others:
        for p in cell:
            smaller = {g.get(q, q) for q in cell if order[q] < order[p]}
            if p in smaller:  # p covers g(C) too, where it is a smaller view
                canonical.append(Clause((-p,)))
            elif smaller - in_cell:  # (those in C exclude p already)
                canonical.append(AtMostOne((p, *sorted(smaller - in_cell))))
    weights: collections.Counter = collections.Counter()  # (|Stab(S)|, |A_S|) -> how many S
    kept: list = []

    def weigh(sol: frozenset, decoded) -> None:
        own, = in_cell & sol
        ties = []
        for i, img in enumerate(images):
            s_g, = img & sol
            if inverses[i].get(s_g, s_g) == own:
                ties.append(i)
        stab = 1 + sum(1 for g in others if all(g.get(v, v) in sol for v in sol))
        weights[stab, 1 + len(ties)] += 1  # (summed as fractions once, at the end: a Fraction each cost 8 us)
        if ctr.keep:  # of an orbit's canonical solutions, the least is listed
            mates = [frozenset(inverses[i].get(v, v) for v in sol) for i in ties]
            if all(sorted(sol) <= sorted(m) for m in mates):
                kept.append(decoded)

    # each weight is at least 1/|G|: a user's limit needs at most limit*|G| of them
    budget = VIEWS_PROBE if limit is None else min(VIEWS_PROBE, limit * len(group))
    before = ctr.stopped_by
    # the solutions with a tie (see above); all, when solutions are kept (a
    # kept one is an orbit's least canonical solution)
    tied = None if ctr.keep else [frozenset((p, g.get(p, p))) for g in others for p in cell]
    r = ctr.run(problem.with_constraints(canonical), keep=False, budget=budget, see=weigh, hand_back=tied)
    # r.unsent, not r.count less the weighed: a Ctrl-C may leave a solution
    # counted and not yet weighed (a tie, worth less than 1)
    total = sum((Fraction(stab * n, ties) for (stab, ties), n in weights.items()), Fraction(r.unsent))
    if r.complete or r.stopped_by != "limit" or (limit is not None and total >= limit):
        ctr.add_solutions(kept)
        if not r.complete:
            return math.ceil(total), False
        if total.denominator != 1:
            raise ArithmeticError(f"orbit count {total} is not a whole number")
        return int(total), True
    ctr.stopped_by = before  # too many to weigh one by one
    return _burnside(ctr, problem, group, limit)


def _burnside_supported(backend: Backend, problem: Problem) -> None:
    """A counter (no listing: Burnside's lemma is its one way up to
    symmetry) that takes the board may still not take the problem of the
    solutions one symmetry fixes (the determinant: a quotient graph that is
    not planar).  Said so, before any count, not as if the board itself
    were what it cannot take (QA: "its graph ... is not planar" for a 2x2x3
    box whose raw count it had just made)."""
    n = len(problem.symmetries)
    for g in problem.symmetries:
        if not g:
            continue
        why = backend.supports(problem.with_constraints(equalities(g)))
        if why:
            raise BackendError(f"backend {backend.name!r} cannot count this puzzle up to symmetry: Burnside's lemma "
                               f"needs the solutions each of its {n} symmetries fixes, and for one of them "
                               f"{backend.name} cannot take that problem: {why} (without --unique it counts all "
                               "the solutions; or choose an engine that lists them, e.g. -b exact)")


def _burnside(ctr: _Counter, problem: Problem, group, limit) -> tuple[int, bool]:
    """(1/|G|) sum_g fix(g); the identity term is the raw count.  A run that
    stops leaves a lower bound: every term is >= 0 and a partial one is a
    lower bound of itself (a finished identity count alone holds its raw
    solutions in at least ceil(n/|G|) classes)."""
    fixed_sum = 0
    # (a counter counts each term whole whatever the budget: every term then
    # gives the whole count of classes, said beside the limit's)
    budget = None if limit is None or not ctr.backend.can_enumerate else limit * len(group)
    for g in group:
        if not g:  # identity
            r = ctr.run(problem, keep=True, budget=budget)
        else:
            r = ctr.run(problem.with_constraints(equalities(g)), keep=False, budget=None)
        fixed_sum += r.count
        bound = -(-fixed_sum // len(group))
        if not r.complete:
            return bound, False
        ctr.at_least = max(ctr.at_least, bound)
    if fixed_sum % len(group):
        raise ArithmeticError(f"Burnside sum {fixed_sum} not divisible by |G| = {len(group)}")
    return fixed_sum // len(group), True
