"""Seeded self-play through the Game/State contract, producing deal records.

This is the slow, general path (one Python call per action) used for records and for checking the
contract; throughput work goes through each ruleset's compiled ``Game.play_random``.
Deal i of a run uses seed ``seed + i`` for the shuffle and an RNG seeded from the same number for the
players' choices, so any subset of the deals can be replayed alone and gives the same records.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from .rules import Game, State

Policy = Callable[[State, random.Random], object]


def random_policy(state: State, rng: random.Random):
    """A uniformly random action among ``legal_actions()`` (rule-following plays only)."""
    actions = state.legal_actions()
    return actions[rng.randrange(len(actions))]


def play_deal(game: Game, seed: int, policy: Policy = random_policy, **context) -> State:
    """Deal from ``seed`` and let ``policy`` act for every seat until the deal ends."""
    state = game.new_deal(seed, **context)
    rng = random.Random(seed ^ 0x5EED)
    while not state.is_terminal():
        state.apply_action(policy(state, rng))
    return state


def play_records(game: Game, n_deals: int, seed: int, policy: Policy = random_policy,
                 match: bool = False) -> Iterator[dict]:
    """Yield ``n_deals`` deal records.

    With ``match=False`` every deal is the first deal of a fresh match (independent deals). With
    ``match=True`` deals are chained into matches through ``next_deal_context()`` (Tekka to 104, Satat to 5,
    Shengji past A; Feskot games follow the first-dealt rotation), and records carry ``match`` and ``deal_no``.
    """
    context: dict = {}
    match_no, deal_no = 0, 0
    for i in range(n_deals):
        state = play_deal(game, seed + i, policy, **context)
        record = state.to_record()
        record["seed"] = seed + i
        if match:
            record["match"] = f"{game.name}-{seed}-{match_no}"
            record["deal_no"] = deal_no
            deal_no += 1
            if state.match_winner() is not None:
                context, match_no, deal_no = {}, match_no + 1, 0
            else:
                context = state.next_deal_context()
        yield record
