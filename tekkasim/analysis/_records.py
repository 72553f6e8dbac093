"""Tables of deal records for people and notebooks (pandas)."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd


def records_frame(records: Iterable[dict]) -> pd.DataFrame:
    """One row per record: ruleset, seed, and the result fields flattened (``tricks.A``, ``score.B`` ...)."""
    rows = []
    for rec in records:
        row = {
            "ruleset": rec.get("ruleset"),
            "seed": rec.get("seed"),
            "match": rec.get("match"),
            "deal_no": rec.get("deal_no"),
            "n_tricks": len(rec.get("tricks", [])),
        }
        row.update(pd.json_normalize(rec.get("result") or {}, sep=".").iloc[0].to_dict() if rec.get("result") else {})
        rows.append(row)
    return pd.DataFrame(rows)


def contract_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Deals with a contract (records whose result has a ``target``, as Tekka's): how often each target was
    the contract and how often it was made (bid success rate)."""
    if "target" not in frame:
        return pd.DataFrame(columns=["deals", "made", "success_rate"])
    bid = frame[frame["target"].notna()]
    if bid.empty:
        return pd.DataFrame(columns=["deals", "made", "success_rate"])
    key = bid["target"].astype(str) + bid["mandatory"].map({True: " (mandatory)", False: ""})
    grouped = bid.groupby(key)["made"].agg(deals="count", made="sum")
    grouped["success_rate"] = grouped["made"] / grouped["deals"]
    return grouped


def wilson_interval(successes, trials, z: float = 1.959963984540054):
    """Wilson score interval for a binomial proportion (95% by default); works on scalars or arrays.

    Better than the normal approximation at the small counts and extreme rates that bid-success tables
    are full of (it never leaves [0, 1] and is not degenerate at 0 or n successes).

    >>> lo, hi = wilson_interval(0, 10)
    >>> round(float(lo), 3), round(float(hi), 3)
    (0.0, 0.278)
    """
    import numpy as np

    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)
