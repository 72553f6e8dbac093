"""tekkasim-spades: partnership Spades as a tekkasim plug-in ruleset (README.md).

Installed, it is found by name through the ``tekkasim.rulesets`` entry point, which names
:data:`RULESET`: ``tekkasim rules`` lists ``spades`` and every generic command plays it. Importing this
package costs nothing: the game and the bot are ``"module:Class"`` strings, imported on first use.
"""

from tekkasim.rulesets import Ruleset

RULESET = Ruleset(
    name="spades",
    game="tekkasim_spades.game:Spades",
    bots={"GREEDY": "tekkasim_spades.greedy:Greedy"},
)

__all__ = ["RULESET"]
