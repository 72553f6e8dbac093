"""``tekkasim smoke``: every ruleset's random deals and verified records, a quick check of an install."""

from __future__ import annotations

import time
from pathlib import Path

import click

from .options import check_seed_range, make_seed_option


@click.command("smoke")
@click.option(
    "--deals",
    type=click.IntRange(min=1, max=10**7),  # one kernel call keeps every deal's outcome in memory
    default=100_000,
    show_default=True,
    help="Random deals per ruleset in one Game.play_random call (at most 10,000,000).",
)
@click.option(
    "--records",
    "n_records",
    type=click.IntRange(min=1, max=10**6),  # each record is verified and read back into a table
    default=300,
    show_default=True,
    help="Deals per ruleset played through the Python API, written as records and verified (at most 1,000,000).",
)
@make_seed_option(2026)
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False),
    default="runs",
    show_default=True,
    help="Where the record files go (created if missing).",
)
@click.option("--ruleset", "-r", "rulesets", multiple=True, metavar="NAME", help="Only these rulesets.")
def smoke(deals, n_records, seed, out_dir, rulesets):
    """A smoke test of every ruleset (plug-ins included): random deals through ``Game.play_random``, then
    deals played as matches through the Python API, written as records and verified, with a summary."""
    from ..analysis import contract_table, records_frame  # pandas: only this command needs it
    from ..errors import OptionError, shorten
    from ..records import read_records, write_records
    from ..rules import get_game, ruleset_names
    from ..simulate import play_records
    from ..verify import verify_file

    check_seed_range(seed, max(deals, n_records))
    if not out_dir.strip():
        raise OptionError("--out-dir is empty (give a directory, e.g. runs)")
    try:  # before the long part of the job, not after it
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        part_is_file = isinstance(exc, FileExistsError | NotADirectoryError)
        reason = "a part of the path is a file" if part_is_file else exc.strerror
        raise OptionError(f"cannot use --out-dir {shorten(out_dir, 200)}: {reason}") from None
    names = [get_game(r).name for r in rulesets] if rulesets else ruleset_names()
    for name in names:
        game = get_game(name)
        t0 = time.perf_counter()
        out = game.play_random(deals, seed)
        elapsed = time.perf_counter() - t0
        returns = out["returns"]
        click.echo(f"== {name}: {deals:,} random deals by Game.play_random ({elapsed:.2f} s incl. compile)")
        click.echo(
            f"   mean per deal: team A {returns[:, 0].mean():.3f}, team B {returns[:, 1].mean():.3f}"
            f"  ({game.returns_unit})"
        )
        path = Path(out_dir) / f"{name}-seed{seed}.jsonl.gz"
        written = write_records(path, play_records(game, n_records, seed, match=True))
        verdicts = list(verify_file(path))
        bad = [v for v in verdicts if not v.ok]
        click.echo(
            f"   {written} deals as matches through the Python API -> {path}: "
            f"{len(verdicts) - len(bad)} of {len(verdicts)} verify"
        )
        for v in bad[:3]:
            click.echo(f"   {v.line()}")
        frame = records_frame(read_records(path))
        contracts = contract_table(frame)  # empty for a ruleset without contracts
        if len(contracts):
            click.echo(
                "   contracts of random players (target: deals, made, success rate); calls are uniform over\n"
                "   the legal ones and D13 can be called again, so the last caller mostly ends up in a D13:"
            )
            for key, row in contracts.iterrows():
                click.echo(f"     {key:>16}: {int(row['deals']):4d} {int(row['made']):4d} {row['success_rate']:6.1%}")
        if frame["match"].nunique() > 1:  # Feskot games stand alone: one long chain, no match to count
            click.echo(f"   matches completed: {frame['match'].nunique() - 1} (the last may be unfinished)")
        if bad:
            raise SystemExit(1)
