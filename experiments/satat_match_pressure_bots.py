"""JANGARA without match pressure as a user bot, for the duplicate-match comparison of issue 25's Satat match
pressure (docs/seed-words.md). The tournament's check that two teams differ reads a built-in name with
parameters as the Feskot bot, so ``JANGARA:match_pressure=false`` cannot be seated in a Satat tournament;
this class can:

    PYTHONPATH=experiments tekkasim tournament -r satat -b JANGARA,satat_match_pressure_bots:JangaraNoMatch \
        --unit match --schedule gauntlet -n 300 -s 5100000 -w 1
"""

from tekkasim.bots.satat import Jangara


class JangaraNoMatch(Jangara):
    """JANGARA with ``match_pressure=false``."""

    name = "JANGARA-NM"
    rank = None
    preset = {**Jangara.preset, "match_pressure": False}
