"""Shengji, the double-deck promotion match (rules.md, "Shengji"; seed text ``seeds/shengji_en.md``).

Two decks with jokers, 108 cards: 25 to each seat and 8 to the kitty; play counter-clockwise; teams A
(bottom + top) and B (right + left) climb levels 2 .. A, and a team whose level would go past A wins the
match. The engine follows rules.md to the letter; what it leaves open is decided here:

* **Dealing.** The 108 cards (kinds 0..53 twice, see ``_shengji_kernels``) are shuffled with the project
  RNG; seat s gets cards ``25 s .. 25 s + 24`` of the shuffled deck, the kitty the last 8. Declaring
  happens after the whole deal.
* **Level of a deal.** The dealing team's level. In a first deal the dealer is not known while seats
  declare, so both teams must be at the same level then (``OptionError`` / ``RecordError`` otherwise).
* **Declarations** (phase ``"declare"``). Turns go counter-clockwise from ``declare_first`` (the
  starting seat of a first deal, default bottom; later deals: the dealer). A call is a pass ``()``, one
  level card ``(k,)`` (declares its own suit), two identical level cards ``(k, k)`` (their suit), or a
  joker pair ``(52, 52)`` / ``(53, 53)`` (no-trump). Strength single < level pair < SJ pair < BJ pair; a
  call must be strictly stronger than the standing one, so a different suit of equal strength may not
  overcall. A level pair needs two identical cards (7H 7D is no call). A seat may call again later,
  including strengthening its own suit. The seat must hold the cards: a call it cannot hold is illegal
  (``rule="not-in-hand"``). Three consecutive passes after a call fix it (after BJ BJ the three passes
  are still asked for, they are the only legal action); four opening passes turn the kitty face up
  (public) and trump is the suit of its first non-joker card, in dealt order. The kitty always has one:
  8 cards, only 4 jokers exist. First deal: the seat of the call that fixed trump deals (no call: the
  starting seat); later deals: the dealer is given by the previous result.
* **Burial** (phase ``"bury"``). The dealer takes the kitty (33 cards) and buries 8, one card per
  action ``(k,)``; any cards may be buried. Then the dealer leads (phase ``"play"``).
* **Play.** An action is the sorted tuple of the kinds played, with repetition: ``(33,)``, ``(33, 33)``,
  ``(29, 29, 31, 31)``. Leads are a single, a pair or a tractor, nothing else. The deal ends when the
  hands are empty (25 tricks if every lead is a single, fewer otherwise); the *last trick* of the kitty
  bonus is that one. Legality, winners and scoring are the compiled kernels of ``_shengji_kernels``.
* **legal_actions() is complete and exact** — every legal lead and every legal follow as a distinct
  multiset, no equivalence merging (two off-suit level cards of equal strength and points are *not*
  interchangeable in general: which one is kept decides later pairs). Follows that leave a free choice
  are enumerated combinatorially: a void player discarding 4 of 21 distinct cards has C(21, 4) = 5985.
  The worst cases are a void 25-card hand following a long tractor: some 6,000 follows to a 2-pair
  tractor, 60,000 to a 3-pair one and 300,000 to a 4-pair one, costly to list. ``follow_structure()`` gives
  the same set in a compact form a bot can search instead (``must`` cards, then ``count`` more chosen
  from ``pool`` with at least ``min_pairs`` pairs), and the compiled ``check_play`` validates any
  proposed play.
* **Random play** (``Shengji.play_random``, compiled): every decision uniformly random among the legal
  actions — declarations (pass or a call), burial (a kind of the dealer's hand), leads (singles, pairs,
  tractors) — except follows, which are built at random (short: all of the led suit plus random cards;
  else the required number of random pairs of the suit, then random cards of the suit), so a void
  player discards or trumps at random but does not seek a winning trump shape. The same policy, one
  decision at a time, is ``ShengjiState.random_legal_action(rng)``: a legal action without listing
  ``legal_actions()`` (whose worst case is a void player facing a long tractor, 300,000 follows).
* **Levels after a deal.** ``returns()`` are the levels gained by A and B by the table of rules.md
  (uncapped: +3 from K is +3; ``Shengji.returns_unit`` is ``"levels"``). ``levels_after`` in the
  result caps a level at A; ``match_winner`` names the team whose level went past A.
* **Records.** Besides the fields of records.md, ``to_record`` writes ``first_deal`` (bool): true when
  the dealer came from this deal's declarations. ``from_record`` reads it, else treats a record with
  ``deal_no`` 0 or a null ``dealer`` as a first deal; in a first deal a recorded ``dealer`` (and a
  recorded ``trump``) must match what the declarations give, checked when trump is fixed.
* **Observation and resampling.** A seat sees its own hand, all declarations and plays, the kitty if it
  was turned up, and the dealer alone the kitty it took and what it buried. ``observation(seat)``: ``hand``
  the seat's cards now (a ``CardMultiset``); ``public`` has the shared fields of ``base.Observation``:
  ``trump`` (0..3, 4 = no trump; None while seats declare), ``tricks`` (``{"leader", "plays": [(seat,
  sorted tuple of kinds), ...], "winner"}``, the trick in progress last with winner None), ``score`` (the
  levels before the deal, ``(A, B)`` as 0..12 for 2..A), ``won`` (attackers' points so far on the
  attackers' side, defenders 0; ``(0, 0)`` while the dealer is unknown), ``hand_sizes`` and ``voids`` (bit
  e of seat s: it followed short of effective suit e, bit 4 = trumps); Shengji's own: ``level`` (0..12),
  ``dealer`` (None while a first deal declares), ``declare_first``, ``declarations`` (``[(seat, call)]``),
  ``kitty_turned_up`` (the kitty in dealt order when four passes turned it up, else None),
  ``buried_count`` and ``trick_points`` (points of each finished trick). ``private``, for the dealer after
  the declarations only: ``kitty`` and ``buried``. ``resample`` never returns
  the true hidden cards as such (the one clone it returns is a finished deal seen by its dealer, from
  whom nothing is hidden then; a finished deal seen by another seat still hides the kitty and the
  burial order, so it gets a drawn world). It draws the hidden cards under every constraint the public
  record proves (``known_caps``): hand sizes, the cards each seat showed in its declarations (in its
  dealt hand), a turned-up kitty (in the dealer's hand or buried), voids (a follow short of the led
  effective suit: no card of it now), and the pair duty (a follow wholly of the led suit to a lead of p
  pairs, showing fewer than p pairs: the seat then held no other pair of that suit, which caps each such
  kind at 1 - (copies played in that follow and later) in its hand now). Cards go to seats by a
  sequential random assignment that checks Hall's condition at each step, so it never dead-ends; the
  world is then rebuilt from its deal and every action replayed, and a world some action of which is
  illegal is drawn again (``tries``, default 50): on random positions of every phase a first draw is
  legal (a sampler honouring voids but not the pair duty often was not). The one case the
  per-copy assignment cannot express exactly (three seats each capped at 1 copy of one kind) costs a
  redraw, not a failure. **Fallback**, if every try fails (no random position tested reaches it; a
  constructed one does): a world built directly, the hidden cards swapped into a copy of the state
  without replay, keeping sizes, the observer's own cards and private view, declared cards, a turned-up
  kitty and voids, and relaxing the pair duty only (another seat may hold a pair its earlier follow
  proved it lacked); if even that is impossible (a state edited by hand), voids are relaxed too. Such a
  world has no seed and is not replayable from its ``dealt`` hands. Worlds are consistent but not
  exactly uniform (the kitty of a world is chosen buried cards first, and the assignment's sequential
  choices are not weighted by completions).
"""

from __future__ import annotations

import functools
import random
import weakref
from collections import Counter
from typing import Any

import numpy as np

from tekkasim.bits import below, new_rng, next_u64
from tekkasim.cards import (
    RANKS,
    SEATS,
    SUIT_SYMBOLS,
    SUITS,
    CardMultiset,
    card_name,
    card_symbol,
    next_ccw,
    parse_cards,
    parse_seat,
    partner_of,
    team_of,
)
from tekkasim.errors import CardError, IllegalAction, OptionError, RecordError, SeatError, TekkasimError, shorten
from tekkasim.records import FORMAT, require
from tekkasim.rules.base import MAX_SEED, TERMINAL, Game, Observation, State, check_seed
from tekkasim.rulesets.shengji import _kernels as K

NO_TRUMP = K.NO_TRUMP
TRUMP = K.TRUMP
SJ, BJ = K.SMALL_JOKER, K.BIG_JOKER
PHASES = ("declare", "bury", "play", "terminal")
_RULE_OF_CODE = {
    K.NOT_IN_HAND: ("not-in-hand", "those cards are not all in the hand"),
    K.LEAD_SHAPE: ("lead-shape", "a lead must be a single, a pair or a tractor"),
    K.CARD_COUNT: ("card-count", "a follow must have as many cards as the lead"),
    K.FOLLOW_SUIT: ("follow-suit", "must play as many cards of the led suit as possible"),
    K.FOLLOW_PAIRS: ("follow-pairs", "must include as many pairs of the led suit as possible"),
}


def _u(x: int) -> np.uint64:
    return np.uint64(x)


def _masks(cards) -> tuple[int, int]:
    """``(one, two)`` of a list of kinds (at most two copies each, checked by the callers)."""
    one = two = 0
    for k in cards:
        b = 1 << k
        if one & b:
            two |= b
        one |= b
    return one, two


def _kinds(one: int, two: int) -> list[int]:
    """Sorted kinds with multiplicity."""
    out = []
    for k in range(54):
        if one >> k & 1:
            out.append(k)
            if two >> k & 1:
                out.append(k)
    return out


def parse_level(value, error: type[TekkasimError] = OptionError) -> int:
    """A level rank ``"2"`` .. ``"A"`` (``"10"`` accepted) -> 0..12."""
    text = str(value).strip().upper() if isinstance(value, str) else None
    if text == "10":
        text = "T"
    if text is None or len(text) != 1 or text not in RANKS:
        raise error(f"bad level {value!r} (expected a rank 2 .. A as text)")
    return RANKS.index(text)


def _parse_levels(value, error: type[TekkasimError]) -> tuple[int, int]:
    if value is None:
        return 0, 0
    if isinstance(value, dict):
        if set(value) != {"A", "B"}:
            raise error(f"levels must name teams A and B, not {sorted(value)!r}")
        return parse_level(value["A"], error), parse_level(value["B"], error)
    if isinstance(value, list | tuple) and len(value) == 2:
        return parse_level(value[0], error), parse_level(value[1], error)
    raise error(f"levels must be {{'A': rank, 'B': rank}}, not {value!r}")


def _levels_text(levels) -> dict:
    return {"A": RANKS[min(levels[0], 12)], "B": RANKS[min(levels[1], 12)]}


def _trump_text(trump: int) -> str:
    return "NT" if trump == NO_TRUMP else SUITS[trump]


def _seat_or_none(value, error: type[TekkasimError]) -> int | None:
    if value is None:
        return None
    try:
        return parse_seat(value)
    except SeatError as exc:
        raise error(str(exc)) from None


def _submultisets(items: list[tuple[int, int]], r: int, start: int = 0):
    """Every sub-multiset of ``r`` cards of ``items`` ((kind, count) sorted by kind), as kind lists."""
    if r == 0:
        yield []
        return
    if start >= len(items):
        return
    k, c = items[start]
    room = sum(cnt for _, cnt in items[start:])
    if room < r:
        return
    for take in range(min(c, r), -1, -1):
        for rest in _submultisets(items, r - take, start + 1):
            yield [k] * take + rest


def enumerate_leads(one: int, two: int, strength_kinds) -> list[tuple[int, ...]]:
    """Every legal lead of the hand ``(one, two)``, sorted: singles, pairs and tractors (from the compiled
    ``list_tractors``)."""
    buf = np.empty((K.TRACTOR_CAP, 4), np.int64)
    nt = K.list_tractors(_u(two), strength_kinds, buf)
    leads = [(k,) for k in _kinds(one, 0)] + [(k, k) for k in _kinds(two, 0)]
    for row in buf[:nt]:
        m = int(K.tractor_mask(_u(two), strength_kinds, row))
        leads.append(tuple(_kinds(m, m)))
    return sorted(leads)


def follow_spec(hand: Counter, n: int, pairs: int, e: int, eff) -> dict:
    """The legal follows of ``hand`` to a lead of ``n`` cards with ``pairs`` pairs in effective suit ``e``
    (``eff``: the kinds' effective suits), in the form of :meth:`ShengjiState.follow_structure`."""
    suit = Counter({k: c for k, c in hand.items() if eff[k] == e})
    h = sum(suit.values())
    if h <= n:
        return {"must": sorted(suit.elements()), "pool": hand - suit, "count": n - h, "min_pairs": 0}
    held_pairs = sum(1 for c in suit.values() if c == 2)
    return {"must": [], "pool": suit, "count": n, "min_pairs": min(pairs, held_pairs)}


def enumerate_follows(spec: dict) -> list[tuple[int, ...]]:
    """Every follow described by a :meth:`ShengjiState.follow_structure` dict, as sorted kind tuples."""
    out = []
    for chosen in _submultisets(sorted(spec["pool"].items()), spec["count"]):
        if spec["min_pairs"] and sum(1 for v in Counter(chosen).values() if v == 2) < spec["min_pairs"]:
            continue
        out.append(tuple(sorted(spec["must"] + chosen)))
    return out


class ShengjiState(State):
    """One Shengji deal: declarations, burial and play (phases in the module docstring).

    ``arrays`` are the kernel-side data: ``hands`` (5, 2) uint64 — rows 0..3 the seats' ``(one, two)``,
    row 4 the kitty while it lies face down, then the buried cards — and, once trump is fixed, the
    tables ``eff``, ``strength``, ``suit_kinds``, ``strength_kinds`` of ``_shengji_kernels``.
    """

    def __init__(
        self,
        game: Shengji,
        dealt: list[list[int]],
        kitty: list[int],
        levels: tuple[int, int],
        dealer: int | None,
        declare_first: int,
        seed: int | None = None,
    ):
        self.game = game
        self.seed = seed
        self.dealt = [list(h) for h in dealt]
        self.kitty = list(kitty)
        self.levels = (int(levels[0]), int(levels[1]))
        self.first_deal = dealer is None
        self.dealer = dealer
        self.declare_first = declare_first
        self.level = self.levels[team_of(dealer)] if dealer is not None else self.levels[0]
        self.hands = np.zeros((5, 2), np.uint64)
        for s in range(4):
            self.hands[s] = _masks(dealt[s])
        self.hands[4] = _masks(kitty)
        self.declarations: list[tuple[int, tuple[int, ...]]] = []
        self.standing = 0
        self.caller: int | None = None
        self.passes = 0
        self.trump: int | None = None
        self.turned_up = False
        self.tables = None
        self.buried: list[int] = []
        self.tricks: list[dict] = []  # leader, plays (list of action tuples in play order), winner, points
        self.trick: list[tuple[int, ...]] = []
        self.trick_leader: int | None = None
        self._lead = None  # (n, pairs, suit, shape) of the current trick's lead
        self._best = (-1, 0)  # (key, seat) of the current trick's winner so far
        self.voids = np.zeros((4, 5), bool)
        self.attacker_points = 0
        self.kitty_bonus = 0
        self._phase = "declare"
        self._to_move = declare_first
        self._history: list[tuple[int, ...]] = []
        self._expect: dict = {}  # from a first-deal record: the dealer and trump it states

    # --- views --------------------------------------------------------------------------------------
    @property
    def arrays(self) -> dict:
        out = {"hands": self.hands}
        if self.tables is not None:
            out.update(zip(("eff", "strength", "suit_kinds", "strength_kinds"), self.tables, strict=True))
        return out

    @property
    def trick_lead(self) -> tuple[int, int, int, int] | None:
        """The current trick's lead as ``(cards, pairs, effective suit, shape)``; None with no trick begun."""
        return self._lead if self.trick else None

    @property
    def trick_best(self) -> tuple[int, int]:
        """``(key, seat)`` of the play winning the current trick so far (``_shengji_kernels.play_key``)."""
        return self._best

    def hand(self, seat: int) -> CardMultiset:
        """The cards ``seat`` holds now."""
        return CardMultiset(int(self.hands[seat, 0]), int(self.hands[seat, 1]))

    def _hand_counter(self, seat: int) -> Counter:
        return Counter(_kinds(int(self.hands[seat, 0]), int(self.hands[seat, 1])))

    def effective_suit(self, kind: int) -> int:
        """0..3 for a plain suit, 4 for trump (trump must be fixed)."""
        return int(self.tables[0][kind])

    # --- turn -----------------------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._phase == "terminal" else self._to_move

    def phase(self) -> str:
        return self._phase

    def legal_actions(self) -> list[tuple[int, ...]]:
        """Every legal action, sorted, exact and complete (no merging of equivalent follows).

        Worst case: a follow of a void (or short) player to a long tractor, where the free choice of
        cards is enumerated: some 6,000 follows to a 2-pair tractor, 60,000 to a 3-pair tractor and
        300,000 to a 4-pair tractor. A random player should call
        :meth:`random_legal_action` instead, which never enumerates; a searching bot can use
        :meth:`follow_structure`."""
        if self._phase == "declare":
            return [()] + self._calls(self._to_move)
        if self._phase == "bury":
            return [(k,) for k in sorted(set(self._hand_counter(self.dealer)))]
        if self._phase == "play":
            if not self.trick:
                return self._leads(self._to_move)
            return sorted(self._follows(self._to_move))
        return []

    def random_legal_action(self, rng) -> tuple[int, ...]:
        """One random legal action without enumerating the legal list, by the compiled random policy of
        ``Shengji.play_random`` (module docstring, "Random play"): declarations, burials and leads are
        uniform over the legal actions; a follow is *built* at random (short in the led suit: all of it
        plus uniformly random other cards; else the required number of random pairs of the suit, then
        random cards of the suit), which is legal but only near-uniform over the follows (it does not
        weight multisets by how many ways they arise). A few microseconds even where ``legal_actions()``
        would list 300,000 follows.

        ``rng``: a kernel RNG state ``bits.new_rng(seed)`` (advanced in place); a ``random.Random``,
        numpy ``Generator`` or ``reference.bits.Rng`` is turned into one (an int seed too, which gives
        the same action on every call)."""
        if self._phase == "terminal":
            raise IllegalAction("the deal is over", "deal-over")
        rng = _as_kernel_rng(rng)
        if self._phase in ("declare", "bury"):
            legal = self.legal_actions()  # at most 16 calls or 33 kinds
            return legal[int(below(rng, len(legal)))]
        seat = self._to_move
        one, two = self.hands[seat, 0], self.hands[seat, 1]
        if not self.trick:
            buf = np.empty((K.TRACTOR_CAP, 4), np.int64)
            po, pt = K.random_lead(rng, one, two, self.tables[3], buf)
        else:
            n, pairs, e, _ = self._lead
            po, pt = K.random_follow(rng, one, two, n, pairs, e, self.tables[2])
        return tuple(_kinds(int(po), int(pt)))

    def _calls(self, seat: int) -> list[tuple[int, ...]]:
        out = np.empty(16, np.int64)
        n = K.declaration_options(self.hands[seat, 0], self.hands[seat, 1], self.level, self.standing, out)
        return [(int(c) >> 1,) * (1 + (int(c) & 1)) for c in out[:n]]

    def _leads(self, seat: int) -> list[tuple[int, ...]]:
        return enumerate_leads(int(self.hands[seat, 0]), int(self.hands[seat, 1]), self.tables[3])

    def follow_structure(self, seat: int | None = None) -> dict:
        """The legal follows of ``seat`` (default: the player to move) in compact form: ``must`` (cards
        that every legal follow contains), then ``count`` more cards chosen from ``pool`` (a Counter) with
        at least ``min_pairs`` pairs among the chosen cards (pairs of the led suit only, which is all the
        pool then holds)."""
        if self._phase != "play" or not self.trick:
            raise IllegalAction("follow_structure is for a player following a lead", "wrong-phase")
        seat = self._to_move if seat is None else seat
        n, pairs, e, _ = self._lead
        return follow_spec(self._hand_counter(seat), n, pairs, e, self.tables[0])

    def _follows(self, seat: int) -> list[tuple[int, ...]]:
        return enumerate_follows(self.follow_structure(seat))

    # --- actions ----------------------------------------------------------------------------------
    def apply_action(self, action) -> None:
        if self._phase == "terminal":
            raise IllegalAction("the deal is over", "deal-over")
        action = self._normalize(action)
        if self._phase == "declare":
            self._declare(action)
        elif self._phase == "bury":
            self._bury(action)
        else:
            self._play(action)
        self._history.append(action)

    @staticmethod
    def _normalize(action) -> tuple[int, ...]:
        if not isinstance(action, tuple | list) or not all(
            isinstance(k, int | np.integer) and not isinstance(k, bool) and 0 <= k < 54 for k in action
        ):
            raise IllegalAction(f"an action is a tuple of card kinds 0..53, not {shorten(repr(action))}", "malformed")
        return tuple(sorted(int(k) for k in action))

    def _declare(self, call: tuple[int, ...]) -> None:
        seat = self._to_move
        if call:
            shown = " ".join(card_name(k) for k in call)
            level_card = all(k < 52 and k % 13 == self.level for k in call)
            joker_pair = len(call) == 2 and call[0] == call[1] and call[0] >= 52
            if not (
                len(call) == 1 and level_card or len(call) == 2 and call[0] == call[1] and level_card or joker_pair
            ):
                raise IllegalAction(
                    f"{shown} is no call: a call is one level card ({RANKS[self.level]}), two "
                    "identical level cards or a joker pair",
                    "declare-form",
                )
            hand = self._hand_counter(seat)
            if any(hand[k] < call.count(k) for k in call):
                raise IllegalAction(f"{SEATS[seat]} does not hold {shown}", "not-in-hand")
            strength = int(K.call_strength(call[0], len(call) == 2))
            if strength <= self.standing:
                raise IllegalAction(
                    f"{shown} does not overcall the standing call (a call must be strictly stronger)", "outbid"
                )
            self.standing, self.caller, self.passes = strength, seat, 0
            self.trump = NO_TRUMP if call[0] >= 52 else call[0] // 13
        else:
            self.passes += 1
        self.declarations.append((seat, call))
        self._to_move = next_ccw(seat)
        if self.standing == 0 and self.passes == 4:
            self.turned_up = True
            self.trump = next(k // 13 for k in self.kitty if k < 52)
            self._fix_trump()
        elif self.standing > 0 and self.passes == 3:
            self._fix_trump()

    def _fix_trump(self) -> None:
        if self.dealer is None:
            self.dealer = self.caller if self.caller is not None else self.declare_first
        expected = self._expect
        if "dealer" in expected and expected["dealer"] != self.dealer:
            raise IllegalAction(
                f"the record's dealer is {SEATS[expected['dealer']]}, but the declarations make "
                f"{SEATS[self.dealer]} the dealer",
                "record-dealer",
            )
        if "trump" in expected and expected["trump"] != self.trump:
            raise IllegalAction(
                f"the record's trump is {_trump_text(expected['trump'])}, but the declarations "
                f"give {_trump_text(self.trump)}",
                "record-trump",
            )
        self.tables = K.new_tables(self.trump, self.level)
        d = self.dealer
        self.hands[d] = K.add(self.hands[d, 0], self.hands[d, 1], self.hands[4, 0], self.hands[4, 1])
        self.hands[4] = 0
        self._phase = "bury"
        self._to_move = d

    def _bury(self, action: tuple[int, ...]) -> None:
        if len(action) != 1:
            raise IllegalAction("bury one card per action", "bury-one")
        k = action[0]
        d = self.dealer
        if not int(self.hands[d, 0]) >> k & 1:
            raise IllegalAction(f"the dealer does not hold {card_name(k)}", "not-in-hand")
        b = 1 << k
        self.hands[d] = K.remove(self.hands[d, 0], self.hands[d, 1], _u(b), _u(0))
        self.hands[4] = K.add(self.hands[4, 0], self.hands[4, 1], _u(b), _u(0))
        self.buried.append(k)
        if len(self.buried) == 8:
            self._phase = "play"
            self.trick_leader = d

    def _play(self, action: tuple[int, ...]) -> None:
        seat = self._to_move
        one, two = _masks(action)
        if any(action.count(k) > 2 for k in action):
            raise IllegalAction("no card has more than two copies", "not-in-hand")
        eff, strength, suit_kinds, _ = self.tables
        h1, h2 = self.hands[seat, 0], self.hands[seat, 1]
        if self.trick:
            n, pairs, e, shape = self._lead
            code = K.check_play(h1, h2, _u(one), _u(two), n, pairs, e, eff, strength, suit_kinds)
        else:
            code = K.check_play(h1, h2, _u(one), _u(two), 0, 0, 0, eff, strength, suit_kinds)
        if code != K.OK:
            rule, text = _RULE_OF_CODE[int(code)]
            raise IllegalAction(text, rule)
        if not self.trick:
            shape, e, top = K.play_shape(_u(one), _u(two), eff, strength, suit_kinds)
            self._lead = (len(action), bin(two).count("1"), int(e), int(shape))
            self._best = (int(top) + (16 if e == TRUMP else 0), seat)
        else:
            n, pairs, e, shape = self._lead
            void = (int(h1) & int(suit_kinds[e])) == 0
            key = int(K.play_key(_u(one), _u(two), shape, e, void, eff, strength, suit_kinds))
            if key > self._best[0]:
                self._best = (key, seat)
            if sum(1 for k in action if eff[k] == e) < n:
                self.voids[seat, e] = True
        self.hands[seat] = K.remove(h1, h2, _u(one), _u(two))
        self.trick.append(action)
        self._to_move = next_ccw(seat)
        if len(self.trick) == 4:
            self._end_trick()

    def _end_trick(self) -> None:
        winner = self._best[1]
        pts = sum(int(K.points(_u(_masks(p)[0]), _u(_masks(p)[1]))) for p in self.trick)
        self.tricks.append({"leader": self.trick_leader, "plays": self.trick, "winner": winner, "points": pts})
        last = int(self.hands[winner, 0]) == 0
        if team_of(winner) != team_of(self.dealer):
            self.attacker_points += pts
            if last:
                self.kitty_bonus = int(K.points(self.hands[4, 0], self.hands[4, 1])) * 2 * len(self.trick[0])
                self.attacker_points += self.kitty_bonus
        self.trick, self._lead, self.trick_leader = [], None, winner
        self._to_move = winner
        if last:
            self._phase = "terminal"

    # --- outcome ----------------------------------------------------------------------------------
    def _outcome(self) -> tuple[tuple[int, int], tuple[int, int], int, int | None]:
        """``(gains, levels after (uncapped), next dealer, match winner)``."""
        d_gain, a_gain, take_over = K.level_change(self.attacker_points)
        defenders = team_of(self.dealer)
        gains = [0, 0]
        gains[defenders] = int(d_gain)
        gains[1 - defenders] = int(a_gain)
        after = (self.levels[0] + gains[0], self.levels[1] + gains[1])
        next_dealer = next_ccw(self.dealer) if take_over else partner_of(self.dealer)
        winner = next((t for t in (0, 1) if after[t] > 12), None)
        return (gains[0], gains[1]), after, next_dealer, winner

    def _require_terminal(self, what: str) -> None:
        if self._phase != "terminal":
            raise TekkasimError(f"the deal is not over ({self.where()}): no {what} yet")

    def result(self) -> dict:
        self._require_terminal("result")
        _, after, next_dealer, winner = self._outcome()
        return {
            "defenders": "AB"[team_of(self.dealer)],
            "attacker_points": self.attacker_points,
            "kitty_bonus": self.kitty_bonus,
            "levels_after": _levels_text(after),
            "next_dealer": SEATS[next_dealer],
            "match_winner": None if winner is None else "AB"[winner],
        }

    def returns(self) -> tuple[float, float]:
        """Levels gained by A and B in this deal (uncapped)."""
        self._require_terminal("returns")
        gains = self._outcome()[0]
        return float(gains[0]), float(gains[1])

    def next_deal_context(self) -> dict:
        self._require_terminal("next deal")
        _, after, next_dealer, _ = self._outcome()
        return {"levels": _levels_text(after), "dealer": next_dealer, "declare_first": next_dealer}

    def match_winner(self) -> int | None:
        return self._outcome()[3] if self._phase == "terminal" else None

    # --- information ------------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        """Exactly what ``seat`` sees (field names in the module docstring, "Observation and resampling")."""
        seat = parse_seat(seat)

        def plays(leader: int, trick: list) -> list[tuple[int, tuple[int, ...]]]:
            return [((leader + j) % 4, tuple(p)) for j, p in enumerate(trick)]

        tricks = [
            {"leader": t["leader"], "plays": plays(t["leader"], t["plays"]), "winner": t["winner"]} for t in self.tricks
        ]
        if self.trick:
            tricks.append({"leader": self.trick_leader, "plays": plays(self.trick_leader, self.trick), "winner": None})
        won = [0, 0]
        if self.dealer is not None:
            won[1 - team_of(self.dealer)] = self.attacker_points
        public = {
            "trump": self.trump if self._phase != "declare" else None,
            "tricks": tricks,
            "score": self.levels,
            "won": tuple(won),
            "hand_sizes": [int(self.hands[s, 0]).bit_count() + int(self.hands[s, 1]).bit_count() for s in range(4)],
            "voids": [sum(1 << e for e in range(5) if self.voids[s, e]) for s in range(4)],
            "level": self.level,
            "dealer": self.dealer,
            "declare_first": self.declare_first,
            "declarations": [(s, c) for s, c in self.declarations],
            "kitty_turned_up": list(self.kitty) if self.turned_up else None,
            "buried_count": len(self.buried),
            "trick_points": [t["points"] for t in self.tricks],
        }
        private = {}
        if self._phase != "declare" and seat == self.dealer:
            private = {"kitty": list(self.kitty), "buried": list(self.buried)}
        return Observation(seat, self._phase, self.current_player(), self.hand(seat), public, private)

    def _played_by(self) -> list[Counter]:
        played = [Counter() for _ in range(4)]
        for t in self.tricks:
            for j, p in enumerate(t["plays"]):
                played[(t["leader"] + j) % 4].update(p)
        for j, p in enumerate(self.trick):
            played[(self.trick_leader + j) % 4].update(p)
        return played

    def resample(self, seat: int, rng, tries: int = 50) -> ShengjiState:
        """A full state consistent with ``seat``'s observation, the hidden cards redrawn (module docstring,
        "Observation and resampling"). ``rng``: a kernel RNG state ``bits.new_rng(seed)``, advanced in place
        (the draw's ``random.Random`` is seeded from it). ``tries``: constrained draws validated by replay
        before the direct fallback world. Never returns the true hidden cards as such: the only copy
        returned is of a finished deal seen by its dealer, from whom nothing is hidden then (it has no seed).
        A world depends only on ``seat``'s observation and ``rng``: the hidden cards are gathered in
        kind order, and no world carries the true deal's seed."""
        seat = parse_seat(seat)
        if not (isinstance(rng, np.ndarray) and rng.dtype == np.uint64 and rng.shape == (1,)):
            raise OptionError(
                f"resample needs a kernel RNG state, tekkasim.bits.new_rng(seed), not {type(rng).__name__}"
            )
        if isinstance(tries, bool) or not isinstance(tries, int) or tries < 0:
            raise OptionError(f"tries must be a non-negative int, not {tries!r}")
        if self._phase == "terminal" and seat == self.dealer:
            world = self.clone()
            world.seed = None
            return world
        rnd = random.Random(int(next_u64(rng)))
        caps = _known_caps_memo(self, seat)
        for _ in range(tries):
            world = self._draw_world(seat, rnd, caps)
            if world is not None:
                return world
        return self._fallback_world(seat, rnd)

    def known_caps(self, seat: int) -> list[dict[int, int]]:
        """What the public plays (seen from ``seat``) prove about each other seat's *current* hand:
        ``caps[s][k]`` is the most copies of kind k seat s can hold now (0 or 1; kinds not listed: 2).

        * a void (a follow with fewer cards of the led effective suit than the lead) caps every kind of
          that suit at 0;
        * the pair duty: a follow made wholly of the led suit to a lead with p pairs, showing fewer than p
          pairs, proves the seat then held no other pair of that suit, so for each kind k of the suit the
          follow did not play twice, (copies held now) + (copies played in that follow and later) <= 1.
        """
        seat = parse_seat(seat)
        caps: list[dict[int, int]] = [{} for _ in range(4)]
        if self.tables is None:
            return caps
        eff = self.tables[0]
        kinds_of = [[k for k in range(54) if eff[k] == e] for e in range(5)]
        for s in range(4):
            for e in range(5):
                if s != seat and self.voids[s, e]:
                    caps[s].update((k, 0) for k in kinds_of[e])
        tricks = [(t["leader"], t["plays"]) for t in self.tricks]
        if self.trick:
            tricks.append((self.trick_leader, self.trick))
        later = [Counter() for _ in range(4)]  # walking backwards: what each seat played after this play
        for leader, plays in reversed(tricks):
            lead = Counter(plays[0])
            pairs = sum(1 for v in lead.values() if v == 2)
            e = int(eff[plays[0][0]])
            for j in range(len(plays) - 1, -1, -1):
                s = (leader + j) % 4
                play = Counter(plays[j])
                if (
                    j
                    and pairs
                    and s != seat
                    and all(eff[k] == e for k in play)
                    and sum(1 for v in play.values() if v == 2) < pairs
                ):
                    for k in kinds_of[e]:
                        if play[k] < 2:
                            caps[s][k] = max(0, min(caps[s].get(k, 2), 1 - play[k] - later[s][k]))
                later[s].update(play)
        return caps

    def _draw_world(
        self, o: int, rnd: random.Random, caps: list[dict[int, int]], replay: bool = True
    ) -> ShengjiState | None:
        """One constrained draw (None when it fails). ``caps`` from :meth:`known_caps` (the fallback
        passes fewer); with ``replay`` the world is rebuilt from its deal and every action re-applied
        (a world some action of which is illegal is refused), else it is this state with the hidden
        cards swapped in."""
        declaring = self._phase == "declare"
        d = self.dealer
        dealer_view = not declaring and o == d
        played = self._played_by()
        hidden = Counter({k: 2 for k in range(54)}) - self._hand_counter(o)
        for p in played:
            hidden -= p
        if dealer_view:
            hidden -= Counter(self.buried)
        caps_size = [0 if s == o else len(self.hand(s)) for s in range(4)]
        caps_size.append(8 if declaring else (0 if dealer_view else len(self.buried)))
        # restricted copies: (kind, allowed buckets) for cards a seat is known to hold or the kitty held
        restricted: list[tuple[int, frozenset]] = []
        shown = [Counter() for _ in range(4)]
        for s, call in self.declarations:
            for k, c in Counter(call).items():
                shown[s][k] = max(shown[s][k], c)
        for s in range(4):
            if s == o:
                continue
            for k, c in shown[s].items():
                need = c - played[s][k]
                allowed = frozenset({s, 4}) if (not declaring and s == d) else frozenset({s})
                restricted += [(k, allowed)] * max(0, need)
        if self.turned_up and not dealer_view:
            kit = Counter(self.kitty)
            for k, c in kit.items():
                restricted += [(k, frozenset({d, 4}))] * max(0, c - played[d][k])
        free = hidden.copy()
        for k, _ in restricted:
            free[k] -= 1
        if any(v < 0 for v in free.values()):
            return None
        cards = list(restricted) + [(k, None) for k in free.elements()]
        room = {s for s in range(5) if caps_size[s] > 0}
        allowed_of: list[set] = []
        copies: dict[int, list[int]] = {}
        for i, (k, allowed) in enumerate(cards):
            base = {s for s in room if s == 4 or caps[s].get(k, 2) > 0}
            allowed_of.append(base if allowed is None else base & allowed)
            copies.setdefault(k, []).append(i)
        # a cap of 1 on a kind with two hidden copies: keep the bucket in one copy only (the one with the
        # fewest options, so a restricted copy keeps it). Copies are interchangeable, so this loses no
        # outcome unless three buckets cap the same kind at 1; then a random outcome is lost per draw.
        for k, idx in copies.items():
            if len(idx) < 2:
                continue
            ones = [s for s in range(4) if caps[s].get(k, 2) == 1]
            rnd.shuffle(ones)
            for s in ones:
                having = [i for i in idx if s in allowed_of[i]]
                if len(having) > 1:
                    rnd.shuffle(having)
                    keep = min(having, key=lambda i: len(allowed_of[i]))
                    for i in having:
                        if i != keep:
                            allowed_of[i].discard(s)
        assignment = _assign([frozenset(a) for a in allowed_of], caps_size, rnd)
        if assignment is None:
            return None
        got = [Counter() for _ in range(5)]
        for (k, _), b in zip(cards, assignment, strict=True):
            got[b][k] += 1
        if any(got[s][k] > c for s in range(4) for k, c in caps[s].items()):
            return None
        current = [self._hand_counter(s) if s == o else got[s] for s in range(4)]
        # the world's deal: current hands plus what each seat played (and, for the dealer, its burial
        # minus the kitty it took)
        if declaring:
            kitty = list(got[4].elements())
            rnd.shuffle(kitty)
            buried_seq: list[int] = []
        else:
            if dealer_view:
                buried = Counter(self.buried)
                buried_seq = list(self.buried)
            else:
                buried = got[4]
                buried_seq = list(buried.elements())
                rnd.shuffle(buried_seq)
            total = current[d] + played[d] + buried
            if self.turned_up or dealer_view:
                kitty = list(self.kitty)
            else:
                kitty = _pick_kitty(total, buried, shown[d], rnd)
                if kitty is None:
                    return None
        dealt = []
        for s in range(4):
            h = current[s] + played[s]
            if not declaring and s == d:
                h = h + buried - Counter(kitty)
            if s == o:
                dealt.append(list(self.dealt[o]))
            else:
                cards_s = list(h.elements())
                rnd.shuffle(cards_s)
                dealt.append(cards_s)
        if sum(len(h) for h in dealt) != 100:
            return None
        if not replay:
            world = self.clone()
            world.seed = None  # the true deal's seed would give the true hands away
            world.dealt, world.kitty = dealt, kitty
            for s in range(4):
                if s != o:
                    world.hands[s] = _masks(current[s].elements())
            if declaring:
                world.hands[4] = _masks(kitty)
            elif not dealer_view:
                world.hands[4] = _masks(buried_seq)
                world.buried = list(buried_seq)
                first = len(self.declarations)  # the history's burial actions must not name the true cards
                world._history[first : first + len(buried_seq)] = [(k,) for k in buried_seq]
            return world
        world = ShengjiState(
            self.game, dealt, kitty, self.levels, None if self.first_deal else self.dealer, self.declare_first
        )
        burials = iter(buried_seq)
        try:
            for action in self._history:
                if world._phase == "bury":
                    action = (next(burials),)
                world.apply_action(action)
        except TekkasimError:
            return None
        return world

    def _fallback_world(self, o: int, rnd: random.Random) -> ShengjiState:
        """The world when every constrained draw failed: hands assigned directly, not replayed. It keeps
        hand sizes, the observer's own cards and private view, voids, declared cards and a turned-up
        kitty, and relaxes the pair duty (another seat may hold a pair its earlier follow proved it did
        not have); if even that cannot be met (an inconsistent state), voids are relaxed as well."""
        caps = self.known_caps(o)
        voids_only = [{k: c for k, c in cs.items() if c == 0 and self._void_kind(s, k)} for s, cs in enumerate(caps)]
        for relaxed in (voids_only, [{} for _ in range(4)]):
            for _ in range(20):
                world = self._draw_world(o, rnd, relaxed, replay=False)
                if world is not None:
                    return world
        raise TekkasimError("no world is consistent with this state (hand sizes and declared cards)")

    def _void_kind(self, s: int, k: int) -> bool:
        return self.tables is not None and bool(self.voids[s, int(self.tables[0][k])])

    # --- copies, text, records --------------------------------------------------------------------
    def clone(self) -> ShengjiState:
        other = object.__new__(ShengjiState)
        other.__dict__.update(self.__dict__)
        other.dealt = [list(h) for h in self.dealt]
        other.kitty = list(self.kitty)
        other.hands = self.hands.copy()
        other.declarations = list(self.declarations)
        other.buried = list(self.buried)
        other.tricks = [dict(t) for t in self.tricks]
        other.trick = list(self.trick)
        other.voids = self.voids.copy()
        other._history = list(self._history)
        other._expect = dict(self._expect)
        return other

    def history(self) -> list[tuple[int, ...]]:
        return list(self._history)

    def action_to_string(self, action) -> str:
        action = self._normalize(action)
        return "pass" if not action else " ".join(card_name(k) for k in action)

    def string_to_action(self, text: str) -> tuple[int, ...]:
        if not isinstance(text, str):
            raise CardError(f"an action is text like '7H 7H' or 'pass', not {shorten(repr(text))}")
        if ":" in text:
            raise CardError(
                f"{shorten(repr(text))}: signals are only for Feskot and Tekka (a shengji play is "
                "just its cards, like '7H 7H')"
            )
        if text.strip().lower() == "pass":
            if self._phase != "declare":
                raise IllegalAction("'pass' is only a declaration", "malformed")
            return ()
        kinds = parse_cards(text, jokers=True)
        if not kinds:
            raise CardError("an empty action (expected cards, or 'pass' when declaring)")
        return tuple(sorted(kinds))

    def where(self) -> str:
        seat = SEATS[self._to_move]
        if self._phase == "declare":
            return f"declarations, call {len(self.declarations) + 1} ({seat})"
        if self._phase == "bury":
            return f"burial, card {len(self.buried) + 1} ({seat})"
        if self._phase == "play":
            return f"trick {len(self.tricks) + 1}, play {len(self.trick) + 1} ({seat})"
        return f"after trick {len(self.tricks)} (deal over)"

    def to_record(self) -> dict:
        rec: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": "shengji",
            "levels": _levels_text(self.levels),
            "level": RANKS[self.level],
            "first_deal": self.first_deal,
            "dealer": None if self.dealer is None else SEATS[self.dealer],
            "declare_first": SEATS[self.declare_first],
            "hands": {SEATS[s]: [card_name(k) for k in self.dealt[s]] for s in range(4)},
            "kitty": [card_name(k) for k in self.kitty],
            "declarations": [self.action_to_string(c) for _, c in self.declarations],
            "buried": [card_name(k) for k in self.buried],
        }
        if self.trump is not None and self._phase != "declare":
            rec["trump"] = _trump_text(self.trump)
        tricks = [[self.action_to_string(p) for p in t["plays"]] for t in self.tricks]
        if self.trick:
            tricks.append([self.action_to_string(p) for p in self.trick])
        rec["tricks"] = tricks
        if self._phase == "terminal":
            rec["result"] = self.result()
        else:
            rec["unfinished"] = True
        if self.seed is not None:
            rec["seed"] = self.seed
        return rec

    def render(self) -> str:
        lines = [
            f"Shengji  level {RANKS[self.level]}  levels A {RANKS[self.levels[0]]} B {RANKS[self.levels[1]]}"
            f"  dealer {SEATS[self.dealer] if self.dealer is not None else '(first deal: not yet known)'}"
            f"  declaring from {SEATS[self.declare_first]}"
        ]
        for s in range(4):
            cards = CardMultiset.from_cards(self.dealt[s]).cards()
            lines.append(f"  {SEATS[s]:>6} ({'AB'[team_of(s)]}): {' '.join(card_symbol(k) for k in cards)}")
        lines.append(f"  kitty: {' '.join(card_symbol(k) for k in self.kitty)}")
        calls = ", ".join(f"{SEATS[s]} {self.action_to_string(c)}" for s, c in self.declarations)
        lines.append(f"declarations: {calls or '-'}")
        if self.trump is not None and self._phase != "declare":
            how = " (kitty turned up)" if self.turned_up else ""
            shown = "no-trump" if self.trump == NO_TRUMP else SUIT_SYMBOLS[self.trump]
            team = "AB"[team_of(self.dealer)]
            lines.append(f"trump: {shown}{how}; dealer {SEATS[self.dealer]} (team {team} defends)")
        if self.buried:
            lines.append(f"buried: {' '.join(card_symbol(k) for k in self.buried)}")
        for i, t in enumerate(self.tricks, 1):
            plays = "  ".join(
                f"{SEATS[(t['leader'] + j) % 4][0].upper()}:{' '.join(card_symbol(k) for k in p)}"
                for j, p in enumerate(t["plays"])
            )
            lines.append(
                f"trick {i:>2}: {plays}  -> {SEATS[t['winner']]}" + (f" +{t['points']}" if t["points"] else "")
            )
        if self.trick:
            plays = "  ".join(
                f"{SEATS[(self.trick_leader + j) % 4][0].upper()}:{' '.join(card_symbol(k) for k in p)}"
                for j, p in enumerate(self.trick)
            )
            lines.append(f"trick {len(self.tricks) + 1:>2}: {plays}  ...")
        if self._phase == "terminal":
            r = self.result()
            lines.append(
                f"result: attackers {r['attacker_points']} points (kitty bonus {r['kitty_bonus']}); "
                f"levels after A {r['levels_after']['A']} B {r['levels_after']['B']}; "
                f"next dealer {r['next_dealer']}"
                + (f"; team {r['match_winner']} wins the match" if r["match_winner"] else "")
            )
        else:
            lines.append(f"(in progress: {self.where()})")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


def _as_random(rng) -> random.Random:
    if isinstance(rng, random.Random):
        return rng
    if isinstance(rng, np.ndarray):
        return random.Random(int(next_u64(rng)))
    if isinstance(rng, np.random.Generator):
        return random.Random(int(rng.integers(1 << 62)))
    if isinstance(rng, int | np.integer) and not isinstance(rng, bool):
        return random.Random(int(rng))
    if hasattr(rng, "next_u64"):
        return random.Random(rng.next_u64())
    raise OptionError(f"resample needs an RNG (bits.new_rng array, Generator, Random or int), not {type(rng).__name__}")


_CAPS_MEMO: list = [None]  # (weak reference to a state, its history length, seat, caps)


def _known_caps_memo(state: ShengjiState, seat: int) -> list[dict[int, int]]:
    """``state.known_caps(seat)``, worked out once while the same state object is sampled again and again
    at the same point (a search draws many worlds from one view); kept outside the state so that it does
    not change the state's attributes. Callers must not modify the caps."""
    memo = _CAPS_MEMO[0]
    if memo is None or memo[0]() is not state or memo[1] != len(state._history) or memo[2] != seat:
        memo = _CAPS_MEMO[0] = (weakref.ref(state), len(state._history), seat, state.known_caps(seat))
    return memo[3]


def _as_kernel_rng(rng) -> np.ndarray:
    """A kernel RNG state: ``rng`` itself when it is one (``bits.new_rng``), else one seeded from it."""
    if isinstance(rng, np.ndarray) and rng.dtype == np.uint64 and rng.shape == (1,):
        return rng
    return new_rng(_as_random(rng).getrandbits(64))


def _assign(allowed_of: list[frozenset], caps: list[int], rnd: random.Random) -> list[int] | None:
    """A random assignment of cards to buckets (each card to one allowed bucket, bucket sizes exactly
    ``caps``), keeping Hall's condition (every bucket set can take the cards confined to it) after each
    step, so it never dead-ends when an assignment exists.

    The condition is kept as a slack per bucket set S, room(S) - cards confined to S: giving a card of
    allowed set C to bucket b (in C) lowers the slack of exactly the sets that hold b but not all of C, so
    the step keeps the condition iff each of those has slack 1 or more. :func:`_assign_reference`
    recomputes the whole condition at every step instead; both take the same random draws and so give
    the same assignment (tested)."""
    nb = len(caps)
    caps = list(caps)
    full = (1 << nb) - 1
    need = [0] * (1 << nb)
    for a in allowed_of:
        need[sum(1 << b for b in a)] += 1
    room = [0] * (1 << nb)
    for b in range(nb):
        room[1 << b] = caps[b]
    for b in range(nb):  # zeta transforms: cards confined to S, room of S
        bit = 1 << b
        for subset in range(1 << nb):
            if subset & bit:
                need[subset] += need[subset ^ bit]
                if subset != bit:
                    room[subset] += room[subset ^ bit]
    slack = [r - n for r, n in zip(room, need, strict=True)]
    if slack[full] != 0 or min(slack) < 0:
        return None
    lowered = _lowered(nb)
    order = list(range(len(allowed_of)))
    rnd.shuffle(order)
    out = [-1] * len(allowed_of)
    for i in order:
        cls = sum(1 << b for b in allowed_of[i])
        choices = [b for b in sorted(allowed_of[i]) if caps[b] > 0]
        rnd.shuffle(choices)
        for b in choices:
            hit = lowered[cls][b]
            if all(slack[s] > 0 for s in hit):
                for s in hit:
                    slack[s] -= 1
                caps[b] -= 1
                out[i] = b
                break
        else:
            return None
    return out


@functools.cache
def _lowered(nb: int) -> list[list[tuple[int, ...]]]:
    """``[C][b]``: the bucket sets holding b but not all of C (those whose slack a card of C put in b
    lowers), for every allowed set C of ``nb`` buckets and bucket b."""
    sets = range(1 << nb)
    return [[tuple(s for s in sets if s >> b & 1 and s & c != c) for b in range(nb)] for c in sets]


def _assign_reference(allowed_of: list[frozenset], caps: list[int], rnd: random.Random) -> list[int] | None:
    """:func:`_assign` as first written, Hall's condition recomputed in full before every step: its
    slow, obviously correct twin."""
    nb = len(caps)
    caps = list(caps)
    full = (1 << nb) - 1
    counts = [0] * (1 << nb)
    for a in allowed_of:
        counts[sum(1 << b for b in a)] += 1

    def feasible() -> bool:
        need = list(counts)  # need[S]: cards whose allowed buckets lie inside S (zeta transform)
        room = [0] * (1 << nb)
        for b in range(nb):
            room[1 << b] = caps[b]
        for b in range(nb):
            bit = 1 << b
            for subset in range(1 << nb):
                if subset & bit:
                    need[subset] += need[subset ^ bit]
                    if subset != bit:
                        room[subset] += room[subset ^ bit]
        return need[full] == room[full] and all(n <= r for n, r in zip(need, room, strict=True))

    if not feasible():
        return None
    order = list(range(len(allowed_of)))
    rnd.shuffle(order)
    out = [-1] * len(allowed_of)
    for i in order:
        cls = sum(1 << b for b in allowed_of[i])
        choices = [b for b in sorted(allowed_of[i]) if caps[b] > 0]
        rnd.shuffle(choices)
        counts[cls] -= 1
        for b in choices:
            caps[b] -= 1
            if feasible():
                out[i] = b
                break
            caps[b] += 1
        else:
            return None
    return out


def _pick_kitty(total: Counter, buried: Counter, shown: Counter, rnd: random.Random) -> list[int] | None:
    """A kitty for a world seen by a non-dealer: 8 of the dealer's cards (``total``) that leave the cards
    the dealer declared in its dealt hand; buried cards first, the rest at random."""
    keep = Counter(shown)
    pool = list(buried.elements()) + rnd.sample(list(total.elements()), sum(total.values()))
    left = total.copy()
    kitty: list[int] = []
    for k in pool:
        if len(kitty) == 8:
            break
        if left[k] - 1 >= keep[k] and left[k] > 0:
            left[k] -= 1
            kitty.append(k)
    return kitty if len(kitty) == 8 else None


class Shengji(Game):
    """The double-deck promotion match. ``new_deal(seed, levels=None, dealer=None, declare_first=None)``:
    ``levels`` ``{"A": rank, "B": rank}`` (default both "2"), ``dealer`` a seat or None for the first deal
    of a match, ``declare_first`` the seat that speaks first (default: the dealer, else bottom)."""

    name = "shengji"
    description = "double-deck promotion match: 108 cards, levels 2..A, kitty, pairs and tractors"
    returns_unit = "levels"  # returns() are the levels each team gained in the deal
    first_seat = "declare_first"
    first_seat_label = "declaring from"
    action_kinds = ("declaration", "burial", "play")

    def _context(self, context: dict, error: type[TekkasimError]):
        unknown = set(context) - {"levels", "dealer", "declare_first"}
        if unknown:
            raise error(f"unknown shengji deal context {sorted(unknown)!r} (levels, dealer, declare_first)")
        levels = _parse_levels(context.get("levels"), error)
        dealer = _seat_or_none(context.get("dealer"), error)
        declare_first = _seat_or_none(context.get("declare_first"), error)
        if declare_first is None:
            declare_first = dealer if dealer is not None else 0
        if dealer is None and levels[0] != levels[1]:
            raise error("a first deal (no dealer yet) needs both teams at the same level")
        return levels, dealer, declare_first

    def new_deal(self, seed: int, **context: Any) -> ShengjiState:
        """Shuffle and deal from ``seed`` (an int in 0 .. 2**63-1); ``context`` as in the class docstring."""
        seed = check_seed(seed)
        levels, dealer, declare_first = self._context(context, OptionError)
        deck = np.empty(108, np.int64)
        K.deal_cards(new_rng(seed), deck)
        cards = [int(k) for k in deck]
        hands = [cards[25 * s : 25 * s + 25] for s in range(4)]
        return ShengjiState(self, hands, cards[100:], levels, dealer, declare_first, seed=int(seed))

    def from_cards(self, hands, kitty, **context: Any) -> ShengjiState:
        """A deal from given cards (four hands of 25 and a kitty of 8, as kinds or card text)."""
        hands = [parse_cards(h, jokers=True) if not _all_ints(h) else list(h) for h in hands]
        kitty = parse_cards(kitty, jokers=True) if not _all_ints(kitty) else list(kitty)
        _check_cards(hands, kitty, OptionError)
        levels, dealer, declare_first = self._context(context, OptionError)
        return ShengjiState(self, hands, kitty, levels, dealer, declare_first)

    def from_record(self, record: dict) -> tuple[ShengjiState, list[str]]:
        hands_field = require(record, "hands", dict)
        hands = []
        for name in SEATS:
            cards = hands_field.get(name, hands_field.get(name[0].upper()))
            if not isinstance(cards, list):
                raise RecordError(f"hands: missing or malformed hand for {name}")
            try:
                hands.append(parse_cards(cards, jokers=True))
            except CardError as exc:
                raise RecordError(f"hands.{name}: {exc}") from None
        try:
            kitty = parse_cards(require(record, "kitty", list), jokers=True)
        except CardError as exc:
            raise RecordError(f"kitty: {exc}") from None
        _check_cards(hands, kitty, RecordError)
        levels = _parse_levels(record.get("levels"), RecordError)
        dealer = _seat_or_none(record.get("dealer"), RecordError)
        declare_first = _seat_or_none(record.get("declare_first"), RecordError)
        first = record.get("first_deal")
        if first is None:
            first = dealer is None or record.get("deal_no") == 0
        if not isinstance(first, bool):
            raise RecordError("field 'first_deal' must be true or false")
        if not first and dealer is None:
            raise RecordError("field 'dealer' is required unless the record is a first deal")
        if declare_first is None:
            declare_first = 0 if first else dealer
        if first and levels[0] != levels[1]:
            raise RecordError("a first deal needs both teams at the same level")
        team_level = levels[0] if first else levels[team_of(dealer)]
        level = parse_level(require(record, "level", str), RecordError)
        if level != team_level:
            raise RecordError(f"level {RANKS[level]} is not the dealer's team's level {RANKS[team_level]}")
        trump = record.get("trump")
        if trump is not None:
            if not isinstance(trump, str) or trump.strip().upper() not in ("C", "D", "H", "S", "NT"):
                raise RecordError(f"field 'trump' must be C, D, H, S or NT, not {trump!r}")
            t = trump.strip().upper()
            trump = NO_TRUMP if t == "NT" else SUITS.index(t)
        seed = record.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            seed = None  # kept only to write the record back as it was
        state = ShengjiState(self, hands, kitty, levels, None if first else dealer, declare_first, seed=seed)
        if first and dealer is not None:
            state._expect["dealer"] = dealer
        if trump is not None:
            state._expect["trump"] = trump
        actions: list[str] = []
        for key in ("declarations", "buried"):
            items = record.get(key, [])
            if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
                raise RecordError(f"field {key!r} must be a list of strings")
            actions += items
        tricks = record.get("tricks", [])
        if not isinstance(tricks, list) or not all(
            isinstance(t, list) and all(isinstance(p, str) for p in t) for t in tricks
        ):
            raise RecordError("field 'tricks' must be a list of tricks, each a list of play strings")
        for t in tricks:
            actions += t
        return state, actions

    def play_random(self, n_deals: int, seed: int, **context: Any) -> dict:
        """Random deals in one compiled call (policy: ``_shengji_kernels.play_random_deal``); deal i uses
        seed ``seed + i``. Returns arrays: ``returns`` (levels gained by A, B), ``attacker_points``,
        ``kitty_bonus``, ``trump`` (4 = NT), ``level``, ``dealer``, ``calls``, ``levels_after`` (uncapped,
        13 = past A), ``next_dealer``, ``match_winner`` (-1 none), ``tricks``."""
        levels, dealer, declare_first = self._context(context, OptionError)
        if isinstance(n_deals, bool) or not isinstance(n_deals, int | np.integer) or n_deals < 0:
            raise OptionError(f"n_deals must be a whole number >= 0, not {shorten(repr(n_deals))}")
        n = int(n_deals)
        out = np.zeros((n, 13), np.int64)
        K.play_random_many(
            n, np.uint64(check_seed(seed)), levels[0], levels[1], -1 if dealer is None else dealer, declare_first, out
        )
        return {
            "returns": out[:, 6:8].astype(np.float64),
            "attacker_points": out[:, 4],
            "kitty_bonus": out[:, 5],
            "trump": out[:, 0],
            "level": out[:, 1],
            "dealer": out[:, 2],
            "calls": out[:, 3],
            "levels_after": out[:, 8:10].copy(),
            "next_dealer": out[:, 10],
            "match_winner": out[:, 11],
            "tricks": out[:, 12],
        }


def _all_ints(items) -> bool:
    return not isinstance(items, str) and all(isinstance(k, int | np.integer) for k in items)


def _check_cards(hands: list[list[int]], kitty: list[int], error: type[TekkasimError]) -> None:
    for s, h in enumerate(hands):
        if len(h) != 25:
            raise error(f"{SEATS[s]} has {len(h)} cards, a shengji hand has 25")
    if len(kitty) != 8:
        raise error(f"the kitty has {len(kitty)} cards, it must have 8")
    counts = Counter(k for h in hands for k in h) + Counter(kitty)
    for k, c in sorted(counts.items()):
        if c > 2:
            raise error(f"{card_name(k)} appears {c} times; the two decks have two of each card")
