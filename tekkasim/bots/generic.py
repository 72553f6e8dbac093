"""The generic search bots PIMC and ISMCTS: they play any ruleset through the Game/State contract alone.

Nothing here names a ruleset or reaches below the contract (no kernels, no state arrays): a plug-in that
implements only ``Game``/``State`` (``spec/rulesets.md``), ``resample`` included, gets both bots. Both
decide from the seat's :class:`~tekkasim.bots.base.View` only: every world they search is
``view.sample(rng)``, a deal consistent with what the seat has seen, never the true hidden cards.

Value. A finished deal is worth, to a seat, its team's ``returns()`` less the other team's (the margin the
duplicate pair score is made of; for zero-sum returns the same order as the team's own return).

``PIMC`` (determinized search, perfect-information Monte Carlo)
    For each of ``worlds`` worlds and each option, ``rollouts`` playouts to the end of the deal from the
    world with the option applied, by the ``rollout`` bot at every seat; the option with the best mean
    value over the worlds is played, ties to the first option (declining first, then the legal actions in
    their sorted order). The worlds' budget is :class:`~tekkasim.bots.pimc.Limit`'s: ``time_ms=0`` scores
    exactly ``worlds`` worlds (reproducible: the same decision for the same seed); ``time_ms > 0`` stops
    adding worlds when one more, as slow as the slowest so far, would pass the budget (at least one).
``ISMCTS`` (single-observer information-set Monte Carlo tree search; Cowling, Powley and Whitehouse,
    "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012)
    Each iteration draws a world, descends one tree of action histories from the seat's decision (the
    tree's nodes stand for the observer's information sets: every world of an iteration shares the seat's
    information key at the root), choosing among the children available in that world by UCB1 with
    availability counts, expands one untried action, plays the world out uniformly at random and credits
    every node on the path with the value of the team of the seat that acted into it. UCB1 reads values
    scaled to [0, 1] by the largest absolute margin seen so far in this decision (the returns' scale is
    the ruleset's own and not known in advance); ``c`` weighs exploration. ``iterations`` iterations, or
    with ``time_ms > 0`` as many as fit (at least one); the most visited root action is played, ties to
    the first option as in PIMC.

Rollouts follow the one play loop (:mod:`tekkasim.bots.loop`): out-of-turn actors are asked first, then
the seat to move, each through ``bot.act`` on its own seat's view of the world, from one RNG stream. A
uniformly random rollout (``rollout=random``, the default) takes the short way with the same meaning:
RANDOM declines every out-of-turn action and plays a uniformly random action of
``legal_actions_for(seat to move)``.

Out of turn (``view.optional``, a Satat accusation): the options are declining (None) and the seat's
out-of-turn actions, searched like any other; declining is scored by the deal going on with the seat
passing at once. ISMCTS's tree below the root follows RANDOM's rollout: only the seat to move acts.
"""

from __future__ import annotations

import math
import time
from typing import Any, ClassVar

import numpy as np

from ..bits import below
from ..errors import BotError
from ..rules.base import Action, State
from .base import Bot, Param, RandomBot, View
from .loop import run
from .pimc import TIME_MS, WORLDS, Limit, Worlds


def margin(state: State, seat: int) -> float:
    """A finished deal's value to ``seat``: its team's return less the other team's."""
    r = state.returns()
    return float(r[seat & 1]) - float(r[1 - (seat & 1)])


def random_rollout(state: State, rng: np.ndarray) -> State:
    """Play ``state`` to its end as four RANDOM bots would through the play loop (every out-of-turn
    action declined; the seat to move plays a uniformly random action of its ``legal_actions_for``)."""
    while not state.is_terminal():
        acts = state.legal_actions_for(state.current_player())
        state.apply_action(acts[int(below(rng, len(acts)))] if len(acts) > 1 else acts[0])
    return state


def rollout(state: State, bot: Bot, rng: np.ndarray, passing: int | None = None) -> State:
    """Play ``state`` to its end with ``bot`` at every seat through the one play loop (``loop.run``), every
    decision ``bot.act`` on that seat's view with the stream ``rng``. ``passing``: a seat that declines
    its out-of-turn action at the first decision (PIMC's "decline" option)."""
    if type(bot) is RandomBot:
        return random_rollout(state, rng)

    def choose(seat: int, k: int, optional: bool) -> Action | None:
        if optional and k == 0 and seat == passing:
            return None
        return bot.act(View(state, seat), rng)

    return run(state, choose)


def options(view: View) -> list[Action | None]:
    """What the seat may do: the legal actions, with declining (None) first when the action is optional."""
    return [None, *view.legal] if view.optional else list(view.legal)


def _apply(world: State, option: Action | None) -> State:
    state = world.clone()
    if option is not None:
        state.apply_action(option)
    return state


ROLLOUT = Param(
    "rollout",
    "random",
    "the bot that plays each world out from every seat's view (any bot name for the ruleset, e.g. jangara)",
)


def _check_rollout(bot: str, spec: str) -> None:
    from . import get_bot

    try:
        get_bot(spec)
    except BotError as exc:
        raise BotError(f"bad value {spec!r} for parameter 'rollout' of {bot}: {exc}") from None


class Pimc(Bot):
    """PIMC: determinized search over the contract alone (module notes)."""

    name = "PIMC"
    kind = "search"
    description = (
        "generic determinized search (any ruleset): each option scored by rollouts (default random) to the "
        "end of the deal in worlds resampled from the seat's view; the best mean team margin"
    )
    params_spec: ClassVar[tuple[Param, ...]] = (
        WORLDS,
        TIME_MS,
        ROLLOUT,
        Param("rollouts", 1, "playouts per option per world", 1, 256),
    )

    def __init__(self, **params: Any):
        super().__init__(**params)
        _check_rollout(self.name, self.params["rollout"])
        self._policies: dict[str, Bot] = {}

    def policy(self, ruleset: str) -> Bot:
        """The rollout bot for ``ruleset`` (made once per ruleset: bots keep no memory of a deal)."""
        if ruleset not in self._policies:
            from . import get_bot

            self._policies[ruleset] = get_bot(self.params["rollout"], ruleset=ruleset)
        return self._policies[ruleset]

    def act(self, view: View, rng: np.ndarray) -> Action | None:
        start = time.perf_counter()
        opts = options(view)
        if len(opts) <= 1:
            return opts[0] if opts else None
        policy = self.policy(view.game.name)
        n = int(self.params["rollouts"])
        passing = view.seat if view.optional else None

        def score(world: State) -> list[float]:
            out = []
            for option in opts:
                total = 0.0
                for _ in range(n):
                    state = _apply(world, option)
                    total += margin(rollout(state, policy, rng, passing if option is None else None), view.seat)
                out.append(total / n)
            return out

        worlds = Worlds(lambda k: [view.sample(rng) for _ in range(k)], Limit.of(self.params), None, start)
        mean = worlds.matrix(score).mean(axis=0)
        return opts[int(np.flatnonzero(mean >= mean.max() - 1e-9)[0])]


class _Node:
    """One node of the ISMCTS tree: the option that led to it, who took it, and its statistics (from the
    point of view of that seat's team)."""

    __slots__ = ("seat", "visits", "total", "avail", "children")

    def __init__(self, seat: int):
        self.seat = seat
        self.visits = 0
        self.total = 0.0  # summed margins, for ``seat``'s team
        self.avail = 0  # iterations in which this node's option was available at its parent
        self.children: dict[Any, _Node] = {}


class Ismcts(Bot):
    """ISMCTS: single-observer information-set Monte Carlo tree search over the contract alone (module
    notes)."""

    name = "ISMCTS"
    kind = "search"
    description = (
        "generic single-observer information-set MCTS (any ruleset; Cowling et al. 2012): UCB1 with "
        "availability counts over worlds resampled from the seat's view, random playouts; the most visited action"
    )
    params_spec: ClassVar[tuple[Param, ...]] = (
        Param("iterations", 500, "iterations per decision (with time_ms=0, exactly this many)", 1, 1_000_000),
        TIME_MS,
        Param("c", 0.7, "UCB1 exploration constant, on values scaled to [0, 1]", 0.0, 100.0),
    )

    def act(self, view: View, rng: np.ndarray) -> Action | None:
        start = time.perf_counter()
        opts = options(view)
        if len(opts) <= 1:
            return opts[0] if opts else None
        budget = int(self.params["time_ms"])
        deadline = start + budget / 1000.0 if budget > 0 else None
        c = float(self.params["c"])
        root = _Node(view.seat)
        scale = [0.0]  # the largest |margin| seen: values are read as (mean + scale) / (2 scale)
        slowest = 0.0
        for _ in range(int(self.params["iterations"])):
            t0 = time.perf_counter()
            self._iterate(root, view, opts, rng, c, scale)
            if deadline is not None:
                now = time.perf_counter()
                slowest = max(slowest, now - t0)
                if now + slowest >= deadline:
                    break
        best, action = -1, opts[0]
        for option in opts:  # the most visited, ties to the first option
            child = root.children.get(option)
            if child is not None and child.visits > best:
                best, action = child.visits, option
        return action

    def _iterate(self, root: _Node, view: View, opts: list, rng: np.ndarray, c: float, scale: list[float]) -> None:
        state = view.sample(rng)
        node, path, first = root, [], True
        while not state.is_terminal():
            if first:
                acts, seat = opts, view.seat
            else:
                seat = state.current_player()
                acts = state.legal_actions_for(seat)
            untried = [a for a in acts if a not in node.children]
            if untried:
                action = untried[int(below(rng, len(untried)))] if len(untried) > 1 else untried[0]
                child = node.children[action] = _Node(seat)
                for a in acts:
                    if a in node.children:
                        node.children[a].avail += 1
                if action is not None:
                    state.apply_action(action)
                path.append(child)
                node = None
                break
            child, action = self._select(node, acts, c, scale[0])
            if action is not None:
                state.apply_action(action)
            path.append(child)
            node, first = child, False
        if node is None:
            random_rollout(state, rng)
        value = margin(state, 0)  # team A's
        scale[0] = max(scale[0], abs(value))
        for child in path:
            child.visits += 1
            child.total += value if child.seat & 1 == 0 else -value

    @staticmethod
    def _select(node: _Node, acts: list, c: float, scale: float) -> tuple[_Node, Any]:
        """UCB1 over the children available now (their availability counts raised), ties to the first."""
        best, pick, pick_action = -math.inf, None, None
        for a in acts:
            child = node.children[a]
            child.avail += 1
            mean = child.total / child.visits
            value = (mean + scale) / (2.0 * scale) if scale > 0 else 0.5
            ucb = value + c * math.sqrt(math.log(child.avail) / child.visits)
            if ucb > best:
                best, pick, pick_action = ucb, child, a
        return pick, pick_action


__all__ = ["Ismcts", "Pimc", "margin", "options", "random_rollout", "rollout"]
