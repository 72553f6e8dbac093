"""Ratings from duplicate pairs: Bradley–Terry Elo with intervals, crosstables, likelihood of superiority,
and the sequential probability ratio test. Pure functions on tables: no bots, no tournament, no I/O.

The unit is the **pair** (runs.md): one board played at both tables; its **score** for team X is 1, 1/2
or 0 as X's margin over the two tables is positive, zero or negative. The two tables of a board are not
independent games, so nothing here counts them apart.

Model. A team's strength is the mean of its two bots' ratings; a difference of ``d`` Elo gives an
expected pair score of ``1 / (1 + 10^(-d/400))``. The ratings maximize the Bernoulli log-likelihood of the
pair scores with a draw counted as half a win (``sum s log p + (1-s) log(1-p)``), whose maximum is where
the expected scores match the observed ones. The anchor's rating is fixed at 0.
Intervals "from the likelihood" are Wald intervals from the observed information, scaled by the
quasi-likelihood dispersion (Pearson chi-square over degrees of freedom): draws make a pair score less
variable than a coin flip of the same mean, and the scaling keeps the 95% intervals near 95% coverage.
The bootstrap resamples **boards** (every pairing's pair on a drawn board goes together) and refits.

A team that won (or lost) every pair has no finite maximum; ``prior_sd`` (Elo) adds a weak normal prior
on every rating (default 2000 Elo: it changes ordinary estimates by far less than their error) so that
such a run still gets a finite, very wide estimate. ``prior_sd=None`` is the pure maximum likelihood.
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
    parent = list(range(len(pairs.bots)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for cols in zip(pairs.xa, pairs.xb, pairs.ya, pairs.yb, strict=True):
        root = find(int(cols[0]))
        for c in cols[1:]:
            parent[find(int(c))] = root
    out: dict[int, list[str]] = {}
    for i, name in enumerate(pairs.bots):
        out.setdefault(find(i), []).append(name)
    return list(out.values())


@dataclass
class EloFit:
    """Ratings in Elo (anchor 0), their covariance, and 95% intervals (likelihood and bootstrap)."""

    bots: list[str]
    anchor: str
    elo: np.ndarray
    cov: np.ndarray  # Elo^2, anchor row/column zero
    dispersion: float
    pairs_per_bot: np.ndarray
    loglik: float
    boot_lo: np.ndarray | None = None
    boot_hi: np.ndarray | None = None

    @property
    def se(self) -> np.ndarray:
        return np.sqrt(np.maximum(np.diag(self.cov), 0.0))

    @property
    def lo(self) -> np.ndarray:
        return self.elo - Z95 * self.se

    @property
    def hi(self) -> np.ndarray:
        return self.elo + Z95 * self.se

    def los(self) -> np.ndarray:
        """Likelihood of superiority: ``los[i, j]`` = P(bot i is stronger than bot j) under the normal
        approximation of the fit (0.5 on the diagonal)."""
        from scipy.stats import norm

        k = len(self.bots)
        out = np.full((k, k), 0.5)
        for i in range(k):
            for j in range(k):
                if i != j:
                    var = self.cov[i, i] + self.cov[j, j] - 2 * self.cov[i, j]
                    d = self.elo[i] - self.elo[j]
                    out[i, j] = norm.cdf(d / math.sqrt(var)) if var > 0 else (0.5 if d == 0 else float(d > 0))
        return out

    def table(self) -> list[dict]:
        rows = []
        for i, name in enumerate(self.bots):
            row = {
                "name": name,
                "elo": float(self.elo[i]),
                "lo": float(self.lo[i]),
                "hi": float(self.hi[i]),
                "pairs": int(self.pairs_per_bot[i]),
                "se": float(self.se[i]),
            }
            if self.boot_lo is not None:
                row["boot_lo"], row["boot_hi"] = float(self.boot_lo[i]), float(self.boot_hi[i])
            rows.append(row)
        return rows


def _newton(X: np.ndarray, s: np.ndarray, free: np.ndarray, prior_prec: float, max_iter: int = 100):
    """Maximize sum s log p + (1-s) log(1-p) (minus the prior) over the free columns; returns
    (beta, information, loglik, converged)."""
    Xf = X[:, free]
    beta = np.zeros(Xf.shape[1])

    def loglik(b: np.ndarray) -> float:
        eta = Xf @ b
        # log p = -log(1+e^-eta), log(1-p) = -log(1+e^eta)
        return float(-(s * np.logaddexp(0, -eta) + (1 - s) * np.logaddexp(0, eta)).sum() - 0.5 * prior_prec * b @ b)

    ll = loglik(beta)
    converged = False
    info = np.eye(len(beta))
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(-(Xf @ beta)))
        grad = Xf.T @ (s - p) - prior_prec * beta
        info = (Xf * (p * (1 - p))[:, None]).T @ Xf + prior_prec * np.eye(len(beta))
        try:
            step = np.linalg.solve(info, grad)
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
        if np.max(np.abs(t * step)) < 1e-10 or abs(delta) < 1e-13:
            converged = True
            break
    p = 1.0 / (1.0 + np.exp(-(Xf @ beta)))
    info = (Xf * (p * (1 - p))[:, None]).T @ Xf + prior_prec * np.eye(len(beta))
    return beta, info, ll, converged


def fit_elo(
    pairs: Pairs, anchor: str | None = None, prior_sd: float | None = 2000.0, bootstrap: int = 0, seed: int = 0
) -> EloFit:
    """Maximum-likelihood Bradley–Terry ratings of ``pairs`` in Elo, ``anchor`` (default: the first bot)
    at 0; ``bootstrap`` > 0 adds percentile intervals from that many resamples of the boards."""
    if len(pairs) == 0:
        raise RatingError("no complete pairs to rate yet")
    comps = groups(pairs)
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
    X = pairs.design()
    prior_prec = 0.0 if prior_sd is None else (ELO_PER_LOGIT / prior_sd) ** 2
    beta, info, ll, _ = _newton(X, pairs.score, free, prior_prec)
    try:
        cov_f = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        raise RatingError("the ratings are not identifiable from these pairs") from None
    if not np.all(np.isfinite(cov_f)) or np.linalg.cond(info) > 1e12:
        raise RatingError(
            "the ratings are not identifiable from these pairs (a bot only ever played in one mixed partnership?)"
        )
    p = 1.0 / (1.0 + np.exp(-(X[:, free] @ beta)))
    dof = len(pairs) - len(free)
    pearson = float((((pairs.score - p) ** 2) / np.maximum(p * (1 - p), 1e-12)).sum())
    dispersion = pearson / dof if dof > 0 else 1.0
    elo = np.zeros(k)
    elo[free] = beta * ELO_PER_LOGIT
    cov = np.zeros((k, k))
    cov[np.ix_(free, free)] = cov_f * dispersion * ELO_PER_LOGIT**2
    counts = np.zeros(k, dtype=np.int64)
    for cols in (pairs.xa, pairs.ya):
        np.add.at(counts, cols, 1)
    both = pairs.xb != pairs.xa
    np.add.at(counts, pairs.xb[both], 1)
    both = pairs.yb != pairs.ya
    np.add.at(counts, pairs.yb[both], 1)
    fit = EloFit(list(pairs.bots), anchor, elo, cov, dispersion, counts, ll)
    if bootstrap > 0:
        fit.boot_lo, fit.boot_hi = _bootstrap(pairs, X, free, prior_prec, bootstrap, seed)
    return fit


def _bootstrap(pairs: Pairs, X: np.ndarray, free: np.ndarray, prior_prec: float, n: int, seed: int):
    rng = np.random.default_rng(seed)
    boards, inverse = np.unique(pairs.board, return_inverse=True)
    by_board = [np.flatnonzero(inverse == i) for i in range(len(boards))]
    draws = np.zeros((n, len(pairs.bots)))
    # a weak prior keeps resamples in which a team won every pair finite
    prec = prior_prec if prior_prec > 0 else (ELO_PER_LOGIT / 4000.0) ** 2
    for b in range(n):
        pick = np.concatenate([by_board[i] for i in rng.integers(0, len(boards), len(boards))])
        beta, _, _, _ = _newton(X[pick], pairs.score[pick], free, prec)
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
        """Elo of X over Y from the mean pair score, with a 95% interval (normal approximation)."""
        n = self.pairs
        if n == 0:
            return 0.0, -math.inf, math.inf
        losses, draws, wins = self.counts
        mean = (wins + 0.5 * draws) / n
        var = (wins + 0.25 * draws) / n - mean**2
        half = Z95 * math.sqrt(var / n)
        return elo_of_score(mean), elo_of_score(mean - half), elo_of_score(mean + half)

    def to_json(self) -> dict:
        elo, lo, hi = self.estimate()
        return {
            "verdict": self.verdict or "inconclusive",
            "llr": self.llr,
            "bounds": [self.lower, self.upper],
            "pairs": self.pairs,
            "elo": _finite(elo),
            "lo": _finite(lo),
            "hi": _finite(hi),
            "wins": self.counts[2],
            "draws": self.counts[1],
            "losses": self.counts[0],
        }


def _finite(x: float) -> float:
    """JSON has no infinity: clip to +-10000 Elo (a score of 0 or 1)."""
    return float(max(-10000.0, min(10000.0, x)))
