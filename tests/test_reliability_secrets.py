"""Issue 17: a camera address's user name and password stay with the host: masked in the camera
status, the stored setup and the timeline a viewer reads, the stream, the pages and log lines."""
from __future__ import annotations

import io
import json
import logging
import sys
import types

import pytest

from web.app import create_app
from web.redact import RedactingFilter, redact
from helpers import wait_for

TOKEN = "s3cret-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
CAMERA = "rtsp://admin:hunter2@192.168.1.50:554/live?pwd=swordfish&chan=1"
SETUP = {"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"], "camera": CAMERA}
SECRETS = ("hunter2", "swordfish", "admin:")


class NoisyPipeline:
    """A stand-in for vision's pipeline that, like a real one, names its source in its status."""

    def __init__(self, source, deck):
        self.source, self.deck = types.SimpleNamespace(), deck
        self.latest_jpeg = None
        self.status = {"state": "reconnecting", "message": f"cannot open {source}; retrying in 1.0 s"}

    def run(self, on_event, stop_event):
        logging.getLogger("tableref.camera").warning("camera says: cannot open %s", CAMERA)
        stop_event.wait(10)


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "vision.track.pipeline", types.SimpleNamespace(TablePipeline=NoisyPipeline))
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN, "HEARTBEAT_S": 0.2})
    c = app.test_client()
    assert c.post("/api/tables/main/events", json=SETUP, headers=AUTH).get_json()["verdict"]["accepted"]
    assert wait_for(lambda: "retrying" in c.get("/api/tables/main/camera").get_json()["message"])
    c.app = app
    yield c
    app.extensions["tableref"].shutdown()


def clean(text: str) -> bool:
    return not any(s in text for s in SECRETS)


def test_a_viewer_never_reads_the_camera_password(client):
    reg = client.app.extensions["tableref"]
    readable = {path: client.get(path).get_data(as_text=True) for path in (
        "/api/tables/main/camera", "/api/tables/main/events", "/api/tables/main/timeline", "/api/tables",
        "/api/tables/main", "/api/tables/main/state", "/t/main", "/t/main/camera", "/t/main/overlay", "/")}
    readable["stream"] = reg.latest(reg.get("main"))[1]
    for path, text in readable.items():
        assert clean(text), (path, text[:500])
    # what is left still says which camera it is
    status = client.get("/api/tables/main/camera").get_json()
    assert status["source"] == "rtsp://***@192.168.1.50:554/live?pwd=***&chan=1"
    assert "192.168.1.50" in status["message"]
    setup = client.get("/api/tables/main/events").get_json()["events"][0]
    assert setup["camera"] == status["source"]
    assert json.loads(readable["stream"])["log"][0]["event"]["camera"] == status["source"]


def test_the_host_reads_the_stored_setup_whole_to_start_the_next_game(client):
    setup = client.get("/api/tables/main/events", headers=AUTH).get_json()["events"][0]
    assert setup["camera"] == CAMERA
    assert client.get("/api/tables/main/events", headers={"Authorization": "Bearer wrong"}).get_json()[
        "events"][0]["camera"] != CAMERA


def test_log_lines_are_redacted():
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(RedactingFilter())
    logger = logging.getLogger("tableref.test-redact")
    logger.addHandler(handler)
    try:
        logger.warning("camera of table %s: cannot open %s", "main", CAMERA)
        logger.warning(f"plain {CAMERA}")
    finally:
        logger.removeHandler(handler)
    assert clean(out.getvalue()) and out.getvalue().count("rtsp://***@192.168.1.50") == 2


@pytest.mark.parametrize("text,expected", [
    ("rtsp://user:p@ss@cam.local/x", "rtsp://***@cam.local/x"),
    ("http://cam/video?user=bob&password=pw", "http://cam/video?user=***&password=***"),
    ("https://u@h", "https://***@h"),
    ("0", "0"), ("table.mp4", "table.mp4"), ("http://10.0.0.2:8080/video", "http://10.0.0.2:8080/video"),
])
def test_redact(text, expected):
    assert redact(text) == expected
    assert redact({"a": [text]}) == {"a": [expected]}
