"""A photo taken inside one card (its white margin cut off: a phone held too close) is read as that
card, unsure (vision/locate/inside.py, the recognizer's _inside_card): no outline of the card is
in view, and the locators found nothing or the print's oval, which read as another card."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.art import render_card
from vision.art.style import PRINTS, print_style
from vision.locate import inside
from vision.read.colour import HUE_BUCKETS
from vision.synth.scene import Canvas

CUT = 0.08      # of the card's width, cut off every side: more than any print's white margin


def _inside(card: str, print_name: str) -> np.ndarray:
    rgba = render_card(card, "uno", style=print_style(print_name), size=(280, 435))
    bgr = cv2.cvtColor(rgba[..., :3], cv2.COLOR_RGB2BGR)
    h, w = bgr.shape[:2]
    c = int(CUT * w)
    return np.ascontiguousarray(bgr[c:h - c, c:w - c])


@pytest.fixture(scope="module")
def rec():
    from vision.recognizer import Recognizer
    return Recognizer("uno")


def test_the_band_of_a_picture_inside_a_card_is_its_colour_and_a_table_photos_is_not():
    band = inside.band_of(_inside("green-7", "classic"), HUE_BUCKETS)
    assert band.colour == "green" and band.share > 0.6 and band.inside_field   # (the corner indices lie in the band)
    # the same card whole on a dark table: its margin and the table lie along the picture's edges
    canvas = Canvas(np.full((480, 640, 3), 50, np.uint8))
    canvas.place(render_card("green-7", "uno", size=(112, 174)), (320, 240), 15, 220, "green-7", shadow=0)
    band = inside.band_of(canvas.img, HUE_BUCKETS)
    assert band.share < 0.05 and band.paper < 0.05 and not band.inside_field and not band.card_to_edges
    assert inside.band_of(np.zeros((3, 3, 3), np.uint8), HUE_BUCKETS) == inside.Band(None, 0.0, 0.0)


def test_the_padded_picture_has_its_own_paper_white_round_it():
    pic = _inside("blue-2", "classic")
    out, quad, p = inside.padded(pic)
    assert p == round(inside.MARGIN * min(pic.shape[:2]))
    assert out.shape[:2] == (pic.shape[0] + 2 * p, pic.shape[1] + 2 * p)
    assert np.array_equal(out[p:-p, p:-p], pic)
    # the margin: the picture's brightest (its numeral's white), not black
    assert out[0, 0].min() > 200 and np.allclose(out[0, 0], np.percentile(pic.reshape(-1, 3), 99, axis=0), atol=1)
    assert np.allclose(quad, [[0, 0], [out.shape[1] - 1, 0], [out.shape[1] - 1, out.shape[0] - 1],
                              [0, out.shape[0] - 1]])


@pytest.mark.parametrize("print_name", PRINTS)
def test_a_photo_inside_a_card_reads_as_that_card_unsure_with_its_edge_beyond_the_picture(print_name, rec):
    for card in ("red-7", "green-skip", "yellow-draw2"):
        pic = _inside(card, print_name)
        got = rec.read(pic)
        assert [r.card for r in got] == [card], (print_name, card)
        # the outline is a guess: the table confirms it
        assert not got[0].sure
        h, w = pic.shape[:2]
        xs, ys = got[0].quad.pts[:, 0], got[0].quad.pts[:, 1]
        assert xs.min() < 0 and ys.min() < 0 and xs.max() > w - 1 and ys.max() > h - 1


def test_without_it_such_photos_read_nothing_or_wrong(rec, monkeypatch):
    import vision.recognizer as recognizer
    monkeypatch.setattr(recognizer, "INSIDE_CARD", False)
    photos = [(card, _inside(card, p)) for p in ("classic", "ring-2018", "circle-2024") for card in ("red-7", "yellow-draw2")]
    right = sum(bool(got) and got[0].card == card for card, got in ((c, rec.read(img)) for c, img in photos))
    assert right <= 1


def test_a_card_of_another_colour_than_the_table_stays_sure(rec):
    # a whole blue card on a red cloth: the band is red, the card is not, and nothing is capped
    canvas = Canvas(np.full((480, 640, 3), (40, 30, 190), np.uint8))
    canvas.place(render_card("blue-4", "uno", size=(112, 174)), (320, 240), 10, 260, "blue-4", shadow=0)
    assert inside.band_of(canvas.img, HUE_BUCKETS).colour == "red"
    got = rec.read(canvas.img)
    assert got and got[0].card == "blue-4" and got[0].sure


def test_a_picture_of_a_plain_coloured_cloth_reads_nothing(rec):
    cloth = np.full((480, 640, 3), (40, 30, 190), np.uint8)
    cloth += np.random.default_rng(3).integers(0, 20, cloth.shape, dtype=np.uint8)
    assert rec.read(cloth) == []


def test_a_card_cropped_inside_its_outer_edge_has_its_margin_and_field_along_the_picture():
    rgba = render_card("red-7", "uno", style=print_style("classic"), size=(280, 435))
    bgr = cv2.cvtColor(rgba[..., :3], cv2.COLOR_RGB2BGR)
    c = int(0.04 * bgr.shape[1])     # half this print's margin cut off
    band = inside.band_of(np.ascontiguousarray(bgr[c:-c, c:-c]), HUE_BUCKETS)
    assert band.colour == "red" and not band.inside_field and band.card_to_edges
    # a white desk alone is no card's edge: no colour along it
    assert not inside.band_of(np.full((480, 640, 3), 235, np.uint8), HUE_BUCKETS).card_to_edges


def test_where_nothing_was_found_a_card_filling_the_picture_is_read_whole_unsure(rec, monkeypatch):
    # the real failure this covers (hand-held photos cropped 3% inside the card: 9 of 120 read
    # nothing, bench/vision_accuracy.py) does not happen on clean renders, which the locators find;
    # so the locators are made to find nothing here, and the fallback alone reads the card
    rgba = render_card("blue-skip", "uno", style=print_style("filled-oval"), size=(280, 435))
    bgr = cv2.cvtColor(rgba[..., :3], cv2.COLOR_RGB2BGR)
    c = int(0.04 * bgr.shape[1])
    pic = np.ascontiguousarray(bgr[c:-c, c:-c])
    monkeypatch.setattr(rec, "locate_all", lambda *a, **k: ([], []))
    got = rec.read(pic)
    assert [r.card for r in got] == ["blue-skip"] and not got[0].sure
    import vision.recognizer as recognizer
    monkeypatch.setattr(recognizer, "INSIDE_CARD", False)
    assert rec.read(pic) == []
