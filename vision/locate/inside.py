"""A picture taken inside one card: a phone held so close that the card's white margin is cut off.

No outline of the card is in view, so no locator finds it; what they find instead is the print's
oval or circle, which verifies as a small white-edged card and reads as a wrong card, sure (a 7
whose foot is cut reads as a 1). Such a picture shows its card's colour all along its edges,
which a photo of a card lying on a table or held in a hand does not: the table, the hand or the
card's own white margin lie there. The card is then the picture itself, read padded with its own
paper's white, as if the margin were still there (the recognizer's _inside_card).
"""
from __future__ import annotations

import cv2
import numpy as np

from .quad import order_corners

BAND = 0.08          # the picture's outer band whose colour is looked at, a share of its short side
FIELD_SHARE = 0.4    # ... where this share of it is of one card colour, the picture lies inside a card's field
INK_SAT = 80         # a pixel this saturated (of 255) ...
INK_VAL = 60         # ... and this bright is ink of a colour (read/colour.py's SATURATED)
CENTRE = 0.6        # the picture's central box, a share of each side, where its symbol lies ...
CENTRE_INK = 0.15    # ... and where at least this share is not the field's colour: a plain cloth is no card
MARGIN = 0.07        # the white margin put back round the picture, a share of its short side
PAPER = 99           # the percentile of the picture's pixels taken as its paper's white
WORK_SIDE = 640      # the long side the picture is looked at and read at


def work_size(bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """(the picture at most WORK_SIDE long, the factor it was shrunk by)."""
    k = min(1.0, WORK_SIDE / max(bgr.shape[:2]))
    if k == 1.0:
        return bgr, 1.0
    return cv2.resize(bgr, None, fx=k, fy=k, interpolation=cv2.INTER_AREA), k


def _colour_shares(hsv: np.ndarray, palette: tuple) -> dict[str, float]:
    """The share of the (n, 3) HSV pixels that are ink of each colour of `palette`."""
    ink = (hsv[:, 1] > INK_SAT) & (hsv[:, 2] > INK_VAL)
    shares: dict[str, float] = {}
    for name, (lo, hi) in palette:
        shares[name] = shares.get(name, 0.0) + float((ink & (hsv[:, 0] >= lo) & (hsv[:, 0] < hi)).sum()) / len(hsv)
    return shares


def field_colour(bgr: np.ndarray, palette: tuple) -> tuple[str | None, float]:
    """(the colour of the picture's outer band, the share of the band in it): the band's most
    common colour of `palette` ((name, (lo, hi)) hue ranges, OpenCV hues) over all its pixels,
    ink or not. (None, 0.0) for a picture too small to have a band."""
    h, w = bgr.shape[:2]
    b = max(2, int(BAND * min(h, w)))
    if min(h, w) <= 2 * b:
        return None, 0.0
    band = np.ones((h, w), bool)
    band[b:h - b, b:w - b] = False
    shares = _colour_shares(cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[band].astype(np.int32), palette)
    name = max(shares, key=shares.get)
    return name, shares[name]


def centre_ink(bgr: np.ndarray, colour: str, palette: tuple) -> float:
    """The share of the picture's central box (CENTRE) that is not ink of the field's `colour`:
    a card's symbol (white, black or other inks); next to none on a plain cloth."""
    h, w = bgr.shape[:2]
    y0, x0 = int(h * (1 - CENTRE) / 2), int(w * (1 - CENTRE) / 2)
    box = bgr[y0:h - y0, x0:w - x0]
    if box.size == 0:
        return 0.0
    hsv = cv2.cvtColor(box, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.int32)
    return 1.0 - _colour_shares(hsv, palette).get(colour, 0.0)


def padded(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(the picture with a margin of its paper's white round it, the padded picture's outline as
    a card's quad, the margin in pixels): the card whose field fills the picture, made whole."""
    paper = np.percentile(bgr.reshape(-1, 3), PAPER, axis=0)
    p = max(1, int(round(MARGIN * min(bgr.shape[:2]))))
    out = cv2.copyMakeBorder(bgr, p, p, p, p, cv2.BORDER_CONSTANT, value=[float(x) for x in paper])
    h, w = out.shape[:2]
    quad = order_corners(np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]))
    return out, quad, p
