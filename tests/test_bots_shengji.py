"""The Shengji ladder (tekkasim.rulesets.shengji.bots, _shengji_policy): registry, legality, the compiled deal loop
against the decide path, the observation arrays against the true state's, no peeking, and decisions in
positions where the rules of the family say what to do."""

from __future__ import annotations

import numpy as np
import pytest

from tekkasim.bits import new_rng
from tekkasim.bots import choose, decide, describe, get_bot
from tekkasim.errors import BotError
from tekkasim.rules import get_game
from tekkasim.rulesets.shengji import _kernels as K
from tekkasim.rulesets.shengji import _policy as sp
from tekkasim.rulesets.shengji.bots import _kinds, policy_input, policy_vector, state_arrays
from tekkasim.tournament.play import play_deal_state

GAME = get_game("shengji")
HEURISTIC = ("GREEDY", "KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA")
SEARCH = ("TANOOR", "TIZAB", "ZELZELA")


def random_state(seed: int, steps: int | None = None, **context):
    """A deal advanced by the engine's random policy to a random point (``steps`` actions)."""
    state = GAME.new_deal(seed, **context)
    rng = new_rng(seed ^ 0x5EED)
    if steps is None:
        steps = int(np.random.default_rng(seed).integers(0, 110))
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(state.random_legal_action(rng))
    return state


def play_states(n: int, base: int):
    """``n`` random states in the play phase, not finished, with fewer than 400 legal actions."""
    out = []
    seed = base
    while len(out) < n:
        seed += 1
        state = random_state(seed, 13 + seed % 90)
        if state.phase() == "play" and len(state.legal_actions()) < 400:
            out.append(state)
    return out


def test_every_ladder_name_plays_shengji():
    for name in HEURISTIC + SEARCH + ("ORACLE", "RANDOM"):
        bot = get_bot(name, ruleset="shengji")
        assert bot.supports("shengji"), name
        modules = ("tekkasim.rulesets.shengji.bots", "tekkasim.bots.base", "tekkasim.bots.oracle")
        assert type(bot).__module__ in modules, name
    rows = {r["name"]: r for r in describe()}
    for name in HEURISTIC + SEARCH + ("ORACLE",):
        assert "shengji" in rows[name]["rulesets"], name
    assert get_bot("ORACLE", ruleset="shengji").cheating


def test_bad_parameters_are_one_line_errors():
    with pytest.raises(BotError, match="memory"):
        get_bot("TANA", ruleset="shengji", memory="total")
    with pytest.raises(BotError, match="worlds"):
        get_bot("ZELZELA", ruleset="shengji", worlds=0)
    with pytest.raises(BotError, match="unknown parameter"):
        get_bot("KADO", ruleset="shengji", depth=3)


def test_ladder_presets_differ_and_mistakes_fall():
    rates = [get_bot(n, ruleset="shengji").params["mistake_rate"] for n in HEURISTIC[1:]]  # non-increasing
    assert rates == sorted(rates, reverse=True) and rates[-1] == 0.0
    vectors = {n: tuple(policy_vector(n)) for n in HEURISTIC}
    assert len(set(vectors.values())) == len(HEURISTIC)
    # the search presets are nested: each draws more worlds and overrides JANGARA at least as readily
    search = [get_bot(n, ruleset="shengji").params for n in SEARCH]
    assert [p["worlds"] for p in search] == sorted({p["worlds"] for p in search})
    assert [p["override_z"] for p in search] == sorted((p["override_z"] for p in search), reverse=True)


@pytest.mark.parametrize("name", HEURISTIC + ("RANDOM",))
def test_heuristic_decisions_are_legal_in_every_phase(name):
    for seed in range(60):
        state = random_state(seed)
        if state.is_terminal():
            continue
        bot = get_bot(name, ruleset="shengji", **({"mistake_rate": 0.5} if name != "RANDOM" else {}))
        action = decide(bot, state, state.current_player(), seed)  # decide refuses an illegal action
        assert action in state.legal_actions()


def test_compiled_deal_loop_plays_the_decide_path_action_for_action():
    """The compiled whole-deal loop and the tournament's decide path (bots built from observations) give
    the same actions and returns on whole deals, every heuristic bot at some seat, mistakes included."""
    names = list(HEURISTIC)
    hist = np.zeros((sp.MAX_ACTIONS, 2), np.uint64)
    out = np.zeros(7, np.int64)
    for seed in range(24):
        seats = [names[(seed + 3 * i) % len(names)] for i in range(4)]
        params = np.stack([policy_vector(n) for n in seats])
        table = seed % 2
        sp.play_deal(params, seed, table, 0, 0, -1, 0, hist, out)
        state = GAME.new_deal(seed)
        play_deal_state(state, [get_bot(n, ruleset="shengji") for n in seats], seed, table)
        compiled = [_kinds(int(a), int(b)) for a, b in hist[: out[6]]]
        assert compiled == [tuple(a) for a in state.history()], (seed, seats)
        assert (int(out[0]), int(out[1])) == tuple(int(x) for x in state.returns())
        assert int(out[2]) == state.attacker_points and int(out[3]) == state.kitty_bonus


def test_compiled_loop_later_deals_with_a_dealer():
    """Deals after the first (a dealer given, teams at different levels) agree too."""
    hist = np.zeros((sp.MAX_ACTIONS, 2), np.uint64)
    out = np.zeros(7, np.int64)
    seats = ["JANGARA", "SADA", "TANA", "GREEDY"]
    params = np.stack([policy_vector(n) for n in seats])
    for seed in range(100, 106):
        dealer = seed % 4
        sp.play_deal(params, seed, 0, 3, 7, dealer, dealer, hist, out)
        state = GAME.new_deal(seed, levels={"A": "5", "B": "9"}, dealer=dealer)
        play_deal_state(state, [get_bot(n, ruleset="shengji") for n in seats], seed, 0)
        assert [_kinds(int(a), int(b)) for a, b in hist[: out[6]]] == [tuple(a) for a in state.history()]


def test_observation_arrays_agree_with_the_true_state():
    """What ``policy_input`` reads from an observation equals what the kernel keeps from the full state
    (the fields the policy uses), on random states of every phase."""
    fields = [
        sp.S_PHASE,
        sp.S_TO_MOVE,
        sp.S_TRUMP,
        sp.S_LEVEL,
        sp.S_DEALER,
        sp.S_STANDING,
        sp.S_CALLER,
        sp.S_PASSES,
        sp.S_CALLS,
        sp.S_BURIED,
        sp.S_TN,
        sp.S_LEAD_N,
        sp.S_LEAD_PAIRS,
        sp.S_LEAD_SUIT,
        sp.S_LEAD_SHAPE,
        sp.S_BEST_KEY,
        sp.S_BEST_SEAT,
        sp.S_TPTS,
        sp.S_ATT,
        sp.S_TRICKS,
        sp.S_GONE1,
        sp.S_GONE2,
        *range(sp.S_VOID0, sp.S_VOID0 + 4),
    ]
    checked = 0
    for seed in range(150):
        state = random_state(seed)
        if state.is_terminal():
            continue
        seat = state.current_player()
        a = policy_input(state.observation(seat))
        b = state_arrays(state)
        assert [int(a["st"][f]) for f in fields] == [int(b["st"][f]) for f in fields], seed
        assert (a["gone"] == b["gone"]).all() and (a["voids"] == b["voids"]).all()
        assert a["hand"] == (int(state.hands[seat, 0]), int(state.hands[seat, 1]))
        checked += 1
    assert checked > 100


def test_tops_by_masks_agree_with_a_count_per_kind():
    """``_fill_tops`` (masks of the cards outside the hand, the burial and, with full memory, the cards
    played) equals a plain count per kind: 2 copies less those held, buried and (full memory) played."""
    checked = 0
    for state in play_states(40, 3000):
        seat = state.current_player()
        a = policy_input(state.observation(seat))
        eff, strength, suit_kinds, strength_kinds = a["tables"]
        h1, h2 = a["hand"]
        b1, b2 = a["buried"]
        for memory in (sp.MEM_TRICK, sp.MEM_FULL):
            want = np.full((2, 5), -1)
            for k in range(54):
                c = 2 - (h1 >> k & 1) - (h2 >> k & 1) - (b1 >> k & 1) - (b2 >> k & 1)
                c -= int(a["gone"][k]) if memory == sp.MEM_FULL else 0
                for need in (1, 2):
                    if c >= need:
                        want[need - 1, eff[k]] = max(want[need - 1, eff[k]], strength[k])
            tops = np.empty((2, 5), np.int64)
            u = np.uint64
            sp._fill_tops(a["st"], u(h1), u(h2), u(b1), u(b2), memory, strength, suit_kinds, strength_kinds, tops)
            assert (tops == want).all(), (state.trump, state.level)
            checked += 1
    assert checked == 80


@pytest.mark.parametrize("name", HEURISTIC + SEARCH)
def test_no_peeking(name):
    """Same observation, unseen cards dealt differently (resample), same seed -> same decision."""
    params = {"worlds": 2} if name in SEARCH else {}
    bot = get_bot(name, ruleset="shengji", **params)
    count = 0
    for seed in range(40 if name in SEARCH else 120):
        state = random_state(seed)
        if state.is_terminal() or len(state.legal_actions()) > 400:
            continue
        seat = state.current_player()
        other = state.resample(seat, new_rng(seed + 77))
        assert other.observation(seat) == state.observation(seat)
        assert decide(bot, other, seat, seed) == decide(bot, state, seat, seed), (name, seed)
        count += 1
    assert count > 20


def test_oracle_sees_the_hands():
    """ORACLE is allowed the true state and plays legally; on the same observation with different hidden
    cards it may choose differently (it is the one bot exempt from the no-peeking rule)."""
    bot = get_bot("ORACLE", ruleset="shengji")
    for state in play_states(6, 5000):
        assert decide(bot, state, state.current_player(), 3) in state.legal_actions()


def _best_so_far(state) -> int:
    return state._best[0]


def test_greedy_wins_as_cheaply_as_it_can():
    """Following, GREEDY plays a legal winner of the lowest rank whenever one exists."""
    bot = get_bot("GREEDY", ruleset="shengji")
    seen = 0
    for state in play_states(80, 9000):
        if not state.trick:
            continue
        eff, strength, suit_kinds, _ = state.tables
        n, pairs, e, shape = state._lead
        seat = state.current_player()
        void = (int(state.hands[seat, 0]) & int(suit_kinds[e])) == 0

        def key(play, shape=shape, e=e, void=void, eff=eff, strength=strength, suit_kinds=suit_kinds):
            one, two = (np.uint64(x) for x in K_masks(play))
            return int(K.play_key(one, two, shape, e, void, eff, strength, suit_kinds))

        legal = state.legal_actions()
        winners = [key(a) for a in legal if key(a) > _best_so_far(state)]
        action = decide(bot, state, seat, 1)
        if winners:
            assert key(action) == min(winners)
            seen += 1
        else:
            assert key(action) <= _best_so_far(state)
    assert seen > 10


def K_masks(play):
    one = two = 0
    for k in play:
        if one >> k & 1:
            two |= 1 << k
        one |= 1 << k
    return one, two


def test_jangara_feeds_a_sure_winner():
    """Fourth to play with partner winning: JANGARA gives the trick at least as many points as the same bot
    without point management (which throws its weakest cards), and more on some deals."""
    jangara = get_bot("JANGARA", ruleset="shengji")
    plain = get_bot("JANGARA", ruleset="shengji", points=False)
    seen = fed = 0
    for seed in range(20000, 26000):
        state = random_state(seed, 13 + seed % 80)
        if state.phase() != "play" or len(state.trick) != 3 or len(state.legal_actions()) > 400:
            continue
        seat = state.current_player()
        if state._best[1] != (seat + 2) % 4:
            continue
        action = decide(jangara, state, seat, 1)
        pts = lambda p: int(K.points(*(np.uint64(x) for x in K_masks(p))))  # noqa: E731
        other = pts(decide(plain, state, seat, 1))
        assert pts(action) >= other, seed
        fed += pts(action) > other
        seen += 1
        if seen >= 40:
            break
    assert seen >= 20 and fed >= 3


def test_smart_burial_keeps_points_jokers_and_top_trumps():
    """JANGARA never buries a joker or a level card, and buries fewer points than it would bury at random
    (the attackers multiply the kitty's points when they win the last trick)."""
    total = 0
    for seed in range(40):
        state = GAME.new_deal(seed)
        while state.phase() == "declare":
            state.apply_action(choose("JANGARA", state, seed))
        while state.phase() == "bury":
            state.apply_action(choose("JANGARA", state, seed))
        level = state.level
        assert not any(k >= 52 or k % 13 == level for k in state.buried), seed
        total += sum(int(K.points(*(np.uint64(x) for x in K_masks((k,))))) for k in state.buried)
    # 33 cards hold 200 * 33 / 108 ~ 61 points on average, so 8 random cards about 15
    assert total / 40 < 8


def test_eval_declaration_names_a_long_suit():
    """A call by JANGARA (declare=eval) is worth at least declare_min by the documented count: the trumps
    it would hold (level cards, jokers, the suit), half a point per Ace of the suit, 0.75 for a pair call,
    2 for no-trump; and no other call it could make is worth more."""
    bot = get_bot("JANGARA", ruleset="shengji")
    calls = 0

    def worth(call, kinds, level):
        trumps = sum(1 for k in kinds if k >= 52 or k % 13 == level or (call[0] < 52 and k // 13 == call[0] // 13))
        aces = sum(1 for k in kinds if call[0] < 52 and level != 12 and k == call[0] // 13 * 13 + 12)
        return trumps + 0.5 * aces + 0.75 * (len(call) == 2) + (2.0 if call[0] >= 52 else 0.0)

    for seed in range(200):
        state = GAME.new_deal(seed)
        seat = state.current_player()
        action = decide(bot, state, seat, 0)
        if not action:
            continue
        calls += 1
        hand = state.hand(seat)
        kinds = _kinds(int(hand.one), int(hand.two))
        assert worth(action, kinds, state.level) >= bot.params["declare_min"], seed
        best = worth(action, kinds, state.level)
        assert all(worth(c, kinds, state.level) <= best for c in state.legal_actions() if c)
    assert calls > 10


def test_search_and_oracle_rollouts_start_from_any_phase():
    """Search bots decide legally in declaration, burial and play."""
    bot = get_bot("TANOOR", ruleset="shengji", worlds=2)
    phases = set()
    for seed in range(30):
        state = random_state(seed, [0, 14, 40][seed % 3])
        if state.is_terminal() or len(state.legal_actions()) > 400:
            continue
        phases.add(state.phase())
        assert decide(bot, state, state.current_player(), seed) in state.legal_actions()
    assert phases >= {"declare", "play"}


def test_search_reproducible_for_fixed_worlds():
    state = play_states(1, 777)[0]
    seat = state.current_player()
    bot = get_bot("TIZAB", ruleset="shengji", worlds=3)
    assert decide(bot, state, seat, 11) == decide(bot, state, seat, 11)


def test_search_override_needs_a_sure_difference():
    """Column 0 (JANGARA's choice) is kept unless another beats it by more than ``prior`` on the paired
    differences with a t-statistic >= override_z; with z = 0 the best mean after the prior credit."""
    from tekkasim.bots.base import keep_prior

    def pick(values, margin, z):
        return keep_prior(values, 0, z, margin)  # the Shengji search: column 0 is JANGARA's choice

    noisy = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.5]])
    assert pick(noisy, 0.0, 1.0) == 0
    assert pick(noisy, 0.0, 0.0) == 1
    assert pick(noisy, 0.25, 0.0) == 0  # the credit outweighs a mean lead of 0.125
    sure = np.array([[0.0, 1.0, 0.5], [0.0, 1.0, 0.4], [0.5, 1.5, 0.6], [0.0, 1.0, 0.5]])
    assert pick(sure, 0.25, 2.0) == 1
    assert pick(sure, 1.0, 2.0) == 0  # a lead of exactly the credit is not enough
    assert pick(sure[:1], 0.0, 2.0) == 1  # one world: the best mean


def test_compiled_greedy_decides_as_its_python_twin():
    """GREEDY's compiled policy and ``greedy.shengji_act`` (the plain Python twin) agree at every kind of
    decision: declarations, burials and plays of random deals."""
    from tekkasim.bots import View
    from tekkasim.rulesets.greedy_twins import shengji_act

    bot = get_bot("GREEDY", ruleset="shengji")
    phases = set()
    for seed in range(40):
        state = random_state(700 + seed)
        if state.is_terminal():
            continue
        seat = state.current_player()
        phases.add(state.phase())
        assert decide(bot, state, seat, seed) == shengji_act(View(state, seat))
    assert {"declare", "play"} <= phases
