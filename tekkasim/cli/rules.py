import click

from ..rules import get_game, ruleset_names


@click.command("rules")
def rules():
    """List the rulesets (built-in, then plug-ins) and their options with defaults; a plug-in that cannot be
    used is one line on standard error and the others are listed."""
    from ..rulesets import get_ruleset, plugin_problems

    for name in ruleset_names():
        game = get_game(name)
        source = get_ruleset(name).source
        click.echo(f"{name}: {game.description}" + ("" if source == "built-in" else f" [{source}]"))
        for opt in game.options_spec:
            choices = f" (one of {', '.join(map(str, opt.choices))})" if opt.choices else ""
            click.echo(f"    {opt.name} = {opt.default!r}{choices}: {opt.doc}")
    for line in plugin_problems():
        click.echo(f"tekkasim: {line}", err=True)
