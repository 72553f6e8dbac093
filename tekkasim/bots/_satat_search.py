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

from ..bits import ZERO, bit, popcount
from ..rules import _satat_kernels as K
from . import _satat_policy as sp


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


__all__ = ["play_weight", "same_class"]
