"""ORACLE: the cheating ceiling. It sees all four hands (``view.true_state``) and plays double-dummy
perfect Feskot and Tekka: the determinized search of ZELZELA (``search.py``) run on the one true world.

* Cards: the card that keeps the best of ``4 * reach(T) + reach(T + 1) + reach(T - 1)`` for its team,
  where T is what the team needs (7 in Feskot; the contract, or ``14 - contract`` for the defenders, in
  Tekka) and reach(x) is the solver's answer to "can our team still end with x tricks?". Every card that
  keeps the deal's objective reachable is kept; among them, the ones that also keep one trick more.
* Feskot Prime: the suit under which its team, leading trick 1 with the true hands (including the eight
  cards it has not been dealt yet), reaches 7 (then 8, then 6).
* Tekka calls: the highest contract its team can make double dummy with the best Prime and itself
  declaring (the expected-score rule of ``search._call`` with probabilities 0 or 1); Prime: the suit
  that makes the contract; raises: requested when makeable, accepted when the declarer cannot make them.

Marked ``cheating``: never on the ladder, listed as cheating everywhere. It is the ceiling ZELZELA is
measured against.
"""

from __future__ import annotations

import numpy as np

from .base import MISTAKE_RATE, Bot, View, maybe_mistake
from .search import DoubleDummy, Search, decide_search


class Oracle(Bot):
    """ORACLE: sees all hands, plays double-dummy perfect cards, chooses Prime and calls by the solver."""

    name = "ORACLE"
    kind = "oracle"
    rank = None
    rulesets = ("feskot", "tekka")
    cheating = True
    description = (
        "CHEATING: sees all four hands; double-dummy perfect cards (reach 7 / the contract), "
        "Prime and calls by the solver; the ceiling, never on the ladder"
    )
    params_spec = (MISTAKE_RATE,)

    def act(self, view: View, rng: np.ndarray):
        slip = maybe_mistake(self, view, rng)
        if slip is not None:
            return slip
        if len(view.legal) == 1:
            return view.legal[0]
        world = view.true_state(self)
        return decide_search(view, Search([world], DoubleDummy(), None), view.seat)


__all__ = ["Oracle"]
