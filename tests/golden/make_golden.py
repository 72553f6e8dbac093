"""Regenerate the golden playthroughs: ``python tests/golden/make_golden.py``.

Per ruleset, seeded random self-play through the Python State API, chained into matches, written as deal
records (one JSON line each, keys sorted). ``tests/test_golden.py`` replays the same seeds and demands
byte-identical lines: a refactor of the engine must not change a single card, call or result. Regenerate
only for an intended rules change, in a commit of its own that says why (python-chess keeps perft files the
same way).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from tekkasim.rules import get_game
from tekkasim.simulate import play_records

HERE = Path(__file__).parent
# (ruleset, options, deals, seed): a few hundred deals each, matches chained so that match context is covered.
CASES = [
    ("feskot", {}, 300, 1000),
    ("feskot", {"signals": True, "play_out": True}, 100, 2000),
    ("tekka", {}, 300, 3000),
    ("tekka", {"raises": True}, 100, 4000),
    ("satat", {}, 300, 5000),
    ("shengji", {}, 200, 6000),
]


def case_path(name: str, options: dict) -> Path:
    tag = "-".join(f"{k}" for k in sorted(options)) or "default"
    return HERE / f"{name}-{tag}.jsonl.gz"


def golden_lines(name: str, options: dict, deals: int, seed: int) -> list[str]:
    game = get_game(name, **options)
    return [json.dumps(r, sort_keys=True, separators=(",", ":")) for r in play_records(game, deals, seed, match=True)]


KERNEL_CASES = [
    ("feskot", {}, 20_000, 11),
    ("tekka", {"raises": True}, 20_000, 12),
    ("satat", {}, 20_000, 13),
    ("shengji", {}, 5_000, 14),
]
KERNEL_FILE = HERE / "kernels.json"


def kernel_digests(name: str, options: dict, deals: int, seed: int) -> dict[str, str]:
    """sha256 of every array ``play_random`` returns: the compiled whole-deal loops must not change either."""
    import hashlib

    import numpy as np

    out = get_game(name, **options).play_random(deals, seed)
    return {k: hashlib.sha256(np.ascontiguousarray(v).tobytes()).hexdigest() for k, v in sorted(out.items())}


def main() -> None:
    digests = {f"{n}-{s}": kernel_digests(n, o, d, s) for n, o, d, s in KERNEL_CASES}
    KERNEL_FILE.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    for name, options, deals, seed in CASES:
        lines = golden_lines(name, options, deals, seed)
        with gzip.GzipFile(case_path(name, options), "wb", mtime=0) as f:
            f.write(("\n".join(lines) + "\n").encode())
        print(f"{case_path(name, options).name}: {len(lines)} records")


if __name__ == "__main__":
    main()
