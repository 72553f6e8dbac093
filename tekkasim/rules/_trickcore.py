"""The 52-card trick rules, compiled, in one place: which cards may be played, which card wins, who plays
next. Feskot and Tekka (``_trick52``), Satat (``_satat_kernels``) and the double-dummy solver
(``solver._dd_kernels``) all call these functions; none keeps a copy of its own.

Two variants, passed as the last argument:

``PRIME_RULES`` (0)   Feskot and Tekka: play goes counter-clockwise (seat + 1); follow the led suit if able,
                      else any card; the highest trump (Prime) wins, else the highest card of the led suit.
``TROUPE_RULES`` (1)  Satat: play goes clockwise (seat + 3); 2♥ wins every trick it is in, is never a heart
                      for following and may always be played; a 2♥ lead asks for Troupe (the trump).

Every function is ``@njit(cache=True, inline="always")``: a kernel that passes the variant as a constant
(the rules kernels) gets the other variant's branches folded away by LLVM; the solver passes it as a
runtime argument, as it always has. A trump of 4 means no trump (the solver's no-trump deals).

Cards are ``suit * 13 + rank`` (``cards.py``: rank 0 = 2 .. 12 = ace; suits C D H S), hands 52-card uint64
masks, seats 0..3 (bottom, right, top, left). Twins: ``reference.feskot`` (Prime rules),
``reference.satat`` (Troupe rules) and ``reference.dd`` (both), compared in ``tests/test_trick_core.py``.

Constants defined here because ``cards.py`` has them only as Python ints: ``B2H``/``NOT_B2H`` (2♥ as a
uint64 mask and its complement within the deck), ``SUIT13`` (the 13 bits of a suit).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import FULL_DECK, SUIT_MASKS, TWO_OF_HEARTS

PRIME_RULES = 0
TROUPE_RULES = 1
NO_SUIT = 4  # suit to follow when any card may be played (a Satat 2♥ lead with no trump)

TWO_HEARTS = TWO_OF_HEARTS
B2H = np.uint64(1 << TWO_OF_HEARTS)
NOT_B2H = np.uint64(FULL_DECK ^ (1 << TWO_OF_HEARTS))
SUIT13 = np.uint64(SUIT_MASKS[0])


@njit(cache=True, inline="always")
def rule_suit(s, variant):
    """The cards of suit ``s`` that count for following (and for runs of equal cards): the whole suit,
    but never 2♥ under Troupe rules."""
    m = SUIT13 << np.uint64(13 * s)
    if variant == TROUPE_RULES:
        m &= NOT_B2H
    return m


@njit(cache=True, inline="always")
def next_seat(seat, variant):
    """The seat that plays after ``seat``: counter-clockwise under Prime rules, clockwise under Troupe."""
    if variant == TROUPE_RULES:
        return (seat + 3) & 3
    return (seat + 1) & 3


@njit(cache=True, inline="always")
def seat_at(leader, j, variant):
    """The seat that makes play ``j`` (0 = the lead) of a trick led by ``leader``."""
    if variant == TROUPE_RULES:
        return (leader + 3 * j) & 3
    return (leader + j) & 3


@njit(cache=True, inline="always")
def lead_suit_of(c, trump, variant):
    """The suit to follow after card ``c`` is led: its suit, or under Troupe rules after a 2♥ lead the
    trump (``NO_SUIT`` when there is none)."""
    if variant == TROUPE_RULES and c == TWO_HEARTS:
        return trump
    return c // 13


@njit(cache=True, inline="always")
def legal_mask(hand, pos, lead, variant):
    """The cards of ``hand`` that may be played at position ``pos`` (0 = the lead) of a trick whose suit to
    follow is ``lead`` (``lead_suit_of`` the led card; a value outside 0..3 means any card)."""
    if pos == 0 or lead < 0 or lead >= 4:
        return hand
    f = hand & rule_suit(lead, variant)
    if f != np.uint64(0):
        if variant == TROUPE_RULES:
            return f | (hand & B2H)
        return f
    return hand


@njit(cache=True, inline="always")
def strength(c, trump, lead, variant):
    """How strongly card ``c`` bids for a trick whose suit to follow is ``lead``: 0 cannot win, else the
    higher wins (led suit 20 + rank, trump 40 + rank, Troupe rules' 2♥ 100)."""
    if variant == TROUPE_RULES and c == TWO_HEARTS:
        return 100
    s = c // 13
    if s == trump:
        return 40 + c % 13
    if s == lead:
        return 20 + c % 13
    return 0


@njit(cache=True, inline="always")
def winning_play(c0, c1, c2, c3, trump, variant):
    """Position (0 = the lead) of the card that wins the complete trick ``c0 c1 c2 c3`` (in play order)."""
    lead = lead_suit_of(c0, trump, variant)
    best = 0
    best_strength = strength(c0, trump, lead, variant)
    v = strength(c1, trump, lead, variant)
    if v > best_strength:
        best, best_strength = 1, v
    v = strength(c2, trump, lead, variant)
    if v > best_strength:
        best, best_strength = 2, v
    v = strength(c3, trump, lead, variant)
    if v > best_strength:
        best = 3
    return best


@njit(cache=True, inline="always")
def trick_winner(c0, c1, c2, c3, leader, trump, variant):
    """The seat that wins the complete trick ``c0 c1 c2 c3`` (in play order) led by ``leader``."""
    return seat_at(leader, winning_play(c0, c1, c2, c3, trump, variant), variant)


__all__ = [
    "B2H",
    "NOT_B2H",
    "NO_SUIT",
    "PRIME_RULES",
    "SUIT13",
    "TROUPE_RULES",
    "TWO_HEARTS",
    "lead_suit_of",
    "legal_mask",
    "next_seat",
    "rule_suit",
    "seat_at",
    "strength",
    "trick_winner",
    "winning_play",
]
