"""A camera over a table where a host lays cards down one at a time, served as a live MJPEG
stream: what "Teach this deck" (web/teach_api.py) watches, under a test's or a benchmark's control
(tests/test_teach_browser.py, bench/teach_pace.py).

    scene = TableScene("dino2", seed=3)
    with MjpegCamera(scene.frame([])) as cam:      # `tableref serve --camera cam.url`
        host = Host(scene, cam)
        host.lay(["red-dingbat"])                   # slides in over `move_s`, then rests
        host.lift()                                 # slides out, the table rests empty

A live stream and not a video file, so the cards are laid when the test says, whenever the page
and the server are ready. The server always sends the newest scene and keeps its send buffer
small, so a reader that falls behind gets a recent picture, as from a real camera. Frames carry a
little sensor noise, below the pipeline's motion threshold, as a real camera's do.
"""
from __future__ import annotations

import random
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cv2
import numpy as np

from .closeup import _background, _card_quad, _paste

SPOTS = ((0.5, 0.5), (0.25, 0.5), (0.75, 0.5))     # where cards are laid, as shares of the picture


class TableScene:
    """One table seen from above, with the faces of one print of a deck laid on it."""

    def __init__(self, deck: str, seed: int = 0, size: tuple[int, int] = (640, 480), card_width: int = 150):
        from vision.art import style_for
        self.deck, self.size, self.card_width = deck, size, card_width
        self.g = np.random.default_rng(seed)
        self.table = _background(self.g, *size, light=0.0)[0]     # the table this test camera always had
        self.style = style_for(deck, random.Random(seed))
        self._faces: dict[str, np.ndarray] = {}

    def face(self, card: str) -> np.ndarray:
        """The card's face; "back": a card laid face down, the print's back."""
        if card not in self._faces:
            from vision.art import render_back, render_card
            self._faces[card] = render_back(self.deck, style=self.style, size=(224, 348)) if card == "back" else \
                render_card(card, self.deck, style=self.style, size=(224, 348))
        return self._faces[card]

    def frame(self, cards: list[tuple[str, tuple[float, float], float]]) -> np.ndarray:
        """The table with `cards` laid on it: (card id, centre in pixels, turn in degrees) each."""
        img = self.table.copy()
        for card, centre, spin in cards:
            quad = _card_quad(self.g, centre, self.card_width, spin, 0.0, 1000.0)
            _paste(img, self.face(card), quad, 0.0, self.g)
        return np.clip(img, 0, 255).astype(np.uint8)

    def spot(self, i: int) -> tuple[float, float]:
        return SPOTS[i][0] * self.size[0], SPOTS[i][1] * self.size[1]


class MjpegCamera:
    """An MJPEG stream over HTTP at `fps` of whatever frame was last `show`n."""

    def __init__(self, frame: np.ndarray, fps: float = 10.0, noise: float = 2.0):
        self.fps, self.noise = fps, noise
        self._frame = frame
        self._rng = np.random.default_rng(0)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/camera.mjpg"

    def show(self, frame: np.ndarray) -> None:
        self._frame = frame

    def jpeg(self) -> bytes:
        noisy = self._frame.astype(np.int16) + self._rng.normal(0, self.noise, self._frame.shape).astype(np.int16)
        ok, buf = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 85])
        return buf.tobytes()

    def _handler(self):
        camera = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                # a small send buffer: a slow reader waits for a fresh frame instead of queueing old ones
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 32768)
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                try:
                    while True:
                        part = camera.jpeg()
                        self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n"
                                         % len(part) + part + b"\r\n")
                        time.sleep(1 / camera.fps)
                except (BrokenPipeError, ConnectionResetError, OSError):
                    return

        return Handler

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "MjpegCamera":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Host:
    """Lays cards on the scene and lifts them, moving them in and out as a hand would."""

    def __init__(self, scene: TableScene, camera: MjpegCamera, move_s: float = 0.3, steps: int = 3, seed: int = 0):
        self.scene, self.camera, self.move_s, self.steps = scene, camera, move_s, steps
        self.rng = random.Random(seed)
        self.lying: list[tuple[str, tuple[float, float], float]] = []

    def lay(self, cards: list[str]) -> None:
        """The cards laid at the first spots, each a little turned, sliding in from below."""
        target = [(c, self.scene.spot(i), self.rng.uniform(-12, 12)) for i, c in enumerate(cards)]
        self._slide(target, inwards=True)
        self.lying = target
        self.camera.show(self.scene.frame(target))

    def lift(self) -> None:
        self._slide(self.lying, inwards=False)
        self.lying = []
        self.camera.show(self.scene.frame([]))

    def pass_hand(self) -> None:
        """A hand moves over the cards lying there and goes: motion, then the same view again."""
        w, h = self.scene.size
        for k in range(self.steps):
            img = self.scene.frame(self.lying)
            x = int(w * (0.2 + 0.6 * k / max(1, self.steps - 1)))
            cv2.ellipse(img, (x, int(h * 0.55)), (70, 45), 0, 0, 360, (120, 150, 200), -1)
            self.camera.show(img)
            time.sleep(self.move_s / self.steps)
        self.camera.show(self.scene.frame(self.lying))

    def _slide(self, cards, inwards: bool) -> None:
        h = self.scene.size[1]
        for k in range(self.steps):
            share = (self.steps - k) / (self.steps + 1) if inwards else (k + 1) / (self.steps + 1)
            moved = [(c, (x, y + share * h * 0.6), s) for c, (x, y), s in cards]
            self.camera.show(self.scene.frame(moved))
            time.sleep(self.move_s / self.steps)
