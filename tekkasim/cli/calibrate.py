"""``tekkasim calibrate``: the ladder's Elo against RANDOM per ruleset, written to docs/calibration.md; with
``--bot``, any other bot (an engine, a ``package.module:Name``) placed on the ladder's scale."""

from __future__ import annotations

import json
import math
import os
import shlex

import click

from ..files import write_whole
from ..rulesets import DEFAULT_RULESET
from .options import pairs_workers_option

SEEDS_PER_PAIRING = 1_000_000  # analysis.calibrate's spacing of the pairings' board seeds


@click.command("calibrate")
@click.option(
    "--ruleset",
    "-r",
    "rulesets",
    multiple=True,
    metavar="NAME",
    help=f"A ruleset to calibrate; give several times [{DEFAULT_RULESET}].",
)
@click.option("--bots", default=None, help="Ladder bots, comma-separated [the whole ladder].")
@click.option(
    "--bot",
    "extra",
    multiple=True,
    metavar="BOT",
    help="A bot outside the ladder to place on its scale (engine:COMMAND, package.module:Name, NAME:param=v): it "
    "plays RANDOM and the two ladder bots nearest its strength; give several times.",
)
@click.option(
    "--pairs", type=click.IntRange(min=2), default=400, show_default=True, help="Pairs per pairing of heuristic bots."
)
@click.option(
    "--search-pairs",
    type=click.IntRange(min=2),
    default=20,
    show_default=True,
    help="Pairs per pairing with a search bot (TANOOR, TIZAB, ZELZELA).",
)
@click.option(
    "--search-random-pairs",
    type=click.IntRange(min=2),
    default=None,
    help="Pairs a search bot plays against RANDOM, which it wins nearly always [--search-pairs].",
)
@click.option("--seed", "-s", type=int, default=1, show_default=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the Markdown table here (e.g. docs/calibration.md).",
)
@click.option(
    "--update",
    is_flag=True,
    help="With --out: replace only the sections of the rulesets measured now and keep the file's others.",
)
@pairs_workers_option
@click.option("--json", "as_json", is_flag=True, help="JSON: {ruleset: [{bot, rank, elo, lo, hi, pairs, ...}]}.")
def calibrate(rulesets, bots, extra, pairs, search_pairs, search_random_pairs, seed, out, update, workers, as_json):
    """Each ladder bot's Elo against RANDOM with its 95% interval, per ruleset, from duplicate pairs
    against RANDOM and the two bots below it (one Bradley–Terry fit, anchor RANDOM). With --bot, that
    bot's Elo on the same scale, from pairs against RANDOM and the ladder bots nearest it, in the same fit."""
    from ..analysis.calibrate import (
        LADDER,
        TITLE,
        calibration,
        calibration_markdown,
        calibration_records,
        kept_sections,
        placed_bots,
    )
    from ..ratings import interval_text
    from ..rules import get_game
    from .options import _check_seed, check_writable, local_workers

    seed = _check_seed(None, None, seed)
    workers = local_workers(workers)
    from ..errors import OptionError
    from ..rules.base import MAX_SEED

    if bots is not None and not bots.strip(" ,"):
        raise OptionError("--bots is empty (give ladder bots, e.g. --bots KADO,SADA, or leave it out for all)")
    for option, n in (
        ("--pairs", pairs),
        ("--search-pairs", search_pairs),
        ("--search-random-pairs", search_random_pairs or 0),
    ):
        if n > SEEDS_PER_PAIRING:  # pairing k plays boards seed + k * SEEDS_PER_PAIRING + j
            raise OptionError(f"{option} {n} is more than the {SEEDS_PER_PAIRING:,} boards each pairing has")
    if update and not out:
        raise OptionError("--update needs --out FILE (the calibration file whose other sections it keeps)")
    if out:
        check_writable(out, "--out")  # before the calibration runs, not after it
        out_path = os.path.realpath(out)  # a symlink stays and its target gets the table
        if os.path.isfile(out_path) and os.path.getsize(out_path) and not _own_file(out_path):
            # rewritten whole (or its sections): refuse another file before any pair is played, as levels does
            raise OptionError(
                f"--out {out} is not a calibration file (no {TITLE!r} heading: not written by tekkasim calibrate); "
                "remove it or name another"
            )

    names = [b.strip() for b in bots.split(",") if b.strip()] if bots else list(LADDER)
    extra = [b.strip() for b in extra]
    if any(not b for b in extra):
        raise OptionError("--bot is empty (give a bot, e.g. --bot 'engine:python3 my_engine.py')")
    pairings = 3 * len(names) + 3 * len(extra)  # RANDOM and at most two ladder bots each
    if seed + pairings * SEEDS_PER_PAIRING > MAX_SEED:
        raise OptionError(
            f"--seed {seed}: the calibration's boards (seed + k * {SEEDS_PER_PAIRING:,} + j) pass 2**63-1"
        )
    games = [get_game(r).name for r in (rulesets or (DEFAULT_RULESET,))]
    kept = {}
    if update and os.path.exists(out_path):  # read now: a file it cannot keep fails before any pair is played
        try:
            with open(out_path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise OptionError(f"--update: cannot read --out {out}: {exc}") from None
        kept = kept_sections(text, games)
    for g in games:  # a bot that cannot be placed: its one line before any pairing is played
        placed_bots(extra, g)

    def progress(x, y, n):
        if not as_json:
            click.echo(f"  {x} vs {y}: {n} pairs", err=True)

    tables = {}
    for g in games:
        if not as_json:
            click.echo(f"{g}:", err=True)
        tables[g] = calibration(
            g,
            names,
            pairs,
            search_pairs,
            seed,
            progress=progress,
            extra=extra,
            workers=workers,
            search_random_pairs=search_random_pairs,
        )
    command = " ".join(
        [
            "tekkasim calibrate",
            *(f"--ruleset {g}" for g in games),
            *([f"--bots {','.join(names)}"] if bots else []),
            *(f"--bot {shlex.quote(b)}" for b in extra),
            f"--pairs {pairs}",
            f"--search-pairs {search_pairs}",
            *([f"--search-random-pairs {search_random_pairs}"] if search_random_pairs is not None else []),
            f"--seed {seed}",
            *([f"--out {out}"] if out else []),
            *(["--update"] if update else []),
        ]
    )
    if out:
        write_whole(
            out_path, calibration_markdown(tables, command, pairs, search_pairs, seed, kept, search_random_pairs)
        )
    if as_json:
        click.echo(json.dumps({g: calibration_records(t) for g, t in tables.items()}, allow_nan=False))
        return
    for g, t in tables.items():
        click.echo(f"\n{g} (Elo against RANDOM = 0, 95% interval; none: a bound the pairs cannot give):")
        click.echo(_text_table(t).to_string(index=False))
        for r in t.itertuples():
            if r.rank is None:
                click.echo(
                    f"{r.bot}: Elo {_elo(r.elo)} {interval_text(r.lo, r.hi)} against RANDOM "
                    f"({r.pairs} pairs against {r.against})"
                )
    if out:
        click.echo(f"\nwrote {out}")


def _own_file(path: str) -> bool:
    """Whether the file at ``path`` starts with the calibration file's heading (its own kind of file)."""
    from ..analysis.calibrate import TITLE

    with open(path, "rb") as f:
        return f.read(len(TITLE.encode())) == TITLE.encode()


def _elo(v: float) -> str:
    return f"{v:+.0f}" if math.isfinite(v) else "won all" if v > 0 else "lost all"


def _text_table(t):
    """The table for people: intervals as ``[lo, hi]`` with "none" for a missing bound, an Elo with no
    finite value as "won all" / "lost all", a placed bot's rank as "-", and the notes that say why."""
    from ..ratings import interval_text

    elo = _elo
    shown = t[["bot"]].copy()
    shown["rank"] = ["-" if r is None else r for r in t["rank"]]
    shown["elo"] = t["elo"].map(elo)
    shown["95%"] = [interval_text(lo, hi) for lo, hi in zip(t["lo"], t["hi"], strict=True)]
    shown["step"] = [elo(v) if not math.isnan(v) else "-" for v in t["step"]]
    shown["step 95%"] = [
        interval_text(lo, hi) if not math.isnan(v) else "-"
        for v, lo, hi in zip(t["step"], t["step_lo"], t["step_hi"], strict=True)
    ]
    shown["pairs"] = t["pairs"]
    shown["direct"] = t["direct"].map(elo)
    shown["direct 95%"] = [interval_text(lo, hi) for lo, hi in zip(t["direct_lo"], t["direct_hi"], strict=True)]
    shown["direct_pairs"] = t["direct_pairs"]
    shown["note"] = [
        ", ".join(n for n in (a, "direct: " + b if b else "", "step: " + c if c and c != a else "") if n)
        for a, b, c in zip(t["note"], t["direct_note"], t["step_note"], strict=True)
    ]
    return shown
