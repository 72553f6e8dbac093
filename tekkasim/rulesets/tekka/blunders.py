"""Blunder profiles of Tekka (``tekkasim.analysis.blunders``'s hooks): Feskot's options (``trick52``), and
the auction priced in points: each legal call is followed by the rest of the lap as the same bots would
call it with the same seeds; the resulting contract is played double dummy with the Prime best for its
declarer; the call's value is the deal's score for the deciding side. D13 counts as made only when the
declarer can win all 13 tricks personally (``bidding.declarer_takes_all``)."""

from __future__ import annotations

from collections.abc import Sequence

from tekkasim.analysis.blunders import TABLE, DealResult, _num
from tekkasim.bots import decide, mix_seed
from tekkasim.bots.base import Bot
from tekkasim.rulesets.tekka.bidding import declarer_takes_all
from tekkasim.rulesets.trick52 import _kernels as T
from tekkasim.rulesets.trick52.blunders import option
from tekkasim.solver.dd import Position, Solver

__all__ = ["Bids", "Contracts", "finish_auction", "option"]


class Contracts:
    """Double-dummy values of one Tekka deal's contracts, from its hands as dealt (cached per Prime and
    declarer: every declarer leads trick 1)."""

    def __init__(self, hands: Sequence[int], solver: Solver):
        self.hands, self.solver = list(hands), solver
        self.tricks: dict[tuple[int, int], int] = {}
        self.alone: dict[tuple[int, int], bool] = {}
        self.inexact = 0

    def side_tricks(self, prime: int, declarer: int) -> int:
        key = (prime, declarer)
        if key not in self.tricks:
            self.tricks[key] = self.solver.solve(Position(self.hands, prime, declarer, (), "tekka"))
        return self.tricks[key]

    def d13(self, declarer: int) -> bool:
        """Whether ``declarer`` can win all 13 tricks personally with some Prime."""
        for prime in range(4):
            if self.side_tricks(prime, declarer) < 13:
                continue
            key = (prime, declarer)
            if key not in self.alone:
                found = declarer_takes_all(self.hands, prime, declarer)
                if found is None:
                    self.inexact += 1
                self.alone[key] = True if found is None else found
            if self.alone[key]:
                return True
        return False

    def score(self, contract: dict) -> int:
        """The declaring side's score (its points, or minus the opponents') with the Prime best for it."""
        d, target = contract["declarer"], contract["target"]
        if target == "D13":
            return 26 if self.d13(d) else -52
        made = max(self.side_tricks(p, d) for p in range(4)) >= target
        return target if made else (-8 if contract["mandatory"] else -2 * target)


def finish_auction(state, action: int, bot: Bot, seed: int) -> dict:
    """The Tekka contract (``state.contract()``) that the lap ends in when the seat to move in ``state``
    calls ``action`` and ``bot`` makes the calls after it, each with the seed a tournament gives that
    decision at table 0 of deal seed ``seed``; ``state`` is left as it is."""
    after = state.clone()
    k = len(state.history())  # play_deal_state's decision number: one per action applied
    after.apply_action(action)
    k += 1
    while after.phase() == "auction":
        after.apply_action(decide(bot, after, after.current_player(), mix_seed(seed, TABLE, k)))
        k += 1
    return after.contract()


class Bids:
    """One deal's auction priced double dummy (see the module notes), and its Double 13 calls."""

    COLUMN = " unmakeable D13 per 200 deals (deals) |"

    def __init__(self, game, bot: Bot, seed: int, solver: Solver):
        self.game, self.bot, self.seed, self.solver = game, bot, seed, solver
        self.contracts: Contracts | None = None

    def values(self, state, seat: int, options: dict[int, int]) -> dict[int, float]:
        """Per call code: the deal's double-dummy score for ``seat``'s side once the lap is finished by
        the same bots with the seeds the tournament gives those decisions."""
        if self.contracts is None:
            self.contracts = Contracts([state.hand(s) for s in range(4)], self.solver)
        out = {}
        for code, action in options.items():
            contract = finish_auction(state, action, self.bot, self.seed)
            v = self.contracts.score(contract)
            out[code] = float(v if contract["declarer"] % 2 == seat % 2 else -v)
        return out

    def finish(self, state, res: DealResult) -> None:
        """Whether some Double 13 call of the deal could not be made by its caller's side."""
        callers = [(state.first + j) % 4 for j, code in enumerate(state.calls()) if code == T.D13]
        if callers:
            res.d13_called = True
            if self.contracts is None:
                dealt = self.game.new_deal(self.seed)
                self.contracts = Contracts([dealt.hand(s) for s in range(4)], self.solver)
            res.d13_unmakeable = not all(self.contracts.d13(s) for s in callers)
        if self.contracts is not None:
            res.inexact = self.contracts.inexact

    @staticmethod
    def summary(results: list[DealResult]) -> dict:
        n = len(results)
        called = sum(r.d13_called for r in results)
        bad = sum(r.d13_unmakeable for r in results)
        return {
            "deals_called": called,
            "unmakeable": bad,
            "unmakeable_per_200": 200.0 * bad / n if n else None,
            "inexact": sum(r.inexact for r in results),
        }

    @staticmethod
    def cell(p: dict) -> str:
        d = p["d13"]
        return f" {_num(d['unmakeable_per_200'], '{:.1f}')} ({d['unmakeable']} of {d['deals_called']} with a D13) |"
