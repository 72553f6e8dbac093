"""Shengji bot speed on one core: the compiled heuristic deal loop (JANGARA against SADA, whole first deals
from the shuffle to the level change) beside the engine's random play (``game.play_random``) in the same
run, against the goal of 20,000 deals/s; decisions per second of every Shengji bot through ``bots.decide``
(the path every tournament decision takes) on states of seeded random deals; and ZELZELA's mean time per
decision over whole deals against GREEDY, against the goal of 100 ms.

Times are process CPU time (``time.process_time``), so that a machine shared with other jobs measures
the work of one core rather than the wait for it; wall-clock figures are given beside them.
"""

from __future__ import annotations

import time

import numpy as np

from tekkasim.bits import new_rng
from tekkasim.bots import _shengji_policy as sp
from tekkasim.bots import decide, get_bot, mix_seed
from tekkasim.bots.shengji import policy_vector
from tekkasim.rules import get_game

DEALS_GOAL = 20_000
ZELZELA_GOAL_MS = 100.0
BOTS = (
    "RANDOM",
    "GREEDY",
    "KADO",
    "POCHAQ",
    "PUCHOQ",
    "SADA",
    "TANA",
    "JANGARA",
    "TANOOR",
    "TIZAB",
    "ZELZELA",
    "ORACLE",
)


def _cpu_rate(fn, n: int, repeats: int = 3) -> tuple[float, float]:
    """Best (CPU, wall) rates of ``fn(n, r)`` over ``repeats`` runs."""
    cpu = wall = float("inf")
    for r in range(repeats):
        c, w = time.process_time(), time.perf_counter()
        fn(n, r)
        cpu = min(cpu, time.process_time() - c)
        wall = min(wall, time.perf_counter() - w)
    return n / cpu, n / wall


def _states(game, n: int, seed: int) -> list:
    rng = new_rng(seed)
    out = []
    i = 0
    while len(out) < n:
        state = game.new_deal(seed + i)
        steps = (i * 37) % 115
        i += 1
        for _ in range(steps):
            if state.is_terminal():
                break
            state.apply_action(state.random_legal_action(rng))
        if not state.is_terminal() and len(state.legal_actions()) <= 400:
            out.append(state)
    return out


def run(quick: bool) -> list[dict]:
    game = get_game("shengji")
    rows = []
    x, y = policy_vector("JANGARA"), policy_vector("SADA")
    n = 500 if quick else 5000
    out = np.zeros((n, 7), np.int64)
    sp.play_boards(x, y, np.arange(3, dtype=np.uint64), 0, out[:3])  # compile or load outside the timing
    game.play_random(10, 0)

    def match(k, r):
        sp.play_boards(x, y, np.arange(r * k, (r + 1) * k, dtype=np.uint64), r % 2, out[:k])

    cpu, wall = _cpu_rate(match, n)
    rcpu, rwall = _cpu_rate(lambda k, r: game.play_random(k, 1000 + r * k), 4 * n)
    rows.append(
        {
            "name": "compiled JANGARA vs SADA shengji deals (CPU)",
            "value": cpu,
            "unit": "deals/s",
            "reference": f"goal {DEALS_GOAL:,} deals/s",
            "ratio": cpu / DEALS_GOAL,
            "goal": "ratio >= 1",
        }
    )
    rows.append({"name": "  the same, wall clock", "value": wall, "unit": "deals/s"})
    rows.append(
        {
            "name": "random shengji deals, same run (CPU)",
            "value": rcpu,
            "unit": "deals/s",
            "reference": "compiled heuristic match-up",
            "ratio": cpu / rcpu,
        }
    )
    states = _states(game, 20 if quick else 80, 4242)
    for name in BOTS:
        params = {"worlds": 4} if quick and name in ("TANOOR", "TIZAB", "ZELZELA") else {}
        bot = get_bot(name, ruleset="shengji", **params)
        decide(bot, states[0], states[0].current_player(), 0)  # warm-up (kernels)
        c = time.process_time()
        for i, s in enumerate(states):
            decide(bot, s, s.current_player(), i)
        rate = len(states) / (time.process_time() - c)
        rows.append({"name": f"{name} decisions (decide path, CPU)", "value": rate, "unit": "decisions/s"})
    # ZELZELA over whole deals against GREEDY
    zel = get_bot("ZELZELA", ruleset="shengji")
    greedy = get_bot("GREEDY", ruleset="shengji")
    times, walls = [], []
    for seed in range(9_000_000, 9_000_000 + (1 if quick else 4)):
        state = game.new_deal(seed)
        k = 0
        while not state.is_terminal():
            seat = state.current_player()
            bot = zel if seat % 2 == 0 else greedy
            c, w = time.process_time(), time.perf_counter()
            action = decide(bot, state, seat, mix_seed(seed, 0, k))
            if seat % 2 == 0:
                times.append(time.process_time() - c)
                walls.append(time.perf_counter() - w)
            state.apply_action(action)
            k += 1
    mean = 1000 * float(np.mean(times))
    rows.append(
        {
            "name": f"ZELZELA ms per decision, whole deals ({len(times)} decisions, CPU)",
            "value": mean,
            "unit": "ms",
            "reference": f"goal {ZELZELA_GOAL_MS:.0f} ms",
            "ratio": mean / ZELZELA_GOAL_MS,
            "goal": "ratio <= 1",
        }
    )
    rows.append({"name": "  the same, wall clock", "value": 1000 * float(np.mean(walls)), "unit": "ms"})
    return rows
