"""``tekkasim table``: a person plays through a pipe; the saved records pass verify; bad entries are asked
again; leaving the table is one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tekkasim.verify import verify_record

ROOT = Path(__file__).resolve().parents[1]


def sit(tmp_path, args, lines, out=None, env=None, data=None):
    """``tekkasim table`` with ``lines`` typed (or the bytes ``data``); its result and records file."""
    out = out or tmp_path / "deals.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "tekkasim", "table", *args, "--out", str(out)],
        input=data if data is not None else "".join(line + "\n" for line in lines).encode(),
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=300,
    )
    done.stdout, done.stderr = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
    return done, out


@pytest.mark.parametrize("ruleset", ["feskot", "tekka", "satat", "shengji"])
def test_a_person_plays_a_deal_in_every_ruleset_and_the_record_verifies(tmp_path, ruleset):
    done, out = sit(
        tmp_path, ["-r", ruleset, "-b", "GREEDY", "--seed", "3"], ["?", "no such card", "10"] + ["#1"] * 120
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "your hand:" in text and "your turn:" in text and "score:" in text
    assert "Type one of the actions listed" in text  # help
    assert "'no such card' is not an action you can take now" in text  # asked again
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 1 and not records[0].get("unfinished")
    assert records[0]["bots"]["bottom"] == "PERSON" and records[0]["bots"]["top"] == "GREEDY"
    assert verify_record(records[0]).ok


def test_the_shengji_dealer_is_told_the_kitty_and_how_many_cards_to_bury(tmp_path):
    done, out = sit(tmp_path, ["-r", "shengji", "-b", "GREEDY", "--seed", "3"], ["#1"] * 60)
    assert done.returncode == 0, done.stderr
    kitty = json.loads(out.read_text())["kitty"]
    text = done.stdout  # seed 3: bottom, the person, deals and takes the kitty
    assert len(kitty) == 8 and f"kitty taken: {' '.join(kitty)}   buried: -   bury 8 more" in text
    assert "bury 1 more" in text and "bury 0 more" not in text
    assert "you buried: " in text  # in the play, the dealer sees what it buried


def test_the_person_plays_what_they_type(tmp_path):
    """Typed cards (any case, 10 for T) are the plays of the record."""
    done, out = sit(tmp_path, ["-r", "tekka", "-b", "RANDOM", "--seed", "5", "--seat", "top"], ["#1"] * 200)
    assert done.returncode == 0, done.stderr
    first = json.loads(out.read_text())
    # replay with the same seats but the person typing the lowest card by name, in lower case
    from tekkasim.rules import get_game

    state, texts = get_game("tekka").from_record(first)
    typed = []
    for text in texts:
        if state.current_player() == 2:
            typed.append(text.lower().replace("t", "10", 1) if text[0] == "T" and len(text) == 2 else text.lower())
        state.apply_action(state.string_to_action(text))
    again, out2 = sit(tmp_path, ["-r", "tekka", "-b", "RANDOM", "--seed", "5", "--seat", "top"], typed)
    assert again.returncode == 0, again.stderr
    assert json.loads(out2.read_text())["tricks"] == first["tricks"]


def test_leaving_the_table_is_one_line_and_keeps_the_deal_so_far(tmp_path):
    done, out = sit(tmp_path, ["-r", "feskot", "-b", "TANA", "--seed", "1"], ["#1"] * 3)
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [done.stderr.strip()] and "left the table" in done.stderr
    record = json.loads(out.read_text())
    assert record["unfinished"] and verify_record(record).ok


def test_ctrl_c_at_the_table_is_one_line_saying_where_the_deal_so_far_is(tmp_path):
    """Not the tournament's "run the same command again": that would deal again and overwrite the file."""
    out = tmp_path / "deals.jsonl"
    p = subprocess.Popen(
        [sys.executable, "-m", "tekkasim", "table", "-r", "tekka", "-b", "GREEDY", "--seed", "3", "--out", str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        start_new_session=True,  # its own process group, as a terminal's foreground job, for the SIGINT below
    )
    shown, prompts = b"", 0
    while prompts < 2:  # the second prompt: one entry played
        chunk = os.read(p.stdout.fileno(), 1 << 16)
        assert chunk, p.stderr.read()
        shown += chunk
        if shown.endswith(b"> "):
            prompts += 1
            p.stdin.write(b"#1\n")
            p.stdin.flush()
            shown = b""
    os.killpg(p.pid, signal.SIGINT)
    assert p.wait(timeout=60) == 130
    err = p.stderr.read().decode().strip()
    assert err.splitlines() == [err] and "left the table" in err and str(out) in err, err
    record = json.loads(out.read_text())
    assert record["unfinished"] and verify_record(record).ok


def test_bad_table_arguments_are_one_line(tmp_path):
    for args in (["-b", "GREEDY,RANDOM"], ["-b", "NOBODY"], ["--seat", "north"], ["-r", "bridge"]):
        done, _ = sit(tmp_path, args, [])
        assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1, (args, done.stderr)


def test_entries_the_terminal_cannot_read_are_asked_again_and_suits_it_cannot_show_are_letters(tmp_path):
    """Bytes that are not text in the terminal's encoding (strict UTF-8 here) are an entry like any other
    the table does not take; an output that cannot encode the suit symbols (ASCII) gets their letters. The
    table plays on to the end either way, and the records file's missing directory is made."""
    bad = b"\xff\xfe\n" + b"#1\n" * 120
    done, out = sit(
        tmp_path, ["-r", "feskot", "-b", "GREEDY", "--seed", "3"], [], env={"PYTHONIOENCODING": "utf-8"}, data=bad
    )
    assert done.returncode == 0, done.stderr
    assert "is not an action you can take now" in done.stdout and verify_record(json.loads(out.read_text())).ok
    deeper = tmp_path / "new" / "dir" / "deals.jsonl"
    done, out = sit(
        tmp_path,
        ["-r", "tekka", "-b", "GREEDY", "--seed", "3"],
        ["#1"] * 120,
        out=deeper,
        env={"PYTHONIOENCODING": "ascii"},
    )
    assert done.returncode == 0, done.stderr
    assert "your hand: S " in done.stdout and "Prime: " in done.stdout and "\u2660" not in done.stdout
    assert verify_record(json.loads(deeper.read_text())).ok
