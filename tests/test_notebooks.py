"""The notebooks must run as shipped: their code cells are executed in order (no Jupyter needed).

``*.ipynb`` notebooks are read as JSON; the plain-text jupytext notebooks (``*.py``, percent format:
cells are ``# %%`` comments, so the file is plain Python) run whole, at the small sizes that
``TEKKASIM_NOTEBOOK_SMALL=1`` selects.
"""

import json
import os
import runpy
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
HERE = Path(__file__).parent.parent / "notebooks"
NOTEBOOKS = sorted(HERE.glob("*.ipynb"))
TEXT_NOTEBOOKS = sorted(HERE.glob("*.py"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path):
    cells = json.loads(path.read_text())["cells"]
    namespace: dict = {}
    for cell in cells:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path.name}", "exec"), namespace)


@pytest.mark.parametrize("path", TEXT_NOTEBOOKS, ids=[p.name for p in TEXT_NOTEBOOKS])
def test_text_notebook_runs(path, monkeypatch):
    text = path.read_text()
    assert text.startswith("# ---\n# jupyter:") and "# %%" in text  # jupytext percent format
    monkeypatch.setenv("TEKKASIM_NOTEBOOK_SMALL", "1")
    assert os.environ["TEKKASIM_NOTEBOOK_SMALL"] == "1"
    runpy.run_path(str(path), run_name="__notebook__")
    import matplotlib.pyplot as plt

    plt.close("all")
