"""Run every ``benchmarks/bench_*.py`` and print its rows; ``--json FILE`` also saves them.

Each module runs in a fresh Python process, so one benchmark's memory (the solver's 56 MB table) or
warm-up cannot skew the next one's figures.

Each module has ``run(quick: bool) -> list[dict]``; a row is ``{"name", "value", "unit"}`` plus, where
there is a goal, ``"reference"`` (what it is measured against), ``"ratio"`` and ``"goal"`` (text).
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _run_module(name: str, quick: bool) -> list[dict]:
    """Rows of one benchmark module, computed in a child process."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [sys.executable, "-m", "benchmarks", "--module", name, "--rows-to", out.name]
        subprocess.run(cmd + (["--quick"] if quick else []), check=True)
        return json.loads(Path(out.name).read_text())


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("names", nargs="*", help="only these benchmark modules (e.g. feskot dd)")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--json", metavar="FILE", help="write all rows as JSON to FILE")
    parser.add_argument("--module", help=argparse.SUPPRESS)  # child process: run this module only
    parser.add_argument("--rows-to", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.module:
        rows = importlib.import_module(f"benchmarks.{args.module}").run(quick=args.quick)
        Path(args.rows_to).write_text(json.dumps(rows))
        return 0
    here = Path(__file__).parent
    modules = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    if args.names:
        modules = [m for m in modules if m.removeprefix("bench_") in args.names]
    rows = []
    for name in modules:
        t0 = time.perf_counter()
        for row in _run_module(name, args.quick):
            row.setdefault("bench", name.removeprefix("bench_"))
            rows.append(row)
            ratio = f"  ratio {row['ratio']:.3g} vs {row['reference']}" if "ratio" in row else ""
            goal = f"  (goal: {row['goal']})" if "goal" in row else ""
            goal += f"  [{row['spread']}]" if "spread" in row else ""
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
