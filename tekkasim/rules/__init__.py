"""Rulesets behind one contract (``base.Game`` / ``base.State``), found by name.

>>> game = get_game("feskot", play_out=True)
>>> game.name, game.options["play_out"]
('feskot', True)
"""

from __future__ import annotations

from importlib import import_module

from ..errors import OptionError
from .base import TERMINAL, Game, Observation, Option, State

# name -> "module:class"; modules are imported on first use so that one ruleset's compile cost is only
# paid by callers that use it.
_REGISTRY = {
    "feskot": "tekkasim.rules.feskot:Feskot",
    "tekka": "tekkasim.rules.tekka:Tekka",
    "satat": "tekkasim.rules.satat:Satat",
    "shengji": "tekkasim.rules.shengji:Shengji",
}


def ruleset_names() -> list[str]:
    """Every registered ruleset name. Modules are not imported here (that is paid on first use); a ruleset
    whose module fails to import raises that error from ``get_game``, it never drops out silently."""
    return list(_REGISTRY)


def _game_class(name: str) -> type[Game]:
    module, cls = _REGISTRY[name].split(":")
    return getattr(import_module(module), cls)


def get_game(name: str, **options) -> Game:
    """The ruleset ``name`` with ``options`` (unknown names and options raise ``OptionError``)."""
    key = str(name).strip().lower()
    if key not in _REGISTRY:
        raise OptionError(f"unknown ruleset {name!r} (expected one of {', '.join(_REGISTRY)})")
    return _game_class(key)(**options)


__all__ = ["TERMINAL", "Game", "Observation", "Option", "State", "get_game", "ruleset_names"]
