"""Shengji's plausible mistakes (issue 25; ``_shengji_policy``: ``_slip_declare``, ``_slip_bury``,
``_slip_play``): a mistake is drawn among the bot's own alternatives by what each costs by its own
evaluation, never one it rates above the action it meant; ``mistake_uniform`` keeps the old uniform draw
action for action; the estimate of a play equals its plain-Python twin (``reference.shengji_slip``)."""

from __future__ import annotations

import hashlib

import hypothesis.strategies as hyp
import numpy as np
from hypothesis import given, settings
from test_bots_shengji import random_state

from tekkasim.bits import new_rng
from tekkasim.bots import get_bot
from tekkasim.rulesets.shengji import _kernels as K
from tekkasim.rulesets.shengji import _policy as sp
from tekkasim.rulesets.shengji import reference_slip as twin
from tekkasim.rulesets.shengji.bots import _kinds, _masks, compiled_decide, policy_input

LADDER = ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA")
NAMES = (*LADDER, "JANGARA", "GREEDY")


def _digest(rate: float | None, uniform: bool, deals: int = 120) -> str:
    """sha256 over whole compiled deals (every action and the outcome) of the ladder, JANGARA and GREEDY
    in turns at the seats, first and later deals at various levels; the ladder at ``rate`` (None: its
    presets), with ``mistake_uniform`` when ``uniform``."""
    h = hashlib.sha256()
    hist = np.zeros((sp.MAX_ACTIONS, 2), np.uint64)
    out = np.zeros(7, np.int64)
    for seed in range(deals):
        vecs = []
        for i in range(4):
            name = NAMES[(seed + 3 * i) % len(NAMES)]
            kw = {"mistake_rate": rate} if rate is not None and name in LADDER else {}
            if uniform and name in LADDER:
                kw["mistake_uniform"] = True
            vecs.append(get_bot(name, ruleset="shengji", **kw).compiled_form("shengji"))
        dealer = -1 if seed % 3 == 0 else seed % 4
        sp.play_deal(np.stack(vecs), seed, seed % 2, seed % 13, (seed * 5) % 13, dealer, seed % 4, hist, out)
        h.update(hist[: out[6]].tobytes())
        h.update(out.tobytes())
    return h.hexdigest()[:32]


def test_uniform_mistakes_and_mistake_free_bots_decide_as_before():
    """The digests of the code before the plausible mistakes (commit aeb5a77, the same function): with
    ``mistake_uniform=true`` the ladder plays the old uniform mistakes action for action (at its presets
    and at rate 1); at rate 0, and JANGARA and GREEDY always, nothing changed."""
    assert _digest(None, True) == "eea9c29d78580ebc90ee1b38691d697e"
    assert _digest(1.0, True) == "3ec6e6700fd1159561a8babc983f1521"
    assert _digest(0.0, False) == "945ac40f8e0b9da0da35d96722076919"
    assert _digest(None, False) != _digest(None, True)  # the presets' mistakes are the plausible ones


def test_mistake_parameters_parse_and_are_off_in_presets():
    b = get_bot("TANA:mistake_rate=0.3,mistake_temperature=0.5,mistake_uniform=true", ruleset="shengji")
    p = b.compiled_form("shengji")
    assert (p[sp.P_MISTAKE], p[sp.P_TEMP], p[sp.P_UNIFORM]) == (0.3, 0.5, 1.0)
    for name in (*LADDER, "JANGARA"):
        assert get_bot(name, ruleset="shengji").params["mistake_uniform"] is False


def test_rate_zero_draws_nothing():
    bot = get_bot("KADO", ruleset="shengji", mistake_rate=0.0).compiled_form("shengji")
    for seed in range(40):
        state = random_state(seed)
        if state.is_terminal():
            continue
        rng = new_rng(seed)
        compiled_decide(bot, state.observation(state.current_player()), rng)
        assert int(rng[0]) == seed


def _arrays(state, p):
    """The policy's arrays for the seat to move, its ``tops`` filled with its memory, and its kitty."""
    seat = state.current_player()
    a = policy_input(state.observation(seat))
    eff, strength, suit_kinds, strength_kinds = a["tables"]
    h1, h2 = (np.uint64(x) for x in a["hand"])
    b1, b2 = (np.uint64(x) for x in a["buried"])
    tops = np.empty((2, 5), np.int64)
    sp._fill_tops(a["st"], h1, h2, b1, b2, int(p[sp.P_MEMORY]), strength, suit_kinds, strength_kinds, tops)
    kitty = float(K.points(b1, b2)) if b1 else sp.KITTY_GUESS
    return seat, a, (h1, h2, b1, b2), tops, kitty


def _value(p, state, play, w_lead=None, w_follow=None) -> float:
    seat, a, (h1, h2, _, _), tops, kitty = _arrays(state, p)
    x1, x2 = (np.uint64(x) for x in _masks(play))
    wl = sp.W_LEAD if w_lead is None else w_lead
    wf = sp.W_FOLLOW if w_follow is None else w_follow
    return float(sp.play_value(p, a["st"], seat, h1, h2, x1, x2, kitty, tops, *a["tables"], wl, wf))


def _check_twin(state, p, seed):
    """Each feature of ``play_value`` (weights a unit vector) and the weighted estimate equal the plain
    twin's, for the meant play and every candidate of a mistake. Returns how many plays were checked."""
    seat, a, (h1, h2, b1, b2), tops, kitty = _arrays(state, p)
    eff, strength, suit_kinds, strength_kinds = a["tables"]
    meant = compiled_decide(p, state.observation(seat), new_rng(seed))
    buf = np.empty((sp.BUF_ROWS, 4), np.int64)
    m1, m2 = (np.uint64(x) for x in _masks(meant))
    n = sp.slip_candidates(a["st"], h1, h2, m1, m2, eff, strength, suit_kinds, strength_kinds, buf)
    plays = [meant] + [_kinds(int(x), int(y)) for x, y in buf[sp.TRACTOR_CAP : sp.TRACTOR_CAP + n, :2]]
    lead = not state.trick
    names = sp.LEAD_FEATURES if lead else sp.FOLLOW_FEATURES
    for play in plays:
        kind, f = twin.play_features(p, a["st"], seat, a["hand"], a["buried"], _masks(play), kitty)
        assert kind == ("lead" if lead else "follow")
        for i in range(len(names)):
            e = np.zeros(len(names))
            e[i] = 1.0
            got = _value(p, state, play, e, None) if lead else _value(p, state, play, None, e)
            assert got == f[i], (play, names[i])
        want = twin.play_value(p, a["st"], seat, a["hand"], a["buried"], _masks(play), kitty)
        assert abs(_value(p, state, play) - want) < 1e-9
    return len(plays)


@settings(max_examples=60, deadline=None)
@given(
    seed=hyp.integers(0, 10**6),
    name=hyp.sampled_from(LADDER),
    memory=hyp.sampled_from(["none", "trick", "full"]),
    infer=hyp.booleans(),
)
def test_play_estimate_equals_its_plain_twin(seed, name, memory, infer):
    """The estimate of a play against its plain twin (``_check_twin``) on random positions of the play
    phase, for any memory and inference."""
    state = random_state(seed, 13 + seed % 90)
    if state.phase() != "play" or len(state.legal_actions()) > 400:
        return
    p = get_bot(name, ruleset="shengji", mistake_rate=0.0, memory=memory, infer=infer).compiled_form("shengji")
    _check_twin(state, p, seed)


def test_play_estimate_equals_its_plain_twin_where_voids_are_known():
    """The same where the public voids count (TANA: full memory, inference): follows with an opponent
    still to play known void in the led side suit and not in trumps, and leads with an opponent known
    void in a side suit."""
    p = get_bot("TANA", ruleset="shengji", mistake_rate=0.0).compiled_form("shengji")
    follows = leads = 0
    for seed in range(4000):
        if follows >= 25 and leads >= 15:
            break
        state = random_state(seed, 50 + seed % 50)
        if state.phase() != "play" or len(state.legal_actions()) > 400:
            continue
        voids = [int(v) for v in policy_input(state.observation(0))["voids"]]
        seat = state.current_player()
        opps = [t for t in range(4) if t % 2 != seat % 2 and not voids[t] >> 4 & 1]
        if state.trick:
            e = state.trick_lead[2]
            after = [(seat + j) % 4 for j in range(1, 4 - len(state.trick))]
            if follows < 25 and e != 4 and any(t in after and voids[t] >> e & 1 for t in opps):
                follows += _check_twin(state, p, seed) > 0
        elif leads < 15 and any(voids[t] & 0xF for t in opps):
            leads += _check_twin(state, p, seed) > 0
    assert follows >= 25 and leads >= 15


def test_play_candidates_are_legal_distinct_and_of_the_right_shape():
    checked = 0
    for seed in range(400):
        state = random_state(seed, 13 + seed % 90)
        if state.phase() != "play" or len(state.legal_actions()) > 400:
            continue
        p = get_bot("TANA", ruleset="shengji", mistake_rate=0.0).compiled_form("shengji")
        seat, a, (h1, h2, _, _), _, _ = _arrays(state, p)
        meant = compiled_decide(p, state.observation(seat), new_rng(seed))
        m1, m2 = (np.uint64(x) for x in _masks(meant))
        buf = np.empty((sp.BUF_ROWS, 4), np.int64)
        n = sp.slip_candidates(a["st"], h1, h2, m1, m2, *a["tables"], buf)
        plays = [tuple(_kinds(int(x), int(y))) for x, y in buf[sp.TRACTOR_CAP : sp.TRACTOR_CAP + n, :2]]
        legal = set(state.legal_actions())
        assert len(set(plays)) == len(plays) and meant not in plays
        assert set(plays) <= legal
        if not state.trick:  # a lead: the meant lead's shape (single, pair, tractor of its length)
            eff, strength, suit_kinds, _ = a["tables"]
            shape = K.play_shape(m1, m2, eff, strength, suit_kinds)[0]
            for x in plays:
                x1, x2 = (np.uint64(v) for v in _masks(x))
                assert K.play_shape(x1, x2, eff, strength, suit_kinds)[0] == shape
            if shape == 0:  # every single
                assert len(plays) == len({x for x in legal if len(x) == 1}) - 1
        checked += 1
    assert checked > 150


def _decisions(n: int):
    """Random states of every phase (declarations, burials, leads, follows) for the ladder."""
    out = []
    seed = 0
    while len(out) < n:
        seed += 1
        state = random_state(seed, [0, 2, 5, 14, 40, 70][seed % 6] + seed % 9)
        if not state.is_terminal() and len(state.legal_actions()) <= 400:
            out.append((seed, state))
    return out


def test_a_mistake_is_legal_and_never_rated_above_the_meant_action():
    """KADO .. TANA at mistake_rate 1, on random states of every phase: the mistake is legal and
    reproducible; a play is never rated above the meant one by ``play_value``; a burial is a card the
    burial ranking keeps, one of the next 16 after the cards it means to bury; a declaration is a pass or
    a call of another suit worth no more than the meant one and at least ``declare_min - DECL_SLACK``,
    or, when the bot meant to pass below ``declare_min``, its best call within that slack."""
    phases = {"declare": 0, "bury": 0, "play": 0}
    slips = 0
    for i, (seed, state) in enumerate(_decisions(500)):
        name = LADDER[i % len(LADDER)]
        p = get_bot(name, ruleset="shengji", mistake_rate=1.0).compiled_form("shengji")
        calm = get_bot(name, ruleset="shengji", mistake_rate=0.0).compiled_form("shengji")
        seat = state.current_player()
        obs = state.observation(seat)
        action = compiled_decide(p, obs, new_rng(seed))
        assert action == compiled_decide(p, obs, new_rng(seed))
        assert action in state.legal_actions(), (name, seed)
        meant = compiled_decide(calm, obs, new_rng(seed))
        phase = state.phase()
        phases[phase] += 1
        slips += action != meant
        if phase == "play":
            assert _value(p, state, action) <= _value(p, state, meant) + 1e-9, (name, seed)
        elif phase == "bury":
            _check_burial(p, state, seat, action[0], meant[0])
        else:
            _check_call(p, state, seat, action, meant)
    assert min(phases.values()) > 20 and slips > 250, (phases, slips)


def _check_burial(p, state, seat, kind, meant):
    a = policy_input(state.observation(seat))
    eff, strength, suit_kinds, _ = a["tables"]
    h1, h2 = (np.uint64(x) for x in a["hand"])
    smart = p[sp.P_BURY] > 0
    costs = {}
    for k in range(54):
        if int(h1) >> k & 1:
            costs[k] = sp._bury_cost(smart, k, h1, h2, eff, strength, suit_kinds)
    ranking = sorted(costs, key=lambda k: (costs[k], k))
    r = 8 - len(state.buried)
    assert ranking[0] == meant
    assert kind in ranking[r : r + 16] or kind == meant and len(ranking) <= r


def _worth(call, hand, level):
    one, two = (int(x) for x in (hand.one, hand.two))
    nlevel, njok = sp._level_jokers(np.uint64(one), np.uint64(two), level)
    code = 2 * call[0] + (len(call) == 2)
    return sp._call_worth(code, np.uint64(one), np.uint64(two), level, nlevel, njok)


def _check_call(p, state, seat, action, meant):
    if action == meant:
        return
    hand, level = state.hand(seat), state.level
    floor = p[sp.P_DECL_MIN] - sp.DECL_SLACK
    suit = lambda c: 4 if c[0] >= 52 else c[0] // 13  # noqa: E731
    if meant:
        assert not action or (
            suit(action) != suit(meant) and floor <= _worth(action, hand, level) <= _worth(meant, hand, level)
        )
    else:
        assert p[sp.P_DECLARE] == 2 and floor <= _worth(action, hand, level) < p[sp.P_DECL_MIN]
        assert all(_worth(c, hand, level) <= _worth(action, hand, level) for c in state.legal_actions() if c)


def test_slips_are_mostly_near_misses():
    """With the estimate's weights, a follow mistake is mostly a play the estimate rates close to the
    meant one: at a cold temperature the draw takes the cheapest candidate, and hotter draws reach
    costlier ones more often (the temperature sets how wild a slip is)."""

    def mean_cost(temperature):
        total = n = 0
        for seed, state in _decisions(300):
            if state.phase() != "play":
                continue
            p = get_bot("TANA", ruleset="shengji", mistake_rate=1.0, mistake_temperature=temperature)
            calm = get_bot("TANA", ruleset="shengji", mistake_rate=0.0)
            obs = state.observation(state.current_player())
            q = p.compiled_form("shengji")
            action = compiled_decide(q, obs, new_rng(seed))
            meant = compiled_decide(calm.compiled_form("shengji"), obs, new_rng(seed))
            total += _value(q, state, meant) - _value(q, state, action)
            n += 1
        return total / n

    cold, warm, hot = mean_cost(0.0), mean_cost(0.3), mean_cost(3.0)
    assert cold <= warm < hot
