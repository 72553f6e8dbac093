"""The one play loop and seed scheme: every deal played through the State API goes through :func:`run`.

Who acts (the Game/State contract): every seat in ``state.actors()`` other than the seat to move is asked
first, in seat order (a Satat accusation must come before the next card moves the trick off the table);
the first that does not decline acts. Otherwise the seat to move acts, and may not decline.

Seeds (:func:`play_deal`, bots): decision ``k`` (the number of actions already applied to the deal) at
``table`` of the deal dealt from ``seed`` is made with ``mix_seed(seed, table, k)`` by the seat to move and
with ``mix_seed(seed, table, k, seat)`` by an out-of-turn seat. The compiled whole-deal loops seed their
decisions the same way (``bits.mix_seed3``), so a match-up of compiled bots plays the same actions there
as here. A table's play depends on nothing but the deal, the table and the bots: any split of the deals
over processes gives the same results. The tournament runner, analysis, warm-up, benchmarks and
experiments all play through :func:`play_deal`; ``simulate`` runs its policy functions through
:func:`run`, each drawing from the deal's one ``random.Random`` as its records always have.

>>> from tekkasim.bots import get_bot
>>> from tekkasim.rules import get_game
>>> bots = [get_bot("RANDOM")] * 4
>>> a = play_deal(get_game("feskot").new_deal(5), bots, 5).history()
>>> a == play_deal(get_game("feskot").new_deal(5), bots, 5).history()
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from ..bits import mix_seed
from ..cards import seat_name
from ..errors import TekkasimError
from ..rules.base import Action, State
from .base import Bot, decide

# choose(seat, k, optional) -> the seat's action for decision k, or None to decline an optional one
Chooser = Callable[[int, int, bool], Action | None]


def decision_seed(seed: int, table: int, k: int, seat: int | None = None) -> int:
    """The seed of decision ``k`` at ``table`` of the deal of ``seed``: the seat to move's (``seat`` None)
    or an out-of-turn ``seat``'s."""
    return mix_seed(seed, table, k) if seat is None else mix_seed(seed, table, k, seat)


def step(state: State, choose: Chooser, k: int) -> tuple[int, Action]:
    """Make decision ``k`` of ``state`` (out-of-turn seats first, then the seat to move) and apply it;
    return ``(seat, action)``."""
    actors = state.actors()
    mover = actors[0]  # the contract: the seat to move first
    for seat in actors[1:]:
        action = choose(seat, k, True)
        if action is not None:
            state.apply_action(action)
            return seat, action
    action = choose(mover, k, False)
    if action is None:
        raise TekkasimError(f"{seat_name(mover)} declined an action that is due ({state.where()})")
    state.apply_action(action)
    return mover, action


def run(state: State, choose: Chooser, before: Callable[[State, int], None] | None = None) -> State:
    """Play ``state`` to its end, each decision by ``choose``; ``before(state, k)``, if given, sees the
    state before decision ``k``."""
    k = 0
    while not state.is_terminal():
        if before is not None:
            before(state, k)
        step(state, choose, k)
        k += 1
    return state


def play_deal(
    state: State,
    bots: Sequence[Bot],
    seed: int,
    table: int = 0,
    before: Callable[[State, int], None] | None = None,
) -> State:
    """Play ``state`` (dealt from ``seed``) to its end with ``bots[seat]`` at each seat, at ``table`` of a
    duplicate pair, every decision through ``decide`` with the seeds of the module notes. ``BotError``
    names the bot and the decision."""

    if before is None and any(b.kind == "engine" for b in bots):
        from ..rulesets import get_ruleset, load_ref

        engine_loop = get_ruleset(state.game.name).engine_loop  # engines with compiled seats: the same play, faster
        if engine_loop is not None and load_ref(engine_loop).play_deal(state, bots, seed, table):
            return state

    def choose(seat: int, k: int, optional: bool) -> Action | None:
        return decide(bots[seat], state, seat, decision_seed(seed, table, k, seat if optional else None))

    return run(state, choose, before)


@contextmanager
def timing(bot: Bot, optional: bool = False, clock: Callable[[], float] = time.process_time) -> Iterator[list]:
    """Within the block, the seconds (by ``clock``: CPU time by default, which holds on a shared machine
    where the wall clock does not) of every decision ``bot`` makes to move, forced ones too, and with
    ``optional`` its out-of-turn ones, appended to the list it yields. The decisions do not change."""
    times: list[float] = []
    act = bot.act

    def timed(view, rng):
        t = clock()
        try:
            return act(view, rng)
        finally:
            if optional or not view.optional:
                times.append(clock() - t)

    bot.act = timed
    try:
        yield times
    finally:
        del bot.act


__all__ = ["Chooser", "decision_seed", "play_deal", "run", "step", "timing"]
