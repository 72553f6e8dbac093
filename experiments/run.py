"""Run the studies of ``experiments/studies/*.toml`` (one config per study: seed, sizes, bots) through the
library, writing tables (CSV and text) and plots under ``runs/experiments/<study>/`` (git-ignored).

    python experiments/run.py                      # every study at its [small] sizes (`make experiments`)
    python experiments/run.py --full bidding_tana  # one study at its [full] sizes

Every figure is reproducible from the config's seed; tables carry their sample sizes and 95% intervals.
"""

from __future__ import annotations

import argparse
import sys
import time
import tomllib
from pathlib import Path

import pandas as pd

from tekkasim.errors import TekkasimError

STUDIES = Path(__file__).parent / "studies"


def _write(out: Path, name: str, frame: pd.DataFrame, text: list[str]) -> None:
    frame.to_csv(out / f"{name}.csv")
    text += [f"\n## {name}", frame.to_string(float_format="{:.3f}".format)]


def run_tune(cfg, size, out, text):
    from tekkasim.analysis.tune import tune

    res = tune(
        cfg["ruleset"],
        cfg["bot"],
        cfg["param"],
        cfg["target_elo"],
        cfg["against"],
        seed=cfg["seed"],
        tolerance=cfg["tolerance"],
        **size,
    )
    _write(out, "steps", pd.DataFrame(res.steps, columns=["value", "elo", "lo", "hi"]), text)
    _write(out, "result", pd.DataFrame([{k: v for k, v in res.to_json().items() if k != "steps"}]), text)


def run_bidding(cfg, size, out, text):
    from tekkasim.rulesets.tekka.bidding import bidding, bidding_plots

    res = bidding(cfg["bot"], size["boards"], cfg["seed"], out=out / "run", against=cfg.get("against"))
    for key in ("targets", "targets_all", "errors", "thresholds_side_hcp", "thresholds_hcp", "by_side_hcp"):
        _write(out, key, res[key], text)
    bidding_plots(res["deals"], out, f"({res['bot']}, {len(res['deals'])} deals)")


def run_calibration(cfg, size, out, text):
    from tekkasim.analysis.calibrate import calibration

    for ruleset in cfg["rulesets"]:
        _write(out, ruleset, calibration(ruleset, size["bots"], size["pairs"], size["search_pairs"], cfg["seed"]), text)


def run_bridge(cfg, size, out, text):
    from tekkasim.analysis.bridge import hcp_notrump_tricks, hcp_table

    frame = hcp_notrump_tricks(size["per_bucket"], seed=cfg["seed"])
    frame.to_csv(out / "sides.csv", index=False)
    _write(out, "table", hcp_table(frame), text)


def _tournament(ruleset, bots, boards, seed, out, options=None, unit="deal"):
    from tekkasim.tournament import Config, iter_records, run_tournament

    run_tournament(
        Config.build(
            ruleset=ruleset, bots=list(bots), boards=boards, seed=seed, workers=1, options=options or {}, unit=unit
        ),
        out,
        quiet=True,
    )
    return list(iter_records(out))


def run_feskot(cfg, size, out, text):
    from tekkasim.rulesets.feskot.stats import feskot_deals, feskot_sequence, first_dealt_value

    frames = []
    for i, variant in enumerate(cfg["variants"]):
        label = ",".join(f"{k}={v}" for k, v in variant.items()) or "default"
        if variant.get("deal") == "cut":  # only consecutive games cut a deck: play sequences
            recs = feskot_sequence(cfg["bots"], 2 * size["boards"], cfg["seed"], variant)
        else:
            recs = _tournament("feskot", cfg["bots"], size["boards"], cfg["seed"], out / f"run{i}", variant)
        frames.append(feskot_deals(recs).assign(variant=label))
    recs = feskot_sequence(cfg["bots"], 2 * size["boards"], cfg["seed"])
    frames.append(feskot_deals(recs).assign(variant="sequence,deal=shuffle"))
    deals = pd.concat(frames, ignore_index=True)
    _write(out, "first_dealt_by_variant", first_dealt_value(deals, "variant"), text)
    base = deals[deals["variant"] == "default"]
    _write(out, "first_dealt_by_prime_in_five", first_dealt_value(base, "prime_in_five"), text)
    _write(out, "first_dealt_by_five_hcp", first_dealt_value(base, "five_hcp"), text)
    recs = _tournament("feskot", cfg["bots"], size["dd_boards"], cfg["seed"], out / "dd_run")
    dd = feskot_deals(recs, dd=True)
    _write(
        out,
        "dd_best_prime_by_bot",
        first_dealt_value(dd.assign(first_won=dd["dd_best_prime"]), "first_bot").rename(
            columns={"successes": "dd_best", "rate": "dd_best_rate"}
        ),
        text,
    )


def run_satat(cfg, size, out, text):
    from tekkasim.rulesets.satat.stats import (
        accusation_accuracy,
        redeal_value,
        renonce_outcomes,
        satat_deals,
        satat_kinds,
    )

    deals = satat_deals(
        _tournament("satat", cfg["bots"], size["boards"], cfg["seed"], out / "run", unit=cfg.get("unit", "deal"))
    )
    _write(out, "kinds", satat_kinds(deals), text)
    _write(out, "redeal_value", redeal_value(deals), text)
    _write(out, "renonce_outcomes", renonce_outcomes(deals), text)
    _write(out, "accusation_accuracy", accusation_accuracy(deals), text)


def run_shengji(cfg, size, out, text):
    from tekkasim.rulesets.shengji.stats import (
        declaration_stats,
        kitty_bonus_distribution,
        level_changes,
        shengji_deals,
        shengji_summary,
    )

    deals = shengji_deals(_tournament("shengji", cfg["bots"], size["boards"], cfg["seed"], out / "run"))
    _write(out, "by_defender_bot", shengji_summary(deals), text)
    _write(out, "kitty_bonus", kitty_bonus_distribution(deals), text)
    _write(out, "level_changes", level_changes(deals), text)
    _write(out, "declarations", declaration_stats(deals), text)


RUNNERS = {
    "tune": run_tune,
    "bidding": run_bidding,
    "calibration": run_calibration,
    "bridge": run_bridge,
    "feskot": run_feskot,
    "satat": run_satat,
    "shengji": run_shengji,
}


def main(argv=None) -> int:
    names = sorted(p.stem for p in STUDIES.glob("*.toml"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("studies", nargs="*", help=f"studies to run [all: {', '.join(names)}]")
    parser.add_argument("--full", action="store_true", help="the configs' [full] sizes")
    parser.add_argument("--out", type=Path, default=Path("runs/experiments"))
    args = parser.parse_args(argv)
    unknown = [s for s in args.studies if s not in names]
    if unknown:
        parser.error(f"unknown study {unknown[0]!r} (studies: {', '.join(names)})")
    for name in args.studies or names:
        cfg = tomllib.loads((STUDIES / f"{name}.toml").read_text())
        size = cfg["full" if args.full else "small"]
        out = args.out / name
        out.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        text = [f"# {name} ({'full' if args.full else 'small'} sizes: {size}; seed {cfg['seed']})"]
        try:
            RUNNERS[cfg["study"]](cfg, size, out, text)
        except TekkasimError as exc:  # one line; a stored run of another configuration is never overwritten
            hint = f" (remove {out} to run it afresh)" if "another configuration" in str(exc) else ""
            print(f"{name}: {exc}{hint}", file=sys.stderr)
            return 1
        (out / "tables.txt").write_text("\n".join(text) + "\n")
        print(f"{name}: {time.perf_counter() - t0:.0f} s -> {out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
