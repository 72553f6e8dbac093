"""Satat's engine messages kept up to date through the play (``Ruleset.engine_messages``, read by
``tekkasim.bots.engines.protocol.decide_message``): a seat's observation from the round's record at its
first decision in the play, the Troupe choice's from the record, without the ``View``'s observation. Every
line is byte for byte the full build's."""

from __future__ import annotations

from typing import Any

from tekkasim.bots.base import View
from tekkasim.bots.engines.protocol import _NAME, _ORDER, _PUBLIC_KEYS, _dumps, _scalar, hand_text, world_record
from tekkasim.cards import SEATS
from tekkasim.rulesets.satat import game as satat
from tekkasim.rulesets.satat.game import SatatState
from tekkasim.rulesets.trick52.engine_messages import _QUOTED, _SEAT_QUOTED, _Play52


class _PlaySatat(_Play52):
    """The observation of one seat of a Satat round in its play (phases ``play`` and ``collect``), kept up
    to date as :class:`_Play52` keeps Feskot's: through the play only the tricks, the hand, the phase,
    ``to_move`` and ``won`` change, and only by cards. Anything else (an accusation or ``collect``, which
    end the round): a full build again."""

    __slots__ = ("seat_head",)

    def __init__(self, state: SatatState, seat: int, obs: dict, n: int):
        super().__init__(state, seat, obs, n)
        self.seat_head = '{"seat":' + _dumps(obs["seat"]) + ',"phase":"'

    def line(self, obs_text: str, view: View, ident, ruleset, options, time_ms, seed, world):
        return _satat_line(self, obs_text, view, ident, ruleset, options, time_ms, seed, world)

    def update_state(self, state: SatatState, seat: int) -> str | None:
        if state is not self.state or seat != self.seat or state._troupe < 0:
            return None
        st = state._st
        if st[satat.K.OVER]:
            return None
        history = state._history
        end = len(history)
        if self.n < end:
            trick, hand = self.trick, self.hand
            for a in history[self.n : end]:
                if a >= 52:
                    return None
                text = _QUOTED[a]
                trick.append(text)
                if text in hand:  # played by this seat
                    hand.remove(text)
                if len(trick) == 4:
                    self._close_trick()
            self.n = end
        tricks = self._tricks()
        return "".join((
            self.seat_head, "collect" if st[satat.K.DECIDED] != satat.K.NONE else "play",
            '","to_move":', _SEAT_QUOTED[st[satat.K.TO_MOVE]],
            ',"hand":[', ",".join(self.hand),
            '],"won":{"A":', str(int(st[satat.K.WON_A])), ',"B":', str(int(st[satat.K.WON_B])),
            "}", self.head[1], tricks, self.tail,
        ))  # fmt: skip

    @classmethod
    def at_play_start(cls, state: SatatState, seat: int) -> _PlaySatat | None:
        """The observation of ``seat`` as it stood before the first card of the play, made from the
        state's record (one ``to_record`` serves every seat of the round) without a ``View``; ``update``
        then adds the cards since. None when the round is over or an action other than a card followed
        Troupe."""
        history = state._history
        start = len(history)
        while start and history[start - 1] < 52:
            start -= 1
        if not start or history[start - 1] >= satat.REDEAL or state._st[satat.K.OVER]:
            return None  # no Troupe action before the cards: not a play
        record = _SATAT_RECORD[1] if _SATAT_RECORD[0] is state else None
        if record is None:
            record = state.to_record()
            _SATAT_RECORD[:] = [state, record]
        return cls(state, seat, _satat_observation(state, seat, record, start), start)


# The record of the Satat round whose play ``_PlaySatat.at_play_start`` read last: through the play only its
# tricks change, and they are taken from the history instead.
_SATAT_RECORD: list = [None, None]


def _satat_observation(state: SatatState, seat: int, record: dict, n: int) -> dict:
    """:func:`observation_json` of ``seat`` in a Satat round as it stood after the first ``n`` actions of
    its history, from ``record`` (the round's ``to_record`` at any point after them; only its tricks are
    read from the history): before Troupe (``n`` all of it) or at the start of the play (``n`` up to the
    Troupe choice)."""
    name = SEATS[seat]
    chosen = state._troupe >= 0
    cards = [a for a in state._history[n:] if a < 52] if chosen else []
    if chosen:  # at the start of the play: the cards held now and those played since
        hand = int(state._hands[seat]) | sum(1 << c for i, c in enumerate(cards) if _satat_player(state, i) == seat)
    else:
        hand = _satat_mask(state._dealt[seat][:5])
    own = sorted((c for c in record["hands"][name] if hand >> _ORDER[c] & 1), key=_ORDER.__getitem__)
    out = {key: record[key] for key in _PUBLIC_KEYS if key in record}
    if chosen:
        out["tricks"] = []
        out.pop("result", None)
        out["unfinished"] = True
    out["hands"] = {name: own}
    if "exchange" in record:
        out["exchange"] = [e for e in record["exchange"] if name in (e["from"], e["to"])]
    if state._abandoned:
        out["redealt"] = [[_NAME[c] for c in deal[seat][:5]] for deal in state._abandoned]
    score = state.score_before
    return {
        "seat": name,
        "phase": "play" if chosen else state.phase(),
        "to_move": SEATS[state.caller],  # the caller chooses Troupe and leads the first trick
        "hand": hand_text(hand),
        "won": {"A": 0, "B": 0},
        "score": {"A": score[0], "B": score[1]},
        "record": out,
    }


def _satat_player(state: SatatState, i: int) -> int:
    """The seat that played the ``i``-th card of the round (clockwise from each trick's leader)."""
    t, j = divmod(i, 4)
    return (int(state._st[satat.K.LEADERS + t]) + 3 * j) % 4


def _satat_mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_SATAT_TEXT: list[str] = []  # a Satat action's text, by action (made on first use)


def _satat_line(
    fast: _PlaySatat, obs_text: str, view: View, ident, ruleset, options, time_ms, seed, world
) -> tuple[bytes, dict[str, Any]]:
    """:func:`decide_message`'s line and map for a Satat decision in the play, the observation kept up to
    date: ``legal`` (cards that follow, ``collect``, accusations), then ``possible`` when it holds more
    (every card held: Renonces), as the full build writes them."""
    if not _SATAT_TEXT:
        state = view._state
        _SATAT_TEXT.extend(
            state.action_to_string(a) if a < 58 or a >= satat.ACCUSE else "" for a in range(satat.N_ACTIONS)
        )
    legal = view.legal
    texts = [_SATAT_TEXT[a] for a in legal]
    allowed = dict(zip(texts, legal, strict=True))
    line = "".join((
        '{"type":"decide","id":', _scalar(ident), fast.keys(ruleset, options), obs_text,
        ',"legal":[', '"' + '","'.join(texts) + '"' if texts else "", '],"optional":', _scalar(view.optional),
        ',"time_ms":', _scalar(time_ms), ',"seed":', _scalar(seed),
    ))  # fmt: skip
    possible = view.possible
    if len(possible) > len(legal):
        more = [_SATAT_TEXT[a] for a in possible]
        line += ',"possible":["' + '","'.join(more) + '"]'
        allowed.update(zip(more, possible, strict=True))
    if world:
        line += ',"world":' + _dumps(world_record(view, seed))
    return (line + "}\n").encode(), allowed


def start(state, seat: int):
    """The seat's first decision in the play: its observation from the round's record."""
    if type(state) is SatatState and state._troupe >= 0:
        return _PlaySatat.at_play_start(state, seat)
    return None


def record_observation(state, seat: int) -> dict | None:
    """Troupe or a redeal: the observation from the record, without the ``View``'s."""
    if type(state) is SatatState and state._troupe < 0:
        return _satat_observation(state, seat, state.to_record(), len(state._history))
    return None


def keep(view: View, obs: dict):
    if obs["phase"] in ("play", "collect"):
        return _PlaySatat(view._state, view.seat, obs, len(view._state._history))
    return None
