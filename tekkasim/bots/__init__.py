"""Bots: the ladder (KADO ... ZELZELA), the baselines RANDOM and GREEDY, ORACLE, and users' own bots.

>>> bot = get_bot("RANDOM")
>>> bot.name, bot.kind
('RANDOM', 'baseline')
>>> from tekkasim.rules import get_game
>>> state = get_game("feskot").new_deal(3)
>>> choose("random", state, seed=1) in state.legal_actions()
True

Names are case-insensitive. ``get_bot("TANA:mistake_rate=0.1")`` and ``get_bot("TANA", mistake_rate=0.1)``
are the same bot. A user's bot is given by import path, ``package.module:Name`` (optionally followed by
``:param=value,...``): a :class:`Bot` subclass, any class with an ``act(view, rng)`` method, or a function
``f(view, rng) -> action``.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import re
import sys
from typing import Any

from ..bits import mix_seed
from ..errors import BotError
from ..rules import ruleset_names
from ..rules.base import Action, State
from .base import KINDS, MISTAKE_RATE, Bot, Param, RandomBot, View, decide
from .loop import play_deal

# The generic bots: they play every ruleset through the contract (ORACLE and LEVEL: every ruleset with a
# search adapter or a LEVEL table). A ruleset's own bots (the ladder, GREEDY, ...) are named by its
# ``Ruleset.bots`` (tekkasim.rulesets), imported on first use.
_GENERIC: dict[str, str] = {
    "RANDOM": "tekkasim.bots.base:RandomBot",
    "ORACLE": "tekkasim.bots.oracle:Oracle",
    "LEVEL": "tekkasim.bots.level:LevelBot",
    "PIMC": "tekkasim.bots.generic:Pimc",
    "ISMCTS": "tekkasim.bots.generic:Ismcts",
}


def register(name: str, target: str) -> None:
    """Add a generic bot (``"module:Class"``, a Bot subclass that plays every ruleset it ``supports``)."""
    _GENERIC[name.upper()] = target


def _load(target: str) -> type[Bot]:
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)


def _ruleset_bot(name: str, ruleset: str) -> type[Bot] | None:
    """Bot ``name``'s class in ``ruleset``: the ruleset's own, else a generic one that supports it."""
    from ..rulesets import get_ruleset

    cls = get_ruleset(ruleset).bot_class(name)
    if cls is not None:
        return cls
    if name == "LEVEL":
        from .level import level_class

        return level_class(ruleset)
    if name in _GENERIC:
        cls = _load(_GENERIC[name])
        if cls.plays(ruleset):
            return cls
    return None


def _classes(name: str) -> dict[str, type[Bot]]:
    """Every ruleset bot ``name`` plays -> the class that plays it there."""
    out = {}
    for r in ruleset_names():
        cls = _ruleset_bot(name, r)
        if cls is not None:
            out[r] = cls
    return out


def _known(name: str) -> bool:
    from ..rulesets import rulesets

    return name in _GENERIC or any(name in rs.bots for rs in rulesets())


def bot_names() -> list[str]:
    """Every built-in bot name: the ladder weakest first, then the others."""
    from ..rulesets import rulesets

    names = list(dict.fromkeys([*_GENERIC, *(n for rs in rulesets() for n in rs.bots)]))
    classes = [_class(n) for n in names]
    ladder = sorted((c for c in classes if c.rank is not None), key=lambda c: c.rank)
    return list(dict.fromkeys([c.name for c in ladder] + [c.name for c in classes if c.rank is None]))


def _class(name: str) -> type[Bot]:
    """Bot ``name``'s class when no ruleset is given: the generic one, else the first ruleset's own."""
    if name in _GENERIC:
        return _load(_GENERIC[name])
    from ..rulesets import rulesets

    for rs in rulesets():
        if name in rs.bots:
            return rs.bot_class(name)
    raise KeyError(name)


def _parse_params(text: str, spec: str) -> dict[str, str]:
    params = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BotError(f"bad bot parameter {item!r} in {spec!r} (expected param=value)")
        params[key.strip()] = value.strip()
    return params


def get_bot(spec: str | Bot | type, ruleset: str | None = None, **params: Any) -> Bot:
    """A bot from a name (``"tana"``), a name with parameters (``"TANA:mistake_rate=0.1"``), an import path
    (``"mypkg.bots:MyBot"``, ``"mypkg.bots:MyBot:depth=3"``), a Bot class or a Bot instance.

    With ``ruleset``, a built-in name gives its implementation for that ruleset (the ladder's names are
    shared by every ruleset; their parameters may differ between rulesets), and a bot that does not play
    the ruleset is refused with one line."""
    if isinstance(spec, Bot):
        return type(spec)(**(spec.params | params)) if params else spec
    if isinstance(spec, type) or callable(spec) and not isinstance(spec, str):
        return _wrap_custom(spec, getattr(spec, "__name__", "custom"), params)
    if not isinstance(spec, str) or not spec.strip():
        raise BotError(f"not a bot: {spec!r}")
    text = spec.strip()
    head, _, rest = text.partition(":")
    if head.strip().lower() == "engine":  # engine:COMMAND, a program speaking spec/engine.md's protocol
        from .engines import engine_bot
        from .engines.host import split_spec

        command, given = split_spec(rest)  # engine:COMMAND,time_ms=200
        return engine_bot(command, ruleset, **{**given, **params})
    attr_text = rest.partition(":")[0]
    is_path = not _known(head.strip().upper()) and attr_text.strip() and "=" not in attr_text
    if "." in head or "/" in head or is_path:  # an import path (module:Name[:params]) or a file (f.py:Name)
        attr, _, param_text = rest.partition(":")
        obj = _import(head, attr, text)
        return _wrap_custom(obj, f"{head}:{attr}", {**_parse_params(param_text, text), **params})
    name = head.strip().upper()
    if not _known(name):
        raise BotError(
            f"unknown bot {head.strip()[:40]!r} (bots: {', '.join(bot_names())}; or a package.module:Name of your own)"
        )
    if ruleset is None:
        cls = _class(name)
    else:
        cls = _ruleset_bot(name, ruleset)
        if cls is None:
            raise BotError(f"bot {name} does not play {ruleset} (it plays {', '.join(_classes(name))})")
    return cls(**{**_parse_params(rest, text), **params})


def _import(module: str, attr: str, spec: str):
    if not attr:
        raise BotError(f"custom bot {spec!r} needs the form package.module:Name")
    try:
        if module.endswith(".py"):  # a file of the user's, not an importable module
            if not os.path.isfile(module):
                raise BotError(f"custom bot {spec!r}: no file {module!r}")
            mod_name = "_tekkasim_user_" + re.sub(r"\W", "_", os.path.abspath(module))
            loader_spec = importlib.util.spec_from_file_location(mod_name, module)
            mod = importlib.util.module_from_spec(loader_spec)
            sys.modules[loader_spec.name] = mod  # forked workers and pickling find it by this name
            loader_spec.loader.exec_module(mod)
        else:
            mod = importlib.import_module(module)
    except BotError:
        raise
    except Exception as exc:  # ImportError, or the module itself failing: one line either way
        raise BotError(f"custom bot {spec!r} does not import: {type(exc).__name__}: {str(exc)[:120]}") from None
    try:
        return getattr(mod, attr)
    except AttributeError:
        raise BotError(f"custom bot {spec!r}: module {module!r} has no {attr!r}") from None


class FunctionBot(Bot):
    """A user's function ``f(view, rng) -> action`` (or an object with ``act``) as a bot."""

    kind = "heuristic"
    params_spec = ()

    def __init__(self, fn, name: str, **params: Any):
        self.fn = fn
        self.name = name
        self.description = (inspect.getdoc(fn) or "a user's bot").splitlines()[0]
        self.extra = params
        super().__init__()

    @property
    def label(self) -> str:
        return self.name + (":" + ",".join(f"{k}={v}" for k, v in self.extra.items()) if self.extra else "")

    def act(self, view: View, rng):
        return self.fn(view, rng)


def _wrap_custom(obj, name: str, params: dict) -> Bot:
    if isinstance(obj, type) and issubclass(obj, Bot):
        bot = obj(**params)
        return bot
    if isinstance(obj, type):
        try:
            inst = obj(**params)
        except TypeError as exc:
            raise BotError(f"custom bot {name!r} cannot be made with {params}: {exc}") from None
        if not callable(getattr(inst, "act", None)):
            raise BotError(f"custom bot {name!r} has no act(view, rng) method")
        return FunctionBot(inst.act, name, **params)
    if callable(obj):
        if params:
            raise BotError(f"custom bot {name!r} is a function and takes no parameters")
        return FunctionBot(obj, name)
    raise BotError(f"custom bot {name!r} is neither a Bot class nor a function")


def choose(name: str | Bot, state: State, seed: int, **params: Any) -> Action:
    """The action bot ``name`` takes for the seat to move in ``state``, deterministic for ``seed``. The bot
    sees only that seat's view (ORACLE excepted)."""
    bot = get_bot(name, ruleset=state.game.name, **params)
    seat = state.current_player()
    if seat < 0:
        raise BotError("the deal is over: no seat is to move")
    return decide(bot, state, seat, seed)  # which refuses a bot that does not play this ruleset


def param_ranges(name: str) -> dict[str, dict[str, list]]:
    """The parameters of bot ``name`` whose range differs by ruleset (LEVEL's ``elo``: each ruleset's Elo
    scale), each with its ``[lo, hi]`` per ruleset (``tekkasim bots`` shows them)."""
    bounds: dict[str, dict[str, list]] = {}
    for r, cls in _classes(name.upper()).items():
        for p in cls.params_spec:
            if p.lo is not None and p.hi is not None:
                bounds.setdefault(p.name, {})[r] = [p.lo, p.hi]
    return {k: v for k, v in bounds.items() if len({tuple(b) for b in v.values()}) > 1}


def describe() -> list[dict]:
    """``tekkasim bots --json``: every built-in bot with rank, kind, rulesets, defaults and description."""
    out = []
    for name in bot_names():
        cls = _class(name)
        classes = _classes(name)
        params: dict[str, Any] = {}
        for other in dict.fromkeys(classes.values()):  # every ruleset's parameters (defaults of the first)
            params = other().params | params
        out.append(
            {
                "name": cls.name,
                "rank": cls.rank,
                "kind": cls.kind,
                "rulesets": list(classes),
                "params": params,
                "description": cls.description + (" (cheating: sees all hands)" if cls.cheating else ""),
            }
        )
    return out


__all__ = [
    "KINDS",
    "MISTAKE_RATE",
    "Bot",
    "FunctionBot",
    "Param",
    "RandomBot",
    "View",
    "bot_names",
    "choose",
    "decide",
    "describe",
    "get_bot",
    "mix_seed",
    "param_ranges",
    "play_deal",
    "register",
]
