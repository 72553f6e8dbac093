"""Shengji, the double-deck promotion match: rules and kernels (``game``, ``_kernels``), the pure-Python
twins (``reference``, ``reference_slip``), the ladder (``bots``, ``_policy``) and the tournament's SHENGJI
codec (``codec``)."""

from .. import LADDER_WARM, Ruleset

P = "tekkasim.rulesets.shengji"

RULESET = Ruleset(
    name="shengji",
    game=f"{P}.game:Shengji",
    bots={
        name: f"{P}.bots:{cls}"
        for name, cls in (
            ("GREEDY", "ShengjiGreedy"),
            ("KADO", "Kado"),
            ("POCHAQ", "Pochaq"),
            ("PUCHOQ", "Puchoq"),
            ("SADA", "Sada"),
            ("TANA", "Tana"),
            ("JANGARA", "Jangara"),
            ("TANOOR", "Tanoor"),
            ("TIZAB", "Tizab"),
            ("ZELZELA", "Zelzela"),
        )
    },
    loop=f"{P}.bots",
    blocks=f"{P}.blocks",
    search=f"{P}.bots:ShengjiAdapter",
    analyses={"deals": f"{P}.stats:shengji_deals"},
    warm=LADDER_WARM,
    levels=f"{P}:levels.json",
    legacy={"tekkasim.bots.shengji": f"{P}.bots"},
    notation="Jokers SJ and BJ. Declarations and plays as listed (5H 5H).",
)
