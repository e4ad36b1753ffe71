"""Where a card that the picture cuts at both ends ends.

A card held close enough to fill the picture upright runs off it at both ends: its two long sides
are found (snapped onto their edges and verified), but its two short sides lie out of the picture,
where the detector's box put them, often too close together and not centred on the card. Read
so, the warp squashes the face and puts its symbol out of its place. to_card_shape (quad.py)
grows a card cut at one end from the end in view; here neither end is in view, and what places
the card is the one end of its coloured field that is: past it, the white end margin runs to the
picture's edge. The margin is as deep as the long sides' (every print's border is even), so the
card's end lies that deep past the field's end, and its other end a card's length away.

An outline may also pass for cut at both ends while one end is in view, just inside the picture's
edge: its short side snapped beyond the picture onto nothing. Past the end margin there the long
sides' margin stops too (the table): the card ends there, and is placed from that end.

Where no end is in view (the picture cuts both ends deep into the face), the card is placed
centred on the part in view, at a card's proportions: the middle of what can be seen is the best
guess there is, and a card of the right shape reads better than a squashed one.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..quantile import percentile
from ..rectify.warp import portrait_corners

from .quad import CARD_ASPECT, order_corners, side_cut

STRIP_W = 48          # samples across the card (between its long sides) in the strip looked at
ROW_PX = 2.0          # ... and a row every this many pixels along it
REACH = 0.8           # the strip runs this share of the outline's length beyond each of its ends
MARGIN_ROW = 0.9      # a row across the end margin: at least this share of it white
DEEPEST = 1.6         # a white band at the picture's edge is the end margin when no deeper than this
                      # many times the long sides' margin (deeper: a white shape on the face, cut)
MARGIN_REACH = 0.2    # the long sides' margin is looked for this share of the width in from each side,
SIDE_START = 3        # ... a run of white starting within this many columns of the side,
SHALLOWEST = 1.0      # ... at least this many columns deep (prints: 2.5-6)
SHALLOWEST_END = 0.5  # a margin ending on the table in view: at least this share of the long sides' depth
TABLE_ROW = 0.3       # a row past the card's end: under this share of it white, its sides' margin too
BLURRED_ROWS = 1      # rows between the end margin and the table that may be neither (a blurred edge)
EDGE_ROWS = 2         # a band with no more rows than this in view past it runs to the picture's edge
FADE_ROWS = 8         # ... as does one with no more than this, each still at least FADE_ROW white: the margin's
FADE_ROW = 0.6        # rounded corners and blurred edge at the picture's edge, not the face again (a
                      # hand-held card cut at both ends, its end margin ending 4 rows short of the picture's
                      # edge at 0.8-0.9 white, was placed as if no end were in view: 110 pixels off, a 7 read
                      # as a +2; sweep on the hand-held print, seed 17171)
FIT = 0.15            # two ends found: taken when their distance is within this share of a card's length


def _paper_white(strip: np.ndarray, margin_cols: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """White pixels of the strip: bright against the paper of the long sides' margin in view, and
    unsaturated against it (a lamp's cast tints the paper too)."""
    hsv = cv2.cvtColor(strip, cv2.COLOR_BGR2HSV)
    s, v = hsv[..., 1].astype(np.float32), hsv[..., 2].astype(np.float32)
    paper_v = v[seen][:, margin_cols]
    paper_s = s[seen][:, margin_cols]
    level = max(percentile(paper_v, 90), 40.0)
    cast = percentile(paper_s, 30)
    return (v >= 0.7 * level) & (s <= min(cast + 60.0, 140.0))


def _side_depth(white: np.ndarray, seen: np.ndarray) -> float:
    """The long sides' margin depth, in strip columns: per row in view and per side, the run of
    white columns that starts within SIDE_START columns of the side (an outline a pixel or two off
    the card's edge starts on table or on the margin); the median over rows and sides (a thumb or
    the oval's tip touching the margin moves a few rows only). 0 where no run starts there."""
    reach = int(round(MARGIN_REACH * STRIP_W))
    rows = white[seen]
    if len(rows) == 0:
        return 0.0
    depths = []
    for side in (rows[:, :reach], rows[:, ::-1][:, :reach]):
        start = np.argmax(side[:, :SIDE_START], axis=1)                 # the first white column near the side
        starts = side[:, :SIDE_START].any(axis=1)
        after = np.arange(reach)[None, :] >= start[:, None]
        dark = ~side & after                                            # not white, from the run's start on
        end = np.where(dark.any(axis=1), np.argmax(dark, axis=1), reach)
        depths.append(np.where(starts, end - start, 0))
    return float(np.median(np.concatenate(depths)))


def _end_from_field(white_rows: np.ndarray, table_rows: np.ndarray, seen: np.ndarray, start: int,
                    step: int, pale_rows: np.ndarray) -> tuple[int, int, bool] | None:
    """The end margin met walking from row `start` by `step` (+1 or -1): (its first row, its last
    row, whether it runs to the picture's edge; else the table follows it, and the card's end is
    in view). None when the walk meets no margin before the picture's edge, or a white band that
    gives way to face again (a white shape on the face, not its margin). `pale_rows`: rows at least
    FADE_ROW white (FADE_ROWS)."""
    n = len(white_rows)
    i = start
    while 0 <= i < n and seen[i] and not white_rows[i]:
        i += step
    if not (0 <= i < n and seen[i]):
        return None                                    # the field runs off the picture
    first = i
    while 0 <= i < n and seen[i] and white_rows[i]:
        i += step
    left = 0                                           # rows in view past the band
    while 0 <= i + left * step < n and seen[i + left * step]:
        left += 1
    if left <= EDGE_ROWS:                              # (a sliver at the picture's edge, blurred: ambiguous)
        return first, i - step, True
    if left <= FADE_ROWS and all(pale_rows[i + k * step] for k in range(left)):
        return first, i - step, True                   # (the margin fading out at the picture's edge)
    if any(table_rows[i + k * step] for k in range(min(BLURRED_ROWS + 1, left))):
        return first, i - step, False                  # (past a row or two blurred between margin and table)
    return None                                        # white, then face again


def place_ends(bgr: np.ndarray, quad: np.ndarray, card_aspect: float = CARD_ASPECT) -> np.ndarray:
    """The quad of a card whose two short sides lie out of the picture, its ends placed from the
    end of its field in view (see the module docstring); `quad` itself when the picture does not
    cut it at both ends. `card_aspect`: the cards' long side over their short side."""
    h, w = bgr.shape[:2]
    q = portrait_corners(order_corners(quad))          # q0 -> q1 a short side, q1 -> q2 a long one
    if not (side_cut(q[0], q[1], bgr.shape) and side_cut(q[2], q[3], bgr.shape)):
        return quad
    width = 0.5 * float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3]))
    length = 0.5 * float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1]))
    if width < 8 or length < 8:
        return quad
    # the strip: rows along the card (t, in the outline's lengths from its q0 q1 end), columns across
    n = max(8, int(length * (1 + 2 * REACH) / ROW_PX))
    t = np.linspace(-REACH, 1 + REACH, n, dtype=np.float32)
    s = np.linspace(0.0, 1.0, STRIP_W, dtype=np.float32)
    left = q[0][None, :] + t[:, None] * (q[3] - q[0])[None, :]
    right = q[1][None, :] + t[:, None] * (q[2] - q[1])[None, :]
    pts = left[:, None, :] + s[None, :, None] * (right - left)[:, None, :]
    mx, my = np.ascontiguousarray(pts[..., 0]), np.ascontiguousarray(pts[..., 1])
    inside = (mx >= 0) & (mx <= w - 1) & (my >= 0) & (my <= h - 1)
    seen = inside.all(axis=1)
    if seen.sum() < 8:
        return quad
    strip = cv2.remap(bgr, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    reach = int(round(MARGIN_REACH * STRIP_W))
    white = _paper_white(strip, np.r_[0:reach // 2, STRIP_W - reach // 2:STRIP_W], seen)
    depth_cols = _side_depth(white, seen)
    if depth_cols < SHALLOWEST or depth_cols >= reach:
        return quad                                    # no even margin along the long sides to go by
    white_rows = white.mean(axis=1) >= MARGIN_ROW
    pale_rows = white.mean(axis=1) >= FADE_ROW
    # past a card's end: its long sides' margin gone too (the table), not only its face
    m = int(np.ceil(depth_cols)) + 1
    table_rows = white[:, np.r_[0:m, STRIP_W - m:STRIP_W]].mean(axis=1) < TABLE_ROW
    rows_seen = np.flatnonzero(seen)
    middle = int(rows_seen[len(rows_seen) // 2])
    depth_t = depth_cols / STRIP_W * width / length    # the end margin's depth, in t
    row_t = float(t[1] - t[0])
    card_t = width * card_aspect / length              # a card's length, in t
    ends = {}
    for step in (-1, 1):
        got = _end_from_field(white_rows, table_rows, seen, middle, step, pale_rows)
        if got is None:
            continue
        first, last, to_edge = got
        band = (abs(last - first) + 1) * row_t
        if band > DEEPEST * depth_t or (not to_edge and band < SHALLOWEST_END * depth_t):
            continue                                   # too deep, or too thin, for the margin
        if to_edge:   # the field ends half a row before the band's first row; the card a margin's depth past it
            ends[step] = float(t[first]) - step * 0.5 * row_t + step * depth_t
        else:         # the card ends half a row past the band's last row, in view
            ends[step] = float(t[last]) + step * 0.5 * row_t
    if len(ends) == 2:
        if abs((ends[1] - ends[-1]) - card_t) > FIT * card_t:
            return quad
        top, bottom = ends[-1], ends[1]
    elif ends:
        step, end = next(iter(ends.items()))
        top, bottom = (end, end + card_t) if step < 0 else (end - card_t, end)
    else:
        centre = 0.5 * (float(t[rows_seen.min()]) + float(t[rows_seen.max()]))
        top, bottom = centre - card_t / 2, centre + card_t / 2
    a, b = q[0] + top * (q[3] - q[0]), q[1] + top * (q[2] - q[1])
    c, d = q[1] + bottom * (q[2] - q[1]), q[0] + bottom * (q[3] - q[0])
    return np.float32([a, b, c, d])
