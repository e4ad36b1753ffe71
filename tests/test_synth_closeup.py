"""vision/synth/closeup.py: cards held or lying near the lens. Their labels must be the cards'
outer quads in the picture, their sizes the range the detector is trained for, and the scenes
reproducible from their arguments."""

import cv2
import numpy as np
import pytest

from vision.synth.closeup import CARD_ASPECT, _card_quad
from vision.synth.generate import make_scene
from vision.synth.writer import obb_lines


def decode(jpeg):
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def test_same_arguments_give_the_same_scene_and_other_seeds_differ():
    a = make_scene("uno", 3, 5, 320, "closeup")
    b = make_scene("uno", 3, 5, 320, "closeup")
    c = make_scene("uno", 4, 5, 320, "closeup")
    assert a[0] == b[0] and a[1] == b[1]
    assert a[0] != c[0]


def test_closeups_come_portrait_and_landscape_with_big_cards():
    shapes, fractions = set(), []
    for i in range(40):
        jpeg, labels = make_scene("ono", 1, i, 320, "closeup")
        img = decode(jpeg)
        assert img.shape[:2] == (labels["height"], labels["width"])
        shapes.add((labels["width"], labels["height"]))
        top = labels["cards"][-1]                       # drawn last: nothing but a hand above it
        q = np.array(top["quad"])
        short_side = min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1]))
        fractions.append(short_side / min(labels["width"], labels["height"]))
    assert shapes == {(320, 240), (240, 320)}
    # the range is 5-95% of the short side; close-ups cover its upper part (table scenes the lower)
    assert np.percentile(fractions, 10) < 0.35 and np.percentile(fractions, 90) > 0.6


def test_a_pinhole_view_of_an_untilted_card_is_the_card_scaled():
    # tilt 0: the card's plane faces the camera, so the quad is the card's rectangle, turned by spin
    g = np.random.default_rng(0)
    q = _card_quad(g, (160, 120), 100, 0.0, 0.0, 400)
    assert np.allclose(q, [[110, 120 - 50 * CARD_ASPECT], [210, 120 - 50 * CARD_ASPECT],
                           [210, 120 + 50 * CARD_ASPECT], [110, 120 + 50 * CARD_ASPECT]], atol=1e-3)


def test_a_tilted_card_is_seen_in_perspective():
    g = np.random.default_rng(1)
    q = _card_quad(g, (160, 120), 100, 0.0, 45.0, 300)
    sides = [np.linalg.norm(q[(k + 1) % 4] - q[k]) for k in range(4)]
    # some pair of opposite sides is no longer equal: the nearer one is longer
    assert max(abs(sides[0] - sides[2]) / max(sides[0], sides[2]),
               abs(sides[1] - sides[3]) / max(sides[1], sides[3])) > 0.1


def ring(grey, quad, inward):
    """Brightness at points along the quad's sides, `inward` of the way towards its centre
    (negative: outside)."""
    c = quad.mean(0)
    h, w = grey.shape
    vals = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        for t in np.linspace(0.1, 0.9, 15):
            p = a + (b - a) * t
            x, y = (p + (c - p) * inward).astype(int)
            if 0 <= x < w and 0 <= y < h:
                vals.append(grey[y, x])
    return np.median(vals)


def test_the_labelled_quad_runs_along_the_cards_white_edge():
    # every UNO card, face or back, has a white margin: just inside the labelled outline the
    # picture is white, just outside it is the table, the sweater or the hand
    brighter = 0
    for index in range(12):
        jpeg, labels = make_scene("uno", 9, index, 320, "closeup")
        grey = decode(jpeg).min(axis=2).astype(np.float32)      # white is bright in all three channels
        q = np.array(labels["cards"][-1]["quad"], np.float32)
        inside, outside = ring(grey, q, 0.03), ring(grey, q, -0.06)
        assert inside > 100, (index, inside)
        brighter += inside > outside + 15
    assert brighter >= 10


def test_edged_decks_carry_their_colour_at_the_labelled_edge_and_leave_other_scenes_alone():
    # the detector learns decks edged in black or a colour (themed editions, home-printed decks)
    # from a share of the scenes; a scene not edged is exactly the one rendered without the option
    edged = checked = 0
    for index in range(16):
        plain = make_scene("uno", 9, index, 320, "closeup")
        jpeg, labels = make_scene("uno", 9, index, 320, "closeup", edged=0.4)
        if "edge" not in labels:
            assert (jpeg, labels) == plain
            continue
        edged += 1
        top = labels["cards"][-1]
        if top["card"] == "back" or top["visible"] < 0.9:
            continue
        img = decode(jpeg).astype(np.float32)
        q = np.array(top["quad"], np.float32)
        inside = np.array([ring(img[..., c], q, 0.03) for c in range(3)])
        expected = np.array(labels["edge"][::-1], np.float32)           # RGB label, BGR picture
        assert np.abs(inside - expected).max() < 60, (index, inside, expected)
        checked += 1
    assert 3 <= edged <= 11 and checked >= 2, (edged, checked)


def test_hands_cover_cards_and_the_labels_say_so():
    covered = 0
    for i in range(30):
        _, labels = make_scene("uno", 2, i, 320, "closeup")
        covered += any(c["visible"] < 0.97 for c in labels["cards"])
    assert covered >= 10


def test_cards_half_hidden_are_not_labelled_for_the_detector():
    for i in range(20):
        _, labels = make_scene("dino2", 6, i, 320, "closeup")
        lines = obb_lines(labels)
        assert len(lines) == sum(c["visible"] >= 0.5 for c in labels["cards"]
                                 if np.ptp(np.clip(np.array(c["quad"])[:, 0], 0, labels["width"])) >= 4)


def test_unknown_layout_is_refused():
    with pytest.raises(ValueError, match="layout"):
        make_scene("uno", 0, 0, 320, "sideways")


def test_some_closeups_lie_on_a_white_or_pale_desk():
    from vision.synth.closeup import LIGHT_SURFACE
    kinds = [make_scene("uno", 2, i, 320, "closeup")[1]["table"] for i in range(60)]
    share = sum(k.endswith("light") for k in kinds) / len(kinds)     # "desk-light": papers, a keyboard on it
    assert abs(share - LIGHT_SURFACE) < 0.15, kinds
    from vision.synth.tables import light_surface
    for s in range(8):
        hsv = cv2.cvtColor(np.clip(light_surface(np.random.default_rng(s), 64), 0, 255).astype(np.uint8),
                           cv2.COLOR_BGR2HSV)
        assert hsv[..., 2].mean() > 150 and hsv[..., 1].mean() < 60       # pale and nearly grey
