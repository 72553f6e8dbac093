"""Double-dummy solving speed: tekkasim's solver against DDS (through endplay) on the same deals.

200 random full deals (seeded), one random trump and leader each, 13 tricks; each solver is timed per
deal, single thread, in the same run, the two taking turns deal by deal. The goal is exactness on every
deal and a mean time no slower than DDS's (ratio of means <= 1.0). DDS's time excludes building
endplay's Deal object.
"""

from __future__ import annotations

import random
import time

import numpy as np

from tekkasim.cards import RANKS
from tekkasim.solver.dd import Solver

DEALS = 200
SEED = 20261129


def _deals(n: int):
    rnd = random.Random(SEED)
    out = []
    for _ in range(n):
        deck = list(range(52))
        rnd.shuffle(deck)
        hands = [sum(1 << c for c in deck[13 * k : 13 * k + 13]) for k in range(4)]
        out.append((hands, rnd.randint(0, 3), rnd.randint(0, 3)))
    return out


def _pbn(hands) -> str:
    return "N:" + " ".join(
        ".".join("".join(RANKS[r] for r in range(12, -1, -1) if h >> (s * 13 + r) & 1) for s in (3, 2, 1, 0))
        for h in hands
    )


def _dds():
    """A function ``(hands, trump, leader) -> (seconds, tricks of the side on lead)`` timing DDS on one
    deal, or None when endplay is not installed."""
    try:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal, Denom, Player
    except ImportError:
        return None
    denom = {3: Denom.spades, 2: Denom.hearts, 1: Denom.diamonds, 0: Denom.clubs}
    player = [Player.north, Player.east, Player.south, Player.west]

    def solve(hands, trump, leader):
        deal = Deal(_pbn(hands))
        deal.trump, deal.first = denom[trump], player[leader]
        t0 = time.perf_counter()
        board = solve_board(deal, SolveMode.OptimalOne)
        return time.perf_counter() - t0, max(score for _, score in board)

    return solve


def run(quick: bool) -> list[dict]:
    deals = _deals(20 if quick else DEALS)
    solver = Solver()
    solver.solve(*deals[0])  # compile / load the cache outside the timing
    dds = _dds()
    # the two solvers take turns deal by deal, so that a slow spell of the machine hits both alike
    ours, nodes, theirs, wrong = [], [], [], 0
    for hands, trump, leader in deals:
        t0 = time.perf_counter()
        mine = solver.solve(hands, trump, leader)
        ours.append(time.perf_counter() - t0)
        nodes.append(solver.nodes)
        if dds is not None:
            seconds, tricks = dds(hands, trump, leader)
            theirs.append(seconds)
            wrong += tricks != mine
    rows = [
        {"name": "dd full deal, mean", "value": 1e3 * float(np.mean(ours)), "unit": "ms"},
        {"name": "dd full deal, median", "value": 1e3 * float(np.median(ours)), "unit": "ms"},
        {"name": "dd full deal, worst", "value": 1e3 * float(np.max(ours)), "unit": "ms"},
        {"name": "dd nodes per deal, mean", "value": float(np.mean(nodes)), "unit": "nodes"},
    ]
    if dds is None:
        rows.append({"name": "DDS reference", "value": 0, "unit": "skipped (endplay not installed)"})
        return rows
    mean_ours, mean_dds = float(np.mean(ours)), float(np.mean(theirs))
    rows += [
        {"name": "DDS full deal, mean", "value": 1e3 * mean_dds, "unit": "ms"},
        {"name": "DDS full deal, median", "value": 1e3 * float(np.median(theirs)), "unit": "ms"},
        {
            "name": "dd deals differing from DDS",
            "value": wrong,
            "unit": "deals",
            "reference": "DDS",
            "ratio": wrong / len(deals),
            "goal": "0 (exact on every deal)",
        },
        {
            "name": "dd mean time vs DDS",
            "value": 1e3 * mean_ours,
            "unit": "ms",
            "reference": "DDS mean",
            "ratio": mean_ours / mean_dds,
            "goal": "ratio <= 1.0",
        },
    ]
    return rows
