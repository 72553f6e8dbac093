"""Partnership Spades on tekkasim's Game/State contract (``tekkasim.rules.base``), and nothing else.

The rules, as played here, are written out in the package's README ("The rules"); in short: 13 cards each,
one lap of bids 0..13 (0 is Nil) from the dealer's left, spades always trump and not led until broken,
follow suit, 10 a bid trick and 1 a bag, Nil +-100, 100 off for every 10 bags, a match to 500 points
(or until a team falls to -200). Play goes clockwise, to the left: bottom -> left -> top -> right
(``tekkasim.cards.next_cw``).

Actions (ints): a card is its tekkasim card index ``suit * 13 + rank`` (0..51, ``tekkasim.cards``); a bid
of ``n`` tricks is ``BID_BASE + n`` (100..113; 100 is Nil). Text (records.md notation): cards ``"AS"``,
``"TH"`` (``"10H"`` and suit symbols accepted on input), bids ``"nil"`` and ``"1"`` .. ``"13"`` (``"0"``
accepted for Nil on input).

Phases: ``"bid"`` (four bids), ``"play"`` (13 tricks), ``"terminal"``.

Observation (``state.observation(seat)``): ``hand`` is the seat's cards still held (a 52-card mask);
``private`` is empty. ``public``: ``trump`` (3, spades), ``tricks`` (every trick begun, ``{"leader",
"plays": [(seat, card), ...], "winner"}``), ``score`` (match score before the deal, ``(A, B)``), ``won``
(team tricks so far), ``hand_sizes``, ``voids`` (per seat, bit ``suit`` set once it failed to follow that
suit), ``dealer``, ``bids`` (``[(seat, n), ...]`` in bidding order, 0 = Nil), ``bags`` (each team's bags
before the deal), ``broken`` (a spade has been played in this deal) and ``seat_tricks``.

Records: the common fields of records.md plus ``dealer``, ``bids`` (texts in bidding order from the
dealer's left), ``score_before`` and ``bags_before`` (``{"A": n, "B": n}``). ``result``: see
:meth:`SpadesState.result`.
"""

from __future__ import annotations

from functools import lru_cache
from math import factorial
from typing import Any

import numpy as np

from tekkasim import bits
from tekkasim.cards import (
    SEATS,
    SPADES,
    SUIT_MASKS,
    SUITS,
    TEAMS,
    CardSet,
    card_name,
    card_symbol,
    next_cw,
    parse_card,
    parse_seat,
    team_of,
)
from tekkasim.errors import CardError, IllegalAction, OptionError, RecordError, SeatError, TekkasimError, shorten
from tekkasim.rules.base import TERMINAL, Game, Observation, Option, State, check_seed

FORMAT = 1  # records.md's format version
BID_BASE = 100  # a bid of n tricks is BID_BASE + n; BID_BASE itself is Nil
NIL = BID_BASE
TRICKS = 13
NIL_BONUS = 100
BAG_LIMIT = 10  # every BAG_LIMIT bags cost BAG_PENALTY points
BAG_PENALTY = 100
REJECTION_TRIES = 200  # resample: shuffles tried before the exact counted draw

_SPADE_MASK = SUIT_MASKS[SPADES]


def bid_action(n: int | str) -> int:
    """The action of bidding ``n`` tricks (0 or ``"nil"`` is Nil)."""
    if isinstance(n, str):
        return parse_bid(n)
    if isinstance(n, bool) or not 0 <= int(n) <= TRICKS:
        raise TekkasimError(f"a bid is 0 (Nil) to 13, not {n!r}")
    return BID_BASE + int(n)


def bid_text(n: int) -> str:
    """``0`` -> ``"nil"``, ``7`` -> ``"7"``."""
    return "nil" if n == 0 else str(n)


def parse_bid(text: str) -> int:
    """``"nil"``/``"0"`` .. ``"13"`` -> the bid's action."""
    t = text.strip().lower()
    if t == "nil":
        return NIL
    if t.isdigit() and int(t) <= TRICKS:
        return BID_BASE + int(t)
    raise TekkasimError(f"unknown bid {shorten(repr(text))} (expected nil or 1 to 13)")


def action_text(a: int) -> str:
    if 0 <= a < 52:
        return card_name(a)
    if BID_BASE <= a <= BID_BASE + TRICKS:
        return bid_text(a - BID_BASE)
    raise TekkasimError(f"no Spades action has the number {shorten(str(a))}")


def parse_action(text: str) -> int:
    """Card text (``"AS"``, ``"10h"``, ``"T♥"``) or bid text (``"nil"``, ``"0"`` .. ``"13"``)."""
    if not isinstance(text, str):
        raise TekkasimError(f"an action must be text, not {shorten(repr(text))}")
    t = text.strip()
    if t.lower() == "nil" or t.isdigit():
        return parse_bid(t)
    return parse_card(t)


def power(card: int, led: int) -> int:
    """How strongly ``card`` stands in a trick led in suit ``led``: spades above the led suit, other suits
    nowhere (-1)."""
    suit, rank = divmod(card, 13)
    if suit == SPADES:
        return 100 + rank
    if suit == led:
        return rank
    return -1


def trick_winner(plays: list[tuple[int, int]]) -> int:
    """The seat that wins a trick of ``(seat, card)`` plays: the highest spade, else the highest card of
    the suit led."""
    led = plays[0][1] // 13
    return max(plays, key=lambda p: power(p[1], led))[0]


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _pair(value: Any, what: str, negative: bool) -> tuple[int, int]:
    """A per-team pair given as ``(A, B)`` or ``{"A": a, "B": b}``: integers (``negative`` allows < 0)."""
    if isinstance(value, dict):
        if set(value) != {"A", "B"}:
            raise TekkasimError(f"{what} must have exactly the keys A and B, not {shorten(repr(value))}")
        value = (value["A"], value["B"])
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in value)
        or (not negative and min(value) < 0)
    ):
        kind = "integers" if negative else "non-negative integers"
        raise TekkasimError(f"{what} must be two {kind} (team A, team B), not {shorten(repr(value))}")
    return int(value[0]), int(value[1])


class SpadesState(State):
    """One deal of Spades: the bidding, then 13 tricks. Plain Python lists and card masks."""

    def __init__(
        self,
        game: Spades,
        dealt: list[list[int]],
        dealer: int,
        seed: int | None,
        score: tuple[int, int] = (0, 0),
        bags: tuple[int, int] = (0, 0),
    ):
        self.game = game
        self.seed = seed
        self.dealer = dealer
        self.dealt = [list(row) for row in dealt]  # each seat's 13 cards in the order dealt
        self.hands = [sum(1 << c for c in row) for row in dealt]  # cards still held
        self.score_before = score
        self.bags_before = bags
        self.bids: list[int] = []  # 0..13 in bidding order from the dealer's left (0 = Nil)
        self.tricks: list[list[tuple[int, int]]] = []  # every trick begun: (seat, card) in play order
        self.winners: list[int] = []
        self.seat_tricks = [0, 0, 0, 0]
        self.voids = [0, 0, 0, 0]
        self.broken = False
        self.to_move = next_cw(dealer)
        self._history: list[int] = []

    # --- small accessors ------------------------------------------------------------------------
    @property
    def first(self) -> int:
        """The seat left of the dealer: it bids first and leads trick 1."""
        return next_cw(self.dealer)

    def bid_of(self, seat: int) -> int | None:
        """``seat``'s bid (0 = Nil), None before it has bid."""
        i = (self.first - seat) % 4  # bidding goes clockwise (seat - 1) from the dealer's left
        return self.bids[i] if i < len(self.bids) else None

    def team_tricks(self) -> tuple[int, int]:
        st = self.seat_tricks
        return st[0] + st[2], st[1] + st[3]

    def _in_trick(self) -> list[tuple[int, int]]:
        """The plays of the trick in progress (empty when the seat to move leads)."""
        if self.tricks and len(self.tricks[-1]) < 4:
            return self.tricks[-1]
        return []

    def legal_mask(self) -> int:
        """The cards the seat to move may play (0 outside the play)."""
        if self.phase() != "play":
            return 0
        hand = self.hands[self.to_move]
        trick = self._in_trick()
        if not trick:
            side = hand & ~_SPADE_MASK
            return side if side and not self.broken else hand
        follow = hand & SUIT_MASKS[trick[0][1] // 13]
        return follow or hand

    # --- contract ---------------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if len(self.winners) == TRICKS else self.to_move

    def phase(self) -> str:
        if len(self.bids) < 4:
            return "bid"
        return "terminal" if len(self.winners) == TRICKS else "play"

    def legal_actions(self) -> list[int]:
        phase = self.phase()
        if phase == "bid":
            low = 0 if self.game.options["nil"] else 1
            return [BID_BASE + n for n in range(low, TRICKS + 1)]
        if phase == "play":
            return _cards(self.legal_mask())
        return []

    def apply_action(self, action) -> None:
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalAction(f"not an action of spades: {shorten(repr(action))}", "unknown-action")
        a = int(action)
        phase = self.phase()
        if phase == "terminal":
            raise IllegalAction("the deal is over", "deal-over")
        seat = self.to_move
        who = SEATS[seat]
        if BID_BASE <= a <= BID_BASE + TRICKS:
            if phase != "bid":
                raise IllegalAction("the bidding is over", "wrong-phase")
            if a == NIL and not self.game.options["nil"]:
                raise IllegalAction("Nil bids are off in this game (option nil)", "nil-off")
            self.bids.append(a - BID_BASE)
            self.to_move = next_cw(seat)
        elif 0 <= a < 52:
            if phase != "play":
                raise IllegalAction(f"a card cannot be played during the bidding: {who} must bid", "wrong-phase")
            if not self.hands[seat] >> a & 1:
                raise IllegalAction(f"{card_name(a)} is not in {who}'s hand", "not-in-hand")
            if not self.legal_mask() >> a & 1:
                trick = self._in_trick()
                if not trick:
                    raise IllegalAction(
                        f"spades are not broken: {who} holds another suit and may not lead {card_name(a)}",
                        "spades-not-broken",
                    )
                led = SUITS[trick[0][1] // 13]
                raise IllegalAction(f"{who} holds {led} and must follow suit, not play {card_name(a)}", "follow-suit")
            self._play(seat, a)
        else:
            raise IllegalAction(f"not an action of spades: {a}", "unknown-action")
        self._history.append(a)

    def _play(self, seat: int, c: int) -> None:
        trick = self._in_trick()
        if not trick:
            trick = []
            self.tricks.append(trick)
        elif c // 13 != trick[0][1] // 13:
            self.voids[seat] |= 1 << (trick[0][1] // 13)
        trick.append((seat, c))
        self.hands[seat] &= ~(1 << c)
        if c // 13 == SPADES:
            self.broken = True
        if len(trick) == 4:
            w = trick_winner(trick)
            self.winners.append(w)
            self.seat_tricks[w] += 1
            self.to_move = w
        else:
            self.to_move = next_cw(seat)

    # --- outcome ------------------------------------------------------------------------------------
    def _require_over(self, what: str) -> None:
        if not self.is_terminal():
            raise TekkasimError(f"the deal is not over (next: {self.where()}): no {what} yet")

    def team_score(self, team: int) -> dict:
        """What the deal gives ``team`` (0 = A, 1 = B): contract, tricks, bags, nil outcomes, points."""
        members = (team, team + 2)
        bids = {s: self.bid_of(s) for s in members}
        nils = [s for s in members if bids[s] == 0]
        contract = sum(bids[s] for s in members if bids[s] != 0)
        counted = sum(self.seat_tricks[s] for s in members if bids[s] != 0)
        if counted >= contract:
            points, bags = 10 * contract + (counted - contract), counted - contract
        else:
            points, bags = -10 * contract, 0
        nil_results = []
        for s in nils:  # a Nil bidder's tricks are the team's bags (1 point each), never part of the contract
            taken = self.seat_tricks[s]
            bags += taken
            points += taken + (NIL_BONUS if taken == 0 else -NIL_BONUS)
            nil_results.append({"seat": SEATS[s], "made": taken == 0})
        total = self.bags_before[team] + bags
        penalties = total // BAG_LIMIT
        return {
            "contract": contract,
            "tricks": counted + sum(self.seat_tricks[s] for s in nils),
            "made": counted >= contract,
            "nil": nil_results,
            "bags": bags,
            "bag_penalty": -BAG_PENALTY * penalties,
            "points": points - BAG_PENALTY * penalties,
            "bags_after": total - BAG_LIMIT * penalties,
        }

    def result(self) -> dict:
        """``{"contract": {"A", "B"}, "tricks": {...}, "made": {...} (bools), "nil": [{"seat", "made"}, ...],
        "bags": {...} (taken this deal), "bag_penalty": {...} (0, -100 ...), "score": {...} (this deal's
        points), "score_after": {...}, "bags_after": {...}, "match_winner": "A" | "B" | None}``."""
        self._require_over("result")
        a, b = self.team_score(0), self.team_score(1)
        after = self.score_after()
        winner = self.match_winner()
        return {
            "contract": {"A": a["contract"], "B": b["contract"]},
            "tricks": {"A": a["tricks"], "B": b["tricks"]},
            "made": {"A": a["made"], "B": b["made"]},
            "nil": sorted(a["nil"] + b["nil"], key=lambda n: SEATS.index(n["seat"])),
            "bags": {"A": a["bags"], "B": b["bags"]},
            "bag_penalty": {"A": a["bag_penalty"], "B": b["bag_penalty"]},
            "score": {"A": a["points"], "B": b["points"]},
            "score_after": {"A": after[0], "B": after[1]},
            "bags_after": {"A": a["bags_after"], "B": b["bags_after"]},
            "match_winner": None if winner is None else TEAMS[winner],
        }

    def returns(self) -> tuple[float, float]:
        """The two teams' points from this deal (bag penalties included)."""
        self._require_over("returns")
        return float(self.team_score(0)["points"]), float(self.team_score(1)["points"])

    def score_after(self) -> tuple[int, int]:
        self._require_over("score")
        return (
            self.score_before[0] + self.team_score(0)["points"],
            self.score_before[1] + self.team_score(1)["points"],
        )

    def next_deal_context(self) -> dict:
        """The next deal of the match: the dealer's left deals, with the scores and bags carried over."""
        self._require_over("next deal")
        return {
            "dealer": next_cw(self.dealer),
            "score": self.score_after(),
            "bags": (self.team_score(0)["bags_after"], self.team_score(1)["bags_after"]),
        }

    def match_winner(self) -> int | None:
        """0 (A) or 1 (B) when this deal ends the match. A team at ``target`` or more wins (both there: the
        higher; equal: play on); else a team at ``-lose_at`` or less loses (both: the higher wins; equal:
        play on); ``lose_at=0`` turns that off."""
        if not self.is_terminal():
            return None
        a, b = self.score_after()
        target, lose_at = self.game.options["target"], self.game.options["lose_at"]
        up = (a >= target, b >= target)
        down = (lose_at > 0 and a <= -lose_at, lose_at > 0 and b <= -lose_at)
        if any(up) or any(down):
            if up[0] != up[1]:
                return 0 if up[0] else 1
            if not any(up) and down[0] != down[1]:
                return 1 if down[0] else 0
            if a != b:
                return 0 if a > b else 1
        return None

    # --- information ----------------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        seat = parse_seat(seat)
        tricks = [
            {"leader": t[0][0], "plays": list(t), "winner": self.winners[i] if i < len(self.winners) else None}
            for i, t in enumerate(self.tricks)
        ]
        public = {
            "trump": SPADES,
            "tricks": tricks,
            "score": tuple(self.score_before),
            "won": self.team_tricks(),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "voids": list(self.voids),
            "dealer": self.dealer,
            "bids": [((self.first + 3 * i) % 4, n) for i, n in enumerate(self.bids)],
            "bags": tuple(self.bags_before),
            "broken": self.broken,
            "seat_tricks": list(self.seat_tricks),
        }
        return Observation(seat, self.phase(), self.current_player(), self.hands[seat], public, {})

    def resample(self, seat: int, rng) -> SpadesState:
        """A full deal ``seat`` cannot tell from this one: the other seats' unplayed cards redrawn uniformly
        over every deal that gives each of them as many cards as it holds and no card of a suit it has
        shown void in. Depends only on the seat's observation and ``rng``: the hidden cards are gathered in
        ascending order, every seat's ``dealt`` row of the world is its cards in ascending order (the true
        order dealt is nobody's to see) and the world has no seed. First shuffles (up to
        ``REJECTION_TRIES``, rejecting a deal that breaks a void), then an exact count over suits; both
        are uniform over the consistent deals. ``rng``: a kernel RNG (``tekkasim.bits.new_rng``), advanced
        in place."""
        seat = parse_seat(seat)
        if not (isinstance(rng, np.ndarray) and rng.dtype == np.uint64 and rng.shape == (1,)):
            raise TekkasimError("resample needs a kernel RNG state: tekkasim.bits.new_rng(seed)")
        others = [s for s in range(4) if s != seat]
        pool = np.array(_cards(sum(self.hands[s] for s in others)), np.int64)
        caps = [self.hands[s].bit_count() for s in others]
        voids = [self.voids[s] for s in others]
        hands = None
        if any(voids):
            for _ in range(REJECTION_TRIES):
                cards = pool.copy()
                bits.shuffle(rng, cards)
                split = _split(cards.tolist(), caps)
                if all(not (voids[i] >> (c // 13) & 1) for i, row in enumerate(split) for c in row):
                    hands = split
                    break
            if hands is None:
                hands = _draw_counted(pool.tolist(), caps, voids, rng)
        else:
            cards = pool.copy()
            bits.shuffle(rng, cards)
            hands = _split(cards.tolist(), caps)
        if len(pool) < 2:  # nothing was drawn: the contract advances rng on every call all the same
            bits.next_u64(rng)
        new = self.clone()
        new.seed = None
        for s, row in zip(others, hands, strict=True):
            new.hands[s] = sum(1 << c for c in row)
        played = [0, 0, 0, 0]
        for trick in self.tricks:
            for s, c in trick:
                played[s] |= 1 << c
        new.dealt = [_cards(new.hands[s] | played[s]) for s in range(4)]
        return new

    # --- copies and text ------------------------------------------------------------------------------
    def clone(self) -> SpadesState:
        new = object.__new__(SpadesState)
        new.__dict__.update(self.__dict__)
        new.dealt = [list(row) for row in self.dealt]
        new.hands = list(self.hands)
        new.bids = list(self.bids)
        new.tricks = [list(t) for t in self.tricks]
        new.winners = list(self.winners)
        new.seat_tricks = list(self.seat_tricks)
        new.voids = list(self.voids)
        new._history = list(self._history)
        return new

    def history(self) -> list[int]:
        return list(self._history)

    def action_to_string(self, action) -> str:
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise TekkasimError(f"not an action of spades: {shorten(repr(action))}")
        return action_text(int(action))

    def string_to_action(self, text: str) -> int:
        return parse_action(text)

    def where(self) -> str:
        phase = self.phase()
        if phase == "terminal":
            return "after trick 13"
        name = SEATS[self.to_move]
        if phase == "bid":
            return f"bidding, bid {len(self.bids) + 1} ({name})"
        trick = self._in_trick()
        return f"trick {len(self.winners) + 1}, play {len(trick) + 1} ({name})"

    def to_record(self) -> dict:
        rec: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": self.game.name,
            "dealer": SEATS[self.dealer],
            "hands": {SEATS[s]: [card_name(c) for c in self.dealt[s]] for s in range(4)},
            "trump": "S",
            "bids": [bid_text(n) for n in self.bids],
            "score_before": {"A": self.score_before[0], "B": self.score_before[1]},
            "bags_before": {"A": self.bags_before[0], "B": self.bags_before[1]},
            "tricks": [[card_name(c) for _, c in t] for t in self.tricks],
        }
        if self.is_terminal():
            rec["result"] = self.result()
        changed = {k: v for k, v in self.game.options.items() if v != _default(self.game, k)}
        if changed:
            rec["options"] = changed
        if self.seed is not None:
            rec["seed"] = self.seed
        if not self.is_terminal():
            rec["unfinished"] = True
        return rec

    def render(self) -> str:
        a, b = self.score_before
        ba, bb = self.bags_before
        lines = [f"Spades, dealer: {SEATS[self.dealer]}, score before: A {a} - B {b} (bags A {ba} - B {bb})"]
        for s in range(4):
            row = "  ".join(CardSet(sum(1 << c for c in self.dealt[s])).by_suit().split("\n"))
            lines.append(f"  {SEATS[s]:<6} ({TEAMS[team_of(s)]}) {row}")
        bids = "  ".join(f"{SEATS[s]}: {bid_text(n)}" for s, n in self.observation(0).public["bids"])
        lines.append(f"Bids: {bids or '(none yet)'}")
        for t, trick in enumerate(self.tricks):
            plays = "  ".join(f"{SEATS[s][0].upper()}:{card_symbol(c)}" for s, c in trick)
            won = f"-> {SEATS[self.winners[t]]}" if t < len(self.winners) else "(in progress)"
            lines.append(f"  {t + 1:>2}. led by {SEATS[trick[0][0]]:<6} {plays:<28} {won}")
        if self.is_terminal():
            r = self.result()
            lines.append(
                f"Result: tricks A {r['tricks']['A']} - B {r['tricks']['B']}, contracts A {r['contract']['A']} - "
                f"B {r['contract']['B']}; points A {r['score']['A']}, B {r['score']['B']}; "
                f"match A {r['score_after']['A']} - B {r['score_after']['B']}"
            )
        else:
            lines.append(f"Unfinished: next {self.where()}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<spades deal at {self.where()}>"


def _default(game: Game, name: str) -> Any:
    return next(o.default for o in game.options_spec if o.name == name)


def _split(cards: list[int], caps: list[int]) -> list[list[int]]:
    out, pos = [], 0
    for n in caps:
        out.append(cards[pos : pos + n])
        pos += n
    return out


# --- the exact draw of resample ---------------------------------------------------------------------------


def _big_below(rng: np.ndarray, n: int) -> int:
    """Uniform in [0, n) for any n >= 1, by rejection on whole 64-bit draws."""
    width = max(1, (n - 1).bit_length())
    while True:
        r = 0
        for _ in range((width + 63) // 64):
            r = (r << 64) | int(bits.next_u64(rng))
        r &= (1 << width) - 1
        if r < n:
            return r


@lru_cache(maxsize=1 << 14)
def _splits(n: int, allowed: tuple[bool, ...], room: tuple[int, ...]) -> tuple:
    """Every way to share a suit's ``n`` hidden cards among seats with ``room`` places left (none to a seat
    not ``allowed``): ``((counts, multinomial weight), ...)``."""
    out = []

    def rec(i: int, left: int, acc: tuple[int, ...]) -> None:
        if i == len(room) - 1:
            if left <= room[i] and (left == 0 or allowed[i]):
                counts = acc + (left,)
                w = factorial(n)
                for x in counts:
                    w //= factorial(x)
                out.append((counts, w))
            return
        for x in range((min(left, room[i]) if allowed[i] else 0) + 1):
            rec(i + 1, left - x, acc + (x,))

    rec(0, n, ())
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _ways(sizes: tuple[int, ...], allowed: tuple[tuple[bool, ...], ...], s: int, room: tuple[int, ...]) -> int:
    """The number of deals of suits ``s..3`` into ``room``."""
    if s == 4:
        return int(not any(room))
    return sum(
        w * _ways(sizes, allowed, s + 1, tuple(r - x for r, x in zip(room, counts, strict=True)))
        for counts, w in _splits(sizes[s], allowed[s], room)
    )


def _draw_counted(pool: list[int], caps: list[int], voids: list[int], rng: np.ndarray) -> list[list[int]]:
    """Deal ``pool`` into hands of ``caps`` cards, no card of a void suit, uniformly: each suit's counts per
    seat are drawn weighted by the number of deals that share them, then each suit's cards shuffled."""
    by_suit = [[c for c in pool if c // 13 == s] for s in range(4)]
    sizes = tuple(len(x) for x in by_suit)
    allowed = tuple(tuple(not v >> s & 1 for v in voids) for s in range(4))
    room = tuple(caps)
    if _ways(sizes, allowed, 0, room) == 0:
        raise TekkasimError("no deal is consistent with this observation")
    hands: list[list[int]] = [[] for _ in caps]
    for s in range(4):
        options = []
        for counts, w in _splits(sizes[s], allowed[s], room):
            rest = tuple(r - x for r, x in zip(room, counts, strict=True))
            weight = w * _ways(sizes, allowed, s + 1, rest)
            if weight:
                options.append((counts, weight, rest))
        pick = _big_below(rng, sum(w for _, w, _ in options))
        chosen = 0
        while pick >= options[chosen][1]:
            pick -= options[chosen][1]
            chosen += 1
        counts, _, rest = options[chosen]
        cards = np.array(by_suit[s], np.int64)
        bits.shuffle(rng, cards)
        pos = 0
        for i, x in enumerate(counts):
            hands[i].extend(int(c) for c in cards[pos : pos + x])
            pos += x
        room = rest
    return hands


# --- the game ---------------------------------------------------------------------------------------------


class Spades(Game):
    """Partnership Spades (README): bids 0..13 with Nil, spades trump, bags, a match to 500 points."""

    name = "spades"
    description = "Partnership Spades: bid your tricks (Nil allowed), spades always trump, bags, match to 500"
    returns_unit = "points"
    has_matches = True
    first_seat = "dealer"
    first_seat_label = "dealer"
    public_record_fields = ("bids", "bags_before")  # shown to engines and people, rendered
    first_five = False
    trump_name = "trump"
    action_kinds = ("bid", "card")
    options_spec = (
        Option("nil", True, None, "a bid of 0 is Nil (+100 if the bidder takes no trick, -100 if not); off: bids 1-13"),
        Option("target", 500, None, "the match ends when a team reaches this score"),
        Option("lose_at", 200, None, "a team whose score falls to -lose_at or below loses the match (0: never)"),
    )

    def __init__(self, **options: Any):
        super().__init__(**options)
        if self.options["target"] < 1:
            raise OptionError(f"option 'target' of spades must be at least 1, not {self.options['target']}")
        if self.options["lose_at"] < 0:
            raise OptionError(f"option 'lose_at' of spades must be 0 or more, not {self.options['lose_at']}")

    def new_deal(self, seed: int, dealer: int | str = 0, score=(0, 0), bags=(0, 0)) -> SpadesState:
        """Shuffle and deal from ``seed``: ``deck = 0..51`` shuffled by ``bits.shuffle`` with
        ``bits.new_rng(seed)``, dealt one card at a time clockwise from the dealer's left. ``dealer`` (a
        seat), ``score`` and ``bags`` (team A, team B) before the deal come from ``next_deal_context``."""
        seed = check_seed(seed)
        dealer = parse_seat(dealer)
        rng = bits.new_rng(seed)
        deck = np.arange(52, dtype=np.int64)
        bits.shuffle(rng, deck)
        dealt: list[list[int]] = [[], [], [], []]
        seat = dealer
        for c in deck.tolist():
            seat = next_cw(seat)
            dealt[seat].append(int(c))
        return SpadesState(self, dealt, dealer, seed, _pair(score, "score", True), _pair(bags, "bags", False))

    def from_hands(self, hands: dict, dealer: int | str = 0, score=(0, 0), bags=(0, 0)) -> SpadesState:
        """A deal with the given hands (seat -> 13 cards, text or ints, or one space-separated text): for
        hand-built positions and tests."""
        if not isinstance(hands, dict):
            raise TekkasimError("hands must map each seat to its 13 cards")
        texts = {}
        for key, cards in hands.items():
            if isinstance(cards, str):
                cards = cards.replace(",", " ").split()
            texts[key] = [card_name(c) if isinstance(c, int) else c for c in cards]
        dealt = _parse_hands(texts)
        return SpadesState(
            self, dealt, parse_seat(dealer), None, _pair(score, "score", True), _pair(bags, "bags", False)
        )

    def from_record(self, record: dict) -> tuple[SpadesState, list[str]]:
        if not isinstance(record, dict):
            raise RecordError("a record must be a JSON object")
        if record.get("ruleset", self.name) != self.name:
            raise RecordError(f"record is for {shorten(repr(record.get('ruleset')))}, not {self.name}")
        dealer_text = record.get("dealer")
        if not isinstance(dealer_text, str):
            raise RecordError("field 'dealer' must be a seat (bottom, right, top or left)")
        try:
            dealer = parse_seat(dealer_text)
        except SeatError as exc:
            raise RecordError(f"field 'dealer': {exc}") from None
        if not isinstance(record.get("hands"), dict):
            raise RecordError("field 'hands' must map each seat to its 13 cards")
        dealt = _parse_hands(record["hands"])
        trump = record.get("trump", "S")
        if not isinstance(trump, str) or trump.strip().upper() not in ("S", "♠"):
            raise RecordError(f"field 'trump' must be \"S\" in spades, not {shorten(repr(trump))}")
        bids = record.get("bids", [])
        if not isinstance(bids, list) or not all(isinstance(b, str) for b in bids):
            raise RecordError('field \'bids\' must be a list of bids like "nil", "3" or "13"')
        if len(bids) > 4:
            raise RecordError(f"field 'bids' has {len(bids)} bids (one each: 4)")
        tricks = record.get("tricks", [])
        if not isinstance(tricks, list):
            raise RecordError(f"field 'tricks' must be a list of tricks, not {type(tricks).__name__}")
        if len(tricks) > TRICKS:
            raise RecordError(f"field 'tricks' has {len(tricks)} tricks (at most 13)")
        for i, trick in enumerate(tricks):
            if not isinstance(trick, list) or not 1 <= len(trick) <= 4:
                raise RecordError(f"tricks[{i}] must be a list of 1 to 4 plays")
            if len(trick) < 4 and i < len(tricks) - 1:
                raise RecordError(f"tricks[{i}] has {len(trick)} plays but is not the last trick")
            for j, play in enumerate(trick):
                if not isinstance(play, str):
                    raise RecordError(f"tricks[{i}][{j}] must be card text like 'AS', not {shorten(repr(play))}")
        if tricks and len(bids) < 4:
            raise RecordError(f"field 'bids' has {len(bids)} bids, but the record has tricks (4 bids come first)")
        try:
            score = _pair(record.get("score_before", (0, 0)), "field 'score_before'", True)
            bags = _pair(record.get("bags_before", (0, 0)), "field 'bags_before'", False)
        except TekkasimError as exc:
            raise RecordError(str(exc)) from None
        seed = record.get("seed") if isinstance(record.get("seed"), int) else None
        state = SpadesState(self, dealt, dealer, seed, score, bags)
        return state, list(bids) + [p for trick in tricks for p in trick]

    def play_random(self, n_deals: int, seed: int, dealer: int | str = 0) -> dict:
        """``n_deals`` deals (deal i from ``seed + i``, each a match's first) with uniformly random legal
        actions, in Python (there is no compiled loop); returns ``returns`` (n, 2) points, ``tricks`` (n, 2)
        and ``contract`` (n, 2)."""
        if n_deals < 0:
            raise TekkasimError(f"n_deals must be >= 0, not {n_deals}")
        out = {k: np.zeros((n_deals, 2), np.int64) for k in ("returns", "tricks", "contract")}
        for i in range(n_deals):
            state = self.new_deal(seed + i, dealer=dealer)
            rng = bits.new_rng(seed + i)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(bits.below(rng, len(legal)))])
            r = state.result()
            for key, value in (("returns", r["score"]), ("tricks", r["tricks"]), ("contract", r["contract"])):
                out[key][i] = (value["A"], value["B"])
        out["returns"] = out["returns"].astype(np.float64)
        return out


def _parse_hands(hands: dict) -> list[list[int]]:
    """Four seats' 13 cards each (text), the 52 cards once each, as card indexes in the order given."""
    rows: list[list[int] | None] = [None] * 4
    for key, cards in hands.items():
        try:
            seat = parse_seat(key)
        except SeatError as exc:
            raise RecordError(f"field 'hands': {exc}") from None
        if rows[seat] is not None:
            raise RecordError(f"field 'hands' gives {SEATS[seat]} twice")
        if not isinstance(cards, list) or len(cards) != TRICKS:
            raise RecordError(f"hands.{SEATS[seat]} must be a list of 13 cards")
        try:
            rows[seat] = [parse_card(c) for c in cards]
        except CardError as exc:
            raise RecordError(f"hands.{SEATS[seat]}: {exc}") from None
    missing = [SEATS[s] for s in range(4) if rows[s] is None]
    if missing:
        raise RecordError(f"field 'hands' lacks {', '.join(missing)}")
    seen: set[int] = set()
    for s, row in enumerate(rows):
        for c in row:
            if c in seen:
                raise RecordError(f"hands.{SEATS[s]}: duplicate card {card_name(c)}")
            seen.add(c)
    return rows  # type: ignore[return-value]


__all__ = [
    "BID_BASE",
    "NIL",
    "Spades",
    "SpadesState",
    "action_text",
    "bid_action",
    "bid_text",
    "parse_action",
    "parse_bid",
    "power",
    "trick_winner",
]
