"""Bradley–Terry Elo on duplicate pair scores: against an independent fit (statsmodels), coverage of
the 95% intervals on synthetic results with known strengths, bootstrap, LOS, crosstable, refusals."""

import math

import numpy as np
import pytest

from tekkasim.ratings import (
    ELO_PER_LOGIT,
    Pairs,
    RatingError,
    crosstable,
    expected_score,
    fit_elo,
    group_step_interval,
    groups,
    step_interval,
)


def synthetic(true_elo: dict, boards: int, rng, draw: float = 0.25, mixed: list | None = None) -> Pairs:
    """A round robin of pure teams (and optional mixed ones) with pair scores drawn so that the expected
    score is the model's: a draw with probability ``draw * 2 min(p, 1-p)``, else a win or a loss."""
    names = list(true_elo)
    teams = [(n, n) for n in names] + list(mixed or [])
    rows = []
    for i, x in enumerate(teams):
        for y in teams[i + 1 :]:
            d = (true_elo[x[0]] + true_elo[x[1]]) / 2 - (true_elo[y[0]] + true_elo[y[1]]) / 2
            p = expected_score(d)
            pd = draw * 2 * min(p, 1 - p)
            pw = p - pd / 2
            for b in range(boards):
                u = rng.random()
                margin = 1.0 if u < pw else 0.0 if u < pw + pd else -1.0
                rows.append((x, y, b, margin))
    return Pairs.from_rows(rows, names)


TRUE = {"RANDOM": 0.0, "A": 150.0, "B": 300.0, "C": 320.0, "D": -100.0}


def test_matches_statsmodels_glm():
    sm = pytest.importorskip("statsmodels.api")
    pairs = synthetic(TRUE, 60, np.random.default_rng(1))
    fit = fit_elo(pairs, anchor="RANDOM", prior_sd=None)
    X = pairs.design()[:, 1:]  # anchor RANDOM is column 0
    glm = sm.GLM(pairs.score, X, family=sm.families.Binomial()).fit(scale="X2")
    assert np.allclose(fit.elo[1:], glm.params * ELO_PER_LOGIT, atol=1e-6)
    assert np.allclose(fit.se_model[1:], glm.bse * ELO_PER_LOGIT, rtol=1e-6)
    assert fit.elo[0] == 0.0 and fit.se[0] == 0.0
    # the clustered covariance against statsmodels' cluster-robust one (CR1 differs by (N-1)/(N-K))
    plain = sm.GLM(pairs.score, X, family=sm.families.Binomial()).fit(
        cov_type="cluster", cov_kwds={"groups": pairs.board, "use_correction": False}
    )
    G = len(np.unique(pairs.board))
    assert np.allclose(fit.se_robust[1:], plain.bse * np.sqrt(G / (G - 1)) * ELO_PER_LOGIT, rtol=1e-6)
    assert np.all(fit.se >= fit.se_model) and np.all(fit.se >= fit.se_robust)
    # the fit recovers the strengths roughly
    assert np.all(np.abs(fit.elo - np.array(list(TRUE.values()))) < 4 * fit.se + 1)


def test_weak_prior_barely_moves_ordinary_estimates():
    pairs = synthetic(TRUE, 60, np.random.default_rng(2))
    pure = fit_elo(pairs, prior_sd=None)
    weak = fit_elo(pairs)
    assert np.max(np.abs(pure.elo - weak.elo)) < 0.1 * np.min(pure.se[1:])


def test_intervals_cover_the_true_strengths_about_95_percent():
    rng = np.random.default_rng(3)
    hits = total = boot_hits = boot_total = 0
    for rep in range(150):
        pairs = synthetic(TRUE, 30, rng, draw=0.3)
        fit = fit_elo(pairs, anchor="RANDOM", bootstrap=40 if rep < 30 else 0, seed=rep)
        truth = np.array([TRUE[b] for b in fit.bots])
        inside = (fit.lo <= truth) & (truth <= fit.hi)
        hits += int(inside[1:].sum())
        total += len(truth) - 1
        if fit.boot_lo is not None:
            boot_hits += int(((fit.boot_lo <= truth) & (truth <= fit.boot_hi))[1:].sum())
            boot_total += len(truth) - 1
    rate = hits / total
    assert 0.92 <= rate <= 0.98, rate  # 600 intervals: +-1.8% is 2 standard errors
    assert 0.85 <= boot_hits / boot_total <= 1.0  # 120 percentile intervals from 40 resamples each


def test_mixed_partnerships_rate_each_bot():
    mixed = [("A", "D"), ("B", "RANDOM"), ("C", "D")]
    pairs = synthetic(TRUE, 120, np.random.default_rng(4), mixed=mixed)
    fit = fit_elo(pairs, anchor="RANDOM")
    truth = np.array([TRUE[b] for b in fit.bots])
    assert np.all(np.abs(fit.elo - truth) < 4 * fit.se + 1)


def test_a_team_that_won_every_pair_gets_a_finite_estimate_and_no_upper_bound():
    pairs = Pairs.from_rows(
        [("X", "RANDOM", b, 3.0) for b in range(10)]
        + [("X", "Y", b, 1.0) for b in range(10)]
        + [("Y", "RANDOM", b, (-1) ** b) for b in range(10)]
    )
    fit = fit_elo(pairs, anchor="RANDOM")
    x, y = fit.bots.index("X"), fit.bots.index("Y")
    assert math.isfinite(fit.elo[x]) and fit.elo[x] > 400
    assert fit.hi[x] == math.inf and 0 < fit.lo[x] < fit.elo[x]  # ten straight wins bound it below
    assert math.isfinite(fit.lo[y]) and math.isfinite(fit.hi[y]) and fit.notes[y] == ""
    with pytest.raises(RatingError, match="X's rating has no finite maximum-likelihood value"):
        fit_elo(pairs, anchor="RANDOM", prior_sd=None)
    row = {r["name"]: r for r in fit.table()}["X"]
    assert row["hi"] is None and row["lo"] == pytest.approx(fit.lo[x])
    assert row["note"] == "no upper bound: won every pair"


def test_step_intervals_cover_the_true_steps_and_use_the_clustered_contrast():
    rng = np.random.default_rng(11)
    hits = total = 0
    for _ in range(100):
        pairs = synthetic(TRUE, 30, rng, draw=0.3)
        fit = fit_elo(pairs, anchor="RANDOM")
        for upper, lower in (("B", "A"), ("C", "B"), ("A", "D")):
            step, lo, hi, note = step_interval(pairs, fit, upper, lower)
            i, j = fit.bots.index(upper), fit.bots.index(lower)
            assert step == pytest.approx(fit.elo[i] - fit.elo[j]) and note == ""
            assert hi - step == pytest.approx(step - lo)
            assert (hi - lo) / 2 == pytest.approx(fit.quantile * math.sqrt(fit.contrast_var(i, j)))
            hits += lo <= TRUE[upper] - TRUE[lower] <= hi
            total += 1
    assert 0.92 <= hits / total <= 0.98, hits / total  # 300 intervals


def test_a_group_step_is_the_mean_contrast_and_covers_the_true_group_step():
    rng = np.random.default_rng(12)
    hits = total = 0
    for _ in range(100):
        pairs = synthetic(TRUE, 30, rng, draw=0.3)
        fit = fit_elo(pairs, anchor="RANDOM")
        assert group_step_interval(pairs, fit, ["C"], ["B"]) == step_interval(pairs, fit, "C", "B")
        step, lo, hi, note = group_step_interval(pairs, fit, ["B", "C"], ["A"])
        b, c, a = (fit.bots.index(n) for n in "BCA")
        assert step == pytest.approx((fit.elo[b] + fit.elo[c]) / 2 - fit.elo[a]) and note == ""
        w = np.zeros(len(fit.bots))
        w[[b, c]], w[a] = 0.5, -1.0
        var = max(w @ fit.cov @ w, w @ fit.cov_robust @ w)
        assert (hi - lo) / 2 == pytest.approx(fit.quantile * math.sqrt(var))
        # the variance of a mean of two steps is at most the mean of their variances
        widths = [step_interval(pairs, fit, n, "A")[2] - step_interval(pairs, fit, n, "A")[1] for n in "BC"]
        assert (hi - lo) ** 2 <= (widths[0] ** 2 + widths[1] ** 2) / 2 + 1e-6
        hits += lo <= (TRUE["B"] + TRUE["C"]) / 2 - TRUE["A"] <= hi
        total += 1
    assert 0.90 <= hits / total <= 0.99, hits / total  # 100 intervals


def test_a_step_the_pairs_cannot_bound_is_infinite_with_a_note():
    # every bot beats RANDOM on every pair (Satat's and Tekka's ladders): each rating is unbounded above,
    # but X over Y is bounded on both sides by their own pairs, which went both ways
    rows = [(b, "RANDOM", k, 2.0) for b in ("X", "Y") for k in range(10)]
    rows += [("X", "Y", 100 + k, (-1) ** k * (1 + k % 3)) for k in range(20)]
    pairs = Pairs.from_rows(rows)
    fit = fit_elo(pairs, anchor="RANDOM")
    assert fit.hi[fit.bots.index("X")] == math.inf
    step, lo, hi, note = step_interval(pairs, fit, "X", "Y")
    assert math.isfinite(lo) and math.isfinite(hi) and lo < step < hi and note == ""
    # X won every pair against Y: no upper bound on the step, a finite lower one
    won = Pairs.from_rows([*rows[:20], *(("X", "Y", 100 + k, 1.0) for k in range(20))])
    fit = fit_elo(won, anchor="RANDOM")
    step, lo, hi, note = step_interval(won, fit, "X", "Y")
    assert hi == math.inf and math.isfinite(lo) and note.startswith("no upper bound")
    assert step_interval(won, fit, "Y", "X")[1] == -math.inf
    one = Pairs.from_rows([("X", "RANDOM", 0, 1.0), ("X", "Y", 0, -1.0), ("Y", "RANDOM", 0, 1.0)])
    _, lo, hi, note = step_interval(one, fit_elo(one, anchor="RANDOM"), "X", "Y")
    assert (lo, hi, note) == (-math.inf, math.inf, "one board: no interval")


def test_disconnected_groups_are_refused():
    pairs = Pairs.from_rows([("A", "B", 0, 1.0), ("C", "D", 0, 1.0), ("B", "A", 1, 0.0)])
    assert sorted(map(sorted, groups(pairs))) == [["A", "B"], ["C", "D"]]
    with pytest.raises(RatingError, match="2 groups that never met"):
        fit_elo(pairs)


def test_unknown_anchor_and_no_pairs():
    pairs = Pairs.from_rows([("A", "B", 0, 1.0), ("A", "B", 1, -1.0)])
    with pytest.raises(RatingError, match="anchor 'Z' did not play"):
        fit_elo(pairs, anchor="Z")
    with pytest.raises(RatingError, match="no complete pairs"):
        fit_elo(Pairs.from_rows([]))


def test_los_is_a_probability_and_antisymmetric():
    fit = fit_elo(synthetic(TRUE, 20, np.random.default_rng(5)), anchor="RANDOM")
    los = fit.los()
    assert np.allclose(los + los.T, 1.0)
    b, d = fit.bots.index("B"), fit.bots.index("D")
    assert los[b, d] > 0.99  # 400 Elo apart


def test_crosstable_counts_and_interval():
    (row,) = crosstable([("A", "B", [2.0, 0.0, -1.0, 3.0])])
    assert (row["pairs"], row["wins"], row["draws"], row["losses"]) == (4, 2, 1, 1)
    assert row["margin"] == 1.0
    half = 3.182446305284263 * np.std([2.0, 0.0, -1.0, 3.0], ddof=1) / 2  # t(0.975, 3)
    assert row["margin_lo"] == pytest.approx(1.0 - half) and row["margin_hi"] == pytest.approx(1.0 + half)
    (one,) = crosstable([("A", "B", [1.0])])
    assert one["margin_lo"] is None
