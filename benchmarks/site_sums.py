"""A mirror's Burnside run on a domino board: the site sum over every set of
sites (one minor each, stacked) against the pair formula (the minors without
no site or two, and one Pfaffian), in one process, same component.

    python benchmarks/site_sums.py [RxC ...]

Each line: the board, its sites, each way's minors and CPU seconds, and the
ratio (pairs / sets).  The two counts are asserted equal.  Boards whose half
is odd (21x22, 23x22: the mirror whose axis crosses every row) take the pair
formula with one site flipped (a pendant vertex); summing their sets takes
up to ~1 minute and a few GB.
"""
import sys
import time
from puzzlesat.models.tiling.tomlfile import load as load_toml
from puzzlesat.problem import equalities
from puzzlesat.backends import kasteleyn as K
boards = [tuple(map(int, a.split("x"))) for a in sys.argv[1:]] or [(14, 14), (20, 20), (20, 21), (21, 22)]
for r, c in boards:
    b = load_toml(f'[board]\nsize = [{r}, {c}]\n[[pieces]]\nset = "dominoes"\ncount = {r * c // 2}\n', "b.toml").compile()
    for g in b.symmetries:
        q = b.with_constraints(equalities(g))
        plan = K._Plan(q)
        parts = [p for p in plan.parts if getattr(p, "sites", None)]
        if not parts or len(parts[0].sites) < 10:
            continue
        part = parts[0]
        out = []
        for pf in (10**9, None):
            t = time.process_time(); n, info = K.count_component(part, plan.adj, plan.edges, pairs_from=pf); t = time.process_time() - t
            out.append((n, info["terms"], t, info.get("flipped", 0)))
        assert out[0][0] == out[1][0]
        flips = f" ({out[1][3]} flipped)" if out[1][3] else ""
        print(f"{r}x{c} mirror, {len(part.sites)} sites{flips}: sets {out[0][1]:,} minors {out[0][2]:.2f} s; pairs {out[1][1]:,} minors {out[1][2]:.3f} s; {out[1][2]/out[0][2]:.3f}x")
        break
