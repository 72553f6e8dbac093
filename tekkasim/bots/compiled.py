"""Compiled whole-deal play for bots with a compiled form (RANDOM, GREEDY, KADO ... JANGARA and their kin).

>>> from tekkasim.rules import get_game
>>> out = play_tables(get_game("feskot"), "JANGARA", "SADA", [1, 2, 3], table=0)
>>> out["returns"].shape, bool((out["returns"].max(axis=1) == 7).all())
((3, 2), True)

``play_tables(game, x_bot, y_bot, seeds, table)`` plays the first deal (a Satat round) of each board seed
at one table of a duplicate pair: team X sits bottom/top at table 0 and right/left at table 1 (rules.md
seats), in the compiled loop its ruleset names (``Ruleset.loop``: a module with
``play_tables(game, px, py, seeds, table)`` and ``RANDOM_FORM``). Decision ``i`` of the deal of seed ``s``
is made with ``new_rng(mix_seed(s, table, i))``, so the same deals played through the State API
(``bots.loop.play_deal``) give the same actions (tested per ruleset): the tournament runner's compiled
blocks. A bot's compiled form in a ruleset is ``bot.compiled_form(ruleset)``, its one name everywhere.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import numpy as np

from ..errors import BotError
from ..rules.base import MAX_SEED, Game, check_seed
from .base import Bot


def compiled_loop(ruleset: str) -> ModuleType | None:
    """The module of ``ruleset``'s compiled whole-deal loop, or None when it has none."""
    from ..rulesets import get_ruleset

    target = get_ruleset(ruleset).loop
    return None if target is None else importlib.import_module(target)


def compiled_form(bot: Bot, ruleset: str) -> np.ndarray | None:
    """The parameter vector with which ``bot`` (built for ``ruleset``) plays in that ruleset's compiled
    whole-deal loop, or None when it has none (search bots, ORACLE, users' bots, RANDOM in Shengji)."""
    return bot.compiled_form(ruleset) if bot.supports(ruleset) else None


def compiled_params(bot: Bot | str, ruleset: str | None = None) -> np.ndarray | None:
    """The compiled parameter vector of ``bot`` (a name, given its ``ruleset``'s implementation, or a Bot)
    in ``ruleset`` (default: the first ruleset it plays), or None when it has none there."""
    from ..rules import ruleset_names
    from . import get_bot

    bot = get_bot(bot, ruleset=ruleset)
    return compiled_form(bot, ruleset or (bot.rulesets or ruleset_names())[0])


def _seed_array(seeds) -> np.ndarray:
    """The board seeds as uint64, each checked by ``check_seed``; a ``range`` or an integer array is
    checked by its bounds (the same seeds pass), anything else seed by seed."""
    if isinstance(seeds, range):
        if len(seeds) == 0 or (0 <= min(seeds[0], seeds[-1]) and max(seeds[0], seeds[-1]) <= MAX_SEED):
            return np.arange(seeds.start, seeds.stop, seeds.step, dtype=np.int64).astype(np.uint64)
    elif isinstance(seeds, np.ndarray) and seeds.ndim == 1 and seeds.dtype.kind in "iu":
        if seeds.size == 0 or (int(seeds.min()) >= 0 and int(seeds.max()) <= MAX_SEED):
            return seeds.astype(np.uint64)
    return np.array([check_seed(s) for s in seeds], np.uint64)


def play_tables(game: Game, x_bot: Bot | str, y_bot: Bot | str, seeds, table: int) -> dict:
    """The first deal (a Satat round) of each board seed at ``table`` (0 or 1), team X = ``x_bot``, team
    Y = ``y_bot`` (Bots, or names given ``game``'s implementation), in the ruleset's compiled loop: the
    actions ``bots.loop.play_deal`` gives through the State API. ``{"returns": (n, 2) for team A
    (bottom/top) and B (right/left), "n_actions": (n,)}`` and either ``"actions"`` (n, L) integer actions,
    -1 padded, or, for multi-card plays (Shengji), ``"masks"`` (n, L, 2): action i as its ``(one, two)``
    multiset masks."""
    from . import get_bot

    loop = compiled_loop(game.name)
    if loop is None:
        raise BotError(f"{game.name} has no compiled whole-deal loop")
    if table not in (0, 1):
        raise BotError(f"table must be 0 or 1, not {table!r}")
    forms = []
    for bot in (x_bot, y_bot):
        if isinstance(bot, Bot) and not bot.supports(game.name):
            raise BotError(f"bot {bot.label} does not play {game.name}: get_bot({bot.name!r}, ruleset={game.name!r})")
        bot = get_bot(bot, ruleset=game.name)
        form = bot.compiled_form(game.name)
        if form is None:
            raise BotError(f"bot {bot.label} has no compiled form in {game.name}")
        forms.append(form)
    return loop.play_tables(game, forms[0], forms[1], _seed_array(seeds), table)


__all__ = ["compiled_form", "compiled_loop", "compiled_params", "play_tables"]
