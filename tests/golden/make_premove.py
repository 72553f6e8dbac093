"""Regenerate the pre-move fixtures: ``python tests/golden/make_premove.py [--only decisions|cli]``.

Made before every ruleset's code moved into its own package (``tekkasim/rulesets/<name>/``), so that
``tests/test_premove.py`` can show the move changed no result. Everything here goes through interfaces
that outlive the move, never a private module:

* ``tekkasim.rules.get_game`` and the State API, to drive deals;
* ``tekkasim.bots.choose`` / ``describe`` / ``bot_names``, for every bot's decisions;
* ``python -m tekkasim tournament|export|report`` (spec/runs.md), for tournaments and resumed runs.

It writes ``premove.json`` and the run directories under ``premove-runs/`` (config.json and run.sqlite
only, as the CLI left them: no lock, WAL or SHM file). The fixtures are not meant to be regenerated after
the move: a change in them is exactly what they exist to catch. Regenerate only on purpose, in a commit
of its own that says why (as for make_golden.py).

Decision hashes. Per game (a ruleset with options), a few deals chained as a match are driven by a
deterministic random driver of the State API alone (``random.Random``, "pass" preferred where it is legal,
so that Tekka's auctions end in playable contracts), so the positions depend on the rules only (pinned
by make_golden.py) and not on any bot. At chosen decision points each bot is asked
``choose(bot, state, seed)``; its actions' strings (``state.action_to_string``) are stored with their
sha256. Cheap bots answer at every decision; search bots (and LEVEL at a search level) at ``SEARCH_POINTS``
points that include the first non-trivial decision of every phase. ``choose`` asks the seat to move only:
a Satat accusation out of turn is never asked here (the mover's own accusations are); the tournaments
cover out-of-turn play. ``describe()`` (rank, kind, rulesets, parameter defaults) and ``bot_names()`` are
pinned too.

Tournaments. Tiny round robins through the CLI (each command a process of its own here; the test may run
several commands in one process, see ``cli_batch``): the exported records, canonical JSON lines sorted,
with their sha256 and a short digest per record, and ``report --json``'s bots and crosstable with floats
rounded. Resumes. A run directory made with ``RESUMES[..]["first"]`` boards is stored; the test copies it,
reruns the command with the tournament's boards and demands the tournament's records and report.

Run as a script, it pins the ``tekkasim`` of this checkout (not an editable install's elsewhere), and only
from a clean package (no uncommitted change under ``tekkasim/``); the subprocesses import the same one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).parent
FIXTURE = HERE / "premove.json"
RUNS = HERE / "premove-runs"
RUN_FILES = ("config.json", "run.sqlite")  # what a run directory keeps (no .lock, -wal, -shm)

# --- decisions ---------------------------------------------------------------------------------------------

# game key -> ruleset, options, seed of the first deal (deal i uses seed + i), deals chained as a match
GAMES: dict[str, dict[str, Any]] = {
    "feskot": {"ruleset": "feskot", "options": {}, "seed": 71_000, "deals": 2},
    "tekka": {"ruleset": "tekka", "options": {}, "seed": 72_000, "deals": 3},
    "tekka-raises": {"ruleset": "tekka", "options": {"raises": True}, "seed": 73_000, "deals": 2},
    "satat": {"ruleset": "satat", "options": {}, "seed": 74_000, "deals": 2},
    "shengji": {"ruleset": "shengji", "options": {}, "seed": 75_000, "deals": 2},
}
PASS_SHARE = 0.6  # the driver's share of "pass" where it is legal
SEARCH_POINTS = 10  # decisions asked of a search bot per game
SEARCH_BOTS = {"TANOOR", "TIZAB", "ZELZELA", "ORACLE"}

# LEVEL:elo=E per ruleset: one inside the heuristic steps (KADO..JANGARA), one inside JANGARA..TANOOR (search).
# Ranges (tekkasim/data/levels.json, bots/level.py): feskot 142..864, tekka 1126..1465, satat 1143..1452,
# shengji 218..982.
LEVEL_ELO = {
    "feskot": (300, 740),
    "tekka": (1250, 1384),
    "satat": (1250, 1355),
    "shengji": (500, 850),
}
# bots with parameters, beyond each bot's presets: (spec, choose(**params), rulesets or None for all)
PARAM_BOTS: list[tuple[str, dict[str, Any], tuple[str, ...] | None]] = [
    ("TANA:mistake_rate=0.3", {}, None),
    ("GREEDY", {"mistake_rate": 0.25}, None),
    ("KADO:memory=full,mistake_rate=0.1", {}, ("feskot", "tekka")),
    ("SADA:mistake_rate=0.5", {}, ("satat", "shengji")),
    ("ZORGE:difficulty=hard", {}, ("satat",)),
    ("ATOUTE", {"difficulty": "hard"}, ("satat",)),
    ("TANOOR:worlds=4", {}, None),
]


class Position(NamedTuple):
    deal: int  # index of the deal in the game's match
    k: int  # actions already applied to the deal
    phase: str
    legal: int  # number of legal actions
    state: Any  # a clone of the state before decision k


def drive_action(state, rng: random.Random):
    legal = state.legal_actions()
    texts = [state.action_to_string(a) for a in legal]
    if "pass" in texts and len(legal) > 1 and rng.random() < PASS_SHARE:
        return legal[texts.index("pass")]
    return legal[rng.randrange(len(legal))]


@cache
def _trajectory(ruleset: str, options_json: str, seed: int, deals: int) -> tuple[tuple[Position, ...], str]:
    from tekkasim.rules import get_game

    game = get_game(ruleset, **json.loads(options_json))
    positions, lines, context = [], [], {}
    for d in range(deals):
        state = game.new_deal(seed + d, **context)
        rng = random.Random(seed + d)
        k = 0
        while not state.is_terminal():
            positions.append(Position(d, k, state.phase(), len(state.legal_actions()), state.clone()))
            action = drive_action(state, rng)
            lines.append(f"{d} {k} {state.phase()} {state.action_to_string(action)}")
            state.apply_action(action)
            k += 1
        lines.append(f"{d} returns {list(state.returns())}")
        context = state.next_deal_context() if state.match_winner() is None else {}
    return tuple(positions), sha256_lines(lines)


def trajectory(game: dict) -> tuple[tuple[Position, ...], str]:
    """The driven positions of ``game`` (a GAMES entry or its copy in the fixture) and their digest."""
    return _trajectory(game["ruleset"], json.dumps(game["options"], sort_keys=True), game["seed"], game["deals"])


def decision_seed(game: dict, deal: int, k: int) -> int:
    return game["seed"] * 1000 + deal * 500 + k


def sha256_lines(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def search_positions(positions: tuple[Position, ...], n: int) -> list[list[int]]:
    """``n`` non-trivial decisions: the first of every phase in every deal (phases first, in deal order),
    then the commonest phase's spread evenly."""
    nontrivial = [p for p in positions if p.legal > 1]
    chosen: list[Position] = []
    for p in nontrivial:
        if not any(c.phase == p.phase for c in chosen):
            chosen.append(p)
    for p in nontrivial:
        if not any(c.phase == p.phase and c.deal == p.deal for c in chosen):
            chosen.append(p)
    chosen = chosen[:n]
    common = max({p.phase for p in nontrivial}, key=lambda ph: sum(p.phase == ph for p in nontrivial))
    rest = [p for p in nontrivial if p.phase == common and p not in chosen]
    need = n - len(chosen)
    if need > 0 and rest:
        step = len(rest) / need
        chosen += [rest[int(i * step + step / 2)] for i in range(min(need, len(rest)))]
    return sorted([p.deal, p.k] for p in chosen)


def ask(game: dict, bot: str, params: dict, points: str | list) -> list[str]:
    """``bot``'s actions (as strings) at ``points`` ("all" or [[deal, k], ...]) of ``game``'s trajectory."""
    from tekkasim.bots import choose

    positions, _ = trajectory(game)
    if points != "all":
        wanted = {tuple(p) for p in points}
        positions = [p for p in positions if (p.deal, p.k) in wanted]
        assert len(positions) == len(wanted), "a stored decision point is not on the trajectory"
    out = []
    for p in positions:
        state = p.state.clone()
        action = choose(bot, state, decision_seed(game, p.deal, p.k), **params)
        out.append(state.action_to_string(action))
    return out


def bot_cases(describe: list[dict]) -> list[dict]:
    """Every (game, bot) to pin: every bot describe() lists in every ruleset it plays, LEVEL at two
    ratings, and the bots with parameters."""
    cases = []
    for key, game in GAMES.items():
        r = game["ruleset"]
        specs: list[tuple[str, dict]] = []
        for info in describe:
            if r not in info["rulesets"]:
                continue
            if info["name"] == "LEVEL":
                specs += [(f"LEVEL:elo={e}", {}) for e in LEVEL_ELO[r]]
            else:
                specs.append((info["name"], {}))
        specs += [(s, p) for s, p, only in PARAM_BOTS if only is None or r in only]
        for spec, params in specs:
            name = spec.split(":")[0]
            search = name in SEARCH_BOTS or (name == "LEVEL" and spec == f"LEVEL:elo={LEVEL_ELO[r][1]}")
            case_id = f"{key}-{spec}" + "".join(f"+{k}={v}" for k, v in params.items())
            cases.append({"id": case_id, "game": key, "bot": spec, "params": params, "search": search})
    return cases


def describe_pins() -> list[dict]:
    from tekkasim.bots import describe

    return [
        {
            "name": d["name"],
            "rank": d["rank"],
            "kind": d["kind"],
            "rulesets": sorted(d["rulesets"]),
            "params": d["params"],
        }
        for d in describe()
    ]


def make_decisions() -> dict:
    from tekkasim.bots import bot_names, describe

    games = {}
    for key, game in GAMES.items():
        positions, digest = trajectory(game)
        games[key] = {**game, "trajectory_sha256": digest, "decisions": len(positions)}
    cases = []
    for case in bot_cases(describe()):
        game = GAMES[case["game"]]
        points = search_positions(trajectory(game)[0], SEARCH_POINTS) if case.pop("search") else "all"
        t = time.perf_counter()
        actions = ask(game, case["bot"], case["params"], points)
        seconds = time.perf_counter() - t
        cases.append({**case, "points": points, "actions": actions, "sha256": sha256_lines(actions)})
        print(f"  {case['id']}: {len(actions)} decisions in {seconds:.2f} s", flush=True)
    return {"games": games, "bots": cases, "bot_names": bot_names(), "describe": describe_pins()}


# --- the CLI: tournaments and resumes ---------------------------------------------------------------------

# name -> the tournament command's arguments (without --out, --workers, --quiet)
TOURNAMENTS: dict[str, list[str]] = {
    "feskot": ["--ruleset", "feskot", "--bots", "RANDOM,GREEDY,KADO", "--boards", "4", "--seed", "8101"],
    "tekka-search": [
        "--ruleset", "tekka", "--bots", "RANDOM,GREEDY,TANOOR:worlds=2,SADA+JANGARA", "--boards", "2", "--seed", "8201",
    ],
    "satat": ["--ruleset", "satat", "--bots", "RANDOM,ZORGE,KADO,TANA", "--boards", "2", "--seed", "8301"],
    "shengji": ["--ruleset", "shengji", "--bots", "RANDOM,GREEDY,SADA", "--boards", "4", "--seed", "8401"],
    "tekka-match": [
        "--ruleset", "tekka", "--bots", "RANDOM,GREEDY", "--boards", "1", "--seed", "8501", "--unit", "match",
        "-o", "raises=true",
    ],
}  # fmt: skip
# name -> the tournament it ends as, and the boards its stored run directory was made with
RESUMES: dict[str, dict[str, Any]] = {
    "feskot": {"tournament": "feskot", "first": 2},
    "shengji": {"tournament": "shengji", "first": 2},
}
COMMON = ["--workers", "1", "--quiet"]


def python() -> str:
    return sys.executable


def package_root() -> Path:
    """The directory holding the ``tekkasim`` this process imported: the subprocesses import the same one
    (a worktree's package, not the editable install's)."""
    import tekkasim

    return Path(tekkasim.__file__).resolve().parent.parent


def cli_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(package_root()), env.get("PYTHONPATH")]))
    return env


def with_boards(args: list[str], boards: int) -> list[str]:
    i = args.index("--boards")
    return [*args[: i + 1], str(boards), *args[i + 2 :]]


# Runs ``python -m tekkasim`` once per command, in one process: imports (numba, scipy: ~2 s a process)
# are paid once. Each command gets its own argv and stdout, exactly as ``python -m tekkasim ARGS`` would.
_BATCH = r"""
import contextlib, io, json, runpy, sys
import tekkasim
out = [tekkasim.__file__]
for argv in json.loads(sys.argv[1]):
    sys.argv = ["tekkasim", *argv]
    buf, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
        try:
            runpy.run_module("tekkasim", run_name="__main__", alter_sys=True)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out.append({"code": code, "stdout": buf.getvalue(), "stderr": err.getvalue()})
print(json.dumps(out))
"""


def cli_batch(commands: list[list[str]], cwd: Path | None = None, separate: bool | None = None) -> list[str]:
    """Run ``python -m tekkasim`` with each argument list, in order; return their stdouts. A command that
    fails raises with its stderr. ``separate`` (default: env TEKKASIM_PREMOVE_SEPARATE=1) runs each in a
    process of its own."""
    if separate is None:
        separate = os.environ.get("TEKKASIM_PREMOVE_SEPARATE") == "1"
    env, cwd = cli_env(), cwd or package_root()
    if separate:
        outs = []
        for argv in commands:
            done = subprocess.run(
                [python(), "-m", "tekkasim", *argv], cwd=cwd, env=env, capture_output=True, text=True, check=False
            )
            if done.returncode:
                raise RuntimeError(f"tekkasim {' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
            outs.append(done.stdout)
        return outs
    done = subprocess.run(
        [python(), "-c", _BATCH, json.dumps(commands)], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise RuntimeError(f"tekkasim batch failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    imported, *results = json.loads(done.stdout.strip().splitlines()[-1])
    import tekkasim

    assert Path(imported).resolve() == Path(tekkasim.__file__).resolve(), f"the batch imported {imported}"
    for argv, res in zip(commands, results, strict=True):
        if res["code"]:
            raise RuntimeError(f"tekkasim {' '.join(argv)} failed ({res['code']}): {res['stderr'].strip()}")
    return [res["stdout"] for res in results]


def canonical_records(path: Path) -> list[str]:
    """An export's records as canonical JSON lines (keys sorted), sorted."""
    lines = [
        json.dumps(json.loads(line), sort_keys=True, separators=(",", ":")) for line in path.read_text().splitlines()
    ]
    return sorted(lines)


def record_key(line: str) -> str:
    r = json.loads(line)
    b = r["board"]
    return f"{b['x']}|{b['y']}|board {b['index']}|table {b['table']}" + (
        f"|deal {r['deal_no']}" if "deal_no" in r else ""
    )


def _round(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {k: _round(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_round(v) for v in value]
    return value


def report_pin(stdout: str) -> dict:
    """``report --json``'s runs.md fields: ruleset, unit, boards, pairs, anchor, bots and crosstable (floats
    rounded to 6 decimals)."""
    rep = json.loads(stdout)
    bot_keys = ("name", "elo", "lo", "hi", "pairs")
    row_keys = ("a", "b", "pairs", "wins", "draws", "losses", "margin", "margin_lo", "margin_hi")
    return _round(
        {
            **{k: rep[k] for k in ("ruleset", "unit", "boards", "pairs", "anchor")},
            "bots": [{k: b[k] for k in bot_keys} for b in rep["bots"]],
            "crosstable": [{k: row[k] for k in row_keys} for row in rep["crosstable"]],
        }
    )


def digest_json(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def run_pin(
    run_dir: Path,
    work: Path,
    separate: bool | None = None,
    tournament: list[str] | None = None,
    export_before: Path | None = None,
) -> dict:
    """(Export ``run_dir`` to ``export_before``, play ``tournament`` into it, then) export and report it: the
    records' digests and the report. One process for all of it unless ``separate``."""
    out = work / f"{run_dir.name}.jsonl"
    commands = [["export", str(run_dir), "--out", str(export_before)]] if export_before else []
    commands += [["tournament", *tournament, *COMMON, "--out", str(run_dir)]] if tournament else []
    commands += [["export", str(run_dir), "--out", str(out)], ["report", str(run_dir), "--json"]]
    outs = cli_batch(commands, separate=separate)
    lines = canonical_records(out)
    report = report_pin(outs[-1])
    return {
        "records": len(lines),
        "records_sha256": sha256_lines(lines),
        "record_digests": {record_key(line): hashlib.sha256(line.encode()).hexdigest()[:16] for line in lines},
        "report_sha256": digest_json(report),
        "report": report,
    }


def make_cli() -> dict:
    tournaments = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, args in TOURNAMENTS.items():
            t = time.perf_counter()
            tournaments[name] = {"args": args, **run_pin(work / name, work, separate=True, tournament=args)}
            print(f"  tournament {name}: {tournaments[name]['records']} records in {time.perf_counter() - t:.1f} s")
        resumes = {}
        for name, spec in RESUMES.items():
            args = TOURNAMENTS[spec["tournament"]]
            first = with_boards(args, spec["first"])
            run_dir = work / f"resume-{name}"
            cli_batch([["tournament", *first, *COMMON, "--out", str(run_dir)]], separate=True)
            dest = RUNS / name
            shutil.rmtree(dest, ignore_errors=True)
            dest.mkdir(parents=True)
            for f in RUN_FILES:
                shutil.copy2(run_dir / f, dest / f)
            leftovers = sorted(p.name for p in run_dir.iterdir() if p.name not in RUN_FILES)
            assert all(p in (".lock", "run.sqlite-wal", "run.sqlite-shm") for p in leftovers), leftovers
            wal = run_dir / "run.sqlite-wal"
            assert not wal.exists() or wal.stat().st_size == 0, "the WAL was not checkpointed"
            # the stored directory alone (no WAL) holds the first boards: export it from a copy
            check = work / f"check-{name}"
            shutil.copytree(dest, check)
            first_pin = run_pin(check, work, separate=True)
            resumes[name] = {
                **spec,
                "dir": f"premove-runs/{name}",
                "first_args": first,
                "first_records_sha256": first_pin["records_sha256"],
                "first_records": first_pin["records"],
            }
            print(f"  resume {name}: stored {first_pin['records']} records")
    return {"tournaments": tournaments, "resumes": resumes}


def dumps(value: Any, indent: str = "") -> str:
    """JSON with sorted keys, one key per line, but lists of scalars (and of short lists) on one line."""
    flat = json.dumps(value, sort_keys=True)
    if (
        not isinstance(value, dict | list)
        or len(flat) < 100
        or (isinstance(value, list) and all(not isinstance(v, dict) for v in value))
    ):
        return flat
    inner = indent + " "
    if isinstance(value, list):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in value) + "\n" + indent + "]"
    items = [f"{inner}{json.dumps(k)}: {dumps(value[k], inner)}" for k in sorted(value)]
    return "{\n" + ",\n".join(items) + "\n" + indent + "}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("decisions", "cli"))
    only = parser.parse_args().only
    # Run as a script, sys.path[0] is this directory: put the checkout's root first, so that its tekkasim is
    # the one pinned (an editable install elsewhere would otherwise be imported, and its CLI run).
    root = HERE.parent.parent.resolve()
    sys.path.insert(0, str(root))
    import tekkasim

    if package_root() != root:
        raise SystemExit(f"tekkasim imported from {tekkasim.__file__}, not from this checkout ({root})")
    print(f"tekkasim from {tekkasim.__file__}")
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "tekkasim"], cwd=root, capture_output=True, text=True, check=False
    ).stdout.strip()
    if dirty:
        raise SystemExit(f"the package has uncommitted changes; pin a commit:\n{dirty}")
    fixture = json.loads(FIXTURE.read_text()) if FIXTURE.exists() else {}

    fixture["made_with"] = {
        "tekkasim": getattr(tekkasim, "__version__", "?"),
        "commit": subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True, text=True, check=False
        ).stdout.strip(),
    }
    if only in (None, "decisions"):
        print("decisions:")
        fixture["decisions"] = make_decisions()
    if only in (None, "cli"):
        print("cli:")
        fixture.update(make_cli())
    FIXTURE.write_text(dumps(fixture) + "\n")
    print(f"wrote {FIXTURE} ({FIXTURE.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
