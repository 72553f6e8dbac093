"""Blunder profiles of Feskot and Tekka (``tekkasim.analysis.blunders``'s hooks): what kind of option an
action is. Tekka's auction is priced in ``tekkasim.rulesets.tekka.blunders``."""

from __future__ import annotations

from tekkasim.rulesets.trick52 import _kernels as T


def option(action: int) -> tuple[str, int | None]:
    """``(category, option)`` of an action: a card (signals dropped), a Prime suit, a call code, or
    ``raise`` (not priced)."""
    a = int(action)
    if a < T.PRIME_BASE:
        return "card", a % T.SIGNAL_MULT
    if a < T.CALL_BASE:
        return "prime", a - T.PRIME_BASE
    if a < T.RAISE_BASE:
        return "bid", a - T.CALL_BASE
    return "raise", None
