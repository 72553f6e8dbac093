"""The tournament runner's costs: overhead per deal against the bare compiled loop, scaling from one
worker to two, and SQLite writes.

* Overhead: GREEDY against JANGARA on Feskot, a compiled match-up. The bare loop is
  ``bots.compiled.play_boards`` for both tables of every board in this process; the runner is
  ``run_tournament`` with one worker into a fresh directory (blocks, a worker process, payloads, the
  pipe, SQLite), timed from the call to its return with the kernels already compiled. Goal: < 10%.
* Scaling: the same run with 1 and 2 workers, for the compiled match-up and for a match-up played
  through the State API (GREEDY against KADO with ``use_compiled=False``). Goal: >= 1.8x on two cores.
* SQLite: rows of the compiled match-up's size stored per second in blocks of 500 (one transaction each).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from tekkasim.bots import get_bot
from tekkasim.bots.compiled import play_boards
from tekkasim.rules import get_game
from tekkasim.tournament import Config, Store, run_tournament
from tekkasim.tournament.play import Job, play_block


def _bare(game, x, y, boards: int, seed: int) -> float:
    seeds = list(range(seed, seed + boards))
    t0 = time.perf_counter()
    play_boards(game, x, y, seeds, 0)
    play_boards(game, x, y, seeds, 1)
    return time.perf_counter() - t0


def _runner(bots: str, boards: int, seed: int, workers: int, use_compiled: bool = True) -> float:
    cfg = Config.build(ruleset="feskot", bots=bots, boards=boards, seed=seed, workers=workers)
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        run_tournament(cfg, Path(d) / "run", quiet=True, use_compiled=use_compiled)
        return time.perf_counter() - t0


def _sqlite_rate(rows: list[tuple], copies: int) -> float:
    with tempfile.TemporaryDirectory() as d:
        store = Store.create_or_resume(Path(d) / "run", {"bench": 1})
        t0 = time.perf_counter()
        n = 0
        for c in range(copies):
            batch = [(r[0], r[1] + c * 100_000, *r[2:]) for r in rows]
            for i in range(0, len(batch), 500):
                n += store.add(batch[i : i + 500])
        rate = n / (time.perf_counter() - t0)
        store.close()
    return rate


def run(quick: bool) -> list[dict]:
    game = get_game("feskot")
    x, y = get_bot("GREEDY"), get_bot("JANGARA")
    boards = 20_000 if quick else 200_000
    _bare(game, x, y, 10, 1)  # compile or load outside the timings
    _runner("GREEDY,JANGARA", 10, 1, 1)
    rows = []

    bare = min(_bare(game, x, y, boards, 7) for _ in range(1 if quick else 3))
    one = min(_runner("GREEDY,JANGARA", boards, 7, 1) for _ in range(1 if quick else 3))
    deals = 2 * boards
    rows.append({"name": "feskot GREEDY vs JANGARA, bare compiled loop", "value": deals / bare, "unit": "deals/s"})
    rows.append(
        {
            "name": "feskot GREEDY vs JANGARA, tournament runner (1 worker, stored)",
            "value": deals / one,
            "unit": "deals/s",
            "reference": "bare compiled loop",
            "ratio": one / bare,
            "goal": "runner overhead < 10% (ratio < 1.10)",
        }
    )

    two = min(_runner("GREEDY,JANGARA", boards, 7, 2) for _ in range(1 if quick else 3))
    rows.append(
        {
            "name": "compiled match-up, 2 workers",
            "value": deals / two,
            "unit": "deals/s",
            "reference": "1 worker",
            "ratio": one / two,
            "goal": ">= 1.8x",
        }
    )

    py_boards = 200 if quick else 1500
    py_one = _runner("GREEDY,KADO", py_boards, 7, 1, use_compiled=False)
    py_two = _runner("GREEDY,KADO", py_boards, 7, 2, use_compiled=False)
    rows.append(
        {"name": "State API match-up (GREEDY vs KADO), 1 worker", "value": 2 * py_boards / py_one, "unit": "deals/s"}
    )
    rows.append(
        {
            "name": "State API match-up (GREEDY vs KADO), 2 workers",
            "value": 2 * py_boards / py_two,
            "unit": "deals/s",
            "reference": "1 worker",
            "ratio": py_one / py_two,
            "goal": ">= 1.8x",
        }
    )

    cfg = Config.build(ruleset="feskot", bots="GREEDY,JANGARA", boards=2000, seed=7)
    sample = play_block(Job.from_config(cfg), (0, 0, 2000))
    stored = _sqlite_rate(sample, 2 if quick else 10)
    rows.append(
        {
            "name": "SQLite stored tables (deals) per second, blocks of 500",
            "value": stored,
            "unit": "rows/s",
            "reference": "runner, 2 workers",
            "ratio": stored / (deals / two),
            "goal": "never the bottleneck (ratio > 1)",
        }
    )
    return rows
