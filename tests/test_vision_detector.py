"""vision/locate/detector.py: the committed card detector, its geometry and its failure messages."""
from __future__ import annotations

import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision.locate.detector import DEFAULT_MODEL, CardDetector, box_corners, refine_quad
from vision.errors import ModelError
from vision.locate import quad_iou
from vision.recognizer import Recognizer
from vision.synth.generate import make_scene

TABLEREF = [sys.executable, "-m", "web.cli"]


def test_box_corners_of_an_upright_and_a_quarter_turned_box():
    # worked by hand: centre (10, 20), 4 wide, 2 high
    up = box_corners(10, 20, 4, 2, 0.0)
    assert np.allclose(up, [[8, 19], [12, 19], [12, 21], [8, 21]])
    # a quarter turn makes it 2 wide and 4 high about the same centre
    turned = box_corners(10, 20, 4, 2, np.pi / 2)
    assert np.allclose(np.sort(turned[:, 0]), [9, 9, 11, 11], atol=1e-5)
    assert np.allclose(np.sort(turned[:, 1]), [18, 18, 22, 22], atol=1e-5)


def test_refine_finds_the_border_of_a_drawn_card_inside_a_loose_box():
    img = np.full((240, 320, 3), 40, np.uint8)
    card = np.array([[100, 60], [156, 62], [154, 149], [98, 147]], np.float32)   # 56 x 87, a little skewed
    cv2.fillConvexPoly(img, card.astype(np.int32), (245, 245, 245))
    inner = card.mean(0) + (card - card.mean(0)) * 0.85
    cv2.fillConvexPoly(img, inner.astype(np.int32), (40, 40, 200))
    loose = card.mean(0) + (card - card.mean(0)) * 1.08 + [3, -2]             # what a box gives
    got = refine_quad(img, loose.astype(np.float32))
    assert got is not None
    assert quad_iou(got, card) > 0.93 > quad_iou(loose.astype(np.float32), card)


def test_a_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(ModelError, match="not found.*nothing.onnx"):
        CardDetector(tmp_path / "nothing.onnx")


def test_a_corrupt_model_is_a_clear_error(tmp_path):
    bad = tmp_path / "card-detector.onnx"
    bad.write_bytes(DEFAULT_MODEL.read_bytes()[:5000])   # a truncated copy, as a broken download
    with pytest.raises(ModelError, match="cannot be loaded"):
        CardDetector(bad)


def test_identify_says_what_is_wrong_with_a_missing_model_without_a_traceback(tmp_path):
    img = tmp_path / "x.png"
    cv2.imwrite(str(img), np.zeros((48, 64, 3), np.uint8))
    env_model = tmp_path / "models"
    r = subprocess.run(TABLEREF + ["identify", str(img), "--deck", "ono"], capture_output=True, text=True,
                       env={"TABLEREF_MODELS": str(env_model), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert r.returncode == 2
    assert "model not found" in r.stderr and "Traceback" not in r.stderr


@pytest.fixture(scope="module")
def detector():
    return CardDetector()


def test_the_committed_detector_finds_whole_cards_in_held_out_scenes(detector):
    """Scenes of a seed never trained on, all four decks: at least 85% of the whole face-up cards
    found with quad IoU >= 0.7, and almost nothing found where no card lies."""
    cards = found = false = 0
    for i in range(40):
        deck = ("ono", "uno", "dino2", "snake-cup")[i % 4]
        jpeg, labels = make_scene(deck, 4343, i, 640)
        img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        quads = [d.quad.pts for d in detector.detect(img) if d.kind == "card"]
        whole = [np.float32(c["quad"]) for c in labels["cards"] if c["card"] != "back" and c["visible"] >= 0.9]
        seen = [np.float32(c["quad"]) for c in labels["cards"] if c["visible"] >= 0.3]
        cards += len(whole)
        found += sum(any(quad_iou(q, g) >= 0.7 for q in quads) for g in whole)
        false += sum(all(quad_iou(q, g) < 0.3 for g in seen) for q in quads)
    assert cards > 40
    assert found / cards >= 0.85
    assert false <= 3


def test_the_detector_reads_a_light_paper_table_where_borders_do_not_stand_out(detector):
    hits = total = 0
    for i in range(40):
        jpeg, labels = make_scene("uno", 5151, i, 640)
        if labels["table"] not in ("paper", "laminate"):
            continue
        img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        quads = [d.quad.pts for d in detector.detect(img) if d.kind == "card"]
        for c in labels["cards"]:
            if c["card"] != "back" and c["visible"] >= 0.9:
                total += 1
                hits += any(quad_iou(q, np.float32(c["quad"])) >= 0.7 for q in quads)
    if total == 0:
        pytest.skip("no light table among these scenes")
    assert hits / total >= 0.85


def test_recognizer_takes_a_locator_and_refuses_an_unknown_one():
    rec_d, rec_c = Recognizer("ono"), Recognizer("ono", locator="contour")
    with pytest.raises(ValueError, match="unknown locator"):
        Recognizer("ono", locator="magic")
    assert rec_d.detector is not None and rec_c.detector is None


def test_an_outline_running_off_the_picture_must_come_from_edges_found(monkeypatch):
    # verify judges only the sides of an outline that are in view, and over a pale desk a rough
    # box's sides pass for a white margin: such a box is no outline by itself once it runs off the
    # picture; the same quad found on the card's edges (the snap) is
    import vision.locate.detector as D
    from vision.locate.verify import verify_quad
    img = np.full((480, 640, 3), (215, 212, 210), np.uint8)            # a pale desk
    cv2.rectangle(img, (420, 60), (600, 330), (40, 40, 200), -1)        # something red on it
    box = np.float32([[400, -80], [620, -80], [620, 350], [400, 350]])  # 19% above the picture
    assert verify_quad(img, box).ok                                  # the sides in view pass
    monkeypatch.setattr(D, "_outlines", lambda bgr, b, border=None, sweep=False, card_aspect=None: iter([(box, False, False)]))
    (ok, _, _), *_ = D._best_outline(img, box, 0.7)
    assert not ok
    monkeypatch.setattr(D, "_outlines", lambda bgr, b, border=None, sweep=False, card_aspect=None: iter([(box, True, True)]))
    (ok, _, _), *_ = D._best_outline(img, box, 0.7)
    assert ok
    inside = box + np.float32([0, 90])                                 # the same box in view
    monkeypatch.setattr(D, "_outlines", lambda bgr, b, border=None, sweep=False, card_aspect=None: iter([(inside, False, False)]))
    (ok, _, _), *_ = D._best_outline(img, inside, 0.7)
    assert ok == verify_quad(img, inside).ok


def test_of_two_outlines_verified_alike_the_one_with_the_whiter_least_white_side_ranks_first():
    from vision.locate.detector import _rank
    quad = np.float32([[0, 0], [10, 0], [10, 16], [0, 16]])
    # the bench's red shoe on gingham: cut across its far end along the white label band (one side
    # 0.87 white), against its own edges (every side white), the two verify scores 0.0002 apart
    across = ((True, 0.9577, 0.93), quad, True, 0.87)
    own = ((True, 0.9575, 0.92), quad, True, 1.0)
    assert _rank(own) > _rank(across)
    # a clearly better verified outline still wins over a whiter side
    assert _rank(((True, 0.99, 0.9), quad, True, 0.6)) > _rank(own)
    # and a verified outline over one that is not, whatever its sides
    assert _rank(((True, 0.5, 0.9), quad, True, 0.6)) > _rank(((False, 0.0, 0.99), quad, True, 1.0))
