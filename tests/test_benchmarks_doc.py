"""`python -m benchmarks --doc`: each module's rows become one Markdown section, rewritten in place on the
next run while the other modules' sections and the file's head stay as they were."""

import subprocess
import sys

from benchmarks.__main__ import doc_section, write_doc

ROWS = [
    {"name": "a loop", "value": 123456.0, "unit": "deals/s"},
    {"name": "the runner", "value": 0.5, "unit": "s", "reference": "a loop", "ratio": 1.0412, "goal": "< 1.10"},
]


def test_sections_replaced_in_place_and_others_kept(tmp_path):
    doc = tmp_path / "bench.md"
    write_doc(doc, {"bench_x": doc_section("bench_x", ROWS, "cmd x", "2026-01-01 00:00", (0.0, 1.0), 3.0)})
    write_doc(doc, {"bench_y": doc_section("bench_y", ROWS[:1], "cmd y", "2026-01-02 00:00", (0.5, 0.5), 9.0)})
    first = doc.read_text()
    assert first.startswith("# Benchmarks")
    assert "| a loop | 123,456 | deals/s |" in first
    assert "| the runner | 0.5 | s | 1.041 vs a loop | < 1.10 |" in first
    assert first.index("## x") < first.index("## y")
    write_doc(doc, {"bench_x": doc_section("bench_x", ROWS[:1], "cmd x2", "2026-01-03 00:00", (2.0, 2.0), 4.0)})
    second = doc.read_text()
    assert "cmd x2" in second and "cmd x`" not in second and "the runner" not in second
    assert second.index("## x") < second.index("## y")  # rewritten where it was
    assert second.count("bench:bench_x:begin") == 1 and "cmd y" in second


def test_unknown_module_and_unwritable_doc_are_one_line():
    for args in (["nosuch"], ["engine", "--doc", "/nonexistent-dir/bench.md"]):
        run = subprocess.run([sys.executable, "-m", "benchmarks", *args], capture_output=True, text=True)
        assert run.returncode == 2
        assert run.stderr.count("\n") == 1 and run.stderr.startswith("error: ")


def test_new_sections_go_above_the_history(tmp_path):
    doc = tmp_path / "bench.md"
    doc.write_text("# Benchmarks\n\n## Earlier measurements\n\nby hand\n")
    write_doc(doc, {"bench_x": doc_section("bench_x", ROWS, "cmd x", "2026-01-01 00:00", (0.0, 1.0), 3.0)})
    text = doc.read_text()
    assert text.index("## x") < text.index("## Earlier measurements") and text.endswith("by hand\n")
