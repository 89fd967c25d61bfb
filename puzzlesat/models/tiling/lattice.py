"""Lattices: where polyform cells live, and how they may move.

A lattice is a set of integer points in d dimensions (its *cells*), a point
group of integer matrices that maps cells to cells (``rotations``: the proper
ones; ``point_group``: with reflections, for pieces that may turn over), and a
translation lattice (``is_translation``).  Everything else — orientations,
placements, board symmetries, polyform generation — is written once, in
``geometry.py``, against this interface; a new lattice is one subclass here.

Cells of a piece or board are tuples of ints.  Square/cubic lattices use
0-based coordinates internally (files are 1-based).  The hexagonal,
triangular and No.0 lattices below share one integer basis in which their
12-element point group acts by integer matrices.
"""

from __future__ import annotations

from functools import cached_property
from itertools import permutations, product
from operator import mul

Point = tuple[int, ...]
Matrix = tuple[tuple[int, ...], ...]


def apply(m: Matrix, p: Point) -> Point:
    return tuple([sum(map(mul, row, p)) for row in m])  # (2x the speed of indexing: compile's hot spot)


def det(m: Matrix) -> int:
    n = len(m)
    if n == 1:
        return m[0][0]
    return sum((-1) ** j * m[0][j] * det(tuple(r[:j] + r[j + 1:] for r in m[1:])) for j in range(n))


def close_group(generators: list[Matrix]) -> list[Matrix]:
    """All products of the generators (a finite matrix group), identity first."""
    d = len(generators[0])
    ident = tuple(tuple(int(i == j) for j in range(d)) for i in range(d))
    group = [ident]
    seen = {ident}
    frontier = [ident]
    while frontier:
        nxt = []
        for a in frontier:
            for g in generators:
                prod = tuple(tuple(sum(a[i][k] * g[k][j] for k in range(d)) for j in range(d)) for i in range(d))
                if prod not in seen:
                    seen.add(prod)
                    group.append(prod)
                    nxt.append(prod)
        frontier = nxt
    return group


class Lattice:
    """Interface; see the module docstring."""

    name: str = "?"
    dim: int = 0

    @cached_property
    def point_group(self) -> list[Matrix]:
        """Every symmetry of the lattice fixing the origin, identity first."""
        raise NotImplementedError

    @cached_property
    def rotations(self) -> list[Matrix]:
        """The proper symmetries (determinant +1)."""
        return [m for m in self.point_group if det(m) > 0]

    def group(self, one_sided: bool) -> list[Matrix]:
        return self.rotations if one_sided else self.point_group

    def is_cell(self, p: Point) -> bool:
        return len(p) == self.dim

    def is_translation(self, t: Point) -> bool:
        return True

    def anchor(self, p: Point) -> Point:
        """The canonical point that p's translation class is normalised to."""
        return tuple(0 for _ in p)

    def neighbours(self, p: Point) -> list[Point]:
        """Cells sharing an edge (face) with p: what makes a polyform connected."""
        raise NotImplementedError

    def seed_cells(self) -> list[Point]:
        """One cell of each translation class: where polyform generation starts."""
        return [tuple(0 for _ in range(self.dim))]


class CubicLattice(Lattice):
    """Z^d: squares (d=2), cubes (d=3), hypercubes; its point group is all
    signed permutation matrices (2^d d! elements)."""

    def __init__(self, dim: int):
        if not 1 <= dim <= 6:
            raise ValueError(f"dimension {dim} not supported (1..6)")
        self.dim = dim
        self.name = {1: "line", 2: "square", 3: "cubic"}.get(dim, f"cubic{dim}")

    @cached_property
    def point_group(self) -> list[Matrix]:
        d = self.dim
        out = []
        for perm in permutations(range(d)):
            for signs in product((1, -1), repeat=d):
                out.append(tuple(tuple(signs[i] if j == perm[i] else 0 for j in range(d)) for i in range(d)))
        ident = tuple(tuple(int(i == j) for j in range(d)) for i in range(d))
        out.remove(ident)
        return [ident] + out

    def neighbours(self, p: Point) -> list[Point]:
        out = []
        for i in range(self.dim):
            for s in (1, -1):
                q = list(p)
                q[i] += s
                out.append(tuple(q))
        return out


# ------------------------------------------------------- the 6-fold lattices
#
# All three use the basis a = (1, 0), b = (1/2, sqrt(3)/2) of the plane (on
# screen b points down and to the right, so rows run left to right and go
# down the page).  In that basis the 60-degree rotation and the reflection
# that swaps a and b are integer matrices, and together they generate the 12
# symmetries of a hexagon (the point group of the hexagonal, triangular and
# No.0 tilings, all of which are symmorphic: every symmetry of the tiling is
# one of these matrices followed by a translation of the lattice).

#: 60 degrees, a -> b, b -> b - a
R60: Matrix = ((0, -1), (1, 1))
#: the mirror that swaps a and b
SWAP: Matrix = ((0, 1), (1, 0))


class _SixFold(Lattice):
    dim = 2

    @cached_property
    def point_group(self) -> list[Matrix]:
        return close_group([R60, SWAP])


class HexLattice(_SixFold):
    """Polyhexes.  Cells are hexagons in axial coordinates (q, r): the centre
    of (q, r) is q a + r b; every integer point is a cell and every integer
    vector a translation.  Rows (constant r) are horizontal, each row offset
    by half a hexagon from the one above."""

    name = "hex"
    STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

    def neighbours(self, p: Point) -> list[Point]:
        return [(p[0] + dx, p[1] + dy) for dx, dy in self.STEPS]


class TriangleLattice(_SixFold):
    """Polyiamonds.  Coordinates are the basis (a, b) scaled by 3, so that
    lattice vertices are the points (3i, 3j) and triangle centres are integer
    points too: the triangle with corners 0, a, b (pointing down on screen,
    since b points down) has its centre at (1, 1), the triangle a, b, a+b
    (pointing up) at (2, 2).  Cells are the points with x = y (mod 3) and
    x != 0 (mod 3); translations are the vectors with both coordinates
    divisible by 3.  The point group acts about a vertex, which is why a
    rotation by 60 degrees turns up-triangles into down-triangles."""

    name = "triangle"
    #: the neighbours of a (1, 1)-class triangle; a (2, 2)-class one uses the negatives
    STEPS = ((1, 1), (1, -2), (-2, 1))

    def is_cell(self, p: Point) -> bool:
        return len(p) == 2 and (p[0] - p[1]) % 3 == 0 and p[0] % 3 != 0

    def is_translation(self, t: Point) -> bool:
        return t[0] % 3 == 0 and t[1] % 3 == 0

    def anchor(self, p: Point) -> Point:
        k = p[0] % 3
        return (k, k)

    def neighbours(self, p: Point) -> list[Point]:
        s = 1 if p[0] % 3 == 1 else -1
        return [(p[0] + s * dx, p[1] + s * dy) for dx, dy in self.STEPS]

    def seed_cells(self) -> list[Point]:
        return [(1, 1), (2, 2)]


class No0Lattice(_SixFold):
    """Komaki's "No.0": circles on a triangular lattice plus the triangular
    gaps between them, both as cells.  Coordinates as in TriangleLattice:
    circles are the lattice vertices (3i, 3j), gaps the triangle centres
    (x = y (mod 3), x != 0 (mod 3)).  A circle's neighbours are its 6 gaps
    and a gap's neighbours are its 3 circles, so a connected piece is a
    circle with bumps, or circles joined through gaps."""

    name = "no0"
    STEPS = TriangleLattice.STEPS

    def is_cell(self, p: Point) -> bool:
        return len(p) == 2 and (p[0] - p[1]) % 3 == 0

    def is_translation(self, t: Point) -> bool:
        return t[0] % 3 == 0 and t[1] % 3 == 0

    def anchor(self, p: Point) -> Point:
        k = p[0] % 3
        return (k, k)

    def is_circle(self, p: Point) -> bool:
        return p[0] % 3 == 0

    def neighbours(self, p: Point) -> list[Point]:
        k = p[0] % 3
        if k == 0:  # a circle: its six gaps
            return [(p[0] + s * dx, p[1] + s * dy) for s in (1, -1) for dx, dy in self.STEPS]
        s = -1 if k == 1 else 1  # a gap: its three circles
        return [(p[0] + s * dx, p[1] + s * dy) for dx, dy in self.STEPS]

    def seed_cells(self) -> list[Point]:
        return [(0, 0), (1, 1), (2, 2)]


LATTICES: dict[str, callable] = {
    "line": lambda: CubicLattice(1),
    "square": lambda: CubicLattice(2),
    "cubic": lambda: CubicLattice(3),
    "cubic4": lambda: CubicLattice(4),
    "hex": HexLattice,
    "triangle": TriangleLattice,
    "no0": No0Lattice,
}


def get_lattice(name: str) -> Lattice:
    """A lattice by name (see LATTICES); KeyError with the choices if unknown."""
    try:
        return LATTICES[name]()
    except KeyError:
        raise KeyError(f"unknown lattice {name!r}; known: {', '.join(LATTICES)}") from None
