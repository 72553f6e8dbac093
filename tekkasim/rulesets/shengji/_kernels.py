"""Compiled Shengji kernels: effective-suit tables, play shapes, the play validator, trick winners,
scoring, the random policy and the whole-deal random playout.

Card layout (``cards.CardMultiset``): a 108-card multiset is two 54-bit ``uint64`` masks over the card
*kinds* 0..53 (0..51 as in the 52-card layout, 52 = SJ, 53 = BJ): ``one`` = kinds held at least once,
``two`` = kinds held twice (a subset of ``one``). A play is such a pair of masks too.

Per deal (trump suit, level rank) :func:`fill_tables` computes once

* ``eff[k]``: the effective suit of kind k, 0..3 for the plain suits C D H S and 4 (``TRUMP``) for trumps;
* ``strength[k]``: its strength inside that effective suit, where *adjacent strengths are exactly the
  consecutive steps of a tractor*:

  - plain suit (and the trump suit's own plain cards): rank order 2..A with the level rank removed, 0..11;
  - suited trump: trump-suit plain cards 0..11, every off-suit level card 12 (equal to each other),
    the trump-suit level card 13, SJ 14, BJ 15;
  - no-trump: all four level cards 0 (equal), SJ 1, BJ 2;
* ``suit_kinds[e]``: the kind mask of effective suit e, so pairs of a suit are ``two & suit_kinds[e]``;
* ``strength_kinds[e, s]``: the kinds of suit e with strength s (several kinds only for the off-suit
  level cards, which are equal in strength and so can never be two steps of one tractor).

A tractor is then k >= 2 pairs of one effective suit whose strengths are k consecutive integers, and a
play's rank in a trick is ``top strength + 16 * (is trump)``; strictly greater beats, equal keeps the
earlier play. Every kernel has a list-based twin in ``tekkasim.rulesets.shengji.reference``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tekkasim.bits import below, highest, kth, lowest, popcount, shuffle
from tekkasim.cards import BIG_JOKER, N_KINDS, SMALL_JOKER

ONE = np.uint64(1)
ZERO = np.uint64(0)
TRUMP = 4  # effective-suit index of the trumps
NO_TRUMP = 4  # trump code of a no-trump deal (suits are 0..3)
HAND_SIZE = 25
KITTY_SIZE = 8
TRACTOR_CAP = 512  # tractors a lead can choose from: <= 12 pairs -> <= 66 runs x 4 choices

FIVES = np.uint64(sum(1 << (s * 13 + 3) for s in range(4)))
TENS_KINGS = np.uint64(sum(1 << (s * 13 + r) for s in range(4) for r in (8, 11)))

# Codes of check_play (the Python layer turns them into IllegalAction rules).
OK = 0
NOT_IN_HAND = 1
LEAD_SHAPE = 2
CARD_COUNT = 3
FOLLOW_SUIT = 4
FOLLOW_PAIRS = 5


@njit(cache=True)
def fill_tables(trump, level, eff, strength, suit_kinds, strength_kinds):
    """Fill the per-deal tables (layout in the module docstring) for ``trump`` (0..3 or 4 = no-trump)
    and ``level`` (rank 0..12)."""
    for e in range(5):
        suit_kinds[e] = ZERO
        for s in range(16):
            strength_kinds[e, s] = ZERO
    for k in range(52):
        s = k // 13
        r = k % 13
        if r == level:
            eff[k] = TRUMP
            if trump == NO_TRUMP:
                strength[k] = 0
            elif s == trump:
                strength[k] = 13
            else:
                strength[k] = 12
        else:
            strength[k] = r if r < level else r - 1
            eff[k] = TRUMP if s == trump else s
    eff[SMALL_JOKER] = TRUMP
    eff[BIG_JOKER] = TRUMP
    if trump == NO_TRUMP:
        strength[SMALL_JOKER] = 1
        strength[BIG_JOKER] = 2
    else:
        strength[SMALL_JOKER] = 14
        strength[BIG_JOKER] = 15
    for k in range(N_KINDS):
        b = ONE << np.uint64(k)
        suit_kinds[eff[k]] |= b
        strength_kinds[eff[k], strength[k]] |= b


def new_tables(trump: int, level: int):
    """Allocate and fill the tables: ``(eff, strength, suit_kinds, strength_kinds)``."""
    eff = np.zeros(N_KINDS, np.int64)
    strength = np.zeros(N_KINDS, np.int64)
    suit_kinds = np.zeros(5, np.uint64)
    strength_kinds = np.zeros((5, 16), np.uint64)
    fill_tables(trump, level, eff, strength, suit_kinds, strength_kinds)
    return eff, strength, suit_kinds, strength_kinds


# --- multiset helpers -----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def size(one, two):
    return popcount(one) + popcount(two)


@njit(cache=True, inline="always")
def remove(one, two, p_one, p_two):
    """``(one, two) - (p_one, p_two)`` for a sub-multiset."""
    single = p_one & ~p_two
    return one & ~(p_two | (single & ~two)), two & ~p_one


@njit(cache=True, inline="always")
def add(one, two, p_one, p_two):
    """Multiset sum, assuming no kind exceeds two copies."""
    return one | p_one, two | p_two | (one & p_one)


@njit(cache=True, inline="always")
def points(one, two):
    """Card points: 5s count 5, tens and kings 10."""
    return 5 * (popcount(one & FIVES) + popcount(two & FIVES)) + 10 * (
        popcount(one & TENS_KINGS) + popcount(two & TENS_KINGS)
    )


@njit(cache=True, inline="always")
def random_physical(rng, one, two):
    """A uniformly random physical card: index r over the kinds of ``one`` (ascending), then those of
    ``two`` (ascending), so a kind held twice is twice as likely."""
    c1 = popcount(one)
    r = below(rng, c1 + popcount(two))
    if r < c1:
        return kth(one, r)
    return kth(two, r - c1)


# --- shapes, validation, winners ------------------------------------------------------------------


@njit(cache=True)
def play_shape(one, two, eff, strength, suit_kinds):
    """``(shape, esuit, top)`` of a play.

    shape: 0 = single, k >= 1 = k pairs forming a pair (k = 1) or a tractor, -1 = anything else.
    esuit: the effective suit when every card is of one suit, else -1. top: the highest strength
    (-1 when shape is -1).
    """
    if one == ZERO:
        return -1, -1, -1
    k0 = lowest(one)
    e = eff[k0]
    same = (one & ~suit_kinds[e]) == ZERO
    esuit = e if same else -1
    n = popcount(one) + popcount(two)
    if n == 1:
        return 0, e, strength[k0]
    if not same or one != two:
        return -1, esuit, -1
    sm = ZERO
    m = two
    while m:
        k = lowest(m)
        m &= m - ONE
        sm |= ONE << np.uint64(strength[k])
    npairs = popcount(two)
    if popcount(sm) != npairs:
        return -1, esuit, -1
    lo = lowest(sm)
    if (sm >> np.uint64(lo)) != (ONE << np.uint64(npairs)) - ONE:
        return -1, esuit, -1
    return npairs, e, highest(sm)


@njit(cache=True)
def check_play(hand_one, hand_two, play_one, play_two, lead_n, lead_pairs, lead_suit, eff, strength, suit_kinds):
    """Validate a play. ``lead_n == 0`` checks a lead; otherwise a follow to a lead of ``lead_n`` cards
    with ``lead_pairs`` pairs in effective suit ``lead_suit``. Returns OK or an error code."""
    if (play_one & ~hand_one) != ZERO or (play_two & ~hand_two) != ZERO:
        return NOT_IN_HAND
    if lead_n == 0:
        shape, e, top = play_shape(play_one, play_two, eff, strength, suit_kinds)
        return OK if shape >= 0 else LEAD_SHAPE
    n = size(play_one, play_two)
    if n != lead_n:
        return CARD_COUNT
    sm = suit_kinds[lead_suit]
    h = size(hand_one & sm, hand_two & sm)
    if size(play_one & sm, play_two & sm) < min(h, n):
        return FOLLOW_SUIT
    if h > n and lead_pairs > 0:
        if popcount(play_two & sm) < min(lead_pairs, popcount(hand_two & sm)):
            return FOLLOW_PAIRS
    return OK


@njit(cache=True)
def play_key(one, two, lead_shape, lead_suit, void_before, eff, strength, suit_kinds):
    """Rank of a play in a trick led with ``lead_shape`` in ``lead_suit``: ``top + 16 * trump`` when it
    can win (same shape in the led suit, or same shape all in trump by a player void in the led suit),
    else -1."""
    shape, e, top = play_shape(one, two, eff, strength, suit_kinds)
    if shape != lead_shape or e < 0:
        return -1
    if e == lead_suit or (e == TRUMP and void_before):
        return top + (16 if e == TRUMP else 0)
    return -1


@njit(cache=True)
def level_change(attacker_points):
    """``(defenders_gain, attackers_gain, attackers_take_over)`` for the attackers' points (bonus
    included), by the table of rules.md."""
    if attacker_points <= 0:
        return 3, 0, False
    if attacker_points < 40:
        return 2, 0, False
    if attacker_points < 80:
        return 1, 0, False
    if attacker_points < 120:
        return 0, 0, True
    return 0, (attacker_points - 80) // 40, True


@njit(cache=True)
def declaration_options(hand_one, hand_two, level, standing, out):
    """Write the calls a hand may make over a standing call of strength ``standing`` (0 = none,
    1 single level card, 2 level pair, 3 SJ pair, 4 BJ pair) into ``out`` as ``2 * kind + is_pair``,
    ascending (the order of the sorted action tuples); return how many."""
    cnt = 0
    for s in range(4):
        k = s * 13 + level
        b = ONE << np.uint64(k)
        if standing < 1 and (hand_one & b) != ZERO:
            out[cnt] = 2 * k
            cnt += 1
        if standing < 2 and (hand_two & b) != ZERO:
            out[cnt] = 2 * k + 1
            cnt += 1
    if standing < 3 and (hand_two >> np.uint64(SMALL_JOKER)) & ONE:
        out[cnt] = 2 * SMALL_JOKER + 1
        cnt += 1
    if standing < 4 and (hand_two >> np.uint64(BIG_JOKER)) & ONE:
        out[cnt] = 2 * BIG_JOKER + 1
        cnt += 1
    return cnt


@njit(cache=True, inline="always")
def call_strength(kind, is_pair):
    if kind == BIG_JOKER:
        return 4
    if kind == SMALL_JOKER:
        return 3
    return 2 if is_pair else 1


# --- the random policy ----------------------------------------------------------------------------


@njit(cache=True)
def list_tractors(two, strength_kinds, buf):
    """Every tractor in the pairs ``two``, as rows ``(suit, low strength, high strength, chosen kind)``
    of ``buf`` (chosen kind: which of several equal off-suit level pairs is used, -1 if none is).
    Order: suit, then low strength, then high strength, then chosen kind, all ascending."""
    cnt = 0
    for e in range(5):
        ps = 0
        for s in range(16):
            if (two & strength_kinds[e, s]) != ZERO:
                ps |= 1 << s
        if (ps & (ps >> 1)) == 0:  # no two adjacent pair strengths
            continue
        for lo in range(16):
            if not (ps >> lo) & 1:
                continue
            multi = -1  # the strength in the run that offers several pairs
            if popcount(two & strength_kinds[e, lo]) > 1:
                multi = lo
            hi = lo + 1
            while hi < 16 and (ps >> hi) & 1:
                if popcount(two & strength_kinds[e, hi]) > 1:
                    multi = hi
                if multi < 0:
                    buf[cnt, 0] = e
                    buf[cnt, 1] = lo
                    buf[cnt, 2] = hi
                    buf[cnt, 3] = -1
                    cnt += 1
                else:
                    m = two & strength_kinds[e, multi]
                    while m:
                        buf[cnt, 0] = e
                        buf[cnt, 1] = lo
                        buf[cnt, 2] = hi
                        buf[cnt, 3] = lowest(m)
                        cnt += 1
                        m &= m - ONE
                hi += 1
    return cnt


@njit(cache=True)
def tractor_mask(two, strength_kinds, row):
    """The kind mask of tractor ``row`` of :func:`list_tractors`."""
    e, lo, hi, chosen = row[0], row[1], row[2], row[3]
    mask = ZERO
    for s in range(lo, hi + 1):
        m = two & strength_kinds[e, s]
        if chosen >= 0 and ((m >> np.uint64(chosen)) & ONE):
            mask |= ONE << np.uint64(chosen)
        else:
            mask |= ONE << np.uint64(lowest(m))
    return mask


@njit(cache=True)
def random_lead(rng, one, two, strength_kinds, buf):
    """A uniformly random legal lead: index over singles (kinds ascending), pairs (ascending), then
    tractors (the order of :func:`list_tractors`). Returns the play's ``(one, two)``."""
    n1 = popcount(one)
    n2 = popcount(two)
    nt = list_tractors(two, strength_kinds, buf)
    r = below(rng, n1 + n2 + nt)
    if r < n1:
        return ONE << np.uint64(kth(one, r)), ZERO
    r -= n1
    if r < n2:
        b = ONE << np.uint64(kth(two, r))
        return b, b
    m = tractor_mask(two, strength_kinds, buf[r - n2])
    return m, m


@njit(cache=True)
def random_follow(rng, one, two, lead_n, lead_pairs, lead_suit, suit_kinds):
    """A random legal follow, built by the documented policy: short in the led suit -> all of it plus
    random physical cards; else ``min(lead_pairs, pairs held)`` random pairs of the suit, then random
    physical cards of the suit."""
    sm = suit_kinds[lead_suit]
    so = one & sm
    st = two & sm
    h = size(so, st)
    po = ZERO
    pt = ZERO
    if h <= lead_n:
        po = so
        pt = st
        one &= ~sm
        two &= ~sm
        for _ in range(lead_n - h):
            k = random_physical(rng, one, two)
            b = ONE << np.uint64(k)
            po, pt = add(po, pt, b, ZERO)
            one, two = remove(one, two, b, ZERO)
    else:
        m = min(lead_pairs, popcount(st))
        for _ in range(m):
            b = ONE << np.uint64(kth(st, below(rng, popcount(st))))
            po |= b
            pt |= b
            st &= ~b
            so &= ~b
        for _ in range(lead_n - 2 * m):
            k = random_physical(rng, so, st)
            b = ONE << np.uint64(k)
            po, pt = add(po, pt, b, ZERO)
            so, st = remove(so, st, b, ZERO)
    return po, pt


# --- the whole deal -------------------------------------------------------------------------------


@njit(cache=True)
def deal_cards(rng, deck):
    """Shuffle the 108 cards (kinds 0..53, then 0..53 again) into ``deck`` in place."""
    for i in range(108):
        deck[i] = i % N_KINDS
    shuffle(rng, deck)


@njit(cache=True)
def _masks(deck, start, count):
    one = ZERO
    two = ZERO
    for i in range(start, start + count):
        b = ONE << np.uint64(deck[i])
        one, two = add(one, two, b, ZERO)
    return one, two


@njit(cache=True)
def play_random_deal(
    seed,
    level_a,
    level_b,
    dealer_in,
    declare_first,
    deck,
    hands,
    opts,
    buf,
    eff,
    strength,
    suit_kinds,
    strength_kinds,
    out,
):
    """Play one random deal from ``seed`` (uint64) and write its outcome into ``out`` (int64[13]):
    trump, level, dealer, n_calls, attacker_points, kitty_bonus, gain A, gain B, level A after,
    level B after (uncapped: 13 means past A), next dealer, match winner (-1 none), tricks.

    Policy: every decision uniformly random among the legal actions (declarations: pass or a call in
    sorted action order; burial: a kind of the dealer's hand; leads: :func:`random_lead`), except
    follows, which use :func:`random_follow`."""
    rng = np.empty(1, np.uint64)
    rng[0] = seed
    deal_cards(rng, deck)
    for s in range(4):
        hands[s, 0], hands[s, 1] = _masks(deck, HAND_SIZE * s, HAND_SIZE)
    kitty_one, kitty_two = _masks(deck, 100, KITTY_SIZE)
    if dealer_in >= 0:
        level = level_a if (dealer_in & 1) == 0 else level_b
    else:
        level = level_a
    # declaration turn sequence
    standing = 0
    caller = -1
    trump = -1
    passes = 0
    calls = 0
    seat = declare_first
    while True:
        cnt = declaration_options(hands[seat, 0], hands[seat, 1], level, standing, opts)
        r = below(rng, cnt + 1)
        if r == 0:
            passes += 1
            if standing == 0 and passes == 4:
                break
            if standing > 0 and passes == 3:
                break
        else:
            code = opts[r - 1]
            kind = code >> 1
            standing = call_strength(kind, code & 1)
            trump = NO_TRUMP if kind >= 52 else kind // 13
            caller = seat
            passes = 0
            calls += 1
        seat = (seat + 1) % 4
    if standing == 0:  # four passes: turn up the kitty; 8 cards hold a non-joker (only 4 jokers exist)
        for i in range(100, 108):
            if deck[i] < 52:
                trump = deck[i] // 13
                break
    dealer = dealer_in
    if dealer < 0:
        dealer = caller if caller >= 0 else declare_first
    fill_tables(trump, level, eff, strength, suit_kinds, strength_kinds)
    # the dealer takes the kitty and buries 8
    d_one, d_two = add(hands[dealer, 0], hands[dealer, 1], kitty_one, kitty_two)
    b_one = ZERO
    b_two = ZERO
    for _ in range(KITTY_SIZE):
        b = ONE << np.uint64(kth(d_one, below(rng, popcount(d_one))))
        d_one, d_two = remove(d_one, d_two, b, ZERO)
        b_one, b_two = add(b_one, b_two, b, ZERO)
    hands[dealer, 0] = d_one
    hands[dealer, 1] = d_two
    defenders = dealer & 1
    leader = dealer
    att = 0
    bonus = 0
    tricks = 0
    while hands[leader, 0] != ZERO:  # the deal ends when the hands are empty (25 singles at most)
        tricks += 1
        lo_, lt_ = random_lead(rng, hands[leader, 0], hands[leader, 1], strength_kinds, buf)
        hands[leader, 0], hands[leader, 1] = remove(hands[leader, 0], hands[leader, 1], lo_, lt_)
        shape, e, top = play_shape(lo_, lt_, eff, strength, suit_kinds)
        n = size(lo_, lt_)
        npairs = popcount(lt_)
        best = top + (16 if e == TRUMP else 0)
        winner = leader
        pts = points(lo_, lt_)
        for j in range(1, 4):
            s = (leader + j) % 4
            h1 = hands[s, 0]
            h2 = hands[s, 1]
            void = (h1 & suit_kinds[e]) == ZERO
            fo, ft = random_follow(rng, h1, h2, n, npairs, e, suit_kinds)
            key = play_key(fo, ft, shape, e, void, eff, strength, suit_kinds)
            if key > best:
                best = key
                winner = s
            pts += points(fo, ft)
            hands[s, 0], hands[s, 1] = remove(h1, h2, fo, ft)
        if (winner & 1) != defenders:
            att += pts
            if hands[leader, 0] == ZERO:  # the last trick: everyone has just played out
                bonus = points(b_one, b_two) * 2 * n
                att += bonus
        leader = winner
    d_gain, a_gain, take_over = level_change(att)
    gain_a = d_gain if defenders == 0 else a_gain
    gain_b = d_gain if defenders == 1 else a_gain
    after_a = level_a + gain_a
    after_b = level_b + gain_b
    next_dealer = (dealer + 1) % 4 if take_over else (dealer + 2) % 4
    winner_team = -1
    if after_a > 12:
        winner_team = 0
    elif after_b > 12:
        winner_team = 1
    out[0] = trump
    out[1] = level
    out[2] = dealer
    out[3] = calls
    out[4] = att
    out[5] = bonus
    out[6] = gain_a
    out[7] = gain_b
    out[8] = after_a
    out[9] = after_b
    out[10] = next_dealer
    out[11] = winner_team
    out[12] = tricks


@njit(cache=True)
def play_random_many(n_deals, seed, level_a, level_b, dealer, declare_first, out):
    """Deal i from ``seed + i`` (uint64 wrap-around); outcomes into ``out[i]`` (see play_random_deal)."""
    deck = np.empty(108, np.int64)
    hands = np.empty((4, 2), np.uint64)
    opts = np.empty(16, np.int64)
    buf = np.empty((TRACTOR_CAP, 4), np.int64)
    eff = np.empty(N_KINDS, np.int64)
    strength = np.empty(N_KINDS, np.int64)
    suit_kinds = np.empty(5, np.uint64)
    strength_kinds = np.empty((5, 16), np.uint64)
    for i in range(n_deals):
        play_random_deal(
            seed + np.uint64(i),
            level_a,
            level_b,
            dealer,
            declare_first,
            deck,
            hands,
            opts,
            buf,
            eff,
            strength,
            suit_kinds,
            strength_kinds,
            out[i],
        )
