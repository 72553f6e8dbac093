"""GREEDY and the heuristic ladder KADO < POCHAQ < PUCHOQ < SADA < TANA < JANGARA (ranks 0..5), for
Feskot and Tekka.

One policy family with documented parameters; the named bots are presets of it. Each bot decides from
its seat's observation only (``view52.policy_view``) and runs the same compiled decision
(``_policy_kernels.decide``) that the whole-deal loop :func:`play_tables` runs, so the Python and
compiled forms agree decision for decision (tested).

Parameters of the family (``HeuristicBot``)
-------------------------------------------
``mistake_rate``      probability that a decision is a mistake (drawn by ``bits.mistake``), so that
                      ``NAME:mistake_rate=0`` is the same bot without mistakes. A mistake is plausible
                      (issue 25): a card mistake plays another legal card drawn by ``bits.mistake_pick``
                      with weights ``exp(-cost / mistake_temperature)``, ``cost`` being how far that
                      card's estimated cost lies above the meant card's (tricks: what the bot sees of
                      each card, from what it remembers and infers, and how it stands to the card it
                      meant to play, weighted as fitted against double-dummy costs:
                      ``_policy_kernels._slip_card``), so a card it rates just below its own is the
                      common slip and throwing a sure trick away is rare; a card it rates above the
                      meant one is never the slip unless it is the meant card's equal (same suit, no
                      unseen card between), and with no card left it plays its own; a Prime mistake
                      takes the second-best suit by its evaluation; a Tekka call mistake bids one trick
                      over or under its estimate (never a jump to D13: a hand that takes all 13 calls 13);
                      raise requests and answers take no mistakes.
``mistake_temperature`` the softmax temperature of a card mistake, in tricks (0: always the cheapest card
                      rated no better than the meant one; large: nearly uniform among them).
``mistake_uniform``   the old mistake instead: a uniformly random legal action (every decision but none
                      taken out of turn). Off in every preset; GREEDY's mistakes are always uniform (it has
                      no evaluation to draw by).
``memory``            how much of the public history the bot uses: ``none`` (its hand and the current
                      trick's led suit: it cannot tell who is winning), ``trick`` (the current trick's
                      cards), ``high`` (plus which honours T J Q K A of earlier tricks are gone), ``full``
                      (every card played: a full count of each suit and of Prime).
``infer``             infer voids from play (a seat that did not follow is void in the suit: it is not
                      led into an opponent's ruff, partner is given ruffs) and, with ``signals``, from
                      ``drop`` signals; how far back follows ``memory``.
``signals``           send honest signals when the game allows them (``drop`` on one's last card of a
                      suit, ``slam`` on a side-suit card while still holding that suit's master) and read
                      partner's: a ``slam`` asks us to lead that suit, a ``drop`` says void.
``partner_play``      do not overtake or ruff partner's sure winner (a master the seats still to play
                      cannot ruff); second hand low, third hand high (the cheapest card that wins).
``trump_management``  draw Prime with its master (always when our side chose Prime, else holding half
                      the Prime out); give partner ruffs; lead and throw from short side suits to ruff
                      them later; ruff with a master Prime when the next opponent may overruff.
``evaluation``        Prime and bids: ``count`` (longest suit, ties by high cards; a high-card count bids)
                      or ``full`` (expected tricks from Prime length and honours, side-suit quick tricks,
                      ruffing value of short suits, the auction; D13 only with a hand that takes all 13).
``bid_bias``          tricks added to the bid estimate (negative: cautious), Tekka only.
``raises``            Tekka with option ``raises``: the declarer asks for ``won + sure tricks`` when that
                      beats the contract; an opponent accepts only a raise its own sure tricks break.
                      Without it: never ask, always reject.
``unblock``           following under partner's sure winner with two cards of the suit, play the higher
                      (not a master), so that partner's long suit is not blocked by our last card of it.
``give_count``        following low (not trying to win) from an even number of cards of the suit, play the
                      second lowest (not a master): high-low shows partner an even count.

What every bot does in play (``memory`` trick up): following, it plays low under partner's sure winner,
else the cheapest master that wins, else third hand the cheapest winner, second hand low; void, it
ruffs with the cheapest Prime that wins (or overruffs), else throws a card that is not a winner. On
lead: partner's slammed suit, drawing Prime, a side master that cannot be ruffed, partner's ruff, else
low from a short side suit (to ruff it) or the longest. The partner of a D13 declarer never takes a trick.

Signals are sent when the game's ``signals`` option is on: the rules accept a signalled card whenever its
card is legal (``State.possible_actions``, offered to bots as ``View.possible``), and :func:`play_tables` sends
the same signals as the Python path (``view52.signals_accepted``).

``unblock`` and ``give_count`` are off in every preset: neither gained on duplicate boards, and the
ladder's steps are measured by duplicate tournaments (figures: ``experiments/README.md``).

The whole-deal loop of these bots (:func:`play_tables`, through ``compiled.play_tables``) plays one deal
per board seed with the decision seeds of ``bots.loop``: the same actions as the State API path.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from tekkasim.bots.base import (
    MISTAKE_RATE,
    MISTAKE_TEMPERATURE,
    MISTAKE_UNIFORM,
    PLAUSIBLE_MISTAKE_RATE,
    Bot,
    Param,
    View,
)
from tekkasim.errors import BotError
from tekkasim.rules.base import Game
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52 import _policy as pk
from tekkasim.rulesets.trick52.game import Trick52Game
from tekkasim.rulesets.trick52.view import policy_view, signals_accepted

MEMORY = ("none", "trick", "high", "full")
EVALUATION = ("count", "full")

PARAMS = (
    PLAUSIBLE_MISTAKE_RATE,
    MISTAKE_TEMPERATURE,
    MISTAKE_UNIFORM,
    Param("memory", "full", "public history used: none | trick | high | full", choices=MEMORY),
    Param("infer", True, "infer voids from play (and drops when reading signals)"),
    Param("signals", True, "send honest slam/drop signals and read partner's"),
    Param("partner_play", True, "do not overtake partner's sure winner; second hand low, third hand high"),
    Param("trump_management", True, "draw Prime, give and take ruffs, keep control"),
    Param("evaluation", "full", "hand evaluation for Prime and bids: count | full", choices=EVALUATION),
    Param("bid_bias", 0.0, "tricks added to the Tekka bid estimate", -3.0, 3.0),
    Param("raises", True, "Tekka raises: request when ahead, accept when sure to break"),
    Param("unblock", False, "the higher card of a doubleton under partner's sure winner"),
    Param("give_count", False, "following low from an even holding, the second lowest card (high-low)"),
)


class PolicyBot(Bot):
    """A bot whose decision is ``_policy_kernels.decide`` on its compiled parameter vector."""

    rulesets: ClassVar[tuple[str, ...] | None] = ("feskot", "tekka")

    def compiled_form(self, ruleset: str) -> np.ndarray | None:
        """The parameter vector (``_policy_kernels``, ``P_*`` fields) in the rulesets this bot plays."""
        return self._params().copy() if self.supports(ruleset) else None

    def _params(self) -> np.ndarray:
        """The parameter vector, made again whenever ``params`` changed since the last call."""
        key = tuple(self.params.items())
        cached = self.__dict__.get("_compiled")
        if cached is None or cached[0] != key:
            cached = (key, self._vector())
            self.__dict__["_compiled"] = cached
        return cached[1]

    def _vector(self) -> np.ndarray:
        raise NotImplementedError

    def act(self, view: View, rng: np.ndarray) -> Any:
        legal = view.legal
        v, m = policy_view(view.observation, view.game.options, signals_accepted(view.possible))
        arr = np.asarray(legal, np.int64)
        return int(pk.decide(self._params(), v, m, arr, len(arr), rng))


class GreedyBot(PolicyBot):
    """GREEDY: wins the trick with its cheapest card that beats the cards played so far (a led-suit card
    before a Prime), otherwise throws its lowest card (by rank; a side card before a Prime). On lead: an
    Ace if it has one, else its lowest card. No memory, no partner play (it overtakes partner too), no
    signals. Prime: its longest suit (Feskot: of its five; ties by high cards from the Ace down). Tekka:
    high-card count A 4, K 3, Q 2, J 1; 16 bids 8 and every 3 more one more (up to 13) when that outbids
    the standing call, never D13, never over partner; never asks for a raise, rejects every raise. The
    other rulesets' GREEDY is their own (``get_bot("GREEDY", ruleset=...)``)."""

    name = "GREEDY"
    kind = "baseline"
    rank = None
    description = (
        "baseline: wins a trick as cheaply as it can, else throws its lowest card; Prime/Troupe its "
        "longest suit; Tekka bids by high-card count; never redeals, accuses, declares or signals"
    )
    params_spec = (MISTAKE_RATE,)

    def _vector(self) -> np.ndarray:
        p = np.zeros(pk.N_P, np.float64)
        p[pk.P_MODE] = pk.MODE_GREEDY
        p[pk.P_MISTAKE] = self.params["mistake_rate"]
        return p


class HeuristicBot(PolicyBot):
    """The heuristic family (module docstring): every parameter at its strongest by default. The ladder's
    named bots below are presets of it."""

    name = "HEURISTIC"
    kind = "heuristic"
    rank = None
    description = "the heuristic policy family of the ladder"
    params_spec = PARAMS

    def _vector(self) -> np.ndarray:
        q = self.params
        p = np.zeros(pk.N_P, np.float64)
        p[pk.P_MODE] = pk.MODE_HEURISTIC
        p[pk.P_MISTAKE] = q["mistake_rate"]
        p[pk.P_MEMORY] = MEMORY.index(q["memory"])
        p[pk.P_INFER] = float(q["infer"])
        p[pk.P_SIGNALS] = float(q["signals"])
        p[pk.P_PARTNER] = float(q["partner_play"])
        p[pk.P_TRUMP] = float(q["trump_management"])
        p[pk.P_EVAL] = EVALUATION.index(q["evaluation"])
        p[pk.P_BID_BIAS] = q["bid_bias"]
        p[pk.P_RAISES] = float(q["raises"])
        p[pk.P_UNBLOCK] = float(q["unblock"])
        p[pk.P_COUNT] = float(q["give_count"])
        p[pk.P_TEMP] = q["mistake_temperature"]
        p[pk.P_UNIFORM] = float(q["mistake_uniform"])
        return p


class Kado(HeuristicBot):
    """KADO (rank 0): remembers nothing, not even the current trick's cards (it cannot tell who is
    winning): follows with its top card when that is the top of the suit, else low; ruffs low; leads Aces,
    then low from its longest suit. Prime and bids by a plain count. 36% of its decisions are mistakes."""

    name = "KADO"
    rank = 0
    description = "no memory (cannot see who wins the trick): Aces, else low; count evaluation; 36% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.36,
        "memory": "none",
        "infer": False,
        "signals": False,
        "partner_play": False,
        "trump_management": False,
        "evaluation": "count",
        "raises": False,
    }


class Pochaq(HeuristicBot):
    """POCHAQ (rank 1): sees the current trick and beats it as cheaply as it can, even over partner and
    second hand; full hand evaluation for Prime and bids; 32% mistakes."""

    name = "POCHAQ"
    rank = 1
    description = "sees the current trick, beats it cheaply even over partner; full evaluation; 32% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.32,
        "memory": "trick",
        "infer": False,
        "signals": False,
        "partner_play": False,
        "trump_management": False,
        "evaluation": "full",
        "raises": False,
    }


class Puchoq(HeuristicBot):
    """PUCHOQ (rank 2): current trick, partner play (no overtaking a sure winner, second hand low, third
    hand high) and Prime management (draws Prime, ruffs, leads short suits); 24% mistakes."""

    name = "PUCHOQ"
    rank = 2
    description = "current trick, partner play, Prime management; 24% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.24,
        "memory": "trick",
        "infer": False,
        "signals": False,
        "partner_play": True,
        "trump_management": True,
        "evaluation": "full",
        "raises": False,
    }


class Sada(HeuristicBot):
    """SADA (rank 3): remembers which honours are gone (so it knows its masters) and infers voids, with
    partner play, but plays Prime plainly (no drawing, no planned ruffs); Tekka raises; 16% mistakes.
    Memory of honours is worth more than Prime management (measured), so SADA trades the one for the
    other against PUCHOQ."""

    name = "SADA"
    rank = 3
    description = "remembers honours, infers voids, partner play, plain Prime play; 16% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.16,
        "memory": "high",
        "infer": True,
        "signals": False,
        "partner_play": True,
        "trump_management": False,
        "evaluation": "full",
        "raises": True,
    }


class Tana(HeuristicBot):
    """TANA (rank 4) in Feskot: full count of every suit and of Prime, void inference, partner play, Prime
    management, honest signals sent and read; 10% mistakes (Tekka: :class:`TanaTekka`, 7.5%)."""

    name = "TANA"
    rank = 4
    rulesets = ("feskot",)
    description = "full count, void inference, partner play, Prime management, signals; 10% mistakes (Tekka 7.5%)"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.10,
        "memory": "full",
        "infer": True,
        "signals": True,
        "partner_play": True,
        "trump_management": True,
        "evaluation": "full",
        "raises": True,
    }


class TanaTekka(Tana):
    """TANA (rank 4) in Tekka: Feskot's TANA with 7.5% mistakes instead of 10%. The rate was set when a
    mistake was a uniformly random legal action, in Tekka's auction too (a random 13 or D13 costs far more
    points than a random card costs tricks in Feskot): at 10% TANA's steps to SADA and JANGARA were far
    apart, at 7.5% even (figures: ``experiments/README.md``). With plausible mistakes (a call one trick
    off, never a jump to D13) the steps at 7.5% are still even (``docs/blunders.md``)."""

    rulesets = ("tekka",)
    description = "full count, void inference, partner play, Prime management, signals; 7.5% mistakes"
    preset: ClassVar[dict[str, Any]] = {**Tana.preset, "mistake_rate": 0.075}


class Jangara(HeuristicBot):
    """JANGARA (rank 5): everything of the family at full strength, no mistakes."""

    name = "JANGARA"
    rank = 5
    description = "full count, void inference, signals, partner play, Prime management; no mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.0,
        "memory": "full",
        "infer": True,
        "signals": True,
        "partner_play": True,
        "trump_management": True,
        "evaluation": "full",
        "raises": True,
    }


LADDER = (Kado, Pochaq, Puchoq, Sada, Tana, Jangara)  # Feskot's; Tekka's TANA is TanaTekka


# --- the whole-deal loop (compiled.play_tables) ------------------------------------------------------

MAX_DEAL_ACTIONS = pk.MAX_DEAL_ACTIONS
RANDOM_FORM = np.zeros(pk.N_P, np.float64)  # RANDOM's parameter vector: a uniformly random legal action
RANDOM_FORM[pk.P_MODE] = pk.MODE_RANDOM


def play_tables(game: Game, px: np.ndarray, py: np.ndarray, seeds: np.ndarray, table: int) -> dict:
    """Play the deal of each board seed (uint64) at ``table`` (0 or 1) with team X's parameter vector
    ``px`` at bottom/top at table 0 and right/left at table 1, team Y's ``py`` at the other seats; the
    first seat is bottom (Tekka deals start 0-0). Decision ``i`` of the deal of seed ``s`` is made with
    ``new_rng(mix_seed(s, table, i))`` (``bots.loop``). Signals are sent exactly when the rules accept
    them (``game.takes_signals``), as the Python path does.

    Returns ``{"returns": float (n, 2) for team A (bottom/top) and B (right/left), "actions": int (n, L)
    every action in order, -1 padded, "n_actions": int (n,), "legal": int8 (n, L, 2) each action's index
    among the legal actions and their number}``."""
    if not isinstance(game, Trick52Game):
        raise BotError(f"this loop plays the 52-card rulesets of the heuristic policies, not {game.name}")
    n = len(seeds)
    returns = np.zeros((n, 2), np.float64)
    actions = np.full((n, MAX_DEAL_ACTIONS), -1, np.int64)
    n_actions = np.zeros(n, np.int64)
    legal = np.empty((n, MAX_DEAL_ACTIONS, 2), np.int8)
    play_all, raises, signals = game.options_flags()
    forms = pk.seat_forms(px, py, table)
    if not pk.play_boards_kernel(
        k.new_arrays(),
        seeds,
        table,
        game.ruleset_code,
        0,
        play_all,
        raises,
        signals,
        int(game.takes_signals),
        forms,
        returns,
        actions,
        n_actions,
        legal,
        pk.new_work(),
    ):
        raise BotError(f"a deal ran past {MAX_DEAL_ACTIONS} actions or played an action not among the legal ones")
    return {"returns": returns, "actions": actions, "n_actions": n_actions, "legal": legal}


__all__ = [
    "LADDER",
    "MAX_DEAL_ACTIONS",
    "RANDOM_FORM",
    "MEMORY",
    "PARAMS",
    "GreedyBot",
    "HeuristicBot",
    "Jangara",
    "Kado",
    "Pochaq",
    "PolicyBot",
    "Puchoq",
    "Sada",
    "Tana",
    "play_tables",
]
