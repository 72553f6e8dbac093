"""The ``tekkasim`` command: a thin click layer over the library (one module per subcommand).

Every user error (a ``TekkasimError`` from the library, or a click usage error) ends as one line on
stderr and a non-zero exit status; nothing the user types produces a traceback.
"""

from __future__ import annotations

import sys

import click

from ..errors import TekkasimError


class _Group(click.Group):
    """Turns library errors raised inside any subcommand into click's one-line errors."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except TekkasimError as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tekkasim")
def cli():
    """Bot research and simulation for Feskot, Tekka, Satat and Shengji."""


def _register() -> None:
    from .bench import bench
    from .deal import deal
    from .play import play
    from .replay import replay
    from .rules import rules
    from .run import run
    from .verify import verify

    for command in (rules, deal, play, verify, replay, bench, run):
        cli.add_command(command)
    try:  # the double-dummy solver is an optional layer on top of the rules
        from .dd import dd
    except ModuleNotFoundError:
        return
    cli.add_command(dd)


_register()


def main() -> None:
    try:
        cli.main(prog_name="tekkasim")
    except BrokenPipeError:  # `tekkasim replay f | head`
        sys.stderr.close()
        sys.exit(0)
    except KeyboardInterrupt:
        click.echo("tekkasim: interrupted", err=True)
        sys.exit(130)
