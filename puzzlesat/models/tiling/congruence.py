"""Is a placement congruent to its piece?  The verifier's own geometry.

Written from the lattices' documented coordinates (docs/toml-format.md),
not from the point groups and translation tests that generate placements
(lattice.py, geometry.py): the verifier must not share the encoder's
logic, or a fault there would pass both (a wrong ``is_translation`` on No.0
let every bogus placement through the old check, review).

Two finite sets of points are congruent (some isometry of space maps one
onto the other) exactly when a bijection between them keeps every
distance.  A cell is its centre; squared distances are exact integers:

- ``square``, ``line``, ``cubic``, ``cubic4``: cells are points of Z^d, the
  squared distance is the sum of squares;
- ``hex``: the centre of (q, r) is q a + r b with |a| = |b| = 1 and
  a.b = 1/2, so |(q, r)|^2 = q^2 + q r + r^2;
- ``triangle`` and ``no0``: the same basis scaled by 3 (centres of
  triangles, and No.0's circles at (3i, 3j) and gaps at triangle centres):
  nine times the squared distance is again dx^2 + dx dy + dy^2.  A No.0
  circle only matches a circle, a gap a gap.

A one-sided piece may only turn: when its centres span the space, the
bijection must keep the sign of the determinant of one simplex's edges
(the bases above have positive orientation, so raw coordinates give the
sign); when they do not (a flat piece in a 3-D box, a straight one in the
plane), a turn about them does what a mirror would, and any bijection will
do.
"""

from __future__ import annotations

import collections
import functools
from fractions import Fraction

_HEXAGONAL = ("hex", "triangle", "no0")


def _form(lattice: str):
    if lattice in _HEXAGONAL:
        return lambda p, q: (p[0] - q[0]) ** 2 + (p[0] - q[0]) * (p[1] - q[1]) + (p[1] - q[1]) ** 2
    return lambda p, q: sum((x - y) ** 2 for x, y in zip(p, q))


def _kind(lattice: str):
    if lattice == "no0":
        return lambda p: p[0] % 3 == 0 and p[1] % 3 == 0  # a circle
    return lambda p: 0


def congruent(lattice: str, piece, cells, one_sided: bool) -> bool:
    """Whether ``cells`` is the image of the cells ``piece`` under a
    symmetry of space (a proper one when ``one_sided``) on this lattice."""
    Q = list(dict.fromkeys(map(tuple, cells)))
    if len(Q) != len(cells) or not Q:
        return False
    # a translation keeps every distance: the answer is the same for every
    # translate, so it is found once per shape (moved so that its least
    # cell is at the origin, or on No.0 at the origin's residue mod 3, which
    # keeps circles circles)
    lo = min(Q)
    phase = tuple(x % 3 for x in lo) if lattice in ("triangle", "no0") else (0,) * len(lo)
    shape = tuple(sorted(tuple(x - y + z for x, y, z in zip(c, lo, phase)) for c in Q))
    return _congruent_shape(lattice, tuple(map(tuple, piece)), shape, one_sided)


@functools.lru_cache(maxsize=65536)
def _congruent_shape(lattice: str, piece: tuple, Q: tuple, one_sided: bool) -> bool:
    P, simplex, keys, sign = _piece(lattice, piece)
    n = len(P)
    if n != len(Q):
        return False
    dist, kind = _form(lattice), _kind(lattice)
    centre_q = _centre_distances(lattice, Q)
    if sorted(centre_q) != sorted(k[0] for k in keys):
        return False
    # the simplex's images: points of Q at the same distance from the
    # centroid, of the same kind, and at the simplex's own distances from
    # the images chosen before (a few choices each; at most d + 1 levels)
    want = sorted(keys)
    stack: list[list[int]] = [[]]
    while stack:
        image = stack.pop()
        k = len(image)
        if k == len(simplex):
            # every other point's image is the one point at its distances
            # from the simplex's images (a point of the simplex's span is
            # determined by those distances): the map is an isometry, and
            # Q must hold exactly its images
            got = sorted((centre_q[j], kind(Q[j])) + tuple(dist(Q[j], Q[t]) for t in image) for j in range(n))
            if got == want and (not one_sided or sign is None or sign == _sign([Q[t] for t in image])):
                return True
            continue
        s = simplex[k]
        for j in range(n):
            if (j not in image and centre_q[j] == keys[s][0] and kind(Q[j]) == kind(P[s])
                    and all(dist(Q[j], Q[t]) == dist(P[s], P[simplex[m]]) for m, t in enumerate(image))):
                stack.append(image + [j])
    return False


def _centre_distances(lattice: str, points) -> list[int]:
    """n^2 times each point's squared distance from the points' centroid
    (a whole number; an isometry keeps it)."""
    n = len(points)
    total = tuple(sum(c) for c in zip(*points))
    form = _form(lattice)
    return [form(tuple(n * x for x in p), total) for p in points]


@functools.lru_cache(maxsize=4096)
def _piece(lattice: str, piece: tuple) -> tuple:
    """A piece's centres; a simplex of them that spans their affine hull,
    its points as rare as may be by distance from the centroid (so that few
    points of a placement can be their images); each centre's key (that
    distance, its kind, its distances from the simplex's points), for
    comparison; and the simplex's orientation when it spans the space
    (None when the piece is flatter: a turn does what a mirror would)."""
    P = list(dict.fromkeys(piece))
    dist, kind = _form(lattice), _kind(lattice)
    centre = _centre_distances(lattice, P)
    rarity = collections.Counter(centre)
    order = sorted(range(len(P)), key=lambda i: (rarity[centre[i]], i))
    simplex = [order[0]]
    for i in order[1:]:
        if _rank([P[k] for k in simplex + [i]]) == len(simplex):
            simplex.append(i)
            if len(simplex) == len(P[0]) + 1:
                break
    keys = [(centre[i], kind(P[i])) + tuple(dist(P[i], P[t]) for t in simplex) for i in range(len(P))]
    full = len(simplex) == len(P[0]) + 1
    return P, simplex, keys, _sign([P[k] for k in simplex]) if full else None


def _rank(points) -> int:
    """The rank of the edges from the first point to the others."""
    m = [[Fraction(x - y) for x, y in zip(p, points[0])] for p in points[1:]]
    rank = 0
    for c in range(len(points[0])):
        r = next((k for k in range(rank, len(m)) if m[k][c]), None)
        if r is None:
            continue
        m[rank], m[r] = m[r], m[rank]
        for k in range(len(m)):
            if k != rank and m[k][c]:
                f = m[k][c] / m[rank][c]
                m[k] = [a - f * b for a, b in zip(m[k], m[rank])]
        rank += 1
    return rank


def _sign(points) -> int:
    """The sign of the determinant of the edges from the first point to
    the others (d of them in d dimensions), by Laplace expansion: d <= 4
    here, and the coordinates are whole numbers."""
    return (lambda x: (x > 0) - (x < 0))(_det([[x - y for x, y in zip(p, points[0])] for p in points[1:]]))


def _det(m) -> int:
    if len(m) == 1:
        return m[0][0]
    return sum((-1) ** j * m[0][j] * _det([row[:j] + row[j + 1:] for row in m[1:]]) for j in range(len(m)) if m[0][j])
