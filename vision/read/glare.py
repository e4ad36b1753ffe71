"""Stage 3e: glare over the card's centre, which no reader of the centre can see through.

A glossy card under a lamp, or a phone's flash, throws a bright soft spot on the face: the ink
under it turns pale or white. The symbol readers then see a blob where the numeral was (on real
photos with a spot added, mostly a "reverse"), the centre's holes are counted wrong (a skip's ring
merged into the spot), and OCR is silent or faint. Nothing printed on a card is brighter than its
own paper, so light brighter than the paper of the card's margin, and unsaturated as a light's
reflection is, is glare. Its share of the centre tells the reader how far to trust the centre.
(A photo whose paper is itself clipped white has nothing brighter: no glare is found there; nor on a
card whose margin is no white paper, a deck edged in black or a colour, whose white is inside.)
"""
from __future__ import annotations

import cv2
import numpy as np

from ..quantile import percentile
from .holes import CENTRE               # where every print puts its big symbol (x0, y0, x1, y1)

CARD_W, CARD_H = 56, 87               # the warp glare is looked for in
MARGIN = 0.05                         # the margin's band, a share of the card's width
ABOVE = 25                            # glare: brighter (V) than the margin's paper by this ...
GREY = 60                             # ... and no more saturated than this
CLIPPED = 255 - ABOVE                 # paper this bright leaves nothing brighter to see
SHADED = 0.8                          # a side darker than this share of the second brightest lies in a shadow
PAPER_LEVEL = 0.6                     # a margin darker than this share of the face's median V is no paper


def centre_glare(card_bgr: np.ndarray) -> float:
    """The share (0-1) of a rectified card's centre brighter than its own paper and unsaturated."""
    card = cv2.resize(card_bgr, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA
                      if card_bgr.shape[1] > CARD_W else cv2.INTER_LINEAR)
    hsv = cv2.cvtColor(card, cv2.COLOR_BGR2HSV)
    m = max(1, int(round(MARGIN * CARD_W)))
    value, sat = hsv[..., 2], hsv[..., 1]
    paper = _paper(value, m)
    if paper >= CLIPPED:
        return 0.0
    # the margin must be white paper: unsaturated, and not dark against the face (a black border's
    # inner white is no glare)
    if _margin(sat, m, 50) >= GREY or paper < PAPER_LEVEL * float(percentile(value.astype(np.float32), 50)):
        return 0.0
    x0, y0, x1, y1 = (int(round(f * s)) for f, s in zip(CENTRE, (CARD_W, CARD_H, CARD_W, CARD_H)))
    v, s = value[y0:y1, x0:x1], hsv[y0:y1, x0:x1, 1]
    return float(((v > paper + ABOVE) & (s < GREY)).mean())


def _paper(value: np.ndarray, m: int) -> float:
    """The paper's brightness: each side's bright paper (a finger over it, its shade, are darker),
    the middle of the sides in the light. A spot reaching one side must not raise it; a shadow
    over two sides (a hand or a phone held over the card) must not lower it: the middle of four
    sides two of them shadowed was half the light, the lit half of the oval "glare" (35 of 240
    held cards under the bench's cast shadows, read unsure so; 3 with the shadowed sides left out,
    and the same 187 of 294 real photos with the bench's glare spots found as before)."""
    sides = sorted(percentile(side.astype(np.float32), 90) for side in _sides(value, m))
    lit = [x for x in sides if x >= SHADED * sides[-2]]
    # of two sides in the light the darker: the other may be the spot's
    return float(lit[0] if len(lit) == 2 else np.median(lit))


def _sides(channel: np.ndarray, m: int) -> tuple:
    """The card's four margin bands, `m` pixels deep: top, bottom, left, right."""
    return channel[:m], channel[-m:], channel[:, :m], channel[:, -m:]


def _margin(channel: np.ndarray, m: int, q: float) -> float:
    """The middle of the q-th percentiles of a channel over the card's four sides, `m` pixels deep."""
    return float(np.median([percentile(side.astype(np.float32), q) for side in _sides(channel, m)]))
