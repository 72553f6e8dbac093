"""What Feskot and Tekka share: the state and game classes over ``_trick52``'s arrays, the action
notation, the observation, determinization and the record header (rules: ``feskot`` and ``tekka``).

Actions (numbers in ``_trick52``): ``0..51`` cards, ``card + 52 * signal`` (1 slam, 2 drop; :func:`with_signal`),
``PRIME_BASE + suit`` (:func:`prime_action`), Tekka's ``CALL_BASE + code`` (code 0 pass, 8..13, 14 = D13),
``RAISE_BASE + code``, ``ACCEPT`` and ``REJECT``. Text (records.md): ``"TS"``, ``"TS:slam"``, a suit
letter for Prime, ``"pass"``, ``"8"`` .. ``"13"``, ``"D13"``, ``"raise 11"``, ``"raise D13"``,
``"accept"``, ``"reject"`` (:func:`action_text`, :func:`parse_action`). A number outside these, or text
that is none of them, is a ``TekkasimError`` with one line.

Signals (option ``signals``, default on): a card may carry ``slam`` or ``drop`` (``"9S:drop"``); they never
change legality, winner or score and are public in observations. With ``signals=False`` a signalled play
is illegal (rule ``"signals-off"``). Signals exist only in Feskot and Tekka.

Observations (``state.observation(seat)``)
------------------------------------------
``hand`` is the seat's cards as a 52-card mask: in Feskot before Prime only its first five, afterwards
what it still holds; ``private`` is empty. ``public`` (shared names of ``base.Observation`` first):

``trump``       Prime (suit 0..3), None before it is chosen
``tricks``      ``[{"leader": seat, "plays": [(seat, card), ...], "winner": seat | None}, ...]``, every
                trick begun, in order
``score``       the match score before this deal, ``(A, B)``: Feskot ``(0, 0)`` (a game is one deal),
                Tekka the ``score`` the deal was started with
``won``         team tricks so far, ``(A, B)``
``hand_sizes``  cards each seat holds (Feskot before Prime: ``[5, 5, 5, 5]``, what each has seen)
``voids``       per seat, bitmask of suits it has shown void in by not following (bit ``suit``)
``first``       the first-dealt (Tekka: first-asked) seat
``signals``     per trick, per play in play order: 0 none, 1 slam, 2 drop
``seat_tricks`` tricks won by each seat (a D13 needs the declarer's own)

Tekka adds its auction fields (``calls``, ``declarer``, ``target``, ...; see ``tekka``).
``state.information_key(seat)`` (``base.freeze`` of the observation) is equal for two states exactly when
these are. ``state.resample(seat, rng)`` depends only on that observation and ``rng`` (see its docstring).

Beyond the base contract: ``game.from_hands(hands, first=...)`` builds a deal from given hands (tests,
studies); ``state.rollout(rng)`` plays a copy of the state's arrays to the end with random legal actions in
one kernel call (``_trick52.rollout``), for Monte Carlo; ``state.resample(seat, rng)`` is exact (uniform
over every deal consistent with the seat's observation, voids included). The state's arrays are
``_trick52.Arrays`` (documented field by field there).

Records: a record may stop at the deciding trick or carry on to trick 13; when it carries on (found by a
dry run of its plays) the state is built "playing on" and accepts plays to trick 13, and the result
counts every trick present.
"""

from __future__ import annotations

from functools import lru_cache
from math import factorial
from typing import Any

import numpy as np

from tekkasim import bits
from tekkasim.cards import (
    SEATS,
    SUITS,
    TEAMS,
    CardSet,
    card_name,
    card_symbol,
    mask_of,
    parse_card,
    parse_seat,
    parse_suit,
    team_of,
)
from tekkasim.errors import CardError, IllegalAction, RecordError, SeatError, TekkasimError
from tekkasim.records import FORMAT, parse_hands, require
from tekkasim.rules.base import TERMINAL, Game, Observation, State
from tekkasim.rulesets.trick52 import _kernels as k

SIGNAL_NAMES = ("", "slam", "drop")
PRIME_BASE = k.PRIME_BASE


def with_signal(card: int, signal: str | None) -> int:
    """The action of playing ``card`` with ``signal`` (``"slam"``, ``"drop"`` or None)."""
    if signal is None or signal == "":
        return card
    key = str(signal).strip().lower()
    if key not in ("slam", "drop"):
        raise TekkasimError(f"unknown signal {signal!r} (expected slam or drop)")
    return card + k.SIGNAL_MULT * SIGNAL_NAMES.index(key)


def prime_action(suit: int) -> int:
    """The action of choosing ``suit`` (0..3) as Prime."""
    return PRIME_BASE + suit


class Trick52State(State):
    """A Feskot or Tekka deal: ``arrays`` (``_trick52.Arrays``) plus the action history.

    The subclasses add the ruleset's record fields, result and match context.
    """

    def __init__(self, game: Trick52Game, arrays: k.Arrays, seed: int | None):
        self.game = game
        self.arrays = arrays
        self.seed = seed
        self._history: list[int] = []
        # (action, seat, trick, play) of every action, for records and rendering
        self._log: list[tuple[int, int, int, int]] = []
        self._buf = np.empty(k.MAX_ACTIONS, np.int64)

    # --- small accessors ---------------------------------------------------------------------------
    @property
    def info(self) -> np.ndarray:
        return self.arrays.info

    def _i(self, index: int) -> int:
        return int(self.arrays.info[index])

    @property
    def first(self) -> int:
        return self._i(k.I_FIRST)

    @property
    def prime(self) -> int | None:
        p = self._i(k.I_PRIME)
        return None if p < 0 else p

    def team_tricks(self) -> tuple[int, int]:
        return self._i(k.I_TEAM_TRICKS), self._i(k.I_TEAM_TRICKS + 1)

    def seat_tricks(self) -> list[int]:
        return [self._i(k.I_SEAT_TRICKS + s) for s in range(4)]

    def hand(self, seat: int) -> int:
        """The 52-card mask of what ``seat`` still holds."""
        return int(self.arrays.hand[seat])

    def dealt(self, seat: int) -> list[int]:
        return [int(c) for c in self.arrays.dealt[seat]]

    def tricks(self) -> list[list[tuple[int, int, int]]]:
        """Every trick begun, as lists of ``(seat, card, signal)`` in play order."""
        a = self.arrays
        out = []
        for t in range(min(self._i(k.I_TRICK) + 1, 13)):
            leader = int(a.leader[t])
            if leader < 0 or a.plays[t, 0] < 0:
                break
            out.append(
                [((leader + j) % 4, int(a.plays[t, j]), int(a.signal[t, j])) for j in range(4) if a.plays[t, j] >= 0]
            )
        return out

    def winners(self) -> list[int]:
        return [int(w) for w in self.arrays.winner[: self._i(k.I_TRICK)]]

    # --- contract ------------------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._i(k.I_PHASE) == k.PH_TERMINAL else self._i(k.I_TO_MOVE)

    def phase(self) -> str:
        return k.PHASE_NAMES[self._i(k.I_PHASE)]

    def legal_actions(self) -> list[int]:
        n = k.legal_actions(self.arrays, self._buf)
        return [int(a) for a in self._buf[:n]]

    def possible_actions(self) -> list[int]:
        """Every action the rules accept now: ``legal_actions()`` plus, with option ``signals`` on, each legal
        card with a ``slam`` or ``drop`` signal (``card + 52 * signal``). ``legal_actions`` leaves the
        signalled forms out to keep random play and search over cards; bots that signal choose from these."""
        legal = self.legal_actions()
        if not self._i(k.I_SIGNALS) or self._i(k.I_PHASE) != k.PH_PLAY:
            return legal
        cards = [a for a in legal if a < 52]
        return sorted(legal + [c + k.SIGNAL_MULT * s for s in (1, 2) for c in cards])

    def apply_action(self, action) -> None:
        a = self._check(action)
        seat, trick, play = self._i(k.I_TO_MOVE), self._i(k.I_TRICK), self._i(k.I_PLAY)
        k.apply_action(self.arrays, a)
        self._history.append(a)
        self._log.append((a, seat, trick, play))

    def note_applied(self, rows) -> None:
        """Keep in the history actions that a kernel has already applied to ``arrays`` (the engine host's
        deal loop, ``bots.engines.table52``), given in order as rows ``(action, seat, trick, play)``."""
        for row in rows:
            self._history.append(row[0])
            self._log.append(tuple(row))

    def _check(self, action) -> int:
        """Return ``action`` as an int if the rules allow it now, else raise ``IllegalAction``."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalAction(f"not an action of {self.game.name}: {action!r}", "unknown-action")
        a = int(action)
        phase = self._i(k.I_PHASE)
        if phase == k.PH_TERMINAL:
            raise IllegalAction("the deal is over", "deal-over")
        seat = self._i(k.I_TO_MOVE)
        who = SEATS[seat]
        if 0 <= a < k.PRIME_BASE:
            c, signal = a % 52, a // 52
            if phase != k.PH_PLAY:
                raise IllegalAction(
                    f"a card cannot be played now: {who} must make a {self.phase()} choice", "wrong-phase"
                )
            if signal and not self._i(k.I_SIGNALS):
                raise IllegalAction("signals are off in this game", "signals-off")
            if not self.hand(seat) >> c & 1:
                raise IllegalAction(f"{card_name(c)} is not in {who}'s hand", "not-in-hand")
            if not int(k.current_legal_mask(self.arrays)) >> c & 1:
                led = SUITS[self.arrays.plays[self._i(k.I_TRICK), 0] // 13]
                raise IllegalAction(f"{who} holds {led} and must follow suit, not play {card_name(c)}", "follow-suit")
            return a
        legal = self.legal_actions()
        if a in legal:
            return a
        self._explain_illegal(a, who)
        raise IllegalAction(f"{self.action_to_string(a)} is not allowed now", "illegal")

    def _explain_illegal(self, a: int, who: str) -> None:
        """Raise a specific ``IllegalAction`` for a non-card action that is not legal (or return)."""
        if k.PRIME_BASE <= a < k.PRIME_BASE + 4:
            raise IllegalAction(f"Prime is chosen only before the play (now: {self.phase()})", "wrong-phase")
        if not (k.PRIME_BASE <= a <= k.REJECT):
            raise IllegalAction(f"not an action of {self.game.name}: {a!r}", "unknown-action")

    # --- information -------------------------------------------------------------------------------
    def _visible_hand(self, seat: int) -> int:
        return int(k.seen_by(self.arrays, seat))

    def _hand_sizes(self) -> list[int]:
        return [int(self.arrays.hand[s]).bit_count() for s in range(4)]

    def _score_before(self) -> tuple[int, int]:
        return (0, 0)

    def _public(self) -> dict:
        tricks, signals = [], []
        winners = self.arrays.winner
        for t, trick in enumerate(self.tricks()):
            w = int(winners[t])
            tricks.append(
                {"leader": trick[0][0], "plays": [(s, c) for s, c, _ in trick], "winner": None if w < 0 else w}
            )
            signals.append([sig for _, _, sig in trick])
        return {
            "trump": self.prime,
            "tricks": tricks,
            "score": self._score_before(),
            "won": self.team_tricks(),
            "hand_sizes": self._hand_sizes(),
            "voids": [self._i(k.I_VOIDS + s) for s in range(4)],
            "first": self.first,
            "signals": signals,
            "seat_tricks": self.seat_tricks(),
        }

    def observation(self, seat: int) -> Observation:
        seat = parse_seat(seat)
        return Observation(
            seat=seat,
            phase=self.phase(),
            to_move=self.current_player(),
            hand=self._visible_hand(seat),
            public=self._public(),
            private={},
        )

    def resample(self, seat: int, rng) -> State:
        """A full state that ``seat`` cannot tell from this one: every card it cannot see is redrawn
        uniformly among the hidden places (other seats' unplayed cards, and in Feskot before Prime also
        the seat's own last eight), respecting hand sizes and the voids revealed by not following.

        The new world depends only on ``seat``'s observation and ``rng``: the hidden cards are gathered in
        ascending order, not from where they lie, every row of ``dealt`` but the seat's own first five is
        put in a random order, and the world carries no seed. Exact: first ``_trick52.resample_hidden``
        (one kernel call: shuffle the hidden cards into the hidden places, rejecting deals that break a
        void, up to ``REJECTION_TRIES`` times), then, if every try failed, an exact count over suits
        (``_draw_counted``). Each path is uniform over the consistent deals, so their mixture is too.
        ``rng`` is a kernel RNG array (``bits.new_rng``), advanced in place.
        """
        seat = parse_seat(seat)
        if not (isinstance(rng, np.ndarray) and rng.dtype == np.uint64 and rng.shape == (1,)):
            raise TekkasimError("resample needs a kernel RNG state: tekkasim.bits.new_rng(seed)")
        new = self.clone()
        new.seed = None  # the true deal's seed would give its hidden cards away
        if k.resample_hidden(new.arrays, seat, rng, REJECTION_TRIES):
            return new
        pool = np.empty(52, np.int64)
        slot_seat = np.empty(52, np.int64)
        n = int(k.hidden_places(new.arrays, seat, pool, slot_seat))
        caps: dict[int, int] = {}
        for s in slot_seat[:n].tolist():
            caps[s] = caps.get(s, 0) + 1
        void = {s: self._i(k.I_VOIDS + s) if s != seat else 0 for s in caps}
        by_seat = _draw_counted(mask_of(pool[:n].tolist()), caps, void, rng)
        pool[:n] = [c for s in sorted(caps) for c in by_seat[s]]
        k.place_hidden(new.arrays, seat, pool, slot_seat, n, rng)
        return new

    def rollout(self, rng) -> k.Arrays:
        """The arrays of this deal played on to its end with uniformly random legal actions (no signals) in
        one kernel call; this state is unchanged. ``rng`` is a kernel RNG array, advanced in place. Read the
        outcome with the ``_trick52.I_*`` indexes (team tricks, contract) or ``_trick52.tekka_score``."""
        arrays = self.arrays.copy()
        k.rollout(arrays, rng)
        return arrays

    # --- copies and text ---------------------------------------------------------------------------
    def clone(self) -> Trick52State:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.arrays = self.arrays.copy()
        new._history = list(self._history)
        new._log = list(self._log)
        new._buf = np.empty(k.MAX_ACTIONS, np.int64)
        return new

    def history(self) -> list[int]:
        return list(self._history)

    def action_to_string(self, action) -> str:
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise TekkasimError(f"not an action of {self.game.name}: {_short(repr(action))}")
        return action_text(int(action))

    def _require_over(self, what: str) -> None:
        if not self.is_terminal():
            raise TekkasimError(f"the deal is not over (next: {self.where()}): no {what} yet")

    def string_to_action(self, text: str) -> int:
        return parse_action(text)

    def where(self) -> str:
        phase = self._i(k.I_PHASE)
        seat = self._i(k.I_TO_MOVE)
        t, j = self._i(k.I_TRICK), self._i(k.I_PLAY)
        if phase == k.PH_TERMINAL:
            return f"trick {t + 1}, play {j + 1}" if t < 13 else "after trick 13"
        name = SEATS[seat]
        if phase == k.PH_PRIME:
            return f"prime choice ({name})"
        return f"trick {t + 1}, play {j + 1} ({name})"

    # --- records -----------------------------------------------------------------------------------
    def _record_head(self) -> dict:
        rec: dict[str, Any] = {"format": FORMAT, "ruleset": self.game.name, "first": SEATS[self.first]}
        rec["hands"] = {SEATS[s]: [card_name(c) for c in self.dealt(s)] for s in range(4)}
        return rec

    def _record_tail(self, rec: dict) -> dict:
        if self.prime is not None:
            rec["trump"] = SUITS[self.prime]
        rec["tricks"] = [[play_text(c, sig) for _, c, sig in trick] for trick in self.tricks()]
        if self.is_terminal():
            rec["result"] = self.result()
        changed = {
            key: v
            for key, v in self.game.options.items()
            if v != next(o.default for o in self.game.options_spec if o.name == key)
        }
        if changed:
            rec["options"] = changed
        if self.seed is not None:
            rec["seed"] = self.seed
        if not self.is_terminal():
            rec["unfinished"] = True
        return rec

    def _render_tricks(self, lines: list[str]) -> None:
        winners = self.winners()
        for t, trick in enumerate(self.tricks()):
            plays = "  ".join(
                f"{SEATS[s][0].upper()}:{card_symbol(c)}{'(' + SIGNAL_NAMES[sig] + ')' if sig else ''}"
                for s, c, sig in trick
            )
            won = f"-> {SEATS[winners[t]]}" if t < len(winners) else "(in progress)"
            lines.append(f"  {t + 1:>2}. led by {SEATS[trick[0][0]]:<6} {plays:<40} {won}")

    def _render_hands(self, lines: list[str]) -> None:
        for s in range(4):
            hand = CardSet(mask_of(self.dealt(s)))
            row = "  ".join(line for line in hand.by_suit().split("\n"))
            lines.append(f"  {SEATS[s]:<6} ({TEAMS[team_of(s)]}) {row}")

    def __repr__(self) -> str:
        return f"<{self.game.name} deal at {self.where()}>"


class Trick52Game(Game):
    """What Feskot and Tekka share: seeded deals, the record header, the random kernels' wrappers."""

    ruleset_code: int
    packets: bool
    state_class: type[Trick52State]

    first_five = True
    trump_name = "Prime"
    trick_rules = "standard"

    @property
    def takes_signals(self) -> bool:
        return bool(self.options_flags()[2])

    def options_flags(self) -> tuple[int, int, int]:
        """``(play_all, raises, signals)`` for the kernels (``_trick52.init_deal``)."""
        return (
            int(bool(self.options.get("play_out", False))),
            int(bool(self.options.get("raises", False))),
            int(bool(self.options.get("signals", True))),
        )

    def _start(self, dealt: np.ndarray, first: int, seed: int | None, play_all: int | None = None) -> Trick52State:
        arrays = k.new_arrays()
        arrays.dealt[:] = dealt
        flags = self.options_flags()
        pa = flags[0] if play_all is None else play_all
        k.init_deal(arrays, self.ruleset_code, first, pa, flags[1], flags[2])
        return self.state_class(self, arrays, seed)

    def _seeded_dealt(self, seed: int, first: int, deck: list[int] | None = None) -> np.ndarray:
        rng = bits.new_rng(seed)
        if deck is None:
            cards = np.empty(52, np.int64)
            k.shuffled_deck(rng, cards)
        else:
            cut = k.cut_point(rng)
            cards = np.array(list(deck[cut:]) + list(deck[:cut]), np.int64)
        dealt = np.full((4, 13), -1, np.int64)
        k.deal_deck(cards, first, self.packets, dealt)
        return dealt

    def from_hands(self, hands: dict, first: int | str = 0, **context) -> Trick52State:
        """A deal with the given hands (seat -> 13 cards in the order dealt: a list of card texts or ints, or
        one space-separated text) instead
        of a shuffle: for hand-built positions and tests. ``context`` as for ``new_deal`` (Tekka ``score``)."""
        if not isinstance(hands, dict):
            raise TekkasimError("hands must map each seat to its 13 cards")
        texts = {}
        for key, cards in hands.items():
            if isinstance(cards, str):
                cards = cards.replace(",", " ").split()
            if isinstance(cards, list):
                cards = [card_name(c) if isinstance(c, int) else c for c in cards]
            texts[key] = cards
        record = {"ruleset": self.name, "first": SEATS[parse_seat(first)], "hands": texts}
        first_seat, dealt = self._parse_header(record)
        state = self._start(dealt, first_seat, None)
        self._set_context(state, context)
        return state

    def _set_context(self, state: Trick52State, context: dict) -> None:
        """Apply ``from_hands``' match context (Tekka: ``score``) to a new state."""
        if context:
            raise TekkasimError(f"unknown deal context {', '.join(map(str, context))}")

    # --- records -----------------------------------------------------------------------------------
    def _parse_header(self, record: dict) -> tuple[int, np.ndarray]:
        """``first`` and the dealt hands of a record, validated (one-line ``RecordError`` otherwise)."""
        if not isinstance(record, dict):
            raise RecordError("a record must be a JSON object")
        ruleset = record.get("ruleset", self.name)
        if ruleset != self.name:
            raise RecordError(f"record is for {ruleset!r}, not {self.name}")
        first_text = require(record, "first", str)
        try:
            first = parse_seat(first_text)
        except SeatError as exc:
            raise RecordError(f"field 'first': {exc}") from None
        dealt = np.array(parse_hands(require(record, "hands", dict)), dtype=np.int64)
        return first, dealt

    @staticmethod
    def _parse_trump(record: dict, needed: bool) -> str | None:
        """The trump suit letter of a record (None if absent and not ``needed``)."""
        if "trump" not in record and not needed:
            return None
        trump = require(record, "trump", str)
        try:
            return SUITS[parse_suit(trump)]
        except CardError:
            raise RecordError(f"unknown trump {trump!r} (expected C, D, H or S)") from None

    @staticmethod
    def _parse_tricks(record: dict) -> list[list[str]]:
        tricks = record.get("tricks", [])
        if not isinstance(tricks, list):
            raise RecordError(f"field 'tricks' must be a list of tricks, not {type(tricks).__name__}")
        if len(tricks) > 13:
            raise RecordError(f"field 'tricks' has {len(tricks)} tricks (at most 13)")
        out = []
        for i, trick in enumerate(tricks):
            if not isinstance(trick, list):
                raise RecordError(f"tricks[{i}] must be a list of plays, not {type(trick).__name__}")
            if not 1 <= len(trick) <= 4:
                raise RecordError(f"tricks[{i}] has {len(trick)} plays (expected 1 to 4)")
            if len(trick) < 4 and i < len(tricks) - 1:
                raise RecordError(f"tricks[{i}] has {len(trick)} plays but is not the last trick")
            for j, play in enumerate(trick):
                if not isinstance(play, str):
                    raise RecordError(f"tricks[{i}][{j}] must be text like '9S' or '9S:drop', not {play!r}")
            out.append(list(trick))
        return out

    def _with_play_on(self, state: Trick52State, actions: list[str]) -> Trick52State:
        """Rebuild ``state`` playing on to trick 13 if a dry run of ``actions`` reaches the decision with
        actions left (a record that plays on past the decided trick)."""
        if state._i(k.I_PLAY_ALL):
            return state
        trial = state.clone()
        for text in actions:
            if trial.is_terminal():  # decided, and the record goes on
                fresh = self._start(state.arrays.dealt.copy(), state.first, state.seed, play_all=1)
                self._restore_context(fresh, state)
                return fresh
            try:
                trial.apply_action(trial.string_to_action(text))
            except TekkasimError:
                return state  # verify will name this action
        return state

    def _restore_context(self, fresh: Trick52State, old: Trick52State) -> None:
        """Copy the match context (scores ...) of ``old`` into a rebuilt state."""

    def _random_outputs(self, n_deals: int, seed: int, first: int, play_all: int, raises: int) -> np.ndarray:
        if n_deals < 0:
            raise TekkasimError(f"n_deals must be >= 0, not {n_deals}")
        out = np.zeros((n_deals, k.N_INFO), np.int64)
        k.random_deals(k.new_arrays(), n_deals, k.seed_u64(seed), self.ruleset_code, first, play_all, raises, out)
        return out


def _short(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters for a one-line message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _parse_score_pair(value) -> tuple[int, int]:
    """A match score: (team A, team B) or {"A": n, "B": n}, non-negative integers."""
    if isinstance(value, dict):
        value = (value.get("A"), value.get("B"))
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | np.integer) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        raise TekkasimError(f"a score must be two non-negative integers (team A, team B), not {value!r}")
    return int(value[0]), int(value[1])


# --- action text -------------------------------------------------------------------------------------


def play_text(c: int, signal: int) -> str:
    return card_name(c) + (":" + SIGNAL_NAMES[signal] if signal else "")


def action_text(a: int) -> str:
    """records.md text of an action: ``"TS"``, ``"TS:slam"``, ``"S"`` (Prime), ``"pass"``, ``"8"``,
    ``"D13"``, ``"raise 10"``, ``"raise D13"``, ``"accept"``, ``"reject"``."""
    if 0 <= a < k.PRIME_BASE:
        return play_text(a % 52, a // 52)
    if k.PRIME_BASE <= a < k.PRIME_BASE + 4:
        return SUITS[a - k.PRIME_BASE]
    if k.CALL_BASE <= a <= k.CALL_BASE + k.D13 and (a - k.CALL_BASE in (0, k.D13) or 8 <= a - k.CALL_BASE <= 13):
        return call_text(a - k.CALL_BASE)
    if k.RAISE_BASE + 9 <= a <= k.RAISE_BASE + k.D13:
        return "raise " + call_text(a - k.RAISE_BASE)
    if a == k.ACCEPT:
        return "accept"
    if a == k.REJECT:
        return "reject"
    raise TekkasimError(f"no Feskot or Tekka action has the number {_short(str(a))}")


def call_text(code: int) -> str:
    return "pass" if code == 0 else "D13" if code == k.D13 else str(code)


def parse_call(text: str) -> int:
    """``"pass"``, ``"8"`` .. ``"13"``, ``"D13"`` -> call code (0, 8..13, 14)."""
    t = text.strip().lower()
    if t == "pass":
        return 0
    if t == "d13":
        return k.D13
    if t.isdigit() and 8 <= int(t) <= 13:
        return int(t)
    raise TekkasimError(f"unknown call {text!r} (expected pass, 8 to 13 or D13)")


def parse_action(text: str) -> int:
    """Parse any Feskot/Tekka action text (see :func:`action_text`; cards also as ``10♥``, any case)."""
    if not isinstance(text, str):
        raise TekkasimError(f"an action must be text, not {text!r}")
    t = text.strip()
    low = t.lower()
    if low in ("accept", "reject"):
        return k.ACCEPT if low == "accept" else k.REJECT
    if low.startswith("raise"):
        code = parse_call(low[5:])
        if code < 9:
            raise TekkasimError(f"a raise names 9 to 13 or D13, not {text!r}")
        return k.RAISE_BASE + code
    if low == "pass" or low == "d13" or low.isdigit():
        return k.CALL_BASE + parse_call(low)
    if len(t) == 1:
        try:
            return k.PRIME_BASE + parse_suit(t)
        except CardError:
            raise TekkasimError(f"unknown action {text!r}") from None
    card_part, _, signal = t.partition(":")
    return with_signal(parse_card(card_part), signal.strip() or None)


# --- resampling ---------------------------------------------------------------------------------------


def _below_big(rng: np.ndarray, n: int) -> int:
    """Uniform in [0, n) for any n >= 1, by rejection on whole 64-bit draws."""
    bits_needed = max(1, (n - 1).bit_length())
    words = (bits_needed + 63) // 64
    while True:
        r = 0
        for _ in range(words):
            r = (r << 64) | int(bits.next_u64(rng))
        r &= (1 << bits_needed) - 1
        if r < n:
            return r


REJECTION_TRIES = 200  # kernel rejection tries before the exact counted draw


@lru_cache(maxsize=1 << 16)
def _splits(n: int, allowed: tuple[bool, ...], room: tuple[int, ...]) -> tuple:
    """Every way to share a suit's ``n`` hidden cards among seats with ``room`` places left, a seat taking
    none of it unless ``allowed``: ``((counts, multinomial weight), ...)``."""
    out = []
    last = len(room) - 1

    def rec(i: int, left: int, acc: list[int]):
        if i == last:
            if left <= room[i] and (left == 0 or allowed[i]):
                counts = acc + [left]
                w = factorial(n)
                for x in counts:
                    w //= factorial(x)
                out.append((tuple(counts), w))
            return
        top = min(left, room[i]) if allowed[i] else 0
        for x in range(top + 1):
            rec(i + 1, left - x, acc + [x])

    if room:
        rec(0, n, [])
    elif n == 0:
        out.append(((), 1))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _ways(sizes: tuple[int, ...], allowed: tuple[tuple[bool, ...], ...], s: int, room: tuple[int, ...]) -> int:
    """The number of deals of suits ``s..3`` (``sizes`` hidden cards each) into ``room`` places."""
    if s == 4:
        return 1 if all(r == 0 for r in room) else 0
    return sum(
        w * _ways(sizes, allowed, s + 1, tuple(r - x for r, x in zip(room, counts, strict=True)))
        for counts, w in _splits(sizes[s], allowed[s], room)
    )


def _draw_counted(pool: int, caps: dict[int, int], void: dict[int, int], rng: np.ndarray) -> dict[int, list[int]]:
    """Deal the cards of ``pool`` to seats with ``caps`` places each, never giving a seat a suit set in its
    ``void`` mask, uniformly over all such deals, by counting: the number of cards of each suit per seat is
    drawn with the weight of the valid deals that share it (multinomials over suits), then each suit's cards
    are shuffled. The exact fallback of ``resample`` when rejection keeps failing. The counts depend only on
    the suits' sizes, the voids and the places, so they are kept across calls (a search draws hundreds of
    worlds from one view)."""
    seats = sorted(caps)
    by_suit = [[c for c in range(13 * s, 13 * s + 13) if pool >> c & 1] for s in range(4)]
    sizes = tuple(len(b) for b in by_suit)
    allowed = tuple(tuple(not void[seat] >> s & 1 for seat in seats) for s in range(4))

    def splits(s: int, room: tuple[int, ...]):
        return _splits(sizes[s], allowed[s], room)

    def ways(s: int, room: tuple[int, ...]) -> int:
        return _ways(sizes, allowed, s, room)

    room = tuple(caps[s] for s in seats)
    total = ways(0, room)
    if total == 0:
        raise TekkasimError("no deal is consistent with this observation")
    result: dict[int, list[int]] = {s: [] for s in seats}
    for s in range(4):
        options = []
        for counts, w in splits(s, room):
            rest = tuple(r - x for r, x in zip(room, counts, strict=True))
            weight = w * ways(s + 1, rest)
            if weight:
                options.append((counts, weight, rest))
        pick = _below_big(rng, sum(w for _, w, _ in options))
        for option in options:
            if pick < option[1]:
                break
            pick -= option[1]
        counts, _, rest = option
        cards = np.array(by_suit[s], np.int64)
        bits.shuffle(rng, cards)
        pos = 0
        for seat, x in zip(seats, counts, strict=True):
            result[seat].extend(int(c) for c in cards[pos : pos + x])
            pos += x
        room = rest
    # Within a seat the order of its hidden places carries no information: shuffle it too.
    for seat in seats:
        cards = np.array(result[seat], np.int64)
        bits.shuffle(rng, cards)
        result[seat] = [int(c) for c in cards]
    return result


__all__ = [
    "PRIME_BASE",
    "SIGNAL_NAMES",
    "Trick52Game",
    "Trick52State",
    "action_text",
    "call_text",
    "parse_action",
    "parse_call",
    "play_text",
    "prime_action",
    "with_signal",
]
