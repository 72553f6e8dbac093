"""``tekkasim sprt``: pairs of A against B until the sequential probability ratio test decides.

Boards are played in batches on the local workers (board i from seed S + i, as in a tournament), and
their pair scores are fed to the test in board order, so the verdict and the number of pairs do not
depend on the number of workers. The test stops at the first pair that crosses a bound.
"""

from __future__ import annotations

from collections.abc import Callable

from ..ratings import SPRT
from .backends import default_workers, run_local
from .config import Config
from .play import Job
from .runner import _warm_up


def run_sprt(
    ruleset: str,
    bot_a: str,
    bot_b: str,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    seed: int = 1,
    max_pairs: int = 20000,
    workers: int = 0,
    options: dict | None = None,
    block: int = 8,
    timeout: float = 300.0,
    on_batch: Callable[[SPRT], None] | None = None,
) -> SPRT:
    test = SPRT(elo0, elo1, alpha, beta)
    cfg = Config.build(
        ruleset=ruleset,
        bots=[bot_a, bot_b],
        boards=max_pairs,
        seed=seed,
        options=options or {},
        schedule="gauntlet",
        workers=workers,
        block=block,
        timeout=timeout,
    )
    job = Job.from_config(cfg)
    workers = cfg.workers or default_workers()
    _warm_up(job)
    batch = max(block * workers * 4, 16)
    start = 0
    while test.verdict is None and start < max_pairs:
        stop = min(start + batch, max_pairs)
        blocks = [(0, b, min(b + block, stop)) for b in range(start, stop, block)]
        margins: dict[int, float] = {}

        def on_rows(_block, rows, margins=margins):
            for _p, board, _t, xr, yr, *_ in rows:
                margins[board] = margins.get(board, 0.0) + xr - yr

        def describe(blk, board, table):
            return f"{job.team_name(0)} vs {job.team_name(1)}, board {board}, table {table}"

        run_local(job, blocks, workers, on_rows, timeout, describe)
        for board in range(start, stop):
            m = margins[board]
            if test.add(1.0 if m > 0 else 0.5 if m == 0 else 0.0) is not None:
                break
        if on_batch is not None:
            on_batch(test)
        start = stop
    return test
