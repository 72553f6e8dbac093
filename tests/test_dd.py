"""The double-dummy solver: hand-made positions with known answers, input validation, and the compiled
search against the plain minimax twin (``tekkasim.reference.dd``) on many small random positions."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.cards import CardSet, parse_card
from tekkasim.errors import CardError, IllegalAction, OptionError, SeatError
from tekkasim.reference import dd as ref
from tekkasim.solver.dd import Position, Solver

S, H, D, C, NT = 3, 2, 1, 0, 4


def hands(*texts):
    return [CardSet.parse(t).mask for t in texts]


@pytest.fixture(scope="module")
def solver():
    return Solver(tt_bits=16)


# --- hand-made positions ---------------------------------------------------------------------------


def test_no_trump_cashing_and_leading_into_tenaces(solver):
    h = hands("AS KS", "QS JS", "AH KH", "QH JH")
    assert [solver.solve(h, NT, seat) for seat in range(4)] == [2, 0, 2, 0]


def test_trump_ruffs_a_winner(solver):
    h = hands("AS KS", "2H 3H", "QS JS", "4D 5D")
    assert solver.solve(h, H, 0) == 0  # right ruffs the A♠ and cashes 3♥
    assert solver.solve(h, S, 0) == 2
    assert solver.solve(h, NT, 0) == 2
    assert solver.card_values(h, H, 0) == {parse_card("AS"): 0, parse_card("KS"): 0}
    assert solver.card_values(h, S, 0, ruleset="tekka") == {parse_card("AS"): 2, parse_card("KS"): 2}


def test_card_values_cover_every_legal_card(solver):
    # bottom must cash A♠ before giving up the lead with 2♥ (left then runs the hearts)
    h = hands("AS 2H", "3H 4H", "KS QS", "5H 6H")
    assert solver.card_values(h, NT, 0) == {parse_card("AS"): 1, parse_card("2H"): 0}
    assert solver.solve(h, NT, 0) == 1


def test_middle_of_a_trick_ruff_then_partner_wins(solver):
    # bottom led K♦, right took it with A♦; top is void and ruffs with 2♠, then bottom's Q♣ wins.
    h = hands("QC", "7C", "2S 4C", "5D 6C")
    table = ["KD", "AD"]
    assert solver.solve(h, S, "bottom", table) == 2
    assert solver.card_values(h, S, "bottom", table) == {parse_card("2S"): 2, parse_card("4C"): 1}
    p = Position(h, S, "bottom", table)
    assert solver.can_reach(p, 2) and not solver.can_reach(p, 3)
    assert solver.can_reach(p, 0, side="B") and not solver.can_reach(p, 1, side="right")  # top's side takes both


def test_last_seat_of_a_trick_with_partner_winning(solver):
    # right led 9♣, top is winning with K♣; left (to move) must follow: J♣ or 2♣; bottom has A♦ x.
    h = hands("AD 3D", "8D", "4D", "JC 2C")
    table = ["9C", "KC"]
    p = Position(h, NT, "right", table)
    assert p.to_move == 3 and sorted(p.legal_cards()) == [parse_card("2C"), parse_card("JC")]
    # top's K♣ wins, then top leads 4♦ to bottom's A♦: left's side takes nothing
    assert solver.solve(h, NT, "right", table) == 0


def test_satat_two_of_hearts_beats_the_ace_of_troupe(solver):
    h = hands("AS", "4S", "3S", "2H")
    assert solver.solve(h, S, 0, ruleset="satat") == 0  # left (next clockwise) plays 2♥ and wins
    assert solver.solve(h, S, 0, ruleset="feskot") == 1  # an ordinary 2♥ discard


def test_satat_two_of_hearts_may_be_played_while_holding_the_suit(solver):
    h = hands("9C", "4S 8C", "3S 7C", "2H 5S")
    p = Position(h, S, 0, ["AS"], ruleset="satat")
    assert p.to_move == 3 and sorted(p.legal_cards()) == [parse_card("2H"), parse_card("5S")]
    p = Position(h, S, 0, ["AS"], ruleset="feskot")
    assert p.to_move == 1 and p.legal_cards() == [parse_card("4S")]


def test_satat_two_of_hearts_lead_forces_troupe(solver):
    # bottom leads 2♥: left must play its only Troupe 4♠, then A♣ cannot be ruffed.
    h = hands("2H AC", "7D 8D", "5C 6C", "4S 3D")
    assert solver.solve(h, S, 0, ruleset="satat") == 2
    assert solver.card_values(h, S, 0, ruleset="satat") == {parse_card("2H"): 2, parse_card("AC"): 1}


def test_satat_two_of_hearts_lead_with_hearts_troupe_is_a_troupe_lead(solver):
    h = hands("2H AC", "7D 8D", "5C 6C", "4H 3D")
    assert solver.solve(h, H, 0, ruleset="satat") == 2
    p = Position(hands("AC", "7D 8D", "5C 6C", "4H 3D"), H, 0, ["2H"], ruleset="satat")
    assert p.to_move == 3 and p.legal_cards() == [parse_card("4H")]


def test_satat_two_of_hearts_is_not_a_heart_for_following(solver):
    h = hands("9C", "4S 8C", "3S 7C", "2H 3C")
    p = Position(h, S, 0, ["KH"], ruleset="satat")
    assert sorted(p.legal_cards()) == [parse_card("3C"), parse_card("2H")]
    p = Position(h, S, 0, ["KH"], ruleset="tekka")  # counter-clockwise; right holds no heart
    assert sorted(p.legal_cards()) == [parse_card("8C"), parse_card("4S")]
    h2 = hands("9C", "4S 8C", "3S 7C", "2H 5H")
    p = Position(h2, S, 0, ["KH"], ruleset="satat")
    assert sorted(p.legal_cards()) == [parse_card("2H"), parse_card("5H")]


def test_satat_two_of_hearts_played_later_keeps_the_suit_to_follow(solver):
    h = hands("9D", "4S 8D", "KC 3S", "5S")
    p = Position(h, S, 0, ["5C", "2H"], ruleset="satat")
    assert p.to_move == 2 and p.legal_cards() == [parse_card("KC")]
    assert solver.solve(h, S, 0, ["5C", "2H"], "satat") == 0  # left's 2♥ wins, then left leads 5♠


def test_standard_rules_two_of_hearts_must_follow_hearts(solver):
    h = hands("9C", "2H 8C", "3S 7C", "4S 3C")
    p = Position(h, S, 0, ["KH"])
    assert p.legal_cards() == [parse_card("2H")]


def test_trick_table_counts_the_leaders_side(solver):
    from tekkasim.solver.dd import trick_table

    h = hands("AS KS", "2H 3H", "QS JS", "4D 5D")
    table = trick_table(h, solver=solver)
    assert table[H] == {0: 0, 1: 2, 2: 0, 3: 2}
    assert table[S] == {0: 2, 1: 0, 2: 2, 3: 0}  # with spades trump, A's four spades win everything


# --- bad input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, error, words",
    [
        ((["AS AS", "KS", "QS", "JS"], S, 0), CardError, "duplicate card AS"),
        ((["AS", "AS", "QS", "JS"], S, 0), CardError, "duplicate card AS"),
        ((["AS KS", "QS", "JS", "TS"], S, 0), CardError, "hand sizes"),
        ((["AS", "QS", "JS"], S, 0), CardError, "four hands"),
        ((["AS", "QS", "JS", "XX"], S, 0), CardError, "left hand"),
        ((["AS", "QS", "JS", "TS"], "Z", 0), CardError, "unknown suit"),
        ((["AS", "QS", "JS", "TS"], 7, 0), OptionError, "trump"),
        ((["AS", "QS", "JS", "TS"], S, "north"), SeatError, "unknown seat"),
        (([0, 0, 0, 0], S, 0), CardError, "no cards"),
        (([1 << 60, 1, 2, 4], S, 0), CardError, "not a 52-card mask"),
    ],
)
def test_bad_positions_raise_one_clear_error(args, error, words):
    with pytest.raises(error, match=words):
        Position(*args)


def test_bad_table_and_ruleset():
    with pytest.raises(IllegalAction, match="follow suit"):
        Position(["AS", "3C", "QS 4D", "JS 5D"], S, 0, ["2C", "KS"])  # right had a club
    with pytest.raises(CardError, match="duplicate card KS"):
        Position(["AS 2C", "KS", "QS", "JS"], S, 0, ["KS"])
    with pytest.raises(CardError, match="at most 3"):
        Position(["AS", "KS", "QS", "JS"], S, 0, ["2C", "3C", "4C", "5C"])
    with pytest.raises(OptionError, match="shengji"):
        Position(["AS", "KS", "QS", "JS"], S, 0, ruleset="shengji")
    with pytest.raises(OptionError, match="won must be two"):
        Position(["AS", "KS", "QS", "JS"], S, 0, won=(1,))
    with pytest.raises(OptionError, match="won must be two"):
        Position(["AS", "KS", "QS", "JS"], S, 0, won="12")
    assert Position(["AS", "KS", "QS", "JS"], S, 0, won=np.array([5, 7])).won == (5, 7)
    with pytest.raises(OptionError, match="more than 13"):
        Position(["AS KS", "QS 2C", "JS 3C", "TS 4C"], S, 0, won=(7, 5))
    # a card that did not follow: illegal in Feskot, a Renonce that stands in Satat (clockwise: left is next)
    with pytest.raises(IllegalAction, match="follow suit"):
        Position(["AS", "3C", "QS 4D", "JS 5D"], S, 0, ["2C", "KS"])
    p = Position(["AS", "QS 4D", "JS 5D", "3C"], S, 0, ["2C", "KS"], "satat", won=(3, 4))
    assert p.to_move == 2 and p.won == (3, 4) and p.win_seat == 3
    assert Solver(10).solve(p) == 3 + 1 and Solver(10).solve(p, side="B") == 4 + 1
    with pytest.raises(OptionError, match="tt_bits"):
        Solver(tt_bits=3)
    with pytest.raises(OptionError, match="target"):
        Solver(10).can_reach(Position(["AS", "KS", "QS", "JS"], S, 0), "7")


# --- against the plain minimax twin ------------------------------------------------------------------


def random_position(rnd: random.Random, n: int, satat: bool):
    """A random position with ``n`` tricks left, maybe in the middle of a trick (legal table cards)."""
    deck = list(range(52))
    rnd.shuffle(deck)
    # concentrate on few suits now and then, so that following, ruffing and 2♥ matter more
    if rnd.random() < 0.5:
        keep = rnd.sample(range(4), 2)
        deck = [c for c in deck if c // 13 in keep] + [c for c in deck if c // 13 not in keep]
    if satat and rnd.random() < 0.6:
        deck.remove(26)
        deck.insert(rnd.randrange(4 * n), 26)
    hs = [set(deck[i * n : (i + 1) * n]) for i in range(4)]
    trump = rnd.randint(0, 4)
    leader = rnd.randint(0, 3)
    table = []
    seat = leader
    for _ in range(rnd.randint(0, 3)):
        lead = ref.led_suit(table[0], trump, satat) if table else None
        c = rnd.choice(ref.legal(frozenset(hs[seat]), tuple(table), lead, satat))
        hs[seat].discard(c)
        table.append(c)
        seat = ref.next_seat(seat, satat)
    return hs, trump, leader, table, seat


def check_against_reference(solver, hs, trump, leader, table, to_move, satat):
    rs = "satat" if satat else "feskot"
    n = len(hs[to_move])
    masks = [sum(1 << c for c in h) for h in hs]
    want = {c: (v if to_move % 2 == 0 else n - v) for c, v in ref.card_values(hs, trump, leader, table, satat).items()}
    side = max(want.values())
    assert solver.solve(masks, trump, leader, table, rs) == side
    assert solver.card_values(masks, trump, leader, table, rs) == want
    for t in (side, side + 1):
        assert solver.can_reach(Position(masks, trump, leader, table, rs), t) == (side >= t)


@pytest.mark.parametrize("satat", [False, True], ids=["standard", "satat"])
def test_solver_matches_minimax_on_random_positions(solver, satat):
    rnd = random.Random(20261129 + satat)
    for _ in range(400):
        n = rnd.randint(1, 4)
        hs, trump, leader, table, to_move = random_position(rnd, n, satat)
        check_against_reference(solver, hs, trump, leader, table, to_move, satat)


def test_reference_twin_agrees_with_itself():
    # the side's value is the best card's value: the twin's two entry points agree
    rnd = random.Random(5)
    for _ in range(20):
        satat = rnd.random() < 0.5
        hs, trump, leader, table, to_move = random_position(rnd, 3, satat)
        a = ref.team_a_tricks(hs, trump, leader, table, satat)
        values = ref.card_values(hs, trump, leader, table, satat).values()
        assert a == (max(values) if to_move % 2 == 0 else min(values))


@settings(max_examples=100)
@given(st.integers(0, 2**32), st.integers(1, 4), st.booleans())
def test_solver_matches_minimax_hypothesis(seed, n, satat):
    rnd = random.Random(seed)
    hs, trump, leader, table, to_move = random_position(rnd, n, satat)
    check_against_reference(Solver(tt_bits=12), hs, trump, leader, table, to_move, satat)


def test_table_is_kept_within_a_deal_and_emptied_for_a_new_one():
    rnd = random.Random(3)
    deals = []
    for _ in range(2):
        deck = list(range(52))
        rnd.shuffle(deck)
        deals.append([sum(1 << c for c in deck[13 * k : 13 * k + 13]) for k in range(4)])
    s = Solver(tt_bits=16)
    first = s.solve(deals[0], S, 0)
    fresh = s.nodes
    assert s.solve(deals[0], S, 0) == first and s.nodes < fresh  # the same deal reuses the table
    s.solve(deals[1], H, 2)
    assert s.solve(deals[0], S, 0) == first and s.nodes == fresh  # another deal in between: a new table


def test_a_tiny_table_overwrites_entries_and_gives_the_same_tricks():
    # 2**10 entries: 32 buckets of 32 ways, so full deals keep evicting the oldest entries and reusing
    # buckets of older generations. Tricks must not depend on the table's size.
    rnd = random.Random(13)  # deals a tiny table solves in well under a second (some take ~9 s)
    tiny, big = Solver(tt_bits=10), Solver(tt_bits=16)
    evicted = 0
    for _ in range(6):
        deck = list(range(52))
        rnd.shuffle(deck)
        h = [sum(1 << c for c in deck[13 * k : 13 * k + 13]) for k in range(4)]
        trump, leader = rnd.randrange(4), rnd.randrange(4)
        assert tiny.solve(h, trump, leader) == big.solve(h, trump, leader)
        evicted += int(tiny.st[30])
    assert evicted > 1000  # the small table did overflow
