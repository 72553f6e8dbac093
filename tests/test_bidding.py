"""Tekka bidding risk (tekkasim.analysis.bidding, `tekkasim bidding`) at small sizes."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from tekkasim.analysis.bidding import (
    TARGETS,
    bidding,
    bidding_deals,
    bidding_json,
    bidding_plots,
    feature_table,
    hand_features,
    recommended_thresholds,
    target_table,
)
from tekkasim.analysis.duplicate import AnalysisError
from tekkasim.cards import mask_of, parse_cards
from tekkasim.cli import cli
from tekkasim.solver import can_reach, solve, state_at
from tekkasim.tournament import iter_records


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bidding") / "run"
    return bidding("KADO", 6, 11, out=out)


def test_hand_features():
    hand = mask_of(parse_cards("AS KS QS JS TS 2S AH KH 3H 2D AC 3C 2C"))
    f = hand_features(hand)
    assert f == {
        "hcp": 4 + 3 + 2 + 1 + 4 + 3 + 4,
        "longest": 6,
        "longest_honours": 5,
        "voids": 0,
        "singletons": 1,
        "controls": 2 + 1 + 2 + 1 + 2,
    }


def test_deals_agree_with_the_exported_records(run):
    deals = run["deals"]
    records = list(iter_records(run["directory"]))
    assert len(deals) == len(records) == 12
    by_key = {(r["board"]["index"], r["board"]["table"]): r for r in records}
    for row in deals.itertuples():
        rec = by_key[(row.board, row.table)]
        res = rec["result"]
        assert (res["declarer"], str(res["target"]), res["made"], res["mandatory"]) == (
            row.declarer,
            row.target,
            row.made,
            row.mandatory,
        )
        assert rec["players"][row.declarer] == row.bot
        side = "AB"["bottom right top left".split().index(row.declarer) % 2]
        other = "AB"[1 - "AB".index(side)]
        assert row.score == res["score"][side] - res["score"][other]
        # the double-dummy figures from the record's own position when play began
        state = state_at(rec)
        t = 13 if row.target == "D13" else int(row.target)
        assert row.dd_makeable == can_reach(state, t, side=row.declarer)
        assert row.dd_tricks == solve(state, side=row.declarer)


def test_target_table_counts(run):
    deals, table = run["deals"], run["targets"]
    assert list(table["target"]) == list(TARGETS)
    mine = deals[deals["bot"] == "KADO"]
    assert table["calls"].sum() == len(mine)
    for row in table.itertuples():
        sub = mine[mine["target"] == row.target]
        assert row.calls == len(sub) and row.made == sub["made"].sum()
        if row.calls:
            assert row.lo <= row.rate <= row.hi
            assert row.mean_score == pytest.approx(sub["score"].mean())
            assert row.dd_makeable == pytest.approx(sub["dd_makeable"].mean())
    assert run["targets_all"]["calls"].sum() == len(deals)


def test_thresholds_are_the_best_double_dummy_call(run):
    deals = run["deals"]
    thr = recommended_thresholds(deals, "longest", min_n=1)
    for row in thr.itertuples():
        sub = deals[deals["longest"].astype(str) == row.longest]
        ev = {}
        for t in TARGETS:
            made = sub["dd_tricks"] >= (13 if t == "D13" else int(t))
            value = (26 if t == "D13" else int(t)) * made - (52 if t == "D13" else 2 * int(t)) * ~made
            ev[t] = value.mean()
        assert ev[row.best_call] == max(ev.values()) == pytest.approx(row.dd_ev)
    ft = feature_table(deals, "side_hcp")
    assert ft["calls"].sum() == len(deals)


def test_json_plots_and_refusals(run, tmp_path):
    data = bidding_json(run, 6)
    assert data["bot"] == "KADO" and data["boards"] == 6
    assert [t["target"] for t in data["targets"]] == list(TARGETS)
    assert set(data["targets"][0]) >= {"target", "calls", "made", "rate", "lo", "hi", "mean_score", "dd_makeable"}
    json.dumps(data)
    paths = bidding_plots(run["deals"], tmp_path / "plots")
    assert all(p.stat().st_size > 1000 for p in paths)
    with pytest.raises(AnalysisError, match="unknown hand feature"):
        feature_table(run["deals"], "shoe_size")
    assert np.isnan(target_table(run["deals"].iloc[:0])["rate"]).all()


def test_cli_bidding_json_and_errors(tmp_path):
    out = tmp_path / "r"
    res = CliRunner().invoke(
        cli,
        [
            "bidding",
            "--ruleset",
            "tekka",
            "--bot",
            "GREEDY",
            "--boards",
            "2",
            "--seed",
            "3",
            "--out",
            str(out),
            "--json",
            "--plots",
            str(tmp_path / "p"),
        ],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["bot"] == "GREEDY" and sum(t["calls"] for t in data["targets"]) <= 4
    assert (tmp_path / "p" / "success_rate.png").exists()
    for args, message in (
        (["--bot", "NOPE"], "unknown bot"),
        (["--bot", "KADO", "--ruleset", "satat"], "Tekka"),
        (["--bot", "KADO", "--feature", "zz"], "unknown hand feature"),
    ):
        bad = CliRunner().invoke(cli, ["bidding", "--boards", "2", "--out", str(tmp_path / "bad"), *args])
        assert bad.exit_code != 0 and message in bad.output and "Traceback" not in bad.output
    assert not (tmp_path / "bad").exists()


def test_non_tekka_run_refused(tmp_path):
    from tekkasim.tournament import Config, run_tournament

    run_tournament(
        Config.build(ruleset="feskot", bots="GREEDY,RANDOM", boards=1, seed=1, workers=1), tmp_path / "f", quiet=True
    )
    with pytest.raises(AnalysisError, match="Tekka"):
        bidding_deals(tmp_path / "f")


def test_recommendation_is_pass_when_every_call_loses(run):
    thr = recommended_thresholds(run["deals"], "side_hcp", min_n=1)
    assert ((thr["recommend"] == "pass") == (thr["dd_ev"] <= 0)).all()
    assert (thr.loc[thr["dd_ev"] > 0, "recommend"] == thr.loc[thr["dd_ev"] > 0, "best_call"]).all()
