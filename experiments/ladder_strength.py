"""How strong are the search bots? Duplicate pairs of Feskot and Tekka deals, matches, and bidding checks.

A *pair* plays one board (one seed) twice with the same cards and the same first seat: team X at bottom/top
and Y at right/left at table 0, the other way round at table 1 (runs.md). Every deal is played by the one
play loop (``tekkasim.bots.loop.play_deal``) with the tournament runner's seats, deal seeds and decision
seeds, so a pair here is the runner's pair of the same board seed. X's margin is its total
``returns`` over the two tables minus Y's (tricks in Feskot, points in Tekka); its pair score is 1, 1/2 or
0 as the margin is positive, zero or negative. Per pairing the script reports the pairs played, the mean
margin with a 95% confidence interval (normal approximation), the mean pair score and the Elo difference
``400 log10(s / (1 - s))`` with the interval carried over from the pair score's.

Measured (``--what``, several allowed):

* ``steps``: Feskot TANOOR-RANDOM, TANOOR-JANGARA (the step from the top heuristic bot), TIZAB-TANOOR,
  ZELZELA-TIZAB, ZELZELA-GREEDY (and the same in Tekka with ``--ruleset tekka``).
* ``top``: the top of the ladder step by step, TANOOR-JANGARA, TIZAB-TANOOR, ZELZELA-TIZAB (``--ruleset``),
  with the CPU time per decision of the upper bot of each step.
* ``oracle``: Feskot ZELZELA-ORACLE and GREEDY-ORACLE duplicate margins in tricks per deal (a pair is two
  deals, so per deal = margin / 2) and the share of the GREEDY-to-ORACLE gap that ZELZELA closes,
  ``1 - zelzela_gap / greedy_gap``.
* ``match``: ZELZELA against GREEDY in Feskot matches (first to 7 games; games chained with the
  first-dealt rotation, game g of board s dealt from ``tournament.play.deal_seed(s, g)``), duplicate: the
  same deal seeds at both tables. Match win rate with a Wilson 95%
  interval.
* ``worlds``: time against strength: ZELZELA with worlds = 8, 16, 32, 64, 128, 256 against GREEDY (Feskot),
  with the mean time per decision of each setting.
* ``quality``: a low-noise proxy for tuning: at every decision of Feskot JANGARA self-play (``--pairs``
  deals) where the cards differ in double-dummy value, the card each of ``--bots`` would play, scored
  against the true deal's card values: tricks lost per decision (ORACLE: 0) and the share of decisions
  that give up reaching 7, with the paired difference to the first bot.
* ``bidding``: Tekka, every seat the bot: each deal's contract against what was makeable double dummy at
  the start of the play with the Prime chosen (the most tricks the declaring team can take): success
  rate, and the shares of contracts above (overbid) and below (underbid) the makeable target.

Seeds: report runs use boards ``seed, seed + 1, ...`` from ``--seed`` (default 0); tuning uses seeds from
1,000,000 on (``--tuning``), or the ``quality`` proxy on its own deals (below: 10000..), so nothing tuned
is reported on the boards it was tuned on. Sizes are small by
default (two shared cores); ``--full`` multiplies them by 5.

    python experiments/ladder_strength.py --what steps oracle --pairs 40 --out runs/ladder

The figures measured with this script, their seeds and sizes are in ``experiments/README.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from tekkasim.analysis import wilson_interval
from tekkasim.bots import decide, get_bot
from tekkasim.bots.loop import decision_seed, play_deal, timing
from tekkasim.rules import get_game
from tekkasim.solver.dd import Position, Solver
from tekkasim.tournament.play import deal_seed, seat_order

TUNING_SEED = 1_000_000
TOP_STEPS = (("TANOOR", "JANGARA"), ("TIZAB", "TANOOR"), ("ZELZELA", "TIZAB"))  # the ladder's top, step by step
Z95 = 1.959964


def seats(x, y, table: int) -> list:
    """The runner's seats (``tournament.play.seat_order``): X at bottom/top, Y at right/left at table 0;
    swapped at table 1."""
    return [(x, y)[team] for team, _ in seat_order(table)]


def pair_margin(game, seed: int, x, y) -> float:
    """X's total returns minus Y's over the two tables of board ``seed``."""
    margin = 0.0
    for table in (0, 1):
        returns = play_deal(game.new_deal(seed), seats(x, y, table), seed, table).returns()
        x_team = 0 if table == 0 else 1
        margin += returns[x_team] - returns[1 - x_team]
    return margin


def summary(margins: list[float]) -> dict:
    """Mean margin with a 95% interval, mean pair score and Elo with interval."""
    m = np.asarray(margins, float)
    n = len(m)
    mean = float(m.mean())
    half = Z95 * float(m.std(ddof=1)) / math.sqrt(n) if n > 1 else float("inf")
    scores = np.where(m > 0, 1.0, np.where(m < 0, 0.0, 0.5))
    s = float(scores.mean())
    s_half = Z95 * float(scores.std(ddof=1)) / math.sqrt(n) if n > 1 else 1.0

    def elo(p: float) -> float:
        p = min(max(p, 0.5 / n), 1 - 0.5 / n)  # a clean sweep is bounded by the sample size
        return 400 * math.log10(p / (1 - p))

    return {
        "pairs": n,
        "margin": mean,
        "margin_lo": mean - half,
        "margin_hi": mean + half,
        "score": s,
        "elo": elo(s),
        "elo_lo": elo(s - s_half),
        "elo_hi": elo(s + s_half),
    }


def duplicate(
    ruleset: str, x_spec: str, y_spec: str, pairs: int, seed: int, timed: bool = False, out: list | None = None
) -> dict:
    """One pairing's row; ``out``, when given, receives the per-pair margins in board order."""
    game = get_game(ruleset)
    x, y = get_bot(x_spec, ruleset=ruleset), get_bot(y_spec, ruleset=ruleset)
    t0 = time.perf_counter()
    with timing(x) as times:  # the CPU time of X's decisions to move (its label may also be Y's)
        margins = [pair_margin(game, seed + i, x, y) for i in range(pairs)]
    if out is not None:
        out.extend(margins)
    row = {"ruleset": ruleset, "x": x.label, "y": y.label, **summary(margins), "seconds": time.perf_counter() - t0}
    if timed:
        row["x_ms_per_decision"] = 1000 * float(np.mean(times))
        row["x_decisions"] = len(times)
    return row


def gap_closed(z_margins, g_margins, resamples: int = 4000, seed: int = 0) -> tuple[float, float, float]:
    """The share of GREEDY's gap to ORACLE that ZELZELA closes, ``1 - mean(z) / mean(g)`` over the same
    boards, with a 95% percentile interval from resampling the boards (both margins of a board together,
    so that the boards' shared luck stays paired)."""
    z, g = np.asarray(z_margins, float), np.asarray(g_margins, float)
    if len(z) != len(g) or not len(z):
        raise ValueError("gap_closed needs the two pairings' margins on the same boards")
    point = 1 - z.mean() / g.mean() if g.mean() else float("nan")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(z), size=(resamples, len(z)))
    gs = g[idx].mean(axis=1)
    ratios = 1 - z[idx].mean(axis=1) / np.where(gs == 0, np.nan, gs)
    lo, hi = np.nanpercentile(ratios, [2.5, 97.5])
    return float(point), float(lo), float(hi)


def play_match(game, seed: int, bots: list, table: int, to_win: int = 7) -> int:
    """A Feskot match, first team to ``to_win`` games; game g is dealt from ``deal_seed(seed, g)`` (the
    runner's deal seeds of a board's match). Returns the winning team (0 = A)."""
    games = [0, 0]
    context: dict = {}
    g = 0
    while max(games) < to_win:
        s = deal_seed(seed, g)
        state = play_deal(game.new_deal(s, **context), bots, s, table)
        games[state.winner_team()] += 1
        context = state.next_deal_context()
        g += 1
    return 0 if games[0] >= to_win else 1


def matches(x_spec: str, y_spec: str, boards: int, seed: int) -> dict:
    game = get_game("feskot")
    x, y = get_bot(x_spec, ruleset="feskot"), get_bot(y_spec, ruleset="feskot")
    won = 0
    t0 = time.perf_counter()
    for i in range(boards):
        for table in (0, 1):
            winner = play_match(game, seed + i, seats(x, y, table), table)
            won += winner == (0 if table == 0 else 1)
    n = 2 * boards
    lo, hi = wilson_interval(won, n)
    return {
        "ruleset": "feskot",
        "unit": "match (first to 7 games)",
        "x": x.label,
        "y": y.label,
        "boards": boards,
        "matches": n,
        "x_won": won,
        "rate": won / n,
        "lo": lo,
        "hi": hi,
        "seconds": time.perf_counter() - t0,
    }


def bidding(bot_spec: str, deals: int, seed: int) -> dict:
    """Tekka with the bot at every seat: contracts against the double-dummy makeable target."""
    game = get_game("tekka")
    bot = get_bot(bot_spec, ruleset="tekka")
    sv = Solver(tt_bits=18)
    made = over = under = exact = 0
    rows = []
    for i in range(deals):
        starts: list = []

        def keep_start(state, k, starts=starts):
            if not starts and state.phase() == "play":
                starts.append(state.clone())

        state = play_deal(game.new_deal(seed + i), [bot] * 4, seed + i, 0, keep_start)
        start = starts[0]
        contract = state.contract()
        declarer = contract["declarer"]
        pos = Position.from_state(start)
        best = max((x for x in range(14) if sv.can_reach(pos, x, side=declarer)), default=0)
        target = 13 if contract["target"] == "D13" else contract["target"]
        res = state.result()
        made += res["made"]
        over += target > best
        under += target < best and best >= 8
        exact += target == best or (best < 8 and target == 8)
        rows.append(
            {
                "seed": seed + i,
                "target": contract["target"],
                "mandatory": contract["mandatory"],
                "makeable": best,
                "made": res["made"],
            }
        )
    lo, hi = wilson_interval(made, deals)
    return {
        "ruleset": "tekka",
        "bot": bot.label,
        "deals": deals,
        "made": made,
        "rate": made / deals,
        "lo": lo,
        "hi": hi,
        "overbid": over / deals,
        "underbid": under / deals,
        "at_makeable": exact / deals,
        "mean_target": float(np.mean([13 if r["target"] == "D13" else r["target"] for r in rows])),
        "mean_makeable": float(np.mean([r["makeable"] for r in rows])),
    }


def quality_positions(deals: int, seed: int) -> list:
    """Decisions of Feskot JANGARA self-play (deals ``seed, seed + 1, ...``) at which the seat to move has
    cards of different double-dummy value: (deal seed, decision number, state, the true card values)."""
    game = get_game("feskot")
    jangara = get_bot("JANGARA", ruleset="feskot")
    sv = Solver(tt_bits=18)
    out = []
    for d in range(deals):

        def keep(state, k, d=d):
            if state.phase() == "play" and len({a % 52 for a in state.legal_actions()}) > 1:
                values = sv.card_values(Position.from_state(state))
                if max(values.values()) != min(values.values()):
                    out.append((seed + d, k, state.clone(), values))

        play_deal(game.new_deal(seed + d), [jangara] * 4, seed + d, 0, keep)
    return out


def quality(spec: str, positions: list, base: np.ndarray | None = None) -> tuple[dict, np.ndarray]:
    """The bot's card at each position against the true deal's double-dummy card values: mean tricks
    lost per decision (0 for ORACLE) and the share of decisions that lose reaching 7, with 95% intervals;
    ``base``: another bot's losses on the same positions, for the paired difference."""
    bot = get_bot(spec, ruleset="feskot")
    losses, lost7, spent = [], [], 0.0
    for seed, n, state, values in positions:
        seat = state.current_player()
        t0 = time.process_time()
        card = decide(bot, state, seat, decision_seed(seed, 0, n)) % 52  # the runner's seed of that decision
        spent += time.process_time() - t0
        best = max(values.values())
        losses.append(best - values[card])
        lost7.append(float(best >= 7) - float(values[card] >= 7))
    m, m7 = np.asarray(losses, float), np.asarray(lost7, float)
    n = len(m)

    def ci(x):
        return Z95 * float(x.std(ddof=1)) / math.sqrt(n)

    row = {
        "unit": "decision (DD loss against the true deal)",
        "bot": bot.label,
        "decisions": n,
        "loss": float(m.mean()),
        "loss_ci": ci(m),
        "lost7": float(m7.mean()),
        "lost7_ci": ci(m7),
        "ms_per_decision": 1000 * spent / n,
    }
    if base is not None:
        row["vs_first"] = float((m - base).mean())
        row["vs_first_ci"] = ci(m - base)
    return row, m


def show(row: dict) -> None:
    if "loss" in row:
        extra = f"  vs first {row['vs_first']:+.4f} ±{row['vs_first_ci']:.4f}" if "vs_first" in row else ""
        print(
            f"feskot {row['bot']:>48}: {row['decisions']} decisions, DD tricks lost {row['loss']:.4f} "
            f"±{row['loss_ci']:.4f}, reach-7 lost {row['lost7']:.4f} ±{row['lost7_ci']:.4f}{extra}  "
            f"{row['ms_per_decision']:.1f} ms/decision",
            flush=True,
        )
    elif "margin" in row:
        extra = f"  {row['x_ms_per_decision']:.1f} ms/decision" if "x_ms_per_decision" in row else ""
        print(
            f"{row['ruleset']:6} {row['x']:>28} vs {row['y']:<10} pairs {row['pairs']:4}  "
            f"margin {row['margin']:+6.2f} "
            f"[{row['margin_lo']:+.2f}, {row['margin_hi']:+.2f}]  score {row['score']:.3f}  "
            f"Elo {row['elo']:+5.0f} [{row['elo_lo']:+.0f}, {row['elo_hi']:+.0f}]{extra}  ({row['seconds']:.0f} s)",
            flush=True,
        )
    elif "matches" in row:
        print(
            f"feskot {row['x']} vs {row['y']}: {row['x_won']}/{row['matches']} matches won = {row['rate']:.3f} "
            f"[{row['lo']:.3f}, {row['hi']:.3f}] ({row['seconds']:.0f} s)",
            flush=True,
        )
    else:
        print(
            f"tekka  {row['bot']}: {row['deals']} deals, made {row['rate']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}], "
            f"over {row['overbid']:.3f}, under {row['underbid']:.3f}, at makeable {row['at_makeable']:.3f}, "
            f"mean target {row['mean_target']:.2f} vs makeable {row['mean_makeable']:.2f}",
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--what",
        nargs="+",
        default=["steps", "oracle"],
        choices=["steps", "top", "oracle", "match", "worlds", "bidding", "quality"],
    )
    parser.add_argument(
        "--bots", nargs="+", default=["GREEDY", "JANGARA", "ZELZELA"], help="for 'quality': the bots (first = base)"
    )
    parser.add_argument("--ruleset", default="feskot", choices=["feskot", "tekka"], help="for 'steps'")
    parser.add_argument("--pairs", type=int, default=30, help="pairs per pairing (boards for 'match')")
    parser.add_argument("--seed", type=int, default=0, help="first board (report seeds start at 0)")
    parser.add_argument("--tuning", action="store_true", help=f"use tuning seeds (from {TUNING_SEED:,})")
    parser.add_argument("--full", action="store_true", help="five times the pairs")
    parser.add_argument("--out", type=Path, help="append every row as a JSON line to OUT/ladder.jsonl")
    args = parser.parse_args()
    pairs = args.pairs * (5 if args.full else 1)
    seed = args.seed + (TUNING_SEED if args.tuning else 0)
    rows = []

    def emit(row):
        show(row)
        rows.append(row)
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            with open(args.out / "ladder.jsonl", "a") as f:
                f.write(json.dumps(row) + "\n")

    if "steps" in args.what:
        for x, y in (
            ("TANOOR", "RANDOM"),
            ("TANOOR", "JANGARA"),
            ("TIZAB", "TANOOR"),
            ("ZELZELA", "TIZAB"),
            ("ZELZELA", "GREEDY"),
        ):
            emit(duplicate(args.ruleset, x, y, pairs, seed))
    if "top" in args.what:
        for x, y in TOP_STEPS:
            emit(duplicate(args.ruleset, x, y, pairs, seed, timed=True))
    if "oracle" in args.what:
        zm: list = []
        gm: list = []
        z = duplicate("feskot", "ZELZELA", "ORACLE", pairs, seed, out=zm)
        g = duplicate("feskot", "GREEDY", "ORACLE", pairs, seed, out=gm)
        emit(z)
        emit(g)
        closed, lo, hi = gap_closed(zm, gm)
        print(
            f"feskot tricks per deal vs ORACLE: ZELZELA {z['margin'] / 2:+.2f}, GREEDY {g['margin'] / 2:+.2f}; "
            f"share of the GREEDY-ORACLE gap closed by ZELZELA {closed:.2f} [{lo:.2f}, {hi:.2f}] ({pairs} pairs)",
            flush=True,
        )
        rows.append({"gap_closed": closed, "lo": lo, "hi": hi, "pairs": pairs})
    if "match" in args.what:
        emit(matches("ZELZELA", "GREEDY", max(1, pairs // 3), seed))
    if "worlds" in args.what:
        for w in (8, 16, 32, 64, 128, 256):
            emit(duplicate("feskot", f"ZELZELA:worlds={w}", "GREEDY", pairs, seed, timed=True))
    if "quality" in args.what:
        positions = quality_positions(max(1, pairs), seed)
        base = None
        for spec in args.bots:
            row, losses = quality(spec, positions, base)
            base = losses if base is None else base
            emit(row)
    if "bidding" in args.what:
        for bot in (
            "ZELZELA",
            "TIZAB",
            "TANOOR",
            "GREEDY",
            "ORACLE",
            "JANGARA",
            "TANA",
            "SADA",
            "PUCHOQ",
            "POCHAQ",
            "KADO",
        ):
            emit(bidding(bot, pairs, seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
