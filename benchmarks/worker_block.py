"""A worker's CPU a block against the bare compiled loop's, paired in one process (issue 23, section 4).

``python -m benchmarks.worker_block satat [--blocks 8] [--repeats 10] [--against DIR]``

For each of ``blocks`` blocks of 2,048 boards (GREEDY against JANGARA from seed 7, the runner's blocks), in
each of ``repeats`` rounds, it times back to back, by this thread's CPU time: the bare loop
(``bots.compiled.play_tables`` for both tables, as ``bench_tournament._bare``) and the worker's work on
the same block (``play_block(..., compact=True)``, the message pickled and sent with ``send_bytes`` into
a pipe that another process empties, as ``backends._worker_main`` does). The order of the two alternates from
block to block (a CPU that slows under sustained load penalises whichever runs second), and each block's
ratio compares runs a few milliseconds apart, so a shared machine's slow spells fall on both. It prints
the median of the per-block ratios with a 95% bootstrap interval, their quartiles and range.

With ``--against DIR``, a copy of another checkout's ``tekkasim`` package (DIR/tekkasim, copied under the
name ``tekkasim_old``, so that both load in this process) plays the same blocks in the same rounds, in
shuffled order with the other two: the ratio of the two workers on each block is printed too. Both must
store the same bytes (checked on the first block).
"""

from __future__ import annotations

import argparse
import pickle
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from multiprocessing import Pipe, Process
from pathlib import Path

from benchmarks._common import median_interval

BOARDS = 2048


def _old_package(checkout: Path, into: Path):
    """Import ``checkout``'s tekkasim under the name ``tekkasim_old`` (its absolute names rewritten)."""
    dest = into / "tekkasim_old"
    shutil.copytree(checkout / "tekkasim", dest, ignore=shutil.ignore_patterns("__pycache__"))
    for path in dest.rglob("*.py"):
        text = path.read_text()
        path.write_text(re.sub(r"(?<![\w/])tekkasim(?=[.\s])", "tekkasim_old", text))  # imports and names
    sys.path.insert(0, str(into))
    import tekkasim_old.tournament as old

    return old


def _drain(reader, writer) -> None:
    """The reading end of the pipe, in a process of its own, as the runner's parent is."""
    writer.close()
    while True:
        try:
            reader.recv_bytes()
        except EOFError:
            return


def _median_interval(values: list[float]) -> str:
    mid, lo, hi = median_interval(values)
    q = statistics.quantiles(values, n=4)
    return (
        f"median {mid:.4f} (95% bootstrap {lo:.4f}-{hi:.4f}; "
        f"quartiles {q[0]:.4f}-{q[2]:.4f}; range {min(values):.4f}-{max(values):.4f}; {len(values)} blocks)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.worker_block")
    parser.add_argument("ruleset", choices=["feskot", "tekka", "satat", "shengji"])
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--against", type=Path, help="another checkout, whose worker plays the same blocks")
    args = parser.parse_args()

    from tekkasim.bots import get_bot
    from tekkasim.bots.compiled import play_tables
    from tekkasim.rules import get_game
    from tekkasim.tournament import Config
    from tekkasim.tournament.backends import _reuse_freed_memory
    from tekkasim.tournament.play import Job, play_block

    _reuse_freed_memory()  # as a worker does
    ruleset, size = args.ruleset, BOARDS * args.blocks
    game = get_game(ruleset)
    x, y = get_bot("GREEDY", ruleset=ruleset), get_bot("JANGARA", ruleset=ruleset)
    reader, writer = Pipe(duplex=False)
    parent = Process(target=_drain, args=(reader, writer), daemon=True)  # the runner's parent reads the pipe
    parent.start()
    reader.close()

    def worker(job, play):
        def run(b: int) -> None:
            rows = play(job, (0, b * BOARDS, (b + 1) * BOARDS), compact=True)
            writer.send_bytes(pickle.dumps(("rows", b, rows), protocol=pickle.HIGHEST_PROTOCOL))

        return run

    def bare(b: int) -> None:
        seeds = range(7 + b * BOARDS, 7 + (b + 1) * BOARDS)
        play_tables(game, x, y, seeds, 0)
        play_tables(game, x, y, seeds, 1)

    job = Job.from_config(Config.build(ruleset=ruleset, bots="GREEDY,JANGARA", boards=size, seed=7))
    runs = {"bare": bare, "worker": worker(job, play_block)}
    with tempfile.TemporaryDirectory() as tmp:
        if args.against:
            old = _old_package(args.against, Path(tmp))
            from tekkasim_old.tournament.play import Job as OldJob
            from tekkasim_old.tournament.play import play_block as old_play

            old_job = OldJob.from_config(old.Config.build(ruleset=ruleset, bots="GREEDY,JANGARA", boards=size, seed=7))
            a, b = play_block(job, (0, 0, BOARDS), compact=True), old_play(old_job, (0, 0, BOARDS), compact=True)
            if (a.codec, a.columns, a.payload, a.score) != (b.codec, b.columns, b.payload, b.score):
                print("the two checkouts store different bytes", file=sys.stderr)
                return 1
            runs["before"] = worker(old_job, old_play)
        for run in runs.values():  # compile or load outside the timings
            run(0)
        ratios: dict[str, list[float]] = {k: [] for k in runs if k != "bare"}
        if args.against:
            ratios["worker/before"] = []
        rng = random.Random(5)
        for rep in range(args.repeats):
            for b in range(args.blocks):
                order = list(runs)
                if args.against:
                    rng.shuffle(order)
                elif (rep + b) % 2:
                    order.reverse()
                cpu = {}
                for name in order:
                    c0 = time.thread_time()
                    runs[name](b)
                    cpu[name] = time.thread_time() - c0
                for name in runs:
                    if name != "bare":
                        ratios[name].append(cpu[name] / cpu["bare"])
                if args.against:
                    ratios["worker/before"].append(cpu["worker"] / cpu["before"])
    writer.close()
    parent.join(timeout=5)
    for name, values in ratios.items():
        what = "worker over before" if name == "worker/before" else f"{name} over bare"
        print(f"{ruleset} {what}: {_median_interval(values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
