"""The README a newcomer reads in five minutes: the two commands first, at most 120 lines, and no measured
figure outside the block that ``tekkasim run`` generates (figures live in generated docs/ files)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_is_short_and_starts_with_the_two_commands():
    lines = README.read_text().splitlines()
    assert len(lines) <= 120
    head = "\n".join(lines[:6])
    assert "make run" in head and "make test" in head


def test_no_measured_figure_outside_the_generated_table():
    text = README.read_text()
    start, end = text.index("<!-- make-run:begin"), text.index("<!-- make-run:end -->")
    prose = text[:start] + text[end:]
    # timings, ratios and Elo values: "12 s", "1.9x", "+30 Elo", "3 min"
    figures = re.findall(r"\b\d+(?:\.\d+)?\s?(?:s|min|ms a deal|x|×|Elo)\b", prose)
    assert figures == []
