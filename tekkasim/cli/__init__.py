"""The ``tekkasim`` command: a thin click layer over the library (one module per subcommand).

Every user error (a ``TekkasimError`` from the library, or a click usage error) ends as one line on
stderr and a non-zero exit status; nothing the user types produces a traceback.
"""

from __future__ import annotations

import sys

import click

from ..errors import TekkasimError


# subcommand -> "module:function" in this package, imported only when that subcommand runs (or for its
# help), so that `tekkasim --help` and light commands do not load pandas, the solver or the bots.
COMMANDS = {
    "rules": "rules:rules",
    "deal": "deal:deal",
    "play": "play:play",
    "verify": "verify:verify",
    "replay": "replay:replay",
    "dd": "dd:dd",
    "bench": "bench:bench",
    "run": "run:run",
}


class _Group(click.Group):
    """Loads subcommands lazily and turns library errors raised inside any of them into click's one-line
    errors."""

    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        from importlib import import_module

        module, attr = target.split(":")
        return getattr(import_module(f"{__name__}.{module}"), attr)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except TekkasimError as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tekkasim")
def cli():
    """Bot research and simulation for Feskot, Tekka, Satat and Shengji."""


def main() -> None:
    try:
        cli.main(prog_name="tekkasim")
    except BrokenPipeError:  # `tekkasim replay f | head`
        sys.stderr.close()
        sys.exit(0)
    except KeyboardInterrupt:
        click.echo("tekkasim: interrupted", err=True)
        sys.exit(130)
