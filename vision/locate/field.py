"""Stage 1, another way to the outline: from the card's coloured field inwards of its white margin.

On a pile, the top card's outer edge often has no contrast: its white margin lies on the white
margin of the card below, and the detector's box, a rectangle a few pixels off, fails the white
margin test. The coloured field inside the margin is another matter: it is the card's largest
non-white region, and the card's own margin cuts it off from everything around. Its outline,
pushed out by the margin's width, is the card's outer edge. The result is one more candidate for
verify_quad, which decides as for any other.

The field is the pixels of its own colour, not all that is not white: a thumb over a card held
close joins the field's halves (split by the white oval) to each other and to the table, and its
outline went with them. The same holds for a card on a pale desk whose margin has no edge to snap
to, where the field is the one clear outline.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..quantile import percentile

from .contour import _quad_from_contour, whiteness_mask
from .quad import corner_angles, order_corners, side_lengths

PAD = 0.2            # crop margin round the box, a fraction of its size
MARGIN_FRAC = 0.085  # the white margin's width as a fraction of the field's width (prints: 0.055-0.125)
MIN_FIELD = 0.35     # the field's area at least this share of the box's
MIN_INSIDE = 0.8     # a region counts as the field's when this share of it lies inside the box
AREA_RANGE = (0.7, 1.4)  # the outline's area against the box's
BORDER_LEAST = 0.5   # ... from this share with a taught border not white: the detector's box round a black-
                     # edged card may take in its shadow (stage 4's, white edges only: 0.76 of it the card);
                     # an outline round a shape inside the card has the card's face, not its border, round it
ONE_COLOUR = True    # the field as the pixels of its own colour, not all that is not white: a thumb
                     # or a hand over the card joins the field's halves to itself and to the
                     # table beyond, and takes the field's outline with it
FIELD_CHROMA = 18.0  # the field's colour counts as one (a suit's) from this chroma (Lab a*b*, 8-bit
                     # units); below it (a wild's black, a washed-out card) every non-white pixel counts
NEAR_CHROMA = 28.0   # a pixel of the field's colour: its chroma this near the field's median
MAIN_COLOUR = True   # where the median of what is not white is grey: the field's colour from its commonest
MAIN_BIN = 6.0       # colour (histogram bins of this many units), when MAIN_SHARE of those pixels lie
MAIN_SHARE = 0.4     # within NEAR_CHROMA of it (fingers and a black outline over a dark green field)
SHADED = True        # where the pixels not white are mostly grey (a shadow over card and desk: their
SHADED_BELOW = 36.0  # median's chroma under this, twice FIELD_CHROMA, where NEAR_CHROMA takes in grey),
SHADED_SHARE = 0.25  # the field's colour from the coloured ones, when they are this share of them
SHADED_ONE = 0.7     # and this share of those lies near their median hue (one colour, not a wild's four)
SHADED_HUE = 20.0    # ... within this many degrees of hue (Lab a*b* angle)
SHADED_MIX = 1.5     # ... and they are this many times as colourful as all that is not white
# With the field of one colour (the table, another colour, is left out of it):
MIN_INSIDE_ONE = 0.3 # a region of it counts from this share inside the box, the regions kept at least
MIN_INSIDE_ALL = 0.6 # this share inside it together (a box off the card leaves part of the field
                     # outside it; 0.8 until session 22: a box 15 degrees askew lost its field)
FIT = True          # the field's quad refitted to its outline's sides (_fit_sides) ...
FIT_SPAN = (0.15, 0.85)   # ... from the pixels along this part of each side
FIT_NEAR = (0.08, 0.02)   # ... within this share of its length of it, then of the line first fitted
FIT_MOVE = 0.15     # ... no corner moved more than this share of the short side
MIN_ANGLE = 55.0     # no corner of the outline sharper than this, degrees, and
BEYOND = 0.04        # just outside the outline (this share of its short side out), along each side,
FIELD_BEYOND = 0.5   # at most this share of the field's colour: a card's field ends at its margin


def _sides(quad: np.ndarray):
    """Each side of the quad as (start, end, unit direction, unit normal pointing out of the quad)."""
    c = quad.mean(axis=0)
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        d = (b - a) / max(1e-6, float(np.linalg.norm(b - a)))
        n = np.array([-d[1], d[0]], np.float32)
        yield a, b, d, (n if np.dot(n, a - c) >= 0 else -n)


def _fit_sides(quad: np.ndarray, edge: np.ndarray) -> np.ndarray:
    """The quad with each side refitted as a line through the outline's pixels `edge` (N x 2)
    along its middle (FIT_SPAN), near it (FIT_NEAR of its length): the field's corners are rounded,
    and a polygon through its hull cuts them, drawing every side a little in (measured on a
    black-edged print: the pushed-out outline 0.89 of the card's IoU). A side with too few pixels
    along it (a thumb over it) keeps its place."""
    pts = edge.astype(np.float32)
    lines = []
    for a, b, d, n in _sides(quad):
        length = float(np.linalg.norm(b - a))
        line = (a, d)
        # twice: near the polygon's side (askew of the true one where it cut two corners unevenly),
        # then near the line fitted to that
        for near in FIT_NEAR:
            p0, u = line
            rel = pts - p0
            along, off = rel @ u, rel @ np.array([-u[1], u[0]], np.float32)
            start = float((a - p0) @ u)
            sel = ((along - start > FIT_SPAN[0] * length) & (along - start < FIT_SPAN[1] * length)
                   & (np.abs(off) < max(2.0, near * length)))
            if int(sel.sum()) < max(6, 0.3 * (FIT_SPAN[1] - FIT_SPAN[0]) * length):
                break
            vx, vy, x0, y0 = cv2.fitLine(pts[sel].reshape(-1, 1, 2), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            direction = np.array([vx, vy], np.float32)
            line = (np.array([x0, y0], np.float32), direction if direction @ d >= 0 else -direction)
        lines.append(line)
    got = _corners(lines)
    # a refit that moves a corner far has followed something else (a thumb's edge): the quad as it was
    if got is None or float(np.abs(got - quad).max()) > FIT_MOVE * float(side_lengths(quad).min()):
        return quad
    return got


def _corners(lines: list) -> np.ndarray | None:
    """The quad whose sides lie on `lines` (four (point, direction) pairs, in order round it): each
    corner where neighbouring lines meet; None where two of them are parallel."""
    out = []
    for k in range(4):
        (p1, d1), (p2, d2) = lines[k - 1], lines[k]
        A = np.array([d1, -d2], np.float64).T
        if abs(np.linalg.det(A)) < 1e-6:
            return None
        t = np.linalg.solve(A, (p2 - p1).astype(np.float64))
        out.append(p1 + d1 * t[0])
    return np.array(out, np.float32)


def card_round(field: np.ndarray, depth: float = 0.0) -> np.ndarray:
    """The card's outer quad round its field's quad `field`: pushed out by the margin, `depth` of
    the card's short side (a taught border's, border.py), else MARGIN_FRAC of the field's."""
    push = depth / max(1.0 - 2.0 * depth, 0.5) if depth > 0 else MARGIN_FRAC
    return _push_out(field, push * float(side_lengths(field).min()))


def _push_out(quad: np.ndarray, dist: float) -> np.ndarray:
    """The quad with every side moved outwards by `dist` pixels (sides as lines, corners where
    neighbouring lines meet)."""
    got = _corners([(a + n * dist, d) for a, _, d, n in _sides(quad)])
    return quad if got is None else got


def _of_field_colour(crop: np.ndarray, field: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(bool mask of the crop's pixels of the field's colour: chroma within NEAR_CHROMA of the
    median chroma of `field` (the pixels that are not white inside the box: mostly the field), the
    same or dark (the numeral's outline and shadow)). None when the field's colour is no colour (a
    wild's black field, a card washed out). Where most of `field` is grey, see _shaded_field."""
    if field.sum() < 16:
        return None
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab).astype(np.float32)
    ab = lab[..., 1:] - 128.0
    dark = lab[..., 0] < 0.25 * percentile(lab[..., 0], 99)
    centre = np.median(ab[field], axis=0)
    chroma = float(np.hypot(*centre))
    if SHADED and chroma < SHADED_BELOW:
        # mostly grey, or a colour too weak to tell a grey from it by distance: see _shaded_field
        near = _shaded_field(ab, field, chroma)
        if near is not None:
            return near, near | dark
    if chroma < FIELD_CHROMA:
        # the median is grey, but one colour may still hold most of the field: fingers over a
        # dark green field, with the numeral's black outline, pull the median to grey
        centre = _main_colour(ab[field]) if MAIN_COLOUR else None
        if centre is None:
            return None
    near = np.hypot(ab[..., 0] - centre[0], ab[..., 1] - centre[1]) <= NEAR_CHROMA
    return near, near | dark


def _main_colour(ab: np.ndarray) -> np.ndarray | None:
    """The median colour (Lab a*b*, N x 2) of the pixels within NEAR_CHROMA of the commonest
    colour of at least FIELD_CHROMA among `ab`, when they are MAIN_SHARE of them; else None (a
    wild's black with four colours about it, a card washed out)."""
    n = int(256 // MAIN_BIN)
    bins = np.clip(((ab + 128.0) // MAIN_BIN).astype(np.int32), 0, n - 1)
    hist = np.bincount(bins[:, 0] * n + bins[:, 1], minlength=n * n).reshape(n, n).astype(np.float32)
    hist = cv2.blur(hist, (3, 3), borderType=cv2.BORDER_CONSTANT)
    mid = (np.arange(n) + 0.5) * MAIN_BIN - 128.0
    hist[np.hypot(mid[:, None], mid[None, :]) < FIELD_CHROMA] = 0.0    # greys and blacks are no field's colour
    if hist.max() <= 0:
        return None
    i, j = np.unravel_index(int(hist.argmax()), hist.shape)
    near = np.hypot(ab[:, 0] - mid[i], ab[:, 1] - mid[j]) <= NEAR_CHROMA
    if near.mean() < MAIN_SHARE:
        return None
    centre = np.median(ab[near], axis=0)
    return centre if float(np.hypot(*centre)) >= FIELD_CHROMA else None


def _shaded_field(ab: np.ndarray, field: np.ndarray, chroma_all: float) -> np.ndarray | None:
    """The field's colour where the pixels not white inside the box (`field`) are mostly grey: a
    shadow across a card on a pale desk greys the desk and the card's margin alike, and the grey
    outnumbers the field. The shadow keeps the field's hue but not its chroma (a yellow field 80-120
    units lit, 50-60 shaded), so the field is the coloured pixels (FIELD_CHROMA) within SHADED_HUE
    degrees of hue of their median; found when they are SHADED_SHARE of `field`, SHADED_ONE of
    them are of that hue (one colour, not a wild's four), and they are SHADED_MIX times as colourful
    as `field` as a whole (`chroma_all`, its median's chroma): grey mixed in, not a field of weak
    colour throughout (a dark green), which the distance to its own median outlines better. A mask
    of the crop, or None."""
    chroma = np.hypot(ab[..., 0], ab[..., 1])
    hue = np.degrees(np.arctan2(ab[..., 1], ab[..., 0]))
    coloured = (chroma >= FIELD_CHROMA) & field
    if int(coloured.sum()) < SHADED_SHARE * int(field.sum()):
        return None
    vivid = np.median(ab[coloured], axis=0)
    if float(np.hypot(*vivid)) < SHADED_MIX * chroma_all:
        return None
    # the median hue about the direction of the median colour: hue is an angle
    mean = np.degrees(np.arctan2(vivid[1], vivid[0]))
    centre = mean + float(np.median((hue[coloured] - mean + 180.0) % 360.0 - 180.0))
    near = (np.abs((hue - centre + 180.0) % 360.0 - 180.0) <= SHADED_HUE) & (chroma >= FIELD_CHROMA)
    return near if float(near[coloured].mean()) >= SHADED_ONE else None


def _field_beyond(field: np.ndarray, quad: np.ndarray, offset: float) -> float:
    """The largest share, over the quad's four sides, of points just outside the side (`offset`
    pixels out) that lie on `field` (crop coordinates; points off the crop count as not)."""
    t = np.linspace(0.1, 0.9, 24, dtype=np.float32)[:, None]
    worst = 0.0
    for a, b, _, n in _sides(quad):
        p = np.round(a + t * (b - a) + offset * n).astype(int)
        ok = (p[:, 0] >= 0) & (p[:, 1] >= 0) & (p[:, 0] < field.shape[1]) & (p[:, 1] < field.shape[0])
        on = np.zeros(len(p), bool)
        on[ok] = field[p[ok, 1], p[ok, 0]] > 0
        worst = max(worst, float(on.mean()))
    return worst


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
    inside = np.zeros(margin.shape, np.uint8)
    shrunk = c + (box - c) * 0.97 - np.array([x0, y0], np.float32)
    cv2.fillPoly(inside, [np.round(shrunk).astype(np.int32)], 1)
    not_white = margin == 0
    colour = _of_field_colour(crop, not_white & (inside > 0)) if ONE_COLOUR and border is None else None
    one = None if colour is None else colour[1]
    if one is not None:
        own = not_white & colour[0]     # of the field's colour itself, not dark (see _field_beyond below)
        not_white &= one
    field = cv2.morphologyEx(not_white.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(field, connectivity=4)
    box_area = max(1.0, cv2.contourArea(box))
    keep = np.zeros(n, bool)
    for k in range(1, n):
        area = stats[k, cv2.CC_STAT_AREA]
        if area < 0.02 * box_area:
            continue
        share = float(inside[labels == k].mean())
        keep[k] = share >= (MIN_INSIDE if one is None else MIN_INSIDE_ONE)
    if not keep.any():
        return None
    mask = keep[labels].astype(np.uint8) * 255
    if one is not None and float(inside[mask > 0].mean()) < MIN_INSIDE_ALL:
        return None
    if int(stats[keep, cv2.CC_STAT_AREA].sum()) < MIN_FIELD * box_area * 0.5:
        return None
    # the hull of the field's outer boundaries, the same as that of all its pixels from far fewer
    # points; taken in the pixels' row order, so that it starts where that one does
    edge = np.concatenate(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]).reshape(-1, 2)
    hull = cv2.convexHull(edge[np.lexsort((edge[:, 0], edge[:, 1]))].reshape(-1, 1, 2))
    if cv2.contourArea(hull) < MIN_FIELD * box_area:
        return None
    got = _quad_from_contour(hull)
    if got is None:
        return None
    q = order_corners(got[0])
    if FIT:
        q = order_corners(_fit_sides(q, edge))
    q = q + np.array([x0, y0], np.float32)
    q = order_corners(card_round(q, getattr(border, "depth", 0.0)))
    if one is not None and float(corner_angles(q).min()) < MIN_ANGLE:
        # a card's corners, even at a 45-degree slant, are far from this sharp: the field's hull
        # lost a part of the field (joined to the table or a hand of its colour) and cuts the card
        return None
    # judged by the field's own colour, not the dark pixels counted with it: on a dark table all
    # round the card is as dark as a numeral's outline
    own = cv2.morphologyEx(own.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) if one is not None else None
    if one is not None and _field_beyond(own, q - np.array([x0, y0], np.float32),
                                         BEYOND * float(side_lengths(q).min())) > FIELD_BEYOND:
        # the field's colour goes on outside a side: a part of the field joined to the table or
        # to a hand of its colour was dropped (or the box cut it off), and the outline cuts the card
        return None
    # the detector's box is roughly the card: an outline far smaller is a shape inside the card (a
    # box round the white oval gives the numeral's own colour as a "field")
    least = AREA_RANGE[0] if border is None else BORDER_LEAST
    if not least <= cv2.contourArea(q) / box_area <= AREA_RANGE[1]:
        return None
    return q
