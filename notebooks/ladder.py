# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # The bot ladder: Elo against RANDOM, and tuning a bot to a target Elo
#
# Library calls only (`tekkasim.analysis`). Set `TEKKASIM_NOTEBOOK_SMALL=1` for the tiny sizes the test
# suite runs; the default sizes take a minute or two on one core.

# %%
import os

from tekkasim.analysis.calibrate import calibration
from tekkasim.analysis.tune import tune

SMALL = os.environ.get("TEKKASIM_NOTEBOOK_SMALL") == "1"
PAIRS = 30 if SMALL else 1000
SEED = 1

# %% [markdown]
# ## Calibration (heuristic ladder, Feskot)
# Each bot plays duplicate pairs against RANDOM and the two bots below it; one Bradley–Terry fit,
# anchor RANDOM = 0. `lo`/`hi` bound a 95% interval; `pairs` is the sample behind each rating.

# %%
ladder = calibration("feskot", ["KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA"], pairs=PAIRS, seed=SEED)
ladder

# %% [markdown]
# ## A KADO exactly +100 Elo over RANDOM
# Bisection of `mistake_rate` on common tuning boards, then a measurement on fresh boards. KADO's own
# mistakes are plausible slips (a near-best card), so even `mistake_rate=1` keeps it about +250 above
# RANDOM in Feskot: a bot this weak needs the old uniform draw, a documented option off in every preset.

# %%
res = tune(
    "feskot",
    "KADO:mistake_uniform=true",
    "mistake_rate",
    100,
    "RANDOM",
    seed=SEED,
    pairs=PAIRS * 2,
    final_pairs=PAIRS * 4,
    tolerance=20 if not SMALL else 80,
)
res.to_json()

# %%
import matplotlib.pyplot as plt  # noqa: E402

steps = sorted(res.steps)
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.errorbar(
    [s[0] for s in steps],
    [s[1] for s in steps],
    yerr=[[s[1] - s[2] for s in steps], [s[3] - s[1] for s in steps]],
    fmt="o",
    capsize=3,
)
ax.axhline(100, ls="--", color="grey")
ax.set_xlabel("KADO mistake_rate")
ax.set_ylabel(f"Elo vs RANDOM ({res.tuning_pairs} pairs, 95%)")
ax.set_title(f"found {res.value:g}: {res.elo:+.0f} [{res.lo:+.0f}, {res.hi:+.0f}] on {res.pairs} fresh pairs")
