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


# what a command stopped by a signal before it had anything to keep prints (the CLI and its entry)
STOPPED = "interrupted: stopped by {name}; run the same command again (a tournament resumes)"


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (SIGINT) or SIGTERM after it stored what was played and stopped its workers;
    the message says how much is stored and how to resume. A ``KeyboardInterrupt``, so that no ``except
    Exception`` on the way out swallows it; the CLI prints the message and exits with ``exit_code``, 128 plus
    the signal's number as a shell reports it (130 for SIGINT, 143 for SIGTERM)."""

    def __init__(self, message: str, signum: int):
        super().__init__(message)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def shorten(text: str, limit: int = 60) -> str:
    """``text`` cut to at most ``limit`` characters, for values echoed in messages (a 10,000-character
    input must not come back whole).

    >>> shorten("x" * 100, 10)
    'xxxxxx ...'
    """
    text = str(text)
    return text if len(text) <= limit else text[: limit - 4] + " ..."


def shorten_message(message: str, token_limit: int = 80, limit: int = 400) -> str:
    """A message with every over-long run of non-blank characters cut (and the whole at most ``limit``
    characters): the CLI's last guard that a huge value never reaches the terminal whole.

    >>> shorten_message("bad card " + "Q" * 500 + " here", token_limit=10)
    'bad card QQQQQQ ... here'
    """
    import re

    message = re.sub(rf"\S{{{token_limit + 1},}}", lambda m: shorten(m.group(0), token_limit), str(message))
    return shorten(message, limit)
