"""tekkasim-spades: the rules on concrete deals, the scoring, the contract on random playouts, records,
GREEDY, and tekkasim's command line end to end with the plug-in installed through its entry point."""

from __future__ import annotations

import ast
import json
import os
import random
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
from tekkasim_spades import RULESET
from tekkasim_spades import game as spades_game
from tekkasim_spades.game import BID_BASE, NIL, Spades, parse_action, trick_winner
from tekkasim_spades.greedy import Greedy, greedy_bid, greedy_card, sure_tricks

import tekkasim
from tekkasim import bits
from tekkasim.bits import new_rng
from tekkasim.bots import get_bot
from tekkasim.bots.base import RandomBot, decide
from tekkasim.bots.loop import play_deal
from tekkasim.cards import RANKS, SEATS, parse_card
from tekkasim.errors import IllegalAction, OptionError, RecordError, TekkasimError
from tekkasim.rules import get_game
from tekkasim.rules.base import freeze
from tekkasim.rulesets import register, unregister
from tekkasim.verify import verify_record

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
BOTTOM, RIGHT, TOP, LEFT = range(4)


@pytest.fixture(scope="module", autouse=True)
def spades_registered():
    """In process, the ruleset is registered as its entry point would have it found."""
    register(RULESET)
    yield
    unregister("spades")


def suit(letter: str, ranks: str = RANKS) -> list[str]:
    return [r + letter for r in ranks]


def c(text: str) -> int:
    return parse_card(text)


# Each seat holds one whole suit: bottom clubs, right diamonds, top hearts, left spades. With right dealing,
# bottom leads a club, left trumps, and left then leads spades to the end: left takes all 13 tricks,
# whatever is bid and whichever cards are played.
ONE_SUIT_EACH = {"bottom": suit("C"), "right": suit("D"), "top": suit("H"), "left": suit("S")}


def bid_all(state, bids: dict[int, int]) -> None:
    """Apply each seat's bid (0 = Nil) in turn order."""
    while state.phase() == "bid":
        state.apply_action(BID_BASE + bids[state.current_player()])


def play_first_legal(state) -> None:
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])


def all_to_left(bids: dict[int, int], **context):
    options = context.pop("options", {})
    state = Spades(**options).from_hands(ONE_SUIT_EACH, dealer="right", **context)
    bid_all(state, bids)
    play_first_legal(state)
    assert state.seat_tricks == [0, 0, 0, 13]
    return state


# --- the rules on concrete deals -------------------------------------------------------------------------


def test_deal_bidding_order_and_first_lead():
    state = get_game("spades").new_deal(11, dealer="top")
    assert state.phase() == "bid" and state.where() == "bidding, bid 1 (right)"
    assert sorted(len(row) for row in state.dealt) == [13] * 4
    assert sorted(sum(state.dealt, [])) == list(range(52))
    order = []
    while state.phase() == "bid":
        order.append(state.current_player())
        assert state.legal_actions() == list(range(NIL, BID_BASE + 14))
        state.apply_action(BID_BASE + 3)
    assert order == [RIGHT, BOTTOM, LEFT, TOP]  # clockwise from the dealer's left
    assert state.current_player() == RIGHT and state.where() == "trick 1, play 1 (right)"
    assert state.observation(TOP).public["bids"] == [(RIGHT, 3), (BOTTOM, 3), (LEFT, 3), (TOP, 3)]


def test_same_seed_same_deal():
    game = get_game("spades")
    assert game.new_deal(5).dealt == game.new_deal(5).dealt
    assert game.new_deal(5).dealt != game.new_deal(6).dealt
    # deck = 0..51 shuffled from the seed, dealt one at a time from the dealer's left (clockwise)
    deck = np.arange(52, dtype=np.int64)
    bits.shuffle(new_rng(5), deck)
    dealt = game.new_deal(5, dealer="left").dealt
    assert [dealt[s][0] for s in (TOP, RIGHT, BOTTOM, LEFT)] == deck[:4].tolist()


# bottom AS KS 2C..QC; left KC AC 2D..QD; top KD AD 2H..QH; right KH AH 2S..QS. Right deals, bottom leads.
MIXED = {
    "bottom": ["AS", "KS"] + suit("C", "23456789TJQ"),
    "left": ["KC", "AC"] + suit("D", "23456789TJQ"),
    "top": ["KD", "AD"] + suit("H", "23456789TJQ"),
    "right": ["KH", "AH"] + suit("S", "23456789TJQ"),
}


def test_spades_not_led_until_broken_and_following_suit():
    state = get_game("spades").from_hands(MIXED, dealer="right")
    bid_all(state, {BOTTOM: 2, LEFT: 2, TOP: 2, RIGHT: 5})
    assert state.current_player() == BOTTOM
    assert not state.observation(BOTTOM).public["broken"]
    assert all(a // 13 == 0 for a in state.legal_actions())  # clubs only: no spade lead yet
    with pytest.raises(IllegalAction) as err:
        state.apply_action(c("AS"))
    assert err.value.rule == "spades-not-broken"
    with pytest.raises(IllegalAction) as err:
        state.apply_action(BID_BASE + 4)
    assert err.value.rule == "wrong-phase"
    state.apply_action(c("2C"))
    assert state.current_player() == LEFT
    assert state.legal_actions() == [c("KC"), c("AC")]
    with pytest.raises(IllegalAction) as err:
        state.apply_action(c("5D"))  # left holds clubs
    assert err.value.rule == "follow-suit"
    with pytest.raises(IllegalAction) as err:
        state.apply_action(c("5H"))
    assert err.value.rule == "not-in-hand"
    state.apply_action(c("KC"))
    assert len(state.legal_actions()) == 13  # top is void in clubs: anything
    state.apply_action(c("2H"))
    state.apply_action(c("2S"))  # right trumps: spades are broken
    assert state.winners == [RIGHT] and state.current_player() == RIGHT
    obs = state.observation(TOP).public
    assert obs["broken"] and obs["voids"] == [0, 1, 1, 0]  # top and right failed to follow clubs
    assert obs["tricks"][0] == {"leader": BOTTOM, "plays": [(0, 0), (3, c("KC")), (2, c("2H")), (1, c("2S"))],
                                "winner": RIGHT}  # fmt: skip
    assert c("QS") in state.legal_actions()  # right may now lead a spade


def test_a_leader_holding_only_spades_may_lead_one():
    state = get_game("spades").from_hands(ONE_SUIT_EACH, dealer="bottom")  # left leads, all spades
    bid_all(state, {LEFT: 13, TOP: 1, RIGHT: 1, BOTTOM: 1})
    assert state.current_player() == LEFT and not state.broken
    assert state.legal_actions() == [c(t) for t in suit("S")]
    state.apply_action(c("2S"))
    assert state.broken


@pytest.mark.parametrize(
    "plays, winner",
    [
        ([(0, "AH"), (1, "2S"), (2, "KH"), (3, "3S")], 3),  # the highest spade
        ([(0, "5H"), (1, "AD"), (2, "KH"), (3, "AC")], 2),  # no spade: the highest of the suit led
        ([(2, "2D"), (3, "AH"), (0, "AC"), (1, "3D")], 1),
        ([(1, "2S"), (2, "AH"), (3, "AD"), (0, "AC")], 1),  # a spade lead wins over higher side cards
    ],
)
def test_trick_winner(plays, winner):
    assert trick_winner([(s, c(t)) for s, t in plays]) == winner


def test_nil_off():
    game = get_game("spades", nil=False)
    state = game.new_deal(1)
    assert state.legal_actions() == list(range(BID_BASE + 1, BID_BASE + 14))
    with pytest.raises(IllegalAction) as err:
        state.apply_action(NIL)
    assert err.value.rule == "nil-off"
    with pytest.raises(OptionError):
        get_game("spades", target=0)
    with pytest.raises(OptionError):
        get_game("spades", lose_at=-1)


# --- scoring --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bids, bags_before, expected",
    [
        # contract made exactly, and set
        ({LEFT: 12, RIGHT: 1, BOTTOM: 1, TOP: 1}, (0, 0),
         {"score": {"A": -20, "B": 130}, "bags": {"A": 0, "B": 0}, "made": {"A": False, "B": True}}),
        # made with overtricks: one point and one bag each
        ({LEFT: 10, RIGHT: 1, BOTTOM: 1, TOP: 1}, (0, 0),
         {"score": {"A": -20, "B": 112}, "bags": {"A": 0, "B": 2}, "bags_after": {"A": 0, "B": 2}}),
        # two Nils made
        ({LEFT: 10, RIGHT: 1, BOTTOM: 0, TOP: 0}, (0, 0),
         {"score": {"A": 200, "B": 112}, "contract": {"A": 0, "B": 11},
          "nil": [{"seat": "bottom", "made": True}, {"seat": "top", "made": True}]}),
        # Nil failed: its 13 tricks are bags, not part of partner's contract of 1 (set); 13 bags cost 100
        ({LEFT: 0, RIGHT: 1, BOTTOM: 1, TOP: 1}, (0, 0),
         {"score": {"A": -20, "B": -10 - 100 + 13 - 100}, "bags": {"A": 0, "B": 13},
          "bag_penalty": {"A": 0, "B": -100}, "bags_after": {"A": 0, "B": 3}, "made": {"A": False, "B": False},
          "nil": [{"seat": "left", "made": False}]}),
        # the tenth bag costs 100 and the count restarts
        ({LEFT: 10, RIGHT: 1, BOTTOM: 1, TOP: 1}, (0, 8),
         {"score": {"A": -20, "B": 12}, "bag_penalty": {"A": 0, "B": -100}, "bags_after": {"A": 0, "B": 0}}),
        ({LEFT: 10, RIGHT: 1, BOTTOM: 1, TOP: 1}, (0, 7),
         {"score": {"A": -20, "B": 112}, "bag_penalty": {"A": 0, "B": 0}, "bags_after": {"A": 0, "B": 9}}),
        # 9 bags + 13 = 22: twice
        ({LEFT: 0, RIGHT: 1, BOTTOM: 1, TOP: 1}, (0, 9),
         {"score": {"A": -20, "B": -10 - 100 + 13 - 200}, "bags_after": {"A": 0, "B": 2}}),
    ],
)  # fmt: skip
def test_scoring(bids, bags_before, expected):
    state = all_to_left(bids, bags=bags_before)
    result = state.result()
    for key, value in expected.items():
        assert result[key] == value, key
    assert state.returns() == (float(result["score"]["A"]), float(result["score"]["B"]))
    assert result["tricks"] == {"A": 0, "B": 13}


def test_returns_only_at_the_end():
    state = get_game("spades").new_deal(3)
    for method in (state.returns, state.result, state.next_deal_context):
        with pytest.raises(TekkasimError):
            method()
    assert state.match_winner() is None


@pytest.mark.parametrize(
    "bids, score, options, winner",
    [
        ({LEFT: 10, RIGHT: 1, BOTTOM: 1, TOP: 1}, (0, 400), {}, 1),  # B 400 + 112 = 512
        ({LEFT: 10, RIGHT: 1, BOTTOM: 1, TOP: 1}, (0, 300), {}, None),
        ({LEFT: 10, RIGHT: 1, BOTTOM: 0, TOP: 0}, (300, 400), {}, 1),  # both past 500: the higher
        ({LEFT: 10, RIGHT: 1, BOTTOM: 0, TOP: 0}, (312, 400), {}, None),  # 512 - 512: play on
        ({LEFT: 10, RIGHT: 1, BOTTOM: 1, TOP: 1}, (-170, 0), {}, None),  # A -190
        ({LEFT: 10, RIGHT: 1, BOTTOM: 1, TOP: 1}, (-190, 0), {}, 1),  # A -210: loses
        ({LEFT: 10, RIGHT: 1, BOTTOM: 1, TOP: 1}, (-190, 0), {"lose_at": 0}, None),
        ({LEFT: 10, RIGHT: 1, BOTTOM: 1, TOP: 1}, (0, 0), {"target": 100}, 1),
        ({LEFT: 0, RIGHT: 1, BOTTOM: 1, TOP: 1}, (-190, -100), {}, 0),  # both at -200 or less: the higher
    ],
)
def test_match_end(bids, score, options, winner):
    state = all_to_left(bids, score=score, options=options)
    assert state.match_winner() == winner
    assert state.result()["match_winner"] == (None if winner is None else "AB"[winner])


def test_next_deal_context_and_a_match():
    state = all_to_left({LEFT: 10, RIGHT: 1, BOTTOM: 1, TOP: 1}, score=(40, 50), bags=(3, 8))
    ctx = state.next_deal_context()
    assert ctx == {"dealer": BOTTOM, "score": (20, 62), "bags": (3, 0)}  # the dealer's left deals next
    nxt = get_game("spades").new_deal(9, **ctx)
    assert nxt.current_player() == LEFT and nxt.observation(TOP).public["score"] == (20, 62)
    assert nxt.observation(TOP).public["bags"] == (3, 0)
    # a whole match of GREEDY: deals chain until a team reaches 500 or falls to -200
    game = get_game("spades")
    bots = [get_bot("GREEDY", ruleset="spades")] * 4
    context, dealers = {}, []
    for j in range(200):
        deal = game.new_deal(100 + j, **context)
        dealers.append(deal.dealer)
        play_deal(deal, bots, 100 + j)
        if deal.match_winner() is not None:
            break
        context = deal.next_deal_context()
    after = deal.score_after()
    assert max(after) >= 500 or min(after) <= -200
    assert dealers[:4] == [BOTTOM, LEFT, TOP, RIGHT][: len(dealers[:4])]


# --- the contract on random playouts ---------------------------------------------------------------------


def check_resample(state, seat: int, rng) -> None:
    world = state.resample(seat, rng)
    assert world.information_key(seat) == state.information_key(seat)
    assert world.seed is None and world.history() == state.history()
    assert world.hands[seat] == state.hands[seat]
    for s in range(4):
        assert world.hands[s].bit_count() == state.hands[s].bit_count()
        for card in range(52):
            if world.hands[s] >> card & 1:
                assert not state.voids[s] >> (card // 13) & 1  # no card of a suit it showed void in
        assert world.dealt[s] == sorted(world.dealt[s])  # the true order dealt stays hidden
    assert sum(h.bit_count() for h in world.hands) == sum(h.bit_count() for h in state.hands)
    assert sorted(sum(world.dealt, [])) == list(range(52))


def check_decision(state, rng: random.Random, krng) -> None:
    legal = state.legal_actions()
    assert legal and legal == sorted(set(legal))
    seat = state.current_player()
    key = [state.information_key(s) for s in range(4)]
    assert key == [freeze(state.observation(s)) for s in range(4)]
    assert len(set(key)) == 4
    obs = state.observation(seat)
    assert obs.hand == state.hands[seat] and obs.private == {}
    # an action not allowed now is refused and changes nothing
    bad = [a for a in list(range(52)) + list(range(BID_BASE, BID_BASE + 14)) if a not in legal]
    for a in rng.sample(bad, min(3, len(bad))) + [-1, 52, BID_BASE + 14, True, "AS", None]:
        with pytest.raises(IllegalAction):
            state.apply_action(a)
    assert [state.information_key(s) for s in range(4)] == key
    # clone: independent
    twin = state.clone()
    twin.apply_action(legal[0])
    assert state.legal_actions() == legal and len(twin.history()) == len(state.history()) + 1
    assert all(state.action_to_string(a) and state.string_to_action(state.action_to_string(a)) == a for a in legal)
    with pytest.raises(TekkasimError):
        state.returns()
    if rng.random() < 0.2:
        for s in range(4):
            check_resample(state, s, krng)


@pytest.mark.parametrize("seed", range(12))
def test_random_playouts_follow_the_contract(seed):
    game = get_game("spades") if seed % 3 else get_game("spades", nil=False)
    state = game.new_deal(seed, dealer=seed % 4)
    rng, krng = random.Random(seed), new_rng(seed)
    while not state.is_terminal():
        check_decision(state, rng, krng)
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == [] and state.current_player() == -1 and state.phase() == "terminal"
    with pytest.raises(IllegalAction):
        state.apply_action(0)
    assert len(state.history()) == 4 + 52
    assert sum(state.seat_tricks) == 13
    record = json.loads(json.dumps(state.to_record()))
    verdict = verify_record(record)
    assert verdict.ok and verdict.result == state.result()
    back, actions = game.from_record(record)
    for text in actions:
        back.apply_action(back.string_to_action(text))
    assert back.history() == state.history() and back.result() == state.result()
    assert back.to_record() == state.to_record()


def test_resample_worlds_vary_and_the_exact_draw_is_uniform(monkeypatch):
    state = get_game("spades").from_hands(MIXED, dealer="right")
    bid_all(state, {BOTTOM: 2, LEFT: 2, TOP: 2, RIGHT: 5})
    for card in ("2C", "KC", "2H", "2S"):
        state.apply_action(c(card))
    rng = new_rng(1)
    worlds = {tuple(state.resample(BOTTOM, rng).hands) for _ in range(20)}
    assert len(worlds) > 10
    monkeypatch.setattr(spades_game, "REJECTION_TRIES", 0)  # every world by the exact count
    for _ in range(20):
        check_resample(state, BOTTOM, rng)
    # uniform over the 36 deals of 2C 3C 2D 3D 2H 3H into three hands of 2, the first void in clubs
    pool = [c(t) for t in ("2C", "3C", "2D", "3D", "2H", "3H")]
    counts: dict = {}
    for _ in range(3600):
        hands = spades_game._draw_counted(pool, [2, 2, 2], [1, 0, 0], rng)
        assert not any(card // 13 == 0 for card in hands[0])
        key = tuple(tuple(sorted(h)) for h in hands)
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 36 and 55 < min(counts.values()) and max(counts.values()) < 150


def test_records_refuse_bad_headers():
    game = get_game("spades")
    record = game.new_deal(4).to_record()
    with pytest.raises(RecordError):
        game.from_record({**record, "dealer": "north"})
    with pytest.raises(RecordError):
        game.from_record({**record, "hands": {**record["hands"], "top": record["hands"]["bottom"]}})
    with pytest.raises(RecordError):
        game.from_record({**record, "trump": "H"})
    with pytest.raises(RecordError):
        game.from_record({**record, "bids": ["1"], "tricks": [["2C"]]})
    with pytest.raises(RecordError):
        game.from_record({**record, "bags_before": {"A": -1, "B": 0}})
    assert verify_record(record).ok and verify_record(record).unfinished
    bad = {**record, "bids": ["3", "3", "3", "14"], "unfinished": True}
    assert not verify_record(bad).ok and "bid 4" in verify_record(bad).error
    assert parse_action("10h") == c("TH") and parse_action("nil") == parse_action("0") == NIL
    assert parse_action("13") == BID_BASE + 13


def test_a_played_record_with_a_wrong_result_is_refused():
    state = all_to_left({LEFT: 10, RIGHT: 1, BOTTOM: 1, TOP: 1})
    record = state.to_record()
    assert verify_record(record).ok
    record["result"] = {**record["result"], "score": {"A": 0, "B": 112}}
    assert "differs" in verify_record(record).error
    record = state.to_record()
    assert record["tricks"][:2] == [["2C", "2S", "2H", "2D"], ["3S", "3H", "3D", "3C"]]
    record["tricks"][1] = ["3C", "3S", "3H", "3D"]  # left won trick 1 and leads trick 2, not bottom
    assert "trick 2, play 1 (left)" in verify_record(record).error


# --- GREEDY ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand, tricks",
    [
        ("AS KS QS 5S 4S AH KH 2H KD 3C 4C 5C 6C", 7),  # AKQ 3 + 2 long spades, A and guarded K of hearts
        ("2S 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 7H 8H", 3),  # six spades: three beyond the third
        ("KC 2D 3D 4D 5D 6D 7D 8D 2H 3H 4H 5H 6H", 0),  # a bare King counts nothing
    ],
)
def test_greedy_bid(hand, tricks):
    mask = sum(1 << c(t) for t in hand.split())
    assert sure_tricks(mask) == tricks
    assert greedy_bid(mask) == max(1, tricks)


def test_greedy_plays():
    def trick(*plays):
        return [{"leader": plays[0][0], "plays": [(s, c(t)) for s, t in plays], "winner": None}]

    cards = [c(t) for t in ("4H", "9H", "KH")]
    assert greedy_card(TOP, cards, trick((BOTTOM, "TH"), (LEFT, "JH"))) == c("KH")  # cheapest winner
    assert greedy_card(TOP, cards, trick((BOTTOM, "QH"), (LEFT, "JH"))) == c("4H")  # partner is winning
    assert greedy_card(TOP, cards, trick((BOTTOM, "TH"), (LEFT, "AH"))) == c("4H")  # cannot win
    void = [c(t) for t in ("2C", "5S", "9S")]
    assert greedy_card(TOP, void, trick((BOTTOM, "TH"), (LEFT, "AH"))) == c("5S")  # trumps cheaply
    assert greedy_card(TOP, void, trick((BOTTOM, "AH"), (LEFT, "TH"))) == c("2C")  # partner: throws low
    done = [{"leader": 0, "plays": [(0, 1), (3, 2), (2, 3), (1, 4)], "winner": 1}]
    assert greedy_card(TOP, [c(t) for t in ("2C", "AD", "AS")], done) == c("AD")  # leads a side Ace
    assert greedy_card(TOP, [c(t) for t in ("3C", "2D", "2S")], []) == c("2D")  # else its lowest card


def test_greedy_is_the_rulesets_bot_and_beats_random():
    bot = get_bot("GREEDY", ruleset="spades")
    assert type(bot) is Greedy and bot.plays("spades") and not bot.plays("feskot")
    game = get_game("spades")
    margin = 0.0
    for seed in range(10):  # duplicate: GREEDY as A at table 0, as B at table 1
        a = play_deal(game.new_deal(seed), [bot, RandomBot()] * 2, seed, 0).returns()
        b = play_deal(game.new_deal(seed), [RandomBot(), bot] * 2, seed, 1).returns()
        margin += (a[0] - a[1]) + (b[1] - b[0])
    assert margin > 0
    state = game.new_deal(2)
    assert decide(bot, state, state.current_player(), 1) == BID_BASE + greedy_bid(state.hands[LEFT])


# --- the package: imports and entry point -----------------------------------------------------------------

ALLOWED = {"tekkasim.rules.base", "tekkasim.errors", "tekkasim.cards", "tekkasim.bits", "tekkasim.bots.base",
           "tekkasim.rulesets"}  # fmt: skip


def test_the_plugin_imports_only_the_contract():
    for path in (PACKAGE_ROOT / "tekkasim_spades").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module.split(".")[0] == "tekkasim":
                modules = {f"tekkasim.{a.name}" for a in node.names} if node.module == "tekkasim" else {node.module}
                assert modules <= ALLOWED, (path.name, modules)
            if isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] != "tekkasim" or a.name in ALLOWED for a in node.names)


def test_entry_point_names_the_ruleset():
    meta = tomllib.loads((PACKAGE_ROOT / "pyproject.toml").read_text())
    assert meta["project"]["entry-points"]["tekkasim.rulesets"] == {"spades": "tekkasim_spades:RULESET"}
    assert RULESET.name == "spades" and RULESET.game_class() is Spades
    assert RULESET.bot_class("GREEDY") is Greedy


# --- the command line end to end ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """A site directory holding the package and its entry point: ``$SPADES_SITE`` (e.g. a ``pip install
    --target``), else one laid out from pyproject.toml as an install would leave it."""
    if os.environ.get("SPADES_SITE"):
        return Path(os.environ["SPADES_SITE"])
    root = tmp_path_factory.mktemp("site")
    shutil.copytree(PACKAGE_ROOT / "tekkasim_spades", root / "tekkasim_spades")
    meta = tomllib.loads((PACKAGE_ROOT / "pyproject.toml").read_text())["project"]
    info = root / f"tekkasim_spades-{meta['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n")
    lines = [f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) for group, eps in
             meta["entry-points"].items()]  # fmt: skip
    (info / "entry_points.txt").write_text("\n".join(lines))
    return root


def _env(site: Path) -> tuple[dict, Path]:
    """The environment of a fresh process that finds the plug-in through its entry point, and this
    tekkasim (the checkout these tests import) ahead of any installed one."""
    here = Path(tekkasim.__file__).resolve().parents[1]
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(here)])}, here


def tekkasim_cli(site: Path, *args: str, stdin: str | None = None):
    """``python -m tekkasim ARGS`` in a fresh process."""
    env, here = _env(site)
    run = [sys.executable, "-m", "tekkasim", *args]
    return subprocess.run(run, input=stdin, capture_output=True, text=True, env=env, cwd=here, timeout=600)


# Several commands in one fresh process, one after the other (as many runs of ``python -m tekkasim``, without
# paying the start-up of each): a list of {"code", "stdout", "stderr"}.
_BATCH = """
import contextlib, io, json, runpy, sys
out = []
for argv in json.loads(sys.argv[1]):
    sys.argv = ["tekkasim", *argv]
    buf, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
        try:
            runpy.run_module("tekkasim", run_name="__main__", alter_sys=True)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out.append({"code": code, "stdout": buf.getvalue(), "stderr": err.getvalue()})
print(json.dumps(out))
"""


def tekkasim_batch(site: Path, *commands: list[str]) -> list[dict]:
    env, here = _env(site)
    done = subprocess.run(
        [sys.executable, "-c", _BATCH, json.dumps(commands)], capture_output=True, text=True, env=env, cwd=here,
        timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout.splitlines()[-1])
    for argv, result in zip(commands, results, strict=True):
        assert result["code"] == 0, (argv, result["stderr"][-2000:])
    return results


def ok(done) -> str:
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_cli_rules_deal_play_verify(site, tmp_path):
    path = tmp_path / "played.jsonl"
    rules, deal, deal_json, _, verify = tekkasim_batch(
        site,
        ["rules"],
        ["deal", "--ruleset", "spades", "--seed", "3", "--first", "top"],
        ["deal", "-r", "spades", "-s", "3", "--json"],
        ["play", "-r", "spades", "-n", "20", "--match", "-o", "target=300", "--out", str(path)],
        ["verify", str(path)],
    )
    assert "spades: Partnership Spades" in rules["stdout"] and "target = 500" in rules["stdout"]
    assert "dealer top" in deal["stdout"] and "next: bidding, bid 1 (right)" in deal["stdout"]
    record = json.loads(deal_json["stdout"])
    assert record == get_game("spades").new_deal(3).to_record() and record["unfinished"]
    assert verify["stdout"].count(": ok") == 20 and "20 of 20 records legal" in verify["stderr"]
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert {r["match"] for r in records} and all(r["options"] == {"target": 300} for r in records)


def test_cli_tournament_report_export_verify_replay(site, tmp_path):
    run, matches, records, table = tmp_path / "run", tmp_path / "matches", tmp_path / "f.jsonl", tmp_path / "m.jsonl"
    results = tekkasim_batch(
        site,
        ["tournament", "--ruleset", "spades", "--bots", "RANDOM,GREEDY", "--boards", "6", "--seed", "1",
         "--out", str(run), "-w", "1", "-q"],
        ["report", str(run), "--json"],
        ["export", str(run), "--out", str(records)],
        ["verify", str(records)],
        ["replay", str(records), "--deal", "0"],
        ["tournament", "-r", "spades", "-b", "RANDOM,GREEDY", "-n", "1", "--unit", "match", "-O", str(matches),
         "-w", "1", "-q"],
        ["export", str(matches), "--out", str(table)],
        ["verify", str(table), "--json"],
    )  # fmt: skip
    tournament, report, _, verify, replay, _, _, verify_matches = results
    assert "GREEDY" in tournament["stdout"]
    report = json.loads(report["stdout"])
    assert report["ruleset"] == "spades" and report["pairs"] == 6 and report["complete"]
    assert {b["name"] for b in report["bots"]} == {"RANDOM", "GREEDY"}
    assert verify["stdout"].count(": ok") == 12 and "12 of 12 records legal" in verify["stderr"]
    out = replay["stdout"]
    assert "spades · seed 1 · dealer bottom" in out and "\nresult: contract" in out and out.count("*") == 13
    assert all(json.loads(line)["ok"] for line in verify_matches["stdout"].splitlines())
    deals = [json.loads(line) for line in table.read_text().splitlines()]
    for t in ("t0", "t1"):  # each table's match: deals 0, 1, ... and a winner on the last one only
        mine = [r for r in deals if r["match"].endswith(t)]
        assert [r["deal_no"] for r in mine] == list(range(len(mine)))
        assert [r["result"]["match_winner"] is not None for r in mine] == [False] * (len(mine) - 1) + [True]


def test_cli_sprt(site):
    (sprt,) = tekkasim_batch(
        site,
        ["sprt", "-r", "spades", "--bot", "GREEDY", "--bot", "RANDOM", "--elo0", "0", "--elo1", "200",
         "--max-pairs", "12", "-w", "1", "-q", "--json"],
    )  # fmt: skip
    out = json.loads(sprt["stdout"])
    assert out["verdict"] in ("H1", "inconclusive") and out["wins"] > out["losses"]


def test_cli_engine_serves_greedy(site):
    state = get_game("spades").new_deal(8)
    bid_all(state, {LEFT: 3, TOP: 4, RIGHT: 2, BOTTOM: 5})
    state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    decide_msg = {"type": "decide", "id": 7, "ruleset": "spades", "options": {}, "seat": SEATS[seat],
                  "observation": {}, "legal": [state.action_to_string(a) for a in state.legal_actions()],
                  "optional": False, "time_ms": 1000, "seed": 5, "world": state.to_record()}  # fmt: skip
    lines = [{"type": "hello", "protocol": 1}, decide_msg, {"type": "quit"}]
    out = ok(tekkasim_cli(site, "engine", "GREEDY", stdin="".join(json.dumps(m) + "\n" for m in lines)))
    hello, answer = (json.loads(line) for line in out.splitlines())
    assert "spades" in hello["rulesets"] and hello["name"] == "GREEDY"
    expected = decide(get_bot("GREEDY", ruleset="spades"), state, seat, 5)
    assert answer == {"type": "action", "id": 7, "action": state.action_to_string(expected)}


def test_cli_engine_bot_in_a_tournament_plays_as_in_process(site, tmp_path):
    """``engine:COMMAND`` serving GREEDY plays the same deals as GREEDY in process (runs.md's seats and
    seeds: board i from seed S+i, team X at bottom/top at table 0, at right/left at table 1)."""
    engine = f"engine:{sys.executable} -m tekkasim engine GREEDY"
    tekkasim_batch(
        site,
        ["tournament", "-r", "spades", "-b", f"{engine},RANDOM", "-n", "2", "-s", "4", "-O", str(tmp_path / "run"),
         "-w", "1", "-q"],
        ["export", str(tmp_path / "run"), "--out", str(tmp_path / "f.jsonl")],
    )  # fmt: skip
    records = [json.loads(line) for line in (tmp_path / "f.jsonl").read_text().splitlines()]
    assert len(records) == 4
    game, greedy, rand = get_game("spades"), get_bot("GREEDY", ruleset="spades"), RandomBot()
    for record in records:
        seat_bots = [greedy if record["bots"][seat] == "GREEDY" else rand for seat in SEATS]
        table = 0 if record["bots"]["bottom"] == "GREEDY" else 1
        state = play_deal(game.new_deal(record["seed"]), seat_bots, record["seed"], table)
        assert state.to_record()["tricks"] == record["tricks"] and state.result() == record["result"]


def test_engines_people_and_renderings_see_the_bids():
    """``public_record_fields``: the bids reach an engine's decide message (and so a person at the table)
    and ``deal``/``replay``'s rendering; the other seats' hands never do."""
    from tekkasim.bots.base import View
    from tekkasim.bots.engines.protocol import decide_message
    from tekkasim.render import render_state

    state = get_game("spades").new_deal(5)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    line, _allowed = decide_message(View(state, seat), 1, "spades", {}, 0, 7)
    obs = json.loads(line)["observation"]
    assert len(obs["record"]["bids"]) == 3 and "bags_before" in obs["record"]
    assert list(obs["record"]["hands"]) == [SEATS[seat]]
    assert "bids: " in render_state(state)


def test_cli_check_ruleset_and_the_generic_search_bots(site, tmp_path):
    """Through its entry point, Spades passes the conformance check, and the generic search bots PIMC and
    ISMCTS play it in a tournament with RANDOM and its own GREEDY (a few boards at small budgets)."""
    run = tmp_path / "search"
    check, tournament, report = tekkasim_batch(
        site,
        ["check-ruleset", "spades", "--deals", "6", "--seed", "11"],
        ["tournament", "-r", "spades", "-b", "RANDOM,GREEDY,PIMC:worlds=2,ISMCTS:iterations=24", "-n", "2",
         "-s", "5", "--out", str(run), "-w", "1", "-q"],
        ["report", str(run), "--json"],
    )  # fmt: skip
    assert check["code"] == 0 and "no violation" in check["stderr"]
    assert tournament["code"] == 0
    names = {b["name"] for b in json.loads(report["stdout"])["bots"]}
    assert {"RANDOM", "GREEDY"} <= names and any(n.startswith("PIMC") for n in names)
    assert any(n.startswith("ISMCTS") for n in names)
