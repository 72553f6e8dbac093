"""The main job (`tekkasim run`, `make run`, tekkasim.analysis.ladder): one Elo table of the whole ladder from
two resumable runs, its outputs, and the README's copy of the table (docs/make-run.md, docs/make-run.json)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tekkasim.analysis.ladder import (
    BASELINES,
    HEURISTIC,
    SEARCH,
    doc_markdown,
    readme_table,
    render_table,
    table_block,
)
from tekkasim.bots import describe
from tekkasim.cli import cli

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "make-run.md"


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


# --- the README's table is the table of the shipped run --------------------------------------------------


@pytest.fixture(scope="module")
def shipped():
    return json.loads(DOC.with_suffix(".json").read_text())


def test_docs_make_run_is_generated_from_its_json(shipped):
    assert DOC.read_text() == doc_markdown(shipped)


def test_the_readme_shows_the_table_of_docs_make_run(shipped):
    readme = (ROOT / "README.md").read_text()
    assert readme_table(readme) == render_table(shipped["report"])
    assert table_block(render_table(shipped["report"])) in readme


def test_the_shipped_table_orders_the_tiers(shipped):
    """The heuristic ladder's steps and the search tier over JANGARA, each with its 95% interval above zero."""
    report = shipped["report"]
    steps = {b["name"]: b for b in report["bots"] if "over" in b}
    assert all(steps[n]["step_lo"] > 0 for n in HEURISTIC), {n: steps[n]["step_lo"] for n in HEURISTIC}
    assert report["tier"]["over"] == "JANGARA" and report["tier"]["lo"] > 0
    assert all(r["complete"] for r in report["runs"])


def test_put_table_replaces_only_the_block_between_the_markers():
    from tekkasim.analysis.ladder import JobError, put_table

    text = "# x\n\n<!-- make-run:begin -->\nold\n<!-- make-run:end -->\n\nafter\n"
    once = put_table(text, "a table")
    assert once.startswith("# x\n\n<!-- make-run:begin") and once.endswith("<!-- make-run:end -->\n\nafter\n")
    assert readme_table(once) == "a table" and put_table(once, "a table") == once
    with pytest.raises(JobError, match="no <!-- make-run:begin"):
        put_table("# no markers\n", "a table")


def test_readme_goes_with_doc_and_needs_the_markers(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# no markers\n")
    alone = run("run", "--readme", readme, "--out", tmp_path / "x")
    assert alone.exit_code != 0 and "--readme goes with --doc" in alone.output and alone.output.count("\n") == 1
    unmarked = run("run", "--readme", readme, "--doc", tmp_path / "m.md", "--out", tmp_path / "x")
    assert unmarked.exit_code != 0 and "no <!-- make-run:begin" in unmarked.output
    assert not (tmp_path / "x").exists()
