"""A card held close that the picture cuts at one end is read at a card's proportions
(vision/locate/quad.to_card_shape, used by the recognizer): the outline found ends where the
picture ends, and a card squashed to it puts the symbol and the corner index out of place."""
from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.art import render_card
from vision.locate.quad import CARD_ASPECT, aspect, order_corners, to_card_shape
from vision.synth.scene import Canvas

SHAPE = (480, 640, 3)


def test_an_upright_card_cut_at_its_top_is_grown_upwards_to_a_cards_length():
    # the outline of what is in view: 200 wide, its top side 30 px above the picture
    seen = np.float32([[100, -30], [300, -30], [300, 210], [100, 210]])
    whole = to_card_shape(seen, SHAPE)
    # by hand: 200 x 87/56 = 310.7 long, from the bottom side (in view) at y = 210 up to y = -100.7
    assert np.allclose(whole, [[100, -100.71], [300, -100.71], [300, 210], [100, 210]], atol=0.05)


def test_a_card_lying_across_cut_at_a_long_side_is_grown_to_a_cards_width():
    # a card on its side, 310 long, its upper long side 20 px above the picture: 170 of 200 in view
    seen = np.float32([[100, -20], [410, -20], [410, 150], [100, 150]])
    whole = order_corners(to_card_shape(seen, SHAPE))
    # by hand: 310 x 56/87 = 199.5 wide, from y = 150 up to y = -49.5
    assert np.allclose(whole[:, 1], [-49.54, -49.54, 150, 150], atol=0.05)
    assert np.allclose(whole[:, 0], [100, 410, 410, 100])


def test_a_card_in_view_two_ends_cut_or_long_enough_is_left_as_it_is():
    inside = np.float32([[100, 50], [300, 50], [300, 360], [100, 360]])
    assert to_card_shape(inside, SHAPE) is inside
    both_ends = np.float32([[100, -30], [300, -30], [300, 520], [100, 520]])
    assert to_card_shape(both_ends, SHAPE) is both_ends
    # its top out of view but already a card's length (a card tilted towards the camera is longer)
    long = np.float32([[100, -120], [300, -120], [300, 210], [100, 210]])
    assert to_card_shape(long, SHAPE) is long


@pytest.mark.parametrize("card,centre_y,angle", [("red-7", 110, 0), ("blue-3", 100, 10), ("green-skip", 130, -6)])
def test_a_card_filling_the_picture_with_its_top_cut_off_is_read_whole(card, centre_y, angle, monkeypatch):
    import vision.recognizer as recognizer
    from vision.locate.quad import quad_iou
    canvas = Canvas(np.full(SHAPE, 55, np.uint8))
    # 280 px wide, 435 long, its centre 100-130 px from the top: a quarter of it above the picture
    item = canvas.place(render_card(card, "uno", size=(112, 174)), (320, centre_y), angle, 280, card, shadow=0)
    rec = recognizer.Recognizer("uno")
    reading = rec.read(canvas.img)[0]
    assert reading.card == card
    # the polygon reported is the whole card, beyond the picture's edge, in a card's proportions
    assert quad_iou(reading.quad.pts, item.quad) > 0.93
    assert abs(aspect(reading.quad.pts) - CARD_ASPECT) < 0.05
    # read as found (before): the outline ends at the picture's edge, a card squashed to it
    monkeypatch.setattr(recognizer, "WHOLE", False)
    rec = recognizer.Recognizer("uno")
    assert quad_iou(rec.read(canvas.img)[0].quad.pts, item.quad) < 0.93


def test_a_face_from_farther_takes_a_weak_outlines_place_when_it_verifies_better():
    from vision.locate import Quad
    from vision.locate.detector import Detection
    from vision.recognizer import _better_from
    near = Detection(Quad(np.float32([[100, 0], [300, 0], [300, 300], [100, 300]]), 1.0), "card", 0.9, True, 0.80)
    same = np.float32([[90, -10], [310, -10], [310, 330], [90, 330]])        # the same card, IoU 0.80
    away = np.float32([[400, 0], [600, 0], [600, 300], [400, 300]])          # another place
    better = Detection(Quad(same, 1.0), "card", 0.7, True, 0.94)
    elsewhere = Detection(Quad(away, 1.0), "card", 0.9, True, 0.99)
    assert _better_from([elsewhere, better], near) is better
    worse = Detection(Quad(same, 1.0), "card", 0.7, True, 0.75)
    assert _better_from([elsewhere, worse], near) is near
    back = Detection(Quad(same, 1.0), "back", 0.7, True, 0.99)
    assert _better_from([back], near) is near


REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real-uno-dev"


@pytest.mark.skipif(not (REAL / "labels.csv").exists(), reason="development photos not present")
def test_a_real_skip_filling_the_picture_cut_at_its_foot_is_read(monkeypatch):
    # the classic print's oval lies askew on the card: seen from near, stage 4's box lay round the
    # oval, and its outline verified only weakly; from three times as far the box is the card's
    import vision.recognizer as recognizer
    from tests.helpers import load_bench
    from vision.locate import find_cards
    vc = load_bench("vision_cells")
    rows = {r["code"]: r["path"] for r in csv.DictReader(open(REAL / "labels.csv"))}
    img = cv2.imread(str(REAL / rows["rS"]))
    src = max(find_cards(img), key=lambda q: q.area).pts
    dst = np.float32([[69, 8], [501, 8], [501, 679], [69, 679]])       # 30% of it below the picture
    pic = vc.pose_image(img, src, dst, (640, 480), vc.table_only(img, src))
    import vision.locate.detector as detector
    assert recognizer.Recognizer("uno").read(pic)[0].card == "red-skip"
    # three ways to it: the farther look, the near box's bounding rectangle along the card's edges
    # (detector.TURN_BOUND, session 23), and the field's outline refitted to its sides (field.FIT,
    # session 24); any one alone reads it. With the detector's stage 4 none of them did not; stage 5
    # (session 25) boxes the card itself from near, a fourth way, so the three are no longer needed
    # here
    import vision.locate.field as field
    monkeypatch.setattr(detector, "TURN_BOUND", False)
    assert recognizer.Recognizer("uno").read(pic)[0].card == "red-skip"
    monkeypatch.setattr(recognizer, "FAR_WEAK", 0.0)
    assert recognizer.Recognizer("uno").read(pic)[0].card == "red-skip"
    monkeypatch.setattr(field, "FIT", False)
    assert recognizer.Recognizer("uno").read(pic)[0].card == "red-skip"
    monkeypatch.setattr(detector, "TURN_BOUND", True)
    assert recognizer.Recognizer("uno").read(pic)[0].card == "red-skip"
    monkeypatch.setattr(detector, "TURN_BOUND", False)
    monkeypatch.setattr(recognizer, "FAR_WEAK", 0.9)
    assert recognizer.Recognizer("uno").read(pic)[0].card == "red-skip"


def test_a_tiny_face_the_picture_cuts_is_no_card_but_a_whole_one_is():
    from vision.recognizer import _tiny_and_cut
    # 22 x 28 px in a 640 x 480 picture (under 6% of 480 = 28.8 px), its left third beyond the edge
    cut = np.float32([[-8, 450], [14, 450], [14, 478], [-8, 478]])
    assert _tiny_and_cut(cut, SHAPE)
    # the same card wholly in view is read (the smallest cards are 5% of the picture)
    assert not _tiny_and_cut(cut + np.float32([20, 0]), SHAPE)
    # a card held close that the picture cuts is no tiny card
    assert not _tiny_and_cut(np.float32([[100, -30], [300, -30], [300, 210], [100, 210]]), SHAPE)


# ---------------------------------------------------------------- cut at both ends (locate/ends.py)

def _filling(card: str, width: float, centre_y: float):
    """A card `width` pixels wide standing upright in a 640 x 480 picture on a dark table, and its
    true corners (TL, TR, BR, BL)."""
    canvas = Canvas(np.full(SHAPE, 55, np.uint8))
    item = canvas.place(render_card(card, "uno", size=(112, 174)), (320, centre_y), 0, width, card, shadow=0)
    return canvas.img, order_corners(item.quad)


def test_a_card_cut_at_both_ends_is_placed_from_the_end_of_its_field_in_view():
    from vision.locate.ends import place_ends
    # 340 wide, so 340 x 87/56 = 528.2 long: from y = -45 to 483.2, both ends beyond the picture
    # (0..479), the bottom one by 4 pixels: the blue field's end and most of the margin past it in view
    img, truth = _filling("blue-5", 340, -45 + 528.2 / 2)
    assert truth[0, 1] == pytest.approx(-45, abs=0.5) and truth[2, 1] == pytest.approx(483.2, abs=0.5)
    # the long sides found, the ends where a detector's box put them: too short, not centred
    found = np.float32([[truth[0, 0], -100], [truth[1, 0], -100], [truth[1, 0], 530], [truth[0, 0], 530]])
    placed = order_corners(place_ends(img, found))
    assert np.allclose(placed[:, 0], truth[:, 0], atol=1.0)
    assert np.allclose(placed[:, 1], truth[:, 1], atol=6.0)


def test_a_card_cut_deep_at_both_ends_is_centred_on_what_is_in_view():
    from vision.locate.ends import place_ends
    # 360 wide: 559.3 long, centred, from -39.6 to 519.6; each end's margin (about 20 px) and some
    # field out of view: nothing places it but the part in view (0..479, its middle 239.5)
    img, truth = _filling("green-8", 360, 240)
    found = np.float32([[truth[0, 0], -80], [truth[1, 0], -80], [truth[1, 0], 500], [truth[0, 0], 500]])
    placed = order_corners(place_ends(img, found))
    half = 360 * 87 / 56 / 2
    assert np.allclose(placed[:, 1], [239.5 - half, 239.5 - half, 239.5 + half, 239.5 + half], atol=1.0)


def test_an_outline_past_an_end_in_view_is_brought_back_to_it():
    from vision.locate.ends import place_ends
    # 340 wide, 528.2 long, its top end in view 12 px below the picture's edge, its bottom cut; an
    # outline whose top side was snapped beyond the picture (onto nothing) passes for cut at both
    # ends: the end margin there gives way to the table, in view, and the card ends where it does
    img, truth = _filling("yellow-2", 340, 12 + 528.2 / 2)
    found = np.float32([[truth[0, 0], -20], [truth[1, 0], -20], [truth[1, 0], 590], [truth[0, 0], 590]])
    placed = order_corners(place_ends(img, found))
    assert np.allclose(placed[:, 1], truth[:, 1], atol=4.0)


HELD = REAL.parent / "real-uno-dev2" / "hand-held"


@pytest.mark.skipif(not (HELD / "labels.csv").exists(), reason="development photos not present")
def test_an_end_margin_fading_out_at_the_pictures_edge_places_the_card(monkeypatch):
    # a real blue 7 held close and cut at its top, as the bench's sweep poses it (hand-held photos,
    # "runs off: upright @90%", seed 17171): the outline's foot lies just beyond the picture, so it
    # passes for cut at both ends; the card's white end margin is in view and ends 4 rows short of
    # the picture's edge, those rows still 0.8-0.9 white (its rounded corners, a blur), neither
    # margin nor the sweater below. Taken for the face again, the card was centred on the part in
    # view, its foot 110 pixels below the picture, and read as a +2
    import vision.locate.ends as ends
    from tests.helpers import swept_photo
    from vision.recognizer import Recognizer
    pic = swept_photo(HELD, "blue-7-2.jpg", "runs off: upright @90%", 17171)
    rec = Recognizer("uno")
    got = rec.read(pic)[0]
    assert got.card == "blue-7" and got.confidence >= 0.6
    foot = float(order_corners(got.quad.pts)[2:, 1].mean())
    assert 470 <= foot <= 490                 # the card's foot at the picture's edge (480), not beyond it
    monkeypatch.setattr(ends, "FADE_ROWS", 0)
    foot = float(order_corners(Recognizer("uno").read(pic)[0].quad.pts)[2:, 1].mean())
    assert foot > 540


def test_a_card_with_an_end_in_view_is_not_placed_again():
    from vision.locate.ends import place_ends
    img, truth = _filling("red-3", 300, 250)          # 466 long: 17..483, its top end in view
    found = np.float32([[truth[0, 0], 17], [truth[1, 0], 17], [truth[1, 0], 530], [truth[0, 0], 530]])
    assert place_ends(img, found) is found
    inside = np.float32([[100, 50], [300, 50], [300, 360], [100, 360]])
    assert place_ends(img, inside) is inside


def test_a_wild_filling_the_picture_is_read_whole(monkeypatch):
    import vision.recognizer as recognizer
    from vision.locate.quad import quad_iou
    # 330 wide, 512.7 long, centred: -16.3 to 496.3. The outline found runs along the picture's top
    # and bottom edges; the black field's top end is in view, 4 pixels below the picture's edge
    img, truth = _filling("wild", 330, 240)
    reading = recognizer.Recognizer("uno").read(img)[0]
    assert reading.card == "wild"
    assert quad_iou(reading.quad.pts, truth) > 0.95
    assert abs(aspect(reading.quad.pts) - CARD_ASPECT) < 0.05
    monkeypatch.setattr(recognizer, "ENDS", False)         # read as found: squashed into the picture
    assert quad_iou(recognizer.Recognizer("uno").read(img)[0].quad.pts, truth) < 0.93
