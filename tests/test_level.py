"""LEVEL:elo=E (bots.level, analysis.levels): the table's curve and its inverse, the bot at a ladder position,
the per-decision mixture and its seeds, one-line refusals, and a strength check that can fail."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.analysis.duplicate import pair_margins, pair_scores
from tekkasim.analysis.levels import elo_against, level_pairings, point_name
from tekkasim.bits import new_rng
from tekkasim.bots import describe, get_bot
from tekkasim.bots.base import decide
from tekkasim.bots.level import (
    LADDER_NAMES,
    Mixture,
    _continuous,
    _pav,
    at_position,
    curve,
    elo_range,
    entry_for,
    position,
    table_rulesets,
)
from tekkasim.cli import cli
from tekkasim.errors import BotError
from tekkasim.rules import get_game


def entry(elos, us=None):
    us = list(range(len(elos))) if us is None else us
    return {"points": [{"u": u, "elo": e, "lo": e - 40, "hi": e + 40} for u, e in zip(us, elos, strict=True)]}


LADDER_ELOS = [137, 313, 387, 495, 626, 706, 731, 807, 934]
HELD = table_rulesets()
needs_feskot = pytest.mark.skipif("feskot" not in HELD, reason="the shipped table has no feskot entry")


# --- the curve and its inverse ---------------------------------------------------------------------------


def pav_twin(y, w):
    """Isotonic regression by brute force over the pooled blocks' definition: repeatedly pool the first
    adjacent violating pair of blocks (the obviously-correct slow form)."""
    blocks = [([float(a)], [float(b)]) for a, b in zip(y, w, strict=True)]

    def mean(b):
        return sum(v * ww for v, ww in zip(*b, strict=True)) / sum(b[1])

    changed = True
    while changed:
        changed = False
        for i in range(len(blocks) - 1):
            if mean(blocks[i]) > mean(blocks[i + 1]) + 1e-12:
                blocks[i] = (blocks[i][0] + blocks[i + 1][0], blocks[i][1] + blocks[i + 1][1])
                del blocks[i + 1]
                changed = True
                break
    return [mean(b) for b in blocks for _ in b[0]]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(-500, 2000), st.floats(0.01, 10)), min_size=1, max_size=12))
def test_pav_matches_its_twin_and_is_monotone(data):
    y = np.array([a for a, _ in data])
    w = np.array([b for _, b in data])
    fit = _pav(y, w)
    assert np.all(np.diff(fit) >= -1e-9)
    assert np.allclose(fit, pav_twin(y, w), atol=1e-6)
    assert math.isclose(float((fit * w).sum()), float((y * w).sum()), rel_tol=1e-9, abs_tol=1e-6)  # means kept


def test_curve_pools_an_inversion():
    e = entry([227, 336, 498, 618, 793, 852, 898, 959, 924])  # Shengji's calibration: ZELZELA below TIZAB
    u, fit = curve(e)
    assert list(u) == list(range(9))
    assert np.all(np.diff(fit) >= 0)
    assert fit[7] == fit[8] == pytest.approx((959 + 924) / 2)
    assert elo_range(e) == (227, pytest.approx(941.5))


@settings(max_examples=100, deadline=None)
@given(st.floats(137, 934), st.floats(137, 934))
def test_position_inverts_the_curve_and_is_monotone(a, b):
    e = entry(LADDER_ELOS)
    ua, ub = position(e, a), position(e, b)
    assert (ua <= ub) == (a <= b) or math.isclose(a, b)
    u, fit = curve(e)
    assert float(np.interp(ua, u, fit)) == pytest.approx(a, abs=1e-6)


def test_position_takes_interior_points_and_the_left_end_of_a_flat_stretch():
    e = entry([100, 150, 300, 300, 400], us=[0, 0.5, 1, 4, 8])
    assert position(e, 125) == pytest.approx(0.25)
    assert position(e, 300) == pytest.approx(1.0)  # flat from u=1 to u=4: the weakest bot with that Elo
    assert position(e, 350) == pytest.approx(6.0)


def test_bad_table_and_requests_are_one_line():
    e = entry(LADDER_ELOS)
    for bad in (50, 1000):
        with pytest.raises(BotError, match="outside the calibrated range in feskot"):
            position(e, bad, "feskot")
    for bad in (math.nan, math.inf, "500"):
        with pytest.raises(BotError, match="must be a number"):
            position(e, bad)
    with pytest.raises(BotError, match="no calibration for tekka"):
        entry_for("tekka", {"rulesets": {"feskot": e}})
    with pytest.raises(BotError, match="u=0"):
        curve(entry([1, 2, 3]))  # does not reach ZELZELA


# --- the bot at a position -------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["feskot", "tekka"])
def test_positions_are_ladder_bots_interpolations_or_mixtures(ruleset):
    for k, name in enumerate(LADDER_NAMES):
        assert at_position(ruleset, float(k)).label == get_bot(name, ruleset=ruleset).label
    for k in range(8):
        lower = get_bot(LADDER_NAMES[k], ruleset=ruleset)
        upper = get_bot(LADDER_NAMES[k + 1], ruleset=ruleset)
        bot = at_position(ruleset, k + 0.25)
        differ = _continuous(lower, upper)
        if differ is None:
            assert isinstance(bot, Mixture) and bot.t == 0.25
            assert (bot.lower.label, bot.upper.label) == (lower.label, upper.label)
        else:  # one family, floats only: each at a quarter of the way
            assert type(bot) is type(upper)
            for p in differ:
                assert bot.params[p] == pytest.approx(0.75 * lower.params[p] + 0.25 * upper.params[p])
    # KADO and POCHAQ differ in memory (a discrete parameter): a mixture, never a made-up memory setting
    assert isinstance(at_position(ruleset, 0.5), Mixture)
    with pytest.raises(BotError, match="ladder position"):
        at_position(ruleset, 8.5)


def test_mixture_plays_the_chosen_neighbours_own_decision():
    game = get_game("feskot")
    mix = at_position("feskot", 0.5)
    assert isinstance(mix, Mixture)
    uppers = 0
    seen = 0
    for seed in range(40):
        state = game.new_deal(seed)
        k = 0
        while not state.is_terminal() and k < 20:
            s = 1000 * seed + k
            chosen = mix.pick(new_rng(s))
            a = decide(mix, state, state.current_player(), s)
            assert a == decide(chosen, state, state.current_player(), s)
            assert a == decide(mix, state, state.current_player(), s)  # the same seed, the same action
            uppers += chosen is mix.upper
            seen += 1
            state.apply_action(a)
            k += 1
    # the coin is fair at t = 1/2: 800 draws, far inside 6 standard deviations (~85)
    assert abs(uppers - seen / 2) < 6 * math.sqrt(seen / 4)


def test_mixture_weight_shifts_the_coin():
    lo, hi = at_position("feskot", 0.1), at_position("feskot", 0.9)
    n = 4000
    a = sum(lo.pick(new_rng(s)) is lo.upper for s in range(n))
    b = sum(hi.pick(new_rng(s)) is hi.upper for s in range(n))
    assert abs(a / n - 0.1) < 0.03 and abs(b / n - 0.9) < 0.03


# --- the registered bot ----------------------------------------------------------------------------------


@needs_feskot
def test_level_bot_resolves_its_elo_and_refuses_bad_ones():
    lo, hi = elo_range(entry_for("feskot"))
    mid = get_bot(f"LEVEL:elo={(lo + hi) / 2}", ruleset="feskot")
    assert mid.inner("feskot").label == at_position("feskot", position(entry_for("feskot"), (lo + hi) / 2)).label
    assert get_bot(f"LEVEL:elo={lo}", ruleset="feskot").inner("feskot").label == get_bot("KADO", ruleset="feskot").label
    for spec, words in (
        (f"LEVEL:elo={lo - 1}", "must be in"),
        (f"LEVEL:elo={hi + 1}", "must be in"),
        ("LEVEL:elo=strong", "expected float"),
        ("LEVEL:elo=nan", "expected float"),
    ):
        with pytest.raises(BotError, match=words):
            get_bot(spec, ruleset="feskot")
    # without a ruleset: checked at the first decision, one line as well
    state = get_game("feskot").new_deal(1)
    with pytest.raises(BotError, match="outside the calibrated range"):
        decide(get_bot(f"LEVEL:elo={hi + 1}"), state, state.current_player(), 1)


def test_a_ruleset_missing_from_the_table_is_one_line():
    missing = [r for r in ("feskot", "tekka", "satat", "shengji") if r not in HELD]
    if not missing:
        with pytest.raises(BotError, match="no calibration for satat"):
            entry_for("satat", {"rulesets": {}})
        return
    with pytest.raises(BotError, match=f"does not play {missing[0]}"):
        get_bot("LEVEL:elo=500", ruleset=missing[0])


def test_bots_json_lists_level_unranked():
    (d,) = [d for d in describe() if d["name"] == "LEVEL"]
    assert d["rank"] is None and d["rulesets"] == HELD and "elo" in d["params"]
    out = CliRunner().invoke(cli, ["bots", "--json"])
    assert out.exit_code == 0
    assert any(b["name"] == "LEVEL" and b["rank"] is None for b in json.loads(out.output))


@needs_feskot
def test_cli_refuses_bad_levels_in_one_line(tmp_path):
    lo, hi = elo_range(entry_for("feskot"))
    for i, spec in enumerate((f"LEVEL:elo={hi + 50:.0f}", f"LEVEL:elo={lo - 50:.0f}", "LEVEL:elo=x")):
        args = ["tournament", "-r", "feskot", "--bots", spec, "--bots", "KADO", "--boards", "2"]
        r = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / f"run{i}")])
        assert r.exit_code != 0, r.output
        lines = [x for x in r.output.strip().splitlines() if x.strip()]
        assert len(lines) == 1 and "Traceback" not in r.output and "elo" in lines[0], r.output


@needs_feskot
def test_tune_can_move_elo():
    from tekkasim.analysis.tune import numeric_param

    lo, hi = elo_range(entry_for("feskot"))
    _, p = numeric_param("LEVEL", "elo", "feskot")
    assert (p.lo, p.hi) == (lo, hi)  # tune's default bracket is the calibrated range


@needs_feskot
def test_tune_targets_level_within_a_bracket():
    """``tune --bot LEVEL --param elo``: bisection over the requested Elo (here within the heuristic steps,
    against KADO, at tiny sizes: the mechanics, not the precision)."""
    from tekkasim.analysis.tune import tune

    u, fit = curve(entry_for("feskot"))
    lo, hi = float(fit[0]), float(np.interp(2.0, u, fit))  # KADO .. PUCHOQ
    res = tune("feskot", "LEVEL", "elo", 150.0, "KADO", seed=6_100_000, pairs=30, final_pairs=30, lo=lo, hi=hi)
    assert lo <= res.value <= hi and res.bot == "LEVEL" and len(res.steps) >= 2


# --- analysis --------------------------------------------------------------------------------------------


def test_table_pairings_chain_every_point_to_its_step():
    pairings = level_pairings("feskot", points=2)
    assert len(set(pairings)) == len(pairings)
    names = {point_name(u) for p in pairings for u in p if u >= 0}
    assert names >= set(LADDER_NAMES) and "u=0.333" in names and "u=7.667" in names
    for ux, uy in pairings:
        if not float(ux).is_integer():
            assert uy in (math.floor(ux), math.floor(ux) + 1)


def test_elo_against_fixed_opponents():
    r = np.array([0.0] * 200 + [400.0] * 200)
    # 76% against 0 and 24% against 400 Elo: 200 Elo, the middle
    s = np.array([1.0] * 152 + [0.0] * 48 + [1.0] * 48 + [0.0] * 152)
    e, lo, hi = elo_against(s, r)
    assert e == pytest.approx(200, abs=1) and lo < 200 < hi and hi - lo < 120
    assert elo_against(np.ones(5), np.zeros(5))[0] == math.inf


# --- strength: cheap, and able to fail -------------------------------------------------------------------


def test_a_mixture_step_is_between_its_ends_on_fixed_boards():
    """KADO..POCHAQ at t=1/2 beats RANDOM, and loses to JANGARA, on 60 pairs each (boards 6,000,000..);
    and the mixture at t=0.9 of the SADA..TANA step beats the one at t=0.1 of KADO..POCHAQ."""
    mix = at_position("feskot", 0.5)
    assert isinstance(mix, Mixture)
    m_random = pair_margins("feskot", mix, "RANDOM", 6_000_000, 60)
    m_jangara = pair_margins("feskot", mix, "JANGARA", 6_000_100, 60)
    assert pair_scores(m_random).mean() > 0.6  # KADO's ~0.69 and POCHAQ's ~0.86 expected (docs/calibration.md)
    assert pair_scores(m_jangara).mean() < 0.35
    assert np.array_equal(m_random, pair_margins("feskot", mix, "RANDOM", 6_000_000, 60))  # reproducible
    strong, weak = at_position("feskot", 3.9), at_position("feskot", 0.1)
    m = pair_margins("feskot", strong, weak, 6_000_200, 60)
    assert pair_scores(m).mean() > 0.6


def test_a_runs_identity_names_what_level_plays(monkeypatch):
    """A stored run keeps what LEVEL:elo=E plays (from the shipped table), so that a rerun after the table
    was regenerated is refused instead of resuming another bot's results into the run."""
    import copy

    import tekkasim.bots.level as level
    from tekkasim.tournament.config import Config

    cfg = Config.build(ruleset="feskot", bots="LEVEL:elo=500,GREEDY", boards=2, seed=1)
    before = cfg.identity()["bots"][0][0]
    assert before["plays"] == get_bot("LEVEL:elo=500", ruleset="feskot").inner("feskot").label
    shifted = copy.deepcopy(level.shipped_table())
    for p in shifted["rulesets"]["feskot"]["points"]:
        p["elo"] += 50.0
    monkeypatch.setattr(level, "shipped_table", lambda: shifted)
    after = Config.build(ruleset="feskot", bots="LEVEL:elo=500,GREEDY", boards=2, seed=1).identity()["bots"][0][0]
    assert after["params"] == before["params"] and after["plays"] != before["plays"]


def test_a_check_of_some_rulesets_keeps_the_others_rows_in_the_doc():
    """`levels check --ruleset satat --out docs/levels.md` rewrites Satat's rows and keeps the other
    rulesets' rows and commands, read back from the file exactly as they were rendered."""
    from tekkasim.analysis.levels import accuracy_markdown, kept_from_markdown

    def row(ruleset, e, elo, lo, hi):
        return {
            "ruleset": ruleset, "elo_requested": e, "elo": elo, "lo": lo, "hi": hi,
            "error": elo - e if math.isfinite(elo) else math.nan, "within_40": abs(elo - e) <= 40,
            "pairs": 20, "opponents": ["TIZAB", "ZELZELA"], "seeds": ["1..10", "11..20"], "bot": "LEVEL[X..Y@0.5]",
        }  # fmt: skip

    rows = [row("feskot", 214.0, 216.0, 191.0, 241.0), row("feskot", 790.0, math.inf, 700.0, None),
            row("satat", 1139.0, 1134.0, 1106.0, 1162.0)]  # fmt: skip
    cmds = ["tekkasim levels check --ruleset feskot --pairs 4", "tekkasim levels check --ruleset satat --pairs 4"]
    text = accuracy_markdown(rows, cmds, {"rulesets": {}})
    commands, kept = kept_from_markdown(text, ["satat"])
    assert commands == cmds[:1] and [r["ruleset"] for r in kept] == ["feskot", "feskot"]
    again = accuracy_markdown([*kept, rows[2]], [*commands, cmds[1]], {"rulesets": {}})
    assert again == text
    assert "2 of 3 requests measured within 40 of E; 3 of 3 95% intervals hold E; 2 of 3 95% intervals lie" in text
    # an interval reaching past E + 40 does not show the goal, even with the estimate inside it; no "-0" error
    near = [row("tekka", 1431.0, 1430.7, 1391.0, 1472.0), row("tekka", 1500.0, 1499.6, 1461.0, 1538.0)]
    text = accuracy_markdown(near, cmds[:1], {"rulesets": {}})
    assert "| +0 | yes |" in text and "-0 |" not in text
    assert "2 of 2 requests measured within 40 of E; 2 of 2 95% intervals hold E; 1 of 2 95% intervals lie" in text


def test_check_refuses_an_out_file_that_is_not_its_report(tmp_path):
    """`levels check --out F` keeps F's other rulesets' rows and rewrites the rest: a file it did not write is
    refused in one line before any pair is played, and left as it was."""
    other = tmp_path / "notes.md"
    other.write_text("# My notes\n\nkeep me\n")
    r = CliRunner().invoke(cli, ["levels", "check", "--ruleset", "feskot", "--out", str(other)])
    assert r.exit_code != 0 and "not a LEVEL accuracy report" in r.output and "vs" not in r.output, r.output
    assert len([x for x in r.output.splitlines() if x.strip()]) == 1 and "Traceback" not in r.output
    assert other.read_text() == "# My notes\n\nkeep me\n"
