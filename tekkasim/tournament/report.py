"""The report of a stored run: Elo table, crosstable, likelihood of superiority (runs.md JSON), a text
rendering, and plots (Elo ladder with error bars, head-to-head heatmap, margin distributions) with a
markdown summary linking them.

``tekkasim tournament`` (its table at the end of a run) and ``tekkasim report`` both call
:func:`build_report` with its defaults and :func:`render_text`, so they print the same intervals for the
same run: ``lo``/``hi`` are the board-clustered 95% intervals of ``ratings.fit_elo`` (deterministic; the
bootstrap, off by default, is a second interval shown beside them on request).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from ..ratings import Pairs, RatingError, crosstable, fit_elo, groups, interval_text
from .results import pair_arrays, pairings, team_names

BOOTSTRAP = 0  # resamples of the default report: none, the clustered interval needs no random draws


def build_report(
    directory: str | os.PathLike,
    anchor: str | None = None,
    bootstrap: int = BOOTSTRAP,
    seed: int = 0,
    only: list[str] | None = None,
) -> dict:
    """runs.md's report JSON, plus ``se`` and ``note`` per bot (``note`` says why a bound is null),
    ``interval`` (how ``lo``/``hi`` were made), ``los``, ``dispersion`` and, with ``bootstrap`` > 0
    resamples of the boards, bootstrap bounds ``boot_lo``/``boot_hi``. ``only``: the bots (labels) to rate,
    from the pairs in which every seat is one of them (``report --bots``; the rest of the run is left out)."""
    identity, data, pairing = pair_arrays(directory)
    total = identity["boards"] * _n_pairings(identity)
    if only is not None:
        data, pairing, total = _only(identity, data, pairing, only)
    if not len(data):
        raise RatingError(f"{directory} holds no complete pair yet (run the tournament first)")
    comps = groups(data)
    if len(comps) > 1:  # an interrupted round robin, say: rated one group at a time (fit_elo cannot join them)
        shown = " and ".join("{" + ", ".join(c[:4]) + (", ..." if len(c) > 4 else "") + "}" for c in comps[:3])
        biggest = max(comps, key=len)
        raise RatingError(
            f"the results fall into {len(comps)} groups that never met ({shown}): their ratings cannot be "
            f"compared; rate each group on its own, e.g. tekkasim report {directory} --bots {','.join(biggest)}"
        )
    bots = data.bots
    if anchor is None:
        anchor = "RANDOM" if "RANDOM" in bots else bots[0]
    else:
        match = [b for b in bots if b.upper() == anchor.upper()]
        if not match:
            raise RatingError(f"anchor {anchor!r} did not play (bots: {', '.join(bots)})")
        anchor = match[0]
    fit = fit_elo(data, anchor=anchor, bootstrap=bootstrap, seed=seed)
    names = team_names(identity)
    cross = crosstable(
        [
            (names[x], names[y], data.margin[pairing == p])
            for p, (x, y) in enumerate(pairings(identity))
            if (pairing == p).any()
        ]
    )
    table = sorted(fit.table(), key=lambda r: -r["elo"])
    los = fit.los()
    return {
        "ruleset": identity["ruleset"],
        "unit": identity["unit"],
        "boards": identity["boards"],
        "pairs": len(data),
        "anchor": anchor,
        "bots": table,
        "crosstable": cross,
        "los": {a: {b: float(los[i, j]) for j, b in enumerate(fit.bots) if j != i} for i, a in enumerate(fit.bots)},
        "interval": {
            "level": 0.95,
            "method": "board-clustered sandwich, never narrower than the dispersion-scaled likelihood one",
            "clusters": fit.boards,
            "t": fit.quantile if math.isfinite(fit.quantile) else None,
        },
        "dispersion": fit.dispersion,
        "bootstrap": bootstrap,
        "options": identity["options"],
        "complete": len(data) == total,
    } | ({"only": list(data.bots)} if only is not None else {})


def _only(identity: dict, data: Pairs, pairing, only: list[str]):
    """The pairs (and their pairings' indices) in which every seat is one of the bots ``only`` (matched
    case-insensitively), those bots as the only ones, and the pairs the run has for them when complete."""
    import numpy as np

    chosen = []
    for name in only:
        match = [b for b in data.bots if b.upper() == name.strip().upper()]
        if not match:
            raise RatingError(f"--bots: {name.strip()!r} did not play (bots: {', '.join(data.bots)})")
        chosen += [m for m in match if m not in chosen]
    keep = np.array([b in chosen for b in data.bots])
    rows = keep[data.xa] & keep[data.xb] & keep[data.ya] & keep[data.yb]
    bots = [b for b in data.bots if b in chosen]
    new = np.full(len(data.bots), -1, np.int64)
    new[keep] = np.arange(len(bots))
    cut = data.subset(rows)
    pairs = Pairs(bots, new[cut.xa], new[cut.xb], new[cut.ya], new[cut.yb], cut.board, cut.margin)
    inside = [all(lab in chosen for lab in t) for t in identity["teams"]]
    n = sum(inside[x] and inside[y] for x, y in pairings(identity))
    return pairs, pairing[rows], identity["boards"] * n


def _n_pairings(identity: dict) -> int:
    n = len(identity["teams"])
    return n - 1 if identity["schedule"] == "gauntlet" else n * (n - 1) // 2


def render_text(report: dict) -> str:
    """The Elo table and the crosstable as plain text; a bound the data cannot give is shown as "none"
    and the row's note says why."""
    unit = "match" if report["unit"] == "match" else "deal"
    lines = [
        f"{report['ruleset']}: {report['pairs']} pairs ({report['boards']} boards per pairing, one {unit} "
        f"per table), anchor {report['anchor']} = 0" + ("" if report.get("complete", True) else "  [run incomplete]"),
        "",
    ]
    boot = report["bots"] and "boot_lo" in report["bots"][0]
    lines.append(
        f"{'bot':<28} {'Elo':>7} {'95% interval':>16}"
        + (f" {'95% (bootstrap)':>16}" if boot else "")
        + f" {'pairs':>6}"
    )
    for r in report["bots"]:
        line = f"{r['name'][:28]:<28} {r['elo']:7.0f} {interval_text(r['lo'], r['hi'], '.0f'):>16}"
        if boot:
            line += f" {interval_text(r['boot_lo'], r['boot_hi'], '.0f'):>16}"
        line += f" {r['pairs']:>6}"
        lines.append(line + (f"  {r['note']}" if r.get("note") else ""))
    iv = report.get("interval")
    if iv:
        lines.append(
            f"95% intervals clustered by board ({iv['clusters']} boards; pairings that share a board are not "
            "independent)" + (f"; bootstrap: {report['bootstrap']} resamples of the boards" if boot else "")
        )
    lines += ["", f"{'a':<20} {'b':<20} {'pairs':>6} {'W-D-L':>13} {'margin':>8} {'95%':>17}"]
    for c in report["crosstable"]:
        wdl = f"{c['wins']}-{c['draws']}-{c['losses']}"
        ci = interval_text(c["margin_lo"], c["margin_hi"], ".2f") if c["margin_lo"] is not None else "-"
        lines.append(f"{c['a'][:20]:<20} {c['b'][:20]:<20} {c['pairs']:>6} {wdl:>13} {c['margin']:8.2f} {ci:>17}")
    return "\n".join(lines)


def write_plots(
    report: dict, directory: str | os.PathLike, margins: dict[tuple[str, str], list[float]], text: str | None = None
) -> list[Path]:
    """PNGs of the Elo ladder, the head-to-head heatmap and the margin distributions, and ``summary.md``
    linking them (with ``text``, by default :func:`render_text` of the report); returns the paths written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = []

    bots = report["bots"][::-1]  # strongest at the top
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(bots) + 1.5))
    y = np.arange(len(bots))
    elo = np.array([b["elo"] for b in bots])
    # a bound the data cannot give (null) gets no bar on that side and an arrow with the reason instead
    err = np.array(
        [
            [0.0 if b["lo"] is None else b["elo"] - b["lo"] for b in bots],
            [0.0 if b["hi"] is None else b["hi"] - b["elo"] for b in bots],
        ]
    )
    ax.errorbar(elo, y, xerr=err, fmt="o", capsize=4)
    for yi, b in zip(y, bots, strict=True):
        if b["lo"] is None or b["hi"] is None:
            ax.annotate(
                ("<- " if b["lo"] is None else "") + b.get("note", "") + (" ->" if b["hi"] is None else ""),
                (b["elo"], yi),
                textcoords="offset points",
                xytext=(0, 6),
                ha="right",
                fontsize=7,
            )
    ax.set_yticks(y, [b["name"] for b in bots])
    ax.axvline(0, color="grey", lw=0.8, ls=":")
    ax.set_xlabel(f"Elo (anchor {report['anchor']} = 0), 95% intervals")
    ax.set_title(f"{report['ruleset']}: Elo ladder ({report['pairs']} pairs)")
    fig.tight_layout()
    paths.append(_save(fig, out / "elo.png"))

    teams = list(dict.fromkeys([c["a"] for c in report["crosstable"]] + [c["b"] for c in report["crosstable"]]))
    idx = {t: i for i, t in enumerate(teams)}
    grid = np.full((len(teams), len(teams)), np.nan)
    for c in report["crosstable"]:
        score = (c["wins"] + 0.5 * c["draws"]) / c["pairs"]
        grid[idx[c["a"]], idx[c["b"]]] = score
        grid[idx[c["b"]], idx[c["a"]]] = 1 - score
    fig, ax = plt.subplots(figsize=(1.0 * len(teams) + 2.5, 0.8 * len(teams) + 2))
    im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(teams)), teams, rotation=45, ha="right")
    ax.set_yticks(range(len(teams)), teams)
    for i in range(len(teams)):
        for j in range(len(teams)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=8)
    fig.colorbar(im, ax=ax, label="mean pair score of the row team")
    ax.set_title("head to head")
    fig.tight_layout()
    paths.append(_save(fig, out / "heatmap.png"))

    fig, ax = plt.subplots(figsize=(8, 0.5 * len(margins) + 1.5))
    keys = list(margins)
    ax.boxplot([margins[k] for k in keys], orientation="horizontal", showmeans=True)
    ax.set_yticks(range(1, len(keys) + 1), [f"{a} vs {b}" for a, b in keys])
    ax.axvline(0, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("margin per pair (first team's total over both tables minus the second's)")
    ax.set_title("margin distributions")
    fig.tight_layout()
    paths.append(_save(fig, out / "margins.png"))

    summary = out / "summary.md"
    text = [
        f"# {report['ruleset']} tournament",
        "",
        "```",
        render_text(report) if text is None else text,
        "```",
        "",
        "![Elo ladder](elo.png)",
        "",
        "![head to head](heatmap.png)",
        "",
        "![margins](margins.png)",
        "",
    ]
    summary.write_text("\n".join(text), encoding="utf-8")
    paths.append(summary)
    return paths


def _save(fig, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def pairing_margins(directory: str | os.PathLike) -> dict[tuple[str, str], list[float]]:
    identity, data, pairing = pair_arrays(directory)
    names = team_names(identity)
    return {
        (names[x], names[y]): data.margin[pairing == p].tolist()
        for p, (x, y) in enumerate(pairings(identity))
        if (pairing == p).any()
    }
