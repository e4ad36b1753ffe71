"""A card partly under another (vision/locate/covered.py): which cards lie above it, and its face with
them painted out, on a rendered pile whose order is known (a card drawn later lies on those before)."""
import random

import cv2
import numpy as np

from vision.locate import covered
from vision.synth.generate import compose


def pile():
    # seed 470, scene 112 (tests/test_vision_stack.py): a blue 1 lies across a blue card beneath
    g, rng = np.random.default_rng([470, 5, 112]), random.Random(470 * 31 + 112)
    img, labels = compose("uno", g, rng, 640, 480)
    cards = [c for c in labels["cards"] if c["card"] != "back"]
    for x, lower in enumerate(cards):
        for upper in cards[x + 1:]:
            lo, up = np.float32(lower["quad"]), np.float32(upper["quad"])
            if upper["visible"] >= 0.98 and covered.share_inside(lo, up) >= 0.1:
                return img, lo, up
    raise AssertionError("the scene has a card under another")


def test_the_card_above_is_found_above_and_the_card_beneath_is_not():
    img, lo, up = pile()
    assert [q.tolist() for q in covered.cards_above(img, lo, [up])] == [up.tolist()]
    assert covered.cards_above(img, up, [lo]) == []


def test_cards_lying_apart_are_not_above_each_other():
    img, lo, up = pile()
    far = lo + np.float32([1000, 0])      # the same card moved clear of the other
    assert covered.cards_above(img, far, [up]) == []


def test_the_covered_part_is_painted_in_one_colour_and_nothing_else_changes():
    img, lo, up = pile()
    out, share = covered.painted_out(img, lo, [up])
    h, w = img.shape[:2]
    card, over = np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8)
    cv2.fillPoly(card, [np.round(lo).astype(np.int32)], 1)
    cv2.fillPoly(over, [np.round(up).astype(np.int32)], 1)
    cover = (card & over).astype(bool)
    # the share is the covered part of the lower card's own area (by pixels, as the overlap's area says)
    inter = cv2.intersectConvexConvex(lo, up)[0] / cv2.contourArea(lo)
    assert abs(share - inter) < 0.03 and covered.LEAST <= share <= covered.MOST
    # one colour over the covered part: the median of the lower card's uncovered pixels
    own = card.astype(bool) & ~cover
    assert (out[cover] == np.median(img[own], axis=0).astype(np.uint8)).all()
    # outside it, the picture as it was; the picture given is not changed
    assert (out[~cover] == img[~cover]).all()
    assert not (out[cover] == img[cover]).all()


def test_nothing_above_paints_nothing():
    img, lo, _ = pile()
    out, share = covered.painted_out(img, lo, [])
    assert share == 0.0 and (out == img).all()
