"""Teaching a deck from the table's camera over the API (issue 15): each card taken from the
camera's latest frame for a named card id, progress n of N, a retake, photos kept in the data
folder in `tableref teach`'s layout, and the finish writing DATA/taught/DECK.npz; taking on settle
(teach-view's rests, a take for a rest) and the card as taken (face.jpg). The camera is stood in
for by a pipeline holding a rendered photo as its latest frame, and a real StillWatch fed by hand."""
import numpy as np
import pytest

from vision.synth.photo import print_photos
from vision.track.still import StillWatch
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
        self.pipeline.stillness = StillWatch()
        self.t = 0.0

    def show(self, frame, moving=False, seconds=0.0):
        """The camera sees `frame` (moving: as it lands), then `seconds` more of it, still."""
        self.t += 0.1
        self.pipeline.latest_frame = frame
        self.pipeline.stillness.update(self.t, moving, frame)
        if moving:                      # the first still frame after it begins the rest
            self.t += 0.1
            self.pipeline.stillness.update(self.t, False, frame)
        if seconds:
            self.t += seconds
            self.pipeline.stillness.update(self.t, False, frame)
        return self.pipeline.stillness.view.rest

    deck = "dino2"

    def hold_for_teaching(self, seconds):
        self.held = seconds

    def use_taught(self, path):
        """What the finish hands a running camera of the deck (web/camera.py, tested with a real
        camera in test_teach_serve.py)."""
        from vision.teach.file import load
        load(path, self.deck)
        self.taught = path

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
    assert r.get_json()["aspect"] is None       # a standard card's shape (two photos could not tell another)
    from vision.teach.file import load
    assert sorted(load(data / "taught" / "dino2.npz", "dino2").cards) == ["blue-chill", "red-dingbat"]
    assert c.get("/api/tables/main/teach").get_json()["taught"] is True
    # the table's camera reads with it at once, and so does any camera started from now on
    assert r.get_json()["cameras"] == 1 and t.camera.taught == str(data / "taught" / "dino2.npz")
    assert c.application.config["TAUGHT"] == {"dino2": str(data / "taught" / "dino2.npz")}


def test_a_finish_switches_the_cameras_of_the_deck_taught_and_no_other(table):
    c, t, data = table
    other = StandInCamera()
    other.deck = "uno"
    registry = c.application.extensions["tableref"]
    setup = dict(SETUP, rules="ono")
    assert c.post("/api/tables/second/events", json=setup, headers=AUTH).status_code == 200
    registry.get("second").camera = other
    t.camera.pipeline.latest_frame = next(iter(print_photos("dino2", ["red-dingbat"], 1, seed=11, held=0.0,
                                                            strength=0.4)))[2]
    assert c.post("/api/tables/main/teach/red-dingbat", headers=AUTH).status_code == 200
    r = c.post("/api/tables/main/teach-finish", headers=AUTH)
    assert r.status_code == 200 and r.get_json()["cameras"] == 1
    assert t.camera.taught.endswith("dino2.npz") and not hasattr(other, "taught")


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


def photos_of(*cards, seed=11, size=(640, 480)):
    return {cid: img for cid, _, img, _ in print_photos("dino2", list(cards), 1, seed=seed, held=0.0,
                                                         strength=0.4, size=size)}


def auto_take(c, card, rest):
    return c.post(f"/api/tables/main/teach/{card}", json={"rest": rest}, headers=AUTH)


def stored(data, card):
    folder = data / "teach" / "dino2" / card
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_teach_view_reports_the_rest_and_when_it_has_settled(table):
    c, t, _ = table
    assert c.get("/api/tables/main/teach-view").status_code == 401
    assert c.get("/api/tables/main/teach-view", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert c.get("/api/tables/nope/teach-view", headers=AUTH).status_code == 404
    assert not hasattr(t.camera, "held")                 # refused polls hold nothing
    v = c.get("/api/tables/main/teach-view", headers=AUTH).get_json()
    assert v["camera"] is False and v["settled"] is False and v["rest"] == 0
    assert t.camera.held > 1                             # the page's poll keeps the camera off the game
    shot = photos_of("red-dingbat")["red-dingbat"]
    rest = t.camera.show(shot, moving=True)
    v = c.get("/api/tables/main/teach-view", headers=AUTH).get_json()
    assert v["camera"] is True and v["frames"] == 2 and v["settled"] is False and v["still_s"] == 0.0
    rest = t.camera.show(shot, seconds=0.2)          # 0.1 s a frame, then 0.2 s more: 0.3 s still
    v = c.get("/api/tables/main/teach-view", headers=AUTH).get_json()
    assert v["rest"] == rest == 1 and v["settled"] is False and v["still_s"] == pytest.approx(0.3)
    t.camera.show(shot, seconds=0.3)
    v = c.get("/api/tables/main/teach-view", headers=AUTH).get_json()
    assert v["settled"] is True and v["still_s"] >= v["settle_s"] == 0.5 and v["rest"] == 1


def test_a_card_is_taken_on_settle_once_until_it_is_lifted(table):
    c, t, data = table
    shots = photos_of("red-dingbat", "red-whale-rabbit")
    empty = np.full((480, 640, 3), 60, np.uint8)
    rest = t.camera.show(shots["red-dingbat"], moving=True, seconds=0.2)
    r = auto_take(c, "red-dingbat", rest)                  # not settled yet
    assert r.status_code == 409 and r.get_json()["why"] == "moved" and stored(data, "red-dingbat") == []
    t.camera.show(shots["red-dingbat"], seconds=0.4)
    assert auto_take(c, "red-dingbat", rest + 1).get_json()["why"] == "moved"   # a rest not yet begun
    r = auto_take(c, "red-dingbat", rest)
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["photo"] == 1 and body["rest"] == rest and body["done"] == 1 and body["next"] == "red-whale-rabbit"
    # the same card lying there: not the next card's photo, whether in the same rest or after a hand passed over it
    r = auto_take(c, "red-whale-rabbit", rest)
    assert r.status_code == 409 and r.get_json()["why"] == "same" and "red-dingbat" in r.get_json()["error"]
    rest = t.camera.show(shots["red-dingbat"], moving=True, seconds=0.6)
    r = auto_take(c, "red-whale-rabbit", rest)
    assert r.status_code == 409 and r.get_json()["why"] == "same"
    # lifted: the empty table's rest takes nothing and says so
    rest = t.camera.show(empty, moving=True, seconds=0.6)
    r = auto_take(c, "red-whale-rabbit", rest)
    assert r.status_code == 409 and r.get_json()["why"] == "no_card"
    assert "no card in view: lay red-whale-rabbit alone" in r.get_json()["error"]
    # the next card laid: taken
    rest = t.camera.show(shots["red-whale-rabbit"], moving=True, seconds=0.6)
    r = auto_take(c, "red-whale-rabbit", rest)
    assert r.status_code == 200 and r.get_json()["done"] == 2
    assert stored(data, "red-dingbat") == ["1.jpg"] and stored(data, "red-whale-rabbit") == ["1.jpg"]
    # by hand, the host may take the same card again on purpose: a second photo
    r = c.post("/api/tables/main/teach/red-whale-rabbit", headers=AUTH)
    assert r.status_code == 200 and r.get_json()["photos"]["red-whale-rabbit"] == 2


def test_two_cards_in_view_are_not_taken(table):
    c, t, data = table
    halves = photos_of("red-dingbat", "blue-chill", seed=5, size=(320, 480))
    two = np.hstack([halves["red-dingbat"], halves["blue-chill"]])
    rest = t.camera.show(two, moving=True, seconds=0.6)
    r = auto_take(c, "red-dingbat", rest)
    assert r.status_code == 409 and r.get_json()["why"] == "several"
    assert "2 cards in view" in r.get_json()["error"] and stored(data, "red-dingbat") == []


def test_after_a_retake_the_same_card_laid_again_is_taken(table):
    c, t, data = table
    shot = photos_of("red-dingbat")["red-dingbat"]
    rest = t.camera.show(shot, moving=True, seconds=0.6)
    assert auto_take(c, "red-dingbat", rest).status_code == 200
    assert c.delete("/api/tables/main/teach/red-dingbat", headers=AUTH).get_json()["done"] == 0
    rest = t.camera.show(shot, moving=True, seconds=0.6)      # lifted and laid where it was
    r = auto_take(c, "red-dingbat", rest)
    assert r.status_code == 200 and r.get_json()["photo"] == 1 and stored(data, "red-dingbat") == ["1.jpg"]


def test_a_take_on_settle_refuses_bad_requests_and_changes_nothing(table):
    c, t, data = table
    rest = t.camera.show(photos_of("red-dingbat")["red-dingbat"], moving=True, seconds=0.6)
    assert c.post("/api/tables/main/teach/red-dingbat", json={"rest": rest}).status_code == 401
    assert c.post("/api/tables/nope/teach/red-dingbat", json={"rest": rest}, headers=AUTH).status_code == 404
    assert c.post("/api/tables/main/teach/red-7", json={"rest": rest}, headers=AUTH).status_code == 404
    for body in ({"rest": "1"}, {"rest": 0}, {"rest": True}, {"rest": 1.0}, {}, {"rest": rest, "card": "x"}, [rest]):
        r = c.post("/api/tables/main/teach/red-dingbat", json=body, headers=AUTH)
        assert r.status_code == 400, body
    r = c.post("/api/tables/main/teach/red-dingbat", data="{rest:", content_type="application/json", headers=AUTH)
    assert r.status_code == 400
    r = c.post("/api/tables/main/teach/red-dingbat", data="rest=1", content_type="text/plain", headers=AUTH)
    assert r.status_code == 415
    assert stored(data, "red-dingbat") == []


def test_no_camera_no_take_on_settle():
    from web.app import create_app as make
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        app = make({"DATA_DIR": d, "HOST_TOKEN": TOKEN, "HEARTBEAT_S": 0.2})
        c = app.test_client()
        assert c.post("/api/tables/main/events", json=SETUP, headers=AUTH).status_code == 200
        try:
            assert c.get("/api/tables/main/teach-view", headers=AUTH).get_json()["camera"] is False
            r = auto_take(c, "red-dingbat", 1)
            assert r.status_code == 409 and r.get_json()["why"] == "no_picture"
        finally:
            app.extensions["tableref"].shutdown()


def test_the_card_as_taken_is_shown_straightened(table):
    import cv2
    c, t, data = table
    url = "/api/tables/main/teach/red-dingbat/face.jpg"
    assert c.get(url).status_code == 401
    assert c.get("/api/tables/nope/teach/red-dingbat/face.jpg", headers=AUTH).status_code == 404
    assert c.get("/api/tables/main/teach/red-7/face.jpg", headers=AUTH).status_code == 404
    r = c.get(url, headers=AUTH)
    assert r.status_code == 404 and "no photo" in r.get_json()["error"]
    shots = photos_of("red-dingbat", "blue-chill")
    rest = t.camera.show(shots["red-dingbat"], moving=True, seconds=0.6)
    assert auto_take(c, "red-dingbat", rest).status_code == 200
    r = c.get(url, headers=AUTH)
    assert r.status_code == 200 and r.mimetype == "image/jpeg" and r.headers["Cache-Control"] == "no-store"
    face = cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)
    assert face.shape[0] > face.shape[1]                  # a card, upright, not the 640x480 photo
    # a second photo then its retake: the first photo's face is found again from the stored file
    rest = t.camera.show(shots["blue-chill"], moving=True, seconds=0.6)
    assert c.post("/api/tables/main/teach/red-dingbat", headers=AUTH).status_code == 200   # by hand: photo 2
    assert c.delete("/api/tables/main/teach/red-dingbat", headers=AUTH).status_code == 200
    again = cv2.imdecode(np.frombuffer(c.get(url, headers=AUTH).data, np.uint8), cv2.IMREAD_COLOR)
    assert again.shape == face.shape and np.abs(again.astype(int) - face.astype(int)).mean() < 12


def test_a_deck_edged_in_black_is_taken_once_its_border_is_learned(table):
    """The built-in locator looks for a white margin and finds no card of a black-edged print; the
    take learns the border from the frame, takes the card, and the finish keeps the border."""
    import random
    from dataclasses import replace
    from vision.art import style_for
    from vision.teach.file import load
    c, t, data = table
    style = replace(style_for("dino2", random.Random(8)), edge=(28, 26, 30))
    photos = list(print_photos("dino2", ["red-dingbat", "blue-chill"], 1, seed=31, style=style,
                               held=0.0, strength=0.4))
    shots = {cid: img for cid, _, img, _ in photos}
    truth = photos[0][3]
    rec = t.camera.pipeline.recognizer
    from vision.locate import quad_iou
    from vision.teach.faces import card_outlines
    # a white margin looked for: no outline of the whole card (at most a shape on it)
    assert all(quad_iou(q.pts, truth) < 0.8 for q in card_outlines(rec, shots["red-dingbat"]))
    t.camera.pipeline.latest_frame = shots["red-dingbat"]
    r = c.post("/api/tables/main/teach/red-dingbat", headers=AUTH)
    assert r.status_code == 200, r.get_json()
    assert rec.border is not None and rec.border.words() == "black"
    assert quad_iou(np.float32(r.get_json()["polygon"]), truth) > 0.85
    t.camera.pipeline.latest_frame = shots["blue-chill"]
    assert c.post("/api/tables/main/teach/blue-chill", headers=AUTH).status_code == 200
    r = c.post("/api/tables/main/teach-finish", headers=AUTH)
    assert r.status_code == 200 and r.get_json()["border"] == "black", r.get_json()
    assert load(data / "taught" / "dino2.npz").border.words() == "black"


def test_a_look_learned_wrong_from_the_first_photo_is_learned_again(tmp_path, monkeypatch):
    """A deck drawn in thin ink on white card stock: its first photo alone passes for a card edged
    in the dark table's colour, a look that finds none of the deck's other cards. Where that look
    finds no card, the look is learned again from the built-in one over the photos taken so far
    and the frame, border and white faces alike: white faces, and the cards are taken."""
    import web.teach_api as teach_api
    from tests.test_teach_handdrawn import INKED, INKED_CARDS
    from vision.locate import quad_iou
    from vision.recognizer import Recognizer
    monkeypatch.setattr(teach_api, "LEARN_EVERY_S", 0.0)   # the host's next take comes at once here
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN, "HEARTBEAT_S": 0.2})
    c = app.test_client()
    setup = {"type": "setup", "rules": "regulation", "players": ["Ana", "Ben", "Cy"], "dealer": 0}
    assert c.post("/api/tables/main/events", json=setup, headers=AUTH).status_code == 200
    t = app.extensions["tableref"].get("main")
    t.camera = StandInCamera()
    rec = t.camera.pipeline.recognizer = Recognizer("uno", text=False)
    try:
        photos = list(print_photos("uno", INKED_CARDS, 1, seed=41, hand=INKED, held=0.0, strength=0.4))
        taken = []
        for cid, _, img, truth in photos:
            t.camera.pipeline.latest_frame = img
            r = c.post(f"/api/tables/main/teach/{cid}", headers=AUTH)
            if r.status_code == 200:
                taken.append(quad_iou(np.float32(r.get_json()["polygon"]), truth))
            if cid == photos[0][0]:
                first_border = rec.border
        # (the first photo: a border learned; the look as it was before this change stayed so, and
        # took none of the other five)
        assert first_border is not None
        assert rec.border is None and rec.white_faces
        assert len(taken) >= 5 and sum(iou > 0.9 for iou in taken) >= 3, taken
        r = c.post("/api/tables/main/teach-finish", headers=AUTH)
        assert r.status_code == 200 and r.get_json()["faces"] == "white", r.get_json()
    finally:
        app.extensions["tableref"].shutdown()


def test_the_host_teaches_the_decks_back_as_a_card_face_down(table):
    """`back` takes a photo of the deck's back (any card face down) into DATA/teach/DECK/back/, the
    layout `tableref teach --from` reads; the finish teaches it, and the report says so."""
    import random
    from vision.art import render_back
    from vision.synth.photo import card_photo
    c, t, data = table
    assert c.get("/api/tables/main/teach").get_json()["back"] == 0
    t.camera.pipeline.latest_frame = photos_of("red-dingbat")["red-dingbat"]
    assert c.post("/api/tables/main/teach/red-dingbat", headers=AUTH).status_code == 200
    g = np.random.default_rng(5)
    t.camera.pipeline.latest_frame = card_photo(render_back("dino2", rng=random.Random(3)), g, held=0.0, strength=0.4)[0]
    r = c.post("/api/tables/main/teach/back", headers=AUTH)
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["back"] == 1 and body["photos"]["back"] == 1 and body["done"] == 1      # the back is no card of the 88
    assert stored(data, "back") == ["1.jpg"]
    face = c.get("/api/tables/main/teach/back/face.jpg", headers=AUTH)
    assert face.status_code == 200 and face.data[:2] == b"\xff\xd8"
    r = c.post("/api/tables/main/teach-finish", headers=AUTH)
    assert r.status_code == 200 and r.get_json()["back"]["photos"] == 1, r.get_json()
    from vision.teach.file import load
    assert load(data / "taught" / "dino2.npz", "dino2").has_back
    # a retake drops it; a name that is neither a card nor the back is still refused
    assert c.delete("/api/tables/main/teach/back", headers=AUTH).get_json()["back"] == 0
    r = c.post("/api/tables/main/teach/backs", headers=AUTH)
    assert r.status_code == 404 and "'back', its back" in r.get_json()["error"]
