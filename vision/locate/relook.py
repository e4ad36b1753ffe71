"""Stage 1, a second look: a small card outlined again by the detector run on its neighbourhood, enlarged.

A webcam over a whole table sees cards 20-60 pixels wide. In the detector's own looks such a card
is 10-30 pixels, its box a few pixels off, and the edges its outline is snapped onto are two or
three pixels of blurred margin, often beside a neighbour's or the pile's card beneath: the outline
found is off by a tenth of the card, and the symbol read from a warp that far off goes wrong (the
far tables cells: read from their true outlines, 734 of 752 cards right; from the outlines found,
702). The same detector shown only the card's neighbourhood, enlarged so that the card is as big
as the cards it learned on tables, boxes it as it boxes those, and the outline is snapped onto its
edges at the enlarged scale, where its margin is several pixels deep: the outlines overlap the true
ones by 0.91 on average instead of 0.88 (bench/vision_accuracy.py --cells far; models/README.md,
session 77).
"""
from __future__ import annotations

import cv2
import numpy as np

from .quad import order_corners, quad_iou, side_lengths

RELOOK_PX = 64     # a face whose short side in the picture is under this is looked at again
TARGET_PX = 70     # ... enlarged so that its short side is about this: the neighbourhood below is
                   # then about the detector's input size (320), where it learned cards this big
AROUND = 1.5       # the neighbourhood: this many of the card's long sides from its centre, each way
MIN_ZOOM = 1.5     # enlarged at least this much (a card near RELOOK_PX)
SAME_CARD = 0.5    # the second look's outline must overlap the first's at least this much
NEAR = 0.3         # ... and only its boxes overlapping the first outline this much are outlined
MAX_SIDE = 1280    # no enlarged neighbourhood longer than this (a sliver of an outline, far from card-shaped)


def small(quad: np.ndarray) -> bool:
    """Whether a face outlined by `quad` (frame pixels) is small enough to be looked at again."""
    return float(side_lengths(quad).min()) < RELOOK_PX


def relook(detector, bgr: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, float] | None:
    """(the card's outline in frame pixels, its shape score) from the detector's look at the
    neighbourhood of `quad` enlarged (TARGET_PX), or None where that look outlines no card face
    over the same card (SAME_CARD)."""
    q = order_corners(np.asarray(quad, np.float32))
    short, long_ = float(side_lengths(q).min()), float(side_lengths(q).max())
    h, w = bgr.shape[:2]
    c = q.mean(axis=0)
    reach = AROUND * long_
    x0, y0 = int(max(0, c[0] - reach)), int(max(0, c[1] - reach))
    x1, y1 = int(min(w, np.ceil(c[0] + reach))), int(min(h, np.ceil(c[1] + reach)))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    k = max(MIN_ZOOM, TARGET_PX / max(short, 1.0))
    if max(x1 - x0, y1 - y0) * k > MAX_SIDE:
        return None
    # bicubic: the margin's edge stays a step, which the snap onto edges looks for
    big = cv2.resize(bgr[y0:y1, x0:x1], None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC)
    offset = np.array([x0, y0], np.float32)
    # only the boxes over this card are outlined (snapped and verified: most of a look's time), not
    # its neighbours'
    here = (q - offset) * k
    boxes = [b for b in detector.boxes(big) if b[1] == "card" and quad_iou(order_corners(b[0]), here) >= NEAR]
    if not boxes:
        return None
    best, best_iou = None, SAME_CARD
    for d in detector.detect(big, zoom_outs=(), looks=[boxes]):
        if d.kind != "card":
            continue
        pts = (d.quad.pts / k + offset).astype(np.float32)
        iou = quad_iou(pts, q)
        if iou >= best_iou:
            best, best_iou = (order_corners(pts), d.quad.score), iou
    return best
