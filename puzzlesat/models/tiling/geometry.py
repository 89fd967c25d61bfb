"""Orientations, placements, board symmetries and polyform sets, for any lattice.

Plain functions of point sets; no lattice-specific code: the lattice supplies
its point group, translation test, anchors and neighbours.
"""

from __future__ import annotations

import operator
from typing import Iterable

from .lattice import Lattice, Matrix, Point, apply

Shape = tuple[Point, ...]  # sorted cells


def sub(a: Point, b: Point) -> Point:
    return tuple(map(operator.sub, a, b))


def add(a: Point, b: Point) -> Point:
    return tuple(map(operator.add, a, b))


def normalize(lattice: Lattice, cells: Iterable[Point]) -> Shape:
    """The translation-canonical form: the smallest cell moved to its anchor."""
    pts = sorted(cells)
    shift = sub(lattice.anchor(pts[0]), pts[0])
    return tuple(translate(pts, shift)) if any(shift) else tuple(pts)


def translate(pts: list[Point], shift: Point) -> Iterable[Point]:
    """The points moved by ``shift``, in order, a coordinate at a time (see
    transform); the same list when the shift is zero."""
    if not any(shift):
        return pts
    return zip(*[[x + s for x in col] if s else col for col, s in zip(zip(*pts), shift)])


def transform(m: Matrix, cells: Iterable[Point]) -> list[Point]:
    """The cells' images under ``m``, computed a coordinate at a time: the
    point groups' matrices are mostly 0 and +-1, so most image coordinates
    are a column of the input or its negation (a drawn 700 x 700 piece's
    orientations took seconds point by point)."""
    cells = list(cells)
    if not cells:
        return []
    cols = list(zip(*cells))
    out_cols = []
    for row in m:
        acc = None
        for c, col in zip(row, cols):
            if c == 0:
                continue
            term = col if c == 1 else [-x for x in col] if c == -1 else [c * x for x in col]
            acc = term if acc is None else list(map(operator.add, acc, term))
        out_cols.append(acc if acc is not None else (0,) * len(cells))
    return list(zip(*out_cols))


def orientations(lattice: Lattice, cells: Iterable[Point], group: list[Matrix]) -> list[Shape]:
    """Distinct normalised images of a shape under ``group``, in group order."""
    seen: dict[Shape, None] = {}
    cells = list(cells)
    for m in group:
        seen.setdefault(normalize(lattice, transform(m, cells)), None)
    return list(seen)


def orientation_set(lattice: Lattice, cells: Iterable[Point], one_sided: bool) -> frozenset[Shape]:
    """Every way the piece may lie, up to translation: two pieces are the
    same piece exactly when these sets are equal (a one-sided domino is the
    free domino; a one-sided L is not the free L)."""
    return frozenset(orientations(lattice, cells, lattice.group(one_sided)))


def canonical(lattice: Lattice, cells: Iterable[Point], group: list[Matrix]) -> Shape:
    """One representative of the shape's class under ``group`` (the least)."""
    return min(orientations(lattice, cells, group))


def placements(lattice: Lattice, board: frozenset[Point], shapes: list[Shape]) -> list[tuple[int, Shape]]:
    """Every (orientation index, cells) image of the shapes inside the board.

    Each shape is anchored at its smallest cell; a placement puts that cell on
    a board cell reachable by a lattice translation.  Distinct shapes give
    distinct cell sets, so the result has no duplicates.
    """
    out = []
    board_sorted = sorted(board)
    for k, shape in enumerate(shapes):
        a = shape[0]
        for b in board_sorted:
            t = sub(b, a)
            if not lattice.is_translation(t):
                continue
            cells = tuple(add(p, t) for p in shape)
            if all(c in board for c in cells):
                out.append((k, cells))
    return out


def board_symmetries(lattice: Lattice, board: frozenset[Point],
                     holes: frozenset[Point] = frozenset()) -> list[tuple[Matrix, Point]]:
    """Affine maps x -> M x + t (M in the full point group) taking the board
    onto itself and the holes onto the holes (they are part of the picture),
    identity first."""
    out = []
    if not board:
        return out
    if len(board) >= ARRAYS_FROM:
        return _board_symmetries_by_arrays(lattice, board, holes)
    lo = min(board)
    for m in lattice.point_group:
        image = transform(m, board)
        t = sub(lo, min(image))
        if not lattice.is_translation(t):
            continue
        if all(add(p, t) in board for p in image) and all(add(apply(m, p), t) in holes for p in holes):
            out.append((m, t))
    return out


#: from how many cells a board's symmetries, and its placements' images
#: under them, are found with numpy arrays (below, importing numpy would
#: cost more than it saves): point by point, 300 x 300 dominoes' took 5.5 s
#: of the 6.2 s compile (benchmarks/compile_times.py)
ARRAYS_FROM = 20_000


def cell_grid(cells: list[Point]):
    """``cells`` as an array (one row a cell), the least corner of their
    box, and the box as an array holding each cell's index in ``cells`` at
    its place (-1 elsewhere)."""
    import numpy as np

    at = np.array(cells, dtype=np.int64).reshape(len(cells), -1)
    lo = at.min(axis=0)
    grid = np.full(tuple((at.max(axis=0) - lo + 1).tolist()), -1, dtype=np.int64)
    grid[tuple((at - lo).T)] = np.arange(len(cells))
    return at, lo, grid


def grid_lookup(grid, lo, points):
    """The indices ``grid`` holds at these points (rows of an array); -1
    for a point outside its box."""
    import numpy as np

    rel = points - lo
    inside = ((rel >= 0) & (rel < np.array(grid.shape))).all(axis=1)
    out = np.full(len(points), -1, dtype=np.int64)
    out[inside] = grid[tuple(rel[inside].T)]
    return out


def _board_symmetries_by_arrays(lattice: Lattice, board: frozenset[Point],
                                holes: frozenset[Point]) -> list[tuple[Matrix, Point]]:
    """board_symmetries with arrays: the same maps, in the same order."""
    import numpy as np

    cells = sorted(board)
    at, lo, grid = cell_grid(cells)
    out = []
    for m in lattice.point_group:
        image = at @ np.array(m, dtype=np.int64).T
        least = image[np.lexsort(image.T[::-1])[0]]  # the least image, as min() orders points
        t = tuple((at[0] - least).tolist())  # (at[0] is min(board))
        if not lattice.is_translation(t):
            continue
        if ((grid_lookup(grid, lo, image + np.array(t, dtype=np.int64)) >= 0).all()
                and all(add(apply(m, p), t) in holes for p in holes)):
            out.append((m, t))
    return out


def apply_affine(g: tuple[Matrix, Point], cells: Iterable[Point]) -> Shape:
    m, t = g
    return tuple(sorted(add(apply(m, p), t) for p in cells))


def is_connected(lattice: Lattice, cells: Iterable[Point]) -> bool:
    cells = set(cells)
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        for q in lattice.neighbours(p):
            if q in cells and q not in seen:
                seen.add(q)
                stack.append(q)
    return len(seen) == len(cells)


def polyforms(lattice: Lattice, n: int, one_sided: bool = False) -> list[Shape]:
    """All connected n-cell shapes up to the piece group (free or one-sided),
    each as its canonical form, sorted.  Grown cell by cell (Redelmeier-free
    but fine for the sizes puzzles use)."""
    group = lattice.group(one_sided)
    level = {canonical(lattice, [s], group) for s in lattice.seed_cells()}
    for _ in range(n - 1):
        nxt = set()
        for shape in level:
            cells = set(shape)
            for p in shape:
                for q in lattice.neighbours(p):
                    if q not in cells and lattice.is_cell(q):
                        nxt.add(canonical(lattice, cells | {q}, group))
        level = nxt
    return sorted(level, key=lambda s: (s, ))
