"""The registry of back ends, by name, imported lazily.

Names: every PySAT solver by its PySAT name or alias (``cadical195``,
``glucose4``, ``minisat22``, ``cms`` ...), ``cpsat``; further engines register
in ``_FACTORIES`` (name -> "module:callable", description).  A name of the
form ``prefix:argument`` is routed to the factory registered for ``prefix:``.
"""

from __future__ import annotations

import importlib
import inspect

from ..errors import UsageError, closest, did_you_mean
from .base import Backend, BackendError, SearchResult, SolveResult, SolverFailed, Status

__all__ = ["Backend", "BackendError", "BackendOptionError", "SearchResult", "SolveResult", "SolverFailed",
           "Status", "get_backend", "list_backends", "DEFAULT_BACKEND"]


class BackendOptionError(BackendError, UsageError):
    """A back end the command line asks for wrongly, whatever the puzzle: an
    unknown name, or a CNF encoding given to an engine that takes none.  A
    BackendError (callers that try engine after engine skip it) and a
    UsageError (JSON kind ``usage``).  A back end that cannot take the
    puzzle (the exact-cover engine on most nonograms) is a plain
    BackendError: that depends on the input (kind ``bad-input``)."""

DEFAULT_BACKEND = "cadical195"

#: name -> ("module:factory", one-line description); the factory takes **options
_FACTORIES: dict[str, tuple[str, str]] = {
    "cpsat": ("puzzlesat.backends.cpsat_backend:CpSatBackend", "OR-Tools CP-SAT (enumerates with one worker)"),
    "exact": ("puzzlesat.backends.exactcover:ExactCoverBackend",
              "exact cover by dancing links (miniexact, Algorithms X/M)"),
    "ganak": ("puzzlesat.backends.ganak:GanakBackend",
              "Ganak exact projected model counter (counts only)"),
    "kasteleyn": ("puzzlesat.backends.kasteleyn:KasteleynBackend",
                  "perfect matchings of planar graphs by Kasteleyn's determinant: domino tilings "
                  "of any board of the plane (counts only)"),
    "external:": ("puzzlesat.backends.external:external_backend", "any DIMACS solver binary (external:cadical, external:/path/to/kissat -q)"),
}


def _pysat_names() -> dict[str, tuple[str, ...]]:
    from .pysat_backend import SOLVERS

    return SOLVERS


def _load(spec: str):
    """The object ``spec`` ("module:attribute") names.  An interrupt during
    the import is raised as one: OR-Tools' module initialisation turns a
    KeyboardInterrupt into ImportError('initialization failed'), which was
    reported as "backend 'cpsat' is not installed" (bad input, exit 2)."""
    mod, attr = spec.split(":")
    try:
        module = importlib.import_module(mod)
    except ImportError as e:
        if isinstance(e.__cause__ or e.__context__, KeyboardInterrupt):
            raise KeyboardInterrupt from e
        raise
    return getattr(module, attr)


def get_backend(name: str, *, encoding: str | None = None, **options) -> Backend:
    """The back end called ``name``; BackendOptionError with the choices if
    unknown, or when ``encoding`` is given to an engine without a CNF."""
    if ":" in name:
        prefix, arg = name.split(":", 1)
        entry = _FACTORIES.get(prefix + ":")
        if entry is None:
            raise _unknown(name)
        return _load(entry[0])(arg, encoding=encoding, **options)
    if name in _FACTORIES:
        try:
            factory = _load(_FACTORIES[name][0])
        except ImportError as e:
            raise BackendError(f"backend {name!r} is not installed: {e}") from None
        if encoding is not None:
            if "encoding" not in inspect.signature(factory).parameters:
                raise BackendOptionError(f"backend {name!r} does not use a CNF encoding; "
                                         "--encoding is for the CNF engines")
            options["encoding"] = encoding
        return factory(**options)
    from .pysat_backend import PySatBackend, canonical

    if canonical(name) is not None:
        return PySatBackend(name, **({"encoding": encoding} if encoding else {}))
    raise _unknown(name)


def _unknown(name: str) -> BackendOptionError:
    """"unknown backend", with the name meant when it looks like a typo."""
    if ":" in name:
        prefix, arg = name.split(":", 1)
        meant = closest(prefix + ":", [n for n in _FACTORIES if n.endswith(":")])
        hint = f"did you mean {meant + arg!r}?" if meant else ""
    else:
        import shutil

        from .external import KNOWN_SOLVERS

        # a solver on the PATH is external:NAME (-b minisat was "did you mean
        # 'minisatep'?" with minisat installed); else the engines' and PySAT's
        # own names first, then their aliases (review)
        canon = [n for n in _FACTORIES if not n.endswith(":")] + list(_pysat_names())
        aliases = [a for names in _pysat_names().values() for a in names]
        path = shutil.which(name) if name in KNOWN_SOLVERS else None
        if path:
            hint = f"did you mean 'external:{name}'? ({path} is a program on the PATH)"
        else:
            hint = did_you_mean(name, canon) or did_you_mean(name, aliases)
    if hint:
        return BackendOptionError(f"unknown backend {name!r}; {hint} "
                                  "(run 'puzzlesat backends' to see the choices)")
    return BackendOptionError(f"unknown backend {name!r}; run 'puzzlesat backends' to see the choices")


def list_backends() -> list[dict]:
    """Every registered back end with whether it can be loaded here."""
    from .pysat_backend import NON_INCREMENTAL, unavailable_reason

    rows = []
    for canon, aliases in _pysat_names().items():
        why = unavailable_reason(canon)
        ok = not why
        others = [a for a in aliases if a != canon]
        desc = "PySAT " + canon + (" (aliases: " + ", ".join(others) + ")" if others else "")
        if canon in NON_INCREMENTAL:
            desc += "; not incremental: counts by solving afresh after each solution"
        rows.append({"name": canon, "kind": "pysat", "available": ok, "description": desc, "reason": why})
    for name, (spec, desc) in _FACTORIES.items():
        ok, why = True, ""
        try:
            _load(spec)
        except Exception as e:
            ok, why = False, str(e)
        rows.append({"name": name + ("PATH_OR_NAME" if name.endswith(":") else ""), "kind": name.rstrip(":"),
                     "available": ok, "description": desc, "reason": why})
    # the DIMACS solvers installed here, each a -b external:NAME (they were
    # left to the line above: minisat and cadical were installed, unlisted; QA)
    import shutil

    from .external import KNOWN_SOLVERS

    for solver in KNOWN_SOLVERS:
        path = shutil.which(solver)
        if path:
            rows.append({"name": f"external:{solver}", "kind": "external", "available": True,
                         "description": f"the DIMACS solver {path}, found on the PATH", "reason": ""})
    return rows
