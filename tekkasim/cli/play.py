import click

from ..records import dumps, write_records
from ..simulate import play_records
from .options import make_game, rule_options, ruleset_option, seed_option


@click.command("play")
@ruleset_option
@click.option("--deals", "-n", type=click.IntRange(min=1), default=100, show_default=True, help="How many deals.")
@seed_option
@click.option("--out", "-O", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the deal records here (.jsonl or .jsonl.gz); default: print them.")
@click.option("--match/--no-match", default=False, show_default=True,
              help="Chain deals into matches (scores, rotation) instead of independent first deals.")
@rule_options
def play(ruleset, deals, seed, out, match, rule_opts):
    """Play seeded deals with random players and write their records."""
    game = make_game(ruleset, rule_opts)
    records = play_records(game, deals, seed, match=match)
    if out is None:
        for rec in records:
            click.echo(dumps(rec))
        return
    n = write_records(out, records)
    click.echo(f"wrote {n} {game.name} deal records to {out}", err=True)
