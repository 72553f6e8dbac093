"""Deliberately broken rulesets for tests/test_check_ruleset.py: each is Feskot with one contract property
broken, under a name of its own, so that the conformance check must name that property.

Each ``Game`` subclass keeps Feskot's state class but for one method (``from_record`` and ``new_deal``
build states through ``state_class``, so replayed and resampled states are broken the same way)."""

from __future__ import annotations

import itertools

import numpy as np

from tekkasim.bits import next_u64
from tekkasim.bots.base import Bot, Param, random_legal
from tekkasim.rulesets.feskot.game import Feskot, FeskotState


class SharedArraysState(FeskotState):
    """``clone`` copies the history but shares the card arrays with its original."""

    def clone(self):
        new = super().clone()
        new.arrays = self.arrays
        return new


class LeakyObservationState(FeskotState):
    """``observation`` shows each seat the hand of the seat after it."""

    def observation(self, seat):
        obs = super().observation(seat)
        obs.public["next_hand"] = self.hand((seat + 1) % 4)
        return obs


class TrueCardsState(FeskotState):
    """``resample`` hands back a copy of the true deal (rng advanced, seed dropped)."""

    def resample(self, seat, rng):
        next_u64(rng)
        world = self.clone()
        world.seed = None
        return world


class DropsActionState(FeskotState):
    """``to_record`` leaves out the last play of the last trick."""

    def to_record(self):
        record = super().to_record()
        if record["tricks"] and record["tricks"][-1]:
            record["tricks"][-1] = record["tricks"][-1][:-1]
        return record


class UnsortedLegalState(FeskotState):
    """``legal_actions`` in descending order."""

    def legal_actions(self):
        return sorted(super().legal_actions(), reverse=True)


class AcceptsIllegalState(FeskotState):
    """``apply_action`` ignores an int it does not know instead of refusing it."""

    def apply_action(self, action):
        if isinstance(action, int) and not isinstance(action, bool) and action > 10**6:
            return
        super().apply_action(action)


class EarlyReturnsState(FeskotState):
    """``returns`` gives the tricks so far before the end of the deal."""

    def returns(self):
        a, b = self.team_tricks()
        return float(a), float(b)


class CoarseKeyState(FeskotState):
    """``information_key`` leaves the tricks out: two branches of a position look the same."""

    def information_key(self, seat):
        obs = self.observation(seat)
        return (seat, obs.phase, obs.hand, obs.public["won"], tuple(obs.public["hand_sizes"]))


class SeededKeyState(FeskotState):
    """``information_key`` holds the deal's seed besides the observation: a resampled world, which has no
    seed, gets another key for the same observation."""

    def information_key(self, seat):
        return super().information_key(seat), self.seed


class LossyTextState(FeskotState):
    """``action_to_string`` drops a card's signal (``"TS:slam"`` is written ``"TS"``)."""

    def action_to_string(self, action):
        if isinstance(action, int) and 52 <= action < 156:
            action %= 52
        return super().action_to_string(action)


class PeekingTensorState(FeskotState):
    """Learning tensors (envs.md) whose observation tensor holds the next seat's hand."""

    def observation_tensor(self, seat):
        bits = [self._visible_hand(seat) >> c & 1 for c in range(52)]
        bits += [self.hand((seat + 1) % 4) >> c & 1 for c in range(52)]
        return np.array(bits, np.float32)


class RaisingState(FeskotState):
    """``legal_actions`` raises a plain RuntimeError from the sixth action on."""

    def legal_actions(self):
        if len(self._history) >= 5:
            raise RuntimeError("kernel exploded")
        return super().legal_actions()


def _game(name: str, state: type) -> type[Feskot]:
    return type(f"Broken_{name.replace('-', '_')}", (Feskot,), {"name": name, "state_class": state})


BrokenClone = _game("broken-clone", SharedArraysState)
LeakyObservation = _game("leaky-observation", LeakyObservationState)
TrueCards = _game("true-cards", TrueCardsState)
DropsAction = _game("drops-action", DropsActionState)
UnsortedLegal = _game("unsorted-legal", UnsortedLegalState)
AcceptsIllegal = _game("accepts-illegal", AcceptsIllegalState)
EarlyReturns = _game("early-returns", EarlyReturnsState)
CoarseKey = _game("coarse-key", CoarseKeyState)
SeededKey = _game("seeded-key", SeededKeyState)
LossyText = _game("lossy-text", LossyTextState)
PeekingTensor = _game("peeking-tensor", PeekingTensorState)
Raising = _game("raising", RaisingState)


class SeedIgnored(Feskot):
    """``new_deal`` deals a different deal every time it is called with the same seed."""

    name = "seed-ignored"
    _calls = itertools.count()

    def new_deal(self, seed, **context):
        return super().new_deal((seed + next(self._calls)) % 1000, **context)


# (game class, the property the check must name)
BROKEN = [
    (BrokenClone, "clone"),
    (LeakyObservation, "observation"),
    (TrueCards, "resample"),
    (DropsAction, "record"),
    (UnsortedLegal, "legal-actions"),
    (AcceptsIllegal, "illegal-action"),
    (EarlyReturns, "returns"),
    (CoarseKey, "information-key"),
    (SeededKey, "information-key"),
    (LossyText, "action-text"),
    (PeekingTensor, "tensors"),
    (SeedIgnored, "same-seed"),
    (Raising, "legal-actions"),
]


class FakePimc(Bot):
    """Stands in for the generic PIMC bot (a random legal action) to show the check plays search bots."""

    name = "PIMC"
    kind = "search"
    params_spec = (Param("worlds", 8, "worlds", 1, 100),)

    def act(self, view, rng):
        return None if view.optional else random_legal(view, rng)
