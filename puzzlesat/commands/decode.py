"""puzzlesat decode: read an external solver's answer to an exported CNF,
decode it, verify it with the puzzle's own rules and draw it.

Checks, in order (an answer does not repeat the CNF's comments, so its
instance is recognised by what it says, or by ``--cnf``):

1. the answer parses (SAT-competition or MiniSat style; file:line errors);
2. with ``--cnf``: that file's identity line names this instance (problem
   digest), and gives the encoding and --unique used (an OPB export's: its
   --unique and size; its answer is then decoded and verified, the PB
   constraints not re-evaluated); an answer carrying a
   ``c puzzlesat-header`` line is checked the same way (and must agree with
   the CNF's); a field the line should not have is an error, one this
   version does not know a warning (a newer version may add fields); its
   counts (vars=, clauses=, primary=) must be those of this instance's
   export with the encoding and --unique it names (an UNSAT or UNKNOWN
   answer's too: one for another export proves nothing here);
3. UNSAT -> "no solution" (exit 1); UNKNOWN -> exit 3;
4. no variable beyond the CNF's variables (exit 2);
5. the true primary variables are decoded and verified by the family: a
   violation is reported as the family words it (a cell, a piece, a line),
   exit 4 -- unless the answer is a solver's complete model of a CNF with a
   different number of variables, which means another instance or
   encoding (exit 2);
6. a valid solution whose answer falsifies clauses of this CNF, or, when
   it leaves variables unassigned, whose values no model of the CNF has
   (a SAT call under those values as assumptions: a --unique export's
   auxiliary variables follow from the primary ones, and a board that is
   not its orbit's leader has no model there): when an identity line named
   the export, the answer is not (part of) a model of the CNF the solver
   read (exit 4); without one, it may answer another export (another
   encoding's auxiliary variables, or the export without --unique), and it
   is printed with a note -- unless it is a whole model of exactly this
   export's variables and no other export has that many (exit 4).
"""

from __future__ import annotations

import sys

from ..cli import EXIT_INCOMPLETE, EXIT_INTERNAL, EXIT_NO_SOLUTION, EXIT_OK, emit_json, use_color
from ..encoders.cnf import DEFAULT_ENCODING, ENCODINGS, encode_cnf
from ..encoders.dimacs import (HEADER_TAG, Header, build_dimacs, clean_clauses, conflict_said, falsified,
                               no_model_with, problem_digest, read_answer, read_cnf)
from ..encoders.opb import is_opb, read_opb_header
from ..errors import InputError, UsageError, VerificationError, plural
from ..cli import say as note
from ..loading import decode_text, nul_error
from .common import add_color_option, add_instance, encoding_matters, load, warn_ignored

NAME = "decode"
HELP = "decode and verify an external SAT solver's answer to an exported CNF"


def add_arguments(p) -> None:
    add_instance(p)
    p.add_argument("answer", metavar="ANSWER",
                   help="the solver's output ('s'/'v' lines) or MiniSat's result file; '-' for stdin")
    p.add_argument("--encoding", "-e", metavar="NAME", choices=list(ENCODINGS),
                   help=f"the encoding the CNF was exported with (default: from --cnf, else {DEFAULT_ENCODING})")
    p.add_argument("--unique", "-u", action="store_true", help="the CNF was exported with --unique")
    p.add_argument("--cnf", metavar="FILE",
                   help="the exported CNF (or OPB file) the solver read: checked to be this instance's")
    add_color_option(p)


def _read(path: str) -> str:
    """The text of ``path`` (``-``: stdin), without a leading byte-order mark
    (Windows editors write one; it is not content, as for puzzle files)."""
    try:
        if path == "-":  # (a test's stdin may be text only)
            if sys.stdin is None:
                raise InputError("standard input is closed: give the answer as a file", "-")
            buf = getattr(sys.stdin, "buffer", None)
            data = buf.read() if buf is not None else sys.stdin.read().encode("utf-8")
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise InputError(e.strerror or str(e), path) from None
    data = _uncompressed(data, "<stdin>" if path == "-" else path)
    # a binary file is refused, and one in another encoding said at its line, as a puzzle file is
    text = decode_text(data, "<stdin>" if path == "-" else path)
    if "\0" in text:
        raise nul_error(data, "<stdin>" if path == "-" else path)
    return text


#: compressed files by their first bytes: what export writes to m.cnf.gz,
#: .xz or .bz2, and how SAT competitions ship CNFs
_MAGIC = ((b"\x1f\x8b", "gzip"), (b"\xfd7zXZ\x00", "xz"), (b"BZh", "bzip2"))


def _uncompressed(data: bytes, path: str) -> bytes:
    """``data``, decompressed when it is a gzip, xz or bzip2 file (read as
    it is otherwise: a text file starting 'BZh' is no bzip2 stream)."""
    import bz2
    import gzip
    import lzma
    import zlib

    for magic, how in _MAGIC:
        if data.startswith(magic):
            if how == "bzip2" and (len(data) < 4 or data[3:4] not in b"123456789"):
                return data
            try:
                return (gzip.decompress(data) if how == "gzip" else lzma.decompress(data) if how == "xz"
                        else bz2.decompress(data))
            except (OSError, EOFError, lzma.LZMAError, zlib.error, ValueError) as e:
                raise InputError(f"{'an' if how == 'xz' else 'a'} {how} file that cannot be decompressed ({e}): "
                                 "cut short or damaged?",
                                 path) from None
    return data


def run(args) -> int:
    if args.answer == "-" and args.cnf == "-":
        raise UsageError("the answer and --cnf would both be read from stdin ('-'); give one of them a file")
    puzzle, problem = load(args)  # (an --encoding this model has no use for is noted and dropped)
    digest = problem_digest(problem)
    # with no cardinality constraint, every encoding writes the same CNF: any
    # export's (old ones say the -e they were given) is read with any -e
    cardinal = encoding_matters(problem)
    apath = "<stdin>" if args.answer == "-" else args.answer
    answer = read_answer(_read(args.answer), apath)
    encoding, unique = args.encoding, args.unique
    declared: Header | None = None
    at: tuple[str | None, int | None] = (None, None)  # the file and line of the header in use
    opb = None  # the OPB export given as --cnf (PB solvers answer in the same 's'/'v' lines)
    if args.cnf:
        text = _read(args.cnf)
        if is_opb(text):
            opb, line = read_opb_header(text, args.cnf)
            _check_header(opb, digest, args.cnf, line, args.instance)
            warn_ignored(opb.ignored, args.cnf)
            at = (args.cnf, line)
            if encoding is not None:
                raise InputError(f"--encoding {encoding}, but this is an OPB export, which states the "
                                 "constraints without a CNF encoding (decode without --encoding)", *at)
            if answer.header is not None:
                raise InputError(f"its '{HEADER_TAG}' comment is a DIMACS export's (encoding "
                                 f"{answer.header.encoding}), but {args.cnf} is an OPB export: the answer "
                                 "and the file come from different exports", apath, answer.header_line)
    if args.cnf and opb is None:
        cnf = read_cnf(text, args.cnf, keep_clauses=False)
        if cnf.header is None:
            raise InputError("no 'c puzzlesat-header' line: not a CNF written by puzzlesat export", args.cnf)
        _check_header(cnf.header, digest, args.cnf, cnf.header_line, args.instance)
        warn_ignored(cnf.header.ignored, args.cnf)  # fields a newer version may add
        declared, at = cnf.header, (args.cnf, cnf.header_line)
    if answer.header is not None:
        _check_header(answer.header, digest, apath, answer.header_line, args.instance)
        warn_ignored(answer.header.ignored, apath)
        if declared is not None and answer.header != declared:
            raise InputError(f"its '{HEADER_TAG}' comment differs from the one on line {at[1]} of {args.cnf}: "
                             "the answer and the CNF come from different exports", apath, answer.header_line)
        if declared is None:
            declared, at = answer.header, (apath, answer.header_line)
    if declared is not None and encoding is not None and encoding != declared.encoding:
        raise InputError(f"--encoding {encoding}, but the CNF was exported with --encoding {declared.encoding}",
                         *at)
    named = declared or opb  # the identity line in use, of a CNF or an OPB file
    if named is not None:
        if unique and not named.unique:
            raise InputError(f"--unique, but the {'OPB file' if opb else 'CNF'} was exported without --unique "
                             "(decode without it)", *at)
        unique = named.unique
    if declared is not None:
        encoding = declared.encoding
    encoding = None if opb is not None else encoding or DEFAULT_ENCODING
    if encoding is not None and not cardinal:  # whatever the header says: the same CNF with every one
        encoding = DEFAULT_ENCODING
    named_encoding = encoding if cardinal else None  # the one the report and messages name (none applies)

    result = {"instance": args.instance, "title": puzzle.title, "family": puzzle.family, "answer": apath,
              "style": answer.style, "status": answer.status, "format": "opb" if opb is not None else "dimacs",
              "encoding": named_encoding, "unique": unique}
    model = problem
    if unique and (opb is not None or declared is not None or answer.status == "SAT"):
        from ..encoders.lexleader import lex_leader

        model, _ = lex_leader(problem)
    # an identity line's counts are those of the export its own fields describe,
    # whatever the answer says (an UNSAT answer to another export proves nothing here)
    enc = opb_export = None
    if opb is not None:
        from ..encoders.opb import build_opb

        opb_export = build_opb(model)
        _check_counts(opb, {"vars": opb_export.n_vars, "constraints": opb_export.n_constraints,
                            "primary": len(model.primary)},
                      f"this instance's OPB export{' with --unique' if unique else ''}", "the OPB file", at)
    elif declared is not None:
        enc = encode_cnf(model, encoding)
        export = build_dimacs(enc, unique=unique, digest=digest, var_map=False).header
        _check_counts(declared, {"vars": export.vars, "clauses": export.clauses, "primary": export.primary},
                      "this instance" + _options(named_encoding, unique, " with ", " and "),
                      "the CNF", at)
    if answer.status == "UNSAT":
        _check_unsat(args, puzzle, problem, result, apath, unique,
                     "OPB file's constraints" if opb is not None else "CNF")
        _out(args, result, "no solution (the solver proved the "
             + ("OPB file's constraints" if opb is not None else "CNF") + " unsatisfiable)")
        return EXIT_NO_SOLUTION
    if answer.status == "UNKNOWN":
        _out(args, result, "unknown: the solver gave up without an answer")
        return EXIT_INCOMPLETE

    if opb_export is not None:  # no CNF: the size is the OPB export's, and no clause is re-evaluated
        n_vars, clauses = opb_export.n_vars, []
        what = at[0]
    else:
        enc = enc or encode_cnf(model, encoding)
        # as the export writes them (clause k is the file's k-th)
        n_vars, clauses = enc.n_vars, clean_clauses(enc.clauses)
        what = f"this instance's CNF{_options(named_encoding, unique)}"
        if declared is None and answer.max_var() > n_vars and answer.is_contiguous():
            # a solver's whole model, of a larger CNF: one of this instance's other exports?
            fit = _export_of_size(problem, answer.max_var(), (encoding, unique), cardinal)
            if fit:
                first = n_vars + 1
                raise InputError(f"variables {first}..{answer.max_var()} are beyond the {n_vars} variables of "
                                 f"{what}, but the answer has all {answer.max_var()} variables of "
                                 f"{_export_named(fit, 'its export')}: decode {_with_that(fit)} (or give --cnf "
                                 "FILE, the CNF the solver read)",
                                 apath, answer.line_of[first])
        # (a whole model must have all the --unique export's variables, not
        # just fewer: 6x10's 14,145 were sent to 5x12's 19,040)
        if (not unique and declared is None and answer.max_var() > n_vars
                and ((n_unique := _unique_vars(problem, encoding)) == answer.max_var()
                     or (n_unique > answer.max_var() and not answer.is_contiguous()))):
            raise InputError(f"variable {answer.max_var()} is beyond the {n_vars} variables of this instance's "
                             f"CNF{_options(named_encoding)} but within its --unique export's: "
                             "decode with --unique if it answers that export (else it belongs to a different "
                             f"instance{' or encoding' if cardinal else ''})",
                             apath, answer.line_of[answer.max_var()])
    answer.check_range(n_vars, what)
    primary = set(problem.primary)
    true_primary = frozenset(v for v in answer.true_vars() if v in primary)
    bad = falsified(clauses, answer.values)
    sol = puzzle.decode(problem, true_primary)
    result.update(assigned=len(answer.values), variables=n_vars, true_primary=len(true_primary))
    # (an OPB file's constraints, rebuilt as the export writes them, like the CNF's clauses)
    broken = opb_export.broken(answer.values) if opb_export is not None else []
    if opb is None:
        result.update(falsified_clauses=len(bad))
    else:
        result.update(broken_constraints=len(broken))
    try:
        puzzle.verify(sol)
    except VerificationError as e:
        # (an answer of the primary variables exactly is a solver's partial
        # model, as decode takes a right one: a wrong one is the solver's
        # fault, exit 4, not "cut short", exit 2; QA)
        if answer.is_contiguous() and answer.max_var() not in (n_vars, len(problem.primary)):
            # (check_range refused max_var() > n_vars): variables 1..k, k < n
            if declared is None and opb is None:
                has = f"this instance's CNF{_options(named_encoding, unique)} has"
                other = "a different instance or encoding" if cardinal else "a different instance"
            elif at[0] == apath:  # the answer's own header line names this instance's CNF
                has, other = f"its '{HEADER_TAG}' comment (line {at[1]}) says the CNF has", "another CNF"
            else:  # the CNF (or OPB file) is this instance's: the answer is not its
                has, other = f"{at[0]} has", "another file" if opb is not None else "another CNF"
            assigns = (f"variables 1..{answer.max_var()} only" if answer.values else "no variables")
            raise InputError(f"the answer assigns {assigns}, but {has} {n_vars}: "
                             f"it was cut short, or it belongs to {other} (the decoded board fails: {e})",
                             apath) from None
        extra = (f"; the answer also falsifies {plural(len(bad), 'clause')} of the CNF" if bad else
                 f"; the answer also breaks {plural(len(broken), 'constraint')} of the OPB file" if broken else "")
        left_out = sorted(primary - answer.values.keys())
        # (read as false: the board's fault may be only that, QA; an answer
        # that lists only true literals leaves the others out by design)
        if left_out and not all(answer.values[v] for v in primary & answer.values.keys()):
            extra += (f"; it leaves {plural(len(left_out), 'primary variable')} unassigned (first: "
                      f"{'x' if opb is not None else ''}{left_out[0]}), read as false")
        _failed(args, result, f"{apath}: the solver's model is not a solution: {e}{extra}", str(e))
    conflict = None  # the answer's values that no model of the CNF has together
    if not bad and not broken and len(answer.values) < n_vars:
        if opb is None:
            conflict = no_model_with(clauses, answer.values)
        else:  # the same model's CNF, whose variables 1..n_vars of the model are the OPB file's (QA)
            conflict = no_model_with(clean_clauses(encode_cnf(model, DEFAULT_ENCODING).clauses),
                                      {v: b for v, b in answer.values.items() if v <= model.n_vars})
        if conflict is not None:
            result.update(unassigned=n_vars - len(answer.values), conflicting_values=len(conflict))
    if conflict is not None:
        lits = [f"{'-' if l < 0 else ''}x{abs(l)}" for l in conflict] if opb is not None else list(map(str, conflict))
        has = conflict_said(lits)
        unfit = (f"it leaves {n_vars - len(answer.values)} of the {n_vars} variables unassigned, and no model of "
                 f"the {'OPB file' if opb is not None else 'CNF'} has {has}")
    if conflict is not None and (declared is not None or opb is not None):
        of = args.cnf if at[0] == args.cnf else f"the CNF its '{HEADER_TAG}' comment (line {at[1]}) names"
        _failed(args, result, f"{apath}: the answer is not part of a model of {of}: {unfit}, so the solver "
                              "(or the answer file) is wrong, though its primary variables decode to a valid board")
    if conflict is not None:
        if unique:
            why = "was it the answer to the export without --unique? (that keeps every solution, not one per orbit)"
        else:
            why = "was it exported with another --encoding?" if cardinal else "its values do not fit this CNF"
        of = f"the {encoding} encoding" if cardinal else "the CNF"
        result["note"] = f"the answer is part of no model of {of}{' with --unique' if unique else ''}: {unfit}; {why}"
    if broken:
        # the header's counts are this instance's export's: the answer breaks the file the solver read
        first = broken[0]
        _failed(args, result, f"{apath}: the answer is not a model of {at[0]}: it breaks "
                              f"{plural(len(broken), 'constraint')} (first: constraint {first + 1}: "
                              f"{opb_export.constraint(first)}), "
                              "so the solver (or the answer file) is wrong, though its primary variables decode "
                              "to a valid board")
    if bad and declared is not None:
        # an identity line fixed the encoding and --unique, and its counts are
        # this instance's: the CNF the solver read is this one, and an answer
        # that breaks a clause of it is wrong, whatever its primary variables say
        first = bad[0]
        of = args.cnf if at[0] == args.cnf else f"the CNF its '{HEADER_TAG}' comment (line {at[1]}) names"
        if at[0] == args.cnf and answer.header is None and answer.is_contiguous() and answer.max_var() < n_vars:
            # a whole model of a smaller CNF: the answer to another export than
            # the --cnf given (it was blamed on the solver, exit 4) -- unless it
            # is one of the primary variables exactly, as projected solvers
            # print, and no export has that size: a partial model, judged below
            # as one of only the true literals is (exit 4; it was exit 2, QA)
            projected = answer.max_var() == len(problem.primary)
            fit = _export_of_size(problem, answer.max_var(), (encoding, unique), cardinal,
                                  budget=None if projected else HINT_BUDGET)
            if fit or not projected:
                raise InputError(f"the answer assigns variables 1..{answer.max_var()} only, but {args.cnf} has "
                                 f"{n_vars} and the answer falsifies {plural(len(bad), 'clause')} of it: it answers "
                                 + (_export_named(fit) + (" (without --unique)" if unique and "--unique" not in fit
                                                          else "")
                                    if fit else "another CNF")
                                 + f", not {args.cnf}", apath)
        _failed(args, result, f"{apath}: the answer is not a model of {of}: it falsifies "
                              f"{plural(len(bad), 'clause')} (first: clause {first + 1}: "
                              f"{' '.join(map(str, clauses[first]))} 0), so the solver (or the answer file) is "
                              "wrong, though its primary variables decode to a valid board")
    if bad:
        first = bad[0]
        fit = None
        if answer.is_contiguous() and answer.max_var() == n_vars:
            # a whole model of this export's size: another export of this size
            # is what it may answer; with none, the solver is wrong (it was a
            # note, exit 0, whatever the size: QA).  A verdict, so every export
            # is built, however long that takes (6x10: 4.1 s in all, 0.8 s with --cnf)
            fit = _export_of_size(problem, n_vars, (encoding, unique), cardinal, budget=None)
            if fit is None:
                _failed(args, result, f"{apath}: the answer is not a model of {what}: it falsifies "
                                      f"{plural(len(bad), 'clause')} (first: clause {first + 1}: "
                                      f"{' '.join(map(str, clauses[first]))} 0), and no other export of "
                                      f"{args.instance} has its {n_vars} variables, so the solver (or the answer "
                                      "file) is wrong, though its primary variables decode to a valid board")
        if fit is not None:
            why = f"it has the size of {_export_named(fit)}: was it exported {_with_that(fit)}?"
        elif unique and answer.max_var() == encode_cnf(problem, encoding).n_vars:
            why = "it has the size of the export without --unique: was it exported without --unique?"
        elif cardinal:
            why = "was it exported with another --encoding?"
        else:  # the same CNF with every encoding: its auxiliary variables are off
            why = "its auxiliary variables do not fit this CNF, which is the same with every encoding"
        of = f"the {encoding} encoding" if cardinal else "the CNF"
        result["note"] = (f"the answer falsifies {plural(len(bad), 'clause')} of {of}"
                          f"{' with --unique' if unique else ''} (first: clause {first + 1}: "
                          f"{' '.join(map(str, clauses[first]))} 0); {why}")
    result.update(valid=True, solution=puzzle.solution_json(sol))
    if "note" in result:  # (also in --json's warnings, as every note is)
        note("puzzlesat: note: " + result["note"])
    if args.json:
        emit_json(result)
    else:
        print(puzzle.render_text(sol, color=use_color(args)))
        print(f"decoded {len(true_primary)} true primary variables from {apath} ({answer.style} style, "
              f"{len(answer.values)} of {n_vars} variables{' of the OPB file' if opb is not None else ''} "
              "assigned); verified")
    return EXIT_OK


def _check_unsat(args, puzzle, problem, result: dict, path: str, unique: bool, what: str = "CNF") -> None:
    """An UNSAT answer against what the file knows: a solution it gives (a
    nonogram's goal), verified, proves the CNF satisfiable (with --unique
    too: some image of it is its orbit's leader), so the answer is wrong
    (exit 4); a count it expects is only said (a comment in the file)."""
    from .. import jobs

    if jobs.verified_known(puzzle, problem) is not None:
        _failed(args, result, f"{path}: the solver says the {what} {'are' if what.endswith('s') else 'is'} "
                              "unsatisfiable, but the goal picture of "
                              f"{args.instance} is a solution (verified): the solver (or the answer file) is wrong")
    expected = jobs.expected_some(puzzle, unique)
    if expected:
        note(f"puzzlesat: warning: the instance file expects {expected}; the solver says there is none")


def _failed(args, result: dict, message: str, error: str | None = None) -> None:
    """Verification failed: with --json the result (and the keys README
    promises of a failure's JSON; ``error``, default the message) first;
    then VerificationError(message) (exit 4)."""
    result.update(valid=False, error=error or message, kind="verification-failed", exit_code=EXIT_INTERNAL)
    if args.json:
        emit_json(result)
    raise VerificationError(message)


#: seconds the hint below may spend building other exports (each is a whole
#: encoding: on the 6x10 box all twenty take 6 s)
HINT_BUDGET = 2.0


def _export_of_size(problem, n: int, but: tuple[str, bool], cardinal: bool = True,
                    budget: float | None = HINT_BUDGET) -> str | None:
    """The options (``-e seqcounter``, ``-e mixed --unique``, ``without
    --unique``) of the first of this instance's exports other than ``but``
    (encoding, unique) whose CNF has exactly ``n`` variables, or None if
    none is found within ``budget`` seconds (None: every export is built).
    An export that is the same CNF as ``but``'s is no other: without
    ``cardinal`` (a model with no cardinality constraint: one CNF for every
    encoding) only --unique can differ, and --unique differs only where
    the problem has symmetries (lex_leader adds nothing otherwise)."""
    import time

    from ..encoders.lexleader import lex_leader

    end = time.monotonic() + (budget if budget is not None else float("inf"))
    symmetric = len(problem.symmetries) > 1
    for unique in (False, True):
        if unique != but[1] and not symmetric:
            continue  # (the same CNF as but's own, for the same encoding)
        model = lex_leader(problem)[0] if unique else problem
        for e in (ENCODINGS if cardinal else [but[0]]):
            if (e, unique) == but:
                continue
            if time.monotonic() > end:
                return None
            if encode_cnf(model, e).n_vars == n:
                said = " ".join(([f"-e {e}"] if cardinal else []) + (["--unique"] if unique else []))
                return said or "without --unique"
    return None


def _export_named(fit: str, export: str = "this instance's export") -> str:
    """"this instance's export with -e ladder", or "... without --unique",
    for the options :func:`_export_of_size` found."""
    return f"{export} {fit}" if fit.startswith("without") else f"{export} with {fit}"


def _with_that(fit: str) -> str:
    """"with that" (the options just named), or "without --unique"."""
    return fit if fit.startswith("without") else "with that"


def _options(encoding: str | None, unique: bool = False, open_: str = " (", sep: str = ", ") -> str:
    """" (encoding mixed, --unique)", " with encoding mixed and --unique" (``open_``
    " with ", ``sep`` " and "): what an export was made with, for a message;
    ``encoding`` None for a model whose CNF no encoding changes."""
    parts = ([f"encoding {encoding}"] if encoding is not None else []) + (["--unique"] if unique else [])
    if not parts:
        return ""
    return open_ + sep.join(parts) + (")" if open_ == " (" else "")


def _unique_vars(problem, encoding: str) -> int:
    """How many variables this instance's --unique export has (for hints)."""
    from ..encoders.lexleader import lex_leader

    return encode_cnf(lex_leader(problem)[0], encoding).n_vars


#: what a count of an identity line counts, for messages
_COUNTED = {"vars": "variables", "clauses": "clauses", "constraints": "constraints", "primary": "primary variables"}


def _check_counts(h, expected: dict[str, int], export: str, file: str, at) -> None:
    """The counts of an identity line ``h`` (a DIMACS or OPB header, from the
    file or the answer at ``at``) against ``expected``, those of this
    instance's ``export`` that its other fields describe: a count no such
    export writes is an InputError at the header's line."""
    for key, want in expected.items():
        got = getattr(h, key)
        if got != want:
            raise InputError(f"{file} has {got} {_COUNTED[key]} but {export} has {want}: exported by another "
                             "version of puzzlesat?", *at)


def _check_header(h: Header, digest: str, path: str, line, instance: str) -> None:
    if h.problem != digest:
        raise InputError(f"written for a different instance (problem digest {h.problem}; "
                         f"{instance} has {digest})", path, line)


def _out(args, result, text) -> None:
    if args.json:
        emit_json(result)
    else:
        print(text)
