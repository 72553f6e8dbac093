"""The one bit writer of the stored block codecs (LEGAL, CARDS, SHENGJI): values appended LSB first, the
stream's bytes little-endian, exactly what the codecs' earlier byte-at-a-time writers wrote (so stored
blocks read as before).

The writer lives in the caller's locals, ``(acc, nacc, p)``: ``acc`` (uint64) holds ``nacc`` < 64 bits not
yet written, ``p`` whole 64-bit words are out in ``out`` (a uint64 array). A word is stored once per 64
bits, not a byte per 8: in a worker's hot loop (a compiled block's actions) that takes clearly less time
than the byte loop. :func:`finish` writes the last partial word and gives the stream's
length in bytes; :func:`stream_bytes` turns the words into the stream. :class:`BitWriter` is the
pure-Python twin (one big integer), compared in tests.
"""

from __future__ import annotations

import sys
import threading

import numpy as np
from numba import njit

from ..bits import highest

_ZERO = np.uint64(0)


@njit(cache=True, inline="always")
def put(out, acc, nacc, p, value, width):
    """Append the ``width`` (0..64) low bits of ``value`` (which has no higher bits set); returns the
    writer ``(acc, nacc, p)``."""
    v = np.uint64(value)
    acc |= v << np.uint64(nacc)
    nacc += width
    if nacc >= 64:
        out[p] = acc
        p += 1
        nacc -= 64
        # the bits of v that did not fit (none when the word ended exactly with v)
        acc = v >> np.uint64(width - nacc) if nacc > 0 else _ZERO
    return acc, nacc, p


@njit(cache=True, inline="always")
def put_nb(out, acc, nacc, p, value, width):
    """:func:`put` without a jump (the same stream and writer): the word being filled is stored at every
    call, and whether it is full only selects the next ``(acc, nacc, p)``. Slower than :func:`put` in a
    coding loop of its own, but in a play loop (``_trick52_play``), where the word-full test is one more
    hard-to-predict branch among the play's, it cost a Feskot block slightly less."""
    v = np.uint64(value)
    acc |= v << np.uint64(nacc)
    out[p] = acc
    spill = (v >> np.uint64(1)) >> np.uint64(63 - nacc)  # v >> (64 - nacc), defined for nacc = 0 too
    nacc += width
    full = nacc >= 64
    return (spill if full else acc), nacc & 63, p + (1 if full else 0)


@njit(cache=True, inline="always")
def put_symbol(out, acc, nacc, p, s, n):
    """Append symbol ``s`` of ``n`` (0 <= s < n) in truncated binary: with ``k = floor(log2 n)``, the first
    ``2**(k+1) - n`` symbols in ``k`` bits, the others in ``k + 1`` (their low bit last); nothing for n <= 1."""
    if n <= 1:
        return acc, nacc, p
    k = highest(np.uint64(n))
    u = (np.int64(1) << (k + 1)) - n
    if s < u:
        return put(out, acc, nacc, p, s, k)
    return put(out, acc, nacc, p, (u + ((s - u) >> 1)) | (((s - u) & 1) << k), k + 1)


@njit(cache=True, inline="always")
def finish(out, acc, nacc, p):
    """Write the last partial word; the stream's length in bytes."""
    if nacc > 0:
        out[p] = acc
    return p * 8 + (nacc + 7) // 8


_WORK = threading.local()  # per thread: a Dask worker may play blocks in several threads at once


def work_array(name: str, rows: int, dtype, width: int = 0) -> np.ndarray:
    """A scratch array of this thread, ``rows`` long (by ``width``, if given), kept for the next call that
    asks for ``name``: a worker's block buffers are then reused from block to block instead of coming fresh
    from the allocator. What it holds is the caller's until ``name`` is asked for again in this thread, so
    only results copied out of it may be kept."""
    arrays = _WORK.__dict__
    arr = arrays.get(name)
    row = (width,) if width else ()
    if arr is None or arr.shape[0] < rows or arr.shape[1:] != row or arr.dtype != np.dtype(dtype):
        arr = arrays[name] = np.empty((max(rows, 1), width) if width else max(rows, 1), dtype)
    return arr[:rows]


def words(n_bits: int, name: str | None = None) -> np.ndarray:
    """An output buffer for a stream of at most ``n_bits`` bits (one spare word: :func:`put` may store a
    whole word only at its end); with ``name``, this process's :func:`work_array` of that name."""
    if name is not None:
        return work_array(name, n_bits // 64 + 2, np.uint64)
    return np.empty(n_bits // 64 + 2, np.uint64)


def stream_bytes(out: np.ndarray, n_bytes: int, head: bytes = b"") -> bytes:
    """``head`` then the first ``n_bytes`` of the stream in the words ``out`` (little-endian words on any
    machine), copied once."""
    if sys.byteorder != "little":
        out = out.byteswap()
    return b"".join((head, out.view(np.uint8)[:n_bytes]))


class BitWriter:
    """The twin of :func:`put` / :func:`put_symbol` / :func:`finish`, written the obvious way.

    >>> w = BitWriter(); w.put(5, 3); w.put_symbol(4, 5); w.put(1, 2); w.getvalue()  # 101, 111, 10
    b'}'
    """

    def __init__(self):
        self.value, self.pos = 0, 0

    def put(self, value: int, width: int) -> None:
        if value >> width:
            raise ValueError(f"{value} does not fit in {width} bits")
        self.value |= value << self.pos
        self.pos += width

    def put_symbol(self, s: int, n: int) -> None:
        if not 0 <= s < max(n, 1):
            raise ValueError(f"symbol {s} of {n}")
        if n <= 1:
            return
        k = n.bit_length() - 1
        u = (1 << (k + 1)) - n
        if s < u:
            self.put(s, k)
        else:
            self.put((u + ((s - u) >> 1)) | (((s - u) & 1) << k), k + 1)

    def getvalue(self) -> bytes:
        return self.value.to_bytes((self.pos + 7) // 8, "little")
