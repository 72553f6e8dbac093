"""Difficulty tuning: move one numeric bot parameter until the bot sits at a target Elo from another.

The method is a noisy bisection with common random numbers. Every setting is measured on the same
tuning boards (seeds ``S .. S+pairs-1``), so the Elo-against-setting curve the bisection walks is one
fixed sample and moves smoothly with the setting instead of jumping with fresh deals. The ends of the
parameter's range are measured first: a target outside the Elo range they span (beyond both ends'
95% intervals) is refused as impossible. The bracket is then halved until the stopping rule holds:
the midpoint's Elo is within half the ``tolerance`` of the target (half, to leave room for the
fresh boards' sampling error), or the bracket is narrower than ``xtol`` of
the range, or ``max_steps`` halvings were made. The setting reported is the linear interpolation of the
target between the bracket's two measured ends, rounded to the parameter's type, and it is measured
again on fresh boards (seeds from ``S + pairs``, never used for tuning) with ``final_pairs`` pairs:
that Elo and its 95% interval are what the result reports, with whether the interval holds the target
and whether the estimate is within the tolerance. A setting at which the bot won (or lost) every pair has
no finite Elo and no bound on that side (``ratings.score_elo``): +-inf here, null in JSON with a note.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from ..bots import get_bot
from ..bots.base import Param
from ..errors import BotError
from ..ratings import interval_text, json_number, score_note
from ..rules import get_game
from .duplicate import AnalysisError, elo_estimate, pair_margins, pair_scores


@dataclass
class TuneResult:
    bot: str
    param: str
    value: float
    target_elo: float
    elo: float
    lo: float
    hi: float
    pairs: int  # pairs of the final measurement
    against: str = ""
    ruleset: str = ""
    tolerance: float = 0.0
    within_tolerance: bool = False
    interval_holds_target: bool = False
    tuning_pairs: int = 0  # pairs per setting during the search (the same boards each time)
    pairs_played: int = 0  # every pair played, search and final measurement
    steps: list = field(default_factory=list)  # (value, elo, lo, hi) measured on the tuning boards

    note: str = ""  # why the final Elo or a bound is missing ("won every pair", "lost every pair")

    def to_json(self) -> dict:
        """runs.md's keys first, then the extras; an Elo or bound the pairs cannot give is null."""
        out = {k: getattr(self, k) for k in ("bot", "param", "value", "target_elo", "elo", "lo", "hi", "pairs")}
        for k in ("elo", "lo", "hi"):
            out[k] = json_number(out[k])
        rest = asdict(self)
        rest["steps"] = [[s[0], *(json_number(v) for v in s[1:])] for s in self.steps]
        out.update({k: v for k, v in rest.items() if k not in out})
        if not out["note"]:
            del out["note"]
        return out


def numeric_param(bot_spec: str, param: str, ruleset: str) -> tuple[object, Param]:
    """The bot (from its spec) and its numeric parameter ``param``; one-line errors otherwise."""
    bot = get_bot(bot_spec, ruleset=ruleset)
    specs = {p.name: p for p in type(bot).params_spec}
    if param not in specs:
        known = ", ".join(specs) or "none"
        raise AnalysisError(f"bot {bot.name} has no parameter {param!r} (parameters: {known})")
    p = specs[param]
    if isinstance(p.default, bool) or not isinstance(p.default, int | float):
        raise AnalysisError(
            f"parameter {param!r} of {bot.name} is not numeric (default {p.default!r}); tune moves a number"
        )
    return bot, p


def tune(
    ruleset: str,
    bot: str,
    param: str,
    target_elo: float,
    against: str,
    seed: int = 1,
    pairs: int = 1000,
    final_pairs: int = 4000,
    tolerance: float = 20.0,
    max_steps: int = 14,
    xtol: float = 1e-3,
    lo: float | None = None,
    hi: float | None = None,
    options: dict | None = None,
    on_step: Callable[[float, float, float, float], None] | None = None,
) -> TuneResult:
    """Bisection of ``bot``'s ``param`` (between ``lo`` and ``hi``, default its documented range) for an
    Elo of ``target_elo`` against ``against`` (module docstring). ``on_step(value, elo, lo, hi)`` sees
    each measurement on the tuning boards."""
    game = get_game(ruleset, **(options or {}))
    if not isinstance(target_elo, int | float) or not math.isfinite(target_elo) or abs(target_elo) > 2000:
        raise AnalysisError(f"target Elo must be a finite number within +-2000, not {target_elo!r}")
    if pairs < 2 or final_pairs < 2:
        raise AnalysisError("pairs and final_pairs must be 2 or more")
    base, p = numeric_param(bot, param, game.name)
    get_bot(against, ruleset=game.name)  # unknown opponent: one line before any play
    a = p.lo if lo is None else lo
    b = p.hi if hi is None else hi
    if a is None or b is None:
        raise AnalysisError(f"parameter {param!r} of {base.name} has no documented range: give lo and hi")
    for v in (a, b):
        try:
            p.check(base.name, v)
        except BotError as exc:
            raise AnalysisError(str(exc)) from None
    if not a < b:
        raise AnalysisError(f"the range of {param!r} is empty ({a} .. {b})")
    is_int = isinstance(p.default, int)
    steps: list[tuple[float, float, float, float]] = []
    played = 0

    def with_value(v: float):
        return get_bot(base, **{param: int(round(v)) if is_int else float(v)})

    final_note = ""

    def measure(v: float, start: int, n: int) -> tuple[float, float, float]:
        nonlocal played, final_note
        margins = pair_margins(game.name, with_value(v), against, start, n, dict(game.options))
        played += n
        final_note = score_note(pair_scores(margins))
        return elo_estimate(margins)

    def tuning(v: float) -> float:
        e, elo_lo, elo_hi = measure(v, seed, pairs)
        steps.append((float(v), e, elo_lo, elo_hi))
        if on_step is not None:
            on_step(float(v), e, elo_lo, elo_hi)
        return e

    fa, fb = tuning(a), tuning(b)
    (ea, la, ha), (eb, lb, hb) = steps[0][1:], steps[1][1:]
    low_end, high_end = min(la, lb), max(ha, hb)
    if not low_end <= target_elo <= high_end:
        raise AnalysisError(
            f"target {target_elo:+g} Elo is out of reach: {base.name} with {param}={_fmt(a)} measures "
            f"{_elo(ea)} {interval_text(la, ha)} and with {param}={_fmt(b)} {_elo(eb)} {interval_text(lb, hb)} "
            f"against {against} ({pairs} pairs each)"
        )
    value = None
    for v, f in ((a, fa), (b, fb)):
        if abs(f - target_elo) <= tolerance / 2:
            value = v
            break
    if value is None and (fa - target_elo) * (fb - target_elo) > 0:
        # the target is inside an end's interval but beyond its estimate: that end is the closest setting
        value = a if abs(fa - target_elo) < abs(fb - target_elo) else b
    if value is None:
        width = xtol * (b - a)
        for _ in range(max_steps):
            m = (a + b) / 2
            if is_int and round(m) in (round(a), round(b)):
                break
            fm = tuning(m)
            if abs(fm - target_elo) <= tolerance / 2:
                a = b = m
                fa = fb = fm
                break
            if (fm - target_elo) * (fa - target_elo) > 0:
                a, fa = m, fm
            else:
                b, fb = m, fm
            if b - a < width:
                break
        if fa == fb:
            value = a
        elif math.isfinite(fa) and math.isfinite(fb):
            value = a + (target_elo - fa) * (b - a) / (fb - fa)
        else:  # an end that won or lost every pair has no Elo to interpolate with: keep the other end
            value = a if math.isfinite(fa) else b if math.isfinite(fb) else (a + b) / 2
        value = min(max(value, min(a, b)), max(a, b))
    value = int(round(value)) if is_int else round(float(value), 6)
    elo, elo_lo, elo_hi = measure(value, seed + pairs, final_pairs)
    return TuneResult(
        bot=base.name,
        param=param,
        value=value,
        target_elo=float(target_elo),
        elo=elo,
        lo=elo_lo,
        hi=elo_hi,
        pairs=final_pairs,
        against=get_bot(against, ruleset=game.name).label,
        ruleset=game.name,
        tolerance=float(tolerance),
        within_tolerance=abs(elo - target_elo) <= tolerance,
        interval_holds_target=elo_lo <= target_elo <= elo_hi,
        tuning_pairs=pairs,
        pairs_played=played,
        steps=steps,
        note=final_note,
    )


def _fmt(v: float) -> str:
    return f"{v:g}"


def _elo(v: float) -> str:
    """An Elo for people: ``won all`` / ``lost all`` where every pair went one way (no finite Elo)."""
    return f"{v:+.0f}" if math.isfinite(v) else "won all" if v > 0 else "lost all"
