"""Shengji throughput: random deals per second on one core in the compiled kernel (shuffle and deal 108
cards, random declarations, random burial, random legal leads and follows with pairs and tractors,
scoring and level change), against the goal of 100,000 deals/s, and against the pure-Python twin (same
policy, same RNG stream, so the same deals) measured in the same run. Also determinization: how often the
constrained draw of ``ShengjiState.resample`` fails (against the earlier voids-only draw on the same
positions) and the mean time per resample over random positions of every phase, and
``random_legal_action`` against ``legal_actions`` on the positions where a void player faces a tractor."""

from __future__ import annotations

import random
import time
from collections import Counter

from tekkasim.bits import new_rng
from tekkasim.rules import get_game
from tekkasim.rulesets.shengji import reference

from ._common import best_rate as _rate
from ._common import state_api as _state_api

GOAL = 100_000


def _reference(n: int, seed: int) -> None:
    for i in range(n):
        reference.random_deal(seed + i)


def run(quick: bool) -> list[dict]:
    game = get_game("shengji")
    game.play_random(10, 0)  # compile or load the cache outside the timing
    n = 20_000 if quick else 500_000
    rate = _rate(lambda k, r: game.play_random(k, 1000 + r * k), n)
    rows = [
        {
            "name": "random shengji deals (compiled, one core)",
            "value": rate,
            "unit": "deals/s",
            "reference": f"goal {GOAL:,} deals/s",
            "ratio": rate / GOAL,
            "goal": "ratio >= 1",
        }
    ]
    m = 100 if quick else 1000
    ref_rate = _rate(lambda k, r: _reference(k, 5000 + r * k), m, repeats=1)
    rows.append(
        {
            "name": "random shengji deals (pure-Python twin)",
            "value": ref_rate,
            "unit": "deals/s",
            "reference": "compiled kernel, same run",
            "ratio": rate / ref_rate,
            "goal": "speed-up, no target",
        }
    )
    k = 10 if quick else 100
    api_rate = _rate(lambda j, r: _state_api(game, j, r), k, repeats=1)
    rows.append({"name": "random shengji deals (Python State API)", "value": api_rate, "unit": "deals/s"})
    rows += resample_rows(300 if quick else 3000)
    rows += random_action_rows(5 if quick else 30)
    return rows


def _positions(game, n: int, seed: int) -> list:
    """``n`` random (state, observer) pairs of every phase (first and later deals, all levels), reached
    with the compiled random policy."""
    rng, krng = random.Random(seed), new_rng(seed)
    out, deal = [], 0
    while len(out) < n:
        level = "23456789TJQKA"[deal % 13]
        state = game.new_deal(
            seed * 100_000 + deal, dealer=None if deal % 2 else deal % 4, levels={"A": level, "B": level}
        )
        deal += 1
        while len(out) < n:
            if rng.random() < 0.05:
                out.append((state.clone(), rng.randrange(4)))
            if state.is_terminal():
                break
            state.apply_action(state.random_legal_action(krng))
    return out


def resample_rows(n: int) -> list[dict]:
    """Determinization figures on ``n`` random positions."""
    game = get_game("shengji")
    pos = _positions(game, n, 17)
    rnd, krng = random.Random(17), new_rng(17)
    fails = Counter()
    elapsed = 0.0
    for state, seat in pos:
        caps = state.known_caps(seat)
        voids_only = [{k: c for k, c in cs.items() if c == 0 and state._void_kind(s, k)} for s, cs in enumerate(caps)]
        fails["new"] += state._draw_world(seat, rnd, caps) is None
        fails["old"] += state._draw_world(seat, rnd, voids_only) is None
        t0 = time.perf_counter()
        state.resample(seat, krng)
        elapsed += time.perf_counter() - t0
    phases = Counter(state.phase() for state, _ in pos)
    where = ", ".join(f"{phases[p]} {p}" for p in ("declare", "bury", "play", "terminal"))
    return [
        {
            "name": f"shengji resample: first draws failing ({n} positions: {where})",
            "value": fails["new"] / n,
            "unit": "fraction",
            "goal": "almost never",
        },
        {
            "name": "shengji resample: first draws failing, earlier voids-only draw",
            "value": fails["old"] / n,
            "unit": "fraction",
        },
        {"name": "shengji resample: mean time", "value": 1000 * elapsed / n, "unit": "ms"},
    ]


def random_action_rows(n: int) -> list[dict]:
    """``random_legal_action`` against ``legal_actions`` where a void or short player faces a tractor."""
    game = get_game("shengji")
    krng = new_rng(23)
    picked, deal = [], 0
    while len(picked) < n and deal < 200 * n:
        state = game.new_deal(23_000 + deal)
        deal += 1
        while not state.is_terminal():
            if state.phase() == "play" and state.trick and state._lead[1] >= 2:
                spec = state.follow_structure()
                if spec["count"] >= 2 and not spec["min_pairs"]:
                    picked.append(state.clone())
                    break
            state.apply_action(state.random_legal_action(krng))
    t0 = time.perf_counter()
    sizes = [len(state.legal_actions()) for state in picked]
    enum = (time.perf_counter() - t0) / max(1, len(picked))
    t0 = time.perf_counter()
    for state in picked:
        for _ in range(100):
            state.random_legal_action(krng)
    draw = (time.perf_counter() - t0) / max(1, 100 * len(picked))
    return [
        {
            "name": f"shengji random follow to a tractor, short or void ({len(picked)} positions, "
            f"up to {max(sizes, default=0):,} follows)",
            "value": 1e6 * draw,
            "unit": "us/draw",
            "reference": f"legal_actions(): {1e6 * enum:,.0f} us",
            "ratio": enum / draw if draw else 0.0,
            "goal": "speed-up, no target",
        }
    ]
