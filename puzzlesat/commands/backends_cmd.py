"""puzzlesat backends: the engines installed here."""

from __future__ import annotations

from ..backends import list_backends
from ..cli import EXIT_OK, emit_json

NAME = "backends"
HELP = "list the solver back ends and whether they are installed"


def add_arguments(p) -> None:
    p.add_argument("--all", action="store_true", help="include back ends that are not available here")


def run(args) -> int:
    rows = [r for r in list_backends() if r["available"] or args.all]
    if args.json:
        emit_json({"backends": rows})
        return EXIT_OK
    w = max(len(r["name"]) for r in rows)
    for r in rows:
        status = "" if r["available"] else f"  [not available: {r['reason']}]"
        print(f"{r['name']:<{w}}  {r['description']}{status}")
    return EXIT_OK
