""""Teach this deck" in a real browser (issue 15): headless Chromium (/usr/bin/chromium) driven by
Playwright against a real `tableref serve` whose camera is a live MJPEG stream of a synthetic table
(vision/synth/teach_camera.py) on which the test, as the host, lays dino2 cards and lifts them.

With "take by itself" on (the default), each card laid alone is taken once it rests, without a
click: progress goes n of 88, the card as taken is shown straightened beside its name, a card
lying there still is not taken again as the next card, an empty table or two cards take nothing
and say why, and a retake drops the photo until the card is laid again; the cards laid are no plays of the
table's game, and once the page is closed the camera watches the game again. With it off, nothing is
taken until the host presses "Take it"; then a retake, a finish and the report, and the table's camera
reading with the deck taught from then on."""
from __future__ import annotations

import json
import urllib.request

from helpers import start_tableref, wait_for

from vision.synth.teach_camera import Host, MjpegCamera, TableScene

from chromium import needs_chromium  # noqa: E402

pytestmark = needs_chromium
TOKEN = "teach-test-token-0123"
WAIT = 30000
CARDS = ["red-dingbat", "red-whale-rabbit", "red-candy"]     # the first cards of dino2, in its order


def served(tmp_path, cam):
    return start_tableref("serve", "--rules", "dino2", "--players", "Ana,Ben,Cy", "--camera", cam.url,
                          "--data", str(tmp_path / "data"), "--host-token", TOKEN)


def opened(browser, base):
    """The teach page with the host link, once it shows 0 of 88 and the camera's view rests."""
    page = browser.new_context(bypass_csp=True).new_page()      # wait_for_function evaluates strings
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/t/main/teach#token={TOKEN}")
    page.wait_for_function("document.getElementById('teach-progress').textContent.includes('0 of 88')", timeout=WAIT)
    return page, errors


def wait_text(page, element, text):
    page.wait_for_function(f"document.getElementById({element!r}).textContent.includes({text!r})", timeout=WAIT)


def get(base, path):
    with urllib.request.urlopen(f"{base}/api/tables/main{path}") as r:
        return json.load(r)


def captured(page) -> dict:
    return page.evaluate("""() => { const f = document.getElementById('teach-captured'),
        i = document.getElementById('teach-captured-img');
        return {hidden: f.hidden, caption: document.getElementById('teach-captured-name').textContent,
                width: i.naturalWidth, height: i.naturalHeight}; }""")


def photos(tmp_path, card):
    folder = tmp_path / "data" / "teach" / "dino2" / card
    return sorted(p.name for p in folder.glob("*.jpg")) if folder.is_dir() else []


def test_the_host_teaches_cards_by_laying_them_down(tmp_path, browser):
    scene = TableScene("dino2", seed=3)
    with MjpegCamera(scene.frame([])) as cam:
        proc, base, _ = served(tmp_path, cam)
        try:
            page, errors = opened(browser, base)
            assert page.is_checked("#teach-auto")
            wait_text(page, "teach-camera", "the view rests")        # frames flow, the empty table rests
            host = Host(scene, cam)
            for n, card in enumerate(CARDS, 1):
                assert page.text_content("#teach-next") == card
                host.lay([card])
                wait_text(page, "teach-progress", f"{n} of 88")
                wait_text(page, "teach-captured-name", f"{card} · photo 1")
                shown = captured(page)
                assert not shown["hidden"] and shown["height"] > shown["width"] > 50    # a card, upright
                assert page.text_content("#teach-next") == (CARDS[n] if n < len(CARDS) else "red-spaghetti")
                if n == 1:
                    # lying there still, a hand passing over it: not taken again as the next card
                    host.pass_hand()
                    wait_text(page, "teach-said", "red-dingbat from the last photo is still there")
                    assert "1 of 88" in page.text_content("#teach-progress")
                if n == 3:
                    # retake: the photo is dropped; the card is taken again once lifted and laid again
                    page.click("#teach-retake")
                    wait_text(page, "teach-progress", "2 of 88")
                    assert captured(page)["hidden"] and page.text_content("#teach-next") == card
                    page.wait_for_timeout(1500)                      # it lies there still: not retaken
                    assert "2 of 88" in page.text_content("#teach-progress")
                    host.lift()
                    host.lay([card])
                    wait_text(page, "teach-progress", "3 of 88")
                    wait_text(page, "teach-captured-name", f"{card} · photo 1")
                host.lift()
                wait_text(page, "teach-said", "no card in view")     # the empty table: nothing taken
            host.lay(["red-spaghetti", "red-cool-kids"])
            wait_text(page, "teach-said", "2 cards in view")
            assert "3 of 88" in page.text_content("#teach-progress")
            assert errors == []
            # the cards laid to teach were no plays of the table's game: only its setup is stored
            assert get(base, "/state")["event_count"] == 1
            # the page closed, the camera watches the game again: a card laid is the game's flip
            host.lift()
            page.close()
            assert wait_for(lambda: not get(base, "/camera")["teaching"], timeout=10)
            host.lay(["red-spaghetti"])
            assert wait_for(lambda: get(base, "/state")["top_card"] == "red-spaghetti", timeout=20)
        finally:
            proc.terminate()
            proc.wait(15)
    assert [photos(tmp_path, c) for c in CARDS] == [["1.jpg"]] * 3
    assert photos(tmp_path, "red-spaghetti") == photos(tmp_path, "red-cool-kids") == []


def test_with_auto_off_the_host_takes_retakes_and_finishes(tmp_path, browser):
    scene = TableScene("dino2", seed=4)
    with MjpegCamera(scene.frame([])) as cam:
        proc, base, _ = served(tmp_path, cam)
        try:
            page, errors = opened(browser, base)
            page.uncheck("#teach-auto")
            host = Host(scene, cam)
            host.lay(["red-dingbat"])
            page.wait_for_timeout(2000)                              # it rests: with auto off, not taken
            assert "0 of 88" in page.text_content("#teach-progress")
            # the camera needs a moment to deliver its first frame: take until it is there
            for _ in range(40):
                page.click("#teach-take")
                page.wait_for_function("!document.getElementById('teach-said').textContent.startsWith('taking')",
                                       timeout=WAIT)
                if "✓ red-dingbat taken" in page.text_content("#teach-said"):
                    break
                page.wait_for_timeout(500)
            assert "✓ red-dingbat taken (photo 1)" in page.text_content("#teach-said")
            assert "1 of 88" in page.text_content("#teach-progress")
            assert page.text_content("#teach-next") == "red-whale-rabbit"
            wait_text(page, "teach-captured-name", "red-dingbat · photo 1")
            page.click("#teach-retake")
            wait_text(page, "teach-progress", "0 of 88")
            assert page.text_content("#teach-next") == "red-dingbat"
            page.click("#teach-take")
            wait_text(page, "teach-progress", "1 of 88")
            page.click("#teach-finish")
            wait_text(page, "teach-said", "deck taught")
            assert "taught 1 of 88 cards" in page.text_content("#teach-report")
            # the table's camera reads with the deck at once, no restart
            assert "the table's camera reads with it now" in page.text_content("#teach-report")
            assert get(base, "/camera")["taught"] == str(tmp_path / "data" / "taught" / "dino2.npz")
            assert errors == []
        finally:
            proc.terminate()
            proc.wait(15)
    assert photos(tmp_path, "red-dingbat") == ["1.jpg"]
    assert (tmp_path / "data" / "taught" / "dino2.npz").is_file()


def test_after_the_cards_the_page_asks_for_the_back_and_teaches_it(tmp_path, browser):
    """One card taken, the others skipped: the page asks for any card face down, takes the back
    when it rests (no card of the 88: progress stays), and the finish reports the back taught."""
    scene = TableScene("dino2", seed=5)
    with MjpegCamera(scene.frame([])) as cam:
        proc, base, _ = served(tmp_path, cam)
        try:
            page, errors = opened(browser, base)
            wait_text(page, "teach-camera", "the view rests")
            host = Host(scene, cam)
            host.lay(["red-dingbat"])
            wait_text(page, "teach-progress", "1 of 88")
            host.lift()
            for _ in range(87):
                page.click("#teach-skip")
            page.wait_for_function("document.getElementById('teach-next').textContent === 'any card'", timeout=WAIT)
            assert "face down" in page.text_content("#teach-how")
            host.lay(["back"])
            wait_text(page, "teach-captured-name", "back · photo 1")
            assert "1 of 88" in page.text_content("#teach-progress")
            page.click("#teach-finish")
            wait_text(page, "teach-said", "deck taught")
            assert "back: taught from 1 photo" in page.text_content("#teach-report")
            assert errors == []
        finally:
            proc.terminate()
            proc.wait(15)
    assert photos(tmp_path, "back") == ["1.jpg"]
