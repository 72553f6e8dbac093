"""The Satat bots: GREEDY, the ladder KADO .. ZELZELA, the personalities ATOUTE and ZORGE, and ORACLE.

Rules: ``spec/rules.md`` (Satat, including "Bots"). Every bot decides from its seat's view only
(``View``): the observation, the legal actions (``view.possible`` adds the Renonces, which only a
bluffing bot plays) and ``view.sample`` (worlds in which an apparent void is *not* taken as proof of a
void, since a Renonce shows a void that is not there). Out of turn (``view.optional``) a bot is asked
whether to accuse; it returns an accusation or None. Bots hold no memory between decisions.

The heuristic family (``SatatBot``; compiled in ``_satat_policy``)
-------------------------------------------------------------------
``mistake_rate``  probability that a decision is a mistake; never an accusation. A card mistake plays
                  another rule-following card drawn by ``bits.mistake_pick`` with weights ``exp(-cost /
                  mistake_temperature)``, ``cost`` being how far its value falls below the meant card's
                  by the policy's own evaluation (``_satat_policy._slip_card``; a card valued above the
                  meant one is never the slip); a Troupe mistake takes the second-best suit (issue 25's
                  plausible mistakes).
``mistake_temperature``  that softmax's temperature, in tricks.
``mistake_uniform``  the old mistake instead: a uniformly random rule-following card or Troupe choice (off
                  in every preset; GREEDY's mistakes are always uniform).
``memory``        ``none`` (its hand only: it cannot see who is winning the trick), ``trick`` (the trick
                  on the table and the one just gathered: the "one hand" a Normal bot remembers), ``full``
                  (every public card of the round: a Hard bot). Masters, apparent voids and Renonce proofs
                  are judged from what is remembered.
``partner_play``  no overtaking partner's sure winner; second hand low unless a master wins; third hand
                  the cheapest winner.
``troupe_play``   draw Troupe (the 2♥ lead forces everyone to play Troupe) holding three or more, lead low
                  from a short side suit to ruff it, give partner ruffs.
``infer``         use apparent voids: no side master led into a ruff, partner's ruffs.
``evaluation``    Troupe from the first five: ``count`` (longest suit, ties by high cards) or ``full``
                  (3 a card plus A 4, K 3, Q 2, J 1).
``ruff_high``     when void in the suit to follow, ruff with its highest Troupe card (2♥ first), not the
                  cheapest that wins: a beginner's waste of high trumps (on in KADO only).
``redeal``        ask for a redeal (allowed without J, Q, K in the first five) when the five also hold no
                  Ace and no 2♥.
``detect``        accuse when a newly played card *proves* an earlier failure to follow of that opponent
                  (a card of the suit it did not follow, including Troupe after a 2♥ lead), within
                  ``memory``; never when our side already has the round decided. Only an opponent with
                  evidence against it is ever accused: no bot accuses falsely to end a round it is losing.
``suspicion``     prior probability that an opponent's failure to follow is a deliberate Renonce (0: only
                  proofs). With it and ``kot_pressure`` the bot also accuses on probability (and may then
                  be wrong): for every remembered failure the chance q that the seat still holds that suit
                  if the unseen cards were dealt uniformly gives the posterior ``s q / (s q + (1 - s)(1 - q))``.
``kot_pressure``  round pressure: an accusation by expected points (a correct one +1, a wrong one
                  -1, against what the round is worth now: a decided result, a KOT run's 2 points, else
                  tanh(trick margin / 3)), so a team on its own KOT never ends it with a proven
                  accusation; while the other side has taken every trick, from the fourth trick on, second
                  hand plays to win (to stop their KOT).
``match_pressure``  with ``kot_pressure``, match pressure (the match score before the round): the chase of
                  the other side's KOT starts at the second trick when their KOT would win them the match
                  and their plain seven would not (they are at 3), and is dropped when their seven already
                  wins it (they are one point from the match: a KOT costs no more, and second hand low
                  takes more tricks); ``_satat_policy.kot_chase_from``.
``bluff``         ``none`` | ``atoute`` | ``zorge``: deliberate Renonces (a ruff while holding the suit led, when
                  the other side is winning the trick and no legal card wins it; the ruffing card must be
                  the last of the trick or a master Troupe), from the fourth trick on, at most one per
                  round, only with at most two cards of the suit led. ``atoute`` ruffs only the trick
                  that gives her side its seventh trick: it decides the round, so no later card can prove
                  it (only an accusation on probability during the collect can catch it); ``zorge`` ruffs
                  to stop the other side's seventh trick, and play goes on, so a later card of the suit
                  he did not follow exposes him to any detector that remembers it.
``bluff_team``    the team's limit of bluffs per match, 1 or 2 (see below).
``bluff_round``   the match total (both teams' points before the round) of the round in which this bot
                  may bluff.

How the per-match limits are kept by stateless bots: a bot sees only the current round (and the match
score), so it cannot count its bluffs of earlier rounds. Each round of a match has a different match
total (every round scores at least one point), so allowing bluffs only in the round whose total is
``bluff_round`` allows one round per match; within the round the bot sees its own past plays and bluffs at
most once. The team's first seat (bottom or right) may always bluff, its second seat (top or left) only
with ``bluff_team = 2``: at most one bluff per seat per match and at most ``bluff_team`` per team.

Search (TANOOR, TIZAB, ZELZELA)
-------------------------------
The search core (``pimc``, ``docs/search.md``) with :class:`SatatAdapter`: Troupe, redeals and accusations
as JANGARA; cards by determinized search over ``worlds`` worlds from ``view.sample`` (the budget
``worlds`` / ``time_ms`` as in every ruleset). With ``bluff_weight`` < 1 each world is weighted by
``bluff_weight`` to the power of the number of other seats that would have committed a Renonce in it
(``oversample`` candidates per kept world, systematic resampling): the chance that an opponent bluffed is
weighed, not ruled out. With ``play_miss`` < 1 the weight is also multiplied by ``play_miss`` for every card
play of another seat that JANGARA's rollout policy, holding that world's hand, would not have made (nor one
interchangeable with it; ``_satat_search.play_weight`` replays the round): inference from the card plays.
Each legal card is scored in every world by compiled rollouts with JANGARA's policy (points margin of the
round plus a tenth of the trick margin), or by the double-dummy solver (Satat variant: 2♥, Troupe) once
the seat holds at most ``dd_cards`` cards: with ``dd_value=reach`` (TIZAB) ``5 + reach(8)`` if its team
can still reach 7 tricks, else ``reach(6)`` (reach(k): can it still end with k tricks); with
``dd_value=points`` (ZELZELA) the round's points, 5 a point as a round ended by the card scores: seven +-5,
a KOT +-10 and a KOT 52 +-15 (a KOT still open, one side holding every trick so far, is sure when that
side can take every trick up to the seventh, ``_satat_search.wins_run``), the same tie-breaks added to a
seven or a loss, and a seven taken by the card itself as much as the best seven. ``reach`` counts a KOT
as a plain seven (so no side tried to make or stop one) and a lost round as 0 but a round lost by the
card itself as -5. JANGARA's card is played unless another card beats
it on the paired score differences over the worlds with a t-statistic of at least ``override_z``
(``base.keep_prior``): a few worlds' noise would otherwise overturn a good policy card by chance (with
the best mean over 8 worlds the search was no better than JANGARA on tuning boards; figures in
``experiments/README.md``). The rollout policy has no mistakes, so a rollout is a function of its world:
``rollouts`` > 1 repeats the same play-out (kept for the interface; every preset uses 1). The presets are
nested: TANOOR 8 plain worlds; TIZAB 32 bluff-weighted worlds, the solver from 5 cards and the Troupe
search; ZELZELA 128 worlds weighted also by the card plays, the solver from 9 cards and a wider Troupe
search; ZELZELA scores with the solver in points. Their measured steps: ``docs/search-strength.md``.

With ``troupe_worlds`` > 0 the caller's Troupe is searched too: JANGARA's redeal stands, else each suit
is played out by one JANGARA rollout in each of ``troupe_worlds`` deals drawn around the caller's first five,
and JANGARA's suit is kept unless another beats it on the paired points margins (plus a tenth of the trick
margin) by a t-statistic of ``troupe_z``. The Troupe, chosen from five cards of thirteen, decides much of a
round, and a heuristic count of length and honours misjudges hands that a play-out over whole deals does not.

ORACLE (cheating, ``oracle.py``: :meth:`SatatAdapter.oracle` on the one true world) sees all hands:
double-dummy cards, Troupe by the solver on the full deal, accusations of the true Renonces (and of a KOT
of the other side by expected points).
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

import numpy as np

from tekkasim.bits import new_rng
from tekkasim.bots.base import (
    MISTAKE_RATE,
    MISTAKE_TEMPERATURE,
    MISTAKE_UNIFORM,
    PLAUSIBLE_MISTAKE_RATE,
    Bot,
    Param,
    View,
)
from tekkasim.bots.pimc import OVERSAMPLE, TIME_MS, WORLDS, Adapter, Limit, SearchBot, Worlds, choose, draw_worlds
from tekkasim.rulesets.satat import _kernels as K
from tekkasim.rulesets.satat import _policy as sp
from tekkasim.rulesets.satat import _search as ss

MEMORY = ("none", "trick", "full")
EVALUATION = ("count", "full")
BLUFFS = ("none", "atoute", "zorge")
DIFFICULTY = ("normal", "hard")
DECIDED = {None: 0, "seven": 1, "kot": 2, "kot52": 3}

PARAMS = (
    PLAUSIBLE_MISTAKE_RATE,
    MISTAKE_TEMPERATURE,
    MISTAKE_UNIFORM,
    Param("memory", "full", "public cards used: none | trick (the current and last trick) | full", choices=MEMORY),
    Param("partner_play", True, "no overtaking partner's sure winner; second hand low, third hand high"),
    Param("troupe_play", True, "draw Troupe with the 2♥ or a master, ruff short suits, give partner ruffs"),
    Param("infer", True, "use apparent voids (no master led into a ruff; partner's ruffs)"),
    Param("evaluation", "full", "Troupe from five: count | full", choices=EVALUATION),
    Param("redeal", True, "ask for a redeal when allowed and the five hold no Ace and no 2♥"),
    Param("ruff_high", False, "ruff with its highest Troupe card (2♥ first), not the cheapest that wins"),
    Param("detect", True, "accuse when a newly played card proves an earlier failure to follow"),
    Param("suspicion", 0.0, "prior that a failure to follow is a bluff; > 0 also accuses on probability", 0.0, 0.5),
    Param("kot_pressure", True, "use an accusation only when it beats the round's worth; stop the other side's KOT"),
    Param("match_pressure", True, "with kot_pressure: chase the other side's KOT by what it would do to the match"),
    Param(
        "bluff",
        "none",
        "deliberate Renonces: none | atoute (ruff to take our 7th) | zorge (ruff to stop theirs)",
        choices=BLUFFS,
    ),
    Param("bluff_team", 2, "the team's bluffs per match (1 or 2)", 1, 2),
    Param("bluff_round", 0, "the match total before the one round per match in which it may bluff", 0, 8),
)


def public_from_observation(obs) -> np.ndarray:
    """The public fields of the rules' kernel arrays (``_satat_policy.PUBLIC_FIELDS``, layout of
    ``_satat_kernels``) from a play-phase observation; the hidden fields stay 0."""
    pub = np.zeros(sp.V_SIZE, np.int64)
    pub[sp.V_PLAYS :] = -1
    p = obs.public
    tricks = p["tricks"]
    pub[sp.V_TROUPE] = p["trump"]
    pub[sp.V_TO_MOVE] = obs.to_move if obs.phase != "terminal" else -1
    pub[sp.V_TRICK] = max(0, len(tricks) - 1)
    pub[sp.V_N_TABLE] = len(tricks[-1]["plays"]) if tricks else 0
    pub[sp.V_WON_A], pub[sp.V_WON_B] = p["won"]
    pub[sp.V_KOT] = -1 if p["kot"] is None else p["kot"]
    pub[sp.V_DECIDED] = DECIDED[p["decided"]]
    pub[sp.V_OVER] = int(obs.phase == "terminal")
    for t, trick in enumerate(tricks):
        pub[sp.V_LEADERS + t] = trick["leader"]
        if trick["winner"] is not None:
            pub[sp.V_WINNERS + t] = trick["winner"]
        for j, (_, c) in enumerate(trick["plays"]):
            pub[sp.V_PLAYS + 4 * t + j] = c
    return pub


def match_score(obs) -> tuple[int, int]:
    """Team A's and team B's match points before the round (the policies' ``score``)."""
    a, b = obs.public["score"]
    return int(a), int(b)


def _five(obs) -> int:
    return int(obs.hand)


def _may_redeal(view: View) -> bool:
    return sp.REDEAL in view.legal


def _accusations(view: View) -> list[int]:
    return [a for a in view.legal if a >= sp.ACCUSE]


def _plain(view: View) -> list[int]:
    """The legal actions that are not accusations (Troupe choices, a redeal, cards, COLLECT)."""
    return [a for a in view.legal if a < sp.ACCUSE]


class SatatBot(Bot):
    """The Satat heuristic family (module docstring); every parameter at its strongest by default."""

    name = "SATAT-HEURISTIC"
    kind = "heuristic"
    rank: ClassVar[int | None] = None
    rulesets: ClassVar[tuple[str, ...]] = ("satat",)
    description = "the Satat heuristic policy family of the ladder"
    params_spec: ClassVar[tuple[Param, ...]] = PARAMS
    mode: ClassVar[int] = sp.MODE_HEURISTIC

    def compiled_form(self, ruleset: str) -> np.ndarray | None:
        """The compiled parameter vector (``_satat_policy.P_*``) in Satat."""
        return self._vector() if self.supports(ruleset) else None

    def _vector(self) -> np.ndarray:
        q = self.params
        p = np.zeros(sp.N_P, np.float64)
        p[sp.P_MODE] = self.mode
        p[sp.P_MISTAKE] = q.get("mistake_rate", 0.0)
        if self.mode != sp.MODE_HEURISTIC:
            return p
        p[sp.P_MEMORY] = MEMORY.index(q["memory"])
        p[sp.P_PARTNER] = float(q["partner_play"])
        p[sp.P_TROUPE] = float(q["troupe_play"])
        p[sp.P_INFER] = float(q["infer"])
        p[sp.P_EVAL] = EVALUATION.index(q["evaluation"])
        p[sp.P_REDEAL] = float(q["redeal"])
        p[sp.P_DETECT] = float(q["detect"])
        p[sp.P_SUSPICION] = q["suspicion"]
        p[sp.P_KOT] = float(q["kot_pressure"])
        p[sp.P_MATCH] = float(q["match_pressure"])
        p[sp.P_RUFF_HIGH] = float(q["ruff_high"])
        p[sp.P_BLUFF] = BLUFFS.index(q["bluff"])
        p[sp.P_BLUFF_TEAM] = q["bluff_team"]
        p[sp.P_BLUFF_ROUND] = q["bluff_round"]
        p[sp.P_TEMP] = q["mistake_temperature"]
        p[sp.P_UNIFORM] = float(q["mistake_uniform"])
        return p

    def act(self, view: View, rng: np.ndarray) -> Any:
        return policy_act(self._vector(), view, rng)


def policy_act(p: np.ndarray, view: View, rng: np.ndarray) -> Any:
    """The compiled policy ``p``'s decision for ``view`` (the same functions the whole-round loop runs)."""
    obs = view.observation
    if obs.phase in ("redeal-or-troupe", "troupe"):
        if view.optional:
            return None
        return int(sp.troupe_decide(p, np.uint64(_five(obs)), _may_redeal(view), rng))
    pub = public_from_observation(obs)
    hand = np.uint64(int(obs.hand))
    if p[sp.P_MODE] == sp.MODE_RANDOM:
        return None if view.optional else int(sp.random_mover_action(hand, pub, view.seat, rng))
    if _accusations(view):
        a = int(sp.accuse_decide(p, hand, pub, view.seat))
        if a >= 0:
            return a
    if view.optional:
        return None
    return int(sp.card_decide(p, hand, pub, view.seat, match_score(obs), rng))


class Greedy(SatatBot):
    """GREEDY for Satat (``greedy.satat_act`` compiled, the same decisions, tested): Troupe its longest suit
    of five, never redeals or accuses; wins the trick as cheaply as it can, else throws its lowest card;
    leads a side Ace, else its lowest card."""

    name = "GREEDY"
    kind = "baseline"
    description = (
        "baseline: wins a trick as cheaply as it can, else throws its lowest card; Troupe its "
        "longest suit; never redeals, accuses or bluffs"
    )
    params_spec = (MISTAKE_RATE,)
    mode = sp.MODE_GREEDY


class Kado(SatatBot):
    """KADO (rank 0): sees the trick (and the one before) but beats it cheaply even over partner, ruffs with
    its highest Troupe card (``ruff_high``: it wastes its high trumps), Troupe by count, never accuses or
    redeals; 30% mistakes. (With ``memory=none`` -- blind to the trick, Aces else low -- its step to POCHAQ
    was too large even without mistakes; with 45% mistakes and no ``ruff_high`` it lost two tricks or more
    no more often than POCHAQ: ``experiments/README.md``.)"""

    name = "KADO"
    rank = 0
    description = "beats the trick even over partner, ruffs with its top trump; Troupe by count; 30% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.30,
        "ruff_high": True,
        "memory": "trick",
        "partner_play": False,
        "troupe_play": False,
        "infer": False,
        "evaluation": "count",
        "redeal": False,
        "detect": False,
        "kot_pressure": False,
    }


class Pochaq(SatatBot):
    """POCHAQ (rank 1): sees the trick and the one before (Normal memory), beats the trick cheaply even over
    partner; accuses proven Renonces; 30% mistakes."""

    name = "POCHAQ"
    rank = 1
    description = "Normal memory, beats the trick cheaply even over partner, accuses proofs; 30% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.30,
        "memory": "trick",
        "partner_play": False,
        "troupe_play": False,
        "infer": False,
        "evaluation": "full",
        "redeal": False,
        "detect": True,
        "kot_pressure": False,
    }


class Puchoq(SatatBot):
    """PUCHOQ (rank 2): Normal memory, partner play and Troupe play, redeals; 20% mistakes."""

    name = "PUCHOQ"
    rank = 2
    description = "Normal memory, partner play, Troupe play, redeals, accuses proofs; 20% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.20,
        "memory": "trick",
        "partner_play": True,
        "troupe_play": True,
        "infer": False,
        "evaluation": "full",
        "redeal": True,
        "detect": True,
        "kot_pressure": False,
    }


class Sada(SatatBot):
    """SADA (rank 3): Hard memory (every public card: masters, voids, proofs over the whole round), partner
    and Troupe play; 20% mistakes."""

    name = "SADA"
    rank = 3
    description = "Hard memory, voids, partner and Troupe play, accuses proofs; 20% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.20,
        "memory": "full",
        "partner_play": True,
        "troupe_play": True,
        "infer": True,
        "evaluation": "full",
        "redeal": True,
        "detect": True,
        "kot_pressure": False,
    }


class Tana(SatatBot):
    """TANA (rank 4): SADA with round pressure (accusations by expected points, stopping the other side's KOT);
    10% mistakes."""

    name = "TANA"
    rank = 4
    description = "Hard memory, voids, partner and Troupe play, KOT pressure; 10% mistakes"
    preset: ClassVar[dict[str, Any]] = {"mistake_rate": 0.10, "memory": "full", "kot_pressure": True}


class Jangara(SatatBot):
    """JANGARA (rank 5): the whole family, no mistakes. (Accusations on probability, ``suspicion`` > 0, cost
    points against TANA and ATOUTE Hard on tuning boards: off; ``experiments/README.md``.)"""

    name = "JANGARA"
    rank = 5
    description = "the whole heuristic family: Hard memory, voids, partner and Troupe play, KOT pressure; no mistakes"
    preset: ClassVar[dict[str, Any]] = {"mistake_rate": 0.0, "memory": "full", "kot_pressure": True}


class Personality(SatatBot):
    """A bluffing personality at ``difficulty`` normal (Normal memory, team limit one bluff per match) or
    hard (Hard memory, KOT pressure, team limit two)."""

    params_spec = (*PARAMS, Param("difficulty", "normal", "normal | hard", choices=DIFFICULTY))

    def __init__(self, **params: Any):
        super().__init__(**params)
        self._fixed = self.difficulty_settings(self.params["difficulty"])
        for key, value in self._fixed.items():
            if key not in params:  # the difficulty's setting unless given explicitly
                self.params[key] = value

    @staticmethod
    def difficulty_settings(difficulty: str) -> dict[str, Any]:
        hard = difficulty == "hard"
        return {
            "memory": "full" if hard else "trick",
            "kot_pressure": hard,
            "bluff_team": 2 if hard else 1,
            "infer": hard,
        }

    @property
    def label(self) -> str:
        base = {p.name: p.default for p in self.params_spec} | dict(self.preset) | self._fixed
        changed = [f"{k}={v}" for k, v in self.params.items() if base.get(k) != v]
        return self.name + (":" + ",".join(changed) if changed else "")


class Atoute(Personality):
    """Madame Atoute: bluffs by ruffing (a Troupe card played while holding the suit led) the trick that
    gives her side its seventh, from the fourth trick on, once per match at most."""

    name = "ATOUTE"
    description = (
        "Madame Atoute: may bluff once per match, ruffing while holding the suit to take her side's "
        "seventh trick; difficulty normal|hard"
    )
    preset: ClassVar[dict[str, Any]] = {"bluff": "atoute"}


class Zorge(Personality):
    """Ton Zorge: bluffs by ruffing while holding the suit led to stop the other side's seventh trick (play
    goes on: a later card may expose him), from the fourth trick on, once per match at most."""

    name = "ZORGE"
    description = (
        "Ton Zorge: may bluff once per match, ruffing while holding the suit to stop the other "
        "side's seventh trick; difficulty normal|hard"
    )
    preset: ClassVar[dict[str, Any]] = {"bluff": "zorge"}


LADDER_HEURISTIC = (Kado, Pochaq, Puchoq, Sada, Tana, Jangara)


# --- search -----------------------------------------------------------------------------------------------

_JANGARA = None


def jangara_vector() -> np.ndarray:
    global _JANGARA
    if _JANGARA is None:
        _JANGARA = Jangara()._vector()
    return _JANGARA


def _rollout_vector() -> np.ndarray:
    """The rollout policy: JANGARA's card play without accusations or bluffs."""
    p = jangara_vector().copy()
    p[sp.P_DETECT] = 0.0
    return p


class _Scorer:
    """Scores of candidate cards in one world for ``team``: rollouts, or the solver late in the round."""

    def __init__(self, reps: int, dd_cards: int, rng: np.ndarray, dd_value: str = "reach"):
        self.reps = reps
        self.dd_cards = dd_cards
        self.dd_points = dd_value == "points"
        self.rng = rng
        self.p = _rollout_vector()
        self._sv = None

    def scores(self, world, cards: list[int], team: int, held: int) -> np.ndarray:
        if held <= self.dd_cards:
            return self.dd_scores(world, cards, team)
        hands, st = world.arrays
        score = (int(world.score_before[0]), int(world.score_before[1]))
        out = np.empty(len(cards))
        sp.rollout_scores(self.p, hands, st, score, np.array(cards, np.int64), self.reps, team, self.rng, out)
        return out

    def dd_scores(self, world, cards: list[int], team: int) -> np.ndarray:
        if self._sv is None:
            from tekkasim.rulesets.trick52.search import solver

            self._sv = solver()
        out = np.empty(len(cards))
        for i, c in enumerate(cards):
            hands, st = world.arrays
            h, s = hands.copy(), st.copy()
            K.play_card(h, s, c)
            if s[K.DECIDED] != 0:
                K.collect(s)
            if s[K.OVER]:
                m = float(s[K.POINTS_A] - s[K.POINTS_B])
                m = m if team == 0 else -m
                # points: a seven taken now is worth the best seven the solver scores (5 + reach(8))
                out[i] = 5.0 * m + (self.dd_points and m == 1.0)
                continue
            if self.dd_points:
                out[i] = _dd_points_score(self._sv, h, s, team)
            else:
                out[i] = _dd_target_score(self._sv, h, s, team)
        return out


def _dd_target_score(sv, hands, st, team: int) -> float:
    """``4 reach(7) + reach(8) + reach(6)`` for ``team`` from the kernel arrays (two solver queries)."""
    pos = _position(hands, st)
    if sv.can_reach(pos, 7, side=team):
        return 5.0 + sv.can_reach(pos, 8, side=team)
    return float(sv.can_reach(pos, 6, side=team))


def wins_next(hands, st, side: int, k: int) -> bool:
    """Whether team ``side`` can make sure, every card open, of winning each of the next ``k`` tricks from
    the kernel arrays (play phase; the trick on the table, if not complete, is the first of them):
    ``_satat_search.wins_run``."""
    t, n = int(st[K.TRICK]), int(st[K.N_TABLE])
    table = np.full(ss.RUN_TABLE, -1, np.int64)
    if n == 4:  # the trick on the table is complete (and counted): the next one is led by its winner
        leader, n = int(st[K.TO_MOVE]), 0
    else:
        leader = int(st[K.LEADERS + t])
        for j in range(n):
            table[4 * (k - 1) + j] = st[K.PLAYS + 4 * t + j]
    return bool(ss.wins_run(hands.copy(), int(st[K.TROUPE]), leader, table, n, side, k))


def kot_run(hands, st, side: int) -> bool:
    """Whether team ``side``, which has won every trick so far, can still make sure of its KOT (the
    tricks up to the seventh in a row) with every card open."""
    return wins_next(hands, st, side, 7 - int(st[K.WON_A + side]))


def _dd_points_score(sv, hands, st, team: int) -> float:
    """The round's points for ``team`` with every card open, 5 a point as a round already over scores in
    ``_Scorer.dd_scores``: +-5 for seven tricks, +-10 for a KOT, +-15 for a KOT 52, plus 1 when the side
    that takes seven can reach 8 (ours) or when we can still reach 6 (theirs), the tie-breaks of
    ``_dd_target_score``. That score counts neither KOT (2 or 3 points where seven gets 1) nor a lost
    round as worse than no point, so a side on a KOT run did not try to keep it nor the other side to stop
    it, and a loss ending now weighed 5 points more than one ending later."""
    pos = _position(hands, st)
    a, b = int(st[K.WON_A]), int(st[K.WON_B])
    kot = int(st[K.KOT_TEAM])
    if kot < 0 and min(a, b) == 0 and max(a, b) > 0:  # one side has every trick so far: KOT still open
        side = 0 if b == 0 else 1
        if kot_run(hands, st, side):
            kot = side
    if kot >= 0:  # a KOT made or sure: 2 points, 3 if the side takes all 13
        v = 10.0 + 5.0 * sv.can_reach(pos, 13, side=kot)
        return v if kot == team else -v
    if sv.can_reach(pos, 7, side=team):
        return 5.0 + sv.can_reach(pos, 8, side=team)
    return -5.0 + sv.can_reach(pos, 6, side=team)


def _position(hands, st):
    from tekkasim.solver.dd import Position

    troupe = int(st[K.TROUPE])
    t, n = int(st[K.TRICK]), int(st[K.N_TABLE])
    if n == 4:
        leader, table = int(st[K.TO_MOVE]), ()
    else:
        leader = int(st[K.LEADERS + t])
        table = tuple(int(st[K.PLAYS + 4 * t + j]) for j in range(n))
    return Position([int(x) for x in hands], troupe, leader, table, "satat", (int(st[K.WON_A]), int(st[K.WON_B])))


def troupe_values(world, team: int, score: tuple[int, int], rng: np.ndarray) -> np.ndarray:
    """The value for ``team`` of each Troupe (suit 0..3) in ``world`` (a state before Troupe is chosen): the
    round played out by JANGARA's rollout policy at every seat, its points margin plus a tenth of the trick
    margin (``score``: each team's match points before the round, which the policy reads)."""
    roll = _rollout_vector()
    out = np.empty(4)
    for s in range(4):
        w = world.clone()
        w.apply_action(sp.TROUPE_BASE + s)  # the exchange, if one is due, as the rules make it
        h, st = w.arrays
        m = float(sp.rollout(roll, h, st, score, rng)) + 0.1 * float(st[K.WON_A] - st[K.WON_B])
        out[s] = m if team == 0 else -m
    return out


class SatatAdapter(Adapter):
    """The search adapter of Satat (module docstring, "Search"): cards by rollouts or the solver over
    bluff-weighted worlds; Troupe, redeals and accusations by the JANGARA policy."""

    params = (
        WORLDS,
        TIME_MS,
        Param("rollouts", 1, "rollouts per world and card", 1, 64),
        Param(
            "override_z",
            0.0,
            "how sure the search must be to play another card than JANGARA would: the paired t-statistic over "
            "the worlds of the score difference; 0 = the best mean",
            0.0,
            10.0,
        ),
        Param("dd_cards", 0, "the solver scores cards once the seat holds at most this many (0: never)", 0, 13),
        Param(
            "dd_value",
            "reach",
            "what the solver's score counts: reach (4 reach(7) + reach(8) + reach(6)) | points (the round's "
            "points: seven 1, KOT 2, KOT 52 3, a loss as much below zero)",
            choices=("reach", "points"),
        ),
        Param(
            "bluff_weight", 1.0, "weight of a world per other seat with a Renonce in it (1: plain sampling)", 0.0, 1.0
        ),
        OVERSAMPLE,
        Param("suspicion", 0.0, "prior that a failure to follow is a bluff (accusations on probability)", 0.0, 0.5),
        Param("bluff", "none", "deliberate Renonces as the heuristic family: none | atoute | zorge", choices=BLUFFS),
        Param("bluff_team", 2, "the team's bluffs per match (1 or 2)", 1, 2),
        Param("bluff_round", 0, "the match total before the one round per match in which it may bluff", 0, 8),
        Param(
            "troupe_worlds",
            0,
            "the caller's Troupe by search: worlds (deals around its first five) in which each suit is played "
            "out by JANGARA rollouts; 0 = JANGARA's Troupe",
            0,
            4096,
        ),
        Param("troupe_z", 1.0, "t-statistic another Troupe needs over JANGARA's on the paired worlds", 0.0, 10.0),
        Param(
            "play_miss",
            1.0,
            "weight factor of a world per card play of another seat that JANGARA would not have made there "
            "(1: no inference from card plays)",
            0.0,
            1.0,
        ),
    )

    def mistake_actions(self, view: View) -> list[int]:
        return _plain(view)  # never a random accusation

    def weighted(self) -> bool:
        return self.p["bluff_weight"] < 1.0 or self.p["play_miss"] < 1.0

    def weigh(self, view: View, worlds: list, rng: np.ndarray) -> np.ndarray:
        w = np.empty(len(worlds))
        for i, c in enumerate(worlds):
            flags = int(c.arrays[1][K.RENONCERS]) & ~(1 << view.seat)
            w[i] = self.p["bluff_weight"] ** bin(flags).count("1")
        miss = float(self.p["play_miss"])
        if miss < 1.0 and view.observation.phase == "play":
            roll, score = _rollout_vector(), match_score(view.observation)
            h0, scratch = np.empty(4, np.uint64), np.empty(K.ST_SIZE, np.int64)
            for i, c in enumerate(worlds):
                hands, st = c.arrays
                w[i] *= ss.play_weight(roll, hands, st, view.seat, score, miss, h0, scratch, rng)
        return w

    def _vector(self) -> np.ndarray:
        p = jangara_vector().copy()
        p[sp.P_MISTAKE] = 0.0
        p[sp.P_SUSPICION] = self.p["suspicion"]
        p[sp.P_BLUFF] = BLUFFS.index(self.p["bluff"])
        p[sp.P_BLUFF_TEAM] = self.p["bluff_team"]
        p[sp.P_BLUFF_ROUND] = self.p["bluff_round"]
        return p

    def decide(self, view: View, worlds: Worlds, rng: np.ndarray) -> Any:
        p = self._vector()
        obs = view.observation
        if not view.optional and obs.phase in ("redeal-or-troupe", "troupe") and self.p["troupe_worlds"] > 0:
            return self.troupe(view, p, rng)
        if view.optional or obs.phase != "play":
            return policy_act(p, view, rng)
        pub = public_from_observation(obs)
        hand = np.uint64(int(obs.hand))
        if _accusations(view):
            a = int(sp.accuse_decide(p, hand, pub, view.seat))
            if a >= 0:
                return a
        prior = int(sp.card_decide(p, hand, pub, view.seat, match_score(obs), new_rng(0)))
        cards = [a for a in view.legal if a < 52]
        if prior not in cards:  # the policy's bluff: taken as it is (search plays legal cards)
            return prior
        if len(cards) == 1:
            return cards[0]
        scorer = _Scorer(self.p["rollouts"], self.p["dd_cards"], rng, self.p["dd_value"])
        held = int(obs.hand).bit_count()
        team = view.seat & 1
        i = choose(worlds, lambda w: scorer.scores(w, cards, team, held), cards.index(prior), self.p["override_z"])
        return cards[i]

    def troupe(self, view: View, p: np.ndarray, rng: np.ndarray) -> int:
        """The caller's Troupe: JANGARA's (and its redeals) unless another suit does better by ``troupe_z``
        on the paired points margins over ``troupe_worlds`` worlds, each suit played out in every world by
        one JANGARA rollout. The five cards a Troupe is chosen from leave most of the hand unknown: a
        rollout over whole deals weighs the suit's length against the honours and 2♥ better than a count."""
        prior = policy_act(p, view, rng)
        if prior == sp.REDEAL:
            return prior
        worlds = Worlds(
            lambda n: draw_worlds(self, view, rng, n, 1),
            Limit(int(self.p["troupe_worlds"]), int(self.p["time_ms"])),
            None,
            time.perf_counter(),
        )
        team, score = view.seat & 1, match_score(view.observation)
        values = lambda w: troupe_values(w, team, score, rng)  # noqa: E731
        return sp.TROUPE_BASE + choose(worlds, values, prior - sp.TROUPE_BASE, self.p["troupe_z"])

    def oracle(self, view: View, world: Worlds, rng: np.ndarray) -> Any:
        """The true world: Troupe by the solver on the full deal, accusations of the true Renonces, cards by
        the solver (the best of ``4 reach(7) + reach(8) + reach(6)``)."""
        from tekkasim.rulesets.trick52.search import solver
        from tekkasim.solver.dd import Position

        state = world.first
        obs = view.observation
        sv = solver()
        team = view.seat & 1
        if obs.phase in ("redeal-or-troupe", "troupe"):
            if view.optional:
                return None
            hands = [state.hand(s) for s in range(4)]
            best, bs = -1.0, 0
            for s in range(4):
                pos = Position(hands, s, state.caller, (), "satat")
                v = (
                    5.0 + sv.can_reach(pos, 8, side=team)
                    if sv.can_reach(pos, 7, side=team)
                    else float(sv.can_reach(pos, 6, side=team))
                )
                if v > best:
                    best, bs = v, s
            if best < 1.0 and _may_redeal(view):
                return sp.REDEAL
            return sp.TROUPE_BASE + bs
        accs = _accusations(view)
        if accs:
            pub = public_from_observation(obs)
            cont = float(sp._team_points_now(pub, team))
            cheaters = {s for _, s in state.renonces()}
            good = [a for a in accs if (a - sp.ACCUSE) // 208 in cheaters]
            if good and 1.0 > cont:
                return good[0]
            if not good and -1.0 > cont:
                return accs[0]
        if view.optional:
            return None
        if sp.COLLECT in view.legal:
            return sp.COLLECT
        cards = [a for a in view.legal if a < 52]
        if len(cards) == 1:
            return cards[0]
        return cards[choose(world, lambda w: [_dd_card(sv, *w.arrays, c, team) for c in cards])]


class SatatSearch(SearchBot):
    """Determinized search for Satat (module docstring); the named bots are presets."""

    name = "SATAT-SEARCH"
    rulesets: ClassVar[tuple[str, ...]] = ("satat",)
    adapter = SatatAdapter
    params_spec: ClassVar[tuple[Param, ...]] = (MISTAKE_RATE, *SatatAdapter.params)


class Tanoor(SatatSearch):
    """TANOOR (rank 6): JANGARA's Troupe, redeals and accusations; cards by 8 uniform worlds x one JANGARA
    rollout, JANGARA's card kept unless another is better by ``override_z=1``."""

    name = "TANOOR"
    rank = 6
    description = (
        "determinized search over JANGARA: 8 worlds x JANGARA rollouts; JANGARA's card unless another "
        "is better (t >= 1); JANGARA's Troupe and accusations"
    )
    preset: ClassVar[dict[str, Any]] = {"worlds": 8, "rollouts": 1, "override_z": 1.0}


class Tizab(SatatSearch):
    """TIZAB (rank 7): TANOOR with 32 worlds weighted against bluffs (a world in which another seat committed
    a Renonce weighs 0.05), cards by the double-dummy solver once it holds at most 5 cards, and the caller's
    Troupe searched over 64 deals around its first five. Worlds and solver cards were cut from 64 and 7 so
    that it stands about midway between TANOOR and ZELZELA (tuning in ``experiments/README.md``)."""

    name = "TIZAB"
    rank = 7
    description = (
        "determinized search over JANGARA: 32 bluff-weighted worlds, double-dummy solver from 5 cards, "
        "JANGARA rollouts before; override at z=1; Troupe searched over 64 deals"
    )
    preset: ClassVar[dict[str, Any]] = {
        "worlds": 32,
        "rollouts": 1,
        "bluff_weight": 0.05,
        "dd_cards": 5,
        "override_z": 1.0,
        "troupe_worlds": 64,
    }


class Zelzela(SatatSearch):
    """ZELZELA (rank 8): TIZAB with 128 worlds weighted also by the other seats' card plays
    (``play_miss=0.3``), the solver from 9 cards scoring the round's points (``dd_value=points``: KOT and
    KOT 52 counted), and Troupe searched over 256 deals."""

    name = "ZELZELA"
    rank = 8
    description = (
        "determinized search over JANGARA: 128 worlds weighted by bluffs and by the other seats' card plays, "
        "double-dummy solver in round points (KOT 2, KOT 52 3) from 9 cards, rollouts before; override at z=1; "
        "Troupe searched over 256 deals"
    )
    preset: ClassVar[dict[str, Any]] = {
        "worlds": 128,
        "rollouts": 1,
        "bluff_weight": 0.05,
        "play_miss": 0.3,
        "dd_cards": 9,
        "dd_value": "points",
        "override_z": 1.0,
        "troupe_worlds": 256,
    }


def _dd_card(sv, hands, st, c: int, team: int) -> float:
    h, s = hands.copy(), st.copy()
    K.play_card(h, s, c)
    if s[K.DECIDED] != 0:
        K.collect(s)
    if s[K.OVER]:
        m = float(s[K.POINTS_A] - s[K.POINTS_B])
        return 5.0 * (m if team == 0 else -m)
    return _dd_target_score(sv, h, s, team)


LADDER = (*LADDER_HEURISTIC, Tanoor, Tizab, Zelzela)

MAX_ROUND_ACTIONS = 3 + 52 + 1  # two redeals and Troupe, the cards, a collect or an accusation


RANDOM_FORM = np.zeros(sp.N_P, np.float64)  # RANDOM's parameter vector: a uniformly random card
RANDOM_FORM[sp.P_MODE] = sp.MODE_RANDOM


def play_tables(game, px: np.ndarray, py: np.ndarray, seeds: np.ndarray, table: int) -> dict:
    """The compiled loop of ``compiled.play_tables``: the first round of a match from each board seed
    (uint64) at ``table`` of a duplicate pair (team X's parameter vector ``px`` bottom/top at table 0,
    right/left at table 1), the same actions as ``Satat.new_deal(seed)`` played through
    ``bots.loop.play_deal`` (tested). ``{"returns": (n, 2) team A/B points, "actions": (n, L) -1 padded,
    "n_actions": (n,)}``."""
    n = len(seeds)
    returns = np.zeros((n, 2), np.float64)
    actions = np.full((n, MAX_ROUND_ACTIONS), -1, np.int64)
    n_actions = np.zeros(n, np.int64)
    sp.play_rounds_kernel(seeds, table, px, py, returns, actions, n_actions)
    return {"returns": returns, "actions": actions, "n_actions": n_actions}


def play_rounds(x_bot, y_bot, seeds, table: int) -> dict:
    """``compiled.play_tables`` in Satat: the first round of each board seed at ``table``, team X =
    ``x_bot`` and Y = ``y_bot`` (Bots or names)."""
    from tekkasim.bots.compiled import play_tables as play
    from tekkasim.rules import get_game

    return play(get_game("satat"), x_bot, y_bot, seeds, table)


__all__ = [
    "BLUFFS",
    "LADDER",
    "MEMORY",
    "PARAMS",
    "Atoute",
    "Greedy",
    "Jangara",
    "Kado",
    "Pochaq",
    "Puchoq",
    "Sada",
    "SatatBot",
    "SatatAdapter",
    "SatatSearch",
    "Tana",
    "Tanoor",
    "Tizab",
    "Zelzela",
    "Zorge",
    "RANDOM_FORM",
    "play_rounds",
    "play_tables",
    "policy_act",
    "public_from_observation",
]
