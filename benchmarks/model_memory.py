"""Peak memory and CPU time of whole CLI runs on large nonograms, this
checkout against a baseline revision, measured in the same run.

    python benchmarks/model_memory.py [--baseline REV] [--rounds 1] [--sizes 300 400]

The puzzles are drawn by the script from a fixed seed: random N x N
pictures, black with probability 0.7 ("dense", many runs of a few cells:
CaDiCaL finds a picture in seconds) or 0.5 ("half", about N/4 runs a line:
the largest models, far too hard to solve, so only ``export`` runs on them,
which builds the model and its CNF and writes it).  Two tilings: the export
of 40x40 dominoes and monominoes, whose CNF is mostly PySAT's encoding of
two large cardinality constraints, and ``info`` on the 3x4x5 box as the
control.  The baseline is REV checked out in a temporary git worktree;
each command runs as a fresh process of each checkout, the two
alternating, and the figures are the process's (and its children's) peak
RSS and user+system CPU seconds, from ``os.wait4``.  The ratio is this
checkout / baseline.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def picture_file(n: int, p: float, seed: int, folder: str) -> str:
    r = random.Random(seed)
    grid = [[int(r.random() < p) for _ in range(n)] for _ in range(n)]

    def runs(line):
        out, c = [], 0
        for x in list(line) + [0]:
            if x:
                c += 1
            elif c:
                out.append(c)
                c = 0
        return out

    path = os.path.join(folder, f"random-{n}-{p}-{seed}.nin")
    with open(path, "w") as f:
        f.write(f"{n} {n}\n")
        for line in grid + [list(col) for col in zip(*grid)]:
            f.write((" ".join(map(str, runs(line))) or "0") + "\n")
    return path


def run(checkout: Path, argv: list[str], cwd: str) -> tuple[float, float, int]:
    """(peak RSS in MB, CPU s, exit code) of ``puzzlesat argv`` run from ``checkout``."""
    code = (f"import sys; sys.path.insert(0, {str(checkout)!r}); from puzzlesat import program; "
            f"sys.argv = ['puzzlesat'] + {argv!r}; program.entry()")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode()
    proc.stderr.close()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{checkout}: puzzlesat {' '.join(argv)}: exit {proc.returncode}\n{err}")
    return usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default="97fb9e3", help="git revision to compare with (default: %(default)s)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--sizes", type=int, nargs="+", default=[300, 400])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), args.baseline], cwd=REPO, check=True)
        try:
            commands = []
            for n in args.sizes:
                commands.append(["solve", picture_file(n, 0.7, 3, tmp)])
            for n in args.sizes:
                commands.append(["export", picture_file(n, 0.5, 1, tmp), "-o", "-"])
            md = os.path.join(tmp, "dominoes-monominoes-40.toml")
            with open(md, "w") as f:  # (its Exactly(800) over 1,600 placements: PySAT's encoder's clauses)
                f.write('title="md 40"\n[board]\nsize=[40,40]\n[[pieces]]\nset="dominoes"\ncount=400\n'
                        '[[pieces]]\nset="monominoes"\ncount=800\n')
            commands.append(["export", md, "-o", "-"])
            commands.append(["info", "pentomino-3x4x5"])
            print(f"this checkout against {args.baseline}, {args.rounds} round(s) alternating\n")
            print("| command | MB | baseline MB | ratio | CPU s | baseline CPU s | ratio |")
            print("|---|---|---|---|---|---|---|")
            for argv in commands:
                got = {"new": [0.0, 0.0], "old": [0.0, 0.0]}
                for _ in range(args.rounds):
                    for name, checkout in (("new", REPO), ("old", base)):
                        mb, cpu, _ = run(checkout, argv, tmp)
                        got[name][0] = max(got[name][0], mb)
                        got[name][1] += cpu / args.rounds
                (nm, nc), (om, oc) = got["new"], got["old"]
                shown = " ".join(Path(a).stem if "/" in a else a for a in argv)
                print(f"| `{shown}` | {nm:.0f} | {om:.0f} | {nm / om:.2f}x | {nc:.1f} | {oc:.1f} | {nc / oc:.2f}x |",
                      flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=REPO)
            subprocess.run(["git", "worktree", "prune"], cwd=REPO)


if __name__ == "__main__":
    main()
