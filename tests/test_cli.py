"""The command line: thin commands over the library, one clear line for every user error."""

import json

import pytest
from click.testing import CliRunner

from tekkasim.cli import cli
from tekkasim.rules import ruleset_names

RULESETS = ruleset_names()


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def one_line_error(result, *words):
    assert result.exit_code != 0
    lines = [line for line in result.output.strip().splitlines() if line.strip()]
    assert "Traceback" not in result.output
    assert any(all(w in line for w in words) for line in lines), result.output


def test_unknown_ruleset_and_option():
    one_line_error(run("deal", "--ruleset", "bridge"), "unknown ruleset 'bridge'")
    one_line_error(run("play", "-r", "bridge", "--deals", 1), "unknown ruleset")
    if RULESETS:
        one_line_error(run("deal", "-r", RULESETS[0], "-o", "nonsense=1"), "unknown option 'nonsense'")
        one_line_error(run("deal", "-r", RULESETS[0], "-o", "novalue"), "KEY=VALUE")
    one_line_error(run("play", "--deals", 0), "--deals")
    one_line_error(run("bench", "-r", "bridge"), "unknown ruleset")


def test_missing_and_corrupt_files(tmp_path):
    one_line_error(run("verify", tmp_path / "missing.jsonl"), "no such file")
    one_line_error(run("replay", tmp_path / "missing.jsonl"), "no such file")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert run("verify", empty).exit_code == 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    result = run("verify", "--json", bad)
    assert result.exit_code == 1
    verdict = json.loads(result.output.splitlines()[0])
    assert verdict["ok"] is False and "not valid JSON" in verdict["error"]


def test_rules_lists_every_ruleset():
    result = run("rules")
    assert result.exit_code == 0
    for name in RULESETS:
        assert name + ":" in result.output


@pytest.mark.parametrize("name", RULESETS)
def test_play_verify_replay(tmp_path, name):
    out = tmp_path / f"{name}.jsonl.gz"
    assert run("play", "-r", name, "--deals", 8, "--seed", 3, "--match", "--out", out).exit_code == 0
    result = run("verify", out)
    assert result.exit_code == 0 and result.output.count(": ok") == 8
    rows = [json.loads(line) for line in run("verify", "--json", out).output.splitlines()]
    assert [r["index"] for r in rows] == list(range(8)) and all(r["ok"] for r in rows)
    shown = run("replay", out, "--deal", 2)
    assert shown.exit_code == 0 and shown.output.startswith("deal 2")
    one_line_error(run("replay", out, "--deal", 99), "no deal 99")
    assert run("deal", "-r", name, "--seed", 4).exit_code == 0


def _practice():
    """A plug-in ruleset: Feskot's rules registered under another name (as tests/test_rulesets.py does)."""
    from tekkasim.rulesets import register
    from tekkasim.rulesets.feskot.game import Feskot

    return register(type("Practice", (Feskot,), {"name": "practice"}))


@pytest.mark.parametrize("name", [*RULESETS, "plug-in"])
def test_smoke_plays_and_verifies_every_ruleset(tmp_path, name):
    """``tekkasim smoke`` (the old default job): random deals, then records written and verified."""
    from tekkasim.rulesets import unregister

    if name == "plug-in":
        name = _practice().name
    try:
        result = run("smoke", "-r", name, "--deals", 50, "--records", 6, "--seed", 5, "--out-dir", tmp_path)
    finally:
        if name == "practice":
            unregister("practice")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"== {name}: 50 random deals")
    assert "6 of 6 verify" in result.output
    assert (tmp_path / f"{name}-seed5.jsonl.gz").exists()


@pytest.mark.parametrize("name", RULESETS)
def test_bench_json(name):
    result = run("bench", "-r", name, "--deals", 2000, "--seconds", 0.1, "--json")
    assert result.exit_code == 0
    figures = json.loads(result.output)["rulesets"][name]
    assert figures["random_deals_per_second"] > 0 and figures["python_api_deals_per_second"] > 0


def test_module_entry_point():
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "tekkasim", "deal", "-r", "nope"], capture_output=True, text=True)
    assert proc.returncode != 0 and "unknown ruleset" in proc.stderr and "Traceback" not in proc.stderr


HAND_MADE = {  # a Feskot deal dealt by hand: bottom holds every spade, right every heart, ...
    "format": 1,
    "ruleset": "feskot",
    "first": "bottom",
    "trump": "S",
    "hands": {
        "bottom": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S".split(),
        "right": "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H".split(),
        "top": "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D".split(),
        "left": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C".split(),
    },
}


def test_hand_made_records(tmp_path):
    """Spades are Prime and bottom holds them all: team A takes 7 tricks straight."""
    tricks = [[f"{r}S", f"{r}H", f"{r}D", f"{r}C"] for r in "AKQJT98"]
    good = HAND_MADE | {"tricks": tricks, "result": {"tricks": {"A": 7, "B": 0}, "winner": "A"}}
    path = tmp_path / "good.jsonl"
    path.write_text(json.dumps(good) + "\n")
    assert run("verify", path).exit_code == 0

    cases = {
        # right holds hearts only, so after a heart lead by... bottom leads a spade; right may discard:
        # make right's partner (left) break the follow rule instead by playing a card it does not hold.
        "not held": (tricks[:2] + [["QS", "QH", "QD", "KC"]] + tricks[3:], ["trick 3, play 4 (left)", "KC"]),
        "played on, then stopped": (tricks + [["7S", "7H", "7D", "7C"]], ["trick 9", "before it is over"]),
        "wrong result": (tricks, ["result differs", "winner"]),
        "too short": (tricks[:5], ["trick 6", "before it is over"]),
    }
    for name, (ts, words) in cases.items():
        bad = HAND_MADE | {"tricks": ts}
        if name == "wrong result":
            bad["result"] = {"tricks": {"A": 7, "B": 0}, "winner": "B"}
        path = tmp_path / f"{name}.jsonl"
        path.write_text(json.dumps(bad) + "\n")
        result = run("verify", path)
        assert result.exit_code == 1, name
        one_line_error(result, *words)


def test_follow_suit_broken(tmp_path):
    hands = {
        "bottom": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H".split(),
        "right": "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2S".split(),
        "top": "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D".split(),
        "left": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C".split(),
    }
    # Bottom leads AS; right holds 2S and must follow with it, but plays AH.
    rec = {
        "format": 1,
        "ruleset": "feskot",
        "first": "bottom",
        "trump": "S",
        "hands": hands,
        "tricks": [["AS", "AH", "AD", "AC"]],
    }
    path = tmp_path / "follow.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    result = run("verify", "--json", path)
    assert result.exit_code == 1
    error = json.loads(result.output.splitlines()[0])["error"]
    assert error.startswith("trick 1, play 2 (right): 'AH'") and "follow" in error and "[rule:" in error
