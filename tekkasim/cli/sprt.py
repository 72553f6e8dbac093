"""``tekkasim sprt``: is A E0 or E1 Elo better than B? A sequential test on duplicate pair scores, stored as
a run in --out DIR (rerun to resume the same test)."""

from __future__ import annotations

import json
import math
import sys

import click

from ..rulesets import DEFAULT_RULESET
from .options import check_pairs, check_writable, parse_rule_options


@click.command("sprt")
@click.option("--ruleset", "-r", default=DEFAULT_RULESET, show_default=True, metavar="NAME")
@click.option(
    "--bot",
    "bots",
    multiple=True,
    required=True,
    help="Give twice: --bot A --bot B (A+B for a mixed partnership). The same bot twice is a self-test; "
    "B's side is then labelled NAME#2.",
)
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
@click.option("--backend", default="local", show_default=True, metavar="local|dask", help="Where boards are played.")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler (default: a local cluster).")
@click.option(
    "--out",
    "-O",
    default=None,
    type=click.Path(file_okay=False),
    help="Run directory keeping the pairs; rerun the same command to resume the test [a temporary one].",
)
@click.option(
    "--timeout",
    type=float,
    default=300.0,
    show_default=True,
    help="Seconds without progress before the watchdog stops.",
)
@click.option("--option", "-o", "rule_opts", multiple=True, metavar="KEY=VALUE", help="A ruleset option.")
@click.option("--quiet", "-q", is_flag=True, help="No progress line on the terminal.")
@click.option("--json", "as_json", is_flag=True, help="The runs.md JSON only.")
def sprt(
    ruleset,
    bots,
    elo0,
    elo1,
    alpha,
    beta,
    seed,
    max_pairs,
    workers,
    backend,
    scheduler,
    out,
    timeout,
    rule_opts,
    quiet,
    as_json,
):
    """Play pairs of A against B until the SPRT of "A is elo0 better" vs "elo1 better" decides."""
    from ..tournament.sprt import check_test, run_sprt, sprt_config
    from .options import cap_workers

    if len(bots) != 2:
        raise click.UsageError(f"give exactly two bots (--bot A --bot B), not {len(bots)}")
    test = check_test(elo0, elo1, alpha, beta)
    check_pairs("--max-pairs", max_pairs)
    if out is not None:
        from ..tournament.runner import keep_start_logs

        check_writable(out, "--out", directory=True)
        keep_start_logs(out)  # an engine that fails to start (its hello is read now) logs there
    cfg = sprt_config(
        ruleset,
        bots[0],
        bots[1],
        max_pairs,
        seed,
        parse_rule_options(rule_opts),
        workers=workers,
        backend=backend,
        scheduler=scheduler,
        timeout=timeout,
    )
    cfg.workers = cap_workers(cfg.workers)
    if out is not None:
        check_writable(out, "--out", directory=True)
    tty = not quiet and sys.stderr.isatty()

    def show(t, played):
        if tty:  # one line redrawn in place on the terminal
            sys.stderr.write(
                f"\rpairs {t.pairs:6d}  W-D-L {t.counts[2]}-{t.counts[1]}-{t.counts[0]}  LLR {t.llr:7.3f} "
                f"in [{t.lower:.3f}, {t.upper:.3f}]  Elo {_elo_text(t)}\033[K"
            )
            sys.stderr.flush()

    try:
        run = run_sprt(cfg, test, out, on_progress=show)
    finally:
        if tty:
            sys.stderr.write("\n")
    data = run.test.to_json()
    if as_json:
        click.echo(json.dumps(data))
        return
    a, b = (t.name for t in cfg.teams)
    verdict = {
        "H1": f"H1: {a} is {elo1:g} Elo better than {b}",
        "H0": f"H0: {a} is {elo0:g} Elo better than {b}",
        "inconclusive": f"inconclusive after {data['pairs']} pairs",
    }[data["verdict"]]
    stored = (
        f"; stored in {run.directory}" + (f" ({run.resumed} pairs resumed)" if run.resumed else "")
        if run.directory
        else ""
    )
    click.echo(
        f"verdict {verdict}  (LLR {data['llr']:.3f}, bounds [{run.test.lower:.3f}, {run.test.upper:.3f}], "
        f"{data['pairs']} pairs, Elo {_elo_text(run.test)}{stored})"
    )


def _elo_text(test) -> str:
    """The estimate and its interval; a bound the pairs cannot give is "none", with the reason."""
    from ..ratings import interval_text

    elo, lo, hi = test.estimate()
    note = test.note()
    return (f"{elo:.1f} " if math.isfinite(elo) else "") + interval_text(lo, hi, ".1f") + (f": {note}" if note else "")
