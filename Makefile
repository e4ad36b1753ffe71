# The two commands of the README: `make demo` (install, then run the app) and `make test`
# (install, then run the tests). Both install into .venv when needed: a stamp file per install
# remembers it, so an installed checkout starts with no pip run and no network (pyproject.toml
# newer than the stamp installs again).
VENV   ?= .venv
PYTHON ?= python3
BIN     = $(VENV)/bin
PIP     = $(BIN)/python -m pip install -q --disable-pip-version-check

.PHONY: demo test install install-test bench chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[test,bench,train]'
	@touch $@ $(VENV)/.installed

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

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
