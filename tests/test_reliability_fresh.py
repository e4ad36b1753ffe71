"""Issue 17: commands are idempotent and fresh. The same event_id twice has one effect and gets the
first answer; a command made against a version the table has moved on from is refused with what
happened meanwhile; a command that waited past its deadline is dropped; the ghost undo (undo tapped
twice, the first one delayed) undoes exactly one event; old clients that send none of this still work."""
from __future__ import annotations

import json
import socket
import time

import pytest

from web.app import create_app
from reliability_helpers import TOKEN as SERVE_TOKEN, get_json, post_event, start, stop

TOKEN = "s3cret-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SETUP = {"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"], "dealer": 0}


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN, "HEARTBEAT_S": 0.2})
    yield app
    app.extensions["tableref"].shutdown()


@pytest.fixture
def client(app):
    c = app.test_client()
    for e in (SETUP, {"type": "flip", "card": "red-5"}, {"type": "play", "player": "Ben", "cards": ["red-7"]}):
        assert c.post("/api/tables/main/events", json=e, headers=AUTH).get_json()["verdict"]["accepted"]
    return c


def post(client, event):
    return client.post("/api/tables/main/events", json=event, headers=AUTH)


def stream_message(app) -> dict:
    reg = app.extensions["tableref"]
    return json.loads(reg.latest(reg.get("main"))[1])


def test_the_version_is_pushed_and_answered_and_only_grows(app, client):
    assert stream_message(app)["version"] == 3
    r = post(client, {"type": "undo"}).get_json()
    assert r["version"] == 4 and r["state"]["event_count"] == 2       # undo: fewer events in force, one more stored
    assert stream_message(app)["version"] == 4
    r = post(client, {"type": "play", "player": "Ben", "cards": ["blue-9"]}).get_json()   # rejected: not stored
    assert not r["verdict"]["accepted"] and r["version"] == 4
    assert "version" not in r["state"]                                  # the state object stays the referee's


def test_ghost_undo_two_taps_against_one_version_undo_once(app, client):
    before = client.get("/api/tables/main/state").get_json()
    v = stream_message(app)["version"]
    # the second tap arrives first (the first was held up on the Wi-Fi)
    second = post(client, {"type": "undo", "event_id": "host-b", "version": v})
    first = post(client, {"type": "undo", "event_id": "host-a", "version": v})
    assert second.status_code == 200 and second.get_json()["verdict"]["accepted"]
    assert first.status_code == 409
    body = first.get_json()
    assert body["refused"] == "stale" and body["meanwhile"] == ["undone: " + body["meanwhile"][0][len("undone: "):]]
    assert "moved on" in body["error"] and "undone: Ben plays red-7" in body["error"] and "nothing changed" in body["error"]
    state = client.get("/api/tables/main/state").get_json()
    assert state["event_count"] == before["event_count"] - 1 == 2
    assert state["top_card"] == "red-5"
    # the delayed tap retried (same event_id) gets the same refusal, and still changes nothing
    again = post(client, {"type": "undo", "event_id": "host-a", "version": v})
    assert again.status_code == 409 and again.get_json()["duplicate"] and again.get_json()["error"] == body["error"]
    assert client.get("/api/tables/main/state").get_json()["event_count"] == 2


def test_a_stale_play_says_whose_play_came_first(app, client):
    v = stream_message(app)["version"]
    assert post(client, {"type": "play", "player": "Cy", "cards": ["red-2"], "version": v}).get_json()["verdict"]["accepted"]
    r = post(client, {"type": "draw", "player": "Cy", "count": 1, "version": v})
    assert r.status_code == 409 and "Cy plays red-2" in r.get_json()["error"]
    assert client.get("/api/tables/main/state").get_json()["event_count"] == 4


def test_the_same_event_id_twice_has_one_effect_and_the_first_answer(app, client):
    e = {"type": "draw", "player": "Cy", "count": 1, "event_id": "tap-1"}
    one = post(client, e).get_json()
    two = post(client, e).get_json()
    assert one["verdict"]["accepted"] and two["duplicate"] is True
    assert two["verdict"]["reason"].startswith(one["verdict"]["reason"])
    assert "already stored as event 4" in two["verdict"]["reason"]
    assert two["state"]["players"][2]["hand_count"] == one["state"]["players"][2]["hand_count"] == 8
    # a rejected tap sent twice: the same rejection, not judged again
    bad = {"type": "play", "player": "Ana", "cards": ["green-9"], "event_id": "tap-2"}
    r1, r2 = post(client, bad).get_json(), post(client, bad).get_json()
    assert not r1["verdict"]["accepted"] and r2["duplicate"] and r2["verdict"] == r1["verdict"]
    stored = client.get("/api/tables/main/events").get_json()["events"]
    assert [e.get("event_id") for e in stored].count("tap-1") == 1 and len(stored) == 4


def test_a_command_that_waited_past_its_deadline_is_dropped(app, client):
    t0 = 100_000.0
    assert post(client, {"type": "draw", "player": "Cy", "count": 1, "session": "phone-x", "sent_ms": t0,
                         "ttl_ms": 5000}).get_json()["verdict"]["accepted"]
    # a command the session sent 20 s before this moment (as measured against the first): it waited
    late = post(client, {"type": "undo", "session": "phone-x", "sent_ms": t0 - 20_000, "ttl_ms": 5000})
    assert late.status_code == 409 and late.get_json()["refused"] == "late"
    assert "waited" in late.get_json()["error"] and "nothing changed" in late.get_json()["error"]
    assert client.get("/api/tables/main/state").get_json()["event_count"] == 4
    on_time = post(client, {"type": "undo", "session": "phone-x", "sent_ms": t0 + 50, "ttl_ms": 5000})
    assert on_time.status_code == 200 and on_time.get_json()["verdict"]["accepted"]


def test_the_command_fields_are_checked_and_never_stored(app, client):
    for bad in ({"version": -1}, {"version": "3"}, {"version": True}, {"session": "s"}, {"sent_ms": 5},
                {"session": "s", "sent_ms": float("inf")}, {"session": "", "sent_ms": 1},
                {"session": "s", "sent_ms": 1, "ttl_ms": 10}):
        r = client.post("/api/tables/main/events", data=json.dumps({"type": "undo", **bad}, allow_nan=True),
                        headers=AUTH, content_type="application/json")
        assert r.status_code == 400, bad
    assert post(client, {"type": "draw", "player": "Cy", "count": 1, "version": 3, "session": "s", "sent_ms": 1.5,
                         "ttl_ms": 8000, "event_id": "k"}).status_code == 200
    last = client.get("/api/tables/main/events").get_json()["events"][-1]
    assert last == {"type": "draw", "player": "Cy", "count": 1, "event_id": "k"}


def test_old_clients_without_event_id_or_version_still_work(app, client):
    assert post(client, {"type": "undo"}).get_json()["verdict"]["accepted"]
    assert post(client, {"type": "undo"}).get_json()["verdict"]["accepted"]     # two undos, as asked
    assert client.get("/api/tables/main/state").get_json()["event_count"] == 1


def test_ghost_undo_over_a_real_server_with_the_first_tap_held_up(tmp_path):
    proc, base, _ = start(tmp_path / "data", "--rules", "ono", "--players", "Ana,Ben,Cy")
    try:
        post_event(base, {"type": "flip", "card": "red-5"})
        post_event(base, {"type": "play", "player": "Ben", "cards": ["red-7"]})
        before = get_json(base, "/api/tables/main/state")["event_count"]
        version = 3
        host, port = base.split("//")[1].split(":")
        body = json.dumps({"type": "undo", "event_id": "ghost-a", "version": version}).encode()
        held = socket.create_connection((host, int(port)), timeout=10)
        held.sendall(f"POST /api/tables/main/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {SERVE_TOKEN}\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body[:10])
        time.sleep(0.3)
        status, second = post_event(base, {"type": "undo", "event_id": "ghost-b", "version": version})
        assert status == 200 and second["verdict"]["accepted"]
        held.sendall(body[10:])
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = held.recv(65536)
            if not chunk:
                break
            answer += chunk
        held.close()
        assert answer.startswith(b"HTTP/1.1 409"), answer[:200]
        assert get_json(base, "/api/tables/main/state")["event_count"] == before - 1
    finally:
        stop(proc)
