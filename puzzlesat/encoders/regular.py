"""Encodings of Regular(vars, automaton): CNF and CP-SAT.

Placeholder until the nonogram issue lands its encodings here.
"""

from __future__ import annotations


def regular_cnf(vars, automaton, pool):
    raise NotImplementedError("Regular constraints are not encoded to CNF yet")


def regular_cpsat(model, xs, automaton):
    raise NotImplementedError("Regular constraints are not encoded to CP-SAT yet")
