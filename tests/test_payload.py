"""Stored table payloads: the KINDS kernel (compiled Shengji blocks) against ``pack``, its pure-Python twin,
and ``unpack`` inverting ``pack`` for every format."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.bots.shengji import _kinds
from tekkasim.tournament.play import _kinds_payloads, pack, unpack

FULL = (1 << 54) - 1


@st.composite
def blocks(draw):
    n = draw(st.integers(1, 5))
    width = draw(st.integers(1, 12))
    masks = np.zeros((n, width, 2), np.uint64)
    lengths = np.zeros(n, np.int64)
    for i in range(n):
        lengths[i] = draw(st.integers(1, width))  # a Shengji deal has actions (with none, pack writes BINARY)
        for a in range(width):
            one = draw(st.integers(0, FULL))
            two = one & draw(st.integers(0, FULL))  # a kind held twice is held
            masks[i, a] = (one, two)
    start = draw(st.integers(0, 2**62))
    returns = np.array([[draw(st.integers(-6, 6)), draw(st.integers(-6, 6))] for _ in range(n)], np.float64)
    return range(start, start + n), returns, masks, lengths


@settings(max_examples=100, deadline=None)
@given(blocks())
def test_kinds_kernel_writes_what_pack_writes(block):
    seeds, returns, masks, lengths = block
    buf, starts, ends = _kinds_payloads(seeds, returns, masks, lengths)
    assert starts[0] == 0 and ends[-1] == len(buf) and (starts[1:] == ends[:-1]).all()
    for i, seed in enumerate(seeds):
        actions = [_kinds(int(one), int(two)) for one, two in masks[i, : lengths[i]]]
        deal = [seed, float(returns[i, 0]), float(returns[i, 1]), actions]
        assert buf[starts[i] : ends[i]] == pack([deal])
        assert unpack(buf[starts[i] : ends[i]]) == [[*deal[:3], [list(a) for a in actions]]]


def test_unpack_inverts_pack_in_every_format():
    ints = [[3, 1.0, 0.0, [5, -1, 32767]], [4, 0.5, 0.5, []]]
    kinds = [[3, 2.0, 0.0, [[1, 1, 2], [], [53]]], [9, 0.0, 3.0, [[0]]]]
    other = [[3, 1.0, 0.0, [[300, 2]]], [4, 0.0, 0.0, ["text"]]]
    for deals, fmt in ((ints, 1), (kinds, 2), (other, 0x78)):
        payload = pack(deals)
        assert payload[0] == fmt and unpack(payload) == deals
