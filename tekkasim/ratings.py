"""Ratings from duplicate pairs: Bradley–Terry Elo with intervals, crosstables, likelihood of superiority,
the sequential probability ratio test, and the Elo of one team over another from their pair scores.
Pure functions on tables: no bots, no tournament, no I/O.

The unit is the **pair** (runs.md): one board played at both tables; its **score** for team X is 1, 1/2
or 0 as X's margin over the two tables is positive, zero or negative. The two tables of a board are not
independent games, so nothing here counts them apart.

Model. A team's strength is the mean of its two bots' ratings; a difference of ``d`` Elo gives an
expected pair score of ``1 / (1 + 10^(-d/400))``. The ratings maximize the Bernoulli log-likelihood of the
pair scores with a draw counted as half a win (``sum s log p + (1-s) log(1-p)``), whose maximum is where
the expected scores match the observed ones. The anchor's rating is fixed at 0.

Intervals. In a round robin every pairing plays the same boards, so the pairs of one board are not
independent: a board that suits one bot's style helps it in all its pairings. ``lo``/``hi`` are therefore
built from a **board-clustered sandwich** covariance (every pair of one board index is one cluster;
the estimating equations' per-board sums give the "meat", with the small-sample factor G/(G-1) for G
boards) and Student's t with G-1 degrees of freedom. The model covariance (observed information scaled
by the quasi-likelihood dispersion, Pearson chi-square over degrees of freedom: draws make a pair score
less variable than a coin flip) may widen an interval but never narrows it below the clustered one: each
contrast takes the larger of the two variances. With independent boards the two agree; with board
effects the clustered one is the wider, and it is the one that covers. An optional bootstrap resamples
boards (every pairing's pair on a drawn board goes together) and refits.

Unbounded ratings. A team that won (or lost) every pair has no finite maximum. ``prior_sd`` (Elo) adds a
weak normal prior on every rating (default 2000 Elo: it changes ordinary estimates by far less than their
error) so that the estimate stays finite; ``prior_sd=None`` is the pure maximum likelihood. The side on
which the likelihood never turns down (found by a linear program over the pairings) has no bound: it is
``inf`` here and ``null`` in JSON, with a note saying why. The other side of such a rating comes from the
profile likelihood (its drop by t^2/2, scaled by the dispersion when that exceeds 1).

One team against another. :func:`score_elo` gives the Elo of X over Y from X's pair scores alone, with a
Wilson-type interval on the mean score (the effective sample size scaled by the score's variance against
a win-or-loss score of the same mean, estimated with one pseudo win and one pseudo loss so that it exists
at 0 and 1): a team that won every pair gets a finite lower bound and no upper bound.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from .errors import TekkasimError

ELO_PER_LOGIT = 400.0 / math.log(10.0)
Z95 = 1.959963984540054


class RatingError(TekkasimError):
    """Results that cannot be rated as asked (disconnected groups, an unknown anchor, no pairs)."""


def expected_score(elo_diff: float) -> float:
    """The expected pair score of a team ``elo_diff`` Elo stronger.

    >>> round(expected_score(0), 3), round(expected_score(400), 4)
    (0.5, 0.9091)
    """
    return 1.0 / (1.0 + 10.0 ** (-elo_diff / 400.0))


def elo_of_score(score: float) -> float:
    """The Elo difference whose expected pair score is ``score`` (+-inf at 1 and 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def pair_score(margin: float) -> float:
    """1, 1/2 or 0 as ``margin`` is positive, zero or negative."""
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def json_number(x: float) -> float | None:
    """``x`` as a JSON number, or None (``null``) where it is not finite: JSON has no infinity, and no
    stand-in number may take its place."""
    x = float(x)
    return x if math.isfinite(x) else None


def score_note(scores) -> str:
    """Why an Elo from these pair scores has no bound: "won every pair", "lost every pair", "no pairs", or ""."""
    s = np.asarray(scores, dtype=float)
    if len(s) == 0:
        return "no pairs"
    return "won every pair" if (s == 1).all() else "lost every pair" if (s == 0).all() else ""


def score_interval(scores, z: float = Z95) -> tuple[float, float, float]:
    """The mean pair score and its 95% interval (module docstring, "One team against another")."""
    s = np.asarray(scores, dtype=float)
    n = len(s)
    if n == 0:
        raise RatingError("no pairs to rate")
    mean = float(s.mean())
    padded = np.concatenate([s, [0.0, 1.0]])
    pm = float(padded.mean())
    phi = float(padded.var(ddof=1)) / (pm * (1 - pm))
    ne = n / phi
    denom = 1 + z * z / ne
    centre = (mean + z * z / (2 * ne)) / denom
    half = z * math.sqrt(mean * (1 - mean) / ne + z * z / (4 * ne * ne)) / denom
    return mean, max(0.0, centre - half), min(1.0, centre + half)


def score_elo(scores) -> tuple[float, float, float]:
    """X's Elo over Y from X's pair scores, with its 95% interval (:func:`score_interval` through the Elo
    curve): +-inf where the scores give no bound (a team that won every pair has no upper bound and an
    infinite estimate; :func:`score_note` says why), nan with no pairs."""
    if len(scores) == 0:
        return math.nan, -math.inf, math.inf
    mean, lo, hi = score_interval(scores)
    return elo_of_score(mean), elo_of_score(lo), elo_of_score(hi)


def interval_text(lo: float | None, hi: float | None, fmt: str = "+.0f") -> str:
    """``[lo, hi]`` for people, a missing bound (None or infinite) shown as ``none``."""

    def one(x):
        return "none" if x is None or not math.isfinite(x) else f"{x:{fmt}}"

    return f"[{one(lo)}, {one(hi)}]"


@dataclass
class Pairs:
    """Pair results: for pair ``k``, team ``x[k]`` (bot indices ``xa[k]``, ``xb[k]``) against team ``y[k]``
    (``ya``, ``yb``) on board ``board[k]``, with X's ``margin[k]``. ``bots`` names the bot indices."""

    bots: list[str]
    xa: np.ndarray
    xb: np.ndarray
    ya: np.ndarray
    yb: np.ndarray
    board: np.ndarray
    margin: np.ndarray
    score: np.ndarray = field(init=False)

    def __post_init__(self):
        for name in ("xa", "xb", "ya", "yb", "board"):
            setattr(self, name, np.asarray(getattr(self, name), dtype=np.int64))
        self.margin = np.asarray(self.margin, dtype=float)
        self.score = np.where(self.margin > 0, 1.0, np.where(self.margin == 0, 0.5, 0.0))

    @classmethod
    def from_rows(cls, rows: list[tuple], bots: list[str] | None = None) -> Pairs:
        """From ``(x_team, y_team, board, margin)`` rows, a team being a bot name or a pair of names."""
        names = list(bots or [])
        index = {n: i for i, n in enumerate(names)}

        def idx(name: str) -> int:
            if name not in index:
                index[name] = len(names)
                names.append(name)
            return index[name]

        cols: list[list] = [[], [], [], [], [], []]
        for x, y, board, margin in rows:
            x2 = (x, x) if isinstance(x, str) else tuple(x)
            y2 = (y, y) if isinstance(y, str) else tuple(y)
            for col, v in zip(cols, (idx(x2[0]), idx(x2[1]), idx(y2[0]), idx(y2[1]), board, margin), strict=True):
                col.append(v)
        return cls(names, *cols)

    def __len__(self) -> int:
        return len(self.margin)

    def design(self) -> np.ndarray:
        """Rows of +-1/2 per team member: the logit of X's expected score is ``design @ ratings``."""
        n, k = len(self), len(self.bots)
        X = np.zeros((n, k))
        r = np.arange(n)
        for col, sign in ((self.xa, 0.5), (self.xb, 0.5), (self.ya, -0.5), (self.yb, -0.5)):
            np.add.at(X, (r, col), sign)
        return X

    def subset(self, rows: np.ndarray) -> Pairs:
        return Pairs(
            self.bots, self.xa[rows], self.xb[rows], self.ya[rows], self.yb[rows], self.board[rows], self.margin[rows]
        )


def groups(pairs: Pairs) -> list[list[str]]:
    """The connected groups of bots: two bots are linked when they played in one pair (either side)."""
    return _components(pairs.bots, _team_rows(pairs)[0])


def _team_rows(pairs: Pairs) -> tuple[np.ndarray, np.ndarray]:
    """The distinct team pairings (rows of xa, xb, ya, yb) and each pair's row: the fit works per
    pairing, not per pair, as a run may hold millions of pairs."""
    k = len(pairs.bots)
    uniq, row = _distinct(((pairs.xa * k + pairs.xb) * k + pairs.ya) * k + pairs.yb)
    return np.stack([uniq // k**3, uniq // k**2 % k, uniq // k % k, uniq % k], axis=1), row


def _distinct(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)``, by counting instead of sorting when the values are
    non-negative integers in a range not much larger than their number (board indices, team keys)."""
    if len(values) and values.min() >= 0 and values.max() < 4 * len(values) + 1024:
        seen = np.bincount(values) > 0
        uniq = np.flatnonzero(seen)
        index = np.cumsum(seen) - 1
        return uniq, index[values]
    return np.unique(values, return_inverse=True)


def _components(bots: list[str], teams: np.ndarray) -> list[list[str]]:
    parent = list(range(len(bots)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for cols in teams.tolist():
        root = find(cols[0])
        for c in cols[1:]:
            parent[find(c)] = root
    out: dict[int, list[str]] = {}
    for i, name in enumerate(bots):
        out.setdefault(find(i), []).append(name)
    return list(out.values())


@dataclass
class EloFit:
    """Ratings in Elo (anchor 0) with their 95% intervals (module docstring: "Intervals").

    ``cov`` is the dispersion-scaled model covariance and ``cov_robust`` the board-clustered one (Elo^2,
    anchor row and column zero); :meth:`contrast_var` takes the larger of the two for any contrast.
    ``lo``/``hi`` are +-inf where the data give no bound (``notes`` says why), ``boards`` is the number of
    clusters and ``quantile`` the Student t quantile the intervals use."""

    bots: list[str]
    anchor: str
    elo: np.ndarray
    cov: np.ndarray
    cov_robust: np.ndarray
    dispersion: float
    pairs_per_bot: np.ndarray
    loglik: float
    boards: int
    quantile: float
    lo: np.ndarray
    hi: np.ndarray
    notes: list[str]
    boot_lo: np.ndarray | None = None
    boot_hi: np.ndarray | None = None

    def contrast_var(self, i: int, j: int) -> float:
        """The variance of ``elo[i] - elo[j]``: the larger of the clustered and the model one."""
        model = self.cov[i, i] + self.cov[j, j] - 2 * self.cov[i, j]
        with np.errstate(invalid="ignore"):  # inf - inf where the pairings cannot separate the two
            robust = self.cov_robust[i, i] + self.cov_robust[j, j] - 2 * self.cov_robust[i, j]
        if math.isnan(robust):  # no clustered estimate of this contrast: the model one stands
            robust = 0.0
        return float(max(model, robust, 0.0))

    @property
    def se(self) -> np.ndarray:
        """Each bot's standard error against the anchor (the larger of clustered and model)."""
        return np.sqrt(np.maximum(np.maximum(np.diag(self.cov), np.diag(self.cov_robust)), 0.0))

    @property
    def se_model(self) -> np.ndarray:
        return np.sqrt(np.maximum(np.diag(self.cov), 0.0))

    @property
    def se_robust(self) -> np.ndarray:
        return np.sqrt(np.maximum(np.diag(self.cov_robust), 0.0))

    def los(self) -> np.ndarray:
        """Likelihood of superiority: ``los[i, j]`` = P(bot i is stronger than bot j) under the normal
        approximation of the fit with :meth:`contrast_var` (0.5 on the diagonal)."""
        from scipy.stats import norm

        k = len(self.bots)
        out = np.full((k, k), 0.5)
        for i in range(k):
            for j in range(k):
                if i != j:
                    var = self.contrast_var(i, j)
                    d = self.elo[i] - self.elo[j]
                    out[i, j] = norm.cdf(d / math.sqrt(var)) if var > 0 else (0.5 if d == 0 else float(d > 0))
        return out

    def table(self) -> list[dict]:
        """One row per bot for JSON: ``lo``/``hi`` None where the data give no bound, with ``note`` why."""
        rows = []
        for i, name in enumerate(self.bots):
            bounded = math.isfinite(self.lo[i]) and math.isfinite(self.hi[i])
            row = {
                "name": name,
                "elo": float(self.elo[i]),
                "lo": json_number(self.lo[i]),
                "hi": json_number(self.hi[i]),
                "pairs": int(self.pairs_per_bot[i]),
                "se": float(self.se[i]) if bounded else None,
            }
            if self.notes[i]:
                row["note"] = self.notes[i]
            if self.boot_lo is not None:
                row["boot_lo"], row["boot_hi"] = json_number(self.boot_lo[i]), json_number(self.boot_hi[i])
            rows.append(row)
        return rows


@dataclass
class _Grouped:
    """Pairs grouped by their distinct team pairing (a design row): the likelihood depends only on each
    pairing's count ``n``, score sum ``s`` and sum of squared scores ``q``; ``row`` maps pairs to pairings."""

    teams: np.ndarray
    X: np.ndarray
    n: np.ndarray
    s: np.ndarray
    q: np.ndarray
    row: np.ndarray


def _group(pairs: Pairs) -> _Grouped:
    teams, row = _team_rows(pairs)
    m = len(teams)
    X = np.zeros((m, len(pairs.bots)))
    r = np.arange(m)
    for col, sign in zip(teams.T, (0.5, 0.5, -0.5, -0.5), strict=True):
        np.add.at(X, (r, col), sign)
    n = np.bincount(row, minlength=m).astype(float)
    return _Grouped(teams, X, n, np.bincount(row, pairs.score, m), np.bincount(row, pairs.score**2, m), row)


def _newton(X: np.ndarray, n: np.ndarray, s: np.ndarray, prior_prec: float, offset=0.0, max_iter: int = 100):
    """Maximize sum s log p + (n-s) log(1-p) minus the prior over the columns of ``X`` (pairings grouped:
    the log-likelihood is linear in the score); returns (beta, information, loglik, converged)."""
    beta = np.zeros(X.shape[1])

    def loglik(b: np.ndarray) -> float:
        eta = X @ b + offset
        # log p = -log(1+e^-eta), log(1-p) = -log(1+e^eta)
        return float(-(s * np.logaddexp(0, -eta) + (n - s) * np.logaddexp(0, eta)).sum() - 0.5 * prior_prec * b @ b)

    def information(b: np.ndarray) -> np.ndarray:
        p = _expit(X @ b + offset)
        return (X * (n * p * (1 - p))[:, None]).T @ X + prior_prec * np.eye(len(b))

    ll = loglik(beta)
    converged = False
    for _ in range(max_iter):
        p = _expit(X @ beta + offset)
        grad = X.T @ (s - n * p) - prior_prec * beta
        try:
            step = np.linalg.solve(information(beta), grad)
        except np.linalg.LinAlgError:
            raise RatingError(
                "the ratings are not identifiable from these pairs (a bot only ever played in one mixed partnership?)"
            ) from None
        t = 1.0
        while True:
            new = beta + t * step
            new_ll = loglik(new)
            if new_ll >= ll - 1e-12 or t < 1e-6:
                break
            t /= 2
        beta, delta, ll = new, new_ll - ll, new_ll
        if np.max(np.abs(t * step), initial=0.0) < 1e-10 or abs(delta) < 1e-13:
            converged = True
            break
    return beta, information(beta), ll, converged


def _expit(eta: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * eta))


def _unbounded(X: np.ndarray, n: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which free ratings the likelihood lets run to +inf (``up``) or -inf (``down``).

    A direction ``d`` raises the likelihood without end when no pairing contradicts it: a pairing that
    ever scored below 1 needs ``x.d <= 0`` and one that ever scored above 0 needs ``x.d >= 0``. Rating
    ``i`` is unbounded above when some such ``d`` has ``d_i > 0`` (a linear program per bot and side);
    when every pairing both scored and conceded, no direction exists and nothing is solved."""
    k = X.shape[1]
    up, down = np.zeros(k, dtype=bool), np.zeros(k, dtype=bool)
    for i in range(k):
        c = np.zeros(k)
        c[i] = 1.0
        up[i], down[i] = _runs_off(X, n, s, c), _runs_off(X, n, s, -c)
    return up, down


def _runs_off(X: np.ndarray, n: np.ndarray, s: np.ndarray, c: np.ndarray) -> bool:
    """Whether the likelihood lets the contrast ``c . ratings`` run to +inf: some direction ``d`` (each
    ``|d_i| <= 1``) with ``c . d > 0`` that no pairing contradicts (:func:`_unbounded`)."""
    below, above = s < n, s > 0
    if np.all(below & above) or X.shape[1] == 0:
        return False
    from scipy.optimize import linprog

    A = np.concatenate([X[below], -X[above]])
    res = linprog(-c, A_ub=A, b_ub=np.zeros(len(A)), bounds=(-1, 1), method="highs")
    return bool(res.status == 0 and -res.fun > 1e-9)


def step_interval(pairs: Pairs, fit: EloFit, upper: str, lower: str) -> tuple[float, float, float, str]:
    """``(step, lo, hi, note)``: ``upper``'s Elo less ``lower``'s in ``fit`` (a :func:`fit_elo` of ``pairs``)
    with its 95% interval, the fit's t quantile times the root of :meth:`EloFit.contrast_var` (clustered by
    board). A side the pairs cannot bound (some shift of the ratings that widens the step that way
    contradicts no pair) is +-inf, and ``note`` says so; "" otherwise."""
    return group_step_interval(pairs, fit, [upper], [lower])


def group_step_interval(
    pairs: Pairs, fit: EloFit, upper: list[str], lower: list[str]
) -> tuple[float, float, float, str]:
    """:func:`step_interval` of groups: the mean Elo of the bots ``upper`` less the mean of ``lower`` (a tier
    over the bot below it), with its 95% interval from the same covariances (the larger of the clustered
    and the model variance of the contrast)."""
    c = np.zeros(len(fit.bots))
    for names, sign in ((upper, 1.0), (lower, -1.0)):
        for name in names:
            c[fit.bots.index(name)] += sign / len(names)
    step = float(c @ fit.elo)
    up_names, down_names = ", ".join(upper), ", ".join(lower)
    if fit.boards <= 1:  # as fit_elo: one cluster says nothing about the spread between boards
        return step, -math.inf, math.inf, "one board: no interval"
    model = float(c @ fit.cov @ c)
    with np.errstate(invalid="ignore"):  # inf - inf where the pairings cannot separate the groups
        robust = float(c @ fit.cov_robust @ c)
    if math.isnan(robust):  # no clustered estimate of this contrast: the model one stands
        robust = 0.0
    half = fit.quantile * math.sqrt(max(model, robust, 0.0))
    lo, hi = step - half, step + half
    g = _group(pairs)
    up, down = _runs_off(g.X, g.n, g.s, c), _runs_off(g.X, g.n, g.s, -c)
    if up:
        hi = math.inf
    if down:
        lo = -math.inf
    note = ""
    if up or down:
        note = (
            f"no {_side(up, down)} bound: the pairs that separate {up_names} from {down_names} were all won by one side"
        )
    return step, lo, hi, note


def _profile_bound(X, n, s, prior_prec, j, beta, ll, crit, side) -> float:
    """The rating ``j`` (free column) on ``side`` (-1 below, +1 above the estimate) where the penalized
    profile log-likelihood has dropped by ``crit / 2``; -inf or +inf if it never does within 200 logits."""
    from scipy.optimize import brentq

    others = np.array([m for m in range(X.shape[1]) if m != j], dtype=np.int64)

    def drop(c: float) -> float:
        _, _, llc, _ = _newton(X[:, others], n, s, prior_prec, offset=X[:, j] * c)
        return ll - (llc - 0.5 * prior_prec * c * c) - crit / 2

    width = 1.0
    while drop(beta[j] + side * width) < 0:
        width *= 2
        if width > 200:
            return side * math.inf
    edge = beta[j] + side * width
    a, b = sorted((beta[j], edge))
    return brentq(drop, a, b, xtol=1e-6) if drop(a) * drop(b) < 0 else edge


def fit_elo(
    pairs: Pairs, anchor: str | None = None, prior_sd: float | None = 2000.0, bootstrap: int = 0, seed: int = 0
) -> EloFit:
    """Maximum-likelihood Bradley–Terry ratings of ``pairs`` in Elo, ``anchor`` (default: the first bot)
    at 0, with board-clustered 95% intervals (module docstring); ``bootstrap`` > 0 adds percentile
    intervals from that many resamples of the boards."""
    if len(pairs) == 0:
        raise RatingError("no complete pairs to rate yet")
    g = _group(pairs)
    comps = _components(pairs.bots, g.teams)
    if len(comps) > 1:
        shown = " and ".join("{" + ", ".join(c[:4]) + (", ..." if len(c) > 4 else "") + "}" for c in comps[:3])
        raise RatingError(
            f"the results fall into {len(comps)} groups that never met ({shown}): their ratings "
            "cannot be compared; rate each group on its own"
        )
    anchor = pairs.bots[0] if anchor is None else anchor
    if anchor not in pairs.bots:
        raise RatingError(f"anchor {anchor!r} did not play (bots: {', '.join(pairs.bots)})")
    a = pairs.bots.index(anchor)
    k = len(pairs.bots)
    free = np.array([i for i in range(k) if i != a], dtype=np.int64)
    X = g.X[:, free]
    prior_prec = 0.0 if prior_sd is None else (ELO_PER_LOGIT / prior_sd) ** 2
    up_f, down_f = _unbounded(X, g.n, g.s)
    if prior_prec == 0 and (up_f.any() or down_f.any()):
        off = pairs.bots[free[int(np.flatnonzero(up_f | down_f)[0])]]
        raise RatingError(
            f"{off}'s rating has no finite maximum-likelihood value (its side won or lost every pair): "
            "fit with a prior (prior_sd) to rate it"
        )
    beta, info, ll, _ = _newton(X, g.n, g.s, prior_prec)
    try:
        cov_f = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        raise RatingError("the ratings are not identifiable from these pairs") from None
    if not np.all(np.isfinite(cov_f)) or np.linalg.cond(info) > 1e12:
        raise RatingError(
            "the ratings are not identifiable from these pairs (a bot only ever played in one mixed partnership?)"
        )
    p = _expit(X @ beta)
    dof = len(pairs) - len(free)
    pearson = float(((g.q - 2 * p * g.s + g.n * p * p) / np.maximum(p * (1 - p), 1e-12)).sum())
    dispersion = pearson / dof if dof > 0 else 1.0

    # the clustered "meat": per board, the sum over its pairs of x_k (s_k - p_k), one board one cluster
    boards, cluster = _distinct(pairs.board)
    G = len(boards)
    resid = pairs.score - p[g.row]
    u = np.zeros(G * k)
    for col, sign in ((pairs.xa, 0.5), (pairs.xb, 0.5), (pairs.ya, -0.5), (pairs.yb, -0.5)):
        u += np.bincount(cluster * k + col, sign * resid, G * k)
    u = u.reshape(G, k)[:, free]
    robust_f = cov_f @ (u.T @ u) @ cov_f * (G / (G - 1)) if G > 1 else np.full_like(cov_f, np.inf)

    elo = np.zeros(k)
    elo[free] = beta * ELO_PER_LOGIT
    cov = np.zeros((k, k))
    cov[np.ix_(free, free)] = cov_f * dispersion * ELO_PER_LOGIT**2
    cov_robust = np.zeros((k, k))
    cov_robust[np.ix_(free, free)] = robust_f * ELO_PER_LOGIT**2
    from scipy.stats import t as student

    q = float(student.ppf(0.975, G - 1)) if G > 1 else math.inf
    se = np.sqrt(np.maximum(np.diag(cov), np.diag(cov_robust)))
    lo, hi = elo.copy(), elo.copy()  # the anchor's [0, 0]
    notes = [""] * k
    if G > 1:
        lo[free], hi[free] = elo[free] - q * se[free], elo[free] + q * se[free]
    else:  # one cluster says nothing about the spread between boards
        lo[free], hi[free] = -math.inf, math.inf
        notes = ["one board: no interval" if i != a else "" for i in range(k)]

    if up_f.any() or down_f.any():
        own = _own_scores(pairs, k)
        for m, i in enumerate(free):
            if not (up_f[m] or down_f[m]):
                continue
            crit = q * q * max(1.0, dispersion)
            for side, flag in ((-1, down_f[m]), (1, up_f[m])):
                bound = (
                    side * math.inf
                    if flag
                    else ELO_PER_LOGIT * _profile_bound(X, g.n, g.s, prior_prec, m, beta, ll, crit, side)
                )
                (lo if side < 0 else hi)[i] = bound
            notes[i] = _why(own[i], anchor, own[a], bool(up_f[m]), bool(down_f[m]))

    counts = np.bincount(pairs.xa, minlength=k) + np.bincount(pairs.ya, minlength=k)
    counts += np.bincount(pairs.xb[pairs.xb != pairs.xa], minlength=k)
    counts += np.bincount(pairs.yb[pairs.yb != pairs.ya], minlength=k)
    fit = EloFit(list(pairs.bots), anchor, elo, cov, cov_robust, dispersion, counts, ll, G, q, lo, hi, notes)
    if bootstrap > 0:
        fit.boot_lo, fit.boot_hi = _bootstrap(pairs, g, cluster, G, free, prior_prec, bootstrap, seed)
        # where the likelihood runs off, the resamples' values are the prior's, not the data's
        unbounded = np.array([bool(n) for n in notes])
        fit.boot_lo[unbounded], fit.boot_hi[unbounded] = -math.inf, math.inf
    return fit


def _own_scores(pairs: Pairs, k: int) -> list[tuple[float, float]]:
    """Per bot, the (lowest, highest) pair score its teams got."""
    lo, hi = np.full(k, np.inf), np.full(k, -np.inf)
    for cols, score in (
        (pairs.xa, pairs.score),
        (pairs.xb, pairs.score),
        (pairs.ya, 1 - pairs.score),
        (pairs.yb, 1 - pairs.score),
    ):
        np.minimum.at(lo, cols, score)
        np.maximum.at(hi, cols, score)
    return list(zip(lo.tolist(), hi.tolist(), strict=True))


def _side(up: bool, down: bool) -> str:
    return "upper" if up and not down else "lower" if down and not up else "upper or lower"


def _why(own: tuple[float, float], anchor: str, anchor_own: tuple[float, float], up: bool, down: bool) -> str:
    side = _side(up, down)
    if own[0] == 1.0:
        reason = "won every pair"
    elif own[1] == 0.0:
        reason = "lost every pair"
    elif up and anchor_own[1] == 0.0:
        reason = f"{anchor} (the anchor) lost every pair"
    elif down and anchor_own[0] == 1.0:
        reason = f"{anchor} (the anchor) won every pair"
    else:
        reason = "a group of bots won or lost every pair against the rest"
    return f"no {side} bound: {reason}"


def _bootstrap(pairs: Pairs, g: _Grouped, cluster: np.ndarray, G: int, free, prior_prec: float, n: int, seed: int):
    rng = np.random.default_rng(seed)
    X = g.X[:, free]
    m = len(g.n)
    draws = np.zeros((n, len(pairs.bots)))
    # a weak prior keeps resamples in which a team won every pair finite
    prec = prior_prec if prior_prec > 0 else (ELO_PER_LOGIT / 4000.0) ** 2
    for b in range(n):
        w = np.bincount(rng.integers(0, G, G), minlength=G)[cluster].astype(float)
        beta, _, _, _ = _newton(X, np.bincount(g.row, w, m), np.bincount(g.row, w * pairs.score, m), prec)
        draws[b, free] = beta * ELO_PER_LOGIT
    return np.percentile(draws, 2.5, axis=0), np.percentile(draws, 97.5, axis=0)


def crosstable(rows: list[tuple]) -> list[dict]:
    """Head-to-head rows from ``(a, b, margins)``: pairs, wins/draws/losses from ``a``'s side, ``a``'s mean
    margin and its 95% t-interval (None with fewer than two pairs)."""
    from scipy.stats import t as student

    out = []
    for a, b, margins in rows:
        m = np.asarray(margins, dtype=float)
        n = len(m)
        row = {
            "a": a,
            "b": b,
            "pairs": n,
            "wins": int((m > 0).sum()),
            "draws": int((m == 0).sum()),
            "losses": int((m < 0).sum()),
            "margin": float(m.mean()) if n else None,
            "margin_lo": None,
            "margin_hi": None,
        }
        if n >= 2:
            half = float(student.ppf(0.975, n - 1) * m.std(ddof=1) / math.sqrt(n))
            row["margin_lo"], row["margin_hi"] = row["margin"] - half, row["margin"] + half
        out.append(row)
    return out


# --- SPRT ------------------------------------------------------------------------------------------

_VALUES = np.array([0.0, 0.5, 1.0])


def _mle_trinomial(freq: np.ndarray, mu: float) -> np.ndarray:
    """The trinomial (loss, draw, win) closest in likelihood to ``freq`` whose mean score is ``mu``:
    ``p_i = freq_i / (1 + lam (v_i - mu))``, with ``lam`` the root that makes the mean ``mu``."""
    from scipy.optimize import brentq

    d = _VALUES - mu
    lo, hi = -1.0 / d.max(), -1.0 / d.min()
    eps = 1e-12 * (hi - lo)

    def f(lam: float) -> float:
        return float((freq * d / (1.0 + lam * d)).sum())

    lam = brentq(f, lo + eps, hi - eps, xtol=1e-14)
    p = freq / (1.0 + lam * d)
    return p / p.sum()


@functools.lru_cache(maxsize=65536)
def sprt_llr(losses: int, draws: int, wins: int, elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of "X is ``elo1`` better" against "``elo0`` better" for pair
    score counts: each hypothesis's trinomial is the maximum-likelihood one with that expected score
    (draw rate left free). Counts get a tiny regularization (1e-3) so that no outcome has probability 0."""
    n = losses + draws + wins
    if n == 0:
        return 0.0
    counts = np.array([losses, draws, wins], dtype=float)
    freq = (counts + 1e-3) / (n + 3e-3)
    p0 = _mle_trinomial(freq, expected_score(elo0))
    p1 = _mle_trinomial(freq, expected_score(elo1))
    return float((counts * np.log(p1 / p0)).sum())


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds: accept H0 at or below ``log(beta / (1 - alpha))``, H1 at or above
    ``log((1 - beta) / alpha)``."""
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise RatingError(f"alpha and beta must be in (0, 0.5), not {alpha} and {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


class SPRT:
    """A sequential test fed one pair score at a time (:meth:`add`); ``verdict`` is ``"H0"``, ``"H1"`` or
    None while neither bound is crossed. Once decided it takes no more pairs."""

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05):
        if not elo1 > elo0:
            raise RatingError(f"--elo1 must be greater than --elo0 (got {elo0} and {elo1})")
        self.elo0, self.elo1 = float(elo0), float(elo1)
        self.alpha, self.beta = alpha, beta
        self.lower, self.upper = sprt_bounds(alpha, beta)
        self.counts = [0, 0, 0]  # losses, draws, wins
        self.llr = 0.0
        self.verdict: str | None = None

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def add(self, score: float) -> str | None:
        if self.verdict is not None:
            return self.verdict
        self.counts[int(round(score * 2))] += 1
        self.llr = sprt_llr(*self.counts, self.elo0, self.elo1)
        if self.llr >= self.upper:
            self.verdict = "H1"
        elif self.llr <= self.lower:
            self.verdict = "H0"
        return self.verdict

    def estimate(self) -> tuple[float, float, float]:
        """Elo of X over Y from the pair scores so far, with a 95% interval (:func:`score_elo`): +-inf
        where the scores give no bound (:meth:`note` says why), nan before the first pair."""
        losses, draws, wins = self.counts
        return score_elo(np.repeat([0.0, 0.5, 1.0], [losses, draws, wins]))

    def note(self) -> str:
        """Why the estimate or a bound is missing ("won every pair", "lost every pair", "no pairs"), or ""."""
        losses, draws, wins = self.counts
        return score_note(np.repeat([0.0, 0.5, 1.0], [losses, draws, wins]))

    def to_json(self) -> dict:
        """runs.md's JSON: ``elo``/``lo``/``hi`` null where the pairs give none, and then ``note`` says why."""
        elo, lo, hi = self.estimate()
        out = {
            "verdict": self.verdict or "inconclusive",
            "llr": self.llr,
            "bounds": [self.lower, self.upper],
            "pairs": self.pairs,
            "elo": json_number(elo),
            "lo": json_number(lo),
            "hi": json_number(hi),
            "wins": self.counts[2],
            "draws": self.counts[1],
            "losses": self.counts[0],
        }
        if self.note():
            out["note"] = self.note()
        return out
