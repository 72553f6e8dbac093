"""One determinized search (perfect-information Monte Carlo, PIMC) for every ruleset.

A determinized search decides by drawing *worlds* (full deals consistent with what the seat has seen),
scoring every candidate action in every world as if the cards were open, and combining the scores over
the worlds. This module owns everything that does not depend on the ruleset:

* the **stream of worlds** (:class:`Worlds`): ``view.sample(rng)`` draws, optionally weighted by an
  adapter's *inference* (how likely a world makes the other seats' past actions) and importance-resampled
  from ``oversample`` candidates per kept world (:func:`systematic`);
* the **budget** (:class:`Limit`): at most ``worlds`` worlds, and with ``time_ms > 0`` no further world
  once that many milliseconds since the decision began would be passed by one more world as slow as the
  slowest so far (at least one world is scored).
  ``time_ms=0`` is reproducible: the same decision for the same seed;
* **combining** the scores (:meth:`Worlds.matrix`, :func:`choose`): a worlds x options matrix and
  ``base.keep_prior`` (the policy's own option unless another is better by a paired t-statistic);
* the **mistake** draw (:func:`slip`, ``mistake_rate``), the same draw in every ruleset;
* **ORACLE** (``oracle.Oracle``): the one-world case, :meth:`Worlds.one` of the true state, handed to
  the ruleset's adapter (:meth:`Adapter.oracle`).

A ruleset supplies an :class:`Adapter`: its candidate actions, how a world scores them (the double-dummy
solver or compiled rollouts), how a world is weighted, and its own parameters. The adapters are
``search.Trick52Adapter`` (Feskot, Tekka), ``satat.SatatAdapter`` and ``shengji.ShengjiAdapter``;
:class:`StateApiSearch` is the slow one that needs nothing but the ``rules`` State API (any ruleset): the
twin the compiled adapters are tested against (``tests/test_search_core.py``). ``docs/search.md`` lists
the parameters.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..bits import below, mistake
from ..rules.base import Action, State
from .base import MISTAKE_RATE, Bot, Param, View, keep_prior

WORLDS = Param("worlds", 16, "determinized worlds scored per decision (with time_ms=0, exactly this many)", 1, 4096)
TIME_MS = Param(
    "time_ms",
    0,
    "time per decision in ms: 0 = exactly `worlds` worlds (reproducible); > 0 = no further world once the "
    "time is spent (at most `worlds`, at least one)",
    0,
    600_000,
)
OVERSAMPLE = Param("oversample", 4, "with inference: candidate worlds drawn per world kept", 1, 64)

TIME_BATCH = 4  # worlds drawn at a time under a deadline (a weighted draw resamples within its batch)


@dataclass(frozen=True)
class Limit:
    """How many worlds a decision scores: at most ``worlds``; with ``time_ms > 0`` none that would end after
    ``time_ms`` milliseconds, judged by the slowest world so far (at least one). The same meaning in every
    ruleset."""

    worlds: int
    time_ms: int = 0

    @classmethod
    def of(cls, params: dict) -> Limit:
        return cls(int(params.get("worlds", 1)), int(params.get("time_ms", 0)))

    def deadline(self, start: float) -> float | None:
        return start + self.time_ms / 1000.0 if self.time_ms > 0 else None


def systematic(weights: np.ndarray, n: int, rng: np.ndarray) -> np.ndarray | None:
    """Systematic resampling: ``n`` indices into ``weights`` (each index about ``n w_i / sum w`` times),
    one uniform draw from ``rng``. None when no weight is positive."""
    total = float(weights.sum())
    if not total > 0:
        return None
    cum = np.cumsum(weights / total)
    u = (int(below(rng, 1 << 30)) + 0.5) / (1 << 30) / n
    picks = np.searchsorted(cum, u + np.arange(n) / n, side="left")
    return np.minimum(picks, len(weights) - 1)


class Adapter:
    """What a ruleset supplies to the search (subclass per ruleset; one instance per decision).

    ``decide`` returns the action for ``view`` given the lazy stream of worlds (drawn only when first used,
    so whatever the adapter draws from ``rng`` before touching the worlds comes first); ``oracle`` the same
    for the one true world. ``weigh`` gives the inference weights of candidate worlds (None when the
    adapter does not weigh with these parameters)."""

    params: ClassVar[tuple[Param, ...]] = ()  # the adapter's own parameters beside MISTAKE_RATE, WORLDS, TIME_MS
    oracle_params: ClassVar[tuple[Param, ...]] = ()
    batch: ClassVar[int | None] = None  # worlds drawn at a time with time_ms=0 (None: all at once)

    def __init__(self, params: dict[str, Any]):
        self.p = params

    def mistake_actions(self, view: View) -> list[Action]:
        """The actions a mistake is drawn from."""
        return view.legal

    def weighted(self) -> bool:
        return False

    def weigh(self, view: View, worlds: list[State], rng: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def decide(self, view: View, worlds: Worlds, rng: np.ndarray) -> Action | None:
        raise NotImplementedError

    def oracle(self, view: View, world: Worlds, rng: np.ndarray) -> Action | None:
        raise NotImplementedError


class Worlds:
    """The worlds of one decision, drawn lazily in batches until the :class:`Limit` is reached.

    Iterating yields the worlds to score (again from the first on every pass, drawing more only while the
    limit allows); ``first`` is a world to read what every world shares (the seat's own cards, the public
    history)."""

    def __init__(self, draw: Callable[[int], list[State]], limit: Limit, batch: int | None, start: float):
        self._draw = draw
        self.limit = limit
        self.deadline = limit.deadline(start)
        self.batch = (TIME_BATCH if self.deadline is not None else limit.worlds) if batch is None else batch
        self.drawn: list[State] = []
        self._slowest = 0.0  # seconds: the longest a world took to draw and score, under a deadline

    @classmethod
    def one(cls, world: State) -> Worlds:
        """The stream of one known world (ORACLE's true state)."""
        w = cls(lambda n: [world], Limit(1), 1, 0.0)
        w.drawn.append(world)
        return w

    def _more(self) -> bool:
        room = self.limit.worlds - len(self.drawn)
        if room <= 0:
            return False
        if self.drawn and self._late():
            return False
        self.drawn.extend(self._draw(min(self.batch, room)))
        return True

    def _late(self) -> bool:
        """Under a deadline: whether another world, costing as much as the slowest one so far, would end
        past it (so a decision overruns ``time_ms`` by little, not by a whole world)."""
        if self.deadline is None:
            return False
        return time.perf_counter() + self._slowest >= self.deadline

    @property
    def first(self) -> State:
        if not self.drawn:
            self._more()
        return self.drawn[0]

    def __iter__(self) -> Iterator[State]:
        i = 0
        while True:
            t0 = time.perf_counter()
            if i >= len(self.drawn) and not self._more():
                return
            yield self.drawn[i]
            i += 1
            if self.deadline is not None:
                self._slowest = max(self._slowest, time.perf_counter() - t0)
                if self._late():
                    return

    def matrix(self, score: Callable[[State], Any]) -> np.ndarray:
        """``score(world)`` (one value per option) for every world: a worlds x options array."""
        return np.array([np.asarray(score(world), dtype=float) for world in self])

    def mean(self, score: Callable[[State], Any]) -> np.ndarray:
        return self.matrix(score).mean(axis=0)


def choose(
    worlds: Worlds,
    score: Callable[[State], Any],
    prior: int = -1,
    z: float = 0.0,
    margin: float = 0.0,
    sign: bool = False,
) -> int:
    """The index of the option played: the scores over the worlds combined by ``base.keep_prior`` (the
    ``prior`` option unless another beats it by a paired t-statistic of ``z``; ``z=0``: the best mean)."""
    return keep_prior(worlds.matrix(score), prior, z, margin, sign)


def draw_worlds(adapter: Adapter, view: View, rng: np.ndarray, n: int, oversample: int) -> list[State]:
    """``n`` worlds for ``view``: uniform draws, or with the adapter's inference the systematic resample of
    ``n * oversample`` candidates by their weights (the first ``n`` candidates if none has weight)."""
    if not adapter.weighted() or oversample <= 1:
        return [view.sample(rng) for _ in range(n)]
    cands = [view.sample(rng) for _ in range(n * oversample)]
    picks = systematic(np.asarray(adapter.weigh(view, cands, rng), dtype=float), n, rng)
    return cands[:n] if picks is None else [cands[int(i)] for i in picks]


def slip(view: View, rng: np.ndarray, rate: float, actions: list[Action]) -> Action | None:
    """With probability ``rate`` a uniformly random action of ``actions`` (the bot's mistake), else None;
    draws from ``rng`` only when the rate is positive. Never out of turn."""
    if view.optional or not actions:
        return None
    if mistake(rng, float(rate)):
        return actions[int(below(rng, len(actions)))]
    return None


class SearchBot(Bot):
    """The determinized search of every ruleset: the ruleset's ``adapter`` plus this core. The ladder's
    TANOOR, TIZAB and ZELZELA are presets of a ruleset's subclass."""

    name = "SEARCH"
    kind = "search"
    adapter: ClassVar[type[Adapter]] = Adapter

    def act(self, view: View, rng: np.ndarray) -> Action | None:
        start = time.perf_counter()
        ad = self.adapter(self.params)
        slipped = slip(view, rng, self.params.get("mistake_rate", 0.0), ad.mistake_actions(view))
        if slipped is not None:
            return slipped
        oversample = int(self.params.get("oversample", 1))
        worlds = Worlds(lambda n: draw_worlds(ad, view, rng, n, oversample), Limit.of(self.params), ad.batch, start)
        return ad.decide(view, worlds, rng)


# --- the slow adapter: the State API only ---------------------------------------------------------------


def team_margin(state: State, seat: int) -> float:
    """A finished deal's ``returns()`` as seen by ``seat``'s team: its own less the other team's."""
    r = state.returns()
    return float(r[seat & 1] - r[1 - (seat & 1)])


def play_out(state: State, policy: Bot, rng: np.ndarray) -> None:
    """Play ``state`` to its end through the State API, ``policy`` deciding for the seat to move (no
    out-of-turn actions: a rollout never accuses)."""
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(policy.act(View(state, seat), rng))


def exact_value(state: State, seat: int, value: Callable[[State, int], float]) -> float:
    """The value of ``state`` for ``seat`` with every card open: ``seat``'s team maximizes ``value`` of the
    end, the other team minimizes it (full-width minimax through the State API; small positions only)."""
    if state.is_terminal():
        return value(state, seat)
    ours = state.current_player() & 1 == seat & 1
    best = None
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        v = exact_value(child, seat, value)
        if best is None or (v > best if ours else v < best):
            best = v
    return float(best)


class StateApiAdapter(Adapter):
    """Determinized search through the ``rules`` State API alone, for any ruleset (no kernels): every
    legal action is a candidate; a world scores it by applying it and then either playing the deal out
    with the ``rollout`` bot (any registered name) at every seat (``evaluate="rollout"``) or by full-width
    minimax with every card open (``evaluate="exact"``, the slow double dummy: small positions only); the
    score is the value ``value(state, seat)`` of the end (default: the team's ``returns()`` margin); no
    inference. Slow: the twin the compiled adapters are checked against, and a search for a new ruleset
    before it has kernels."""

    params = (
        WORLDS,
        TIME_MS,
        Param("evaluate", "rollout", "how a world scores an action: rollout | exact", choices=("rollout", "exact")),
        Param("rollout", "random", "the bot (a registered name) that plays each world out at every seat"),
        Param("override_z", 0.0, "paired t-statistic over the worlds needed to override the first action", 0.0, 10.0),
    )
    value: ClassVar[Callable[[State, int], float]] = staticmethod(team_margin)

    def candidates(self, view: View) -> list[Action]:
        return list(view.legal)

    def policy(self, ruleset: str) -> Bot:
        from . import get_bot

        return get_bot(self.p["rollout"], ruleset=ruleset)

    def scores(self, world: State, actions: list[Action], seat: int, rng: np.ndarray) -> np.ndarray:
        value = type(self).value
        exact = self.p["evaluate"] == "exact"
        policy = None if exact else self.policy(world.game.name)
        out = np.empty(len(actions))
        for i, action in enumerate(actions):
            state = world.clone()
            state.apply_action(action)
            if exact:
                out[i] = exact_value(state, seat, value)
            else:
                play_out(state, policy, rng)
                out[i] = value(state, seat)
        return out

    def decide(self, view: View, worlds: Worlds, rng: np.ndarray) -> Action | None:
        if view.optional:
            return None
        actions = self.candidates(view)
        if len(actions) == 1:
            return actions[0]
        i = choose(worlds, lambda w: self.scores(w, actions, view.seat, rng), -1, self.p["override_z"])
        return actions[i]

    def oracle(self, view: View, world: Worlds, rng: np.ndarray) -> Action | None:
        return self.decide(view, world, rng)


class StateApiSearch(SearchBot):
    """The slow determinized search for any ruleset (:class:`StateApiAdapter`); by import path
    ``tekkasim.bots.pimc:StateApiSearch``."""

    name = "STATE-API-SEARCH"
    description = "determinized search through the State API alone (slow; any ruleset)"
    adapter = StateApiAdapter
    params_spec = (MISTAKE_RATE, *StateApiAdapter.params)


__all__ = [
    "OVERSAMPLE",
    "TIME_MS",
    "WORLDS",
    "Adapter",
    "Limit",
    "SearchBot",
    "StateApiAdapter",
    "StateApiSearch",
    "Worlds",
    "choose",
    "draw_worlds",
    "exact_value",
    "play_out",
    "slip",
    "systematic",
    "team_margin",
]
