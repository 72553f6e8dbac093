"""Proof of no peeking (issue 11, item 7): for every registered bot but the cheating ones (ORACLE), on many
random mid-deal states of Feskot and Tekka, the same observation with the unseen cards dealt differently
(``state.resample(seat, rng)``) gives the same decision for the same seed.

The check runs over ``bot_names()``, so every bot registered later is covered too. A deliberately peeking
bot shows that the check can fail."""

import pytest

from tekkasim.bits import below, new_rng
from tekkasim.bots import Bot, bot_names, decide, get_bot
from tekkasim.errors import BotError
from tekkasim.rules import get_game

RULESETS = ("feskot", "tekka")
STATES = 24  # random mid-deal states per ruleset and bot
SEARCH_SMALL = {"worlds": 3, "iterations": 20}  # the property does not depend on the budget; keep search cheap


def mid_deal_states(ruleset: str, n: int, seed: int, **options):
    """``n`` states at random points of random deals (auction, Prime choice, play, raise answers)."""
    game = get_game(ruleset, **options)
    rng = new_rng(seed)
    out = []
    while len(out) < n:
        state = game.new_deal(int(below(rng, 1 << 30)))
        steps = int(below(rng, 45))
        for _ in range(steps):
            legal = state.legal_actions()
            trial = state.clone()
            trial.apply_action(legal[int(below(rng, len(legal)))])
            if trial.is_terminal():
                break
            state = trial
        out.append(state)
    return out


def bot_for(name: str, ruleset: str, **extra) -> Bot | None:
    """The implementation of ``name`` for ``ruleset`` (None if it does not play it), search bots cheap."""
    try:
        bot = get_bot(name, ruleset=ruleset)
    except BotError:
        return None
    small = {k: v for k, v in SEARCH_SMALL.items() if k in bot.params}  # the generic ISMCTS has no worlds
    params = {**(small if bot.kind == "search" else {}), **extra}
    return get_bot(name, ruleset=ruleset, **params) if params else bot


def peek_free(bot: Bot, ruleset: str, states, seed: int) -> list[str]:
    """The states at which ``bot`` decided differently in a world its seat cannot tell from the true one."""
    rng = new_rng(seed)
    bad = []
    for i, state in enumerate(states):
        seat = state.current_player()
        for _ in range(2):
            other = state.resample(seat, rng)
            assert other.information_key(seat) == state.information_key(seat)
            a = decide(bot, state, seat, 1000 + i)
            b = decide(bot, other, seat, 1000 + i)
            if a != b:
                bad.append(f"{ruleset} {state.where()}: {state.action_to_string(a)} vs {other.action_to_string(b)}")
                break
    return bad


def honest_bots() -> list[str]:
    return [n for n in bot_names() if not get_bot(n).cheating]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name", honest_bots())
def test_same_observation_same_decision(name, ruleset):
    bot = bot_for(name, ruleset)
    if bot is None or not bot.supports(ruleset):
        pytest.skip(f"{name} does not play {ruleset}")
    options = {"raises": True} if ruleset == "tekka" else {}
    states = mid_deal_states(ruleset, STATES, 7 + len(name), **options)
    assert {s.phase() for s in states} >= ({"play"} if ruleset == "feskot" else {"auction", "play"})
    assert peek_free(bot, ruleset, states, 99) == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_with_mistakes_too(ruleset):
    """The slip path (a random legal action) is also decided from the view alone."""
    for name in honest_bots():
        plain = bot_for(name, ruleset)
        if plain is None or not plain.supports(ruleset):
            continue
        bot = bot_for(name, ruleset, **({"mistake_rate": 0.5} if "mistake_rate" in plain.params else {}))
        if bot.supports(ruleset):
            assert peek_free(bot, ruleset, mid_deal_states(ruleset, 6, 3), 5) == []


class Peeker(Bot):
    """Looks at the next seat's real hand (the very thing the test must catch)."""

    name = "PEEKER"
    rulesets = ("feskot", "tekka")

    def act(self, view, rng):
        spy = view._state.hand((view.seat + 1) % 4)
        return view.legal[spy % len(view.legal)]


def test_the_check_catches_a_peeking_bot():
    states = [s for s in mid_deal_states("feskot", 12, 4) if len(s.legal_actions()) > 1]
    assert peek_free(Peeker(), "feskot", states, 1) != []


def test_oracle_is_the_only_cheater():
    assert [n for n in bot_names() if get_bot(n).cheating] == ["ORACLE"]
