"""The Shengji ladder: GREEDY, KADO .. JANGARA (compiled heuristic policies), TANOOR, TIZAB, ZELZELA
(determinized search with compiled rollouts) and ORACLE's adapter (perfect-information rollouts).

Every heuristic bot decides by ``_shengji_policy.decide`` on its parameter vector and arrays built from
its seat's observation alone (:func:`policy_input`); the compiled deal loop (``_shengji_policy.play_deal``)
runs the same decision on the arrays it keeps, so both forms play the same deals action for action
(tested).

Parameters of the heuristic family (:class:`ShengjiHeuristic`)
--------------------------------------------------------------
``mistake_rate``  probability that a decision is a mistake (``bits.mistake``), so that ``NAME:mistake_rate=0``
                  is the same bot without mistakes. A mistake is plausible (issue 25): the bot decides what
                  it means to do, then draws one of its own alternatives by ``bits.mistake_pick``, with
                  weight ``exp(-cost / mistake_temperature)``, ``cost`` being what the alternative gives up
                  against the meant action by the bot's own evaluation, in tens of card points (packed in
                  steps of 1.25 points; 17.5 points or more are gross, all alike). An alternative that
                  evaluation rates above the meant action is never drawn (its equal may be); with none left
                  the bot plays what it meant. Declarations: passing on the meant call, priced by how far its
                  worth (the count of ``declare``) lies above ``declare_min`` (5 points a unit of worth: a
                  marginal call's pass is the common slip), or the best call of another suit, priced by the
                  worth it gives up; an ``eval`` bot that meant to pass below ``declare_min`` may call its
                  best call; never a call worth less than ``declare_min`` - 2 (hopeless by its own count),
                  over partner's call, or an overcall by ``simple``. Burial: one of the next 16 cards of its
                  burial ranking after the ones it means to bury (a point card, a pair, an Ace or a
                  short-suit card it meant to keep), priced by how much more the ranking keeps it (a ten's
                  points are one unit) and 1/16 unit a place further down. Leads: another lead of the meant
                  lead's shape (single, pair, tractor of its length). Follows: the follows its own rules make
                  with other card costs (weakest, keep points, feed points), the cheapest play of the
                  lead's shape that wins (a ruff when void), or the meant play with one card or one pair
                  changed. A play is priced by ``_shengji_policy.play_value``: what the seat sees of it
                  (the cards it remembers, the voids if it infers, the trick on the table whatever its
                  ``memory``: whether it beats the trick and can be beaten after, partner's winner, the points on the
                  table and its own, trumps, side masters and other cards spent, pairs and tractors split;
                  on lead: a master, a trump lead, the suit's length, a suit an opponent or partner is
                  known void in), weighted as fitted to JANGARA-policy rollouts of the true deal on tuning
                  boards (experiments/README.md); the 16 cheapest plays are drawn from.
``mistake_temperature``  that softmax's temperature, in tens of card points (0: always the cheapest
                  alternative; large: nearly uniform among the alternatives rated no better than the meant
                  action).
``mistake_uniform``  the old mistake instead: the engine's random action (uniform call or pass, uniform kind
                  to bury, uniform lead, the engine's random follow), action for action as before issue 25.
                  Off in every preset; GREEDY's mistakes are always uniform (it has no evaluation to draw
                  by).
``memory``        ``none`` (its hand only: it cannot see who wins the trick; follows with the top of the
                  suit when no higher card of it is out by its own hand, else low; never ruffs),
                  ``trick`` (the current trick: who wins, with what), ``full`` (every card played: which
                  higher singles and pairs are still out, so masters and tractors that can still be
                  beaten).
``infer``         use the public voids: do not lead a side suit an opponent can ruff, and count partner's
                  winner unsafe when the seat after us is void in the led suit.
``partner_play``  do not overtake partner; win with the cheapest play nobody after us can beat; second
                  hand low unless the trick holds 10 points or more; third hand wins.
``points``        point management: feed 5s, 10s and Kings to partner's sure winner; otherwise keep
                  point cards, high cards and pairs and throw low; ruff only for points, late, or when
                  long in trumps.
``declare``       ``never`` | ``simple`` (when nobody has called: the call of its longest suit, counted
                  as below; never overcalls) | ``eval`` (the best call by its worth: the trumps it would
                  hold (level cards, jokers, the suit) + 0.5 per Ace of the suit + 0.75 for a pair call
                  (harder to overcall) + 2 for no-trump; overcalls opponents, never partner; only when
                  worth ``declare_min`` or more).
``declare_min``   worth needed for an ``eval`` call.
``bury``          ``weakest`` (side suits before trumps, non-points before points, low first) or ``smart``
                  (also keeps pairs and side Aces, empties short suits to ruff them, and keeps points out
                  of the kitty, where the attackers' last trick would multiply them).
``leads``         ``simple`` (a side Ace, else the weakest single) or ``structure`` (a master tractor or
                  any side tractor, a master pair, a master side single, defenders long in trump draw with
                  a low trump pair, else low from the shortest side suit).
``kitty``         protect the kitty: ruff freely in the last tricks (the last trick doubles the kitty).

Search bots (:class:`ShengjiSearch`: the search core ``pimc`` with :class:`ShengjiAdapter`, see
``docs/search.md``): ``worlds`` worlds from ``view.sample`` (consistent with every public fact: hand
sizes, declared cards, voids, failed pair follows, the dealer's own burial), each candidate action
applied in every world and the world played out by the compiled ``rollout`` policy at every seat
(``greedy`` or ``jangara``, or ``random``); the action with the best mean outcome wins. ``time_ms`` > 0
stops drawing worlds once the time is spent (``worlds`` at most), as in every ruleset. The candidates are
every legal action when there are at most ``candidates``, else the choices of the policy family's
variants (and on lead every pair and tractor and each suit's lowest and highest single). The JANGARA
policy's own choice is played unless another candidate beats it by more than ``prior`` levels on the
paired differences over the worlds with a t-statistic of at least ``override_z`` (``pimc.choose``; with
``override_z=0``, the best mean after ``prior`` is credited to JANGARA's choice): noise over a few worlds
must not overturn it (the best mean over a few worlds lost levels to JANGARA, the same worlds under
``override_z=1`` gained; figures in ``experiments/README.md``). The rollout policy
has no mistakes, so a rollout is a function of its world. The presets are nested: each adds worlds and
overrides more readily than the one below. Every play is searched; the calls and the burial are the
JANGARA policy's (searching the calls over sampled worlds lost levels on tuning boards: a world's other
hands decide the trump the rollout finds best). A rollout is scored by the attackers' points at 40 a
level (see ``_value``). The POCHAQ candidate keeps POCHAQ's uniform mistakes (``mistake_uniform``): a
random candidate to score, as before the plausible mistakes, so the search bots decide as they did.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from tekkasim.bots.base import MISTAKE_RATE, MISTAKE_UNIFORM, PLAUSIBLE_MISTAKE_RATE, Bot, Param, View
from tekkasim.bots.pimc import TIME_MS, WORLDS, Adapter, SearchBot, Worlds, choose
from tekkasim.cards import N_KINDS
from tekkasim.rulesets.shengji import _kernels as K
from tekkasim.rulesets.shengji import _policy as sp

MEMORY = ("none", "trick", "full")
DECLARE = ("never", "simple", "eval")
BURY = ("weakest", "smart")
LEADS = ("simple", "structure")
PHASE = {"declare": sp.PH_DECLARE, "bury": sp.PH_BURY, "play": sp.PH_PLAY, "terminal": sp.PH_END}

PARAMS = (
    PLAUSIBLE_MISTAKE_RATE,
    Param(
        "mistake_temperature",
        0.1,
        "softmax temperature (tens of card points) of a mistake over what each alternative costs by the bot's "
        "own evaluation",
        0.0,
        5.0,
    ),
    MISTAKE_UNIFORM,
    Param("memory", "full", "public history used: none | trick | full", choices=MEMORY),
    Param("infer", True, "use public voids (no leads into a ruff; partner's winner unsafe before a void seat)"),
    Param("partner_play", True, "do not overtake partner; cheapest sure winner; second hand low"),
    Param("points", True, "feed points to partner's sure winner, keep them from the opponents"),
    Param("declare", "eval", "declarations: never | simple | eval", choices=DECLARE),
    Param("declare_min", 8.0, "worth (trumps held, Aces, pair call) needed for an eval call", 0.0, 30.0),
    Param("bury", "smart", "burial: weakest | smart", choices=BURY),
    Param("leads", "structure", "leads: simple | structure", choices=LEADS),
    Param("kitty", True, "ruff freely in the last tricks to win the kitty's last trick"),
)


@lru_cache(maxsize=64)
def _tables(trump: int, level: int):
    return K.new_tables(trump, level)


_NO_TABLES = (
    np.zeros(N_KINDS, np.int64),
    np.zeros(N_KINDS, np.int64),
    np.zeros(5, np.uint64),
    np.zeros((5, 16), np.uint64),
)


def _masks(play) -> tuple[int, int]:
    one = two = 0
    for k in play:
        b = 1 << k
        if one & b:
            two |= b
        one |= b
    return one, two


def _kinds(one: int, two: int) -> tuple[int, ...]:
    out = []
    m = one
    while m:
        k = (m & -m).bit_length() - 1
        m &= m - 1
        out.append(k)
        if two >> k & 1:
            out.append(k)
    return tuple(out)


def _set_gone_voids(st: np.ndarray, gone: np.ndarray, voids: np.ndarray) -> None:
    """The kernel's copies of the cards played (as the masks of a multiset) and of the public voids."""
    st[sp.S_GONE1] = sum(1 << int(k) for k in np.flatnonzero(gone >= 1))
    st[sp.S_GONE2] = sum(1 << int(k) for k in np.flatnonzero(gone >= 2))
    st[sp.S_VOID0 : sp.S_VOID0 + 4] = voids


def policy_input(obs) -> dict:
    """The arrays ``_shengji_policy.decide`` reads, from one seat's observation only."""
    pub = obs.public
    st = np.zeros(sp.S_N, np.int64)
    st[sp.S_PHASE] = PHASE[obs.phase]
    st[sp.S_TO_MOVE] = obs.to_move
    st[sp.S_LEVEL] = pub["level"]
    st[sp.S_LEVEL_A], st[sp.S_LEVEL_B] = pub["score"]
    st[sp.S_DEALER] = -1 if pub["dealer"] is None else pub["dealer"]
    st[sp.S_TRUMP] = -1
    st[sp.S_DECLARE_FIRST] = pub["declare_first"]
    st[sp.S_CALLER] = -1
    for seat, call in pub["declarations"]:
        if call:
            st[sp.S_STANDING] = K.call_strength(call[0], len(call) == 2)
            st[sp.S_CALLER] = seat
            st[sp.S_PASSES] = 0
            st[sp.S_CALLS] += 1
            st[sp.S_TRUMP] = K.NO_TRUMP if call[0] >= 52 else call[0] // 13  # the standing call's suit
        else:
            st[sp.S_PASSES] += 1
    if pub["trump"] is not None:
        st[sp.S_TRUMP] = pub["trump"]
    st[sp.S_BURIED] = pub["buried_count"]
    st[sp.S_ATT] = sum(pub["won"])
    voids = np.asarray(pub["voids"], np.int64)
    tables = _NO_TABLES if pub["trump"] is None else _tables(int(pub["trump"]), int(pub["level"]))
    eff, strength, suit_kinds, _ = tables
    counts = [0] * N_KINDS
    g1 = g2 = 0  # the cards played as the masks of a multiset
    for t in pub["tricks"]:
        for _, play in t["plays"]:
            for k in play:
                counts[k] += 1
                b = 1 << k
                if g1 & b:
                    g2 |= b
                g1 |= b
    gone = np.array(counts, np.int64)
    st[sp.S_GONE1], st[sp.S_GONE2] = g1, g2
    st[sp.S_VOID0 : sp.S_VOID0 + 4] = voids
    st[sp.S_TRICKS] = sum(1 for t in pub["tricks"] if t["winner"] is not None)
    if pub["tricks"] and pub["tricks"][-1]["winner"] is None:
        cur = pub["tricks"][-1]
        plays = cur["plays"]
        st[sp.S_TN] = len(plays)
        st[sp.S_LEADER] = cur["leader"]
        lo, lt = _masks(plays[0][1])
        shape, e, top = K.play_shape(np.uint64(lo), np.uint64(lt), eff, strength, suit_kinds)
        st[sp.S_LEAD_N] = len(plays[0][1])
        st[sp.S_LEAD_PAIRS] = bin(lt).count("1")
        st[sp.S_LEAD_SUIT] = e
        st[sp.S_LEAD_SHAPE] = shape
        best, best_seat = int(top) + (16 if e == K.TRUMP else 0), cur["leader"]
        pts = 0
        for seat, play in plays:
            o, w = _masks(play)
            pts += int(K.points(np.uint64(o), np.uint64(w)))
            if seat == cur["leader"]:
                continue
            void = all(eff[k] != e for k in play)  # no card of the led suit: the seat had none
            key = int(K.play_key(np.uint64(o), np.uint64(w), shape, e, void, eff, strength, suit_kinds))
            if key > best:
                best, best_seat = key, seat
        st[sp.S_BEST_KEY] = best
        st[sp.S_BEST_SEAT] = best_seat
        st[sp.S_TPTS] = pts
    elif pub["tricks"]:
        st[sp.S_LEADER] = pub["tricks"][-1]["winner"]
    b1 = b2 = 0
    if obs.phase == "play" and obs.seat == pub["dealer"]:
        b1, b2 = _masks(obs.private.get("buried", ()))
    return {
        "st": st,
        "hand": (int(obs.hand.one), int(obs.hand.two)),
        "gone": gone,
        "voids": voids,
        "buried": (b1, b2),
        "tables": tables,
    }


def compiled_decide(p: np.ndarray, obs, rng: np.ndarray) -> tuple[int, ...]:
    """The compiled policy ``p``'s action for the seat of ``obs`` (which must be to move)."""
    a = policy_input(obs)
    eff, strength, suit_kinds, strength_kinds = a["tables"]
    buf = np.empty((sp.BUF_ROWS, 4), np.int64)
    opts = np.empty(16, np.int64)
    one, two = sp.decide(
        p,
        a["st"],
        obs.seat,
        np.uint64(a["hand"][0]),
        np.uint64(a["hand"][1]),
        np.uint64(a["buried"][0]),
        np.uint64(a["buried"][1]),
        eff,
        strength,
        suit_kinds,
        strength_kinds,
        buf,
        opts,
        np.empty((2, 5), np.int64),
        rng,
    )
    return _kinds(int(one), int(two))


class ShengjiPolicy(Bot):
    """A bot whose decision is the compiled ``_shengji_policy.decide`` on its parameter vector."""

    rulesets: ClassVar[tuple[str, ...]] = ("shengji",)

    def compiled_form(self, ruleset: str) -> np.ndarray | None:
        """The compiled parameter vector (``_shengji_policy.P_*``) in Shengji."""
        return self._vector() if self.supports(ruleset) else None

    def _vector(self) -> np.ndarray:
        raise NotImplementedError

    def act(self, view: View, rng: np.ndarray) -> Any:
        if view.optional:
            return None
        return compiled_decide(self._vector(), view.observation, rng)


class ShengjiGreedy(ShengjiPolicy):
    """GREEDY (Shengji): passes in the declaration; buries its weakest cards (side suits before trumps,
    non-points before points, lowest first); leads a side-suit Ace, else its weakest single; following, the
    cheapest play that beats the trick so far (the lowest winning rank, a ruff when void), else its weakest
    legal cards (fewest trumps, then fewest points, then lowest), keeping the pairs the lead demands."""

    name = "GREEDY"
    kind = "baseline"
    rank = None
    description = (
        "baseline: wins a trick as cheaply as it can, else throws its weakest cards; never declares; buries its weakest"
    )
    params_spec = (MISTAKE_RATE,)

    def _vector(self) -> np.ndarray:
        p = np.zeros(sp.N_P, np.float64)
        p[sp.P_MODE] = sp.MODE_GREEDY
        p[sp.P_MISTAKE] = self.params["mistake_rate"]
        p[sp.P_MEMORY] = sp.MEM_TRICK
        return p


class ShengjiHeuristic(ShengjiPolicy):
    """The Shengji heuristic family (module docstring), every parameter at its strongest by default."""

    name = "HEURISTIC"
    kind = "heuristic"
    rank = None
    description = "the Shengji heuristic policy family of the ladder"
    params_spec = PARAMS

    def _vector(self) -> np.ndarray:
        q = self.params
        p = np.zeros(sp.N_P, np.float64)
        p[sp.P_MODE] = sp.MODE_HEURISTIC
        p[sp.P_MISTAKE] = q["mistake_rate"]
        p[sp.P_MEMORY] = MEMORY.index(q["memory"])
        p[sp.P_INFER] = float(q["infer"])
        p[sp.P_PARTNER] = float(q["partner_play"])
        p[sp.P_POINTS] = float(q["points"])
        p[sp.P_DECLARE] = DECLARE.index(q["declare"])
        p[sp.P_DECL_MIN] = q["declare_min"]
        p[sp.P_BURY] = BURY.index(q["bury"])
        p[sp.P_LEADS] = LEADS.index(q["leads"])
        p[sp.P_KITTY] = float(q["kitty"])
        p[sp.P_TEMP] = q["mistake_temperature"]
        p[sp.P_UNIFORM] = float(q["mistake_uniform"])
        return p


_WEAK = {"infer": False, "partner_play": False, "points": False, "kitty": False}


class Kado(ShengjiHeuristic):
    """KADO (rank 0): POCHAQ's play (it sees the current trick and wins it as cheaply as it can, even over
    partner; a side Ace else its weakest single on lead; declares its longest suit when nobody has; buries
    its weakest), but half of its decisions are mistakes. (``memory=none``, which cannot see who wins the
    trick, measured far weaker than POCHAQ on tuning boards: ``experiments/README.md``.)"""

    name = "KADO"
    rank = 0
    description = "sees the current trick, wins it cheaply even over partner; simple calls; 50% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.50,
        "memory": "trick",
        "declare": "simple",
        "bury": "weakest",
        "leads": "simple",
        **_WEAK,
    }


class Pochaq(ShengjiHeuristic):
    """POCHAQ (rank 1): sees the current trick and wins it as cheaply as it can, even over partner;
    simple leads and calls; 25% mistakes."""

    name = "POCHAQ"
    rank = 1
    description = "sees the current trick, wins it cheaply even over partner; simple calls; 25% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.25,
        "memory": "trick",
        "declare": "simple",
        "bury": "weakest",
        "leads": "simple",
        **_WEAK,
    }


class Puchoq(ShengjiHeuristic):
    """PUCHOQ (rank 2): current trick with partner play and point management (feeds partner's sure
    winner, keeps points from the opponents), smart burial; 20% mistakes."""

    name = "PUCHOQ"
    rank = 2
    description = "current trick, partner play, point management, smart burial; 20% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.20,
        "memory": "trick",
        "infer": False,
        "partner_play": True,
        "points": True,
        "declare": "simple",
        "bury": "smart",
        "leads": "simple",
        "kitty": False,
    }


class Sada(ShengjiHeuristic):
    """SADA (rank 3): full count of the cards played (which higher cards and pairs are still out), partner
    play and point management, evaluated calls and smart burial, but simple leads (no tractors or master
    pairs led on purpose); 7% mistakes, as TANA.

    The mistake rates set the ladder's step sizes: structured leads, which TANA adds, are worth much.
    With SADA at 12% and TANA at 6% the step TANA-SADA stood far above the ladder's other steps; with both
    at 7% the three steps around them are closer (tuning and report figures:
    ``experiments/README.md``). Easier bots never make fewer mistakes than harder ones."""

    name = "SADA"
    rank = 3
    description = "full count, partner play, points, evaluated calls, simple leads; 7% mistakes"
    preset: ClassVar[dict[str, Any]] = {
        "mistake_rate": 0.07,
        "memory": "full",
        "infer": False,
        "partner_play": True,
        "points": True,
        "declare": "eval",
        "bury": "smart",
        "leads": "simple",
        "kitty": False,
    }


class Tana(ShengjiHeuristic):
    """TANA (rank 4): everything of the family (structured leads: tractors, master pairs and singles;
    void inference; the kitty's last trick), 7% mistakes, as SADA (see SADA for why)."""

    name = "TANA"
    rank = 4
    description = "full count, void inference, partner play, points, kitty, tractors; 7% mistakes"
    preset: ClassVar[dict[str, Any]] = {"mistake_rate": 0.07}


class Jangara(ShengjiHeuristic):
    """JANGARA (rank 5): everything of the family, no mistakes."""

    name = "JANGARA"
    rank = 5
    description = "full count, void inference, partner play, points, kitty, tractors; no mistakes"
    preset: ClassVar[dict[str, Any]] = {"mistake_rate": 0.0}


LADDER = (Kado, Pochaq, Puchoq, Sada, Tana, Jangara)


def policy_vector(name: str) -> np.ndarray:
    """The compiled parameter vector of a Shengji policy bot by name (``random`` too)."""
    name = name.upper()
    if name == "RANDOM":
        p = np.zeros(sp.N_P, np.float64)
        p[sp.P_MODE] = sp.MODE_RANDOM
        return p
    if name == "GREEDY":
        return ShengjiGreedy()._vector()
    for cls in LADDER:
        if cls.name == name:
            return cls()._vector()
    raise KeyError(name)


# --- search ------------------------------------------------------------------------------------------------


def state_arrays(state) -> dict:
    """Kernel arrays of a full ``ShengjiState`` (a sampled world or the true state), for rollouts."""
    st = np.zeros(sp.S_N, np.int64)
    st[sp.S_PHASE] = PHASE[state.phase()]
    st[sp.S_TO_MOVE] = max(state.current_player(), 0)
    st[sp.S_TRUMP] = -1 if state.trump is None else state.trump
    st[sp.S_LEVEL] = state.level
    st[sp.S_DEALER] = -1 if state.dealer is None else state.dealer
    st[sp.S_STANDING] = state.standing
    st[sp.S_CALLER] = -1 if state.caller is None else state.caller
    st[sp.S_PASSES] = state.passes
    st[sp.S_CALLS] = sum(1 for _, c in state.declarations if c)
    st[sp.S_BURIED] = len(state.buried)
    st[sp.S_LEVEL_A], st[sp.S_LEVEL_B] = state.levels
    st[sp.S_DECLARE_FIRST] = state.declare_first
    st[sp.S_FIRST_DEAL] = int(state.first_deal)
    st[sp.S_TRICKS] = len(state.tricks)
    st[sp.S_TURNUP_SUIT] = next((k // 13 for k in state.kitty if k < 52), -1)
    st[sp.S_ATT] = state.attacker_points
    st[sp.S_BONUS] = state.kitty_bonus
    gone = np.zeros(N_KINDS, np.int64)
    for t in state.tricks:
        for play in t["plays"]:
            for k in play:
                gone[k] += 1
    tplays = np.zeros((4, 2), np.uint64)
    st[sp.S_TN] = len(state.trick)
    if state.trick_leader is not None:
        st[sp.S_LEADER] = state.trick_leader
    for i, play in enumerate(state.trick):
        for k in play:
            gone[k] += 1
        tplays[i] = _masks(play)
    if state.trick:
        n, pairs, e, shape = state.trick_lead
        st[sp.S_LEAD_N], st[sp.S_LEAD_PAIRS], st[sp.S_LEAD_SUIT], st[sp.S_LEAD_SHAPE] = n, pairs, e, shape
        st[sp.S_BEST_KEY], st[sp.S_BEST_SEAT] = state.trick_best
        st[sp.S_TPTS] = sum(int(K.points(*(np.uint64(x) for x in _masks(p)))) for p in state.trick)
    voids = np.array([sum(1 << e for e in range(5) if state.voids[s, e]) for s in range(4)], np.int64)
    _set_gone_voids(st, gone, voids)
    if state.tables is not None:
        tables = tuple(np.array(t) for t in state.tables)
    else:
        tables = tuple(np.array(t) for t in _NO_TABLES)
    return {"st": st, "hands": state.hands.copy(), "gone": gone, "voids": voids, "tplays": tplays, "tables": tables}


def _value(st: np.ndarray, seat: int) -> float:
    """A finished rollout from ``seat``'s side: the attackers' points (kitty bonus included) at 40 points a
    level, positive for the attackers and negative for the defenders. The points alone, not the level
    steps: a step turns one card's difference into a level, and the search then chases noise."""
    att = float(st[sp.S_ATT])
    attacking = (st[sp.S_DEALER] & 1) != (seat & 1)
    return (att if attacking else -att) / 40.0


def rollout_values(arrays: dict, candidates: list, seat: int, params: np.ndarray, rng: np.ndarray) -> np.ndarray:
    """The value of each candidate action in one world, played out by ``params`` (4 rows, one per seat)."""
    out = np.empty(len(candidates))
    eff, strength, suit_kinds, strength_kinds = arrays["tables"]
    for i, action in enumerate(candidates):
        st = arrays["st"].copy()
        hands = arrays["hands"].copy()
        tplays = arrays["tplays"].copy()
        e2, s2, sk2, skk2 = eff.copy(), strength.copy(), suit_kinds.copy(), strength_kinds.copy()
        one, two = _masks(action)
        sp.apply(st, hands, tplays, e2, s2, sk2, skk2, np.uint64(one), np.uint64(two))
        sp.play_from(params, st, hands, tplays, e2, s2, sk2, skk2, rng)
        out[i] = _value(st, seat)
    return out


_VARIANTS = ("JANGARA", "GREEDY", "POCHAQ")


def _variant_vectors() -> list[np.ndarray]:
    # POCHAQ's mistakes stay the engine's random action here: a random candidate for the search to
    # score, as before the plausible mistakes (the search bots' decisions did not change with them)
    out = [policy_vector(n) if n != "POCHAQ" else Pochaq(mistake_uniform=True)._vector() for n in _VARIANTS]
    out.append(ShengjiHeuristic(points=False)._vector())  # JANGARA throwing its weakest cards
    return out


def candidates(view: View, rng: np.ndarray, cap: int) -> list:
    """The actions a search scores, the JANGARA policy's choice first: every legal action when there are
    at most ``cap``; else the choices of GREEDY, POCHAQ and JANGARA with and without point management, and
    on lead also every pair and tractor and the lowest and highest single of each effective suit."""
    legal = view.legal
    obs = view.observation
    chosen = []
    for vec in _variant_vectors():
        a = compiled_decide(vec, obs, rng)
        if a not in chosen:
            chosen.append(a)
    if len(legal) <= cap:
        return chosen + [a for a in legal if a not in chosen]
    pub = obs.public
    if obs.phase == "play" and not (pub["tricks"] and pub["tricks"][-1]["winner"] is None):
        eff, strength = _tables(int(pub["trump"]), int(pub["level"]))[:2]
        ends: dict[int, list] = {}
        for a in legal:
            if len(a) > 1:
                if a not in chosen:
                    chosen.append(a)
                continue
            k = a[0]
            lo_hi = ends.setdefault(int(eff[k]), [a, a])
            if strength[k] < strength[lo_hi[0][0]]:
                lo_hi[0] = a
            if strength[k] > strength[lo_hi[1][0]]:
                lo_hi[1] = a
        for lo, hi in ends.values():
            for a in (lo, hi):
                if a not in chosen:
                    chosen.append(a)
    return chosen


ROLLOUT = ("random", "greedy", "jangara")


class ShengjiAdapter(Adapter):
    """The search adapter of Shengji (module docstring): candidates from the policy family's variants, each
    scored in a world by compiled rollouts; calls and burial by the JANGARA policy. Worlds are drawn one at
    a time (``batch = 1``): unweighted, so drawing ahead would only waste them under a deadline."""

    batch = 1
    params = (
        WORLDS,
        TIME_MS,
        Param("rollout", "jangara", "rollout policy at every seat: random | greedy | jangara", choices=ROLLOUT),
        Param("candidates", 24, "most actions scored when there are many legal plays", 2, 4096),
        Param(
            "prior",
            0.25,
            "levels credited to the JANGARA policy's own choice before the worlds vote "
            "(so that sampling noise alone does not overturn it)",
            0.0,
            10.0,
        ),
        Param(
            "override_z",
            0.0,
            "how sure the search must be to play another action than JANGARA would: the paired t-statistic "
            "over the worlds of the value difference (less ``prior``); 0 = the best mean after ``prior``",
            0.0,
            10.0,
        ),
    )

    def decide(self, view: View, worlds: Worlds, rng: np.ndarray) -> Any:
        if view.optional:
            return None
        if len(view.legal) == 1:
            return view.legal[0]
        p = self.p
        if view.observation.phase != "play":  # calls and burial are the JANGARA policy's (module docstring)
            return compiled_decide(policy_vector("JANGARA"), view.observation, rng)
        cands = candidates(view, rng, p["candidates"])
        params = np.tile(policy_vector(p["rollout"]), (4, 1))
        score = lambda w: rollout_values(state_arrays(w), cands, view.seat, params, rng)  # noqa: E731
        return cands[choose(worlds, score, 0, p["override_z"], p["prior"])]

    def oracle(self, view: View, world: Worlds, rng: np.ndarray) -> Any:
        """Every candidate scored by a JANGARA-policy rollout of the true deal; the best."""
        if view.optional:
            return None
        if len(view.legal) == 1:
            return view.legal[0]
        cands = candidates(view, rng, self.p["candidates"])
        params = np.tile(policy_vector("JANGARA"), (4, 1))
        return cands[choose(world, lambda w: rollout_values(state_arrays(w), cands, view.seat, params, rng))]


class ShengjiSearch(SearchBot):
    """Determinized search for Shengji (module docstring); the named bots are presets."""

    name = "SHENGJI-SEARCH"
    rulesets: ClassVar[tuple[str, ...]] = ("shengji",)
    adapter = ShengjiAdapter
    params_spec = (MISTAKE_RATE, *ShengjiAdapter.params)


class Tanoor(ShengjiSearch):
    """TANOOR (rank 6): 4 sampled worlds, JANGARA rollouts; the JANGARA policy's choice unless another is
    sure by ``override_z=2``. (With 8 worlds it was not shown weaker than TIZAB's 16 on fresh boards;
    4 worlds leaves TIZAB a step: ``experiments/README.md``.)"""

    name = "TANOOR"
    rank = 6
    description = (
        "determinized search over JANGARA: 4 sampled worlds, each action scored by a JANGARA-policy rollout; "
        "JANGARA's choice unless another is clearly better (t >= 2)"
    )
    preset: ClassVar[dict[str, Any]] = {"worlds": 4, "rollout": "jangara", "prior": 0.0, "override_z": 2.0}


class Tizab(ShengjiSearch):
    """TIZAB (rank 7): 16 sampled worlds, JANGARA rollouts, override at ``override_z=1``."""

    name = "TIZAB"
    rank = 7
    description = (
        "determinized search over JANGARA: 16 sampled worlds, each action scored by a JANGARA-policy rollout; "
        "JANGARA's choice unless another is better (t >= 1)"
    )
    preset: ClassVar[dict[str, Any]] = {"worlds": 16, "rollout": "jangara", "prior": 0.0, "override_z": 1.0}


class Zelzela(ShengjiSearch):
    """ZELZELA (rank 8): 64 worlds, JANGARA rollouts, override at ``override_z=1``. A world's cost is
    mostly its draw (``ShengjiState.resample`` replays the deal), not its rollouts, so the 100 ms budget
    per decision buys worlds, four times TIZAB's (timings in ``experiments/README.md``)."""

    name = "ZELZELA"
    rank = 8
    description = (
        "determinized search over JANGARA: 64 sampled worlds, each action scored by a JANGARA-policy rollout; "
        "JANGARA's choice unless another is better (t >= 1)"
    )
    preset: ClassVar[dict[str, Any]] = {"worlds": 64, "rollout": "jangara", "prior": 0.0, "override_z": 1.0}


# --- the whole-deal loop (compiled.play_tables) ------------------------------------------------------

# RANDOM has no compiled form here: its State API form draws from the legal list, the compiled one does not
RANDOM_FORM = None


def play_tables(game, px: np.ndarray, py: np.ndarray, seeds: np.ndarray, table: int) -> dict:
    """The compiled loop of ``compiled.play_tables``: a first deal (level 2, bottom declaring first) from
    each board seed (uint64) at ``table``, team X's parameter vector ``px`` bottom/top at table 0 and
    right/left at table 1, with every action kept: ``{"returns": (n, 2) levels gained, "masks": (n, L, 2)
    action i as its ``(one, two)`` masks (``_kinds`` gives the State API's tuple), "n_actions": (n,)}``."""
    from tekkasim.errors import BotError

    params = np.stack([px if (s & 1) == table else py for s in range(4)])
    n = len(seeds)
    masks = np.zeros((n, sp.MAX_ACTIONS, 2), np.uint64)
    out = np.zeros((n, 7), np.int64)
    # one kernel call a deal: a block kernel of its own would make numba compile the whole linked
    # decision code once more (seconds) for a few µs a deal
    for i, seed in enumerate(seeds.tolist()):
        sp.play_deal(params, seed, table, 0, 0, -1, 0, masks[i], out[i])
    n_actions = out[:, 6].copy()
    if n and int(n_actions.max()) > sp.MAX_ACTIONS:
        raise BotError(f"a Shengji deal took more than {sp.MAX_ACTIONS} actions")
    return {"returns": out[:, :2].astype(np.float64), "masks": masks, "n_actions": n_actions}


__all__ = [
    "LADDER",
    "RANDOM_FORM",
    "Jangara",
    "Kado",
    "Pochaq",
    "Puchoq",
    "Sada",
    "ShengjiGreedy",
    "ShengjiHeuristic",
    "ShengjiAdapter",
    "ShengjiSearch",
    "Tana",
    "Tanoor",
    "Tizab",
    "Zelzela",
    "compiled_decide",
    "play_tables",
    "policy_input",
    "policy_vector",
    "rollout_values",
    "state_arrays",
]
