"""The ladder bots through the bot interface: registry, parameters and their errors, and no peeking."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_bots_compiled import random_state

from tekkasim.bits import new_rng
from tekkasim.bots import bot_names, choose, decide, describe, get_bot
from tekkasim.bots.compiled import play_tables
from tekkasim.errors import BotError
from tekkasim.rules import get_game

MINE = ("GREEDY", "KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA")
GAMES = {"feskot": get_game("feskot"), "tekka": get_game("tekka"), "tekka-raises": get_game("tekka", raises=True)}


def test_registered_with_ranks_kinds_and_rulesets():
    names = bot_names()
    assert names[:6] == ["KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA"]
    rows = {row["name"]: row for row in describe()}
    for rank, name in enumerate(MINE[1:]):
        assert rows[name]["rank"] == rank
        assert rows[name]["kind"] == "heuristic"
        assert {"feskot", "tekka"} <= set(rows[name]["rulesets"])  # other rulesets have their own families
        assert set(rows[name]["params"]) >= {
            "mistake_rate",
            "memory",
            "infer",
            "signals",
            "partner_play",
            "trump_management",
            "evaluation",
            "bid_bias",
            "raises",
        }
        assert rows[name]["description"]
    assert rows["GREEDY"]["rank"] is None and rows["GREEDY"]["kind"] == "baseline"
    assert rows["GREEDY"]["params"] == {"mistake_rate": 0.0}
    json.dumps(describe())
    mistakes = [rows[n]["params"]["mistake_rate"] for n in MINE[1:]]
    assert mistakes == sorted(mistakes, reverse=True) and mistakes[-1] == 0.0


def test_parameters_from_text_and_keywords():
    a = get_bot("tana:memory=high,mistake_rate=0.2,signals=off")
    b = get_bot("TANA", memory="high", mistake_rate=0.2, signals=False)
    assert a.params == b.params
    assert a.label == "TANA:mistake_rate=0.2,memory=high,signals=False"
    assert get_bot("KADO").params["memory"] == "none"


@pytest.mark.parametrize(
    "spec, words",
    [
        ("SADA:depth=3", "unknown parameter 'depth'"),
        ("SADA:memory=total", "expected one of none, trick, high, full"),
        ("SADA:mistake_rate=1.5", "must be in [0.0, 1.0]"),
        ("SADA:mistake_rate=-0.1", "must be in [0.0, 1.0]"),
        ("JANGARA:bid_bias=4", "must be in [-3.0, 3.0]"),
        ("JANGARA:infer=maybe", "expected bool"),
        ("JANGARA:evaluation=guess", "expected one of count, full"),
        ("GREEDY:memory=full", "unknown parameter 'memory'"),
        ("GREEDYY", "unknown bot"),
    ],
)
def test_bad_parameters_are_one_line_bot_errors(spec, words):
    with pytest.raises(BotError) as err:
        get_bot(spec)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_the_feskot_tekka_family_refuses_other_rulesets():
    """The classes here play Feskot and Tekka (the ladder names have their own Satat and Shengji bots);
    TANA has one class per ruleset, and a bot asked to play a ruleset it does not play is one line."""
    from tekkasim.rulesets.trick52.bots import LADDER, GreedyBot, Tana, TanaTekka

    for cls in LADDER:
        bot = cls()
        assert bot.supports("feskot") and (bot.supports("tekka") or cls is Tana) and not bot.supports("satat")
    assert not GreedyBot().supports("shengji")  # the Satat and Shengji GREEDY are their own classes
    assert type(get_bot("TANA", ruleset="tekka")) is TanaTekka and type(get_bot("TANA", ruleset="feskot")) is Tana
    assert get_bot("TANA", ruleset="tekka").params["mistake_rate"] == 0.075
    assert get_bot("TANA", ruleset="feskot").params["mistake_rate"] == 0.10
    state = GAMES["tekka"].new_deal(1)
    with pytest.raises(BotError) as err:
        decide(get_bot("TANA"), state, state.current_player(), 1)
    assert "does not play tekka" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(BotError, match="does not play tekka"):
        play_tables(GAMES["tekka"], get_bot("TANA"), "SADA", [1], 0)
    assert play_tables(GAMES["tekka"], "TANA", "SADA", [1], 0)["returns"].shape == (1, 2)


@pytest.mark.parametrize("name", MINE)
def test_choose_is_deterministic_and_legal(name):
    for game in GAMES.values():
        state = random_state(game, 5, 6)
        a = choose(name, state, seed=3)
        assert a == choose(name, state, seed=3)
        assert a in state.legal_actions()


@settings(max_examples=40)
@given(
    st.sampled_from(sorted(GAMES)),
    st.integers(0, 2**40),
    st.integers(0, 75),
    st.integers(0, 2**62),
    st.sampled_from(MINE),
    st.sampled_from([None, 0.5]),
)
def test_no_peeking(name, seed, steps, dseed, bot_name, rate):
    """The same observation with the unseen cards dealt differently gives the same decision."""
    state = random_state(GAMES[name], seed, steps)
    if state.is_terminal():
        return
    extra = {} if rate is None else {"mistake_rate": rate}
    bot = get_bot(bot_name, ruleset=GAMES[name].name, **extra)
    seat = state.current_player()
    expect = decide(bot, state, seat, dseed)
    rng = new_rng(seed + 1)
    for _ in range(3):
        world = state.resample(seat, rng)
        assert world.observation(seat) == state.observation(seat)
        assert decide(bot, world, seat, dseed) == expect


def test_cli_bots_json_follows_runs_md():
    from click.testing import CliRunner

    from tekkasim.cli import cli

    result = CliRunner().invoke(cli, ["bots", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    for row in rows:
        assert set(row) == {"name", "rank", "kind", "rulesets", "params", "description"}
        assert row["kind"] in ("baseline", "heuristic", "search", "oracle")
    assert {"GREEDY", *MINE} <= {row["name"] for row in rows}
    text = CliRunner().invoke(cli, ["bots"])
    assert text.exit_code == 0 and "JANGARA" in text.output and "no mistakes" in text.output


@pytest.mark.parametrize("name", ["satat", "shengji"])
def test_greedy_plays_satat_and_shengji_without_peeking(name):
    """GREEDY finishes whole deals of the other rulesets (declining every out-of-turn accusation), and a
    resampled world with the same observation gets the same decision."""
    game = get_game(name)
    bot = get_bot("GREEDY", ruleset=name)
    rng = new_rng(9)
    for seed in range(3 if name == "shengji" else 8):
        state = game.new_deal(seed)
        n = 0
        while not state.is_terminal():
            for seat in state.actors()[1:]:
                assert decide(bot, state, seat, n) is None
            seat = state.current_player()
            action = decide(bot, state, seat, n)
            assert action in state.legal_actions_for(seat)
            if n % 7 == 3:
                world = state.resample(seat, rng)
                assert decide(bot, world, seat, n) == action
            state.apply_action(action)
            n += 1
