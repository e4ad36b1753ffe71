"""A taught deck's card looked for inside an outline that takes in more than the card (the recognizer's
_looked_around, vision/locate/around.py `brighter` and `enclosed`): a card drawn on white stock lying on a
pale desk, whose outline the detector may draw round the whole picture, where it verifies (white
wherever it lies) and the face warped from it matches no taught photo."""
import numpy as np
import pytest

from vision.art.handdrawn import draw_card
from vision.locate import Quad
from vision.locate.quad import quad_iou
from vision.synth.photo import write_teach_folder

from helpers import card_lying_on, inked_uno_hand

NUMERALS = [f"{c}-{s}" for s in ("1", "7", "8") for c in ("red", "yellow", "green", "blue")]
SEED = 16
EVERYTHING = Quad(np.float32([[0, 0], [639, 0], [639, 479], [0, 479]]), 1.0)


@pytest.fixture(scope="module")
def taught(tmp_path_factory):
    """The inked UNO deck's 12 numerals taught from one photo each (seed 16)."""
    from vision.recognizer import Recognizer
    from vision.teach.teach import teach_folder
    folder = tmp_path_factory.mktemp("inked")
    write_teach_folder(folder, "uno", NUMERALS, 1, seed=SEED, hand=inked_uno_hand())
    td, report = teach_folder(Recognizer("uno", text=False), folder)
    assert set(td.cards) == set(NUMERALS) and td.white_faces, report.refused
    return td


def _on_a_pale_desk(cid: str, angle: float = 25.0) -> tuple[np.ndarray, np.ndarray]:
    """The taught drawing of `cid` lying turned `angle` degrees on a pale grey desk lit from one side
    (640 x 480: 205 at the left edge to as white as the card at the right), and its outline. The
    region's pale pixels split at their Otsu threshold (around.paper) take in the card and the desk's
    brighter half together."""
    xx = np.mgrid[0:480, 0:640][1].astype(np.float32)
    desk = np.dstack([205 + 0.07 * xx] * 3) + np.float32([0, 4, 2])
    return card_lying_on(draw_card(cid, "uno", inked_uno_hand(), seed=SEED, size=(224, 348)), desk, angle, 0.8)


@pytest.mark.parametrize("cid", ["blue-7", "red-8"])
def test_a_card_read_at_an_outline_round_the_whole_picture_is_found_inside_it(taught, cid):
    from vision.recognizer import Recognizer
    from vision.rectify import warp_card
    rec = Recognizer("uno", taught=taught, text=False)
    img, truth = _on_a_pale_desk(cid)
    # read at the whole picture's outline the face is mostly desk: no reading of the card, or an unsure one
    as_boxed = rec._read_warped([(EVERYTHING, warp_card(img, EVERYTHING.pts))], img, {})
    assert not any(r.card == cid and r.sure for r in as_boxed)
    # looked for inside it, the card is found at its own outline and read, surely
    found = rec._looked_around(img, EVERYTHING, as_boxed[0] if as_boxed else None, {})
    assert found is not None and found.card == cid and found.sure, found
    assert quad_iou(found.quad.pts, truth) > 0.9


def test_nothing_is_found_inside_an_outline_round_a_bare_desk(taught):
    from vision.recognizer import Recognizer
    rec = Recognizer("uno", taught=taught, text=False)
    desk = np.full((480, 640, 3), (205, 210, 208), np.uint8)
    assert rec._looked_around(desk, EVERYTHING, None, {}) is None
    assert rec.read(desk) == []


def test_round_faces_that_did_not_verify_the_card_is_found(taught):
    # where nothing was read, the faces the detector found whose outlines did not verify are looked
    # round (the recognizer's AROUND_UNREAD): a box round a card drawn on white stock may lie at
    # another slant, grown round it and off the picture
    from vision.recognizer import Recognizer
    rec = Recognizer("uno", taught=taught, text=False)
    img, truth = _on_a_pale_desk("green-7", angle=30)
    c = truth.mean(axis=0)
    turn = np.float32([[0.8, -0.6], [0.6, 0.8]])
    askew = Quad(((truth - c) * 1.9 @ turn + c).astype(np.float32), 0.8)
    assert (askew.pts < 0).any() or (askew.pts[:, 1] > 479).any()        # it runs off the picture
    got = rec._around_unread(img, [askew], {})
    assert len(got) == 1 and got[0].card == "green-7" and quad_iou(got[0].quad.pts, truth) > 0.9, got
    assert rec._around_unread(np.full_like(img, 208), [askew], {}) == []
