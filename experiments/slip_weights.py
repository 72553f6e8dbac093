"""The weights with which a heuristic bot prices its mistakes (``_policy_kernels.SLIP_W_*``, issue 25):
a fit of each card's double-dummy cost on what the bot sees of it (``_slip_features``), over the card
decisions of the ladder KADO .. TANA playing Feskot on tuning boards (never report seeds).

    python -m experiments.slip_weights --range 4100000:40 --range 4200000:40 [--temperature 0.1]
        [--cache FILE] [--variants]

For each ``--range S:N`` each bot plays N deals from seed S on (all four seats, its own mistakes
included, the seeds of a tournament's table 0); at each card decision with two or more cards the
mistake-free bot's card is noted and every legal card priced by the solver
(``analysis.blunders.card_costs``); ``--cache`` keeps these decisions (the policy view, legal cards,
costs) so that a change of the features can be refitted without the solver. The fit is per kind of
decision (a lead, following suit, not following): a ridge least-squares fit (ridge 1) on costs and
features taken relative to the decision's mean (a softmax ignores a decision's constant), then refined
(:func:`fit`) to the weights whose softmax draw over the cards other than the mistake-free one costs
least on these decisions, held near the least-squares weights. Prints the three weight tuples as code,
and the slip ratio they give on the same decisions (expected over the mistake draw at the given
temperature: a mistake's cost against a uniformly random other card's, as ``tekkasim blunders``
measures it; in-sample, so optimistic) beside the ratio of the weights in the package. ``--variants``
instead prints, with the package's weights, the other mistake draws tried for issue 25's ratio of 0.5
and the bounds that no draw passes (:func:`variants`; figures in experiments/README.md).
"""

from __future__ import annotations

import argparse
import math
import os
import pickle

import numpy as np
from scipy.optimize import minimize

from tekkasim.analysis.blunders import card_costs
from tekkasim.bits import SLIP_UNIT
from tekkasim.bots import decide, get_bot, mix_seed
from tekkasim.bots.base import View
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import _policy as pk
from tekkasim.rulesets.trick52.view import policy_view, signals_accepted
from tekkasim.solver.dd import default_solver

BOTS = ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA")
KINDS = ("lead", "follow", "void")


def decisions(ranges: list[tuple[int, int]], ruleset: str = "feskot") -> list[dict]:
    """The card decisions of the ladder on the deals of ``ranges``: per decision the bot's policy view
    (``v``, ``m``), legal mask ``lm``, parameters ``p``, the mistake-free card ``calm``, the legal cards
    and their double-dummy costs ``y`` (features are computed from these by :func:`features`)."""
    game, solver, out = get_game(ruleset), default_solver(), []
    for (seed, deals), name in ((r, b) for r in ranges for b in BOTS):
        bot = get_bot(name, ruleset=ruleset)
        calm = get_bot(name, ruleset=ruleset, mistake_rate=0.0)
        p = bot.compiled_form(ruleset)
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
                    dd = card_costs(state, solver)
                    cs = sorted(dd)
                    out.append(
                        {
                            "bot": name,
                            "seed": s,
                            "group": int(pk._slip_group(v, lm)),
                            "cards": cs,
                            "calm": int(decide(calm, state, seat, mix_seed(s, 0, k))) % pk.k.SIGNAL_MULT,
                            "v": v.copy(),
                            "m": m.copy(),
                            "lm": int(lm),
                            "p": p.copy(),
                            "y": np.array([dd[c] for c in cs], float),
                        }
                    )
                state.apply_action(decide(bot, state, seat, mix_seed(s, 0, k)))
                k += 1
    return out


def add_features(rows: list[dict]) -> None:
    """Each row's ``x``: ``_slip_features`` of every legal card, as the bot sees it at that decision."""
    for r in rows:
        v, m, p = r["v"], r["m"], r["p"]
        lm = np.uint64(r["lm"])
        gone = pk._slip_known(p, v, m) | m[pk.M_HAND]
        voids = pk.known_voids(p, v)
        calm = np.int64(r["calm"])
        r["x"] = np.array([pk._slip_features(v, m, lm, np.int64(c), gone, voids, calm) for c in r["cards"]])


def fit(rows: list[dict], ridge: float = 1.0, tau: float = 0.1, pull: float = 3.0) -> list[np.ndarray]:
    """Per kind of decision: a ridge least-squares fit of the cards' costs (both relative to the decision's
    mean), then refined to what a mistake draws: the weights that minimise the expected cost of a softmax
    draw (temperature ``tau``) over the cards other than the mistake-free one, summed over decisions, plus
    ``pull`` times the squared distance from the least-squares weights (which keeps the estimate a cost
    in tricks, and the refinement from chasing a few decisions)."""
    weights = []
    for g in range(3):
        sub = [r for r in rows if r["group"] == g]
        x = np.vstack([r["x"] - r["x"].mean(0) for r in sub])
        y = np.concatenate([r["y"] - r["y"].mean() for r in sub])
        w0 = np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ y)
        weights.append(_refine(sub, w0, tau, pull))
    return weights


def _refine(rows: list[dict], w0: np.ndarray, tau: float, pull: float) -> np.ndarray:
    f = rows[0]["x"].shape[1]
    x = np.zeros((len(rows), 13, f))
    y = np.zeros((len(rows), 13))
    other = np.zeros((len(rows), 13), bool)
    for d, r in enumerate(rows):
        for i, c in enumerate(r["cards"]):
            if c != r["calm"]:
                x[d, i], y[d, i], other[d, i] = r["x"][i], r["y"][i], True

    def loss(w):
        s = np.where(other, -(x @ w) / tau, -1e9)
        e = np.exp(s - s.max(1, keepdims=True)) * other
        prob = e / e.sum(1, keepdims=True)
        cost = (prob * y).sum(1)
        g = prob * (y - cost[:, None])  # d cost / d score of each card
        grad = -(g[:, :, None] * x).sum((0, 1)) / tau + 2 * pull * (w - w0)
        return cost.sum() + pull * ((w - w0) ** 2).sum(), grad

    return minimize(loss, w0, jac=True, method="L-BFGS-B", options={"maxiter": 300}).x


def _weighed(rows: list[dict], draw) -> dict[str, tuple[float, ...]]:
    """Per bot and over all, what a mistake that plays card ``i`` with probability ``draw(r)[i]`` (a dict
    over the indices of ``r["cards"]``; the meant card's own index: no slip) gives on these decisions,
    expected over the draw: the slip ratio as ``tekkasim blunders`` measures it (over the decisions where
    the card played differs from the mistake-free one: its cost against a uniformly random other card's),
    the tricks a slip costs more than the mistake-free card (above zero, or mistakes make the bot stronger),
    the share of mistakes that play the meant card, the share of decisions losing two tricks or more with
    the bot's own ``mistake_rate``, and the slips' excess ratio: what a slip costs above the meant card
    against what a random other card costs above it (0: slips as good as the meant card, 1: no better
    than random; unlike the slip ratio, it does not count the meant card's own cost)."""
    acc: dict[str, np.ndarray] = {}
    for r in rows:
        y, ci = r["y"], r["cards"].index(r["calm"])
        prob = draw(r)
        slip = 1.0 - prob.get(ci, 0.0)
        cost = sum(q * y[i] for i, q in prob.items() if i != ci)
        gross = sum(q * (y[i] >= 2) for i, q in prob.items())
        other = float(np.mean([y[i] for i in range(len(y)) if i != ci]))
        rate = r["p"][pk.P_MISTAKE]
        row = np.array(
            [
                cost,
                other * slip,
                cost - slip * y[ci],
                slip,
                (1 - rate) * (y[ci] >= 2) + rate * gross,
                1.0,
                slip * (other - y[ci]),
            ]
        )
        for key in (r["bot"], "all"):
            acc[key] = acc.get(key, 0.0) + row
    return {  # a bot that never slips here: no figures
        key: (
            round(a[0] / a[1], 3),
            round(a[2] / a[3], 3),
            round(1 - a[3] / a[5], 3),
            round(a[4] / a[5], 4),
            round(a[2] / a[6], 3),
        )
        if a[3] > 0
        else ("-",)
        for key, a in acc.items()
    }


def _gated(r: dict, weights, temperature: float, cap: float = math.inf) -> dict[int, float]:
    """``_slip_card``'s draw: the cards other than the meant one that the estimate rates no better than it
    (or its equal), ``cap``: and whose estimate lies less than ``cap`` tricks above it."""
    est = r["x"] @ np.asarray(weights[r["group"]])
    ci = r["cards"].index(r["calm"])
    equal = pk.SLIP_FEATURES.index("as_good_as_meant")  # the meant card's equal is drawn whatever its estimate
    cand = [
        i for i in range(len(r["cards"])) if i != ci and ((est[ci] <= est[i] < est[ci] + cap) or r["x"][i][equal] > 0.5)
    ]
    return _softmax(est, ci, cand, temperature) if cand else {ci: 1.0}


def _softmax(est: np.ndarray, ci: int, cand: list[int], temperature: float) -> dict[int, float]:
    steps = {i: pk.slip_step(max(est[i] - est[ci], 0.0)) for i in cand}
    lo = min(steps.values())
    if temperature <= 0:
        return {min(i for i in steps if steps[i] == lo): 1.0}
    w = {i: math.exp(-(q - lo) * SLIP_UNIT / temperature) for i, q in steps.items()}
    total = sum(w.values())
    return {i: x / total for i, x in w.items()}


def slip_ratio(rows: list[dict], weights, temperature: float) -> dict[str, tuple[float, float, float]]:
    """Per bot and over all, what ``_slip_card``'s draw gives on these decisions (:func:`_weighed`: the
    slip ratio, tricks per slip above the mistake-free card, share of mistakes that play the meant card)."""
    return {key: a[:3] for key, a in _weighed(rows, lambda r: _gated(r, weights, temperature)).items()}


# the faculties a weaker person lacks (issue 25): the policy with one of them weakened
_FACULTIES = (("memory", pk.P_MEMORY), ("partner_play", pk.P_PARTNER), ("infer", pk.P_INFER),
              ("trump_management", pk.P_TRUMP), ("signals", pk.P_SIGNALS))  # fmt: skip


def _policy_card(p: np.ndarray, r: dict, lm: int) -> int:
    q = p.copy()
    q[pk.P_MISTAKE] = 0.0
    return int(pk._play(q, r["v"], r["m"], np.uint64(lm), pk.MODE_HEURISTIC)) % pk.k.SIGNAL_MULT


def add_plausible(rows: list[dict]) -> None:
    """Each row's ``weak``: the cards the same policy plays with one faculty weakened (``memory`` one step
    lower, or ``partner_play``, ``infer``, ``trump_management``, ``signals`` off; the ones the bot has),
    by faculty; ``second``: the policy's own card with the meant one taken away; ``equal``: the meant
    card's equals by what the bot sees (``_as_good``)."""
    for r in rows:
        cards, p = r["cards"], r["p"]
        r["weak"] = {}
        for name, i in _FACULTIES:
            if p[i] > 0.0:
                q = p.copy()
                q[i] = p[i] - 1.0 if name == "memory" else 0.0
                r["weak"][name] = cards.index(_policy_card(q, r, r["lm"]))
        r["second"] = cards.index(_policy_card(p, r, r["lm"] & ~(1 << r["calm"])))
        gone = pk._slip_known(p, r["v"], r["m"]) | r["m"][pk.M_HAND]
        r["equal"] = [i for i, c in enumerate(cards) if c != r["calm"] and pk._as_good(c, r["calm"], gone)]


def variants(rows: list[dict], weights, temperature: float) -> list[tuple[str, dict]]:
    """Mistake draws tried against issue 25's goal (slip ratio <= 0.5), each as :func:`_weighed` gives it,
    beside three bounds that no estimate can pass: the double-dummy best other card, the cheapest other
    card that costs no less than the meant one (a mistake that never gains), and the meant card's own
    cost against a random other card's (a draw whose slips cost less than that on average makes the bot
    play better, double dummy, by its mistakes)."""
    add_plausible(rows)
    ci = {id(r): r["cards"].index(r["calm"]) for r in rows}

    def est(r):
        return r["x"] @ np.asarray(weights[r["group"]])

    def others(r):
        return [i for i in range(len(r["cards"])) if i != ci[id(r)]]

    def plausible(r, second=False, gate=False):
        e, c = est(r), ci[id(r)]
        cand = {i for i in r["weak"].values()} | set(r["equal"]) | ({r["second"]} if second else set())
        cand = sorted(i for i in cand if i != c and (not gate or e[i] >= e[c] or i in r["equal"]))
        return _softmax(e, c, cand, temperature) if cand else _gated(r, weights, temperature)

    def never_gains(r):
        y, c = r["y"], ci[id(r)]
        ok = [i for i in others(r) if y[i] >= y[c]]
        return {min(ok, key=lambda i: y[i]) if ok else max(others(r), key=lambda i: y[i]): 1.0}

    out = [
        ("bound: best other card (double dummy)", lambda r: {min(others(r), key=lambda i: r["y"][i]): 1.0}),
        ("bound: cheapest card no cheaper than meant", never_gains),
        ("package: gated estimate draw", lambda r: _gated(r, weights, temperature)),
        ("gated, temperature 0", lambda r: _gated(r, weights, 0.0)),
        ("estimate's cheapest other card, ungated", lambda r: {min(others(r), key=lambda i: est(r)[i]): 1.0}),
        ("the policy's second choice", lambda r: {r["second"]: 1.0}),
        ("weakened faculties + equals, else gated", plausible),
        ("the same, gated", lambda r: plausible(r, gate=True)),
        ("the same + second choice", lambda r: plausible(r, second=True)),
    ]
    out += [(f"gated, cap {x} tricks", lambda r, x=x: _gated(r, weights, temperature, x)) for x in (0.25, 0.5, 1.0)]
    # each faculty alone: its card where it differs from the meant one (elsewhere no slip, not counted)
    out += [
        (f"{f} weakened, where it differs", lambda r, f=f: {r["weak"].get(f, ci[id(r)]): 1.0}) for f, _ in _FACULTIES
    ]
    res = [(name, _weighed(rows, draw)) for name, draw in out]
    meant: dict[str, np.ndarray] = {}
    for r in rows:
        y, c = r["y"], ci[id(r)]
        a = np.array([y[c], float(np.mean([y[i] for i in others(r)]))])
        for key in (r["bot"], "all"):
            meant[key] = meant.get(key, 0.0) + a
    res.insert(2, ("bound: the meant card itself", {key: (round(a[0] / a[1], 3),) for key, a in meant.items()}))
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--range", action="append", required=True, help="S:N, N deals from seed S (repeatable)")
    ap.add_argument("--temperature", type=float, default=0.1)
    ap.add_argument("--ruleset", default="feskot", choices=("feskot", "tekka"))
    ap.add_argument("--cache", help="a pickle of the decisions: read if it exists, else written after playing")
    ap.add_argument("--variants", action="store_true", help="the mistake draws tried for a slip ratio <= 0.5")
    a = ap.parse_args()
    ranges = [tuple(int(x) for x in r.split(":")) for r in a.range]
    if not all(4_000_000 <= s and s + n <= 5_000_000 for s, n in ranges):
        raise SystemExit("tuning boards are 4,000,000 .. 4,999,999")
    if a.cache and os.path.exists(a.cache):
        with open(a.cache, "rb") as f:
            rows = pickle.load(f)
    else:
        rows = decisions(ranges, a.ruleset)
        if a.cache:
            with open(a.cache, "wb") as f:
                pickle.dump(rows, f)
    add_features(rows)
    if a.variants:
        package = (pk.SLIP_W_LEAD, pk.SLIP_W_FOLLOW, pk.SLIP_W_VOID)
        print(f"{len(rows)} decisions, temperature {a.temperature}, the package's weights; per bot: slip ratio /")
        print("tricks a slip costs above the meant card / share of mistakes playing the meant card / share of")
        print("decisions losing >= 2 tricks at the bot's mistake_rate / excess ratio (the meant card: the ratio only)")
        order = [*BOTS, "all"]
        for name, res in variants(rows, package, a.temperature):
            print(f"{name:44s}", "  ".join("/".join(str(x) for x in res[b]) for b in order if b in res))
        return
    weights = fit(rows)
    for name, w in zip(("SLIP_W_LEAD", "SLIP_W_FOLLOW", "SLIP_W_VOID"), weights, strict=True):
        print(f"{name} = (" + ", ".join(f"{x:.3f}" for x in w) + ")")
    print(f"{len(rows)} decisions; at temperature {a.temperature} (in-sample), per bot: slip ratio, tricks a")
    print("slip costs more than the mistake-free card, share of mistakes that play the meant card:")
    print("  fitted:  ", slip_ratio(rows, weights, a.temperature))
    print("  package: ", slip_ratio(rows, (pk.SLIP_W_LEAD, pk.SLIP_W_FOLLOW, pk.SLIP_W_VOID), a.temperature))


if __name__ == "__main__":
    main()
