"""Shengji: the compiled kernels against the pure-Python reference on many random states (more than
10,000 validator verdicts per run, plus shapes, trick winners, lead/follow enumeration, level changes
and whole random deals with the same RNG stream)."""

import random
from collections import Counter
from itertools import product

import numpy as np
import pytest
from helpers import same
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.bits import new_rng
from tekkasim.errors import IllegalAction
from tekkasim.reference.bits import Rng
from tekkasim.rules import get_game
from tekkasim.rulesets.shengji import _kernels as K
from tekkasim.rulesets.shengji import reference as R
from tekkasim.rulesets.shengji.game import enumerate_follows, enumerate_leads, follow_spec

RULE = {
    K.OK: None,
    K.NOT_IN_HAND: "not-in-hand",
    K.LEAD_SHAPE: "lead-shape",
    K.CARD_COUNT: "card-count",
    K.FOLLOW_SUIT: "follow-suit",
    K.FOLLOW_PAIRS: "follow-pairs",
}
DECK = [k for k in range(54)] * 2
TABLES = {(t, lv): K.new_tables(t, lv) for t in range(5) for lv in range(13)}


def masks(cards) -> tuple[np.uint64, np.uint64]:
    one = two = 0
    for k in cards:
        if one >> k & 1:
            two |= 1 << k
        one |= 1 << k
    return np.uint64(one), np.uint64(two)


def random_position(rng: random.Random):
    """A random trump, level and 108-card deck order: half the time uniform, half the time "pairy" (runs
    of consecutive kinds with both copies side by side, lightly mixed), so that slices of it hold the
    pairs and tractors that uniform deals rarely give."""
    trump, level = rng.randrange(5), rng.randrange(13)
    if rng.random() < 0.5:
        deck = list(DECK)
        rng.shuffle(deck)
        return trump, level, deck
    runs, k = [], 0
    while k < 54:
        length = rng.randint(1, 4)
        runs.append([c for c in range(k, min(k + length, 54)) for _ in range(2)])
        k += length
    rng.shuffle(runs)
    deck = [c for run in runs for c in run]
    for _ in range(15):
        i, j = rng.randrange(108), rng.randrange(108)
        deck[i], deck[j] = deck[j], deck[i]
    return trump, level, deck


def test_validator_matches_reference_on_10000_states():
    rng = random.Random(20261129)
    ref_rng = Rng(7)
    seen = Counter()
    for _ in range(10_500):
        trump, level, deck = random_position(rng)
        eff, strength, suit_kinds, strength_kinds = TABLES[trump, level]
        hand = deck[: rng.randint(1, 25)]
        lead = None
        if rng.random() < 0.75:
            leads = R.legal_leads(Counter(deck[40:65]), trump, level)
            lead = leads[rng.randrange(len(leads))]
        n = 1 if lead is None else len(lead)
        pick = rng.random()
        if lead is not None and pick < 0.4 and len(hand) >= n:
            play = R.random_follow(Counter(hand), lead, trump, level, ref_rng)
        elif lead is None and pick < 0.4:
            options = R.legal_leads(Counter(hand), trump, level)
            play = options[rng.randrange(len(options))]
        elif (
            lead is not None
            and pick < 0.6
            and sum(R.effective_suit(k, trump, level) == R.effective_suit(lead[0], trump, level) for k in hand) >= n
        ):
            in_suit = [k for k in hand if R.effective_suit(k, trump, level) == R.effective_suit(lead[0], trump, level)]
            play = rng.sample(in_suit, n)  # right suit, pairs by chance: tests the pair duty
        elif pick < 0.85:
            size = max(1, n + rng.choice((0, 0, 0, 0, -1, 1)) if lead else rng.randint(1, 6))
            play = rng.sample(hand, min(size, len(hand)))
        else:
            play = rng.sample(deck, n)  # mostly cards the hand does not hold
        if lead is None:
            code = K.check_play(*masks(hand), *masks(play), 0, 0, 0, eff, strength, suit_kinds)
        else:
            pairs = sum(1 for v in Counter(lead).values() if v == 2)
            code = K.check_play(
                *masks(hand), *masks(play), len(lead), pairs, int(eff[lead[0]]), eff, strength, suit_kinds
            )
        if any(play.count(k) > 2 for k in play):
            continue  # not a multiset of the two decks; the Python layer rejects it before the kernel
        expected = R.play_error(Counter(hand), play, lead, trump, level)
        assert RULE[int(code)] == expected, (trump, level, hand, lead, play)
        seen[expected] += 1
    assert sum(seen.values()) >= 10_000
    assert all(seen[rule] >= 100 for rule in RULE.values()), seen


def test_shapes_match_reference():
    rng = random.Random(5)
    found = Counter()
    for _ in range(4000):
        trump, level, deck = random_position(rng)
        eff, strength, suit_kinds, _ = TABLES[trump, level]
        hand = Counter(deck[:25])
        pairs = [k for k in hand if hand[k] == 2]
        if pairs and rng.random() < 0.6:
            play = [k for k in rng.sample(pairs, rng.randint(1, min(4, len(pairs)))) for _ in range(2)]
        else:
            play = rng.sample(deck[:25], rng.randint(1, 4))
        if any(play.count(k) > 2 for k in play):
            continue
        got = K.play_shape(*masks(play), eff, strength, suit_kinds)
        got = None if got[0] < 0 else tuple(int(x) for x in got)
        ref = R.shape(play, trump, level)
        assert got == ref, (trump, level, play)
        found[None if ref is None else min(ref[0], 2)] += 1
    assert found[2] > 50 and found[1] > 500 and found[None] > 500


def _ruff_or_follow(hand: Counter, lead: list[int], trump: int, level: int, rng: random.Random, ref_rng: Rng):
    """A legal follow; a void player sometimes plays a trump play of the lead's shape when it has one."""
    e = R.effective_suit(lead[0], trump, level)
    void = all(R.effective_suit(k, trump, level) != e for k in hand.elements())
    if void and rng.random() < 0.7:
        trumps = Counter({k: v for k, v in hand.items() if R.effective_suit(k, trump, level) == R.TRUMP})
        same = [
            p
            for p in R.legal_leads(trumps, trump, level)
            if len(p) == len(lead) and R.shape(p, trump, level)[0] == R.shape(lead, trump, level)[0]
        ]
        if same:
            return same[rng.randrange(len(same))]
    return R.random_follow(hand, lead, trump, level, ref_rng)


def test_trick_winners_match_reference():
    rng = random.Random(11)
    ref_rng = Rng(3)
    outcomes = Counter()
    for _ in range(3000):
        trump, level, deck = random_position(rng)
        eff, strength, suit_kinds, _ = TABLES[trump, level]
        cut = rng.randint(4, 25)  # late in a deal hands are short and voids common
        hands = [Counter(deck[cut * s : cut * s + cut]) for s in range(4)]
        leads = R.legal_leads(hands[0], trump, level)
        lead = max(rng.sample(leads, min(3, len(leads))), key=len)  # favour pairs and tractors
        if len(lead) > cut:
            continue
        plays = [lead]
        for s in (1, 2, 3):
            plays.append(_ruff_or_follow(hands[s], lead, trump, level, rng, ref_rng))
        shape, e, top = K.play_shape(*masks(lead), eff, strength, suit_kinds)
        best, who = top + (16 if e == K.TRUMP else 0), 0
        for s in (1, 2, 3):
            assert R.play_error(hands[s], plays[s], lead, trump, level) is None
            void = (int(masks(list(hands[s].elements()))[0]) & int(suit_kinds[e])) == 0
            key = K.play_key(*masks(plays[s]), shape, e, void, eff, strength, suit_kinds)
            if key > best:
                best, who = key, s
        ref = R.trick_winner(plays, hands, trump, level)
        assert who == ref, (trump, level, plays)
        ruff = who > 0 and R.effective_suit(plays[who][0], trump, level) != R.effective_suit(lead[0], trump, level)
        outcomes["ruff" if ruff else ("follower" if who else "leader")] += 1
        outcomes["tractor"] += len(lead) >= 4
    assert outcomes["ruff"] > 100 and outcomes["follower"] > 300 and outcomes["tractor"] > 100, outcomes


def test_lead_enumeration_matches_reference():
    rng = random.Random(2)
    tractors = 0
    for _ in range(1500):
        trump, level, deck = random_position(rng)
        _, _, _, strength_kinds = TABLES[trump, level]
        hand = deck[: rng.randint(1, 25)]
        got = enumerate_leads(*(int(m) for m in masks(hand)), strength_kinds)
        ref = sorted(tuple(sorted(p)) for p in R.legal_leads(Counter(hand), trump, level))
        assert got == ref
        tractors += sum(len(p) >= 4 for p in got)
    assert tractors > 200


def _brute_follows(hand: Counter, lead, trump, level):
    items = sorted(hand.items())
    out = set()
    for counts in product(*[range(c + 1) for _, c in items]):
        if sum(counts) != len(lead):
            continue
        play = [k for (k, _), c in zip(items, counts, strict=True) for _ in range(c)]
        if R.play_error(hand, play, lead, trump, level) is None:
            out.add(tuple(play))
    return sorted(out)


def test_follow_enumeration_is_complete_and_exact():
    rng = random.Random(9)
    total = 0
    for _ in range(400):
        trump, level, deck = random_position(rng)
        eff = TABLES[trump, level][0]
        hand = Counter(deck[: rng.randint(2, 9)])
        leads = R.legal_leads(Counter(deck[20:45]), trump, level)
        lead = max(rng.sample(leads, 3), key=len)
        if len(lead) > sum(hand.values()):
            continue
        e = R.effective_suit(lead[0], trump, level)
        pairs = sum(1 for v in Counter(lead).values() if v == 2)
        got = sorted(enumerate_follows(follow_spec(hand, len(lead), pairs, e, eff)))
        assert got == _brute_follows(hand, lead, trump, level)
        total += len(got)
    assert total > 1000


def test_level_change_matches_reference():
    for points in range(0, 405, 5):
        assert tuple(K.level_change(points)) == R.level_change(points)


@pytest.mark.parametrize(
    "context, ref_args",
    [
        ({}, ((0, 0), -1, 0)),
        ({"levels": {"A": "K", "B": "7"}, "dealer": "left"}, ((11, 5), 3, 3)),
        ({"levels": {"A": "A", "B": "A"}, "declare_first": "top"}, ((12, 12), -1, 2)),
    ],
)
def test_random_deals_match_reference(context, ref_args):
    game = get_game("shengji")
    out = game.play_random(60, 424242, **context)
    keys = ["trump", "level", "dealer", "calls", "attacker_points", "kitty_bonus"]
    for i in range(60):
        ref = R.random_deal(424242 + i, *ref_args)
        got = (
            [int(out[k][i]) for k in keys]
            + [int(x) for x in out["returns"][i]]
            + [int(x) for x in out["levels_after"][i]]
            + [int(out["next_dealer"][i]), int(out["match_winner"][i]), int(out["tricks"][i])]
        )
        assert got == ref, i


def test_random_deals_look_like_shengji():
    out = get_game("shengji").play_random(3000, 1)
    assert set(np.unique(out["trump"])) == {0, 1, 2, 3, 4}
    assert out["tricks"].min() >= 13 and out["tricks"].max() <= 25
    assert (out["attacker_points"] - out["kitty_bonus"]).max() <= 200
    assert (out["kitty_bonus"] > 0).any() and (out["calls"] == 0).any()
    assert set(np.unique(out["returns"][:, 0])) >= {0, 1, 2}


def test_resampled_worlds_respect_voids_and_differ_from_the_truth():
    game = get_game("shengji")
    rng = random.Random(4)
    differ = checked = 0
    for seed in range(3):
        state = game.new_deal(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            if state.phase() != "play" or rng.random() > 0.25 or state.is_terminal():
                continue
            seat = state.current_player()
            world = state.resample(seat, new_rng(seed))
            eff = state.tables[0]
            for s in range(4):
                assert len(world.hand(s)) == len(state.hand(s))
                for e in range(5):
                    if state.voids[s, e]:
                        assert all(eff[k] != e for k in world.hand(s).cards())
            assert world.hand(seat) == state.hand(seat)
            for s, call in state.declarations:  # what a seat showed was in its dealt hand
                assert all(world.dealt[s].count(k) >= call.count(k) for k in call)
            checked += 1
            differ += any(world.hand(s) != state.hand(s) for s in range(4) if s != seat)
    assert checked > 20 and differ >= checked - 2


@settings(max_examples=300)
@given(
    st.integers(0, 4),
    st.integers(0, 12),
    st.permutations(DECK),
    st.integers(1, 25),
    st.integers(0, 80),
    st.integers(1, 6),
)
def test_validator_property(trump, level, deck, hand_size, start, play_size):
    """Hypothesis: any hand, any lead shape from another hand, any proposed cards of the hand."""
    eff, strength, suit_kinds, _ = TABLES[trump, level]
    hand = deck[:hand_size]
    leads = R.legal_leads(Counter(deck[25:50]), trump, level)
    lead = leads[start % len(leads)]
    play = hand[:play_size]
    pairs = sum(1 for v in Counter(lead).values() if v == 2)
    code = K.check_play(*masks(hand), *masks(play), len(lead), pairs, int(eff[lead[0]]), eff, strength, suit_kinds)
    assert RULE[int(code)] == R.play_error(Counter(hand), play, lead, trump, level)
    legal = R.play_error(Counter(hand), play, None, trump, level) is None
    assert legal == (K.check_play(*masks(hand), *masks(play), 0, 0, 0, eff, strength, suit_kinds) == K.OK)


# --- determinization: constraints, no leak, fallback ------------------------------------------------


RANKS_ = "23456789TJQKA"


def positions(n: int, seed: int):
    """``n`` random (state, observer) pairs from every phase, most of them in play; reached with the
    compiled random policy (``random_legal_action``), the deal copied at each chosen point."""
    game = get_game("shengji")
    rng = random.Random(seed)
    krng = new_rng(seed)
    out, deal = [], 0
    while len(out) < n:
        state = game.new_deal(
            seed * 1000 + deal,
            dealer=None if deal % 3 else deal % 4,
            levels={"A": RANKS_[deal % 13], "B": RANKS_[deal % 13]},
        )
        deal += 1
        while not state.is_terminal() and len(out) < n:
            if rng.random() < 0.08:
                out.append((state.clone(), rng.randrange(4)))
            state.apply_action(state.random_legal_action(krng))
        if state.is_terminal() and len(out) < n and deal % 4 == 0:
            out.append((state.clone(), rng.randrange(4)))
    return out


def hidden_view(state, seat) -> list[Counter]:
    """What ``seat`` does not see: the other seats' hands and dealt hands, the kitty, the burial order."""
    out = [Counter(state.hand(s).cards()) for s in range(4) if s != seat]
    out += [Counter(state.dealt[s]) for s in range(4) if s != seat]
    out.append(Counter(state.kitty))
    out.append(Counter(enumerate(state.buried)))
    return out


def agreement(a: list[Counter], b: list[Counter]) -> int:
    return sum(sum((x & y).values()) for x, y in zip(a, b, strict=True))


def check_world(state, world, seat, pair_duty=True):
    """Everything public (and the seat's own view) holds in ``world``."""
    assert same(world.observation(seat), state.observation(seat)), state.where()
    assert world.seed is None
    if seat == state.current_player() and state.phase() == "play" and state.trick:
        assert world.follow_structure() == state.follow_structure()  # the legal follows, compactly
    elif seat == state.current_player():
        assert world.legal_actions() == state.legal_actions()
    for s in range(4):
        assert len(world.hand(s)) == len(state.hand(s))
        assert len(world.dealt[s]) == 25
        for _, call in [d for d in state.declarations if d[0] == s]:
            assert all(world.dealt[s].count(k) >= call.count(k) for k in call)
    total = Counter(k for h in world.dealt for k in h) + Counter(world.kitty)
    assert total == Counter({k: 2 for k in range(54)})
    caps = state.known_caps(seat)
    for s in range(4):
        held = Counter(world.hand(s).cards())
        for k, c in caps[s].items():
            if pair_duty or c == 0 and state.voids[s, state.effective_suit(k)]:
                assert held[k] <= c, (s, k)


def test_known_caps_hold_in_the_truth_and_primary_draws_succeed():
    """The caps derived from the public plays are never violated by the true hands (they are not too
    strict), and the constrained draw almost never needs a second try."""
    failures = capped = 0
    pos = positions(500, 11)
    for state, seat in pos:
        caps = state.known_caps(seat)
        for s in range(4):
            held = Counter(state.hand(s).cards())
            assert all(held[k] <= c for k, c in caps[s].items()), (state.where(), s)
        capped += any(c == 1 for cs in caps for c in cs.values())
        if state.phase() != "terminal":
            failures += state._draw_world(seat, random.Random(len(pos)), caps) is None
    assert capped > 50
    assert failures <= len(pos) // 100


def test_resampled_worlds_keep_every_public_constraint():
    rng = new_rng(5)
    for state, seat in positions(400, 12):
        check_world(state, state.resample(seat, rng), seat)


def test_fallback_worlds_keep_everything_but_the_pair_duty():
    """``tries=0`` goes straight to the direct world: not replayed, but the observation, the legal
    actions, sizes, voids and declared cards hold."""
    rng = new_rng(6)
    for state, seat in positions(300, 13):
        if state.phase() == "terminal" and seat == state.dealer:
            continue
        check_world(state, state.resample(seat, rng, tries=0), seat, pair_duty=False)


@pytest.mark.parametrize("tries", [50, 0])
def test_worlds_agree_with_the_truth_no_more_than_with_each_other(tries):
    """No leak: the hidden cards of a world agree with the true ones no more than two independent worlds
    agree with each other (a sampler that sometimes returned the truth would agree more), and a world
    equals the truth outright no more often than two worlds are equal."""
    rng = new_rng(7)
    truth_agree = base_agree = truth_equal = base_equal = 0
    for state, seat in positions(300, 14):
        if state.phase() == "terminal" and seat == state.dealer:
            continue
        w1, w2 = (hidden_view(state.resample(seat, rng, tries=tries), seat) for _ in range(2))
        truth = hidden_view(state, seat)
        truth_agree += agreement(w1, truth)
        base_agree += agreement(w1, w2)
        truth_equal += w1 == truth
        base_equal += w1 == w2
    assert truth_agree <= base_agree * 1.03
    assert truth_equal <= base_equal + 3


def test_terminal_worlds_hide_the_kitty_from_all_but_the_dealer():
    game = get_game("shengji")
    state = game.new_deal(3)
    krng = new_rng(3)
    while not state.is_terminal():
        state.apply_action(state.random_legal_action(krng))
    world = state.resample(state.dealer, krng)  # nothing hidden from the dealer: a copy without the seed
    assert world.seed is None and state.seed is not None
    world.seed = state.seed
    assert same(world, state)
    for seat in {0, 1, 2, 3} - {state.dealer}:
        worlds = [state.resample(seat, krng) for _ in range(5)]
        for world in worlds:
            check_world(state, world, seat)
        assert any(w.kitty != state.kitty or w.buried != state.buried for w in worlds)


def test_random_legal_action_is_legal_and_covers_the_choices():
    krng = new_rng(8)
    for state, _ in positions(400, 15):
        if state.is_terminal():
            continue
        action = state.random_legal_action(krng)
        if state.phase() == "play" and state.trick:
            spec = state.follow_structure()
            assert Counter(spec["must"]) <= Counter(action)
            n, pairs, e, _ = state._lead
            eff, strength, suit_kinds, _ = state.tables
            code = K.check_play(
                state.hands[state.current_player(), 0],
                state.hands[state.current_player(), 1],
                *masks(action),
                n,
                pairs,
                e,
                eff,
                strength,
                suit_kinds,
            )
            assert code == K.OK
        else:
            legal = state.legal_actions()
            assert action in legal
            if len(legal) <= 6:  # uniform over few choices: every one shows up
                seen = {state.random_legal_action(krng) for _ in range(200)}
                assert seen == set(legal)
    with pytest.raises(IllegalAction):
        state = get_game("shengji").new_deal(1)
        while not state.is_terminal():
            state.apply_action(state.random_legal_action(krng))
        state.random_legal_action(krng)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 14), min_size=5, max_size=5),
    st.integers(-1, 1),
    st.lists(st.integers(1, 31), min_size=80, max_size=80),
    st.integers(0, 2**32),
)
def test_assign_keeps_halls_condition_as_its_reference_does(caps, extra, classes, seed):
    """The incremental Hall check of ``_assign`` takes the same draws and gives the same assignment as the
    full recomputation of its reference (infeasible instances included: ``extra`` cards too many/few)."""
    from tekkasim.rulesets.shengji.game import _assign, _assign_reference

    n = max(0, sum(caps) + extra)
    allowed = [frozenset(b for b in range(5) if c >> b & 1) for c in (classes * (n // 80 + 1))[:n]]
    got = _assign(allowed, caps, random.Random(seed))
    assert got == _assign_reference(allowed, caps, random.Random(seed))
    if got is not None:
        assert all(b in allowed[i] for i, b in enumerate(got))
        assert Counter(got) == Counter({b: c for b, c in enumerate(caps) if c})


def test_assign_matches_its_reference_on_real_draws():
    """The cards and buckets of real resampling draws (mid-deal states, caps from the public plays)."""
    from tekkasim.rulesets.shengji import game as S

    seen = []
    real = S._assign

    def both(allowed_of, caps, rnd):
        state = rnd.getstate()
        got = real(allowed_of, caps, rnd)
        ref = random.Random()
        ref.setstate(state)
        seen.append((got, S._assign_reference(allowed_of, caps, ref)))
        return got

    S._assign = both
    try:
        rng = new_rng(7)
        for state, seat in positions(80, 13):
            state.resample(seat, rng)
    finally:
        S._assign = real
    assert len(seen) >= 60 and sum(g is not None for g, _ in seen) >= 50
    assert all(g == r for g, r in seen)


def test_caps_memo_follows_the_state_and_seat():
    """Resampling reuses the caps only for the same state object, history length and seat."""
    from tekkasim.rulesets.shengji.game import _known_caps_memo

    krng = new_rng(14)
    for state, seat in positions(40, 14):
        for s in (seat, (seat + 1) % 4, seat):
            assert _known_caps_memo(state, s) == state.known_caps(s)
        other = state.clone()
        assert _known_caps_memo(other, seat) == other.known_caps(seat)
        if not state.is_terminal():
            state.apply_action(state.random_legal_action(krng))
            assert _known_caps_memo(state, seat) == state.known_caps(seat)
