"""A compiled Satat block played in one kernel call that keeps only what the CARDS codec (``play``) needs:
the rounds of ``bots.satat.play_tables`` at both tables, their actions as int16 rows (a quarter of the
(boards, 56) int64 arrays ``play_tables`` fills with -1 and returns, so that they stay in the cache for the
coding pass) and the range of their values (no separate pass over the actions to find it).

The coding itself stays a separate pass (``play._cards_fill``) over the whole block once it is played:
the block's header (the escape values' base and width, and ``mult``) depends on all of its rounds, and
writing each round's symbols as it is played cost the worker more than the pass, not less (the short
coding loop, run between two rounds' play, loses its branch history; docs/benchmarks.md).
The bytes are those of ``play._cards_block`` (tested). That pass
and the block's columns (``play._columns_fill``) run in the same kernel call as the play
(:func:`satat_play_code`), into buffers the worker keeps from block to block.
"""

from __future__ import annotations

import functools
import zlib

import numpy as np
from numba import njit

from tekkasim.bits import highest
from tekkasim.rulesets.satat import _kernels as K
from tekkasim.rulesets.satat import _policy as sp
from tekkasim.rulesets.satat.bots import MAX_ROUND_ACTIONS
from tekkasim.tournament._bitstream import stream_bytes, words, work_array
from tekkasim.tournament.play import _ESC, _cards_fill, _columns_fill, block_columns

_INT16_MIN, _INT16_MAX = -32768, 32767
_TRIAL = 64  # ``play._cards_block`` chooses ``mult`` on each table's first 64 deals


@njit(cache=True, _nrt=False)
def satat_play_keep(px, py, seeds, comp, n_actions, returns, stats, scratch):
    """Play the first round of each board seed at table 0 then table 1 exactly as ``sp.play_rounds_kernel``
    does (``px`` team X's policy, bottom/top at table 0); keep each round's actions in ``comp`` (int16
    rows), its action count and (points A, points B) in ``n_actions`` and ``returns`` (table 0's rounds,
    then table 1's). ``stats`` gets the smallest and largest action (0 included), whether any lies in
    52..155 (a CARDS ``mult`` of 3 may pay) and whether every action fits int16 (else ``comp`` holds
    wrapped values and must not be used)."""
    deck, log, hands, st, rng, drng, row = scratch
    score = (np.int64(0), np.int64(0))  # a match's first round: 0-0
    n = seeds.shape[0]
    lo = np.int64(0)
    hi = np.int64(0)
    signals = False
    for t in range(2):
        for b in range(n):
            rng[0] = seeds[b]
            caller, _ = K.draw_caller(rng, deck, log)
            K.deal(rng, deck, caller, hands)
            na = sp.play_round(px, py, t, hands, st, caller, deck, rng, seeds[b], np.uint64(t), row, score, drng)
            i = t * n + b
            n_actions[i] = na
            returns[i, 0] = st[K.POINTS_A]
            returns[i, 1] = st[K.POINTS_B]
            for j in range(na):
                v = row[j]
                lo = min(lo, v)
                hi = max(hi, v)
                signals |= 52 <= v < 156
                comp[i, j] = v
    stats[0] = lo
    stats[1] = hi
    stats[2] = 1 if signals else 0
    stats[3] = 1 if _INT16_MIN <= lo and hi <= _INT16_MAX else 0


@functools.cache
def _scratch():
    """The work arrays of :func:`satat_play_keep`: those of ``sp.play_rounds_kernel``, and a round's row
    (allocated here: the kernel runs without numba's reference counting). Made once a process: the kernel
    sets each before reading it (a round's RNGs from its seed, a decision's from its own), and they are
    used within one kernel call, which holds the GIL (threads of a Dask worker take turns)."""
    return (
        np.empty(52, np.int64),
        np.empty((32, 4), np.int64),
        np.empty(4, np.uint64),
        np.empty(K.ST_SIZE, np.int64),
        np.zeros(1, np.uint64),
        np.zeros(1, np.uint64),
        np.empty(MAX_ROUND_ACTIONS, np.int64),
    )


@njit(cache=True, _nrt=False)
def satat_play_code(px, py, seeds, comp, n_actions, returns, stats, scratch, out, raw, score):
    """:func:`satat_play_keep`, then in the same call the CARDS stream of the block into ``out`` (words
    for ``MAX_ROUND_ACTIONS`` actions of 40 bits a round) and its raw columns into ``raw``
    (``play._columns_fill``, ``score`` its pair score): no Python between the passes, where each numpy
    step after a kernel ran cold. ``stats`` gets, after the four of :func:`satat_play_keep`, the
    escape width, ``mult``, the stream's bytes and the columns' bytes (-1: not int16 returns); the
    stream is written only where ``stats[3]`` (fits) is 1 and the width is <= 32."""
    satat_play_keep(px, py, seeds, comp, n_actions, returns, stats, scratch)
    n = seeds.shape[0]
    lo = stats[0]
    width = highest(np.uint64(stats[1] - lo)) + 1
    stats[4] = width
    stats[5] = 1
    stats[6] = 0
    stats[7] = _columns_fill(returns[:n], returns[n:], n_actions[:n], n_actions[n:], raw, score)
    if stats[3] == 0 or width > 32:
        return
    a0, n0, a1, n1 = comp[:n], n_actions[:n], comp[n:], n_actions[n:]
    mult = 1
    if stats[2]:  # as ``_cards_block``: 3 where it is shorter on each table's first deals
        k = min(_TRIAL, n)
        one = _cards_fill(a0[:k], n0[:k], a1[:k], n1[:k], lo, width, 1, out)
        three = _cards_fill(a0[:k], n0[:k], a1[:k], n1[:k], lo, width, 3, out)
        mult = 3 if three < one else 1
    stats[5] = mult
    stats[6] = _cards_fill(a0, n0, a1, n1, lo, width, mult, out)


def satat_play_block(px: np.ndarray, py: np.ndarray, seeds: np.ndarray):
    """``(payload, n_actions, returns, columns, score)`` of both tables' first rounds of ``seeds`` (uint64;
    table 0's rounds, then table 1's): the CARDS payload ``play._cards_block`` makes of ``play_tables``'
    actions, and the block's columns and pair score as ``play.block_columns`` makes them, or None when an
    action does not fit int16 or the actions span more than 32 bits (then the block is played by
    ``play_tables`` as before)."""
    n = len(seeds)
    comp = work_array("satat_actions", 2 * n, np.int16, MAX_ROUND_ACTIONS)  # read before the next block
    out = words(2 * n * MAX_ROUND_ACTIONS * (8 + 32), "cards")  # a symbol <= 8 bits, an escaped value <= 32 more
    raw = work_array("columns", 6 + 24 * n, np.uint8)
    score = work_array("score", 3, np.int64)
    n_actions = np.zeros(2 * n, np.int64)
    returns = np.zeros((2 * n, 2), np.int64)
    stats = np.zeros(8, np.int64)
    satat_play_code(px, py, seeds, comp, n_actions, returns, stats, _scratch(), out, raw, score)
    lo, _hi, _signals, fits, width, mult, used, cols = (int(v) for v in stats)
    if not fits or width > 32:
        return None
    payload = stream_bytes(out, used, _ESC.pack(lo, width, mult))
    if cols < 0:  # returns beyond int16 (not Satat's points): the general columns
        columns, pair = block_columns(returns[:n], returns[n:], n_actions[:n], n_actions[n:])
    else:
        columns, pair = zlib.compress(raw[:cols], 1), (int(score[0]), int(score[1]), int(score[2]))
    return payload, n_actions, returns, columns, pair
