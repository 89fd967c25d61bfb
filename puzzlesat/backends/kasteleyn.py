"""Counting perfect matchings of planar graphs by a determinant (Kasteleyn).

Which problems
==============

A problem whose every item (ExactlyOne) is a vertex and whose every primary
variable lies in exactly two items is a graph: its solutions are the perfect
matchings of that graph, each variable an edge (two variables on the same
two items are parallel edges, counted apart).  A tiling by dominoes is one
(a cell per vertex, a placement per edge), on any lattice.  Unit clauses
(a split's forced literals) are taken: a false edge is removed, a true one
takes its two vertices out.  A count over all variables that the items
already fix (k edges in every matching of 2k vertices) is implied and
skipped; any other constraint, or a variable on one or three items (a
tromino), makes the problem one this engine does not take.  A lone
monomino is taken: its piece's ExactlyOne is one more vertex, joined to
every cell (an apex, see below).  So are k > 1 monominoes of one piece
(an Exactly(k) over the variables on one item, or the dominoes' count
that implies it): the count is the sum over the sets of k cells they may
cover of the matchings of the rest (step 6).

Counting up to symmetry (Burnside's lemma) asks, for each symmetry g, how
many tilings g fixes: the problem plus the equalities x = g(x), as pairs of
clauses (-x g(x)), (x -g(x)).  Those are taken too, by contraction: a class
of equal variables is one edge, the items whose constraints then coincide
are one vertex (an orbit of cells), and the count is of the quotient
graph's matchings.  A class twice in one item is false (a domino that g
maps onto another one over the same cell).  A class whose items all became
one vertex is a *site*: a domino g maps onto itself, swapping its two
cells, covers its orbit alone, so the count is the sum, over the sets S of
sites covered that way, of the perfect matchings of the graph without S.
With monominoes, a class of them is a site too: it covers its orbit of
cells, and takes as many monominoes as the orbit has cells (its charge; a
domino's site takes none).  The sum then runs over the sets S whose sites
take k monominoes in all, and the sites may lie anywhere (step 6).

How it counts
=============

Kasteleyn (1961; Temperley and Fisher for the rectangle), in the form of
Fisher, Kasteleyn and Temperley's algorithm (FKT) for any planar graph:

1. Embed each connected component in the plane (networkx's planarity test
   gives a combinatorial embedding, or says it is not planar).  A component
   that is not planar, but is once its vertex of highest degree (the apex)
   is taken out, counts as the sum over the apex's edges (a, v) of the
   matchings of the rest without v: one monomino on the apex's
   neighbours (step 6).  If the rest falls apart, v lies in its one odd
   piece, and the other pieces are counted alone.  Any other is not taken.
2. Orient the edges so that every face but one has an odd number of edges
   pointing along its boundary walk (all faces walked the same way round):
   orient a spanning tree at will; the other edges form a spanning tree of
   the dual graph; orient them leaves first, each face's last edge chosen to
   make its count odd.  Such an orientation is Pfaffian: every perfect
   matching has the same sign in the Pfaffian of the signed adjacency
   matrix A (A[u][v] = +w for u -> v, -w the other way, w the multiplicity).
3. So the number of perfect matchings is |Pf(A)| = sqrt(det A).  When the
   component is bipartite (the square lattice's cells, the triangular
   lattice's up and down triangles), det A = det(K)^2 for K the rows of one
   colour and the columns of the other, and the count is |det K|: a matrix
   half the size.
4. With a symmetry's sites, the face left unconstrained in step 2 is one
   that holds every site (there is one in some embedding exactly when the
   graph plus a vertex joined to each site is planar: that graph is
   embedded, and the vertex taken out).  Taking vertices of that face out
   leaves every other face as it was, so the orientation stays Pfaffian,
   and each term is a minor of the one matrix.  A few are taken one by one; more (a mirror
   whose axis crosses n cells has n sites on it: 20 make 184,756 terms)
   from one elimination per prime whose pivots avoid the sites' rows and
   columns, which leaves each minor the pivots' product times a small
   determinant, all of one size taken at once (a Schur complement).
5. When that face's boundary walk passes each site once, the whole sum is
   one Pfaffian of a k x k matrix built from the minors without two sites
   (Kuo's condensation in its Pfaffian form, _pair_formula): k(k-1)/2 + 1
   minors instead of one per set.  It needs a perfect matching of the graph
   with no site taken; where there is none (an odd half board: its mirror's
   sites must leave an odd number of cells), sites are flipped first
   (_pendants: a new vertex joined to the site alone, which keeps the sum).
   Otherwise more than MAX_SITE_TERMS sets are not taken.
6. Monominoes' cells lie anywhere, not on one face.  Taking an inside
   vertex out leaves a face of the wrong parity; flipping the signs of the
   edges along a line in the dual from it to the free face (a defect line,
   _defect_lines) puts that right, so each set of k cells is a minor of
   the one matrix with its lines flipped (_defect_sum): from the matrix's
   inverse, a small determinant each, when it is square and invertible
   (_minors_by_inverse); else from the inverse of one term's bordered
   matrix (_minors_by_border: odd boards, or k of one colour more); else
   whole (_minors_by_stacks); all of one order at once, as a stack.
   Components multiply as polynomials in the monominoes they hold (each
   set of sites weighed by the monominoes its sites take, _charged_sets).
   Under a mirror, the dominoes it swaps make sites that take no monomino,
   2^k sets of them on its axis: when they lie round one face, each set T
   that monominoes cover has the others summed by step 5's pair formula
   on the graph without T (_charged_pair_sum).  Up to MAX_DEFECT_WORK
   (_defect_work, _pair_work).

The determinant is exact: computed modulo enough primes (Hadamard's bound on
|det| tells how many) by Gaussian elimination on a band (the vertices in
breadth-first order, so a grid's matrix has a band about as wide as the
grid), and put together by the Chinese remainder theorem.  Pf^2 not coming
out a perfect square would mean a fault here: it is raised, not rounded.

Cost: polynomial, about n * w^2 per prime for n rows and a band w wide
(measured, one run: the square boards 20x20 (1.3e48 tilings) 0.04 s, 40x40
(2.9e197) 0.44 s, 60x60 2.4 s, 100x100 (a 1,254-digit count, 161 primes)
28 s), where every enumerating engine pays per tiling and the model
counter by its search.  It counts only: it lists no tiling, so a count that
must show solutions uses another engine.
"""

from __future__ import annotations

import collections
import functools
import itertools
import math
import weakref

from ..problem import Clause, Exactly, ExactlyOne, Problem
from .base import Backend, BackendError, Deadline, SearchResult

#: the largest matrix (rows) the determinant is taken of: it is held dense
#: (8 bytes an entry: 5,000 rows are 200 MB); a bipartite board of 10,000
#: cells fits
MAX_ORDER = 5000
#: the most minors one component's sites may ask for (a term per set of
#: sites covered alone) when the pair formula does not apply (the walk
#: round the sites' face passes one twice, or no choice of flipped sites
#: leaves a matching): 352,716 terms (20 x 21's mirror) took 7 s and 0.7 GB
#: that way, 705,432 (22 x 22's) 25 s and 1.4 GB; the pair formula 0.4 s
MAX_SITE_TERMS = 400_000
#: from how many terms a component's site sum is taken from one elimination
#: per prime (_minor_sums) rather than a banded determinant per term
#: (measured, one run each: 1 term of order 820, 0.73 s against 0.52; 2 of
#: order 1000, 0.92 against 0.89; 6 of 1000, 0.99 against 3.03; 924 of 36,
#: 0.07 against 0.90)
SCHUR_FROM = 3
#: from how many terms a site sum is taken from the pairs' minors and one
#: Pfaffian (_pair_formula) where it applies
PAIRS_FROM = 16
#: the most work that monominoes counted together may ask for (_defect_work:
#: 2.3e8-3.5e8 a second here; measured, one run each, with two: 16x16
#: 1.8e8, 0.55 s; 20x20 6.9e8, 2.0 s; 24x24 2.2e9, 6.5 s; 30x30 is 1e10;
#: 8x8 with four 1.1e9, 4.6 s)
MAX_DEFECT_WORK = 1.5e10
#: from how many sites that no monomino need cover (dominoes a mirror
#: swaps), round the free face, monominoes' sets are summed with the pair
#: formula's (_charged_pair_sum) rather than set by set
CHARGED_PAIRS_FROM = 5
#: how many terms _minors_by_border tries as its base, modulo a prime
BORDER_BASES = 8
#: how many sets of monomino cells _defect_sum takes at once (their terms
#: held together: 1.5 million of them (10x10 with four) took 2.3 GB)
DEFECT_CHUNK = 100_000
#: how many entries a stack of determinants (_defect_sum) holds at once
DEFECT_STACK = 10_000_000
#: how many plans (embedded graphs) an engine keeps by their problem's
#: content: a count up to symmetry of a square board asks about 8 problems
PLANS_KEPT = 16
#: primes below 2**31, so that a product of two residues fits in an int64
PRIME_BITS = 31


class _Graph:
    """The matching graph of a problem: ``n`` vertices, ``edges`` as
    ``{(u, v): multiplicity}`` with u < v, ``sites`` as ``{v: multiplicity}``
    for the vertices a placement may cover alone (a monomer: in a count of
    the solutions a symmetry fixes, a placement the symmetry maps onto
    itself whose two cells it swaps), and ``zero`` set when the forced
    literals already leave no perfect matching."""

    def __init__(self, n: int, edges: dict[tuple[int, int], int], zero: bool = False,
                 sites: dict[int, int] | None = None, monomers: int | None = None,
                 charges: dict[int, dict[int, int]] | None = None):
        self.n, self.edges, self.zero = n, edges, zero
        self.sites = sites or {}
        #: when set, the sites are monominoes' cells, exactly this many
        #: monominoes covering them (anywhere: no one face need hold them);
        #: None: any number of sites, all on one face (a symmetry's)
        self.monomers = monomers
        #: with monominoes, each site's ways of being covered alone as
        #: {monominoes it takes: multiplicity}: 1 for a monomino's cell; under
        #: a symmetry, a class of monominoes covers its orbit of cells (as
        #: many as the orbit holds), and a domino the symmetry maps onto
        #: itself covers its two cells' vertex with none
        self.charges = charges if charges is not None else {v: {1: m} for v, m in self.sites.items()}


def matching_graph(problem: Problem) -> _Graph | str:
    """The graph whose perfect matchings are the problem's solutions, or why
    the problem is not such a graph.

    Equalities between variables (the clause pairs (-a b), (a -b) that a
    count of the solutions fixed by a symmetry adds) are contracted: a class
    of equal variables is one edge, the items whose constraints become the
    same are one vertex, a class twice in one item is false (both its
    variables would be true there), and a class whose items all became one
    vertex covers that vertex alone (a site)."""
    items: list[tuple[int, ...]] = []
    items_of: dict[int, list[int]] = {}
    forced: dict[int, bool] = {}
    counts: list[Exactly] = []
    pairs: set[tuple[int, int]] = set()
    constraints, implied = _counts_apart(problem)
    for c in constraints:
        if isinstance(c, ExactlyOne):
            for v in c.vars:
                its = items_of.get(v)
                if its is None:
                    items_of[v] = [len(items)]
                elif len(its) == 2:
                    # (said at once: count asks about every default count's
                    # problem, and most are not this engine's)
                    return _too_many(constraints, v)
                else:
                    its.append(len(items))
            items.append(c.vars)
        elif isinstance(c, Exactly):
            counts.append(c)
        elif isinstance(c, Clause) and len(c.lits) == 1:
            lit = c.lits[0]
            if forced.get(abs(lit), lit > 0) != (lit > 0):
                return _Graph(0, {}, zero=True)  # x and not x
            forced[abs(lit)] = lit > 0
        elif isinstance(c, Clause) and len(c.lits) == 2:
            pairs.add(c.lits)
        else:
            return f"it has {type(c).__name__} constraints, which are not a perfect-matching problem's"
    primary = set(problem.primary)
    for v in list(items_of) + list(forced) + [abs(x) for lits in pairs for x in lits]:
        if v not in primary:
            return "a constraint is on a variable that is not primary"
    # monominoes counted together: an Exactly(k) over every variable that
    # lies in one item (a placement covering one cell), k > 1
    alone = {v for v in primary if len(items_of.get(v, ())) == 1}
    # (or, the same, an Exactly(k) over the others: k dominoes leave 2k cells fewer)
    monomers = next((c.k for c in counts if alone and set(c.vars) == alone), None)
    if monomers is None:
        monomers = next((len(items) - 2 * c.k for c in counts if alone and set(c.vars) == primary - alone), None)
    for v in problem.primary:
        its = items_of.get(v, ())
        if (len(its) != 2 or its[0] == its[1]) and not (monomers is not None and v in alone):
            return _not_two(len(its))
    for c in counts:
        # k edges in every perfect matching of 2k vertices: implied (and so
        # in every one that also keeps equalities); with m monominoes, the
        # dominoes' k with 2k + m = the cells
        if monomers is not None and (set(c.vars) == alone and c.k == monomers or
                                     set(c.vars) == primary - alone and 2 * c.k + monomers == len(items)):
            continue
        if (set(c.vars) != primary or 2 * c.k != len(items)) and c not in implied \
                and not _matched_around(c, items, primary):
            # (a count the model implies bounds nothing: it need not be one of these)
            return "it counts some pieces apart (Exactly constraints the cells do not imply)"
    parent = {v: v for v in problem.primary}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        if not (a < 0 < b or b < 0 < a) or (-a, -b) not in pairs and (-b, -a) not in pairs:
            return "it has two-literal clauses that are not equalities between two variables"
        ra, rb = find(abs(a)), find(abs(b))
        if ra != rb:
            parent[rb] = ra
    value: dict[int, bool] = {}  # per class
    for v, val in forced.items():
        r = find(v)
        if value.get(r, val) != val:
            return _Graph(0, {}, zero=True)
        value[r] = val
    # each item as a set of classes; a class twice in one item is false
    keys = []
    for vs in items:
        classes = [find(v) for v in vs]
        key = frozenset(classes)
        if len(key) < len(classes):
            for r in key:
                if classes.count(r) > 1:
                    if value.get(r) is True:
                        return _Graph(0, {}, zero=True)
                    value[r] = False
        keys.append(key)
    vertex: dict[frozenset, int] = {}
    item_vertex = [vertex.setdefault(k, len(vertex)) for k in keys]
    ends: dict[int, set[int]] = {}  # per class, the vertices (constraints) it lies in
    for v in problem.primary:
        ends.setdefault(find(v), set()).update(item_vertex[i] for i in items_of[v])
    n_vertices = len(vertex)
    gone = [False] * n_vertices
    for r, val in value.items():
        if val:
            if any(gone[u] for u in ends[r]):
                return _Graph(0, {}, zero=True)  # two forced edges on one vertex
            for u in ends[r]:
                gone[u] = True
    edges: dict[tuple[int, int], int] = {}
    sites: dict[int, int] = {}
    charges: dict[int, dict[int, int]] = {}
    # how many monominoes each class of equal variables places (its
    # monomino placements: an orbit's cells under a symmetry)
    placed = collections.Counter(find(v) for v in alone) if monomers is not None else {}
    for r, val in value.items():
        if val and r in placed:
            monomers -= placed[r]  # monominoes placed
    if monomers is not None and monomers < 0:
        return _Graph(0, {}, zero=True)
    for r, us in ends.items():
        if r in value:
            continue  # a false edge is out; a true one took its vertices
        if len(us) > 2:
            return "its equalities join placements of more than two cells' constraints (not a graph)"
        if any(gone[u] for u in us):
            continue
        if len(us) == 1:
            u = next(iter(us))
            charge = placed.get(r, 0)
            if charge and not monomers:
                continue  # (no monomino left to place)
            sites[u] = sites.get(u, 0) + 1
            ways = charges.setdefault(u, {})
            ways[charge] = ways.get(charge, 0) + 1
        else:
            a, b = sorted(us)
            edges[(a, b)] = edges.get((a, b), 0) + 1
    keep = [i for i in range(n_vertices) if not gone[i]]
    index = {old: new for new, old in enumerate(keep)}
    return _Graph(len(keep), {(index[a], index[b]): m for (a, b), m in edges.items()},
                  sites={index[u]: m for u, m in sites.items()}, monomers=monomers or None,
                  charges={index[u]: ways for u, ways in charges.items()})


def _counts_apart(problem: Problem) -> tuple[list, set]:
    """``problem``'s constraints, with its counts told from its cells, and
    the counts it implies (``Problem.redundant``: a tiling leaves out the
    count of its most repeated piece, which the cells fix once the others'
    are), stated beside them.

    A piece used once is an ExactlyOne over its placements, the same
    constraint as a cell's.  A domino piece's placements each lie in two
    cells' constraints too, so the one ExactlyOne over exactly the
    placements that lie in three is that count: it becomes Exactly(1),
    which matching_graph takes as one (it refused one domino with
    monominoes, and monominoes alone, whose count is implied: QA)."""
    ones = [c for c in problem.constraints if isinstance(c, ExactlyOne)]
    seen = collections.Counter(v for c in ones for v in c.vars)
    three = frozenset(v for v, k in seen.items() if k == 3)
    constraints = list(problem.constraints)
    if three:
        piece = next((i for i, c in enumerate(constraints)
                      if isinstance(c, ExactlyOne) and frozenset(c.vars) == three), None)
        if piece is not None:
            constraints[piece] = Exactly(1, constraints[piece].vars)
    implied = {c for c in problem.redundant if isinstance(c, Exactly)} - set(constraints)
    return constraints + sorted(implied, key=lambda c: (c.k, c.vars)), implied


def _matched_around(c: Exactly, items: list[tuple[int, ...]], primary: set[int]) -> bool:
    """Whether every perfect matching has ``c.k`` of ``c``'s edges because
    the edges outside them are exactly those of some vertices, no two
    joined: each such vertex is matched once, and the matching has half the
    vertices' number of edges.  One domino with one monomino is this: the
    monomino's piece is a vertex joined to every cell, and the domino's
    count is the matching's edges but that one (QA)."""
    rest = primary - set(c.vars)
    inside = [vs for vs in items if rest.issuperset(vs)]
    return (len(items) % 2 == 0 and sum(map(len, inside)) == len(rest) == len(set().union(*inside))
            and c.k == len(items) // 2 - len(inside))


def _too_many(constraints: list, v: int) -> str:
    k = sum(1 for c in constraints if isinstance(c, ExactlyOne) and v in c.vars)
    return _not_two(k)


def _not_two(k: int) -> str:
    return (f"a variable is in {k} ExactlyOne constraint{'s' if k != 1 else ''}, not 2: "
            "the engine counts perfect matchings (dominoes, each placement on its two cells)")


def _components(g: _Graph) -> list[list[int]]:
    parent = list(range(g.n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in g.edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra
    groups: dict[int, list[int]] = {}
    for v in range(g.n):
        groups.setdefault(find(v), []).append(v)
    return list(groups.values())


class _Part:
    """One connected component of a problem's graph, ready to count."""

    def __init__(self, comp: list[int], emb, colour: dict[int, int] | None, sites: dict[int, int],
                 outer: int | None, adj: list[list[int]] | None = None, exactly: int | None = None):
        self.comp, self.emb, self.colour = comp, emb, colour
        #: {vertex: multiplicity} of the placements covering a vertex alone
        self.sites = sites
        #: the face (index in _faces' order) holding every site (with
        #: defects: the face their lines run to), or None
        self.outer = outer
        #: the component's own adjacency, when not the plan's (an apex's part)
        self.adj = adj
        #: how many sites a matching leaves to be covered alone, with
        #: defects as an apex's part (None: any number, or the plan's monominoes)
        self.exactly = exactly
        #: the sites in their order round the face that holds them, when its
        #: boundary walk passes each of them once (for _pair_formula), else None
        self.boundary: list[int] | None = None
        #: the sites are monominoes' cells, anywhere (_defect_sum), each
        #: with its defect line (_defect_lines)
        self.defects = False
        self.lines: dict[int, frozenset] = {}
        #: with defects, each site's {monominoes it takes: multiplicity}
        #: (_Graph.charges; 1 for every site unless a symmetry's)
        self.charges = {v: {1: m} for v, m in sites.items()}


class _Plan:
    """A problem's graph cut into components, each planar-embedded (or the
    reason it cannot be counted here)."""

    def __init__(self, problem: Problem):
        self.why: str | None = None
        self.zero = False
        #: the counts of components without an edge (a lone site's multiplicity)
        self.factor = 1
        self.parts: list[_Part] = []
        self.adj: list[list[int]] = []
        self.edges: dict[tuple[int, int], int] = {}
        #: monominoes counted together: how many, and the components holding
        #: some of their cells (parts with defects), or their lone cells'
        #: {monominoes: multiplicity}; the count is the coefficient of
        #: z^monomers in the product of their polynomials sum_S (S's ways
        #: of being covered alone) x (matchings without S)
        self.monomers: int | None = None
        self.monomer_parts: list[_Part] = []
        self.monomer_cells: list[dict[int, int]] = []
        g = matching_graph(problem)
        if isinstance(g, str):
            self.why = g
            return
        if g.zero:
            self.zero = True
            return
        import networkx as nx

        self.edges = g.edges
        adj: list[list[int]] = [[] for _ in range(g.n)]
        for a, b in g.edges:
            adj[a].append(b)
            adj[b].append(a)
        self.adj = adj
        self.monomers = g.monomers
        work = 0
        for comp in _components(g):
            sites = {v: g.sites[v] for v in comp if v in g.sites}
            if len(comp) == 1 and self.monomers is not None:
                if comp[0] in sites:
                    self.monomer_cells.append(g.charges[comp[0]])
                else:
                    self.zero = True
                continue
            if len(comp) == 1:
                self.factor *= sites.get(comp[0], 0)  # covered alone, or not at all
                continue
            if self.monomers is not None and sites:
                colour = _two_colouring(comp, adj)
                G = nx.Graph()
                G.add_edges_from((a, b) for a in comp for b in adj[a] if a < b)
                planar, emb = nx.check_planarity(G)
                if not planar:
                    self.why = "its graph (cells joined by the placements that cover both) is not planar"
                    return
                # (the face holding most of the monominoes' cells: they need no defect line)
                faces = _faces(comp, adj, emb)[0]
                outer = max(range(len(faces)), key=lambda i: len({a for a, _ in faces[i]} & sites.keys()))
                charges = {v: g.charges[v] for v in sites}
                free = [v for v in sites if 0 in charges[v]]  # (dominoes a mirror swaps)
                found = _site_face(G, comp, adj, free, nx) if len(free) >= CHARGED_PAIRS_FROM else None
                boundary = None
                if found is not None and found[2] is not None:
                    emb, outer, boundary = found
                part = _Part(comp, emb, colour, sites, outer)
                part.defects = True
                part.charges = charges
                part.boundary = boundary
                part.lines = _defect_lines(part, adj)
                if boundary is None:
                    work += sum(_defect_work(part, j, n, adj, g.edges)
                                for j, n in _charged_terms(part, self.monomers).items())
                else:
                    work += _pair_work(part, self.monomers, adj, g.edges)
                if work > MAX_DEFECT_WORK:
                    self.why = (f"{self.monomers} monominoes on {len(sites)} cells make determinants of "
                                f"{work:.2g} operations in all, more than the {MAX_DEFECT_WORK:.1e} this engine "
                                "takes")
                    return
                self.monomer_parts.append(part)
                continue
            # (the size first: a planarity test of a huge graph takes seconds)
            colour = _two_colouring(comp, adj)
            terms = _site_terms(comp, sites, colour)
            if terms == 0:
                self.zero = True  # no perfect matching (an odd component, or too few sites to even it)
                continue
            order = len(comp) // 2 if colour is not None else len(comp)
            if order > MAX_ORDER:
                self.why = (f"its determinant would have {order:,} rows, more than the {MAX_ORDER:,} "
                            "this engine takes")
                return
            G = nx.Graph()
            G.add_nodes_from(comp)
            G.add_edges_from((a, b) for a in comp for b in adj[a] if a < b)
            planar, emb = nx.check_planarity(G)
            if not planar:
                apex = None if sites else _apex_sum(comp, adj, g.edges, nx)
                if apex is None:
                    self.why = "its graph (cells joined by the placements that cover both) is not planar"
                    return
                self.parts.extend(apex[0])
                self.factor *= apex[1]
                continue
            outer = boundary = None
            if sites:
                found = _site_face(G, comp, adj, sites, nx)
                if found is None:
                    self.why = ("the cells a placement may cover alone (the symmetry maps it onto itself) "
                                "lie on no one face of its planar graph")
                    return
                emb, outer, boundary = found
            part = _Part(comp, emb, colour, sites, outer)
            part.boundary = boundary
            if terms > MAX_SITE_TERMS and part.boundary is None:
                self.why = (f"{len(sites)} cells a placement may cover alone (the symmetry maps it onto itself) "
                            f"make {terms:,} minors, more than the {MAX_SITE_TERMS:,} this engine takes")
                return
            self.parts.append(part)
        if self.zero or self.factor == 0:
            self.zero, self.parts, self.monomer_parts = True, [], []


def _site_face(G, comp: list[int], adj: list[list[int]], sites, nx):
    """An embedding of a connected planar component (networkx graph ``G``,
    left as it was) where one face holds every site, that face (its index in
    _faces' order), and the sites in their order round it when its walk
    passes each once (else None); None when no face holds them all.

    Taking out vertices of the unconstrained face keeps an orientation
    Pfaffian, so one orientation serves every term: the sites must lie on
    one face, and do in some embedding iff the graph with a vertex joined
    to each is planar (embed that, then take the vertex out: its face
    holds them)."""
    G.add_edges_from((-1, v) for v in sites)
    planar, emb = nx.check_planarity(G)
    G.remove_node(-1)
    if not planar:
        return None
    _remove_vertex(emb, -1)
    faces = _faces(comp, adj, emb)[0]
    walks = {i: emb.traverse_face(*f[0]) for i, f in enumerate(faces) if set(sites) <= {a for a, _ in f}}
    # one whose walk passes each site once, if one does: their order round
    # it is then the pair formula's
    once = [i for i, walk in walks.items()
            if all(n == 1 for v, n in collections.Counter(walk).items() if v in sites)]
    if not once:
        return emb, min(walks), None
    return emb, once[0], sorted(sites, key=walks[once[0]].index)


def _defect_work(part: _Part, j: int, terms: int, adj: list[list[int]],
                 edges: dict[tuple[int, int], int]) -> float:
    """About how much _defect_sum does for ``terms`` sets of j of a part's
    monomino cells: per prime (Hadamard's bound over 31 bits), per set,
    a determinant of the order _minors_by_inverse borders (the cells a
    set leaves out of one colour, and the entries its lines flip: about
    j lines of their mean length, twice that when the matrix is skew), or
    the whole minor's when the matrix is not square, and ~2,000 more."""
    if not terms:
        return 0.0
    comp, colour = part.comp, part.colour
    rows = [v for v in comp if colour[v] == 0] if colour is not None else comp
    bits = sum(0.5 * math.log2(max(1, sum(edges[(v, w) if v < w else (w, v)] ** 2 for w in adj[v]))) for v in rows)
    primes = 1 + bits / PRIME_BITS
    mean = sum(len(line) for line in part.lines.values()) / max(1, len(part.lines))
    if colour is None:
        order = j + 2 * j * mean
    elif 2 * len(rows) == len(comp):
        order = j / 2 + j * mean
    else:
        order = len(rows) - j
    return primes * terms * (order ** 3 + 2000)


def _pair_work(part: _Part, most: int, adj: list[list[int]], edges: dict[tuple[int, int], int]) -> float:
    """About how much _charged_pair_sum does: per set T of sites that
    monominoes cover, a minor for each pair of the boundary's sites (of
    two colours, when bipartite) and one more, each as _defect_work's
    for |T| + 2 cells."""
    k = len(part.boundary)
    pairs = 1 + (k * k // 4 if part.colour is not None else k * (k - 1) // 2)
    sizes = collections.Counter(len(T) for T, _ in _paid_sets(part, 0, most))
    return sum(_defect_work(part, j + 2, n * pairs, adj, edges) for j, n in sizes.items())


def _charged_terms(part: _Part, most: int) -> dict[int, int]:
    """For each j, how many sets of j of a part's sites leave it a chance
    of a perfect matching (an even number of vertices; as many of each
    colour) and may be covered alone with at most ``most`` monominoes."""
    colour = part.colour
    groups = collections.Counter((colour[v] if colour is not None else 0, min(part.charges[v]))
                                 for v in part.sites)
    states = {(0, 0, 0): 1}  # (sites, of colour 0, fewest monominoes): sets
    for (c, least), n in groups.items():
        grown: dict[tuple[int, int, int], int] = collections.defaultdict(int)
        for (j, b, m), count in states.items():
            for t in range(n + 1):
                if m + t * least > most:
                    break
                grown[(j + t, b + t * (c == 0), m + t * least)] += count * math.comb(n, t)
        states = grown
    excess = sum(1 if colour[v] == 0 else -1 for v in part.comp) if colour is not None else 0
    terms: dict[int, int] = {}
    for (j, b, _), count in states.items():
        if (2 * b - j == excess) if colour is not None else (len(part.comp) - j) % 2 == 0:
            terms[j] = terms.get(j, 0) + count
    return terms


def _charged_sets(part: _Part, j: int, least: int, most: int):
    """Each set S of j of a part's sites that _charged_terms counts and
    that may take from ``least`` to ``most`` monominoes, with its ways
    {monominoes: multiplicity} (the product of its sites' within that
    range).  Drawn by colour (as many of each as even the graph) and by
    whether a site may take no monomino (the others, at most ``most``)."""
    import itertools

    colour, charges = part.colour, part.charges
    if colour is None:
        if (len(part.comp) - j) % 2:
            return
        shades, blacks = [0], [j]  # (one class, all of it)
    else:
        excess = sum(1 if colour[v] == 0 else -1 for v in part.comp)
        if (j + excess) % 2 or not 0 <= (j + excess) // 2 <= j:
            return
        shades, blacks = [0, 1], [(j + excess) // 2, j - (j + excess) // 2]
    shade = (lambda v: 0) if colour is None else colour.__getitem__
    free = [[v for v in sorted(part.sites) if 0 in charges[v] and shade(v) == c] for c in shades]
    paid = [[v for v in sorted(part.sites) if 0 not in charges[v] and shade(v) == c] for c in shades]
    cheapest = {v: min(charges[v]) for v in part.sites}
    single = all(len(ways) == 1 for ways in charges.values())
    for split in itertools.product(*(range(n + 1) for n in blacks)):
        # (split: how many paid sites of each class; the rest of the class free)
        if sum(split) > most or any(n - p > len(f) or p > len(q)
                                    for n, p, f, q in zip(blacks, split, free, paid)):
            continue
        for some in itertools.product(*(itertools.combinations(q, p) for q, p in zip(paid, split))):
            some = sum(some, ())
            if sum(cheapest[v] for v in some) > most:
                continue
            for rest in itertools.product(*(itertools.combinations(f, n - p)
                                            for f, n, p in zip(free, blacks, split))):
                chosen = some + sum(rest, ())
                if single:
                    m = sum(cheapest[v] for v in chosen)
                    if least <= m <= most:
                        yield frozenset(chosen), {m: math.prod(charges[v][cheapest[v]] for v in chosen)}
                    continue
                ways = _ways(chosen, charges, least, most)
                if ways:
                    yield frozenset(chosen), ways


def _ways(chosen, charges: dict[int, dict[int, int]], least: int, most: int) -> dict[int, int]:
    """A set of sites' ways {monominoes: multiplicity} (the product of its
    sites' ``charges``), from ``least`` to ``most`` monominoes."""
    ways = {0: 1}
    for v in chosen:
        ways = _times(ways, charges[v], most)
    return {m: w for m, w in ways.items() if m >= least}


def _times(a: dict[int, int], b: dict[int, int], most: int) -> dict[int, int]:
    """The product of two polynomials {degree: coefficient}, up to degree ``most``."""
    out: dict[int, int] = {}
    for d, x in a.items():
        for e, y in b.items():
            if d + e <= most:
                out[d + e] = out.get(d + e, 0) + x * y
    return out


#: vertices of a non-planar component's Kuratowski subgraph tried as its
#: apex, after the vertex of highest degree (see _apex for their order)
APEX_TRIES = 24


def _apex(comp: list[int], adj: list[list[int]], nx):
    """A vertex a of the component whose removal leaves it planar, and the
    graph without it (networkx), or None.  Tried first: the vertex of
    highest degree, a monomino's piece joined to every cell.  Not always
    that one: restricted to 4 representative cells (a count up to
    symmetry), the piece has 4 edges and the cells beside it 5, and such a
    cell was taken, leaving the graph non-planar (a 3 x 7 board with one
    monomino was refused as "not planar", QA).  Then the vertices of a
    Kuratowski subgraph, which every apex is one of."""

    def without(a):
        rest = [v for v in comp if v != a]
        H = nx.Graph()
        H.add_nodes_from(rest)
        H.add_edges_from((u, w) for u in rest for w in adj[u] if u < w and w != a)
        return H

    first = max(comp, key=lambda v: len(adj[v]))
    H = without(first)
    if nx.check_planarity(H)[0]:
        return first, H
    G = nx.Graph()
    G.add_edges_from((u, w) for u in comp for w in adj[u] if u < w)
    _, kuratowski = nx.check_planarity(G, counterexample=True)
    # its branch vertices first (an apex's piece may have no more edges
    # than a cell: 4 representative cells), then by their edges
    tried = sorted((v for v in kuratowski.nodes if v != first),
                   key=lambda v: (kuratowski.degree(v) < 3, -len(adj[v]), v))
    for a in tried[:APEX_TRIES]:
        H = without(a)
        if nx.check_planarity(H)[0]:
            return a, H
    return None


def _apex_sum(comp: list[int], adj: list[list[int]], edges: dict[tuple[int, int], int],
              nx) -> tuple[list[_Part], int] | None:
    """A component with an apex a (a vertex whose removal leaves it planar,
    :func:`_apex`: a monomino's piece, joined to every cell) as
    the sum over a's edges (a, v) of the matchings of the rest without v:
    the items whose counts multiply, and a factor; None when the rest is
    not planar.  The rest's piece of an odd number of vertices (the only
    one a can be matched into; none or several: factor 0) is a part whose
    sites are a's neighbours, one of them covered alone (defect lines,
    _defect_sum); a lone vertex is the factor; each other piece is matched
    alone."""
    found = _apex(comp, adj, nx)
    if found is None:
        return None
    a, H = found
    sub = [[w for w in adj[v] if w != a] if v != a else [] for v in range(len(adj))]
    pieces = [sorted(c) for c in nx.connected_components(H)]
    odd = [c for c in pieces if len(c) % 2]
    if len(odd) != 1:
        return [], 0
    items: list[_Part] = []
    factor = 1
    for piece in pieces:
        uncovered = {v: edges[(a, v) if a < v else (v, a)] for v in adj[a] if v in set(piece)}
        if len(piece) == 1:
            factor *= uncovered.get(piece[0], 0)
            continue
        planar, emb = nx.check_planarity(H.subgraph(piece))
        if not planar:
            return None
        colour = _two_colouring(piece, sub)
        if piece is not odd[0]:
            items.append(_Part(piece, emb, colour, {}, None, sub))
            continue
        if not uncovered:
            return [], 0  # (the monomino covers no cell of the odd piece)
        # the apex's neighbours as one monomino's cells (defect lines)
        faces = _faces(piece, sub, emb)[0]
        outer = max(range(len(faces)), key=lambda i: len({u for u, _ in faces[i]} & uncovered.keys()))
        part = _Part(piece, emb, colour, uncovered, outer, sub, exactly=1)
        part.defects = True
        part.lines = _defect_lines(part, sub)
        items.append(part)
    return items, factor


def _remove_vertex(emb, x) -> None:
    """Take vertex ``x`` out of a networkx PlanarEmbedding, joining each
    neighbour's rotation round the gap (done here: networkx's own
    remove_node keeps the rotations only in its later versions)."""
    import networkx as nx

    for u in list(emb.neighbors(x)):
        cw, ccw = emb[u][x]["cw"], emb[u][x]["ccw"]
        if cw != x:
            emb[u][ccw]["cw"] = cw
            emb[u][cw]["ccw"] = ccw
    nx.DiGraph.remove_node(emb, x)


def _site_terms(comp: list[int], sites: dict[int, int], colour: dict[int, int] | None) -> int:
    """How many sets S of sites leave the component a chance of a perfect
    matching: as many vertices of each colour (bipartite), or an even
    number (not); _charged_terms counts monominoes' sets by size."""
    if colour is None:
        if not sites:
            return 1 - len(comp) % 2
        return 2 ** (len(sites) - 1)
    excess = sum(1 if colour[v] == 0 else -1 for v in comp)
    black = sum(1 for v in sites if colour[v] == 0)
    white = len(sites) - black
    return sum(math.comb(black, k + excess) * math.comb(white, k) for k in range(white + 1) if k + excess >= 0)


def _site_sets(comp: list[int], sites: dict[int, int], colour: dict[int, int] | None):
    """Each set S that _site_terms counts, with its weight (the product of
    its sites' multiplicities)."""
    import itertools

    vs = sorted(sites)
    if colour is None:
        for k in range(len(comp) % 2, len(vs) + 1, 2):
            for s in itertools.combinations(vs, k):
                yield frozenset(s), math.prod(sites[v] for v in s)
        return
    excess = sum(1 if colour[v] == 0 else -1 for v in comp)
    black = [v for v in vs if colour[v] == 0]
    white = [v for v in vs if colour[v] == 1]
    for k in range(len(white) + 1):
        if not 0 <= k + excess <= len(black):
            continue
        for sw in itertools.combinations(white, k):
            for sb in itertools.combinations(black, k + excess):
                yield frozenset(sb + sw), math.prod(sites[v] for v in sb + sw)


def _two_colouring(comp: list[int], adj: list[list[int]]) -> dict[int, int] | None:
    colour = {comp[0]: 0}
    stack = [comp[0]]
    while stack:
        u = stack.pop()
        for w in adj[u]:
            if w not in colour:
                colour[w] = 1 - colour[u]
                stack.append(w)
            elif colour[w] == colour[u]:
                return None
    return colour


def _faces(comp: list[int], adj: list[list[int]], emb):
    """The faces of a connected planar component's embedding, each as the
    list of its half-edges (every face walked the same way round), and the
    face of each half-edge."""
    face_of: dict[tuple[int, int], int] = {}
    faces: list[list[tuple[int, int]]] = []
    for u in comp:
        for w in adj[u]:
            if (u, w) not in face_of:
                half: set[tuple[int, int]] = set()
                emb.traverse_face(u, w, mark_half_edges=half)
                for h in half:
                    face_of[h] = len(faces)
                faces.append(sorted(half))
    return faces, face_of


def pfaffian_orientation(comp: list[int], adj: list[list[int]], emb, outer: int = 0) -> dict[tuple[int, int], bool]:
    """For each edge (u, v) with u < v of a connected planar component: True
    when it points u -> v, in an orientation where every face but ``outer``
    (an index in _faces' order) has an odd number of edges pointing along
    its boundary walk (FKT)."""
    orient: dict[tuple[int, int], bool] = {}

    def key(a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)

    # a spanning tree, oriented parent -> child
    root = comp[0]
    seen = {root}
    queue = [root]
    for u in queue:
        for w in adj[u]:
            if w not in seen:
                seen.add(w)
                queue.append(w)
                orient[key(u, w)] = u < w
    faces, face_of = _faces(comp, adj, emb)
    n_edges = sum(len(adj[u]) for u in comp) // 2
    if len(faces) != n_edges - len(comp) + 2:
        raise BackendError(f"kasteleyn: the embedding has {len(faces)} faces where Euler's formula wants "
                           f"{n_edges - len(comp) + 2}")
    # the edges off the tree join the faces in a tree: walk it from the outer face
    dual: list[list[tuple[int, tuple[int, int]]]] = [[] for _ in faces]
    for u in comp:
        for w in adj[u]:
            if u < w and key(u, w) not in orient:
                f, g = face_of[(u, w)], face_of[(w, u)]
                dual[f].append((g, (u, w)))
                dual[g].append((f, (u, w)))
    parent_edge: dict[int, tuple[int, int]] = {}
    reached = {outer}
    order = [outer]
    for f in order:
        for g, e in dual[f]:
            if g not in reached:
                reached.add(g)
                order.append(g)
                parent_edge[g] = e
    if len(reached) != len(faces):
        raise BackendError("kasteleyn: the edges off the spanning tree do not join every face")
    for f in reversed(order[1:]):
        u, w = parent_edge[f]
        along = 0
        for a, b in faces[f]:
            k = key(a, b)
            if k != (u, w) and k in orient and orient[k] == (a < b):
                along += 1
        # the face's half-edge of this edge: point it along the walk iff that makes the count odd
        a, b = (u, w) if (u, w) in faces[f] else (w, u)
        orient[(u, w)] = (a < b) if along % 2 == 0 else (a > b)
    return orient


# ------------------------------------------------------------ determinants


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in (2, 3, 5, 7, 11, 13, 17):  # deterministic far beyond 2**31
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _primes():
    p = (1 << PRIME_BITS) - 1
    while True:
        if _is_prime(p):
            yield p
        p -= 2


def _det_mod(entries: list[tuple[int, int, int]], n: int, p: int, np, ask) -> int:
    """det mod p of the n x n matrix with the given (row, column, value)
    entries, by elimination with row pivoting inside its band."""
    A = np.zeros((n, n), dtype=np.int64)
    lower = upper = 0
    for i, j, x in entries:
        A[i, j] = x % p
        if i > j:
            lower = max(lower, i - j)
        else:
            upper = max(upper, j - i)
    det = 1
    for k in range(n):
        if k % 256 == 255:
            ask()
        hi_row = min(n, k + lower + 1)
        hi_col = min(n, k + lower + upper + 1)
        col = A[k:hi_row, k]
        nz = np.flatnonzero(col)
        if nz.size == 0:
            return 0
        r = k + int(nz[0])
        if r != k:
            A[[k, r], k:hi_col] = A[[r, k], k:hi_col]
            det = -det
        piv = int(A[k, k])
        det = det * piv % p
        below = k + 1 + np.flatnonzero(A[k + 1:hi_row, k])
        if below.size:
            f = A[below, k] * pow(piv, p - 2, p) % p
            A[below, k:hi_col] = (A[below, k:hi_col] - f[:, None] * A[k, k:hi_col]) % p
    return det % p


def _residues(entries: list[tuple[int, int, int]], shape: tuple[int, int], p: int, np):
    """The dense matrix of the (row, column, value) entries modulo p
    (entries at one place added), padded with zeros to ``shape``."""
    A = np.zeros(shape, dtype=np.int64)
    for i, j, x in entries:
        A[i, j] = (A[i, j] + x) % p
    return A


def _row_norms(entries: list[tuple[int, int, int]], n: int) -> list[int]:
    """Each row's squared Euclidean norm, from its (row, column, value) entries."""
    norms = [0] * n
    for i, _, x in entries:
        norms[i] += x * x
    return norms


def _hadamard_bits(norms: list[int]) -> float:
    """Bits enough for any minor of the matrix: Hadamard's bound on |det|
    (a zero row counted as norm 1), and two more (the sign takes one)."""
    return sum(0.5 * math.log2(max(1, s)) for s in norms) + 2


def exact_det(entries: list[tuple[int, int, int]], n: int, ask=lambda: None) -> tuple[int, int]:
    """The determinant of an integer n x n matrix given by its nonzero
    entries, exactly (and how many primes it took): residues modulo primes
    below 2**31, as many as Hadamard's bound needs, joined by the Chinese
    remainder theorem.  ``ask()`` is called now and then (it may raise to
    stop)."""
    import numpy as np

    if n == 0:
        return 1, 0
    norms = _row_norms(entries, n)
    if any(s == 0 for s in norms):
        return 0, 0
    bits = _hadamard_bits(norms)
    modulus, value, used = 1, 0, 0
    for p in _primes():
        ask()
        r = _det_mod(entries, n, p, np, ask)
        # join: value = r (mod p), value = old (mod modulus)
        t = (r - value) * pow(modulus, -1, p) % p
        value += modulus * t
        modulus *= p
        used += 1
        if modulus.bit_length() > bits + 1:
            break
    if value > modulus // 2:
        value -= modulus
    return value, used


def _bfs_rank(comp: list[int], adj: list[list[int]]) -> dict[int, int]:
    """A breadth-first order from a far vertex (Cuthill-McKee), neighbours by
    degree: on a grid each vertex's neighbours are about a row's length away,
    so the matrix is a band that wide."""
    def bfs(start: int) -> list[int]:
        seen = {start}
        out = [start]
        for u in out:
            for w in sorted(adj[u], key=lambda x: len(adj[x])):
                if w not in seen:
                    seen.add(w)
                    out.append(w)
        return out

    start = min(comp, key=lambda v: len(adj[v]))
    for _ in range(2):
        start = bfs(start)[-1]
    return {v: i for i, v in enumerate(bfs(start))}


def _matchings(det: int, bipartite: bool, fault: str = "the orientation") -> int:
    """The perfect matchings a minor counts: |det K| (bipartite), or the
    Pfaffian sqrt|det A| of a skew matrix, which not coming out a perfect
    square would mean a fault here (in ``fault``): raised, not rounded."""
    if bipartite:
        return abs(det)
    root = math.isqrt(abs(det))
    if root * root != abs(det):
        raise BackendError(f"kasteleyn: det = {det} is not the square of a Pfaffian (a fault in {fault})")
    return root


def count_component(part: _Part, adj: list[list[int]], edges: dict[tuple[int, int], int],
                    ask=lambda: None, schur_from: int | None = None,
                    pairs_from: int | None = None) -> tuple[int, dict]:
    """The number of perfect matchings of one connected planar component,
    with sites: the sum over the sets S of sites left to be covered alone
    of (their multiplicities' product) x (the matchings of the rest).  The
    orientation leaves the face holding every site unconstrained, so taking
    S out keeps it Pfaffian and each term is a minor of one matrix: a
    determinant each (banded) when they are few, else all of them from one
    elimination per prime (_minor_sums; ``schur_from``: from how many
    terms, SCHUR_FROM unless given).  From ``pairs_from`` terms
    (PAIRS_FROM unless given), when the sites' face passes each of them once,
    the sum comes instead from the pairs' minors and one Pfaffian
    (_pair_formula, after _pendants)."""
    if part.defects:
        ways, info = _defect_sum(part, part.exactly, adj, edges, ask, least=part.exactly, most=part.exactly)
        return ways.get(part.exactly, 0), info
    comp, colour = part.comp, part.colour
    adj = part.adj or adj
    orient = pfaffian_orientation(comp, adj, part.emb, part.outer or 0)
    rank = _bfs_rank(comp, adj)
    order = sorted(comp, key=rank.get)
    rows, cols, ri, ci, entries = _matrix(order, colour, orient, edges)
    n_terms = _site_terms(comp, part.sites, colour) if part.sites else 1
    if part.boundary is not None and n_terms >= (
            PAIRS_FROM if pairs_from is None else pairs_from):
        import numpy as np

        for flip in _pendants(part):
            # the matchings without the flipped sites: none, and this choice
            # cannot start the formula (a residue mod one prime; a false 0
            # only skips a choice)
            keep_r = [i for i, v in enumerate(rows) if v not in flip]
            keep_c = [j for j, v in enumerate(cols) if v not in flip]
            nr = {old: new for new, old in enumerate(keep_r)}
            nc = {old: new for new, old in enumerate(keep_c)}
            if len(keep_r) != len(keep_c) or not _det_mod(
                    [(nr[i], nc[j], x) for i, j, x in entries if i in nr and j in nc], len(keep_r),
                    next(_primes()), np, ask):
                continue
            found = _pair_formula(part, flip, order, orient, edges, ask)
            if found is not None:
                return found
        if n_terms > MAX_SITE_TERMS:
            raise BackendError(f"kasteleyn: {len(part.sites)} cells a placement may cover alone make {n_terms:,} "
                               f"minors, more than the {MAX_SITE_TERMS:,} this engine takes, and no matching "
                               "without some of them starts the pair formula")
    sets = []
    for s in _site_sets(comp, part.sites, colour) if part.sites else [(frozenset(), 1)]:
        sets.append(s)
        if len(sets) % 4096 == 0:
            ask()
    info: dict = {"bipartite": colour is not None, "terms": len(sets), "order": len(rows)}
    if len(sets) >= (SCHUR_FROM if schur_from is None else schur_from):
        terms = []
        for t, (gone, w) in enumerate(sets):
            if t % 4096 == 4095:
                ask()
            terms.append(([ri[v] for v in gone if v in ri], [ci[v] for v in gone if v in ci], w))
        site_rows = {ri[v] for v in part.sites if v in ri}
        site_cols = {ci[v] for v in part.sites if v in ci}
        values, info["primes"] = _minor_sums(entries, len(rows), len(cols), site_rows, site_cols, terms, ask)
    else:
        values, info["primes"] = [], 0
        for gone, _ in sets:
            keep_r = [i for i, v in enumerate(rows) if v not in gone]
            keep_c = [i for i, v in enumerate(cols) if v not in gone]
            if len(keep_r) != len(keep_c):
                values.append(0)
                continue
            nr = {old: new for new, old in enumerate(keep_r)}
            nc = {old: new for new, old in enumerate(keep_c)}
            det, primes = exact_det([(nr[i], nc[j], x) for i, j, x in entries if i in nr and j in nc],
                                    len(keep_r), ask)
            values.append(det)
            info["primes"] += primes
    total = sum(weight * _matchings(det, colour is not None) for (_, weight), det in zip(sets, values))
    return total, info


def _matrix(order: list[int], colour: dict[int, int] | None, orient: dict[tuple[int, int], bool],
            edges: dict[tuple[int, int], int], pendants: dict[int, int] | None = None):
    """The component's signed matrix: rows, columns, their indices, and the
    (row, column, value) entries: the skew adjacency A, or, bipartite, its
    block K (rows of colour 0, columns of colour 1).  ``pendants``: {site s:
    multiplicity}, each a new vertex ~s joined to s alone by that many
    edges, in the unconstrained face (so the orientation stays Pfaffian)
    and next to s in the order (so the band stays narrow)."""
    pendants = pendants or {}
    if pendants:
        order = [x for v in order for x in ((v, ~v) if v in pendants else (v,))]
    if colour is not None:
        rows = [v for v in order if (colour[v] if v >= 0 else 1 - colour[~v]) == 0]
        cols = [v for v in order if (colour[v] if v >= 0 else 1 - colour[~v]) == 1]
    else:
        rows = cols = order
    ri = {v: i for i, v in enumerate(rows)}
    ci = {v: i for i, v in enumerate(cols)}
    entries = []
    signed = [((a, b), edges[(a, b)] if up else -edges[(a, b)]) for (a, b), up in orient.items()]  # a -> b
    for (a, b), sign in signed + [((s, ~s), w) for s, w in pendants.items()]:
        if colour is None:
            entries.append((ri[a], ci[b], sign))
            entries.append((ri[b], ci[a], -sign))
        elif a in ri:
            entries.append((ri[a], ci[b], sign))
        else:
            entries.append((ri[b], ci[a], -sign))
    return rows, cols, ri, ci, entries


#: how many choices of sites to flip _pendants offers
PENDANT_TRIES = 4


def _pendants(part: _Part, gone: frozenset = frozenset()):
    """Sets F of sites to flip for _pair_formula, the fewest that can
    leave a graph of an even number of vertices, as many of each colour
    (bipartite), and a few alternatives; with ``gone``, for the graph
    without those vertices, and none holding one of them (drawn from the
    whole boundary first, so that most sets gone share them, then from
    what they leave of it: none then means that no set of the sites left
    evens the graph).

    Flipping a site s (a new vertex ~s joined to s alone by s's
    multiplicity; ~s a site of multiplicity 1, s not one) keeps the sum:
    a set holding ~s is one without s (s covered by another edge), a set
    without ~s is one with s (~s covers s).  So a graph whose sites must
    leave an odd number of vertices (an odd half board's mirror) gets an
    even one, and a graph with no matching without its sites may get one
    with."""
    if part.colour is None:
        need = [(len(part.comp) - len(gone)) % 2]
        more = 2  # (flips beyond the fewest: two at a time, to keep the parity)
    else:
        excess = sum(1 if part.colour[v] == 0 else -1 for v in part.comp if v not in gone)
        need = [max(excess, 0), max(-excess, 0)]
        more = 1  # (one of each colour)
    tried = []
    for sites in ([part.boundary, [v for v in part.boundary if v not in gone]] if gone else [part.boundary]):
        if part.colour is None:
            groups = [list(sites)]
        else:
            groups = [[v for v in sites if part.colour[v] == c] for c in (0, 1)]
        for extra in (0, more):
            for t in range(PENDANT_TRIES):
                flip = set()
                for g, k in zip(groups, need):
                    k += extra
                    if k > len(g):
                        break
                    step = max(1, len(g) // PENDANT_TRIES)
                    flip |= {g[(t * step + i) % len(g)] for i in range(k)}
                else:
                    if flip not in tried and not flip & gone:
                        tried.append(flip)
                        yield frozenset(flip)
                if len(tried) >= PENDANT_TRIES:
                    return


def _defect_lines(part: _Part, adj: list[list[int]]) -> dict[int, frozenset]:
    """For each site x of a part with defects: the edges a path in the dual
    crosses from a face at x to the unconstrained face (none when x is on
    it), along one tree of the dual.

    Taking a vertex x off the inside of a planar graph merges the faces
    round it into one whose count of edges along its walk has the wrong
    parity; changing the sign of the edges such a line crosses puts it
    right and leaves every face the line enters and leaves as it was.  So
    for any set S, the orientation with the lines of S's vertices flipped
    (an edge on two lines flipped twice) is Pfaffian for the graph without
    S (checked against enumeration on random boards of three lattices, for
    sets of one to four vertices)."""
    faces, face_of = _faces(part.comp, adj, part.emb)
    up: dict[int, tuple[int, tuple[int, int]] | None] = {part.outer: None}
    queue = [part.outer]
    for f in queue:
        for a, b in faces[f]:
            g = face_of[(b, a)]
            if g not in up:
                up[g] = (f, (a, b) if a < b else (b, a))
                queue.append(g)
    free = {a for a, _ in faces[part.outer]}
    lines = {}
    for x in part.sites:
        crossed: set[tuple[int, int]] = set()
        f = None if x in free else face_of[(x, adj[x][0])]
        while f is not None and up[f] is not None:
            f, e = up[f]
            crossed ^= {e}
        lines[x] = frozenset(crossed)
    return lines


def _defect_sum(part: _Part, j: int, adj: list[list[int]], edges: dict[tuple[int, int], int],
                ask=lambda: None, by_inverse: bool | None = None, least: int = 0,
                most: int | None = None) -> tuple[dict[int, int], dict]:
    """The sum, over the sets S of j of a part's monomino cells (sites)
    covered alone by ``least`` to ``most`` monominoes (j unless given), of
    S's ways (_charged_sets) times the perfect matchings of the part
    without S, as {monominoes: count}: each a determinant of the one
    matrix without S's rows and columns, S's defect lines flipped
    (_defect_lines), exact modulo enough primes (_minors: ``by_inverse``
    False forces whole minors)."""
    comp, colour = part.comp, part.colour
    adj = part.adj or adj
    draw = _charged_sets(part, j, least, j if most is None else most)
    sets = list(itertools.islice(draw, DEFECT_CHUNK))
    info: dict = {"bipartite": colour is not None, "terms": 0, "primes": 0}
    total: dict[int, int] = {}
    if not sets:
        return total, info
    orient = pfaffian_orientation(comp, adj, part.emb, part.outer)
    lines = part.lines if j else {}
    rows, cols, ri, ci, entries = _matrix(sorted(comp), colour, orient, edges)
    cells = _cells(ri, ci, colour is None, orient)
    bits = _hadamard_bits(_row_norms(entries, len(rows)))
    while sets:
        # (a chunk at a time: a million sets' terms held at once took gigabytes)
        terms = []
        for t, (gone, _) in enumerate(sets):
            if t % 1024 == 1023:
                ask()
            terms.append(_term(gone, _crossed(gone, lines), ri, ci, cells))
        info["order"] = len(rows) - len(terms[0][0])
        values, primes, info["route"] = _minors(entries, len(rows), len(cols), terms, colour is None, bits,
                                                ask, by_inverse)
        info["primes"] += primes
        info["terms"] += len(sets)
        for (_, ways), det in zip(sets, values):
            if det:
                n = _matchings(det, colour is not None, "the defect lines")
                for m, w in ways.items():
                    total[m] = total.get(m, 0) + w * n
        sets = list(itertools.islice(draw, DEFECT_CHUNK))
    return total, info


def _minors(entries, n_rows: int, n_cols: int, terms, skew: bool, bits: float, ask,
            by_inverse: bool | None = None) -> tuple[list[int], int, str]:
    """Each term's minor (rows and columns left out, the entries at its
    cells negated; every term leaving out as many rows, and as many
    columns), up to sign, below 2**bits: by the first route that applies
    (_minors_by_inverse, _minors_by_border, _minors_by_stacks; ``by_inverse``
    False: the last); the primes it took, and the route's name."""
    import numpy as np

    found = None
    if by_inverse is not False and n_rows == n_cols and _det_mod(entries, n_rows, next(_primes()), np, ask):
        found, route = _minors_by_inverse(entries, n_rows, terms, bits, ask), "inverse"
    elif by_inverse is not False:
        found, route = _minors_by_border(entries, n_rows, n_cols, terms, skew, bits, ask), "border"
    if found is None:
        found, route = _minors_by_stacks(entries, n_rows, n_cols, terms, bits, ask), "stacks"
    return found[0], found[1], route


def _crossed(gone, lines: dict[int, frozenset]) -> set:
    """The edges that the defect lines of the vertices ``gone`` flip (an
    edge on two lines not at all)."""
    crossed: set = set()
    for x in gone:
        crossed ^= lines.get(x, frozenset())
    return crossed


def _cells(ri: dict, ci: dict, skew: bool, edges) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """For each edge (a, b), a < b, the matrix's cells it puts an entry in
    (two when skew, else the one in its row of colour 0)."""
    out = {}
    for a, b in edges:
        if skew:
            out[(a, b)] = [(ri[a], ci[b]), (ri[b], ci[a])]
        else:
            out[(a, b)] = [(ri[a], ci[b]) if a in ri else (ri[b], ci[a])]
    return out


def _term(gone, crossed, ri: dict, ci: dict, cells: dict) -> tuple[list[int], list[int], list[tuple[int, int]]]:
    """A minor as the routes take it (_minors): the rows and columns the
    vertices ``gone`` leave out, and the matrix's ``cells`` of the
    ``crossed`` edges (not on a vertex gone), to negate."""
    return ([ri[v] for v in gone if v in ri], [ci[v] for v in gone if v in ci],
            [c for e in crossed if e[0] not in gone and e[1] not in gone for c in cells[e]])


def _paid_sets(part: _Part, least: int, most: int):
    """Each set T of a part's sites that monominoes may cover (a class of
    them each), from ``least`` to ``most`` monominoes in all, with its ways
    {monominoes: multiplicity}."""
    import itertools

    paid = {v: {m: c for m, c in part.charges[v].items() if m} for v in sorted(part.sites)}
    paid = {v: ways for v, ways in paid.items() if ways}
    cheapest = {v: min(ways) for v, ways in paid.items()}
    for j in range(most + 1):
        for some in itertools.combinations([v for v in paid if cheapest[v] <= most], j):
            if sum(cheapest[v] for v in some) > most:
                continue
            ways = _ways(some, paid, least, most)
            if ways:
                yield frozenset(some), ways


def _charged_pair_sum(part: _Part, adj: list[list[int]], edges: dict[tuple[int, int], int],
                      ask=lambda: None, least: int = 0, most: int = 0) -> tuple[dict[int, int], dict]:
    """A part's sum (as _defect_sum's, over every size of set at once)
    when many of its sites may be covered alone by no monomino (dominoes a
    mirror swaps, on its axis) and lie round the free face, passing once
    each (part.boundary): for each set T that monominoes cover
    (_paid_sets), the sum over the sets of the other boundary sites is
    _pair_formula's on the graph without T, T's defect lines flipped (so
    each minor is one of the one matrix): C(k, 2) + 1 minors for T, where
    the sets are 2^k.  The sites flipped to start it (_pendants) depend on
    T; the T of one choice share a matrix.  A T that no choice starts (every
    M(G - T) 0) has its sets summed one by one."""
    comp, colour = part.comp, part.colour
    adj = part.adj or adj
    skew = colour is None
    charges = part.charges
    orient = pfaffian_orientation(comp, adj, part.emb, part.outer)
    order = sorted(comp)
    info: dict = {"bipartite": not skew, "terms": 0, "primes": 0, "order": 0, "flipped": 0}
    total: dict[int, int] = {}

    def add(ways: dict[int, int], n: int) -> None:
        if not n:
            return
        for m, w in ways.items():
            total[m] = total.get(m, 0) + w * n

    def shade(v: int) -> int:
        return colour[v] if v >= 0 else 1 - colour[~v]

    # (a T with no choice at all is one that no set of the other sites evens: 0)
    pending = [(T, ways, choices) for T, ways in _paid_sets(part, least, most)
               for choices in [list(_pendants(part, T))] if choices]
    whole_sets = []  # (the T that no choice started)
    for attempt in range(PENDANT_TRIES):
        groups: dict[frozenset, list] = {}
        for item in pending:
            if attempt < len(item[2]):
                groups.setdefault(item[2][attempt], []).append(item)
            else:
                whole_sets.append(item)
        pending = []
        for flip, group in groups.items():
            ask()
            rows, cols, ri, ci, entries = _matrix(order, colour, orient, edges,
                                                  {v: charges[v][0] for v in flip})
            cells = _cells(ri, ci, skew, orient)
            terms: list = []
            where = []
            for T, ways, choices in group:
                if len(where) % 64 == 63:
                    ask()
                sites = [~v if v in flip else v for v in part.boundary if v not in T]
                crossed = _crossed(T, part.lines)
                at = len(terms)
                terms.append(_term(T, crossed, ri, ci, cells))
                pairs = [(i, j) for i in range(len(sites)) for j in range(i + 1, len(sites))
                         if skew or shade(sites[i]) != shade(sites[j])]
                terms += [_term(T | {sites[i], sites[j]}, crossed, ri, ci, cells) for i, j in pairs]
                where.append((T, ways, choices, sites, at, pairs))
            bits = _hadamard_bits(_row_norms(entries, len(rows)))
            values, primes = _square_minors(entries, len(rows), len(cols), terms, skew, bits, ask)
            info["primes"] += primes
            info["terms"] += len(terms)
            info["order"] = max(info["order"], len(rows))
            for T, ways, choices, sites, at, pairs in where:
                whole = _matchings(values[at], not skew)
                if whole == 0:
                    pending.append((T, ways, choices))
                    continue
                pair = {ij: _matchings(values[at + 1 + t], not skew) for t, ij in enumerate(pairs)}
                n, primes = _kuo(whole, pair, [1 if v < 0 else charges[v][0] for v in sites], bits, ask)
                info["primes"] += primes
                info["flipped"] = max(info["flipped"], len(flip))
                add(ways, n)
        if not pending:
            break
    whole_sets += pending
    if whole_sets:
        # each set of the other sites whole (_site_sets), from the matrix without flips
        rows, cols, ri, ci, entries = _matrix(order, colour, orient, edges)
        cells = _cells(ri, ci, skew, orient)
        bits = _hadamard_bits(_row_norms(entries, len(rows)))
        for T, ways, _ in whole_sets:
            rest = [v for v in part.comp if v not in T]
            free = {v: charges[v][0] for v in part.boundary if v not in T}
            sets = []
            for S, w in _site_sets(rest, free, colour):
                sets.append((S, w))
                if len(sets) > MAX_SITE_TERMS:
                    raise BackendError(f"kasteleyn: no choice of flipped sites starts the pair formula for a set "
                                       f"of {len(T)} monomino cells, and its other sites make more than "
                                       f"{MAX_SITE_TERMS:,} sets")
            if not sets:
                continue
            crossed = _crossed(T, part.lines)
            terms = [_term(T | S, crossed, ri, ci, cells) for S, _ in sets]
            got, primes = _square_minors(entries, len(rows), len(cols), terms, skew, bits, ask)
            info["primes"] += primes
            info["terms"] += len(terms)
            add(ways, sum(w * _matchings(x, not skew) for (_, w), x in zip(sets, got)))
    return total, info


def _square_minors(entries, n_rows: int, n_cols: int, terms, skew: bool, bits: float,
                   ask) -> tuple[list[int], int]:
    """_minors for terms that leave out any number of rows and columns:
    those alike taken together, a minor that is not square 0."""
    values = [0] * len(terms)
    classes: dict[tuple[int, int], list[int]] = {}
    for t, (gone_r, gone_c, _) in enumerate(terms):
        if n_rows - len(gone_r) == n_cols - len(gone_c):
            classes.setdefault((len(gone_r), len(gone_c)), []).append(t)
    used = 0
    for ts in classes.values():
        got, primes, _ = _minors(entries, n_rows, n_cols, [terms[t] for t in ts], skew, bits, ask)
        used += primes
        for t, x in zip(ts, got):
            values[t] = x
    return values, used


def _crt_values(residues_of, n_terms: int, bits: float, ask) -> tuple[list[int], int]:
    """Integers of absolute value below 2**bits from their residues modulo
    primes below 2**31 (``residues_of(p)``: the list of residues, or None to
    skip that prime), and how many primes it took."""
    values = [0] * n_terms
    modulus, used = 1, 0
    for p in _primes():
        ask()
        residues = residues_of(p)
        if residues is None:
            continue
        inv = pow(modulus, -1, p)
        for t, r in enumerate(residues):
            if t % 4096 == 4095:
                ask()
            values[t] += modulus * ((int(r) - values[t]) * inv % p)
        modulus *= p
        used += 1
        if modulus.bit_length() > bits + 1:
            break
    return [v - modulus if v > modulus // 2 else v for v in values], used


def _minors_by_stacks(entries, n_rows: int, n_cols: int, terms, bits: float, ask) -> tuple[list[int], int]:
    """Each term's minor (rows and columns left out, entries negated) taken
    whole: all at once as stacks of their matrices, modulo each prime."""
    import numpy as np

    plans = []
    for gone_r, gone_c, flips in terms:
        keep_r = np.array(sorted(set(range(n_rows)) - set(gone_r)), dtype=np.int64)
        keep_c = np.array(sorted(set(range(n_cols)) - set(gone_c)), dtype=np.int64)
        at = [(int(np.searchsorted(keep_r, i)), int(np.searchsorted(keep_c, jj))) for i, jj in flips]
        plans.append((keep_r, keep_c, at))
    k = len(plans[0][0])
    chunk = max(1, int(DEFECT_STACK // max(1, k * k)))

    def residues_of(p: int):
        A = _residues(entries, (n_rows, n_cols), p, np)
        out: list[int] = []
        for lo in range(0, len(plans), chunk):
            ask()
            some = plans[lo:lo + chunk]
            if not k:
                out.extend([1] * len(some))
                continue
            R = np.stack([pl[0] for pl in some])
            C = np.stack([pl[1] for pl in some])
            Z = A[R[:, :, None], C[:, None, :]]
            tt = [t for t, pl in enumerate(some) for _ in pl[2]]
            if tt:
                rr = [f[0] for pl in some for f in pl[2]]
                cc = [f[1] for pl in some for f in pl[2]]
                Z[tt, rr, cc] = (p - Z[tt, rr, cc]) % p
            out.extend(_stacked_dets(Z, p, np).tolist())
        return out

    return _crt_values(residues_of, len(terms), bits, ask)


def _minors_by_inverse(entries, n: int, terms, bits: float, ask) -> tuple[list[int], int]:
    """Each term's minor of a square invertible matrix K (rows R and
    columns C left out, the entries at F negated) from K's inverse, up to
    sign: K with F negated is K + U W^T (U's columns e_i, W's -2 K_ij e_j,
    one per (i, j) in F), and by Jacobi's complementary minor and
    Woodbury's identity
        det (K + U W^T)[-R, -C] = +- det K det [[I + W^T K^-1 U, W^T K^-1 E_R],
                                                [E_C^T K^-1 U,   K^-1[C, R]]],
    a determinant of order |F| + |C|: every entry a multiple of one of
    K^-1's.  Those are taken at once as a stack (the smaller ones bordered
    by the identity), modulo each prime where det K is not 0."""
    import numpy as np

    value = {}
    for i, jj, x in entries:
        value[(i, jj)] = value.get((i, jj), 0) + x
    # the terms by the order of their bordered determinant, each order one stack:
    # (indices, the rows of K^-1 taken (K's columns), its columns (K's rows), each row's scale)
    by_order: dict[int, list[int]] = {}
    for t, (_, gone_c, flips) in enumerate(terms):
        by_order.setdefault(len(flips) + len(gone_c), []).append(t)
    stacks = []
    for order, ts in sorted(by_order.items()):
        ask()
        L = np.zeros((len(ts), order), dtype=np.int64)
        R = np.zeros((len(ts), order), dtype=np.int64)
        scale = np.ones((len(ts), order), dtype=np.int64)
        f = np.zeros(len(ts), dtype=np.int64)
        for at, t in enumerate(ts):
            gone_r, gone_c, flips = terms[t]
            f[at] = len(flips)
            if flips:
                L[at, :len(flips)] = [jj for _, jj in flips]
                R[at, :len(flips)] = [i for i, _ in flips]
                scale[at, :len(flips)] = [-2 * value[cell] for cell in flips]
            L[at, len(flips):] = gone_c
            R[at, len(flips):] = gone_r
        # (the identity in the flips' block: row a of the stack, a < f)
        tt, aa = np.nonzero(np.arange(order)[None, :] < f[:, None])
        stacks.append((np.array(ts), L, R, scale, tt, aa))

    def residues_of(p: int):
        K = _residues(entries, (n, n), p, np)
        found = _inverse_mod(K, p, np, ask)
        if found is None:
            return None  # (det K is 0 modulo p)
        inv, det = found
        out = np.zeros(len(terms), dtype=np.int64)
        for ts, L, R, scale, tt, aa in stacks:
            if L.shape[1] == 0:
                out[ts] = det
                continue
            chunk = max(1, int(DEFECT_STACK // (L.shape[1] ** 2)))
            sc = scale % p
            for lo in range(0, len(ts), chunk):
                ask()
                sl = slice(lo, lo + chunk)
                B = inv[L[sl][:, :, None], R[sl][:, None, :]] * sc[sl][:, :, None] % p
                keep = (tt >= lo) & (tt < lo + chunk)
                B[tt[keep] - lo, aa[keep], aa[keep]] = (B[tt[keep] - lo, aa[keep], aa[keep]] + 1) % p
                out[ts[sl]] = _stacked_dets(B, p, np) * det % p
        return out.tolist()

    return _crt_values(residues_of, len(terms), bits, ask)


def _minors_by_border(entries, n_rows: int, n_cols: int, terms, skew: bool, bits: float,
                      ask) -> tuple[list[int], int] | None:
    """Each term's minor (rows R and columns C left out, the entries F
    negated) from one inverse per prime, up to sign; None when no base
    below is invertible modulo the first prime.

    A minor is the determinant of the bordered matrix
        M = [[K_F, E_R], [E_C^T, 0]]    ([[A_F, E_S], [-E_S^T, 0]] when skew)
    (E_R: the unit columns of R's rows, in order).  The terms of one sum
    all have |R| and |C| alike, so each M is one base M_0 (a term whose
    minor is not 0 modulo the prime) plus a few rank-one changes u w^T:
    an entry negated (F's and M_0's differ), a border column or row moved
    (R's and M_0's differ).  So det M = det M_0 det (I + W^T M_0^-1 U)
    (the matrix determinant lemma), of order the changes' count: every
    entry a sum of at most four of M_0^-1's, times small coefficients.
    Those determinants are taken at once, as stacks by order."""
    import numpy as np

    value: dict[tuple[int, int], int] = {}
    for i, jj, x in entries:
        value[(i, jj)] = value.get((i, jj), 0) + x
    size = n_rows + len(terms[0][1])  # (= n_cols + |R|)
    # a few bases to try: terms with the fewest entries negated (then each
    # term's changes are mostly its own), spread over the terms
    step = max(1, len(terms) // BORDER_BASES)
    bases = sorted(range(len(terms)), key=lambda t: (len(terms[t][2]), t % step, t))[:BORDER_BASES]

    def bordered(t: int, p: int):
        gone_r, gone_c, flips = terms[t]
        M = _residues(entries, (size, size), p, np)
        for i, jj in flips:
            M[i, jj] = (p - M[i, jj]) % p
        for k, i in enumerate(gone_r):
            M[i, n_cols + k] = 1
        for k, jj in enumerate(gone_c):
            M[n_rows + k, jj] = p - 1 if skew else 1
        return M

    layouts: dict[int, list] = {}

    def layout(t0: int):
        """The terms by their count of rank-one changes from term t0's
        bordered matrix, each count one stack: (terms, per change u's two
        (index, coefficient) pairs then w's, zeros padding)."""
        r0, c0, f0 = terms[t0]
        base = set(f0)
        sign = -1 if skew else 1
        by_order: dict[int, list] = {}
        for t, (gone_r, gone_c, flips) in enumerate(terms):
            if t % 1024 == 1023:
                ask()
            ch = []
            for cell in (set(flips) ^ base if base else flips):
                now = -value[cell] if cell in base else value[cell]  # (M_0's entry)
                ch.append((cell[0], 1, 0, 0, cell[1], -2 * now, 0, 0))
            for k, i in enumerate(gone_r):
                if i != r0[k]:
                    ch.append((i, 1, r0[k], -1, n_cols + k, 1, 0, 0))
            for k, jj in enumerate(gone_c):
                if jj != c0[k]:
                    ch.append((n_rows + k, 1, 0, 0, jj, sign, c0[k], -sign))
            by_order.setdefault(len(ch), []).append((t, ch))
        stacks = []
        for order, group in sorted(by_order.items()):
            ts = np.array([t for t, _ in group])
            changes = (np.array([ch for _, ch in group], dtype=np.int64).reshape(len(group), order, 8)
                       if order else None)
            stacks.append((ts, changes))
        return stacks

    def residues_of(p: int):
        for t0 in bases:
            found = _inverse_mod(bordered(t0, p), p, np, ask)
            if found is not None:
                break
        else:
            return None
        inv, det0 = found
        if t0 not in layouts:
            layouts[t0] = layout(t0)
        out = np.zeros(len(terms), dtype=np.int64)
        for ts, a in layouts[t0]:
            if a is None:
                out[ts] = det0
                continue
            order = a.shape[1]
            chunk = max(1, int(DEFECT_STACK // (4 * order * order)))
            coef = a[:, :, 1::2] % p  # (u's two coefficients, then w's two)
            diag = np.arange(order)
            for lo in range(0, len(ts), chunk):
                ask()
                sl = slice(lo, lo + chunk)
                B = np.zeros((len(ts[sl]), order, order), dtype=np.int64)
                for x in range(2):  # (w's pairs: rows of M_0^-1)
                    for y in range(2):  # (u's pairs: its columns)
                        g = inv[a[sl][:, :, None, 4 + 2 * x], a[sl][:, None, :, 2 * y]]
                        B = (B + g * (coef[sl][:, :, None, 2 + x] * coef[sl][:, None, :, y] % p)) % p
                B[:, diag, diag] = (B[:, diag, diag] + 1) % p
                out[ts[sl]] = _stacked_dets(B, p, np) * det0 % p
        return out.tolist()

    first_prime = next(_primes())
    first = residues_of(first_prime)
    if first is None:
        return None
    return _crt_values(lambda p: first if p == first_prime else residues_of(p), len(terms), bits, ask)


def _inverse_mod(K, p: int, np, ask):
    """(K^-1 mod p, det K mod p) for a square matrix of residues, or None
    when det K is 0 modulo p (Gauss-Jordan with row pivoting)."""
    n = K.shape[0]
    M = np.concatenate([K % p, np.eye(n, dtype=np.int64)], axis=1)
    det = 1
    for k in range(n):
        if k % 256 == 255:
            ask()
        nz = np.flatnonzero(M[k:, k])
        if nz.size == 0:
            return None
        r = k + int(nz[0])
        if r != k:
            M[[k, r]] = M[[r, k]]
            det = -det
        piv = int(M[k, k])
        det = det * piv % p
        M[k] = M[k] * pow(piv, p - 2, p) % p
        col = M[:, k].copy()
        col[k] = 0
        rows = np.flatnonzero(col)
        if rows.size:
            M[rows] = (M[rows] - col[rows, None] * M[k]) % p
    return M[:, n:], det % p


def _pair_formula(part: _Part, flip: frozenset, order, orient, edges, ask) -> tuple[int, dict] | None:
    """The site sum from the minors that leave out no site or two, when the
    graph (its sites in ``flip`` flipped, see _pendants) has a perfect
    matching (None if not).

    With the sites s_1..s_k in order round a face whose boundary walk passes
    each of them once, and the orientation Pfaffian with that face free, the
    matchings without an even set S = {s_a < s_b < ...} of them satisfy a
    Pfaffian identity (Kuo's condensation in its Pfaffian form):
    M(G - S) M(G)^(|S|/2 - 1) = Pf[M(G - s_i - s_j)], i, j in S, i < j.  So,
    with X[i][j] = M(G - s_i - s_j) w_i w_j / M(G) (w: the multiplicities),
    the sum over S is M(G) times the sum of X's principal sub-Pfaffians, which
    is Pf(X + Y) for Y[i][j] = (-1)^(i+j+1) (an odd k gets one more row, of
    zeros, in X).  M(G) Pf(X + Y) is taken modulo primes (_kuo), the
    result checked to be an integer below its bound.  The k(k-1)/2 + 1
    minors come from _minor_sums, instead of one per set S (C(k, k/2) of
    them for a mirror's axis).  A face whose walk passes a vertex twice (a
    flipped site's pendant, a cut vertex) is no harm: the identity was
    checked against the sum over sets on such faces too."""
    colour = part.colour
    rows, cols, ri, ci, entries = _matrix(order, colour, orient, edges, {s: part.sites[s] for s in flip})
    sites = [~v if v in flip else v for v in part.boundary]
    weight = {v: 1 if v < 0 else part.sites[v] for v in sites}
    k = len(sites)

    def gone(vs):
        return [ri[v] for v in vs if v in ri], [ci[v] for v in vs if v in ci], 1

    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    terms = [gone(())] + [gone((sites[i], sites[j])) for i, j in pairs]
    values, primes = _minor_sums(entries, len(rows), len(cols), {ri[v] for v in sites if v in ri},
                                 {ci[v] for v in sites if v in ci}, terms, ask)

    whole = _matchings(values[0], colour is not None)
    if whole == 0:
        return None
    pair = {ij: _matchings(x, colour is not None) for ij, x in zip(pairs, values[1:])}
    total, more = _kuo(whole, pair, [weight[v] for v in sites], _hadamard_bits(_row_norms(entries, len(rows))), ask)
    return total, {"bipartite": colour is not None, "terms": len(terms) + 1, "order": len(rows),
                   "primes": primes + more, "flipped": len(flip)}


def _kuo(whole: int, pair: dict[tuple[int, int], int], w: list[int], matrix_bits: float,
         ask) -> tuple[int, int]:
    """The sum over the even sets S of sites s_0..s_k-1 (in order round a
    face) of their weights' product times M(G - S), from ``whole`` = M(G)
    (not 0) and ``pair`` = {(i, j): M(G - s_i - s_j)} (i < j; 0 when left
    out): M(G) Pf(X + Y), see _pair_formula; and how many primes it took.
    Each M(G - S) is below 2**matrix_bits (Hadamard's bound on G's
    matrix), so the sum is below 2**bits, bits = matrix_bits + k + the
    weights' bits + 1.

    Pf(X + Y) is taken modulo primes (X's entries M(G - s_i - s_j) w_i w_j
    times M(G)'s inverse) and joined by the Chinese remainder theorem, up
    to 31 bits more than ``bits`` need: a sum that is not below 2**bits
    then (M(G) Pf(X + Y) not an integer, or not the sum) is a fault here,
    raised.  (Whole, its determinant had to be taken modulo hundreds of
    primes: each entry of M(G) X + M(G) Y is as big as M(G) squared.)"""
    import numpy as np

    k = len(w)
    bits = matrix_bits + k + sum(math.log2(x) for x in w) + 1
    n = k + k % 2
    w = w + [0] * (n - k)
    upper = [(i, j, pair.get((i, j), 0) * w[i] * w[j]) for i in range(n) for j in range(i + 1, n)]

    def residues_of(p: int):
        if whole % p == 0:
            return None
        inv = pow(whole, -1, p)
        A = np.zeros((n, n), dtype=np.int64)
        for i, j, x in upper:
            A[i, j] = (x % p * inv + (1 if (i + j) % 2 else p - 1)) % p
            A[j, i] = (p - A[i, j]) % p
        return [_pf_mod(A, p, np) * (whole % p) % p]

    (total,), primes = _crt_values(residues_of, 1, bits + PRIME_BITS, ask)
    total = abs(total)
    if total.bit_length() > bits:
        raise BackendError("kasteleyn: the sites' Pfaffian times M(G) is not an integer below Hadamard's bound "
                           "(a fault in the pair formula)")
    return total, primes


def _pf_mod(A, p: int, np) -> int:
    """The Pfaffian of a skew-symmetric matrix of residues modulo p (n
    even): with A = [[0, a, b], [-a, 0, c], [-b^T, -c^T, D]],
    Pf A = a Pf(D + (c^T b - b^T c) / a), pivoting a row's first nonzero
    entry into place (a swap of two rows and their columns negates it)."""
    A = A % p
    n = A.shape[0]
    pf = 1
    for k in range(0, n, 2):
        nz = np.flatnonzero(A[k, k + 1:])
        if nz.size == 0:
            return 0
        j = k + 1 + int(nz[0])
        if j != k + 1:
            A[[k + 1, j]] = A[[j, k + 1]]
            A[:, [k + 1, j]] = A[:, [j, k + 1]]
            pf = -pf
        a = int(A[k, k + 1])
        pf = pf * a % p
        if k + 2 < n:
            inv = pow(a, p - 2, p)
            b = A[k, k + 2:] * inv % p
            c = A[k + 1, k + 2:]
            A[k + 2:, k + 2:] = (A[k + 2:, k + 2:] + np.outer(c, b) % p - np.outer(b, c) % p) % p
    return pf % p


def _minor_sums(entries: list[tuple[int, int, int]], n_rows: int, n_cols: int, site_rows: set[int],
                site_cols: set[int], terms: list[tuple[list[int], list[int], int]], ask) -> tuple[list[int], int]:
    """The determinants, up to sign, of the minors of one matrix that leave
    out some site rows and columns (``terms``: the rows and columns each
    leaves out), exactly, and how many primes they took.

    Modulo each prime, one elimination with pivots in the rows and columns
    no term leaves out (row operations only, among rows every minor keeps)
    makes each minor block-triangular: its determinant is the pivots'
    product times a small determinant of what is left (the sites' rows and
    columns, and any other the pivots did not reach).  Those are taken all
    at once, as a stack per size.  The values are joined by the Chinese
    remainder theorem; Hadamard's bound on the whole matrix bounds every
    minor (a row's norm only falls when columns go)."""
    import numpy as np

    bits = _hadamard_bits(_row_norms(entries, n_rows))
    free_rows = [i for i in range(n_rows) if i not in site_rows]
    free_cols = [j for j in range(n_cols) if j not in site_cols]
    layouts: dict = {}

    def residues_of(p: int):
        A = _residues(entries, (n_rows, n_cols), p, np)
        pivot_of_row = np.full(n_rows, False)
        piv = 1
        pivot_cols = []
        open_rows = np.array(free_rows, dtype=np.int64)
        for j in free_cols:
            if len(pivot_cols) % 64 == 63:
                ask()
            cand = open_rows[~pivot_of_row[open_rows]] if open_rows.size else open_rows
            nz = np.flatnonzero(A[cand, j]) if cand.size else cand
            if nz.size == 0:
                continue  # left to the small determinants
            r = int(cand[nz[0]])
            pivot_of_row[r] = True
            pivot_cols.append(j)
            piv = piv * int(A[r, j]) % p
            below = np.flatnonzero(A[:, j])
            below = below[~pivot_of_row[below]]
            if below.size:
                span = np.flatnonzero(A[r])  # (a band: rows in breadth-first order)
                lo, hi = int(span[0]), int(span[-1]) + 1
                f = A[below, j] * pow(int(A[r, j]), p - 2, p) % p
                A[below, lo:hi] = (A[below, lo:hi] - f[:, None] * A[r, lo:hi]) % p
        rest_rows = tuple(i for i in range(n_rows) if not pivot_of_row[i])
        in_pivots = set(pivot_cols)
        rest_cols = tuple(j for j in range(n_cols) if j not in in_pivots)
        Z = A[np.ix_(rest_rows, rest_cols)]
        if (rest_rows, rest_cols) not in layouts:  # (the same for most primes)
            layouts[(rest_rows, rest_cols)] = _minor_layout(rest_rows, rest_cols, terms, np, ask)
        residues = np.zeros(len(terms), dtype=np.int64)
        for ts, R, C in layouts[(rest_rows, rest_cols)]:
            ask()
            residues[ts] = _stacked_dets(Z[R[:, :, None], C[:, None, :]], p, np) * piv % p
        return residues.tolist()

    return _crt_values(residues_of, len(terms), bits, ask)


def _minor_layout(rest_rows: tuple[int, ...], rest_cols: tuple[int, ...], terms, np, ask):
    """For the rows and columns an elimination left (the sites' among them),
    each square minor size's terms (an index array) and their rows and
    columns there (T x k arrays); a term whose minor is not square keeps
    residue 0."""
    row_at = {i: k for k, i in enumerate(rest_rows)}
    col_at = {j: k for k, j in enumerate(rest_cols)}
    kept_r = np.ones((len(terms), len(rest_rows)), dtype=bool)
    kept_c = np.ones((len(terms), len(rest_cols)), dtype=bool)
    tr: list[int] = []
    pr: list[int] = []
    tc: list[int] = []
    pc: list[int] = []
    for t, (gone_r, gone_c, _) in enumerate(terms):
        if t % 4096 == 4095:
            ask()
        for i in gone_r:
            tr.append(t)
            pr.append(row_at[i])
        for j in gone_c:
            tc.append(t)
            pc.append(col_at[j])
    kept_r[tr, pr] = False
    kept_c[tc, pc] = False
    n_r, n_c = kept_r.sum(axis=1), kept_c.sum(axis=1)
    out = []
    for k in np.unique(n_r[n_r == n_c]):
        ts = np.flatnonzero((n_r == k) & (n_c == k))
        out.append((ts, np.nonzero(kept_r[ts])[1].reshape(len(ts), int(k)),
                    np.nonzero(kept_c[ts])[1].reshape(len(ts), int(k))))
    return out


def _stacked_dets(stack, p: int, np):
    """The determinants modulo p of a stack of k x k matrices (T x k x k),
    by elimination with a pivot row chosen per matrix."""
    T, k = stack.shape[0], stack.shape[1]
    M = stack.copy()
    det = np.ones(T, dtype=np.int64)
    at = np.arange(T)
    for j in range(k):
        nz = M[:, j:, j] != 0
        has = nz.any(axis=1)
        r = j + np.argmax(nz, axis=1)
        det[~has] = 0
        swap = has & (r != j)
        if swap.any():
            s = at[swap]
            top = M[s, j].copy()
            M[s, j] = M[s, r[swap]]
            M[s, r[swap]] = top
            det[s] = (p - det[s]) % p
        pv = np.where(has, M[at, j, j], 1)
        det = det * pv % p
        inv = _inverses(pv, p, np)
        f = M[:, j + 1:, j] * inv[:, None] % p
        M[:, j + 1:, j:] = (M[:, j + 1:, j:] - f[:, :, None] * M[:, None, j, j:]) % p
    return det


def _inverses(a, p: int, np):
    """a^(p-2) mod p, elementwise (p < 2**31: products fit an int64)."""
    out = np.ones_like(a)
    base = a % p
    e = p - 2
    while e:
        if e & 1:
            out = out * base % p
        base = base * base % p
        e >>= 1
    return out


class _Stop(Exception):
    def __init__(self, why: str):
        self.why = why


@functools.lru_cache(maxsize=None)
def _missing() -> str | None:
    """The first of the engine's modules that is not installed, if any
    (looked up once: 70 us a time)."""
    import importlib.util

    return next((mod for mod in ("networkx", "numpy") if importlib.util.find_spec(mod) is None), None)


class KasteleynBackend(Backend):
    name = "kasteleyn"
    can_enumerate = False
    count_method = "determinant"
    #: parts of a split count would each take a determinant as big: one is enough
    splits_pay = False

    def __init__(self):
        # fail at construction when missing, but import them only when a
        # problem is one to count (count asks every default count's
        # problem, and the two take ~0.2 s to import)
        missing = _missing()
        if missing:
            raise ImportError(f"No module named {missing!r}")
        self._last: tuple[weakref.ref, int, _Plan] | None = None
        self._plans: dict[tuple, _Plan] = {}

    def _plan(self, problem: Problem) -> _Plan:
        """The problem's plan, kept for the last problem asked about
        (supports() and then search() on one problem build it once), and
        for the last PLANS_KEPT problems by their content: a count up to
        symmetry asks about each symmetry's run when it chooses the engine,
        and the runs are then new problems of the same constraints."""
        last = self._last
        if last is not None and last[0]() is problem and last[1] == len(problem.constraints):
            return last[2]
        key = (problem.fixed_weight, tuple(problem.primary), tuple(problem.constraints), tuple(problem.redundant))
        plan = self._plans.pop(key, None) or _Plan(problem)
        self._plans[key] = plan  # (the most recent last)
        while len(self._plans) > PLANS_KEPT:
            del self._plans[next(iter(self._plans))]
        self._last = (weakref.ref(problem), len(problem.constraints), plan)
        return plan

    def supports(self, problem: Problem) -> str | None:
        return self._plan(problem).why

    def search(self, problem: Problem, *, limit=None, time_limit=None, keep=False, on_solution=None,
               phases=None, on_count=None, hand_back=None):
        if keep or on_solution is not None:
            raise BackendError("backend 'kasteleyn' only counts solutions (domino tilings of planar boards); "
                               "use another backend (e.g. 'exact' or 'cadical195') to solve or enumerate")
        deadline = Deadline(time_limit)
        plan = self._plan(problem)
        if plan.why:
            raise BackendError(f"backend 'kasteleyn' cannot take this problem: {plan.why}")

        def ask() -> None:
            if deadline.expired():
                raise _Stop("time-limit")
            if on_count is not None and on_count(0):
                raise _Stop("callback")

        stats: dict = {"components": len(plan.parts)}
        total = 0 if plan.zero else plan.factor
        try:
            for item in plan.parts:
                n, info = count_component(item, plan.adj, plan.edges, ask)
                stats["largest_order"] = max(stats.get("largest_order", 0), info.get("order", 0))
                stats["primes"] = stats.get("primes", 0) + info["primes"]
                stats["minors"] = stats.get("minors", 0) + info["terms"]
                if info.get("flipped"):
                    stats["flipped_sites"] = stats.get("flipped_sites", 0) + info["flipped"]
                total *= n
                if total == 0:
                    break
            if plan.monomers is not None and total:
                # the coefficient of z^monomers in the product of the parts' polynomials
                k = plan.monomers
                poly = {0: total}
                for ways in plan.monomer_cells:
                    poly = _times(poly, ways, k)
                for at, part in enumerate(plan.monomer_parts):
                    if not poly:
                        break
                    # (the most the later parts can take, and so the fewest this one must)
                    later = sum(min(k, sum(max(q.charges[v]) for v in q.sites))
                                for q in plan.monomer_parts[at + 1:])
                    least, most = max(0, k - max(poly) - later), k - min(poly)
                    ways: dict[int, int] = {}
                    if part.boundary is not None:
                        sums = [_charged_pair_sum(part, plan.adj, plan.edges, ask, least, most)]
                    else:
                        # (j sites that cannot take ``least`` monominoes are skipped)
                        top = [0] + list(itertools.accumulate(sorted((max(w) for w in part.charges.values()),
                                                                     reverse=True)))
                        sums = (_defect_sum(part, j, plan.adj, plan.edges, ask, least=least, most=most)
                                for j in sorted(_charged_terms(part, most)) if top[j] >= least)
                    for got, info in sums:
                        stats["largest_order"] = max(stats.get("largest_order", 0), info.get("order", 0))
                        stats["primes"] = stats.get("primes", 0) + info["primes"]
                        stats["minors"] = stats.get("minors", 0) + info["terms"]
                        if info.get("flipped"):
                            stats["flipped_sites"] = stats.get("flipped_sites", 0) + info["flipped"]
                        for m, c in got.items():
                            ways[m] = ways.get(m, 0) + c
                    poly = _times(poly, ways, k)
                total = poly.get(k, 0)
        except _Stop as s:
            return SearchResult(0, False, self.name, deadline.elapsed(), [], s.why, stats)
        except KeyboardInterrupt:
            return SearchResult(0, False, self.name, deadline.elapsed(), [], "interrupted", stats)
        stats["exact_count"] = total
        if limit is not None and total > limit:
            return SearchResult(limit, False, self.name, deadline.elapsed(), [], "limit", stats)
        return SearchResult(total, True, self.name, deadline.elapsed(), [], None, stats)
