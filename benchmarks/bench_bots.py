"""Bot speed on one core: decisions per second of RANDOM, GREEDY and KADO ... JANGARA through the Python
path every tournament decision takes (``bots.decide``: the seat's observation, the policy view, the
compiled decision), Feskot and Tekka; and whole Feskot deals per second of the compiled loop
``bots.compiled.play_tables`` for JANGARA against SADA, beside random play (``game.play_random``) in the
same run and alternating with it (best of five runs each, by this thread's CPU time and by wall time,
with the load average beside them).

Decisions are timed on states met in seeded random deals (every phase in proportion: Prime or the
auction, then cards), the same states for every bot.
"""

from __future__ import annotations

import os
import time

from benchmarks._common import decisions_rate, random_states
from tekkasim.bots import get_bot
from tekkasim.bots.compiled import play_tables
from tekkasim.rules import get_game

BOTS = ("RANDOM", "GREEDY", "KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA")
DEALS_GOAL = 100_000


def run(quick: bool = False) -> list[dict]:
    rows = []
    n_states = 300 if quick else 3000
    for name in ("feskot", "tekka"):
        game = get_game(name)
        states = random_states(game, n_states, 7, 40)
        for bot in BOTS:
            rows.append(
                {
                    "name": f"{name} {bot} decisions (Python path)",
                    "value": decisions_rate(get_bot(bot, ruleset=name), states),
                    "unit": "decisions/s",
                }
            )
    game = get_game("feskot")
    n = 20_000 if quick else 100_000
    play_tables(game, "JANGARA", "SADA", [1, 2], 0)
    game.play_random(10, 1)
    t0 = time.perf_counter()
    # the two alternate, so that both meet the same load; CPU time (this thread's) is the figure least
    # disturbed by other work on a shared machine, wall time the one a user waits for
    wall = {"compiled": 0.0, "random": 0.0}
    cpu = {"compiled": 0.0, "random": 0.0}
    for r in range(5):
        for what in ("compiled", "random"):
            w0, c0 = time.perf_counter(), time.thread_time()
            if what == "compiled":
                play_tables(game, "JANGARA", "SADA", range(r * n, (r + 1) * n), r & 1)
            else:
                game.play_random(n, r * n)
            w, c = time.perf_counter() - w0, time.thread_time() - c0
            wall[what] = max(wall[what], n / w)
            cpu[what] = max(cpu[what], n / c if c > 0 else 0.0)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    for clock, rate in (("CPU time", cpu), ("wall time", wall)):
        rows.append(
            {
                "name": f"feskot JANGARA vs SADA compiled deals ({clock})",
                "value": rate["compiled"],
                "unit": "deals/s",
                "reference": "feskot play_random",
                "ratio": rate["compiled"] / rate["random"],
                "goal": f">= {DEALS_GOAL:,} deals/s per core",
            }
        )
        rows.append({"name": f"feskot play_random, same run ({clock})", "value": rate["random"], "unit": "deals/s"})
    rows.append({"name": "load average (1 min) during the match-up", "value": load, "unit": ""})
    rows.append({"name": "compiled match-up timing took", "value": time.perf_counter() - t0, "unit": "s"})
    return rows
