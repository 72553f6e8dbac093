"""Running a tournament: what is missing from DIR is cut into blocks, played by a backend, stored as it
arrives; a progress line with ETA and the running leader on a terminal.

A rerun of the same configuration on the same DIR plays only the boards no stored block holds, so a run
stopped at any moment (a bot error, the watchdog, Ctrl-C, ``kill -9``) resumes where it stopped and ends
with the same tables as an uninterrupted run; a rerun with more boards or more teams plays only those.
"""

from __future__ import annotations

import hashlib
import json
import math
import signal
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..bots.engines import set_log_dir
from ..errors import Interrupted
from .backends import DaskCluster, default_workers, run_dask, run_local
from .config import Config
from .play import BlockRows, Job, compiled_rows, context, play_deal_state
from .storage import Store


def default_out(cfg: Config) -> Path:
    """``runs/<ruleset>-<unit>-seed<S>-<digest>``: the same configuration always gets the same DIR, and so
    does the same one with more boards (which grows it)."""
    identity = {k: v for k, v in cfg.identity().items() if k != "boards"}
    digest = hashlib.sha1(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()[:8]
    return Path("runs") / f"{cfg.ruleset}-{cfg.unit}-seed{cfg.seed}-{digest}"


def complete_boards(done: set) -> dict[int, set[int]]:
    """Per pairing, the boards with both tables stored."""
    complete: dict[int, set[int]] = {}
    for p, board, table in done:
        if table == 0 and (p, board, 1) in done:
            complete.setdefault(p, set()).add(board)
    return complete


def missing_blocks(cfg: Config, done: set, block: int) -> list[tuple[int, int, int]]:
    """``(pairing, start, stop)`` blocks of at most ``block`` consecutive boards lacking a stored table,
    pairing by pairing, from the ``(pairing, board, table)`` triples stored."""
    ranges = {p: [(b, b + 1) for b in sorted(bs)] for p, bs in complete_boards(done).items()}
    return missing_from_ranges(len(cfg.pairings()), cfg.boards, ranges, block)


def missing_from_ranges(pairings: int, boards: int, ranges: dict, block: int) -> list[tuple[int, int, int]]:
    """The same from the stored board ranges of each pairing (``Store.ranges``): costs time in the stored
    blocks and the blocks to play, not the boards (a 10M-board run resumes at once)."""
    blocks = []
    for p in range(pairings):
        start = 0
        for a, z in [*sorted(r for r in ranges.get(p, ()) if r[0] < boards), (boards, boards)]:  # the gaps
            blocks += [(p, b, min(b + block, a)) for b in range(start, a, block)]
            start = max(start, z)
    return blocks


def _block_size(cfg: Config, missing_boards: int, workers: int, compiled: bool) -> int:
    if cfg.block > 0:
        return cfg.block
    # a compiled block's boards must outweigh what a block costs (in the worker: two play_tables set-ups
    # and its encoding; a pipe message and a commit in the parent), yet stay few enough that the last
    # block to finish is a sliver of the run and a kill loses little (resume keeps whole blocks); 2,048
    # boards do both (benchmarks/bench_tournament.py, docs/benchmarks.md). State API blocks stay small so
    # the last ones finish together
    cap = 2048 if compiled else 8
    return max(1, min(cap, math.ceil(missing_boards / (workers * 6))))


@dataclass
class RunSummary:
    directory: Path
    tables_played: int
    tables_total: int
    seconds: float
    restarts: int
    workers: int


class Progress:
    """``[#####.....] 120/400 tables  30%  ETA 0:01:20  leader GREEDY 0.71`` on stderr, redrawn at most
    four times a second; silent when stderr is not a terminal or ``quiet``. Stored blocks count by their
    pair scores (``BlockRows.score``), never row by row."""

    def __init__(self, cfg: Config, total: int, stored: int, margins, enabled: bool):
        """``stored`` tables already in DIR, with their ``(pairing, board, margin)`` arrays (``Store.margins``;
        None when not enabled)."""
        self.enabled = enabled
        self.total = total
        self.t0 = time.monotonic()
        self.last = 0.0
        self.names = [t.name for t in cfg.teams]
        self.pairings = cfg.pairings()
        self.half: dict[tuple[int, int], float] = {}
        self.score = [0.0] * len(cfg.teams)
        self.n = [0] * len(cfg.teams)
        self.count = stored
        if enabled and margins is not None:
            ps, _boards, m = margins
            for p in range(len(self.pairings)):
                mine = m[ps == p]
                self._add_score(p, int((mine > 0).sum()), int((mine == 0).sum()), int((mine < 0).sum()))
        self.start_count = self.count

    def _add_score(self, p: int, wins: int, draws: int, losses: int) -> None:
        x, y = self.pairings[p]
        s = wins + 0.5 * draws
        self.score[x] += s
        self.score[y] += wins + draws + losses - s
        self.n[x] += wins + draws + losses
        self.n[y] += wins + draws + losses

    def _add(self, row: tuple) -> None:
        p, board, _table, xr, yr = row[:5]
        key = (p, board)
        if key in self.half:
            margin = self.half.pop(key) + xr - yr
            self._add_score(p, int(margin > 0), int(margin == 0), int(margin < 0))
        else:
            self.half[key] = xr - yr

    def update(self, rows) -> None:
        self.count += len(rows)
        if not self.enabled:
            return
        if isinstance(rows, BlockRows):
            self._add_score(rows.pairing, *rows.score)
        else:
            for row in rows:
                self._add(row)
        now = time.monotonic()
        if self.enabled and (now - self.last > 0.25 or self.count == self.total):
            self.last = now
            self.draw(now)

    def leader(self) -> str:
        rated = [(self.score[i] / self.n[i], name) for i, name in enumerate(self.names) if self.n[i]]
        if not rated:
            return ""
        s, name = max(rated)
        return f"  leader {name} ({s:.2f} per pair)"

    def draw(self, now: float) -> None:
        frac = self.count / self.total if self.total else 1.0
        bar = "#" * int(frac * 24) + "." * (24 - int(frac * 24))
        rate = (self.count - self.start_count) / max(now - self.t0, 1e-9)
        eta = (self.total - self.count) / rate if rate > 0 else float("inf")
        eta_text = time.strftime("%H:%M:%S", time.gmtime(eta)) if math.isfinite(eta) else "--:--:--"
        sys.stderr.write(f"\r[{bar}] {self.count}/{self.total} tables {frac:4.0%}  ETA {eta_text}{self.leader()}\033[K")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            self.draw(time.monotonic())
            sys.stderr.write("\n")
            sys.stderr.flush()


def _warm_up(job: Job) -> bool:
    """Build the game and bots and load their kernels in this process, so that forked workers start with
    every kernel compiled or loaded instead of each compiling its own: when every match-up plays in the
    compiled whole-deal loop, that loop on one board; else a deal with each built-in bot in all four seats
    (a search bot: one decision). A user's bot is not run here: one that hangs must meet the watchdog, in
    a worker, nor an engine (it loads in its own process, in each worker). Returns whether every match-up is
    compiled."""
    from ..bots import decide, get_bot

    ctx = context(job)
    # a compiled match-up's first board plays its whole compiled path (the loop and the payload kernels)
    if all([compiled_rows(ctx, p, range(1)) is not None for p in range(len(job.pairings))]):
        return True  # the State API is never used then: its warm-up would be a start-up cost only
    rnd = get_bot("RANDOM")
    play_deal_state(ctx.game.new_deal(job.seed), [rnd] * 4, job.seed, 0)
    seen = set()
    for bot in (b for team in ctx.bots for b in team):
        if bot.label in seen or not type(bot).__module__.startswith("tekkasim.") or bot.kind == "engine":
            continue
        seen.add(bot.label)
        state = ctx.game.new_deal(job.seed)
        try:
            if bot.kind == "search":
                decide(bot, state, state.current_player(), job.seed)
            else:
                play_deal_state(state, [bot] * 4, job.seed, 0)
        except Exception:  # noqa: BLE001 - a failing bot is reported where it fails in the run, with its board
            pass
    return False


class _StopSignals:
    """While a run is on (in the main thread), SIGINT and SIGTERM stop it: the runner stops its workers and
    keeps what it stored; the first signal's number makes the exit code. Outside the backend a signal
    raises ``KeyboardInterrupt`` at once. Inside ``polled()`` (the backend's loop, which asks ``stopped()``
    at least twice a second) and after ``hold()`` (the stop itself) it is only noted: an exception raised
    at any point may land between storing a block and counting it, or in a callback that swallows it (in
    numba's compiler, in Dask's GC hook): such a one is not printed, and ``check()`` raises it again. With
    ``raising=False`` (the Dask backend, whose GC hook breaks when an exception lands in it) a signal is
    only noted throughout, and acted on at each ``check()`` and in the backend's loop."""

    def __init__(self, raising: bool = True):
        self.signum: int | None = None
        self._raising = self._raise = raising
        self._saved: dict = {}
        self._unraisable = None

    def __enter__(self) -> _StopSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._saved[sig] = signal.signal(sig, self._handle)
            self._unraisable, sys.unraisablehook = sys.unraisablehook, self._swallowed
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self._saved.items():
            signal.signal(sig, handler)
        if self._unraisable is not None:
            sys.unraisablehook = self._unraisable

    def _swallowed(self, unraisable) -> None:
        if not (isinstance(unraisable.exc_value, KeyboardInterrupt) and self.signum is not None):
            self._unraisable(unraisable)

    def _handle(self, signum, frame) -> None:
        self.signum = self.signum or signum
        if self._raise:
            raise KeyboardInterrupt

    def stopped(self) -> bool:
        return self.signum is not None

    def check(self) -> None:
        """Raise if a signal came (and its ``KeyboardInterrupt`` was swallowed, or not raised)."""
        if self.signum is not None:
            raise KeyboardInterrupt

    @contextmanager
    def polled(self):
        self._raise = False
        try:
            yield
        finally:
            self._raise = self._raising
        self.check()

    def hold(self) -> None:
        self._raise = False


def run_tournament(
    cfg: Config, out: str | Path | None = None, quiet: bool = False, use_compiled: bool = True
) -> RunSummary:
    """Play (or resume) ``cfg`` into DIR ``out``; raises ``TekkasimError`` subclasses with one line.
    ``use_compiled=False`` plays every match-up through the State API (the same results, slower).
    Ctrl-C or SIGTERM stops the workers, keeps every stored table and raises :class:`Interrupted`."""
    directory = Path(out) if out is not None else default_out(cfg)
    job = Job.from_config(cfg, use_compiled)
    workers = cfg.workers or default_workers()
    t0 = time.monotonic()
    with _StopSignals(raising=cfg.backend != "dask") as stops:
        cluster = None
        try:
            cluster = DaskCluster(workers, cfg.scheduler) if cfg.backend == "dask" else None
            stops.check()
            return _run(cfg, job, directory, workers, cluster, quiet, t0, stops)
        except Interrupted:
            raise
        except KeyboardInterrupt:  # before the run directory was open: nothing was stored
            raise Interrupted(
                f"interrupted before playing: nothing new stored in {directory}; run the same command to resume",
                stops.signum or signal.SIGINT,
            ) from None
        except Exception:
            if stops.signum is None:
                raise
            # the signal came first: what failed after it (a Dask cluster whose start it broke) is its doing
            raise Interrupted(
                f"interrupted before playing: nothing new stored in {directory}; run the same command to resume",
                stops.signum,
            ) from None
        finally:
            if cluster is not None:
                stops.hold()  # a second Ctrl-C while the cluster closes is noted, not raised in its teardown
                cluster.close()


def keep_engine_logs(directory: Path, cluster: DaskCluster | None) -> None:
    """The stderr of engines (``engine:COMMAND`` bots) kept with the run, in ``directory/engines``: of
    those this process and its local workers start, and those of the workers of the local Dask cluster
    (started before the run directory was open). A cluster's given by ``--scheduler`` log where they run."""
    set_log_dir(directory / "engines")
    if cluster is not None and cluster.cluster is not None:
        cluster.client.run(set_log_dir, str(directory / "engines"))


def keep_start_logs(directory: str | Path) -> None:
    """Before the bots are made (an engine is started then to read its hello): the stderr of the engines
    this process starts goes to ``directory/engines`` too, so that the log of one that fails to start is
    with the run. Only where a run may be kept: a new directory, or one that is empty or holds a run."""
    d = Path(directory)
    if d.exists() and not (d.is_dir() and Store.may_hold_run(d)):
        return  # refused later, in its own words: nothing of the run's is written there
    set_log_dir(d / "engines")


def _run(
    cfg: Config, job: Job, directory: Path, workers: int, cluster, quiet: bool, t0: float, stops: _StopSignals
) -> RunSummary:
    with Store.create_or_resume(directory, cfg.identity()) as store:
        stops.check()
        keep_engine_logs(directory, cluster)
        ranges = store.ranges()
        stored = [sum(2 * (z - a) for rs in ranges.values() for a, z in rs)]
        total = len(cfg.pairings()) * cfg.boards * 2
        progress = None
        played = [0]

        def on_rows(block, rows):  # called inside stops.polled(): a signal cannot come between these lines
            n = store.add(rows)
            played[0] += n
            stored[0] += n
            progress.update(rows)

        def describe(block, board, table):
            x, y = job.pairings[block[0]]
            if board is None:
                return f"{job.team_name(x)} vs {job.team_name(y)}, boards {block[1]}..{block[2] - 1}"
            return f"{job.team_name(x)} vs {job.team_name(y)}, board {board}, table {table}"

        stats = {"restarts": 0}
        try:
            compiled = _warm_up(job)
            stops.check()  # numba's compiler may swallow the interrupt (it calls back through ctypes)
            missing = (total - stored[0]) // 2
            blocks = missing_from_ranges(
                len(cfg.pairings()), cfg.boards, ranges, _block_size(cfg, missing, workers, compiled)
            )
            # the slowest match-ups (search bots) first, so that the run does not end waiting on one of them
            ctx = context(job)
            weight = [sum(40 if b.kind == "search" else 1 for b in team) for team in ctx.bots]
            blocks.sort(key=lambda blk: -sum(weight[t] for t in job.pairings[blk[0]]))
            enabled = not quiet and sys.stderr.isatty()
            progress = Progress(cfg, total, stored[0], store.margins() if enabled else None, enabled=enabled)
            if blocks:
                with stops.polled():
                    if cluster is not None:
                        stats = run_dask(job, blocks, cluster, on_rows, cfg.timeout, describe, stops.stopped)
                    else:
                        stats = run_local(job, blocks, workers, on_rows, cfg.timeout, describe, stops.stopped)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the backend has stopped its workers on the way here
            stops.signum = stops.signum or signal.SIGINT
        except Exception:
            if stops.signum is None:
                raise
            # the signal came first: what failed after it is its doing (Dask may turn it into a timeout)
        finally:
            stops.hold()
            if progress is not None:
                progress.close()
            # the database file alone then holds every stored table (a copy of it loses nothing)
            store.checkpoint()
        if stops.signum is not None:
            raise Interrupted(
                f"interrupted: {stored[0]} tables stored in {directory}; run the same command to resume",
                stops.signum,
            )
    return RunSummary(directory, played[0], total, time.monotonic() - t0, stats["restarts"], workers)
