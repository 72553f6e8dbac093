# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # Satat: round kinds, redeals and Renonce bluffs
#
# ZORGE bluffs (a deliberate Renonce to stop the other side's seventh trick) once per match; ATOUTE
# detects at Normal memory by default and at Hard memory with `difficulty=hard`. Matches are played as
# a duplicate tournament; the statistics come from the stored records (`tekkasim.analysis.games`).
# `TEKKASIM_NOTEBOOK_SMALL=1` gives the test suite's tiny size (single rounds: bluffs are then rare).

# %%
import os
import tempfile

from tekkasim.rulesets.satat.stats import accusation_accuracy, redeal_value, renonce_outcomes, satat_deals, satat_kinds
from tekkasim.tournament import Config, iter_records, run_tournament

SMALL = os.environ.get("TEKKASIM_NOTEBOOK_SMALL") == "1"
BOARDS = 2 if SMALL else 60
UNIT = "deal" if SMALL else "match"
OUT = tempfile.mkdtemp(prefix="satat-renonce-")
cfg = Config.build(
    ruleset="satat", bots=["ZORGE", "ATOUTE", "ATOUTE:difficulty=hard"], boards=BOARDS, seed=1, unit=UNIT, workers=1
)
run_tournament(cfg, OUT, quiet=True)
deals = satat_deals(iter_records(OUT))
print(f"{len(deals)} rounds from {BOARDS} boards ({UNIT}s), three pairings, two tables each")

# %% [markdown]
# Rates of 7, KOT, KOT 52 and rounds ended by an accusation (Wilson 95%).

# %%
satat_kinds(deals)

# %% [markdown]
# The value of a redeal: the caller's side's mean net points by the number of redeals before the round.

# %%
redeal_value(deals)

# %% [markdown]
# Does a bluff pay? Rounds where one side Renonced: how often it was caught and its mean net points,
# by the bluffing and the detecting bot.

# %%
renonce_outcomes(deals)

# %%
accusation_accuracy(deals)
