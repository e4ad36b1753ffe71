"""Seats: where players sit on the camera's picture (web/seats.py, vision/track/seats.py), stored
with the table through a restart, set and cleared over the API, and bad marks refused whole.

Border positions are worked out by hand: the border runs clockwise from the top-left corner,
top edge 0..1, right edge 1..2, bottom edge 2..3, left edge 3..4 (x to the right, y down)."""
from __future__ import annotations

import pytest

from referee.store import SQLiteEventStore, StoreError
from vision.track.seats import circular_mean, edge_distance, edge_position, name_seat
from web.app import create_app

TOKEN = "s3cret-token-for-seats"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SETUP = {"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"], "dealer": 0}
GOOD = {"seats": [{"player": "Ana", "x": 0.5, "y": 1.0}, {"player": "ben", "x": 0.02, "y": 0.3},
                  {"player": 2, "x": 1.0, "y": 0.3}]}


# -- geometry -----------------------------------------------------------------------------------------
def test_border_positions_run_clockwise_from_the_top_left_corner():
    assert edge_position(0.25, 0.0) == pytest.approx(0.25)      # a quarter along the top
    assert edge_position(1.0, 0.5) == pytest.approx(1.5)        # half way down the right side
    assert edge_position(0.25, 1.0) == pytest.approx(2.75)      # bottom runs right to left
    assert edge_position(0.0, 0.25) == pytest.approx(3.75)      # left runs bottom to top
    assert edge_position(0.9, 0.95) == pytest.approx(2.1)       # a point inside goes to its nearest edge


def test_distances_along_the_border_wrap_round_the_top_left_corner():
    assert edge_distance(3.9, 0.1) == pytest.approx(0.2)
    assert edge_distance(1.0, 3.0) == pytest.approx(2.0)
    assert edge_distance(circular_mean([3.9, 0.1]), 0.0) < 1e-9


SEATS3 = {"Ana": 2.5, "Ben": 3.7, "Cy": 1.3}


def test_a_hand_straight_from_a_seat_names_it_surely():
    got = name_seat([(2.45, 1.0), (2.55, 2.0), (2.5, 3.0)], SEATS3)
    assert got["seat"] == "Ana" and got["seat_confidence"] > 0.95
    assert [k for k, _ in got["likely"]][0] == "Ana"


def test_a_hand_from_between_two_seats_is_unsure_and_lists_both_first():
    got = name_seat([(3.1, 1.0)], SEATS3)         # 0.6 from Ana (2.5), 0.6 from Ben (3.7)
    assert got["seat_confidence"] < 0.6
    assert {k for k, _ in got["likely"][:2]} == {"Ana", "Ben"}


def test_two_hands_at_once_split_the_vote():
    got = name_seat([(2.5, 1.0), (1.3, 1.0)], SEATS3)
    assert got["seat_confidence"] == pytest.approx(0.5, abs=0.02)
    assert {k for k, _ in got["likely"][:2]} == {"Ana", "Cy"}


def test_no_hand_seen_names_nobody():
    assert name_seat([], SEATS3)["seat"] is None
    assert name_seat([], SEATS3)["seat_confidence"] == 0


def test_a_hand_from_where_nobody_sits_is_not_sure():
    assert name_seat([(0.5, 1.0)], SEATS3)["seat_confidence"] < 0.5       # 0.8 from Cy, the nearest


# -- the API --------------------------------------------------------------------------------------------
def make_app(data):
    return create_app({"DATA_DIR": str(data), "HOST_TOKEN": TOKEN, "HEARTBEAT_S": 0.2})


@pytest.fixture
def client(tmp_path):
    app = make_app(tmp_path)
    c = app.test_client()
    assert c.post("/api/tables/main/events", json=SETUP, headers=AUTH).status_code == 200
    yield c
    app.extensions["tableref"].shutdown()


def put(client, body, headers=AUTH):
    return client.put("/api/tables/main/seats", json=body, headers=headers)


def test_no_seats_at_first_with_a_note_saying_so(client):
    body = client.get("/api/tables/main/seats").get_json()
    assert body["seats"] == [] and body["marked"] is False and "turn" in body["note"]


def test_seats_are_set_snapped_to_the_edge_and_survive_a_restart(tmp_path, client):
    r = put(client, GOOD)
    assert r.status_code == 200, r.get_json()
    seats = {s["player"]: s for s in r.get_json()["seats"]}
    assert r.get_json()["marked"] is True
    assert seats["Ana"]["edge"] == pytest.approx(2.5)
    assert (seats["Ben"]["x"], seats["Ben"]["y"]) == (0.0, 0.3) and seats["Ben"]["edge"] == pytest.approx(3.7)
    assert seats["Cy"]["edge"] == pytest.approx(1.3)
    client.application.extensions["tableref"].shutdown()
    client.application.extensions["tableref"].store.close()
    again = make_app(tmp_path).test_client().get("/api/tables/main/seats").get_json()
    assert again["marked"] is True and {s["player"]: s["edge"] for s in again["seats"]} == \
        {"Ana": pytest.approx(2.5), "Ben": pytest.approx(3.7), "Cy": pytest.approx(1.3)}


@pytest.mark.parametrize("body, words", [
    ({"seats": [{"player": "Ana", "x": 0.5, "y": 1}, {"player": "Ben", "x": 0.55, "y": 1},
                {"player": "Cy", "x": 1, "y": 0.3}]}, "on top of each other"),
    ({"seats": [{"player": "Zed", "x": 0.5, "y": 1}, {"player": "Ben", "x": 0, "y": 0.3},
                {"player": "Cy", "x": 1, "y": 0.3}]}, "does not play at this table"),
    ({"seats": [{"player": "Ana", "x": 1.5, "y": 1}, {"player": "Ben", "x": 0, "y": 0.3},
                {"player": "Cy", "x": 1, "y": 0.3}]}, "outside the picture"),
    ({"seats": [{"player": "Ana", "x": 0.5, "y": 0.5}, {"player": "Ben", "x": 0, "y": 0.3},
                {"player": "Cy", "x": 1, "y": 0.3}]}, "inside the picture"),
    ({"seats": [{"player": "Ana", "x": 0.5, "y": 1}, {"player": "Ben", "x": 0, "y": 0.3}]}, "Cy has none"),
    ({"seats": [{"player": "Ana", "x": 0.5, "y": 1}, {"player": "ana", "x": 0, "y": 0.3},
                {"player": "Cy", "x": 1, "y": 0.3}]}, "two seats"),
    ({"seats": [{"player": "Ana", "x": "0.5", "y": 1}]}, "number from 0 to 1"),
    ({"seats": [{"player": 7, "x": 0.5, "y": 1}]}, "no player 7"),
    ([1, 2], "send {"),
])
def test_bad_seats_are_refused_in_words_and_change_nothing(client, body, words):
    assert put(client, GOOD).status_code == 200
    before = client.get("/api/tables/main/seats").get_json()
    r = put(client, body)
    assert r.status_code == 400 and words in r.get_json()["error"], r.get_json()
    assert "did not change" in r.get_json()["error"]
    assert client.get("/api/tables/main/seats").get_json() == before


def test_seats_need_the_token_and_a_table(client):
    assert put(client, GOOD, headers={}).status_code == 401
    assert client.get("/api/tables/main/seats").get_json()["seats"] == []
    assert client.put("/api/tables/nowhere/seats", json=GOOD, headers=AUTH).status_code == 404
    assert client.delete("/api/tables/main/seats").status_code == 401


def test_clearing_the_seats_goes_back_to_the_player_on_turn(tmp_path, client):
    put(client, GOOD)
    r = client.delete("/api/tables/main/seats", headers=AUTH)
    assert r.status_code == 200 and r.get_json()["seats"] == [] and r.get_json()["marked"] is False
    client.application.extensions["tableref"].shutdown()
    client.application.extensions["tableref"].store.close()
    assert make_app(tmp_path).test_client().get("/api/tables/main/seats").get_json()["seats"] == []


def test_seats_of_other_players_do_not_count_for_a_new_game(client):
    put(client, GOOD)
    reg = client.application.extensions["tableref"]
    table = reg.get("main")
    assert table.seat_map() == {"Ana": pytest.approx(2.5), "Ben": pytest.approx(3.7), "Cy": pytest.approx(1.3)}
    table.seats = [dict(s, player="Dee" if s["player"] == "Cy" else s["player"]) for s in table.seats]
    assert table.seat_map() == {}
    assert "other players" in client.get("/api/tables/main/seats").get_json()["note"]


class FullStore(SQLiteEventStore):
    def put_setting(self, table, key, value):
        raise StoreError("the setting was not stored: database or disk is full")


def test_seats_the_store_refuses_are_503_and_not_kept(tmp_path):
    app = create_app({"STORE": FullStore(tmp_path / "t.sqlite3"), "HOST_TOKEN": TOKEN})
    c = app.test_client()
    c.post("/api/tables/main/events", json=SETUP, headers=AUTH)
    r = c.put("/api/tables/main/seats", json=GOOD, headers=AUTH)
    assert r.status_code == 503 and "nothing changed" in r.get_json()["error"]
    assert c.get("/api/tables/main/seats").get_json()["seats"] == []


def test_watch_takes_seats_by_their_place_on_the_edge_and_refuses_bad_ones():
    import argparse
    from web.commands.vision_cmds import _seats
    assert _seats("Ana=2.5, Ben=3.7") == {"Ana": 2.5, "Ben": 3.7}
    for bad in ("Ana=5", "Ana", "Ana=2,Ana=3", "=2", "Ana=x"):
        with pytest.raises(argparse.ArgumentTypeError):
            _seats(bad)


# -- seats learned from the first plays ------------------------------------------------------------------
def test_seats_are_suggested_once_every_player_played_twice_from_one_place():
    from web.seats import suggest_seats
    names = ["Ana", "Ben", "Cy"]
    seen = {"Ana": [2.45, 2.55], "Ben": [3.65, 3.75]}
    assert suggest_seats(seen, names) is None                              # Cy has not played yet
    seen["Cy"] = [1.3, 1.32, 2.5]                                          # one of "Cy's" was Ana's jump-in
    got = {s["player"]: s["edge"] for s in suggest_seats(seen, names)}
    assert got == {"Ana": pytest.approx(2.5, abs=0.01), "Ben": pytest.approx(3.7, abs=0.01), "Cy": pytest.approx(1.31, abs=0.01)}


def test_no_suggestion_when_a_players_hands_disagree_or_seats_would_touch():
    from web.seats import suggest_seats
    assert suggest_seats({"Ana": [2.5, 0.5], "Ben": [3.7, 3.7]}, ["Ana", "Ben"]) is None
    assert suggest_seats({"Ana": [2.5, 2.5], "Ben": [2.55, 2.55]}, ["Ana", "Ben"]) is None


def test_the_api_suggests_learned_seats_until_seats_are_marked(client):
    reg = client.application.extensions["tableref"]
    for player, edge in [(0, 2.5), (0, 2.52), (1, 3.7), (1, 3.68), (2, 1.3), (2, 1.28)]:
        reg.note_hand("main", player, edge)
    body = client.get("/api/tables/main/seats").get_json()
    assert [s["player"] for s in body["suggested"]] == ["Ana", "Ben", "Cy"] and body["marked"] is False
    r = put(client, {"seats": [{k: s[k] for k in ("player", "x", "y")} for s in body["suggested"]]})
    assert r.status_code == 200 and r.get_json()["marked"] and r.get_json()["suggested"] is None
