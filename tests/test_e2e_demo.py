"""End to end: the real `tableref demo` (the demo recording played as a live camera through the
vision pipeline, the referee, the store and the web app) watched by a phone and an OBS overlay in
headless Chromium, from before the first card until the game is won. They must end on the state
that replaying the recording's true log gives (datasets/demo/demo.events.jsonl).

The final state, worked by hand from demo.events.jsonl (3 players, 7 cards each):
  Ana  plays blue-5 green-6 green-4 yellow-reverse red-8 yellow-3 yellow-0 yellow-9 wild (9),
       draws at events 16, 28, 32, 49, 50 (5):       7 - 9 + 5 = 3
  Ben  plays blue-3 green-7 green-6 yellow-6 red-reverse wild yellow-4 yellow-7 green-draw2 (9),
       draws 1 + 3 (events 14, 15), 1, 1, 1 (7):    7 - 9 + 7 = 5
  Cleo plays wild blue-7 green-8 wild-draw4 blue-6 yellow-8 yellow-4 yellow-1 green-7 blue-draw2 (10),
       draws at events 24, 34, 40 (3):              7 - 10 + 3 = 0, so Cleo wins on blue-draw2.
"""
from __future__ import annotations

import json
import warnings
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from referee import Game
from chromium import launched, needs_chromium
from test_browser_web import SHOTS
from helpers import start_tableref, wait_for

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "datasets" / "demo"
TOKEN = "e2e-demo-token-0123"
HAND_WORKED = {"winner": 2, "names": ["Ana", "Ben", "Cleo"], "hand_counts": [3, 5, 0], "top_card": "blue-draw2"}
GAME_S = 52            # the recording's length at 1x
LIMIT_S = 240          # generous: the machine may be shared with a training run


def truth() -> list[dict]:
    return [json.loads(line) for line in (DEMO / "demo.events.jsonl").read_text().splitlines() if line.strip()]


def replayed() -> dict:
    return Game.replay(truth()).to_dict()


def test_the_hand_worked_final_state_is_the_replay_of_the_true_log():
    s = replayed()
    assert s["event_count"] == len(truth()) == 52 and s["phase"] == "over"
    assert s["winner"] == HAND_WORKED["winner"]
    assert [p["name"] for p in s["players"]] == HAND_WORKED["names"]
    assert [p["hand_count"] for p in s["players"]] == HAND_WORKED["hand_counts"]
    assert s["top_card"] == HAND_WORKED["top_card"]


def test_the_demo_taps_are_what_the_camera_cannot_see_at_their_moment_in_the_video():
    from web.demo import DemoRecording
    rec = DemoRecording(DEMO)
    assert rec.setup == truth()[0]
    # every event but the flip and the plays (29 of them), with its due time in video seconds
    assert len(rec.taps) == 52 - 1 - 29
    index, due, event = rec.taps[0]     # Cleo names blue after her wild (event 2 settles at frame 85)
    assert (index, event) == (3, {"type": "choose_color", "player": 2, "color": "blue"})
    assert due == pytest.approx(85 / 30 + 0.4)
    draws = [(i, d) for i, d, e in rec.taps if e["type"] == "draw"]
    assert draws[0] == (14, pytest.approx(450 / 30))          # Ben's first card leaves the pile at frame 450
    assert rec.taps[-1][0] == 50                              # Ana's second penalty card, before Cleo's last play


def test_the_demo_table_notices_when_the_table_is_out_of_step_with_the_recording(tmp_path):
    from web.app import create_app
    from web.demo import DemoRecording, DemoTable, game_events
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    registry = app.extensions["tableref"]
    rec = DemoRecording(DEMO)
    registry.submit("main", dict(rec.setup))
    demo = DemoTable(app, "main", rec, loop=False)
    table = registry.get("main")
    assert demo.out_of_step(game_events(table)) is None
    registry.submit("main", {"type": "flip", "card": "red-reverse", "t": 1.6, "confidence": 0.99})
    registry.submit("main", {"type": "play", "player": "Cleo", "cards": ["wild"]})   # a name is that seat
    assert demo.out_of_step(game_events(table)) is None
    registry.submit("main", {"type": "choose_color", "player": 2, "color": "red"})   # the recording: blue
    assert demo.out_of_step(game_events(table)) == 3
    registry.submit("main", {"type": "undo"})                                        # the host's correction
    assert demo.out_of_step(game_events(table)) is None
    registry.shutdown()


class VideoClock:
    """Only the camera's clock (the video time now), which the demo table keeps step with."""
    def __init__(self):
        self.t = 0.0

    def clock(self):
        return self.t

    def stop(self):
        pass


def test_the_demo_host_takes_back_a_wrong_play_and_plays_a_missed_card_by_hand(tmp_path):
    from web.app import create_app
    from web.demo import CAMERA_GRACE_S, DemoRecording, DemoTable, game_events, same_event
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_TOKEN": TOKEN})
    registry = app.extensions["tableref"]
    rec = DemoRecording(DEMO)
    registry.submit("main", dict(rec.setup))
    table = registry.get("main")
    table.camera = camera = VideoClock()
    demo = DemoTable(app, "main", rec, loop=False).start()
    try:
        camera.t = 2.0
        registry.submit("main", {"type": "flip", "card": "red-reverse", "t": 1.6})        # the camera, in step
        # A misread: red-5 instead of Cleo's wild (legal on red-reverse, so the referee accepts it).
        assert registry.submit("main", {"type": "play", "player": 2, "cards": ["red-5"]}).verdict.accepted
        assert wait_for(lambda: len(game_events(table)) == 2)                             # taken back
        assert "taking back 1 event" in demo.corrections[0]
        # The wild (at rest at frame 85) is not read: the host plays it once the grace has passed,
        # then Cleo's colour (a tap) follows at once.
        camera.t = 85 / 30 + CAMERA_GRACE_S - 0.2
        time.sleep(0.3)
        assert len(game_events(table)) == 2
        camera.t = 85 / 30 + CAMERA_GRACE_S + 0.1
        assert wait_for(lambda: len(game_events(table)) == 4)
        players = rec.setup["players"]
        assert [same_event(e, players) for e in game_events(table)] == [same_event(e, players) for e in truth()[:4]]
        assert len(demo.corrections) == 2 and "has not read ['wild']" in demo.corrections[1]
    finally:
        registry.shutdown()
        demo.thread.join(5)


def get(base: str, path: str) -> dict:
    with urllib.request.urlopen(f"{base}{path}", timeout=10) as r:
        return json.load(r)


# The sequence of top cards a page showed, recorded in the page as they change.
RECORD_PILE = """() => {
  window.__tops = [];
  const pile = document.getElementById('pile');
  const note = () => { const c = pile.querySelector('.card'); const id = c && c.dataset.card;
                       if (id && window.__tops[window.__tops.length - 1] !== id) window.__tops.push(id); };
  new MutationObserver(note).observe(pile, {childList: true, subtree: true, attributes: true});
  note();
}"""


def is_subsequence(small: list, big: list) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


@needs_chromium
@pytest.mark.skipif(not (DEMO / "demo.mp4").exists(), reason="demo recording not present")
def test_the_demo_reaches_phone_and_overlay_with_the_true_final_state():
    proc, base, out = start_tableref("demo", "--once", "--host-token", TOKEN)
    try:
        assert "new table main: ONO!: Ana, Ben, Cleo" in out, out
        assert f"overlay for OBS:     {base}/t/main/overlay" in out
        assert f"camera view:         {base}/t/main/camera" in out
        assert f"host (keep private): {base}/t/main#token={TOKEN}" in out
        started = time.monotonic()

        with launched() as browser:
            phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                        bypass_csp=True).new_page()
            phone.goto(f"{base}/t/main")
            phone.wait_for_selector("#pile", state="attached")
            phone.evaluate(RECORD_PILE)
            overlay = browser.new_context(viewport={"width": 1920, "height": 1080}, bypass_csp=True).new_page()
            overlay.goto(f"{base}/t/main/overlay")
            overlay.wait_for_selector("#pile", state="attached")
            overlay.evaluate(RECORD_PILE)

            # The game runs until it is won or the recording has ended (the camera stops).
            while time.monotonic() - started < LIMIT_S:
                state, cam = get(base, "/api/tables/main/state"), get(base, "/api/tables/main/camera")
                if state["phase"] == "over" or cam["state"] not in ("starting", "running"):
                    break
                time.sleep(0.5)
            elapsed = time.monotonic() - started
            assert state["winner"] == 2, (f"after {elapsed:.0f} s the game is not won: camera {cam}\n"
                                          + "\n".join(map(json.dumps, get(base, "/api/tables/main/events")["events"]))
                                          + f"\n{state}")
            # The phone followed the game live and announces the winner.
            phone.wait_for_function("document.getElementById('turn').textContent === 'Cleo wins!'", timeout=10000)
            overlay.wait_for_function("document.getElementById('turn').textContent === 'Cleo wins!'", timeout=10000)

            seats = phone.eval_on_selector_all(
                "#players li", "lis => lis.map(li => [li.querySelector('.name').textContent.replace('▶ ', ''), "
                "Number(li.querySelector('.count').textContent), li.textContent.includes('winner')])")
            assert seats == [["Ana", 3, False], ["Ben", 5, False], ["Cleo", 0, True]]
            assert phone.get_attribute("#pile .card", "data-card") == "blue-draw2"
            assert overlay.get_attribute("#pile .card", "data-card") == "blue-draw2"
            assert overlay.eval_on_selector_all("#players li b", "bs => bs.map(b => Number(b.textContent))") == [3, 5, 0]

            # The top cards both pages showed on the way, checked below once the demo's log is read.
            tops = {"phone": phone.evaluate("window.__tops"), "overlay": overlay.evaluate("window.__tops")}

            # The camera view shows the annotated picture (the last frame) and the feed's status.
            camera = browser.new_context(viewport={"width": 700, "height": 820}, bypass_csp=True).new_page()
            camera.goto(f"{base}/t/main/camera")
            camera.wait_for_function("document.getElementById('status').textContent.includes('events sent:')",
                                     timeout=10000)
            camera.wait_for_function("document.getElementById('frame').naturalWidth === 640", timeout=10000)
            SHOTS.mkdir(parents=True, exist_ok=True)
            camera.screenshot(path=str(SHOTS / "camera.png"))

        # The server's state is exactly the replay's (the camera's plays carry their video time and
        # confidence as extra fields, which change nothing).
        state = get(base, "/api/tables/main/state")
        expected = replayed()
        assert {k: v for k, v in state.items() if k != "last_verdict"} == \
               {k: v for k, v in expected.items() if k != "last_verdict"}
        cam = get(base, "/api/tables/main/camera")
        print(f"\ndemo game won after {elapsed:.1f} s (recording {GAME_S} s); frames {cam['frames']}")
        assert elapsed < LIMIT_S
    finally:
        proc.terminate()
        try:
            rest = proc.communicate(timeout=15)[0]
        except subprocess.TimeoutExpired:
            proc.kill()
            rest = proc.communicate()[0]
    assert proc.returncode == 0, "the demo did not stop cleanly on SIGTERM"
    camera_said = "\n".join(f"{r['event']} -> {r['result']}" for r in cam["recent"])
    corrections = [l for l in rest.splitlines() if "demo: host:" in l]
    true_tops = [e.get("card") or e["cards"][-1] for e in truth() if e["type"] in ("flip", "play")]
    for page, seen in tops.items():
        assert seen and seen[-1] == "blue-draw2" and len(seen) >= 20, \
            f"the {page} showed only {len(seen)} of {len(true_tops)} top cards: {seen}"
    if not corrections:
        # The camera did it all: the flip and the 28 plays, each accepted, and both pages saw the
        # game card by card (a push may be skipped, never reordered).
        assert cam["events_sent"] == 29, camera_said
        for page, seen in tops.items():
            assert is_subsequence(seen, true_tops), (page, seen)
    else:
        # A machine too busy for the camera (frames skipped, a card misread or missed): the demo's
        # host stepped in as a person would from the host controls. The vision pipeline's own
        # reading of every card of this recording is tests/test_vision_demo.py's job; here at most
        # two corrections of 29 camera events are let through, and said.
        assert len(corrections) <= 2, "\n".join(corrections) + "\n" + camera_said
        warnings.warn(f"the demo's host corrected the camera {len(corrections)} time(s) "
                      f"(frames {cam['frames']}): " + " | ".join(corrections))
