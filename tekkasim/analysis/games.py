"""Tables of deal records shared by the rulesets' own statistics (``tekkasim.rulesets.<name>.stats``):
rates with Wilson 95% intervals and means with normal ones, by any column, and the records' seats and bots.

Each ruleset's ``*_deals(records)`` turns deal records (records.md; e.g. ``tournament.iter_records(DIR)``
or ``records.read_records(FILE)``) into one row per deal; these functions tabulate such rows with their
sample sizes and intervals. Bots come from the records' ``players`` (or ``bots``) field.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..cards import SEATS
from ._records import wilson_interval
from .duplicate import AnalysisError

Z95 = 1.959963984540054
_RANKS = "23456789TJQKA"
_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}


def _seat(name: str) -> int:
    return SEATS.index(name)


def _bots(rec: dict) -> dict:
    return rec.get("players") or rec.get("bots") or {}


def rate_table(frame: pd.DataFrame, by, success: str) -> pd.DataFrame:
    """Per group of ``by``: n, successes, rate and its Wilson 95% interval."""
    g = frame.groupby(by, dropna=False)[success]
    out = pd.DataFrame({"n": g.size(), "successes": g.sum().astype(int)})
    out["rate"] = out["successes"] / out["n"]
    lo, hi = wilson_interval(out["successes"].to_numpy(), out["n"].to_numpy())
    out["lo"], out["hi"] = lo, hi
    return out


def mean_table(frame: pd.DataFrame, by, value: str) -> pd.DataFrame:
    """Per group of ``by``: n, mean of ``value`` and its 95% interval (normal approximation)."""
    g = frame.groupby(by, dropna=False)[value]
    out = pd.DataFrame({"n": g.size(), "mean": g.mean(), "sd": g.std(ddof=1)})
    half = Z95 * out["sd"] / np.sqrt(out["n"])
    out["lo"], out["hi"] = out["mean"] - half, out["mean"] + half
    return out.drop(columns="sd")


def _require(records: Iterable[dict], ruleset: str) -> list[dict]:
    recs = list(records)
    bad = [r.get("ruleset") for r in recs if r.get("ruleset") != ruleset]
    if bad:
        raise AnalysisError(f"these are {ruleset} statistics, but a record is {bad[0]!r}")
    return [r for r in recs if not r.get("unfinished") and r.get("result")]


# --- Feskot -------------------------------------------------------------------------------------------
