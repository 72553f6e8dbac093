"""A validation against published bridge numbers: double-dummy notrump tricks by combined high-card points.

What is measured
----------------
Random 52-card deals: numpy's seeded generator, a uniform shuffle dealt 13 to each seat; nothing about
the deal is generated for the point count and the opponents' hands are unconstrained. A side (0+2 or
1+3) enters the sample of count N when its combined high-card points, A 4 K 3 Q 2 J 1 (the Work count),
are exactly N. Each count's sample stops at ``per_bucket`` sides, and deals that give no side a wanted
count are dealt and skipped without a solve, so a count's sample is a uniform sample of random deals
conditioned on that exact count (a deal where both sides have 20 gives two sides).

Each of the side's two players is solved as declarer in notrump, the opening lead from the declarer's
left-hand opponent, which is the next seat in play order: ``solver.solve(hands, trump=4,
leader=(d + 1) % 4, side=d)`` (``trump=4`` is the solver's no trump). The solver plays counter-clockwise
(bottom, right, top, left); a bridge table plays clockwise, and a deal seen in a mirror has the same
double-dummy results, so bottom, right, top, left are North, East, South, West
(``tests/test_analysis_bridge.py`` checks the counts against DDS, Bo Haglund's solver, through ``endplay``).

Which declarer
--------------
A side has two double-dummy results in notrump, one per declarer, and a study of "tricks by combined
points" has to pick one. ``tricks`` (the headline) follows the one published study of double-dummy
tricks by partnership HCP on random deals whose method we could read, Richard Pavlicek's "Optimal IMP
Strategy" (rpbridge.net/8j25, 10,485,760 random solved deals): "Notrump contracts were evaluated with the
more balanced hand declarer ... Ties were broken by choosing a fixed declarer". More balanced here =
the smaller sum of squared suit lengths (4-3-3-3 43, 4-4-3-2 45, 5-3-3-2 47, 4-4-4-1 and 5-4-2-2 49, ...),
ties to the side's first seat (bottom or right), a choice independent of the cards' ranks. We did not
find the source of the issue's figures (6.1, 7.2, 8.2, 9.1, 10.1, 11.1) nor its declarer rule, so the
table also gives the other two readings with their standard errors: ``tricks_mean`` (the mean over the
two declarers; equal in expectation to any fixed seat, such as "North declares") and ``tricks_best``
(the better of the two, the side's par-style result). They differ little and have the same slope (the
study ``experiments/studies/bridge_hcp.toml`` shows all three), so the declarer rule cannot explain a
difference in slope.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .duplicate import AnalysisError

PUBLISHED = {20: 6.1, 22: 7.2, 24: 8.2, 26: 9.1, 28: 10.1, 30: 11.1}
_POINTS = np.array([[0] * 9 + [1, 2, 3, 4]] * 4).ravel()  # card = suit * 13 + rank, rank 12 the Ace
_Z95 = 1.959963984540054


def suit_lengths(hand: int) -> list[int]:
    """Clubs, diamonds, hearts, spades lengths of a 52-card mask."""
    return [bin(hand >> (13 * s) & 0x1FFF).count("1") for s in range(4)]


def balance(hand: int) -> int:
    """Sum of squared suit lengths: 43 for 4-3-3-3, larger for less balanced hands."""
    return sum(n * n for n in suit_lengths(hand))


def hcp_notrump_tricks(
    per_bucket: int = 500, seed: int = 1, hcps=tuple(PUBLISHED), max_deals: int = 10_000_000, solver=None, progress=None
) -> pd.DataFrame:
    """One row per sampled side: ``deal`` (index of the random deal), ``side`` (0 = bottom/top),
    ``hcp``, ``tricks_d0``/``tricks_d1`` (notrump tricks with its first/second player declaring),
    ``declarer`` (0 or 1: the more balanced of the two, ties 0), ``tricks`` (that declarer's tricks),
    ``tricks_mean``, ``tricks_best``, ``shapes`` (the two hands' suit lengths, longest first) and
    ``hands`` (the four 52-card masks in hex, bottom right top left).
    ``progress(counts)`` is called after every 100 sides."""
    from ..solver import Solver

    hcps = sorted({int(h) for h in hcps})
    if per_bucket < 1 or not hcps or not all(0 <= h <= 40 for h in hcps):
        raise AnalysisError("per_bucket must be positive and the point counts within 0..40")
    sv = solver or Solver()
    rng = np.random.default_rng(seed)
    counts = dict.fromkeys(hcps, 0)
    rows = []
    deal = 0
    while min(counts.values()) < per_bucket:
        if deal >= max_deals:
            raise AnalysisError(f"only {counts} sides after {max_deals} deals")
        perm = rng.permutation(52)
        deal += 1
        seat_pts = [int(_POINTS[perm[13 * s : 13 * s + 13]].sum()) for s in range(4)]
        wanted = [side for side in (0, 1) if counts.get(seat_pts[side] + seat_pts[side + 2], per_bucket) < per_bucket]
        if not wanted:
            continue
        hands = [sum(1 << int(c) for c in perm[13 * s : 13 * s + 13]) for s in range(4)]
        for side in wanted:
            pts = seat_pts[side] + seat_pts[side + 2]
            if counts[pts] >= per_bucket:  # 20 against 20: the first side may have filled the count
                continue
            seats = (side, side + 2)
            t = [sv.solve(hands, 4, (d + 1) % 4, side=d) for d in seats]
            declarer = 1 if balance(hands[seats[1]]) < balance(hands[seats[0]]) else 0
            rows.append(
                {
                    "deal": deal - 1,
                    "side": side,
                    "hcp": pts,
                    "tricks_d0": t[0],
                    "tricks_d1": t[1],
                    "declarer": declarer,
                    "tricks": t[declarer],
                    "tricks_mean": (t[0] + t[1]) / 2,
                    "tricks_best": max(t),
                    "shapes": " ".join("".join(map(str, sorted(suit_lengths(hands[d]), reverse=True))) for d in seats),
                    "hands": " ".join(f"{h:013x}" for h in hands),
                }
            )
            counts[pts] += 1
            if progress is not None and len(rows) % 100 == 0:
                progress(dict(counts))
    return pd.DataFrame(rows)


def hcp_table(frame: pd.DataFrame, published: dict | None = None) -> pd.DataFrame:
    """Per point count: ``n``; the headline (more balanced declarer) ``mean_tricks`` with its standard
    error ``se`` and 95% interval ``lo``..``hi``; ``mean_of_two`` and ``best_declarer`` with their
    standard errors; the ``published`` figure, ``difference`` (headline minus published) and ``z``
    (difference / se)."""
    published = PUBLISHED if published is None else published
    g = frame.groupby("hcp")
    n = g.size()
    se = lambda col: g[col].std(ddof=1) / np.sqrt(n)  # noqa: E731
    out = pd.DataFrame(
        {
            "n": n,
            "mean_tricks": g["tricks"].mean(),
            "se": se("tricks"),
            "mean_of_two": g["tricks_mean"].mean(),
            "mean_of_two_se": se("tricks_mean"),
            "best_declarer": g["tricks_best"].mean(),
            "best_se": se("tricks_best"),
        }
    )
    out["lo"] = out["mean_tricks"] - _Z95 * out["se"]
    out["hi"] = out["mean_tricks"] + _Z95 * out["se"]
    out["published"] = [published.get(int(h), math.nan) for h in out.index]
    out["difference"] = out["mean_tricks"] - out["published"]
    out["z"] = out["difference"] / out["se"]
    cols = ["n", "mean_tricks", "se", "lo", "hi", "mean_of_two", "mean_of_two_se", "best_declarer", "best_se"]
    return out[[*cols, "published", "difference", "z"]]


def dds_pbn(hands) -> str:
    """The deal as a PBN string for DDS: bottom, right, top, left as North, East, South, West (the
    mirror image of our counter-clockwise table, which leaves double-dummy results unchanged)."""
    ranks = "23456789TJQKA"
    return "N:" + " ".join(
        ".".join("".join(ranks[r] for r in range(12, -1, -1) if h >> (13 * s + r) & 1) for s in (3, 2, 1, 0))
        for h in hands
    )
