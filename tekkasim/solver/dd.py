"""Double-dummy solving: the exact number of tricks with every card visible and perfect play by all four.

A *position* is four hands (52-card masks, indexed by seat), the trump suit (0..3 = C D H S, or 4 for no
trump, which none of our rulesets uses but the solver supports for generality), the seat that led the
current trick and the cards already on the table in it, in play order (empty at a trick boundary). The
hands of the seats still to play hold one card more than those that have played.

Two trick rules (``ruleset``):

* ``"feskot"`` and ``"tekka"`` (the standard rules): counter-clockwise play bottom -> right -> top -> left;
  follow suit if able, else any card; highest trump wins, else highest card of the led suit.
* ``"satat"``: clockwise play bottom -> left -> top -> right. 2♥ beats everything and may be played at
  any time; it is never a heart for following (a player whose only heart is 2♥ is void in hearts).
  A 2♥ lead asks for Troupe (trump): everyone who holds Troupe must play it; when Troupe is hearts this
  is an ordinary Troupe lead. 2♥ played later does not change the suit to follow. Only legal plays are
  searched (a Renonce is never part of perfect play). Without trump (``trump=4``, not a Satat deal) a
  2♥ lead asks for no suit.

What is counted: tricks over *all remaining cards*. A real deal may stop earlier (Feskot and Satat stop
when a team reaches 7 tricks; Satat's KOT continues), but whether a side can reach T tricks is the same
question either way, which is why :meth:`Solver.can_reach` is offered: bots and bidding analysis ask
"can we reach 7?" directly, and that is usually much faster than the exact count.

Results are for the *side to move* (the seat whose turn it is): ``solve`` gives the tricks its side
takes among the tricks left, the current one included; ``card_values`` gives, for each legal card, the
tricks its side takes after playing that card. Seats: 0..3 = bottom, right, top, left.

>>> from tekkasim.cards import CardSet
>>> hands = [CardSet.parse(h).mask for h in ("AS KS", "QS JS", "AH KH", "QH JH")]
>>> solve(hands, trump=4, leader=0)          # bottom cashes two spades
2
>>> solve(hands, trump=4, leader=1)          # right leads a spade into AK
0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ..cards import SEATS, card_name, cards_of, mask_of, parse_cards, parse_seat, parse_suit
from ..errors import CardError, IllegalAction, OptionError
from . import _dd_kernels as K

RULESETS = {"feskot": K.STANDARD, "tekka": K.STANDARD, "satat": K.SATAT}
DEFAULT_TT_BITS = 20


def _variant(ruleset: str) -> int:
    key = str(ruleset).strip().lower()
    if key not in RULESETS:
        raise OptionError(f"the double-dummy solver has no ruleset {ruleset!r} (expected feskot, tekka or satat)")
    return RULESETS[key]


def _as_mask(hand, what: str) -> int:
    """A hand given as a 52-card mask, card text (``"AS KS 2C"``) or a list of cards (ints or text)."""
    if isinstance(hand, (int, np.integer)) and not isinstance(hand, bool):
        m = int(hand)
        if m < 0 or m >> 52:
            raise CardError(f"{what}: not a 52-card mask: {m:#x}")
        return m
    if not isinstance(hand, (str, Iterable)):
        raise CardError(f"{what}: expected a card mask, card text or a list of cards, not {type(hand).__name__}")
    items = hand if isinstance(hand, str) else list(hand)
    try:
        if not isinstance(items, str) and all(isinstance(c, (int, np.integer)) for c in items):
            bad = [int(c) for c in items if not 0 <= int(c) < 52]
            if bad:
                raise CardError(f"no card has index {bad[0]}")
            return mask_of(int(c) for c in items)
        return mask_of(parse_cards(items))
    except CardError as exc:
        raise CardError(f"{what}: {exc}") from None


def _as_trump(trump) -> int:
    if isinstance(trump, (int, np.integer)) and not isinstance(trump, bool):
        if 0 <= int(trump) <= 4:
            return int(trump)
        raise OptionError(f"trump must be 0..3 (C D H S) or 4 (no trump), not {trump}")
    if isinstance(trump, str):
        if trump.strip().upper() in ("NT", "N"):
            return K.NO_TRUMP
        return parse_suit(trump)
    raise OptionError(f"trump must be a suit, not {trump!r}")


class Position:
    """A validated position, ready for the kernels.

    Parameters
    ----------
    hands : four hands (bottom, right, top, left) or a dict seat name -> hand
        Each a 52-card mask, card text (``"AS KS 2C"``) or a list of cards. The seats that have played
        to the current trick hold one card fewer than the others.
    trump : 0..3, ``"C"``/``"D"``/``"H"``/``"S"`` (symbols accepted), or 4 / ``"NT"`` for no trump.
    leader : seat (0..3 or name) that led the current trick, or leads next when ``table`` is empty.
    table : the cards already played to the current trick, in play order (at most 3).
    ruleset : ``"feskot"``, ``"tekka"`` (standard rules) or ``"satat"``.

    Bad input raises ``CardError``, ``SeatError``, ``OptionError`` or ``IllegalAction`` (a table card that
    broke the follow rule) with one line. ``to_move`` is the seat whose turn it is and ``n_left`` the
    number of tricks left, the current one included.
    """

    __slots__ = (
        "hands",
        "trump",
        "variant",
        "leader",
        "table",
        "to_move",
        "pos",
        "lead",
        "win_seat",
        "win_str",
        "rem",
        "trick",
        "n_left",
    )

    def __init__(self, hands, trump, leader, table=(), ruleset: str = "feskot"):
        self.variant = _variant(ruleset)
        if isinstance(hands, dict):
            hands = [hands.get(s, hands.get(s[0].upper())) for s in SEATS]
        hands = list(hands)
        if len(hands) != 4:
            raise CardError(f"a position needs four hands (bottom, right, top, left), not {len(hands)}")
        self.hands = [_as_mask(h, f"{SEATS[i]} hand") for i, h in enumerate(hands)]
        self.trump = _as_trump(trump)
        self.leader = parse_seat(leader)
        table_cards = (
            list(parse_cards(table))
            if isinstance(table, str)
            else [c if isinstance(c, (int, np.integer)) else parse_cards([c])[0] for c in table]
        )
        table_cards = [int(c) for c in table_cards]
        if len(table_cards) > 3:
            raise CardError(f"at most 3 cards can be on the table before a play, not {len(table_cards)}")
        seen = 0
        for i, m in enumerate(self.hands):
            if seen & m:
                dup = cards_of(seen & m)[0]
                raise CardError(f"duplicate card {card_name(dup)} ({SEATS[i]} hand and another hand)")
            seen |= m
        for c in table_cards:
            if not 0 <= c < 52:
                raise CardError(f"no card has index {c}")
            if seen >> c & 1:
                raise CardError(f"duplicate card {card_name(c)} (on the table and in a hand, or twice on the table)")
            seen |= 1 << c
        self.table = tuple(table_cards)
        step = (lambda s: (s + 3) % 4) if self.variant == K.SATAT else (lambda s: (s + 1) % 4)
        played = []
        seat = self.leader
        for _ in table_cards:
            played.append(seat)
            seat = step(seat)
        self.to_move = seat
        sizes = [m.bit_count() for m in self.hands]
        n = sizes[self.to_move]
        if n == 0:
            raise CardError("no cards left to play")
        if n > 13:
            raise CardError(f"a hand holds at most 13 cards, {SEATS[self.to_move]} holds {n}")
        for s in range(4):
            want = n - 1 if s in played else n
            if sizes[s] != want:
                raise CardError(
                    f"hand sizes do not fit: {SEATS[s]} holds {sizes[s]} cards, expected {want}"
                    f" ({', '.join(f'{SEATS[i]} {sizes[i]}' for i in range(4))}"
                    f"{', table ' + str(len(table_cards)) if table_cards else ''})"
                )
        # replay the table: legality and who is winning
        self.pos = len(table_cards)
        self.lead, self.win_seat, self.win_str = -1, -1, -1
        self.trick = 0
        for i, c in enumerate(table_cards):
            s = played[i]
            hand_before = self.hands[s] | (1 << c)
            if i == 0:
                self.lead = int(K.lead_suit_of(c, self.trump, self.variant))
            else:
                legal = int(K.legal_mask(np.uint64(hand_before), i, self.lead, self.variant))
                if not legal >> c & 1:
                    raise IllegalAction(
                        f"{SEATS[s]} played {card_name(c)} to the current trick but had to follow suit", "follow-suit"
                    )
            st = int(K.strength(c, self.trump, self.lead, self.variant))
            if st > self.win_str:
                self.win_seat, self.win_str = s, st
            self.trick |= 1 << c
        self.rem = seen
        self.n_left = n

    def legal_cards(self) -> list[int]:
        """The cards the seat to move may play."""
        hand = self.hands[self.to_move]
        return cards_of(int(K.legal_mask(np.uint64(hand), self.pos, self.lead, self.variant)))

    def _args(self):
        return (
            self.trump,
            self.variant,
            self.to_move,
            self.pos,
            self.lead,
            self.win_seat,
            self.win_str,
            np.uint64(self.rem),
            np.uint64(self.trick),
            self.n_left,
        )


class Solver:
    """A double-dummy solver with its own transposition table (reused across solves: entries describe
    positions by suit lengths and relevant cards only, so they stay valid from one deal to the next).
    One solver per thread or process: the kernels write into its arrays.

    Parameters
    ----------
    tt_bits : int
        log2 of the number of table entries (32 bytes each), 10..28: 20 -> 32 MB, 18 -> 8 MB.
    """

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS):
        if not isinstance(tt_bits, int) or not 10 <= tt_bits <= 28:
            raise OptionError(f"tt_bits must be an integer in 10..28, not {tt_bits!r}")
        self.state = K.state_new(tt_bits)
        self.st = self.state[: K.TT_OFF]  # a view: hands and counters
        self.moves = K.moves_new()
        self._root: list[int] | None = None  # the hands of the deal the table was last filled from
        self.out = np.zeros(52, dtype=np.int64)

    @staticmethod
    def position(hands, trump, leader, table=(), ruleset: str = "feskot") -> Position:
        """Validate a position (see the module docstring); raises ``CardError``/``SeatError``/``OptionError``/
        ``IllegalAction`` with one line on bad input."""
        return Position(hands, trump, leader, table, ruleset)

    def _load(self, p: Position) -> None:
        # Table entries are true of any position they match, but those of another deal seldom match
        # and lengthen every bucket scan: a new deal starts a new (empty) table generation, while
        # positions later in the same deal, or other trumps and leaders, keep it.
        same_deal = self._root is not None and all(h & ~r == 0 for h, r in zip(p.hands, self._root, strict=True))
        gen = int(self.st[K.GEN]) if same_deal else int(self.st[K.GEN]) + 1
        if not same_deal:
            self._root = list(p.hands)
            K.moves_reset(self.moves)  # killer cards belong to one deal
        self.st[:] = 0
        self.st[K.GEN] = gen
        for i in range(4):
            self.st[i] = p.hands[i]

    @property
    def nodes(self) -> int:
        """Nodes searched by the last call."""
        return int(self.st[4])

    def _team_a_to_side(self, p: Position, team_a: int) -> int:
        return team_a if p.to_move % 2 == 0 else p.n_left - team_a

    def solve(self, hands, trump, leader, table=(), ruleset: str = "feskot") -> int:
        """Tricks the side to move takes with perfect play among the tricks left (current one included)."""
        p = hands if isinstance(hands, Position) else self.position(hands, trump, leader, table, ruleset)
        self._load(p)
        v = K.solve_exact(self.state, self.moves, *p._args())
        return self._team_a_to_side(p, int(v))

    def can_reach(self, hands, trump, leader, target: int, table=(), ruleset: str = "feskot") -> bool:
        """Whether the side to move can take at least ``target`` of the tricks left (zero-window search)."""
        p = hands if isinstance(hands, Position) else self.position(hands, trump, leader, table, ruleset)
        if not isinstance(target, (int, np.integer)) or isinstance(target, bool):
            raise OptionError(f"target must be an integer, not {target!r}")
        target = int(target)
        self._load(p)
        args = p._args()
        if p.to_move % 2 == 0:
            return bool(K.search(self.state, self.moves, *args, target) & K.RESULT)
        # the side to move reaches target  <=>  team A cannot reach n_left - target + 1
        return not bool(K.search(self.state, self.moves, *args, p.n_left - target + 1) & K.RESULT)

    def card_values(self, hands, trump, leader, table=(), ruleset: str = "feskot") -> dict[int, int]:
        """For each legal card of the seat to move: the tricks its side takes (among the tricks left,
        current one included) if it plays that card and everyone plays perfectly afterwards."""
        p = hands if isinstance(hands, Position) else self.position(hands, trump, leader, table, ruleset)
        self._load(p)
        K.card_values(self.state, self.moves, *p._args(), self.out)
        return {c: self._team_a_to_side(p, int(v)) for c, v in enumerate(self.out) if v >= 0}


_default_solver: Solver | None = None


def default_solver() -> Solver:
    """A process-wide solver (created on first use)."""
    global _default_solver
    if _default_solver is None:
        _default_solver = Solver()
    return _default_solver


def solve(hands, trump, leader, table: Sequence = (), ruleset: str = "feskot") -> int:
    """Tricks the side to move takes with perfect play (see :meth:`Solver.solve`)."""
    return default_solver().solve(hands, trump, leader, table, ruleset)


def can_reach(hands, trump, leader, target: int, table: Sequence = (), ruleset: str = "feskot") -> bool:
    """Whether the side to move can take ``target`` of the tricks left (see :meth:`Solver.can_reach`)."""
    return default_solver().can_reach(hands, trump, leader, target, table, ruleset)


def card_values(hands, trump, leader, table: Sequence = (), ruleset: str = "feskot") -> dict[int, int]:
    """Per legal card, the tricks of the side to move (see :meth:`Solver.card_values`)."""
    return default_solver().card_values(hands, trump, leader, table, ruleset)


def trick_table(
    hands,
    ruleset: str = "feskot",
    trumps: Iterable = (3, 2, 1, 0),
    leaders: Iterable = (0, 1, 2, 3),
    solver: Solver | None = None,
) -> dict[int, dict[int, int]]:
    """``{trump: {leader: tricks of the leader's side}}`` for full hands (a trick boundary)."""
    sv = solver or default_solver()
    out: dict[int, dict[int, int]] = {}
    for t in trumps:
        out[int(t)] = {}
        for seat in leaders:
            out[int(t)][int(seat)] = sv.solve(hands, t, seat, (), ruleset)
    return out


__all__ = ["Position", "Solver", "can_reach", "card_values", "default_solver", "solve", "trick_table"]
