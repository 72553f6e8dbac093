"""Stored table payloads: the BINARY and KINDS kernels (compiled blocks of Feskot, Tekka and Satat, and of
Shengji) against ``pack``, their pure-Python twin, and ``unpack`` inverting ``pack`` for every format."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.bots.shengji import _kinds
from tekkasim.tournament.play import _binary_payloads, _kinds_payloads, pack, unpack

FULL = (1 << 54) - 1


def assert_payloads_are_packs(buf, starts, ends, deals) -> None:
    """A kernel's one-deal payloads lie end to end in ``buf``, each the bytes ``pack`` writes for its deal,
    and ``unpack`` gives the deal back (tuples of kinds as lists)."""
    assert starts[0] == 0 and ends[-1] == len(buf) and (starts[1:] == ends[:-1]).all()
    for deal, a, b in zip(deals, starts, ends, strict=True):
        assert buf[a:b] == pack([deal])
        assert unpack(buf[a:b]) == [[*deal[:3], [list(x) if isinstance(x, tuple) else x for x in deal[3]]]]


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
    deals = []
    for i, seed in enumerate(seeds):
        actions = [_kinds(int(one), int(two)) for one, two in masks[i, : lengths[i]]]
        deals.append([seed, float(returns[i, 0]), float(returns[i, 1]), actions])
    assert_payloads_are_packs(*_kinds_payloads(seeds, returns, masks, lengths), deals)


@st.composite
def int_blocks(draw):
    n = draw(st.integers(1, 6))
    width = draw(st.integers(0, 10))
    actions = np.array([[draw(st.integers(-32768, 32767)) for _ in range(width)] for _ in range(n)], np.int64).reshape(
        n, width
    )
    lengths = np.array([draw(st.integers(0, width)) for _ in range(n)], np.int64)
    returns = np.array(
        [[draw(st.floats(-200, 200, allow_nan=False)), draw(st.sampled_from([0.0, 0.5, 7.0, -52.0]))] for _ in range(n)]
    )
    return draw(st.integers(0, 2**62)), returns, actions, lengths


@settings(max_examples=150, deadline=None)
@given(int_blocks())
def test_binary_kernel_writes_what_pack_writes(block):
    first, returns, actions, lengths = block
    deals = [
        [first + i, float(returns[i, 0]), float(returns[i, 1]), actions[i, : lengths[i]].tolist()]
        for i in range(len(lengths))
    ]
    assert_payloads_are_packs(*_binary_payloads(first, returns, actions, lengths), deals)


def test_binary_kernel_refuses_an_action_outside_int16():
    returns = np.zeros((2, 2))
    for bad in (32768, -32769):
        actions = np.array([[1, 2], [bad, 0]], np.int64)
        assert _binary_payloads(5, returns, actions, np.array([2, 1]))[0] is None
    beyond_length = np.array([[1, 2], [99999, 0]])  # actions past a deal's length are never read
    assert _binary_payloads(5, returns, beyond_length, np.array([2, 0]))[0] is not None


def test_unpack_inverts_pack_in_every_format():
    ints = [[3, 1.0, 0.0, [5, -1, 32767]], [4, 0.5, 0.5, []]]
    kinds = [[3, 2.0, 0.0, [[1, 1, 2], [], [53]]], [9, 0.0, 3.0, [[0]]]]
    other = [[3, 1.0, 0.0, [[300, 2]]], [4, 0.0, 0.0, ["text"]]]
    for deals, fmt in ((ints, 1), (kinds, 2), (other, 0x78)):
        payload = pack(deals)
        assert payload[0] == fmt and unpack(payload) == deals
