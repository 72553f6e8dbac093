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

Mistakes (``mistake_rate``): drawn by ``bits.mistake``, as ``base.maybe_mistake`` draws them; a mistake is
the engine's random policy for that decision: a uniformly random call or pass, a uniformly random kind to
bury, a uniformly random lead (``random_lead``), or the engine's random follow (``random_follow``: legal,
near-uniform).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import below, highest, kth, lowest, mistake, mix_seed3, popcount
from ..cards import BIG_JOKER, N_KINDS, SMALL_JOKER
from ..rules._shengji_kernels import (
    NO_TRUMP,
    ONE,
    TRACTOR_CAP,
    TRUMP,
    ZERO,
    add,
    call_strength,
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
P_MODE, P_MISTAKE, P_MEMORY, P_INFER, P_PARTNER, P_POINTS, P_DECLARE, P_BURY, P_LEADS, P_KITTY, P_DECL_MIN = range(11)
N_P = 11
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


# --- small helpers ----------------------------------------------------------------------------------------
# The decision kernels and ``apply`` allocate no arrays, so they are compiled without numba's reference
# counting (``_nrt=False``): every array they see belongs to a caller that outlives the call, and the
# atomic increment and decrement per array argument and call were half of the deal loop's time (measured
# with perf in NRT_incref/NRT_decref). numba refuses to compile an allocation in such a kernel.


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
    nlevel = 0
    for s in range(4):
        nlevel += _count(h1, h2, s * 13 + level)
    njok = _count(h1, h2, SMALL_JOKER) + _count(h1, h2, BIG_JOKER)
    best = -1
    bv = -1.0
    for i in range(cnt):
        code = opts[i]
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
        val += 0.75 * pair  # a pair call is harder to overcall
        if val > bv:
            bv = val
            best = code
    if mode == 2 and bv < p[P_DECL_MIN]:
        return ZERO, ZERO
    kind = best >> 1
    b = _bit(kind)
    return b, (b if best & 1 else ZERO)


@njit(cache=True, _nrt=False)
def _bury(p, st, h1, h2, eff, strength, suit_kinds):
    smart = p[P_BURY] > 0 and p[P_MODE] == MODE_HEURISTIC
    bk = -1
    bc = 1e18
    m = h1
    while m:
        k = lowest(m)
        m &= m - ONE
        t = 1 if eff[k] == TRUMP else 0
        pts = _card_points(k)
        if not smart:
            c = 1e6 * t + 1000.0 * pts + strength[k]
        else:
            e = eff[k]
            c = 10000.0 * t + 60.0 * pts + 10.0 * strength[k] + 25.0 * size(h1 & suit_kinds[e], h2 & suit_kinds[e])
            if (h2 >> np.uint64(k)) & ONE:
                c += 250.0  # keep pairs: they win pair and tractor tricks
            if strength[k] == 11 and t == 0:
                c += 300.0  # a side Ace is a master
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


@njit(cache=True, _nrt=False)
def decide(p, st, seat, h1, h2, b1, b2, eff, strength, suit_kinds, strength_kinds, buf, opts, tops, rng):
    """The action of policy ``p`` for ``seat`` to move, as masks ``(one, two)`` (a pass is ``(0, 0)``).
    ``buf``, ``opts`` and ``tops`` (int64 (2, 5)) are scratch space."""
    phase = st[S_PHASE]
    slip = p[P_MODE] == MODE_RANDOM or mistake(rng, p[P_MISTAKE])
    if phase == PH_DECLARE:
        if slip:
            cnt = declaration_options(h1, h2, st[S_LEVEL], st[S_STANDING], opts)
            r = below(rng, cnt + 1)
            if r == 0:
                return ZERO, ZERO
            kind = opts[r - 1] >> 1
            b = _bit(kind)
            return b, (b if opts[r - 1] & 1 else ZERO)
        return _declare(p, st, seat, h1, h2, opts)
    if phase == PH_BURY:
        if slip:
            return _bit(kth(h1, below(rng, popcount(h1)))), ZERO
        return _bury(p, st, h1, h2, eff, strength, suit_kinds)
    if slip:
        if st[S_TN] == 0:
            return random_lead(rng, h1, h2, strength_kinds, buf)
        return random_follow(rng, h1, h2, st[S_LEAD_N], st[S_LEAD_PAIRS], st[S_LEAD_SUIT], suit_kinds)
    _fill_tops(st, h1, h2, b1, b2, int(p[P_MEMORY]), strength, suit_kinds, strength_kinds, tops)
    if st[S_TN] == 0:
        return _lead(p, st, seat, h1, h2, tops, eff, strength, suit_kinds, strength_kinds, buf)
    return _follow(p, st, seat, h1, h2, tops, eff, strength, suit_kinds, strength_kinds, buf)


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
    buf = np.empty((TRACTOR_CAP, 4), np.int64)
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
        np.empty((TRACTOR_CAP, 4), np.int64),
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
