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

``play_tables(game, x_bot, y_bot, seeds, table)`` does the same for every ruleset (Satat's first round of a
match through ``satat.play_rounds``, Shengji's first deal through ``_shengji_policy.play_deal`` with every
action kept): the tournament runner's compiled blocks. ``compiled_form(bot, ruleset)`` says which bots
have a compiled form there.

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


def compiled_params(bot: Bot | str, ruleset: str | None = None) -> np.ndarray | None:
    """The compiled parameter vector of ``bot`` (a name, its ``ruleset``'s implementation, or a Bot), or
    None when it has no compiled form."""
    from . import get_bot

    bot = get_bot(bot, ruleset=ruleset)
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
    px, py = compiled_params(x_bot, game.name), compiled_params(y_bot, game.name)
    for bot, p in ((x_bot, px), (y_bot, py)):
        if p is None:
            raise BotError(f"bot {getattr(bot, 'label', bot)} has no compiled form")
        if isinstance(bot, Bot) and not bot.supports(game.name):
            raise BotError(f"bot {bot.label} does not play {game.name}: get_bot({bot.name!r}, ruleset={game.name!r})")
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


def compiled_form(bot: Bot, ruleset: str) -> np.ndarray | None:
    """The parameter vector with which ``bot`` (built for ``ruleset``) plays in that ruleset's compiled
    whole-deal loop, or None when it has none (search bots, ORACLE, users' bots; RANDOM in Shengji, whose
    State API form draws from the legal list and the compiled one does not)."""
    if ruleset in ("feskot", "tekka"):
        return compiled_params(bot, ruleset)
    if ruleset == "satat":
        from .satat import compiled_vector

        return compiled_vector(bot)
    if ruleset == "shengji":
        from .shengji import ShengjiPolicy

        return bot.compiled if isinstance(bot, ShengjiPolicy) else None
    return None


def play_tables(game: Game, x_bot, y_bot, seeds, table: int) -> dict:
    """The first deal (a Satat round) of each board seed at ``table``, any ruleset, in its compiled loop:
    the actions ``decide`` gives through the State API with the seeds of ``play_boards`` (tested per
    ruleset). ``{"returns": (n, 2), "n_actions": (n,)}`` and either ``"actions"`` (n, L) integer actions,
    -1 padded (Feskot, Tekka, Satat), or, for Shengji, ``"masks"`` (n, L, 2): action i as its ``(one, two)``
    multiset masks (``bots.shengji._kinds`` gives the State API's tuple)."""
    if game.name in ("feskot", "tekka"):
        return play_boards(game, x_bot, y_bot, seeds, table)
    if game.name == "satat":
        from .satat import play_rounds

        return play_rounds(x_bot, y_bot, _seed_array(seeds).astype(np.int64), table)
    if game.name == "shengji":
        return _shengji_tables(x_bot, y_bot, seeds, table)
    raise BotError(f"no compiled loop for {game.name}")


def _shengji_tables(x_bot, y_bot, seeds, table: int) -> dict:
    from . import _shengji_policy as sp

    if table not in (0, 1):
        raise BotError(f"table must be 0 or 1, not {table!r}")
    px, py = compiled_form(x_bot, "shengji"), compiled_form(y_bot, "shengji")
    for bot, p in ((x_bot, px), (y_bot, py)):
        if p is None:
            raise BotError(f"bot {getattr(bot, 'label', bot)} has no compiled Shengji form")
    params = np.stack([px if (s & 1) == table else py for s in range(4)])  # as sp.play_boards seats them
    arr = _seed_array(seeds)
    n = len(arr)
    masks = np.zeros((n, sp.MAX_ACTIONS, 2), np.uint64)
    out = np.zeros((n, 7), np.int64)
    # one kernel call a deal: play_boards keeps no actions, and a block kernel of its own would make numba
    # compile the whole linked decision code once more (seconds) for a few µs a deal
    for i, seed in enumerate(arr.tolist()):
        sp.play_deal(params, seed, table, 0, 0, -1, 0, masks[i], out[i])
    n_actions = out[:, 6].copy()
    if n and int(n_actions.max()) > sp.MAX_ACTIONS:
        raise BotError(f"a Shengji deal took more than {sp.MAX_ACTIONS} actions")
    return {"returns": out[:, :2].astype(np.float64), "masks": masks, "n_actions": n_actions}


__all__ = [
    "MAX_DEAL_ACTIONS",
    "compiled_form",
    "compiled_params",
    "play_boards",
    "play_tables",
    "signals_sendable",
]
