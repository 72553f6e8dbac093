"""The strength of the search tier (issue 24, items 4 and 5), written to a Markdown file.

Per ruleset the three search steps TANOOR - JANGARA, TIZAB - TANOOR and ZELZELA - TIZAB as duplicate pairs
played by the tournament runner (``analysis.duplicate.pair_margins``: the runner's seats and seeds):
pairs, X's mean margin with a 95% interval, mean pair score and Elo with its 95% interval
(``ratings.score_elo``). Feskot adds ZELZELA - ORACLE and GREEDY - ORACLE on the same boards, in tricks
per deal, and the share of GREEDY's gap to ORACLE that ZELZELA closes (``1 - zelzela / greedy``, a 95%
percentile interval from resampling the boards). Tekka adds the contracts of ZELZELA and ORACLE, each in
self-play (the bot at every seat, the one play loop ``bots.loop.play_deal``) on the same deal seeds: made
(Wilson 95%), underbid and overbid against the most tricks the declaring team could take double dummy
with the Prime chosen, and the mean score per deal of the declaring team (its ``returns`` less the
defenders'), with ZELZELA's as a share of ORACLE's (interval by resampling the deal seeds).

Seeds: every measurement has its own boards, ``--seed + 5000 * slot`` (slot = ruleset index x 3 + step,
then 12 for the ORACLE pairings, 13 for the Tekka contracts), so at most 5000 pairs or deals each. The
report seeds are 3,000,000 .. 3,099,999 (the default ``--seed``); tuning used 2,000,000 .. 2,999,999. Sizes
are arguments: fix them before playing. The same arguments give the same file for any ``--workers``.

    python experiments/search_strength.py --ruleset feskot --ruleset tekka --pairs 300 --top-pairs 100 \\
        --oracle-pairs 100 --contracts 50 --workers 2 --out docs/search-strength.md

The other rulesets' rows are added with ``--update`` and a ``--seed`` of their own (3,300,000, 3,600,000,
3,900,000 ..): the command behind each ruleset's rows is at the top of ``docs/search-strength.md``.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from tekkasim.analysis import wilson_interval
from tekkasim.analysis.duplicate import elo_estimate, pair_margins, pair_scores
from tekkasim.ratings import interval_text
from tekkasim.rules import get_game

RULESETS = ("feskot", "tekka", "satat", "shengji")
STEPS = (("TANOOR", "JANGARA"), ("TIZAB", "TANOOR"), ("ZELZELA", "TIZAB"))
REPORT_SEED = 3_000_000
SLOT = 5000  # boards per measurement: the most pairs or deals one measurement may take
ORACLE_SLOT, CONTRACT_SLOT = 12, 13
CHUNK = 25  # boards per task: small enough to share the work between processes
GOAL_ELO = 30.0
Z95 = 1.959963984540054
UNITS = {r: get_game(r).returns_unit for r in RULESETS}  # the unit of State.returns(): shengji's are levels


# --- the work, cut into tasks that any worker may run (each seeded by its boards alone) --------------------


def _margins(task: tuple) -> np.ndarray:
    ruleset, x, y, start, n = task
    return pair_margins(ruleset, x, y, start, n)


def _contracts(task: tuple) -> list[dict]:
    """Self-play deals of one bot in Tekka: per deal its contract, the double-dummy makeable target with the
    Prime chosen, whether it was made and the declaring team's score margin."""
    from tekkasim.bots import get_bot
    from tekkasim.bots.loop import play_deal
    from tekkasim.rules import get_game
    from tekkasim.solver.dd import Position, Solver

    name, start, n = task
    game = get_game("tekka")
    bot = get_bot(name, ruleset="tekka")
    sv = Solver(tt_bits=18)
    rows = []
    for seed in range(start, start + n):
        starts: list = []

        def keep_start(state, _k, starts=starts):
            if not starts and state.phase() == "play":
                starts.append(state.clone())

        state = play_deal(game.new_deal(seed), [bot] * 4, seed, 0, keep_start)
        contract = state.contract()
        declarer = contract["declarer"]
        pos = Position.from_state(starts[0])
        makeable = max((x for x in range(14) if sv.can_reach(pos, x, side=declarer)), default=0)
        returns = state.returns()
        team = declarer & 1
        rows.append(
            {
                "seed": seed,
                "target": 13 if contract["target"] == "D13" else int(contract["target"]),
                "makeable": makeable,
                "made": bool(state.result()["made"]),
                "mandatory": bool(contract["mandatory"]),
                "score": float(returns[team] - returns[1 - team]),
            }
        )
    return rows


CACHE: Path | None = None  # --cache: where finished tasks are kept (see main)


def _cached(fn, task: tuple):
    """``fn(task)``, read from or written to the ``--cache`` directory when one is given (one pickle a task,
    named by the task's arguments)."""
    if CACHE is None:
        return fn(task)
    path = CACHE / (fn.__name__.strip("_") + "-" + "-".join(map(str, task)) + ".pkl")
    if path.exists():
        return pickle.loads(path.read_bytes())
    value = fn(task)
    path.write_bytes(pickle.dumps(value))
    return value


def _task(job: tuple):
    fn, task, cache = job
    global CACHE
    CACHE = cache
    return _cached(fn, task)


def _run(fn, tasks: list, workers: int) -> list:
    jobs = [(fn, t, CACHE) for t in tasks]
    if workers <= 1:
        return [_task(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_task, jobs))


def _chunks(start: int, n: int) -> list[tuple[int, int]]:
    return [(s, min(CHUNK, start + n - s)) for s in range(start, start + n, CHUNK)]


# --- the figures -------------------------------------------------------------------------------------------


def step_row(ruleset: str, x: str, y: str, start: int, margins: np.ndarray) -> dict:
    m = np.asarray(margins, float)
    half = Z95 * float(m.std(ddof=1)) / math.sqrt(len(m)) if len(m) > 1 else math.inf
    elo, lo, hi = elo_estimate(m)
    return {
        "ruleset": ruleset,
        "x": x,
        "y": y,
        "boards": f"{start}..{start + len(m) - 1}",
        "pairs": len(m),
        "margin": float(m.mean()),
        "margin_lo": float(m.mean()) - half,
        "margin_hi": float(m.mean()) + half,
        "score": float(pair_scores(m).mean()),
        "elo": elo,
        "elo_lo": lo,
        "elo_hi": hi,
        "met": bool(lo > 0 and elo >= GOAL_ELO),
    }


def gap_closed(z_margins, g_margins, resamples: int = 4000, seed: int = 0) -> tuple[float, float, float]:
    """``1 - mean(z) / mean(g)`` over the same boards, with a 95% percentile interval from resampling the
    boards (a board's two margins together, keeping their shared luck paired)."""
    z, g = np.asarray(z_margins, float), np.asarray(g_margins, float)
    point = 1 - z.mean() / g.mean() if g.mean() else math.nan
    idx = np.random.default_rng(seed).integers(0, len(z), size=(resamples, len(z)))
    gs = g[idx].mean(axis=1)
    ratios = 1 - z[idx].mean(axis=1) / np.where(gs == 0, np.nan, gs)
    lo, hi = np.nanpercentile(ratios, [2.5, 97.5])
    return float(point), float(lo), float(hi)


def contract_row(name: str, rows: list[dict]) -> dict:
    n = len(rows)
    made = sum(r["made"] for r in rows)
    lo, hi = wilson_interval(made, n)
    under = sum(r["target"] < r["makeable"] and r["makeable"] >= 8 for r in rows)
    over = sum(r["target"] > r["makeable"] for r in rows)
    called = [r for r in rows if not r.get("mandatory", False)]
    return {
        "bot": name,
        "deals": n,
        "made": made / n,
        "made_lo": float(lo),
        "made_hi": float(hi),
        "underbid": under / n,
        "overbid": over / n,
        "mandatory": 1 - len(called) / n,
        "called_made": sum(r["made"] for r in called) / len(called) if called else math.nan,
        "called_under": sum(r["target"] < r["makeable"] and r["makeable"] >= 8 for r in called) / len(called)
        if called
        else math.nan,
        "target": float(np.mean([r["target"] for r in rows])),
        "makeable": float(np.mean([r["makeable"] for r in rows])),
        "score": float(np.mean([r["score"] for r in rows])),
    }


def score_ratio(z_rows: list[dict], o_rows: list[dict], resamples: int = 4000, seed: int = 0) -> tuple:
    """ZELZELA's mean declaring score per deal over ORACLE's (same deal seeds), 95% interval by resampling."""
    z = np.array([r["score"] for r in z_rows])
    o = np.array([r["score"] for r in o_rows])
    idx = np.random.default_rng(seed).integers(0, len(z), size=(resamples, len(z)))
    os_ = o[idx].mean(axis=1)
    ratios = z[idx].mean(axis=1) / np.where(os_ == 0, np.nan, os_)
    lo, hi = np.nanpercentile(ratios, [2.5, 97.5])
    return float(z.mean() / o.mean()) if o.mean() else math.nan, float(lo), float(hi)


def measure(
    rulesets,
    pairs: int,
    oracle_pairs: int,
    contracts: int,
    seed: int,
    workers: int,
    log,
    top_pairs: int | None = None,
    contract_seed: int | None = None,
) -> dict:
    """Every figure of the file (see the module notes), as plain rows; ``top_pairs``: the pairs of the
    ZELZELA - TIZAB steps (default ``pairs``), by far the costliest; ``contract_seed``: the first Tekka
    contract deal (default ``seed + SLOT * CONTRACT_SLOT``)."""
    out: dict = {"rulesets": list(rulesets), "steps": [], "oracle": None, "contracts": None}
    tasks, spans = [], []
    for ruleset in rulesets:
        for j, (x, y) in enumerate(STEPS):
            start = seed + SLOT * (3 * RULESETS.index(ruleset) + j)
            spans.append((ruleset, x, y, start, len(tasks)))
            n_pairs = top_pairs if x == "ZELZELA" and top_pairs else pairs
            tasks += [(ruleset, x, y, s, n) for s, n in _chunks(start, n_pairs)]
    if "feskot" in rulesets and oracle_pairs:
        ostart = seed + SLOT * ORACLE_SLOT
        for x in ("ZELZELA", "GREEDY"):
            spans.append(("feskot", x, "ORACLE", ostart, len(tasks)))
            tasks += [("feskot", x, "ORACLE", s, n) for s, n in _chunks(ostart, oracle_pairs)]
    t0 = time.perf_counter()
    log(f"{len(tasks)} tasks of duplicate pairs on {workers} worker(s)")
    results = _run(_margins, tasks, workers)
    log(f"pairs played in {time.perf_counter() - t0:.0f} s")
    ends = [s[4] for s in spans[1:]] + [len(tasks)]
    margins = {}
    for (ruleset, x, y, start, i0), i1 in zip(spans, ends, strict=True):
        margins[(ruleset, x, y)] = (start, np.concatenate(results[i0:i1]))
    for ruleset in rulesets:
        for x, y in STEPS:
            start, m = margins[(ruleset, x, y)]
            out["steps"].append(step_row(ruleset, x, y, start, m))
    if ("feskot", "ZELZELA", "ORACLE") in margins:
        start, z = margins[("feskot", "ZELZELA", "ORACLE")]
        _, g = margins[("feskot", "GREEDY", "ORACLE")]
        share = gap_closed(z, g)
        out["oracle"] = {
            "boards": f"{start}..{start + len(z) - 1}",
            "pairs": len(z),
            "zelzela": float(z.mean()) / 2,
            "zelzela_half": Z95 * float(z.std(ddof=1)) / math.sqrt(len(z)) / 2,
            "greedy": float(g.mean()) / 2,
            "greedy_half": Z95 * float(g.std(ddof=1)) / math.sqrt(len(g)) / 2,
            "closed": share[0],
            "closed_lo": share[1],
            "closed_hi": share[2],
        }
    if "tekka" in rulesets and contracts:
        cstart = seed + SLOT * CONTRACT_SLOT if contract_seed is None else contract_seed
        t0 = time.perf_counter()
        rows = {}
        for name in ("ZELZELA", "ORACLE"):
            parts = _run(_contracts, [(name, s, n) for s, n in _chunks(cstart, contracts)], workers)
            rows[name] = [r for part in parts for r in part]
        log(f"contracts played in {time.perf_counter() - t0:.0f} s")
        ratio = score_ratio(rows["ZELZELA"], rows["ORACLE"])
        out["contracts"] = {
            "deals": f"{cstart}..{cstart + contracts - 1}",
            "rows": [contract_row(name, rows[name]) for name in ("ZELZELA", "ORACLE")],
            "ratio": ratio[0],
            "ratio_lo": ratio[1],
            "ratio_hi": ratio[2],
        }
    return out


# --- the file ------------------------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


ORACLE_HEAD, CONTRACTS_HEAD = "## Feskot: the gap to ORACLE", "## Tekka: contracts against ORACLE"
COMMAND_HEAD = "    python experiments/search_strength.py "


def _ruleset_flags(command: str) -> list[str]:
    words = command.split()
    return [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--ruleset"]


def kept_parts(old: str, measured) -> dict:
    """What an earlier file of this script holds for the rulesets not measured now (``--update``): the
    commands that wrote them (with the rulesets whose rows they still give), their step rows, and the
    Feskot ORACLE and Tekka contract sections unless their ruleset is measured now."""
    lines = old.splitlines()
    commands = []
    for line in lines:
        if line.startswith(COMMAND_HEAD):
            command, _, note = line.partition("#")
            command = command.strip()
            # the rows it still gives: those its note names (a later command may have taken over some)
            named = [r.strip() for r in note.partition("rows:")[2].split(",") if r.strip()]
            left = [r for r in (named or _ruleset_flags(command)) if r not in measured]
            if left:
                commands.append((command, left))
    steps = [ln for ln in lines if any(ln.startswith(f"| {r} | ") for r in RULESETS if r not in measured)]

    def section(head: str, ruleset: str) -> list[str]:
        if ruleset in measured or head not in lines:
            return []
        i = lines.index(head)
        j = next((n for n in range(i + 1, len(lines)) if lines[n].startswith("## ")), len(lines))
        while j > i and not lines[j - 1].strip():
            j -= 1
        return lines[i:j]

    return {
        "commands": commands,
        "steps": steps,
        "oracle": section(ORACLE_HEAD, "feskot"),
        "contracts": section(CONTRACTS_HEAD, "tekka"),
    }


def markdown(fig: dict, command: str, kept: dict | None = None) -> str:
    """The file; with ``kept`` (:func:`kept_parts`) the rows of other rulesets from an earlier file stay, each
    under the command that wrote it."""
    kept = kept or {"commands": [], "steps": [], "oracle": [], "contracts": []}
    if kept["commands"]:
        head = [
            "Generated by these commands, each writing the rows of the rulesets named after it (`--update` keeps "
            "the other rows); rerun one to regenerate its rows (same arguments, same numbers):",
            "",
            *(f"    {c}  # rows: {', '.join(rs)}" for c, rs in kept["commands"]),
            f"    {command}  # rows: {', '.join(fig['rulesets'])}",
        ]
    else:
        head = [
            "Generated by one command; rerun it to regenerate this file (same arguments, same numbers):",
            "",
            f"    {command}",
        ]
    lines = [
        "# Strength of the search tier",
        "",
        *head,
        "",
        "Method (`experiments/search_strength.py`): duplicate pairs played by the tournament runner (its seats "
        "and seeds); X's margin is its total `returns` over a board's two tables less Y's; pair score 1 / 0.5 / 0; "
        "Elo from the mean pair score with its 95% interval (`ratings.score_elo`); margin interval: normal "
        "approximation. Every measurement has boards of its own (column `boards`). The issue's goal per step: "
        f"the Elo interval above zero and the estimate at least {GOAL_ELO:.0f}. Small sizes give wide intervals: "
        "read them before the estimates; a step whose interval holds zero is not shown to be a step.",
        "",
        "## Search steps",
        "",
        "| ruleset | step | boards | pairs | margin [95%] | pair score | Elo [95%] | goal |",
        "|---|---|---|---|---|---|---|---|",
    ]
    rows = [(RULESETS.index(ln.split("|")[1].strip()), ln) for ln in kept["steps"]]
    for r in fig["steps"]:
        margin = f"{r['margin']:+.2f} {interval_text(r['margin_lo'], r['margin_hi'], '+.2f')} {UNITS[r['ruleset']]}"
        rows.append(
            (
                RULESETS.index(r["ruleset"]),
                f"| {r['ruleset']} | {r['x']} - {r['y']} | {r['boards']} | {r['pairs']} | {margin} | {r['score']:.3f} "
                f"| {r['elo']:+.0f} {interval_text(r['elo_lo'], r['elo_hi'])} | {'met' if r['met'] else 'not met'} |",
            )
        )
    lines += [ln for _, ln in sorted(rows, key=lambda x: x[0])]  # stable: a ruleset's steps keep their order
    o = fig["oracle"]
    if o is None and kept["oracle"]:
        lines += ["", *kept["oracle"]]
    if o is not None:
        lines += [
            "",
            ORACLE_HEAD,
            "",
            f"ZELZELA - ORACLE and GREEDY - ORACLE on the same {o['pairs']} boards ({o['boards']}), X's margin in "
            "tricks per deal (a pair is two deals), and the share of GREEDY's gap to ORACLE that ZELZELA closes, "
            "`1 - zelzela / greedy` (95% interval from resampling the boards). Goal: at least 2/3.",
            "",
            "| pairing | tricks per deal [95%] |",
            "|---|---|",
            f"| ZELZELA - ORACLE | {o['zelzela']:+.2f} "
            f"{interval_text(o['zelzela'] - o['zelzela_half'], o['zelzela'] + o['zelzela_half'], '+.2f')} |",
            f"| GREEDY - ORACLE | {o['greedy']:+.2f} "
            f"{interval_text(o['greedy'] - o['greedy_half'], o['greedy'] + o['greedy_half'], '+.2f')} |",
            "",
            f"Gap closed: {_pct(o['closed'])} [{_pct(o['closed_lo'])}, {_pct(o['closed_hi'])}] "
            f"(goal 66.7%: {'met' if o['closed'] >= 2 / 3 else 'not met'}).",
        ]
    c = fig["contracts"]
    if c is None and kept["contracts"]:
        lines += ["", *kept["contracts"]]
    if c is not None:
        z = c["rows"][0]
        lines += [
            "",
            CONTRACTS_HEAD,
            "",
            f"Each bot at every seat (self-play, the one play loop) on the same deals ({c['deals']}). Made with "
            "its Wilson 95% interval; underbid: a target below the most tricks the declaring team could take "
            "double dummy with the Prime chosen (when that is 8 or more); overbid: above it; score: the "
            "declaring team's `returns` less the defenders', per deal. Goals: ZELZELA made at least 85%, "
            "underbids at most 40% of its contracts, its score within 10% of ORACLE's. Mandatory: the deals in "
            "which all four passed (the first-asked seat declares 8 it did not call); made and underbid when "
            "called: the same over the other deals.",
            "",
            "| bot | deals | made [95%] | underbid | overbid | mean target | mean makeable | score per deal "
            "| mandatory | made when called | underbid when called |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in c["rows"]:
            lines.append(
                f"| {r['bot']} | {r['deals']} | {_pct(r['made'])} [{_pct(r['made_lo'])}, {_pct(r['made_hi'])}] "
                f"| {_pct(r['underbid'])} | {_pct(r['overbid'])} | {r['target']:.2f} | {r['makeable']:.2f} "
                f"| {r['score']:+.2f} | {_pct(r.get('mandatory', math.nan))} | {_pct(r.get('called_made', math.nan))} "
                f"| {_pct(r.get('called_under', math.nan))} |"
            )
        lines += [
            "",
            f"ZELZELA's score per deal as declarer over ORACLE's: {_pct(c['ratio'])} "
            f"[{_pct(c['ratio_lo'])}, {_pct(c['ratio_hi'])}]. Goals: made "
            f"{'met' if z['made'] >= 0.85 else 'not met'}, underbids {'met' if z['underbid'] <= 0.40 else 'not met'}, "
            f"score {'met' if c['ratio'] >= 0.9 else 'not met'}.",
        ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", action="append", choices=RULESETS, help="repeat for several (default: all four)")
    ap.add_argument("--pairs", type=int, default=100, help="duplicate pairs per search step")
    ap.add_argument("--top-pairs", type=int, default=0, help="pairs of the ZELZELA - TIZAB steps (0: --pairs)")
    ap.add_argument("--oracle-pairs", type=int, default=100, help="Feskot boards for the gap to ORACLE (0: skip)")
    ap.add_argument("--contracts", type=int, default=40, help="Tekka self-play deals per bot (0: skip)")
    ap.add_argument("--seed", type=int, default=REPORT_SEED, help="first board (report seeds: 3,000,000..)")
    ap.add_argument(
        "--contract-seed", type=int, help="first Tekka contract deal (default: --seed + 5000 x 13, the contracts' slot)"
    )
    ap.add_argument(
        "--update",
        action="store_true",
        help="keep the rows of the rulesets not measured now from the --out file already there (each under the "
        "command that wrote it)",
    )
    ap.add_argument("--workers", type=int, default=1, help="processes (the figures do not depend on it)")
    ap.add_argument("--out", type=Path, help="write the Markdown here (else print it)")
    ap.add_argument(
        "--cache",
        type=Path,
        help="keep every finished task (a block of boards of one pairing) here and reuse it on a rerun: a "
        "rerun after an interruption, or with a ruleset added, plays only what is missing. Empty it whenever "
        "a bot's code changed",
    )
    args = ap.parse_args(argv)
    global CACHE
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
        CACHE = args.cache
    for name in ("pairs", "top_pairs", "oracle_pairs", "contracts"):
        v = getattr(args, name)
        if not (2 <= v <= SLOT or (v == 0 and name != "pairs")):
            print(f"error: --{name.replace('_', '-')} must be within 2..{SLOT} (0 to skip, but for --pairs)")
            return 2
    rulesets = tuple(dict.fromkeys(args.ruleset or RULESETS))
    command = "python experiments/search_strength.py " + " ".join(
        [*(f"--ruleset {r}" for r in rulesets), f"--pairs {args.pairs}"]
        + ([f"--top-pairs {args.top_pairs}"] if args.top_pairs else [])
        + [f"--oracle-pairs {args.oracle_pairs}"]
        + [f"--contracts {args.contracts}", f"--seed {args.seed}"]
        + ([f"--contract-seed {args.contract_seed}"] if args.contract_seed is not None else [])
        + ([f"--out {args.out}"] if args.out else [])
        + (["--update"] if args.update else [])
    )
    kept = None
    if args.update:
        if not (args.out and args.out.exists()):
            print("error: --update needs --out naming a file this script wrote")
            return 2
        kept = kept_parts(args.out.read_text(), rulesets)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    fig = measure(
        rulesets,
        args.pairs,
        args.oracle_pairs,
        args.contracts,
        args.seed,
        args.workers,
        log,
        args.top_pairs,
        args.contract_seed,
    )
    text = markdown(fig, command, kept)
    if args.out:
        args.out.write_text(text)
        log(f"wrote {args.out}")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
