"""Compiled helpers of the Satat search (``satat.SatatAdapter``): inference from the other seats' card plays.

:func:`play_weight` weighs a world by how likely it makes the card plays of the seats other than ``me``
if every seat played like the rollout policy (JANGARA without accusations): the round is replayed from its
first card with the world's hands, and every play with a choice that the policy would not have made (nor
one interchangeable with it, :func:`same_class`) multiplies the weight by ``miss``. A world in which the
other seats' plays look like a sensible player's is kept more often: the Skat programs' main gain over
plain sampling, here on a model of the other seats. Its slow twin is the State-API replay in
``tests/test_satat_search.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tekkasim.bits import ONE, ZERO, bit, highest, lowest, popcount
from tekkasim.rules._trickcore import NOT_B2H, SUIT13, TROUPE_RULES, lead_suit_of, legal_mask, seat_at, trick_winner
from tekkasim.rulesets.satat import _kernels as K
from tekkasim.rulesets.satat import _policy as sp


@njit(cache=True, _nrt=False)
def same_class(a, b, hand, gone):
    """Whether cards ``a`` and ``b`` are interchangeable for a seat holding ``hand`` with the cards ``gone``
    played: the same card, or of one suit with only the seat's own or played cards between them (the 2♥
    is a class of its own: it beats everything and never counts as a heart)."""
    if a == b:
        return True
    if a == sp.TWO_HEARTS or b == sp.TWO_HEARTS or a // 13 != b // 13:
        return False
    lo, hi = min(a, b), max(a, b)
    known = hand | gone
    for c in range(lo + 1, hi):
        if c != sp.TWO_HEARTS and (known >> np.uint64(c)) & np.uint64(1) == 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def play_weight(p, hands, st, me, score, miss, h0, scratch, rng):
    """The weight of the world (``hands``, ``st``: kernel arrays in the play phase) under the model "every
    seat other than ``me`` plays like policy ``p``": each of their plays with more than one rule-following
    card that is not interchangeable with the policy's card costs a factor ``miss`` (a Renonce never is
    the policy's card). ``h0`` (4 uint64) and ``scratch`` (``K.ST_SIZE`` int64) are work arrays; ``score``
    the match points before the round, as the policy reads them."""
    n_cards = 4 * st[K.TRICK] + st[K.N_TABLE]
    for s in range(4):
        h0[s] = hands[s]
    for i in range(n_cards):  # the hands at the first card: now plus every card played since
        c = st[K.PLAYS + i]
        h0[sp._seat_at(st[K.LEADERS + i // 4], i % 4)] |= bit(c)
    K.init_round(scratch, st[K.TROUPE], st[K.LEADERS])
    played, voids, proven = ZERO, 0, 0
    w = 1.0
    for i in range(n_cards):
        seat = scratch[K.TO_MOVE]
        c = st[K.PLAYS + i]
        if seat != me:
            lm = sp.legal_cards(h0[seat], scratch)
            if popcount(lm) > 1:
                model = sp.card_decide_k(p, h0[seat], scratch, seat, score, rng, played, voids, proven)
                if not same_class(model, c, h0[seat], played):
                    w *= miss
        K.play_card(h0, scratch, c)
        played, voids, proven = sp._learn_last(scratch, seat, c, played, voids, proven)
    return w


TWO_HEARTS_CARD = sp.TWO_HEARTS
RUN_TABLE = 28  # the cards of up to 7 tricks, 4 per trick (``wins_run``'s work array)


@njit(cache=True, inline="always")
def _run_twin_below(c, hand, legal, live):
    """Whether ``c`` has a lower card of its suit in ``legal`` with no ``live`` card (held by anyone or on
    the table) between them: the two win and lose the same tricks, so only the lower one is searched (the
    2♥ is a class of its own)."""
    if c == TWO_HEARTS_CARD:
        return False
    below_c = live & NOT_B2H & (SUIT13 << np.uint64(13 * (c // 13))) & ((ONE << np.uint64(c)) - ONE)
    if below_c == ZERO:
        return False
    return (hand & legal) >> np.uint64(highest(below_c)) & ONE != ZERO


@njit(cache=True)
def wins_run(hands, troupe, leader, table, n, side, k):
    """Whether team ``side`` (0 = A) can make sure, every card open, of winning each of the next ``k``
    tricks (the one on the table first, led by ``leader`` with its ``n`` cards, 0..4, in
    ``table[4 (k - 1) :]``): a KOT still to be made needs the tricks up to the seventh in a row, which no
    count of the deal's tricks answers. ``hands`` (4 uint64) and ``table`` (``RUN_TABLE`` int64) are
    restored on return. AND-OR search over the rule-following cards (a Renonce is never searched), with
    an explicit stack: numba's cache does not keep recursive functions safely."""
    top = 4 * k + 1
    rem = np.zeros(top, np.uint64)
    cards = np.zeros(top, np.int64)
    seats = np.zeros(top, np.int64)
    leaders = np.zeros(top, np.int64)
    ns = np.zeros(top, np.int64)
    ks = np.zeros(top, np.int64)
    legals = np.zeros(top, np.uint64)
    # a node complete at its 4th card: the trick decides (lost: False; the k-th won: True) or the next is led
    while n == 4:
        o = 4 * (k - 1)
        w = trick_winner(table[o], table[o + 1], table[o + 2], table[o + 3], leader, troupe, TROUPE_RULES)
        if w & 1 != side:
            return False
        if k == 1:
            return True
        leader, n, k = w, 0, k - 1
    d = 0
    seats[0], leaders[0], ns[0], ks[0] = seat_at(leader, n, TROUPE_RULES), leader, n, k
    lead = lead_suit_of(table[4 * (k - 1)], troupe, TROUPE_RULES) if n > 0 else -1
    rem[0] = legal_mask(hands[seats[0]], n, lead, TROUPE_RULES)
    legals[0] = rem[0]
    while True:
        seat = seats[d]
        ours = seat & 1 == side
        if rem[d] == ZERO:
            r = not ours  # no card kept the run (ours) or broke it (theirs)
        else:
            c = lowest(rem[d])
            rem[d] &= ~bit(c)
            live = hands[0] | hands[1] | hands[2] | hands[3]
            o = 4 * (ks[d] - 1)
            for j in range(ns[d]):
                live |= bit(table[o + j])
            if _run_twin_below(c, hands[seat], legals[d], live):
                continue
            cards[d] = c
            hands[seat] &= ~bit(c)
            lead_c, n_c, k_c = leaders[d], ns[d] + 1, ks[d]
            table[4 * (k_c - 1) + ns[d]] = c
            r = -1  # the child's value: -1 while it is to be searched
            while n_c == 4:
                o = 4 * (k_c - 1)
                w = trick_winner(table[o], table[o + 1], table[o + 2], table[o + 3], lead_c, troupe, TROUPE_RULES)
                if w & 1 != side:
                    r = 0
                    break
                if k_c == 1:
                    r = 1
                    break
                lead_c, n_c, k_c = w, 0, k_c - 1
            if r < 0:
                d += 1
                seats[d], leaders[d], ns[d], ks[d] = seat_at(lead_c, n_c, TROUPE_RULES), lead_c, n_c, k_c
                lead = lead_suit_of(table[4 * (k_c - 1)], troupe, TROUPE_RULES) if n_c > 0 else -1
                rem[d] = legal_mask(hands[seats[d]], n_c, lead, TROUPE_RULES)
                legals[d] = rem[d]
                continue
            hands[seat] |= bit(c)
            if (r == 1) != ours:
                continue  # this card did not settle the node: try the next
            r = ours  # the node's value: one card kept the run (ours) or broke it (theirs)
        # node d returns r: unwind while the parent is settled by it
        while True:
            if d == 0:
                return bool(r)
            d -= 1
            hands[seats[d]] |= bit(cards[d])
            if bool(r) == (seats[d] & 1 == side):
                continue
            break


__all__ = ["RUN_TABLE", "play_weight", "same_class", "wins_run"]
