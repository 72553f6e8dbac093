import pytest
from hypothesis import given
from hypothesis import strategies as st

from tekkasim.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    CardMultiset,
    CardSet,
    card_name,
    cards_of,
    mask_of,
    next_ccw,
    next_cw,
    parse_card,
    parse_cards,
    parse_seat,
    partner_of,
    team_of,
)
from tekkasim.errors import CardError, SeatError


@pytest.mark.parametrize(
    "text,expected",
    [
        ("2C", 0),
        ("AC", 12),
        ("2D", 13),
        ("TH", 34),
        ("10h", 34),
        ("10♥", 34),
        ("as", 51),
        ("A♠", 51),
        ("q♦", 23),
        (" kc ", 11),
        ("J♣", 9),
    ],
)
def test_parse_card(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("text", ["", "X", "1S", "11S", "AX", "A", "SS", "TT", "10", "ASS", "BJ", "SJ"])
def test_parse_card_rejects(text):
    with pytest.raises(CardError):
        parse_card(text)


def test_jokers_only_when_asked():
    assert parse_card("bj", jokers=True) == BIG_JOKER
    assert parse_card("SJ", jokers=True) == SMALL_JOKER
    assert card_name(BIG_JOKER) == "BJ"


@given(st.integers(0, 51))
def test_name_round_trip(c):
    assert parse_card(card_name(c)) == c
    assert parse_card(card_name(c).lower()) == c


def test_duplicate_card_rejected():
    with pytest.raises(CardError, match="duplicate card AS"):
        mask_of(parse_cards("AS KS as"))


@given(st.sets(st.integers(0, 51)))
def test_mask_round_trip(cards):
    m = mask_of(cards)
    assert cards_of(m) == sorted(cards)
    assert len(CardSet(m)) == len(cards)
    assert CardSet.parse(CardSet(m).names()) == CardSet(m)


def test_cardset_display_and_ops():
    hand = CardSet.parse("2C AS 10s KH")
    assert str(hand) == "A♠ T♠ K♥ 2♣"
    assert repr(hand) == "CardSet.parse('AS TS KH 2C')"
    assert eval(repr(hand)) == hand
    assert hand.suit(3) == CardSet.parse("AS TS")
    assert (hand - CardSet.parse("AS")) | CardSet.parse("AS") == hand
    assert "♠ A T" in hand.by_suit() and "♦ -" in hand.by_suit()
    with pytest.raises(CardError):
        CardSet(1 << 52)


def test_multiset():
    m = CardMultiset.parse("5H 5H SJ 2C BJ")
    assert len(m) == 5 and m.count(parse_card("5h")) == 2 and m.count(BIG_JOKER) == 1
    assert str(m) == "BJ SJ 5♥ 5♥ 2♣"
    assert eval(repr(m)) == m
    with pytest.raises(CardError, match="more than two copies"):
        CardMultiset.parse("5H 5H 5H")
    with pytest.raises(CardError):
        CardMultiset(one=0, two=1)


def test_seats():
    assert [parse_seat(s) for s in ("bottom", "R", "top", "l")] == [0, 1, 2, 3] and parse_seat(3) == 3
    assert [next_ccw(s) for s in range(4)] == [1, 2, 3, 0]  # bottom -> right -> top -> left
    assert [next_cw(s) for s in range(4)] == [3, 0, 1, 2]  # bottom -> left -> top -> right
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1] and partner_of(1) == 3
    for bad in ("north", "", 4, -1, True):
        with pytest.raises(SeatError):
            parse_seat(bad)


def test_emoji_variation_selectors_are_ignored():
    from tekkasim.cards import parse_suit

    assert parse_card("T\u2665\ufe0f") == parse_card("TH") == parse_card("10\u2665\ufe0e")
    assert parse_cards("A\u2660\ufe0f K\u2663\ufe0f") == parse_cards("AS KC")
    assert parse_suit("\u2666\ufe0f") == parse_suit("D")


def test_long_bad_cards_are_cut_in_messages():
    from tekkasim.errors import CardError, SeatError

    with pytest.raises(CardError) as card_error:
        parse_card("Q" * 10_000)
    with pytest.raises(SeatError) as seat_error:
        parse_seat("x" * 10_000)
    assert len(str(card_error.value)) < 300 and len(str(seat_error.value)) < 300
