"""A mirror's Burnside run on a domino board: the site sum over every set of
sites (one minor each, stacked) against the pair formula (the minors without
no site or two, and one Pfaffian), in one process, same component.

    python benchmarks/site_sums.py [RxC ...]

Each line: the board, its sites, each way's minors and CPU seconds, and the
ratio (pairs / sets).  The two counts are asserted equal.  A board is
measured on its first mirror with at least 10 sites; a board with none is
named as skipped, with its most sites.  Boards whose half
is odd (21x22, 23x22: the mirror whose axis crosses every row) take the pair
formula with one site flipped (a pendant vertex); summing their sets takes
up to ~1 minute and a few GB.
"""
import argparse
import sys
import time

DEFAULT = [(14, 14), (20, 20), (20, 21), (21, 22)]
MIN_SITES = 10


def board(s: str) -> tuple[int, int]:
    """RxC, rows by columns, with an even area (a domino board)."""
    try:
        r, c = map(int, s.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{s!r}: give a board as RxC, e.g. 20x21") from None
    if r < 1 or c < 1:
        raise argparse.ArgumentTypeError(f"{s!r}: rows and columns must be positive")
    if r * c % 2:
        raise argparse.ArgumentTypeError(f"{s!r}: an odd number of squares has no domino tiling")
    return r, c


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("boards", nargs="*", type=board, metavar="RxC",
                    help=f"boards (default: {' '.join(f'{r}x{c}' for r, c in DEFAULT)})")
    args = ap.parse_args(argv)

    from puzzlesat.backends import kasteleyn as K
    from puzzlesat.models.tiling.tomlfile import load as load_toml
    from puzzlesat.problem import equalities

    for r, c in args.boards or DEFAULT:
        b = load_toml(f'[board]\nsize = [{r}, {c}]\n[[pieces]]\nset = "dominoes"\ncount = {r * c // 2}\n',
                      "b.toml").compile()
        most = 0
        for g in b.symmetries:
            q = b.with_constraints(equalities(g))
            plan = K._Plan(q)
            parts = [p for p in plan.parts if getattr(p, "sites", None)]
            if parts:
                most = max(most, len(parts[0].sites))
            if not parts or len(parts[0].sites) < MIN_SITES:
                continue
            part = parts[0]
            out = []
            for pf in (10**9, None):
                t = time.process_time()
                n, info = K.count_component(part, plan.adj, plan.edges, pairs_from=pf)
                t = time.process_time() - t
                out.append((n, info["terms"], t, info.get("flipped", 0)))
            assert out[0][0] == out[1][0]
            flips = f" ({out[1][3]} flipped)" if out[1][3] else ""
            print(f"{r}x{c} mirror, {len(part.sites)} sites{flips}: sets {out[0][1]:,} minors {out[0][2]:.2f} s; "
                  f"pairs {out[1][1]:,} minors {out[1][2]:.3f} s; {out[1][2]/out[0][2]:.3f}x")
            break
        else:
            print(f"{r}x{c}: skipped: no mirror with {MIN_SITES} or more sites "
                  f"({'the most: ' + str(most) if most else 'none has a site'})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
