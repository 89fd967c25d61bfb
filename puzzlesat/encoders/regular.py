"""Encodings of Regular(vars, automaton): CNF and CP-SAT.

CNF: the unrolled automaton, with unit propagation doing full line reasoning
============================================================================

The constraint "x_0 .. x_{n-1} spells a word the DFA accepts" is unrolled
into a layered graph: layer i holds the states the automaton may be in after
reading i letters, and an edge (i, q, a, q') says "in state q at layer i,
read a = x_i, go to q' = delta(q, a)".  Only *useful* nodes are kept: those
reachable from the start in i steps and co-reachable (an accepting state is
reachable from them in exactly n - i steps).  This is the construction of
Bacchus, "GAC via unit propagation" (CP 2007), and Quimper & Walsh's
decomposition of Regular.

Variables (all auxiliary, never primary):

- ``Q[i,q]`` for every useful node: "the run is in state q after i letters";
- ``T[e]`` for every useful edge: "the run takes this edge".

Clauses, with ``x^a`` meaning x_i when a = 1 and -x_i when a = 0:

1. ``T[e] -> Q[src]``, ``T[e] -> Q[dst]``, ``T[e] -> x^a``  (an edge needs
   its endpoints and its letter);
2. ``Q[i,q] -> OR(out-edges)`` for i < n and ``Q[i,q] -> OR(in-edges)`` for
   i > 0  (a node needs a way on and a way in);
3. ``x^a -> OR(edges of layer i labelled a)``  (a letter needs an edge; a
   unit ``-x^a`` when the layer has none);
4. ``Q[0,start]`` and ``OR(Q[i, *])`` per layer (there is a run).

Why unit propagation achieves GAC (every value left unfalsified by UP lies
on an accepting path through the current domains): UP kills an edge whose
letter is false or whose endpoint is false (clauses 1), a node all of whose
in-edges or all of whose out-edges are dead (clauses 2), and a letter none
of whose edges survive (clause 3).  At the fixpoint every live node has a
live in-edge and a live out-edge, so walking in-edges back reaches layer 0
(whose only node is the start) and walking out-edges forward reaches layer
n (whose only nodes are accepting): every live edge lies on an accepting
path whose letters are all still allowed, i.e. each surviving value has a
support.  Conversely an edge on such a path is never killed.  For a nonogram
that is exactly Kikuchi's line rule: UP on one line's clauses fixes every
cell on which all placements consistent with the known cells agree.

Soundness: from any model, start at the true edge of layer 0 (clause 3 on
x_0) and follow clauses 1 and 2 forward; the true edges form an accepting
path spelling x.  Because the automaton is deterministic that path is the
only one, so the auxiliary variables are functions of x: the encoding is
parsimonious (projected and unprojected model counts agree).

Why one-hot ("direct") state variables rather than a log or order encoding:
the argument above needs a literal for "this node is dead" that clauses can
propagate on; a binary (log) encoding of the state has no such literal and
UP loses GAC, and an order encoding ("state >= q") only captures
interval-shaped domains, while the useful states of a run-length automaton
at a layer are not an interval in general (e.g. inside run 2 or in the gap
before it).  The restriction to useful nodes keeps the one-hot encoding
small: for a nonogram line of length n and slack f (Kikuchi's freedom) a
layer holds at most about 2(f + 1) states, so the size is O(n * f), not
O(n * number of states).

Size reductions that keep the argument intact (they only identify variables
that clauses 1-2 already force equal):

- an edge that is its source's only out-edge *is* the source node
  (``Q[src] -> T[e]`` and ``T[e] -> Q[src]``), and likewise an edge that is
  its target's only in-edge is the target node;
- so the cells of a run collapse to one variable, "run j starts here", and
  only the loops of gap states need variables of their own.

Optional (``ORDER_LITERALS``, off by default): for monotone automata, whose
states only stay or advance (run-length ones), order literals [state_i >= q]
channelled to the nodes, so the solver can learn over "run j has started by
position i".  Implied, so GAC and exactness are unchanged; measured slower.

CP-SAT: ``add_automaton`` over the Boolean variables themselves (a CP-SAT
Boolean is a 0/1 integer), labels 0 and 1; CP-SAT's propagator for it keeps
its own layered graph.  No variables are added, so enumerating CP-SAT models
counts solutions exactly.
"""

from __future__ import annotations

from ..problem import Automaton


def useful_layers(n: int, automaton: Automaton) -> list[list[int]]:
    """For each layer 0..n, the states reachable from the start in i steps
    from which an accepting state is reachable in the remaining n - i steps
    (sorted)."""
    trans = automaton.transitions
    fwd: list[set[int]] = [{automaton.start}]
    for _ in range(n):
        nxt: set[int] = set()
        for q in fwd[-1]:
            for t in trans[q]:
                if t is not None:
                    nxt.add(t)
        fwd.append(nxt)
    back = fwd[n] & set(automaton.accepting)
    layers: list[list[int]] = [[] for _ in range(n + 1)]
    layers[n] = sorted(back)
    for i in range(n - 1, -1, -1):
        back = {q for q in fwd[i] if any(t is not None and t in back for t in trans[q])}
        layers[i] = sorted(back)
    return layers


def regular_cnf(vars: list[int], automaton: Automaton, pool) -> list[list[int]]:
    """Clauses saying the word ``vars`` is accepted by ``automaton``.

    Auxiliary ids come from ``pool`` (a PySAT IDPool, fresh ids); see the
    module docstring for the encoding and why unit propagation on it is GAC.
    """
    n = len(vars)
    layers = useful_layers(n, automaton)
    if not layers[0]:
        return [[]]  # no accepted word of this length
    if n == 0:
        return []
    trans = automaton.transitions

    # nodes: (layer, state) -> index; edges: (layer, src index, letter, dst index)
    node_index: list[dict[int, int]] = []
    n_nodes = 0
    for i in range(n + 1):
        d = {}
        for q in layers[i]:
            d[q] = n_nodes
            n_nodes += 1
        node_index.append(d)
    edges: list[tuple[int, int, int, int]] = []
    out_deg = [0] * n_nodes
    in_deg = [0] * n_nodes
    for i in range(n):
        here, there = node_index[i], node_index[i + 1]
        for q, u in here.items():
            for a in (0, 1):
                t = trans[q][a]
                if t is not None and t in there:
                    v = there[t]
                    edges.append((i, u, a, v))
                    out_deg[u] += 1
                    in_deg[v] += 1

    # identify variables forced equal: union-find over nodes, edge -> node or own id
    parent = list(range(n_nodes))

    def find(u: int) -> int:
        while parent[u] != u:
            parent[u] = parent[parent[u]]
            u = parent[u]
        return u

    edge_node: list[int | None] = []
    for (i, u, a, v) in edges:
        if out_deg[u] == 1:
            edge_node.append(u)
            if in_deg[v] == 1:
                ru, rv = find(u), find(v)
                if ru != rv:
                    parent[rv] = ru
        elif in_deg[v] == 1:
            edge_node.append(v)
        else:
            edge_node.append(None)
    root_id: dict[int, int] = {}
    node_var = [0] * n_nodes
    for u in range(n_nodes):
        r = find(u)
        vid = root_id.get(r)
        if vid is None:
            vid = root_id[r] = pool.id()
        node_var[u] = vid
    edge_var = [node_var[en] if en is not None else pool.id() for en in edge_node]

    clauses: list[list[int]] = []
    out_lits: list[list[int]] = [[] for _ in range(n_nodes)]
    in_lits: list[list[int]] = [[] for _ in range(n_nodes)]
    support: list[tuple[list[int], list[int]]] = [([], []) for _ in range(n)]
    for (i, u, a, v), t in zip(edges, edge_var):
        qu, qv = node_var[u], node_var[v]
        if t != qu:
            clauses.append([-t, qu])
        if t != qv:
            clauses.append([-t, qv])
        x = vars[i] if a else -vars[i]
        clauses.append([-t, x])
        out_lits[u].append(t)
        in_lits[v].append(t)
        support[i][a].append(t)
    for i in range(n + 1):
        for u in node_index[i].values():
            q = node_var[u]
            if i < n and not (len(out_lits[u]) == 1 and out_lits[u][0] == q):
                clauses.append([-q] + out_lits[u])
            if i > 0 and not (len(in_lits[u]) == 1 and in_lits[u][0] == q):
                clauses.append([-q] + in_lits[u])
        layer_vars = sorted({node_var[u] for u in node_index[i].values()})
        clauses.append(layer_vars)
    for i in range(n):
        for a in (0, 1):
            x = vars[i] if a else -vars[i]
            clauses.append([-x] + support[i][a])
    if ORDER_LITERALS and _monotone(automaton):
        clauses.extend(_order_channel(layers, node_index, node_var, pool))
    return clauses


#: Add the order literals of :func:`_order_channel` (off: measured slower on the
#: survey, no faster on n-Dom; benchmarks/nonograms-results.md, engine "+order").
ORDER_LITERALS = False


def _monotone(automaton: Automaton) -> bool:
    """Every transition stays or moves to the next state (run-length automata)."""
    return all(t is None or t == q or t == q + 1
               for q, tr in enumerate(automaton.transitions) for t in tr)


def _order_channel(layers, node_index, node_var, pool) -> list[list[int]]:
    """Order literals [state_i >= q] channelled to the one-hot nodes.

    Only for monotone automata, where the state never decreases and grows by
    at most one per letter: [s_i >= q] -> [s_{i+1} >= q] and
    [s_{i+1} >= q + 1] -> [s_i >= q].  These are implied, but they give the
    CDCL solver literals that say "run j has started by position i", over
    which it learns far more general clauses than over single nodes.
    """
    n = len(layers) - 1
    clauses: list[list[int]] = []
    # ge[i][k]: literal [s_i >= layers[i][k]] for k >= 1 (k = 0 is always true)
    ge: list[list[int]] = []
    for i in range(n + 1):
        states = layers[i]
        row = [0] + [pool.id() for _ in range(len(states) - 1)]
        ge.append(row)
        for k in range(1, len(states)):
            if k + 1 < len(states):
                clauses.append([-row[k + 1], row[k]])
        for k, q in enumerate(states):
            qv = node_var[node_index[i][q]]
            if k >= 1:
                clauses.append([-qv, row[k]])
            if k + 1 < len(states):
                clauses.append([-qv, -row[k + 1]])
            lo = [-row[k]] if k >= 1 else []
            hi = [row[k + 1]] if k + 1 < len(states) else []
            clauses.append(lo + hi + [qv])

    def lit(i: int, q: int):
        """[s_i >= q] as a literal, or True/False when the layer decides it."""
        states = layers[i]
        if q <= states[0]:
            return True
        if q > states[-1]:
            return False
        k = next(k for k, s in enumerate(states) if s >= q)
        return ge[i][k]

    for i in range(n):
        for k in range(1, len(layers[i])):
            q = layers[i][k]
            a, b = ge[i][k], lit(i + 1, q)  # a -> b
            if b is False:
                clauses.append([-a])
            elif b is not True:
                clauses.append([-a, b])
        for k in range(1, len(layers[i + 1])):
            q = layers[i + 1][k]
            a, b = ge[i + 1][k], lit(i, q - 1)  # a -> b
            if b is False:
                clauses.append([-a])
            elif b is not True:
                clauses.append([-a, b])
    return clauses


def regular_cpsat(model, xs: list, automaton: Automaton) -> None:
    """``add_automaton`` over the 0/1 variables ``xs`` (no variables added)."""
    triples = [(q, a, t) for q, tr in enumerate(automaton.transitions)
               for a, t in enumerate(tr) if t is not None]
    finals = sorted(automaton.accepting)
    if not xs:
        if automaton.start not in automaton.accepting:
            model.add_bool_or([])
        return
    if not finals or not triples:
        model.add_bool_or([])  # accepts no non-empty word
        return
    model.add_automaton(xs, automaton.start, finals, triples)
