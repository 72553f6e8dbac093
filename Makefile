# Everything a fresh machine with only Python needs: `make run` and `make test` create .venv on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test bench experiments lint format clean-cache clean

# uv installs the wheels in parallel: a clean clone's install takes ~12 s instead of pip's ~28 s (same
# versions resolved). If uv cannot be had, pip does it; --no-compile skips byte-compiling every package
# (half of pip's CPU), Python compiles what it imports on first use.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	( $(PY) -m pip install -q uv && $(PY) -m uv pip install -q --python $(PY) -e '.[dev,bench]' ) \
		|| $(PY) -m pip install -q --no-compile -e '.[dev,bench]'
	touch $(STAMP)

# The main job: a small duplicate round robin on Feskot of every bot but ORACLE (runs.md), resumable in
# RUN_DIR; prints the Elo table, writes plots, a summary and the deal records beside the run.
RUN_DIR ?= runs/feskot-ladder
RUN_BOTS ?= RANDOM,GREEDY,KADO,POCHAQ,PUCHOQ,SADA,TANA,JANGARA,TANOOR,TIZAB,ZELZELA
RUN_BOARDS ?= 16
run: $(STAMP)
	$(PY) -m tekkasim tournament --ruleset feskot --bots $(RUN_BOTS) --boards $(RUN_BOARDS) --seed 2026 --out $(RUN_DIR)
	$(PY) -m tekkasim report $(RUN_DIR) --json --plots $(RUN_DIR)/plots > $(RUN_DIR)/report.json
	$(PY) -m tekkasim export $(RUN_DIR) --out $(RUN_DIR)/records.jsonl.gz
	@echo "report: $(RUN_DIR)/plots/summary.md (PNGs beside it), $(RUN_DIR)/report.json; records: $(RUN_DIR)/records.jsonl.gz"

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
