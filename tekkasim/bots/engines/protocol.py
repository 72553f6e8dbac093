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
from collections.abc import Iterator, Mapping
from typing import Any

from tekkasim.rulesets.satat import game as satat
from tekkasim.rulesets.satat.game import SatatState
from tekkasim.rulesets.trick52 import _kernels as k52
from tekkasim.rulesets.trick52.game import Trick52State, action_text

from ...cards import SEATS, SUITS, card_name
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
    out = {k: record[k] for k in _PUBLIC_KEYS if k in record}
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


class _Play52:
    """The observation of one seat of a Feskot or Tekka deal in its play, kept up to date.

    Through the play only the tricks, the hand, ``to_move`` and ``won`` change, by card plays, and with
    Tekka's option raises the record's ``raises`` and the phase (``raise`` while a request awaits its
    answer): the rest is serialised once from the full build (:func:`observation_json`) and the actions
    since are appended from the state's action log. Any other phase: a full build again."""

    __slots__ = (
        "state", "seat", "n", "head", "tail", "done", "closed", "trick", "hand", "start", "raised", "pending", "rtail",
    )  # fmt: skip

    def __init__(self, state: Trick52State, seat: int, obs: dict, n: int):
        record = obs["record"]
        items = list(record.items())
        at = [key for key, _ in items].index("tricks")
        self.state = state
        self.seat = seat
        self.n = n  # the actions of the state's log that ``obs`` shows
        tricks = record["tricks"]
        self.head = (
            '{"seat":' + _dumps(obs["seat"]) + ',"phase":',
            ',"score":' + _dumps(obs["score"]) + ',"record":{' + _dumps(dict(items[:at]))[1:-1] + ',"tricks":[',
        )  # a compact dump of a dict, less its braces, is its items joined by ","
        after = dict(items[at + 1 :])
        raises = after.pop("raises", [])  # first after the tricks (_PUBLIC_KEYS), kept up to date apart
        self.tail = "]" + ("," + _dumps(after)[1:-1] if after else "") + "}}"
        # Tekka's raises as JSON, the one awaiting its answer (last) less its closing brace
        self.raised = [_dumps(r) for r in raises if "accepted" in r]
        self.pending = _dumps(raises[-1])[:-1] if raises and "accepted" not in raises[-1] else None
        self._raises_changed()
        # closed tricks as JSON, the open one as its play texts (JSON strings)
        self.done = [_dumps(t) for t in tricks if len(t) == 4]
        self.closed = ",".join(self.done)
        self.trick = [_dumps(p) for p in tricks[-1]] if tricks and len(tricks[-1]) < 4 else []
        self.hand = ['"' + c + '"' for c in obs["hand"]]  # what the seat holds: less its own plays from now on
        self.start: tuple = (None, None, "")  # (ruleset, options, the message's keys from ruleset to observation)

    @classmethod
    def at_play_start(cls, state: Trick52State, seat: int) -> _Play52 | None:
        """The observation of ``seat`` as it stood before the first card of the play, from the state's
        record (one ``to_record``, and one serialisation of what is public in it, serve every seat): what
        a full build at that point gives, without the ``View`` and observation it needs. ``update`` then
        adds the plays since. None before the play."""
        if state.arrays.info[k52.I_PHASE] not in _PHASE_TEXT:
            return None
        log = state._log
        # the play's first action: its first card, or a raise the declarer asks for before leading it
        n = next((i for i, entry in enumerate(log) if not k52.PRIME_BASE <= entry[0] < k52.RAISE_BASE), len(log))
        head, rest = _play_start_texts(state)
        name = SEATS[seat]
        # in the play a seat has seen all its cards (held or played), sorted: by suit, then rank
        own = [_QUOTED[c] for c in sorted(state.arrays.dealt[seat].tolist())]
        fast = cls.__new__(cls)
        fast.state, fast.seat, fast.n = state, seat, n
        fast.head = ('{"seat":"' + name + '","phase":', head)
        fast.tail = fast.rtail = "]," + rest + '"hands":{"' + name + '":[' + ",".join(own) + "]}}}"
        fast.done, fast.closed, fast.trick, fast.hand = [], "", [], own
        fast.raised, fast.pending = [], None
        fast.start = (None, None, "")
        return fast

    def _raises_changed(self) -> None:
        """``rtail``: what follows the tricks' items, with the ``raises`` made so far."""
        raises = self.raised + [self.pending + "}"] if self.pending is not None else self.raised
        self.rtail = "]" + (',"raises":[' + ",".join(raises) + "]" if raises else "") + self.tail[1:]

    def _note_raise(self, a: int, seat: int, t: int, j: int) -> None:
        """A raise request by ``seat`` before play ``j`` of trick ``t``, or the answer to it (``a``)."""
        if a < k52.ACCEPT:
            code = a - k52.RAISE_BASE
            target = '"D13"' if code == k52.D13 else str(code)
            self.pending = f'{{"trick":{t},"play":{j},"by":"{SEATS[seat]}","target":{target}'
        else:
            self.raised.append(self.pending + ',"accepted":' + ("true" if a == k52.ACCEPT else "false") + "}")
            self.pending = None
        self._raises_changed()

    def _close_trick(self) -> None:
        """The trick being played is complete: its text joins the closed tricks."""
        text = "[" + ",".join(self.trick) + "]"
        self.done.append(text)
        self.closed = self.closed + "," + text if self.closed else text
        self.trick.clear()

    def _tricks(self) -> str:
        """The ``tricks`` list's items: the closed tricks, then the one being played."""
        if not self.trick:
            return self.closed
        return (self.closed + ",[" if self.closed else "[") + ",".join(self.trick) + "]"

    def update(self, view: View) -> str | None:
        """The observation JSON for ``view``, or None when only a full build will do."""
        return self.update_state(view._state, view.seat)

    def update_state(self, state: Trick52State, seat: int) -> str | None:
        """The observation JSON of ``seat`` in ``state``, or None when only a full build will do."""
        if state is not self.state or seat != self.seat:  # first: another deal's state may be of another ruleset
            return None
        info = state.arrays.info
        phase = _PHASE_TEXT.get(info[k52.I_PHASE])
        if phase is None:
            return None
        log = state._log
        end = len(log)
        if self.n < end:
            done, trick, hand = self.done, self.trick, self.hand
            for a, who, t, j in log[self.n : end]:
                if t != len(done) or j != len(trick) or k52.PRIME_BASE <= a < k52.RAISE_BASE:
                    return None  # out of the expected order, or not an action of the play: rebuild
                if a >= k52.RAISE_BASE:
                    self._note_raise(a, who, t, j)
                    continue
                trick.append(_QUOTED[a])
                if who == seat:
                    hand.remove(_QUOTED[a % 52])
                if j == 3:
                    self._close_trick()
            self.n = end
        tricks = self._tricks()
        # one join: the line is some 750 bytes, and each ``+`` would copy what is built so far
        return "".join((
            self.head[0], phase, _SEAT_QUOTED[info[k52.I_TO_MOVE]],
            ',"hand":[', ",".join(self.hand),
            '],"won":{"A":', str(int(info[k52.I_TEAM_TRICKS])), ',"B":', str(int(info[k52.I_TEAM_TRICKS + 1])),
            "}", self.head[1], tricks, self.rtail,
        ))  # fmt: skip

    def keys(self, ruleset: str, options: dict) -> str:
        """The text from ``"ruleset"`` to ``"observation":`` of a decide message (the same all deal long)."""
        if ruleset is not self.start[0] or options is not self.start[1]:
            text = ',"ruleset":' + _dumps(ruleset) + ',"options":' + _dumps(options)
            self.start = (ruleset, options, text + ',"seat":"' + SEATS[self.seat] + '","observation":')
        return self.start[2]


class _PlaySatat(_Play52):
    """The observation of one seat of a Satat round in its play (phases ``play`` and ``collect``), kept up
    to date as :class:`_Play52` keeps Feskot's: through the play only the tricks, the hand, the phase,
    ``to_move`` and ``won`` change, and only by cards. Anything else (an accusation or ``collect``, which
    end the round): a full build again."""

    __slots__ = ("seat_head",)

    def __init__(self, state: SatatState, seat: int, obs: dict, n: int):
        super().__init__(state, seat, obs, n)
        self.seat_head = '{"seat":' + _dumps(obs["seat"]) + ',"phase":"'

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


_PLAY_TEXT = [action_text(a) for a in range(k52.PRIME_BASE)]  # a card play's record text, signal included
_PHASE_TEXT = {k52.PH_PLAY: '"play","to_move":', k52.PH_RAISE: '"raise","to_move":'}  # the phases of _Play52
_QUOTED = ['"' + text + '"' for text in _PLAY_TEXT]  # as a JSON string
_SEAT_QUOTED = ['"' + seat + '"' for seat in SEATS]

# The record of the deal in play that ``_Play52.at_play_start`` read last: its fields other than the tricks,
# hands and raises stay as they are through the play, so the seats of one deal share one ``to_record``.
_LAST_RECORD: list = [None, None]


def _play_record(state: Trick52State) -> dict:
    record = _LAST_RECORD[1]
    if _LAST_RECORD[0] is not state:
        record = state.to_record()
    elif "trump" not in record:  # kept from the Prime choice: Prime is the one public field added since
        record = record | {"trump": SUITS[state.prime]}
    _LAST_RECORD[:] = [state, record]
    return record


_PLAY_START: list = [None, None]  # the state of ``_play_start_texts``' last answer, and that answer


def _play_start_texts(state: Trick52State) -> tuple[str, str]:
    """What every seat's observation at the start of the play of ``state`` shares, serialised: from
    ``"score"`` to the opening bracket of the record's ``tricks``, and the record's items after the
    tricks but ``hands`` (each followed by ",")."""
    if _PLAY_START[0] is state:
        return _PLAY_START[1]
    record = _play_record(state)
    visible = {key: record[key] for key in _PUBLIC_KEYS if key in record}
    visible["tricks"] = []
    visible.pop("raises", None)  # made in the play (a record read later has them): brought up to date from the log
    items = list(visible.items())
    at = [key for key, _ in items].index("tricks")
    score = state._score_before()
    head = ',"score":{"A":' + _scalar(score[0]) + ',"B":' + _scalar(score[1]) + "}"
    head += ',"record":{' + _dumps(dict(items[:at]))[1:-1] + ',"tricks":['
    rest = "".join(_dumps({key: value})[1:-1] + "," for key, value in items[at + 1 :])
    _PLAY_START[:] = [state, (head, rest)]
    return head, rest


def prime_decide_message(
    state: Trick52State, ident: int, ruleset: str, options: dict, time_ms: int, seed: int, world: bool = False
) -> tuple[bytes, dict[str, int]]:
    """:func:`decide_message` for the Prime choice of a Feskot or Tekka deal (the seat to move): the same
    line and map, with the observation made from the record (what the seat sees of it) without a
    ``View``."""
    record = state.to_record()
    _LAST_RECORD[:] = [state, record]  # the start of the play reads it again (``_play_record``)
    return _record_decide_message(state, record, "prime", _PRIMES, ident, ruleset, options, time_ms, seed, world)


def call_decide_message(
    state: Trick52State, ident: int, ruleset: str, options: dict, time_ms: int, seed: int, world: bool = False
) -> tuple[bytes, dict[str, int]]:
    """:func:`decide_message` for a call in Tekka's auction (the seat to move): the same line and map, the
    observation made from the record without a ``View``."""
    calls = {_CALL_TEXT[a - k52.CALL_BASE]: a for a in state.legal_actions()}
    # through the auction only the record's calls change: one to_record serves the deal's calls
    record = _AUCTION_RECORD[1]
    if _AUCTION_RECORD[0] is not state:
        record = state.to_record()
        _AUCTION_RECORD[:] = [state, record]
    else:
        record = record | {"auction": [_CALL_TEXT[code] for code in state.calls()]}
    return _record_decide_message(state, record, "auction", calls, ident, ruleset, options, time_ms, seed, world)


_AUCTION_RECORD: list = [None, None]  # the Tekka deal whose calls call_decide_message messaged last, its record


def _record_decide_message(
    state: Trick52State,
    record: dict,
    phase: str,
    allowed: dict[str, int],
    ident,
    ruleset,
    options,
    time_ms,
    seed,
    world,
) -> tuple[bytes, dict[str, int]]:
    seat = int(state.arrays.info[k52.I_TO_MOVE])
    seen = hand_text(int(k52.seen_by(state.arrays, seat)))
    visible = {key: record[key] for key in _PUBLIC_KEYS if key in record}
    visible["hands"] = {SEATS[seat]: seen}
    score = state._score_before()
    won = state.team_tricks()
    obs = {
        "seat": SEATS[seat],
        "phase": phase,
        "to_move": SEATS[seat],
        "hand": seen,
        "won": {"A": won[0], "B": won[1]},
        "score": {"A": score[0], "B": score[1]},
        "record": visible,
    }
    msg: dict[str, Any] = {
        "type": "decide",
        "id": ident,
        "ruleset": ruleset,
        "options": options,
        "seat": SEATS[seat],
        "observation": obs,
        "legal": list(allowed),
        "optional": False,
        "time_ms": time_ms,
        "seed": seed,
    }
    if world:
        from ...bits import new_rng

        msg["world"] = View(state, seat).sample(new_rng(seed ^ 0x5EED)).to_record()
    return (_dumps(msg) + "\n").encode(), dict(allowed)


_PRIMES = {suit: k52.PRIME_BASE + i for i, suit in enumerate("CDHS")}
_CALL_TEXT = {code: action_text(k52.CALL_BASE + code) for code in (0, *range(8, 14), k52.D13)}


def _kept_line(fast, obs_text, ident, ruleset, options, texts, optional, time_ms, seed, world, view) -> bytes:
    line = (
        '{"type":"decide","id":' + _scalar(ident)
        + fast.keys(ruleset, options) + obs_text
        + ',"legal":[' + ('"' + '","'.join(texts) + '"' if texts else "") + "]"
        + ',"optional":' + _scalar(optional)
        + ',"time_ms":' + _scalar(time_ms)
        + ',"seed":' + _scalar(seed)
    )  # fmt: skip
    if world:
        from ...bits import new_rng

        line += ',"world":' + _dumps(view.sample(new_rng(seed ^ 0x5EED)).to_record())
    return (line + "}\n").encode()


# The items of ``legal`` (JSON strings joined by ",", no brackets) of each suit's legal cards (13 bits of a
# card mask: at most 4 x 8191 keys), plain, with ``slam`` and with ``drop``, made on first use.
_SUIT_LEGAL: tuple[dict[int, tuple[str, str, str]], ...] = ({}, {}, {}, {})


def _suit_legal(suit: int, ranks: int) -> tuple[str, str, str]:
    cards = [13 * suit + r for r in range(13) if ranks >> r & 1]
    texts = _SUIT_LEGAL[suit][ranks] = (
        ",".join([_QUOTED[c] for c in cards]),
        ",".join([_QUOTED[c + 52] for c in cards]),
        ",".join([_QUOTED[c + 104] for c in cards]),
    )
    return texts


# The items of ``legal`` by the whole mask (times 2, plus 1 with signals): each suit's follow-suit masks
# recur; emptied when it holds 2^16, as the masks a lead offers (whole hands) are too many to keep.
_LEGAL_TEXT: dict[int, str] = {}


def _legal_json(legal: int, signals: bool) -> str:
    """The items of ``legal`` (without brackets) for the mask of legal cards: each card by suit and rank,
    then with option ``signals`` each with ``slam``, then each with ``drop`` (``possible_actions``'
    order)."""
    key = 2 * legal + signals
    text = _LEGAL_TEXT.get(key)
    if text is not None:
        return text
    parts = []
    for suit in range(4):
        ranks = legal >> 13 * suit & 0x1FFF
        if ranks:
            parts.append(_SUIT_LEGAL[suit].get(ranks) or _suit_legal(suit, ranks))
    plain = [p[0] for p in parts]
    text = ",".join(plain + [p[1] for p in parts] + [p[2] for p in parts]) if signals else ",".join(plain)
    if len(_LEGAL_TEXT) >= 1 << 16:
        _LEGAL_TEXT.clear()
    _LEGAL_TEXT[key] = text
    return text


_PLAY_ACTION = {text: a for a, text in enumerate(_PLAY_TEXT)}  # a card play's text -> its action


class CardPlays(Mapping):
    """The allowed actions of a decision in the play of Feskot or Tekka, from the mask of legal cards: the
    map ``decide_message`` builds (text -> action: each card, then with option ``signals`` each with
    ``slam``, then with ``drop``; then ``extra``, a map of Tekka's raise requests or of the answers to
    one), answering ``get`` without building it."""

    __slots__ = ("legal", "signals", "extra")

    def __init__(self, legal: int, signals: bool, extra: dict[str, int] | None = None):
        self.legal = legal
        self.signals = signals
        self.extra = extra or {}

    def get(self, text: str, default: Any = None) -> Any:
        a = _PLAY_ACTION.get(text)
        if a is None:
            return self.extra.get(text, default)
        if not self.legal >> (a % 52) & 1 or (a >= 52 and not self.signals):
            return default
        return a

    def __getitem__(self, text: str) -> int:
        a = self.get(text)
        if a is None:
            raise KeyError(text)
        return a

    def _actions(self) -> list[int]:
        cards = [c for c in range(52) if self.legal >> c & 1]
        return cards + [c + 52 for c in cards] + [c + 104 for c in cards] if self.signals else cards

    def __iter__(self) -> Iterator[str]:
        yield from (_PLAY_TEXT[a] for a in self._actions())
        yield from self.extra

    def __len__(self) -> int:
        return self.legal.bit_count() * (3 if self.signals else 1) + len(self.extra)


def _texts(actions) -> tuple[str, dict[str, int]]:
    """The items of ``legal`` (JSON strings joined by ",") for ``actions``, and the map of their texts."""
    texts = {action_text(a): a for a in actions}
    return ",".join(_dumps(t) for t in texts), texts


# Tekka's raise requests the declarer may ask for, by their number (``_trick52.n_raises``): the highest
# targets up to 13, then D13; and the answers to a request
_RAISE_REQUESTS = [_texts([k52.RAISE_BASE + code for code in (9, 10, 11, 12, 13, k52.D13)][6 - n :]) for n in range(7)]
_RAISE_ANSWERS = _texts([k52.ACCEPT, k52.REJECT])


def play_decide_message(
    cache: dict,
    state: Trick52State,
    seat: int,
    legal: int,
    ident: int,
    ruleset: str,
    options: dict,
    time_ms: int,
    seed: int,
    world: bool = False,
    raises: int = 0,
) -> tuple[bytes, Mapping[str, int]] | None:
    """:func:`decide_message` for a decision in the play of Feskot or Tekka by the seat to move: a card
    from the mask ``legal``, or one of the ``raises`` raise requests the declarer may ask for now
    (``_trick52.n_raises``), or in phase ``raise`` the answer to a request. The same line and map of
    allowed actions (a :class:`CardPlays`), made without a ``View`` from the seat's observation kept in
    ``cache`` (made from the record at the start of the play when there is none). None when only a full
    build will do (not in the play)."""
    fast = cache.get(seat)
    obs_text = fast.update_state(state, seat) if fast is not None else None
    if obs_text is None:
        fast = _Play52.at_play_start(state, seat)
        obs_text = fast.update_state(state, seat) if fast is not None else None
        if obs_text is None:
            return None
        cache[seat] = fast
    info = state.arrays.info
    signals = bool(info[k52.I_SIGNALS])
    items = _legal_json(legal, signals) if legal else ""
    extra = _RAISE_ANSWERS if info[k52.I_PHASE] == k52.PH_RAISE else _RAISE_REQUESTS[raises] if raises else None
    if extra is not None:
        items = items + "," + extra[0] if items else extra[0]
    line = "".join((
        '{"type":"decide","id":', str(ident), fast.keys(ruleset, options), obs_text,
        ',"legal":[', items,
        '],"optional":false,"time_ms":', _scalar(time_ms), ',"seed":', str(seed),
    ))  # fmt: skip
    if world:
        from ...bits import new_rng

        line += ',"world":' + _dumps(View(state, seat).sample(new_rng(seed ^ 0x5EED)).to_record())
    return (line + "}\n").encode(), CardPlays(legal, signals, extra[1] if extra is not None else None)


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
    the same deal be brought up to date instead of built again: Feskot, Tekka and Satat through their
    play (Satat's from the round's record at a seat's first decision there, and its Troupe choice from the
    record, without the ``View``'s observation). The line is the same byte for byte (tested against a
    build without it)."""
    fast = cache.get(view.seat) if cache is not None else None
    obs_text = fast.update(view) if fast is not None else None
    state = view._state
    if obs_text is None and cache is not None and type(state) is SatatState and state._troupe >= 0:
        fast = _PlaySatat.at_play_start(state, view.seat)  # the seat's first decision in the play
        obs_text = fast.update(view) if fast is not None else None
        if obs_text is not None:
            cache[view.seat] = fast
    if obs_text is not None and type(fast) is _PlaySatat:
        return _satat_line(fast, obs_text, view, ident, ruleset, options, time_ms, seed, world)
    if obs_text is not None:
        possible = view.possible
        texts = [_PLAY_TEXT[a] if a < k52.PRIME_BASE else view.action_to_string(a) for a in possible]
        line = _kept_line(fast, obs_text, ident, ruleset, options, texts, view.optional, time_ms, seed, world, view)
        return line, dict(zip(texts, possible, strict=True))
    # possible actions that are fouls (Satat's Renonces) are sent apart, as ``possible``; other possible
    # actions are legal forms that random play and search leave out of ``View.legal`` (Feskot and Tekka
    # signals): legal for engines
    renonces = view.game.possible_are_fouls
    legal = {view.action_to_string(a): a for a in (view.legal if renonces else view.possible)}
    allowed = dict(legal)
    if cache is not None and type(state) is SatatState and state._troupe < 0:  # Troupe or a redeal: no View
        obs = _satat_observation(state, view.seat, state.to_record(), len(state._history))
    else:
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
        from ...bits import new_rng

        msg["world"] = view.sample(new_rng(seed ^ 0x5EED)).to_record()
    if cache is not None:
        if isinstance(view._state, Trick52State) and obs["phase"] in ("play", "raise") and not renonces:
            cache[view.seat] = _Play52(view._state, view.seat, obs, len(view._state._log))
        elif isinstance(view._state, SatatState) and obs["phase"] in ("play", "collect"):
            cache[view.seat] = _PlaySatat(view._state, view.seat, obs, len(view._state._history))
        else:
            cache.pop(view.seat, None)
    return (_dumps(msg) + "\n").encode(), allowed


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
        from ...bits import new_rng

        line += ',"world":' + _dumps(view.sample(new_rng(seed ^ 0x5EED)).to_record())
    return (line + "}\n").encode(), allowed
