"""Compiled whole-deal play for bots with a compiled form (RANDOM, GREEDY, KADO ... JANGARA).

>>> from tekkasim.rules import get_game
>>> out = play_boards(get_game("feskot"), "JANGARA", "SADA", [1, 2, 3], table=0)
>>> out["returns"].shape, bool((out["returns"].max(axis=1) == 7).all())
((3, 2), True)

``play_boards(game, x_bot, y_bot, seeds, table)`` plays one Feskot or Tekka deal per board seed at one
table of a duplicate pair: team X sits bottom/top at table 0 and right/left at table 1 (rules.md seats;
the first-dealt/first-asked seat is bottom, Tekka deals start 0-0). Decision ``i`` of the deal of seed
``s`` is made with ``new_rng(mix_seed(s, table, i))``, so the same deals played through the State API
with ``decide(bot, state, seat, mix_seed(s, table, i))`` give the same actions (tested).

Determinized search (``bots.search``) uses the same pieces as rollout policies: ``compiled_params(bot)``
gives a bot's parameter vector, and ``_policy_kernels.view_from_arrays`` + ``_policy_kernels.decide``
choose an action for the seat to move in any ``_trick52.Arrays``.
"""

from __future__ import annotations

import numpy as np

from ..errors import BotError
from ..rules import _trick52 as k
from ..rules.base import MAX_SEED, Game, check_seed
from . import _policy_kernels as pk
from .base import Bot, RandomBot

MAX_DEAL_ACTIONS = 4 + 1 + 52 + 2 * 13  # calls, Prime, cards, a raise request and answer per declarer turn


def compiled_params(bot: Bot | str) -> np.ndarray | None:
    """The compiled parameter vector of ``bot`` (a name or a Bot), or None when it has no compiled form."""
    from . import get_bot

    bot = get_bot(bot)
    if isinstance(bot, RandomBot):
        p = np.zeros(pk.N_P, np.float64)
        p[pk.P_MODE] = pk.MODE_RANDOM
        return p
    return getattr(bot, "compiled", None)


def signals_sendable(game: Game) -> int:
    """1 when the rules accept signalled cards (``possible_actions``, as ``decide`` does),
    else 0; the compiled loop sends signals only then, as the Python path does."""
    state = game.new_deal(0)
    while state.phase() != "play":
        state.apply_action(state.legal_actions()[0])
    from .view52 import signals_accepted

    return signals_accepted(state.possible_actions())


_SENDABLE: dict = {}  # signals_sendable per ruleset and options (it plays into a deal through the State API)


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


def play_boards(game: Game, x_bot, y_bot, seeds, table: int) -> dict:
    """Play the deal of each board seed at ``table`` (0 or 1) with team X = ``x_bot``, team Y = ``y_bot``.

    Returns ``{"returns": float (n, 2) for team A (bottom/top) and B (right/left), "actions": int (n, L)
    every action in order, -1 padded, "n_actions": int (n,)}``."""
    if game.name not in ("feskot", "tekka"):
        raise BotError(f"play_boards plays Feskot and Tekka, not {game.name}")
    if table not in (0, 1):
        raise BotError(f"table must be 0 or 1, not {table!r}")
    px, py = compiled_params(x_bot), compiled_params(y_bot)
    for bot, p in ((x_bot, px), (y_bot, py)):
        if p is None:
            raise BotError(f"bot {getattr(bot, 'label', bot)} has no compiled form")
    arr = _seed_array(seeds)
    n = len(arr)
    returns = np.zeros((n, 2), np.float64)
    actions = np.full((n, MAX_DEAL_ACTIONS), -1, np.int64)
    n_actions = np.zeros(n, np.int64)
    play_all, raises, signals = game._options_flags()
    ruleset = k.FESKOT if game.name == "feskot" else k.TEKKA
    key = (game.name, tuple(sorted(game.options.items())))
    cansig = _SENDABLE.get(key)
    if cansig is None:
        cansig = _SENDABLE[key] = signals_sendable(game)
    pk.play_boards_kernel(
        k.new_arrays(),
        arr,
        table,
        ruleset,
        0,
        play_all,
        raises,
        signals,
        cansig,
        px,
        py,
        returns,
        actions,
        n_actions,
        pk.new_work(),
    )
    return {"returns": returns, "actions": actions, "n_actions": n_actions}


__all__ = ["MAX_DEAL_ACTIONS", "compiled_params", "play_boards", "signals_sendable"]
