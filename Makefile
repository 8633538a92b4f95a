# The two commands a newcomer needs: `make run` and `make test`. Each sets up what it needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT    ?= 5006
ADDRESS ?= 127.0.0.1

.PHONY: run test browser-deps bench export

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/attention-viz serve --port $(PORT) --address $(ADDRESS)

test: $(STAMP) browser-deps
	$(BIN)/python -m pytest $(PYTEST_ARGS)

browser-deps:
	@bash scripts/ensure-browser.sh

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

export: $(STAMP)
	$(BIN)/attention-viz export attention-explorer.html
