"""What a Shengji heuristic bot's mistakes cost, against what a uniformly random other action costs there
(issue 25's slip measure, which ``tekkasim blunders`` makes double dummy in the 52-card rulesets; Shengji
has no double-dummy solver, so here an action's value is a JANGARA-policy rollout of the true deal).

Each deal ``S + i`` is played by the bot in all four seats with the seeds of table 0 (decision k seeded
``mix_seed(S + i, 0, k)``, as the tournament runner and ``tekkasim blunders`` do). At every decision the
same bot with ``mistake_rate=0`` decides too, from the same state and seed; where the two differ (a slip)
and there are at most ``--cap`` legal actions, every legal action is applied to the true state and the deal
played out by JANGARA at all four seats (a function of the deal: JANGARA has no mistakes); an action's cost
is the best action's value less its own, in the deciding side's card points (``shengji.rollout_values``:
the attackers' points, kitty bonus included; a defender's value is minus theirs), but for a declaration
in levels (:func:`level_values`: the deciding side's level gain less the other side's), since a call
decides who attacks. ``all`` is the burial, leads and follows (points). What the slip loses
against the mistake-free action is set against what the legal actions other than the mistake-free one
lose on average (a uniformly random other action): ``ratio`` = sum of the first over sum of the second,
with a 95% interval with deals as clusters (delta method, ``analysis.blunders._ratio``), overall and per
kind of decision (declare, bury, lead, follow). 1: the slips are no better than random other actions;
below 1, nearer misses. (The JSON also holds the costs against the best action, as ``tekkasim blunders``
prices them double dummy; with rollouts the best of many actions is mostly the luckiest rollout, a cost
every action shares, so that ratio says little here.)

    python experiments/shengji_slips.py --bot KADO --bot KADO:mistake_uniform=true --seed 1000000 --deals 100

Tune on seeds >= 1,000,000; report on others. Figures in ``experiments/README.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from tekkasim.analysis.blunders import _ratio
from tekkasim.bits import new_rng
from tekkasim.bots import get_bot, mix_seed
from tekkasim.rules import get_game
from tekkasim.rulesets.shengji import _policy as sp
from tekkasim.rulesets.shengji.bots import _masks, compiled_decide, policy_vector, rollout_values, state_arrays

KINDS = ("declare", "bury", "lead", "follow")


def _kind(state) -> str:
    phase = state.phase()
    if phase != "play":
        return phase
    return "follow" if state.trick else "lead"


def level_values(state, actions: list, seat: int, params: np.ndarray, rng: np.ndarray) -> np.ndarray:
    """Each action's value in the deal's result: the levels the seat's side gains less the other side's,
    after the action and a rollout by ``params``. (A call decides who defends, and the points of
    ``rollout_values`` favour the attackers whoever they are: the defenders gain levels while the
    attackers stay below 80.)"""
    arrays = state_arrays(state)
    out = np.empty(len(actions))
    for i, action in enumerate(actions):
        st, hands, tplays = arrays["st"].copy(), arrays["hands"].copy(), arrays["tplays"].copy()
        tables = tuple(x.copy() for x in arrays["tables"])
        one, two = _masks(action)
        sp.apply(st, hands, tplays, *tables, np.uint64(one), np.uint64(two))
        sp.play_from(params, st, hands, tplays, *tables, rng)
        ga, gb = sp.gains(st)
        out[i] = (ga - gb) if seat % 2 == 0 else (gb - ga)
    return out


def slips(spec: str, seed: int, deals: int, cap: int) -> dict:
    """The bot's slips on ``deals`` deals from ``seed``: per kind, the slips' costs, the random other
    actions' mean costs and their deal indices; and the counts of decisions and unpriced slips."""
    game = get_game("shengji")
    bot = get_bot(spec, ruleset="shengji")
    vec = bot.compiled_form("shengji")
    calm = vec.copy()
    calm[1] = 0.0  # P_MISTAKE: the same bot without mistakes
    jangara = np.tile(policy_vector("JANGARA"), (4, 1))
    out = {k: {"cost": [], "other": [], "loss": [], "other_loss": [], "deal": []} for k in KINDS}
    decisions = {k: 0 for k in KINDS}
    unpriced = 0
    for i in range(deals):
        state = game.new_deal(seed + i)
        k = 0
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            s = mix_seed(seed + i, 0, k)
            action = compiled_decide(vec, obs, new_rng(s))
            meant = compiled_decide(calm, obs, new_rng(s))
            kind = _kind(state)
            decisions[kind] += 1
            if action != meant:
                legal = state.legal_actions()
                if len(legal) > cap:
                    unpriced += 1
                else:
                    if kind == "declare":
                        values = level_values(state, legal, seat, jangara, new_rng(s))
                    else:
                        values = 40.0 * rollout_values(state_arrays(state), legal, seat, jangara, new_rng(s))
                    cost = values.max() - values
                    j, jm = legal.index(action), legal.index(meant)
                    others = [c for a, c in zip(legal, cost, strict=True) if a != meant]
                    out[kind]["cost"].append(float(cost[j]))
                    out[kind]["other"].append(float(np.mean(others)))
                    out[kind]["loss"].append(float(cost[j] - cost[jm]))
                    out[kind]["other_loss"].append(float(np.mean(others) - cost[jm]))
                    out[kind]["deal"].append(i)
            state.apply_action(action)
            k += 1
    return {"bot": bot.label, "kinds": out, "decisions": decisions, "unpriced": unpriced}


def summary(res: dict, deals: int) -> dict:
    """The ratio overall and per kind, with the mean costs (card points) and the slip counts."""

    def one(parts: list[dict], num: str, den: str) -> dict:
        cost = np.array([c for p in parts for c in p[num]], float)
        other = np.array([c for p in parts for c in p[den]], float)
        deal = np.array([d for p in parts for d in p["deal"]], np.int64)
        ones = np.ones(len(cost))
        r, a, b = _ratio(cost, other, deal, deals), _ratio(cost, ones, deal, deals), _ratio(other, ones, deal, deals)
        return {
            "slips": len(cost),
            "ratio": r["value"],
            "lo": r["lo"],
            "hi": r["hi"],
            "mean": a["value"],
            "mean_lo": a["lo"],
            "mean_hi": a["hi"],
            "mean_other": b["value"],
            "mean_other_lo": b["lo"],
            "mean_other_hi": b["hi"],
        }

    kinds = res["kinds"]
    groups = {"all": [kinds[k] for k in KINDS if k != "declare"], **{k: [kinds[k]] for k in KINDS}}
    return {
        "bot": res["bot"],
        "deals": deals,
        "decisions": res["decisions"],
        "unpriced": res["unpriced"],
        "loss": {k: one(g, "loss", "other_loss") for k, g in groups.items()},  # against the meant action
        "cost": {k: one(g, "cost", "other") for k, g in groups.items()},  # against the best action
    }


def _interval(x: dict, key: str, fmt: str) -> str:
    if x[key] is None:
        return "-"
    if x[f"{key}_lo"] is None:
        return format(x[key], fmt)
    return f"{x[key]:{fmt}} [{x[f'{key}_lo']:{fmt}}, {x[f'{key}_hi']:{fmt}}]"


def _fmt(x: dict, unit: str) -> str:
    if not x["slips"]:
        return "no slips"
    ratio = "-" if x["ratio"] is None else _interval({**x, "ratio_lo": x["lo"], "ratio_hi": x["hi"]}, "ratio", ".2f")
    return (
        f"{x['slips']} slips lose {_interval(x, 'mean', '.2f')} {unit}, a random other action "
        f"{_interval(x, 'mean_other', '.2f')}; ratio {ratio}"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", action="append", required=True, help="a Shengji heuristic bot (repeatable)")
    parser.add_argument("--seed", type=int, required=True, help="first deal seed (tune on >= 1,000,000)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--cap", type=int, default=64, help="slips with more legal actions are not priced")
    parser.add_argument("--json", help="write the rows to this file")
    args = parser.parse_args(argv)
    rows = []
    for spec in args.bot:
        row = summary(slips(spec, args.seed, args.deals, args.cap), args.deals)
        rows.append(row)
        print(f"{row['bot']}: {args.deals} deals from seed {args.seed}; unpriced slips {row['unpriced']}")
        for k in ("all", *KINDS):
            unit = "levels" if k == "declare" else "points"
            print(f"  {k:8s} {_fmt(row['loss'][k], unit)}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
