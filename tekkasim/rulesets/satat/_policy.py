"""Compiled Satat policies (GREEDY, RANDOM, the heuristic family KADO .. JANGARA, ATOUTE and ZORGE) and
a compiled whole-round loop.

Every decision reads only what the deciding seat may see: its hand and the *public view* ``pub`` of the
round (the public fields of the rules' kernel arrays, ``PUBLIC_FIELDS``; ``satat.public_from_observation``
builds them from an observation; the two are equal, tested). Hidden information in the kernel arrays (who committed a
Renonce) never reaches a policy. The Python bots (``bots/satat.py``) call these same functions, so the
Python and compiled forms decide alike (tested on random states and whole rounds).

``pub`` layout (int64): ``V_*`` scalars, then per play the card (``V_PLAYS + i``, -1 not played) and per
trick its leader and winner (-1: not started / not complete or accused).

Parameter vector ``p`` (float64, ``P_*``): see ``bots/satat.py`` for what each parameter means.

Mistakes (``mistake_rate``, drawn by ``bits.mistake``): a heuristic policy's card mistake plays another
rule-following card drawn by ``bits.mistake_pick`` over what each costs by the policy's own evaluation
(:func:`_slip_card`, temperature ``P_TEMP``), a Troupe mistake the second-best suit (no redeal); never an
accusation. With ``P_UNIFORM`` (and for GREEDY) a mistake is a uniformly random card or Troupe choice.

Decisions:

* :func:`troupe_decide` -- Troupe (``52 + suit``) or a redeal (56) from the caller's first five;
* :func:`accuse_decide` -- an accusation action, or -1 to decline (deterministic, no RNG);
* :func:`card_decide` -- a card (a Renonce only for a bluffing policy) or ``COLLECT`` (57).

The whole-round loop :func:`play_rounds_kernel` plays the first round of a match from each board seed
exactly as ``Satat.new_deal(seed)`` + ``bots.loop.play_deal`` do: out-of-turn seats are asked
first in seat order (a declined accusation takes no RNG), then the seat to move with
``new_rng(mix_seed(seed, table, k))``.

Speed: the loop keeps the round's public knowledge (:func:`knowledge`: cards seen, apparent voids, proven
Renonces) up to date card by card (:func:`_learn`) and hands it to :func:`accuse_decide_k` and
:func:`card_decide_k`, which never rescan the history for a Hard (full memory) policy; the Python forms
replay it from ``pub``. The decision functions allocate nothing and are compiled without reference
counting (``_nrt=False``): with it, every call paid atomic increments and decrements of the arrays passed,
most of the loop's time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tekkasim.bits import (
    ONE,
    SLIP_NONE,
    ZERO,
    below,
    bit,
    highest,
    lowest,
    mistake,
    mistake_pick,
    mix_seed3,
    popcount,
    slip_step,
    suit_mask,
)
from tekkasim.rulesets.satat import _kernels as K

TWO_HEARTS = 26
B2H = np.uint64(1 << TWO_HEARTS)
TROUPE_BASE, REDEAL, COLLECT, ACCUSE = 52, 56, 57, 64

# --- public view ----------------------------------------------------------------------------------
# The policies read the rules' own array layout (``_satat_kernels``), only its public fields: the
# compiled loop passes the round's ``st`` itself; the Python form builds the same fields from the
# observation (hidden ones -- Renonce flags, the accusation -- left at 0). Match points before the round
# come as a separate argument (``score``: team A's and team B's points, a pair of ints).
V_TROUPE, V_TO_MOVE, V_TRICK, V_N_TABLE = K.TROUPE, K.TO_MOVE, K.TRICK, K.N_TABLE
V_WON_A, V_WON_B, V_KOT, V_DECIDED, V_OVER = K.WON_A, K.WON_B, K.KOT_TEAM, K.DECIDED, K.OVER
V_PLAYS, V_LEADERS, V_WINNERS, V_SIZE = K.PLAYS, K.LEADERS, K.WINNERS, K.ST_SIZE
PUBLIC_FIELDS = np.array(
    [V_TROUPE, V_TO_MOVE, V_TRICK, V_N_TABLE, V_WON_A, V_WON_B, V_KOT, V_DECIDED, V_OVER]
    + list(range(V_PLAYS, V_PLAYS + 52))
    + list(range(V_LEADERS, V_LEADERS + 13))
    + list(range(V_WINNERS, V_WINNERS + 13)),
    np.int64,
)


# --- parameters -------------------------------------------------------------------------------------
(
    P_MODE,
    P_MISTAKE,
    P_MEMORY,
    P_PARTNER,
    P_TROUPE,
    P_EVAL,
    P_REDEAL,
    P_DETECT,
    P_SUSPICION,
    P_KOT,
    P_BLUFF,
    P_BLUFF_TEAM,
    P_BLUFF_ROUND,
    P_INFER,
    P_TEMP,
    P_UNIFORM,
    P_MATCH,
    P_RUFF_HIGH,
) = range(18)
N_P = 18
MODE_RANDOM, MODE_GREEDY, MODE_HEURISTIC = 0, 1, 2
_HON13 = np.uint64(0b1111100000000)  # T J Q K A of a suit
HONOURS = _HON13 | (_HON13 << np.uint64(13)) | (_HON13 << np.uint64(26)) | (_HON13 << np.uint64(39))
MEM_NONE, MEM_TRICK, MEM_FULL = 0, 1, 2
MATCH_POINTS = 5  # a match is won at 5 points or more (rules.md)
BLUFF_NONE, BLUFF_ATOUTE, BLUFF_ZORGE = 0, 1, 2


# --- small helpers ----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _follow_mask(s):
    """The cards that count as suit ``s`` for following (2♥ never does)."""
    return suit_mask(s) & ~B2H


@njit(cache=True, inline="always")
def _need(lead, troupe):
    """The suit to follow after ``lead`` was led: Troupe after a 2♥ lead."""
    return troupe if lead == TWO_HEARTS else lead // 13


@njit(cache=True, inline="always")
def _strength(c, troupe, need):
    if c == TWO_HEARTS:
        return 100
    s = c // 13
    if s == troupe:
        return 40 + c % 13
    if s == need:
        return 20 + c % 13
    return 0


@njit(cache=True, inline="always")
def _seat_at(leader, j):
    return (leader + 3 * j) & 3


@njit(cache=True, inline="always")
def _n_started(pub):
    """Tricks with at least one card played."""
    if pub[V_TRICK] == 0 and pub[V_N_TABLE] == 0:
        return 0
    return pub[V_TRICK] + 1


@njit(cache=True, inline="always")
def _first_remembered(p, pub):
    """The first trick the policy remembers: none -> past the current one, trick -> the one before the
    current (the "one hand" a Normal bot remembers: the trick just gathered and the one on the table),
    full -> 0."""
    mem = p[P_MEMORY]
    n = _n_started(pub)
    if mem >= MEM_FULL:
        return 0
    if mem >= MEM_TRICK:
        return max(0, n - 2)
    return n


OTHER_SIDE = (0xF0F0, 0x0F0F)  # the apparent-void nibbles (below) of the seats not of team 0 / team 1
OTHER_SEATS = (0b1010, 0b0101)  # the seat bits of the seats not of team 0 / team 1


@njit(cache=True, inline="always")
def _learn(troupe, lead, j, seat, c, played, voids, proven):
    """The public knowledge after play ``j`` (0 the lead) of a trick led with card ``lead``: ``c`` by
    ``seat``. ``played`` the cards seen (mask), ``voids`` the apparent voids (4 bits per seat: it failed
    to follow that suit), ``proven`` the seats (4 bits) whose card showed a suit they had failed to follow
    earlier: a proven Renonce. The compiled loop applies it after every card; :func:`knowledge` replays
    the history with it."""
    if c != TWO_HEARTS:
        if (voids >> (4 * seat + c // 13)) & 1:
            proven |= 1 << seat
        if j > 0:
            need = _need(lead, troupe)
            if c // 13 != need:
                voids |= 1 << (4 * seat + need)
    return played | bit(c), voids, proven


@njit(cache=True, _nrt=False)
def knowledge(pub, first):
    """(played, voids, proven) of :func:`_learn` from the tricks ``first`` .. the current one."""
    played, voids, proven = ZERO, 0, 0
    troupe = pub[V_TROUPE]
    for t in range(first, _n_started(pub)):
        leader = pub[V_LEADERS + t]
        lead = pub[V_PLAYS + 4 * t]
        for j in range(4):
            c = pub[V_PLAYS + 4 * t + j]
            if c < 0:
                break
            played, voids, proven = _learn(troupe, lead, j, _seat_at(leader, j), c, played, voids, proven)
    return played, voids, proven


@njit(cache=True, inline="always")
def _remembered(p, pub, played, voids, proven):
    """The knowledge of the tricks policy ``p`` remembers, given the whole round's (``played``, ``voids``,
    ``proven``): the whole round's for full memory, else replayed from the remembered tricks (at most two)."""
    if p[P_MEMORY] >= MEM_FULL:
        return played, voids, proven
    return knowledge(pub, _first_remembered(p, pub))


@njit(cache=True, inline="always")
def _is_void(v, seat, s):
    return (v >> (4 * seat + s)) & 1


@njit(cache=True, inline="always")
def _is_master(c, gone):
    """No higher card of ``c``'s suit is still out (2♥ always is)."""
    if c == TWO_HEARTS:
        return True
    above = suit_mask(c // 13) & ~((bit(c) << ONE) - ONE)
    return (above & ~gone) == ZERO


@njit(cache=True, _nrt=False)
def _low_key(c, troupe):
    """GREEDY's throw order: by rank, a side card before Troupe, then suit; 2♥ last."""
    if c == TWO_HEARTS:
        return 1 << 20
    return (c % 13) * 8 + (4 if c // 13 == troupe else 0) + c // 13


@njit(cache=True, inline="always")
def _lowest(h, troupe):
    best, bk = -1, 1 << 30
    x = h
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        k = _low_key(c, troupe)
        if k < bk:
            bk, best = k, c
    return best


@njit(cache=True, inline="always")
def _cheapest_winner(h, wpow, troupe, need):
    best, bp = -1, 1 << 30
    x = h
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        s = _strength(c, troupe, need)
        if wpow < s < bp:
            bp, best = s, c
    return best


@njit(cache=True, inline="always")
def _highest_winner(h, wpow, troupe, need):
    """The strongest card of ``h`` that beats strength ``wpow`` (-1: none): what ``ruff_high`` ruffs with."""
    best, bp = -1, wpow
    x = h
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        s = _strength(c, troupe, need)
        if s > bp:
            bp, best = s, c
    return best


@njit(cache=True, inline="always")
def _table_state(pub):
    """(n on the table counting only an incomplete trick, leader, need, winning position, its strength)."""
    n = pub[V_N_TABLE]
    if n == 0 or n == 4:
        return 0, -1, -1, -1, -1
    t = pub[V_TRICK]
    troupe = pub[V_TROUPE]
    lead = pub[V_PLAYS + 4 * t]
    need = _need(lead, troupe)
    w, wp = 0, _strength(lead, troupe, need)
    for j in range(1, n):
        s = _strength(pub[V_PLAYS + 4 * t + j], troupe, need)
        if s > wp:
            w, wp = j, s
    return n, pub[V_LEADERS + t], need, w, wp


@njit(cache=True, inline="always")
def legal_cards(hand, pub):
    """The rule-following cards of the seat to move (``hand`` its cards)."""
    n, _, need, _, _ = _table_state(pub)
    if n == 0:
        return hand
    f = hand & _follow_mask(need)
    if f == ZERO:
        return hand
    return f | (hand & B2H)


@njit(cache=True, inline="always")
def _mistake(p, rng):
    return mistake(rng, p[P_MISTAKE])


@njit(cache=True, inline="always")
def _kth_card(m, k):
    x = m
    for _ in range(k):
        x &= x - ONE
    return lowest(x)


# --- Troupe and redeal ---------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def _hcp(h, s):
    x = (h >> np.uint64(13 * s)) & np.uint64(0x1FFF)
    return np.int64(
        4 * ((x >> np.uint64(12)) & ONE)
        + 3 * ((x >> np.uint64(11)) & ONE)
        + 2 * ((x >> np.uint64(10)) & ONE)
        + ((x >> np.uint64(9)) & ONE)
    )


@njit(cache=True, _nrt=False)
def troupe_decide(p, five, may_redeal, rng):
    """The caller's choice from its first five: ``52 + suit`` or ``REDEAL`` (56, only when ``may_redeal``)."""
    mode = p[P_MODE]
    n = 5 if may_redeal else 4
    if mode == MODE_RANDOM:
        k = below(rng, n)
        return REDEAL if k == 4 else TROUPE_BASE + k
    slip = mode == MODE_HEURISTIC and _mistake(p, rng)
    if slip and p[P_UNIFORM] > 0.0:
        k = below(rng, n)
        return REDEAL if k == 4 else TROUPE_BASE + k
    h = five & ~B2H
    if mode == MODE_HEURISTIC and may_redeal and p[P_REDEAL] > 0.0 and not slip:
        aces = 0
        for s in range(4):
            aces += (h >> np.uint64(13 * s + 12)) & ONE
        if aces == 0 and (five & B2H) == ZERO:
            return REDEAL
    best, bk = 0, -1
    for s in range(4):
        x = np.int64((h >> np.uint64(13 * s)) & np.uint64(0x1FFF))
        ln = popcount(h & suit_mask(s))
        if mode == MODE_GREEDY or p[P_EVAL] == 0.0:
            k = ln * 8192 + x
        else:  # length and honours: 3 a card, A 4 K 3 Q 2 J 1, ties by the cards from the Ace down
            k = (3 * ln + _hcp(h, s)) * 8192 + x
        if k > bk:
            bk, best = k, s
    if slip:  # a near miss: the second-best suit (a redeal it wanted becomes its best suit)
        if mode == MODE_HEURISTIC and may_redeal and p[P_REDEAL] > 0.0 and _would_redeal(five):
            return TROUPE_BASE + best
        best2, bk2 = -1, -1
        for s in range(4):
            x = np.int64((h >> np.uint64(13 * s)) & np.uint64(0x1FFF))
            ln = popcount(h & suit_mask(s))
            k = ln * 8192 + x if p[P_EVAL] == 0.0 else (3 * ln + _hcp(h, s)) * 8192 + x
            if s != best and k > bk2:
                bk2, best2 = k, s
        return TROUPE_BASE + best2
    return TROUPE_BASE + best


@njit(cache=True, inline="always")
def _would_redeal(five):
    """The ``redeal`` rule's test: no Ace and no 2♥ in the first five."""
    h = five & ~B2H
    aces = 0
    for s in range(4):
        aces += (h >> np.uint64(13 * s + 12)) & ONE
    return aces == 0 and (five & B2H) == ZERO


# --- accusations -----------------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def _team_points_now(pub, team):
    """Expected points of ``team`` if play goes on, a rough public estimate (positive: ours)."""
    dec = pub[V_DECIDED]
    troupe_won = pub[V_WON_A + team] - pub[V_WON_A + 1 - team]
    if dec != 0:
        t = pub[V_TRICK]
        w = pub[V_WINNERS + t]
        pts = 1.0 if dec == 1 else (2.0 if dec == 2 else 3.0)
        if dec == 1:
            return pts if (w & 1) == team else -pts
        return pts if pub[V_KOT] == team else -pts
    if pub[V_KOT] >= 0:
        return 2.0 if pub[V_KOT] == team else -2.0
    return np.tanh(troupe_won / 3.0)


@njit(cache=True, _nrt=False)
def _suspicion(p, pub, hand, accused, prior):
    """(proven, probability) that ``accused`` has committed a Renonce, from the remembered tricks: proven when
    a later card of the seat shows the suit it failed to follow; else, with ``prior`` > 0, the posterior of
    a deliberate failure given how likely the seat still holds the suit if cards were dealt uniformly."""
    troupe = pub[V_TROUPE]
    first = _first_remembered(p, pub)
    n_started = _n_started(pub)
    # cards the accused played, in remembered tricks, with the suit each had to follow (-1 lead)
    played_later = ZERO  # accused's cards from trick u on (filled backwards)
    proven = False
    none_all = 1.0
    gone_all = hand
    for t in range(n_started):
        for j in range(4):
            c = pub[V_PLAYS + 4 * t + j]
            if c >= 0:
                gone_all |= bit(c)
    unseen = ~gone_all & np.uint64((1 << 52) - 1)
    n_unseen = popcount(unseen)
    h_acc = 13
    for t in range(n_started):
        leader = pub[V_LEADERS + t]
        for j in range(4):
            c = pub[V_PLAYS + 4 * t + j]
            if c >= 0 and _seat_at(leader, j) == accused:
                h_acc -= 1
    for t in range(n_started - 1, first - 1, -1):
        leader = pub[V_LEADERS + t]
        lead = pub[V_PLAYS + 4 * t]
        need = _need(lead, troupe)
        for j in range(3, -1, -1):
            c = pub[V_PLAYS + 4 * t + j]
            if c < 0 or _seat_at(leader, j) != accused:
                continue
            if j > 0 and c != TWO_HEARTS and c // 13 != need:
                if (played_later & _follow_mask(need)) != ZERO:
                    proven = True
                elif prior > 0.0:
                    u = popcount(unseen & _follow_mask(need))
                    q_none = 1.0
                    for i in range(h_acc):
                        if n_unseen - i <= 0:
                            break
                        q_none *= max(0.0, (n_unseen - u - i) / (n_unseen - i))
                    q = 1.0 - q_none
                    post = prior * q / (prior * q + (1.0 - prior) * (1.0 - q) + 1e-300)
                    none_all *= 1.0 - post
            played_later |= bit(c)
    return proven, 1.0 - none_all


@njit(cache=True, _nrt=False)
def accuse_decide(p, hand, pub, seat):
    """An accusation by ``seat`` of an opponent's card on the table, or -1 to decline. Only an opponent with
    evidence against it is ever accused: a proof (a remembered card of a suit it failed to follow earlier),
    or with ``P_SUSPICION`` > 0 a remembered failure to follow. With ``P_KOT`` (round and match pressure) a
    proof is used when a correct accusation (+1) beats what the round is worth now (so never on our own
    KOT run), and a suspicion by expected points (a wrong accusation gives the point away). Never an
    accusation without evidence, not even where a wrong one would cost nothing (a decided seven of the
    other side): the seeds' bots call Renonce only on proof.
    :func:`accuse_decide_k` with the round's knowledge replayed from ``pub``."""
    played, voids, proven = knowledge(pub, 0)
    return accuse_decide_k(p, hand, pub, seat, played, voids, proven)


@njit(cache=True, _nrt=False)
def accuse_decide_k(p, hand, pub, seat, played, voids, proven):
    """:func:`accuse_decide` given the whole round's knowledge (``knowledge(pub, 0)``, which the compiled loop
    keeps up to date play by play)."""
    if p[P_MODE] != MODE_HEURISTIC or p[P_DETECT] == 0.0 or pub[V_OVER] != 0:
        return -1
    n = pub[V_N_TABLE]
    if n == 0:
        return -1
    t = pub[V_TRICK]
    leader = pub[V_LEADERS + t]
    team = seat & 1
    _, voids, proven = _remembered(p, pub, played, voids, proven)
    # without a remembered failure to follow by the other side nothing is proven or suspected
    if (voids & OTHER_SIDE[team]) == 0:
        return -1
    prior = p[P_SUSPICION]
    if prior == 0.0:  # proofs only: is an opponent on the table proven?
        on_table = 0
        for j in range(n):
            on_table |= 1 << _seat_at(leader, j)
        if (proven & on_table & OTHER_SEATS[team]) == 0:
            return -1
    need = _need(pub[V_PLAYS + 4 * t], pub[V_TROUPE])
    best_a, best_p, best_proven = -1, -1.0, False
    for j in range(n):
        s = _seat_at(leader, j)
        if (s & 1) == team:
            continue
        c = pub[V_PLAYS + 4 * t + j]
        if prior > 0.0:
            is_proven, prob = _suspicion(p, pub, hand, s, prior)
        else:
            is_proven, prob = ((proven >> s) & 1) != 0, 0.0
        if is_proven:
            prob = 1.0
        if prob <= 0.0:
            continue  # no evidence against this seat: never accused
        if j > 0 and c != TWO_HEARTS and c // 13 != need:
            prob += 1e-9  # among equals: a seat that did not follow on this trick
        if prob > best_p:
            best_p, best_proven = prob, is_proven
            best_a = ACCUSE + (s * 4 + seat) * 52 + c
    if best_a < 0:
        return -1
    if p[P_KOT] == 0.0:
        return best_a if best_proven and not _ours_decided(pub, team) else -1
    # expected points: a correct accusation +1, a wrong one -1, against what the round is worth now
    gain = 2.0 * min(best_p, 1.0) - 1.0
    return best_a if gain > _team_points_now(pub, team) + 1e-6 else -1


@njit(cache=True, _nrt=False)
def _ours_decided(pub, team):
    dec = pub[V_DECIDED]
    if dec == 0:
        return False
    if dec == 1:
        return (pub[V_WINNERS + pub[V_TRICK]] & 1) == team
    return pub[V_KOT] == team


# --- cards -----------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _greedy_card(hand, pub, lm):
    troupe = pub[V_TROUPE]
    n, leader, need, w, wp = _table_state(pub)
    if n == 0:
        best = -1
        x = lm
        while x != ZERO:
            c = lowest(x)
            x &= x - ONE
            if c % 13 == 12 and c // 13 != troupe:
                return c
        return _lowest(lm, troupe)
    # GREEDY's power: 2♥ 1000, Troupe 100 + rank, the suit to follow its rank, other -1
    t = pub[V_TRICK]
    bestp = -1
    for j in range(n):
        c = pub[V_PLAYS + 4 * t + j]
        pw = _gpower(c, troupe, need)
        if pw > bestp:
            bestp = pw
    best, bp = -1, 1 << 30
    x = lm
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        pw = _gpower(c, troupe, need)
        if bestp < pw < bp:
            bp, best = pw, c
    if best >= 0:
        return best
    return _lowest(lm, troupe)


@njit(cache=True, inline="always")
def _gpower(c, troupe, need):
    if c == TWO_HEARTS:
        return 1000
    if c // 13 == troupe:
        return 100 + c % 13
    if c // 13 == need:
        return c % 13
    return -1


@njit(cache=True, _nrt=False)
def _discard(hand, lm, troupe, gone):
    """A card to throw: the lowest side card that is not a master, else the lowest side card, else the
    lowest Troupe; 2♥ last."""
    side = lm & ~B2H & ~suit_mask(troupe)
    best, bk = -1, 1 << 30
    x = side
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        k = (c % 13) + (100 if _is_master(c, gone) else 0)
        if k < bk:
            bk, best = k, c
    if best >= 0:
        return best
    return _lowest(lm, troupe)


@njit(cache=True, _nrt=False)
def _bluffed_this_round(hand, seat, voids, proven):
    """Whether ``seat`` already failed to follow this round while holding the suit (it knows its own past
    hands): a failure that a later card of its own proves, or one of a suit it still holds. ``voids`` and
    ``proven``: the whole round's knowledge (:func:`knowledge`)."""
    if (proven >> seat) & 1:
        return True
    for s in range(4):
        if (voids >> (4 * seat + s)) & 1 and (hand & _follow_mask(s)) != ZERO:
            return True
    return False


@njit(cache=True, _nrt=False)
def bluff_allowed(p, pub, seat, score):
    """The bluff window of a bluffing policy: from the fourth trick on, in the round whose match total
    (points of both teams before it) is ``P_BLUFF_ROUND`` (every round of a match has a different total,
    so that is one round per match), for the team's first seat (bottom/right) always and its second
    (top/left) only when the team may bluff twice."""
    if p[P_BLUFF] == BLUFF_NONE or pub[V_TRICK] < 3:
        return False
    if score[0] + score[1] != p[P_BLUFF_ROUND]:
        return False
    return (seat >> 1) == 0 or p[P_BLUFF_TEAM] >= 2.0


@njit(cache=True, _nrt=False)
def _bluff_card(p, hand, pub, seat, score, lm, played, voids, proven):
    """A deliberate Renonce, or -1: a Troupe card played while holding the suit led (a ruff), to win a trick
    the other side is winning and no legal card of ours can win. ATOUTE ruffs only the trick that gives her
    side its seventh trick (it decides the round: no later card of hers can prove the Renonce, only a
    probability accusation during the collect can catch it); ZORGE ruffs to stop the other side's seventh
    trick, and play goes on, so a later card may expose him. Once per round, at most two cards of the suit
    led in hand, from the fourth trick on, in the bluff window (:func:`bluff_allowed`). ``played``, ``voids``,
    ``proven``: the whole round's knowledge (a seat knows its own past plays whatever it remembers)."""
    if p[P_BLUFF] == BLUFF_NONE:  # (bluff_allowed says no) the ladder's policies: nothing to look at
        return -1
    n, leader, need, w, wp = _table_state(pub)
    if n == 0 or not bluff_allowed(p, pub, seat, score):
        return -1
    troupe = pub[V_TROUPE]
    if need == troupe:
        return -1
    follow = hand & _follow_mask(need)
    if follow == ZERO or popcount(follow) > 2:
        return -1
    team = seat & 1
    if (_seat_at(leader, w) & 1) == team:
        return -1  # our side is winning
    if _cheapest_winner(lm, wp, troupe, need) >= 0:
        return -1  # a legal card wins
    ours, theirs = pub[V_WON_A + team], pub[V_WON_A + 1 - team]
    if pub[V_KOT] >= 0:
        return -1
    if p[P_BLUFF] == BLUFF_ATOUTE:
        # our seventh trick, and not the seventh of a straight run (a KOT plays on)
        if ours != 6 or theirs == 0:
            return -1
    elif theirs != 6 or ours == 0:
        return -1
    c = _cheapest_winner(hand & suit_mask(troupe) & ~B2H, wp, troupe, need)
    if c < 0 or _bluffed_this_round(hand, seat, voids, proven):
        return -1
    # the seats after us must not be able to beat it for sure: it is the last card, or a master Troupe
    if n < 3 and not _is_master(c, hand | played):
        return -1
    return c


@njit(cache=True, inline="always")
def kot_chase_from(p, seat, score):
    """The trick (0-based) from which second hand plays to win against the other side's KOT in the making
    (with ``P_KOT``; 13: never). Round pressure alone: the fourth trick. With ``P_MATCH`` (match pressure)
    the other side's match points (``score``: team A's, team B's before the round) move it: when their KOT
    would win them the match and their plain seven would not (``MATCH_POINTS`` - 2 points, with the KOT's 2
    points), from the second trick, spending high cards early; when their plain seven already wins them the
    match (one point from it), never, since a KOT costs no more than the seven and second hand low takes
    more tricks; else the fourth."""
    if p[P_MATCH] > 0.0:
        theirs = score[1 - (seat & 1)]
        if theirs >= MATCH_POINTS - 1:
            return 13
        if theirs == MATCH_POINTS - 2:
            return 1
    return 3


@njit(cache=True, _nrt=False)
def _follow_card(p, hand, pub, seat, lm, gone, voids, score):
    troupe = pub[V_TROUPE]
    n, leader, need, w, wp = _table_state(pub)
    partner = (seat + 2) & 3
    if p[P_MEMORY] == MEM_NONE:  # cannot see the trick: top of the suit when it is the Ace, else low
        top = highest(lm & ~B2H) if (lm & ~B2H) != ZERO else TWO_HEARTS
        if top % 13 == 12 and top // 13 == need:
            return top
        return _lowest(lm, troupe)
    t = pub[V_TRICK]
    win_seat = _seat_at(leader, w)
    win_card = pub[V_PLAYS + 4 * t + w]
    partner_play = p[P_PARTNER] > 0.0
    if partner_play and win_seat == partner:
        sure = (
            n == 3
            or win_card == TWO_HEARTS
            or (
                _is_master(win_card, gone)
                and (win_card // 13 == troupe or (_is_void(voids, (seat + 3) & 3, need) == 0 and p[P_INFER] > 0.0))
            )
        )
        if sure:
            return _discard(hand, lm, troupe, gone)
    cw = _cheapest_winner(lm, wp, troupe, need)
    if cw < 0:
        return _discard(hand, lm, troupe, gone)
    if p[P_RUFF_HIGH] > 0.0 and (hand & _follow_mask(need)) == ZERO:  # a beginner ruffs with its top trump
        return _highest_winner(lm, wp, troupe, need)
    if n == 3 or not partner_play:
        return cw
    # a sure winner: the cheapest master that wins (2♥ only when nothing else does)
    x = lm & ~B2H
    best = -1
    bp = 1 << 30
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        s = _strength(c, troupe, need)
        if s > wp and _is_master(c, gone) and s < bp:
            bp, best = s, c
    # the other side has taken every trick (second hand follows its leader, who won the last one): a KOT
    # in the making, so from the fourth trick on second hand plays to win (match pressure moves that trick)
    run = p[P_KOT] > 0.0 and pub[V_KOT] < 0 and pub[V_WON_A + (seat & 1)] == 0 and t >= kot_chase_from(p, seat, score)
    if n == 1 and not run:  # second hand: low unless a master wins
        if best >= 0 and cw // 13 != troupe:
            return best
        return _discard(hand, lm, troupe, gone)
    return cw


@njit(cache=True, _nrt=False)
def _lead_card(p, hand, pub, seat, gone, voids):
    troupe = pub[V_TROUPE]
    side = hand & ~B2H & ~suit_mask(troupe)
    if p[P_MEMORY] == MEM_NONE:
        x = side
        while x != ZERO:
            c = lowest(x)
            x &= x - ONE
            if c % 13 == 12:
                return c
        return _longest_low(hand, troupe)
    my_troupe = hand & suit_mask(troupe) & ~B2H
    out_troupe = suit_mask(troupe) & ~B2H & ~gone  # Troupe cards still out (2♥ apart)
    opp1, opp2 = (seat + 1) & 3, (seat + 3) & 3
    infer = p[P_INFER] > 0.0
    if p[P_TROUPE] > 0.0 and out_troupe != ZERO:
        n_mine = popcount(my_troupe) + (1 if (hand & B2H) != ZERO else 0)
        if n_mine >= 3:
            if (hand & B2H) != ZERO:
                return TWO_HEARTS  # everyone must play Troupe
            if my_troupe != ZERO and _is_master(highest(my_troupe), gone):
                return highest(my_troupe)
    # a side master the opponents can follow (or are not known to ruff)
    x = side
    best, bk = -1, -1
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        if not _is_master(c, gone):
            continue
        s = c // 13
        if infer and (_is_void(voids, opp1, s) or _is_void(voids, opp2, s)):
            continue
        k = c % 13
        if k > bk:
            bk, best = k, c
    if best >= 0:
        return best
    # partner's ruff: a suit partner has shown void in while the opponents have not
    if infer and p[P_TROUPE] > 0.0:
        partner = (seat + 2) & 3
        for s in range(4):
            if s == troupe or (side & suit_mask(s)) == ZERO:
                continue
            if (
                _is_void(voids, partner, s)
                and not _is_void(voids, partner, troupe)
                and not _is_void(voids, opp1, s)
                and not _is_void(voids, opp2, s)
            ):
                return lowest(side & suit_mask(s))
    if p[P_TROUPE] > 0.0 and my_troupe != ZERO and side != ZERO:
        # low from the shortest side suit, to ruff it later
        bs, bl = -1, 99
        for s in range(4):
            if s == troupe:
                continue
            ln = popcount(side & suit_mask(s))
            if 0 < ln < bl:
                bl, bs = ln, s
        return lowest(side & suit_mask(bs))
    return _longest_low(hand, troupe)


@njit(cache=True, _nrt=False)
def _longest_low(hand, troupe):
    """Low from the longest side suit (ties: higher suit), else the lowest card."""
    side = hand & ~B2H & ~suit_mask(troupe)
    if side == ZERO:
        return _lowest(hand, troupe)
    bs, bl = -1, -1
    for s in range(4):
        ln = popcount(side & suit_mask(s))
        if ln >= bl and ln > 0:
            bl, bs = ln, s
    return lowest(side & suit_mask(bs))


@njit(cache=True, _nrt=False)
def card_decide(p, hand, pub, seat, score, rng):
    """The card (or ``COLLECT``) of ``seat`` to move; a Renonce only from a bluffing policy.
    :func:`card_decide_k` with the round's knowledge replayed from ``pub``."""
    played, voids, proven = knowledge(pub, 0)
    return card_decide_k(p, hand, pub, seat, score, rng, played, voids, proven)


@njit(cache=True, _nrt=False)
def card_decide_k(p, hand, pub, seat, score, rng, played, voids, proven):
    """:func:`card_decide` given the whole round's knowledge (``knowledge(pub, 0)``, which the compiled loop
    and the rollouts keep up to date play by play)."""
    if pub[V_DECIDED] != 0:
        return COLLECT
    mode = p[P_MODE]
    lm = legal_cards(hand, pub)
    if mode == MODE_RANDOM:
        return _kth_card(lm, below(rng, popcount(lm)))
    if mode == MODE_GREEDY:
        if _mistake(p, rng):
            return _kth_card(lm, below(rng, popcount(lm)))
        return _greedy_card(hand, pub, lm)
    slip = _mistake(p, rng)
    if slip and p[P_UNIFORM] > 0.0:
        return _kth_card(lm, below(rng, popcount(lm)))
    if popcount(lm) == 1 and p[P_BLUFF] == BLUFF_NONE:
        return lowest(lm)
    seen, seen_voids, _ = _remembered(p, pub, played, voids, proven)
    gone = hand | seen
    if p[P_INFER] <= 0.0:
        seen_voids = 0
    n = pub[V_N_TABLE]
    if n == 0 or n == 4:
        c = _lead_card(p, hand, pub, seat, gone, seen_voids)
    else:
        c = _bluff_card(p, hand, pub, seat, score, lm, played, voids, proven)
        if c < 0:
            c = _follow_card(p, hand, pub, seat, lm, gone, seen_voids, score)
    if not slip:
        return c
    # priced with at least the round's fallen honours remembered (a slip is a near miss of a sensible card)
    return _slip_card(hand, pub, seat, lm, c, gone | (played & HONOURS), seen_voids, p[P_TEMP], rng)


@njit(cache=True, _nrt=False)
def _keep_value(c, hand, troupe, gone):
    """Tricks the policy expects card ``c`` to take later if kept, by what it remembers (``gone``: its hand
    and the cards it remembers): 2♥ and a master 1 (a side master 0.7 while Troupe is out), another
    Troupe 0.6, a guarded second honour 0.4, a guarded third 0.2, else nothing."""
    if c == TWO_HEARTS:
        return 1.0
    s = c // 13
    troupe_out = (suit_mask(troupe) & ~B2H & ~gone) != ZERO
    if _is_master(c, gone):
        return 1.0 if s == troupe or not troupe_out else 0.7
    if s == troupe:
        return 0.6
    above = popcount(suit_mask(s) & ~((bit(c) << ONE) - ONE) & ~gone)
    n = popcount(hand & _follow_mask(s))
    if above == 1 and n >= 2:
        return 0.4
    if above == 2 and n >= 3:
        return 0.2
    return 0.0


@njit(cache=True, _nrt=False)
def _card_value(hand, pub, seat, c, gone, voids):
    """The policy's own rough value of playing ``c`` now, in tricks: the chance that its side takes this
    trick after ``c`` less what ``c`` would take later (:func:`_keep_value`), from what it remembers and
    infers (``gone``, ``voids``). What a mistake's draw prices (:func:`_slip_card`)."""
    troupe = pub[V_TROUPE]
    keep = _keep_value(c, hand, troupe, gone)
    troupe_out = (suit_mask(troupe) & ~B2H & ~gone) != ZERO
    s = c // 13
    master = _is_master(c, gone)
    n, leader, need, w, wp = _table_state(pub)
    nxt = (seat + 3) & 3  # play goes to the right
    if n == 0:
        opp_void = _is_void(voids, nxt, s) or _is_void(voids, (seat + 1) & 3, s)
        if c != TWO_HEARTS and s != troupe and troupe_out and opp_void:
            win = 0.1
        elif master:
            win = 0.95 if s == troupe or c == TWO_HEARTS else 0.9
        else:
            win = 0.4 if popcount(suit_mask(s) & ~((bit(c) << ONE) - ONE) & ~gone) == 1 else 0.3
        return win - keep
    over = n < 3 and troupe_out and _is_void(voids, nxt, need)
    t = pub[V_TRICK]
    wc = pub[V_PLAYS + 4 * t + w]
    if _strength(c, troupe, need) > wp:
        if n == 3 or c == TWO_HEARTS:
            hold = 1.0
        elif s == troupe:
            hold = 0.95 if master else (0.5 if over and need != troupe else 0.75)
        elif master:
            hold = 0.3 if over else 0.9
        else:
            hold = 0.5 if n == 2 else 0.4
    else:
        hold = -1.0
    if _seat_at(leader, w) == (seat + 2) & 3:
        psure = n == 3 or wc == TWO_HEARTS or (_is_master(wc, gone) and not (wc // 13 != troupe and over))
        pwin = 1.0 if psure else 0.6
        win = pwin if hold < pwin else hold
    elif hold >= 0.0:
        win = hold
    else:
        win = 0.35 if n == 1 else 0.0
    return win - keep


@njit(cache=True, _nrt=False)
def _slip_card(hand, pub, seat, lm, chosen, gone, voids, temperature, rng):
    """A mistake's card: another rule-following card than the policy's ``chosen`` one, drawn by
    ``bits.mistake_pick`` over what each costs by the policy's own evaluation: how far its value
    (:func:`_card_value`) falls below the meant card's, plus a small distance from ``chosen`` (an unseen
    card between the two in a suit 1/8 trick each, up to 2; another suit or 2♥ 0.1 and 0.025 a rank above
    ``chosen``'s). A card valued above the meant one is never drawn (a mistake never plays what the bot
    itself would call better); ``chosen`` when no other card is left."""
    base = _card_value(hand, pub, seat, chosen, gone, voids)  # the meant card's value
    costs = ZERO
    n = 0
    x = lm
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        q = SLIP_NONE
        cost = base - _card_value(hand, pub, seat, c, gone, voids) if c != chosen else -1.0
        if cost >= 0.0:
            if c // 13 == chosen // 13 and c != TWO_HEARTS and chosen != TWO_HEARTS:
                lo, hi = (c, chosen) if c < chosen else (chosen, c)
                between = popcount((((bit(hi) - ONE) >> np.uint64(lo + 1)) << np.uint64(lo + 1)) & ~gone & ~B2H)
                cost += 0.125 * (between if between < 2 else 2)
            else:  # another suit: a card of about the same rank is the likelier slip
                cost += 0.1 + 0.025 * max(0, c % 13 - chosen % 13)
            q = slip_step(cost)
        costs |= np.uint64(q) << np.uint64(4 * n)
        n += 1
    i = mistake_pick(rng, costs, n, temperature)
    return chosen if i < 0 else _kth_card(lm, i)


@njit(cache=True, _nrt=False)
def random_mover_action(hand, pub, seat, rng):
    """RANDOM to move: a uniformly random action of the rules' ``legal_actions_for`` list (cards or
    ``COLLECT``, then its own accusations, ascending: by accused seat, each of which has at most one card
    on the table)."""
    n = pub[V_N_TABLE]
    lm = legal_cards(hand, pub)
    k = 1 if pub[V_DECIDED] != 0 else popcount(lm)
    t = pub[V_TRICK]
    leader = pub[V_LEADERS + t]
    n_acc = 0
    for j in range(n):
        if (_seat_at(leader, j) & 1) != (seat & 1):
            n_acc += 1
    i = below(rng, k + n_acc)
    if i < k:
        return COLLECT if pub[V_DECIDED] != 0 else _kth_card(lm, i)
    i -= k
    for acc in range(4):
        if (acc & 1) == (seat & 1):
            continue
        for j in range(n):
            if _seat_at(leader, j) == acc:
                if i == 0:
                    return ACCUSE + (acc * 4 + seat) * 52 + pub[V_PLAYS + 4 * t + j]
                i -= 1
    return -1


# --- the whole-round loop ------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def _apply(hands, st, a):
    if a >= ACCUSE:
        x = a - ACCUSE
        K.accuse(st, (x // 52) % 4, x % 52)
    elif a == COLLECT:
        K.collect(st)
    else:
        K.play_card(hands, st, a)


@njit(cache=True, _nrt=False)
def play_round(px, py, x_side, hands, st, caller, deck, chance, seed, table, actions, score, drng):
    """Play one round from the deal in ``hands`` (the caller's first five are ``deck[0:5]``, ``chance`` the
    round's chance RNG for redeals): policy ``px`` at the seats of parity ``x_side``, ``py`` at the others;
    writes every action into ``actions`` and returns how many. ``drng``: a work RNG array for the
    decisions."""
    na = 0
    redeals = 0
    while True:  # Troupe or a redeal
        five = ZERO
        for i in range(5):
            five |= bit(deck[i])
        may = redeals < 2 and K.first_five_may_redeal(deck, caller)
        drng[0] = mix_seed3(seed, table, np.uint64(na))
        a = troupe_decide(px if (caller & 1) == x_side else py, five, may, drng)
        actions[na] = a
        na += 1
        if a == REDEAL:
            K.deal(chance, deck, caller, hands)
            redeals += 1
            continue
        K.init_round(st, a - TROUPE_BASE, caller)
        break
    acc_x = px[P_MODE] == MODE_HEURISTIC and px[P_DETECT] != 0.0  # policies that ever accuse
    acc_y = py[P_MODE] == MODE_HEURISTIC and py[P_DETECT] != 0.0
    # proof-only accusers (no suspicion) skip the question when no opponent on the table is proven
    proofs_x = acc_x and px[P_SUSPICION] == 0.0
    proofs_y = acc_y and py[P_SUSPICION] == 0.0
    played, voids, proven = ZERO, 0, 0  # knowledge(st, 0), kept up to date play by play
    while st[K.OVER] == 0:
        mover = st[K.TO_MOVE]
        a = -1
        ask = (acc_x or acc_y) and st[K.N_TABLE] > 0
        quiet = _no_proof_on_table(st, proven) if ask else 0
        if ask:  # out-of-turn seats first, in seat order
            for s in range(4):
                if s == mover or not (acc_x if (s & 1) == x_side else acc_y):
                    continue
                if (proofs_x if (s & 1) == x_side else proofs_y) and (quiet >> (s & 1)) & 1:
                    continue
                a = accuse_decide_k(px if (s & 1) == x_side else py, hands[s], st, s, played, voids, proven)
                if a >= 0:
                    break
        if a < 0:
            p = px if (mover & 1) == x_side else py
            drng[0] = mix_seed3(seed, table, np.uint64(na))
            if p[P_MODE] == MODE_RANDOM:
                a = random_mover_action(hands[mover], st, mover, drng)
            else:
                if not ((proofs_x if (mover & 1) == x_side else proofs_y) and (quiet >> (mover & 1)) & 1):
                    a = accuse_decide_k(p, hands[mover], st, mover, played, voids, proven)
                if a < 0:
                    a = card_decide_k(p, hands[mover], st, mover, score, drng, played, voids, proven)
        _apply(hands, st, a)
        if a < TROUPE_BASE:
            played, voids, proven = _learn_last(st, mover, a, played, voids, proven)
        actions[na] = a
        na += 1
    return na


@njit(cache=True, inline="always")
def _no_proof_on_table(st, proven):
    """Bit ``team`` set when no opponent of ``team`` on the table has a proven Renonce (in the whole round,
    so neither in any remembered part of it): then a policy without suspicion declines
    (:func:`accuse_decide_k`), whatever its memory and whatever the round is worth."""
    t = st[K.TRICK]
    leader = st[K.LEADERS + t]
    on_table = 0
    for j in range(st[K.N_TABLE]):
        on_table |= 1 << _seat_at(leader, j)
    pt = proven & on_table
    return (1 if (pt & OTHER_SEATS[0]) == 0 else 0) | (2 if (pt & OTHER_SEATS[1]) == 0 else 0)


@njit(cache=True, inline="always")
def _learn_last(st, seat, c, played, voids, proven):
    """:func:`_learn` for card ``c`` just played by ``seat`` (the last play in ``st``)."""
    t = st[K.TRICK]
    return _learn(st[K.TROUPE], st[K.PLAYS + 4 * t], st[K.N_TABLE] - 1, seat, c, played, voids, proven)


@njit(cache=True)
def play_rounds_kernel(seeds, table, px, py, returns, actions, n_actions):
    """The first round of a match from each board seed (``Satat.new_deal(seed)``: the draw, the deal),
    team X (``px``) bottom/top at table 0 and right/left at table 1; returns team A/B points."""
    deck = np.empty(52, np.int64)
    log = np.empty((32, 4), np.int64)
    hands = np.empty(4, np.uint64)
    st = np.empty(K.ST_SIZE, np.int64)
    rng = np.zeros(1, np.uint64)
    drng = np.zeros(1, np.uint64)
    score = (np.int64(0), np.int64(0))  # a match's first round: 0-0
    for b in range(seeds.shape[0]):
        rng[0] = seeds[b]
        caller, _ = K.draw_caller(rng, deck, log)
        K.deal(rng, deck, caller, hands)
        n_actions[b] = play_round(
            px, py, table, hands, st, caller, deck, rng, seeds[b], np.uint64(table), actions[b], score, drng
        )
        returns[b, 0] = st[K.POINTS_A]
        returns[b, 1] = st[K.POINTS_B]


@njit(cache=True, _nrt=False)
def rollout(p, hands, st, score, rng):
    """Play a world's round to its end with policy ``p`` at every seat (no accusations, the deciding trick
    collected): the rollout of the search bots. Returns team A's points minus team B's."""
    played, voids, proven = knowledge(st, 0)
    while st[K.OVER] == 0:
        if st[K.DECIDED] != 0:
            K.collect(st)
            break
        mover = st[K.TO_MOVE]
        c = card_decide_k(p, hands[mover], st, mover, score, rng, played, voids, proven)
        K.play_card(hands, st, c)
        played, voids, proven = _learn_last(st, mover, c, played, voids, proven)
    return st[K.POINTS_A] - st[K.POINTS_B]


@njit(cache=True)
def rollout_scores(p, hands, st, score, cards, reps, team, rng, out):
    """For each card of ``cards`` (the seat to move's): the mean points margin of ``team`` over ``reps``
    rollouts after playing it, plus a tenth of the tricks margin as a tie-break."""
    h2 = np.empty(4, np.uint64)
    s2 = np.empty(st.shape[0], np.int64)
    for i in range(cards.shape[0]):
        tot = 0.0
        for _ in range(reps):
            for s in range(4):
                h2[s] = hands[s]
            for j in range(st.shape[0]):
                s2[j] = st[j]
            K.play_card(h2, s2, cards[i])
            m = rollout(p, h2, s2, score, rng)
            tricks = s2[K.WON_A] - s2[K.WON_B]
            v = m + 0.1 * tricks
            tot += v if team == 0 else -v
        out[i] = tot / reps
