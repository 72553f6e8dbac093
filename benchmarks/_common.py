"""Timing helpers shared by the benchmark modules."""

from __future__ import annotations

import random
import statistics

from tekkasim.bits import below, new_rng
from tekkasim.bots import decide
from tekkasim.throughput import best_rate  # noqa: F401  (the benchmarks' one timing helper)


def random_states(game, n: int, seed: int, max_steps: int) -> list:
    """``n`` unfinished states of seeded random deals (deal seeds ``seed ..``), each a random number of
    actions (below ``max_steps``) in: the positions the bots' decision benchmarks time."""
    rng = new_rng(seed)
    out = []
    while len(out) < n:
        state = game.new_deal(len(out) + seed)
        for _ in range(int(below(rng, max_steps))):
            legal = state.legal_actions()
            state.apply_action(legal[int(below(rng, len(legal)))])
            if state.is_terminal():
                break
        if not state.is_terminal():
            out.append(state)
    return out


def decisions_rate(bot, states) -> float:
    """Decisions per second of ``bot`` through ``bots.decide`` (the tournaments' path) on ``states``."""
    seats = [s.current_player() for s in states]
    decide(bot, states[0], seats[0], 0)  # compile / load from the cache

    def run(n, r):
        for i in range(n):
            decide(bot, states[i], seats[i], r * n + i)

    return best_rate(run, len(states), repeats=2)


def state_api(game, n: int, seed: int) -> None:
    """Play ``n`` deals with uniformly random legal actions through the Python State API."""
    rng = random.Random(seed)
    for i in range(n):
        state = game.new_deal(seed * n + i)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def median_interval(values: list[float], seed: int = 0) -> tuple[float, float, float]:
    """The median of ``values`` and a 95% percentile-bootstrap interval of it (2,000 resamples, seeded: the
    same values give the same interval)."""
    rng = random.Random(seed)
    boots = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(2000))
    return statistics.median(values), boots[50], boots[1949]
