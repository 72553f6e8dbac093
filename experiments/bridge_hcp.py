"""Validation of the double-dummy pipeline against a classic bridge result: mean notrump tricks for the
side with 20, 22, 24, 26, 28, 30 combined high-card points on random 52-card deals (published about
6.1, 7.2, 8.2, 9.1, 10.1, 11.1), within 0.15 of a trick. Method: ``tekkasim.analysis.bridge``.

    python experiments/bridge_hcp.py                    # small: 60 sides per count
    python experiments/bridge_hcp.py --full             # 600 sides per count (standard errors ~0.06)

Writes ``runs/bridge_hcp/{sides.csv,table.csv,table.md}`` and prints the table.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from tekkasim.analysis.bridge import hcp_notrump_tricks, hcp_table

CONFIG = {"seed": 20261201, "per_bucket": 60, "full_per_bucket": 600, "tolerance": 0.15}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=CONFIG["seed"])
    parser.add_argument("--per-bucket", type=int, default=None)
    parser.add_argument("--full", action="store_true", help=f"{CONFIG['full_per_bucket']} sides per count")
    parser.add_argument("--out", type=Path, default=Path("runs/bridge_hcp"))
    args = parser.parse_args(argv)
    n = args.per_bucket or (CONFIG["full_per_bucket"] if args.full else CONFIG["per_bucket"])
    t0 = time.perf_counter()
    frame = hcp_notrump_tricks(
        n,
        seed=args.seed,
        progress=lambda c: print(f"{time.perf_counter() - t0:6.0f} s  sides per count {c}", flush=True),
    )
    table = hcp_table(frame)
    table["within_0.15"] = table["difference"].abs() <= CONFIG["tolerance"]
    args.out.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out / "sides.csv", index=False)
    table.to_csv(args.out / "table.csv")
    text = table.to_markdown(floatfmt=".3f") if _has_tabulate() else table.to_string(float_format="{:.3f}".format)
    (args.out / "table.md").write_text(text + "\n")
    print(
        f"{len(frame)} sides ({n} per count) from {int(frame['deal'].max()) + 1} random deals, seed {args.seed}, "
        f"{2 * len(frame)} notrump solves in {time.perf_counter() - t0:.0f} s"
    )
    print(text)


def _has_tabulate() -> bool:
    try:
        import tabulate  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    main()
