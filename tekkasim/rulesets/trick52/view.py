"""One place that reads a Feskot/Tekka :class:`~tekkasim.rules.base.Observation` for the policies.

Everything the bots know about the observation format lives here: :func:`policy_view` turns one seat's
observation (plus the game's options, which are rules everyone knows) into the compact arrays of
``_policy_kernels`` (``v`` int64, ``m`` uint64; fields documented there). The compiled loop builds the same
arrays from a state's arrays (``_policy_kernels.view_from_arrays``); a test checks the two agree on many
random states, so a change of the observation format touches this file only.

Fields read (``rules/feskot.py`` and ``rules/tekka.py`` document them): ``hand``; ``public``: ``trump``,
``tricks`` (``{"leader", "plays": [(seat, card)], "winner"}``), ``signals`` (per trick, per play: 0, 1
slam, 2 drop), ``voids``, ``won``, ``seat_tricks``, ``first``; Tekka also ``calls`` (``[(seat, code)]``),
``declarer``, ``target``, ``mandatory``, ``pending_raise``.
"""

from __future__ import annotations

import numpy as np

from tekkasim.rules.base import Observation
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52 import _policy as pk

_PHASES = {name: i for i, name in enumerate(k.PHASE_NAMES)}


def signals_accepted(legal) -> int:
    """1 when the legal actions offered list signalled cards (``decide`` accepts only listed actions),
    else 0: a bot sends signals only when they would be accepted."""
    return int(any(isinstance(a, int | np.integer) and k.SIGNAL_MULT <= a < k.PRIME_BASE for a in legal))


def policy_view(obs: Observation, options: dict, cansig: int) -> tuple[np.ndarray, np.ndarray]:
    """The policy arrays ``(v, m)`` of ``obs`` (see ``_policy_kernels``)."""
    pub = obs.public
    v = np.full(pk.N_V, -1, np.int64)
    m = np.zeros(pk.N_M, np.uint64)
    tekka = "calls" in pub
    v[pk.V_SEAT] = obs.seat
    v[pk.V_PHASE] = _PHASES[obs.phase]
    v[pk.V_RULESET] = k.TEKKA if tekka else k.FESKOT
    v[pk.V_TRUMP] = -1 if pub.get("trump") is None else int(pub["trump"])
    tricks = pub.get("tricks", [])
    signals = pub.get("signals", [])
    done = [t for t in tricks if t.get("winner") is not None]
    current = tricks[-1] if tricks and tricks[-1].get("winner") is None else None
    v[pk.V_TRICK] = len(done)
    v[pk.V_NPLAY] = len(current["plays"]) if current else 0
    v[pk.V_LEADER] = int(current["leader"]) if current else -1
    for j in range(4):
        v[pk.V_TS + j] = 0
    if current:
        sig = signals[len(tricks) - 1] if len(signals) >= len(tricks) else [0] * 4
        for j, (_, c) in enumerate(current["plays"]):
            v[pk.V_TC + j] = int(c)
            v[pk.V_TS + j] = int(sig[j])
    played = 0
    drops = [0, 0, 0, 0]
    for t, trick in enumerate(done):
        sig = signals[t] if t < len(signals) else [0] * 4
        for j, (who, c) in enumerate(trick["plays"]):
            played |= 1 << int(c)
            if sig[j] == k.DROP:
                drops[who] |= 1 << (int(c) // 13)
            elif sig[j] == k.SLAM:
                v[pk.V_SLAM + who] = int(c) // 13
    for s in range(4):
        v[pk.V_VOIDS + s] = int(pub.get("voids", [0] * 4)[s])
        v[pk.V_DROPS + s] = drops[s]
        v[pk.V_SEAT_WON + s] = int(pub.get("seat_tricks", [0] * 4)[s])
    won = pub.get("won", (0, 0))
    v[pk.V_WON], v[pk.V_WON + 1] = int(won[0]), int(won[1])
    v[pk.V_FIRST] = int(pub.get("first", 0))
    calls = [int(code) for _, code in pub.get("calls", [])]
    v[pk.V_NCALLS] = len(calls)
    high, high_seat = 0, -1
    for i, code in enumerate(calls):
        v[pk.V_CALLS + i] = code
        if code != k.PASS and (code == k.D13 or code > high):
            high, high_seat = code, (v[pk.V_FIRST] + i) % 4
    v[pk.V_HIGH] = high
    v[pk.V_HIGH_SEAT] = high_seat
    if tekka:
        declarer = pub.get("declarer")
        v[pk.V_DECL] = -1 if declarer is None else int(declarer)
        v[pk.V_TARGET] = -1 if declarer is None else int(pub["target"])
        v[pk.V_MAND] = int(bool(pub.get("mandatory")))
        pending = pub.get("pending_raise")
        v[pk.V_PENDING] = 0 if pending is None else int(pending)
        v[pk.V_RAISES] = int(bool(options.get("raises", False)))
    else:
        v[pk.V_DECL], v[pk.V_TARGET], v[pk.V_MAND], v[pk.V_PENDING], v[pk.V_RAISES] = -1, -1, 0, 0, 0
    v[pk.V_SIGOPT] = int(bool(options.get("signals", True)))
    v[pk.V_CANSIG] = cansig if v[pk.V_SIGOPT] == 1 else 0
    m[pk.M_HAND] = np.uint64(int(obs.hand))
    m[pk.M_PLAYED] = np.uint64(played)
    return v, m


__all__ = ["policy_view", "signals_accepted"]
