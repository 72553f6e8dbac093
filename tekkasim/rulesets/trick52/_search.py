"""Compiled rollouts for the search bots (TANOOR, TIZAB): play a determinized world to its end with a
simple policy, many times, in one kernel call per world.

Rollout policies (``policy``):

* ``RANDOM_POLICY`` (0): a uniformly random legal card (``below(rng, n)`` over the legal cards, ascending).
* ``GREEDY_POLICY`` (1): GREEDY's rules (runs.md) with one piece of partner play. Following: when partner
  is winning and this is the last play, or no card can win, throw the lowest card (lowest rank, a non-Prime
  card before a Prime one); otherwise win as cheaply as possible (the weakest winning card). Leading: the
  highest card of a non-Prime suit when it is the highest card of that suit still out (a winner unless
  ruffed), else the lowest card of the longest non-Prime suit (the Prime suit if nothing else is held).
  Deterministic: no randomness.
* ``POLICY_BOT`` (2): a compiled ladder bot (``_policy_kernels.policy_rollout``; the search bots use
  JANGARA's parameter vector, ``compiled.compiled_params``) at all four seats, signals off, raises as that
  bot makes them. Its twin is the heuristic bots' own (``tests/test_bots_compiled.py``).

In every rollout the auction is passed out, a Prime choice is random (rollouts start after the choices a
search evaluates), no raise is ever requested and a pending raise is rejected: contracts are scored as
they stand. The pure-Python twin is ``twin_play_out`` in ``tests/test_bots_search.py``, compared with
``play_out`` on random states; the scoring kernels (``rollout_scores``, ``trick_counts`` and their
``bot_`` forms for ``POLICY_BOT``) are checked against means and counts of those play-outs.

``play_weight`` is the card-play part of ZELZELA's inference: it replays a world's card plays and counts
those of the other seats that the JANGARA model would not have made (tested: the true deal of JANGARA
self-play explains every card).
"""

from __future__ import annotations

from numba import njit

from tekkasim.bits import ONE, ZERO, below, bit, kth, lowest, popcount, suit_mask
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52._policy import decide, legal_list, policy_rollout, view_from_arrays

RANDOM_POLICY = 0
GREEDY_POLICY = 1
POLICY_BOT = 2
POLICIES = ("random", "greedy", "jangara")

WIN_BONUS = 3  # Feskot rollout score: team tricks margin, plus this for a won game, minus it for a lost one


@njit(cache=True)
def copy_into(src, dst):
    """Copy every array of deal ``src`` into ``dst`` (same shapes). Plain loops: numba's slice assignment
    compiles its general broadcasting code (seconds on a cold cache) for the same copy."""
    for s in range(4):
        dst.hand[s] = src.hand[s]
        for i in range(13):
            dst.dealt[s, i] = src.dealt[s, i]
    for t in range(13):
        dst.leader[t] = src.leader[t]
        dst.winner[t] = src.winner[t]
        for j in range(4):
            dst.plays[t, j] = src.plays[t, j]
            dst.signal[t, j] = src.signal[t, j]
    for i in range(src.info.shape[0]):
        dst.info[i] = src.info[i]


@njit(cache=True)
def step(d, a):
    """``_trick52.apply_action`` behind a call of its own: the rules' step is inlined once here instead of
    into every kernel of this module (each inlined copy costs seconds of compile time on a cold cache)."""
    k.apply_action(d, a)


@njit(cache=True)
def _lowest_discard(m, prime):
    """The lowest-ranked card of mask ``m``, a non-Prime card before a Prime one."""
    best = -1
    best_key = 1 << 30
    x = m
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        key = c % 13 + (13 if c // 13 == prime else 0)
        if key < best_key:
            best_key = key
            best = c
    return best


@njit(cache=True)
def greedy_card(d):
    """GREEDY's card for the seat to move (phase play); see the module docstring."""
    info = d.info
    seat = info[k.I_TO_MOVE]
    t = info[k.I_TRICK]
    j = info[k.I_PLAY]
    prime = info[k.I_PRIME]
    legal = k.current_legal_mask(d)
    if j == 0:
        played = ZERO
        for tt in range(13):
            for jj in range(4):
                if d.plays[tt, jj] >= 0:
                    played |= bit(d.plays[tt, jj])
        hand = d.hand[seat]
        out = ~(played | hand)  # cards still held by the other seats
        for s in range(4):
            if s == prime:
                continue
            mine = hand & suit_mask(s)
            if mine == ZERO:
                continue
            top = -1
            for c in range(13 * s + 12, 13 * s - 1, -1):
                if mine & bit(c):
                    top = c
                    break
            higher_out = False
            for c in range(top + 1, 13 * s + 13):
                if out & bit(c):
                    higher_out = True
                    break
            if not higher_out:
                return top
        best_s = -1
        best_n = -1
        for s in range(4):
            if s == prime:
                continue
            n = popcount(hand & suit_mask(s))
            if n > best_n:
                best_n = n
                best_s = s
        if best_n <= 0:
            return lowest(hand)  # only Prime cards: the lowest
        return lowest(hand & suit_mask(best_s))
    led = d.plays[t, 0] // 13
    leader = d.leader[t]
    win_j = 0
    win_p = k.card_power(d.plays[t, 0], led, prime)
    for jj in range(1, j):
        p = k.card_power(d.plays[t, jj], led, prime)
        if p > win_p:
            win_p = p
            win_j = jj
    partner_winning = ((leader + win_j) & 3) == ((seat + 2) & 3)
    if partner_winning and j == 3:
        return _lowest_discard(legal, prime)
    cheapest = -1
    cheapest_p = 1 << 30
    x = legal
    while x != ZERO:
        c = lowest(x)
        x &= x - ONE
        p = k.card_power(c, led, prime)
        if p > win_p and p < cheapest_p:
            cheapest_p = p
            cheapest = c
    if cheapest >= 0 and not partner_winning:
        return cheapest
    return _lowest_discard(legal, prime)


@njit(cache=True)
def policy_action(d, policy, rng):
    """The rollout policy's action for the seat to move, in any phase."""
    info = d.info
    phase = info[k.I_PHASE]
    if phase == k.PH_PLAY:
        if policy == GREEDY_POLICY:
            return greedy_card(d)
        m = k.current_legal_mask(d)
        return kth(m, below(rng, popcount(m)))
    if phase == k.PH_AUCTION:
        return k.CALL_BASE + k.PASS
    if phase == k.PH_PRIME:
        return k.PRIME_BASE + below(rng, 4)
    return k.REJECT


@njit(cache=True)
def play_out(d, policy, rng):
    """Play deal ``d`` to its end in place with the rollout ``policy`` (random or greedy)."""
    while d.info[k.I_PHASE] != k.PH_TERMINAL:
        step(d, policy_action(d, policy, rng))


@njit(cache=True)
def team_score(info, team):
    """A finished deal's score for ``team``: Feskot, the tricks margin plus ``WIN_BONUS`` for a win (minus
    for a loss); Tekka, the points margin of the deal."""
    if info[k.I_RULESET] == k.FESKOT:
        ours = info[k.I_TEAM_TRICKS + team]
        theirs = info[k.I_TEAM_TRICKS + 1 - team]
        sign = 1 if ours > theirs else -1 if ours < theirs else 0
        return float(ours - theirs + WIN_BONUS * sign)
    made, a, b = k.tekka_score(info)
    return float(a - b) if team == 0 else float(b - a)


@njit(cache=True)
def play_out_with(d, policy, bot, work, rng):
    """``play_out``, or for ``POLICY_BOT`` the compiled bot with parameter vector ``bot`` at every seat
    (``work``: ``_policy_kernels.new_work()``)."""
    if policy == POLICY_BOT:
        policy_rollout(d, bot, bot, d.info[k.I_SIGNALS], rng, work)  # signals as the game allows, as decide sends them
    else:
        play_out(d, policy, rng)


# The scoring kernels come in two forms, the same loop around a different play-out: ``rollout_scores`` and
# ``trick_counts`` for the random and greedy policies, ``bot_rollout_scores`` and ``bot_trick_counts`` for a
# compiled ladder bot. Kept apart so that a kernel of the simple policies never compiles the ladder bot.


@njit(cache=True)
def rollout_scores(d, scratch, actions, n_actions, reps, policy, team, rng, out):
    """``out[i]`` = mean ``team_score`` over ``reps`` rollouts with the random or greedy ``policy`` after
    action ``actions[i]`` in deal ``d`` (``d`` unchanged; ``scratch`` is overwritten)."""
    for i in range(n_actions):
        total = 0.0
        for _ in range(reps):
            copy_into(d, scratch)
            step(scratch, actions[i])
            play_out(scratch, policy, rng)
            total += team_score(scratch.info, team)
        out[i] = total / reps


@njit(cache=True)
def bot_rollout_scores(d, scratch, actions, n_actions, reps, bot, work, team, rng, out):
    """``rollout_scores`` with the compiled bot of parameter vector ``bot`` at every seat (``work``:
    ``_policy_kernels.new_work()``)."""
    for i in range(n_actions):
        total = 0.0
        for _ in range(reps):
            copy_into(d, scratch)
            step(scratch, actions[i])
            policy_rollout(scratch, bot, bot, scratch.info[k.I_SIGNALS], rng, work)
            total += team_score(scratch.info, team)
        out[i] = total / reps


@njit(cache=True)
def _count_from(scratch, declarer, trump):
    """Set up ``scratch`` (a copy of the deal) to be played over all 13 tricks (see ``trick_counts``)."""
    info = scratch.info
    info[k.I_PLAY_ALL] = 1
    info[k.I_RAISES] = 0
    if declarer >= 0:
        info[k.I_DECLARER] = declarer
        info[k.I_TARGET] = 13
        info[k.I_MANDATORY] = 0
        info[k.I_PRIME] = trump
        info[k.I_PHASE] = k.PH_PLAY
        info[k.I_TO_MOVE] = declarer
        scratch.leader[0] = declarer
    elif info[k.I_PHASE] == k.PH_RAISE:
        step(scratch, k.REJECT)
    if info[k.I_PHASE] == k.PH_TERMINAL:  # decided already: play on to trick 13
        info[k.I_PHASE] = k.PH_PLAY
        info[k.I_TO_MOVE] = scratch.winner[info[k.I_TRICK] - 1]
        if info[k.I_TRICK] == 13:
            info[k.I_PHASE] = k.PH_TERMINAL


@njit(cache=True)
def trick_counts(d, scratch, declarer, trump, reps, policy, team, rng, hist):
    """Rollouts of deal ``d`` with the random or greedy ``policy`` played out over all 13 tricks:
    ``hist[n]`` += how many of ``reps`` rollouts gave ``team`` n tricks in all. With ``declarer >= 0`` (a
    Tekka auction or Prime choice being weighed) the play starts at trick 1 with that seat as declarer,
    leading, with Prime ``trump``; otherwise it goes on from the deal as it stands (``trump`` unused)."""
    for _ in range(reps):
        copy_into(d, scratch)
        _count_from(scratch, declarer, trump)
        play_out(scratch, policy, rng)
        hist[scratch.info[k.I_TEAM_TRICKS + team]] += 1


@njit(cache=True)
def bot_trick_counts(d, scratch, declarer, trump, reps, bot, work, team, rng, hist):
    """``trick_counts`` with the compiled bot of parameter vector ``bot`` at every seat."""
    for _ in range(reps):
        copy_into(d, scratch)
        _count_from(scratch, declarer, trump)
        policy_rollout(scratch, bot, bot, scratch.info[k.I_SIGNALS], rng, work)
        hist[scratch.info[k.I_TEAM_TRICKS + team]] += 1


@njit(cache=True)
def _same_class(a, b, held, gone):
    """Cards ``a`` and ``b`` are interchangeable for a seat holding ``held``: the same suit, and every card
    ranked between them is held too or already played (``gone``)."""
    if a // 13 != b // 13:
        return False
    lo, hi = min(a, b), max(a, b)
    for c in range(lo + 1, hi):
        if (held | gone) & bit(c) == ZERO:
            return False
    return True


@njit(cache=True)
def play_weight(d, scratch, me, bot, work, miss, rng):
    """How likely the card plays of the seats other than ``me`` in deal ``d`` (a world) are under the model
    "every seat plays like the compiled bot ``bot``": the deal is replayed from trick 1 in ``scratch``
    (hands as dealt, the contract as it stands) and each play with a choice multiplies the weight by 1
    when it is interchangeable with the model's card (``_same_class``), else by ``miss``."""
    copy_into(d, scratch)
    info = scratch.info
    for s in range(4):
        h = ZERO
        for i in range(13):
            h |= bit(d.dealt[s, i])
        scratch.hand[s] = h
    for t in range(13):
        scratch.leader[t] = -1
        scratch.winner[t] = -1
        for j in range(4):
            scratch.plays[t, j] = -1
            scratch.signal[t, j] = 0
    info[k.I_PHASE] = k.PH_PLAY
    info[k.I_TRICK] = 0
    info[k.I_PLAY] = 0
    info[k.I_TO_MOVE] = d.leader[0]
    info[k.I_DECIDED] = 0
    info[k.I_RAISED] = 0
    info[k.I_PENDING] = 0
    info[k.I_RAISES] = 0  # the model makes no raise requests
    for i in range(2):
        info[k.I_TEAM_TRICKS + i] = 0
    for i in range(4):
        info[k.I_SEAT_TRICKS + i] = 0
        info[k.I_VOIDS + i] = 0
    scratch.leader[0] = d.leader[0]
    buf, v, m = work[3], work[4], work[5]
    gone = ZERO
    w = 1.0
    for t in range(13):
        for j in range(4):
            c = d.plays[t, j]
            if c < 0:
                return w
            seat = info[k.I_TO_MOVE]
            if seat != me:
                n = legal_list(scratch, buf)
                if n > 1:
                    view_from_arrays(scratch, seat, scratch.info[k.I_SIGNALS], v, m)
                    model = decide(bot, v, m, buf, n, rng) % k.SIGNAL_MULT
                    if not _same_class(model, c, scratch.hand[seat], gone):
                        w *= miss
            k.apply_card(scratch, c, d.signal[t, j])
            gone |= bit(c)
            if info[k.I_PHASE] == k.PH_TERMINAL:
                return w
    return w
