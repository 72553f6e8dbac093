"""Deal records (``records.md``): JSON Lines files, plain or gzip-compressed, read and written.

Reading never raises half-way through a file: each line comes back as ``(index, record)`` or
``(index, RecordError)``, so ``verify`` can report a corrupt line (malformed, nested too deep, a number
too long to convert) and go on with the next, and a truncated last line (a writer killed mid-line) costs
that line only. ``-`` reads standard input (gzip or plain text, told apart by the first bytes).

Writing a regular file goes to a temporary file beside the target and is renamed into place when
complete, so an interrupted ``play --out`` (an exception, Ctrl-C or SIGTERM) never leaves a
half-written file under the final name nor a temporary file beside it. A symlink is written through
(the file it points to is replaced, the link stays), and a FIFO, a device (``/dev/stdout``) or ``-`` is
written directly, since renaming over those would replace them with a regular file.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import signal
import stat
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .cards import SEATS, card_name, parse_card, parse_seat
from .errors import CardError, RecordError, SeatError, shorten

FORMAT = 1
STDIO = "-"  # the path that means standard input (reading) or standard output (writing)


def _open_text(path: Path, mode: str):
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, mode.replace("t", "") + "b"), encoding="utf-8")
    return open(path, mode, encoding="utf-8")


def _stdin_text():
    """Standard input as text, gunzipped when it starts with gzip's magic bytes."""
    raw = sys.stdin.buffer
    peek = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
    if peek == b"\x1f\x8b":
        return io.TextIOWrapper(gzip.GzipFile(fileobj=raw, mode="rb"), encoding="utf-8")
    return io.TextIOWrapper(raw, encoding="utf-8", newline=None)


def iter_records(path: str | os.PathLike) -> Iterator[tuple[int, dict | RecordError]]:
    """Yield ``(index, record)`` for each non-blank line, or ``(index, RecordError)`` for a bad one.

    ``path`` ``"-"`` reads standard input."""
    if str(path) == STDIO:
        name, opener = "<stdin>", _stdin_text
    else:
        p = Path(path)
        if str(path) == "":
            raise RecordError("no record file given (the path is empty)")
        if not p.exists():
            raise RecordError(f"no such file: {shorten(str(p))}")
        if p.is_dir():
            raise RecordError(f"{shorten(str(p))} is a directory, not a record file")
        name = shorten(str(p))

        def opener():
            return _open_text(p, "rt")

    index = 0
    try:
        with opener() as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                yield index, _parse_line(line, lineno)
                index += 1
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as exc:
        # gzip truncated or not gzip at all, or bytes that are not UTF-8: the rest of the file is lost.
        yield index, RecordError(f"{name}: unreadable after record {index}: {shorten(str(exc))}")


def _parse_line(line: str, lineno: int) -> dict | RecordError:
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as exc:
        return RecordError(f"line {lineno}: not valid JSON ({exc.msg} at column {exc.colno})")
    except RecursionError:
        return RecordError(f"line {lineno}: JSON nested too deeply to read")
    except ValueError:  # an integer of thousands of digits (Python's int conversion limit)
        limit = sys.get_int_max_str_digits()
        return RecordError(f"line {lineno}: a number too long to read (more than {limit} digits)")
    if not isinstance(rec, dict):
        return RecordError(f"line {lineno}: a record must be a JSON object, not {type(rec).__name__}")
    return rec


def read_records(path: str | os.PathLike) -> list[dict]:
    """Every record of a file; the first bad line raises ``RecordError``."""
    out = []
    for _, rec in iter_records(path):
        if isinstance(rec, RecordError):
            raise rec
        out.append(rec)
    return out


def dumps(record: dict) -> str:
    """One record as one compact JSON line (no newline)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def write_records(path: str | os.PathLike, records: Iterable[dict]) -> int:
    """Write records to ``path`` (gzip when it ends in ``.gz``); return how many.

    A regular file (new or existing, directly or behind a symlink) is written atomically; ``-``, a FIFO
    or a device is written directly. A path that cannot be written raises ``RecordError`` (one line)."""
    text = str(path)
    if text == "":
        raise RecordError("no output file given (the path is empty)")
    if text == STDIO:
        return _write_stream(sys.stdout, records)
    shown = shorten(text, 200)
    try:
        mode = os.stat(path).st_mode  # follows symlinks: /dev/stdout -> the pipe or terminal it is
    except FileNotFoundError:
        mode = None  # a new file (or a dangling symlink: its target is created)
    except OSError as exc:
        raise RecordError(f"cannot write {shown}: {exc.strerror}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise RecordError(f"cannot write {shown}: it is a directory")
    if mode is not None and not stat.S_ISREG(mode):  # FIFO, character device, socket: no rename over it
        try:
            with _open_text(Path(path), "wt") as fh:
                return _write_stream(fh, records)
        except BrokenPipeError:  # `-O /dev/stdout | head`: the reader is gone, as when printing
            raise
        except OSError as exc:
            raise RecordError(f"cannot write {shown}: {exc.strerror or exc}") from None
    p = Path(os.path.realpath(path))  # through symlinks: the link stays and its target gets the records
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = "a part of the path is a file, not a directory" if isinstance(exc, FileExistsError) else exc.strerror
        raise RecordError(f"cannot write {shown}: {reason}") from None
    tmp = p.with_name(f".{p.name}.part{p.suffix}")  # same suffix, so a .gz target is written gzipped
    try:
        with _removed_on_exit(tmp):
            with _open_text(tmp, "wt") as fh:
                n = _write_stream(fh, records)
            os.replace(tmp, p)
    except OSError as exc:
        raise RecordError(f"cannot write {shown}: {exc.strerror or exc}") from None
    return n


def _write_stream(fh, records: Iterable[dict]) -> int:
    n = 0
    for rec in records:
        fh.write(dumps(rec))
        fh.write("\n")
        n += 1
    fh.flush()
    return n


class Terminated(SystemExit):
    """Raised in the main thread by SIGTERM while a record file is being written, so that the temporary
    file is removed on the way out (the default SIGTERM action would kill the process on the spot)."""


@contextmanager
def _removed_on_exit(tmp: Path):
    previous = None
    # Only where SIGTERM still kills on the spot: a caller with its own handler keeps it.
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:

        def on_term(signum, frame):
            raise Terminated(128 + signum)

        previous = signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        try:
            if tmp.exists():
                tmp.unlink()
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)


# --- field helpers shared by the rulesets' from_record ------------------------------------------


def require(record: dict, key: str, kind: type | tuple[type, ...]):
    """``record[key]``, checked for presence and JSON type, else a ``RecordError`` naming the field."""
    if key not in record:
        raise RecordError(f"missing field {key!r}")
    value = record[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(f"field {key!r} must be {names}, not {type(value).__name__}")
    return value


def parse_hands(value, field: str = "hands", size: int = 13) -> list[list[int]]:
    """The four 52-card hands of a record field (seat -> list of cards, any seat notation), each card in
    the order given; every seat present, ``size`` cards each, no card twice. One-line ``RecordError``s."""
    if not isinstance(value, dict):
        raise RecordError(f"field {field!r} must be an object seat -> cards")
    hands: list[list[int] | None] = [None] * 4
    seen: dict[int, str] = {}
    for key, cards in value.items():
        try:
            seat = parse_seat(key)
        except SeatError as exc:
            raise RecordError(f"field {field!r}: {exc}") from None
        if hands[seat] is not None:
            raise RecordError(f"field {field!r}: seat {SEATS[seat]} given twice")
        if not isinstance(cards, list):
            raise RecordError(f"{field}.{SEATS[seat]} must be a list of cards, not {type(cards).__name__}")
        if len(cards) != size:
            raise RecordError(f"{field}.{SEATS[seat]} holds {len(cards)} cards (a hand must hold {size} cards)")
        parsed = []
        for text in cards:
            try:
                c = parse_card(text)
            except CardError as exc:
                raise RecordError(f"{field}.{SEATS[seat]}: {exc}") from None
            if c in seen:
                raise RecordError(f"duplicate card {card_name(c)} (dealt to both {seen[c]} and {SEATS[seat]})")
            seen[c] = SEATS[seat]
            parsed.append(c)
        hands[seat] = parsed
    missing = [SEATS[s] for s in range(4) if hands[s] is None]
    if missing:
        raise RecordError(f"field {field!r} lacks {', '.join(missing)} (every seat needs its hand)")
    return hands  # type: ignore[return-value]
