"""The pages in a real browser: headless Chromium (Debian's /usr/bin/chromium) driven by Playwright,
against a real `tableref serve` on 127.0.0.1. Screenshots go to a temporary folder, or to
docs/screenshots/ (the README's pictures) when TABLEREF_SCREENSHOTS=docs is set."""
from __future__ import annotations

import io
import json
import os
import tempfile
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from helpers import start_tableref

from chromium import needs_chromium  # noqa: E402

pytestmark = needs_chromium
TOKEN = "browser-test-token"
SHOTS = (Path(__file__).resolve().parent.parent / "docs" / "screenshots"
         if os.environ.get("TABLEREF_SCREENSHOTS") == "docs"
         else Path(tempfile.gettempdir()) / "tableref-screenshots")


class Server:
    def __init__(self, data: Path):
        self.proc, self.base, _ = start_tableref("serve", "--rules", "ono", "--players", "Ana,Ben,Cy",
                                                 "--data", str(data), "--host-token", TOKEN)

    def post(self, event: dict, token: str = TOKEN) -> dict:
        req = urllib.request.Request(f"{self.base}/api/tables/main/events", data=json.dumps(event).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(req, timeout=5) as r:
            return json.load(r)

    def state(self) -> dict:
        with urllib.request.urlopen(f"{self.base}/api/tables/main/state", timeout=5) as r:
            return json.load(r)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("serve"))
    yield s
    s.stop()
    assert s.proc.returncode == 0, "the server did not stop cleanly on SIGTERM"



def phone(browser, url):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                              has_touch=True, bypass_csp=True)  # lets wait_for_function run
    page = ctx.new_page()
    page.goto(url)
    return ctx, page


def test_a_phone_shows_a_play_within_500_ms(server, browser):
    server.post({"type": "flip", "card": "red-5"})
    ctx, page = phone(browser, f"{server.base}/t/main")
    page.wait_for_selector('#pile .card[data-card="red-5"]', timeout=5000)
    assert "Ben's turn" in page.inner_text("#turn")
    assert page.is_hidden("#host")                  # a viewer has no controls

    t0 = time.perf_counter()
    server.post({"type": "play", "player": "Ben", "cards": ["red-7"]})
    page.wait_for_selector('#pile .card[data-card="red-7"]', timeout=2000)
    elapsed = time.perf_counter() - t0
    assert elapsed < 0.5, f"the play showed after {elapsed * 1000:.0f} ms"
    assert "Cy's turn" in page.inner_text("#turn")
    assert "Ben plays red-7" in page.inner_text("#log")

    # A rejected play is shown loudly, and the table stays as it was.
    server.post({"type": "play", "player": "Cy", "cards": ["blue-9"]})
    page.wait_for_selector("#verdict.rejected", timeout=2000)
    assert "NOT ALLOWED" in page.inner_text("#verdict")
    assert page.get_attribute("#pile .card", "data-card") == "red-7"
    ctx.close()


def test_host_controls_work_with_the_token_and_are_refused_without(server, browser):
    before = server.state()
    ctx, page = phone(browser, f"{server.base}/t/main#token={TOKEN}")
    page.wait_for_selector("#host:not([hidden])", timeout=5000)
    assert "token" not in page.url                  # moved out of the address bar at once
    assert page.evaluate("localStorage.getItem('tableref.host-token')") == TOKEN
    page.wait_for_selector("#auth-note[hidden]", state="attached")

    # Cy draws one: the Draw button with the current player selected.
    page.wait_for_function("document.getElementById('who').value === String(%d)" % before["current_player"])
    page.fill("#in-draw-count", "1")
    page.click("#act-draw")
    page.wait_for_selector("#result.ok", timeout=3000)
    after = server.state()
    cy = before["current_player"]
    assert after["players"][cy]["hand_count"] == before["players"][cy]["hand_count"] + 1
    assert after["event_count"] == before["event_count"] + 1

    # Undo takes it back.
    page.click("#do-undo")
    page.wait_for_function("document.getElementById('result').textContent.includes('undone')", timeout=3000)
    assert server.state()["event_count"] == before["event_count"]

    # Pick a card with the picker and play it: Cy plays red-3 on red-7.
    page.click('#colorpicks button[data-color="red"]')
    page.click('#symbolpicks button[data-card="red-3"]')
    page.click("#act-play")
    page.wait_for_selector('#pile .card[data-card="red-3"]', timeout=3000)
    assert server.state()["top_card"] == "red-3"
    page.screenshot(path=str(SHOTS / "host-controls.png"), full_page=True)
    ctx.close()

    # A browser holding a wrong token is told so, and its taps change nothing.
    before = server.state()
    ctx, page = phone(browser, f"{server.base}/t/main#token=not-the-token")
    page.wait_for_selector("#auth-note:not([hidden])", timeout=5000)
    page.click("#do-undo")
    page.wait_for_selector("#result.bad", timeout=3000)
    assert "refused" in page.inner_text("#result")
    assert server.state() == before
    ctx.close()


def test_phone_view_screenshot(server, browser):
    server.post({"type": "play", "player": 0, "cards": ["red-draw2"]})
    ctx, page = phone(browser, f"{server.base}/t/main")
    page.wait_for_selector('#pile .card[data-card="red-draw2"]', timeout=5000)
    page.wait_for_timeout(500)           # let the landing animation finish
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone.png"))
    assert "+2 to draw" in page.inner_text("#pending")
    ctx.close()


def test_overlay_has_a_transparent_background(server, browser):
    from PIL import Image
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = ctx.new_page()
    page.goto(f"{server.base}/t/main/overlay?position=bottom-right&size=m&theme=dark")
    page.wait_for_selector("#pile .card", timeout=5000)
    assert TOKEN not in page.content()
    page.wait_for_timeout(700)
    png = page.screenshot(omit_background=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "overlay.png").write_bytes(png)
    img = Image.open(io.BytesIO(png)).convert("RGBA")
    assert img.size == (1920, 1080)
    alpha = img.getchannel("A")
    assert alpha.getpixel((10, 10)) == 0 and alpha.getpixel((960, 540)) == 0       # see-through
    assert alpha.getpixel((1920 - 150, 1080 - 150)) > 0                          # the panel, bottom right
    transparent = alpha.histogram()[0] / (1920 * 1080)
    assert transparent > 0.6, f"only {transparent:.0%} of the overlay is transparent"

    # Another corner and theme from the query string.
    page.goto(f"{server.base}/t/main/overlay?position=top-left&theme=light&size=s")
    page.wait_for_selector("#pile .card", timeout=5000)
    page.wait_for_timeout(700)
    img = Image.open(io.BytesIO(page.screenshot(omit_background=True))).convert("RGBA")
    assert img.getchannel("A").getpixel((100, 100)) > 0 and img.getchannel("A").getpixel((1800, 1000)) == 0
    ctx.close()
