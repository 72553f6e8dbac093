"""``tekkasim dd``: the trick table from hands given as options and from record files, and its errors."""

import json
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner

from tekkasim.cards import SEATS, SUITS, card_name
from tekkasim.cli.dd import dd
from tekkasim.records import write_records
from tekkasim.reference import dd as ref
from tekkasim.solver.dd import Solver

HANDS = ["--bottom", "AS 2H", "--right", "3H 4H", "--top", "KS QS", "--left", "5H 6H"]


def run(*args, input=None):
    return CliRunner().invoke(dd, list(args), input=input)


def test_table_from_hands_text_and_json():
    r = run(*HANDS)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[1].split() == ["trump", "bottom", "right", "top", "left"]
    assert [ln.split()[0] for ln in lines[2:]] == ["S", "H", "D", "C"]
    r = run(*HANDS, "--json")
    obj = json.loads(r.output)
    assert obj["index"] == 0 and list(obj["tricks"]) == ["S", "H", "D", "C"]
    # no trump decides here: bottom cashes A♠ (1 trick) when clubs or diamonds are trump
    assert obj["tricks"]["C"]["bottom"] == 1 and obj["tricks"]["D"]["bottom"] == 1
    # with spades trump, bottom's A♠ and top's K♠ Q♠ ruff hearts: everything for bottom's side
    assert obj["tricks"]["S"]["bottom"] == 2
    # hearts trump: left leads, right/left win both tricks (their hearts are high)
    assert obj["tricks"]["H"]["left"] == 2
    text_rows = {ln.split()[0]: [int(x) for x in ln.split()[1:]] for ln in lines[2:]}
    assert text_rows == {t: [obj["tricks"][t][s] for s in SEATS] for t in "SHDC"}


def test_trump_and_leader_restrict_the_table():
    r = run(*HANDS, "--json", "--trump", "H", "-t", "c", "--leader", "left")
    assert json.loads(r.output)["tricks"] == {"H": {"left": 2}, "C": {"left": 2}}  # left runs its hearts


def test_satat_rules_are_used_for_hands():
    args = ["--bottom", "AS", "--right", "4S", "--top", "3S", "--left", "2H", "--json", "-t", "S", "-l", "bottom"]
    assert json.loads(run(*args).output)["tricks"]["S"]["bottom"] == 1
    assert json.loads(run(*args, "--ruleset", "satat").output)["tricks"]["S"]["bottom"] == 0


def random_record(rnd, ruleset="feskot", n_tricks=13):
    """A 13-card deal with ``n_tricks`` random legal tricks, written as records.md wants."""
    deck = list(range(52))
    rnd.shuffle(deck)
    hands = [set(deck[13 * i : 13 * i + 13]) for i in range(4)]
    dealt = {SEATS[i]: [card_name(c) for c in deck[13 * i : 13 * i + 13]] for i in range(4)}
    trump = rnd.randint(0, 3)
    satat = ruleset == "satat"
    first = rnd.randint(0, 3)
    leader, tricks = first, []
    for _ in range(n_tricks):
        plays, seat, table = [], leader, []
        for _ in range(4):
            lead = ref.led_suit(table[0], trump, satat) if table else None
            c = rnd.choice(ref.legal(frozenset(hands[seat]), tuple(table), lead, satat))
            hands[seat].discard(c)
            table.append(c)
            plays.append((seat, c))
            seat = ref.next_seat(seat, satat)
        tricks.append([card_name(c) for c in table])
        leader = ref.trick_winner(plays, trump, satat)
    rec = {"format": 1, "ruleset": ruleset, "hands": dealt, "trump": SUITS[trump], "tricks": tricks}
    if satat:
        rec |= {"dealer": SEATS[(first + 1) % 4], "caller": SEATS[first]}
    else:
        rec["first"] = SEATS[first]
    return rec, hands, leader, trump


@pytest.mark.parametrize("ruleset", ["feskot", "satat"])
def test_from_trick_replays_the_record(tmp_path, ruleset):
    rnd = random.Random(3 if ruleset == "feskot" else 4)
    recs, expect = [], []
    for _ in range(3):
        rec, hands, leader, trump = random_record(rnd, ruleset, n_tricks=9)
        recs.append(rec)
        want = Solver(16).solve([sum(1 << c for c in h) for h in hands], trump, leader, (), ruleset)
        expect.append((SUITS[trump], SEATS[leader], want))
    path = tmp_path / "deals.jsonl.gz"
    write_records(path, recs)
    r = run(str(path), "--from-trick", "10", "--json")
    assert r.exit_code == 0, r.output
    got = [json.loads(line) for line in r.output.splitlines()]
    assert [o["index"] for o in got] == [0, 1, 2] and all(o["from_trick"] == 10 for o in got)
    assert [(t, s, o["tricks"][t][s]) for o, (t, s, _) in zip(got, expect, strict=True)] == expect


def test_full_deal_from_a_record_one_cell(tmp_path):
    rec, *_ = random_record(random.Random(9), "tekka", n_tricks=0)
    rec |= {"first": "left", "auction": ["pass", "9", "pass", "pass"]}
    path = tmp_path / "one.jsonl"
    write_records(path, [rec])
    r = run(str(path), "--json", "-t", "S", "-l", "bottom")
    assert r.exit_code == 0, r.output
    from tekkasim.cards import mask_of, parse_cards

    hands = [mask_of(parse_cards(rec["hands"][s])) for s in SEATS]
    assert json.loads(r.output)["tricks"]["S"]["bottom"] == Solver(18).solve(hands, 3, 0)


@pytest.mark.parametrize(
    "args, words",
    [
        (["--bottom", "AS AS", "--right", "KS", "--top", "QS", "--left", "JS"], "duplicate card AS"),
        (["--bottom", "AS", "--right", "KS", "--top", "QS", "--left", "AS"], "duplicate card AS"),
        (["--bottom", "AS 2C", "--right", "KS", "--top", "QS", "--left", "JS"], "hand sizes do not fit"),
        (["--bottom", "AS", "--right", "KS", "--top", "QS"], "missing: --left"),
        (["--bottom", "ZZ", "--right", "KS", "--top", "QS", "--left", "JS"], "--bottom: malformed card"),
        ([*HANDS, "--trump", "X"], "unknown suit"),
        ([*HANDS, "--leader", "north"], "unknown seat"),
        ([*HANDS, "--from-trick", "3"], "needs a record file"),
        ([*HANDS, "--deal", "2"], "--deal needs a record file"),
        (["x.jsonl", "--from-trick", "3", "--trump", "S"], "--trump cannot be given with it"),
        (["x.jsonl", "--from-trick", "3", "-l", "top", "-t", "H"], "--trump and --leader cannot be given with it"),
        (["x.jsonl", "--from-trick", "14"], "--from-trick must be 1..13"),
        (["x.jsonl", "--deal", "-1"], "--deal must be 0 or more"),
        (["no-such-file.jsonl"], "no such file"),
    ],
)
def test_bad_input_is_one_line(args, words):
    r = run(*args)
    assert r.exit_code != 0
    assert words in r.output and len(r.output.strip().splitlines()) == 1


def test_bad_records_are_one_line_each_and_the_file_goes_on(tmp_path):
    rec, *_ = random_record(random.Random(1), "feskot", n_tricks=2)
    illegal = json.loads(json.dumps(rec))
    illegal["tricks"][1][1] = illegal["tricks"][0][0]  # a card already played
    cases = {
        "not 'shengji'": rec | {"ruleset": "shengji"},
        "left": rec | {"hands": {k: v for k, v in rec["hands"].items() if k != "left"}},
        "the record stops after 2 tricks: no trick 4": rec,
        "first": {k: v for k, v in rec.items() if k != "first"},
        "trick 2, play 2": illegal,
    }
    path = tmp_path / "mixed.jsonl"
    write_records(path, [rec, *cases.values(), rec])
    r = run(str(path), "--from-trick", "4", "--json")
    assert r.exit_code == 1
    objs = [json.loads(line) for line in r.output.splitlines()]
    assert [o["index"] for o in objs] == list(range(7))
    assert "error" in objs[0] and "error" in objs[6]  # the good record is too short for trick 4 as well
    for o, words in zip(objs[1:6], cases, strict=True):
        assert words in o["error"], (words, o)
    r = run(str(path), "--from-trick", "3")
    assert r.exit_code == 1
    lines = r.output.splitlines()
    errors = [ln for ln in lines if ": error: " in ln]
    assert [ln.split(":")[0] for ln in errors] == ["deal 1", "deal 2", "deal 4", "deal 5"]  # deal 3 has 2 tricks
    for i in (0, 3, 6):
        assert sum(ln.startswith(f"deal {i} (feskot, from trick 3") for ln in lines) == 1


def test_unreadable_lines_are_errors_of_their_own(tmp_path):
    rec, *_ = random_record(random.Random(2), "satat", n_tricks=0)
    good = json.dumps(rec)
    deep = "[" * 100_000 + "]" * 100_000
    huge = '{"format": 1, "seed": ' + "7" * 5000 + "}"
    path = tmp_path / "junk.jsonl"
    path.write_text("\n".join([good, "{not json", deep, huge, "[1, 2]", good]) + "\n")
    r = run(str(path), "--json", "-t", "S", "-l", "bottom")
    assert r.exit_code == 1
    objs = [json.loads(line) for line in r.output.splitlines()]
    assert [o["index"] for o in objs] == [0, 1, 2, 3, 4, 5]
    assert [("error" in o) for o in objs] == [False, True, True, True, True, False]
    assert "not valid JSON" in objs[1]["error"]
    assert objs[0]["tricks"] == objs[5]["tricks"]


def test_empty_file_and_missing_deal_are_one_line_errors(tmp_path):
    for text in ("", "\n\n  \n"):
        path = tmp_path / "empty.jsonl"
        path.write_text(text)
        r = run(str(path))
        assert r.exit_code != 0 and "holds no records" in r.output and len(r.output.strip().splitlines()) == 1
    rec, *_ = random_record(random.Random(3), "feskot", n_tricks=0)
    path = tmp_path / "one.jsonl"
    write_records(path, [rec])
    r = run(str(path), "--deal", "1")
    assert r.exit_code != 0 and "has no deal 1" in r.output and len(r.output.strip().splitlines()) == 1
    r = run("-", input="")
    assert r.exit_code != 0 and "standard input holds no records" in r.output


def test_deal_picks_one_record_and_dash_reads_stdin(tmp_path):
    rnd = random.Random(4)
    recs = [random_record(rnd, rs, n_tricks=5)[0] for rs in ("feskot", "satat")]
    path = tmp_path / "three.jsonl"
    write_records(path, recs[:2])
    all_out = [json.loads(line) for line in run(str(path), "--json", "-t", "C").output.splitlines()]
    one = run(str(path), "--json", "-t", "C", "--deal", "1")
    assert one.exit_code == 0 and [json.loads(line) for line in one.output.splitlines()] == [all_out[1]]
    text = "\n".join(json.dumps(r) for r in recs[:2]) + "\n"
    piped = run("-", "--json", "-t", "C", input=text)
    assert piped.exit_code == 0 and [json.loads(line) for line in piped.output.splitlines()] == all_out
    gz = tmp_path / "three.jsonl.gz"
    write_records(gz, recs[:2])
    with gz.open("rb") as fh:  # a real pipe (CliRunner's stdin cannot peek at the gzip magic bytes)
        proc = subprocess.run(
            [sys.executable, "-m", "tekkasim", "dd", "-", "--json", "-t", "C"],
            stdin=fh,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 0 and [json.loads(line) for line in proc.stdout.splitlines()] == all_out


def test_from_trick_on_played_records_of_every_ruleset(tmp_path):
    """Records written by the rules engine after 16 random legal cards: ``--from-trick 5`` is the solver's
    count on the hands left, for the deal's trump and trick 5's leader, with the tricks won before it."""
    from tekkasim.rules import get_game

    rnd = random.Random(5)
    recs, want = [], []
    for name in ("feskot", "tekka", "satat"):
        game, seed, found = get_game(name), 0, 0
        while found < 2:
            seed += 1
            state, cards = game.new_deal(seed), 0
            while not state.is_terminal() and cards < 16:
                cards += state.phase() == "play"
                state.apply_action(rnd.choice(state.legal_actions()))
            if cards < 16 or state.is_terminal():
                continue
            found += 1
            recs.append(state.to_record())
            trump = state.troupe if name == "satat" else state.prime
            hands, leader = [state.hand(s) for s in range(4)], state.current_player()
            won = state.observation(0).public["won"]
            left = Solver(16).solve(hands, trump, leader, (), name)
            want.append(
                {
                    "index": len(want),
                    "tricks": {SUITS[trump]: {SEATS[leader]: left}},
                    "from_trick": 5,
                    "won": {"A": won[0], "B": won[1]},
                }
            )
    path = tmp_path / "played.jsonl"
    write_records(path, recs)
    r = run(str(path), "--from-trick", "5", "--json")
    assert r.exit_code == 0, r.output
    assert [json.loads(line) for line in r.output.splitlines()] == want
    assert all(sum(w["won"].values()) == 4 for w in want)


def test_readme_dd_examples_run_as_written(tmp_path, monkeypatch):
    import pathlib
    import shlex

    from tekkasim.cli import cli

    readme = (pathlib.Path(__file__).resolve().parents[1] / "README.md").read_text()
    lines, joined = [], ""
    for line in readme.splitlines():
        joined += line.rstrip("\\").rstrip() + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            lines.append(joined.split("  #")[0].strip())
            joined = ""
    commands = [shlex.split(ln)[1:] for ln in lines if ln.startswith("tekkasim ")]
    dd_commands = [c for c in commands if c[0] == "dd"]
    assert len(dd_commands) >= 1
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for c in commands:  # the records the dd examples read come from the README's own play line
        if c[0] == "play" and any("runs/" in a for a in c):
            assert runner.invoke(cli, c).exit_code == 0
    for c in dd_commands:
        r = runner.invoke(cli, c)
        assert r.exit_code == 0, (c, r.output)
        assert "tricks of the leader's side" in r.output
