"""Where blocks of boards are played: local worker processes watched by the runner, or a Dask cluster.

Local backend: ``multiprocess`` processes (forked, so a bot defined in a script or notebook reaches them,
and the kernels the parent has loaded need no compiling), one pipe each. The parent hands each idle
worker one block at a time and waits on the pipes and the processes' sentinels together, so a worker
that dies or is killed is noticed at once: its block goes back to the queue and a new worker takes its
place (a plain pool would wait forever). Workers send a heartbeat (board, table) at most every half
second; a worker with no heartbeat for ``timeout`` seconds is taken to hang and stops the run, the message
naming the table and the bot deciding there (written by the worker in memory shared with the parent).
Workers die with the parent however it ends, hold no copy of the run's lock, and leave Ctrl-C to it.

Dask backend: the same ``play_block`` calls as futures on a ``dask.distributed`` cluster (a local one
when no scheduler address is given); Dask itself re-runs the tasks of a lost worker. A Dask worker
seating engines plays each block with them on one core, as a local worker does (:func:`_dask_block`). To use real
machines, install ``tekkasim[dask]`` (and any user bot's package) on each, start ``dask scheduler`` on one
and ``dask worker tcp://HOST:8786 --nthreads 1`` on the others, then run
``tekkasim tournament ... --backend dask --scheduler tcp://HOST:8786``: the results stored in DIR are the
same as a local run's.

Either way the parent is the only writer: ``on_rows(block, rows)`` is called in the parent.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable

from ..bots.engines import affinity
from ..bots.engines.host import stop_engines, watch_sessions
from ..errors import BotError, TekkasimError
from .config import TournamentError
from .play import SEAT_NAMES, Job, context, play_block
from .storage import HELD_LOCK_FDS

Block = tuple[int, int, int]
MAX_DEATHS_PER_BLOCK = 3


def _send(conn, msg) -> None:
    """A message between the parent and a worker, pickled by the standard library: ``conn.send`` pickles
    with dill's pure-Python pickler, which cost more than a compiled deal a stored row, many times what
    this costs, and much of the parent's CPU to hand out a block (found with cProfile). What
    they send is only plain data (blocks' bounds, rows, counters, error text, None to stop)."""
    conn.send_bytes(pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL))


# Workers run at a lower priority than the parent, which stores every row: when storing is the slower
# stage (a compiled match-up's rows cost the parent a good part of a deal's time in SQLite), two workers on
# two cores otherwise starve it and play no faster than one; niced, they take what it leaves, up to the CPU
# ceiling (the 2-worker speed-ups: docs/benchmarks.md, section tournament). Other match-ups keep the parent
# idle and lose nothing. With Linux's autogroup scheduling (the default on most desktops), nice only orders
# processes of one session; without it, the workers also give way to other busy processes on the machine,
# as a batch job should.
WORKER_NICE = 10


# Where a worker is, in memory it shares with the parent (written without a syscall, read by the parent
# when the worker dies or the watchdog fires): the block it plays, the board and table it started last (-1
# in a compiled block, which plays without stopping between tables), and the bot deciding now (team,
# member, seat, since when; team -1 between decisions). Then the pids of the engines it runs (0: none), each
# its engine's session: the parent ends them after the worker, with whatever they started (a killed worker's
# engines die with it, PR_SET_PDEATHSIG, but not their own children).
BLOCK, BOARD, TABLE, TEAM, MEMBER, SEAT, SINCE = range(7)
ENGINES, ENGINE_SLOTS = 7, 8
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters
_KEEP_BYTES = 64 << 20  # blocks' arrays below this come from (and go back to) the worker's heap
PARENT_POLL = 0.25  # seconds between a worker's checks that its parent lives (where Linux cannot say)
_PR_SET_PDEATHSIG = 1


def _follow_parent(parent_pid: int) -> None:
    """Make this worker die with the runner that forked it, however the runner ends (``kill -9`` too):
    a worker busy in a block never reads its pipe, and an idle one may never see it close, since the
    workers forked later hold copies of its other end. On Linux the kernel sends SIGKILL when the parent
    exits; elsewhere (or if prctl fails) a thread watches for the worker being handed to another parent."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before prctl took hold
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="tekkasim-parent-watch", daemon=True).start()


def _reuse_freed_memory() -> None:
    """Have glibc keep the memory of freed blocks for the next one instead of unmapping it: each compiled
    block allocates arrays, and a worker that gets them fresh from the kernel every time takes hundreds of
    page faults a block, which cost it much of its CPU a deal (the worker's CPU a deal against the bare
    loop's: docs/benchmarks.md, section tournament). Elsewhere nothing changes."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(_M_MMAP_THRESHOLD, _KEEP_BYTES)
        libc.mallopt(_M_TRIM_THRESHOLD, _KEEP_BYTES)
    except (OSError, AttributeError):  # not glibc
        pass


def _drop_locks() -> None:
    """Let go of the parent's run lock: flock belongs to the open file, which the fork shared, so a worker
    holding a copy would keep DIR locked after its parent died. The numbers are pointed at /dev/null
    rather than closed because the inherited file objects still own them: a closed number could be
    reused by this worker and later closed under the new owner."""
    if not HELD_LOCK_FDS:
        return
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        for fd in HELD_LOCK_FDS:
            os.dup2(null, fd)
    finally:
        os.close(null)


def _watch_bots(job: Job, where) -> None:
    """Wrap each bot's ``act`` in this worker so that ``where`` names the bot deciding now: the watchdog
    then says which bot hangs."""
    ctx = context(job)
    for t, team in enumerate(ctx.bots):
        for m, bot in enumerate(team):
            # ``act``, and an engine's decisions in the host's Feskot/Tekka loop (bots.engines.table52)
            for name, seat_arg in (("act", None), ("play_decision", 1), ("choose_prime", 1), ("auction_call", 1)):
                method = getattr(bot, name, None)
                if method is None:
                    continue

                def watched(*args, _method=method, _t=t, _m=m, _seat_arg=seat_arg):
                    seat = args[0].seat if _seat_arg is None else args[_seat_arg]
                    where[MEMBER], where[SEAT], where[SINCE] = _m, seat, time.monotonic()
                    where[TEAM] = _t
                    try:
                        return _method(*args)
                    finally:
                        where[TEAM] = -1

                try:
                    setattr(bot, name, watched)
                except AttributeError:  # a bot with __slots__: the watchdog names the table only
                    pass


def _seats_engine(job: Job) -> bool:
    try:
        return any(b.kind == "engine" for team in context(job).bots for b in team)
    except Exception:  # noqa: BLE001 - a bot that cannot be built fails in its block, with its one line
        return False


def _worker_main(job: Job, conn, parent_pid: int, where, core: int | None = None) -> None:
    # SIGINT and SIGTERM stay blocked from the fork until here (see _Worker.__init__): a terminal's Ctrl-C
    # reaches every process of the group, and the parent alone answers it (then stops its workers)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the handler the parent's runner installed
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    _follow_parent(parent_pid)

    def sessions(pids: list[int]) -> None:
        for i in range(ENGINE_SLOTS):
            where[ENGINES + i] = pids[i] if i < len(pids) else 0

    watch_sessions(sessions)
    _drop_locks()
    _reuse_freed_memory()
    try:
        os.nice(WORKER_NICE)
    except OSError:  # not permitted here: run at the parent's priority
        pass
    if core is not None and _seats_engine(job):
        # with its engines on one core (they inherit it): they take turns, and a wake-up on another
        # core costs more than the turn (bots.engines.affinity)
        affinity.pin(0, [core])
    last = [0.0]

    def beat(board: int, table: int) -> None:
        where[BOARD], where[TABLE] = board, table
        now = time.monotonic()
        if now - last[0] >= 0.5:
            last[0] = now
            _send(conn, ("beat", board, table))

    try:
        _serve(job, conn, where, beat)
    finally:
        stop_engines()  # a worker's exit runs no atexit hook (multiprocess ends it with os._exit)


def _serve(job: Job, conn, where, beat) -> None:
    watched = False
    while True:
        try:
            msg = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        if msg is None:
            return
        block_id, block = msg
        where[BLOCK], where[BOARD], where[TEAM] = block_id, -1, -1
        try:
            if not watched:
                _watch_bots(job, where)
                watched = True
            rows = play_block(job, block, beat, compact=True)
        except TekkasimError as exc:
            _send(conn, ("error", type(exc).__name__, str(exc)))
            continue
        except Exception as exc:  # a bug in a bot outside decide(), or in the engine: still one line
            _send(
                conn,
                (
                    "error",
                    "TournamentError",
                    f"worker failed on pairing {block[0]}, boards {block[1]}.."
                    f"{block[2] - 1}: {type(exc).__name__}: {exc}",
                ),
            )
            continue
        _send(conn, ("rows", block_id, rows))


def _exit_text(code: int | None) -> str:
    """How a worker ended, from its exit status: ``was killed by SIGKILL``, ``ended with exit code 3``."""
    if code is None:
        return "closed its pipe but still ran"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"ended with exit code {code}"


class _Worker:
    def __init__(self, ctx, job: Job, index: int = 0, cores: list[int] | None = None):
        parent, child = ctx.Pipe(duplex=True)
        self.conn = parent
        self.where = ctx.RawArray("d", ENGINES + ENGINE_SLOTS)
        self.where[BLOCK] = -1
        self.where[TEAM] = -1
        self.index = index  # its place in the pool (a replacement takes the same): its core, with engines
        core = affinity.core_for(index, cores or [])
        args = (job, child, os.getpid(), self.where, core)
        self.proc = ctx.Process(target=_worker_main, args=args, daemon=True)
        # the child starts with SIGINT and SIGTERM blocked, and ignores or defaults them before unblocking:
        # a Ctrl-C in its first moments must not print a KeyboardInterrupt traceback from it
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:
            self.proc.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        child.close()
        self.blocks: deque[tuple[int, Block]] = deque()  # sent, not answered yet; the first is being played
        self.beat = time.monotonic()
        self.released = False  # told to exit: nothing is left to hand it

    def release(self) -> None:
        """Let this idle worker exit now that no block is left for it: its exit (a large process's
        teardown) overlaps the parent's storing of the last blocks instead of following it."""
        self.released = True
        try:
            _send(self.conn, None)
        except OSError:  # it died meanwhile: nothing to tell
            pass

    def at(self, describe: Callable, labels: tuple) -> tuple[str, str]:
        """Where this worker is (the board and table it started last, or its block when compiled), and
        the bot deciding there (or ``""``), from what it wrote in shared memory."""
        block_id, block = self.blocks[0]
        w = self.where
        if w[BLOCK] != block_id or w[BOARD] < 0:
            return describe(block, None, None), ""
        place = describe(block, int(w[BOARD]), int(w[TABLE]))
        team = int(w[TEAM])
        if team < 0:
            return place, ""
        bot, seat = labels[team][int(w[MEMBER])], SEAT_NAMES[int(w[SEAT])]
        return place, f"bot {bot} ({seat}) has been deciding for {time.monotonic() - w[SINCE]:.1f} s"

    def stop(self, kill: bool = False) -> None:
        if self.proc.is_alive():
            if kill:
                self.proc.kill()
            else:
                try:
                    _send(self.conn, None)
                except OSError:
                    pass
        self.proc.join(timeout=2 if not kill else 5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(timeout=5)
        self.conn.close()
        if not self.proc.is_alive():  # the sessions of the engines it left running, with all they started
            for i in range(ENGINE_SLOTS):
                pid, self.where[ENGINES + i] = int(self.where[ENGINES + i]), 0
                if pid > 0:
                    try:
                        os.killpg(pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass


def run_local(
    job: Job,
    blocks: list[Block],
    workers: int,
    on_rows: Callable,
    timeout: float,
    describe: Callable[[Block, int | None, int | None], str],
    stopped: Callable[[], bool] = lambda: False,
) -> dict:
    """Play ``blocks`` on ``workers`` local processes; ``on_rows(block, rows)`` in this process as each
    block completes; ``describe(block, board, table)`` says where a worker is in messages (``board`` None:
    somewhere in the block). ``stopped()`` is asked at least twice a second: True raises ``KeyboardInterrupt``.
    Returns counters (``restarts``). No worker outlives the call, whatever ends it."""
    import multiprocess
    from multiprocess.connection import wait

    ctx = multiprocess.get_context("fork")
    queue: deque[tuple[int, Block]] = deque(enumerate(blocks))
    deaths: dict[int, int] = {}
    cores = affinity.allowed_cores()  # worker i on cores[i % len(cores)] when it seats engines
    pool = [_Worker(ctx, job, i, cores) for i in range(min(workers, len(blocks)))]
    restarts = 0
    try:

        def top_up(w: _Worker) -> None:
            # two blocks per worker: the next one waits in its pipe while the parent stores
            while len(w.blocks) < 2 and queue and not w.released:
                if not w.blocks:
                    w.beat = time.monotonic()
                w.blocks.append(queue.popleft())
                try:
                    _send(w.conn, w.blocks[-1])
                except OSError:  # it died: its sentinel says so, and its blocks go back to the queue then
                    return
            if not w.blocks and not queue and not w.released:  # (called before the parent stores its last)
                w.release()

        while queue or any(w.blocks for w in pool):
            if stopped():
                raise KeyboardInterrupt
            for w in pool:
                top_up(w)
            busy = [w for w in pool if w.blocks]
            live = [w.proc.sentinel for w in pool if not w.released]
            ready = set(wait([w.conn for w in busy] + live, timeout=0.5))
            for i, w in enumerate(list(pool)):
                if w.released:  # it exits (or has exited) as told; a death then is not one
                    continue
                dead = w.proc.sentinel in ready
                if w.conn in ready or dead:
                    try:
                        while w.conn.poll():
                            _handle(w, pickle.loads(w.conn.recv_bytes()), on_rows, top_up)
                    except (EOFError, OSError):
                        dead = True
                if dead or not w.proc.is_alive():
                    if w.blocks:  # its blocks go back to the front of the queue
                        n = deaths[w.blocks[0][0]] = deaths.get(w.blocks[0][0], 0) + 1
                        if n >= MAX_DEATHS_PER_BLOCK:
                            place, bot = w.at(describe, job.labels)
                            w.proc.join(timeout=1)  # its sentinel closes before it can be reaped
                            raise TournamentError(
                                f"a worker died {n} times at {place}{f' ({bot})' if bot else ''}, "
                                f"the last one {_exit_text(w.proc.exitcode)}; stored results are kept"
                            )
                        queue.extendleft(reversed(w.blocks))
                    w.blocks.clear()
                    w.stop(kill=True)
                    pool[i] = _Worker(ctx, job, w.index, cores)
                    restarts += 1
            now = time.monotonic()
            for w in pool:
                if w.blocks and now - w.beat > timeout:
                    place, bot = w.at(describe, job.labels)
                    raise TournamentError(
                        f"watchdog: no progress for {timeout:g} s at {place}: "
                        f"{bot or 'no bot was deciding (the engine or a compiled block is stuck?)'}; "
                        "stored results are kept, rerun to resume"
                    )
    finally:
        for w in pool:
            w.stop(kill=True)
    return {"restarts": restarts}


def _handle(w: _Worker, msg: tuple, on_rows: Callable, top_up: Callable) -> None:
    kind = msg[0]
    if kind == "beat":
        w.beat = time.monotonic()
    elif kind == "rows":
        block_id, block = w.blocks.popleft()
        assert block_id == msg[1], "a worker answers its blocks in order"
        top_up(w)  # before storing: a worker never waits for the parent's SQLite to get its next block
        on_rows(block, msg[2])
        w.beat = time.monotonic()  # the next block starts now
    elif kind == "error":
        cls = BotError if msg[1] == "BotError" else TournamentError
        raise cls(msg[2])


# Run by each worker of a local Dask cluster as it starts (Dask takes text with a space for a script): a
# terminal's Ctrl-C reaches the whole process group, and the runner alone answers it, closing the cluster.
_IGNORE_SIGINT = "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)"


class DaskCluster:
    """A client of the Dask cluster at ``scheduler``, or of a local cluster of ``workers`` processes;
    connected on creation (an unreachable scheduler is one line before anything is stored)."""

    def __init__(self, workers: int, scheduler: str | None):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise TournamentError("the dask backend needs dask.distributed: pip install 'tekkasim[dask]'") from None
        from . import _dask_exits

        self.cluster = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout=5)
            except (OSError, TimeoutError, ValueError) as exc:
                first = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
                raise TournamentError(f"cannot reach the Dask scheduler at {scheduler!r}: {first}") from None
        else:
            # A terminal's Ctrl-C reaches the whole process group, and a worker process still importing
            # (before its preload ignores SIGINT) prints a KeyboardInterrupt traceback, or Python's "Failed
            # to import the site module", and fails the cluster's start. The workers started here therefore
            # get SIGINT blocked where the cluster's thread starts them (so it waits until their preload
            # ignores it) and stderr pointed at /dev/null: they report through their tasks (and their
            # nanny's exit status, _dask_exits), never by printing. This process's stderr comes back at once.
            mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            sys.stderr.flush()
            saved = os.dup(2)
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, 2)
                self.cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=50,
                    preload=[_IGNORE_SIGINT],
                )
            finally:
                os.dup2(saved, 2)
                os.close(saved)
                os.close(null)
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            try:
                self.client = Client(self.cluster)
            except BaseException:
                self.cluster.close()  # its worker processes must not outlive a failed start
                raise
        _dask_exits.register(self.client)  # so that a dead worker is reported with its exit status

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def run_dask(
    job: Job,
    blocks: list[Block],
    cluster: DaskCluster,
    on_rows: Callable,
    timeout: float,
    describe: Callable,
    stopped: Callable[[], bool] = lambda: False,
) -> dict:
    """Play ``blocks`` as futures on a Dask cluster; ``stopped()`` as for :func:`run_local`. A task that
    fails other than with a tekkasim error (its workers died, the cluster went away, a bot failed outside
    its decisions) is one line naming the block."""
    from dask.distributed import wait

    client = cluster.client
    futures: dict = {}
    try:
        try:
            job_f = client.scatter(job, broadcast=True)
            pin = affinity.enabled()  # TEKKASIM_PIN_ENGINES=0 here turns it off on every worker
            slots = _dask_slots(client) if pin else {}
            futures = {client.submit(_dask_block, job_f, b, slots, pin, pure=False): b for b in blocks}
        except Exception as exc:  # noqa: BLE001 - whatever Dask raises, the user gets one line
            raise TournamentError(_dask_failure(exc, None, describe)) from None
        pending = set(futures)
        last = time.monotonic()
        while pending:
            if stopped():
                raise KeyboardInterrupt
            try:
                done, pending = wait(pending, timeout=0.5, return_when="FIRST_COMPLETED")
            except TimeoutError:  # dask's wait() says that nothing finished in that half second
                if time.monotonic() - last > timeout:
                    raise TournamentError(
                        f"watchdog: no block finished for {timeout:g} s on the Dask cluster (a bot hangs?); "
                        "stored results are kept, rerun to resume"
                    ) from None
                continue
            except Exception as exc:  # noqa: BLE001 - e.g. FuturesCancelledError, a cluster that went away
                raise TournamentError(_dask_failure(exc, None, describe)) from None
            last = time.monotonic()
            for fut in sorted(done, key=lambda f: futures[f]):
                block = futures[fut]
                try:
                    rows = fut.result()
                except TekkasimError:  # raised in the task (a bot's error): its own line
                    raise
                except Exception as exc:  # noqa: BLE001 - KilledWorker, or a failure outside the bots' decisions
                    raise TournamentError(_dask_failure(exc, block, describe, client)) from None
                on_rows(block, rows)
    finally:
        client.cancel(list(futures))
    return {"restarts": 0}


def _dask_slots(client) -> dict[str, int]:
    """Each Dask worker's slot: its place among the workers of its machine, by name (a local cluster's
    workers are named 0, 1, ...), then address. A worker seating engines plays on the core of its slot,
    round robin over the CPUs it may use, so that the workers of one machine take different cores."""
    try:
        try:
            workers = client.scheduler_info(n_workers=-1)["workers"]
        except TypeError:  # a distributed that lists every worker without being asked
            workers = client.scheduler_info()["workers"]
    except Exception:  # noqa: BLE001 - no slots: the workers are left to the scheduler (the run goes on)
        return {}

    def order(item):
        address, info = item
        name = info.get("name")
        return (0, name, address) if isinstance(name, int) else (1, str(name), address)

    slots: dict[str, int] = {}
    taken: dict[str, int] = {}
    for address, info in sorted(workers.items(), key=order):
        host = info.get("host") or address.rsplit(":", 1)[0]
        slots[address] = taken[host] = taken.get(host, -1) + 1
    return slots


def _dask_slot(slots: dict[str, int]) -> int | None:
    """This Dask worker's slot (:func:`_dask_slots`), or None where it cannot be told: a worker that joined
    after the run began (a local cluster's worker restarted by its nanny keeps its name, hence its slot),
    or one that runs several tasks at once (one core would not do for them)."""
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):  # not in a Dask worker
        return None
    if getattr(worker, "nthreads", 1) != 1:
        return None
    slot = slots.get(worker.address)
    if slot is None and isinstance(worker.name, int):
        slot = worker.name
    return slot


def _dask_block(job: Job, block: Block, slots: dict[str, int], pin: bool):
    """``play_block`` as a Dask task. A worker seating engines plays the block with them on one core, as a
    local worker does (they take turns; bots.engines.affinity): the core of its slot on its machine. The
    CPUs are given back after the block: a cluster's worker may go on to serve other runs."""
    index = _dask_slot(slots) if pin and _seats_engine(job) else None
    with affinity.pinned(index is not None, index):
        return play_block(job, block, compact=True)


def _dask_failure(exc: Exception, block: Block | None, describe: Callable, client=None) -> str:
    where = describe(block, None, None) if block is not None else "a block"
    name = type(exc).__name__
    if name == "KilledWorker":  # the scheduler gave up on a task whose workers kept dying
        allowed = getattr(exc, "allowed_failures", None)
        deaths = allowed + 1 if isinstance(allowed, int) else 0
        status = _killed_worker_status(exc, client)
        if deaths > 1:  # the scheduler retried it on other workers first
            what = f"a Dask worker died {deaths} times at {where}, the last one {status}"
        else:
            what = f"a Dask worker died at {where}: it {status}"
    elif "Cancelled" in name:  # the cluster dropped the run's tasks (its scheduler or workers were lost)
        what = f"the Dask cluster cancelled the run's tasks (waiting for {where})"
    else:  # a bot or the engine failed in the task outside its decisions
        first = str(exc).splitlines()[0] if str(exc) else ""
        what = f"a Dask task failed at {where} with {name}: {first}"
    return f"{what}; stored results are kept, rerun to resume"


def _killed_worker_status(exc, client) -> str:
    """How the last worker of a ``KilledWorker`` ended, from what its nanny logged (``_dask_exits``)."""
    from . import _dask_exits

    worker = getattr(exc, "last_worker", None)
    address = getattr(worker, "address", None)
    code = _dask_exits.exit_status(client, address) if client is not None else None
    if code is None:  # a worker without a nanny, or a scheduler that refused the plugin
        return f"ended with an exit status no nanny reported (worker {address})"
    return _exit_text(code)


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1
