"""Difficulty tuning (tekkasim.analysis.tune, `tekkasim tune`) on a fast compiled pairing, small sizes."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from tekkasim.analysis.duplicate import AnalysisError, elo_estimate, pair_margins
from tekkasim.analysis.tune import tune
from tekkasim.cli import cli
from tekkasim.ratings import expected_score


@pytest.mark.parametrize("ruleset", ["feskot", "tekka", "satat", "shengji"])
def test_pair_margins_compiled_equal_state_api(ruleset):
    a = pair_margins(ruleset, "KADO:mistake_rate=0.5", "GREEDY", 40, 6)
    b = pair_margins(ruleset, "KADO:mistake_rate=0.5", "GREEDY", 40, 6, compiled=False)
    assert np.array_equal(a, b)


def test_elo_estimate_matches_the_elo_curve():
    margins = np.array([1.0] * 75 + [-1.0] * 25)
    elo, lo, hi = elo_estimate(margins)
    assert expected_score(elo) == pytest.approx(0.75)
    assert lo < elo < hi
    # every pair won: no finite Elo and no upper bound (never a stand-in number), a finite lower bound
    elo, lo, hi = elo_estimate(np.ones(10))
    assert elo == hi == math.inf and 0 < lo < 1000


def test_tune_json_says_null_where_the_pairs_give_no_bound():
    from tekkasim.analysis.tune import TuneResult

    res = TuneResult("KADO", "mistake_rate", 0.0, 300.0, math.inf, 420.0, math.inf, 20, note="won every pair")
    res.steps = [(0.0, math.inf, 420.0, math.inf), (1.0, 10.0, -50.0, 70.0)]
    data = json.loads(json.dumps(res.to_json(), allow_nan=False))
    assert (data["elo"], data["lo"], data["hi"], data["note"]) == (None, 420.0, None, "won every pair")
    assert data["steps"] == [[0.0, None, 420.0, None], [1.0, 10.0, -50.0, 70.0]]
    assert "note" not in TuneResult("KADO", "mistake_rate", 0.5, 10.0, 12.0, 1.0, 20.0, 20).to_json()


def test_tune_reaches_the_target_and_reports_the_final_measurement():
    res = tune(
        "feskot",
        "KADO:mistake_uniform=true",
        "mistake_rate",
        60,
        "RANDOM",
        seed=3,
        pairs=400,
        final_pairs=800,
        tolerance=40,
    )
    assert 0.0 < res.value < 1.0
    # the Elo reported is the final measurement on fresh boards (seeds seed + pairs ..) at that setting
    again = elo_estimate(
        pair_margins("feskot", f"KADO:mistake_uniform=true,mistake_rate={res.value}", "RANDOM", 3 + 400, 800)
    )
    assert (res.elo, res.lo, res.hi) == pytest.approx(again)
    assert res.pairs == 800 and res.lo < res.elo < res.hi
    assert res.within_tolerance == (abs(res.elo - 60) <= 40)
    assert res.interval_holds_target, res.to_json()
    assert [s[0] for s in res.steps[:2]] == [0.0, 1.0]
    data = res.to_json()
    assert list(data)[:8] == ["bot", "param", "value", "target_elo", "elo", "lo", "hi", "pairs"]
    # a weaker target needs more mistakes
    weaker = tune(
        "feskot",
        "KADO:mistake_uniform=true",
        "mistake_rate",
        20,
        "RANDOM",
        seed=3,
        pairs=400,
        final_pairs=200,
        tolerance=40,
    )
    assert weaker.value > res.value


def test_tune_refusals():
    with pytest.raises(AnalysisError, match="no parameter 'depth'"):
        tune("feskot", "KADO", "depth", 0, "RANDOM")
    with pytest.raises(AnalysisError, match="not numeric"):
        tune("feskot", "KADO", "memory", 0, "RANDOM")
    with pytest.raises(AnalysisError, match="out of reach"):
        tune("feskot", "KADO", "mistake_rate", 1500, "RANDOM", pairs=100)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bot", "NOPE", "--param", "mistake_rate"], "unknown bot 'NOPE'"),
        (["--bot", "KADO", "--param", "depth"], "no parameter 'depth'"),
        (["--bot", "KADO", "--param", "signals"], "not numeric"),
        (["--bot", "KADO", "--param", "mistake_rate", "--target-elo", "1500"], "out of reach"),
    ],
)
def test_cli_tune_bad_input_is_one_line(args, message):
    base = ["tune", "--ruleset", "feskot", "--against", "RANDOM", "--pairs", "60"]
    if "--target-elo" not in args:
        base += ["--target-elo", "50"]
    res = CliRunner().invoke(cli, base + args)
    assert res.exit_code != 0
    errors = [line for line in res.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and message in errors[0], res.output
    assert "Traceback" not in res.output


def test_cli_tune_json():
    res = CliRunner().invoke(
        cli,
        [
            "tune",
            "--ruleset",
            "tekka",
            "--bot",
            "KADO:mistake_uniform=true",
            "--param",
            "mistake_rate",
            "--target-elo",
            "60",
            "--against",
            "RANDOM",
            "--pairs",
            "200",
            "--final-pairs",
            "200",
            "--tolerance",
            "50",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["bot"].startswith("KADO") and data["param"] == "mistake_rate" and data["pairs"] == 200
    assert data["lo"] <= data["elo"] <= data["hi"] and 0 <= data["value"] <= 1
