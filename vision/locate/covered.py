"""A card partly under another: where the cards above it lie, and its face with them painted out.

A card beneath another in a pile (or under the draw pile) warps with a piece of the card above in
it: a green 0 under a +2 shows the +2's drawn cards where its own oval should be, and the symbol
readers read the +2. Which of two overlapping outlines lies on top is told by their edges
(overlap.py: the top card's sides run on across the card beneath, the lower card's end where it
goes under). The part of the lower card that the upper ones cover is painted with the lower card's
own typical colour (the median of its uncovered pixels), so that what the readers see there is
nothing, not another card's symbol; an index or half a numeral left in view then speaks alone.
"""
from __future__ import annotations

import cv2
import numpy as np

from .overlap import edge_shares, share_inside, to_lab, upper

LEAST = 0.05     # a card under another by less than this share of its area is read as it is
MOST = 0.6       # ... and one covered more than this is left as read: too little of it to read


def cards_above(bgr: np.ndarray, quad: np.ndarray, others: list[np.ndarray]) -> list[np.ndarray]:
    """The outlines of `others` that overlap `quad` by LEAST of its area or more and lie on top of
    it (overlap.upper; outlines whose edges do not tell are left out)."""
    return cards_above_each(bgr, [(quad, others)])[0]


def cards_above_each(bgr: np.ndarray, cards: list[tuple[np.ndarray, list[np.ndarray]]]) -> list[list[np.ndarray]]:
    """cards_above of each (quad, others) pair of one picture, the picture taken to Lab once, and
    only where some pair overlaps."""
    lab, out = None, []
    for quad, others in cards:
        above = []
        for o in others:
            if share_inside(quad, o) < LEAST:
                continue
            lab = to_lab(bgr) if lab is None else lab
            shares = edge_shares(bgr, o, quad, lab)
            if shares is not None and upper(shares) == 0:
                above.append(o)
        out.append(above)
    return out


def painted_out(bgr: np.ndarray, quad: np.ndarray, above: list[np.ndarray],
                extra: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """(a copy of the picture with the part of `quad` under `above` (and under `extra`, a mask of the
    picture: locate/occluder.py) painted in the median colour of the rest of it, the share of `quad`
    so covered)."""
    h, w = bgr.shape[:2]
    card = np.zeros((h, w), np.uint8)
    cv2.fillPoly(card, [np.round(np.asarray(quad, np.float32)).astype(np.int32)], 1)
    over = np.zeros((h, w), np.uint8)
    for o in above:
        cv2.fillPoly(over, [np.round(np.asarray(o, np.float32)).astype(np.int32)], 1)
    cover = (card & over).astype(bool)
    if extra is not None:
        cover |= card.astype(bool) & extra
    own = card.astype(bool) & ~cover
    n_card = int(card.sum())
    if n_card == 0 or not own.any():
        return bgr, 1.0 if n_card else 0.0
    out = bgr.copy()
    out[cover] = np.median(bgr[own], axis=0).astype(np.uint8)
    return out, float(cover.sum()) / n_card
