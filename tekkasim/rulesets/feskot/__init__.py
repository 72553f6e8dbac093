"""Feskot, the Afghan partnership game of seven tricks: its game (``game``) on the 52-card trick family's
engine, bots, search and codecs (``tekkasim.rulesets.trick52``)."""

from .. import Ruleset
from ..trick52 import BOTS, FAMILY, P

RULESET = Ruleset(
    name="feskot",
    game="tekkasim.rulesets.feskot.game:Feskot",
    bots={**BOTS, "TANA": f"{P}.bots:Tana"},
    analyses={"blunders": "tekkasim.rulesets.trick52.blunders", "deals": "tekkasim.rulesets.feskot.stats:feskot_deals"},
    levels="tekkasim.rulesets.feskot:levels.json",
    **FAMILY,
)
