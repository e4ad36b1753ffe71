"""A located card: its quadrilateral in frame pixels, one spelling of its corners, and overlap."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CARD_ASPECT = 87.0 / 56.0  # long side / short side of a standard card


@dataclass
class Quad:
    pts: np.ndarray        # 4x2 float32, clockwise from the top-left-most corner, in frame pixels
    score: float           # how card-like the shape is, 0..1

    @property
    def area(self) -> float:
        return float(cv2.contourArea(self.pts.astype(np.float32)))

    def polygon(self) -> list[list[float]]:
        return [[round(float(x), 1), round(float(y), 1)] for x, y in self.pts]


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Clockwise order starting with the corner nearest the top-left, so a quad has one spelling."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise in image coordinates (y down)
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def side_lengths(quad: np.ndarray) -> np.ndarray:
    """The lengths of a quad's four sides, corner 0->1, 1->2, 2->3, 3->0."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    return np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)


def opposite_means(quad: np.ndarray) -> tuple[float, float]:
    """The mean lengths of the two pairs of opposite sides (0->1 with 2->3, 1->2 with 3->0)."""
    s = side_lengths(quad)
    return float((s[0] + s[2]) / 2), float((s[1] + s[3]) / 2)


def aspect(quad: np.ndarray, floor: float = 1e-6) -> float:
    """Long over short, each the mean of two opposite sides (perspective makes them differ);
    `floor` keeps a degenerate quad from dividing by zero."""
    a, b = opposite_means(quad)
    return max(a, b) / max(min(a, b), floor)


def corner_angles(quad: np.ndarray) -> np.ndarray:
    """The quad's four inner angles, degrees."""
    out = []
    for k in range(4):
        u, v = quad[k - 1] - quad[k], quad[(k + 1) % 4] - quad[k]
        cos = float(u @ v) / max(1e-6, float(np.linalg.norm(u) * np.linalg.norm(v)))
        out.append(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))
    return np.array(out, np.float32)


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    ua = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / ua) if ua > 0 else 0.0


def side_off_picture(a: np.ndarray, b: np.ndarray, shape: tuple) -> bool:
    """True when most of the side a->b lies outside a picture of `shape` (a card held close, cut
    by the frame): there is no edge or margin of it to see."""
    h, w = shape[:2]
    t = np.linspace(0.12, 0.88, 9)[:, None]
    p = np.asarray(a, np.float32)[None, :] + t * (np.asarray(b, np.float32) - np.asarray(a, np.float32))[None, :]
    inside = (p[:, 0] >= 0) & (p[:, 0] <= w - 1) & (p[:, 1] >= 0) & (p[:, 1] <= h - 1)
    return float(inside.mean()) < 0.5


AT_EDGE = 2.0     # a side within this many pixels of the picture's edge, all along, is cut there (side_cut)


def side_cut(a: np.ndarray, b: np.ndarray, shape: tuple) -> bool:
    """True when the picture cuts the card at the side a->b: the side lies mostly outside a picture
    of `shape` (side_off_picture), or along its edge, where an outline snapped onto the picture's
    border ends while the card runs on beyond it."""
    if side_off_picture(a, b, shape):
        return True
    h, w = shape[:2]
    ends = np.float32([a, b])
    return bool((ends[:, 0] <= AT_EDGE).all() or (ends[:, 0] >= w - 1 - AT_EDGE).all()
                or (ends[:, 1] <= AT_EDGE).all() or (ends[:, 1] >= h - 1 - AT_EDGE).all())


def to_card_shape(quad: np.ndarray, shape: tuple, card_aspect: float = CARD_ASPECT) -> np.ndarray:
    """The quad of a card the picture cuts at one side, grown to a card's proportions: where one side
    lies out of a picture of `shape` or along its edge (side_cut) and the opposite one in it, the two sides
    between are lengthened along their own directions until the card is `card_aspect` long for its
    width as the side in view gives it (a card held close, an end or a long edge cut off: the
    outline found ends where the picture ends, and a card squashed to it puts the symbol and the
    corner index out of their places). Never shortened; `quad` itself when no side, or two opposite
    sides, lie out of the picture, or it is long enough."""
    q = order_corners(np.asarray(quad, np.float32).reshape(4, 2)).copy()
    sides = side_lengths(q)
    short = (0, 2) if sides[0] + sides[2] <= sides[1] + sides[3] else (1, 3)
    off = [side_cut(q[k], q[(k + 1) % 4], shape) for k in range(4)]
    cut = [k for k in range(4) if off[k] and not off[(k + 2) % 4]]
    if len(cut) != 1:
        return quad
    k = cut[0]
    a, b = q[k], q[(k + 1) % 4]                    # the side cut off
    c, d = q[(k + 2) % 4], q[(k + 3) % 4]          # the side in view: b -> c and d -> a run between
    across = float(np.linalg.norm(c - d))
    want = across * card_aspect if k in short else across / card_aspect
    grown = False
    for end, start, i in ((a, d, k), (b, c, (k + 1) % 4)):
        run = end - start
        length = float(np.linalg.norm(run))
        if 0 < length < want:
            q[i] = start + run * (want / length)
            grown = True
    return q if grown else quad


def inside_share(quad: np.ndarray, shape: tuple) -> float:
    """The share of the quad's area inside a picture of `shape`."""
    h, w = shape[:2]
    q = np.asarray(quad, np.float32).reshape(4, 2)
    area = float(cv2.contourArea(q))
    if area <= 0:
        return 0.0
    inside, _ = cv2.intersectConvexConvex(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return float(inside) / area
