"""The Satat search's inference from card plays (bots/_satat_search.py) against a State-API twin, and the
adapter's use of it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hyp

from tekkasim.bits import below, new_rng
from tekkasim.bots import decide, get_bot
from tekkasim.bots.base import View
from tekkasim.rules import get_game
from tekkasim.rulesets.satat import _kernels as K
from tekkasim.rulesets.satat import _policy as sp
from tekkasim.rulesets.satat import _search as ss
from tekkasim.rulesets.satat.bots import SatatAdapter, _rollout_vector, match_score, policy_act, wins_next
from tekkasim.rulesets.satat.game import SatatState

GAME = get_game("satat")
JANGARA = get_bot("JANGARA", ruleset="satat")


def mid_round(seed: int, renonce_rate: float) -> SatatState | None:
    """A play-phase state after a random number of plays, each by JANGARA or (one in three) a random
    rule-following card, and with ``renonce_rate`` any held card (a Renonce at times)."""
    rng = new_rng(seed)
    state = GAME.new_deal(seed)
    stop = int(below(rng, 52))
    plays = 0
    while not state.is_terminal() and plays < stop:
        seat = state.current_player()
        phase = state.phase()
        if phase != "play":
            state.apply_action(decide(JANGARA, state, seat, seed + plays))
            continue
        legal = [a for a in state.legal_actions() if a < 52]
        roll = int(below(rng, 100))
        if roll < renonce_rate * 100:
            cards = [a for a in state.possible_actions() if a < 52]
            state.apply_action(cards[int(below(rng, len(cards)))])
        elif roll < 33:
            state.apply_action(legal[int(below(rng, len(legal)))])
        else:
            a = policy_act(_rollout_vector(), View(state, seat), new_rng(seed + plays))
            state.apply_action(a)
        plays += 1
    return state if state.phase() == "play" else None


def same_class_twin(a: int, b: int, hand: int, gone: int) -> bool:
    if a == b:
        return True
    if sp.TWO_HEARTS in (a, b) or a // 13 != b // 13:
        return False
    return all((hand | gone) >> c & 1 for c in range(min(a, b) + 1, max(a, b)) if c != sp.TWO_HEARTS)


def play_weight_twin(world: SatatState, me: int, miss: float) -> float:
    """The round replayed through the State API from the hands at its first card; every other seat's play
    with a choice asked of the JANGARA rollout policy through its Python form (``policy_act`` on a View)."""
    hands, st = world.arrays
    n = int(4 * st[K.TRICK] + st[K.N_TABLE])
    plays = []
    for i in range(n):
        leader = int(st[K.LEADERS + i // 4])
        plays.append(((leader + 3 * (i % 4)) % 4, int(st[K.PLAYS + i])))
    start = [int(hands[s]) for s in range(4)]
    for seat, c in plays:
        start[seat] |= 1 << c
    dealt = [[c for c in range(52) if start[s] >> c & 1] for s in range(4)]
    caller = int(st[K.LEADERS])
    replay = SatatState(GAME, (caller + 1) % 4, caller, dealt, score=world.score_before)
    replay.apply_action(sp.TROUPE_BASE + int(st[K.TROUPE]))
    w, gone = 1.0, 0
    for seat, c in plays:
        assert replay.current_player() == seat
        if seat != me:
            legal = [a for a in replay.legal_actions() if a < 52]
            if len(legal) > 1:
                model = policy_act(_rollout_vector(), View(replay, seat), new_rng(0))
                if not same_class_twin(model, c, replay.hand(seat), gone):
                    w *= miss
        replay.apply_action(c)
        gone |= 1 << c
    return w


@settings(max_examples=60, deadline=None)
@given(seed=hyp.integers(0, 10**6), rate=hyp.sampled_from([0.0, 0.1]), miss=hyp.sampled_from([0.0, 0.3, 0.5]))
def test_play_weight_equals_its_state_api_twin(seed, rate, miss):
    state = mid_round(seed, rate)
    if state is None:
        return
    me = int(below(new_rng(seed), 4))
    world = View(state, me).sample(new_rng(seed + 1))
    hands, st = world.arrays
    h0, scratch = np.empty(4, np.uint64), np.empty(K.ST_SIZE, np.int64)
    score = match_score(View(world, me).observation)
    fast = ss.play_weight(_rollout_vector(), hands.copy(), st.copy(), me, score, miss, h0, scratch, new_rng(0))
    assert fast == play_weight_twin(world, me, miss)
    # the world's arrays are left as they were
    assert np.array_equal(world.arrays[0], hands) and np.array_equal(world.arrays[1], st)


def test_play_weight_of_the_true_state_of_jangara_play_is_one():
    """Every seat played like the model in the true deal, so the true state weighs 1 whatever ``miss``;
    some sampled worlds of the same view weigh less (the plays tell something)."""
    lighter = 0
    for seed in range(30):
        state = GAME.new_deal(seed)
        stop = 8 + seed % 30
        while state.phase() != "terminal" and len(state.history()) < stop:
            seat = state.current_player()
            if state.phase() == "play":
                state.apply_action(policy_act(_rollout_vector(), View(state, seat), new_rng(0)))
            else:
                state.apply_action(decide(JANGARA, state, seat, seed))
        if state.phase() != "play":
            continue
        me = state.current_player()
        hands, st = state.arrays
        h0, scratch = np.empty(4, np.uint64), np.empty(K.ST_SIZE, np.int64)
        score = match_score(View(state, me).observation)
        assert ss.play_weight(_rollout_vector(), hands, st, me, score, 0.0, h0, scratch, new_rng(0)) == 1.0
        world = View(state, me).sample(new_rng(seed))
        wh, wst = world.arrays
        lighter += ss.play_weight(_rollout_vector(), wh, wst, me, score, 0.0, h0, scratch, new_rng(0)) < 1.0
    assert lighter > 0


def test_same_class_is_its_twin_on_random_cards():
    rng = np.random.default_rng(5)
    for _ in range(3000):
        a, b = (int(x) for x in rng.integers(0, 52, 2))
        hand, gone = (int(x) for x in rng.integers(0, 1 << 52, 2, dtype=np.int64))
        assert ss.same_class(a, b, np.uint64(hand), np.uint64(gone)) == same_class_twin(a, b, hand, gone)


def test_adapter_weighs_by_card_plays_only_when_asked():
    """``play_miss=1`` leaves the weights to ``bluff_weight`` alone; below 1 they are multiplied by the
    play likelihood, and a search with it still plays legally and reproducibly."""
    state = None
    for seed in range(100):
        state = mid_round(seed, 0.0)
        if state is not None and len(state.history()) > 12:
            break
    me = state.current_player()
    view = View(state, me)
    worlds = [view.sample(new_rng(i)) for i in range(24)]
    base = {p.name: p.default for p in SatatAdapter.params}
    plain = SatatAdapter({**base, "bluff_weight": 0.5}).weigh(view, worlds, new_rng(0))
    inferred = SatatAdapter({**base, "bluff_weight": 0.5, "play_miss": 0.3}).weigh(view, worlds, new_rng(0))
    assert not SatatAdapter(base).weighted() and SatatAdapter({**base, "play_miss": 0.3}).weighted()
    assert np.all(inferred <= plain) and np.any(inferred < plain)
    bot = get_bot("TIZAB", ruleset="satat", play_miss=0.3, worlds=8)
    a = decide(bot, state, me, 7)
    assert a in state.legal_actions() and a == decide(bot, state, me, 7)


def wins_next_twin(hands, st, side: int, k: int) -> bool:
    """Whether ``side`` can win each of the next ``k`` tricks: every rule-following card tried through the
    rules' kernels (``play_card`` on copies), the trick counts read after each card."""
    target, other = int(st[K.WON_A + side]) + k, int(st[K.WON_A + 1 - side])

    def rec(h, s) -> bool:
        if s[K.WON_A + 1 - side] > other:
            return False
        if s[K.WON_A + side] >= target:
            return True
        seat = int(s[K.TO_MOVE])
        legal = int(K.legal_mask(h[seat], K.current_lead(s), s[K.TROUPE]))
        ours = seat & 1 == side
        for c in (c for c in range(52) if legal >> c & 1):
            h2, s2 = h.copy(), s.copy()
            K.play_card(h2, s2, c)
            if rec(h2, s2) == ours:  # ours: a card that keeps the run; theirs: one that breaks it
                return ours
        return not ours

    return rec(hands.copy(), st.copy())


def late_round(seed: int) -> SatatState | None:
    """A play-phase state with at most 7 cards in the mover's hand, played by JANGARA (and one play in
    three a random rule-following card), no round decided."""
    rng = new_rng(seed)
    state = GAME.new_deal(seed)
    while not state.is_terminal():
        seat = state.current_player()
        if state.phase() != "play":
            state.apply_action(decide(JANGARA, state, seat, seed))
            continue
        hands, st = state.arrays
        if int(hands[seat]).bit_count() <= 7 and st[K.DECIDED] == 0:
            return state
        legal = [a for a in state.legal_actions() if a < 52]
        if below(rng, 3) == 0:
            state.apply_action(legal[int(below(rng, len(legal)))])
        else:
            state.apply_action(policy_act(_rollout_vector(), View(state, seat), new_rng(seed)))
    return None


@settings(max_examples=80, deadline=None)
@given(seed=hyp.integers(0, 10**6), side=hyp.integers(0, 1), k=hyp.integers(1, 3))
def test_wins_next_equals_its_kernel_twin(seed, side, k):
    state = late_round(seed)
    if state is None:
        return
    hands, st = state.arrays
    k = min(k, 7 - int(st[K.WON_A + side]), 13 - int(st[K.TRICK]) - (st[K.N_TABLE] == 4))
    if k < 1 or st[K.KOT_TEAM] >= 0:
        return
    h0, s0 = hands.copy(), st.copy()
    assert wins_next(hands, st, side, k) == wins_next_twin(hands, st, side, k)
    assert np.array_equal(hands, h0) and np.array_equal(st, s0)


def test_wins_next_knows_a_hand_of_top_trumps():
    """Bottom (team A) on lead with the top five spades, Troupe spades: its side takes the next five tricks
    whatever the others hold, not six (it has five cards); with the 2♥ against it, not even one."""

    def arrays(right):
        hands = np.array([sum(1 << c for c in cards) for cards in hands_of(right)], np.uint64)
        st = np.empty(K.ST_SIZE, np.int64)
        K.init_round(st, 3, 0)
        return hands, st

    def hands_of(right):
        return ([51, 50, 49, 48, 47], right, [13, 14, 15, 16, 17], [0, 1, 2, 3, 4])

    hands, st = arrays([5, 6, 7, 8, 9])
    assert wins_next(hands, st, 0, 5) and not wins_next(hands, st, 1, 1)
    hands, st = arrays([5, 6, 7, 8, sp.TWO_HEARTS])
    assert not wins_next(hands, st, 0, 1) and wins_next(hands, st, 1, 1)


def points_twin(h, s, team: int) -> float:
    """The round's points for ``team`` by full-width minimax over the rule-following cards through the
    rules' kernels (small positions only)."""
    if s[K.DECIDED]:
        s = s.copy()
        K.collect(s)
    if s[K.OVER]:
        m = float(s[K.POINTS_A] - s[K.POINTS_B])
        return m if team == 0 else -m
    seat = int(s[K.TO_MOVE])
    legal = int(K.legal_mask(h[seat], K.current_lead(s), s[K.TROUPE]))
    values = []
    for c in (c for c in range(52) if legal >> c & 1):
        h2, s2 = h.copy(), s.copy()
        K.play_card(h2, s2, c)
        values.append(points_twin(h2, s2, team))
    return max(values) if seat & 1 == team else min(values)


def test_points_scores_are_the_round_points_of_minimax():
    """``dd_value=points``: every card's solver score, 5 a point (the tie-breaks add at most 1 to a seven
    and to a loss), is the exact minimax of the round's points after it, KOTs and KOT 52s included, on late
    positions of JANGARA's play (one with a KOT made among them)."""
    from tekkasim.rulesets.satat.bots import _Scorer

    scorer = _Scorer(1, 13, new_rng(0), "points")
    seen, kots = 0, 0
    for seed in range(400):
        state = GAME.new_deal(seed)
        while not state.is_terminal():
            seat = state.current_player()
            hands, st = state.arrays
            if state.phase() == "play" and int(hands[seat]).bit_count() <= 3 and st[K.DECIDED] == 0:
                cards = [a for a in state.legal_actions() if a < 52]
                got = scorer.dd_scores(state, cards, seat & 1)
                for c, v in zip(cards, got, strict=True):
                    h2, s2 = hands.copy(), st.copy()
                    K.play_card(h2, s2, c)
                    assert round(v / 5.0) == points_twin(h2, s2, seat & 1)
                    assert v - 5.0 * round(v / 5.0) in (0.0, 1.0)
                seen += 1
                kots += st[K.KOT_TEAM] >= 0
                break
            state.apply_action(decide(JANGARA, state, seat, seed))
        if seen >= 60 and kots >= 1:
            break
    assert seen >= 60 and kots >= 1
