"""What Feskot and Tekka share: the 52-card counter-clockwise trick engine (``game``, ``_kernels``), its
pure-Python twin (``reference``), the heuristic policies (``bots``, ``_policy``, ``view``), the search
adapter (``search``, ``_search``), the tournament's LEGAL codec and compiled block (``codec``,
``_play_block``) and the engine host's deal loop (``engine_loop``). The two rulesets' packages name these
pieces in their :class:`~tekkasim.rulesets.Ruleset` objects; nothing outside them imports this package."""

from .. import LADDER_WARM

P = "tekkasim.rulesets.trick52"

# The ladder and GREEDY of the family (TANA differs between the two rulesets: each names its own).
BOTS = {
    "GREEDY": f"{P}.bots:GreedyBot",
    "KADO": f"{P}.bots:Kado",
    "POCHAQ": f"{P}.bots:Pochaq",
    "PUCHOQ": f"{P}.bots:Puchoq",
    "SADA": f"{P}.bots:Sada",
    "JANGARA": f"{P}.bots:Jangara",
    "TANOOR": f"{P}.search:Tanoor",
    "TIZAB": f"{P}.search:Tizab",
    "ZELZELA": f"{P}.search:Zelzela",
}

# The Ruleset fields the two share.
FAMILY = {
    "loop": f"{P}.bots",
    "blocks": f"{P}.blocks",
    "search": f"{P}.search:Trick52Adapter",
    "engine_loop": f"{P}.engine_loop",
    "engine_messages": f"{P}.engine_messages",
    "warm": LADDER_WARM,
    # where the family's bots lived before the rulesets had packages (runs stored then resume)
    "legacy": {"tekkasim.bots.heuristic": f"{P}.bots", "tekkasim.bots.search": f"{P}.search"},
    "notation": "A card may carry a signal if one is listed: TS:slam (lead this suit, partner), TS:drop (I have\n"
    "no more of it). A suit letter C D H S chooses Prime.",
}
