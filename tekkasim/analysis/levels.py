"""LEVEL's calibration table and its accuracy check (``tekkasim levels table`` / ``tekkasim levels check``).

The table (:func:`level_table`, written to a ruleset's ``tekkasim/rulesets/<name>/levels.json``) holds,
per ruleset, the Elo against RANDOM of points of the ladder path (``bots.level``): the nine ladder bots (u = 0 .. 8) and
``points`` evenly spaced points within each step (u = k + j / (points + 1)). It is measured the way
``analysis.calibrate`` measures the ladder: duplicate pairs of

* each heuristic ladder bot against RANDOM and the two ladder bots below it (KADO: RANDOM only);
* each search ladder bot (TANOOR, TIZAB, ZELZELA) against the two ladder bots below it (not RANDOM: it
  wins every pair there, which tells the fit nothing and costs search time);
* each point within step k against the step's two ends, ladder bots k and k + 1,

and one Bradley–Terry fit of all of them (``ratings.fit_elo``, anchor RANDOM = 0) gives every point's
Elo and 95% interval. Pairings with a search bot on either side (the steps from JANGARA up) play
``search_pairs`` pairs, the others ``pairs``. Pairing ``i`` of a ruleset (in the order above) plays the
boards ``seed + i * SEEDS_PER_PAIRING ...``: the same arguments give the same table.

The accuracy check (:func:`accuracy`) plays ``LEVEL:elo=E`` for E at ``fractions`` of each ruleset's
range, on boards apart from the table's, against the two ladder bots at the ends of the step E lies on,
and estimates its Elo by maximum likelihood with those two bots' ratings held at the table's curve values
(``bots.level.curve``): the measured Elo with a 95% interval (the larger of the model and the robust
sandwich variance), which is what LEVEL promises: to sit at E on the table's scale. The table's own
uncertainty about the ladder's distance to RANDOM is not in that interval (docs/levels.md says so).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..bots import get_bot
from ..bots.level import LADDER_NAMES, at_position, curve, elo_range, entry_for, position
from ..errors import shorten
from ..ratings import Pairs, fit_elo, interval_text, json_number
from ..rules import get_game
from .duplicate import AnalysisError, pair_margins

SEEDS_PER_PAIRING = 10_000  # the boards of pairing i: seed + i * SEEDS_PER_PAIRING + j, j < pairs
HEADING = "# LEVEL accuracy: requested against measured Elo"  # docs/levels.md first line: --out knows its file
FRACTIONS = (0.1, 0.3, 0.5, 0.7, 0.9)  # the check's points, as fractions of each ruleset's range
ELO_SCALE = math.log(10) / 400  # logit per Elo point


def _slow(bot) -> bool:
    """Whether pairings with ``bot`` take the (small) search size: a search bot, or a mixture with one."""
    parts = [bot.lower, bot.upper] if hasattr(bot, "lower") else [bot]
    return any(p.kind == "search" for p in parts)


def point_name(u: float) -> str:
    """A point's name in the fit and the table: the ladder bot at integer u, else ``u=K.KKK``."""
    return LADDER_NAMES[int(u)] if float(u).is_integer() else f"u={u:.3f}"


def level_pairings(ruleset: str, points: int = 2) -> list[tuple[float, float]]:
    """Every pairing of the table, ``(u_x, u_y)`` by ladder positions (u_y = -1 is RANDOM), in the order
    whose index sets the pairing's boards."""
    if points < 0:
        raise AnalysisError("points per step must be 0 or more")
    top = len(LADDER_NAMES) - 1
    out: list[tuple[float, float]] = []
    for k in range(top + 1):
        bot = get_bot(LADDER_NAMES[k], ruleset=ruleset)
        if bot.kind != "search":
            out.append((float(k), -1.0))
        out += [(float(k), float(j)) for j in range(max(0, k - 2), k)]
    for k in range(top):
        for j in range(1, points + 1):
            u = round(k + j / (points + 1), 6)
            out += [(u, float(k)), (u, float(k + 1))]
    return out


def _bot(ruleset: str, u: float):
    return get_bot("RANDOM", ruleset=ruleset) if u < 0 else at_position(ruleset, u)


def level_table(
    ruleset: str,
    pairs: int = 300,
    search_pairs: int = 60,
    points: int = 2,
    seed: int = 6_000_000,
    options: dict | None = None,
    progress: Callable[[str, str, int], None] | None = None,
    workers: int = 1,
) -> dict:
    """One ruleset's table entry (module notes): ``{"points": [{"u", "bot", "elo", "lo", "hi", "pairs"}],
    "pairs", "search_pairs", "points_per_step", "seed"}``; ``lo``/``hi`` None where the fit gives no bound."""
    game = get_game(ruleset, **(options or {}))
    if pairs < 2 or search_pairs < 2:
        raise AnalysisError("pairs and search_pairs must be 2 or more")
    if max(pairs, search_pairs) > SEEDS_PER_PAIRING:
        raise AnalysisError(f"at most {SEEDS_PER_PAIRING:,} pairs per pairing (each pairing has that many boards)")
    rows = []
    bots: dict[float, object] = {}
    for i, (ux, uy) in enumerate(level_pairings(game.name, points)):
        bx = bots.setdefault(ux, _bot(game.name, ux))
        by = bots.setdefault(uy, _bot(game.name, uy))
        n = search_pairs if _slow(bx) or _slow(by) else pairs
        x, y = point_name(ux), "RANDOM" if uy < 0 else point_name(uy)
        if progress is not None:
            progress(x, y, n)
        m = pair_margins(game.name, bx, by, seed + i * SEEDS_PER_PAIRING, n, dict(game.options), workers=workers)
        rows += [(x, y, i * SEEDS_PER_PAIRING + j, float(v)) for j, v in enumerate(m)]
    us = sorted(u for u in bots if u >= 0)
    fit = fit_elo(Pairs.from_rows(rows, ["RANDOM", *(point_name(u) for u in us)]), anchor="RANDOM")
    out = []
    for u in us:
        i = fit.bots.index(point_name(u))
        b = bots[u]
        out.append(
            {
                "u": u,
                "bot": b.label,
                "elo": round(float(fit.elo[i]), 1),
                "lo": _round(fit.lo[i]),
                "hi": _round(fit.hi[i]),
                "pairs": int(fit.pairs_per_bot[i]),
            }
        )
    return {"points": out, "pairs": pairs, "search_pairs": search_pairs, "points_per_step": points, "seed": seed}


def table_problem(doc) -> str | None:
    """Why ``doc``, a JSON value read from a file, is not a LEVEL table (``{"rulesets": {NAME: {"points":
    [...], ...}}}``, as :func:`level_table`'s entries are written), in a few words; None if it is one."""
    if not isinstance(doc, dict):
        kinds = {list: "list", str: "string", bool: "true/false", int: "number", float: "number"}
        return f"a JSON {kinds.get(type(doc), 'null')}, not an object"
    if "rulesets" not in doc:
        return "no 'rulesets'"
    if not isinstance(doc["rulesets"], dict):
        return "'rulesets' is not an object"
    for name, entry in doc["rulesets"].items():
        if not isinstance(entry, dict) or not isinstance(entry.get("points"), list):
            return f"its entry {shorten(name, 20)!r} has no list of points"
    return None


def _round(x: float) -> float | None:
    v = json_number(float(x))
    return None if v is None else round(v, 1)


# --- accuracy ---------------------------------------------------------------------------------------------


def elo_against(scores: np.ndarray, ratings: np.ndarray) -> tuple[float, float, float]:
    """The maximum-likelihood Elo of a bot whose pair scores ``scores`` (1, 1/2, 0) came against opponents
    rated ``ratings`` (held fixed), with a 95% interval from the larger of the model and the sandwich
    variance. +-inf (and no bound on that side) when every pair was won or lost."""
    s = np.asarray(scores, float)
    r = np.asarray(ratings, float)
    if len(s) == 0:
        raise AnalysisError("no pairs to rate")
    if np.all(s == 1.0):
        return math.inf, -math.inf, math.inf  # no finite maximum, no bound either way from the likelihood
    if np.all(s == 0.0):
        return -math.inf, -math.inf, math.inf
    x = float(np.mean(r))
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-ELO_SCALE * (x - r)))
        grad = ELO_SCALE * float((s - p).sum())
        info = ELO_SCALE**2 * float((p * (1 - p)).sum())
        step = grad / info
        x += max(-200.0, min(200.0, step))
        if abs(step) < 1e-6:
            break
    p = 1.0 / (1.0 + np.exp(-ELO_SCALE * (x - r)))
    info = ELO_SCALE**2 * float((p * (1 - p)).sum())
    sandwich = ELO_SCALE**2 * float(((s - p) ** 2).sum()) / info**2
    se = math.sqrt(max(1.0 / info, sandwich))
    return x, x - 1.96 * se, x + 1.96 * se


def accuracy(
    ruleset: str,
    pairs: int = 400,
    search_pairs: int = 150,
    seed: int = 7_000_000,
    fractions=FRACTIONS,
    table: dict | None = None,
    options: dict | None = None,
    progress: Callable[[str, str, int], None] | None = None,
    workers: int = 1,
) -> list[dict]:
    """Per requested E (``fractions`` of the ruleset's range): ``{"ruleset", "elo_requested", "u", "bot",
    "elo", "lo", "hi", "error", "within_40", "pairs", "opponents", "seeds"}`` (module notes). Point ``i``'s
    pairing ``j`` plays the boards ``seed + (2 i + j) * SEEDS_PER_PAIRING ...``."""
    game = get_game(ruleset, **(options or {}))
    entry = entry_for(game.name, table)
    u_curve, e_curve = curve(entry)
    lo, hi = elo_range(entry)
    out = []
    for i, f in enumerate(fractions):
        if not 0.0 <= f <= 1.0:
            raise AnalysisError(f"fraction {f} is outside [0, 1]")
        target = round(lo + f * (hi - lo))
        target = min(max(target, math.ceil(lo)), math.floor(hi))
        u = position(entry, target, game.name)
        level = get_bot(f"LEVEL:elo={target}", ruleset=game.name) if table is None else at_position(game.name, u)
        k = min(int(u), len(LADDER_NAMES) - 2)
        scores, ratings, n_total, names, seeds = [], [], 0, [], []
        for j, ku in enumerate((k, k + 1)):
            opp = LADDER_NAMES[ku]
            bo = get_bot(opp, ruleset=game.name)
            inner = level.inner(game.name) if hasattr(level, "inner") else level
            n = search_pairs if _slow(inner) or _slow(bo) else pairs
            start = seed + (2 * i + j) * SEEDS_PER_PAIRING
            if progress is not None:
                progress(f"LEVEL:elo={target}", opp, n)
            m = pair_margins(game.name, level, bo, start, n, dict(game.options), workers=workers)
            scores.append(np.where(m > 0, 1.0, np.where(m < 0, 0.0, 0.5)))
            ratings.append(np.full(n, float(np.interp(ku, u_curve, e_curve))))
            n_total += n
            names.append(opp)
            seeds.append(f"{start}..{start + n - 1}")
        e, elo_lo, elo_hi = elo_against(np.concatenate(scores), np.concatenate(ratings))
        out.append(
            {
                "ruleset": game.name,
                "elo_requested": float(target),
                "u": round(u, 4),
                "bot": (level.inner(game.name) if hasattr(level, "inner") else level).label,
                "elo": e,
                "lo": elo_lo,
                "hi": elo_hi,
                "error": e - target,
                "within_40": bool(abs(e - target) <= 40),
                "pairs": n_total,
                "opponents": names,
                "seeds": seeds,
            }
        )
    return out


def accuracy_records(rows: list[dict]) -> list[dict]:
    """The rows for JSON: an infinite Elo or bound is None."""
    return [{k: json_number(v) if isinstance(v, float) else v for k, v in r.items()} for r in rows]


def _signed(x: float) -> str:
    """A whole number with its sign, never "-0" (a rounded -0.3 is an error of 0)."""
    return f"{round(x):+d}"


def _inside_40(r: dict) -> bool:
    """The goal shown at 95%: the interval, as printed (whole numbers), wholly inside E +- 40; judged on the
    printed bounds so that a file read back (:func:`kept_from_markdown`) counts the same."""
    bounds = (r["lo"], r["hi"])
    if any(b is None or not math.isfinite(b) for b in bounds):
        return False
    return all(abs(round(b) - r["elo_requested"]) <= 40 for b in bounds)


def _number(text: str) -> float | None:
    return None if text == "none" else float(text)


def kept_from_markdown(text: str, rulesets) -> tuple[list[str], list[dict]]:
    """The commands and rows of an earlier docs/levels.md (:func:`accuracy_markdown`'s output) for rulesets
    other than ``rulesets``, as rows again: a check of some rulesets rewrites the file with the others'
    rows kept, so one command per group of rulesets builds it."""
    rulesets = set(rulesets)
    commands, rows = [], []
    for line in text.splitlines():
        if line.startswith("    tekkasim levels check"):
            words = line.split()
            named = {words[i + 1] for i, w in enumerate(words[:-1]) if w in ("--ruleset", "-r")}
            if named and not named & rulesets:
                commands.append(line.strip())
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")] if line.startswith("| ") else []
        if len(cells) != 10 or cells[0] in rulesets or cells[0] == "ruleset":
            continue
        shown = {"won all": math.inf, "lost all": -math.inf}
        lo, hi = cells[3].strip("[]").split(", ")
        rows.append(
            {
                "ruleset": cells[0],
                "elo_requested": float(cells[1]),
                "elo": shown[cells[2]] if cells[2] in shown else float(cells[2]),
                "lo": _number(lo),
                "hi": _number(hi),
                "error": math.nan if cells[4] == "-" else float(cells[4]),
                "within_40": cells[5] == "yes",
                "pairs": int(cells[6]),
                "opponents": cells[7].split(", "),
                "seeds": cells[8].split("; "),
                "bot": cells[9].strip("`"),
            }
        )
    return commands, rows


def accuracy_markdown(rows: list[dict], commands: str | list[str], table: dict) -> str:
    """docs/levels.md: the command (or one per group of rulesets checked at the same sizes), the method, the
    sizes, the table's sizes and the accuracy table."""
    commands = [commands] if isinstance(commands, str) else list(commands)
    lines = [
        HEADING,
        "",
        "`LEVEL:elo=E` should play at E Elo above RANDOM (runs.md). This file checks it on boards the "
        "calibration table never used. Generated by the command below (one per group of rulesets checked at "
        "the same sizes; the same arguments give the same rows); rerun it to regenerate this file:",
        "",
        *(f"    {c}" for c in commands),
        "",
        "Method (`tekkasim.analysis.levels.accuracy`): for E at 10, 30, 50, 70 and 90% of each ruleset's "
        "range (KADO's to ZELZELA's rating in the shipped table), `LEVEL:elo=E` plays duplicate pairs against "
        "the two ladder bots at the ends of the ladder step E lies on; its Elo is the maximum-likelihood "
        "rating given those pairs with the two opponents held at their ratings in the table (so the check "
        "asks whether LEVEL sits at E on the table's scale; the table's own uncertainty about the ladder's "
        "distance to RANDOM, docs/calibration.md, is not in the interval). 95% interval: the larger of the "
        "model and the sandwich variance. Goal: |measured - E| <= 40.",
        "",
        "Sizes: `--pairs` pairs per opponent when neither side searches, `--search-pairs` when one does (the "
        "steps from JANGARA up); pairing i of a ruleset plays the boards `--seed` + i * "
        f"{SEEDS_PER_PAIRING:,} ...; the pairs column counts both opponents' pairs and the seeds column gives "
        "each opponent's boards. Small sizes give wide intervals: read them before the estimates.",
        "",
        "| ruleset | E | measured Elo | 95% interval | error | within 40 | pairs | opponents | seeds | bot |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        e = r["elo"]
        shown = _signed(e) if math.isfinite(e) else ("won all" if e > 0 else "lost all")
        err = _signed(r["error"]) if math.isfinite(r["error"]) else "-"
        lines.append(
            f"| {r['ruleset']} | {r['elo_requested']:.0f} | {shown} | {interval_text(r['lo'], r['hi'])} | {err} | "
            f"{'yes' if r['within_40'] else 'no'} | {r['pairs']} | {', '.join(r['opponents'])} | "
            f"{'; '.join(r['seeds'])} | `{r['bot']}` |"
        )
    within = sum(r["within_40"] for r in rows)
    holds = sum(
        (r["lo"] is None or r["lo"] <= r["elo_requested"]) and (r["hi"] is None or r["elo_requested"] <= r["hi"])
        for r in rows
    )
    shown_met = sum(_inside_40(r) for r in rows)
    lines += [
        "",
        f"{within} of {len(rows)} requests measured within 40 of E; {holds} of {len(rows)} 95% intervals hold E; "
        f"{shown_met} of {len(rows)} 95% intervals lie wholly inside E +- 40 (the goal shown at 95%). An interval "
        "wider than +-40 cannot show the goal met either way: more pairs are needed there.",
    ]
    lines += ["", "The tables the check used (tekkasim/rulesets/<name>/levels.json):", ""]
    for rs, entry in (table.get("rulesets") or {}).items():
        lines.append(
            f"- {rs}: {entry.get('pairs')} pairs per heuristic pairing, {entry.get('search_pairs')} per search "
            f"pairing, {entry.get('points_per_step')} points within each step, boards from {entry.get('seed')}."
        )
    lines.append("")
    return "\n".join(lines)


__all__ = [
    "FRACTIONS",
    "HEADING",
    "SEEDS_PER_PAIRING",
    "accuracy",
    "accuracy_markdown",
    "accuracy_records",
    "kept_from_markdown",
    "elo_against",
    "level_pairings",
    "level_table",
    "point_name",
    "table_problem",
]
