"""Feskot, Satat and Shengji statistics (tekkasim.analysis.games) on small stored runs."""

import pytest

from tekkasim.analysis.duplicate import AnalysisError
from tekkasim.bits import below
from tekkasim.bots import Bot, get_bot
from tekkasim.cards import SEATS, parse_cards
from tekkasim.rules import get_game
from tekkasim.rulesets.feskot.stats import feskot_deals, feskot_sequence, first_dealt_value
from tekkasim.rulesets.satat.stats import accusation_accuracy, redeal_value, renonce_outcomes, satat_deals, satat_kinds
from tekkasim.rulesets.shengji.stats import (
    declaration_stats,
    kitty_bonus_distribution,
    level_changes,
    shengji_deals,
    shengji_summary,
)
from tekkasim.solver import solve
from tekkasim.tournament import Config, iter_records, run_tournament
from tekkasim.tournament.play import play_deal_state


def _records(tmp_path_factory, ruleset, bots, boards, **options):
    out = tmp_path_factory.mktemp(ruleset) / "run"
    run_tournament(
        Config.build(ruleset=ruleset, bots=bots, boards=boards, seed=3, workers=1, options=options), out, quiet=True
    )
    return list(iter_records(out))


def test_feskot(tmp_path_factory):
    recs = _records(tmp_path_factory, "feskot", "GREEDY,KADO", 4)
    d = feskot_deals(recs, dd=True)
    assert len(d) == 8
    wins = sum(r["result"]["winner"] == "AB"[SEATS.index(r["first"]) % 2] for r in recs)
    v = first_dealt_value(d)
    assert v.loc["all", "n"] == 8 and v.loc["all", "successes"] == wins
    assert v.loc["all", "lo"] <= v.loc["all", "rate"] <= v.loc["all", "hi"]
    assert first_dealt_value(d, "first_bot")["n"].sum() == 8
    for rec, row in zip(recs, d.itertuples(), strict=True):
        assert row.prime_in_five == sum(c[-1] == rec["trump"] for c in rec["hands"][rec["first"]][:5])
        hands = [sum(1 << c for c in parse_cards(rec["hands"][s])) for s in SEATS]
        best = max(solve(hands, p, SEATS.index(rec["first"]), ruleset="feskot") for p in range(4))
        chosen = solve(hands, "CDHS".index(rec["trump"]), SEATS.index(rec["first"]), ruleset="feskot")
        assert row.dd_best_prime == (chosen == best)
    with pytest.raises(AnalysisError, match="feskot statistics"):
        feskot_deals([{"ruleset": "tekka", "result": {}}])


class Reckless(Bot):
    """Plays a Renonce whenever it can and accuses at random (one chance in six): Satat rounds with
    Renonces, right and wrong accusations."""

    name = "RECKLESS"
    params_spec = ()

    def act(self, view, rng):
        if view.optional:
            return view.legal[0] if view.legal and below(rng, 6) == 0 else None
        renonces = [a for a in view.possible if a not in view.legal]
        return renonces[0] if renonces else view.legal[0]


def satat_records(n):
    game = get_game("satat")
    seats = [Reckless(), get_bot("POCHAQ", ruleset="satat"), Reckless(), get_bot("POCHAQ", ruleset="satat")]
    records = []
    for seed in range(n):
        state = play_deal_state(game.new_deal(seed), seats, seed, 0)
        rec = state.to_record()
        rec["players"] = {s: b.label for s, b in zip(SEATS, seats, strict=True)}
        records.append(rec)
    return records


def test_satat():
    recs = satat_records(30)
    d = satat_deals(recs)
    assert (d["renonces_A"] > 0).sum() >= 5 and d["accuser"].notna().sum() >= 5  # the test is not vacuous
    kinds = satat_kinds(d)
    assert kinds["count"].sum() == len(d) == len(recs)
    assert redeal_value(d)["n"].sum() == len(d)
    accusations = [p for r in recs for t in r["tricks"] for p in t if isinstance(p, dict)]
    acc = accusation_accuracy(d)
    assert acc["n"].sum() == len(accusations)
    ren = renonce_outcomes(d)
    one_sided = sum(
        (r["result"]["renonces"] != [])
        and len({SEATS.index(s if isinstance(s, str) else SEATS[s]) % 2 for _t, s in r["result"]["renonces"]}) == 1
        for r in recs
    )
    assert ren["n"].sum() == one_sided
    for r, row in zip(recs, d.itertuples(), strict=True):
        acc = [p for t in r["tricks"] for p in t if isinstance(p, dict)]
        if acc:
            by_team = "AB"[SEATS.index(acc[-1]["by"]) % 2]
            assert row.accusation_correct == (r["result"]["points"][by_team] == 1)
            assert row.accuser_bot == r["players"][acc[-1]["by"]]
    acc_table = accusation_accuracy(d)
    assert acc_table["successes"].sum() == d["accusation_correct"].fillna(False).astype(bool).sum()
    assert "POCHAQ" in acc_table.index


def test_shengji(tmp_path_factory):
    recs = _records(tmp_path_factory, "shengji", "GREEDY,KADO", 2)
    d = shengji_deals(recs)
    assert len(d) == 4
    assert (d["hold"] == (d["attacker_points"] < 80)).all()
    assert kitty_bonus_distribution(d)["count"].sum() == 4
    assert level_changes(d)["deals"].sum() == 4
    assert shengji_summary(d)["n"].sum() == 4
    assert declaration_stats(d)["deals"].sum() == 4
    assert list(d["kitty_bonus"]) == [r["result"]["kitty_bonus"] for r in recs]


def test_feskot_sequence_cut_and_rotation():
    recs = feskot_sequence(["JANGARA", "GREEDY"], 6, 9, {"deal": "cut"})
    assert len(recs) == 6 and all(r["options"]["deal"] == "cut" for r in recs if "options" in r)
    for prev, nxt in zip(recs, recs[1:], strict=False):
        won = prev["result"]["winner"] == "AB"[SEATS.index(prev["first"]) % 2]
        assert nxt["first"] == (prev["first"] if won else SEATS[(SEATS.index(prev["first"]) + 1) % 4])
    # a cut keeps runs of the previous game's played cards together: the deals differ from a shuffle's
    shuffled = feskot_sequence(["JANGARA", "GREEDY"], 6, 9)
    assert recs[0]["hands"] == shuffled[0]["hands"] and recs[1]["hands"] != shuffled[1]["hands"]
    assert first_dealt_value(feskot_deals(recs))["n"].sum() == 6
