"""Lattice geometry written by hand for the tests' own oracles: integer
matrices, the point groups of Z^d and of the triangular lattice, and the
symmetries of a set of cells.  None of it comes from puzzlesat, so the
brute-force counts and checks built on it are independent of the encoder."""

from __future__ import annotations

import functools
from itertools import permutations, product


def mul(a, b):
    n = len(a)
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(n)) for j in range(n)) for i in range(n))


def apply(m, p):
    return tuple(sum(m[i][j] * p[j] for j in range(len(p))) for i in range(len(m)))


def shift(cells, t):
    return frozenset(tuple(a + b for a, b in zip(c, t)) for c in cells)


@functools.cache
def signed_permutations(d):
    """The 2^d d! signed permutation matrices: every isometry of Z^d fixing 0."""
    return [tuple(tuple(signs[i] if j == perm[i] else 0 for j in range(d)) for i in range(d))
            for perm in permutations(range(d)) for signs in product((1, -1), repeat=d)]


@functools.cache
def sixfold():
    """The 12 isometries of the hexagonal / triangular lattice in the basis
    a = (1, 0), b = (1/2, sqrt 3/2): closure of the sixth turn and a mirror."""
    gens = [((0, -1), (1, 1)), ((0, 1), (1, 0))]
    group = {((1, 0), (0, 1))}
    frontier = list(group)
    while frontier:
        frontier = [g for g in {mul(a, b) for a in frontier for b in gens} if g not in group]
        group.update(frontier)
    assert len(group) == 12
    return sorted(group)


def board_symmetries(board, maps, step):
    """Every x -> M x + t (M in ``maps``, t a lattice translation: coordinates
    multiples of ``step``) mapping the set of cells onto itself."""
    board = frozenset(board)
    out = []
    for m in maps:
        img = [apply(m, c) for c in board]
        t = tuple(a - b for a, b in zip(min(board), min(img)))
        if not any(x % step for x in t) and shift(img, t) == board:
            out.append((m, t))
    return out
