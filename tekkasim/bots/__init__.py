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

# name -> "module:class", imported on first use (search bots pull in the solver).
_REGISTRY: dict[str, str] = {
    "RANDOM": "tekkasim.bots.base:RandomBot",
    "GREEDY": "tekkasim.bots.heuristic:GreedyBot",
    "KADO": "tekkasim.bots.heuristic:Kado",
    "POCHAQ": "tekkasim.bots.heuristic:Pochaq",
    "PUCHOQ": "tekkasim.bots.heuristic:Puchoq",
    "SADA": "tekkasim.bots.heuristic:Sada",
    "TANA": "tekkasim.bots.heuristic:Tana",
    "JANGARA": "tekkasim.bots.heuristic:Jangara",
    "TANOOR": "tekkasim.bots.search:Tanoor",
    "TIZAB": "tekkasim.bots.search:Tizab",
    "ZELZELA": "tekkasim.bots.search:Zelzela",
    "ORACLE": "tekkasim.bots.oracle:Oracle",  # one class for every ruleset
}


# name -> {ruleset: "module:class"}: a named bot's implementation for a ruleset its default class does not
# play (the Satat and Shengji ladders are their own policy families behind the same names).
_BY_RULESET: dict[str, dict[str, str]] = {}


def register(name: str, target: str, ruleset: str | None = None) -> None:
    """Add a built-in bot (``"module:Class"``) to the registry, or its implementation for one ruleset."""
    if ruleset is None:
        _REGISTRY[name.upper()] = target
    else:
        _BY_RULESET.setdefault(name.upper(), {})[ruleset] = target


register("TANA", "tekkasim.bots.heuristic:TanaTekka", ruleset="tekka")  # fewer mistakes in Tekka's auction

# Satat: the ladder and GREEDY as their own policy family (bots/satat.py); the bluffing personalities.
for _name, _cls in (
    ("GREEDY", "Greedy"),
    ("KADO", "Kado"),
    ("POCHAQ", "Pochaq"),
    ("PUCHOQ", "Puchoq"),
    ("SADA", "Sada"),
    ("TANA", "Tana"),
    ("JANGARA", "Jangara"),
    ("TANOOR", "Tanoor"),
    ("TIZAB", "Tizab"),
    ("ZELZELA", "Zelzela"),
):
    register(_name, f"tekkasim.bots.satat:{_cls}", ruleset="satat")
register("ATOUTE", "tekkasim.bots.satat:Atoute")
register("ZORGE", "tekkasim.bots.satat:Zorge")


# The Shengji ladder (bots.shengji): compiled heuristic policies and determinized search.
for _name, _cls in (
    ("GREEDY", "ShengjiGreedy"),
    ("KADO", "Kado"),
    ("POCHAQ", "Pochaq"),
    ("PUCHOQ", "Puchoq"),
    ("SADA", "Sada"),
    ("TANA", "Tana"),
    ("JANGARA", "Jangara"),
    ("TANOOR", "Tanoor"),
    ("TIZAB", "Tizab"),
    ("ZELZELA", "Zelzela"),
):
    register(_name, f"tekkasim.bots.shengji:{_cls}", ruleset="shengji")


# LEVEL:elo=E, any strength on request (bots.level): one class per ruleset of its calibration table.
register("LEVEL", "tekkasim.bots.level:LevelBot")
from . import level as _level  # noqa: E402 - reads the table only, after base

for _r in _level.table_rulesets():
    register("LEVEL", f"tekkasim.bots.level:{_level.class_name(_r)}", ruleset=_r)


# ruleset -> the module of its compiled whole-deal loop (``compiled.play_tables``): it defines
# ``play_tables(game, px, py, seeds, table)`` and ``RANDOM_FORM`` (RANDOM's parameter vector, or None).
_LOOPS: dict[str, str] = {}


def register_loop(ruleset: str, module: str) -> None:
    """Name the module of ``ruleset``'s compiled whole-deal loop (imported on first use)."""
    _LOOPS[ruleset] = module


register_loop("feskot", "tekkasim.bots.heuristic")
register_loop("tekka", "tekkasim.bots.heuristic")
register_loop("satat", "tekkasim.bots.satat")
register_loop("shengji", "tekkasim.bots.shengji")


def _load(target: str) -> type[Bot]:
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)


def _classes(name: str) -> dict[str, type[Bot]]:
    """Every ruleset bot ``name`` plays -> the class that plays it there."""
    out = {}
    default = _class(name)
    for r in ruleset_names() if default.rulesets is None else default.rulesets:
        out[r] = default
    for r, target in _BY_RULESET.get(name, {}).items():
        out[r] = _load(target)
    return out


def bot_names() -> list[str]:
    """Every built-in bot name: the ladder weakest first, then the others."""
    classes = [_class(n) for n in _REGISTRY]
    ladder = sorted((c for c in classes if c.rank is not None), key=lambda c: c.rank)
    return [c.name for c in ladder] + [c.name for c in classes if c.rank is None]


def _class(name: str) -> type[Bot]:
    return _load(_REGISTRY[name])


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
    is_path = head.strip().upper() not in _REGISTRY and attr_text.strip() and "=" not in attr_text
    if "." in head or "/" in head or is_path:  # an import path (module:Name[:params]) or a file (f.py:Name)
        attr, _, param_text = rest.partition(":")
        obj = _import(head, attr, text)
        return _wrap_custom(obj, f"{head}:{attr}", {**_parse_params(param_text, text), **params})
    name = head.strip().upper()
    if name not in _REGISTRY:
        raise BotError(
            f"unknown bot {head.strip()[:40]!r} (bots: {', '.join(bot_names())}; or a package.module:Name of your own)"
        )
    classes = _classes(name)
    if ruleset is None:
        cls = _class(name)
    elif ruleset in classes:
        cls = classes[ruleset]
    else:
        raise BotError(f"bot {name} does not play {ruleset} (it plays {', '.join(classes)})")
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
    "register_loop",
]
