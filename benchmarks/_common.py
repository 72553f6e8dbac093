"""Timing helpers shared by the benchmark modules."""

from __future__ import annotations

import random
import time


def best_rate(fn, n: int, repeats: int = 3) -> float:
    """Best rate (items per second) of ``fn(n, r)`` over ``repeats`` runs (``r`` = repeat index, so each
    run can use fresh seeds)."""
    best = float("inf")
    for r in range(repeats):
        t0 = time.perf_counter()
        fn(n, r)
        best = min(best, time.perf_counter() - t0)
    return n / best


def state_api(game, n: int, seed: int) -> None:
    """Play ``n`` deals with uniformly random legal actions through the Python State API."""
    rng = random.Random(seed)
    for i in range(n):
        state = game.new_deal(seed * n + i)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
