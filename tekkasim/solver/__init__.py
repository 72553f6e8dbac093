"""Solvers: exact double-dummy trick counts (``dd``) for the 52-card rulesets."""

from .dd import Position, Solver, can_reach, card_values, solve, trick_table

__all__ = ["Position", "Solver", "can_reach", "card_values", "solve", "trick_table"]
