# Everything a fresh machine with only Python needs: `make run` and `make test` create .venv on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test bench experiments lint format clean-cache clean

# uv installs the wheels in parallel, faster than pip (same versions resolved). If uv cannot be had, pip does
# it; --no-compile skips byte-compiling every package (much of pip's CPU), Python compiles what it imports on
# first use.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	( $(PY) -m pip install -q uv && $(PY) -m uv pip install -q --python $(PY) -e '.[dev,bench]' ) \
		|| $(PY) -m pip install -q --no-compile -e '.[dev,bench]'
	touch $(STAMP)

# The main job (`tekkasim run`, tekkasim/analysis/ladder.py): every bot of the Feskot ladder in one Elo table
# against RANDOM, from a round robin of the heuristic ladder on many boards and the search tier at a time
# budget a decision on fewer; resumable in RUN_DIR, with report.json, plots/ and records.jsonl.gz beside the
# runs. Its time and table on this machine: docs/make-run.md (`tekkasim run --doc docs/make-run.md`).
RUN_DIR ?= runs/ladder
RUN_ARGS ?=
run: $(STAMP)
	$(PY) -m tekkasim run --out $(RUN_DIR) $(RUN_ARGS)

# Both cores (pytest-xdist); tests/conftest.py first compiles numba's cache in two processes
# (tekkasim.bots.warm) so that the test workers load it instead of each compiling it. Then the Spades
# plug-in's own tests (examples/spades: its rules, and every generic command through its entry point).
test: $(STAMP)
	$(PY) -m pytest -n auto tests tekkasim
	cd examples/spades && ../../$(PY) -m pytest -n auto tests

bench: $(STAMP)
	$(PY) -m benchmarks --doc docs/benchmarks.md

# The studies of experiments/studies/*.toml at small sizes; tables and plots under runs/experiments/ (git-ignored).
# Full sizes: $(PY) experiments/run.py --full [STUDY ...]
experiments: $(STAMP)
	$(PY) experiments/run.py

lint: $(STAMP)
	$(PY) -m ruff check tekkasim tests benchmarks experiments notebooks

# ruff's formatter, configured in pyproject.toml ([tool.ruff.format]); `make lint` checks the rest.
format: $(STAMP)
	$(PY) -m ruff format tekkasim tests benchmarks experiments notebooks

# numba's cache does not notice edits to globals or to other modules; importing tekkasim clears it when
# any of its sources changed (tekkasim/_numba_cache.py). This clears it by hand.
clean-cache:
	find tekkasim -name '*.nbi' -delete -o -name '*.nbc' -delete

clean: clean-cache
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
