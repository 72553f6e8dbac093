"""Calibration of the ladder: each bot's Elo against RANDOM with its interval, per ruleset (the way chess
engines publish their skill levels' ratings).

A strong bot beats RANDOM on nearly every pair, and a pair score of 1 on every pair has no finite Elo, so
the ratings come from a chain: every ladder bot plays duplicate pairs against RANDOM and against the
``neighbours`` bots just below it on the ladder (KADO's only opponent below is RANDOM). One
Bradley–Terry fit of all those pairs (``ratings.fit_elo``, anchor RANDOM = 0, its weak 2000-Elo prior
keeping a whitewash finite) gives each bot's Elo with a 95% interval. The direct Elo against RANDOM
from the bot's own pairs with RANDOM (``direct``, ``ratings.score_elo``) is listed beside it: +inf, and no
upper bound, when every pair was won. A bound the pairs cannot give is +-inf in the table, null in JSON
and "none" in text, with ``note`` / ``direct_note`` saying why; never a stand-in number.

Pairing ``k`` (in table order) uses board seeds ``seed + k * 1_000_000 ...``, so every pairing has its own
boards and a rerun with the same arguments gives the same table. Bots with a compiled form play in their
ruleset's compiled loop; search bots play through the State API and take ``search_pairs`` pairs.

A bot outside the ladder (``extra``: an engine ``engine:COMMAND``, a ``package.module:Name``, a ladder bot
with other parameters) is placed on the same scale: after the ladder's pairings it plays RANDOM, a fit of
everything so far estimates its Elo, and it then plays the ``neighbours`` ladder bots whose Elo in that fit is
nearest its own. Its row (rank None) comes from the one final fit of all pairs, the ladder's rows too; its
pairings follow the ladder's, so the ladder's boards are those of a calibration without it.
"""

from __future__ import annotations

import math

import pandas as pd

from ..bots import describe, get_bot
from ..ratings import Pairs, fit_elo, interval_text, json_number, score_note, step_interval
from ..rules import ruleset_names
from ..rulesets import DEFAULT_RULESET
from .duplicate import AnalysisError, elo_estimate, pair_margins, pair_scores

LADDER = tuple(d["name"] for d in sorted((d for d in describe() if d["rank"] is not None), key=lambda d: d["rank"]))
SEARCH = tuple(d["name"] for d in describe() if d["kind"] == "search")


def calibration(
    ruleset: str = DEFAULT_RULESET,
    bots=LADDER,
    pairs: int = 400,
    search_pairs: int = 20,
    seed: int = 1,
    neighbours: int = 2,
    options: dict | None = None,
    progress=None,
    extra=(),
    workers: int = 1,
    search_random_pairs: int | None = None,
) -> pd.DataFrame:
    """Per bot (ladder order): ``rank``, ``elo``, ``lo``, ``hi`` (95%, anchor RANDOM = 0), ``pairs`` it
    played in the fit, ``direct`` / ``direct_lo`` / ``direct_hi`` (its Elo against RANDOM from its own pairs
    with RANDOM alone), ``direct_pairs``, and ``note`` / ``direct_note`` (why a bound is missing, or "").
    ``step`` / ``step_lo`` / ``step_hi`` / ``step_note``: a ladder bot's Elo less the one just below it here
    (RANDOM below the first: its Elo and interval) with a 95% interval from the same fit
    (``ratings.step_interval``); NaN and "" for a placed bot.
    ``progress(x, y, n)`` is called before each pairing. ``against``: the bots each one played.
    ``search_random_pairs``: pairs a search bot plays against RANDOM (default ``search_pairs``): a search
    bot wins nearly all of them, so they bound its rating from below and little else, while its pairs
    against the bots below it set its steps.

    ``extra``: bots outside the ladder (specs or Bot objects) placed on its scale (module notes); their rows
    follow the ladder's, labelled by ``Bot.label`` (an engine by its hello's name), with rank None.
    ``workers``: local processes for the pairings that are not compiled (the same table for any number)."""
    from ..rules import get_game

    game = get_game(ruleset, **(options or {}))
    bots = [b.strip().upper() for b in bots]
    unknown = [b for b in bots if b not in LADDER]
    if unknown:
        raise AnalysisError(f"{unknown[0]!r} is not a ladder bot (ladder: {', '.join(LADDER)})")
    search_random_pairs = search_pairs if search_random_pairs is None else search_random_pairs
    if pairs < 2 or search_pairs < 2 or search_random_pairs < 2:
        raise AnalysisError("pairs, search_pairs and search_random_pairs must be 2 or more")
    bots = sorted(set(bots), key=LADDER.index)
    if not bots:
        raise AnalysisError("no ladder bots to calibrate against")
    placed = placed_bots(extra, game.name)
    rows: list = []
    direct: dict = {}
    against: dict[str, list[str]] = {}
    k = 0  # pairings played so far

    def pairing(x, y, label: str, searching: bool) -> None:
        nonlocal k
        n = search_pairs if searching or y in SEARCH else pairs
        if searching and y == "RANDOM":
            n = search_random_pairs
        if progress is not None:
            progress(label, y, n)
        m = pair_margins(game.name, x, y, seed + k * 1_000_000, n, dict(game.options), workers=workers)
        rows.extend((label, y, k * 1_000_000 + j, float(v)) for j, v in enumerate(m))
        if y == "RANDOM":
            direct[label] = (*elo_estimate(m), n, score_note(pair_scores(m)))
        against.setdefault(label, []).append(y)
        k += 1

    for i, x in enumerate(bots):
        for y in ["RANDOM", *bots[max(0, i - neighbours) : i]]:
            pairing(x, y, x, x in SEARCH)
    for p, (label, bot) in enumerate(placed):
        pairing(bot, "RANDOM", label, bot.kind == "search")
        so_far = ["RANDOM", *bots, *(other for other, _ in placed[: p + 1])]
        first = fit_elo(Pairs.from_rows(rows, so_far), anchor="RANDOM")
        est = first.elo[first.bots.index(label)]
        near = sorted(bots, key=lambda b: (abs(first.elo[first.bots.index(b)] - est), LADDER.index(b)))
        for y in sorted(near[:neighbours], key=LADDER.index):
            pairing(bot, y, label, bot.kind == "search")
    names = ["RANDOM", *bots, *(label for label, _ in placed)]
    all_pairs = Pairs.from_rows(rows, names)
    fit = fit_elo(all_pairs, anchor="RANDOM")
    out = []
    for b in names[1:]:
        i = fit.bots.index(b)
        d = direct[b]
        if b not in bots:
            step = (math.nan, math.nan, math.nan, "")
        elif b == bots[0]:  # the step from RANDOM is its rating
            step = (float(fit.elo[i]), float(fit.lo[i]), float(fit.hi[i]), fit.notes[i])
        else:
            step = step_interval(all_pairs, fit, b, bots[bots.index(b) - 1])
        out.append(
            {
                "bot": b,
                "rank": LADDER.index(b) if b in LADDER else None,
                "elo": float(fit.elo[i]),
                "lo": float(fit.lo[i]),
                "hi": float(fit.hi[i]),
                "pairs": int(fit.pairs_per_bot[i]),
                "direct": d[0],
                "direct_lo": d[1],
                "direct_hi": d[2],
                "direct_pairs": d[3],
                "note": fit.notes[i],
                "direct_note": d[4],
                "step": step[0],
                "step_lo": step[1],
                "step_hi": step[2],
                "step_note": step[3],
                "against": ", ".join(against[b]),
            }
        )
    table = pd.DataFrame(out)
    table["rank"] = pd.Series([r["rank"] for r in out], dtype=object)  # None for a placed bot, not NaN
    return table


def placed_bots(extra, ruleset: str) -> list[tuple[str, object]]:
    """``(label, bot)`` of each bot to place; one line (BotError, AnalysisError) for one that cannot be."""
    placed = []
    for spec in extra:
        bot = get_bot(spec, ruleset=ruleset)
        if not bot.supports(ruleset):
            raise AnalysisError(f"bot {bot.label} does not play {ruleset}")
        label = bot.label
        if label in LADDER or label == "RANDOM":
            raise AnalysisError(
                f"{label} is on the ladder already (its calibration is the ladder's own; "
                f"--bot places other bots, e.g. engine:COMMAND or {label}:mistake_rate=0.1)"
            )
        if label in (other for other, _ in placed):
            raise AnalysisError(f"two bots to place are both labelled {label!r}")
        placed.append((label, bot))
    return placed


def calibration_records(table: pd.DataFrame) -> list[dict]:
    """The table's rows for JSON: an infinite Elo or bound (no finite value from the pairs) is None."""
    return [{k: json_number(v) if isinstance(v, float) else v for k, v in r.items()} for r in table.to_dict("records")]


TITLE = "# Calibration of the bot ladder"


def calibration_markdown(
    tables: dict[str, pd.DataFrame],
    command: str,
    pairs: int,
    search_pairs: int,
    seed: int,
    kept: dict[str, str] | None = None,
    search_random_pairs: int | None = None,
) -> str:
    """docs/calibration.md: the method, then one section per ruleset with the command and sizes that made it
    and its table. ``kept`` (``--update``): sections of an earlier file (:func:`kept_sections`) for rulesets
    not in ``tables``, kept as they were; the sections come in the registry's order of rulesets."""
    lines = [
        TITLE,
        "",
        "Each ladder bot's Elo against RANDOM (the anchor, 0) with its 95% interval, per ruleset. Each section "
        "was generated by the command under its heading; rerun it to regenerate that section (same arguments, "
        "same numbers). With `--update`, `tekkasim calibrate --out FILE` replaces the sections of the rulesets "
        "it measures and keeps the others.",
        "",
        "Method (`tekkasim.analysis.calibrate`): duplicate pairs of each bot against RANDOM and against the two "
        "bots just below it on the ladder; one Bradley–Terry fit of all pairs (anchor RANDOM = 0; its intervals are "
        "`ratings.fit_elo`'s sandwich ones, each pairing having boards of its own). `direct` is "
        "the Elo from the bot's own pairs against RANDOM alone (won all = it won every pair: no finite Elo and no "
        "upper bound, which is why the chain is needed). A bound shown as none is one the pairs cannot give. "
        "`step` is a bot's Elo less the one just below it in the table, with its 95% interval from the same fit "
        "(the clustered variance of the difference; `ratings.step_interval`). "
        "Elo: a difference of d means an expected pair score 1/(1+10^(-d/400)). Small sizes give wide "
        "intervals: read them before the estimates. The search steps measured directly, each on its own "
        "boards, are in docs/search-strength.md.",
        "",
    ]
    sections = dict(kept or {})
    for ruleset, t in tables.items():
        sections[ruleset] = _section(ruleset, t, command, pairs, search_pairs, seed, search_random_pairs)
    for ruleset in (r for r in ruleset_names() if r in sections):
        lines += [sections[ruleset].rstrip("\n"), ""]
    return "\n".join(lines)


def _section(
    ruleset: str,
    t: pd.DataFrame,
    command: str,
    pairs: int,
    search_pairs: int,
    seed: int,
    search_random_pairs: int | None = None,
) -> str:
    against_random = (
        f" ({search_random_pairs} against RANDOM)"
        if search_random_pairs is not None and search_random_pairs != search_pairs
        else ""
    )
    lines = [
        f"## {ruleset}",
        "",
        f"    {command}",
        "",
        f"Sizes: {pairs} pairs per pairing of heuristic bots, {search_pairs} per pairing with a search bot "
        f"(TANOOR, TIZAB, ZELZELA){against_random}; seed {seed}.",
        "",
        "| bot | rank | Elo | 95% interval | step | step 95% | pairs | direct vs RANDOM | direct 95% | direct pairs |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    steps = []
    for r in t.itertuples():
        rank = "-" if r.rank is None else r.rank
        has_step = r.rank is not None and not math.isnan(r.step)
        step = f"{r.step:+.0f} | {interval_text(r.step_lo, r.step_hi)}" if has_step else "- | -"
        if has_step and r.Index > 0:
            steps.append((r.bot, r.step_lo > 0))
        lines.append(
            f"| {r.bot} | {rank} | {r.elo:+.0f} | {interval_text(r.lo, r.hi)} | {step} | {r.pairs} | "
            f"{_e(r.direct)} | {interval_text(r.direct_lo, r.direct_hi)} | {r.direct_pairs} |"
        )
    if steps:
        line = f"Steps whose 95% interval lies above zero: {sum(c for _, c in steps)} of {len(steps)}"
        search = [(bot, clear) for bot, clear in steps if bot in SEARCH]
        if search:
            line += f"; of the search bots' steps, {sum(c for _, c in search)} of {len(search)}"
            missed = [bot for bot, clear in search if not clear]
            if missed:
                line += " (not: " + ", ".join(missed) + ")"
        lines += ["", line + "."]
    # the first bot's step is its Elo, whose missing bound the notes below give
    step_notes = [f"{r.bot}'s step: {r.step_note}" for r in t.itertuples() if r.Index > 0 and r.step_note]
    if step_notes:
        lines += ["", "; ".join(step_notes) + "."]
    outside = [f"{r.bot} (against {r.against})" for r in t.itertuples() if r.rank is None]
    if outside:
        lines += [
            "",
            "Placed on the ladder's scale (rank -): " + "; ".join(outside) + ". Each played RANDOM, then the "
            "ladder bots nearest its Elo in a fit of the pairs so far; its row and the ladder's come from one fit.",
        ]
    notes = [f"{r.bot}: {r.note}" for r in t.itertuples() if getattr(r, "note", "")]
    if notes:
        lines += [
            "",
            "Elo estimates with a bound shown as none are set by the fit's weak prior: " + "; ".join(notes) + ".",
        ]
    if len(t) and t["direct"].iloc[0] == math.inf:
        lines += [
            "",
            f"{t['bot'].iloc[0]}, the lowest bot here, won every pair against RANDOM: the distance to RANDOM "
            "rests on the few pairs a bot did not win against it and on the fit's weak prior, so the "
            "differences between the bots are measured better than their Elo against RANDOM.",
        ]
    return "\n".join(lines) + "\n"


def kept_sections(text: str, replaced) -> dict[str, str]:
    """The ruleset sections (``## name`` to the next such heading) of a file :func:`calibration_markdown`
    wrote, except those of ``replaced``; AnalysisError when ``text`` is not such a file."""
    if not text.startswith(TITLE):
        raise AnalysisError(f"--update: the file does not start with {TITLE!r} (not written by tekkasim calibrate)")
    keep = set(ruleset_names()) - set(replaced)
    sections: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            current = line[3:].strip() if line[3:].strip() in keep else None
        if current is not None:
            sections.setdefault(current, []).append(line)
    return {k: "".join(v) for k, v in sections.items()}


def _e(v: float) -> str:
    return f"{v:+.0f}" if math.isfinite(v) else "won all" if v > 0 else "lost all"


__all__ = [
    "LADDER",
    "SEARCH",
    "calibration",
    "calibration_markdown",
    "calibration_records",
    "kept_sections",
    "placed_bots",
]
