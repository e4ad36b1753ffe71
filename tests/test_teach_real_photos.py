"""A deck taught from photos reads, and learns from, photos taken inside a card (a phone held so
close that the white margin is cut off) as the built-in recognizer does (vision/recognizer.py
INSIDE_TAUGHT, vision/teach/teach.py close_up), and reads photos a selfie camera saved mirrored
(TAUGHT_MIRROR). Real photos of the second UNO print (../shared/real-uno-dev2/on-black), taught from
each card's first photo; the frames inside a card are the bench's (bench/vision_cells.py
inside_frame)."""
from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.helpers import load_bench

SHARED = Path(__file__).resolve().parents[2] / "shared"
ON_BLACK = SHARED / "real-uno-dev2" / "on-black"

pytestmark = pytest.mark.skipif(not (ON_BLACK / "labels.csv").exists(), reason="development photos not present")


def _photos() -> dict[str, list[Path]]:
    by: dict[str, list[Path]] = {}
    for row in csv.DictReader(open(ON_BLACK / "labels.csv")):
        by.setdefault(row["card"], []).append(ON_BLACK / row["file"])
    return {c: sorted(ps) for c, ps in by.items() if len(ps) >= 2}


def _frame(builtin, path: Path, cell: str):
    """The photo taken again inside its card (the bench's inside frame `cell`)."""
    vc = load_bench("vision_cells")
    inset, aspect = next((i, a) for c, i, a in vc.INSIDE_CELLS if c == cell)
    img = cv2.imread(str(path))
    found = builtin.read(img)
    assert found, path
    return vc.inside_frame(img, found[0].quad.pts, inset, aspect)


def _taught(teach_photos: dict):
    from vision.recognizer import Recognizer
    from vision.teach.build import build_deck
    from vision.teach.teach import prototypes_of
    rec = Recognizer("uno", text=False)
    taught, refused = [], []
    for k, (card, img) in enumerate(teach_photos.items()):
        protos, why = prototypes_of(rec, img, seed=k)
        if protos is None:
            refused.append((card, why))
        else:
            taught.append((card, protos))
    return build_deck(rec.deck, taught), refused


@pytest.fixture(scope="module")
def builtin():
    from vision.recognizer import Recognizer
    return Recognizer("uno")


@pytest.fixture(scope="module")
def photos():
    return _photos()


@pytest.fixture(scope="module")
def reader(photos):
    from vision.recognizer import Recognizer
    td, refused = _taught({c: cv2.imread(str(ps[0])) for c, ps in photos.items()})
    assert not refused
    return Recognizer("uno", taught=td)


@pytest.mark.parametrize("name, card, cell", [
    # read as a blue 5 at 0.26 by the taught deck without the inside rules: its oval, found, matched
    ("blue-2-2.jpg", "blue-2", "cut 10%"),
    # nothing found that the taught deck would take (the built-in's inside rule reads it whole)
    ("blue-9-2.jpg", "blue-9", "cut 6%"),
    # a 6 whose oval was matched as the blue 9
    ("blue-6-2.jpg", "blue-6", "cut 6%"),
    # a skip's oval matched as a +2
    ("blue-skip-2.jpg", "blue-skip", "cut 10%"),
])
def test_a_taught_deck_reads_a_photo_taken_inside_its_card_as_that_card_unsure(reader, builtin, monkeypatch, name,
                                                                             card, cell):
    pic = _frame(builtin, ON_BLACK / name, cell)
    got = reader.read(pic)
    assert got and got[0].card == card and not got[0].sure
    # its outline is the card's, beyond the picture's edges (the picture padded with its paper)
    h, w = pic.shape[:2]
    pts = got[0].quad.pts
    assert pts[:, 0].min() < 0 and pts[:, 1].min() < 0 and pts[:, 0].max() > w and pts[:, 1].max() > h
    import vision.recognizer as recognizer
    monkeypatch.setattr(recognizer, "INSIDE_TAUGHT", False)
    # (and not looked round what the detector found there that did not verify: round the blue 9's
    # box the card is found too, beyond the picture, at 0.49)
    monkeypatch.setattr(recognizer, "AROUND_UNREAD", 0)
    alone = reader.read(pic)
    assert not alone or alone[0].card != card


def test_a_deck_taught_from_photos_taken_inside_its_cards_reads_the_others_right(photos, builtin, monkeypatch):
    # every card's first photo cut 6% inside its outer edge: without close_up 6 of 50 were refused
    # (no card found) and one other photo was read wrong and sure, its card taught from its oval
    close = {c: _frame(builtin, ps[0], "cut 6%") for c, ps in photos.items()}
    td, refused = _taught(close)
    assert not refused
    from vision.recognizer import Recognizer
    reader = Recognizer("uno", taught=td)
    wrong = []
    for card, ps in photos.items():
        for p in ps[1:]:
            got = reader.read(cv2.imread(str(p)))
            if not got or got[0].card != card:
                wrong.append((p.name, got[0].card if got else None))
    assert not wrong


def test_a_photo_with_the_card_whole_in_view_is_no_close_up(photos, builtin):
    from vision.recognizer import Recognizer
    from vision.teach.teach import close_up
    rec = Recognizer("uno", text=False)
    for card in ("red-7", "green-draw2", "wild"):
        img = cv2.imread(str(photos[card][0]))
        assert close_up(rec, img) is None
        padded, quad = close_up(rec, _frame(builtin, photos[card][0], "cut 6%"))
        # the picture with a white margin put back round it, the card's outline its edge
        assert padded.shape[0] > 0 and quad.area > 0.9 * padded.shape[0] * padded.shape[1]


@pytest.mark.parametrize("name, card", [
    ("green-5-2.jpg", "green-5"),       # read as the green 2, sure, without the rule
    ("blue-5-3.jpg", "blue-5"),         # ... as the blue 2, unsure
    ("blue-1-2.jpg", "blue-1"),         # ... as the blue reverse
])
def test_a_taught_deck_reads_a_mirrored_photo_as_the_card_it_mirrors_back_to_unsure(reader, monkeypatch, name, card):
    img = cv2.imread(str(ON_BLACK / name))
    as_is = reader.read(img)
    assert as_is and as_is[0].card == card and as_is[0].sure       # the photo as it is: sure
    mirrored = np.ascontiguousarray(img[:, ::-1])
    got = reader.read(mirrored)
    assert got and got[0].card == card and not got[0].sure
    import vision.recognizer as recognizer
    monkeypatch.setattr(recognizer, "TAUGHT_MIRROR", False)
    alone = reader.read(mirrored)
    assert alone and alone[0].card != card


def test_a_nine_never_taught_is_not_the_taught_six_turned_round(photos, builtin):
    """Every card taught from its first photo but the 9s: a 9's photo is the taught 6 turned half
    round but for the bar, which the taught deck never saw; before session 60 every 9 of the set's
    photos read as its colour's 6 at 0.96-1.0, sure. The built-in's reading of the 9 stands now."""
    from vision.recognizer import Recognizer
    td, _ = _taught({c: cv2.imread(str(ps[0])) for c, ps in photos.items() if not c.endswith("-9")})
    assert not any(c.endswith("-9") for c in td.cards) and any(c.endswith("-6") for c in td.cards)
    reader = Recognizer("uno", taught=td)
    nines = [(c, p) for c, ps in photos.items() if c.endswith("-9") for p in ps]
    assert nines
    for card, path in nines:
        got = reader.read(cv2.imread(str(path)))[0]
        assert got.card == card or not got.sure, (path.name, got.card, got.confidence)
    right = sum(reader.read(cv2.imread(str(p)))[0].card == c for c, p in nines)
    assert right >= len(nines) - 1, right


def test_cards_never_taught_are_not_read_as_a_taught_card_of_their_colour_sure(photos):
    """Every second card of the deck (in deck order) taught from its first photo, the others never:
    a never-taught card's photo read as the nearest taught card of its colour (a green 5 as the
    green 6 at 0.83, near and sure, before session 61), while the built-in reads it sure and right,
    goes unsure (fails on 4647c5e: green-5 read as green-6 at 0.83, sure); and where the taught deck
    composed the very card never taught from its symbol and colour on other cards, the two readers
    agree and the reading is sure."""
    from referee import load_deck
    from vision.recognizer import Recognizer
    order = [c for c in load_deck("uno").cards if c in photos]
    left = set(order[::2])
    td, _ = _taught({c: cv2.imread(str(photos[c][0])) for c in order if c not in left})
    reader = Recognizer("uno", taught=td)
    got = [(c, reader.read(cv2.imread(str(p)))[0]) for c in sorted(left) for p in photos[c]]
    wrong_sure = [(c, r.card, round(r.confidence, 2)) for c, r in got if r.sure and r.card != c]
    assert not wrong_sure
    assert sum(r.card == c for c, r in got) >= len(got) - 1
    # most of them sure: the built-in and the taught deck's composed card agree
    assert sum(r.sure for _, r in got) >= 0.8 * len(got), [(c, r.card, round(r.confidence, 2)) for c, r in got]
