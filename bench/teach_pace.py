"""How many seconds a card "Teach this deck" takes when the host keeps pace (issue 15).

    python bench/teach_pace.py                     # 12 dino2 cards, 10 fps, host reacts in 0.3 s
    python bench/teach_pace.py --cards 20 --fps 30 --react 0.5

A real `tableref serve` whose camera is a live MJPEG stream of a synthetic table
(vision/synth/teach_camera.py), the teach page in headless Chromium (/usr/bin/chromium) with
"take by itself" on, and a scripted host who lays each card (sliding it in over --move seconds),
waits for the page to count it, reacts (--react seconds), lifts it (--move seconds) and lays the
next. Nothing is clicked. Prints one JSON object: seconds a card from the first card laid to the
last one taken, and the seconds from a card coming to rest to the page counting it.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee import load_deck                                          # noqa: E402
from vision.synth.teach_camera import Host, MjpegCamera, TableScene    # noqa: E402

TOKEN = "teach-pace-token-0123456789"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def serve(camera_url: str, data: str) -> tuple[subprocess.Popen, str]:
    """`tableref serve` on a free port; (process, base URL) once it prints its links."""
    proc = subprocess.Popen([sys.executable, "-m", "web", "serve", "--rules", "dino2", "--players", "Ana,Ben,Cy",
                             "--camera", camera_url, "--data", data, "--host-token", TOKEN,
                             "--host", "127.0.0.1", "--port", "0"],
                            cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for line in proc.stdout:
        if "phones and viewers:" in line:
            return proc, line.split()[-1].rsplit("/t/", 1)[0]
    raise SystemExit("tableref serve did not start")


def wait_text(page, element: str, text: str, timeout_ms: int = 60000) -> None:
    page.wait_for_function(f"document.getElementById({element!r}).textContent.includes({text!r})",
                           polling=20, timeout=timeout_ms)


def run(cards: int, fps: float, react: float, move: float) -> dict:
    from playwright.sync_api import sync_playwright
    ids = list(load_deck("dino2").cards)[:cards]
    total = len(load_deck("dino2").cards)
    scene = TableScene("dino2", seed=7)
    with tempfile.TemporaryDirectory() as data, MjpegCamera(scene.frame([]), fps=fps) as cam, sync_playwright() as p:
        proc, base = serve(cam.url, data)
        try:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_context(bypass_csp=True).new_page()
            page.goto(f"{base}/t/main/teach#token={TOKEN}")
            wait_text(page, "teach-progress", f"0 of {total}")
            wait_text(page, "teach-camera", "the view rests")
            host = Host(scene, cam, move_s=move)
            to_take = []
            start = time.monotonic()
            for n, card in enumerate(ids, 1):
                host.lay([card])
                rested = time.monotonic()
                wait_text(page, "teach-progress", f"{n} of {total}")
                to_take.append(time.monotonic() - rested)
                if n < len(ids):
                    time.sleep(react)
                    host.lift()
            seconds = time.monotonic() - start
            browser.close()
        finally:
            proc.terminate()
            proc.wait(15)
        taken = sorted(p.parent.name for p in Path(data, "teach", "dino2").glob("*/*.jpg"))
    return {"cards": len(ids), "photos_stored": len(taken), "fps": fps, "react_s": react, "move_s": move,
            "seconds": round(seconds, 2), "seconds_per_card": round(seconds / len(ids), 2),
            "rest_to_taken_s": {"median": round(statistics.median(to_take), 2),
                                "min": round(min(to_take), 2), "max": round(max(to_take), 2)}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=int, default=12)
    ap.add_argument("--fps", type=float, default=10.0, help="the camera's frames a second")
    ap.add_argument("--react", type=float, default=0.3, help="seconds the host takes to see the card counted")
    ap.add_argument("--move", type=float, default=0.3, help="seconds to slide a card in, or out")
    a = ap.parse_args()
    print(json.dumps(run(a.cards, a.fps, a.react, a.move)))


if __name__ == "__main__":
    main()
