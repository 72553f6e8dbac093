"""Any bot as an engine (``tekkasim engine BOT``): the engine side of the protocol, on stdin/stdout.

The hello names the bot by its label and lists the rulesets it plays, and asks for ``world`` (``"world":
true``): a full deal consistent with the deciding seat's view, in records.md form. The bot decides from a
state rebuilt from that deal (its ``View`` shows it only the seat's observation), with the message's
``seed``, through the same ``decide`` as in process: an engine run and an in-process run of a bot give
identical results. An app that has the true deal may send it as ``world``: the bot still sees only the
seat's observation of it. A message the server cannot use is answered with ``{"type": "error", "id":
..., "message": ...}`` (an extra message type; a host takes it for a fault) and logged on stderr.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from ...cards import parse_seat
from ...errors import TekkasimError, shorten
from ...rules import get_game, ruleset_names
from ...rules.base import MAX_SEED
from .. import decide, get_bot
from .protocol import PROTOCOL


def _shown(value: Any) -> str:
    """A value of a message as JSON, cut when long."""
    return shorten(json.dumps(value), 40)


class _Server:
    def __init__(self, spec: str):
        self.spec = spec
        self.bots: dict[str, Any] = {}
        self.games: dict[str, Any] = {}
        get_bot(spec)  # an unknown bot or parameter: its own one-line error
        plays = []
        for r in ruleset_names():
            try:
                bot = get_bot(spec, ruleset=r)
            except TekkasimError:
                continue
            if bot.supports(r):
                plays.append(r)
                self.bots[r] = bot
        if not plays:
            raise TekkasimError(f"bot {spec!r} plays no ruleset")
        first = self.bots[plays[0]]
        self.hello = {
            "type": "hello",
            "protocol": PROTOCOL,
            "name": first.label,
            "rulesets": plays,
            "world": True,
            "params": {k: v for k, v in first.params.items() if isinstance(v, bool | int | float | str)},
            "author": "tekkasim",
        }

    def game(self, ruleset: str, options: dict):
        key = json.dumps([ruleset, options], sort_keys=True)
        game = self.games.get(key)
        if game is None:
            game = self.games[key] = get_game(ruleset, **options)
        return game

    def decide(self, msg: dict) -> str | None:
        plays = ", ".join(self.bots)
        if "ruleset" not in msg:
            raise TekkasimError(f"a decide message needs 'ruleset' (this engine plays {plays})")
        ruleset = msg["ruleset"]
        if not isinstance(ruleset, str) or ruleset not in self.bots:
            raise TekkasimError(f"'ruleset' {_shown(ruleset)} is not one this engine plays ({plays})")
        if "seat" not in msg:
            raise TekkasimError("a decide message needs 'seat' (bottom, right, top or left)")
        seed = msg.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise TekkasimError(f"'seed' must be an integer in 0 .. 2**63-1, not {_shown(seed)}")
        if not isinstance(msg.get("options") or {}, dict):
            raise TekkasimError(f"'options' must be an object of the ruleset's options, not {_shown(msg['options'])}")
        world = msg.get("world")
        if not isinstance(world, dict):
            raise TekkasimError(
                "a decide message for tekkasim engine needs 'world': a deal record consistent with the seat's view"
            )
        game = self.game(ruleset, msg.get("options") or {})
        state, texts = game.from_record(world)
        for text in texts:
            state.apply_action(state.string_to_action(text))
        seat = parse_seat(msg.get("seat"))
        if state.is_terminal():
            raise TekkasimError("the deal in 'world' is over: there is no decision to make")
        if seat not in state.actors():  # else the bot's answer would be refused as illegal, a puzzle
            raise TekkasimError(f"seat {msg.get('seat')} is not to move in 'world' (next: {state.where()})")
        action = decide(self.bots[ruleset], state, seat, seed)
        return None if action is None else state.action_to_string(action)


def serve(spec: str, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """Serve bot ``spec`` until ``quit`` or the end of stdin; returns the exit status."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    server = _Server(spec)  # an unknown bot: TekkasimError before any message, one line from the CLI

    def write(obj: dict) -> None:
        stdout.write((json.dumps(obj, separators=(",", ":")) + "\n").encode())
        stdout.flush()

    for line in stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            sys.stderr.write(f"tekkasim engine: not JSON: {line[:80]!r}\n")
            write({"type": "error", "id": None, "message": "not a JSON line"})
            continue
        if not isinstance(msg, dict):
            sys.stderr.write(f"tekkasim engine: not a JSON object: {line[:80]!r}\n")
            write({"type": "error", "id": None, "message": 'not a JSON object: a message is {"type": ..., ...}'})
            continue
        kind = msg.get("type")
        if kind == "hello":
            write(server.hello)
        elif kind == "decide":
            try:
                write({"type": "action", "id": msg.get("id"), "action": server.decide(msg)})
            except (TekkasimError, KeyError, TypeError, ValueError) as exc:
                text = f"{type(exc).__name__}: {exc}" if not isinstance(exc, TekkasimError) else str(exc)
                sys.stderr.write(f"tekkasim engine: decision {msg.get('id')!r}: {text}\n")
                write({"type": "error", "id": msg.get("id"), "message": text})
        elif kind == "quit":
            return 0
        # other message types are ignored, as the protocol allows
    return 0
