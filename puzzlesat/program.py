"""The ``puzzlesat`` program's entry point (``python -m puzzlesat`` too).

Kept apart from :mod:`puzzlesat.cli`, and importing nothing else first, so
that a Ctrl-C while Python is still importing the rest is an interruption
like any other (a message, and with ``--json`` the JSON object; exit 3), not
a traceback."""

from __future__ import annotations

import sys

#: as cli.EXIT_INCOMPLETE (not imported: this module must stay light)
EXIT_INCOMPLETE = 3

#: the cyclic garbage collector's thresholds for a run of the program.
#: Compiling and encoding make millions of small lists and tuples that live
#: until the run ends, and Python's default (700, 10, 10) looked through
#: them again and again: a quarter of solving a 500x500 nonogram, a tenth
#: of info on a 320x320 board of dominoes (benchmarks/gc_threshold.py).
#: Set for the program only; the library leaves its host's setting alone.
GC_THRESHOLD = (100_000, 50, 100)


def entry() -> None:
    import gc

    gc.set_threshold(*GC_THRESHOLD)
    try:
        from .cli import entry as run_program
    except KeyboardInterrupt:
        interrupted_before_start()
    run_program()


def interrupted_before_start(json_written: bool = False) -> None:
    """Ctrl-C outside the command's run (before it began): said as cli.main
    says it, then exit; no second JSON object after one already written."""
    import json
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the same Ctrl-C delivered again changes nothing now
    print("puzzlesat: interrupted", file=sys.stderr)
    if "--json" in sys.argv[1:] and not json_written:
        print(json.dumps({"error": "interrupted", "kind": "interrupted", "exit_code": EXIT_INCOMPLETE}))
    sys.exit(EXIT_INCOMPLETE)
