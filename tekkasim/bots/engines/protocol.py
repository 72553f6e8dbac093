"""The messages of the engine protocol (``spec/engine.md``, version 1), built from one seat's view.

The ``observation`` of a decide message is the seat's view in the notation of records.md
(docs/engines.md lists its keys): the seat, the phase, who is to move, the cards the seat holds now
(sorted by suit, then rank), the tricks won so far, the match score, and ``record``: the deal record so
far with everything the seat cannot see taken out (other seats' hands, the seed, a kitty or buried cards
it has not seen, exchange cards it neither gave nor received). Two states that a seat cannot tell apart
give it the same observation (tested against ``State.resample``).
"""

from __future__ import annotations

import json
from typing import Any

from ...cards import SEATS, card_name
from ..base import View

PROTOCOL = 1

# Keys of a deal record that hold nothing hidden (records.md); everything else is rebuilt below from what
# the seat may see, or left out.
_PUBLIC_KEYS = (
    "format", "ruleset", "first", "dealer", "caller", "redeals", "score_before", "draw", "levels", "level",
    "first_deal", "declare_first", "declarations", "auction", "trump", "tricks", "raises", "options", "unfinished",
)  # fmt: skip


_NAME = [card_name(c) for c in range(54)]  # card index -> text, jokers included
_ORDER = {name: c for c, name in enumerate(_NAME)}  # text -> index: suit, then rank


def hand_text(hand: Any) -> list[str]:
    """A hand (a 52-card mask, or a Shengji ``CardMultiset``) as card text, by suit then rank."""
    if isinstance(hand, int):
        out = []
        while hand:
            low = hand & -hand
            out.append(_NAME[low.bit_length() - 1])
            hand ^= low
        return out
    return [_NAME[c] for c in sorted(hand.cards())]


def _visible_record(view: View, record: dict) -> dict:
    obs = view.observation
    seat = SEATS[view.seat]
    out = {k: record[k] for k in (*_PUBLIC_KEYS, *view.game.public_record_fields) if k in record}
    own = record.get("hands", {}).get(seat, [])
    if isinstance(obs.hand, int):  # 52-card rulesets: own cards held or played (Feskot: first five first)
        seen = obs.hand
        for trick in obs.public.get("tricks", ()):
            for s, c in trick["plays"]:
                if s == view.seat:
                    seen |= 1 << c
        own = [c for c in own if seen >> _ORDER[c] & 1]
    # by suit and rank: the order cards were dealt in is not part of the seat's view (worlds redraw it)
    own.sort(key=_ORDER.__getitem__)
    out["hands"] = {seat: own}
    private = obs.private
    if "kitty" in private or obs.public.get("kitty_turned_up") is not None:  # Shengji
        out["kitty"] = record.get("kitty", [])
    if "buried" in private and "buried" in record:
        out["buried"] = record["buried"]
    if "exchange" in record:  # Satat: the seat knows the cards it gave and received
        out["exchange"] = [e for e in record["exchange"] if seat in (e["from"], e["to"])]
    if private.get("redealt"):  # Satat: the seat's own first five of each deal given up by a redeal
        out["redealt"] = [[_NAME[c] for c in five] for five in private["redealt"]]
    return out


def observation_json(view: View) -> dict:
    """The ``observation`` object of a decide message for ``view`` (docs/engines.md)."""
    obs = view.observation
    won = obs.public.get("won", (0, 0))
    score = obs.public.get("score", (0, 0))
    return {
        "seat": SEATS[view.seat],
        "phase": obs.phase,
        "to_move": SEATS[obs.to_move] if obs.to_move >= 0 else None,
        "hand": hand_text(obs.hand),
        "won": {"A": won[0], "B": won[1]},
        "score": {"A": score[0], "B": score[1]},
        "record": _visible_record(view, view._state.to_record()),
    }


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _scalar(value: Any) -> str:
    """``_dumps`` of a number or flag, without the encoder for the plain cases (a decide message has four)."""
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is bool:
        return "true" if value else "false"
    return _dumps(value)


def _messages(ruleset: str):
    """The module of ``ruleset``'s kept observations (``Ruleset.engine_messages``), or None."""
    from ...rulesets import get_ruleset, load_ref

    ref = get_ruleset(ruleset).engine_messages
    return None if ref is None else load_ref(ref)


def world_record(view: View, seed: int) -> dict:
    """A full deal consistent with the seat's view, drawn from its information set with the decision's
    seed: what ``world`` holds."""
    from ...bits import new_rng

    return view.sample(new_rng(seed ^ 0x5EED)).to_record()


def decide_message(
    view: View,
    ident: int,
    ruleset: str,
    options: dict,
    time_ms: int,
    seed: int,
    world: bool = False,
    cache: dict | None = None,
) -> tuple[bytes, dict[str, Any]]:
    """The decide line for ``view`` and the map from each allowed action's text to the action.

    ``world`` adds a full deal consistent with the seat's view, drawn from its information set
    (``View.sample``): nothing the seat could not draw itself, for engines (``tekkasim engine``) that
    decide by the rules engine and need a state to start from.

    ``cache`` (a dict the caller keeps, one per engine) lets the observation of the next decisions of
    the same deal be brought up to date instead of built again, where the ruleset keeps observations
    (its ``Ruleset.engine_messages`` module: ``start(state, seat)`` and ``keep(view, obs)`` give an object
    with ``update(view) -> text | None`` and ``line(text, view, ident, ruleset, options, time_ms, seed,
    world) -> (line, allowed)``; ``record_observation(state, seat)`` an observation made without the
    ``View``, or None). The line is the same byte for byte (tested against a build without it)."""
    messages = _messages(view.game.name) if cache is not None else None
    fast = cache.get(view.seat) if cache is not None else None
    obs_text = fast.update(view) if fast is not None else None
    state = view._state
    if obs_text is None and messages is not None and hasattr(messages, "start"):
        fast = messages.start(state, view.seat)  # the seat's first decision in the play
        obs_text = fast.update(view) if fast is not None else None
        if obs_text is not None:
            cache[view.seat] = fast
    if obs_text is not None:
        return fast.line(obs_text, view, ident, ruleset, options, time_ms, seed, world)
    # possible actions that are fouls (Satat's Renonces) are sent apart, as ``possible``; other possible
    # actions are legal forms that random play and search leave out of ``View.legal`` (Feskot and Tekka
    # signals): legal for engines
    renonces = view.game.possible_are_fouls
    legal = {view.action_to_string(a): a for a in (view.legal if renonces else view.possible)}
    allowed = dict(legal)
    obs = None
    if messages is not None and hasattr(messages, "record_observation"):
        obs = messages.record_observation(state, view.seat)
    if obs is None:
        obs = observation_json(view)
    msg: dict[str, Any] = {
        "type": "decide",
        "id": ident,
        "ruleset": ruleset,
        "options": options,
        "seat": SEATS[view.seat],
        "observation": obs,
        "legal": list(legal),
        "optional": view.optional,
        "time_ms": time_ms,
        "seed": seed,
    }
    if renonces and len(view.possible) > len(view.legal):
        possible = {view.action_to_string(a): a for a in view.possible}
        msg["possible"] = list(possible)
        allowed.update(possible)
    if world:
        msg["world"] = world_record(view, seed)
    if cache is not None:
        kept = messages.keep(view, obs) if messages is not None and hasattr(messages, "keep") else None
        if kept is not None:
            cache[view.seat] = kept
        else:
            cache.pop(view.seat, None)
    return (_dumps(msg) + "\n").encode(), allowed
