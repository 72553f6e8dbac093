"""``tekkasim export DIR``: the deal records of a stored run, or its per-deal results as CSV / Parquet."""

from __future__ import annotations

import click


@click.command("export")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option(
    "--out",
    "-O",
    default=None,
    type=click.Path(dir_okay=False),
    help="Deal records to FILE.jsonl or FILE.jsonl.gz (every one passes `tekkasim verify`).",
)
@click.option(
    "--csv",
    "table",
    default=None,
    type=click.Path(dir_okay=False),
    help="Per-deal results to FILE.csv, or FILE.parquet (needs pyarrow).",
)
def export(directory, out, table):
    """Write a run's deal records (--out) and/or its per-deal results table (--csv)."""
    from ..tournament import export_records, export_table

    if not out and not table:
        raise click.UsageError("give --out FILE.jsonl[.gz] and/or --csv FILE.csv|FILE.parquet")
    if out:
        n = export_records(directory, out)
        click.echo(f"wrote {n} deal records to {out}", err=True)
    if table:
        n = export_table(directory, table)
        click.echo(f"wrote {n} per-deal rows to {table}", err=True)
