"""Tekka bidding risk (tekkasim.rulesets.tekka.bidding, `tekkasim bidding`) at small sizes."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from tekkasim.analysis.duplicate import AnalysisError
from tekkasim.cards import mask_of, parse_cards
from tekkasim.cli import cli
from tekkasim.rulesets.tekka.bidding import (
    TARGETS,
    bidding,
    bidding_deals,
    bidding_json,
    bidding_plots,
    declarer_takes_all,
    feature_table,
    hand_features,
    recommended_thresholds,
    target_table,
)
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
        assert row.dd_tricks == solve(state, side=row.declarer)
        assert row.dd_13 == can_reach(state, 13, side=row.declarer) and (row.dd_13 or not row.dd_d13)
        if row.dd_13:  # the declarer's own 13 tricks, from the same position
            hands = [state.hand(s) for s in range(4)]
            seat = "bottom right top left".split().index(row.declarer)
            assert row.dd_d13 == declarer_takes_all(hands, state.prime, seat)
        if row.target == "D13":
            assert row.dd_makeable == row.dd_d13
        else:
            assert row.dd_makeable == can_reach(state, int(row.target), side=row.declarer)


def _naive_takes_all(hands, prime, declarer):
    """Every legal card of every seat, no equivalences, no memo: can the declarer win every trick?"""
    order = [(declarer + i) % 4 for i in range(4)]

    def legal(h, suit):
        cards = [c for c in range(52) if h >> c & 1]
        return [c for c in cards if c // 13 == suit] or cards

    def wins(plays):  # the declarer's lead is beaten by no card
        c = plays[0]
        return not any((x // 13 == prime != c // 13) or (x // 13 == c // 13 and x > c) for x in plays[1:])

    def trick(h, i, plays):
        if i == 4:
            return wins(plays) and rec(h)
        seat = order[i]
        options = legal(h[seat], plays[0] // 13)
        go = [trick([m & ~(1 << x) if k == seat else m for k, m in enumerate(h)], i + 1, [*plays, x]) for x in options]
        return any(go) if i == 2 else all(go)  # the partner chooses, the opponents resist

    def rec(h):
        if not h[order[0]]:
            return True
        lead = [c for c in range(52) if h[order[0]] >> c & 1]
        return any(trick([m & ~(1 << c) if k == order[0] else m for k, m in enumerate(h)], 1, [c]) for c in lead)

    return rec(list(hands))


def test_declarer_takes_all_matches_a_plain_search():
    rng = np.random.default_rng(3)
    found = 0
    for _ in range(250):
        n = int(rng.integers(1, 4))
        deck = rng.choice([s * 13 + r for s in range(4) for r in range(6, 13)], 4 * n, replace=False)
        hands = [sum(1 << int(c) for c in deck[i * n : (i + 1) * n]) for i in range(4)]
        prime, declarer = int(rng.integers(4)), int(rng.integers(4))
        want = _naive_takes_all(hands, prime, declarer)
        assert declarer_takes_all(hands, prime, declarer) == want
        found += want
    assert 5 < found < 245  # both answers occur


def test_declarer_takes_all_needs_the_partner_to_duck():
    h = lambda text: mask_of(parse_cards(text))  # noqa: E731
    # bottom declares, no Prime card out (Prime spades); the side takes both tricks either way
    forced = [h("AH 2H"), h("4C 5C"), h("KH 3H"), h("6C 7C")]  # the partner must overtake 2H with 3H or KH
    assert solve(forced, "S", 0) == 2 and declarer_takes_all(forced, 3, 0) is False
    ducks = [h("AH 2H"), h("4C 5C"), h("8C 3C"), h("6C 7C")]  # the partner discards clubs
    assert declarer_takes_all(ducks, 3, 0) is True
    assert declarer_takes_all([h("AH 2H"), h("KH 3H"), h("8C 4C"), h("6C 7C")], 3, 0) is False  # right keeps KH for 2H
    assert declarer_takes_all([h("AH 2H"), h("KH 5C"), h("8C 3C"), h("6C 7C")], 3, 0) is True  # KH falls under AH


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
            made = sub["dd_d13"] if t == "D13" else sub["dd_tricks"] >= int(t)
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
    json.dumps(data, allow_nan=False)
    # runs.md: a target nobody called has null rates, bounds and means (never a stand-in), and says why
    for t in data["targets"]:
        empty = t["calls"] == 0
        assert all((t[k] is None) == empty for k in ("rate", "lo", "hi", "mean_score", "dd_makeable")), t
        assert (t.get("note") == "no calls") == empty
    assert any(t["calls"] == 0 for t in data["targets"])  # 12 deals never reach every target
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
    text = CliRunner().invoke(cli, ["bidding", "--bot", "GREEDY", "--boards", "2", "--seed", "3", "--out", str(out)])
    assert text.exit_code == 0 and "no calls" in text.output and "NaN" not in text.output, text.output
    assert "Empty DataFrame" not in text.output and "bucket has 5 deals or more" in text.output, text.output
    assert (tmp_path / "p" / "success_rate.png").exists()
    for args, message in (
        (["--bot", "NOPE"], "unknown bot"),
        (["--bot", "KADO", "--ruleset", "satat"], "ruleset satat has no bidding analysis"),
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
