import click

from .options import first_context, first_option, make_game, rule_options, ruleset_option, seed_option


@click.command("deal")
@ruleset_option
@seed_option
@first_option
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the deal as a records.md deal record (unfinished), for `verify`, `dd` and `replay`.",
)
@rule_options
def deal(ruleset, seed, first, as_json, rule_opts):
    """Show the seeded deal before any decision: hands by seat as dealt (the first five cards, from which
    Prime or Troupe is chosen, in dealt order), calls already made (Satat's draw) and the seats."""
    game = make_game(ruleset, rule_opts)
    state = game.new_deal(seed, **first_context(game, first))
    if as_json:
        from ..records import dumps

        record = state.to_record()
        record.setdefault("seed", seed)
        click.echo(dumps(record))
        return
    from ..render import render_state

    click.echo(render_state(state))
