"""Random Feskot and Tekka deals per second on one core: the compiled kernels against the pure-Python
reference (``tekkasim.rulesets.trick52.reference``), measured in the same run; and numba's compile time, cold and
from the cache, each in a fresh subprocess.

A Feskot "deal" is everything: seeded shuffle, packets 5/4/4, random Prime, uniformly random legal cards
until a team has 7 tricks (the default) or all 13 (``play_out``). A Tekka deal adds the random one-lap
auction and stops when the contract is decided.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import reference as ref

FESKOT_GOAL = 1_000_000
RATIO_GOAL = 60


def _rate(fn, n: int) -> float:
    t0 = time.perf_counter()
    fn(n)
    return n / (time.perf_counter() - t0)


def _best_rate(fn, n: int, repeats: int) -> float:
    return max(_rate(fn, n) for _ in range(repeats))


def _reference_rate(ruleset: str, n: int, **kw) -> float:
    def run(count):
        for i in range(count):
            ref.random_deal(ruleset, i, **kw)

    return _best_rate(run, n, 2)


_COMPILE_SNIPPET = """
import time
t0 = time.perf_counter()
from tekkasim.rules import get_game
get_game("feskot").play_random(10, 1)
t1 = time.perf_counter()
s = get_game("tekka", raises=True).new_deal(1)
while not s.is_terminal():
    s.apply_action(s.legal_actions()[0])
get_game("tekka").play_random(10, 1)
print(t1 - t0, time.perf_counter() - t0)
"""


def _compile_times() -> tuple[list[float], list[float]]:
    """Seconds to import and run the Feskot kernel (and then all Feskot/Tekka kernels), cold then cached."""
    out = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for _ in range(2):
            proc = subprocess.run(
                [sys.executable, "-c", _COMPILE_SNIPPET], env=env, capture_output=True, text=True, check=True
            )
            out.append([float(x) for x in proc.stdout.split()])
    return out[0], out[1]


def run(quick: bool) -> list[dict]:
    feskot, feskot13, tekka = get_game("feskot"), get_game("feskot", play_out=True), get_game("tekka")
    for game in (feskot, feskot13, tekka):
        game.play_random(100, 0)  # compile or load from the cache outside the timings
    n_fast = 200_000 if quick else 3_000_000
    n_ref = 300 if quick else 3_000
    repeats = 1 if quick else 3
    rows = []

    fast = _best_rate(lambda n: feskot.play_random(n, 1), n_fast, repeats)
    slow = _reference_rate("feskot", n_ref)
    rows.append(
        {
            "name": "feskot random deals, compiled kernel",
            "value": fast,
            "unit": "deals/s",
            "reference": "pure-Python reference",
            "ratio": fast / slow,
            "goal": f">= {FESKOT_GOAL:,} deals/s and >= {RATIO_GOAL}x the reference",
        }
    )
    rows.append({"name": "feskot random deals, pure-Python reference", "value": slow, "unit": "deals/s"})

    fast13 = _best_rate(lambda n: feskot13.play_random(n, 1), n_fast, repeats)
    slow13 = _reference_rate("feskot", n_ref, play_all=True)
    rows.append(
        {
            "name": "feskot play_out deals (13 tricks), compiled",
            "value": fast13,
            "unit": "deals/s",
            "reference": "pure-Python reference",
            "ratio": fast13 / slow13,
        }
    )
    rows.append({"name": "feskot play_out deals, pure-Python reference", "value": slow13, "unit": "deals/s"})

    fast_t = _best_rate(lambda n: tekka.play_random(n, 1), n_fast // 3, repeats)
    slow_t = _reference_rate("tekka", n_ref)
    rows.append(
        {
            "name": "tekka random deals, compiled",
            "value": fast_t,
            "unit": "deals/s",
            "reference": "pure-Python reference",
            "ratio": fast_t / slow_t,
        }
    )
    rows.append({"name": "tekka random deals, pure-Python reference", "value": slow_t, "unit": "deals/s"})

    def through_states(n):
        rng = 0
        for i in range(n):
            state = feskot.new_deal(i)
            while not state.is_terminal():
                legal = state.legal_actions()
                rng = (rng * 1103515245 + 12345) & 0x7FFFFFFF
                state.apply_action(legal[rng % len(legal)])

    rows.append(
        {
            "name": "feskot random deals through State (Python API)",
            "value": _best_rate(through_states, 100 if quick else 1000, 1),
            "unit": "deals/s",
        }
    )

    cold, warm = _compile_times()
    rows.append({"name": "cold start: import + compile feskot kernel", "value": cold[0], "unit": "s"})
    rows.append({"name": "cold start: import + compile all feskot/tekka", "value": cold[1], "unit": "s"})
    rows.append({"name": "cached start: import + load feskot kernel", "value": warm[0], "unit": "s"})
    rows.append({"name": "cached start: import + load all feskot/tekka", "value": warm[1], "unit": "s"})
    return rows
