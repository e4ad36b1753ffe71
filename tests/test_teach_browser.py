""""Teach this deck" in a real browser (issue 15): headless Chromium (/usr/bin/chromium) driven by
Playwright against a real `tableref serve` whose camera is a recorded video of one dino2 card lying
on a table. The host opens /t/main/teach with the host link, sees the first card to lay down and
"0 of 88", takes it, sees "1 of 88" and the next card, retakes it, takes it again, finishes, and
reads the report; the taught deck is then in the data folder."""
from __future__ import annotations


import cv2
from helpers import start_tableref

from vision.synth.photo import print_photos

from chromium import launched, needs_chromium  # noqa: E402

pytestmark = needs_chromium
TOKEN = "teach-test-token-0123"
WAIT = 30000


def recording(path, seconds=60, fps=5):
    """A video of red-dingbat resting on a table, as a camera would record it."""
    img = next(print_photos("dino2", ["red-dingbat"], 1, seed=11, held=0.0, strength=0.4))[2]
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (img.shape[1], img.shape[0]))
    for _ in range(seconds * fps):
        w.write(img)
    w.release()
    return path


def test_the_host_teaches_a_card_from_the_live_camera(tmp_path):
    video = recording(tmp_path / "table.mp4")
    proc, base, _ = start_tableref("serve", "--rules", "dino2", "--players", "Ana,Ben,Cy", "--camera", str(video),
                                   "--data", str(tmp_path / "data"), "--host-token", TOKEN)
    try:
        with launched() as b:
            page = b.new_context(bypass_csp=True).new_page()    # wait_for_function evaluates strings
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{base}/t/main/teach#token={TOKEN}")
            page.wait_for_function("document.getElementById('teach-progress').textContent.includes('0 of 88')",
                                   timeout=WAIT)
            assert page.text_content("#teach-next") == "red-dingbat"
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
            page.click("#teach-retake")
            page.wait_for_function("document.getElementById('teach-progress').textContent.includes('0 of 88')",
                                   timeout=WAIT)
            assert page.text_content("#teach-next") == "red-dingbat"
            page.click("#teach-take")
            page.wait_for_function("document.getElementById('teach-progress').textContent.includes('1 of 88')",
                                   timeout=WAIT)
            page.click("#teach-finish")
            page.wait_for_function("document.getElementById('teach-said').textContent.includes('deck taught')",
                                   timeout=WAIT)
            assert "taught 1 of 88 cards" in page.text_content("#teach-report")
            assert errors == []
        assert (tmp_path / "data" / "teach" / "dino2" / "red-dingbat").is_dir()
        assert len(list((tmp_path / "data" / "teach" / "dino2" / "red-dingbat").glob("*.jpg"))) == 1
        assert (tmp_path / "data" / "taught" / "dino2.npz").is_file()
    finally:
        proc.terminate()
        proc.wait(15)
