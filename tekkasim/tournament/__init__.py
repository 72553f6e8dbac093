"""Duplicate tournaments of bots: configuration, parallel deterministic play, SQLite storage, resume,
exports and reports (runs.md).

>>> from tekkasim.tournament import Config
>>> cfg = Config.build(ruleset="feskot", bots="RANDOM,RANDOM:", boards=4, seed=7)
Traceback (most recent call last):
...
tekkasim.tournament.config.TournamentError: team RANDOM is listed twice

``run_tournament(Config.build(...), out="runs/x")`` plays or resumes a run; :func:`load_run` reads its
deals into pandas; :func:`export_records` writes their records; ``report.build_report`` rates them.
"""

from .config import Config, Team, TournamentError, make_team, read_config_file, split_bots, to_toml
from .play import Job, deal_seed, play_block, replay_table
from .results import export_records, export_table, iter_records, load_run
from .runner import RunSummary, default_out, run_tournament
from .storage import Store

__all__ = [
    "Config",
    "Job",
    "RunSummary",
    "Store",
    "Team",
    "TournamentError",
    "deal_seed",
    "default_out",
    "export_records",
    "export_table",
    "iter_records",
    "load_run",
    "make_team",
    "play_block",
    "read_config_file",
    "replay_table",
    "run_tournament",
    "split_bots",
    "to_toml",
]
