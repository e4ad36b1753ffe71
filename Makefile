# The two commands of the README: `make demo` (install, then run the app) and `make test`
# (install, then run the tests). Both install into .venv from scratch when needed.
VENV   ?= .venv
PYTHON ?= python3
BIN     = $(VENV)/bin

.PHONY: demo test install install-test bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install -q -e .

install-test: $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,bench]'

demo: install
	$(BIN)/tableref simulate --rules ono --games 200

test: install-test
	$(BIN)/python -m pytest

bench: install-test
	$(BIN)/python bench/referee.py
