"""The double-dummy solver against DDS (Bo Haglund's solver, through ``endplay``; a test-only dependency).

Seats map bottom, right, top, left -> N, E, S, W, so DDS's play order N -> E -> S -> W is our
counter-clockwise order; suits C D H S -> clubs, diamonds, hearts, spades. Only the standard trick rules
(Feskot, Tekka) can be checked this way: DDS knows nothing of Satat's 2♥.
"""

import random

import pytest

endplay = pytest.importorskip("endplay")

from endplay.dds import solve_board  # noqa: E402
from endplay.dds.solve import SolveMode  # noqa: E402
from endplay.types import Card, Deal, Denom, Player  # noqa: E402

from tekkasim.cards import RANKS, SUITS  # noqa: E402
from tekkasim.reference import dd as ref  # noqa: E402
from tekkasim.solver.dd import Solver  # noqa: E402

DENOM = {3: Denom.spades, 2: Denom.hearts, 1: Denom.diamonds, 0: Denom.clubs, 4: Denom.nt}
PLAYER = [Player.north, Player.east, Player.south, Player.west]


def to_endplay(hands, trump, leader, table=()):
    """An endplay Deal of our position: the hands before the current trick, then its cards played."""
    before = [set(h) for h in hands]
    seat = leader
    for c in table:
        before[seat].add(c)
        seat = (seat + 1) % 4
    pbn = "N:" + " ".join(
        ".".join("".join(RANKS[r] for r in range(12, -1, -1) if s * 13 + r in h) for s in (3, 2, 1, 0)) for h in before
    )
    deal = Deal(pbn)
    deal.trump = DENOM[trump]
    deal.first = PLAYER[leader]
    for c in table:
        deal.play(Card(SUITS[c // 13] + RANKS[c % 13]))  # endplay writes the suit first
    return deal


def card_index(card: Card) -> int:
    suit = {Denom.clubs: 0, Denom.diamonds: 1, Denom.hearts: 2, Denom.spades: 3}[card.suit]
    return suit * 13 + RANKS.index(card.rank.abbr)


def dds_card_values(hands, trump, leader, table=()):
    return {card_index(c): score for c, score in solve_board(to_endplay(hands, trump, leader, table))}


def masks(hands):
    return [sum(1 << c for c in h) for h in hands]


@pytest.fixture(scope="module")
def solver():
    return Solver()


def test_card_index_mapping():
    # one card each: the DDS answer names every card with its score
    hands = [{51}, {0}, {13}, {26}]  # AS, 2C, 2D, 2H
    assert dds_card_values(hands, 4, 0) == {51: 1}


def test_full_deals_trick_count_equals_dds(solver):
    rnd = random.Random(20261129)
    for i in range(100):
        deck = list(range(52))
        rnd.shuffle(deck)
        hands = [set(deck[13 * k : 13 * k + 13]) for k in range(4)]
        trump, leader = rnd.randint(0, 3), rnd.randint(0, 3)
        best = max(score for _, score in solve_board(to_endplay(hands, trump, leader), SolveMode.OptimalOne))
        assert solver.solve(masks(hands), trump, leader) == best, f"deal {i}"


def test_card_values_equal_dds_in_the_middle_of_deals(solver):
    rnd = random.Random(7)
    for i in range(300):
        deck = list(range(52))
        rnd.shuffle(deck)
        n = rnd.randint(3, 9)
        hands = [set(deck[13 * k : 13 * k + n]) for k in range(4)]
        trump, leader = rnd.randint(0, 4), rnd.randint(0, 3)
        table, seat = [], leader
        for _ in range(rnd.randint(0, 3)):
            lead = ref.led_suit(table[0], trump, False) if table else None
            c = rnd.choice(ref.legal(frozenset(hands[seat]), tuple(table), lead, False))
            hands[seat].discard(c)
            table.append(c)
            seat = (seat + 1) % 4
        want = dds_card_values(hands, trump, leader, table)
        assert solver.card_values(masks(hands), trump, leader, table) == want, f"position {i}"
