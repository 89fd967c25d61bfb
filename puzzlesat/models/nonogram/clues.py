"""Clues of a nonogram line: run lengths, their automaton, and counting.

A clue ``(b1, ..., bk)`` says the line reads ``0* 1^b1 0+ 1^b2 0+ ... 1^bk 0*``:
runs of 1s of those lengths, in order, separated by at least one 0.  The
empty clue ``()`` means an all-0 line.

The automaton built here is the one every back end receives through
``Regular``.  Its states are numbered along the pattern, so every transition
either stays put (a 0 read in a gap) or moves to the next state; the line
solver relies on that shape for its bit-parallel sweeps, the encoders do not.
"""

from __future__ import annotations

from math import comb
from typing import Iterable, Sequence

from ...problem import Automaton

Clue = tuple[int, ...]


def runs(line: Iterable[int]) -> Clue:
    """The run lengths of 1s in ``line`` (the clue it satisfies)."""
    out: list[int] = []
    n = 0
    for bit in line:
        if bit:
            n += 1
        elif n:
            out.append(n)
            n = 0
    if n:
        out.append(n)
    return tuple(out)


def min_length(clue: Sequence[int]) -> int:
    """The shortest line that holds ``clue``: its runs plus one gap between each."""
    return sum(clue) + len(clue) - 1 if clue else 0


def freedom(clue: Sequence[int], n: int) -> int:
    """Slack of ``clue`` in a line of length ``n`` (Kikuchi's "freedom")."""
    return n - min_length(clue)


def placements(clue: Sequence[int], n: int) -> int:
    """How many lines of length ``n`` satisfy ``clue``: C(n - sum + 1, k)."""
    f = freedom(clue, n)
    if f < 0:
        return 0
    k = len(clue)
    return comb(n - sum(clue) + 1, k)


class RunLengthShape:
    """The run-length automaton of a clue as bit masks over its states.

    States, in order: the gap before run 1, then for each run i its cells
    1..b_i followed by the gap after it (the last gap is the trailing one).
    So there are ``1 + sum(b) + k`` states; bit ``s`` of a mask is state ``s``.

    - ``stay0``: gap states, which loop on 0;
    - ``adv0``: last cells of a run, which move to the following gap on 0;
    - ``adv1``: gaps before a run and non-last cells, which move to the
      next state on 1.

    Every other (state, bit) pair rejects.  ``accepting`` holds the trailing
    gap and the last cell of the last run (just the single state for ``()``).
    """

    __slots__ = ("clue", "n_states", "stay0", "adv0", "adv1", "accepting")

    def __init__(self, clue: Sequence[int]):
        self.clue = tuple(clue)
        stay0 = adv0 = adv1 = 0
        s = 0
        stay0 |= 1 << s  # the leading gap
        for i, b in enumerate(self.clue):
            adv1 |= 1 << s  # gap -> first cell of run i
            for j in range(1, b + 1):
                s += 1
                if j < b:
                    adv1 |= 1 << s
                else:
                    adv0 |= 1 << s
            s += 1  # the gap after run i
            stay0 |= 1 << s
        self.n_states = s + 1
        self.stay0, self.adv0, self.adv1 = stay0, adv0, adv1
        last = self.n_states - 1
        self.accepting = (1 << last) | ((1 << (last - 1)) if self.clue else 0)

    def automaton(self) -> Automaton:
        trans = []
        for s in range(self.n_states):
            bit = 1 << s
            on0 = s if self.stay0 & bit else (s + 1 if self.adv0 & bit else None)
            on1 = s + 1 if self.adv1 & bit else None
            trans.append((on0, on1))
        acc = frozenset(s for s in range(self.n_states) if self.accepting >> s & 1)
        return Automaton(tuple(trans), 0, acc)


def clue_automaton(clue: Sequence[int]) -> Automaton:
    """The DFA accepting exactly the 0/1 words whose runs of 1s are ``clue``.

    >>> a = clue_automaton((2, 1))
    >>> a.accepts([0, 1, 1, 0, 1]), a.accepts([1, 1, 1, 0, 1]), a.accepts([1, 1, 0, 0])
    (True, False, False)
    """
    return RunLengthShape(clue).automaton()

