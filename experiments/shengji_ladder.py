"""Strength of the Shengji ladder on duplicate boards.

Two sources, the same games:

* the compiled deal loop (``bots.compiled.play_tables``) for the heuristic bots: a pair is board
  seed s played at table 0 (team X bottom/top) and table 1 (X right/left), first deals at level 2 with
  bottom declaring first, decision i seeded ``mix_seed(s, table, i)`` -- exactly the tournament runner's
  deals (``tests/test_bots_shengji.py`` checks the loop against the ``decide`` path action for action), so
  thousands of pairs take seconds;
* tournament run directories (``tekkasim tournament --ruleset shengji ... --out DIR``) for the bots
  without a compiled form (RANDOM's uniform choice over the legal list, the search bots, ORACLE): their
  stored tables are read back and summarised the same way.

A pair's margin is X's levels gained minus Y's over both tables; the pair score is 1, 1/2, 0 as it is
positive, zero, negative. Figures: mean margin with a 95% normal interval, pair score with a 95% Wilson
interval, and the Elo of the pair score (runs.md). Tune on seeds >= 1,000,000; report on others.

    python experiments/shengji_ladder.py --seed 1 --boards 4000
    python experiments/shengji_ladder.py --seed 1 --boards 4000 --calm   # + X:mistake_rate=0 against X
    python experiments/shengji_ladder.py --seed 1 --boards 4000 --uniform   # + X against X:mistake_uniform=true
    python experiments/shengji_ladder.py --runs DIR [DIR ...]
    python experiments/shengji_ladder.py --search "TIZAB/TANOOR" --boards 150 --seed 7000000
    python experiments/shengji_ladder.py --speed "ZELZELA;TIZAB;TANOOR" --boards 3 --seed 7000000

The figures measured with this script, their seeds and sizes are in ``experiments/README.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import sqlite3
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from tekkasim.bots import get_bot
from tekkasim.bots.compiled import play_tables
from tekkasim.rules import get_game

NEIGHBOURS = (
    ("GREEDY", "KADO"),
    ("POCHAQ", "KADO"),
    ("PUCHOQ", "POCHAQ"),
    ("SADA", "PUCHOQ"),
    ("TANA", "SADA"),
    ("JANGARA", "TANA"),
    ("JANGARA", "GREEDY"),
)
# what each level's mistakes cost it: the same bot without mistakes against it
CALM = tuple((f"{x}:mistake_rate=0", x) for x in ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA"))
# the plausible mistakes against the old uniform ones at the same rate, and what the old ones cost
UNIFORM = tuple((x, f"{x}:mistake_uniform=true") for x in ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA")) + tuple(
    (f"{x}:mistake_rate=0", f"{x}:mistake_uniform=true") for x in ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA")
)


def compiled_margins(x: str, y: str, seeds: np.ndarray) -> np.ndarray:
    """X's duplicate margin (levels) on each board seed."""
    game = get_game("shengji")
    bx, by = get_bot(x, ruleset="shengji"), get_bot(y, ruleset="shengji")
    r0 = play_tables(game, bx, by, seeds, 0)["returns"]
    r1 = play_tables(game, bx, by, seeds, 1)["returns"]
    return (r0[:, 0] - r0[:, 1]) + (r1[:, 1] - r1[:, 0])


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def summary(x: str, y: str, margins) -> dict:
    m = np.asarray(margins, float)
    n = len(m)
    score = float((m > 0).sum() + 0.5 * (m == 0).sum())
    lo, hi = wilson(score, n)
    half = 1.96 * m.std(ddof=1) / math.sqrt(n) if n > 1 else float("nan")
    return {
        "x": x,
        "y": y,
        "pairs": n,
        "margin": float(m.mean()),
        "margin_lo": float(m.mean() - half),
        "margin_hi": float(m.mean() + half),
        "score": score / n,
        "score_lo": lo,
        "score_hi": hi,
        "elo": elo(score / n),
        "elo_lo": elo(lo),
        "elo_hi": elo(hi),
    }


def run_margins(directory: Path) -> list[dict]:
    """Summaries of every pairing stored in a tournament run directory."""
    ident = json.loads((directory / "config.json").read_text())["identity"]
    teams = [t[0] if t[0] == t[1] else "+".join(t) for t in ident["teams"]]
    n = len(teams)
    if ident["schedule"] == "gauntlet":  # the runner's order (tournament.config.Config.pairings)
        pairings = [(0, j) for j in range(1, n)]
    else:
        pairings = [(i, j) for i in range(n) for j in range(i + 1, n)]
    con = sqlite3.connect(f"file:{directory / 'run.sqlite'}?mode=ro", uri=True)
    rows = con.execute("select pairing, board, tab, x_return, y_return from tables").fetchall()
    by = defaultdict(dict)
    for pairing, board, table, xr, yr in rows:
        by[(pairing, board)][table] = xr - yr
    margins = defaultdict(list)
    for (pairing, _), tables in sorted(by.items()):
        if len(tables) == 2:
            margins[pairing].append(tables[0] + tables[1])
    out = []
    for pairing, m in sorted(margins.items()):
        x, y = (teams[i] for i in pairings[pairing])
        out.append(summary(x, y, m))
    return out


def search_margins(x: str, y: str, seeds) -> np.ndarray:
    """X's duplicate margin (levels) per board seed through the tournament runner's decide path
    (``bots.loop.play_deal``: one deal per table, the runner's seeds): the search bots."""
    from tekkasim.bots.loop import play_deal

    game = get_game("shengji")
    bx, by = get_bot(x, ruleset="shengji"), get_bot(y, ruleset="shengji")
    out = []
    for seed in seeds:
        m = 0.0
        for table in (0, 1):
            state = game.new_deal(int(seed))
            play_deal(state, [bx, by, bx, by] if table == 0 else [by, bx, by, bx], int(seed), table)
            a, b = state.returns()
            m += (a - b) if table == 0 else (b - a)
        out.append(m)
    return np.array(out)


def speed(name: str, seeds) -> dict:
    """CPU time (time.process_time) per decision of bot ``name`` seated against JANGARA, one deal per table
    on each board: every decision it is asked to move (calls, burial, plays, forced ones too)."""
    from tekkasim.bots import get_bot
    from tekkasim.bots.loop import play_deal, timing
    from tekkasim.rules import get_game

    game = get_game("shengji")
    b, j = get_bot(name, ruleset="shengji"), get_bot("JANGARA", ruleset="shengji")
    with timing(b) as times:  # the runner's seats and seeds, one deal per table
        for seed in seeds:
            for table in (0, 1):
                play_deal(game.new_deal(int(seed)), [b, j, b, j] if table == 0 else [j, b, j, b], int(seed), table)
    decisions, spent = len(times), sum(times)
    return {"bot": name, "boards": len(seeds), "decisions": decisions, "ms_cpu": 1000 * spent / decisions}


def _steps(rows: list[dict]) -> None:
    """The heuristic ladder's neighbour steps (KADO .. JANGARA): Elo and margin, the largest against the
    median (goal: at most 2)."""
    ladder = ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA")
    steps = [r for r in rows if (r["y"], r["x"]) in zip(ladder[:-1], ladder[1:], strict=True)]
    if not steps:
        return
    for unit in ("elo", "margin"):
        values = [r[unit] for r in steps]
        median = float(np.median(values))
        low = min(r[f"{unit}_lo"] for r in steps)
        print(
            f"ladder steps ({unit}) {', '.join(f'{v:.3g}' for v in values)}: median {median:.3g}, largest / "
            f"median {max(values) / median:.2f} (goal <= 2); lowest 95% bound {low:+.3g} (goal > 0)",
            flush=True,
        )


def _show(row: dict) -> str:
    return (
        f"{row['x']:>10} vs {row['y']:<10} pairs {row['pairs']:>5}  margin {row['margin']:+.3f} "
        f"[{row['margin_lo']:+.3f}, {row['margin_hi']:+.3f}]  score {row['score']:.3f} "
        f"[{row['score_lo']:.3f}, {row['score_hi']:.3f}]  Elo {row['elo']:+.0f} [{row['elo_lo']:+.0f}, "
        f"{row['elo_hi']:+.0f}]"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="first board seed (tune on >= 1,000,000)")
    parser.add_argument("--boards", type=int, default=4000, help="boards per compiled pairing")
    parser.add_argument("--runs", nargs="*", default=[], help="tournament run directories to summarise")
    parser.add_argument(
        "--search",
        help="X/Y;X/Y;... (or commas when no bot has parameters): play these pairings (e.g. TIZAB/TANOOR) "
        "on --boards boards from --seed through the decide path, one deal per table",
    )
    parser.add_argument("--speed", help="bot;bot;...: CPU ms per decision against JANGARA on --boards boards")
    parser.add_argument("--calm", action="store_true", help="also each level without mistakes against it")
    parser.add_argument(
        "--uniform", action="store_true", help="also each level against it with the old uniform mistakes"
    )
    parser.add_argument("--json", help="write the rows to this file")
    args = parser.parse_args(argv)
    rows = []
    seeds = np.arange(args.seed, args.seed + args.boards, dtype=np.uint64)
    if args.speed:
        for name in args.speed.split(";"):
            rows.append(speed(name, seeds))
            print(json.dumps(rows[-1]), flush=True)
    elif args.search:
        for pairing in args.search.split(";" if ";" in args.search else ","):
            x, y = pairing.split("/")
            t = time.process_time()
            row = summary(x, y, search_margins(x, y, seeds))
            row["seed"], row["cpu_s"] = args.seed, round(time.process_time() - t, 1)
            rows.append(row)
            print(_show(row), flush=True)
    elif not args.runs:
        for x, y in NEIGHBOURS + (CALM if args.calm else ()) + (UNIFORM if args.uniform else ()):
            rows.append(summary(x, y, compiled_margins(x, y, seeds)))
            print(_show(rows[-1]), flush=True)
        _steps(rows)
    for d in args.runs:
        for row in run_margins(Path(d)):
            row["run"] = d
            rows.append(row)
            print(_show(row), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
