"""The engine host's deal loop for Feskot and Tekka: the seats that have a compiled form play in a kernel,
engines answer decide messages built without a ``View``; the same actions as ``bots.loop.play_deal``.

The State API loop costs the host a ``View``, ``legal_actions``/``possible_actions`` and a checked
``apply_action`` in Python at every decision, whoever makes it. Here the deal is played on the state's own
arrays (``_trick52.Arrays``: four uint64 hands and the tricks): :func:`_advance`, one kernel call, plays the
decisions of the compiled seats (``Bot.compiled_form``) in the family's one loop (``_policy.play_on``,
which ``play_tables`` and the tournament's blocks run too, with the same decision seeds) until a seat
without one is to move, and logs every action; the state keeps them (``Trick52State.note_applied``), so its
record, returns and history are those of the State API loop.
An engine to move in the play (a card; with Tekka's option raises also a raise request, or the answer to
one) gets its message from ``engine_messages.play_decide_message`` (the bytes of a full build: the observation
kept up to date, the legal cards from the kernel's mask, the raise requests from their number) and its
answer is checked against the same allowed actions; its action is the first of the next kernel call. An
engine's Prime choice and its Tekka calls are messaged from the record (``engine_messages.prime_decide_message``,
``call_decide_message``). Should none of these serve, the decision goes through ``bots.base.decide`` on
the state as usual; a deal with a seat whose bot is neither an engine nor compiled is left to the State API
loop. The twin of :func:`_advance` is that loop itself (tests/test_engines.py plays the same deals both
ways).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from tekkasim.bits import mix_seed3
from tekkasim.bots.base import Bot, decide
from tekkasim.bots.compiled import compiled_form
from tekkasim.bots.engines.host import EngineBot
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52 import _policy as pk
from tekkasim.rulesets.trick52 import engine_messages as em
from tekkasim.rulesets.trick52.game import Trick52State

_MASK64 = (1 << 64) - 1


# ``_advance``'s control array (uint64): what it is given, then what it answers
C_SEED, C_TABLE, C_K, C_FIRST, C_CANSIG, C_COMPILED = 0, 1, 2, 3, 4, 5  # C_FIRST: the action + 1, 0 none
C_LEGAL, C_PLAY, C_DECISION_SEED, C_RAISES = 6, 7, 8, 9
N_CONTROL = 10


@njit(cache=True, _nrt=False, inline="always")
def _log_action(log, k0, row, na, a, idx, count, d):
    """``pk.play_on``'s recorder of :func:`_advance`: decision ``na`` (the call's first is ``k0``) logged
    as ``(action, seat, trick, play)``."""
    j = na - k0
    log[j, 0] = a
    log[j, 1] = d.info[k.I_TO_MOVE]
    log[j, 2] = d.info[k.I_TRICK]
    log[j, 3] = d.info[k.I_PLAY]
    return k0


@njit(cache=True)
def _advance(hand, dealt, plays, signal, leader, winner, info, forms, control, log):
    """On the deal of the arrays ``hand`` .. ``info`` (``_trick52.Arrays``' fields, passed one by one: numba
    types plain arrays in its C dispatcher, a NamedTuple of them in Python, which costs more a call),
    apply the action ``control[C_FIRST] - 1`` if any (decided already), then play every decision of a
    compiled seat (bit ``seat`` of ``control[C_COMPILED]``; its parameter vector ``forms[seat]``;
    decision ``i`` drawn from ``mix_seed3(seed, table, i)``) from decision ``control[C_K]`` on, until a seat
    that is not compiled is to move or the deal ends: the family's one loop, ``pk.play_on``. Each action is
    logged as ``(action, seat, trick, play)``; returns how many. When a seat is left to move: ``C_PLAY`` 1
    in the play (phases ``play`` and ``raise``), then ``C_LEGAL`` its mask of legal cards (0 when it answers
    a raise) and ``C_RAISES`` the number of raise requests it may make (``n_raises``), and
    ``C_DECISION_SEED`` the seed of its decision. (One call per engine decision, with few arguments: the
    dispatch from Python costs more than the work.)"""
    d = k.Arrays(hand, dealt, plays, signal, leader, winner, info)
    work = (
        np.empty(1, np.uint64),
        np.empty(1, np.uint64),
        np.empty(52, np.int64),
        np.empty(k.MAX_ACTIONS, np.int64),
        np.empty(pk.N_V, np.int64),
        np.empty(pk.N_M, np.uint64),
    )  # pk.new_work()
    seed = control[C_SEED]
    tab = control[C_TABLE]
    k0 = np.int64(control[C_K])
    n = 0
    a = np.int64(control[C_FIRST]) - 1
    if a >= 0:
        _log_action(log, k0, 0, k0, a, 0, 0, d)
        k.apply_action(d, a)
        n = 1
    na, _, status = pk.play_on(
        d,
        seed,
        tab,
        k0 + n,
        k0 + log.shape[0],
        forms,
        pk.ALL_SEATS,
        np.int64(control[C_COMPILED]),
        np.int64(control[C_CANSIG]),
        work,
        _log_action,
        log,
        k0,
        0,
    )
    if status < 0:
        raise ValueError("a deal ran past the log or played an action not among the legal ones")
    if status == 1:
        phase = info[k.I_PHASE]
        control[C_PLAY] = np.uint64(1) if phase == k.PH_PLAY or phase == k.PH_RAISE else np.uint64(0)
        control[C_LEGAL] = k.current_legal_mask(d) if phase == k.PH_PLAY else np.uint64(0)
        control[C_RAISES] = k.n_raises(info) if phase == k.PH_PLAY else 0
        control[C_DECISION_SEED] = mix_seed3(seed, tab, np.uint64(na))
    return na - k0


def play_deal(state: Trick52State, bots: Sequence[Bot], seed: int, table: int = 0) -> bool:
    """Play ``state`` to its end as ``bots.loop.play_deal`` does (the same actions, seeds and faults) when
    it is a Feskot or Tekka deal with an engine at some seat and a compiled form at every other; return
    False, having done nothing, otherwise."""
    if not isinstance(state, Trick52State) or not any(isinstance(b, EngineBot) for b in bots):
        return False
    ruleset = state.game.name
    forms = np.zeros((4, pk.N_P), np.float64)
    compiled = 0
    for seat, bot in enumerate(bots):
        if isinstance(bot, EngineBot):
            if not bot.supports(ruleset):
                return False  # the State API loop says so in one line
            continue
        form = compiled_form(bot, ruleset)
        if form is None:
            return False
        forms[seat] = form
        compiled |= 1 << seat
    arrays = state.arrays
    info = arrays.info
    control = np.zeros(N_CONTROL, np.uint64)
    control[C_SEED] = int(seed) & _MASK64
    control[C_TABLE] = table
    control[C_CANSIG] = int(state.game.takes_signals)
    control[C_COMPILED] = compiled
    log = np.empty((k.MAX_ACTIONS + 64, 4), np.int64)
    n = 0  # actions applied: decision n is made with mix_seed(seed, table, n)
    while True:
        control[C_K] = n
        done = _advance(*arrays, forms, control, log)
        if done:
            state.note_applied(log[:done].tolist())
            n += done
        phase, seat = info[k.I_PHASE], int(info[k.I_TO_MOVE])
        if phase == k.PH_TERMINAL:
            return True
        bot = bots[seat]
        now = control.tolist()  # Python ints: a read of the array costs as much as its copy
        decision_seed = now[C_DECISION_SEED]  # mix_seed(seed, table, n)
        if now[C_FIRST]:
            control[C_FIRST] = 0
        if now[C_PLAY]:
            action = em.play_decision(bot, state, seat, decision_seed, now[C_LEGAL], now[C_RAISES])
        elif phase == k.PH_PRIME:
            action = em.choose_prime(bot, state, seat, decision_seed)
        elif phase == k.PH_AUCTION:
            action = em.auction_call(bot, state, seat, decision_seed)
        else:
            action = None
        if action is None:  # anything else: the State API path
            state.apply_action(decide(bot, state, seat, decision_seed))
            n += 1
        else:
            control[C_FIRST] = action + 1  # applied by the next kernel call, as decision n
