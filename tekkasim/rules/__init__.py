"""Rulesets behind one contract (``base.Game`` / ``base.State``), found by name (``tekkasim.rulesets``).

>>> game = get_game("feskot", play_out=True)
>>> game.name, game.options["play_out"]
('feskot', True)
"""

from __future__ import annotations

from .base import TERMINAL, Game, Observation, Option, State


def ruleset_names() -> list[str]:
    """Every ruleset that can be had: the built-in ones, then the plug-ins that load (``tekkasim.rulesets``).
    A ruleset's modules are imported on first use, not here."""
    from ..rulesets import ruleset_names as names

    return names()


def get_game(name: str, **options) -> Game:
    """The ruleset ``name`` with ``options`` (unknown names and options raise ``OptionError``)."""
    from ..rulesets import get_ruleset

    return get_ruleset(name).game_class()(**options)


__all__ = ["TERMINAL", "Game", "Observation", "Option", "State", "get_game", "ruleset_names"]
