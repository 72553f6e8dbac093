"""The search bots (TANOOR, TIZAB, ZELZELA) and ORACLE: legal in every phase, deterministic per seed, clearly
stronger than RANDOM, ORACLE double-dummy perfect; the rollout kernels against a pure-Python twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.bits import below, new_rng
from tekkasim.bots import decide, describe, get_bot, mix_seed
from tekkasim.bots.compiled import compiled_params
from tekkasim.errors import BotError
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52 import _search as S
from tekkasim.rulesets.trick52._policy import new_work
from tekkasim.rulesets.trick52.game import with_signal
from tekkasim.rulesets.trick52.search import (
    DROP_LIE,
    SLAM_WEAK,
    call_likelihood,
    card_classes,
    likelihood,
    prime_likelihood,
    public_evidence,
    team_target,
)
from tekkasim.solver.dd import Position, Solver

SEARCH = ("TANOOR", "TIZAB", "ZELZELA")
BOT = compiled_params("JANGARA")
WORK = new_work()
SMALL = {"worlds": 3}  # enough for the properties tested here, cheap on shared cores


def random_state(ruleset: str, seed: int, steps: int, **options):
    """A state reached by ``steps`` random actions from deal ``seed`` (fewer if the deal ends)."""
    game = get_game(ruleset, **options)
    state = game.new_deal(seed)
    rng = new_rng(seed + 17)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        nxt = legal[int(below(rng, len(legal)))]
        trial = state.clone()
        trial.apply_action(nxt)
        if trial.is_terminal():
            break
        state = trial
    return state


# --- the pure-Python twin of the rollout kernels ---------------------------------------------------


def twin_greedy_card(state) -> int:
    """GREEDY's card, written from the _search_kernels docstring with the rules API."""
    seat = state.current_player()
    prime = state.prime
    legal = sorted(a for a in state.legal_actions() if a < k.PRIME_BASE)
    tricks = state.tricks()
    current = tricks[-1] if tricks and len(tricks[-1]) < 4 else []

    def lowest_discard(cards):
        return min(cards, key=lambda c: (c % 13 + (13 if c // 13 == prime else 0), c))

    if not current:
        hand = [c for c in range(52) if state.hand(seat) >> c & 1]
        played = {c for t in tricks for _, c, _ in t}
        out = [c for c in range(52) if c not in played and c not in hand]
        for s in range(4):
            mine = [c for c in hand if c // 13 == s]
            if s == prime or not mine:
                continue
            if not any(c // 13 == s and c > max(mine) for c in out):
                return max(mine)
        lengths = [(sum(1 for c in hand if c // 13 == s), -s) for s in range(4) if s != prime]
        n, neg = max(lengths)
        if n == 0:
            return min(hand)
        return min(c for c in hand if c // 13 == -neg)
    led = current[0][1] // 13

    def power(c):
        return c + 52 if c // 13 == prime else c if c // 13 == led else -1

    win_seat, win_p = max(((s, power(c)) for s, c, _ in current), key=lambda x: x[1])
    partner_winning = win_seat == (seat + 2) % 4
    if partner_winning and len(current) == 3:
        return lowest_discard(legal)
    winners = [c for c in legal if power(c) > win_p]
    if winners and not partner_winning:
        return min(winners, key=power)
    return lowest_discard(legal)


def twin_play_out(state, policy: int, rng) -> None:
    """Plays ``state`` to its end with the rollout policy, as ``_search_kernels.play_out``."""
    while not state.is_terminal():
        phase = state.phase()
        if phase == "play":
            if policy == S.GREEDY_POLICY:
                action = twin_greedy_card(state)
            else:
                cards = sorted(a for a in state.legal_actions() if a < k.PRIME_BASE)
                action = cards[int(below(rng, len(cards)))]
        elif phase == "auction":
            action = k.CALL_BASE + k.PASS
        elif phase == "prime":
            action = k.PRIME_BASE + int(below(rng, 4))
        else:
            action = k.REJECT
        state.apply_action(action)


@settings(max_examples=40)
@given(
    ruleset=st.sampled_from(["feskot", "tekka"]),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 40),
    policy=st.sampled_from([S.RANDOM_POLICY, S.GREEDY_POLICY]),
    raises=st.booleans(),
)
def test_play_out_matches_twin(ruleset, seed, steps, policy, raises):
    options = {"raises": raises} if ruleset == "tekka" else {}
    state = random_state(ruleset, seed, steps, **options)
    arrays = state.arrays.copy()
    S.play_out(arrays, policy, new_rng(seed))
    twin = state.clone()
    twin_play_out(twin, policy, new_rng(seed))
    assert np.array_equal(arrays.info, twin.arrays.info)
    assert np.array_equal(arrays.plays, twin.arrays.plays)


@settings(max_examples=15)
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(1, 30),
    reps=st.integers(1, 3),
    policy=st.sampled_from([S.RANDOM_POLICY, S.GREEDY_POLICY]),
)
def test_rollout_scores_are_means_of_play_outs(seed, steps, reps, policy):
    state = random_state("feskot", seed, steps)
    if state.phase() != "play":
        return
    legal = state.legal_actions()
    out = np.empty(len(legal))
    S.rollout_scores(
        state.arrays, state.arrays.copy(), np.array(legal, np.int64), len(legal), reps, policy, 0, new_rng(seed), out
    )
    rng = new_rng(seed)
    for i, a in enumerate(legal):
        total = 0.0
        for _ in range(reps):
            twin = state.clone()
            twin.apply_action(a)
            twin_play_out(twin, policy, rng)
            ta, tb = twin.team_tricks()
            total += ta - tb + S.WIN_BONUS * np.sign(ta - tb)
        assert out[i] == pytest.approx(total / reps)


def test_trick_counts_play_all_thirteen_tricks():
    state = get_game("tekka").new_deal(5)
    hist = np.zeros(14, np.int64)
    S.trick_counts(state.arrays, state.arrays.copy(), 2, 3, 25, S.RANDOM_POLICY, 0, new_rng(1), hist)
    assert hist.sum() == 25
    twin_hist = np.zeros(14, np.int64)
    rng = new_rng(1)
    for _ in range(25):  # the same set-up through the rules API: all pass but top, who declares
        twin = get_game("tekka").new_deal(5)
        a = twin.arrays
        a.info[k.I_PLAY_ALL] = 1
        for code in (0, 0, 13, 0):
            twin.apply_action(k.CALL_BASE + code)
        twin.apply_action(k.PRIME_BASE + 3)
        twin_play_out(twin, S.RANDOM_POLICY, rng)
        twin_hist[twin.team_tricks()[0]] += 1
    assert np.array_equal(hist, twin_hist)


# --- the bots ------------------------------------------------------------------------------------------


def play(ruleset: str, seed: int, bots, **options):
    game = get_game(ruleset, **options)
    state = game.new_deal(seed)
    n = 0
    phases = set()
    while not state.is_terminal():
        seat = state.current_player()
        phases.add(state.phase())
        state.apply_action(decide(bots[seat], state, seat, mix_seed(seed, n, seat)))  # decide checks legality
        n += 1
    return state, phases


@pytest.mark.parametrize("name", [*SEARCH, "ORACLE"])
def test_legal_in_every_phase(name):
    bot = get_bot(name, **(SMALL if name != "ORACLE" else {}))
    _, phases = play("feskot", 3, [bot] * 4)
    assert {"prime", "play"} <= phases
    _, phases = play("tekka", 4, [bot] * 4, raises=True)
    assert {"auction", "prime", "play"} <= phases
    # a raise waiting for its answer, and a declarer who may request one
    state = random_state("tekka", 8, 0, raises=True)
    for code in (9, 0, 0, 0):
        state.apply_action(k.CALL_BASE + code)
    state.apply_action(k.PRIME_BASE + 2)
    assert any(a >= k.RAISE_BASE for a in state.legal_actions())
    assert decide(bot, state, state.current_player(), 5) in state.legal_actions()
    state.apply_action(k.RAISE_BASE + 10)
    assert state.phase() == "raise"
    assert decide(bot, state, state.current_player(), 5) in (k.ACCEPT, k.REJECT)


@pytest.mark.parametrize("name", [*SEARCH, "ORACLE"])
def test_same_seed_same_decision(name):
    bot = get_bot(name, **(SMALL if name != "ORACLE" else {}))
    for ruleset, steps in (("feskot", 0), ("feskot", 9), ("tekka", 2), ("tekka", 14)):
        state = random_state(ruleset, 21, steps)
        seat = state.current_player()
        first = [decide(bot, state, seat, s) for s in (1, 2, 3)]
        assert first == [decide(bot, state, seat, s) for s in (1, 2, 3)]


def test_calls_keep_jangaras_unless_the_worlds_are_sure():
    """With call_z > 0 Tekka calls follow the card rule: with an unreachable call_z the search makes
    JANGARA's call; with call_z=0 the best call over the worlds, which is not always JANGARA's."""
    jangara = get_bot("JANGARA")
    sure, free = get_bot("TANOOR", worlds=6, call_z=10.0), get_bot("TANOOR", worlds=6, call_z=0.0)
    differ = 0
    for seed in range(20, 56):  # 4 of these 36 auctions have a call JANGARA would not make
        state = random_state("tekka", 300 + seed, seed % 3)
        assert state.phase() == "auction"
        seat = state.current_player()
        prior = decide(jangara, state, seat, 7)
        assert decide(sure, state, seat, 7) == prior
        differ += decide(free, state, seat, 7) != prior
    assert differ > 0


def test_fixed_worlds_by_default_and_time_mode_legal():
    assert all(get_bot(n).params["time_ms"] == 0 for n in SEARCH)
    state = random_state("feskot", 30, 6)
    bot = get_bot("ZELZELA", time_ms=20)
    assert decide(bot, state, state.current_player(), 1) in state.legal_actions()


def test_parameters_checked():
    with pytest.raises(BotError, match="worlds"):
        get_bot("ZELZELA:worlds=0")
    with pytest.raises(BotError, match="rollout"):
        get_bot("TIZAB", rollout="perfect")
    with pytest.raises(BotError, match="unknown parameter"):
        get_bot("ORACLE", worlds=3)


def test_oracle_is_marked_cheating_and_off_the_ladder():
    rows = {r["name"]: r for r in describe()}
    assert rows["ORACLE"]["rank"] is None and "cheating" in rows["ORACLE"]["description"].lower()
    assert get_bot("ORACLE").cheating and not any(get_bot(n).cheating for n in SEARCH)
    assert [rows[n]["rank"] for n in SEARCH] == [6, 7, 8]
    assert all(rows[n]["kind"] == "search" for n in SEARCH)


@pytest.mark.parametrize("seed", range(6))
def test_oracle_keeps_the_target_whenever_it_can(seed):
    """ORACLE's card keeps its team's target (7 in Feskot) reachable whenever some card does, and then
    also the most tricks among those cards, by the solver's exact card values."""
    state = random_state("feskot", 100 + seed, 5 + 3 * seed)
    if state.phase() != "play":
        return
    seat = state.current_player()
    card = decide(get_bot("ORACLE"), state, seat, 1) % k.SIGNAL_MULT  # the card, whatever its signal
    values = Solver(tt_bits=16).card_values(Position.from_state(state))
    need = team_target(state.arrays.info, seat & 1)
    if max(values.values()) >= need:
        assert values[card] >= need
    elif max(values.values()) >= need - 1:
        assert values[card] >= need - 1


def test_card_classes_join_touching_cards_only():
    state = get_game("feskot").from_hands(
        {
            "bottom": "AS KS QS 9S 2C 3C 5C AH KH QH JH TH 9H",
            "right": "JS TS 4C 6C 7C 8C 9C TC JC QC KC AC 2D",
            "top": "8S 7S 6S 5S 4S 3S 2S 3D 4D 5D 6D 7D 8D",
            "left": "9D TD JD QD KD AD 2H 3H 4H 5H 6H 7H 8H",
        },
        first=0,
    )
    state.apply_action(k.PRIME_BASE + 2)
    cards = state.legal_actions()
    classes = card_classes(state, 0, cards)
    spades = [c for c in classes if c[0] // 13 == 3]
    assert [len(c) for c in spades] == [1, 3]  # 9S alone (JS TS are out), AS KS QS together
    clubs = [c for c in classes if c[0] // 13 == 0]
    assert [len(c) for c in clubs] == [2, 1]  # 2C 3C touch; 4C is out before 5C


def test_inference_model():
    assert prime_likelihood([39, 40, 41, 0, 13], 3) > prime_likelihood([39, 40, 41, 0, 13], 0)
    # a drop signal makes worlds where the sender still holds the suit unlikely
    state = random_state("feskot", 3, 0)
    state.apply_action(k.PRIME_BASE + 0)
    seat = state.current_player()
    card = state.legal_actions()[0]
    state.apply_action(card + k.SIGNAL_MULT * k.DROP)
    view_seat = (seat + 1) % 4
    rng = new_rng(4)
    suit_bits = ((1 << 13) - 1) << (13 * (card // 13))
    seen = {True: 0, False: 0}
    for _ in range(40):
        world = state.resample(view_seat, rng)
        holds = bool(int(world.arrays.hand[seat]) & suit_bits)
        seen[holds] += 1
        plain = world.clone()
        plain.arrays.signal[0, 0] = 0  # the same world without the signal
        ratio = likelihood(world, view_seat) / likelihood(plain, view_seat)
        assert ratio == pytest.approx(DROP_LIE if holds else 1.0)
    assert seen[True] and seen[False]


def likelihood_twin(world, seat: int, free_pass: float = 0.0) -> float:
    """The inference model written plainly from the rules API's view of ``world`` (no evidence read once)."""
    a = world.arrays
    info = a.info
    w = 1.0
    if info[k.I_RULESET] == k.FESKOT:
        first, prime = int(info[k.I_FIRST]), int(info[k.I_PRIME])
        if prime >= 0 and first != seat:
            w *= prime_likelihood([int(c) for c in a.dealt[first, :5]], prime)
    else:
        first, high = int(info[k.I_FIRST]), k.PASS
        for i in range(int(info[k.I_N_CALLS])):
            code, s = int(info[k.I_CALLS + i]), (first + i) % 4
            if s != seat:
                # a pass leaving the first-asked seat's mandatory 8, not by its partner, is a free pass
                free = code == k.PASS and high == k.PASS and s in (first, (first + 1) % 4, (first + 3) % 4)
                w *= call_likelihood([int(c) for c in a.dealt[s]], code, high, free_pass if free else 0.0)
            if code != k.PASS and (code == k.D13 or code > high):
                high = code
    for t in range(min(int(info[k.I_TRICK]) + 1, 13)):
        leader = int(a.leader[t])
        if leader < 0:
            break
        for j in range(4):
            sig, c, s = int(a.signal[t, j]), int(a.plays[t, j]), (leader + j) % 4
            if c < 0 or sig == 0 or s == seat:
                continue
            if sig == k.DROP and any(int(x) // 13 == c // 13 for x in range(52) if int(a.hand[s]) >> x & 1):
                w *= DROP_LIE
            elif sig == k.SLAM and not any(int(x) // 13 == c // 13 and int(x) % 13 >= 10 for x in a.dealt[s]):
                w *= SLAM_WEAK
    return w


@pytest.mark.parametrize("ruleset", ["feskot", "tekka"])
def test_likelihood_reads_the_evidence_once_and_weighs_as_its_twin(ruleset):
    """``public_evidence`` read from one world serves every world of the view, and the weight is the
    twin's to the last bit, on states with random signals, Prime choices and auctions."""
    game = get_game(ruleset)
    checked = 0
    for seed in range(40):
        state = game.new_deal(seed)
        rng = new_rng(seed)
        for _ in range(int(below(rng, 40))):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            a = legal[int(below(rng, len(legal)))]
            if a < 52:
                a = with_signal(a, (None, "slam", "drop")[int(below(rng, 3))])
                if a not in state.possible_actions():
                    a %= k.SIGNAL_MULT
            state.apply_action(a)
        if state.is_terminal():
            continue
        seat = int(below(rng, 4))
        worlds = [state.resample(seat, rng) for _ in range(6)]
        evidence = public_evidence(worlds[0], seat)
        for world in worlds:
            assert likelihood(world, seat, evidence) == likelihood(world, seat) == likelihood_twin(world, seat)
            assert likelihood(world, seat, evidence, 2.0) == likelihood_twin(world, seat, 2.0)
            checked += 1
    assert checked > 40


def duplicate_margins(ruleset: str, x, y, boards: int, seed: int) -> list[float]:
    game = get_game(ruleset)
    margins = []
    for b in range(boards):
        margin = 0.0
        for table in (0, 1):
            bots = [x, y, x, y] if table == 0 else [y, x, y, x]
            state = game.new_deal(seed + b)
            n = 0
            while not state.is_terminal():
                seat = state.current_player()
                state.apply_action(decide(bots[seat], state, seat, mix_seed(seed + b, table, n, seat)))
                n += 1
            r = state.returns()
            margin += (r[0] - r[1]) if table == 0 else (r[1] - r[0])
        margins.append(margin)
    return margins


@pytest.mark.parametrize("name,boards", [("TANOOR", 40), ("TIZAB", 20), ("ZELZELA", 12)])
def test_beats_random_on_duplicate_boards(name, boards):
    """Against RANDOM the margin is huge (about 8 tricks per pair of Feskot deals); demand a positive mean
    margin with an effect size (mean / sd) above 1 and pairs won by a wide majority."""
    bot = get_bot(name, worlds=4)
    m = np.array(duplicate_margins("feskot", bot, get_bot("RANDOM"), boards, 500))
    assert m.mean() > 0
    assert m.mean() / m.std() > 1.0
    assert (m > 0).sum() >= 0.8 * boards


@pytest.mark.parametrize("seed", range(4))
def test_bot_rollouts_follow_the_bot(seed):
    """A JANGARA rollout plays the deal as JANGARA would through the State API (no mistakes: the
    rollout's random stream does not matter)."""
    state = random_state("feskot", 40 + seed, 3 + seed)
    arrays = state.arrays.copy()
    S.play_out_with(arrays, S.POLICY_BOT, BOT, WORK, new_rng(seed))
    twin = state.clone()
    jangara = get_bot("JANGARA")
    while not twin.is_terminal():
        twin.apply_action(decide(jangara, twin, twin.current_player(), seed))
    assert np.array_equal(arrays.plays, twin.arrays.plays)
    # the bot forms of the scoring kernels play the same rollouts (the bot here draws nothing from the rng)
    legal = np.array(sorted({a % k.SIGNAL_MULT for a in state.legal_actions()}), np.int64)
    out = np.empty(len(legal))
    S.bot_rollout_scores(state.arrays, state.arrays.copy(), legal, len(legal), 1, BOT, WORK, 1, new_rng(seed), out)
    hist = np.zeros(14, np.int64)
    S.bot_trick_counts(state.arrays, state.arrays.copy(), -1, 0, 1, BOT, WORK, 1, new_rng(seed), hist)
    for i, card in enumerate(legal):
        after = state.clone()
        after.apply_action(int(card))
        arrays = after.arrays.copy()
        S.play_out_with(arrays, S.POLICY_BOT, BOT, WORK, new_rng(seed))
        assert out[i] == S.team_score(arrays.info, 1)
    full = state.arrays.copy()
    full.info[k.I_PLAY_ALL] = 1
    S.play_out_with(full, S.POLICY_BOT, BOT, WORK, new_rng(seed))
    assert hist[full.info[k.I_TEAM_TRICKS + 1]] == 1 and hist.sum() == 1


@pytest.mark.parametrize("ruleset", ["feskot", "tekka"])
def test_play_model_weighs_worlds_by_the_card_plays(ruleset):
    """In JANGARA self-play the true deal explains every card by the JANGARA model (weight 1), while
    resampled worlds often do not (weight ``miss`` per card the model would not have played)."""
    from tekkasim.rulesets.trick52.search import play_likelihood

    game = get_game(ruleset)
    jangara = get_bot("JANGARA")
    resampled = []
    for seed in range(2):
        state = game.new_deal(seed)
        n = 0
        while not state.is_terminal():
            seat = state.current_player()
            if state.phase() == "play" and n % 3 == 0:
                assert play_likelihood(state, seat, 0.5, new_rng(n)) == 1.0
                w = play_likelihood(state.resample(seat, new_rng(n)), seat, 0.5, new_rng(n))
                assert w == 0.5 ** round(np.log(w) / np.log(0.5))  # a power of miss
                resampled.append(w)
            state.apply_action(decide(jangara, state, seat, mix_seed(seed, n)))
            n += 1
    assert min(resampled) < 1.0


def test_override_needs_a_sure_difference():
    """JANGARA's option (the prior) is kept unless another beats it by a paired t-statistic >= z."""
    from tekkasim.bots.base import keep_prior as _best

    noisy = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.5]])  # option 1 better on average, by noise
    assert noisy.mean(axis=0)[1] > noisy.mean(axis=0)[0]
    assert _best(noisy, 0, 1.0) == 0
    assert _best(noisy, 0, 0.0) == 1
    sure = np.array([[0.0, 1.0, 0.5], [0.0, 1.0, 0.4], [0.5, 1.5, 0.6], [0.0, 1.0, 0.5]])
    assert _best(sure, 0, 1.0) == 1
    assert _best(sure[:1], 0, 1.0) == 1  # one world (ORACLE): the best
    tie = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
    assert _best(tie, 1, 1.0) == 1 and _best(tie, -1, 1.0) == 0


def test_sign_test_keeps_the_prior_when_few_worlds_agree():
    """Four worlds out of four favouring an option pass a t-statistic (zero spread) but not the sign test
    at z=2 (a chance of 1/16 > 0.023); six of six do (1/64)."""
    from tekkasim.bots.base import keep_prior, sign_test_p

    assert sign_test_p(4, 0) == 1 / 16 and sign_test_p(6, 0) == 1 / 64
    assert sign_test_p(3, 1) == 5 / 16 and sign_test_p(0, 0) == 1.0
    four = np.array([[-18.0, 9.0]] * 4)
    assert keep_prior(four, 0, 2.0) == 1
    assert keep_prior(four, 0, 2.0, sign=True) == 0
    assert keep_prior(np.array([[-18.0, 9.0]] * 6), 0, 2.0, sign=True) == 1
    ties = np.array([[0.0, 0.0], [0.0, 0.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0]])  # tied worlds left out
    assert keep_prior(ties, 0, 1.0, sign=True) == 1  # 3 of 3 untied: 1/8 <= 0.159


@pytest.mark.parametrize("ruleset", ["feskot", "tekka"])
def test_search_bots_send_jangaras_signals(ruleset):
    """The search chooses the card; the signal with it is the one JANGARA would send from the same view
    (its partner reads it): for JANGARA's own card, exactly JANGARA's action."""
    from tekkasim.bots.base import View
    from tekkasim.rulesets.trick52.search import honest_signal

    jangara = get_bot("JANGARA")
    signalled = 0
    for seed in range(40):
        state = random_state(ruleset, 900 + seed, 5 + seed % 30)
        if state.phase() != "play":
            continue
        seat = state.current_player()
        action = decide(jangara, state, seat, seed)
        assert honest_signal(View(state, seat), action % k.SIGNAL_MULT) == action
        signalled += action >= k.SIGNAL_MULT
    assert signalled > 5
    off = random_state(ruleset, 950, 20, signals=False)
    assert off.phase() == "play"  # the signals-off check below always runs
    card = off.legal_actions()[0]
    assert honest_signal(View(off, off.current_player()), card) == card


def test_fitted_shares_read_each_rollout_through_the_fit():
    """call_fit: P(total x) is the mean over the rollouts of sigmoid(A + B (r - x)), falling with x; without
    the fit, the share of rollouts with at least x tricks."""
    from tekkasim.rulesets.trick52.search import CALL_FIT, Rollouts

    ro = Rollouts("jangara", 1, new_rng(0), CALL_FIT)
    ro.hist[:] = 0
    ro.hist[[7, 9, 10]] = (2, 1, 1)
    a, b = CALL_FIT
    counts = [7, 7, 9, 10]
    want = [sum(1 / (1 + np.exp(-(a + b * (r - x)))) for r in counts) / 4 for x in range(8, 14)]
    got = ro._fitted_shares(range(8, 14))
    assert np.allclose(got, want)
    assert all(p > q for p, q in zip(got, got[1:], strict=False))
    ro.fit = None
    assert ro._shares(range(8, 14)) == [0.5, 0.5, 0.25, 0.0, 0.0, 0.0]


def test_standing_contract_of_a_pass():
    """call_stand: a pass leaves the high call standing, or the first-asked seat's mandatory 8."""
    from tekkasim.rulesets.trick52.search import _standing

    state = get_game("tekka").new_deal(5, first=2)
    info = state.arrays.info
    assert _standing(info, 2) == (2, 8, True)
    state.apply_action(k.CALL_BASE + k.PASS)
    state.apply_action(k.CALL_BASE + 9)  # seat 3
    assert _standing(state.arrays.info, 0) == (3, 9, False)


def test_call_stand_first_seat_never_volunteers_the_mandatory_eight():
    """The first-asked seat calling 8 gets the all-pass contract at the voluntary price (-16 failed, not -8):
    with call_stand (pass worth the mandatory 8) the best expected call is never 8 there; without it, some
    of these first seats call 8."""
    stand = get_bot("TANOOR", worlds=8, call_z=0.0, call_stand=True)
    free = get_bot("TANOOR", worlds=8, call_z=0.0)
    eights = 0
    for seed in range(400, 430):
        state = get_game("tekka").new_deal(seed)
        seat = state.current_player()
        assert decide(stand, state, seat, 3) != k.CALL_BASE + 8
        eights += decide(free, state, seat, 3) == k.CALL_BASE + 8
    assert eights > 0


def test_tizab_values_a_pass_as_the_standing_contract_and_feskot_does_not_see_it():
    """TIZAB's preset has call_stand (TANOOR's does not: JANGARA's first seats volunteer the 8 they would get
    anyway): as first-asked seat it calls 8 less often than without it; in Feskot, which has no auction,
    its decisions are those of the preset without call_stand."""
    assert get_bot("TIZAB").params["call_stand"] and not get_bot("TANOOR").params["call_stand"]
    stand, free = get_bot("TIZAB", worlds=16), get_bot("TIZAB", worlds=16, call_stand=False)
    eights = {stand: 0, free: 0}
    for seed in range(400, 430):
        state = get_game("tekka").new_deal(seed)
        for bot in eights:
            eights[bot] += decide(bot, state, state.current_player(), 3) == k.CALL_BASE + 8
    assert eights[stand] < eights[free]
    stand, free = get_bot("TIZAB", **SMALL), get_bot("TIZAB", call_stand=False, **SMALL)
    for seed, steps in ((31, 0), (32, 5), (33, 17), (34, 30)):
        state = random_state("feskot", seed, steps)
        seat = state.current_player()
        assert decide(stand, state, seat, 9) == decide(free, state, seat, 9)


def test_free_passes_are_the_ones_that_leave_the_mandatory_eight_and_weigh_strong_hands_up():
    """``free_pass``: a pass that leaves the first-asked seat's mandatory 8 standing (that seat's own, or an
    opponent's before any call) is free; the partner's pass and any pass after a call are not. With
    ``free_pass`` a free pass rules out fewer strong hands: its weight grows with the hand's strength
    over the plain model's, and the plain model is the default."""
    state = get_game("tekka").new_deal(11, first=1)
    for code in (k.PASS, k.PASS, k.PASS):  # seats 1 (first-asked), 2 (opponent), 3 (partner)
        state.apply_action(k.CALL_BASE + code)
    _, calls, _ = public_evidence(state, 0)
    assert [(s, free) for s, _, _, free in calls] == [(1, True), (2, True), (3, False)]
    state = get_game("tekka").new_deal(11, first=1)
    state.apply_action(k.CALL_BASE + 9)
    state.apply_action(k.CALL_BASE + k.PASS)
    _, calls, _ = public_evidence(state, 0)
    assert [free for *_, free in calls] == [False, False]
    strong = [12, 11, 4, 3, 2, 25, 14, 15, 37, 36, 30, 41, 40]  # A-K-x-x-x, A-x-x, K-Q-x, x-x: about 8 with partner
    weak = [0, 1, 2, 13, 14, 15, 26, 27, 28, 39, 40, 41, 3]
    for cards in (strong, weak):
        assert call_likelihood(cards, k.PASS, k.PASS) == call_likelihood(cards, k.PASS, k.PASS, 0.0)
    lift = [call_likelihood(c, k.PASS, k.PASS, 2.0) / call_likelihood(c, k.PASS, k.PASS) for c in (strong, weak)]
    assert lift[0] > lift[1] >= 1.0


def test_call_defend_zero_values_a_pass_under_the_opponents_contract_as_zero():
    """``call_defend=0``: where the standing contract is the opponents' (second seat, nobody called) a pass
    is worth 0, as without call_stand; where it is the team's own (the first-asked seat's partner) it is
    valued as with call_stand. At 1 (the default) the opponents' mandatory 8 counts, and some second
    seats then call otherwise."""
    small = {"worlds": 8, "call_z": 0.0}
    plain = get_bot("TANOOR", **small)
    stand = get_bot("TANOOR", call_stand=True, **small)
    zero = get_bot("TANOOR", call_stand=True, call_defend=0.0, **small)
    differ = 0
    for seed in range(400, 420):
        state = get_game("tekka").new_deal(seed)
        state.apply_action(k.CALL_BASE + k.PASS)  # the first-asked seat passes: its mandatory 8 stands
        second = state.current_player()
        assert decide(zero, state, second, 5) == decide(plain, state, second, 5)
        differ += decide(stand, state, second, 5) != decide(zero, state, second, 5)
        state.apply_action(k.CALL_BASE + k.PASS)
        third = state.current_player()  # the first-asked seat's partner: its own team's contract stands
        assert decide(zero, state, third, 5) == decide(stand, state, third, 5)
    assert differ > 0
