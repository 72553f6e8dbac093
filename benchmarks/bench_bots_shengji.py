"""Shengji bot speed on one core: the compiled heuristic deal loop of the tournament runner
(``compiled.play_tables``: JANGARA against SADA, and the other ``PAIRS``; whole first deals from the shuffle
to the level change) beside the engine's random play (``game.play_random``) in the same run, interleaved,
each the best of its repeats, against the goal of 20,000 deals/s, with the one-minute load average before
and after; decisions per second of every Shengji bot through ``bots.decide`` (the path every tournament
decision takes) on states of seeded random deals; and ZELZELA's mean time per decision over whole deals
against GREEDY (``bots.loop``), against the goal of 100 ms.

Times are process CPU time (``time.process_time``), so that a machine shared with other jobs measures
the work of one core rather than the wait for it; wall-clock figures are given beside them.
"""

from __future__ import annotations

import os
import time

import numpy as np

from tekkasim.bits import new_rng
from tekkasim.bots import decide, get_bot
from tekkasim.bots.compiled import play_tables
from tekkasim.bots.loop import play_deal, timing
from tekkasim.rules import get_game

DEALS_GOAL = 20_000
PAIRS = (("JANGARA", "SADA"), ("JANGARA", "JANGARA"), ("TANA", "KADO"), ("GREEDY", "GREEDY"))
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
    load_before = os.getloadavg()[0]
    n = 500 if quick else 4000
    bots = {pair: (get_bot(pair[0], ruleset="shengji"), get_bot(pair[1], ruleset="shengji")) for pair in PAIRS}
    for x, y in bots.values():
        play_tables(game, x, y, np.arange(3, dtype=np.uint64), 0)  # compile or load outside the timing
    game.play_random(10, 0)
    rnd = rnd_wall = 0.0
    rates = {pair: (0.0, 0.0) for pair in PAIRS}
    for rep in range(3):  # interleaved, so that each pair and random play see the same machine

        def random_deals(k, r, rep=rep):
            game.play_random(k, 1000 + (rep + r) * k)

        c, w = _cpu_rate(random_deals, 4 * n, repeats=1)
        rnd, rnd_wall = max(rnd, c), max(rnd_wall, w)
        for pair, (x, y) in bots.items():

            def match(k, r, x=x, y=y, rep=rep):
                play_tables(game, x, y, np.arange((rep + r) * k, (rep + r + 1) * k, dtype=np.uint64), rep % 2)

            c, w = _cpu_rate(match, n, repeats=1)
            rates[pair] = (max(rates[pair][0], c), max(rates[pair][1], w))
    for (x, y), (cpu, wall) in rates.items():
        rows.append(
            {
                "name": f"compiled {x} vs {y} shengji deals (CPU)",
                "value": cpu,
                "unit": "deals/s",
                "reference": "random shengji deals, same run",
                "ratio": cpu / rnd,
                "goal": f">= {DEALS_GOAL:,} deals/s per core ({DEALS_GOAL / 180_000:.3f} of random play at 180,000)",
            }
        )
        rows.append({"name": "  the same, wall clock", "value": wall, "unit": "deals/s"})
    rows.append({"name": "random shengji deals, same run (CPU)", "value": rnd, "unit": "deals/s"})
    rows.append({"name": "  the same, wall clock", "value": rnd_wall, "unit": "deals/s"})
    rows.append({"name": "load average (1 min) before the deals", "value": load_before, "unit": ""})
    rows.append({"name": "load average (1 min) after the deals", "value": os.getloadavg()[0], "unit": ""})
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
    w = time.perf_counter()
    with timing(zel) as times:  # the one play loop, the runner's seeds
        for seed in range(9_000_000, 9_000_000 + (1 if quick else 4)):
            play_deal(game.new_deal(seed), [zel, greedy, zel, greedy], seed)
    wall = time.perf_counter() - w  # the whole deals, GREEDY's decisions too
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
    rows.append(
        {
            "name": "  wall clock per ZELZELA decision, whole deals with GREEDY's",
            "value": 1000 * wall / len(times),
            "unit": "ms",
        }
    )
    return rows
