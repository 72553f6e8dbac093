"""Feskot statistics from a run's deal records: the first dealt's value, Prime and tricks."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from tekkasim.analysis.games import _POINTS, _bots, _require, _seat, mean_table, rate_table
from tekkasim.cards import SEATS


def feskot_deals(records: Iterable[dict], dd: bool = False) -> pd.DataFrame:
    """Per Feskot deal: the first-dealt seat, its bot and team, its first five cards' ``five_hcp``,
    ``five_longest``, ``prime`` and ``prime_in_five`` (Prime cards among the five), ``prime_is_longest``,
    ``first_won`` (its team won), ``first_tricks``, the options ``signals`` and ``deal``; with ``dd`` also
    ``dd_tricks_<suit>`` (the first-dealt side's double-dummy tricks with each Prime, it leading) and
    ``dd_best_prime`` (its choice was one of the best)."""
    from tekkasim.rules import get_game

    rows = []
    solver = None
    if dd:
        from tekkasim.solver import Solver

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
            from tekkasim.cards import parse_cards

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
    from tekkasim.bots import get_bot, play_deal
    from tekkasim.rules import get_game
    from tekkasim.tournament.play import deal_seed

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
