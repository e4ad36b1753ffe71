"""Issue 17: every value and count bounded before an event is judged or stored; a stored event that
cannot be replayed never stops a table from starting; limits on tables, players, names and ids."""
from __future__ import annotations

import json

import pytest

from referee.store import SQLiteEventStore
from web.app import create_app
from web.tables import ServerLimits

TOKEN = "s3cret-token-0123456789"
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
    c = app.test_client()
    assert c.post("/api/tables/main/events", json=SETUP, headers=AUTH).status_code == 200
    assert c.post("/api/tables/main/events", json={"type": "flip", "card": "red-5"}, headers=AUTH).status_code == 200
    return c


def raw_post(client, text: str, table="main"):
    return client.post(f"/api/tables/{table}/events", data=text, headers=AUTH, content_type="application/json")


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# Each poison as raw JSON text, against the running table `main` (or a new table for setups).
POISON = {
    "Infinity": '{"type": "draw", "player": 1, "count": Infinity}',
    "NaN": '{"type": "draw", "player": 1, "count": NaN}',
    "1e999": '{"type": "play", "player": 1, "cards": ["red-7"], "x": 1e999}',
    "-1e999 in options": '{"type": "setup", "rules": "ono", "players": ["A", "B"], "options": {"points_target": -1e999}}',
    "4,300 digits": '{"type": "draw", "player": 1, "count": ' + "9" * 4300 + "}",
    "4,299 digits": '{"type": "play", "player": 1, "cards": ["red-7"], "n": ' + "9" * 4299 + "}",
    "2**53 + 1": '{"type": "play", "player": 1, "cards": ["red-7"], "n": 9007199254740993}',
    "nested 976 deep": '{"type": "play", "player": 1, "cards": ["red-7"], "x": ' + nested(976) + "}",
    "nested 7 deep": '{"type": "play", "player": 1, "cards": ["red-7"], "x": ' + nested(7) + "}",
    "a 10,000 character string": json.dumps({"type": "play", "player": 1, "cards": ["red-7"], "color": "r" * 10000}),
    "a list of 1,000 cards": json.dumps({"type": "reveal", "player": 1, "cards": ["red-7"] * 1000}),
    "100 fields": json.dumps({"type": "play", "player": 1, "cards": ["red-7"], **{f"f{i}": 1 for i in range(100)}}),
    "draw a billion": '{"type": "draw", "player": 1, "count": 1000000000}',
    "seat a billion": '{"type": "pass", "player": 1000000000}',
    "a name with a line break": json.dumps({"type": "setup", "rules": "ono", "players": ["Ana\nBen", "Cy"]}),
    "a name with a control character": json.dumps({"type": "setup", "rules": "ono", "players": ["A\x07", "Cy"]}),
    "an empty name": json.dumps({"type": "setup", "rules": "ono", "players": ["  ", "Cy"]}),
    "a 41-character name": json.dumps({"type": "setup", "rules": "ono", "players": ["x" * 41, "Cy"]}),
    "21 players": json.dumps({"type": "setup", "rules": "ono", "players": [f"P{i}" for i in range(21)]}),
    "a 2,000 character player name in a play": json.dumps({"type": "pass", "player": "B" * 2000}),
}


@pytest.mark.parametrize("name", sorted(POISON))
def test_poison_is_refused_with_a_reason_and_nothing_is_stored(client, app, tmp_path, name):
    before = client.get("/api/tables/main/events").get_json()["events"]
    state = client.get("/api/tables/main/state").get_json()
    text = POISON[name]
    table = "fresh" if '"setup"' in text else "main"
    r = raw_post(client, text, table)
    assert r.status_code == 400, (name, r.status_code, r.get_data(as_text=True)[:200])
    message = r.get_json()["error"]
    assert message and "Traceback" not in message and len(message) < 400
    assert client.get("/api/tables/main/events").get_json()["events"] == before
    assert client.get("/api/tables/main/state").get_json() == state
    assert [t["id"] for t in client.get("/api/tables").get_json()["tables"]] == ["main"]
    # a restart from the same store opens the same table, with no problem to report
    again = make_app(tmp_path).test_client()
    info = again.get("/api/tables/main").get_json()
    assert info["problems"] == [] and info["event_count"] == 2


def test_the_messages_say_which_field_and_which_bound(client):
    assert "not a finite number" in raw_post(client, POISON["1e999"]).get_json()["error"]
    assert "play.x" in raw_post(client, POISON["1e999"]).get_json()["error"]
    assert "nested more than 6 levels" in raw_post(client, POISON["nested 7 deep"]).get_json()["error"]
    assert "between 0 and 500" in raw_post(client, POISON["draw a billion"]).get_json()["error"]
    assert "--max-players" in raw_post(client, POISON["21 players"], "fresh").get_json()["error"]
    assert "printable" in raw_post(client, POISON["a name with a line break"], "fresh").get_json()["error"]


def test_values_within_the_bounds_are_still_judged(client):
    r = raw_post(client, '{"type": "play", "player": 1, "cards": ["red-7"], "n": 1.5, "x": ' + nested(3) + "}")
    assert r.status_code == 200 and r.get_json()["verdict"]["accepted"]
    r = raw_post(client, '{"type": "setup", "rules": "ono", "players": ["' + "x" * 40 + '", "Zoë"]}', "other")
    assert r.status_code == 200 and r.get_json()["verdict"]["accepted"]


def test_limits_on_tables_players_names_and_ids_can_be_raised(tmp_path):
    app = make_app(tmp_path, LIMITS=ServerLimits(max_tables=2, max_players=3, max_name=5, max_id=8))
    c = app.test_client()
    post = lambda table, players: c.post(f"/api/tables/{table}/events", headers=AUTH,
                                         json={"type": "setup", "rules": "ono", "players": players})
    assert post("t1", ["Ana", "Ben", "Cy"]).status_code == 200
    assert post("t2", ["Ana", "Ben", "Cy", "Dee"]).status_code == 400         # 4 players > 3
    assert post("t2", ["Anabel", "Ben"]).status_code == 400                   # 6 characters > 5
    r = post("t23456789", ["Ana", "Ben"])                                      # 9 characters > 8
    assert r.status_code == 404 and "1 to 8" in r.get_json()["error"]
    assert post("t2", ["Ana", "Ben"]).status_code == 200
    r = post("t3", ["Ana", "Ben"])
    assert r.status_code == 409 and "--max-tables" in r.get_json()["error"]
    assert [t["id"] for t in c.get("/api/tables").get_json()["tables"]] == ["t1", "t2"]
    app.extensions["tableref"].shutdown()


def test_refused_setups_leave_no_half_made_table_behind(tmp_path):
    app = make_app(tmp_path, LIMITS=ServerLimits(max_tables=1))
    c = app.test_client()
    for i in range(5):        # rejected by the referee: unknown rules
        r = c.post(f"/api/tables/x{i}/events", headers=AUTH, json={"type": "setup", "rules": "nope", "players": ["A", "B"]})
        assert r.status_code == 200 and not r.get_json()["verdict"]["accepted"]
    assert c.post("/api/tables/main/events", headers=AUTH, json=SETUP).status_code == 200
    app.extensions["tableref"].shutdown()


def test_a_stored_event_that_cannot_be_replayed_does_not_stop_the_table(tmp_path):
    store = SQLiteEventStore(tmp_path / "tableref.sqlite3")
    for event in (SETUP, {"type": "flip", "card": "red-5"}, {"type": "play", "player": 1, "cards": ["red-7"]}):
        store.append("main", event)
        store.append("other", event)
    store.append("main", {"type": "bogus-from-an-older-version"})          # poison written by hand
    store.append("main", {"type": "draw", "player": 2, "count": 1})
    store.close()
    app = make_app(tmp_path)
    c = app.test_client()
    info = c.get("/api/tables/main").get_json()
    assert len(info["problems"]) == 1
    assert "stored event 4 (bogus-from-an-older-version)" in info["problems"][0]
    state = c.get("/api/tables/main/state").get_json()
    assert state["event_count"] == 4 and state["top_card"] == "red-7"      # the good events, the draw after included
    other = c.get("/api/tables/other").get_json()
    assert other["problems"] == [] and other["event_count"] == 3
    # the table keeps going, and what it acknowledges survives the next restart
    r = c.post("/api/tables/main/events", headers=AUTH, json={"type": "pass", "player": 2})
    assert r.status_code == 200
    accepted = r.get_json()["verdict"]["accepted"]
    first = message_of(app)
    app.extensions["tableref"].shutdown()
    again = make_app(tmp_path)
    assert again.test_client().get("/api/tables/main/state").get_json()["event_count"] == 4 + accepted
    assert "problems" in first
    again.extensions["tableref"].shutdown()


def message_of(app) -> dict:
    reg = app.extensions["tableref"]
    return json.loads(reg.latest(reg.get("main"))[1])
