"""The one compiled trick core (``tekkasim.rules._trickcore``) against the reference twins of each variant:
``reference.feskot`` (Prime rules), ``reference.satat`` (Troupe rules with 2♥) and ``reference.dd`` (both,
with no-trump deals as the solver plays them); and the rulesets' kernels, which call the core, on random
states against their twins (the solver's searches against its twin: tests/test_dd*.py).
"""

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.cards import cards_of
from tekkasim.reference import dd as ref_dd
from tekkasim.rules import _trickcore as core
from tekkasim.rules import get_game
from tekkasim.rulesets.satat import reference as ref_satat
from tekkasim.rulesets.trick52 import reference as ref_feskot

PRIME, TROUPE = core.PRIME_RULES, core.TROUPE_RULES

hands = st.integers(0, (1 << 52) - 1)
tricks = st.permutations(range(52)).map(lambda deck: list(deck[:4]))


def _legal(hand: int, pos: int, led_card: int, trump: int, variant: int) -> list[int]:
    lead = core.lead_suit_of(led_card, trump, variant) if pos > 0 else -1
    return cards_of(int(core.legal_mask(np.uint64(hand), pos, lead, variant)))


# --- Prime rules: Feskot and Tekka ----------------------------------------------------------------------


@settings(max_examples=400)
@given(hands, st.integers(0, 51), st.integers(0, 3), st.integers(0, 3))
def test_prime_legal_cards_equal_the_feskot_twin(hand, led, trump, pos):
    hand &= ~(1 << led)
    trick = [led] if pos > 0 else []
    assert _legal(hand, pos, led, trump, PRIME) == ref_feskot.legal_cards(cards_of(hand), trick)


@settings(max_examples=400)
@given(tricks, st.integers(0, 3), st.integers(0, 3))
def test_prime_trick_winner_equals_the_feskot_twin(trick, leader, prime):
    got = core.trick_winner(*trick, leader, prime, PRIME)
    assert got == ref_feskot.trick_winner(trick, leader, prime)
    assert got == core.seat_at(leader, core.winning_play(*trick, prime, PRIME), PRIME)


def test_prime_rules_on_tricks_where_suits_meet():
    """Most random tricks hold one card per suit; these share the led suit and Prime."""
    rnd = random.Random(5)
    for _ in range(20_000):
        s, p = rnd.randrange(4), rnd.randrange(4)
        pool = list(range(13 * s, 13 * s + 13)) + list(range(13 * p, 13 * p + 13)) * (p != s)
        trick = rnd.sample(pool, 3) + [rnd.choice([c for c in range(52)])]
        if len(set(trick)) < 4:
            continue
        rnd.shuffle(trick)
        leader = rnd.randrange(4)
        assert core.trick_winner(*trick, leader, p, PRIME) == ref_feskot.trick_winner(trick, leader, p)


# --- Troupe rules: Satat ------------------------------------------------------------------------------


@settings(max_examples=400)
@given(hands, st.one_of(st.just(core.TWO_HEARTS), st.integers(0, 51)), st.integers(0, 3), st.booleans())
def test_troupe_legal_cards_equal_the_satat_twin(hand, led, troupe, leads):
    hand &= ~(1 << led)
    pos = 0 if leads else 1
    want = sorted(ref_satat.legal_plays(cards_of(hand), None if leads else led, troupe))
    assert _legal(hand, pos, led, troupe, TROUPE) == want


@settings(max_examples=400)
@given(tricks, st.integers(0, 3), st.integers(0, 3), st.integers(-1, 3))
def test_troupe_trick_winner_equals_the_satat_twin(trick, leader, troupe, two_hearts_at):
    if two_hearts_at >= 0 and core.TWO_HEARTS not in trick:
        trick[two_hearts_at] = core.TWO_HEARTS
    pos = core.winning_play(*trick, troupe, TROUPE)
    assert pos == ref_satat.trick_winner(trick, troupe)
    assert core.trick_winner(*trick, leader, troupe, TROUPE) == (leader + 3 * pos) % 4


# --- both variants as the solver plays them (trump 4 = no trump) ------------------------------------------


@settings(max_examples=500)
@given(hands, tricks, st.integers(0, 3), st.integers(0, 4), st.sampled_from([PRIME, TROUPE]), st.integers(0, 3))
def test_core_equals_the_solver_twin(hand, trick, leader, trump, variant, pos):
    satat = variant == TROUPE
    assert core.next_seat(leader, variant) == ref_dd.next_seat(leader, satat)
    seats = [leader]
    for _ in range(3):
        seats.append(core.next_seat(seats[-1], variant))
    assert seats == [core.seat_at(leader, j, variant) for j in range(4)]
    lead = core.lead_suit_of(trick[0], trump, variant)
    assert lead == ref_dd.led_suit(trick[0], trump, satat)
    plays = list(zip(seats, trick, strict=True))
    assert core.trick_winner(*trick, leader, trump, variant) == ref_dd.trick_winner(plays, trump, satat)
    hand &= ~sum(1 << c for c in trick)
    table = tuple(trick[:pos])
    want = ref_dd.legal(frozenset(cards_of(hand)), table, lead if pos else None, satat)
    assert cards_of(int(core.legal_mask(np.uint64(hand), pos, lead if pos else -1, variant))) == want


# --- the users of the core, on random states -------------------------------------------------------------


def test_feskot_and_tekka_states_follow_the_twin():
    """Along random Feskot and Tekka deals, the cards the engine allows (``current_legal_mask``, from the
    core) are the twin's, and every trick goes to the twin's winner."""
    from tekkasim.rulesets.trick52 import _kernels as k

    rnd = random.Random(8)
    checked = 0
    for seed in range(60):
        ruleset = ("feskot", "tekka")[seed % 2]
        state = get_game(ruleset, **({"play_out": True} if ruleset == "feskot" else {})).new_deal(seed)
        while not state.is_terminal():
            if state.phase() == "play":
                seat, t, j = state.current_player(), len(state.winners()), int(state.info[k.I_PLAY])
                trick = [int(c) for c in state.arrays.plays[t, :j]]
                legal = cards_of(int(k.current_legal_mask(state.arrays)))
                assert legal == ref_feskot.legal_cards(cards_of(state.hand(seat)), trick)
                checked += 1
            state.apply_action(rnd.choice(state.legal_actions()))
        for t, winner in enumerate(state.winners()):
            trick = [int(c) for c in state.arrays.plays[t]]
            assert winner == ref_feskot.trick_winner(trick, int(state.arrays.leader[t]), state.prime)
    assert checked > 1500


def test_satat_kernel_legality_follows_the_twin():
    """Satat's ``legal_mask`` (the core under Troupe rules, led card in, -1 leading) on random hands."""
    from tekkasim.rulesets.satat import _kernels as S

    rnd = random.Random(9)
    for _ in range(10_000):
        deck = rnd.sample(range(52), 52)
        hand = deck[: rnd.randrange(1, 14)]
        lead = rnd.choice([-1, core.TWO_HEARTS, *deck[13:16]])
        if lead in hand:
            continue
        troupe = rnd.randrange(4)
        m = np.uint64(sum(1 << c for c in hand))
        want = sorted(ref_satat.legal_plays(hand, None if lead < 0 else lead, troupe))
        assert cards_of(int(S.legal_mask(m, lead, troupe))) == want
