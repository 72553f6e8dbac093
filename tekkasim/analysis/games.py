"""Feskot, Satat and Shengji statistics from a run's deal records (issue 14, items 2-4).

Each ``*_deals(records)`` turns deal records (records.md; e.g. ``tournament.iter_records(DIR)`` or
``records.read_records(FILE)``) into one row per deal; the other functions tabulate those rows with
their sample sizes and 95% intervals (Wilson for rates, normal for means). Bots come from the records'
``players`` (or ``bots``) field.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..cards import SEATS
from ._records import wilson_interval
from .duplicate import AnalysisError

Z95 = 1.959963984540054
_RANKS = "23456789TJQKA"
_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}


def _seat(name: str) -> int:
    return SEATS.index(name)


def _bots(rec: dict) -> dict:
    return rec.get("players") or rec.get("bots") or {}


def rate_table(frame: pd.DataFrame, by, success: str) -> pd.DataFrame:
    """Per group of ``by``: n, successes, rate and its Wilson 95% interval."""
    g = frame.groupby(by, dropna=False)[success]
    out = pd.DataFrame({"n": g.size(), "successes": g.sum().astype(int)})
    out["rate"] = out["successes"] / out["n"]
    lo, hi = wilson_interval(out["successes"].to_numpy(), out["n"].to_numpy())
    out["lo"], out["hi"] = lo, hi
    return out


def mean_table(frame: pd.DataFrame, by, value: str) -> pd.DataFrame:
    """Per group of ``by``: n, mean of ``value`` and its 95% interval (normal approximation)."""
    g = frame.groupby(by, dropna=False)[value]
    out = pd.DataFrame({"n": g.size(), "mean": g.mean(), "sd": g.std(ddof=1)})
    half = Z95 * out["sd"] / np.sqrt(out["n"])
    out["lo"], out["hi"] = out["mean"] - half, out["mean"] + half
    return out.drop(columns="sd")


def _require(records: Iterable[dict], ruleset: str) -> list[dict]:
    recs = list(records)
    bad = [r.get("ruleset") for r in recs if r.get("ruleset") != ruleset]
    if bad:
        raise AnalysisError(f"these are {ruleset} statistics, but a record is {bad[0]!r}")
    return [r for r in recs if not r.get("unfinished") and r.get("result")]


# --- Feskot -------------------------------------------------------------------------------------------
def feskot_deals(records: Iterable[dict], dd: bool = False) -> pd.DataFrame:
    """Per Feskot deal: the first-dealt seat, its bot and team, its first five cards' ``five_hcp``,
    ``five_longest``, ``prime`` and ``prime_in_five`` (Prime cards among the five), ``prime_is_longest``,
    ``first_won`` (its team won), ``first_tricks``, the options ``signals`` and ``deal``; with ``dd`` also
    ``dd_tricks_<suit>`` (the first-dealt side's double-dummy tricks with each Prime, it leading) and
    ``dd_best_prime`` (its choice was one of the best)."""
    from ..rules import get_game

    rows = []
    solver = None
    if dd:
        from ..solver import Solver

        solver = Solver()
    for rec in _require(records, "feskot"):
        opts = get_game("feskot", **rec.get("options", {})).options
        first = rec["first"]
        five = rec["hands"][first][:5]
        suits = [c[-1] for c in five]
        counts = {s: suits.count(s) for s in "CDHS"}
        prime = rec["trump"]
        team = "AB"[_seat(first) % 2]
        row = {
            "seed": rec.get("seed"),
            "first": first,
            "first_bot": _bots(rec).get(first),
            "team": team,
            "five_hcp": sum(_POINTS.get(c[0], 0) for c in five),
            "five_longest": max(counts.values()),
            "prime": prime,
            "prime_in_five": counts[prime],
            "prime_is_longest": counts[prime] == max(counts.values()),
            "first_won": rec["result"]["winner"] == team,
            "first_tricks": rec["result"]["tricks"][team],
            "signals": opts["signals"],
            "deal": opts["deal"],
        }
        if dd:
            from ..cards import parse_cards

            hands = [sum(1 << c for c in parse_cards(rec["hands"][s])) for s in SEATS]
            tricks = {
                s: solver.solve(hands, i, _seat(first), ruleset="feskot", side=first) for i, s in enumerate("CDHS")
            }
            row.update({f"dd_tricks_{s}": t for s, t in tricks.items()})
            row["dd_best_prime"] = tricks[prime] == max(tricks.values())
        rows.append(row)
    return pd.DataFrame(rows)


def feskot_sequence(bots, games: int, seed: int, options: dict | None = None) -> list[dict]:
    """Records of ``games`` consecutive Feskot games at one table (bottom/top = ``bots[0]``, right/left =
    ``bots[1]``), each dealt from the context the previous one leaves (``next_deal_context``: the
    first-dealt rotation and, with ``deal="cut"``, the previous game's cards cut instead of shuffled), as
    a table of players would; game ``j`` uses seed ``tournament.deal_seed(seed, j)``. A tournament's
    single-deal boards always shuffle, so this is how ``deal="cut"`` can be compared with a shuffle."""
    from ..bots import get_bot, play_deal
    from ..rules import get_game
    from ..tournament.play import deal_seed

    game = get_game("feskot", **(options or {}))
    a, b = (get_bot(x, ruleset="feskot") for x in bots)
    seats = [a, b, a, b]
    records, context = [], {}
    for j in range(games):
        s = deal_seed(seed, j)
        state = play_deal(game.new_deal(s, **context), seats, s, 0)
        rec = state.to_record()
        rec["seed"], rec["players"] = s, {n: x.label for n, x in zip(SEATS, seats, strict=True)}
        records.append(rec)
        context = state.next_deal_context()
    return records


def first_dealt_value(deals: pd.DataFrame, by=None) -> pd.DataFrame:
    """The first-dealt side's win rate (Wilson 95%) and mean tricks, overall or per ``by`` (e.g.
    ``"signals"``, ``"deal"``, ``"first_bot"``, ``"five_hcp"``, ``"prime_in_five"``)."""
    d = deals.assign(all="all")
    key = by or "all"
    out = rate_table(d, key, "first_won")
    m = mean_table(d, key, "first_tricks")
    out["mean_tricks"], out["tricks_lo"], out["tricks_hi"] = m["mean"], m["lo"], m["hi"]
    return out


# --- Satat --------------------------------------------------------------------------------------------
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
