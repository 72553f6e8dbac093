"""A validation against published bridge numbers: double-dummy notrump tricks by combined high-card points.

Random 52-card deals (numpy's seeded generator, a uniform shuffle dealt 13 to each seat). For a side
(0+2 or 1+3) whose combined high-card points (A 4, K 3, Q 2, J 1) are in ``hcps``, each of its two
players is taken as the declarer in notrump: the opening lead comes from the declarer's left-hand
opponent, the next seat in play order (``solver.solve(hands, trump=4, leader=(d + 1) % 4, side=d)``;
``trump=4`` is the solver's no trump). The side's tricks are the mean over its two declarers (bridge
tables of "tricks by combined points" average over the declarers too). Deals that give no side a wanted
count are dealt and skipped without a solve; each count's sample stops at ``per_bucket`` sides, so the
sample of a count is a uniform sample of random deals with that count.

Published (e.g. the double-dummy tables quoted in bridge literature): about 6.1, 7.2, 8.2, 9.1, 10.1,
11.1 tricks for 20, 22, 24, 26, 28, 30 points.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .duplicate import AnalysisError

PUBLISHED = {20: 6.1, 22: 7.2, 24: 8.2, 26: 9.1, 28: 10.1, 30: 11.1}
_POINTS = np.array([[0] * 9 + [1, 2, 3, 4]] * 4).ravel()  # card = suit * 13 + rank, rank 12 the Ace


def hcp_notrump_tricks(
    per_bucket: int = 500, seed: int = 1, hcps=tuple(PUBLISHED), max_deals: int = 10_000_000, solver=None, progress=None
) -> pd.DataFrame:
    """One row per sampled side: ``deal`` (index of the random deal), ``side`` (0 = bottom/top),
    ``hcp``, ``tricks_d0``/``tricks_d1`` (notrump tricks with each of its players declaring), ``tricks``
    (their mean), ``hands`` (the four 52-card masks in hex, bottom right top left).
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
            t = [sv.solve(hands, 4, (d + 1) % 4, side=d) for d in (side, side + 2)]
            rows.append(
                {
                    "deal": deal - 1,
                    "side": side,
                    "hcp": pts,
                    "tricks_d0": t[0],
                    "tricks_d1": t[1],
                    "tricks": (t[0] + t[1]) / 2,
                    "hands": " ".join(f"{h:013x}" for h in hands),
                }
            )
            counts[pts] += 1
            if progress is not None and len(rows) % 100 == 0:
                progress(dict(counts))
    return pd.DataFrame(rows)


def hcp_table(frame: pd.DataFrame, published: dict | None = None) -> pd.DataFrame:
    """Per point count: n, mean tricks, its standard error and 95% interval, the best declarer's mean,
    the published figure and the difference."""
    published = PUBLISHED if published is None else published
    frame = frame.assign(best=frame[["tricks_d0", "tricks_d1"]].max(axis=1))
    g = frame.groupby("hcp")
    out = pd.DataFrame(
        {
            "n": g.size(),
            "mean_tricks": g["tricks"].mean(),
            "se": g["tricks"].std(ddof=1) / np.sqrt(g.size()),
            "best_declarer": g["best"].mean(),
        }
    )
    out["lo"] = out["mean_tricks"] - 1.959963984540054 * out["se"]
    out["hi"] = out["mean_tricks"] + 1.959963984540054 * out["se"]
    out["published"] = [published.get(int(h), math.nan) for h in out.index]
    out["difference"] = out["mean_tricks"] - out["published"]
    return out[["n", "mean_tricks", "se", "lo", "hi", "best_declarer", "published", "difference"]]
