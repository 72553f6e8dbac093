"""Golden playthroughs: the same seeds give byte-identical records (see tests/golden/make_golden.py)."""

import gzip
import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("make_golden", Path(__file__).parent / "golden" / "make_golden.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)


@pytest.mark.parametrize("case", golden.CASES, ids=lambda c: golden.case_path(c[0], c[1]).stem)
def test_golden_playthrough(case):
    name, options, deals, seed = case
    with gzip.open(golden.case_path(name, options), "rt") as f:
        expected = f.read().splitlines()
    got = golden.golden_lines(name, options, deals, seed)
    assert len(got) == len(expected)
    for i, (a, b) in enumerate(zip(got, expected, strict=True)):
        assert a == b, f"{name} record {i} (seed {seed + i}) differs from the golden file"


@pytest.mark.parametrize("case", golden.KERNEL_CASES, ids=lambda c: c[0])
def test_golden_kernels(case):
    import json

    name, options, deals, seed = case
    expected = json.loads(golden.KERNEL_FILE.read_text())[f"{name}-{seed}"]
    assert golden.kernel_digests(name, options, deals, seed) == expected
