"""``tekkasim sprt`` as a stored run: the verdict and pair count are those of the pair scores fed in board
order, whatever the batches, workers, backend or interruptions; a killed test resumes to the same JSON; the
same bot on both sides is a self-test that accepts H0; bad test arguments are one line."""

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tekkasim.cli import cli
from tekkasim.ratings import SPRT
from tekkasim.tournament import Job, Store, play_block
from tekkasim.tournament.sprt import check_test, run_sprt, sprt_config

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def reference(cfg, elo0, elo1):
    """The test fed every board's pair score in order, from one plain play of all the boards."""
    test = SPRT(elo0, elo1)
    margins = [0.0] * cfg.boards
    for _p, board, _t, xr, yr, *_ in play_block(Job.from_config(cfg), (0, 0, cfg.boards)):
        margins[board] += xr - yr
    for m in margins:
        if test.add(1.0 if m > 0 else 0.5 if m == 0 else 0.0) is not None:
            break
    return test


def test_verdict_and_pairs_do_not_depend_on_batches_workers_or_what_was_stored(tmp_path):
    cfg = sprt_config("feskot", "GREEDY", "KADO", max_pairs=300, seed=11, workers=1, block=3)
    want = reference(cfg, 0, 40)
    assert want.verdict is not None and 20 < want.pairs < 300  # a test that decides on the way
    one = run_sprt(cfg, check_test(0, 40, 0.05, 0.05), tmp_path / "one")
    cfg2 = sprt_config("feskot", "GREEDY", "KADO", max_pairs=300, seed=11, workers=2, block=16)
    two = run_sprt(cfg2, check_test(0, 40, 0.05, 0.05), tmp_path / "two")
    for got in (one.test, two.test):
        assert (got.verdict, got.pairs, got.counts, got.llr) == (want.verdict, want.pairs, want.counts, want.llr)
    # a directory holding scattered boards, one of them with a single table (as a crash leaves it): the
    # stored pairs are fed first, the rest played, and the test is the same
    part = tmp_path / "part"
    rows = [
        r for r in play_block(Job.from_config(cfg), (0, 0, 60)) if r[1] < 20 or r[1] in (25, 40) or r[:3] == (0, 21, 0)
    ]
    with Store.create_or_resume(part, cfg.identity()) as store:
        store.add(rows)
    resumed = run_sprt(cfg2, check_test(0, 40, 0.05, 0.05), part)
    assert resumed.resumed == 20 and resumed.test.to_json() == want.to_json()
    again = run_sprt(cfg2, check_test(0, 40, 0.05, 0.05), part)  # all stored now: nothing played
    assert again.played == 0 and again.resumed == want.pairs and again.test.to_json() == want.to_json()


def test_self_test_accepts_h0_with_two_labels(tmp_path):
    out = run(
        "sprt",
        "--bot",
        "GREEDY",
        "--bot",
        "greedy",
        "--elo0",
        0,
        "--elo1",
        20,
        "-w",
        1,
        "--out",
        tmp_path / "s",
        "--json",
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["verdict"] == "H0" and data["pairs"] > 0
    report = json.loads(run("report", tmp_path / "s", "--json", "--bootstrap", 0).output)
    assert sorted(b["name"] for b in report["bots"]) == ["GREEDY", "GREEDY#2"]


@pytest.mark.parametrize(
    "elo0, elo1, words",
    [
        ("-inf", "inf", "--elo0 must be a finite"),
        (0, "1e308", "--elo1 must be a finite"),
        ("nan", 1, "--elo0 must be a finite"),
        (10, 0, "--elo1 must be greater than --elo0"),
        (0, 0, "--elo1 must be greater than --elo0"),
    ],
)
def test_bad_elo_bounds_are_one_line(tmp_path, elo0, elo1, words):
    out = run("sprt", "--bot", "GREEDY", "--bot", "KADO", "--elo0", elo0, "--elo1", elo1, "--out", tmp_path / "x")
    assert out.exit_code != 0 and words in out.output and len(out.output.strip().splitlines()) == 1, out.output
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--alpha", "0.7"], "--alpha must be an error rate"),
        (["--scheduler", "tcp://127.0.0.1:9"], "--backend dask"),
        (["--timeout", "0"], "--timeout must be a positive"),
        (["--max-pairs", str(10**12)], "pairs a run may hold"),
        (["--seed", str(2**63 - 5)], "passes 2**63-1"),
        (["--bot", "RANDOM"], "exactly two bots"),
    ],
)
def test_bad_sprt_arguments_are_one_line(tmp_path, argv, words):
    out = run("sprt", "--bot", "GREEDY", "--bot", "KADO", "--elo0", 0, "--elo1", 20, "--out", tmp_path / "x", *argv)
    assert out.exit_code != 0 and words in out.output and len(out.output.strip().splitlines()) == 1, out.output


SLOW = ["--bot", "GREEDY+KADO", "--bot", "KADO+GREEDY", "--elo0", "-10", "--elo1", "10", "--max-pairs", "160"]


def test_killed_sprt_resumes_to_the_same_json(tmp_path):
    """A real process on a terminal (its LLR progress line shows it): killed with its workers once a
    batch is stored, then rerun; the JSON equals an uninterrupted test's."""
    base = ["sprt", *SLOW, "--seed", "3", "-w", "1", "--json"]
    whole = run(*base, "--out", tmp_path / "whole")
    assert whole.exit_code == 0, whole.output
    want = json.loads(whole.output)
    assert want["pairs"] > 40  # several batches, so that the kill lands inside the test

    directory = tmp_path / "killed"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tekkasim", *base, "--out", str(directory)],
        stdout=subprocess.PIPE,
        stderr=slave,
        start_new_session=True,  # its own process group: the kill takes the workers too
        cwd=ROOT,
        env=env,
    )
    os.close(slave)
    shown, deadline = b"", time.monotonic() + 180
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    shown += os.read(master, 4096)
                except OSError:
                    break
            if any(int(n) > 0 for n in re.findall(rb"pairs +(\d+)", shown)):
                break
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        os.close(master)
    assert re.search(rb"\rpairs +\d+ .*LLR", shown), shown[-300:]
    assert proc.returncode == -signal.SIGKILL, "the test ended before it was killed"

    resumed = run(*base, "--out", directory)
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.output) == want


def test_sprt_on_the_dask_backend_gives_the_local_result(tmp_path):
    pytest.importorskip("distributed")
    args = ["sprt", "--bot", "GREEDY", "--bot", "KADO", "--elo0", 0, "--elo1", 40, "--seed", 11, "--max-pairs", 300]
    local = run(*args, "-w", 1, "--json", "--out", tmp_path / "l")
    dask = run(*args, "-w", 2, "--json", "--backend", "dask", "--out", tmp_path / "d")
    assert local.exit_code == 0 and dask.exit_code == 0, dask.output
    assert json.loads(dask.output.strip().splitlines()[-1]) == json.loads(local.output)


def test_a_hanging_bot_meets_the_watchdog_in_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # where `tests.` imports from
    monkeypatch.setenv("TEKKASIM_TEST_MISBEHAVE", "1")
    t0 = time.monotonic()
    out = run(
        "sprt", "--bot", "tests.tournament_bots:Hang", "--bot", "tests.tournament_bots:Lowest",
        "--elo0", 0, "--elo1", 10, "-w", 1, "--timeout", 2, "--out", tmp_path / "h",
    )  # fmt: skip
    assert out.exit_code != 0 and "watchdog: no progress for 2 s" in out.output and "HANG" in out.output
    assert len(out.output.strip().splitlines()) == 1 and time.monotonic() - t0 < 60
