"""One information state for every ruleset: ``information_key(seat)`` and ``resample(seat, rng)``.

Property tests over random mid-deal states of all four rulesets (hypothesis draws the ruleset, the seed,
how far the deal has gone and the seat):

* a resampled world has the seat's key;
* two states with equal keys resample identically for the same rng (the world depends on the
  observation and the rng alone, never on where the hidden cards truly lie);
* a state differing in anything the seat saw has a different key: one of its own cards (swapped with a
  card of another seat, the deal replayed from its record), any action it saw (a card, a call, a signal,
  an accusation: two branches of the same position), private knowledge (Shengji's kitty for the dealer,
  Satat's exchange);
* and a state differing only in what the seat did not see (other seats' cards: any resampled world; a
  Shengji burial, seen only by the dealer) has the same key.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tekkasim.bits import new_rng
from tekkasim.cards import SEATS, card_name, cards_of
from tekkasim.errors import TekkasimError
from tekkasim.rules import get_game
from tekkasim.rules.base import freeze

# (ruleset, options): every ruleset, and the options that add something a seat sees (signals, raises).
GAMES = [
    ("feskot", {}),
    ("feskot", {"signals": True}),
    ("tekka", {}),
    ("tekka", {"raises": True}),
    ("satat", {}),
    ("shengji", {}),
]
IDS = [name + "".join(f"-{k}" for k in options) for name, options in GAMES]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_state(name: str, options: dict, seed: int, steps: int):
    """A state ``steps`` actions into a random deal. Satat rounds sometimes start with an exchange due and
    take Renonces and accusations now and then; Shengji uses its random policy (its legal list can be huge)."""
    game = get_game(name, **options)
    context = {}
    if name == "satat" and seed % 3 == 0:
        context = {"dealer": SEATS[seed % 4], "exchange": {"cards": 1 + seed % 2, "loser": "AB"[seed // 3 % 2]}}
    state = game.new_deal(seed, **context)
    rnd = random.Random(seed)
    krng = new_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rnd, krng))
    return state


def random_action(state, rnd: random.Random, krng):
    if state.game.name == "shengji":
        return state.random_legal_action(krng)
    if state.game.name == "satat":
        optional = [a for s in state.actors() for a in state.legal_actions_for(s) if a not in state.legal_actions()]
        if optional and rnd.random() < 0.05:
            return rnd.choice(optional)
        if state.phase() == "play" and rnd.random() < 0.1:
            return rnd.choice(state.possible_actions())  # a Renonce now and then
    return rnd.choice(state.legal_actions())


def signature(world) -> tuple:
    """Everything about a world: every seat's information key and the whole record but its seed."""
    record = {k: v for k, v in world.to_record().items() if k != "seed"}
    return tuple(world.information_key(s) for s in range(4)), freeze(record)


def replay(game, record):
    """The state a (possibly edited) record leads to, or None if one of its actions is now illegal."""
    try:
        state, actions = game.from_record(record)
        for text in actions:
            state.apply_action(state.string_to_action(text))
    except TekkasimError:
        return None
    return state


def hand_cards(obs) -> list[int]:
    """The cards of an observation's hand: a 52-card mask or a Shengji multiset."""
    return obs.hand.cards() if hasattr(obs.hand, "cards") else cards_of(int(obs.hand))


case = st.tuples(st.sampled_from(range(len(GAMES))), st.integers(0, 10**6), st.integers(0, 90), st.integers(0, 3))


@SETTINGS
@given(case, st.integers(0, 2**32))
def test_a_resampled_world_has_the_seats_key(args, r):
    g, seed, steps, seat = args
    state = random_state(*GAMES[g], seed, steps)
    world = state.resample(seat, new_rng(r))
    assert world.information_key(seat) == state.information_key(seat), state.where()
    assert world.seed is None  # the true deal's seed would give everything away
    assert world.legal_actions_for(seat) == state.legal_actions_for(seat)
    assert world.actors() == state.actors()


@pytest.mark.parametrize("g", range(len(GAMES)), ids=IDS)
def test_resampled_keys_on_a_sweep_of_positions(g):
    """Not left to hypothesis's luck: every seat, at the start of many deals (Satat: before Troupe, where
    the phase tells whether the caller may redeal) and a few points later on."""
    for seed in range(40):
        for steps in (0, 1, 2, 7, 30):
            state = random_state(*GAMES[g], seed, steps)
            for seat in range(4):
                world = state.resample(seat, new_rng(seed * 131 + steps * 4 + seat))
                assert world.information_key(seat) == state.information_key(seat), (seed, steps, seat)


@SETTINGS
@given(case, st.integers(0, 2**32), st.integers(0, 2**32))
def test_equal_keys_resample_identically(args, r1, r2):
    """A world and the true state share the seat's key but not its hidden cards (nor seed, nor future
    chance); resampled with the same rng they give the same world."""
    g, seed, steps, seat = args
    state = random_state(*GAMES[g], seed, steps)
    other = state.resample(seat, new_rng(r1))
    assert other.information_key(seat) == state.information_key(seat)
    assert signature(state.resample(seat, new_rng(r2))) == signature(other.resample(seat, new_rng(r2)))


@SETTINGS
@given(case, st.integers(0, 2**32))
def test_a_different_own_card_changes_the_key(args, r):
    """Swap one card the seat sees in its hand with an unplayed card of another seat, in the record, and
    replay (swaps that make a recorded action illegal are skipped): the seat's key changes."""
    g, seed, steps, seat = args
    name, options = GAMES[g]
    state = random_state(name, options, seed, steps)
    rnd = random.Random(r)
    record = state.to_record()
    mine = [card_name(c) for c in hand_cards(state.observation(seat))]
    played = {p for t in record.get("tricks", []) for p in t if isinstance(p, str)}
    swapped = None
    for _ in range(20):
        other = rnd.choice([s for s in range(4) if s != seat])
        theirs = [c for c in record["hands"][SEATS[other]] if c not in played and c not in mine]
        if not mine or not theirs:
            continue
        a, b = rnd.choice(mine), rnd.choice(theirs)
        edited = {**record, "hands": {k: list(v) for k, v in record["hands"].items()}}
        own, their = edited["hands"][SEATS[seat]], edited["hands"][SEATS[other]]
        if a not in own:  # a card the seat received in the exchange: not in its dealt hand
            continue
        own[own.index(a)], their[their.index(b)] = b, a
        swapped = replay(state.game, edited)
        if swapped is not None and swapped.phase() == state.phase():
            break
        swapped = None
    assume(swapped is not None)
    assert swapped.information_key(seat) != state.information_key(seat)


@SETTINGS
@given(case, st.integers(0, 2**32))
def test_every_action_a_seat_sees_is_in_its_key(args, r):
    """Two branches of one position, differing in the action taken (a card, a call, a signal, a Troupe, an
    accusation, a declaration): every seat's key differs, except that a Shengji burial is seen by the
    dealer alone."""
    g, seed, steps, seat = args
    state = random_state(*GAMES[g], seed, steps)
    while state.is_terminal():  # a deal over before ``steps``: go back to an earlier point of it
        steps //= 2
        state = random_state(*GAMES[g], seed, steps)
    rnd = random.Random(r)
    choices = [a for s in state.actors() for a in state.legal_actions_for(s)]
    if state.game.name == "shengji" and state.phase() == "play":  # the list itself can be huge
        krng = new_rng(r)
        choices = list({state.random_legal_action(krng) for _ in range(8)})
    assume(len(set(choices)) >= 2)
    a, b = rnd.sample(sorted(set(choices), key=repr), 2)
    left, right = state.clone(), state.clone()
    left.apply_action(a)
    right.apply_action(b)
    for s in range(4):
        private = state.game.name == "shengji" and state.phase() == "bury" and s != state.dealer
        if private:
            assert left.information_key(s) == right.information_key(s)
        else:
            assert left.information_key(s) != right.information_key(s), (state.where(), s)


# --- private knowledge ------------------------------------------------------------------------------


def _shengji_after_declaring(seed: int):
    state = random_state("shengji", {}, seed, 0)
    krng = new_rng(seed)
    while state.phase() == "declare":
        state.apply_action(state.random_legal_action(krng))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_the_shengji_kitty_is_in_the_dealers_key_only(seed):
    """Swap a kitty card with a card of a seat that is not the dealer: the dealer's key changes (it took
    the kitty), the untouched seats' keys do not (unless the kitty was turned up for all to see)."""
    state = _shengji_after_declaring(seed)
    d = state.dealer
    record = state.to_record()
    other = (d + 1) % 4
    rnd = random.Random(seed)
    for _ in range(50):
        k = rnd.randrange(8)
        j = rnd.randrange(25)
        edited = {**record, "hands": {s: list(v) for s, v in record["hands"].items()}, "kitty": list(record["kitty"])}
        a, b = edited["kitty"][k], edited["hands"][SEATS[other]][j]
        if a == b:
            continue
        edited["kitty"][k], edited["hands"][SEATS[other]][j] = b, a
        swapped = replay(state.game, edited)
        if swapped is not None and swapped.phase() == "bury" and swapped.dealer == d:
            break
    else:
        pytest.skip("no legal swap found")
    assert swapped.information_key(d) != state.information_key(d)
    assert swapped.information_key(other) != state.information_key(other)  # its own hand changed
    for s in {0, 1, 2, 3} - {d, other}:
        assert (swapped.information_key(s) == state.information_key(s)) != state.turned_up


def test_satat_exchange_cards_are_in_the_seats_key():
    """After a KOT 52 the seats swap two cards each: what a seat gave and received is private (in its
    observation), and its key differs from the same position without the exchange."""
    game = get_game("satat")
    with_exchange = game.new_deal(5, dealer="left", exchange={"cards": 2, "loser": "B"})
    without = game.new_deal(5, dealer="left")
    assert with_exchange._dealt == without._dealt
    for state in (with_exchange, without):
        state.apply_action(state.string_to_action("S"))
    for seat in range(4):
        obs = with_exchange.observation(seat)
        assert len(obs.private["gave"]) == 2 and len(obs.private["received"]) == 2
        assert without.observation(seat).private["gave"] == []
        assert with_exchange.information_key(seat) != without.information_key(seat)
        world = with_exchange.resample(seat, new_rng(seat))
        assert world.observation(seat).private == obs.private


def test_satat_redealt_first_fives_are_in_the_key():
    """Each seat saw its own first five of every deal given up by a redeal (``private["redealt"]``)."""
    game = get_game("satat")
    state = next(s for s in (game.new_deal(seed) for seed in range(500)) if s.phase() == "redeal-or-troupe")
    before = [state.information_key(s) for s in range(4)]
    first = [list(state._dealt[s][:5]) for s in range(4)]
    state.apply_action(state.string_to_action("redeal"))
    for s in range(4):
        obs = state.observation(s)
        assert obs.private["redealt"] == [first[s]]
        assert state.information_key(s) != before[s]
        world = state.resample(s, new_rng(s))
        assert world.observation(s).private["redealt"] == [first[s]]


@pytest.mark.parametrize("g", range(len(GAMES)), ids=IDS)
def test_shared_observation_fields(g):
    """The fields every ruleset shares have the same names and types (base.Observation)."""
    name, options = GAMES[g]
    for seed in range(3):
        state = random_state(name, options, seed, 40)
        for seat in range(4):
            pub = state.observation(seat).public
            assert pub["trump"] is None or pub["trump"] in range(5)
            assert isinstance(pub["tricks"], list)
            for trick in pub["tricks"]:
                assert set(trick) == {"leader", "plays", "winner"}
                assert trick["plays"][0][0] == trick["leader"]
                for s, play in trick["plays"]:
                    assert s in range(4)
                    if name == "shengji":
                        assert isinstance(play, tuple) and list(play) == sorted(play)
                    else:
                        assert isinstance(play, int)
            assert len(pub["score"]) == 2 and len(pub["won"]) == 2
            assert len(pub["hand_sizes"]) == 4 and all(isinstance(n, int) for n in pub["hand_sizes"])
            assert len(pub["voids"]) == 4 and all(0 <= v < 32 for v in pub["voids"])
            hash(state.information_key(seat))


def test_shengji_voids_are_effective_suits_with_trumps_as_bit_four():
    state = random_state("shengji", {}, 3, 0)
    krng = new_rng(3)
    while not state.is_terminal():
        state.apply_action(state.random_legal_action(krng))
        voids = state.observation(0).public["voids"]
        for s in range(4):
            assert voids[s] == sum(1 << e for e in range(5) if state.voids[s, e])
    assert np.any(state.voids)


def test_satat_voids_are_apparent_ones():
    """A Renonce shows a void that is not there: the observation reports what the table showed."""
    game = get_game("satat")
    for seed in range(200):
        state = game.new_deal(seed)
        state.apply_action(state.legal_actions()[0])  # Troupe (or a redeal)
        if state.phase() != "play":
            continue
        state.apply_action(state.legal_actions()[0])
        lead = state.table()[0][1]
        seat = state.current_player()
        off = [c for c in state.possible_actions() if c not in state.legal_actions() and c != 26]
        if not off or lead == 26:
            continue
        state.apply_action(off[0])  # a Renonce: the seat still holds the led suit
        suit = lead // 13
        assert state.observation(0).public["voids"][seat] == 1 << suit
        assert any(c // 13 == suit for c in cards_of(state.hand(seat)))
        return
    pytest.fail("no Renonce position found")


@pytest.mark.parametrize("seed", range(8))
def test_shengji_fallback_worlds_depend_on_the_observation_only(seed):
    """The direct world (``tries=0``: hidden cards swapped into a copy, not replayed) must not keep
    anything of the true hidden cards either."""
    for steps in (5, 30, 60, 110):
        state = random_state("shengji", {}, seed, steps)
        for seat in range(4):
            other = state.resample(seat, new_rng(seed))
            a = state.resample(seat, new_rng(seed + 1), tries=0)
            b = other.resample(seat, new_rng(seed + 1), tries=0)
            assert a.information_key(seat) == state.information_key(seat)
            assert signature(a) == signature(b), (steps, seat)
