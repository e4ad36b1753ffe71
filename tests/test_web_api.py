"""The JSON API through Flask's test client: every endpoint, its errors, the host token, the store
before the acknowledgement, and a server that resumes from its store.

Expected states are worked out from shared/seeds/ono.txt: ONO! deals 7 cards each from 112, the
player to the dealer's left (dealer + 1) starts, a card matches by colour, number, food or action.
"""
from __future__ import annotations

import json

import pytest

from referee.store import SQLiteEventStore, StoreError
from web.app import create_app

TOKEN = "s3cret-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SETUP = {"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"], "dealer": 0}


def make_app(data, **extra):
    return create_app({"DATA_DIR": str(data), "HOST_TOKEN": TOKEN, "HEARTBEAT_S": 0.2, **extra})


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["tableref"].shutdown()


@pytest.fixture
def client(app):
    return app.test_client()


def post(client, event, table="main", headers=AUTH):
    return client.post(f"/api/tables/{table}/events", json=event, headers=headers)


def started(client):
    """A table `main`: ONO! for Ana, Ben, Cy, Ana deals, red-5 turned up: Ben's turn."""
    assert post(client, SETUP).status_code == 200
    r = post(client, {"type": "flip", "card": "red-5"})
    assert r.status_code == 200 and r.get_json()["verdict"]["accepted"]
    return r.get_json()["state"]


def bare(state):
    return {k: v for k, v in state.items() if k != "last_verdict"}


# -- creating a table and playing ---------------------------------------------------------------------
def test_setup_creates_the_table_and_the_state_follows_the_rules(client):
    r = post(client, SETUP)
    assert r.status_code == 200
    body = r.get_json()
    assert body["verdict"]["accepted"] is True
    st = body["state"]
    assert [p["hand_count"] for p in st["players"]] == [7, 7, 7]
    assert st["phase"] == "flip" and st["event_count"] == 1
    state = post(client, {"type": "flip", "card": "red-5"}).get_json()["state"]
    assert state["top_card"] == "red-5" and state["active_color"] == "red"
    assert state["current_player"] == 1                    # Ben, to the left of the dealer Ana
    assert state["draw_pile"] == 112 - 3 * 7 - 1 == 90
    assert client.get("/api/tables/main/state").get_json() == state


def test_accepted_play(client):
    started(client)
    r = post(client, {"type": "play", "player": "Ben", "cards": ["red-7"]})
    assert r.status_code == 200
    body = r.get_json()
    assert body["verdict"] == {"index": 2, "type": "play", "accepted": True, "reason": body["verdict"]["reason"], "player": "Ben"}
    assert "Ben plays red-7" in body["verdict"]["reason"]
    st = body["state"]
    assert st["top_card"] == "red-7" and st["current_player"] == 2
    assert [p["hand_count"] for p in st["players"]] == [7, 6, 7]
    assert st["event_count"] == 3


def test_rejected_play_is_200_and_changes_nothing(client):
    before = started(client)
    r = post(client, {"type": "play", "player": "Ben", "cards": ["blue-9"]})   # blue 9 on red 5
    assert r.status_code == 200
    v = r.get_json()["verdict"]
    assert v["accepted"] is False and "blue-9" in v["reason"] and "red-5" in v["reason"]
    after = client.get("/api/tables/main/state").get_json()
    assert bare(after) == bare(before)
    assert after["last_verdict"]["accepted"] is False           # phones show it loudly
    assert client.get("/api/tables/main/events").get_json()["events"] == [SETUP, {"type": "flip", "card": "red-5"}]


def test_out_of_turn_play_is_rejected_with_a_reason(client):
    started(client)
    v = post(client, {"type": "play", "player": "Cy", "cards": ["red-9"]}).get_json()["verdict"]
    assert v["accepted"] is False and "Ben's turn" in v["reason"]


def test_undo_takes_back_the_last_event(client):
    before = started(client)
    post(client, {"type": "play", "player": 1, "cards": ["red-7"]})
    r = post(client, {"type": "undo"})
    assert r.get_json()["verdict"]["accepted"] is True
    assert bare(r.get_json()["state"]) == bare(before)


# -- bad requests ---------------------------------------------------------------------------------------
def test_malformed_json_is_400_and_changes_nothing(client):
    before = started(client)
    r = client.post("/api/tables/main/events", data='{"type": "play", ', headers=AUTH, content_type="application/json")
    assert r.status_code == 400 and "malformed JSON" in r.get_json()["error"]
    r = client.post("/api/tables/main/events", data='NaN', headers=AUTH, content_type="application/json")
    assert r.status_code == 400
    r = client.post("/api/tables/main/events", data=b'\xff\xfe', headers=AUTH, content_type="application/json")
    assert r.status_code == 400
    assert client.get("/api/tables/main/state").get_json() == before


@pytest.mark.parametrize("event, words", [
    ({"type": "dance"}, "unknown event type 'dance'"),
    ({"player": 1}, "needs a string field 'type'"),
    ([1, 2], "must be a JSON object"),
    ({"type": "play", "player": 1}, "needs the field 'cards'"),
    ({"type": "draw", "player": 1, "count": "two"}, "whole number"),
])
def test_malformed_events_are_400_with_a_clear_message(client, event, words):
    before = started(client)
    r = post(client, event)
    assert r.status_code == 400
    assert words in r.get_json()["error"]
    assert client.get("/api/tables/main/state").get_json() == before


def test_wrong_content_type_is_415(client):
    started(client)
    r = client.post("/api/tables/main/events", data=json.dumps({"type": "undo"}), headers=AUTH,
                    content_type="text/plain")
    assert r.status_code == 415 and "application/json" in r.get_json()["error"]


def test_oversized_body_is_413(client):
    started(client)
    big = json.dumps({"type": "undo", "pad": "x" * 100_000})
    r = client.post("/api/tables/main/events", data=big, headers=AUTH, content_type="application/json")
    assert r.status_code == 413 and "too large" in r.get_json()["error"]


# -- the host token -------------------------------------------------------------------------------------
@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"},
                                     {"Authorization": f"Bearer {TOKEN}x"}, {"Authorization": "Bearer "}])
def test_changes_need_the_token(client, headers):
    before = started(client)
    r = post(client, {"type": "play", "player": "Ben", "cards": ["red-7"]}, headers=headers)
    assert r.status_code == 401
    assert "host token" in r.get_json()["error"]
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/api/tables/main/state").get_json() == before
    assert client.get("/api/auth", headers=headers).status_code == 401
    assert client.get("/api/auth", headers=AUTH).status_code == 200


def test_a_server_without_a_token_takes_no_changes(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path)})
    r = app.test_client().post("/api/tables/main/events", json=SETUP, headers={"Authorization": "Bearer None"})
    assert r.status_code == 401


def test_no_page_contains_the_token(client):
    started(client)
    for path in ["/", "/t/main", "/t/main/overlay", "/t/main/camera", "/api/tables/main/state",
                 "/api/tables/main", "/api/tables", "/static/phone.js", "/static/overlay.js"]:
        r = client.get(path)
        assert r.status_code == 200, path
        assert TOKEN not in r.get_data(as_text=True), path


# -- unknown tables and endpoints -------------------------------------------------------------------------
def test_unknown_table_is_404(client):
    started(client)
    for path in ["/api/tables/nope/state", "/api/tables/nope", "/api/tables/nope/stream",
                 "/api/tables/nope/events", "/api/tables/nope/camera", "/api/tables/nope/qr.svg"]:
        r = client.get(path)
        assert r.status_code == 404, path
        assert "no table 'nope'" in r.get_json()["error"]
    r = post(client, {"type": "play", "player": 1, "cards": ["red-7"]}, table="nope")
    assert r.status_code == 404 and "post a setup event" in r.get_json()["error"]
    assert client.get("/t/nope").status_code == 404


def test_a_table_id_must_be_simple(client):
    r = post(client, SETUP, table="Bad_Id!")
    assert r.status_code == 404 and "lower-case" in r.get_json()["error"]


def test_unknown_endpoint_and_method_are_json(client):
    r = client.get("/api/whatever")
    assert r.status_code == 404 and "no such endpoint" in r.get_json()["error"]
    r = client.delete("/api/tables/main/state")
    assert r.status_code == 405 and r.get_json()["error"]


def test_a_rejected_setup_creates_no_table(client):
    r = post(client, {"type": "setup", "rules": "ono", "players": ["Ana"]}, table="solo")
    assert r.status_code == 200 and r.get_json()["verdict"]["accepted"] is False
    assert "2 to 10 players" in r.get_json()["verdict"]["reason"]
    assert client.get("/api/tables/solo/state").status_code == 404
    assert client.get("/api/tables").get_json()["tables"] == []


# -- reading ------------------------------------------------------------------------------------------------
def test_lobby_endpoints(client):
    rules = client.get("/api/rules").get_json()["rules"]
    ono = next(r for r in rules if r["id"] == "ono")
    assert ono["deck"] == "ono" and any(o["name"] == "points_target" for o in ono["options"])
    deck = client.get("/api/decks/ono").get_json()
    assert deck["size"] == 112 and deck["colors"] == ["red", "yellow", "green", "blue"]
    wild4 = next(c for c in deck["cards"] if c["id"] == "wild-draw4")
    assert wild4["color"] is None and wild4["count"] == 4
    assert client.get("/api/decks/nope").status_code == 404

    started(client)
    post(client, {"type": "setup", "rules": "ono", "players": ["Di", "Ed"], "camera": None}, table="kitchen")
    tables = client.get("/api/tables").get_json()["tables"]
    assert [t["id"] for t in tables] == ["kitchen", "main"]
    main = client.get("/api/tables/main").get_json()
    assert main["deck"] == "ono" and main["players"] == ["Ana", "Ben", "Cy"] and main["event_count"] == 2
    assert main["links"]["overlay"] == "/t/main/overlay"


def test_qr_code_links_the_viewer_page(client):
    started(client)
    r = client.get("/api/tables/main/qr.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    assert r.get_data(as_text=True).lstrip().startswith("<svg")


def test_pages_have_a_strict_policy(client):
    started(client)
    r = client.get("/t/main")
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    assert r.headers["Referrer-Policy"] == "no-referrer"
    html = r.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html      # nothing from a CDN


def test_every_page_has_an_icon_and_the_browsers_default_ask_finds_it(client):
    # browsers ask for /favicon.ico on every first visit: a 404 there filled every log
    started(client)
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml" and b"<svg" in r.data
    for page in ("/", "/t/main", "/t/main/overlay"):
        html = client.get(page).get_data(as_text=True)
        assert 'rel="icon"' in html and "/static/favicon.svg" in html, page
    assert client.get("/static/favicon.svg").status_code == 200


# -- the stream ---------------------------------------------------------------------------------------------
def read_event(chunks) -> dict:
    """The next `data:` message of an SSE stream (skipping heartbeats), with its id."""
    while True:
        text = next(chunks).decode()
        if text.startswith(":"):
            continue
        fields = {}
        for line in text.strip().splitlines():
            name, _, value = line.partition(": ")
            fields[name] = value
        if "data" in fields:
            return {"id": int(fields["id"]), "state": json.loads(fields["data"])}


def test_stream_sends_the_state_on_connect_and_after_every_change(app, client):
    started(client)
    r = client.get("/api/tables/main/stream", buffered=False)
    assert r.mimetype == "text/event-stream"
    assert r.headers["X-Accel-Buffering"] == "no" and r.headers["Cache-Control"] == "no-cache"
    chunks = iter(r.response)
    first = read_event(chunks)
    assert first["id"] == 2 and first["state"]["top_card"] == "red-5"
    assert first["state"]["log"][-1]["summary"].startswith("red-5 is turned up")

    post(client, {"type": "play", "player": "Ben", "cards": ["red-7"]})
    second = read_event(chunks)
    assert second["id"] == 3 and second["state"]["top_card"] == "red-7" and second["state"]["current_player"] == 2

    post(client, {"type": "play", "player": "Cy", "cards": ["blue-9"]})     # rejected: pushed loudly
    third = read_event(chunks)
    assert third["id"] == 3 and third["state"]["last_verdict"]["accepted"] is False
    assert third["state"]["top_card"] == "red-7"

    assert next(chunks) == b": heartbeat\n\n"                   # HEARTBEAT_S is 0.2 s here
    app.extensions["tableref"].shutdown()
    with pytest.raises(StopIteration):                          # the stream ends when the server stops
        while True:
            next(chunks)


# -- persistence --------------------------------------------------------------------------------------------
def test_a_new_app_on_the_same_data_resumes_the_same_state(tmp_path):
    first = make_app(tmp_path)
    c = first.test_client()
    started(c)
    post(c, {"type": "play", "player": "Ben", "cards": ["red-7"]})
    post(c, {"type": "play", "player": "Cy", "cards": ["blue-9"]})          # rejected: not stored
    post(c, {"type": "play", "player": "Cy", "cards": ["red-skip"]})         # Ana is skipped: Ben
    state = c.get("/api/tables/main/state").get_json()
    assert state["current_player"] == 1 and state["event_count"] == 4
    first.extensions["tableref"].shutdown()
    first.extensions["tableref"].store.close()

    second = make_app(tmp_path)
    resumed = second.test_client().get("/api/tables/main/state").get_json()
    assert bare(resumed) == bare(state)
    assert len(second.test_client().get("/api/tables/main/events").get_json()["events"]) == 4


class FailingStore(SQLiteEventStore):
    """A disk that fills up: appends fail once `full` is set."""
    full = False

    def append(self, table, event):
        if self.full:
            raise StoreError("the event was not stored: database or disk is full")
        return super().append(table, event)


def test_an_event_the_store_refuses_is_503_and_never_appears(tmp_path):
    store = FailingStore(tmp_path / "t.sqlite3")
    app = create_app({"STORE": store, "HOST_TOKEN": TOKEN})
    c = app.test_client()
    before = started(c)
    store.full = True
    r = post(c, {"type": "play", "player": "Ben", "cards": ["red-7"]})
    assert r.status_code == 503 and "not stored" in r.get_json()["error"]
    assert bare(c.get("/api/tables/main/state").get_json()) == bare(before)
    store.full = False
    r = post(c, {"type": "play", "player": "Ben", "cards": ["red-7"]})     # the same play, now stored
    assert r.get_json()["verdict"]["accepted"] and r.get_json()["state"]["event_count"] == 3


def test_timeline_lists_every_event_in_force_with_its_words_and_player(client):
    started(client)
    post(client, {"type": "play", "player": "Ben", "cards": ["red-7"]})
    post(client, {"type": "play", "player": "Cy", "cards": ["blue-9"]})          # rejected: not in it
    body = client.get("/api/tables/main/timeline").get_json()
    entries = body["timeline"]
    assert [e["n"] for e in entries] == list(range(1, len(entries) + 1))
    assert entries[-1]["player"] == "Ben" and "Ben plays red-7" in entries[-1]["summary"]
    assert entries[0]["event"]["type"] == "setup" and entries[0]["player"] is None
    assert not any("blue-9" in e["summary"] for e in entries)
    r = client.get("/api/tables/nowhere/timeline")
    assert r.status_code == 404 and "no table" in r.get_json()["error"]
