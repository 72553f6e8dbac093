"""``tekkasim blunders``: what a bot's decisions cost against the double-dummy best (issue 25)."""

from __future__ import annotations

import json

import click

from ..rulesets import DEFAULT_RULESET
from .options import _check_seed, check_seed_range, parse_rule_options


@click.command("blunders")
@click.option(
    "--ruleset",
    "-r",
    "rulesets",
    multiple=True,
    metavar="NAME",
    help=f"A ruleset the double-dummy solver plays (`tekkasim rules`); give several times [{DEFAULT_RULESET}].",
)
@click.option(
    "--bot",
    "bots",
    multiple=True,
    metavar="BOT",
    help="A bot (NAME or NAME:param=value,...); give several times [KADO .. JANGARA].",
)
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="Deal i uses seed S+i.")
# --deals and --workers are checked by the library: a click range error prints three lines, not one
@click.option("--deals", "-n", type=int, default=100, show_default=True, help="Deals per bot (1 or more).")
@click.option("--option", "-o", "rule_opts", multiple=True, metavar="KEY=VALUE", help="A ruleset option.")
@click.option(
    "--workers",
    "-w",
    type=int,
    default=1,
    show_default=True,
    help="Worker processes, 1 or more (the result does not depend on it).",
)
@click.option(
    "--json", "as_json", is_flag=True, help="JSON: {seed, deals, options, profiles: [...]} (docs/blunders.md)."
)
@click.option(
    "--doc",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write each ruleset's tables into this Markdown file (e.g. docs/blunders.md), between its markers.",
)
@click.option(
    "--doc-key",
    default=None,
    metavar="KEY",
    help="With --doc: name the sections KEY-ruleset, so runs of other bots keep their own [the ruleset].",
)
def blunders(rulesets, bots, seed, deals, rule_opts, workers, as_json, doc, doc_key):
    """Play DEALS seeded deals per bot with the bot in all four seats, as a tournament plays them, and
    price every decision against the double-dummy best: tricks lost per decision, shares losing 1 and 2
    or more, per kind (lead, follow, discard, ruff, prime, bid); slips against a random other option;
    Tekka's unmakeable Double 13 calls; then each pair of neighbouring bots (in the order given) compared
    on the same deals, first minus second, with paired 95% intervals and the kinds that make the step."""
    from ..analysis.blunders import LADDER, blunder_profiles, check_ruleset, is_doc, text_tables, write_doc
    from ..errors import OptionError

    seed = _check_seed(None, None, seed)
    if deals < 1:
        raise OptionError(f"--deals must be 1 or more, not {deals}")
    if workers < 1:
        raise OptionError(f"--workers must be 1 or more, not {workers}")
    check_seed_range(seed, deals)
    names = [check_ruleset(r) for r in (rulesets or (DEFAULT_RULESET,))]
    bots = list(bots) or list(LADDER)
    options = parse_rule_options(rule_opts)
    if doc:  # before the deals are priced, not after
        _check_doc(doc, is_doc)

    def progress(ruleset, bot, n):
        if not as_json:
            click.echo(f"{ruleset} {bot}: {n} deals", err=True)

    report = blunder_profiles(names, bots, seed, deals, options, workers, progress)
    if doc:
        command = " ".join(
            [
                "tekkasim blunders",
                *(f"-r {r}" for r in names),
                *(f"--bot {b}" for b in bots),
                f"--seed {seed} --deals {deals}",
                *(f"-o {o}" for o in rule_opts),
                f"--doc {doc}",
                *([f"--doc-key {doc_key}"] if doc_key else []),
            ]
        )
        write_doc(doc, report, command, doc_key)
    if as_json:
        click.echo(json.dumps(report))
        return
    click.echo(text_tables(report), nl=False)


def _check_doc(doc: str, is_doc) -> None:
    """``--doc`` can be written, and an existing file is a blunders doc (its sections are put in and the
    rest kept: another Markdown file would get them appended)."""
    import os

    from ..errors import OptionError, shorten
    from .options import check_writable

    check_writable(doc, "--doc")
    if os.path.isfile(doc):
        try:
            with open(doc, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise OptionError(f"--doc {shorten(doc)} cannot be read: {getattr(exc, 'strerror', None) or exc}") from None
        if not is_doc(text):
            raise OptionError(
                f"--doc {shorten(doc)} is not a blunders doc (no '# Blunder profiles' heading or blunders section); "
                "remove it or name another"
            )
