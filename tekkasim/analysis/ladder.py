"""The main job (``tekkasim run``, ``make run``): the whole bot ladder of a ruleset in one Elo table
anchored at RANDOM, with 95% intervals that order its tiers, sized for ``make run``'s time on two cores
(its measured time: docs/make-run.md).

Two stored runs (runs.md) in one directory, each resumed by the same command:

- ``DIR/ladder``: a duplicate round robin of RANDOM, GREEDY and the heuristic ladder (KADO .. JANGARA) on
  ``boards`` boards from ``seed``. Every pairing plays in the ruleset's compiled whole-deal loop, so that
  many boards cost little: enough for each step of the heuristic ladder to show in its interval.
- ``DIR/search``: a gauntlet of the top heuristic bot (JANGARA) against each search preset (TANOOR, TIZAB,
  ZELZELA) at ``time_ms`` milliseconds a decision (``NAME:time_ms=T``, ``bots.pimc.Limit``), on
  ``search_boards`` boards of its own (seeds from ``seed + SEARCH_SEEDS``).

One Bradley–Terry fit of all their pairs (``ratings.fit_elo``; a board, named by its seed, is one cluster)
rates every bot against RANDOM; JANGARA, in both runs, links the two. Each ladder bot's step over the
ladder bot just below it (RANDOM below the first) and the search tier's mean over JANGARA get their 95%
intervals from the same fit (``ratings.step_interval``, ``ratings.group_step_interval``).

With ``time_ms > 0`` a search decision stops at a wall-clock deadline: the search rows depend on the
machine and its load, while the search run's wall time depends on the boards played and hardly on the
load. The ladder rows do not depend on either: the same command gives the same numbers. ``time_ms=0``
plays the search presets as they are (reproducible, and far slower).

The table the job prints is :func:`render_table` of the report (:func:`job_report`); ``docs/make-run.md``
is :func:`doc_markdown` of the report of one ``make run`` and its measurements, kept in
``docs/make-run.json`` (``tekkasim run --doc docs/make-run.md`` writes both).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import TekkasimError
from ..ratings import interval_text
from ..rulesets import DEFAULT_RULESET

SEARCH_SEEDS = 1_000_000  # the search run's boards start this far after the ladder's (which may not reach them)
RUNS = ("ladder", "search")  # the run directories inside DIR
RECORD_BOARDS = 16  # boards of each ladder pairing whose deal records the job writes (the search run's: all)


class JobError(TekkasimError):
    """The main job cannot run as asked (a ruleset without a ladder, sizes out of range)."""


# The job's bots by tier (runs.md's names; tests/test_run.py checks them against ``bots.describe()``). They are
# named here rather than read from ``describe()``, which loads every bot's module: the search bots' import the
# double-dummy solver, whose kernels compile at import, and the job compiles them apart (``_warm_apart``).
BASELINES = ("RANDOM", "GREEDY")
HEURISTIC = ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA")  # the ladder's ranks 0-5, weakest first
SEARCH = ("TANOOR", "TIZAB", "ZELZELA")  # ranks 6-8


def playing(names, ruleset: str) -> list[str]:
    """Those of ``names`` that play ``ruleset``."""
    from ..bots import get_bot
    from ..errors import BotError

    def plays(name: str) -> bool:
        try:
            return get_bot(name, ruleset=ruleset).supports(ruleset)
        except BotError:
            return False

    return [n for n in names if plays(n)]


@dataclass
class Plan:
    """What the main job plays: the sizes of its two runs, the search budget, the seed, the workers."""

    ruleset: str = DEFAULT_RULESET
    boards: int = 2000
    search_boards: int = 48
    time_ms: int = 10
    seed: int = 2026
    workers: int = 0
    options: dict = field(default_factory=dict)

    def ladder_config(self):
        """The round robin of the baselines and the heuristic ladder (a ``tournament.Config``); one-line
        errors for what cannot be played."""
        from ..rules import get_game
        from ..tournament import Config

        if not 1 <= self.boards <= SEARCH_SEEDS:
            raise JobError(f"--boards must be 1 to {SEARCH_SEEDS:,} (the search tier's boards come after them)")
        if self.search_boards < 0 or self.time_ms < 0:
            raise JobError("--search-boards and --time-ms must be 0 or more")
        ruleset = get_game(self.ruleset, **self.options).name
        heuristic = playing(HEURISTIC, ruleset)
        if not heuristic:
            raise JobError(f"ruleset {ruleset} has no heuristic bot ladder to rate (try `tekkasim tournament`)")
        bots = [*playing(BASELINES, ruleset), *heuristic]
        return Config.build(
            ruleset=ruleset,
            options=dict(self.options),
            workers=self.workers,
            bots=bots,
            boards=self.boards,
            seed=self.seed,
        )

    def search_config(self):
        """The gauntlet of the top heuristic bot against each search bot at ``time_ms`` (a
        ``tournament.Config``), or None (``search_boards=0``, or no search bot plays the ruleset)."""
        from ..tournament import Config

        ladder = self.ladder_config()
        search = playing(SEARCH, ladder.ruleset) if self.search_boards > 0 else []
        if not search:
            return None
        specs = [f"{name}:time_ms={self.time_ms}" if self.time_ms else name for name in search]
        return Config.build(
            ruleset=ladder.ruleset,
            options=dict(self.options),
            workers=self.workers,
            bots=[ladder.teams[-1].bots[0], *specs],
            boards=self.search_boards,
            seed=self.seed + SEARCH_SEEDS,
            schedule="gauntlet",
        )


def run_job(
    plan: Plan, out: str | os.PathLike, quiet: bool = False, echo: Callable[[str], None] = print
) -> tuple[dict, list[dict]]:
    """Play (or resume) the job's runs into ``out``, then rate them: ``(report, played)``, the report of
    :func:`job_report` and per run the tables played now, the tables in it and the seconds it took. ``echo``
    gets a line per run."""
    from ..tournament import run_tournament

    out = Path(out)
    ladder = plan.ladder_config()
    warming = _warm_apart(plan, ladder)
    played = []

    def play(name: str, cfg) -> None:
        s = run_tournament(cfg, out / name, quiet=quiet)
        echo(
            f"{name}: {s.tables_played} tables played ({s.tables_total} in the run) in {s.seconds:.1f} s "
            f"on {s.workers} worker(s); stored in {s.directory}"
        )
        played.append(
            {"run": name, "tables_played": s.tables_played, "tables_total": s.tables_total, "seconds": s.seconds}
        )

    try:
        warming[0].join()
        play("ladder", ladder)
        warming[1].join()
    finally:
        for proc in warming:
            proc.kill()
            proc.join()
    search = plan.search_config()
    if search is not None:
        play("search", search)
    return job_report(out, [p["run"] for p in played]), played


def _warm_apart(plan: Plan, ladder) -> list:
    """Load or compile the job's kernels in two forked processes at once, started before this process
    loads any of them: one plays a deal of the top heuristic bot through the State API, then the ladder's
    compiled loops (the runner's warm-up); the other imports the double-dummy solver and plays a deal of
    the search bots (few worlds, no deadline). On a cold cache (a fresh clone, or sources just edited:
    ``_numba_cache``) the two halves compile side by side, and the runs' own warm-ups
    (``tournament.runner``) then load what they wrote; on a warm one they only load. Returns the two
    processes (the ladder's first). A failure here is left to the runs to report."""
    import multiprocessing

    from ..bots import get_bot
    from ..bots.loop import play_deal
    from ..rules import get_game
    from ..tournament import Job
    from ..tournament.runner import _warm_up

    game = get_game(ladder.ruleset, **ladder.options)
    top = ladder.teams[-1].bots[0]

    def heuristic() -> None:
        play_deal(game.new_deal(plan.seed), [get_bot(top, ruleset=game.name)] * 4, plan.seed)
        _warm_up(Job.from_config(ladder))

    def search() -> None:
        names = playing(SEARCH, game.name) if plan.search_boards > 0 else []
        if names:
            seats = [get_bot(f"{name}:worlds=2,time_ms=0", ruleset=game.name) for name in names]
            play_deal(game.new_deal(plan.seed), (seats * 4)[:4], plan.seed)

    def quietly(task) -> None:
        try:
            task()
        except Exception:  # noqa: BLE001, S110 - the run that needs these kernels reports what fails, in one line
            pass

    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=quietly, args=(task,), daemon=True) for task in (heuristic, search)]
    for proc in procs:
        proc.start()
    return procs


def job_report(out: str | os.PathLike, runs: list[str] | None = None) -> dict:
    """One report of the runs ``runs`` (default: those of :data:`RUNS` stored in ``out``): runs.md's report
    keys (``bots`` sorted by Elo, ``crosstable`` of every pairing, ``anchor`` RANDOM), plus per bot its
    ``kind`` and its ladder ``step`` over the ladder bot below it (``over``, ``step_lo``, ``step_hi``,
    ``step_note``), ``tier`` (the search tier's mean over the top heuristic bot), ``runs`` and ``margins``
    (each pairing's pair margins, for the plots)."""
    from ..bots import get_bot
    from ..ratings import Pairs, crosstable, fit_elo, group_step_interval, json_number, step_interval
    from ..tournament.results import pair_arrays, pairings, team_names

    out = Path(out)
    runs = [r for r in RUNS if (out / r).is_dir()] if runs is None else runs
    if not runs:
        raise JobError(f"{out} holds none of the job's runs ({', '.join(RUNS)}): run `tekkasim run --out {out}`")
    names: list[str] = []
    cols: list[list[np.ndarray]] = [[] for _ in range(6)]
    cross, margins, meta = [], {}, []
    ruleset = None
    for run in runs:
        identity, data, pairing = pair_arrays(out / run)
        ruleset = identity["ruleset"]
        index = []
        for b in data.bots:
            if b not in names:
                names.append(b)
            index.append(names.index(b))
        index = np.array(index, np.int64)
        for col, values in zip(cols, (data.xa, data.xb, data.ya, data.yb), strict=False):
            col.append(index[values])
        cols[4].append(identity["seed"] + data.board)  # a board is its seed: the two runs' boards differ
        cols[5].append(data.margin)
        teams = team_names(identity)
        for p, (x, y) in enumerate(pairings(identity)):
            m = data.margin[pairing == p]
            if len(m):
                cross.append((teams[x], teams[y], m))
                margins[f"{teams[x]} vs {teams[y]}"] = m.tolist()
        n_pairings = len(pairings(identity))
        meta.append(
            {
                "run": run,
                "schedule": identity["schedule"],
                "teams": teams,
                "boards": identity["boards"],
                "seed": identity["seed"],
                "pairs": len(data),
                "complete": len(data) == identity["boards"] * n_pairings,
            }
        )
    pairs = Pairs(names, *(np.concatenate(c) for c in cols))
    anchor = "RANDOM" if "RANDOM" in names else names[0]
    fit = fit_elo(pairs, anchor=anchor)
    bots = {n: get_bot(n, ruleset=ruleset) for n in names}
    ladder = sorted((n for n in names if bots[n].rank is not None), key=lambda n: bots[n].rank)
    rows = []
    for row in sorted(fit.table(), key=lambda r: -r["elo"]):
        name = row["name"]
        row["kind"] = bots[name].kind
        if name in ladder:
            k = ladder.index(name)
            below = ladder[k - 1] if k else anchor
            step, lo, hi, note = step_interval(pairs, fit, name, below)
            row.update(over=below, step=step, step_lo=json_number(lo), step_hi=json_number(hi), step_note=note)
        rows.append(row)
    search = [n for n in ladder if bots[n].kind == "search"]
    top = [n for n in ladder if bots[n].kind == "heuristic"][-1:]
    tier = None
    if search and top:
        step, lo, hi, note = group_step_interval(pairs, fit, search, top)
        tier = {"bots": search, "over": top[0], "step": step, "lo": json_number(lo), "hi": json_number(hi)}
        tier["note"] = note
    return {
        "ruleset": ruleset,
        "unit": "deal",
        "boards": int(len(np.unique(pairs.board))),
        "pairs": len(pairs),
        "anchor": anchor,
        "bots": rows,
        "tier": tier,
        "runs": meta,
        "crosstable": crosstable(cross),
        "interval": {
            "level": 0.95,
            "method": "board-clustered sandwich, never narrower than the dispersion-scaled likelihood one",
            "clusters": fit.boards,
            "t": fit.quantile if math.isfinite(fit.quantile) else None,
        },
        "margins": margins,
    }


def _signed(x) -> str:
    return "-" if x is None else f"{x:+.0f}"


def render_table(report: dict) -> str:
    """The job's Elo table as plain text (what ``tekkasim run`` prints and the README shows): a header
    saying what played, one row per bot (strongest first) with its ladder step, and summary lines."""
    runs = {r["run"]: r for r in report["runs"]}
    lines = [
        f"{report['ruleset']}: every bot in one Elo table, anchor {report['anchor']} = 0, "
        "95% intervals clustered by board"
    ]
    if "ladder" in runs:
        r = runs["ladder"]
        lines.append(
            f"  ladder run: round robin of {len(r['teams'])} bots on {r['boards']} boards (seeds {r['seed']}..), "
            "in the compiled loop"
        )
    if "search" in runs:
        r = runs["search"]
        lines.append(
            f"  search run: {', '.join(r['teams'][1:])} each against {r['teams'][0]} on {r['boards']} boards "
            f"(seeds {r['seed']}..)"
        )
    if not all(r["complete"] for r in report["runs"]):
        lines.append("  [incomplete: run the same command to finish]")
    lines += [
        "",
        f"{'bot':<20} {'kind':<9} {'Elo':>5} {'95% interval':>14}   {'step over':<18} {'step':>5} "
        f"{'95% interval':>14} {'pairs':>6}",
    ]
    for b in report["bots"]:
        if "over" in b:
            step = f"{b['over'][:18]:<18} {_signed(b['step']):>5} {interval_text(b['step_lo'], b['step_hi']):>14}"
        else:
            step = f"{'-':<18} {'':>5} {'':>14}"
        lines.append(
            f"{b['name'][:20]:<20} {b['kind']:<9} {b['elo']:5.0f} {interval_text(b['lo'], b['hi'], '.0f'):>14}   "
            f"{step} {b['pairs']:>6}"
        )
    lines.append("")
    tier = report.get("tier")
    if tier:
        lines.append(
            f"search tier over {tier['over']} (the mean of {len(tier['bots'])}): {_signed(tier['step'])} "
            f"{interval_text(tier['lo'], tier['hi'])}"
        )
    clear = {}
    for b in reversed(report["bots"]):  # weakest first: the heuristic ladder before the search tier
        if "over" in b:
            n, k = clear.get(b["kind"], (0, 0))
            clear[b["kind"]] = (n + (b["step_lo"] is not None and b["step_lo"] > 0), k + 1)
    if clear:
        lines.append(
            "ladder steps whose 95% interval lies above zero: "
            + ", ".join(f"{kind} {n} of {k}" for kind, (n, k) in clear.items())
        )
    notes = [f"{b['name']}: {b['note']}" for b in report["bots"] if b.get("note")]
    notes += [f"{b['name']}'s step: {b['step_note']}" for b in report["bots"] if b.get("step_note")]
    if tier and tier.get("note"):
        notes.append(f"search tier: {tier['note']}")
    lines += notes
    return "\n".join(lines)


def write_outputs(report: dict, out: str | os.PathLike, record_boards: int = RECORD_BOARDS) -> list[Path]:
    """Beside the runs in ``out``: ``report.json``, ``plots/`` (``tournament.report.write_plots``: the Elo
    ladder, head to head, margins, ``summary.md`` with the table) and ``records.jsonl.gz``, the deal
    records of the first ``record_boards`` boards of each ladder pairing and of every search board (every
    record of a run: ``tekkasim export DIR/ladder``). Returns the paths written."""
    from itertools import chain

    from ..files import write_whole
    from ..records import write_records
    from ..tournament import iter_records
    from ..tournament.report import write_plots

    out = Path(out)
    data = {k: v for k, v in report.items() if k != "margins"}
    write_whole(out / "report.json", json.dumps(data, indent=1) + "\n")
    margins = {tuple(k.split(" vs ", 1)): v for k, v in report["margins"].items()}
    paths = [out / "report.json", *write_plots(data, out / "plots", margins, text=render_table(report))]
    runs = [r["run"] for r in report["runs"]]
    records = [iter_records(out / r, boards=record_boards if r == "ladder" else None) for r in runs]
    write_records(out / "records.jsonl.gz", chain(*records))
    return [*paths, out / "records.jsonl.gz"]


# --- docs/make-run.md: the table of one `make run`, with how and where it was measured ----------------

DOC_TITLE = "# `make run`: every bot in one Elo table"
BEGIN, END = "<!-- make-run:begin", "<!-- make-run:end -->"  # the README's copy of the table sits between


def machine() -> str:
    """The CPU model and the cores, so that a figure says where it was measured."""
    import platform

    model = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} x {model}; Python {platform.python_version()}"


def process_seconds() -> tuple[float | None, float]:
    """``(wall, cpu)``: seconds since this process started (None where /proc cannot say), and the CPU
    seconds of this process and of its children that have ended (the run's workers)."""
    import resource

    cpu = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        cpu += usage.ru_utime + usage.ru_stime
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22, starttime, in clock ticks
        wall = float(Path("/proc/uptime").read_text().split()[0]) - started
    except (OSError, ValueError, IndexError):
        wall = None
    return wall, cpu


def table_block(table: str) -> str:
    """The table as the README and docs/make-run.md show it: a fenced block between markers."""
    return f"{BEGIN} (generated by `tekkasim run --doc`; do not edit by hand) -->\n```text\n{table}\n```\n{END}"


def readme_table(text: str) -> str | None:
    """The table between the markers of a text (the README), or None when it has no such block."""
    if BEGIN not in text or END not in text:
        return None
    inside = text[text.index(BEGIN) : text.index(END)]
    body = inside.split("```text\n", 1)[-1]
    return body.rsplit("\n```", 1)[0]


def put_table(text: str, table: str) -> str:
    """``text`` (the README) with the block between its markers replaced by :func:`table_block`; JobError
    when it has no such markers."""
    if BEGIN not in text or END not in text:
        raise JobError(f"no {BEGIN} ... {END} markers to put the table between")
    return text[: text.index(BEGIN)] + table_block(table) + text[text.index(END) + len(END) :]


def doc_markdown(doc: dict) -> str:
    """docs/make-run.md from ``doc`` (docs/make-run.json: ``{"meta": ..., "report": ...}``)."""
    meta, report = doc["meta"], doc["report"]
    runs = ", ".join(
        f"{r['run']} {r['tables_played']} of {r['tables_total']} tables in {r['seconds']:.1f} s" for r in meta["runs"]
    )
    wall = "?" if meta["wall"] is None else f"{meta['wall']:.1f}"
    lines = [
        DOC_TITLE,
        "",
        f"Generated by `{meta['command']}` (`make run`'s command with `--doc`, and `--readme` to copy the table "
        f"into the README), which wrote this file from {meta['data']}, the report and measurements of that run; "
        "rerun it on an empty `runs/ladder` to regenerate them. `tests/test_run.py` checks that this page and "
        "the README's table agree with the JSON.",
        "",
        "How it is made (`tekkasim.analysis.ladder`): a duplicate round robin of the baselines and the "
        "heuristic ladder on many boards in the compiled loop, and each search preset at a budget of "
        "`time_ms` a decision against the top heuristic bot on boards of its own; one Bradley–Terry fit of "
        "all pairs, anchor RANDOM = 0, 95% intervals clustered by board. `step` is a ladder bot's Elo less "
        "the ladder bot's just below it, with its interval from the same fit; the search tier's line is the "
        "mean of the search bots less the top heuristic bot. Under `time_ms` a search decision ends at a "
        "wall-clock deadline, so the search rows depend on the machine and its load; the ladder's rows are "
        "the same on every machine. docs/calibration.md measures the search presets at their full strength.",
        "",
        f"Measured {meta['when']} on {meta['machine']}, load average (1 min) {meta['load_before']:.2f} before "
        f"and {meta['load_after']:.2f} after: {wall} s wall from the start of the process, "
        f"{meta['cpu']:.1f} s of CPU (the process and its workers); {runs}.",
        "",
        table_block(render_table(report)),
        "",
        "Every pairing (pairs, W-D-L and mean margin per pair from the first team's side, with its 95% interval):",
        "",
        "| a | b | pairs | W-D-L | margin | 95% |",
        "|---|---|---|---|---|---|",
    ]
    for c in report["crosstable"]:
        lines.append(
            f"| {c['a']} | {c['b']} | {c['pairs']} | {c['wins']}-{c['draws']}-{c['losses']} | {c['margin']:+.2f} | "
            f"{interval_text(c['margin_lo'], c['margin_hi'], '+.2f')} |"
        )
    return "\n".join(lines) + "\n"
