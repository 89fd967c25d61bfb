"""The ``puzzlesat`` program's entry point (``python -m puzzlesat`` too).

Kept apart from :mod:`puzzlesat.cli`, and importing nothing else first, so
that a Ctrl-C while Python is still importing the rest is an interruption
like any other (a message, and with ``--json`` the JSON object; exit 3), not
a traceback."""

from __future__ import annotations

import sys

#: as cli.EXIT_INCOMPLETE (not imported: this module must stay light)
EXIT_INCOMPLETE = 3


def entry() -> None:
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
