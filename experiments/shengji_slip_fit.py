"""The weights with which a Shengji heuristic bot prices its play mistakes (``_shengji_policy.W_LEAD`` and
``W_FOLLOW``, issue 25): a fit of each candidate play's value on what the bot sees of it
(``reference.shengji_slip.play_features``), over the play decisions of the ladder KADO .. TANA on tuning
boards (never report seeds). Shengji has no double-dummy solver: a play's value is a JANGARA-policy
rollout of the true deal after it (``shengji.rollout_values``, the deciding side's card points; JANGARA
has no mistakes, so it is a function of the deal and the play).

    python experiments/shengji_slip_fit.py --range 1200000:150 --range 1200150:150 [--temperature 0.1] [--cache FILE]

For each ``--range S:N`` the five bots take turns at the seats of N deals from seed S (deal i: KADO ..
TANA from seat i on, their own mistakes included; decision k seeded ``mix_seed(S + i, 0, k)`` as a
tournament's table 0). At each lead or follow the mistake-free bot's play is noted and it and every
candidate of a mistake (``_shengji_policy.slip_candidates``) are priced by rollouts; ``--cache`` keeps these
decisions so that a change of the features can be refitted without playing again. The fit, per kind
(lead, follow): ridge least squares (ridge 1) on values and features taken relative to the decision's mean
(:func:`fit`). Prints the weights as code and what a mistake drawn by them at ``--temperature`` costs on the
same decisions (in-sample, so optimistic), beside the weights in the package, and what a uniformly random
candidate costs.
"""

from __future__ import annotations

import argparse
import math
import os
import pickle

import numpy as np

from tekkasim.bits import SLIP_UNIT, new_rng
from tekkasim.bots import get_bot, mix_seed
from tekkasim.rules import get_game
from tekkasim.rulesets.shengji import _policy as sp
from tekkasim.rulesets.shengji.bots import (
    _kinds,
    _masks,
    compiled_decide,
    policy_input,
    policy_vector,
    rollout_values,
    state_arrays,
)
from tekkasim.rulesets.shengji.reference_slip import play_features

BOTS = ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA")
KINDS = ("lead", "follow")


def decisions(ranges: list[tuple[int, int]]) -> list[dict]:
    """The lead and follow decisions of the ladder on the deals of ``ranges``, each with two or more plays
    to price: the bot, its parameters ``p``, the policy input of the seat (``st``, hand, burial), the
    mistake-free play first and then the candidates of a mistake, and their rollout values ``y``."""
    game = get_game("shengji")
    jangara = np.tile(policy_vector("JANGARA"), (4, 1))
    vecs = {n: get_bot(n, ruleset="shengji").compiled_form("shengji") for n in BOTS}
    buf = np.empty((sp.BUF_ROWS, 4), np.int64)
    out = []
    for seed, deals in ranges:
        for s in range(seed, seed + deals):
            state, k = game.new_deal(s), 0
            while not state.is_terminal():
                seat = state.current_player()
                name = BOTS[(s - seed + seat) % len(BOTS)]
                vec = vecs[name]
                obs = state.observation(seat)
                ds = mix_seed(s, 0, k)
                if state.phase() == "play":
                    calm = vec.copy()
                    calm[sp.P_MISTAKE] = 0.0
                    meant = compiled_decide(calm, obs, new_rng(ds))
                    a = policy_input(obs)
                    eff, strength, suit_kinds, strength_kinds = a["tables"]
                    h1, h2 = (np.uint64(x) for x in a["hand"])
                    m1, m2 = (np.uint64(x) for x in _masks(meant))
                    n = sp.slip_candidates(a["st"], h1, h2, m1, m2, eff, strength, suit_kinds, strength_kinds, buf)
                    if n:
                        rows = buf[sp.TRACTOR_CAP : sp.TRACTOR_CAP + n, :2]
                        plays = [meant] + [tuple(_kinds(int(x), int(y))) for x, y in rows]
                        y = 40.0 * rollout_values(state_arrays(state), plays, seat, jangara, new_rng(ds))
                        out.append(
                            {
                                "bot": name,
                                "seed": s,
                                "kind": "follow" if state.trick else "lead",
                                "p": calm,
                                "st": a["st"].copy(),
                                "seat": seat,
                                "hand": a["hand"],
                                "buried": a["buried"],
                                "plays": [_masks(x) for x in plays],
                                "y": y,
                            }
                        )
                state.apply_action(compiled_decide(vec, obs, new_rng(ds)))
                k += 1
    return out


def add_features(rows: list[dict]) -> None:
    """Each row's ``x``: the features of every play (the meant one first), as the bot sees them."""
    for r in rows:
        b1 = r["buried"][0]
        kitty = float(sum(_points(k) * c for k, c in _items(*r["buried"]))) if b1 else sp.KITTY_GUESS
        r["x"] = np.array(
            [play_features(r["p"], r["st"], r["seat"], r["hand"], r["buried"], x, kitty)[1] for x in r["plays"]],
            float,
        )


def _items(one: int, two: int):
    return [(k, 1 + (two >> k & 1)) for k in range(54) if one >> k & 1]


def _points(k: int) -> int:
    return 0 if k >= 52 else {3: 5, 8: 10, 11: 10}.get(k % 13, 0)


def fit(rows: list[dict], ridge: float = 1.0) -> list[np.ndarray]:
    """Per kind: a ridge least-squares fit of the plays' values on their features, both relative to the
    decision's mean (a draw ignores a decision's constant). (A refinement towards the weights whose draw
    costs least on these decisions, as ``slip_weights.py`` makes for Feskot, moved the lead weights a
    lot from one half of the decisions to the other and changed no Elo measured on tuning boards: the
    rollouts' noise is large against what a play changes, so the plain fit is kept.)"""
    weights = []
    for kind in KINDS:
        sub = [r for r in rows if r["kind"] == kind]
        x = np.vstack([r["x"] - r["x"].mean(0) for r in sub])
        y = np.concatenate([r["y"] - r["y"].mean() for r in sub])
        weights.append(np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ y))
    return weights


def draw_stats(rows: list[dict], weights, temperature: float) -> dict[str, tuple]:
    """Per bot and over all, what ``_slip_play``'s draw gives on these decisions (expected over the
    draw): the points a mistake loses against the meant play, the same for a uniformly random candidate,
    their ratio, and the share of mistakes with no candidate left (the meant play is played)."""
    acc: dict[str, np.ndarray] = {}
    for r in rows:
        w = np.asarray(weights[KINDS.index(r["kind"])])
        est = r["x"] @ w
        loss = r["y"][0] - r["y"]
        idx = [i for i in range(1, len(est)) if est[i] <= est[0] + 1e-9]  # the gate
        steps = [sp.slip_step((est[0] - est[i]) / sp.SLIP_POINTS) for i in idx]
        order = sorted(range(len(idx)), key=lambda j: (steps[j], j))[:16]
        if order:
            lo = min(steps[j] for j in order)
            if temperature <= 0:
                ws = {order[0]: 1.0}
            else:
                ws = {j: math.exp(-(steps[j] - lo) * SLIP_UNIT / temperature) for j in order}
            tot = sum(ws.values())
            cost = sum(ws[j] / tot * loss[idx[j]] for j in ws)
        else:
            cost = 0.0
        row = np.array([cost, float(loss[1:].mean()), not order, 1.0])
        for key in (r["bot"], r["kind"], "all"):
            acc[key] = acc.get(key, 0.0) + row
    return {
        key: tuple(round(float(v), 3) for v in (a[0] / a[3], a[1] / a[3], a[0] / a[1], a[2] / a[3]))
        for key, a in acc.items()
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--range", action="append", required=True, help="S:N, N deals from seed S (repeatable)")
    ap.add_argument("--temperature", type=float, default=0.1)
    ap.add_argument("--cache", help="a pickle of the decisions: read if it exists, else written after playing")
    a = ap.parse_args()
    ranges = [tuple(int(x) for x in r.split(":")) for r in a.range]
    if not all(1_000_000 <= s and s + n <= 2_000_000 for s, n in ranges):
        raise SystemExit("tuning boards are 1,000,000 .. 1,999,999")
    if a.cache and os.path.exists(a.cache):
        with open(a.cache, "rb") as f:
            rows = pickle.load(f)
    else:
        rows = decisions(ranges)
        if a.cache:
            with open(a.cache, "wb") as f:
                pickle.dump(rows, f)
    add_features(rows)
    weights = fit(rows)
    for name, w, feats in zip(("W_LEAD", "W_FOLLOW"), weights, (sp.LEAD_FEATURES, sp.FOLLOW_FEATURES), strict=True):
        print(f"{name} = np.array([" + ", ".join(f"{x:.3f}" for x in w) + "])")
        print("   ", ", ".join(f"{f} {x:+.2f}" for f, x in zip(feats, w, strict=True)))
    print(f"{len(rows)} decisions; at temperature {a.temperature} (in-sample), per bot and kind: points a mistake")
    print("loses against the meant play, the same for a random candidate, their ratio, share with none left:")
    for label, ws in (("fitted", weights), ("package", (sp.W_LEAD, sp.W_FOLLOW))):
        print(f"  {label}:")
        for key, v in sorted(draw_stats(rows, ws, a.temperature).items()):
            print(f"    {key:8s} " + "  ".join(f"{x:.3g}" for x in v))


if __name__ == "__main__":
    main()
