"""``tekkasim sprt``: is A E0 or E1 Elo better than B? A sequential test on duplicate pair scores."""

from __future__ import annotations

import json
import math

import click

from .options import parse_rule_options


@click.command("sprt")
@click.option("--ruleset", "-r", default="feskot", show_default=True, metavar="NAME")
@click.option("--bot", "bots", multiple=True, required=True, help="Give twice: --bot A --bot B.")
@click.option("--elo0", type=float, required=True, help="H0: A is elo0 Elo better than B.")
@click.option("--elo1", type=float, required=True, help="H1: A is elo1 Elo better than B (elo1 > elo0).")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="Error rate of accepting H1 under H0.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="Error rate of accepting H0 under H1.")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="Board i uses seed S+i.")
@click.option(
    "--max-pairs",
    type=click.IntRange(min=1),
    default=20000,
    show_default=True,
    help="Stop inconclusive after this many pairs.",
)
@click.option("--workers", "-w", type=click.IntRange(min=0), default=0, help="Worker processes [0 = every core].")
@click.option("--option", "-o", "rule_opts", multiple=True, metavar="KEY=VALUE", help="A ruleset option.")
@click.option("--json", "as_json", is_flag=True, help="The runs.md JSON only.")
def sprt(ruleset, bots, elo0, elo1, alpha, beta, seed, max_pairs, workers, rule_opts, as_json):
    """Play pairs of A against B until the SPRT of "A is elo0 better" vs "elo1 better" decides."""
    from ..tournament.sprt import run_sprt

    if len(bots) != 2:
        raise click.UsageError(f"give exactly two bots (--bot A --bot B), not {len(bots)}")

    def show(test):
        if not as_json:
            click.echo(
                f"pairs {test.pairs:6d}  W-D-L {test.counts[2]}-{test.counts[1]}-{test.counts[0]}  "
                f"LLR {test.llr:7.3f}  bounds [{test.lower:.3f}, {test.upper:.3f}]  Elo {_elo_text(test)}"
            )

    test = run_sprt(
        ruleset,
        bots[0],
        bots[1],
        elo0,
        elo1,
        alpha,
        beta,
        seed,
        max_pairs,
        workers,
        parse_rule_options(rule_opts),
        on_batch=show,
    )
    data = test.to_json()
    if as_json:
        click.echo(json.dumps(data))
    else:
        verdict = {
            "H1": f"H1: {bots[0]} is {elo1:g} Elo better",
            "H0": f"H0: {bots[0]} is {elo0:g} Elo better",
            "inconclusive": f"inconclusive after {test.pairs} pairs",
        }[data["verdict"]]
        click.echo(
            f"verdict {verdict}  (LLR {data['llr']:.3f}, bounds [{test.lower:.3f}, {test.upper:.3f}], "
            f"{data['pairs']} pairs, Elo {_elo_text(test)})"
        )


def _elo_text(test) -> str:
    """The estimate and its interval; a bound the pairs cannot give is "none", with the reason."""
    from ..ratings import interval_text

    elo, lo, hi = test.estimate()
    note = test.note()
    return (f"{elo:.1f} " if math.isfinite(elo) else "") + interval_text(lo, hi, ".1f") + (f": {note}" if note else "")
