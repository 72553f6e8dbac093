"""The tournament's blocks of Feskot and Tekka deals (``tekkasim.tournament.play``'s hooks, named by the two
rulesets' ``Ruleset.blocks``): the LEGAL codec (codec 3 of format 3), each action as its index among the
legal actions (``codec``), decoded by replaying the compiled rules; blocks of the compiled bots played and
coded in one kernel call (``_play_block``) or coded from ``play_tables``' outputs."""

from __future__ import annotations

import zlib

import numpy as np
from numba import njit

from tekkasim.rulesets.trick52 import codec
from tekkasim.tournament._bitstream import stream_bytes, words, work_array
from tekkasim.tournament.play import _columns_fill, block_columns, returns_match

LEGAL = 3
CODECS = {LEGAL: "LEGAL"}


def encode_tables(game, seeds, tables, xr, yr):
    """``(LEGAL, payload, lengths)`` of one-deal tables played through the State API, when every action is a
    card index that replays to the actions and returns given; else None."""
    if not all(type(a) is int for t in tables for a in t[2][0][3]):
        return None
    n = len(seeds)
    lengths = np.array([len(t[2][0][3]) for t in tables], np.int64)
    actions = np.full((2 * n, max(lengths.max(initial=0), 1)), -1, np.int64)
    for i, t in enumerate(tables):
        actions[i, : lengths[i]] = t[2][0][3]
    legal = codec.legal_encode(game, seeds, actions[:n], lengths[:n], actions[n:], lengths[n:])
    if legal is None or not _replays(game, seeds, legal, actions, lengths, xr, yr):
        return None
    return LEGAL, legal, lengths


def _replays(game, seeds, legal: bytes, actions: np.ndarray, lengths: np.ndarray, xr, yr) -> bool:
    """Whether a LEGAL payload decodes to ``actions`` and the returns given (deals played through the State
    API are checked so: a block must never be stored in a codec that cannot give it back)."""
    try:
        got, returns = codec.legal_decode(game, seeds, legal, lengths)
    except ValueError:
        return False
    width = min(got.shape[1], actions.shape[1])
    return np.array_equal(got[:, :width], actions[:, :width]) and returns_match(returns, xr, yr)


def decode(game, code, seeds, payload, lengths, xr, yr) -> list[list[int]]:
    """Each table's actions of a LEGAL block (table-major), replayed from the seeds; the replayed deals must
    end with the returns stored."""
    actions, returns = codec.legal_decode(game, seeds, payload, lengths)
    if not returns_match(returns, xr, yr):
        raise ValueError("a LEGAL block whose replay does not give its stored returns")
    rows = actions.tolist()
    return [rows[i][: lengths[i]] for i in range(len(rows))]


def played_block(game, px, py, seeds):
    """A compiled block played and LEGAL-coded in one kernel call (``_play_block``: each action's symbol
    written as it is played): ``(LEGAL, payload, columns, score)``, or None when the kernel could not code
    it (then ``play_tables`` plays it and :func:`tables_block` codes it)."""
    from tekkasim.rulesets.trick52._play_block import trick52_play_block

    played = trick52_play_block(game, px, py, seeds)
    return None if played is None else (LEGAL, *played)


def tables_block(game, seeds, o0: dict, o1: dict):
    """``(LEGAL, payload, columns, score)`` of ``play_tables``' outputs at both tables (the legal indices
    the play loop recorded, packed)."""
    if "legal" not in o0:
        return None
    return (LEGAL, *_legal_block(o0, o1))


@njit(cache=True, _nrt=False)
def _legal_block_fill(o0, o1, n0, n1, l0, l1, r0, r1, out, raw, score, stats):
    """A compiled Feskot or Tekka block's LEGAL stream (``codec.legal_pack``: without signals, then with
    them if a card carries one) into ``out`` and its raw columns (:func:`_columns_fill`) into ``raw``, in
    one call: ``stats`` = (signal flag, stream bytes, column bytes or -1)."""
    sig = 0
    used = codec.legal_pack(o0, n0, l0, o1, n1, l1, sig, out)
    if used < 0:
        sig = 1
        used = codec.legal_pack(o0, n0, l0, o1, n1, l1, sig, out)
    stats[0] = sig
    stats[1] = used
    stats[2] = _columns_fill(r0, r1, n0, n1, raw, score)


def _legal_block(o0: dict, o1: dict) -> tuple[bytes, bytes, tuple]:
    """``(payload, columns, score)`` of a compiled Feskot or Tekka block from both tables' ``play_tables``
    outputs: ``codec.legal_packed`` and :func:`block_columns`, in one kernel call and buffers kept."""
    n0, n1 = o0["n_actions"], o1["n_actions"]
    h = len(n0)
    out = words(8 * (int(n0.sum()) + int(n1.sum())), "legal")  # an index takes <= 6 bits, its signal <= 2
    raw = work_array("columns", 6 + 24 * h, np.uint8)
    score = work_array("score", 3, np.int64)
    stats = np.zeros(3, np.int64)
    r0, r1 = o0["returns"], o1["returns"]
    _legal_block_fill(o0["actions"], o1["actions"], n0, n1, o0["legal"], o1["legal"], r0, r1, out, raw, score, stats)
    return _legal_rows(stats, out, raw, score, r0, r1, n0, n1)


def _legal_rows(stats, out, raw, score, r0, r1, n0, n1) -> tuple[bytes, bytes, tuple]:
    """``(payload, columns, score)`` from what :func:`_legal_block_fill` wrote (``stats``: signal flag,
    stream bytes, column bytes or -1 when the returns need the general columns)."""
    sig, used, cols = (int(v) for v in stats)
    payload = stream_bytes(out, used, bytes([sig]))
    if cols < 0:
        columns, pair = block_columns(r0, r1, n0, n1)
    else:
        columns, pair = zlib.compress(raw[:cols], 1), (int(score[0]), int(score[1]), int(score[2]))
    return payload, columns, pair
