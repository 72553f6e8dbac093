"""Options shared by several subcommands."""

from __future__ import annotations

import click

from ..errors import OptionError, shorten

ruleset_option = click.option(
    "--ruleset",
    "-r",
    default="feskot",
    show_default=True,
    metavar="NAME",
    help="feskot, tekka, satat or shengji (see `tekkasim rules`).",
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
    help="The seat the (first) deal starts from: Feskot first dealt, Tekka first asked, Satat caller "
    "(skips the draw), Shengji first to declare. Default: bottom (Satat: drawn).",
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
