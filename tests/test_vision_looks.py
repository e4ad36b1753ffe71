"""The detector's looks at a picture: fed at the picture's own shape (no grey bars to pay for), and
a closer look for cards too small for the first one."""
from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from vision.art import render_card
from vision.locate import quad_iou
from vision.locate.detector import CardDetector
from vision.recognizer import Recognizer, _small_cards
from vision.synth.tables import make_table


@pytest.fixture(scope="module")
def detector():
    return CardDetector()


def test_the_committed_detector_takes_any_height_and_width(detector):
    assert detector.dynamic and detector.size == 320


def test_a_picture_is_fed_at_its_own_shape_padded_to_the_stride(detector):
    frame = np.zeros((480, 640, 3), np.uint8)
    # 640x480 scaled by 320/640: 320x240, padded to 32-multiples: 320x256, 8 rows above
    x, r, (left, top) = detector._letterbox(frame)
    assert x.shape == (1, 3, 256, 320) and r == 0.5 and (left, top) == (0, 8)
    # from twice as far: 160x120 in 160x128, a quarter of the pixels
    x, r, _ = detector._letterbox(frame, zoom_out=2.0)
    assert x.shape == (1, 3, 128, 160) and r == 0.25
    # twice closer: the picture at its own size
    x, r, (left, top) = detector._letterbox(frame, zoom_out=0.5)
    assert x.shape == (1, 3, 480, 640) and r == 1.0 and (left, top) == (0, 0)
    # a portrait phone photo
    x, _, _ = detector._letterbox(np.zeros((4000, 3000, 3), np.uint8))
    assert x.shape == (1, 3, 320, 256)


def test_small_cards_mean_every_box_small_in_the_picture():
    box = lambda w, h: np.float32([[0, 0], [w, 0], [w, h], [0, h]])  # noqa: E731
    shape = (960, 1280, 3)
    assert _small_cards([(box(60, 93), "card", 0.9), (box(100, 155), "card", 0.8)], shape)  # 6% and 10%
    assert not _small_cards([(box(60, 93), "card", 0.9), (box(300, 466), "card", 0.8)], shape)  # one held close
    assert not _small_cards([], shape)                                                         # nothing seen


def _table_with_cards(k: int, cid: str, width: int = 40):
    """A 1280x960 felt table with one upright card `width` pixels wide (4.2% of the short side)."""
    g = np.random.default_rng(k)
    img = make_table(g, 1280, "felt")[0][:960, :1280].copy()
    h = int(round(width * 87 / 56))
    face = render_card(cid, "uno", rng=random.Random(k), size=(width, h))
    x, y = 300 + 80 * k, 400
    a = face[..., 3:4].astype(np.float32) / 255
    img[y:y + h, x:x + width] = (img[y:y + h, x:x + width] * (1 - a) + face[..., 2::-1] * a).astype(np.uint8)
    return img


def test_cards_too_small_for_the_first_look_are_found_by_the_closer_one():
    """Cards 40 pixels wide in a 1280x960 picture are 10 pixels wide at the detector's scale: its
    first look misses some of eight (6 with stage 4 when written, checked by hand; 3 with stage 5),
    and the look at twice its scale reads them (8 of 8 right, both stages)."""
    rec = Recognizer("uno")
    cards = ["red-7", "blue-2", "green-skip", "yellow-5", "red-reverse", "blue-9", "green-4", "yellow-draw2"]
    missed = missed_right = right = 0
    for k, cid in enumerate(cards):
        img = _table_with_cards(k, cid)
        reads = rec.read(img)
        ok = bool(reads) and reads[0].card == cid
        right += ok
        if not rec.detector.boxes(img):
            missed += 1
            missed_right += ok
    assert missed >= 2 and missed_right == missed
    assert right >= 6


def _scene(i: int):
    """Held-out scene i of bench/vision_accuracy.py's table scenes from above (seed 4242, 640x480)."""
    import cv2
    from vision.synth.generate import make_scene
    jpeg, labels = make_scene("uno", 4242, i, 640)
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR), labels


def _read_at(readings, quad) -> str | None:
    from vision.locate import quad_iou
    best = max(readings, key=lambda r: quad_iou(r.quad.pts, quad), default=None)
    return best.card if best is not None and quad_iou(best.quad.pts, quad) >= 0.5 else None


@pytest.fixture(scope="module")
def recognizer():
    return Recognizer("uno")


def test_a_face_whose_coarse_outlines_fail_gets_a_closer_look(recognizer):
    # scene 99: a red 4, about 50 px across; with the detector's stage 4 the boxes of the first look
    # and of the look from twice as far missed its edge by a pixel or two, so no outline of it
    # verified and the closer look read it. Stage 5's coarse boxes fit it (session 25), so the test
    # now holds the reading only; the closer look's reading of cards the coarse looks miss is held by
    # test_cards_too_small_for_the_first_look_are_found_by_the_closer_one. (Scene 83's green 7, this
    # test's card until session 10, verifies from the coarse looks since the snap may keep a side
    # whose edge it does not find; scene 62's green +2, until session 15, since a card may run off
    # the picture by a corner.)
    img, labels = _scene(99)
    truth = next(c for c in labels["cards"] if c["card"] == "red-4")
    quad = np.float32(truth["quad"])
    assert _read_at(recognizer.read(img), quad) == "red-4"


def test_the_top_card_of_a_pile_outlined_weakly_gets_a_closer_look(recognizer, monkeypatch):
    # scene 184: a yellow 0 on top of the discard pile, blurred, its sides over the cards beneath.
    # The first look and the look from twice as far outline it verified at 0.89 (IoU 0.71 with the
    # card: one side on the card beneath), and it read as a 7, unsure. Under CLOSER_WEAK the look at
    # twice the detector's scale is taken too, and its box outlines the card (IoU 0.88): read right
    # and sure (checked by hand on the picture)
    from vision import recognizer as module
    img, labels = _scene(184)
    quad = np.float32(next(c for c in labels["cards"] if c["card"] == "yellow-0")["quad"])
    looks = []
    boxes = recognizer.detector.boxes
    monkeypatch.setattr(recognizer.detector, "boxes",
                        lambda bgr, *a, **k: looks.append(k.get("zoom_out", 1.0)) or boxes(bgr, *a, **k))
    coarse = recognizer.detector.detect(img, zoom_outs=(1.0, 2.0))
    weak = max(coarse, key=lambda d: quad_iou(d.quad.pts, quad))
    assert 0 < weak.verified < module.CLOSER_WEAK
    looks.clear()
    readings = recognizer.read(img)
    assert module.ZOOM_IN in looks
    best = max(readings, key=lambda r: quad_iou(r.quad.pts, quad))
    assert quad_iou(best.quad.pts, quad) >= 0.8 and best.card == "yellow-0" and best.sure


def test_a_wild_draw_four_the_detector_takes_for_a_back_is_read(recognizer):
    # scene 23: a classic wild draw four (black, four small coloured cards: 0.18 of it coloured),
    # found as a card back
    img, labels = _scene(23)
    truth = next(c for c in labels["cards"] if c["card"] == "wild-draw4")
    assert _read_at(recognizer.read(img), np.float32(truth["quad"])) == "wild-draw4"


def test_no_back_passes_for_a_wild():
    from vision.art import render_back
    from vision.recognizer import WILD_COLOURED, WILD_SHARE, four_coloured
    from vision.synth.augment import rgba_to_bgr_on
    rng = random.Random(5)
    for deck in ("uno", "ono", "dino2", "snake-cup"):
        for _ in range(10):
            rgba = render_back(deck, rng)
            back = rgba_to_bgr_on(rgba, np.zeros(rgba.shape[:2] + (3,), np.uint8))
            # the UNO family's share, for its backs; the stricter default for every deck's
            if deck in ("uno", "ono"):
                assert not four_coloured(back, min_share=WILD_SHARE, min_coloured=WILD_COLOURED), deck
            assert not four_coloured(back), deck
    # a snake-cup back's four colours cover 0.12 of it: why printed decks keep the stricter share
    rgba = render_back("snake-cup", rng)
    assert four_coloured(rgba_to_bgr_on(rgba, np.zeros(rgba.shape[:2] + (3,), np.uint8)), min_coloured=WILD_COLOURED)
    assert not Recognizer("snake-cup")._wild_coloured <= WILD_COLOURED


def test_a_wild_with_one_colour_scarce_is_still_four_coloured():
    # a blurred classic wild under a warm lamp: its dark green quadrant kept 0.07 of the coloured
    # pixels. Read as a wild from the detector's "backs" in the UNO family, where a back shows two
    # colours (its scarcest at most 0.001 in 60 synthetic scenes); not under the default share
    from vision.art import render_card
    from vision.read.colour import colour_votes
    from vision.recognizer import WILD_COLOURED, WILD_SHARE, four_coloured
    from vision.synth.augment import rgba_to_bgr_on
    card = render_card("wild", "uno", size=(112, 174))
    bgr = card if card.shape[2] == 3 else rgba_to_bgr_on(card, np.zeros(card.shape[:2] + (3,), np.uint8))
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    green = (hsv[..., 0] > 40) & (hsv[..., 0] < 85) & (hsv[..., 1] > 80)
    rows = np.arange(bgr.shape[0])[:, None] * np.ones(bgr.shape[1], int)
    dark = green & (rows % 4 != 0)                    # three green rows in four gone to black
    faded = bgr.copy()
    faded[dark] = (20, 20, 20)
    share = colour_votes(faded)["votes"]["green"]
    assert WILD_SHARE < share < 0.15
    assert four_coloured(faded, min_share=WILD_SHARE, min_coloured=WILD_COLOURED)
    assert not four_coloured(faded, min_coloured=WILD_COLOURED)


def test_a_black_thing_on_a_pale_desk_is_no_wild_for_its_chroma_noise():
    # the transplant cell's phone on a pale desk, taken for a back: its JPEG's chroma noise, every
    # hue at 15-25 grey levels, passed for all four colours and it was read as a wild, sure. The
    # four colours of a wild are printed bright: at least WILD_LEVEL of the paper (real wilds 0.84+)
    from vision.read.colour import colour_votes
    from vision.recognizer import WILD_COLOURED, WILD_LEVEL, WILD_SHARE, four_coloured
    rng = np.random.default_rng(3)
    thing = np.full((100, 64, 3), 170, np.uint8)                     # the desk round it
    hsv = np.stack([rng.integers(0, 180, (90, 56)), np.full((90, 56), 200), rng.integers(15, 26, (90, 56))], -1)
    thing[5:95, 4:60] = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    v = colour_votes(thing)
    assert v["coloured"] >= WILD_COLOURED and min(v["votes"].values()) >= WILD_SHARE   # four colours, by hue
    assert v["level"] < 0.2 < WILD_LEVEL
    assert not four_coloured(thing, min_share=WILD_SHARE, min_coloured=WILD_COLOURED)
    # a wild rendered on a black table passes, as before
    from vision.art import render_card
    from vision.synth.augment import rgba_to_bgr_on
    card = render_card("wild", "uno", size=(112, 174))
    wild = rgba_to_bgr_on(card, np.zeros(card.shape[:2] + (3,), np.uint8))
    assert colour_votes(wild)["level"] > 0.6 and four_coloured(wild, min_share=WILD_SHARE, min_coloured=WILD_COLOURED)


def test_one_look_s_boxes_are_never_grouped_as_one_card():
    from vision.locate.detector import group_boxes
    box = lambda x: np.float32([[x, 0], [x + 10, 0], [x + 10, 10], [x, 10]])  # noqa: E731
    # by hand: squares of side 10 shifted by 4 overlap 6 x 10 = 60 of 140, IoU 0.43 (above 0.3)
    top, beneath = (box(0), "card", 0.9), (box(4), "card", 0.8)
    # from two looks: one card seen twice
    assert [len(g) for g in group_boxes([top, beneath], looks=[0, 1])] == [2]
    # from one look, whose suppression (IoU 0.5) kept both: the top card of a pile and the one beneath
    assert [len(g) for g in group_boxes([top, beneath], looks=[0, 0])] == [1, 1]
    # a third look's box joins the group whose leader it overlaps, the first one it may join
    again = (box(1), "card", 0.7)
    groups = group_boxes([top, beneath, again], looks=[0, 0, 1])
    assert [len(g) for g in groups] == [2, 1] and groups[0][1] is again


def test_two_looks_boxes_across_each_other_are_two_cards():
    from vision.locate.detector import SAME_CARD_IOU, box_corners, group_boxes
    card = lambda angle, dx=0.0: (box_corners(100 + dx, 100, 56, 87, np.radians(angle)), "card", 0.9)  # noqa: E731
    top, across = card(0), card(90)
    # by hand: a 56 x 87 box and the same turned 90 degrees about its centre share a 56 x 56 square,
    # IoU 3136 / (2 x 4872 - 3136) = 0.475: above the 0.3 at which looks' boxes are grouped
    assert quad_iou(top[0], across[0]) == pytest.approx(0.475, abs=0.005) and 0.475 < SAME_CARD_IOU
    # from two looks, their long sides 90 degrees apart: a card lying across another, two groups
    assert [len(g) for g in group_boxes([top, across], looks=[0, 1])] == [1, 1]
    # one card seen by two looks a little turned and shifted (10 degrees, 8 pixels): one group
    assert [len(g) for g in group_boxes([top, card(10, 8)], looks=[0, 1])] == [2]
    # turned 60 degrees and shifted 20 pixels: IoU between 0.3 and 0.5, two cards (one across the other on a pile)
    turned = card(60, 20)
    assert 0.3 <= quad_iou(top[0], turned[0]) < SAME_CARD_IOU
    assert [len(g) for g in group_boxes([top, turned], looks=[0, 1])] == [1, 1]


def test_the_top_card_of_a_pile_is_read_apart_from_the_card_beneath(recognizer):
    # held-out scene 38 of seed 777: a blue draw two lying over a blue reverse; one look's boxes of
    # the two overlap by more than the 0.3 at which several looks' boxes are grouped
    import cv2
    from vision.synth.generate import make_scene
    jpeg, labels = make_scene("uno", 777, 38, 640)
    img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    truth = next(c for c in labels["cards"] if c["card"] == "blue-draw2")
    assert _read_at(recognizer.read(img), np.float32(truth["quad"])) == "blue-draw2"


def test_a_uno_back_is_red_and_a_face_of_one_other_colour_is_no_back():
    # the detector takes a dark green or blue face for a back; a verified "back" of one colour
    # other than red is read as a face (every UNO family back is black round a red oval)
    from vision.art import render_back
    from vision.recognizer import _face_not_back
    from vision.synth.augment import rgba_to_bgr_on
    rng = random.Random(7)

    def on_black(rgba):
        return rgba_to_bgr_on(rgba, np.zeros(rgba.shape[:2] + (3,), np.uint8))
    for deck in ("uno", "ono"):
        for _ in range(10):
            assert not _face_not_back(on_black(render_back(deck, rng))), deck
    for cid in ("green-draw2", "blue-2", "yellow-7", "green-skip", "blue-reverse"):
        assert _face_not_back(on_black(render_card(cid, "uno", rng=rng))), cid
    # a red face stays a back: it cannot be told from one by its colour (a limit of the rule)
    assert not _face_not_back(on_black(render_card("red-5", "uno", rng=rng)))


@pytest.mark.parametrize("far_unverified", [True, False])
def test_faces_whose_outlines_all_fail_get_the_looks_from_farther(monkeypatch, far_unverified):
    # a card held close at a slant, fingers over its edges (a transplanted real face, seed 314): the
    # first two looks' boxes give outlines that do not verify, the look from four times as far a box
    # whose outline does. Stand-in detections here; which looks are taken is the recognizer's rule
    import vision.recognizer as R
    from helpers import table_with
    from vision.locate import Quad
    from vision.locate.detector import Detection
    monkeypatch.setattr(R, "FAR_UNVERIFIED", far_unverified)
    rec = Recognizer("uno")
    img = table_with("uno", [("red-5", (250, 160), False)])
    truth = np.float32([[250, 160], [333, 160], [333, 289], [250, 289]])
    loose = (truth - truth.mean(axis=0)) * 1.3 + truth.mean(axis=0)
    looked = []

    def detect(bgr, zoom_outs=(), looks=None, outlines=None, **kw):
        looked.append(tuple(zoom_outs))
        if zoom_outs == (R.FAR[0],):
            return [Detection(Quad(truth, 1.0), "card", 0.9, True, 0.95)]
        return [Detection(Quad(loose, 1.0), "card", 0.9, False, 0.0)]
    monkeypatch.setattr(rec.detector, "detect", detect)
    monkeypatch.setattr(rec.detector, "boxes", lambda bgr, *a, **kw: [])
    faces, _ = rec.locate_all(img)
    if far_unverified:
        assert (R.FAR[0],) in looked
        assert len(faces) == 1 and np.allclose(faces[0].pts, truth)      # the loose face is replaced
        assert [r.card for r in rec.read(img)] == ["red-5"]
    else:
        assert (R.FAR[0],) not in looked and len(faces) == 1 and np.allclose(faces[0].pts, loose)
