"""Bot speed on one core: decisions per second of RANDOM, GREEDY and KADO ... JANGARA through the Python
path every tournament decision takes (``bots.decide``: the seat's observation, the policy view, the
compiled decision), Feskot and Tekka; and whole Feskot deals per second of the compiled loop
``bots.compiled.play_boards`` for JANGARA against SADA, beside random play (``game.play_random``) in the
same run.

Decisions are timed on states met in seeded random deals (every phase in proportion: Prime or the
auction, then cards), the same states for every bot.
"""

from __future__ import annotations

import time

from benchmarks._common import best_rate, decisions_rate, random_states
from tekkasim.bots import get_bot
from tekkasim.bots.compiled import play_boards
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
                    "value": decisions_rate(get_bot(bot), states),
                    "unit": "decisions/s",
                }
            )
    game = get_game("feskot")
    n = 20_000 if quick else 200_000
    play_boards(game, "JANGARA", "SADA", [1, 2], 0)
    game.play_random(10, 1)

    def compiled(count, r):
        play_boards(game, "JANGARA", "SADA", range(r * count, (r + 1) * count), r & 1)

    def random_play(count, r):
        game.play_random(count, r * count)

    t0 = time.perf_counter()
    deals = best_rate(compiled, n, repeats=3)
    rand = best_rate(random_play, n, repeats=3)
    rows.append(
        {
            "name": "feskot JANGARA vs SADA compiled deals",
            "value": deals,
            "unit": "deals/s",
            "reference": "feskot play_random",
            "ratio": deals / rand,
            "goal": f">= {DEALS_GOAL:,} deals/s per core",
        }
    )
    rows.append({"name": "feskot play_random (same run)", "value": rand, "unit": "deals/s"})
    rows.append({"name": "compiled match-up timing took", "value": time.perf_counter() - t0, "unit": "s"})
    return rows
