"""Satat (Mauritius): Troupe, the 2♥, KOT and KOT 52, Renonce and accusations.

Rules: ``shared/seeds/satat.txt`` as settled by ``spec/rules.md`` (Satat section), records as in
``spec/records.md``. Play is **clockwise**: bottom -> left -> top -> right, ``next = (s + 3) % 4``.

Round flow
----------
1. First round of a match (``new_deal(seed)`` without context): the draw. In seat order (bottom, right,
   top, left) each drawing seat takes a uniformly random card of those left in the full deck; rank order
   K high, Q, J, T ... 2, A low, 2♥ an ordinary 2; the seats tied for highest draw again, the cards back
   in the deck. The highest drawer is the caller, the dealer is the seat before it clockwise
   (``(caller + 1) % 4``). ``State.draw`` and the record's ``draw`` keep every round of it. The draw is
   public (``observation(seat).public["draw"]``) and happens inside ``new_deal``, before any state
   exists, so no resampled world ever has it ahead of it.
2. Deal (from the deal's seeded RNG): shuffle, then 5 to each seat clockwise from the caller, then 8 to
   each. Seat ``(caller + 3k) % 4`` gets deck cards ``5k..5k+4`` then ``20+8k..27+8k``; ``hands`` of the
   record are in this order, so the first five are the first five dealt.
3. Phase ``"redeal-or-troupe"`` / ``"troupe"``: every seat sees only its first five. The caller chooses
   Troupe. If its first five hold no J, Q or K and fewer than two redeals were asked this round, it may
   instead ask for a redeal (phase ``"redeal-or-troupe"``). A redeal is chance after the deal: it is drawn
   from the round's own chance source, the kernel RNG of ``new_deal(seed)`` continued past the draw and
   the deal (so a seeded round replays exactly); a resampled world gets a fresh source from its ``rng``
   and never draws the true next deal.
4. Exchange, automatic, right after Troupe is chosen, only when the previous round ended in a KOT (1 card)
   or KOT 52 (2 cards): each seat of the team that lost that round swaps with the opponent on its left
   (the next seat clockwise). Decisions where rules.md is silent:

   * Both sides of a swap choose from the hands **as dealt** (the swap is simultaneous), so "every
     non-Troupe suit it holds" is judged before the swap.
   * 2♥ is never exchanged and never counts as a heart for the keep rule (it never follows hearts).
   * Card order "highest/lowest" is the play rank A > K > ... > 2, ties by suit C < D < H < S.
   * Losing side: its highest Troupe cards, then its highest other cards.
   * Winning side: its lowest non-Troupe cards such that every non-Troupe suit it held keeps a card;
     if that cannot fill the count, its lowest Troupe cards (it never gives Troupe otherwise); the keep
     rule would only be dropped after that, which cannot happen with 13 cards and at most 2 to give.

5. Phase ``"play"``: the caller leads trick 1, a trick's winner leads the next. Follow the led suit if
   able, else any card. 2♥ may be played at any time and is never a heart for following. After a 2♥ lead
   the suit to follow is Troupe (when Troupe is hearts that is simply hearts). A 2♥ played later does not
   change the suit to follow. Winner: 2♥, else the highest Troupe, else the highest card of the led suit.
6. End: a team with 7 tricks ends the round for 1 point (``"seven"``), unless it won the first 7 in a row
   (KOT): play goes on; if it then loses a trick the round ends with 2 points (``"kot"``); all 13 give 3
   (``"kot52"``). The trick that decides the round (the 7th trick of a team not on a KOT run, the trick
   that breaks a KOT, the 13th trick of a KOT 52) does not end it by itself: after its fourth card the
   round is *decided* but not over. Phase ``"collect"``: the trick stays on the table (as every trick
   does until the next lead), its winner is to move and its only action is ``COLLECT`` (text
   ``"collect"``), which ends the round with the decided result. Until then any seat may accuse an
   opponent's card on that table, exactly as after any other fourth card: the trick then counts for
   nobody and the accusation decides the round instead (so a Renonce in the deciding trick can be
   punished). After the 7th trick of a KOT run there is no collect: play simply goes on.

Renonce and accusations
-----------------------
Failing to follow when able is a *possible* play: :meth:`SatatState.apply_action` accepts it and marks it
a Renonce (after a 2♥ lead, not playing Troupe while holding it; 2♥ itself is never a Renonce).
:meth:`~SatatState.legal_actions` lists the rule-following plays only, :meth:`~SatatState.possible_actions`
every card held. Any seat may accuse an opponent by naming that opponent's card on the current table,
whenever the current trick has at least one card on the table, **including after its fourth card**: a
complete trick stays on the table (``st[N_TABLE] == 4``, the winner to move) until its winner leads the
next card (phase ``"play"``) or, for the deciding trick, collects it (phase ``"collect"``), and an
accusation then makes that trick count for nobody.
:meth:`~SatatState.accusations` lists the accusation actions open to a seat now. In the contract:
``actors()`` is the seat to move, then every other seat with an accusation open, in seat order;
``legal_actions_for(seat)`` is, for the seat to move, ``legal_actions()`` plus its own accusations, and
for any other seat its accusations (optional: it may decline). So a runner asks every actor after each
card, including right after a trick's fourth card and in phase ``"collect"``. Correct (the accused has
committed at least one Renonce this round, up to and including the accused card) -> the accuser's team
scores 1; wrong -> the other team scores 1. The round ends at once (kind ``"renonce"``): the accusation's
point is the only score of the round, even after a KOT, and no exchange follows it.

Actions (ints)
--------------
``0..51`` play that card; ``TROUPE + s`` (52..55) choose Troupe suit s (C D H S); ``REDEAL`` (56) ask for a
redeal; ``COLLECT`` (57) the deciding trick's winner collects it and ends the round (phase ``"collect"``
only); ``ACCUSE + (accused * 4 + by) * 52 + card`` (64..895) an accusation (58..63 unused). Text forms
(records.md): ``"TS"``, ``"S"``, ``"redeal"``, ``"collect"``, ``"accuse:right:by:top:TS"`` (accused seat,
accuser, accused card).

Phases: ``"redeal-or-troupe"``, ``"troupe"``, ``"play"`` (a card is due; ``legal_actions`` the cards that
follow suit, ``possible_actions`` every card held), ``"collect"`` (the deciding trick is on the table;
``legal_actions`` and ``possible_actions`` are both ``[COLLECT]``), ``"terminal"``. Accusations are open
in ``"play"`` (once a card is on the table) and ``"collect"``.

Next round and match
--------------------
The dealer comes from the team that lost: if the caller's team won, dealer and caller stay; otherwise the
old caller deals and the next seat clockwise calls. After an accusation the team that scored won. A
match ends when a team has 5 points or more (scores can pass 5). ``next_deal_context()`` gives
``{"dealer", "caller", "score": {"A", "B"}, "exchange": None | {"cards": 1|2, "loser": "A"|"B"}}``.

Records
-------
``hands`` are the hands **as dealt** (before the exchange); ``exchange`` lists ``{"from", "to", "card"}``
and ``from_record`` checks that it is exactly the exchange the rules give for those hands and Troupe
(which team lost and 1 or 2 cards are read from the list itself). ``tricks`` hold plays and accusation
objects only, never ``"collect"``: ``from_record`` inserts the implied ``"collect"`` right after the
fourth card of the deciding trick unless an accusation object follows it there, or unless the record is
marked ``"unfinished"`` and ends with that card (a position in phase ``"collect"``, written by
``to_record`` as unfinished, reads back as the same position). Plays after the deciding trick therefore
come after the end of the round and are rejected. Also written: ``dealer``, ``caller``,
``redeals``, ``score_before``, ``redealt`` (the deals given up by the redeals, as dealt, so that verify
replays each ``"redeal"`` action and checks it was allowed) and, for a match's first round, ``draw`` (each
round of the draw). ``from_record`` returns the actions ``"redeal"`` (one per ``redealt`` deal), the Troupe
suit letter, then the cards; an accusation, written into its trick as ``{"accuse": seat, "by": seat,
"card": card}``, comes back as the text ``"accuse:<accused>:by:<accuser>:<card>"``. A record with
``redeals`` but no ``redealt`` starts from ``hands`` with the redeals already counted; a further redeal
of a state read from a record comes from the record's chance stream: ``new_rng(seed)`` (seed 0 if none)
advanced past the draw (if recorded), the deal and each redeal of the record, exactly as in the round
that wrote it (replayed redeals advance it too, and then give the recorded deal).

Information
-----------
``observation(seat)``: ``hand`` is the seat's first five before Troupe, then its cards now (a mask).
``public`` has the shared fields of ``base.Observation``: ``trump`` (the Troupe suit, None before it is
chosen), ``tricks`` (every trick begun, ``{"leader", "plays": [(seat, card), ...], "winner"}``, winner None
while it is incomplete or after an accusation made it count for nobody), ``score`` (match points before
the round), ``won`` (tricks this round), ``hand_sizes`` (5 each before Troupe: what each has seen) and
``voids`` (apparent voids: a seat that did not follow the suit to follow, Troupe after a 2♥ lead, a 2♥
play showing nothing; a Renonce makes a void apparent that is not there). Satat's own public fields:
``dealer``, ``caller``, ``redeals``, ``draw`` (the draw for the first caller, ``[{seat: card}, ...]`` per
round, or None), ``exchange_due`` ((cards, losing team) or None), ``table`` (the current trick's plays),
``kot`` (the team on a KOT run), ``decided`` (``"seven"``, ``"kot"`` or ``"kot52"`` while the deciding
trick waits to be collected, else None) and ``accusation`` (see :meth:`SatatState.accusation`).
``private``: ``gave`` and ``received`` (the seat's exchange cards) and ``redealt`` (its first five of each
deal given up by a redeal). Renonce flags are not public.

``resample(seat, rng)`` (``rng`` a kernel RNG, ``bits.new_rng``) redraws every card the seat has not seen,
gathered in sorted order, so the world depends on the observation and ``rng`` alone. Before Troupe the
phase is public, so below two redeals the caller's first five hold a J, Q or K in the world exactly when
they do in the true deal; the deals given up by redeals are redrawn too (the caller's five of each
without J, Q or K). Because a Renonce can hide a suit, apparent voids are **not** used as constraints (a
seat that failed to follow may still hold the suit). Cards the seat gave in the exchange stay with their
receiver until played. The world's Renonce flags are recomputed from its own hands (a finished round
keeps its public accusation verdict). A resampled world has a fresh chance source from ``rng``, no seed
and no scripted redeals; it records its start-of-play hands as ``hands`` with no exchange.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tekkasim.bits import new_rng, next_u64, shuffle
from tekkasim.cards import (
    FULL_DECK,
    SUITS,
    TWO_OF_HEARTS,
    card_name,
    card_symbol,
    cards_of,
    next_ccw,
    next_cw,
    parse_card,
    parse_seat,
    parse_suit,
    seat_name,
    team_of,
)
from tekkasim.errors import CardError, IllegalAction, OptionError, RecordError, SeatError, TekkasimError, shorten
from tekkasim.records import FORMAT, parse_hands, require
from tekkasim.rules.base import MAX_SEED, TERMINAL, Game, Observation, State, check_seed
from tekkasim.rulesets.satat import _kernels as K

TROUPE = 52
REDEAL = 56
COLLECT = 57
ACCUSE = 64
N_ACTIONS = ACCUSE + 16 * 52
WIN_POINTS = 5
KIND_NAMES = {K.SEVEN: "seven", K.KOT: "kot", K.KOT52: "kot52", K.RENONCE: "renonce"}
FULL = FULL_DECK
FACES = sum(1 << (s * 13 + r) for s in range(4) for r in (9, 10, 11))  # J Q K of every suit


def accuse_action(accused: int, by: int, card: int) -> int:
    """The action of ``by`` accusing ``accused`` through ``card`` on the table."""
    return ACCUSE + (accused * 4 + by) * 52 + card


def decode_accusation(action: int) -> tuple[int, int, int]:
    """``(accused, by, card)`` of an accusation action."""
    a = action - ACCUSE
    return a // 208, a // 52 % 4, a % 52


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _give_order(cards: list[int], troupe: int, losing: bool) -> list[int]:
    """The order cards are listed in a record: losers highest Troupe first, winners lowest first."""
    key = lambda c: (c // 13 == troupe, c % 13, c // 13)  # noqa: E731
    return sorted(cards, key=key, reverse=losing)


def exchange_for(hands: list[list[int]], troupe: int, cards: int, loser: int) -> list[tuple[int, int, int]]:
    """The exchange the rules give: ``(from, to, card)`` for every card, from the hands as dealt."""
    out = []
    for seat in range(4):
        if team_of(seat) != loser:
            continue
        opp = next_cw(seat)
        for giver, taker, losing in ((seat, opp, True), (opp, seat, False)):
            given = cards_of(int(K.exchange_gives(np.uint64(_mask(hands[giver])), troupe, cards, losing)))
            out += [(giver, taker, c) for c in _give_order(given, troupe, losing)]
    return out


class SatatState(State):
    """One Satat round. See the module docstring for phases, actions and the array layout (``arrays``)."""

    def __init__(
        self,
        game: Satat,
        dealer: int,
        caller: int,
        dealt: list[list[int]],
        score=(0, 0),
        exchange_due: tuple[int, int] | None = None,
        redeals: int = 0,
        chance=None,
        seed: int | None = None,
        draw: list[dict[int, int]] | None = None,
    ):
        self.game = game
        self.dealer, self.caller = dealer, caller
        self.score_before = (int(score[0]), int(score[1]))
        self.exchange_due = exchange_due  # (cards, losing team) or None
        self.redeals = redeals
        self.seed = seed
        self.draw = draw
        # The chance source of everything drawn after the deal (redeals): a kernel RNG, the deal's own
        # stream continued; never shared with a resampled world (``resample`` gives each a fresh one).
        self._chance = chance if chance is not None else new_rng(0 if seed is None else seed)
        self._dealt = [list(h) for h in dealt]
        self._hands = np.array([_mask(h) for h in dealt], dtype=np.uint64)
        self._st = np.zeros(K.ST_SIZE, dtype=np.int64)
        self._troupe = -1
        self._exchange: list[tuple[int, int, int]] = []
        self._history: list[int] = []
        self._resampled = False
        self._abandoned: list[list[list[int]]] = []  # deals given up by a redeal, as dealt
        self._script: list[list[list[int]]] = []  # from a record: the deals its redeals lead to

    # --- arrays and small queries --------------------------------------------------------------
    @property
    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(hands, st)``: the kernel arrays (layout in ``_satat_kernels``); valid in phases ``"play"`` and
        ``"collect"``."""
        return self._hands, self._st

    @property
    def troupe(self) -> int | None:
        return None if self._troupe < 0 else self._troupe

    def _over(self) -> bool:
        return self._troupe >= 0 and self._st[K.OVER] == 1

    def _decided(self) -> bool:
        """The deciding trick is on the table, waiting for COLLECT (or an accusation)."""
        return self._troupe >= 0 and self._st[K.DECIDED] != K.NONE

    def _may_redeal(self) -> bool:
        return self.redeals < 2 and not any(c % 13 in (9, 10, 11) for c in self._dealt[self.caller][:5])

    def hand(self, seat: int) -> int:
        """The cards ``seat`` holds now (a mask; as dealt before Troupe is chosen)."""
        return int(self._hands[seat])

    def _n_tricks(self) -> int:
        """Tricks with at least one card played (the last may be on the table or incomplete)."""
        if self._troupe < 0 or (self._st[K.TRICK] == 0 and self._st[K.N_TABLE] == 0):
            return 0
        return int(self._st[K.TRICK]) + 1

    def _trick_plays(self, t: int) -> list[tuple[int, int]]:
        st = self._st
        leader = int(st[K.LEADERS + t])
        out = []
        for j in range(4):
            c = int(st[K.PLAYS + 4 * t + j])
            if c < 0:
                break
            out.append(((leader + 3 * j) % 4, c))
        return out

    def table(self) -> list[tuple[int, int]]:
        """``(seat, card)`` of the current trick on the table (a complete trick stays until the next lead)."""
        n = self._n_tricks()
        return self._trick_plays(n - 1) if n else []

    def renonces(self) -> list[tuple[int, int]]:
        """``(trick, seat)`` of every Renonce so far (0-based trick). Not public information."""
        out = []
        for t in range(self._n_tricks()):
            for j, (seat, _) in enumerate(self._trick_plays(t)):
                if self._st[K.RENONCE_AT + 4 * t + j] == 1:
                    out.append((t, seat))
        return out

    def is_renonce(self, card: int) -> bool:
        """Would the current player's ``card`` (held) be a Renonce?"""
        if self.phase() != "play":
            return False
        seat = self.current_player()
        if not int(self._hands[seat]) >> card & 1:
            raise IllegalAction(f"{seat_name(seat)} does not hold {card_name(card)}", "not-in-hand")
        return bool(K.is_renonce(self._hands[seat], K.current_lead(self._st), self._troupe, card))

    # --- contract ---------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._troupe < 0:
            return self.caller
        return TERMINAL if self._st[K.OVER] else int(self._st[K.TO_MOVE])

    def phase(self) -> str:
        if self._troupe < 0:
            return "redeal-or-troupe" if self._may_redeal() else "troupe"
        if self._st[K.OVER]:
            return "terminal"
        return "collect" if self._st[K.DECIDED] != K.NONE else "play"

    def legal_actions(self) -> list[int]:
        """Rule-following actions of the current player: Troupe choices (and a redeal when allowed), the
        cards that follow suit, or ``[COLLECT]`` in phase ``"collect"``. Renonces and accusations are not
        listed (see ``possible_actions`` and ``accusations``); ``apply_action`` accepts them too."""
        if self._troupe < 0:
            return [TROUPE + s for s in range(4)] + ([REDEAL] if self._may_redeal() else [])
        if self._st[K.OVER]:
            return []
        if self._st[K.DECIDED] != K.NONE:
            return [COLLECT]
        seat = int(self._st[K.TO_MOVE])
        return cards_of(int(K.legal_mask(self._hands[seat], K.current_lead(self._st), self._troupe)))

    def possible_actions(self) -> list[int]:
        """Every action the current player may take: in play every card held (Renonces included); in
        phase ``"collect"`` only ``COLLECT``."""
        if self._troupe < 0 or self._st[K.OVER] or self._st[K.DECIDED] != K.NONE:
            return self.legal_actions()
        return cards_of(int(self._hands[int(self._st[K.TO_MOVE])]))

    def accusations(self, by_seat: int) -> list[int]:
        """The accusation actions open to ``by_seat`` now: one per opponent card on the current table
        (phases ``"play"`` and ``"collect"``)."""
        by_seat = parse_seat(by_seat)
        if self.phase() not in ("play", "collect"):
            return []
        return sorted(accuse_action(s, by_seat, c) for s, c in self.table() if team_of(s) != team_of(by_seat))

    def actors(self) -> list[int]:
        """The seat to move, then every other seat with an accusation open (an opponent's card on the
        table: in phase ``"play"`` once a card is on the table, right after a trick's fourth card, and in
        ``"collect"``), in seat order."""
        mover = self.current_player()
        if mover == TERMINAL:
            return []
        n = 0 if self._troupe < 0 else int(self._st[K.N_TABLE])
        if n == 0:  # no card on the table
            return [mover]
        if n >= 2:  # cards of both teams on the table: every seat has an opponent's card to accuse
            return [mover] + [s for s in range(4) if s != mover]
        leader = int(self._st[K.LEADERS + self._st[K.TRICK]])
        return [mover] + [s for s in range(4) if s != mover and team_of(s) != team_of(leader)]

    def legal_actions_for(self, seat: int) -> list[int]:
        """For the seat to move: ``legal_actions()`` and its own open accusations; for any other seat its
        open accusations (optional: it may decline). Renonces are not listed (``possible_actions``)."""
        seat = parse_seat(seat)
        if self._over():
            return []
        own = self.accusations(seat)
        return sorted(self.legal_actions() + own) if seat == self.current_player() else own

    def apply_action(self, action) -> None:
        """Apply a Troupe choice, a redeal, a card (Renonces accepted and marked), ``COLLECT`` or an
        accusation (by any seat, not only the one to move). Raises ``IllegalAction`` naming the rule
        otherwise."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer) or not 0 <= action < N_ACTIONS:
            raise IllegalAction(f"{action!r} is not a satat action", "unknown-action")
        a = int(action)
        if self._over():
            raise IllegalAction("the round is over: no more actions", "after-end")
        if a >= ACCUSE:
            self._accuse(*decode_accusation(a))
        elif a == COLLECT:
            if not self._decided():
                raise IllegalAction("nothing to collect: only the trick that decides the round is collected", "collect")
            K.collect(self._st)
        elif self._troupe < 0:
            self._choose(a)
        elif a < 52:
            self._play(a)
        else:
            raise IllegalAction("Troupe is already chosen", "troupe-chosen")
        self._history.append(a)

    def _choose(self, a: int) -> None:
        caller = seat_name(self.caller)
        if a == REDEAL:
            if self.redeals >= 2:
                raise IllegalAction(f"{caller} already had two redeals this round: choose Troupe", "redeal")
            if not self._may_redeal():
                raise IllegalAction(f"{caller}'s first five hold a J, Q or K: no redeal", "redeal")
            self._abandoned.append(self._dealt)
            deck = np.empty(52, dtype=np.int64)
            K.deal(self._chance, deck, self.caller, self._hands)  # the stream advances even when scripted
            self._dealt = self._script.pop(0) if self._script else _hands_from_deck(deck, self.caller)
            self._hands[:] = [_mask(h) for h in self._dealt]
            self.redeals += 1
            return
        if not TROUPE <= a < TROUPE + 4:
            raise IllegalAction(f"{caller} must choose Troupe before any card is played", "troupe")
        troupe = a - TROUPE
        if self.exchange_due is not None:
            cards, loser = self.exchange_due
            self._exchange = exchange_for(self._dealt, troupe, cards, loser)
            for giver, taker, c in self._exchange:
                self._hands[giver] &= np.uint64(FULL ^ (1 << c))
                self._hands[taker] |= np.uint64(1 << c)
        self._troupe = troupe
        K.init_round(self._st, troupe, self.caller)

    def _play(self, c: int) -> None:
        seat = int(self._st[K.TO_MOVE])
        if self._st[K.DECIDED] != K.NONE:
            kind = KIND_NAMES[int(self._st[K.DECIDED])]
            raise IllegalAction(
                f"trick {int(self._st[K.TRICK]) + 1} decided the round ({kind}): no more cards; "
                f"{seat_name(seat)} collects it unless someone accuses",
                "round-decided",
            )
        if not int(self._hands[seat]) >> c & 1:
            holder = next((s for s in range(4) if int(self._hands[s]) >> c & 1), None)
            if holder is not None:
                raise IllegalAction(
                    f"{seat_name(seat)} does not hold {card_name(c)} ({seat_name(holder)} does); "
                    f"it is {seat_name(seat)}'s turn",
                    "not-in-hand",
                )
            raise IllegalAction(f"{card_name(c)} was already played", "not-in-hand")
        K.play_card(self._hands, self._st, c)

    def _accuse(self, accused: int, by: int, c: int) -> None:
        text = f"{seat_name(by)} accusing {seat_name(accused)} with {card_name(c)}"
        if self._troupe < 0 or self._st[K.N_TABLE] == 0:
            raise IllegalAction(f"{text}: no card is on the table", "accuse-not-on-table")
        holder = int(K.table_seat(self._st, c))
        if holder < 0:
            raise IllegalAction(f"{text}: {card_name(c)} is not on the current table", "accuse-not-on-table")
        if holder != accused:
            raise IllegalAction(f"{text}: {card_name(c)} was played by {seat_name(holder)}", "accuse-wrong-seat")
        if accused == by:
            raise IllegalAction(f"{text}: a player cannot accuse itself", "accuse-partner")
        if team_of(accused) == team_of(by):
            raise IllegalAction(f"{text}: one may only accuse an opponent, not one's partner", "accuse-partner")
        K.accuse(self._st, by, c)

    # --- outcome ----------------------------------------------------------------------------------
    def result(self) -> dict:
        if not self._over():
            raise TekkasimError(f"the deal is not over ({self.where()}): no result yet")
        st = self._st
        return {
            "tricks": {"A": int(st[K.WON_A]), "B": int(st[K.WON_B])},
            "kind": KIND_NAMES[int(st[K.KIND])],
            "points": {"A": int(st[K.POINTS_A]), "B": int(st[K.POINTS_B])},
            "renonces": [[t, seat_name(s)] for t, s in self.renonces()],
        }

    def returns(self) -> tuple[float, float]:
        if not self._over():
            raise TekkasimError(f"the deal is not over ({self.where()}): no returns yet")
        return float(self._st[K.POINTS_A]), float(self._st[K.POINTS_B])

    def accusation(self) -> dict | None:
        """``{"accused", "by", "card", "correct"}`` of the accusation that ended the round, or None."""
        st = self._st
        if self._troupe < 0 or st[K.ACCUSER] < 0:
            return None
        by, c = int(st[K.ACCUSER]), int(st[K.ACCUSED_CARD])
        return {"accused": int(K.table_seat(st, c)), "by": by, "card": c, "correct": bool(st[K.ACCUSATION_OK])}

    def score_after(self) -> tuple[int, int]:
        """The match score after this round (the round must be over)."""
        a, b = self.returns()
        return self.score_before[0] + int(a), self.score_before[1] + int(b)

    def next_deal_context(self) -> dict:
        if not self._over():
            raise TekkasimError(f"the deal is not over ({self.where()}): no next deal yet")
        winner = 0 if self._st[K.POINTS_A] > 0 else 1
        if winner == team_of(self.caller):
            dealer, caller = self.dealer, self.caller
        else:
            dealer, caller = self.caller, next_cw(self.caller)
        kind = int(self._st[K.KIND])
        exchange = None
        if kind in (K.KOT, K.KOT52):
            exchange = {"cards": 1 if kind == K.KOT else 2, "loser": "AB"[1 - winner]}
        a, b = self.score_after()
        return {
            "dealer": seat_name(dealer),
            "caller": seat_name(caller),
            "score": {"A": a, "B": b},
            "exchange": exchange,
        }

    def match_winner(self) -> int | None:
        if not self._over():
            return None
        a, b = self.score_after()
        if a >= WIN_POINTS or b >= WIN_POINTS:
            return 0 if a >= b else 1
        return None

    # --- information --------------------------------------------------------------------------------
    def _apparent_voids(self) -> list[int]:
        """Per seat, a bitmask of the suits it failed to follow (after a 2♥ lead: Troupe). Apparent only:
        a Renonce shows a void that is not there. A 2♥ played to a trick shows nothing (it may always be
        played)."""
        voids = [0] * 4
        for t in range(self._n_tricks()):
            plays = self._trick_plays(t)
            lead = plays[0][1]
            need = self._troupe if lead == TWO_OF_HEARTS else lead // 13
            for s, c in plays[1:]:
                if c != TWO_OF_HEARTS and c // 13 != need:
                    voids[s] |= 1 << need
        return voids

    def observation(self, seat: int) -> Observation:
        """Exactly what ``seat`` sees (field names in the module docstring, "Information")."""
        seat = parse_seat(seat)
        chosen = self._troupe >= 0
        hand = int(self._hands[seat]) if chosen else _mask(self._dealt[seat][:5])
        tricks = []
        for t in range(self._n_tricks()):
            w = int(self._st[K.WINNERS + t])
            tricks.append(
                {"leader": int(self._st[K.LEADERS + t]), "plays": self._trick_plays(t), "winner": None if w < 0 else w}
            )
        st = self._st
        public = {
            "trump": self.troupe,
            "tricks": tricks,
            "score": self.score_before,
            "won": (int(st[K.WON_A]), int(st[K.WON_B])) if chosen else (0, 0),
            "hand_sizes": [int(self._hands[s]).bit_count() for s in range(4)] if chosen else [5] * 4,
            "voids": self._apparent_voids() if chosen else [0] * 4,
            "dealer": self.dealer,
            "caller": self.caller,
            "redeals": self.redeals,
            "draw": self.draw,
            "exchange_due": self.exchange_due,
            "table": self.table(),
            "kot": int(st[K.KOT_TEAM]) if chosen and st[K.KOT_TEAM] >= 0 else None,
            "decided": KIND_NAMES[int(st[K.DECIDED])] if self._decided() else None,
            "accusation": self.accusation(),
        }
        private = {
            "gave": [c for g, _, c in self._exchange if g == seat],
            "received": [c for _, r, c in self._exchange if r == seat],
            "redealt": [list(d[seat][:5]) for d in self._abandoned],
        }
        return Observation(seat, self.phase(), self.current_player(), hand, public, private)

    def resample(self, seat: int, rng) -> SatatState:
        """A full state consistent with ``seat``'s observation (module docstring, "Information"), drawn
        from ``rng`` (a kernel RNG, ``bits.new_rng(seed)``, advanced in place) and nothing else that is
        hidden from ``seat``. Its chance source (future redeals) is fresh from ``rng``; it has no seed, no
        scripted redeals, and the deals given up by earlier redeals are redrawn around the seat's own first
        five of each."""
        seat = parse_seat(seat)
        if not (isinstance(rng, np.ndarray) and rng.dtype == np.uint64 and rng.shape == (1,)):
            raise OptionError(
                f"resample needs a kernel RNG state, tekkasim.bits.new_rng(seed), not {type(rng).__name__}"
            )
        world = self.clone()
        world.seed = None  # the true deal's seed would give its hidden cards and its redeals away
        world._script = []
        world._resampled = True
        world._abandoned = [_redraw_deal(d[seat][:5], seat, self.caller, "none", rng) for d in self._abandoned]
        if self._troupe < 0:  # only the first five of every seat have been seen, each by its owner
            # The phase is public: below two redeals it tells whether the caller's five hold a J, Q or K.
            faces = None if self.redeals >= 2 else "none" if self._may_redeal() else "some"
            world._dealt = _redraw_deal(self._dealt[seat][:5], seat, self.caller, faces, rng)
            world._hands[:] = [_mask(h) for h in world._dealt]
            world._chance = new_rng(int(next_u64(rng)))
            return world
        played = [[] for _ in range(4)]  # cards each seat played, in order
        for t in range(self._n_tricks()):
            for s, c in self._trick_plays(t):
                played[s].append(c)
        fixed = [0] * 4
        for giver, taker, c in self._exchange:  # what the seat gave stays with its receiver until played
            if giver == seat and c not in played[taker]:
                fixed[taker] |= 1 << c
        fixed[seat] = int(self._hands[seat])
        taken = _mask(c for p in played for c in p) | fixed[0] | fixed[1] | fixed[2] | fixed[3]
        pool = _shuffled(cards_of(FULL & ~taken), rng)
        for s in range(4):
            need = int(self._hands[s]).bit_count() - fixed[s].bit_count()
            world._hands[s] = np.uint64(fixed[s] | _mask(pool[:need]))
            pool = pool[need:]
        world._chance = new_rng(int(next_u64(rng)))
        # Renonce flags follow from the world's hands: the hand at each play = now + later plays.
        st = world._st
        st[K.RENONCERS] = 0
        later = [int(world._hands[s]) for s in range(4)]
        for t in range(self._n_tricks() - 1, -1, -1):
            plays = self._trick_plays(t)
            for j in range(len(plays) - 1, -1, -1):
                s, c = plays[j]
                later[s] |= 1 << c
                flag = j > 0 and bool(K.is_renonce(np.uint64(later[s]), plays[0][1], self._troupe, c))
                st[K.RENONCE_AT + 4 * t + j] = int(flag)
        for _t, s in world.renonces():
            st[K.RENONCERS] |= 1 << s
        world._dealt = [sorted(cards_of(later[s])) for s in range(4)]
        world._exchange = [e for e in self._exchange if seat in (e[0], e[1])]
        return world

    # --- copies, text, records ---------------------------------------------------------------------
    def clone(self) -> SatatState:
        other = object.__new__(SatatState)
        other.__dict__.update(self.__dict__)
        other._chance = self._chance.copy()
        other._dealt = [list(h) for h in self._dealt]
        other._hands = self._hands.copy()
        other._st = self._st.copy()
        other._exchange = list(self._exchange)
        other._abandoned = list(self._abandoned)
        other._script = list(self._script)
        other._history = list(self._history)
        return other

    def history(self) -> list[int]:
        return list(self._history)

    def action_to_string(self, action) -> str:
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalAction(
                f"{shorten(repr(action))} is not a satat action (expected an int 0 .. {N_ACTIONS - 1})",
                "unknown-action",
            )
        a = int(action)
        if 0 <= a < 52:
            return card_name(a)
        if TROUPE <= a < TROUPE + 4:
            return SUITS[a - TROUPE]
        if a == REDEAL:
            return "redeal"
        if a == COLLECT:
            return "collect"
        if ACCUSE <= a < N_ACTIONS:
            accused, by, c = decode_accusation(a)
            return f"accuse:{seat_name(accused)}:by:{seat_name(by)}:{card_name(c)}"
        raise IllegalAction(
            f"{a} is not a satat action (expected 0 .. 57 or {ACCUSE} .. {N_ACTIONS - 1})", "unknown-action"
        )

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise IllegalAction(f"{shorten(repr(text))} is not a satat action (expected text)", "unknown-action")
        t = text.strip()
        low = t.lower()
        if low == "redeal":
            return REDEAL
        if low == "collect":
            return COLLECT
        if low.startswith("accuse"):
            parts = low.split(":")
            if len(parts) != 5 or parts[0] != "accuse" or parts[2] != "by":
                raise IllegalAction(
                    f"malformed accusation {shorten(repr(text))} (expected accuse:SEAT:by:SEAT:CARD)", "unknown-action"
                )
            return accuse_action(parse_seat(parts[1]), parse_seat(parts[3]), parse_card(parts[4]))
        if ":" in t:
            raise IllegalAction(
                f"{shorten(repr(text))}: signals are only for Feskot and Tekka (a satat card is "
                "just the card, like 'TS')",
                "unknown-action",
            )
        if len(t) == 1:
            return TROUPE + parse_suit(t)
        return parse_card(t)

    def where(self) -> str:
        if self._over():
            return "after the end of the round"
        if self._troupe < 0:
            return f"troupe ({seat_name(self.caller)})"
        t, n = int(self._st[K.TRICK]), int(self._st[K.N_TABLE])
        seat = seat_name(self.current_player())
        if self._st[K.DECIDED] != K.NONE:
            return f"trick {t + 1} on the table (collect, {seat})"
        if n == 4:  # the complete trick is still on the table: an accusation now concerns it
            return f"trick {t + 2}, play 1 ({seat}; trick {t + 1} still on the table)"
        return f"trick {t + 1}, play {n + 1} ({seat})"

    def to_record(self) -> dict:
        rec: dict[str, Any] = {"format": FORMAT, "ruleset": "satat"}
        if self.seed is not None:
            rec["seed"] = self.seed
        rec["dealer"] = seat_name(self.dealer)
        rec["caller"] = seat_name(self.caller)
        rec["redeals"] = self.redeals
        rec["score_before"] = {"A": self.score_before[0], "B": self.score_before[1]}
        if self.draw:
            rec["draw"] = [{seat_name(s): card_name(c) for s, c in r.items()} for r in self.draw]
        if self._abandoned and not self._resampled:
            rec["redealt"] = [
                {seat_name(s): [card_name(c) for c in deal[s]] for s in range(4)} for deal in self._abandoned
            ]
        rec["hands"] = {seat_name(s): [card_name(c) for c in self._dealt[s]] for s in range(4)}
        if self._troupe >= 0:
            rec["trump"] = SUITS[self._troupe]
        if self._exchange and not self._resampled:
            rec["exchange"] = [
                {"from": seat_name(g), "to": seat_name(r), "card": card_name(c)} for g, r, c in self._exchange
            ]
        tricks: list[list] = [[card_name(c) for _, c in self._trick_plays(t)] for t in range(self._n_tricks())]
        acc = self.accusation()
        if acc is not None:
            tricks[-1].append(
                {"accuse": seat_name(acc["accused"]), "by": seat_name(acc["by"]), "card": card_name(acc["card"])}
            )
        rec["tricks"] = tricks
        if self._over():
            rec["result"] = self.result()
        else:
            rec["unfinished"] = True
        return rec

    def render(self) -> str:
        lines = [
            f"satat  dealer {seat_name(self.dealer)}, caller {seat_name(self.caller)}, "
            f"redeals {self.redeals}, score before A {self.score_before[0]} - B {self.score_before[1]}"
        ]
        if self.draw:
            for i, r in enumerate(self.draw):
                lines.append(f"draw {i + 1}: " + ", ".join(f"{seat_name(s)} {card_symbol(c)}" for s, c in r.items()))
        lines.append("Troupe: " + ("not chosen yet" if self._troupe < 0 else card_symbol(self._troupe * 13)[1:]))
        for s in range(4):
            first, rest = (" ".join(map(card_symbol, part)) for part in (self._dealt[s][:5], self._dealt[s][5:]))
            lines.append(f"  {seat_name(s):>6}: {first} | {rest}")
        if self._exchange:
            lines.append(
                "exchange: "
                + "; ".join(f"{seat_name(g)} -> {seat_name(r)} {card_symbol(c)}" for g, r, c in self._exchange)
            )
        flags = set(self.renonces())
        for t in range(self._n_tricks()):
            plays = self._trick_plays(t)
            shown = "  ".join(
                f"{seat_name(s)} {card_symbol(c)}{' (RENONCE)' if (t, s) in flags else ''}" for s, c in plays
            )
            w = int(self._st[K.WINNERS + t])
            end = f" -> {seat_name(w)}" if w >= 0 else (" -> nobody" if len(plays) == 4 else "")
            lines.append(f"trick {t + 1:>2} (leads {seat_name(plays[0][0])}): {shown}{end}")
        acc = self.accusation()
        if acc is not None:
            lines.append(
                f"accusation: {seat_name(acc['by'])} accuses {seat_name(acc['accused'])} "
                f"({card_symbol(acc['card'])}): {'correct' if acc['correct'] else 'wrong'}"
            )
        if self._decided():
            lines.append(
                f"decided: {KIND_NAMES[int(self._st[K.DECIDED])]} (the trick on the table is not "
                "collected yet: accusations are still open)"
            )
        if self._over():
            r = self.result()
            lines.append(
                f"result: {r['kind']}, tricks A {r['tricks']['A']} - B {r['tricks']['B']}, "
                f"points A {r['points']['A']} - B {r['points']['B']}"
            )
        else:
            lines.append(f"next: {self.where()}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


def _hands_from_deck(deck: np.ndarray, caller: int) -> list[list[int]]:
    hands: list[list[int]] = [[] for _ in range(4)]
    for k in range(4):
        seat = (caller + 3 * k) % 4
        hands[seat] = [int(c) for c in deck[5 * k : 5 * k + 5]] + [int(c) for c in deck[20 + 8 * k : 28 + 8 * k]]
    return hands


def _shuffled(items: list[int], rng: np.ndarray) -> list[int]:
    """``items`` shuffled by a kernel RNG (``bits.new_rng``), advanced in place."""
    arr = np.array(items, dtype=np.int64)
    shuffle(rng, arr)
    return [int(c) for c in arr]


def _redraw_deal(seen: list[int], seat: int, caller: int, faces: str | None, rng: np.ndarray) -> list[list[int]]:
    """A deal (13 cards per seat, the first five first) with ``seat``'s first five ``seen`` and every other
    card drawn uniformly by ``rng`` from the unseen ones, gathered in sorted order. ``faces``: what is known
    of the caller's first five when ``seat`` is not the caller: ``"none"`` (no J, Q or K: a redeal was
    allowed), ``"some"`` (at least one), or None (nothing)."""
    rest = [c for c in range(52) if c not in set(seen)]
    if seat == caller or faces is None:
        pool = _shuffled(rest, rng)
    elif faces == "none":
        five = _shuffled([c for c in rest if not FACES >> c & 1], rng)[:5]
        pool = five + _shuffled([c for c in rest if c not in set(five)], rng)
    else:
        while True:  # rejection: most draws succeed
            pool = _shuffled(rest, rng)
            if any(FACES >> c & 1 for c in pool[:5]):
                break
    order = (
        [caller] + [s for s in range(4) if s not in (seat, caller)]
        if seat != caller
        else [s for s in range(4) if s != seat]
    )
    first = {seat: list(seen)}
    for s in order:
        first[s], pool = pool[:5], pool[5:]
    dealt = [[] for _ in range(4)]
    for s in range(4):
        if s == seat:
            dealt[s] = list(seen) + pool[:8]
            pool = pool[8:]
        else:
            dealt[s] = first[s] + pool[:8]
            pool = pool[8:]
    return dealt


def _context_seat(context: dict, key: str) -> int | None:
    if context.get(key) is None:
        return None
    try:
        return parse_seat(context[key])
    except SeatError as exc:
        raise OptionError(f"bad new_deal context {key!r}: {exc}") from None


def _team(value) -> int:
    if value in ("A", "a", 0):
        return 0
    if value in ("B", "b", 1):
        return 1
    raise OptionError(f"bad team {value!r} (expected 'A' or 'B')")


def _score(value) -> tuple[int, int]:
    if isinstance(value, dict) and set(value) == {"A", "B"}:
        pair = (value["A"], value["B"])
    elif isinstance(value, list | tuple) and len(value) == 2:
        pair = tuple(value)
    else:
        raise OptionError(f"bad score {value!r} (expected {{'A': n, 'B': n}})")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in pair):
        raise OptionError(f"bad score {value!r}: points must be whole numbers >= 0")
    return int(pair[0]), int(pair[1])


def _exchange_due(value) -> tuple[int, int] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"cards", "loser"} or value["cards"] not in (1, 2):
        raise OptionError(f"bad exchange {value!r} (expected None or {{'cards': 1|2, 'loser': 'A'|'B'}})")
    return int(value["cards"]), _team(value["loser"])


class Satat(Game):
    """Satat (Mauritius): clockwise play, Troupe, 2♥, KOT, Renonce and accusations; match to 5.

    >>> state = Satat().new_deal(4)
    >>> state.where(), state.legal_actions() == [TROUPE, TROUPE + 1, TROUPE + 2, TROUPE + 3]
    ('troupe (bottom)', True)
    >>> state.apply_action(state.string_to_action("S"))
    >>> state.where(), state.action_to_string(state.legal_actions()[0])
    ('trick 1, play 1 (bottom)', '3C')
    """

    name = "satat"
    description = "Mauritian Satat: Troupe from five cards, 2♥ beats all, KOT and KOT 52, Renonce accusations"
    returns_unit = "points"
    first_seat = "caller"  # instead of the draw for it
    first_seat_label = "caller"
    first_five = True
    trump_name = "Troupe"
    action_kinds = ("redeal", "troupe", "card", "collect", "accusation")
    out_of_turn = True
    trick_rules = "troupe"
    possible_are_fouls = True  # a Renonce: not following when able

    _CONTEXT = ("dealer", "caller", "score", "exchange", "deal_no", "match")

    def new_deal(self, seed: int, **context: Any) -> SatatState:
        """Deal a round from ``seed``. Without ``dealer``/``caller`` in ``context`` the draw picks the caller.

        ``context`` (from ``next_deal_context``): ``dealer``, ``caller`` (seats; either fixes the other),
        ``score`` (``{"A": n, "B": n}`` before the round), ``exchange`` (None or ``{"cards": 1|2,
        "loser": "A"|"B"}``). ``seed``: an int in 0 .. 2**63-1 (``OptionError`` otherwise). The draw and the
        deal come from ``bits.new_rng(seed)``; the same stream, continued, is the round's chance source for
        redeals.
        """
        seed = check_seed(seed)
        for key in context:
            if key not in self._CONTEXT:
                raise OptionError(f"unknown new_deal context {key!r} for satat (expected {', '.join(self._CONTEXT)})")
        dealer, caller = _context_seat(context, "dealer"), _context_seat(context, "caller")
        if dealer is not None and caller is not None and caller != next_cw(dealer):
            raise OptionError("the caller must be the next seat clockwise from the dealer")
        rng = new_rng(seed)
        deck = np.empty(52, dtype=np.int64)
        draw = None
        if dealer is None and caller is None:
            log = np.empty((32, 4), dtype=np.int64)
            caller, rounds = K.draw_caller(rng, deck, log)
            caller = int(caller)
            draw = [{s: int(log[r, s]) for s in range(4) if log[r, s] >= 0} for r in range(min(int(rounds), 32))]
        elif caller is None:
            caller = next_cw(dealer)
        dealer = next_ccw(caller)
        hands = np.empty(4, dtype=np.uint64)
        K.deal(rng, deck, caller, hands)
        score = _score(context["score"]) if context.get("score") is not None else (0, 0)
        return SatatState(
            self,
            dealer,
            caller,
            _hands_from_deck(deck, caller),
            score,
            _exchange_due(context.get("exchange")),
            0,
            rng,
            seed,
            draw,
        )

    def from_record(self, record: dict) -> tuple[SatatState, list[str]]:
        dealer = _record_seat(record, "dealer")
        caller = _record_seat(record, "caller")
        if caller != next_cw(dealer):
            raise RecordError(
                f"field 'caller': {seat_name(caller)} is not the next seat clockwise from "
                f"the dealer {seat_name(dealer)}"
            )
        redeals = record.get("redeals", 0)
        if isinstance(redeals, bool) or not isinstance(redeals, int) or not 0 <= redeals <= 2:
            raise RecordError(f"field 'redeals' must be 0, 1 or 2, not {redeals!r}")
        hands = _record_hands(require(record, "hands", dict), "hands")
        redealt = record.get("redealt", [])
        if not isinstance(redealt, list) or len(redealt) not in (0, redeals):
            raise RecordError(f"field 'redealt' must list the {redeals} deal(s) given up by the redeals")
        earlier = [_record_hands(d, f"redealt[{i}]") for i, d in enumerate(redealt)]
        score = (0, 0)
        if "score_before" in record:
            try:
                score = _score(record["score_before"])
            except OptionError as exc:
                raise RecordError(f"field 'score_before': {exc}") from None
        tricks = require(record, "tricks", list)
        troupe = None
        if "trump" in record:
            try:
                troupe = parse_suit(require(record, "trump", str))
            except CardError as exc:
                raise RecordError(f"field 'trump': {exc}") from None
        elif tricks or record.get("exchange"):
            raise RecordError("missing field 'trump'")
        exchange_due = _record_exchange(record, hands, troupe)
        seed = record.get("seed")
        seed = seed if isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed <= MAX_SEED else None
        draw = _record_draw(record.get("draw"), caller)
        chance = _record_chance(seed, caller, draw is not None, 0 if earlier else redeals)
        if earlier:  # replay the redeals: start from the first deal, each redeal brings the next
            state = SatatState(self, dealer, caller, earlier[0], score, exchange_due, 0, chance, seed, draw)
            state._script = earlier[1:] + [hands]
        else:
            state = SatatState(self, dealer, caller, hands, score, exchange_due, redeals, chance, seed, draw)
        actions = ["redeal"] * len(earlier) + ([] if troupe is None else [SUITS[troupe]])
        for t, trick in enumerate(tricks):
            if not isinstance(trick, list):
                raise RecordError(f"trick {t + 1} must be a list of plays, not {type(trick).__name__}")
            for p, play in enumerate(trick):
                if isinstance(play, str):
                    actions.append(play)
                elif isinstance(play, dict):
                    actions.append(_accusation_text(play, t, p))
                else:
                    raise RecordError(f"trick {t + 1}, play {p + 1}: a play must be a card or an accusation object")
        return state, _with_collect(state, actions, record.get("unfinished", False) is True)

    def play_random(self, n_deals: int, seed: int) -> dict:
        """``n_deals`` random rounds (deal i from ``seed + i``: the draw, the deal, a uniformly random Troupe,
        uniformly random rule-following cards, no redeal, no accusation, so the deciding trick is
        collected at once: the outcomes equal the State's with ``COLLECT`` taken) in one kernel call.

        Returns ``tricks`` (n, 2), ``kind`` (n,: 1 seven, 2 KOT, 3 KOT 52), ``points`` (n, 2), ``returns``
        (the points as float, n x 2), ``caller`` and ``troupe`` (n,).
        """
        if isinstance(n_deals, bool) or not isinstance(n_deals, int | np.integer) or n_deals < 0:
            raise OptionError(f"n_deals must be a whole number >= 0, not {shorten(repr(n_deals))}")
        n = int(n_deals)
        tricks = np.zeros((n, 2), dtype=np.int64)
        kind = np.zeros(n, dtype=np.int64)
        points = np.zeros((n, 2), dtype=np.int64)
        caller = np.zeros(n, dtype=np.int64)
        troupe = np.zeros(n, dtype=np.int64)
        K.play_random_kernel(np.uint64(check_seed(seed)), tricks, kind, points, caller, troupe)
        return {
            "tricks": tricks,
            "kind": kind,
            "points": points,
            "returns": points.astype(np.float64),
            "caller": caller,
            "troupe": troupe,
        }


def _record_draw(given, caller: int) -> list[dict[int, int]] | None:
    """The record's ``draw`` (None if absent), checked: each round is drawn by the seats tied for the
    highest card of the round before (all four first), and the last round's single highest is the caller."""
    if given is None:
        return None
    if not isinstance(given, list) or not given or not all(isinstance(r, dict) and r for r in given):
        raise RecordError("field 'draw' must be a list of rounds, each {seat: card}")
    rounds, drawing = [], {0, 1, 2, 3}
    for i, r in enumerate(given):
        try:
            rnd = {parse_seat(k): parse_card(v) for k, v in r.items()}
        except TekkasimError as exc:
            raise RecordError(f"field 'draw', round {i + 1}: {exc}") from None
        if set(rnd) != drawing:
            raise RecordError(
                f"field 'draw', round {i + 1}: drawn by {', '.join(seat_name(s) for s in sorted(rnd))}"
                f", expected {', '.join(seat_name(s) for s in sorted(drawing))}"
            )
        if len(set(rnd.values())) != len(rnd):
            raise RecordError(f"field 'draw', round {i + 1}: a card drawn twice")
        rounds.append(dict(sorted(rnd.items())))
        best = max(int(K.draw_value(c)) for c in rnd.values())
        drawing = {s for s, c in rnd.items() if int(K.draw_value(c)) == best}
        if len(drawing) == 1 and i < len(given) - 1:
            raise RecordError(f"field 'draw': round {i + 1} already has a single highest card")
    if len(drawing) != 1 or drawing != {caller}:
        raise RecordError(f"field 'draw' does not make {seat_name(caller)} the caller")
    return rounds


def _record_chance(seed: int | None, caller: int, drew: bool, redeals: int) -> np.ndarray:
    """The chance source of a round read from a record: the stream of ``new_deal(seed)`` (seed 0 if the
    record has none) advanced past the draw (if the record has one), the deal and ``redeals`` redeals
    already counted, so that a seeded record continues exactly as the round it was written from did.
    Redeals replayed from ``redealt`` advance it themselves, one deal each."""
    chance = new_rng(0 if seed is None else seed)
    deck = np.empty(52, dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    if drew:
        K.draw_caller(chance, deck, np.empty((0, 4), dtype=np.int64))
    for _ in range(1 + redeals):
        K.deal(chance, deck, caller, hands)
    return chance


def _record_seat(record: dict, key: str) -> int:
    value = require(record, key, str)
    try:
        return parse_seat(value)
    except SeatError as exc:
        raise RecordError(f"field {key!r}: {exc}") from None


def _record_hands(given, field: str) -> list[list[int]]:
    return parse_hands(given, field)


def _record_exchange(record: dict, hands: list[list[int]], troupe: int | None) -> tuple[int, int] | None:
    """Read and check the ``exchange`` list; return ``(cards, losing team)`` or None."""
    entries = record.get("exchange")
    if not entries:
        return None
    if not isinstance(entries, list):
        raise RecordError("field 'exchange' must be a list of {from, to, card}")
    moves = []
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or set(e) != {"from", "to", "card"}:
            raise RecordError(f'field \'exchange\', entry {i + 1}: expected {{"from", "to", "card"}}')
        try:
            moves.append((parse_seat(e["from"]), parse_seat(e["to"]), parse_card(e["card"])))
        except TekkasimError as exc:
            raise RecordError(f"field 'exchange', entry {i + 1}: {exc}") from None
    if len(moves) not in (4, 8):
        raise RecordError(f"field 'exchange' must list 4 cards (after a KOT) or 8 (after a KOT 52), not {len(moves)}")
    giver, taker, _ = moves[0]
    if taker == next_cw(giver):
        loser = team_of(giver)
    elif taker == next_ccw(giver):
        loser = 1 - team_of(giver)
    else:
        raise RecordError(
            f"field 'exchange': {seat_name(giver)} and {seat_name(taker)} do not swap "
            "(each loser swaps with the opponent on its left)"
        )
    cards = len(moves) // 4
    expected = exchange_for(hands, troupe, cards, loser)
    for g in range(4):
        r = next_cw(g) if team_of(g) == loser else next_ccw(g)
        want = sorted(c for a, b, c in expected if a == g)
        got = sorted(c for a, b, c in moves if a == g and b == r)
        if want != got or sum(1 for a, _, _ in moves if a == g) != cards:
            shown = " ".join(card_name(c) for c in got) or "nothing"
            raise RecordError(
                f"field 'exchange': {seat_name(g)} must give {' '.join(card_name(c) for c in want)} "
                f"to {seat_name(r)}, not {shown}"
            )
    return cards, loser


def _with_collect(state: SatatState, actions: list[str], unfinished: bool) -> list[str]:
    """``actions`` with the implied ``"collect"`` after the fourth card of the deciding trick, unless an
    accusation follows that card, or the record is unfinished and stops there. Found by replaying on a
    copy; at the first action that fails the rest is passed on unchanged, for verify to report."""
    scratch = state.clone()
    out: list[str] = []
    for i, text in enumerate(actions):
        out.append(text)
        try:
            scratch.apply_action(scratch.string_to_action(text))
        except TekkasimError:
            return out + actions[i + 1 :]
        if scratch.phase() != "collect":
            continue
        following = actions[i + 1] if i + 1 < len(actions) else None
        if following is None and unfinished:
            break
        if following is None or not following.startswith("accuse"):
            out.append("collect")
            scratch.apply_action(COLLECT)
    return out


def _accusation_text(play: dict, t: int, p: int) -> str:
    if set(play) != {"accuse", "by", "card"} or not all(isinstance(v, str) for v in play.values()):
        raise RecordError(f'trick {t + 1}, play {p + 1}: an accusation is {{"accuse": seat, "by": seat, "card": card}}')
    try:
        accused, by, c = parse_seat(play["accuse"]), parse_seat(play["by"]), parse_card(play["card"])
    except TekkasimError as exc:
        raise RecordError(f"trick {t + 1}, play {p + 1}: {exc}") from None
    return f"accuse:{seat_name(accused)}:by:{seat_name(by)}:{card_name(c)}"


__all__ = [
    "ACCUSE",
    "COLLECT",
    "REDEAL",
    "TROUPE",
    "Satat",
    "SatatState",
    "accuse_action",
    "decode_accusation",
    "exchange_for",
]
