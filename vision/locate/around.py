"""Outlines looked for again around a rough one: the card's own pixels told from its surroundings.

The detector learned printed cards, whose coloured field and oval it boxes well; a deck drawn by hand
on white card stock it boxes loosely (the box square to the picture round a card at a slant, or round
the card and the sheet of paper under it), and the box verifies: a white card on a checked cloth has
white about it wherever the box lies. Around such a box the card is still plain to see, the largest
pale thing there, and two looks separate it from the table without knowing how the deck is drawn:

- `segmented`: GrabCut seeded with the box (everything outside it table, inside it unknown), on the
  region round it shrunk to SIDE pixels, where each colour model is learned from the picture itself;
- `paper`: the pale pixels of the region round the box, split from the rest at that region's own Otsu
  threshold of brightness (the whole picture's threshold follows its brightest glare or its darkest
  corner, which a local one ignores).

Both fail where the box takes in the card *and* as much pale surface as card: a box round the card and a
pale desk (or the whole picture, which leaves GrabCut no table to learn from), or round the card and the
sheet of paper it lies on. Inside such a box two more looks find the card by what it alone has:

- `brighter`: the box's pale pixels brighter than each of LEVELS of their own quantiles: white stock is
  the brightest pale thing on a pale desk or a sheet of paper, and at some level it stands apart;
- `enclosed`: the regions the picture's edges enclose inside the box (Canny at three strengths on the
  lightness): a card as bright as what it lies on still steps to it all round its edge.

Each mask's card-shaped regions are outlines (contour.find_cards). Which of them, if any, is the card
is for the caller to judge: Recognizer reads them and keeps the one a taught deck knows best.
"""
from __future__ import annotations

import cv2
import numpy as np

from .contour import find_cards
from .quad import CARD_ASPECT, Quad

GROW = 0.3           # the region looked at: the rough outline's bounding box grown by this share each way ...
SEED_GROW = 0.1      # ... and GrabCut's rectangle (all outside it table) by this share: a box a little short
                     # of the card's corners (its sides square to the picture, the card at a slant) misses them
SIDE = 160           # GrabCut's working size, the region's long side (2 iterations: 5-10 ms on the two cores;
                     # at the region's own size 0.5-1 s a photo, and no more cards found on the teach bench)
ITERATIONS = 2
PAPER_SAT = (70, 110)  # the paper's most saturation: white stock, then stock under a coloured lamp
MIN_SCORE = 0.3      # find_cards' least shape score: a card cut by the picture's edge or a finger scores low
RNG_SEED = 12345
OPEN = np.ones((5, 5), np.uint8)   # the paper mask's lone pixels and thin lines (ruled paper, a finger's rim) taken off


INNER_GROW = 0.05    # brighter's and enclosed's region: the rough outline's box grown by this share each way
INNER_MIN = 0.01     # ... and the least share of the picture an outline found there covers
LEVELS = (0.5, 0.65, 0.8, 0.9)   # brighter's thresholds: these quantiles of the region's pale pixels' brightness
INNER_SAT = 110      # ... pale: at most this saturation (PAPER_SAT's stock under a coloured lamp)
CANNY = ((8, 24), (16, 48), (30, 90))   # enclosed's edge strengths (lightness, 8-bit): faint steps first
THIN = np.ones((3, 3), np.uint8)         # ... its edges thickened by this, so that a gap of a pixel closes


def outlines_around(bgr: np.ndarray, quad: np.ndarray, card_aspect: float = CARD_ASPECT) -> list[Quad]:
    """Card-shaped outlines found round the rough outline `quad` (segmented, paper), then inside it
    (brighter, enclosed)."""
    return (segmented(bgr, quad, card_aspect) + paper(bgr, quad, card_aspect)
            + brighter(bgr, quad, card_aspect) + enclosed(bgr, quad, card_aspect))


def segmented(bgr: np.ndarray, quad: np.ndarray, card_aspect: float = CARD_ASPECT) -> list[Quad]:
    """Outlines of the foreground GrabCut finds inside `quad`'s box (SEED_GROW) against what lies
    round it (GROW)."""
    h, w = bgr.shape[:2]
    x0, y0, x1, y1 = _box(quad, GROW, w, h)
    sx0, sy0, sx1, sy1 = _box(quad, SEED_GROW, w, h)
    if min(x1 - x0, y1 - y0) < 16:
        return []
    region = bgr[y0:y1, x0:x1]
    k = min(1.0, SIDE / max(region.shape[:2]))
    small = cv2.resize(region, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else region
    rect = (int((sx0 - x0) * k), int((sy0 - y0) * k), int((sx1 - sx0) * k) - 1, int((sy1 - sy0) * k) - 1)
    if min(rect[2], rect[3]) < 4 or (rect[0] <= 0 and rect[1] <= 0 and rect[2] >= small.shape[1] - 1
                                     and rect[3] >= small.shape[0] - 1):
        return []          # (a box filling the region leaves GrabCut no table to learn from)
    mask = np.zeros(small.shape[:2], np.uint8)
    # GrabCut seeds its colour models by k-means from OpenCV's own generator: seeded, one photo reads
    # the same each time (unseeded, a card's outline moved by 10 pixels between two calls)
    cv2.setRNGSeed(RNG_SEED)
    try:
        cv2.grabCut(small, mask, rect, np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64),
                    ITERATIONS, cv2.GC_INIT_WITH_RECT)
    except cv2.error:
        return []          # (a region all one colour: nothing to tell apart)
    fg = np.where((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD), 255, 0).astype(np.uint8)
    return _outlines(bgr, (x0, y0, x1, y1), cv2.resize(fg, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST),
                     card_aspect)


def paper(bgr: np.ndarray, quad: np.ndarray, card_aspect: float = CARD_ASPECT) -> list[Quad]:
    """Outlines of the pale pixels round `quad` (GROW), brighter than that region's Otsu split."""
    h, w = bgr.shape[:2]
    x0, y0, x1, y1 = _box(quad, GROW, w, h)
    if min(x1 - x0, y1 - y0) < 16:
        return []
    hsv = cv2.cvtColor(bgr[y0:y1, x0:x1], cv2.COLOR_BGR2HSV)
    split, _ = cv2.threshold(hsv[..., 2], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    out: list[Quad] = []
    for most in PAPER_SAT:
        out += _outlines(bgr, (x0, y0, x1, y1), (hsv[..., 2] > split) & (hsv[..., 1] <= most), card_aspect,
                         opened=True)
    return out


def brighter(bgr: np.ndarray, quad: np.ndarray, card_aspect: float = CARD_ASPECT) -> list[Quad]:
    """Outlines of the pale pixels inside `quad`'s box (INNER_GROW) brighter than each of LEVELS of
    their own quantiles."""
    h, w = bgr.shape[:2]
    x0, y0, x1, y1 = _box(quad, INNER_GROW, w, h)
    if min(x1 - x0, y1 - y0) < 16:
        return []
    hsv = cv2.cvtColor(bgr[y0:y1, x0:x1], cv2.COLOR_BGR2HSV)
    value = cv2.GaussianBlur(hsv[..., 2], (5, 5), 0)
    pale = hsv[..., 1] <= INNER_SAT
    if not pale.any():
        return []
    out: list[Quad] = []
    for level in np.quantile(value[pale], LEVELS):
        out += _outlines(bgr, (x0, y0, x1, y1), pale & (value > level), card_aspect, opened=True,
                         min_area_frac=INNER_MIN)
    return out


def enclosed(bgr: np.ndarray, quad: np.ndarray, card_aspect: float = CARD_ASPECT) -> list[Quad]:
    """Outlines of the regions that the edges inside `quad`'s box (INNER_GROW) enclose, at each of
    CANNY's strengths."""
    h, w = bgr.shape[:2]
    x0, y0, x1, y1 = _box(quad, INNER_GROW, w, h)
    if min(x1 - x0, y1 - y0) < 16:
        return []
    lightness = cv2.GaussianBlur(cv2.cvtColor(bgr[y0:y1, x0:x1], cv2.COLOR_BGR2LAB)[..., 0], (5, 5), 0)
    out: list[Quad] = []
    for low, high in CANNY:
        inside = 255 - cv2.dilate(cv2.Canny(lightness, low, high), THIN)
        # each region on its own: a card's face lies within the ring of its edge, inside the region of
        # what surrounds it, and a shape's outer contour is that region's
        n, labels, stats, _ = cv2.connectedComponentsWithStats(inside, connectivity=4)
        for k in range(1, n):
            if stats[k, cv2.CC_STAT_AREA] >= INNER_MIN * h * w:
                out += _outlines(bgr, (x0, y0, x1, y1), labels == k, card_aspect, min_area_frac=INNER_MIN)
    return out


def _outlines(bgr: np.ndarray, box: tuple[int, int, int, int], region: np.ndarray, card_aspect: float,
              opened: bool = False, **kw) -> list[Quad]:
    """Card-shaped outlines (contour.find_cards) of `region`, a mask (bool or 0/255) of the picture's
    `box`; `opened`: its lone pixels and thin lines taken off first (OPEN), in the whole picture's mask."""
    x0, y0, x1, y1 = box
    full = np.zeros(bgr.shape[:2], np.uint8)
    full[y0:y1, x0:x1][region.astype(bool)] = 255
    if opened:
        full = cv2.morphologyEx(full, cv2.MORPH_OPEN, OPEN)
    return find_cards(bgr, max_area_frac=0.95, min_score=MIN_SCORE, mask=full, card_aspect=card_aspect, **kw)


def _box(quad: np.ndarray, grow: float, w: int, h: int) -> tuple[int, int, int, int]:
    """`quad`'s bounding box grown by `grow` of its size each way, within the picture."""
    pts = np.asarray(quad, np.float32)
    (lx, ly), (hx, hy) = pts.min(axis=0), pts.max(axis=0)
    dx, dy = (hx - lx) * grow, (hy - ly) * grow
    return (int(max(0, lx - dx)), int(max(0, ly - dy)), int(min(w, np.ceil(hx + dx))), int(min(h, np.ceil(hy + dy))))
