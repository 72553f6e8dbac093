"""Strength of the Shengji ladder on duplicate boards.

Two sources, the same games:

* the compiled deal loop (``bots._shengji_policy.play_boards``) for the heuristic bots: a pair is board
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
    python experiments/shengji_ladder.py --runs DIR [DIR ...]
    python experiments/shengji_ladder.py --search "TIZAB/TANOOR" --boards 150 --seed 7000000
    python experiments/shengji_ladder.py --speed "ZELZELA;TIZAB;TANOOR" --boards 3 --seed 7000000

Measured (report seeds; presets tuned on seeds >= 1,000,000), X's margin in levels per pair (two deals),
95% interval, pair score with its Wilson interval:

* compiled loop, today's presets (SADA and TANA both at 7% mistakes, tuned on boards 1,000,000..1,003,999;
  ``--seed 9010000 --boards 4000``, boards used for nothing else): POCHAQ-KADO +0.397 [0.364, 0.430] 0.632;
  PUCHOQ-POCHAQ +0.589 [0.559, 0.619] 0.709; SADA-PUCHOQ +0.439 [0.412, 0.466] 0.670; TANA-SADA +0.571
  [0.544, 0.599] 0.720; JANGARA-TANA +0.209 [0.186, 0.232] 0.586; GREEDY-KADO +0.474 [0.438, 0.511];
  JANGARA-GREEDY +2.023 [1.991, 2.055] 0.966. With today's search steps (the last item below) the
  ladder's eight steps are 0.397, 0.589, 0.439, 0.571, 0.209, 0.317, 0.238, 0.152: median 0.357, the
  largest (0.589) 1.65 times it.
  (Boards 9,000,000.. measured SADA 5% / TANA 9%, +0.483 / +0.497 / +0.282, a preset dropped because an
  easier bot must not make fewer mistakes than a harder one.)
* the presets before (SADA 12%, TANA 6%), compiled loop, boards 1..4000: POCHAQ-KADO +0.403 [0.370, 0.436]
  0.637; PUCHOQ-POCHAQ +0.607 [0.577, 0.637] 0.716; SADA-PUCHOQ +0.317 [0.289, 0.345] 0.621; TANA-SADA
  +0.750 [0.721, 0.778] 0.771; JANGARA-TANA +0.163 [0.140, 0.186] 0.569; GREEDY-KADO +0.476 [0.438, 0.513];
  JANGARA-GREEDY +2.047 [2.015, 2.079] 0.965. Every heuristic step above 0 with 95% confidence; largest step
  0.75 < twice the median 0.40.
* tournament runner: KADO-RANDOM, boards 1..100: +0.99 [0.74, 1.24], 64 wins 25 draws 11 losses, Elo
  +205 [140, 270]. Search against JANGARA, boards 1001..1016: TANOOR -0.19 [-0.67, 0.29], TIZAB +0.25
  [-0.24, 0.74], ZELZELA (32 worlds) +0.75 [0.34, 1.16] (9 wins, 7 draws, 0 losses; Elo +221 [93, 348]).
  ZELZELA-GREEDY, boards 1001..1020: +2.80 [2.47, 3.13] levels per pair, i.e. +1.40 levels per deal,
  20 pairs of 20 won; matches (--unit match, boards 2001..2003): 6 of 6 won (Wilson [0.61, 1]);
  JANGARA-GREEDY matches, boards 2001..2030: 60 of 60 won. (The search figures here are of the presets
  before 2026-12-01: best mean after a 0.25-level credit to JANGARA's choice, 6/12/32 worlds.)

Search ladder, measured 2026-12-01 (issue 13; ``--search``, the decide path, one deal per table; load
average ~2 on 2 shared cores). The search plays JANGARA's choice unless another candidate beats it on the
paired differences over the worlds with a t-statistic >= ``override_z``. Tuning seeds 1,000,000..1,000,059
(60 pairs each, against JANGARA, levels per pair): override_z 1 with 8 / 16 / 32 worlds +0.43 [0.23, 0.64]
/ +0.37 [0.19, 0.54] / +0.52 [0.29, 0.74]; the old rule with 32 worlds +0.23 [0.05, 0.42]. Presets then
(TANOOR has 4 worlds since: below): TANOOR 8 worlds z 2, TIZAB 16 worlds z 1, ZELZELA 32 worlds z 1
(prior 0). Report seeds 7,000,000.. (never used
before), levels per pair, 95% interval, pair score [Wilson]: TANOOR-JANGARA +0.500 [0.353, 0.647] (150
pairs) 0.683 [0.605, 0.752]; TIZAB-TANOOR +0.193 [0.068, 0.319] (150) 0.580 [0.500, 0.656]; ZELZELA-TIZAB
+0.150 [0.0003, 0.300] (120, the planned size) 0.558 [0.469, 0.644]. Each margin above 0 with 95%
confidence, ZELZELA-TIZAB only just (its pair score's interval holds 0.5). Extended, after seeing that, by
boards 7,000,120..7,000,179: those 60 +0.367 [0.181, 0.553] 0.675; all 180 +0.222 [0.104, 0.340] 0.597
[0.524, 0.666] (an extension chosen after a look: the nominal 95% is somewhat optimistic). CPU per decision against
JANGARA (every decision the bot moves, boards 7,000,000..7,000,002, load ~1.5-2): ZELZELA 48.4 ms (285
decisions), TIZAB 26.0 ms, TANOOR 12.8 ms.
ZELZELA (these presets) against GREEDY, ``--search ZELZELA/GREEDY --boards 20 --seed 8100000`` (boards used
for nothing else): +2.950 [2.561, 3.339] levels per pair, i.e. +1.48 levels per deal, all 20 pairs won
(Wilson [0.839, 1]). Matches (``tekkasim tournament -r shengji --bots ZELZELA,GREEDY --unit match``, boards
8,200,000..8,200,009, both tables): 20 of 20 won (Wilson [0.839, 1]).
ZELZELA-TIZAB again on boards used for nothing else, the 200 pairs suggested above (``--search ZELZELA/TIZAB
--boards 200 --seed 8000000``): +0.125 [+0.011, +0.239] levels per pair, pair score 0.555 [0.486, 0.622],
Elo +38 [-10, +87]: the margin is above 0 with 95% confidence, the pair score (and so the Elo) is not.
ZELZELA-TIZAB on further fresh boards, planned at 600 pairs before the run (``tekkasim tournament -r shengji -b
ZELZELA,TIZAB -n 600 -s 8300000``, read back with ``--runs``; 1 worker, then 2 after a resume): +0.152
[+0.082, +0.221] levels per pair, pair score 0.562 [0.522, 0.601] (203 wins, 268 draws, 129 losses), Elo
+43 [+15, +71]: above 0 with 95% confidence in margin and pair score. TIZAB-TANOOR's pair score above,
0.580 on 150 pairs, has a Wilson interval from 0.49998 (its margin separated, its pair score not quite), so
it was measured again on fresh boards, 400 pairs planned before the run (``tekkasim tournament -r shengji
-b TIZAB,TANOOR -n 400 -s 8400000 -w 2``): +0.068 [-0.016, +0.151] levels per pair, pair score 0.525
[0.476, 0.573] (112 wins, 196 draws, 92 losses), Elo +17 [-17, +51]. Not separated: on these boards
TIZAB's 16 worlds are not shown better than TANOOR's 8.
TANOOR at 4 worlds (z 2), today's preset. Tuning boards 1,100,000..1,100,199 (``tekkasim tournament -r
shengji -b TANOOR:worlds=4,JANGARA,TIZAB --schedule gauntlet -n 200 -s 1100000``): TANOOR-JANGARA +0.265
[+0.143, +0.387], Elo +72 [+23, +121]; TIZAB-TANOOR +0.180 [+0.064, +0.296], Elo +53 [+4, +101]. Report
boards 8,500,000..8,500,599 (used for nothing else; 600 pairs per pairing planned before the run;
``-b TANOOR,JANGARA,TIZAB --schedule gauntlet -n 600 -s 8500000 -w 2``, read back with ``--runs``):
TANOOR-JANGARA +0.317 [+0.251, +0.383] levels per pair, pair score 0.625 [0.586, 0.663], Elo +89 [+60,
+117]; TIZAB-TANOOR +0.238 [+0.166, +0.310], pair score 0.593 [0.553, 0.631], Elo +65 [+37, +93]. With
ZELZELA-TIZAB above (+0.152 [+0.082, +0.221], Elo +43 [+15, +71]; TIZAB and ZELZELA unchanged since, and
the faster resampling of 2026-12-01 draws the same worlds) every search step is above 0 with 95%
confidence in margin and in pair score: JANGARA < TANOOR < TIZAB < ZELZELA.
With the old heuristic steps (levels per pair) the ladder's steps were 0.403, 0.607, 0.317, 0.750, 0.163,
0.500, 0.193, 0.125: median 0.36, and TANA-SADA's 0.750 just over twice it; hence today's SADA and TANA.
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

from tekkasim.bots import _shengji_policy as sp
from tekkasim.bots.shengji import policy_vector

NEIGHBOURS = (
    ("GREEDY", "KADO"),
    ("POCHAQ", "KADO"),
    ("PUCHOQ", "POCHAQ"),
    ("SADA", "PUCHOQ"),
    ("TANA", "SADA"),
    ("JANGARA", "TANA"),
    ("JANGARA", "GREEDY"),
)


def compiled_margins(x: str, y: str, seeds: np.ndarray) -> np.ndarray:
    """X's duplicate margin (levels) on each board seed."""
    out0 = np.zeros((len(seeds), 7), np.int64)
    out1 = np.zeros((len(seeds), 7), np.int64)
    px, py = policy_vector(x), policy_vector(y)
    sp.play_boards(px, py, seeds, 0, out0)
    sp.play_boards(px, py, seeds, 1, out1)
    return (out0[:, 0] - out0[:, 1]) + (out1[:, 1] - out1[:, 0])


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
    (``tournament.play.play_deal_state``: one deal per table, the runner's seeds): the search bots."""
    from tekkasim.bots import get_bot
    from tekkasim.rules import get_game
    from tekkasim.tournament.play import play_deal_state

    game = get_game("shengji")
    bx, by = get_bot(x, ruleset="shengji"), get_bot(y, ruleset="shengji")
    out = []
    for seed in seeds:
        m = 0.0
        for table in (0, 1):
            state = game.new_deal(int(seed))
            play_deal_state(state, [bx, by, bx, by] if table == 0 else [by, bx, by, bx], int(seed), table)
            a, b = state.returns()
            m += (a - b) if table == 0 else (b - a)
        out.append(m)
    return np.array(out)


def speed(name: str, seeds) -> dict:
    """CPU time (time.process_time) per decision of bot ``name`` seated against JANGARA, one deal per table
    on each board: every decision it is asked to move (calls, burial, plays, forced ones too)."""
    from tekkasim.bots import get_bot
    from tekkasim.rules import get_game
    from tekkasim.tournament.play import timed_decisions

    game = get_game("shengji")
    b, j = get_bot(name, ruleset="shengji"), get_bot("JANGARA", ruleset="shengji")
    decisions, spent = timed_decisions(game, b, j, seeds)
    return {"bot": name, "boards": len(seeds), "decisions": decisions, "ms_cpu": 1000 * spent / decisions}


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
        for x, y in NEIGHBOURS:
            rows.append(summary(x, y, compiled_margins(x, y, seeds)))
            print(_show(rows[-1]), flush=True)
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
