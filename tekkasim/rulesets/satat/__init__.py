"""Satat (Mauritius): rules and kernels (``game``, ``_kernels``), the pure-Python twin (``reference``), the
bots and the personalities ATOUTE and ZORGE (``bots``, ``_policy``, ``_search``), the compiled tournament
block (``_play_block``) and the Renonce analysis."""

from .. import LADDER, LADDER_WARM, Ruleset, named_bots

P = "tekkasim.rulesets.satat"

RULESET = Ruleset(
    name="satat",
    game=f"{P}.game:Satat",
    bots=named_bots(f"{P}.bots", ("GREEDY", *LADDER, "ATOUTE", "ZORGE")),
    loop=f"{P}.bots",
    blocks=f"{P}.blocks",
    search=f"{P}.bots:SatatAdapter",
    engine_messages=f"{P}.engine_messages",
    legacy={"tekkasim.bots.satat": f"{P}.bots"},
    analyses={"blunders": "tekkasim.rulesets.satat.blunders", "deals": f"{P}.stats:satat_deals"},
    warm=LADDER_WARM,
    levels=f"{P}:levels.json",
    notation="A suit letter C D H S chooses Troupe; 'redeal' asks for a new deal. 'collect' ends a full trick;\n"
    "an accusation is the accused opponent's card on the table; a card that does not follow is a Renonce\n"
    "(allowed, but an opponent may accuse you).",
)
