"""Seats and "who played?" in a real browser (issue 16): headless Chromium driven by Playwright
against the app served in this process (so the test can play the camera's part: an unsure play
is handed to the table as the camera feed hands it, TableRegistry.camera_play).

The host marks the seats by tapping the picture's edge on the camera page, a bad marking (two
seats on top of each other) is refused in words and changes nothing, and a phone with the host
token answers "Who played the red 7?" with the likely player first; a phone without it is told
the host answers. The camera's picture and status are stood in by the page's network routes."""
from __future__ import annotations

import json
import threading

import cv2
import numpy as np
import pytest

from web.app import create_app
from web.who import question_for

from chromium import needs_chromium  # noqa: E402

pytestmark = needs_chromium
TOKEN = "seats-browser-token-0123"
WAIT = 20000
PICTURE = cv2.imencode(".jpg", np.full((480, 640, 3), (40, 90, 160), np.uint8))[1].tobytes()
RUNNING = {"state": "running", "message": "watching", "source": "0", "has_frame": True, "events_sent": 0,
           "seats_marked": False}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    from werkzeug.serving import make_server
    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("seats")), "HOST_TOKEN": TOKEN, "HEARTBEAT_S": 1})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{srv.server_port}"
    c = app.test_client()
    auth = {"Authorization": f"Bearer {TOKEN}"}
    c.post("/api/tables/main/events", json={"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"]}, headers=auth)
    c.post("/api/tables/main/events", json={"type": "flip", "card": "red-5"}, headers=auth)
    yield app, base
    app.extensions["tableref"].shutdown()
    srv.shutdown()



def page_with(browser, url, token=None, camera=False, table="main"):
    ctx = browser.new_context(viewport={"width": 800, "height": 1000}, bypass_csp=True)
    if token:
        ctx.add_init_script(f"localStorage.setItem('tableref.host-token', {json.dumps(token)});")
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    if camera:
        page.route(f"**/api/tables/{table}/camera", lambda r: r.fulfill(status=200, content_type="application/json",
                                                                       body=json.dumps(RUNNING)))
        page.route(f"**/api/tables/{table}/camera.mjpg", lambda r: r.fulfill(status=200, content_type="image/jpeg",
                                                                            body=PICTURE))
    page.goto(url)
    return ctx, page


def tap_edge(page, x, y):
    """A tap at (x, y), shares of the picture's width and height."""
    box = page.query_selector("#frame").bounding_box()
    page.click("#frame", position={"x": x * (box["width"] - 1), "y": y * (box["height"] - 1)})


def test_the_host_marks_seats_on_the_camera_picture_and_a_bad_marking_changes_nothing(served, browser):
    app, base = served
    ctx, page = page_with(browser, f"{base}/t/main/camera", token=TOKEN, camera=True)
    page.wait_for_selector("#frame:not([hidden])", timeout=WAIT)
    page.wait_for_selector("#seats-note:not([hidden])", timeout=WAIT)
    assert "no seats marked" in page.text_content("#seats-note")
    page.click("#mark-seats")
    assert "where Ana sits" in page.text_content("#seat-prompt")
    tap_edge(page, 0.5, 0.99)        # Ana: the bottom edge
    assert "where Ben sits" in page.text_content("#seat-prompt")
    tap_edge(page, 0.01, 0.4)        # Ben: the left edge
    tap_edge(page, 0.99, 0.4)        # Cy: the right edge
    page.wait_for_function("document.getElementById('seat-prompt').textContent.includes('Seats marked')", timeout=WAIT)
    table = app.extensions["tableref"].get("main")
    edges = table.seat_map()
    # bottom edge runs right to left from 2 (x = 0.5 -> 2.5); left edge upwards from 3 (y = 0.4 -> 3.6);
    # right edge downwards from 1 (y = 0.4 -> 1.4)
    assert edges == {"Ana": pytest.approx(2.5, abs=0.02), "Ben": pytest.approx(3.6, abs=0.02),
                     "Cy": pytest.approx(1.4, abs=0.02)}
    assert page.eval_on_selector_all(".seat-dot", "ds => ds.map(d => d.textContent)") == ["Ana", "Ben", "Cy"]
    assert page.is_hidden("#seats-note")

    page.click("#mark-seats")
    tap_edge(page, 0.5, 0.99)
    tap_edge(page, 0.52, 0.99)       # Ben right next to Ana
    tap_edge(page, 0.99, 0.4)
    page.wait_for_function("document.getElementById('seat-prompt').textContent.includes('✗')", timeout=WAIT)
    assert "on top of each other" in page.text_content("#seat-prompt")
    assert table.seat_map() == edges
    assert page.errors == []
    ctx.close()


def test_phones_ask_who_played_and_the_host_answers(served, browser):
    app, base = served
    reg = app.extensions["tableref"]
    names = ["Ana", "Ben", "Cy"]
    unsure = {"type": "play", "cards": ["red-7"], "confidence": 0.95, "t": 4.0, "seat": "Ben", "seat_confidence": 0.52,
              "seat_likely": [["Ben", 0.52], ["Cy", 0.47], ["Ana", 0.01]], "hands": 1}
    before = reg.get("main").game.to_dict()["event_count"]
    reg.camera_play("main", unsure, question_for(unsure, names))
    viewer_ctx, viewer = page_with(browser, f"{base}/t/main")
    host_ctx, host = page_with(browser, f"{base}/t/main", token=TOKEN)
    for page in (viewer, host):
        page.wait_for_selector("#who-played:not([hidden])", timeout=WAIT)
        assert "Who played the red 7?" in page.text_content("#who-played")
        assert "between Ben's and Cy's seats" in page.text_content("#who-played")
    assert "host answers" in viewer.text_content("#who-played")
    assert viewer.query_selector("#who-played button") is None
    order = host.eval_on_selector_all("#who-played button", "bs => bs.map(b => b.textContent)")
    assert order == ["Ben", "Cy", "Ana", "nobody: not a play"]
    assert reg.get("main").game.to_dict()["event_count"] == before          # nothing charged yet
    host.click("#who-played button[data-player='Ben']")
    host.wait_for_function("document.getElementById('result').textContent.includes('red-7')", timeout=WAIT)
    assert "Ben" in host.text_content("#result")
    state = reg.get("main").game.to_dict()
    assert state["top_card"] == "red-7" and state["event_count"] == before + 1
    for page in (viewer, host):
        page.wait_for_selector("#who-played[hidden]", state="attached", timeout=WAIT)
    assert host.errors == [] and viewer.errors == []
    viewer_ctx.close()
    host_ctx.close()


class FakeCamera:
    """A table's camera as the registry sees it, for reveal mode (the reading is handed in)."""
    def __init__(self):
        self.revealing = False

    def reveal(self, on):
        self.revealing = on

    def stop(self):
        pass


def test_the_host_reads_a_shown_hand_fixes_it_and_the_referee_rules(served, browser):
    app, base = served
    reg = app.extensions["tableref"]
    c = app.test_client()
    auth = {"Authorization": f"Bearer {TOKEN}"}
    for e in [{"type": "setup", "rules": "regulation", "players": ["Ana", "Ben", "Cy"], "dealer": 0},
              {"type": "flip", "card": "red-5"}, {"type": "play", "player": "Ben", "cards": ["wild-draw4"], "color": "blue"},
              {"type": "challenge", "player": "Cy"}]:
        assert c.post("/api/tables/rev/events", json=e, headers=auth).get_json()["verdict"]["accepted"]
    camera = reg.get("rev").camera = FakeCamera()
    ctx, host = page_with(browser, f"{base}/t/rev", token=TOKEN)
    host.wait_for_selector("#host:not([hidden])", timeout=WAIT)
    # the challenge waits for Ben's hand: the camera row says so and has Ben picked already
    host.wait_for_selector("#reveal-row.suggested", timeout=WAIT)
    assert "Ben shows their hand now" in host.text_content("#reveal-row")
    assert host.input_value("#reveal-who") == "1"
    host.click("#reveal-start")
    host.wait_for_selector("#reveal:not([hidden])", timeout=WAIT)
    assert camera.revealing and "Reading Ben's hand" in host.text_content("#reveal")
    shown = ["blue-1", "green-2", "yellow-3", "blue-4", "green-6"]         # the sixth card lies on another
    cards = [{"card": cid, "confidence": 0.95, "polygon": [[20 + 100 * i, 200], [80 + 100 * i, 200], [80 + 100 * i, 290],
                                                           [20 + 100 * i, 290]]} for i, cid in enumerate(shown)]
    cards.append({"card": "red-6", "confidence": 0.7, "polygon": [[440, 220], [500, 220], [500, 310], [440, 310]]})
    reg.reveal_seen("rev", {"type": "reveal_cards", "t": 5.0, "cards": cards}, 640, 480)
    # the reading's chips, not the input: the host's input is there from the start ("waiting for the
    # camera"), and waiting for it raced the reading under load (CI, session 28)
    host.wait_for_selector("#reveal .chips", timeout=WAIT)
    assert "red-6: overlaps another card" in host.text_content("#reveal")
    assert host.input_value("#reveal-cards") == "blue-1, green-2, yellow-3, blue-4, green-6, red-6"
    assert reg.get("rev").game.to_dict()["phase"] == "reveal"               # nothing ruled on a reading
    host.fill("#reveal-cards", "blue-1, green-2, yellow-3, blue-4, green-6, red-9")   # the host fixes it
    host.click("#reveal-confirm")
    host.wait_for_function("document.getElementById('result').textContent.includes('bluff')", timeout=WAIT)
    state = reg.get("rev").game.to_dict()
    assert state["phase"] == "play" and state["players"][1]["hand_count"] == 10 and not camera.revealing
    host.wait_for_selector("#reveal[hidden]", state="attached", timeout=WAIT)
    assert host.errors == []
    ctx.close()


def test_the_host_takes_the_seats_the_camera_learned_with_one_tap(served, browser):
    app, base = served
    reg = app.extensions["tableref"]
    c = app.test_client()
    c.post("/api/tables/learn/events", json={"type": "setup", "rules": "ono", "players": ["Ana", "Ben", "Cy"]},
           headers={"Authorization": f"Bearer {TOKEN}"})
    for player, edge in [(0, 2.5), (0, 2.55), (1, 3.7), (1, 3.72), (2, 1.3), (2, 1.25)]:
        reg.note_hand("learn", player, edge)
    ctx, page = page_with(browser, f"{base}/t/learn/camera", token=TOKEN, camera=True, table="learn")
    page.wait_for_selector("#use-learned:not([hidden])", timeout=WAIT)
    assert "(Ana, Ben, Cy)" in page.text_content("#use-learned")
    page.click("#use-learned")
    page.wait_for_function("document.getElementById('seat-prompt').textContent.includes('Seats marked')", timeout=WAIT)
    assert reg.get("learn").seat_map() == {"Ana": pytest.approx(2.525, abs=0.02), "Ben": pytest.approx(3.71, abs=0.02),
                                           "Cy": pytest.approx(1.275, abs=0.02)}
    assert page.is_hidden("#use-learned") and page.errors == []
    ctx.close()
