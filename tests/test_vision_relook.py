"""A small card outlined again from its neighbourhood enlarged (vision/locate/relook.py).

The truth is each synthetic scene's own label: the quadrilateral the card was drawn into."""
import random

import numpy as np
import pytest

import vision.recognizer as recognizer
from helpers import load_bench
from vision.locate import quad_iou, relook
from vision.locate.detector import CardDetector
from vision.recognizer import Recognizer
from vision.synth.generate import compose


def far_table(seed: int, index: int):
    """A table seen from farther up (bench/vision_accuracy.py's far cells, rendered faces): cards
    20-60 pixels wide in 640 x 480, and the labels of its whole face-up cards."""
    bench = load_bench("vision_accuracy")
    img, labels = compose("uno", np.random.default_rng([seed, 11, index]), random.Random(seed * 7_919 + index),
                          640, 480, card_width=bench.FAR_WIDTH)
    cards = [c for c in labels["cards"] if c["card"] != "back" and c["visible"] >= 0.9]
    return img, labels, cards


def outline_overlaps(rec: Recognizer, img, cards) -> list[float]:
    """For each card, the IoU of the outline found that overlaps it best with its true one."""
    faces, _ = rec.locate_all(img)
    return [max((quad_iou(f.pts, np.array(c["quad"], np.float32)) for f in faces), default=0.0) for c in cards]


@pytest.fixture(scope="module")
def rec():
    return Recognizer("uno")


def test_small_cards_on_a_far_table_are_outlined_closer_to_their_edges(rec, monkeypatch):
    """Eight far tables (17 whole face-up cards): with the second look the outlines lie closer to
    the true ones (measured when it came: mean IoU 0.87 -> 0.92), no card found before is lost, and
    no card read right before is read wrong."""
    bench = load_bench("vision_accuracy")
    before, after, right = [], [], {False: 0, True: 0}
    for index in range(8):
        img, labels, cards = far_table(6, index)
        for on in (False, True):
            monkeypatch.setattr(recognizer, "RELOOK", on)
            (after if on else before).extend(outline_overlaps(rec, img, cards))
            right[on] += sum(it["truth"] == it["read"] for it in bench.scene_items(rec, img, labels, "far", "t"))
    assert len(before) == 17
    assert np.mean(after) >= np.mean(before) + 0.03, (np.mean(before), np.mean(after))
    assert all(b < 0.5 or a >= 0.5 for a, b in zip(after, before))
    assert right[True] >= right[False], right


def test_only_small_faces_are_looked_at_again():
    assert relook.small(np.float32([[0, 0], [40, 0], [40, 62], [0, 62]]))
    assert not relook.small(np.float32([[0, 0], [80, 0], [80, 124], [0, 124]]))


def test_no_card_there_gives_no_outline():
    """A plain table where the first look had a box: the second look finds no card, and the first
    outline stands (None)."""
    table = np.full((480, 640, 3), (40, 90, 50), np.uint8)
    quad = np.float32([[300, 200], [340, 200], [340, 262], [300, 262]])
    assert relook.relook(CardDetector(), table, quad) is None


def test_a_card_at_the_picture_edge_or_a_sliver_is_no_trouble():
    """A box running off the picture is looked at within the picture; a box of a few pixels at its
    corner gives no outline rather than an error."""
    img, _, cards = far_table(6, 1)
    det = CardDetector()
    edge = np.float32([[-20, -10], [20, -10], [20, 52], [-20, 52]])
    relook.relook(det, img, edge)           # no error; whatever it finds lies in the picture
    assert relook.relook(det, img, np.float32([[0, 0], [3, 0], [3, 4], [0, 4]])) is None
    # a sliver far from card-shaped: no neighbourhood enlarged 35 times
    assert relook.relook(det, img, np.float32([[100, 100], [102, 100], [102, 400], [100, 400]])) is None
    got = relook.relook(det, img, np.array(cards[0]["quad"], np.float32))
    assert got is not None and quad_iou(got[0], np.array(cards[0]["quad"], np.float32)) >= 0.8
