"""Feskot: the classic Afghan partnership game of seven tricks (rules.md, "Feskot").

Rules as played here
--------------------
* Deal: 5 cards each, then 4, then 4, counter-clockwise from the first-dealt seat (``new_deal(seed,
  first=0)``; bottom by default). A seeded deal is ``deck = 0..51`` shuffled by ``bits.shuffle`` with
  ``new_rng(seed)``, dealt from ``deck[0]`` (``_trick52.deal_deck``); hands are recorded in the order
  dealt, so a seat's first five cards are its first packet.
* The first-dealt seat chooses Prime having seen only its first five cards (phase ``"prime"``); until
  then every seat's observation shows only its first five. It then leads trick 1.
* Follow suit if able, else any card (no duty to trump). Highest Prime wins, else highest of the led
  suit; the winner leads next. The deal ends when a team has 7 tricks; option ``play_out`` plays all 13.
* Next game (``next_deal_context``): if the first-dealt seat's team won, the same seat deals first
  again, else the next seat counter-clockwise. With option ``deal="cut"`` the context also carries the
  next deck: the cards in the order played, then unplayed cards by seat (bottom, right, top, left),
  each seat's in the order dealt; ``new_deal`` cuts it once at ``1 + below(rng, 51)`` from the new
  seed (a cut moves at least one card) and deals it in packets. Without a deck (first game) it shuffles.
* Signals (option ``signals``, default on) as described in ``trick52``.
* A Feskot game is one deal: ``match_winner()`` is None and deals are chained through
  ``next_deal_context()`` (the first-dealt rotation), as a table of players would.

Actions: cards (with signals) and ``PRIME_BASE + suit`` for the Prime choice (``trick52``). Phases:
``"prime"``, ``"play"``, ``"terminal"``. The state and game classes, observations (field by field),
determinization and the action text are shared with Tekka in ``trick52``.

>>> from tekkasim.rules import get_game
>>> state = get_game("feskot").new_deal(7, first="top")
>>> state.phase(), state.where(), len(state.legal_actions())
('prime', 'prime choice (top)', 4)

Records (records.md): ``from_record`` returns ``[trump, plays...]``; a record may play on past the
decision (``trick52``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tekkasim.cards import SEATS, SUIT_SYMBOLS, SUITS, TEAMS, next_ccw, parse_seat, team_of
from tekkasim.errors import CardError, TekkasimError
from tekkasim.rules.base import Option, check_seed
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52.game import (
    Trick52Game,
    Trick52State,
    action_text,
    parse_action,
    prime_action,
    with_signal,
)

# --- Feskot -------------------------------------------------------------------------------------------


class FeskotState(Trick52State):
    """A Feskot deal (phases ``prime``, ``play``, ``terminal``)."""

    def __init__(self, game: Feskot, arrays: k.Arrays, seed: int | None):
        super().__init__(game, arrays, seed)

    def _hand_sizes(self) -> list[int]:
        if self._i(k.I_PRIME) < 0:  # before Prime every seat has seen five cards
            return [5, 5, 5, 5]
        return super()._hand_sizes()

    def winner_team(self) -> int | None:
        a, b = self.team_tricks()
        if a == b:
            return None
        return 0 if a > b else 1

    def result(self) -> dict:
        self._require_over("result")
        a, b = self.team_tricks()
        return {"tricks": {"A": a, "B": b}, "winner": TEAMS[self.winner_team()]}

    def returns(self) -> tuple[float, float]:
        self._require_over("returns")
        a, b = self.team_tricks()
        return float(a), float(b)

    def next_deal_context(self) -> dict:
        self._require_over("next deal")
        first = self.first
        nxt = first if team_of(first) == self.winner_team() else next_ccw(first)
        ctx: dict[str, Any] = {"first": nxt}
        if self.game.options["deal"] == "cut":
            ctx["deck"] = self.next_deck()
        return ctx

    def next_deck(self) -> list[int]:
        """The ``deal="cut"`` deck before its cut: cards in the order played, then unplayed cards by seat."""
        played = [c for trick in self.tricks() for _, c, _ in trick]
        done = set(played)
        return played + [c for s in range(4) for c in self.dealt(s) if c not in done]

    def to_record(self) -> dict:
        return self._record_tail(self._record_head())

    def render(self) -> str:
        lines = [f"Feskot, first dealt: {SEATS[self.first]}"]
        self._render_hands(lines)
        prime = self.prime
        lines.append(f"Prime: {SUIT_SYMBOLS[prime] + ' ' + SUITS[prime] if prime is not None else '(not chosen)'}")
        self._render_tricks(lines)
        if self.is_terminal():
            a, b = self.team_tricks()
            lines.append(f"Result: A {a} - B {b} tricks, team {TEAMS[self.winner_team()]} wins")
        else:
            lines.append(f"Unfinished: next {self.where()}")
        return "\n".join(lines)


class Feskot(Trick52Game):
    """Feskot (rules.md): Prime chosen from five cards, first team to 7 tricks wins."""

    name = "feskot"
    description = "Afghan four-player partnership game: Prime from five cards, first team to 7 tricks wins"
    returns_unit = "tricks"
    has_matches = False  # games follow the first-dealt rotation, but no score ends a match
    first_seat_label = "first dealt"
    action_kinds = ("prime", "card")
    options_spec = (
        Option("play_out", False, None, "play all 13 tricks even after a team has 7"),
        Option(
            "deal",
            "shuffle",
            ("shuffle", "cut"),
            "shuffle every game, or continue the last game's trick order with one cut",
        ),
        Option("signals", True, None, "allow slam/drop signals on plays"),
    )
    ruleset_code = k.FESKOT
    packets = True
    state_class = FeskotState

    def new_deal(self, seed: int, first: int | str = 0, deck: list[int] | None = None) -> FeskotState:
        """Shuffle and deal from ``seed``; ``first`` is the first-dealt seat. ``deck`` (``deal="cut"`` only,
        from ``next_deal_context``) is cut once instead of shuffled."""
        seed = check_seed(seed)
        first = parse_seat(first)
        if deck is not None:
            if self.options["deal"] != "cut":
                raise TekkasimError("a deck is only carried over with the option deal='cut'")
            deck = [int(c) for c in deck]
            if sorted(deck) != list(range(52)):
                raise CardError("the carried-over deck must hold each of the 52 cards once")
        return self._start(self._seeded_dealt(seed, first, deck), first, seed)

    def from_record(self, record: dict) -> tuple[FeskotState, list[str]]:
        first, dealt = self._parse_header(record)
        tricks = self._parse_tricks(record)
        unfinished = record.get("unfinished", False) is True
        trump = self._parse_trump(record, needed=bool(tricks) or not unfinished)
        seed = record.get("seed") if isinstance(record.get("seed"), int) else None
        state = self._start(dealt, first, seed)
        actions = ([trump] if trump else []) + [p for trick in tricks for p in trick]
        return self._with_play_on(state, actions), actions

    def play_random(self, n_deals: int, seed: int, first: int | str = 0) -> dict:
        """``n_deals`` random Feskot deals in one kernel call (deal i from ``seed + i``, first-dealt seat
        ``first``; random Prime, uniformly random legal cards; every deal is a first game, shuffled).

        Returns ``returns`` and ``tricks`` (n, 2) team tricks, ``winner`` (n,) 0/1, ``prime`` (n,),
        ``n_tricks`` (n,) tricks played.
        """
        first = parse_seat(first)
        if n_deals < 0:
            raise TekkasimError(f"n_deals must be >= 0, not {n_deals}")
        tricks = np.zeros((n_deals, 2), np.int64)
        prime = np.zeros(n_deals, np.int64)
        n_tricks = np.zeros(n_deals, np.int64)
        k.feskot_random(n_deals, k.seed_u64(seed), first, self.options_flags()[0], tricks, prime, n_tricks)
        winner = (tricks[:, 1] > tricks[:, 0]).astype(np.int64)
        return {
            "returns": tricks.astype(np.float64),
            "tricks": tricks,
            "winner": winner,
            "prime": prime,
            "n_tricks": n_tricks,
        }


__all__ = [
    "Feskot",
    "FeskotState",
    "Trick52Game",
    "Trick52State",
    "action_text",
    "parse_action",
    "prime_action",
    "with_signal",
]
