"""The runner under faults, with real processes: the parent killed alone (its workers die with it and do not
hold the run's lock, a rerun resumes), Ctrl-C to the process group and SIGTERM (one line, exit 130 / 143,
no orphan, the database file alone holds the stored tables), workers that die or hang (messages name the
real exit status, the board and table, the bot), a Dask worker that dies, and no worker outliving a run."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fault_bots import Exit3At, ExitAlways, HangAt, KilledAt
from tournament_bots import Highest, Raiser

from tekkasim.bots import RandomBot
from tekkasim.errors import BotError, Interrupted
from tekkasim.tournament import Config, Store, TournamentError, run_tournament

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads processes from /proc")

ROOT = Path(__file__).resolve().parent.parent
HIGHEST = "tests.tournament_bots:Highest"
SLOW = "tests.fault_bots:Slow"  # HIGHEST's results at 5 ms a decision: runs that can be stopped midway
ARGV = ["-r", "feskot", "-b", f"RANDOM,{SLOW}", "-n", "40", "-s", "11", "-w", "2", "--block", "2", "-q"]


def children(pid: int) -> set[int]:
    """Live (not zombie) processes whose parent is ``pid``."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            state, ppid = stat.rsplit(")", 1)[1].split()[:2]
            if int(ppid) == pid and state != "Z":
                found.add(int(entry))
    return found


def alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":  # a zombie has exited; only its parent (or init) has not reaped it yet
            out.add(pid)
    return out


def stored(directory: Path) -> list[tuple]:
    try:
        with Store.read(directory) as store:
            return store.results()
    except TournamentError:  # not created yet
        return []


def start(directory: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    cmd = [sys.executable, "-m", "tekkasim", "tournament", *ARGV, "--out", str(directory)]
    # a session of its own: a signal to its process group reaches the runner and its workers, as a
    # terminal's Ctrl-C does, and nothing else
    return subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def mid_run(proc: subprocess.Popen, directory: Path, tables: int = 10) -> set[int]:
    """Wait until ``tables`` tables are stored and both workers run; their pids."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        workers = children(proc.pid)
        if len(workers) == 2 and len(stored(directory)) >= tables:
            return workers
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the run did not get going: {proc.communicate()[1][-500:]!r}")


def open_files(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            found.add(os.readlink(fd))
        except OSError:  # closed meanwhile
            pass
    return found


def gone_within(pids: set[int], seconds: float) -> set[int]:
    deadline = time.monotonic() + seconds
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive(pids)


def reference(tmp_path: Path) -> list[tuple]:
    cfg = Config.build(ruleset="feskot", bots=["RANDOM", HIGHEST], boards=40, seed=11, workers=2)
    run_tournament(cfg, tmp_path / "reference", quiet=True)
    return stored(tmp_path / "reference")


@pytest.mark.slow
def test_workers_die_with_a_parent_killed_alone_and_the_rerun_resumes(tmp_path):
    run = tmp_path / "run"
    proc = start(run)
    workers = mid_run(proc, run)
    lock = str(run / ".lock")
    assert lock in open_files(proc.pid) and not any(lock in open_files(w) for w in workers)
    os.kill(proc.pid, signal.SIGKILL)  # the runner alone: its workers are not told
    proc.wait()
    assert gone_within(workers, 3.0) == set()
    before = len(stored(run))
    assert 10 <= before < 80
    again = start(run)  # not refused as "in use": no worker kept the lock
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err.decode()
    assert f"{80 - before} tables played (80 in the run)" in out.decode()
    assert stored(run) == reference(tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_or_sigterm_stops_in_one_line_and_the_database_file_holds_every_table(tmp_path, sig):
    run = tmp_path / "run"
    proc = start(run)
    workers = mid_run(proc, run)
    # an idle reader (a report or notebook left open): the writer's close then leaves the WAL file as it
    # is, and only an explicit checkpoint puts the stored tables into run.sqlite itself
    reader = sqlite3.connect(f"file:{run / 'run.sqlite'}?mode=ro", uri=True)
    reader.execute("SELECT count(*) FROM sqlite_master").fetchone()
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # Ctrl-C at a terminal: every process of the group gets it
    else:
        os.kill(proc.pid, sig)  # `kill PID` of the runner alone
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig
    tables = stored(run)
    assert err.decode().splitlines() == [
        f"interrupted: {len(tables)} tables stored in {run}; run the same command to resume"
    ]
    assert out == b"" and 10 <= len(tables) < 80
    assert gone_within(workers, 2.0) == set()
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("run.sqlite", "config.json"):
        shutil.copy(run / name, copy / name)
    reader.close()
    assert stored(copy) == tables


def run_here(tmp_path, name, bots, **kw) -> tuple[BaseException | None, set[int]]:
    """Run a small tournament in this process: the error it ended with, and the child processes it left."""
    before = children(os.getpid())
    cfg = Config.build(ruleset="feskot", bots=bots, boards=6, seed=40, workers=2, block=1, **kw)
    error = None
    try:
        run_tournament(cfg, tmp_path / name, quiet=True)
    except Exception as exc:  # noqa: BLE001 - the test looks at it
        error = exc
    return error, children(os.getpid()) - before


@pytest.mark.parametrize("bot, how", [(Exit3At, "ended with exit code 3"), (KilledAt, "was killed by SIGKILL")])
def test_a_dead_worker_is_reported_with_its_real_exit_status_and_the_table_it_died_at(tmp_path, bot, how):
    error, left = run_here(tmp_path, "run", [RandomBot, bot])
    assert isinstance(error, TournamentError) and left == set()
    text = str(error)
    assert text.startswith(f"a worker died 3 times at RANDOM vs {bot.name}, board 3, table 1 (bot {bot.name} (")
    assert text.endswith(f"the last one {how}; stored results are kept")


def test_the_watchdog_names_the_bot_that_hangs_and_its_table(tmp_path):
    error, left = run_here(tmp_path, "run", [RandomBot, HangAt], timeout=1.5)
    assert isinstance(error, TournamentError) and left == set()
    text = str(error)
    assert text.startswith("watchdog: no progress for 1.5 s at RANDOM vs HANGAT, board 2, table 1: bot HANGAT (")
    assert "has been deciding for " in text and text.endswith("stored results are kept, rerun to resume")


def test_no_worker_outlives_a_run_that_ends_or_whose_bot_fails(tmp_path, monkeypatch):
    assert run_here(tmp_path, "normal", [RandomBot, Highest]) == (None, set())
    monkeypatch.setenv("TEKKASIM_TEST_MISBEHAVE", "1")
    error, left = run_here(tmp_path, "raises", [RandomBot, Raiser])
    assert isinstance(error, BotError) and left == set()


def test_interrupted_is_not_swallowed_as_an_error_and_says_its_exit_code():
    exc = Interrupted("interrupted: 3 tables stored in d; run the same command to resume", signal.SIGTERM)
    assert not isinstance(exc, Exception) and isinstance(exc, KeyboardInterrupt)
    assert exc.exit_code == 143 and Interrupted("x", signal.SIGINT).exit_code == 130


@pytest.mark.slow
def test_a_dask_worker_that_dies_is_one_line_with_its_exit_code_and_block(tmp_path):
    pytest.importorskip("distributed")
    import dask

    # the scheduler gives up on a task after this many of its workers died (3 by default: slower to test)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cfg = Config.build(ruleset="feskot", bots=[RandomBot, ExitAlways], boards=2, seed=1, workers=1, backend="dask")
        with pytest.raises(TournamentError) as err:
            run_tournament(cfg, tmp_path / "run", quiet=True)
    assert str(err.value) == (
        "a Dask worker died at RANDOM vs EXITALWAYS, boards 0..0: it ended with exit code 3; "
        "stored results are kept, rerun to resume"
    )


@pytest.mark.slow
def test_a_dask_worker_killed_mid_run_is_named_with_its_signal_and_block(tmp_path):
    """A real worker process of a Dask cluster (its nanny's child) killed with SIGKILL while it plays: the
    one line says how it died and which block it was playing."""
    distributed = pytest.importorskip("distributed")
    import threading

    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        with (
            distributed.LocalCluster(
                n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
            ) as lc,
            distributed.Client(lc) as client,
        ):
            nanny = next(iter(lc.workers.values()))
            pid = nanny.process.pid

            def kill_when_busy() -> None:  # as soon as the worker has a block in hand
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline and not any(client.processing().values()):
                    time.sleep(0.05)
                time.sleep(0.3)
                os.kill(pid, signal.SIGKILL)

            killer = threading.Thread(target=kill_when_busy, daemon=True)
            killer.start()
            bots = ["RANDOM", SLOW]  # 5 ms a decision: a block of 4 boards takes about 2 s
            cfg = Config.build(
                ruleset="feskot", bots=bots, boards=8, seed=1, block=4, backend="dask", scheduler=lc.scheduler_address
            )
            with pytest.raises(TournamentError) as err:
                run_tournament(cfg, tmp_path / "run", quiet=True)
            killer.join()
    assert str(err.value) == (
        "a Dask worker died at RANDOM vs HIGHEST, boards 0..3: it was killed by SIGKILL; "
        "stored results are kept, rerun to resume"
    )


@pytest.mark.parametrize("made", [(), ("run.sqlite",)])
def test_a_run_that_loses_the_race_for_a_new_dir_is_told_it_is_in_use(tmp_path, made):
    """What the loser sees while the winner creates DIR: the lock held, and no configuration yet."""
    import fcntl

    run = tmp_path / "run"
    run.mkdir()
    for name in made:
        (run / name).write_bytes(b"")
    with open(run / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(TournamentError, match=r"is in use by another running tournament \(locked\)$"):
            Store.create_or_resume(run, Config.build(ruleset="feskot", bots=["RANDOM", "GREEDY"]).identity())
    assert sorted(p.name for p in run.iterdir()) == sorted([".lock", *made])


FOLLOWER = """
import os, sys, time
from tekkasim.tournament import backends
parent = os.getpid()
child = os.fork()
if child == 0:
    sys.platform = "darwin"  # no prctl: only the watching thread can end it
    backends._follow_parent(parent)
    time.sleep(60)
    os._exit(0)
print(child, flush=True)
time.sleep(60)
"""


def test_without_prctl_a_worker_still_dies_soon_after_its_parent(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", FOLLOWER], env=env, stdout=subprocess.PIPE, text=True)
    child = int(proc.stdout.readline())
    time.sleep(0.3)
    assert alive({child}) == {child}
    proc.kill()
    proc.wait()
    assert gone_within({child}, 2.0) == set()


def session(sid: int) -> set[int]:
    """Live processes of the session ``sid`` (a run started with ``start_new_session`` and all it started)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                found.add(int(entry))
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    "when, sig",
    [
        ("importing", signal.SIGINT),
        ("workers starting", signal.SIGINT),
        ("workers starting", signal.SIGTERM),
        ("cluster up", signal.SIGINT),
    ],
)
def test_a_signal_while_the_dask_backend_starts_is_one_line_and_the_rerun_resumes(tmp_path, when, sig):
    """Ctrl-C (to the process group) or SIGTERM (to the runner) while the command imports, while the local
    Dask cluster's worker processes start, and once they run (the job scattered, blocks submitted): the
    one `interrupted` line, exit 130 / 143, no process left, and the same command then completes."""
    pytest.importorskip("distributed")
    run = tmp_path / "run"
    argv = ["-r", "feskot", "-b", "RANDOM,GREEDY", "-n", "40", "-s", "5", "--backend", "dask", "-w", "2", "-q"]
    cmd = [sys.executable, "-m", "tekkasim", "tournament", *argv, "--out", str(run)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    if when == "importing":
        time.sleep(0.3)
    else:  # the first worker process appears, or (cluster up) both run and have imported (0.5 s later)
        want = 1 if when == "workers starting" else 2
        while len(children(proc.pid)) < want and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.01)
        if when == "cluster up":
            time.sleep(0.5)
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)
    else:
        os.kill(proc.pid, sig)
    out, err = proc.communicate(timeout=120)
    lines = err.decode().splitlines()
    assert proc.returncode == 128 + sig, lines
    assert len(lines) == 1 and lines[0].startswith("interrupted"), lines
    assert gone_within(session(proc.pid), 3.0) == set()
    again = subprocess.run(cmd, env=env, capture_output=True, timeout=300)
    assert again.returncode == 0, again.stderr.decode()
    reference = tmp_path / "reference"
    cfg = Config.build(ruleset="feskot", bots=["RANDOM", "GREEDY"], boards=40, seed=5, workers=1)
    run_tournament(cfg, reference, quiet=True)
    assert stored(run) == stored(reference)


@pytest.mark.parametrize("entry", ["module", "script"])
def test_ctrl_c_while_the_command_loads_is_one_line(tmp_path, entry):
    """A Ctrl-C that lands while the command still imports its CLI (a loaded machine: seen in CI, where the
    signal 0.3 s after start met `import click`) is the one `interrupted` line and exit 130. Here a `click`
    that sleeps as it loads holds the import open for the signal."""
    slow = tmp_path / "slow"
    slow.mkdir()
    (slow / "click.py").write_text("import sys, time\nprint('loading', file=sys.stderr, flush=True)\ntime.sleep(30)\n")
    if entry == "module":
        cmd = [sys.executable, "-m", "tekkasim", "rules"]
    else:
        script = Path(sys.executable).parent / "tekkasim"
        if not script.exists():
            pytest.skip("no tekkasim console script beside this Python")
        cmd = [str(script), "rules"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(slow), str(ROOT)]))
    proc = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stderr.readline().decode().strip() == "loading"  # inside `import click`, under the CLI's import
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    lines = err.decode().splitlines()
    assert proc.returncode == 130, lines
    assert lines == ["interrupted: stopped by Ctrl-C (SIGINT); run the same command again (a tournament resumes)"]
