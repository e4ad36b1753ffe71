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
    assert all(p["player"] in truth["players"] and p["kind"] in ("normal", "two_hands", "resting")
               for p in truth["plays"])
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
