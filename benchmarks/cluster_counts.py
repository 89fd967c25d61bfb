"""Wall-clock seconds of ``count`` on a local Dask cluster (two worker
processes, one thread each), for the cost of the cluster path itself.

    python benchmarks/cluster_counts.py pentomino-8x8-hole pentomino-2x3x10 pentomino-5x12

Each instance is counted with the exact engine through ``--cluster``'s code
(jobs.count with a Cluster); prints the count, the tasks sent and the wall
time.  To compare two versions, run it with each on PYTHONPATH in turn,
from a directory outside the checkouts: before 0968b9e a worker's child
Python imported puzzlesat from the current directory, not the parent's.
"""

from __future__ import annotations

import argparse
import sys
import time

DEFAULT = ["pentomino-8x8-hole", "pentomino-2x3x10", "pentomino-5x12"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="Needs the 'distributed' package (Dask), as puzzlesat's --cluster does.")
    ap.add_argument("names", nargs="*", metavar="INSTANCE",
                    help=f"bundled names or files (default: {' '.join(DEFAULT)})")
    args = ap.parse_args(argv)
    names = args.names or DEFAULT

    from puzzlesat import cluster, jobs
    from puzzlesat.backends import get_backend
    from puzzlesat.loading import load_puzzle

    puzzles = {}
    for name in names:  # all loaded before the cluster starts: a bad name fails at once
        try:
            puzzles[name] = load_puzzle(name)
        except Exception as e:  # a bad name or file
            print(f"cluster_counts.py: {e}", file=sys.stderr)
            return 2
    try:
        from distributed import LocalCluster
    except ImportError:
        print("cluster_counts.py: the 'distributed' package (Dask) is not installed", file=sys.stderr)
        return 2

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        cl = cluster.Cluster(lc.scheduler_address)
        try:
            for name, puzzle in puzzles.items():
                sent = cl.tasks
                t0 = time.perf_counter()
                out = jobs.count(puzzle, get_backend("exact"), cluster=cl)
                print(f"{name}: {out.count} solutions, {cl.tasks - sent} tasks, "
                      f"{time.perf_counter() - t0:.2f} s wall", flush=True)
        finally:
            cl.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
