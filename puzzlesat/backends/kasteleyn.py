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
monomino, a tromino), makes the problem one this engine does not take.

How it counts
=============

Kasteleyn (1961; Temperley and Fisher for the rectangle), in the form of
Fisher, Kasteleyn and Temperley's algorithm (FKT) for any planar graph:

1. Embed each connected component in the plane (networkx's planarity test
   gives a combinatorial embedding, or says it is not planar: then the
   engine does not take the problem).
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
must show solutions, or count up to symmetry (whose runs add equalities),
uses another engine.
"""

from __future__ import annotations

import functools
import math
import weakref

from ..problem import Clause, Exactly, ExactlyOne, Problem
from .base import Backend, BackendError, Deadline, SearchResult

#: the largest matrix (rows) the determinant is taken of: it is held dense
#: (8 bytes an entry: 5,000 rows are 200 MB); a bipartite board of 10,000
#: cells fits
MAX_ORDER = 5000
#: primes below 2**31, so that a product of two residues fits in an int64
PRIME_BITS = 31


class _Graph:
    """The matching graph of a problem: ``n`` vertices, ``edges`` as
    ``{(u, v): multiplicity}`` with u < v, and ``zero`` set when the forced
    literals already leave no perfect matching."""

    def __init__(self, n: int, edges: dict[tuple[int, int], int], zero: bool = False):
        self.n, self.edges, self.zero = n, edges, zero


def matching_graph(problem: Problem) -> _Graph | str:
    """The graph whose perfect matchings are the problem's solutions, or why
    the problem is not such a graph."""
    items_of: dict[int, list[int]] = {}
    n_items = 0
    forced: dict[int, bool] = {}
    counts: list[Exactly] = []
    for c in problem.constraints:
        if isinstance(c, ExactlyOne):
            for v in c.vars:
                its = items_of.get(v)
                if its is None:
                    items_of[v] = [n_items]
                elif len(its) == 2:
                    # (said at once: count asks about every default count's
                    # problem, and most are not this engine's)
                    return _too_many(problem, v)
                else:
                    its.append(n_items)
            n_items += 1
        elif isinstance(c, Exactly):
            counts.append(c)
        elif isinstance(c, Clause) and len(c.lits) == 1:
            lit = c.lits[0]
            if forced.get(abs(lit), lit > 0) != (lit > 0):
                return _Graph(0, {}, zero=True)  # x and not x
            forced[abs(lit)] = lit > 0
        else:
            return f"it has {type(c).__name__} constraints, which are not a perfect-matching problem's"
    primary = set(problem.primary)
    for v in list(items_of) + list(forced):
        if v not in primary:
            return "a constraint is on a variable that is not primary"
    for v in problem.primary:
        its = items_of.get(v, ())
        if len(its) != 2 or its[0] == its[1]:
            return _not_two(len(its))
    for c in counts:
        # k edges in every perfect matching of 2k vertices: implied
        if set(c.vars) != primary or 2 * c.k != n_items:
            return "it counts some pieces apart (Exactly constraints the cells do not imply)"
    gone = [False] * n_items
    taken: set[int] = set()
    for v, value in forced.items():
        if value:
            a, b = items_of[v]
            if a in taken or b in taken:
                return _Graph(0, {}, zero=True)  # two forced edges on one vertex
            taken.update((a, b))
            gone[a] = gone[b] = True
    edges: dict[tuple[int, int], int] = {}
    for v in problem.primary:
        if forced.get(v) is not None:
            continue  # a false edge is out; a true one took its vertices
        a, b = items_of[v]
        if gone[a] or gone[b]:
            continue
        key = (a, b) if a < b else (b, a)
        edges[key] = edges.get(key, 0) + 1
    keep = [i for i in range(n_items) if not gone[i]]
    index = {old: new for new, old in enumerate(keep)}
    return _Graph(len(keep), {(index[a], index[b]): m for (a, b), m in edges.items()})


def _too_many(problem: Problem, v: int) -> str:
    k = sum(1 for c in problem.constraints if isinstance(c, ExactlyOne) and v in c.vars)
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


class _Plan:
    """A problem's graph cut into components, each planar-embedded (or the
    reason it cannot be counted here)."""

    def __init__(self, problem: Problem):
        self.why: str | None = None
        self.zero = False
        #: (vertices, networkx PlanarEmbedding, two-colouring or None) per component
        self.parts: list[tuple[list[int], object, dict[int, int] | None]] = []
        self.adj: list[list[int]] = []
        self.edges: dict[tuple[int, int], int] = {}
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
        for comp in _components(g):
            if len(comp) % 2:
                self.zero = True  # an odd component has no perfect matching
                continue
            # (the size first: a planarity test of a huge graph takes seconds)
            colour = _two_colouring(comp, adj)
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
                self.why = "its graph (cells joined by the placements that cover both) is not planar"
                return
            self.parts.append((comp, emb, colour))
        if self.zero:
            self.parts = []


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


def pfaffian_orientation(comp: list[int], adj: list[list[int]], emb) -> dict[tuple[int, int], bool]:
    """For each edge (u, v) with u < v of a connected planar component: True
    when it points u -> v, in an orientation where every face but one has an
    odd number of edges pointing along its boundary walk (FKT)."""
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
    # the faces, each as the set of its half-edges (every face walked the same way round)
    face_of: dict[tuple[int, int], int] = {}
    faces: list[set[tuple[int, int]]] = []
    for u in comp:
        for w in adj[u]:
            if (u, w) not in face_of:
                half: set[tuple[int, int]] = set()
                emb.traverse_face(u, w, mark_half_edges=half)
                for h in half:
                    face_of[h] = len(faces)
                faces.append(half)
    n_edges = sum(len(adj[u]) for u in comp) // 2
    if len(faces) != n_edges - len(comp) + 2:
        raise BackendError(f"kasteleyn: the embedding has {len(faces)} faces where Euler's formula wants "
                           f"{n_edges - len(comp) + 2}")
    # the edges off the tree join the faces in a tree: walk it from face 0
    dual: list[list[tuple[int, tuple[int, int]]]] = [[] for _ in faces]
    for u in comp:
        for w in adj[u]:
            if u < w and key(u, w) not in orient:
                f, g = face_of[(u, w)], face_of[(w, u)]
                dual[f].append((g, (u, w)))
                dual[g].append((f, (u, w)))
    parent_edge: dict[int, tuple[int, int]] = {}
    reached = {0}
    order = [0]
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


def exact_det(entries: list[tuple[int, int, int]], n: int, ask=lambda: None) -> tuple[int, int]:
    """The determinant of an integer n x n matrix given by its nonzero
    entries, exactly (and how many primes it took): residues modulo primes
    below 2**31, as many as Hadamard's bound needs, joined by the Chinese
    remainder theorem.  ``ask()`` is called now and then (it may raise to
    stop)."""
    import numpy as np

    if n == 0:
        return 1, 0
    norms = [0] * n
    for i, _, x in entries:
        norms[i] += x * x
    if any(s == 0 for s in norms):
        return 0, 0
    bits = sum(0.5 * math.log2(s) for s in norms) + 2  # |det| < 2**bits; the sign takes one more
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


def count_component(comp: list[int], adj: list[list[int]], edges: dict[tuple[int, int], int], emb,
                    colour: dict[int, int] | None, ask=lambda: None) -> tuple[int, dict]:
    """The number of perfect matchings of one connected planar component
    (``colour``: its two-colouring, None when it is not bipartite)."""
    orient = pfaffian_orientation(comp, adj, emb)
    rank = _bfs_rank(comp, adj)
    if colour is not None:
        rows = sorted((v for v in comp if colour[v] == 0), key=rank.get)
        cols = sorted((v for v in comp if colour[v] == 1), key=rank.get)
        if len(rows) != len(cols):
            return 0, {"bipartite": True}
        ri = {v: i for i, v in enumerate(rows)}
        ci = {v: i for i, v in enumerate(cols)}
        entries = []
        for (a, b), m in ((k, edges[k]) for k in orient):
            sign = 1 if orient[(a, b)] else -1  # a -> b
            if a in ri:
                entries.append((ri[a], ci[b], sign * m))
            else:
                entries.append((ri[b], ci[a], -sign * m))
        det, primes = exact_det(entries, len(rows), ask)
        return abs(det), {"bipartite": True, "order": len(rows), "primes": primes}
    idx = {v: rank[v] for v in comp}
    entries = []
    for (a, b), m in ((k, edges[k]) for k in orient):
        sign = 1 if orient[(a, b)] else -1
        entries.append((idx[a], idx[b], sign * m))
        entries.append((idx[b], idx[a], -sign * m))
    det, primes = exact_det(entries, len(comp), ask)
    root = math.isqrt(det) if det >= 0 else -1
    if root * root != det:
        raise BackendError(f"kasteleyn: det = {det} is not the square of a Pfaffian (a fault in the orientation)")
    return root, {"bipartite": False, "order": len(comp), "primes": primes}


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

    def _plan(self, problem: Problem) -> _Plan:
        """The problem's plan, kept for the last problem asked about
        (supports() and then search() on one problem build it once)."""
        last = self._last
        if last is not None and last[0]() is problem and last[1] == len(problem.constraints):
            return last[2]
        plan = _Plan(problem)
        self._last = (weakref.ref(problem), len(problem.constraints), plan)
        return plan

    def supports(self, problem: Problem) -> str | None:
        return self._plan(problem).why

    def search(self, problem: Problem, *, limit=None, time_limit=None, keep=False, on_solution=None,
               phases=None, on_count=None):
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
        total = 0 if plan.zero else 1
        try:
            for comp, emb, colour in plan.parts:
                n, info = count_component(comp, plan.adj, plan.edges, emb, colour, ask)
                stats["largest_order"] = max(stats.get("largest_order", 0), info.get("order", 0))
                stats["primes"] = stats.get("primes", 0) + info.get("primes", 0)
                total *= n
                if total == 0:
                    break
        except _Stop as s:
            return SearchResult(0, False, self.name, deadline.elapsed(), [], s.why, stats)
        except KeyboardInterrupt:
            return SearchResult(0, False, self.name, deadline.elapsed(), [], "interrupted", stats)
        stats["exact_count"] = total
        if limit is not None and total > limit:
            return SearchResult(limit, False, self.name, deadline.elapsed(), [], "limit", stats)
        return SearchResult(total, True, self.name, deadline.elapsed(), [], None, stats)
