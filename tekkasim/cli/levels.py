"""``tekkasim levels``: LEVEL's calibration table (``table``) and its accuracy check (``check``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from ..files import write_whole
from ..rulesets import DEFAULT_RULESET
from .options import local_workers, pairs_workers_option, parse_rule_options


def _write(out: str, text: str) -> None:
    write_whole(os.path.realpath(out), text)  # a symlink stays and its target gets the table


def _starts_with(path: str, text: str) -> bool:
    with open(path, "rb") as f:
        return f.read(len(text.encode())) == text.encode()


def _rulesets(names) -> list[str]:
    from ..rules import get_game

    return [get_game(r).name for r in names]


@click.group("levels")
def levels():
    """LEVEL:elo=E, any strength on request: make its calibration table, check its accuracy."""


@levels.command("table")
@click.option(
    "--ruleset",
    "-r",
    "rulesets",
    multiple=True,
    metavar="NAME",
    help=f"A ruleset; give several times [{DEFAULT_RULESET}].",
)
@click.option(
    "--pairs", type=click.IntRange(min=2), default=300, show_default=True, help="Pairs per heuristic pairing."
)
@click.option(
    "--search-pairs",
    type=click.IntRange(min=2),
    default=60,
    show_default=True,
    help="Pairs per pairing with a search bot (or a mixture with one) on either side.",
)
@click.option(
    "--points", type=click.IntRange(min=0, max=9), default=2, show_default=True, help="Points within each step."
)
@click.option("--seed", "-s", type=int, default=6_000_000, show_default=True, help="First board (tuning seeds).")
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="The table file to write (a ruleset's shipped one: levels.json in its package); other rulesets are kept.",
)
@click.option("--option", "-o", "rule_opts", multiple=True, metavar="KEY=VALUE", help="A ruleset option.")
@pairs_workers_option
def table(rulesets, pairs, search_pairs, points, seed, out, rule_opts, workers):
    """Measure the ladder path's Elo against RANDOM (ladder bots and POINTS points within each step; one
    Bradley-Terry fit per ruleset) and write LEVEL's table as JSON (analysis.levels).

    A ruleset plays 53 pairings at --points 2: 35 without a search bot (--pairs each, the State API for
    the mixtures) and 18 with one (--search-pairs each; a pair with ZELZELA takes seconds, so these set
    the time). Few search pairs leave the search points' Elo wide open: docs/levels.md names the shipped
    tables' sizes and what their check measured."""
    from ..analysis.levels import SEEDS_PER_PAIRING, level_pairings, level_table, table_problem
    from ..errors import OptionError
    from ..rules.base import MAX_SEED
    from .options import _check_seed, check_writable

    seed = _check_seed(None, None, seed)
    games = _rulesets(rulesets or (DEFAULT_RULESET,))
    n = max(len(level_pairings(g, points)) for g in games)
    if seed + n * SEEDS_PER_PAIRING > MAX_SEED:
        raise OptionError(f"--seed {seed}: the table's boards (seed + i * {SEEDS_PER_PAIRING:,} + j) pass 2**63-1")
    if out:
        check_writable(out, "--out")
    options = parse_rule_options(rule_opts)
    command = " ".join(
        [
            "tekkasim levels table",
            *(f"--ruleset {g}" for g in games),
            f"--pairs {pairs}",
            f"--search-pairs {search_pairs}",
            f"--points {points}",
            f"--seed {seed}",
            *(f"-o {o}" for o in rule_opts),
        ]
    )  # without --out: where the table went does not change it

    def progress(x, y, k):
        click.echo(f"  {x} vs {y}: {k} pairs", err=True)

    doc = {"rulesets": {}}
    if out and os.path.exists(out):
        try:
            doc = json.loads(Path(out).read_text())
        except (OSError, ValueError) as exc:
            raise OptionError(
                f"--out {out} is not a LEVEL table ({type(exc).__name__}); remove it or name another"
            ) from None
        problem = table_problem(doc)
        if problem:  # its other rulesets are kept and this one's entry put in: refuse another file before play
            raise OptionError(f"--out {out} is not a LEVEL table ({problem}); remove it or name another")
    for g in games:
        click.echo(f"{g}:", err=True)
        entry = level_table(g, pairs, search_pairs, points, seed, options, progress, workers=local_workers(workers))
        entry["command"] = command
        doc["rulesets"][g] = entry
    text = json.dumps(doc, indent=1) + "\n"
    if out:
        _write(out, text)
        click.echo(f"wrote {out}", err=True)
    else:
        click.echo(text, nl=False)


@levels.command("check")
@click.option(
    "--ruleset", "-r", "rulesets", multiple=True, metavar="NAME", help="A ruleset [every one the table holds]."
)
@click.option(
    "--pairs", type=click.IntRange(min=2), default=400, show_default=True, help="Pairs per opponent (heuristic)."
)
@click.option(
    "--search-pairs",
    type=click.IntRange(min=2),
    default=150,
    show_default=True,
    help="Pairs per opponent when a search bot plays.",
)
@click.option("--seed", "-s", type=int, default=7_000_000, show_default=True, help="First board (report seeds).")
@click.option(
    "--out", type=click.Path(dir_okay=False), default=None, help="Write the Markdown report (docs/levels.md)."
)
@pairs_workers_option
@click.option("--json", "as_json", is_flag=True, help="JSON: a list of {ruleset, elo_requested, elo, lo, hi, ...}.")
def check(rulesets, pairs, search_pairs, seed, out, workers, as_json):
    """LEVEL's accuracy: for E at five points of each ruleset's range, the Elo LEVEL:elo=E measures on
    fresh boards against the two ladder bots around it, with its 95% interval."""
    from ..analysis.levels import HEADING, accuracy, accuracy_markdown, accuracy_records, kept_from_markdown
    from ..bots.level import shipped_table, table_rulesets
    from ..errors import OptionError
    from ..ratings import interval_text
    from .options import _check_seed, check_writable

    seed = _check_seed(None, None, seed)
    workers = local_workers(workers)
    games = _rulesets(rulesets) if rulesets else table_rulesets()
    if out:
        check_writable(out, "--out")
        if os.path.isfile(out) and os.path.getsize(out) and not _starts_with(out, HEADING):
            # its rows are kept and the rest rewritten: refuse another file before hours of play
            raise OptionError(f"--out {out} is not a LEVEL accuracy report; remove it or name another")

    def progress(x, y, k):
        if not as_json:
            click.echo(f"  {x} vs {y}: {k} pairs", err=True)

    rows = []
    for g in games:
        rows += accuracy(g, pairs, search_pairs, seed, progress=progress, workers=workers)
    command = " ".join(
        [
            "tekkasim levels check",
            *(f"--ruleset {g}" for g in games),
            f"--pairs {pairs}",
            f"--search-pairs {search_pairs}",
            f"--seed {seed}",
            *([f"--out {out}"] if out else []),
        ]
    )
    if out:
        commands, kept = [command], []
        if os.path.exists(out):  # the other rulesets' rows stay
            with open(out, encoding="utf-8") as f:
                commands, kept = kept_from_markdown(f.read(), games)
            commands.append(command)
        order = {rs: i for i, rs in enumerate([*table_rulesets(), *games])}
        rows_out = sorted([*kept, *rows], key=lambda r: order.get(r["ruleset"], len(order)))
        commands.sort(key=lambda c: min(order.get(w, len(order)) for w in c.split()))
        _write(out, accuracy_markdown(rows_out, commands, shipped_table()))
    if as_json:
        click.echo(json.dumps(accuracy_records(rows), allow_nan=False))
        return
    for r in rows:
        click.echo(
            f"{r['ruleset']:8} E={r['elo_requested']:5.0f}  measured {r['elo']:+6.0f} "
            f"{interval_text(r['lo'], r['hi'])}  error {r['error']:+5.0f}  {r['pairs']} pairs"
        )
    if out:
        click.echo(f"wrote {out}")
