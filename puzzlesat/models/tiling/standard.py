"""Standard piece sets, generated (not typed in) and named.

``standard_set(lattice, "pentominoes")`` generates every free 5-cell polyform
of the lattice and names each by matching it against the conventional
letter shapes below; a shape without a conventional name gets ``<prefix><n>-<k>``.
"one-sided-" sets contain mirror images as separate pieces, the mirror of a
named piece getting a prime (``F'``).
"""

from __future__ import annotations

from .geometry import canonical, polyforms
from .lattice import Lattice, Point

# 0-based (row, col) cells of the conventional shapes (the 1965 paper's
# pentominoes, converted).
_SQUARE_NAMES: dict[int, dict[str, list[Point]]] = {
    1: {"O1": [(0, 0)]},
    2: {"D2": [(0, 0), (0, 1)]},
    3: {"I3": [(0, 0), (1, 0), (2, 0)], "L3": [(0, 0), (1, 0), (1, 1)]},
    4: {
        "I4": [(0, 0), (1, 0), (2, 0), (3, 0)],
        "O4": [(0, 0), (0, 1), (1, 0), (1, 1)],
        "T4": [(0, 0), (0, 1), (0, 2), (1, 1)],
        "S4": [(0, 1), (0, 2), (1, 0), (1, 1)],
        "L4": [(0, 0), (1, 0), (2, 0), (2, 1)],
    },
    5: {
        "I": [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
        "X": [(1, 0), (1, 1), (1, 2), (0, 1), (2, 1)],
        "T": [(1, 0), (1, 1), (1, 2), (0, 2), (2, 2)],
        "U": [(0, 1), (0, 0), (1, 0), (2, 0), (2, 1)],
        "V": [(0, 2), (0, 1), (0, 0), (1, 0), (2, 0)],
        "W": [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)],
        "Z": [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)],
        "L": [(0, 3), (0, 2), (0, 1), (0, 0), (1, 0)],
        "N": [(0, 0), (0, 1), (1, 1), (1, 2), (1, 3)],
        "Y": [(1, 0), (1, 1), (1, 2), (1, 3), (0, 2)],
        "F": [(0, 1), (1, 0), (1, 1), (1, 2), (2, 2)],
        "P": [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2)],
    },
}

#: lattice name -> size -> name -> cells; other lattices add their own tables
NAMED_SHAPES: dict[str, dict[int, dict[str, list[Point]]]] = {"square": _SQUARE_NAMES}

#: lattice name -> set name -> (size, prefix for unnamed shapes)
SETS: dict[str, dict[str, tuple[int, str]]] = {
    "square": {
        "monominoes": (1, "O"),
        "dominoes": (2, "D"),
        "trominoes": (3, "T"),
        "tetrominoes": (4, "Q"),
        "pentominoes": (5, "P"),
        "hexominoes": (6, "H"),
    },
}


def set_names(lattice: Lattice) -> list[str]:
    base = list(SETS.get(lattice.name, {}))
    return base + ["one-sided-" + s for s in base]


def standard_set(lattice: Lattice, name: str) -> list[tuple[str, tuple[Point, ...], bool]]:
    """(piece name, cells, one_sided) for each piece of the named set.

    KeyError (with the choices) if the lattice has no such set.
    """
    one_sided = name.startswith("one-sided-")
    base = name[len("one-sided-"):] if one_sided else name
    table = SETS.get(lattice.name, {})
    if base not in table:
        raise KeyError(f"unknown piece set {name!r} for the {lattice.name} lattice; "
                       f"known: {', '.join(set_names(lattice)) or 'none'}")
    size, prefix = table[base]
    names = NAMED_SHAPES.get(lattice.name, {}).get(size, {})
    free_group = lattice.point_group
    rot = lattice.rotations
    by_canon = {canonical(lattice, cells, free_group): n for n, cells in names.items()}
    shapes = polyforms(lattice, size, one_sided)
    out = []
    unnamed = 0
    for shape in shapes:
        free_key = canonical(lattice, shape, free_group)
        pname = by_canon.get(free_key)
        if pname is not None and one_sided:
            # the conventional shape keeps its name; its mirror gets a prime
            ref = names[pname]
            if canonical(lattice, ref, rot) != canonical(lattice, shape, rot):
                pname += "'"
        if pname is None:
            unnamed += 1
            pname = f"{prefix}{size}-{unnamed}"
        out.append((pname, shape, one_sided))
    out.sort(key=lambda t: t[0])
    return out
