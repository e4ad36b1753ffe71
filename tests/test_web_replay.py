"""The replay endpoints (issue 19) through Flask's test client: each step is the state the referee
had after that event in force, undone and refused events are not steps, a table's games are
replayed one at a time, bad input is answered in words, and reading a replay changes nothing.

Expected states are worked out by hand from the ONO! rules (docs/rules/): 7 cards each, the
player to the dealer's left (Ben) starts, a reverse turns play counterclockwise.
"""
from __future__ import annotations

import pytest

from referee import Game
from web.app import create_app
from web.replay import game_spans

TOKEN = "replay-test-token-0123"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SETUP = {"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"], "dealer": 0, "options": {}}


@pytest.fixture
def client(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    yield app.test_client()
    app.extensions["tableref"].shutdown()


def post(client, event, table="main"):
    r = client.post(f"/api/tables/{table}/events", json=event, headers=AUTH)
    assert r.status_code == 200, r.get_json()
    return r.get_json()["verdict"]


def counts(state):
    return [p["hand_count"] for p in state["players"]]


def played(client):
    for e in (SETUP, {"type": "flip", "card": "red-5"}, {"type": "play", "player": 1, "cards": ["red-7"]},
              {"type": "play", "player": 2, "cards": ["blue-7"]}):
        assert post(client, e)["accepted"]
    assert post(client, {"type": "undo"})["accepted"]                                   # blue-7 taken back
    assert not post(client, {"type": "play", "player": 2, "cards": ["green-3"]})["accepted"]   # refused
    assert post(client, {"type": "play", "player": 2, "cards": ["red-reverse"]})["accepted"]


def test_each_step_is_the_state_after_that_event_in_force(client):
    played(client)
    body = client.get("/api/tables/main/replay").get_json()
    assert (body["game"], body["games"], body["problems"]) == (1, 1, [])
    steps = body["steps"]
    # setup, flip, red-7, red-reverse: the undone blue-7 and the refused green-3 are not steps
    assert [s["n"] for s in steps] == [1, 2, 3, 4]
    assert [s["event"]["type"] for s in steps] == ["setup", "flip", "play", "play"]
    assert steps[2]["summary"] == "Ben plays red-7" and steps[2]["player"] == "Ben"
    by_hand = [  # (counts, current player, direction, top card)
        ([7, 7, 7], 0, "clockwise", None),
        ([7, 7, 7], 1, "clockwise", "red-5"),
        ([7, 6, 7], 2, "clockwise", "red-7"),
        ([7, 6, 6], 1, "counterclockwise", "red-reverse"),
    ]
    for step, (c, cur, direction, top) in zip(steps, by_hand):
        s = step["state"]
        assert (counts(s), s["current_player"], s["direction"], s["top_card"]) == (c, cur, direction, top), step["n"]
    # the last step is the table's own state now
    now = client.get("/api/tables/main/state").get_json()
    for key in ("players", "current_player", "direction", "top_card", "active_color", "pending_draw", "phase"):
        assert steps[-1]["state"][key] == now[key], key


def test_one_step_by_its_timeline_number(client):
    played(client)
    body = client.get("/api/tables/main/replay/3").get_json()
    assert body["n"] == 3 and body["summary"] == "Ben plays red-7" and body["game"] == 1
    assert counts(body["state"]) == [7, 6, 7] and body["state"]["current_player"] == 2


@pytest.mark.parametrize("url, status, words", [
    ("/api/tables/nowhere/replay", 404, "there is no table 'nowhere'"),
    ("/api/tables/nowhere/replay/1", 404, "there is no table 'nowhere'"),
    ("/api/tables/main/replay/0", 404, "there is no step 0 at table 'main': its timeline has events 1 to 4"),
    ("/api/tables/main/replay/5", 404, "there is no step 5"),
    ("/api/tables/main/replay/two", 400, "a step is a whole number from 1 to 4, not 'two'"),
    ("/api/tables/main/replay?step=9", 404, "there is no step 9"),
    ("/api/tables/main/replay?game=2", 404, "there is no game 2 at table 'main': it has only game 1"),
    ("/api/tables/main/replay?game=last", 400, "game must be a whole number, not 'last'"),
])
def test_bad_input_is_answered_in_words_and_changes_nothing(client, url, status, words):
    played(client)
    before = client.get("/api/tables/main/state").get_json()
    r = client.get(url)
    assert r.status_code == status and words in r.get_json()["error"]
    assert client.get("/api/tables/main/state").get_json() == before


def test_games_of_a_table_are_replayed_one_at_a_time():
    # a setup starts a game; the spans are the setups' places up to the next one
    events = [SETUP, {"type": "flip", "card": "red-5"}, SETUP, {"type": "flip", "card": "blue-2"},
              {"type": "play", "player": 1, "cards": ["blue-3"]}]
    assert game_spans(events) == [(0, 2), (2, 5)]


def test_a_second_game_is_its_own_replay_and_a_step_finds_its_game(client, monkeypatch):
    played(client)
    # End the first game without playing it out: the referee's state says over (a test shortcut),
    # so a new setup is accepted as the table's second game.
    table = client.application.extensions["tableref"].get("main")
    table.game.state.phase = "over"
    assert post(client, dict(SETUP, dealer=1))["accepted"]
    assert post(client, {"type": "flip", "card": "green-4"})["accepted"]
    first = client.get("/api/tables/main/replay?game=1").get_json()
    assert [s["n"] for s in first["steps"]] == [1, 2, 3, 4] and first["games"] == 2
    latest = client.get("/api/tables/main/replay").get_json()
    assert latest["game"] == 2 and [s["n"] for s in latest["steps"]] == [5, 6]
    # dealer Ben (1): Cy (2) starts after the flip
    assert latest["steps"][-1]["state"]["current_player"] == 2 and latest["steps"][-1]["state"]["top_card"] == "green-4"
    assert client.get("/api/tables/main/replay?step=6").get_json()["game"] == 2
    assert client.get("/api/tables/main/replay?step=2").get_json()["game"] == 1


def test_the_replay_matches_the_referee_fed_the_same_events(client):
    played(client)
    log = client.application.extensions["tableref"].get("main").game.log
    steps = client.get("/api/tables/main/replay").get_json()["steps"]
    for k, step in enumerate(steps, 1):
        own = Game.replay(log[:k]).to_dict()
        assert {key: v for key, v in step["state"].items() if key != "last_verdict"} == \
               {key: v for key, v in own.items() if key != "last_verdict"}


def test_a_camera_password_in_the_setup_is_masked(client):
    post(client, dict(SETUP, camera="rtsp://admin:hunter2@192.168.1.50/live"))
    text = client.get("/api/tables/main/replay").get_data(as_text=True)
    assert "hunter2" not in text and "192.168.1.50" in text


def test_the_replay_page_is_served_and_an_unknown_table_has_a_page_saying_so(client):
    played(client)
    r = client.get("/t/main/replay")
    assert r.status_code == 200 and b"replay.js" in r.data and b'id="next"' in r.data
    r = client.get("/t/nowhere/replay")
    assert r.status_code == 404 and "There is no table “nowhere”".encode() in r.data
