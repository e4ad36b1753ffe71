"""Stage 1, sharpening: move each side of a rough card quad onto the card's own outer edge.

The detector's boxes are rectangles found at a coarse scale; a card seen in perspective, or held
close to the camera, is a trapezoid whose sides lie a few pixels off the box. Each side is searched
along short profiles across it: the card's edge is where the picture turns from the table (or a
hand, a sweater) to the card's white margin, going inwards. The outermost strong rise is taken,
so the margin's inner edge and the white oval's outline further in are never mistaken for it. A
line is fitted to each side's edge points robustly (a thumb over part of the edge gives outliers),
and the four lines meet in the new corners.
"""
from __future__ import annotations

import cv2
import numpy as np

from .quad import order_corners, side_lengths, side_off_picture

PROFILES = 24        # profiles across each side
REACH = 0.14         # how far a side may move, as a fraction of the card's short side, each way
MIN_RISE = 25.0      # grey levels between the margin and outside it, less its unevenness
SWEEP = True         # where the profiles find too few sides, search the missing ones as whole lines,
SWEEP_CLOSE = 0.2    # ... on a card held close: short side at least this share of the picture's
MIN_POINTS = 8       # edge points a side needs for its line
MARGIN = 0.035       # the band looked at inside an edge, as a fraction of the short side: within
                     # every print's white margin (5-10% of the card's width)
MIN_SIDES = 3        # sides whose edge must be found; the others keep the rough quad's side
CORNER_MOVE = 0.6    # how far the wide pass may move a corner of a card held close (short side at
                     # least CLOSE of the picture's), as a fraction of its short side: each side moves
                     # at most REACH, but a card tilted towards the camera is a trapezoid, and the
                     # corners of the rectangle round it lie far from the card's own. On a table seen
                     # from above, two REACHes (a pile's card below offers edges further out)
CLOSE = 0.15
OUTSIDE = 0.05       # ... and then no corner more than this share of the short side outside the box


def _profiles(grey: np.ndarray, sides: list[tuple[np.ndarray, np.ndarray, np.ndarray]], reach: float,
              band: float) -> tuple[np.ndarray, np.ndarray, int]:
    """Profiles across each side (a, b, inward) of `sides`, `reach` either way, sampled in one
    remap: (their sample points, S x PROFILES x D x 2; the score of an edge at each place,
    S x PROFILES x (D - 2m + 1): the rise from a band of m samples outside it into one inside it,
    less the inside band's unevenness; m). The edge at place k lies at sample k + m."""
    n = max(6, int(np.ceil(reach)))
    d = np.linspace(-reach, reach, 2 * n + 1, dtype=np.float32)
    step = float(d[1] - d[0])
    m = max(2, int(round(band / step)))                                     # samples in a margin band
    d = np.concatenate([d[0] - step * np.arange(m, 0, -1), d, d[-1] + step * np.arange(1, m + 1)])
    t = np.linspace(0.12, 0.88, PROFILES, dtype=np.float32)
    a = np.stack([s[0] for s in sides])[:, None, :]                         # S x 1 x 2
    b = np.stack([s[1] for s in sides])[:, None, :]
    inward = np.stack([s[2] for s in sides])[:, None, None, :]              # S x 1 x 1 x 2
    base = a + t[None, :, None] * (b - a)                                   # S x PROFILES x 2
    pts = base[:, :, None, :] + d[None, None, :, None] * inward             # S x PROFILES x D x 2
    flat = pts.reshape(-1, pts.shape[2], 2)
    vals = cv2.remap(grey, flat[..., 0].astype(np.float32), flat[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
    # windows of m samples just inside and just outside every candidate position
    win = np.lib.stride_tricks.sliding_window_view(vals, m, axis=1)         # S*PROFILES x (D-m+1) x m
    inside, outside = win[:, m:], win[:, :-m]
    score = inside.mean(axis=2) - outside.mean(axis=2) - inside.std(axis=2)
    return pts, score.reshape(len(sides), PROFILES, -1), m


def _rises(grey: np.ndarray, a: np.ndarray, b: np.ndarray, inward: np.ndarray, reach: float,
           band: float) -> tuple[np.ndarray, np.ndarray, int]:
    """_profiles of the one side a->b: (PROFILES x D x 2 points, PROFILES x (D - 2m + 1) scores, m)."""
    pts, score, m = _profiles(grey, [(a, b, inward)], reach, band)
    return pts[0], score[0], m


def _edge_points(pts: np.ndarray, score: np.ndarray, m: int) -> np.ndarray:
    """Edge points of one side from its profiles (_profiles' points and scores of that side): per
    profile, the outermost place where a bright, even band (the card's white margin) begins, with
    something darker outside it."""
    top = score.max(axis=1)
    first = np.argmax(score >= 0.7 * top[:, None], axis=1)                  # the outermost strong edge
    # ... and its peak: the first place from there on where the score stops rising
    falls = np.ones(score.shape, bool)
    falls[:, :-1] = score[:, 1:] <= score[:, :-1]
    falls &= np.arange(score.shape[1])[None, :] >= first[:, None]
    peak = np.argmax(falls, axis=1)
    keep = top >= MIN_RISE
    return pts[np.flatnonzero(keep), peak[keep] + m].astype(np.float32).reshape(-1, 2)


SWEEP_RISE = 10.0    # a side's edge found as a whole line (_side_sweep): its rise pooled along the side,
                     # less its unevenness, in grey levels; pooling over the side lets a faint edge (a card
                     # in shadow, on a pale or warm table) count where single profiles fall under MIN_RISE
SWEEP_KEEP = 0.6     # ... pooled over the best-kept share of its profiles (fingers over the rest),
SWEEP_CLIP = 3 * SWEEP_RISE   # ... each counting up to this rise: a few strong profiles (fingertips on the
                              # margin) do not make a line


def _side_sweep(grey: np.ndarray, a: np.ndarray, b: np.ndarray, inward: np.ndarray, reach: float,
                band: float) -> tuple[np.ndarray, np.ndarray] | None:
    """A side's edge as one straight line (point, direction), for a side whose profiles one by one
    found too few edge points: every line across the search band, its two ends anywhere within
    `reach` of the rough side, is scored by the rise into an even bright band along it, pooled over
    the best-kept SWEEP_KEEP of the profiles, each clipped at SWEEP_CLIP; the outermost line
    scoring at least 0.7 of the best (the white oval's ring further in may rise more), at its
    peak. None when no line rises SWEEP_RISE."""
    pts, score, m = _rises(grey, a, b, inward, reach, band)
    # no edge where a window reaches out of the picture: the frame's replicated rim would pass for one
    h, w = grey.shape[:2]
    out = ((pts[..., 0] < 0) | (pts[..., 0] > w - 1) | (pts[..., 1] < 0) | (pts[..., 1] > h - 1)).astype(np.int32)
    spans = np.lib.stride_tricks.sliding_window_view(out, 2 * m, axis=1).max(axis=2)
    score = np.where(spans > 0, -np.inf, score)
    k = score.shape[1]
    # every line from offset i at the first profile to offset j at the last
    i, j = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
    frac = np.linspace(0.0, 1.0, PROFILES, dtype=np.float32)
    at = np.rint(i[..., None] + (j - i)[..., None] * frac).astype(np.int64)     # K x K x PROFILES
    along = score[np.arange(PROFILES)[None, None, :], at]
    keep = max(1, int(round(SWEEP_KEEP * PROFILES)))
    pooled = np.sort(np.minimum(along, SWEEP_CLIP), axis=2)[..., -keep:].mean(axis=2)         # K x K
    top = float(pooled.max())
    if top < SWEEP_RISE:
        return None
    # the outermost strong line, by its mean offset, then on to the peak of that offset's best
    mean_off = i + j
    by_off = np.full(2 * k - 1, -np.inf, np.float32)
    np.maximum.at(by_off, mean_off.ravel(), pooled.ravel())
    first = int(np.argmax(by_off >= 0.7 * top))
    peak = first
    while peak + 1 < len(by_off) and by_off[peak + 1] > by_off[peak]:
        peak += 1
    cand = np.where(mean_off == peak, pooled, -np.inf)
    bi, bj = np.unravel_index(int(np.argmax(cand)), cand.shape)
    p0, p1 = pts[0, bi + m], pts[-1, bj + m]
    return p0.astype(np.float32), (p1 - p0).astype(np.float32)


def _line(points: np.ndarray, tol: float) -> tuple[np.ndarray, np.ndarray] | None:
    """A line (point, direction) through the edge points most of which agree (RANSAC: a thumb over
    part of the edge, or the table's texture, gives outliers), or None with too few that agree."""
    if len(points) < MIN_POINTS:
        return None
    rng = np.random.default_rng(0)    # deterministic: the same frame gives the same quad
    i, j = rng.integers(0, len(points), (2, 64))
    keep = i != j
    p, v = points[i[keep]], points[j[keep]] - points[i[keep]]
    norm = np.linalg.norm(v, axis=1, keepdims=True)
    normal = np.stack([-v[:, 1], v[:, 0]], axis=1) / np.maximum(norm, 1e-6)           # K x 2
    dist = np.abs(np.einsum("kd,nkd->nk", normal, points[:, None, :] - p[None, :, :]))  # N x K
    inl = dist < tol
    best = inl[:, int(inl.sum(axis=0).argmax())] if inl.size else None
    if best is None or best.sum() < MIN_POINTS:
        return None
    vx, vy, x0, y0 = cv2.fitLine(points[best], cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)


def _meet(l1, l2) -> np.ndarray | None:
    (p, v), (q, w) = l1, l2
    m = np.array([[v[0], -w[0]], [v[1], -w[1]]], np.float32)
    if abs(float(np.linalg.det(m))) < 1e-3:
        return None
    s = np.linalg.solve(m, q - p)
    return p + s[0] * v


def _snap_once(grey: np.ndarray, q: np.ndarray, reach_frac: float, corner_move: float,
               sweep: bool = False) -> np.ndarray | None:
    short = float(side_lengths(q).min())
    reach = reach_frac * short
    if reach < 2:
        return None
    tol = max(1.5, 0.012 * short)
    c = q.mean(axis=0)
    sides = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
        inward = np.array([-along[1], along[0]], np.float32)
        if float(inward @ (c - (a + b) / 2)) < 0:
            inward = -inward
        sides.append((a, b, inward))
    # the four sides' profiles in one remap: the same samples, a quarter of the calls
    pts, score, m = _profiles(grey, sides, reach, MARGIN * short)
    lines = []
    for i, (a, b, inward) in enumerate(sides):
        line = _line(_edge_points(pts[i], score[i], m), tol)
        if line is None and sweep:
            line = _side_sweep(grey, a, b, inward, reach, MARGIN * short)
        lines.append(line)
    found = sum(line is not None for line in lines)
    # a side out of the picture (a card held close, cut by the frame) has no edge to find: the
    # sides in view must be found, as many as MIN_SIDES asks of them
    off = sum(side_off_picture(q[i], q[(i + 1) % 4], grey.shape) for i in range(4))
    if found < max(2, MIN_SIDES - off):
        return None
    # a side whose edge is not found (a thumb along it, glare, a busy table just outside) keeps
    # the rough quad's side; verify_quad judges the result
    lines = [line if line is not None else (q[i], q[(i + 1) % 4] - q[i]) for i, line in enumerate(lines)]
    corners = [_meet(lines[i - 1], lines[i]) for i in range(4)]
    if any(p is None for p in corners):
        return None
    new = np.array(corners, np.float32)
    move = float(np.linalg.norm(new - q, axis=1).max())
    if move > max(2.0 * reach, corner_move * short):
        return None
    if move > 2.0 * reach:
        # far moves only inwards: a tilted card's corners lie inside the rectangle round it, while
        # on a pile the card below offers edges outside the box that would take it in
        box = q.reshape(-1, 1, 2)
        if min(cv2.pointPolygonTest(box, (float(x), float(y)), True) for x, y in new) < -OUTSIDE * short:
            return None
    return order_corners(new)


def snap_to_edges(bgr: np.ndarray, quad: np.ndarray, border=None, sweep: bool = False) -> np.ndarray | None:
    """The quad with its sides on the card's outer edge, or None when fewer than MIN_SIDES sides'
    edges are found or the corners would move implausibly far (then the rough quad is all there
    is); a side whose edge is not found keeps the rough quad's. A wide first pass catches a box
    turned a little wrong, or a tilted card's trapezoid inside it; a narrow second pass settles on
    the edge. `border`: a taught deck's border colour (border.py) when it is not white; its margin
    is looked for in the frame's likeness to it instead of in its grey levels. `sweep`: where the
    profiles find too few sides of a card held close, search them as whole lines (_side_sweep):
    for a card with no other card beside it, whose edges a swept line could take instead."""
    if border is None:
        grey = cv2.GaussianBlur(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), (3, 3), 0).astype(np.float32)
    else:
        grey = border.likeness(bgr)
    q = order_corners(quad)
    short = float(side_lengths(q).min()) / min(bgr.shape[:2])
    close = short >= CLOSE
    # the sides' edges from single profiles first; only where that fails, a side whose profiles
    # found too little is searched as a whole line (a faint edge: _side_sweep). Not the other way
    # round: where the profiles succeed, a side they missed keeps the rough quad's side, which
    # verify judges, while a line swept there may lie on the table's own texture. Only on a card
    # held close: its sides are long enough to pool a faint edge over, while a small card's box on
    # a patterned table (gingham) holds straight lines of the pattern as long as its sides
    got = _snap(grey, q, close)
    if got is not None or not (sweep and SWEEP) or short < SWEEP_CLOSE:
        return got
    return _snap(grey, q, close, sweep=True)


def _snap(grey: np.ndarray, q: np.ndarray, close: bool, sweep: bool = False) -> np.ndarray | None:
    """snap_to_edges' two passes; `sweep`: a side whose profiles fail is searched as a whole line."""
    for reach, move in ((REACH, CORNER_MOVE if close else 0.0), (REACH / 3, 0.0)):
        got = _snap_once(grey, q, reach, move, sweep)
        if got is None:
            return None if reach == REACH else q
        q = got
    return q


TURN_RING = (0.7, 1.2)   # the ring round a box whose edges give the card's orientation, as scales of the box
TURN_MIN = 3.0           # degrees: a box this close to the edges' orientation is not turned


def edge_orientation(grey: np.ndarray, box: np.ndarray) -> float | None:
    """The dominant orientation (degrees, modulo 90) of the edges in a ring round a box's outline:
    a card's four sides are its longest straight edges there, two pairs at right angles (about, in
    perspective); the oval and the numeral lie inside the ring, the table's own lines are shorter
    or fainter. None when the ring holds no edges at all."""
    h, w = grey.shape[:2]
    c = box.mean(axis=0)
    outer, inner = (c + (box - c) * s for s in (TURN_RING[1], TURN_RING[0]))
    x0, y0 = np.floor(outer.min(0)).astype(int).clip(0, [w - 1, h - 1])
    x1, y1 = np.ceil(outer.max(0)).astype(int).clip(1, [w, h])
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    crop = grey[y0:y1, x0:x1]
    gx, gy = cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3)
    ring = np.zeros(crop.shape, np.uint8)
    off = np.array([x0, y0], np.float32)
    cv2.fillPoly(ring, [np.round(outer - off).astype(np.int32)], 1)
    cv2.fillPoly(ring, [np.round(inner - off).astype(np.int32)], 0)
    mag = np.hypot(gx, gy) * ring
    if not mag.any():
        return None
    ang = np.round(np.degrees(np.arctan2(gy, gx))).astype(np.int64) % 90
    hist = np.bincount(ang.ravel(), weights=mag.ravel(), minlength=90)
    hist = np.convolve(np.r_[hist[-2:], hist, hist[:2]], np.ones(5) / 5, mode="valid")   # circular, 5 degrees
    return float(np.argmax(hist))


def _off(degrees: float, quad: np.ndarray) -> float:
    """How far (degrees, -45..45) an orientation lies from a quad's first side's."""
    d = quad[1] - quad[0]
    return (degrees - float(np.degrees(np.arctan2(d[1], d[0]))) + 45.0) % 90.0 - 45.0


def turn_to_edges(bgr: np.ndarray, box: np.ndarray, outline: np.ndarray | None = None) -> np.ndarray | None:
    """The box turned about its centre to the orientation of the edges round it, or None when it
    (or `outline`, an outline of the card already found from it) already lies within TURN_MIN
    degrees of it. The detector's angle is coarse on a card held close
    (a median 7 degrees off on the transplanted close-ups, a fifth of them 15 or more), too far for
    the snap's profiles to reach the far ends of a side; the edges round the box tell the angle to
    within about 2 degrees."""
    grey = cv2.GaussianBlur(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), (3, 3), 0).astype(np.float32)
    q = order_corners(box)
    found = edge_orientation(grey, q)
    if found is None:
        return None
    if outline is not None and abs(_off(found, order_corners(outline))) < TURN_MIN:
        return None
    turn = _off(found, q)
    if abs(turn) < TURN_MIN:
        return None
    t = np.radians(turn)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    c = q.mean(axis=0)
    return order_corners((q - c) @ rot.T + c)
