import click

from .options import check_seed_range, first_context, first_option, make_game, rule_options, ruleset_option, seed_option


class _StartingAt:
    """``game`` whose deals without match context (a first deal) start from the given seat; a match's
    later deals take their seats from ``next_deal_context`` as usual."""

    def __init__(self, game, context: dict):
        self._game, self._context = game, context

    def new_deal(self, seed, **context):
        return self._game.new_deal(seed, **(context or self._context))

    def __getattr__(self, name):
        return getattr(self._game, name)


@click.command("play")
@ruleset_option
@click.option("--deals", "-n", type=click.IntRange(min=1), default=100, show_default=True, help="How many deals.")
@seed_option
@first_option
@click.option(
    "--out",
    "-O",
    default=None,
    metavar="FILE",
    help="Write the deal records here (.jsonl or .jsonl.gz; a FIFO, device or - is written directly); "
    "default: print them.",
)
@click.option(
    "--match/--no-match",
    default=False,
    show_default=True,
    help="Chain deals into matches (scores, rotation) instead of independent first deals.",
)
@rule_options
def play(ruleset, deals, seed, first, out, match, rule_opts):
    """Play seeded deals with random players and write their records."""
    from ..records import dumps, write_records
    from ..simulate import play_records

    check_seed_range(seed, deals)
    game = make_game(ruleset, rule_opts)
    context = first_context(game, first)
    records = play_records(_StartingAt(game, context) if context else game, deals, seed, match=match)
    if out is None:
        for rec in records:
            click.echo(dumps(rec))
        return
    n = write_records(out, records)
    click.echo(f"wrote {n} {game.name} deal records to {out}", err=True)
