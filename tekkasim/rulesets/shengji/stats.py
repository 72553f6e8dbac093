"""Shengji statistics from a run's deal records: defenders' points, kitty bonus, level changes, declarations."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from tekkasim.analysis._records import wilson_interval
from tekkasim.analysis.games import _RANKS, _bots, _require, _seat, mean_table, rate_table
from tekkasim.cards import SEATS


def _level(rank: str) -> int:
    return _RANKS.index("T" if rank == "10" else rank)


def shengji_deals(records: Iterable[dict]) -> pd.DataFrame:
    """Per Shengji deal: defenders (team), their bot and the attackers', ``attacker_points``,
    ``kitty_bonus``, ``hold`` (the attackers stayed under 80: the defenders keep the deal), the level
    changes of defenders and attackers, declarations (non-pass calls), the last declaration's size and
    whether it was jokers, and who made it (``declarer_bot``)."""
    rows = []
    for rec in _require(records, "shengji"):
        res, bots = rec["result"], _bots(rec)
        d = res["defenders"]
        a = "B" if d == "A" else "A"
        before, after = rec.get("levels", {"A": "2", "B": "2"}), res["levels_after"]
        decl = rec.get("declarations", [])
        start = _seat(rec["declare_first"])
        made = [(SEATS[(start + i) % 4], c) for i, c in enumerate(decl) if c != "pass"]
        last = made[-1] if made else (None, None)
        rows.append(
            {
                "seed": rec.get("seed"),
                "defenders": d,
                "defender_bot": bots.get("bottom" if d == "A" else "right"),
                "attacker_bot": bots.get("bottom" if a == "A" else "right"),
                "attacker_points": res["attacker_points"],
                "kitty_bonus": res["kitty_bonus"],
                "hold": res["attacker_points"] < 80,
                "defender_level_change": _level(after[d]) - _level(before[d]),
                "attacker_level_change": _level(after[a]) - _level(before[a]),
                "declarations": len(made),
                "declaration_size": len(last[1].split()) if last[1] else 0,
                "jokers": bool(last[1]) and all(c in ("SJ", "BJ") for c in last[1].split()),
                "declarer_bot": bots.get(last[0]) if last[0] else None,
                "trump": rec.get("trump"),
            }
        )
    return pd.DataFrame(rows)


def shengji_summary(deals: pd.DataFrame, by: str = "defender_bot") -> pd.DataFrame:
    """Per ``by``: how often the defenders hold (Wilson 95%), mean attacker points (95%), mean level
    changes."""
    out = rate_table(deals, by, "hold")
    m = mean_table(deals, by, "attacker_points")
    out["attacker_points"], out["points_lo"], out["points_hi"] = m["mean"], m["lo"], m["hi"]
    g = deals.groupby(by, dropna=False)
    out["defender_level_change"] = g["defender_level_change"].mean()
    out["attacker_level_change"] = g["attacker_level_change"].mean()
    return out


def kitty_bonus_distribution(deals: pd.DataFrame) -> pd.DataFrame:
    """Each kitty bonus value: count and share of deals (Wilson 95%)."""
    n = len(deals)
    c = deals["kitty_bonus"].value_counts().sort_index()
    lo, hi = wilson_interval(c.to_numpy(), n)
    return pd.DataFrame({"count": c, "share": c / n, "lo": lo, "hi": hi})


def level_changes(deals: pd.DataFrame) -> pd.DataFrame:
    """Counts of (defender, attacker) level changes per deal."""
    return deals.groupby(["defender_level_change", "attacker_level_change"]).size().rename("deals").reset_index()


def declaration_stats(deals: pd.DataFrame) -> pd.DataFrame:
    """Per bot that made the last declaration (None: nobody declared): deals, mean declarations per deal,
    share of pair declarations and of joker declarations."""
    d = deals.assign(declarer_bot=deals["declarer_bot"].fillna("(none)"), pair=deals["declaration_size"] == 2)
    g = d.groupby("declarer_bot")
    return pd.DataFrame(
        {
            "deals": g.size(),
            "declarations": g["declarations"].mean(),
            "pair_share": g["pair"].mean(),
            "joker_share": g["jokers"].mean(),
        }
    )
