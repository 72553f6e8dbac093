"""Tekka contracts of call variants of a search bot in self-play (the bot at every seat), on tuning deals.

The measure of ``search_strength.py --contracts`` (made, underbid, overbid, mandatory, score per deal of the
declaring team), for several variants of a bot that differ in their calls only, on the same deals. A
variant's card play depends on the auction (the calls and the Prime are public evidence), so each deal's
auction is played first (the one play loop's decisions and seeds) and the rest of the deal only for an
auction not met before: a deal played out is kept in ``--cache`` under the bot's card-play parameters,
the seed, the calls and the Prime, and any later variant with the same auction reads it. Per deal it also
keeps the double-dummy best of each seat as declarer (best Prime, all hands open), so a table can say
whether the side that held the cards declared, and made and contracts counted by the makeable target
less the contract (how much of the result is the card play). With ``--declare BOT`` / ``--defend BOT``
the card play after each variant's auction is BOT's at the declaring / defending seats (ORACLE: every
card open), so one side's play can be set against double dummy. Each variant after the first is also set
against the first where their calls differ: the points of the team whose call changed first. Tuning seeds
only (2,000,000..2,999,999, or 10,000,000 on).

    python experiments/tekka_contract_screen.py --seed 2400000 --deals 60 --cache runs/contract-cache \\
        ZELZELA ZELZELA:call_z=0
    python experiments/tekka_contract_screen.py --seed 2400000 --deals 60 --cache runs/contract-cache \\
        --defend ORACLE ZELZELA
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from tekkasim.bots import get_bot
from tekkasim.bots.base import decide
from tekkasim.bots.loop import decision_seed, step
from tekkasim.errors import TekkasimError
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.solver.dd import Position, Solver

# parameters read by the auction (calls and Prime) only: variants differing in them share their card play
CALL_ONLY = ("call_z", "call_fit", "call_stand", "call_defend")

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from experiments.search_strength import contract_row  # noqa: E402


def seat_best(state, sv: Solver) -> list[int]:
    """Per seat as declarer leading trick 1: its team's double-dummy tricks with the best Prime."""
    hands = [int(h) for h in state.arrays.hand]
    out = []
    for seat in range(4):
        best = 0
        for trump in range(4):
            pos = Position(hands, trump, seat)
            x = best
            while x < 13 and sv.can_reach(pos, x + 1, side=seat & 1):
                x += 1
            best = x
        out.append(best)
    return out


def play_signature(bot) -> str:
    return ",".join(f"{n}={v}" for n, v in sorted(bot.params.items()) if n not in CALL_ONLY)


def deal_row(bot, seed: int, cache: dict, sv: Solver, dd_cache: dict, declare=None, defend=None) -> dict:
    """One self-play deal of ``bot``: its contract, the makeable target with its Prime, made, score; the card
    play by ``declare`` / ``defend`` at the declaring / defending seats where given."""
    game = get_game("tekka")
    state = game.new_deal(seed)
    if seed not in dd_cache:
        dd_cache[seed] = seat_best(state, sv)
    bots = [bot] * 4

    def choose(seat: int, i: int, optional: bool):
        return decide(bots[seat], state, seat, decision_seed(seed, 0, i, seat if optional else None))

    i = 0
    while state.phase() != "play":
        step(state, choose, i)
        i += 1
    contract = state.contract()
    declarer = contract["declarer"]
    sides = [declare or bot, defend or bot]
    bots = [sides[(seat & 1) != (declarer & 1)] for seat in range(4)]
    plays = "/".join(f"{b.name}:{play_signature(b)}" for b in sides)
    key = f"{plays}|{seed}|{state.calls()}|{int(state.arrays.info[k.I_PRIME])}"
    if key in cache:
        return cache[key]
    pos = Position.from_state(state)
    makeable = max((x for x in range(14) if sv.can_reach(pos, x, side=declarer)), default=0)
    while not state.is_terminal():
        step(state, choose, i)
        i += 1
    returns = state.returns()
    team = declarer & 1
    row = {
        "seed": seed,
        "calls": [str(c) for c in state.calls()],
        "declarer": declarer,
        "target": 13 if contract["target"] == "D13" else int(contract["target"]),
        "makeable": makeable,
        "made": bool(state.result()["made"]),
        "mandatory": bool(contract["mandatory"]),
        "score": float(returns[team] - returns[1 - team]),
    }
    cache[key] = row
    return row


def by_margin(rows: list[dict]) -> str:
    """Made / contracts per makeable target less the contract (-2 and +3 gather the tails)."""
    counts: dict[int, list[int]] = {}
    for x in rows:
        m = counts.setdefault(max(-2, min(3, x["makeable"] - x["target"])), [0, 0])
        m[0] += x["made"]
        m[1] += 1
    return " ".join(f"{d:+d}: {m[0]}/{m[1]}" for d, m in sorted(counts.items()))


def summary(name: str, rows: list[dict], dd: dict) -> str:
    r = contract_row(name, rows)
    # the side that held the cards: its best declarer's double-dummy tricks above the other side's
    strong = [max(dd[x["seed"]][x["declarer"] & 1], dd[x["seed"]][(x["declarer"] & 1) + 2]) for x in rows]
    weak = [max(dd[x["seed"]][1 - (x["declarer"] & 1)], dd[x["seed"]][3 - (x["declarer"] & 1)]) for x in rows]
    held = float(np.mean([s >= w for s, w in zip(strong, weak, strict=True)]))
    return (
        f"{name}: deals {r['deals']} made {100 * r['made']:.1f}% [{100 * r['made_lo']:.1f}, {100 * r['made_hi']:.1f}] "
        f"underbid {100 * r['underbid']:.1f}% overbid {100 * r['overbid']:.1f}% mandatory {100 * r['mandatory']:.1f}% "
        f"made when called {100 * r['called_made']:.1f}% target {r['target']:.2f} makeable {r['makeable']:.2f} "
        f"score {r['score']:+.2f} stronger side declares {100 * held:.1f}%; made by makeable - target: "
        f"{by_margin(rows)}"
    )


def changed_calls(base: list[dict], rows: list[dict]) -> str:
    """Where a variant's calls differ from the first variant's: the points of the team of the first seat whose
    call differs, the variant's deal less the first's (its own score as declarer, or the declarer's negated)."""
    game = get_game("tekka")
    total, better, worse, n = 0.0, 0, 0, 0
    for b, r in zip(base, rows, strict=True):
        if b["calls"] == r["calls"]:
            continue
        first = int(game.new_deal(b["seed"]).arrays.info[k.I_FIRST])
        i = next(j for j in range(len(r["calls"])) if j >= len(b["calls"]) or r["calls"][j] != b["calls"][j])
        team = (first + i) & 1

        def points(x: dict, team: int = team) -> float:
            return x["score"] if x["declarer"] & 1 == team else -x["score"]

        d = points(r) - points(b)
        n, total, better, worse = n + 1, total + d, better + (d > 0), worse + (d < 0)
    return f"calls differ in {n} deals; the changing team's points {total:+.0f} (better {better}, worse {worse})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bots", nargs="+", help="bot variants, e.g. ZELZELA ZELZELA:call_z=0")
    ap.add_argument("--seed", type=int, default=2_400_000, help="first deal (tuning seeds 2,000,000..2,999,999)")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--cache", type=Path, help="directory keeping the deals played out and the double-dummy table")
    ap.add_argument("--declare", help="the bot playing the cards at the declaring seats (default: the variant)")
    ap.add_argument("--defend", help="the bot playing the cards at the defending seats (default: the variant)")
    ap.add_argument("--rows", action="store_true", help="print every deal's row")
    args = ap.parse_args(argv)
    if args.deals < 1:
        print("error: --deals must be at least 1")
        return 2
    if not (2_000_000 <= args.seed and args.seed + args.deals <= 3_000_000 or args.seed >= 10_000_000):
        print("error: tuning deals only (2,000,000..2,999,999 or 10,000,000..)")
        return 2
    cache: dict = {}
    dd: dict = {}
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
        for name, target in (("deals.json", cache), ("dd.json", dd)):
            path = args.cache / name
            if path.exists():
                target.update(json.loads(path.read_text()))
        dd = {int(s): v for s, v in dd.items()}
    try:
        declare, defend = (get_bot(b, ruleset="tekka") if b else None for b in (args.declare, args.defend))
        variants = [(name, get_bot(name, ruleset="tekka")) for name in args.bots]
    except TekkasimError as e:
        print(f"error: {e}")
        return 2
    sv = Solver(tt_bits=20)
    first_rows: list[dict] = []
    for name, bot in variants:
        rows = []
        for seed in range(args.seed, args.seed + args.deals):
            rows.append(deal_row(bot, seed, cache, sv, dd, declare, defend))
            if args.rows:
                print(name, json.dumps(rows[-1]), dd[seed], flush=True)
            if args.cache:
                (args.cache / "deals.json").write_text(json.dumps(cache))
                (args.cache / "dd.json").write_text(json.dumps(dd))
        print(summary(name, rows, dd) + (f"; {changed_calls(first_rows, rows)}" if first_rows else ""), flush=True)
        first_rows = first_rows or rows
    return 0


if __name__ == "__main__":
    sys.exit(main())
