"""The tournament's blocks of Shengji deals (``tekkasim.tournament.play``'s hooks, named by
``Ruleset.blocks``): the SHENGJI codec (codec 4 of format 3), each action coded against what the rules allow
there (``codec``) and decoded by replaying the compiled rules; compiled blocks played and coded in one
kernel call, or coded from ``play_tables``' outputs, with the KINDS payloads (TABLES) as the fallback when a
replay refuses an action."""

from __future__ import annotations

import zlib

import numpy as np
from numba import njit

from tekkasim.bits import lowest, popcount
from tekkasim.rulesets.shengji import codec
from tekkasim.tournament.play import (
    _ONE,
    KINDS,
    TABLES,
    encode_columns,
    pair_score,
    played_columns,
    returns_match,
)

SHENGJI = 4
CODECS = {SHENGJI: "SHENGJI"}


def encode_tables(game, seeds, tables, xr, yr):
    """``(SHENGJI, payload, lengths)`` of one-deal tables played through the State API, when every action
    replays and the payload decodes to the same actions and returns; else None (the block keeps TABLES)."""
    n = len(seeds)
    masks, lengths = codec.actions_to_masks([t[2][0][3] for t in tables])
    try:
        encoded = codec.shengji_encode(seeds, masks[:n], lengths[:n], masks[n:], lengths[n:])
        if encoded is None:
            return None
        payload, _gains = encoded
        got, gains = codec.shengji_decode(seeds, payload, lengths)
    except ValueError:
        return None
    width = min(got.shape[1], masks.shape[1])
    if not (np.array_equal(got[:, :width], masks[:, :width]) and returns_match(gains, xr, yr)):
        return None
    return SHENGJI, payload, lengths


def decode(game, code, seeds, payload, lengths, xr, yr) -> list:
    """Each table's actions of a SHENGJI block (table-major), replayed from the seeds; the replayed deals
    must end with the returns stored."""
    masks, gains = codec.shengji_decode(seeds, payload, lengths)
    if not returns_match(gains, xr, yr):
        raise ValueError("a SHENGJI block whose replay does not give its stored returns")
    return codec.masks_to_actions(masks, lengths)


def played_block(game, px, py, seeds):
    """A compiled block played and coded in one kernel call (``codec.shengji_play_fill``: the actions of
    ``play_tables``, each coded as it is played, so nothing is replayed): ``(SHENGJI, payload, columns,
    score)``, or None when the kernel could not code it (then ``play_tables`` plays it)."""
    params0, params1 = (np.stack([px if (s & 1) == table else py for s in range(4)]) for table in (0, 1))
    played = codec.shengji_play_encode(params0, params1, seeds)
    return None if played is None else (SHENGJI, *played_columns(played))


def tables_block(game, seeds, o0: dict, o1: dict):
    """``play_tables``' outputs coded against the rules by replay (SHENGJI), or, when the replay refuses an
    action (a bug in a compiled bot or the codec), their KINDS payloads as a TABLES block."""
    r0, r1 = o0["returns"], o1["returns"]
    xr = np.concatenate([r0[:, 0], r1[:, 1]])
    yr = np.concatenate([r0[:, 1], r1[:, 0]])
    counts = np.ones(2 * len(seeds), np.int64)
    seeds_u = np.asarray(seeds, np.uint64)
    encoded = codec.shengji_encode(seeds_u, o0["masks"], o0["n_actions"], o1["masks"], o1["n_actions"])
    if encoded is not None and returns_match(encoded[1].astype(np.float64), xr, yr):
        lengths = np.concatenate([o0["n_actions"], o1["n_actions"]])
        return SHENGJI, encoded[0], encode_columns(xr, yr, counts, lengths), pair_score(xr, yr)
    parts, lengths = [], []
    for out in (o0, o1):
        buf, starts, ends = _kinds_payloads(seeds, out["returns"], out["masks"], out["n_actions"])
        parts.append(buf)
        lengths.append(ends - starts)
    body = zlib.compress(b"".join(parts), 1)
    return TABLES, body, encode_columns(xr, yr, counts, np.concatenate(lengths)), pair_score(xr, yr)


@njit(cache=True)
def _kinds_lengths(masks, n_actions):
    """Bytes of each deal's KINDS action list: a count byte per action and a byte per card."""
    out = np.empty(masks.shape[0], np.int64)
    for i in range(masks.shape[0]):
        t = 0
        for a in range(n_actions[i]):
            t += 1 + popcount(masks[i, a, 0]) + popcount(masks[i, a, 1])
        out[i] = t
    return out


@njit(cache=True)
def _kinds_fill(masks, n_actions, offsets, buf):
    """Write each deal's actions at ``offsets[i]``: the count, then the kinds ascending, a kind held twice
    twice (the order of ``bots._kinds`` and so of the State API's tuples)."""
    for i in range(masks.shape[0]):
        p = offsets[i]
        for a in range(n_actions[i]):
            one = masks[i, a, 0]
            two = masks[i, a, 1]
            head = p
            p += 1
            while one:
                k = lowest(one)
                one &= one - np.uint64(1)
                buf[p] = k
                p += 1
                if (two >> np.uint64(k)) & np.uint64(1):
                    buf[p] = k
                    p += 1
            buf[head] = p - head - 1


def _kinds_payloads(seeds: range, returns: np.ndarray, masks: np.ndarray, n_actions: np.ndarray):
    """One-deal KINDS payloads of a compiled Shengji block in one buffer: ``(buffer, starts, ends)``."""
    n = len(seeds)
    body = _kinds_lengths(masks, n_actions)
    ends = np.cumsum(body + _ONE.size)
    starts = ends - body - _ONE.size
    head = np.zeros(
        n, dtype=[("fmt", "u1"), ("deals", "<u2"), ("seed", "<i8"), ("ra", "<f8"), ("rb", "<f8"), ("k", "<u2")]
    )
    head["fmt"], head["deals"], head["seed"], head["k"] = KINDS, 1, np.asarray(seeds, np.int64), n_actions
    head["ra"], head["rb"] = returns[:, 0], returns[:, 1]
    buf = np.zeros(int(ends[-1]) if n else 0, np.uint8)
    buf[(starts[:, None] + np.arange(_ONE.size)).ravel()] = head.view(np.uint8)
    _kinds_fill(masks, n_actions, starts + _ONE.size, buf)
    return buf.tobytes(), starts, ends
