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


def warp_card(bgr: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (CANON_W, CANON_H)) -> np.ndarray:
    """The card inside `quad` as an upright-or-upside-down portrait image of `size` (w, h)."""
    w, h = size
    src = portrait_corners(quad)
    dst = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(bgr, m, (w, h), flags=cv2.INTER_AREA if _shrinks(src, w) else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def _shrinks(src: np.ndarray, w: int) -> bool:
    return float(np.linalg.norm(src[0] - src[1])) > w * 1.5
