# The README's two commands are `make run` and `make test`; both build what they need from nothing.
PYTHON ?= python3
VENV := .venv
VENV03 := .venv-a2a03
BIN := $(VENV)/bin
# The native v0.3 reference server (what most deployed agents still run) lives in its own venv,
# because a2a-sdk 0.3 and 1.x cannot be installed side by side.
A2A03_PIN := a2a-sdk[http-server]==0.3.26 uvicorn

.PHONY: run test lint test-only screenshots bench clean

$(VENV)/.stamp: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[dev]"
	touch $@

$(VENV03)/.stamp: Makefile
	$(PYTHON) -m venv $(VENV03)
	$(VENV03)/bin/pip install -q $(A2A03_PIN)
	touch $@

# Starts the demo agent fleet (and, once the TUI lands, switchboard on it); Ctrl+C stops it.
run: $(VENV)/.stamp
	$(BIN)/switchboard --demo

lint: $(VENV)/.stamp
	$(BIN)/ruff check
	$(BIN)/ruff format --check
	$(BIN)/lint-imports

test: $(VENV)/.stamp $(VENV03)/.stamp lint
	SWITCHBOARD_A2A03_PYTHON=$(CURDIR)/$(VENV03)/bin/python $(BIN)/pytest

screenshots: $(VENV)/.stamp
	$(BIN)/python -m switchboard.tui.screenshots screenshots

bench: $(VENV)/.stamp
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) $(VENV03)
