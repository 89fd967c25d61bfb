"""What every puzzle family provides (DESIGN.md's front end).

A family parses its files into a :class:`Puzzle`; the rest of puzzlesat only
talks to these methods, so jobs, the CLI and the exporters work for every
family alike.
"""

from __future__ import annotations

from typing import Any

from .problem import Problem


class Puzzle:
    #: family name: "tiling", "nonogram"
    family: str = "?"
    #: one-line title, and the file it came from (None for built-in ones)
    title: str = ""
    path: str | None = None
    #: published or expected counts from the file, e.g. {"count": 8, "unique": 2}
    expected: dict
    #: solve / count --limit look for solutions fixed by the symmetries first
    #: (jobs._search_symmetric_first): worth it where designers draw
    #: symmetric solutions (nonograms), not where few exist (tilings)
    symmetric_first: bool = False
    #: what the file said that the format lets a reader ignore (and this one
    #: did), as "file:line: ..." messages; the CLI prints them as warnings,
    #: so that nothing a user wrote is dropped without a word
    ignored: tuple[str, ...] = ()

    def compile(self) -> Problem:
        """The solver-neutral model.  Its primary variables carry meanings
        that :meth:`decode` reads back; its symmetries are the puzzle's."""
        raise NotImplementedError

    def precheck(self) -> str | None:
        """Why the puzzle can have no solution, found without a search (a
        tiling's pieces that do not add up to its board, a nonogram's row and
        column clues asking for different numbers of black cells), or None.
        Jobs answer "no solution" with it, exit 1, and call no engine."""
        return None

    def counts_differ(self) -> str | None:
        """The part of :meth:`precheck` that needs no model (a tiling's
        pieces that cover more or fewer cells than its board has, a
        nonogram's clue sums that differ), or None.  ``solve`` and ``count``
        ask it before compiling: a 1000 x 1000 board that three dominoes
        cannot cover took 15 s and a GB of placements to be told so."""
        return None

    def implied(self, problem: Problem) -> list:
        """Constraints that every solution satisfies but ``problem`` leaves
        unsaid (a tiling's placements that cut off an unfillable region),
        for jobs to add before a count: they change no count and spare the
        engines dead branches.  Must be closed under ``problem.symmetries``."""
        return []

    def known_solution(self, problem: Problem) -> frozenset | None:
        """A solution the file itself gives (a nonogram's goal picture), as the
        true primary variables of ``problem``; None when it gives none.
        ``count`` verifies it and starts from it: it is one solution, and the
        search for others starts next to it."""
        return None

    def decode(self, problem: Problem, assignment: frozenset) -> Any:
        """A family-specific solution object from a set of true primary variables."""
        raise NotImplementedError

    def verify(self, solution: Any) -> None:
        """Raise VerificationError naming what is wrong.  Must not reuse the
        encoder's logic: it checks the puzzle's rules directly."""
        raise NotImplementedError

    def render_text(self, solution: Any, color: bool = False) -> str:
        raise NotImplementedError

    def render_svg(self, solution: Any) -> str:
        raise NotImplementedError(f"no SVG renderer for {self.family} puzzles yet")

    def solution_json(self, solution: Any) -> Any:
        raise NotImplementedError

    def info(self, problem: Problem) -> dict:
        """Family-specific facts for ``puzzlesat info`` (JSON-able)."""
        return {}

    def describe_var(self, meaning) -> str:
        """One line naming what a primary variable means (DIMACS comments, errors)."""
        return str(meaning)
