"""Validation of the double-dummy pipeline against a classic bridge result: mean notrump tricks for the
side with 20, 22, 24, 26, 28, 30 combined high-card points on random 52-card deals (published about
6.1, 7.2, 8.2, 9.1, 10.1, 11.1), within 0.15 of a trick. Method and the declarer rule (the more balanced
hand declares, after Pavlicek; the mean of the two declarers and the better one beside it):
``tekkasim.analysis.bridge``.

    python experiments/bridge_hcp.py                    # small: 60 sides per count
    python experiments/bridge_hcp.py --full             # the reported table: 4000 sides per count (se ~0.02)
    python experiments/bridge_hcp.py --full --dds 300   # and check 300 sides' counts against DDS (endplay)
    python experiments/bridge_hcp.py --per-bucket 600 --seed 20261201 20261202   # two seeds pooled, 600 each
    python experiments/bridge_hcp.py --pool runs/a/sides.csv runs/b/sides.csv  # earlier runs pooled

Writes ``runs/bridge_hcp/{sides.csv,table.csv,table.md}`` and prints the table. Measured figures
(``--full``: 4000 sides per count, seed 20261203, its size fixed before it was dealt): all six counts
within 0.15 (differences -0.093 .. +0.143), our curve steeper than the published one; the table and
an earlier 1000-per-count sample are in experiments/README.md.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from tekkasim.analysis.bridge import dds_pbn, hcp_notrump_tricks, hcp_table

CONFIG = {"seed": 20261203, "per_bucket": 60, "full_per_bucket": 4000, "tolerance": 0.15}


def dds_check(frame, limit: int) -> tuple[int, int]:
    """Compare the first ``limit`` sides' two notrump counts with DDS (endplay's ``calc_all_tables``):
    (declarer results compared, mismatches)."""
    try:
        from endplay.dds import calc_all_tables
        from endplay.types import Deal, Denom, Player
    except ImportError:
        raise SystemExit("--dds needs endplay (pip install 'tekkasim[test]')") from None
    rows = frame.iloc[:limit]
    deals = {(r.seed, r.deal): [int(h, 16) for h in r.hands.split()] for r in rows.itertuples()}
    keys = sorted(deals)
    seats = [Player.north, Player.east, Player.south, Player.west]
    suits = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs]
    dds = {}
    for i in range(0, len(keys), 32):  # DDS takes up to 32 deals a call with notrump alone
        chunk = keys[i : i + 32]
        for k, table in zip(
            chunk, calc_all_tables([Deal(dds_pbn(deals[k])) for k in chunk], exclude=suits), strict=True
        ):
            dds[k] = [table[Denom.nt, p] for p in seats]
    bad = 0
    for r in rows.itertuples():
        d = dds[r.seed, r.deal]
        got, want = (r.tricks_d0, r.tricks_d1), (d[r.side], d[r.side + 2])
        if got != want:
            bad += 1
            print(f"DDS differs: seed {r.seed} deal {r.deal} side {r.side}: ours {got}, DDS {want}")
    return 2 * len(rows), bad


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, nargs="+", default=[CONFIG["seed"]], help="one or more seeds (pooled)")
    parser.add_argument("--per-bucket", type=int, default=None)
    parser.add_argument("--full", action="store_true", help=f"{CONFIG['full_per_bucket']} sides per count")
    parser.add_argument("--dds", type=int, default=0, metavar="N", help="check N sides against DDS (endplay)")
    parser.add_argument("--out", type=Path, default=Path("runs/bridge_hcp"))
    parser.add_argument(
        "--pool",
        type=Path,
        nargs="+",
        metavar="SIDES_CSV",
        help="no solving: the table of earlier runs' sides.csv pooled",
    )
    args = parser.parse_args(argv)
    if args.pool:
        frame = pd.concat([pd.read_csv(p) for p in args.pool], ignore_index=True)
        table = hcp_table(frame)
        table["within_0.15"] = table["difference"].abs() <= CONFIG["tolerance"]
        print(f"{len(frame)} sides pooled from {len(args.pool)} runs")
        print(table.to_markdown(floatfmt=".3f") if _has_tabulate() else table.to_string(float_format="{:.3f}".format))
        return
    n = args.per_bucket or (CONFIG["full_per_bucket"] if args.full else CONFIG["per_bucket"])
    t0 = time.perf_counter()
    frames = [
        hcp_notrump_tricks(
            n,
            seed=seed,
            progress=lambda c: print(f"{time.perf_counter() - t0:6.0f} s  sides per count {c}", flush=True),
        ).assign(seed=seed)
        for seed in args.seed
    ]
    frame = pd.concat(frames, ignore_index=True)
    table = hcp_table(frame)
    table["within_0.15"] = table["difference"].abs() <= CONFIG["tolerance"]
    args.out.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out / "sides.csv", index=False)
    table.to_csv(args.out / "table.csv")
    text = table.to_markdown(floatfmt=".3f") if _has_tabulate() else table.to_string(float_format="{:.3f}".format)
    (args.out / "table.md").write_text(text + "\n")
    print(
        f"{len(frame)} sides ({n} per count and seed) from {sum(int(f['deal'].max()) + 1 for f in frames)} random "
        f"deals, seeds {' '.join(map(str, args.seed))}, "
        f"{2 * len(frame)} notrump solves in {time.perf_counter() - t0:.0f} s"
    )
    print(text)
    if args.dds:
        compared, bad = dds_check(frame, args.dds)
        print(f"DDS: {compared} declarer results compared, {bad} differ")


def _has_tabulate() -> bool:
    try:
        import tabulate  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    main()
