import json

import click


@click.command("verify")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record.")
def verify(path, as_json):
    """Check every record of FILE (.jsonl or .jsonl.gz; - reads standard input, e.g. `tekkasim play |
    tekkasim verify -`) against the rules; exit 1 if any record breaks one."""
    from ..verify import verify_file

    bad = total = 0
    for verdict in verify_file(path):
        total += 1
        bad += not verdict.ok
        click.echo(json.dumps(verdict.to_json()) if as_json else verdict.line())
    if not as_json:
        click.echo(f"{total - bad} of {total} records legal", err=True)
    if bad or total == 0:
        if total == 0:
            click.echo(f"tekkasim: {'standard input' if path == '-' else path} holds no records", err=True)
        raise SystemExit(1)
