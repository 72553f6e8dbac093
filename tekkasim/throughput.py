"""Engine throughput on this machine: random deals per second on one core, compiled and through Python.

The timing helpers live here once (``rate``, ``best_rate``, ``state_api_deals``) for ``tekkasim bench``
and the benchmark modules alike.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable

from .rules import Game, get_game, ruleset_names
from .simulate import play_deal


def rate(fn: Callable[[int], object], n: int, min_seconds: float) -> float:
    """Items per second of ``fn(n)``, calling it again until ``min_seconds`` have passed."""
    done, start = 0, time.perf_counter()
    while True:
        fn(n)
        done += n
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return done / elapsed


def best_rate(fn: Callable[[int, int], object], n: int, repeats: int = 3) -> float:
    """Best items per second of ``fn(n, r)`` over ``repeats`` runs (``r`` the run's index, so each run can
    use fresh seeds): the best run is the one least disturbed by other work on a shared machine."""
    best = float("inf")
    for r in range(repeats):
        t0 = time.perf_counter()
        fn(n, r)
        best = min(best, time.perf_counter() - t0)
    return n / best


def state_api_deals(game: Game, n: int, seed: int) -> None:
    """Play ``n`` random deals (seeds ``seed .. seed + n - 1``) through the Python State API, with the
    default random policy of ``tekkasim.simulate``."""
    for i in range(n):
        play_deal(game, seed + i)


def measure(
    rulesets: list[str] | None = None, deals: int = 200_000, seconds: float = 1.0, python_deals: int = 200
) -> dict:
    """For each ruleset: compiled random deals/s (``Game.play_random``), the same through the Python
    ``State`` API, and the compile-or-cache-load time of the first call. One core: numba kernels here are
    single-threaded, and nothing else is started."""
    out = {
        "machine": {
            "python": platform.python_version(),
            "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
        },
        "rulesets": {},
    }
    for name in rulesets or ruleset_names():
        game = get_game(name)
        t0 = time.perf_counter()
        game.play_random(10, 0)
        first_call = time.perf_counter() - t0
        compiled = rate(lambda n, g=game: g.play_random(n, 12345), deals, seconds)
        counter = iter(range(0, 10**12, python_deals))
        through_python = rate(lambda n, g=game, c=counter: state_api_deals(g, n, next(c)), python_deals, seconds)
        out["rulesets"][name] = {
            "random_deals_per_second": round(compiled),
            "python_api_deals_per_second": round(through_python, 1),
            "first_call_seconds": round(first_call, 3),
        }
    return out
