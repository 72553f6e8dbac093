"""A run directory: ``config.json`` and ``run.sqlite`` (WAL, one writer: the parent process).

Table ``tables`` has one row per (pairing, board, table), written with ``INSERT OR IGNORE`` in one
transaction per block, so a run killed at any moment keeps every committed row and a rerun plays only
what is missing. ``meta`` keeps the configuration's identity; ``config.json`` keeps the same beside the
database so that a rerun with another configuration is refused before the database is even opened
(the directory is left untouched). A lock file held while a run writes keeps two runs out of one DIR.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from .config import TournamentError

DB_NAME = "run.sqlite"
CONFIG_NAME = "config.json"
LOCK_NAME = ".lock"
FORMAT = 1

# The descriptors of the run locks this process holds. A forked worker closes its copies at once: flock
# belongs to the open file, so a child's inherited copy would keep DIR locked after its parent died.
HELD_LOCK_FDS: set[int] = set()

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    pairing INTEGER NOT NULL, board INTEGER NOT NULL, tab INTEGER NOT NULL,
    x_return REAL NOT NULL, y_return REAL NOT NULL, deals INTEGER NOT NULL, payload BLOB NOT NULL,
    PRIMARY KEY (pairing, board, tab)) WITHOUT ROWID;
"""


def _differences(stored: dict, wanted: dict) -> str:
    keys = [k for k in sorted(set(stored) | set(wanted)) if stored.get(k) != wanted.get(k)]
    k = keys[0]
    return f"{k}: stored {_short(stored.get(k))}, given {_short(wanted.get(k))}"


def _short(value) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:56] + " ..."


def read_identity(directory: str | Path) -> dict:
    """The stored configuration identity of a run directory (one-line errors)."""
    d = Path(directory)
    path = d / CONFIG_NAME
    if not d.is_dir():
        raise TournamentError(f"no run directory {d}")
    if not path.exists() or not (d / DB_NAME).exists():
        raise TournamentError(f"{d} is not a tournament run directory (no {CONFIG_NAME} / {DB_NAME})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TournamentError(f"{path} is unreadable: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or "identity" not in data:
        raise TournamentError(f"{path} is not a tekkasim run configuration")
    return data["identity"]


class Store:
    """The database of one run. ``Store.create_or_resume`` for the runner (writer), ``Store.read`` for
    reports and exports."""

    def __init__(self, directory: Path, conn: sqlite3.Connection, lock=None):
        self.directory = directory
        self.conn = conn
        self._lock = lock
        self.identity: dict = {}

    # --- opening --------------------------------------------------------------------------------
    @classmethod
    def create_or_resume(cls, directory: str | Path, identity: dict) -> Store:
        d = Path(directory)
        if d.exists() and not d.is_dir():
            raise TournamentError(f"{d} exists and is not a directory")
        has_run = (d / CONFIG_NAME).exists() or (d / DB_NAME).exists()
        if has_run:
            try:
                stored = read_identity(d)
            except TournamentError:
                _refuse_if_in_use(d)  # a run creating DIR right now has not written its configuration yet
                raise
            if stored != identity:
                raise TournamentError(
                    f"{d} holds a run of another configuration ({_differences(stored, identity)});"
                    " use another --out DIR"
                )
        elif d.exists() and any(d.iterdir()):
            _refuse_if_in_use(d)
            raise TournamentError(f"{d} is not empty and holds no tournament run; use another --out DIR")
        d.mkdir(parents=True, exist_ok=True)
        lock = open(d / LOCK_NAME, "a")  # noqa: SIM115 (held for the life of the store)
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
        conn = _connect(d / DB_NAME, readonly=False)
        store = cls(d, conn, lock)
        try:
            conn.executescript(SCHEMA)
            row = conn.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
            if row is None:
                with conn:
                    conn.execute("INSERT INTO meta VALUES ('identity', ?)", (json.dumps(identity, sort_keys=True),))
                    conn.execute("INSERT INTO meta VALUES ('format', ?)", (str(FORMAT),))
                _write_config(d, identity)
            elif json.loads(row[0]) != identity:
                raise TournamentError(
                    f"{d}: the database holds a run of another configuration "
                    f"({_differences(json.loads(row[0]), identity)})"
                )
            elif not (d / CONFIG_NAME).exists():
                _write_config(d, identity)
        except sqlite3.DatabaseError as exc:
            store.close()
            raise _db_error(d, exc) from None
        except BaseException:
            store.close()
            raise
        store.identity = identity
        return store

    @classmethod
    def read(cls, directory: str | Path) -> Store:
        d = Path(directory)
        identity = read_identity(d)
        conn = _connect(d / DB_NAME, readonly=True)
        store = cls(d, conn)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
        except sqlite3.DatabaseError as exc:
            store.close()
            raise _db_error(d, exc) from None
        if row is None or json.loads(row[0]) != identity:
            store.close()
            raise TournamentError(f"{d}: {CONFIG_NAME} and the database disagree about the configuration")
        store.identity = identity
        return store

    def close(self) -> None:
        try:
            self.conn.close()
        finally:
            if self._lock is not None:
                HELD_LOCK_FDS.discard(self._lock.fileno())
                self._lock.close()
                self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def checkpoint(self) -> bool:
        """Move every committed row from the write-ahead log into the database file and empty the log, so
        that the file alone holds the run (a copy of it loses nothing). False if a reader in the middle of
        a read kept it from finishing: the rows are safe in the log then, and the next stop moves them."""
        try:
            busy, _, _ = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.DatabaseError:
            return False
        return busy == 0

    # --- writing and reading --------------------------------------------------------------------
    def add(self, rows: list[tuple]) -> int:
        """Store rows ``(pairing, board, table, x_return, y_return, deals, payload)`` in one transaction;
        rows already present are kept as they are. Returns how many were new."""
        try:
            with self.conn:
                before = self.conn.total_changes
                self.conn.executemany("INSERT OR IGNORE INTO tables VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
                return self.conn.total_changes - before
        except sqlite3.DatabaseError as exc:
            raise _db_error(self.directory, exc) from None

    def done(self) -> set[tuple[int, int, int]]:
        """``(pairing, board, table)`` of every stored table."""
        return set(self._query("SELECT pairing, board, tab FROM tables"))

    def results(self) -> list[tuple]:
        """``(pairing, board, table, x_return, y_return, deals)`` of every stored table, in key order."""
        return self._query(
            "SELECT pairing, board, tab, x_return, y_return, deals FROM tables ORDER BY pairing, board, tab"
        )

    def payloads(self) -> Iterator[tuple]:
        """``(pairing, board, table, payload)`` in key order, one at a time."""
        try:
            yield from self.conn.execute("SELECT pairing, board, tab, payload FROM tables ORDER BY pairing, board, tab")
        except sqlite3.DatabaseError as exc:
            raise _db_error(self.directory, exc) from None

    def _query(self, sql: str) -> list[tuple]:
        try:
            return self.conn.execute(sql).fetchall()
        except sqlite3.DatabaseError as exc:
            raise _db_error(self.directory, exc) from None


def _refuse_if_in_use(d: Path) -> None:
    """Say "in use" if a running tournament holds DIR's lock: one that lost the race to create DIR would
    otherwise see it half made and call it no run directory."""
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


def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
    try:
        if readonly:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5.0)
        else:
            conn = sqlite3.connect(path, timeout=5.0)
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
