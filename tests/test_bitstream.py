"""The one bit writer of the block codecs (``tournament._bitstream``): the compiled writer, word by word,
writes the bytes its pure-Python twin writes (and the earlier byte-at-a-time writers wrote), for any mix
of values, widths and truncated binary symbols; ``stream_bytes`` puts a header before the stream; the
work arrays a worker keeps between blocks are its thread's own."""

from __future__ import annotations

import threading

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from tekkasim.tournament._bitstream import BitWriter, finish, put, put_nb, put_symbol, stream_bytes, words, work_array


@njit(cache=True)
def _write(kinds, a, b, out):
    """Write each item: kind 0 = ``put(a, b)`` (value, width), kind 1 = ``put_symbol(a, b)`` (symbol of b)."""
    acc = np.uint64(0)
    nacc = 0
    p = 0
    for i in range(kinds.shape[0]):
        if kinds[i] == 0:
            acc, nacc, p = put(out, acc, nacc, p, a[i], b[i])
        else:
            acc, nacc, p = put_symbol(out, acc, nacc, p, a[i], b[i])
    return finish(out, acc, nacc, p)


@njit(cache=True)
def _write_nb(a, b, out):
    """Write each value ``a[i]`` in ``b[i]`` bits with ``put_nb``."""
    acc = np.uint64(0)
    nacc = 0
    p = 0
    for i in range(a.shape[0]):
        acc, nacc, p = put_nb(out, acc, nacc, p, a[i], b[i])
    return finish(out, acc, nacc, p)


def _value(width: int):
    return st.integers(0, (1 << width) - 1).map(lambda v, w=width: (0, v, w))


_items = st.one_of(
    st.integers(0, 63).flatmap(_value),
    st.integers(1, 2**62).flatmap(lambda n: st.integers(0, n - 1).map(lambda s, n=n: (1, s, n))),
)


def _byte_writer(items) -> bytes:
    """The writers' earlier form (a byte out per 8 bits held), for the value items only."""
    out, acc, nacc = bytearray(), 0, 0
    for _kind, v, w in items:
        acc |= v << nacc
        nacc += w
        while nacc >= 8:
            out.append(acc & 255)
            acc >>= 8
            nacc -= 8
    if nacc:
        out.append(acc)
    return bytes(out)


@settings(max_examples=300, deadline=None)
@given(st.lists(_items, max_size=80))
def test_the_compiled_writer_writes_what_the_twin_writes(items):
    kinds = np.array([k for k, _, _ in items], np.int64)
    a = np.array([v for _, v, _ in items], np.int64)
    b = np.array([w for _, _, w in items], np.int64)
    out = words(64 * len(items))
    used = _write(kinds, a, b, out)
    twin = BitWriter()
    for kind, v, w in items:
        (twin.put if kind == 0 else twin.put_symbol)(v, w)
    assert stream_bytes(out, used) == twin.getvalue()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 63).flatmap(_value), max_size=80))
def test_the_word_writer_writes_the_bytes_the_byte_writer_wrote(items):
    out = words(64 * len(items))
    n = len(items)
    used = _write(
        np.zeros(n, np.int64),
        np.array([v for _, v, _ in items], np.int64),
        np.array([w for *_, w in items], np.int64),
        out,
    )
    assert stream_bytes(out, used) == _byte_writer(items)


def test_stream_bytes_puts_the_head_first():
    out = words(128)
    out[:2] = [0x0706050403020100, 0x0F0E0D0C0B0A0908]
    assert stream_bytes(out, 10, b"\xff") == b"\xff" + bytes(range(10))


def test_work_arrays_are_kept_per_name_and_thread():
    a = work_array("test", 10, np.int64)
    assert work_array("test", 5, np.int64).base is a.base  # kept: a smaller request is a view of it
    assert work_array("test", 3, np.int64, 4).shape == (3, 4)  # another shape: a new one
    other = []
    thread = threading.Thread(target=lambda: other.append(work_array("test", 10, np.int64)))
    thread.start()
    thread.join()
    assert other[0].base is not a.base and not np.shares_memory(other[0], a)


_values64 = st.integers(0, 64).flatmap(lambda w: st.integers(0, (1 << w) - 1).map(lambda v, w=w: (v, w)))


@settings(max_examples=300, deadline=None)
@given(st.lists(_values64, max_size=80))
def test_the_writer_without_a_jump_writes_what_the_twin_writes(items):
    out = words(64 * len(items))
    values = np.array([v for v, _ in items], np.uint64)
    used = _write_nb(values, np.array([w for _, w in items], np.int64), out)
    twin = BitWriter()
    for v, w in items:
        twin.put(v, w)
    assert stream_bytes(out, used) == twin.getvalue()
