"""The Satat bots (bots/satat.py, bots/_satat_policy.py): registry, the public view, compiled and Python
forms deciding alike, GREEDY against its Python form, Renonce proofs against a plain twin, bluff limits,
legal play, and no peeking."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hyp

from tekkasim.bits import below, new_rng
from tekkasim.bots import BotError, decide, get_bot, mix_seed
from tekkasim.bots.base import View
from tekkasim.bots.oracle import Oracle
from tekkasim.rules import get_game
from tekkasim.rulesets.greedy_twins import satat_act
from tekkasim.rulesets.satat import _policy as sp
from tekkasim.rulesets.satat.bots import Atoute, Greedy, Kado, Zelzela, Zorge, play_rounds, public_from_observation
from tekkasim.rulesets.satat.game import ACCUSE, decode_accusation
from tekkasim.tournament.play import play_deal_state

GAME = get_game("satat")
HEURISTIC = [
    "GREEDY",
    "KADO",
    "POCHAQ",
    "PUCHOQ",
    "SADA",
    "TANA",
    "JANGARA",
    "ATOUTE",
    "ATOUTE:difficulty=hard",
    "ZORGE",
    "ZORGE:difficulty=hard",
    "JANGARA:bluff=atoute",
    "SADA:bluff=zorge,bluff_team=1",
]


def bot(name, **kw):
    return get_bot(name, ruleset="satat", **kw)


def random_states(n, seed, renonce_rate=0.15, accuse=False):
    """Mid-round states reached by random play in which a card fails to follow with ``renonce_rate``."""
    rng = new_rng(seed)
    out = []
    for i in range(n):
        state = GAME.new_deal(seed * 1000 + i)
        stop = int(below(rng, 56))
        for _ in range(stop):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if state.phase() == "play" and int(below(rng, 100)) < renonce_rate * 100:
                legal = state.possible_actions()
            state.apply_action(legal[int(below(rng, len(legal)))])
        if not state.is_terminal():
            out.append(state)
    return out


def test_registry_names_each_ruleset():
    assert isinstance(bot("KADO"), Kado)
    assert isinstance(bot("GREEDY"), Greedy)
    assert isinstance(bot("ZELZELA"), Zelzela)
    assert isinstance(bot("ORACLE"), Oracle) and bot("ORACLE").cheating
    assert isinstance(get_bot("ATOUTE"), Atoute) and isinstance(get_bot("zorge:difficulty=hard"), Zorge)
    assert get_bot("ATOUTE").rulesets == ("satat",)
    assert get_bot("ZORGE:difficulty=hard").label == "ZORGE:difficulty=hard"
    assert get_bot("ZORGE:difficulty=hard").params["memory"] == "full"
    assert get_bot("ZORGE").params["bluff_team"] == 1
    with pytest.raises(BotError, match="bluff"):
        bot("KADO:bluff=always")
    with pytest.raises(BotError, match="difficulty"):
        get_bot("ATOUTE:difficulty=expert")
    with pytest.raises(BotError, match="does not play feskot"):
        get_bot("ATOUTE", ruleset="feskot")


def test_public_view_equals_the_arrays_public_fields():
    for state in random_states(150, 1):
        if state.phase() not in ("play", "collect"):
            continue
        _, st = state.arrays
        for seat in range(4):
            pub = public_from_observation(state.observation(seat))
            assert np.array_equal(pub[sp.PUBLIC_FIELDS], st[sp.PUBLIC_FIELDS])


@pytest.mark.parametrize(
    "x,y",
    [
        ("JANGARA", "KADO"),
        ("GREEDY", "RANDOM"),
        ("ATOUTE:difficulty=hard", "SADA"),
        ("ZORGE", "TANA"),
        ("POCHAQ", "PUCHOQ"),
        ("SADA:bluff=atoute", "JANGARA"),
    ],
)
def test_compiled_round_loop_plays_as_the_state_api(x, y):
    """The compiled whole-round loop and the tournament's State API path give the same actions and points,
    on every kind of round the loop played from 400 seeds (points, winner, accusation, redeals) and a few
    more: the slow State API path only where the rounds differ."""
    bx, by = (get_bot(n, ruleset="satat") if n != "RANDOM" else get_bot(n) for n in (x, y))
    seeds = list(range(2000, 2400))
    for table in (0, 1):
        out = play_rounds(bx, by, seeds, table)
        kinds = {}
        for i in range(len(seeds)):
            acts = out["actions"][i, : out["n_actions"][i]]
            kind = (max(out["returns"][i]), int(np.argmax(out["returns"][i])), bool((acts >= ACCUSE).any()))
            kinds.setdefault((*kind, int((acts == sp.REDEAL).sum())), i)
        chosen = sorted({*kinds.values(), *range(4)})
        assert len(kinds) >= 2
        for i in chosen:
            seed = seeds[i]
            state = GAME.new_deal(seed)
            play_deal_state(state, [bx, by, bx, by] if table == 0 else [by, bx, by, bx], seed, table)
            assert state.history() == out["actions"][i, : out["n_actions"][i]].tolist()
            assert tuple(out["returns"][i]) == state.returns()


def test_compiled_greedy_decides_as_python_greedy():
    g = bot("GREEDY")
    n = 0
    for state in random_states(300, 2):
        seat = state.current_player()
        assert decide(g, state, seat, 5) == satat_act(View(state, seat))
        n += 1
    assert n > 200


def _proof_twin(state, seat):
    """Plain Python: the opponents on the table with a proven Renonce (a later card of the suit they did not
    follow), from the whole public history."""
    obs = state.observation(seat)
    troupe = obs.public["trump"]
    plays = []  # (seat, card, need or None)
    for trick in obs.public["tricks"]:
        lead = trick["plays"][0][1]
        need = troupe if lead == 26 else lead // 13
        for j, (s, c) in enumerate(trick["plays"]):
            plays.append((s, c, need if j else None))
    proven = set()
    for i, (s, c, need) in enumerate(plays):
        if need is None or c == 26 or c // 13 == need:
            continue
        if any(s2 == s and c2 != 26 and c2 // 13 == need for s2, c2, _ in plays[i + 1 :]):
            proven.add(s)
    table = {s for s, _ in obs.public["table"] if s % 2 != seat % 2}
    return proven & table


def test_proof_accusations_against_a_plain_twin():
    """SADA (Hard memory, proofs only): accuses exactly when an opponent on the table is proven, and the
    accusation is then always correct; POCHAQ (Normal memory) never accuses without a proof."""
    sada, pochaq = bot("SADA"), bot("POCHAQ")
    seen = 0
    for state in random_states(400, 3, renonce_rate=0.3):
        if state.phase() not in ("play", "collect"):
            continue
        mover = state.current_player()
        for seat in range(4):
            if not state.accusations(seat):
                continue
            proven = _proof_twin(state, seat)
            ours = sp._ours_decided(public_from_observation(state.observation(seat)), seat & 1)
            a = decide(sada, state, seat, 1)
            if seat == mover and (a is None or a < ACCUSE):
                a = None
            if proven and not ours:
                assert a is not None and decode_accusation(a)[0] in proven
                seen += 1
                world = state.clone()
                world.apply_action(a)
                assert world.accusation()["correct"]
            else:
                assert a is None
            b = decide(pochaq, state, seat, 1)
            if b is not None and b >= ACCUSE:
                assert decode_accusation(b)[0] in proven
    assert seen > 10


def _renonces_by_seat(bx, by, seeds, score=None):
    """(table, renonces) of each round; first rounds through the compiled loop (the same play as the State
    API, tested above) and replayed, rounds with a match score through the State API."""
    out = []
    for table in (0, 1):
        if score is None:
            res = play_rounds(bx, by, list(seeds), table)
        for i, seed in enumerate(seeds):
            if score is None:
                state = GAME.new_deal(seed)
                for a in res["actions"][i, : res["n_actions"][i]]:
                    state.apply_action(int(a))
            else:
                state = GAME.new_deal(seed, dealer="left", score=score)
                play_deal_state(state, [bx, by, bx, by] if table == 0 else [by, bx, by, bx], seed, table)
            out.append((table, state, state.result()["renonces"]))
    return out


def test_bluffs_only_by_bluffers_within_their_limits():
    """ATOUTE/ZORGE bluff only from the fourth trick, once per round, in the round of their match total,
    Normal only from the team's first seat; the other bots never fail to follow."""
    from tekkasim.cards import parse_seat

    atoute_n, zorge_h, sada = get_bot("ATOUTE"), get_bot("ZORGE:difficulty=hard"), bot("SADA")
    counts = {"n": 0, "h": 0}
    for bluffer, key in ((atoute_n, "n"), (zorge_h, "h")):
        for table, _state, renonces in _renonces_by_seat(bluffer, sada, range(300)):
            x_seats = {0, 2} if table == 0 else {1, 3}
            seats = [parse_seat(s) for _, s in renonces]
            assert all(s in x_seats for s in seats)  # SADA never fails to follow
            assert all(t >= 3 for t, _ in renonces)
            assert len(seats) == len(set(seats))  # once per seat and round
            if key == "n":
                assert all(s in (0, 1) for s in seats)  # Normal: the team's first seat only
            counts[key] += len(seats)
        # another match total: no bluff at all
        for _, _, renonces in _renonces_by_seat(bluffer, sada, range(25), score={"A": 1, "B": 0}):
            assert renonces == []
    assert counts["n"] > 0 and counts["h"] > 0


def test_ladder_plays_legally():
    names = ["KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA", "GREEDY"]
    for i, name in enumerate(names):
        other = bot(names[(i + 1) % len(names)])
        for _, _, renonces in _renonces_by_seat(bot(name), other, range(200)):
            assert renonces == []


def _no_peeking_cases():
    return [*HEURISTIC, "TANOOR:worlds=2", "TIZAB:worlds=2,oversample=2", "ZELZELA:worlds=2,oversample=2,dd_cards=6"]


@pytest.mark.parametrize("name", _no_peeking_cases())
def test_no_peeking(name):
    """The same observation with the unseen cards dealt differently (state.resample) gives the same decision
    for the same seed, to move and out of turn."""
    b = bot(name)
    states = random_states(60 if ":worlds" in name else 160, 7, renonce_rate=0.1)
    checked = 0
    for i, state in enumerate(states):
        for seat in state.actors():
            world = state.resample(seat, new_rng(100 + i))
            assert world.observation(seat) == state.observation(seat)
            seed = mix_seed(i, seat)
            assert decide(b, state, seat, seed) == decide(b, world, seat, seed)
            checked += 1
    assert checked > 50


def test_oracle_accuses_true_renonces_and_plays_legally():
    o = bot("ORACLE")
    for state in random_states(40, 9, renonce_rate=0.3):
        for seat in state.actors():
            a = decide(o, state, seat, 0)
            if a is not None and a >= ACCUSE:
                world = state.clone()
                world.apply_action(a)
                acc = world.accusation()
                assert (
                    acc["correct"]
                    or state.observation(seat).public["kot"] not in (None, seat & 1)
                    or state.observation(seat).public["decided"] in ("kot", "kot52")
                )


@pytest.mark.parametrize("name", HEURISTIC)
def test_array_and_observation_forms_decide_alike(name):
    """On random states (Renonces and open accusations included), the decision computed from the rules'
    kernel arrays (as the compiled loop does) equals the Python path's from the observation."""
    b = bot(name) if not name.startswith(("ATOUTE", "ZORGE")) else get_bot(name)
    p = b.compiled_form("satat")
    n = 0
    for i, state in enumerate(random_states(200, 11, renonce_rate=0.1)):
        if state.phase() not in ("play", "collect"):
            continue
        hands, st = state.arrays
        mover = state.current_player()
        for seat in state.actors():
            seed = mix_seed(i, seat)
            expect = decide(b, state, seat, seed)
            got = int(sp.accuse_decide(p, hands[seat], st, seat))
            if got < 0 and seat == mover:
                got = int(sp.card_decide(p, hands[seat], st, seat, (0, 0), new_rng(seed)))
            assert (None if got < 0 else got) == expect
            n += 1
    assert n > 100


# --- a plain twin of the policy's public knowledge and of its accusations without suspicion ------------


def _remembered_tricks(obs, memory):
    """The tricks a policy remembers, from the observation: none, the last two started, or all."""
    tricks = obs.public["tricks"]
    if memory == "full":
        return tricks
    return tricks[-2:] if memory == "trick" else []


def _knowledge_twin(obs, memory):
    """(cards seen, apparent voids {(seat, suit)}, proven seats) of the remembered tricks, from the
    observation's list of plays: a seat is proven when one of its cards (never 2♥) is of a suit it failed
    to follow in an earlier remembered trick."""
    troupe = obs.public["trump"]
    plays = []  # (seat, card, suit to follow or None for a lead), in play order
    for trick in _remembered_tricks(obs, memory):
        lead = trick["plays"][0][1]
        need = troupe if lead == 26 else lead // 13
        plays += [(s, c, need if j else None) for j, (s, c) in enumerate(trick["plays"])]
    seen = {c for _, c, _ in plays}
    voids = {(s, need) for s, c, need in plays if need is not None and c != 26 and c // 13 != need}
    proven = set()
    for i, (s, c, need) in enumerate(plays):
        if need is None or c == 26 or c // 13 == need:
            continue
        if any(s2 == s and c2 != 26 and c2 // 13 == need for s2, c2, _ in plays[i + 1 :]):
            proven.add(s)
    return seen, voids, proven


def _accuse_twin(q, obs, seat):
    """The accusation (or None) of a heuristic policy with parameters ``q`` (``suspicion`` 0) by ``seat``:
    detectors accuse only a proven opponent on the table, never when their side has the round decided;
    with ``kot_pressure`` only when a correct accusation (1) is worth more than the round to their side now
    (a decided result 1 / 2 / 3, a KOT run 2, else tanh(trick margin / 3))."""
    p = obs.public
    if not q["detect"] or obs.phase == "terminal" or not p["table"]:
        return None
    team = seat & 1
    _, _, proven = _knowledge_twin(obs, q["memory"])
    lead = p["table"][0][1]
    need = p["trump"] if lead == 26 else lead // 13
    # a proven opponent on the table; among several, one that did not follow on this trick, else the first
    suspects = [(j, s, c) for j, (s, c) in enumerate(p["table"]) if s & 1 != team and s in proven]
    if not suspects:
        return None
    _, s, c = max(suspects, key=lambda x: (x[0] > 0 and x[2] != 26 and x[2] // 13 != need, -x[0]))
    best = ACCUSE + (s * 4 + seat) * 52 + c
    decided = {None: 0, "seven": 1, "kot": 2, "kot52": 3}[p["decided"]]
    winner_team = p["tricks"][-1]["winner"] & 1 if decided == 1 else p["kot"]
    if not q["kot_pressure"]:
        return None if decided and winner_team == team else best
    if decided:
        worth = decided if winner_team == team else -decided
    elif p["kot"] is not None:
        worth = 2.0 if p["kot"] == team else -2.0
    else:
        worth = float(np.tanh((p["won"][team] - p["won"][1 - team]) / 3.0))
    return best if worth < 1.0 else None


_TWIN_STATES = {}


def _twin_states():
    """Random mid-round states with Renonces, and as many states of a decided round waiting to be collected
    (where a proven Renonce may still be called, or the other side's result cut)."""
    if not _TWIN_STATES:
        states = [s for s in random_states(80, 13, renonce_rate=0.3) if s.phase() in ("play", "collect")]
        rng = new_rng(14)
        for i in range(len(states)):
            state = GAME.new_deal(14_000 + i)
            while state.phase() not in ("collect", "terminal"):
                legal = state.legal_actions()
                if state.phase() == "play" and int(below(rng, 100)) < 10:
                    legal = state.possible_actions()
                legal = [a for a in legal if a < ACCUSE]
                state.apply_action(legal[int(below(rng, len(legal)))])
            if state.phase() == "collect":
                states.append(state)
        _TWIN_STATES["s"] = states
    return _TWIN_STATES["s"]


@settings(max_examples=40, deadline=None)
@given(i=hyp.integers(0, 10_000), memory=hyp.sampled_from(["none", "trick", "full"]), kot=hyp.booleans())
def test_knowledge_and_accusations_against_a_plain_twin(i, memory, kot):
    """The compiled knowledge (``knowledge``: the whole round's and a memory's window) and proof-based
    accusations (``accuse_decide``, no suspicion) equal the plain twins above on random states with
    Renonces, and the compiled loop's card-by-card update (``_learn``) equals the replay."""
    states = _twin_states()
    state = states[i % len(states)]
    q = bot("TANA", memory=memory, kot_pressure=kot).params
    p = bot("TANA", memory=memory, kot_pressure=kot).compiled_form("satat")
    for seat in range(4):
        obs = state.observation(seat)
        pub = public_from_observation(obs)
        first = int(sp._first_remembered(p, pub))
        played, voids, proven = sp.knowledge(pub, first)
        seen, v2, pr2 = _knowledge_twin(obs, memory)
        assert int(played) == sum(1 << c for c in seen)
        assert int(voids) == sum(1 << (4 * s + need) for s, need in v2)
        assert int(proven) == sum(1 << s for s in pr2)
        hand = np.uint64(int(obs.hand))
        got = int(sp.accuse_decide(p, hand, pub, seat))
        assert (None if got < 0 else got) == _accuse_twin(q, obs, seat)
    # the loop's update, card by card, against the replay of the whole round
    _, st = state.arrays
    k = (np.uint64(0), 0, 0)
    troupe = int(st[sp.V_TROUPE])
    for t in range(int(sp._n_started(st))):
        leader, lead = int(st[sp.V_LEADERS + t]), int(st[sp.V_PLAYS + 4 * t])
        for j in range(4):
            c = int(st[sp.V_PLAYS + 4 * t + j])
            if c >= 0:
                k = sp._learn(troupe, lead, j, (leader + 3 * j) % 4, c, *k)
    assert tuple(int(x) for x in k) == tuple(int(x) for x in sp.knowledge(st, 0))


def test_search_override_needs_a_sure_difference():
    """The search keeps JANGARA's card (the prior column) unless another beats it on the paired differences
    over the worlds with a t-statistic >= override_z; z = 0 or one world: the best mean, ties to the prior."""
    from tekkasim.bots.base import keep_prior as choose_card

    noisy = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.5]])  # card 1 better on average, by noise
    assert choose_card(noisy, 0, 1.0) == 0
    assert choose_card(noisy, 0, 0.0) == 1
    sure = np.array([[0.0, 1.0, 0.5], [0.0, 1.0, 0.4], [0.5, 1.5, 0.6], [0.0, 1.0, 0.5]])
    assert choose_card(sure, 0, 2.0) == 1  # the same +1 in every world: sure, and the best mean of the sure
    assert choose_card(sure[:1], 0, 5.0) == 1  # one world: the best
    tie = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
    assert choose_card(tie, 1, 1.0) == 1 and choose_card(tie, 1, 0.0) == 1
    assert choose_card(tie, 2, 0.0) == 0 and choose_card(tie, 2, 1.0) == 0


def troupe_twin_value(state, seat: int) -> float:
    """A finished round from ``seat``'s team: points margin plus a tenth of the trick margin."""
    from tekkasim.rulesets.satat import _kernels as K

    _, st = state.arrays
    m = float(st[K.POINTS_A] - st[K.POINTS_B]) + 0.1 * float(st[K.WON_A] - st[K.WON_B])
    return m if seat & 1 == 0 else -m


@settings(max_examples=12, deadline=None)
@given(seed=hyp.integers(0, 10**6))
def test_troupe_values_are_state_api_jangara_play_outs(seed):
    """The Troupe search's compiled rollouts value each suit of a world as the State-API adapter playing the
    world out after that Troupe with the JANGARA bot without accusations (the rollout policy)."""
    from tekkasim.bots.pimc import StateApiAdapter
    from tekkasim.rulesets.satat.bots import match_score, troupe_values

    class Twin(StateApiAdapter):
        value = staticmethod(troupe_twin_value)

    state = GAME.new_deal(seed)
    seat = state.current_player()
    view = View(state, seat)
    world = view.sample(new_rng(seed))
    fast = troupe_values(world, seat & 1, match_score(view.observation), new_rng(1))
    params = {"worlds": 1, "time_ms": 0, "evaluate": "rollout", "rollout": "JANGARA:detect=False", "override_z": 0.0}
    slow = Twin(params).scores(world, [sp.TROUPE_BASE + s for s in range(4)], seat, new_rng(1))
    assert list(fast) == list(slow)


def test_troupe_search_keeps_jangaras_redeal_and_plays_a_troupe():
    """With ``troupe_worlds`` 0 the search's Troupe is JANGARA's; with it, JANGARA's redeal stands and
    otherwise a Troupe is chosen, the same for the same seed; a deadline still gives one."""
    seen_redeal = seen_troupe = False
    for seed in range(40):
        state = GAME.new_deal(seed)
        seat = state.current_player()
        jangara = decide(bot("JANGARA"), state, seat, 3)
        assert decide(bot("TANOOR"), state, seat, 3) == jangara
        searched = decide(bot("ZELZELA", troupe_worlds=16), state, seat, 3)
        if jangara == sp.REDEAL:
            seen_redeal = True
            assert searched == sp.REDEAL
        else:
            seen_troupe = True
            assert sp.TROUPE_BASE <= searched < sp.TROUPE_BASE + 4
            assert searched == decide(bot("ZELZELA", troupe_worlds=16), state, seat, 3)
            timed = decide(bot("TIZAB", time_ms=5, troupe_worlds=4096), state, seat, 3)
            assert sp.TROUPE_BASE <= timed < sp.TROUPE_BASE + 4
    assert seen_troupe and seen_redeal


def _power_twin(c, troupe, need):
    """Plain trick power: 2♥ over everything, then Troupe by rank, then the suit to follow by rank."""
    if c == 26:
        return (3, 0)
    if c // 13 == troupe:
        return (2, c % 13)
    if c // 13 == need:
        return (1, c % 13)
    return (0, 0)


@settings(max_examples=200, deadline=None)
@given(
    cards=hyp.lists(hyp.integers(0, 51), min_size=1, max_size=14, unique=True),
    troupe=hyp.integers(0, 3),
    need=hyp.integers(0, 3),
)
def test_ruff_high_winner_against_a_plain_twin(cards, troupe, need):
    """``_highest_winner`` (what ``ruff_high`` ruffs with): the hand's card of most trick power that beats
    the card winning the trick so far (the list's first card), or -1 when none beats it."""
    table, hand = cards[0], cards[1:]
    beat = [c for c in hand if _power_twin(c, troupe, need) > _power_twin(table, troupe, need)]
    want = max(beat, key=lambda c: _power_twin(c, troupe, need)) if beat else -1
    h = np.uint64(sum(1 << c for c in hand))
    wp = sp._strength(table, troupe, need)
    assert int(sp._highest_winner(h, wp, troupe, need)) == want
    cheap = min(beat, key=lambda c: _power_twin(c, troupe, need)) if beat else -1
    assert int(sp._cheapest_winner(h, wp, troupe, need)) == cheap


def test_ruff_high_ruffs_with_its_top_trump():
    """With ``ruff_high`` a bot void in the suit to follow that can win the trick ruffs with its strongest
    card (2♥, else its top Troupe); everywhere else it plays as without (random states, no mistakes)."""
    on = bot("KADO", ruff_high=True, mistake_rate=0.0).compiled_form("satat")
    off = bot("KADO", ruff_high=False, mistake_rate=0.0).compiled_form("satat")
    changed = 0
    for i, state in enumerate(random_states(400, 11, renonce_rate=0.0)):
        if state.phase() != "play":
            continue
        hands, st = state.arrays
        seat = state.current_player()
        hand = hands[seat]
        a = int(sp.card_decide(on, hand, st, seat, (0, 0), new_rng(i)))
        b = int(sp.card_decide(off, hand, st, seat, (0, 0), new_rng(i)))
        n, _, need, _, wp = sp._table_state(st)
        troupe = int(st[sp.V_TROUPE])
        void = n in (1, 2, 3) and not any(c // 13 == need and c != 26 for c in range(52) if (int(hand) >> c) & 1)
        if void and sp._cheapest_winner(hand, wp, troupe, need) >= 0:
            strongest = max((c for c in range(52) if (int(hand) >> c) & 1), key=lambda c: _power_twin(c, troupe, need))
            assert a == strongest
            changed += a != b
        else:
            assert a == b
    assert changed > 5
