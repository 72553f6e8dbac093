"""Errors a user can cause. Each carries one line that names what is wrong.

The CLI turns any :class:`TekkasimError` into that line on stderr and a non-zero exit, so library code
raises these (never ``assert`` or bare ``ValueError``) for anything that comes from outside: card text,
seats, options, records and actions.
"""


class TekkasimError(ValueError):
    """Base class of every user-facing error."""


class CardError(TekkasimError):
    """Malformed, unknown or duplicate card."""


class SeatError(TekkasimError):
    """Unknown seat name."""


class OptionError(TekkasimError):
    """Unknown ruleset, unknown option or a bad option value."""


class RecordError(TekkasimError):
    """A deal record that cannot be read (malformed JSON, missing or mistyped field)."""


class IllegalAction(TekkasimError):
    """An action that the rules do not allow in this state.

    ``rule`` is a short tag of the rule broken (``"follow-suit"``, ``"not-in-hand"``, ``"wrong-turn"``,
    ``"outbid"`` ...); the message says it in words.
    """

    def __init__(self, message: str, rule: str = "illegal"):
        super().__init__(message)
        self.rule = rule


class BotError(TekkasimError):
    """An unknown bot or bot parameter, a custom bot that does not import, or a bot that raised or chose
    an action the rules do not allow (the message names the bot and the decision)."""
