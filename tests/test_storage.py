"""The block store: runs that grow (more boards, more teams) equal fresh runs of the final size, a block
stored twice is stored once, creation that survives being stopped at any point, read-only and format-1
run directories, and damaged blocks reported in one line."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tekkasim.cli import cli
from tekkasim.tournament import Config, Store, TournamentError, iter_records, run_tournament
from tekkasim.tournament.play import Job, play_block
from tekkasim.tournament.report import build_report
from tekkasim.tournament.results import digest, pair_rows
from tekkasim.verify import verify_record

ROOT = Path(__file__).resolve().parent.parent
HIGHEST = "tests.tournament_bots:Highest"
LOWEST = "tests.tournament_bots:Lowest"


def cfg(**kw) -> Config:
    values = {"ruleset": "feskot", "bots": "RANDOM,GREEDY", "boards": 6, "seed": 40, "workers": 1, "block": 2}
    values.update(kw)
    return Config.build(**values)


def test_more_boards_through_the_cli_play_only_the_new_ones_and_equal_a_fresh_run(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    base = [sys.executable, "-m", "tekkasim", "tournament", "-b", f"GREEDY,{HIGHEST}", "-s", "3", "-w", "2", "-q"]
    grown, fresh = tmp_path / "grown", tmp_path / "fresh"
    for boards, played in ((5, 10), (9, 8)):
        res = subprocess.run([*base, "-n", str(boards), "--out", str(grown)], env=env, capture_output=True, text=True)
        assert res.returncode == 0, res.stderr
        assert f"{played} tables played ({2 * boards} in the run)" in res.stdout
    res = subprocess.run([*base, "-n", "9", "--out", str(fresh)], env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert digest(grown) == digest(fresh)
    assert json.loads((grown / "config.json").read_text())["identity"]["boards"] == 9
    smaller = subprocess.run([*base, "-n", "4", "--out", str(grown)], env=env, capture_output=True, text=True)
    assert smaller.returncode != 0 and "boards: stored 9, given 4 (a run only grows)" in smaller.stderr


@pytest.mark.parametrize("schedule", ["round-robin", "gauntlet"])
def test_more_teams_play_only_the_new_pairings_and_equal_a_fresh_run(tmp_path, schedule):
    run_tournament(cfg(bots=["RANDOM", LOWEST], schedule=schedule), tmp_path / "grown", quiet=True)
    # a new team in the middle of the list: pairings are keyed by the teams, not their positions
    final = cfg(bots=["RANDOM", "GREEDY", LOWEST, HIGHEST], schedule=schedule, boards=8)
    summary = run_tournament(final, tmp_path / "grown", quiet=True)
    pairings = 6 if schedule == "round-robin" else 3
    assert summary.tables_played == 2 * (8 * pairings - 6)
    run_tournament(final, tmp_path / "fresh", quiet=True)
    assert digest(tmp_path / "grown") == digest(tmp_path / "fresh")
    again = run_tournament(final, tmp_path / "grown", quiet=True)
    assert again.tables_played == 0


def test_a_block_that_comes_back_twice_is_stored_once(tmp_path):
    config = cfg()
    job = Job.from_config(config)
    with Store.create_or_resume(tmp_path, config.identity()) as store:
        block = play_block(job, (0, 0, 3), compact=True)
        assert store.add(block) == 6 and store.add(block) == 0
        assert store.add(play_block(job, (0, 1, 4))) == 0  # rows overlapping a stored block: kept as stored
        assert store.add(play_block(job, (0, 3, 6))) == 6  # rows (the State API's form) make blocks too
        assert store.ranges() == {0: [(0, 3), (3, 6)]}
    run_tournament(config, tmp_path / "fresh", quiet=True)
    assert digest(tmp_path) == digest(tmp_path / "fresh")


def test_a_block_overlapping_any_stored_block_is_left_out_and_one_in_a_gap_is_stored(tmp_path):
    config = cfg(boards=12)
    job = Job.from_config(config)
    with Store.create_or_resume(tmp_path, config.identity()) as store:
        for start, stop in ((0, 3), (6, 9)):
            assert store.add(play_block(job, (0, start, stop), compact=True)) == 2 * (stop - start)
        for start, stop in ((2, 7), (5, 7), (8, 12), (0, 12), (1, 2)):  # each overlaps a stored block
            assert store.add(play_block(job, (0, start, stop), compact=True)) == 0, (start, stop)
        assert store.add(play_block(job, (0, 3, 6), compact=True)) == 6  # the gap between them
        assert store.add(play_block(job, (0, 9, 12), compact=True)) == 6
        assert store.ranges() == {0: [(0, 3), (3, 6), (6, 9), (9, 12)]}


def test_the_digest_does_not_depend_on_blocks_or_workers(tmp_path):
    run_tournament(cfg(block=1, workers=2), tmp_path / "a", quiet=True)
    run_tournament(cfg(block=5), tmp_path / "b", quiet=True)
    run_tournament(cfg(block=3), tmp_path / "c", quiet=True, use_compiled=False)
    assert digest(tmp_path / "a") == digest(tmp_path / "b") == digest(tmp_path / "c")
    run_tournament(cfg(seed=41), tmp_path / "d", quiet=True)
    assert digest(tmp_path / "d") != digest(tmp_path / "a")


def test_a_run_stopped_before_its_database_exists_resumes(tmp_path, monkeypatch):
    from tekkasim.tournament import storage

    real = storage._connect

    def stopped(path, readonly):
        raise KeyboardInterrupt  # the moment after the identity is written

    monkeypatch.setattr(storage, "_connect", stopped)
    with pytest.raises(KeyboardInterrupt):
        run_tournament(cfg(), tmp_path / "run", quiet=True)
    assert (tmp_path / "run" / "config.json").exists() and not (tmp_path / "run" / "run.sqlite").exists()
    monkeypatch.setattr(storage, "_connect", real)
    assert run_tournament(cfg(), tmp_path / "run", quiet=True).tables_played == 12


def test_a_directory_left_half_made_by_an_older_version_starts_anew(tmp_path):
    half = tmp_path / "half"
    half.mkdir()
    (half / ".lock").touch()
    conn = sqlite3.connect(half / "run.sqlite")  # format 1 stopped before it wrote config.json
    conn.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE tables (pairing INTEGER, board INTEGER, tab INTEGER, x_return REAL, y_return REAL,"
        " deals INTEGER, payload BLOB, PRIMARY KEY (pairing, board, tab));"
    )
    conn.close()
    assert run_tournament(cfg(), half, quiet=True).tables_played == 12
    only_lock = tmp_path / "lock"
    only_lock.mkdir()
    (only_lock / ".lock").touch()
    assert run_tournament(cfg(), only_lock, quiet=True).tables_played == 12
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(TournamentError, match="not empty and holds no tournament run"):
        run_tournament(cfg(), other, quiet=True)


def _format_1(directory: Path, config: Config) -> None:
    """A run directory as format 1 wrote it: one row per table."""
    directory.mkdir()
    job = Job.from_config(config)
    rows = [r for p in range(len(config.pairings())) for r in play_block(job, (p, 0, config.boards))]
    conn = sqlite3.connect(directory / "run.sqlite")
    conn.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE tables (pairing INTEGER NOT NULL, board INTEGER NOT NULL, tab INTEGER NOT NULL,"
        " x_return REAL NOT NULL, y_return REAL NOT NULL, deals INTEGER NOT NULL, payload BLOB NOT NULL,"
        " PRIMARY KEY (pairing, board, tab)) WITHOUT ROWID;"
    )
    with conn:
        conn.execute("INSERT INTO meta VALUES ('identity', ?)", (json.dumps(config.identity(), sort_keys=True),))
        conn.execute("INSERT INTO meta VALUES ('format', '1')")
        conn.executemany("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?)", rows[:-1])  # the last pair half stored
    conn.close()
    (directory / "config.json").write_text(json.dumps({"format": 1, "identity": config.identity()}))


def test_a_format_1_run_is_read_and_converted_when_it_resumes(tmp_path):
    config = cfg(bots=["RANDOM", "GREEDY", HIGHEST], boards=4)
    old = tmp_path / "old"
    _format_1(old, config)
    report = build_report(old, bootstrap=0)
    assert report["pairs"] == 3 * 4 - 1 and not report["complete"]
    records = list(iter_records(old))
    assert len(records) == 2 * (3 * 4 - 1) and all(verify_record(r).ok for r in records[:6])
    summary = run_tournament(config, old, quiet=True)
    assert summary.tables_played == 2  # the half-stored pair, played again whole
    run_tournament(config, tmp_path / "fresh", quiet=True)
    assert digest(old) == digest(tmp_path / "fresh")
    with sqlite3.connect(old / "run.sqlite") as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "tables" not in names and json.loads((old / "config.json").read_text())["format"] == 3


def test_report_arrays_match_the_rows_they_come_from(tmp_path):
    run_tournament(cfg(bots=["RANDOM", "GREEDY", (HIGHEST, LOWEST)], boards=5), tmp_path, quiet=True)
    with Store.read(tmp_path) as store:
        rows, identity = store.results(), store.identity
        ps, boards, margins = store.margins()
    pairs = pair_rows(identity, rows)
    assert [(r["pairing"], r["board"], r["margin"]) for r in pairs] == list(
        zip(ps.tolist(), boards.tolist(), margins.tolist(), strict=True)
    )
    report = build_report(tmp_path, bootstrap=0)
    assert report["pairs"] == 15 and report["complete"]
    assert {c["pairs"] for c in report["crosstable"]} == {5}


def test_a_damaged_block_is_one_line(tmp_path):
    run_tournament(cfg(), tmp_path, quiet=True)
    with sqlite3.connect(tmp_path / "run.sqlite") as conn:
        conn.execute("UPDATE blocks SET columns = x'00010203' WHERE start = 0")
    for argv in (["report", str(tmp_path)], ["export", str(tmp_path), "--out", str(tmp_path.parent / "r.jsonl")]):
        out = CliRunner().invoke(cli, argv)
        assert out.exit_code != 0 and "undecodable block" in out.output, out.output
        assert len(out.output.strip().splitlines()) == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only directory")
def test_a_read_only_run_directory_is_reported_and_exported(tmp_path):
    run = tmp_path / "run"
    run_tournament(cfg(), run, quiet=True)
    (run / ".lock").unlink()
    os.chmod(run, 0o555)
    try:
        out = CliRunner().invoke(cli, ["report", str(run), "--bootstrap", "0"])
        assert out.exit_code == 0, out.output
        exp = CliRunner().invoke(cli, ["export", str(run), "--out", str(tmp_path / "r.jsonl")])
        assert exp.exit_code == 0, exp.output
        with pytest.raises(TournamentError, match="cannot write the run directory"):
            run_tournament(cfg(boards=8), run, quiet=True)
    finally:
        os.chmod(run, 0o755)


def test_a_read_only_directory_falls_back_to_reading_the_database_as_immutable(tmp_path, monkeypatch):
    """Where SQLite cannot open a WAL database read-only (it cannot make the index file beside it in a
    directory it may not write), the reader opens it as immutable: what a non-root user meets."""
    from tekkasim.tournament import storage

    run_tournament(cfg(), tmp_path / "run", quiet=True)
    (tmp_path / "run" / ".lock").unlink()
    real_connect, opened = sqlite3.connect, []

    def connect(target, *args, **kw):
        opened.append(str(target))
        if "mode=ro" in str(target) and "immutable=1" not in str(target):
            raise sqlite3.OperationalError("unable to open database file")
        return real_connect(target, *args, **kw)

    monkeypatch.setattr(sqlite3, "connect", connect)
    monkeypatch.setattr(storage.os, "access", lambda path, mode: False)
    assert build_report(tmp_path / "run", bootstrap=0)["pairs"] == 6
    assert any("immutable=1" in o for o in opened)


def test_an_empty_database_beside_its_identity_reads_as_no_results_and_resumes(tmp_path):
    """A run stopped while starting (config.json written, its database still 0 bytes): report says so in
    one line, and the same run then starts there and equals a fresh one."""
    run, fresh = tmp_path / "run", tmp_path / "fresh"
    run_tournament(cfg(), run, quiet=True)
    for p in run.iterdir():
        if p.name.startswith("run.sqlite"):
            p.unlink()
    (run / "run.sqlite").write_bytes(b"")
    with pytest.raises(TournamentError, match="no stored results yet"):
        Store.read(run)
    run_tournament(cfg(), run, quiet=True)
    run_tournament(cfg(), fresh, quiet=True)
    assert digest(run) == digest(fresh)
