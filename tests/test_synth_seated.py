"""The seated recording generator (vision/synth/seated.py) and who played, end to end: a short
recording from a seed, its truth file, and the pipeline naming the seat of every play it reads
(the full measure on fresh seeds is bench/seats.py)."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.synth.seated import render_seated
from vision.track.seats import MIN_APART, SURE, edge_distance


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    out = tmp_path_factory.mktemp("seated")
    meta = render_seated(str(out), seed=7, plays=5, players=4)
    return out, meta


def test_the_truth_file_says_who_played_what_and_where_each_seat_is(recording):
    out, meta = recording
    truth = json.loads((out / "seated.truth.json").read_text())
    assert truth == json.loads(json.dumps(meta))
    assert len(truth["players"]) == 4 and len(truth["plays"]) == 5
    assert all(p["player"] in truth["players"] and p["kind"] in ("normal", "two_hands", "resting", "held_fan")
               for p in truth["plays"])
    # this seed's recording has plays made from a fan of cards held in the hand (tested below too)
    assert sum(p["kind"] == "held_fan" for p in truth["plays"]) == 2
    edges = [s["edge"] for s in truth["seats"].values()]
    assert all(edge_distance(a, b) >= MIN_APART for i, a in enumerate(edges) for b in edges[i + 1:])
    for s in truth["seats"].values():          # each seat's point lies on the picture's border
        assert min(s["x"], s["y"], 1 - s["x"], 1 - s["y"]) < 0.01
    lands = [p["land_frame"] for p in truth["plays"]]
    assert lands == sorted(lands) and truth["flip"]["land_frame"] < lands[0]
    cap = cv2.VideoCapture(str(out / "seated.mp4"))
    n = 0
    while cap.read()[0]:
        n += 1
    assert n == truth["frames"]


def test_the_pipeline_names_the_seat_of_each_play_it_reads(recording):
    from vision.track.pipeline import TablePipeline
    out, meta = recording
    seats = {name: s["edge"] for name, s in meta["seats"].items()}
    p = TablePipeline(str(out / "seated.mp4"), "ono", realtime=False, seats=seats)
    events = []
    p.run(events.append)
    plays = [e for e in events if e["type"] == "play"]
    assert len(plays) >= 4, plays                      # the card reader may miss one; seats are what is tested
    truth = meta["plays"]
    for e in plays:
        # the true play whose card landed last before the event
        tp = max((t for t in truth if t["land_frame"] / meta["fps"] <= e["t"]), key=lambda t: t["land_frame"])
        assert e["seat"] == tp["player"], (e, tp)
        assert e["seat_confidence"] >= SURE or tp["kind"] == "two_hands"


def _grey_frames(path):
    cap = cv2.VideoCapture(str(path))
    frames = []
    while True:
        ok, f = cap.read()
        if not ok:
            return frames
        frames.append(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY).astype(np.int16))


def test_a_held_fan_comes_and_goes_with_the_hand_and_leaves_only_the_card_played(recording, tmp_path, monkeypatch):
    import vision.synth.seated as seated
    out, meta = recording
    with_fans = _grey_frames(out / "seated.mp4")
    monkeypatch.setattr(seated, "HELD_FAN", 0.0)           # the same seed, every play from an empty hand
    plain = render_seated(str(tmp_path), seed=7, plays=5, players=4)
    without = _grey_frames(tmp_path / "seated.mp4")
    assert [p["card"] for p in plain["plays"]] == [p["card"] for p in meta["plays"]]
    assert len(without) == len(with_fans)
    for play in (p for p in meta["plays"] if p["kind"] == "held_fan"):
        during = float((np.abs(with_fans[play["land_frame"] - 2] - without[play["land_frame"] - 2]) > 40).mean())
        after = float(np.abs(with_fans[play["settled_frame"] + 3] - without[play["settled_frame"] + 3]).mean())
        assert during > 0.005, play            # the fan is in the picture while the hand is in
        assert after < 2.0, play               # and nothing of it is left once the hand has gone


def test_a_shown_hand_is_laid_out_whole_in_the_picture_and_the_same_for_the_same_seed():
    from vision.synth.shown_hand import shown_hand
    img, truth = shown_hand(3)
    again, truth2 = shown_hand(3)
    assert truth == truth2 and (img == again).all()
    assert 3 <= len(truth) <= 9 and img.shape == (480, 640, 3)
    for t in truth:
        q = np.float32(t["quad"])
        assert t["visible"] > 0.95 and (q >= 0).all() and (q[:, 0] < 640).all() and (q[:, 1] < 480).all()
    # laid out side by side: no two cards overlap
    for i, a in enumerate(truth):
        for b in truth[i + 1:]:
            inter, _ = cv2.intersectConvexConvex(np.float32(a["quad"]), np.float32(b["quad"]))
            assert inter < 1.0
