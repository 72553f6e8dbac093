"""Stored payloads: the CARDS kernel (compiled blocks of Feskot, Tekka and Satat) against ``cards_encode``,
its pure-Python twin, and ``cards_decode`` inverting it; the KINDS kernel (Shengji) against ``pack``;
``unpack`` inverting ``pack`` for every format; blocks decoding to the tables they were made from; the
columns kernel of compiled blocks (``block_columns``) against ``encode_columns`` and ``pair_score``."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.rulesets.shengji.blocks import _kinds_payloads
from tekkasim.rulesets.shengji.bots import _kinds
from tekkasim.tournament._bitstream import stream_bytes, words
from tekkasim.tournament.play import (
    _ESC,
    CARDS,
    TABLES,
    _cards_block,
    _cards_fill,
    block_columns,
    cards_decode,
    cards_encode,
    decode_block,
    decode_columns,
    encode_block,
    encode_columns,
    pack,
    pair_score,
    unpack,
)

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
def deals_of_actions(draw):
    """Two tables' deals of integer actions: card plays (plain or signalled, fresh or repeated) mixed with
    other actions, as padded arrays and as lists."""
    n = draw(st.integers(1, 5))
    card = st.integers(0, 51)
    any_action = st.one_of(card, card, st.integers(0, 155), st.integers(-3, 700))
    lists = [draw(st.lists(any_action, max_size=60)) for _ in range(2 * n)]
    width = max(1, max(len(a) for a in lists))
    arrays = np.full((2 * n, width), -1, np.int64)
    for i, a in enumerate(lists):
        arrays[i, : len(a)] = a
    lengths = np.array([len(a) for a in lists], np.int64)
    return n, lists, arrays, lengths


@settings(max_examples=150, deadline=None)
@given(deals_of_actions(), st.sampled_from([1, 3]))
def test_cards_kernel_writes_what_its_twin_writes_and_decodes_back(block, mult):
    n, lists, arrays, lengths = block
    flat = [v for a in lists for v in a]
    lo = min([0, *flat])
    width = (max([0, *flat]) - lo).bit_length()
    out = words(sum(map(len, lists)) * (8 + width))
    used = _cards_fill(arrays[:n], lengths[:n], arrays[n:], lengths[n:], lo, width, mult, out)
    twin = cards_encode(lists, lo, width, mult)
    assert stream_bytes(out, used) == twin
    assert cards_decode(twin, lengths.tolist(), lo, width, mult) == lists
    best = _cards_block(arrays[:n], lengths[:n], arrays[n:], lengths[n:])
    head = _ESC.unpack_from(best, 0)
    assert cards_decode(best[_ESC.size :], lengths.tolist(), *head) == lists


@settings(max_examples=60, deadline=None)
@given(deals_of_actions(), st.integers(0, 2**40), st.booleans())
def test_a_block_decodes_to_the_tables_it_was_made_from(block, seed, halves):
    n, lists, _arrays, _lengths = block
    start = 3
    returns = [(float(i % 7), 0.5 if halves and i == 0 else float(-i)) for i in range(2 * n)]
    tables = []
    for i, actions in enumerate(lists):
        t, b = divmod(i, n)
        xr, yr = returns[i]
        ra, rb = (xr, yr) if t == 0 else (yr, xr)
        tables.append((xr, yr, [[seed + start + b, ra, rb, actions]]))
    blk = encode_block(0, start, start + n, seed, "deal", tables)
    assert blk.codec == CARDS
    decoded = list(decode_block(start, start + n, seed, blk.codec, blk.columns, blk.payload))
    assert decoded == [(start + b, t, *tables[t * n + b]) for b in range(n) for t in (0, 1)]
    match = encode_block(0, start, start + n, seed, "match", tables)  # a match unit keeps whole payloads
    assert match.codec == TABLES
    assert list(decode_block(start, start + n, seed, match.codec, match.columns, match.payload)) == decoded


def test_unpack_inverts_pack_in_every_format():
    ints = [[3, 1.0, 0.0, [5, -1, 32767]], [4, 0.5, 0.5, []]]
    kinds = [[3, 2.0, 0.0, [[1, 1, 2], [], [53]]], [9, 0.0, 3.0, [[0]]]]
    other = [[3, 1.0, 0.0, [[300, 2]]], [4, 0.0, 0.0, ["text"]]]
    for deals, fmt in ((ints, 1), (kinds, 2), (other, 0x78)):
        payload = pack(deals)
        assert payload[0] == fmt and unpack(payload) == deals


_RETURN = st.one_of(
    st.integers(-40, 40),
    st.sampled_from([-32769, -32768, 32767, 32768, 10**12]),  # int16's edges and beyond: float64 columns
    st.floats(-1e6, 1e6, allow_nan=False),  # a non-integer return: float64 columns
)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 40).flatmap(
        lambda h: st.tuples(
            st.lists(st.tuples(_RETURN, _RETURN), min_size=2 * h, max_size=2 * h),
            st.lists(st.integers(0, 2**31 - 1), min_size=2 * h, max_size=2 * h),
        )
    ),
    st.sampled_from([np.int64, np.float64]),
    st.booleans(),
)
def test_block_columns_kernel_writes_what_encode_columns_writes(tables, dtype, small_only):
    returns, lengths = tables
    if small_only:
        returns = [(int(a) % 300 - 150, int(b) % 300 - 150) for a, b in returns]
    rets = np.array(returns, np.float64).reshape(-1, 2)
    if dtype is np.int64:
        rets = np.round(rets).clip(-(2**62), 2**62)
    r = rets.astype(dtype)
    h = len(r) // 2
    n = np.array(lengths, np.int64)
    columns, score = block_columns(r[:h], r[h:], n[:h], n[h:])
    xr = np.concatenate([r[:h, 0], r[h:, 1]]).astype(np.float64)
    yr = np.concatenate([r[:h, 1], r[h:, 0]]).astype(np.float64)
    assert columns == encode_columns(xr, yr, np.ones(2 * h, np.int64), n)
    assert score == pair_score(xr, yr)
    got = decode_columns(columns)
    assert got[0].tolist() == xr.tolist() and got[1].tolist() == yr.tolist() and got[3].tolist() == n.tolist()
