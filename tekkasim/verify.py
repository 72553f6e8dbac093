"""Replay deal records through the engine: ``verify`` (is every action legal, is the result right?)
and ``replay`` (a readable rendering, ``render.py``).

One driver serves every ruleset: ``Game.from_record`` gives the state after the deal and the record's
actions as text, and each action goes through ``string_to_action`` and ``apply_action``, so the first
one that breaks a rule is named with ``State.where()`` (trick and play, counted from 1) and the rule.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from .cards import SEATS
from .errors import IllegalAction, RecordError, TekkasimError, shorten, shorten_message
from .records import FORMAT, iter_records, require
from .render import render_state
from .rules import State, get_game
from .rules.base import MAX_SEED  # new_deal's seed range: records hold no other seeds


@dataclass
class Verdict:
    """The outcome of verifying one record (``to_json`` is the ``--json`` line of records.md)."""

    index: int
    ok: bool
    error: str | None = None
    result: dict | None = None
    unfinished: bool = False
    notes: list[str] = field(default_factory=list)

    def __post_init__(self):
        if self.error is not None:
            self.error = shorten_message(self.error)

    def to_json(self) -> dict:
        return {
            "index": self.index,
            "ok": self.ok,
            "error": self.error,
            "result": self.result,
            "unfinished": self.unfinished,
        }

    def line(self) -> str:
        if not self.ok:
            return f"deal {self.index}: ERROR {self.error}"
        status = "ok (unfinished)" if self.unfinished else "ok"
        return f"deal {self.index}: {status}" + "".join(f"; {n}" for n in self.notes)


def check_header(record: dict) -> dict:
    """The common fields of records.md checked for presence and JSON type; returns the record with
    ``ruleset`` in its canonical lower-case spelling (``"FESKOT"`` is accepted, as on the command line).

    Raises ``RecordError`` naming the first bad field."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if "format" not in record:
        raise RecordError(f"missing field 'format' (records.md: the integer {FORMAT})")
    fmt = record["format"]
    if not isinstance(fmt, int) or isinstance(fmt, bool):
        raise RecordError(f"field 'format' must be the integer {FORMAT}, not {shorten(json_text(fmt))}")
    if fmt != FORMAT:
        raise RecordError(f"unsupported format {shorten(str(fmt))} (this tekkasim reads format {FORMAT})")
    require(record, "ruleset", str)
    if "unfinished" in record and not isinstance(record["unfinished"], bool):
        raise RecordError(f"field 'unfinished' must be true or false, not {shorten(json_text(record['unfinished']))}")
    for key in ("seed", "deal_no"):
        if key in record and record[key] is not None:
            value = require(record, key, int)
            top = MAX_SEED if key == "seed" else None
            if value < 0 or (top is not None and value > top):
                limit = "0 .. 2**63-1" if top else "0 or more"
                raise RecordError(f"field {key!r} must be an integer {limit}, not {shorten(str(value))}")
    for key, kind, name in (
        ("match", str, "text"),
        ("options", dict, "an object"),
        ("bots", dict, "an object"),
        ("result", dict, "an object"),
    ):
        if key in record and record[key] is not None and not isinstance(record[key], kind):
            raise RecordError(f"field {key!r} must be {name}, not {shorten(json_text(record[key]))}")
    return {**record, "ruleset": record["ruleset"].strip().lower()}


def json_text(value) -> str:
    """A JSON value as the user wrote it (``true``, ``1.0``, ``"yes"``) for messages."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def replay_record(record: dict) -> tuple[State | None, str | None]:
    """Apply a record's actions; return the state reached and the first error (None if none).

    The state is None only when the record's header is unusable (unknown ruleset, malformed hands ...).
    """
    try:
        record = check_header(record)
        game = get_game(record["ruleset"], **(record.get("options") or {}))
        require(record, "tricks", list)  # checked here: rulesets read a missing one as "no trick yet"
        state, actions = game.from_record(record)
    except TekkasimError as exc:
        return None, str(exc)
    for text in actions:
        where = state.where()
        if state.is_terminal():
            return state, f"{where}: {shorten(repr(text))} comes after the deal ended"
        try:
            state.apply_action(state.string_to_action(text))
        except IllegalAction as exc:
            return state, f"{where}: {shorten(repr(text))}: {exc} [rule: {exc.rule}]"
        except TekkasimError as exc:
            return state, f"{where}: {shorten(repr(text))}: {exc}"
    return state, None


def _same(a, b) -> bool:
    """Equal as JSON values: ``true`` is not ``1`` and ``7.0`` is not ``7`` (Python's ``==`` says they are)."""
    return json_text(_plain(a)) == json_text(_plain(b))


def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def compare_result(recorded: dict, result: dict, ruleset: str) -> str | None:
    """Why a record's ``result`` disagrees with the recomputed one, or None. Every field the ruleset
    defines is compared; a field the ruleset does not define (a Tekka result on a record relabelled
    ``feskot``) is an error, and so is a defined one that is missing."""
    foreign = [k for k in recorded if k not in result]
    if foreign:
        names = ", ".join(repr(shorten(str(k), 30)) for k in foreign[:5])
        return (
            f"result has field{'s' if len(foreign) > 1 else ''} {names} that a {ruleset} result does not "
            f"have (a {ruleset} result has {', '.join(result)})"
        )
    missing = [k for k in result if k not in recorded]
    if missing:
        return f"result lacks {', '.join(repr(k) for k in missing)} (a {ruleset} result has {', '.join(result)})"
    diffs = [k for k in result if not _same(recorded[k], result[k])]
    if diffs:
        shown = "; ".join(
            f"{k}: recorded {shorten(json_text(recorded[k]))}, recomputed {json_text(_plain(result[k]))}" for k in diffs
        )
        return f"result differs from the recomputed one ({shown})"
    return None


def verify_record(record: dict, index: int = 0) -> Verdict:
    """Check one record: every action legal, the deal complete (or marked unfinished), the result right."""
    state, error = replay_record(record)
    if error is not None:
        return Verdict(index, False, error)
    unfinished = record.get("unfinished", False) is True
    if not state.is_terminal():
        if unfinished:
            return Verdict(index, True, unfinished=True)
        return Verdict(
            index, False, f'{state.where()}: the deal stops before it is over (mark a position with "unfinished": true)'
        )
    result = state.result()
    if unfinished:
        return Verdict(index, False, "marked unfinished, but the deal is over", result)
    recorded = record.get("result")
    if recorded is not None:
        mismatch = compare_result(recorded, result, state.game.name)
        if mismatch:
            return Verdict(index, False, mismatch, result)
    notes = []
    renonces = result.get("renonces") or []
    if renonces:
        listed = ", ".join(f"trick {t + 1} {s if isinstance(s, str) else SEATS[s]}" for t, s in renonces)
        notes.append(f"renonces: {listed}")
    return Verdict(index, True, None, result, notes=notes)


def verify_file(path: str | os.PathLike) -> Iterator[Verdict]:
    """Verify every record of a JSON Lines file; unreadable lines become failed verdicts."""
    for index, record in iter_records(path):
        if isinstance(record, RecordError):
            yield Verdict(index, False, str(record))
        else:
            yield verify_record(record, index)


def render_record(record: dict, index: int = 0) -> tuple[str, bool]:
    """``tekkasim replay``: the deal in the common layout (``render.render_state``) after the record's
    actions, and whether every action was legal (an illegal one ends the rendering with a line naming
    it)."""
    state, error = replay_record(record)
    if state is None:
        return f"deal {index}: cannot be replayed: {error}", False
    return render_state(state, index, error, record), error is None
