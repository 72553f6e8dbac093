"""The bot interface: one seat's view of a decision, the :class:`Bot` base class and its parameters.

A bot decides from a :class:`View` alone: the seat's observation, its legal actions, and a way to sample
full deals consistent with what the seat has seen (``view.sample(rng)``, determinization). It never gets
the true state (``ORACLE``, marked ``cheating``, is the one exception). Bots hold no memory between
decisions: everything a bot "remembers" is read from the observation, and the ``memory`` parameter of a
ladder bot limits how much of it the bot uses. So two states with the same observation for the deciding
seat give the same decision for the same seed, whatever the hidden cards.

Randomness is explicit: ``act(view, rng)`` gets a kernel RNG (``tekkasim.bits.new_rng(seed)``), usable
in Python (``bits.below(rng, n)``) and in compiled policies alike.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..bits import below, mistake, new_rng
from ..errors import BotError
from ..rules.base import Action, Game, Observation, State

KINDS = ("baseline", "heuristic", "search", "oracle")


@dataclass(frozen=True)
class Param:
    """One documented bot parameter. Numbers have a closed range ``[lo, hi]``; text has ``choices``."""

    name: str
    default: Any
    doc: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple | None = None

    def check(self, bot: str, value: Any) -> Any:
        """``value`` coerced to the default's type (text from the command line too) and range-checked."""
        default = self.default
        try:
            if isinstance(default, bool):
                if isinstance(value, str):
                    low = value.strip().lower()
                    if low not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                        raise ValueError
                    value = low in ("true", "yes", "1", "on")
                elif not isinstance(value, bool | int | np.integer) or int(value) not in (0, 1):
                    raise ValueError
                value = bool(value)
            elif isinstance(default, int):
                if isinstance(value, bool):
                    raise ValueError
                if isinstance(value, str):
                    value = int(value.strip())
                elif isinstance(value, float) and not value.is_integer():
                    raise ValueError
                value = int(value)
            elif isinstance(default, float):
                if isinstance(value, bool):
                    raise ValueError
                value = float(value.strip() if isinstance(value, str) else value)
                if value != value:  # NaN
                    raise ValueError
            elif isinstance(default, str):
                value = str(value).strip().lower()
        except (TypeError, ValueError):
            raise BotError(
                f"bad value {_short(value)!r} for parameter {self.name!r} of {bot} (expected {type(default).__name__})"
            ) from None
        if self.choices is not None and value not in self.choices:
            raise BotError(
                f"bad value {_short(value)!r} for parameter {self.name!r} of {bot} "
                f"(expected one of {', '.join(map(str, self.choices))})"
            )
        if self.lo is not None and value < self.lo or self.hi is not None and value > self.hi:
            raise BotError(f"parameter {self.name!r} of {bot} must be in [{self.lo}, {self.hi}], not {value}")
        return value


def _short(value: Any, limit: int = 40) -> Any:
    text = str(value)
    return value if len(text) <= limit else text[: limit - 3] + "..."


MISTAKE_RATE = Param("mistake_rate", 0.0, "probability of playing a uniformly random legal action instead", 0.0, 1.0)
# The heuristic policies' plausible mistakes (issue 25; docs/blunders.md): ``mistake_rate`` is still the
# probability that a decision is a mistake, these say which mistake it is.
PLAUSIBLE_MISTAKE_RATE = Param(
    "mistake_rate", 0.0, "probability that a decision is a mistake (a plausible one, see mistake_temperature)", 0.0, 1.0
)
MISTAKE_TEMPERATURE = Param(
    "mistake_temperature",
    0.1,
    "softmax temperature (tricks) of a card mistake over what each other card costs by the bot's own evaluation",
    0.0,
    5.0,
)
MISTAKE_UNIFORM = Param("mistake_uniform", False, "a mistake is a uniformly random legal action (the old draw)")


class View:
    """What the deciding seat may use: observation, legal actions, sampling of consistent worlds.

    ``possible`` is ``State.possible_actions()``: the legal actions and those the rules accept besides
    (cards with a signal, Satat Renonces that risk an accusation); a bot that does not signal or bluff
    chooses from ``legal``.
    ``optional`` is True for an out-of-turn decision (a Satat accusation): the bot may return None to
    decline. The true state stays private; only a ``cheating`` bot may ask for it (``true_state``).
    """

    __slots__ = ("seat", "legal", "optional", "_state", "_obs", "_key", "_possible")

    def __init__(self, state: State, seat: int):
        self._state = state
        self.seat = seat
        self.legal: list[Action] = state.legal_actions_for(seat)
        self.optional = seat != state.current_player()
        self._obs: Observation | None = None
        self._key: Hashable | None = None
        self._possible: list[Action] | None = None

    @property
    def possible(self) -> list[Action]:
        """``State.possible_actions()`` for the seat to move (made on first use), ``legal`` out of turn."""
        if self._possible is None:
            self._possible = self.legal if self.optional else self._state.possible_actions()
        return self._possible

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def observation(self) -> Observation:
        if self._obs is None:
            self._obs = self._state.observation(self.seat)
        return self._obs

    @property
    def key(self) -> Hashable:
        """The seat's information key (equal views have equal keys)."""
        if self._key is None:
            self._key = self._state.information_key(self.seat)
        return self._key

    def sample(self, rng: np.ndarray) -> State:
        """A full deal consistent with everything this seat has seen, hidden cards redrawn uniformly, with
        fresh chance for anything still to come; ``rng`` (a kernel RNG) is advanced in place."""
        return self._state.resample(self.seat, rng)

    def action_to_string(self, action: Action) -> str:
        return self._state.action_to_string(action)

    def true_state(self, bot: Bot) -> State:
        """The real state, for cheating bots only (ORACLE)."""
        if not bot.cheating:
            raise BotError(f"{bot.label} is not a cheating bot and may not see the true state")
        return self._state


class Bot:
    """A bot: a named preset of documented parameters and a decision rule over a :class:`View`.

    Subclasses set the class attributes and implement :meth:`act`. ``params`` holds every parameter's
    value (defaults, then the preset, then the caller's overrides)."""

    name: ClassVar[str] = "BOT"
    kind: ClassVar[str] = "heuristic"
    rank: ClassVar[int | None] = None  # 0..8 on the ladder, None outside it
    rulesets: ClassVar[tuple[str, ...] | None] = None  # the rulesets it plays; None: every ruleset
    cheating: ClassVar[bool] = False
    description: ClassVar[str] = ""
    params_spec: ClassVar[tuple[Param, ...]] = (MISTAKE_RATE,)
    preset: ClassVar[dict[str, Any]] = {}

    def __init__(self, **params: Any):
        spec = {p.name: p for p in self.params_spec}
        self.params: dict[str, Any] = {p.name: p.default for p in self.params_spec}
        for key, value in {**self.preset, **params}.items():
            if key not in spec:
                known = ", ".join(spec) or "none"
                raise BotError(f"unknown parameter {key!r} for bot {self.name} (parameters: {known})")
            self.params[key] = spec[key].check(self.name, value)

    @property
    def label(self) -> str:
        """``NAME`` or ``NAME:param=value,...`` for the parameters that differ from the preset."""
        base = {p.name: p.default for p in self.params_spec} | dict(self.preset)
        changed = [f"{k}={v}" for k, v in self.params.items() if base.get(k) != v]
        return self.name + (":" + ",".join(changed) if changed else "")

    @classmethod
    def plays(cls, ruleset: str) -> bool:
        """Whether this class plays ``ruleset`` (``rulesets``; a generic bot may ask the ruleset instead)."""
        return cls.rulesets is None or ruleset in cls.rulesets

    def supports(self, ruleset: str) -> bool:
        """Whether this bot plays ``ruleset`` (an instance may know more than its class: an engine's hello)."""
        return self.rulesets is None or ruleset in self.rulesets

    def compiled_form(self, ruleset: str) -> np.ndarray | None:
        """The parameter vector with which this bot plays in ``ruleset``'s compiled whole-deal loop
        (``bots.compiled.play_tables``: the same decisions as ``act``), or None when it has none there."""
        return None

    def act(self, view: View, rng: np.ndarray) -> Action | None:
        """The action for ``view.seat`` (one of ``view.legal``), or None to decline an optional one."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"get_bot({self.label!r})"


def random_legal(view: View, rng: np.ndarray) -> Action:
    """A uniformly random action of ``view.legal``."""
    return view.legal[int(below(rng, len(view.legal)))]


def sign_test_p(wins: int, losses: int) -> float:
    """One-sided sign test: the chance of at least ``wins`` of ``wins + losses`` worlds favouring an
    option when each favours it or the prior with probability 1/2 (ties left out)."""
    n = wins + losses
    return sum(math.comb(n, i) for i in range(wins, n + 1)) / 2.0**n if n else 1.0


def keep_prior(per_world: np.ndarray, prior: int, z: float, margin: float = 0.0, sign: bool = False) -> int:
    """The option a determinized search plays, from its scores ``per_world`` (worlds x options): ``prior``
    (the index of the policy's own option, JANGARA's; -1 if it has none) unless another option beats it by
    more than ``margin`` on the paired differences over the same worlds with a t-statistic of at least
    ``z`` (a lead that is the same in every world counts as sure), then the best such option by mean. With
    ``sign`` the lead must also pass the sign test at the same level (the worlds favouring the option
    against those favouring the prior): with win-or-lose scores over a few worlds the t-statistic calls
    four worlds out of four sure, a chance of 1 in 16. With
    ``z`` = 0, one world or no prior: the best mean after ``margin`` is credited to the prior, ties to the
    prior, else to the first. Why: over a few worlds the best mean overturns a good policy option by noise
    (the search bots of every ruleset lost to JANGARA that way)."""
    n = per_world.shape[0]
    if prior < 0 or z <= 0 or n < 2:
        mean = per_world.mean(axis=0)
        if prior >= 0:
            mean[prior] += margin
        top = np.flatnonzero(mean >= mean.max() - 1e-9)
        return prior if prior in top else int(top[0])
    diff = per_world - per_world[:, prior : prior + 1] - margin
    lead = diff.mean(axis=0)
    se = diff.std(axis=0, ddof=1) / np.sqrt(n)
    sure = (lead > 1e-9) & (lead >= z * se)
    sure[prior] = False
    if sign:
        level = 0.5 * math.erfc(z / math.sqrt(2.0))  # one-sided normal tail of z
        for i in np.flatnonzero(sure):
            wins, losses = int((diff[:, i] > 1e-9).sum()), int((diff[:, i] < -1e-9).sum())
            sure[i] = sign_test_p(wins, losses) <= level
    if not sure.any():
        return prior
    return int(np.flatnonzero(sure)[np.argmax(lead[sure])])


def maybe_mistake(bot: Bot, view: View, rng: np.ndarray) -> Action | None:
    """With probability ``mistake_rate``, a uniformly random legal action (the bot's slip), else None;
    the draw is ``bits.mistake``, the one every compiled policy makes too."""
    if view.optional or not view.legal:
        return None
    if mistake(rng, float(bot.params.get("mistake_rate", 0.0))):
        return random_legal(view, rng)
    return None


class RandomBot(Bot):
    """RANDOM: a uniformly random legal action; declines every optional (out-of-turn) action. The Elo
    anchor: its rating is 0 whenever it plays."""

    name = "RANDOM"
    kind = "baseline"
    description = "uniformly random legal action; never accuses; the fixed Elo anchor (0)"
    params_spec = ()

    def act(self, view: View, rng: np.ndarray) -> Action | None:
        if view.optional:
            return None
        return random_legal(view, rng)

    def compiled_form(self, ruleset: str) -> np.ndarray | None:
        from .compiled import compiled_loop

        loop = compiled_loop(ruleset)
        return None if loop is None or loop.RANDOM_FORM is None else loop.RANDOM_FORM.copy()


def decide(bot: Bot, state: State, seat: int, seed: int) -> Action | None:
    """The one path every decision takes (``choose``, self-play, tournaments): build the seat's view, ask
    the bot, check the answer. Raises ``BotError`` naming the bot and the decision if the bot raises or
    answers with an action the rules do not allow now."""
    view = View(state, seat)
    where = f"{state.where()}, {['bottom', 'right', 'top', 'left'][seat]}"
    if not bot.supports(state.game.name):  # e.g. Feskot's TANA asked to play Tekka, whose TANA differs
        game = state.game.name
        raise BotError(
            f"bot {bot.label} does not play {game} ({where}); for a built-in name, "
            f"get_bot({bot.name!r}, ruleset={game!r}) gives its {game} form"
        )
    try:
        action = bot.act(view, new_rng(seed))
    except BotError:
        raise
    except Exception as exc:  # a user's bot may raise anything: one line, never a traceback
        raise BotError(f"bot {bot.label} raised {type(exc).__name__}: {_short(exc, 120)} ({where})") from exc
    if action is None:
        if view.optional:
            return None
        raise BotError(f"bot {bot.label} returned no action ({where})")
    try:  # an array answer makes `in` raise (its truth value is ambiguous): still the bot's illegal action
        allowed = action in view.legal or action in view.possible
    except (TypeError, ValueError):
        allowed = False
    if not allowed:
        text = _short(repr(action), 60)
        raise BotError(f"bot {bot.label} returned an illegal action {text} ({where})")
    return action
