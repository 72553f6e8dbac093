"""``tekkasim bots [--json]``: every built-in bot with its rank, kind, rulesets, parameters and what it does
(runs.md, "Bots")."""

from __future__ import annotations

import json

import click


@click.command("bots")
@click.option("--json", "as_json", is_flag=True, help="print the list as JSON (runs.md)")
def bots(as_json: bool):
    """List the bots: the ladder weakest first, then the baselines and ORACLE."""
    from ..bots import describe, param_ranges

    rows = describe()
    if as_json:
        click.echo(json.dumps(rows, indent=1))
        return
    for row in rows:
        rank = "-" if row["rank"] is None else str(row["rank"])
        click.echo(f"{row['name']:<8} rank {rank:<2} {row['kind']:<9} {','.join(row['rulesets'])}")
        click.echo(f"    {row['description']}")
        if row["params"]:
            click.echo("    " + ", ".join(f"{k}={v}" for k, v in row["params"].items()))
        for name, by_ruleset in param_ranges(row["name"]).items():  # one that differs by ruleset (LEVEL's elo)
            shown = ", ".join(f"{r} {_number(lo)} .. {_number(hi)}" for r, (lo, hi) in by_ruleset.items())
            click.echo(f"    {name} by ruleset: {shown}")


def _number(v: float) -> str:
    return f"{v:.0f}" if abs(v) >= 100 else f"{v:g}"
