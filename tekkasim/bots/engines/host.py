"""Engines as bots: a program speaking the engine protocol (spec/engine.md), driven through its pipes.

``get_bot("engine:COMMAND")`` gives an :class:`EngineBot`. COMMAND is split as a shell would split it
(``shlex``; no shell runs). The program is started on first use and reused: one process per command in
each process that uses it (each tournament worker starts its own), restarted on the next decision after
a fault, and stopped at the end (``quit``, stdin closed, killed after 2 s), at interpreter exit, and when
its starter dies (``PR_SET_PDEATHSIG``: the kernel kills it with its parent, even after ``kill -9``). It
runs in a session of its own, so Ctrl-C at the terminal reaches the host, which stops it, and a stop
kills whatever it started too. Its stderr goes to a log file: ``<run dir>/engines/`` in a tournament
(:func:`set_log_dir`), else ``$TEKKASIM_ENGINE_LOGS`` or ``<tmp>/tekkasim-engines``.

Faults (spec/engine.md): no answer within ``time_ms`` plus :data:`GRACE_MS` (:data:`FIRST_GRACE_MS` for
the first decision after a start, which may load a model or compile), an exit, a line that is not an
action message for this decision, or an action that is not allowed: the engine is stopped and the
decision raises ``BotError`` with one line naming the engine, the decision (trick, play and seat) and the
fault; a tournament adds the board and table.

Each decision is one ``write`` and (as a rule) one blocking ``read`` on the pipes: a ``poll`` before the
read, to wait with a timeout, made the round trip markedly slower on the wall clock. The deadline is kept
instead by :class:`_Watchdog`, a thread of the host that kills an engine whose answer is late, which ends
the host's read.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from ...errors import BotError, shorten
from ...rules.base import State
from ..base import Bot, Param, View
from .protocol import PROTOCOL, decide_message

HELLO_TIMEOUT = 10.0  # seconds for the hello answer (engine.md)
QUIT_TIMEOUT = 2.0  # seconds an engine has to exit after quit (engine.md)
GRACE_MS = 1000  # beyond time_ms: a loaded 2-core machine can hold a ready answer back for a scheduler tick
FIRST_GRACE_MS = 60_000  # the first decision after a start may load a model or compile kernels
LOG_ENV = "TEKKASIM_ENGINE_LOGS"


def set_log_dir(path: str | Path) -> None:
    """Send the stderr of engines started from now on (here and in worker processes started later) to
    ``path``; engines already running in this process are stopped, to restart there on their next use."""
    if os.environ.get(LOG_ENV) == str(path):
        return
    os.environ[LOG_ENV] = str(path)
    for proc in list(_PROCESSES.values()):
        proc.stop()


_SESSION_HOOKS: list = []  # called with running_engine_pids() whenever an engine of this process starts or stops


def watch_sessions(hook) -> None:
    """Call ``hook(pids)`` with the pids of this process's running engines (each also the id of the engine's
    session and process group) whenever one starts or stops: a process that may be killed before it can
    stop its engines (a tournament worker) leaves them where its parent can end their sessions, whatever
    the engines started included."""
    _SESSION_HOOKS.append(hook)


def _sessions_changed() -> None:
    if _SESSION_HOOKS:
        pids = running_engine_pids()
        for hook in _SESSION_HOOKS:
            hook(pids)


def _log_dir() -> Path:
    return Path(os.environ.get(LOG_ENV) or Path(tempfile.gettempdir()) / "tekkasim-engines")


def _die_with_parent() -> None:  # runs in the child between fork and exec
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the host's atexit and the closed stdin remain
        pass


class EngineFault(Exception):
    """What went wrong with an engine, in a few words (becomes the end of a BotError line)."""


_PID = [os.getpid()]  # this process's pid, kept up to date across forks (no getpid call per decision)
WATCH_TICK = 0.05  # seconds between the watchdog's looks at the engines' deadlines


class _Watchdog:
    """A daemon thread that stops the engines of this process whose answer is late.

    The host waits for an answer in a plain blocking ``read`` (the fastest round trip); before it writes
    a decide message it sets the engine's deadline. Every :data:`WATCH_TICK` this thread looks at the
    deadlines and kills the session of an engine past its own, which ends the host's read with the end of
    the engine's output; the engine is marked ``late`` and the host reports that fault. A read that
    returns in time clears the deadline under the engine's lock, so an answer is either taken or late,
    never both. Started once per process (again in a forked child: threads do not survive a fork)."""

    owner = -1
    lock = threading.Lock()

    @classmethod
    def ensure(cls) -> None:
        if cls.owner == _PID[0]:
            return
        with cls.lock:
            if cls.owner != _PID[0]:
                cls.owner = _PID[0]
                threading.Thread(target=cls._run, name="tekkasim-engine-watchdog", daemon=True).start()

    @staticmethod
    def _run() -> None:
        me = _PID[0]
        while _PID[0] == me:
            time.sleep(WATCH_TICK)
            now = time.monotonic()
            for proc in list(_PROCESSES.values()):
                if proc.deadline and now > proc.deadline:
                    proc.expire(now)


def _after_fork() -> None:
    _PID[0] = os.getpid()
    _Watchdog.lock = threading.Lock()  # a lock held by another thread at the fork would never be released
    for proc in _PROCESSES.values():
        proc.lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork)


class EngineProcess:
    """One running engine: its pipes, its hello, and a line reader with a deadline."""

    def __init__(self, command: str):
        self.command = command
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise BotError(f"engine command {shorten(command)!r} cannot be split: {exc}") from None
        if not self.argv:
            raise BotError("engine: needs a command, e.g. engine:./my_engine or engine:python3 my_engine.py")
        exe = self.argv[0]
        path = shutil.which(exe) if os.sep not in exe else (exe if os.path.exists(exe) else None)
        if path is None:
            raise BotError(f"engine {shorten(command)!r}: {exe!r} does not exist")
        if os.path.isdir(path) or not os.access(path, os.X_OK):
            raise BotError(f"engine {shorten(command)!r}: {exe!r} is not executable")
        self.proc: subprocess.Popen | None = None
        self.pid_owner = _PID[0]
        self.hello: dict = {}
        self.fresh = True
        self.log_path: Path | None = None
        self._buf = b""
        self.deadline = 0.0  # time.monotonic() by which the answer being waited for is due; 0: none
        self.late = False  # the watchdog stopped the engine for a late answer
        self.lock = threading.Lock()
        self._in = self._out = -1  # the pipes' file descriptors

    @property
    def name(self) -> str:
        return self.hello.get("name") or self.command

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> dict:
        """Start the program and exchange hellos; return the engine's hello."""
        self.stop()
        log_dir = _log_dir()
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BotError(
                f"engine {shorten(self.command)!r}: cannot make its log directory {log_dir}: {exc.strerror}"
            ) from None
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(self.argv[-1]).name)[:40] or "engine"
        self.log_path = log_dir / f"{slug}-{os.getpid()}-{int(time.time() * 1000) % 10**8}.log"
        with open(self.log_path, "ab") as log:
            try:
                self.proc = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    bufsize=0,
                    preexec_fn=_die_with_parent,
                    start_new_session=True,
                    close_fds=True,
                )
            except OSError as exc:
                raise BotError(f"engine {shorten(self.command)!r} cannot start: {exc.strerror or exc}") from None
        self.pid_owner = _PID[0]
        _sessions_changed()
        self._buf = b""
        self._in, self._out = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        self.late = False
        self.fresh = True
        _Watchdog.ensure()
        try:
            line = self.ask(b'{"type": "hello", "protocol": %d}\n' % PROTOCOL, time.monotonic() + HELLO_TIMEOUT)
        except EngineFault as exc:
            tail = self._stderr_tail()  # before the stop, whose broken pipe the engine may report there too
            self.stop()
            raise BotError(f"engine {shorten(self.command)!r} gave no hello: {exc}{tail}") from None
        hello = _parse(line)
        problem = _hello_problem(hello)
        if problem:
            tail = self._stderr_tail()
            self.stop()
            raise BotError(
                f"engine {shorten(self.command)!r}: bad hello ({problem}): {shorten(line.decode(errors='replace'))}"
                + tail
            )
        self.hello = hello
        return hello

    def _stderr_tail(self) -> str:
        """The last line the engine wrote to its stderr and where the rest is, for a failed start: why
        it failed is often there (a script the interpreter cannot open, a missing library)."""
        try:
            lines = self.log_path.read_bytes()[-4096:].decode(errors="replace").strip().splitlines()
        except (OSError, AttributeError):
            return ""
        end = lines[-1].strip() if lines else ""
        end = end if len(end) <= 160 else "..." + end[-157:]  # the end says why ("[Errno 2] No such file")
        last = f"; its stderr ends: {end}" if end else ""
        return f"{last} (log: {self.log_path})"

    def ask(self, message: bytes, deadline: float) -> bytes:
        """Send one message (a line of bytes) and return the engine's next line, due by ``deadline``
        (``time.monotonic``): one write and, when the answer is a whole line, one read."""
        self.deadline = deadline  # from now on the watchdog may stop the engine
        try:
            try:
                while message:
                    message = message[os.write(self._in, message) :]
            except OSError:  # BrokenPipeError: it exited, or the watchdog stopped it (a write it did not read)
                raise EngineFault("no answer in time" if self.late else self._exit_text()) from None
            line = self._read_line()
        finally:
            with self.lock:
                self.deadline = 0.0
                late = self.late
        if late:
            raise EngineFault("no answer in time")
        return line

    def _read_line(self) -> bytes:
        buf = self._buf
        while True:
            end = buf.find(b"\n")
            if end >= 0:
                self._buf = buf[end + 1 :]
                return buf[:end]
            chunk = os.read(self._out, 1 << 16)
            if not chunk:
                self._buf = buf
                raise EngineFault("no answer in time" if self.late else self._exit_text())
            buf += chunk

    def expire(self, now: float) -> None:
        """The watchdog's part: stop the engine if its answer is still awaited past its deadline."""
        with self.lock:
            if not self.deadline or now <= self.deadline or self.proc is None:
                return
            self.late = True
            self.deadline = 0.0
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def _exit_text(self) -> str:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited with status {code}" if code >= 0 else f"was killed by signal {-code}"

    def stop(self) -> None:
        """``quit``, close stdin, wait up to 2 s, then kill the engine's whole session."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if self.pid_owner != _PID[0]:  # inherited by a fork: the parent's engine, not ours to stop
            for pipe in (proc.stdin, proc.stdout):
                pipe.close()
            return
        if proc.poll() is None:
            try:
                proc.stdin.write(b'{"type": "quit"}\n')
            except OSError:
                pass
        for pipe in (proc.stdin, proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=QUIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # anything it started, and itself if it did not quit
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        _sessions_changed()


def _parse(line: bytes) -> Any:
    try:
        return json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None


def _hello_problem(hello: Any) -> str | None:
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        return "not a hello message"
    if hello.get("protocol") != PROTOCOL:
        return f"protocol {hello.get('protocol')!r}, expected {PROTOCOL}"
    if not isinstance(hello.get("name"), str) or not hello["name"].strip():
        return "no name"
    name = hello["name"]
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):  # a newline would split a report's line
        return f"its name {shorten(repr(name), 40)} has a control character"
    from .. import bot_names

    # reports would take it for that bot (RANDOM: the ratings' anchor); `tekkasim engine BOT` (author
    # tekkasim) names itself by the label of the built-in bot it serves, which it plays as in process
    if name.split(":")[0].strip().upper() in bot_names() and hello.get("author") != "tekkasim":
        return f"its name {shorten(repr(name), 40)} is a built-in bot's name"
    rulesets = hello.get("rulesets")
    if not isinstance(rulesets, list) or not rulesets or not all(isinstance(r, str) for r in rulesets):
        return "no list of rulesets"
    return None


# command -> its engine process in this process; hello name -> command (two running engines may not share a
# name: reports tell engines apart by it)
_PROCESSES: dict[str, EngineProcess] = {}
_NAMES: dict[str, str] = {}


def split_spec(text: str) -> tuple[str, dict[str, str]]:
    """``engine:COMMAND``'s COMMAND, as ``--bots`` and a config file give it: the command, then parameters of
    :class:`EngineBot` as trailing comma-separated ``name=value`` pieces (``engine:./my_engine,time_ms=200``).
    Returns the command and those parameters; a command's own commas (from a config file) stay."""
    names = {p.name for p in EngineBot.params_spec}
    pieces = text.split(",")
    params: dict[str, str] = {}
    while len(pieces) > 1:
        key, eq, value = pieces[-1].partition("=")
        if not eq or key.strip() not in names:
            break
        params.setdefault(key.strip(), value.strip())  # read from the end: the last one given wins
        pieces.pop()
    return ",".join(pieces), params


def engine_process(command: str) -> EngineProcess:
    """The running engine for ``command`` in this process, started (and its hello checked) if need be."""
    command = command.strip()
    proc = _PROCESSES.get(command)
    if proc is not None and proc.pid_owner != _PID[0]:  # a forked worker: start its own engine
        proc.stop()
        proc = None
    if proc is None:
        proc = _PROCESSES[command] = EngineProcess(command)
    if not proc.running():
        hello = proc.start()
        name = hello["name"].strip()
        other = _NAMES.get(name, command)
        if other != command and other in _PROCESSES and _PROCESSES[other].running():
            proc.stop()
            del _PROCESSES[command]
            raise BotError(
                f"engines {shorten(other)!r} and {shorten(command)!r} both call themselves {name!r} in their hello"
            )
        _NAMES[name] = command
    return proc


def running_engine_pids() -> list[int]:
    """The pids of the engines this process started and that still run."""
    return [p.proc.pid for p in _PROCESSES.values() if p.pid_owner == _PID[0] and p.running()]


@atexit.register
def stop_engines() -> None:
    """Stop every engine this process started."""
    for proc in list(_PROCESSES.values()):
        proc.stop()


class EngineBot(Bot):
    """A bot whose decisions an engine program makes (``engine:COMMAND``). Labelled by its hello's name.

    ``time_ms`` is the time given for each decision (sent in every decide message); on the command line and
    in a config file ``engine:COMMAND,time_ms=200`` (:func:`split_spec`)."""

    kind = "engine"
    description = "an engine program speaking the engine protocol (docs/engines.md)"
    params_spec: ClassVar[tuple[Param, ...]] = (
        Param("time_ms", 1000, "milliseconds the engine has for each decision (plus the host's grace)", 1, 3_600_000),
    )

    def __init__(self, command: str, **params: Any):
        super().__init__(**params)
        self.command = command.strip()
        self.params["command"] = self.command
        # a hello this process has already had will do (also one a forked worker inherited): the engine
        # then starts on its first decision, so a tournament's parent holds no idle engine through the run
        proc = _PROCESSES.get(self.command)
        if proc is None or not proc.hello:
            proc = engine_process(self.command)
        self.name = proc.hello["name"].strip()
        self.rulesets = tuple(proc.hello["rulesets"])
        self.world = proc.hello.get("world") is True
        self.description = f"engine {self.name}: {shorten(self.command)}"
        self._ident = 0
        self._proc: EngineProcess | None = None  # the engine process of the last decision
        self._observations: dict = {}  # seat -> what decide_message keeps to bring the next observation up to date

    @property
    def label(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"get_bot({'engine:' + self.command!r})"

    def act(self, view: View, rng) -> Any:
        state = view._state
        seed = int(rng[0])  # the seed of this decision, as an in-process bot gets it (rng is new_rng(seed))
        self._ident += 1
        ident = self._ident
        time_ms = self.params["time_ms"]
        line, allowed = decide_message(
            view, ident, state.game.name, state.game.options, time_ms, seed, self.world, self._observations
        )
        return self._exchange(line, allowed, ident, view.optional, state, view.seat)

    def decide_built(self, build, state: State, seat: int) -> Any:
        """A decision whose message a ruleset's deal loop builds without a ``View`` (``Ruleset.engine_loop``):
        ``build(ident, time_ms, world, observations)`` gives the decide line and the allowed actions (the
        bytes ``act`` would send), or None when only ``act`` will do (then None here too)."""
        built = build(self._ident + 1, self.params["time_ms"], self.world, self._observations)
        if built is None:
            return None
        self._ident += 1
        return self._exchange(built[0], built[1], self._ident, False, state, seat)

    def _exchange(self, line: bytes, allowed: Mapping[str, Any], ident: int, optional: bool, state, seat: int) -> Any:
        """Send one decide line, read the answer and return its action (one line on a fault)."""
        time_ms = self.params["time_ms"]
        proc = self._proc
        try:
            # the engine this bot used last, while it runs (stopped or inherited by a fork: started anew)
            if proc is None or proc.proc is None or proc.pid_owner != _PID[0]:
                proc = self._proc = engine_process(self.command)
            grace = FIRST_GRACE_MS if proc.fresh else GRACE_MS
            answer = proc.ask(line, time.monotonic() + (time_ms + grace) / 1000.0)
            proc.fresh = False
            return _action(answer, ident, allowed, optional)
        except EngineFault as exc:
            if proc is not None:
                exc = EngineFault(f"{exc} (its stderr: {proc.log_path})")
                proc.stop()
            where = f"{state.where()}, seat {('bottom', 'right', 'top', 'left')[seat]}"
            raise BotError(f"engine {self.name} at {where}: {exc}") from None


def _action(answer: bytes, ident: int, allowed: Mapping[str, Any], optional: bool) -> Any:
    # the plain answer of an action allowed, in json.dumps' layouts (spaced or compact), read as
    # json.loads would read it; anything else is parsed below
    if answer.endswith(b'"}'):
        for head in (b'{"type": "action", "id": %d, "action": "', b'{"type":"action","id":%d,"action":"'):
            head %= ident
            if answer.startswith(head):
                action = allowed.get(answer[len(head) : -2].decode("ascii", "replace"))
                if action is not None:
                    return action
                break
    msg = _parse(answer)
    if not isinstance(msg, dict) or msg.get("type") != "action" or "action" not in msg:
        raise EngineFault(f"answered {shorten(answer.decode(errors='replace'), 80)!r}, not an action message")
    if msg.get("id") != ident:
        raise EngineFault(f"answered id {shorten(repr(msg.get('id')), 20)} to decision id {ident}")
    text = msg["action"]
    if text is None and optional:
        return None
    if not isinstance(text, str):
        raise EngineFault(f"answered action {shorten(repr(text), 40)}, not an action's text")
    action = allowed.get(text)
    if action is None:  # notation is case-insensitive on input
        action = next((a for t, a in allowed.items() if t.lower() == text.strip().lower()), None)
    if action is None:
        raise EngineFault(f"chose {shorten(text, 40)!r}, which is not among the allowed actions")
    return action
