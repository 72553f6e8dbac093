"""The compiled Satat kernels against their pure-Python twin (``tekkasim.rulesets.satat.reference``) on many random
states: legal sets, Renonce marking, trick winners, the exchange, the draw, round end and points."""

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tekkasim.bits import new_rng
from tekkasim.cards import cards_of
from tekkasim.reference.bits import Rng
from tekkasim.rules import get_game
from tekkasim.rules._trickcore import TROUPE_RULES, winning_play
from tekkasim.rulesets.satat import _kernels as K
from tekkasim.rulesets.satat import reference as R
from tekkasim.rulesets.satat.game import ACCUSE, COLLECT, TROUPE, decode_accusation
from tekkasim.verify import replay_record, verify_record

GAME = get_game("satat")


def mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << c
    return np.uint64(m)


def test_random_rounds_equal_the_twin_deal_for_deal():
    out = GAME.play_random(1500, 424242)
    ref = R.play_random(1500, 424242)
    assert out["kind"].tolist() == ref["kind"]
    assert out["tricks"].tolist() == ref["tricks"]
    assert out["points"].tolist() == ref["points"]
    assert out["caller"].tolist() == ref["caller"] and out["troupe"].tolist() == ref["troupe"]
    assert set(out["kind"].tolist()) >= {R.SEVEN, R.KOT}  # both common endings occur in 1500 rounds
    assert np.array_equal(out["returns"], out["points"].astype(float))
    tricks, kind, points = np.zeros((1500, 2), np.int64), np.zeros(1500, np.int64), np.zeros((1500, 2), np.int64)
    K.play_random_rounds(np.uint64(424242), tricks, kind, points)  # the plain composition of the kernels
    assert kind.tolist() == ref["kind"] and tricks.tolist() == ref["tricks"] and points.tolist() == ref["points"]


def test_random_round_through_the_state_equals_the_kernel():
    """The Python State, driven by the same RNG stream as the kernel, reaches the same outcome."""
    out = GAME.play_random(60, 77)
    for i in range(60):
        state = GAME.new_deal(77 + i)
        rng = state._chance.copy()  # the deal stream, continued
        state.apply_action(TROUPE + int(K.below(rng, 4)))
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(K.below(rng, len(legal)))])
        # below() and random_card() draw the same numbers, and legal_actions() is sorted like kth()
        assert state.result()["tricks"] == {"A": out["tricks"][i, 0], "B": out["tricks"][i, 1]}
        assert [state.returns()[0], state.returns()[1]] == out["returns"][i].tolist()


@given(st.integers(0, (1 << 52) - 1), st.integers(-1, 51), st.integers(0, 3))
def test_legal_mask_equals_the_twin(hand, lead, troupe):
    hand &= ~(1 << lead) if lead >= 0 else -1
    got = cards_of(int(K.legal_mask(np.uint64(hand), lead, troupe)))
    want = sorted(R.legal_plays(cards_of(hand), None if lead < 0 else lead, troupe))
    assert got == want


def test_legal_renonce_winner_exchange_on_many_random_cases():
    rng = random.Random(2026)
    for _ in range(12_000):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = deck[: rng.randrange(1, 14)]
        lead = rng.choice([-1, 26, *deck[13:16]])
        troupe = rng.randrange(4)
        m = mask(hand)
        want = R.legal_plays(hand, None if lead < 0 else lead, troupe)
        assert cards_of(int(K.legal_mask(m, lead, troupe))) == sorted(want)
        for c in hand:
            assert bool(K.is_renonce(m, lead, troupe, c)) == (lead >= 0 and c not in want)
        assert cards_of(int(K.renonce_mask(m, lead, troupe))) == sorted(set(hand) - want)
        trick = deck[20:24] if rng.random() < 0.7 else [deck[20], 26, deck[21], deck[22]][:4]
        rng.shuffle(trick)
        if len(set(trick)) == 4:
            assert winning_play(*trick, troupe, TROUPE_RULES) == R.trick_winner(trick, troupe)
        full = deck[:13]
        for k in (1, 2):
            for losing in (True, False):
                got = cards_of(int(K.exchange_gives(mask(full), troupe, k, losing)))
                assert got == sorted(R.exchange_gives(full, troupe, k, losing))


def test_draw_equals_the_twin_and_logs_every_round():
    deck = np.empty(52, dtype=np.int64)
    log = np.empty((32, 4), dtype=np.int64)
    ties = 0
    for seed in range(3000):
        caller, rounds = K.draw_caller(new_rng(seed), deck, log)
        want, ref_log = R.draw_caller(Rng(seed))
        assert caller == want and rounds == len(ref_log)
        for r, drawn in enumerate(ref_log):
            assert {s: int(log[r, s]) for s in range(4) if log[r, s] >= 0} == drawn
        ties += rounds > 1
    assert ties > 100  # tied highest draws happen often (about one draw in six)


def _ref_round(state):
    hands = [cards_of(state.hand(s)) for s in range(4)]
    return R.Round(hands, state.troupe, state.caller)


def test_state_steps_equal_the_twin_on_30000_states():
    """Random rounds with Renonces (about one play in six is any held card) and accusations by any seat,
    also on the deciding trick before its collect (one time in two there): after every action the
    compiled state and the twin agree on everything the rules decide."""
    rng = random.Random(7)
    states = 0
    seed = 0
    windows = {"collect": 0, "accused": 0, "correct": 0}
    while states < 30_500:
        seed += 1
        state = GAME.new_deal(seed)
        state.apply_action(TROUPE + rng.randrange(4))
        ref = _ref_round(state)
        while not state.is_terminal():
            seat = state.current_player()
            assert seat == ref.to_move
            accusations = [a for s in range(4) for a in state.accusations(s)]
            assert (state.phase() == "collect") == (ref.decided != R.NONE)
            assert state.arrays[1][K.DECIDED] == ref.decided
            if ref.decided != R.NONE:  # the deciding trick is on the table: accuse or collect
                assert state.legal_actions() == state.possible_actions() == [COLLECT]
                assert len(ref.table) == 4 and len(accusations) == 8  # each seat: 2 opponent cards
                if rng.random() < 1 / 2:
                    a = rng.choice(accusations)
                    accused, by, card = decode_accusation(a)
                    state.apply_action(a)
                    correct = ref.accuse(by, card)
                    assert correct == state.accusation()["correct"]
                    windows["accused"] += 1
                    windows["correct"] += correct
                else:
                    state.apply_action(COLLECT)
                    ref.collect()
                    windows["collect"] += 1
            elif accusations and rng.random() < 0.02:
                a = rng.choice(accusations)
                accused, by, card = decode_accusation(a)
                assert (accused, card) in ref.table and accused % 2 != by % 2
                state.apply_action(a)
                assert ref.accuse(by, card) == state.accusation()["correct"]
            else:
                assert state.legal_actions() == sorted(ref.legal())
                assert state.possible_actions() == sorted(ref.hands[seat])
                pool = ref.hands[seat] if rng.random() < 1 / 6 else ref.legal()
                card = rng.choice(sorted(pool))
                assert state.is_renonce(card) == R.is_renonce(ref.hands[seat], ref.lead(), ref.troupe, card)
                state.apply_action(card)
                ref.play(card)
            states += 1
            st_ = state.arrays[1]
            assert [int(st_[K.WON_A]), int(st_[K.WON_B])] == ref.won
            assert state.renonces() == ref.renonces
            assert [int(w) if w >= 0 else None for w in st_[K.WINNERS : K.WINNERS + len(ref.winners)]] == ref.winners
            assert state.is_terminal() == ref.over
        result = state.result()
        assert result["kind"] == {R.SEVEN: "seven", R.KOT: "kot", R.KOT52: "kot52", R.RENONCE: "renonce"}[ref.kind]
        assert [result["points"]["A"], result["points"]["B"]] == ref.points
        assert [result["tricks"]["A"], result["tricks"]["B"]] == ref.won
        if seed % 4 == 0:  # the record (no "collect" in it) replays to the same actions and result
            record = state.to_record()
            replayed, error = replay_record(record)
            assert error is None and replayed.history() == state.history() and verify_record(record).ok
    assert states >= 30_000
    # Both ways out of the deciding trick, and both verdicts of an accusation there, occur many times.
    assert windows["collect"] > 150 and windows["accused"] > 150 and 0 < windows["correct"] < windows["accused"]


def test_accusation_actions_cover_exactly_the_opponent_cards_on_the_table():
    state = GAME.new_deal(3)
    state.apply_action(TROUPE + 3)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
        table = state.table()
        for by in range(4):
            wanted = sorted((s, c) for s, c in table if s % 2 != by % 2)
            got = sorted((decode_accusation(a)[0], decode_accusation(a)[2]) for a in state.accusations(by))
            assert got == wanted and all(a >= ACCUSE for a in state.accusations(by))
