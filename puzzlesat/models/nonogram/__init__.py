"""Nonograms: clues per line, one Boolean per cell, one Regular per line.

- :mod:`.clues`: run lengths and the run-length automaton of a clue;
- :mod:`.puzzle`: the :class:`Nonogram` puzzle (compile, decode, verify);
- :mod:`.linesolve`: Kikuchi's line rule to a fixpoint (``check``, ``--preprocess``);
- :mod:`.nonfile`, :mod:`.xmlfile`, :mod:`.ninfile`: the file formats;
- :mod:`.render`: text, SVG and PNG pictures.
"""

from .clues import clue_automaton, runs
from .puzzle import Cell, Nonogram

__all__ = ["Cell", "Nonogram", "clue_automaton", "runs"]
