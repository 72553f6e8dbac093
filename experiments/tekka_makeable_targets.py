"""Bidding risk in Tekka: how often is a target makeable, given what the declarer can see?

For seeded random Tekka deals, every seat is taken in turn as the declarer. The declarer chooses Prime
after the auction and leads trick 1, so its side's double-dummy value with Prime ``p`` is
``solve(hands, p, leader=declarer)``, and the best it can make is the maximum over the four suits
(perfect information for all four players: an upper bound for real play, the standard yardstick of
bidding analysis). The declarer's own hand is summarised by its high-card points (A 4, K 3, Q 2, J 1)
and its longest suit; the table gives, per bucket, the share of deals where each target 8..13 is
makeable, and the plot draws those curves.

Same seed, same table, whatever ``--workers``: deal i is ``Tekka.new_deal(seed + i)``.

    python experiments/tekka_makeable_targets.py --deals 400 --seed 1 --workers 2 --out runs/tekka-targets
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from tekkasim.analysis import wilson_interval  # noqa: E402
from tekkasim.cards import cards_of  # noqa: E402
from tekkasim.rules import get_game  # noqa: E402
from tekkasim.solver.dd import Solver  # noqa: E402

HCP = {12: 4, 11: 3, 10: 2, 9: 1}  # rank index -> points (A K Q J)
TARGETS = range(8, 14)
MIN_BUCKET = 10


def hand_features(mask: int) -> tuple[int, int]:
    cards = cards_of(mask)
    hcp = sum(HCP.get(c % 13, 0) for c in cards)
    longest = max(sum(1 for c in cards if c // 13 == s) for s in range(4))
    return hcp, longest


def analyse_block(seeds: list[int]) -> list[dict]:
    """One row per (deal, declarer): the declarer's features and its side's best double-dummy tricks."""
    game, solver, rows = get_game("tekka"), Solver(), []
    for seed in seeds:
        state = game.new_deal(seed)
        hands = [state.hand(s) for s in range(4)]
        for declarer in range(4):
            by_prime = {p: solver.solve(hands, p, declarer) for p in range(4)}
            best = max(by_prime, key=lambda p: (by_prime[p], p))
            hcp, longest = hand_features(hands[declarer])
            rows.append(
                {
                    "seed": seed,
                    "declarer": declarer,
                    "hcp": hcp,
                    "longest": longest,
                    "best_prime": best,
                    "tricks": by_prime[best],
                }
            )
    return rows


def run(deals: int, seed: int, workers: int) -> pd.DataFrame:
    seeds = list(range(seed, seed + deals))
    blocks = [seeds[i : i + 25] for i in range(0, deals, 25)]  # blocks, not single deals: pool overhead
    if workers > 1:
        import multiprocess

        with multiprocess.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(analyse_block, blocks)
    else:
        parts = [analyse_block(b) for b in blocks]
    return pd.DataFrame([row for part in parts for row in part])


def makeable_table(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Per bucket of ``by``: n, and for each target the number of positions where it is makeable."""
    buckets = frame.assign(bucket=frame[by] if by == "longest" else (frame[by] // 4) * 4)
    grouped = buckets.groupby("bucket")["tricks"]
    table = pd.DataFrame({t: grouped.apply(lambda x, t=t: int((x >= t).sum())) for t in TARGETS})
    table.insert(0, "n", grouped.size())
    return table


def shares(table: pd.DataFrame) -> pd.DataFrame:
    return table[list(TARGETS)].div(table["n"], axis=0).assign(n=table["n"])[["n", *TARGETS]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("runs/tekka-targets"))
    args = parser.parse_args()
    if args.deals < 1 or args.workers < 1:
        parser.error("--deals and --workers must be at least 1")
    t0 = time.perf_counter()
    frame = run(args.deals, args.seed, args.workers)
    elapsed = time.perf_counter() - t0
    args.out.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out / "solves.csv", index=False)
    by_hcp, by_len = makeable_table(frame, "hcp"), makeable_table(frame, "longest")
    pd.options.display.float_format = "{:.3f}".format
    print(f"{len(frame)} declarer positions from {args.deals} deals, {16 * args.deals} solves in {elapsed:.1f} s")
    print("\nshare of deals where the declarer's side can make each target (double dummy), by declarer HCP:")
    print(shares(by_hcp).to_string())
    print("\nby the declarer's longest suit:")
    print(shares(by_len).to_string())
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, table, label in (
        (axes[0], by_hcp, "declarer high-card points (bucket of 4)"),
        (axes[1], by_len, "declarer's longest suit"),
    ):
        table = table[table["n"] >= MIN_BUCKET]  # a share of 3 deals is noise, not a point on a curve
        for t in TARGETS:
            lo, hi = wilson_interval(table[t], table["n"])
            (line,) = ax.plot(table.index, table[t] / table["n"], marker="o", label=f"target {t}")
            ax.fill_between(table.index, lo, hi, color=line.get_color(), alpha=0.15)
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("share makeable (double dummy)")
    axes[1].legend()
    fig.suptitle(
        f"Tekka: makeable targets, {args.deals} deals from seed {args.seed} "
        f"(bands: 95% Wilson intervals; buckets with n >= {MIN_BUCKET})"
    )
    fig.tight_layout()
    fig.savefig(args.out / "makeable.png", dpi=120)
    print(f"\nwrote {args.out / 'solves.csv'} and {args.out / 'makeable.png'}")


if __name__ == "__main__":
    main()
