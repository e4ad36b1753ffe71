"""Teaching a deck from the table's camera over the API (issue 15): each card taken from the
camera's latest frame for a named card id, progress n of N, a retake, photos kept in the data
folder in `tableref teach`'s layout, and the finish writing DATA/taught/DECK.npz. The camera is
stood in for by a pipeline holding a rendered photo as its latest frame."""
import pytest

from vision.synth.photo import print_photos
from web.app import create_app

TOKEN = "s3cret-token-for-teach"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SETUP = {"type": "setup", "rules": "dino2", "players": ["Ana", "Ben", "Cy"], "dealer": 0}


class StandInCamera:
    """What the API reads of a camera feed: .pipeline.latest_frame and .pipeline.recognizer."""
    def __init__(self):
        from vision.recognizer import Recognizer
        self.pipeline = type("P", (), {})()
        self.pipeline.recognizer = Recognizer("dino2", text=False)
        self.pipeline.latest_frame = None

    def stop(self):
        pass


@pytest.fixture
def table(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN, "HEARTBEAT_S": 0.2})
    c = app.test_client()
    assert c.post("/api/tables/main/events", json=SETUP, headers=AUTH).status_code == 200
    t = app.extensions["tableref"].get("main")
    t.camera = StandInCamera()
    yield c, t, tmp_path
    app.extensions["tableref"].shutdown()


def test_the_host_teaches_cards_from_the_camera_retakes_and_finishes(table):
    c, t, data = table
    r = c.get("/api/tables/main/teach").get_json()
    assert r["deck"] == "dino2" and r["total"] == 88 and r["done"] == 0 and r["next"] == "red-dingbat"
    # no picture yet: a clear 409, nothing stored
    r = c.post("/api/tables/main/teach/red-dingbat", headers=AUTH)
    assert r.status_code == 409 and "no picture" in r.get_json()["error"]
    shots = {cid: img for cid, _, img, _ in print_photos("dino2", ["red-dingbat", "blue-chill"], 1, seed=11,
                                                          held=0.0, strength=0.4)}
    t.camera.pipeline.latest_frame = shots["red-dingbat"]
    r = c.post("/api/tables/main/teach/red-dingbat", headers=AUTH)
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["done"] == 1 and body["total"] == 88 and body["next"] == "red-whale-rabbit" and len(body["polygon"]) == 4
    assert (data / "teach" / "dino2" / "red-dingbat" / "1.jpg").is_file()
    # a second take of the same card, then a retake drops it
    assert c.post("/api/tables/main/teach/red-dingbat", headers=AUTH).get_json()["photos"]["red-dingbat"] == 2
    assert c.delete("/api/tables/main/teach/red-dingbat", headers=AUTH).get_json()["photos"]["red-dingbat"] == 1
    t.camera.pipeline.latest_frame = shots["blue-chill"]
    assert c.post("/api/tables/main/teach/blue-chill", headers=AUTH).get_json()["done"] == 2
    r = c.post("/api/tables/main/teach-finish", headers=AUTH)
    assert r.status_code == 200, r.get_json()
    assert sorted(r.get_json()["taught"]) == ["blue-chill", "red-dingbat"]
    from vision.teach.file import load
    assert sorted(load(data / "taught" / "dino2.npz", "dino2").cards) == ["blue-chill", "red-dingbat"]
    assert c.get("/api/tables/main/teach").get_json()["taught"] is True


def test_teaching_needs_the_host_token_a_card_of_the_deck_and_one_card_in_view(table):
    import numpy as np
    c, t, data = table
    assert c.post("/api/tables/main/teach/red-dingbat").status_code == 401
    assert c.post("/api/tables/main/teach/red-7", headers=AUTH).status_code == 404
    t.camera.pipeline.latest_frame = np.full((480, 640, 3), 60, np.uint8)
    r = c.post("/api/tables/main/teach/red-dingbat", headers=AUTH)
    assert r.status_code == 409 and "no card in view" in r.get_json()["error"]
    assert not (data / "teach" / "dino2" / "red-dingbat").exists() or not list((data / "teach" / "dino2" / "red-dingbat").iterdir())
    r = c.post("/api/tables/main/teach-finish", headers=AUTH)
    assert r.status_code == 409 and not (data / "taught" / "dino2.npz").exists()
