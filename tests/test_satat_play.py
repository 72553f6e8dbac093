"""The compiled Satat block kernel (``tournament._satat_play``): it plays the rounds ``play_tables`` plays
and its payload is, byte for byte, the CARDS payload ``_cards_block`` makes of ``play_tables``' actions
(itself tested against ``cards_encode``, its pure-Python twin), and its columns and pair score are those
of ``encode_columns`` and ``pair_score``; a block falls back to that path when the kernel cannot code it,
with the same bytes."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.bots import get_bot
from tekkasim.bots.compiled import compiled_form, play_tables
from tekkasim.rules import get_game
from tekkasim.rulesets.satat import _play_block as S
from tekkasim.tournament import Config
from tekkasim.tournament.play import CARDS, Job, _cards_block, encode_columns, pair_score, play_block

GAME = get_game("satat")
BOTS = ["GREEDY", "JANGARA", "KADO", "SADA", "ATOUTE", "ZORGE", "RANDOM"]  # RANDOM, the bluffers: wide escapes


def _by_play_tables(x, y, seeds):
    xb, yb = get_bot(x, ruleset="satat"), get_bot(y, ruleset="satat")
    o0, o1 = (play_tables(GAME, xb, yb, seeds, t) for t in (0, 1))
    payload = _cards_block(o0["actions"], o0["n_actions"], o1["actions"], o1["n_actions"])
    return payload, np.concatenate([o0["n_actions"], o1["n_actions"]]), np.concatenate([o0["returns"], o1["returns"]])


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(BOTS), st.sampled_from(BOTS), st.integers(0, 2**40), st.sampled_from([1, 3, 63, 64, 65, 130]))
def test_the_block_kernel_plays_as_play_tables_and_writes_what_cards_block_writes(x, y, start, n):
    seeds = range(start, start + n)
    px, py = (compiled_form(get_bot(b, ruleset="satat"), "satat") for b in (x, y))
    payload, lengths, returns, columns, score = S.satat_play_block(px, py, np.arange(start, start + n, dtype=np.uint64))
    want, want_lengths, want_returns = _by_play_tables(x, y, seeds)
    assert lengths.tolist() == want_lengths.tolist()
    assert returns.tolist() == want_returns.astype(int).tolist()
    assert payload == want
    xr = np.concatenate([want_returns[:n, 0], want_returns[n:, 1]])
    yr = np.concatenate([want_returns[:n, 1], want_returns[n:, 0]])
    assert columns == encode_columns(xr, yr, np.ones(2 * n, np.int64), want_lengths)
    assert score == pair_score(xr, yr)


def test_play_block_stores_the_same_block_with_or_without_the_kernel(monkeypatch):
    cfg = Config.build(ruleset="satat", bots="ATOUTE,RANDOM", boards=300, seed=17)
    job = Job.from_config(cfg)
    fast = play_block(job, (0, 100, 300), compact=True)
    monkeypatch.setattr(S, "satat_play_block", lambda *a: None)  # the kernel refuses: play_tables plays it
    slow = play_block(job, (0, 100, 300), compact=True)
    assert fast.codec == slow.codec == CARDS
    assert (fast.columns, fast.payload, fast.score) == (slow.columns, slow.payload, slow.score)
