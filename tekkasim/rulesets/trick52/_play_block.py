"""A compiled Feskot or Tekka block played and stored in one kernel call: the deals of
``bots.heuristic.play_tables`` at both tables, each action's LEGAL symbol (``_legal``) written as it is
played, then the block's columns (``play._columns_fill``).

The worker's block is then one pass over the deals: no (boards, 83) action rows and legal records are
allocated, filled and read back by a packing pass (``_legal.legal_pack``). The stream's form depends on
the whole block (a card is followed by its signal only in a block where some card carries one), so two
streams are written as the deals are played, the one without signals until the first signalled card ends
it. The loop is the family's one loop (``_policy.play_table``, which ``play_tables`` runs too), with a
recorder of its own (:func:`_record_symbol`; numba compiles the loop once per recorder, so the bare loop,
the benchmarks' reference, is not slowed by what the worker records); the actions and bytes are
those of ``blocks._legal_block`` of ``play_tables``' outputs (tested on random blocks of the compiled bots
in every option, with ``_legal.legal_encode_py``, the State API twin, behind that). Also tried, paired per
block in one process: the bare loop's own kernel into buffers the worker keeps, packed after the block or
128 deals at a time while their records are in the cache: no cheaper than this loop (within the noise of
those runs), and it still read the records back. The writer without a jump (``_bitstream.put_nb``) costs a
block less here than ``put``, paired in one process (docs/benchmarks.md).
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52 import _policy as pk
from tekkasim.rulesets.trick52.blocks import _legal_rows
from tekkasim.rulesets.trick52.bots import MAX_DEAL_ACTIONS
from tekkasim.rulesets.trick52.codec import _width
from tekkasim.tournament._bitstream import finish, put_nb, words, work_array
from tekkasim.tournament.play import _columns_fill


@njit(cache=True, _nrt=False, inline="always")
def _record_symbol(out, st, row, na, a, idx, count, d):
    """``pk.play_on``'s recorder of :func:`play_legal_fill`: action ``a``'s LEGAL symbol, its index ``idx``
    among the ``count`` legal actions, appended to both streams ``out = (out0, out1)``; a card is followed
    in stream 1 by its signal s (0 none, 1 slam, 2 drop) as the bits 0, 10, 11 (first bit lowest), as
    ``legal_pack`` tells them; stream 0 is given up at the first signalled card (``plain`` False). ``st``
    is both writers' state and ``plain``."""
    out0, out1 = out
    acc0, nacc0, p0, acc1, nacc1, p1, plain = st
    w = _width(count)
    if a < k.PRIME_BASE:  # a card
        s = a // 52
        acc1, nacc1, p1 = put_nb(out1, acc1, nacc1, p1, idx | ((s | (s >> 1)) << w), w + 1 + min(s, 1))
        plain = plain and s == 0
    else:
        acc1, nacc1, p1 = put_nb(out1, acc1, nacc1, p1, idx, w)
    if plain:
        acc0, nacc0, p0 = put_nb(out0, acc0, nacc0, p0, idx, w)
    return acc0, nacc0, p0, acc1, nacc1, p1, plain


@njit(cache=True, _nrt=False)
def play_legal_fill(d, seeds, ruleset, flags, forms, work, n_actions, returns, out0, out1):
    """Play the deal of each board seed at table 0 then table 1 as ``pk.play_boards_kernel`` does, through
    the same loop (``pk.play_table``; first seat 0; ``forms[t]`` the parameter vectors by seat at table
    ``t``; ``flags`` = play_all, raises, signals, cansig), and write each action's LEGAL symbol as it is
    played into ``out0`` (without signals; given up at the first signalled card) and ``out1`` (every card
    followed by its signal). ``n_actions`` and ``returns`` (team A/B) get each deal's action count and
    returns, table 0's deals then table 1's. Returns ``(sig, bytes)``: the stream to keep (``out1`` if
    ``sig``, as ``_legal.legal_packed`` chooses) and its length, or ``(0, -1)`` when a deal runs past
    ``MAX_DEAL_ACTIONS`` or an action is not among the legal ones (then the block is played by
    ``play_tables`` and packed as before)."""
    play_all, raises, signals, cansig = flags[0], flags[1], flags[2], flags[3]
    st = (np.uint64(0), 0, 0, np.uint64(0), 0, 0, True)  # no signalled card yet: stream 0 is still the block's
    n = seeds.shape[0]
    for table in range(2):
        st, ok = pk.play_table(
            d,
            seeds,
            table,
            ruleset,
            0,
            play_all,
            raises,
            signals,
            cansig,
            forms[table],
            work,
            returns,
            n_actions,
            table * n,
            _record_symbol,
            (out0, out1),
            st,
        )
        if not ok:
            return 0, -1
    acc0, nacc0, p0, acc1, nacc1, p1, plain = st
    if plain:
        return 0, finish(out0, acc0, nacc0, p0)
    return 1, finish(out1, acc1, nacc1, p1)


@njit(cache=True, _nrt=False)
def play_legal_block(d, seeds, ruleset, flags, forms, work, n_actions, returns, out0, out1, raw, score, stats):
    """:func:`play_legal_fill`, then the block's raw columns into ``raw`` (``play._columns_fill``, ``score``
    its pair score), in one call: ``stats`` = (signal flag, stream bytes or -1, column bytes or -1)."""
    sig, used = play_legal_fill(d, seeds, ruleset, flags, forms, work, n_actions, returns, out0, out1)
    stats[0] = sig
    stats[1] = used
    if used >= 0:
        n = seeds.shape[0]
        stats[2] = _columns_fill(returns[:n], returns[n:], n_actions[:n], n_actions[n:], raw, score)


@functools.cache
def _scratch():
    """A deal's arrays and the loop's work arrays (``pk.new_work``), made once a process: the kernel sets
    each before reading it (a deal from its seed, a decision's RNG from its own seed, the view at each
    deal's start), and they are used within one kernel call, which holds the GIL (threads of a Dask worker
    take turns)."""
    return k.new_arrays(), pk.new_work()


def trick52_play_block(game, px: np.ndarray, py: np.ndarray, seeds: np.ndarray) -> tuple[bytes, bytes, tuple] | None:
    """``(payload, columns, score)`` of both tables' deals of ``seeds`` (uint64) in ``game`` (a Trick52Game),
    team X's parameter vector ``px``: what ``blocks._legal_block`` makes of ``play_tables``' outputs, or None
    when the kernel could not code the block."""
    n = len(seeds)
    bits = 2 * n * MAX_DEAL_ACTIONS * 8  # an index takes <= 6 bits (<= 64 legal actions), its signal <= 2
    out0, out1 = words(bits, "legal"), words(bits, "legal_signals")
    raw = work_array("columns", 6 + 24 * n, np.uint8)
    score = work_array("score", 3, np.int64)
    n_actions = np.zeros(2 * n, np.int64)
    returns = np.zeros((2 * n, 2), np.float64)
    stats = np.zeros(3, np.int64)
    flags = np.array([*game.options_flags(), int(game.takes_signals)], np.int64)
    forms = np.stack([pk.seat_forms(px, py, 0), pk.seat_forms(px, py, 1)])
    d, work = _scratch()
    play_legal_block(d, seeds, game.ruleset_code, flags, forms, work, n_actions, returns, out0, out1, raw, score, stats)
    if stats[1] < 0:
        return None
    out = out1 if stats[0] else out0
    return _legal_rows(stats, out, raw, score, returns[:n], returns[n:], n_actions[:n], n_actions[n:])
