"""The committed demo recording: its event log replays with every event accepted and reaches a
winner; the video decodes; the frame table matches the log's card events."""
import json
from collections import Counter
from pathlib import Path

import cv2

from referee import Game

DEMO = Path(__file__).resolve().parents[1] / "datasets" / "demo"


def events():
    return [json.loads(line) for line in (DEMO / "demo.events.jsonl").read_text().splitlines() if line.strip()]


def test_demo_log_replays_with_every_event_accepted():
    log = events()
    assert log[0]["type"] == "setup" and log[0]["rules"] == "ono" and len(log[0]["players"]) == 3
    assert log[1]["type"] == "flip"
    game = Game()
    for i, e in enumerate(log):
        v = game.submit(e)
        assert v.accepted, (i, e, v.reason)
    assert game.state.phase == "over" and game.state.winner is not None


def test_demo_log_has_what_the_issue_asks_for():
    log = events()
    card_events = [e for e in log if e["type"] in ("flip", "play", "draw")]
    assert any(a["type"] == b["type"] == "play" and a["cards"] == b["cards"]
               for a, b in zip(card_events, card_events[1:])), "the same card id twice in a row"
    for i, e in enumerate(log):
        if e["type"] == "play" and e["cards"][-1].startswith("wild"):
            assert log[i + 1]["type"] == "choose_color"
    assert Counter(e["type"] for e in log)["choose_color"] >= 1


def test_frames_table_matches_log_and_video():
    meta = json.loads((DEMO / "demo.frames.json").read_text())
    log = events()
    expected = []
    for i, e in enumerate(log):
        if e["type"] == "flip":
            expected.append((i, "flip"))
        elif e["type"] == "play":
            expected += [(i, "play")] * len(e["cards"])
        elif e["type"] == "draw":
            expected.append((i, "draw"))
    got = [(c["event"], c["type"]) for c in meta["card_events"]]
    assert got == expected
    lands = [c["land_frame"] for c in meta["card_events"]]
    assert lands == sorted(lands)
    assert all(c["land_frame"] <= c["settled_frame"] for c in meta["card_events"])
    assert meta["fps"] == 30 and meta["width"] >= 640 and meta["height"] >= 480
    assert 45 * 30 <= meta["frames"] <= 80 * 30       # about a minute
    cap = cv2.VideoCapture(str(DEMO / "demo.mp4"))
    assert cap.isOpened()
    n = 0
    ok, frame = cap.read()
    while ok:
        assert frame.shape == (meta["height"], meta["width"], 3)
        n += 1
        ok, frame = cap.read()
    assert n == meta["frames"]
    assert (DEMO / "demo.mp4").stat().st_size < 10 * 1024 * 1024
