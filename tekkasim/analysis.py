"""Tables of deal records for people and notebooks (pandas)."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd


def records_frame(records: Iterable[dict]) -> pd.DataFrame:
    """One row per record: ruleset, seed, and the result fields flattened (``tricks.A``, ``score.B`` ...)."""
    rows = []
    for rec in records:
        row = {"ruleset": rec.get("ruleset"), "seed": rec.get("seed"), "match": rec.get("match"),
               "deal_no": rec.get("deal_no"), "n_tricks": len(rec.get("tricks", []))}
        row.update(pd.json_normalize(rec.get("result") or {}, sep=".").iloc[0].to_dict() if rec.get("result") else {})
        rows.append(row)
    return pd.DataFrame(rows)


def contract_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Tekka: how often each target was the contract and how often it was made (bid success rate)."""
    tekka = frame[frame["ruleset"] == "tekka"]
    if tekka.empty or "target" not in tekka:
        return pd.DataFrame(columns=["deals", "made", "success_rate"])
    key = tekka["target"].astype(str) + tekka["mandatory"].map({True: " (mandatory)", False: ""})
    grouped = tekka.groupby(key)["made"].agg(deals="count", made="sum")
    grouped["success_rate"] = grouped["made"] / grouped["deals"]
    return grouped
