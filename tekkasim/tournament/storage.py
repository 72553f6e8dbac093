"""A run directory: ``config.json`` and ``run.sqlite`` (WAL, one writer: the parent process).

Table ``blocks`` has one row per block: every table of boards ``start .. stop-1`` of the pairing of teams
``x`` and ``y`` (by name, not by position in the list, so that a run grows by teams as well as by boards),
stored as the worker encoded it (``play.BlockRows``: columns of returns, and the actions), with
``INSERT OR IGNORE`` on ``(x, y, start)``: a block that comes back twice (Dask re-running a lost task) is
stored once, and a run killed at any moment keeps every committed block; a rerun plays only the boards
no block holds. ``config.json`` keeps the configuration's identity, written before anything else when a
run starts (so a run killed in its first milliseconds leaves a directory that resumes); ``meta`` keeps
a copy in the database. A lock file held while a run writes keeps two runs out of one DIR.

Format 3 adds the LEGAL codec (Feskot and Tekka deals as indices among the legal actions, decoded by
replaying the rules: ``play``, ``_legal``) and the SHENGJI codec (codec 4: ``_shengji_codec``; a format-3
reader without it refuses such a block in one line, an unknown codec), which a format-2 reader could not
decode; a format-2 run is read
as it is, and one that resumes becomes format 3 (its blocks stay as stored, the new ones are LEGAL). Format
1 (one row per table, table ``tables``) is still read; a run that resumes on it is converted to blocks in
place, in one transaction.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from ..rules import get_game
from .config import TournamentError, check_extension, first_difference, identity_pairings, upgrade_identity
from .play import BlockRows, block_margins, decode_block, decode_columns, encode_block, pack, unpack

DB_NAME = "run.sqlite"
CONFIG_NAME = "config.json"
LOCK_NAME = ".lock"
FORMAT = 3
READABLE = (1, 2, 3)
CONVERT_BLOCK = 2048  # boards per block when a format-1 run is converted

# The descriptors of the run locks this process holds. A forked worker closes its copies at once: flock
# belongs to the open file, so a child's inherited copy would keep DIR locked after its parent died.
HELD_LOCK_FDS: set[int] = set()

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blocks (
    x TEXT NOT NULL, y TEXT NOT NULL, start INTEGER NOT NULL, stop INTEGER NOT NULL,
    codec INTEGER NOT NULL, columns BLOB NOT NULL, payload BLOB NOT NULL,
    PRIMARY KEY (x, y, start));
"""
# A rowid table keeps each block's blobs in overflow pages written once; WITHOUT ROWID, and 4 KB pages,
# cost the writer several times the CPU per stored deal (benchmarks/bench_tournament.py).
PAGE_SIZE = 16384
# The writer checkpoints the write-ahead log in a thread of its own (``_Checkpointer``) once this much has
# been committed since the last one (SQLite's own automatic checkpoint: 1,000 pages). SQLite's automatic
# checkpoint runs inside the commit that crosses it: in a long run the parent then stops storing for the
# checkpoint's fsyncs, while a worker whose block does not fit the pipe waits to send it; a run too short to
# cross it (the benchmark's N-board runs) never paid that.
CHECKPOINT_BYTES = 1000 * PAGE_SIZE
# the files a directory may hold before its identity is written (a run killed while starting)
_STARTING = {LOCK_NAME, DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm", f"{DB_NAME}-journal", f".{CONFIG_NAME}.part"}
_STARTING |= {"engines"}  # the logs of engines started before the run (runner.keep_start_logs)


def read_identity(directory: str | Path) -> dict:
    """The stored configuration identity of a run directory (one-line errors)."""
    d = Path(directory)
    path = d / CONFIG_NAME
    if not d.is_dir():
        raise TournamentError(f"no run directory {d}")
    if not path.exists() or not (d / DB_NAME).exists():
        raise TournamentError(f"{d} is not a tournament run directory (no {CONFIG_NAME} / {DB_NAME})")
    return _read_config(path)


def _read_config(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TournamentError(f"{path} is unreadable: {exc}") from None
    if not isinstance(data, dict) or data.get("format") not in READABLE or not isinstance(data.get("identity"), dict):
        raise TournamentError(f"{path} is not a tekkasim run configuration")
    return upgrade_identity(data["identity"])


class Store:
    """The database of one run. ``Store.create_or_resume`` for the runner (writer), ``Store.read`` for
    reports and exports."""

    def __init__(self, directory: Path, conn: sqlite3.Connection, lock=None):
        self.directory = directory
        self.conn = conn
        self._lock = lock
        self.identity: dict = {}
        self._pairings: list[tuple[str, str]] = []
        self._index: dict[tuple[str, str], int] = {}
        self._game = None
        self._checkpointer: _Checkpointer | None = None  # a writer's (``create_or_resume``)
        self._logged = 0  # bytes committed since the last checkpoint was asked for

    @property
    def game(self):
        """The run's ruleset with its options (LEGAL blocks replay through it)."""
        if self._game is None:
            self._game = get_game(self.identity["ruleset"], **self.identity.get("options", {}))
        return self._game

    def _set_identity(self, identity: dict) -> None:
        self.identity = identity
        self._pairings = identity_pairings(identity)
        self._index = {p: i for i, p in enumerate(self._pairings)}

    # --- opening --------------------------------------------------------------------------------
    @staticmethod
    def may_hold_run(directory: Path) -> bool:
        """Whether the existing directory ``directory`` holds a run or may start one (nothing else in it)."""
        try:
            return (directory / CONFIG_NAME).exists() or all(p.name in _STARTING for p in directory.iterdir())
        except OSError:
            return False

    @classmethod
    def create_or_resume(cls, directory: str | Path, identity: dict) -> Store:
        """Open DIR to write ``identity``'s results: a new run, the same run (resume), or a stored run it
        grows (more boards or teams; the stored identity is replaced by ``identity``). Anything else is
        refused in one line naming the field that differs, and DIR is left as it was."""
        d = Path(directory)
        if d.exists() and not d.is_dir():
            raise TournamentError(f"{d} exists and is not a directory")
        has_config = (d / CONFIG_NAME).exists()
        if not has_config and d.is_dir():
            extra = sorted(p.name for p in d.iterdir() if p.name not in _STARTING)
            if extra:
                _refuse_if_in_use(d)
                raise TournamentError(f"{d} is not empty and holds no tournament run; use another --out DIR")
        if has_config:  # refused before anything is touched
            stored = _read_config(d / CONFIG_NAME)
            _check(d, stored, identity)
        try:
            d.mkdir(parents=True, exist_ok=True)
            lock = open(d / LOCK_NAME, "a")  # noqa: SIM115 (held for the life of the store)
        except OSError as exc:
            raise TournamentError(f"cannot write the run directory {d}: {exc.strerror or exc}") from None
        for attempt in range(3):  # another process's _refuse_if_in_use holds it for an instant
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if attempt == 2:
                    lock.close()
                    raise TournamentError(f"{d} is in use by another running tournament (locked)") from None
                time.sleep(0.02)
        HELD_LOCK_FDS.add(lock.fileno())
        store = None
        try:
            if (d / CONFIG_NAME).exists():  # again under the lock: a racing run may have written it
                stored = _read_config(d / CONFIG_NAME)
                grows = _check(d, stored, identity)
            else:  # a new run, or one killed before its identity was written: nothing of it is kept
                if (d / DB_NAME).exists() and _holds_results(d / DB_NAME):
                    raise TournamentError(
                        f"{d} holds stored results but no {CONFIG_NAME}; restore it or use another --out DIR"
                    )
                for name in (DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm", f"{DB_NAME}-journal"):
                    (d / name).unlink(missing_ok=True)
                grows = True
            if grows:  # the identity first: a run stopped from here on resumes
                _write_config(d, identity)
            conn = _connect(d / DB_NAME, readonly=False)
            store = cls(d, conn, lock)
            store._set_identity(identity)
            store._open_for_writing()
            conn.execute("PRAGMA wal_autocheckpoint=0")  # _Checkpointer's, off the writer's thread
            store._checkpointer = _Checkpointer(d / DB_NAME)
        except sqlite3.DatabaseError as exc:
            _close_quietly(store, lock)
            raise _db_error(d, exc) from None
        except OSError as exc:
            _close_quietly(store, lock)
            raise TournamentError(f"cannot write the run directory {d}: {exc.strerror or exc}") from None
        except BaseException:
            _close_quietly(store, lock)
            raise
        return store

    def _open_for_writing(self) -> None:
        conn = self.conn
        old = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'tables'").fetchone()
        conn.executescript(SCHEMA)
        row = conn.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
        if row is not None:
            stored = upgrade_identity(json.loads(row[0]))
            if stored != self.identity and not _grows(stored, self.identity):
                raise TournamentError(
                    f"{self.directory}: the database holds a run of another configuration "
                    f"({first_difference(stored, self.identity)})"
                )
        with conn:
            if old is not None:
                _convert_format_1(conn, self.identity)
            conn.execute(
                "INSERT OR REPLACE INTO meta VALUES ('identity', ?)", (json.dumps(self.identity, sort_keys=True),)
            )
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (str(FORMAT),))
        # after the commit: an older format's config.json never stands beside the converted rows
        if old is not None or json.loads((self.directory / CONFIG_NAME).read_text()).get("format") != FORMAT:
            _write_config(self.directory, self.identity)

    @classmethod
    def read(cls, directory: str | Path) -> Store:
        """Open DIR to read (no lock; a read-only directory works). A format-1 database is converted in
        memory."""
        d = Path(directory)
        identity = read_identity(d)
        conn = _connect(d / DB_NAME, readonly=True)
        store = cls(d, conn)
        try:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            row = conn.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone() if "meta" in names else None
            stored = upgrade_identity(json.loads(row[0])) if row is not None else None
            if stored is None and not names:  # a run stopped while starting: its database was never made
                raise TournamentError(f"{d} holds no stored results yet (its database is empty)")
            if stored is None or (stored != identity and not _grows(stored, identity)):
                raise TournamentError(f"{d}: {CONFIG_NAME} and the database disagree about the configuration")
            store._set_identity(identity)
            if "tables" in names and "blocks" not in names:  # format 1
                memory = sqlite3.connect(":memory:")
                memory.executescript(SCHEMA)
                with memory:
                    _convert_format_1(memory, identity, source=conn)
                conn.close()
                store.conn = memory
        except sqlite3.DatabaseError as exc:
            store.close()
            raise _db_error(d, exc) from None
        except BaseException:
            store.close()
            raise
        return store

    def close(self) -> None:
        try:
            if self._checkpointer is not None:
                self._checkpointer.stop()
            self.conn.close()
        finally:
            if self._lock is not None:
                HELD_LOCK_FDS.discard(self._lock.fileno())
                self._lock.close()
                self._lock = None

    def checkpoint(self) -> bool:
        """Move every committed block from the write-ahead log into the database file and empty the log, so
        that the file alone holds the run (a copy of it loses nothing). False if a reader in the middle of
        a read kept it from finishing: the blocks are safe in the log then, and the next stop moves them."""
        if self._checkpointer is not None:
            self._checkpointer.stop()
        try:
            busy, _, _ = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.DatabaseError:
            return False
        return busy == 0

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- writing --------------------------------------------------------------------------------
    def add(self, rows) -> int:
        """Store a block as a worker sent it (``BlockRows``: one row, as it came), or rows ``(pairing,
        board, table, x_return, y_return, deals, payload)`` (encoded here into blocks of consecutive
        boards; a board lacking a table is left out). Boards already stored are kept as they are. Returns
        how many tables were new."""
        blocks = [rows] if isinstance(rows, BlockRows) else self._blocks_of_rows(rows)
        try:
            new = 0
            with self.conn:
                for b in blocks:
                    x, y = self._pairing(b.pairing)
                    # a pairing's stored blocks never overlap, so only the last one starting before this
                    # block ends can overlap it: one index probe, where ``start < ? AND stop > ?`` read
                    # every earlier block of the pairing (a writer's CPU a block growing with the run)
                    last = self.conn.execute(
                        "SELECT stop FROM blocks WHERE x = ? AND y = ? AND start < ? ORDER BY start DESC LIMIT 1",
                        (x, y, b.stop),
                    ).fetchone()
                    if last is not None and last[0] > b.start:
                        continue  # already stored (a block that came back twice)
                    self.conn.execute(
                        "INSERT INTO blocks VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (x, y, b.start, b.stop, b.codec, b.columns, b.payload),
                    )
                    new += 2 * (b.stop - b.start)
                    self._logged += len(b.columns) + len(b.payload)
            if self._checkpointer is not None and self._logged >= CHECKPOINT_BYTES:
                self._logged = 0
                self._checkpointer.request()
            return new
        except sqlite3.DatabaseError as exc:
            raise _db_error(self.directory, exc) from None

    def _blocks_of_rows(self, rows) -> list[BlockRows]:
        by_key: dict[tuple[int, int], dict[int, tuple]] = {}
        for p, board, table, xr, yr, _deals, payload in rows:
            by_key.setdefault((p, board), {})[table] = (float(xr), float(yr), unpack(payload))
        out = []
        for p in sorted({p for p, _ in by_key}):
            boards = sorted(b for q, b in by_key if q == p and len(by_key[q, b]) == 2)
            runs: list[list[int]] = []
            for b in boards:
                if runs and runs[-1][-1] == b - 1:
                    runs[-1].append(b)
                else:
                    runs.append([b])
            for run in runs:
                tables = [by_key[p, b][t] for t in (0, 1) for b in run]
                out.append(
                    encode_block(
                        p, run[0], run[-1] + 1, self.identity["seed"], self.identity["unit"], tables, self.game
                    )
                )
        return out

    def _pairing(self, index: int) -> tuple[str, str]:
        if not 0 <= index < len(self._pairings):
            raise TournamentError(f"pairing {index} is outside the run's {len(self._pairings)} pairings")
        return self._pairings[index]

    # --- reading --------------------------------------------------------------------------------
    def _keys(self) -> list[tuple[int, str, str, int, int]]:
        """``(pairing, x, y, start, stop)`` of every block, in (pairing, start) order."""
        keys = []
        for x, y, start, stop in self._query("SELECT x, y, start, stop FROM blocks"):
            p = self._index.get((x, y))
            if p is None:
                raise TournamentError(f"the database in {self.directory} holds {x} vs {y}, not a pairing of its run")
            keys.append((p, x, y, start, stop))
        keys.sort()
        return keys

    def blocks(self) -> Iterator[tuple[int, int, int, int, bytes, bytes]]:
        """``(pairing, start, stop, codec, columns, payload)`` of each block in (pairing, start) order, one
        at a time (bounded memory)."""
        for p, x, y, start, _stop in self._keys():
            try:
                row = self.conn.execute(
                    "SELECT stop, codec, columns, payload FROM blocks WHERE x = ? AND y = ? AND start = ?",
                    (x, y, start),
                ).fetchone()
            except sqlite3.DatabaseError as exc:
                raise _db_error(self.directory, exc) from None
            yield (p, start, *row)

    def ranges(self) -> dict[int, list[tuple[int, int]]]:
        """Per pairing, the ``(start, stop)`` board ranges stored, in order."""
        out: dict[int, list[tuple[int, int]]] = {}
        for p, _x, _y, start, stop in self._keys():
            out.setdefault(p, []).append((start, stop))
        return out

    def done(self) -> set[tuple[int, int, int]]:
        """``(pairing, board, table)`` of every stored table (a set as large as the run: small runs only)."""
        return {(p, b, t) for p, rs in self.ranges().items() for a, z in rs for b in range(a, z) for t in (0, 1)}

    def tables(self) -> Iterator[tuple[int, int, int, float, float, list]]:
        """``(pairing, board, table, x_return, y_return, deals)`` of every stored table in key order, deals
        as ``[[seed, return_a, return_b, actions]]``, decoded one block at a time."""
        seed = self.identity["seed"]
        for p, start, stop, codec, columns, payload in self.blocks():
            try:
                decoded = list(decode_block(start, stop, seed, codec, columns, payload, self.game))
            except Exception as exc:  # noqa: BLE001 - zlib, struct or a size check: a damaged block
                raise TournamentError(
                    f"the database in {self.directory} holds an undecodable block ({self._pairings[p][0]} vs "
                    f"{self._pairings[p][1]}, boards {start}..{stop - 1}: {exc})"
                ) from None
            for board, table, xr, yr, deals in decoded:
                yield p, board, table, xr, yr, deals

    def results(self) -> list[tuple]:
        """``(pairing, board, table, x_return, y_return, deals)`` of every stored table, in key order (a
        tuple per table: small runs; :meth:`margins` reads a large one)."""
        out = []
        for p, start, stop, _codec, columns, _payload in self.blocks():
            xr, yr, counts, _ = self._columns(columns, p, start, stop)
            n = stop - start
            xs, ys, cs = xr.tolist(), yr.tolist(), counts.tolist()
            for b in range(n):
                out.append((p, start + b, 0, xs[b], ys[b], cs[b]))
                out.append((p, start + b, 1, xs[n + b], ys[n + b], cs[n + b]))
        return out

    def payloads(self) -> Iterator[tuple]:
        """``(pairing, board, table, payload)`` in key order, one at a time; ``play.unpack(payload)`` gives
        the table's deals."""
        for p, board, table, _xr, _yr, deals in self.tables():
            yield p, board, table, pack(deals)

    def margins(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(pairing, board, margin)`` arrays, one entry per stored pair (team X's margin over both
        tables), in key order: one query, the returns of each block read with numpy, no Python object per
        pair."""
        per: dict[int, list] = {}
        try:
            cursor = self.conn.execute("SELECT x, y, start, stop, columns FROM blocks ORDER BY x, y, start")
            for x, y, start, stop, columns in cursor:
                p = self._index.get((x, y))
                if p is None:
                    raise TournamentError(
                        f"the database in {self.directory} holds {x} vs {y}, not a pairing of its run"
                    )
                try:
                    m = block_margins(columns)
                except Exception as exc:  # noqa: BLE001 - zlib or a size check: a damaged block
                    raise TournamentError(
                        f"the database in {self.directory} holds an undecodable block ({x} vs {y}, boards "
                        f"{start}..{stop - 1}: {exc})"
                    ) from None
                if len(m) != stop - start or not np.isfinite(m).all():
                    raise TournamentError(
                        f"the database in {self.directory} holds a damaged block "
                        f"({x} vs {y}, boards {start}..{stop - 1})"
                    )
                per.setdefault(p, []).append((start, m))
        except sqlite3.DatabaseError as exc:
            raise _db_error(self.directory, exc) from None
        ps, boards, margins = [], [], []
        for p in sorted(per):
            for start, m in per[p]:
                ps.append(np.full(len(m), p, np.int32))
                boards.append(np.arange(start, start + len(m), dtype=np.int64))
                margins.append(m)
        if not ps:
            return np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0)
        return np.concatenate(ps), np.concatenate(boards), np.concatenate(margins)

    def _columns(self, columns: bytes, p: int, start: int, stop: int):
        try:
            xr, yr, counts, lengths = decode_columns(columns)
        except Exception as exc:  # noqa: BLE001 - zlib or a size check: a damaged block
            raise TournamentError(
                f"the database in {self.directory} holds an undecodable block (boards {start}..{stop - 1}: {exc})"
            ) from None
        if len(xr) != 2 * (stop - start) or not (np.isfinite(xr).all() and np.isfinite(yr).all()):
            raise TournamentError(
                f"the database in {self.directory} holds a damaged block (boards {start}..{stop - 1})"
            )
        return xr, yr, counts, lengths

    def digest(self) -> str:
        """SHA-256 of every stored table (teams by name, board, table, returns, deals): equal for equal
        results whatever the blocks, the codec or the order they were stored in."""
        h = hashlib.sha256()
        for p, board, table, xr, yr, deals in self.tables():
            h.update(json.dumps([*self._pairings[p], board, table, xr, yr, deals]).encode())
            h.update(b"\n")
        return h.hexdigest()

    def _query(self, sql: str) -> list[tuple]:
        try:
            return self.conn.execute(sql).fetchall()
        except sqlite3.DatabaseError as exc:
            raise _db_error(self.directory, exc) from None


def _check(d: Path, stored: dict, identity: dict) -> bool:
    try:
        return check_extension(stored, identity)
    except TournamentError as exc:
        raise TournamentError(f"{d} holds a run of another configuration ({exc}); use another --out DIR") from None


def _grows(stored: dict, identity: dict) -> bool:
    try:
        return check_extension(stored, identity)
    except TournamentError:
        return False


def _holds_results(path: Path) -> bool:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5.0)
        try:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            return any(
                conn.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone() for t in ("blocks", "tables") if t in names
            )
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return path.stat().st_size > 0  # unreadable but not empty: keep it, the user decides


def _convert_format_1(conn: sqlite3.Connection, identity: dict, source: sqlite3.Connection | None = None) -> None:
    """Rewrite a format-1 run's rows (one per table) as blocks of up to CONVERT_BLOCK consecutive complete
    boards per pairing, inside the caller's transaction; a board with one table stored is left out (the
    runner plays it again). ``source`` is the database to read (default: ``conn``, whose old table goes)."""
    src = source or conn
    pairings = identity_pairings(identity)
    game = get_game(identity["ruleset"], **identity.get("options", {}))
    rows = src.execute(
        "SELECT pairing, board, tab, x_return, y_return, deals, payload FROM tables ORDER BY pairing, board, tab"
    )
    current: list = []

    def flush() -> None:
        if not current:
            return
        p = current[0][0]
        boards = [r[1] for r in current[::2]]
        tables = [(r[3], r[4], unpack(r[6])) for t in (0, 1) for r in current[t::2]]
        block = encode_block(p, boards[0], boards[-1] + 1, identity["seed"], identity["unit"], tables, game)
        x, y = pairings[p]
        conn.execute(
            "INSERT OR IGNORE INTO blocks VALUES (?, ?, ?, ?, ?, ?, ?)",
            (x, y, block.start, block.stop, block.codec, block.columns, block.payload),
        )
        current.clear()

    pending = None
    for row in rows:
        if not 0 <= row[0] < len(pairings):
            raise TournamentError(f"a format-1 row of pairing {row[0]} is outside the run's pairings")
        if row[2] == 0:
            pending = row
            continue
        if pending is None or pending[:2] != row[:2]:
            pending = None
            continue  # a table 1 without its table 0
        if current and (current[-1][0] != row[0] or current[-1][1] != row[1] - 1 or len(current) >= 2 * CONVERT_BLOCK):
            flush()
        current += [pending, row]
        pending = None
    flush()
    if source is None:
        conn.execute("DROP TABLE tables")


def _close_quietly(store, lock) -> None:
    if store is not None:
        store.close()
    else:
        HELD_LOCK_FDS.discard(lock.fileno())
        lock.close()


def _refuse_if_in_use(d: Path) -> None:
    """Say "in use" if a running tournament holds DIR's lock: one that lost the race to create DIR would
    otherwise see it half made and call it no tournament run."""
    try:
        probe = open(d / LOCK_NAME)  # noqa: SIM115 - never created here
    except OSError:
        return
    with probe:
        try:
            fcntl.flock(probe, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            raise TournamentError(f"{d} is in use by another running tournament (locked)") from None


def _write_config(d: Path, identity: dict) -> None:
    tmp = d / f".{CONFIG_NAME}.part"
    tmp.write_text(json.dumps({"format": FORMAT, "identity": identity}, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, d / CONFIG_NAME)


class _Checkpointer:
    """A thread with its own connection that moves the write-ahead log into the database file (a PASSIVE
    checkpoint: it never waits for the writer, nor the writer for it) whenever the writer asks, so that
    storing a block never waits for one. Started at the first request; ``stop`` ends it (before the
    writer's final checkpoint, and its close)."""

    def __init__(self, path: Path):
        self.path = path
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None

    def request(self) -> None:
        if self._thread is None:
            self._stopping = False
            self._thread = threading.Thread(target=self._main, name="tekkasim-checkpoint", daemon=True)
            self._thread.start()
        self._wake.set()

    def _main(self) -> None:
        conn = sqlite3.connect(self.path, timeout=5.0)
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._stopping:
                    return
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.DatabaseError:  # the log keeps the blocks; the writer's final checkpoint moves them
                    pass
        finally:
            conn.close()

    def stop(self) -> None:
        if self._thread is not None:
            self._stopping = True
            self._wake.set()
            self._thread.join()
            self._thread = None


def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
    try:
        if readonly:
            try:
                conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5.0)
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.OperationalError:
                if os.access(path.parent, os.W_OK):
                    raise
                # a read-only directory: SQLite cannot make the WAL index beside the file; read it as is
                conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, timeout=5.0)
        else:
            conn = sqlite3.connect(path, timeout=5.0)
            conn.execute(f"PRAGMA page_size={PAGE_SIZE}")  # takes effect on a new database only
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # a corrupt file fails here
    except sqlite3.DatabaseError as exc:
        raise _db_error(path.parent, exc) from None
    return conn


def _db_error(d: Path, exc: sqlite3.DatabaseError) -> TournamentError:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return TournamentError(f"the database in {d} is locked by another process ({text})")
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return TournamentError(f"the database in {d} is corrupt ({text}); the run cannot be read")
    return TournamentError(f"the database in {d} cannot be used: {text}")
