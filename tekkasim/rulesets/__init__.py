"""Rulesets found by name: the built-in packages under ``tekkasim/rulesets/`` and plug-ins.

A ruleset is one :class:`Ruleset` object: its ``Game`` class and, optionally, what it adds (named bots, a
compiled whole-deal loop, tournament block codecs, ORACLE's search adapter, analyses, a LEVEL table). Each
optional piece is a ``"module:attr"`` string imported on first use, so that finding a ruleset costs no
compile and a feature a ruleset lacks is refused in one line naming both (:meth:`Ruleset.feature`).

The generic layers (bots, tournament, engines, table, CLI) ask this module, never a ruleset's name:

>>> rs = get_ruleset("feskot")
>>> rs.name, rs.game_class().name
('feskot', 'feskot')
>>> "KADO" in rs.bots
True

Plug-ins come from installed distributions through the ``tekkasim.rulesets`` entry point (a ``Game``
subclass or a ``Ruleset``); they are read only when a name is not a built-in one or when every ruleset is
listed, and one that fails is one line on the commands that need it (``spec/rulesets.md``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import OptionError

ENTRY_POINT_GROUP = "tekkasim.rulesets"

# The built-in packages, in the order commands list them; the first is the commands' default.
BUILTIN = ("feskot", "tekka", "satat", "shengji")
DEFAULT_RULESET = BUILTIN[0]


# Seats whose deals compile a full ladder's kernels (``Ruleset.warm``): heuristic, then search and ORACLE.
LADDER_WARM = (
    ("JANGARA", "SADA", "KADO", "GREEDY"),
    ("JANGARA", "ZELZELA:worlds=2", "ORACLE", "GREEDY"),
    ("TANOOR:worlds=2", "TIZAB:worlds=2", "JANGARA", "GREEDY"),
)


LADDER = ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA", "TANOOR", "TIZAB", "ZELZELA")


def named_bots(module: str, names, **classes: str) -> dict[str, str]:
    """``NAME -> "module:Class"`` for a ruleset's ``bots``: each class named as its bot in title case
    (``KADO`` -> ``Kado``) unless ``classes`` names it (``GREEDY="ShengjiGreedy"``)."""
    return {name: f"{module}:{classes.get(name, name.title())}" for name in names}


class RulesetError(OptionError):
    """A ruleset that cannot be had (unknown, a plug-in that fails) or that lacks a feature."""


def load_ref(ref: Any) -> Any:
    """``"module:attr"`` -> that attribute, ``"module"`` -> the module; anything else is returned as is."""
    if not isinstance(ref, str):
        return ref
    module, _, attr = ref.partition(":")
    mod = importlib.import_module(module)
    return getattr(mod, attr) if attr else mod


@dataclass(frozen=True, eq=False)
class Ruleset:
    """One ruleset and what it adds to the generic layers (every piece but ``game`` is optional).

    ``game``: the :class:`~tekkasim.rules.base.Game` subclass (or ``"module:Class"``).
    ``bots``: named bots, ``NAME -> "module:Class"`` (the ladder, GREEDY, personalities); generic bots
    (RANDOM, PIMC, ISMCTS, LEVEL, ORACLE where ``search`` exists) play it without being named here.
    ``loop``: the module of its compiled whole-deal loop (``play_tables(game, px, py, seeds, table)``,
    ``RANDOM_FORM``). ``blocks``: the module of its tournament block codecs (``tekkasim.tournament.play``'s
    hooks). ``search``: ORACLE's adapter, ``"module:Adapter"``. ``engine_loop``: a module whose
    ``play_deal(state, bots, seed, table)`` plays deals with engine seats faster (``bots.loop``);
    ``engine_messages``: a module keeping engines' observations up to date (``bots.engines.protocol``).
    ``analyses``: ``name -> "module:function"`` (e.g. ``"bidding"``). ``warm``: seat lists whose deals
    compile its kernels (``bots.warm``). ``notation``: how a person types its actions (help lines at the
    table, beyond rank-then-suit cards). ``levels``: LEVEL's calibration table, ``"package:levels.json"``.
    ``legacy``: ``old module -> new module`` for its bots' classes that moved, so that runs stored before
    read as the same configuration. ``source``: ``"built-in"`` or the plug-in's distribution and entry point.
    """

    name: str
    game: Any
    bots: Mapping[str, str] = field(default_factory=dict)
    loop: str | None = None
    blocks: str | None = None
    search: str | None = None
    engine_loop: str | None = None
    engine_messages: str | None = None
    analyses: Mapping[str, str] = field(default_factory=dict)
    warm: tuple[tuple[str, ...], ...] = ()
    notation: str = ""
    levels: str | None = None
    legacy: Mapping[str, str] = field(default_factory=dict)
    source: str = "built-in"

    def game_class(self) -> type:
        return load_ref(self.game)

    def has(self, feature: str) -> bool:
        return bool(getattr(self, feature))

    def feature(self, feature: str, what: str | None = None) -> Any:
        """The loaded optional piece ``feature`` (a field name), or one line naming the ruleset and it."""
        ref = getattr(self, feature)
        if not ref:
            raise RulesetError(f"ruleset {self.name} has no {what or feature}")
        return load_ref(ref)

    def analysis(self, name: str) -> Any:
        if name not in self.analyses:
            raise RulesetError(f"ruleset {self.name} has no {name} analysis")
        return load_ref(self.analyses[name])

    def bot_class(self, name: str) -> type | None:
        """This ruleset's own class for bot ``name`` (upper case), or None when it names none."""
        ref = self.bots.get(name)
        return None if ref is None else load_ref(ref)


_BUILT: dict[str, Ruleset] = {}
_PLUGINS: dict[str, Ruleset | str] | None = None  # name -> Ruleset, or the one line saying why it fails


def _builtin(name: str) -> Ruleset:
    if name not in _BUILT:
        _BUILT[name] = importlib.import_module(f"{__name__}.{name}").RULESET
    return _BUILT[name]


def _as_ruleset(obj: Any, name: str, where: str) -> Ruleset | str:
    from ..rules.base import Game

    if isinstance(obj, Ruleset):
        rs = obj
    elif isinstance(obj, type) and issubclass(obj, Game):
        rs = Ruleset(name=name, game=obj)
    else:
        return f"{where} names {type(obj).__name__} {obj!r:.60}, not a tekkasim Game subclass or Ruleset"
    if rs.name != name:
        return f"{where} is named {name!r} but its ruleset calls itself {rs.name!r}"
    game_name = getattr(rs.game_class(), "name", None) if not isinstance(rs.game, str) else name
    if game_name != name:
        return f"{where}: its Game's name is {game_name!r}, not {name!r}"
    return Ruleset(**{**rs.__dict__, "source": where})


def _entry_points() -> list:
    from importlib.metadata import entry_points

    return list(entry_points(group=ENTRY_POINT_GROUP))


def _plugins() -> dict[str, Ruleset | str]:
    """Every plug-in's ruleset by name, or the line saying why it cannot be had; read once."""
    global _PLUGINS
    if _PLUGINS is None:
        found: dict[str, Ruleset | str] = {}
        seen: dict[str, str] = {}
        for ep in _entry_points():
            dist = getattr(ep.dist, "name", None) or "an unknown distribution"
            where = f"plug-in {ep.name!r} of {dist} (entry point {ep.value})"
            if ep.name in BUILTIN:
                found[f"{ep.name}@{dist}"] = f"{where} clashes with the built-in ruleset {ep.name!r}; ignored"
                continue
            if ep.name in seen:
                found[ep.name] = f"{where} clashes with the one of {seen[ep.name]}; neither is used"
                continue
            seen[ep.name] = dist
            try:
                found[ep.name] = _as_ruleset(ep.load(), ep.name, where)
            except Exception as exc:  # any failure of a plug-in's import is that plug-in's one line
                found[ep.name] = f"{where} does not load: {type(exc).__name__}: {str(exc)[:160]}"
        _PLUGINS = found
    return _PLUGINS


def plugin_problems() -> list[str]:
    """One line per plug-in that cannot be used (for ``tekkasim rules``)."""
    return [v for v in _plugins().values() if isinstance(v, str)]


def ruleset_names(plugins: bool = True) -> list[str]:
    """Every ruleset that can be had: the built-ins, then (``plugins``) the plug-ins that load."""
    names = list(BUILTIN)
    if plugins:
        names += [k for k, v in _plugins().items() if isinstance(v, Ruleset)]
    return names


def get_ruleset(name: str | Ruleset) -> Ruleset:
    """The ruleset ``name`` (case-insensitive); one line for an unknown or failing one."""
    if isinstance(name, Ruleset):
        return name
    key = str(name).strip().lower()
    if key in BUILTIN:
        return _builtin(key)
    found = _plugins().get(key)
    if isinstance(found, Ruleset):
        return found
    if isinstance(found, str):
        raise RulesetError(found)
    raise RulesetError(f"unknown ruleset {str(name)[:40]!r} (expected one of {', '.join(ruleset_names())})")


def rulesets() -> list[Ruleset]:
    """Every ruleset that can be had, built-ins first."""
    return [get_ruleset(n) for n in ruleset_names()]


def register(ruleset: Ruleset | type) -> Ruleset:
    """Add a ruleset from a running program (a notebook's, a test's) as if a plug-in had named it."""
    name = ruleset.name if isinstance(ruleset, Ruleset) else getattr(ruleset, "name", None)
    rs = _as_ruleset(ruleset, name, f"ruleset {name!r} registered by {__name__}.register")
    if isinstance(rs, str):
        raise RulesetError(rs)
    if name in BUILTIN:
        raise RulesetError(f"{name!r} is a built-in ruleset")
    _plugins()[name] = rs
    return rs


def unregister(name: str) -> None:
    _plugins().pop(name, None)


__all__ = [
    "BUILTIN",
    "DEFAULT_RULESET",
    "ENTRY_POINT_GROUP",
    "LADDER",
    "LADDER_WARM",
    "Ruleset",
    "RulesetError",
    "get_ruleset",
    "load_ref",
    "named_bots",
    "plugin_problems",
    "register",
    "ruleset_names",
    "rulesets",
    "unregister",
]
