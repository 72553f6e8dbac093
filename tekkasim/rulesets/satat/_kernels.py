"""Compiled Satat kernels: legality, Renonce marking, the exchange, round flow and whole random rounds.
The trick rules (2♥, following, the winner, clockwise play) are ``_trickcore``'s with ``TROUPE_RULES``,
shared with Feskot, Tekka and the solver. Twin: ``tekkasim.rulesets.satat.reference``. Rules and decisions:
``tekkasim.rulesets.satat.game``.

A round in play is two arrays (pgx style), which the Python ``State`` wraps and a compiled bot may use:

* ``hands``: ``uint64[4]``, the cards each seat holds now (52-card masks, ``cards.py``).
* ``st``: ``int64[ST_SIZE]``; scalars first, then per-play and per-trick tables:

  ==================  ===========================================================================
  ``st[TROUPE]``      Troupe suit 0..3 (C D H S)
  ``st[TO_MOVE]``     seat to play (the winner to collect while ``DECIDED``), -1 once the round is over
  ``st[TRICK]``       index (0-based) of the trick on the table
  ``st[N_TABLE]``     cards of that trick on the table, 0..4. 4 = complete but still on the table
                      (it is gathered when the next card is led), so an accusation can still be made
  ``st[WON_A/B]``     tricks won by team A / B (a trick accused right after its 4th card counts for nobody)
  ``st[KOT]``         team that won the first 7 tricks (KOT, play goes on), else -1
  ``st[OVER]``        1 when the round has ended
  ``st[DECIDED]``     while the deciding trick is still on the table (the round is decided but not
                      over): its result, 1 seven, 2 KOT, 3 KOT 52; else 0. ``collect`` ends the round
                      with it, ``accuse`` replaces it
  ``st[KIND]``        0 in play, 1 seven, 2 KOT, 3 KOT 52, 4 ended by an accusation
  ``st[POINTS_A/B]``  points of the round
  ``st[RENONCERS]``   bit s set once seat s has committed a Renonce this round
  ``st[ACCUSER]``     seat that accused (-1 none); ``st[ACCUSED_CARD]``; ``st[ACCUSATION_OK]`` (1 correct)
  ``st[PLAYS+i]``     card of play i (trick i // 4, i % 4 after its leader), -1 not yet played
  ``st[RENONCE+i]``   1 if play i was a Renonce
  ``st[LEADERS+t]``   leader of trick t (-1 not started)
  ``st[WINNERS+t]``   winner of trick t (-1 not complete, or accused after its 4th card)
  ==================  ===========================================================================
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tekkasim.bits import ONE, ZERO, below, bit, highest, lowest, popcount, random_card, shuffle, suit_mask
from tekkasim.rules._trickcore import NOT_B2H, TROUPE_RULES, lead_suit_of, next_seat, seat_at, strength, trick_winner
from tekkasim.rules._trickcore import legal_mask as _core_legal_mask

FACES = np.uint64(sum(1 << (s * 13 + r) for s in range(4) for r in (9, 10, 11)))  # J Q K of every suit

NONE, SEVEN, KOT, KOT52, RENONCE = 0, 1, 2, 3, 4

TROUPE, TO_MOVE, TRICK, N_TABLE, WON_A, WON_B, KOT_TEAM, OVER, KIND, POINTS_A, POINTS_B = range(11)
RENONCERS, ACCUSER, ACCUSED_CARD, ACCUSATION_OK, DECIDED = 11, 12, 13, 14, 15
PLAYS = 16
RENONCE_AT = PLAYS + 52
LEADERS = RENONCE_AT + 52
WINNERS = LEADERS + 13
ST_SIZE = WINNERS + 13


@njit(cache=True, inline="always")
def legal_mask(hand, lead, troupe):
    """Rule-following plays from ``hand`` when card ``lead`` was led (-1: this play leads): the Troupe rules
    of ``_trickcore`` (follow the led suit, or Troupe after a 2♥ lead; 2♥ never counts as a heart for
    following and may always be played)."""
    if lead < 0:
        return hand
    return _core_legal_mask(hand, 1, lead_suit_of(lead, troupe, TROUPE_RULES), TROUPE_RULES)


@njit(cache=True)
def renonce_mask(hand, lead, troupe):
    """The held cards whose play now would be a Renonce (the possible plays are all of ``hand``)."""
    return hand & ~legal_mask(hand, lead, troupe)


@njit(cache=True)
def is_renonce(hand, lead, troupe, card):
    """True if playing ``card`` (held) fails to follow when able."""
    return (legal_mask(hand, lead, troupe) >> np.uint64(card)) & ONE == ZERO


@njit(cache=True)
def _rank_major(mask):
    """Reorder a 52-card mask so bit ``rank * 4 + suit`` is set: rank order first, ties C < D < H < S."""
    out = ZERO
    m = mask
    while m:
        c = lowest(m)
        m &= m - ONE
        out |= ONE << np.uint64((c % 13) * 4 + c // 13)
    return out


@njit(cache=True)
def _from_rank_major(i):
    return (i % 4) * 13 + i // 4


@njit(cache=True)
def exchange_gives(hand, troupe, k, losing):
    """Mask of the ``k`` cards a seat gives in the exchange (never 2♥).

    Losing side: highest Troupe first, then highest cards (rank, then suit order). Winning side: lowest
    non-Troupe cards keeping at least one card of each non-Troupe suit held (2♥ does not count as a
    heart), then lowest Troupe, then (never needed for k <= 2) the keep rule is dropped.
    """
    eligible = hand & NOT_B2H
    trumps = eligible & suit_mask(troupe)
    plain = eligible & ~suit_mask(troupe)
    out = ZERO
    n = 0
    if losing:
        while n < k and trumps:
            c = highest(trumps)
            trumps &= ~bit(c)
            out |= bit(c)
            n += 1
        rm = _rank_major(plain)
        while n < k and rm:
            i = highest(rm)
            rm &= ~(ONE << np.uint64(i))
            out |= bit(_from_rank_major(i))
            n += 1
        return out
    rm = _rank_major(plain)
    while n < k and rm:
        i = lowest(rm)
        rm &= rm - ONE
        c = _from_rank_major(i)
        if popcount(plain & ~out & suit_mask(c // 13)) > 1:
            out |= bit(c)
            n += 1
    while n < k and trumps:
        c = lowest(trumps)
        trumps &= trumps - ONE
        out |= bit(c)
        n += 1
    rest = _rank_major(plain & ~out)
    while n < k and rest:
        i = lowest(rest)
        rest &= rest - ONE
        out |= bit(_from_rank_major(i))
        n += 1
    return out


@njit(cache=True)
def draw_value(c):
    """Rank in the draw for the first caller: K high, Q, J, T ... 2, A lowest (2♥ an ordinary 2)."""
    r = c % 13
    return -1 if r == 12 else r


@njit(cache=True)
def draw_caller(rng, deck, log):
    """The draw for the first caller; returns (caller, rounds). Each round the whole deck is back and the
    drawing seats, in seat order, each take a uniformly random card of those left (a partial Fisher-Yates
    from the front: the j-th drawer takes ``deck[j + below(52 - j)]``). ``log[round, seat]`` gets the card
    (-1 not drawing; rounds past ``log.shape[0]`` are not logged)."""
    seats = 15
    rounds = 0
    while True:
        for i in range(52):
            deck[i] = i
        if rounds < log.shape[0]:
            for s in range(4):
                log[rounds, s] = -1
        j, best, tied = 0, -2, 0
        for s in range(4):
            if seats >> s & 1:
                k = j + below(rng, 52 - j)
                c = deck[k]
                deck[k] = deck[j]
                deck[j] = c
                j += 1
                if rounds < log.shape[0]:
                    log[rounds, s] = c
                v = draw_value(c)
                if v > best:
                    best, tied = v, 1 << s
                elif v == best:
                    tied |= 1 << s
        rounds += 1
        if tied & (tied - 1) == 0:
            return lowest(np.uint64(tied)), rounds
        seats = tied


@njit(cache=True)
def deal(rng, deck, caller, hands):
    """Shuffle ``deck`` and deal 5 then 8 to each seat clockwise from the caller (masks into ``hands``).
    Seat ``(caller + 3k) % 4`` gets ``deck[5k:5k+5]`` then ``deck[20+8k:28+8k]``."""
    for i in range(52):
        deck[i] = i
    shuffle(rng, deck)
    for k in range(4):
        seat = seat_at(caller, k, TROUPE_RULES)
        m = ZERO
        for i in range(5):
            m |= bit(deck[5 * k + i])
        for i in range(8):
            m |= bit(deck[20 + 8 * k + i])
        hands[seat] = m


@njit(cache=True)
def first_five_may_redeal(deck, caller):
    """The caller's first five (``deck[0:5]``) hold no J, Q or K."""
    for i in range(5):
        if bit(deck[i]) & FACES:
            return False
    return True


@njit(cache=True)
def init_round(st, troupe, caller):
    """Reset ``st`` for the play of a round: the caller leads trick 1."""
    for i in range(ST_SIZE):
        st[i] = 0
    for i in range(PLAYS, ST_SIZE):
        st[i] = -1
    st[TROUPE] = troupe
    st[TO_MOVE] = caller
    st[KOT_TEAM] = -1
    st[ACCUSER] = -1
    st[ACCUSED_CARD] = -1
    st[ACCUSATION_OK] = -1


@njit(cache=True)
def current_lead(st):
    """The card led to the trick being played, or -1 when the next card leads."""
    n = st[N_TABLE]
    if n == 0 or n == 4:
        return -1
    return st[PLAYS + 4 * st[TRICK]]


@njit(cache=True)
def _end(st, kind, team, points):
    st[OVER] = 1
    st[KIND] = kind
    st[POINTS_A + team] = points
    st[TO_MOVE] = -1


@njit(cache=True)
def play_card(hands, st, card):
    """The seat to move plays ``card`` (held; a Renonce is allowed and marked; never while ``DECIDED``).
    Resolves a full trick and counts it. The trick that decides the round only sets ``st[DECIDED]``: it
    stays on the table, open to accusations, until its winner collects it (``collect``)."""
    seat = st[TO_MOVE]
    troupe = st[TROUPE]
    if st[N_TABLE] == 4:
        st[TRICK] += 1
        st[N_TABLE] = 0
    t = st[TRICK]
    n = st[N_TABLE]
    if n == 0:
        st[LEADERS + t] = seat
        renonce = False
    else:
        renonce = is_renonce(hands[seat], st[PLAYS + 4 * t], troupe, card)
    i = 4 * t + n
    st[PLAYS + i] = card
    if renonce:
        st[RENONCE_AT + i] = 1
        st[RENONCERS] |= 1 << seat
    else:
        st[RENONCE_AT + i] = 0
    hands[seat] &= ~bit(card)
    st[N_TABLE] = n + 1
    if n < 3:
        st[TO_MOVE] = next_seat(seat, TROUPE_RULES)
        return
    b = PLAYS + 4 * t
    winner = trick_winner(st[b], st[b + 1], st[b + 2], st[b + 3], st[LEADERS + t], troupe, TROUPE_RULES)
    st[WINNERS + t] = winner
    team = winner & 1
    st[WON_A + team] += 1
    st[TO_MOVE] = winner
    if st[KOT_TEAM] >= 0:
        if team != st[KOT_TEAM]:
            st[DECIDED] = KOT
        elif t == 12:
            st[DECIDED] = KOT52
    elif st[WON_A + team] == 7:
        if t == 6:  # seven tricks out of the first seven: KOT, play goes on
            st[KOT_TEAM] = team
        else:
            st[DECIDED] = SEVEN


@njit(cache=True)
def collect(st):
    """The winner of the deciding trick collects it (``st[DECIDED]`` set): the round ends with its result,
    1 point for seven tricks, 2 for a KOT broken by that trick, 3 for a KOT 52."""
    kind = st[DECIDED]
    st[DECIDED] = NONE
    if kind == SEVEN:
        _end(st, SEVEN, st[WINNERS + st[TRICK]] & 1, 1)
    else:
        _end(st, kind, st[KOT_TEAM], 2 if kind == KOT else 3)


@njit(cache=True)
def table_seat(st, card):
    """The seat whose ``card`` is on the current table, or -1."""
    t = st[TRICK]
    for j in range(st[N_TABLE]):
        if st[PLAYS + 4 * t + j] == card:
            return seat_at(st[LEADERS + t], j, TROUPE_RULES)
    return -1


@njit(cache=True)
def accuse(st, by, card):
    """``by`` accuses the opponent whose ``card`` is on the table (checked by the caller); the round ends.
    Correct if that opponent has committed a Renonce this round; returns 1 if correct, else 0."""
    accused = table_seat(st, card)
    correct = (st[RENONCERS] >> accused) & 1
    if st[N_TABLE] == 4:  # right after the fourth card: that trick counts for nobody
        t = st[TRICK]
        st[WON_A + (st[WINNERS + t] & 1)] -= 1
        st[WINNERS + t] = -1
    st[ACCUSER] = by
    st[ACCUSED_CARD] = card
    st[ACCUSATION_OK] = correct
    st[DECIDED] = NONE  # an accusation on the deciding trick replaces its result
    _end(st, RENONCE, (by & 1) if correct else 1 - (by & 1), 1)
    return correct


@njit(cache=True)
def random_round(rng, hands, st):
    """Play the round in ``st`` to its end with uniformly random rule-following cards; nobody accuses,
    so the deciding trick is collected at once (no RNG draw for it)."""
    troupe = st[TROUPE]
    while st[OVER] == 0:
        if st[DECIDED] != NONE:
            collect(st)
            break
        seat = st[TO_MOVE]
        play_card(hands, st, random_card(rng, legal_mask(hands[seat], current_lead(st), troupe)))


@njit(cache=True)
def play_random_kernel(seed, tricks, kind, points, caller_out, troupe_out):
    """Deal i from seed + i: the draw, the deal, a random Troupe, random rule-following play.

    The lean twin of ``init_round`` + ``random_round`` (same RNG draws, same outcomes; the tests compare
    both with the reference): no Renonce can occur, so the round lives in local integers, and as nobody
    accuses, the deciding trick is collected implicitly (``end`` is its result).
    """
    rng = np.zeros(1, dtype=np.uint64)
    deck = np.empty(52, dtype=np.int64)
    log = np.empty((0, 4), dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    for i in range(kind.shape[0]):
        rng[0] = seed + np.uint64(i)
        caller, _ = draw_caller(rng, deck, log)
        deal(rng, deck, caller, hands)
        troupe = below(rng, 4)
        leader = caller
        won_a, won_b, kot, t, end = 0, 0, -1, 0, NONE
        while end == NONE:
            seat = leader
            lead = -1
            best_key, best_seat = -1, leader
            for j in range(4):
                h = hands[seat]
                c = random_card(rng, _core_legal_mask(h, j, lead, TROUPE_RULES))
                hands[seat] = h ^ bit(c)
                if j == 0:
                    lead = lead_suit_of(c, troupe, TROUPE_RULES)
                key = strength(c, troupe, lead, TROUPE_RULES)
                if key > best_key:
                    best_key, best_seat = key, seat
                seat = next_seat(seat, TROUPE_RULES)
            team = best_seat & 1
            if team == 0:
                won_a += 1
                won = won_a
            else:
                won_b += 1
                won = won_b
            leader = best_seat
            if kot >= 0:
                if team != kot:
                    end = KOT
                elif t == 12:
                    end = KOT52
            elif won == 7:
                if t == 6:
                    kot = team
                else:
                    end = SEVEN
            t += 1
        scorer = kot if kot >= 0 else team
        gained = 1 if end == SEVEN else (2 if end == KOT else 3)
        tricks[i, 0] = won_a
        tricks[i, 1] = won_b
        kind[i] = end
        points[i, 0] = gained if scorer == 0 else 0
        points[i, 1] = gained if scorer == 1 else 0
        caller_out[i] = caller
        troupe_out[i] = troupe


@njit(cache=True)
def play_random_rounds(seed, tricks, kind, points):
    """The plain composition ``draw_caller`` + ``deal`` + ``init_round`` + ``random_round`` per deal; the
    tests check that ``play_random_kernel`` gives the same outcomes."""
    rng = np.zeros(1, dtype=np.uint64)
    deck = np.empty(52, dtype=np.int64)
    log = np.empty((0, 4), dtype=np.int64)
    hands = np.empty(4, dtype=np.uint64)
    st = np.empty(ST_SIZE, dtype=np.int64)
    for i in range(kind.shape[0]):
        rng[0] = seed + np.uint64(i)
        caller, _ = draw_caller(rng, deck, log)
        deal(rng, deck, caller, hands)
        init_round(st, below(rng, 4), caller)
        random_round(rng, hands, st)
        tricks[i, 0] = st[WON_A]
        tricks[i, 1] = st[WON_B]
        kind[i] = st[KIND]
        points[i, 0] = st[POINTS_A]
        points[i, 1] = st[POINTS_B]
