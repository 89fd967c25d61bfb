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

import math
from dataclasses import dataclass, field
from typing import Sequence

from .clues import RunLengthShape

Known = list  # of 0, 1 or None


#: lines whose state sets would take more bits than this all told (positions
#: x states) are solved by :func:`_solve_long_line`, in bounded memory
LONG_LINE_BITS = 1 << 24


def solve_line(shape: RunLengthShape, known: Sequence[int | None]) -> list[int | None] | None:
    """The line with every cell the rule fixes filled in, or None when no
    placement of the clue agrees with ``known``."""
    if len(known) * shape.n_states > LONG_LINE_BITS:
        return _solve_long_line(shape, known)
    live = _live_edges(shape, known)
    if live is None:
        return None
    out = list(known)
    for i, (k, (b0, b1)) in enumerate(zip(known, live)):
        if k is None:
            if not b0:
                out[i] = 1
            elif not b1:
                out[i] = 0
    return out


def _live_edges(shape: RunLengthShape, known: Sequence[int | None]) -> list[tuple[int, int]] | None:
    """Per position i, the states (bit sets) whose 0-edge and whose 1-edge
    at i lie on a path from the start to acceptance through letters the
    known cells allow; None when there is no such path.  A forward sweep
    keeps the states reachable before each letter, a backward one those
    from which acceptance stays reachable."""
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
    live = [(0, 0)] * len(known)
    for i in range(len(known) - 1, -1, -1):
        f = fwd[i]
        k = known[i]
        shifted = back >> 1
        b0 = f & ((st0 & back) | (a0 & shifted)) if k != 1 else 0
        b1 = f & a1 & shifted if k != 0 else 0
        live[i] = (b0, b1)
        back = b0 | b1
    return live


def start_ranges(shape: RunLengthShape, known: Sequence[int | None]) -> tuple[list[int], list[int]] | None:
    """The leftmost and rightmost start of each run of the clue over all
    placements that agree with ``known``, or None when there is none.

    Run j can start at position i when the gap state before it has a live
    1-edge there (:func:`_live_edges`).  A run's first and last such
    positions are found by keeping, per position, the set of runs that can
    start there, and taking each bit the first time it is seen from either
    end.  For a long line (:data:`LONG_LINE_BITS`) the answer is the bounds
    the clue alone gives (:func:`.blocks.start_bounds`): looser, never wrong.
    """
    n, clue = len(known), shape.clue
    if n * shape.n_states > LONG_LINE_BITS:
        from .blocks import start_bounds

        return start_bounds(clue, n)
    live = _live_edges(shape, known)
    if live is None:
        return None
    gaps, g = [], 0  # the state before each run
    for b in clue:
        gaps.append(g)
        g += b + 1
    gap_mask = sum(1 << g for g in gaps)
    starts = [b1 & gap_mask for _, b1 in live]  # the runs (their gap states) that can start at each position
    index = {g: j for j, g in enumerate(gaps)}
    lo, hi = [0] * len(clue), [0] * len(clue)
    for bounds, order in ((lo, range(n)), (hi, range(n - 1, -1, -1))):
        seen = 0
        for i in order:
            new = starts[i] & ~seen
            if new:
                seen |= new
                while new:
                    bit = new & -new
                    bounds[index[bit.bit_length() - 1]] = i
                    new ^= bit
    return lo, hi


def _solve_long_line(shape: RunLengthShape, known: Sequence[int | None],
                     block: int | None = None) -> list[int | None] | None:
    """:func:`solve_line` for a long line, in memory and time linear in its
    length times the width of a window of states, not its square.

    A placement spends its free 0s (``f`` of them, at most, all told) looping
    in gap states and advances one state on every other letter, so after
    ``i`` letters a state that can still end in an accepting one lies in
    ``[i - f, i]``: each state set is kept shifted down to that window, whose
    slices of the transition masks are read out of bytes (an int shift would
    cost the whole mask).  The forward sets are kept only every ``block``
    positions (about sqrt(n)); the backward sweep recomputes each block's
    from there.  A 200,001-cell row took 2.7 GB and ~5 s one way, a
    1,000,000-cell one would have taken ~60 GB."""
    n = len(known)
    n_states = shape.n_states
    free = n - n_states + 2  # the most 0s looping in gaps: the final state is the last or the one before
    if free < 0:
        return None
    width = min(free + 1, n_states) + 1  # window bits, and one for the state a step advances into
    size = (n_states + width + 16) // 8
    masks = [m.to_bytes(size, "little") for m in (shape.stay0, shape.adv0, shape.adv1)]
    keep = (1 << width) - 1

    def low(i: int) -> int:  # the window's first state at position i
        return i - free if i > free else 0

    def window(i: int) -> tuple[int, int, int]:
        lo = low(i)
        a, b = lo >> 3, ((lo + width) >> 3) + 1
        return tuple(int.from_bytes(m[a:b], "little") >> (lo & 7) & keep for m in masks)

    def step(cur: int, i: int) -> int:  # the set after letter i, from the set before it
        st0, a0, a1 = window(i)
        k = known[i]
        nxt = 0
        if k != 1:
            nxt = (cur & st0) | ((cur & a0) << 1)
        if k != 0:
            nxt |= (cur & a1) << 1
        return nxt >> (low(i + 1) - low(i))

    block = block or max(64, math.isqrt(n))
    marks = []  # the forward set at every block-th position
    cur = 1
    for i in range(n):
        if i % block == 0:
            marks.append(cur)
        cur = step(cur, i)
        if not cur:
            return None
    back = cur & (shape.accepting >> low(n))
    if not back:
        return None
    out = list(known)
    for start in range(len(marks) - 1, -1, -1):
        ends = min(start * block + block, n)
        fwd = [marks[start]]
        for i in range(start * block, ends - 1):
            fwd.append(step(fwd[-1], i))
        for i in range(ends - 1, start * block - 1, -1):
            f = fwd[i - start * block]
            st0, a0, a1 = window(i)
            k = known[i]
            back <<= low(i + 1) - low(i)  # to position i's window
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

    def contradiction_said(self) -> str:
        """Where the contradiction was found, as the reports say it ("in
        round 2, after fixing 3 of 6 cells, no placement of column 1's clue
        fits")."""
        from ...errors import number, plural

        return (f"in round {len(self.rounds)}, after fixing {number(self.fixed)} of {plural(self.cells, 'cell')}, "
                f"no placement of {self.contradiction_at}'s clue fits")


def line_solve(puzzle, record: bool = False,
               start: Sequence[Sequence[int | None]] | None = None,
               sink: list | None = None) -> LineSolveResult:
    """Apply the line rule to rows, then columns, then rows... to a fixpoint.

    Each sweep looks only at lines crossing a cell fixed since that line was
    last solved (all lines at first).  With ``record`` every sweep keeps a
    copy of the grid, for ``check --steps``.  ``sink``: the result is
    appended to it before the first sweep, so that a caller whose time limit
    stops this part-way still has the rounds finished.
    """
    h, w = puzzle.height, puzzle.width
    grid: list[list[int | None]] = ([list(r) for r in start] if start is not None
                                    else [[None] * w for _ in range(h)])
    row_shapes = [RunLengthShape(c) for c in puzzle.rows]
    col_shapes = [RunLengthShape(c) for c in puzzle.cols]
    dirty_rows, dirty_cols = set(range(h)), set(range(w))
    result = LineSolveResult(grid, False)
    if sink is not None:
        sink.append(result)
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
