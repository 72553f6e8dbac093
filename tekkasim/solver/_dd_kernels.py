"""Compiled double-dummy search (see ``tekkasim.solver.dd`` for the public API and the rules decisions).

Everything here is a module-level ``@njit(cache=True)`` function working on uint64 card masks. The
search state is kept in a few preallocated arrays that the caller owns and passes in:

``st`` (uint64, 8)
    ``st[0..3]`` the four hands (52-card masks, indexed by seat), ``st[4]`` a node counter,
    ``st[5]`` transposition-table cut-offs, ``st[6]`` quick-trick cut-offs.
``tt`` (uint64, (2**k, 3))
    transposition table: ``tt[i] = (key0, key1, lower | upper << 8)``; bounds count the tricks of
    team A (bottom + top) among the tricks left. Entries are replaced on collision.
``moves`` (int64, (53, 14))
    one row of ordered candidate cards per search depth (``4 * (13 - tricks left) + position``).

Values are always tricks of team A (seats 0 and 2); the Python layer turns them into the side to move.
``variant`` is 0 for the standard trick rules (Feskot, Tekka: counter-clockwise, plain follow suit) and
1 for Satat (clockwise, 2♥ beats everything and is never a heart for following; a 2♥ lead asks for Troupe).

The TT key is the relative-rank form of a position at a trick boundary: the owner (2 bits) of every
remaining card, listed in card order with the played cards squeezed out (``pext``), plus the suit
lengths, the leader, trump, variant and (Satat) whether 2♥ is still out. Two positions with the same key
have the same value, so the table may be kept across deals and across solves.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..bits import HAVE_BMI2

if config.DISABLE_JIT:  # plain Python for coverage and debugging: the bit intrinsics cannot run there

    def popcount(x):
        return int(x).bit_count()

    def lowest(x):
        x = int(x)
        return 64 if x == 0 else (x & -x).bit_length() - 1

    def highest(x):
        return int(x).bit_length() - 1

else:
    from ..bits import highest, lowest, popcount

U64 = np.uint64
ONE = np.uint64(1)
ZERO = np.uint64(0)
SUIT13 = np.uint64((1 << 13) - 1)
FULL52 = np.uint64((1 << 52) - 1)
H2 = 26  # two of hearts (hearts = 2, rank 2 = 0)
H2BIT = np.uint64(1 << 26)
NOT_H2 = np.uint64(((1 << 64) - 1) ^ (1 << 26))
STANDARD = 0
SATAT = 1
NO_TRUMP = 4
MASK8 = np.uint64(0xFF)
_HASH1 = np.uint64(0x9E3779B97F4A7C15)
_HASH2 = np.uint64(0xC2B2AE3D27D4EB4F)


@intrinsic
def _pext_bmi(typingctx, src, mask):
    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


@intrinsic
def _pdep_bmi(typingctx, src, mask):
    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


@njit(cache=True, inline="always")
def _pext_loop(x, m):
    out = ZERO
    k = ZERO
    while m != ZERO:
        low = m & (~m + ONE)
        if x & low:
            out |= ONE << k
        k += ONE
        m ^= low
    return out


@njit(cache=True, inline="always")
def _pdep_loop(x, m):
    out = ZERO
    k = ZERO
    while m != ZERO:
        low = m & (~m + ONE)
        if (x >> k) & ONE:
            out |= low
        k += ONE
        m ^= low
    return out


# NUMBA_DISABLE_JIT=1 (coverage runs) cannot call intrinsics: fall back to the loops there too.
_USE_BMI2 = HAVE_BMI2 and not config.DISABLE_JIT
pext = _pext_bmi if _USE_BMI2 else _pext_loop
pdep = _pdep_bmi if _USE_BMI2 else _pdep_loop


@njit(cache=True, inline="always")
def _smask(s):
    return SUIT13 << np.uint64(13 * s)


@njit(cache=True, inline="always")
def _rule_suit(s, variant):
    """The cards of suit ``s`` that count for following and ranking in sequences (Satat: 2♥ is apart)."""
    m = SUIT13 << np.uint64(13 * s)
    if variant == SATAT:
        m &= NOT_H2
    return m


@njit(cache=True, inline="always")
def next_seat(seat, variant):
    if variant == SATAT:
        return (seat + 3) & 3
    return (seat + 1) & 3


@njit(cache=True, inline="always")
def lead_suit_of(c, trump, variant):
    """The suit to follow after card ``c`` is led (4: none, a Satat 2♥ lead without Troupe)."""
    if variant == SATAT and c == H2:
        return trump
    return c // 13


@njit(cache=True, inline="always")
def strength(c, trump, lead, variant):
    """Comparable strength of card ``c`` in a trick led in ``lead``: 0 cannot win, higher beats lower."""
    if variant == SATAT and c == H2:
        return 100
    s = c // 13
    if s == trump:
        return 40 + c % 13
    if s == lead:
        return 20 + c % 13
    return 0


@njit(cache=True, inline="always")
def legal_mask(hand, pos, lead, variant):
    """The cards of ``hand`` that may be played at position ``pos`` (0 = lead) of a trick led in ``lead``."""
    if pos == 0 or lead >= 4:
        return hand
    f = hand & _rule_suit(lead, variant)
    if f != ZERO:
        if variant == SATAT:
            return f | (hand & H2BIT)
        return f
    return hand


@njit(cache=True, inline="always")
def representatives(legal, hand, rem, variant):
    """One card per run of equivalent legal cards: cards of one suit in one hand with no other remaining
    card (in hands or on the table) between them. The highest card of each run is kept."""
    out = ZERO
    for s in range(4):
        sm = _rule_suit(s, variant)
        lg = legal & sm
        if lg == ZERO:
            continue
        rs = rem & sm
        cm = pext(hand & sm, rs)
        cl = pext(lg, rs)
        out |= pdep(cl & ~(cm >> ONE), rs)
    if variant == SATAT:
        out |= legal & H2BIT
    return out


@njit(cache=True)
def tt_new(bits):
    return np.zeros((1 << bits, 3), dtype=np.uint64)


@njit(cache=True, inline="always")
def _keys(st, rem, leader, trump, variant):
    p0 = pext(st[1] | st[3], rem)
    p1 = pext(st[2] | st[3], rem)
    l0 = np.uint64(popcount(rem & _smask(0)))
    l1 = np.uint64(popcount(rem & _smask(1)))
    l2 = np.uint64(popcount(rem & _smask(2)))
    l3 = np.uint64(popcount(rem & _smask(3)))
    flag = ZERO
    if variant == SATAT and (rem & H2BIT) != ZERO:
        flag = ONE
    k0 = p0 | (l0 << np.uint64(52)) | (l1 << np.uint64(56)) | (l2 << np.uint64(60))
    k1 = (
        p1
        | (l3 << np.uint64(52))
        | (np.uint64(leader) << np.uint64(56))
        | (np.uint64(trump) << np.uint64(58))
        | (np.uint64(variant) << np.uint64(61))
        | (flag << np.uint64(62))
    )
    return k0, k1


@njit(cache=True, inline="always")
def _slot(k0, k1, size):
    h = k0 * _HASH1 + k1
    h ^= h >> np.uint64(29)
    h *= _HASH2
    h ^= h >> np.uint64(32)
    return np.int64(h & np.uint64(size - 1))


@njit(cache=True)
def last_trick_winner(st, leader, trump, variant):
    """Each hand holds one card: the seat that wins the last trick."""
    c = lowest(st[leader])
    lead = lead_suit_of(c, trump, variant)
    best = strength(c, trump, lead, variant)
    win = leader
    seat = leader
    for _ in range(3):
        seat = next_seat(seat, variant)
        c = lowest(st[seat])
        s = strength(c, trump, lead, variant)
        if s > best:
            best = s
            win = seat
    return win


@njit(cache=True)
def quick_tricks(st, rem, seat, trump, variant):
    """Tricks the side of ``seat`` surely wins by leading its own top cards from ``seat``'s hand.

    A suit's top run (cards of ``seat`` with no other remaining card above them) is counted in no-trump,
    in the trump suit, and in side suits when neither opponent holds a trump: the leader never loses the
    lead while cashing them. In Satat a 2♥ in ``seat``'s hand is one more sure trick, and when an
    opponent holds 2♥ nothing is counted (it can take the lead whenever it likes).
    """
    hand = st[seat]
    opp = st[seat ^ 1] | st[seat ^ 3]
    opp_trumps = trump < 4 and (opp & _rule_suit(trump, variant)) != ZERO
    q = 0
    for s in range(4):
        if opp_trumps and s != trump:
            continue
        rs = rem & _rule_suit(s, variant)
        while rs != ZERO:
            top = np.uint64(highest(rs))
            if (hand >> top) & ONE == ZERO:
                break
            q += 1
            rs ^= ONE << top
    if variant == SATAT:
        if (opp & H2BIT) != ZERO:
            return 0  # an opponent's 2♥ can take the lead at any moment: nothing is sure
        if (hand & H2BIT) != ZERO:
            q += 1
    return q


@njit(cache=True, inline="always")
def _score(c, seat, pos, lead, win_seat, win_str, st, rem, trump, variant):
    """Move-ordering score of card ``c`` (higher is tried first)."""
    s = c // 13
    r = c % 13
    if variant == SATAT and c == H2:
        if pos > 0 and win_seat == (seat ^ 2):
            return 0
        return 40
    partner = seat ^ 2
    if pos == 0:
        sm = _rule_suit(s, variant)
        rs = rem & sm
        top = highest(rs)
        opp = st[seat ^ 1] | st[seat ^ 3]
        ruffable = False
        if trump < 4 and s != trump:
            tm = _rule_suit(trump, variant)
            if ((st[seat ^ 1] & sm) == ZERO and (st[seat ^ 1] & tm) != ZERO) or (
                (st[seat ^ 3] & sm) == ZERO and (st[seat ^ 3] & tm) != ZERO
            ):
                ruffable = True
        if c == top:
            sc = 70 + (5 if s == trump else 0)
        elif (st[partner] >> np.uint64(top)) & ONE:
            sc = 60 - r
        elif (opp & sm) == ZERO:
            sc = 55 - r
        else:
            sc = 20 + r
        if ruffable:
            sc -= 40
        return sc
    cs = strength(c, trump, lead, variant)
    wins = cs > win_str
    partner_wins = win_seat == partner
    if s == lead:
        if partner_wins:
            return 30 - r
        if wins:
            if pos == 3:
                return 60 - r
            return 45 + r
        return 20 - r
    if s == trump:
        if partner_wins:
            return 5 - r
        if wins:
            return 55 - r
        return 2 - r
    return 30 - r


@njit(cache=True)
def _order(moves, depth, reps, seat, pos, lead, win_seat, win_str, st, rem, trump, variant):
    n = 0
    m = reps
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        sc = _score(c, seat, pos, lead, win_seat, win_str, st, rem, trump, variant)
        # insertion sort on (score desc); scores kept in the row's tail half? use a parallel encoding
        v = sc * 64 + c
        i = n
        while i > 0 and moves[depth, i - 1] < v:
            moves[depth, i] = moves[depth, i - 1]
            i -= 1
        moves[depth, i] = v
        n += 1
    for i in range(n):
        moves[depth, i] = moves[depth, i] & 63
    return n


# An explicit signature: numba's cache mis-links self-recursive functions compiled lazily (numba issue
# 6061, a segfault on the second run); with the types fixed up front the recursive call is resolved.
_SEARCH_SIG = types.boolean(
    types.uint64[::1], types.uint64[:, ::1], types.int64[:, ::1], types.int64, types.int64, types.int64,
    types.int64, types.int64, types.int64, types.int64, types.uint64, types.uint64, types.int64, types.int64,
)


@njit(_SEARCH_SIG, cache=True)
def search(st, tt, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left, target):
    """True when team A can take at least ``target`` of the ``n_left`` tricks left (the current one
    included), with ``seat`` to play at position ``pos`` of the current trick.

    ``lead``/``win_seat``/``win_str`` describe the trick so far (ignored at ``pos == 0``), ``rem`` holds
    every card still in a hand or on the table, ``trick`` the cards on the table.
    """
    st[4] += ONE
    if pos == 0:
        if target <= 0:
            return True
        if target > n_left:
            return False
        if n_left == 1:
            return (last_trick_winner(st, seat, trump, variant) & 1) == 0
        k0, k1 = _keys(st, rem, seat, trump, variant)
        slot = _slot(k0, k1, tt.shape[0])
        if tt[slot, 0] == k0 and tt[slot, 1] == k1:
            b = tt[slot, 2]
            if np.int64(b & MASK8) >= target:
                st[5] += ONE
                return True
            if np.int64(b >> np.uint64(8)) < target:
                st[5] += ONE
                return False
        q = quick_tricks(st, rem, seat, trump, variant)
        if (seat & 1) == 0:
            if q >= target:
                st[6] += ONE
                return True
        elif n_left - q < target:
            st[6] += ONE
            return False
    hand = st[seat]
    legal = legal_mask(hand, pos, lead, variant)
    reps = representatives(legal, hand, rem, variant)
    depth = 4 * (13 - n_left) + pos
    nm = _order(moves, depth, reps, seat, pos, lead, win_seat, win_str, st, rem, trump, variant)
    maximizing = (seat & 1) == 0
    result = not maximizing
    nxt = next_seat(seat, variant)
    # every argument of the recursive calls is a typed variable, never a literal (see _SEARCH_SIG)
    npos = np.int64(pos + 1)
    none = np.int64(-1)
    for i in range(nm):
        c = moves[depth, i]
        b = ONE << np.uint64(c)
        st[seat] = hand ^ b
        if pos == 0:
            nlead = np.int64(lead_suit_of(c, trump, variant))
            cstr = np.int64(strength(c, trump, nlead, variant))
            r = search(st, tt, moves, trump, variant, nxt, npos, nlead, seat, cstr, rem, b, n_left, target)
        else:
            cs = strength(c, trump, lead, variant)
            ws = win_seat
            wstr = win_str
            if cs > win_str:
                ws = seat
                wstr = np.int64(cs)
            if pos == 3:
                won = np.int64(1) if (ws & 1) == 0 else np.int64(0)
                nrem = rem & ~(trick | b)
                r = search(st, tt, moves, trump, variant, ws, np.int64(0), none, none, none, nrem, np.uint64(0),
                           np.int64(n_left - 1), np.int64(target - won))
            else:
                r = search(st, tt, moves, trump, variant, nxt, npos, lead, ws, wstr, rem, trick | b, n_left, target)
        st[seat] = hand
        if r == maximizing:
            result = maximizing
            break
    if pos == 0:
        k0, k1 = _keys(st, rem, seat, trump, variant)
        slot = _slot(k0, k1, tt.shape[0])
        if tt[slot, 0] == k0 and tt[slot, 1] == k1:
            lb = np.int64(tt[slot, 2] & MASK8)
            ub = np.int64(tt[slot, 2] >> np.uint64(8))
        else:
            lb = 0
            ub = n_left
        if result:
            if target > lb:
                lb = target
        elif target - 1 < ub:
            ub = target - 1
        tt[slot, 0] = k0
        tt[slot, 1] = k1
        tt[slot, 2] = np.uint64(lb) | (np.uint64(ub) << np.uint64(8))
    return result


@njit(cache=True)
def solve_exact(st, tt, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left):
    """The exact number of the ``n_left`` tricks left that team A takes (binary search on ``search``)."""
    lo = 0
    hi = n_left
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if search(st, tt, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left, mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def card_values(st, tt, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left, out):
    """``out[c]`` = tricks of team A among the ``n_left`` left after ``seat`` plays ``c``, for every legal
    card ``c`` (-1 for the others). Equivalent cards are solved once."""
    for c in range(52):
        out[c] = -1
    hand = st[seat]
    legal = legal_mask(hand, pos, lead, variant)
    reps = representatives(legal, hand, rem, variant)
    nxt = next_seat(seat, variant)
    prev_value = -1
    c = 51
    while c >= 0:
        b = ONE << np.uint64(c)
        if (legal & b) == ZERO:
            c -= 1
            continue
        if (reps & b) == ZERO:
            # equivalent to the next higher card of the same run, already valued
            out[c] = prev_value
            c -= 1
            continue
        st[seat] = hand ^ b
        if pos == 0:
            nlead = lead_suit_of(c, trump, variant)
            v = solve_exact(
                st, tt, moves, trump, variant, nxt, 1, nlead, seat, strength(c, trump, nlead, variant), rem, b, n_left
            )
        else:
            cs = strength(c, trump, lead, variant)
            ws = win_seat
            wstr = win_str
            if cs > win_str:
                ws = seat
                wstr = cs
            if pos == 3:
                won = 1 if (ws & 1) == 0 else 0
                v = won + solve_exact(
                    st, tt, moves, trump, variant, ws, 0, -1, -1, -1, rem & ~(trick | b), ZERO, n_left - 1
                )
            else:
                v = solve_exact(st, tt, moves, trump, variant, nxt, pos + 1, lead, ws, wstr, rem, trick | b, n_left)
        st[seat] = hand
        out[c] = v
        prev_value = v
        c -= 1
    return 0
