"""Shengji, the double-deck promotion match: rules and kernels (``game``, ``_kernels``), the pure-Python
twins (``reference``, ``reference_slip``), the ladder (``bots``, ``_policy``) and the tournament's SHENGJI
codec (``codec``)."""

from .. import LADDER, LADDER_WARM, Ruleset, named_bots

P = "tekkasim.rulesets.shengji"

RULESET = Ruleset(
    name="shengji",
    game=f"{P}.game:Shengji",
    bots=named_bots(f"{P}.bots", ("GREEDY", *LADDER), GREEDY="ShengjiGreedy"),
    loop=f"{P}.bots",
    blocks=f"{P}.blocks",
    search=f"{P}.bots:ShengjiAdapter",
    analyses={"deals": f"{P}.stats:shengji_deals"},
    warm=LADDER_WARM,
    levels=f"{P}:levels.json",
    legacy={"tekkasim.bots.shengji": f"{P}.bots"},
    notation="Jokers SJ and BJ. Declarations and plays as listed (5H 5H).",
)
