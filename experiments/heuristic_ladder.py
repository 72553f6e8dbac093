"""Duplicate steps of the heuristic ladder (RANDOM < KADO < ... < JANGARA, and GREEDY) through the compiled
loop ``tekkasim.bots.compiled.play_tables``: each pair is one board seed played at both tables (team X
bottom/top at table 0, right/left at table 1); X's margin is its total returns minus Y's (Feskot tricks,
Tekka points). Prints each step's mean margin and pair score with 95% intervals (normal approximation),
the Elo of the pair score, and whether the steps are within twice their median in margin and in Elo.

    python experiments/heuristic_ladder.py --ruleset feskot --pairs 5000            # report seeds from 0
    python experiments/heuristic_ladder.py --ruleset tekka --pairs 5000 --tuning     # seeds 1,000,000+
    python experiments/heuristic_ladder.py --ruleset feskot --pairs 5000 --calm      # + X:mistake_rate=0 vs X

The presets were tuned on seeds 1,000,000+ (``--tuning``); report figures use other seeds.
"""

from __future__ import annotations

import argparse

import numpy as np

from tekkasim.bots.compiled import play_tables
from tekkasim.rules import get_game

STEPS = [
    ("KADO", "RANDOM"),
    ("POCHAQ", "KADO"),
    ("PUCHOQ", "POCHAQ"),
    ("SADA", "PUCHOQ"),
    ("TANA", "SADA"),
    ("JANGARA", "TANA"),
]
EXTRA = [("GREEDY", "RANDOM"), ("JANGARA", "GREEDY")]
# what a level's mistakes cost it: the same bot without them against it (issue 25: never below zero)
CALM = [(f"{x}:mistake_rate=0", x) for x in ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA")]


def duplicate(game, x: str, y: str, seeds: list[int]) -> tuple[float, float, float, float]:
    """Mean margin of X per pair and its 95% half-width; mean pair score and its half-width."""
    r0 = play_tables(game, x, y, seeds, 0)["returns"]
    r1 = play_tables(game, x, y, seeds, 1)["returns"]
    margin = (r0[:, 0] + r1[:, 1]) - (r0[:, 1] + r1[:, 0])
    score = np.where(margin > 0, 1.0, np.where(margin < 0, 0.0, 0.5))
    n = len(seeds)
    return (margin.mean(), 1.96 * margin.std(ddof=1) / np.sqrt(n), score.mean(), 1.96 * score.std(ddof=1) / np.sqrt(n))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", default="feskot", choices=["feskot", "tekka"])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tuning", action="store_true", help="the tuning seeds, 1,000,000 on")
    parser.add_argument("--calm", action="store_true", help="also each level without mistakes against it")
    args = parser.parse_args()
    game = get_game(args.ruleset)
    start = 1_000_000 if args.tuning else args.seed
    seeds = list(range(start, start + args.pairs))
    steps, elos = [], []
    for x, y in STEPS + EXTRA + (CALM if args.calm else []):
        m, mh, s, sh = duplicate(game, x, y, seeds)
        elo = 400 * np.log10(s / (1 - s)) if 0 < s < 1 else float("inf") * (s - 0.5)
        if (x, y) in STEPS[1:]:
            steps.append(m)
            elos.append(elo)
        sig = "beats" if m - mh > 0 else "not shown better than"
        print(
            f"{x:>8} vs {y:<8} margin {m:+7.3f} ± {mh:.3f}  pair score {s:.3f} ± {sh:.3f}  Elo {elo:+.0f}  "
            f"({sig}; {args.pairs} pairs, seeds {start}..)"
        )
    for unit, values in (("margin", steps), ("Elo", elos)):
        median = float(np.median(values))
        print(
            f"ladder steps ({unit}) {', '.join(f'{v:.2f}' for v in values)}; median {median:.2f}; largest / median "
            f"{max(values) / median:.2f} (goal <= 2; the search steps above JANGARA: ladder_strength.py)"
        )


if __name__ == "__main__":
    main()
