"""``tekkasim report DIR``: Elo table and crosstable of a stored run; ``--json`` (runs.md), ``--plots``."""

from __future__ import annotations

import json

import click

from .options import writable_dir


@click.command("report")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="The runs.md report JSON.")
@click.option(
    "--plots",
    "plots",
    default=None,
    type=click.Path(file_okay=False),
    callback=writable_dir,  # before the tables are printed
    help="Write PNGs (Elo ladder, heatmap, margins) and summary.md here.",
)
@click.option("--anchor", default=None, help="The bot rated 0 [RANDOM if it played, else the first].")
@click.option(
    "--bootstrap",
    type=click.IntRange(min=0),
    default=None,
    help="Also show a bootstrap interval from this many resamples of the boards [0: none; lo/hi are the "
    "board-clustered intervals either way].",
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the bootstrap.")
@click.option(
    "--bots",
    "only",
    default=None,
    metavar="A,B,...",
    help="Rate only these bots, from the pairs in which every seat is one of them (e.g. one group of an "
    "interrupted round robin) [all].",
)
def report(directory, as_json, plots, anchor, bootstrap, seed, only):
    """Rate the bots of a stored tournament run and print the tables."""
    from ..tournament.config import split_bots
    from ..tournament.report import BOOTSTRAP, build_report, pairing_margins, render_text, write_plots

    if only is not None and not split_bots(only):
        raise click.UsageError("--bots is empty (give the bots to rate, e.g. --bots GREEDY,RANDOM)")
    boot = BOOTSTRAP if bootstrap is None else bootstrap
    data = build_report(directory, anchor=anchor, bootstrap=boot, seed=seed, only=only and split_bots(only))
    if as_json:
        click.echo(json.dumps(data, indent=1))
    else:
        click.echo(render_text(data))
    if plots:
        shown = {(c["a"], c["b"]) for c in data["crosstable"]}  # with --bots, its pairings only
        margins = {k: v for k, v in pairing_margins(directory).items() if k in shown}
        paths = write_plots(data, plots, margins)
        click.echo(f"plots and summary: {', '.join(str(p) for p in paths)}", err=as_json)
