"""Duplicate pairs of two bots and the Elo of their mean pair score (runs.md).

A pair plays board seed ``s`` twice: team X (two copies of bot ``x``) at bottom/top at table 0 and at
right/left at table 1, team Y the other seats. X's margin is its total returns over both tables minus
Y's. Two bots that both have a compiled form in the ruleset play in ``bots.compiled.play_tables``;
everything else plays through the tournament runner's ``play_block`` (the same seats and seeds, so both
paths give the same margins).
"""

from __future__ import annotations

import numpy as np

from ..bots import get_bot
from ..bots.base import Bot
from ..errors import TekkasimError
from ..ratings import score_elo


class AnalysisError(TekkasimError):
    """An analysis asked for something it cannot give (unknown parameter or feature, impossible target)."""


def _compiled(bot: Bot, ruleset: str) -> bool:
    from ..bots.compiled import compiled_form

    return compiled_form(bot, ruleset) is not None


def pair_margins(
    ruleset: str,
    x: str | Bot,
    y: str | Bot,
    start: int,
    n: int,
    options: dict | None = None,
    compiled: bool = True,
    workers: int = 1,
) -> np.ndarray:
    """X's margin on each of the ``n`` pairs of board seeds ``start .. start+n-1`` (float array).
    ``compiled=False`` plays every decision through the State API (the same results, slower). ``workers``
    > 1 plays the pairs that are not compiled on that many local processes (the tournament runner's
    backend: its watchdog, fault lines and clean stop); every board is seeded by itself, so the margins
    are the same for any number of workers."""
    from ..rules import get_game

    game = get_game(ruleset, **(options or {}))
    bx, by = get_bot(x, ruleset=game.name), get_bot(y, ruleset=game.name)
    if compiled and _compiled(bx, game.name) and _compiled(by, game.name):
        from ..bots.compiled import play_tables

        seeds = range(start, start + n)
        r0 = play_tables(game, bx, by, seeds, 0)["returns"]
        r1 = play_tables(game, bx, by, seeds, 1)["returns"]
        return (r0[:, 0] + r1[:, 1]) - (r0[:, 1] + r1[:, 0])
    from ..tournament import Config, Job, play_block

    cfg = Config.build(
        ruleset=game.name,
        options=dict(game.options),
        bots=[bx, by],  # the bot objects: a user's class or engine is no registry name
        boards=n,
        seed=start,
        schedule="gauntlet",
        workers=max(1, workers),
    )
    job = Job.from_config(cfg, use_compiled=compiled)
    margins = np.zeros(n)
    if workers <= 1 or n < 2:
        from ..bots.engines import affinity

        # this process hosts the engines seated: with them on one core for the run (bots.engines.affinity)
        with affinity.pinned(any(b.kind == "engine" for b in (bx, by))):
            for _p, board, _t, xr, yr, *_ in play_block(job, (0, 0, n)):
                margins[board] += xr - yr
        return margins
    from ..tournament.backends import run_local

    # small blocks (about eight per worker) keep both cores busy to the end of a slow search pairing
    size = max(1, -(-n // (8 * workers)))
    blocks = [(0, b, min(n, b + size)) for b in range(0, n, size)]

    def on_rows(_block, rows) -> None:
        for _p, board, _t, xr, yr in rows.results():
            margins[board] += xr - yr

    def describe(block, board, table) -> str:
        where = f"board {board}, table {table}" if board is not None else f"boards {block[1]}..{block[2] - 1}"
        return f"{bx.label} against {by.label}, {where} (seed {start} + board)"

    run_local(job, blocks, workers, on_rows, cfg.timeout, describe)
    return margins


def pair_scores(margins: np.ndarray) -> np.ndarray:
    m = np.asarray(margins, float)
    return np.where(m > 0, 1.0, np.where(m < 0, 0.0, 0.5))


def elo_estimate(margins: np.ndarray) -> tuple[float, float, float]:
    """X's Elo over Y from its pair scores, with a 95% interval (``ratings.score_elo``): +-inf where the
    pairs give no bound (X won or lost every pair), never a stand-in number."""
    s = pair_scores(margins)
    if len(s) == 0:
        raise AnalysisError("no pairs to rate")
    return score_elo(s)
