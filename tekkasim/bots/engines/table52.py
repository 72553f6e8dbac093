"""The engine host's deal loop for Feskot and Tekka: the seats that have a compiled form play in a kernel,
engines answer decide messages built without a ``View``; the same actions as ``bots.loop.play_deal``.

The State API loop costs the host a ``View``, ``legal_actions``/``possible_actions`` and a checked
``apply_action`` in Python at every decision, whoever makes it. Here the deal is played on the state's own
arrays (``_trick52.Arrays``: four uint64 hands and the tricks): :func:`_advance`, one kernel call, plays the
decisions of the compiled seats (``Bot.compiled_form``, as ``_policy_kernels.play_boards_kernel`` does,
with the same decision seeds) until a seat without one is to move, and logs every action; the state keeps
them (``Trick52State.note_applied``), so its record, returns and history are those of the State API loop.
An engine to move in the play with only cards to choose from gets its message from
``protocol.play_decide_message`` (the bytes of a full build: the observation kept up to date, the legal
cards from the kernel's mask) and its answer is checked against the same allowed actions; its card is the
first action of the next kernel call. Every other decision (Prime, a call, a raise, a seat whose bot has no
compiled form) goes through ``bots.base.decide`` on the state as usual.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from ...bits import mix_seed, mix_seed3
from ...rules import _trick52 as k
from ...rules.trick52 import Trick52State
from .. import _policy_kernels as pk
from ..base import Bot, decide
from ..compiled import compiled_form
from .host import EngineBot

_MASK64 = (1 << 64) - 1


@njit(cache=True)
def _advance(d, forms, compiled, seed, table, k0, first, cansig, log, stop, work):
    """Apply ``first`` (an action already decided, or -1), then play every decision of a ``compiled``
    seat (its parameter vector ``forms[seat]``; decision ``i`` drawn from ``mix_seed3(seed, table, i)``)
    from decision ``k0`` on, until a seat that is not compiled is to move or the deal ends. Each action is
    logged as ``(action, seat, trick, play)``; returns how many. When a seat is left to move, ``stop[0]``
    is its mask of legal cards and ``stop[1]`` 1 when it has only cards to choose from (the play, no raise
    to ask), else 0."""
    drng, buf, v, m = work[1], work[3], work[4], work[5]
    info = d.info
    tab = np.uint64(table)
    n = 0
    a = first
    while True:
        if a >= 0:
            log[n, 0] = a
            log[n, 1] = info[k.I_TO_MOVE]
            log[n, 2] = info[k.I_TRICK]
            log[n, 3] = info[k.I_PLAY]
            k.apply_action(d, a)
            n += 1
        if info[k.I_PHASE] == k.PH_TERMINAL:
            return n
        seat = info[k.I_TO_MOVE]
        simple = info[k.I_PHASE] == k.PH_PLAY and k.n_raises(info) == 0
        if not compiled[seat]:
            stop[0] = k.current_legal_mask(d) if simple else np.uint64(0)
            stop[1] = np.uint64(1) if simple else np.uint64(0)
            return n
        p = forms[seat]
        pk.view_from_arrays(d, seat, cansig, v, m)
        drng[0] = mix_seed3(seed, tab, np.uint64(k0 + n))
        if simple:
            a = pk.decide_cards(p, v, m, k.current_legal_mask(d), drng)
        else:
            a = pk.decide(p, v, m, buf, pk.legal_list(d, buf), drng)


def play_deal52(state: Trick52State, bots: Sequence[Bot], seed: int, table: int = 0) -> bool:
    """Play ``state`` to its end as ``bots.loop.play_deal`` does (the same actions, seeds and faults) when
    it is a Feskot or Tekka deal with an engine at some seat and a compiled form at every other; return
    False, having done nothing, otherwise."""
    if not isinstance(state, Trick52State) or not any(isinstance(b, EngineBot) for b in bots):
        return False
    ruleset = state.game.name
    forms = np.zeros((4, pk.N_P), np.float64)
    compiled = np.zeros(4, np.int64)
    for seat, bot in enumerate(bots):
        if isinstance(bot, EngineBot):
            if not bot.supports(ruleset):
                return False  # the State API loop says so in one line
            continue
        form = compiled_form(bot, ruleset)
        if form is None:
            return False
        forms[seat] = form
        compiled[seat] = 1
    d = state.arrays
    info = d.info
    cansig = int(state.game.takes_signals)
    useed = np.uint64(int(seed) & _MASK64)
    log = np.empty((k.MAX_ACTIONS + 64, 4), np.int64)
    stop = np.zeros(2, np.uint64)
    work = pk.new_work()
    n = 0  # actions applied: decision n is made with mix_seed(seed, table, n)
    first = -1  # decision n, made by an engine, not applied yet
    while True:
        done = _advance(d, forms, compiled, useed, table, n, first, cansig, log, stop, work)
        if done:
            state.note_applied(log[:done].tolist())
            n += done
        if info[k.I_PHASE] == k.PH_TERMINAL:
            return True
        seat = int(info[k.I_TO_MOVE])
        bot = bots[seat]
        decision_seed = mix_seed(seed, table, n)
        first = bot.play_card(state, seat, decision_seed, int(stop[0])) if stop[1] else None
        if first is None:  # anything but a plain card play: the State API path
            state.apply_action(decide(bot, state, seat, decision_seed))
            first = -1
            n += 1


__all__ = ["play_deal52"]
