"""The hand watch (vision/track/hands.py) on drawn quarter-scale frames: an arm from an edge to the
pile is seen at that edge, a card alone is not a hand, two arms are two places, a hand resting
on the pile stays a hand. Border positions by hand: bottom edge 2..3 running right to left, so
x = 0.5 on the bottom is 2.5; left edge 3..4 running upwards, so y = 0.5 on the left is 3.5."""
from __future__ import annotations

import numpy as np
import pytest

from vision.track.hands import HandWatch
from vision.track.seats import edge_distance

W, H = 160, 120
PILE = (60, 40, 40, 40)          # x, y, w, h around the middle
TABLE = (40, 90, 160)            # BGR brown


def table():
    return np.tile(np.uint8(TABLE), (H, W, 1))


def with_arm_from_bottom(img, x0=76, x1=84, top=50, colour=(120, 165, 225)):
    img = img.copy()
    img[top:, x0:x1] = colour
    return img


def with_arm_from_left(img, y0=56, y1=64, reach=75, colour=(40, 60, 110)):
    img = img.copy()
    img[y0:y1, :reach] = colour
    return img


def settled(watch, img, t0=0.0):
    """Feeds a still picture long enough to become the background."""
    for k in range(10):
        watch.update(t0 + k / 30, img, True, PILE)


def test_an_arm_from_the_bottom_edge_is_seen_there():
    w = HandWatch()
    settled(w, table())
    w.update(1.0, with_arm_from_bottom(table()), False, PILE)
    assert len(w.last_blobs) == 1
    pos, weight = w.last_blobs[0]
    assert edge_distance(pos, 2.5) < 0.05 and weight > 12
    got = w.attribute({"Ana": 2.5, "Ben": 3.5, "Cy": 1.0})
    assert got["seat"] == "Ana" and got["seat_confidence"] > 0.95 and got["hands"] == 1


def test_a_card_alone_on_the_pile_is_not_a_hand():
    w = HandWatch()
    settled(w, table())
    card = table()
    card[50:70, 70:84] = (250, 250, 250)
    w.update(1.0, card, False, PILE)
    assert w.last_blobs == [] and not w.at_pile()


def test_an_arm_that_does_not_reach_the_pile_is_not_counted():
    w = HandWatch()
    settled(w, table())
    w.update(1.0, with_arm_from_bottom(table(), top=100), False, PILE)
    assert w.last_blobs == []


def test_two_arms_at_once_are_two_places_and_not_sure():
    w = HandWatch()
    settled(w, table())
    both = with_arm_from_left(with_arm_from_bottom(table()))
    w.update(1.0, both, False, PILE)
    assert sorted(round(p, 1) for p, _ in w.last_blobs) == [2.5, 3.5]
    got = w.attribute({"Ana": 2.5, "Ben": 3.5, "Cy": 1.0})
    assert got["hands"] == 2 and got["seat_confidence"] < 0.8


def test_a_hand_resting_on_the_pile_stays_a_hand_and_is_forgotten_on_reset():
    w = HandWatch()
    settled(w, table())
    arm = with_arm_from_bottom(table())
    for k in range(30):                      # a second with the hand still on the pile
        w.update(1.0 + k / 30, arm, True, PILE)
    assert w.at_pile()
    w.reset()
    assert w.attribute({"Ana": 2.5, "Ben": 3.5})["seat"] is None


def test_no_hand_seen_names_nobody():
    w = HandWatch()
    settled(w, table())
    got = w.attribute({"Ana": 2.5, "Ben": 3.5})
    assert got["seat"] is None and got["seat_confidence"] == 0 and got["hand_edge"] is None


@pytest.mark.parametrize("noise", [2.0])
def test_camera_noise_alone_is_no_hand(noise):
    g = np.random.default_rng(1)
    w = HandWatch()
    settled(w, table())
    for k in range(20):
        img = np.clip(table() + g.normal(0, noise, (H, W, 3)), 0, 255).astype(np.uint8)
        w.update(1 + k / 30, img, False, PILE)
    assert w.sightings == []


def test_cards_that_settle_together_go_out_as_one_double_when_asked():
    from vision.track.pipeline import together
    a = {"type": "play", "t": 2.0, "cards": ["red-7"], "confidence": 0.9, "seat": "Ana", "seat_confidence": 0.95}
    b = {"type": "play", "t": 2.0, "cards": ["blue-7"], "confidence": 0.7, "seat": "Ana", "seat_confidence": 0.95}
    hint = {"type": "draw_hint", "t": 2.0}
    got = together([hint, a, b])
    assert got == [hint, {**a, "cards": ["red-7", "blue-7"], "confidence": 0.7}]
    assert together([a]) == [a]
    assert together([a, {**b, "unconfirmed": True}])[-1]["unconfirmed"] is True


def test_an_arm_that_never_leaves_becomes_part_of_the_table_after_a_while():
    from vision.track.hands import HAND_REST_S
    w = HandWatch()
    settled(w, table())
    arm = with_arm_from_bottom(table())
    t = 1.0
    while t < 1.0 + HAND_REST_S + 0.5:          # still on the pile, longer than a hand rests
        w.update(t, arm, True, PILE)
        t += 1 / 30
    w.update(t, arm, True, PILE)
    assert not w.at_pile()                      # the pile's reference may be taken again
