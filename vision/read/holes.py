"""Stage 3d: the holes of the shape in the card's centre, a clue that does not depend on the print.

The symbol readers learned the prints they were trained on, and a print they have not seen may
draw its reverse in a way they take for a skip: left out of their training, the circle-2024
print's reverse (two arrows bent round a circle) read "skip" on 11 of 300 renders (bench/
vision_accuracy.py, lopo cell, session 20). What a skip has and no reverse has is topology: a
skip is a ring cut by a bar, one shape with two holes; a reverse is two arrows, shapes without
any. (Two of our six render families cut the ring in two with the bar: no holes at all, as a
reverse; the real prints we have seen do not.) Measured (session 20) on the largest shape in the
centre:

- renders of six print families through the camera model, 8 of each: skips 35 of 48 with two
  holes (a thin ring broken by blur or a bold bar merged has fewer), reverses 0 of 48;
- the real photos (classic print on a dark table, filled-oval print on black and hand-held): skips
  24 of 28 with two holes, reverses 0 of 28; an 8 has two as well (19 of 20), a 5 or a 9 of the
  filled-oval print now and then (4 of 18), no other card.

fuse.holes_evidence turns the count into evidence: two holes for a skip (or an 8) against every
other symbol, any other count against the skip (session 31, every symbol measured: fuse.TWO_HOLES).

A ring is round: the shape's area over its convex hull's (its solidity) is 0.94 or more on 185 of
186 skips with two holes (the real photos as they are, washed out, overexposed, squashed, and
transplanted into close-ups, session 43), and 0.85-0.94 on an 8. Two holes in a shape less solid
than RING_SOLIDITY are no ring: 33 of 33 such 9s, 14 of 14 5s, and the four reverses that showed
two holes at all (the classic print's arrows, outlined in black, at half saturation: the outline of
the two arrows one shape, the arrows its holes, solidity 0.78-0.89); one skip of 186.
"""
from __future__ import annotations

import cv2
import numpy as np

CARD_W, CARD_H = 112, 174            # the warp the centre is looked at in
CENTRE = (0.18, 0.28, 0.82, 0.72)    # the big symbol's place on every print (x0, y0, x1, y1)
MIN_SHAPE = 0.04                     # a shape: at least this share of the centre's area ...
MIN_HOLE = 0.03                      # ... a hole: at least this share of the shape's bounding box
RING_SOLIDITY = 0.9                  # a shape with two holes this solid or more is round: a skip's ring (or an 8)
CUT_SHARE = 0.065                    # a largest whole shape under this share of the centre, lying in a shape of
                                     # the other ink that the centre's edge cuts: the symbol runs out of the centre,
                                     # and what is counted is a piece of it (a skip's half-disc holes, 0.041-0.052
                                     # of it, in its ring)
SYMBOL_BORDER = 0.4                  # ... a shape touching the centre's edge along under this share of it: the
                                     # symbol; the oval or field round the symbol runs along most of it


def centre_holes(card_bgr: np.ndarray) -> int | None:
    """The number of holes in the largest shape of the card's centre that does not touch the
    centre's edge (the symbol, not the field or oval round it), dark on light or light on dark,
    whichever is larger (prints draw the symbol either way); None when there is no such shape."""
    shape = centre_shape(card_bgr)
    return None if shape is None else shape[0]


def centre_shape(card_bgr: np.ndarray) -> tuple[int, float, bool] | None:
    """(holes, solidity, cut) of the largest shape of the card's centre (see centre_holes): its holes,
    its area over its convex hull's, and whether it is only a piece of the symbol (CUT_SHARE); None
    when there is no such shape."""
    card = cv2.resize(card_bgr, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA
                      if card_bgr.shape[1] > CARD_W else cv2.INTER_LINEAR)
    x0, y0, x1, y1 = (int(round(f * s)) for f, s in zip(CENTRE, (CARD_W, CARD_H, CARD_W, CARD_H)))
    # the darkest channel: a coloured symbol on white and a white one on colour both stand out
    grey = card[y0:y1, x0:x1].min(axis=2)
    _, light = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    best: tuple | None = None        # (area, holes, solidity, ink, label, a pixel of it) of the largest shape
    inks = (255 - light, light)
    labelled = [cv2.connectedComponentsWithStats(ink, connectivity=8) for ink in inks]
    for which, (n, labels, stats, _) in enumerate(labelled):
        for k in range(1, n):
            x, y, w, h, area = stats[k]
            if x == 0 or y == 0 or x + w >= grey.shape[1] or y + h >= grey.shape[0] or area < MIN_SHAPE * grey.size:
                continue
            if best is not None and area <= best[0]:
                continue
            shape = (labels[y:y + h, x:x + w] == k).astype(np.uint8)
            contours, hierarchy = cv2.findContours(shape, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
            holes = sum(1 for c, (_, _, _, parent) in zip(contours, hierarchy[0])
                        if parent >= 0 and cv2.contourArea(c) >= MIN_HOLE * w * h)
            outer = max((c for c, (_, _, _, parent) in zip(contours, hierarchy[0]) if parent < 0), key=cv2.contourArea)
            hull = cv2.contourArea(cv2.convexHull(outer))
            row = y + h // 2
            on = labels[row, x:x + w] == k
            left = x + int(np.argmax(on)) if on.any() else x
            best = (int(area), holes, cv2.contourArea(outer) / hull if hull > 0 else 1.0, which, k, (row, left))
    if best is None:
        return None
    return best[1], float(best[2]), best[0] < CUT_SHARE * grey.size and _in_cut_shape(labelled, best)


def _in_cut_shape(labelled: list, best: tuple) -> bool:
    """Whether the shape `best` (see centre_shape) lies in a shape of the other ink that the centre's
    edge cuts and that is no background: one touching the edge along under SYMBOL_BORDER of it (a
    skip's ring running out of the centre, not the oval or field all round the symbol)."""
    _, labels, _, _ = labelled[1 - best[3]]
    row, left = best[5]
    if left == 0:
        return False
    around = int(labels[row, left - 1])        # the shape of the other ink just beside it
    if around == 0:
        return False
    edge = np.concatenate([labels[0], labels[-1], labels[1:-1, 0], labels[1:-1, -1]])
    contact = float(np.mean(edge == around))
    return 0.0 < contact < SYMBOL_BORDER
