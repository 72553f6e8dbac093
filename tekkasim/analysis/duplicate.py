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
    ruleset: str, x: str | Bot, y: str | Bot, start: int, n: int, options: dict | None = None, compiled: bool = True
) -> np.ndarray:
    """X's margin on each of the ``n`` pairs of board seeds ``start .. start+n-1`` (float array).
    ``compiled=False`` plays every decision through the State API (the same results, slower)."""
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
        workers=1,
    )
    margins = np.zeros(n)
    for _p, board, _t, xr, yr, *_ in play_block(Job.from_config(cfg, use_compiled=compiled), (0, 0, n)):
        margins[board] += xr - yr
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
