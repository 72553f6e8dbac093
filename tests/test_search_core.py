"""The one search core (``bots/pimc.py``): its world stream, budget and resampling, and the compiled
adapters against the slow State-API adapter (same worlds, same values, same decisions)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tekkasim.bits import below, new_rng
from tekkasim.bots import decide, get_bot, pimc
from tekkasim.bots.base import View
from tekkasim.bots.pimc import Limit, StateApiAdapter, Worlds, draw_worlds, systematic
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52.search import DoubleDummy, Rollouts, Trick52Adapter, solver


def advance(state, seed: int, until):
    """``state`` advanced by random actions while ``until(state)`` is false (None if the deal ends first)."""
    rng = new_rng(seed)
    while not until(state):
        if state.is_terminal():
            return None
        legal = state.legal_actions()
        state.apply_action(legal[int(below(rng, len(legal)))])
    return None if state.is_terminal() else state


def held(state) -> int:
    return (
        len(state.legal_actions()) if state.phase() != "play" else int(state.hand(state.current_player())).bit_count()
    )


# --- the core ------------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    weights=st.lists(st.floats(0.0, 10.0, allow_nan=False), min_size=1, max_size=40),
    n=st.integers(1, 64),
    seed=st.integers(0, 2**32),
)
def test_systematic_resampling_keeps_each_world_its_share(weights, n, seed):
    """Each candidate is kept floor or ceil of ``n w / sum w`` times; none without weight."""
    w = np.array(weights)
    picks = systematic(w, n, new_rng(seed))
    if not w.sum() > 0:
        assert picks is None
        return
    counts = np.bincount(picks, minlength=len(w))
    assert counts.sum() == n
    share = n * w / w.sum()
    assert np.all(np.abs(counts - share) < 1 + 1e-6)
    assert np.all(counts[w == 0] == 0)


def counting_stream(limit: Limit, batch, start: float):
    calls = []

    def draw(m):
        calls.append(m)
        return list(range(sum(calls) - m, sum(calls)))

    return Worlds(draw, limit, batch, start), calls


@pytest.mark.parametrize("batch", [None, 1, 3])
def test_a_fixed_limit_scores_exactly_its_worlds_on_every_pass(batch):
    worlds, calls = counting_stream(Limit(7), batch, 0.0)
    assert list(worlds) == list(range(7))
    assert list(worlds) == list(range(7))  # a second pass draws nothing more
    assert calls == ([7] if batch is None else [1] * 7 if batch == 1 else [3, 3, 1])


def test_a_time_limit_caps_at_the_worlds_and_scores_at_least_one():
    import time

    worlds, _ = counting_stream(Limit(9, time_ms=600_000), None, time.perf_counter())
    assert len(list(worlds)) == 9  # the time is not spent: at most `worlds`
    worlds, calls = counting_stream(Limit(9, time_ms=1), None, time.perf_counter() - 1.0)
    assert list(worlds) == list(range(pimc.TIME_BATCH))[:1]  # past the deadline: one world
    assert calls == [pimc.TIME_BATCH]


def test_slip_draws_only_with_a_positive_rate():
    state = get_game("feskot").new_deal(3)
    view = View(state, state.current_player())
    rng = new_rng(5)
    before = rng.copy()
    assert pimc.slip(view, rng, 0.0, view.legal) is None and np.array_equal(rng, before)
    assert pimc.slip(view, rng, 1.0, view.legal) in view.legal


# --- the compiled adapters against the State-API adapter --------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), ruleset=st.sampled_from(["feskot", "tekka", "satat", "shengji"]))
def test_every_adapter_draws_the_same_world_stream(seed, ruleset):
    """Unweighted, the compiled adapters and the State-API adapter see the same worlds from the same seed;
    weighted, the kept worlds are among the same candidates."""
    state = advance(get_game(ruleset).new_deal(seed), seed, lambda s: s.phase() == "play" and len(s.history()) > 20)
    assume(state is not None)
    view = View(state, state.current_player())
    slow = [
        w.information_key(view.seat) for w in draw_worlds(StateApiAdapter(slow_params()), view, new_rng(seed), 8, 1)
    ]
    plain = [w.to_record() for w in draw_worlds(StateApiAdapter(slow_params()), view, new_rng(seed), 8, 1)]
    if ruleset in ("feskot", "tekka"):
        ad = Trick52Adapter(get_bot("TANOOR", ruleset=ruleset, inference=False).params)  # unweighted
        fast = draw_worlds(ad, view, new_rng(seed), 8, 4)
        assert [w.to_record() for w in fast] == plain
        weighted = Trick52Adapter(get_bot("TIZAB", ruleset=ruleset).params)
        kept = [w.to_record() for w in draw_worlds(weighted, view, new_rng(seed), 2, 4)]
        assert all(r in plain for r in kept)
    else:
        bot = get_bot("TANOOR", ruleset=ruleset)
        ad = bot.adapter(bot.params)
        fast = draw_worlds(ad, view, new_rng(seed), 8, 1)
        assert [w.to_record() for w in fast] == plain
    assert slow == [view.key] * 8


def slow_params(**params) -> dict:
    """The State-API adapter's parameters: its defaults, then ``params``."""
    return get_bot("tekkasim.bots.pimc:StateApiSearch", **params).params


def team_tricks(state, seat: int) -> float:
    return state.returns()[seat & 1]


class ExactTricks(StateApiAdapter):
    value = staticmethod(team_tricks)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_double_dummy_values_are_the_exact_minimax_of_the_state_api(seed):
    """Feskot, every trick played out, three cards a hand: the solver's value of each card (the
    ``evaluator="dd"`` adapter's) is the State-API minimax of the team's tricks."""
    game = get_game("feskot", play_out=True, signals=False)
    state = advance(game.new_deal(seed), seed, lambda s: s.phase() == "play" and held(s) <= 3)
    assume(state is not None)
    seat = state.current_player()
    values = solver().card_values(DoubleDummy.position(state.arrays))
    slow = ExactTricks(slow_params(evaluate="exact")).scores(state, state.legal_actions(), seat, new_rng(0))
    assert [values[c] for c in state.legal_actions()] == list(slow)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), ruleset=st.sampled_from(["feskot", "tekka"]))
def test_oracle_decides_as_the_exact_state_api_search(seed, ruleset):
    """ORACLE (the search core's one-world case, double-dummy adapter) plays a card that the State-API
    adapter's exact minimax of the deal's returns rates best."""
    game = get_game(ruleset, play_out=True, signals=False) if ruleset == "feskot" else get_game(ruleset, signals=False)
    state = advance(game.new_deal(seed), seed, lambda s: s.phase() == "play" and held(s) <= 3)
    assume(state is not None and len(state.legal_actions()) > 1)
    seat = state.current_player()
    pick = decide(get_bot("ORACLE"), state, seat, seed)
    slow = StateApiAdapter(slow_params(evaluate="exact")).scores(state, state.legal_actions(), seat, new_rng(0))
    assert slow[state.legal_actions().index(pick)] == slow.max()
    # the State-API search itself, on the one true world, picks a card of the same value
    slow_pick = StateApiAdapter(slow_params(evaluate="exact")).decide(View(state, seat), Worlds.one(state), new_rng(0))
    assert slow[state.legal_actions().index(slow_pick)] == slow.max()


def feskot_rollout_score(state, seat: int) -> float:
    ours, theirs = team_tricks(state, seat), state.returns()[1 - (seat & 1)]
    return ours - theirs + 3.0 * np.sign(ours - theirs)


class FeskotRollouts(StateApiAdapter):
    value = staticmethod(feskot_rollout_score)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), depth=st.integers(6, 40))
def test_feskot_rollouts_score_as_state_api_jangara_play_outs(seed, depth):
    """The compiled JANGARA rollouts (TANOOR's evaluator) score every card of a world as the State-API
    adapter playing the world out with the JANGARA bot (signals off, as in the rollouts)."""
    game = get_game("feskot", signals=False)
    state = advance(game.new_deal(seed), seed, lambda s: s.phase() == "play" and len(s.history()) >= depth)
    assume(state is not None)
    seat = state.current_player()
    world = View(state, seat).sample(new_rng(seed))
    cards = [a for a in state.legal_actions() if a < k.PRIME_BASE]
    fast = Rollouts("jangara", 1, new_rng(1)).card_scores(world, cards, seat & 1)
    slow = FeskotRollouts(slow_params(rollout="JANGARA")).scores(world, cards, seat, new_rng(1))
    assert list(fast) == list(slow)


def shengji_value(state, seat: int) -> float:
    attacking = state.dealer & 1 != seat & 1
    return (state.attacker_points if attacking else -state.attacker_points) / 40.0


class ShengjiRollouts(StateApiAdapter):
    value = staticmethod(shengji_value)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), depth=st.integers(0, 60))
def test_shengji_rollouts_score_as_state_api_jangara_play_outs(seed, depth):
    """The Shengji adapter's compiled rollouts value each candidate of a world as the State-API adapter
    playing the world out with the Shengji JANGARA bot."""
    from tekkasim.rulesets.shengji.bots import candidates, policy_vector, rollout_values, state_arrays

    game = get_game("shengji")
    state = advance(game.new_deal(seed), seed, lambda s: s.phase() == "play" and len(s.history()) >= depth)
    assume(state is not None and len(state.legal_actions()) > 1)
    seat = state.current_player()
    view = View(state, seat)
    world = view.sample(new_rng(seed))
    cands = candidates(view, new_rng(2), 8)
    params = np.tile(policy_vector("JANGARA"), (4, 1))
    fast = rollout_values(state_arrays(world), cands, seat, params, new_rng(3))
    slow = ShengjiRollouts(slow_params(rollout="JANGARA")).scores(world, cands, seat, new_rng(3))
    assert list(fast) == list(slow)


@pytest.mark.parametrize("ruleset", ["feskot", "tekka", "satat", "shengji"])
def test_the_state_api_search_plays_any_ruleset(ruleset):
    """Nothing but the State API: a legal decision in every ruleset, the same for the same seed."""
    seeds = iter(range(11, 100))
    state = None
    while state is None:  # a deal that reaches its play (a Tekka auction may be passed out)
        seed = next(seeds)
        state = advance(get_game(ruleset).new_deal(seed), seed, lambda s: s.phase() == "play" and len(s.history()) > 12)
    bot = get_bot("tekkasim.bots.pimc:StateApiSearch", worlds=2)
    seat = state.current_player()
    a = decide(bot, state, seat, 5)
    assert a in state.legal_actions() and a == decide(bot, state, seat, 5)
