"""The LEGAL codec of stored blocks (format 3): Feskot's and Tekka's actions as indices among the legal ones.

A deal is replayed from its seed with the compiled rules (``rules._trick52``), and each action is written
as its index in ``legal_actions()`` at that point (cards ascending, then raise requests, as the State API
lists them) in ``bit_length(n - 1)`` bits for ``n`` legal actions: nothing at all for a forced one. In a
block where any card carries a signal (``card + 52 * signal``), every card played is followed by its signal
in a prefix code: ``0`` none, ``01`` slam, ``11`` drop (bits in stream order). Bits are packed LSB first,
every deal of table 0 then table 1, end to end; the payload is a one-byte header (the signal flag) and the
stream. Decoding replays the same rules, so the actions come back exactly, and checks that the replayed
deal ends with the returns stored in the block's columns.

A card is worth ~2 bits here against ~5 as its rank among the unplayed cards (the CARDS codec), because
following suit leaves few legal cards. A compiled block is coded as it is played by the worker's block
kernel (``_trick52_play``: each action's symbol written by the play loop), or, where that kernel cannot code
it, packed from the index and count of legal actions ``play_tables``' loop records (:func:`legal_pack`: one
pass, no replay); a block played through the State API is encoded by replay (:func:`legal_fill`, about as
costly as the rules' part of a deal, nothing beside the State API's play). All write what
:func:`legal_encode_py` writes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tekkasim.bits import highest, kth, popcount
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.tournament._bitstream import finish, put, stream_bytes, words

_ONE = np.uint64(1)


@njit(cache=True, inline="always")
def _take(data, pos, width):
    """``width`` (< 57) bits of ``data`` from bit ``pos`` (``data`` padded with 8 zero bytes)."""
    if width == 0:
        return np.int64(0)
    p = pos >> 3
    v = np.uint64(0)
    for q in range(8):
        v |= np.uint64(data[p + q]) << np.uint64(8 * q)
    return np.int64((v >> np.uint64(pos & 7)) & ((_ONE << np.uint64(width)) - _ONE))


@njit(cache=True, inline="always")
def _width(n):
    return highest(np.uint64(n - 1)) + 1 if n > 1 else 0


@njit(cache=True, _nrt=False)
def legal_fill(d, seeds, ruleset, play_all, raises, signals, sig, a0, n0, a1, n1, rng, deck, buf, out):
    """Write the LEGAL stream of both tables' deals (``a0``/``a1`` rows of actions of the deals of ``seeds``,
    ``n0[i]``/``n1[i]`` used) into ``out`` (``_bitstream`` words); return the bytes written, or -1 when an
    action is not legal in the replay (or a signal is met with ``sig`` 0). Without
    numba's reference counting (nothing is allocated here), as ``play_boards_kernel``: several times faster.
    The twin is :func:`legal_encode_py`."""
    acc = np.uint64(0)
    nacc = 0
    p = 0
    for t in range(2):
        acts = a0 if t == 0 else a1
        ns = n0 if t == 0 else n1
        for i in range(acts.shape[0]):
            k.seeded_deal(d, seeds[i], ruleset, 0, play_all, raises, signals, rng, deck)
            for j in range(ns[i]):
                a = acts[i, j]
                info = d.info
                if info[k.I_PHASE] == k.PH_PLAY and a < k.PRIME_BASE:
                    c = a % 52
                    mask = k.current_legal_mask(d)
                    if not (mask >> np.uint64(c)) & _ONE:
                        return -1
                    n = popcount(mask) + k.n_raises(info)
                    acc, nacc, p = put(out, acc, nacc, p, popcount(mask & ((_ONE << np.uint64(c)) - _ONE)), _width(n))
                    s = a // 52
                    if sig:
                        acc, nacc, p = put(out, acc, nacc, p, 0 if s == 0 else (1 if s == 1 else 3), 1 if s == 0 else 2)
                    elif s != 0:
                        return -1
                else:
                    n = k.legal_actions(d, buf)
                    idx = -1
                    for q in range(n):
                        if buf[q] == a:
                            idx = q
                            break
                    if idx < 0:
                        return -1
                    acc, nacc, p = put(out, acc, nacc, p, idx, _width(n))
                k.apply_action(d, a)
    return finish(out, acc, nacc, p)


@njit(cache=True, _nrt=False)
def legal_read(d, seeds, ruleset, play_all, raises, signals, sig, data, lengths, actions, returns, rng, deck, buf):
    """Decode the LEGAL stream ``data`` (padded with 8 zero bytes) of ``2 * len(seeds)`` deals, ``lengths[i]``
    actions in deal ``i`` (table 0's deals, then table 1's, on the same seeds), into ``actions`` (rows,
    -1 padded) and each deal's team A/B ``returns``; return the bits read, or -1 when the stream cannot be
    a replay (an index beyond the legal actions, a deal not over after its actions)."""
    pos = 0
    n_seeds = seeds.shape[0]
    for i in range(lengths.shape[0]):
        k.seeded_deal(d, seeds[i % n_seeds], ruleset, 0, play_all, raises, signals, rng, deck)
        for j in range(lengths[i]):
            info = d.info
            if info[k.I_PHASE] == k.PH_TERMINAL:
                return -1
            if info[k.I_PHASE] == k.PH_PLAY:
                mask = k.current_legal_mask(d)
                cards = popcount(mask)
                n = cards + k.n_raises(info)
                idx = _take(data, pos, _width(n))
                pos += _width(n)
                if idx >= n:
                    return -1
                if idx < cards:
                    a = kth(mask, idx)
                    if sig:
                        if _take(data, pos, 1) == 0:
                            pos += 1
                        else:
                            a += 52 * (1 + _take(data, pos + 1, 1))
                            pos += 2
                else:
                    k.legal_actions(d, buf)
                    a = buf[idx]
            else:
                n = k.legal_actions(d, buf)
                idx = _take(data, pos, _width(n))
                pos += _width(n)
                if idx >= n:
                    return -1
                a = buf[idx]
            actions[i, j] = a
            k.apply_action(d, a)
        if d.info[k.I_PHASE] != k.PH_TERMINAL:
            return -1
        if ruleset == k.FESKOT:
            returns[i, 0] = d.info[k.I_TEAM_TRICKS]
            returns[i, 1] = d.info[k.I_TEAM_TRICKS + 1]
        else:
            _, ra, rb = k.tekka_score(d.info)
            returns[i, 0] = ra
            returns[i, 1] = rb
    return pos


@njit(cache=True, _nrt=False)
def legal_pack(a0, n0, l0, a1, n1, l1, sig, out):
    """The stream :func:`legal_fill` writes, from the indices and counts of legal actions the compiled play
    loop recorded as it played (``l0[i, j]`` = (index, count) of action ``a0[i, j]``): no replay, so a
    worker pays a pass over the actions only (the hot loop of a worker: an action's index and signal go
    to the writer as one value). Returns the bytes written, or -1 at a signalled card when ``sig`` is 0."""
    acc = np.uint64(0)
    nacc = 0
    p = 0
    for t in range(2):
        acts = a0 if t == 0 else a1
        ns = n0 if t == 0 else n1
        legal = l0 if t == 0 else l1
        for i in range(acts.shape[0]):
            for j in range(ns[i]):
                v = np.int64(legal[i, j, 0])
                w = _width(np.int64(legal[i, j, 1]))
                a = acts[i, j]
                if a < k.PRIME_BASE:
                    if a >= 52:
                        if not sig:
                            return -1
                        v |= (1 if a < 104 else 3) << w
                        w += 2
                    elif sig:
                        w += 1  # a 0 bit: no signal
                acc, nacc, p = put(out, acc, nacc, p, v, w)
    return finish(out, acc, nacc, p)


def legal_packed(a0, n0, l0, a1, n1, l1) -> bytes:
    """The LEGAL payload of a compiled block from its play loop's ``legal`` records (:func:`legal_pack`):
    packed without signals first, which stops at the first signalled card (early where bots signal), then
    with them."""
    out = words(8 * (int(n0.sum()) + int(n1.sum())), "legal")  # an index takes <= 6 bits, its signal <= 2
    sig = 0
    used = legal_pack(a0, n0, l0, a1, n1, l1, sig, out)
    if used < 0:
        sig = 1
        used = legal_pack(a0, n0, l0, a1, n1, l1, sig, out)
    return stream_bytes(out, used, bytes([sig]))


def _kernel_args(game):
    play_all, raises, signals = game.options_flags()
    work = (np.empty(1, np.uint64), np.empty(52, np.int64), np.empty(k.MAX_ACTIONS, np.int64))
    return k.new_arrays(), game.ruleset_code, play_all, raises, signals, work


def legal_encode(game, seeds: np.ndarray, a0, n0, a1, n1) -> bytes | None:
    """The LEGAL payload (header and stream) of both tables' deals of ``seeds`` (uint64) in ``game`` (a
    Trick52Game), or None when an action is not legal there (then the block keeps another codec)."""
    d, code, play_all, raises, signals, (rng, deck, buf) = _kernel_args(game)
    sig = int(_any_signal(a0, n0, a1, n1))
    out = words(8 * (int(n0.sum()) + int(n1.sum())))  # an index takes <= 6 bits, its signal <= 2
    used = legal_fill(d, seeds, code, play_all, raises, signals, sig, a0, n0, a1, n1, rng, deck, buf, out)
    if used < 0:
        return None
    return stream_bytes(out, used, bytes([sig]))


def legal_decode(game, seeds: np.ndarray, payload, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(actions, returns)`` of the deals of a LEGAL payload: table 0's deals of ``seeds`` then table 1's,
    ``lengths[i]`` actions in deal ``i``; actions -1 padded, returns for team A/B. ValueError if damaged."""
    d, code, play_all, raises, signals, (rng, deck, buf) = _kernel_args(game)
    payload = bytes(payload)
    if not payload or payload[0] not in (0, 1) or len(lengths) != 2 * len(seeds):
        raise ValueError("a LEGAL payload of the wrong shape")
    data = np.frombuffer(payload[1:] + bytes(8), np.uint8)
    lengths = np.asarray(lengths, np.int64)
    actions = np.full((len(lengths), max(int(lengths.max(initial=0)), 1)), -1, np.int64)
    returns = np.zeros((len(lengths), 2), np.float64)
    pos = legal_read(
        d, seeds, code, play_all, raises, signals, payload[0], data, lengths, actions, returns, rng, deck, buf
    )
    if pos < 0 or (pos + 7) // 8 != len(payload) - 1:
        raise ValueError("a LEGAL payload that does not replay")
    return actions, returns


@njit(cache=True)
def _any_signal(a0, n0, a1, n1):
    for t in range(2):
        acts = a0 if t == 0 else a1
        ns = n0 if t == 0 else n1
        for i in range(acts.shape[0]):
            for j in range(ns[i]):
                if 52 <= acts[i, j] < k.PRIME_BASE:
                    return True
    return False


# --- the pure-Python twins (the State API, one big integer) ----------------------------------------------


def legal_encode_py(game, seeds, deals: list[list[int]]) -> bytes:
    """The twin of :func:`legal_encode`: ``deals`` are table 0's deals of ``seeds`` then table 1's, replayed
    through ``game.new_deal`` and ``legal_actions()``. Raises ValueError on an action not legal there."""
    sig = int(any(52 <= a < k.PRIME_BASE for actions in deals for a in actions))
    value, pos = 0, 0
    for i, actions in enumerate(deals):
        state = game.new_deal(int(seeds[i % len(seeds)]))
        for a in actions:
            legal = state.legal_actions()
            card = state.arrays.info[k.I_PHASE] == k.PH_PLAY and a < k.PRIME_BASE
            plain = a % 52 if card else a
            if plain not in legal or (card and a >= 52 and not sig):
                raise ValueError(f"action {a} is not legal in the replay of seed {seeds[i % len(seeds)]}")
            value |= legal.index(plain) << pos
            pos += (len(legal) - 1).bit_length()
            if card and sig:
                s = a // 52
                value |= (0, 1, 3)[s] << pos
                pos += 1 if s == 0 else 2
            state.apply_action(a)
    return bytes([sig]) + value.to_bytes((pos + 7) // 8, "little")


def legal_decode_py(game, seeds, payload: bytes, lengths) -> list[list[int]]:
    """The twin of :func:`legal_decode` (actions only)."""
    sig, value = payload[0], int.from_bytes(payload[1:], "little")
    out = []
    for i, n in enumerate(lengths):
        state = game.new_deal(int(seeds[i % len(seeds)]))
        actions = []
        for _ in range(n):
            legal = state.legal_actions()
            w = (len(legal) - 1).bit_length()
            a = legal[value & ((1 << w) - 1)]
            value >>= w
            if sig and state.arrays.info[k.I_PHASE] == k.PH_PLAY and a < 52:
                if value & 1:
                    a += 52 * (1 + (value >> 1 & 1))
                    value >>= 2
                else:
                    value >>= 1
            actions.append(a)
            state.apply_action(a)
        out.append(actions)
    return out
