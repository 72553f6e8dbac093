"""Shengji rules, one concrete position per rule (rules.md, "Shengji"): every check runs on the compiled
kernels and on the pure-Python reference, and both must give the known answer."""

import random
from collections import Counter

import numpy as np
import pytest

from tekkasim.bits import new_rng
from tekkasim.cards import RANKS, SEATS, SUITS, parse_card, parse_cards
from tekkasim.errors import CardError, IllegalAction, OptionError, RecordError
from tekkasim.rules import get_game
from tekkasim.rulesets.shengji import _kernels as K
from tekkasim.rulesets.shengji import reference as R
from tekkasim.rulesets.shengji.game import NO_TRUMP, ShengjiState
from tekkasim.verify import verify_record

GAME = get_game("shengji")
NT = NO_TRUMP
RULE = {
    K.OK: None,
    K.NOT_IN_HAND: "not-in-hand",
    K.LEAD_SHAPE: "lead-shape",
    K.CARD_COUNT: "card-count",
    K.FOLLOW_SUIT: "follow-suit",
    K.FOLLOW_PAIRS: "follow-pairs",
}


def kinds(text: str) -> list[int]:
    return parse_cards(text, jokers=True)


def masks(text: str) -> tuple[np.uint64, np.uint64]:
    one = two = 0
    for k in kinds(text):
        if one >> k & 1:
            two |= 1 << k
        one |= 1 << k
    return np.uint64(one), np.uint64(two)


def lv(rank: str) -> int:
    return RANKS.index(rank)


def suit(letter: str) -> int:
    return NT if letter == "NT" else SUITS.index(letter)


def shape(text: str, trump: str, level: str):
    """(pairs, suit, top) or None, checked to agree between kernel and reference."""
    t, lvl = suit(trump), lv(level)
    eff, strength, suit_kinds, _ = K.new_tables(t, lvl)
    got = K.play_shape(*masks(text), eff, strength, suit_kinds)
    got = None if got[0] < 0 else tuple(int(x) for x in got)
    assert got == R.shape(kinds(text), t, lvl), text
    return got


def verdict(hand: str, play: str, lead: str | None, trump: str, level: str):
    """The rule a play breaks (None if legal), kernel and reference agreeing."""
    t, lvl = suit(trump), lv(level)
    eff, strength, suit_kinds, _ = K.new_tables(t, lvl)
    if lead is None:
        n = pairs = e = 0
    else:
        lk = kinds(lead)
        n, pairs, e = len(lk), sum(1 for v in Counter(lk).values() if v == 2), int(eff[lk[0]])
    code = K.check_play(*masks(hand), *masks(play), n, pairs, e, eff, strength, suit_kinds)
    ref = R.play_error(Counter(kinds(hand)), kinds(play), None if lead is None else kinds(lead), t, lvl)
    assert RULE[int(code)] == ref, (hand, play, lead)
    return ref


def winner(plays: list[str], hands: list[str], trump: str, level: str) -> int:
    """Index of the winning play; ``hands[i]`` is the i-th player's hand before playing (the lead's hand
    does not matter)."""
    t, lvl = suit(trump), lv(level)
    eff, strength, suit_kinds, _ = K.new_tables(t, lvl)
    lead_shape, e, top = K.play_shape(*masks(plays[0]), eff, strength, suit_kinds)
    best, who = top + (16 if e == K.TRUMP else 0), 0
    for i in range(1, len(plays)):
        void = (int(masks(hands[i])[0]) & int(suit_kinds[e])) == 0
        key = K.play_key(*masks(plays[i]), lead_shape, e, void, eff, strength, suit_kinds)
        if key > best:
            best, who = key, i
    ref = R.trick_winner([kinds(p) for p in plays], [Counter(kinds(h)) for h in hands], t, lvl)
    assert who == ref, plays
    return who


# --- effective suits, order and tractors ------------------------------------------------------------


def test_trump_order_suited():
    eff, strength, _, _ = K.new_tables(suit("S"), lv("7"))
    order = [strength[parse_card(c, True)] for c in ("2S", "6S", "8S", "AS", "7H", "7S", "SJ", "BJ")]
    assert order == sorted(order) and len(set(order)) == len(order)
    assert strength[parse_card("7H")] == strength[parse_card("7D")] == strength[parse_card("7C")]
    assert all(eff[parse_card(c, True)] == K.TRUMP for c in ("2S", "7H", "7C", "SJ", "BJ"))
    assert eff[parse_card("AH")] == suit("H") and strength[parse_card("AH")] == 11


def test_no_trump_order():
    eff, strength, _, _ = K.new_tables(NT, lv("2"))
    assert [int(eff[parse_card(c, True)]) for c in ("AS", "2S", "2H", "SJ")] == [suit("S"), 4, 4, 4]
    assert (
        strength[parse_card("2S")]
        == strength[parse_card("2D")]
        < strength[parse_card("SJ", True)]
        < strength[parse_card("BJ", True)]
    )


def test_tractor_across_the_level_gap():
    assert shape("4S 4S 6S 6S", "H", "5") == (2, suit("S"), 3)  # level 5: 4 and 6 are adjacent
    assert shape("4S 4S 6S 6S", "H", "6") is None  # level 6: 5 sits between
    assert shape("4S 4S 5S 5S", "H", "6") == (2, suit("S"), 3)
    assert shape("QS QS AS AS", "H", "K") == (2, suit("S"), 11)


def test_trump_adjacency_up_to_the_jokers():
    assert shape("KS KS AS AS", "S", "2")[0] == 2
    assert shape("AS AS 2H 2H", "S", "2")[0] == 2  # trump A, off-suit level
    assert shape("2D 2D 2S 2S", "S", "2")[0] == 2  # off-suit level, trump-suit level
    assert shape("2S 2S SJ SJ", "S", "2")[0] == 2
    assert shape("SJ SJ BJ BJ", "S", "2")[0] == 2
    assert shape("AS AS 2C 2C 2S 2S SJ SJ BJ BJ", "S", "2") == (5, 4, 15)
    assert shape("AS AS 2S 2S", "S", "2") is None  # the off-suit level step is missing
    assert shape("2H 2H SJ SJ", "S", "2") is None  # the trump-suit level step is missing


def test_off_suit_level_pairs_are_not_consecutive():
    assert shape("2H 2H 2D 2D", "S", "2") is None
    assert shape("2H 2H 2D 2D", "NT", "2") is None
    assert shape("AS AS 2H 2H 2D 2D", "S", "2") is None


def test_no_trump_adjacency():
    assert shape("2H 2H SJ SJ", "NT", "2")[0] == 2  # any level pair, then SJ pair
    assert shape("2D 2D SJ SJ BJ BJ", "NT", "2")[0] == 3
    assert shape("AH AH 2H 2H", "NT", "2") is None  # A of a suit is plain in no-trump
    assert shape("AH AH", "NT", "2") == (1, suit("H"), 11)


def test_only_singles_pairs_and_tractors_lead():
    assert shape("7H", "S", "2") == (0, suit("H"), 4)  # 3..7 are steps 0..4 once the level 2 is removed
    assert shape("7H 7H", "S", "2") == (1, suit("H"), 4)
    assert shape("7H 8H", "S", "2") is None  # two singles: no throws
    assert shape("7H 7H 8H", "S", "2") is None
    assert shape("7H 7H 7D 7D", "S", "2") is None  # two suits
    assert shape("7H 7H 9H 9H", "S", "2") is None  # a gap
    assert verdict("7H 8H 9H", "7H 8H", None, "S", "2") == "lead-shape"
    assert verdict("7H 7H 8H 8H", "7H 7H 8H 8H", None, "S", "2") is None
    assert verdict("7H 8H", "7H 7H", None, "S", "2") == "not-in-hand"


# --- following --------------------------------------------------------------------------------------


def test_single_lead_must_follow_suit():
    assert verdict("3H 9C", "9C", "7H", "S", "2") == "follow-suit"
    assert verdict("3H 9C", "3H", "7H", "S", "2") is None
    assert verdict("3H 9C", "3H 9C", "7H", "S", "2") == "card-count"


def test_trump_lead_is_followed_with_trumps_including_level_cards_and_jokers():
    assert verdict("2H 9C", "9C", "5S", "S", "2") == "follow-suit"  # 2H is a trump (level card)
    assert verdict("SJ 9C", "SJ", "5S", "S", "2") is None
    assert verdict("AH 9C", "9C", "2H", "NT", "2") is None  # no-trump: A of hearts is no trump


def test_pair_lead_must_include_pairs():
    assert verdict("3H 3H 9H", "3H 9H", "7H 7H", "S", "2") == "follow-pairs"
    assert verdict("3H 3H 9H", "3H 3H", "7H 7H", "S", "2") is None
    assert verdict("3H 9H JH", "3H 9H", "7H 7H", "S", "2") is None  # no pair held: any two hearts


def test_tractor_lead_needs_pairs_but_not_consecutive_ones():
    hand = "3H 3H 9H 9H JH 4C"
    assert verdict(hand, "3H 3H 9H 9H", "7H 7H 8H 8H", "S", "2") is None
    assert verdict(hand, "3H 3H 9H JH", "7H 7H 8H 8H", "S", "2") == "follow-pairs"
    assert verdict("3H 3H 9H JH QH", "3H 3H 9H JH", "7H 7H 8H 8H", "S", "2") is None  # only one pair held


def test_short_in_the_led_suit_plays_all_of_it_and_fills_freely():
    assert verdict("3H 5C 6C", "3H 5C", "7H 7H", "S", "2") is None
    assert verdict("3H 5C 6C", "5C 6C", "7H 7H", "S", "2") == "follow-suit"
    assert verdict("3H 9H 5C 6C", "3H 9H 5C 6C", "7H 7H 8H 8H", "S", "2") is None


def test_void_may_discard_or_trump_freely():
    assert verdict("5C 6C 4S", "5C", "7H", "S", "2") is None
    assert verdict("5C 6C 4S", "4S", "7H", "S", "2") is None
    assert verdict("5C 6C 4S 4S", "6C 4S", "7H 7H", "S", "2") is None


# --- winning a trick ---------------------------------------------------------------------------------


def test_two_high_singles_do_not_beat_a_pair():
    assert winner(["3H 3H", "AH KH", "4H 5H", "6H 8H"], ["", "AH KH", "4H 5H", "6H 8H"], "S", "2") == 0
    assert winner(["3H 3H", "AH KH", "4H 4H", "6H 8H"], ["", "AH KH", "4H 4H", "6H 8H"], "S", "2") == 2


def test_disconnected_pairs_do_not_beat_a_tractor():
    hands = ["", "QH QH AH AH", "KH KH AH AH", "3C 4C 5C 6C"]
    assert winner(["3H 3H 4H 4H", "QH QH AH AH", "4C 5C 6C 7C", "3C 4C 5C 6C"], hands, "S", "2") == 0
    assert winner(["3H 3H 4H 4H", "QH QH AH AH", "KH KH AH AH", "3C 4C 5C 6C"], hands, "S", "2") == 2


def test_trump_tractor_beats_a_plain_tractor_when_void():
    hands = ["", "3S 3S 4S 4S", "AH AH KH KH", "3S 3S 5S 5S"]
    assert winner(["3H 3H 4H 4H", "3S 3S 4S 4S"], hands[:2], "S", "2") == 1
    # a higher plain tractor later does not beat the trump tractor
    assert winner(["3H 3H 4H 4H", "3S 3S 4S 4S", "KH KH AH AH"], hands[:3], "S", "2") == 1
    # trumps that are not a tractor do not win
    assert winner(["3H 3H 4H 4H", "5C 5C", "3S 3S 5S 5S"], ["", "5C 5C", "3S 3S 5S 5S"], "S", "2") == 0
    # a trump pair and two trump singles do not beat a tractor either
    assert winner(["3H 3H 4H 4H", "3S 3S 5S 6S"], ["", "3S 3S 5S 6S"], "S", "2") == 0


def test_trump_pair_answer_to_a_pair_must_be_a_pair():
    hands = ["", "BJ SJ", "3S 3S"]
    assert winner(["AH AH", "BJ SJ", "3S 3S"], hands, "S", "2") == 2
    assert winner(["5S 5S", "BJ SJ", "6S 6S"], hands, "S", "2") == 2  # trump lead: same rules


def test_trumping_needs_the_void():
    # a player who still holds the led suit cannot win with trumps (and may not play them while able)
    assert winner(["7H", "3S"], ["", "3S 4H"], "S", "2") == 0
    assert winner(["7H", "3S"], ["", "3S"], "S", "2") == 1


def test_equal_cards_keep_the_earlier_play():
    assert winner(["2H 2H", "2D 2D"], ["", "2D 2D"], "S", "2") == 0  # equal off-suit level pairs
    assert winner(["2H", "2C", "2D"], ["", "2C", "2D"], "NT", "2") == 0
    assert winner(["9C", "9C"], ["", "9C"], "S", "2") == 0  # the other deck's copy


def test_tractors_compare_by_their_highest_pair():
    hands = ["", "4H 4H 5H 5H"]
    assert winner(["3H 3H 4H 4H", "4H 4H 5H 5H"], hands, "S", "2") == 1
    assert winner(["SJ SJ BJ BJ", "2S 2S SJ SJ"], ["", "2S 2S SJ SJ"], "S", "2") == 0


# --- scoring ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "points, expected",
    [
        (0, (3, 0, False)),
        (5, (2, 0, False)),
        (35, (2, 0, False)),
        (40, (1, 0, False)),
        (75, (1, 0, False)),
        (80, (0, 0, True)),
        (115, (0, 0, True)),
        (120, (0, 1, True)),
        (155, (0, 1, True)),
        (160, (0, 2, True)),
        (195, (0, 2, True)),
        (200, (0, 3, True)),
        (235, (0, 3, True)),
        (240, (0, 4, True)),
        (440, (0, 9, True)),
    ],
)
def test_level_table(points, expected):
    assert tuple(K.level_change(points)) == expected
    assert R.level_change(points) == expected


def test_card_points_total_200():
    deck = [k for k in range(54)] * 2
    assert sum(R.card_points(k) for k in deck) == 200
    one = np.uint64((1 << 54) - 1)
    assert K.points(one, one) == 200


# --- full states: declarations ------------------------------------------------------------------------


def deal(levels=None, dealer=None, declare_first=None, kitty="", **given) -> ShengjiState:
    """A deal where the named seats hold (at least) the given cards and the kitty starts with ``kitty``;
    the rest is filled in kind order."""
    left = Counter({k: 2 for k in range(54)})
    hands = {}
    for seat, text in given.items():
        hands[seat] = kinds(text)
        left -= Counter(hands[seat])
    kit = kinds(kitty)
    left -= Counter(kit)
    level = lv(
        levels[{"bottom": "A", "right": "B", "top": "A", "left": "B"}[dealer]]
        if levels and dealer
        else (levels or {"A": "2"})["A"]
    )
    pool = sorted(left.elements(), key=lambda k: (k >= 52 or k % 13 == level, k))  # calls go to left/kitty
    out = []
    for seat in SEATS:
        h = hands.get(seat, [])
        need = 25 - len(h)
        out.append(h + pool[:need])
        pool = pool[need:]
    kit += pool
    ctx = {"levels": levels, "dealer": dealer, "declare_first": declare_first}
    return GAME.from_cards(out, kit, **{k: v for k, v in ctx.items() if v is not None})


def act(state, *texts):
    for t in texts:
        state.apply_action(state.string_to_action(t))


def test_overcalls_up_to_the_big_jokers():
    st = deal(bottom="2H 2S", right="2S 2D 2D", top="SJ SJ", left="BJ BJ")
    act(st, "2H", "2D 2D", "SJ SJ", "BJ BJ", "pass", "pass")
    assert st.phase() == "declare"
    act(st, "pass")
    assert st.phase() == "bury" and st.trump == NT and st.dealer == 3  # the caller deals the first deal
    assert st.current_player() == 3 and len(st.hand(3)) == 33


def test_equal_strength_may_not_overcall():
    st = deal(bottom="2H", right="2S 2D 2D", top="2C 2C")
    act(st, "2H")
    with pytest.raises(IllegalAction) as exc:
        act(st, "2S")
    assert exc.value.rule == "outbid"
    act(st, "2D 2D")
    with pytest.raises(IllegalAction) as exc:
        act(st, "2C 2C")
    assert exc.value.rule == "outbid"
    assert st.legal_actions() == [()]


def test_calls_need_the_cards_and_the_right_form():
    st = deal(bottom="2H 2S 7H 7H", right="SJ")
    for text, rule in (
        ("2C", "not-in-hand"),
        ("2H 2S", "declare-form"),
        ("7H 7H", "declare-form"),
        ("7H", "declare-form"),
    ):
        with pytest.raises(IllegalAction) as exc:
            act(st, text)
        assert exc.value.rule == rule, text
    act(st, "pass")
    with pytest.raises(IllegalAction) as exc:
        act(st, "SJ SJ")
    assert exc.value.rule == "not-in-hand"


def test_three_passes_fix_the_call():
    st = deal(declare_first="top", top="2C")
    act(st, "2C", "pass", "pass")
    assert st.phase() == "declare"
    act(st, "pass")
    assert st.phase() == "bury" and st.trump == suit("C") and st.dealer == 2


def test_a_seat_may_call_again():
    st = deal(bottom="2H 2H BJ BJ", right="2S 2S")
    act(st, "2H", "2S 2S", "pass", "pass", "BJ BJ", "pass", "pass", "pass")
    assert st.trump == NT and st.dealer == 0
    st = deal(bottom="2H 2H", right="2S")
    act(st, "2H", "pass", "pass", "pass")
    assert st.trump == suit("H")
    st = deal(bottom="2H 2H", right="2S")
    with pytest.raises(IllegalAction):
        act(st, "2H", "2S")  # equal strength
    act(st, "pass", "pass", "pass")  # right, top, left pass: fixed
    assert st.phase() == "bury"


def test_four_passes_turn_up_the_kitty():
    st = deal(kitty="SJ BJ 7D 9S")
    act(st, "pass", "pass", "pass", "pass")
    assert st.trump == suit("D") and st.dealer == 0 and st.turned_up
    assert st.observation(2).public["kitty_turned_up"][:3] == kinds("SJ BJ 7D")
    st = deal(levels={"A": "5", "B": "9"}, dealer="left", kitty="9S")
    assert st.declare_first == 3 and st.level == lv("9")
    act(st, "pass", "pass", "pass", "pass")
    assert st.trump == suit("S") and st.dealer == 3  # the dealer stays


def test_later_deal_keeps_its_dealer_whoever_declares():
    st = deal(levels={"A": "4", "B": "3"}, dealer="top", right="4C")
    assert st.level == lv("4") and st.current_player() == 2
    act(st, "pass", "pass", "pass", "4C", "pass", "pass", "pass")  # top, left, bottom, right ...
    assert st.trump == suit("C") and st.dealer == 2 and st.current_player() == 2


def test_first_deal_needs_equal_levels():
    with pytest.raises(OptionError):
        GAME.new_deal(1, levels={"A": "3", "B": "2"})
    with pytest.raises(OptionError):
        GAME.new_deal(1, levels={"A": "3", "B": "1"}, dealer="top")
    with pytest.raises(OptionError):
        GAME.new_deal(1, dealer="north")


def test_burial_then_the_dealer_leads():
    st = deal(bottom="2H", kitty="KS KS 5D")
    act(st, "2H", "pass", "pass", "pass")
    obs_dealer, obs_other = st.observation(0), st.observation(1)
    assert obs_dealer.private["kitty"] == st.kitty and obs_other.private == {}
    act(st, "KS", "KS", "5D")
    with pytest.raises(IllegalAction):
        act(st, "KS")  # both copies are buried already
    with pytest.raises(IllegalAction):
        act(st, "2H 2H")
    for k in sorted(set(st.hand(0).cards()))[:5]:
        st.apply_action((k,))
    assert st.phase() == "play" and st.current_player() == 0 and len(st.hand(0)) == 25
    assert st.observation(0).private["buried"] == st.buried and "buried" not in st.observation(2).private


# --- full states: endgames ------------------------------------------------------------------------------


def endgame(trump, level, dealer, leader, hands: dict, buried: str, levels=None, attacker_points=0):
    """A position at the last trick: ``hands`` (seat -> cards) replace the seats' hands and ``buried`` the
    buried cards (set through the state's fields: positions reached only by 25 tricks of play)."""
    lvl = RANKS[lv(level)]
    levels = levels or {"A": lvl, "B": lvl}
    st = deal(levels=levels, dealer=dealer)
    while st.phase() == "declare":
        st.apply_action(())
    st.trump = suit(trump)
    st.tables = K.new_tables(st.trump, st.level)
    st.buried = kinds(buried)
    st.hands[4] = masks(buried)
    for s, text in enumerate(SEATS):
        st.hands[s] = masks(hands[text])
    st._phase, st.trick_leader, st._to_move = "play", SEATS.index(leader), SEATS.index(leader)
    st.attacker_points = attacker_points
    return st


@pytest.mark.parametrize(
    "lead, others, multiplier",
    [
        ("AH", ["3H", "4H", "5C"], 2),
        ("AH AH", ["3H 4H", "6H 7H", "8C 8C"], 4),
        ("KH KH AH AH", ["3H 4H 6H 7H", "8H 9H JH QH", "8C 8C 9C 9C"], 8),
    ],
)
def test_kitty_bonus_single_pair_tractor(lead, others, multiplier):
    # dealer bottom (team A defends); right (attacker) wins the last trick
    hands = {"right": lead, "top": others[0], "left": others[1], "bottom": others[2]}
    st = endgame("S", "2", "bottom", "right", hands, "5D KD TC 3C 4C 6C 7C 9D")
    kitty_points = 25
    trick_points = sum(R.card_points(k) for h in hands.values() for k in kinds(h))
    for seat in ("right", "top", "left", "bottom"):
        act(st, hands[seat])
    assert st.is_terminal() and st.tricks[-1]["winner"] == 1
    assert st.kitty_bonus == kitty_points * multiplier
    assert st.result()["attacker_points"] == trick_points + kitty_points * multiplier


def test_no_kitty_bonus_when_defenders_win_the_last_trick():
    hands = {"right": "3H", "top": "AH", "left": "4H", "bottom": "5C"}
    st = endgame("S", "2", "bottom", "right", hands, "5D KD TC 3C 4C 6C 7C 9D", attacker_points=40)
    for seat in ("right", "top", "left", "bottom"):
        act(st, hands[seat])
    assert st.kitty_bonus == 0 and st.result()["attacker_points"] == 40


def finish(st, hands):
    seat = SEATS[st.current_player()]
    for _ in range(4):
        act(st, hands[seat])
        seat = SEATS[(SEATS.index(seat) + 1) % 4]
    assert st.is_terminal()
    return st


LAST = {"bottom": "3C", "right": "4C", "top": "6C", "left": "7C"}  # top wins, no points


def test_defenders_hold_partner_deals_and_levels_rise():
    st = finish(
        endgame(
            "S",
            "9",
            "bottom",
            "bottom",
            LAST,
            "2C 2C 3D 3D 4D 4D 6D 6D",
            levels={"A": "9", "B": "K"},
            attacker_points=35,
        ),
        LAST,
    )
    r = st.result()
    assert r["defenders"] == "A" and r["levels_after"] == {"A": "J", "B": "K"} and r["next_dealer"] == "top"
    assert st.returns() == (2.0, 0.0) and st.match_winner() is None
    assert st.next_deal_context() == {"levels": {"A": "J", "B": "K"}, "dealer": 2, "declare_first": 2}


def test_attackers_take_over_next_seat_deals():
    st = finish(
        endgame(
            "S",
            "9",
            "bottom",
            "bottom",
            LAST,
            "2C 2C 3D 3D 4D 4D 6D 6D",
            levels={"A": "9", "B": "K"},
            attacker_points=110,
        ),
        LAST,
    )
    r = st.result()
    assert r["levels_after"] == {"A": "9", "B": "K"} and r["next_dealer"] == "right"
    assert st.returns() == (0.0, 0.0)
    st = finish(
        endgame(
            "S",
            "9",
            "bottom",
            "bottom",
            LAST,
            "2C 2C 3D 3D 4D 4D 6D 6D",
            levels={"A": "9", "B": "J"},
            attacker_points=160,
        ),
        LAST,
    )
    assert st.result()["levels_after"] == {"A": "9", "B": "K"} and st.returns() == (0.0, 2.0)


def test_going_past_ace_while_defending_wins_the_match():
    st = finish(
        endgame(
            "S", "A", "left", "bottom", LAST, "2C 2C 3D 3D 4D 4D 6D 6D", levels={"A": "2", "B": "A"}, attacker_points=60
        ),
        LAST,
    )
    r = st.result()
    assert r["match_winner"] == "B" and st.match_winner() == 1 and r["levels_after"]["B"] == "A"


def test_going_past_ace_while_attacking_wins_the_match():
    st = finish(
        endgame(
            "S",
            "7",
            "left",
            "bottom",
            LAST,
            "2C 2C 3D 3D 4D 4D 6D 6D",
            levels={"A": "K", "B": "7"},
            attacker_points=160,
        ),
        LAST,
    )
    assert st.result()["match_winner"] == "A" and st.returns() == (2.0, 0.0)
    st = finish(
        endgame(
            "S",
            "7",
            "left",
            "bottom",
            LAST,
            "2C 2C 3D 3D 4D 4D 6D 6D",
            levels={"A": "Q", "B": "7"},
            attacker_points=160,
        ),
        LAST,
    )
    assert st.result()["match_winner"] is None and st.result()["levels_after"]["A"] == "A"


def test_illegal_plays_name_their_rule():
    hands = {"right": "3H 3H 8S", "top": "4H 4H 9S", "left": "5H 9C 9D", "bottom": "6C 7C 8C"}
    st = endgame("S", "2", "bottom", "right", hands, "2C 2C 3D 3D 4D 4D 6D 6D")
    with pytest.raises(IllegalAction) as exc:
        act(st, "3H 4H")
    assert exc.value.rule == "not-in-hand"
    act(st, "3H 3H")
    assert st.where() == "trick 1, play 2 (top)"
    with pytest.raises(IllegalAction) as exc:
        act(st, "4H")
    assert exc.value.rule == "card-count"
    assert st.legal_actions() == [tuple(kinds("4H 4H"))]
    act(st, "4H 4H")
    with pytest.raises(IllegalAction) as exc:
        act(st, "9C 9C")
    assert exc.value.rule == "not-in-hand"
    with pytest.raises(IllegalAction) as exc:
        act(st, "9C 9D")
    assert exc.value.rule == "follow-suit"
    assert st.legal_actions() == sorted([tuple(sorted(kinds("5H 9C"))), tuple(sorted(kinds("5H 9D")))])


# --- records --------------------------------------------------------------------------------------------


def played_out(seed: int, **context) -> ShengjiState:
    import random

    st = GAME.new_deal(seed, **context)
    rng = random.Random(seed)
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    return st


def test_record_round_trip_and_verify():
    st = played_out(3)
    rec = st.to_record()
    assert rec["first_deal"] is True and len(rec["buried"]) == 8 and rec["trump"] in ("C", "D", "H", "S", "NT")
    verdict_ = verify_record(rec)
    assert verdict_.ok and verdict_.result == st.result()
    later = played_out(4, **st.next_deal_context())
    rec2 = later.to_record()
    assert rec2["first_deal"] is False and verify_record(rec2).ok
    again, actions = GAME.from_record(rec2)
    for text in actions:
        again.apply_action(again.string_to_action(text))
    assert again.history() == later.history() and again.result() == later.result()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda r: r["hands"]["top"].pop(), "top has 24 cards"),
        (lambda r: r["kitty"].append("5H"), "kitty has 9"),
        (lambda r: r["hands"]["top"].__setitem__(0, r["hands"]["right"][0]), "appears 3 times"),
        (lambda r: r["hands"]["top"].__setitem__(0, "XX"), "hands.top"),
        (lambda r: r.__setitem__("level", "5"), "not the dealer's team's level"),
        (lambda r: r.__setitem__("trump", "Z"), "field 'trump'"),
        (lambda r: r.__setitem__("levels", {"A": "2"}), "levels must name"),
        (lambda r: r.__setitem__("dealer", "north"), "unknown seat"),
        (lambda r: r.__setitem__("tricks", "5H"), "field 'tricks'"),
        (lambda r: r.__setitem__("declarations", [3]), "field 'declarations'"),
    ],
)
def test_malformed_records_fail_with_one_line(change, message):
    rec = played_out(5).to_record()
    change(rec)
    with pytest.raises(RecordError) as exc:
        GAME.from_record(rec)
    assert message in str(exc.value) and "\n" not in str(exc.value)


def test_record_with_wrong_dealer_or_trump_fails_verify():
    rec = played_out(6).to_record()
    wrong = dict(rec, dealer=SEATS[(SEATS.index(rec["dealer"]) + 1) % 4])
    v = verify_record(wrong)
    assert not v.ok and "dealer" in v.error
    other = next(t for t in ("C", "D", "H", "S", "NT") if t != rec["trump"])
    v = verify_record(dict(rec, trump=other))
    assert not v.ok and "trump" in v.error
    bad = dict(rec, tricks=[list(t) for t in rec["tricks"]])
    bad["tricks"][0][1], bad["tricks"][0][2] = bad["tricks"][0][2], bad["tricks"][0][1]
    assert not verify_record(bad).ok


def test_action_text():
    st = GAME.new_deal(1)
    assert st.string_to_action("pass") == () and st.action_to_string(()) == "pass"
    assert st.string_to_action("sj sj") == (52, 52) and st.string_to_action("10h 4S") == tuple(sorted(kinds("4S TH")))
    with pytest.raises(CardError):
        st.string_to_action("7X")
    with pytest.raises(IllegalAction):
        st.apply_action("7H")
    assert st.where() == "declarations, call 1 (bottom)"


def test_render_names_everything():
    st = played_out(7)
    text = st.render()
    for word in ("level 2", "declarations:", "kitty:", "buried:", "trick  1:", "result:", "♠"):
        assert word in text


# --- determinization -------------------------------------------------------------------------------------


def pair_lead_answered_without_pairs():
    """Bottom (dealer, spades trump) leads AH AH; right, holding hearts but no heart pair, answers 3H 4H."""
    st = deal(levels={"A": "2", "B": "2"}, dealer="bottom", bottom="2S AH AH", right="3H 4H 5H 7H 9H")
    act(st, "2S", "pass", "pass", "pass", "3C", "3C", "4C", "4C", "5C", "5C", "6C", "6C", "AH AH", "3H 4H")
    return st


def test_known_caps_from_voids_and_the_pair_duty():
    st = pair_lead_answered_without_pairs()
    hearts = kinds("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")  # 2H is a trump at level 2
    for seat in (0, 2, 3):
        caps = st.known_caps(seat)
        assert caps[1] == {k: 0 if k in kinds("3H 4H") else 1 for k in hearts}
        assert all(caps[s] == {} for s in (0, 2, 3))
    assert st.known_caps(1)[1] == {}  # nothing is hidden from right about its own hand
    act(st, "KH KH", "5S 6S")  # left has no heart: void, every heart capped at 0
    assert st.known_caps(0)[3] == {k: 0 for k in hearts}
    for seed in range(30):  # the worlds honour the caps: right never holds a heart pair, nor 3H / 4H
        world = st.resample(0, new_rng(seed))
        held = Counter(world.hand(1).cards())
        assert all(held[k] <= 1 for k in hearts) and held[kinds("3H")[0]] == held[kinds("4H")[0]] == 0
        assert not any(k in hearts for k in world.hand(3).cards())


def test_fallback_world_relaxes_only_the_pair_duty():
    """A constructed position where no world meets the pair duty: top and left are marked void in hearts
    and right (who answered AH AH with 3H 4H, so held no heart pair) must then hold every hidden heart,
    pairs included. Every constrained draw fails, and the direct world breaks the pair duty alone."""
    st = pair_lead_answered_without_pairs()
    h = SUITS.index("H")
    right, top = Counter(st.hand(1).cards()), Counter(st.hand(2).cards())

    def is_heart(k: int) -> bool:
        return st.effective_suit(k) == h

    hearts = Counter({k: c for k, c in (right + top).items() if is_heart(k)})
    others = list((right + top - hearts).elements())
    new_right = hearts + Counter(others[: len(st.hand(1)) - sum(hearts.values())])
    new_top = right + top - new_right
    st.hands[1], st.hands[2] = masks_of(new_right), masks_of(new_top)
    st.voids[2, h] = st.voids[3, h] = True
    caps = st.known_caps(0)
    assert st._draw_world(0, random.Random(1), caps) is None
    seen_top = set()
    for seed in range(10):
        world = st.resample(0, new_rng(seed))
        assert world.seed is None
        assert vars(world.observation(0)) == vars(st.observation(0))
        assert Counter(world.hand(1).cards()) >= hearts  # the relaxed duty: right gets the heart pairs
        assert not any(is_heart(k) for s in (2, 3) for k in world.hand(s).cards())  # voids kept
        assert [len(world.hand(s)) for s in range(4)] == [len(st.hand(s)) for s in range(4)]
        seen_top.add(tuple(world.hand(2).cards()))
    assert len(seen_top) > 1  # the rest is drawn, not copied


def masks_of(counter: Counter) -> tuple[int, int]:
    one = two = 0
    for k, c in counter.items():
        one |= 1 << k
        if c == 2:
            two |= 1 << k
    return one, two


def test_levels_are_the_unit_of_returns():
    assert GAME.returns_unit == "levels"


def test_a_record_reads_back_into_the_same_record():
    from tekkasim.simulate import play_deal

    state = play_deal(get_game("shengji"), 17)
    record = state.to_record()
    again, actions = get_game("shengji").from_record(record)
    for text in actions:
        again.apply_action(again.string_to_action(text))
    assert again.to_record() == record and again.seed == 17
