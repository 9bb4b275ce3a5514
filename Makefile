# Every target sets itself up: a fresh machine needs only Python 3.11 and access to PyPI.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := test
.PHONY: test run bench bench-bots lint typecheck clean install

# Create the virtual environment (once).
$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "error: python3.11 (or python3) not found on PATH" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

# Install the project with dev extras; redone only when pyproject.toml changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts

typecheck: $(STAMP)
	$(BIN)/mypy src

# The browser tests drive Debian's Chromium (installed with apt when missing).
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/mypy src
	DOMINARI_CHROMIUM="$$(scripts/ensure-chromium.sh)" && export DOMINARI_CHROMIUM && \
		$(BIN)/pytest -n 2

run: $(STAMP)
	$(BIN)/dominari serve

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/dominations.py
	$(BIN)/python benchmarks/kingdom_bots.py
	$(BIN)/python benchmarks/kingdom_bots.py --seats 3
	$(BIN)/python benchmarks/kingdom_bots.py --seats 4
	$(BIN)/python benchmarks/scale.py
	$(BIN)/python benchmarks/ratings.py
	$(BIN)/python benchmarks/server_load.py

# The search bots' matches (issue 6's goals): 1,000 games each, hours on 2 cores.
bench-bots: $(STAMP)
	$(BIN)/python benchmarks/bots.py

clean:
	rm -rf $(VENV) .bench-venv build dist .mypy_cache .ruff_cache .pytest_cache .hypothesis
	rm -rf src/*.egg-info
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
