"""``tekkasim bidding``: Tekka bidding risk of a bot over seeded deals stored as a run."""

from __future__ import annotations

import json

import click

from .options import parse_rule_options


@click.command("bidding")
@click.option(
    "--ruleset",
    "-r",
    default=None,
    metavar="NAME",
    help="A ruleset with a bidding analysis (`tekkasim rules`) [the first one].",
)
@click.option("--bot", required=True, help="The bot whose calls are studied (NAME or NAME:param=value,...).")
@click.option("--against", default=None, help="The other team [GREEDY; JANGARA when --bot is GREEDY].")
@click.option("--boards", "-n", type=click.IntRange(min=1), required=True, help="Boards (each played at two tables).")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="Board i uses seed S+i.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Run directory [runs/<ruleset>-deal-seedS-<digest>]; rerunning resumes it.",
)
@click.option(
    "--workers",
    "-w",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Worker processes for the play (0 = every core).",
)
@click.option(
    "--feature",
    "features",
    multiple=True,
    help="Hand features to tabulate [side_hcp, hcp, longest]; give several times.",
)
@click.option("--option", "-o", "rule_opts", multiple=True, metavar="KEY=VALUE", help="A ruleset option.")
@click.option("--json", "as_json", is_flag=True, help="The runs.md JSON (plus thresholds and bidding errors).")
@click.option(
    "--plots",
    type=click.Path(file_okay=False),
    default=None,
    help="Write success_rate.png and ev_by_hcp.png into this directory.",
)
def bidding(ruleset, bot, against, boards, seed, out, workers, features, rule_opts, as_json, plots):
    """Play BOARDS seeded Tekka deals of BOT (duplicate, against --against), store them as a run, and
    tabulate per target 8..13 and D13 how often the bot called it, made it (Wilson 95%), its mean score
    and how often it was makeable double-dummy when play began; by hand feature; the best call per
    bucket by double-dummy EV; each bot's over- and underbidding."""
    import pandas as pd

    from ..rulesets import get_ruleset, rulesets
    from .options import _check_seed, cap_workers, check_pairs, check_seed_range, check_writable

    if ruleset is None:  # the first ruleset that has one (a plug-in's too)
        ruleset = next((rs.name for rs in rulesets() if "bidding" in rs.analyses), None) or "?"
    analysis = get_ruleset(ruleset).analysis("bidding")  # one line for a ruleset without an auction
    MIN_BUCKET, bidding_json, bidding_plots = analysis.MIN_BUCKET, analysis.bidding_json, analysis.bidding_plots
    run_bidding = analysis.bidding
    seed = _check_seed(None, None, seed)
    check_pairs("--boards", boards)
    check_seed_range(seed, boards)
    workers = cap_workers(workers)
    for option, path in (("--out", out), ("--plots", plots)):
        if path is not None:  # before the deals are played
            check_writable(path, option, directory=True)
    res = run_bidding(
        bot,
        boards,
        seed,
        out,
        against,
        parse_rule_options(rule_opts),
        workers,
        tuple(features) or ("side_hcp", "hcp", "longest"),
        quiet=as_json,
    )
    if plots:
        bidding_plots(res["deals"], plots, f"({res['bot']}, {len(res['deals'])} deals, seed {seed})")
    if as_json:
        click.echo(json.dumps(bidding_json(res, boards), allow_nan=False))
        return
    # a value the deals cannot give (a target nobody called, an interval from one deal) prints as "none"
    with pd.option_context("display.width", 160, "display.max_columns", 20, "display.float_format", "{:.3f}".format):
        click.echo(f"{res['bot']}: {len(res['deals'])} deals ({boards} boards x 2 tables) in {res['directory']}")
        click.echo(f"\ncontracts declared by {res['bot']} (rate: made share, lo/hi its Wilson 95% interval):")
        targets = res["targets"].assign(note=["no calls" if n == 0 else "" for n in res["targets"]["calls"]])
        click.echo(targets.to_string(index=False, na_rep="none"))
        click.echo("\nover/underbidding by declarer bot (voluntary contracts):")
        click.echo(res["errors"].to_string(index=False, na_rep="none"))
        for key, frame in res.items():
            if key.startswith("thresholds_"):
                feature = key[len("thresholds_") :]
                click.echo(f"\nbest call by double-dummy EV per {feature} bucket:")
                if frame.empty:  # pandas would print "Empty DataFrame"
                    click.echo(f"(no {feature} bucket has {MIN_BUCKET} deals or more: play more boards)")
                else:
                    click.echo(frame.to_string(index=False, na_rep="none"))
    if plots:
        click.echo(f"\nplots in {plots}")
