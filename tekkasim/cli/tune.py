"""``tekkasim tune``: move one numeric bot parameter until the bot sits at a target Elo from another."""

from __future__ import annotations

import json
import math

import click

from ..rulesets import DEFAULT_RULESET
from .options import parse_rule_options


@click.command("tune")
@click.option("--ruleset", "-r", default=DEFAULT_RULESET, show_default=True, metavar="NAME")
@click.option("--bot", required=True, help="The bot to tune (NAME or NAME:param=value,...).")
@click.option("--param", required=True, help="Its numeric parameter to move, e.g. mistake_rate.")
@click.option("--target-elo", type=float, required=True, help="The Elo wanted against --against (e.g. -100).")
@click.option("--against", required=True, help="The bot the Elo is measured against.")
@click.option(
    "--seed",
    "-s",
    type=int,
    default=1,
    show_default=True,
    help="Tuning boards S.., the final measurement's boards S+pairs...",
)
@click.option(
    "--pairs",
    type=click.IntRange(min=2),
    default=1000,
    show_default=True,
    help="Pairs per setting during the search (the same boards each time).",
)
@click.option(
    "--final-pairs",
    type=click.IntRange(min=2),
    default=4000,
    show_default=True,
    help="Pairs of the final measurement on fresh boards.",
)
@click.option(
    "--tolerance",
    type=click.FloatRange(min=0, min_open=True),
    default=20.0,
    show_default=True,
    help="Elo tolerance of the result.",
)
@click.option("--lo", type=float, default=None, help="Lowest setting [the parameter's documented range].")
@click.option("--hi", type=float, default=None, help="Highest setting [the parameter's documented range].")
@click.option("--option", "-o", "rule_opts", multiple=True, metavar="KEY=VALUE", help="A ruleset option.")
@click.option("--json", "as_json", is_flag=True, help="The runs.md JSON (plus the search's steps).")
def tune(ruleset, bot, param, target_elo, against, seed, pairs, final_pairs, tolerance, lo, hi, rule_opts, as_json):
    """Bisection of one numeric parameter of BOT on duplicate pairs against AGAINST until BOT's Elo is
    the target within the tolerance; prints the setting and the Elo measured on fresh boards with its
    95% interval."""
    from ..analysis.tune import tune as run_tune
    from ..ratings import interval_text
    from .options import _check_seed

    seed = _check_seed(None, None, seed)
    from .options import check_pairs, check_seed_range

    check_pairs("--pairs", pairs)
    check_pairs("--final-pairs", final_pairs)
    check_seed_range(seed, pairs + final_pairs)  # the final measurement's boards follow the tuning boards

    def show(v, e, elo_lo, elo_hi):
        if not as_json:
            click.echo(f"{param}={v:.4g}: {_elo(e)} Elo {interval_text(elo_lo, elo_hi, '+.1f')} ({pairs} tuning pairs)")

    res = run_tune(
        ruleset,
        bot,
        param,
        target_elo,
        against,
        seed=seed,
        pairs=pairs,
        final_pairs=final_pairs,
        tolerance=tolerance,
        lo=lo,
        hi=hi,
        options=parse_rule_options(rule_opts),
        on_step=show,
    )
    if as_json:
        click.echo(json.dumps(res.to_json()))
        return
    verdict = "within" if res.within_tolerance else "NOT within"
    click.echo(
        f"{res.bot} {param}={res.value:g}: {_elo(res.elo)} Elo {interval_text(res.lo, res.hi, '+.1f')} against "
        f"{res.against} on {res.pairs} fresh pairs; target {res.target_elo:+g} ({verdict} +-{res.tolerance:g})"
        + (f"; {res.note}: no bound on that side" if res.note else "")
    )


def _elo(v: float) -> str:
    """``+12.3``, or ``won all`` / ``lost all`` where every pair went one way (no finite Elo)."""
    return f"{v:+7.1f}" if math.isfinite(v) else "won all" if v > 0 else "lost all"
