"""The compiled forms of RANDOM, GREEDY and KADO ... JANGARA: the same decisions as the Python path, and a
whole-deal loop whose actions replay through the State API to the same returns."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.bits import below, new_rng
from tekkasim.bots import decide, get_bot, mix_seed
from tekkasim.bots.compiled import compiled_params, play_tables
from tekkasim.errors import BotError, OptionError
from tekkasim.rules import get_game
from tekkasim.rulesets.feskot.game import with_signal
from tekkasim.rulesets.trick52 import _policy as pk
from tekkasim.rulesets.trick52.view import policy_view, signals_accepted

BOTS = ("RANDOM", "GREEDY", "KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA")
# the family's parameters every preset leaves off, switched on
VARIANTS = ("JANGARA:unblock=true", "TANA:give_count=true", "SADA:unblock=true,give_count=true")
GAMES = {"feskot": get_game("feskot"), "tekka": get_game("tekka"), "tekka-raises": get_game("tekka", raises=True)}


def random_state(game, seed: int, steps: int):
    """A state ``steps`` random actions into the deal of ``seed`` (cards carry random signals, so that
    observations hold some), stopped early at the end of the deal."""
    state = game.new_deal(seed, first=seed % 4)
    rng = new_rng(seed ^ 0x5EED)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        a = legal[int(below(rng, len(legal)))]
        if a < 52 and game.options.get("signals", True):
            a = with_signal(a, (None, "slam", "drop")[int(below(rng, 3))])
        state.apply_action(a)
    return state


def compiled_decision(bot, state, seed: int) -> int:
    return int(
        pk.decide_arrays(compiled_params(bot), state.arrays, signals_accepted(state.possible_actions()), new_rng(seed))
    )


@settings(max_examples=60)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**40), st.integers(0, 70), st.integers(0, 2**62))
def test_view_from_observation_equals_view_from_arrays(name, seed, steps, dseed):
    state = random_state(GAMES[name], seed, steps)
    if state.is_terminal():
        return
    seat = state.current_player()
    cansig = signals_accepted(state.possible_actions())
    v, m = policy_view(state.observation(seat), state.game.options, cansig)
    v2, m2 = pk.new_view()
    pk.view_from_arrays(state.arrays, seat, cansig, v2, m2)
    assert v.tolist() == v2.tolist()
    assert m.tolist() == m2.tolist()


@settings(max_examples=60)
@given(
    st.sampled_from(sorted(GAMES)),
    st.integers(0, 2**40),
    st.integers(0, 70),
    st.integers(0, 2**62),
    st.sampled_from(BOTS + VARIANTS),
    st.sampled_from([None, 0.3]),
)
def test_compiled_and_python_make_the_same_decision(name, seed, steps, dseed, bot_name, rate):
    state = random_state(GAMES[name], seed, steps)
    if state.is_terminal():
        return
    ruleset = GAMES[name].name
    extra = {} if rate is None or bot_name == "RANDOM" else {"mistake_rate": rate}
    bot = get_bot(bot_name, ruleset=ruleset, **extra)
    seat = state.current_player()
    python = decide(bot, state, seat, dseed)
    assert python in state.possible_actions()
    assert compiled_decision(bot, state, dseed) == python


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("table", [0, 1])
def test_play_tables_replays_through_the_state_api(name, table):
    game = GAMES[name]
    seeds = [11, 12, 13, 2**62 + 5, 987654321]
    out = play_tables(game, "JANGARA", "KADO:mistake_rate=0.5", seeds, table)
    x, y = get_bot("JANGARA"), get_bot("KADO", mistake_rate=0.5)
    for b, seed in enumerate(seeds):
        state = game.new_deal(seed)
        actions = [int(a) for a in out["actions"][b] if a >= 0]
        assert len(actions) == out["n_actions"][b]
        for i, a in enumerate(actions):
            seat = state.current_player()
            bot = x if (seat & 1) == table else y
            # the Python path, decision seed mix_seed(board seed, table, decision number), gives the same
            assert decide(bot, state, seat, mix_seed(seed, table, i)) == a
            state.apply_action(a)
        assert state.is_terminal()
        assert tuple(out["returns"][b]) == state.returns()


def test_unblock_and_give_count_change_some_cards_and_replay_through_the_state_api():
    """Each parameter changes some of JANGARA's cards (so it is not ignored), and the compiled loop's
    deals with it replay through the Python path."""
    game = GAMES["feskot"]
    seeds = list(range(300, 340))
    plain = play_tables(game, "JANGARA", "SADA", seeds, 0)["actions"]
    for variant in ("JANGARA:unblock=true", "JANGARA:give_count=true"):
        out = play_tables(game, variant, "SADA", seeds, 0)
        assert (out["actions"] != plain).any(axis=1).sum() >= 2
        x, y = get_bot(variant), get_bot("SADA")
        for b, seed in enumerate(seeds[:6]):
            state = game.new_deal(seed)
            for i, a in enumerate(int(a) for a in out["actions"][b] if a >= 0):
                seat = state.current_player()
                assert decide(x if seat % 2 == 0 else y, state, seat, mix_seed(seed, 0, i)) == a
                state.apply_action(a)


def test_play_tables_swaps_seats_between_tables():
    game = GAMES["feskot"]
    seeds = list(range(100, 160))
    a0 = play_tables(game, "JANGARA", "RANDOM", seeds, 0)["returns"]
    a1 = play_tables(game, "JANGARA", "RANDOM", seeds, 1)["returns"]
    # JANGARA is team A at table 0 and team B at table 1: it wins most deals at both
    assert (a0[:, 0] > a0[:, 1]).mean() > 0.7
    assert (a1[:, 1] > a1[:, 0]).mean() > 0.7


def test_play_tables_takes_seeds_as_a_list_a_range_or_an_array():
    game = GAMES["tekka"]
    seeds = [5, 4, 3, 2**63 - 1]
    want = play_tables(game, "TANA", "GREEDY", seeds, 1)["actions"].tolist()
    assert play_tables(game, "TANA", "GREEDY", np.array(seeds, np.uint64), 1)["actions"].tolist() == want
    assert play_tables(game, "TANA", "GREEDY", range(5, 2, -1), 1)["actions"].tolist() == want[:3]
    assert play_tables(game, "TANA", "GREEDY", range(0), 1)["actions"].shape[0] == 0
    for bad in (range(-1, 3), np.array([3, -2]), [1, 2**63], range(2**63 - 1, 2**63 + 1)):
        with pytest.raises(OptionError, match="seed"):
            play_tables(game, "TANA", "GREEDY", bad, 0)


def test_play_tables_bad_input():
    with pytest.raises(BotError, match="table"):
        play_tables(GAMES["feskot"], "SADA", "KADO", [1], 2)
    with pytest.raises(BotError, match="unknown bot"):
        play_tables(GAMES["feskot"], "NOBODY", "KADO", [1], 0)
    with pytest.raises(BotError, match="RANDOM has no compiled form in shengji"):
        play_tables(get_game("shengji"), "RANDOM", "KADO", [1], 0)
    with pytest.raises(BotError, match="TANOOR has no compiled form in feskot"):
        play_tables(GAMES["feskot"], "TANOOR", "KADO", [1], 0)


def test_one_attribute_for_the_compiled_form():
    """``compiled_form(ruleset)`` is the one name of a compiled form; GREEDY is one bot per ruleset."""
    assert get_bot("JANGARA").compiled_form("satat") is None  # Feskot/Tekka's JANGARA does not play Satat
    assert get_bot("JANGARA", ruleset="satat").compiled_form("satat") is not None
    assert get_bot("RANDOM").compiled_form("shengji") is None
    assert get_bot("TANOOR").compiled_form("feskot") is None
    for ruleset in ("feskot", "tekka", "satat", "shengji"):
        state = get_game(ruleset).new_deal(3)
        if get_bot("GREEDY").supports(ruleset):
            assert type(get_bot("GREEDY")) is type(get_bot("GREEDY", ruleset=ruleset))
        else:  # asked without the ruleset, GREEDY refuses the ruleset it does not play, never plays another bot
            with pytest.raises(BotError, match=f"ruleset='{ruleset}'"):
                decide(get_bot("GREEDY"), state, state.current_player(), 1)


def test_policy_rollout_ends_every_deal():
    game = GAMES["tekka-raises"]
    px = compiled_params("JANGARA")
    for seed in range(20):
        state = game.new_deal(seed)
        arrays = state.arrays.copy()
        pk.policy_rollout(arrays, px, compiled_params("GREEDY"), 0, new_rng(seed), pk.new_work())
        assert arrays.info[2] == -1 or arrays.info[1] == 4  # I_TO_MOVE -1 / PH_TERMINAL


def test_mistakes_draw_like_maybe_mistake():
    """With the old uniform draw (``mistake_uniform``, off in every preset) at mistake_rate 1 every decision
    is base.random_legal's draw after maybe_mistake's first draw."""
    game = GAMES["tekka"]
    for seed in range(30):
        state = random_state(game, seed, seed % 40)
        if state.is_terminal():
            continue
        legal = state.legal_actions()
        rng = new_rng(seed)
        below(rng, 1 << 30)
        expect = legal[int(below(rng, len(legal)))]
        bot = get_bot("SADA", mistake_rate=1.0, mistake_uniform=True)
        assert compiled_decision(bot, state, seed) == expect
        assert decide(bot, state, state.current_player(), seed) == expect


def test_compiled_vectors():
    assert compiled_params("RANDOM")[pk.P_MODE] == pk.MODE_RANDOM
    assert compiled_params("GREEDY")[pk.P_MODE] == pk.MODE_GREEDY
    assert [compiled_params(b)[pk.P_MEMORY] for b in BOTS[2:]] == [0, 1, 1, 2, 3, 3]
    assert np.all(np.diff([compiled_params(b)[pk.P_MISTAKE] for b in BOTS[2:]]) <= 0)


_TWIN_SCRIPT = """
import sys
import numpy as np
from tekkasim.bits import new_rng
from tekkasim.rulesets.trick52 import _policy as pk
data = np.load(sys.argv[1])
out = [int(pk.decide(p, v, m, legal, int(n), new_rng(int(seed))))
       for p, v, m, legal, n, seed in zip(data["p"], data["v"], data["m"], data["legal"], data["n"], data["seed"])]
np.save(sys.argv[2], np.array(out, np.int64))
"""


def test_policy_runs_the_same_as_plain_python(tmp_path):
    """The twin: the same policy source run by the Python interpreter (NUMBA_DISABLE_JIT=1, in a child
    process) decides as the compiled kernels do, on random views of both rulesets for every bot."""
    import os
    import subprocess
    import sys

    ps, vs, ms, legals, ns, seeds, expect = [], [], [], [], [], [], []
    for i in range(300):
        name = sorted(GAMES)[i % 3]
        state = random_state(GAMES[name], 1000 + i, (i * 7) % 40)
        if state.is_terminal():
            continue
        name = (BOTS + VARIANTS)[i % (len(BOTS) + len(VARIANTS))]
        extra = {"mistake_rate": 0.2} if i % 2 and name != "RANDOM" else {}
        bot = get_bot(name, ruleset=state.game.name, **extra)
        legal = state.legal_actions()
        v, m = policy_view(state.observation(state.current_player()), state.game.options, 1)
        buf = np.zeros(64, np.int64)
        buf[: len(legal)] = legal
        p = compiled_params(bot)
        ps.append(p), vs.append(v), ms.append(m), legals.append(buf), ns.append(len(legal)), seeds.append(i)
        expect.append(int(pk.decide(p, v, m, buf, len(legal), new_rng(i))))
    data = tmp_path / "views.npz"
    np.savez(
        data,
        p=np.array(ps),
        v=np.array(vs),
        m=np.array(ms),
        legal=np.array(legals),
        n=np.array(ns),
        seed=np.array(seeds),
    )
    out = tmp_path / "out.npy"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    subprocess.run([sys.executable, "-c", _TWIN_SCRIPT, str(data), str(out)], check=True, env=env, timeout=600)
    assert np.load(out).tolist() == expect
    assert len(expect) > 120


def _loop_lowest_card(h, trump):
    """``_lowest_card`` card by card: lowest rank, a side card before Prime, then by suit."""
    cards = [c for c in range(52) if h >> c & 1]
    return min(cards, key=lambda c: (c % 13) * 8 + (4 if c // 13 == trump else 0) + c // 13, default=-1)


def _loop_power(c, led, trump):
    s, r = c // 13, c % 13
    return 39 + r if s == trump else 19 + r if s == led else -1


@settings(max_examples=300)
@given(st.integers(0, 2**52 - 1), st.integers(0, 2**52 - 1), st.integers(-1, 3), st.integers(0, 3), st.integers(-1, 51))
def test_bit_helpers_equal_their_card_by_card_twins(h, gone, trump, led, wc):
    """The mask forms of the policy helpers choose what a loop over the cards chooses."""
    h64, gone64 = np.uint64(h), np.uint64(gone)
    assert pk._lowest_card(h64, trump) == _loop_lowest_card(h, trump)
    wpower = -1 if wc < 0 else _loop_power(wc, led, trump)
    beats = [c for c in range(52) if h >> c & 1 and _loop_power(c, led, trump) > wpower]
    expect = min(beats, key=lambda c: (_loop_power(c, led, trump), c), default=-1)
    assert pk._cheapest_winner(h64, wpower, led, trump) == expect
    for s in range(4):
        top = 13 * s + 13
        masters = sum(1 << c for c in range(13 * s, top) if all(gone >> x & 1 for x in range(c + 1, top)))
        assert int(pk._masters(s, gone64)) == masters
