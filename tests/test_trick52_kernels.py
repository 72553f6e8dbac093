"""The compiled Feskot/Tekka kernels against their pure-Python twin (``tekkasim.rulesets.trick52.reference``).

Every test here compares the two on many random states: at least 10,000 per run for legal moves,
trick winners and scores, plus whole random deals that must give identical outcomes for the same seed.
"""

import random

import numpy as np

from tekkasim.bits import new_rng
from tekkasim.reference.bits import Rng
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52 import reference as ref

N_STATES = 10_000


def test_seeded_deal_layout_matches_reference():
    for seed in range(300):
        for first in range(4):
            deck = np.empty(52, np.int64)
            k.shuffled_deck(new_rng(seed), deck)
            assert deck.tolist() == ref.shuffled_deck(Rng(seed))
            for packets, deal in ((True, ref.deal_packets), (False, ref.deal_thirteen)):
                dealt = np.full((4, 13), -1, np.int64)
                k.deal_deck(deck, first, packets, dealt)
                assert dealt.tolist() == deal(deck.tolist(), first)
    # Packets: the first-dealt seat's first five are deck[0:5], then the next seat's five.
    dealt = np.full((4, 13), -1, np.int64)
    k.deal_deck(np.arange(52), 2, True, dealt)
    assert dealt[2].tolist() == [0, 1, 2, 3, 4, 20, 21, 22, 23, 36, 37, 38, 39]
    assert dealt[3, :5].tolist() == [5, 6, 7, 8, 9]


def test_cut_point_matches_reference_and_covers_1_to_51():
    seen = set()
    for seed in range(3000):
        point = k.cut_point(new_rng(seed))
        deck = list(range(52))
        assert ref.cut(deck, Rng(seed)) == deck[point:] + deck[:point]
        seen.add(point)
    assert seen == set(range(1, 52))


def _info_for(declarer, target, mandatory, winners):
    info = np.zeros(k.N_INFO, np.int64)
    info[k.I_RULESET] = k.TEKKA
    info[k.I_DECLARER], info[k.I_TARGET], info[k.I_MANDATORY] = declarer, target, mandatory
    info[k.I_TRICK] = len(winners)
    for w in winners:
        info[k.I_TEAM_TRICKS + (w & 1)] += 1
        info[k.I_SEAT_TRICKS + w] += 1
    return info


def test_tekka_scores_and_decision_on_random_contracts():
    rnd = random.Random(12)
    for _ in range(N_STATES):
        declarer = rnd.randrange(4)
        target = rnd.choice([8, 9, 10, 11, 12, 13, k.D13])
        mandatory = int(target == 8 and rnd.random() < 0.5)
        n = rnd.randrange(14)
        # skew the winners so that made and failed, D13 made and broken all occur
        bias = rnd.random()
        winners = [declarer if rnd.random() < bias else rnd.randrange(4) for _ in range(n)]
        info = _info_for(declarer, target, mandatory, winners)
        assert bool(k.tekka_decided(info)) == ref.tekka_decided(declarer, target, winners)
        made, a, b = k.tekka_score(info)
        if n == 13 or ref.tekka_decided(declarer, target, winners):
            assert (bool(made), [a, b]) == ref.tekka_points(declarer, target, bool(mandatory), winners)


def _lockstep(game, ruleset, seed, rnd, raises=False, play_all=False):
    """Play one deal in the engine State and in the reference side by side; return states compared."""
    state = game.new_deal(seed, first=seed % 4)
    deal, _ = ref.new_deal(ruleset, seed, seed % 4, play_all, raises)
    assert [state.dealt(s) for s in range(4)] == deal.dealt
    compared = 0
    while True:
        legal = state.legal_actions()
        assert legal == deal.actions(), state.where()
        assert state.current_player() == deal.to_move()
        assert state.phase() == deal.phase()
        assert list(state.team_tricks()) == deal.team_tricks()
        assert state.seat_tricks() == deal.seat_tricks()
        obs_voids = state.observation(0).public["voids"]
        assert obs_voids == [sum(1 << s for s in v) for v in deal.voids()]
        # the 52 cards are conserved: held + played = dealt, seat by seat
        for seat in range(4):
            played = {c for t in deal.tricks for p, c, _ in t if p == seat}
            assert state.hand(seat) == sum(1 << c for c in deal.held[seat])
            assert set(deal.held[seat]) | played == set(deal.dealt[seat]) and not set(deal.held[seat]) & played
        compared += 1
        if not legal:
            break
        a = rnd.choice(legal)
        if a < 52 and game.options.get("signals", True) and rnd.random() < 0.2:
            a += 52 * rnd.choice([1, 2])
        state.apply_action(a)
        deal.apply(a)
    assert len(deal.winners) <= 13 and sum(deal.team_tricks()) == len(deal.winners)
    if ruleset == "tekka":
        made, score = deal.tekka_result()
        ctx = state.next_deal_context()
        assert ctx["first"] == ref.tekka_next_first(deal.first, score)
        assert ctx["score"] == tuple(score)
        result = state.result()
        assert result["made"] == made and [result["score"]["A"], result["score"]["B"]] == score
        assert state.contract()["target"] == ("D13" if deal.target == ref.D13 else deal.target)
        raises_seen = [(r["trick"], r["play"], r["target"], r["accepted"]) for r in state.raises()]
        assert raises_seen == [(t, j, "D13" if c == ref.D13 else c, acc) for t, j, c, acc in deal.raise_log]
    else:
        assert [state.result()["tricks"][t] for t in "AB"] == deal.team_tricks()
        winner = 0 if deal.team_tricks()[0] > deal.team_tricks()[1] else 1
        assert state.next_deal_context()["first"] == ref.feskot_next_first(deal.first, winner)
        assert state.next_deck() == ref.next_deck(deal)
    return compared


def test_engine_state_and_reference_in_lockstep():
    """Legal actions, turn, phase, tricks, voids and results, state by state (>= 10,000 states)."""
    rnd = random.Random(13)
    compared = 0
    cases = [("feskot", {}), ("feskot", {"play_out": True}), ("tekka", {}), ("tekka", {"raises": True})]
    seed = 0
    while compared < N_STATES:
        for ruleset, options in cases:
            game = get_game(ruleset, **options)
            compared += _lockstep(
                game, ruleset, seed, rnd, raises=options.get("raises", False), play_all=options.get("play_out", False)
            )
            seed += 1
    assert compared >= N_STATES


def test_fast_feskot_kernel_equals_array_rollout_and_reference():
    n = 20_000
    for first, play_all in ((0, 0), (3, 1)):
        tricks = np.zeros((n, 2), np.int64)
        prime = np.zeros(n, np.int64)
        n_tricks = np.zeros(n, np.int64)
        k.feskot_random(n, k.seed_u64(500), first, play_all, tricks, prime, n_tricks)
        info = np.zeros((n, k.N_INFO), np.int64)
        k.random_deals(k.new_arrays(), n, k.seed_u64(500), k.FESKOT, first, play_all, 0, info)
        assert np.array_equal(tricks, info[:, k.I_TEAM_TRICKS : k.I_TEAM_TRICKS + 2])
        assert np.array_equal(prime, info[:, k.I_PRIME]) and np.array_equal(n_tricks, info[:, k.I_TRICK])
        # invariants on every deal: tricks add up, the deal stops at 7 (or goes to 13)
        assert np.array_equal(tricks.sum(axis=1), n_tricks)
        if play_all:
            assert (n_tricks == 13).all()
        else:
            assert (tricks.max(axis=1) == 7).all() and (n_tricks <= 13).all()
        for i in range(0, n, 100):  # the reference is slow: every 100th deal
            deal = ref.random_deal("feskot", 500 + i, first, bool(play_all))
            assert deal.team_tricks() == tricks[i].tolist() and deal.prime == prime[i]


def test_random_tekka_deals_equal_reference():
    for raises in (False, True):
        game = get_game("tekka", raises=raises)
        out = game.play_random(400, 900, first=1)
        for i in range(400):
            deal = ref.random_deal("tekka", 900 + i, 1, False, raises)
            made, score = deal.tekka_result()
            assert out["returns"][i].tolist() == score and bool(out["made"][i]) == made
            assert (out["declarer"][i], out["target"][i], bool(out["mandatory"][i])) == (
                deal.declarer,
                deal.target,
                deal.mandatory,
            )
            assert out["tricks"][i].tolist() == deal.team_tricks()
            assert out["declarer_tricks"][i] == deal.seat_tricks()[deal.declarer]


def test_tekka_random_invariants():
    out = get_game("tekka", raises=True).play_random(20_000, 77)
    score = out["returns"]
    # exactly one team scores, and by the rules' amounts
    assert ((score > 0).sum(axis=1) == 1).all()
    gained = score.sum(axis=1)
    target = out["target"]
    made = out["made"].astype(bool)
    d13 = target == k.D13
    assert (gained[d13 & made] == 26).all() and (gained[d13 & ~made] == 52).all()
    num = ~d13
    assert np.array_equal(gained[num & made], target[num & made])
    mand = out["mandatory"].astype(bool)
    assert (gained[num & ~made & mand] == 8).all()
    assert np.array_equal(gained[num & ~made & ~mand], 2 * target[num & ~made & ~mand])
    # the declaring team scores exactly when it made its contract
    scorer = np.argmax(score, axis=1)
    assert np.array_equal(scorer == (out["declarer"] & 1), made)
    assert (out["tricks"].sum(axis=1) == out["n_tricks"]).all() and (out["n_tricks"] <= 13).all()


def test_rollout_from_state_arrays_matches_reference():
    """A rollout from a mid-deal state plays on exactly as the reference does with the same RNG."""
    rnd = random.Random(15)
    for seed in range(150):
        ruleset = ("feskot", "tekka")[seed % 2]
        raises = seed % 4 == 3
        game = get_game(ruleset, raises=raises) if ruleset == "tekka" else get_game(ruleset)
        state = game.new_deal(seed)
        deal, _ = ref.new_deal(ruleset, seed, 0, False, raises)
        for _ in range(rnd.randrange(0, 30)):
            if state.is_terminal():
                break
            a = rnd.choice(state.legal_actions())
            state.apply_action(a)
            deal.apply(a)
        arrays = state.rollout(new_rng(seed * 7))
        rng = Rng(seed * 7)
        while not deal.over:
            legal = deal.actions()
            deal.apply(legal[rng.below(len(legal))])
        assert arrays.info[k.I_TEAM_TRICKS : k.I_TEAM_TRICKS + 2].tolist() == deal.team_tricks()
        assert not state.is_terminal() or state.team_tricks() == tuple(deal.team_tricks())


def resample_twin(deal, seat: int, rng: Rng, tries: int) -> list[list[int]] | None:
    """Pure-Python twin of ``_trick52.resample_hidden`` on a reference deal: the rows of ``dealt`` after
    redealing every card ``seat`` cannot see, or None if all ``tries`` break a shown void.

    The hidden cards are taken in ascending order (never from where they lie) and shuffled into the
    hidden places, seats ascending (another seat's places: its unplayed cards; in Feskot before Prime
    also the seat's own last eight). Then each row is the seat's cards ascending, shuffled, seats in order,
    except the seat's own row before Prime: its first five ascending, then its eight drawn cards."""
    played_by = [set() for _ in range(4)]
    for trick in deal.tricks:
        for s, c, _ in trick:
            played_by[s].add(c)
    played = set().union(*played_by)
    held = [[c for c in deal.dealt[s] if c not in played] for s in range(4)]
    before_prime = deal.ruleset == "feskot" and deal.prime is None
    seen = set(deal.dealt[seat][:5]) if before_prime else set(held[seat])
    pool = [c for c in range(52) if c not in played and c not in seen]
    places = [s for s in range(4) for _ in range(len(held[s]) - len(seen) if s == seat else len(held[s]))]
    voids = deal.voids()
    for _ in range(tries):
        rng.shuffle(pool)
        if all(c // 13 not in voids[s] for s, c in zip(places, pool, strict=True)):
            rows = []
            for s in range(4):
                drawn = [c for p, c in zip(places, pool, strict=True) if p == s]
                if s == seat and before_prime:
                    rows.append(sorted(seen) + drawn)
                    continue
                row = sorted(played_by[s] | set(drawn) | (set(held[s]) if s == seat else set()))
                rng.shuffle(row)
                rows.append(row)
            return rows
    return None


def test_resample_kernel_equals_twin():
    """``resample_hidden`` against ``resample_twin`` on random states, same RNG draws; few tries so that
    rejections and failures both happen."""
    rnd = random.Random(16)
    compared = failures = 0
    for seed in range(120):
        ruleset = ("feskot", "tekka")[seed % 2]
        game = get_game(ruleset)
        state = game.new_deal(seed)
        deal, _ = ref.new_deal(ruleset, seed, 0)
        while not state.is_terminal():
            seat = rnd.randrange(4)
            tries = rnd.choice([1, 3, 50])
            arrays = state.arrays.copy()
            ok = k.resample_hidden(arrays, seat, new_rng(seed * 1000 + compared), tries)
            hands = resample_twin(deal, seat, Rng(seed * 1000 + compared), tries)
            if hands is None:
                assert not ok and np.array_equal(arrays.dealt, state.arrays.dealt)
                failures += 1
            else:
                assert ok and arrays.dealt.tolist() == hands
                played = {c for t in deal.tricks for _, c, _ in t}
                for s in range(4):
                    assert int(arrays.hand[s]) == sum(1 << c for c in hands[s] if c not in played)
            compared += 1
            a = rnd.choice(state.legal_actions())
            state.apply_action(a)
            deal.apply(a)
    assert compared > 2000 and failures > 10
