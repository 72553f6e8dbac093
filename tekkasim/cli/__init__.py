"""The ``tekkasim`` command: a thin click layer over the library (one module per subcommand).

Every user error (a ``TekkasimError`` from the library, or a click usage error) ends as one line on
stderr and a non-zero exit status; nothing the user types produces a traceback.
"""

from __future__ import annotations

import os
import signal
import sys

import click

from ..errors import STOPPED as _STOPPED
from ..errors import Interrupted, TekkasimError, shorten_message

# subcommand -> ("module:function" in this package, short help for `tekkasim --help`). A subcommand's
# module is imported only when it runs (or for its own --help), so that `tekkasim --help` and light
# commands do not load pandas, numba, the solver or the bots; the group's listing reads the short help
# from here. (A plain "module:function" entry works too: its help is then read from the command.)
COMMANDS = {
    "rules": ("rules:rules", "List the rulesets and their options with defaults."),
    "deal": ("deal:deal", "Show a seeded deal: hands by seat as dealt, first five cards marked."),
    "play": ("play:play", "Play seeded deals with random players and write their records."),
    "verify": ("verify:verify", "Check every record of a file against the rules."),
    "replay": ("replay:replay", "Render the deals of a record file, trick by trick."),
    "dd": ("dd:dd", "Double-dummy trick tables of record deals or given hands."),
    "bench": ("bench:bench", "Engine throughput: random deals per second on one core."),
    "run": ("run:run", "The main job (make run): every bot of the ladder in one Elo table against RANDOM."),
    "tournament": ("tournament:tournament", "Play a duplicate bot tournament into a run directory."),
    "report": ("report:report", "Elo table, crosstable and plots of a stored tournament run."),
    "export": ("export:export", "A stored run's deal records, or its per-deal results."),
    "sprt": ("sprt:sprt", "Sequential test of bot A against bot B on duplicate pairs."),
    "bots": ("bots:bots", "List the bots: ladder ranks, kinds, rulesets, parameters and what each does."),
    "bidding": ("bidding:bidding", "Bidding risk of a ruleset with an auction: calls, makes and makeability by hand."),
    "tune": ("tune:tune", "Move one numeric bot parameter until the bot sits at a target Elo."),
    "calibrate": ("calibrate:calibrate", "The ladder's Elo against RANDOM per ruleset, with intervals."),
    "levels": ("levels:levels", "LEVEL:elo=E's calibration table and its accuracy check."),
    "blunders": ("blunders:blunders", "What a bot's decisions cost against the double-dummy best, by kind."),
    "engine": ("engine:engine", "Serve a bot as an engine on stdin/stdout (JSON lines, docs/engines.md)."),
    "table": ("table:table", "Sit at the table: play a deal against bots at the terminal."),
    "check-ruleset": ("check:check_ruleset", "Check a ruleset (built-in or plug-in) against the Game/State contract."),
    "smoke": ("smoke:smoke", "A smoke test of every ruleset: random deals, records written and verified."),
}


def _entry(name: str) -> tuple[str, str | None]:
    value = COMMANDS[name]
    return (value, None) if isinstance(value, str) else (value[0], value[1])


# Commands whose kernels never call BLAS and that never import scipy: numba's first kernel load probes
# scipy's BLAS (importing scipy.linalg, a large share of a light command's start-up), so these skip the probe.
_NO_BLAS = frozenset({"rules", "deal", "play", "verify", "replay", "dd"})


def _skip_blas_probe() -> None:
    """Import numba's array math with scipy's BLAS hidden (numba then leaves np.dot and friends out of
    compiled code, which no tekkasim kernel uses), then unhide it so scipy imports normally later."""
    key = "scipy.linalg.cython_blas"
    if "numba.np.arraymath" in sys.modules or key in sys.modules:
        return
    sys.modules[key] = None  # an import of it now fails fast with ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules[key]


class _Group(click.Group):
    """Loads subcommands lazily and turns library errors raised inside any of them into click's one-line
    errors (long values cut)."""

    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        from importlib import import_module

        if name in _NO_BLAS:
            _skip_blas_probe()
        module, attr = _entry(name)[0].split(":")
        return getattr(import_module(f"{__name__}.{module}"), attr)

    def format_commands(self, ctx, formatter):
        """The command list from the table's short help, without importing any subcommand."""
        rows = []
        for name in self.list_commands(ctx):
            short = _entry(name)[1]
            if short is None:
                cmd = self.get_command(ctx, name)
                if cmd is None or cmd.hidden:
                    continue
                short = cmd.get_short_help_str(formatter.width - 6 - max(map(len, COMMANDS)))
            rows.append((name, short))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def make_context(self, info_name, args, parent=None, **extra):
        try:  # the group's own options and arguments (`tekkasim --bogus`)
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            raise _usage_line(exc) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except TekkasimError as exc:
            raise click.ClickException(shorten_message(str(exc))) from None
        except Interrupted as exc:  # a run stopped by Ctrl-C or SIGTERM: its line and 130 / 143, as a shell says
            click.echo(str(exc), err=True)
            raise click.exceptions.Exit(exc.exit_code) from None
        except KeyboardInterrupt:  # Ctrl-C before a command handles it (while it imports): not click's "Aborted!"
            click.echo(_STOPPED.format(name="Ctrl-C (SIGINT)"), err=True)
            raise click.exceptions.Exit(130) from None
        except click.ClickException as exc:  # click's own messages echo values too (an unknown command ...)
            if isinstance(exc, click.UsageError):  # a subcommand's options (parsed in here), an unknown command
                raise _usage_line(exc) from None
            exc.message = shorten_message(exc.message)
            raise


def _usage_line(exc: click.UsageError) -> click.ClickException:
    """Click's usage error (four lines: Usage, Try, blank, Error) as the one line every error is: click's
    message names the option, and the command's --help is pointed at. Exit status 2, as click's. A bare
    ``tekkasim`` (click's NoArgsIsHelpError) keeps its help text."""
    if type(exc).__name__ == "NoArgsIsHelpError":
        return exc
    command = exc.ctx.command_path if exc.ctx is not None else "tekkasim"
    line = click.ClickException(f"{shorten_message(exc.format_message())} (see '{command} --help')")
    line.exit_code = exc.exit_code
    return line


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tekkasim")
def cli():
    """Bot research and simulation for Feskot, Tekka, Satat and Shengji."""


def _terminated(signum, frame) -> None:
    """SIGTERM where a command has nothing to undo: the one line, then the exit a shell reports for SIGTERM
    (143). Nothing is unwound, as with SIGTERM's default action (an exception raised here could land where
    it is swallowed, and the process would go on)."""
    sys.stderr.write(_STOPPED.format(name="SIGTERM") + "\n")
    sys.stderr.flush()
    os._exit(128 + signum)


def stop_on_sigterm() -> None:
    """For a command whose library handles SIGTERM itself once it has something to keep (the tournament's
    runner): until then SIGTERM is the one line and 143. Only where SIGTERM still has its default action
    (``records`` writers check for that to install their own clean-up)."""
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _terminated)


def main() -> None:
    try:
        cli.main(prog_name="tekkasim")
    except BrokenPipeError:  # `tekkasim replay f | head`
        sys.stderr.close()
        sys.exit(0)
    except KeyboardInterrupt:
        click.echo(_STOPPED.format(name="Ctrl-C (SIGINT)"), err=True)
        sys.exit(130)
