"""Stage 1, another way to the outline: from the card's coloured field inwards of its white margin.

On a pile, the top card's outer edge often has no contrast: its white margin lies on the white
margin of the card below, and the detector's box, a rectangle a few pixels off, fails the white
margin test. The coloured field inside the margin is another matter: it is the card's largest
non-white region, and the card's own margin cuts it off from everything around. Its outline,
pushed out by the margin's width, is the card's outer edge. The result is one more candidate for
verify_quad, which decides as for any other.
"""
from __future__ import annotations

import cv2
import numpy as np

from .contour import _quad_from_contour, whiteness_mask
from .quad import order_corners, side_lengths

PAD = 0.2            # crop margin round the box, a fraction of its size
MARGIN_FRAC = 0.085  # the white margin's width as a fraction of the field's width (prints: 0.055-0.125)
MIN_FIELD = 0.35     # the field's area at least this share of the box's
MIN_INSIDE = 0.8     # a region counts as the field's when this share of it lies inside the box
AREA_RANGE = (0.7, 1.4)  # the outline's area against the box's


def _push_out(quad: np.ndarray, dist: float) -> np.ndarray:
    """The quad with every side moved outwards by `dist` pixels (sides as lines, corners where
    neighbouring lines meet)."""
    c = quad.mean(axis=0)
    lines = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        d = (b - a) / max(1e-6, float(np.linalg.norm(b - a)))
        n = np.array([-d[1], d[0]], np.float32)
        if np.dot(n, a - c) < 0:
            n = -n
        lines.append((a + n * dist, d))
    out = []
    for k in range(4):
        (p1, d1), (p2, d2) = lines[k - 1], lines[k]
        A = np.array([d1, -d2], np.float64).T
        if abs(np.linalg.det(A)) < 1e-6:
            return quad
        t = np.linalg.solve(A, (p2 - p1).astype(np.float64))
        out.append(p1 + d1 * t[0])
    return np.array(out, np.float32)


def field_outline(bgr: np.ndarray, box: np.ndarray, border=None) -> np.ndarray | None:
    """The card's outer quad found from its coloured field inside `box` (4x2 frame pixels), or None.
    `border`: a taught deck's border colour when it is not white (border.py): the field is what is
    not of that colour, pushed out by the border's own width when it is known."""
    h, w = bgr.shape[:2]
    c = box.mean(axis=0)
    grown = c + (box - c) * (1 + PAD)
    x0, y0 = np.floor(grown.min(0)).astype(int).clip(0, [w - 1, h - 1])
    x1, y1 = np.ceil(grown.max(0)).astype(int).clip(1, [w, h])
    if x1 - x0 < 16 or y1 - y0 < 16:
        return None
    crop = bgr[y0:y1, x0:x1]
    margin = whiteness_mask(crop) if border is None else (border.likeness(bgr)[y0:y1, x0:x1] >= 128).astype(np.uint8) * 255
    field = cv2.morphologyEx(255 - margin, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    inside = np.zeros(field.shape, np.uint8)
    shrunk = c + (box - c) * 0.97 - np.array([x0, y0], np.float32)
    cv2.fillPoly(inside, [np.round(shrunk).astype(np.int32)], 1)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(field, connectivity=4)
    box_area = max(1.0, cv2.contourArea(box))
    keep = np.zeros(n, bool)
    for k in range(1, n):
        area = stats[k, cv2.CC_STAT_AREA]
        if area < 0.02 * box_area:
            continue
        share = float(inside[labels == k].mean())
        keep[k] = share >= MIN_INSIDE
    if not keep.any():
        return None
    mask = keep[labels].astype(np.uint8) * 255
    pts = cv2.findNonZero(mask)
    if pts is None or len(pts) < MIN_FIELD * box_area * 0.5:
        return None
    hull = cv2.convexHull(pts)
    if cv2.contourArea(hull) < MIN_FIELD * box_area:
        return None
    got = _quad_from_contour(hull)
    if got is None:
        return None
    q = order_corners(got[0]) + np.array([x0, y0], np.float32)
    depth = getattr(border, "depth", 0.0)
    push = depth / max(1.0 - 2.0 * depth, 0.5) if depth > 0 else MARGIN_FRAC
    q = order_corners(_push_out(q, push * float(side_lengths(q).min())))
    # the detector's box is roughly the card: an outline far smaller is a shape inside the card (a
    # box round the white oval gives the numeral's own colour as a "field")
    if not AREA_RANGE[0] <= cv2.contourArea(q) / box_area <= AREA_RANGE[1]:
        return None
    return q
