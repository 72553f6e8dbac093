"""Double-dummy solving: the exact number of tricks with every card visible and perfect play by all four.

Positions
---------
A :class:`Position` is four hands (52-card masks, indexed by seat), the trump suit (0..3 = C D H S, or 4
for no trump, which none of our rulesets uses but the solver supports for generality), the seat that led
the current trick and the cards already on the table in it, in play order (empty at a trick boundary),
the trick rules (``ruleset``) and the tricks each team has already won in the deal (``won``, team A
then team B). The hands of the seats still to play hold one card more than those that have played.
Build one from

* a State of Feskot, Tekka or Satat at any point of the play (:meth:`Position.from_state`): a trick
  partly on the table, a Tekka raise waiting for its answer, Satat's ``"collect"`` phase and a finished
  deal with cards left included; its hands, Prime/Troupe, table and tricks won are read from the state;
* a deal record (:meth:`Position.from_record`: the record's actions replayed with the rules up to a
  given card, by default the first card of the play; :func:`state_at` gives that State);
* hands given directly (``Position(hands, trump, leader, table, ruleset)``), with no tricks won.

Two trick rules (``ruleset``):

* ``"feskot"`` and ``"tekka"`` (the standard rules): counter-clockwise play bottom -> right -> top -> left;
  follow suit if able, else any card; highest trump wins, else highest card of the led suit.
* ``"troupe"`` (Satat): clockwise play bottom -> left -> top -> right. 2♥ beats everything and may be played at
  any time; it is never a heart for following (a player whose only heart is 2♥ is void in hearts).
  A 2♥ lead asks for Troupe (trump): everyone who holds Troupe must play it; when Troupe is hearts this
  is an ordinary Troupe lead. 2♥ played later does not change the suit to follow. Only legal plays are
  searched (a Renonce is never part of perfect play); a Renonce already on the table is taken as played.
  Without trump (``trump=4``, not a Satat deal) a 2♥ lead asks for no suit.

What is counted
---------------
Every answer is in tricks of the *whole deal* for one side: the tricks it has already won
(``Position.won``, zero for a position given as hands) plus those it takes among the remaining cards,
the current trick included, with perfect play by all four. A real deal may stop earlier (Feskot and
Satat stop when a team reaches 7 tricks, a Tekka deal once its result is decided); the count goes on to
the last card, but whether a side can reach 7 tricks, or a Tekka target, is the same question either
way. :meth:`Solver.can_reach` asks it directly (one zero-window search, usually much faster than the
exact count).

Queries (methods of a :class:`Solver`, and module functions on one process-wide solver whose
transposition table is reused from call to call), each on a Position, a State, or hands with trump and
leader:

* ``solve(where, side=None)``: the side's tricks in the deal (default: the side to move);
* ``card_values(where)``: for each legal card of the seat to move, its side's tricks in the deal if it
  plays that card;
* ``can_reach(where, target, side=None)``: whether the side can still take ``target`` tricks in the deal;
* ``trick_table(hands or state)``: tricks of the leader's side among the cards left, every trump and leader.

``side`` is any seat of the side (0..3 or a seat name: 0 and 2 are team A, 1 and 3 team B) or the team
letter ``"A"``/``"B"``. Seats: 0..3 = bottom, right, top, left.

>>> from tekkasim.cards import CardSet
>>> hands = [CardSet.parse(h).mask for h in ("AS KS", "QS JS", "AH KH", "QH JH")]
>>> solve(hands, trump=4, leader=0)          # bottom cashes two spades
2
>>> solve(hands, trump=4, leader=1)          # right leads a spade into AK
0
>>> from tekkasim.rules import get_game
>>> state = get_game("feskot").new_deal(7)
>>> state.apply_action(state.legal_actions()[0])       # Prime
>>> state.apply_action(state.legal_actions()[0])       # bottom leads its lowest card
>>> p = Position.from_state(state)                      # right to move, one card on the table
>>> p.to_move, len(p.table), p.won, can_reach(state, 7) == (solve(state) >= 7)
(1, 1, (0, 0), True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np

from ..cards import SEATS, card_name, cards_of, mask_of, parse_cards, parse_seat, parse_suit
from ..errors import CardError, IllegalAction, OptionError, RecordError, TekkasimError, shorten
from ..rules import get_game
from ..rules.base import State
from ..rulesets import DEFAULT_RULESET
from . import _dd_kernels as K

_VARIANTS = {"standard": K.STANDARD, "troupe": K.SATAT}  # Game.trick_rules -> the kernels' trick rules


@lru_cache(maxsize=1)
def solver_rulesets() -> dict[str, int]:
    """Every ruleset the solver plays (``Game.trick_rules`` set) -> its trick rules' kernel variant."""
    from ..rules import ruleset_names

    out = {}
    for name in ruleset_names():
        rules = get_game(name).trick_rules
        if rules is not None:
            out[name] = _VARIANTS[rules]
    return out


def _names() -> str:
    *first, last = solver_rulesets()
    return f"{', '.join(first)} and {last}" if first else last


DEFAULT_TT_BITS = 20


def _variant(ruleset: str) -> int:
    key = str(ruleset).strip().lower()
    variants = solver_rulesets()
    if key not in variants:
        expected = " or ".join(", ".join(variants).rsplit(", ", 1))
        raise OptionError(f"the double-dummy solver has no ruleset {shorten(repr(ruleset))} (expected {expected})")
    return variants[key]


def _as_mask(hand, what: str) -> int:
    """A hand given as a 52-card mask, card text (``"AS KS 2C"``) or a list of cards (ints or text)."""
    if isinstance(hand, (int, np.integer)) and not isinstance(hand, bool):
        m = int(hand)
        if m < 0 or m >> 52:
            raise CardError(f"{what}: not a 52-card mask: {shorten(hex(m))}")
        return m
    if not isinstance(hand, (str, Iterable)):
        raise CardError(f"{what}: expected a card mask, card text or a list of cards, not {type(hand).__name__}")
    items = hand if isinstance(hand, str) else list(hand)
    try:
        if not isinstance(items, str) and all(isinstance(c, (int, np.integer)) for c in items):
            bad = [int(c) for c in items if not 0 <= int(c) < 52]
            if bad:
                raise CardError(f"no card has index {shorten(str(bad[0]))}")
            return mask_of(int(c) for c in items)
        return mask_of(parse_cards(items))
    except CardError as exc:
        raise CardError(f"{what}: {exc}") from None


def _as_trump(trump) -> int:
    if isinstance(trump, (int, np.integer)) and not isinstance(trump, bool):
        if 0 <= int(trump) <= 4:
            return int(trump)
        raise OptionError(f"trump must be 0..3 (C D H S) or 4 (no trump), not {shorten(str(trump))}")
    if isinstance(trump, str):
        if trump.strip().upper() in ("NT", "N"):
            return K.NO_TRUMP
        return parse_suit(trump)
    raise OptionError(f"trump must be a suit, not {shorten(repr(trump))}")


def _winner(plays: Sequence[tuple[int, int]], trump: int, variant: int) -> int:
    """The seat that wins a trick given as (seat, card) in play order (the kernels' own rules)."""
    lead = int(K.lead_suit_of(plays[0][1], trump, variant))
    best_seat, best = -1, -1
    for seat, c in plays:
        st = int(K.strength(c, trump, lead, variant))
        if st > best:
            best_seat, best = seat, st
    return best_seat


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
    won : tricks already won in the deal, ``(team A, team B)``; every answer adds them.

    Bad input raises ``CardError``, ``SeatError``, ``OptionError`` or ``IllegalAction`` (a Feskot/Tekka
    table card that broke the follow rule; in Satat it is a Renonce and stands) with one line.
    ``to_move`` is the seat whose turn it is, ``side`` its team (0 = A, 1 = B), ``n_left`` the number of
    tricks left (the current one included) and ``ruleset`` the trick rules' name.
    """

    __slots__ = (
        "hands",
        "trump",
        "variant",
        "ruleset",
        "leader",
        "table",
        "won",
        "to_move",
        "pos",
        "lead",
        "win_seat",
        "win_str",
        "rem",
        "trick",
        "n_left",
    )

    def __init__(self, hands, trump, leader, table=(), ruleset: str = DEFAULT_RULESET, won=(0, 0)):
        self.variant = _variant(ruleset)
        self.ruleset = str(ruleset).strip().lower()
        if isinstance(hands, dict):
            hands = [hands.get(s, hands.get(s[0].upper())) for s in SEATS]
        if isinstance(hands, (str, bytes)) or not isinstance(hands, Iterable):
            raise CardError(f"a position needs four hands (bottom, right, top, left), not {shorten(repr(hands))}")
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
                raise CardError(f"no card has index {shorten(str(c))}")
            if seen >> c & 1:
                raise CardError(f"duplicate card {card_name(c)} (on the table and in a hand, or twice on the table)")
            seen |= 1 << c
        self.table = tuple(table_cards)
        played = []
        seat = self.leader
        for _ in table_cards:
            played.append(seat)
            seat = int(K.next_seat(seat, self.variant))
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
        pair = tuple(won) if isinstance(won, (Sequence, np.ndarray)) and not isinstance(won, (str, bytes)) else ()
        if len(pair) != 2 or not all(
            isinstance(w, (int, np.integer)) and not isinstance(w, bool) and w >= 0 for w in pair
        ):
            raise OptionError(f"won must be two trick counts (team A, team B), not {shorten(repr(won))}")
        self.won = (int(pair[0]), int(pair[1]))
        if sum(self.won) + n > 13:
            raise OptionError(f"{self.won[0]} + {self.won[1]} tricks won and {n} left make more than 13")
        # replay the table: legality and who is winning
        self.pos = len(table_cards)
        self.lead, self.win_seat, self.win_str = -1, -1, -1
        self.trick = 0
        for i, c in enumerate(table_cards):
            s = played[i]
            hand_before = self.hands[s] | (1 << c)
            if i == 0:
                self.lead = int(K.lead_suit_of(c, self.trump, self.variant))
            elif self.variant != K.SATAT:  # a Satat card that does not follow is a Renonce: it stands
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

    @property
    def side(self) -> int:
        """The team to move: 0 = A (bottom, top), 1 = B (right, left)."""
        return self.to_move & 1

    def legal_cards(self) -> list[int]:
        """The cards the seat to move may play."""
        hand = self.hands[self.to_move]
        return cards_of(int(K.legal_mask(np.uint64(hand), self.pos, self.lead, self.variant)))

    def __repr__(self) -> str:
        hands = ", ".join(
            f"{SEATS[s]}={' '.join(card_name(c) for c in cards_of(h))!r}" for s, h in enumerate(self.hands)
        )
        table = " ".join(card_name(c) for c in self.table)
        trump = "NT" if self.trump == K.NO_TRUMP else "CDHS"[self.trump]
        return (
            f"Position({self.ruleset}, trump {trump}, {SEATS[self.leader]} led [{table}], "
            f"{SEATS[self.to_move]} to move, won {self.won}, {hands})"
        )

    # --- from a game state or a record -------------------------------------------------------------
    @classmethod
    def from_state(cls, state) -> Position:
        """The position of a Feskot, Tekka or Satat ``State`` during its play (or after it, while cards
        are left): current hands, Prime/Troupe, the current trick's cards and the tricks won so far.

        Raises ``OptionError`` with one line for another ruleset, a state before Prime/Troupe is chosen,
        a Satat round ended by an accusation (its last trick counts for nobody) or no cards left."""
        name = getattr(getattr(state, "game", None), "name", None)
        if not isinstance(state, State) or name not in solver_rulesets():
            what = f"a {name} state" if isinstance(name, str) else shorten(repr(state))
            raise OptionError(f"the double-dummy solver takes {_names()} states, not {what}")
        variant = solver_rulesets()[name]
        hands = [state.hand(s) for s in range(4)]
        if variant == K.SATAT:  # clockwise play, a trick may stay on the table until it is collected
            trump = state.troupe
            if trump is not None:
                public = state.observation(state.caller).public
                if public.get("accusation"):
                    raise OptionError("the round ended with an accusation: its last trick counts for nobody")
                won = tuple(int(w) for w in public["won"])
                current = [(int(s), int(c)) for s, c in state.table()]
                fallback = state.current_player()
        else:
            trump = state.prime
            if trump is not None:
                tricks = [[(int(s), int(c)) for s, c, _ in t] for t in state.tricks()]
                complete = [t for t in tricks if len(t) == 4]
                current = tricks[-1] if tricks and len(tricks[-1]) < 4 else []
                counts = [0, 0]
                for t in complete:
                    counts[_winner(t, trump, variant) & 1] += 1
                won = tuple(counts)
                if complete:
                    fallback = _winner(complete[-1], trump, variant)
                elif state.phase() == "raise":  # a raise before trick 1: the declarer is about to lead
                    fallback = state.contract()["declarer"]
                else:
                    fallback = state.current_player()
        if trump is None:
            chosen = state.game.trump_name
            raise OptionError(f"no position before the play: {chosen} is not chosen yet (phase {state.phase()!r})")
        if len(current) == 4:  # a complete trick still on the table (Satat): its winner leads next
            leader, table = _winner(current, trump, variant), ()
        elif current:
            leader, table = current[0][0], tuple(c for _, c in current)
        else:
            leader, table = fallback, ()
        if not any(hands):
            raise OptionError("the deal is over: no cards left to play")
        return cls(hands, trump, leader, table, name, won)

    @classmethod
    def from_record(cls, record: dict, trick: int = 1, play: int = 0) -> Position:
        """The position of a deal record just before card ``play + 1`` of trick ``trick`` (1-based; ``play``
        = cards of that trick already on the table, 0..3) is played; see :func:`state_at`."""
        return cls.from_state(state_at(record, trick, play))

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


def _cards_played(state) -> int:
    return 52 - sum(state.hand(s).bit_count() for s in range(4))


def state_at(record: dict, trick: int | None = None, play: int = 0) -> State:
    """A record's deal (``records.md``; ruleset feskot, tekka or satat, with the record's ``options``)
    replayed with the rules: up to the first card of the play when ``trick`` is None (every call, Prime or
    Troupe choice, redeal and exchange before it applied, as far as the record goes), else up to just
    before card ``play + 1`` of trick ``trick`` (1-based; ``play`` 0..3 cards of that trick already on the
    table). Actions that follow the last card wanted (a Satat collect or accusation, a Tekka raise) are
    not applied. Raises ``RecordError`` with one line when the record is unusable or stops earlier."""
    if not isinstance(record, dict):
        raise RecordError(f"a record must be a JSON object, not {type(record).__name__}")
    if trick is None:
        target = 0
    else:
        for what, v, lo, hi in (("trick", trick, 1, 13), ("play", play, 0, 3)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
                raise OptionError(f"{what} must be an integer {lo}..{hi}, not {shorten(repr(v))}")
        target = 4 * (int(trick) - 1) + int(play)
    ruleset = record.get("ruleset")
    if not isinstance(ruleset, str):
        raise RecordError("missing field 'ruleset'" if ruleset is None else "field 'ruleset' must be text")
    if ruleset.strip().lower() not in solver_rulesets():
        raise RecordError(f"the double-dummy solver handles {_names()}, not {shorten(repr(ruleset))}")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"field 'options' must be an object, not {type(options).__name__}")
    try:
        game = get_game(ruleset, **options)
    except OptionError as exc:
        raise RecordError(f"field 'options': {exc}") from None
    state, actions = game.from_record(record)
    played = 0
    for text in actions:
        if played == target and (state.is_terminal() or state.phase() in ("play", "collect")):
            break
        if state.is_terminal():
            break
        try:
            state.apply_action(state.string_to_action(text))
        except TekkasimError as exc:
            raise RecordError(f"{state.where()}: {shorten(repr(text))}: {exc}") from None
        played = _cards_played(state)
    if played < target:
        t, c = divmod(played, 4)
        end = f"after {t} trick{'s' * (t != 1)}" + (f" and {c} card{'s' * (c != 1)}" if c else "")
        if getattr(state, "accusation", lambda: None)():
            end += " (an accusation ended the round)"
        want = f"trick {trick}" + (f", play {play + 1}" if play else "")
        raise RecordError(f"the record stops {end}: no {want}")
    return state


class Solver:
    """A double-dummy solver with its own transposition table (reused across solves: entries describe
    positions by suit lengths and relevant cards only, so they stay valid from one deal to the next).
    One solver per thread or process: the kernels write into its arrays.

    Every query takes ``where``: a :class:`Position`, a Feskot/Tekka/Satat ``State`` (read with
    :meth:`Position.from_state`), or hands followed by ``trump``, ``leader`` and optionally ``table`` and
    ``ruleset`` (as for :class:`Position`).

    Parameters
    ----------
    tt_bits : int
        log2 of the number of table entries (32 bytes each), 10..28: 20 -> 32 MB, 18 -> 8 MB.
    """

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS):
        if not isinstance(tt_bits, int) or not 10 <= tt_bits <= 28:
            raise OptionError(f"tt_bits must be an integer in 10..28, not {shorten(repr(tt_bits))}")
        self.state = K.state_new(tt_bits)
        self.st = self.state[: K.TT_OFF]  # a view: hands and counters
        self.moves = K.moves_new()
        self._root: list[int] | None = None  # the hands of the deal the table was last filled from
        self.out = np.zeros(52, dtype=np.int64)

    @staticmethod
    def position(where, trump=None, leader=None, table=(), ruleset: str = DEFAULT_RULESET) -> Position:
        """``where`` as a validated :class:`Position` (see the class docstring); raises ``CardError``/
        ``SeatError``/``OptionError``/``IllegalAction`` with one line on bad input."""
        if isinstance(where, Position):
            return where
        if isinstance(where, State):
            return Position.from_state(where)
        if trump is None or leader is None:
            raise OptionError(
                "give a Position, a State of a ruleset the solver plays, or four hands with trump and leader"
            )
        return Position(where, trump, leader, table, ruleset)

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

    @staticmethod
    def _side(p: Position, side) -> int:
        if side is None:
            return p.side
        if isinstance(side, str) and side.strip().upper() in ("A", "B"):
            return "AB".index(side.strip().upper())
        return parse_seat(side) & 1

    @staticmethod
    def _in_deal(p: Position, team_a_left: int, side: int) -> int:
        """Tricks of ``side`` in the deal from team A's tricks among those left."""
        return p.won[side] + (team_a_left if side == 0 else p.n_left - team_a_left)

    def solve(self, where, trump=None, leader=None, table=(), ruleset: str = DEFAULT_RULESET, *, side=None) -> int:
        """The tricks ``side`` (default: the side to move) takes in the deal with perfect play from here:
        those already won plus those it takes among the tricks left (current one included)."""
        p = self.position(where, trump, leader, table, ruleset)
        self._load(p)
        v = K.solve_exact(self.state, self.moves, *p._args())
        return self._in_deal(p, int(v), self._side(p, side))

    def can_reach(self, where, target: int, side=None) -> bool:
        """Whether ``side`` (default: the side to move) can still take at least ``target`` tricks in the
        deal, those already won included, against perfect defence (one zero-window search)."""
        p = self.position(where)
        if not isinstance(target, (int, np.integer)) or isinstance(target, bool):
            raise OptionError(f"target must be an integer, not {shorten(repr(target))}")
        s = self._side(p, side)
        need = int(target) - p.won[s]  # among the tricks left
        if need <= 0:
            return True
        if need > p.n_left:
            return False
        self._load(p)
        args = p._args()
        if s == 0:
            return bool(K.search(self.state, self.moves, *args, need) & K.RESULT)
        # team B takes `need`  <=>  team A cannot take n_left - need + 1
        return not bool(K.search(self.state, self.moves, *args, p.n_left - need + 1) & K.RESULT)

    def card_values(self, where, trump=None, leader=None, table=(), ruleset: str = DEFAULT_RULESET) -> dict[int, int]:
        """For each legal card (0..51, signals aside) of the seat to move: the tricks its side takes in
        the deal (won ones included) if it plays that card and everyone plays perfectly afterwards."""
        p = self.position(where, trump, leader, table, ruleset)
        self._load(p)
        K.card_values(self.state, self.moves, *p._args(), self.out)
        return {c: self._in_deal(p, int(v), p.side) for c, v in enumerate(self.out) if v >= 0}


_default_solver: Solver | None = None


def default_solver() -> Solver:
    """A process-wide solver (created on first use; its table, 32 MB, is reused by every call)."""
    global _default_solver
    if _default_solver is None:
        _default_solver = Solver()
    return _default_solver


def solve(where, trump=None, leader=None, table: Sequence = (), ruleset: str = DEFAULT_RULESET, *, side=None) -> int:
    """Tricks of ``side`` (default: the side to move) in the deal with perfect play (:meth:`Solver.solve`)."""
    return default_solver().solve(where, trump, leader, table, ruleset, side=side)


def can_reach(where, target: int, side=None) -> bool:
    """Whether ``side`` (default: the side to move) can still take ``target`` tricks in the deal
    (:meth:`Solver.can_reach`)."""
    return default_solver().can_reach(where, target, side)


def card_values(where, trump=None, leader=None, table: Sequence = (), ruleset: str = DEFAULT_RULESET) -> dict[int, int]:
    """Per legal card, the tricks of the side to move in the deal (:meth:`Solver.card_values`)."""
    return default_solver().card_values(where, trump, leader, table, ruleset)


def trick_table(
    hands,
    ruleset: str = DEFAULT_RULESET,
    trumps: Iterable = (3, 2, 1, 0),
    leaders: Iterable = (0, 1, 2, 3),
    solver: Solver | None = None,
) -> dict[int, dict[int, int]]:
    """``{trump: {leader: tricks of the leader's side among the cards left}}`` for hands at a trick
    boundary (equal sizes): four hands, or a Feskot/Tekka/Satat State (its current hands and ruleset; its
    own trump and leader play no part). Tricks already won are not counted here."""
    if isinstance(hands, State):
        name = getattr(hands.game, "name", None)
        if name not in solver_rulesets():
            raise OptionError(f"the double-dummy solver takes {_names()} states, not a {name} state")
        ruleset, hands = name, [hands.hand(s) for s in range(4)]
    sv = solver or default_solver()
    out: dict[int, dict[int, int]] = {}
    for t in trumps:
        out[int(t)] = {}
        for seat in leaders:
            p = Position(hands, t, seat, (), ruleset)
            out[int(t)][int(seat)] = sv.solve(p)
    return out


__all__ = [
    "Position",
    "Solver",
    "can_reach",
    "card_values",
    "default_solver",
    "solve",
    "state_at",
    "trick_table",
]
