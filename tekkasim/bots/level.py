"""LEVEL: any strength on request (runs.md). ``LEVEL:elo=E`` plays at E Elo above RANDOM (= 0) in the
ruleset it plays, for any E between KADO's and ZELZELA's ratings there.

The ladder as one path
----------------------
The ladder's nine bots lie on one path of *positions* u in [0, 8]: u = k is the ladder bot of rank k,
and u = k + t (0 < t < 1) lies on the step from rank k (the weaker neighbour) to rank k + 1 (the
stronger), made by :func:`at_position` in one of two ways:

* **Interpolated parameters**, where the two neighbours are presets of one family (the same
  ``params_spec``) that differ only in continuous (float) parameters, such as TANA and JANGARA, who
  differ in ``mistake_rate`` alone: the stronger neighbour's family with every such parameter at
  ``(1 - t) * weaker + t * stronger``. One plain bot, with the family's compiled form where it has one.
* **A per-decision mixture** everywhere else (the neighbours differ in kind, JANGARA (heuristic) to
  TANOOR (search), or in a discrete parameter: memory, inference, worlds): each decision is the
  stronger neighbour's with probability t, else the weaker's. The coin is drawn from its own RNG, made
  from the decision seed (``mix_seed(seed, LEVEL_SALT)``), and the chosen neighbour gets the decision's
  RNG untouched: every decision is exactly what that neighbour would play alone with that seed. Where
  the neighbours differ only in a mistake rate this is the same as interpolating it
  (``(1 - t) m_weaker + t m_stronger`` slips per decision); in general a mixture's strength moves from the
  weaker's to the stronger's as t grows (the table's measurements below check that it does).

The calibration table
---------------------
Each ruleset's ``levels.json`` (``Ruleset.levels``; written by ``tekkasim levels table``) holds, per
ruleset, the Elo against RANDOM measured at points of the path: the ladder bots (integer u) and a few
points within each step. :func:`curve` makes those Elo values non-decreasing in u (weighted isotonic
regression, pool-adjacent-violators, each point weighted by its interval's precision: a measured dip is
noise or a ladder inversion, and an Elo request must have one answer), and :func:`position` inverts the
piecewise-linear curve: E -> the smallest u with that Elo. So ``LEVEL:elo=E`` is the bot at that u, and
its range is the curve's [Elo at KADO, Elo at ZELZELA]. A rating outside that range, a ruleset the table
does not hold, or an ``elo`` that is not a number is refused with one line.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any, ClassVar

import numpy as np

from ..bits import mistake, mix_seed, new_rng
from ..errors import BotError
from .base import Bot, Param, View

LADDER_NAMES = ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA", "TANOOR", "TIZAB", "ZELZELA")
LEVEL_SALT = 0x4C4556454C  # "LEVEL": the mixture's coin has a stream of its own
TABLE_FILE = "levels.json"


# --- the table -------------------------------------------------------------------------------------------


@cache
def shipped_table() -> dict:
    """The calibration tables shipped with the rulesets, as one table: each ruleset's own
    (``Ruleset.levels``, a ``levels.json`` in its package holding its entry); {} when none has one."""
    from ..rulesets import rulesets

    entries: dict = {}
    for rs in rulesets():
        if rs.levels:
            package, _, name = rs.levels.partition(":")
            try:
                table = json.loads(resources.files(package).joinpath(name or TABLE_FILE).read_text())
            except FileNotFoundError:
                continue
            if rs.name in (table.get("rulesets") or {}):
                entries[rs.name] = table["rulesets"][rs.name]
    return {"rulesets": entries} if entries else {}


def table_rulesets(table: dict | None = None) -> list[str]:
    """The rulesets the table holds."""
    return list((shipped_table() if table is None else table).get("rulesets") or {})


def _pav(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted isotonic (non-decreasing) regression of ``y`` by pool-adjacent-violators."""
    blocks: list[list[float]] = []  # [mean, weight, count]
    for yi, wi in zip(y, w, strict=True):
        blocks.append([float(yi), float(wi), 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, n2 = blocks.pop()
            m1, w1, n1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, n1 + n2])
    return np.concatenate([np.full(n, m) for m, _, n in blocks])


def _weight(point: dict) -> float:
    """A point's weight in the isotonic fit: 1 / variance from its 95% interval (1 / 200^2 without one)."""
    lo, hi = point.get("lo"), point.get("hi")
    if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return 1.0 / 200.0**2
    se = (hi - lo) / (2 * 1.96)
    return 1.0 / max(se, 1.0) ** 2


def curve(entry: dict) -> tuple[np.ndarray, np.ndarray]:
    """A ruleset's table entry -> (u, Elo): its points by position, the Elo made non-decreasing (module
    notes). The points must start at u = 0 (KADO) and end at u = 8 (ZELZELA)."""
    points = sorted(entry["points"], key=lambda p: p["u"])
    u = np.array([p["u"] for p in points], float)
    if len(u) < 2 or u[0] != 0.0 or u[-1] != len(LADDER_NAMES) - 1 or np.any(np.diff(u) <= 0):
        raise BotError("the LEVEL table's points must run from u=0 (KADO) to u=8 (ZELZELA), each u once")
    elo = np.array([p["elo"] for p in points], float)
    if not np.all(np.isfinite(elo)):
        raise BotError("the LEVEL table holds a point without a finite Elo")
    return u, _pav(elo, np.array([_weight(p) for p in points]))


def elo_range(entry: dict) -> tuple[float, float]:
    """The Elo range LEVEL covers with this entry: the curve's ends (KADO's, ZELZELA's)."""
    _, e = curve(entry)
    return float(e[0]), float(e[-1])


def position(entry: dict, elo: float, ruleset: str = "") -> float:
    """The smallest position u whose curve Elo is ``elo`` (piecewise-linear inverse). One line if ``elo`` is
    outside the curve's range."""
    u, e = curve(entry)
    if not (isinstance(elo, int | float) and math.isfinite(elo)):
        raise BotError(f"LEVEL elo must be a number, not {elo!r}")
    if not e[0] - 1e-9 <= elo <= e[-1] + 1e-9:
        where = f" in {ruleset}" if ruleset else ""
        raise BotError(
            f"LEVEL elo={elo:g} is outside the calibrated range{where}: {e[0]:.0f} (KADO) .. {e[-1]:.0f} (ZELZELA)"
            f" (LEVEL's Elo scale differs by ruleset: {ranges_text()}; tekkasim bots lists them)"
        )
    i = int(np.searchsorted(e, elo, side="left"))  # first point at or above elo
    if i == 0:
        return float(u[0])
    i = min(i, len(u) - 1)
    if e[i] <= e[i - 1]:  # flat: the left end
        return float(u[i - 1])
    return float(u[i - 1] + (elo - e[i - 1]) * (u[i] - u[i - 1]) / (e[i] - e[i - 1]))


def ranges_text() -> str:
    """LEVEL's range in each ruleset of the shipped table, e.g. ``feskot 96 .. 1234, tekka 1126 .. 1465``: the
    scale differs by ruleset (each measured against RANDOM in its own game)."""
    parts = []
    for r in table_rulesets():
        lo, hi = elo_range(entry_for(r))
        parts.append(f"{r} {lo:.0f} .. {hi:.0f}")
    return ", ".join(parts)


def entry_for(ruleset: str, table: dict | None = None) -> dict:
    """The table's entry for ``ruleset``; one line naming the rulesets it holds if it has none."""
    table = shipped_table() if table is None else table
    entries = table.get("rulesets") or {}
    if ruleset not in entries:
        held = ", ".join(entries) or "none"
        raise BotError(
            f"LEVEL has no calibration for {ruleset} (the table holds: {held}); "
            "make one with `tekkasim levels table --ruleset " + ruleset + "`"
        )
    return entries[ruleset]


# --- the bot at a position -------------------------------------------------------------------------------


def _continuous(a: Bot, b: Bot) -> list[str] | None:
    """The parameters in which ``a`` and ``b`` differ if they are one family differing in floats only, else
    None (a mixture is needed)."""
    if type(a).params_spec != type(b).params_spec or a.kind != b.kind:
        return None
    spec = {p.name: p for p in type(a).params_spec}
    differ = [k for k in spec if a.params[k] != b.params[k]]
    ok = all(isinstance(spec[k].default, float) and not isinstance(spec[k].default, bool) for k in differ)
    return differ if ok else None


class Mixture(Bot):
    """Each decision ``upper``'s with probability ``t``, else ``lower``'s (module notes): the coin from its own
    RNG seeded from the decision's, the chosen bot given the decision's RNG untouched."""

    name = "LEVEL"
    params_spec = ()

    def __init__(self, lower: Bot, upper: Bot, t: float):
        super().__init__()
        if not 0.0 <= t <= 1.0:
            raise BotError(f"mixture weight must be in [0, 1], not {t}")
        self.lower, self.upper, self.t = lower, upper, float(t)
        self.kind = "search" if "search" in (lower.kind, upper.kind) else lower.kind  # the runner's cost class

    @property
    def label(self) -> str:
        return f"LEVEL[{self.lower.label}..{self.upper.label}@{self.t:.4g}]"

    def supports(self, ruleset: str) -> bool:
        return self.lower.supports(ruleset) and self.upper.supports(ruleset)

    def pick(self, rng: np.ndarray) -> Bot:
        """The neighbour that makes the decision whose RNG is ``rng`` (not advanced)."""
        coin = new_rng(mix_seed(int(rng[0]), LEVEL_SALT))
        return self.upper if mistake(coin, self.t) else self.lower

    def act(self, view: View, rng: np.ndarray):
        return self.pick(rng).act(view, rng)


def at_position(ruleset: str, u: float) -> Bot:
    """The bot at position ``u`` of ``ruleset``'s ladder path (module notes): a ladder bot at integer u, the
    interpolated family bot or a :class:`Mixture` between."""
    from . import get_bot

    top = len(LADDER_NAMES) - 1
    if not (isinstance(u, int | float) and 0.0 <= u <= top):
        raise BotError(f"ladder position must be in [0, {top}], not {u!r}")
    k = min(int(math.floor(u)), top - 1)
    t = float(u) - k
    lower = get_bot(LADDER_NAMES[k], ruleset=ruleset)
    upper = get_bot(LADDER_NAMES[k + 1], ruleset=ruleset)
    if t <= 0.0:
        return lower
    if t >= 1.0:
        return upper
    differ = _continuous(lower, upper)
    if differ is not None:
        blend = {p: round((1.0 - t) * lower.params[p] + t * upper.params[p], 6) for p in differ}
        return type(upper)(**{**upper.params, **blend})
    return Mixture(lower, upper, t)


# --- the registered bot ----------------------------------------------------------------------------------

ELO_DOC = "Elo above RANDOM (= 0) to play at, within this ruleset's calibrated range (KADO's .. ZELZELA's)"


class LevelBot(Bot):
    """LEVEL: plays at ``elo`` Elo above RANDOM in the ruleset it plays (module notes). Built for a ruleset
    (``get_bot("LEVEL:elo=500", ruleset="feskot")``) it checks ``elo`` against that ruleset's range at once;
    built without one it resolves the ruleset at its first decision. Without ``elo``: the middle of the range."""

    name = "LEVEL"
    kind = "heuristic"  # built for a ruleset: the kind of the bot it plays (search from JANGARA..TANOOR up)
    rank = None
    rulesets: ClassVar[tuple[str, ...] | None] = tuple(table_rulesets())
    description = (
        "any strength on request: LEVEL:elo=E plays at E Elo above RANDOM, between KADO's and ZELZELA's "
        "ratings, by interpolating the ladder (each ruleset's calibration table, levels.json in its package)"
    )
    # the range is each ruleset's (its class below); here any number, checked once the ruleset is known
    params_spec: ClassVar[tuple[Param, ...]] = (Param("elo", 0.0, ELO_DOC + " [the middle]", -1e6, 1e6),)
    ruleset: ClassVar[str | None] = None

    def __init__(self, **params: Any):
        try:
            super().__init__(**params)
        except BotError:
            refusal = self._range_refusal(params)
            if refusal:
                raise BotError(refusal) from None
            raise
        self._given = "elo" in params
        self._inner: dict[str, Bot] = {}
        if self.ruleset is not None:
            self._inner[self.ruleset] = self._resolve(self.ruleset)
            self.kind = self._inner[self.ruleset].kind

    @classmethod
    def _range_refusal(cls, params: dict) -> str | None:
        """For a number outside this ruleset's range: the refusal, with every ruleset's range (a user who
        knows one ruleset's scale would not guess another's)."""
        if cls.ruleset is None or "elo" not in params:
            return None
        try:
            elo = float(params["elo"])
        except (TypeError, ValueError):
            return None
        lo, hi = elo_range(entry_for(cls.ruleset))
        if not math.isfinite(elo) or lo <= elo <= hi:
            return None
        return (
            f"parameter 'elo' of LEVEL must be in {cls.ruleset}'s range {lo:.0f} .. {hi:.0f}, not {elo:g} "
            f"(LEVEL's Elo scale differs by ruleset: {ranges_text()}; tekkasim bots lists them)"
        )

    def _resolve(self, ruleset: str) -> Bot:
        entry = entry_for(ruleset)
        elo = float(self.params["elo"])
        if not self._given and self.ruleset is None:
            lo, hi = elo_range(entry)
            elo = (lo + hi) / 2
        return at_position(ruleset, position(entry, elo, ruleset))

    def inner(self, ruleset: str) -> Bot:
        """The bot this level plays in ``ruleset`` (a ladder bot, an interpolated one or a mixture)."""
        if ruleset not in self._inner:
            self._inner[ruleset] = self._resolve(ruleset)
        return self._inner[ruleset]

    def compiled_form(self, ruleset: str) -> np.ndarray | None:
        if not self.supports(ruleset):
            return None
        return self.inner(ruleset).compiled_form(ruleset)

    def act(self, view: View, rng: np.ndarray):
        return self.inner(view.game.name).act(view, rng)


def _ruleset_class(ruleset: str) -> type[LevelBot]:
    lo, hi = elo_range(entry_for(ruleset))
    mid = round((lo + hi) / 2)
    elo = Param("elo", float(mid), f"{ELO_DOC}: {lo:.0f} .. {hi:.0f}", lo, hi)
    return type(
        class_name(ruleset),
        (LevelBot,),
        {
            "rulesets": (ruleset,),
            "ruleset": ruleset,
            "params_spec": (elo,),
            "__module__": __name__,
            "__doc__": f"LEVEL in {ruleset}: ``elo`` from {lo:.0f} to {hi:.0f}.",
        },
    )


def class_name(ruleset: str) -> str:
    """The name of LEVEL's class for ``ruleset`` in this module (``bots.register`` target)."""
    return "Level" + ruleset.title()


for _r in table_rulesets():
    globals()[class_name(_r)] = _ruleset_class(_r)


def level_class(ruleset: str) -> type[LevelBot] | None:
    """LEVEL's class for ``ruleset`` (its Elo range from the table), or None when the table lacks it."""
    return globals().get(class_name(ruleset)) if ruleset in table_rulesets() else None


__all__ = [
    "LADDER_NAMES",
    "LevelBot",
    "Mixture",
    "at_position",
    "class_name",
    "curve",
    "elo_range",
    "entry_for",
    "level_class",
    "position",
    "shipped_table",
    "table_rulesets",
]
