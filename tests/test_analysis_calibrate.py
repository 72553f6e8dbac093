"""The ladder calibration (tekkasim.analysis.calibrate, `tekkasim calibrate`) at small sizes."""

import json
import math

import pytest
from click.testing import CliRunner

from tekkasim.analysis.calibrate import calibration, calibration_markdown, calibration_records
from tekkasim.analysis.duplicate import AnalysisError, elo_estimate, pair_margins
from tekkasim.cli import cli


def test_calibration_table():
    t = calibration("feskot", ["puchoq", "KADO", "POCHAQ"], pairs=60, seed=5)
    assert list(t["bot"]) == ["KADO", "POCHAQ", "PUCHOQ"] and list(t["rank"]) == [0, 1, 2]
    assert (t["lo"] < t["elo"]).all() and (t["elo"] < t["hi"]).all()
    # KADO's first pairing (against RANDOM) is pairing 0: boards seed .. seed + 59
    direct = elo_estimate(pair_margins("feskot", "KADO", "RANDOM", 5, 60))
    assert tuple(t.loc[0, ["direct", "direct_lo", "direct_hi"]]) == pytest.approx(direct)
    # pairs in the fit: KADO plays RANDOM, POCHAQ and PUCHOQ (60 each)
    assert list(t["pairs"]) == [180, 180, 180]
    assert t.equals(calibration("feskot", ["KADO", "POCHAQ", "PUCHOQ"], pairs=60, seed=5))
    text = calibration_markdown({"feskot": t}, "tekkasim calibrate", 60, 20, 5)
    assert "| KADO | 0 |" in text and "## feskot" in text


def test_calibration_refusals():
    with pytest.raises(AnalysisError, match="not a ladder bot"):
        calibration("feskot", ["KADO", "GREEDY"])
    res = CliRunner().invoke(cli, ["calibrate", "--bots", "KADO,NOPE"])
    assert res.exit_code != 0 and "not a ladder bot" in res.output and "Traceback" not in res.output


def test_cli_calibrate_writes_markdown(tmp_path):
    out = tmp_path / "calibration.md"
    res = CliRunner().invoke(
        cli, ["calibrate", "-r", "tekka", "--bots", "KADO", "--pairs", "20", "--out", str(out), "--json"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.splitlines()[-1])
    assert data["tekka"][0]["bot"] == "KADO"
    assert "tekkasim calibrate --ruleset tekka --bots KADO --pairs 20" in out.read_text()


def test_markdown_flags_a_whitewash_of_random():
    import pandas as pd

    row = dict(rank=0, elo=900.0, lo=700.0, hi=1100.0, pairs=40, direct_lo=420.0, direct_hi=math.inf, direct_pairs=20)
    won = pd.DataFrame([{**row, "bot": "KADO", "direct": math.inf, "note": "", "direct_note": "won every pair"}])
    lost_one = pd.DataFrame([{**row, "bot": "KADO", "direct": 600.0, "note": "", "direct_note": ""}])
    text = calibration_markdown({"satat": won}, "c", 20, 2, 1)
    assert "KADO, the lowest bot here, won every pair" in text
    assert "| KADO | 0 | +900 | [+700, +1100] | 40 | won all | [+420, none] | 20 |" in text
    assert "won every pair against RANDOM:" not in calibration_markdown({"satat": lost_one}, "c", 20, 2, 1)
    # JSON: no infinity and no stand-in number, null where the pairs give no value
    (rec,) = calibration_records(won)
    assert rec["direct"] is None and rec["direct_hi"] is None and rec["direct_lo"] == 420.0
    json.dumps(rec, allow_nan=False)
