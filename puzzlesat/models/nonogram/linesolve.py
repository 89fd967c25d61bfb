"""Line solving: the fixpoint of Kikuchi's rule (background.md, section 3).

The rule: in a line, a cell is fixed when every placement of the clue that
agrees with the line's known cells gives it the same value.  Applying it to
rows and columns in turn until nothing changes is what a person does with
"simple boxes" and "simple spaces" taken to their limit; it proves many
puzzles unique on its own, but not all (n-Dom is the classic where it
stalls), so it is a report and a preprocessing step, never the solver.

One line is solved without enumerating placements (there are C(f + k, k) of
them): a forward sweep computes, for each position, the set of automaton
states reachable from the start through letters the known cells allow, and a
backward sweep keeps those from which an accepting state stays reachable.  A
cell can be 0 (or 1) iff some surviving state at its position has a
surviving 0-edge (1-edge).  State sets are Python ints used as bit sets over
the run-length automaton of :mod:`.clues`, whose transitions only stay or
advance by one, so each step is a few shifts and masks: O(n) big-int
operations per line.  This is the same computation unit propagation does on
the CNF encoding of one line (:mod:`puzzlesat.encoders.regular`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .clues import RunLengthShape

Known = list  # of 0, 1 or None


def solve_line(shape: RunLengthShape, known: Sequence[int | None]) -> list[int | None] | None:
    """The line with every cell the rule fixes filled in, or None when no
    placement of the clue agrees with ``known``."""
    n = len(known)
    st0, a0, a1 = shape.stay0, shape.adv0, shape.adv1
    fwd = [1]
    f = 1
    for k in known:
        nxt = 0
        if k != 1:
            nxt = (f & st0) | ((f & a0) << 1)
        if k != 0:
            nxt |= (f & a1) << 1
        if not nxt:
            return None
        fwd.append(nxt)
        f = nxt
    back = f & shape.accepting
    if not back:
        return None
    out = list(known)
    for i in range(n - 1, -1, -1):
        f = fwd[i]
        k = known[i]
        shifted = back >> 1
        b0 = f & ((st0 & back) | (a0 & shifted)) if k != 1 else 0
        b1 = f & a1 & shifted if k != 0 else 0
        if k is None:
            if not b0:
                out[i] = 1
            elif not b1:
                out[i] = 0
        back = b0 | b1
    return out


@dataclass
class Round:
    """One sweep over the rows or over the columns that needed another look
    (the last one cut short where a line had no placement, if any had none)."""

    lines: str  # "rows" or "columns"
    fixed: int  # cells newly fixed by this sweep
    grid: list[list[int | None]] | None = None  # the grid after it, when recorded
    #: the line (e.g. "column 3") that ended this sweep with no placement
    contradiction: str | None = None


@dataclass
class LineSolveResult:
    grid: list[list[int | None]]
    contradiction: bool
    rounds: list[Round] = field(default_factory=list)
    #: the line (e.g. "row 3") where line solving found no placement, if any
    contradiction_at: str | None = None

    @property
    def fixed(self) -> int:
        return sum(v is not None for row in self.grid for v in row)

    @property
    def cells(self) -> int:
        return sum(len(row) for row in self.grid)

    @property
    def solved(self) -> bool:
        return not self.contradiction and self.fixed == self.cells


def line_solve(puzzle, record: bool = False,
               start: Sequence[Sequence[int | None]] | None = None) -> LineSolveResult:
    """Apply the line rule to rows, then columns, then rows... to a fixpoint.

    Each sweep looks only at lines crossing a cell fixed since that line was
    last solved (all lines at first).  With ``record`` every sweep keeps a
    copy of the grid, for ``check --steps``.
    """
    h, w = puzzle.height, puzzle.width
    grid: list[list[int | None]] = ([list(r) for r in start] if start is not None
                                    else [[None] * w for _ in range(h)])
    row_shapes = [RunLengthShape(c) for c in puzzle.rows]
    col_shapes = [RunLengthShape(c) for c in puzzle.cols]
    dirty_rows, dirty_cols = set(range(h)), set(range(w))
    result = LineSolveResult(grid, False)
    doing_rows = True
    while dirty_rows or dirty_cols:
        fixed = 0
        stuck = None  # the line with no placement, which ends the sweep and the solving
        if doing_rows:
            todo, dirty_rows = sorted(dirty_rows), set()
            for r in todo:
                new = solve_line(row_shapes[r], grid[r])
                if new is None:
                    stuck = f"row {r + 1}"
                    break
                for c in range(w):
                    if grid[r][c] is None and new[c] is not None:
                        grid[r][c] = new[c]
                        dirty_cols.add(c)
                        fixed += 1
        else:
            todo, dirty_cols = sorted(dirty_cols), set()
            for c in todo:
                line = [grid[r][c] for r in range(h)]
                new = solve_line(col_shapes[c], line)
                if new is None:
                    stuck = f"column {c + 1}"
                    break
                for r in range(h):
                    if line[r] is None and new[r] is not None:
                        grid[r][c] = new[r]
                        dirty_rows.add(r)
                        fixed += 1
        if todo:  # the sweep that hits a contradiction is a round too: its cells count
            result.rounds.append(Round("rows" if doing_rows else "columns", fixed,
                                       [list(r) for r in grid] if record else None, stuck))
        if stuck:
            result.contradiction, result.contradiction_at = True, stuck
            return result
        doing_rows = not doing_rows
    return result
