"""Analyses on the engine, the solver, the bots and the tournament runner: library functions returning
pandas DataFrames (issue 14), used by the thin CLI commands ``bidding``, ``tune`` and ``calibrate``, by
``experiments/`` and by ``notebooks/``.

Modules (each imported only when used, so ``tekkasim.analysis`` stays light):

- ``_records``: ``records_frame``, ``contract_table``, ``wilson_interval`` (re-exported here).
- ``duplicate``: duplicate pairs of two bots (compiled loop or the tournament's pair machinery), Elo of a
  mean pair score with its interval.
- ``tune``: one numeric bot parameter moved until the bot sits at a target Elo from another.
- ``bidding``: Tekka bidding risk by target and by the declarer side's hand features.
- ``calibrate``: the ladder's Elo against RANDOM per ruleset.
- ``games``: Feskot, Satat and Shengji statistics from a run's per-deal results and records.
- ``bridge``: random 52-card deals, double-dummy notrump tricks by combined high-card points.
"""

from ._records import contract_table, records_frame, wilson_interval

__all__ = ["contract_table", "records_frame", "wilson_interval"]
