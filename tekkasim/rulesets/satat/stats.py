"""Satat statistics from a run's deal records: kinds of result, redeals, Renonce outcomes and accusations."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from tekkasim.analysis._records import wilson_interval
from tekkasim.analysis.games import _bots, _require, _seat, mean_table, rate_table
from tekkasim.cards import SEATS


def satat_deals(records: Iterable[dict]) -> pd.DataFrame:
    """Per Satat round: caller, its team and bot, ``redeals``, ``kind`` (seven, kot, kot52, renonce),
    ``caller_net`` (caller's team points minus the other's), Renonces per team (``renonces_A``/``_B``),
    and the accusation if any: ``accuser``, ``accuser_bot``, ``accused``, ``accusation_correct``."""
    rows = []
    for rec in _require(records, "satat"):
        res, bots = rec["result"], _bots(rec)
        caller = rec["caller"]
        team = "AB"[_seat(caller) % 2]
        other = "B" if team == "A" else "A"
        ren = {"A": 0, "B": 0}
        renoncers = set()
        for _trick, seat in res.get("renonces", []):
            s = seat if isinstance(seat, str) else SEATS[seat]
            ren["AB"[_seat(s) % 2]] += 1
            renoncers.add(s)
        acc = [p for t in rec.get("tricks", []) for p in t if isinstance(p, dict) and "accuse" in p]
        row = {
            "seed": rec.get("seed"),
            "caller": caller,
            "caller_bot": bots.get(caller),
            "team": team,
            "redeals": rec.get("redeals", 0),
            "kind": res["kind"],
            "caller_net": res["points"][team] - res["points"][other],
            "renonces_A": ren["A"],
            "renonces_B": ren["B"],
            "bots_A": bots.get("bottom"),
            "bots_B": bots.get("right"),
            "accuser": None,
            "accuser_bot": None,
            "accused": None,
            "accusation_correct": None,
        }
        if acc:
            a = acc[-1]
            by_team = "AB"[_seat(a["by"]) % 2]
            row.update(
                {
                    "accuser": a["by"],
                    "accuser_bot": bots.get(a["by"]),
                    "accused": a["accuse"],
                    "accusation_correct": res["points"][by_team] > 0,
                }
            )
        rows.append(row)
    return pd.DataFrame(rows)


def satat_kinds(deals: pd.DataFrame) -> pd.DataFrame:
    """Share of rounds of each kind (seven, kot, kot52, renonce) with Wilson 95% intervals."""
    n = len(deals)
    rows = []
    for kind in ("seven", "kot", "kot52", "renonce"):
        k = int((deals["kind"] == kind).sum())
        lo, hi = wilson_interval(k, n)
        rows.append(
            {"kind": kind, "n": n, "count": k, "rate": k / n if n else np.nan, "lo": float(lo), "hi": float(hi)}
        )
    return pd.DataFrame(rows)


def redeal_value(deals: pd.DataFrame) -> pd.DataFrame:
    """By the number of redeals before the round: the caller's team's mean net points (95%) and how often
    it scored more than the other team (Wilson)."""
    d = deals.assign(caller_scored=deals["caller_net"] > 0)
    out = mean_table(d, "redeals", "caller_net")
    r = rate_table(d, "redeals", "caller_scored")
    out["caller_scored"], out["scored_lo"], out["scored_hi"] = r["rate"], r["lo"], r["hi"]
    return out


def renonce_outcomes(deals: pd.DataFrame) -> pd.DataFrame:
    """Rounds in which exactly one team committed Renonces, by the Renoncing team's bot and the other
    team's bot (whose ``detect``/``difficulty`` decides the risk): n, how often it was caught (a correct
    accusation; Wilson 95%), and the Renoncing team's mean net points (95%): a bluff pays when that mean
    is positive."""
    rows = []
    for r in deals.itertuples():
        if (r.renonces_A > 0) == (r.renonces_B > 0):
            continue
        t = "A" if r.renonces_A > 0 else "B"
        net = r.caller_net if r.team == t else -r.caller_net
        caught = bool(r.accusation_correct) and r.accused is not None and "AB"[_seat(r.accused) % 2] == t
        rows.append(
            {
                "bluffer": r.bots_A if t == "A" else r.bots_B,
                "detector": r.bots_B if t == "A" else r.bots_A,
                "caught": caught,
                "net": net,
            }
        )
    if not rows:
        return pd.DataFrame(columns=["n", "successes", "rate", "lo", "hi", "mean_net", "net_lo", "net_hi"])
    f = pd.DataFrame(rows)
    out = rate_table(f, ["bluffer", "detector"], "caught")
    m = mean_table(f, ["bluffer", "detector"], "net")
    out["mean_net"], out["net_lo"], out["net_hi"] = m["mean"], m["lo"], m["hi"]
    return out


def accusation_accuracy(deals: pd.DataFrame) -> pd.DataFrame:
    """Per accusing bot: accusations, correct ones, rate (Wilson 95%)."""
    acc = deals[deals["accuser"].notna()].copy()
    acc["accusation_correct"] = acc["accusation_correct"].astype(bool)
    return rate_table(acc, "accuser_bot", "accusation_correct")


# --- Shengji ------------------------------------------------------------------------------------------
