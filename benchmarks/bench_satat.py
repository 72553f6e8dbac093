"""Satat throughput: random rounds per second on one core in the compiled kernel (draw, deal, random
Troupe, random rule-following play to the end of the round), against Feskot's random deals in the same run
(goal: Satat within 1.5x of Feskot), and against the pure-Python twin and the Python State API."""

from __future__ import annotations

from tekkasim.rules import get_game
from tekkasim.rulesets.satat import reference

from ._common import best_rate as _rate
from ._common import state_api as _state_api


def run(quick: bool) -> list[dict]:
    satat = get_game("satat")
    satat.play_random(10, 0)  # compile or load the cache outside the timing
    n = 20_000 if quick else 1_000_000
    rate = _rate(lambda k, r: satat.play_random(k, 1000 + r * k), n)
    rows = []
    try:
        feskot = get_game("feskot")
        feskot.play_random(10, 0)
        feskot_rate = _rate(lambda k, r: feskot.play_random(k, 1000 + r * k), n)
    except (ImportError, NotImplementedError):
        feskot_rate = None
    row = {"name": "random satat rounds (compiled, one core)", "value": rate, "unit": "rounds/s"}
    if feskot_rate:
        row |= {
            "reference": "feskot random deals, same run",
            "ratio": feskot_rate / rate,
            "goal": "ratio <= 1.5 (Satat within 1.5x of Feskot)",
        }
        rows.append(row)
        rows.append({"name": "random feskot deals (compiled, same run)", "value": feskot_rate, "unit": "deals/s"})
    else:
        rows.append(row | {"note": "feskot not available: Satat alone"})
    m = 300 if quick else 3000
    ref_rate = _rate(lambda k, r: reference.play_random(k, 5000 + r * k), m, repeats=1)
    rows.append(
        {
            "name": "random satat rounds (pure-Python twin)",
            "value": ref_rate,
            "unit": "rounds/s",
            "reference": "compiled kernel (ratio = compiled speed-up)",
            "ratio": rate / ref_rate,
        }
    )
    k = 50 if quick else 500
    api_rate = _rate(lambda j, r: _state_api(satat, j, r), k, repeats=1)
    rows.append({"name": "random satat rounds (Python State API)", "value": api_rate, "unit": "rounds/s"})
    return rows
