"""Which of two overlapping card outlines lies on top: the occlusion test of a pile or a fan.

Where two cards overlap, the top card's sides run on across the card beneath as an edge (its
margin against the lower card's face), with the top card's own margin just inside; the lower
card's sides end where it goes under: inside the top card there is nothing along them but the top
card's face, which they cross here and there (its oval's edge) without the lower card's margin
inside. So each outline's sides are looked at where they lie inside the other outline, and the one
whose sides are its edge there lies on top. The tracker orders a fan by it (track/stack.py).
"""
from __future__ import annotations

import cv2
import numpy as np

from .quad import side_lengths

INSET = 0.1          # a side's stretch counts as inside the other outline this far in from its edge (a share of
                     # the other's short side, at least INSET_PX): beyond the other card's margin, whose own
                     # edge against its field crosses a side lying near it
INSET_PX = 3
REACH = (2, 5)       # pixels either side of a side where the colours across it are compared
SLACK = 2            # pixels an outline may lie off the card's true edge (the largest contrast within it)
MARGIN_PX = (1, 2, 3)  # pixels inside each place within SLACK where the card's margin is looked for
MIN_POINTS = 12      # pixels of side inside the other outline (and outside it) needed to judge it
EDGE_CONTRAST = 20   # a point of a side is on the card's edge where the colours across it differ by this
                     # much (8-bit Lab; a flat face shows 2-10 of noise and blur) ...
LIKE_MARGIN = 40     # ... and the colour just inside it is within this of the card's own margin elsewhere
                     # (where its sides lie outside the other): a lower card's side inside the top card
                     # crosses the top card's oval edge here and there, with the top card's face inside it
ON_EDGE = 0.5        # the top card's sides inside the other are on its edge at this share at least ...
MARGIN = 0.2         # ... and at this much more than the other's inside it
NESTED = 0.6         # an outline this much inside the other, and smaller than SMALLER of it, is a shape on
SMALLER = 0.8        # the card (its oval, its numeral), not a card on it: two cards of a size may overlap more


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """The picture in 8-bit CIE Lab as float32: colour differences about as the eye sees them."""
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


def _sides(quad: np.ndarray):
    """Each side of the quad as (its start corner, its vector, its outward unit normal)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    for k in range(4):
        a, d = q[k], q[(k + 1) % 4] - q[k]
        n = np.array([d[1], -d[0]], np.float32) / max(1e-6, float(np.hypot(*d)))
        if float((a + d / 2 - c) @ n) < 0:     # outward, whichever way the corners run
            n = -n
        yield a, d, n


def _side_points(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points one pixel apart along the quad's sides, and the outward normal at each."""
    pts, normals = [], []
    for a, d, n in _sides(quad):
        n_len = float(np.hypot(*d))
        if n_len < 1:
            continue
        t = np.arange(0.5, n_len, 1.0, dtype=np.float32) / n_len
        pts.append(a + t[:, None] * d)
        normals.append(np.repeat(n[None], len(t), axis=0))
    if not pts:
        return np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32)
    return np.concatenate(pts), np.concatenate(normals)


def _sample(lab: np.ndarray, pts: np.ndarray) -> np.ndarray:
    m = pts.astype(np.float32).reshape(-1, 1, 2)
    return cv2.remap(lab, m[..., 0], m[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).reshape(-1, 3)


def _across(lab: np.ndarray, pts: np.ndarray, normals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the colour difference across the side at each point, the card's margin just inside it).
    The difference: the largest within SLACK pixels of the point, each side averaged over REACH.
    The margin: of the colours over MARGIN_PX inside each of those places, the lightest (a card's
    margin is its paper; an outline a pixel or two inside the card's edge, on a margin a few pixels
    deep, would otherwise look at the field beyond it)."""
    best = np.zeros(len(pts), np.float32)
    margin = np.full((len(pts), 3), -1.0, np.float32)
    reach = range(REACH[0], REACH[1] + 1)
    for shift in range(-SLACK, SLACK + 1):
        p = pts + normals * shift
        within = {r: _sample(lab, p - normals * r) for r in {*reach, *MARGIN_PX}}   # each depth sampled once
        inner = np.mean([within[r] for r in reach], axis=0)
        outer = np.mean([_sample(lab, p + normals * r) for r in reach], axis=0)
        best = np.maximum(best, np.linalg.norm(inner - outer, axis=1))
        near = np.mean([within[r] for r in MARGIN_PX], axis=0)
        lighter = near[:, 0] > margin[:, 0]
        margin[lighter] = near[lighter]
    return best, margin


def _inside(quad: np.ndarray, pts: np.ndarray, inset: float) -> np.ndarray:
    """Which points lie inside the convex quad at least `inset` pixels from its sides."""
    depth = np.full(len(pts), np.inf, np.float32)
    for a, _, n in _sides(quad):
        depth = np.minimum(depth, (a - pts) @ n)
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

    _, own = _across(lab, pts[outside], normals[outside])
    margin = np.median(own, axis=0)
    contrast, colour = _across(lab, pts[inside], normals[inside])
    edge = contrast >= EDGE_CONTRAST
    like = np.linalg.norm(colour - margin, axis=1) < LIKE_MARGIN
    return float(np.mean(edge & like))


def share_inside(a: np.ndarray, b: np.ndarray) -> float:
    """The share of quad a's area that lies inside quad b."""
    area = cv2.contourArea(a.astype(np.float32))
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(inter) / area if area > 0 else 0.0


def nested(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether quad a is a shape on the card of quad b rather than a card of its own (NESTED)."""
    area_a, area_b = cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32))
    return share_inside(a, b) > NESTED and area_a < SMALLER * area_b


def edge_shares(bgr: np.ndarray, a: np.ndarray, b: np.ndarray,
                lab: np.ndarray | None = None) -> tuple[float, float] | None:
    """(edge_share of `a` inside `b`, of `b` inside `a`); None where the two do not overlap so that
    their edges can tell (one a shape on the other's card, or too little of either inside the
    other: outlines that only meet, or lie apart). `lab`: the picture in Lab (to_lab), when at hand."""
    a, b = np.asarray(a, np.float32).reshape(4, 2), np.asarray(b, np.float32).reshape(4, 2)
    if nested(a, b) or nested(b, a):
        return None
    lab = to_lab(bgr) if lab is None else lab
    sa, sb = edge_share(lab, a, b), edge_share(lab, b, a)
    return None if sa is None or sb is None else (sa, sb)


def upper(shares: tuple[float, float]) -> int | None:
    """0 or 1: which of two outlines with these edge_shares lies on top; None when they do not tell.
    Measured by bench/stack_order.py (docs/benchmarks.md)."""
    sa, sb = shares
    for k, (mine, theirs) in enumerate(((sa, sb), (sb, sa))):
        if mine >= ON_EDGE and mine - theirs >= MARGIN:
            return k
    return None

