"""Seeded self-play of policy functions (random players, records, checks of the contract).

A :data:`Policy` is ``policy(state, seat, rng) -> action | None``: asked for every seat in
``state.actors()``, it returns one of ``state.legal_actions_for(seat)``, or None to decline an optional
(out-of-turn) action such as a Satat accusation; the seat to move must act. ``rng`` is the deal's
``random.Random`` (seeded from the deal seed, so any deal can be replayed alone). A policy should only
look at ``state.observation(seat)``, ``state.information_key(seat)``, ``state.legal_actions_for(seat)``
and ``state.resample(seat, ...)``; bots get exactly that through ``tekkasim.bots.View``. A policy that
never takes an optional action may say so with the attribute ``declines_out_of_turn = True`` (as
:func:`random_policy` does); it is then asked only when its seat is to move, which saves a call per
out-of-turn actor and changes nothing else.

:func:`step` makes one decision, :func:`play_deal` one deal, :func:`play_deals` a run of deals (chained
into matches through ``next_deal_context()`` or independent), :func:`play_match` one match and
:func:`play_records` the deal records of a run. This is the slow, general path (one Python call per
action) used for records, bots and checking the contract; throughput work goes through each ruleset's
compiled ``Game.play_random``. Deal i of a run uses seed ``seed + i`` for the shuffle and an RNG seeded
from the same number for the players' choices.

Who acts when is ``bots.loop``'s, the one play loop; bots play through ``bots.loop.play_deal``, with a
seed of their own for every decision. A policy here instead draws from the deal's one ``random.Random``
in turn: the records of random play (``tekkasim play``, ``tekkasim smoke``, the golden files) were made
that way and stay the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from .bots import loop
from .bots.loop import Chooser
from .errors import OptionError
from .rules import Game, State
from .rules.base import Action

Policy = Callable[[State, int, random.Random], Action | None]


def random_policy(state: State, seat: int, rng: random.Random) -> Action | None:
    """A uniformly random action of ``legal_actions()`` for the seat to move (rule-following plays only);
    declines every out-of-turn action (it never accuses)."""
    if seat != state.current_player():
        return None
    actions = state.legal_actions()
    return actions[rng.randrange(len(actions))]


random_policy.declines_out_of_turn = True


def deal_rng(seed: int) -> random.Random:
    """The players' RNG of the deal with shuffle seed ``seed``."""
    return random.Random(seed ^ 0x5EED)


def _per_seat(policy: Policy | Sequence[Policy]) -> tuple[tuple[Policy, ...], tuple[bool, ...]]:
    """The four seats' policies, and for each whether it is asked out of turn."""
    if callable(policy):
        policies = (policy,) * 4
    else:
        policies = tuple(policy)
        if len(policies) != 4 or not all(callable(p) for p in policies):
            raise OptionError("policy must be one callable or four (one per seat: bottom, right, top, left)")
    return policies, tuple(not getattr(p, "declines_out_of_turn", False) for p in policies)


def _chooser(state: State, policies: tuple[Policy, ...], asked: tuple[bool, ...], rng: random.Random) -> Chooser:
    def choose(seat: int, k: int, optional: bool) -> Action | None:
        if optional and not asked[seat]:
            return None
        return policies[seat](state, seat, rng)

    return choose


def step(state: State, policy: Policy | Sequence[Policy], rng: random.Random) -> tuple[int, Action]:
    """Make one decision and apply it; return ``(seat, action)``.

    Every seat in ``state.actors()`` other than the seat to move is asked first, in seat order (an
    accusation must come before the next card moves the trick off the table); the first that does not
    decline acts. Otherwise the seat to move acts; it may not decline (``bots.loop.step``, the one loop).
    ``policy`` is one policy for every seat or four, one per seat."""
    return loop.step(state, _chooser(state, *_per_seat(policy), rng), 0)


def play_deal(game: Game, seed: int, policy: Policy | Sequence[Policy] = random_policy, **context) -> State:
    """Deal from ``seed`` (with match ``context`` from ``next_deal_context``) and play it to the end."""
    policies, asked = _per_seat(policy)
    state = game.new_deal(seed, **context)
    return loop.run(state, _chooser(state, policies, asked, deal_rng(seed)))


def play_deals(
    game: Game, n_deals: int, seed: int, policy: Policy | Sequence[Policy] = random_policy, match: bool = True
) -> Iterator[State]:
    """Yield the final states of ``n_deals`` deals, deal i from seed ``seed + i``.

    With ``match=True`` deals are chained into matches through ``next_deal_context()`` (Tekka to 104,
    Satat to 5, Shengji past A; Feskot games follow the first-dealt rotation): when a deal ends a match
    (``match_winner()``), the next deal starts a new one. With ``match=False`` every deal is the first
    deal of a fresh match."""
    policies = _per_seat(policy)[0]
    context: dict = {}
    for i in range(n_deals):
        state = play_deal(game, seed + i, policies, **context)
        yield state
        if match and state.match_winner() is None:
            context = state.next_deal_context()
        else:
            context = {}


def play_match(
    game: Game, seed: int, policy: Policy | Sequence[Policy] = random_policy, max_deals: int = 10_000
) -> list[State]:
    """The final states of one match from ``seed`` (deal i uses ``seed + i``), up to the deal that ends it
    or ``max_deals`` deals."""
    states = []
    for state in play_deals(game, max_deals, seed, policy, match=True):
        states.append(state)
        if state.match_winner() is not None:
            break
    return states


def play_records(
    game: Game, n_deals: int, seed: int, policy: Policy | Sequence[Policy] = random_policy, match: bool = False
) -> Iterator[dict]:
    """Yield the deal records of :func:`play_deals`, each with its ``seed``; with ``match=True`` also
    ``match`` (``"<ruleset>-<seed>-<n>"``) and ``deal_no`` (0 for a match's first deal)."""
    match_no, deal_no = 0, 0
    for i, state in enumerate(play_deals(game, n_deals, seed, policy, match=match)):
        record = state.to_record()
        record["seed"] = seed + i
        if match:
            record["match"] = f"{game.name}-{seed}-{match_no}"
            record["deal_no"] = deal_no
            deal_no += 1
            if state.match_winner() is not None:
                match_no, deal_no = match_no + 1, 0
        yield record
