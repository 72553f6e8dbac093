"""Blunder profiles of Satat (``tekkasim.analysis.blunders``'s hooks): what kind of option an action is;
the 2♥ is a ruff wherever it is played to a trick it did not lead."""

from __future__ import annotations

from tekkasim.cards import parse_card
from tekkasim.rulesets.satat import game as S

RUFF_ANYWHERE = frozenset({parse_card("2H")})


def option(action: int) -> tuple[str, int | None]:
    """``(category, option)`` of an action: a card, a Troupe suit, or a category that is not priced
    (``redeal``, ``collect``, ``accusation``)."""
    a = int(action)
    if a < 52:
        return "card", a
    if a < S.REDEAL:
        return "prime", a - S.TROUPE
    if a == S.REDEAL:
        return "redeal", None
    return ("collect", None) if a == S.COLLECT else ("accusation", None)
