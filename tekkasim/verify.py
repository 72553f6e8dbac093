"""Replay deal records through the engine: ``verify`` (is every action legal, is the result right?)
and ``replay`` (a readable rendering).

One driver serves every ruleset: ``Game.from_record`` gives the state after the deal and the record's
actions as text, and each action goes through ``string_to_action`` and ``apply_action``, so the first
one that breaks a rule is named with ``State.where()`` (trick and play, counted from 1) and the rule.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from .errors import IllegalAction, RecordError, TekkasimError
from .records import iter_records, require
from .rules import State, get_game

FORMAT = 1


@dataclass
class Verdict:
    """The outcome of verifying one record (``to_json`` is the ``--json`` line of records.md)."""

    index: int
    ok: bool
    error: str | None = None
    result: dict | None = None
    unfinished: bool = False
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"index": self.index, "ok": self.ok, "error": self.error, "result": self.result,
                "unfinished": self.unfinished}

    def line(self) -> str:
        if not self.ok:
            return f"deal {self.index}: ERROR {self.error}"
        status = "ok (unfinished)" if self.unfinished else "ok"
        return f"deal {self.index}: {status}" + "".join(f"; {n}" for n in self.notes)


def replay_record(record: dict) -> tuple[State | None, str | None]:
    """Apply a record's actions; return the state reached and the first error (None if none).

    The state is None only when the record's header is unusable (unknown ruleset, malformed hands ...).
    """
    try:
        if not isinstance(record, dict):
            raise RecordError("a record must be a JSON object")
        fmt = record.get("format", FORMAT)
        if fmt != FORMAT:
            raise RecordError(f"unsupported format {fmt!r} (this tekkasim reads format {FORMAT})")
        ruleset = require(record, "ruleset", str)
        options = record.get("options", {})
        if not isinstance(options, dict):
            raise RecordError(f"field 'options' must be an object, not {type(options).__name__}")
        state, actions = get_game(ruleset, **options).from_record(record)
    except TekkasimError as exc:
        return None, str(exc)
    for text in actions:
        where = state.where()
        if state.is_terminal():
            return state, f"{where}: {text!r} comes after the deal ended"
        try:
            state.apply_action(state.string_to_action(text))
        except IllegalAction as exc:
            return state, f"{where}: {text!r}: {exc} [rule: {exc.rule}]"
        except TekkasimError as exc:
            return state, f"{where}: {text!r}: {exc}"
    return state, None


def verify_record(record: dict, index: int = 0) -> Verdict:
    """Check one record: every action legal, the deal complete (or marked unfinished), the result right."""
    state, error = replay_record(record)
    if error is not None:
        return Verdict(index, False, error)
    unfinished = record.get("unfinished", False) is True
    if not state.is_terminal():
        if unfinished:
            return Verdict(index, True, unfinished=True)
        return Verdict(index, False, f"{state.where()}: the deal stops before it is over "
                                     "(mark a position with \"unfinished\": true)")
    result = state.result()
    if unfinished:
        return Verdict(index, False, "marked unfinished, but the deal is over", result)
    recorded = record.get("result")
    if recorded is not None:
        if not isinstance(recorded, dict):
            return Verdict(index, False, "field 'result' must be an object", result)
        diffs = [k for k in recorded if k in result and recorded[k] != result[k]]
        if diffs:
            shown = "; ".join(f"{k}: recorded {recorded[k]!r}, recomputed {result[k]!r}" for k in diffs)
            return Verdict(index, False, f"result differs from the recomputed one ({shown})", result)
    notes = []
    renonces = result.get("renonces") or []
    if renonces:
        seats = ("bottom", "right", "top", "left")
        listed = ", ".join(f"trick {t + 1} {s if isinstance(s, str) else seats[s]}" for t, s in renonces)
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
    """``tekkasim replay``: the state's rendering after the record's actions, and whether every action
    was legal (an illegal one ends the rendering with a line naming it)."""
    state, error = replay_record(record)
    if state is None:
        return f"deal {index}: cannot be replayed: {error}", False
    text = f"deal {index}\n{state.render()}"
    if error is not None:
        text += f"\n!! stops here: {error}"
    return text, error is None
