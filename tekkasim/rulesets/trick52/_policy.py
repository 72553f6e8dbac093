"""Compiled Feskot/Tekka policies: GREEDY, the heuristic family (KADO ... JANGARA) and RANDOM, as
``@njit(cache=True)`` kernels over a compact *policy view*, and a whole-deal loop that plays boards
without returning to Python per card.

The policy view
---------------
A decision is made from two small arrays that hold what the deciding seat has seen, nothing more:

* ``v`` (``N_V`` int64), indexed by the ``V_*`` constants: seat, phase (``_trick52.PH_*``), ruleset,
  trump (-1 before Prime), tricks completed, plays in the current trick and its leader, the current
  trick's cards and signals in play order, the public voids of every seat (``I_VOIDS``: suits shown void
  by not following), per seat the suits it has sent a ``drop`` on and the suit of its latest ``slam`` in
  completed tricks, team and seat tricks, the first seat, the Tekka auction (calls in turn order, high
  call and its seat), contract (declarer, target 8..13 or 14 = D13, mandatory), the pending raise, and
  the options ``raises``/``signals`` with ``V_CANSIG`` (1 when a signalled card would be accepted).
* ``m`` (``N_M`` uint64): ``M_HAND`` the seat's visible hand (Feskot before Prime: its first five),
  ``M_PLAYED`` every card of the completed tricks.

``tekkasim.rulesets.trick52.view`` builds them from an ``Observation`` (the Python path through ``decide``);
``view_from_arrays`` builds the same from a state's ``_trick52.Arrays`` inside the compiled loop, reading
only public fields and the seat's own cards. The ``memory`` parameter then decides how much of the view a
policy uses (``known_played``, ``known_voids``), so the view itself is always complete and identical in
both paths.

Parameters (``p``, float64 ``N_P``, built by ``tekkasim.rulesets.trick52.bots``): ``P_MODE`` (0 heuristic,
1 greedy, 2 random), ``P_MISTAKE``, ``P_MEMORY`` (0 none, 1 trick, 2 high, 3 full), ``P_INFER``,
``P_SIGNALS``, ``P_PARTNER``, ``P_TRUMP``, ``P_EVAL`` (0 count, 1 full), ``P_BID_BIAS``, ``P_RAISES``,
``P_UNBLOCK``, ``P_COUNT``, ``P_TEMP`` (``mistake_temperature``), ``P_UNIFORM`` (``mistake_uniform``).
Their meaning is documented on the bot classes (``heuristic.HeuristicBot``).

Randomness: a decision draws whether it is a mistake with ``bits.mistake`` (a draw of ``below(rng, 1 <<
30)`` when ``mistake_rate > 0``). A card mistake then draws its card with ``bits.mistake_pick`` over what
each other legal card costs by the bot's own estimate (:func:`_slip_card`; one more draw), a Tekka call
mistake draws its direction (``below(rng, 2)``: one trick over or under its estimate), a Prime mistake
takes the second-best suit (no draw); raise requests and answers take no mistakes. With
``mistake_uniform`` (and for GREEDY) a mistake is ``below(rng, n_legal)`` into the sorted legal list, as
``base.maybe_mistake`` draws it. RANDOM draws ``below(rng, n_legal)`` as ``base.random_legal``. Nothing
else is random.
"""

from __future__ import annotations

import numpy as np
from numba import config, njit

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
from tekkasim.rulesets.trick52 import _kernels as k

if config.DISABLE_JIT:  # NUMBA_DISABLE_JIT=1 (the plain-Python twin run of the tests): ints for the bit helpers

    def popcount(x):
        return int(x).bit_count()

    def lowest(x):
        x = int(x)
        return 64 if x == 0 else (x & -x).bit_length() - 1

    def highest(x):
        return int(x).bit_length() - 1


# --- policy view -----------------------------------------------------------------------------------
V_SEAT = 0
V_PHASE = 1
V_RULESET = 2
V_TRUMP = 3
V_TRICK = 4
V_NPLAY = 5
V_LEADER = 6
V_TC = 7  # 7..10 current trick's cards in play order (-1 none)
V_TS = 11  # 11..14 their signals
V_VOIDS = 15  # 15..18 public voids per seat
V_DROPS = 19  # 19..22 suits each seat dropped on in completed tricks
V_SLAM = 23  # 23..26 suit of each seat's latest slam in completed tricks (-1 none)
V_WON = 27  # 27, 28 team tricks
V_SEAT_WON = 29  # 29..32
V_FIRST = 33
V_NCALLS = 34
V_CALLS = 35  # 35..38 call codes in turn order
V_HIGH = 39
V_HIGH_SEAT = 40
V_DECL = 41
V_TARGET = 42
V_MAND = 43
V_RAISES = 44
V_PENDING = 45
V_SIGOPT = 46
V_CANSIG = 47
N_V = 48

M_HAND = 0
M_PLAYED = 1
N_M = 2

# --- parameters --------------------------------------------------------------------------------------
P_MODE = 0
P_MISTAKE = 1
P_MEMORY = 2
P_INFER = 3
P_SIGNALS = 4
P_PARTNER = 5
P_TRUMP = 6
P_EVAL = 7
P_BID_BIAS = 8
P_RAISES = 9
P_UNBLOCK = 10
P_COUNT = 11
P_TEMP = 12
P_UNIFORM = 13
N_P = 14

MODE_HEURISTIC, MODE_GREEDY, MODE_RANDOM = 0, 1, 2
MEM_NONE, MEM_TRICK, MEM_HIGH, MEM_FULL = 0, 1, 2, 3

# honours: T J Q K A of every suit (ranks 8..12)
_HON13 = np.uint64(0b1111100000000)
HONOURS = _HON13 | (_HON13 << np.uint64(13)) | (_HON13 << np.uint64(26)) | (_HON13 << np.uint64(39))


@njit(cache=True)
def new_view():
    v = np.full(N_V, -1, np.int64)
    m = np.zeros(N_M, np.uint64)
    return v, m


@njit(cache=True, inline="always")
def _seen_by(d, seat):
    """The seat's visible cards (Feskot before Prime: its first five), as ``_trick52`` defines them."""
    if d.info[k.I_RULESET] == k.FESKOT and d.info[k.I_PRIME] < 0:
        h = ZERO
        for i in range(5):
            h |= bit(d.dealt[seat, i])
        return h
    return d.hand[seat]


@njit(cache=True, _nrt=False, inline="always")
def view_from_arrays(d, seat, cansig, v, m):
    """Fill the policy view of ``seat`` from the arrays of a deal (public fields and the seat's own hand)."""
    view_clear(v, m)
    for tt in range(d.info[k.I_TRICK]):
        view_fold_trick(d, tt, v, m)
    view_refresh(d, seat, cansig, v, m)


@njit(cache=True, _nrt=False, inline="always")
def view_clear(v, m):
    """The history part of a view before any trick is complete (``view_fold_trick`` adds tricks)."""
    for s in range(4):
        v[V_DROPS + s] = 0
        v[V_SLAM + s] = -1
    m[M_PLAYED] = ZERO


@njit(cache=True, _nrt=False, inline="always")
def view_fold_trick(d, tt, v, m):
    """Add completed trick ``tt`` to the history part of a view: its cards to ``M_PLAYED``, its drops and
    slams to ``V_DROPS``/``V_SLAM`` (tricks are folded in order, so the latest slam stays)."""
    lead = d.leader[tt]
    played = m[M_PLAYED]
    for j in range(4):
        c = d.plays[tt, j]
        played |= bit(c)
        sig = d.signal[tt, j]
        if sig != 0:
            who = (lead + j) & 3
            if sig == k.DROP:
                v[V_DROPS + who] |= 1 << (c // 13)
            elif sig == k.SLAM:
                v[V_SLAM + who] = c // 13
    m[M_PLAYED] = played


@njit(cache=True, _nrt=False, inline="always")
def view_refresh(d, seat, cansig, v, m):
    """Every field of the view but its history part (``view_clear``/``view_fold_trick``): the whole-deal
    loop folds each trick once as it completes instead of rereading every trick at every decision."""
    info = d.info
    v[V_SEAT] = seat
    v[V_PHASE] = info[k.I_PHASE]
    v[V_RULESET] = info[k.I_RULESET]
    v[V_TRUMP] = info[k.I_PRIME]
    t = info[k.I_TRICK]
    v[V_TRICK] = t
    np_ = info[k.I_PLAY] if t < 13 else 0
    v[V_NPLAY] = np_
    v[V_LEADER] = d.leader[t] if t < 13 and np_ > 0 else -1
    for j in range(4):
        if j < np_:
            v[V_TC + j] = d.plays[t, j]
            v[V_TS + j] = d.signal[t, j]
        else:
            v[V_TC + j] = -1
            v[V_TS + j] = 0
    for s in range(4):
        v[V_VOIDS + s] = info[k.I_VOIDS + s]
        v[V_SEAT_WON + s] = info[k.I_SEAT_TRICKS + s]
    v[V_WON] = info[k.I_TEAM_TRICKS]
    v[V_WON + 1] = info[k.I_TEAM_TRICKS + 1]
    v[V_FIRST] = info[k.I_FIRST]
    v[V_NCALLS] = info[k.I_N_CALLS]
    for i in range(4):
        v[V_CALLS + i] = info[k.I_CALLS + i] if i < info[k.I_N_CALLS] else -1
    v[V_HIGH] = info[k.I_HIGH]
    v[V_HIGH_SEAT] = info[k.I_HIGH_SEAT]
    v[V_DECL] = info[k.I_DECLARER]
    v[V_TARGET] = info[k.I_TARGET] if info[k.I_DECLARER] >= 0 else -1
    v[V_MAND] = info[k.I_MANDATORY]
    v[V_RAISES] = info[k.I_RAISES]
    v[V_PENDING] = info[k.I_PENDING]
    v[V_SIGOPT] = info[k.I_SIGNALS]
    v[V_CANSIG] = cansig if info[k.I_SIGNALS] == 1 else 0
    m[M_HAND] = _seen_by(d, seat)


@njit(cache=True, _nrt=False, inline="always")
def legal_list(d, buf):
    """``_trick52.legal_actions`` without its call overhead in play (the legal cards ascending, then the raise
    requests ascending, D13 last, as there); other phases go to ``_trick52.legal_actions``."""
    info = d.info
    if info[k.I_PHASE] != k.PH_PLAY:
        return k.legal_actions(d, buf)
    x = k.current_legal_mask(d)
    n = 0
    while x != ZERO:
        buf[n] = lowest(x)
        n += 1
        x &= x - ONE
    if k.n_raises(info) > 0:
        for code in range(max(info[k.I_TARGET] + 1, 9), 14):
            buf[n] = k.RAISE_BASE + code
            n += 1
        buf[n] = k.RAISE_BASE + k.D13
        n += 1
    return n


# --- small card helpers ------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _suit_of(c):
    return c // 13


@njit(cache=True, inline="always")
def _len(h, s):
    return popcount(h & suit_mask(s))


@njit(cache=True, inline="always")
def _top(h, s):
    """Highest card of suit ``s`` in ``h`` (-1 if none)."""
    x = h & suit_mask(s)
    return -1 if x == ZERO else highest(x)


@njit(cache=True, inline="always")
def _low(h, s):
    x = h & suit_mask(s)
    return -1 if x == ZERO else lowest(x)


@njit(cache=True, inline="always")
def _above(c):
    """Mask of the cards of ``c``'s suit above ``c``."""
    return suit_mask(c // 13) & ~((bit(c) << ONE) - ONE)


@njit(cache=True, inline="always")
def _is_master(c, gone):
    """True when every higher card of ``c``'s suit is in ``gone`` (played as far as known, or our own)."""
    return (_above(c) & ~gone) == ZERO


@njit(cache=True, inline="always")
def _power(c, led, trump):
    return k.card_power(c, led, trump)


@njit(cache=True, inline="always")
def _hcp(h, s):
    """High-card points of suit ``s``: A 4, K 3, Q 2, J 1."""
    x = (h >> np.uint64(13 * s)) & np.uint64(0x1FFF)
    return (
        4 * np.int64((x >> np.uint64(12)) & ONE)
        + 3 * np.int64((x >> np.uint64(11)) & ONE)
        + 2 * np.int64((x >> np.uint64(10)) & ONE)
        + np.int64((x >> np.uint64(9)) & ONE)
    )


@njit(cache=True, inline="always")
def _masters(s, gone):
    """The cards of suit ``s`` that are masters (``_is_master``): the highest card of the suit not in
    ``gone`` and those above it."""
    out = suit_mask(s) & ~gone
    if out == ZERO:
        return suit_mask(s)
    return suit_mask(s) & ~(bit(highest(out)) - ONE)


@njit(cache=True, inline="always")
def _beaters(s, wpower, led, trump):
    """The cards of suit ``s`` whose power (``_power``) is above ``wpower``: powers rise with rank within
    a suit (Prime 39 + rank, the led suit 19 + rank, any other suit -1), so they are the suit's cards above
    one rank."""
    if s == trump:
        base = 39
    elif s == led:
        base = 19
    else:
        return suit_mask(s) if wpower < -1 else ZERO
    above = wpower - base  # the ranks above this one beat it
    if above < 0:
        return suit_mask(s)
    if above >= 12:
        return ZERO
    return suit_mask(s) & ~((ONE << np.uint64(13 * s + above + 1)) - ONE)


@njit(cache=True, _nrt=False)
def _lowest_card(h, trump):
    """The lowest card of ``h`` by rank, a non-Prime card before a Prime one of the same rank, then by suit
    (-1 if none). Each suit's candidate is its lowest card, so four comparisons decide."""
    best = -1
    best_key = 1 << 20
    for s in range(4):
        x = h & suit_mask(s)
        if x != ZERO:
            c = lowest(x)
            key = (c - 13 * s) * 8 + (4 if s == trump else 0) + s
            if key < best_key:
                best_key = key
                best = c
    return best


@njit(cache=True, _nrt=False)
def _cheapest_winner(h, wpower, led, trump):
    """The card of ``h`` with the lowest power above ``wpower`` (-1 if none): a led-suit card before a
    Prime card, the lowest of each. Each suit's candidate is its lowest card that beats ``wpower``."""
    best = -1
    best_p = 1 << 20
    for s in range(4):
        x = h & _beaters(s, wpower, led, trump)
        if x != ZERO:
            c = lowest(x)
            p = _power(c, led, trump)
            if p < best_p:
                best_p = p
                best = c
    return best


@njit(cache=True, _nrt=False)
def _legal_cards(legal, n):
    x = ZERO
    for i in range(n):
        if legal[i] < 52:
            x |= bit(legal[i])
    return x


# --- hand evaluation ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def _count_key(h, s):
    """GREEDY's (and ``evaluation=count``) suit order: length first, then high cards from the Ace down."""
    return _len(h, s) * 8192 + np.int64((h >> np.uint64(13 * s)) & np.uint64(0x1FFF))


@njit(cache=True, _nrt=False)
def _top_run(h, s):
    """How many of the suit's top cards (A, K, Q ...) ``h`` holds in an unbroken run."""
    n = 0
    for r in range(12, -1, -1):
        if h & bit(13 * s + r):
            n += 1
        else:
            break
    return n


@njit(cache=True, _nrt=False)
def est_tricks(h, trump):
    """Tricks a hand expects to take itself with ``trump`` as Prime (bridge-style, in halves): Prime tricks
    from honours and length, side-suit quick tricks (AK 2, A 1, KQ 1, Kx 0.5, capped by length), and
    ruffing value of short side suits when Prime is long enough to spare ruffs."""
    lt = _len(h, trump)
    e = 0.0
    for s in range(4):
        x = (h >> np.uint64(13 * s)) & np.uint64(0x1FFF)
        n = _len(h, s)
        a = (x >> np.uint64(12)) & ONE
        kk = (x >> np.uint64(11)) & ONE
        q = (x >> np.uint64(10)) & ONE
        if s == trump:
            t = float(a) + (1.0 if kk and n >= 2 else 0.0) + (1.0 if q and n >= 3 else 0.0)
            t += max(0.0, float(n) - 3.0)
            e += min(t, float(n))
        else:
            qt = 0.0
            if a and kk:
                qt = 2.0
            elif a:
                qt = 1.0 + (0.5 if q else 0.0)
            elif kk and q:
                qt = 1.0
            elif kk and n >= 2:
                qt = 0.5
            e += min(qt, float(n))
            if lt >= 3:
                spare = float(lt) - 2.0
                if n == 0:
                    e += min(2.0, spare)
                elif n == 1:
                    e += min(1.0, spare)
                elif n == 2:
                    e += min(0.5, spare)
    return e


@njit(cache=True, _nrt=False)
def sure_all(h, trump):
    """True when the hand takes all 13 tricks on its own lead with ``trump`` as Prime whatever the others
    hold: its top Prime run is at least as long as the Prime cards out (so drawing them loses nothing),
    and every side suit is solid (its top run covers the holding, or the cards out of it)."""
    lt = _len(h, trump)
    if _top_run(h, trump) < min(lt, 13 - lt):
        return False
    for s in range(4):
        if s == trump:
            continue
        n = _len(h, s)
        if n > 0 and _top_run(h, s) < n and _top_run(h, s) < 13 - n:
            return False
    return True


@njit(cache=True, _nrt=False)
def _best_suit(h, full):
    return _best_suit_but(h, full, -1)


@njit(cache=True, _nrt=False)
def _best_suit_but(h, full, skip):
    """The best Prime suit by the bot's evaluation other than ``skip`` (-1: any)."""
    best = 0 if skip != 0 else 1
    best_key = -1.0
    for s in range(4):
        if s == skip:
            continue
        key = float(_count_key(h, s))
        if full:
            key = est_tricks(h, s) * 1e6 + _hcp(h, s) * 1e5 + key
        if key > best_key:
            best_key = key
            best = s
    return best


# --- knowledge ----------------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def known_played(p, v, m):
    """The played cards the bot remembers: none; the current trick; plus the honours of earlier tricks;
    or every card (``memory`` none / trick / high / full)."""
    mem = int(p[P_MEMORY])
    x = ZERO
    if mem >= MEM_TRICK:
        for j in range(v[V_NPLAY]):
            x |= bit(v[V_TC + j])
    if mem == MEM_HIGH:
        x |= m[M_PLAYED] & HONOURS
    elif mem == MEM_FULL:
        x |= m[M_PLAYED]
    return x


@njit(cache=True, _nrt=False)
def known_voids(p, v):
    """Per seat the suits the bot believes it void in (``infer``), packed 4 bits a seat (bit ``4 * seat +
    suit``): voids shown by not following (all of them from ``memory`` high up, only the current trick's
    with ``memory`` trick), and with ``signals`` the drops sent (honest signals are believed)."""
    out = 0
    if p[P_INFER] == 0.0 or p[P_MEMORY] < MEM_TRICK:
        return out
    n = v[V_NPLAY]
    if p[P_MEMORY] >= MEM_HIGH:
        for s in range(4):
            x = v[V_VOIDS + s]
            if p[P_SIGNALS] != 0.0:
                x |= v[V_DROPS + s]
            out |= x << (4 * s)
    if n > 0:
        led = v[V_TC] // 13
        lead = v[V_LEADER]
        for j in range(1, n):
            c = v[V_TC + j]
            if c // 13 != led:
                out |= 1 << (4 * ((lead + j) & 3) + led)
        if p[P_SIGNALS] != 0.0:
            for j in range(n):
                if v[V_TS + j] == k.DROP:
                    out |= 1 << (4 * ((lead + j) & 3) + v[V_TC + j] // 13)
    return out


@njit(cache=True, inline="always")
def _void(voids, seat, suit):
    return (voids >> (4 * seat + suit)) & 1


# --- decisions -----------------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def decide(p, v, m, legal, n, rng):
    """The action of the bot with parameters ``p`` for the view ``(v, m)``, among the ``n`` sorted legal
    actions ``legal``; ``rng`` is advanced as documented in the module notes."""
    mode = int(p[P_MODE])
    if mode == MODE_RANDOM:
        return legal[below(rng, n)]
    slip = mistake(rng, p[P_MISTAKE])
    if slip and (p[P_UNIFORM] != 0.0 or mode != MODE_HEURISTIC):
        return legal[below(rng, n)]
    phase = v[V_PHASE]
    if phase == k.PH_PRIME:
        full = mode == MODE_HEURISTIC and p[P_EVAL] == 1.0
        if slip:  # a near miss: the second-best suit by the bot's own evaluation
            return k.PRIME_BASE + _best_suit_but(m[M_HAND], full, _best_suit(m[M_HAND], full))
        return k.PRIME_BASE + _best_suit(m[M_HAND], full)
    if phase == k.PH_AUCTION:
        return _call(p, v, m, legal, n, mode, slip, rng)
    if phase == k.PH_RAISE:
        return _answer_raise(p, v, m, mode)
    if mode == MODE_HEURISTIC and p[P_RAISES] != 0.0 and legal[n - 1] >= k.RAISE_BASE:
        r = _raise_request(p, v, m, legal, n)
        if r >= 0:
            return r
    lm = _legal_cards(legal, n)
    a = _play(p, v, m, lm, mode)
    return _slip_card(p, v, m, lm, a % k.SIGNAL_MULT, rng) if slip else a


@njit(cache=True, _nrt=False)
def decide_cards(p, v, m, lm, rng):
    """``decide`` for a play decision whose legal actions are cards only (no raise request allowed), from
    the mask ``lm`` of the legal cards: the whole-deal loop's path, which need not list them. The legal
    list is then the cards ascending, so a random pick of index ``i`` is the ``i``-th card of ``lm``: the
    same draws and the same decision as ``decide``."""
    mode = int(p[P_MODE])
    if mode == MODE_RANDOM:
        return _nth_card(lm, below(rng, popcount(lm)))
    slip = mistake(rng, p[P_MISTAKE])
    if slip and (p[P_UNIFORM] != 0.0 or mode != MODE_HEURISTIC):
        return _nth_card(lm, below(rng, popcount(lm)))
    a = _play(p, v, m, lm, mode)
    return _slip_card(p, v, m, lm, a % k.SIGNAL_MULT, rng) if slip else a


@njit(cache=True, inline="always")
def _nth_card(lm, i):
    """The ``i``-th card (0 = the lowest) of the mask ``lm``."""
    x = lm
    for _ in range(i):
        x &= x - ONE
    return lowest(x)


@njit(cache=True, _nrt=False)
def _play(p, v, m, lm, mode):
    """The card (with its signal) of a GREEDY or heuristic bot among the legal cards ``lm``."""
    if mode == MODE_GREEDY:
        return _greedy_card(v, m, lm)
    gone = known_played(p, v, m) | m[M_HAND]  # what the bot counts as out of play: remembered cards and its own
    c = _card(p, v, m, lm, gone)
    return c + k.SIGNAL_MULT * _signal(p, v, m, c, gone)


# --- plausible mistakes --------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def _keep_value(c, h, gone, trump, trumps_out):
    """Tricks the bot expects card ``c`` to take later if it keeps it, by what it remembers (``gone``: its
    hand and the cards it counts as played): a master 1 (a side master 0.7 while Prime is out), another
    Prime 0.6 (a ruff to come), a guarded second honour 0.4 (one card above out, two or more held), a
    guarded third 0.2, else nothing."""
    s = c // 13
    if _is_master(c, gone):
        return 1.0 if s == trump or not trumps_out else 0.7
    if s == trump:
        return 0.6
    above = popcount(_above(c) & ~gone)
    n = _len(h, s)
    if above == 1 and n >= 2:
        return 0.4
    if above == 2 and n >= 3:
        return 0.2
    return 0.0


@njit(cache=True, _nrt=False)
def _slip_known(p, v, m):
    """The played cards a mistake is priced with: ``known_played`` at ``memory`` high at least."""
    x = known_played(p, v, m)
    if p[P_MEMORY] < MEM_HIGH:
        for j in range(v[V_NPLAY]):
            x |= bit(v[V_TC + j])
        x |= m[M_PLAYED] & HONOURS
    return x


@njit(cache=True, _nrt=False)
def _card_value(v, m, c, gone, voids):
    """The bot's own rough value of playing ``c`` now, in tricks: the chance that its side takes this trick
    after ``c`` less what ``c`` would take later (``_keep_value``). What a mistake's draw prices: it
    sees the same remembered cards and inferred voids as the bot, no more."""
    seat = v[V_SEAT]
    partner = seat ^ 2
    trump = v[V_TRUMP]
    h = m[M_HAND]
    trumps_out = trump >= 0 and (suit_mask(trump) & ~gone) != ZERO
    keep = _keep_value(c, h, gone, trump, trumps_out)
    s = c // 13
    master = _is_master(c, gone)
    j = v[V_NPLAY]
    if j == 0:  # on lead
        ruffable = s != trump and trumps_out and (_void(voids, (seat + 1) & 3, s) or _void(voids, (seat + 3) & 3, s))
        if ruffable:
            win = 0.1
        elif master:
            win = 0.95 if s == trump else 0.9
        else:
            win = 0.4 if popcount(_above(c) & ~gone) == 1 else 0.3
        return win - keep
    led = v[V_TC] // 13
    wc, ws = _current_winner(v, trump)
    wp = _power(wc, led, trump)
    nxt = (seat + 1) & 3
    over = j < 3 and trumps_out and _void(voids, nxt, led)  # the next seat (an opponent) may ruff over us
    if _power(c, led, trump) > wp:
        if j == 3:
            hold = 1.0
        elif s == trump:
            hold = 0.95 if master else (0.5 if over and led != trump else 0.75)
        elif master:
            hold = 0.3 if over else 0.9
        else:
            hold = 0.5 if j == 2 else 0.4
    else:
        hold = -1.0  # does not win the trick
    if ws == partner:
        psure = j == 3 or (_is_master(wc, gone) and not (wc // 13 != trump and over))
        pwin = 1.0 if psure else 0.6
        win = pwin if hold < pwin else hold
    elif hold >= 0.0:
        win = hold
    else:
        win = 0.35 if j == 1 else 0.0  # partner, still to play, may win it
    return win - keep


# the features of a card for pricing a mistake, in the order ``_slip_features`` gives them
SLIP_FEATURES = (
    "value", "master", "one_above", "two_above", "three_above", "honour_not_master", "prime", "opp_void",
    "partner_void", "singleton", "doubleton", "away", "touching", "rank", "lowest", "unseen", "wins",
    "partner_wins", "last", "wins_over_partner", "cheapest_winner", "wins_master", "second_hand",
    "wins_second_hand", "prime_partner_wins", "lead_master_no_prime_out", "lead_master_prime_out",
    "lead_prime_out", "lead_top_of_sequence", "lead_low_short",
    "same_suit", "as_good_as_meant", "unseen_between", "rank_distance", "near_rank_other_suit",
    "loses_where_meant_wins", "wins_where_meant_loses", "under_ruff", "ruffs_partner_sure", "overtakes_partner_sure",
    "throws_master", "throws_guard", "leads_unsupported_honour", "master_not_meant", "prime_not_meant", "unblocks",
    "lead_trick", "lead_our_prime", "lead_prime_ours", "lead_prime_balance", "lead_length", "lead_under_master",
    "lead_master_trick", "lead_lowest_out", "lead_masters_held", "lead_singleton_with_prime", "lead_prime_short",
    "lead_late", "lead_master_defending", "lead_honour_defending", "lead_length_unseen",
)  # fmt: skip
N_SLIP_F = len(SLIP_FEATURES)


@njit(cache=True, _nrt=False)
def _slip_features(v, m, lm, c, gone, voids, chosen):
    """What the bot sees of playing ``c`` now, as numbers, for pricing a mistake (``_slip_estimate``):
    its rough value (``_card_value``), whether it is a master or how many unseen cards are above it, an
    honour that is not a master, Prime, a suit an opponent or partner is known void in (Prime still out),
    a singleton or doubleton, a lead away from a guarded honour (a higher card of the suit with one unseen
    card above it), a card touching a lower one held or fallen, its rank, the lowest of its suit, the
    unseen cards of its suit, and on a trick: whether it wins the trick so far, partner is winning, it is
    the last card. Against ``chosen``, the card the bot meant to play (a slip is most often a card near
    it): the same suit, no unseen card between the two (as good as ``chosen`` by what the bot sees), the
    unseen cards and ranks between them; whether ``chosen`` wins the trick and ``c`` does not or the
    other way round, a master thrown where ``chosen`` was not one, Prime spent where ``chosen`` was a side
    card. Named faults: an under-ruff, a ruff of partner's sure winner, overtaking it, a side master or a
    guard thrown, an honour led that a higher unseen card beats, the higher card of a doubleton under
    partner's winner (unblocking). On lead: the trick number, whether its side chose Prime (and leads
    Prime), its Prime against the Prime out, the suit's length held and unseen, low from a suit headed by
    a master, the lowest card still out, the masters held in the suit, a singleton led holding Prime,
    Prime led from two or fewer, a late trick, a defender cashing a master or leading an honour that is
    not one."""
    seat = v[V_SEAT]
    trump = v[V_TRUMP]
    h = m[M_HAND]
    s = c // 13
    r = c % 13
    trumps_out = trump >= 0 and (suit_mask(trump) & ~gone) != ZERO
    above = popcount(_above(c) & ~gone)
    master = above == 0
    n = _len(h, s)
    side = s != trump
    opp_void = side and trumps_out and (_void(voids, (seat + 1) & 3, s) or _void(voids, (seat + 3) & 3, s))
    par_void = side and trumps_out and _void(voids, seat ^ 2, s)
    away = False
    x = h & _above(c)
    while x != ZERO:
        d = lowest(x)
        x &= x - ONE
        if popcount(_above(d) & ~gone) == 1:
            away = True
    touch = r > 0 and (gone & bit(c - 1)) != ZERO
    j = v[V_NPLAY]
    wins = False
    pwin = False
    cheapest = False
    led = -1
    wc = -1
    chosen_wins = False
    psure = False
    if j > 0:
        led = v[V_TC] // 13
        wc, ws = _current_winner(v, trump)
        wp = _power(wc, led, trump)
        wins = _power(c, led, trump) > wp
        chosen_wins = _power(chosen, led, trump) > wp
        pwin = ws == (seat ^ 2)
        cheapest = wins and _cheapest_winner(lm, wp, led, trump) == c
        nxt_void = j < 3 and trumps_out and _void(voids, (seat + 1) & 3, led)
        psure = pwin and (j == 3 or (_is_master(wc, gone) and not (wc // 13 != trump and nxt_void)))
    # the card against the one the bot meant to play: a slip of the hand is most often a card near it
    cs = chosen // 13
    same = cs == s
    lo_r, hi_r = (c, chosen) if c < chosen else (chosen, c)
    between = popcount(suit_mask(s) & ~gone & ~((bit(lo_r) << ONE) - ONE) & (bit(hi_r) - ONE)) if same else 0
    ch_master = _is_master(chosen, gone)
    follows = j > 0 and s == led
    ruffs = j > 0 and s != led and not side
    guard = side and ((above == 1 and n == 2) or (above == 2 and n == 3))
    # on lead, what a declarer or defender knows of the suit and of Prime
    lead = j == 0
    chooser = v[V_FIRST] if v[V_RULESET] == k.FESKOT else v[V_DECL]
    ours = (chooser & 1) == (seat & 1)
    t = v[V_TRICK]
    n_prime = _len(h, trump) if trump >= 0 else 0
    prime_out = popcount(suit_mask(trump) & ~gone) if trump >= 0 else 0
    top = _top(h, s)
    under = r < 9 and top != c and _is_master(top, gone)  # low from a suit headed by a master
    lowest_live = (suit_mask(s) & (bit(c) - ONE) & ~gone) == ZERO
    own_masters = 0
    x = h & suit_mask(s)
    while x != ZERO:
        d = lowest(x)
        x &= x - ONE
        if _is_master(d, gone):
            own_masters += 1
    live = popcount(suit_mask(s) & ~gone)
    # two tuples joined: a literal of more than 30 items compiles to a list, which numba cannot type
    first = (
        _card_value(v, m, c, gone, voids),
        1.0 if above == 0 else 0.0,
        1.0 if above == 1 else 0.0,
        1.0 if above == 2 else 0.0,
        1.0 if above >= 3 else 0.0,
        1.0 if r >= 9 and above > 0 else 0.0,
        0.0 if side else 1.0,
        1.0 if opp_void else 0.0,
        1.0 if par_void else 0.0,
        1.0 if n == 1 else 0.0,
        1.0 if n == 2 else 0.0,
        1.0 if away else 0.0,
        1.0 if touch else 0.0,
        r / 12.0,
        1.0 if (h & suit_mask(s) & (bit(c) - ONE)) == ZERO else 0.0,
        popcount(suit_mask(s) & ~gone) / 13.0,
        1.0 if wins else 0.0,
        1.0 if pwin else 0.0,
        1.0 if j == 3 else 0.0,
        1.0 if wins and pwin else 0.0,
        1.0 if cheapest else 0.0,
        1.0 if wins and above == 0 else 0.0,
        1.0 if j == 1 else 0.0,
        1.0 if wins and j == 1 else 0.0,
        1.0 if j > 0 and not side and pwin else 0.0,
        1.0 if j == 0 and above == 0 and side and not trumps_out else 0.0,
        1.0 if j == 0 and above == 0 and side and trumps_out else 0.0,
        1.0 if j == 0 and not side and trumps_out else 0.0,
        1.0 if j == 0 and above > 0 and r >= 9 and n >= 2 and (h & bit(c + 1)) != ZERO else 0.0,
        1.0 if j == 0 and above > 0 and r < 9 and n <= 2 else 0.0,
    )
    second = (
        1.0 if same else 0.0,
        1.0 if same and between == 0 else 0.0,
        min(between, 4) / 4.0,
        abs(r - chosen % 13) / 12.0 if same else 0.0,
        1.0 if not same and abs(r - chosen % 13) <= 1 else 0.0,
        1.0 if chosen_wins and not wins else 0.0,
        1.0 if wins and not chosen_wins else 0.0,
        1.0 if ruffs and not wins else 0.0,
        1.0 if ruffs and psure else 0.0,
        1.0 if follows and wins and psure else 0.0,
        1.0 if j > 0 and not follows and side and above == 0 else 0.0,
        1.0 if j > 0 and not follows and guard else 0.0,
        1.0 if j == 0 and side and above > 0 and r >= 9 and (h & bit(c + 1)) == ZERO else 0.0,
        1.0 if master and not ch_master else 0.0,
        1.0 if not side and cs != trump else 0.0,
        1.0 if follows and pwin and n == 2 and (h & _above(c) & suit_mask(s)) == ZERO else 0.0,
    )
    third = (
        t / 12.0 if lead else 0.0,
        1.0 if lead and ours else 0.0,
        1.0 if lead and ours and not side else 0.0,
        (n_prime - prime_out) / 13.0 if lead and not side else 0.0,
        n / 13.0 if lead else 0.0,
        1.0 if lead and under else 0.0,
        t / 12.0 if lead and master else 0.0,
        1.0 if lead and lowest_live else 0.0,
        own_masters / 4.0 if lead else 0.0,
        1.0 if lead and n == 1 and side and n_prime > 0 else 0.0,
        1.0 if lead and not side and n_prime <= 2 else 0.0,
        1.0 if lead and t >= 9 else 0.0,
        1.0 if lead and master and not ours else 0.0,
        1.0 if lead and side and not ours and r >= 9 and not master else 0.0,
        live / 13.0 * (n / 13.0) if lead else 0.0,
    )
    return first + second + third


# The weights of ``_slip_features`` in a card's estimated cost (tricks lost double dummy, against the
# decision's other cards), one set per kind of decision (a lead, following suit, not following): fitted by
# a fit (git history of experiments/slip_weights.py; conclusion in experiments/README.md) over 14,662 card decisions
# of KADO .. TANA in Feskot on tuning boards (a ridge least-squares fit of the costs, then refined to the
# lowest expected cost of the softmax draw at temperature 0.1, held near the least-squares weights; that
# draw was then over every other card). The same command now collects 14,640 decisions (the ladder's play
# has changed since) and fits somewhat different weights; it prints, for both sets, what ``_slip_card``'s
# gated draw gives on those decisions (in-sample): the package's weights draw the cheaper mistakes.
# fmt: off
SLIP_W_LEAD = (-0.440, -0.858, 0.227, 0.317, 0.314, 0.804, -0.185, 0.579, -0.546, -0.459, 0.169, 0.184,
               -0.260, -0.524, 0.114, -1.258, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000,
               -0.526, 0.922, -0.033, -0.858, -0.300, -0.258, -0.265, 0.209, -0.083, 0.371, 0.000, 0.000,
               0.000, 0.000, 0.000, 0.000, 0.000, 0.632, -0.081, -0.176, 0.000, 0.000, 0.000, -0.276, -0.712,
               -0.976, 1.049, -0.429, -0.494, 0.428, -0.297, 0.421, 0.000, 0.030, -0.904, 0.177)
SLIP_W_FOLLOW = (-0.949, 0.140, 0.064, -0.158, -0.046, 0.280, 0.000, 0.000, 0.000, 0.000, 0.000, 0.396, 0.118,
                 0.350, -0.066, 0.000, -1.018, 0.000, 0.000, 0.101, 0.498, -0.508, 0.000, 0.375, 0.000, 0.000,
                 0.000, 0.000, 0.000, 0.000, 0.000, -0.292, 0.112, 0.821, 0.000, 0.397, -0.621, 0.000, 0.000,
                 0.414, 0.000, 0.000, 0.000, 0.459, 0.000, 0.006, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000,
                 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000)
SLIP_W_VOID = (-0.684, 0.293, 0.149, -0.158, -0.284, 0.215, -0.032, -0.328, 0.302, -0.495, -0.106, 0.035,
               -0.332, 0.348, -0.041, 0.147, -0.869, 0.000, 0.000, 1.048, 0.188, -0.085, 0.000, 0.604, -0.510,
               0.000, 0.000, 0.000, 0.000, 0.000, 0.046, -0.092, -0.190, 0.356, 0.265, 0.916, 0.047, 0.837,
               1.473, 0.000, -0.321, -0.139, 0.000, 0.336, 0.102, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000,
               0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000)
# fmt: on


@njit(cache=True, _nrt=False)
def _slip_group(v, lm):
    """Which weights price a decision's cards: 0 a lead, 1 following suit, 2 not following."""
    if v[V_NPLAY] == 0:
        return 0
    return 1 if lm & suit_mask(v[V_TC] // 13) else 2


@njit(cache=True, _nrt=False)
def _slip_estimate(v, m, lm, c, gone, voids, group, chosen):
    """The bot's estimate of what playing ``c`` costs (tricks, up to a constant of the decision): its
    ``_slip_features`` weighted by the fitted ``SLIP_W_*`` of the decision's kind."""
    f = _slip_features(v, m, lm, c, gone, voids, chosen)
    w = SLIP_W_LEAD if group == 0 else (SLIP_W_FOLLOW if group == 1 else SLIP_W_VOID)
    x = 0.0
    for i in range(N_SLIP_F):
        x += f[i] * w[i]
    return x


@njit(cache=True, _nrt=False)
def _as_good(c, chosen, gone):
    """Whether ``c`` is ``chosen``'s equal by what the bot sees: the same suit with no unseen card between
    the two (``gone``: the cards it counts as out of play and its hand)."""
    if c // 13 != chosen // 13:
        return False
    lo_r, hi_r = (c, chosen) if c < chosen else (chosen, c)
    return (suit_mask(c // 13) & ~gone & ~((bit(lo_r) << ONE) - ONE) & (bit(hi_r) - ONE)) == ZERO


@njit(cache=True, _nrt=False)
def _slip_card(p, v, m, lm, chosen, rng):
    """A mistake's card: another legal card than the bot's ``chosen`` one, drawn by ``bits.mistake_pick``
    (temperature ``mistake_temperature``) over what each costs by the bot's own estimate
    (``_slip_estimate``: what it sees of the card, weighted as fitted against double-dummy costs) above the
    card it meant, so the slip is most often a card the bot rates just below its own and a card that throws
    a trick away is rare. A card the estimate rates above the meant one is never drawn (a mistake never
    plays what the bot itself would call better, or a bot that plays by a cruder rule than its estimate
    would gain from its mistakes: KADO did), unless it is the meant card's equal (``_as_good``: the
    estimate does not price the meant card as well as the others, which it was fitted on); when no card is
    left, the meant card is played. The card's signal is the bot's honest one. ``chosen`` alone:
    ``chosen``."""
    # priced with at least the honours of earlier tricks remembered: a slip is a near miss of a sensible
    # card, and even a player who keeps no count sees which honours fell
    gone = _slip_known(p, v, m) | m[M_HAND]
    voids = known_voids(p, v)
    group = _slip_group(v, lm)
    base = _slip_estimate(v, m, lm, chosen, gone, voids, group, chosen)  # the meant card's estimate
    costs = ZERO
    n = 0
    x = lm
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        q = SLIP_NONE
        if c != chosen:
            d = _slip_estimate(v, m, lm, c, gone, voids, group, chosen) - base
            if d >= 0.0:
                q = slip_step(d)
            elif _as_good(c, chosen, gone):  # its equal by what the bot sees: a slip that neither costs nor gains
                q = 0
        costs |= np.uint64(q) << np.uint64(4 * n)
        n += 1
    i = mistake_pick(rng, costs, n, p[P_TEMP])
    if i < 0:
        return chosen + k.SIGNAL_MULT * _signal(p, v, m, chosen, gone)
    c = _nth_card(lm, i)
    return c + k.SIGNAL_MULT * _signal(p, v, m, c, gone)


@njit(cache=True, _nrt=False)
def _legal_has(legal, n, a):
    for i in range(n):
        if legal[i] == a:
            return True
    return False


@njit(cache=True, _nrt=False)
def _call(p, v, m, legal, n, mode, slip, rng):
    """A Tekka call. GREEDY and ``evaluation=count``: a high-card count (A 4, K 3, Q 2, J 1) of 16 bids 8,
    each 3 more one more; never D13. ``full``: the team's expected tricks with the hand's best Prime, its
    own estimate plus a third of the rest for partner, adjusted for the auction (partner's bid +1, an
    opponent's -1) and ``bid_bias``, less a half-trick margin; D13 only with a hand that takes all 13 on
    its own. Never outbids partner's standing call with a number. A mistake (``slip``) is a near miss:
    the estimate one trick over or under (one draw ``below(rng, 2)``), never D13 (a hand that takes all
    13 calls 13 instead)."""
    h = m[M_HAND]
    seat = v[V_SEAT]
    high = v[V_HIGH]
    full = mode == MODE_HEURISTIC and p[P_EVAL] == 1.0
    d13 = False
    if full:
        for s in range(4):
            if sure_all(h, s):
                d13 = True
        if d13 and not slip:
            return k.CALL_BASE + k.D13
    if high == k.D13:
        return k.CALL_BASE + k.PASS
    if high > 0 and (v[V_HIGH_SEAT] & 1) == (seat & 1):
        return k.CALL_BASE + k.PASS
    if full:
        best = 0.0
        for s in range(4):
            e = est_tricks(h, s)
            if e > best:
                best = e
        team = best + (13.0 - best) / 3.0
        for i in range(v[V_NCALLS]):
            code = v[V_CALLS + i]
            if code > 0:
                caller = (v[V_FIRST] + i) & 3
                team += 1.0 if (caller & 1) == (seat & 1) else -1.0
        bid = int(np.floor(team + p[P_BID_BIAS] - 0.5))
        if d13:
            bid = 13
    else:
        pts = 0
        for s in range(4):
            pts += _hcp(h, s)
        bid = 8 + (pts - 16) // 3  # below 8 (under 16 points): a pass, a near miss from 13 points up
        if mode == MODE_HEURISTIC and pts >= 16:
            bid = int(np.floor(bid + p[P_BID_BIAS]))
    if slip:
        bid += 1 if below(rng, 2) == 1 else -1
    if bid > 13:
        bid = 13
    if bid >= 8 and bid > high:
        return k.CALL_BASE + bid
    return k.CALL_BASE + k.PASS


@njit(cache=True, _nrt=False)
def _sure_tricks(p, v, m):
    """Cards of the hand that win a trick whatever the others hold, as far as the bot knows: masters of
    Prime, and masters of side suits once no Prime can be out (every Prime card accounted for)."""
    h = m[M_HAND]
    trump = v[V_TRUMP]
    gone = known_played(p, v, m) | h
    trumps_out = trump >= 0 and (suit_mask(trump) & ~gone) != ZERO
    n = 0
    x = h
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        if _is_master(c, gone) and (c // 13 == trump or not trumps_out):
            n += 1
            gone |= bit(c)
    return n


@njit(cache=True, _nrt=False)
def _raise_request(p, v, m, legal, n):
    """With ``raises``: the declarer asks for ``won + sure tricks`` when that beats the contract by one or
    more (D13 when it already holds every trick and every card left is sure)."""
    seat = v[V_SEAT]
    team = seat & 1
    sure = _sure_tricks(p, v, m)
    left = 13 - v[V_TRICK]
    if v[V_SEAT_WON + seat] == v[V_TRICK] and sure >= left and _legal_has(legal, n, k.RAISE_BASE + k.D13):
        return k.RAISE_BASE + k.D13
    want = v[V_WON + team] + sure
    if want > 13:
        want = 13
    if want > v[V_TARGET] and want >= 9 and _legal_has(legal, n, k.RAISE_BASE + want):
        return k.RAISE_BASE + want
    return -1


@njit(cache=True, _nrt=False)
def _answer_raise(p, v, m, mode):
    """Accept a raise only when the bot's own sure tricks already break it (D13: any sure trick);
    GREEDY and bots without ``raises`` always reject."""
    if mode != MODE_HEURISTIC or p[P_RAISES] == 0.0:
        return k.REJECT
    target = v[V_PENDING]
    sure = _sure_tricks(p, v, m)
    if target == k.D13:
        return k.ACCEPT if sure >= 1 else k.REJECT
    decl_team = v[V_DECL] & 1
    left = 13 - v[V_TRICK]
    need = target - v[V_WON + decl_team]
    return k.ACCEPT if sure > left - need else k.REJECT


@njit(cache=True, _nrt=False)
def _current_winner(v, trump):
    """(winning card, its seat) of the current trick so far."""
    n = v[V_NPLAY]
    led = v[V_TC] // 13
    best = v[V_TC]
    best_j = 0
    for j in range(1, n):
        c = v[V_TC + j]
        if _power(c, led, trump) > _power(best, led, trump):
            best = c
            best_j = j
    return best, (v[V_LEADER] + best_j) & 3


@njit(cache=True, _nrt=False)
def _greedy_card(v, m, lm):
    """GREEDY: win the trick with the cheapest card that beats the cards played (following: the lowest
    led-suit card that does, else the lowest Prime that does); otherwise the lowest card. On lead: an Ace
    if it holds one (a side suit's first), otherwise the lowest card."""
    trump = v[V_TRUMP]
    if v[V_NPLAY] == 0:
        best = -1
        for s in range(4):
            c = 13 * s + 12
            if lm & bit(c) and (best < 0 or (best // 13 == trump and s != trump)):
                best = c
        return best if best >= 0 else _lowest_card(lm, trump)
    led = v[V_TC] // 13
    wc, _ = _current_winner(v, trump)
    c = _cheapest_winner(lm, _power(wc, led, trump), led, trump)
    return c if c >= 0 else _lowest_card(lm, trump)


@njit(cache=True, _nrt=False)
def _discard(p, v, m, lm, gone):
    """A card to throw: never a sure winner if avoidable; with ``trump_management`` (and Prime in hand)
    the lowest card of the shortest side suit, to ruff it later; else the lowest card."""
    trump = v[V_TRUMP]
    h = m[M_HAND]
    side = lm & ~suit_mask(trump) if trump >= 0 else lm
    if side == ZERO:
        return _lowest_card(lm, trump)
    masters = _masters(0, gone) | _masters(1, gone) | _masters(2, gone) | _masters(3, gone)
    spare = side & ~masters
    pool = spare if spare != ZERO else side
    if p[P_TRUMP] != 0.0 and trump >= 0 and h & suit_mask(trump):
        best = -1
        best_len = 99
        for s in range(4):
            if s == trump or pool & suit_mask(s) == ZERO:
                continue
            ln = _len(h, s)
            if ln < best_len:
                best_len = ln
                best = _low(pool, s)
        return best
    return _lowest_card(pool, trump)


@njit(cache=True, _nrt=False)
def _card(p, v, m, lm, gone):
    """The heuristic family's card (see ``heuristic.HeuristicBot`` for the rules in words); ``gone`` is
    ``known_played`` and the hand."""
    seat = v[V_SEAT]
    partner = seat ^ 2
    trump = v[V_TRUMP]
    mem = int(p[P_MEMORY])
    voids = known_voids(p, v)
    j = v[V_NPLAY]
    # Tekka: the partner of a D13 declarer must not take a trick
    if v[V_RULESET] == k.TEKKA and v[V_TARGET] == k.D13 and v[V_DECL] == partner:
        if j == 0:
            return _lowest_card(lm, trump)
        led = v[V_TC] // 13
        wc, _ = _current_winner(v, trump)
        wp = _power(wc, led, trump)
        x = lm
        best = -1
        while x != ZERO:  # the highest card that does not win, keeping low cards for later
            c = lowest(x)
            x &= x - ONE
            if _power(c, led, trump) < wp and (best < 0 or c % 13 > best % 13):
                best = c
        return best if best >= 0 else _lowest_card(lm, trump)
    if j == 0:
        return _lead(p, v, m, lm, gone, voids)
    led = v[V_TC] // 13
    follow = lm & suit_mask(led)
    if mem == MEM_NONE:  # sees only the led suit: its top card if that is the Ace run, else low; ruff low
        if follow != ZERO:
            top = highest(follow)
            return top if _is_master(top, gone) else lowest(follow)
        tr = lm & suit_mask(trump) if trump >= 0 else ZERO
        if tr != ZERO and led != trump:
            return lowest(tr)
        return _lowest_card(lm, trump)
    wc, ws = _current_winner(v, trump)
    wp = _power(wc, led, trump)
    partner_wins = ws == partner and p[P_PARTNER] != 0.0
    # is partner's card sure to hold? a master that the seats still to play cannot ruff
    sure = False
    if partner_wins:
        wgone = gone
        sure = _is_master(wc, wgone)
        if j < 3 and wc // 13 != trump and trump >= 0:
            nxt = (seat + 1) & 3
            if _void(voids, nxt, led) and (suit_mask(trump) & ~gone) != ZERO:
                sure = False
    if follow != ZERO:
        if partner_wins and (sure or j == 3):
            return _follow_low(p, follow, gone, True)
        beats = follow & _beaters(led, wp, led, trump)
        if beats == ZERO:
            return _follow_low(p, follow, gone, False)
        if j == 3:
            return lowest(beats)  # the cheapest winner
        # the cheapest master that beats the trick, else third hand high / second hand low
        win_masters = beats & _masters(led, gone)
        if win_masters != ZERO:
            return lowest(win_masters)
        if partner_wins:
            return _follow_low(p, follow, gone, False)
        if j == 2 or p[P_PARTNER] == 0.0:
            return lowest(beats)
        return _follow_low(p, follow, gone, False)
    # void in the led suit
    if partner_wins and (sure or j == 3):
        return _discard(p, v, m, lm, gone)
    tr = lm & suit_mask(trump) if trump >= 0 else ZERO
    if tr != ZERO and led != trump:
        ruffs = tr & _beaters(trump, wp, led, trump)
        if ruffs != ZERO:
            if p[P_TRUMP] != 0.0 and j < 3:
                # keep control: ruff with a master Prime if the seat after may overruff (void in the suit)
                nxt = (seat + 1) & 3
                if (nxt & 1) != (seat & 1) and _void(voids, nxt, led):
                    master_ruffs = ruffs & _masters(trump, gone)
                    if master_ruffs != ZERO:
                        return lowest(master_ruffs)
            return lowest(ruffs)  # the cheapest ruff that wins
    return _discard(p, v, m, lm, gone)


@njit(cache=True, _nrt=False)
def _follow_low(p, follow, gone, under_sure):
    """A card of the led suit that does not try to win: the lowest, but with ``unblock`` the higher of a
    doubleton under partner's sure winner (``under_sure``), and with ``give_count`` the second lowest
    from an even holding (high-low shows an even count); never a master for either."""
    n = popcount(follow)
    if p[P_UNBLOCK] != 0.0 and under_sure and n == 2:
        hi = highest(follow)
        if not _is_master(hi, gone):
            return hi
    if p[P_COUNT] != 0.0 and n >= 2 and n % 2 == 0:
        second = lowest(follow & (follow - ONE))
        if not _is_master(second, gone):
            return second
    return lowest(follow)


@njit(cache=True, _nrt=False)
def _lead(p, v, m, lm, gone, voids):
    """The heuristic lead: partner's slammed suit while the ask stands; with ``trump_management`` draw Prime
    with its master (always when our side chose Prime, else with half the Prime out in hand); cash a side master the
    opponents cannot ruff; give partner a ruff; else low from a short side suit to ruff it later (holding
    two Prime or more, with ``trump_management``), or from the longest side suit. Suits an opponent is
    known void in come last. Drawing before cashing side masters and the short-suit lead both gained
    tricks on duplicate Feskot tuning boards (figures: ``experiments/README.md``)."""
    seat = v[V_SEAT]
    partner = seat ^ 2
    opp1 = (seat + 1) & 3
    opp2 = (seat + 3) & 3
    trump = v[V_TRUMP]
    h = m[M_HAND]
    if p[P_MEMORY] == MEM_NONE:
        for s in range(4):
            c = 13 * s + 12
            if s != trump and lm & bit(c):
                return c
        best = -1
        best_len = -1
        for s in range(4):
            if s != trump and _len(lm, s) > best_len:
                best_len = _len(lm, s)
                best = s
        if best_len > 0:
            return _low(lm, best)
        return _lowest_card(lm, trump)
    trumps_out = trump >= 0 and (suit_mask(trump) & ~gone) != ZERO
    opp_void_trump = trump >= 0 and _void(voids, opp1, trump) and _void(voids, opp2, trump)
    # partner asked for a suit, and the ask still stands: some card of it is still out (partner's master
    # may be gone: the slam is kept for the whole deal) and no opponent can ruff it. Following stale
    # slams made signals cost JANGARA more than they gave (experiments/README.md).
    if p[P_SIGNALS] != 0.0 and v[V_SLAM + partner] >= 0:
        s = v[V_SLAM + partner]
        out = suit_mask(s) & ~gone
        ruff = trumps_out and (_void(voids, opp1, s) or _void(voids, opp2, s))
        if out != ZERO and not ruff and lm & suit_mask(s):
            top = _top(lm, s)
            return top if _is_master(top, gone) else _low(lm, s)
    # cash a side master that no opponent can ruff, from the longest such suit
    best = -1
    best_len = -1
    for s in range(4):
        if s == trump:
            continue
        top = _top(lm, s)
        if top < 0 or not _is_master(top, gone):
            continue
        ruffable = trumps_out and (_void(voids, opp1, s) or _void(voids, opp2, s))
        if ruffable and p[P_INFER] != 0.0:
            continue
        if _len(h, s) > best_len:
            best_len = _len(h, s)
            best = top
    # draw Prime while holding its master and at least as many as could be out against us
    if p[P_TRUMP] != 0.0 and trump >= 0 and trumps_out and not opp_void_trump:
        top = _top(lm, trump)
        if top >= 0 and _is_master(top, gone):
            mine = _len(h, trump)
            out = popcount(suit_mask(trump) & ~gone)
            chooser = v[V_FIRST] if v[V_RULESET] == k.FESKOT else v[V_DECL]
            ours = (chooser & 1) == (seat & 1)
            if ours or 2 * mine >= out:
                return top
    if best >= 0:
        return best
    # give partner a ruff
    if p[P_TRUMP] != 0.0 and trump >= 0 and not _void(voids, partner, trump):
        for s in range(4):
            if s != trump and _void(voids, partner, s) and lm & suit_mask(s):
                if not (_void(voids, opp1, s) or _void(voids, opp2, s)):
                    return _low(lm, s)
    # low from the longest side suit an opponent is not known void in
    best = -1
    best_key = -1
    for s in range(4):
        if s == trump or lm & suit_mask(s) == ZERO:
            continue
        key = _len(lm, s) * 4
        if p[P_TRUMP] != 0.0 and _len(h, trump) >= 2 and _len(lm, s) <= 2:  # a short suit, to ruff it next
            key = 60 - _len(lm, s) * 4
        if not (_void(voids, opp1, s) or _void(voids, opp2, s)):
            key += 100
        if key > best_key:
            best_key = key
            best = s
    if best >= 0:
        return _low(lm, best)
    top = _top(lm, trump)
    return top if _is_master(top, gone) else _lowest_card(lm, trump)


@njit(cache=True, _nrt=False)
def _signal(p, v, m, c, gone):
    """With ``signals`` (and the game accepting them): ``drop`` on the last card of a suit, ``slam`` on a
    side-suit card when the hand still holds that suit's master afterwards; both always true. ``gone`` is
    ``known_played`` and the hand (as before ``c`` is played)."""
    if p[P_SIGNALS] == 0.0 or v[V_CANSIG] != 1:
        return k.NO_SIGNAL
    h = m[M_HAND] & ~bit(c)
    s = c // 13
    if h & suit_mask(s) == ZERO:
        return k.DROP
    if s != v[V_TRUMP]:
        top = _top(h, s)
        if _is_master(top, gone):
            return k.SLAM
    return k.NO_SIGNAL


@njit(cache=True, _nrt=False)
def signal_for(p, v, m, c):
    """The signal bot ``p`` sends with card ``c`` from view ``(v, m)``, as ``_play`` attaches it: for the
    search bots, which choose the card by search and the signal by their JANGARA model."""
    return _signal(p, v, m, c, known_played(p, v, m) | m[M_HAND])


# --- whole deals: the one compiled loop of the family -------------------------------------------------

MAX_DEAL_ACTIONS = 4 + 1 + 52 + 2 * 13  # calls, Prime, cards, a raise request and answer per declarer turn
ALL_SEATS = 15  # a ``compiled`` or ``draws`` mask with every seat's bit


def seat_forms(px, py, table):
    """The (4, ``N_P``) parameter vectors by seat of a table: team X's ``px`` at bottom/top at table 0 and
    right/left at table 1, team Y's ``py`` at the other seats."""
    forms = np.empty((4, N_P), np.float64)
    for seat in range(4):
        forms[seat] = px if (seat & 1) == table else py
    return forms


@njit(cache=True, _nrt=False, inline="always")
def draws_of(forms):
    """The seats (a bit each) whose decisions draw from their RNG: those that play at random or make
    mistakes; the loop seeds a decision's RNG only for them."""
    draws = 0
    for s in range(4):
        if forms[s, P_MODE] == MODE_RANDOM or forms[s, P_MISTAKE] > 0.0:
            draws |= 1 << s
    return draws


@njit(cache=True, _nrt=False, inline="always")
def play_on(d, seed, tab, na, limit, forms, draws, compiled, cansig, work, record, out, st, row):
    """Play the deal ``d`` from its decision ``na`` on, seat ``s`` deciding with ``forms[s]`` (decision
    ``i`` drawn from ``mix_seed3(seed, tab, i)``, seeded only for the seats of ``draws``), until it ends or
    a seat not in ``compiled`` is to move (the policy view in ``work``, cleared here, then folds each trick
    once as it completes). Before each action is applied, ``st = record(out, st,
    row, i, action, index, count, d)``: ``index`` is the action's among the ``count`` legal ones (its
    card's, for a signalled card), ``d`` the deal before the action; numba compiles this loop once for
    each recorder, so what a caller records costs nothing more. Returns ``(na, st, status)``:
    status 0 at the end of the deal, 1 when a seat not compiled is to move, -1 at decision ``limit`` or an
    action not among the legal ones."""
    rng, drng, deck, buf, v, m = work
    view_clear(v, m)
    folded = 0  # completed tricks already in the view's history part
    while d.info[k.I_PHASE] != k.PH_TERMINAL:
        seat = d.info[k.I_TO_MOVE]
        if not (compiled >> seat) & 1:
            return na, st, 1
        if na == limit:
            return na, st, -1
        params = forms[seat]
        while folded < d.info[k.I_TRICK]:
            view_fold_trick(d, folded, v, m)
            folded += 1
        view_refresh(d, seat, cansig, v, m)
        if (draws >> seat) & 1:
            drng[0] = mix_seed3(seed, tab, np.uint64(na))
        if d.info[k.I_PHASE] == k.PH_PLAY and k.n_raises(d.info) == 0:
            lm = k.current_legal_mask(d)
            a = decide_cards(params, v, m, lm, drng)
            idx = popcount(lm & ((ONE << np.uint64(a % 52)) - ONE))
            count = popcount(lm)
        else:
            count = legal_list(d, buf)
            a = decide(params, v, m, buf, count, drng)
            want = a % 52 if a < k.PRIME_BASE else a
            idx = -1
            for q in range(count):
                if buf[q] == want:
                    idx = q
            if idx < 0:
                return na, st, -1
        st = record(out, st, row, na, a, idx, count, d)
        k.apply_action(d, a)
        na += 1
    return na, st, 0


@njit(cache=True, _nrt=False, inline="always")
def play_table(
    d,
    seeds,
    table,
    ruleset,
    first,
    play_all,
    raises,
    signals,
    cansig,
    forms,
    work,
    returns,
    n_actions,
    row0,
    record,
    out,
    st,
):
    """Play one deal per seed at ``table`` with the parameter vectors by seat ``forms`` (:func:`play_on`,
    every seat compiled, at most ``MAX_DEAL_ACTIONS`` decisions), the deal of ``seeds[b]`` recorded as row
    ``row0 + b``: its actions through ``record`` and ``out``, its number of actions and team A/B returns
    into ``n_actions`` and ``returns``. Returns ``(st, ok)``; ok is False when a deal could not be played
    within the limit (the rows after it are not written)."""
    rng, drng, deck, buf, v, m = work
    tab = np.uint64(table)
    draws = draws_of(forms)
    for b in range(seeds.shape[0]):
        k.seeded_deal(d, seeds[b], ruleset, first, play_all, raises, signals, rng, deck)
        i = row0 + b
        na, st, status = play_on(
            d, seeds[b], tab, 0, MAX_DEAL_ACTIONS, forms, draws, ALL_SEATS, cansig, work, record, out, st, i
        )
        if status != 0:
            return st, False
        n_actions[i] = na
        if ruleset == k.FESKOT:
            returns[i, 0] = d.info[k.I_TEAM_TRICKS]
            returns[i, 1] = d.info[k.I_TEAM_TRICKS + 1]
        else:
            _, a0, b0 = k.tekka_score(d.info)
            returns[i, 0] = a0
            returns[i, 1] = b0
    return st, True


@njit(cache=True, _nrt=False, inline="always")
def record_actions(out, st, row, na, a, idx, count, d):
    """:func:`play_on`'s recorder of ``play_boards_kernel``: the action into ``actions[row, na]`` and its
    legal index and count into ``legal[row, na]`` (``out = (actions, legal)``)."""
    actions, legal = out
    actions[row, na] = a
    legal[row, na, 0] = idx
    legal[row, na, 1] = count
    return st


@njit(cache=True, _nrt=False)
def play_boards_kernel(
    d, seeds, table, ruleset, first, play_all, raises, signals, cansig, forms, returns, actions, n_actions, legal, work
):
    """Play one deal per seed at ``table`` (:func:`play_table`; ``forms`` by seat, :func:`seat_forms`).
    Writes team A/B returns, every action and the number of actions, and in ``legal[b, i]`` action ``i``'s
    index among the legal actions (its card's, for a signalled card) and how many there were: what the
    tournament's block store keeps (``blocks._legal_block``), known here for free. ``work`` is
    ``new_work()``: the loop allocates nothing, so it runs without numba's reference counting (every call
    passing the deal's arrays would otherwise count references). Returns False when a
    deal could not be played within ``MAX_DEAL_ACTIONS`` decisions."""
    _, ok = play_table(
        d,
        seeds,
        table,
        ruleset,
        first,
        play_all,
        raises,
        signals,
        cansig,
        forms,
        work,
        returns,
        n_actions,
        0,
        record_actions,
        (actions, legal),
        0,
    )
    return ok


def new_work():
    """Scratch arrays of ``play_table`` and ``policy_rollout``."""
    return (
        np.empty(1, np.uint64),
        np.empty(1, np.uint64),
        np.empty(52, np.int64),
        np.empty(k.MAX_ACTIONS, np.int64),
        np.empty(N_V, np.int64),
        np.empty(N_M, np.uint64),
    )


@njit(cache=True)
def decide_arrays(p, d, cansig, rng):
    """The action of the bot ``p`` for the seat to move in the deal ``d`` (``_trick52.Arrays``), from that
    seat's view only: the compiled twin of ``decide(bot, state, seat, seed)``."""
    buf = np.empty(k.MAX_ACTIONS, np.int64)
    v = np.empty(N_V, np.int64)
    m = np.empty(N_M, np.uint64)
    n = legal_list(d, buf)
    view_from_arrays(d, d.info[k.I_TO_MOVE], cansig, v, m)
    return decide(p, v, m, buf, n, rng)


@njit(cache=True, _nrt=False)
def policy_rollout(d, p_team_a, p_team_b, cansig, rng, work):
    """Play the deal ``d`` to its end in place, team A's seats with ``p_team_a`` and team B's with
    ``p_team_b``, all decisions drawing from ``rng`` in turn (a rollout policy for search; ``work`` is
    ``new_work()``)."""
    buf, v, m = work[3], work[4], work[5]
    while d.info[k.I_PHASE] != k.PH_TERMINAL:
        seat = d.info[k.I_TO_MOVE]
        n = legal_list(d, buf)
        view_from_arrays(d, seat, cansig, v, m)
        a = decide(p_team_a if (seat & 1) == 0 else p_team_b, v, m, buf, n, rng)
        k.apply_action(d, a)
