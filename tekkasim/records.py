"""Deal records (``records.md``): JSON Lines files, plain or gzip-compressed, read and written.

Reading never raises half-way through a file: each line comes back as ``(index, record)`` or
``(index, RecordError)``, so ``verify`` can report a corrupt line and go on with the next, and a
truncated last line (a writer killed mid-line) costs that line only.

Writing goes to a temporary file beside the target and is renamed into place when complete, so an
interrupted ``play --out`` never leaves a half-written file under the final name.
"""

from __future__ import annotations

import gzip
import io
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from .cards import SEATS, card_name, parse_card, parse_seat
from .errors import CardError, RecordError, SeatError

FORMAT = 1


def _open_text(path: Path, mode: str):
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, mode.replace("t", "") + "b"), encoding="utf-8")
    return open(path, mode, encoding="utf-8")


def iter_records(path: str | os.PathLike) -> Iterator[tuple[int, dict | RecordError]]:
    """Yield ``(index, record)`` for each non-blank line, or ``(index, RecordError)`` for a bad one."""
    p = Path(path)
    if not p.exists():
        raise RecordError(f"no such file: {p}")
    if p.is_dir():
        raise RecordError(f"{p} is a directory, not a record file")
    index = 0
    try:
        with _open_text(p, "rt") as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                yield index, _parse_line(line, lineno)
                index += 1
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as exc:
        # gzip truncated or not gzip at all, or bytes that are not UTF-8: the rest of the file is lost.
        yield index, RecordError(f"{p}: unreadable after record {index}: {exc}")


def _parse_line(line: str, lineno: int) -> dict | RecordError:
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as exc:
        return RecordError(f"line {lineno}: not valid JSON ({exc.msg} at column {exc.colno})")
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
    """Write records to ``path`` (gzip when it ends in ``.gz``) atomically; return how many."""
    p = Path(path)
    if p.parent and not p.parent.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.part{p.suffix}")  # same suffix, so a .gz target is written gzipped
    n = 0
    try:
        with _open_text(tmp, "wt") as fh:
            for rec in records:
                fh.write(dumps(rec))
                fh.write("\n")
                n += 1
        os.replace(tmp, p)
    finally:
        if tmp.exists():
            tmp.unlink()
    return n


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
