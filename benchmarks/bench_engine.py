"""Engines through the host: decisions per second of a trivial engine (the reference engine,
examples/engine_first_legal.py: the first legal action) playing Feskot in two seats against RANDOM,
deals through the State API loop the tournaments use (``tournament.play.play_deal_state``).

Goal (issue 26): >= 20,000 decisions/s on one core, >= 400 Feskot deals/s with the engine in two seats.
The host and the engine take turns (one write and one read per decision), so together they use about one
core; the rows split the CPU time per decision between the host (this process) and the engine (its
``/proc`` times), and give the wall-clock rates. Reference: the same deals with the same rule in process
(a Python function bot), whose rate bounds what the State API loop allows any engine. Also timed alone:
building one decide message (the host's share of the protocol). Best of the repeats; the load average is
in the rows, as the machine may be shared.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from tekkasim.bots import View, get_bot
from tekkasim.bots.engines import decide_message, engine_process, stop_engines
from tekkasim.rules import get_game
from tekkasim.tournament.play import play_deal_state

from ._common import best_rate

REFERENCE = Path(__file__).resolve().parents[1] / "examples" / "engine_first_legal.py"


def _first_legal(view, rng):
    """The reference engine's rule, in process."""
    return None if view.optional else view.legal[0]


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(quick: bool = False) -> list[dict]:
    game = get_game("feskot")
    deals = 30 if quick else 300
    command = f"{sys.executable} {REFERENCE}"
    engine = get_bot(f"engine:{command}", ruleset="feskot")
    other = get_bot("RANDOM")
    local = get_bot(_first_legal)
    load0 = os.getloadavg()[0]

    def play(bot):
        def go(n, r):
            for i in range(n):
                play_deal_state(game.new_deal(r * n + i), [bot, other, bot, other], r * n + i, 0)

        return go

    play(engine)(3, 99)  # start the engine, load the kernels
    pid = engine_process(command).proc.pid
    ident0, cpu0, eng0 = engine._ident, time.process_time(), _proc_cpu(pid)
    play(engine)(deals, 0)
    decisions = engine._ident - ident0
    host_us = (time.process_time() - cpu0) / decisions * 1e6
    engine_us = (_proc_cpu(pid) - eng0) / decisions * 1e6
    engine_deals = best_rate(play(engine), deals, repeats=2)
    local_deals = best_rate(play(local), deals, repeats=2)
    per_deal = decisions / deals

    state = game.new_deal(1)
    for _ in range(20):
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()

    def build(n, r):
        for i in range(n):
            decide_message(View(state, seat), i, "feskot", game.options, 100, i)

    message_rate = best_rate(build, 2000 if not quick else 200, repeats=3)
    stop_engines()
    load = f"load {load0:.2f} -> {os.getloadavg()[0]:.2f}"
    return [
        {
            "name": "engine decisions/s (first legal, Feskot)",
            "value": engine_deals * per_deal,
            "unit": "decisions/s",
            "goal": ">= 20,000 on one core",
            "note": load,
        },
        {
            "name": "engine in two seats: Feskot deals/s",
            "value": engine_deals,
            "unit": "deals/s",
            "reference": "the same rule in process",
            "ratio": engine_deals / local_deals,
            "goal": ">= 400",
        },
        {"name": "in process, same rule: Feskot deals/s", "value": local_deals, "unit": "deals/s"},
        {"name": "host CPU per engine decision", "value": host_us, "unit": "us", "note": "play loop included"},
        {"name": "engine CPU per decision", "value": engine_us, "unit": "us"},
        {"name": "decide messages built/s (host side)", "value": message_rate, "unit": "messages/s"},
    ]
