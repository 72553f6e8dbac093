"""GREEDY for Spades: a baseline that reads only its seat's observation.

Bidding: its count of sure-ish tricks, at least 1 and at most 13 (it never bids Nil):

* each Ace of clubs, diamonds or hearts: 1;
* each King of those suits with at least one other card of its suit (a guarded King): 1;
* each of the Ace, King and Queen of spades: 1;
* each spade beyond the third: 1.

Play, as tekkasim's GREEDY of the other rulesets: when its partner is not already winning the trick, it
wins the trick with its cheapest card that does (a card of the suit led before a spade, then the lowest
rank); otherwise, or when no card of its wins, it throws its lowest card (a side card before a spade, then
the lowest rank, then clubs before diamonds before hearts). On lead: an Ace of a side suit if it may lead
one (clubs first), else its lowest card. No memory, no Nil play, no count of bags.
"""

from __future__ import annotations

import numpy as np

from tekkasim.bots.base import MISTAKE_RATE, Bot, View, maybe_mistake
from tekkasim.cards import SPADES, partner_of

from .game import BID_BASE, TRICKS, power

ACE, KING, QUEEN = 12, 11, 10


def sure_tricks(hand: int) -> int:
    """The count GREEDY bids from (module notes), for a 52-card mask."""
    n = 0
    for suit in range(4):
        ranks = [r for r in range(13) if hand >> (13 * suit + r) & 1]
        if suit == SPADES:
            n += sum(r in ranks for r in (ACE, KING, QUEEN)) + max(0, len(ranks) - 3)
        else:
            n += (ACE in ranks) + (KING in ranks and len(ranks) >= 2)
    return n


def greedy_bid(hand: int) -> int:
    """GREEDY's bid (1..13) for a hand."""
    return min(TRICKS, max(1, sure_tricks(hand)))


def _low_key(card: int) -> tuple[int, int, int]:
    suit, rank = divmod(card, 13)
    return (suit == SPADES, rank, suit)


def greedy_card(seat: int, cards: list[int], tricks: list[dict]) -> int:
    """GREEDY's card among the legal ``cards``, given the observation's ``tricks``."""
    trick = tricks[-1]["plays"] if tricks and tricks[-1]["winner"] is None else []
    if not trick:
        aces = [c for c in cards if c % 13 == ACE and c // 13 != SPADES]
        return min(aces) if aces else min(cards, key=_low_key)
    led = trick[0][1] // 13
    best_seat, best = max(trick, key=lambda p: power(p[1], led))
    if best_seat != partner_of(seat):
        winning = [c for c in cards if power(c, led) > power(best, led)]
        if winning:
            return min(winning, key=lambda c: power(c, led))
    return min(cards, key=_low_key)


class Greedy(Bot):
    """GREEDY (module notes): bids its sure-ish tricks, wins a trick as cheaply as it can unless partner
    is winning it, else throws its lowest card."""

    name = "GREEDY"
    kind = "baseline"
    rulesets = ("spades",)
    description = (
        "baseline: bids its sure-ish tricks (side Aces, guarded Kings, AKQ of spades, spades beyond three), "
        "wins a trick as cheaply as it can unless partner is winning, else throws its lowest card"
    )
    params_spec = (MISTAKE_RATE,)

    def act(self, view: View, rng: np.ndarray) -> int | None:
        if view.optional:
            return None
        slip = maybe_mistake(self, view, rng)
        if slip is not None:
            return slip
        obs = view.observation
        if obs.phase == "bid":
            bid = BID_BASE + greedy_bid(obs.hand)
            return bid if bid in view.legal else view.legal[-1]
        return greedy_card(view.seat, [a for a in view.legal if a < 52], obs.public["tricks"])


__all__ = ["Greedy", "greedy_bid", "greedy_card", "sure_tricks"]
