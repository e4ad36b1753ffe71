"""The camera glue: the vision pipeline's events enter through the same door as the phones, its
frames are served as MJPEG, and a missing pipeline leaves the server running and says why.

vision.pipeline belongs to the vision engineer; here a small stand-in with the agreed interface
(TablePipeline(source, deck), run(on_event, stop_event), latest_jpeg, status) is put in its place,
because what is tested is the glue, not recognition."""
from __future__ import annotations

import sys
import threading
import time
import types

from web.app import create_app

TOKEN = "tok"
SETUP = {"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"], "camera": "table.mp4"}
JPEG = b"\xff\xd8\xff\xe0fake-jpeg\xff\xd9"


class ScriptedPipeline:
    """Sees red-5 turned up, then red-7 played (Ben's turn), an unsure red-9, a draw hint and a
    malformed event, then waits to stop."""
    made = []

    def __init__(self, source, deck):
        self.source, self.deck = source, deck
        self.latest_jpeg = None
        self.status = {"state": "starting", "message": ""}
        ScriptedPipeline.made.append(self)

    def run(self, on_event, stop_event):
        self.status = {"state": "running", "message": "3 cards seen"}
        self.latest_jpeg = JPEG
        # the pipeline's own format (docs/vision.md): plays carry no player, the table adds it
        on_event({"type": "flip", "card": "red-5", "t": 1.0})
        on_event({"type": "play", "cards": ["red-7"], "confidence": 0.97, "t": 2.0})
        on_event({"type": "play", "cards": ["red-9"], "confidence": 0.3, "unconfirmed": True, "t": 3.0})
        on_event({"type": "draw_hint", "t": 3.5})
        on_event({"type": "play"})
        stop_event.wait(10)


def wait_for(predicate, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def test_camera_events_reach_the_table(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "vision.pipeline", types.SimpleNamespace(TablePipeline=ScriptedPipeline))
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    c = app.test_client()
    assert c.post("/api/tables/main/events", json=SETUP, headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    assert wait_for(lambda: c.get("/api/tables/main/camera").get_json()["events_sent"] == 2)
    pipeline = ScriptedPipeline.made[-1]
    assert pipeline.source == "table.mp4" and pipeline.deck == "ono"
    state = c.get("/api/tables/main/state").get_json()
    assert state["top_card"] == "red-7" and state["current_player"] == 2 and state["event_count"] == 3
    status = c.get("/api/tables/main/camera").get_json()
    assert status["state"] == "running" and status["pipeline"] == {"state": "running", "message": "3 cards seen"}
    assert "not submitted" in status["last_result"]          # the malformed one, reported, nothing changed

    r = c.get("/api/tables/main/camera.mjpg", buffered=False)
    assert r.mimetype == "multipart/x-mixed-replace"
    part = next(iter(r.response))
    assert part.startswith(b"--frame\r\nContent-Type: image/jpeg") and part.endswith(JPEG + b"\r\n")
    app.extensions["tableref"].shutdown()
    assert wait_for(lambda: not app.extensions["tableref"].get("main").camera.thread.is_alive())


def test_a_missing_pipeline_leaves_the_server_running(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "vision.pipeline", None)        # import fails
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    c = app.test_client()
    assert c.post("/api/tables/main/events", json=SETUP, headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    assert wait_for(lambda: c.get("/api/tables/main/camera").get_json()["state"] == "unavailable")
    status = c.get("/api/tables/main/camera").get_json()
    assert "cannot be loaded" in status["message"]
    r = c.post("/api/tables/main/events", json={"type": "flip", "card": "red-5"}, headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.get_json()["verdict"]["accepted"]
    app.extensions["tableref"].shutdown()


def test_a_table_without_camera(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    c = app.test_client()
    c.post("/api/tables/main/events", json={k: v for k, v in SETUP.items() if k != "camera"},
           headers={"Authorization": f"Bearer {TOKEN}"})
    assert c.get("/api/tables/main/camera").get_json()["state"] == "none"
    assert c.get("/api/tables/main/camera.mjpg").status_code == 404


def test_vision_events_become_referee_events_only_when_sure():
    from web.camera import to_referee
    assert to_referee({"type": "play", "cards": ["red-7"], "t": 2.0}, 1)[0] == {
        "type": "play", "cards": ["red-7"], "t": 2.0, "player": 1}
    assert to_referee({"type": "play", "cards": ["red-7"], "unconfirmed": True}, 1)[0] is None
    assert to_referee({"type": "draw_hint"}, 1)[0] is None
    assert to_referee({"type": "play", "cards": ["red-7"]}, None)[0] is None
    assert to_referee({"type": "flip", "card": "red-5"}, None)[0] == {"type": "flip", "card": "red-5"}
