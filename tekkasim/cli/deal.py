import click

from .options import make_game, rule_options, ruleset_option, seed_option


@click.command("deal")
@ruleset_option
@seed_option
@rule_options
def deal(ruleset, seed, rule_opts):
    """Show the seeded deal (hands by seat, as dealt) before any decision is made."""
    state = make_game(ruleset, rule_opts).new_deal(seed)
    click.echo(state.render())
