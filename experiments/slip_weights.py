"""The weights with which a heuristic bot prices its mistakes (``_policy_kernels.SLIP_W_*``, issue 25):
a least-squares fit of each card's double-dummy cost on what the bot sees of it (``_slip_features``),
over the card decisions of the ladder KADO .. TANA playing Feskot on tuning boards (never report seeds).

    python -m experiments.slip_weights --range 4000000:12 --range 4000100:40 [--temperature 0.1]

For each ``--range S:N`` each bot plays N deals from seed S on (all four seats, its own mistakes
included, the seeds of a tournament's table 0); at each card decision with two or more cards the
mistake-free bot's card is noted and every legal card priced by the solver
(``analysis.blunders.card_costs``). The fit is per kind of decision (a lead, following suit, not
following), on costs and features taken relative to the decision's mean (a softmax ignores a
decision's constant), ridge 1, then ``SLIP_PRIOR`` taken off the first weight (the rough value).
Prints the three weight tuples as
code, and the slip ratio they give on the same decisions (expected over the mistake draw at the given
temperature: a mistake's cost against a uniformly random other card's, as ``tekkasim blunders``
measures it; in-sample, so optimistic) beside the ratio of the weights in the package.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from tekkasim.analysis.blunders import card_costs
from tekkasim.bits import SLIP_UNIT
from tekkasim.bots import _policy_kernels as pk
from tekkasim.bots import decide, get_bot, mix_seed
from tekkasim.bots.base import View
from tekkasim.bots.view52 import policy_view, signals_accepted
from tekkasim.rules import get_game
from tekkasim.solver.dd import default_solver

BOTS = ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA")
KINDS = ("lead", "follow", "void")


def decisions(ranges: list[tuple[int, int]]) -> list[dict]:
    game, solver, out = get_game("feskot"), default_solver(), []
    for (seed, deals), name in ((r, b) for r in ranges for b in BOTS):
        bot = get_bot(name, ruleset="feskot")
        calm = get_bot(name, ruleset="feskot", mistake_rate=0.0)
        p = bot.compiled_form("feskot")
        for s in range(seed, seed + deals):
            state, k = game.new_deal(s), 0
            while not state.is_terminal():
                seat = state.current_player()
                view = View(state, seat)
                cards = [a for a in view.legal if a < pk.k.PRIME_BASE]
                if state.phase() == "play" and len(cards) == len(view.legal) and len(cards) >= 2:
                    v, m = policy_view(view.observation, view.game.options, signals_accepted(view.possible))
                    lm = pk.ZERO
                    for a in cards:
                        lm |= pk.bit(int(a) % pk.k.SIGNAL_MULT)
                    gone = pk._slip_known(p, v, m) | m[pk.M_HAND]
                    voids = pk.known_voids(p, v)
                    dd = card_costs(state, solver)
                    cs = sorted(dd)
                    out.append(
                        {
                            "bot": name,
                            "group": int(pk._slip_group(v, lm)),
                            "cards": cs,
                            "calm": int(decide(calm, state, seat, mix_seed(s, 0, k))) % pk.k.SIGNAL_MULT,
                            "x": np.array([pk._slip_features(v, m, lm, c, gone, voids) for c in cs]),
                            "y": np.array([dd[c] for c in cs], float),
                        }
                    )
                state.apply_action(decide(bot, state, seat, mix_seed(s, 0, k)))
                k += 1
    return out


def fit(rows: list[dict], ridge: float = 1.0) -> list[np.ndarray]:
    weights = []
    for g in range(3):
        x = np.vstack([r["x"] - r["x"].mean(0) for r in rows if r["group"] == g])
        y = np.concatenate([r["y"] - r["y"].mean() for r in rows if r["group"] == g])
        w = np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ y)
        w[0] -= pk.SLIP_PRIOR  # the rough value's prior (_policy_kernels.SLIP_PRIOR)
        weights.append(w)
    return weights


def slip_ratio(rows: list[dict], weights, temperature: float) -> dict[str, float]:
    """Expected cost of a mistake against a random other card's, per bot and over all (``_slip_card``'s
    draw: packed steps above the cheapest other card)."""
    num: dict[str, float] = {}
    den: dict[str, float] = {}
    for r in rows:
        est = r["x"] @ np.asarray(weights[r["group"]])
        others = [i for i, c in enumerate(r["cards"]) if c != r["calm"]]
        base = min(est[i] for i in others)
        steps = {i: pk.slip_step(est[i] - base) for i in others}
        lo = min(steps.values())
        if temperature <= 0:
            w = {min(i for i in others if steps[i] == lo): 1.0}
        else:
            w = {i: math.exp(-(q - lo) * SLIP_UNIT / temperature) for i, q in steps.items()}
        total = sum(w.values())
        cost = sum(w[i] / total * r["y"][i] for i in w)
        other = float(np.mean([r["y"][i] for i in others]))
        for key in (r["bot"], "all"):
            num[key] = num.get(key, 0.0) + cost
            den[key] = den.get(key, 0.0) + other
    return {key: round(num[key] / den[key], 3) for key in num}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--range", action="append", required=True, help="S:N, N deals from seed S (repeatable)")
    ap.add_argument("--temperature", type=float, default=0.1)
    a = ap.parse_args()
    ranges = [tuple(int(x) for x in r.split(":")) for r in a.range]
    if not all(4_000_000 <= s and s + n <= 5_000_000 for s, n in ranges):
        raise SystemExit("tuning boards are 4,000,000 .. 4,999,999")
    rows = decisions(ranges)
    weights = fit(rows)
    for name, w in zip(("SLIP_W_LEAD", "SLIP_W_FOLLOW", "SLIP_W_VOID"), weights, strict=True):
        print(f"{name} = (" + ", ".join(f"{x:.3f}" for x in w) + ")")
    print(f"{len(rows)} decisions; slip ratio at temperature {a.temperature} (in-sample):")
    print("  fitted:  ", slip_ratio(rows, weights, a.temperature))
    print("  package: ", slip_ratio(rows, (pk.SLIP_W_LEAD, pk.SLIP_W_FOLLOW, pk.SLIP_W_VOID), a.temperature))


if __name__ == "__main__":
    main()
