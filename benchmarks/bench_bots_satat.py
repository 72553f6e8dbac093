"""Satat bot speed on one core: decisions per second of RANDOM, GREEDY, KADO ... JANGARA, ATOUTE and ZORGE
through the Python path every tournament decision takes (``bots.decide``); mean milliseconds per
decision of TANOOR, TIZAB and ZELZELA over whole rounds (every decision of their seats, accusation
questions out of turn included, against JANGARA); whole first rounds per second of the compiled loop
``bots.satat.play_rounds`` for heuristic match-ups (JANGARA against SADA, the bluffers against detectors,
GREEDY against GREEDY), beside random play (``game.play_random``) in the same run, interleaved and each
the best of its repeats; the one-minute load average before and after is in the rows.
"""

from __future__ import annotations

import os

import numpy as np

from benchmarks._common import best_rate, decisions_rate, random_states
from tekkasim.bots import get_bot
from tekkasim.bots.loop import play_deal, timing
from tekkasim.rules import get_game
from tekkasim.rulesets.satat.bots import play_rounds

PAIRS = (("JANGARA", "SADA"), ("ATOUTE:difficulty=hard", "JANGARA"), ("ZORGE", "TANA"), ("GREEDY", "GREEDY"))
BOTS = ("RANDOM", "GREEDY", "KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA", "ATOUTE", "ZORGE")
ROUNDS_GOAL = 100_000
ZELZELA_GOAL_MS = 100.0


def _bot(name):
    return get_bot(name) if name.split(":")[0] in ("RANDOM", "ATOUTE", "ZORGE") else get_bot(name, ruleset="satat")


def _search_ms(name: str, rounds: int) -> tuple[float, int]:
    """Mean ms per decision (CPU) of bot ``name`` at seats bottom/top over whole rounds against JANGARA,
    played by the one play loop (``bots.loop``, the runner's seeds); its out-of-turn questions count."""
    game = get_game("satat")
    b, j = _bot(name), _bot("JANGARA")
    with timing(b, optional=True) as times:
        for r in range(rounds):
            seed = 9_000_000 + r
            play_deal(game.new_deal(seed), [b, j, b, j], seed)
    return 1000.0 * sum(times) / max(1, len(times)), len(times)


def run(quick: bool = False) -> list[dict]:
    rows = []
    game = get_game("satat")
    states = random_states(game, 300 if quick else 3000, 7, 50)
    for name in BOTS:
        rows.append(
            {
                "name": f"satat {name} decisions (Python path)",
                "value": decisions_rate(_bot(name), states),
                "unit": "decisions/s",
            }
        )
    _search_ms("ZELZELA", 1)  # compile / load the kernels and the solver
    for name in ("TANOOR", "TIZAB", "ZELZELA"):
        ms, n = _search_ms(name, 2 if quick else 12)
        row = {"name": f"satat {name} mean time per decision ({n} decisions)", "value": ms, "unit": "ms"}
        if name == "ZELZELA":
            row.update(
                {
                    "reference": f"{ZELZELA_GOAL_MS:g} ms goal",
                    "ratio": ms / ZELZELA_GOAL_MS,
                    "goal": f"<= {ZELZELA_GOAL_MS:g} ms mean per decision",
                }
            )
        rows.append(row)
    return rows + rounds_rows(quick)


def rounds_rows(quick: bool = False) -> list[dict]:
    """Whole first rounds per second of the compiled loop for each of ``PAIRS`` and of random play."""
    rows = []
    game = get_game("satat")
    load_before = os.getloadavg()[0]
    n = 2000 if quick else 40000
    game.play_random(10, 1)
    bots = {p: (_bot(p[0]), _bot(p[1])) for p in PAIRS}
    for bx, by in bots.values():
        play_rounds(bx, by, [1], 0)  # compile / load the kernels
    rnd, rates = 0.0, dict.fromkeys(PAIRS, 0.0)
    for rep in range(3):  # interleaved, so each pair and random play see the same machine
        rnd = max(rnd, best_rate(lambda k, r, rep=rep: game.play_random(k, (2 * rep + r) * k), n, repeats=1))
        for pair, (bx, by) in bots.items():
            rate = best_rate(
                lambda k, r, bx=bx, by=by, rep=rep: play_rounds(bx, by, np.arange(k) + (rep + 1) * k, rep % 2),
                n,
                repeats=1,
            )
            rates[pair] = max(rates[pair], rate)
    for (x, y), rate in rates.items():
        rows.append(
            {
                "name": f"satat compiled {x} vs {y} rounds",
                "value": rate,
                "unit": "rounds/s",
                "reference": "play_random (same run)",
                "ratio": rate / rnd,
                "goal": f">= {ROUNDS_GOAL:,} rounds/s per core",
            }
        )
    rows.append({"name": "satat play_random rounds", "value": rnd, "unit": "rounds/s"})
    rows.append({"name": "load average (1 min) before the rounds", "value": load_before, "unit": ""})
    rows.append({"name": "load average (1 min) after the rounds", "value": os.getloadavg()[0], "unit": ""})
    return rows
