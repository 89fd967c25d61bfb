"""Lattices: where polyform cells live, and how they may move.

A lattice is a set of integer points in d dimensions (its *cells*), a point
group of integer matrices that maps cells to cells (``rotations``: the proper
ones; ``point_group``: with reflections, for pieces that may turn over), and a
translation lattice (``is_translation``).  Everything else — orientations,
placements, board symmetries, polyform generation — is written once, in
``geometry.py``, against this interface; a new lattice is one subclass here.

Cells of a piece or board are tuples of ints.  Square/cubic lattices use
0-based coordinates internally (files are 1-based).
"""

from __future__ import annotations

from functools import cached_property
from itertools import permutations, product

Point = tuple[int, ...]
Matrix = tuple[tuple[int, ...], ...]


def apply(m: Matrix, p: Point) -> Point:
    return tuple(sum(row[j] * p[j] for j in range(len(p))) for row in m)


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


LATTICES: dict[str, callable] = {
    "line": lambda: CubicLattice(1),
    "square": lambda: CubicLattice(2),
    "cubic": lambda: CubicLattice(3),
    "cubic4": lambda: CubicLattice(4),
}


def get_lattice(name: str) -> Lattice:
    """A lattice by name (see LATTICES); KeyError with the choices if unknown."""
    try:
        return LATTICES[name]()
    except KeyError:
        raise KeyError(f"unknown lattice {name!r}; known: {', '.join(LATTICES)}") from None
