"""Issue 17: a camera source named from the web is a camera index or an http(s)/rtsp address; video
files, device paths and other schemes only from the command line."""
from __future__ import annotations

import pytest

from web.app import create_app

TOKEN = "s3cret-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    app.extensions["tableref"].on_new_table = None          # judge the sources, start no camera
    yield app.test_client()
    app.extensions["tableref"].shutdown()


def setup(camera):
    return {"type": "setup", "rules": "ono", "players": ["Ana", "Ben"], "camera": camera}


@pytest.mark.parametrize("camera", ["/etc/passwd", "file:///etc/passwd", "datasets/demo/demo.mp4", "../x.mp4",
                                    "ftp://cam/x", "gopher://h/", "smb://h/share", "/dev/video0", "v4l2:///dev/video0",
                                    "http://", "rtsp:// space", "123", "-1", "", " ", 0, ["0"]])
def test_files_and_other_schemes_are_refused_from_the_web(client, camera):
    r = client.post("/api/tables/t1/events", json=setup(camera), headers=AUTH)
    assert r.status_code == 400, camera
    assert "from the command line" in r.get_json()["error"]
    assert client.get("/api/tables").get_json()["tables"] == []


@pytest.mark.parametrize("camera", ["0", "1", "http://192.168.1.20:8080/video", "https://cam.local/mjpg",
                                    "rtsp://user:pw@10.0.0.5:554/live", "RTSP://10.0.0.5/x"])
def test_a_camera_index_or_a_stream_address_is_accepted(client, camera):
    r = client.post("/api/tables/t1/events", json=setup(camera), headers=AUTH)
    assert r.status_code == 200 and r.get_json()["verdict"]["accepted"], r.get_json()
