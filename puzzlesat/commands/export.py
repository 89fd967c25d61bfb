"""puzzlesat export: write the model for other solvers (DIMACS CNF, CP-SAT text proto, OPB)."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile

from ..cli import EXIT_OK, emit_json
from ..cli import say as note
from ..encoders.cnf import DEFAULT_ENCODING, ENCODINGS, encode_cnf
from ..encoders.dimacs import build_dimacs, problem_digest
from ..errors import BuildTimeLimit, InputError, UsageError, plural
from .common import (add_instance, check_writable, encoding_matters, load, positive_seconds, refuse_overwriting,
                     time_limited)

NAME = "export"
HELP = "write the model as DIMACS CNF (with variable map and projection), CP-SAT text proto or OPB"
FORMATS = ("dimacs", "cpsat", "opb")


def add_arguments(p) -> None:
    add_instance(p)
    p.add_argument("-o", "--output", metavar="FILE", required=True, help="where to write; '-' for stdout")
    p.add_argument("--format", "-f", choices=FORMATS,
                   help="dimacs, cpsat, opb (default: opb for an -o FILE.opb, cpsat for FILE.pbtxt or "
                        "FILE.textproto, else dimacs)")
    p.add_argument("--encoding", "-e", metavar="NAME", choices=list(ENCODINGS),
                   help=f"CNF cardinality encoding (dimacs only): {', '.join(ENCODINGS)} (default {DEFAULT_ENCODING})")
    p.add_argument("--unique", "-u", action="store_true",
                   help="add lex-leader symmetry breaking: exactly one solution per symmetry orbit")
    # (its own dest: load's limit is for the work before a search, and here
    # one limit covers reading, compiling, encoding and writing alike)
    p.add_argument("--time-limit", "-t", dest="export_time_limit", type=positive_seconds, metavar="S",
                   help="give up after S seconds (the output file is then not written)")


#: the formats the suffix of -o names (when --format does not)
SUFFIXES = {".opb": "opb", ".pb": "opb", ".pbtxt": "cpsat", ".textproto": "cpsat", ".cnf": "dimacs", ".dimacs": "dimacs"}


#: compressed outputs, by the suffix after the format's (m.cnf.xz, as the SAT
#: competitions ship their instances; solvers read them: CaDiCaL, Kissat,
#: MiniSat gzip)
COMPRESSED = {".gz": "gzip", ".xz": "xz", ".bz2": "bzip2"}


def _compression(path: str) -> str | None:
    """"gzip", "xz" or "bzip2" when ``path`` names a compressed file, else None."""
    return COMPRESSED.get(os.path.splitext(path)[1].lower()) if path != "-" else None


def run(args) -> int:
    name = args.output
    if _compression(name):  # m.cnf.gz: the format is the name's without its compression
        name = os.path.splitext(name)[0]
    named = SUFFIXES.get(os.path.splitext(name)[1].lower()) if args.output != "-" else None
    given = args.format
    # "-o m.opb" wrote DIMACS to it (QA)
    args.format = given or named or "dimacs"
    if args.output == "-" and args.json:
        raise UsageError("--json and '-o -' would both write to stdout; give -o a file")
    check_writable("-o", args.output)
    if args.encoding is not None and args.format != "dimacs":
        which = f"the {args.format} format" + ("" if given else f" (the name {args.output} asks for it; -f dimacs "
                                                                  "writes a CNF there)")
        raise UsageError(f"--encoding chooses a CNF encoding; {which} keeps cardinality constraints as they are")
    if given and named is not None and named != given:
        note(f"puzzlesat: warning: writing {given} (--format) to {args.output}, a name that says {named}")
    limit = args.export_time_limit
    where = "nothing written" if args.output != "-" else "stdout has what was written before"
    done: dict = {}
    try:
        with time_limited(limit, f"the time limit ({limit:g} s) ran out while exporting {args.instance}: {where}"
                          if limit is not None else "", stop_encoders=True):
            _export(args, done)
    except BuildTimeLimit:
        # past the limit once the output was in place (freeing a large model
        # as _export returned takes a while): it is written, whole, and was
        # said to be "nothing written" (audit)
        if not done.get("written"):
            raise
    info, lex = done["info"], done["lex"]
    if args.json:
        emit_json(info)
    elif args.output != "-":
        size = ", ".join(plural(info[k], k[:-1]) for k in ("variables", "clauses", "constraints") if k in info)
        print(f"wrote {args.output} ({args.format}: {size}; {plural(info['primary'], 'primary variable')}"
              f"{_unique_note(lex)})", file=sys.stderr)
    return EXIT_OK


def _export(args, done: dict) -> None:
    """Build the model and write it; ``done`` gets ``info`` and ``lex`` for
    the report, and ``written`` once the output is in place."""
    puzzle, problem = load(args)
    refuse_overwriting("-o", args.output, args.instance, puzzle.path)
    digest = problem_digest(problem)
    notes = []
    lex = None
    if args.unique:
        from ..encoders.lexleader import LexLeaderError, lex_leader

        try:
            model, lex = lex_leader(problem)
        except LexLeaderError as e:
            raise InputError(f"--unique: cannot break this instance's symmetries exactly: {e}") from None
        if lex["group"] <= 1:
            notes.append("--unique: the instance has no symmetries; nothing added")
        else:
            notes.append(f"--unique: lex-leader symmetry breaking over the {lex['group']} symmetries "
                         f"({lex['aux_vars']} auxiliary variables, {lex['clauses']} clauses): exactly one "
                         "solution per orbit, so model counts are counts up to symmetry")
    else:
        model = problem
    title = puzzle.title or args.instance
    info = {"instance": args.instance, "title": puzzle.title, "family": puzzle.family, "format": args.format,
            "output": args.output, "problem": digest, "unique": args.unique, "primary": len(problem.primary)}
    if args.format == "dimacs":
        enc = encode_cnf(model, args.encoding or DEFAULT_ENCODING)
        exp = build_dimacs(enc, title=title, instance=args.instance, family=puzzle.family,
                           describe=puzzle.describe_var, unique=args.unique, notes=notes, digest=digest)
        used = encoding_matters(model)
        if not used:
            _no_encoding(exp)
        info.update(encoding=enc.encoding if used else None, variables=exp.n_vars, clauses=len(exp.clauses))
        done.update(info=info, lex=lex)
        _write(args.output, exp.lines(), done)
    elif args.format == "cpsat":
        from ..encoders.cpsat_text import cpsat_text

        text, size = cpsat_text(model, title=title, instance=args.instance, family=puzzle.family,
                                describe=puzzle.describe_var, notes=notes, digest=digest, unique=args.unique)
        info.update(size)
        done.update(info=info, lex=lex)
        _write(args.output, [text], done)
    else:
        from ..encoders.opb import build_opb

        exp = build_opb(model, title=title, instance=args.instance, family=puzzle.family,
                        describe=puzzle.describe_var, notes=notes, digest=digest, unique=args.unique)
        info.update(variables=exp.n_vars, constraints=exp.n_constraints)
        done.update(info=info, lex=lex)
        _write(args.output, exp.lines(), done)


#: the comment line of a DIMACS export whose model has no cardinality constraint
NO_ENCODING_LINE = ("c encoding: none (the model has no cardinality constraints: the CNF is the same "
                    "with every --encoding)")


def _no_encoding(exp) -> None:
    """A DIMACS export of a model with no cardinality constraint claims no
    encoding: its ``c encoding:`` line says none applies.  The identity
    line keeps ``encoding=mixed`` (the default, and a name every version's
    decode reads), whatever -e said: the CNF is the same with every one,
    and decode takes any --encoding for it."""
    exp.comments[:] = [NO_ENCODING_LINE if c.startswith("c encoding: ") else c for c in exp.comments]


def _unique_note(lex) -> str:
    if lex is None:
        return ""
    if lex["group"] <= 1:
        return "; --unique: no symmetries, nothing added"
    return f", one solution per orbit of {lex['group']} symmetries"


def _write(path: str, chunks, done: dict) -> None:
    """Write ``chunks`` to ``path`` whole or not at all: into a new file beside
    it, renamed over it at the end, so that a time limit, Ctrl-C or a full
    disk in the middle leaves no truncated model (and an older file there
    as it was).  A symbolic link is written through (its target gets the
    new file, the link stays); a device or a FIFO is opened and written as
    it is (``-o /dev/null``, a FIFO a solver reads), and so is a path under
    /dev or /proc (``/dev/stdout``, a shell's ``>(solver)``): those name
    open files, whose link a rename would replace, or could not follow.
    ``done["written"]`` is set once the output is in place, should anything
    (the time limit) stop this just after."""
    if path == "-":
        sys.stdout.writelines(chunks)
        try:
            sys.stdout.flush()
        finally:  # (the limit's signal, handled once the flush is over, raises just after it)
            done["written"] = True
        return
    part = None
    try:
        if os.path.isdir(path):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if os.path.abspath(path).startswith(("/dev/", "/proc/")) or (
                os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode)):
            with open(path, "wb") as raw, _compressed(raw, _compression(path)) as f:
                f.writelines(chunks)
            done["written"] = True
            return
        target = os.path.realpath(path)
        # a short name: the target's own may already be as long as a name can be
        fd, part = tempfile.mkstemp(prefix=".puzzlesat-", suffix=".part", dir=os.path.dirname(target))
        with os.fdopen(fd, "wb") as raw, _compressed(raw, _compression(path)) as f:
            f.writelines(chunks)
        _keep_mode(part, target)
        os.replace(part, target)
        part = None
        done["written"] = True
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror}", path) from None
    finally:
        if part is not None:
            if os.path.lexists(part):
                with contextlib.suppress(OSError):
                    os.unlink(part)
            else:  # renamed into place, and stopped just after
                done["written"] = True


def _compressed(raw, how: str | None):
    """A text writer (UTF-8) onto the binary file ``raw``, through the
    compressor ``how`` names (None: none).  Closing it ends the compressed
    stream (and closes ``raw``, which its own ``with`` closes again, as a
    no-op)."""
    import io

    if how == "gzip":
        import gzip

        raw = gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0)  # (no time stamp: the same export, the same bytes)
    elif how == "xz":
        import lzma

        # (preset 1: xz's default, 6, took 375 s against a plain write's 80 on
        # an 11-million-clause CNF, review.  6x10's 30 MB totalizer export, in
        # Python: preset 6 1.2 MB in 15 s, preset 1 1.7 MB in 0.9 s, gzip -6
        # 5.2 MB in 1.8 s; session 40)
        raw = lzma.LZMAFile(raw, "wb", preset=1)
    elif how == "bzip2":
        import bz2

        raw = bz2.BZ2File(raw, "wb")
    return io.TextIOWrapper(raw, encoding="utf-8")


def _keep_mode(part: str, path: str) -> None:
    """The new file gets the permissions an ``open(path, "w")`` would have
    given it: an existing file's own, or the umask's default (mkstemp makes
    it 0600)."""
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(part, mode)
