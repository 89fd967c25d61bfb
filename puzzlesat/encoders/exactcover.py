"""Problem -> exact cover with multiplicities (items and options), no solver.

Every primary variable is an *option*; the constraints become *items*:

- ``ExactlyOne(vars)``  -> a primary item, covered exactly once;
- ``Exactly(k, vars)``  -> a primary item covered exactly ``k`` times
  (Knuth's Algorithm M); ``k == 0`` removes its options;
- ``AtMostOne(vars)`` and the binary clause ``(-a, -b)`` -> a secondary item.

The counting layer adds two clause shapes, both supported:

- unit clauses: ``(-x)`` removes option ``x``; ``(x)`` forces it (a fresh
  primary item that only ``x`` covers);
- equalities ``(-a, b), (a, -b)`` (Burnside fixed points): the equality
  classes of options merge into one combined option; its multiplicity on an
  item is the sum of its members'.  A combined option hitting an
  ExactlyOne/AtMostOne item twice, or a multiplicity-``k`` item more than
  ``k`` times, can never be chosen and is dropped.

A multiplicity item hit ``w > 1`` times by some combined options cannot be
written as one exact-cover item (an option covers an item at most once).  It
is split exactly instead: for every way ``sum(w * c_w) == k`` of choosing how
many options of each weight ``w`` are used (``c_w`` at most the number of
such options), one *case* with an item ``(i, w)`` covered ``c_w`` times.  The
cases' solution sets are disjoint (they differ in some ``c_w``) and together
they are the problem's, so counts add up.  Usually there is just one case.

A variable that no primary item decides (only in AtMostOne items, or in no
constraint at all) may be true or false: it gets a fresh primary item and a
second, *dummy* option standing for "false".

Anything else (Regular, longer or other clauses, constraints on non-primary
variables) is not an exact cover: :func:`unsupported_reason` says why.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from ..problem import AtMostOne, Clause, Exactly, ExactlyOne, Problem, Regular

#: refuse problems whose weighted multiplicity items split into more cases
MAX_CASES = 10_000


class NotExactCover(ValueError):
    """The problem has a constraint with no exact-cover form."""


@dataclass
class ExactCover:
    """One exact-cover instance.

    ``items[j] = (multiplicity, primary)``; secondary items have
    multiplicity 1.  ``options[o]`` is the tuple of item indices option ``o``
    covers (each at most once), ``members[o]`` the primary variables it sets
    true (empty for a dummy "false" option).  A solution is a set of options
    covering every primary item exactly its multiplicity and every secondary
    item at most once; its variables are the union of the members.
    """

    items: list[tuple[int, bool]] = field(default_factory=list)
    options: list[tuple[int, ...]] = field(default_factory=list)
    members: list[tuple[int, ...]] = field(default_factory=list)

    @property
    def n_primary(self) -> int:
        return sum(1 for _, p in self.items if p)

    @property
    def needs_multiplicity(self) -> bool:
        """True when some primary item is covered more than once (Algorithm M)."""
        return any(p and m != 1 for m, p in self.items)

    def solution(self, chosen) -> frozenset:
        """The true variables of a solution given as option indices."""
        return frozenset(v for o in chosen for v in self.members[o])

    def option_sets(self, var_sets) -> list[frozenset[int]]:
        """Sets of primary variables as sets of options: a solution sets
        every variable of a set true exactly when it chooses every option of
        its image (a variable is a member of one option at most).  A set with
        a variable no option sets true can never hold, and has no image."""
        where = {v: o for o, vs in enumerate(self.members) for v in vs}
        out = []
        for vs in var_sets:
            if all(v in where for v in vs):
                out.append(frozenset(where[v] for v in vs))
        return sorted(set(out), key=sorted)

    def stats(self) -> dict:
        return {"items": len(self.items), "primary_items": self.n_primary,
                "options": len(self.options), "dummy_options": sum(1 for m in self.members if not m),
                "multiplicity": self.needs_multiplicity}


def unsupported_reason(problem: Problem) -> str | None:
    """None if ``problem`` is an exact cover this module can translate, else why not."""
    try:
        _classify(problem)
    except NotExactCover as e:
        return str(e)
    return None


def stated_counts(problem: Problem) -> list:
    """The problem's constraints as an exact cover states them: a count the
    others imply is stated where other counts of 2 or more are (without it
    Algorithm M places that piece freely and finds the others short only
    deep down: Problem.redundant).  Alone it bounds nothing, and would only
    turn Algorithm X into M (dominoes-8x8: 7.0 -> 8.7 s)."""
    constraints = problem.constraints
    if problem.redundant and any(isinstance(c, Exactly) and c.k >= 2 for c in constraints):
        return [*constraints, *problem.redundant]
    return constraints


def exact_cover(problem: Problem) -> list[ExactCover]:
    """The cases whose solutions together are exactly ``problem``'s.

    An empty list means the problem has no solution.  Raises NotExactCover
    if the problem is not an exact cover.
    """
    cards, equal_pairs, units, infeasible = _classify(problem)
    if infeasible:
        return []
    primary = list(problem.primary)

    # equality classes of variables (union-find), in a deterministic order;
    # ``rep`` maps only the variables merged into a smaller one (most
    # translations have no equality: the loops below then map nothing)
    rep: dict[int, int] = {}
    if equal_pairs:
        parent = {v: v for v in primary}

        def find(v):
            while parent[v] != v:
                parent[v] = parent[parent[v]]
                v = parent[v]
            return v

        for a, b in equal_pairs:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
        for v in primary:
            r = find(v)
            if r != v:
                rep[v] = r
        classes: dict[int, list[int]] = {}
        for v in primary:
            classes.setdefault(rep.get(v, v), []).append(v)
        reps = list(classes)  # representatives in order of first member
    else:
        reps = list(dict.fromkeys(primary))
        classes = None

    removed: set[int] = set()
    forced: set[int] = set()
    for lit in units:
        v = abs(lit)
        (forced if lit > 0 else removed).add(rep.get(v, v))

    # weights: for each card constraint, how often each class hits it
    weighted: list[tuple[int, bool, dict[int, int], bool]] = []  # (k, primary, rep -> weight, all weights 1)
    for k, is_primary, vars_ in cards:
        mapped = [rep.get(v, v) for v in vars_] if rep else vars_
        w = dict.fromkeys(mapped, 1)
        ones = len(w) == len(mapped)
        if not ones:
            w = {}
            for r in mapped:
                w[r] = w.get(r, 0) + 1
        if k < 1 or not ones:
            for r, n in w.items():
                if n > k:  # choosing this class would overfill the item
                    removed.add(r)
        weighted.append((k, is_primary, w, ones))
    if forced & removed:
        return []

    # items per card constraint, before the case split
    base_items: list[tuple[int, bool]] = []           # multiplicity, primary
    opt_items: dict[int, list[int]] = {r: [] for r in reps}
    split: list[tuple[int, int, dict[int, int]]] = []  # (k, base item, weight -> #options)
    item_weights: list = []  # base item -> {rep: weight} (where all are 1, maybe the set of reps)
    decided: set[int] = set()                          # classes some primary item has
    for k, is_primary, w, ones in weighted:
        # (the classes left; with weights only where some class has more than 1)
        if removed.isdisjoint(w):
            live = w
        elif ones:
            live = w.keys() - removed
        else:
            live = {r: n for r, n in w.items() if r not in removed}
        if is_primary:
            if k == 0:
                continue  # its options are removed already
            if (len(live) if ones else sum(live.values())) < k:
                return []  # not enough coverage left
        elif not live:
            continue
        j = len(base_items)
        base_items.append((k, is_primary))
        item_weights.append(live)
        for r in live:
            opt_items[r].append(j)
        if is_primary:
            decided.update(live)
            if not ones:
                weights: dict[int, int] = {}
                for n in live.values():
                    weights[n] = weights.get(n, 0) + 1
                if set(weights) != {1}:
                    split.append((k, j, weights))
    for r in sorted(forced):
        opt_items[r].append(len(base_items))
        base_items.append((1, True))
        item_weights.append({r: 1})
        decided.add(r)

    live_reps = [r for r in reps if r not in removed] if removed else reps
    if not split:
        return [_plain_case(base_items, live_reps, opt_items, classes, decided)]

    split_items = {j for _, j, _ in split}
    weight_of = {(r, j): item_weights[j][r] for j in split_items for r in item_weights[j]}

    choices = []
    for k, j, weights in split:
        vectors = list(_weight_vectors(k, sorted(weights), weights))
        if not vectors:
            return []
        choices.append((j, vectors))
    n_cases = 1
    for _, vectors in choices:
        n_cases *= len(vectors)
    if n_cases > MAX_CASES:
        raise NotExactCover(f"equalities split multiplicity items into {n_cases} cases (more than {MAX_CASES})")

    if classes is None:
        classes = {r: [r] for r in reps}
    cases = []
    for combo in itertools.product(*[vectors for _, vectors in choices]):
        # item j (split) with weight w -> multiplicity in this case
        case_mult = {}
        for (j, _), vector in zip(choices, combo):
            for w, c in vector.items():
                case_mult[(j, w)] = c
        cases.append(_build_case(base_items, split_items, case_mult, weight_of, live_reps,
                                 opt_items, classes, decided))
    return cases


def _plain_case(base_items, live_reps, opt_items, classes, decided) -> ExactCover:
    """The one case of a translation that splits no item: what
    :func:`_build_case` builds then, in one pass (primary items in order,
    then one fresh item per option no primary item decides, then the
    secondary items)."""
    ec = ExactCover()
    index = [0] * len(base_items)
    secondary = []
    for j, (mult, primary) in enumerate(base_items):
        if primary:
            index[j] = len(ec.items)
            ec.items.append((mult, True))
        else:
            secondary.append(j)
    n_free = sum(1 for r in live_reps if r not in decided)
    free_item = len(ec.items)
    ec.items.extend([(1, True)] * n_free)
    for j in secondary:
        index[j] = len(ec.items)
        ec.items.append((1, False))
    options, members = ec.options, ec.members
    at = index.__getitem__
    for r in live_reps:
        its = tuple(map(at, opt_items[r]))
        who = (r,) if classes is None else tuple(classes[r])
        if r in decided:
            options.append(its)
            members.append(who)
        else:
            options.append((*its, free_item))
            members.append(who)
            options.append((free_item,))
            members.append(())
            free_item += 1
    return ec


def _build_case(base_items, split_items, case_mult, weight_of, live_reps, opt_items, classes, decided):
    ec = ExactCover()
    index: dict = {}  # base item j or (j, w) -> item index in ec

    def item(key, mult, primary):
        if key not in index:
            index[key] = len(ec.items)
            ec.items.append((mult, primary))
        return index[key]

    # primary items first, secondary after (miniexact wants that order)
    for j, (mult, primary) in enumerate(base_items):
        if not primary:
            continue
        if j in split_items:
            for (jj, w), c in sorted(case_mult.items()):
                if jj == j and c > 0:
                    item((j, w), c, True)
        else:
            item(j, mult, True)
    free: list[int] = []
    options: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for r in live_reps:
        its = []
        ok = True
        for j in opt_items[r]:
            if j in split_items:
                key = (j, weight_of[(r, j)])
                if case_mult.get(key, 0) == 0:
                    ok = False  # this case uses no option of this weight
                    break
                its.append(index[key])
            elif base_items[j][1]:
                its.append(index[j])
            else:
                its.append(("s", j))
        if not ok:
            continue
        if r not in decided:  # (no primary item decides it)
            free.append(len(options))
        options.append((its, tuple(classes[r])))
    # fresh primary items for options nothing else decides
    free_item = {}
    for o in free:
        free_item[o] = len(ec.items)
        ec.items.append((1, True))
    for j, (mult, primary) in enumerate(base_items):
        if not primary:
            item(("s", j), 1, False)
    for o, (its, members) in enumerate(options):
        resolved = [index[i] if isinstance(i, tuple) and i[0] == "s" else i for i in its]
        if o in free_item:
            resolved.append(free_item[o])
            ec.options.append(tuple(resolved))
            ec.members.append(members)
            ec.options.append((free_item[o],))
            ec.members.append(())
        else:
            ec.options.append(tuple(resolved))
            ec.members.append(members)
    return ec


def _weight_vectors(k: int, ws: list[int], available: dict[int, int], i: int = 0):
    """Every {w: c_w} with sum(w * c_w) == k and c_w <= available[w]."""
    if i == len(ws):
        if k == 0:
            yield {}
        return
    w = ws[i]
    for c in range(min(k // w, available[w]), -1, -1):
        for rest in _weight_vectors(k - c * w, ws, available, i + 1):
            yield {w: c, **rest}


def _classify(problem: Problem):
    """Split the constraints into cardinality items, equalities and units.

    Returns (cards, equal_pairs, units, infeasible) where cards are
    (k, primary?, vars) triples.  Raises NotExactCover.
    """
    primary = set(problem.primary)
    cards: list[tuple[int, bool, tuple[int, ...]]] = []
    units: list[int] = []
    implications: set[tuple[int, int]] = set()  # (a, b) for clause (-a, b)
    infeasible = False

    def check_vars(c, vars_):
        if primary.issuperset(vars_):
            return
        for v in vars_:
            if abs(v) not in primary:
                raise NotExactCover(f"{type(c).__name__} uses non-primary variable {abs(v)}: "
                                    "an exact cover has options for primary variables only")

    for c in stated_counts(problem):
        if isinstance(c, ExactlyOne):
            check_vars(c, c.vars)
            cards.append((1, True, c.vars))
        elif isinstance(c, Exactly):
            check_vars(c, c.vars)
            if c.k < 0 or c.k > len(c.vars):
                infeasible = True
            cards.append((max(c.k, 0), True, c.vars))
        elif isinstance(c, AtMostOne):
            check_vars(c, c.vars)
            cards.append((1, False, c.vars))
        elif isinstance(c, Clause):
            check_vars(c, tuple(map(abs, c.lits)))
            lits = set(c.lits)
            if any(-l in lits for l in lits):
                continue  # tautology
            if not lits:
                infeasible = True
            elif len(lits) == 1:
                units.append(next(iter(lits)))
            elif len(lits) == 2:
                a, b = sorted(lits)
                if a < 0 and b < 0:
                    cards.append((1, False, (-a, -b)))  # not both: a secondary item
                elif a < 0 < b:
                    implications.add((-a, b))
                else:
                    raise NotExactCover(f"clause {c.lits} (at least one of two) has no exact-cover form")
            else:
                raise NotExactCover(f"clause {c.lits} has no exact-cover form (only units, "
                                    "equalities (-a, b), (a, -b) and (-a, -b) do)")
        elif isinstance(c, Regular):
            raise NotExactCover("Regular (automaton) constraints have no exact-cover form")
        else:  # pragma: no cover - the IR is closed
            raise NotExactCover(f"{type(c).__name__} has no exact-cover form")
    equal_pairs = []
    for a, b in implications:
        if (b, a) not in implications:
            raise NotExactCover(f"clause ({-a}, {b}) is an implication without its converse "
                                f"({a}, {-b}); only equalities have an exact-cover form")
        if a < b:
            equal_pairs.append((a, b))
    return cards, sorted(equal_pairs), units, infeasible
