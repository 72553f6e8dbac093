"""Search bots on one core: decisions per second of TANOOR, TIZAB, ZELZELA and ORACLE over whole Feskot and
Tekka deals (every seat the same bot, all decisions timed: Prime, calls, cards, raise answers), and
ZELZELA's mean milliseconds per decision over whole Feskot games at its default setting (goal: at most
100 ms), against GREEDY as the reference decision time. Times are the process's CPU time (one core),
so that other processes on a shared machine do not count.

Then, in all four rulesets, ZELZELA with ``time_ms=T`` (the search core's deadline, ``pimc.Limit``): the
99th percentile of its wall-clock decision times over whole deals against the goal ``1.5 T`` (wall time,
since the deadline is wall time; other processes on the machine inflate it).

Deals ``0..n-1`` (seeds) at table 0, played by the one play loop (``bots.loop.play_deal``: the runner's
seats and decision seeds) and timed by ``bots.loop.timing`` (every decision a seat is asked to move,
forced ones too). Each bot's first decision (numba compile or cache load, solver table allocation) is made
on another deal before the clock starts.
"""

from __future__ import annotations

import time

import numpy as np

from tekkasim.bots import decide, get_bot
from tekkasim.bots.loop import play_deal, timing
from tekkasim.rules import get_game

ZELZELA_GOAL_MS = 100.0
TIME_LIMITS_MS = (10, 50)  # time_ms settings whose p99 decision time is checked against 1.5 x T


def _decision_times(game, bot, deals: int, clock=time.process_time) -> list[float]:
    """Seconds (by ``clock``) of every decision ``bot`` makes to move in ``deals`` whole deals with it at
    every seat."""
    with timing(bot, clock=clock) as times:
        for seed in range(deals):
            play_deal(game.new_deal(seed), [bot] * 4, seed)
    return times


def _timed_deals(game, bot, deals: int) -> tuple[int, float]:
    """(decisions, CPU seconds of this process) of ``deals`` whole deals with ``bot`` at every seat. CPU
    time, not wall time: on a shared machine the wall clock also counts other processes' turns."""
    warm = game.new_deal(10**6)
    decide(bot, warm, warm.current_player(), 1)
    times = _decision_times(game, bot, deals)
    return len(times), sum(times)


def run(quick: bool) -> list[dict]:
    rows = []
    deals = (
        {"TANOOR": 3, "TIZAB": 3, "ZELZELA": 3, "ORACLE": 3}
        if quick
        else {"TANOOR": 20, "TIZAB": 20, "ZELZELA": 20, "ORACLE": 20}
    )
    greedy_ms = {}
    for ruleset in ("feskot", "tekka"):
        game = get_game(ruleset)
        n, spent = _timed_deals(game, get_bot("GREEDY", ruleset=game.name), 5 if quick else 20)
        greedy_ms[ruleset] = 1000 * spent / n
        for name, count in deals.items():
            n, spent = _timed_deals(game, get_bot(name, ruleset=game.name), count)
            rows.append(
                {
                    "name": f"{ruleset} {name} decisions/s ({count} deals, {n} decisions)",
                    "value": n / spent,
                    "unit": "decisions/s",
                }
            )
            if ruleset == "feskot" and name == "ZELZELA":
                ms = 1000 * spent / n
                rows.append(
                    {
                        "name": f"feskot ZELZELA mean ms/decision ({n} decisions, whole games)",
                        "value": ms,
                        "unit": "ms",
                        "reference": "GREEDY ms/decision",
                        "ratio": ms / greedy_ms["feskot"],
                        "goal": f"<= {ZELZELA_GOAL_MS:.0f} ms",
                    }
                )
    rows.extend(time_limit_rows(quick))
    return rows


def time_limit_rows(quick: bool) -> list[dict]:
    """p99 of ZELZELA's wall-clock decision time with ``time_ms=T``, per ruleset and T."""
    rows = []
    for ruleset in ("feskot", "tekka", "satat", "shengji"):
        game = get_game(ruleset)
        for limit in TIME_LIMITS_MS:
            bot = get_bot("ZELZELA", ruleset=ruleset, time_ms=limit, worlds=4096)
            play_deal(game.new_deal(10**6), [bot] * 4, 10**6)  # every kernel loaded, the solver's table made
            times = [1000 * t for t in _decision_times(game, bot, 2 if quick else 8, time.perf_counter)]
            p99 = float(np.percentile(times, 99))
            rows.append(
                {
                    "name": f"{ruleset} ZELZELA:time_ms={limit} p99 ms/decision ({len(times)} decisions)",
                    "value": p99,
                    "unit": "ms",
                    "reference": "time_ms",
                    "ratio": p99 / limit,
                    "goal": "<= 1.5",
                }
            )
    return rows
