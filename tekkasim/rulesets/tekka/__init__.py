"""Tekka: Feskot's trick play under a one-lap auction (``game``), the bidding analysis (``bidding``), and
the 52-card trick family's bots, search and codecs (``tekkasim.rulesets.trick52``)."""

from .. import Ruleset
from ..trick52 import BOTS, FAMILY, P

RULESET = Ruleset(
    name="tekka",
    game="tekkasim.rulesets.tekka.game:Tekka",
    bots={**BOTS, "TANA": f"{P}.bots:TanaTekka"},  # fewer mistakes in the auction
    analyses={"blunders": "tekkasim.rulesets.tekka.blunders", "bidding": "tekkasim.rulesets.tekka.bidding"},
    levels="tekkasim.rulesets.tekka:levels.json",
    **{
        **FAMILY,
        "notation": FAMILY["notation"] + "\ncalls: pass, 8 .. 13, D13; with raises also 'raise 9', accept, reject.",
    },
)
