"""A shadow across the card (a hand or a phone held over it): the ink under it is as dark against
the lit paper as a black print's chroma noise, yet is ink; its brightness bar follows the paper
beside it (vision/read/colour.py shade)."""
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.read.colour as colour
import vision.read.glare as glare
import vision.recognizer as recognizer
from vision.read.colour import colour_votes, shade
from vision.recognizer import COLOURED_MIN, GLARE_SHARE, Recognizer

from helpers import swept_photo

ROOT = Path(__file__).resolve().parent.parent
HAND_HELD = ROOT.parent / "shared" / "real-uno-dev2" / "hand-held"


def green_card(h: int = 87, w: int = 56, paper: int = 235) -> np.ndarray:
    """A canonical warp of a green card (BGR): white margin, a dark green field, a white oval."""
    card = np.full((h, w, 3), paper, np.uint8)
    card[5:h - 5, 4:w - 4] = (70, 120, 20)                            # a dark green field (hue 68)
    cv2.ellipse(card, (w // 2, h // 2), (w // 3, h // 3), 30, 0, 360, (paper,) * 3, -1)
    return card


def shadowed(card: np.ndarray, light: float, cut: float = 0.4) -> np.ndarray:
    """The card at `light` below a line from its top left to its right side, `cut` of its height
    above the bottom right corner (0: the diagonal, half the card), margin and field together."""
    h, w = card.shape[:2]
    yy, xx = np.mgrid[:h, :w]
    under = (xx / w - yy / h) < cut
    out = card.astype(np.float32)
    out[under] *= light
    return out.astype(np.uint8)


@pytest.fixture
def shade_off(monkeypatch):
    monkeypatch.setattr(colour, "SHADE", False)


def test_a_card_in_even_light_has_no_shade_bright_or_dim():
    for light in (1.0, 0.4):   # a dim room darkens the paper with the ink: no shadow
        hsv = cv2.cvtColor((green_card().astype(np.float32) * light).astype(np.uint8), cv2.COLOR_BGR2HSV)
        assert np.all(shade(hsv) == 1.0)


def test_the_shade_follows_the_paper_beside_each_pixel():
    hsv = cv2.cvtColor(shadowed(green_card(), 0.45), cv2.COLOR_BGR2HSV)
    light = shade(hsv)
    assert light[80, 6] == pytest.approx(0.45, abs=0.05)     # deep in the shadow, by its margin
    assert light[6, 50] == 1.0                               # lit corner


def test_ink_under_a_shadow_keeps_the_card_its_colour(shade_off, monkeypatch):
    card = shadowed(green_card(), 0.45)
    before = colour_votes(card)
    monkeypatch.setattr(colour, "SHADE", True)
    after = colour_votes(card)
    # premise: the shadowed half of the field falls under the lit paper's bar, and the card has
    # too little ink left to have a colour (the bench's hand-held green cards read as wilds so)
    assert before["coloured"] < COLOURED_MIN
    assert after["coloured"] >= COLOURED_MIN and max(after["votes"], key=after["votes"].get) == "green"
    # the ink's brightness against its own paper is the lit ink's, not half of it
    assert after["level"] == pytest.approx(colour_votes(green_card())["level"], abs=0.1)


def test_black_under_a_shadow_is_no_ink():
    # a black field with a JPEG's chroma noise (saturated, but dark) round a white oval: lit or
    # shadowed, its brightness against the paper beside it is black's, not ink's
    rng = np.random.default_rng(5)
    card = green_card()
    field = np.full((87, 56, 3), 26, np.float32) + rng.normal(0, 5, (87, 56, 3))
    field[..., 2] += 12                                   # a reddish cast on the black: saturated
    black = np.all(card == (70, 120, 20), axis=2)
    card[black] = np.clip(field, 0, 255).astype(np.uint8)[black]
    assert colour.saturated_enough(cv2.cvtColor(card, cv2.COLOR_BGR2HSV)[black][:, 1], False) < \
        np.median(cv2.cvtColor(card, cv2.COLOR_BGR2HSV)[black][:, 1])    # premise: saturated enough
    for light in (1.0, 0.45):
        assert colour_votes(shadowed(card, light))["coloured"] < 0.02


@pytest.mark.skipif(not HAND_HELD.is_dir(), reason="shared/real-uno-dev2 not present")
def test_a_real_green_card_under_a_hand_s_shadow_is_read(shade_off, monkeypatch):
    # the bench's sweep2 cast shadow @60% (seed 17191): a held green 2, a shadow over half of it at
    # about half the light; both its numerals read "2", its colour lost: read as a wild draw four
    pic = swept_photo(HAND_HELD, "green-2-1.jpg", "cast shadow @60%", 17191)
    rec = Recognizer("uno")
    # the dark-ink look (session 57) finds the shadowed field's colour too: off, to see SHADE alone
    monkeypatch.setattr(recognizer, "DARK_INK", False)
    assert rec.read(pic)[0].card != "green-2"
    monkeypatch.setattr(colour, "SHADE", True)
    first = rec.read(pic)[0]
    assert first.card == "green-2" and first.sure
    # with both, as the app reads it
    monkeypatch.setattr(recognizer, "DARK_INK", True)
    first = rec.read(pic)[0]
    assert first.card == "green-2" and first.sure


@pytest.mark.skipif(not HAND_HELD.is_dir(), reason="shared/real-uno-dev2 not present")
def test_the_dark_ink_look_alone_reads_the_shadowed_green_s_colour(shade_off):
    # without SHADE the field's shadowed half still has its chroma: the colour is found, not a wild
    pic = swept_photo(HAND_HELD, "green-2-1.jpg", "cast shadow @60%", 17191)
    assert Recognizer("uno").read(pic)[0].card == "green-2"


def test_a_shadow_over_two_sides_is_no_glare(monkeypatch):
    # the lit half of the oval is no brighter than the lit margin: no glare (read/glare.py _paper)
    card = cv2.resize(shadowed(green_card(), 0.45, cut=0.0), (112, 174), interpolation=cv2.INTER_LINEAR)
    assert glare.centre_glare(card) < GLARE_SHARE
    monkeypatch.setattr(glare, "SHADED", 0.0)      # every side counted: the middle of four, two shadowed
    assert glare.centre_glare(card) >= GLARE_SHARE


def test_a_spot_reaching_one_side_is_still_glare_beside_a_shadow():
    # paper at 200 (a photo exposed so that a spot can be brighter), two sides at 0.7 of it
    card = shadowed(green_card(paper=200), 0.7, cut=0.0)
    cv2.circle(card, (40, 44), 16, (245, 245, 245), -1)   # a lamp's spot over the right side
    card = cv2.resize(card, (112, 174), interpolation=cv2.INTER_LINEAR)
    assert glare.centre_glare(card) >= GLARE_SHARE
