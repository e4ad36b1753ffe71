"""Fixtures shared by the test files."""
from __future__ import annotations

import ast
import functools
import threading

import pytest

from chromium import launched

# CPython 3.11 keeps ast.parse's recursion counter in module state shared by all threads, so two
# threads parsing at once can fail with "SystemError: AST constructor recursion depth mismatch"
# (python/cpython#106905). The test process creates many apps (werkzeug parses each route when it
# is registered) while earlier tests' daemon camera threads still run (a traceback they format is
# parsed too); the app itself registers its routes once, before any camera starts. One lock keeps
# the parses of this process apart.
_AST_LOCK = threading.RLock()      # re-entrant: a parse may run a __del__ that parses
_ast_parse = ast.parse


@functools.wraps(_ast_parse)
def _parse_one_at_a_time(*args, **kwargs):
    with _AST_LOCK:
        return _ast_parse(*args, **kwargs)


ast.parse = _parse_one_at_a_time


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for a test module (tests/chromium.py)."""
    with launched() as b:
        yield b
