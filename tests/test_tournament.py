"""The tournament runner: duplicate seating, determinism over workers and backends, storage and
resume (a real run killed with SIGKILL), refusals, bot failures, dead workers, the watchdog, exports."""

from __future__ import annotations

import gzip
import json
import os
import pickle
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from tournament_bots import CrashOnce, Hang, Highest, Illegal, Lowest, NiceProbe, Raiser

from tekkasim.bots import RandomBot
from tekkasim.cli import cli
from tekkasim.errors import BotError
from tekkasim.tournament import Config, Store, TournamentError, iter_records, load_run, run_tournament
from tekkasim.tournament.backends import WORKER_NICE
from tekkasim.tournament.play import Job, compiled_block, context, play_block
from tekkasim.tournament.runner import Progress, missing_blocks
from tekkasim.verify import verify_record

ROOT = Path(__file__).resolve().parent.parent
HIGHEST = "tests.tournament_bots:Highest"
LOWEST = "tests.tournament_bots:Lowest"


def rows_of(directory) -> list[tuple]:
    with Store.read(directory) as store:
        return [r + (p[3],) for r, p in zip(store.results(), store.payloads(), strict=True)]


def small(**kw) -> Config:
    values = {
        "ruleset": "feskot",
        "bots": [RandomBot, Highest, Lowest],
        "boards": 6,
        "seed": 40,
        "workers": 2,
        "block": 2,
    }
    values.update(kw)
    return Config.build(**values)


def test_same_results_for_one_and_two_workers_with_a_mixed_partnership(tmp_path):
    bots = [RandomBot, Highest, (RandomBot, Lowest)]
    one = run_tournament(small(bots=bots, workers=1, block=3), tmp_path / "one", quiet=True)
    two = run_tournament(small(bots=bots, workers=2, block=1), tmp_path / "two", quiet=True)
    assert one.tables_played == two.tables_played == 3 * 6 * 2
    assert rows_of(tmp_path / "one") == rows_of(tmp_path / "two")
    frame = load_run(tmp_path / "one")
    assert set(frame.x) | set(frame.y) == {"RANDOM", "HIGHEST", "RANDOM+LOWEST"}
    mixed = frame[(frame.y == "RANDOM+LOWEST") & (frame.table == 0)].iloc[0]
    assert (mixed.right, mixed.left) == ("RANDOM", "LOWEST")


def test_duplicate_tables_share_the_cards_and_swap_the_seats(tmp_path):
    run_tournament(small(bots=[RandomBot, Highest], boards=4), tmp_path, quiet=True)
    records = list(iter_records(tmp_path))
    assert len(records) == 8
    for board in range(4):
        t0, t1 = (r for r in records if r["board"]["index"] == board)
        assert t0["board"]["table"] == 0 and t1["board"]["table"] == 1
        assert t0["seed"] == t1["seed"] == 40 + board
        assert t0["hands"] == t1["hands"] and t0["first"] == t1["first"]
        assert t0["players"] == {"bottom": "RANDOM", "right": "HIGHEST", "top": "RANDOM", "left": "HIGHEST"}
        assert t1["players"] == {"bottom": "HIGHEST", "right": "RANDOM", "top": "HIGHEST", "left": "RANDOM"}
        assert all(verify_record(r).ok for r in (t0, t1))


@pytest.mark.parametrize(
    "ruleset, bots",
    [
        ("feskot", "RANDOM,GREEDY"),
        ("tekka", "KADO,JANGARA"),
        ("satat", "RANDOM,GREEDY,JANGARA"),
        ("shengji", "RANDOM,KADO,JANGARA"),  # RANDOM has no compiled Shengji form: its pairings play in Python
    ],
)
def test_compiled_matchups_store_what_the_state_api_plays(tmp_path, ruleset, bots):
    cfg = Config.build(ruleset=ruleset, bots=bots, boards=6, seed=3, workers=1)
    job = Job.from_config(cfg)
    compiled = [compiled_block(context(job), p, range(1)) is not None for p in range(len(cfg.pairings()))]
    names = [{cfg.teams[x].name, cfg.teams[y].name} for x, y in cfg.pairings()]
    assert compiled == [not (ruleset == "shengji" and "RANDOM" in n) for n in names]
    run_tournament(cfg, tmp_path / "compiled", quiet=True)
    run_tournament(cfg, tmp_path / "python", quiet=True, use_compiled=False)
    assert rows_of(tmp_path / "compiled") == rows_of(tmp_path / "python")
    records = list(iter_records(tmp_path / "compiled"))
    assert len(records) == 2 * 6 * len(cfg.pairings()) and all(verify_record(r).ok for r in records[:8])


def test_match_unit_replays_the_same_deal_seeds_at_both_tables(tmp_path):
    cfg = Config.build(ruleset="tekka", bots=[RandomBot, Highest], boards=2, seed=9, unit="match", workers=2)
    run_tournament(cfg, tmp_path, quiet=True)
    records = list(iter_records(tmp_path))
    assert all(verify_record(r).ok for r in records)
    for board in range(2):
        t0 = [r for r in records if r["board"] == {"index": board, "table": 0, "x": "RANDOM", "y": "HIGHEST"}]
        t1 = [r for r in records if r["board"]["index"] == board and r["board"]["table"] == 1]
        assert [r["deal_no"] for r in t0] == list(range(len(t0)))
        assert t0[0]["seed"] == t1[0]["seed"] == 9 + board and t0[0]["hands"] == t1[0]["hands"]
        n = min(len(t0), len(t1))
        assert [r["seed"] for r in t0[:n]] == [r["seed"] for r in t1[:n]]  # one sequence of deal seeds
    frame = load_run(tmp_path)
    per_table = frame.groupby(["board", "table"]).first()
    assert set(per_table.table_x_return + per_table.table_y_return) == {1.0}  # a match: 1 to the winner


def test_export_records_csv_parquet_and_report(tmp_path):
    run = tmp_path / "run"
    run_tournament(small(), run, quiet=True)
    runner = CliRunner()
    out = runner.invoke(
        cli, ["export", str(run), "--out", str(tmp_path / "r.jsonl.gz"), "--csv", str(tmp_path / "r.csv")]
    )
    assert out.exit_code == 0, out.output
    lines = gzip.open(tmp_path / "r.jsonl.gz", "rt").read().splitlines()
    assert len(lines) == 36
    check = runner.invoke(cli, ["verify", str(tmp_path / "r.jsonl.gz")])
    assert check.exit_code == 0 and "36 of 36 records legal" in check.output
    import pandas as pd

    assert len(pd.read_csv(tmp_path / "r.csv")) == 36
    pytest.importorskip("pyarrow")
    assert runner.invoke(cli, ["export", str(run), "--csv", str(tmp_path / "r.parquet")]).exit_code == 0
    assert pd.read_parquet(tmp_path / "r.parquet").equals(load_run(run))

    rep = runner.invoke(cli, ["report", str(run), "--json", "--bootstrap", "20", "--plots", str(tmp_path / "plots")])
    assert rep.exit_code == 0, rep.output
    data = json.loads(rep.stdout)
    assert {"ruleset", "unit", "boards", "pairs", "anchor", "bots", "crosstable"} <= set(data)
    assert data["anchor"] == "RANDOM" and data["pairs"] == 18 and data["boards"] == 6
    anchor = next(b for b in data["bots"] if b["name"] == "RANDOM")
    assert anchor["elo"] == 0 and all(b["lo"] <= b["elo"] <= b["hi"] and b["pairs"] == 12 for b in data["bots"])
    row = data["crosstable"][0]
    assert {"a", "b", "pairs", "wins", "draws", "losses", "margin", "margin_lo", "margin_hi"} <= set(row)
    assert row["wins"] + row["draws"] + row["losses"] == row["pairs"] == 6
    for name in ("elo.png", "heatmap.png", "margins.png", "summary.md"):
        assert (tmp_path / "plots" / name).stat().st_size > 0
    assert "elo.png" in (tmp_path / "plots" / "summary.md").read_text()
    text = runner.invoke(cli, ["report", str(run), "--anchor", "highest", "--bootstrap", "0"])
    assert text.exit_code == 0 and "anchor HIGHEST = 0" in text.output and "RANDOM" in text.output
    bad = runner.invoke(cli, ["report", str(run), "--anchor", "TANA"])
    assert bad.exit_code != 0 and "anchor 'TANA' did not play" in bad.output


def _cli_env(**extra) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "tests")])
    env.update(extra)
    return env


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return conn.execute("SELECT coalesce(sum(2 * (stop - start)), 0) FROM blocks").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_resume_after_sigkill_equals_an_uninterrupted_run(tmp_path):
    argv = ["-r", "feskot", "-b", f"RANDOM,{HIGHEST},{LOWEST}", "-n", "60", "-s", "5", "-w", "2", "--block", "2", "-q"]
    killed = tmp_path / "killed"
    cmd = [sys.executable, "-m", "tekkasim", "tournament", *argv, "--out", str(killed)]
    proc = subprocess.Popen(
        cmd, env=_cli_env(), start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 120
    while _count(killed / "run.sqlite") < 40 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the runner and its workers, mid-run
    proc.wait()
    stored = _count(killed / "run.sqlite")
    assert 40 <= stored < 360, stored
    again = subprocess.run(cmd, env=_cli_env(), capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert f"{360 - stored} tables played (360 in the run)" in again.stdout
    reference = tmp_path / "reference"
    run_tournament(
        Config.build(ruleset="feskot", bots=["RANDOM", HIGHEST, LOWEST], boards=60, seed=5, workers=2),
        reference,
        quiet=True,
    )
    assert rows_of(killed) == rows_of(reference)


def test_missing_blocks_cover_exactly_the_boards_lacking_a_table():
    cfg = Config.build(ruleset="feskot", bots="RANDOM,GREEDY,KADO", boards=11, seed=1)
    rng = random.Random(3)
    for _ in range(200):
        done = {(rng.randrange(3), rng.randrange(11), rng.randrange(2)) for _ in range(rng.randrange(60))}
        size = rng.choice([1, 2, 3, 5, 64])
        blocks = missing_blocks(cfg, done, size)
        covered = [(p, b) for p, start, stop in blocks for b in range(start, stop)]
        lacking = [(p, b) for p in range(3) for b in range(11) if not {(p, b, 0), (p, b, 1)} <= done]
        assert covered == lacking and all(0 < stop - start <= size for _, start, stop in blocks)
        # a block never spans a complete board
        assert all(not {(p, b, 0), (p, b, 1)} <= done for p, start, stop in blocks for b in range(start, stop))


def test_a_compiled_block_iterates_to_the_rows_the_state_api_stores():
    cfg = Config.build(ruleset="feskot", bots="GREEDY,JANGARA", boards=6, seed=11)
    compact = play_block(Job.from_config(cfg), (0, 4, 6), compact=True)
    assert type(compact).__name__ == "BlockRows" and len(compact) == 4
    python = play_block(Job.from_config(cfg, use_compiled=False), (0, 4, 6))
    assert sorted(compact) == sorted(python) == sorted(pickle.loads(pickle.dumps(compact)))
    assert list(compact.results()) == [r[:5] for r in compact]
    shown, listed = (Progress(cfg, 12, 0, None, enabled=True) for _ in range(2))
    shown.update(compact)
    listed.update(python)
    assert (shown.score, shown.n, shown.count) == (listed.score, listed.n, listed.count)
    assert shown.count == 4 and shown.n == [2, 2] and sum(shown.score) == 2  # two pairs, one score each


def _tree(directory: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def test_another_configuration_on_a_dir_is_refused_and_the_dir_left_untouched(tmp_path):
    run_tournament(small(boards=2), tmp_path, quiet=True)
    before = _tree(tmp_path)
    for change, words in (
        ({"boards": 1}, "boards: stored 2, given 1 (a run only grows)"),
        ({"seed": 41}, "seed: stored 40, given 41"),
        ({"ruleset": "tekka"}, 'ruleset: stored "feskot", given "tekka"'),
        ({"schedule": "gauntlet"}, 'schedule: stored "round-robin", given "gauntlet"'),
        ({"bots": [RandomBot, Lowest]}, "team HIGHEST is missing"),
        ({"bots": [Highest, RandomBot, Lowest]}, "RANDOM vs HIGHEST would change sides"),
    ):
        with pytest.raises(TournamentError, match="another configuration") as err:
            run_tournament(small(**{"boards": 2, **change}), tmp_path, quiet=True)
        assert words in str(err.value) and "\n" not in str(err.value), str(err.value)
    assert _tree(tmp_path) == before
    # the same configuration resumes: nothing to play, nothing changed in the results
    again = run_tournament(small(boards=2, workers=1), tmp_path, quiet=True)
    assert again.tables_played == 0


def test_a_bot_whose_preset_changed_does_not_resume_its_old_results(tmp_path, monkeypatch):
    """The identity keeps every seat's class and parameter values: a preset changed under the same label
    (as Tekka's TANA was) refuses the old DIR in one line instead of mixing the two bots' results."""
    from tekkasim.rulesets.trick52.bots import Sada

    cfg = Config.build(ruleset="tekka", bots="KADO,SADA", boards=2, seed=3, workers=1)
    run_tournament(cfg, tmp_path, quiet=True)
    before = _tree(tmp_path)
    monkeypatch.setattr(Sada, "preset", {**Sada.preset, "mistake_rate": 0.05})
    changed = Config.build(ruleset="tekka", bots="KADO,SADA", boards=2, seed=3, workers=1)
    assert changed.identity()["teams"] == cfg.identity()["teams"]  # the same labels
    with pytest.raises(TournamentError, match="another configuration") as err:
        run_tournament(changed, tmp_path, quiet=True)
    text = str(err.value)
    assert "\n" not in text and "bots of SADA" in text and "mistake_rate: stored" in text and "given 0.05" in text
    assert _tree(tmp_path) == before
    tana = Config.build(ruleset="tekka", bots="TANA,SADA", boards=2).identity()["bots"][0][0]
    assert tana["class"].endswith(":TanaTekka") and tana["params"]["mistake_rate"] == 0.075


def test_corrupt_and_locked_databases_get_one_line(tmp_path):
    run_tournament(small(boards=1), tmp_path, quiet=True)
    import fcntl

    with open(tmp_path / ".lock", "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(TournamentError, match="in use by another running tournament"):
            run_tournament(small(boards=1), tmp_path, quiet=True)
    (tmp_path / "run.sqlite").write_bytes(b"this is not a database" * 100)
    for f in tmp_path.glob("run.sqlite-*"):
        f.unlink()
    out = CliRunner().invoke(cli, ["report", str(tmp_path)])
    assert out.exit_code != 0 and "corrupt" in out.output and len(out.output.strip().splitlines()) == 1
    with pytest.raises(TournamentError, match="corrupt"):
        run_tournament(small(boards=1), tmp_path, quiet=True)


@pytest.mark.parametrize("bad, words", [(Raiser, "raised RuntimeError: boom"), (Illegal, "illegal action")])
def test_a_failing_bot_stops_the_run_naming_bot_board_and_decision_then_it_resumes(tmp_path, monkeypatch, bad, words):
    monkeypatch.setenv("TEKKASIM_TEST_MISBEHAVE", "1")
    cfg = small(bots=[RandomBot, bad], boards=12, block=1)
    with pytest.raises(BotError) as info:
        run_tournament(cfg, tmp_path, quiet=True)
    text = str(info.value)
    assert "\n" not in text and bad.name in text and words in text and "board" in text and "trick" in text
    stored = rows_of(tmp_path)
    monkeypatch.delenv("TEKKASIM_TEST_MISBEHAVE")  # "fixed"
    summary = run_tournament(cfg, tmp_path, quiet=True)
    assert summary.tables_played == 24 - len(stored)
    assert set(stored) <= set(rows_of(tmp_path))


def test_the_cli_reports_a_failing_bot_in_one_line_and_exits_non_zero(tmp_path):
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "tekkasim",
            "tournament",
            "-b",
            "RANDOM,tests.tournament_bots:Raiser",
            "-n",
            "6",
            "-w",
            "2",
            "--out",
            str(tmp_path),
        ],
        env=_cli_env(TEKKASIM_TEST_MISBEHAVE="1"),
        capture_output=True,
        text=True,
    )
    assert res.returncode != 0
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "RAISER" in lines[0] and "board" in lines[0], res.stderr


def test_a_killed_worker_is_replaced_and_its_block_played_again(tmp_path, monkeypatch):
    monkeypatch.setenv("TEKKASIM_CRASH_MARKER", str(tmp_path / "crashed"))
    t0 = time.monotonic()
    summary = run_tournament(small(bots=[RandomBot, CrashOnce], boards=8, block=2), tmp_path / "a", quiet=True)
    assert (tmp_path / "crashed").exists() and summary.restarts == 1
    assert time.monotonic() - t0 < 60
    run_tournament(small(bots=[RandomBot, Highest], boards=8, block=2), tmp_path / "b", quiet=True)
    # CrashOnce plays as Highest: the same returns and actions, board for board
    assert rows_of(tmp_path / "a") == rows_of(tmp_path / "b")


def test_workers_play_below_the_storing_parents_priority(tmp_path, monkeypatch):
    probe = tmp_path / "nice"
    monkeypatch.setenv("TEKKASIM_NICE_PROBE", str(probe))
    run_tournament(small(bots=[RandomBot, NiceProbe], boards=2, workers=1), tmp_path / "run", quiet=True)
    assert int(probe.read_text()) == min(os.nice(0) + WORKER_NICE, 19)


def test_a_worker_that_dies_right_after_answering_loses_nothing(tmp_path, monkeypatch):
    """The worker dies between sending a block's rows and being sent its next block: the parent's send
    fails, yet the rows it received are stored, the unsent block goes back to the queue with the rest, and
    the results equal an undisturbed run's."""
    import multiprocess
    from multiprocess.connection import Connection

    real_send, calls, parent = Connection.send_bytes, [0], os.getpid()

    def send_bytes(self, buf, *args):  # the parent's sends of blocks (a forked worker's answers pass)
        if os.getpid() == parent:
            calls[0] += 1
            if calls[0] == 3:  # the first block sent while an answer is being handled
                for p in multiprocess.active_children():
                    p.kill()
                    p.join()
                raise BrokenPipeError("the worker is gone")
        return real_send(self, buf, *args)

    monkeypatch.setattr(Connection, "send_bytes", send_bytes)
    summary = run_tournament(small(bots=[RandomBot, Highest], boards=8, block=2, workers=1), tmp_path / "a", quiet=True)
    assert calls[0] > 3 and summary.restarts == 1
    monkeypatch.setattr(Connection, "send_bytes", real_send)
    run_tournament(small(bots=[RandomBot, Highest], boards=8, block=2, workers=1), tmp_path / "b", quiet=True)
    assert rows_of(tmp_path / "a") == rows_of(tmp_path / "b") and len(rows_of(tmp_path / "a")) == 16


def test_the_watchdog_stops_a_hanging_bot(tmp_path, monkeypatch):
    monkeypatch.setenv("TEKKASIM_TEST_MISBEHAVE", "1")
    t0 = time.monotonic()
    with pytest.raises(TournamentError, match="watchdog: no progress for 2 s at RANDOM vs HANG, board"):
        run_tournament(small(bots=[RandomBot, Hang], boards=4, block=1, timeout=2.0), tmp_path, quiet=True)
    assert time.monotonic() - t0 < 30


def test_dask_backend_gives_the_same_results(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as lc:
        # RANDOM vs GREEDY plays in the compiled loop (CompiledRows come back), the others in Python
        cfg = small(bots=[RandomBot, "GREEDY", Highest], backend="dask", scheduler=lc.scheduler_address)
        run_tournament(cfg, tmp_path / "dask", quiet=True)
    run_tournament(small(bots=[RandomBot, "GREEDY", Highest], workers=1), tmp_path / "local", quiet=True)
    assert rows_of(tmp_path / "dask") == rows_of(tmp_path / "local")


def test_an_unreachable_dask_scheduler_is_one_line(tmp_path):
    pytest.importorskip("distributed")
    out = CliRunner().invoke(
        cli,
        [
            "tournament",
            "-b",
            "RANDOM,KADO",
            "-n",
            "2",
            "--backend",
            "dask",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "--out",
            str(tmp_path / "d"),
        ],
    )
    assert out.exit_code != 0 and "cannot reach the Dask scheduler" in out.output
    assert len(out.output.strip().splitlines()) == 1
    assert not (tmp_path / "d").exists()  # checked before anything is created


@pytest.mark.parametrize(
    "argv, words",
    [
        (["-b", "RANDOM,NOSUCHBOT"], "unknown bot 'NOSUCHBOT'"),
        (["-b", "RANDOM,GREEDY", "-r", "bridge"], "unknown ruleset 'bridge'"),
        (["-b", "RANDOM,GREEDY", "--schedule", "swiss"], "bad schedule 'swiss'"),
        (["-b", "RANDOM,GREEDY", "--unit", "rubber"], "bad unit 'rubber'"),
        (["-b", "RANDOM,GREEDY", "--unit", "match"], "feskot has no matches"),
        (["-b", "RANDOM,GREEDY", "-o", "doubling=true"], "unknown option 'doubling'"),
        (["-b", "RANDOM"], "two teams at least"),
        (["-b", "RANDOM,RANDOM"], "listed twice"),
        (["-b", "RANDOM,GREEDY", "-n", "0"], "--boards must be a positive integer"),
        (["-b", "RANDOM,no.such.module:Bot"], "does not import"),
    ],
)
def test_bad_input_is_one_line_and_non_zero(tmp_path, argv, words):
    out = CliRunner().invoke(cli, ["tournament", *argv, "--out", str(tmp_path / "x")])
    assert out.exit_code != 0 and words in out.output, out.output
    assert len(out.output.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_config_file_flags_override_and_dump_config(tmp_path):
    conf = tmp_path / "t.toml"
    conf.write_text(
        'ruleset = "tekka"\nbots = ["RANDOM", "GREEDY", "KADO"]\nboards = 50\nseed = 3\n'
        'schedule = "gauntlet"\n[options]\nraises = true\n'
    )
    out = CliRunner().invoke(cli, ["tournament", "--config", str(conf), "--boards", "7", "--dump-config"])
    assert out.exit_code == 0, out.output
    import tomllib

    eff = tomllib.loads(out.output)
    assert (eff["ruleset"], eff["boards"], eff["seed"], eff["schedule"]) == ("tekka", 7, 3, "gauntlet")
    assert eff["bots"] == ["RANDOM", "GREEDY", "KADO"] and eff["options"]["raises"] is True
    cfg = Config.build(**{k: v for k, v in eff.items() if k != "options"}, options=eff["options"])
    assert cfg.pairings() == [(0, 1), (0, 2)]
    bad = tmp_path / "bad.toml"
    bad.write_text("boards = 5\ncolour = 'red'\n")
    res = CliRunner().invoke(cli, ["tournament", "--config", str(bad)])
    assert res.exit_code != 0 and "unknown key 'colour'" in res.output


def test_sprt_cli_decides_for_a_much_stronger_bot():
    out = CliRunner().invoke(
        cli,
        [
            "sprt",
            "--bot",
            "GREEDY",
            "--bot",
            "RANDOM",
            "--elo0",
            "0",
            "--elo1",
            "100",
            "--seed",
            "2",
            "--workers",
            "2",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output.strip().splitlines()[-1])
    assert data["verdict"] == "H1" and data["llr"] >= data["bounds"][1] and data["pairs"] >= 1
    # GREEDY may win every pair before the test decides: no finite Elo or upper bound (null), and why
    if data["elo"] is None:
        assert data["hi"] is None and data["note"] == "won every pair" and data["lo"] > 0
    else:
        assert data["elo"] > 100 and data["lo"] <= data["elo"] <= data["hi"]
