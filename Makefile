# The two commands a newcomer needs: `make run` and `make test`. Each sets up what it needs:
# `make run` only what running needs, `make test` the test tools and a browser too.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT    ?= 5006
ADDRESS ?= 127.0.0.1
# pip's own notices (a newer pip exists, an index location that is not there) are not ours to act on
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check

.PHONY: run test test-fast bundle browser-deps node-deps esbuild-deps a11y-deps deck-deps scorm-deps redis-deps nginx-deps bench export train

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# one stamp per set of extras, remade when pyproject.toml changes
$(VENV)/.installed-%: pyproject.toml | $(BIN)/python
	$(PIP) -e ".$(if $(filter run,$*),,[$*])"
	touch $@

run: $(VENV)/.installed-run
	$(BIN)/attention-viz serve --port $(PORT) --address $(ADDRESS)

# everything: the client's unit tests in Node, then every pytest tier (unit, app, browser)
test: $(VENV)/.installed-test browser-deps node-deps esbuild-deps a11y-deps deck-deps scorm-deps redis-deps nginx-deps
	node --test tests/node/
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# the fast tier, for contributors: the core and the client's pure modules, in seconds, no browser
test-fast: $(VENV)/.installed-test node-deps
	node --test tests/node/
	$(BIN)/python -m pytest -p no:playwright -q tests/unit $(PYTEST_ARGS)

browser-deps:
	@bash scripts/ensure-browser.sh

node-deps:
	@bash scripts/ensure-node.sh

# Debian's redis-server: the tests start one for rooms shared by several app processes
redis-deps:
	@bash scripts/ensure-redis.sh

# Debian's nginx: deploy/serve-class.sh puts it in front of the app, and its tests run it
nginx-deps:
	@bash scripts/ensure-nginx.sh

# esbuild, from npm (pinned in bundler/package-lock.json): bundles static/ into app/*.bundle.js,
# and a test checks the committed bundles against a fresh build
esbuild-deps: node-deps
	@bash scripts/ensure-esbuild.sh

# after a change in static/: the committed bundles and stylesheet, written again
bundle: $(VENV)/.installed-run esbuild-deps
	$(BIN)/python scripts/bundle.py

# axe-core, from npm (pinned in tests/a11y/package-lock.json), for the accessibility checks
a11y-deps: node-deps
	@bash scripts/ensure-axe.sh

# reveal.js for the example slide deck (examples/reveal-deck/) and its browser test
deck-deps: node-deps
	@bash scripts/ensure-reveal.sh

# scorm-again, a real SCORM 1.2 runtime, for the SCORM package's browser test (tests/scorm/package-lock.json)
scorm-deps: node-deps
	@bash scripts/ensure-scorm.sh

bench: $(VENV)/.installed-bench browser-deps
	$(BIN)/python bench/run_all.py

export: $(VENV)/.installed-run
	$(BIN)/attention-viz export attention-explorer.html

# the small Korean model shipped with the app: trains it again (about a minute on 2 cores) into
# attention_core/data/tiny-korean, with its checkpoints along the way and what it learned (metrics.json)
train: $(VENV)/.installed-run
	$(BIN)/python -m attention_core.training attention_core/data/tiny-korean
