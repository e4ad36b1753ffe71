# The two commands of the README: `make demo` (install, then run the app) and `make test`
# (install, then run the tests). Both install into .venv from scratch when needed.
VENV   ?= .venv
PYTHON ?= python3
BIN     = $(VENV)/bin

.PHONY: demo test install install-test bench chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install -q -e .

install-test: $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,bench,train]'

demo: install
	$(BIN)/tableref demo

# The browser tests drive Debian's chromium (never `playwright install`).
chromium:
	@test -x /usr/bin/chromium || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update && $$SUDO apt-get install -y chromium chromium-driver; }

test: install-test chromium
	$(BIN)/python -m pytest

bench: install-test
	$(BIN)/python bench/referee.py
