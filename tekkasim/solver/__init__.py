"""Solvers: exact double-dummy trick counts (``dd``) for the 52-card rulesets, from hands, game states
or deal records."""

from .dd import Position, Solver, can_reach, card_values, default_solver, solve, state_at, trick_table

__all__ = ["Position", "Solver", "can_reach", "card_values", "default_solver", "solve", "state_at", "trick_table"]
