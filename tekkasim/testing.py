"""The conformance check of a ruleset (spec/rulesets.md, "The conformance check"): what a ruleset author
runs to learn whether a ``Game``/``State`` pair keeps the contract of ``tekkasim.rules.base``.

>>> from tekkasim.testing import check_ruleset
>>> result = check_ruleset("feskot", deals=2, seed=1)   # doctest: +SKIP
>>> result == [], result.decisions > 0                  # doctest: +SKIP
(True, True)

:func:`check_ruleset` plays seeded deals, most with random players and, when ``tekkasim.bots`` knows the
generic search bots (``PIMC``, ``ISMCTS``), a few more with one of them at one seat on a tiny budget. Deal
``i`` of a run is dealt from seed ``seed + i``; deals chain into matches through ``next_deal_context()``
(as ``simulate.play_deals`` chains them), so a violation is reproduced by the same run,
``check_ruleset(name, deals=i + 1, seed=seed)`` (``tekkasim check-ruleset NAME --seed SEED --deals i+1``),
and by the deal's own seed alone when the deal is the first of its match (no context). Random players pick
a legal action, now and then one that only ``possible_actions()`` offers (a signalled card, a Satat
Renonce) or an out-of-turn one (an accusation), from a ``random.Random`` seeded by the deal's seed.

It returns a :class:`CheckResult`: a list of violation lines (empty when the ruleset conforms), each
``PROPERTY: seed S (deal i of the run from seed R), decision k (where): what is wrong``, where decision k
counts the actions applied to the deal before it and ``where`` is ``State.where()`` ("the deal" before
the first decision, "the end of the deal" after the last). Only a property's first violation in a deal is
a line (ending ``[+N more in this deal]`` when there are more), and at most ``LINES_PER_PROPERTY`` a run;
``CheckResult.failed`` counts them all. The checks, each on every decision unless said otherwise; a check
that raises is that property's violation (``raised KeyError: ...``), so nothing a ruleset does sends a
traceback out of the check:

``current-player``
    ``current_player()`` is an int 0..3 or ``TERMINAL`` and ``is_terminal()`` agrees; ``phase()`` and
    ``where()`` are text; a deal ends within ``MAX_DECISIONS`` decisions.
``legal-actions``
    ``legal_actions()`` is non-empty and strictly ascending (sorted, no repeats); ``actors()`` starts with
    the seat to move and repeats none; every actor's ``legal_actions_for`` is non-empty and ascending, the
    mover's holds every legal action, a seat not acting has none; ``possible_actions()`` is ascending and
    holds every legal action. At the end: no actor and no action.
``illegal-action``
    Actions not accepted now, meaning in neither ``possible_actions()`` nor any actor's
    ``legal_actions_for`` (actions that were legal earlier in the run: cards already played or held by
    another seat, calls of a finished auction ...; and junk: negative, huge, ``None``, text, floats,
    ``True``, tuples), applied to a clone, raise ``IllegalAction`` and leave the clone's history as it was.
    Three of each per decision, drawn at random, and at the end of the deal.
``clone``
    ``clone()`` is a new object of the state's type; applying a legal action to it leaves the original's
    snapshot as it was, and applying the move to the original leaves the snapshot of a clone taken before
    as it was. A snapshot: ``history()``, ``current_player()``, ``phase()``, ``legal_actions()`` and every
    seat's ``observation`` (``freeze``); the clones' information keys are checked by the key maps below.
``information-key``
    Keys are hashable, and over every state seen in a deal (each position, a clone that took another action
    there, the resampled worlds) a seat's equal keys come with equal observations and its equal
    observations with equal keys (OpenSpiel's information state: equal exactly when observations are).
``observation``
    ``observation(seat)`` is an ``Observation`` of that seat, and a world resampled for a seat shows it the
    same observation as the true state (the line names the first field that differs: either the
    observation shows a card the seat cannot know, or ``resample`` changed what the seat saw).
``resample``
    For the seat to move and one more seat in turn (``k % 4``), ``worlds`` worlds: each a new state with
    the seat's information key, the same seat to move, phase, actors and the seat's legal actions; ``rng``
    (``bits.new_rng``) advanced in place; the state drawn from left as it was. Every other decision, for
    the seat to move, the world depends on the observation and the rng alone: the true state and a world
    of it, resampled for the seat with the same rng, give the same world (every seat's key and the record
    but its ``seed``), and the true deal's seed is not in a world's record. And the world does not carry
    the true hidden cards: a
    world *carries the true hidden cards* when every other seat's hand (``observation(other).hand``, what it
    holds now) is its true one; for each seat, over a deal, at least one of the worlds drawn for it while
    two or more other seats held cards, ``MIN_HIDDEN`` or more in all, must not (a uniform redraw of the
    39 cards hidden at a deal's first decisions matches the truth about never; a resample that returns the
    true cards always does).
``record``
    At the end of each deal and at one decision mid-deal: ``to_record()`` is a JSON object with the common
    fields of records.md (``format`` 1, ``ruleset`` the game's name, ``hands``, ``tricks``, ``unfinished``
    true exactly while the deal is not over); after a JSON round trip ``from_record`` gives a state and
    action strings whose replay (``string_to_action``, ``apply_action``) gives the same history and the same
    record.
``verify``
    ``tekkasim.verify.verify_record`` passes the record (mid-deal: as unfinished) and recomputes the
    state's ``result()``.
``same-seed``
    ``new_deal(seed, **context)`` twice gives equal records, observations and legal actions; the next seed
    gives another deal (records differ beyond ``seed``); at the end, ``next_deal_context()`` is a dict.
``returns``
    Before the end ``returns()`` raises ``TekkasimError`` ("the deal is not over"), never numbers; at the
    end two finite numbers, and ``result()`` is a dict.
``action-text``
    ``action_to_string`` gives text that ``string_to_action`` reads back to the same action, for the action
    played and up to ``TEXT_SAMPLE`` of the actions offered.
``tensors``
    Only when the state has ``observation_tensor`` (envs.md's learning tensors): a seat's tensor (and
    ``action_mask``, if any) is the same in every world resampled for it, and equal keys give equal tensors
    (no peeking); the mask is 1 at every legal action's ``Game.action_index``. Absent, a note says so.
``bot``
    A generic search bot failed to decide (``BotError``); that decision is made at random instead.
``play``
    ``apply_action`` refused an action the state offered, or ``new_deal`` failed: the deal stops there.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from .bits import mix_seed, new_rng
from .cards import SEATS
from .errors import IllegalAction, OptionError, TekkasimError, shorten
from .records import FORMAT
from .rules.base import MAX_SEED, TERMINAL, Game, Observation, State, freeze

DEFAULT_DEALS = 20  # random deals of `tekkasim check-ruleset` (the library's default too)
MAX_DECISIONS = 10_000  # a deal that has not ended by then is reported (current-player)
WORLDS = 2  # worlds resampled per seat and decision
TEXT_SAMPLE = 12  # offered actions whose text is round-tripped per decision
TRIES = 3  # not-accepted actions of the run, and junk values, tried per decision
MIN_HIDDEN = 6  # hidden cards a decision needs for its worlds to count in the "true hidden cards" check
POOL_SIZE = 600  # actions remembered for the illegal-action tries
LINES_PER_PROPERTY = 10  # violation lines kept per property (the summary counts them all)
# Generic search bots played in a few deals when ``tekkasim.bots`` knows them, with tiny budgets.
SEARCH_BOTS = (("PIMC", {"worlds": 2}), ("ISMCTS", {"iterations": 16}))
JUNK = (-1, -(10**9), 10**9, 2**70, None, "junk", "", 1.5, True, (), (-1,), ("x", 2), b"\x00")

PROPERTIES = (
    "current-player",
    "legal-actions",
    "illegal-action",
    "clone",
    "information-key",
    "observation",
    "resample",
    "record",
    "verify",
    "same-seed",
    "returns",
    "action-text",
    "tensors",
    "bot",
    "play",
)


class CheckResult(list):
    """The violation lines of a check (a list of str, empty when the ruleset conforms), with what was
    checked: ``ruleset``, ``deals``, ``decisions``, ``bots`` (the search bots that played),
    ``checked`` (property -> checks made), ``failed`` (property -> checks that failed, every one, also
    those past a deal's first line or ``LINES_PER_PROPERTY``) and ``notes`` (what was not checked, why)."""

    def __init__(self, ruleset: str):
        super().__init__()
        self.ruleset = ruleset
        self.deals = 0
        self.decisions = 0
        self.bots: list[str] = []
        self.checked: Counter = Counter()
        self.failed: Counter = Counter()
        self.notes: list[str] = []

    @property
    def ok(self) -> bool:
        return not self.failed

    @property
    def properties(self) -> set[str]:
        """The properties with at least one violation."""
        return {p for p, n in self.failed.items() if n}

    def summary(self) -> str:
        """One line: what was played and the violations by property."""
        played = f"{self.deals} deals ({', '.join(['random', *self.bots])}), {self.decisions:,} decisions"
        if not self.failed:
            return f"{self.ruleset}: {played}, {sum(self.checked.values()):,} checks: no violation"
        shown = ", ".join(f"{p} {n}" for p, n in sorted(self.failed.items(), key=lambda kv: PROPERTIES.index(kv[0])))
        return f"{self.ruleset}: {played}: {sum(self.failed.values()):,} violations ({shown})"


class _Skip(Exception):
    """A check that cannot go on (its violation already reported)."""


@dataclass
class _Snap:
    """What a clone must not share with its original (``clone``) and the key/observation pairs of a state."""

    history: Any
    player: Any
    phase: Any
    legal: Any
    obs: tuple  # freeze(observation(seat)) by seat
    keys: tuple  # information_key(seat) by seat
    hands: tuple  # freeze(observation(seat).hand) by seat
    counts: tuple  # cards in each seat's hand (None when they cannot be counted)

    def difference(self, other: _Snap) -> str | None:
        for name in ("history", "player", "phase", "legal"):
            if getattr(self, name) != getattr(other, name):
                return {"player": "current player", "legal": "legal actions"}.get(name, name)
        for seat in range(4):
            if self.obs[seat] != other.obs[seat]:
                return f"{SEATS[seat]}'s observation ({_frozen_difference(self.obs[seat], other.obs[seat])})"
            if None not in (self.keys[seat], other.keys[seat]) and self.keys[seat] != other.keys[seat]:
                return f"{SEATS[seat]}'s information key"
        return None


def check_ruleset(
    name_or_game: str | Game,
    deals: int = DEFAULT_DEALS,
    seed: int = 1,
    *,
    options: dict | None = None,
    bot_deals: int | None = None,
    worlds: int = WORLDS,
) -> CheckResult:
    """Play ``deals`` random deals (seeds ``seed``, ``seed + 1`` ...) of a ruleset, then ``bot_deals`` more
    (default ``max(1, deals // 5)``) for each generic search bot that ``tekkasim.bots`` knows, checking the
    contract on every decision (module notes). ``name_or_game``: a ruleset's name (with ``options``) or a
    ``Game`` object; a Game whose name no ruleset has is registered (``tekkasim.rulesets.register``) for the
    check's time, so that ``verify`` and the bots find it.

    Returns the violation lines (:class:`CheckResult`, empty when none). An unknown ruleset, a plug-in that
    does not load or a bad option raises ``TekkasimError`` (one line), as every command does."""
    from .rules.base import check_seed
    from .rulesets import get_ruleset

    for label, value in (("deals", deals), ("bot_deals", bot_deals), ("worlds", worlds)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise OptionError(f"{label} must be a whole number 0 or more, not {shorten(repr(value))}")
    seed = check_seed(seed)
    if isinstance(name_or_game, Game):
        if options:
            raise OptionError("options go with a ruleset's name; a Game object has its own already")
        game = name_or_game
    else:
        ruleset = get_ruleset(name_or_game)  # an unknown or failing plug-in: the registry's one line
        try:
            game = ruleset.game_class()(**(options or {}))
        except TekkasimError:  # a bad option
            raise
        except Exception as exc:  # the ruleset's Game does not import or build: its violation
            result = CheckResult(ruleset.name)
            result.failed["play"] += 1
            result.append(f"play: the ruleset's Game raised {type(exc).__name__}: {shorten(str(exc), 300)}")
            return result
    checker = _Checker(game, seed, max(1, worlds))
    with _findable(game, checker.result.notes) as findable:
        bots = _search_bots(game, checker.result.notes) if findable else []
        checker.verify = findable
        checker.run(deals, bots, max(1, deals // 5) if bot_deals is None else bot_deals)
    return checker.result


@contextmanager
def _findable(game: Game, notes: list[str]) -> Iterator[bool]:
    """While the check runs, ``game``'s ruleset found by its name (``verify`` and the bots look it up):
    registered for the time if no ruleset has the name; if another Game class has it, verify and the bots
    are left out (a note says so)."""
    from .rulesets import RulesetError, get_ruleset, register, unregister

    name = getattr(game, "name", None)
    try:
        found = get_ruleset(name).game_class()
    except RulesetError:
        found = None
    except Exception:  # a plug-in of that name that fails to load: no registry entry to lean on
        found = False
    if found is type(game):
        yield True
        return
    if found is None and isinstance(name, str):
        try:
            register(type(game))
        except TekkasimError as exc:
            notes.append(f"verify and bots not checked: {exc}")
            yield False
            return
        try:
            yield True
        finally:
            unregister(name)
        return
    notes.append(f"verify and bots not checked: the name {name!r} finds another ruleset than the Game checked")
    yield False


def _search_bots(game: Game, notes: list[str]) -> list:
    """The generic search bots ``tekkasim.bots`` knows for ``game``, each on a tiny budget."""
    from .bots import get_bot

    bots, missing = [], []
    for name, budget in SEARCH_BOTS:
        try:
            bot = get_bot(name, ruleset=game.name)
            small = {k: v for k, v in budget.items() if k in bot.params}
            bots.append(get_bot(name, ruleset=game.name, **small) if small else bot)
        except TekkasimError as exc:
            if str(exc).startswith("unknown bot"):
                missing.append(name)
            else:  # e.g. the bot does not play this ruleset
                notes.append(f"bot {name} not played: {shorten(str(exc), 120)}")
        except Exception as exc:  # a bot that fails to load is not the ruleset's fault: noted, not counted
            notes.append(f"bot {name} not played: {type(exc).__name__}: {shorten(str(exc), 80)}")
    if missing:
        which = f"bots {' and '.join(missing)} are" if len(missing) > 1 else f"bot {missing[0]} is"
        only = "" if bots else " (random deals only)"
        notes.append(f"{which} not played: tekkasim.bots does not know {'them' if len(missing) > 1 else 'it'}{only}")
    return bots


class _Checker:
    """One run of the check: the deals, their decisions, and the violations found (``result``)."""

    def __init__(self, game: Game, seed: int, worlds: int):
        self.game = game
        self.seed = seed
        self.worlds = worlds
        self.result = CheckResult(str(getattr(game, "name", type(game).__name__)))
        self.verify = True  # whether tekkasim.verify finds the ruleset by name (``_findable``)
        self.pool: list = []  # actions offered earlier in the run, for the illegal-action tries
        self.pool_set: set = set()
        self.tensors: bool | None = None  # whether the states have learning tensors (seen at the first world)
        self.at: tuple[int | None, str] = (None, "")  # the decision being checked and where it falls

    # --- reporting ---------------------------------------------------------------------------------
    def violation(self, prop: str, message: str) -> None:
        """Report ``prop``'s violation at ``self.at``: a line for the deal's first one (up to
        ``LINES_PER_PROPERTY`` lines a run), a count on that line for the others."""
        self.result.failed[prop] += 1
        self.deal_failed[prop] += 1
        if prop in self.deal_lines:
            i = self.deal_lines[prop]
            self.result[i] = f"{self.result[i].split(' [+', 1)[0]} [+{self.deal_failed[prop] - 1} more in this deal]"
            return
        if self.deal_failed[prop] > 1 or self.lines[prop] >= LINES_PER_PROPERTY:
            return
        k, where = self.at
        at = "" if k is None else f", decision {k}" + (f" ({where})" if where else "")
        origin = f"deal {self.deal_index} of the run from seed {self.seed}"
        text = shorten(" ".join(str(message).split()), 400)
        self.result.append(f"{prop}: seed {self.deal_seed} ({origin}){at}: {text}")
        self.deal_lines[prop] = len(self.result) - 1
        self.lines[prop] += 1

    def fail(self, prop: str, message: str) -> _Skip:
        """Report a violation that ends the check making it (``raise self.fail(...)``)."""
        self.violation(prop, message)
        return _Skip()

    def guard(self, prop: str, fn: Callable, *args) -> Any:
        """``fn(*args)``, counted as a check of ``prop``; whatever it raises is ``prop``'s violation (and the
        answer is None)."""
        self.result.checked[prop] += 1
        try:
            return fn(*args)
        except _Skip:
            return None
        except Exception as exc:
            self.violation(prop, f"raised {type(exc).__name__}: {exc}")
            return None

    def call(self, prop: str, what: str, fn: Callable, *args) -> Any:
        """``fn(*args)`` inside a check; what it raises is ``prop``'s violation, naming ``what`` was called."""
        try:
            return fn(*args)
        except _Skip:
            raise
        except Exception as exc:
            raise self.fail(prop, f"{what} raised {type(exc).__name__}: {exc}") from None

    # --- a run and a deal -----------------------------------------------------------------------------
    def run(self, deals: int, bots: list, bot_deals: int) -> None:
        """Random deals, then ``bot_deals`` for each search bot (at seat ``i % 4`` of deal ``i``), chained
        into matches."""
        plan = [None] * deals + [bot for bot in bots for _ in range(bot_deals)]
        self.result.bots = [bot.label for bot in bots] if bot_deals else []
        self.lines: Counter = Counter()
        context: dict = {}
        for i, bot in enumerate(plan):
            self.deal_index, self.deal_seed = i, self.seed + i
            self.deal_failed: Counter = Counter()
            self.deal_lines: dict[str, int] = {}
            if self.deal_seed > MAX_SEED:
                self.result.notes.append(f"stopped at seed {MAX_SEED}, the last seed a deal may have")
                break
            state = self.play(context, bot, i % 4)
            self.result.deals += 1
            context = self.next_context(state) if state is not None else {}
        if self.tensors is not True:
            self.result.notes.append("tensors not checked: the states have no observation_tensor (envs.md)")

    def next_context(self, state: State) -> dict:
        """The next deal's context when this one ended and the match goes on (``same-seed`` checks it)."""
        if not _ended(state):
            return {}
        winner = self.guard("same-seed", state.match_winner)
        if winner is not None:
            return {}
        context = self.guard("same-seed", state.next_deal_context)
        if context is not None and not isinstance(context, dict):
            self.violation("same-seed", f"next_deal_context() gave {type(context).__name__}, not a dict")
        return context if isinstance(context, dict) else {}

    def play(self, context: dict, bot, bot_seat: int) -> State | None:
        """Deal ``self.deal_seed`` with ``context`` and play it to the end, checking every decision; the
        final state (None if it could not be dealt)."""
        self.at = (0, "the deal")
        self.result.checked["play"] += 1
        try:
            state = self.game.new_deal(self.deal_seed, **context)
        except Exception as exc:
            self.violation("play", f"new_deal({self.deal_seed}{_kwargs(context)}) raised {type(exc).__name__}: {exc}")
            return None
        self.guard("same-seed", self.check_same_seed, state, context)
        rnd = random.Random(self.deal_seed ^ 0xC4EC)
        self.keys: dict = {}  # (seat, key) -> (frozen observation, where seen), over the deal
        self.observed: dict = {}  # frozen observation -> (key, where seen)
        self.tensor_of: dict = {}  # (seat, key) -> observation tensor bytes
        self.truth: dict[int, list] = {s: [0, 0, None] for s in range(4)}  # seat -> worlds, not true, first at
        record_at = rnd.randrange(1, 40)  # the decision of the mid-deal record check
        k = 0
        while True:
            self.at = (k, _where(state))
            mover = self.guard("current-player", self.check_player, state)
            if mover is None or mover == TERMINAL:
                break
            if k >= MAX_DECISIONS:
                self.violation("current-player", f"the deal has not ended after {k} decisions")
                break
            if not self.decision(state, k, rnd, bot if bot_seat == mover else None):
                break
            k += 1
            if k == record_at and not _ended(state):
                self.at = (k, _where(state))
                self.guard("record", self.check_record, state)
        self.end_of_deal(state, k, rnd)
        return state

    def decision(self, state: State, k: int, rnd: random.Random, bot) -> bool:
        """Check decision ``k`` and make it; False when the deal cannot go on."""
        snap = self.guard("observation", self.snapshot, state)
        if snap is None:
            return False
        self.remember(snap, f"decision {k}")
        offered = self.guard("legal-actions", self.check_legal, state)
        if offered is None:
            return False
        legal, accepted, out_of_turn, extra = offered
        self.guard("returns", self.check_returns_early, state)
        self.guard("illegal-action", self.check_illegal, state, accepted, len(snap.history), rnd)
        for seat in dict.fromkeys((snap.player, k % 4)):
            self.guard("resample", self.check_resample, state, snap, seat, k)
        action = self.choose(state, legal, out_of_turn, extra, rnd, bot, k)
        sample = rnd.sample(sorted(accepted, key=repr), min(TEXT_SAMPLE, len(accepted)))
        self.guard("action-text", self.check_text, state, [action, *sample])
        self.guard("clone", self.check_clone_mutated, state, snap, legal, rnd, k)
        before = self.guard("clone", state.clone)
        self.result.checked["play"] += 1
        try:
            state.apply_action(action)
        except Exception as exc:
            self.violation("play", f"applying the offered {_text(state, action)} raised {type(exc).__name__}: {exc}")
            return False
        self.result.decisions += 1
        for a in legal:
            self.add_to_pool(a)
        self.add_to_pool(action)
        if before is not None:
            self.guard("clone", self.check_clone_kept, before, snap)
        return True

    def choose(self, state: State, legal: list, out_of_turn: list, extra: list, rnd: random.Random, bot, k: int):
        """The bot's action, or the random players': a legal action, now and then (1 in 100) an out-of-turn
        one or (1 in 10) one that only ``possible_actions()`` offers."""
        if bot is not None:
            from .bots import decide

            self.result.checked["bot"] += 1
            try:
                action = decide(bot, state, state.current_player(), mix_seed(self.deal_seed, k))
                if action is not None:
                    return action
            except Exception as exc:
                self.violation("bot", f"{bot.label} failed: {exc}")
        r = rnd.random()
        if out_of_turn and r < 0.01:
            return out_of_turn[rnd.randrange(len(out_of_turn))]
        if extra and r < 0.1:
            return extra[rnd.randrange(len(extra))]
        return legal[rnd.randrange(len(legal))]

    def end_of_deal(self, state: State, k: int, rnd: random.Random) -> None:
        if _ended(state):
            self.at = (k, "the end of the deal")
            self.guard("legal-actions", self.check_terminal_offers, state)
            self.guard("returns", self.check_returns_end, state)
            self.guard("illegal-action", self.check_illegal, state, set(), len(_history(state)), rnd)
            self.guard("record", self.check_record, state)
        for seat, (n, differ, first) in self.truth.items():
            self.result.checked["resample"] += 1
            if n and not differ:
                self.at = first
                self.violation(
                    "resample",
                    f"every one of the {n} worlds drawn for {SEATS[seat]} in this deal (from decision {first[0]} on) "
                    "gave the other seats exactly their true hands: resample must redraw the hidden cards",
                )

    # --- the checks ----------------------------------------------------------------------------------
    def check_player(self, state: State) -> int:
        p = state.current_player()
        if isinstance(p, bool) or not isinstance(p, int | np.integer) or not (p == TERMINAL or 0 <= p < 4):
            raise self.fail("current-player", f"current_player() is {shorten(repr(p))}, not a seat 0..3 or TERMINAL")
        terminal = self.call("current-player", "is_terminal()", state.is_terminal)
        if bool(terminal) != (p == TERMINAL):
            raise self.fail("current-player", f"is_terminal() is {terminal!r} but current_player() is {p}")
        for method in ("phase", "where"):
            value = self.call("current-player", f"{method}()", getattr(state, method))
            if not isinstance(value, str):
                raise self.fail("current-player", f"{method}() gave {type(value).__name__}, not text")
        return int(p)

    def check_legal(self, state: State) -> tuple[list, set, list, list]:
        """What may be done now: ``(legal, accepted, out_of_turn, extra)``, where ``out_of_turn`` is what
        the actors' ``legal_actions_for`` add to the legal actions (accusations), ``extra`` what only
        ``possible_actions()`` adds (signals, Renonces) and ``accepted`` all of them."""
        legal = list(state.legal_actions())
        mover = state.current_player()
        if not legal:
            raise self.fail("legal-actions", "legal_actions() is empty before the end of the deal")
        bad = _unsorted(legal)
        if bad:
            self.violation("legal-actions", f"legal_actions() is not strictly ascending: {bad}")
        actors = list(state.actors())
        if not actors or actors[0] != mover or len(set(actors)) != len(actors):
            self.violation(
                "legal-actions", f"actors() is {shorten(repr(actors))}: it starts with the seat to move, {mover}"
            )
        accepted, out_of_turn = set(legal), []
        for seat in range(4):
            offered = list(state.legal_actions_for(seat))
            if seat not in actors:
                if offered:
                    self.violation(
                        "legal-actions",
                        f"{SEATS[seat]} does not act now but has legal_actions_for {shorten(repr(offered))}",
                    )
                continue
            if not offered:
                self.violation("legal-actions", f"{SEATS[seat]} is an actor with no legal_actions_for")
            bad = _unsorted(offered)
            if bad:
                self.violation("legal-actions", f"legal_actions_for({seat}) is not strictly ascending: {bad}")
            if seat == mover and not set(legal) <= set(offered):
                self.violation("legal-actions", f"legal_actions_for({seat}), the seat to move, lacks legal actions")
            out_of_turn += [a for a in offered if not _in(a, accepted)]
            accepted |= set(offered)
        possible = list(state.possible_actions())
        bad = _unsorted(possible)
        if bad:
            self.violation("legal-actions", f"possible_actions() is not strictly ascending: {bad}")
        if not set(legal) <= set(possible):
            self.violation("legal-actions", "possible_actions() lacks some legal actions")
        extra = [a for a in possible if not _in(a, accepted)]
        return legal, accepted | set(extra), out_of_turn, extra

    def check_terminal_offers(self, state: State) -> None:
        for what, value in (("legal_actions()", state.legal_actions()), ("actors()", state.actors())):
            if list(value):
                self.violation("legal-actions", f"{what} is {shorten(repr(list(value)))} at the end of the deal")
        offered = [s for s in range(4) if list(state.legal_actions_for(s))]
        if offered:
            self.violation("legal-actions", f"legal_actions_for({offered[0]}) is not empty at the end of the deal")

    def check_returns_early(self, state: State) -> None:
        try:
            value = state.returns()
        except TekkasimError:
            return
        except Exception as exc:
            raise self.fail(
                "returns", f"returns() before the end raised {type(exc).__name__}, not TekkasimError: {exc}"
            ) from None
        raise self.fail(
            "returns", f"returns() before the end of the deal gave {shorten(repr(value))}; it must raise TekkasimError"
        )

    def check_returns_end(self, state: State) -> None:
        value = state.returns()
        try:
            numbers = [float(v) for v in value]
        except (TypeError, ValueError):
            numbers = []
        if len(numbers) != 2 or not all(math.isfinite(x) for x in numbers):
            raise self.fail("returns", f"returns() at the end gave {shorten(repr(value))}, not two finite numbers")
        result = state.result()
        if not isinstance(result, dict):
            raise self.fail("returns", f"result() at the end gave {type(result).__name__}, not a dict")

    def check_illegal(self, state: State, accepted: set, n_history: int, rnd: random.Random) -> None:
        """Up to ``TRIES`` actions of the run that are not accepted now, and ``TRIES`` junk values, each
        applied to a clone: refused with ``IllegalAction``, the clone's history unchanged."""
        earlier = [a for a in rnd.sample(self.pool, min(len(self.pool), 4 * TRIES)) if not _in(a, accepted)]
        junk = [a for a in rnd.sample(JUNK, TRIES) if not _in(a, accepted)]
        for action in earlier[:TRIES] + junk:
            trial = self.call("clone", "clone()", state.clone)
            text = shorten(repr(action))
            try:
                trial.apply_action(action)
            except IllegalAction:
                if len(_history(trial)) != n_history:
                    self.violation("illegal-action", f"the refused {text} still entered the history")
                continue
            except Exception as exc:
                kind = "refused" if isinstance(exc, TekkasimError) else "(not offered) raised"
                self.violation("illegal-action", f"{text} {kind} with {type(exc).__name__}, not IllegalAction: {exc}")
                continue
            self.violation("illegal-action", f"{text} is not offered now, but apply_action accepted it")

    def check_clone_mutated(self, state: State, snap: _Snap, legal: list, rnd: random.Random, k: int) -> None:
        """A clone that takes a legal action leaves the original as it was; the clone's new observations
        join the key check (another branch of the deal)."""
        clone = state.clone()
        if clone is state or type(clone) is not type(state):
            got = "the state itself" if clone is state else type(clone).__name__
            raise self.fail("clone", f"clone() gave {got}, not a new {type(state).__name__}")
        action = legal[rnd.randrange(len(legal))]
        self.call("clone", f"a clone's apply_action({_text(state, action)})", clone.apply_action, action)
        changed = self.snapshot(state, with_keys=False).difference(snap)
        if changed:
            self.violation("clone", f"applying an action to a clone changed the original's {changed}")
        self.remember(self.snapshot(clone), f"a clone that took another action at decision {k}")

    def check_clone_kept(self, before: State, snap: _Snap) -> None:
        changed = self.snapshot(before, with_keys=False).difference(snap)
        if changed:
            self.violation("clone", f"applying the move to the original changed an earlier clone's {changed}")

    def check_resample(self, state: State, snap: _Snap, seat: int, k: int) -> None:
        name = SEATS[seat]
        for w in range(self.worlds):
            rng = new_rng(mix_seed(self.deal_seed, k, seat, w))
            start = int(rng[0])
            world = state.resample(seat, rng)
            if not isinstance(world, State) or world is state:
                got = "the state itself" if world is state else type(world).__name__
                raise self.fail("resample", f"resample({seat}, rng) gave {got}, not a new State")
            if int(rng[0]) == start:
                self.violation("resample", f"resample({seat}, rng) did not advance rng in place")
            ws = self.snapshot(world, seats=(seat,))
            if ws.keys[seat] != snap.keys[seat]:
                self.violation("resample", f"a world drawn for {name} gives {name} another information key")
            if ws.obs[seat] != snap.obs[seat]:
                self.violation(
                    "observation",
                    f"a world drawn for {name} shows {name} another observation "
                    f"({_frozen_difference(snap.obs[seat], ws.obs[seat])}): either the observation shows something "
                    f"{name} cannot know, or resample changed what {name} saw",
                )
            for what, got, want in (
                ("seat to move", ws.player, snap.player),
                ("phase", ws.phase, snap.phase),
                ("actors()", freeze(world.actors()), freeze(state.actors())),
                (
                    f"legal_actions_for({seat})",
                    freeze(world.legal_actions_for(seat)),
                    freeze(state.legal_actions_for(seat)),
                ),
            ):
                if got != want:
                    self.violation("resample", f"a world drawn for {name} has another {what} than the true state")
            self.remember(ws, f"a world drawn for {name} at decision {k}", seats=(seat,))
            if self.tensors is None:
                self.tensors = callable(getattr(state, "observation_tensor", None))
            if self.tensors:
                self.guard("tensors", self.check_tensors, state, world, seat)
            self.count_truth(snap, world, seat, k)
        if (_history(state), state.information_key(seat)) != (list(snap.history), snap.keys[seat]):
            self.violation("resample", f"resample({seat}, rng) changed the state it was drawn from")
        if k % 2 == 0 and seat == snap.player:
            self.check_resample_depends(state, seat, k)

    def count_truth(self, snap: _Snap, world: State, seat: int, k: int) -> None:
        """Tally, for ``seat``, the worlds drawn while cards were hidden from it and those among them that
        do not carry the true hidden cards (the report is at the end of the deal)."""
        others = [o for o in range(4) if o != seat]
        counts = [snap.counts[o] for o in others]
        if all(c is not None for c in counts) and (sum(1 for c in counts if c) < 2 or sum(counts) < MIN_HIDDEN):
            return
        tally = self.truth[seat]
        tally[0] += 1
        if tally[2] is None:
            tally[2] = self.at
        if any(freeze(world.observation(o).hand) != snap.hands[o] for o in others):
            tally[1] += 1

    def check_resample_depends(self, state: State, seat: int, k: int) -> None:
        """The true state and a world of it (the seat cannot tell them apart) resample for the seat to the
        same world from the same rng; and no world carries the true deal's seed."""
        other = state.resample(seat, new_rng(mix_seed(self.deal_seed, k, seat, 97)))
        r = mix_seed(self.deal_seed, k, seat, 98)
        a, b = state.resample(seat, new_rng(r)), other.resample(seat, new_rng(r))
        (keys_a, record_a), (keys_b, record_b) = _signature(a), _signature(b)
        if (keys_a, _canonical(_without_seed(record_a))) != (keys_b, _canonical(_without_seed(record_b))):
            what = "information keys" if keys_a != keys_b else _record_difference(record_a, record_b)
            self.violation(
                "resample",
                f"the true state and a world of it, resampled for {SEATS[seat]} from the same rng, give different "
                f"worlds ({what}): a world must depend on the seat's observation and the rng alone",
            )
        true_seed = state.to_record().get("seed")
        if true_seed is not None and isinstance(record_a, dict) and record_a.get("seed") == true_seed:
            self.violation("resample", f"a world drawn for {SEATS[seat]} carries the true deal's seed in its record")

    def check_tensors(self, state: State, world: State, seat: int) -> None:
        """envs.md's learning tensors, when the ruleset has them: a seat's tensor and mask are the same in
        every world it cannot tell from the true state and for equal keys (no peeking); the mask is 1 at
        every legal action."""
        name = SEATS[seat]
        tensor = np.asarray(state.observation_tensor(seat))
        if not np.array_equal(np.asarray(world.observation_tensor(seat)), tensor):
            self.violation(
                "tensors",
                f"observation_tensor({seat}) differs in a world that {name} cannot tell from the true state "
                "(the tensor peeks)",
            )
        seen = self.tensor_of.setdefault((seat, state.information_key(seat)), tensor.tobytes())
        if seen != tensor.tobytes():
            self.violation("tensors", f"observation_tensor({seat}) differs between two states with {name}'s key equal")
        if callable(getattr(state, "action_mask", None)):
            mask = np.asarray(state.action_mask(seat))
            if not np.array_equal(np.asarray(world.action_mask(seat)), mask):
                self.violation(
                    "tensors", f"action_mask({seat}) differs in a world that {name} cannot tell from the true state"
                )
            index = getattr(self.game, "action_index", None)
            if callable(index):
                missing = [a for a in state.legal_actions_for(seat) if not mask[index(a)]]
                if missing:
                    self.violation("tensors", f"action_mask({seat}) is 0 at the legal {shorten(repr(missing[:3]))}")

    def check_text(self, state: State, actions: list) -> None:
        for action in actions:
            text = state.action_to_string(action)
            if not isinstance(text, str):
                self.violation(
                    "action-text", f"action_to_string({shorten(repr(action))}) gave {type(text).__name__}, not text"
                )
                continue
            back = state.string_to_action(text)
            if back != action:
                self.violation(
                    "action-text",
                    f"action_to_string({shorten(repr(action))}) is {text!r}, which string_to_action reads as "
                    f"{shorten(repr(back))}",
                )

    def check_same_seed(self, state: State, context: dict) -> None:
        seed, args = self.deal_seed, _kwargs(context)
        again = self.game.new_deal(seed, **context)
        first, second = state.to_record(), again.to_record()
        if _canonical(first) != _canonical(second):
            raise self.fail(
                "same-seed",
                f"new_deal({seed}{args}) twice gives different records ({_record_difference(first, second)})",
            )
        changed = self.snapshot(again).difference(self.snapshot(state))
        if changed:
            raise self.fail("same-seed", f"new_deal({seed}{args}) twice gives states with different {changed}")
        if seed < MAX_SEED:
            after = self.game.new_deal(seed + 1, **context).to_record()
            if _canonical(_without_seed(after)) == _canonical(_without_seed(first)):
                raise self.fail(
                    "same-seed", f"new_deal({seed}{args}) and new_deal({seed + 1}{args}) give the same deal"
                )

    def check_record(self, state: State) -> None:
        """to_record, a JSON round trip, from_record and the replay of its actions, then verify."""
        over = _ended(state)
        record = state.to_record()
        if not isinstance(record, dict):
            raise self.fail("record", f"to_record() gave {type(record).__name__}, not a dict")
        try:
            record = json.loads(json.dumps(record))
        except (TypeError, ValueError) as exc:
            raise self.fail("record", f"to_record() is not JSON: {exc}") from None
        for key, want in (("format", FORMAT), ("ruleset", self.game.name)):
            if record.get(key) != want:
                self.violation("record", f"the record's {key!r} is {shorten(repr(record.get(key)))}, not {want!r}")
        for key, kind in (("hands", dict), ("tricks", list)):
            if not isinstance(record.get(key), kind):
                self.violation("record", f"the record has no {key!r} ({kind.__name__}; records.md, common fields)")
        if (record.get("unfinished") is True) == over:
            when = "at" if over else "before"
            self.violation(
                "record", f"the record's 'unfinished' is {record.get('unfinished')!r} {when} the end of the deal"
            )
        replayed, texts = self.call("record", "from_record(to_record())", self.game.from_record, record)
        texts = list(texts)
        if not all(isinstance(t, str) for t in texts):
            raise self.fail("record", "from_record() gave actions that are not text")
        for i, text in enumerate(texts):
            what = f"replaying the record, action {i} {shorten(repr(text))}"
            self.call("record", what, lambda t=text: replayed.apply_action(replayed.string_to_action(t)))
        history, want = _history(replayed), _history(state)
        if freeze(history) != freeze(want):
            first = next(
                (i for i, (a, b) in enumerate(zip(history, want, strict=False)) if a != b), min(len(history), len(want))
            )
            self.violation(
                "record",
                f"replaying the record gives another history ({len(history)} actions for {len(want)}, the first "
                f"difference at action {first}): to_record or from_record loses or changes actions",
            )
        again = json.loads(json.dumps(replayed.to_record()))
        if _canonical(again) != _canonical(record):
            self.violation("record", f"the replayed deal's record differs ({_record_difference(record, again)})")
        if self.verify:
            self.guard("verify", self.check_verify, state, record, over)

    def check_verify(self, state: State, record: dict, over: bool) -> None:
        from .verify import verify_record

        verdict = verify_record(record)
        if not verdict.ok:
            raise self.fail("verify", f"tekkasim verify rejects the record: {verdict.error}")
        if verdict.unfinished == over:
            raise self.fail(
                "verify", f"tekkasim verify calls the record {'unfinished' if verdict.unfinished else 'finished'}"
            )
        if over and _canonical(verdict.result) != _canonical(state.result()):
            raise self.fail("verify", "tekkasim verify recomputes another result than the state's result()")

    # --- snapshots and the key maps ------------------------------------------------------------------
    def snapshot(self, state: State, seats: tuple[int, ...] = (0, 1, 2, 3), with_keys: bool = True) -> _Snap:
        """``state``'s snapshot: the observations (and ``with_keys`` the information keys) of ``seats``
        only. The clone checks leave the keys out (a key costs about what an observation does; a clone's
        keys are checked against its observations by the key maps). A state that keeps the contract's
        ``information_key`` (``freeze(observation(seat))``) has its frozen observation for key."""
        obs, keys, hands, counts = [None] * 4, [None] * 4, [None] * 4, [None] * 4
        for seat in seats:
            o = self.call("observation", f"observation({seat})", state.observation, seat)
            if not isinstance(o, Observation) or o.seat != seat:
                got = f"an Observation of seat {o.seat}" if isinstance(o, Observation) else type(o).__name__
                raise self.fail("observation", f"observation({seat}) is {got}, not an Observation of seat {seat}")
            obs[seat] = self.call("observation", f"freeze(observation({seat}))", freeze, o)
            hands[seat] = freeze(o.hand)
            counts[seat] = _card_count(o.hand)
            if not with_keys:
                continue
            if type(state).information_key is State.information_key:  # the contract's own: freeze(observation)
                keys[seat] = obs[seat]
                continue
            keys[seat] = self.call("information-key", f"information_key({seat})", state.information_key, seat)
            try:
                hash(keys[seat])
            except TypeError:
                raise self.fail(
                    "information-key", f"information_key({seat}) is not hashable ({type(keys[seat]).__name__})"
                ) from None
        return _Snap(
            freeze(self.call("clone", "history()", state.history)),
            state.current_player(),
            state.phase(),
            freeze(self.call("legal-actions", "legal_actions()", state.legal_actions)),
            tuple(obs),
            tuple(keys),
            tuple(hands),
            tuple(counts),
        )

    def remember(self, snap: _Snap, label: str, seats: tuple[int, ...] = (0, 1, 2, 3)) -> None:
        """Add a state's (seat, key) and observation pairs to the deal's maps; report where they disagree."""
        for seat in seats:
            key, obs = snap.keys[seat], snap.obs[seat]
            self.result.checked["information-key"] += 1
            seen_obs, seen_at = self.keys.setdefault((seat, key), (obs, label))
            if seen_obs != obs:
                self.violation(
                    "information-key",
                    f"{SEATS[seat]}'s information key is the same at {seen_at} and at {label}, but the observations "
                    f"differ ({_frozen_difference(seen_obs, obs)})",
                )
                continue
            seen_key, seen_at = self.observed.setdefault(obs, (key, label))
            if seen_key != key:
                self.violation(
                    "information-key",
                    f"{SEATS[seat]}'s observation is the same at {seen_at} and at {label}, but the information "
                    "keys differ",
                )

    def add_to_pool(self, action) -> None:
        if _in(action, self.pool_set):
            return
        if len(self.pool) >= POOL_SIZE:
            self.pool_set.discard(self.pool.pop(0))
        self.pool.append(action)
        self.pool_set.add(action)


# --- helpers ---------------------------------------------------------------------------------------


def _ended(state: State) -> bool:
    try:
        return state.current_player() == TERMINAL
    except Exception:
        return False


def _history(state: State) -> list:
    try:
        return list(state.history())
    except Exception:
        return []


def _where(state: State) -> str:
    try:
        text = state.where()
    except Exception as exc:
        return f"where() raised {type(exc).__name__}"
    return text if isinstance(text, str) else shorten(repr(text))


def _text(state: State, action) -> str:
    """An action as its text where the state can say it, else its repr."""
    try:
        return repr(state.action_to_string(action))
    except Exception:
        return shorten(repr(action))


def _in(action, collection) -> bool:
    try:
        return action in collection
    except TypeError:  # unhashable: never an offered action
        return False


def _unsorted(actions: list) -> str | None:
    """Why a list of actions is not strictly ascending, or None."""
    try:
        for i in range(len(actions) - 1):
            if not actions[i] < actions[i + 1]:
                return f"{shorten(repr(actions[i]))} before {shorten(repr(actions[i + 1]))} at index {i}"
    except TypeError as exc:
        return f"the actions cannot be compared ({exc})"
    return None


def _card_count(hand) -> int | None:
    """The cards in an observation's hand: a card mask (int), a multiset with ``cards()`` or a sized
    collection; None when it cannot be told."""
    try:
        if hasattr(hand, "cards"):
            return len(hand.cards())
        if isinstance(hand, int | np.integer) and not isinstance(hand, bool):
            return int(hand).bit_count()
        return len(hand)
    except Exception:
        return None


def _signature(world: State) -> tuple:
    """Everything about a world: every seat's information key, and its record."""
    return tuple(world.information_key(s) for s in range(4)), world.to_record()


def _without_seed(record) -> Any:
    return {k: v for k, v in record.items() if k != "seed"} if isinstance(record, dict) else record


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def _record_difference(a, b) -> str:
    if not isinstance(a, dict) or not isinstance(b, dict):
        return "not both objects"
    keys = [key for key in sorted(set(a) | set(b), key=str) if _canonical(a.get(key)) != _canonical(b.get(key))]
    return ("field " + ", ".join(repr(k) for k in keys[:4])) if keys else "no field differs"


_OBS_FIELDS = ("seat", "phase", "to_move", "hand", "public", "private")
_MISSING = object()


def _frozen_difference(a, b) -> str:
    """The first field where two frozen observations (``freeze(Observation)``) differ: ``hand``,
    ``public['tricks']`` ..."""
    if not (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) == 7):
        return "the whole observation"
    for name, x, y in zip(_OBS_FIELDS, a[1:], b[1:], strict=True):
        if x == y:
            continue
        if name in ("public", "private"):
            dx, dy = dict(x), dict(y)
            for key in sorted(set(dx) | set(dy), key=str):
                if dx.get(key, _MISSING) != dy.get(key, _MISSING):
                    return f"{name}[{key!r}]"
        return name
    return "nothing"


def _kwargs(context: dict) -> str:
    return "".join(f", {k}={shorten(repr(v), 40)}" for k, v in context.items())


__all__ = ["DEFAULT_DEALS", "PROPERTIES", "CheckResult", "check_ruleset"]
