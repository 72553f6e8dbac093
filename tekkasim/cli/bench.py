import json

import click

from ..rules import get_game, ruleset_names
from ..throughput import measure


@click.command("bench")
@click.option("--ruleset", "-r", "rulesets", multiple=True, metavar="NAME", help="Only these rulesets (repeatable).")
@click.option(
    "--deals",
    type=click.IntRange(min=1000, max=10**7),  # a kernel call keeps every deal's outcome in memory
    default=200_000,
    show_default=True,
    help="Deals per timed kernel call (at most 10,000,000).",
)
@click.option(
    "--seconds", type=click.FloatRange(min=0.1), default=1.0, show_default=True, help="Minimum time per measurement."
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable figures.")
def bench(rulesets, deals, seconds, as_json):
    """Engine throughput on this machine: random deals per second on one core."""
    names = [get_game(r).name for r in rulesets] or ruleset_names()  # any case, as everywhere; unknown: one line
    figures = measure(names, deals=deals, seconds=seconds)
    if as_json:
        click.echo(json.dumps(figures, indent=2))
        return
    click.echo(f"{'ruleset':<9} {'compiled deals/s':>17} {'Python API deals/s':>19} {'first call s':>13}")
    for name, row in figures["rulesets"].items():
        click.echo(
            f"{name:<9} {row['random_deals_per_second']:>17,} {row['python_api_deals_per_second']:>19,.0f}"
            f" {row['first_call_seconds']:>13.3f}"
        )
