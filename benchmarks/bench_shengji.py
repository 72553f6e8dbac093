"""Shengji throughput: random deals per second on one core in the compiled kernel (shuffle and deal 108
cards, random declarations, random burial, random legal leads and follows with pairs and tractors,
scoring and level change), against the goal of 100,000 deals/s (for scale: the best open Shengji bot's
compiled rollouts run at about 4,000/s), and against the pure-Python twin (same policy, same RNG stream,
so the same deals) measured in the same run."""

from __future__ import annotations

import random
import time

from tekkasim.reference import shengji as reference
from tekkasim.rules import get_game

GOAL = 100_000


def _rate(fn, n: int, repeats: int = 3) -> float:
    """Best rate (deals per second) of ``fn(n, r)`` over a few repeats."""
    best = float("inf")
    for r in range(repeats):
        t0 = time.perf_counter()
        fn(n, r)
        best = min(best, time.perf_counter() - t0)
    return n / best


def _reference(n: int, seed: int) -> None:
    for i in range(n):
        reference.random_deal(seed + i)


def _state_api(game, n: int, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(n):
        state = game.new_deal(seed * n + i)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def run(quick: bool) -> list[dict]:
    game = get_game("shengji")
    game.play_random(10, 0)  # compile or load the cache outside the timing
    n = 20_000 if quick else 500_000
    rate = _rate(lambda k, r: game.play_random(k, 1000 + r * k), n)
    rows = [{"name": "random shengji deals (compiled, one core)", "value": rate, "unit": "deals/s",
             "reference": f"goal {GOAL:,} deals/s", "ratio": rate / GOAL, "goal": "ratio >= 1"}]
    m = 100 if quick else 1000
    ref_rate = _rate(lambda k, r: _reference(k, 5000 + r * k), m, repeats=1)
    rows.append({"name": "random shengji deals (pure-Python twin)", "value": ref_rate, "unit": "deals/s",
                 "reference": "compiled kernel, same run", "ratio": rate / ref_rate, "goal": "speed-up, no target"})
    k = 10 if quick else 100
    api_rate = _rate(lambda j, r: _state_api(game, j, r), k, repeats=1)
    rows.append({"name": "random shengji deals (Python State API)", "value": api_rate, "unit": "deals/s"})
    return rows
