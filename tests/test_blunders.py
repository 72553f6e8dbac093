"""Blunder profiles (tekkasim.analysis.blunders, `tekkasim blunders`): costs of known cards, decision
kinds on concrete tricks, the Tekka auction's rollout seeds, the JSON keys, the doc sections and bad
input as one line."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.analysis.blunders import (
    DealResult,
    Decision,
    blunder_profiles,
    card_costs,
    card_kind,
    paired_difference,
    profile_deal,
    step,
    write_doc,
)
from tekkasim.analysis.duplicate import AnalysisError
from tekkasim.bots import decide, get_bot, mix_seed
from tekkasim.cards import parse_card
from tekkasim.cli import cli
from tekkasim.ratings import Z95
from tekkasim.rules import get_game
from tekkasim.rulesets.tekka.blunders import finish_auction
from tekkasim.solver import Position
from tekkasim.tournament.play import play_deal_state

PROFILE_KEYS = {
    "ruleset",
    "bot",
    "deals",
    "unit",
    "decisions",
    "mean_lost",
    "mean_lo",
    "mean_hi",
    "share_ge1",
    "share_ge1_lo",
    "share_ge1_hi",
    "share_ge2",
    "share_ge2_lo",
    "share_ge2_hi",
    "kinds",
    "unmeasured",
    "mistakes",
    "d13",
}
MISTAKE_KEYS = {"decisions", "ratio", "lo", "hi", "mean_cost", "mean_other_cost"}
STAT_KEYS = {"mean_lost", "mean_lo", "mean_hi", "share_ge1", "share_ge1_lo", "share_ge1_hi"}
STAT_KEYS |= {"share_ge2", "share_ge2_lo", "share_ge2_hi"}


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def one_line_error(result, *words):
    assert result.exit_code != 0, result.output
    lines = [line for line in result.output.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert all(w in lines[0] for w in words), lines[0]


def cards(text):
    return [parse_card(c) for c in text.split()]


# Trick 12 of a Feskot deal, spades trump and out: right led 2C, top won it with AC, left followed.
# Bottom, void in clubs, keeps AH or 2D. Top must lead 3H next: AH wins that trick, KH beats 2D.
ENDING = Position(
    {"bottom": "AH 2D", "right": "KH", "top": "3H", "left": "QH"}, "S", "right", ("2C", "AC", "3C"), "feskot"
)


def test_discarding_the_ace_costs_exactly_one_trick():
    assert card_costs(ENDING) == {parse_card("AH"): 1, parse_card("2D"): 0}
    assert {card_kind(ENDING, c) for c in cards("AH 2D")} == {"discard"}


def test_card_kinds_on_concrete_tricks():
    lead = Position({"bottom": "AS 2H", "right": "KS 3H", "top": "QS 4H", "left": "JS 5H"}, "H", "bottom")
    assert card_kind(lead, parse_card("AS")) == "lead"
    # right led a spade, hearts are Prime: bottom with spades follows; bottom void in spades ruffs with
    # 2H or discards 3C
    others = {"right": "4D 5D", "top": "5S 6H", "left": "7S 8H"}
    spades = Position({"bottom": "KS TS 2C", **others}, "H", "right", ("4S", "JS", "9S"), "feskot")
    assert [card_kind(spades, c) for c in cards("KS TS")] == ["follow", "follow"]
    void = Position({"bottom": "2H 3C 4C", **others}, "H", "right", ("4S", "JS", "9S"), "feskot")
    assert [card_kind(void, c) for c in cards("2H 3C")] == ["ruff", "discard"]
    # Satat (clockwise: bottom, left, top, right), Troupe clubs. After a 2♥ lead the suit to follow is
    # Troupe; the 2♥ played to another's trick is a ruff whatever the suit led.
    satat = Position(
        {"bottom": "3C 4D", "left": "5C 6D", "top": "7C 8D", "right": "9D"}, "C", "right", ("2H",), "satat"
    )
    assert card_kind(satat, parse_card("3C")) == "follow"
    assert card_kind(satat, parse_card("4D")) == "discard"
    led = Position({"bottom": "2H 4D", "left": "5C 6D", "top": "7C 8D", "right": "9D"}, "C", "right", ("JD",), "satat")
    assert card_kind(led, parse_card("2H")) == "ruff"
    assert card_kind(led, parse_card("4D")) == "follow"


def test_a_bots_profile_prices_its_cards_by_the_solver():
    """Every priced card of a deal costs what card_costs says of that position, replayed from the record."""
    game = get_game("feskot")
    bot = get_bot("KADO", ruleset="feskot")
    res = profile_deal(game, bot, 250000)
    assert res.decisions and {d.kind for d in res.decisions} <= {"lead", "follow", "discard", "ruff", "prime"}
    state = play_deal_state(game.new_deal(250000), [bot] * 4, 250000, 0)
    replay = game.new_deal(250000)
    prime, *plays = state.history()
    replay.apply_action(prime)
    priced = iter(d for d in res.decisions if d.kind != "prime")
    for a in plays:
        costs = card_costs(replay)
        if len(costs) > 1:
            d = next(priced)
            assert d.seat == replay.current_player() and d.cost == costs[a % 52]
        replay.apply_action(a)
    assert next(priced, None) is None
    assert all(d.cost >= 0 for d in res.decisions)
    slips = [d for d in res.decisions if d.slip]
    assert slips and all(d.other >= 0 for d in slips)


def test_mistake_free_bot_has_no_slip_measure():
    report = blunder_profiles(["feskot"], ["KADO:mistake_rate=0"], seed=5, deals=1)
    assert report["profiles"][0]["mistakes"] is None


def test_auction_rollout_reproduces_the_tournaments_lap():
    """A call's lap is finished with the seeds the tournament gives the later calls: the call really made
    leads to the contract really played."""
    game = get_game("tekka")
    bot = get_bot("KADO", ruleset="tekka")
    for seed in range(250000, 250006):
        played = play_deal_state(game.new_deal(seed), [bot] * 4, seed, 0)
        state = game.new_deal(seed)
        first = decide(bot, state, state.current_player(), mix_seed(seed, 0, 0))
        assert finish_auction(state, first, bot, seed) == played.contract()
        assert state.history() == []


def test_json_keys_and_tekka_extras():
    out = run(
        "blunders", "-r", "feskot", "-r", "tekka", "--bot", "KADO", "--bot", "TANA", "-n", 1, "--seed", 9, "--json"
    )
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert set(report) == {"seed", "deals", "options", "profiles", "steps"}
    assert [(s["ruleset"], s["first"], s["second"]) for s in report["steps"]] == [
        ("feskot", "KADO", "TANA"),
        ("tekka", "KADO", "TANA"),
    ]
    for s in report["steps"]:
        assert set(s) == {"ruleset", "first", "second", "deals", "kinds"} | STAT_KEYS
        assert list(s["kinds"]) == ["lead", "follow", "discard", "ruff", "prime"]  # trick kinds only
        assert all(set(k) == STAT_KEYS - {"share_ge1", "share_ge1_lo", "share_ge1_hi"} for k in s["kinds"].values())
    assert [(p["ruleset"], p["bot"]) for p in report["profiles"]] == [
        ("feskot", "KADO"),
        ("feskot", "TANA"),
        ("tekka", "KADO"),
        ("tekka", "TANA"),
    ]
    for p in report["profiles"]:
        assert set(p) == PROFILE_KEYS
        assert set(p["mistakes"]) == MISTAKE_KEYS
        expect = ["lead", "follow", "discard", "ruff", "prime"] + (["bid"] if p["ruleset"] == "tekka" else [])
        assert list(p["kinds"]) == expect
        for kind, k in p["kinds"].items():
            assert k["unit"] == ("points" if kind == "bid" else "tricks")
            assert set(k) == PROFILE_KEYS - {"ruleset", "bot", "deals", "kinds", "unmeasured", "d13"}
        assert p["decisions"] == sum(k["decisions"] for kind, k in p["kinds"].items() if kind != "bid")
        if p["ruleset"] == "tekka":
            assert set(p["d13"]) == {"deals_called", "unmakeable", "unmakeable_per_200", "inexact"}
            assert p["kinds"]["bid"]["decisions"] >= 1
        else:
            assert p["d13"] is None


def test_workers_do_not_change_the_profile():
    one = blunder_profiles(["satat"], ["KADO"], seed=3, deals=2, workers=1)
    two = blunder_profiles(["satat"], ["KADO"], seed=3, deals=2, workers=2)
    assert one == two


def test_doc_sections_are_replaced_and_the_rest_kept(tmp_path):
    report = blunder_profiles(["feskot"], ["KADO"], seed=3, deals=1)
    doc = tmp_path / "blunders.md"
    doc.write_text("# Blunders\n\nDefinitions stay.\n")
    write_doc(str(doc), report, "cmd one")
    write_doc(str(doc), report, "cmd two", key="search")
    write_doc(str(doc), report, "cmd three")
    text = doc.read_text()
    assert text.startswith("# Blunders\n\nDefinitions stay.\n")
    assert text.count("<!-- blunders:feskot:begin") == 1 and text.count("<!-- blunders:search-feskot:begin") == 1
    assert "cmd three" in text and "cmd two" in text and "cmd one" not in text
    assert text.index("blunders:feskot:begin") < text.index("blunders:search-feskot:begin")
    fresh = tmp_path / "new" / "dir" / "blunders.md"  # a directory that does not exist yet is made
    write_doc(str(fresh), report, "cmd four")
    assert "cmd four" in fresh.read_text() and not list(fresh.parent.glob("*.part"))


@pytest.mark.parametrize(
    "args, words",
    [
        (["-r", "shengji"], ["shengji", "double-dummy"]),
        (["-r", "bridge"], ["bridge"]),
        (["--bot", "NOPE"], ["NOPE"]),
        (["--bot", "KADO:mistake_rate=2"], ["mistake_rate"]),
        (["-o", "nonsense=1"], ["nonsense"]),
        (["-n", "0"], ["deals"]),
        (["-w", "0"], ["workers"]),
        (["--seed", "-1"], ["seed"]),
        (["-r", "satat", "--bot", "ATOUTE", "-r", "feskot"], ["ATOUTE"]),
    ],
)
def test_bad_input_is_one_line(args, words):
    one_line_error(run("blunders", *args), *words)


def naive_difference(num1, den1, num2, den2):
    """The slow twin of ``paired_difference``: the two ratios, and the variance of their difference from
    each deal's linearized contribution, summed in loops."""
    n = len(num1)
    r1, r2 = sum(num1) / sum(den1), sum(num2) / sum(den2)
    var = 0.0
    for i in range(n):
        e = (num1[i] - r1 * den1[i]) / sum(den1) - (num2[i] - r2 * den2[i]) / sum(den2)
        var += e * e
    se = math.sqrt(var * n / (n - 1))
    return r1 - r2, r1 - r2 - Z95 * se, r1 - r2 + Z95 * se


deal_counts = st.lists(
    st.tuples(st.integers(1, 40), st.integers(0, 40), st.integers(1, 40), st.integers(0, 40)), min_size=2, max_size=30
)


@settings(max_examples=300)
@given(deal_counts)
def test_paired_difference_matches_its_twin(rows):
    den1 = [a for a, _, _, _ in rows]
    num1 = [min(a, b) for a, b, _, _ in rows]
    den2 = [c for _, _, c, _ in rows]
    num2 = [min(c, d) for _, _, c, d in rows]
    got = paired_difference(num1, den1, num2, den2)
    want = naive_difference(num1, den1, num2, den2)
    assert got["value"] == pytest.approx(want[0], abs=1e-12)
    assert (got["lo"], got["hi"]) == pytest.approx(want[1:], abs=1e-12)


def test_paired_difference_covers_the_true_difference():
    """On synthetic deals whose two bots share each deal's difficulty (so pairing matters), the 95%
    interval covers the true difference of shares in about 95% of samples, and is narrower than the
    unpaired one."""
    rng = np.random.default_rng(25)
    true = 0.040 - 0.030
    covered, paired_width, unpaired_width = 0, 0.0, 0.0
    reps = 2000
    for _ in range(reps):
        hard = rng.gamma(2.0, 0.5, 150)  # the deal's difficulty, the same for both bots
        den1, den2 = rng.integers(30, 45, 150), rng.integers(30, 45, 150)
        num1 = rng.binomial(den1, np.clip(0.040 * hard, 0, 1))
        num2 = rng.binomial(den2, np.clip(0.030 * hard, 0, 1))
        d = paired_difference(num1, den1, num2, den2)
        covered += d["lo"] <= true <= d["hi"]
        paired_width += d["hi"] - d["lo"]
        zero = np.zeros(150)  # against a bot that never loses 2: one bot's own interval
        one = paired_difference(num1, den1, zero, den2)["hi"] - paired_difference(num1, den1, zero, den2)["lo"]
        two = paired_difference(zero, den1, num2, den2)["hi"] - paired_difference(zero, den1, num2, den2)["lo"]
        unpaired_width += math.hypot(one, two)
    assert 0.93 <= covered / reps <= 0.97
    assert paired_width < 0.9 * unpaired_width


def _result(deal, costs):
    return DealResult([Decision(deal, 0, kind, float(c)) for kind, c in costs])


def test_a_step_adds_up_over_kinds_and_is_zero_against_itself():
    rng = np.random.default_rng(7)
    kinds = ["lead", "follow", "discard", "ruff", "prime", "bid"]

    def deals():
        return [
            _result(i, [(kinds[k], rng.integers(0, 4) if kinds[k] != "bid" else 30) for k in rng.integers(0, 6, 30)])
            for i in range(12)
        ]

    a, b = deals(), deals()
    s = step([a, b], "tekka", "A", "B")
    for key in ("mean_lost", "share_ge2"):
        assert sum(k[key] for k in s["kinds"].values()) == pytest.approx(s[key])
    assert s["mean_lo"] < s["mean_lost"] < s["mean_hi"]
    same = step([a, a], "tekka", "A", "A")
    assert same["share_ge2"] == same["share_ge2_lo"] == same["share_ge2_hi"] == 0.0
    with pytest.raises(AnalysisError, match="same deals"):
        step([a, b[:-1]], "tekka", "A", "B")


def test_steps_are_printed_and_written_with_their_ruleset(tmp_path):
    report = blunder_profiles(["satat"], ["KADO", "TANA"], seed=3, deals=2)
    (s,) = report["steps"]
    doc = tmp_path / "blunders.md"
    write_doc(str(doc), report, "cmd")
    out = run("blunders", "-r", "satat", "--bot", "KADO", "--bot", "TANA", "-n", 2, "--seed", 3)
    for text in (doc.read_text(), out.output):
        assert "| KADO − TANA |" in text and f"{s['share_ge2']:+.3f} [{s['share_ge2_lo']:+.3f}" in text
