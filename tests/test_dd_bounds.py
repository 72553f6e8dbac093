"""Each pruning rule of the double-dummy search, checked alone against the plain minimax twin.

The solver-against-minimax tests check the whole search; these check that every bound the search cuts on
is true by itself on many small random positions (a bound that is only "usually" true would make the
solver wrong on rare deals), and that each rule fires often enough here for the check to mean something.
"""

import random

import numpy as np
import pytest
from test_dd import random_position

from tekkasim.reference import dd as ref
from tekkasim.solver import _dd_kernels as K


def _state(hs):
    st = np.zeros(K.TT_OFF, dtype=np.uint64)
    for i, h in enumerate(hs):
        st[i] = np.uint64(sum(1 << c for c in h))
    return st


def _side_value(hs, trump, leader, table, satat, side):
    """Tricks of ``side`` (0 = A, 1 = B) among the tricks left, with perfect play."""
    a = ref.team_a_tricks(hs, trump, leader, table, satat)
    n = max(len(h) for h in hs)
    return a if side == 0 else n - a


@pytest.mark.parametrize("satat", [False, True], ids=["standard", "satat"])
def test_trick_start_bounds_hold(satat):
    rnd = random.Random(77 + satat)
    variant = K.SATAT if satat else K.STANDARD
    fired = {"quick": 0, "sure": 0, "loses": 0}
    for _ in range(300):
        # four-card endings cost the minimax twin ~0.2 s each against a few ms for three: a few of them
        n = 4 if rnd.random() < 0.03 else rnd.randint(2, 3)
        hs, trump, leader, table, _ = random_position(rnd, n, satat)
        hs = [set(h) for h in hs]
        # a trick start: the cards on the table go back to the hands that played them
        seat = leader
        for c in table:
            hs[seat].add(c)
            seat = ref.next_seat(seat, satat)
        if satat and trump == 4:
            continue
        st = _state(hs)
        rem = np.uint64(int(st[0] | st[1] | st[2] | st[3]))
        side = leader & 1
        a = ref.team_a_tricks(hs, trump, leader, (), satat)
        value = (a, n - a)  # tricks of team A and of team B
        lead_side = value[side]
        q, _ = K.quick_tricks(st, rem, leader, trump, variant, n)
        assert lead_side >= q, (hs, trump, leader, q)
        fired["quick"] += q > 0
        for s in (0, 1):
            k, _ = K.sure_trumps(st, rem, s, trump, variant, n)
            assert value[s] >= k, (hs, trump, leader, s, k)
            fired["sure"] += k > 0
        lost, _ = K.leader_loses_trick(st, rem, leader, trump, variant)
        if lost:
            assert lead_side <= n - 1, (hs, trump, leader)
            fired["loses"] += 1
    assert fired["quick"] > 30 and fired["sure"] > 60
    if not satat:
        assert fired["loses"] > 10


@pytest.mark.parametrize("satat", [False, True], ids=["standard", "satat"])
def test_second_hand_sure_winner_holds(satat):
    rnd = random.Random(91 + satat)
    variant = K.SATAT if satat else K.STANDARD
    fired = 0
    for _ in range(1500):
        n = rnd.randint(1, 4)
        hs, trump, leader, table, to_move = random_position(rnd, n, satat)
        if len(table) != 1:
            continue
        lead = ref.led_suit(table[0], trump, satat)
        if lead is None or lead >= 4:
            continue
        st = _state(hs)
        sure, _ = K.second_hand_wins(st, to_move, lead, np.uint64(1 << table[0]), trump, variant)
        if sure:
            fired += 1
            # the second hand's side takes at least this trick
            assert _side_value(hs, trump, leader, table, satat, to_move & 1) >= 1, (hs, trump, leader, table)
    assert fired > 30
