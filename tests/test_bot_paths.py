"""Bots given by path: a top-level module (``mod:Name``), a file (``path/f.py:Name``), and answers that are
not actions (an array), each a bot or one line naming it."""

from __future__ import annotations

import pytest

from tekkasim.bots import get_bot
from tekkasim.bots.base import decide
from tekkasim.errors import BotError
from tekkasim.rules import get_game

BOT_FILE = """
import numpy as np
from tekkasim.bots import Bot

class First(Bot):
    name = "FIRSTFILE"
    def act(self, view, rng):
        return None if view.optional else view.legal[0]

class Arr(Bot):
    name = "ARRAY"
    def act(self, view, rng):
        return np.array([1, 2])
"""


@pytest.fixture()
def bot_file(tmp_path, monkeypatch):
    path = tmp_path / "userbots.py"
    path.write_text(BOT_FILE)
    monkeypatch.syspath_prepend(str(tmp_path))
    return path


def test_top_level_module_and_file_paths(bot_file):
    assert get_bot("userbots:First", ruleset="feskot").label == "FIRSTFILE"
    assert get_bot(f"{bot_file}:First", ruleset="feskot").label == "FIRSTFILE"
    state = get_game("feskot").new_deal(3)
    assert decide(get_bot(f"{bot_file}:First"), state, state.current_player(), 1) == state.legal_actions()[0]


def test_bad_paths_are_one_line(bot_file):
    with pytest.raises(BotError, match="no file"):
        get_bot(f"{bot_file.parent / 'missing.py'}:First")
    with pytest.raises(BotError, match="has no 'Nope'"):
        get_bot("userbots:Nope")
    with pytest.raises(BotError, match="unknown bot"):
        get_bot("NOSUCHBOT")
    with pytest.raises(BotError, match="bad bot parameter"):
        get_bot("TANA:foo")


def test_an_array_answer_names_the_bot(bot_file):
    state = get_game("feskot").new_deal(3)
    with pytest.raises(BotError, match=r"bot ARRAY returned an illegal action array"):
        decide(get_bot("userbots:Arr"), state, state.current_player(), 1)


def test_a_rulesets_own_parameters_are_accepted_in_tournaments_and_sprt():
    """A named bot with parameters only its Satat form has (TANOOR's Troupe search) is checked as Satat's
    bot when teams are made, not as Feskot's (it was refused as an unknown parameter)."""
    from tekkasim.tournament.config import Config, TournamentError
    from tekkasim.tournament.sprt import sprt_config

    cfg = Config.build(ruleset="satat", bots="TANOOR:troupe_worlds=2,JANGARA", boards=1, seed=1)
    assert cfg.teams[0].labels[0].startswith("TANOOR")
    sprt_config("satat", "TANOOR:troupe_worlds=2", "JANGARA", max_pairs=2, seed=1)
    with pytest.raises(TournamentError, match="troupe_worlds"):
        Config.build(ruleset="feskot", bots="TANOOR:troupe_worlds=2,JANGARA", boards=1, seed=1)
