"""Feskot's and Tekka's engine messages kept up to date through the play (``Ruleset.engine_messages``,
read by ``tekkasim.bots.engines.protocol.decide_message``), and the messages the engine host's deal loop
(``engine_loop``) builds without a ``View``: the Prime choice and Tekka's calls from the record, play
decisions from the seat's kept observation. Every line is byte for byte the full build's."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from tekkasim.bots.base import View
from tekkasim.bots.engines.protocol import (
    _PUBLIC_KEYS,
    _dumps,
    _scalar,
    hand_text,
    world_record,
)
from tekkasim.cards import SEATS, SUITS
from tekkasim.rulesets.trick52 import _kernels as k52
from tekkasim.rulesets.trick52.game import Trick52State, action_text


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

    def line(self, obs_text: str, view: View, ident, ruleset, options, time_ms, seed, world):
        """The decide line and allowed actions of ``view`` with the kept observation ``obs_text``."""
        possible = view.possible
        texts = [_PLAY_TEXT[a] if a < k52.PRIME_BASE else view.action_to_string(a) for a in possible]
        line = _kept_line(self, obs_text, ident, ruleset, options, texts, view.optional, time_ms, seed, world, view)
        return line, dict(zip(texts, possible, strict=True))

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
        # one join: the line is long, and each ``+`` would copy what is built so far
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
        msg["world"] = world_record(View(state, seat), seed)
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
        line += ',"world":' + _dumps(world_record(view, seed))
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
        line += ',"world":' + _dumps(world_record(View(state, seat), seed))
    return (line + "}\n").encode(), CardPlays(legal, signals, extra[1] if extra is not None else None)


def start(state, seat: int):
    """No observation is kept from the record at a seat's first decision (only ``play_decide_message``'s)."""
    return None


def keep(view: View, obs: dict):
    """The kept observation of a seat in the play after a full build, or None."""
    if obs["phase"] in ("play", "raise") and not view.game.possible_are_fouls:
        return _Play52(view._state, view.seat, obs, len(view._state._log))
    return None


# --- the engine host's deal loop (``engine_loop``): an engine's decisions without a View ---------------


def play_decision(bot, state: Trick52State, seat: int, seed: int, legal: int, raises: int) -> int | None:
    """The engine ``bot``'s decision for ``seat``, to move in the play: a card of the mask ``legal`` or one of
    the ``raises`` raise requests it may ask for, or in phase ``raise`` its answer; None when only ``act``
    will do."""
    game = state.game

    def build(ident, time_ms, world, observations):
        return play_decide_message(
            observations, state, seat, legal, ident, game.name, game.options, time_ms, seed, world, raises
        )

    return bot.decide_built(build, state, seat)


def choose_prime(bot, state: Trick52State, seat: int, seed: int) -> int:
    """The engine ``bot``'s Prime for ``seat``."""
    game = state.game

    def build(ident, time_ms, world, observations):
        observations.pop(seat, None)  # as a full build out of the play does
        return prime_decide_message(state, ident, game.name, game.options, time_ms, seed, world)

    return bot.decide_built(build, state, seat)


def auction_call(bot, state: Trick52State, seat: int, seed: int) -> int:
    """The engine ``bot``'s call for ``seat`` in Tekka's auction."""
    game = state.game

    def build(ident, time_ms, world, observations):
        return call_decide_message(state, ident, game.name, game.options, time_ms, seed, world)

    return bot.decide_built(build, state, seat)
