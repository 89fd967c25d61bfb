"""Encodings kept for a problem while searches run on problems derived from it.

Some jobs search many problems that are one problem plus a few constraints
(``Problem.with_constraints``): the symmetric-first search's subspaces, each
with the solutions found so far blocked, in doubling time slices.  Encoding
each afresh repeated the whole encoding every time: on a 500x500 nonogram
the CNF takes 0.8 s to build and CaDiCaL 0.003 s to solve it, so a 1-second
slice ran out while encoding and the solve took 13.6 s instead of 1.3.

Inside ``with keeping(kind, problem, encoding)`` an encoder asked for a
problem whose constraints start with ``problem``'s (the same objects, over
the same variables) starts from the kept encoding and encodes only the rest.
Encoders number auxiliary variables in the order of the constraints, so the
result is the encoding a fresh call gives, clause for clause.  A child
process forked inside the block inherits the kept encoding, which is how a
search in a child (CaDiCaL under a time limit) is spared the work.
"""

from __future__ import annotations

from contextlib import contextmanager

from ..problem import Problem

#: (kind, id(problem)) -> (problem, its number of constraints and of
#: variables when kept, the encoding, how many blocks keep it).  No lock:
#: a search child forked while another thread held one would wait for it
#: forever; entries change only in the thread that runs the job, and
#: readers copy the items in one step.
_KEPT: dict[tuple, list] = {}


class EncodingStopped(Exception):
    """An encoder's ``expired`` said stop before the encoding was whole."""


@contextmanager
def keeping(kind: tuple, problem: Problem, encode):
    """Offer ``encode()``, the encoding of ``problem`` by the encoder
    ``kind`` names, to encodings of problems derived from it, until the
    block ends; it is built once however many blocks keep it (a race's
    engines may share an encoder).  Nothing is kept when ``encode`` raises
    EncodingStopped (each search then encodes on its own)."""
    key = (kind, id(problem))
    entry = _KEPT.get(key)
    if entry is None:
        try:
            encoding = encode()
        except EncodingStopped:
            yield
            return
        _KEPT[key] = entry = [problem, len(problem.constraints), problem.n_vars, encoding, 0]
    entry[4] += 1
    try:
        yield
    finally:
        entry[4] -= 1
        if entry[4] <= 0:
            del _KEPT[key]


def base_of(kind: tuple, problem: Problem):
    """(encoding, n) for the longest kept problem whose ``n`` constraints
    begin ``problem``'s, over the same variables; None when there is none."""
    best = None
    entries = [e for (k, _), e in list(_KEPT.items()) if k == kind]
    for base, n, n_vars, encoding, _ in entries:
        if (base.meanings is not problem.meanings or problem.n_vars != n_vars
                or len(problem.constraints) < n or len(base.constraints) != n):
            continue
        if best is not None and n <= best[1]:
            continue
        if all(a is b for a, b in zip(problem.constraints, base.constraints)):
            best = (encoding, n)
    return best
