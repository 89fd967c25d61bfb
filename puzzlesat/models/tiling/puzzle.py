"""The tiling puzzle: pieces with counts on a board of lattice cells.

Compiles to one placement indicator per distinct image of a piece inside the
board, ExactlyOne per board cell and Exactly(count) per piece, except the
one count the others and the board's area imply (see ``_implied_count``);
the board's symmetries become permutations of the placement indicators.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ...errors import VerificationError
from ...problem import Clause, Exactly, Problem, distinct_permutations
from ...puzzle import Puzzle
from . import congruence, geometry, render
from .colouring import obstruction as colour_obstruction
from .geometry import (Shape, apply_affine, board_symmetries, cell_grid, grid_lookup, normalize, orientations,
                       placements, transform, translate)
from .lattice import Lattice, Point
from .prune import dead_placements


class Place(NamedTuple):
    """Meaning of a placement variable: piece, orientation index, cells."""

    piece: str
    orientation: int
    cells: Shape

    def __str__(self) -> str:
        cells = " ".join("(" + ",".join(str(c + 1) for c in p) + ")" for p in self.cells)
        return f"place {self.piece} orientation {self.orientation} cells {cells}"


@dataclass
class Piece:
    name: str
    cells: Shape
    count: int = 1
    one_sided: bool = False
    line: int | None = None  # where the file defined it


@dataclass
class TilingSolution:
    """Each piece copy as (piece name, cells); fixed pieces included."""

    placements: list[tuple[str, Shape]]


@dataclass
class Tiling(Puzzle):
    lattice: Lattice
    board: frozenset  # the cells to cover (holes and fixed pieces excluded)
    pieces: list[Piece]
    fixed: list[tuple[str, Shape]] = field(default_factory=list)  # pieces fixed in place
    # the pieces every copy of which is fixed (count 0 left, so not among
    # ``pieces``): a symmetry maps them onto their image pieces as it does
    # the others (a fixed one-sided L onto a fixed J under a mirror)
    spent: list[Piece] = field(default_factory=list)
    holes: frozenset = frozenset()  # reserved cells nobody covers (for drawing)
    dims: tuple[int, ...] | None = None  # box size, for square/cubic rendering
    title: str = ""
    path: str | None = None
    expected: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    source: str | None = None
    family: str = "tiling"

    # ------------------------------------------------------------ compiling
    def piece(self, name: str) -> Piece:
        return next(p for p in self.pieces if p.name == name)

    def orientations_of(self, piece: Piece) -> list[Shape]:
        # computed once per piece: compiling, the symmetries and info all ask
        cache = self.__dict__.setdefault("_orientations", {})
        key = (piece.name, piece.cells, piece.one_sided)
        if key not in cache:
            cache[key] = orientations(self.lattice, piece.cells, self.lattice.group(piece.one_sided))
        return cache[key]

    def area_mismatch(self) -> str | None:
        """Why no tiling can exist by counting cells, or None."""
        area = sum(len(p.cells) * p.count for p in self.pieces)
        if area != len(self.board):
            return (f"the pieces cover {_plural(area, 'cell')} but the board has "
                    f"{_plural(len(self.board), 'free cell')}")
        return None

    def counts_differ(self) -> str | None:
        return self.area_mismatch()

    def precheck(self) -> str | None:
        """The pieces' area against the board's, then a piece with no
        placement at all (larger than the box, say), then the colouring
        arguments of :mod:`.colouring` (the mutilated chessboard): the
        puzzle is well formed and has no solution."""
        why = self.area_mismatch()
        if why is None:
            self.compile()
            stuck = next((p for p in self.pieces if not self._orient_used[p.name]), None)
            if stuck is not None:
                where = f" ({self.path}:{stuck.line})" if self.path and stuck.line else ""
                why = f"piece {stuck.name}{where} fits nowhere on the board"
        if why is None:
            why = self._colour_obstruction()
        return why

    def _colour_obstruction(self) -> str | None:
        cached = self.__dict__.get("_colour_why", False)
        if cached is not False:
            return cached
        problem = self.compile()
        places: dict[str, list] = {p.name: [] for p in self.pieces}
        for v in problem.primary:
            m: Place = problem.meaning(v)
            places[m.piece].append((m.orientation, m.cells))
        why = colour_obstruction(self.lattice, self.board,
                                 [(p.name, p.count, places[p.name]) for p in self.pieces])
        self._colour_why = why
        return why

    def compile(self) -> Problem:
        if getattr(self, "_problem", None) is not None:
            return self._problem
        prob = Problem(fixed_weight=True)
        by_cell: dict[Point, list[int]] = {c: [] for c in sorted(self.board)}
        self._orient_used: dict[str, set[int]] = {}
        implied = self._implied_count()
        for piece in self.pieces:
            # (a piece larger than the board lies nowhere: its orientations,
            # seconds for a drawn 700 x 700 one, are not needed)
            shapes = self.orientations_of(piece) if len(piece.cells) <= len(self.board) else []
            vs = []
            used = set()
            for k, cells in placements(self.lattice, self.board, shapes):
                v = prob.var(Place(piece.name, k, cells))
                vs.append(v)
                used.add(k)
                for c in cells:
                    by_cell[c].append(v)
            # (a piece with no placement leaves an Exactly(k) of nothing: no
            # solution, which precheck says without a search)
            self._orient_used[piece.name] = used
            if piece is not implied:
                prob.exactly(piece.count, vs)
            else:  # left out of the model, kept for the engines it helps
                prob.redundant.append(Exactly(piece.count, tuple(vs)))
        for cell, vs in by_cell.items():
            prob.exactly_one(vs)
        prob.symmetries = self._symmetries(prob)
        self._problem = prob
        return prob

    def _implied_count(self) -> Piece | None:
        """The piece whose count constraint the model leaves out, or None.

        Every free cell is covered once, so the pieces' areas add up to the
        board's: sum(size(p) * n(p)) = |board|.  With every other count fixed,
        that fixes the last one, so one Exactly(k) is redundant.  We drop the
        one with the largest k > 1, the costliest to encode (a counter with
        k * n auxiliaries in CNF): a board of dominoes alone then needs no
        counter at all.  It goes to ``Problem.redundant`` instead, which the
        exact-cover translation states next to other counts (left out there,
        it let Algorithm M place that piece without bound: see
        benchmarks/repeated_kinds.py).  Counts of 1 stay (they are what the
        orbit method restricts)."""
        if self.area_mismatch() is not None:
            return None
        best = max(self.pieces, key=lambda p: p.count, default=None)
        return best if best is not None and best.count > 1 else None

    def implied(self, problem: Problem) -> list:
        """Placements that cut off a region no remaining pieces can fill are
        false (see :mod:`.prune`)."""
        return [Clause((-v,)) for v in dead_placements(self, problem)]

    def _symmetries(self, prob: Problem) -> list[dict[int, int]]:
        """The board symmetries that map every solution to a solution, as
        permutations of placement variables, each once.  A symmetry maps the
        free cells onto themselves and the holes onto the holes
        (geometry.board_symmetries).

        A symmetry g moves a placement of piece p to cells that piece g(p)
        covers: p itself for a free piece or a one-sided piece that is its
        own mirror image, and for a one-sided piece under a reflection its
        mirror piece (one-sided L and J swap).  g is kept when every piece
        has such an image with the same count (a set holding L but not J, or
        two L and one J, keeps the rotations only).

        A placement is its piece and its cells (two orientations of a piece
        never cover the same cells), so each symmetry maps the board's cells
        once, and each placement's image is looked up by piece and cells:
        mapping every placement's cells through the matrix took 1.4 s of the
        4D box's 1.5 s compile (benchmarks/compile_times.py)."""
        # a piece fixed in place is part of the picture: a symmetry must map
        # the fixed pieces onto fixed pieces of their image pieces, not just the free cells
        maps = list(self._piece_symmetries())
        board = sorted(self.board)
        if len(prob.primary) >= geometry.ARRAYS_FROM:
            out = _array_permutations(prob, board, maps)
        else:
            by_cells = {}
            for v in prob.primary:
                m: Place = prob.meaning(v)
                by_cells[(m.piece, m.cells)] = v
            out = []
            for g, swap in maps:
                image = dict(zip(board, _cell_images(g, board)))
                perm = {}
                for (piece, cells), v in by_cells.items():
                    w = by_cells.get((swap[piece], tuple(sorted([image[c] for c in cells]))))
                    if w is None:
                        break
                    if w != v:
                        perm[v] = w
                else:
                    out.append(perm)
        # a map that moves no cell differently from another (the turns of a
        # flat 1 x 3 x 4 box) is the same symmetry: listed twice, the views
        # method miscounted; the identity stays, even with no free cell left
        return (out if len(prob.primary) >= geometry.ARRAYS_FROM else distinct_permutations(out)) or [{}]

    def _piece_symmetries(self):
        """The board symmetries g that map the pieces onto pieces of the same
        count, with ``swap`` (piece name -> the name of its image piece), and
        the fixed pieces onto fixed pieces, as ``(g, swap)``."""
        fixed = {(n, tuple(sorted(c))) for n, c in self.fixed}
        # a piece that lies nowhere has no variable to move: it is its own
        # image (and its orientations, seconds for a huge one, are not needed);
        # a piece whose copies are all fixed lies on the board, and needs its
        # image as much as one with copies left (taken for itself, a fixed L
        # never matched the J a mirror puts there: that symmetry was lost)
        placed = [p for p in self.pieces if self._orient_used[p.name]] + self.spent
        orients = {p.name: self.orientations_of(p) for p in placed}
        by_orients = {frozenset(o): p for p, o in zip(placed, orients.values())}
        # (with every cell taken by fixed pieces, the board they make is the
        # one to map: the free cells, none, gave no map at all)
        for g in board_symmetries(self.lattice, self.board or self._whole_board(), self.holes):
            swap = {p.name: p.name for p in self.pieces if not self._orient_used[p.name]}
            for p in placed:
                q = by_orients.get(frozenset(normalize(self.lattice, apply_affine(g, o)) for o in orients[p.name]))
                if q is None or q.count != p.count:
                    break
                swap[p.name] = q.name
            else:
                if all((swap.get(n, n), apply_affine(g, c)) in fixed for n, c in self.fixed):
                    yield g, swap

    def _distinct_cell_maps(self, maps, cells=None) -> int:
        """How many of these board symmetries move the free cells (or
        ``cells``) differently."""
        board = sorted(self.board if cells is None else cells)
        if len(board) >= geometry.ARRAYS_FROM:  # (a 300 x 300 board's 8 maps: 2.8 s as tuples)
            import numpy as np

            at = np.array(board, dtype=np.int64)
            return len({(at @ np.array(m, dtype=np.int64).T + np.array(t, dtype=np.int64)).tobytes()
                        for m, t in maps}) or 1
        return len({_cell_images(g, board) for g in maps}) or 1

    def _whole_board(self) -> frozenset:
        """The free cells and those of the pieces fixed in place."""
        return self.board | {c for _, cells in self.fixed for c in cells}

    # ------------------------------------------------------------- decoding
    def decode(self, problem: Problem, assignment: frozenset) -> TilingSolution:
        pls = list(self.fixed)
        for v in sorted(assignment):
            m = problem.meaning(v)
            pls.append((m.piece, m.cells))
        return TilingSolution(pls)

    def verify(self, solution: TilingSolution) -> None:
        """Check the rules directly: every free cell covered exactly once, no
        hole covered, each piece used its count times, each placement a
        rotation/reflection (as the piece allows) plus translation of its piece."""
        if not self._verified_at_once(solution):
            self._verify_cell_by_cell(solution)

    def _verified_at_once(self, solution: TilingSolution) -> bool:
        """The rules checked in bulk, for the solutions of a count (tens of
        thousands of them): True when the solution keeps them all.  False
        sends it to :meth:`_verify_cell_by_cell`, which names what is wrong
        (or finds nothing: a placement not checked for congruence before)."""
        if self.fixed:
            return False
        congruent = self._congruent_seen()
        counts: dict[str, int] = {}
        covered: set = set()
        n = 0
        pieces = None
        for name, cells in solution.placements:
            key = (name, tuple(cells))
            if key not in congruent:  # (checked here: the whole cell-by-cell pass cost a cold count 2x as much)
                pieces = pieces or {p.name: p for p in self.pieces}
                piece = pieces.get(name)
                if piece is None or not congruence.congruent(self.lattice.name, piece.cells, cells, piece.one_sided):
                    return False
                congruent.add(key)
            counts[name] = counts.get(name, 0) + 1
            covered.update(cells)
            n += len(cells)
        return (n == len(covered) == len(self.board) and covered == self.board
                and counts == {p.name: p.count for p in self.pieces})

    def _verify_cell_by_cell(self, solution: TilingSolution) -> None:
        counts: dict[str, int] = {}
        covered: dict[Point, str] = {}
        fixed = {(n, tuple(sorted(c))) for n, c in self.fixed}
        pieces = {p.name: p for p in self.pieces}
        congruent = self._congruent_seen()
        seen_fixed = set()
        for name, cells in solution.placements:
            as_fixed = (name, tuple(sorted(cells)))
            is_fixed = as_fixed in fixed
            if is_fixed:
                seen_fixed.add(as_fixed)
            if name not in pieces and not is_fixed:
                raise VerificationError(f"unknown piece {name!r} placed at {_fmt(cells)}")
            for c in cells:
                if c in covered:
                    raise VerificationError(f"cell {_fmt([c])} covered by both {covered[c]} and {name}")
                if c not in self.board and not is_fixed:
                    raise VerificationError(f"piece {name} covers {_fmt([c])}, which is not a free cell of the board")
                covered[c] = name
            if is_fixed:
                continue
            counts[name] = counts.get(name, 0) + 1
            key = (name, tuple(cells))
            if key in congruent:
                continue
            piece = pieces[name]
            if not congruence.congruent(self.lattice.name, piece.cells, cells, piece.one_sided):
                raise VerificationError(f"piece {name} placed at {_fmt(cells)} is not an image of its shape")
            congruent.add(key)
        # (a solution without a fixed piece left its cells bare, and passed)
        left_out = sorted(fixed - seen_fixed)
        if left_out:
            name, cells = left_out[0]
            raise VerificationError(f"piece {name} fixed at {_fmt(cells)} is missing")
        missing = self.board - covered.keys()
        if missing:
            raise VerificationError(f"cell {_fmt([min(missing)])} is not covered")
        for p in self.pieces:
            if counts.get(p.name, 0) != p.count:
                raise VerificationError(f"piece {p.name} used {_plural(counts.get(p.name, 0), 'time')}, "
                                        f"expected {p.count}")

    def _congruent_seen(self) -> set:
        """The placements (piece, cells) the verifier has found congruent so
        far (a count's solutions share most of them), kept while the pieces
        stay the same."""
        key = (self.lattice.name, tuple((p.name, tuple(p.cells), p.one_sided) for p in self.pieces))
        cached = self.__dict__.get("_verifier")
        if cached is None or cached[0] != key:
            cached = (key, set())
            self.__dict__["_verifier"] = cached
        return cached[1]

    # ------------------------------------------------------------ rendering
    def render_text(self, solution: TilingSolution, color: bool = False) -> str:
        return render.text(self, solution, color)

    def render_svg(self, solution: TilingSolution) -> str:
        return render.svg(self, solution)

    def solution_json(self, solution: TilingSolution):
        out = {"placements": [{"piece": n, "cells": [[x + 1 for x in c] for c in cells]}
                              for n, cells in solution.placements]}
        if render.draws_rows(self):
            out["rows"] = render.drawing(self, solution, False).splitlines()
            out["glyphs"] = render.glyphs_for(self).first
            # pieces two touching copies of which share a glyph in ``rows``
            # (the text's note): the placements tell them apart
            out["look_alike"] = render.look_alike(self, solution)
        return out

    def info(self, problem: Problem) -> dict:
        placements_per = {p.name: 0 for p in self.pieces}
        for v in problem.primary:
            placements_per[problem.meaning(v).piece] += 1
        implied = self._implied_count()
        notes = list(self.notes)
        if implied is not None:
            notes.append(f"piece {implied.name}'s count ({implied.count}) follows from the board's area"
                         + (" and the other counts" if len(self.pieces) > 1 else "")
                         + ": the model states no constraint for it")
        whole = self._whole_board()
        return {
            "source": self.source,  # (the file's source key; it was read, checked and shown nowhere, QA)
            "lattice": self.lattice.name,
            "board_cells": len(self.board),
            "pieces": [
                {"name": p.name, "count": p.count, "cells": len(p.cells), "one_sided": p.one_sided,
                 "placements": placements_per[p.name],
                 "orientations": len(self._orient_used.get(p.name, ())),
                 "orientations_free": len(self.orientations_of(p))}
                for p in self.pieces
            ],
            "fixed": [{"name": n, "cells": [[x + 1 for x in c] for c in cells]} for n, cells in self.fixed],
            # the board's own (holes included), and those the pieces keep
            # too (a one-sided L with no J keeps the turns only)
            # (the whole board's: the cells of pieces fixed in place are the
            # board's too; a 2 x 4 box with its end columns reserved had the
            # 8 of the free 2 x 2, QA)
            "board_symmetries": self._distinct_cell_maps(
                board_symmetries(self.lattice, whole, self.holes), whole),
            "piece_symmetries": self._distinct_cell_maps((g for g, _ in self._piece_symmetries()), whole),
            "implied_count": implied.name if implied is not None else None,
            "notes": notes,
        }

    def describe_var(self, meaning) -> str:
        return str(meaning)


def _plural(n: int, word: str) -> str:
    from ...errors import plural

    return plural(n, word)


def _fmt(cells) -> str:
    return " ".join("(" + ", ".join(str(x + 1) for x in c) + ")" for c in cells)


def _cell_images(g, board: list) -> tuple:
    """Where the board symmetry ``g`` takes each of these cells, in order,
    computed a coordinate at a time as geometry.transform does (a point at
    a time, info's two looks at a 300 x 300 board's 8 symmetries took 4.5 s)."""
    m, t = g
    return tuple(translate(transform(m, board), t))


def _array_permutations(prob: Problem, board: list, maps) -> list[dict[int, int]]:
    """Tiling._symmetries' permutations of the placements, for each map
    ``(g, swap)`` that takes every placement onto one (the others are
    dropped), each permutation once (distinct_permutations' job, which
    took 15 s of a 1000 x 1000 board's symmetries: here equal image arrays
    are equal permutations), found with arrays.

    A placement is its piece and its cells' numbers in the board's order
    (one row of a piece's array).  A row's key is the sum of a fixed random
    64-bit number per cell (a set's, whatever the order of its cells); a
    map's images of a piece's rows are looked up among its image piece's
    keys by binary search, and each match is checked cell by cell.  Keys
    two rows share (in 2^64, never seen) fall back to the rows themselves
    as keys (sorted, as bytes: binary search on those compares bytes, and
    took 26 of the 1000 x 1000 board's 111 s)."""
    import numpy as np

    points, lo, grid = cell_grid(board)
    weight = _cell_weights(len(board))
    rows: dict[str, tuple[list, list]] = {}
    for v in prob.primary:
        m: Place = prob.meaning(v)
        got = rows.setdefault(m.piece, ([], []))
        got[0].append(m.cells)
        got[1].append(v)
    pieces = {}
    for piece, (placed, vs) in rows.items():
        at = np.array(placed, dtype=np.int64)
        cells = grid_lookup(grid, lo, at.reshape(-1, at.shape[-1])).reshape(at.shape[:2])
        pieces[piece] = (np.sort(cells, axis=1), np.array(vs, dtype=np.int64), _RowIndex(cells, weight))
    every = np.concatenate([vs for _, vs, _ in pieces.values()] or [np.zeros(0, dtype=np.int64)])
    out, seen = [], set()
    for g, swap in maps:
        m, t = g  # (a map of the board onto itself: every image is a cell)
        image = grid_lookup(grid, lo, points @ np.array(m, dtype=np.int64).T + np.array(t, dtype=np.int64))
        if (image < 0).any():
            continue  # not a map of the board onto itself (board_symmetries gives none such)
        found = []
        for piece, (cells, vs, _) in pieces.items():
            target = pieces.get(swap[piece])
            if target is None or target[0].shape[1] != cells.shape[1]:
                break
            at = target[2].find(image[cells], target[0])
            if at is None:
                break  # a placement whose image is none
            found.append(target[1][at])
        else:
            images = np.concatenate(found or [every])
            key = images.tobytes()
            if key not in seen:
                seen.add(key)
                change = images != every
                out.append(dict(zip(every[change].tolist(), images[change].tolist())))
    return out


def _cell_weights(n: int):
    """The fixed random 64-bit number of each of n cells (_RowIndex keys)."""
    import numpy as np

    return np.random.default_rng(1).integers(0, 2**63, size=n, dtype=np.int64).view(np.uint64)


class _RowIndex:
    """A piece's rows of cell numbers, found by the set of cells they hold
    (_array_permutations)."""

    def __init__(self, cells, weight):
        import numpy as np

        self.weight = weight
        keys = weight[cells].sum(axis=1, dtype=np.uint64)
        self.order = np.argsort(keys, kind="stable")
        self.keys = keys[self.order]
        self.exact = bool((self.keys[1:] != self.keys[:-1]).all())
        if not self.exact:
            self.keys, self.order = self._as_bytes(np.sort(cells, axis=1))

    @staticmethod
    def _row_bytes(rows):
        """Each row of cell numbers (sorted) as one bytes key."""
        import numpy as np

        rows = np.ascontiguousarray(rows)
        return rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()

    @classmethod
    def _as_bytes(cls, rows):
        import numpy as np

        keys = cls._row_bytes(rows)
        order = np.argsort(keys, kind="stable")
        return keys[order], order

    def find(self, queries, rows):
        """Each query row's index among the rows (``rows``: them sorted
        within each row), or None if some query is none of them."""
        import numpy as np

        moved = np.sort(queries, axis=1)
        keys = self.weight[queries].sum(axis=1, dtype=np.uint64) if self.exact else self._row_bytes(moved)
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        if not (self.keys[at] == keys).all():
            return None
        at = self.order[at]
        if self.exact and not (rows[at] == moved).all():
            # two sets of cells with one key: look the rows themselves up
            self.keys, self.order = self._as_bytes(rows)
            self.exact = False
            return self.find(queries, rows)
        return at
