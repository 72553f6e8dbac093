import click

from ..rules import get_game, ruleset_names


@click.command("rules")
def rules():
    """List the rulesets and their options with defaults."""
    for name in ruleset_names():
        game = get_game(name)
        click.echo(f"{name}: {game.description}")
        for opt in game.options_spec:
            choices = f" (one of {', '.join(map(str, opt.choices))})" if opt.choices else ""
            click.echo(f"    {opt.name} = {opt.default!r}{choices}: {opt.doc}")
