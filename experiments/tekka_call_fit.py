"""The fit behind ``search.CALL_FIT`` (the ``call_fit`` option of the Feskot/Tekka search): how a JANGARA
rollout's trick count at the Tekka opening relates to the deal's double-dummy trick count.

For each deal of ``--seed .. --seed + --deals - 1`` (tuning seeds, never report seeds), each seat as
declarer leading trick 1 and each Prime: the declaring team's tricks in one compiled JANGARA rollout
(``Rollouts``; JANGARA is deterministic, so one rollout is all it gives) and the solver's exact count.
A logistic regression of ``dd >= t`` on ``r - t`` over the totals t = 8..13 of the calls gives
``P(dd >= t) = sigmoid(A + B (r - t))``; printed with the shares it gives beside those observed.

    python experiments/tekka_call_fit.py --seed 2510000 --deals 40
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from tekkasim.bits import new_rng
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52.search import Rollouts
from tekkasim.solver.dd import Position, Solver

TOTALS = range(8, 14)


def openings(seed: int, deals: int) -> np.ndarray:
    """Rows (rollout tricks, double-dummy tricks) for every deal, seat as declarer and Prime."""
    game, sv = get_game("tekka"), Solver(tt_bits=20)
    ro = Rollouts("jangara", 1, new_rng(seed))
    out = []
    for s in range(seed, seed + deals):
        state = game.new_deal(s)
        hands = [int(h) for h in state.arrays.hand]
        for seat in range(4):
            for prime in range(4):
                ro._counts(state, seat, prime, seat & 1)
                out.append((int(np.argmax(ro.hist)), sv.solve(Position(hands, prime, seat), side=seat & 1)))
    return np.array(out)


def fit(rows: np.ndarray) -> tuple[float, float]:
    """Logistic regression (Newton steps) of ``dd >= t`` on ``r - t`` over t in ``TOTALS``."""
    x = np.concatenate([rows[:, 0] - t for t in TOTALS]).astype(float)
    y = np.concatenate([rows[:, 1] >= t for t in TOTALS]).astype(float)
    a = np.column_stack([np.ones_like(x), x])
    w = np.zeros(2)
    for _ in range(50):
        p = 1 / (1 + np.exp(-a @ w))
        w += np.linalg.solve((a * (p * (1 - p))[:, None]).T @ a + 1e-9 * np.eye(2), a.T @ (y - p))
    return float(w[0]), float(w[1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=2_510_000, help="first deal (tuning seeds 2,000,000..2,999,999)")
    ap.add_argument("--deals", type=int, default=40)
    args = ap.parse_args(argv)
    if args.deals < 1:
        print("error: --deals must be at least 1")
        return 2
    rows = openings(args.seed, args.deals)
    a, b = fit(rows)
    print(f"CALL_FIT = ({a:.2f}, {b:.2f})  # {len(rows)} openings, deals {args.seed}..{args.seed + args.deals - 1}")
    print("r - t | openings | P(dd >= t) fitted | observed")
    for d in range(-3, 3):
        hits = [rows[:, 1][rows[:, 0] - t == d] >= t for t in TOTALS]
        n = sum(len(h) for h in hits)
        seen = sum(int(h.sum()) for h in hits) / n if n else float("nan")
        print(f"{d:+d} | {n} | {1 / (1 + np.exp(-(a + b * d))):.3f} | {seen:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
