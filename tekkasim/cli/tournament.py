"""``tekkasim tournament``: a duplicate round robin or gauntlet into a run directory (runs.md)."""

from __future__ import annotations

import click

from ..rulesets import DEFAULT_RULESET
from .options import cap_workers, check_writable, parse_rule_options


@click.command("tournament")
@click.option(
    "--ruleset", "-r", default=None, metavar="NAME", help=f"A ruleset (see `tekkasim rules`) [{DEFAULT_RULESET}]."
)
@click.option(
    "--bots",
    "-b",
    "bots",
    multiple=True,
    metavar="A,B,...",
    help="Teams: bot names, NAME:param=value, package.module:Name, or A+B for a mixed partnership "
    "(comma-separated, repeatable).",
)
@click.option("--boards", "-n", type=int, default=None, help="Boards per pairing [100].")
@click.option("--seed", "-s", type=int, default=None, help="Board i uses seed S+i [1].")
@click.option("--unit", default=None, metavar="deal|match", help="One deal or one whole match per table [deal].")
@click.option(
    "--schedule",
    default=None,
    metavar="round-robin|gauntlet",
    help="Every pair of teams, or the first team against each other [round-robin].",
)
@click.option("--workers", "-w", type=int, default=None, help="Worker processes [0 = every core].")
@click.option("--backend", default=None, metavar="local|dask", help="Where blocks are played [local].")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler (default: a local cluster).")
@click.option(
    "--out",
    "-O",
    default=None,
    type=click.Path(file_okay=False),
    help="Run directory (rerun to resume) [runs/<ruleset>-<unit>-seed<S>-<digest>].",
)
@click.option(
    "--config",
    "config_file",
    default=None,
    type=click.Path(dir_okay=False),
    help="A TOML file with any of these settings; flags override it.",
)
@click.option("--dump-config", is_flag=True, help="Print the effective configuration as TOML and exit.")
@click.option("--option", "-o", "rule_opts", multiple=True, metavar="KEY=VALUE", help="A ruleset option (repeatable).")
@click.option("--block", type=int, default=None, help="Boards per block of work [chosen from the size].")
@click.option("--timeout", type=float, default=None, help="Seconds without progress before the watchdog stops [300].")
@click.option(
    "--anchor", default=None, help="The bot rated 0 in the final table [RANDOM if it played, else the first]."
)
@click.option("--quiet", "-q", is_flag=True, default=None, help="No progress bar.")
def tournament(
    ruleset,
    bots,
    boards,
    seed,
    unit,
    schedule,
    workers,
    backend,
    scheduler,
    out,
    config_file,
    dump_config,
    rule_opts,
    block,
    timeout,
    anchor,
    quiet,
):
    """Play a duplicate tournament (or resume one in --out DIR) and print the Elo table."""
    from . import stop_on_sigterm

    stop_on_sigterm()  # SIGTERM while the library imports: the one line and 143 (the runner takes over later)
    from ..tournament import Config, default_out, read_config_file, run_tournament, split_bots, to_toml
    from ..tournament.config import check_anchor, inseparable_bots
    from ..tournament.report import build_report, render_text
    from ..tournament.runner import keep_start_logs

    values = read_config_file(config_file) if config_file else {}
    options = dict(values.pop("options", {}) or {})
    options.update(parse_rule_options(rule_opts))
    flags = {
        "ruleset": ruleset,
        "boards": boards,
        "seed": seed,
        "unit": unit,
        "schedule": schedule,
        "workers": workers,
        "backend": backend,
        "scheduler": scheduler,
        "block": block,
        "timeout": timeout,
        "out": out,
        "anchor": anchor,
        "quiet": quiet,
    }
    if bots:
        flags["bots"] = [b for text in bots for b in split_bots(text)]
    values.update({k: v for k, v in flags.items() if v is not None})
    out_dir, anchor, quiet = values.pop("out", None), values.pop("anchor", None), values.pop("quiet", False)
    if out_dir is not None and not dump_config:
        check_writable(out_dir, "--out", directory=True)
        keep_start_logs(out_dir)  # an engine that fails to start (its hello is read now) logs there
    cfg = Config.build(options=options, **values)
    anchor = check_anchor(cfg, anchor)  # before the run, not after it
    if dump_config:
        eff = cfg.effective()
        if out_dir:
            eff["out"] = out_dir
        click.echo(to_toml(eff), nl=False)
        return
    if cfg.backend == "local" or not cfg.scheduler:
        cfg.workers = cap_workers(cfg.workers)
    check_writable(out_dir if out_dir is not None else default_out(cfg), "--out", directory=True)
    unmeasured = inseparable_bots(cfg, anchor)
    if unmeasured:
        click.echo(
            f"warning: these pairings measure only team means, not the ratings of {', '.join(unmeasured)} "
            "(pair each bot with itself, or against more teams, to separate them)",
            err=True,
        )
    summary = run_tournament(cfg, out_dir, quiet=bool(quiet))
    restarts = f", {summary.restarts} worker restart(s)" if summary.restarts else ""
    click.echo(
        f"{summary.tables_played} tables played ({summary.tables_total} in the run) in {summary.seconds:.1f} s "
        f"on {summary.workers} worker(s){restarts}; stored in {summary.directory}"
    )
    # the same call as `tekkasim report DIR` with its defaults: the same intervals for the same run
    report = build_report(summary.directory, anchor=anchor)
    click.echo(render_text(report))
