"""The nonogram family: clues in, a Problem out, a grid back, checked by runs.

Each cell (row, col) is one primary Boolean variable, true for black.  Each
row and each column states its clue over its cells either as clauses over
auxiliary block-start order literals (:mod:`.blocks`, the default) or as one
``Regular`` constraint with the run-length automaton of its clue (or both;
``line_encoding``).  Every solution has the same number of
black cells (the sum of the clues), so the Problem is ``fixed_weight``:
blocking the black cells of a solution excludes exactly that solution.

Optionally (``preprocess=True``) the line solver runs first: every cell it
fixes becomes a unit clause, and each block's order literals cover only the
starts that agree with those cells; that never changes the set of
solutions.  ``solve``, ``count`` and ``check`` preprocess unless told not
to; the model ``info``, ``export``, ``decode`` and ``compare`` work on is
the clues as stated (the field's default).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ...errors import VerificationError
from ...problem import Clause, Problem
from ...puzzle import Puzzle
from . import linesolve, render
from .blocks import BlockStart, block_clauses, block_positions
from .clues import Clue, RunLengthShape, runs
from .linesolve import LineSolveResult, start_ranges
from .symmetry import clue_symmetries


class Cell(NamedTuple):
    """The meaning of a cell variable (0-based; printed 1-based)."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"cell row {self.row + 1} column {self.col + 1} is black"


#: compile()'s ways to state a line's clue.  "blocks" (the default): block-start
#: order literals and clauses (:mod:`.blocks`), measured 3-4x faster on every
#: CNF engine than "regular" (one Regular constraint with the run-length
#: automaton, whose CNF makes unit propagation do full line reasoning); "both"
#: channels the two to the same cells.  See benchmarks/nonograms-results.md.
LINE_ENCODINGS = ("blocks", "regular", "both")

#: A solution: one tuple of 0/1 per row.
Grid = tuple[tuple[int, ...], ...]


@dataclass
class Nonogram(Puzzle):
    """A black-and-white nonogram: ``rows[r]`` and ``cols[c]`` are clues.

    ``goal`` is the known picture when the file has one (rows of 0/1).
    ``meta`` keeps the file's descriptive keys (by, copyright, license, ...)
    so attribution travels with the puzzle.
    """

    width: int
    height: int
    rows: list[Clue]
    cols: list[Clue]
    goal: Grid | None = None
    title: str = ""
    path: str | None = None
    meta: dict = field(default_factory=dict)
    expected: dict = field(default_factory=dict)
    #: compile() line-solves first (see the module's docstring)
    preprocess: bool = False
    #: how compile() states a line's clue: see LINE_ENCODINGS
    line_encoding: str = "blocks"
    family: str = "nonogram"
    symmetric_first: bool = True
    #: the text drawing has no colours (``--color always`` gets a warning); a
    #: class attribute, not a dataclass field
    renders_color = False
    #: the line solver's fixpoint once worked out (:meth:`line_solved`)
    _lines: LineSolveResult | None = field(default=None, init=False, repr=False, compare=False)
    #: the line solving under way or last begun (:meth:`lines_so_far`)
    _begun: list = field(default_factory=list, init=False, repr=False, compare=False)

    def line_solved(self, record: bool = False) -> LineSolveResult:
        """The fixpoint of the line rule (:func:`.linesolve.line_solve`),
        worked out once: ``check`` reports it and then compiles with it
        (``record``: with the rounds, for ``check --steps``)."""
        if self._lines is None or (record and any(r.grid is None for r in self._lines.rounds)):
            self._begun.clear()
            self._lines = linesolve.line_solve(self, record=record, sink=self._begun)
        return self._lines

    def lines_so_far(self) -> tuple[LineSolveResult | None, bool]:
        """(the line solving's result, whether it reached its end): the
        rounds finished when a time limit stopped it part-way (``check
        --steps`` shows them), or (None, False) if it never began."""
        if self._begun and self._begun[-1] is not self._lines:  # (a run for the rounds' grids, stopped)
            return self._begun[-1], False
        return self._lines, self._lines is not None

    # ------------------------------------------------------------ compiling
    def compile(self, preprocess: bool | None = None, line_encoding: str | None = None) -> Problem:
        """One primary variable per cell, row-major, and per line (``line_encoding``,
        default: the field of that name) its clue as clauses over block-start
        order literals (``"blocks"``, :mod:`.blocks`), as a ``Regular``
        constraint with the run-length automaton (``"regular"``), or both.

        With ``preprocess`` (default: the ``preprocess`` field) the cells the
        line solver fixes are added as unit clauses, and each block's order
        literals cover only the starts that agree with them; a line whose
        every cell it fixes is stated by those units alone (a line-solved
        puzzle's model is its cells' units).  If line solving alone finds a
        contradiction the model is the empty clause (over the cell variables).
        """
        how = self.line_encoding if line_encoding is None else line_encoding
        if how not in LINE_ENCODINGS:
            raise ValueError(f"unknown line encoding {how!r}; choose one of: {', '.join(LINE_ENCODINGS)}")
        solved = None
        if self.preprocess if preprocess is None else preprocess:
            solved = self.line_solved()
        prob = Problem(fixed_weight=True)
        cell = [[prob.var(Cell(r, c)) for c in range(self.width)] for r in range(self.height)]
        prob.symmetries = [{cell[r][c]: cell[rr][cc] for (r, c), (rr, cc) in m.items()}
                           for m in clue_symmetries(self.rows, self.cols)]
        if solved is not None and solved.contradiction:
            # no solution: the empty clause says all there is (stating every
            # line besides took a 300x300 picture past 4 GB)
            prob.add(Clause(()))
            return prob
        lines = [(("row", r), cell[r], clue) for r, clue in enumerate(self.rows)]
        lines += [(("column", c), [cell[r][c] for r in range(self.height)], clue) for c, clue in enumerate(self.cols)]
        for line, xs, clue in lines:
            shape, bounds = RunLengthShape(clue), None
            if solved is not None:
                kind, i = line
                known = solved.grid[i] if kind == "row" else [row[i] for row in solved.grid]
                if None not in known:
                    # line logic fixed every cell of the line, to the one
                    # placement that agrees with them all: its units below
                    # say all there is (a line-solved 500x500 picture kept
                    # 500,000 clauses that repeated them)
                    continue
                # each block's starts over the placements that agree with the
                # cells line logic fixed: every solution's are there
                bounds = start_ranges(shape, known)
            if how in ("regular", "both"):
                prob.regular(xs, shape.automaton())
            if how in ("blocks", "both"):
                def order_var(j, p, line=line):
                    return prob.var(BlockStart(line, j, p), primary=False)

                prob.add_clauses(block_clauses(xs, clue, order_var, bounds))
                prob.partitions += block_positions(clue, len(xs), order_var, bounds)
        if solved is not None:
            for r in range(self.height):
                for c in range(self.width):
                    v = solved.grid[r][c]
                    if v is not None:
                        prob.add(Clause((cell[r][c] if v else -cell[r][c],)))
        return prob

    def decode(self, problem: Problem, assignment: frozenset) -> Grid:
        grid = [[0] * self.width for _ in range(self.height)]
        for v in assignment:
            m = problem.meaning(v)
            if isinstance(m, Cell):
                grid[m.row][m.col] = 1
        return tuple(tuple(row) for row in grid)

    def verify(self, solution: Grid) -> None:
        """Every row's and column's runs equal its clue (no automaton involved)."""
        if len(solution) != self.height or any(len(row) != self.width for row in solution):
            raise VerificationError(f"the grid is not {self.width} wide and {self.height} high")
        for r, clue in enumerate(self.rows):
            got = runs(solution[r])
            if got != tuple(clue):
                raise VerificationError(f"row {r + 1} has runs {_fmt(got)}, its clue is {_fmt(clue)}")
        for c, clue in enumerate(self.cols):
            got = runs(solution[r][c] for r in range(self.height))
            if got != tuple(clue):
                raise VerificationError(f"column {c + 1} has runs {_fmt(got)}, its clue is {_fmt(clue)}")

    def precheck(self) -> str | None:
        """Why there can be no solution, found without searching (or None):
        the row clues and the column clues must ask for as many black cells,
        and, when preprocessing, line logic must find no contradiction (its
        model is then the empty clause: an engine would only say "none")."""
        sums = self.sums_differ()
        if sums:
            return sums
        return self.line_contradiction() if self.preprocess else None

    def line_contradiction(self) -> str | None:
        """The contradiction line logic finds, said (None without one).  A
        goal picture (which the parser checked against the clues), verified,
        proves line logic wrong: VerificationError."""
        lines = self.line_solved()
        if not lines.contradiction:
            return None
        if self.goal is not None:
            try:
                self.verify(self.goal)
            except VerificationError:  # (no solution either: nothing said against line logic)
                pass
            else:
                raise VerificationError(f"line logic says there is no solution ({lines.contradiction_said()}), "
                                        "but the file's goal picture is one (verified): line logic is wrong")
        return f"line logic finds a contradiction: {lines.contradiction_said()}"

    def counts_differ(self) -> str | None:
        return self.sums_differ()

    def sums_differ(self) -> str | None:
        """The row clues and the column clues ask for different numbers of
        black cells: why there is no picture (or None)."""
        from ...errors import plural

        black_r, black_c = sum(map(sum, self.rows)), sum(map(sum, self.cols))
        if black_r != black_c:
            return (f"the row clues ask for {plural(black_r, 'black cell')} but the column clues for {black_c}, "
                    "so no picture satisfies both")
        return None

    def known_solution(self, problem: Problem) -> frozenset | None:
        """The goal picture's black cells (None without a goal)."""
        if self.goal is None:
            return None
        cells = [problem.lookup(Cell(r, c)) for r in range(self.height) for c in range(self.width)
                 if self.goal[r][c]]
        return None if None in cells else frozenset(cells)

    def matches_goal(self, solution: Grid) -> bool | None:
        """Whether ``solution`` is the file's goal picture (None without one)."""
        return None if self.goal is None else tuple(map(tuple, solution)) == self.goal

    # ------------------------------------------------------------ rendering
    def render_text(self, solution: Grid, color: bool = False) -> str:
        return render.text(solution)

    def render_svg(self, solution: Grid) -> str:
        return render.svg(self, solution)

    def render_png(self, solution: Grid, path: str) -> None:
        """Write the picture to ``path`` as a PNG (``solve --png FILE``; ``-``: stdout)."""
        import sys

        from ...errors import InputError

        data = render.png(self, solution)  # (drawn before the file is opened: a failure left it empty)
        if path == "-":
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
            return
        try:
            with open(path, "wb") as f:
                f.write(data)
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror}", path) from None

    def solution_json(self, solution: Grid) -> list[str]:
        """The picture as strings of ``#`` (black) and ``.`` (white), top row first."""
        return render.plain(solution).splitlines()

    def info(self, problem: Problem) -> dict:
        from .clues import freedom, placements

        lines = [(c, self.width) for c in self.rows] + [(c, self.height) for c in self.cols]
        return {
            "width": self.width,
            "height": self.height,
            "cells": self.width * self.height,
            "black_cells": sum(map(sum, self.rows)),
            "has_goal": self.goal is not None,
            "max_freedom": max((freedom(c, n) for c, n in lines), default=0),
            "max_line_placements": max((placements(c, n) for c, n in lines), default=0),
            # rotations / reflections of the non-empty lines' box that keep the clues
            "clue_symmetries": len(problem.symmetries),
            **{k: v for k, v in self.meta.items() if k in ("by", "copyright", "license", "catalogue")},
        }

    def describe_var(self, meaning) -> str:
        return str(meaning)


def _fmt(clue) -> str:
    return ",".join(map(str, clue)) if clue else "0"
