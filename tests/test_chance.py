"""Honest chance: a resampled world never carries the true state's future.

Chance after the deal exists in Satat only: the redeals (the draw for the first caller happens inside
``new_deal``, before any state exists, and is public). Feskot, Tekka and Shengji deal everything at once
(Shengji's kitty too), so their only unknowns are the hidden cards. For every ruleset: the hidden cards of a
world agree with the true ones no more than two worlds agree with each other. For Satat's redeals: a world
redeals from a fresh chance source (not the true next deal, not even correlated with it), two true states
differing only in their future chance give the same worlds, and a record replays its redeals exactly.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_information import GAMES, IDS, hand_cards, random_state

from tekkasim.bits import new_rng
from tekkasim.rules import get_game
from tekkasim.rulesets.satat.game import REDEAL

SATAT = get_game("satat")


def redeal_positions(n: int) -> list:
    """``n`` fresh Satat rounds whose caller may ask for a redeal."""
    out = []
    for seed in range(10_000):
        state = SATAT.new_deal(seed)
        if state.phase() == "redeal-or-troupe":
            out.append(state)
            if len(out) == n:
                return out
    raise AssertionError("too few redeal positions")


def redealt(state) -> list[set[int]]:
    """The deal a redeal of ``state`` brings (``state`` is not changed)."""
    after = state.clone()
    after.apply_action(REDEAL)
    return [set(after._dealt[s]) for s in range(4)]


def test_a_world_redeals_from_its_own_chance_not_the_true_next_deal():
    """Before the fix a world cloned the true RNG: its redeal was the true next deal every time (overlap 13
    of 13 cards). Now the caller's redealt hand in a world shares 13 * 13 / 52 = 3.25 cards with the true
    one on average, like any two independent deals."""
    overlaps, equal, n = [], 0, 0
    for state in redeal_positions(8):
        truth = redealt(state)
        for seat in range(4):
            for r in range(25):
                world = state.resample(seat, new_rng(1000 * seat + r))
                got = redealt(world)
                overlaps.append(len(got[state.caller] & truth[state.caller]))
                equal += got == truth
                n += 1
    assert equal == 0
    mean = sum(overlaps) / n
    assert 2.9 < mean < 3.6, mean  # 800 draws of a hypergeometric mean 3.25, sd 1.5: sd of the mean 0.05


def test_worlds_from_different_rngs_redeal_differently():
    state = redeal_positions(1)[0]
    deals = {frozenset(redealt(state.resample(state.caller, new_rng(r)))[state.caller]) for r in range(20)}
    assert len(deals) == 20


def test_true_states_differing_only_in_future_chance_give_the_same_worlds():
    """The same round read from its record under two seeds: every seat sees the same, the true next deals
    differ, and the worlds (and the redeals in them) are the same for the same rng."""
    for state in redeal_positions(4):
        record = state.to_record()
        a, _ = SATAT.from_record(record | {"seed": 11})
        b, _ = SATAT.from_record(record | {"seed": 12})
        assert all(a.information_key(s) == b.information_key(s) for s in range(4))
        assert redealt(a) != redealt(b)
        for seat in range(4):
            wa, wb = a.resample(seat, new_rng(seat)), b.resample(seat, new_rng(seat))
            assert wa.to_record() == wb.to_record()
            assert redealt(wa) == redealt(wb)


def test_a_world_after_redeals_keeps_no_script_of_the_recorded_future():
    """A round read from a record with two redeals starts from the first deal and is scripted to bring the
    recorded ones; a world built before the first redeal must not follow that script."""
    seed = next(s for s in range(20_000) if _redeals_twice(s))
    state = SATAT.new_deal(seed)
    state.apply_action(REDEAL)
    state.apply_action(REDEAL)
    state.apply_action(state.legal_actions()[0])
    record = state.to_record()
    start, actions = SATAT.from_record(record)
    assert actions[:2] == ["redeal", "redeal"]
    scripted = redealt(start)
    assert scripted == [set(state._abandoned[1][s]) for s in range(4)]  # the replay follows the record
    for seat in range(4):
        world = start.resample(seat, new_rng(seat))
        assert redealt(world) != scripted


def _redeals_twice(seed: int) -> bool:
    state = SATAT.new_deal(seed)
    for _ in range(2):
        if state.phase() != "redeal-or-troupe":
            return False
        state.apply_action(REDEAL)
    return True


def test_records_replay_their_redeals_and_continue_the_same_stream():
    """A seeded round written after one redeal, read back (with ``redealt`` or with the redeal only
    counted), redeals exactly as the round that wrote it would have."""
    seed = next(s for s in range(20_000) if _redeals_twice(s))
    state = SATAT.new_deal(seed)
    state.apply_action(REDEAL)
    record = state.to_record()
    assert record["unfinished"] and len(record["redealt"]) == 1
    truth = redealt(state)
    replayed, actions = SATAT.from_record(record)
    for text in actions:
        replayed.apply_action(replayed.string_to_action(text))
    assert replayed.to_record() == record and redealt(replayed) == truth
    counted = {k: v for k, v in record.items() if k != "redealt"}
    started, actions = SATAT.from_record(counted)
    assert actions == [] and started.redeals == 1 and redealt(started) == truth


def test_the_draw_for_the_first_caller_is_public_and_kept_by_worlds():
    for seed in range(10):
        state = SATAT.new_deal(seed)
        assert state.draw
        for seat in range(4):
            assert state.observation(seat).public["draw"] == state.draw
            assert state.resample(seat, new_rng(seed)).observation(seat).public["draw"] == state.draw


@pytest.mark.parametrize("g", range(len(GAMES)), ids=IDS)
def test_hidden_cards_of_worlds_do_not_lean_towards_the_truth(g):
    """No leak, in every ruleset: over many positions, a world's hidden hands share no more cards with the
    true hands than with another world's (a sampler that leaked the truth, even now and then, would), and a
    world equals the truth no more often than two worlds equal each other."""
    truth_agree = base_agree = truth_equal = base_equal = 0
    rnd = random.Random(g)
    for seed in range(60):
        state = random_state(*GAMES[g], seed, rnd.randrange(0, 60))
        seat = rnd.randrange(4)

        def hidden(world, seat=seat):
            return [Counter(hand_cards(world.observation(s))) for s in range(4) if s != seat]

        w1, w2 = (hidden(state.resample(seat, new_rng(seed * 2 + i))) for i in range(2))
        truth = hidden(state)
        truth_agree += sum(sum((a & b).values()) for a, b in zip(w1, truth, strict=True))
        base_agree += sum(sum((a & b).values()) for a, b in zip(w1, w2, strict=True))
        truth_equal += w1 == truth
        base_equal += w1 == w2
    assert truth_agree <= base_agree * 1.1 + 10
    assert truth_equal <= base_equal + 2
