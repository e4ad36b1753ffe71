"""Which of several overlapping cards lies on top: a double put down as a fan.

Where two cards overlap, the top card's edge shows across the card beneath and the lower card's
edge is hidden (vision/locate/overlap.py). Where a lower card was outlined only as far as it
shows, the outlines only meet: the top card's white margin runs along that line. The order
matters: the last card of a double lies on top and sets the colour (docs/rules/prison.md).
"""
from __future__ import annotations

import cv2
import numpy as np

from ..locate.overlap import edge_shares, to_lab, upper

# the white margin where the outlines only meet (shared_margin)
STEP_PX = 3.0        # how far either side of an outline the picture is compared
INSIDE_PX = 4.0      # ... and how far inside the card its margin is looked at
MIN_POINTS_MET = 6   # fewer outline points along the other card than this: the outlines do not meet
CLEAR = 25.0         # grey levels between the two cards' margins for the order to count


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
    return float(np.median(got)) if len(got) >= MIN_POINTS_MET else None


def above(image: np.ndarray, a: np.ndarray, b: np.ndarray, lab: np.ndarray | None = None) -> bool | None:
    """True when card `a` lies on card `b`, False when beneath it, None when it cannot be told
    (they lie apart, or nothing tells them apart). `lab`: the image in Lab (overlap.to_lab), when
    at hand.

    Where the outlines overlap, the visible edge decides (vision/locate/overlap.py); where they only
    meet (a lower card outlined as far as it shows), the white margin along the line where they
    meet (shared_margin). Measured by bench/stack_order.py (docs/benchmarks.md)."""
    shares = edge_shares(image, a, b, lab)
    if shares is not None:
        # outlines that overlap are told by their edges or not at all: the margins along where
        # they meet say nothing of two whole outlines (5 of 7 pairs told wrong, bench/stack_order.py)
        top = upper(shares)
        return None if top is None else top == 0
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
    lab = to_lab(image) if n > 1 else None
    for i in range(n):
        for j in range(i + 1, n):
            got = above(image, quads[i], quads[j], lab)
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
