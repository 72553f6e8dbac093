"""Options shared by several subcommands."""

from __future__ import annotations

import click

from ..errors import OptionError, shorten
from ..rulesets import DEFAULT_RULESET

ruleset_option = click.option(
    "--ruleset",
    "-r",
    default=DEFAULT_RULESET,
    show_default=True,
    metavar="NAME",
    help="A ruleset: a built-in one or a plug-in's (see `tekkasim rules`).",
)


def _check_seed(ctx, param, value):
    """Seeds are stored in records; ones outside 0 .. 2**63-1 would alias modulo 2**64 in the RNG
    (``check_seed`` raises ``OptionError``: one line, as every library error)."""
    from ..rules.base import check_seed

    return check_seed(value)


def check_seed_range(seed: int, deals: int) -> None:
    """Deal i of a run uses seed ``seed + i``: the last one must still be a valid seed."""
    from ..rules.base import MAX_SEED

    if seed + deals - 1 > MAX_SEED:
        raise OptionError(f"--seed {seed} with {deals} deals: deal i uses seed + i, which passes 2**63-1")


def check_writable(path, option: str, directory: bool = False) -> None:
    """Before any work runs, that ``path`` can be written: a file (``directory=False``; written beside its
    target under a longer temporary name, then renamed) or a directory (created if missing). Every name
    must fit the filesystem, and the nearest existing ancestor must be a directory this process can create
    files in (probed, so that a read-only filesystem or a path under a file is caught even as root). A FIFO
    or a device is written directly and passes. ``-`` is refused: the commands that check here do not write
    to standard output (``play --out -`` and ``export --out -`` do, without this check), and a file or
    directory named ``-`` is not what was meant (``./-`` names one)."""
    import os
    import tempfile
    from pathlib import Path

    text = str(path)
    if not text.strip():
        raise OptionError(f"{option} is empty")
    if text == "-":
        what = "directory" if directory else "file"
        raise OptionError(
            f"{option} -: this command writes a {what}, not standard output; give a name (./- for one named -)"
        )
    # names first, before anything is looked up (a stat of an over-long name fails too)
    extra = 0 if directory else 16  # a file is first written under a longer temporary name beside it
    for name in Path(text).parts:
        if len(os.fsencode(name)) + (extra if name == Path(text).name else 0) > 255:
            raise OptionError(f"{option}: the name {shorten(name)} is too long for the filesystem (255 bytes at most)")
    if len(os.fsencode(os.path.abspath(text))) >= 4096:
        raise OptionError(f"{option}: the path is too long for the filesystem (4096 bytes at most)")
    if not directory and os.path.exists(text) and not os.path.isdir(text) and not os.path.isfile(text):
        return
    p = Path(os.path.realpath(text))  # through a symlink: its target is what gets written
    if not directory and p.is_dir():
        raise OptionError(f"{option} {shorten(text)} is a directory (give a file name)")
    if directory and p.exists() and not p.is_dir():
        raise OptionError(f"{option} {shorten(text)} exists and is not a directory")
    ancestor, created = p if directory else p.parent, [] if directory else [p.name]
    while not ancestor.exists():
        created.insert(0, ancestor.name)
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise OptionError(f"cannot write {option} {shorten(text)}: {shorten(str(ancestor))} is a file, not a directory")
    try:
        limit = os.pathconf(ancestor, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    for name in created:
        if len(os.fsencode(name)) + (0 if directory else 16) > limit:
            raise OptionError(
                f"{option}: the name {shorten(name)} is too long for the filesystem ({limit} bytes at most)"
            )
    try:
        fd, probe = tempfile.mkstemp(dir=ancestor, prefix=".tekkasim-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise OptionError(f"cannot write {option} {shorten(text)}: {exc.strerror or exc}") from None


def writable_dir(ctx, param, value):
    """A click callback: the directory option's value checked by :func:`check_writable` as it is parsed."""
    if value is not None:
        check_writable(value, param.opts[0], directory=True)
    return value


def cap_workers(workers: int) -> int:
    """``workers`` (0 = every core) at most the cores this process may use: more CPU-bound processes than
    cores only share them (and fork, memory and start-up cost grow). Says so on stderr when it caps."""
    from ..tournament.backends import default_workers

    cores = default_workers()
    if workers > cores:
        click.echo(f"note: --workers {workers} capped at {cores}, the cores this machine gives the run", err=True)
        return cores
    return workers


# --workers of the analysis commands that play duplicate pairs (calibrate, levels): read by local_workers
pairs_workers_option = click.option(
    "--workers",
    "-w",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Local processes for the pairings that are not compiled (0 = every core); the same numbers for any.",
)


def local_workers(workers: int) -> int:
    """``--workers`` of the analysis commands: 0 is every core, more than the cores is capped."""
    from ..tournament.backends import default_workers

    return cap_workers(workers) or default_workers()


def check_pairs(option: str, pairs: int) -> None:
    """Sizes a run could never hold are refused before anything is played (``MAX_PAIRS``)."""
    from ..tournament.config import MAX_PAIRS

    if pairs > MAX_PAIRS:
        raise OptionError(f"{option} {pairs} is more than the {MAX_PAIRS:,} pairs a run may hold")


def make_seed_option(default: int = 1):
    return click.option(
        "--seed",
        "-s",
        type=int,
        default=default,
        show_default=True,
        callback=_check_seed,
        help="RNG seed, 0 .. 2**63-1.",
    )


seed_option = make_seed_option()
rule_options = click.option(
    "--option",
    "-o",
    "rule_opts",
    multiple=True,
    metavar="KEY=VALUE",
    help="A ruleset option, e.g. -o play_out=true (repeatable; see `tekkasim rules`).",
)


def _parse_first(ctx, param, value):
    if value is None:
        return None
    from ..cards import parse_seat

    return parse_seat(value)  # a SeatError is one line, as every library error


first_option = click.option(
    "--first",
    "first",
    default=None,
    metavar="SEAT",
    callback=_parse_first,
    help="The seat the (first) deal starts from, as the ruleset's `first` context means it (`tekkasim rules`: "
    "the first dealt, asked, to call or to declare). Default: the ruleset's.",
)


def parse_rule_options(pairs: tuple[str, ...]) -> dict:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"bad option {shorten(repr(pair))} (expected KEY=VALUE, e.g. play_out=true)")
        out[key.strip()] = value.strip()
    return out


def make_game(ruleset: str, rule_opts: tuple[str, ...]):
    from ..rules import get_game

    return get_game(ruleset, **parse_rule_options(rule_opts))


def first_context(game, first: int | None) -> dict:
    """``new_deal`` keyword arguments that make ``first`` the starting seat of ``game``'s first deal."""
    return {} if first is None else {game.first_seat: first}
