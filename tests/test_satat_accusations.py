"""Satat accusations by the heuristic bots hold to the seeds' words: bots "call Renonce when a newly played
card proves an earlier failure to follow suit", so a bot never accuses falsely (bluffing is playing a
Renonce, never accusing without one), and a Renonce that a later card proves is still called."""

from __future__ import annotations

import pytest

from tekkasim.bots import decide, get_bot
from tekkasim.bots.loop import decision_seed, play_deal, run
from tekkasim.rules import get_game

GAME = get_game("satat")
LADDER = ["KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA"]


def bot(name, **kw):
    return get_bot(name, ruleset="satat", **kw)


def self_play(name, seed):
    b = bot(name)
    return play_deal(GAME.new_deal(seed), [b] * 4, seed, 0)


def test_tana_self_play_deal_ends_without_a_false_accusation():
    """Seed 250001, Troupe ♣: on the last trick bottom's Q♣ gives team A its seventh, and TANA at right
    used to accuse top's J♣ though nobody had reneged (a wrong accusation gives A the same point); now
    the round ends as a plain seven of A, with no accusation."""
    state = self_play("TANA", 250001)
    record = state.to_record()
    acc = state.accusation()
    assert acc is None or acc["correct"]
    assert not (record["result"]["kind"] == "renonce" and record["result"]["renonces"] == [])
    assert not any(isinstance(x, dict) for trick in record["tricks"] for x in trick)
    assert record["result"]["kind"] == "seven" and record["result"]["points"] == {"A": 1, "B": 0}


@pytest.mark.parametrize("name", LADDER)
def test_no_false_accusation_in_ladder_self_play(name):
    """50 self-play deals of each non-bluffing ladder bot: nobody reneges, so nobody is ever accused."""
    for seed in range(250_000, 250_050):
        state = self_play(name, seed)
        assert state.renonces() == []
        assert state.accusation() is None, (name, seed, state.to_record()["tricks"][-1])


def _play_with_a_cheater(seed, detector, cheater):
    """A round in which seat ``cheater`` commits one Renonce, its first chance (any card it holds of another
    suit while it could follow), and otherwise plays as SADA without mistakes; the other side plays
    ``detector``. Returns the state and the seat's Renonce as (trick, card), or None if it had no chance."""
    det, own = bot(detector), bot("SADA", mistake_rate=0.0)
    state = GAME.new_deal(seed)
    done = []

    def choose(seat, k, optional):
        if seat == cheater and not optional and not done and state.phase() == "play":
            legal = set(state.legal_actions())
            renonces = [a for a in state.possible_actions() if a not in legal and a < 52]
            if renonces:
                done.append((len(state.to_record()["tricks"]) - 1, renonces[0]))
                return renonces[0]
        b = own if (seat & 1) == (cheater & 1) else det
        return decide(b, state, seat, decision_seed(seed, 0, k, seat if optional else None))

    run(state, choose)
    return state, (done[0] if done else None)


@pytest.mark.parametrize("detector", ["SADA", "TANA", "JANGARA"])
def test_hard_bots_call_proven_renonces_and_only_them(detector):
    """Right reneges once in each of 30 rounds: every accusation of the Hard bots on the other side is
    correct, and most rounds end with one (a later card of right's proves the Renonce in most of them)."""
    caught = 0
    for seed in range(300_000, 300_030):
        state, renonce = _play_with_a_cheater(seed, detector, cheater=1)
        assert renonce is not None
        acc = state.accusation()
        if acc is not None:
            assert acc["correct"] and acc["accused"] == 1 and acc["by"] % 2 == 0, (detector, seed, acc)
            caught += 1
    assert caught >= 24, caught


@pytest.mark.parametrize("detector", ["TANA", "JANGARA"])
def test_zorge_bluffs_are_caught_by_proof_and_no_accusation_is_false(detector):
    """Against Ton Zorge (Hard), whose bluff lets play go on so that a later card may prove it: correct
    accusations happen and none is false, at both tables of 100 boards."""
    det, zorge = bot(detector), bot("ZORGE", difficulty="hard")
    bluffs = correct = 0
    for seed in range(400_000, 400_100):
        for bots in ([det, zorge, det, zorge], [zorge, det, zorge, det]):
            state = play_deal(GAME.new_deal(seed), bots, seed, 0)
            bluffs += bool(state.renonces())
            acc = state.accusation()
            if acc is not None:
                assert acc["correct"], (detector, seed, acc)
                assert bots[acc["by"]] is det
                correct += 1
    assert bluffs > 0 and correct >= 3, (bluffs, correct)


def _play_with_a_troupe_renonce(seed, detector, cheater):
    """As :func:`_play_with_a_cheater`, but the Renonce is the seeds' example: a side card on a 2♥ lead
    while holding Troupe."""
    det, own = bot(detector), bot("SADA", mistake_rate=0.0)
    state = GAME.new_deal(seed)
    done = []

    def choose(seat, k, optional):
        table = state.table() if state.phase() == "play" else []
        if seat == cheater and not optional and not done and table and table[0][1] == 26:
            legal = set(state.legal_actions())
            renonces = [a for a in state.possible_actions() if a not in legal and a < 52]
            if renonces:
                done.append(renonces[0])
                return renonces[0]
        b = own if (seat & 1) == (cheater & 1) else det
        return decide(b, state, seat, decision_seed(seed, 0, k, seat if optional else None))

    run(state, choose)
    return state, done


@pytest.mark.parametrize("detector", ["SADA", "TANA", "JANGARA"])
@pytest.mark.parametrize("seed", [300_000, 300_002, 300_016, 300_020])
def test_troupe_after_a_two_of_hearts_lead_proves_the_renonce(seed, detector):
    """Left answers the 2♥ lead of the first trick with a side card while holding Troupe; when left later
    plays a Troupe card, the Hard bots of the other side accuse that card, correctly."""
    state, renonce = _play_with_a_troupe_renonce(seed, detector, cheater=3)
    assert renonce and renonce[0] // 13 != state.troupe
    acc = state.accusation()
    assert acc is not None and acc["correct"] and acc["accused"] == 3 and acc["by"] % 2 == 0
    assert acc["card"] // 13 == state.troupe
