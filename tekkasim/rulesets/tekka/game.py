"""Tekka: Feskot's trick play under a one-lap auction, in a match to 104 points (rules.md, "Tekka").

Rules as played here
--------------------
* Deal: 13 cards to each seat at once. A seeded deal is ``deck = 0..51`` shuffled by ``bits.shuffle``
  with ``new_rng(seed)``; ``deck[0:13]`` goes to the first-asked seat, the next 13 to the next seat
  counter-clockwise, and so on. Hands are recorded in that order.
* Auction (phase ``"auction"``): one lap, each seat once, counter-clockwise from the first-asked seat
  (``new_deal(seed, first=0, score=(0, 0))``). A call is pass, a target 8..13 strictly above the standing
  high bid, or D13, which outbids every number and may be called again by a later seat, who then holds it.
  A partner may outbid a partner. The holder of the highest call is the declarer; if all four pass, the
  first-asked seat is declarer with a mandatory 8.
* The declarer chooses Prime (phase ``"prime"``) and leads trick 1; tricks as in Feskot.
* Scoring: target made (declaring team wins at least the target) -> the target, no overtricks; failed
  -> opponents 2 x target, but a failed mandatory 8 -> 8 (a voluntary 8 failed gives 16). D13: the
  declarer must win all 13 tricks personally (a trick won by the partner breaks it): made 26, failed 52 to
  the opponents. The deal ends as soon as its result is decided (made, or failed).
* Match: scores accumulate from ``score`` (team A, team B); the first team to reach 104 wins
  (``match_winner``). Next first-asked seat: the same seat if its team did not score in the deal,
  otherwise the next seat counter-clockwise (``next_deal_context``).
* Option ``raises`` (default off; the online rule): when it is the declarer's turn to play, before the
  card, the declarer may request a higher target (9..13 above the current one) or D13, at most once per
  turn, and not once the result is decided. The phase becomes ``"raise"`` and the next opponent in play
  order (the seat after the declarer) accepts or rejects. If accepted the contract changes at once: the
  new target is no longer mandatory; a D13 raise makes the declarer (the requester) the D13 bidder, and
  fails at once if a trick has already gone to another seat. Then the declarer plays its card.
* Signals as in Feskot (option ``signals``).

Actions (see ``_trick52``): cards and signalled cards, ``PRIME_BASE + suit``, ``CALL_BASE + code`` (code 0
pass, 8..13, 14 = D13; :func:`call_action`), ``RAISE_BASE + code`` (:func:`raise_action`), ``ACCEPT`` and
``REJECT``. Text: ``"pass"``, ``"8"`` .. ``"13"``, ``"D13"``, a suit letter, cards, ``"raise 11"``,
``"raise D13"``, ``"accept"``, ``"reject"``.

Observations: Feskot's fields (``trump``, ``tricks``, ``score`` = the match score before the deal,
``won``, ``hand_sizes``, ``voids``, ``first``, ``signals``, ``seat_tricks``; see ``feskot``) plus, in
``public``: ``calls`` ``[(seat, code), ...]`` in turn order, as call codes (0 pass, 8..13, 14 = D13;
``call_text`` gives the text); ``declarer`` (seat) and ``target`` (code 8..13 or 14) once the auction is
over, else None; ``mandatory`` (the all-pass 8); ``raises`` ``[{"by", "trick", "play", "target" (code),
"accepted" (True, False, or None while it awaits its answer)}]``, trick and play 0-based as in the record;
``pending_raise`` (target code of the request awaiting an answer, else None); ``raised`` (the declarer
has requested a raise on this turn). Every seat sees its 13 cards from the deal on.

Records (records.md plus one field): ``auction`` (call texts), ``score_before``, and, with raises,
``"raises": [{"trick": i, "play": j, "by": seat, "target": 9..13 | "D13", "accepted": bool}]`` where ``i``
and ``j`` (0-based) locate the play that the request came before (``accepted`` is absent for a request
still awaiting its answer in an unfinished record). ``from_record`` returns ``[calls..., trump, plays...]``
with ``"raise X"`` and ``"accept"``/``"reject"`` placed before the play they preceded. ``result.target`` is
the final contract; ``result.declarer_tricks`` counts the tricks the declarer won personally.
A record may stop at the deciding trick or go on to trick 13 (then the state is built playing on).
"""

from __future__ import annotations

import numpy as np

from tekkasim.cards import SEATS, SUIT_SYMBOLS, SUITS, next_ccw, parse_seat, team_of
from tekkasim.errors import IllegalAction, RecordError, SeatError, TekkasimError
from tekkasim.rules.base import Option, check_seed
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52.game import Trick52Game, Trick52State, _parse_score_pair, call_text, parse_call

MATCH_POINTS = 104


def call_action(call: int | str) -> int:
    """The action of a call: ``"pass"``/0, 8..13, ``"D13"``/14."""
    code = parse_call(call) if isinstance(call, str) else int(call)
    if code not in (0, *range(8, 14), k.D13):
        raise TekkasimError(f"unknown call {call!r}")
    return k.CALL_BASE + code


def raise_action(target: int | str) -> int:
    """The action of requesting a raise to ``target`` (9..13 or ``"D13"``)."""
    code = parse_call(target) if isinstance(target, str) else int(target)
    if not (9 <= code <= 13 or code == k.D13):
        raise TekkasimError(f"a raise names 9 to 13 or D13, not {target!r}")
    return k.RAISE_BASE + code


def target_value(code: int) -> int | str:
    return "D13" if code == k.D13 else int(code)


def _parse_score(value, what: str) -> tuple[int, int]:
    try:
        return _parse_score_pair(value)
    except TekkasimError:
        raise TekkasimError(f"{what} must be two non-negative integers (team A, team B), not {value!r}") from None


class TekkaState(Trick52State):
    """A Tekka deal (phases ``auction``, ``prime``, ``play``, ``raise``, ``terminal``)."""

    def __init__(self, game: Tekka, arrays: k.Arrays, seed: int | None, score: tuple[int, int] = (0, 0)):
        super().__init__(game, arrays, seed)
        self.score_before = score

    # --- contract ------------------------------------------------------------------------------------
    def calls(self) -> list[int]:
        return [self._i(k.I_CALLS + i) for i in range(self._i(k.I_N_CALLS))]

    def contract(self) -> dict | None:
        """``{"declarer", "target" (8..13 or "D13"), "mandatory"}`` once the auction is over."""
        declarer = self._i(k.I_DECLARER)
        if declarer < 0:
            return None
        return {
            "declarer": declarer,
            "target": target_value(self._i(k.I_TARGET)),
            "mandatory": bool(self._i(k.I_MANDATORY)),
        }

    def _explain_illegal(self, a: int, who: str) -> None:
        phase = self._i(k.I_PHASE)
        if k.CALL_BASE <= a <= k.CALL_BASE + k.D13:
            if phase != k.PH_AUCTION:
                raise IllegalAction("the auction is over", "wrong-phase")
            high = self._i(k.I_HIGH)
            raise IllegalAction(f"{self.action_to_string(a)} does not outbid {call_text(high)}", "outbid")
        if k.RAISE_BASE + 9 <= a <= k.RAISE_BASE + k.D13:
            if not self._i(k.I_RAISES):
                raise IllegalAction("raises are off in this game (option raises)", "raises-off")
            if phase != k.PH_PLAY:
                raise IllegalAction(
                    f"a raise is requested only on the declarer's turn to play (now: {self.phase()})", "wrong-phase"
                )
            if self._i(k.I_TO_MOVE) != self._i(k.I_DECLARER):
                raise IllegalAction(f"only the declarer may request a raise, not {who}", "raise-not-declarer")
            if self._i(k.I_RAISED):
                raise IllegalAction("one raise request per turn", "raise-once")
            if self._i(k.I_DECIDED):
                raise IllegalAction("the deal's result is already decided", "raise-decided")
            raise IllegalAction(
                f"{self.action_to_string(a)} is not above the contract {call_text(self._i(k.I_TARGET))}",
                "raise-not-higher",
            )
        if a in (k.ACCEPT, k.REJECT):
            raise IllegalAction("no raise is waiting for an answer", "wrong-phase")
        super()._explain_illegal(a, who)

    def where(self) -> str:
        phase = self._i(k.I_PHASE)
        name = SEATS[self._i(k.I_TO_MOVE)] if phase != k.PH_TERMINAL else ""
        if phase == k.PH_AUCTION:
            return f"auction, call {self._i(k.I_N_CALLS) + 1} ({name})"
        if phase == k.PH_RAISE:
            return f"trick {self._i(k.I_TRICK) + 1}, play {self._i(k.I_PLAY) + 1}, raise answer ({name})"
        return super().where()

    # --- outcome -------------------------------------------------------------------------------------
    def _score(self) -> tuple[bool, int, int]:
        made, a, b = k.tekka_score(self.arrays.info)
        return bool(made), int(a), int(b)

    def result(self) -> dict:
        self._require_over("result")
        made, a, b = self._score()
        declarer = self._i(k.I_DECLARER)
        ta, tb = self.team_tricks()
        return {
            "declarer": SEATS[declarer],
            "target": target_value(self._i(k.I_TARGET)),
            "mandatory": bool(self._i(k.I_MANDATORY)),
            "tricks": {"A": ta, "B": tb},
            "declarer_tricks": self.seat_tricks()[declarer],
            "made": made,
            "score": {"A": a, "B": b},
        }

    def returns(self) -> tuple[float, float]:
        self._require_over("returns")
        _, a, b = self._score()
        return float(a), float(b)

    def score_after(self) -> tuple[int, int]:
        _, a, b = self._score()
        return self.score_before[0] + a, self.score_before[1] + b

    def next_deal_context(self) -> dict:
        self._require_over("next deal")
        _, a, b = self._score()
        first = self.first
        nxt = first if (a, b)[team_of(first)] == 0 else next_ccw(first)
        return {"first": nxt, "score": self.score_after()}

    def match_winner(self) -> int | None:
        if not self.is_terminal():
            return None
        after = self.score_after()
        for team in (0, 1):
            if after[team] >= MATCH_POINTS and after[1 - team] < MATCH_POINTS:
                return team
        if min(after) >= MATCH_POINTS:  # only if a match is started above 104: the higher wins
            return 0 if after[0] >= after[1] else 1
        return None

    # --- information ---------------------------------------------------------------------------------
    def raises(self) -> list[dict]:
        """The raise requests so far, as in the record's ``raises`` field (seats as ints)."""
        out = []
        for action, seat, trick, play in self._log:
            if k.RAISE_BASE <= action < k.ACCEPT:
                out.append({"trick": trick, "play": play, "by": seat, "target": target_value(action - k.RAISE_BASE)})
            elif action in (k.ACCEPT, k.REJECT):
                out[-1]["accepted"] = action == k.ACCEPT
        return out

    def _score_before(self) -> tuple[int, int]:
        return tuple(self.score_before)

    def _public(self) -> dict:
        public = super()._public()
        declarer = self._i(k.I_DECLARER)
        pending = self._i(k.I_PENDING)
        public.update(
            {
                "calls": [((self.first + i) % 4, code) for i, code in enumerate(self.calls())],
                "declarer": None if declarer < 0 else declarer,
                "target": None if declarer < 0 else self._i(k.I_TARGET),
                "mandatory": bool(self._i(k.I_MANDATORY)),
                "raises": [
                    {
                        "by": r["by"],
                        "trick": r["trick"],
                        "play": r["play"],
                        "target": k.D13 if r["target"] == "D13" else r["target"],
                        "accepted": r.get("accepted"),
                    }
                    for r in self.raises()
                ],
                "pending_raise": pending or None,
                "raised": bool(self._i(k.I_RAISED)),
            }
        )
        return public

    # --- records -------------------------------------------------------------------------------------
    def to_record(self) -> dict:
        rec = self._record_head()
        rec["auction"] = [call_text(c) for c in self.calls()]
        rec["score_before"] = {"A": self.score_before[0], "B": self.score_before[1]}
        raises = self.raises()
        if raises:
            rec["raises"] = [r | {"by": SEATS[r["by"]]} for r in raises]
        return self._record_tail(rec)

    def render(self) -> str:
        a, b = self.score_before
        lines = [f"Tekka, first asked: {SEATS[self.first]}, score before: A {a} - B {b}"]
        self._render_hands(lines)
        calls = "  ".join(f"{SEATS[(self.first + i) % 4]}: {call_text(c)}" for i, c in enumerate(self.calls()))
        lines.append(f"Auction: {calls or '(none yet)'}")
        contract = self.contract()
        if contract:
            kind = " (mandatory)" if contract["mandatory"] else ""
            lines.append(f"Contract: {SEATS[contract['declarer']]} {contract['target']}{kind}")
        prime = self.prime
        lines.append(f"Prime: {SUIT_SYMBOLS[prime] + ' ' + SUITS[prime] if prime is not None else '(not chosen)'}")
        for r in self.raises():
            answer = {True: "accepted", False: "rejected"}.get(r.get("accepted"), "awaiting an answer")
            lines.append(
                f"  raise by {SEATS[r['by']]} to {r['target']} before trick {r['trick'] + 1} "
                f"play {r['play'] + 1}: {answer}"
            )
        self._render_tricks(lines)
        if self.is_terminal():
            res = self.result()
            verdict = "made" if res["made"] else "failed"
            lines.append(
                f"Result: {res['declarer']} {res['target']} {verdict} with {res['tricks']['A']}-"
                f"{res['tricks']['B']} tricks (A-B); points A {res['score']['A']}, B {res['score']['B']}; "
                f"match A {self.score_after()[0]} - B {self.score_after()[1]}"
            )
        else:
            lines.append(f"Unfinished: next {self.where()}")
        return "\n".join(lines)


class Tekka(Trick52Game):
    """Tekka (rules.md): one-lap auction for a target of 8..13 or Double 13; match to 104."""

    name = "tekka"
    description = "Bid-driven match to 104: one-lap auction (8..13 or Double 13), Feskot trick play"
    returns_unit = "points"
    first_seat_label = "first asked"
    action_kinds = ("call", "prime", "card", "raise request", "raise answer")
    options_spec = (
        Option("raises", False, None, "the declarer may request a higher target or D13 during play"),
        Option("signals", True, None, "allow slam/drop signals on plays"),
    )
    ruleset_code = k.TEKKA
    packets = False
    state_class = TekkaState

    def _start(self, dealt, first, seed, play_all=None, score=(0, 0)) -> TekkaState:
        state = super()._start(dealt, first, seed, play_all)
        state.score_before = score
        return state

    def _set_context(self, state: TekkaState, context: dict) -> None:
        context = dict(context)
        if "score" in context:
            state.score_before = _parse_score(context.pop("score"), "score")
        super()._set_context(state, context)

    def _restore_context(self, fresh: TekkaState, old: TekkaState) -> None:
        fresh.score_before = old.score_before

    def new_deal(self, seed: int, first: int | str = 0, score=(0, 0)) -> TekkaState:
        """Shuffle and deal from ``seed``; ``first`` is the first-asked seat, ``score`` the match score
        (team A, team B) before this deal."""
        seed = check_seed(seed)
        first = parse_seat(first)
        return self._start(self._seeded_dealt(seed, first), first, seed, score=_parse_score(score, "score"))

    def from_record(self, record: dict) -> tuple[TekkaState, list[str]]:
        first, dealt = self._parse_header(record)
        unfinished = record.get("unfinished", False) is True
        auction = record.get("auction", [])
        if not isinstance(auction, list) or not all(isinstance(c, str) for c in auction):
            raise RecordError('field \'auction\' must be a list of calls like "pass", "9" or "D13"')
        if len(auction) > 4:
            raise RecordError(f"field 'auction' has {len(auction)} calls (one lap is 4)")
        if len(auction) < 4 and not unfinished:
            raise RecordError(f"field 'auction' has {len(auction)} calls (expected 4)")
        tricks = self._parse_tricks(record)
        trump = self._parse_trump(record, needed=len(auction) == 4 and (bool(tricks) or not unfinished))
        score = (0, 0)
        if "score_before" in record:
            try:
                score = _parse_score(record["score_before"], "field 'score_before'")
            except TekkasimError as exc:
                raise RecordError(str(exc)) from None
        raises = _parse_raises(record.get("raises", []), unfinished)
        plays = [(i, j, p) for i, trick in enumerate(tricks) for j, p in enumerate(trick)]
        actions = list(auction) + ([trump] if trump else [])
        who: list[tuple[int, int, str] | None] = [None] * len(actions)  # raise index and seat, for the check below
        r = 0
        for i, j, p in plays + [
            (
                len(tricks) if not tricks or len(tricks[-1]) == 4 else len(tricks) - 1,
                len(tricks[-1]) % 4 if tricks else 0,
                None,
            )
        ]:
            while r < len(raises) and (raises[r]["trick"], raises[r]["play"]) == (i, j):
                actions.append("raise " + str(raises[r]["target"]))
                who.append((r, raises[r]["by"], "raise"))
                if "accepted" in raises[r]:
                    actions.append("accept" if raises[r]["accepted"] else "reject")
                    who.append(None)
                r += 1
            if p is not None:
                actions.append(p)
                who.append(None)
        if r < len(raises):
            bad = raises[r]
            raise RecordError(
                f"raises[{r}] is at trick {bad['trick'] + 1}, play {bad['play'] + 1}, "
                "which the record's plays do not reach (or raises are out of order)"
            )
        seed = record.get("seed") if isinstance(record.get("seed"), int) else None
        state = self._start(dealt, first, seed, score=score)
        _check_raisers(state, actions, who)
        return self._with_play_on(state, actions), actions

    def play_random(self, n_deals: int, seed: int, first: int | str = 0) -> dict:
        """``n_deals`` random Tekka deals in one kernel call (deal i from ``seed + i``, first-asked seat
        ``first``, score 0-0): every action uniformly random among the legal ones, as in
        ``simulate.random_policy`` — each call uniform over pass / the numbers above the high bid / D13
        (so D13 contracts are common), a random Prime, random legal cards, and with ``raises`` random
        requests and answers on the declarer's turns.

        Returns ``returns`` (n, 2) points, ``made``, ``declarer``, ``target`` (14 = D13), ``mandatory``,
        ``tricks`` (n, 2), ``declarer_tricks``, ``prime`` and ``n_tricks``.
        """
        first = parse_seat(first)
        info = self._random_outputs(n_deals, seed, first, 0, self.options_flags()[1])
        made = np.zeros(n_deals, np.int64)
        score = np.zeros((n_deals, 2), np.int64)
        k.tekka_scores(info, made, score)
        declarer = info[:, k.I_DECLARER]
        return {
            "returns": score.astype(np.float64),
            "made": made,
            "declarer": declarer.copy(),
            "target": info[:, k.I_TARGET].copy(),
            "mandatory": info[:, k.I_MANDATORY].copy(),
            "tricks": info[:, k.I_TEAM_TRICKS : k.I_TEAM_TRICKS + 2].copy(),
            "declarer_tricks": info[np.arange(n_deals), k.I_SEAT_TRICKS + declarer],
            "prime": info[:, k.I_PRIME].copy(),
            "n_tricks": info[:, k.I_TRICK].copy(),
        }


def _parse_raises(raises, unfinished: bool) -> list[dict]:
    if not isinstance(raises, list):
        raise RecordError(f"field 'raises' must be a list, not {type(raises).__name__}")
    out = []
    for n, r in enumerate(raises):
        if not isinstance(r, dict):
            raise RecordError(f"raises[{n}] must be an object")
        for key, limit in (("trick", 13), ("play", 4)):
            value = r.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < limit:
                raise RecordError(f"raises[{n}].{key} must be a 0-based index, not {r.get(key)!r}")
        try:
            by = parse_seat(r.get("by"))
        except SeatError as exc:
            raise RecordError(f"raises[{n}].by: {exc}") from None
        target = r.get("target")
        try:
            raise_action(str(target))
        except TekkasimError:
            raise RecordError(f'raises[{n}].target must be 9 to 13 or "D13", not {target!r}') from None
        entry = {"trick": r["trick"], "play": r["play"], "by": by, "target": str(target).upper()}
        if "accepted" in r and r["accepted"] is not None:
            if not isinstance(r["accepted"], bool):
                raise RecordError(f"raises[{n}].accepted must be true or false")
            entry["accepted"] = r["accepted"]
        elif not (unfinished and n == len(raises) - 1):
            raise RecordError(f"raises[{n}] lacks 'accepted' (only the last raise of an unfinished record may)")
        out.append(entry)
    return out


def _check_raisers(state: TekkaState, actions: list[str], who: list) -> None:
    """Dry run: each recorded raise's ``by`` must be the seat to move when it is requested."""
    if not any(who):
        return
    trial = state.clone()
    for text, tag in zip(actions, who, strict=True):
        if trial.is_terminal():
            return
        if tag is not None and trial.current_player() != tag[1]:
            raise RecordError(
                f"raises[{tag[0]}]: by {SEATS[tag[1]]}, but {SEATS[trial.current_player()]} is to act "
                f"at {trial.where()}"
            )
        try:
            trial.apply_action(trial.string_to_action(text))
        except TekkasimError:
            return


__all__ = ["MATCH_POINTS", "Tekka", "TekkaState", "call_action", "raise_action"]
