import gzip

import pytest

from tekkasim.errors import RecordError
from tekkasim.records import iter_records, read_records, require, write_records
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


@pytest.mark.parametrize("record,message", [
    ({"format": 2, "ruleset": "feskot"}, "unsupported format"),
    ({"format": 1}, "missing field 'ruleset'"),
    ({"format": 1, "ruleset": "bridge"}, "unknown ruleset 'bridge'"),
    ({"format": 1, "ruleset": "feskot", "options": []}, "'options' must be an object"),
    ({"format": 1, "ruleset": "feskot", "options": {"colour": 1}}, "unknown option 'colour'"),
])
def test_verify_header_errors(record, message):
    verdict = verify_record(record, 3)
    assert not verdict.ok and message in verdict.error and verdict.index == 3


def test_verify_file_reports_corrupt_lines(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"format": 1, "ruleset": "nope"}\nnot json\n')
    verdicts = list(verify_file(path))
    assert [v.ok for v in verdicts] == [False, False]
    assert "not valid JSON" in verdicts[1].error
