"""The CP-SAT model as a text proto (``CpModelProto``), with the variable map.

Variable ``x<i>`` (proto index i-1) is problem variable i, exactly as in the
DIMACS export; ``#`` comment lines, which the text-proto parser skips, carry
the same identity line and variable map::

    # puzzlesat CP-SAT model (CpModelProto, text format)
    # puzzlesat-header problem=3f2a... format=cpsat unique=no vars=1872 constraints=72 primary=1872
    # var 1 place I orientation 0 cells (1,1) (1,2) (1,3) (1,4) (1,5)
    name: "..."
    variables { name: "x1" domain: [0, 1] }
    ...

Read it back with ``CpModel().proto.parse_text_format(text)`` (or
``google.protobuf.text_format`` on ``cp_model_pb2.CpModelProto``) and solve
it with any CP-SAT front end.
"""

from __future__ import annotations

import os
import tempfile
from typing import Callable, Iterable

from ..problem import Problem
from .cpsat import encode_cpsat
from .dimacs import problem_digest, source_comments, var_comments


def cpsat_text(problem: Problem, *, title: str = "", instance: str = "", family: str = "",
               describe: Callable[[object], str] = str, notes: Iterable[str] = (),
               digest: str | None = None, unique: bool = False) -> tuple[str, dict]:
    enc = encode_cpsat(problem)
    model = enc.model
    model.proto.name = " ".join((title or instance).split())
    body = _proto_text(model)
    n_cons = len(model.proto.constraints)
    primary = sorted(problem.primary)
    lines = ["# puzzlesat CP-SAT model (CpModelProto, text format)"] + source_comments("#", title, instance, family)
    lines += ["# " + " ".join(n.split()) for n in notes]
    lines.append(f"# puzzlesat-header problem={digest or problem_digest(problem)} format=cpsat "
                 f"unique={'yes' if unique else 'no'} vars={problem.n_vars} constraints={n_cons} "
                 f"primary={len(primary)}")
    lines.append("# variable x<i> (proto index i-1) is problem variable i; primary variables:")
    lines += var_comments("#", problem, describe)
    return "\n".join(lines) + "\n" + body, {"variables": problem.n_vars, "constraints": n_cons}


def _proto_text(model) -> str:
    """The text format; the pybind proto has no text printer of its own in
    every OR-Tools version, but export_to_file writes text for a .txt name."""
    fd, tmp = tempfile.mkstemp(suffix=".pb.txt")
    os.close(fd)
    try:
        if not model.export_to_file(tmp):
            raise OSError("CP-SAT could not export the model")
        with open(tmp, encoding="utf-8") as f:
            return f.read()
    finally:
        os.unlink(tmp)
