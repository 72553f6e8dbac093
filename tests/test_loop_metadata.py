"""The one play loop and seed scheme (``bots.loop``) and the rulesets' metadata (``Game`` attributes) that
code outside a ruleset reads instead of its name."""

import pytest

from tekkasim.bots import decide, get_bot, mix_seed
from tekkasim.bots.loop import decision_seed, play_deal, run, timing
from tekkasim.rules import get_game, ruleset_names
from tekkasim.rulesets.trick52.view import signals_accepted
from tekkasim.simulate import play_deal as simulate_deal
from tekkasim.simulate import random_policy
from tekkasim.solver.dd import Position, solver_rulesets

RULESETS = ruleset_names()


def _by_hand(state, bots, seed, table):
    """The loop written out: out-of-turn seats first, each decision seeded as the module notes say."""
    k = 0
    while not state.is_terminal():
        actors = state.actors()
        for seat in actors[1:]:
            action = decide(bots[seat], state, seat, mix_seed(seed, table, k, seat))
            if action is not None:
                break
        else:
            action = decide(bots[actors[0]], state, actors[0], mix_seed(seed, table, k))
        state.apply_action(action)
        k += 1
    return state


@pytest.mark.parametrize("name", RULESETS)
def test_play_deal_is_the_documented_loop(name):
    game = get_game(name)
    bots = [get_bot(b, ruleset=name) for b in ("JANGARA", "KADO:mistake_rate=0.5", "GREEDY", "RANDOM")]
    for seed, table in ((3, 0), (3, 1), (11, 1)):
        got = play_deal(game.new_deal(seed), bots, seed, table)
        want = _by_hand(game.new_deal(seed), bots, seed, table)
        assert got.history() == want.history() and got.returns() == want.returns()
    assert decision_seed(7, 1, 4) == mix_seed(7, 1, 4) and decision_seed(7, 1, 4, 2) == mix_seed(7, 1, 4, 2)


def test_before_sees_every_decision_and_timing_restores_the_bot():
    game = get_game("tekka")
    bot = get_bot("SADA", ruleset="tekka")
    seen = []
    with timing(bot) as times:
        state = play_deal(game.new_deal(4), [bot] * 4, 4, 0, lambda s, k: seen.append((k, s.current_player())))
    assert [k for k, _ in seen] == list(range(len(state.history())))
    assert len(times) == len(seen) and all(t >= 0.0 for t in times)
    assert "act" not in vars(bot)
    again = play_deal(game.new_deal(4), [bot] * 4, 4, 0)  # timing changed no decision
    assert again.history() == state.history()


def test_timing_counts_every_move_of_the_timed_bot_only():
    # the bot as team X against another bot, seated as the runner seats a pair: only its moves count
    game = get_game("feskot")
    bot, other = get_bot("GREEDY"), get_bot("RANDOM")
    moves, decisions = 0, 0
    for seed in (5, 6):
        for table in (0, 1):
            seats = [bot, other, bot, other] if table == 0 else [other, bot, other, bot]
            with timing(bot) as times:
                state = play_deal(game.new_deal(seed), seats, seed, table)
            decisions += len(times)
            replay = game.new_deal(seed)
            for action in state.history():
                moves += seats[replay.current_player()] is bot
                replay.apply_action(action)
    assert decisions == moves > 0 and "act" not in vars(bot)


def test_simulate_runs_through_the_loop_and_a_due_decline_is_one_line():
    from tekkasim.errors import TekkasimError

    game = get_game("satat")
    assert simulate_deal(game, 9, random_policy).is_terminal()
    with pytest.raises(TekkasimError, match="declined an action that is due") as err:
        run(game.new_deal(9), lambda seat, k, optional: None)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("name", RULESETS)
def test_first_seat_is_the_new_deal_keyword(name):
    game = get_game(name)
    state = game.new_deal(5, **{game.first_seat: 2})
    assert state.current_player() == 2 and state.to_record()[game.first_seat] == "top"
    assert isinstance(game.first_seat_label, str) and game.first_seat_label
    assert game.action_kinds and game.trump_name and game.returns_unit


@pytest.mark.parametrize("name", RULESETS)
def test_out_of_turn_and_signals_match_the_rules(name):
    game = get_game(name)
    out_of_turn = signals = False
    for seed in range(4):
        state = game.new_deal(seed)
        while not state.is_terminal():
            out_of_turn |= len(state.actors()) > 1
            if state.phase() == "play":
                signals |= bool(signals_accepted(state.possible_actions()))
            state.apply_action(random_policy(state, state.current_player(), _RNG))
    assert out_of_turn == game.out_of_turn
    assert signals == game.takes_signals
    if game.options.get("signals") is not None:
        assert not get_game(name, signals=False).takes_signals


@pytest.mark.parametrize("name", RULESETS)
def test_the_solver_plays_exactly_the_rulesets_with_trick_rules(name):
    game = get_game(name)
    assert (name in solver_rulesets()) == (game.trick_rules is not None)
    if game.trick_rules is not None:
        state = game.new_deal(2)
        while state.phase() != "play":
            state.apply_action(state.legal_actions()[0])
        assert Position.from_state(state).ruleset == name


def test_has_matches():
    assert [n for n in RULESETS if not get_game(n).has_matches] == ["feskot"]
    state = simulate_deal(get_game("feskot"), 1)
    assert state.match_winner() is None


_RNG = __import__("random").Random(0)


def test_possible_are_fouls_only_where_possible_actions_add_renonces():
    """Satat's possible actions beyond the legal ones are Renonces (fouls); elsewhere they are legal forms."""
    from tekkasim.rules import get_game, ruleset_names

    assert {name: get_game(name).possible_are_fouls for name in ruleset_names()} == {
        name: name == "satat" for name in ruleset_names()
    }
