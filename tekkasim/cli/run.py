"""``tekkasim run`` (what ``make run`` runs): every bot of the ladder in one Elo table against RANDOM, from
two resumable runs in one directory (``tekkasim.analysis.ladder``); ``--doc`` writes docs/make-run.md."""

from __future__ import annotations

import click

from ..rulesets import DEFAULT_RULESET
from .options import cap_workers, check_writable, make_seed_option, parse_rule_options


@click.command("run")
@click.option(
    "--ruleset", "-r", default=DEFAULT_RULESET, show_default=True, metavar="NAME", help="A ruleset with a bot ladder."
)
@click.option(
    "--boards",
    "-n",
    type=click.IntRange(min=1),
    default=2000,
    show_default=True,
    help="Boards of the round robin of RANDOM, GREEDY and the heuristic ladder (compiled).",
)
@click.option(
    "--search-boards",
    type=click.IntRange(min=0),
    default=48,
    show_default=True,
    help="Boards of each search bot against the top heuristic bot (0: no search tier).",
)
@click.option(
    "--time-ms",
    type=click.IntRange(min=0, max=600_000),
    default=10,
    show_default=True,
    help="Each search decision's time in ms (0: the presets' full worlds, reproducible and far slower).",
)
@make_seed_option(2026)
@click.option("--workers", "-w", type=int, default=0, show_default=True, help="Worker processes (0 = every core).")
@click.option(
    "--out",
    "-O",
    default="runs/ladder",
    show_default=True,
    type=click.Path(file_okay=False),
    help="The job's directory: its two runs (rerun to resume), report.json, plots/ and records.jsonl.gz.",
)
@click.option("--option", "-o", "rule_opts", multiple=True, metavar="KEY=VALUE", help="A ruleset option (repeatable).")
@click.option(
    "--doc",
    default=None,
    type=click.Path(dir_okay=False),
    help="Also write this Markdown page (docs/make-run.md) and its data beside it (.json): the table, the "
    "crosstable, and the time, CPU and load measured.",
)
@click.option(
    "--readme",
    default=None,
    type=click.Path(dir_okay=False, exists=True),
    help="With --doc: also put the table between the make-run markers of this file (README.md).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bars.")
def run(ruleset, boards, search_boards, time_ms, seed, workers, out, rule_opts, doc, readme, quiet):
    """The main job: the heuristic ladder with RANDOM and GREEDY in a round robin on many boards, the search
    tier at --time-ms a decision against JANGARA on fewer, one Elo table of both (anchor RANDOM, 95%
    intervals clustered by board, each ladder step with its interval). Rerun to resume; the report, plots
    and deal records go beside the runs."""
    from . import stop_on_sigterm

    stop_on_sigterm()  # SIGTERM while the library imports: the one line and 143 (the runner takes over later)
    import json
    import os
    import sys
    import time
    from pathlib import Path

    from ..analysis.ladder import (
        Plan,
        doc_markdown,
        machine,
        process_seconds,
        put_table,
        render_table,
        run_job,
        write_outputs,
    )
    from ..errors import OptionError
    from ..files import write_whole

    load_before = os.getloadavg()[0]
    plan = Plan(ruleset, boards, search_boards, time_ms, seed, cap_workers(workers), parse_rule_options(rule_opts))
    plan.ladder_config()  # a ruleset without a ladder, or sizes out of range: one line before anything is written
    check_writable(out, "--out", directory=True)
    if doc is not None:
        check_writable(doc, "--doc")
    if readme is not None:
        if doc is None:
            raise OptionError("--readme goes with --doc (the README's table is that of the page)")
        put_table(Path(readme).read_text(encoding="utf-8"), "")  # its markers, before the run
    report, played = run_job(plan, out, quiet=quiet, echo=click.echo)
    paths = write_outputs(report, out)
    click.echo("")
    click.echo(render_table(report))
    click.echo("")
    shown = {p.name: p for p in paths}
    click.echo(
        f"report: {shown['report.json']}; plots and summary: {shown['summary.md'].parent}; "
        f"records: {shown['records.jsonl.gz']}"
    )
    if doc is not None:
        wall, cpu = process_seconds()
        argv = ["tekkasim", *sys.argv[1:]] if Path(sys.argv[0]).name in ("tekkasim", "__main__.py") else None
        meta = {
            "command": " ".join(argv) if argv else f"tekkasim run --out {out} --doc {doc}",
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": machine(),
            "load_before": load_before,
            "load_after": os.getloadavg()[0],
            "wall": wall,
            "cpu": cpu,
            "runs": played,
            "data": str(Path(doc).with_suffix(".json")),
        }
        data = {"meta": meta, "report": {k: v for k, v in report.items() if k != "margins"}}
        target = Path(doc)
        write_whole(target.with_suffix(".json"), json.dumps(data, indent=1) + "\n")
        write_whole(target, doc_markdown(data))
        click.echo(f"wrote {target} and {target.with_suffix('.json')}")
        if readme is not None:
            write_whole(readme, put_table(Path(readme).read_text(encoding="utf-8"), render_table(report)))
            click.echo(f"put the table in {readme}")
