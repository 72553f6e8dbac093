"""Engines through the host: decisions per second of a trivial engine (the reference engine,
examples/engine_first_legal.py: the first legal action) playing Feskot in two seats against RANDOM,
deals through the play loop the tournaments use (``tournament.play.play_deal_state``), which hands a Feskot
or Tekka deal with engines and compiled seats to the host's loop on the state's arrays
(``bots.engines.table52``). Beside it in the same run: the same deals through the State API loop (a
``View`` and ``decide`` at every decision, the path before ``table52``).

Goal (issue 26): >= 20,000 decisions/s on one core, >= 400 Feskot deals/s with the engine in two seats.
The host and the engine take turns (one write and one read per decision), so together they use about one
core; the rows split the CPU time per decision between the host (this process) and the engine (its
``/proc`` times), and give the wall-clock rates. Reference: the same deals with the same rule in process
(a Python function bot), whose rate bounds what the State API loop allows any engine; the protocol's CPU
per decision is the host's CPU beyond that reference plus the engine's. Also timed alone: building the
engine seats' decide messages along whole deals, the observation brought up to date as the host does,
against each built afresh. Best of the repeats; the load average is in the rows, as the machine may be
shared.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from tekkasim.bots import View, decide, get_bot
from tekkasim.bots.engines import decide_message, engine_process, stop_engines
from tekkasim.bots.loop import decision_seed
from tekkasim.bots.loop import run as run_state_api
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
    play(local)(3, 99)
    pid = engine_process(command).proc.pid
    ident0, cpu0, eng0 = engine._ident, time.process_time(), _proc_cpu(pid)
    play(engine)(deals, 0)
    decisions = engine._ident - ident0
    host_s = time.process_time() - cpu0
    engine_us = (_proc_cpu(pid) - eng0) / decisions * 1e6
    cpu0 = time.process_time()
    play(local)(deals, 0)
    local_s = time.process_time() - cpu0
    # the protocol's CPU per decision: what the host spends beyond the same deals played in process, plus
    # the engine's own; its inverse is the decisions one core can pass through the protocol
    protocol_us = (host_s - local_s) / decisions * 1e6 + engine_us
    engine_deals = best_rate(play(engine), deals, repeats=2)
    local_deals = best_rate(play(local), deals, repeats=2)

    def play_state_api(n, r):  # every decision through a View and decide, as before table52
        seats = [engine, other, engine, other]
        for i in range(n):
            seed = r * n + i
            state = game.new_deal(seed)
            run_state_api(state, lambda s, k, opt: decide(seats[s], state, s, decision_seed(seed, 0, k)))  # noqa: B023

    api_deals = best_rate(play_state_api, deals, repeats=2)
    per_deal = decisions / deals

    # building decide messages alone, along whole deals (first legal action at every seat): the engine
    # seats' decisions in order, the observation brought up to date as the host does, against each built
    # afresh (the reference; the lines are byte-identical, tests/test_engines.py)
    n_deals = 10 if quick else 60

    def build_chained(cached: bool):
        def go(n, r):
            done = 0
            while done < n:
                for s in range(n_deals):
                    state = game.new_deal(10_000 + s)
                    cache = {} if cached else None
                    while not state.is_terminal() and done < n:
                        seat = state.current_player()
                        if seat in (0, 2):
                            decide_message(View(state, seat), done, "feskot", game.options, 100, done, cache=cache)
                            done += 1
                        state.apply_action(state.legal_actions()[0])

        return go

    size = 0
    for s in range(n_deals):
        state = game.new_deal(10_000 + s)
        while not state.is_terminal():
            size += state.current_player() in (0, 2)
            state.apply_action(state.legal_actions()[0])
    message_rate = best_rate(build_chained(True), size, repeats=3)
    full_rate = best_rate(build_chained(False), size, repeats=3)
    stop_engines()
    load = f"load {load0:.2f} -> {os.getloadavg()[0]:.2f}"
    return [
        {
            "name": "engine decisions/s (first legal, Feskot)",
            "value": engine_deals * per_deal,
            "unit": "decisions/s",
            "goal": ">= 20,000 on one core",
            "note": f"wall clock, play loop of all four seats included; {load}",
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
        {
            "name": "engine in two seats, State API loop: deals/s",
            "value": api_deals,
            "unit": "deals/s",
            "note": "the path before table52, in the same run",
        },
        {
            "name": "engine in two seats: table52 over the State API loop",
            "value": engine_deals / api_deals,
            "unit": "x",
        },
        {
            "name": "host CPU per engine decision",
            "value": host_s / decisions * 1e6,
            "unit": "us",
            "note": "play loop included",
        },
        {"name": "engine CPU per decision", "value": engine_us, "unit": "us"},
        {
            "name": "protocol CPU per decision (host beyond in process + engine)",
            "value": protocol_us,
            "unit": "us",
            "note": f"{1e6 / protocol_us:,.0f} decisions per core-second through the protocol",
        },
        {
            "name": "decide messages built/s (host side, deals in order)",
            "value": message_rate,
            "unit": "messages/s",
            "reference": "each observation built afresh",
            "ratio": message_rate / full_rate,
        },
    ]
