"""``tekkasim dd``: the trick table from hands given as options and from record files, and its errors."""

import json
import random

import pytest
from click.testing import CliRunner

from tekkasim.cards import SEATS, SUITS, card_name
from tekkasim.cli.dd import dd
from tekkasim.records import write_records
from tekkasim.reference import dd as ref
from tekkasim.solver.dd import Solver

HANDS = ["--bottom", "AS 2H", "--right", "3H 4H", "--top", "KS QS", "--left", "5H 6H"]


def run(*args):
    return CliRunner().invoke(dd, list(args))


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
        (["--bottom", "AS 2C", "--right", "KS", "--top", "QS", "--left", "JS"], "same number of cards"),
        (["--bottom", "AS", "--right", "KS", "--top", "QS"], "missing: --left"),
        (["--bottom", "ZZ", "--right", "KS", "--top", "QS", "--left", "JS"], "--bottom: malformed card"),
        ([*HANDS, "--trump", "X"], "unknown suit"),
        ([*HANDS, "--leader", "north"], "unknown seat"),
        ([*HANDS, "--from-trick", "3"], "needs a record file"),
        (["no-such-file.jsonl"], "no such file"),
    ],
)
def test_bad_input_is_one_line(args, words):
    r = run(*args)
    assert r.exit_code != 0
    assert words in r.output and len(r.output.strip().splitlines()) == 1


def test_bad_records(tmp_path):
    rec, *_ = random_record(random.Random(1), "feskot", n_tricks=2)
    cases = {
        "shengji": rec | {"ruleset": "shengji"},
        "no 'left' hand": rec | {"hands": {k: v for k, v in rec["hands"].items() if k != "left"}},
        "holds only 2 tricks": rec,
        "missing field 'first'": {k: v for k, v in rec.items() if k != "first"},
    }
    for words, bad in cases.items():
        path = tmp_path / "bad.jsonl"
        write_records(path, [bad])
        r = run(str(path), "--from-trick", "4" if "tricks" in words else "2")
        assert r.exit_code != 0 and words in r.output and "record 0" in r.output, (words, r.output)
    path = tmp_path / "junk.jsonl"
    path.write_text("{not json\n")
    r = run(str(path))
    assert r.exit_code != 0 and "not valid JSON" in r.output
