"""``tekkasim export DIR``: the deal records of a stored run, or its per-deal results as CSV / Parquet."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..errors import OptionError, shorten
from .options import check_writable


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
    _check_outputs(directory, out, table)
    if out:
        n = export_records(directory, out)
        click.echo(f"wrote {n} deal records to {out}", err=True)
    if table:
        n = export_table(directory, os.path.realpath(table))  # a symlink stays; its target gets the table
        click.echo(f"wrote {n} per-deal rows to {table}", err=True)


def _is_special(path: str) -> bool:
    """``-``, or an existing FIFO or device: written directly, whatever its name."""
    return path == "-" or (os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path))


def _check_outputs(directory: str, out: str | None, table: str | None) -> None:
    """Before anything is read: each output has a format's suffix, can be written, is not one of the run's
    own files (``--out DIR/run.sqlite`` would destroy the run), and the two are not the same file."""
    from ..tournament.storage import CONFIG_NAME, DB_NAME, LOCK_NAME

    if out and not _is_special(out) and not (out.endswith(".jsonl") or out.endswith(".jsonl.gz")):
        raise OptionError(f"--out {shorten(out)}: deal records go to FILE.jsonl or FILE.jsonl.gz")
    if table == "-":  # the table is written beside its target and renamed: never to standard output
        raise OptionError("--csv -: the table is written to a file (FILE.csv or FILE.parquet), not standard output")
    if table and not _is_special(table) and Path(table).suffix not in (".csv", ".parquet"):
        raise OptionError(f"--csv {shorten(table)}: the table is written as FILE.csv or FILE.parquet")
    run = Path(os.path.realpath(directory))
    for option, path in (("--out", out), ("--csv", table)):
        if not path or _is_special(path):
            continue
        check_writable(path, option)
        target = Path(os.path.realpath(path))
        own = target.name.startswith((DB_NAME, CONFIG_NAME, LOCK_NAME, "."))
        if target.parent == run and own:
            raise OptionError(f"{option} {shorten(path)} is a file of the run in {shorten(directory)}: write elsewhere")
    if out and table and not _is_special(out) and os.path.realpath(out) == os.path.realpath(table):
        raise OptionError(f"--out and --csv are the same file {shorten(out)}: give two names")
