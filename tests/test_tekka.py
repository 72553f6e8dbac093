"""Tekka rules on hand-built deals: the auction, every scoring case, early end, the match, raises."""

import numpy as np
import pytest

from tekkasim.cards import CLUBS, DIAMONDS, HEARTS, SPADES
from tekkasim.errors import IllegalAction, RecordError, TekkasimError
from tekkasim.rules import get_game
from tekkasim.rulesets.tekka.game import call_action, raise_action
from tekkasim.rulesets.trick52 import reference as ref
from tekkasim.rulesets.trick52.game import prime_action
from tekkasim.simulate import play_match, random_policy
from tekkasim.verify import verify_record

RANKS = "23456789TJQKA"
# One whole suit per seat: with Prime = a seat's suit, that seat wins every trick whoever leads.
SUITED = {
    seat: " ".join(r + s for r in RANKS) for seat, s in zip(("bottom", "right", "top", "left"), "SHDC", strict=True)
}
WINNER_OF = {SPADES: 0, HEARTS: 1, DIAMONDS: 2, CLUBS: 3}


def deal(first="bottom", score=(0, 0), hands=SUITED, **options):
    return get_game("tekka", **options).from_hands(hands, first=first, score=score)


def calls(state, *texts):
    for t in texts:
        state.apply_action(state.string_to_action(t))


def play_lowest_until_end(state, stop_after=None):
    while not state.is_terminal() and (stop_after is None or len(state.winners()) < stop_after):
        state.apply_action(state.legal_actions()[0])


# --- auction --------------------------------------------------------------------------------------


def test_auction_outbid_rules():
    s = deal()
    assert s.phase() == "auction" and s.where() == "auction, call 1 (bottom)"
    assert s.legal_actions() == [call_action(x) for x in ("pass", 8, 9, 10, 11, 12, 13, "D13")]
    calls(s, "9")
    assert s.legal_actions() == [call_action(x) for x in ("pass", 10, 11, 12, 13, "D13")]
    for bad in ("9", "8"):
        with pytest.raises(IllegalAction) as e:
            calls(s, bad)
        assert e.value.rule == "outbid"
    calls(s, "pass", "11")  # partner top outbids partner bottom
    with pytest.raises(IllegalAction):
        calls(s, "10")
    calls(s, "pass")
    assert s.contract() == {"declarer": 2, "target": 11, "mandatory": False}
    assert s.phase() == "prime" and s.current_player() == 2
    with pytest.raises(IllegalAction) as e:
        calls(s, "12")
    assert e.value.rule == "wrong-phase"


def test_d13_outbids_every_number_and_can_be_called_again():
    s = deal(first="right")
    calls(s, "13", "D13")
    assert s.legal_actions() == [call_action("pass"), call_action("D13")]  # no number above D13
    calls(s, "D13", "pass")  # left re-calls D13 after top: the later caller holds it
    assert s.contract() == {"declarer": 3, "target": "D13", "mandatory": False}
    assert s.current_player() == 3 and s.calls() == [13, 14, 14, 0]
    assert s.to_record()["auction"] == ["13", "D13", "D13", "pass"]


def test_all_pass_gives_the_first_asked_seat_a_mandatory_eight():
    s = deal(first="top")
    calls(s, "pass", "pass", "pass", "pass")
    assert s.contract() == {"declarer": 2, "target": 8, "mandatory": True}
    assert s.where() == "prime choice (top)"
    s.apply_action(prime_action(DIAMONDS))
    assert s.current_player() == 2 and s.where() == "trick 1, play 1 (top)"  # the declarer leads


# --- scoring ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("auction", "prime", "tricks_played", "result"),
    [
        # made: declaring team wins its target; no overtricks; the deal ends as soon as it is made
        (
            ["9", "pass", "pass", "pass"],
            SPADES,
            9,
            {
                "declarer": "bottom",
                "target": 9,
                "mandatory": False,
                "tricks": {"A": 9, "B": 0},
                "declarer_tricks": 9,
                "made": True,
                "score": {"A": 9, "B": 0},
            },
        ),
        # partner's tricks count for a number target
        (
            ["10", "pass", "pass", "pass"],
            DIAMONDS,
            10,
            {
                "declarer": "bottom",
                "target": 10,
                "mandatory": False,
                "tricks": {"A": 10, "B": 0},
                "declarer_tricks": 0,
                "made": True,
                "score": {"A": 10, "B": 0},
            },
        ),
        # failed: opponents score 2 x target, as soon as 4 tricks are lost against a 10
        (
            ["10", "pass", "pass", "pass"],
            HEARTS,
            4,
            {
                "declarer": "bottom",
                "target": 10,
                "mandatory": False,
                "tricks": {"A": 0, "B": 4},
                "declarer_tricks": 0,
                "made": False,
                "score": {"A": 0, "B": 20},
            },
        ),
        # failed mandatory 8: only 8
        (
            ["pass", "pass", "pass", "pass"],
            CLUBS,
            6,
            {
                "declarer": "bottom",
                "target": 8,
                "mandatory": True,
                "tricks": {"A": 0, "B": 6},
                "declarer_tricks": 0,
                "made": False,
                "score": {"A": 0, "B": 8},
            },
        ),
        # failed voluntary 8: 16
        (
            ["8", "pass", "pass", "pass"],
            CLUBS,
            6,
            {
                "declarer": "bottom",
                "target": 8,
                "mandatory": False,
                "tricks": {"A": 0, "B": 6},
                "declarer_tricks": 0,
                "made": False,
                "score": {"A": 0, "B": 16},
            },
        ),
        # made mandatory 8
        (
            ["pass", "pass", "pass", "pass"],
            SPADES,
            8,
            {
                "declarer": "bottom",
                "target": 8,
                "mandatory": True,
                "tricks": {"A": 8, "B": 0},
                "declarer_tricks": 8,
                "made": True,
                "score": {"A": 8, "B": 0},
            },
        ),
        # D13 made: all 13 tricks by the bidder: 26
        (
            ["pass", "D13", "pass", "D13"],
            CLUBS,
            13,
            {
                "declarer": "left",
                "target": "D13",
                "mandatory": False,
                "tricks": {"A": 0, "B": 13},
                "declarer_tricks": 13,
                "made": True,
                "score": {"A": 0, "B": 26},
            },
        ),
        # D13 broken by the partner's trick: 52 to the opponents, at once
        (
            ["D13", "pass", "pass", "pass"],
            DIAMONDS,
            1,
            {
                "declarer": "bottom",
                "target": "D13",
                "mandatory": False,
                "tricks": {"A": 1, "B": 0},
                "declarer_tricks": 0,
                "made": False,
                "score": {"A": 0, "B": 52},
            },
        ),
        # D13 broken by an opponent
        (
            ["pass", "pass", "D13", "pass"],
            HEARTS,
            1,
            {
                "declarer": "top",
                "target": "D13",
                "mandatory": False,
                "tricks": {"A": 0, "B": 1},
                "declarer_tricks": 0,
                "made": False,
                "score": {"A": 0, "B": 52},
            },
        ),
    ],
)
def test_scoring_and_early_end(auction, prime, tricks_played, result):
    s = deal()
    calls(s, *auction)
    s.apply_action(prime_action(prime))
    play_lowest_until_end(s)
    assert s.is_terminal() and len(s.winners()) == tricks_played
    assert set(s.winners()) == {WINNER_OF[prime]}
    assert s.result() == result
    assert s.returns() == (float(result["score"]["A"]), float(result["score"]["B"]))
    # agrees with the reference's scoring
    d = s.contract()
    target = ref.D13 if d["target"] == "D13" else d["target"]
    assert ref.tekka_points(d["declarer"], target, d["mandatory"], s.winners()) == (
        result["made"],
        [result["score"]["A"], result["score"]["B"]],
    )
    record = s.to_record()
    verdict = verify_record(record)
    assert verdict.ok and verdict.result == result


def test_record_playing_on_after_the_decision_keeps_the_score():
    s = deal()
    calls(s, "9", "pass", "pass", "pass")
    s.apply_action(prime_action(SPADES))
    play_lowest_until_end(s)
    rec = s.to_record()
    # the same deal with all 13 tricks written out: still 9 points (no overtricks)
    suits = "SHDC"
    rec["tricks"] = [[RANKS[12 - t] + suits[(0 + j) % 4] for j in range(4)] for t in range(13)]
    rec.pop("result")
    verdict = verify_record(rec)
    assert verdict.ok, verdict.error
    assert verdict.result["tricks"] == {"A": 13, "B": 0} and verdict.result["score"] == {"A": 9, "B": 0}


# --- match --------------------------------------------------------------------------------------------


def test_match_to_104_and_first_asked_rotation():
    s = deal(first="bottom", score=(100, 40))
    calls(s, "pass", "pass", "pass", "pass")
    s.apply_action(prime_action(SPADES))
    play_lowest_until_end(s)  # A makes the mandatory 8: 108
    assert s.score_after() == (108, 40) and s.match_winner() == 0
    assert s.next_deal_context() == {"first": 1, "score": (108, 40)}  # A (first asked) scored: next seat
    assert s.to_record()["score_before"] == {"A": 100, "B": 40}

    s = deal(first="bottom", score=(95, 0))
    calls(s, "pass", "pass", "pass", "pass")
    s.apply_action(prime_action(SPADES))
    play_lowest_until_end(s)
    assert s.score_after() == (103, 0) and s.match_winner() is None

    s = deal(first="right", score=(10, 97))
    calls(s, "8", "pass", "pass", "pass")  # right (B) makes 8 with left's clubs
    s.apply_action(prime_action(CLUBS))
    play_lowest_until_end(s)
    assert s.match_winner() == 1 and s.next_deal_context() == {"first": 2, "score": (10, 105)}

    s = deal(first="right")
    calls(s, "9", "pass", "pass", "pass")  # right (B) bids 9 and fails: A scores, B did not
    s.apply_action(prime_action(SPADES))
    play_lowest_until_end(s)
    assert s.result()["score"] == {"A": 18, "B": 0}
    assert s.next_deal_context() == {"first": 1, "score": (18, 0)}  # first asked's team did not score: same seat


def test_play_match_chains_deals_to_104():
    game = get_game("tekka")
    states = play_match(game, 40, random_policy)
    assert states[-1].match_winner() is not None and max(states[-1].score_after()) >= 104
    for before, after in zip(states, states[1:], strict=False):
        assert after.score_before == before.score_after()
        _, a, b = before._score()
        expected = before.first if (a, b)[before.first & 1] == 0 else (before.first + 1) % 4
        assert after.first == expected
        assert before.match_winner() is None


# --- raises -------------------------------------------------------------------------------------------


def _bid_and_prime(state, auction, prime):
    calls(state, *auction)
    state.apply_action(prime_action(prime))


def test_raises_accepted_and_rejected():
    s = deal(raises=True)
    _bid_and_prime(s, ["8", "pass", "pass", "pass"], SPADES)
    legal = s.legal_actions()
    assert [a for a in legal if a >= 180] == [raise_action(x) for x in (9, 10, 11, 12, 13, "D13")]
    s.apply_action(s.string_to_action("raise 10"))
    assert s.phase() == "raise" and s.current_player() == 1  # the next opponent in play order answers
    assert s.where() == "trick 1, play 1, raise answer (right)"
    assert s.legal_actions() == [196, 197]
    with pytest.raises(IllegalAction):
        s.apply_action(0)
    s.apply_action(s.string_to_action("accept"))
    assert s.contract() == {"declarer": 0, "target": 10, "mandatory": False}
    assert s.current_player() == 0 and all(a < 52 for a in s.legal_actions())  # one request per turn
    with pytest.raises(IllegalAction) as e:
        s.apply_action(raise_action(11))
    assert e.value.rule == "raise-once"
    play_lowest_until_end(s)
    assert s.result()["score"] == {"A": 10, "B": 0} and len(s.winners()) == 10
    rec = s.to_record()
    assert rec["raises"] == [{"trick": 0, "play": 0, "by": "bottom", "target": 10, "accepted": True}]
    assert verify_record(rec).ok

    r = deal(raises=True)
    _bid_and_prime(r, ["pass", "pass", "pass", "pass"], SPADES)
    calls(r, "raise 12", "reject")
    assert r.contract() == {"declarer": 0, "target": 8, "mandatory": True}
    play_lowest_until_end(r)
    assert r.result()["score"] == {"A": 8, "B": 0}


def test_raise_only_by_the_declarer_on_its_turn():
    s = deal(raises=True)
    _bid_and_prime(s, ["9", "pass", "pass", "pass"], SPADES)
    calls(s, "2S")
    assert all(a < 52 for a in s.legal_actions())  # right is not the declarer
    with pytest.raises(IllegalAction) as e:
        s.apply_action(raise_action(10))
    assert e.value.rule == "raise-not-declarer"
    with pytest.raises(IllegalAction) as e:
        deal().apply_action(raise_action(10))
    assert e.value.rule in ("raises-off", "wrong-phase")
    off = deal()
    _bid_and_prime(off, ["9", "pass", "pass", "pass"], SPADES)
    with pytest.raises(IllegalAction) as e:
        off.apply_action(raise_action(10))
    assert e.value.rule == "raises-off"
    low = deal(raises=True)
    _bid_and_prime(low, ["11", "pass", "pass", "pass"], SPADES)
    with pytest.raises(IllegalAction) as e:
        low.apply_action(raise_action(10))
    assert e.value.rule == "raise-not-higher"


def test_d13_raise_makes_the_requester_the_d13_bidder_and_can_fail_at_once():
    s = deal(raises=True)
    _bid_and_prime(s, ["9", "pass", "pass", "pass"], SPADES)
    calls(s, "raise D13", "accept")
    assert s.contract() == {"declarer": 0, "target": "D13", "mandatory": False}
    assert [a for a in s.legal_actions() if a >= 180] == []  # nothing above D13
    play_lowest_until_end(s)
    assert s.result()["made"] and s.result()["score"] == {"A": 26, "B": 0} and len(s.winners()) == 13

    f = deal(first="left", raises=True)
    # top (A) declares 8 with Prime D and wins every trick; bottom is its partner
    _bid_and_prime(f, ["pass", "8", "pass", "pass"], DIAMONDS)  # bottom bids 8 (left was asked first)
    assert f.contract()["declarer"] == 0
    play_lowest_until_end(f, stop_after=1)  # top wins trick 1 and leads trick 2
    calls(f, "3D", "3C")  # top leads, left plays; bottom (the declarer) to play
    assert f.current_player() == 0
    calls(f, "raise D13", "accept")  # a trick already went to the partner: D13 fails at once
    assert f.is_terminal() and f.result()["score"] == {"A": 0, "B": 52}
    rec = f.to_record()
    assert rec["raises"] == [{"trick": 1, "play": 2, "by": "bottom", "target": "D13", "accepted": True}]
    verdict = verify_record(rec)
    assert verdict.ok, verdict.error


def test_raises_in_records():
    s = deal(raises=True)
    _bid_and_prime(s, ["8", "pass", "pass", "pass"], SPADES)
    calls(s, "AS", "2H", "2D", "2C", "raise 9", "reject", "KS", "3H")
    rec = s.to_record()
    assert rec["unfinished"] is True
    state, actions = get_game("tekka", raises=True).from_record(rec)
    assert actions == ["8", "pass", "pass", "pass", "S", "AS", "2H", "2D", "2C", "raise 9", "reject", "KS", "3H"]
    # a pending request at the end of an unfinished record
    calls(s, "4D", "5C", "raise 10")
    rec = s.to_record()
    assert rec["raises"][-1] == {"trick": 2, "play": 0, "by": "bottom", "target": 10}
    state, actions = get_game("tekka", raises=True).from_record(rec)
    assert actions[-1] == "raise 10" and verify_record(rec).ok
    # the by field must name the seat that was to play
    bad = dict(rec, raises=[dict(rec["raises"][0], by="right")] + rec["raises"][1:])
    with pytest.raises(RecordError) as e:
        get_game("tekka", raises=True).from_record(bad)
    assert "raises[0]" in str(e.value)
    beyond = dict(rec, raises=[dict(rec["raises"][0], trick=9)])
    with pytest.raises(RecordError):
        get_game("tekka", raises=True).from_record(beyond)
    missing = dict(rec, raises=[{k: v for k, v in rec["raises"][0].items() if k != "accepted"}] + rec["raises"][1:])
    with pytest.raises(RecordError):
        get_game("tekka", raises=True).from_record(missing)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(auction=["9", "pass", "pass"]), "3 calls"),
        (lambda r: r.update(auction=["9", "pass", "pass", "pass", "pass"]), "5 calls"),
        (lambda r: r.update(auction="9 pass"), "'auction' must be a list"),
        (lambda r: r.update(score_before={"A": -1, "B": 0}), "score_before"),
        (lambda r: r.update(raises=[{"trick": 0}]), "raises[0].play"),
        (lambda r: r.pop("hands"), "missing field 'hands'"),
    ],
)
def test_from_record_errors(change, message):
    s = deal()
    calls(s, "9", "pass", "pass", "pass")
    s.apply_action(prime_action(SPADES))
    play_lowest_until_end(s)
    rec = s.to_record()
    change(rec)
    with pytest.raises(RecordError) as e:
        get_game("tekka").from_record(rec)
    assert message in str(e.value)


def test_verify_rejects_a_bid_that_does_not_outbid():
    s = deal()
    calls(s, "9", "pass", "pass", "pass")
    s.apply_action(prime_action(SPADES))
    play_lowest_until_end(s)
    rec = s.to_record()
    rec["auction"] = ["9", "9", "pass", "pass"]
    rec.pop("result")
    verdict = verify_record(rec)
    assert not verdict.ok and verdict.error.startswith("auction, call 2 (right)") and "outbid" in verdict.error


def test_observation_public_contract_and_hidden_hands():
    s = deal(first="right", score=(3, 4))
    calls(s, "9")
    obs = s.observation(0)
    assert obs.hand == sum(1 << c for c in s.dealt(0))
    assert obs.public["calls"] == [(1, 9)] and obs.public["declarer"] is None and obs.public["target"] is None
    assert obs.public["score"] == (3, 4) and obs.public["hand_sizes"] == [13] * 4 and obs.public["trump"] is None
    calls(s, "pass", "pass", "D13")
    s.apply_action(prime_action(HEARTS))
    pub = s.observation(3).public
    assert pub["calls"] == [(1, 9), (2, 0), (3, 0), (0, 14)] and pub["trump"] == HEARTS
    assert (pub["declarer"], pub["target"], pub["mandatory"], pub["pending_raise"]) == (0, 14, False, None)
    # resampling: the seat's own hand stays, other hands are redrawn among the unseen cards
    from tekkasim.bits import new_rng

    mixed = get_game("tekka").new_deal(3)
    calls(mixed, "pass", "pass", "pass", "pass", "S")
    worlds = {tuple(mixed.resample(0, new_rng(i)).dealt(1)) for i in range(20)}
    assert len(worlds) == 20
    assert all(mixed.resample(0, new_rng(i)).observation(0) == mixed.observation(0) for i in range(20))


def test_seeded_tekka_deal_is_thirteen_at_once():
    game = get_game("tekka")
    s = game.new_deal(42, first=2)
    d, _ = ref.new_deal("tekka", 42, 2)
    assert [s.dealt(x) for x in range(4)] == d.dealt
    deck = ref.shuffled_deck(__import__("tekkasim.reference.bits", fromlist=["Rng"]).Rng(42))
    assert s.dealt(2) == deck[:13] and s.dealt(3) == deck[13:26]


def test_play_random_outputs():
    out = get_game("tekka").play_random(2000, 3)
    assert out["returns"].shape == (2000, 2) and set(np.unique(out["target"])) <= {8, 9, 10, 11, 12, 13, 14}
    with pytest.raises(TekkasimError):
        get_game("tekka").play_random(-1, 3)
