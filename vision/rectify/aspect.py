"""A square picture that may have been stretched to its square: its cards read again at the usual
aspects of cameras, and the best of the readings kept.

Datasets and their tools export photos "stretched to 640 x 640" (or 416): a 16:9 webcam frame or a
4:3 phone photo squashed into a square, its cards squashed with it. A card lying across such a
picture is then longer than any card seen at a slant (1.78 x its 1.55: 2.8 to 1), and the locator,
which looks for a card's proportions, outlines a card-shaped part of it (measured on the 240 photos
of ../shared/real-uno-dev2 squashed to 640 x 640: 0.93 and 0.89 top-1 against 1.00 as they are).
Undoing the stretch is a resize; which one is unknown, so the picture is read at each usual aspect
too, and the readings that make the most cards sure win.

Two reads of the same card that are both sure but of two cards are a warning, not a choice: one of
the two aspects squashed the card into another symbol (a reverse squashed to half its width read as
a 7), so such a card is sent to the table unsure (the calibration's highest unsure chance, BELOW_MAX)."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np

from ..read.calibrate import BELOW_MAX

# camera aspects (width / height) a square picture may have been squashed from: phone photos (4:3,
# 3:4) and video or webcam frames (16:9, 9:16)
ASPECTS = (4 / 3, 16 / 9, 3 / 4, 9 / 16)
SQUARE = 0.01        # a picture whose sides differ by at most this share is square
SAME_CARD = 0.5      # two readings are of one card where this share of either's outline lies inside the other's
# Sure readings covering at least this share of the largest area any candidate's cover count as
# covering as much: resized with its area kept, a whole card keeps its area at every aspect (its
# outlines differ by a few %), while a card-shaped part of it is far smaller (a reverse's lower half,
# about half). Within it the surer candidate wins: a squashed blue 2 (real-uno-dev b2) read 2 at
# 0.995 at three aspects and +2 at 0.955 at the two portrait ones, whose outline was 0.04% larger
AREA_TIE = 0.9


def is_square(shape: tuple) -> bool:
    h, w = shape[:2]
    return abs(w - h) <= SQUARE * max(w, h)


def unstretched_size(shape: tuple, aspect: float) -> tuple[int, int]:
    """(width, height) of a picture of `shape` resized to `aspect` with its area kept."""
    h, w = shape[:2]
    k = aspect ** 0.5
    return max(1, int(round(w * k))), max(1, int(round(h / k)))


def _merit(readings: list) -> tuple[int, float, float]:
    """How well a picture was read: its sure readings, the area they cover, its best confidence.
    The area: squashed the wrong way a card is longer still, and a card-shaped part of it can be
    outlined and read sure (a reverse's lower half read as a 7); the aspect that undoes the stretch
    outlines the whole card. (best_of counts areas within AREA_TIE of each other as one.)"""
    sure = [r for r in readings if r.sure]
    return len(sure), sum(r.quad.area for r in sure), max((r.confidence for r in readings), default=0.0)


def best_of(candidates: list[tuple[list, list]], inside: Callable[[np.ndarray, np.ndarray], float]) -> tuple[list, list]:
    """(readings, backs) of the candidate read best (candidates in the picture's own pixels, the
    picture as it is first; a tie keeps the earlier), its sure readings that another candidate
    reads surely as another card held below sure. `inside(quad_a, quad_b)`: the share of a's area
    inside b (two outlines of one card, or one of a part of it, lie mostly one inside the other)."""
    merits = [_merit(rs) for rs, _ in candidates]
    most = max(m[0] for m in merits)
    widest = max(m[1] for m in merits if m[0] == most)
    best = max(range(len(candidates)),
               key=lambda i: (merits[i][0], merits[i][1] >= AREA_TIE * widest, merits[i][2], merits[i][1], -i))
    readings, backs = candidates[best]
    others = [r for i, (rs, _) in enumerate(candidates) if i != best for r in rs if r.sure]

    def same_card(a, b) -> bool:
        return max(inside(a.quad.pts, b.quad.pts), inside(b.quad.pts, a.quad.pts)) >= SAME_CARD

    out = []
    for r in readings:
        if r.sure and any(o.card != r.card and same_card(o, r) for o in others):
            r = replace(r, confidence=min(r.confidence, BELOW_MAX))
        out.append(r)
    out.sort(key=lambda r: r.rank(), reverse=True)
    return out, backs
