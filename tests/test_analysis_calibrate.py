"""The ladder calibration (tekkasim.analysis.calibrate, `tekkasim calibrate`) at small sizes."""

import json
import math
import sys
from pathlib import Path

import numpy as np
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


def test_calibration_steps():
    t = calibration("feskot", ["KADO", "POCHAQ", "PUCHOQ"], pairs=60, seed=5)
    # the first bot's step is its Elo against RANDOM; the others' the difference from the bot below
    assert tuple(t.loc[0, ["step", "step_lo", "step_hi"]]) == tuple(t.loc[0, ["elo", "lo", "hi"]])
    for i in (1, 2):
        assert t.loc[i, "step"] == pytest.approx(t.loc[i, "elo"] - t.loc[i - 1, "elo"])
        assert t.loc[i, "step_lo"] < t.loc[i, "step"] < t.loc[i, "step_hi"]
    text = calibration_markdown({"feskot": t}, "c", 60, 20, 5)
    above = int((t["step_lo"][1:] > 0).sum())
    assert f"Steps whose 95% interval lies above zero: {above} of 2." in text
    rec = calibration_records(t)[1]
    assert rec["step"] == pytest.approx(t.loc[1, "step"]) and rec["step_note"] == ""


def test_search_bots_play_fewer_pairs_against_random_when_asked():
    t = calibration("feskot", ["JANGARA", "TANOOR"], pairs=20, search_pairs=4, search_random_pairs=2, seed=9)
    assert t.loc[1, "direct_pairs"] == 2 and t.loc[1, "against"] == "RANDOM, JANGARA"
    assert t.loc[1, "pairs"] == 2 + 4
    text = calibration_markdown({"feskot": t}, "c", 20, 4, 9, search_random_pairs=2)
    assert "4 per pairing with a search bot (TANOOR, TIZAB, ZELZELA) (2 against RANDOM)" in text
    assert "of the search bots' steps" in text
    with pytest.raises(AnalysisError, match="must be 2 or more"):
        calibration("feskot", ["KADO"], pairs=20, search_random_pairs=1)


def test_calibration_refusals():
    with pytest.raises(AnalysisError, match="not a ladder bot"):
        calibration("feskot", ["KADO", "GREEDY"])
    res = CliRunner().invoke(cli, ["calibrate", "--bots", "KADO,NOPE"])
    assert res.exit_code != 0 and "not a ladder bot" in res.output and "Traceback" not in res.output


def test_cli_calibrate_writes_markdown(tmp_path):
    out = tmp_path / "calibration.md"
    res = CliRunner().invoke(
        cli,
        ["calibrate", "-r", "tekka", "--bots", "KADO", "--pairs", "20", "--search-random-pairs", "3"]
        + ["--out", str(out), "--json"],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.splitlines()[-1])
    assert data["tekka"][0]["bot"] == "KADO" and "step_lo" in data["tekka"][0]
    text = out.read_text()
    assert "tekkasim calibrate --ruleset tekka --bots KADO --pairs 20 --search-pairs 20 --search-random-pairs 3" in text
    res = CliRunner().invoke(cli, ["calibrate", "--bots", "KADO", "--search-random-pairs", "1"])
    assert res.exit_code != 0 and "--search-random-pairs" in res.output and "Traceback" not in res.output


def test_markdown_flags_a_whitewash_of_random():
    import pandas as pd

    row = dict(rank=0, elo=900.0, lo=700.0, hi=1100.0, pairs=40, direct_lo=420.0, direct_hi=math.inf, direct_pairs=20)
    row |= dict(step=900.0, step_lo=700.0, step_hi=1100.0, step_note="")
    won = pd.DataFrame([{**row, "bot": "KADO", "direct": math.inf, "note": "", "direct_note": "won every pair"}])
    lost_one = pd.DataFrame([{**row, "bot": "KADO", "direct": 600.0, "note": "", "direct_note": ""}])
    text = calibration_markdown({"satat": won}, "c", 20, 2, 1)
    assert "KADO, the lowest bot here, won every pair" in text
    assert "| KADO | 0 | +900 | [+700, +1100] | +900 | [+700, +1100] | 40 | won all | [+420, none] | 20 |" in text
    assert "won every pair against RANDOM:" not in calibration_markdown({"satat": lost_one}, "c", 20, 2, 1)
    # JSON: no infinity and no stand-in number, null where the pairs give no value
    (rec,) = calibration_records(won)
    assert rec["direct"] is None and rec["direct_hi"] is None and rec["direct_lo"] == 420.0
    json.dumps(rec, allow_nan=False)


REFERENCE = Path(__file__).resolve().parents[1] / "examples" / "engine_first_legal.py"
ENGINE = f"engine:{sys.executable} {REFERENCE}"


def test_an_engine_is_placed_on_the_ladders_scale_in_the_same_fit():
    ladder = calibration("feskot", ["KADO", "POCHAQ", "PUCHOQ"], pairs=20, seed=7, neighbours=1)
    t = calibration("feskot", ["KADO", "POCHAQ", "PUCHOQ"], pairs=20, seed=7, extra=[ENGINE], neighbours=1)
    assert list(t["bot"]) == ["KADO", "POCHAQ", "PUCHOQ", "FIRST_LEGAL"]
    assert list(t["rank"]) == [0, 1, 2, None]
    placed = t.iloc[3]
    assert placed["lo"] < placed["elo"] < placed["hi"]
    # it played RANDOM, then the one ladder bot nearest it: KADO, the ladder's lowest (playing the first
    # legal card loses to random play: -230 [-344, -117] at 30 pairs, seed 1)
    assert placed["against"] == "RANDOM, KADO" and placed["pairs"] == 40
    # its pairs follow the ladder's, whose boards stay those of the ladder alone
    same = ["direct", "direct_lo", "direct_hi", "against"]
    assert t.loc[:2, same].equals(ladder[same])
    # the engine's own pairs against RANDOM: pairing 5 (after the ladder's five)
    direct = elo_estimate(pair_margins("feskot", ENGINE, "RANDOM", 7 + 5 * 1_000_000, 20))
    assert tuple(placed[["direct", "direct_lo", "direct_hi"]]) == pytest.approx(direct)
    # one fit: the engine's pairs against KADO count for KADO too (with neighbours=1 the ladder alone
    # gives KADO its pairs against RANDOM and POCHAQ)
    assert t.loc[0, "pairs"] == 20 * 3 and ladder.loc[0, "pairs"] == 20 * 2
    (rec,) = [r for r in calibration_records(t) if r["bot"] == "FIRST_LEGAL"]
    assert rec["rank"] is None
    text = calibration_markdown({"feskot": t}, "c", 20, 2, 7)
    assert "| FIRST_LEGAL | - |" in text and "FIRST_LEGAL (against RANDOM, KADO)" in text


def test_a_python_bot_is_placed_too_and_a_ladder_name_is_refused():
    t = calibration("feskot", ["KADO"], pairs=10, seed=3, extra=["tournament_bots:Highest"])
    assert list(t["bot"])[-1] != "KADO" and t.iloc[-1]["against"] == "RANDOM, KADO"
    with pytest.raises(AnalysisError, match="on the ladder already"):
        calibration("feskot", ["KADO"], pairs=10, extra=["KADO"])


@pytest.mark.parametrize(
    "bot, says",
    [
        ("engine:/no/such/engine", "does not exist"),
        ("KADO", "on the ladder already"),
        ("NOPE", "unknown bot"),
        ("", "--bot is empty"),
    ],
)
def test_cli_calibrate_bad_bots_are_one_line(bot, says):
    res = CliRunner().invoke(cli, ["calibrate", "--bots", "KADO", "--pairs", "4", "--bot", bot])
    assert res.exit_code != 0 and says in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_cli_calibrate_places_an_engine(tmp_path):
    out = tmp_path / "calibration.md"
    args = ["calibrate", "--bots", "KADO,POCHAQ", "--pairs", "6", "--seed", "11", "--bot", ENGINE]
    res = CliRunner().invoke(cli, [*args, "--json", "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output.splitlines()[-1])["feskot"]
    assert [r["bot"] for r in rows] == ["KADO", "POCHAQ", "FIRST_LEGAL"] and rows[-1]["rank"] is None
    assert rows[-1]["against"] == "RANDOM, KADO, POCHAQ"
    assert f"--bot '{ENGINE}'" in out.read_text()
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    assert (
        "FIRST_LEGAL: Elo " in text.output and "against RANDOM (18 pairs against RANDOM, KADO, POCHAQ)" in text.output
    )


def test_pairs_on_two_workers_are_the_pairs_on_one():
    # pairs that are not compiled (a search bot, an engine) can be spread over local processes: every
    # board is seeded by itself, so the margins (and the table) are the same for any number of workers
    search = "TANOOR:worlds=2"
    one = pair_margins("feskot", search, "GREEDY", 31, 5)
    assert np.array_equal(pair_margins("feskot", search, "GREEDY", 31, 5, workers=2), one)
    engine = pair_margins("feskot", ENGINE, "KADO", 40, 6)
    assert np.array_equal(pair_margins("feskot", ENGINE, "KADO", 40, 6, workers=2), engine)


def test_cli_calibrate_workers_give_the_same_table(tmp_path):
    args = ["calibrate", "--bots", "KADO", "--pairs", "6", "--seed", "3", "--bot", ENGINE, "--json"]
    one = CliRunner().invoke(cli, args)
    two = CliRunner().invoke(cli, [*args, "--workers", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert json.loads(one.output.splitlines()[-1]) == json.loads(two.output.splitlines()[-1])


def test_cli_calibrate_update_keeps_other_rulesets(tmp_path):
    """--update replaces the sections of the rulesets measured now, keeps the others with their commands,
    and gives each section the same text a run of its own would."""
    out = tmp_path / "calibration.md"
    base = ["calibrate", "--bots", "KADO", "--pairs", "6", "--seed", "3", "--out", str(out)]
    assert CliRunner().invoke(cli, [*base, "-r", "tekka"]).exit_code == 0
    alone = out.read_text()
    res = CliRunner().invoke(cli, [*base, "-r", "feskot", "--seed", "4", "--update"])
    assert res.exit_code == 0, res.output
    both = out.read_text()
    assert both.index("## feskot") < both.index("## tekka")  # the registry's order, not the order run
    tekka = alone[alone.index("## tekka") :]
    assert tekka in both  # kept as it was, its command with it
    assert "--ruleset feskot --bots KADO --pairs 6 --search-pairs 20 --seed 3" not in both  # the later --seed 4 wins
    assert "tekkasim calibrate --ruleset feskot --bots KADO --pairs 6 --search-pairs 20 --seed 4" in both
    assert "--update" in both
    # rerunning tekka with --update changes its section only
    res = CliRunner().invoke(cli, [*base, "-r", "tekka", "--pairs", "8", "--update"])
    assert res.exit_code == 0, res.output
    again = out.read_text()
    assert again[: again.index("## tekka")] == both[: both.index("## tekka")]
    assert "--pairs 8" in again[again.index("## tekka") :] and tekka not in again


def test_cli_calibrate_update_refusals(tmp_path):
    res = CliRunner().invoke(cli, ["calibrate", "--bots", "KADO", "--pairs", "4", "--update"])
    assert res.exit_code != 0 and "--update needs --out" in res.output and "Traceback" not in res.output
    other = tmp_path / "notes.md"
    other.write_text("# My notes\n\n## feskot\nmine\n")
    res = CliRunner().invoke(cli, ["calibrate", "--bots", "KADO", "--pairs", "4", "--out", str(other), "--update"])
    assert res.exit_code != 0 and "not written by tekkasim calibrate" in res.output
    assert len(res.output.strip().splitlines()) == 1 and other.read_text() == "# My notes\n\n## feskot\nmine\n"
