import click

from .options import rule_options, seed_option

# `tekkasim check-ruleset`'s default deals: tekkasim.testing.DEFAULT_DEALS (not imported here, so that the
# command's --help loads neither numpy nor numba; a test keeps the two equal).
DEFAULT_DEALS = 20


@click.command("check-ruleset")
@click.argument("name")
@click.option(
    "--deals",
    "-n",
    type=click.IntRange(min=1),
    default=DEFAULT_DEALS,
    show_default=True,
    help="Deals with random players (and a fifth as many more with each generic search bot there is).",
)
@seed_option
@rule_options
def check_ruleset(name, deals, seed, rule_opts):
    """Check that ruleset NAME (a built-in or a plug-in) keeps the Game/State contract: play seeded deals
    and, on every decision, check legal and illegal actions, clones, information keys, resampled worlds,
    records through from_record and verify, seeds and returns (spec/rulesets.md, "The conformance check").

    Prints each violation on one line (the property, the seed and the decision that reproduce it) and a
    summary; exit status 0 only when there is none, 1 when there are, 2 for an unknown ruleset or a bad
    option."""
    from ..errors import TekkasimError, shorten_message
    from .options import check_seed_range, parse_rule_options

    try:
        options = parse_rule_options(rule_opts)
        check_seed_range(seed, deals)
        from ..rulesets import get_ruleset

        get_ruleset(name)  # an unknown ruleset or a plug-in that does not load: its one line, exit 2
    except TekkasimError as exc:
        line = click.ClickException(shorten_message(str(exc)))
        line.exit_code = 2
        raise line from None
    from ..testing import check_ruleset as check

    try:
        result = check(name, deals=deals, seed=seed, options=options)
    except TekkasimError as exc:  # a bad option value, refused by the ruleset's Game
        line = click.ClickException(shorten_message(str(exc)))
        line.exit_code = 2
        raise line from None
    for violation in result:
        click.echo(violation)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    click.echo(result.summary(), err=True)
    if result or not result.ok:
        raise SystemExit(1)
