"""Run every ``benchmarks/bench_*.py`` and print its rows; ``--json FILE`` also saves them.

Each module has ``run(quick: bool) -> list[dict]``; a row is ``{"name", "value", "unit"}`` plus, where
there is a goal, ``"reference"`` (what it is measured against), ``"ratio"`` and ``"goal"`` (text).
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("names", nargs="*", help="only these benchmark modules (e.g. feskot dd)")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--json", metavar="FILE", help="write all rows as JSON to FILE")
    args = parser.parse_args()
    here = Path(__file__).parent
    modules = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    if args.names:
        modules = [m for m in modules if m.removeprefix("bench_") in args.names]
    rows = []
    for name in modules:
        t0 = time.perf_counter()
        module = importlib.import_module(f"benchmarks.{name}")
        for row in module.run(quick=args.quick):
            row.setdefault("bench", name.removeprefix("bench_"))
            rows.append(row)
            ratio = f"  ratio {row['ratio']:.3g} vs {row['reference']}" if "ratio" in row else ""
            goal = f"  (goal: {row['goal']})" if "goal" in row else ""
            value = row["value"]
            shown = f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
            print(f"{row['bench']:>8}  {row['name']:<44} {shown:>14} {row['unit']}{ratio}{goal}")
            sys.stdout.flush()
        print(f"{'':>8}  ({name} took {time.perf_counter() - t0:.1f} s)")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
