"""Several new cards in one settle of the pile: a double (or more) put down as a fan.

The pipeline finds a new card as the outline of the pixels that changed since the pile last
rested. A fan of cards changes a region that is no card's shape, and a card laid on its twin
changes only part of its outline; in both the cards read from the change leave much of it
unexplained. Then the card detector outlines every card in the picture, and the cards that lie
mostly inside the change are the new ones (a lower card of the fan outlined as far as it shows).
Which of them lies on top is vision/track/stack.py's job.
"""
from __future__ import annotations

import cv2
import numpy as np

LEFT_SHARE = 0.35     # changed area not covered by a card read, as a share of a card, that needs a look
MIN_CHANGE = 1500     # changed pixels (640-wide frame) that could be a card at all (changed_cards' min_area)
INSIDE = 0.6          # share of a detected outline that must have changed for it to be a new card
COVER_PX = 7          # a card read covers its outline grown by this much (its shadow, a blurred edge)


def _table_change(mask: np.ndarray, roi) -> np.ndarray:
    """The changed pixels of the pile's region that do not reach the picture's edge: an arm
    still in view is a change but no card."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    keep = np.zeros(n, bool)
    for k in range(1, n):
        x, y, bw, bh = stats[k, :4]
        keep[k] = x > 0 and y > 0 and x + bw < w and y + bh < h
    out = keep[labels]
    if roi is not None:
        x, y, rw, rh = roi
        inside = np.zeros_like(out)
        inside[max(0, y):y + rh, max(0, x):x + rw] = True
        out &= inside
    return out


def unexplained(mask: np.ndarray, readings: list, roi, confirm: float) -> bool:
    """The change holds more than the cards read surely there (at least LEFT_SHARE of a card left
    over), or something card-sized changed and nothing was read surely."""
    change = _table_change(mask, roi)
    sure = [r for r in readings if r.confidence >= confirm]
    if not sure:
        return int(change.sum()) >= MIN_CHANGE
    cover = np.zeros(mask.shape, np.uint8)
    for r in sure:
        cv2.fillConvexPoly(cover, r.quad.pts.astype(np.int32), 255)
    cover = cv2.dilate(cover, np.ones((2 * COVER_PX + 1, 2 * COVER_PX + 1), np.uint8)) > 0
    card = float(np.median([cv2.contourArea(r.quad.pts.astype(np.float32)) for r in sure]))
    return float((change & ~cover).sum()) >= LEFT_SHARE * card


def cards_in_change(recognizer, frame: np.ndarray, mask: np.ndarray) -> list:
    """The detector's card outlines (faces, and wilds it took for backs) that lie mostly inside the
    changed pixels: the new cards of this settle."""
    from ..recognizer import four_coloured
    from ..rectify import warp_card
    faces, backs = recognizer.locate_all(frame, close_ups=False)      # a table seen from above: one look
    quads = faces + [q for q in backs if four_coloured(warp_card(frame, q.pts))]
    out = []
    for q in quads:
        area = np.zeros(mask.shape, np.uint8)
        cv2.fillConvexPoly(area, q.pts.astype(np.int32), 1)
        n = int(area.sum())
        if n and float((mask[area > 0] > 0).sum()) / n >= INSIDE:
            out.append(q)
    return out
