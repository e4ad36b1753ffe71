"""Debian's headless Chromium for the browser tests: where it is, its flags, a launcher.

The browser tests drive /usr/bin/chromium through Playwright (never `playwright install`); with no
Chromium there they are skipped, with the reason. The flags keep it off the network."""
from __future__ import annotations

import os
from contextlib import contextmanager

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")


@contextmanager
def launched():
    """A headless Chromium, closed on the way out."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()
