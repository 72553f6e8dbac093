"""Compiled kernels for counter-clockwise 52-card trick play, shared by Feskot and Tekka.

The trick rules (legal cards, trick winner, next seat) come from ``_trickcore`` with ``PRIME_RULES``,
the same functions that Satat's kernels and the double-dummy solver call.

Everything that decides a rule at play time is here, as module-level ``@njit(cache=True)`` functions
over fixed-shape numpy arrays; ``feskot.py`` and ``tekka.py`` validate input and call these, and the
whole-deal random kernels (``feskot_random``, ``random_deals``) never return to Python per card. The
pure-Python twin is ``tekkasim.rulesets.trick52.reference``.

Actions (ints, sorted in this order by ``legal_actions``)
---------------------------------------------------------
* ``0..51``      a card, no signal; ``card + 52 * signal`` with signal 1 = slam, 2 = drop (``52..155``).
* ``156 + suit``  the Prime choice (``PRIME_BASE``).
* ``160 + code``  a Tekka call (``CALL_BASE``): code 0 = pass, 8..13 = that target, 14 = Double 13.
* ``180 + code``  a Tekka raise request by the declarer (``RAISE_BASE``): code 9..13 or 14 = D13.
* ``196`` / ``197`` accept / reject a pending raise (``ACCEPT``, ``REJECT``).

Deal layout
-----------
``deal_deck(deck, first, packets, dealt)`` deals a 52-card ``deck`` from its first element: with
``packets`` (Feskot) 5 cards to each seat counter-clockwise from ``first``, then 4 each, then 4 each;
without (Tekka) 13 consecutive cards to ``first``, the next 13 to the next seat counter-clockwise, and so
on. ``dealt[seat]`` holds the seat's cards in the order received. A seeded deal is ``deck = 0..51`` put
through ``bits.shuffle`` with ``new_rng(seed)``; the same RNG then goes on to drive random play.

State arrays (``Arrays``, one deal, pgx-style)
---------------------------------------------
=========  ================  ==========================================================================
field      shape, dtype      meaning
=========  ================  ==========================================================================
hand       (4,) uint64       cards each seat still holds (all 13 from the deal on; observations hide)
dealt      (4, 13) int64     each seat's cards in the order dealt
plays      (13, 4) int64     card of the j-th play of trick t (play order from the leader), -1 = none yet
signal     (13, 4) int64     signal of that play: 0 none, 1 slam, 2 drop
leader     (13,) int64       seat that led trick t, -1 before its first play
winner     (13,) int64       seat that won trick t, -1 until the trick is complete
info       (N_INFO,) int64   scalars, indexed by the ``I_*`` constants below
=========  ================  ==========================================================================

``info`` fields: ``I_RULESET`` (0 feskot, 1 tekka), ``I_PHASE`` (``PH_*``), ``I_TO_MOVE`` (seat or -1),
``I_FIRST`` (first-dealt / first-asked seat), ``I_PRIME`` (suit or -1), ``I_TRICK`` (tricks completed =
index of the current trick), ``I_PLAY`` (plays made in the current trick), ``I_TEAM_TRICKS + team``,
``I_SEAT_TRICKS + seat``, ``I_VOIDS + seat`` (bitmask of suits the seat showed void in by not following),
``I_PLAY_ALL`` (1 = play all 13 tricks: Feskot ``play_out`` or a record that plays on past the decision),
``I_DECIDED`` (1 once the deal's result can no longer change), ``I_DECLARER``/``I_TARGET`` (8..13 or
14 = D13)/``I_MANDATORY`` (Tekka contract; Feskot leaves them -1/0/0), ``I_RAISES`` (option on),
``I_RAISED`` (the declarer already asked for a raise in this turn), ``I_PENDING`` (target code of a raise
awaiting its answer, 0 none), ``I_N_CALLS`` and ``I_CALLS + i`` (auction call codes in turn order),
``I_HIGH``/``I_HIGH_SEAT`` (standing high call), ``I_SIGNALS`` (option on).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from tekkasim.bits import ONE, ZERO, below, bit, kth, lowest, new_rng, popcount, random_card, shuffle
from tekkasim.rules._trickcore import PRIME_RULES, lead_suit_of, legal_mask, next_seat, seat_at, strength, trick_winner

# --- action encoding -------------------------------------------------------------------------------
SIGNAL_MULT = 52
NO_SIGNAL, SLAM, DROP = 0, 1, 2
PRIME_BASE = 156
CALL_BASE = 160
PASS = 0  # call code
D13 = 14  # call / target code of Double 13
RAISE_BASE = 180
ACCEPT = 196
REJECT = 197

# --- phases and rulesets ---------------------------------------------------------------------------
PH_AUCTION, PH_PRIME, PH_PLAY, PH_RAISE, PH_TERMINAL = 0, 1, 2, 3, 4
PHASE_NAMES = ("auction", "prime", "play", "raise", "terminal")
FESKOT, TEKKA = 0, 1

# --- info indexes ----------------------------------------------------------------------------------
I_RULESET = 0
I_PHASE = 1
I_TO_MOVE = 2
I_FIRST = 3
I_PRIME = 4
I_TRICK = 5
I_PLAY = 6
I_TEAM_TRICKS = 7  # 7, 8
I_SEAT_TRICKS = 9  # 9..12
I_VOIDS = 13  # 13..16
I_PLAY_ALL = 17
I_DECIDED = 18
I_DECLARER = 19
I_TARGET = 20
I_MANDATORY = 21
I_RAISES = 22
I_RAISED = 23
I_PENDING = 24
I_N_CALLS = 25
I_CALLS = 26  # 26..29
I_HIGH = 30
I_HIGH_SEAT = 31
I_SIGNALS = 32
N_INFO = 33

MAX_ACTIONS = 64  # upper bound on the number of legal actions in any state (13 cards + 6 raises)


class Arrays(NamedTuple):
    """The fixed-shape arrays of one deal (see the module docstring for every field)."""

    hand: np.ndarray
    dealt: np.ndarray
    plays: np.ndarray
    signal: np.ndarray
    leader: np.ndarray
    winner: np.ndarray
    info: np.ndarray

    def copy(self) -> Arrays:
        return Arrays(*(a.copy() for a in self))


def new_arrays() -> Arrays:
    """Empty arrays (no cards, nothing played)."""
    info = np.zeros(N_INFO, np.int64)
    return Arrays(
        hand=np.zeros(4, np.uint64),
        dealt=np.full((4, 13), -1, np.int64),
        plays=np.full((13, 4), -1, np.int64),
        signal=np.zeros((13, 4), np.int64),
        leader=np.full(13, -1, np.int64),
        winner=np.full(13, -1, np.int64),
        info=info,
    )


# --- dealing ---------------------------------------------------------------------------------------


@njit(cache=True)
def deal_deck(deck, first, packets, dealt):
    """Deal ``deck`` (52 ints) into ``dealt[seat, i]``: packets 5/4/4 counter-clockwise from ``first`` when
    ``packets`` is true (Feskot), else 13 consecutive cards per seat from ``first`` (Tekka)."""
    pos = 0
    if packets:
        for start, size in ((0, 5), (5, 4), (9, 4)):
            for i in range(4):
                seat = seat_at(first, i, PRIME_RULES)
                for k in range(size):
                    dealt[seat, start + k] = deck[pos]
                    pos += 1
    else:
        for i in range(4):
            seat = seat_at(first, i, PRIME_RULES)
            for k in range(13):
                dealt[seat, k] = deck[pos]
                pos += 1


@njit(cache=True)
def shuffled_deck(rng, deck):
    """Fill ``deck`` with 0..51 and shuffle it with ``bits.shuffle`` (the seeded deal)."""
    for i in range(52):
        deck[i] = i
    shuffle(rng, deck)


@njit(cache=True)
def cut_point(rng):
    """Where the ``deal="cut"`` deck is cut: uniform in 1..51 (a cut moves at least one card)."""
    return 1 + below(rng, 51)


# --- trick rules -----------------------------------------------------------------------------------


# The trick rules themselves (legal cards, winner, next seat) are ``_trickcore``'s, with PRIME_RULES.


@njit(cache=True, inline="always")
def card_power(c, led, prime):
    """How strongly card ``c`` bids for a trick led in suit ``led``: -1 cannot win, else the higher wins
    (``_trickcore.strength`` - 1, kept for the bots' kernels)."""
    return strength(c, prime, led, PRIME_RULES) - 1


@njit(cache=True, inline="always")
def tekka_decided(info):
    """True once the Tekka contract is made or failed, whatever the remaining tricks bring."""
    declarer = info[I_DECLARER]
    target = info[I_TARGET]
    done = info[I_TRICK]
    if target == D13:
        return info[I_SEAT_TRICKS + declarer] < done or done == 13
    team = declarer & 1
    ours = info[I_TEAM_TRICKS + team]
    theirs = info[I_TEAM_TRICKS + 1 - team]
    return ours >= target or theirs > 13 - target


@njit(cache=True, inline="always")
def decided(info):
    """True once the deal's result can no longer change (Feskot: a team has 7 tricks)."""
    if info[I_RULESET] == FESKOT:
        return info[I_TEAM_TRICKS] >= 7 or info[I_TEAM_TRICKS + 1] >= 7
    return tekka_decided(info)


@njit(cache=True, inline="always")
def tekka_score(info):
    """``(made, points A, points B)`` of a Tekka contract from the tricks won so far."""
    declarer = info[I_DECLARER]
    target = info[I_TARGET]
    team = declarer & 1
    if target == D13:
        made = info[I_SEAT_TRICKS + declarer] == 13
        gain = 26 if made else 52
    else:
        made = info[I_TEAM_TRICKS + team] >= target
        if made:
            gain = target
        elif info[I_MANDATORY] == 1:
            gain = 8
        else:
            gain = 2 * target
    scorer = team if made else 1 - team
    a = gain if scorer == 0 else 0
    b = gain if scorer == 1 else 0
    return made, a, b


# --- state transitions (the caller has checked legality) ------------------------------------------


@njit(cache=True)
def init_deal(d, ruleset, first, play_all, raises, signals):
    """Reset everything but ``d.dealt`` and start the deal: hands from ``dealt``, first phase and seat."""
    info = d.info
    for i in range(N_INFO):
        info[i] = 0
    for seat in range(4):
        h = ZERO
        for k in range(13):
            h |= bit(d.dealt[seat, k])
        d.hand[seat] = h
    for t in range(13):
        d.leader[t] = -1
        d.winner[t] = -1
        for j in range(4):
            d.plays[t, j] = -1
            d.signal[t, j] = 0
    info[I_RULESET] = ruleset
    info[I_FIRST] = first
    info[I_PRIME] = -1
    info[I_PLAY_ALL] = play_all
    info[I_RAISES] = raises
    info[I_SIGNALS] = signals
    info[I_TO_MOVE] = first
    info[I_HIGH_SEAT] = -1
    for i in range(4):
        info[I_CALLS + i] = -1
    if ruleset == FESKOT:
        info[I_PHASE] = PH_PRIME
        info[I_DECLARER] = -1
        info[I_TARGET] = 0
    else:
        info[I_PHASE] = PH_AUCTION
        info[I_DECLARER] = -1


@njit(cache=True, inline="always")
def _settle(info):
    """After a trick or an accepted raise: note a decision and end the deal if it is over."""
    if decided(info):
        info[I_DECIDED] = 1
    if info[I_TRICK] == 13 or (info[I_DECIDED] == 1 and info[I_PLAY_ALL] == 0):
        info[I_PHASE] = PH_TERMINAL
        info[I_TO_MOVE] = -1


@njit(cache=True, inline="always")
def apply_card(d, c, signal):
    """The player to move plays card ``c`` with ``signal``."""
    info = d.info
    seat = info[I_TO_MOVE]
    t = info[I_TRICK]
    j = info[I_PLAY]
    d.hand[seat] &= ~bit(c)
    d.plays[t, j] = c
    d.signal[t, j] = signal
    info[I_RAISED] = 0
    if j == 0:
        d.leader[t] = seat
    else:
        led = d.plays[t, 0] // 13
        if c // 13 != led:
            info[I_VOIDS + seat] |= 1 << led
    if j < 3:
        info[I_PLAY] = j + 1
        info[I_TO_MOVE] = next_seat(seat, PRIME_RULES)
        return
    p = d.plays[t]
    w = trick_winner(p[0], p[1], p[2], p[3], d.leader[t], info[I_PRIME], PRIME_RULES)
    d.winner[t] = w
    info[I_TEAM_TRICKS + (w & 1)] += 1
    info[I_SEAT_TRICKS + w] += 1
    info[I_TRICK] = t + 1
    info[I_PLAY] = 0
    info[I_TO_MOVE] = w
    _settle(info)


@njit(cache=True, inline="always")
def apply_prime(d, suit):
    info = d.info
    info[I_PRIME] = suit
    info[I_PHASE] = PH_PLAY
    leader = info[I_TO_MOVE]
    d.leader[0] = leader


@njit(cache=True, inline="always")
def apply_call(d, code):
    """A Tekka call: 0 pass, 8..13, 14 = D13 (which any later seat may call again and then holds)."""
    info = d.info
    seat = info[I_TO_MOVE]
    n = info[I_N_CALLS]
    info[I_CALLS + n] = code
    if code != PASS and (code == D13 or code > info[I_HIGH]):
        info[I_HIGH] = code
        info[I_HIGH_SEAT] = seat
    info[I_N_CALLS] = n + 1
    if n + 1 < 4:
        info[I_TO_MOVE] = next_seat(seat, PRIME_RULES)
        return
    if info[I_HIGH] == PASS:  # all passed: mandatory 8 for the first-asked seat
        info[I_DECLARER] = info[I_FIRST]
        info[I_TARGET] = 8
        info[I_MANDATORY] = 1
    else:
        info[I_DECLARER] = info[I_HIGH_SEAT]
        info[I_TARGET] = info[I_HIGH]
    info[I_PHASE] = PH_PRIME
    info[I_TO_MOVE] = info[I_DECLARER]


@njit(cache=True, inline="always")
def apply_raise_request(d, code):
    info = d.info
    info[I_PENDING] = code
    info[I_RAISED] = 1
    info[I_PHASE] = PH_RAISE
    info[I_TO_MOVE] = next_seat(info[I_DECLARER], PRIME_RULES)  # the next opponent in play order


@njit(cache=True, inline="always")
def apply_raise_answer(d, accept):
    info = d.info
    if accept:
        info[I_TARGET] = info[I_PENDING]
        info[I_MANDATORY] = 0
    info[I_PENDING] = 0
    info[I_PHASE] = PH_PLAY
    info[I_TO_MOVE] = info[I_DECLARER]
    if accept:
        _settle(info)  # a raise can fail at once (D13 after a trick lost)


@njit(cache=True, inline="always")
def apply_action(d, a):
    """Apply any action (assumed legal) for the player to move."""
    if a < PRIME_BASE:
        apply_card(d, a % 52, a // 52)
    elif a < CALL_BASE:
        apply_prime(d, a - PRIME_BASE)
    elif a < RAISE_BASE:
        apply_call(d, a - CALL_BASE)
    elif a < ACCEPT:
        apply_raise_request(d, a - RAISE_BASE)
    else:
        apply_raise_answer(d, a == ACCEPT)


@njit(cache=True, inline="always")
def current_legal_mask(d):
    """The cards the player to move may play (phase ``play`` only)."""
    info = d.info
    pos = info[I_PLAY]
    led = -1
    if pos > 0:
        led = lead_suit_of(d.plays[info[I_TRICK], 0], info[I_PRIME], PRIME_RULES)
    return legal_mask(d.hand[info[I_TO_MOVE]], pos, led, PRIME_RULES)


@njit(cache=True, inline="always")
def n_raises(info):
    """How many raise requests the player to move may make now (0 unless the declarer on its turn)."""
    if (
        info[I_RAISES] == 1
        and info[I_TO_MOVE] == info[I_DECLARER]
        and info[I_RAISED] == 0
        and info[I_DECIDED] == 0
        and info[I_TARGET] != D13
    ):
        return 14 - max(info[I_TARGET] + 1, 9) + 1  # the targets above the contract, then D13
    return 0


@njit(cache=True)
def legal_actions(d, out):
    """Write the legal actions (sorted, plain cards without signals) into ``out``; return how many."""
    info = d.info
    phase = info[I_PHASE]
    n = 0
    if phase == PH_PLAY:
        m = current_legal_mask(d)
        while m != ZERO:
            out[n] = lowest(m)
            n += 1
            m &= m - ONE
        if n_raises(info) > 0:
            for code in range(max(info[I_TARGET] + 1, 9), 14):
                out[n] = RAISE_BASE + code
                n += 1
            out[n] = RAISE_BASE + D13
            n += 1
    elif phase == PH_PRIME:
        for s in range(4):
            out[n] = PRIME_BASE + s
            n += 1
    elif phase == PH_AUCTION:
        out[n] = CALL_BASE + PASS
        n += 1
        high = info[I_HIGH]
        if high != D13:
            for code in range(max(high + 1, 8), 14):
                out[n] = CALL_BASE + code
                n += 1
        out[n] = CALL_BASE + D13
        n += 1
    elif phase == PH_RAISE:
        out[0] = ACCEPT
        out[1] = REJECT
        n = 2
    return n


@njit(cache=True, inline="always")
def random_action(d, rng, buf):
    """A uniformly random legal action: index ``below(rng, n)`` into the sorted legal list. In play the
    list is the legal cards (ascending) then the raise requests, so the index is read off the card mask
    directly (the same draw, without building the list)."""
    info = d.info
    if info[I_PHASE] == PH_PLAY:
        m = current_legal_mask(d)
        nc = popcount(m)
        nr = n_raises(info)
        i = below(rng, nc + nr)
        if i < nc:
            return kth(m, i)
        return RAISE_BASE + (D13 if i == nc + nr - 1 else max(info[I_TARGET] + 1, 9) + i - nc)
    n = legal_actions(d, buf)
    return buf[below(rng, n)]


@njit(cache=True)
def rollout(d, rng):
    """Play the deal in ``d`` to its end with uniformly random legal actions (no signals), in place.

    Works from any phase (auction, prime, raise answer, play). The RNG is advanced in place.
    """
    buf = np.empty(MAX_ACTIONS, np.int64)
    while d.info[I_PHASE] != PH_TERMINAL:
        apply_action(d, random_action(d, rng, buf))


# --- whole-deal random kernels ---------------------------------------------------------------------


@njit(cache=True)
def feskot_random(n, seed, first, play_all, tricks_out, prime_out, n_tricks_out):
    """``n`` random Feskot deals (deal i from seed ``seed + i``): shuffle, packets, random Prime, uniformly
    random legal cards until a team has 7 tricks (or all 13 with ``play_all``).

    The lean twin of ``init_deal`` + ``rollout`` (same RNG draws, so the same outcomes), kept in local
    integers for speed. Writes team tricks, Prime and tricks played per deal.
    """
    deck = np.empty(52, np.int64)
    rng = np.empty(1, np.uint64)
    hands = np.empty(4, np.uint64)
    for d in range(n):
        rng[0] = seed + np.uint64(d)
        shuffled_deck(rng, deck)
        pos = 0
        for i in range(4):
            hands[i] = ZERO
        for size in (5, 4, 4):
            for i in range(4):
                seat = (first + i) & 3
                h = hands[seat]
                for _ in range(size):
                    h |= ONE << np.uint64(deck[pos])
                    pos += 1
                hands[seat] = h
        prime = below(rng, 4)
        leader = first
        won_a = 0
        won_b = 0
        t = 0
        while t < 13:
            seat = leader
            led = -1
            best_power = -1
            best_seat = leader
            for j in range(4):
                h = hands[seat]
                c = random_card(rng, legal_mask(h, j, led, PRIME_RULES))
                hands[seat] = h ^ (ONE << np.uint64(c))
                if j == 0:
                    led = lead_suit_of(c, prime, PRIME_RULES)
                p = strength(c, prime, led, PRIME_RULES)
                if p > best_power:
                    best_power = p
                    best_seat = seat
                seat = next_seat(seat, PRIME_RULES)
            if best_seat & 1:
                won_b += 1
            else:
                won_a += 1
            leader = best_seat
            t += 1
            if play_all == 0 and (won_a == 7 or won_b == 7):
                break
        tricks_out[d, 0] = won_a
        tricks_out[d, 1] = won_b
        prime_out[d] = prime
        n_tricks_out[d] = t


@njit(cache=True)
def seeded_deal(d, seed, ruleset, first, play_all, raises, signals, rng, deck):
    """Shuffle from ``seed`` (``rng`` is reset to it and left after the shuffle) and start the deal."""
    rng[0] = seed
    shuffled_deck(rng, deck)
    deal_deck(deck, first, ruleset == FESKOT, d.dealt)
    init_deal(d, ruleset, first, play_all, raises, signals)


@njit(cache=True)
def random_deals(d, n, seed, ruleset, first, play_all, raises, out_info):
    """``n`` random deals through ``seeded_deal`` + ``rollout`` (deal i from ``seed + i``); row i of
    ``out_info`` gets the final ``info`` array of deal i. Used for Tekka and to cross-check
    ``feskot_random``."""
    rng = np.empty(1, np.uint64)
    deck = np.empty(52, np.int64)
    for i in range(n):
        seeded_deal(d, seed + np.uint64(i), ruleset, first, play_all, raises, 0, rng, deck)
        rollout(d, rng)
        for k in range(N_INFO):
            out_info[i, k] = d.info[k]


def seed_u64(seed: int) -> np.uint64:
    """A Python seed as the kernels' uint64 (mod 2**64, as ``bits.new_rng``)."""
    return np.uint64(int(new_rng(seed)[0]))


@njit(cache=True)
def tekka_scores(infos, made_out, score_out):
    """``tekka_score`` of each row of ``infos`` (final ``info`` arrays of Tekka deals)."""
    for i in range(infos.shape[0]):
        made, a, b = tekka_score(infos[i])
        made_out[i] = made
        score_out[i, 0] = a
        score_out[i, 1] = b


@njit(cache=True)
def played_by_seat(d, out):
    """``out[seat]`` = mask of the cards ``seat`` has played; returns the mask of every played card."""
    for s in range(4):
        out[s] = ZERO
    for t in range(13):
        leader = d.leader[t]
        for j in range(4):
            c = d.plays[t, j]
            if c >= 0:
                out[(leader + j) & 3] |= bit(c)
    return out[0] | out[1] | out[2] | out[3]


@njit(cache=True)
def seen_by(d, seat):
    """The cards ``seat`` sees in its own hand: its first five in Feskot before Prime, else its hand."""
    if d.info[I_RULESET] == FESKOT and d.info[I_PRIME] < 0:
        m = ZERO
        for i in range(5):
            m |= bit(d.dealt[seat, i])
        return m
    return d.hand[seat]


@njit(cache=True)
def hidden_places(d, seat, pool, slot_seat):
    """The cards ``seat`` cannot see, ascending, into ``pool``, and the seat of each hidden place into
    ``slot_seat`` (seats ascending, each as many places as it has hidden cards: another seat's unplayed
    cards, and in Feskot before Prime the seat's own last eight); returns their number.

    Both depend only on ``seat``'s observation (its own cards, the played cards, hand sizes), never on
    where the hidden cards really lie, so that a determinization cannot peek."""
    played = ZERO
    for t in range(13):
        for j in range(4):
            if d.plays[t, j] >= 0:
                played |= bit(d.plays[t, j])
    seen = seen_by(d, seat)
    n = 0
    for c in range(52):
        if (played | seen) & bit(c) == ZERO:
            pool[n] = c
            n += 1
    m = 0
    for s in range(4):
        k = popcount(d.hand[s]) - popcount(seen) if s == seat else popcount(d.hand[s])
        for _ in range(k):
            slot_seat[m] = s
            m += 1
    return n


@njit(cache=True)
def place_hidden(d, seat, pool, slot_seat, n, rng):
    """Rebuild ``dealt`` and ``hand`` with hidden card ``pool[i]`` given to seat ``slot_seat[i]``.

    Each row of ``dealt`` is that seat's 13 cards (played, held, given) in a uniformly random order (a
    shuffle of the ascending list; the order dealt is hidden from ``seat``), except ``seat``'s own row in
    Feskot before Prime: its first five, ascending, then the eight places it has not seen, in order."""
    played_by = np.empty(4, np.uint64)
    played = played_by_seat(d, played_by)
    seen = seen_by(d, seat)
    before_prime = d.info[I_RULESET] == FESKOT and d.info[I_PRIME] < 0
    row = np.empty(13, np.int64)
    for s in range(4):
        if s == seat and before_prime:
            k = 0
            m = seen
            while m != ZERO:
                row[k] = lowest(m)
                k += 1
                m &= m - ONE
            for i in range(n):
                if slot_seat[i] == s:
                    row[k] = pool[i]
                    k += 1
        else:
            m = played_by[s]
            if s == seat:
                m |= d.hand[s]
            for i in range(n):
                if slot_seat[i] == s:
                    m |= bit(pool[i])
            k = 0
            while m != ZERO:
                row[k] = lowest(m)
                k += 1
                m &= m - ONE
            shuffle(rng, row)
        h = ZERO
        for i in range(13):
            d.dealt[s, i] = row[i]
            h |= bit(row[i])
        d.hand[s] = h & ~played


@njit(cache=True)
def resample_hidden(d, seat, rng, tries):
    """Determinization in place: redeal every card ``seat`` cannot see, uniformly, by rejection.

    The hidden cards (``hidden_places``: ascending, from the observation only) are shuffled into the hidden
    places; a deal that gives a seat a suit it has shown void in is rejected. On success ``place_hidden``
    rebuilds the deal and the result is True; if all ``tries`` failed, False with ``d`` unchanged, for the
    caller's exact fallback. Accepted deals are uniform over the valid ones.
    """
    info = d.info
    pool = np.empty(52, np.int64)
    slot_seat = np.empty(52, np.int64)
    n = hidden_places(d, seat, pool, slot_seat)
    for _ in range(tries):
        for i in range(n - 1, 0, -1):
            j = below(rng, i + 1)
            tmp = pool[i]
            pool[i] = pool[j]
            pool[j] = tmp
        ok = True
        for i in range(n):
            if (info[I_VOIDS + slot_seat[i]] >> (pool[i] // 13)) & 1:
                ok = False
                break
        if ok:
            place_hidden(d, seat, pool, slot_seat, n, rng)
            return True
    return False


__all__ = [
    "ACCEPT",
    "CALL_BASE",
    "D13",
    "DROP",
    "FESKOT",
    "I_CALLS",
    "N_INFO",
    "PASS",
    "PH_AUCTION",
    "PH_PLAY",
    "PH_PRIME",
    "PH_RAISE",
    "PH_TERMINAL",
    "PRIME_BASE",
    "RAISE_BASE",
    "REJECT",
    "SIGNAL_MULT",
    "SLAM",
    "TEKKA",
    "Arrays",
    "apply_action",
    "legal_actions",
    "new_arrays",
    "popcount",
    "resample_hidden",
    "rollout",
    "tekka_score",
    "tekka_scores",
    "trick_winner",
]
