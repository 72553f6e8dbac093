"""One API test for every ruleset (OpenSpiel's random_sim_test, pgx's api_test): random seeded deals
through the Game/State contract, checking the contract itself rather than any one rule."""

import random

import numpy as np
import pytest
from helpers import same

from tekkasim.bits import new_rng
from tekkasim.errors import OptionError, TekkasimError
from tekkasim.rules import TERMINAL, Observation, get_game, ruleset_names
from tekkasim.simulate import play_deal, play_deals, play_match, play_records, random_policy, step
from tekkasim.verify import replay_record, verify_record

RULESETS = ruleset_names()


def test_every_registered_ruleset_is_listed_and_imports():
    assert RULESETS == ["feskot", "tekka", "satat", "shengji"]
    for name in RULESETS:
        assert get_game(name).name == name


def test_a_plugin_that_fails_to_import_is_one_line_and_harms_no_other(monkeypatch):
    """A broken plug-in is refused by name, in one line naming its entry point; the built-ins still work."""
    from importlib.metadata import EntryPoint

    import tekkasim.rulesets as rs

    eps = [
        EntryPoint("broken", "tekkasim.no_such_module:Broken", rs.ENTRY_POINT_GROUP),
        EntryPoint("notagame", "tekkasim.cards:SEATS", rs.ENTRY_POINT_GROUP),
        EntryPoint("feskot", "tekkasim.rulesets.tekka.game:Tekka", rs.ENTRY_POINT_GROUP),
    ]
    monkeypatch.setattr(rs, "_entry_points", lambda: eps)
    monkeypatch.setattr(rs, "_PLUGINS", None)
    assert ruleset_names() == RULESETS
    with pytest.raises(rs.RulesetError, match=r"plug-in 'broken' .*tekkasim.no_such_module:Broken.* does not load"):
        get_game("broken")
    with pytest.raises(rs.RulesetError, match="not a tekkasim Game subclass or Ruleset"):
        get_game("notagame")
    assert get_game("feskot").name == "feskot"
    problems = rs.plugin_problems()
    assert len(problems) == 3 and all("\n" not in p for p in problems)
    assert any("clashes with the built-in ruleset 'feskot'" in p for p in problems)


@pytest.mark.parametrize("name", RULESETS)
def test_random_deals_follow_the_contract(name):
    game = get_game(name)
    rng = random.Random(1)
    for seed in range(12):
        state = game.new_deal(seed)
        steps = 0
        while not state.is_terminal():
            player = state.current_player()
            assert 0 <= player < 4
            assert isinstance(state.phase(), str) and isinstance(state.where(), str)
            legal = state.legal_actions()
            assert legal, f"no legal action at {state.where()}"
            assert legal == sorted(legal) and len(set(legal)) == len(legal)
            for action in legal:
                assert state.string_to_action(state.action_to_string(action)) == action
            obs = state.observation(player)
            assert isinstance(obs, Observation) and obs.seat == player
            action = legal[rng.randrange(len(legal))]
            before = state.clone()
            state.apply_action(action)
            assert len(before.history()) + 1 == len(state.history())
            assert before.current_player() == player  # the clone is independent
            steps += 1
            assert steps < 10_000
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        assert len(state.returns()) == 2
        record = state.to_record()
        assert record["ruleset"] == name and "unfinished" not in record
        verdict = verify_record(record)
        assert verdict.ok, verdict.error
        assert same(verdict.result, state.result())
        replayed, error = replay_record(record)
        assert error is None and replayed.history() == state.history()


@pytest.mark.parametrize("name", RULESETS)
def test_same_seed_same_records(name):
    game = get_game(name)
    first = list(play_records(game, 6, seed=99, match=True))
    again = list(play_records(game, 6, seed=99, match=True))
    assert first == again
    # A deal replayed alone from its seed gives the same record as inside the run.
    alone = play_deal(game, 99).to_record() | {"seed": 99}
    assert alone == {k: v for k, v in first[0].items() if k not in ("match", "deal_no")}


@pytest.mark.parametrize("name", RULESETS)
def test_unfinished_positions_verify(name):
    game = get_game(name)
    state = game.new_deal(5)
    rng = random.Random(5)
    for _ in range(9):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    record = state.to_record()
    assert record.get("unfinished") is True
    assert verify_record(record).ok and verify_record(record).unfinished
    del record["unfinished"]
    verdict = verify_record(record)
    assert not verdict.ok and "before it is over" in verdict.error


@pytest.mark.parametrize("name", RULESETS)
def test_observation_survives_resampling(name):
    game = get_game(name)
    rng = random.Random(3)
    for seed in range(4):
        state = game.new_deal(seed)
        while not state.is_terminal():
            seat = state.current_player()
            world = state.resample(seat, new_rng(seed))
            assert same(world.observation(seat), state.observation(seat)), state.where()
            legal = state.legal_actions()
            assert world.legal_actions() == legal
            state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name", RULESETS)
def test_play_random_kernel(name):
    game = get_game(name)
    whole = game.play_random(40, 1000)
    assert whole["returns"].shape == (40, 2)
    halves = [game.play_random(20, 1000), game.play_random(20, 1020)]
    for key, value in whole.items():  # deal i depends on seed + i only: worker splits agree
        assert np.array_equal(value, np.concatenate([h[key] for h in halves])), key


@pytest.mark.parametrize("name", RULESETS)
def test_actors_and_their_legal_actions(name):
    """``actors()`` starts with the seat to move; every actor has actions, every other seat none; the seat
    to move has at least ``legal_actions()``; every action offered to any actor applies."""
    game = get_game(name)
    rng = random.Random(7)
    for seed in range(4):
        state = game.new_deal(seed)
        while not state.is_terminal():
            actors = state.actors()
            mover = state.current_player()
            assert actors[0] == mover and actors[1:] == sorted(actors[1:]) and len(set(actors)) == len(actors)
            for seat in range(4):
                offered = state.legal_actions_for(seat)
                assert bool(offered) == (seat in actors) and offered == sorted(offered)
                if seat == mover:
                    assert set(state.legal_actions()) <= set(offered)
                for action in rng.sample(offered, min(2, len(offered))):
                    state.clone().apply_action(action)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        assert state.actors() == [] and all(state.legal_actions_for(s) == [] for s in range(4))


@pytest.mark.parametrize("name", RULESETS)
def test_returns_before_the_end_is_an_error(name):
    state = get_game(name).new_deal(1)
    for _ in range(3):
        with pytest.raises(TekkasimError, match="the deal is not over"):
            state.returns()
        state.apply_action(state.legal_actions()[0])


@pytest.mark.parametrize("name", RULESETS)
def test_no_action_to_text_is_one_clear_error(name):
    state = get_game(name).new_deal(1)
    for bad in (-5, 10**6, "x" * 10_000, None, 1.5):
        with pytest.raises(TekkasimError) as err:
            state.action_to_string(bad)
        assert "\n" not in str(err.value) and len(str(err.value)) < 200


@pytest.mark.parametrize("name", ["satat", "shengji"])
def test_a_signal_on_a_card_names_the_rulesets_that_have_signals(name):
    state = get_game(name).new_deal(1)
    with pytest.raises(TekkasimError, match="signals are only for Feskot and Tekka"):
        state.string_to_action("4S:drop")


@pytest.mark.parametrize("name", RULESETS)
def test_seeds_are_checked(name):
    game = get_game(name)
    for bad in ("x", 1.5, -1, 2**63, True):
        with pytest.raises(OptionError):
            game.new_deal(bad)


@pytest.mark.parametrize("name", RULESETS)
def test_resample_takes_the_kernel_rng(name):
    state = get_game(name).new_deal(2)
    with pytest.raises(TekkasimError, match="new_rng"):
        state.resample(state.current_player(), random.Random(1))
    rng = new_rng(5)
    state.resample(state.current_player(), rng)
    assert rng[0] != new_rng(5)[0]  # advanced in place


# --- one way to play -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", RULESETS)
def test_play_deals_chains_matches_and_records_follow_it(name):
    game = get_game(name)
    states = list(play_deals(game, 5, 300))
    records = list(play_records(game, 5, 300, match=True))
    assert [s.to_record() | {"seed": 300 + i} for i, s in enumerate(states)] == [
        {k: v for k, v in r.items() if k not in ("match", "deal_no")} for r in records
    ]
    for i in range(1, 5):
        before, record = states[i - 1], records[i]
        if before.match_winner() is None:  # the next deal of the match, dealt from its context
            again = game.new_deal(300 + i, **before.next_deal_context())
            assert record["deal_no"] == records[i - 1]["deal_no"] + 1
            assert again.to_record()["hands"] == states[i].to_record()["hands"]
        else:
            assert record["deal_no"] == 0
    alone = [s.to_record() for s in play_deals(game, 3, 300, match=False)]
    assert alone[0] == states[0].to_record() and all(r.get("unfinished") is None for r in alone)


@pytest.mark.parametrize("name", ["tekka", "satat", "shengji"])
def test_play_match_stops_at_the_deal_that_ends_the_match(name):
    states = play_match(get_game(name), 40)
    assert states[-1].match_winner() is not None
    assert all(s.match_winner() is None for s in states[:-1])


def test_policies_per_seat_and_a_declined_turn():
    game = get_game("feskot")
    asked = []

    def first(state, seat, rng):
        asked.append(seat)
        return random_policy(state, seat, rng)

    state = play_deal(game, 3, [first, random_policy, random_policy, random_policy])
    assert state.is_terminal() and asked and set(asked) == {0}
    assert play_deal(game, 3).to_record() == state.to_record()  # the same stream of choices
    with pytest.raises(OptionError):
        play_deal(game, 3, [random_policy] * 3)
    fresh = game.new_deal(3)
    with pytest.raises(TekkasimError, match="declined"):
        step(fresh, lambda state, seat, rng: None, random.Random(0))


def test_the_random_policy_declines_out_of_turn_actions():
    state = get_game("satat").new_deal(0)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    others = [s for s in state.actors() if s != state.current_player()]
    assert others and all(random_policy(state, s, random.Random(0)) is None for s in others)


@pytest.mark.parametrize("name", ["satat", "shengji"])
def test_play_random_checks_its_arguments(name):
    game = get_game(name)
    for deals, seed in ((-1, 0), ("x", 0), (2, -1), (2, 2**64), (2, "x")):
        with pytest.raises(OptionError):
            game.play_random(deals, seed)
