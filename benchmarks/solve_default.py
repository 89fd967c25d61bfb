"""Which engine `solve` should use on a tiling by default: the exact-cover
engine (dancing links) against CaDiCaL (cadical195, the baseline: the
default before session 17), and the race of both that is the default now,
each run as `puzzlesat solve NAME [-b ENGINE] -t LIMIT` in a fresh process:
CPU seconds of the process and its children (reading and compiling
included, the same for all), and for the race its wall seconds too (it
searches with both engines at once).  The ratios: exact's CPU over
cadical195's, and the race's wall seconds over cadical195's CPU seconds
(the latency the default gives against the CPU the baseline spends: CaDiCaL
is single-threaded, so its CPU and wall time are close).  A run stopped by
the time limit shows ``>`` before its seconds, a ratio over it ``>``, a
ratio whose baseline was stopped ``<`` (``—`` when both were).

The boxes: every bundled tiling, boxes of repeated pieces (QA's, session
16), and boxes with no tiling that the precheck's colourings do not rule
out (a proof by search).

    python benchmarks/solve_default.py [--time-limit 60] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ENGINES = ("cadical195", "exact", "race")  # the baseline first; race: no -b, the default

#: name -> .toml text (None: a bundled instance)
EXTRA = {
    "tetrominoes-x4-4x20": '[board]\nsize = [4, 20]\n[[pieces]]\nset = "tetrominoes"\ncount = 4\n',
    "pentominoes-x2-10x12": '[board]\nsize = [10, 12]\n[[pieces]]\nset = "pentominoes"\ncount = 2\n',
    "pentominoes-x2-6x20": '[board]\nsize = [6, 20]\n[[pieces]]\nset = "pentominoes"\ncount = 2\n',
    "hexominoes-15x14": '[board]\nsize = [15, 14]\n[[pieces]]\nset = "hexominoes"\n',
    # no tiling
    "pentominoes-2x30": '[board]\nsize = [2, 30]\n[[pieces]]\nset = "pentominoes"\n',
    "V3-I5-4x6": ('[board]\nsize = [4, 6]\n[[pieces]]\nname = "V"\ncells = [[1, 1], [2, 1], [2, 2]]\ncount = 3\n'
                  '[[pieces]]\nname = "I"\ncells = [[1, 1], [2, 1], [3, 1]]\ncount = 5\n'),
    "mutilated-halves-8x17": ('[board]\nsize = [8, 17]\nholes = ['
                              + "".join(f"[{i}, 9], " for i in range(1, 9))
                              + '[1, 1], [8, 8], [1, 10], [8, 17]]\n[[pieces]]\nset = "dominoes"\ncount = 62\n'),
    # the same two halves joined by a door two cells high: one region,
    # balanced as a whole, and still no tiling
    "mutilated-door-8x17": ('[board]\nsize = [8, 17]\nholes = ['
                            + "".join(f"[{i}, 9], " for i in range(1, 9) if i not in (4, 5))
                            + '[1, 1], [8, 8], [1, 10], [8, 17]]\n[[pieces]]\nset = "dominoes"\ncount = 63\n'),
}


def bundled_tilings() -> list[str]:
    from puzzlesat.loading import bundled

    return [n for n, p in bundled().items() if "tiling" in p.parts]


def run(path: str, engine: str, limit: float) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "puzzlesat", "solve", path, "-t", str(limit), "--json",
                        "--no-progress"] + ([] if engine == "race" else ["-b", engine]), capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    cut = False
    try:
        d = json.loads(p.stdout)
        by = engine == "race" and d.get("backend") and d["status"] != "unknown"  # (None: decided before any engine)
        status = d["status"] + (f" ({d['backend']})" if by else "")
        cut = d.get("stopped_by") is not None  # the time limit (or another stop): its seconds are a lower bound
    except (ValueError, KeyError):
        status = f"exit {p.returncode}"
    return {"cpu": cpu, "wall": wall, "status": status, "cut": cut}


def secs(x: float, cut: bool) -> str:
    return ("> " if cut else "") + f"{x:.2f}"


def ratio(a: float, a_cut: bool, b: float, b_cut: bool) -> str:
    """a / b, marked: '>' when a was cut (a lower bound), '<' when b was, '—' when both."""
    if a_cut and b_cut:
        return "—"
    return ("> " if a_cut else "< " if b_cut else "") + (f"{a / b:.2f}" if b > 0 else "inf")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args(argv)
    if not args.time_limit > 0:
        print(f"solve_default.py: --time-limit: {args.time_limit} is not a positive number of seconds",
              file=sys.stderr)
        return 2
    names = bundled_tilings() + list(EXTRA)
    if args.only is not None:
        unknown = [n for n in args.only if n not in names]
        if unknown or not args.only:
            print(f"solve_default.py: --only: {'no name given' if not args.only else 'unknown box ' + repr(unknown[0])}"
                  f"; the boxes are: {', '.join(names)}", file=sys.stderr)
            return 2
        names = [n for n in names if n in args.only]
    print(f"{'instance':28s}{'cadical195 CPU s':>28s}{'exact CPU s':>28s}   exact CPU/cadical CPU"
          f"{'race CPU s (wall)':>48s}   race wall/cadical CPU")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            path = name
            if name in EXTRA:
                path = os.path.join(tmp, name + ".toml")
                with open(path, "w") as f:
                    f.write(EXTRA[name])
            rows = {e: run(path, e, args.time_limit) for e in ENGINES}
            base = rows["cadical195"]["cpu"]
            base_cut = rows["cadical195"]["cut"]
            cells = "".join(f"{secs(rows[e]['cpu'], rows[e]['cut']):>14s} {rows[e]['status']:>13s}"
                            for e in ("cadical195", "exact"))
            race = rows["race"]
            print(f"{name:28s}{cells}   {ratio(rows['exact']['cpu'], rows['exact']['cut'], base, base_cut):>21s}"
                  f"{secs(race['cpu'], race['cut']):>14s} ({secs(race['wall'], race['cut'])}) {race['status']:>26s}"
                  f"   {ratio(race['wall'], race['cut'], base, base_cut):>21s}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
