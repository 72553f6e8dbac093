"""The tournament's blocks of Satat rounds (``tekkasim.tournament.play``'s hooks, named by
``Ruleset.blocks``): a compiled block played by one kernel call that keeps the actions as the CARDS coder
reads them (``_play_block``)."""

from __future__ import annotations

from tekkasim.tournament.play import CARDS, played_columns


def played_block(game, px, py, seeds):
    """``(CARDS, payload, columns, score)`` of a compiled block, or None when the kernel could not code it
    (then ``play_tables`` plays it and the generic CARDS coder codes it)."""
    from tekkasim.rulesets.satat._play_block import satat_play_block

    played = satat_play_block(px, py, seeds)
    return None if played is None else (CARDS, *played_columns(played))
