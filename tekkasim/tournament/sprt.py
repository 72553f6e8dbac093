"""``tekkasim sprt``: pairs of A against B until the sequential probability ratio test decides, stored as
a run.

An SPRT is a gauntlet of two teams whose identity fixes boards 0 .. max_pairs-1 (board i from seed S + i,
as in a tournament); its tables go into the same run store as a tournament's, so ``report`` and ``export``
read it. Boards are played in order, in batches. The test is fed the pair scores in board order and stops
at the first pair that crosses a bound, so its verdict and pair count depend neither on the batch sizes
nor on the workers or the backend. A rerun on the same DIR (after a crash, Ctrl-C or the watchdog) first
feeds the stored pairs, then plays on from the first board missing: it continues the same test.

The same bot on both sides (a self-test, which should accept H0) is allowed: B's side is labelled
``NAME#2`` so that the two teams stay apart in the run and its report.
"""

from __future__ import annotations

import dataclasses
import math
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import OptionError
from ..ratings import SPRT
from ..rules import get_game
from .backends import DaskCluster, default_workers, run_dask, run_local
from .config import Config, Team, TournamentError, _shown, _team_key, first_difference, make_team
from .play import Job
from .runner import _warm_up, keep_engine_logs, missing_blocks
from .storage import CONFIG_NAME, Store, _read_config

SECOND = "#2"  # the label suffix of B's bots when both sides play the same bot
# Beyond this difference the expected pair score is 1 - 1e-10 and the test's likelihood cannot be computed;
# no one tests for it.
MAX_ELO = 4000.0


@dataclass
class SprtRun:
    """A finished (or inconclusive) test and where its pairs are stored."""

    test: SPRT
    directory: Path | None  # None: kept in a temporary directory, removed at the end
    resumed: int  # pairs fed from a run already stored in the directory
    played: int  # tables played by this call


def check_test(elo0: float, elo1: float, alpha: float, beta: float) -> SPRT:
    """The test, its arguments checked (one line each)."""
    for name, value in (("--elo0", elo0), ("--elo1", elo1)):
        if not isinstance(value, int | float) or not math.isfinite(value) or abs(value) > MAX_ELO:
            raise OptionError(f"{name} must be a finite Elo difference within +-{MAX_ELO:g}, not {value!r}")
    if not elo1 > elo0:
        raise OptionError(f"--elo1 must be greater than --elo0 (got {elo0:g} and {elo1:g})")
    for name, value in (("--alpha", alpha), ("--beta", beta)):
        if not isinstance(value, int | float) or not 0 < value < 0.5:
            raise OptionError(f"{name} must be an error rate between 0 and 0.5, not {value!r}")
    return SPRT(elo0, elo1, alpha, beta)


def sprt_config(
    ruleset: str,
    bot_a,
    bot_b,
    max_pairs: int = 20000,
    seed: int = 1,
    options: dict | None = None,
    **how,
) -> Config:
    """The run of an SPRT: A's team against B's on boards 0 .. max_pairs-1. ``how``: ``workers``,
    ``backend``, ``scheduler``, ``block``, ``timeout`` as in :class:`Config`."""
    try:
        named = get_game(ruleset).name
    except Exception:  # noqa: BLE001 - an unknown ruleset is reported by Config.build, in its own words
        named = None
    team_a, team_b = make_team(bot_a, named), make_team(bot_b, named)
    if team_a.name == team_b.name:  # a self-test: the same bots, told apart by their labels
        team_b = Team(team_b.bots, tuple(label + SECOND for label in team_b.labels))
    return Config.build(
        ruleset=ruleset,
        bots=[team_a, team_b],
        boards=max_pairs,
        seed=seed,
        options=options or {},
        schedule="gauntlet",
        **how,
    )


def run_sprt(
    cfg: Config,
    test: SPRT,
    out: str | Path | None = None,
    on_progress: Callable[[SPRT, int], None] | None = None,
    use_compiled: bool = True,
) -> SprtRun:
    """Feed ``test`` the pair scores of ``cfg`` (from :func:`sprt_config`) in board order, playing the
    boards not stored in ``out`` yet, until it decides or the boards run out. ``on_progress(test,
    tables_played)`` after each batch. Without ``out`` the pairs are kept in a temporary directory."""
    if out is None:
        with tempfile.TemporaryDirectory(prefix="tekkasim-sprt-") as tmp:
            run = _run_sprt(cfg, test, Path(tmp) / "run", on_progress, use_compiled, False)
        run.directory = None
        return run
    return _run_sprt(cfg, test, out, on_progress, use_compiled, True)


def _reuse_problem(stored: dict, given: dict) -> str | None:
    """What keeps the SPRT of identity ``given`` from continuing the run stored as ``stored``, named by the
    sprt's own options (the run's fields are a tournament's: boards, teams), or None."""
    if stored.get("schedule") != "gauntlet" or len(stored.get("teams") or []) != 2:
        return f"a tournament of {len(stored.get('teams') or [])} teams, not an sprt"
    for key, option in (("ruleset", "--ruleset"), ("seed", "--seed")):
        if stored.get(key) != given.get(key):
            return f"{option}: stored {_shown(stored.get(key))}, given {_shown(given.get(key))}"
    if stored.get("options") != given.get("options"):
        return "--option " + first_difference(stored.get("options"), given.get("options"))
    if stored.get("unit") != given.get("unit"):
        return f"unit: stored {_shown(stored.get('unit'))}, given {_shown(given.get('unit'))}"
    sides = [[_team_key(t) for t in x["teams"]] for x in (stored, given)]
    if sides[0] != sides[1]:
        (a, b), (c, d) = sides
        return f"--bot: stored A {a}, B {b}; given A {c}, B {d}"
    if stored.get("bots") != given.get("bots"):
        for name, old, new in zip(sides[0], stored["bots"], given["bots"], strict=True):
            if old != new:
                return f"--bot {name}, another bot by that name: " + first_difference(old, new)
    if given["boards"] < stored["boards"]:
        return f"--max-pairs: stored {stored['boards']}, given {given['boards']} (give {stored['boards']} or more)"
    return None


def _check_reuse(out, identity: dict) -> None:
    """A run directory holding an SPRT this one cannot continue: one line naming the sprt's option, before
    the run store's own check (which names a tournament's fields)."""
    path = Path(out) / CONFIG_NAME
    if not path.is_file():
        return
    try:
        stored = _read_config(path)
    except TournamentError:  # the store says what is wrong with it
        return
    problem = _reuse_problem(stored, identity)
    if problem:
        raise TournamentError(f"{out} holds a run of another sprt ({problem}); use another --out DIR")


def _run_sprt(cfg: Config, test: SPRT, out, on_progress, use_compiled: bool, logs: bool) -> SprtRun:
    """:func:`run_sprt` in the run directory ``out``; ``logs``: the engines' stderr kept there too."""
    _check_reuse(out, cfg.identity())
    job = Job.from_config(cfg, use_compiled)
    workers = cfg.workers or default_workers()
    cluster = DaskCluster(workers, cfg.scheduler) if cfg.backend == "dask" else None
    try:
        with Store.create_or_resume(out, cfg.identity()) as store:
            if logs:
                keep_engine_logs(Path(out), cluster)
            resumed, played = _play(cfg, job, test, store, workers, cluster, on_progress)
        return SprtRun(test, Path(out), resumed, played)
    finally:
        if cluster is not None:
            cluster.close()


def _play(cfg: Config, job: Job, test: SPRT, store, workers: int, cluster, on_progress) -> tuple[int, int]:
    """Pairs resumed from the store, tables played."""
    stored = store.results()
    done = {r[:3] for r in stored}
    halves = {(r[1], r[2]): r[3] - r[4] for r in stored}  # (board, table) -> X's margin at that table
    compiled = _warm_up(job)
    block = cfg.block or (256 if compiled else 8)
    # a batch keeps every worker busy, and costs little beyond the stopping pair: an SPRT usually stops
    # long before max_pairs, and boards played past the decision are wasted
    batch = max(16, block * workers * 4)
    board, played, resumed = 0, [0], None

    def on_rows(_block, rows):
        store.add(rows)
        # a compact block (compiled rows, or a stored block) gives its returns without decoding payloads
        for _p, b, table, xr, yr, *_ in rows.results() if hasattr(rows, "results") else rows:
            done.add((0, b, table))
            halves[(b, table)] = xr - yr
            played[0] += 1

    def describe(blk, b, table):
        where = f"board {b}, table {table}" if b is not None else f"boards {blk[1]}..{blk[2] - 1}"
        return f"{job.team_name(0)} vs {job.team_name(1)}, {where}"

    while True:
        while test.verdict is None and (board, 0) in halves and (board, 1) in halves:
            margin = halves[(board, 0)] + halves[(board, 1)]
            test.add(1.0 if margin > 0 else 0.5 if margin == 0 else 0.0)
            board += 1
        if resumed is None:
            resumed = test.pairs
        if on_progress is not None:
            on_progress(test, played[0])
        if test.verdict is not None or board >= cfg.boards:
            break
        # boards before ``board`` are all stored: the missing blocks of the first board + batch boards
        # are those of this batch
        upto = dataclasses.replace(cfg, boards=min(board + batch, cfg.boards))
        blocks = missing_blocks(upto, done, block)
        if cluster is not None:
            run_dask(job, blocks, cluster, on_rows, cfg.timeout, describe)
        else:
            run_local(job, blocks, workers, on_rows, cfg.timeout, describe)
    return resumed, played[0]
