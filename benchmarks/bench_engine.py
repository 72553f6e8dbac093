"""Engines through the host: decisions per second of a trivial engine (the reference engine,
examples/engine_first_legal.py: the first legal action) playing Feskot in two seats against RANDOM,
deals through the play loop the tournaments use (``tournament.play.play_deal_state``), which hands a Feskot
or Tekka deal with engines and compiled seats to the host's loop on the state's arrays
(``bots.engines.table52``). Beside it in the same run: the same deals through the State API loop (a
``View`` and ``decide`` at every decision, the path before ``table52``).

Goal (issue 26): >= 20,000 decisions/s on one core, >= 400 Feskot deals/s with the engine in two seats.
The host and the engine take turns (one write and one read per decision), so together they use about one
core: the goal's rows are measured with both pinned to the CPU the host is on (``sched_setaffinity``; a
wake-up across the cores of these VMs costs far more than a switch on one), and the first rate also
before the pinning, with the cores left to the scheduler. The rows split the CPU time per decision
between the host (this process) and the engine (its ``/proc`` times), and give the wall-clock rates.
Reference: the same deals with the same rule in process (a Python function bot), whose rate bounds what
the State API loop allows any engine; the protocol's CPU per decision is the host's CPU beyond that
reference plus the engine's. Also timed alone: building the engine seats' decide messages along whole
deals, the observation brought up to date as the host does, against each built afresh. Best of the
repeats; the load average is in the rows, as the machine may be shared.

Two references measured in the same run locate the protocol's own cost apart from the reference engine's
(its ``json.loads`` of each message is most of its CPU): a minimal engine that finds the id and
the first legal action in the line's bytes without parsing the JSON (the least any engine can cost; not
an example to follow), through the same host and deals; and the bare pipe round trip, a fixed answer to
each of the same decide lines, which no engine behind a pipe can beat on the same machine at that moment.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tekkasim.bots import View, decide, get_bot
from tekkasim.bots.engines import affinity, decide_message, engine_process, host, stop_engines
from tekkasim.bots.loop import decision_seed
from tekkasim.bots.loop import run as run_state_api
from tekkasim.rules import get_game
from tekkasim.tournament.play import play_deal_state

from ._common import best_rate

REFERENCE = Path(__file__).resolve().parents[1] / "examples" / "engine_first_legal.py"


# The first legal action from the decide line's bytes, no JSON parsed (relies on the host's layout): the
# protocol's floor, beside the reference engine.
MINIMAL_ENGINE = r"""
import os, re
ID, LEGAL = re.compile(rb'"id":(-?\d+)'), re.compile(rb'"legal":\["([^"]*)"')
rest = b""
while True:
    chunk = os.read(0, 1 << 16)
    if not chunk:
        break
    *lines, rest = (rest + chunk).split(b"\n")
    for line in lines:
        if line.startswith(b'{"type":"decide"'):
            os.write(1, b'{"type":"action","id":%s,"action":"%s"}\n' % (ID.search(line)[1], LEGAL.search(line)[1]))
        elif b'"hello"' in line:
            os.write(1, b'{"type":"hello","protocol":1,"name":"MINIMAL","rulesets":["feskot","tekka"]}\n')
        elif b'"quit"' in line:
            raise SystemExit
"""

# Answers a fixed line to each line it reads: the bare round trip
ECHO = r"""
import os
while os.read(0, 1 << 16):
    os.write(1, b'{"type": "action", "id": 1, "action": "2C"}\n')
"""


def _round_trips(lines: list[bytes], repeats: int = 3) -> float:
    """Round trips per second through a pipe to a child that answers each line at once (best of repeats)."""
    child = subprocess.Popen([sys.executable, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    out, back = child.stdin.fileno(), child.stdout.fileno()
    best = 0.0
    for _ in range(repeats):
        t = time.perf_counter()
        for line in lines:
            os.write(out, line)
            os.read(back, 1 << 16)
        best = max(best, len(lines) / (time.perf_counter() - t))
    child.stdin.close()
    child.wait()
    return best


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

    # a tournament with the engine, one worker: pinned with its engine to one core (the default) and not,
    # runs alternated (first: this process must not be pinned, its workers would inherit the one core)
    boards = 30 if quick else 300
    by_pin: dict[bool, float] = {True: 0.0, False: 0.0}
    for pin in (False, True) * 2:
        by_pin[pin] = max(by_pin[pin], _tournament_deals(command, boards, pin))
    play(engine)(3, 99)  # start the engine (a run stops this process's engines), load the kernels
    play(local)(3, 99)
    pid = engine_process(command).proc.pid
    free_deals = best_rate(play(engine), deals, repeats=2)  # host and engine where the scheduler puts them
    # The rest on one core, the goal's measure: host and engine take turns, and a wake-up on the other
    # core of this VM costs far more than a switch on the same one (the engines started below inherit it).
    # The pinning is the library's, as a run in one process does it (bots.engines.affinity.pinned).
    with affinity.pinned() as core:
        if core is None:
            raise SystemExit("bench_engine: the engine rows need sched_setaffinity (Linux) and pinning on")
        rows = _on_one_core(game, deals, quick, command, engine, other, local, play, pid, free_deals, load0)
        rows += _tournament_rows(by_pin, boards)
        for ruleset, options in (("tekka", {}), ("tekka", {"raises": True}), ("satat", {})):
            rows += _ruleset_rows(ruleset, command, 30 if quick else 300, options)
    return rows


def _tournament_deals(command: str, boards: int, pin: bool) -> float:
    """Deals per second of a Feskot tournament of the engine against RANDOM on one worker (start-up and
    storing included), its worker pinned with its engine (``pin``) or left to the scheduler."""
    from tekkasim.tournament import Config, run_tournament

    saved = {key: os.environ.get(key) for key in (affinity.PIN_ENV, host.LOG_ENV)}  # a run sets the log dir
    os.environ[affinity.PIN_ENV] = "1" if pin else "0"
    try:
        cfg = Config.build(ruleset="feskot", bots=[f"engine:{command}", "RANDOM"], boards=boards, seed=7, workers=1)
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            run_tournament(cfg, Path(tmp) / "run", quiet=True)
            return 2 * boards / (time.perf_counter() - t0)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _tournament_rows(by_pin: dict[bool, float], boards: int) -> list[dict]:
    return [
        {
            "name": "tournament, 1 worker, engine vs RANDOM: Feskot deals/s",
            "value": by_pin[True],
            "unit": "deals/s",
            "reference": "the worker left to the scheduler",
            "ratio": by_pin[True] / by_pin[False],
            "note": f"worker and engine pinned to one core (the default); {2 * boards} deals, best of 2, alternated",
        },
        {
            "name": "the same, TEKKASIM_PIN_ENGINES=0",
            "value": by_pin[False],
            "unit": "deals/s",
        },
    ]


def _ruleset_rows(ruleset: str, command: str, deals: int, options: dict) -> list[dict]:
    """The reference engine in two seats against RANDOM in ``ruleset`` with ``options``, on this (pinned)
    core: decisions/s and CPU per decision (Tekka: the host's deal loop, calls included; with option
    ``raises`` the engine, first legal, never asks for a raise but answers RANDOM's requests, and its
    decisions after a raise see it; Satat: the State API loop)."""
    game = get_game(ruleset, **options)
    engine = get_bot(f"engine:{command}", ruleset=ruleset)
    other = get_bot("RANDOM", ruleset=ruleset)

    def go(n, r):
        for i in range(n):
            play_deal_state(game.new_deal(r * n + i), [engine, other, engine, other], r * n + i, 0)

    go(3, 99)
    pid = engine_process(command).proc.pid
    ident0, cpu0, eng0 = engine._ident, time.process_time(), _proc_cpu(pid)
    go(deals, 0)
    decisions = engine._ident - ident0
    host_us = (time.process_time() - cpu0) / decisions * 1e6
    engine_us = (_proc_cpu(pid) - eng0) / decisions * 1e6
    rate = best_rate(go, deals, repeats=3) * decisions / deals
    title = ruleset.capitalize() + "".join(f", option {key}" for key in options)
    return [
        {
            "name": f"{title}: engine decisions/s (first legal, 2 seats)",
            "value": rate,
            "unit": "decisions/s",
            "note": f"{decisions / deals:.1f} engine decisions a deal, {deals} deals, one core",
        },
        {
            "name": f"{title}: host CPU per engine decision",
            "value": host_us,
            "unit": "us",
            "note": "play loop included",
        },
        {"name": f"{title}: engine CPU per decision", "value": engine_us, "unit": "us"},
    ]


def _on_one_core(game, deals, quick, command, engine, other, local, play, pid, free_deals, load0) -> list[dict]:
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
    protocol_us = (host_s - local_s) / decisions * 1e6
    protocol_us += engine_us
    engine_deals = best_rate(play(engine), deals, repeats=3)
    local_deals = best_rate(play(local), deals, repeats=2)
    with tempfile.NamedTemporaryFile("w", suffix="_minimal_engine.py", delete=False) as f:
        f.write(MINIMAL_ENGINE)
    minimal_command = f"{sys.executable} {f.name}"
    try:
        minimal = get_bot(f"engine:{minimal_command}", ruleset="feskot")
        play(minimal)(3, 99)
        minimal_deals = best_rate(play(minimal), deals, repeats=3)
    finally:
        stop_engines()
        os.unlink(f.name)
    # the same decide lines as the engine seats get, through a bare round trip
    lines = []

    def keep_line(bot, line, allowed, *rest):  # the first legal action, as the reference engine answers
        lines.append(line)
        return next(iter(allowed.values()))

    exchange, host.EngineBot._exchange = host.EngineBot._exchange, keep_line
    try:
        play(engine)(min(deals, 100), 0)
    finally:
        host.EngineBot._exchange = exchange
    pipe_rate = _round_trips(lines * 10)

    def play_state_api(n, r):  # every decision through a View and decide, as before table52
        seats = [engine, other, engine, other]
        for i in range(n):
            seed = r * n + i
            state = game.new_deal(seed)
            run_state_api(state, lambda s, k, opt: decide(seats[s], state, s, decision_seed(seed, 0, k)))  # noqa: B023

    api_deals = best_rate(play_state_api, deals, repeats=2)
    per_deal = decisions / deals
    free_rate = free_deals * per_deal

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
    engine_rate = engine_deals * per_deal
    return [
        {
            "name": "engine decisions/s (first legal, Feskot)",
            "value": engine_rate,
            "unit": "decisions/s",
            "reference": "the bare pipe round trip",
            "ratio": engine_rate / pipe_rate,
            "goal": ">= 20,000 on one core",
            "note": f"host and engine on one core; wall clock, play loop of all four seats included; {load}",
        },
        {
            "name": "engine decisions/s, cores left to the scheduler",
            "value": free_rate,
            "unit": "decisions/s",
            "reference": "on one core",
            "ratio": free_rate / engine_rate,
            "note": "measured first, before the pinning",
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
            "name": "minimal engine (no JSON parsed): decisions/s",
            "value": minimal_deals * per_deal,
            "unit": "decisions/s",
            "reference": "the bare pipe round trip",
            "ratio": minimal_deals * per_deal / pipe_rate,
            "note": "the host and the protocol with an engine that costs next to nothing",
        },
        {
            "name": "bare pipe round trips/s (same decide lines)",
            "value": pipe_rate,
            "unit": "round trips/s",
            "note": f"a fixed answer to each line; {load}",
        },
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
