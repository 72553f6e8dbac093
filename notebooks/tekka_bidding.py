# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # Tekka bidding risk
#
# How often does each target make, by hand strength, and how does that compare with what was makeable
# double-dummy when play began? Library calls only (`tekkasim.rulesets.tekka.bidding`).
# `TEKKASIM_NOTEBOOK_SMALL=1` gives the test suite's tiny size.

# %%
import os
import tempfile

from tekkasim.rulesets.tekka.bidding import bidding, bidding_plots, ev_table

SMALL = os.environ.get("TEKKASIM_NOTEBOOK_SMALL") == "1"
BOARDS = 3 if SMALL else 300
SEED = 1
OUT = tempfile.mkdtemp(prefix="tekka-bidding-")

res = bidding("TANA", BOARDS, SEED, out=os.path.join(OUT, "run"))
print(f"{len(res['deals'])} deals ({BOARDS} boards x 2 tables), seed {SEED}, stored in {res['directory']}")

# %% [markdown]
# Contracts TANA declared: calls, made, the Wilson 95% interval of the made rate, mean score of the
# declaring side, and the share makeable double-dummy when play began.

# %%
res["targets"]

# %% [markdown]
# Over- and underbidding of each declarer bot (voluntary contracts), with Wilson intervals.

# %%
res["errors"]

# %% [markdown]
# The call with the best double-dummy expected value per bucket of the side's high-card points.

# %%
res["thresholds_side_hcp"]

# %%
ev_table(res["deals"], "side_hcp").pivot(index="side_hcp", columns="target", values="dd_ev")

# %%
paths = bidding_plots(res["deals"], OUT, f"(TANA, {len(res['deals'])} deals)")
paths
