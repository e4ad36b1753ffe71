"""The ink of a card drawn on white stock: what its colour is read by (teach's ink_votes), with a
finger or a patch of table over the face left out (colour.blobs_from_edge), and the taught reading
renamed to the colour the ink shows clearly (the recognizer's INK_TELLS)."""

import cv2
import numpy as np
import pytest

from vision.locate import Quad
from vision.read.colour import blobs_from_edge
from vision.synth.photo import print_photos, write_teach_folder

from helpers import inked_uno_hand

NUMERALS = [f"{c}-{s}" for s in ("1", "7", "8") for c in ("red", "yellow", "green", "blue")]


def _white_face_with_finger() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a 56 x 87 face of white stock with a blue stroke down its middle and a skin-coloured blob
    entering from its lower left edge across the stroke's foot, the stroke's mask, the blob's)."""
    face = np.full((87, 56, 3), 245, np.uint8)
    stroke = np.zeros((87, 56), np.uint8)
    cv2.line(stroke, (28, 20), (28, 66), 1, 4)
    face[stroke > 0] = (200, 80, 20)                   # BGR: a marker's blue
    blob = np.zeros((87, 56), np.uint8)
    cv2.ellipse(blob, (8, 70), (22, 12), -30, 0, 360, 1, -1)
    face[blob > 0] = (120, 150, 225)                   # BGR: a finger's pink-orange
    return face, stroke > 0, blob > 0


def test_a_blob_reaching_the_faces_edge_is_no_ink_and_a_stroke_it_touches_stays():
    face, stroke, blob = _white_face_with_finger()
    away = blobs_from_edge(face)
    assert away[blob].mean() >= 0.9                    # the finger, nearly all of it
    # the stroke stays ink but where it meets the finger (its rim, a few pixels)
    near = cv2.dilate(blob.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
    assert not away[stroke & ~near].any()
    assert away[stroke & ~blob].mean() <= 0.2
    # the same blob inside the face, reaching no edge, is ink (a coloured-in drawing)
    inside = np.full_like(face, 245)
    cv2.ellipse(inside, (28, 43), (14, 9), 0, 0, 360, (120, 150, 225), -1)
    assert not blobs_from_edge(inside).any()
    # ... unless the face runs off the picture there (a close-up read whole, padded round)
    outside = np.zeros((87, 56), bool)
    outside[:, :16] = True
    assert blobs_from_edge(inside, outside).any()


@pytest.fixture(scope="module")
def white_rec():
    from vision.recognizer import Recognizer
    rec = Recognizer("uno", text=False)
    rec.set_white_faces(True)            # as a deck taught from white card stock is looked at
    return rec


def test_a_finger_over_a_card_in_thin_ink_no_longer_outvotes_its_ink(white_rec, monkeypatch):
    """Each of 36 photos of the inked UNO deck's numerals with a finger over the card (held=1):
    its ink's votes, the finger's taken out and in. Measured (seeds 100-102): 36 of 36 at 1.0 of
    their own colour with it; without, a finger's red outvoted green, blue and yellow inks."""
    import vision.teach.teach as teach
    own = {True: [], False: []}
    for seed in (100, 101, 102):
        for cid, _, img, quad in print_photos("uno", NUMERALS, 1, seed=seed, hand=inked_uno_hand(), held=1.0):
            q = Quad(np.float32(quad), 1.0)
            for away in (True, False):
                monkeypatch.setattr(teach, "FINGERS_AWAY", away)
                own[away].append(teach.ink_votes(white_rec, img, q)["votes"][cid.split("-")[0]])
    assert min(own[True]) >= 0.9, own[True]
    assert sum(v < 0.8 for v in own[False]) >= 10, own[False]
    assert sum(v < 0.5 for v in own[False]) >= 3, own[False]


@pytest.fixture(scope="module")
def taught_numerals(tmp_path_factory):
    """The inked UNO deck's 12 numerals taught from one photo each (seed 16)."""
    from vision.recognizer import Recognizer
    from vision.teach.teach import teach_folder
    folder = tmp_path_factory.mktemp("inked")
    write_teach_folder(folder, "uno", NUMERALS, 1, seed=16, hand=inked_uno_hand())
    td, report = teach_folder(Recognizer("uno", text=False), folder)
    assert set(td.cards) == set(NUMERALS) and td.white_faces, report.refused
    return td


def test_an_unsure_reading_of_a_colour_the_ink_does_not_show_is_renamed_to_the_inks(taught_numerals):
    """A finger across a card in thin ink pulls the embedding's colour (each region's mean) to its
    own: an inked blue 7 read as the red 7 (the teach bench, session 67). The ink shows blue
    clearly: the reading is matched again among the blue cards, and made no surer."""
    from vision.recognizer import Recognizer
    from vision.teach.deck import Match
    from vision.rectify import warp_card
    rec = Recognizer("uno", taught=taught_numerals, text=False)
    (cid, _, img, quad), = [s for s in print_photos("uno", ["blue-7"], 1, seed=100, hand=inked_uno_hand(), held=1.0)]
    q = Quad(np.float32(quad), 1.0)
    card_bgr = warp_card(img, q.pts)
    red = Match("red-7", 0.3, 1.0, 1.2, "blue-7")
    told = rec._ink_told(img, q, card_bgr, red)
    assert told.card == "blue-7" and told.confidence <= 0.3
    # a reading of the ink's own colour, or of a card of no colour, is left as it is
    blue = Match("blue-7", 0.3, 1.0, 1.2, "red-7")
    assert rec._ink_told(img, q, card_bgr, blue) is blue
    wild = Match("wild", 0.3, 1.0, 1.2, "red-7")
    assert rec._ink_told(img, q, card_bgr, wild) is wild


def _note_on_a_table() -> tuple[np.ndarray, np.ndarray]:
    """(a 640 x 480 photo of a note of lined paper, card-shaped, lying on a blue-grey table, its
    corners): black lines on white paper, no coloured ink."""
    img = np.full((480, 640, 3), (150, 130, 115), np.uint8)         # BGR: a blue-grey table
    w, h = 150, 232
    note = np.full((h, w, 3), 246, np.uint8)
    for y in range(30, h - 20, 22):
        cv2.line(note, (18, y), (w - 18 - (y * 7) % 40, y), (40, 40, 45), 3)
    src = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    quad = np.float32([[200, 110], [338, 160], [262, 378], [124, 328]])
    warped = cv2.warpPerspective(note, cv2.getPerspectiveTransform(src, quad), (640, 480))
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), cv2.getPerspectiveTransform(src, quad), (640, 480))
    img[mask > 127] = warped[mask > 127]
    return img, quad


def test_a_face_without_coloured_ink_is_no_card_of_a_deck_drawn_on_white_stock(taught_numerals, monkeypatch):
    """A note of lined paper beside an inked card is a white face too: read through a deck drawn on
    white stock it was a card (an inked UNO deck of another hand: beside a yellow 0, the green 3 at
    0.87, sure). No coloured ink on it: no card (the recognizer's INKLESS_NONE), as teach refuses it."""
    import vision.recognizer as recognizer
    from vision.recognizer import Recognizer
    from vision.rectify import warp_card
    rec = Recognizer("uno", taught=taught_numerals, text=False)
    assert rec.white_faces
    img, quad = _note_on_a_table()
    q = Quad(quad, 1.0)
    monkeypatch.setattr(recognizer, "INKLESS_NONE", False)
    card, _ = rec._identify(img, q, warp_card(img, q.pts))
    assert card in taught_numerals.cards                    # without the rule: read as a card
    monkeypatch.setattr(recognizer, "INKLESS_NONE", True)
    assert rec._identify(img, q, warp_card(img, q.pts)) == (None, 0.0)
    # an inked card's own face is read as before
    (cid, _, card_img, card_quad), = print_photos("uno", ["blue-7"], 1, seed=100, hand=inked_uno_hand())
    c = Quad(np.float32(card_quad), 1.0)
    assert rec._identify(card_img, c, warp_card(card_img, c.pts))[0] == "blue-7"
