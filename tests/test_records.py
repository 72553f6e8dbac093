import gzip

import pytest

from tekkasim.errors import RecordError
from tekkasim.records import iter_records, read_records, require, write_records
from tekkasim.rules import get_game
from tekkasim.simulate import play_records
from tekkasim.verify import verify_file, verify_record

RECS = [{"format": 1, "ruleset": "feskot", "n": i, "name": "é♠"} for i in range(5)]


@pytest.mark.parametrize("name", ["deals.jsonl", "deals.jsonl.gz"])
def test_round_trip(tmp_path, name):
    path = tmp_path / "sub" / name
    assert write_records(path, iter(RECS)) == 5
    assert read_records(path) == RECS
    assert [p.name for p in path.parent.iterdir()] == [name]  # no temporary file left behind
    if name.endswith(".gz"):
        assert gzip.open(path).read().count(b"\n") == 5


def test_interrupted_write_leaves_no_file(tmp_path):
    path = tmp_path / "deals.jsonl"

    def gen():
        yield RECS[0]
        raise RuntimeError("writer died")

    with pytest.raises(RuntimeError):
        write_records(path, gen())
    assert list(tmp_path.iterdir()) == []


def test_bad_lines_are_reported_one_by_one(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": 1}\n\n[1, 2]\n{"format": 1, "ruleset"\n{"ok": true}\n')
    items = list(iter_records(path))
    assert [i for i, _ in items] == [0, 1, 2, 3]
    assert isinstance(items[0][1], dict) and isinstance(items[3][1], dict)
    assert "JSON object" in str(items[1][1]) and "line 3" in str(items[1][1])
    assert "not valid JSON" in str(items[2][1]) and "line 4" in str(items[2][1])
    with pytest.raises(RecordError, match="line 3"):
        read_records(path)


def test_truncated_gzip(tmp_path):
    path = tmp_path / "deals.jsonl.gz"
    write_records(path, RECS * 200)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    items = list(iter_records(path))
    assert isinstance(items[-1][1], RecordError) and "unreadable" in str(items[-1][1])
    assert all(isinstance(r, dict) for _, r in items[:-1])


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(RecordError, match="no such file"):
        list(iter_records(tmp_path / "nope.jsonl"))
    with pytest.raises(RecordError, match="directory"):
        list(iter_records(tmp_path))


def test_require():
    assert require({"a": 1}, "a", int) == 1
    with pytest.raises(RecordError, match="missing field 'b'"):
        require({"a": 1}, "b", int)
    with pytest.raises(RecordError, match="field 'a' must be int"):
        require({"a": True}, "a", int)


@pytest.mark.parametrize(
    "record,message",
    [
        ({"format": 2, "ruleset": "feskot"}, "unsupported format"),
        ({"format": 1}, "missing field 'ruleset'"),
        ({"format": 1, "ruleset": "bridge"}, "unknown ruleset 'bridge'"),
        ({"format": 1, "ruleset": "feskot", "options": []}, "'options' must be an object"),
        ({"format": 1, "ruleset": "feskot", "options": {"colour": 1}}, "unknown option 'colour'"),
    ],
)
def test_verify_header_errors(record, message):
    verdict = verify_record(record, 3)
    assert not verdict.ok and message in verdict.error and verdict.index == 3


def test_verify_file_reports_corrupt_lines(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"format": 1, "ruleset": "nope"}\nnot json\n')
    verdicts = list(verify_file(path))
    assert [v.ok for v in verdicts] == [False, False]
    assert "not valid JSON" in verdicts[1].error


# --- records that must be refused (and FESKOT, which must not) ------------------------------------------


def _feskot_record() -> dict:
    return next(play_records(get_game("feskot"), 1, 5))


@pytest.mark.parametrize(
    "change,message",
    [
        ({"format": None}, "missing field 'format'"),
        ({"format": True}, "must be the integer 1, not true"),
        ({"format": 1.0}, "must be the integer 1, not 1.0"),
        ({"format": "1"}, "must be the integer 1"),
        ({"unfinished": "yes"}, "'unfinished' must be true or false"),
        ({"unfinished": 0}, "'unfinished' must be true or false"),
        ({"seed": "abc"}, "field 'seed' must be int"),
        ({"seed": 2**64}, "'seed' must be an integer 0 .. 2**63-1"),
        ({"seed": -1}, "'seed' must be an integer 0 .. 2**63-1"),
        ({"deal_no": -3}, "'deal_no' must be an integer 0 or more"),
        ({"deal_no": 1.5}, "field 'deal_no' must be int"),
        ({"match": 7}, "'match' must be text"),
        ({"bots": ["x"]}, "'bots' must be an object"),
        ({"result": [1]}, "'result' must be an object"),
        ({"tricks": None}, "missing field 'tricks'"),
    ],
)
def test_mistyped_fields_are_refused(change, message):
    rec = _feskot_record()
    assert verify_record(rec).ok
    for key, value in change.items():
        if value is None:
            del rec[key]
        else:
            rec[key] = value
    verdict = verify_record(rec)
    assert not verdict.ok and message in verdict.error, verdict.error


def test_missing_tricks_is_not_a_short_deal():
    rec = _feskot_record()
    del rec["tricks"]
    error = verify_record(rec).error
    assert "missing field 'tricks'" in error and "before it is over" not in error


def test_ruleset_is_case_insensitive_as_on_the_command_line():
    rec = _feskot_record()
    for spelling in ("FESKOT", " Feskot "):
        assert verify_record(rec | {"ruleset": spelling}).ok


def _tekka_played_out() -> dict:
    """A Tekka record that is also a legal Feskot deal: bottom (first asked and declarer) holds every spade,
    bids 13 with spades as Prime and takes all 13 tricks."""
    suits = "SHDC"
    hands = {seat: [r + suits[i] for r in "AKQJT98765432"] for i, seat in enumerate(("bottom", "right", "top", "left"))}
    tricks = [[r + s for s in suits] for r in "AKQJT98765432"]
    rec = {
        "format": 1,
        "ruleset": "tekka",
        "first": "bottom",
        "hands": hands,
        "auction": ["13", "pass", "pass", "pass"],
        "trump": "S",
        "tricks": tricks,
    }
    verdict = verify_record(rec)
    assert verdict.ok, verdict.error
    return rec | {"result": verdict.result}


def test_foreign_result_fields_are_flagged():
    rec = _tekka_played_out()
    assert verify_record(rec).ok
    relabelled = rec | {"ruleset": "feskot"}
    verdict = verify_record(relabelled)
    assert not verdict.ok and "that a feskot result does not have" in verdict.error and "'declarer'" in verdict.error
    feskot_result = verify_record(relabelled | {"result": None}).result
    assert verify_record(relabelled | {"result": feskot_result}).ok
    partial = {"tricks": feskot_result["tricks"]}
    assert "result lacks 'winner'" in verify_record(relabelled | {"result": partial}).error


def test_result_values_compare_as_json():
    rec = _tekka_played_out()
    made_as_number = rec | {"result": rec["result"] | {"made": 1}}
    assert rec["result"]["made"] is True
    verdict = verify_record(made_as_number)
    assert not verdict.ok and "made: recorded 1, recomputed true" in verdict.error


def test_long_values_are_cut_in_verdicts():
    rec = _feskot_record()
    rec["tricks"][0][0] = "Q" * 10_000
    verdict = verify_record(rec)
    assert not verdict.ok and len(verdict.error) < 500 and "..." in verdict.error
