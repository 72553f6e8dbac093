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
``play_out`` on random states.
"""

from __future__ import annotations

from numba import njit

from ..bits import ONE, ZERO, below, bit, kth, lowest, popcount, suit_mask
from ..rules import _trick52 as k
from ._policy_kernels import policy_rollout

RANDOM_POLICY = 0
GREEDY_POLICY = 1
POLICY_BOT = 2
POLICIES = ("random", "greedy", "jangara")

WIN_BONUS = 3  # Feskot rollout score: team tricks margin, plus this for a won game, minus it for a lost one


@njit(cache=True)
def copy_into(src, dst):
    """Copy every array of deal ``src`` into ``dst`` (same shapes)."""
    dst.hand[:] = src.hand
    dst.dealt[:, :] = src.dealt
    dst.plays[:, :] = src.plays
    dst.signal[:, :] = src.signal
    dst.leader[:] = src.leader
    dst.winner[:] = src.winner
    dst.info[:] = src.info


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
        k.apply_action(d, policy_action(d, policy, rng))


@njit(cache=True)
def play_out_with(d, policy, bot, work, rng):
    """``play_out``, or for ``POLICY_BOT`` the compiled bot with parameter vector ``bot`` at every seat
    (``work``: ``_policy_kernels.new_work()``)."""
    if policy == POLICY_BOT:
        policy_rollout(d, bot, bot, d.info[k.I_SIGNALS], rng, work)  # signals as the game allows, as decide sends them
    else:
        play_out(d, policy, rng)


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
def rollout_scores(d, scratch, actions, n_actions, reps, policy, bot, work, team, rng, out):
    """``out[i]`` = mean ``team_score`` over ``reps`` rollouts after action ``actions[i]`` in deal ``d``
    (``d`` unchanged; ``scratch`` is overwritten). ``bot``: the parameter vector for ``POLICY_BOT``,
    ``work`` its scratch."""
    for i in range(n_actions):
        total = 0.0
        for _ in range(reps):
            copy_into(d, scratch)
            k.apply_action(scratch, actions[i])
            play_out_with(scratch, policy, bot, work, rng)
            total += team_score(scratch.info, team)
        out[i] = total / reps


@njit(cache=True)
def trick_counts(d, scratch, declarer, trump, reps, policy, bot, work, team, rng, hist):
    """Rollouts of deal ``d`` played out over all 13 tricks: ``hist[n]`` += how many of ``reps`` rollouts
    gave ``team`` n tricks in all. With ``declarer >= 0`` (a Tekka auction or Prime choice being weighed)
    the play starts at trick 1 with that seat as declarer, leading, with Prime ``trump``; otherwise it goes
    on from the deal as it stands (``trump`` unused)."""
    for _ in range(reps):
        copy_into(d, scratch)
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
            k.apply_action(scratch, k.REJECT)
        if info[k.I_PHASE] == k.PH_TERMINAL:  # decided already: play on to trick 13
            info[k.I_PHASE] = k.PH_PLAY
            info[k.I_TO_MOVE] = scratch.winner[info[k.I_TRICK] - 1]
            if info[k.I_TRICK] == 13:
                info[k.I_PHASE] = k.PH_TERMINAL
        play_out_with(scratch, policy, bot, work, rng)
        hist[info[k.I_TEAM_TRICKS + team]] += 1
