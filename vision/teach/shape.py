"""The shape of a taught deck's cards: long side over short side, learned from its teach photos.

Every built-in deck is cut at 87 x 56 mm (locate.quad.CARD_ASPECT, 1.55), and the locators favour
that shape: the contour finder scores it, verify takes outlines between 1.05 and 2.4 to 1 and
trusts those near 1.55 most, and a card the picture cuts is grown to it. A deck cut at home may be
square, or long. The outlines teach finds in its photos tell its shape: a photo taken at a slant
foreshortens the card along the slant's direction, which is any direction, so the median of the
outlines' proportions is the card's (measured on synthetic phone photos of 30 cards at 1.0, 1.25,
1.4, 1.55, 1.7: the true outlines' medians 1.02, 1.25, 1.40, 1.55, 1.70). The outlines found under
the standard shape lean towards 1.55 (medians 1.15, 1.30, 1.42, 1.55, 1.66), so a deck whose
outlines differ is looked at again with the shape found, and measured again (teach.py).
"""
from __future__ import annotations

import numpy as np

from ..locate.quad import CARD_ASPECT

LEARN = True         # False: every deck taught as of a standard card's shape (bench/teach.py's "before")
MIN_PHOTOS = 8       # outlines needed to learn a shape: a median of fewer moves with each photo's slant
SAME = 0.08          # a median within this share of a standard card's shape (1.43-1.68) is a standard card:
                     # such decks read as well as standard ones (a DINO 2 print pasted at 1.7 and taught
                     # from one photo a card read 60 of 60 photos, as at 1.55)
QUARTER = 1.3        # cards squarer than this are taught a quarter turned as well: seen at a slant their
                     # long side may look the shorter (a 1.3 card tilted 40 degrees along it: 1.0), and the
                     # warp then sets the face across


def learned_aspect(aspects: list[float]) -> float | None:
    """The deck's shape from its teach photos' outlines (`aspects`: each locate.quad.aspect's, long
    side over short side, opposite sides averaged), or None when there are too few of them or they
    are of a standard card's shape."""
    if not LEARN or len(aspects) < MIN_PHOTOS:
        return None
    median = float(np.median(aspects))
    return None if abs(np.log(median / CARD_ASPECT)) <= np.log1p(SAME) else round(median, 3)


def quarter_turns(card_aspect: float) -> bool:
    """Whether cards of this shape are taught a quarter turned as well (QUARTER)."""
    return card_aspect < QUARTER
