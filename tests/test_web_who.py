"""Who a camera play is charged to (web/who.py, TableRegistry.camera_play / answer, POST
.../who-played): with seats marked, a sure seat is charged to its player (out of turn in prison a
jump-in, elsewhere a refusal in that player's name); an unsure one becomes a question and nothing
is charged until answered; later plays wait behind it; no seats, the player on turn as before.

Expected verdicts from docs/rules/prison.md: play runs counterclockwise, so after Ana deals and
flips, Dee (seat 3) is on turn; a jump-in with the same number by anyone else is accepted, costs 2
cards when not announced, and play goes on from the jumper to their right (Cy -> Ben)."""
from __future__ import annotations

import sys
import time
import types

import pytest

from helpers import wait_for
from web.app import create_app
from web.who import card_words, charge, question_for

TOKEN = "who-played-test-token-0123"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = ["Ana", "Ben", "Cy", "Dee"]
SEATS = {"seats": [{"player": "Ana", "x": 0.5, "y": 1}, {"player": "Ben", "x": 1, "y": 0.5},
                   {"player": "Cy", "x": 0.5, "y": 0}, {"player": "Dee", "x": 0, "y": 0.5}]}
EDGES = {"Ana": 2.5, "Ben": 1.5, "Cy": 0.5, "Dee": 3.5}


def play(card, seat=None, conf=0.0, likely=None, hands=1):
    return {"type": "play", "cards": [card], "confidence": 0.95, "t": 3.0, "seat": seat, "seat_confidence": conf,
            "seat_likely": likely or ([[seat, conf]] if seat else []), "hands": hands}


# -- the pure decision ----------------------------------------------------------------------------------
def test_no_seats_charges_the_player_on_turn_as_before():
    action, event, why = charge(play("red-7", "Cy", 0.99), 1, {}, PLAYERS)
    assert action == "submit" and event["player"] == 1 and "no seats" in why


def test_a_sure_seat_is_charged_to_its_player():
    action, event, _ = charge(play("red-7", "Cy", 0.95), 1, EDGES, PLAYERS)
    assert action == "submit" and event["player"] == "Cy"


def test_an_unsure_seat_asks_with_the_likely_players_first():
    action, q, _ = charge(play("red-7", "Cy", 0.55, [["Cy", 0.55], ["Dee", 0.44], ["Ana", 0.01]]), 1, EDGES, PLAYERS)
    assert action == "ask" and q["text"] == "Who played the red 7?"
    assert q["likely"][:2] == ["Cy", "Dee"] and sorted(q["likely"]) == sorted(PLAYERS)
    assert "between Cy's and Dee's" in q["why"]


def test_no_hand_and_two_hands_ask_too():
    assert charge(play("red-7"), 1, EDGES, PLAYERS)[0] == "ask"
    assert question_for(play("red-7"), PLAYERS)["why"] == "no hand was seen bringing it"
    two = play("red-7", "Cy", 0.5, [["Cy", 0.5], ["Ana", 0.5]], hands=2)
    assert charge(two, 1, EDGES, PLAYERS)[0] == "ask" and "more than one place" in question_for(two, PLAYERS)["why"]


def test_unconfirmed_cards_and_hints_still_wait_for_the_table():
    assert charge({**play("red-7", "Cy", 0.99), "unconfirmed": True}, 1, EDGES, PLAYERS)[0] == "skip"
    assert charge({"type": "draw_hint"}, 1, EDGES, PLAYERS)[0] == "skip"


def test_cards_are_named_in_words():
    assert card_words("red-7") == "red 7" and card_words("wild-draw4") == "wild draw 4"
    assert card_words("green-draw2") == "green draw 2" and card_words("blue-skip") == "blue skip"


# -- the table --------------------------------------------------------------------------------------------
@pytest.fixture
def app(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    yield app
    app.extensions["tableref"].shutdown()


def table_with(client, rules, players=PLAYERS):
    assert client.post("/api/tables/main/events", json={"type": "setup", "rules": rules, "players": players,
                                                         "dealer": 0}, headers=AUTH).status_code == 200
    assert client.post("/api/tables/main/events", json={"type": "flip", "card": "red-5"},
                       headers=AUTH).get_json()["verdict"]["accepted"]


def test_a_sure_jump_in_in_prison_goes_to_the_jumper(app):
    c = app.test_client()
    table_with(c, "prison")
    reg = app.extensions["tableref"]
    assert c.get("/api/tables/main/state").get_json()["current_player"] == 3          # Dee
    _, event, _ = charge(play("blue-5", "Cy", 0.97), 3, EDGES, PLAYERS)
    [result] = reg.camera_play("main", event)
    assert result.verdict.accepted and result.verdict.player == "Cy" and "jumps in" in result.verdict.reason
    state = c.get("/api/tables/main/state").get_json()
    assert state["current_player"] == 1 and state["players"][2]["hand_count"] == 10 - 1 + 2


def test_a_sure_play_out_of_turn_elsewhere_is_refused_in_that_players_name(app):
    c = app.test_client()
    table_with(c, "ono", ["Ana", "Ben", "Cy"])
    [result] = app.extensions["tableref"].camera_play("main", {**play("red-7"), "player": "Cy"})
    assert not result.verdict.accepted and result.verdict.player == "Cy" and "not Cy's" in result.verdict.reason


def test_an_unsure_play_is_asked_nothing_is_charged_and_the_answer_charges_it(app, tmp_path):
    c = app.test_client()
    table_with(c, "prison")
    assert c.put("/api/tables/main/seats", json=SEATS, headers=AUTH).status_code == 200
    reg = app.extensions["tableref"]
    before = c.get("/api/tables/main/state").get_json()
    unsure = play("red-7", "Cy", 0.5, [["Cy", 0.5], ["Ben", 0.49]])
    _, q, _ = charge(unsure, 3, EDGES, PLAYERS)
    assert reg.camera_play("main", unsure, q) == []
    # a sure play seen after it waits behind it (the referee judges plays in the order made)
    assert reg.camera_play("main", {**play("red-9"), "player": "Dee"}) == []
    assert c.get("/api/tables/main/state").get_json()["event_count"] == before["event_count"]
    asked = c.get("/api/tables/main/who-played").get_json()
    assert [x["text"] for x in asked["questions"]] == ["Who played the red 7?"] and asked["waiting"] == 2
    assert asked["questions"][0]["likely"][:2] == ["Cy", "Ben"] and asked["questions"][0]["waiting"] == 1
    qid = asked["questions"][0]["id"]
    assert "who_played" in reg.get("main").payload() and reg.get("main").payload()["who_played"][0]["id"] == qid

    bad = c.post("/api/tables/main/who-played", json={"question": qid, "player": "Zed"}, headers=AUTH)
    assert bad.status_code == 400 and "does not play" in bad.get_json()["error"]
    assert c.post("/api/tables/main/who-played", json={"question": qid, "player": "Cy"}).status_code == 401
    assert c.get("/api/tables/main/who-played").get_json()["waiting"] == 2

    r = c.post("/api/tables/main/who-played", json={"question": qid, "player": "Cy"}, headers=AUTH)
    assert r.status_code == 200
    verdicts = r.get_json()["verdicts"]
    # Cy jumps in with red-7 on red-5? Not the same number: refused in Cy's name; then Dee's red-9 on red-5
    assert [v["player"] for v in verdicts] == ["Cy", "Dee"]
    assert not verdicts[0]["accepted"] and verdicts[1]["accepted"]
    assert r.get_json()["questions"] == [] and c.get("/api/tables/main/who-played").get_json()["waiting"] == 0
    again = c.post("/api/tables/main/who-played", json={"question": qid, "player": "Cy"}, headers=AUTH)
    assert again.status_code == 409 and "answered already" in again.get_json()["error"]


def test_nobody_dismisses_the_question_and_questions_survive_a_restart(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    c = app.test_client()
    table_with(c, "prison")
    reg = app.extensions["tableref"]
    reg.camera_play("main", play("blue-5"), question_for(play("blue-5"), PLAYERS))
    reg.shutdown()
    reg.store.close()
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    c = app.test_client()
    [q] = c.get("/api/tables/main/who-played").get_json()["questions"]
    assert q["text"] == "Who played the blue 5?" and q["why"] == "no hand was seen bringing it"
    before = c.get("/api/tables/main/state").get_json()["event_count"]
    r = c.post("/api/tables/main/who-played", json={"question": q["id"], "player": None}, headers=AUTH)
    assert r.status_code == 200 and r.get_json()["verdicts"] == []
    assert c.get("/api/tables/main/state").get_json()["event_count"] == before
    app.extensions["tableref"].shutdown()


class SeatedPipeline:
    """Sees red-5 turned up, then Cy's sure blue-5 and an unsure red-5, with seats (as the real
    pipeline's events, docs/vision.md)."""
    made = []

    def __init__(self, source, deck):
        self.source = types.SimpleNamespace()
        self.latest_jpeg, self.status, self.seats = None, {"state": "starting", "message": ""}, None
        SeatedPipeline.made.append(self)

    def run(self, on_event, stop_event):
        self.status = {"state": "running", "message": ""}
        while not self.seats and not stop_event.is_set():
            time.sleep(0.02)                 # the test marks the seats first
        on_event({"type": "flip", "card": "red-5", "t": 1.0})
        on_event(play("blue-5", "Cy", 0.97))
        on_event(play("red-5", "Ana", 0.5, [["Ana", 0.5], ["Ben", 0.5]], hands=2))
        stop_event.wait(10)


def test_the_camera_charges_seats_and_asks(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "vision.track.pipeline", types.SimpleNamespace(TablePipeline=SeatedPipeline))
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    c = app.test_client()
    setup = {"type": "setup", "rules": "prison", "players": PLAYERS, "camera": "rtsp://127.0.0.1:9/table"}
    assert c.post("/api/tables/main/events", json=setup, headers=AUTH).status_code == 200
    assert "no seats marked" in c.get("/api/tables/main/camera").get_json()["seats_note"]
    assert c.put("/api/tables/main/seats", json=SEATS, headers=AUTH).status_code == 200
    assert wait_for(lambda: c.get("/api/tables/main/who-played").get_json()["questions"])
    assert SeatedPipeline.made[-1].seats == EDGES
    state = c.get("/api/tables/main/state").get_json()
    assert state["top_card"] == "blue-5" and state["last_player"] == 2          # Cy's jump-in
    status = c.get("/api/tables/main/camera").get_json()
    assert status["seats_marked"] and "Who played the red 5?" in status["last_result"]
    app.extensions["tableref"].shutdown()


def test_a_new_game_drops_the_questions_about_the_last_one(app):
    c = app.test_client()
    table_with(c, "prison")
    reg = app.extensions["tableref"]
    reg.camera_play("main", play("blue-5"), question_for(play("blue-5"), PLAYERS))
    assert c.get("/api/tables/main/who-played").get_json()["waiting"] == 1
    for _ in range(2):
        c.post("/api/tables/main/events", json={"type": "undo"}, headers=AUTH)     # back before the setup
    assert c.post("/api/tables/main/events", json={"type": "setup", "rules": "prison", "players": PLAYERS},
                  headers=AUTH).get_json()["verdict"]["accepted"]
    assert c.get("/api/tables/main/who-played").get_json() == {"questions": [], "waiting": 0}


def test_the_demo_table_reads_a_camera_play_with_its_seat_as_the_recorded_play():
    from web.demo import same_event
    recorded = {"type": "play", "player": 2, "cards": ["wild"]}
    seen = {**play("wild", "Cy", 0.97), "player": 2, "hand_edge": 1.0}
    assert same_event(seen, PLAYERS) == same_event(recorded, PLAYERS)
    assert same_event({**seen, "player": 1}, PLAYERS) != same_event(recorded, PLAYERS)


class UnseatedPipeline:
    """No seats marked: red-5 turned up, then the player on turn (Ben, ONO!) plays red-7 from the
    left edge, then a rejected blue-9 from the bottom."""
    def __init__(self, source, deck):
        self.source = types.SimpleNamespace()
        self.latest_jpeg, self.status, self.seats = None, {"state": "running", "message": ""}, None

    def run(self, on_event, stop_event):
        on_event({"type": "flip", "card": "red-5", "t": 1.0})
        on_event({**play("red-7"), "hand_edge": 3.6, "hands": 1})
        on_event({**play("blue-9"), "hand_edge": 2.5, "hands": 1})
        stop_event.wait(10)


def test_without_seats_the_camera_notes_where_each_accepted_players_hand_came_in(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "vision.track.pipeline", types.SimpleNamespace(TablePipeline=UnseatedPipeline))
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    c = app.test_client()
    setup = {"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"], "camera": "rtsp://127.0.0.1:9/table"}
    assert c.post("/api/tables/main/events", json=setup, headers=AUTH).status_code == 200
    assert wait_for(lambda: c.get("/api/tables/main/camera").get_json()["events_sent"] == 3)
    assert app.extensions["tableref"].get("main").hands_seen == {"Ben": [3.6]}     # the refused one is not noted
    app.extensions["tableref"].shutdown()
