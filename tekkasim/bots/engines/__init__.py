"""Seats played outside this process: engines (programs speaking spec/engine.md's protocol) and a person
at the terminal. ``get_bot("engine:COMMAND")`` gives an :class:`EngineBot`; :func:`serve` runs any bot
as an engine (``tekkasim engine BOT``); :class:`Person` asks a person for each decision."""

from __future__ import annotations

from typing import Any

from ...errors import BotError
from .host import EngineBot, engine_process, set_log_dir, stop_engines
from .person import Person
from .protocol import PROTOCOL, decide_message, observation_json
from .serve import serve


def engine_bot(command: str, ruleset: str | None = None, **params: Any) -> EngineBot:
    """The bot ``engine:COMMAND``; with ``ruleset``, refused with one line unless its hello lists it."""
    bot = EngineBot(command, **params)
    if ruleset is not None and not bot.supports(ruleset):
        raise BotError(f"engine {bot.name} does not play {ruleset} (its hello lists {', '.join(bot.rulesets)})")
    return bot


__all__ = [
    "PROTOCOL",
    "EngineBot",
    "Person",
    "decide_message",
    "engine_bot",
    "engine_process",
    "observation_json",
    "set_log_dir",
    "serve",
    "stop_engines",
]
