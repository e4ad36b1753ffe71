"""Reading a shown hand (web/reveal.py, POST/GET/DELETE .../reveal, .../reveal/confirm): the host
starts it for a player, the camera's reveal mode reads every card in view, the page gets the
reading with unsure cards marked (overlapping, cut by the edge, low confidence), and only the list
the table confirms goes to the referee as that player's `reveal`.

The challenge worked from docs/rules/regulation.md: Ben's wild-draw4 (naming blue) on red-5, Cy
challenges, Ben held 6 cards when it went down; shown with red-9 it was a bluff."""
from __future__ import annotations

import sys
import time
import types

from helpers import wait_for
from web.app import create_app
from web.reveal import reading

TOKEN = "reveal-test-token-0123456"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
HAND = ["blue-1", "green-2", "yellow-3", "blue-4", "green-6", "red-9"]


def card(cid, x, y, conf=0.95, w=60, h=90):
    return {"card": cid, "confidence": conf, "polygon": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]}


def test_the_reading_marks_overlapping_cut_and_unsure_cards():
    got = reading({"cards": [card("red-1", 100, 100), card("red-2", 130, 110), card("blue-3", 600, 200),
                             card("green-4", 300, 300, conf=0.4), card("yellow-5", 400, 300)]}, 640, 480)
    problems = {c["card"]: c["problem"] for c in got["cards"]}
    assert problems == {"red-1": "overlaps another card", "red-2": "overlaps another card",
                        "blue-3": "cut by the picture's edge", "green-4": "not sure of this card", "yellow-5": None}
    assert [c["sure"] for c in got["cards"]] == [False, False, False, False, True]
    assert len(got["problems"]) == 4
    # side by side, slightly touching, is not overlapping
    assert all(c["sure"] for c in reading({"cards": [card("red-1", 100, 100), card("red-2", 158, 102)]}, 640, 480)["cards"])


class RevealPipeline:
    """Reads the shown hand (`hand`, its first card unsure) as soon as reveal mode is on, laid out
    in rows of seven as a player would lay a hand out under the camera."""
    made = []
    hand = HAND

    def __init__(self, source, deck):
        self.source = types.SimpleNamespace()
        self.latest_jpeg, self.status, self.reveal, self.frame_size = None, {"state": "running", "message": ""}, False, (640, 480)
        RevealPipeline.made.append(self)

    def set_reveal(self, on):
        self.reveal = on

    def run(self, on_event, stop_event):
        sent = False
        while not stop_event.is_set():
            if self.reveal and not sent:
                on_event({"type": "reveal_cards", "t": 9.0,
                          "cards": [card(c, 20 + 85 * (i % 7), 40 + 200 * (i // 7), 0.95 if i else 0.45)
                                    for i, c in enumerate(self.hand)]})
                sent = True
            time.sleep(0.02)


def test_a_challenge_reveal_read_by_the_camera_confirmed_and_ruled(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "vision.track.pipeline", types.SimpleNamespace(TablePipeline=RevealPipeline))
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    c = app.test_client()
    for e in [{"type": "setup", "rules": "regulation", "players": ["Ana", "Ben", "Cy"], "dealer": 0,
               "camera": "rtsp://127.0.0.1:9/table"}, {"type": "flip", "card": "red-5"},
              {"type": "play", "player": "Ben", "cards": ["wild-draw4"], "color": "blue"},
              {"type": "challenge", "player": "Cy"}]:
        assert c.post("/api/tables/main/events", json=e, headers=AUTH).get_json()["verdict"]["accepted"]
    assert wait_for(lambda: RevealPipeline.made and RevealPipeline.made[-1].status["state"] == "running")
    assert c.post("/api/tables/main/reveal", json={"player": "Zed"}, headers=AUTH).status_code == 400
    assert c.post("/api/tables/main/reveal", json={"player": "Ben"}).status_code == 401
    r = c.post("/api/tables/main/reveal", json={"player": "ben"}, headers=AUTH)
    assert r.status_code == 200 and r.get_json()["reveal"] == {"player": "Ben", "reading": None}
    assert wait_for(lambda: (c.get("/api/tables/main/reveal").get_json()["reveal"] or {}).get("reading"))
    read = c.get("/api/tables/main/reveal").get_json()["reveal"]["reading"]
    assert [x["card"] for x in read["cards"]] == HAND
    assert [x["sure"] for x in read["cards"]] == [False] + [True] * 5 and read["problems"] == ["blue-1: not sure of this card"]
    before = c.get("/api/tables/main/state").get_json()
    assert before["phase"] == "reveal"                      # nothing ruled while the hand is only read

    # a list the referee refuses (a card short) changes nothing and the reading goes on
    r = c.post("/api/tables/main/reveal/confirm", json={"cards": HAND[1:]}, headers=AUTH)
    assert r.status_code == 200 and not r.get_json()["verdict"]["accepted"]
    assert "6 cards but 5" in r.get_json()["verdict"]["reason"] and r.get_json()["reveal"]["player"] == "Ben"
    assert RevealPipeline.made[-1].reveal is True
    r = c.post("/api/tables/main/reveal/confirm", json={"cards": HAND}, headers=AUTH)
    body = r.get_json()
    assert body["verdict"]["accepted"] and "bluff" in body["verdict"]["reason"] and body["verdict"]["player"] == "Ben"
    assert body["reveal"] is None and RevealPipeline.made[-1].reveal is False
    assert c.get("/api/tables/main/state").get_json()["players"][1]["hand_count"] == 6 + 4
    assert c.delete("/api/tables/main/reveal", headers=AUTH).status_code == 409      # none under way
    app.extensions["tableref"].shutdown()


def _camera_table(tmp_path, monkeypatch, hand, events):
    """A table whose camera reads `hand` when asked, fed `events` (each accepted)."""
    monkeypatch.setitem(sys.modules, "vision.track.pipeline", types.SimpleNamespace(TablePipeline=RevealPipeline))
    monkeypatch.setattr(RevealPipeline, "hand", hand)
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    c = app.test_client()
    for e in events:
        r = c.post("/api/tables/main/events", json=e, headers=AUTH).get_json()
        assert r["verdict"]["accepted"], (e, r["verdict"])
    assert wait_for(lambda: RevealPipeline.made and RevealPipeline.made[-1].status["state"] == "running")
    return app, c


def _read_and_confirm(c, player, hand):
    assert c.post("/api/tables/main/reveal", json={"player": player}, headers=AUTH).status_code == 200
    assert wait_for(lambda: (c.get("/api/tables/main/reveal").get_json()["reveal"] or {}).get("reading"))
    read = c.get("/api/tables/main/reveal").get_json()["reveal"]["reading"]
    assert [x["card"] for x in read["cards"]] == hand and not any(x["problem"] == "overlaps another card"
                                                                  for x in read["cards"])
    return c.post("/api/tables/main/reveal/confirm", json={"cards": hand}, headers=AUTH).get_json()


def test_an_ono_round_scored_from_the_hand_the_camera_read(tmp_path, monkeypatch):
    # worked by hand from docs/rules/ono.md (points): Ben goes out, Ana's 13 cards score for him:
    # 1+2+9 + 20+20+20 (skip, reverse, draw2) + 50+50 (wild, wild draw four) + 0+5+3+8+9 = 197
    hand = ["blue-1", "blue-2", "green-9", "green-skip", "yellow-reverse", "blue-draw2", "wild",
            "wild-draw4", "yellow-0", "yellow-5", "green-3", "blue-8", "yellow-9"]
    events = [{"type": "setup", "rules": "ono", "players": ["Ana", "Ben"], "dealer": 0,
               "options": {"points_target": 500}, "camera": "rtsp://127.0.0.1:9/table"},
              {"type": "flip", "card": "red-0"}]
    for i, cid in enumerate(["red-1", "red-2", "red-3", "red-4", "red-5", "red-6", "red-7"]):
        if i == 6:
            events.append({"type": "call", "caller": "Ben", "target": "Ben"})
        events.append({"type": "play", "player": "Ben", "cards": [cid]})
        if i < 6:
            events += [{"type": "draw", "player": "Ana", "count": 1}, {"type": "pass", "player": "Ana"}]
    app, c = _camera_table(tmp_path, monkeypatch, hand, events)
    assert c.get("/api/tables/main/state").get_json()["phase"] == "scoring"
    body = _read_and_confirm(c, "Ana", hand)
    assert body["verdict"]["accepted"], body["verdict"]
    state = c.get("/api/tables/main/state").get_json()
    assert [p["score"] for p in state["players"]] == [0, 197] and state["round"] == 2
    assert body["reveal"] is None and RevealPipeline.made[-1].reveal is False
    app.extensions["tableref"].shutdown()


def test_a_dino2_special_hand_read_by_the_camera_wins_at_once(tmp_path, monkeypatch):
    # docs/rules/dino2.md: three CAPTAIN JACK SPARROWs shown win the game, even out of turn
    captains = ["red-captain-jack-sparrow", "blue-captain-jack-sparrow", "green-captain-jack-sparrow"]
    events = [{"type": "setup", "rules": "dino2", "players": ["Ana", "Ben", "Cy", "Dee"], "dealer": 0,
               "camera": "rtsp://127.0.0.1:9/table"}, {"type": "flip", "card": "red-candy"}]
    app, c = _camera_table(tmp_path, monkeypatch, captains[:2], events)
    # two captains are no winning hand: refused, nothing changes, the reading goes on
    body = _read_and_confirm(c, "Cy", captains[:2])
    assert not body["verdict"]["accepted"] and "no winning hand" in body["verdict"]["reason"]
    assert body["reveal"]["player"] == "Cy" and c.get("/api/tables/main/state").get_json()["winner"] is None
    r = c.post("/api/tables/main/reveal/confirm", json={"cards": captains}, headers=AUTH).get_json()
    assert r["verdict"]["accepted"], r["verdict"]
    state = c.get("/api/tables/main/state").get_json()
    assert state["winner"] == 2 and state["phase"] == "over"
    app.extensions["tableref"].shutdown()


def test_no_camera_no_reading(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    c = app.test_client()
    c.post("/api/tables/main/events", json={"type": "setup", "rules": "ono", "players": ["Ana", "Ben"]}, headers=AUTH)
    r = c.post("/api/tables/main/reveal", json={"player": "Ana"}, headers=AUTH)
    assert r.status_code == 409 and "no camera" in r.get_json()["error"]
    app.extensions["tableref"].shutdown()
