"""Fixtures shared by the test files."""
from __future__ import annotations

import pytest

from chromium import launched


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for a test module (tests/chromium.py)."""
    with launched() as b:
        yield b
