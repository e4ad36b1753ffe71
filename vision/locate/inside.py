"""A picture taken inside one card: a phone held so close that the card's white margin is cut off.

No outline of the card is in view, so no locator finds it; what they find instead is the print's
oval or circle, which verifies as a small white-edged card and reads as a wrong card, sure (a 7
whose foot is cut reads as a 1). Such a picture shows its card's colour all along its edges,
which a photo of a card lying on a table or held in a hand does not: the table, the hand or the
card's own white margin lie there. The card is then the picture itself, read padded with its own
paper's white, as if the margin were still there (the recognizer's _inside_card).

A wild or a wild draw four has no colour to find along the edges: its field is black, as a dark
table is. Inside one, the locators find the small cards drawn on a +4 or a quarter of a wild's oval,
read as a coloured card; the picture read whole is the wild (its band dark: dark_share).

The same reading serves a card that fills the picture to its edges, its white margin running off
them (a photo cropped to the card, a little inside its outer edge): its band is its margin and its
field, and where no locator found anything there, the picture is read as that card too.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .quad import CARD_ASPECT, order_corners

BAND = 0.08          # the picture's outer band whose colour is looked at, a share of its short side
FIELD_SHARE = 0.4    # ... where this share of it is of one card colour, the picture lies inside a card's field
EDGE_COLOUR = 0.15   # ... and where this share is, the rest white paper (EDGE_CARD of it in all), the card
EDGE_CARD = 0.8      # fills the picture to its edges (the development photos as they are: at most 0.56)
CARD_INK = 0.02      # a reading's card: its share of the band's ink under which it has none to compare
INK_Q = 75           # an ink's saturation and value: this percentile of its pixels'
INK_HUE = 4.0        # two inks are one within this hue (OpenCV's 180), this saturation and this value (of 255):
INK_SAT_GAP = 50.0   # the bench's inside cells, 360 readings of the band's colour: 359 within; 27 cards on felt,
INK_VAL_GAP = 60.0   # wood or denim of their colour (transplants) none: the nearest 3, 38, 120 and 4, 71, 39 apart
PAPER_SAT = 60       # paper: no more saturated than this ...
PAPER_VAL = 0.6      # ... and this share as bright as the picture's brightest (its PAPER percentile)
INK_SAT = 80         # a pixel this saturated (of 255) ...
INK_VAL = 60         # ... and this bright is ink of a colour (read/colour.py's SATURATED)
CENTRE = 0.6        # the picture's central box, a share of each side, where its symbol lies ...
CENTRE_INK = 0.15    # ... and where at least this share is not the field's colour: a plain cloth is no card
MARGIN = 0.07        # the white margin put back round the picture, a share of its short side
PAD_TO_CARD = True   # ... and more where the picture's shape is not a card's (padded)
DARK = 0.5           # a pixel darker than this share of the paper's white is dark (a wild's black field: in the
                     # bench's inside frames of real wilds 0.31-0.71 of the band, the rest its oval's white and inks)
PAPER = 99           # the percentile of the picture's pixels taken as its paper's white
BLOB_SHARE = 0.8     # one_ink_blob: its largest piece holds this share of the coloured ink (a wild's corner indices hold a tenth) ...
BLOB_MIDDLE = 0.3    # ... its centre within this middle share of each side ...
MIN_INK = 0.02       # ... of a picture this share coloured at least, its ink closed over this share of
BLOB_CLOSE = 0.04    # its short side first (a stroke's width: a wild's quarters, an oval's rim, joined)
WORK_SIDE = 640      # the long side the picture is read at ...
LOOK_SIDE = 160      # ... and its band looked at (every photo's: a millisecond)


def work_size(bgr: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    """(the picture at most `side` long, the factor it was shrunk by)."""
    k = min(1.0, side / max(bgr.shape[:2]))
    if k == 1.0:
        return bgr, 1.0
    return cv2.resize(bgr, None, fx=k, fy=k, interpolation=cv2.INTER_AREA), k


def _is_ink(hsv: np.ndarray) -> np.ndarray:
    """Which of the HSV pixels (n x 3, or an image) are ink of some colour: saturated and bright."""
    return (hsv[..., 1] > INK_SAT) & (hsv[..., 2] > INK_VAL)


def _colour_shares(hsv: np.ndarray, palette: tuple) -> dict[str, float]:
    """The share of the (n, 3) HSV pixels that are ink of each colour of `palette`."""
    ink = _is_ink(hsv)
    shares: dict[str, float] = {}
    for name, (lo, hi) in palette:
        shares[name] = shares.get(name, 0.0) + float((ink & (hsv[:, 0] >= lo) & (hsv[:, 0] < hi)).sum()) / len(hsv)
    return shares


@dataclass(frozen=True)
class Band:
    """What lies along a picture's edges: its outer band (BAND)."""
    colour: str | None   # the band's most common colour of the palette
    share: float         # the share of the band that is ink of that colour
    paper: float         # ... and that is white paper
    ink: tuple = (0.0, 0.0, 0.0)   # that ink's hue (circular mean), saturation and value (upper quartiles)

    @property
    def inside_field(self) -> bool:
        """The picture lies inside a card's coloured field: its margin is cut off."""
        return self.share >= FIELD_SHARE

    @property
    def card_to_edges(self) -> bool:
        """A card fills the picture: its field and its white margin run off the picture's edges."""
        return self.share >= EDGE_COLOUR and self.share + self.paper >= EDGE_CARD


def band_of(bgr: np.ndarray, palette: tuple) -> Band:
    """The picture's outer band: its most common colour of `palette` ((name, (lo, hi)) hue
    ranges, OpenCV hues), the share of the band in that colour's ink, and in white paper.
    Band(None, 0, 0) for a picture too small to have a band."""
    band = _band_mask(bgr.shape)
    if band is None:
        return Band(None, 0.0, 0.0)
    hsv_all = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    hsv = hsv_all[band].astype(np.int32)
    shares = _colour_shares(hsv, palette)
    name = max(shares, key=shares.get)
    white = PAPER_VAL * float(np.percentile(hsv_all[..., 2], PAPER))
    paper = float(((hsv[:, 1] < PAPER_SAT) & (hsv[:, 2] > white)).mean())
    return Band(name, shares[name], paper, ink_of(hsv, name, palette))


def dark_share(bgr: np.ndarray) -> float:
    """The share of the picture's outer band (BAND) darker than DARK of its paper's white (its
    PAPER percentile): a black field along the edges, a wild's, or a dark table's."""
    band = _band_mask(bgr.shape)
    if band is None:
        return 0.0
    value = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[..., 2]
    return float((value[band] < DARK * float(np.percentile(value, PAPER))).mean())


def _band_mask(shape: tuple) -> np.ndarray | None:
    """The picture's outer band (BAND of its short side deep) as a mask; None for a picture too
    small to have one."""
    h, w = shape[:2]
    b = max(2, int(BAND * min(h, w)))
    if min(h, w) <= 2 * b:
        return None
    band = np.ones((h, w), bool)
    band[b:h - b, b:w - b] = False
    return band


def _ink_mask(hsv: np.ndarray, colour: str, palette: tuple) -> np.ndarray:
    ink = _is_ink(hsv)
    of = np.zeros(len(hsv), bool)
    for name, (lo, hi) in palette:
        if name == colour:
            of |= (hsv[:, 0] >= lo) & (hsv[:, 0] < hi)
    return ink & of


def ink_of(hsv: np.ndarray, colour: str | None, palette: tuple) -> tuple:
    """(hue, saturation, value) of the (n, 3) HSV pixels that are ink of `colour`: the hue's
    circular mean (red wraps round 0), the others' upper quartiles; (0, 0, 0) where there are none."""
    m = _ink_mask(hsv, colour, palette) if colour is not None else np.zeros(len(hsv), bool)
    if not m.any():
        return (0.0, 0.0, 0.0)
    a = hsv[m, 0] * (np.pi / 90.0)
    hue = float(np.degrees(np.arctan2(np.sin(a).mean(), np.cos(a).mean())) / 2.0) % 180.0
    # the upper quartile: the ink's own tone, not the dark rims of a numeral's black outline
    return (hue, float(np.percentile(hsv[m, 1], INK_Q)), float(np.percentile(hsv[m, 2], INK_Q)))


def card_ink(card_bgr: np.ndarray, colour: str, palette: tuple) -> tuple | None:
    """ink_of a rectified card's pixels of `colour`, or None where under CARD_INK of them are."""
    hsv = cv2.cvtColor(card_bgr, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.int32)
    if _ink_mask(hsv, colour, palette).mean() < CARD_INK:
        return None
    return ink_of(hsv, colour, palette)


def same_ink(a: tuple, b: tuple | None) -> bool:
    """Whether two inks (ink_of) are one: a card's field and the print's oval inside it, not a
    card and the felt, wood or cloth of its colour it lies on."""
    if b is None:
        return False
    dh = abs(a[0] - b[0]) % 180.0
    return min(dh, 180.0 - dh) <= INK_HUE and abs(a[1] - b[1]) <= INK_SAT_GAP and abs(a[2] - b[2]) <= INK_VAL_GAP


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


def padded(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the picture with a margin of its paper's white round it, the padded picture's outline as
    a card's quad, the margin in pixels as (x, y)): the card whose field fills the picture, made
    whole. The margin is MARGIN of the short side, and more at the ends of an upright picture less
    long than a card: a 4:3 photo held over a card has cut the card's ends, and stretching it to a
    card's shape instead draws every symbol a fifth too tall."""
    paper = np.percentile(bgr.reshape(-1, 3), PAPER, axis=0)
    h, w = bgr.shape[:2]
    p = max(1, int(round(MARGIN * min(h, w))))
    px = py = p
    if PAD_TO_CARD and h > w:
        # a picture cut the same depth all round inside a card is longer than a card: the margin
        # alone makes it whole. One less long has had the card's ends cut deeper (a 4:3 photo held
        # over it, upright): those are padded out to a card's shape. Not a landscape picture: a
        # webcam's, over a table, whose read whole so padded took a red table, no card found in it,
        # for a red +2 at 0.49 (a teach photo of a deck drawn in ink: tests/test_teach_ink.py)
        py += max(0, int(round((CARD_ASPECT * (w + 2 * p) - (h + 2 * p)) / 2)))
    out = cv2.copyMakeBorder(bgr, py, py, px, px, cv2.BORDER_CONSTANT, value=[float(x) for x in paper])
    h, w = out.shape[:2]
    quad = order_corners(np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]))
    return out, quad, np.float32([px, py])


def one_ink_blob(bgr: np.ndarray) -> bool:
    """Whether the picture's coloured ink (INK_SAT, INK_VAL) is one thing in its middle: its largest
    connected piece (the ink closed over BLOB_CLOSE, a wild's quarters joined) holds BLOB_SHARE
    of it and its centre lies in the picture's middle BLOB_MIDDLE of each side. A wild's oval or
    circle of four colours, seen from inside the card; not cards lying apart on a dark table."""
    work, _ = work_size(bgr, LOOK_SIDE)
    hsv = cv2.cvtColor(work, cv2.COLOR_BGR2HSV)
    ink = _is_ink(hsv).astype(np.uint8)
    total = int(ink.sum())
    if total < MIN_INK * ink.size:
        return False
    k = max(3, int(round(BLOB_CLOSE * min(ink.shape))) | 1)
    closed = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(closed, connectivity=8)
    if n < 2:
        return False
    big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    held = int(ink[labels == big].sum())
    cx, cy = centroids[big]
    h, w = ink.shape
    lo, hi = (1 - BLOB_MIDDLE) / 2, (1 + BLOB_MIDDLE) / 2
    return held >= BLOB_SHARE * total and lo * w <= cx <= hi * w and lo * h <= cy <= hi * h
