"""Which of several overlapping cards lies on top: a double put down as a fan.

A card's edge shows where it lies on another card (its white margin against the face beneath),
while the edge of the card underneath is hidden where the top card covers it: inside the top card
there is nothing along it but the top card's face. So for two overlapping outlines, the one whose
sides, inside the other's, run along a visible edge with its own margin inside is the upper one.
The order matters: the last card of a double lies on top and sets the colour (docs/rules/prison.md).
"""
from __future__ import annotations

import cv2
import numpy as np

from ..locate.quad import side_lengths

# the edges where the outlines overlap (edge_share)
INSET = 0.1          # a side's stretch counts as inside the other outline this far in from its edge (a share of
                     # the other's short side, at least INSET_PX): beyond the other card's margin, whose own
                     # edge against its field crosses a side lying near it
INSET_PX = 3
REACH = (2, 5)       # pixels either side of a side where the colours across it are compared
SLACK = 2            # pixels an outline may lie off the card's true edge (the largest contrast within it)
MIN_POINTS = 12      # pixels of side inside the other outline (and outside it) needed to judge it
EDGE_CONTRAST = 20   # a point of a side is on the card's edge where the colours across it differ by this
                     # much (8-bit Lab; a flat face shows 2-10 of noise and blur) ...
LIKE_MARGIN = 40     # ... and the colour just inside it is within this of the card's own margin elsewhere
                     # (where its sides lie outside the other): a lower card's side inside the top card
                     # crosses the top card's oval edge here and there, with the top card's face inside it
ON_EDGE = 0.5        # the top card's sides inside the other are on its edge at this share at least ...
MARGIN = 0.3         # ... and at this much more than the other's inside it
NESTED = 0.6         # an outline this much inside the other is a shape on the card, not a card on it

# the white margin where the outlines only meet (shared_margin)
STEP_PX = 3.0        # how far either side of an outline the picture is compared
INSIDE_PX = 4.0      # ... and how far inside the card its margin is looked at
MIN_POINTS_MET = 6   # fewer outline points along the other card than this: the outlines do not meet
CLEAR = 25.0         # grey levels between the two cards' margins for the order to count


def _lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


def _side_points(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points one pixel apart along the quad's sides, and the outward normal at each."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    pts, normals = [], []
    for k in range(4):
        a, b = q[k], q[(k + 1) % 4]
        d = b - a
        n_len = float(np.hypot(*d))
        if n_len < 1:
            continue
        t = np.arange(0.5, n_len, 1.0, dtype=np.float32) / n_len
        p = a + t[:, None] * d
        nrm = np.array([d[1], -d[0]], np.float32) / n_len
        if float((a + d / 2 - c) @ nrm) < 0:     # outward, whichever way the corners run
            nrm = -nrm
        pts.append(p)
        normals.append(np.repeat(nrm[None], len(p), axis=0))
    if not pts:
        return np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32)
    return np.concatenate(pts), np.concatenate(normals)


def _sample(lab: np.ndarray, pts: np.ndarray) -> np.ndarray:
    m = pts.astype(np.float32).reshape(-1, 1, 2)
    return cv2.remap(lab, m[..., 0], m[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).reshape(-1, 3)


def _contrast(lab: np.ndarray, pts: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """The colour difference across the side at each point: the largest within SLACK pixels of it,
    each side of it averaged over REACH."""
    best = np.zeros(len(pts), np.float32)
    for shift in range(-SLACK, SLACK + 1):
        p = pts + normals * shift
        inner = np.mean([_sample(lab, p - normals * r) for r in range(REACH[0], REACH[1] + 1)], axis=0)
        outer = np.mean([_sample(lab, p + normals * r) for r in range(REACH[0], REACH[1] + 1)], axis=0)
        best = np.maximum(best, np.linalg.norm(inner - outer, axis=1))
    return best


def _inside(quad: np.ndarray, pts: np.ndarray, inset: float) -> np.ndarray:
    """Which points lie inside the convex quad at least `inset` pixels from its sides."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    depth = np.full(len(pts), np.inf, np.float32)
    for k in range(4):
        a, d = q[k], q[(k + 1) % 4] - q[k]
        n = np.array([-d[1], d[0]], np.float32) / max(1e-6, float(np.hypot(*d)))
        if float((c - a) @ n) < 0:              # inward, whichever way the corners run
            n = -n
        depth = np.minimum(depth, (pts - a) @ n)
    return depth >= inset


def edge_share(lab: np.ndarray, quad: np.ndarray, other: np.ndarray) -> float | None:
    """The share of `quad`'s sides, where they lie inside `other` (beyond its margin), that are the
    card's edge: a contrast across them, and the card's own margin inside; None when too little of
    them lies inside `other`, or outside it."""
    pts, normals = _side_points(quad)
    h, w = lab.shape[:2]
    m = REACH[1] + SLACK
    seen = (pts[:, 0] >= m) & (pts[:, 1] >= m) & (pts[:, 0] < w - m) & (pts[:, 1] < h - m)
    pts, normals = pts[seen], normals[seen]
    inside = _inside(other, pts, max(INSET_PX, INSET * float(side_lengths(other).min())))
    outside = ~_inside(other, pts, -INSET_PX)
    if inside.sum() < MIN_POINTS or outside.sum() < MIN_POINTS:
        return None

    def just_inside(p: np.ndarray, n: np.ndarray) -> np.ndarray:
        return np.mean([_sample(lab, p - n * r) for r in (REACH[0], REACH[0] + 1)], axis=0)

    margin = np.median(just_inside(pts[outside], normals[outside]), axis=0)
    p, n = pts[inside], normals[inside]
    edge = _contrast(lab, p, n) >= EDGE_CONTRAST
    like = np.linalg.norm(just_inside(p, n) - margin, axis=1) < LIKE_MARGIN
    return float(np.mean(edge & like))


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


def _share_inside(a: np.ndarray, b: np.ndarray) -> float:
    area = cv2.contourArea(a.astype(np.float32))
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(inter) / area if area > 0 else 0.0


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
    (they lie apart, or nothing tells them apart). `lab`: the image in Lab (_lab), when at hand.

    Where the outlines overlap, the visible edge decides (edge_share); where they only meet (a
    lower card outlined as far as it shows), or the edges do not tell, the white margin along the
    line where they meet (shared_margin). Measured on rendered table scenes, true outlines moved by
    a pixel (bench/stack_order.py): of 400 pairs whose top card lies whole on the other, 348 told
    right and 2 wrong (the median contrast alone, as before: 328 and 20)."""
    a, b = np.asarray(a, np.float32).reshape(4, 2), np.asarray(b, np.float32).reshape(4, 2)
    if _share_inside(a, b) <= NESTED and _share_inside(b, a) <= NESTED:
        lab = _lab(image) if lab is None else lab
        sa, sb = edge_share(lab, a, b), edge_share(lab, b, a)
        if sa is not None and sb is not None:
            if sa >= ON_EDGE and sa - sb >= MARGIN:
                return True
            if sb >= ON_EDGE and sb - sa >= MARGIN:
                return False
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
    lab = _lab(image) if n > 1 else None
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
