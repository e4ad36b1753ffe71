"""Outlines looked for again round a rough one (vision/locate/around.py): a card drawn on white stock
lying at a slant on a checked cloth, boxed square to the picture as the detector boxes such a card."""
import numpy as np
import pytest

from vision.art.handdrawn import HandStyle, draw_card
from vision.locate.around import brighter, enclosed, outlines_around, paper, segmented
from vision.locate.edges import snap_to_edges
from vision.locate.quad import quad_iou

from helpers import card_lying_on

INK = HandStyle(coloured_in=False)


def _cloth(h: int, w: int, pale=(150, 185, 205), square: int = 24) -> np.ndarray:
    """A checked cloth of dark red and `pale` (BGR)."""
    yy, xx = np.mgrid[0:h, 0:w]
    check = ((yy // square + xx // square) % 2).astype(bool)
    img = np.empty((h, w, 3), np.uint8)
    img[check], img[~check] = (40, 40, 140), pale
    return img


def _card_at_a_slant(angle: float = 35.0, pale=(150, 185, 205)) -> tuple[np.ndarray, np.ndarray]:
    """A photo (640 x 480) of the orange skip drawn in ink, turned `angle` degrees, and its outline."""
    return card_lying_on(draw_card("orange-skip", "dino2", INK, seed=3), _cloth(480, 640, pale), angle)


def _box(quad: np.ndarray) -> np.ndarray:
    (x0, y0), (x1, y1) = quad.min(axis=0), quad.max(axis=0)
    return np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


@pytest.mark.parametrize("angle", [20, 35, 60])
def test_a_card_at_a_slant_boxed_square_is_found_at_its_own_outline(angle):
    img, truth = _card_at_a_slant(angle)
    rough = _box(truth)
    assert quad_iou(rough, truth) < 0.6               # the box takes in a good part of the cloth
    found = segmented(img, rough)
    # GrabCut at its small working size finds the card, its corners within a few pixels; the reader
    # verifies each outline and snaps it onto the card's edges (Recognizer._verified), and there it is
    assert found and max(quad_iou(q.pts, truth) for q in found) > 0.85
    snapped = [snap_to_edges(img, q.pts) for q in found]
    assert max(quad_iou(s, truth) for s in snapped if s is not None) > 0.95
    assert all(any(quad_iou(q.pts, f.pts) > 0.99 for q in outlines_around(img, rough)) for f in found)


def test_the_region_s_pale_pixels_find_a_card_on_a_darker_cloth():
    # the cream squares of the checked cloth are as pale as the card, and merge with it in that look;
    # on a cloth of darker checks the card is the region's one pale thing
    img, truth = _card_at_a_slant(35, pale=(110, 120, 130))
    found = paper(img, _box(truth))
    assert found and max(quad_iou(q.pts, truth) for q in found) > 0.9


def test_nothing_card_shaped_round_a_box_on_a_plain_cloth_or_a_box_too_small():
    plain = np.full((480, 640, 3), (90, 120, 60), np.uint8)
    rough = np.float32([[200, 120], [440, 120], [440, 360], [200, 360]])
    assert outlines_around(plain, rough) == []
    img, _ = _card_at_a_slant()
    assert outlines_around(img, np.float32([[10, 10], [14, 10], [14, 14], [10, 14]])) == []


def test_a_box_filling_the_picture_leaves_grabcut_nothing_to_learn_and_no_error():
    img, truth = _card_at_a_slant()
    everything = np.float32([[0, 0], [639, 0], [639, 479], [0, 479]])
    assert segmented(img, everything) == []
    # a box beyond the picture's edges (a card grown whole where the picture cuts it) is clipped to it
    beyond = truth + np.float32([300, 0])
    for q in outlines_around(img, beyond):
        assert (q.pts >= -1).all()


def _card_on(desk: np.ndarray, angle: float = 25.0, scale: float = 0.8, light: float = 1.0
             ) -> tuple[np.ndarray, np.ndarray]:
    """The orange skip drawn in ink, turned `angle` degrees and shrunk by `scale`, lying in the middle
    of `desk` (640 x 480, BGR) lit by `light` (its brightness' share of the desk's light), and its outline."""
    return card_lying_on(draw_card("orange-skip", "dino2", INK, seed=3), desk, angle, scale, light)


EVERYTHING = np.float32([[0, 0], [639, 0], [639, 479], [0, 479]])


def test_a_card_on_a_pale_desk_outlined_with_the_whole_picture_is_found_inside_it():
    # the detector's box round a white card on a pale desk may take in the whole picture, and verify
    # (white wherever it lies): GrabCut has no table outside it to learn from, and the region's pale
    # pixels are the desk and the card at once; the card is the brightest of them
    xx = np.mgrid[0:480, 0:640][1]
    desk = np.clip(np.dstack([200 + 0.03 * xx] * 3) + np.float32([0, 8, 4]), 0, 255).astype(np.uint8)
    img, truth = _card_on(desk)
    assert segmented(img, EVERYTHING) == []
    assert not any(quad_iou(q.pts, truth) > 0.8 for q in paper(img, EVERYTHING))
    found = brighter(img, EVERYTHING)
    assert found and max(quad_iou(q.pts, truth) for q in found) > 0.9
    assert max(quad_iou(q.pts, truth) for q in outlines_around(img, EVERYTHING)) > 0.9


def test_a_card_as_bright_as_the_sheet_beside_it_is_found_by_the_edges_it_steps_at():
    # a card lying on a sheet of white paper, curled away from the lamp and so a little darker than the
    # sheet: by brightness the card is the sheet's darker part, or one with it; its edge steps all round
    desk = np.full((480, 640, 3), (60, 70, 80), np.uint8)
    desk[40:440, 120:520] = 255                        # the sheet
    img, truth = _card_on(desk, angle=15, scale=0.7, light=0.88)
    rough = np.float32([[120, 40], [520, 40], [520, 440], [120, 440]])     # the sheet's own outline
    assert not any(quad_iou(q.pts, truth) > 0.8 for q in segmented(img, rough) + paper(img, rough))
    found = enclosed(img, rough)
    assert found and max(quad_iou(q.pts, truth) for q in found) > 0.9


def test_nothing_inside_a_box_on_a_plain_desk():
    plain = np.full((480, 640, 3), (200, 205, 210), np.uint8)
    assert brighter(plain, EVERYTHING) == [] and enclosed(plain, EVERYTHING) == []
