"""ORACLE: the cheating ceiling, one bot for every ruleset. It sees all four hands (``view.true_state``)
and decides by its ruleset's search adapter on the one true world (``pimc.Worlds.one``):

* Feskot and Tekka (``search.Trick52Adapter.oracle``): cards that keep the best of
  ``4 * reach(T) + reach(T + 1) + reach(T - 1)`` for its team, where T is what the team needs (7 in
  Feskot; the contract, or ``14 - contract`` for the defenders, in Tekka) and reach(x) is the solver's
  answer to "can our team still end with x tricks?"; Feskot Prime: the suit under which its team, leading
  trick 1 with the true hands (including the eight cards it has not been dealt yet), reaches 7 (then 8,
  then 6); Tekka calls: the highest contract its team can make double dummy with the best Prime and
  itself declaring (the expected-score rule of ``search._call`` with probabilities 0 or 1); raises:
  requested when makeable, accepted when the declarer cannot make them.
* Satat (``satat.SatatAdapter.oracle``): double-dummy cards (Satat variant), Troupe by the solver on the
  full deal, accusations of the true Renonces (and of a KOT of the other side by expected points).
* Shengji (``shengji.ShengjiAdapter.oracle``): no Shengji solver exists, so every candidate action is
  scored by a JANGARA-policy rollout of the true deal (perfect-information rollouts).

Marked ``cheating``: never on the ladder, listed as cheating everywhere. It is the ceiling ZELZELA is
measured against.
"""

from __future__ import annotations

import numpy as np

from ..rules.base import Action
from .base import MISTAKE_RATE, Bot, Param, View
from .pimc import Adapter, Worlds, slip

CANDIDATES = Param(
    "candidates", 24, "most actions scored in a follow with many legal plays (multi-card rulesets)", 2, 4096
)


def adapter_class(ruleset: str) -> type[Adapter]:
    """``ruleset``'s search adapter (``Ruleset.search``), or one line saying it has none."""
    from ..rulesets import get_ruleset

    return get_ruleset(ruleset).feature("search", "search adapter (ORACLE)")


def _searchable() -> tuple[str, ...]:
    from ..rulesets import rulesets

    return tuple(rs.name for rs in rulesets() if rs.search)


class Oracle(Bot):
    """ORACLE: sees all hands; its ruleset's search on the one true world (module docstring)."""

    name = "ORACLE"
    kind = "oracle"
    rank = None
    rulesets = None  # every ruleset with a search adapter: ``supports``
    cheating = True
    description = (
        "CHEATING: sees all four hands; double-dummy perfect cards (reach 7 / the contract), "
        "Prime and calls by the solver; the ceiling, never on the ladder"
    )
    params_spec = (MISTAKE_RATE, CANDIDATES)

    @classmethod
    def plays(cls, ruleset: str) -> bool:
        return ruleset in _searchable()

    def supports(self, ruleset: str) -> bool:
        return self.plays(ruleset)

    def act(self, view: View, rng: np.ndarray) -> Action | None:
        ad = adapter_class(view.game.name)(self.params)
        mistake = slip(view, rng, self.params["mistake_rate"], ad.mistake_actions(view))
        if mistake is not None:
            return mistake
        return ad.oracle(view, Worlds.one(view.true_state(self)), rng)


__all__ = ["Oracle"]
