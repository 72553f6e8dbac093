"""What a tournament is: ruleset and options, teams, schedule, unit, boards and seed.

A :class:`Config` is built from flags and an optional TOML file (flags override the file), checked once
(unknown bot or ruleset, bad schedule or unit, an option the ruleset lacks: one-line errors), and stored
in the run's database. Its :meth:`Config.identity` is what must match for a rerun on the same DIR to
resume it; how the work is spread (workers, backend, scheduler, block size) is not part of it, because
the stored results do not depend on it.

Teams: ``"GREEDY"`` is two copies of GREEDY; ``"GREEDY+RANDOM"`` is a mixed partnership (the first bot
sits bottom or right, the second top or left). A bot is anything ``tekkasim.bots.get_bot`` takes: a name,
``NAME:param=value,...``, or ``package.module:Name`` for a user's own bot.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import BotError, TekkasimError, shorten
from ..rulesets import DEFAULT_RULESET

SCHEDULES = ("round-robin", "gauntlet")
UNITS = ("deal", "match")
BACKENDS = ("local", "dask")
# keys a TOML file may hold; the same names as the command's flags (dashes or underscores)
FILE_KEYS = (
    "ruleset",
    "bots",
    "boards",
    "seed",
    "unit",
    "schedule",
    "workers",
    "backend",
    "scheduler",
    "out",
    "options",
    "block",
    "timeout",
    "anchor",
    "quiet",
)


# A run's size is checked before anything is played: beyond a billion pairs (two billion tables, days of
# CPU for the fastest compiled match-up) a size is a typo, and its bookkeeping alone would not fit in memory.
MAX_PAIRS = 10**9

# The type each TOML key must have (checked when the file is read, so that a wrong type is one line
# naming the key, before anything runs; ``quiet = "no"`` must not read as true).
_FILE_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "ruleset": ((str,), "a string"),
    "bots": ((list, str), "a list of bot strings"),
    "boards": ((int,), "an integer"),
    "seed": ((int,), "an integer"),
    "unit": ((str,), "a string"),
    "schedule": ((str,), "a string"),
    "workers": ((int,), "an integer"),
    "backend": ((str,), "a string"),
    "scheduler": ((str,), "a string"),
    "out": ((str,), "a string"),
    "options": ((dict,), "a table of ruleset options"),
    "block": ((int,), "an integer"),
    "timeout": ((int, float), "a number of seconds"),
    "anchor": ((str,), "a string"),
    "quiet": ((bool,), "true or false"),
}


class TournamentError(TekkasimError):
    """A tournament that cannot run as asked, or a run directory that cannot be used (one line)."""


@dataclass(frozen=True)
class Team:
    """Two bots sharing a side: ``bots[0]`` sits bottom (or right), ``bots[1]`` top (or left)."""

    bots: tuple[Any, Any]  # bot specs as given (text, or a Bot class/instance/function from Python)
    labels: tuple[str, str]

    @property
    def name(self) -> str:
        a, b = self.labels
        return a if a == b else f"{a}+{b}"


def split_bots(text: str) -> list[str]:
    """``"GREEDY,TANA:mistake_rate=0.1,memory=2,RANDOM"`` -> three specs: a comma-separated piece with
    ``=`` but no ``:`` continues the previous bot's parameters.

    >>> split_bots("GREEDY, tana:mistake_rate=0.1,memory=2 ,RANDOM+GREEDY")
    ['GREEDY', 'tana:mistake_rate=0.1,memory=2', 'RANDOM+GREEDY']
    """
    out: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if out and "=" in piece and ":" not in piece.split("=", 1)[0]:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


def make_team(spec: Any, ruleset: str | None = None) -> Team:
    """A team from ``"A"``, ``"A+B"``, a pair ``(A, B)``, or a bot object (two copies); its bots are checked
    as ``ruleset``'s (a named bot may have parameters of its own there, e.g. Satat's TANOOR)."""
    if isinstance(spec, Team):
        return spec
    if isinstance(spec, str):
        parts = [p.strip() for p in spec.split("+")]
        if len(parts) > 2 or not all(parts):
            raise TournamentError(f"bad team {spec!r} (a bot, or two bots joined by '+')")
    elif isinstance(spec, tuple | list):
        parts = list(spec)
        if len(parts) != 2:
            raise TournamentError(f"a team is one bot or two, not {len(parts)}")
    else:
        parts = [spec]
    if len(parts) == 1:
        parts = parts * 2
    labels = tuple(_label(p, ruleset) for p in parts)
    return Team(tuple(parts), labels)  # type: ignore[arg-type]


def _label(spec: Any, ruleset: str | None = None) -> str:
    """A bot's label; a user's Bot subclass that sets no ``name`` of its own is labelled by its import path
    (or class name), so that two such classes are two bots, not one "listed twice"."""
    from ..bots import Bot

    bot = checked_bot(spec, ruleset)
    if isinstance(bot, Bot) and bot.name == Bot.name and type(bot).__module__ != Bot.__module__:
        base = spec.split(":")[0] + ":" + spec.split(":")[1] if isinstance(spec, str) else type(bot).__qualname__
        return base + bot.label[len(Bot.name) :]
    return bot.label


def _same_bots(a: Team, b: Team, ruleset: str | None = None) -> bool:
    """Whether two teams seat the same bots: the same classes with the same parameters (``RANDOM`` and
    ``RANDOM:`` are one bot; two user classes that both call themselves X are not)."""

    def key(spec):
        bot = checked_bot(spec, ruleset)
        return type(bot), getattr(bot, "fn", None), sorted(bot.params.items(), key=str)

    return [key(s) for s in a.bots] == [key(s) for s in b.bots]


def checked_bot(spec: Any, ruleset: str | None = None):
    """``get_bot(spec, ruleset)`` with any failure one line naming the bot: a user's class whose constructor
    raises (or whose ``label`` does) must not end in a traceback."""
    from ..bots import get_bot

    try:
        bot = get_bot(spec, ruleset=ruleset)
        bot.label  # noqa: B018 - a user's label property may fail too
        return bot
    except BotError as exc:
        raise TournamentError(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - a user's code, reported in one line
        name = spec if isinstance(spec, str) else getattr(spec, "__name__", type(spec).__name__)
        raise TournamentError(
            f"bot {shorten(str(name))} cannot be made: {type(exc).__name__}: {shorten(str(exc), 120)}"
        ) from None


def upgrade_identity(identity: dict) -> dict:
    """A stored identity with the bot classes of modules that have moved since (a ruleset's ``legacy``
    names) under their modules of now: a run stored before a move is the same configuration after it."""
    from ..rulesets import rulesets

    moved = {old: new for rs in rulesets() for old, new in rs.legacy.items()}

    def fix(obj):
        if isinstance(obj, dict):
            out = {k: fix(v) for k, v in obj.items()}
            cls = out.get("class")
            if isinstance(cls, str) and cls.partition(":")[0] in moved:
                module, _, name = cls.partition(":")
                out["class"] = f"{moved[module]}:{name}"
            return out
        if isinstance(obj, list):
            return [fix(v) for v in obj]
        return obj

    return fix(identity) if moved else identity


def _settings(spec, ruleset: str) -> dict:
    """A seat's bot as the identity keeps it: its class and its parameter values (plain JSON values)."""
    from ..bots import get_bot

    bot = get_bot(spec, ruleset=ruleset)
    plain = (bool, int, float, str, type(None))

    def value(v):  # anything else by its type alone: a repr may hold an address that changes every run
        if isinstance(v, plain):
            return v
        if isinstance(v, list | tuple) and all(isinstance(x, plain) for x in v):
            return list(v)
        return f"<{type(v).__qualname__}>"

    params = {k: value(v) for k, v in sorted(bot.params.items())}
    out = {"class": f"{type(bot).__module__}:{type(bot).__qualname__}", "params": params}
    if isinstance(getattr(bot, "inner", None), Callable):
        # LEVEL:elo=E plays what the shipped table makes of E: after the table is regenerated the same
        # parameters are another bot, whose results must not be resumed into the old run's
        out["plays"] = bot.inner(ruleset).label
    return out


@dataclass
class Config:
    """Everything that defines a tournament's results, plus how to run it."""

    ruleset: str = DEFAULT_RULESET
    teams: list[Team] = field(default_factory=list)
    boards: int = 100
    seed: int = 1
    unit: str = "deal"
    schedule: str = "round-robin"
    options: dict = field(default_factory=dict)
    # how to run (not part of the identity)
    workers: int = 0  # 0 = every core
    backend: str = "local"
    scheduler: str | None = None
    block: int = 0  # boards per block; 0 = chosen from the work size
    timeout: float = 300.0  # seconds without progress before the watchdog stops the run

    @classmethod
    def build(cls, **given: Any) -> Config:
        """A checked configuration from keyword values (``None`` = not given: the default)."""
        from ..rules import get_game, ruleset_names
        from ..rules.base import check_seed

        values = {k: v for k, v in given.items() if v is not None}
        bots = values.pop("bots", None)
        if not bots:
            raise TournamentError("no bots: give --bots A,B,... (two teams at least)")
        if isinstance(bots, str):
            bots = split_bots(bots)
        if not isinstance(bots, list | tuple):
            raise TournamentError(f"bots must be a list of bot names, not {shorten(repr(bots))}")
        try:
            ruleset = get_game(values.get("ruleset", cls.ruleset)).name
        except Exception:  # noqa: BLE001 - an unknown ruleset is reported below, in its own words
            ruleset = None
        teams = [make_team(b, ruleset) for b in bots]
        names = [t.name for t in teams]
        for i, name in enumerate(names):
            if name in names[:i]:
                j = names.index(name)
                if _same_bots(teams[i], teams[j], ruleset):
                    raise TournamentError(f"team {name} is listed twice")
                raise TournamentError(
                    f"two different teams are both named {name} ({shorten(str(teams[j].bots[0]))} and "
                    f"{shorten(str(teams[i].bots[0]))}): give the bots distinct names"
                )
        if len(teams) < 2:
            raise TournamentError(f"a tournament needs two teams at least, not {len(teams)}")
        unknown = sorted(set(values) - set(cls.__dataclass_fields__))
        if unknown:
            raise TournamentError(f"unknown setting {unknown[0]!r}")
        cfg = cls(teams=teams, **values)
        game = get_game(cfg.ruleset, **dict(cfg.options))
        cfg.ruleset = game.name
        cfg.options = {k: v for k, v in game.options.items()}
        for team in teams:
            for bot in team.bots:
                b = checked_bot(bot, game.name)  # a named bot may have its own implementation for this ruleset
                if not b.supports(game.name):
                    raise TournamentError(f"bot {b.label} does not play {game.name}")
        if cfg.unit not in UNITS:
            raise TournamentError(f"bad unit {cfg.unit!r} (expected deal or match)")
        if cfg.unit == "match" and not game.has_matches:
            with_matches = ", ".join(r for r in ruleset_names() if get_game(r).has_matches)
            raise TournamentError(f"{game.name} has no matches: --unit match is for {with_matches}")
        if cfg.schedule not in SCHEDULES:
            raise TournamentError(f"bad schedule {cfg.schedule!r} (expected round-robin or gauntlet)")
        if cfg.backend not in BACKENDS:
            raise TournamentError(f"bad backend {cfg.backend!r} (expected local or dask)")
        if not _is_int(cfg.boards) or cfg.boards < 1:
            raise TournamentError(f"--boards must be a positive integer, not {shorten(repr(cfg.boards))}")
        pairs = cfg.boards * len(cfg.pairings())
        if pairs > MAX_PAIRS:
            raise TournamentError(
                f"--boards {cfg.boards} gives {pairs:,} pairs, more than the {MAX_PAIRS:,} a run may hold"
            )
        try:
            cfg.seed = check_seed(cfg.seed)
        except TekkasimError as exc:
            raise TournamentError(str(exc)) from None
        if cfg.seed + cfg.boards - 1 > 2**63 - 1:
            raise TournamentError(
                f"--seed {cfg.seed} with {cfg.boards} boards: board i uses seed + i, which passes 2**63-1"
            )
        if not _is_int(cfg.workers) or cfg.workers < 0:
            raise TournamentError(f"--workers must be 0 (every core) or more, not {shorten(repr(cfg.workers))}")
        if not _is_int(cfg.block) or cfg.block < 0:
            raise TournamentError(f"--block must be a positive number of boards, not {shorten(repr(cfg.block))}")
        timeout = cfg.timeout
        if (
            isinstance(timeout, bool)
            or not isinstance(timeout, int | float)
            or not math.isfinite(timeout)
            or timeout <= 0
        ):
            raise TournamentError(f"--timeout must be a positive number of seconds, not {shorten(repr(timeout))}")
        cfg.timeout = float(timeout)
        if cfg.scheduler is not None:
            if not isinstance(cfg.scheduler, str) or not cfg.scheduler.strip():
                raise TournamentError(f"--scheduler must be an address like tcp://HOST:8786, not {cfg.scheduler!r}")
            if cfg.backend != "dask":
                raise TournamentError("--scheduler is the address of a Dask scheduler: give --backend dask with it")
        return cfg

    def identity(self) -> dict:
        """What the stored results depend on; a rerun on the same DIR must give the same. Beside the bots'
        labels, each seat's class and every parameter value it plays with in this ruleset: a preset that
        changed between versions (Tekka's TANA did) keeps its label, and its old results must not be
        resumed as if they were the new bot's."""
        return {
            "ruleset": self.ruleset,
            "options": self.options,
            "unit": self.unit,
            "schedule": self.schedule,
            "boards": self.boards,
            "seed": self.seed,
            "teams": [list(t.labels) for t in self.teams],
            "bots": [[_settings(spec, self.ruleset) for spec in t.bots] for t in self.teams],
        }

    def effective(self) -> dict:
        """The whole configuration as TOML-able values (``--dump-config``)."""
        out = {
            "ruleset": self.ruleset,
            "bots": [t.name for t in self.teams],
            "boards": self.boards,
            "seed": self.seed,
            "unit": self.unit,
            "schedule": self.schedule,
            "workers": self.workers,
            "backend": self.backend,
            "block": self.block,
            "timeout": self.timeout,
            "options": self.options,
        }
        if self.scheduler:
            out["scheduler"] = self.scheduler
        return out

    def pairings(self) -> list[tuple[int, int]]:
        """Team index pairs ``(x, y)`` in a fixed order: every pair once (round robin), or the first team
        against each other (gauntlet)."""
        n = len(self.teams)
        if self.schedule == "gauntlet":
            return [(0, j) for j in range(1, n)]
        return [(i, j) for i in range(n) for j in range(i + 1, n)]


def first_difference(stored: Any, given: Any, path: str = "") -> str | None:
    """``"path: stored A, given B"`` for the first place two identity values differ (into tables and
    equal-length lists, so that the message shows what changed rather than two long prefixes), or None."""
    if stored == given:
        return None
    if isinstance(stored, dict) and isinstance(given, dict):
        for key in sorted(set(stored) | set(given), key=str):
            if stored.get(key) != given.get(key):
                return first_difference(stored.get(key), given.get(key), f"{path}.{key}" if path else str(key))
    if isinstance(stored, list) and isinstance(given, list) and len(stored) == len(given):
        for i, (a, b) in enumerate(zip(stored, given, strict=True)):
            if a != b:
                return first_difference(a, b, f"{path}[{i}]")
    return f"{path}: stored {_shown(stored)}, given {_shown(given)}"


def _shown(value: Any) -> str:
    text = json.dumps(value, default=str, sort_keys=True)
    return text if len(text) <= 80 else text[:76] + " ..."


def check_extension(stored: dict, given: dict) -> bool:
    """Whether ``given`` (an identity) is ``stored`` grown: more boards, or more teams in a round robin or
    gauntlet whose stored teams keep their bots and every stored pairing its sides (results are keyed by
    the teams, so new teams may come anywhere in the list). Returns False for the same identity, True for
    a growth; raises TournamentError naming the first field that differs, with both values, otherwise
    (fewer boards or teams included: a run only grows)."""
    if stored == given:
        return False
    first = ["ruleset", "unit", "schedule", "seed", "options"]  # the cause before its consequences
    for key in first + sorted(set(stored) | set(given) - set(first)):
        if key not in ("boards", "teams", "bots") and stored.get(key) != given.get(key):
            raise TournamentError(first_difference(stored.get(key), given.get(key), key))
    if given["boards"] < stored["boards"]:
        raise TournamentError(f"boards: stored {stored['boards']}, given {given['boards']} (a run only grows)")
    old = {_team_key(t): b for t, b in zip(stored["teams"], stored["bots"], strict=True)}
    new = {_team_key(t): b for t, b in zip(given["teams"], given["bots"], strict=True)}
    for name, bots in old.items():
        if name not in new:
            raise TournamentError(
                f"teams: stored {_shown(list(old))}, given {_shown(list(new))} "
                f"(team {name} is missing; a run only grows)"
            )
        if new[name] != bots:
            raise TournamentError(first_difference(bots, new[name], f"bots of {name}"))
    given_pairs = set(identity_pairings(given))
    for x, y in identity_pairings(stored):
        if (x, y) not in given_pairs:
            raise TournamentError(
                f"teams: stored {_shown(list(old))}, given {_shown(list(new))} ({x} vs {y} would change sides"
                " or go: new teams may be added, stored ones not reordered)"
            )
    return True


def _team_key(labels: list) -> str:
    a, b = labels
    return a if a == b else f"{a}+{b}"


def identity_pairings(identity: dict) -> list[tuple[str, str]]:
    """The pairings of an identity as team names ``(x, y)``, in the order of :meth:`Config.pairings`."""
    names = [_team_key(t) for t in identity["teams"]]
    n = len(names)
    if identity["schedule"] == "gauntlet":
        return [(names[0], names[j]) for j in range(1, n)]
    return [(names[i], names[j]) for i in range(n) for j in range(i + 1, n)]


def read_config_file(path: str | Path) -> dict:
    """The keys of a TOML configuration file, normalized (dashes -> underscores); one-line errors."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TournamentError(f"no such configuration file: {p}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TournamentError(f"cannot read {p}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise TournamentError(f"{p} is not valid TOML: {exc}") from None
    out = {}
    for key, value in data.items():
        k = key.replace("-", "_")
        if k not in FILE_KEYS:
            raise TournamentError(f"unknown key {key!r} in {p} (keys: {', '.join(FILE_KEYS)})")
        types, what = _FILE_TYPES[k]
        wrong = not isinstance(value, types) or (isinstance(value, bool) and bool not in types)
        if k == "bots" and isinstance(value, list):
            wrong = not all(isinstance(b, str) for b in value)
        if wrong:
            raise TournamentError(f"{key!r} in {p} must be {what}, not {shorten(repr(value))}")
        out[k] = value
    return out


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def to_toml(values: dict) -> str:
    """A flat TOML text of the effective configuration (strings, numbers, lists, one [options] table)."""
    lines, options = [], values.get("options") or {}
    for key, value in values.items():
        if key != "options":
            lines.append(f"{key} = {_toml_value(value)}")
    if options:
        lines.append("")
        lines.append("[options]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in options.items()]
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value))


def bot_labels(cfg: Config) -> list[str]:
    """The rated bots of ``cfg`` in order of appearance (a report's rows)."""
    return list(dict.fromkeys(label for team in cfg.teams for label in team.labels))


def check_anchor(cfg: Config, anchor: str | None) -> str:
    """The bot a report of ``cfg`` rates 0, checked before anything is played: ``anchor`` (any case) if it is
    one of the bots, by default RANDOM if it plays, else the first bot."""
    bots = bot_labels(cfg)
    if anchor is None:
        return "RANDOM" if "RANDOM" in bots else bots[0]
    if not isinstance(anchor, str):
        raise TournamentError(f"--anchor must be a bot name, not {shorten(repr(anchor))}")
    match = [b for b in bots if b.upper() == anchor.strip().upper()]
    if not match:
        raise TournamentError(f"--anchor {shorten(anchor)!r} is not one of the bots ({shorten(', '.join(bots), 200)})")
    return match[0]


def inseparable_bots(cfg: Config, anchor: str) -> list[str]:
    """Bots whose rating the schedule cannot measure: a pair measures the difference of two team means, so
    in ``A+B`` against ``C+D`` only (a+b) - (c+d) is known, and A's own rating is not. Empty when every
    bot's rating is determined (with ``anchor`` at 0)."""
    import numpy as np

    bots = bot_labels(cfg)
    col = {b: i for i, b in enumerate(bots)}
    design = np.zeros((len(cfg.pairings()), len(bots)))
    for row, (x, y) in enumerate(cfg.pairings()):
        for label in cfg.teams[x].labels:
            design[row, col[label]] += 0.5
        for label in cfg.teams[y].labels:
            design[row, col[label]] -= 0.5
    free = [i for i, b in enumerate(bots) if b != anchor]
    d = design[:, free]
    projection = np.linalg.pinv(d) @ d  # onto the row space: a rating is measured iff its axis lies in it
    return [bots[i] for k, i in enumerate(free) if abs(projection[k, k] - 1.0) > 1e-9]
