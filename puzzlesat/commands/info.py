"""puzzlesat info: what a compiled model looks like (the 1965 paper's table,
plus variables and clauses per encoding)."""

from __future__ import annotations

from ..backends.base import Child, may_start_child
from ..cli import EXIT_OK, emit_json
from ..encoders.cnf import ENCODINGS, cnf_sizes
from ..errors import UsageError, number, plural
from .common import add_instance, comma_list, encoding_matters, load, positive_seconds, time_limited

NAME = "info"
HELP = "per-piece placements and orientations, and model sizes per encoding"


def add_arguments(p) -> None:
    add_instance(p)
    p.add_argument("--encodings", metavar="LIST", default="pairwise,mixed,seqcounter,ladder,bitwise,totalizer",
                   type=comma_list,
                   help="comma-separated CNF encodings to size up (default: %(default)s; 'all' for every one)")
    # (its own dest: load's limit is for the work before a search; here one
    # limit covers reading, compiling and sizing the encodings alike)
    p.add_argument("--time-limit", "-t", dest="info_time_limit", type=positive_seconds, metavar="S",
                   help="give up after S seconds (reading, compiling and counting the encodings' clauses)")


def run(args) -> int:
    names = list(ENCODINGS) if args.encodings == ["all"] else args.encodings
    if "all" in names and len(names) > 1:  # ('unknown encoding all' named the one it knows)
        raise UsageError("--encodings: 'all' stands alone: it names every encoding; "
                         f"give 'all' or a list of them ({', '.join(ENCODINGS)})")
    bad = [e for e in names if e not in ENCODINGS]
    if bad:  # the command line, whatever the puzzle: checked before reading it
        raise UsageError(f"--encodings: unknown encoding {bad[0]!r}; choose from: {', '.join(ENCODINGS)} "
                         "(or 'all')")
    limit = args.info_time_limit
    with time_limited(limit, f"the time limit ({limit:g} s) ran out while sizing up {args.instance}"
                      if limit is not None else ""):
        puzzle, problem = load(args)
        # counted constraint by constraint, never the whole CNF in memory
        sizes = [{"encoding": e, "variables": n_vars, "clauses": n_clauses, "literals": n_literals}
                 for e, (n_vars, n_clauses, n_literals) in zip(names, _sized(problem, names, apart=limit is not None))]
    fam = puzzle.info(problem)
    stats = problem.stats()
    if args.json:
        emit_json({"instance": args.instance, "title": puzzle.title, "family": puzzle.family,
                   **fam, "problem": stats, "cnf": sizes, "area_mismatch": _mismatch(puzzle),
                   "no_solution": puzzle.precheck()})
        return EXIT_OK
    print(puzzle.title or args.instance)
    if "pieces" in fam:
        if fam.get("source"):
            print("source: " + fam["source"].strip().replace("\n", "\n        "))
        kept = fam.get("piece_symmetries")
        print(f"{fam.get('lattice', '')} board, {plural(fam.get('board_cells'), 'cell')} to cover, "
              f"{plural(fam.get('board_symmetries'), 'board symmetry', 'board symmetries')}"
              + (f" ({kept} of them also map{'s' if kept == 1 else ''} the set of pieces onto itself"
                 + (" and the pieces fixed in place onto pieces fixed in place" if fam.get("fixed") else "") + ")"
                 if kept is not None and kept != fam.get("board_symmetries") else ""))
        if fam["pieces"]:
            print(f"{'piece':<8}{'count':>6}{'cells':>6}{'orientations':>14}{'placements':>12}")
        else:  # (a table header over no rows)
            print("no pieces to place: every copy is fixed")
        for p in fam["pieces"]:
            print(f"{p['name']:<8}{p['count']:>6}{p['cells']:>6}{p['orientations']:>14}{p['placements']:>12}")
        for f in fam.get("fixed", []):
            print(f"fixed in place: {f['name']} at " + " ".join("(" + ",".join(map(str, c)) + ")" for c in f["cells"]))
        for n in fam.get("notes", []):
            print("note: " + n)
    else:
        for k, v in fam.items():
            print(f"{k}: {_text(v)}")
    why = puzzle.precheck()
    if why:
        print(f"no solution possible: {why}")
    print(f"\nproblem: {plural(stats['variables'], 'variable')} ({number(stats['primary'])} primary), constraints: "
          + (", ".join(plural(n, CONSTRAINT_NAMES.get(k, k)) for k, n in stats["constraints"].items())
             or "none"))
    rows = sizes
    if (len({(s["variables"], s["clauses"], s["literals"]) for s in sizes}) == 1 and len(sizes) > 1
            and not encoding_matters(problem)):  # (pairwise and mixed alone may agree: each keeps its row)
        # no cardinality constraint for the encodings to differ on (a nonogram),
        # or only ones every encoding writes alike (an Exactly(2) of no
        # placement is an empty clause: "no cardinality constraints" under
        # "1 exactly-k constraint" contradicted itself)
        has = any(k in ("ExactlyOne", "AtMostOne", "Exactly") for k in stats["constraints"])
        print("the same CNF with every cardinality encoding ("
              + ("each cardinality constraint of the model is written alike by all of them: it forces all "
                 "its variables, or none, or cannot hold" if has else "the model has no cardinality constraints")
              + "):")
        rows = [{**sizes[0], "encoding": "all"}]
    # columns as wide as their largest number (17,021,496,896 pairwise clauses
    # on a long line board ran into the variables)
    w = {k: max(least, *(len(str(s[k])) + 2 for s in rows))
         for k, least in (("variables", 11), ("clauses", 11), ("literals", 12))}
    print(f"{'encoding':<12}{'variables':>{w['variables']}}{'clauses':>{w['clauses']}}{'literals':>{w['literals']}}")
    for s in rows:
        print(f"{s['encoding']:<12}{s['variables']:>{w['variables']}}{s['clauses']:>{w['clauses']}}"
              f"{s['literals']:>{w['literals']}}")
    return EXIT_OK


#: the Problem IR's constraint kinds, as the text report names them
CONSTRAINT_NAMES = {"Clause": "clause", "ExactlyOne": "exactly-one constraint",
                    "AtMostOne": "at-most-one constraint", "Exactly": "exactly-k constraint",
                    "Regular": "automaton constraint"}


def _text(v) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)


def _sized(problem, encodings: list[str], apart: bool) -> list[tuple[int, int, int]]:
    """cnf_sizes, in a child process when ``apart`` (a time limit is set):
    PySAT builds a cardinality constraint's clauses in C, where the limit's
    signal waits for it, and a large one takes long (an Exactly(1600) over
    the 12,720 domino and monomino placements of an 80x80 board: 49 s, past
    -t 20).  Waiting for a child instead, the signal stops the wait and the
    child is killed."""
    if not apart or not may_start_child():
        return cnf_sizes(problem, encodings)
    child = Child(_size_in_child, (problem, encodings))
    try:
        got = child.recv("sizing the encodings")
    finally:
        child.close()
    if got == "out of memory":
        raise MemoryError
    return got


def _size_in_child(conn, problem, encodings: list[str]) -> None:
    from ..backends.base import ignore_sigint

    ignore_sigint()  # the parent handles Ctrl-C
    try:
        got = cnf_sizes(problem, encodings)
    except MemoryError:
        got = "out of memory"
    conn.send(got)
    conn.close()


def _mismatch(puzzle):
    f = getattr(puzzle, "area_mismatch", None)
    return f() if f else None
