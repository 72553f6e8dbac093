"""The SHENGJI codec (codec 4 of format 3): Shengji deals coded against the rules. The compiled encoder and
the State API twin write the same bytes; both decoders give every action back; the compiled helpers equal
their twins; blocks decode to the records the State API path plays; a damaged block is refused; the run
directory holds at most 40 bytes a deal."""

from __future__ import annotations

import random
import sqlite3
from math import comb

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.bots import get_bot
from tekkasim.bots.compiled import compiled_form, play_tables
from tekkasim.bots.loop import play_deal
from tekkasim.cli import cli
from tekkasim.rules import get_game
from tekkasim.rulesets.shengji import codec as C
from tekkasim.rulesets.shengji.blocks import SHENGJI
from tekkasim.tournament import Config, Store, run_tournament
from tekkasim.tournament._bitstream import finish, put_symbol, stream_bytes, words
from tekkasim.tournament.play import TABLES, Job, decode_block, encode_block, play_block, unpack

BOTS = ["GREEDY", "KADO", "POCHAQ", "SADA", "JANGARA"]
GAME = get_game("shengji")


def _compiled(x, y, start, n):
    xb, yb = get_bot(x, ruleset="shengji"), get_bot(y, ruleset="shengji")
    outs = [play_tables(GAME, xb, yb, range(start, start + n), t) for t in (0, 1)]
    return np.arange(start, start + n, dtype=np.uint64), outs


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(BOTS), st.sampled_from(BOTS), st.integers(0, 2**40), st.integers(1, 4))
def test_compiled_encoder_and_twin_agree_and_both_decoders_invert(x, y, start, n):
    seeds, (o0, o1) = _compiled(x, y, start, n)
    payload, gains = C.shengji_encode(seeds, o0["masks"], o0["n_actions"], o1["masks"], o1["n_actions"])
    assert np.array_equal(gains, np.concatenate([o0["returns"], o1["returns"]]))
    lengths = np.concatenate([o0["n_actions"], o1["n_actions"]])
    deals = C.masks_to_actions(np.concatenate([o0["masks"], o1["masks"]]), lengths)
    assert C.shengji_encode_py(GAME, seeds, deals) == payload
    masks, got = C.shengji_decode(seeds, payload, lengths)
    assert C.masks_to_actions(masks, lengths) == deals
    assert np.array_equal(got, gains)
    assert [[list(a) for a in d] for d in C.shengji_decode_py(GAME, seeds, payload, lengths.tolist())] == deals


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**40), st.integers(0, 2**20))
def test_random_deals_through_the_state_api_round_trip(seed, bot_seed):
    """RANDOM (no compiled form) discards, trumps and breaks pairs at random: the free part of follows in
    every shape, through both encoders and decoders."""
    bot = get_bot("RANDOM", ruleset="shengji")
    deals = []
    for t in (0, 1):
        state = GAME.new_deal(seed)
        play_deal(state, [bot] * 4, seed ^ bot_seed, t)
        deals.append([list(a) for a in state.history()])
    seeds = np.array([seed], np.uint64)
    masks, lengths = C.actions_to_masks(deals)
    payload, gains = C.shengji_encode(seeds, masks[:1], lengths[:1], masks[1:], lengths[1:])
    assert C.shengji_encode_py(GAME, seeds, deals) == payload
    got, got_gains = C.shengji_decode(seeds, payload, lengths)
    assert C.masks_to_actions(got, lengths) == deals and np.array_equal(got_gains, gains)
    assert [[list(a) for a in d] for d in C.shengji_decode_py(GAME, seeds, payload, lengths.tolist())] == deals


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**54 - 1), st.data())
def test_combination_rank_kernels_equal_their_twins(cands, data):
    kinds = [k for k in range(54) if cands >> k & 1]
    chosen = data.draw(st.sets(st.sampled_from(kinds), max_size=len(kinds))) if kinds else set()
    mask = sum(1 << k for k in chosen)
    rank = int(C._comb_rank(np.uint64(cands), np.uint64(mask), C._C))
    assert rank == C._comb_rank_py(kinds, chosen) < comb(len(kinds), len(chosen))
    assert int(C._comb_unrank(np.uint64(cands), len(chosen), rank, C._C)) == mask
    assert sorted(C._comb_unrank_py(kinds, len(chosen), rank)) == sorted(chosen)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 2**50).flatmap(lambda n: st.tuples(st.integers(0, n - 1), st.just(n))), max_size=30))
def test_truncated_binary_symbols_round_trip_and_equal_the_twin(symbols):
    out = words(64 * len(symbols))
    acc, nacc, p = np.uint64(0), 0, 0
    for s, n in symbols:
        acc, nacc, p = put_symbol(out, np.uint64(acc), nacc, p, s, n)  # (a uint64 comes back as an int)
    used = finish(out, np.uint64(acc), nacc, p)
    twin = C._Bits()
    for s, n in symbols:
        twin.put(s, n)
    assert stream_bytes(out, used) == twin.value.to_bytes((twin.pos + 7) // 8, "little")
    data = np.frombuffer(stream_bytes(out, used) + bytes(8), np.uint8)
    pos = 0
    for s, n in symbols:
        got, w = C._take_sym(data, pos, n)
        assert got == s
        pos += w
    assert pos == twin.pos


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(BOTS), st.sampled_from(BOTS), st.integers(0, 2**40), st.integers(1, 6))
def test_the_block_kernel_plays_as_play_tables_and_writes_what_the_replay_encoder_writes(x, y, start, n):
    """``shengji_play_fill`` (a compiled block played and coded in one call) against the bots' own loop
    and the encoder by replay: the same actions counts, returns and bytes."""
    seeds, (o0, o1) = _compiled(x, y, start, n)
    px, py = (compiled_form(get_bot(b, ruleset="shengji"), "shengji") for b in (x, y))
    params = [np.stack([px if (s & 1) == t else py for s in range(4)]) for t in (0, 1)]
    payload, lengths, gains = C.shengji_play_encode(params[0], params[1], seeds)
    assert lengths.tolist() == o0["n_actions"].tolist() + o1["n_actions"].tolist()
    assert gains.tolist() == np.concatenate([o0["returns"], o1["returns"]]).astype(int).tolist()
    replayed, _gains = C.shengji_encode(seeds, o0["masks"], o0["n_actions"], o1["masks"], o1["n_actions"])
    assert payload == replayed


def test_compiled_blocks_decode_to_what_the_state_api_plays():
    cfg = Config.build(ruleset="shengji", bots="GREEDY,JANGARA", boards=200, seed=913)
    compiled = play_block(Job.from_config(cfg), (0, 0, 200), compact=True)
    assert compiled.codec == SHENGJI
    slow = play_block(Job.from_config(cfg, use_compiled=False), (0, 0, 12))  # the State API, 12 boards
    assert list(compiled.rows(GAME))[:24] == slow
    python = play_block(Job.from_config(cfg, use_compiled=False), (0, 0, 12), compact=True)
    assert python.codec == SHENGJI and list(python.rows(GAME)) == slow
    # at most 40 bytes a deal with the block's columns (the run directory's target, issue 23)
    assert (len(compiled.payload) + len(compiled.columns)) / 400 <= 40


def test_a_damaged_shengji_block_is_refused():
    cfg = Config.build(ruleset="shengji", bots="GREEDY,JANGARA", boards=32, seed=5)
    blk = play_block(Job.from_config(cfg), (0, 0, 32), compact=True)
    clean = list(decode_block(0, 32, 5, SHENGJI, blk.columns, blk.payload, GAME))
    refused = 0
    rnd = random.Random(3)
    for _ in range(40):
        damaged = bytearray(blk.payload)
        damaged[rnd.randrange(1, len(damaged))] ^= 1 << rnd.randrange(8)
        try:
            got = list(decode_block(0, 32, 5, SHENGJI, blk.columns, bytes(damaged), GAME))
        except ValueError:
            refused += 1
        else:  # a change that still replays to the stored returns must at least change the actions
            assert got != clean
    assert refused >= 30
    with pytest.raises(ValueError, match="unknown block codec 4 outside a run of the ruleset that owns it"):
        list(decode_block(0, 32, 5, SHENGJI, blk.columns, blk.payload, get_game("satat")))
    with pytest.raises(ValueError, match="wrong shape"):
        list(decode_block(0, 32, 5, SHENGJI, blk.columns, b"\x07" + blk.payload[1:], GAME))


def test_a_run_stores_shengji_blocks_exports_them_and_a_damaged_one_is_one_line(tmp_path):
    cfg = Config.build(ruleset="shengji", bots="GREEDY,JANGARA,KADO", boards=20, seed=41, workers=1, block=8)
    run_tournament(cfg, tmp_path / "r", quiet=True)
    with Store.read(tmp_path / "r") as store:
        codecs = {r[0] for r in store.conn.execute("SELECT codec FROM blocks")}
        tables = list(store.tables())
    assert codecs == {SHENGJI}
    assert len(tables) == 3 * 20 * 2
    slow = play_block(Job.from_config(cfg, use_compiled=False), (0, 0, 3))  # pairing 0 through the State API
    assert tables[:6] == [(p, b, t, xr, yr, unpack(payload)) for p, b, t, xr, yr, _n, payload in slow]
    out = CliRunner().invoke(cli, ["export", str(tmp_path / "r"), "--out", str(tmp_path / "r.jsonl")])
    assert out.exit_code == 0, out.output
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 3 * 20 * 2
    with sqlite3.connect(tmp_path / "r" / "run.sqlite") as conn:
        conn.execute("UPDATE blocks SET payload = substr(payload, 1, 40) WHERE start = 0")
    out = CliRunner().invoke(cli, ["export", str(tmp_path / "r"), "--out", str(tmp_path / "r2.jsonl")])
    assert out.exit_code != 0 and "undecodable block" in out.output, out.output
    assert len(out.output.strip().splitlines()) == 1


def test_a_block_whose_actions_do_not_replay_keeps_tables():
    """A State API block whose actions the replay refuses (here: given the seeds of other deals) is stored
    TABLES, never in a codec that cannot give it back."""
    cfg = Config.build(ruleset="shengji", bots="GREEDY,JANGARA", boards=2, seed=70)
    rows = play_block(Job.from_config(cfg, use_compiled=False), (0, 0, 2))
    tables = [None] * 4
    for _p, b, t, xr, yr, _n, payload in rows:
        tables[t * 2 + b] = (xr, yr, unpack(payload))
    assert encode_block(0, 0, 2, 70, "deal", tables, GAME).codec == SHENGJI
    assert encode_block(0, 0, 2, 71, "deal", tables, GAME).codec == TABLES  # shifted seeds: other deals


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**54 - 1), st.integers(0, 2**54 - 1))
def test_the_decoders_kind_lists_are_the_state_apis(one, two):
    from tekkasim.rulesets.shengji.game import _kinds

    two &= one
    assert C._kind_list(one, two) == _kinds(one, two)
