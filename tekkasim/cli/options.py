"""Options shared by several subcommands."""

from __future__ import annotations

import click

from ..errors import OptionError
from ..rules import Game, get_game

ruleset_option = click.option(
    "--ruleset", "-r", default="feskot", show_default=True, metavar="NAME",
    help="feskot, tekka, satat or shengji (see `tekkasim rules`).",
)
seed_option = click.option("--seed", "-s", type=int, default=1, show_default=True, help="RNG seed.")
rule_options = click.option(
    "--option", "-o", "rule_opts", multiple=True, metavar="KEY=VALUE",
    help="A ruleset option, e.g. -o play_out=true (repeatable; see `tekkasim rules`).",
)


def parse_rule_options(pairs: tuple[str, ...]) -> dict:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"bad option {pair!r} (expected KEY=VALUE, e.g. play_out=true)")
        out[key.strip()] = value.strip()
    return out


def make_game(ruleset: str, rule_opts: tuple[str, ...]) -> Game:
    return get_game(ruleset, **parse_rule_options(rule_opts))
