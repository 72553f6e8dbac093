"""The LEGAL codec (format 3): Feskot and Tekka deals as indices among the legal actions. The packer fed by
the compiled play loop (alone, and with the block's columns in the worker's one kernel call), the worker's
kernel that plays a block and writes each symbol as it plays (``_trick52_play``), the encoder by compiled
replay and the State API twin write the same bytes; both
decoders give every action back; blocks decode to the records the State API path plays; a damaged block is
refused; a format-2 run (CARDS blocks) is read as it is and resumes into format 3 with a fresh run's digest."""

from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.bots import get_bot
from tekkasim.bots.compiled import compiled_form, play_tables
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import _play_block as _trick52_play
from tekkasim.rulesets.trick52 import codec as _legal
from tekkasim.rulesets.trick52.blocks import LEGAL, _legal_block
from tekkasim.tournament import Config, Store, TournamentError, run_tournament
from tekkasim.tournament.play import (
    CARDS,
    Job,
    decode_block,
    encode_block,
    encode_columns,
    pair_score,
    play_block,
)
from tekkasim.tournament.results import digest

GAMES = [
    ("feskot", {}),
    ("feskot", {"signals": False}),
    ("tekka", {}),
    ("tekka", {"raises": True}),
]
BOTS = ["RANDOM", "GREEDY", "KADO", "SADA", "TANA", "JANGARA"]


def _compiled(ruleset, options, x, y, start, n):
    game = get_game(ruleset, **options)
    xb, yb = get_bot(x, ruleset=ruleset), get_bot(y, ruleset=ruleset)
    outs = [play_tables(game, xb, yb, range(start, start + n), t) for t in (0, 1)]
    return game, np.arange(start, start + n, dtype=np.uint64), outs


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(GAMES),
    st.sampled_from(BOTS),
    st.sampled_from(BOTS),
    st.integers(0, 2**40),
    st.integers(1, 12),
)
def test_packer_replay_encoder_and_twin_agree_and_both_decoders_invert(game_spec, x, y, start, n):
    game, seeds, (o0, o1) = _compiled(*game_spec, x, y, start, n)
    packed = _legal.legal_packed(
        o0["actions"], o0["n_actions"], o0["legal"], o1["actions"], o1["n_actions"], o1["legal"]
    )
    replayed = _legal.legal_encode(game, seeds, o0["actions"], o0["n_actions"], o1["actions"], o1["n_actions"])
    deals = [o["actions"][i, : o["n_actions"][i]].tolist() for o in (o0, o1) for i in range(n)]
    assert packed == replayed == _legal.legal_encode_py(game, seeds, deals)
    # the worker's one kernel call (stream, columns, score) writes what the separate steps write
    xr = np.concatenate([o0["returns"][:, 0], o1["returns"][:, 1]])
    yr = np.concatenate([o0["returns"][:, 1], o1["returns"][:, 0]])
    lengths = np.concatenate([o0["n_actions"], o1["n_actions"]])
    assert _legal_block(o0, o1) == (packed, encode_columns(xr, yr, np.ones(2 * n), lengths), pair_score(xr, yr))
    lengths = np.array([len(d) for d in deals])
    actions, returns = _legal.legal_decode(game, seeds, packed, lengths)
    assert [actions[i, : lengths[i]].tolist() for i in range(2 * n)] == deals
    assert np.array_equal(returns, np.concatenate([o0["returns"], o1["returns"]]))
    assert _legal.legal_decode_py(game, seeds, packed, lengths.tolist()) == deals


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(GAMES),
    st.sampled_from(BOTS),
    st.sampled_from(BOTS),
    st.integers(0, 2**40),
    st.sampled_from([1, 2, 7, 64, 130]),
)
def test_the_block_kernel_plays_as_play_tables_and_writes_what_legal_block_writes(game_spec, x, y, start, n):
    """The worker's kernel (``_trick52_play``: play_tables' loop, each symbol written as it is played) gives
    the payload, columns and score that ``_legal_block`` makes of ``play_tables``' outputs (whose packer is
    tested against the State API twin above)."""
    game, seeds, (o0, o1) = _compiled(*game_spec, x, y, start, n)
    px, py = (compiled_form(get_bot(b, ruleset=game.name), game.name) for b in (x, y))
    assert _trick52_play.trick52_play_block(game, px, py, seeds) == _legal_block(o0, o1)


def test_play_block_stores_the_same_block_with_or_without_the_block_kernel(monkeypatch):
    for ruleset, bots in (("feskot", "GREEDY,JANGARA"), ("tekka", "KADO,TANA")):
        cfg = Config.build(ruleset=ruleset, bots=bots, boards=300, seed=17)
        job = Job.from_config(cfg)
        fast = play_block(job, (0, 100, 300), compact=True)
        with monkeypatch.context() as patch:  # the kernel refuses: play_tables plays it, _legal_block packs it
            patch.setattr(_trick52_play, "trick52_play_block", lambda *a: None)
            slow = play_block(job, (0, 100, 300), compact=True)
        assert fast.codec == slow.codec == LEGAL
        assert (fast.columns, fast.payload, fast.score) == (slow.columns, slow.payload, slow.score)


@pytest.mark.parametrize("ruleset,options", GAMES)
def test_compiled_blocks_decode_to_what_the_state_api_plays(ruleset, options):
    """Many random deals per ruleset: the compiled block, stored LEGAL, decodes to the tables (returns and
    every action) that the State API path plays for the same boards."""
    cfg = Config.build(ruleset=ruleset, bots="GREEDY,JANGARA", boards=400, seed=911, options=options)
    compiled = play_block(Job.from_config(cfg), (0, 0, 400), compact=True)
    assert compiled.codec == LEGAL
    slow = play_block(Job.from_config(cfg, use_compiled=False), (0, 0, 40))  # the State API, 40 boards
    assert list(compiled.rows(get_game(ruleset, **options)))[:80] == slow
    # and a block played through the State API is stored LEGAL too, decoding to the same rows
    python = play_block(Job.from_config(cfg, use_compiled=False), (0, 0, 40), compact=True)
    assert python.codec == LEGAL and list(python.rows(get_game(ruleset, **options))) == slow


def test_a_damaged_legal_block_is_refused():
    cfg = Config.build(ruleset="feskot", bots="GREEDY,JANGARA", boards=64, seed=5)
    blk = play_block(Job.from_config(cfg), (0, 0, 64), compact=True)
    game = get_game("feskot")
    refused = 0
    for i in range(1, 40):
        damaged = bytearray(blk.payload)
        damaged[i] ^= 0x5A
        try:
            got = list(decode_block(0, 64, 5, LEGAL, blk.columns, bytes(damaged), game))
        except ValueError:
            refused += 1
        else:  # a change that still replays to the stored returns must at least change the actions
            assert got != list(decode_block(0, 64, 5, LEGAL, blk.columns, blk.payload, game))
    assert refused >= 30  # nearly every damage breaks the replay or its returns
    with pytest.raises(ValueError, match="unknown block codec 3 outside a run of the ruleset that owns it"):
        list(decode_block(0, 64, 5, LEGAL, blk.columns, blk.payload, get_game("satat")))


def _as_format_2(directory, game) -> None:
    """Rewrite a run directory as the previous version wrote it: CARDS blocks, format 2."""
    conn = sqlite3.connect(directory / "run.sqlite")
    with conn:
        rows = conn.execute("SELECT x, y, start, stop, codec, columns, payload FROM blocks").fetchall()
        seed = json.loads((directory / "config.json").read_text())["identity"]["seed"]
        for x, y, start, stop, codec, columns, payload in rows:
            n = stop - start
            decoded = list(decode_block(start, stop, seed, codec, columns, payload, game))
            tables = [None] * (2 * n)
            for board, table, xr, yr, deals in decoded:
                tables[table * n + board - start] = (xr, yr, deals)
            old = encode_block(0, start, stop, seed, "deal", tables)  # no game: the CARDS codec
            assert old.codec == CARDS
            conn.execute(
                "UPDATE blocks SET codec = ?, columns = ?, payload = ? WHERE x = ? AND y = ? AND start = ?",
                (old.codec, old.columns, old.payload, x, y, start),
            )
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'format'")
    conn.close()
    config = json.loads((directory / "config.json").read_text())
    (directory / "config.json").write_text(json.dumps({**config, "format": 2}))


def test_a_format_2_run_is_read_and_resumes_into_format_3(tmp_path):
    small = Config.build(ruleset="tekka", bots="GREEDY,JANGARA,KADO", boards=30, seed=77, workers=1, block=8)
    old = tmp_path / "old"
    run_tournament(small, old, quiet=True)
    before = digest(old)
    _as_format_2(old, get_game("tekka"))
    assert digest(old) == before  # read as it is
    grown = Config.build(ruleset="tekka", bots="GREEDY,JANGARA,KADO", boards=50, seed=77, workers=1, block=8)
    summary = run_tournament(grown, old, quiet=True)
    assert summary.tables_played == 2 * 3 * 20
    assert json.loads((old / "config.json").read_text())["format"] == 3
    with Store.read(old) as store:
        codecs = {r[0] for r in store.conn.execute("SELECT codec FROM blocks")}
    assert codecs == {CARDS, LEGAL}
    run_tournament(grown, tmp_path / "fresh", quiet=True)
    assert digest(old) == digest(tmp_path / "fresh")


def test_a_run_of_a_newer_format_is_refused_in_one_line(tmp_path):
    run_tournament(
        Config.build(ruleset="feskot", bots="GREEDY,KADO", boards=3, seed=1, workers=1), tmp_path / "r", quiet=True
    )
    config = json.loads((tmp_path / "r" / "config.json").read_text())
    (tmp_path / "r" / "config.json").write_text(json.dumps({**config, "format": 4}))
    with pytest.raises(TournamentError, match="is not a tekkasim run configuration"):
        Store.read(tmp_path / "r")
