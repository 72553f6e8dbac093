"""Engine throughput on this machine: random deals per second on one core, compiled and through Python."""

from __future__ import annotations

import os
import platform
import time

from .rules import get_game, ruleset_names
from .simulate import play_deal


def _rate(fn, n: int, min_seconds: float) -> float:
    """Deals per second of ``fn(n)``, repeating until ``min_seconds`` have passed."""
    done, start = 0, time.perf_counter()
    while True:
        fn(n)
        done += n
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return done / elapsed


def measure(rulesets: list[str] | None = None, deals: int = 200_000, seconds: float = 1.0,
            python_deals: int = 200) -> dict:
    """For each ruleset: compiled random deals/s (``Game.play_random``), the same through the Python
    ``State`` API, and the compile-or-cache-load time of the first call. One core: numba kernels here are
    single-threaded, and nothing else is started."""
    out = {"machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine(),
                       "cores": os.cpu_count()}, "rulesets": {}}
    for name in rulesets or ruleset_names():
        game = get_game(name)
        t0 = time.perf_counter()
        game.play_random(10, 0)
        first_call = time.perf_counter() - t0
        compiled = _rate(lambda n, g=game: g.play_random(n, 12345), deals, seconds)
        counter = iter(range(10**9))
        through_python = _rate(lambda n, g=game, c=counter: [play_deal(g, next(c)) for _ in range(n)],
                               python_deals, seconds)
        out["rulesets"][name] = {
            "random_deals_per_second": round(compiled),
            "python_api_deals_per_second": round(through_python, 1),
            "first_call_seconds": round(first_call, 3),
        }
    return out
