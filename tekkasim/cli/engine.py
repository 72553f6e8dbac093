"""``tekkasim engine BOT``: serve a bot as an engine on stdin/stdout (spec/engine.md, docs/engines.md)."""

from __future__ import annotations

import sys

import click


@click.command("engine")
@click.argument("bot")
def engine(bot: str):
    """Serve BOT (a name, NAME:param=value,... or package.module:Name) as an engine: JSON lines on
    stdin/stdout, so that an app in any language, or a tournament's engine:COMMAND, can use it."""
    from ..bots.engines import serve

    sys.exit(serve(bot))
