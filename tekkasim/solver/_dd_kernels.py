"""Compiled double-dummy search (see ``tekkasim.solver.dd`` for the public API and the rules decisions).

Everything here is a module-level ``@njit(cache=True)`` function working on uint64 card masks, with
all memory preallocated by the caller and passed in (nothing is allocated per node):

``st`` (uint64, ``TT_OFF + (4 + 1 / TT_WAYS) * 2**bits``, from :func:`state_new`)
    ``st[0..3]`` the four hands (52-card masks, indexed by seat); counters: ``st[4]`` nodes,
    ``st[5]`` transposition-table cut-offs, ``st[6]`` quick-trick / sure-trump cut-offs, ``st[8 + p]``
    cut-offs by the first move tried and ``st[12 + p]`` all cut-offs at trick position ``p``,
    ``st[16 + n]`` trick-start nodes with ``n`` tricks left, ``st[30]`` table stores that evicted an
    entry, ``st[31]`` all stores, ``st[32]`` results not stored (more than 32 relevant cards),
    ``st[34]``/``st[35]`` relevant/remaining cards summed over the stores, ``st[36 + n]`` stores with
    ``n`` tricks left; then the transposition table.
``moves`` (int64, :data:`MOVES_SIZE`, from :func:`moves_new`)
    the ordered candidate cards of each search depth (64 slots per depth ``4 * (13 - tricks left) +
    position``), then the killer card of each depth (the last card that cut off there).

Values are always tricks of team A (seats 0 and 2); the Python layer turns them into the side to move.
``variant`` is 0 for the standard trick rules (Feskot, Tekka: counter-clockwise, plain follow suit) and
1 for Satat (clockwise, 2♥ beats everything and is never a heart for following; a 2♥ lead asks for Troupe).
The rules themselves (``legal_mask``, ``strength``, ``lead_suit_of``, ``next_seat``, ``rule_suit``) are
those of every ruleset kernel, imported from ``tekkasim.rules._trickcore``; after editing that module,
clear numba's cache (``make clean-cache``: the cache of this module does not notice edits elsewhere).

Search: zero-window alpha-beta ("can team A take ``target`` of the tricks left?", :func:`search`),
zero-window searches stepping from an estimate to the exact value (:func:`solve_exact`), one representative
per run of equivalent cards, and:

* bounds at each trick start: the table, the leader's quick tricks (top runs, long cards, partner's run
  reached by a low card, a lead to partner's ruff), each side's sure trump tricks, and "the side that
  needs every trick loses this one"; at the second hand, "our side surely wins this trick and needs no
  more". Each rule is tested alone against the minimax twin (tests/test_dd_bounds.py);
* relevance-based sibling skipping: once a card fails and lies below every card its refutation depends
  on, the lower cards of its suit fail the same way and are not searched;
* move ordering: leads scored by the opponents' suit lengths, who wins the trick, tenaces and ruffs, plus
  a killer card per depth; followers play the cheapest sure winner, the second hand low when partner
  surely wins with a card of the suit, and, when the third hand can beat all its cards, low cards before
  covers from a sequence before single covers; the third hand high or forcing out the last hand's top
  card, ruffing partner's card when the last hand can beat it, with a trump the next hand cannot
  overruff first; discards from long suits, keeping guards.

Transposition table (partition search, as DDS's "winning ranks"): each search at a trick start returns,
besides its answer, the *relevant cards* — per suit, every card from some rank up — outside which the
cards may be exchanged between hands (suit lengths kept) without changing the answer. An entry is keyed
by every hand's suit lengths, the leader, trump, variant and 2♥'s owner (bucket) and stores the
relevant cards (squeezed to the remaining cards with ``pext``), who holds them, and lower/upper bounds
on team A's tricks. It applies to every position that matches it there, in any deal; but entries of
other deals seldom match and lengthen the bucket scans, so a new deal starts a new table generation
(``st[GEN]``: buckets stamped with an older one count as empty). Entries whose relevant cards include
every suit's top card (top two cards) go to
a second (third) bucket keyed also by those cards' owners; a lookup tries the three buckets. This keeps
buckets short without making any entry less general. The table (32 MB by default) does not fit in the
cache, so a trick start computes its three buckets first and prefetches them before the bounds run, and
each bucket's header (generation, size) sits in a small separate array that stays in cache.

Speed notes, measured: the kernels are compiled without numba's reference-counting runtime (see
:func:`njit`), and the small bound checks are inlined into :func:`search` (every numba call site costs
stack slots zeroed on each entry).
"""

from __future__ import annotations

import numpy as np
from numba import config, types
from numba import njit as _numba_njit

from .. import bits
from ..bits import prefetch
from ..cards import FULL_DECK
from ..rules._trickcore import (  # the trick rules, shared with the rulesets' kernels
    B2H,
    NO_SUIT,
    NOT_B2H,
    PRIME_RULES,
    SUIT13,
    TROUPE_RULES,
    TWO_HEARTS,
    lead_suit_of,
    legal_mask,
    next_seat,
    strength,
)
from ..rules._trickcore import rule_suit as _rule_suit


def njit(*args, **kw):
    """numba's njit without its reference-counting runtime. The kernels allocate nothing, but with the
    runtime on, every call that passes the state arrays increments and decrements their reference
    counts: a noticeable share of a solve in a search that makes one call per node."""
    kw.setdefault("_nrt", False)
    return _numba_njit(*args, **kw)


if config.DISABLE_JIT:  # plain Python (coverage and debugging runs): keep the uint64 arithmetic

    def popcount(x):
        return int(x).bit_count()

    def lowest(x):
        x = int(x)
        return 64 if x == 0 else (x & -x).bit_length() - 1

    def highest(x):
        return int(x).bit_length() - 1

    def pext(x, m):
        return np.uint64(bits.pext(int(x), int(m)))

    def pdep(x, m):
        return np.uint64(bits.pdep(int(x), int(m)))

else:
    from ..bits import highest, lowest, pdep, pext, popcount

U64 = np.uint64
ONE = np.uint64(1)
ZERO = np.uint64(0)
FULL52 = np.uint64(FULL_DECK)
H2 = TWO_HEARTS
H2BIT = B2H
NOT_H2 = NOT_B2H
STANDARD = PRIME_RULES  # Feskot, Tekka
SATAT = TROUPE_RULES
NO_TRUMP = NO_SUIT
MASK8 = np.uint64(0xFF)
_HASH1 = np.uint64(0x9E3779B97F4A7C15)
_HASH2 = np.uint64(0xC2B2AE3D27D4EB4F)


@njit(cache=True, inline="always")
def _smask(s):
    return SUIT13 << np.uint64(13 * s)


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


TT_WAYS = 32  # entries per bucket (one bucket per suit-length pattern + leader, several rank patterns)
RESULT = np.uint64(1 << 63)  # search() returns RESULT | relevant-cards mask


TT_OFF = 64  # the table starts after the counters in the one state array
GEN = 63  # st[GEN]: the table's generation; buckets stamped with another one count as empty


def state_new(bits):
    """The search state: one uint64 array holding the hands and counters (``st[:TT_OFF]``) and then a
    transposition table of ``2**bits`` entries (32 bytes each) in ``nb = 2**bits / TT_WAYS`` buckets.

    First one header word per bucket, ``st[TT_OFF + b]``: its generation (bits 0-39), its number of
    entries (bits 40-47) and the next way to overwrite, oldest first (bits 48-55). The headers are
    small enough to stay in cache, so probing a bucket of another generation (empty) costs no memory
    load. Then the buckets: field ``f`` of way ``j`` of bucket ``b`` is
    ``st[TT_OFF + nb + (b * 4 + f) * TT_WAYS + j]``, the fields being key0, key1 with the lower and upper
    bounds in bits 32-39 and 40-47, the relevant cards, and their owners (:func:`_owners`). Bumping ``st[GEN]`` empties
    the whole table at no cost. One flat array keeps the recursive calls' arguments few."""
    nb = (1 << bits) // TT_WAYS
    return np.zeros(TT_OFF + nb + nb * TT_ROWS * TT_WAYS, dtype=np.uint64)


GEN_MASK = np.uint64((1 << 40) - 1)
TT_ROWS = 4  # key0, key1 | bounds << 32, relevant cards, their owners
K1_MASK = np.uint64((1 << 32) - 1)  # key1 uses bits 0-28 (see _specific_key); the bounds sit above


@njit(cache=True, inline="always")
def _owners(p0, p1, rc):
    """The owners of the relevant cards ``rc`` (squeezed to the remaining cards), squeezed once more to
    ``rc``'s own bits: plane 0 in bits 0-31, plane 1 from bit 32. At most 32 relevant cards are stored
    (positions with more are not: see the store in :func:`search`)."""
    return pext(p0, rc) | (pext(p1, rc) << np.uint64(32))


KILLER_OFF = 53 * 64  # after the move lists: the card that last cut off at each depth
MOVES_SIZE = KILLER_OFF + 64


def moves_new():
    moves = np.zeros(MOVES_SIZE, dtype=np.int64)
    moves_reset(moves)
    return moves


def moves_reset(moves):
    """Forget the killer cards (they describe one deal's cards)."""
    moves[KILLER_OFF:] = -1


@njit(cache=True, inline="always")
def _seg(s, r):
    """The cards of suit ``s`` ranked ``r`` or higher: a relevance segment."""
    return ((SUIT13 << np.uint64(r)) & SUIT13) << np.uint64(13 * s)


@njit(cache=True, inline="always")
def _segments(m):
    """Widen a card mask to whole top segments per suit (from its lowest card of each suit up)."""
    out = ZERO
    for s in range(4):
        ms = m & _smask(s)
        if ms != ZERO:
            out |= _smask(s) & ~((ONE << np.uint64(lowest(ms))) - ONE)
    return out


@njit(cache=True, inline="always")
def _trick_rel(trick, win_str, lead, trump, variant):
    """Relevance of one complete trick: the winner's rank matters only if it beat a card of its own
    suit (a ruff alone, a 2♥ or a lone card of the led suit wins whatever its rank)."""
    if win_str >= 100:
        return ZERO
    if win_str >= 40:
        s = trump
        r = win_str - 40
    else:
        s = lead
        r = win_str - 20
    if popcount(trick & _rule_suit(s, variant)) >= 2:
        return _seg(s, r)
    return ZERO


@njit(cache=True, inline="always")
def _bucket_keys(st, leader, trump, variant):
    """Suit lengths of every hand (4 bits each) and the leader, trump, variant and 2♥'s owner."""
    k0 = ZERO
    for h in range(4):
        for s in range(4):
            k0 = (k0 << np.uint64(4)) | np.uint64(popcount(st[h] & _rule_suit(s, variant)))
    owner2 = 4
    if variant == SATAT:
        for h in range(4):
            if (st[h] & H2BIT) != ZERO:
                owner2 = h
    k1 = (
        np.uint64(leader)
        | (np.uint64(trump) << np.uint64(2))
        | (np.uint64(variant) << np.uint64(5))
        | (np.uint64(owner2) << np.uint64(6))
        | (ONE << np.uint64(10))  # never 0: an all-zero row is an empty entry
    )
    return k0, k1


@njit(cache=True, inline="always")
def _tops(remx, k):
    """The ``k`` highest remaining cards of each suit."""
    tops = ZERO
    for s in range(4):
        m = remx & _smask(s)
        for _ in range(k):
            if m == ZERO:
                break
            t = ONE << np.uint64(highest(m))
            tops |= t
            m ^= t
    return tops


@njit(cache=True, inline="always")
def _specific_key(k1, tops, p0, p1, remx, level):
    """The bucket key of entries whose relevant cards include every suit's ``level`` top cards: the
    owners of those cards join the key, which spreads such entries over many buckets."""
    tc = pext(tops, remx)
    sig = pext(p0 & tc, tc) | (pext(p1 & tc, tc) << np.uint64(8))
    return k1 | (np.uint64(level) << np.uint64(11)) | (sig << np.uint64(13))


@njit(cache=True, inline="always")
def _bucket_base(k0, k1, st):
    """Offsets in ``st`` of the header and of the first row of the bucket of keys ``(k0, k1)``."""
    n_buckets = (st.shape[0] - TT_OFF) // (TT_ROWS * TT_WAYS + 1)  # a power of two
    h = k0 * _HASH1 + k1
    h ^= h >> np.uint64(29)
    h *= _HASH2
    h ^= h >> np.uint64(32)
    b = np.int64(h & np.uint64(n_buckets - 1))
    return TT_OFF + b, TT_OFF + n_buckets + b * (TT_ROWS * TT_WAYS)


@njit(cache=True, inline="always")
def _tt_probe(st, hdr, base, k0, k1, p0, p1, target):
    """The way of the bucket at ``hdr``/``base`` whose entry matches the position and decides ``target``,
    or -1. A bucket of an older generation is empty."""
    t = np.int64(target)
    h = st[hdr]
    if (h & GEN_MASK) != st[GEN]:
        return -1
    for j in range(np.int64((h >> np.uint64(40)) & MASK8)):
        w = st[base + TT_WAYS + j]
        if st[base + j] == k0 and (w & K1_MASK) == k1:
            rc = st[base + 2 * TT_WAYS + j]
            if _owners(p0, p1, rc) == st[base + 3 * TT_WAYS + j]:
                b = w >> np.uint64(32)
                if np.int64(b & MASK8) >= t or np.int64((b >> np.uint64(8)) & MASK8) < t:
                    return j
    return -1


TT_FIRST = 6  # from this many tricks left, the table is probed before the bounds


@njit(cache=True, inline="always")
def _tt_where(st, seat, trump, variant, remx):
    """The keys and the three buckets a trick-start position may be stored in (general, then keyed by
    each suit's top card's owner, then by the top two): ``(k0, k1, p0, p1, k1a, k1b, h0, h1, h2, b0, b1,
    b2)``, the keys, owner planes, header offsets and bucket offsets. The buckets' first cache lines are
    prefetched: the three loads overlap instead of waiting in turn."""
    k0, k1 = _bucket_keys(st, seat, trump, variant)
    p0 = pext(st[1] | st[3], remx)
    p1 = pext(st[2] | st[3], remx)
    k1a = _specific_key(k1, _tops(remx, 1), p0, p1, remx, 1)
    k1b = _specific_key(k1, _tops(remx, 2), p0, p1, remx, 2)
    h0, b0 = _bucket_base(k0, k1, st)
    h1, b1 = _bucket_base(k0, k1a, st)
    h2, b2 = _bucket_base(k0, k1b, st)
    prefetch(st, b0)
    prefetch(st, b1)
    prefetch(st, b2)
    return k0, k1, p0, p1, k1a, k1b, h0, h1, h2, b0, b1, b2


@njit(cache=True, inline="always")
def _tt_answer(st, base, j, remx, target):
    """What the entry at way ``j`` of the bucket at ``base`` says of ``target``: ``RESULT`` (team A
    reaches it) or not, or-ed with the entry's relevant cards widened back to the remaining cards."""
    rel = _segments(pdep(st[base + 2 * TT_WAYS + j], remx))
    if np.int64((st[base + TT_WAYS + j] >> np.uint64(32)) & MASK8) >= target:
        return RESULT | rel
    return rel


@njit(cache=True, inline="always")
def _tt_find(st, k0, k1, p0, p1, k1a, k1b, h0, h1, h2, b0, b1, b2, target):
    """The entry deciding ``target`` in the three buckets of :func:`_tt_where`: ``(way, base)``, way -1
    if none."""
    j = _tt_probe(st, h0, b0, k0, k1, p0, p1, target)
    if j >= 0:
        return j, b0
    j = _tt_probe(st, h1, b1, k0, k1a, p0, p1, target)
    if j >= 0:
        return j, b1
    return _tt_probe(st, h2, b2, k0, k1b, p0, p1, target), b2


@njit(cache=True, inline="always")
def last_trick(st, leader, trump, variant):
    """Each hand holds one card: ``RESULT`` if team A wins the last trick, or-ed with its relevance."""
    c = lowest(st[leader])
    lead = lead_suit_of(c, trump, variant)
    best = strength(c, trump, lead, variant)
    win = leader
    for h in range(4):
        if h != leader:
            x = lowest(st[h])
            v = strength(x, trump, lead, variant)
            if v > best:
                best = v
                win = h
    trick = st[0] | st[1] | st[2] | st[3]
    rel = _trick_rel(trick, best, lead, trump, variant)
    if (win & 1) == 0:
        return RESULT | rel
    return rel


@njit(cache=True, inline="always")
def _top_run(rs, hand, limit):
    """``(k, last)``: how many of the highest cards of ``rs`` (the remaining cards of one suit) ``hand``
    holds in an unbroken run from the top, counting at most ``limit``, and the lowest of them (-1: none)."""
    k = 0
    last = -1
    while rs != ZERO and k < limit:
        top = highest(rs)
        if (hand >> np.uint64(top)) & ONE == ZERO:
            break
        k += 1
        last = top
        rs ^= ONE << np.uint64(top)
    return k, last


@njit(cache=True)
def quick_tricks(st, rem, seat, trump, variant, need):
    """``(q, rel)``: tricks the side of ``seat`` surely wins by leading its own top cards from ``seat``'s
    hand, and the cards that count depends on.

    A suit's top run (cards of ``seat`` with no other remaining card above them) is counted in no-trump
    and in the trump suit; in a side suit, only as many rounds as every opponent that holds a trump can
    still follow (cashing trumps first takes no side-suit card from an opponent who follows in trumps),
    or every round when ``seat``'s top trumps outnumber each opponent's trumps (drawn first).
    When the top cards clear a suit from the other hands, its long cards count too. The leader never
    loses the lead while cashing them; then (standard rules) it may lead a low card to partner's top run
    of one suit, below the leader's cashed top cards there, counted as above, if partner has enough
    other cards to play to the leader's tricks meanwhile; or, having counted nothing and needing one
    trick, lead to partner's ruff that no opponent can overruff or ruff first. In Satat a 2♥ in ``seat``'s
    hand is one more
    sure trick, and when an opponent holds 2♥ nothing is counted (it can take the lead at any time).
    """
    hand = st[seat]
    o1 = st[seat ^ 1]
    o3 = st[seat ^ 3]
    opp = o1 | o3
    if variant == SATAT and (opp & H2BIT) != ZERO:
        return 0, ZERO
    tm = _rule_suit(trump, variant) if trump < 4 else ZERO
    ruff1 = (o1 & tm) != ZERO
    ruff3 = (o3 & tm) != ZERO
    q = 0
    rel = ZERO
    if variant == STANDARD and (ruff1 or ruff3):
        # a run of top trumps at least as long as each opponent's trumps draws them first
        kt, last = _top_run(rem & tm, hand, 13)
        if kt >= max(popcount(o1 & tm), popcount(o3 & tm)):
            ruff1 = False
            ruff3 = False
            rel |= _seg(trump, last % 13)
    if variant == SATAT and (hand & H2BIT) != ZERO:
        q += 1
    cashed = ZERO  # 4 bits per suit: how many top cards of the suit the leader cashes
    for si in range(4):
        if q >= need:
            break  # enough: fewer counted cards make the result apply to more positions
        s = (si + trump) % 4 if trump < 4 else si  # the trump suit first
        sm = _rule_suit(s, variant)
        # a side-suit winner is safe while every opponent holding a trump still follows suit
        cap = 13
        if s != trump:
            if ruff1:
                cap = min(cap, popcount(o1 & sm))
            if ruff3:
                cap = min(cap, popcount(o3 & sm))
        rs = rem & sm
        m = 0
        for h in range(4):
            if h != seat:
                m = max(m, popcount(st[h] & sm))
        n_own = popcount(hand & sm)
        if n_own > m and _top_run(rs, hand, m)[0] == m:
            # the top m cards clear the suit from the other hands: every card of the suit is a winner
            t = min(n_own, cap, need - q)
            k, last = _top_run(rs, hand, min(t, m))
            q += t
            cashed |= np.uint64(t) << np.uint64(4 * s)
        else:
            k, last = _top_run(rs, hand, min(cap, need - q))
            q += k
            cashed |= np.uint64(k) << np.uint64(4 * s)
        if last >= 0:
            rel |= _seg(s, last % 13)
    if variant == STANDARD and q == 0 and need == 1 and trump < 4:
        # a lead to partner's ruff, when neither opponent can overruff or ruff first
        part = st[seat ^ 2]
        if (part & tm) != ZERO:
            for s in range(4):
                sm = _smask(s)
                if (
                    s != trump
                    and (hand & sm) != ZERO
                    and (part & sm) == ZERO
                    and ((o1 & sm) != ZERO or (o1 & tm) == ZERO)
                    and ((o3 & sm) != ZERO or (o3 & tm) == ZERO)
                ):
                    return 1, ZERO
    if variant == STANDARD and q < need:
        # then a low card to partner's top run of one suit, below the leader's cashed top cards there
        # (A x opposite K x: the ace, then low to the king); partner keeps the run if it has q other
        # cards to play to the leader's tricks meanwhile, as many of them in that suit as were cashed
        part = st[seat ^ 2]
        best = 0
        brel = ZERO
        for s in range(4):
            sm = _smask(s)
            kc = np.int64((cashed >> np.uint64(4 * s)) & np.uint64(15))
            rs = rem & sm
            for _ in range(kc):
                rs ^= ONE << np.uint64(highest(rs))
            if popcount(hand & sm) <= kc or rs == ZERO or (part >> np.uint64(highest(rs))) & ONE == ZERO:
                continue
            cap = 13
            if s != trump:
                if ruff1:
                    cap = min(cap, popcount(o1 & sm))
                if ruff3:
                    cap = min(cap, popcount(o3 & sm))
            k, last = _top_run(rs, part, cap - kc)
            if k <= best:
                continue
            # partner's run is the cards of rs from ``last`` up
            run = rs & ~((ONE << np.uint64(last)) - ONE)
            if popcount(part & ~run) >= q and popcount(part & sm & ~run) >= kc:
                best = k
                brel = _seg(s, last % 13)
        if best > 0:
            q += best
            rel |= brel
    return q, rel


@njit(cache=True, inline="always")
def leader_loses_trick(st, rem, seat, trump, variant):
    """``(lost, rel)``: whether the side of ``seat``, on lead, surely loses the trick: in every suit
    ``seat`` holds, an opponent holds the top card and partner cannot ruff it (standard rules)."""
    if variant != STANDARD:
        return False, ZERO
    hand = st[seat]
    part = st[seat ^ 2]
    opp = st[seat ^ 1] | st[seat ^ 3]
    tm = _smask(trump) if trump < 4 else ZERO
    rel = ZERO
    for s in range(4):
        sm = _smask(s)
        if (hand & sm) == ZERO:
            continue
        t1 = highest(rem & sm)
        if (opp >> np.uint64(t1)) & ONE == ZERO:
            return False, ZERO
        if s != trump and (part & sm) == ZERO and (part & tm) != ZERO:
            return False, ZERO
        rel |= _seg(s, t1 % 13)
    return True, rel


@njit(cache=True, inline="always")
def sure_trumps(st, rem, side, trump, variant, need):
    """``(k, rel)``: tricks one hand of ``side`` (0 = A, 1 = B) wins whatever happens with its run of top
    trumps (each wins the trick it is played to); Satat: plus its 2♥, minus one if the other side holds 2♥.
    Standard rules: at least two when the side holds the two top trumps in different hands, not both bare;
    counting stops at ``need`` (fewer counted cards make the result apply to more positions)."""
    best = 0
    brel = ZERO
    other2 = variant == SATAT and ((st[side ^ 1] | st[side ^ 3]) & H2BIT) != ZERO
    for h in (side, side ^ 2):
        k = 0
        rel = ZERO
        if trump < 4:
            k, last = _top_run(rem & _rule_suit(trump, variant), st[h], 13 if variant == SATAT else need)
            if last >= 0:
                rel = _seg(trump, last % 13)
        if variant == SATAT:
            if (st[h] & H2BIT) != ZERO:
                k += 1
            elif other2 and k > 0:
                k -= 1
        if k > best:
            best = k
            brel = rel
    if trump < 4 and best < need:
        # when the other side holds no trump (nor 2♥), every trick holding one of ours is ours: a hand's
        # trumps are played to as many different tricks as it holds (suit lengths only)
        tm = _rule_suit(trump, variant)
        if ((st[side ^ 1] | st[side ^ 3]) & (tm | (H2BIT if variant == SATAT else ZERO))) == ZERO:
            k = max(popcount(st[side] & tm), popcount(st[side ^ 2] & tm))
            if k > best:
                best = k
                brel = ZERO
    if variant == STANDARD and trump < 4 and best < 2 and best < need:
        # the two top trumps in partners' hands win two tricks unless both are singletons: the holder
        # of the other plays a low trump whenever one of them must be played (and its own top first)
        tm = rem & _rule_suit(trump, variant)
        if popcount(tm) >= 2:
            t1 = highest(tm)
            t2 = highest(tm ^ (ONE << np.uint64(t1)))
            a = side if (st[side] >> np.uint64(t1)) & ONE else side ^ 2
            if (st[a] >> np.uint64(t1)) & ONE and (st[a ^ 2] >> np.uint64(t2)) & ONE:
                if popcount(st[a] & tm) >= 2 or popcount(st[a ^ 2] & tm) >= 2:
                    best = 2
                    brel = _seg(trump, t2 % 13)
    return best, brel


@njit(cache=True, inline="always")
def second_hand_wins(st, seat, lead, trick, trump, variant):
    """``(sure, rel)``: whether the side of ``seat``, second to play to a trick led in ``lead`` (the
    led card is ``trick``), surely wins the trick, and the cards that depends on. It does when one of
    its hands can ruff and the third hand cannot overruff (it follows suit or holds no trump), or when
    its highest card of the led suit beats the led card and the third hand's, and the third hand
    cannot ruff. In Satat a 2♥ on the table or in the third hand rules it out."""
    if lead >= 4:
        return False, ZERO
    third = st[next_seat(seat, variant)]
    if variant == SATAT and ((trick | third) & H2BIT) != ZERO:
        return False, ZERO
    sm = _rule_suit(lead, variant)
    ours = st[seat] | st[seat ^ 2]
    if trump < 4 and lead != trump:
        tm = _rule_suit(trump, variant)
        if (third & sm) == ZERO and (third & tm) != ZERO:
            return False, ZERO
        for h in (seat, seat ^ 2):
            if (st[h] & sm) == ZERO and (st[h] & tm) != ZERO:
                return True, ZERO
    om = ours & sm
    if om == ZERO:
        return False, ZERO
    top = highest(om)
    led = trick & sm
    if led == ZERO or top < highest(led) or (third & sm) >> np.uint64(top) != ZERO:
        return False, ZERO
    return True, _seg(lead, top % 13)


@njit(cache=True, inline="always")
def _beats(a, b):
    """Whether the highest card of ``a`` is above every card of ``b`` (cards of one suit)."""
    return a != ZERO and (b == ZERO or highest(a) > highest(b))


@njit(cache=True, inline="always")
def _lead_facts(s, seat, st, rem, variant):
    """The facts both lead scorers start from, for suit ``s`` with ``seat`` on lead: ``(sm, rs, hand,
    part, lho, rho, nl, nr, np_, t1, t2, t3)`` (the suit's mask and remaining cards, the four hands,
    the opponents' and partner's lengths in it, its three highest remaining cards, -1 for none)."""
    sm = _rule_suit(s, variant)
    rs = rem & sm
    hand = st[seat]
    part = st[seat ^ 2]
    lho = st[next_seat(seat, variant)]
    rho = st[next_seat(seat, variant) ^ 2]
    nl = popcount(lho & sm)
    nr = popcount(rho & sm)
    np_ = popcount(part & sm)
    t1 = highest(rs)
    rest = rs ^ (ONE << np.uint64(t1))
    t2 = highest(rest) if rest != ZERO else -1
    t3 = -1
    if t2 >= 0:
        rest ^= ONE << np.uint64(t2)
        t3 = highest(rest) if rest != ZERO else -1
    return sm, rs, hand, part, lho, rho, nl, nr, np_, t1, t2, t3


@njit(cache=True)
def _lead_suit(s, seat, st, rem, trump, variant, n_left):
    """What scores a lead in suit ``s`` in a trump contract with trumps left (:func:`_lead_card` adds the
    card): ``(rs, d_win, d_lose, t1, t2, win_top, win_other, case_win, case_lose)``, ``rs`` the suit's
    remaining cards.

    A lead is good when the opponents hold few cards of its suit, when the leader's side wins the
    trick (the leader's or partner's top card, partner's ruff) without letting the opponents ruff,
    and when it leads towards partner's tenace; low cards first except when cashing."""
    sm, rs, hand, part, lho, rho, nl, nr, np_, t1, t2, t3 = _lead_facts(s, seat, st, rem, variant)
    tm = _rule_suit(trump, variant)
    # the fewer cards the opponents hold in the suit, the better (a void one may discard: counts full)
    d = -(128 * ((n_left if nl == 0 else nl) + (n_left if nr == 0 else nr))) // 13
    lho_ruffs = nl == 0 and (lho & tm) != ZERO
    rho_ruffs = nr == 0 and (rho & tm) != ZERO
    side = s != trump
    if side and (lho_ruffs or rho_ruffs):
        d -= 12
    part_ruffs = side and np_ == 0 and (part & tm) != ZERO
    if part_ruffs and nr > 0:
        d += 17
    if (rho >> np.uint64(t1)) & ONE or (t2 >= 0 and (rho >> np.uint64(t2)) & ONE):
        if nr != 1:
            d -= 12
    elif (lho >> np.uint64(t1)) & ONE and t2 >= 0 and (part >> np.uint64(t2)) & ONE:
        if np_ != 1:
            d += 27
    if side and popcount(hand & sm) == 1 and (hand & tm) != ZERO and np_ > 1 and (part >> np.uint64(t1)) & ONE:
        d += 19  # partner wins and returns the suit for a ruff
    # can the leader's side win this trick, leading the top card or another one?
    opp_follow = not lho_ruffs and not rho_ruffs
    if not side:
        win_top = True
    elif np_ > 0 or (part & tm) == ZERO:
        win_top = opp_follow
    else:
        win_top = (nl > 0 or _beats(part & tm, lho & tm)) and (nr > 0 or _beats(part & tm, rho & tm))
    win_other = False
    if _beats(part & sm, (lho | rho) & sm):
        win_other = True if not side else opp_follow
    elif part_ruffs:
        if lho_ruffs and rho_ruffs:
            win_other = _beats(part & tm, (lho | rho) & tm)
        elif lho_ruffs:
            win_other = _beats(part & tm, lho & tm)
        elif rho_ruffs:
            win_other = _beats(part & tm, rho & tm)
        else:
            win_other = True
    opp_bare_top = ((lho >> np.uint64(t1)) & ONE and nl == 1) or ((rho >> np.uint64(t1)) & ONE and nr == 1)
    top_l = (hand >> np.uint64(t1)) & ONE != ZERO
    top_p = (part >> np.uint64(t1)) & ONE != ZERO
    sec_l = t2 >= 0 and (hand >> np.uint64(t2)) & ONE != ZERO
    sec_p = t2 >= 0 and (part >> np.uint64(t2)) & ONE != ZERO
    if opp_bare_top:
        case_win = 0
        case_lose = 0
    elif top_l:
        case_win = 1 if sec_p else 2
        case_lose = 1 if sec_p else 2
    elif top_p:
        case_win = 3 if sec_l else 4
        case_lose = 3
    else:
        case_win = 5
        case_lose = 4
    third_p = t3 >= 0 and (part >> np.uint64(t3)) & ONE != ZERO
    third_l = t3 >= 0 and (hand >> np.uint64(t3)) & ONE != ZERO
    d_lose = d
    if sec_p and third_p:
        d_lose += 20
    elif np_ > 1 and ((sec_l and third_p) or (sec_p and third_l)):
        d_lose += 13
    return rs, d, d_lose, t1, t2, win_top, win_other, case_win, case_lose


@njit(cache=True, inline="always")
def _lead_card(c, hand, rs, t1, t2, d, d_lose, win_top, win_other, case_win, case_lose):
    """The score of leading ``c`` from the suit facts of :func:`_lead_suit` (higher first)."""
    rrank = popcount(rs >> np.uint64(c))  # 1 for the top remaining card of the suit
    below = rs & ((ONE << np.uint64(c)) - ONE)
    group = below != ZERO and (hand >> np.uint64(highest(below))) & ONE != ZERO
    if win_top if c == t1 else win_other:
        if case_win == 0:
            return d + 35 + rrank
        if case_win == 1:
            return d + 48 + rrank
        if case_win == 2:
            return d + 31 if c == t1 else d - 3 + rrank
        if case_win == 3:
            return d + 42 + rrank
        if case_win == 4:
            return d + 28 + rrank
        if group and c == t2:
            return d + 40
        if group:
            return d + 22 + rrank
        return d + 11 + rrank
    d = d_lose
    if case_lose == 0:
        return d + rrank + 2
    if case_lose == 1:
        return d + 33 + rrank
    if case_lose == 2:
        return d + 38 if c == t1 else d - 14 + rrank
    if case_lose == 3:
        return d + 34 + rrank
    if group and c == t2:
        return d + 35
    return d + 15 - c % 13


@njit(cache=True)
def _lead_score_nt(c, seat, st, rem, variant, n_left):
    """Move-ordering score of leading ``c`` when no trump is left (higher first): as
    :func:`_lead_suit`, with winners counted only from the top cards."""
    sm, rs, hand, part, lho, rho, nl, nr, np_, t1, t2, t3 = _lead_facts(c // 13, seat, st, rem, variant)
    d = -(128 * ((n_left if nl == 0 else nl) + (n_left if nr == 0 else nr))) // 19
    if np_ == 0:
        d -= 9
    rrank = popcount(rs >> np.uint64(c))
    sec_l = t2 >= 0 and (hand >> np.uint64(t2)) & ONE != ZERO
    sec_p = t2 >= 0 and (part >> np.uint64(t2)) & ONE != ZERO
    sec_lho = t2 >= 0 and (lho >> np.uint64(t2)) & ONE != ZERO
    sec_rho = t2 >= 0 and (rho >> np.uint64(t2)) & ONE != ZERO
    if c == t1 or _beats(part & sm, (lho | rho) & sm):
        if sec_rho:
            if nr != 1:
                d -= 1
        elif sec_lho:
            d += 16 if nl == 1 else 22
        if (not sec_lho or nl == 1) and (not sec_rho or nr == 1):
            return d + 45 + rrank
        return d + 18 + rrank
    if (rho >> np.uint64(t1)) & ONE or sec_rho:
        if nr != 1:
            d -= 10
    elif (lho >> np.uint64(t1)) & ONE and sec_p:
        if np_ != 1:
            d += 31
    third_p = t3 >= 0 and (part >> np.uint64(t3)) & ONE != ZERO
    third_l = t3 >= 0 and (hand >> np.uint64(t3)) & ONE != ZERO
    if sec_p and third_p:
        d += 35
    elif np_ > 1 and ((sec_l and third_p) or (sec_p and third_l)):
        d += 25
    below = rs & ((ONE << np.uint64(c)) - ONE)
    group = below != ZERO and (hand >> np.uint64(highest(below))) & ONE != ZERO
    if ((lho >> np.uint64(t1)) & ONE and nl == 1) or ((rho >> np.uint64(t1)) & ONE and nr == 1):
        return d + 28 + rrank
    if (hand >> np.uint64(t1)) & ONE:
        return d - 17 + rrank
    if not group:
        return d + 12 + rrank
    if c == t2:
        return d + 48
    return d + 29 - rrank


@njit(cache=True, inline="always")
def _fourth_wins(st, seat, lead, win_str, trump, variant):
    """At the second hand (``seat``) of a trick led in ``lead`` (the led card has strength ``win_str``):
    whether partner, last to play, surely wins it whatever the third hand does."""
    sm = _rule_suit(lead, variant)
    tm = _rule_suit(trump, variant) if trump < 4 else ZERO
    third = st[next_seat(seat, variant)]
    part = st[seat ^ 2]
    if variant == SATAT and (third & H2BIT) != ZERO:
        return False
    if lead != trump and (third & sm) == ZERO and (third & tm) != ZERO:
        return False  # the third hand may ruff
    pm = part & sm
    if pm != ZERO:
        base = 40 if lead == trump else 20
        return 13 * lead + win_str - base < highest(pm) and ((third & sm) == ZERO or highest(pm) > highest(third & sm))
    return lead != trump and (part & tm) != ZERO


@njit(cache=True, inline="always")
def _last_beats(st, seat, lead, win_str, trump, variant):
    """At the third hand (``seat``): whether the last hand can beat the card winning the trick (of
    strength ``win_str``, in the led suit or a trump)."""
    nx = st[next_seat(seat, variant)]
    if variant == SATAT and (nx & H2BIT) != ZERO:
        return True
    lm = nx & _rule_suit(lead, variant)
    tm = nx & _rule_suit(trump, variant) if trump < 4 else ZERO
    if win_str >= 40:  # a trump wins: only a higher trump beats it
        if lead != trump and lm != ZERO:
            return False
        return tm != ZERO and highest(tm) % 13 > win_str - 40
    if lm != ZERO:
        return highest(lm) % 13 > win_str - 20
    return tm != ZERO


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
        elif (
            trump < 4
            and s != trump
            and (st[partner] & sm) == ZERO
            and (st[partner] & _rule_suit(trump, variant)) != ZERO
        ):
            sc = 58 - r  # partner ruffs
        elif (st[next_seat(seat, variant) ^ 2] >> np.uint64(top)) & ONE and (
            (st[partner] >> np.uint64(highest(rs ^ (ONE << np.uint64(top))))) & ONE
        ):
            sc = 50 - r  # through the fourth hand's top card to partner's second one
        else:
            below = rs & ((ONE << np.uint64(c)) - ONE)
            if below != ZERO and (st[seat] >> np.uint64(highest(below))) & ONE:
                sc = 40 + r  # top of a sequence: it forces out the higher cards cheaply
            else:
                sc = 20 + r
        if ruffable:
            sc -= 80
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
            if pos == 1:
                return 45 - r
            return 45 + r
        return 20 - r
    if s == trump:
        if partner_wins and pos == 2 and lead < 4 and _last_beats(st, seat, lead, win_str, trump, variant):
            partner_wins = False  # partner's card is not safe: ruff it
        if partner_wins or (pos == 1 and _fourth_wins(st, seat, lead, win_str, trump, variant)):
            return 5 - r
        if wins:
            if pos < 3 and lead < 4:
                # the next hand (an opponent) overruffs when void in the led suit with a higher trump
                nx = st[next_seat(seat, variant)]
                lm = _rule_suit(lead, variant)
                tm = _rule_suit(trump, variant)
                if (nx & lm) == ZERO and (nx & tm) != ZERO:
                    if (nx & tm & ~((ONE << np.uint64(c + 1)) - ONE)) != ZERO:
                        return 40 + r  # the next hand can overruff: after the safe ones
                    return 60 - r  # above every trump of the next hand: the cheapest such first
            return 55 - r
        return 2 - r
    sm = _rule_suit(s, variant)
    if c == highest(rem & sm):
        return 10 - r  # keep winners: discard them last
    # discard from the suit where the hand is shortest first (it voids a suit, making ruffs possible)
    n = popcount(st[seat] & sm)
    if n == 2:
        rs = rem & sm
        t1 = highest(rs)
        if (st[seat] >> np.uint64(highest(rs ^ (ONE << np.uint64(t1))))) & ONE:
            return 22 - r + 2 * n  # a guarded second-best card: keep its guard
    return 30 - r + 2 * n


@njit(cache=True, inline="always")
def _insert(moves, depth, n, sc, c):
    """Insertion sort step: card ``c`` with score ``sc`` joins the ``n`` cards of ``moves[depth]``, kept
    by score descending (ties: the higher card first). Score and card are packed in one integer until
    :func:`_unpack`. Returns the new count."""
    v = sc * 64 + c
    i = n
    while i > 0 and moves[depth * 64 + i - 1] < v:
        moves[depth * 64 + i] = moves[depth * 64 + i - 1]
        i -= 1
    moves[depth * 64 + i] = v
    return n + 1


@njit(cache=True, inline="always")
def _unpack(moves, depth, n):
    """Drop the scores :func:`_insert` packed beside the cards. Returns ``n``."""
    for i in range(n):
        moves[depth * 64 + i] = moves[depth * 64 + i] & 63
    return n


@njit(cache=True, inline="always")
def _second_hand_covers(moves, depth, reps, wins, seat, sm, later, st, rem):
    """Order the second hand's cards (following suit, ``wins`` those beating the led card) when the
    third hand (``later``) can beat whatever it plays: DDS's second-hand weights. Cards below every card
    of the third or the fourth hand lowest first, then covers from a sequence, then single covers (the
    cheapest forces the most), then the others. Returns the number of cards."""
    rs = rem & sm
    hm = pext(st[seat] & sm, rs)
    seqtop = pdep(hm & (hm << ONE), rs)
    low3 = lowest(later & sm)
    p4 = st[seat ^ 2] & sm
    low4 = lowest(p4) if p4 != ZERO else -1
    n = 0
    m = reps
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        b = ONE << np.uint64(c)
        if c < low3 or c < low4:
            sc = -9 + popcount(rs >> np.uint64(c))
        elif (wins & b) == ZERO:
            sc = -16 + popcount(rs >> np.uint64(c))
        elif (seqtop & b) != ZERO:
            sc = 20 - c % 13
        else:
            sc = 8 - c % 13
        n = _insert(moves, depth, n, sc, c)
    return _unpack(moves, depth, n)


@njit(cache=True)
def _order(moves, depth, reps, seat, pos, lead, win_seat, win_str, st, rem, trump, variant, n_left):
    """Write the representatives into ``moves[depth]``, best first. Returns their number."""
    n = 0
    if (reps & (reps - ONE)) == ZERO:
        moves[depth * 64] = lowest(reps)  # a single candidate: nothing to order
        return 1
    if pos > 0 and lead < 4 and (reps & ~_rule_suit(lead, variant)) == ZERO:
        # following suit (most nodes): the cards that beat the trick so far first (the third hand
        # highest first, the others lowest first), then the others lowest first; exactly the order
        # _score gives, without scoring each card
        wins = ZERO
        first = ZERO  # a card put first by a special rule
        base = 40 if lead == trump else 20  # strength of the led suit's 2
        if win_seat != (seat ^ 2) and base <= win_str < base + 13:
            wins = reps & ~((ONE << np.uint64(13 * lead + win_str - base + 1)) - ONE)
        if pos < 3:
            # a card that beats the trick and every card of the led suit the hands still to play hold
            # (neither of them able to ruff) wins surely: the cheapest such card first. At the second
            # hand, when partner (last to play) surely wins, or nothing of ours does, play low first.
            sm = _rule_suit(lead, variant)
            nxt = next_seat(seat, variant)
            tm = _rule_suit(trump, variant) if trump < 4 else ZERO
            later = st[nxt]  # the opponent still to play
            ruff_risk = lead != trump and (later & sm) == ZERO and (later & tm) != ZERO
            if variant == SATAT and (later & H2BIT) != ZERO:
                ruff_risk = True
            above = ZERO
            fourth_wins = pos == 1 and _fourth_wins(st, seat, lead, win_str, trump, variant)
            if fourth_wins and (st[seat ^ 2] & sm) != ZERO:
                wins = ZERO  # partner, last to play, surely wins with a card of the suit: play low
            elif not ruff_risk:
                lm = later & sm
                if pos == 2 and win_seat == (seat ^ 2) and lm != ZERO and base <= win_str < base + 13:
                    if highest(lm) > 13 * lead + win_str - base:
                        # partner's card can be beaten: overtake with a card the last hand cannot beat
                        wins = reps & ~((ONE << np.uint64(13 * lead + win_str - base + 1)) - ONE)
                above = wins & ~((ONE << np.uint64(highest(lm) + 1)) - ONE) if lm != ZERO else wins
            if above != ZERO:
                c = lowest(above)
                moves[depth * 64 + n] = c
                n += 1
                first = ONE << np.uint64(c)
            elif pos == 2 and not ruff_risk and wins != ZERO and (later & sm) != ZERO:
                # the last hand holds a higher card: force it out with the cheapest card above its next
                lm = later & sm
                rest = lm ^ (ONE << np.uint64(highest(lm)))
                force = wins & ~((ONE << np.uint64(highest(rest) + 1)) - ONE) if rest != ZERO else wins
                if force != ZERO:
                    c = lowest(force)
                    moves[depth * 64 + n] = c
                    n += 1
                    first = ONE << np.uint64(c)
            elif fourth_wins:
                wins = ZERO  # partner surely ruffs: play low, unless a card of ours surely wins
            elif pos == 1 and (later & sm) != ZERO and wins != ZERO:
                return _second_hand_covers(moves, depth, reps, wins, seat, sm, later, st, rem)

        m = wins & ~first
        while m != ZERO:
            if pos != 2:
                c = lowest(m)
            else:
                c = highest(m)
            moves[depth * 64 + n] = c
            m ^= ONE << np.uint64(c)
            n += 1
        m = reps & ~wins & ~first
        while m != ZERO:
            moves[depth * 64 + n] = lowest(m)
            m &= m - ONE
            n += 1
        return n
    m = reps
    cur_suit = -1
    rs, d, d_lose, t1, t2, win_top, win_other, case_win, case_lose = ZERO, 0, 0, -1, -1, False, False, 0, 0
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        if pos == 0 and not (variant == SATAT and c == H2):
            if trump < 4 and (rem & _rule_suit(trump, variant)) != ZERO:
                s = c // 13
                if s != cur_suit:  # the suit facts, once per suit (reps come suit by suit)
                    cur_suit = s
                    rs, d, d_lose, t1, t2, win_top, win_other, case_win, case_lose = _lead_suit(
                        s, seat, st, rem, trump, variant, n_left
                    )
                sc = _lead_card(c, st[seat], rs, t1, t2, d, d_lose, win_top, win_other, case_win, case_lose)
                if c == moves[KILLER_OFF + depth]:
                    sc += 30
            else:
                sc = _lead_score_nt(c, seat, st, rem, variant, n_left)
                if c == moves[KILLER_OFF + depth]:
                    sc += 30
        else:
            sc = _score(c, seat, pos, lead, win_seat, win_str, st, rem, trump, variant)
        n = _insert(moves, depth, n, sc, c)
    return _unpack(moves, depth, n)


# An explicit signature: numba's cache mis-links self-recursive functions compiled lazily (numba issue
# 6061, a segfault on the second run); with the types fixed up front the recursive call is resolved.
_SEARCH_SIG = types.uint64(
    types.uint64[::1],
    types.int64[::1],
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    types.uint64,
    types.uint64,
    types.int64,
    types.int64,
)


@njit(_SEARCH_SIG, cache=True)
def search(st, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left, target):
    """Whether team A can take at least ``target`` of the ``n_left`` tricks left (the current one
    included), with ``seat`` to play at position ``pos`` of the current trick.

    ``lead``/``win_seat``/``win_str`` describe the trick so far (ignored at ``pos == 0``), ``rem`` holds
    every card still in a hand or on the table, ``trick`` the cards on the table.

    Returns ``RESULT`` (bit 63) when the answer is yes, or-ed with the *relevant cards*: top segments of
    each suit (all ranks from some rank up) outside which the cards may be exchanged between hands of
    equal suit lengths without changing the answer. They key the table entries (partition search, as in
    DDS's "winning ranks"): a stored result applies to every position that agrees on the suit lengths
    of each hand and on who holds each relevant card.
    """
    st[4] += ONE
    k0 = ZERO
    k1 = ZERO
    p0 = ZERO
    p1 = ZERO
    k1a = ZERO
    k1b = ZERO
    h0 = np.int64(0)
    h1 = np.int64(0)
    h2 = np.int64(0)
    b0 = np.int64(0)
    b1 = np.int64(0)
    b2 = np.int64(0)
    remx = rem
    if pos == 0:
        if target <= 0:
            return RESULT
        if target > n_left:
            return ZERO
        if n_left == 1:
            return last_trick(st, seat, trump, variant)
        st[16 + n_left] += ONE
        if variant == SATAT:
            remx = rem & NOT_H2
        side = seat & 1
        k0, k1, p0, p1, k1a, k1b, h0, h1, h2, b0, b1, b2 = _tt_where(st, seat, trump, variant, remx)
        if n_left >= TT_FIRST:
            # deep positions: the table first (it answers most of them; the bounds seldom do)
            j, base = _tt_find(st, k0, k1, p0, p1, k1a, k1b, h0, h1, h2, b0, b1, b2, target)
            if j >= 0:
                st[5] += ONE
                return _tt_answer(st, base, j, remx, target)
        # the side on lead needs target tricks (team A) or n_left - target + 1 (team B, to refute)
        q, qrel = quick_tricks(st, rem, seat, trump, variant, target if side == 0 else n_left - target + 1)
        if side == 0:
            if q >= target:
                st[6] += ONE
                return RESULT | qrel
        elif n_left - q < target:
            st[6] += ONE
            return qrel
        if trump < 4 or variant == SATAT:
            # team A's sure trump tricks against target, team B's against n_left - target + 1
            k, krel = sure_trumps(st, rem, 0, trump, variant, target)
            if k >= target:
                st[6] += ONE
                return RESULT | krel
            k, krel = sure_trumps(st, rem, 1, trump, variant, n_left - target + 1)
            if n_left - k < target:
                st[6] += ONE
                return krel
        # the leader's side needs every trick but loses this one whatever it leads
        if (target if side == 0 else n_left - target + 1) == n_left:
            lost, lrel = leader_loses_trick(st, rem, seat, trump, variant)
            if lost:
                st[6] += ONE
                return lrel if side == 0 else RESULT | lrel
        if n_left < TT_FIRST:
            j, base = _tt_find(st, k0, k1, p0, p1, k1a, k1b, h0, h1, h2, b0, b1, b2, target)
            if j >= 0:
                st[5] += ONE
                return _tt_answer(st, base, j, remx, target)
    elif pos == 1:
        side = seat & 1
        if (target if side == 0 else n_left - target + 1) <= 1:
            sure, srel = second_hand_wins(st, seat, lead, trick, trump, variant)
            if sure:
                st[6] += ONE
                return (RESULT | srel) if side == 0 else srel
    hand = st[seat]
    legal = legal_mask(hand, pos, lead, variant)
    reps = representatives(legal, hand, rem, variant)
    depth = 4 * (13 - n_left) + pos
    nm = _order(moves, depth, reps, seat, pos, lead, win_seat, win_str, st, rem, trump, variant, n_left)
    maximizing = (seat & 1) == 0
    want = RESULT if maximizing else ZERO
    nxt = next_seat(seat, variant)
    # every argument of the recursive calls is a typed variable, never a literal (see _SEARCH_SIG)
    npos = np.int64(pos + 1)
    none = np.int64(-1)
    rel = ZERO
    cut = False
    skip = ZERO
    for i in range(nm):
        c = moves[depth * 64 + i]
        b = ONE << np.uint64(c)
        if (skip & b) != ZERO:
            continue
        st[seat] = hand ^ b
        if pos == 0:
            nlead = np.int64(lead_suit_of(c, trump, variant))
            cstr = np.int64(strength(c, trump, nlead, variant))
            r = search(st, moves, trump, variant, nxt, npos, nlead, seat, cstr, rem, b, n_left, target)
        else:
            cs = strength(c, trump, lead, variant)
            ws = win_seat
            wstr = win_str
            if cs > win_str:
                ws = seat
                wstr = np.int64(cs)
            if pos == 3:
                won = np.int64(1) if (ws & 1) == 0 else np.int64(0)
                full = trick | b
                if n_left == 2:
                    # one card each is left: the last trick, without another call of search
                    if target - won <= 0:
                        r = RESULT
                    elif target - won > 1:
                        r = ZERO
                    else:
                        r = last_trick(st, ws, trump, variant)
                    r |= _trick_rel(full, wstr, lead, trump, variant)
                else:
                    r = search(
                        st,
                        moves,
                        trump,
                        variant,
                        ws,
                        np.int64(0),
                        none,
                        none,
                        none,
                        rem & ~full,
                        np.uint64(0),
                        np.int64(n_left - 1),
                        np.int64(target - won),
                    )
                    r |= _trick_rel(full, wstr, lead, trump, variant)
            else:
                r = search(st, moves, trump, variant, nxt, npos, lead, ws, wstr, rem, trick | b, n_left, target)
        st[seat] = hand
        if (r & RESULT) == want:
            rel = r & ~RESULT
            cut = True
            moves[KILLER_OFF + depth] = c
            st[12 + pos] += ONE
            if i == 0:
                st[8 + pos] += ONE
            break
        rel |= r
        # c failed. A card of its suit below every card its refutation depends on fails the same way
        # (the two positions differ only by exchanging irrelevant cards), so skip those siblings.
        if not (variant == SATAT and c == H2):
            sm = _rule_suit(c // 13, variant)
            rs = r & sm
            if rs == ZERO:
                skip |= sm
            else:
                lo = lowest(rs)
                if c < lo:
                    skip |= sm & ((ONE << np.uint64(lo)) - ONE)
    rel &= ~RESULT
    if not cut:
        # every move was refuted. Equivalent cards were searched once: a run whose top card is relevant
        # must stay a run in any position that reuses this result, so its whole length becomes relevant.
        for s in range(4):
            sm = _rule_suit(s, variant)
            lg = legal & sm
            if lg == ZERO or (lg & (lg - ONE)) == ZERO:
                continue
            rs = rem & sm
            cm = pext(lg, rs)
            while cm != ZERO:
                top = highest(cm)
                low = top
                while low > 0 and (cm >> np.uint64(low - 1)) & ONE:
                    low -= 1
                if (pdep(ONE << np.uint64(top), rs) & rel) == ZERO:
                    break
                if low != top:
                    rel |= _seg(s, lowest(pdep(ONE << np.uint64(low), rs)) % 13)
                cm &= (ONE << np.uint64(low)) - ONE
    result = want if cut else (RESULT ^ want)
    if pos == 0:
        # the hands are as on entry: k0, k1, p0, p1 and remx still describe this position
        hdr = h0
        base = b0
        tops = _tops(remx, 2)
        if (rel & tops) == tops:
            k1 = k1b
            hdr = h2
            base = b2
        else:
            tops = _tops(remx, 1)
            if (rel & tops) == tops:
                k1 = k1a
                hdr = h1
                base = b1
        rc = pext(rel, remx)
        if popcount(rc) > 32:
            st[32] += ONE
            return result | rel  # too many relevant cards for an entry's owners word (rare): not stored
        own = _owners(p0, p1, rc)
        lb = 0
        ub = n_left
        slot = -1
        h = st[hdr]
        if (h & GEN_MASK) != st[GEN]:
            h = st[GEN]  # first use in this generation: the bucket's old entries are forgotten
        n_valid = np.int64((h >> np.uint64(40)) & MASK8)
        for j in range(n_valid):
            if (
                st[base + j] == k0
                and (st[base + TT_WAYS + j] & K1_MASK) == k1
                and st[base + 2 * TT_WAYS + j] == rc
                and st[base + 3 * TT_WAYS + j] == own
            ):
                slot = j
                lb = np.int64((st[base + TT_WAYS + j] >> np.uint64(32)) & MASK8)
                ub = np.int64((st[base + TT_WAYS + j] >> np.uint64(40)) & MASK8)
                break
        if slot < 0:
            slot = np.int64((h >> np.uint64(48)) & MASK8)
            if n_valid < TT_WAYS:
                n_valid += 1
            else:
                st[30] += ONE
            nxt_way = np.uint64((slot + 1) % TT_WAYS)
            st[hdr] = st[GEN] | (np.uint64(n_valid) << np.uint64(40)) | (nxt_way << np.uint64(48))
        st[31] += ONE
        st[34] += np.uint64(popcount(rc))
        st[35] += np.uint64(popcount(remx))
        st[36 + n_left] += ONE
        if result != ZERO:
            if target > lb:
                lb = target
        elif target - 1 < ub:
            ub = target - 1
        st[base + 0 * TT_WAYS + slot] = k0
        st[base + 1 * TT_WAYS + slot] = k1 | (np.uint64(lb) << np.uint64(32)) | (np.uint64(ub) << np.uint64(40))
        st[base + 2 * TT_WAYS + slot] = rc
        st[base + 3 * TT_WAYS + slot] = own
    return result | rel


@njit(cache=True)
def estimate(st, trump, n_left):
    """A guess at team A's tricks: half of them, moved by team A's share of the honours (A K Q J) and
    of the trumps still in the hands (fitted on random deals; off by about one trick on average)."""
    hon = np.int64(0)
    hon_a = np.int64(0)
    tr = np.int64(0)
    tr_a = np.int64(0)
    for h in range(4):
        x = st[h]
        pts = np.int64(0)
        for s in range(4):
            m = (x >> np.uint64(13 * s)) & SUIT13
            for r in range(9, 13):
                if (m >> np.uint64(r)) & ONE:
                    pts += r - 8
        t = np.int64(popcount(x & _smask(trump))) if trump < 4 else np.int64(0)
        hon += pts
        tr += t
        if (h & 1) == 0:
            hon_a += pts
            tr_a += t
    g = 0.5 * n_left + 0.3 * (hon_a - 0.5 * hon) + 0.8 * (tr_a - 0.5 * tr)
    return np.int64(min(max(round(g), 1), n_left)) if n_left > 0 else np.int64(0)


@njit(cache=True)
def solve_from(st, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left, guess):
    """The exact number of the ``n_left`` tricks left that team A takes: zero-window searches from
    ``guess`` stepping one trick at a time (the table keeps the bounds each search proves, so the
    next target reuses them; near the value, each search costs about as much as a binary search's)."""
    lo = 0
    hi = n_left
    g = min(max(guess, 1), n_left)
    if n_left == 0:
        return 0
    if search(st, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left, g) & RESULT:
        lo = g
        while lo < hi:
            t = np.int64(lo + 1)
            if search(st, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left, t) & RESULT:
                lo = t
            else:
                hi = lo
    else:
        hi = g - 1
        while lo < hi:
            t = np.int64(hi)
            if search(st, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left, t) & RESULT:
                lo = hi
            else:
                hi = t - 1
    return lo


@njit(cache=True)
def solve_exact(st, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left):
    """The exact number of the ``n_left`` tricks left that team A takes (:func:`solve_from` an estimate)."""
    g = estimate(st, trump, n_left)
    return solve_from(st, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left, g)


@njit(cache=True)
def card_values(st, moves, trump, variant, seat, pos, lead, win_seat, win_str, rem, trick, n_left, out):
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
        # the previous card's value is a good first guess (neighbouring cards often tie)
        g = prev_value if prev_value >= 0 else estimate(st, trump, n_left)
        if pos == 0:
            nlead = lead_suit_of(c, trump, variant)
            v = solve_from(
                st, moves, trump, variant, nxt, 1, nlead, seat, strength(c, trump, nlead, variant), rem, b, n_left, g
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
                v = won + solve_from(
                    st, moves, trump, variant, ws, 0, -1, -1, -1, rem & ~(trick | b), ZERO, n_left - 1, g - won
                )
            else:
                v = solve_from(st, moves, trump, variant, nxt, pos + 1, lead, ws, wstr, rem, trick | b, n_left, g)
        st[seat] = hand
        out[c] = v
        prev_value = v
        c -= 1
    return 0
