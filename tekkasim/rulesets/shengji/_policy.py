"""Compiled Shengji policies (GREEDY and the heuristic ladder KADO .. JANGARA) and the compiled deal loop.

A decision is :func:`decide` on a parameter vector ``p`` (``P_*`` fields) and the deciding seat's
information only: its hand, the public table scalars ``st`` (``S_*`` fields: phase, trump, level, dealer,
the standing call, the trick in progress and its current winner, the attackers' points, the cards played
as the two masks of a multiset (``S_GONE1``, ``S_GONE2``) and the public voids (``S_VOID0 + seat``, a bit
per effective suit)) and, for the dealer alone, the buried cards. The loop also keeps the plays of the
trick in progress (``tplays``, by position). ``bots.shengji`` builds exactly these arrays from a seat's
observation; :func:`play_from` keeps them up to date while it plays a deal to its end, so the Python bot
and the compiled loop make the same decisions (tested on whole deals).

The whole-deal loop (:func:`play_deal`) deals like ``Shengji.new_deal`` (``deal_cards(new_rng(seed))``)
and seeds decision ``i`` with ``new_rng(mix_seed(seed, table, i))``, as the one play loop
(``bots.loop.play_deal``) does through ``decide``. The same state arrays and :func:`play_from` are the rollouts
of the search bots (from any sampled world, any phase).

Mistakes (``mistake_rate``): drawn by ``bits.mistake``, as ``base.maybe_mistake`` draws them. A heuristic
policy's mistake is plausible (issue 25): the action it meant is decided first, then one of its own
alternatives is drawn by ``bits.mistake_pick`` (temperature ``P_TEMP``) over what each costs against the
meant action by the policy's own evaluation, never one that evaluation rates above the meant action (its
equal may be drawn), and the meant action when none is left: a declaration passes on a marginal call or
calls the second-best suit (:func:`_slip_declare`; never a call worth less than ``declare_min -
DECL_SLACK``), a burial takes a card its ranking puts just after the cards it means to bury
(:func:`_slip_bury`), a lead or a follow another legal play of the right shape priced by
:func:`play_value` (:func:`_slip_play`, :func:`slip_candidates`). With ``P_UNIFORM``, and always for GREEDY
(no evaluation to draw by) and RANDOM, a mistake is the engine's random policy for that decision, the draw
before issue 25: a uniformly random call or pass, a uniformly random kind to bury, a uniformly random lead
(``random_lead``), or the engine's random follow (``random_follow``: legal, near-uniform).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tekkasim.bits import below, highest, kth, lowest, mistake, mistake_pick, mix_seed3, popcount, slip_step
from tekkasim.cards import BIG_JOKER, N_KINDS, SMALL_JOKER
from tekkasim.rulesets.shengji._kernels import (
    NO_TRUMP,
    OK,
    ONE,
    TRACTOR_CAP,
    TRUMP,
    ZERO,
    add,
    call_strength,
    check_play,
    deal_cards,
    declaration_options,
    fill_tables,
    level_change,
    list_tractors,
    play_key,
    play_shape,
    points,
    random_follow,
    random_lead,
    remove,
    size,
    tractor_mask,
)

# --- parameter vector -----------------------------------------------------------------------------------
(
    P_MODE,
    P_MISTAKE,
    P_MEMORY,
    P_INFER,
    P_PARTNER,
    P_POINTS,
    P_DECLARE,
    P_BURY,
    P_LEADS,
    P_KITTY,
    P_DECL_MIN,
    P_TEMP,
    P_UNIFORM,
) = range(13)
N_P = 13
MODE_RANDOM, MODE_GREEDY, MODE_HEURISTIC = 0, 1, 2
MEM_NONE, MEM_TRICK, MEM_FULL = 0, 1, 2

# --- table scalars ----------------------------------------------------------------------------------------
(
    S_PHASE,
    S_TO_MOVE,
    S_TRUMP,
    S_LEVEL,
    S_DEALER,
    S_STANDING,
    S_CALLER,
    S_PASSES,
    S_CALLS,
    S_BURIED,
    S_LEADER,
    S_TN,
    S_LEAD_N,
    S_LEAD_PAIRS,
    S_LEAD_SUIT,
    S_LEAD_SHAPE,
    S_BEST_KEY,
    S_BEST_SEAT,
    S_TPTS,
    S_ATT,
    S_BONUS,
    S_LEVEL_A,
    S_LEVEL_B,
    S_DECLARE_FIRST,
    S_FIRST_DEAL,
    S_TRICKS,
    S_TURNUP_SUIT,
    S_GONE1,
    S_GONE2,
    S_VOID0,
) = range(30)
S_N = 33  # S_VOID0 + seat: the public voids of each seat, one bit per effective suit
PH_DECLARE, PH_BURY, PH_PLAY, PH_END = 0, 1, 2, 3
MAX_ACTIONS = 160  # declaration turns (<= 4 calls and their passes) + 8 burials + at most 100 plays
# ``buf`` of the decisions: rows below TRACTOR_CAP list tractors, the SLIP_CAP rows after them hold a
# mistake's candidates (so that the draw allocates nothing)
SLIP_CAP = 256
BUF_ROWS = TRACTOR_CAP + SLIP_CAP


# --- small helpers ----------------------------------------------------------------------------------------
# The decision kernels and ``apply`` allocate no arrays, so they are compiled without numba's reference
# counting (``_nrt=False``): every array they see belongs to a caller that outlives the call, and the
# atomic increment and decrement per array argument and call were a large share of the deal loop's time
# (perf shows it in NRT_incref/NRT_decref). numba refuses to compile an allocation in such a kernel.


@njit(cache=True, inline="always")
def _bit(k):
    return ONE << np.uint64(k)


@njit(cache=True, inline="always")
def _count(one, two, k):
    b = _bit(k)
    return (1 if (one & b) != ZERO else 0) + (1 if (two & b) != ZERO else 0)


@njit(cache=True, inline="always")
def _card_points(k):
    if k >= 52:
        return 0
    r = k % 13
    return 5 if r == 3 else (10 if r == 8 or r == 11 else 0)


C_WEAK, C_DUMP, C_FEED = 0, 1, 2
# Arguments typed int64 rather than literal constants (here and as np.int64(...) below): numba compiles a
# called kernel again for each literal it is given, which costs compile time and changes nothing.
_ONE_CARD = np.int64(1)
_WEAK = np.int64(C_WEAK)


@njit(cache=True, _nrt=False, inline="always")
def _cost(which, k, hand2, eff, strength):
    """Cost ``which`` of kind ``k`` in a hand whose pairs are ``hand2``: ``C_DUMP`` (keep points and high
    cards and pairs), ``C_FEED`` (give points, keep trumps) or ``C_WEAK`` (GREEDY's weakest: trumps, then
    points, then strength)."""
    t = 1.0 if eff[k] == TRUMP else 0.0
    pts = _card_points(k)
    s = strength[k]
    if which == C_WEAK:
        return 1e6 * t + 1000.0 * pts + s
    pair = 1.0 if (hand2 >> np.uint64(k)) & ONE else 0.0
    if which == C_DUMP:
        return 300.0 * t + 45.0 * pts + 3.0 * s + 20.0 * pair + (30.0 if t == 0 and s == 11 else 0.0)
    return 300.0 * t - 45.0 * pts + 3.0 * s + 20.0 * pair + (30.0 if s == 11 else 0.0)


@njit(cache=True, _nrt=False)
def _pick(one, two, r, which, hand2, eff, strength):
    """The ``r`` physical cards of ``(one, two)`` of least cost ``which`` (ties: lowest kind), as masks."""
    po = ZERO
    pt = ZERO
    for _ in range(r):
        best = -1
        bc = 1e18
        m = one
        while m:
            k = lowest(m)
            m &= m - ONE
            c = _cost(which, k, hand2, eff, strength)
            if c < bc:
                bc = c
                best = k
        if best < 0:
            break
        b = _bit(best)
        po, pt = add(po, pt, b, ZERO)
        one, two = remove(one, two, b, ZERO)
    return po, pt


@njit(cache=True, _nrt=False)
def _pick_pairs(two, q, which, hand2, eff, strength):
    """``q`` pairs of ``two`` of least cost ``which``."""
    out = ZERO
    for _ in range(q):
        best = -1
        bc = 1e18
        m = two & ~out
        while m:
            k = lowest(m)
            m &= m - ONE
            c = _cost(which, k, hand2, eff, strength)
            if c < bc:
                bc = c
                best = k
        if best < 0:
            break
        out |= _bit(best)
    return out


FULL54 = np.uint64((1 << N_KINDS) - 1)


@njit(cache=True, _nrt=False, inline="always")
def _top_strength(m, e, strength, strength_kinds):
    """The highest strength among the kinds ``m`` of effective suit ``e`` (-1: none). Within a side suit,
    and among the trumps below the level cards (the trump suit's plain cards; in no-trump the level cards
    and the jokers), strength rises with the kind, so the highest kind has it."""
    if m == ZERO:
        return -1
    if e == TRUMP:
        for s in range(15, 11, -1):
            if (m & strength_kinds[TRUMP, s]) != ZERO:
                return s
    return strength[highest(m)]


@njit(cache=True, _nrt=False)
def _fill_tops(st, h1, h2, b1, b2, memory, strength, suit_kinds, strength_kinds, tops):
    """``tops[0, e]`` / ``tops[1, e]``: the highest strength of effective suit e of which a single / a pair
    may be outside the seat's hand (and its burial), as far as its memory knows (-1: none). The copies
    outside are the 108 cards less the hand, the burial and (full memory) the cards played, as masks."""
    o1, o2 = remove(FULL54, FULL54, h1, h2)
    o1, o2 = remove(o1, o2, b1, b2)
    if memory >= MEM_FULL:
        o1, o2 = remove(o1, o2, np.uint64(st[S_GONE1]), np.uint64(st[S_GONE2]))
    for e in range(5):
        tops[0, e] = _top_strength(o1 & suit_kinds[e], e, strength, strength_kinds)
        tops[1, e] = _top_strength(o2 & suit_kinds[e], e, strength, strength_kinds)


@njit(cache=True, _nrt=False, inline="always")
def _higher_out(tops, e, s, need):
    """Whether some kind of effective suit ``e`` stronger than ``s`` has ``need`` (1 or 2) copies outside."""
    return tops[need - 1, e] > s


@njit(cache=True, _nrt=False)
def _secure(e, shape, key, seats_after, p, tops, st):
    """Whether a play of ``shape`` with rank ``key`` in a trick led in ``e`` cannot be beaten by the seats
    still to play (``seats_after``: bit per seat), as far as the seat knows."""
    if seats_after == 0:
        return True
    need = 1 if shape == 0 else 2
    s = key - 16 if key >= 16 else key
    if key >= 16:  # a trump play (a trump lead, or a ruff): only higher trumps beat it
        return not _higher_out(tops, TRUMP, s, need)
    if _higher_out(tops, e, s, need):
        return False
    if p[P_INFER] > 0:
        for t in range(4):
            v = st[S_VOID0 + t]
            if (seats_after >> t) & 1 and (v >> e) & 1 and not (v >> TRUMP) & 1:
                return False  # a seat void in the led suit may ruff
    return True


@njit(cache=True, _nrt=False)
def _win_play(src1, src2, shape, npairs, e, best_key, strength_kinds, strength, buf):
    """The cheapest play of ``(src1, src2)`` (all of effective suit ``e``) of the lead's shape whose rank
    beats ``best_key``: ``(found, one, two, key)``."""
    off = 16 if e == TRUMP else 0
    if shape == 0:
        bk = -1
        bs = 1000
        m = src1
        while m:
            k = lowest(m)
            m &= m - ONE
            key = strength[k] + off
            if key > best_key and (key < bs or key == bs and _card_points(k) < _card_points(bk)):
                bs = key
                bk = k
        if bk < 0:
            return False, ZERO, ZERO, -1
        return True, _bit(bk), ZERO, bs
    if shape == 1:
        bk = -1
        bs = 1000
        m = src2
        while m:
            k = lowest(m)
            m &= m - ONE
            key = strength[k] + off
            if key > best_key and key < bs:
                bs = key
                bk = k
        if bk < 0:
            return False, ZERO, ZERO, -1
        b = _bit(bk)
        return True, b, b, bs
    nt = list_tractors(src2, strength_kinds, buf)
    bi = -1
    bs = 1000
    for i in range(nt):
        if buf[i, 0] != e or buf[i, 2] - buf[i, 1] + 1 != shape:
            continue
        key = buf[i, 2] + off
        if key > best_key and key < bs:
            bs = key
            bi = i
    if bi < 0:
        return False, ZERO, ZERO, -1
    m = tractor_mask(src2, strength_kinds, buf[bi])
    return True, m, m, bs


# --- the decisions ----------------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def _call_worth(code, h1, h2, level, nlevel, njok):
    """What call ``code`` (``2 * kind + is_pair``) is worth to the hand: the trumps it would hold (level
    cards, jokers, the suit), half a point per Ace of the suit, 0.75 for a pair call, 2 for no-trump."""
    kind = code >> 1
    pair = code & 1
    if kind >= 52:
        val = nlevel + njok + 2.0  # no-trump: every level card and joker, and the call cannot be beaten
    else:
        s = kind // 13
        sm = np.uint64(0x1FFF) << np.uint64(13 * s)
        val = popcount(h1 & sm) + popcount(h2 & sm) - _count(h1, h2, kind) + nlevel + njok
        # high cards of the suit make it a better trump
        val += 0.5 * (_count(h1, h2, s * 13 + 12) if level != 12 else 0)
    return val + 0.75 * pair  # a pair call is harder to overcall


@njit(cache=True, _nrt=False, inline="always")
def _level_jokers(h1, h2, level):
    """The level cards and the jokers of a hand (the trumps of every call)."""
    nlevel = 0
    for s in range(4):
        nlevel += _count(h1, h2, s * 13 + level)
    return nlevel, _count(h1, h2, SMALL_JOKER) + _count(h1, h2, BIG_JOKER)


@njit(cache=True, _nrt=False, inline="always")
def _best_call(opts, cnt, h1, h2, level, nlevel, njok):
    """The first of the ``cnt`` options worth most to the hand, and its worth (``(-1, -1.0)`` if none)."""
    best = -1
    bv = -1.0
    for i in range(cnt):
        val = _call_worth(opts[i], h1, h2, level, nlevel, njok)
        if val > bv:
            bv = val
            best = opts[i]
    return best, bv


@njit(cache=True, _nrt=False)
def _declare(p, st, seat, h1, h2, opts):
    level = st[S_LEVEL]
    standing = st[S_STANDING]
    cnt = declaration_options(h1, h2, level, standing, opts)
    mode = int(p[P_DECLARE])
    if cnt == 0 or mode == 0 or p[P_MODE] == MODE_GREEDY:
        return ZERO, ZERO
    caller = st[S_CALLER]
    if standing > 0 and (caller & 1) == (seat & 1):
        return ZERO, ZERO  # our side's call stands
    if mode == 1 and standing > 0:
        return ZERO, ZERO  # the simple rule never overcalls
    nlevel, njok = _level_jokers(h1, h2, level)
    best, bv = _best_call(opts, cnt, h1, h2, level, nlevel, njok)
    if mode == 2 and bv < p[P_DECL_MIN]:
        return ZERO, ZERO
    kind = best >> 1
    b = _bit(kind)
    return b, (b if best & 1 else ZERO)


@njit(cache=True, _nrt=False, inline="always")
def _bury_cost(smart, k, h1, h2, eff, strength, suit_kinds):
    """How much the burial keeps kind ``k``: ``weakest`` (side suits before trumps, non-points before
    points, low first) or ``smart`` (also keeps pairs and side Aces, empties short suits)."""
    t = 1 if eff[k] == TRUMP else 0
    pts = _card_points(k)
    if not smart:
        return 1e6 * t + 1000.0 * pts + strength[k]
    e = eff[k]
    c = 10000.0 * t + 60.0 * pts + 10.0 * strength[k] + 25.0 * size(h1 & suit_kinds[e], h2 & suit_kinds[e])
    if (h2 >> np.uint64(k)) & ONE:
        c += 250.0  # keep pairs: they win pair and tractor tricks
    if strength[k] == 11 and t == 0:
        c += 300.0  # a side Ace is a master
    return c


@njit(cache=True, _nrt=False)
def _bury(p, st, h1, h2, eff, strength, suit_kinds):
    smart = p[P_BURY] > 0 and p[P_MODE] == MODE_HEURISTIC
    bk = -1
    bc = 1e18
    m = h1
    while m:
        k = lowest(m)
        m &= m - ONE
        c = _bury_cost(smart, k, h1, h2, eff, strength, suit_kinds)
        if c < bc:
            bc = c
            bk = k
    return _bit(bk), ZERO


@njit(cache=True, _nrt=False)
def _lead(p, st, seat, h1, h2, tops, eff, strength, suit_kinds, strength_kinds, buf):
    greedy = p[P_MODE] == MODE_GREEDY
    trump = st[S_TRUMP]
    if greedy or p[P_LEADS] == 0:
        # a side-suit Ace (lowest kind first), else the weakest single
        m = h1
        while m:
            k = lowest(m)
            m &= m - ONE
            if k < 52 and k % 13 == 12 and eff[k] != TRUMP:
                return _bit(k), ZERO
        return _pick(h1, ZERO, _ONE_CARD, _WEAK, h2, eff, strength)
    defenders = (seat & 1) == (st[S_DEALER] & 1)
    opp = (1 << ((seat + 1) % 4)) | (1 << ((seat + 3) % 4))
    infer = p[P_INFER] > 0
    # 1. a master tractor (else any tractor of a side suit), highest first
    nt = list_tractors(h2, strength_kinds, buf)
    best_i = -1
    best_v = -1e9
    for i in range(nt):
        e = buf[i, 0]
        ln = buf[i, 2] - buf[i, 1] + 1
        master = not _higher_out(tops, e, buf[i, 2], 2)
        ruffable = False
        if e != TRUMP and infer:
            for t in range(4):
                v = st[S_VOID0 + t]
                if (opp >> t) & 1 and (v >> e) & 1 and not (v >> TRUMP) & 1:
                    ruffable = True
        v = 100.0 * ln + (500.0 if master and not ruffable else 0.0) + (0.0 if e == TRUMP else 50.0) + buf[i, 2]
        if v > best_v:
            best_v = v
            best_i = i
    if best_i >= 0 and best_v >= 500.0 or best_i >= 0 and buf[best_i, 0] != TRUMP:
        m = tractor_mask(h2, strength_kinds, buf[best_i])
        return m, m
    # 2. a master pair, 3. a master single of a side suit (trump singles only when defending)
    for shape in (1, 0):
        src = h2 if shape == 1 else h1
        bk = -1
        bv = -1e9
        m = src
        while m:
            k = lowest(m)
            m &= m - ONE
            e = eff[k]
            if e == TRUMP and shape == 0 and not defenders:
                continue
            if _higher_out(tops, e, strength[k], 2 if shape == 1 else 1):
                continue
            if e != TRUMP and infer:
                bad = False
                for t in range(4):
                    v = st[S_VOID0 + t]
                    if (opp >> t) & 1 and (v >> e) & 1 and not (v >> TRUMP) & 1:
                        bad = True
                if bad:
                    continue
            v = (0.0 if e == TRUMP else 100.0) + _card_points(k) + strength[k]
            if v > bv:
                bv = v
                bk = k
        if bk >= 0:
            b = _bit(bk)
            return b, (b if shape == 1 else ZERO)
    # 4. defenders with many trumps draw them with a low trump pair
    ntr = size(h1 & suit_kinds[TRUMP], h2 & suit_kinds[TRUMP])
    if defenders and ntr >= 10 and (h2 & suit_kinds[TRUMP]) != ZERO and trump != NO_TRUMP:
        m = h2 & suit_kinds[TRUMP]
        k = lowest(m)
        b = _bit(k)
        return b, b
    # 5. a low non-point single of the shortest side suit (to void it), else the weakest single
    bk = -1
    bv = 1e18
    m = h1
    while m:
        k = lowest(m)
        m &= m - ONE
        e = eff[k]
        if e == TRUMP or _card_points(k) > 0 or (h2 >> np.uint64(k)) & ONE:
            continue
        ln = size(h1 & suit_kinds[e], h2 & suit_kinds[e])
        v = 20.0 * ln + strength[k]
        if v < bv:
            bv = v
            bk = k
    if bk >= 0:
        return _bit(bk), ZERO
    return _pick(h1, ZERO, _ONE_CARD, _WEAK, h2, eff, strength)


@njit(cache=True, _nrt=False)
def _follow(p, st, seat, h1, h2, tops, eff, strength, suit_kinds, strength_kinds, buf):
    greedy = p[P_MODE] == MODE_GREEDY
    memory = int(p[P_MEMORY])
    n = st[S_LEAD_N]
    npairs = st[S_LEAD_PAIRS]
    e = st[S_LEAD_SUIT]
    shape = st[S_LEAD_SHAPE]
    tn = st[S_TN]
    best_key = st[S_BEST_KEY]
    best_seat = st[S_BEST_SEAT]
    sm = suit_kinds[e]
    so = h1 & sm
    st2 = h2 & sm
    h = size(so, st2)
    partner_winning = memory >= MEM_TRICK and (best_seat & 1) == (seat & 1)
    seats_after = np.int64(0)
    for j in range(1, 4 - tn):
        seats_after |= 1 << ((seat + j) % 4)
    last_trick = size(h1, h2) == n
    # how sure partner's lead of the trick is
    sure = False
    if partner_winning:
        sure = _secure(e, shape, best_key, seats_after, p, tops, st)
    point_play = p[P_POINTS] > 0 and not greedy
    cost = C_WEAK if greedy or not point_play else C_DUMP
    if point_play and partner_winning and sure:
        cost = C_FEED
    want_win = False
    if greedy:
        want_win = True
    elif memory >= MEM_TRICK:
        if not partner_winning or p[P_PARTNER] == 0:
            want_win = True
    if h <= n:
        if h == n or h > 0:  # short: all of the led suit, the rest freely (cannot win unless exactly n)
            po, pt = so, st2
            if h == n:
                return po, pt
            r1, r2 = remove(h1, h2, so, st2)
            fo, ft = _pick(r1, r2, n - h, cost, h2, eff, strength)
            return add(po, pt, fo, ft)
        # void: ruff with the cheapest winning trump play of the lead's shape, or discard
        if want_win and e != TRUMP:
            t1 = h1 & suit_kinds[TRUMP]
            t2 = h2 & suit_kinds[TRUMP]
            found, wo, wt, key = _win_play(
                t1, t2, shape, npairs, np.int64(TRUMP), best_key, strength_kinds, strength, buf
            )
            if found:
                ruff = greedy or memory == MEM_NONE
                if not ruff:
                    pts = st[S_TPTS]
                    # a ruff pays for points on the table, in the last tricks (the kitty), or when trumps abound
                    ntr = size(t1, t2)
                    ruff = pts >= 5 or (p[P_KITTY] > 0 and size(h1, h2) <= 2 * n) or ntr >= 8 or p[P_POINTS] == 0
                if ruff:
                    return wo, wt
        return _pick(h1, h2, n, cost, h2, eff, strength)
    # long in the led suit: n cards of it, with the pairs the lead asks for
    if memory == MEM_NONE and not greedy and shape == 0:
        # no view of the trick: the top of the suit if it is a master by its own hand, else low
        top = -1
        wo = ZERO
        m = so
        while m:
            k = lowest(m)
            m &= m - ONE
            if strength[k] > top:
                top = strength[k]
                wo = _bit(k)
        if not _higher_out(tops, e, top, 1):
            return wo, ZERO
    if want_win and best_key < 16 or want_win and e == TRUMP:
        found, wo, wt, key = _win_play(so, st2, shape, npairs, e, best_key, strength_kinds, strength, buf)
        if found:
            if greedy or p[P_PARTNER] == 0 or tn == 3:
                return wo, wt
            # prefer the cheapest winner nobody after us can beat; second hand plays low otherwise
            k2 = key
            while True:
                if _secure(e, shape, k2, seats_after, p, tops, st):
                    return wo, wt
                f2, o2, t2_, k3 = _win_play(so, st2, shape, npairs, e, k2, strength_kinds, strength, buf)
                if not f2:
                    break
                wo, wt, k2 = o2, t2_, k3
            if tn == 2 or st[S_TPTS] >= 10 or last_trick:
                found, wo, wt, key = _win_play(so, st2, shape, npairs, e, best_key, strength_kinds, strength, buf)
                return wo, wt
    q = min(npairs, popcount(st2))
    pairs = _pick_pairs(st2, q, cost, h2, eff, strength)
    r1, r2 = remove(so, st2, pairs, pairs)
    fo, ft = _pick(r1, r2, n - 2 * q, cost, h2, eff, strength)
    return add(pairs, pairs, fo, ft)


# --- plausible mistakes (issue 25) ---------------------------------------------------------------------
# A mistake is drawn by ``bits.mistake_pick`` among the bot's own alternatives, each priced by what it costs
# against the action the bot meant by its own rough evaluation, in tens of card points (``SLIP_POINTS``
# points a unit: a packed step is 1.25 points, 17.5 points or more are gross, all alike). An alternative
# the evaluation rates above the meant action is never drawn (its equal may be); with none left the meant
# action is played.
SLIP_POINTS = 10.0
DECL_SLACK = 2.0  # a call worth less than declare_min - DECL_SLACK is hopeless: never called by mistake
DECL_POINTS = 5.0  # card points a unit of a call's worth (about a trump) is priced at
BURY_SMART = 600.0  # ``_bury_cost`` of one unit (ten points): smart keeps a point at 60, weakest at 1000
BURY_WEAK = 10000.0
BURY_RANK = 1.0 / 16.0  # units a place further down the burial ranking adds
KITTY_GUESS = 10.0  # the kitty's points as a seat that did not bury it counts them
_EPS = 1e-9


@njit(cache=True, _nrt=False, inline="always")
def _call_suit(kind):
    """The suit a call makes trump (4: no-trump, the jokers' call)."""
    return 4 if kind >= 52 else kind // 13


@njit(cache=True, _nrt=False)
def _slip_declare(p, st, seat, h1, h2, opts, m1, m2, rng):
    """A declaration mistake, the meant call being ``(m1, m2)`` (a pass is ``(0, 0)``): passing instead
    of the meant call, priced by how far its worth (``_call_worth``) lies above ``declare_min`` (a
    marginal call's pass is cheap), or the best call of another suit, priced by the worth it gives up; a
    meant pass of an ``eval`` bot below ``declare_min`` becomes its best call. A call worth less than
    ``declare_min - DECL_SLACK`` (hopeless by the bot's own count) is never made by mistake, nor a call
    the bot's rule never makes (over partner's call; ``simple`` never overcalls)."""
    level = st[S_LEVEL]
    standing = st[S_STANDING]
    cnt = declaration_options(h1, h2, level, standing, opts)
    mode = int(p[P_DECLARE])
    if cnt == 0 or mode == 0:
        return m1, m2
    if standing > 0 and (st[S_CALLER] & 1) == (seat & 1):
        return m1, m2
    if mode == 1 and standing > 0:
        return m1, m2
    nlevel, njok = _level_jokers(h1, h2, level)
    best, bv = _best_call(opts, cnt, h1, h2, level, nlevel, njok)
    second = -1
    sv = -1.0
    for i in range(cnt):
        if _call_suit(opts[i] >> 1) == _call_suit(best >> 1):
            continue
        val = _call_worth(opts[i], h1, h2, level, nlevel, njok)
        if val > sv:
            sv = val
            second = opts[i]
    floor = p[P_DECL_MIN] - DECL_SLACK
    costs = ZERO
    n = 0
    c0 = -1  # the choices: c0 (a call, or -1 for a pass) and c1 (a call)
    c1 = -1
    if m1 == ZERO:
        if bv < floor or bv >= p[P_DECL_MIN]:
            return m1, m2
        c0 = best
        costs |= np.uint64(slip_step((p[P_DECL_MIN] - bv) * DECL_POINTS / SLIP_POINTS))
        n = 1
    else:
        costs |= np.uint64(slip_step(max(0.0, bv - p[P_DECL_MIN]) * DECL_POINTS / SLIP_POINTS))
        n = 1
        if second >= 0 and sv >= floor:
            c1 = second
            costs |= np.uint64(slip_step((bv - sv) * DECL_POINTS / SLIP_POINTS)) << np.uint64(4)
            n = 2
    i = mistake_pick(rng, costs, n, p[P_TEMP])
    if i < 0:
        return m1, m2
    code = c0 if i == 0 else c1
    if code < 0:
        return ZERO, ZERO
    b = _bit(code >> 1)
    return b, (b if code & 1 else ZERO)


@njit(cache=True, _nrt=False)
def _cheapest_bury(smart, h1, h2, chosen, eff, strength, suit_kinds):
    """``(kind, cost)`` of the card not yet ``chosen`` that the burial ranking buries next (-1 when none)."""
    bk = -1
    bc = 1e18
    m = h1 & ~chosen
    while m:
        k = lowest(m)
        m &= m - ONE
        c = _bury_cost(smart, k, h1, h2, eff, strength, suit_kinds)
        if c < bc:
            bc = c
            bk = k
    return bk, bc


@njit(cache=True, _nrt=False)
def _slip_bury(p, st, h1, h2, eff, strength, suit_kinds, buf, rng):
    """A burial mistake: a card that the bot's burial ranking (``_bury_cost``) puts just after the ones it
    means to bury (the ``8 - buried`` cheapest kinds), one of the next 16 kinds of the ranking, priced by
    how much more the ranking keeps it than the last meant card (in tens of points: a ten's points cost
    ``BURY_SMART`` or ``BURY_WEAK``) plus ``BURY_RANK`` a place: a point card, a pair or a short-suit card
    it meant to keep, seldom a trump."""
    smart = p[P_BURY] > 0 and p[P_MODE] == MODE_HEURISTIC
    unit = BURY_SMART if smart else BURY_WEAK
    chosen = ZERO
    meant = -1
    last = 0.0
    for _ in range(8 - st[S_BURIED]):
        bk, bc = _cheapest_bury(smart, h1, h2, chosen, eff, strength, suit_kinds)
        if bk < 0:
            break
        if meant < 0:
            meant = bk
        chosen |= _bit(bk)
        last = bc
    costs = ZERO
    n = 0
    for j in range(16):
        bk, bc = _cheapest_bury(smart, h1, h2, chosen, eff, strength, suit_kinds)
        if bk < 0:
            break
        chosen |= _bit(bk)
        buf[TRACTOR_CAP + j, 0] = bk
        costs |= np.uint64(slip_step((bc - last) / unit + BURY_RANK * j)) << np.uint64(4 * j)
        n += 1
    i = mistake_pick(rng, costs, n, p[P_TEMP])
    return _bit(meant if i < 0 else buf[TRACTOR_CAP + i, 0]), ZERO


# The features of a play that ``play_value`` weighs (``W_FOLLOW`` / ``W_LEAD``), in this order; their
# pure-Python twin is ``reference.shengji_slip.play_features``. T below is the points on the table (and, in
# the last trick, the kitty's at 2 per card led: KITTY_GUESS points for a seat that did not bury it), pts
# the play's own points; a play that follows either beats the trick so far (win: sure when no opponent
# after can beat it, by ``_secure``) or leaves it to partner (sure or not) or to an opponent.
FOLLOW_FEATURES = (
    "win_sure_T",
    "win_unsure_T",
    "partner_sure_T",
    "partner_unsure_T",
    "opponent_T",
    "win_sure_pts",
    "win_unsure_pts",
    "partner_sure_pts",
    "partner_unsure_pts",
    "opponent_pts",
    "win_sure",
    "win_unsure",
    "partner_sure",
    "partner_unsure",
    "trumps",  # trumps played
    "trump_strength",  # their strengths, summed
    "side_masters",  # side cards no single outside can beat
    "side_strength",  # the other side cards' strengths, summed
    "pairs_broken",  # a pair of the hand split by the play
    "tractor_pairs_broken",  # ... when the pair is part of a tractor of the hand
    "overtake",  # beats partner's winning play
    "ruff",  # beats with trumps, void in the led suit
)
LEAD_FEATURES = (
    "master",  # no opponent can beat it, by ``_secure``
    "master_pts",
    "pts",
    "trump_lead",
    "master_trump",
    "trumps",
    "trump_strength",
    "side_masters",
    "side_strength",
    "pairs_broken",
    "tractor_pairs_broken",
    "suit_length",  # cards of the led (effective) suit in the hand
    "ruffable",  # an opponent known void in the (side) suit and not in trumps (``infer``)
    "ruffable_pts",
    "partner_void",  # partner known void in it and not in trumps (``infer``)
    "short_side",  # a side suit of at most two cards
)
# weights in card points, one per feature, by a fit on tuning boards (experiments/README.md) (the
# command and its figures: experiments/README.md)
# fmt: off
W_FOLLOW = np.array([0.343, -0.012, 0.346, -0.135, -0.543, 0.464, 0.029, 0.427, 0.080, -0.263, 0.922, 1.726,
                     2.661, -2.271, -3.557, -0.186, -2.746, -0.177, -0.950, -3.025, -0.390, 1.854])
W_LEAD = np.array([2.838, 0.143, -0.203, 0.373, -2.505, 0.619, 0.024, -0.466, 0.057, -1.030, -1.902, -0.133,
                   0.382, 0.001, -0.945, 0.481])
# fmt: on


@njit(cache=True, _nrt=False)
def play_value(p, st, seat, h1, h2, x1, x2, kitty, tops, eff, strength, suit_kinds, strength_kinds, w_lead, w_follow):
    """The policy's estimate of playing ``(x1, x2)`` now, in card points: its features (``FOLLOW_FEATURES``
    or ``LEAD_FEATURES``, from what the seat sees: the cards it remembers in ``tops``, the public voids
    when it infers, the trick on the table) weighted by ``w_follow`` or ``w_lead`` (the policy's own:
    ``W_FOLLOW``, ``W_LEAD``)."""
    tn = st[S_TN]
    n = size(x1, x2)
    pts = points(x1, x2)
    trumps = 0
    trump_str = 0
    masters = 0
    side_str = 0
    broken = 0
    tbroken = 0
    m = x1
    while m:
        k = lowest(m)
        m &= m - ONE
        b = _bit(k)
        c = 2 if (x2 & b) != ZERO else 1
        ek = eff[k]
        s = strength[k]
        if ek == TRUMP:
            trumps += c
            trump_str += c * s
        elif not _higher_out(tops, ek, s, 1):
            masters += c
        else:
            side_str += c * s
        if c == 1 and (h2 & b) != ZERO:
            broken += 1
            if (
                s > 0
                and (h2 & strength_kinds[ek, s - 1]) != ZERO
                or s < 15
                and (h2 & strength_kinds[ek, s + 1]) != ZERO
            ):
                tbroken += 1
    opp = (1 << ((seat + 1) % 4)) | (1 << ((seat + 3) % 4))
    after = np.int64(0)
    for j in range(1, 4 - tn):
        after |= 1 << ((seat + j) % 4)
    opp_after = after & opp
    if tn == 0:
        if n == 1:  # a single, without the general shape's call (most plays priced are singles)
            k1 = lowest(x1)
            shape, e, top = 0, eff[k1], strength[k1]
        else:
            shape, e, top = play_shape(x1, x2, eff, strength, suit_kinds)
        sure = 1 if _secure(e, shape, top + (16 if e == TRUMP else 0), opp_after, p, tops, st) else 0
        trump_lead = 1 if e == TRUMP else 0
        length = size(h1 & suit_kinds[e], h2 & suit_kinds[e])
        ruffable = 0
        pvoid = 0
        if e != TRUMP and p[P_INFER] > 0:
            for t in range(4):
                v = st[S_VOID0 + t]
                if t != seat and (v >> e) & 1 and not (v >> TRUMP) & 1:
                    if (opp >> t) & 1:
                        ruffable = 1
                    else:
                        pvoid = 1
        w = w_lead
        return (
            w[0] * sure
            + w[1] * sure * pts
            + w[2] * pts
            + w[3] * trump_lead
            + w[4] * sure * trump_lead
            + w[5] * trumps
            + w[6] * trump_str
            + w[7] * masters
            + w[8] * side_str
            + w[9] * broken
            + w[10] * tbroken
            + w[11] * length
            + w[12] * ruffable
            + w[13] * ruffable * pts
            + w[14] * pvoid
            + w[15] * (1 if e != TRUMP and length <= 2 else 0)
        )
    e = st[S_LEAD_SUIT]
    shape = st[S_LEAD_SHAPE]
    void = (h1 & suit_kinds[e]) == ZERO
    if n == 1:
        k1 = lowest(x1)
        ek = eff[k1]
        key = strength[k1] + (16 if ek == TRUMP else 0) if ek == e or ek == TRUMP and void else -1
    else:
        key = play_key(x1, x2, shape, e, void, eff, strength, suit_kinds)
    table = st[S_TPTS]
    if size(h1, h2) == n:
        table += np.int64(kitty) * 2 * n  # the last trick: its winner's side decides the kitty's points
    partner = (st[S_BEST_SEAT] & 1) == (seat & 1)
    cat = 4  # 0 win sure, 1 win unsure, 2 partner's sure, 3 partner's unsure, 4 an opponent's
    if key > st[S_BEST_KEY]:
        cat = 0 if _secure(e, shape, key, opp_after, p, tops, st) else 1
    elif partner:
        cat = 2 if _secure(e, shape, st[S_BEST_KEY], opp_after, p, tops, st) else 3
    w = w_follow
    v = w[cat] * table + w[5 + cat] * pts + (w[10 + cat] if cat < 4 else 0.0)
    v += w[14] * trumps + w[15] * trump_str + w[16] * masters + w[17] * side_str + w[18] * broken + w[19] * tbroken
    if cat < 2:
        if partner:
            v += w[20]
        if void and e != TRUMP and key >= 16:
            v += w[21]
    return v


@njit(cache=True, _nrt=False)
def _slip_store(st, h1, h2, x1, x2, m1, m2, eff, strength, suit_kinds, buf, n, dup):
    """Candidate ``(x1, x2)`` of a play mistake, stored at row ``TRACTOR_CAP + n`` of ``buf`` when it is
    legal, not the meant play ``(m1, m2)`` and not one of the first ``dup`` candidates. The new count."""
    if n >= SLIP_CAP or (x1 == m1 and x2 == m2) or x1 == ZERO:
        return n
    if st[S_TN] > 0 and st[S_LEAD_N] > 1:  # a single's candidates are legal by construction
        ok = check_play(h1, h2, x1, x2, st[S_LEAD_N], st[S_LEAD_PAIRS], st[S_LEAD_SUIT], eff, strength, suit_kinds)
        if ok != OK:
            return n
    for r in range(dup):
        if buf[TRACTOR_CAP + r, 0] == np.int64(x1) and buf[TRACTOR_CAP + r, 1] == np.int64(x2):
            return n
    buf[TRACTOR_CAP + n, 0] = np.int64(x1)
    buf[TRACTOR_CAP + n, 1] = np.int64(x2)
    return n + 1


@njit(cache=True, _nrt=False)
def _follow_variant(which, h1, h2, n, npairs, so, st2, eff, strength):
    """The follow the policy's own fallback makes with card cost ``which`` (``_follow``'s last lines)."""
    h = size(so, st2)
    if h <= n:
        r1, r2 = remove(h1, h2, so, st2)
        fo, ft = _pick(r1, r2, n - h, which, h2, eff, strength)
        return add(so, st2, fo, ft)
    q = min(npairs, popcount(st2))
    pairs = _pick_pairs(st2, q, which, h2, eff, strength)
    r1, r2 = remove(so, st2, pairs, pairs)
    fo, ft = _pick(r1, r2, n - 2 * q, which, h2, eff, strength)
    return add(pairs, pairs, fo, ft)


@njit(cache=True, _nrt=False)
def slip_candidates(st, h1, h2, m1, m2, eff, strength, suit_kinds, strength_kinds, buf):
    """The plays a lead or follow mistake chooses from, the meant play being ``(m1, m2)``: their masks in
    rows ``TRACTOR_CAP ..`` of ``buf`` (columns 0 and 1, at most ``SLIP_CAP``); returns how many. On lead,
    every lead of the meant lead's shape (every single, every pair, every tractor of its length).
    Following, the follows the policy's own rules make with its other card costs (weakest, keep points,
    feed points), the cheapest play of the lead's shape that wins the trick (a ruff when void), then the
    meant play with one card changed for another (of the led suit when the hand has more of it than the
    lead's count, else of the rest of the hand) or one pair for another pair; each legal and once. (To a
    single lead the changes alone: they are every legal single.)"""
    n = 0
    if st[S_TN] == 0:
        shape, e, top = play_shape(m1, m2, eff, strength, suit_kinds)
        if shape == 0:
            m = h1
            while m:
                k = lowest(m)
                m &= m - ONE
                n = _slip_store(st, h1, h2, _bit(k), ZERO, m1, m2, eff, strength, suit_kinds, buf, n, 0)
        elif shape == 1:
            m = h2
            while m:
                k = lowest(m)
                m &= m - ONE
                n = _slip_store(st, h1, h2, _bit(k), _bit(k), m1, m2, eff, strength, suit_kinds, buf, n, 0)
        else:
            nt = list_tractors(h2, strength_kinds, buf)
            for i in range(nt):
                if buf[i, 2] - buf[i, 1] + 1 == shape:
                    b = tractor_mask(h2, strength_kinds, buf[i])
                    n = _slip_store(st, h1, h2, b, b, m1, m2, eff, strength, suit_kinds, buf, n, n)
        return n
    nl = st[S_LEAD_N]
    npairs = st[S_LEAD_PAIRS]
    e = st[S_LEAD_SUIT]
    so = h1 & suit_kinds[e]
    st2 = h2 & suit_kinds[e]
    h = size(so, st2)
    for which in range(3 if nl > 1 else 0):  # a single's changes below are every legal single
        x1, x2 = _follow_variant(np.int64(which), h1, h2, nl, npairs, so, st2, eff, strength)
        n = _slip_store(st, h1, h2, x1, x2, m1, m2, eff, strength, suit_kinds, buf, n, n)
    if nl > 1 and (h > nl or h == 0 and e != TRUMP):
        w1, w2, we = (so, st2, e) if h > nl else (h1 & suit_kinds[TRUMP], h2 & suit_kinds[TRUMP], TRUMP)
        found, x1, x2, key = _win_play(
            w1, w2, st[S_LEAD_SHAPE], npairs, np.int64(we), st[S_BEST_KEY], strength_kinds, strength, buf
        )
        if found:
            n = _slip_store(st, h1, h2, x1, x2, m1, m2, eff, strength, suit_kinds, buf, n, n)
    nvar = n  # the changes below differ from one another: only these may repeat one
    # the cards that may change: the led suit's when the hand has more than the lead's count, else the
    # rest of the hand (every legal follow holds all of the led suit's cards then)
    if h > nl:
        pool1, pool2 = so, st2
    else:
        pool1, pool2 = remove(h1, h2, so, st2)
    free1, free2 = remove(pool1, pool2, m1 & pool1, m2 & pool2)  # the pool's cards the play leaves
    out = m1 & pool1
    while out:
        a = lowest(out)
        out &= out - ONE
        r1, r2 = remove(m1, m2, _bit(a), ZERO)
        inn = free1
        while inn:
            c = lowest(inn)
            inn &= inn - ONE
            if c != a:
                x1, x2 = add(r1, r2, _bit(c), ZERO)
                n = _slip_store(st, h1, h2, x1, x2, m1, m2, eff, strength, suit_kinds, buf, n, nvar)
    out = m2 & pool2
    while out:
        a = lowest(out)
        out &= out - ONE
        r1, r2 = remove(m1, m2, _bit(a), _bit(a))
        inn = free2  # pairs the play leaves whole
        while inn:
            c = lowest(inn)
            inn &= inn - ONE
            x1, x2 = add(r1, r2, _bit(c), _bit(c))
            n = _slip_store(st, h1, h2, x1, x2, m1, m2, eff, strength, suit_kinds, buf, n, nvar)
    return n


@njit(cache=True, _nrt=False)
def _slip_play(p, st, seat, h1, h2, b1, b2, m1, m2, tops, eff, strength, suit_kinds, strength_kinds, buf, rng):
    """A lead or follow mistake, the meant play being ``(m1, m2)``: one of :func:`slip_candidates`, drawn
    by ``bits.mistake_pick`` over what each costs against the meant play by ``play_value`` (in tens of
    points), among the 16 of least cost (ties: the order of the candidates); never a play the estimate
    rates above the meant one; the meant play when none is left."""
    kitty = float(points(b1, b2)) if b1 != ZERO else KITTY_GUESS
    vm = play_value(
        p, st, seat, h1, h2, m1, m2, kitty, tops, eff, strength, suit_kinds, strength_kinds, W_LEAD, W_FOLLOW
    )
    n = slip_candidates(st, h1, h2, m1, m2, eff, strength, suit_kinds, strength_kinds, buf)
    kept = 0  # the candidates rated no better than the meant play, moved to the front with their step
    for r in range(n):
        x1 = np.uint64(buf[TRACTOR_CAP + r, 0])
        x2 = np.uint64(buf[TRACTOR_CAP + r, 1])
        v = play_value(
            p, st, seat, h1, h2, x1, x2, kitty, tops, eff, strength, suit_kinds, strength_kinds, W_LEAD, W_FOLLOW
        )
        if v <= vm + _EPS:
            buf[TRACTOR_CAP + kept, 0] = buf[TRACTOR_CAP + r, 0]
            buf[TRACTOR_CAP + kept, 1] = buf[TRACTOR_CAP + r, 1]
            buf[TRACTOR_CAP + kept, 2] = slip_step((vm - v) / SLIP_POINTS)
            kept += 1
    return _slip_draw(p, m1, m2, buf, kept, rng)


@njit(cache=True, _nrt=False)
def _slip_draw(p, m1, m2, buf, n, rng):
    """The draw among the ``n`` stored candidates: the 16 of least cost (ties: the first stored), by
    ``bits.mistake_pick``; the meant play when there is none."""
    lim = 15  # candidates of a step below lim are taken, and the first ``room`` of step lim
    room = 0
    if n > 16:
        taken = 0
        for s in range(15):
            c = 0
            for r in range(n):
                c += buf[TRACTOR_CAP + r, 2] == s
            if taken + c >= 16:
                lim = s
                room = 16 - taken
                break
            taken += c
    costs = ZERO
    j = 0
    for r in range(n):
        s = buf[TRACTOR_CAP + r, 2]
        take = s < lim
        if s == lim and room > 0:
            take = True
            room -= 1
        buf[TRACTOR_CAP + r, 3] = j if take else -1
        if take:
            costs |= np.uint64(s) << np.uint64(4 * j)
            j += 1
    i = mistake_pick(rng, costs, j, p[P_TEMP])
    if i < 0:
        return m1, m2
    for r in range(n):
        if buf[TRACTOR_CAP + r, 3] == i:
            return np.uint64(buf[TRACTOR_CAP + r, 0]), np.uint64(buf[TRACTOR_CAP + r, 1])
    return m1, m2


@njit(cache=True, _nrt=False)
def decide(p, st, seat, h1, h2, b1, b2, eff, strength, suit_kinds, strength_kinds, buf, opts, tops, rng):
    """The action of policy ``p`` for ``seat`` to move, as masks ``(one, two)`` (a pass is ``(0, 0)``).
    ``buf`` (``BUF_ROWS`` x 4), ``opts`` and ``tops`` (int64 (2, 5)) are scratch space."""
    phase = st[S_PHASE]
    slip = p[P_MODE] == MODE_RANDOM or mistake(rng, p[P_MISTAKE])
    # the engine's random action: RANDOM, GREEDY's mistakes (no evaluation to draw by), mistake_uniform
    uniform = slip and (p[P_MODE] != MODE_HEURISTIC or p[P_UNIFORM] > 0)
    if phase == PH_DECLARE:
        if uniform:
            cnt = declaration_options(h1, h2, st[S_LEVEL], st[S_STANDING], opts)
            r = below(rng, cnt + 1)
            if r == 0:
                return ZERO, ZERO
            kind = opts[r - 1] >> 1
            b = _bit(kind)
            return b, (b if opts[r - 1] & 1 else ZERO)
        one, two = _declare(p, st, seat, h1, h2, opts)
        if slip:
            return _slip_declare(p, st, seat, h1, h2, opts, one, two, rng)
        return one, two
    if phase == PH_BURY:
        if uniform:
            return _bit(kth(h1, below(rng, popcount(h1)))), ZERO
        if slip:
            return _slip_bury(p, st, h1, h2, eff, strength, suit_kinds, buf, rng)
        return _bury(p, st, h1, h2, eff, strength, suit_kinds)
    if uniform:
        if st[S_TN] == 0:
            return random_lead(rng, h1, h2, strength_kinds, buf)
        return random_follow(rng, h1, h2, st[S_LEAD_N], st[S_LEAD_PAIRS], st[S_LEAD_SUIT], suit_kinds)
    _fill_tops(st, h1, h2, b1, b2, int(p[P_MEMORY]), strength, suit_kinds, strength_kinds, tops)
    if st[S_TN] == 0:
        one, two = _lead(p, st, seat, h1, h2, tops, eff, strength, suit_kinds, strength_kinds, buf)
    else:
        one, two = _follow(p, st, seat, h1, h2, tops, eff, strength, suit_kinds, strength_kinds, buf)
    if slip:
        return _slip_play(
            p, st, seat, h1, h2, b1, b2, one, two, tops, eff, strength, suit_kinds, strength_kinds, buf, rng
        )
    return one, two


# --- the rules, on the arrays -------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def apply(st, hands, tplays, eff, strength, suit_kinds, strength_kinds, one, two):
    """Apply the action ``(one, two)`` of the seat to move (assumed legal), exactly as ``ShengjiState``."""
    phase = st[S_PHASE]
    seat = st[S_TO_MOVE]
    if phase == PH_DECLARE:
        if one == ZERO:
            st[S_PASSES] += 1
        else:
            kind = lowest(one)
            st[S_STANDING] = call_strength(kind, two != ZERO)
            st[S_CALLER] = seat
            st[S_PASSES] = 0
            st[S_CALLS] += 1
            st[S_TRUMP] = NO_TRUMP if kind >= 52 else kind // 13
        st[S_TO_MOVE] = (seat + 1) % 4
        fix = False
        if st[S_STANDING] == 0 and st[S_PASSES] == 4:
            st[S_TRUMP] = st[S_TURNUP_SUIT]
            fix = True
        elif st[S_STANDING] > 0 and st[S_PASSES] == 3:
            fix = True
        if fix:
            if st[S_FIRST_DEAL] == 1:
                st[S_DEALER] = st[S_CALLER] if st[S_CALLER] >= 0 else st[S_DECLARE_FIRST]
            fill_tables(st[S_TRUMP], st[S_LEVEL], eff, strength, suit_kinds, strength_kinds)
            d = st[S_DEALER]
            hands[d, 0], hands[d, 1] = add(hands[d, 0], hands[d, 1], hands[4, 0], hands[4, 1])
            hands[4, 0] = ZERO
            hands[4, 1] = ZERO
            st[S_PHASE] = PH_BURY
            st[S_TO_MOVE] = d
        return
    if phase == PH_BURY:
        d = st[S_DEALER]
        hands[d, 0], hands[d, 1] = remove(hands[d, 0], hands[d, 1], one, ZERO)
        hands[4, 0], hands[4, 1] = add(hands[4, 0], hands[4, 1], one, ZERO)
        st[S_BURIED] += 1
        if st[S_BURIED] == 8:
            st[S_PHASE] = PH_PLAY
            st[S_LEADER] = d
            st[S_TN] = 0
        return
    h1 = hands[seat, 0]
    h2 = hands[seat, 1]
    tn = st[S_TN]
    n = size(one, two)
    if tn == 0:
        shape, e, top = play_shape(one, two, eff, strength, suit_kinds)
        st[S_LEAD_N] = n
        st[S_LEAD_PAIRS] = popcount(two)
        st[S_LEAD_SUIT] = e
        st[S_LEAD_SHAPE] = shape
        st[S_BEST_KEY] = top + (16 if e == TRUMP else 0)
        st[S_BEST_SEAT] = seat
        st[S_TPTS] = 0
        st[S_LEADER] = seat
    else:
        e = st[S_LEAD_SUIT]
        void = (h1 & suit_kinds[e]) == ZERO
        key = play_key(one, two, st[S_LEAD_SHAPE], e, void, eff, strength, suit_kinds)
        if key > st[S_BEST_KEY]:
            st[S_BEST_KEY] = key
            st[S_BEST_SEAT] = seat
        if size(one & suit_kinds[e], two & suit_kinds[e]) < st[S_LEAD_N]:
            st[S_VOID0 + seat] |= 1 << e
    st[S_TPTS] += points(one, two)
    g1, g2 = add(np.uint64(st[S_GONE1]), np.uint64(st[S_GONE2]), one, two)
    st[S_GONE1] = np.int64(g1)
    st[S_GONE2] = np.int64(g2)
    tplays[tn, 0] = one
    tplays[tn, 1] = two
    hands[seat, 0], hands[seat, 1] = remove(h1, h2, one, two)
    st[S_TN] = tn + 1
    st[S_TO_MOVE] = (seat + 1) % 4
    if tn + 1 == 4:
        w = st[S_BEST_SEAT]
        last = hands[w, 0] == ZERO
        if (w & 1) != (st[S_DEALER] & 1):
            st[S_ATT] += st[S_TPTS]
            if last:
                st[S_BONUS] = points(hands[4, 0], hands[4, 1]) * 2 * st[S_LEAD_N]
                st[S_ATT] += st[S_BONUS]
        st[S_TRICKS] += 1
        st[S_TN] = 0
        st[S_TPTS] = 0
        st[S_LEADER] = w
        st[S_TO_MOVE] = w
        if last:
            st[S_PHASE] = PH_END


@njit(cache=True, _nrt=False)
def decide_turn(params, st, hands, eff, strength, suit_kinds, strength_kinds, buf, opts, tops, rng):
    """The action ``(one, two)`` of the seat to move, by its policy ``params[seat]``; the dealer sees the
    kitty (row 4 of ``hands``) in the play phase, where it buries."""
    s = st[S_TO_MOVE]
    b1 = ZERO
    b2 = ZERO
    if s == st[S_DEALER] and st[S_PHASE] == PH_PLAY:
        b1 = hands[4, 0]
        b2 = hands[4, 1]
    return decide(
        params[s],
        st,
        s,
        hands[s, 0],
        hands[s, 1],
        b1,
        b2,
        eff,
        strength,
        suit_kinds,
        strength_kinds,
        buf,
        opts,
        tops,
        rng,
    )


@njit(cache=True, _nrt=False)
def _play_loop(
    params,
    st,
    hands,
    tplays,
    eff,
    strength,
    suit_kinds,
    strength_kinds,
    buf,
    opts,
    tops,
    rng,
    reseed,
    seed,
    table,
    hist,
):
    """Play the state to its end, seat s deciding by ``params[s]``; ``reseed``: decision i seeded
    ``new_rng(mix_seed(seed, table, i))`` and recorded in ``hist`` (as far as it has rows), else the
    running ``rng``. Returns the number of actions."""
    i = np.int64(0)
    while st[S_PHASE] != PH_END:
        if reseed:
            rng[0] = mix_seed3(seed, table, i)
        one, two = decide_turn(params, st, hands, eff, strength, suit_kinds, strength_kinds, buf, opts, tops, rng)
        if i < hist.shape[0]:
            hist[i, 0] = one
            hist[i, 1] = two
        apply(st, hands, tplays, eff, strength, suit_kinds, strength_kinds, one, two)
        i += 1
    return i


@njit(cache=True)
def play_from(params, st, hands, tplays, eff, strength, suit_kinds, strength_kinds, rng):
    """Play the state to its end, seat s deciding by ``params[s]`` with the running ``rng`` (rollouts)."""
    buf = np.empty((BUF_ROWS, 4), np.int64)
    opts = np.empty(16, np.int64)
    tops = np.empty((2, 5), np.int64)
    hist = np.empty((0, 2), np.uint64)
    # np.int64(...) rather than literals: one compiled _play_loop for rollouts and whole deals
    _play_loop(
        params,
        st,
        hands,
        tplays,
        eff,
        strength,
        suit_kinds,
        strength_kinds,
        buf,
        opts,
        tops,
        rng,
        np.int64(0),
        ZERO,
        np.int64(0),
        hist,
    )


@njit(cache=True, _nrt=False)
def gains(st):
    """``(gain A, gain B)`` of a finished deal."""
    d_gain, a_gain, take_over = level_change(st[S_ATT])
    if (st[S_DEALER] & 1) == 0:
        return d_gain, a_gain
    return a_gain, d_gain


@njit(cache=True)
def new_deal_arrays(seed, level_a, level_b, dealer, declare_first, st, hands):
    """Deal ``seed`` as ``Shengji.new_deal`` does into fresh arrays (``dealer`` -1: a first deal)."""
    _deal_into(
        np.uint64(seed),
        level_a,
        level_b,
        dealer,
        declare_first,
        st,
        hands,
        np.empty(108, np.int64),
        np.empty(1, np.uint64),
    )


@njit(cache=True, _nrt=False)
def _deal_into(seed, level_a, level_b, dealer, declare_first, st, hands, deck, rng):
    """:func:`new_deal_arrays` with scratch ``deck`` (108) and ``rng`` (1)."""
    rng[0] = np.uint64(seed)
    deal_cards(rng, deck)
    for i in range(S_N):
        st[i] = 0
    for s in range(5):
        hands[s, 0] = ZERO
        hands[s, 1] = ZERO
    for s in range(4):
        for i in range(25 * s, 25 * s + 25):
            hands[s, 0], hands[s, 1] = add(hands[s, 0], hands[s, 1], _bit(deck[i]), ZERO)
    for i in range(100, 108):
        hands[4, 0], hands[4, 1] = add(hands[4, 0], hands[4, 1], _bit(deck[i]), ZERO)
    st[S_TURNUP_SUIT] = -1
    for i in range(100, 108):
        if deck[i] < 52:
            st[S_TURNUP_SUIT] = deck[i] // 13
            break
    st[S_LEVEL_A] = level_a
    st[S_LEVEL_B] = level_b
    st[S_FIRST_DEAL] = 1 if dealer < 0 else 0
    st[S_DEALER] = dealer
    st[S_LEVEL] = level_a if dealer < 0 or (dealer & 1) == 0 else level_b
    st[S_CALLER] = -1
    st[S_TRUMP] = -1
    st[S_DECLARE_FIRST] = declare_first
    st[S_TO_MOVE] = declare_first
    st[S_PHASE] = PH_DECLARE


@njit(cache=True, _nrt=False)
def _outcome(st, n, out):
    ga, gb = gains(st)
    out[0] = ga
    out[1] = gb
    out[2] = st[S_ATT]
    out[3] = st[S_BONUS]
    out[4] = st[S_DEALER]
    out[5] = st[S_TRUMP]
    out[6] = n


@njit(cache=True)
def _scratch():
    """The arrays of one deal: state, hands, trick plays, tables, and the decisions' scratch space."""
    tables = (
        np.zeros(N_KINDS, np.int64),
        np.zeros(N_KINDS, np.int64),
        np.zeros(5, np.uint64),
        np.zeros((5, 16), np.uint64),
    )
    return (
        np.empty(S_N, np.int64),
        np.empty((5, 2), np.uint64),
        np.zeros((4, 2), np.uint64),
        tables,
        np.empty((BUF_ROWS, 4), np.int64),
        np.empty(16, np.int64),
        np.empty((2, 5), np.int64),
        np.empty(1, np.uint64),
        np.empty(108, np.int64),
    )


# play_deal calls _deal_into, _play_loop and _outcome itself: numba re-optimizes the whole
# linked decision code once per calling function, so one more level would cost seconds of compile time.


@njit(cache=True)
def play_deal(params, seed, table, level_a, level_b, dealer, declare_first, hist, out):
    """One whole deal from ``seed`` with seat s deciding by ``params[s]``; decision i seeded
    ``new_rng(mix_seed(seed, table, i))``. ``hist[i]`` = action i as ``(one, two)``; ``out`` = (gain A,
    gain B, attacker points, kitty bonus, dealer, trump, number of actions)."""
    st, hands, tplays, tables, buf, opts, tops, rng, deck = _scratch()
    eff, strength, suit_kinds, strength_kinds = tables
    sd = np.uint64(seed)
    _deal_into(sd, level_a, level_b, dealer, declare_first, st, hands, deck, rng)
    n = _play_loop(
        params,
        st,
        hands,
        tplays,
        eff,
        strength,
        suit_kinds,
        strength_kinds,
        buf,
        opts,
        tops,
        rng,
        np.int64(1),
        sd,
        np.int64(table),
        hist,
    )
    _outcome(st, n, out)
