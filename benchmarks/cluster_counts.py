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

import sys
import time


def main(names: list[str]) -> None:
    from distributed import LocalCluster

    from puzzlesat import cluster, jobs
    from puzzlesat.backends import get_backend
    from puzzlesat.loading import load_puzzle

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        cl = cluster.Cluster(lc.scheduler_address)
        try:
            for name in names:
                puzzle = load_puzzle(name)
                sent = cl.tasks
                t0 = time.perf_counter()
                out = jobs.count(puzzle, get_backend("exact"), cluster=cl)
                print(f"{name}: {out.count} solutions, {cl.tasks - sent} tasks, "
                      f"{time.perf_counter() - t0:.2f} s wall", flush=True)
        finally:
            cl.close()


if __name__ == "__main__":
    main(sys.argv[1:] or ["pentomino-8x8-hole", "pentomino-2x3x10", "pentomino-5x12"])
