"""Satat rules on concrete deals with known outcomes: one or more scenarios per rule and per decision of
``tekkasim.rulesets.satat.game`` (2♥, KOT, KOT 52, Renonce and accusations, exchange, redeals, rotation, draw,
match end, records and verify)."""

import copy
import random

import numpy as np
import pytest

from tekkasim.bits import new_rng
from tekkasim.cards import SEATS, card_name, cards_of, parse_card, parse_cards, parse_seat
from tekkasim.errors import IllegalAction, OptionError, RecordError, TekkasimError
from tekkasim.rules import get_game
from tekkasim.rulesets.satat import _kernels as K
from tekkasim.rulesets.satat import reference as R
from tekkasim.rulesets.satat.game import (
    COLLECT,
    REDEAL,
    TROUPE,
    SatatState,
    accuse_action,
    decode_accusation,
    exchange_for,
)
from tekkasim.verify import replay_record, verify_record

GAME = get_game("satat")

# D1: bottom holds the top spades and honours, left low spades, top 2♥ and low hearts/diamonds, right clubs.
D1 = {
    "bottom": "AS KS QS JS TS 9S 8S AH KH QH AD KD QD",
    "left": "7S 6S 5S 4S 3S 2S JH TH 9H JD TD 9D 8D",
    "top": "2H 3H 4H 5H 6H 7H 8H 7D 6D 5D 4D 3D 2D",
    "right": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
}
# D2: left's only heart is 2♥.
D2 = {
    "bottom": "AS KS QS JS TS 9S 8S AH KH QH AD KD QD",
    "left": "7S 6S 5S 4S 3S 2S 2H JD TD 9D 8D 7D 6D",
    "top": "JH TH 9H 8H 7H 6H 5H 4H 3H 5D 4D 3D 2D",
    "right": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
}
# D3: one suit each; with spades Troupe and bottom calling, team A wins all 13 whatever is played.
D3 = {
    "bottom": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "left": "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "top": "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "right": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
}
# D4: like D3, but bottom's 2♠ and right's 2♣ change places.
D4 = {
    "bottom": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2C",
    "left": D3["left"],
    "top": D3["top"],
    "right": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2S",
}
# Seven tricks in a row for team A with D4 and spades (bottom leads, then left, top, right).
KOT_TRICKS = ["AS 2D 3H 2S", "KS 3D 4H 3C", "QS 4D 5H 4C", "JS 5D 6H 5C", "TS 6D 7H 6C", "9S 7D 8H 7C", "8S 8D 9H 8C"]


def deal(hands: dict, caller: str = "bottom", troupe: str | None = None, score=(0, 0), exchange=None):
    """A state with these hands as dealt (caller given; dealer the seat before it), Troupe chosen if given."""
    c = parse_seat(caller)
    state = SatatState(GAME, (c + 1) % 4, c, [parse_cards(hands[s]) for s in SEATS], score, exchange)
    if troupe is not None:
        state.apply_action(state.string_to_action(troupe))
    return state


def play(state, *tricks: str) -> None:
    for trick in tricks:
        for text in trick.split():
            state.apply_action(state.string_to_action(text))


def legal(state) -> set[str]:
    return {card_name(c) for c in state.legal_actions()}


def accuse(state, accused: str, by: str, card: str) -> None:
    state.apply_action(state.string_to_action(f"accuse:{accused}:by:{by}:{card}"))


def test_a_fresh_deal_is_complete_and_every_seat_sees_five_before_troupe():
    state = GAME.new_deal(11)
    seen = set()
    for s in range(4):
        assert len(state._dealt[s]) == 13
        seen |= set(state._dealt[s])
        obs = state.observation(s)
        assert cards_of(obs.hand) == sorted(state._dealt[s][:5]) and obs.public["trump"] is None
    assert seen == set(range(52))
    assert state.phase() in ("troupe", "redeal-or-troupe") and state.current_player() == state.caller
    assert state.dealer == (state.caller + 1) % 4  # the caller is next clockwise from the dealer
    with pytest.raises(IllegalAction) as err:
        state.apply_action(state._dealt[state.caller][0])
    assert err.value.rule == "troupe"


def test_play_is_clockwise_and_the_caller_leads():
    state = deal(D1, "right", "S")
    order = []
    for _ in range(4):
        order.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    assert [SEATS[s] for s in order] == ["right", "bottom", "left", "top"]


# --- following and the 2♥ -------------------------------------------------------------------------


def test_follow_suit_if_able_else_any_card():
    state = deal(D1, "bottom", "S")
    play(state, "AH")
    assert legal(state) == {"JH", "TH", "9H"}  # left follows hearts
    play(state, "9H")
    assert legal(state) == {f"{r}H" for r in "2345678"}  # top may follow with 2♥ too
    play(state, "3H")
    assert legal(state) == set(D1["right"].split())  # right is void in hearts: any card
    play(state, "2C")
    assert state.table()[0] == (0, parse_card("AH")) and state.arrays[1][K.N_TABLE] == 4
    assert state.arrays[1][K.WINNERS] == 0 and state.renonces() == []


def test_two_of_hearts_led_forces_troupe():
    state = deal(D1, "top", "S")
    play(state, "2H")
    assert legal(state) == set(D1["right"].split())  # right holds no Troupe: any card
    play(state, "2C")
    assert legal(state) == set("AS KS QS JS TS 9S 8S".split())  # bottom must play Troupe, not hearts
    assert state.is_renonce(parse_card("AH"))
    play(state, "AH")  # a Renonce is a possible play
    assert legal(state) == set("7S 6S 5S 4S 3S 2S".split())
    play(state, "7S")
    assert state.renonces() == [(0, 0)]
    assert state.arrays[1][K.WINNERS] == 2  # 2♥ wins over the Troupe 7♠
    assert state.current_player() == 2 and state.phase() == "play"


def test_two_of_hearts_lead_with_hearts_troupe_is_an_ordinary_troupe_lead():
    state = deal(D1, "top", "H")
    play(state, "2H", "2C")
    assert legal(state) == {"AH", "KH", "QH"}  # hearts = Troupe: follow hearts, spades are no longer asked
    play(state, "AS")
    assert state.renonces() == [(0, 0)]
    assert legal(state) == {"JH", "TH", "9H"}


def test_two_of_hearts_second_does_not_change_the_suit_to_follow():
    state = deal(D1, "left", "S")
    play(state, "JD")
    assert "2H" in legal(state) and "7D" in legal(state) and "3H" not in legal(state)
    play(state, "2H", "2C")
    assert legal(state) == {"AD", "KD", "QD"}  # still diamonds after the 2♥
    play(state, "AD")
    assert state.arrays[1][K.WINNERS] == 2 and state.renonces() == []  # 2♥ beats the ace; never a Renonce


def test_two_of_hearts_third_beats_the_led_suit():
    state = deal(D1, "bottom", "S")
    play(state, "AH 9H 2H 2C")
    assert state.arrays[1][K.WINNERS] == 2 and state.renonces() == []


def test_two_of_hearts_fourth_beats_troupe():
    state = deal(D1, "right", "S")
    play(state, "2C AS 7S 2H")
    assert state.arrays[1][K.WINNERS] == 2 and state.renonces() == []
    # Without the 2♥ the highest Troupe wins.
    other = deal(D1, "right", "S")
    play(other, "2C 8S 7S 3H")
    assert other.arrays[1][K.WINNERS] == 0


def test_two_of_hearts_as_the_only_heart_is_being_void_in_hearts():
    state = deal(D2, "bottom", "D")
    play(state, "AH")
    assert legal(state) == set(D2["left"].split())  # 2♥ is no heart for following: left may play anything
    play(state, "7S 3H 2C")
    assert state.renonces() == [] and state.arrays[1][K.WINNERS] == 0


def test_highest_troupe_beats_the_led_suit_and_off_suits_never_win():
    state = deal(D1, "left", "C")
    play(state, "JD 7D 2C AD")  # right, void in diamonds, trumps with the lowest club
    assert state.arrays[1][K.WINNERS] == 1
    state = deal(D1, "left", "H")
    play(state, "JD 7D AC AD")  # no Troupe played: the off-suit A♣ loses to bottom's A♦ of the led suit
    assert state.arrays[1][K.WINNERS] == 0


# --- round end: seven, KOT, KOT 52 ----------------------------------------------------------------


def test_seven_tricks_not_in_a_row_score_one():
    state = deal(D4, "bottom", "S")
    play(state, "2C 2D 3H AC", "KC AS 3D 4H", "KS 4D 5H 2S", "QS 5D 6H 3C", "JS 6D 7H 4C", "TS 7D 8H 5C", "9S 8D 9H 6C")
    assert not state.is_terminal()
    play(state, "8S 9D TH 7C")
    # Decided but not over: the 8th trick stays on the table, its winner (bottom) may only collect it.
    assert state.phase() == "collect" and not state.is_terminal() and state.current_player() == 0
    assert state.legal_actions() == [COLLECT] and state.possible_actions() == [COLLECT]
    assert state.where() == "trick 8 on the table (collect, bottom)"
    assert state.observation(1).public["decided"] == "seven"
    with pytest.raises(TekkasimError, match="the deal is not over"):
        state.returns()
    assert "decided: seven" in state.render()
    play(state, "collect")
    assert state.result() == {"tricks": {"A": 7, "B": 1}, "kind": "seven", "points": {"A": 1, "B": 0}, "renonces": []}
    assert state.observation(1).public["decided"] is None
    assert state.to_record()["tricks"][-1] == ["8S", "9D", "TH", "7C"]  # no "collect" in records


def test_kot_then_a_lost_trick_scores_two():
    state = deal(D4, "bottom", "S")
    play(state, *KOT_TRICKS)
    assert not state.is_terminal() and state.observation(1).public["kot"] == 0  # KOT: play goes on
    play(state, "2C 9D TH AC")
    assert state.phase() == "collect" and state.current_player() == 1  # right won the trick that broke the KOT
    play(state, "collect")
    assert state.result()["kind"] == "kot" and state.returns() == (2.0, 0.0)
    assert state.result()["tricks"] == {"A": 7, "B": 1}
    with pytest.raises(IllegalAction) as err:
        state.apply_action(parse_card("7S"))
    assert err.value.rule == "after-end"
    assert state.next_deal_context()["exchange"] == {"cards": 1, "loser": "B"}


def test_kot_52_scores_three_and_can_be_won_by_the_two_of_hearts():
    state = deal(D4, "bottom", "S")
    play(state, *KOT_TRICKS, "7S 9D TH 9C", "6S TD JH TC", "5S JD QH JC", "4S QD KH QC", "3S KD AH KC")
    play(state, "2C AD 2H")  # top's 2♥ wins the last trick for team A
    play(state, "AC")
    assert state.phase() == "collect" and state.current_player() == 2
    play(state, "collect")
    assert state.result() == {"tricks": {"A": 13, "B": 0}, "kind": "kot52", "points": {"A": 3, "B": 0}, "renonces": []}
    assert state.next_deal_context()["exchange"] == {"cards": 2, "loser": "B"}


def test_match_won_from_three_nil_by_kot_52():
    state = deal(D3, "bottom", "S", score=(3, 0))
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.result()["kind"] == "kot52"
    assert state.score_after() == (6, 0) and state.match_winner() == 0  # scores pass 5
    assert state.next_deal_context()["score"] == {"A": 6, "B": 0}
    assert deal(D3, "bottom", "S", score=(3, 0)).match_winner() is None


# --- Renonce and accusations ----------------------------------------------------------------------


def test_correct_accusation_right_after_the_fourth_card_voids_the_trick():
    state = deal(D1, "bottom", "S")
    play(state, "AH JD 3H 2C")  # left holds hearts and plays a diamond: Renonce
    assert state.renonces() == [(0, 3)] and state.arrays[1][K.N_TABLE] == 4
    assert state.current_player() == 0 and state.phase() == "play"  # the trick is still on the table
    accuse(state, "left", "top", "JD")  # top accuses though it is bottom's turn
    assert state.result() == {
        "tricks": {"A": 0, "B": 0},
        "kind": "renonce",
        "points": {"A": 1, "B": 0},
        "renonces": [[0, "left"]],
    }
    record = state.to_record()
    assert record["tricks"] == [["AH", "JD", "3H", "2C", {"accuse": "left", "by": "top", "card": "JD"}]]
    verdict = verify_record(record)
    assert verdict.ok and "trick 1 left" in verdict.line()
    with pytest.raises(IllegalAction) as err:  # the accusation is final
        state.apply_action(parse_card("KH"))
    assert err.value.rule == "after-end"


def test_actors_are_offered_accusations_out_of_turn():
    """The contract: ``actors()`` is the seat to move, then every seat with an accusation open;
    ``legal_actions_for`` gives each its own. Before Troupe and before the first card only the seat to move."""
    state = deal(D1, "bottom")
    assert state.actors() == [0] and state.legal_actions_for(0) == state.legal_actions()
    assert all(state.legal_actions_for(s) == [] for s in (1, 2, 3))
    state.apply_action(state.string_to_action("S"))
    assert state.actors() == [0] and state.legal_actions_for(2) == []
    play(state, "AH")  # bottom's card on the table: its opponents (right, left) may accuse it
    assert state.actors() == [3, 1]  # left to move, then right out of turn
    assert state.legal_actions_for(1) == [accuse_action(0, 1, parse_card("AH"))]
    assert state.legal_actions_for(2) == []  # top may not accuse its partner
    assert state.legal_actions_for(3) == sorted(state.legal_actions() + [accuse_action(0, 3, parse_card("AH"))])
    play(state, "JD 3H 2C")  # the fourth card: the trick stays on the table, every seat has an opponent's card
    assert state.actors() == [0, 1, 2, 3] and state.current_player() == 0
    assert state.legal_actions_for(2) == sorted(accuse_action(s, 2, c) for s, c in state.table() if s % 2)
    action = state.legal_actions_for(2)[0]  # an out-of-turn action applies like any other
    state.apply_action(action)
    assert state.is_terminal() and state.actors() == [] and all(state.legal_actions_for(s) == [] for s in range(4))


def test_actors_in_the_collect_phase():
    state = deal(D7, "bottom", "S")
    play(state, *D7_TRICKS, "AD 8D TH 8C")
    assert state.phase() == "collect" and state.actors() == [0, 1, 2, 3]
    assert state.legal_actions_for(0) == sorted([COLLECT] + state.accusations(0))
    assert state.legal_actions_for(3) == state.accusations(3) and len(state.accusations(3)) == 2


def test_self_play_asks_every_actor():
    """``simulate.step`` asks the out-of-turn seats first: a policy that accuses whenever it may ends the
    round at the first card on the table, by the caller's opponent that is not to move."""
    from tekkasim.simulate import play_deal, random_policy

    def eager(state, seat, rng):
        if seat != state.current_player():
            return state.legal_actions_for(seat)[0]
        return random_policy(state, seat, rng)

    for seed in range(5):
        state = play_deal(GAME, seed, eager)
        acc = state.accusation()
        assert acc is not None and len(state.to_record()["tricks"][0]) == 2  # one card, then the accusation
        assert acc["accused"] == state.caller and acc["by"] == (state.caller + 1) % 4  # (caller + 3) % 4 is to move
        assert verify_record(state.to_record()).ok


def test_a_renonce_proved_by_a_later_card():
    state = deal(D1, "bottom", "S")
    play(state, "AH JD 3H 2C", "KH TH")  # left's T♥ proves it held hearts in trick 1
    accuse(state, "left", "top", "TH")
    result = state.result()
    assert result["kind"] == "renonce" and result["points"] == {"A": 1, "B": 0}
    assert result["tricks"] == {"A": 1, "B": 0}  # trick 1 counts, the interrupted trick 2 does not
    assert state.accusation() == {"accused": 3, "by": 2, "card": parse_card("TH"), "correct": True}


def test_renonce_after_a_two_of_hearts_lead_is_caught():
    state = deal(D1, "top", "S")
    play(state, "2H 2C AH 7S")
    accuse(state, "bottom", "left", "AH")
    assert state.result()["points"] == {"A": 0, "B": 1}


def test_wrong_accusation_gives_the_point_to_the_other_team():
    state = deal(D1, "bottom", "S")
    play(state, "AH JD 3H 2C")
    accuse(state, "right", "top", "2C")  # right was void in hearts
    assert state.result()["points"] == {"A": 0, "B": 1} and state.result()["kind"] == "renonce"
    assert state.accusation()["correct"] is False


def test_accusations_that_are_not_allowed():
    state = deal(D1, "bottom", "S")
    with pytest.raises(IllegalAction) as err:
        accuse(state, "left", "top", "JD")  # nothing on the table yet
    assert err.value.rule == "accuse-not-on-table"
    play(state, "AH JD 3H 2C", "KH")
    cases = [
        ("top", "bottom", "3H", "accuse-not-on-table"),  # a completed trick is only evidence
        ("left", "top", "JD", "accuse-not-on-table"),
        ("bottom", "top", "KH", "accuse-partner"),  # one's partner
        ("bottom", "bottom", "KH", "accuse-partner"),  # oneself
        ("left", "top", "KH", "accuse-wrong-seat"),
    ]  # K♥ is bottom's card, not left's
    for accused, by, card, rule in cases:
        with pytest.raises(IllegalAction) as err:
            accuse(state, accused, by, card)
        assert err.value.rule == rule, (accused, by, card)
    assert state.accusations(2) == [] and state.accusations(0) == []
    assert len(state.accusations(1)) == 1 and len(state.accusations(3)) == 1
    assert not state.is_terminal()


def test_accusation_after_a_kot_scores_only_the_accusation():
    state = deal(D4, "bottom", "S")
    play(state, *KOT_TRICKS, "2C")
    accuse(state, "bottom", "left", "2C")  # bottom never failed to follow: wrong
    assert state.result()["kind"] == "renonce" and state.result()["points"] == {"A": 1, "B": 0}
    assert state.next_deal_context()["exchange"] is None  # no exchange after a round ended by accusation


# --- the deciding trick stays on the table: accusations, then COLLECT ------------------------------

# D7 (spades): right wins trick 1, team A the next seven; right holds 2♦ in trick 8 and discards 8♣ on
# bottom's A♦ lead (a Renonce in the trick that gives team A its 7th trick).
D7 = {
    "bottom": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 2C AD",
    "left": "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 3C 4C",
    "top": "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "right": "AC KC QC JC TC 9C 8C 7C 6C 5C 2S 3S 2D",
}
D7_TRICKS = ["2C 3C 3H AC", "KC AS 4C 4H", "KS 3D 5H 2S", "QS 4D 6H 3S", "JS 5D 7H 5C", "TS 6D 8H 6C", "9S 7D 9H 7C"]
# D6 (spades): like D4, but top holds 3♣ (for right's 3♥): team A's KOT run, then in trick 8 top
# discards J♥ on bottom's 2♣ lead while holding 3♣ and right's A♣ breaks the KOT.
D6 = {
    "bottom": D4["bottom"],
    "left": D3["left"],
    "top": "2H 3C 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "right": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3H 2S",
}
D6_KOT = ["AS 2D 4H 2S", "KS 3D 5H 4C", "QS 4D 6H 5C", "JS 5D 7H 6C", "TS 6D 8H 7C", "9S 7D 9H 8C", "8S 8D TH 9C"]
# With D4, right discards 3♣ on the first spade lead while holding 2♠ (a Renonce), and team A still
# wins all 13 tricks; the 13th is won by top's 2♥.
KOT52_WITH_RENONCE = [
    "AS 2D 3H 3C",
    "KS 3D 4H 2S",
    *KOT_TRICKS[2:],
    "7S 9D TH 9C",
    "6S TD JH TC",
    "5S JD QH JC",
    "4S QD KH QC",
    "3S KD AH KC",
    "2C AD 2H AC",
]


def test_seven_with_a_renonce_in_the_deciding_trick_then_collect():
    state = deal(D7, "bottom", "S")
    with pytest.raises(IllegalAction) as err:  # nothing to collect before Troupe or during play
        deal(D7).apply_action(COLLECT)
    assert err.value.rule == "collect"
    play(state, *D7_TRICKS)
    assert state.observation(0).public["won"] == (6, 1) and state.phase() == "play"
    with pytest.raises(IllegalAction) as err:
        state.apply_action(COLLECT)
    assert err.value.rule == "collect" and state.observation(0).public["decided"] is None
    play(state, "AD 8D TH 8C")  # right holds 2♦: Renonce; A♦ gives team A its 7th trick
    assert state.renonces() == [(7, 1)]
    assert state.phase() == "collect" and state.current_player() == 0 and not state.is_terminal()
    assert state.observation(3).public["decided"] == "seven"
    for by in range(4):  # every seat may still accuse an opponent's card of the deciding trick
        opponents = sorted(c for s, c in state.table() if s % 2 != by % 2)
        assert sorted(decode_accusation(a)[2] for a in state.accusations(by)) == opponents
    assert len(state.accusations(0)) == 2 and len(state.accusations(1)) == 2
    with pytest.raises(IllegalAction) as err:  # no card may follow the deciding trick
        state.apply_action(parse_card("7S"))
    assert err.value.rule == "round-decided"
    play(state, "collect")  # nobody accused: the bluff went through
    assert state.result() == {
        "tricks": {"A": 7, "B": 1},
        "kind": "seven",
        "points": {"A": 1, "B": 0},
        "renonces": [[7, "right"]],
    }
    with pytest.raises(IllegalAction) as err:
        state.apply_action(COLLECT)
    assert err.value.rule == "after-end"


def test_correct_accusation_right_after_the_deciding_fourth_card():
    state = deal(D7, "bottom", "S")
    play(state, *D7_TRICKS, "AD 8D TH 8C")
    accuse(state, "right", "top", "8C")
    # The deciding trick counts for nobody: team A has 6 tricks, and scores 1 for the accusation only.
    assert state.result() == {
        "tricks": {"A": 6, "B": 1},
        "kind": "renonce",
        "points": {"A": 1, "B": 0},
        "renonces": [[7, "right"]],
    }
    assert state.arrays[1][K.WINNERS + 7] == -1 and state.observation(1).public["decided"] is None
    assert state.next_deal_context()["caller"] == "bottom"  # the caller's team scored: no rotation


def test_wrong_accusation_right_after_the_deciding_fourth_card():
    state = deal(D7, "bottom", "S")
    play(state, *D7_TRICKS, "AD 8D TH 8C")
    accuse(state, "left", "top", "8D")  # left never failed to follow
    assert state.result() == {
        "tricks": {"A": 6, "B": 1},
        "kind": "renonce",
        "points": {"A": 0, "B": 1},
        "renonces": [[7, "right"]],
    }
    assert state.accusation() == {"accused": 3, "by": 2, "card": parse_card("8D"), "correct": False}


def test_the_trick_that_breaks_a_kot_can_be_accused_or_collected():
    state = deal(D6, "bottom", "S")
    play(state, *D6_KOT)
    assert state.phase() == "play" and state.legal_actions() != [COLLECT]  # KOT: no collect, play goes on
    play(state, "2C 9D JH AC")  # top holds 3♣: Renonce; right's A♣ breaks the KOT
    assert state.phase() == "collect" and state.current_player() == 1 and state.renonces() == [(7, 2)]
    assert state.observation(0).public["decided"] == "kot" and state.legal_actions() == [COLLECT]
    collected, wrong = state.clone(), state.clone()
    accuse(state, "top", "left", "JH")
    assert state.result() == {
        "tricks": {"A": 7, "B": 0},
        "kind": "renonce",
        "points": {"A": 0, "B": 1},
        "renonces": [[7, "top"]],
    }
    assert state.next_deal_context()["exchange"] is None
    accuse(wrong, "bottom", "left", "2C")  # bottom followed suit all round: wrong, team A scores
    assert wrong.result()["points"] == {"A": 1, "B": 0} and wrong.result()["tricks"] == {"A": 7, "B": 0}
    play(collected, "collect")
    assert collected.result()["kind"] == "kot" and collected.result()["points"] == {"A": 2, "B": 0}
    assert collected.result()["tricks"] == {"A": 7, "B": 1}


def test_the_thirteenth_trick_of_a_kot_52_can_be_accused_or_collected():
    state = deal(D4, "bottom", "S")
    play(state, *KOT52_WITH_RENONCE)
    assert state.phase() == "collect" and state.current_player() == 2
    assert state.observation(1).public["decided"] == "kot52" and state.renonces() == [(0, 1)]
    collected, wrong = state.clone(), state.clone()
    accuse(state, "right", "top", "AC")  # right's Renonce of trick 1 is proved by now
    assert state.result() == {
        "tricks": {"A": 12, "B": 0},
        "kind": "renonce",
        "points": {"A": 1, "B": 0},
        "renonces": [[0, "right"]],
    }
    accuse(wrong, "left", "bottom", "AD")
    assert wrong.result()["points"] == {"A": 0, "B": 1} and wrong.result()["kind"] == "renonce"
    play(collected, "collect")
    assert collected.result()["kind"] == "kot52" and collected.result()["points"] == {"A": 3, "B": 0}
    assert collected.next_deal_context()["exchange"] == {"cards": 2, "loser": "B"}


def test_records_of_the_deciding_trick_verify():
    # Collected: the record holds no "collect"; from_record adds it after the deciding trick.
    state = deal(D7, "bottom", "S")
    play(state, *D7_TRICKS, "AD 8D TH 8C")
    position = state.to_record()
    assert position["unfinished"] is True and verify_record(position).unfinished
    rebuilt, actions = GAME.from_record(position)  # an unfinished record stops before the collect
    assert actions[-1] == "8C"
    play(rebuilt, *actions)
    assert rebuilt.phase() == "collect" and rebuilt.to_record() == position
    collected = state.clone()
    play(collected, "collect")
    record = collected.to_record()
    assert "collect" not in str(record["tricks"])
    _, actions = GAME.from_record(record)
    assert actions[-2:] == ["8C", "collect"]
    verdict = verify_record(record)
    assert verdict.ok and verdict.result["kind"] == "seven" and "trick 8 right" in verdict.line()
    # Accused right after the fourth card of the deciding trick.
    accuse(state, "right", "top", "8C")
    record = state.to_record()
    assert record["tricks"][-1] == ["AD", "8D", "TH", "8C", {"accuse": "right", "by": "top", "card": "8C"}]
    _, actions = GAME.from_record(record)
    assert actions[-2:] == ["8C", "accuse:right:by:top:8C"]
    verdict = verify_record(record)
    assert verdict.ok and verdict.result["kind"] == "renonce" and verdict.result["points"] == {"A": 1, "B": 0}
    assert verdict.result["tricks"] == {"A": 6, "B": 1}
    # Plays after the deciding trick come after the end of the round.
    for extra in (lambda r: r["tricks"].append(["7S"]), lambda r: r["tricks"][-1].append("7S")):
        bad = copy.deepcopy(collected.to_record())
        extra(bad)
        verdict = verify_record(bad)
        assert not verdict.ok and "'7S' comes after the deal ended" in verdict.error
    bad = copy.deepcopy(record)
    bad["tricks"][-1].insert(4, "7S")  # a card between the deciding trick and the accusation
    assert not verify_record(bad).ok


# --- exchange -------------------------------------------------------------------------------------


def gives(hand: str, troupe: str, k: int, losing: bool) -> list[str]:
    cards = parse_cards(hand)
    t = "CDHS".index(troupe)
    out = [card_name(c) for c in R.exchange_gives(cards, t, k, losing)]
    compiled = cards_of(int(K.exchange_gives(np.uint64(sum(1 << c for c in cards)), t, k, losing)))
    assert sorted(parse_cards(out)) == compiled
    return out


def test_losing_side_gives_highest_troupe_then_highest_cards():
    assert gives("KS 4S AH AD 2H 3C", "S", 1, True) == ["KS"]
    assert gives("KS 4S AH AD 2H 3C", "S", 2, True) == ["KS", "4S"]
    assert gives("KS AH AD 2H 3C", "S", 2, True) == ["KS", "AH"]  # aces tie: H above D
    assert gives("2H 5H AS AD 3C", "H", 2, True) == ["5H", "AS"]  # the 2♥ stays even as Troupe
    assert gives("2H AD KC", "S", 1, True) == ["AD"]


def test_winning_side_gives_lowest_keeping_a_card_of_each_suit():
    assert gives("2C 3D 4D 3H 5H 2H AS KS", "S", 1, False) == ["3D"]  # 2♣ is the last club: kept
    assert gives("2C 3D 4D 3H 5H 2H AS KS", "S", 2, False) == ["3D", "3H"]  # threes tie: D before H
    assert gives("2H 4H 3D 4D 5C 6C AS", "S", 2, False) == ["3D", "5C"]  # 2♥ does not keep hearts
    assert gives("2C 3D 4H AS KS 2S", "S", 2, False) == ["2S", "KS"]  # only singletons: lowest Troupe
    assert gives("2H 3C 4C AS", "H", 1, False) == ["3C"]  # 2♥ never given


def test_exchange_after_kot_52_in_a_dealt_round():
    state = GAME.new_deal(5, dealer="left", exchange={"cards": 2, "loser": "B"})
    dealt = [list(h) for h in state._dealt]
    state.apply_action(TROUPE + 3)
    moves = state._exchange
    assert moves == exchange_for(dealt, 3, 2, 1)
    assert sorted((g, r) for g, r, _ in moves) == [(0, 1)] * 2 + [(1, 0)] * 2 + [(2, 3)] * 2 + [(3, 2)] * 2
    for s in range(4):
        want = set(dealt[s]) - {c for g, _, c in moves if g == s} | {c for _, r, c in moves if r == s}
        assert set(cards_of(state.hand(s))) == want
    assert all(c != 26 for _, _, c in moves)
    obs = state.observation(1)
    assert len(obs.private["gave"]) == 2 and len(obs.private["received"]) == 2
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    record = state.to_record()
    assert record["hands"] == {SEATS[s]: [card_name(c) for c in dealt[s]] for s in range(4)}  # as dealt
    assert verify_record(record).ok
    bad = copy.deepcopy(record)
    bad["exchange"][0]["card"], bad["exchange"][2]["card"] = bad["exchange"][2]["card"], bad["exchange"][0]["card"]
    verdict = verify_record(bad)
    assert not verdict.ok and "must give" in verdict.error


def test_exchange_after_kot_one_card_each():
    state = GAME.new_deal(8, dealer="bottom", exchange={"cards": 1, "loser": "A"})
    dealt = [list(h) for h in state._dealt]
    state.apply_action(TROUPE + 0)
    # bottom and top lost: each gives its highest club (Troupe) or highest card to the next seat clockwise
    assert [(g, r) for g, r, _ in state._exchange] == [(0, 3), (3, 0), (2, 1), (1, 2)]
    for g, _, c in state._exchange:
        assert [c] == R.exchange_gives(dealt[g], 0, 1, g % 2 == 0)


# --- redeals --------------------------------------------------------------------------------------


def _redeal_seed(times: int) -> int:
    """A seed whose first ``times`` + 1 deals all give the caller no J, Q or K in its first five."""
    for seed in range(20_000):
        rng = R.Rng(seed)
        caller, _ = R.draw_caller(rng)
        if all(R.may_redeal(R.deal(rng, caller)[caller][:5]) for _ in range(times + 1)):
            return seed
    raise AssertionError("no such seed")


def test_redeal_only_without_j_q_k_and_at_most_twice():
    seed = _redeal_seed(2)
    state = GAME.new_deal(seed)
    assert state.phase() == "redeal-or-troupe" and REDEAL in state.legal_actions()
    first = [list(h) for h in state._dealt]
    state.apply_action(REDEAL)
    assert state._dealt != first and state.redeals == 1 and state.phase() == "redeal-or-troupe"
    state.apply_action(REDEAL)
    assert state.redeals == 2 and state.phase() == "troupe"  # third deal: it must choose
    assert R.may_redeal(state._dealt[state.caller][:5])
    with pytest.raises(IllegalAction) as err:
        state.apply_action(REDEAL)
    assert err.value.rule == "redeal"
    again = GAME.new_deal(seed)  # the redeals come from the deal's seeded RNG
    again.apply_action(REDEAL)
    again.apply_action(REDEAL)
    assert again._dealt == state._dealt
    state.apply_action(TROUPE + 1)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    record = state.to_record()
    assert record["redeals"] == 2 and len(record["redealt"]) == 2
    replayed, error = replay_record(record)
    assert error is None and replayed.history() == state.history()


def test_redeal_refused_with_a_face_card_and_in_records():
    seed = next(s for s in range(100) if GAME.new_deal(s).phase() == "troupe")
    state = GAME.new_deal(seed)
    assert REDEAL not in state.legal_actions()
    with pytest.raises(IllegalAction) as err:
        state.apply_action(REDEAL)
    assert err.value.rule == "redeal"
    # A record claiming a redeal of that deal is rejected at the redeal.
    state.apply_action(TROUPE)
    record = state.to_record()
    record["redeals"], record["redealt"] = 1, [record["hands"]]
    verdict = verify_record(record)
    assert not verdict.ok and "troupe" in verdict.error and "no redeal" in verdict.error


# --- next round, the draw, the match --------------------------------------------------------------


def _finished(winner_team: int, caller: str) -> SatatState:
    """A round on D3 won by ``winner_team`` (team A holds spades/hearts, B diamonds/clubs)."""
    state = deal(D3, caller, "SDSD"[winner_team + (2 if caller in ("left", "right") else 0)])
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.returns()[winner_team] > 0
    return state


def test_next_round_dealer_and_caller_rotation():
    caller_wins = _finished(0, "bottom")  # bottom calls, right deals; bottom's team wins: nothing moves
    assert caller_wins.next_deal_context()["dealer"] == "right"
    assert caller_wins.next_deal_context()["caller"] == "bottom"
    dealer_wins = _finished(1, "bottom")  # right's team wins: bottom deals, left calls
    ctx = dealer_wins.next_deal_context()
    assert (ctx["dealer"], ctx["caller"]) == ("bottom", "left")
    nxt = GAME.new_deal(9, **ctx)
    assert (nxt.dealer, nxt.caller) == (0, 3) and nxt.draw is None
    assert nxt.score_before == dealer_wins.score_after() and nxt.score_before[1] >= 1
    dealer_wins_again = _finished(0, "left")  # left calls, top deals; top's team wins: left deals, top calls
    ctx = dealer_wins_again.next_deal_context()
    assert (ctx["dealer"], ctx["caller"]) == ("left", "top")


def test_rotation_after_an_accusation_follows_the_scoring_team():
    state = deal(D1, "bottom", "S")  # bottom calls, right deals
    play(state, "AH JD 3H 2C")
    accuse(state, "right", "top", "2C")  # wrong: team B scores and counts as the winner
    ctx = state.next_deal_context()
    assert (ctx["dealer"], ctx["caller"], ctx["score"]) == ("bottom", "left", {"A": 0, "B": 1})
    state = deal(D1, "bottom", "S")
    play(state, "AH JD 3H 2C")
    accuse(state, "left", "top", "JD")  # correct: team A (the caller's) scores: nothing moves
    ctx = state.next_deal_context()
    assert (ctx["dealer"], ctx["caller"]) == ("right", "bottom")


def test_the_draw_ranks_king_high_ace_low_and_ties_draw_again():
    order = [R.draw_value(parse_card(f"{r}S")) for r in "KQJT98765432A"]
    assert order == sorted(order, reverse=True) and len(set(order)) == 13
    assert R.draw_value(parse_card("2H")) == R.draw_value(parse_card("2S"))  # the 2♥ is an ordinary 2
    assert all(K.draw_value(c) == R.draw_value(c) for c in range(52))
    tied = next(s for s in range(500) if len(GAME.new_deal(s).draw) > 2)
    state = GAME.new_deal(tied)
    for before, after in zip(state.draw, state.draw[1:], strict=False):
        best = max(R.draw_value(c) for c in before.values())
        assert sorted(after) == sorted(s for s, c in before.items() if R.draw_value(c) == best)
    last = state.draw[-1]
    assert max(last, key=lambda s: R.draw_value(last[s])) == state.caller
    assert sum(R.draw_value(c) == R.draw_value(last[state.caller]) for c in last.values()) == 1
    assert len(state.to_record()["draw"]) == len(state.draw)


def test_a_match_runs_to_five_points():
    from tekkasim.simulate import play_match

    states = play_match(GAME, 31, lambda s, seat, rng: s.legal_actions()[0] if seat == s.current_player() else None)
    final = states[-1]
    assert final.match_winner() is not None and max(final.score_after()) >= 5
    for a, b in zip(states, states[1:], strict=False):
        assert b.score_before == a.score_after()
        assert b.dealer % 2 != (0 if a.returns()[0] > 0 else 1)  # the dealer comes from the losing team


def test_bad_context_and_options():
    with pytest.raises(OptionError):
        GAME.new_deal(1, dealer="north")
    with pytest.raises(OptionError):
        GAME.new_deal(1, dealer="bottom", caller="top")
    with pytest.raises(OptionError):
        GAME.new_deal(1, exchange={"cards": 3, "loser": "A"})
    with pytest.raises(OptionError):
        GAME.new_deal(1, score={"A": -1, "B": 0})
    with pytest.raises(OptionError):
        GAME.new_deal(1, trumps="S")
    with pytest.raises(OptionError):
        get_game("satat", fast=True)


# --- observation, resample, records, verify -------------------------------------------------------


def test_observation_shows_public_plays_but_no_renonce_flags():
    state = deal(D1, "bottom", "S")
    play(state, "AH JD")
    obs = state.observation(2)
    assert cards_of(obs.hand) == sorted(parse_cards(D1["top"]))
    assert obs.public["tricks"] == [
        {"leader": 0, "plays": [(0, parse_card("AH")), (3, parse_card("JD"))], "winner": None}
    ]
    assert "renonce" not in repr(obs).lower()
    assert state.observation(2) == state.observation(2) and state.observation(3).hand != obs.hand


def test_resample_keeps_what_the_seat_knows_and_recomputes_renonces():
    state = GAME.new_deal(12, dealer="top", exchange={"cards": 2, "loser": "A"})
    state.apply_action(TROUPE + 2)
    rng = random.Random(5)
    for step in range(30):
        if state.is_terminal():
            break
        for viewer in range(4):
            world = state.resample(viewer, new_rng(step * 4 + viewer))
            assert world.observation(viewer) == state.observation(viewer)
            assert world.hand(viewer) == state.hand(viewer)
            for s in range(4):
                assert bin(world.hand(s)).count("1") == bin(state.hand(s)).count("1")
            assert sum(world.hand(s) for s in range(4)) == sum(state.hand(s) for s in range(4))
            for giver, taker, c in state._exchange:  # what the viewer gave stays with its receiver
                if giver == viewer and state.hand(taker) >> c & 1:
                    assert world.hand(taker) >> c & 1, "a card the viewer gave moved"
            start = [cards_of(world.hand(s)) for s in range(4)]
            for t in range(state._n_tricks()):
                for s, c in state._trick_plays(t):
                    start[s].append(c)
            ref = R.Round(start, 2, state.caller)
            for t in range(state._n_tricks()):
                for _, c in state._trick_plays(t):
                    ref.play(c)
            assert world.renonces() == ref.renonces
        moves = state.possible_actions() if rng.random() < 0.3 else state.legal_actions()
        state.apply_action(rng.choice(moves))


def test_record_round_trip_and_text_forms():
    state = deal(D1, "bottom", "S")
    play(state, "AH JD 3H 2C", "KH TH")
    accuse(state, "left", "top", "TH")
    record = state.to_record()
    assert record["trump"] == "S" and record["dealer"] == "right" and record["caller"] == "bottom"
    rebuilt, actions = GAME.from_record(record)
    assert actions == ["S", "AH", "JD", "3H", "2C", "KH", "TH", "accuse:left:by:top:TH"]
    for text in actions:
        a = rebuilt.string_to_action(text)
        assert rebuilt.action_to_string(a) == text
        rebuilt.apply_action(a)
    assert rebuilt.to_record() == record
    assert rebuilt.string_to_action("10♠") == parse_card("TS") and rebuilt.string_to_action("redeal") == REDEAL


def test_verify_reports_renonces_and_rejects_the_impossible():
    state = deal(D1, "bottom", "S")
    play(state, "AH JD 3H 2C")
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    record = state.to_record()
    verdict = verify_record(record)
    assert verdict.ok and verdict.result["renonces"] == [[0, "left"]] and "renonces" in verdict.line()

    def error(change) -> str:
        bad = copy.deepcopy(record)
        change(bad)
        v = verify_record(bad)
        assert not v.ok
        return v.error

    def not_held(r):
        r["tricks"][0][1] = "AC"

    def wrong_turn(r):
        r["tricks"][0][1] = "3H"  # top's card played in left's place

    def after_end(r):
        r["tricks"][-1].append("AS")

    def accuse_off_table(r):
        r["tricks"][1] = r["tricks"][1][:1] + [{"accuse": "left", "by": "top", "card": "JD"}]

    def accuse_partner(r):
        r["tricks"][0] = r["tricks"][0][:2] + [{"accuse": "bottom", "by": "top", "card": "AH"}]

    def bad_result(r):
        r["result"]["points"] = {"A": 0, "B": 1}

    assert "trick 1, play 2 (left)" in error(not_held) and "does not hold AC" in error(not_held)
    assert "trick 1, play 2 (left)" in error(wrong_turn) and "top does" in error(wrong_turn)
    assert "after the deal ended" in error(after_end)
    assert "trick 2, play 2" in error(accuse_off_table) and "not on the current table" in error(accuse_off_table)
    assert "trick 1, play 3" in error(accuse_partner) and "partner" in error(accuse_partner)
    assert "points" in error(bad_result)


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda r: r.pop("dealer"), "missing field 'dealer'"),
        (lambda r: r.update(caller="top"), "next seat clockwise"),
        (lambda r: r["hands"]["left"].pop(), "13 cards"),
        (lambda r: r["hands"]["left"].__setitem__(0, "AS"), "dealt to both"),
        (lambda r: r["hands"]["left"].__setitem__(0, "1S"), "malformed card"),
        (lambda r: r.update(redeals=3), "'redeals'"),
        (lambda r: r.update(trump="X"), "'trump'"),
        (lambda r: r["tricks"][0].__setitem__(1, {"accuse": "left"}), "an accusation is"),
        (lambda r: r.update(exchange=[{"from": "bottom", "to": "top", "card": "AS"}] * 4), "do not swap"),
    ],
)
def test_malformed_records_name_the_field(change, words):
    state = deal(D1, "bottom", "S")
    play(state, "AH 9H 3H 2C")
    record = state.to_record()
    change(record)
    with pytest.raises(RecordError) as err:
        GAME.from_record(record)
    assert words in str(err.value)
    assert "\n" not in str(err.value)


def test_render_shows_the_round():
    state = deal(D1, "bottom", "S")
    play(state, "AH JD 3H 2C")
    accuse(state, "left", "top", "JD")
    text = state.render()
    for words in (
        "dealer right",
        "caller bottom",
        "redeals 0",
        "Troupe: ♠",
        "trick  1 (leads bottom)",
        "left J♦ (RENONCE)",
        "-> nobody",
        "top accuses left (J♦): correct",
        "result: renonce",
    ):
        assert words in text, words
    exchanged = GAME.new_deal(5, dealer="left", exchange={"cards": 1, "loser": "A"})
    exchanged.apply_action(TROUPE)
    assert "exchange: " in exchanged.render()
