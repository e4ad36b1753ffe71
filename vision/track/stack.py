"""Which of several overlapping cards lies on top: a double put down as a fan.

A card's edge shows where it lies on another card (its white margin against the face beneath),
while the edge of the card underneath is hidden where the top card covers it. So for two
overlapping outlines, the one whose outline, inside the other's, runs along a visible edge is the
upper one. The order matters: the last card of a double lies on top and sets the colour
(docs/rules/prison.md).
"""
from __future__ import annotations

import cv2
import numpy as np

STEP_PX = 3.0       # how far either side of an outline the picture is compared
INSIDE_PX = 4.0     # an outline point counts as inside the other card this far from its edge
MIN_POINTS = 6      # fewer outline points inside the other card than this: the cards barely overlap
CLEAR = 25.0        # grey levels between the two cards' evidence for the order to count


def edge_contrast(image: np.ndarray, quad: np.ndarray, other: np.ndarray, samples: int = 48) -> float | None:
    """The median contrast across `quad`'s outline where it runs inside `other` (None: it hardly
    does). High where `quad` lies on `other` (its edge shows), low where it lies beneath."""
    img = image.astype(np.float32)
    h, w = img.shape[:2]
    pts, normals = zip(*_outline(quad, samples))
    other = np.asarray(other, np.float32).reshape(-1, 1, 2)
    got = []
    for p, n in zip(pts, normals):
        if cv2.pointPolygonTest(other, (float(p[0]), float(p[1])), True) < INSIDE_PX:
            continue
        o, i = p + n * STEP_PX, p - n * STEP_PX
        if not (0 <= o[0] < w and 0 <= o[1] < h and 0 <= i[0] < w and 0 <= i[1] < h):
            continue
        diff = np.abs(img[int(o[1]), int(o[0])] - img[int(i[1]), int(i[0])])
        got.append(float(np.max(diff)))
    return float(np.median(got)) if len(got) >= MIN_POINTS else None


def _outline(quad: np.ndarray, samples: int = 48):
    """Points along a quad's sides with the outward normal at each."""
    quad = np.asarray(quad, np.float32)
    centre = quad.mean(axis=0)
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        n = np.array([-d[1], d[0]], np.float32) / max(float(np.linalg.norm(d)), 1e-6)
        if np.dot(n, (a + b) / 2 - centre) < 0:
            n = -n
        for s in np.linspace(0.1, 0.9, samples // 4):
            yield a + d * s, n


def shared_margin(image: np.ndarray, quad: np.ndarray, other: np.ndarray) -> float | None:
    """How white `quad` is just inside its sides where they run along `other`'s (median of the
    darkest channel; None: the outlines do not meet). Where a card was outlined only as far as it
    shows, cut by the card on it, the two outlines meet along the upper card's edge: the upper
    card's white margin lies on its side of it, the lower card's face on the other."""
    h, w = image.shape[:2]
    b = np.asarray(other, np.float32).reshape(-1, 1, 2)
    got = []
    for p, n in _outline(quad):
        if abs(cv2.pointPolygonTest(b, (float(p[0]), float(p[1])), True)) > 2 * STEP_PX:
            continue
        q = p - n * INSIDE_PX
        if 0 <= q[0] < w and 0 <= q[1] < h:
            got.append(float(image[int(q[1]), int(q[0])].min()))
    return float(np.median(got)) if len(got) >= MIN_POINTS else None


def above(image: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool | None:
    """True when card `a` lies on card `b`, False when beneath it, None when it cannot be told
    (they lie apart, or nothing tells them apart).

    Where the outlines overlap, the visible edge decides (edge_contrast); where they only meet,
    the white margin along the line where they meet (shared_margin)."""
    ca, cb = edge_contrast(image, a, b), edge_contrast(image, b, a)
    if (ca is not None or cb is not None) and abs((ca or 0.0) - (cb or 0.0)) >= CLEAR:
        return (ca or 0.0) > (cb or 0.0)
    wa, wb = shared_margin(image, a, b), shared_margin(image, b, a)
    if wa is None or wb is None or abs(wa - wb) < CLEAR:
        return None
    return wa > wb


def top_first(image: np.ndarray, quads: list[np.ndarray]) -> tuple[list[int], bool]:
    """(indexes of the cards, the top one first; whether that order is known). Cards that overlap
    or meet are ordered pairwise (`above`); a fan of three orders its outer cards through the
    middle one. The order is known when those pairs leave exactly one way to stack the cards."""
    n = len(quads)
    below = {i: set() for i in range(n)}          # i lies on every card in below[i]
    for i in range(n):
        for j in range(i + 1, n):
            got = above(image, quads[i], quads[j])
            if got is True:
                below[i].add(j)
            elif got is False:
                below[j].add(i)
    order, left, known = [], set(range(n)), True
    while left:
        # the cards no remaining card lies on
        free = sorted(i for i in left if not any(i in below[j] for j in left))
        if not free:                              # a cycle: the evidence contradicts itself
            free, known = sorted(left), False
        known = known and len(free) == 1
        order.append(free[0])
        left.discard(free[0])
    return order, known
