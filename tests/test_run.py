"""The main job (`tekkasim run`, `make run`, tekkasim.analysis.ladder): one Elo table of the whole ladder from
two resumable runs, its outputs, and the README's copy of the table (docs/make-run.md, docs/make-run.json)."""

from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner

from tekkasim.analysis.ladder import (
    BASELINES,
    HEURISTIC,
    SEARCH,
    render_table,
)
from tekkasim.bots import describe
from tekkasim.cli import cli


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_the_jobs_tiers_are_the_bots_kinds_and_ranks():
    bots = describe()
    ladder = [d["name"] for d in sorted((d for d in bots if d["rank"] is not None), key=lambda d: d["rank"])]
    kind = {d["name"]: d["kind"] for d in bots}
    assert ladder == [*HEURISTIC, *SEARCH]
    assert {kind[n] for n in HEURISTIC} == {"heuristic"} and {kind[n] for n in SEARCH} == {"search"}
    assert {n for n, k in kind.items() if k == "baseline"} == set(BASELINES) and BASELINES[0] == "RANDOM"


def small_args(out, time_ms=1):
    """A small job: 6 ladder boards, 1 search board a bot at ``time_ms`` a decision, one worker."""
    return ["run", "--boards", 6, "--search-boards", 1, "--time-ms", time_ms, "--workers", 1, "-q", "--out", out]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    out = tmp_path_factory.mktemp("job") / "ladder"
    return out, small_args(out), run(*small_args(out))


def test_the_job_prints_the_table_of_its_report_and_writes_its_outputs(small):
    out, _args, result = small
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    table = render_table(report)
    assert f"\n\n{table}\n\n" in result.output
    names = [b["name"] for b in report["bots"]]
    assert set(names) == {*BASELINES, *HEURISTIC, *(f"{n}:time_ms=1" for n in SEARCH)}
    assert report["anchor"] == "RANDOM" and report["runs"][0]["boards"] == 6 and report["runs"][1]["boards"] == 1
    assert report["pairs"] == 6 * 28 + 3  # the round robin of 8 bots, and 3 search pairs
    steps = {b["name"]: b.get("over") for b in report["bots"]}
    assert steps["KADO"] == "RANDOM" and steps["TANOOR:time_ms=1"] == "JANGARA" and steps["GREEDY"] is None
    assert report["tier"]["over"] == "JANGARA" and len(report["tier"]["bots"]) == 3
    rows = table.splitlines()
    assert rows[0].startswith("feskot: every bot in one Elo table, anchor RANDOM = 0")
    assert "search tier over JANGARA (the mean of 3): " in table
    assert all((out / "plots" / f).exists() for f in ("elo.png", "heatmap.png", "margins.png", "summary.md"))
    assert table in (out / "plots" / "summary.md").read_text()
    with gzip.open(out / "records.jsonl.gz", "rt") as f:
        records = [json.loads(line) for line in f]
    assert len(records) == 2 * (6 * 28 + 3)  # every board here is below RECORD_BOARDS
    verdict = run("verify", out / "records.jsonl.gz")
    assert verdict.exit_code == 0 and verdict.output.count(": ok") == len(records)


def test_the_same_command_resumes_and_a_changed_budget_is_refused(small):
    out, args, first = small
    again = run(*args)
    assert again.exit_code == 0, again.output
    assert "ladder: 0 tables played (336 in the run)" in again.output
    assert "search: 0 tables played (6 in the run)" in again.output
    assert render_table(json.loads((out / "report.json").read_text())) in first.output
    changed = run(*small_args(out, time_ms=2))
    assert changed.exit_code != 0 and "time_ms" in changed.output
    lines = [line for line in changed.output.splitlines() if line.strip()]
    assert len(lines) == 2 and lines[0].startswith("ladder: 0 tables played")  # the ladder resumed, then one line


def test_a_ruleset_without_a_ladder_is_one_line(tmp_path):
    from tekkasim.rulesets import register, unregister
    from tekkasim.rulesets.feskot.game import Feskot

    register(type("Practice", (Feskot,), {"name": "practice"}))
    try:
        result = run("run", "-r", "practice", "--out", tmp_path / "x")
    finally:
        unregister("practice")
    assert result.exit_code != 0 and result.output.count("\n") == 1
    assert "ruleset practice has no heuristic bot ladder" in result.output
    assert not (tmp_path / "x").exists()
