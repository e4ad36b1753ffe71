"""The card faces in a teach photo: the recognizer's own locate and verify stages, nothing new.

A taught card must be found the way it will be found when it is read, so the outline comes from
Recognizer.locate_all and is checked by the same verify step; only outlines that verify count.
A deck whose margin is not white is found once its border's colour is learned (learn_border):
verify then looks for that colour round the card (vision/locate/border.py).
"""
from __future__ import annotations

import numpy as np

from ..locate import Quad, order_corners, quad_iou
from ..locate.detector import INSIDE, share_inside
from ..locate.border import Border, band_colour, candidates, learn, side_depths
from ..rectify import warp_card

SAME_CARD_IOU = 0.3      # outlines overlapping more than this are one card seen twice (two zooms)


def card_outlines(rec, bgr: np.ndarray) -> list[Quad]:
    """The verified outlines of the face-up cards in a photo, best first, one per card.
    `rec`: a vision.recognizer.Recognizer (its locator and verify step)."""
    return [q for _, q in scored_outlines(rec, bgr)]


def scored_outlines(rec, bgr: np.ndarray) -> list[tuple[float, Quad]]:
    """card_outlines with each outline's verify score."""
    faces, backs = rec.locate_all(bgr, close_ups=True)
    # a teach photo shows a face, and the detector takes some faces for backs: a black wild (as the
    # recognizer knows, read_all), and a face coloured in one colour inside a white margin, as a deck
    # drawn or printed at home may be (read_all keeps such a "back" as a face when the taught deck
    # knows it). Until session 29 only the four-coloured "backs" counted here.
    faces = faces + backs
    found: list[tuple[float, Quad]] = []
    for q in faces:
        q2, _, verdict = rec._verified(bgr, q, warp_card(bgr, q.pts))
        if verdict.ok:
            found.append((verdict.score, q2))
    found.sort(key=lambda t: -t[0])
    out: list[tuple[float, Quad]] = []
    for score, q in found:
        # one card seen twice, or a shape inside a card found (a corner index in its black outline)
        if all(quad_iou(q.pts, o.pts) < SAME_CARD_IOU and share_inside(q.pts, o.pts) < INSIDE for _, o in out):
            out.append((score, q))
    return out


def learn_border(rec, images, least: int = 2, as_is: list | None = None) -> Border | None:
    """The border colour the cards of `images` (teach photos, one card each) share when it is not
    white, else None. Candidate borders (black, and the hues round the cards in most photos:
    border.candidates) are each tried as the deck's, and white as every built-in deck has it: each finds
    one card in some of the photos, with a verify score. Where white and a candidate each find an
    outline in a photo, only the one nearer the detector's box speaks (`_nearer_box`): outlines round
    a black-edged card's white oval verify as white cards, a black-edged card on white paper is
    framed by a white "margin" of paper, and a white card on a dark table by a dark one; the detector,
    trained on decks of every edge, boxes the card itself. The candidate whose cards score most in
    all wins if it beats white clearly (BEATS_WHITE), and its cards' margins, measured, give the
    border; at least `least` photos must show one card with it. `as_is`: each image's scored_outlines
    as `rec` looks now, white-bordered (the white pass, taken once for learn_white_faces too). `rec`
    is left as it was."""
    old = rec.border
    regions, boxes_of = [], []
    for img in images:
        boxes = rec.detector.boxes(img) or rec.detector.boxes(img, zoom_out=2.0)
        boxes_of.append(order_corners(boxes[0][0]) if boxes else None)
        if boxes:
            # round the likeliest card: grown, since on a card of another border the box may lie
            # round the white oval inside
            box = boxes_of[-1]
            c = box.mean(axis=0)
            x0, y0 = np.floor((c + (box - c) * 1.4).min(axis=0)).astype(int).clip(0)
            x1, y1 = np.ceil((c + (box - c) * 1.4).max(axis=0)).astype(int)
            img = img[y0:y1, x0:x1]
        if img.size:
            regions.append(img)
    tried = []       # per candidate (white first): each photo's one card (score, quad), or None
    try:
        for cand in [None] + candidates(regions):
            rec.set_border(cand)
            seen = as_is if cand is None and as_is is not None else [scored_outlines(rec, img) for img in images]
            # white: any card found speaks for it (two white-edged cards are white evidence too);
            # another border: one card a photo, as a teach photo holds
            tried.append((cand, [(o[0] if len(o) == 1 or (cand is None and o) else None) for o in seen]))
    finally:
        rec.set_border(old)
    best, best_total = None, 0.0
    for cand, cards in tried[1:]:
        # per photo, of two outlines the one nearer the detector's box is the card
        pairs = list(zip(cards, tried[0][1], boxes_of))
        mine = sum(c[0] for c, w, box in pairs if c is not None and not _nearer_box(w, c, box))
        white = sum(w[0] for c, w, box in pairs if w is not None and not _nearer_box(c, w, box))
        n = sum(1 for c in cards if c is not None)
        if mine > BEATS_WHITE * white and mine > best_total and n >= max(least, LEARN_FROM * len(images)):
            best, best_total = (cand, cards), mine
    if best is None:
        return None
    faces = [warp_card(img, card[1].pts, (64, 100)) for img, card in zip(images, best[1]) if card is not None]
    colour = learn([band_colour(face) for face in faces])
    if colour is None:
        return None
    # the depth as verify will measure it: with the border learned, not each photo's own colour
    # (whose tighter match stopped a pixel short of the face: 5 of 64 against verify's 6)
    depths = []
    for face in faces:
        sides = [d for d in side_depths(colour.mask(face)) if d is not None]
        depths.append(float(np.median(sides)) / 64 if sides else 0.0)
    return learn([colour], depths)


def learn_white_faces(rec, images, as_is: list | None = None) -> bool:
    """Whether the cards of `images` (teach photos, one card each) are white inside as well as round:
    a deck drawn in marker on white card stock, whose outline verify refuses as a white shape's
    (a card's inner oval). True when, looked at so (Recognizer.set_white_faces), one card is found in
    at least half the photos (LEARN_FROM) and in WHITE_GAIN of them more than as they are; a deck
    whose cards are all found as they are is not looked at again. `as_is`: each image's
    scored_outlines as `rec` looks now (see learn_border). `rec` is left as it was."""
    return _white_faces(rec, images, as_is) is not None


def _white_faces(rec, images, as_is: list | None = None) -> list | None:
    """Each image's scored_outlines looked at with white faces where learn_white_faces learns them,
    else None."""
    def found(seen) -> int:
        return sum(1 for o in seen if len(o) == 1)
    if rec.white_faces:
        return None
    before = found(as_is if as_is is not None else [scored_outlines(rec, img) for img in images])
    if before == len(images):
        return None
    rec.set_white_faces(True)
    contours, rec.white_contours = rec.white_contours, False   # as the faces' outlines alone find them
    try:
        seen = [scored_outlines(rec, img) for img in images]
    finally:
        rec.set_white_faces(False)
        rec.white_contours = contours
    white = found(seen)
    learned = white >= LEARN_FROM * len(images) and white - before >= max(1.0, WHITE_GAIN * len(images))
    return seen if learned else None


def learn_look(rec, images, least: int = 2) -> tuple[Border | None, bool]:
    """(the deck's border when it is not white, whether its faces are white inside as well as round)
    learned from `images` (teach photos, one card each) by learn_border and learn_white_faces, both
    starting from the photos as `rec` looks now (as built in). Where both are learned, the look that
    finds one card in the photos with the higher summed verify score: a deck drawn in thin ink on
    white card also finds a dark "border" (the table round some of its cards: on the teach bench's
    inked UNO deck, one card in 4 of 8 photos, 3.8 in all, against 7 of 8, 6.9, with white faces).
    `least`: see learn_border. `rec` is left as it was."""
    as_is = [scored_outlines(rec, img) for img in images]
    border = learn_border(rec, images, least=least, as_is=as_is)
    white = _white_faces(rec, images, as_is=as_is)      # the photos as white faces find them, when learned
    if border is None or white is None:
        return border, white is not None
    old = rec.look
    try:
        rec.set_border(border)
        bordered = _one_card_total([scored_outlines(rec, img) for img in images])
    finally:
        rec.set_look(old)
    return (None, True) if _one_card_total(white) > bordered else (border, False)


def _one_card_total(seen: list) -> float:
    """The summed verify score of the photos (each one's scored_outlines) in which one card is found."""
    return sum(found[0][0] for found in seen if len(found) == 1)


def _nearer_box(a: tuple | None, b: tuple | None, box: np.ndarray | None) -> bool:
    """Whether outline a (score, Quad) fits the detector's `box` of the photo better than outline b
    does (then b is not the card: a shape on it, or a frame of table round it)."""
    return (a is not None and b is not None and box is not None
            and quad_iou(a[1].pts, box) > quad_iou(b[1].pts, box))


BEATS_WHITE = 1.2    # a border is learned when its cards' verify scores sum to this much more than white's ...
LEARN_FROM = 0.5     # ... and it finds one card in at least this share of the photos looked at
WHITE_GAIN = 0.2     # white faces are learned when so the card is found in this share of the photos more
