"""The one Game/State contract that every ruleset implements (after OpenSpiel's, trimmed to our needs).

A :class:`Game` is a ruleset with its options fixed (``get_game("tekka", raises=True)``). It makes
:class:`State` objects: one deal each, from a seed (``game.new_deal(seed)``) or from a deal record
(``game.from_record(record)``). A state moves only through ``apply_action``; every decision of the deal
is an action of the player whose turn it is — choosing Prime or Troupe, a call in the auction, a card
(with its signal), a raise request and its answer, a Satat accusation, a Shengji declaration, burial
or multi-card play. Chance (the shuffle) happens once, inside ``new_deal``; the state holds all four
hands from the start and :meth:`State.observation` hides what a seat may not see.

Actions are plain Python values, hashable and cheap: ints for the 52-card rulesets, tuples where a play
has several cards (Shengji). ``legal_actions()`` is sorted; ``action_to_string``/``string_to_action``
round-trip through the notation of ``records.md``.

Speed lives below this contract: every ruleset also offers compiled whole-deal kernels (for example
``game.play_random(n_deals, seed)``) that never return to Python per card, and its state wraps the
fixed-shape numpy arrays those kernels use, so a compiled policy or a determinized search can take
``state.arrays`` directly. The Python ``State`` is for orchestration, records, validation and tests.

The state-array convention: ``state.arrays`` holds fixed-shape numpy arrays (a tuple; Shengji a dict by
name), documented field by field in the ruleset's kernel module or state class. Hands are ``uint64`` card
masks indexed by seat (bit ``suit * 13 + rank``; Shengji a ``(one, two)`` pair of 54-kind masks per seat);
a deal's scalars live in one ``int64`` vector indexed by module constants (Feskot/Tekka ``info[I_*]`` in
``_trick52``; Satat ``st[...]`` in ``_satat_kernels``, with its per-play and per-trick tables appended at
offsets named the same way); tables are indexed ``[trick, play]`` with plays counted from the trick's
leader, and -1 marks "none yet". Seats are 0..3 (bottom, right, top, left), teams A = seats 0 and 2, B =
1 and 3. The 52-card trick rules these arrays are played by (legal cards, trick winner, next seat) are one
compiled core, ``rules._trickcore``, shared by Feskot, Tekka, Satat and the double-dummy solver.

Who acts: ``actors()`` lists every seat that may act now, the seat to move first; ``legal_actions_for(seat)``
gives each one's actions. Only Satat has actions out of turn (an accusation may be made by any seat while a
card is on the table, also after the fourth card of a trick and in phase ``"collect"``); the other rulesets
keep the default (the seat to move alone). Out-of-turn actions are optional, the seat to move must act.
A runner asks every actor (``tekkasim.bots.loop``, the one play loop: the out-of-turn seats first, then the
seat to move).

Chance after the deal (Satat redeals) comes from a chance source of its own, seeded with the deal and
never shared with a resampled world: ``resample`` gives each world a fresh source drawn from its ``rng``,
so a determinized search never sees the true future. Replaying a record reproduces its chance outcomes.

Matches (Tekka to 104, Satat to 5, Shengji past A) are sequences of deals: a terminal state's
``next_deal_context()`` gives the keyword arguments of ``new_deal`` for the next deal of the match
(scores, first seat, dealer, levels ...); ``tekkasim.simulate.play_deals`` / ``play_match`` chain them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ..errors import OptionError, shorten

TERMINAL = -1  # current_player() of a finished deal

Action = Hashable


@dataclass(frozen=True)
class Option:
    """One ruleset option (rules.md, marked **option**)."""

    name: str
    default: Any
    choices: tuple | None  # allowed values, or None for "any value of the default's type"
    doc: str


@dataclass
class Observation:
    """What one seat may see, and nothing more.

    ``hand`` is the seat's own cards (a 52-card mask, or a ``CardMultiset`` in Shengji) as far as it has
    been dealt them; ``public`` holds everything all four seats have seen (trump, calls, every card played
    by whom, signals, accusations, scores); ``private`` holds what only this seat knows besides its hand
    (the Shengji buried cards for the dealer, Satat exchange cards given and received). A bot must decide
    from an observation alone; ``State.resample`` builds full states consistent with one.

    Fields that every ruleset shares use the same names and types in ``public``:

    ``trump``       the trump of the deal: Feskot/Tekka Prime, Satat Troupe (a suit 0..3), Shengji trump
                    suit (0..3, 4 = no trump); None before it is known to this seat
    ``tricks``      every trick begun, in order, as ``{"leader": seat, "plays": [(seat, play), ...],
                    "winner": seat | None}``; ``play`` is a card (int) in the 52-card rulesets, a sorted
                    tuple of cards in Shengji; signals and accusations live in their own fields
    ``score``       the match score before this deal, ``(team A, team B)`` (Feskot: games won)
    ``won``         this deal's count so far, ``(team A, team B)``: tricks (Feskot, Tekka, Satat),
                    attackers' points in Shengji (defenders 0)
    ``hand_sizes``  cards each seat holds now, a list of 4 ints
    ``voids``       per seat, a bitmask of the suits it has shown void in by not following (Shengji:
                    effective suits, bit 4 = trumps); in Satat an apparent void only (a Renonce can hide it)
    """

    seat: int
    phase: str
    to_move: int
    hand: Any
    public: dict = field(default_factory=dict)
    private: dict = field(default_factory=dict)


def freeze(value: Any) -> Hashable:
    """A hashable, canonical copy of an observation (dicts by sorted key, lists and arrays as tuples).

    >>> freeze({"b": [1, 2], "a": {"x": None}})
    (('a', (('x', None),)), ('b', (1, 2)))
    """
    if isinstance(value, Observation):
        return (
            "obs",
            value.seat,
            value.phase,
            value.to_move,
            freeze(value.hand),
            freeze(value.public),
            freeze(value.private),
        )
    if isinstance(value, dict):
        return tuple((k, freeze(v)) for k, v in sorted(value.items(), key=lambda kv: str(kv[0])))
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, set | frozenset):
        return tuple(sorted(freeze(v) for v in value))
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return freeze(value.tolist())
    hash(value)  # anything else must already be hashable (ints, strings, CardMultiset ...)
    return value


class State(ABC):
    """One deal in progress. Subclasses keep their data in fixed-shape arrays plus the action history."""

    game: Game

    # --- whose turn and what may be done --------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act (0..3), or TERMINAL."""

    @abstractmethod
    def phase(self) -> str:
        """The stage of the deal: ``"prime"``, ``"auction"``, ``"play"``, ``"declare"``, ``"bury"``,
        ``"raise"``, ``"terminal"`` ... (ruleset-specific names, documented in the ruleset module)."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The actions the rules allow the current player, sorted. Empty when terminal."""

    def possible_actions(self) -> list[Action]:
        """Every action the rules accept from the seat to move, sorted: ``legal_actions()`` plus any that
        the rules let be played but random play and search leave out (Feskot/Tekka cards with a signal,
        Satat Renonces, which risk an accusation). The legal actions elsewhere."""
        return self.legal_actions()

    @abstractmethod
    def apply_action(self, action: Action) -> None:
        """Play ``action`` for the current player; raise ``IllegalAction`` (with ``rule``) if not allowed."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    # --- outcome --------------------------------------------------------------------------------
    @abstractmethod
    def result(self) -> dict:
        """The ``result`` object of records.md for a terminal state."""

    @abstractmethod
    def returns(self) -> tuple[float, float]:
        """What the deal gave team A and team B in the ruleset's own unit (tricks in Feskot, points in
        Tekka and Satat, levels gained in Shengji). Before the end of the deal: ``TekkasimError`` ("the
        deal is not over ..."), never partial numbers."""

    def next_deal_context(self) -> dict:
        """``new_deal`` keyword arguments for the next deal of the match (terminal states only)."""
        return {}

    def match_winner(self) -> int | None:
        """0 (team A) or 1 (team B) when this deal ends the match, else None."""
        return None

    # --- who may act -----------------------------------------------------------------------------
    def actors(self) -> list[int]:
        """Every seat that may act now: the seat to move first, then the seats that may act out of turn
        (Satat accusations), in seat order. Empty when the deal is over.

        A tournament runner or self-play loop offers each of them ``legal_actions_for(seat)``; out-of-turn
        actions are optional (a seat asked may decline), the seat to move must act."""
        p = self.current_player()
        return [] if p == TERMINAL else [p]

    def legal_actions_for(self, seat: int) -> list[Action]:
        """The actions ``seat`` may take now, sorted: ``legal_actions()`` for the seat to move, its optional
        out-of-turn actions for any other seat (empty in rulesets without them). ``apply_action`` accepts
        any of them (an out-of-turn action names its actor, as a Satat accusation does)."""
        return self.legal_actions() if seat == self.current_player() else []

    # --- information ----------------------------------------------------------------------------
    @abstractmethod
    def observation(self, seat: int) -> Observation:
        """Exactly what ``seat`` may see now."""

    def information_key(self, seat: int) -> Hashable:
        """A hashable value, equal for two states exactly when ``seat``'s observations are equal (own cards,
        public history, private knowledge): the key of an information set. Resampled worlds
        (``resample(seat, rng)``) have the same key as the state they came from."""
        return freeze(self.observation(seat))

    def resample(self, seat: int, rng) -> State:
        """A full state consistent with ``seat``'s observation, hidden cards redrawn (determinization).

        ``rng`` is a kernel RNG state, ``tekkasim.bits.new_rng(seed)`` (advanced in place), so that the same
        sampler can run in compiled code. The world depends only on the seat's observation and ``rng``
        (hidden cards are gathered in sorted order before they are shuffled), has the same
        ``information_key(seat)``, carries no seed of the true deal, and draws any chance still to come
        (a Satat redeal) from a fresh source taken from ``rng``, never the true deal's."""
        raise NotImplementedError(f"{self.game.name} does not resample yet")

    # --- copies, text and records ---------------------------------------------------------------
    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    @abstractmethod
    def history(self) -> list[Action]:
        """Every action applied since the deal, in order."""

    @abstractmethod
    def action_to_string(self, action: Action) -> str:
        """The records.md text of an action in this state (``"TS"``, ``"TS:slam"``, ``"D13"``, ``"S"`` ...)."""

    @abstractmethod
    def string_to_action(self, text: str) -> Action:
        """Parse records.md text into an action in this state (raises ``TekkasimError`` on bad text)."""

    @abstractmethod
    def where(self) -> str:
        """Where the next action falls, for messages, counting from 1: ``"trick 3, play 2 (right)"``,
        ``"auction, call 4 (left)"``. ``tekkasim verify`` puts it before the rule that an action breaks."""

    @abstractmethod
    def to_record(self) -> dict:
        """The deal record (records.md) of the deal so far; ``unfinished: true`` if not terminal."""

    def render(self) -> str:
        """A readable rendering for ``tekkasim replay``."""
        return str(self)


class Game(ABC):
    """A ruleset with fixed options. Subclasses are registered by ``name`` in ``tekkasim.rules``."""

    name: ClassVar[str]
    description: ClassVar[str]
    returns_unit: ClassVar[str] = "points"  # what State.returns() counts
    options_spec: ClassVar[tuple[Option, ...]] = ()

    # Metadata (after OpenSpiel's GameType): what code outside a ruleset's own modules asks instead of
    # branching on its name (docs/adding-a-ruleset.md).
    has_matches: ClassVar[bool] = True  # deals chain into matches (next_deal_context, match_winner)
    first_seat: ClassVar[str] = "first"  # new_deal's keyword for the seat a first deal starts from
    first_seat_label: ClassVar[str] = "first"  # what that seat is called, e.g. in a rendered header
    first_five: ClassVar[bool] = False  # a seat's first five cards dealt decide something (Prime, Troupe)
    trump_name: ClassVar[str] = "trump"  # the trump's name in the ruleset's own words
    action_kinds: ClassVar[tuple[str, ...]] = ()  # the kinds of decision, in the order a deal meets them
    out_of_turn: ClassVar[bool] = False  # some actions are taken out of turn (State.actors)
    trick_rules: ClassVar[str | None] = None  # the double-dummy solver's 52-card trick rules, if it solves it
    # what State.possible_actions adds to the legal ones: False, other forms of legal actions (signalled
    # plays); True, fouls a player may still commit at a risk (Satat's Renonces)
    possible_are_fouls: ClassVar[bool] = False
    # record fields of the ruleset's own (beyond records.md's) that hold nothing hidden, in the order a deal
    # meets them: engines' and people's observations keep them, renderings show them (a plug-in's bids)
    public_record_fields: ClassVar[tuple[str, ...]] = ()

    @property
    def takes_signals(self) -> bool:
        """Whether, with these options, the rules accept cards played with a signal
        (``State.possible_actions``)."""
        return False

    def __init__(self, **options: Any):
        known = {o.name: o for o in self.options_spec}
        self.options: dict[str, Any] = {o.name: o.default for o in self.options_spec}
        for key, value in options.items():
            if key not in known:
                names = ", ".join(known) or "none"
                raise OptionError(f"unknown option {key!r} for {self.name} (options: {names})")
            self.options[key] = _check_option(self.name, known[key], value)

    @abstractmethod
    def new_deal(self, seed: int, **context: Any) -> State:
        """Shuffle and deal from ``seed``; ``context`` is match state from ``next_deal_context``."""

    @abstractmethod
    def from_record(self, record: dict) -> tuple[State, list[str]]:
        """The state right after the deal of a record and the record's actions as text, in order.

        The caller applies them one by one with ``string_to_action`` and ``apply_action``, so that
        ``tekkasim verify`` can name the exact action that breaks a rule. Raises ``RecordError`` for a
        malformed header (missing field, bad hand, duplicate card, wrong hand size).
        """

    def play_random(self, n_deals: int, seed: int) -> dict:
        """Play ``n_deals`` deals with uniformly random legal actions in one compiled kernel call; return
        numpy arrays of per-deal outcomes (at least ``"returns"``: shape (n, 2)). Deal i uses seed
        ``seed + i``, so any split of the deals over workers gives the same outcomes."""
        raise NotImplementedError

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != _default(self, k)}
        args = ", ".join([repr(self.name)] + [f"{k}={v!r}" for k, v in changed.items()])
        return f"get_game({args})"


MAX_SEED = 2**63 - 1


def check_seed(seed: Any) -> int:
    """A deal seed as an int in 0 .. 2**63-1 (seeds are stored in records; larger ones would alias modulo
    2**64), else ``OptionError`` with one line.

    >>> check_seed(7), check_seed(np.int64(3))
    (7, 3)
    """
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise OptionError(f"a seed must be an integer from 0 to 2**63-1, not {shorten(repr(seed))}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise OptionError(f"seed {shorten(str(seed))} is outside 0 .. 2**63-1")
    return int(seed)


def _default(game: Game, name: str) -> Any:
    return next(o.default for o in game.options_spec if o.name == name)


def _check_option(game: str, option: Option, value: Any) -> Any:
    """Coerce text from the CLI (``"true"``, ``"7"``) and reject values outside the option's domain."""
    default = option.default
    if isinstance(value, str) and not isinstance(default, str):
        low = value.strip().lower()
        if isinstance(default, bool):
            if low in ("true", "yes", "1", "on"):
                value = True
            elif low in ("false", "no", "0", "off"):
                value = False
        elif isinstance(default, int):
            try:
                value = int(low)
            except ValueError:
                pass
    ok_type = isinstance(value, type(default)) and (isinstance(default, bool) or not isinstance(value, bool))
    if not ok_type or (option.choices is not None and value not in option.choices):
        allowed = " or ".join(map(str, option.choices)) if option.choices else type(default).__name__
        raise OptionError(f"bad value {value!r} for option {option.name!r} of {game} (expected {allowed})")
    return value
