"""Stage 2: warp a located card to a canonical upright card (portrait, long side vertical).

After this only two orientations remain, 0 and 180 degrees, and the classifier is trained on both.
"""
from __future__ import annotations

import cv2
import numpy as np

CANON_W, CANON_H = 56, 87  # pixels of the canonical card: real card proportions (56 x 87 mm)


def portrait_corners(quad: np.ndarray) -> np.ndarray:
    """Reorder 4 clockwise corners so the first edge (corner 0 -> 1) is a short side."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    s01 = np.linalg.norm(q[0] - q[1]) + np.linalg.norm(q[2] - q[3])
    s12 = np.linalg.norm(q[1] - q[2]) + np.linalg.norm(q[3] - q[0])
    return q if s01 <= s12 else np.roll(q, -1, axis=0)


def warp_card(bgr: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (CANON_W, CANON_H),
              turn: int = 0, ordered: bool = False) -> np.ndarray:
    """The card inside `quad` as an upright-or-upside-down portrait image of `size` (w, h); `turn`
    1: its long side across instead (the other quarter turn of a square card, taught both ways);
    `ordered`: `quad`'s first side is the one to put on top as it is (portrait_corners not asked)."""
    w, h = size
    src = np.asarray(quad, np.float32).reshape(4, 2) if ordered else portrait_corners(quad)
    src = np.roll(src, -turn, axis=0)
    dst = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(bgr, m, (w, h), flags=cv2.INTER_AREA if _shrinks(src, w) else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def _shrinks(src: np.ndarray, w: int) -> bool:
    return float(np.linalg.norm(src[0] - src[1])) > w * 1.5


def in_view(quad: np.ndarray, shape: tuple, box: tuple[float, float, float, float], n: int = 7) -> float:
    """The share of `box` (x0, y0, x1, y1 as fractions of the card warp_card makes of `quad`) that
    lies inside a picture of `shape`: a card held close runs off the picture, and what is printed
    in its cut part cannot be read there."""
    src = portrait_corners(quad)
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), src)
    x0, y0, x1, y1 = box
    u, v = np.meshgrid(np.linspace(x0, x1, n), np.linspace(y0, y1, n))
    pts = cv2.perspectiveTransform(np.float32(np.stack([u.ravel(), v.ravel()], axis=1))[None], m)[0]
    h, w = shape[:2]
    inside = (pts[:, 0] >= 0) & (pts[:, 0] <= w - 1) & (pts[:, 1] >= 0) & (pts[:, 1] <= h - 1)
    return float(inside.mean())
