"""One text rendering of a deal for every ruleset (``tekkasim deal`` and ``tekkasim replay``).

It is built from what every ruleset shares: the state's deal record (records.md: hands as dealt, trump,
tricks as played, calls) and the public trick history of its observation (who led, who won). The layout
is the same for all four rulesets::

    deal 0 · feskot · seed 7 · first dealt bottom
      bottom (A)  ♠ K Q 8 6 3  ♥ 3  ♦ Q 8 5 4 2  ♣ T 2        first five K♠ 3♥ Q♦ 8♠ T♣
      right  (B)  ...
    trump: ♠
       1  bottom A♠*  right 3♠  top 9♠:drop  left 4♠
    result: tricks A 7 - B 3 · winner A

a header line (ruleset, seed, the seats and scores the deal starts from), the hands as dealt by seat
(grouped by suit, high first, jokers first; the first five cards in dealt order where the ruleset deals
five first: the Prime or Troupe is chosen from them), the calls of the ruleset (auction, draw,
declarations, kitty ...), the trump, one line per trick in the order played with the winning play
marked ``*``, and the result (or where the deal stops).
"""

from __future__ import annotations

from .cards import BIG_JOKER, RANKS, SEATS, SMALL_JOKER, SUIT_SYMBOLS, card_symbol, parse_card, parse_seat
from .errors import TekkasimError

# Header fields, in this order, as "label value"; the ruleset's starting seat under its own name
# (``Game.first_seat_label``).
_HEADER = (
    ("first", "first"),
    ("dealer", "dealer"),
    ("caller", "caller"),
    ("redeals", "redeals"),
    ("declare_first", "declaring from"),
    ("level", "level"),
    ("levels", "levels"),
    ("score_before", "score before"),
    ("match", "match"),
    ("deal_no", "deal no"),
)
# Calls and other per-ruleset fields, one line each, in this order.
_CALLS = ("draw", "redealt", "auction", "raises", "declarations", "kitty", "buried", "exchange")


def render_state(state, index: int | None = None, error: str | None = None, source: dict | None = None) -> str:
    """The deal of ``state`` so far in the common layout; ``error`` (a broken rule) ends it. ``source`` is
    the record the state was replayed from: its ``seed``, ``match`` and ``deal_no`` go in the header."""
    record = state.to_record()
    for key in ("seed", "match", "deal_no"):
        if source and source.get(key) is not None:
            record[key] = source[key]
    game = state.game
    lines = [_header(record, game, index)]
    # the first five cards dealt, where they decide something (Prime, Troupe, a Satat redeal)
    lines += _hands(record.get("hands") or {}, game.first_five)
    lines += _calls(record, game.public_record_fields)
    trump = record.get("trump")
    lines.append(f"trump: {_suit_text(trump) if trump else 'not chosen yet'}")
    lines += _tricks(state, record)
    if error is not None:
        lines.append(f"!! stops here: {error}")
    elif state.is_terminal():
        lines.append("result: " + _result_text(state.result()))
    else:
        lines.append(f"next: {state.where()}")
    return "\n".join(lines)


# --- pieces --------------------------------------------------------------------------------------


def _header(record: dict, game, index: int | None) -> str:
    parts = [] if index is None else [f"deal {index}"]
    parts.append(record.get("ruleset", game.name))
    if record.get("seed") is not None:
        parts.append(f"seed {record['seed']}")
    for key, label in _HEADER:
        if key in record and record[key] is not None:
            if key == game.first_seat:
                label = game.first_seat_label
            parts.append(f"{label} {_value_text(record[key])}")
    if record.get("dealer", 0) is None:
        parts.append("dealer not yet known (first deal)")
    return " · ".join(parts)


def _hands(hands: dict, first_five: bool) -> list[str]:
    rows = {}
    for key, cards in hands.items():
        try:
            rows[parse_seat(key)] = cards
        except TekkasimError:
            continue
    shown = []  # (by suit, first five or None)
    for seat in range(4):
        cards = rows.get(seat)
        if not isinstance(cards, list):
            continue
        kinds = _kinds(cards)
        five = " ".join(card_symbol(c) for c in kinds[:5]) if first_five and len(kinds) > 5 else None
        shown.append((f"  {SEATS[seat]:<6} ({'AB'[seat & 1]})  {_by_suit(kinds)}", five))
    width = max((len(line) for line, _ in shown), default=0)
    return [f"{line:<{width}}    first five {five}" if five else line for line, five in shown]


def _kinds(cards: list) -> list[int]:
    out = []
    for text in cards:
        try:
            out.append(parse_card(text, jokers=True))
        except TekkasimError:
            continue
    return out


def _by_suit(kinds: list[int]) -> str:
    """Jokers first, then ♠ ♥ ♦ ♣ with ranks high first (a Shengji pair shows its rank twice)."""
    groups = [" ".join(card_symbol(j) for j in (BIG_JOKER, SMALL_JOKER) for _ in range(kinds.count(j)))]
    groups = [g for g in groups if g]
    for s in (3, 2, 1, 0):
        ranks = sorted((c % 13 for c in kinds if c < 52 and c // 13 == s), reverse=True)
        groups.append(f"{SUIT_SYMBOLS[s]} {' '.join(RANKS[r] for r in ranks) if ranks else '-'}")
    return "  ".join(groups)


def _calls(record: dict, more: tuple[str, ...] = ()) -> list[str]:
    lines = []
    for key in dict.fromkeys((*_CALLS, *more)):
        value = record.get(key)
        if value in (None, [], {}):
            continue
        if key in ("auction", "declarations") and isinstance(value, list):
            start = record.get("first") if key == "auction" else record.get("declare_first")
            try:
                seat = parse_seat(start)
            except TekkasimError:
                seat = None
            calls = [
                (f"{SEATS[(seat + i) % 4]} " if seat is not None else "") + _play_text(c) for i, c in enumerate(value)
            ]
            lines.append(f"{key}: {', '.join(calls)}")
        elif key == "redealt" and isinstance(value, list):
            caller = record.get("caller")
            for i, deal in enumerate(value, 1):
                hand = deal.get(caller) if isinstance(deal, dict) else None
                shown = " ".join(_play_text(c) for c in hand[:5]) if isinstance(hand, list) else "?"
                lines.append(f"redealt {i}: the caller's first five {shown}")
        elif key == "raises" and isinstance(value, list) and all(isinstance(x, dict) for x in value):
            asked = []
            for x in value:  # trick and play are 0-based in the record; people count from 1
                answer = {True: "accepted", False: "refused"}.get(x.get("accepted"), "unanswered")
                where = f"trick {_value_text(_plus_one(x.get('trick')))}, play {_value_text(_plus_one(x.get('play')))}"
                asked.append(f"{x.get('by')} asks {_value_text(x.get('target'))} before {where} ({answer})")
            lines.append(f"raises: {', '.join(asked)}")
        elif key == "exchange" and isinstance(value, list):
            gifts = [
                f"{x.get('from')} gives {_play_text(x.get('card'))} to {x.get('to')}"
                if isinstance(x, dict)
                else _value_text(x)
                for x in value
            ]
            lines.append(f"exchange: {', '.join(gifts)}")
        else:
            lines.append(f"{key}: {_value_text(value)}")
    return lines


def _tricks(state, record: dict) -> list[str]:
    """One line per trick: the record's plays (with signals and accusations, as written) beside the seats
    and winner of the observation's shared ``tricks`` field."""
    texts = record.get("tricks") or []
    public = _public_tricks(state)
    lines = []
    for i, trick in enumerate(texts):
        if not isinstance(trick, list):
            continue
        seats, winner = public[i] if i < len(public) else ([], None)
        parts, played = [], 0
        for play in trick:
            if isinstance(play, dict):  # a Satat accusation, where it was made
                parts.append(f"[{play.get('by')} accuses {play.get('accuse')} of {_play_text(play.get('card'))}]")
                continue
            seat = seats[played] if played < len(seats) else None
            played += 1
            who = f"{SEATS[seat]} " if seat is not None else ""
            parts.append(f"{who}{_play_text(play)}{'*' if seat is not None and seat == winner else ''}")
        lines.append(f"  {i + 1:>2}  " + "  ".join(parts))
    return lines


def _public_tricks(state) -> list[tuple[list[int], int | None]]:
    """``(seats in play order, winner or None)`` of every trick begun, from the ``tricks`` field that every
    ruleset's observation shares (``{"leader", "plays": [(seat, play), ...], "winner"}``)."""
    out = []
    for t in state.observation(0).public.get("tricks") or []:
        out.append(([int(seat) for seat, _ in t["plays"]], None if t["winner"] is None else int(t["winner"])))
    return out


def _plus_one(value):
    return value + 1 if isinstance(value, int) and not isinstance(value, bool) else value


# --- text of values --------------------------------------------------------------------------------


def _suit_text(trump) -> str:
    if isinstance(trump, str) and trump.strip().upper() == "NT":
        return "no trump"
    try:
        return SUIT_SYMBOLS[parse_card("2" + str(trump).strip()) // 13]
    except TekkasimError:
        return str(trump)


def _play_text(text) -> str:
    """Card text with suit symbols (``"9S:drop"`` -> ``"9♠:drop"``, ``"5H 5H"`` -> ``"5♥ 5♥"``); calls and
    anything else unchanged."""
    if not isinstance(text, str):
        return _value_text(text)
    card_part, sep, suffix = text.partition(":")
    try:
        cards = [card_symbol(parse_card(t, jokers=True)) for t in card_part.split()]
    except TekkasimError:
        return text
    return " ".join(cards) + (sep + suffix if sep else "") if cards else text


def _value_text(value) -> str:
    if isinstance(value, dict):
        if set(value) == {"A", "B"}:
            return f"A {_value_text(value['A'])} - B {_value_text(value['B'])}"
        return ", ".join(f"{k} {_play_text(v) if isinstance(v, str) else _value_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return (
            " | ".join(_value_text(v) for v in value)
            if value and isinstance(value[0], dict)
            else " ".join(_play_text(v) if isinstance(v, str) else _value_text(v) for v in value) or "none"
        )
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _result_text(result: dict) -> str:
    parts = []
    for key, value in result.items():
        if key == "renonces":
            listed = [f"trick {t + 1} {SEATS[s] if isinstance(s, int) else s}" for t, s in value] if value else []
            parts.append(f"renonces {', '.join(listed) or 'none'}")
        else:
            parts.append(f"{key.replace('_', ' ')} {_value_text(value)}")
    return " · ".join(parts)
