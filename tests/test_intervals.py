"""Intervals that mean what they say (issue 23, section 1): coverage of the board-clustered Elo intervals
when pairings share boards, the one-team interval, and no stand-in numbers where the data give no bound."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import ndtr

from tekkasim.ratings import (
    SPRT,
    Z95,
    Pairs,
    expected_score,
    fit_elo,
    interval_text,
    json_number,
    score_elo,
    score_interval,
)

TRUE = {"RANDOM": 0.0, "A": 150.0, "B": 300.0, "C": 320.0, "D": -100.0}


def board_effect_round_robin(rng, boards: int, common: float, own: float, draw: float = 0.3) -> Pairs:
    """A round robin of the TRUE bots on shared boards whose pair scores are correlated across pairings.

    Each pair's outcome is a latent normal ``Z`` cut at the model's loss / draw / win probabilities, so every
    pair score has exactly the Bradley–Terry trinomial of its pairing (truth is TRUE). ``Z`` holds a board
    shift common to every pairing of the board (weight ``common``: X is always the earlier bot, so it helps
    the first bots and hurts the last on that board) and a per-board form of each bot (weight ``own``: a
    board that suits one bot helps it in all its pairings), plus independent noise."""
    names = list(TRUE)
    k = len(names)
    xs, ys = np.triu_indices(k, 1)
    elo = np.array(list(TRUE.values()))
    p = expected_score(elo[xs] - elo[ys])
    p_draw = draw * 2 * np.minimum(p, 1 - p)
    p_loss = 1 - p - p_draw / 2
    shift = rng.standard_normal((boards, 1))
    form = rng.standard_normal((boards, k))
    noise = rng.standard_normal((boards, len(xs)))
    z = common * shift + own * (form[:, xs] - form[:, ys]) / math.sqrt(2) + math.sqrt(1 - common**2 - own**2) * noise
    u = ndtr(z)
    margin = np.where(u < p_loss, -1.0, np.where(u < p_loss + p_draw, 0.0, 1.0)).ravel()
    xa, ya = np.tile(xs, boards), np.tile(ys, boards)
    return Pairs(names, xa, xa, ya, ya, np.repeat(np.arange(boards), len(xs)), margin)


def test_clustered_intervals_cover_with_board_effects_and_the_model_ones_do_not():
    # 800 replicates x 4 rated bots = 3200 intervals: the binomial standard error of a 95% rate is 0.39%
    # (somewhat more with the bots of one replicate correlated), so 93..97% is about 5 of them each side.
    rng = np.random.default_rng(23)
    truth = np.array(list(TRUE.values()))
    hits = model_hits = total = contrast_hits = contrasts = 0
    for _ in range(800):
        fit = fit_elo(board_effect_round_robin(rng, 80, common=0.5, own=0.6), anchor="RANDOM")
        hits += int(((fit.lo <= truth) & (truth <= fit.hi))[1:].sum())
        # differences between two rated bots (what the likelihood of superiority uses) cover too
        for i in range(1, 5):
            for j in range(i + 1, 5):
                half = fit.quantile * math.sqrt(fit.contrast_var(i, j))
                contrast_hits += abs(fit.elo[i] - fit.elo[j] - (truth[i] - truth[j])) <= half
                contrasts += 1
        # the old interval: the dispersion-scaled model covariance alone, normal quantile
        lo, hi = fit.elo - Z95 * fit.se_model, fit.elo + Z95 * fit.se_model
        model_hits += int(((lo <= truth) & (truth <= hi))[1:].sum())
        total += len(truth) - 1
    assert 0.93 <= hits / total <= 0.97, hits / total
    assert 0.93 <= contrast_hits / contrasts <= 0.97, contrast_hits / contrasts
    assert model_hits / total < 0.91, model_hits / total  # the board effects are real in this simulation


def test_without_board_effects_the_clustered_and_model_errors_agree():
    fit = fit_elo(board_effect_round_robin(np.random.default_rng(5), 2000, common=0.0, own=0.0), anchor="RANDOM")
    ratio = fit.se_robust[1:] / fit.se_model[1:]
    assert np.all((ratio > 0.9) & (ratio < 1.1)), ratio


def test_the_one_team_interval_covers_and_bounds_a_whitewash_on_one_side():
    rng = np.random.default_rng(7)
    hits = total = 0
    for elo in (-300.0, -50.0, 0.0, 120.0, 400.0):
        p = expected_score(elo)
        p_draw = 0.4 * min(p, 1 - p)
        for _ in range(300):
            u = rng.random(40)
            scores = np.where(u < p - p_draw / 2, 1.0, np.where(u < p + p_draw / 2, 0.5, 0.0))
            _, lo, hi = score_interval(scores)
            hits += lo <= p <= hi
            total += 1
    assert 0.93 <= hits / total <= 0.97, hits / total
    elo, lo, hi = score_elo(np.ones(20))
    assert elo == math.inf and hi == math.inf and 0 < lo < 1000
    elo, lo, hi = score_elo(np.zeros(20))
    assert elo == -math.inf and lo == -math.inf and -1000 < hi < 0
    assert interval_text(lo, hi) == f"[none, {hi:+.0f}]"


def test_sprt_json_has_no_stand_in_numbers():
    test = SPRT(0, 100)
    assert test.to_json()["elo"] is None and test.to_json()["note"] == "no pairs"
    for _ in range(12):
        test.add(1.0)
    data = test.to_json()
    json.dumps(data, allow_nan=False)
    assert data["elo"] is None and data["hi"] is None and data["note"] == "won every pair"
    assert data["lo"] > 0 and data["lo"] == pytest.approx(score_elo(np.ones(12))[1])
    assert json_number(math.inf) is None and json_number(-math.inf) is None and json_number(3) == 3.0


def test_a_group_that_won_every_pair_leaves_only_its_lower_bounds():
    # RANDOM lost every pair: every other bot's rating against it is unbounded above, their differences not
    rng = np.random.default_rng(3)
    rows = []
    for b in range(30):
        rows += [("A", "RANDOM", b, 2.0), ("B", "RANDOM", b, 1.0), ("A", "B", b, float(rng.integers(-1, 2)))]
    fit = fit_elo(Pairs.from_rows(rows), anchor="RANDOM")
    table = {r["name"]: r for r in fit.table()}
    for name in ("A", "B"):
        assert table[name]["hi"] is None and table[name]["lo"] > 0
        assert table[name]["note"] == "no upper bound: RANDOM (the anchor) lost every pair"
    a, b = fit.bots.index("A"), fit.bots.index("B")
    assert 0 < fit.contrast_var(a, b) < 200**2
    json.dumps(fit.table(), allow_nan=False)


def test_tournament_and_report_print_the_same_intervals(tmp_path):
    from click.testing import CliRunner

    from tekkasim.cli import cli

    run = tmp_path / "run"
    args = ["tournament", "-r", "feskot", "--bots", "RANDOM,GREEDY,KADO", "--boards", "8", "--seed", "3"]
    played = CliRunner().invoke(cli, [*args, "--workers", "1", "--quiet", "--out", str(run)])
    assert played.exit_code == 0, played.output
    shown = CliRunner().invoke(cli, ["report", str(run)])
    assert shown.exit_code == 0, shown.output
    assert played.output.rstrip().endswith(shown.output.rstrip())
    assert "clustered by board (8 boards" in shown.output


def test_report_json_says_null_where_a_bot_won_every_pair(tmp_path):
    from click.testing import CliRunner

    from tekkasim.cli import cli

    run = tmp_path / "run"
    args = ["tournament", "-r", "satat", "--bots", "RANDOM,KADO", "--boards", "6", "--workers", "1", "--quiet"]
    assert CliRunner().invoke(cli, [*args, "--out", str(run)]).exit_code == 0
    res = CliRunner().invoke(cli, ["report", str(run), "--json", "--bootstrap", "20"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    json.dumps(data, allow_nan=False)
    assert data["interval"]["clusters"] == 6 and data["bootstrap"] == 20
    kado = next(b for b in data["bots"] if b["name"] == "KADO")
    assert kado["hi"] is None and kado["boot_lo"] is None and kado["boot_hi"] is None and kado["lo"] > 0
    assert kado["note"] == "no upper bound: won every pair"
    text = CliRunner().invoke(cli, ["report", str(run)]).output
    assert "none]" in text and "won every pair" in text


def test_one_board_gives_no_interval_rather_than_a_made_up_one():
    rows = [("A", "B", 0, 1.0), ("B", "C", 0, -1.0), ("A", "C", 0, 0.0), ("B", "A", 0, 1.0)]
    fit = fit_elo(Pairs.from_rows(rows), anchor="A")
    table = {r["name"]: r for r in fit.table()}
    assert table["B"]["lo"] is None and table["B"]["hi"] is None and table["B"]["note"] == "one board: no interval"
    assert table["A"]["lo"] == table["A"]["hi"] == 0.0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-3, 5000), max_size=60))
def test_distinct_by_counting_equals_numpy_unique(values):
    from tekkasim.ratings import _distinct

    v = np.array(values, dtype=np.int64)
    uniq, index = _distinct(v)
    want_uniq, want_index = np.unique(v, return_inverse=True)
    assert np.array_equal(uniq, want_uniq) and np.array_equal(index, want_index.ravel())
