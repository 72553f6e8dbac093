import click


@click.command("replay")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--deal",
    "-d",
    "deal_index",
    type=click.IntRange(min=0),
    default=None,
    help="Only the deal with this index (0-based, as in `verify`).",
)
def replay(path, deal_index):
    """Render the deals of FILE (- reads standard input): hands as dealt, calls, trump, one line per trick
    with the winning play marked *, and the result; the same layout for every ruleset."""
    from ..errors import RecordError
    from ..records import iter_records
    from ..verify import render_record

    found = failed = False
    for index, record in iter_records(path):
        if deal_index is not None and index != deal_index:
            continue
        found = True
        if isinstance(record, RecordError):
            click.echo(f"deal {index}: unreadable: {record}")
            failed = True
        else:
            text, ok = render_record(record, index)
            click.echo(text)
            failed |= not ok
        click.echo()
    if not found:
        name = "standard input" if path == "-" else path
        raise click.ClickException(
            f"{name} has no deal {deal_index}" if deal_index is not None else f"{name} holds no records"
        )
    if failed:
        raise SystemExit(1)
