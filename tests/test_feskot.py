"""Feskot rules on hand-built deals: one or more tests per rule of rules.md and per option."""

import itertools
import random

import numpy as np
import pytest

from tekkasim.bits import new_rng
from tekkasim.cards import HEARTS, SPADES, parse_card, parse_cards
from tekkasim.errors import IllegalAction, OptionError, RecordError, TekkasimError
from tekkasim.reference.bits import Rng
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import reference as ref
from tekkasim.rulesets.trick52.game import prime_action, with_signal
from tekkasim.verify import verify_record

# A mixed deal: bottom is strong in spades (7 of them), left has no spades.
MIXED = {
    "bottom": "AS KS QS JS TS 9S 8S AH KH QH AD KD AC",
    "right": "7S 6S 5S JH TH 9H 8H QD JD TD KC QC JC",
    "top": "4S 3S 2S 7H 6H 5H 4H 9D 8D 7D TC 9C 8C",
    "left": "3H 2H 6D 5D 4D 3D 2D 7C 6C 5C 4C 3C 2C",
}
SEAT_NAMES = ("bottom", "right", "top", "left")


def rotated(hands: dict, by: int) -> dict:
    """The same cards, each hand moved ``by`` seats counter-clockwise."""
    return {SEAT_NAMES[(i + by) % 4]: hands[SEAT_NAMES[i]] for i in range(4)}


def c(text: str) -> int:
    return parse_card(text)


def play(state, *cards: str) -> None:
    for text in cards:
        state.apply_action(state.string_to_action(text))


def lowest_legal(state) -> None:
    state.apply_action(state.legal_actions()[0])


def deal(first="bottom", hands=MIXED, **options):
    return get_game("feskot", **options).from_hands(hands, first=first)


# --- prime and the first trick -------------------------------------------------------------------


def test_first_dealt_seat_chooses_prime_first_and_leads():
    s = deal(first="top")
    assert s.phase() == "prime" and s.current_player() == 2 and s.where() == "prime choice (top)"
    assert s.legal_actions() == [prime_action(x) for x in range(4)]
    with pytest.raises(IllegalAction) as e:
        s.apply_action(c("4S"))
    assert e.value.rule == "wrong-phase"
    s.apply_action(s.string_to_action("H"))
    assert s.prime == HEARTS and s.phase() == "play" and s.current_player() == 2
    assert s.where() == "trick 1, play 1 (top)"
    with pytest.raises(IllegalAction):
        s.apply_action(prime_action(0))  # Prime is chosen once


def test_before_prime_every_seat_sees_only_its_first_five():
    s = deal(first="right")
    for seat in range(4):
        obs = s.observation(seat)
        assert obs.hand == sum(1 << x for x in s.dealt(seat)[:5])
        assert obs.public["hand_sizes"] == [5, 5, 5, 5]
    s.apply_action(prime_action(SPADES))
    assert s.observation(1).hand == sum(1 << x for x in s.dealt(1))
    assert s.observation(1).public["hand_sizes"] == [13] * 4


def test_observation_hides_other_hands():
    s = deal()
    play(s, "S", "AS", "5S")
    obs = s.observation(2)
    text = repr(obs.public)
    hidden = set(s.dealt(0) + s.dealt(1) + s.dealt(3)) - {c("AS"), c("5S")}
    assert obs.hand == sum(1 << x for x in s.dealt(2))
    # public information holds only played cards: no unplayed card of another seat appears in it
    played = [card for t in obs.public["tricks"] for _, card in t["plays"]]
    assert played == [c("AS"), c("5S")] and not hidden & set(played)
    assert "private" not in text and obs.private == {}


# --- following and winning -----------------------------------------------------------------------


def test_follow_suit_if_able():
    s = deal()
    play(s, "C", "AH")
    assert s.legal_actions() == parse_cards("8H 9H TH JH")  # right must follow hearts
    with pytest.raises(IllegalAction) as e:
        play(s, "KC")
    assert e.value.rule == "follow-suit"
    with pytest.raises(IllegalAction) as e:
        play(s, "4H")  # not right's card
    assert e.value.rule == "not-in-hand"
    play(s, "8H")


def test_no_duty_to_trump_and_prime_beats_led_suit():
    s = deal()
    play(s, "C", "AS", "5S", "2S")
    # left has no spade: any card is legal, Prime (clubs) or not
    assert s.legal_actions() == sorted(s.dealt(3))
    with_prime = s.clone()
    play(s, "3H")  # a discard: no duty to trump
    assert s.winners() == [0]
    play(with_prime, "2C")  # the lowest Prime beats the ace of the led suit
    assert with_prime.winners() == [3] and with_prime.current_player() == 3


def test_highest_prime_wins_and_off_suit_cannot_win():
    s = deal()
    play(s, "H", "8S", "5S", "2S", "6D")  # the 6D is off-suit and not Prime: cannot win
    assert s.winners() == [0]
    s2 = deal(first="right", hands=MIXED)
    play(s2, "S", "JH", "4H", "3H", "AH")
    assert s2.winners() == [0]  # bottom's AH, highest of the led suit
    s3 = deal(first="top")
    play(s3, "H", "9D", "2D", "AD", "TD")  # no Prime: highest diamond wins
    assert s3.winners() == [0]
    s4 = deal(first="left")
    play(s4, "D", "2C", "AC", "JC", "TC")  # bottom's AC ...
    assert s4.winners() == [0]
    s5 = deal(first="right")
    play(s5, "C", "7S", "2S", "2C", "AS")  # left's 2C (Prime) beats the AS played after it
    assert s5.winners() == [3]
    s6 = deal()
    play(s6, "D", "AS", "5S", "2S", "2D")  # left's 2D (Prime) takes the ace of the led suit
    play(s6, "7C", "AC", "JC", "8C")  # no Prime played: highest club
    play(s6, "KS", "6S", "3S", "3D", "6C", "AD", "QC", "9C", "QS", "7S", "4S", "4D", "5C", "KD", "KC", "TC")
    play(s6, "JS", "TD", "9D", "5D")  # three Primes on a spade lead: the highest Prime (right's TD) wins
    assert s6.winners() == [3, 0, 3, 0, 3, 0, 1]
    assert s6.team_tricks() == (3, 4) and s6.seat_tricks() == [3, 1, 0, 3]
    assert s6.observation(0).public["voids"] == [1 << 0, 1 << 3, 1 << 3, 1 << 3]


# --- end of the game -------------------------------------------------------------------------------


def _run_spades(state):
    """Bottom leads its seven spades (Prime S); everyone else plays its lowest legal card."""
    state.apply_action(prime_action(SPADES))
    for x in ("AS", "KS", "QS", "JS", "TS", "9S", "8S"):
        play(state, x)
        for _ in range(3):
            lowest_legal(state)


def test_seven_tricks_end_the_game():
    s = deal()
    _run_spades(s)
    assert s.is_terminal() and s.team_tricks() == (7, 0)
    assert s.result() == {"tricks": {"A": 7, "B": 0}, "winner": "A"}
    assert s.returns() == (7.0, 0.0) and s.match_winner() is None
    with pytest.raises(IllegalAction) as e:
        s.apply_action(c("AH"))
    assert e.value.rule == "deal-over"


def test_play_out_plays_all_thirteen():
    s = deal(play_out=True)
    _run_spades(s)
    assert not s.is_terminal() and s.team_tricks() == (7, 0)
    while not s.is_terminal():
        lowest_legal(s)
    a, b = s.team_tricks()
    assert a + b == 13 and len(s.winners()) == 13 and s.result()["winner"] == "A"
    assert s.to_record()["options"] == {"play_out": True}


@pytest.mark.parametrize(
    ("first", "strong", "next_first"),
    [
        ("bottom", 0, "bottom"),  # first-dealt team won: same seat
        ("right", 0, "top"),  # first-dealt team lost: next seat counter-clockwise (on the winning team)
        ("right", 1, "right"),
        ("top", 1, "left"),
    ],
)
def test_first_dealt_rotation(first, strong, next_first):
    hands = rotated(MIXED, strong)  # the seven spades sit at seat ``strong``
    s = deal(first=first, hands=hands)
    s.apply_action(prime_action(SPADES))
    while not s.is_terminal():
        seat = s.current_player()
        spades = [a for a in s.legal_actions() if a // 13 == SPADES]
        s.apply_action(spades[-1] if seat == strong and spades else s.legal_actions()[0])
    assert s.result()["winner"] == "AB"[strong & 1]
    assert s.next_deal_context() == {"first": SEAT_NAMES.index(next_first)}


# --- options: deal=cut, signals --------------------------------------------------------------------


def test_cut_deck_is_played_order_then_unplayed_by_seat():
    game = get_game("feskot", deal="cut")
    s = game.from_hands(MIXED, first="bottom")
    _run_spades(s)
    played = [p[1] for t in s.tricks() for p in t]
    rest = [x for seat in range(4) for x in s.dealt(seat) if x not in played]
    ctx = s.next_deal_context()
    assert ctx["first"] == 0 and ctx["deck"] == played + rest and len(set(ctx["deck"])) == 52
    assert ctx["deck"][:4] == parse_cards("AS 5S 2S 2C")  # the first trick as played
    nxt = game.new_deal(123, **ctx)
    point = 1 + Rng(123).below(51)
    deck = ctx["deck"][point:] + ctx["deck"][:point]
    assert [nxt.dealt(x) for x in range(4)] == ref.deal_packets(deck, 0)
    assert nxt.dealt(0)[:5] == deck[:5]
    # with deal=shuffle no deck is carried, and a deck is refused
    s2 = deal()
    _run_spades(s2)
    assert "deck" not in s2.next_deal_context()
    with pytest.raises(TekkasimError):
        get_game("feskot").new_deal(1, deck=ctx["deck"])


def test_signals_are_public_and_change_nothing():
    s = deal()
    plain = deal()
    play(s, "S", "AS:slam", "5S", "2S", "2C:drop")
    play(plain, "S", "AS", "5S", "2S", "2C")
    assert s.winners() == plain.winners() and s.team_tricks() == plain.team_tricks()
    assert s.observation(1).public["tricks"][0] == {
        "leader": 0,
        "plays": [(0, c("AS")), (1, c("5S")), (2, c("2S")), (3, c("2C"))],
        "winner": 0,
    }
    assert s.observation(1).public["signals"][0] == [1, 0, 0, 2]
    assert s.to_record()["tricks"][0] == ["AS:slam", "5S", "2S", "2C:drop"]
    assert s.history()[1] == with_signal(c("AS"), "slam")
    # legal_actions lists plain cards only; a signalled card is legal whenever its card is
    assert all(a < 52 for a in s.legal_actions())
    off = deal(signals=False)
    play(off, "S")
    with pytest.raises(IllegalAction) as e:
        off.apply_action(with_signal(c("AS"), "drop"))
    assert e.value.rule == "signals-off"
    play(off, "AS")


def test_bad_options():
    with pytest.raises(OptionError):
        get_game("feskot", deal="riffle")
    with pytest.raises(OptionError):
        get_game("feskot", first=2)  # the first-dealt seat is deal context, not an option
    assert get_game("feskot", play_out="true").options["play_out"] is True


# --- seeded deals, text, records -------------------------------------------------------------------


def test_seeded_deal_matches_reference_and_kernel():
    game = get_game("feskot")
    for seed in range(50):
        s = game.new_deal(seed, first=seed % 4)
        d, _ = ref.new_deal("feskot", seed, seed % 4)
        assert [s.dealt(x) for x in range(4)] == d.dealt
        assert sorted(sum(d.dealt, [])) == list(range(52))


def test_action_text_round_trip_and_input_forms():
    s = deal()
    assert s.string_to_action("s") == prime_action(SPADES) == s.string_to_action("♠")
    assert s.string_to_action("10h") == c("TH") == s.string_to_action("10♥")
    assert s.string_to_action("9s:DROP") == with_signal(c("9S"), "drop")
    assert s.action_to_string(with_signal(c("TS"), "slam")) == "TS:slam"
    for bad in ("1S", "ZZ", "9S:wave", ""):
        with pytest.raises(TekkasimError):
            s.string_to_action(bad)


def test_record_round_trip_and_play_on():
    s = deal()
    _run_spades(s)
    rec = s.to_record()
    assert rec["trump"] == "S" and rec["first"] == "bottom" and len(rec["tricks"]) == 7
    assert rec["hands"]["bottom"] == MIXED["bottom"].split() and "unfinished" not in rec
    assert verify_record(rec).ok
    # the same deal played on to trick 13 is also a legal record; its result counts every trick
    long = deal(play_out=True)
    _run_spades(long)
    while not long.is_terminal():
        lowest_legal(long)
    rec13 = long.to_record()
    del rec13["options"]
    verdict = verify_record(rec13)
    assert verdict.ok, verdict.error
    assert verdict.result["tricks"]["A"] + verdict.result["tricks"]["B"] == 13
    # stopping between the decision and trick 13 needs "unfinished"
    rec9 = dict(rec13, tricks=rec13["tricks"][:9])
    rec9.pop("result")
    assert not verify_record(rec9).ok
    assert verify_record(rec9 | {"unfinished": True}).ok
    # a trick in progress needs "unfinished"
    part = dict(rec, tricks=rec["tricks"][:3] + [rec["tricks"][3][:2]])
    part.pop("result")
    assert "before it is over" in verify_record(part).error
    assert verify_record(part | {"unfinished": True}).ok
    # the result is checked
    wrong = dict(rec, result={"tricks": {"A": 6, "B": 1}, "winner": "A"})
    assert "differs" in verify_record(wrong).error


def test_verify_names_the_broken_rule():
    rec = deal().to_record()
    rec.update(trump="S", tricks=[["AS", "KC", "2S", "2C"]])
    rec.pop("unfinished")
    verdict = verify_record(rec)
    assert not verdict.ok and verdict.error.startswith("trick 1, play 2 (right)") and "follow suit" in verdict.error


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("first"), "missing field 'first'"),
        (lambda r: r.update(first="north"), "unknown seat"),
        (lambda r: r["hands"].pop("left"), "lacks left"),
        (lambda r: r["hands"].update(left=r["hands"]["left"][:12]), "12 cards"),
        (lambda r: r["hands"]["left"].__setitem__(0, "1X"), "malformed card"),
        (lambda r: r["hands"]["left"].__setitem__(0, "AS"), "duplicate card AS"),
        (lambda r: r.update(trump="NT"), "unknown trump"),
        (lambda r: r.pop("trump"), "missing field 'trump'"),
        (lambda r: r.update(tricks="AS KS"), "'tricks' must be a list"),
        (lambda r: r.update(tricks=[["AS", "5S"], ["KS"]]), "not the last trick"),
        (lambda r: r.update(tricks=[["AS", 5]]), "must be text"),
        (lambda r: r.update(hands=[1, 2]), "'hands' must be dict"),
    ],
)
def test_from_record_errors(change, message):
    s = deal()
    _run_spades(s)
    rec = s.to_record()
    rec["hands"] = {k: list(v) for k, v in rec["hands"].items()}
    change(rec)
    with pytest.raises(RecordError) as e:
        get_game("feskot").from_record(rec)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_from_record_accepts_aliases_any_case_and_ten():
    s = deal()
    _run_spades(s)
    rec = s.to_record()
    rec["hands"] = {k[0].upper(): [x.replace("T", "10").lower() for x in v] for k, v in rec["hands"].items()}
    rec["tricks"] = [[x.replace("S", "♠").lower() for x in t] for t in rec["tricks"]]
    rec["first"] = "B"
    state, actions = get_game("feskot").from_record(rec)
    assert actions[0] == "S" and len(actions) == 1 + 28
    for a in actions:
        state.apply_action(state.string_to_action(a))
    assert state.is_terminal() and state.result() == s.result()


def test_where_render_and_clone():
    s = deal()
    play(s, "S", "AS", "5S")
    assert s.where() == "trick 1, play 3 (top)"
    t = s.clone()
    play(t, "2S")
    assert s.where() == "trick 1, play 3 (top)" and t.where() == "trick 1, play 4 (left)"
    text = s.render()
    assert "Prime: ♠ S" in text and "bottom" in text and "A♠" in text
    _run_spades(deal())
    done = deal()
    _run_spades(done)
    assert "team A wins" in done.render() and "-> bottom" in done.render()


# --- determinization ---------------------------------------------------------------------------------


def test_resample_keeps_the_observation_and_respects_voids():
    game = get_game("feskot", play_out=True)
    rnd = random.Random(4)
    checked = 0
    for seed in range(8):
        s = game.new_deal(seed, first=seed % 4)
        while not s.is_terminal():
            for seat in range(4):
                world = s.resample(seat, new_rng(seed * 100 + checked))
                assert world.observation(seat) == s.observation(seat)
                assert world.legal_actions() == s.legal_actions() or seat != s.current_player()
                voids = s.observation(seat).public["voids"]
                for other in range(4):
                    held = world.hand(other)
                    for suit in range(4):
                        if voids[other] >> suit & 1:
                            assert not held >> (13 * suit) & 0x1FFF
                assert sorted(sum((world.dealt(x) for x in range(4)), [])) == list(range(52))
                assert [bin(world.hand(x)).count("1") for x in range(4)] == [
                    bin(s.hand(x)).count("1") for x in range(4)
                ]
                checked += 1
            s.apply_action(rnd.choice(s.legal_actions()))
    assert checked > 1000


def test_counted_resampler_is_uniform_too():
    """The exact fallback sampler alone, on a position where rejection is tight."""
    from tekkasim.rulesets.trick52.game import _draw_counted

    pool = sum(1 << c for c in parse_cards("2S 3S 4S 2H 3H 4D 5D"))
    caps, void = {1: 3, 2: 2, 3: 2}, {1: 0b1000, 2: 0b0100, 3: 0}  # right void in S, top in H
    for draw in (_draw_counted,):
        counts: dict = {}
        for i in range(4000):
            out = draw(pool, caps, void, new_rng(i))
            assert not any(x // 13 == 3 for x in out[1]) and not any(x // 13 == 2 for x in out[2])
            key = tuple(frozenset(out[s]) for s in (1, 2, 3))
            counts[key] = counts.get(key, 0) + 1
        # every valid deal, by brute force, and nothing else
        cards = parse_cards("2S 3S 4S 2H 3H 4D 5D")
        valid = set()
        for right in itertools.combinations(cards, 3):
            for top in itertools.combinations([x for x in cards if x not in right], 2):
                left = [x for x in cards if x not in right and x not in top]
                if all(x // 13 != 3 for x in right) and all(x // 13 != 2 for x in top):
                    valid.add((frozenset(right), frozenset(top), frozenset(left)))
        assert set(counts) == valid
        expect = 4000 / len(counts)
        assert max(counts.values()) < 1.3 * expect and min(counts.values()) > 0.7 * expect


def test_deal_counts_of_the_counted_resampler_match_brute_force():
    """``_ways`` (kept across calls) counts the void-respecting deals exactly, whatever the voids and
    places, also after other configurations have filled its cache."""
    from tekkasim.rulesets.trick52.game import _ways

    rnd = random.Random(11)
    for _ in range(40):
        cards = rnd.sample(range(52), 7)
        cut = sorted(rnd.sample(range(1, 7), 2))
        caps = (cut[0], cut[1] - cut[0], 7 - cut[1])
        voids = [rnd.randrange(16) for _ in range(3)]
        brute = 0
        for first in itertools.combinations(cards, caps[0]):
            rest = [c for c in cards if c not in first]
            for second in itertools.combinations(rest, caps[1]):
                third = [c for c in rest if c not in second]
                hands = (first, second, third)
                brute += all(not voids[i] >> (c // 13) & 1 for i in range(3) for c in hands[i])
        sizes = tuple(sum(c // 13 == s for c in cards) for s in range(4))
        allowed = tuple(tuple(not v >> s & 1 for v in voids) for s in range(4))
        assert _ways(sizes, allowed, 0, caps) == brute


def test_resample_before_prime_redraws_the_last_eight_of_the_chooser():
    s = deal(first="left")
    seen = set()
    for i in range(30):
        world = s.resample(3, new_rng(i))
        assert world.dealt(3)[:5] == sorted(s.dealt(3)[:5])
        seen.add(tuple(world.dealt(3)[5:]))
    assert len(seen) > 25


def test_resample_is_uniform_over_a_small_void_constrained_position():
    """Late in a deal with voids: the resampled hidden deals must all be equally likely."""
    s = deal(play_out=True)
    _run_spades(s)  # right and top are void in spades, left in spades too
    while len(s.winners()) < 10:
        lowest_legal(s)
    counts: dict = {}
    n = 3000
    for i in range(n):
        w = s.resample(0, new_rng(i))
        key = tuple(w.hand(x) for x in (1, 2, 3))
        counts[key] = counts.get(key, 0) + 1
    # every hidden deal consistent with the voids appears, with frequencies close to uniform
    expect = n / len(counts)
    assert len(counts) > 1
    assert max(counts.values()) < 1.5 * expect + 30 and min(counts.values()) > 0.5 * expect - 30


def test_play_random_shapes_and_determinism():
    game = get_game("feskot")
    out = game.play_random(1000, 5)
    assert out["returns"].shape == (1000, 2) and set(np.unique(out["winner"])) <= {0, 1}
    again = game.play_random(1000, 5)
    assert all(np.array_equal(out[key], again[key]) for key in out)
    assert (out["tricks"].max(axis=1) == 7).all()
    long = get_game("feskot", play_out=True).play_random(1000, 5)
    assert (long["tricks"].sum(axis=1) == 13).all()


# --- one information state ---------------------------------------------------------------------------


def _same_world(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a.arrays, b.arrays, strict=True)) and a.history() == b.history()


@pytest.mark.parametrize("ruleset,options", [("feskot", {}), ("tekka", {"raises": True})])
def test_resample_depends_only_on_the_observation(ruleset, options):
    """Two states with one information key (the second a resampled world of the first) give the same
    resampled world for the same RNG seed, at every point of random deals and for every seat; and the
    world's key for that seat is the state's."""
    game = get_game(ruleset, **options)
    rnd = random.Random(11)
    checked = 0
    for seed in range(6):
        s = game.new_deal(seed, first=seed % 4)
        while not s.is_terminal():
            for seat in range(4):
                twin = s.resample(seat, new_rng(7 * seed + checked))
                assert twin.information_key(seat) == s.information_key(seat)
                assert twin.seed is None
                r = seed * 1000 + checked
                w1, w2 = s.resample(seat, new_rng(r)), twin.resample(seat, new_rng(r))
                assert _same_world(w1, w2), (ruleset, s.where(), seat)
                assert w1.information_key(seat) == s.information_key(seat)
                checked += 1
            s.apply_action(rnd.choice(s.legal_actions()))
    assert checked > 250


@pytest.mark.parametrize("ruleset", ["feskot", "tekka"])
def test_information_key_changes_with_what_the_seat_saw(ruleset):
    """Swapping an unseen card of seat 0 with one of seat 1 (same suit, so the history stays legal) changes
    the keys of seats 0 and 1 and not those of seats 2 and 3; a different action changes every key."""
    game = get_game(ruleset)
    rnd = random.Random(3)
    for seed in range(20):
        s = game.new_deal(seed)
        for _ in range(rnd.randrange(0, 30)):
            if s.is_terminal():
                break
            s.apply_action(rnd.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        history = s.history()
        # swap an unplayed card of seat 0 with an unplayed card of seat 1, same suit (voids stay as shown)
        dealt = [s.dealt(x) for x in range(4)]
        own = [c for c in dealt[0] if s.hand(0) >> c & 1]
        other = [c for c in dealt[1] if s.hand(1) >> c & 1]
        if ruleset == "feskot" and s.prime is None:
            own, other = [c for c in dealt[0][:5]], [c for c in dealt[1][:5]]
        pairs = [(a, b) for a in own for b in other if a // 13 == b // 13]
        if not pairs:
            continue
        a, b = rnd.choice(pairs)
        swapped = {x: list(dealt[x]) for x in range(4)}
        swapped[0][swapped[0].index(a)] = b
        swapped[1][swapped[1].index(b)] = a
        t = game.from_hands(swapped, first=s.first, **({"score": s.score_before} if ruleset == "tekka" else {}))
        for action in history:
            t.apply_action(action)
        for seat in (0, 1):
            assert t.information_key(seat) != s.information_key(seat)
        for seat in (2, 3):
            assert t.information_key(seat) == s.information_key(seat)
        u = s.clone()
        legal = u.legal_actions()
        if len(legal) > 1:
            v = s.clone()
            u.apply_action(legal[0])
            v.apply_action(legal[-1])
            for seat in range(4):
                assert u.information_key(seat) != v.information_key(seat)


# --- bad input: one line, a TekkasimError ------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["feskot", "tekka"])
def test_seeds_outside_the_range_or_of_the_wrong_type_are_refused(ruleset):
    game = get_game(ruleset)
    for bad in (-1, 2**63, 2**64, True, 1.5, "7", None):
        with pytest.raises(OptionError) as e:
            game.new_deal(bad)
        assert "\n" not in str(e.value) and "seed" in str(e.value)
    assert game.new_deal(2**63 - 1).seed == 2**63 - 1 and game.new_deal(np.int64(5)).seed == 5
    assert game.new_deal(0).dealt(0) != game.new_deal(1).dealt(0)


@pytest.mark.parametrize("ruleset", ["feskot", "tekka"])
def test_returns_result_and_next_deal_only_once_the_deal_is_over(ruleset):
    s = get_game(ruleset).new_deal(3)
    for method in (s.returns, s.result, s.next_deal_context):
        with pytest.raises(TekkasimError, match="^the deal is not over"):
            method()
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert len(s.returns()) == 2 and s.result() and s.next_deal_context()


@pytest.mark.parametrize("ruleset", ["feskot", "tekka"])
def test_action_to_string_refuses_numbers_that_are_no_action(ruleset):
    s = get_game(ruleset).new_deal(3)
    for bad in (-5, -1, 160 - 1 + 100, 10**30, 198, 1.5, "AS", None):
        with pytest.raises(TekkasimError) as e:
            s.action_to_string(bad)
        assert "\n" not in str(e.value) and len(str(e.value)) < 120
    assert s.action_to_string(c("AS")) == "AS" and s.action_to_string(with_signal(c("AS"), "drop")) == "AS:drop"
    assert s.action_to_string(prime_action(HEARTS)) == "H"


def test_from_hands_refuses_unknown_context():
    with pytest.raises(TekkasimError, match="unknown deal context score"):
        get_game("feskot").from_hands(MIXED, score=(1, 2))
