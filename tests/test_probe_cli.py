"""Issue 39, the new-user probe: command-line cases a new user met (bad input is one line and a non-zero
exit, before any work; nothing is lost; nothing is left behind)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


def cli(*args, cwd=None, env=None, stdin: str | bytes = b"", timeout=600):
    done = subprocess.run(
        [PY, "-m", "tekkasim", *map(str, args)],
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=timeout,
    )
    done.stdout, done.stderr = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
    return done


def one_line_error(done, *words) -> None:
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    for w in words:
        assert w in done.stderr, done.stderr


def test_table_out_gz_is_gzipped_and_verifies(tmp_path):
    out = tmp_path / "t.jsonl.gz"
    done = cli("table", "-b", "RANDOM", "--seed", "3", "--out", out, stdin="#1\n" * 40)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:2] == b"\x1f\x8b"
    records = [json.loads(line) for line in gzip.open(out, "rt")]
    assert len(records) == 1 and not records[0].get("unfinished")
    checked = cli("verify", out)
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize(
    "text, words",
    [("[1, 2]", "a JSON list"), ('{"rulesets": 5}', "'rulesets' is not an object"), ('{"a": 1}', "no 'rulesets'")],
)
def test_levels_table_refuses_a_json_file_of_another_shape_before_playing(tmp_path, text, words):
    out = tmp_path / "f.json"
    out.write_text(text)
    done = cli("levels", "table", "--pairs", "2", "--search-pairs", "2", "--points", "0", "--out", out)
    one_line_error(done, "is not a LEVEL table", words)
    assert " vs " not in done.stderr  # refused before any pair was played
    assert out.read_text() == text


def test_blunders_doc_is_checked_before_the_work(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    done = cli("blunders", "--bot", "KADO", "--deals", "1", "--doc", blocker / "x.md")
    one_line_error(done, "--doc")
    assert "deals" not in done.stderr  # refused before any deal was priced


def test_blunders_doc_refuses_a_foreign_markdown_file(tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# My notes\n\nNothing about blunders here.\n")
    done = cli("blunders", "--bot", "KADO", "--deals", "1", "--doc", notes)
    one_line_error(done, "--doc", "not a blunders doc")
    assert "deals" not in done.stderr
    assert notes.read_text() == "# My notes\n\nNothing about blunders here.\n"


def test_blunders_doc_writes_its_own_file_again_and_leaves_no_lock_file(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    doc = tmp_path / "b.md"
    for _ in range(2):  # a file it made is its own kind of doc
        done = cli("blunders", "--bot", "KADO", "--deals", "1", "--doc", doc, env={"TMPDIR": str(tmp)})
        assert done.returncode == 0, done.stderr
        assert "<!-- blunders:feskot:begin" in doc.read_text()
    assert list(tmp.glob("tekkasim-blunders-*.lock")) == []
    shipped = tmp_path / "shipped.md"  # docs/blunders.md, the doc the option is for
    shipped.write_text((ROOT / "docs" / "blunders.md").read_text())
    done = cli("blunders", "--bot", "KADO", "--deals", "1", "--doc", shipped, "--doc-key", "probe")
    assert done.returncode == 0, done.stderr
    assert "<!-- blunders:probe-feskot:begin" in shipped.read_text()


def test_an_interrupted_round_robin_names_how_to_rate_each_group_and_report_bots_does(tmp_path):
    bot = tmp_path / "broken.py"
    bot.write_text(
        "from tekkasim.bots import Bot\n\n\nclass Broken(Bot):\n    name = 'BROKEN'\n    params_spec = ()\n\n"
        "    def act(self, view, rng):\n        raise RuntimeError('broken')\n"
    )
    out = "run"  # relative (cwd tmp_path): the command in the one line is short enough not to be cut
    bots = f"GREEDY,RANDOM,{bot}:Broken"
    done = cli("tournament", "-b", bots, "-n", "2", "--block", "2", "-w", "1", "-q", "-O", out, cwd=tmp_path)
    assert done.returncode != 0  # stopped by BROKEN, with GREEDY vs RANDOM stored
    done = cli("report", out, cwd=tmp_path)
    one_line_error(done, "groups that never met", f"tekkasim report {out} --bots GREEDY,RANDOM")
    done = cli("report", out, "--bots", "GREEDY,RANDOM", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "GREEDY" in done.stdout and "BROKEN" not in done.stdout
    one_line_error(cli("report", out, "--bots", "GREEDY,NOPE", cwd=tmp_path), "NOPE", "did not play")


def test_leaving_the_table_says_where_the_unfinished_deal_was_saved(tmp_path):
    out = tmp_path / "t.jsonl"  # given as t.jsonl (cwd tmp_path): the path in the one line is not cut
    eof = cli("table", "-b", "RANDOM", "--seed", "3", "--out", "t.jsonl", stdin="#1\n", cwd=tmp_path)
    one_line_error(eof, "left the table", "saved in t.jsonl", "unfinished")
    assert json.loads(out.read_text())["unfinished"] is True
    out.unlink()
    quit_ = cli("table", "-b", "RANDOM", "--seed", "3", "--out", "t.jsonl", stdin="#1\nquit\n", cwd=tmp_path)
    assert quit_.returncode == 0, quit_.stderr
    assert "you left the table (quit); what was played is saved in t.jsonl" in quit_.stdout
    assert json.loads(out.read_text())["unfinished"] is True


def test_a_bad_entry_at_the_table_is_echoed_cut(tmp_path):
    done = cli("table", "-b", "RANDOM", "--seed", "3", "--out", tmp_path / "t.jsonl", stdin="x" * 200_000 + "\n")
    line = next(x for x in done.stdout.splitlines() if "is not an action" in x)
    assert len(line) < 160 and "..." in line


@pytest.mark.parametrize(
    "args",
    [
        ["table", "-b", "RANDOM", "--out", "-"],
        ["calibrate", "--bots", "KADO", "--out", "-"],
        ["levels", "table", "--out", "-"],
        ["levels", "check", "--out", "-"],
        ["blunders", "--bot", "KADO", "--doc", "-"],
        ["export", "RUN", "--csv", "-"],
        ["tournament", "-b", "GREEDY,RANDOM", "-n", "1", "--out", "-"],
    ],
)
def test_a_dash_for_an_output_that_cannot_be_standard_output_is_refused(tmp_path, args):
    if "RUN" in args:
        run = tmp_path / "run"
        assert cli("tournament", "-b", "GREEDY,RANDOM", "-n", "1", "-q", "-O", run).returncode == 0
        args = [str(run) if a == "RUN" else a for a in args]
    done = cli(*args, cwd=tmp_path)
    one_line_error(done, "standard output")
    assert not (tmp_path / "-").exists()


def test_sprt_refuses_a_reused_directory_naming_its_own_options(tmp_path):
    out = tmp_path / "s"
    base = ["sprt", "--elo0", "0", "--elo1", "50", "-w", "1", "-q", "-O", out]
    assert cli(*base, "--bot", "GREEDY", "--bot", "RANDOM", "--max-pairs", "4").returncode == 0
    for extra, words in (
        (["--bot", "RANDOM", "--bot", "GREEDY", "--max-pairs", "4"], "--bot"),
        (["--bot", "KADO", "--bot", "RANDOM", "--max-pairs", "4"], "--bot"),
        (["--bot", "GREEDY", "--bot", "RANDOM", "--max-pairs", "2"], "--max-pairs"),
        (["--bot", "GREEDY", "--bot", "RANDOM", "--max-pairs", "4", "--seed", "5"], "--seed"),
        (["--bot", "GREEDY", "--bot", "RANDOM", "--max-pairs", "4", "-r", "tekka"], "--ruleset"),
        (["--bot", "GREEDY", "--bot", "RANDOM", "--max-pairs", "4", "-o", "play_out=true"], "--option play_out"),
    ):
        done = cli(*base, *extra)
        one_line_error(done, words, "use another --out DIR")
        for field in ("boards", "teams", "options."):
            assert f"{field}:" not in done.stderr and f"({field}" not in done.stderr, done.stderr


def test_level_ranges_are_shown_per_ruleset_and_named_in_a_refusal():
    from tekkasim.bots.level import elo_range, entry_for

    lo, hi = elo_range(entry_for("tekka"))
    shown = f"tekka {lo:.0f} .. {hi:.0f}"
    listing = cli("bots")
    assert listing.returncode == 0 and shown in listing.stdout, listing.stdout
    done = cli("tournament", "-r", "tekka", "-b", "LEVEL:elo=600,RANDOM", "-n", "1")
    one_line_error(done, "LEVEL", "tekka", f"{lo:.0f} .. {hi:.0f}", "tekkasim bots")


def test_calibrate_out_refuses_a_foreign_file(tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# My notes\n")
    done = cli("calibrate", "--bots", "KADO", "--pairs", "2", "--out", notes)
    one_line_error(done, "--out", "not a calibration")
    assert " vs " not in done.stderr and notes.read_text() == "# My notes\n"
