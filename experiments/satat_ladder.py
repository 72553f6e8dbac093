"""Satat ladder strength on duplicate boards (issue 13, Satat).

    .venv/bin/python experiments/satat_ladder.py ladder  --boards 20000 --seed 1000000   # tuning seeds
    .venv/bin/python experiments/satat_ladder.py ladder  --boards 20000 --seed 5000000   # report seeds
    .venv/bin/python experiments/satat_ladder.py search  --boards 2000  --seed 7000000 --pairs TANOOR/JANGARA
    .venv/bin/python experiments/satat_ladder.py speed   --boards 6     --seed 7000000
    .venv/bin/python experiments/satat_ladder.py bluff   --boards 20000 --seed 5000000
    .venv/bin/python experiments/satat_ladder.py accuracy --boards 5000 --seed 5000000
    .venv/bin/python experiments/satat_ladder.py oracle  --boards 100   --seed 5000000

A board is a seed; a pair plays the first round of a match from it twice with the teams swapped (runs.md).
Compiled match-ups (RANDOM, GREEDY, KADO .. JANGARA, ATOUTE, ZORGE) run in ``satat.play_rounds``, which
plays the same actions as the tournament runner's State API path (tests/test_bots_satat.py); search bots
and ORACLE go through ``tournament.play.play_deal_state``. Margins are points per pair (X's points over
both tables minus Y's); intervals are mean +- 1.96 standard errors over pairs; the pair score counts a
positive margin 1, zero 1/2.

``bluff``: rounds of ATOUTE/ZORGE (Normal and Hard) against a Normal detector (PUCHOQ: Normal memory,
proofs only), Hard ones (SADA: Hard memory, proofs only; JANGARA: Hard memory and round pressure, which
weighs whether a proven accusation is worth more than the round as it stands); per bluff whether it was
caught (a correct accusation of the bluffer), and the bluffing team's points in rounds with a bluff against
the same board played without bluffing (the same bot with ``bluff=none``): what a bluff pays. Accusation
accuracy per bot: correct accusations over all accusations it made.

The figures measured with this script, their seeds and sizes are in ``experiments/README.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from tekkasim.bots import get_bot
from tekkasim.bots.loop import timing
from tekkasim.rules import get_game
from tekkasim.rulesets.satat.bots import play_rounds
from tekkasim.rulesets.satat.game import ACCUSE, decode_accusation
from tekkasim.tournament.play import play_deal_state

LADDER = ["RANDOM", "KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA"]
GAME = get_game("satat")


def bot(name):
    """A bot by name: the Satat implementation of a ladder name; RANDOM, ATOUTE and ZORGE as they are."""
    return get_bot(name) if name.split(":")[0] in ("RANDOM", "ATOUTE", "ZORGE") else get_bot(name, ruleset="satat")


def summary(margins: np.ndarray) -> dict:
    n = len(margins)
    mean = float(margins.mean())
    se = float(margins.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    scores = (margins > 0) + 0.5 * (margins == 0)
    score = float(scores.mean())
    # the pair score's interval: normal over the pairs' scores (a draw is 1/2, so not a binomial count)
    score_se = float(scores.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return {
        "pairs": n,
        "margin": round(mean, 4),
        "lo": round(mean - 1.96 * se, 4),
        "hi": round(mean + 1.96 * se, 4),
        "pair_score": round(score, 4),
        "score_lo": round(score - 1.96 * score_se, 4),
        "score_hi": round(score + 1.96 * score_se, 4),
        "wins_draws_losses": [int((margins > 0).sum()), int((margins == 0).sum()), int((margins < 0).sum())],
    }


def compiled_pairs(x, y, seeds):
    """Per board X's margin over both tables, and the per-table actions (for accusation counts)."""
    bx, by = bot(x), bot(y)
    r0 = play_rounds(bx, by, seeds, 0)
    r1 = play_rounds(bx, by, seeds, 1)
    m = (r0["returns"][:, 0] - r0["returns"][:, 1]) + (r1["returns"][:, 1] - r1["returns"][:, 0])
    return m, (r0, r1)


def python_pairs(x, y, seeds):
    bx, by = bot(x), bot(y)
    out, states = [], []
    for seed in seeds:
        m = 0.0
        for table in (0, 1):
            s = GAME.new_deal(seed)
            play_deal_state(s, [bx, by, bx, by] if table == 0 else [by, bx, by, bx], seed, table)
            a, b = s.returns()
            m += (a - b) if table == 0 else (b - a)
            states.append((table, s))
        out.append(m)
    return np.array(out), states


def ladder(args):
    seeds = list(range(args.seed, args.seed + args.boards))
    rows = []
    names = LADDER + ["GREEDY"]
    pairs = [(names[i + 1], names[i]) for i in range(len(LADDER) - 1)] + [("JANGARA", "GREEDY"), ("GREEDY", "RANDOM")]
    if args.calm:  # what a level's mistakes cost it: the same bot without them against it (never below zero)
        pairs += [(f"{x}:mistake_rate=0", x) for x in LADDER[1:-1]]
    for x, y in pairs:
        t = time.perf_counter()
        m, _ = compiled_pairs(x, y, seeds)
        rows.append({"x": x, "y": y, **summary(m), "s": round(time.perf_counter() - t, 1)})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def search(args):
    seeds = list(range(args.seed, args.seed + args.boards))
    rows = []
    for x, y in [(a, b) for a, b in (p.split("/") for p in args.pairs.split(","))]:
        t = time.perf_counter()
        m, _ = python_pairs(x, y, seeds)
        rows.append({"x": x, "y": y, **summary(m), "s": round(time.perf_counter() - t, 1)})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def speed(args):
    """CPU time per decision of each search bot (``--bots``) playing JANGARA on the boards: every decision
    the bot is asked to move in a round (cards, Troupe, accusations; a forced card too), by
    time.process_time."""
    seeds = list(range(args.seed, args.seed + args.boards))
    rows = []
    for name in args.bots.split(";"):
        b, j = bot(name), bot("JANGARA")
        with timing(b) as times:  # the runner's seats and seeds, one deal per table
            for seed in seeds:
                for table in (0, 1):
                    play_deal_state(GAME.new_deal(seed), [b, j, b, j] if table == 0 else [j, b, j, b], seed, table)
        decisions, spent = len(times), sum(times)
        row = {
            "bot": name,
            "boards": args.boards,
            "decisions": decisions,
            "ms_cpu": round(1000 * spent / decisions, 2),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def _replay(seed, actions):
    s = GAME.new_deal(seed)
    for a in actions:
        s.apply_action(int(a))
    return s


def bluff(args):
    """Bluffs of ATOUTE/ZORGE against Normal and Hard detectors, and accusation accuracy."""
    seeds = list(range(args.seed, args.seed + args.boards))
    rows = []
    for bl in ("ATOUTE", "ATOUTE:difficulty=hard", "ZORGE", "ZORGE:difficulty=hard"):
        honest = bl + (",bluff=none" if ":" in bl else ":bluff=none")
        for det in ("PUCHOQ", "SADA", "JANGARA"):
            bx, bh, by = bot(bl), bot(honest), bot(det)
            bluffs = caught = 0
            gains = []
            for table in (0, 1):
                rb = play_rounds(bx, by, seeds, table)
                rh = play_rounds(bh, by, seeds, table)
                x_side = table  # X is team A at table 0
                for i, seed in enumerate(seeds):
                    acts = rb["actions"][i, : rb["n_actions"][i]]
                    if np.array_equal(acts, rh["actions"][i, : rh["n_actions"][i]]):
                        continue  # no bluff on this board and table
                    s = _replay(seed, acts)
                    ren = s.result()["renonces"]
                    if not ren:
                        continue
                    bluffs += len(ren)
                    acc = s.accusation()
                    if acc is not None and acc["correct"]:
                        caught += 1
                    gains.append(
                        (rb["returns"][i, x_side] - rb["returns"][i, 1 - x_side])
                        - (rh["returns"][i, x_side] - rh["returns"][i, 1 - x_side])
                    )
            g = np.array(gains) if gains else np.zeros(1)
            row = {
                "bluffer": bl,
                "detector": det,
                "boards": args.boards,
                "rounds_with_bluff": len(gains),
                "bluffs": bluffs,
                "caught": caught,
                "caught_rate": round(caught / max(1, bluffs), 3),
                "pays_rate": round(float((g > 0).mean()), 3),
                "loses_rate": round(float((g < 0).mean()), 3),
                **{"gain_" + k: v for k, v in summary(g).items()},
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
    # accusation accuracy: every bot against a Hard bluffing pair and an honest one
    for name in ("POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA"):
        for opp in ("ATOUTE:difficulty=hard", "ZORGE:difficulty=hard", "SADA"):
            made = correct = 0
            for table in (0, 1):
                r = play_rounds(bot(name), bot(opp), seeds, table)
                x_seats = (0, 2) if table == 0 else (1, 3)
                for i, seed in enumerate(seeds):
                    last = int(r["actions"][i, r["n_actions"][i] - 1])
                    if last < ACCUSE:
                        continue
                    _, by, _ = decode_accusation(last)
                    if by not in x_seats:
                        continue
                    made += 1
                    correct += bool(_replay(seed, r["actions"][i, : r["n_actions"][i]]).accusation()["correct"])
            row = {
                "accuser": name,
                "against": opp,
                "boards": args.boards,
                "accusations": made,
                "correct": correct,
                "accuracy": round(correct / made, 3) if made else None,
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def accuracy(args):
    """Accusation accuracy per bot, split: *contests* (made while the other side has the round decided or is
    on a KOT run: a wrong one costs nothing or cuts their points) and the others."""
    seeds = list(range(args.seed, args.seed + args.boards))
    rows = []
    for name in ("POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA", "ATOUTE:difficulty=hard", "ZORGE:difficulty=hard"):
        for opp in ("ATOUTE:difficulty=hard", "ZORGE:difficulty=hard", "SADA"):
            made = {"contest": [0, 0], "other": [0, 0]}
            for table in (0, 1):
                r = play_rounds(bot(name), bot(opp), seeds, table)
                x_seats = (0, 2) if table == 0 else (1, 3)
                for i, seed in enumerate(seeds):
                    acts = r["actions"][i, : r["n_actions"][i]]
                    last = int(acts[-1])
                    if last < ACCUSE or decode_accusation(last)[1] not in x_seats:
                        continue
                    before = _replay(seed, acts[:-1])
                    pub = before.observation(decode_accusation(last)[1]).public
                    team = decode_accusation(last)[1] & 1
                    theirs = pub["kot"] == 1 - team or (
                        pub["decided"] is not None
                        and (
                            pub["kot"] == 1 - team
                            if pub["decided"] != "seven"
                            else pub["tricks"][-1]["winner"] & 1 == 1 - team
                        )
                    )
                    kind = "contest" if theirs else "other"
                    made[kind][0] += 1
                    before.apply_action(last)
                    made[kind][1] += bool(before.accusation()["correct"])
            row = {"accuser": name, "against": opp, "boards": args.boards}
            for kind, (m, c) in made.items():
                row[kind] = {"accusations": m, "correct": c, "accuracy": round(c / m, 3) if m else None}
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def oracle(args):
    """ZELZELA against ORACLE and GREEDY against ORACLE on the same boards: points margin per round."""
    seeds = list(range(args.seed, args.seed + args.boards))
    rows = []
    for x in ("ZELZELA", "GREEDY"):
        t = time.perf_counter()
        m, _ = python_pairs(x, "ORACLE", seeds)
        row = {
            "x": x,
            "y": "ORACLE",
            **summary(m / 2.0),
            "unit": "points per round",
            "s": round(time.perf_counter() - t),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["ladder", "search", "speed", "bluff", "accuracy", "oracle"])
    ap.add_argument("--boards", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=5_000_000)
    ap.add_argument("--pairs", default="TANOOR/JANGARA,TIZAB/TANOOR,ZELZELA/TIZAB")
    ap.add_argument("--bots", default="TANOOR;TIZAB;ZELZELA", help="search bots timed by 'speed', separated by ;")
    ap.add_argument("--calm", action="store_true", help="ladder: also each level without mistakes against it")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    run = {"ladder": ladder, "search": search, "speed": speed, "bluff": bluff, "accuracy": accuracy, "oracle": oracle}
    rows = run[args.what](args)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"what": args.what, "boards": args.boards, "seed": args.seed, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
