"""puzzlesat list: the bundled instances."""

from __future__ import annotations

from ..cli import EXIT_OK, emit_json
from ..loading import bundled, load_puzzle

NAME = "list"
HELP = "list the bundled instances"


def add_arguments(p) -> None:
    pass


def run(args) -> int:
    rows = []
    for name, path in bundled().items():
        try:
            pz = load_puzzle(str(path))
            rows.append({"name": name, "family": pz.family, "title": pz.title, "expected": pz.expected})
        except Exception as e:  # a broken bundled file must not hide the others
            rows.append({"name": name, "family": "?", "title": f"(cannot load: {e})", "expected": {}})
    if args.json:
        emit_json({"instances": rows})
        return EXIT_OK
    w = max((len(r["name"]) for r in rows), default=4)
    for r in rows:
        print(f"{r['name']:<{w}}  {r['family']:<9} {r['title']}")
    return EXIT_OK
