"""Stage 1 without a model: find each card in a frame as a quadrilateral, without training.

Every print of the UNO family (and our own printed decks) has a white border around a coloured,
or black, face. So a card is a bright, unsaturated ring enclosing a region, and its outline is a
rectangle of aspect about 87/56 seen in perspective. We threshold "whiteness" adaptively, take
outer contours, fill them, and keep the ones whose shape is a convex quadrilateral of card
proportions. Where a card lies on others (a discard pile) the union is not a quadrilateral; we
then peel: erode the blob until a card-shaped part separates, or fall back to the region that
changed (see vision/track/pipeline.py, which knows what the pile looked like before).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..quantile import percentile

from .quad import CARD_ASPECT, Quad, aspect, opposite_means, order_corners, quad_iou


def whiteness_mask(bgr: np.ndarray, min_v: int = 110, max_s: int = 70,
                   hsv: np.ndarray | None = None) -> np.ndarray:
    """Bright, unsaturated pixels: card borders. The brightness threshold follows the frame, so a
    dim room still separates white from a dark table, and a white table does not swallow all.
    `hsv`: the frame already converted to HSV, where the caller has it."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV) if hsv is None else hsv
    s, v = hsv[..., 1], hsv[..., 2]
    hi = percentile(v, 99.5)
    thr = max(min_v, 0.72 * hi)
    mask = ((v >= thr) & (s <= max_s)).astype(np.uint8) * 255
    return mask


def paper_mask(bgr: np.ndarray, max_s: int = 70, hsv: np.ndarray | None = None) -> np.ndarray:
    """Unsaturated pixels brighter than the frame's Otsu split of brightness: a sheet of white
    card stock lit unevenly (a lamp's gradient across it leaves its far end under whiteness_mask's
    threshold, which follows the brightest glare), on a darker or coloured table. `hsv`: as for
    whiteness_mask."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV) if hsv is None else hsv
    split, _ = cv2.threshold(hsv[..., 2], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return (((hsv[..., 2] > split) & (hsv[..., 1] <= max_s)).astype(np.uint8) * 255)


def white_masks(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(whiteness_mask, paper_mask) of the frame, converted to HSV once for both."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    return whiteness_mask(bgr, hsv=hsv), paper_mask(bgr, hsv=hsv)


def cut_at_edges(mask: np.ndarray, bgr: np.ndarray, low: int = 30, high: int = 90) -> np.ndarray:
    """The mask with the frame's edges (Canny, `low`/`high`, grown by a pixel) taken out of it: two
    white regions that touch, a card and a sheet of paper beside it, merge in a white mask into one
    shape no quadrilateral fits, while the card's side between them is an edge in the picture."""
    grey = cv2.GaussianBlur(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    edges = cv2.dilate(cv2.Canny(grey, low, high), np.ones((3, 3), np.uint8))
    out = mask.copy()
    out[edges > 0] = 0
    return out


EDGE_CUT_PX = 1.5   # how far inside its edge a shape of cut_at_edges' mask lies: half the cut's band


def cards_cut_at_edges(bgr: np.ndarray, mask: np.ndarray, **kw) -> list[Quad]:
    """find_cards on the mask cut along the picture's edges (cut_at_edges), each outline pushed
    back out by the band the cut took off its sides: a card's outline cut 2 pixels inside its edge
    verifies as well as its own, and a deck taught from it learns its cards a little small."""
    out = []
    for q in find_cards(bgr, mask=cut_at_edges(mask, bgr), **kw):
        away = q.pts - q.pts.mean(axis=0)             # each corner along its diagonal, outwards
        away /= np.maximum(np.linalg.norm(away, axis=1, keepdims=True), 1e-6)
        out.append(Quad((q.pts + away * EDGE_CUT_PX * np.sqrt(2.0)).astype(np.float32), q.score))
    return out


def _quad_from_contour(cnt: np.ndarray, card_aspect: float = CARD_ASPECT) -> tuple[np.ndarray, float] | None:
    """A card-shaped quadrilateral for a filled contour, with a score, or None. `card_aspect`: the
    cards' long side over their short side (a taught deck's own, verify.CardLook)."""
    area = cv2.contourArea(cnt)
    if area < 50:
        return None
    hull = cv2.convexHull(cnt)
    hull_area = cv2.contourArea(hull)
    solidity = area / max(hull_area, 1.0)
    peri = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.02, 0.03, 0.045, 0.06):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            break
    if quad is None:  # rounded corners or blur: the minimum-area rectangle is a good card outline
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
    quad = order_corners(quad)
    if min(opposite_means(quad)) < 8:
        return None
    fill = area / max(cv2.contourArea(quad), 1.0)
    # card aspect 1.55 (or the deck's); perspective at up to ~45 degrees tilt stretches it by 1/cos
    aspect_ok = np.exp(-abs(np.log(aspect(quad) / card_aspect)) / 0.25)
    score = float(aspect_ok * min(1.0, fill) ** 2 * min(1.0, solidity) ** 2)
    return quad, score


def find_cards(bgr: np.ndarray, min_area_frac: float = 0.004, max_area_frac: float = 0.5,
               min_score: float = 0.45, mask: np.ndarray | None = None,
               card_aspect: float = CARD_ASPECT) -> list[Quad]:
    """All card-shaped white-bordered regions, best first. `mask`: the border's pixels when it is
    not white (a taught deck's border, border.py), instead of the white ones; `card_aspect`: the
    cards' shape (_quad_from_contour)."""
    h, w = bgr.shape[:2]
    mask = whiteness_mask(bgr) if mask is None else mask
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out: list[Quad] = []
    lo, hi = min_area_frac * h * w, max_area_frac * h * w
    for cnt in contours:
        area = cv2.contourArea(cnt)
        if not lo <= area <= hi:
            continue
        got = _quad_from_contour(cnt, card_aspect)
        if got is not None and got[1] >= min_score:
            out.append(Quad(got[0], got[1]))
            continue
        out.extend(_peel(cnt, mask.shape, lo, min_score, card_aspect))
    out.sort(key=lambda q: -q.score)
    return _dedupe(out)


def _peel(cnt: np.ndarray, shape, lo: float, min_score: float, card_aspect: float = CARD_ASPECT) -> list[Quad]:
    """Split a blob of overlapping cards: erode its filled shape step by step until card-shaped
    parts come apart, then grow each back by the same amount."""
    blob = np.zeros(shape, np.uint8)
    cv2.drawContours(blob, [cnt], -1, 255, -1)
    x, y, bw, bh = cv2.boundingRect(cnt)
    found: list[Quad] = []
    for k in (3, 5, 7, 9, 11):
        er = cv2.erode(blob, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1)))
        parts, _ = cv2.findContours(er, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for p in parts:
            if cv2.contourArea(p) < lo * 0.5:
                continue
            got = _quad_from_contour(p, card_aspect)
            if got is None or got[1] < min_score:
                continue
            q = got[0]
            c = q.mean(axis=0)
            d = q - c
            n = np.linalg.norm(d, axis=1, keepdims=True)
            found.append(Quad(order_corners(q + d / np.maximum(n, 1) * k * 1.2), got[1] * 0.9))
        if found:
            break
    return found


def _dedupe(quads: list[Quad], iou_thr: float = 0.5) -> list[Quad]:
    keep: list[Quad] = []
    for q in quads:
        if all(quad_iou(q.pts, k.pts) < iou_thr for k in keep):
            keep.append(q)
    return keep
