"""Nonograms: clues per line, one Boolean per cell, each line's clue as
block-start order literals and clauses (or one Regular per line).

- :mod:`.clues`: run lengths and the run-length automaton of a clue;
- :mod:`.blocks`: a line as block-start order literals and clauses (the default);
- :mod:`.puzzle`: the :class:`Nonogram` puzzle (compile, decode, verify);
- :mod:`.linesolve`: Kikuchi's line rule to a fixpoint (``check``, ``--preprocess``);
- :mod:`.nonfile`, :mod:`.xmlfile`, :mod:`.ninfile`: the file formats;
- :mod:`.render`: text, SVG and PNG pictures.
"""

from .clues import clue_automaton, runs
from .puzzle import Cell, Nonogram

__all__ = ["Cell", "Nonogram", "clue_automaton", "runs"]
