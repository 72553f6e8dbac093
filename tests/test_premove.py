"""The ruleset packages' move changes no result: bots' decisions, tournaments and resumed runs give what
they gave before it (fixtures made by ``tests/golden/make_premove.py`` on the pre-move tree).

Only public interfaces are used: ``rules.get_game`` and the State API, ``bots.choose``/``describe``/
``bot_names``, and ``python -m tekkasim tournament|export|report`` in subprocesses. A failure names the
game and bot (or the tournament), and the first decision or record that differs. The CLI commands of a
test run in one subprocess (``make_premove.cli_batch``: imports paid once); ``TEKKASIM_PREMOVE_SEPARATE=1``
runs each ``python -m tekkasim`` command in a process of its own, as the fixtures were made.

Speed, warm numba cache: about 40 s of CPU for the whole file (the CLI tests, marked slow, about 30 s;
every bot's decisions about 9 s).
"""

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from tekkasim.bots import bot_names

_spec = importlib.util.spec_from_file_location("make_premove", Path(__file__).parent / "golden" / "make_premove.py")
premove = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(premove)

FIXTURE = json.loads(premove.FIXTURE.read_text())
DECISIONS = FIXTURE["decisions"]
GAMES = DECISIONS["games"]


# --- bots and their decisions ------------------------------------------------------------------------------


def test_bot_names_and_describe():
    """Every bot of the pre-move tree is still listed, the ladder in the same order, with the same rank,
    kind, rulesets and parameter defaults (``tekkasim bots --json``)."""
    names = bot_names()
    ladder = [d["name"] for d in DECISIONS["describe"] if d["rank"] is not None]
    assert names[: len(ladder)] == ladder
    assert set(DECISIONS["bot_names"]) <= set(names), "bots missing"
    now = {d["name"]: d for d in premove.describe_pins()}
    for before in DECISIONS["describe"]:
        assert before["name"] in now, f"{before['name']} is no longer described"
        assert now[before["name"]] == before, f"describe() of {before['name']} changed"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_driven_positions(key):
    """The positions the bots are asked about are the same (rules only: a failure here is not a bot's)."""
    game = GAMES[key]
    positions, digest = premove.trajectory(game)
    assert len(positions) == game["decisions"], f"{key}: the driven deals have a different length"
    assert digest == game["trajectory_sha256"], f"{key}: the driven deals differ (rules, not bots)"


def _case_param(case):
    marks = [pytest.mark.slow] if case["points"] != "all" else []  # search bots: seconds, not milliseconds
    return pytest.param(case, id=case["id"], marks=marks)


@pytest.mark.parametrize("case", [_case_param(c) for c in DECISIONS["bots"]])
def test_bot_decisions(case):
    """``choose(bot, state, seed)`` at the stored decision points gives the stored actions."""
    game = GAMES[case["game"]]
    assert premove.sha256_lines(case["actions"]) == case["sha256"], "the fixture's actions and hash disagree"
    if premove.trajectory(game)[1] != game["trajectory_sha256"]:
        pytest.fail(f"{case['id']}: the driven positions changed (rules, not bots): see test_driven_positions")
    got = premove.ask(game, case["bot"], case["params"], case["points"])
    if got != case["actions"]:
        positions, _ = premove.trajectory(game)
        points = [[p.deal, p.k] for p in positions] if case["points"] == "all" else case["points"]
        by_point = {(p.deal, p.k): p for p in positions}
        diffs = [(pt, a, b) for pt, a, b in zip(points, case["actions"], got, strict=True) if a != b]
        (deal, k), was, now = diffs[0]
        phase = by_point[deal, k].phase
        pytest.fail(
            f"{case['id']} ({game['ruleset']}): {len(diffs)} of {len(got)} decisions differ; first at deal {deal} "
            f"(seed {game['seed'] + deal}), decision {k} ({phase}): was {was!r}, now {now!r}; "
            f"sha256 {premove.sha256_lines(got)} != {case['sha256']}"
        )


# --- tournaments and resumes through the CLI -----------------------------------------------------------------

_FRESH: dict[str, dict] = {}  # tournament name -> its pin, played once per session (the resumes compare with it)


def _fresh(name: str, tmp: Path) -> dict:
    if name not in _FRESH:
        _FRESH[name] = premove.run_pin(tmp / f"fresh-{name}", tmp, tournament=FIXTURE["tournaments"][name]["args"])
    return _FRESH[name]


def _compare(label: str, got: dict, expected: dict) -> None:
    if got["records_sha256"] != expected["records_sha256"]:
        a, b = expected["record_digests"], got["record_digests"]
        differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
        pytest.fail(
            f"{label}: exported records differ ({got['records']} records, {expected['records']} before); "
            f"{len(differ)} differ, first: {differ[:3]}"
        )
    assert got["report"] == expected["report"], f"{label}: report --json (bots, crosstable) differs"
    assert got["report_sha256"] == expected["report_sha256"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FIXTURE["tournaments"]))
def test_tournament(name, tmp_path):
    """A tiny tournament gives the same exported records and report as before the move."""
    expected = FIXTURE["tournaments"][name]
    _compare(f"tournament {name} ({' '.join(expected['args'])})", _fresh(name, tmp_path), expected)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FIXTURE["resumes"]))
def test_resume_premove_run(name, tmp_path):
    """A run directory made before the move is read as it was, and extended with more boards it gives
    what a fresh run of the final configuration gives, and gave before the move."""
    spec = FIXTURE["resumes"][name]
    run_dir = tmp_path / name
    shutil.copytree(premove.HERE / spec["dir"], run_dir)
    args = FIXTURE["tournaments"][spec["tournament"]]["args"]
    before = tmp_path / "before.jsonl"
    resumed = premove.run_pin(run_dir, tmp_path, tournament=args, export_before=before)  # one process
    first = premove.canonical_records(before)
    assert len(first) == spec["first_records"], f"resume {name}: the stored run exports {len(first)} records"
    assert premove.sha256_lines(first) == spec["first_records_sha256"], f"resume {name}: stored run reads differently"
    label = f"resume {name} ({spec['first']} -> {args[args.index('--boards') + 1]} boards)"
    _compare(label + " vs the pre-move fixture", resumed, FIXTURE["tournaments"][spec["tournament"]])
    _compare(label + " vs a fresh run", resumed, _fresh(spec["tournament"], tmp_path))
