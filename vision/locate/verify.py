"""Stage 1, last step: is a located quadrilateral really a whole card's outer edge?

A locator can land on a card's inner oval or circle, on one corner of it, on two cards at once,
or on a bright patch of the table; whatever is read from such a warp is a guess. Every card we
know (all UNO prints, our printed decks) has a white margin all round a face that is not white,
in card proportions. So before anything is read, the warped quad must show:

- a plausible shape: the mean long side over the mean short side between what a card seen at up
  to about 45 degrees of tilt can give (1.55 / cos 45 = 2.2 one way, 1.55 * cos 45 = 1.1 the other);
- a white margin on most of its four sides: a thumb or another card may cover part of one or
  two sides (up to about 40% of the edge), so the two best-kept sides must be clearly white and
  the margin as a whole mostly white;
- a face that is not white all over inside the margin: a quadrilateral around a white oval is
  white inside; on a commercial print, a face in colour (or black, a wild): a patch of sweater or
  paper that passes for margin shows none;
- most of it in the picture: a card held close may run off it by a corner or an edge (about a
  third, like a thumb over it), and the sides in view carry the margin test.

The result is a score in 0..1 (the recognizer scales its confidence by it) and a reason when it
fails, for the camera view and `identify`'s messages.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ..quantile import percentile
from .border import Border, bottomless_sides, deep_sides, side_depths, side_runs
from .quad import CARD_ASPECT, aspect, inside_share, side_lengths, side_off_picture



@dataclass(frozen=True)
class CardLook:
    """What a deck's cards look like to verify_quad (and to the detector's outlines, which it
    judges): every built-in print has an even white margin round a coloured or black face."""
    even_border: bool = True         # a commercial print: the border as wide all along, the face
                                     # coloured or black (MIN_FACE); False for decks printed at home
                                     # and cut by hand, whose short sides' depths and face are not judged
    border: Border | None = None     # a taught deck's border colour when it is not white (border.py):
                                     # its margin is looked for instead, the face not judged on colour
    white_faces: bool = False        # a taught deck drawn on white card stock, white inside as well
                                     # as round (MAX_INNER_WHITE_FACES), no margin depth to measure
    aspect: float = CARD_ASPECT      # its cards' long side over their short side: a taught deck of
                                     # square or long cards (vision/teach/shape.py) is looked for so


PRINTED = CardLook()                 # the built-in decks' UNO prints

VERIFY_W, VERIFY_H = 64, 100   # the warp this check looks at: enough for a margin of 3-6 pixels
ASPECT_RANGE = (1.05, 2.4)     # long/short sides of a card quad at up to ~45 degrees of tilt (aspect_range)
BAND = (0.012, 0.05)           # the margin band looked at, as fractions of the card's width in
                               # from its edge: inside every print's border (5-10% of the width)
BAND_SHIFTS = 3                # pixels of the warp by which each side's band may move inwards: an outline
                               # a little outside the card (a blurred edge, the card's thickness seen at a
                               # slant, a box from a coarse look) still finds the margin just inside it
SHIFT_GAIN = 0.15              # ... for at least this much more white than where it was, and to a
SHIFT_ALONG = 0.25             # margin this white in each third of the side: the band just inside an
                               # outline round a card's white oval or circle touches white only mid-side
SHIFT_COST = 0.04              # the score lost per pixel the bands moved on average: a snapped outline
                               # beats a rough box round the same card, and a rough box is not settled
MIN_SIDE = 0.55                # each of the two best sides: at least this share of white pixels
MIN_MARGIN = 0.45              # the whole band: at least this share white (thumbs allowed)
SMALL_PX, SHARP_PX = 40.0, 100.0   # card short sides (pixels) between which the margin is judged
MIN_SIDE_SMALL, MIN_MARGIN_SMALL = 0.3, 0.25   # ... from these shares (small) to the above (sharp)
MAX_INNER_WHITE = 0.85         # more white inside than this: the quad is round a white shape (a card with a
                               # big white oval and a thin symbol, a 5 or a skip, has 0.78-0.83 inside)
MAX_INNER_WHITE_FACES = 0.98   # ... on a deck whose faces are white (drawn on white card stock: a marker's
                               # numeral leaves 0.87-0.92 white inside): only a blank is refused
EVEN_ALONG = True              # a margin band's evenness judged along its side (and one pixel across), not in 5x5
EVEN = 0.08                    # a margin pixel within this share of the paper's brightness of its surround
RING = 0.06                    # the outer ring of the warp where a card's margin lies, as a share of its width
RING_CAST = True               # an outline white inside looked at again with the colour cast measured no
                               # higher than on the outer ring (_white, verify_quad)
INK_BAR = True                 # an outline still white inside looked at again with "unsaturated" measured
INK_GAP, INK_SHARE = 20.0, 0.5  # against its inks: at most this far above the cast, or this share of the way to
                               # the warp's most saturated tenth (_white, verify_quad)
GLARE_FLOOR = 0.6              # the paper is at least this share of the warp's brightest (glare allowed for)
SIDE_FLOOR = 0.6               # a side's margin against its own paper, at least this share of the warp's brightest
SHADE_FLOOR = 0.5              # ... and, stretch by stretch along it, against the paper of that stretch, at least
                               # this share: a shadow across the card (a hand, a phone) leaves its margin there
                               # at 0.45-0.6 of the lit paper. 0.4 let an outline running past the card onto a
                               # blurred finger and a dark desk verify (transplant seed 5757: its colour read wrong)
SHADE_WINDOW, SHADE_PART = 0.2, 0.75   # a stretch: this share of the side; its paper: this quantile of its brightest
SHADE_DEPTH = 0.2              # ... brightest across this share of the card's width in from its edge
DEPTH_MAX = 0.16               # a short side's margin, measured in from the outline to the face's colour: at
                               # most this share of the card's width (prints: 0.05-0.1, plus a band's shift)
DEPTH_EVEN = 0.6               # ... and this share of the lines across it agree on its depth: a print's margin
                               # is as wide all along; an outline askew of the card, or taking in a pale
                               # table, meets the face at depths that vary along the side, or deep in
DEPTH_COST = 0.05              # the score lost per short side without such a margin (glare or a thumb
                               # over one costs a true outline that much; an outline askew loses both)
MIN_FACE = 0.1                 # a commercial print's face inside its margin: at least this share coloured or black
                               # (real photos of two prints: 0.23 and more; a card washed out by light at 45%
                               # white: 0.64; a knitted sweater's patch that passed for margin and face: 0.05)
FACE_SATURATION = 60           # coloured: at least this saturation (0-255; a washed-out green field: 70-90)
DEEP_ALL = 0.8                 # the score kept when a taught border runs deeper than the deck's all round
DEEP_SIDE = 0.85               # ... and per side where it does, others at its depth (was: refused from two such
                               # sides). One side deep is an outline that took in a strip of dark table there
                               # (a black-edged card's shadow): it verified as well as the card's own
                               # outline. Two or more are also a black-edged wild: its face meets the border
                               # at the short sides, and the card's own outline was refused
BOTTOMLESS = 3                 # a taught border running as far in as it is looked for on this many sides ...
BOTTOMLESS_KEEP = 0.6          # ... keeps this share of the score: a patch of dark table (on the teach photos of a
                               # black-edged print, outlines round such patches verified at 0.7-0.95, and hid the
                               # card inside them), or a black card with a small symbol (a print's black wild)
WEAK_SIDE = 0.5                # on a taught border: a side in view with less of it than this costs the score
WEAK_COST = 0.4                # WEAK_COST per unit short. The mean over the sides saturates (margin / 0.7), so an
                               # outline with one side on the table (0.07 of it border) scored as well as the
                               # card's own, whose perspective left it less card-shaped (the teach bench's
                               # black-edged prints). Not on white: there a finger or a paper over a side costs
                               # the card's own outline as much, and transplant seeds 2468 and 1357 moved both
                               # ways (2 gained, 2 lost, 4 fewer sure)
EDGE_COST = 0.1                # on a deck drawn on white stock, the score lost as the share of sides in view
                               # without a step across the outline goes to all of them (edge_steps) ...
EDGE_STEP = 15.0               # ... a step this large at least (CIELAB, 8-bit: an inked UNO hand's true outlines
                               # on the teach bench's tables, 118 of 120 over it on every side, 2 on 3 sides)
EDGE_PART = 0.75               # ... at this quantile of its points (a finger across part of a side steps little there)
EDGE_OFFSET = 0.03             # ... measured this share of the short side inside and outside the outline
MIN_INSIDE = 0.65              # the share of the quad's area that must lie in the picture: a card held
                               # close runs off it by a corner, or by both ends when it fills the picture
                               # upright (its short side 90% of a 4:3 picture's: 28% out), and the sides in
                               # view carry the margin test. Measured on real cards posed so (build/look/
                               # cutoff.py): at 0.9, 0.51 / 0.86 read right; at 0.7 and 0.6, 0.70 / 0.98


@dataclass(frozen=True)
class Verdict:
    ok: bool
    score: float               # 0..1, how surely this is one whole card's outer edge
    reason: str = ""           # why not, in words, when not ok
    weakest: float = 0.0       # the white share of the least white side's margin band in view


def _white(card_bgr: np.ndarray, ring_cast: bool = False, ink_bar: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(pixels as white as this card's paper, the same against the paper of the side nearest to
    each pixel). White: bright relative to the card's own brightest, and unsaturated. Relative, so a
    dim room or a warm lamp does not turn the margin "not white"; by side, so a lamp's glare on one
    side's margin does not make the other sides' too dark. `ring_cast`: the cast measured no higher
    than on the outer ring (RING_CAST). `ink_bar`: unsaturated measured against the card's own
    inks too (INK_BAR)."""
    # a little blur first: sensor noise in a dim room makes dark-ish pixels look saturated
    hsv = cv2.cvtColor(cv2.GaussianBlur(card_bgr, (3, 3), 0), cv2.COLOR_BGR2HSV)
    s, v = hsv[..., 1].astype(np.float32), hsv[..., 2].astype(np.float32)
    whole = percentile(v, 97)
    # the paper: the warp's brightest, unless a lamp's glare inside the card outshines its margin;
    # then the brightest of the outer ring (corners too), down to GLARE_FLOOR of the warp's brightest
    h, w = v.shape[:2]
    k = max(2, int(round(RING * w)))
    ring = _ring(h, w, k)
    paper = max(min(whole, percentile(v[ring], 97)), GLARE_FLOOR * whole, 40.0)
    # a colour cast tints the paper too: allow the paper's own saturation plus a margin
    bright = v >= 0.85 * paper
    cast = percentile(s[bright], 30) if bright.any() else 0.0
    if ring_cast and (bright & ring).any():
        # ... no more than the outer ring's, where a card's margin lies (RING_CAST)
        cast = min(cast, percentile(s[bright & ring], 30))
    bar = min(cast + 70.0, 140.0)
    if ink_bar:
        # ... and no more than part way from the paper's to the card's most saturated inks: a veil
        # of light over the whole card (a smudged lens, a lamp's reflection on a glossy card) pales
        # every ink with the paper (INK_BAR)
        bar = min(bar, _ink_bar(s, cast))
    unsaturated = s <= bar
    white = (v >= 0.62 * paper) & unsaturated
    if SIDE_FLOOR >= 1.0:
        return white, white
    # each side's paper: the brightest of its ring, at most the card's paper and at least SIDE_FLOOR
    # of the warp's brightest (a ring on a dark table round the card stays below that)
    sides = [v[:k, k:w - k], v[k:h - k, w - k:], v[h - k:, k:w - k], v[k:h - k, :k]]   # top, right, bottom, left
    level = np.array([min(paper, max(percentile(r, 97), SIDE_FLOOR * whole, 40.0)) for r in sides],
                     np.float32)
    near = _nearest_side(h, w)
    bar = level[near]
    if SHADE_FLOOR < SIDE_FLOOR:
        pale = np.where(unsaturated, v, 0.0)
        bar = np.minimum(bar, _shade_levels(pale, level, SHADE_FLOOR * whole)[near, _along_index(h, w)])
    return white, (v >= 0.62 * bar) & unsaturated


def _shade_levels(pale: np.ndarray, level: np.ndarray, floor: float) -> np.ndarray:
    """Each side's paper level position by position along it (4 x max(h, w)): the brightest
    unsaturated pixel across the outer SHADE_DEPTH of the card there, taken as the SHADE_PART
    quantile over SHADE_WINDOW of the side around each position; at most the side's level and at
    least `floor`. A shadow falling across a card (the phone or the hand over it, a lamp's edge)
    darkens a stretch of its margin together with the field inside it: against the side's lit paper
    that stretch is not white. Across the card's outer part, not its ring alone: an outline a little
    outside the card, on a grey table, still finds the card's lit paper inside it and keeps the
    side's level."""
    h, w = pale.shape
    d = max(2, int(round(SHADE_DEPTH * w)))
    out = np.empty((4, max(h, w)), np.float32)
    # the short sides (top, bottom) together, then the long ones (right, left): one quantile each
    for sides, lines in (((0, 2), np.stack([pale[:d].max(axis=0), pale[h - d:].max(axis=0)])),
                         ((1, 3), np.stack([pale[:, w - d:].max(axis=1), pale[:, :d].max(axis=1)]))):
        n = lines.shape[1]
        half = max(2, int(round(SHADE_WINDOW * n / 2)))
        windows = np.lib.stride_tricks.sliding_window_view(np.pad(lines, ((0, 0), (half, half)), mode="edge"),
                                                           2 * half + 1, axis=1)
        kth = int(round(SHADE_PART * (2 * half)))
        out[list(sides), :n] = np.clip(np.partition(windows, kth, axis=2)[..., kth], floor, level[list(sides)][:, None])
    return out


def _ink_bar(s: np.ndarray, cast: float = 0.0) -> float:
    """The saturation above which a pixel of a warp (its saturations `s`) is ink against its own
    inks (INK_BAR): INK_SHARE of the way from the paper's `cast` to its most saturated tenth, at
    least INK_GAP above the cast."""
    return cast + max(INK_GAP, INK_SHARE * (percentile(s, 90) - cast))


@lru_cache(maxsize=8)
def _ring(h: int, w: int, k: int) -> np.ndarray:
    """The outer ring, k pixels deep, of an h x w warp (corners included), as a mask."""
    ring = np.ones((h, w), bool)
    ring[k:h - k, k:w - k] = False
    ring.setflags(write=False)      # shared by every call on a warp of this size
    return ring


@lru_cache(maxsize=8)
def _along_index(h: int, w: int) -> np.ndarray:
    """For each pixel of an h x w warp, its position along the side nearest to it (_nearest_side)."""
    yy, xx = np.mgrid[0:h, 0:w]
    idx = np.where(_nearest_side(h, w) % 2 == 0, xx, yy)
    idx.setflags(write=False)
    return idx


@lru_cache(maxsize=8)
def _nearest_side(h: int, w: int) -> np.ndarray:
    """For each pixel of an h x w warp, the side nearest to it: 0 top, 1 right, 2 bottom, 3 left."""
    yy, xx = np.mgrid[0:h, 0:w]
    near = np.argmin(np.stack([yy / h, (w - 1 - xx) / w, (h - 1 - yy) / h, xx / w]), axis=0)
    near.setflags(write=False)      # shared by every call on a warp of this size
    return near


def margin_shares(card_bgr: np.ndarray, even_only: bool = True) -> tuple[list[float], float]:
    """(white share of each side's margin band: top, right, bottom, left; white share inside).
    A band pixel counts when it is white and as bright as the band around it: printed paper is
    even, a knitted sweater or a wood grain that passes for white is not."""
    sides, _, inner, _ = margin_bands(card_bgr, even_only)
    return sides, inner


def margin_bands(card_bgr: np.ndarray, even_only: bool = True,
                 like: np.ndarray | None = None, even_depth: bool = True,
                 ring_cast: bool = False, ink_bar: bool = False) -> tuple[list[float], list[int], float, list[bool]]:
    """(white share of each side's band, the pixels each band moved inwards to find it, white
    share inside, whether each short side has a margin of a print's depth (margin_depths; of one
    depth all along it unless not `even_depth`)): see margin_shares. `like`: a taught border's
    pixels (Border.mask), taken for the white ones. `ring_cast`, `ink_bar`: see _white."""
    h, w = card_bgr.shape[:2]
    grey = cv2.cvtColor(card_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    tol = EVEN * max(percentile(grey, 97), 40.0)
    if like is None:
        white, side_white = _white(card_bgr, ring_cast, ink_bar)
    else:
        white = side_white = like
    even = np.abs(grey - _median5(grey.astype(np.uint8)).astype(np.float32)) <= tol
    if even_only:
        # a margin pixel against its neighbours along the margin (two either side) and across it
        # (one either side): paper is even both ways, a sweater or a wood grain is not; a 5x5
        # window round a margin two pixels wide holds more field and table than paper
        rows = _even_along(grey, 1, tol) if EVEN_ALONG else even
        cols = _even_along(grey, 0, tol) if EVEN_ALONG else even
        white_rows, white_cols, white = side_white & rows, side_white & cols, white & even
    else:
        white_rows = white_cols = side_white
    a0, b0 = max(1, int(round(BAND[0] * w))), max(2, int(round(BAND[1] * w)))
    best, moved = [0.0] * 4, [0] * 4
    # each side where its band is whitest: only inwards, so an outline inside the margin (round
    # the coloured field) gains nothing, while one a few pixels outside the card does. A band
    # moves only for a clear gain to a whole margin: a true outline keeps its bands where they are.
    for k in range(BAND_SHIFTS + 1):
        a, b = a0 + k, b0 + k
        sides = [white_rows[a:b, b:w - b], white_cols[b:h - b, w - b:w - a], white_rows[h - b:h - a, b:w - b],
                 white_cols[b:h - b, a:b]]
        for i, band in enumerate(sides):
            share = float(band.mean()) if band.size else 0.0
            if k == 0 or (share > best[i] + SHIFT_GAIN and _along(band, i % 2 == 1) >= SHIFT_ALONG):
                best[i], moved[i] = share, k
    inner = white[int(0.15 * h):int(0.85 * h), int(0.15 * w):int(0.85 * w)]
    return best, moved, float(inner.mean()) if inner.size else 1.0, margin_depths(side_white, even_depth)


def _median5(img: np.ndarray) -> np.ndarray:
    """cv2.medianBlur(img, 5) (uint8), worked out on the image widened by 4 replicated columns each
    side and cut back: the same values (medianBlur replicates the border itself), and on OpenCV 5.0
    a 64-pixel-wide image takes its slow path (0.49 ms against 0.045 at 72 wide)."""
    wide = cv2.copyMakeBorder(img, 0, 0, 4, 4, cv2.BORDER_REPLICATE)
    return cv2.medianBlur(wide, 5)[:, 4:-4]


def _border_kept(like: np.ndarray, border: Border, sides_seen: list[float]) -> float:
    """The share of its score an outline keeps on a taught border, from how deep the border runs
    in from each side (its pixels `like` in the warp) and each side's share of it in view."""
    depths = side_depths(like)
    deep, normal = deep_sides(depths, border, VERIFY_W)
    if bottomless_sides(depths, VERIFY_W) >= BOTTOMLESS:
        kept = BOTTOMLESS_KEEP
    elif deep >= 2 and not normal:   # deep all round: a card whose face is of the border's colour (a black-
        kept = DEEP_ALL     # edged wild), or one on a table of that colour; an outline at the border's depth wins
    else:               # a strip of table taken in on some sides, or a black wild's short sides
        kept = DEEP_SIDE ** deep
    return kept * (1.0 - WEAK_COST * sum(max(0.0, WEAK_SIDE - s) for s in sides_seen))


def margin_depths(side_white: np.ndarray, even: bool = True) -> list[bool]:
    """Whether each short side (top, bottom) of a warp has a margin of a print's depth (at most
    DEPTH_MAX) and, with `even`, of one depth all along it: per line across the side's middle 70%,
    how far in from the outline the white runs before the face's colour begins (border.side_runs).
    Lines that start on something not white (a thumb, the outline cut inside the margin) are left
    out; a side with too few lines left has no margin. Not `even`: a deck cut by hand, whose border
    may be wider at one end than at the other, but never a quarter of the card deep; only a margin
    measured too deep counts against it."""
    w = side_white.shape[1]
    runs = side_runs(side_white)
    out = []
    for depth in (runs[0], runs[2]):
        lines = depth[depth > 0].astype(np.float32)
        if lines.size < 0.3 * depth.size:
            # no margin to measure: a commercial print's side without one; on a deck cut by hand,
            # no evidence either way (the built-in reader on a deck edged in black meets no white)
            out.append(not even)
            continue
        med = float(np.median(lines))
        agree = float(np.mean(np.abs(lines - med) <= max(1.5, 0.3 * med)))
        out.append(med <= DEPTH_MAX * w and (agree >= DEPTH_EVEN or not even))
    return out


def _median3(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


def _median_along(grey: np.ndarray, axis: int, k: int = 2) -> np.ndarray:
    """The median of each pixel and its k (1 or 2) neighbours either side along `axis` (1: the
    row), by comparisons: a few array minima and maxima instead of a sort."""
    pad = [(0, 0), (0, 0)]
    pad[axis] = (k, k)
    p = np.pad(grey, pad, mode="edge")
    n = grey.shape[axis]
    s = [p[:, j:j + n] if axis == 1 else p[j:j + n] for j in range(2 * k + 1)]
    if k == 1:
        return _median3(*s)
    a, b, c, d, e = s      # the median of five: of e and the middle two of the pairs' extremes
    return _median3(e, np.maximum(np.minimum(a, b), np.minimum(c, d)), np.minimum(np.maximum(a, b), np.maximum(c, d)))


def _even_along(grey: np.ndarray, axis: int, tol: float) -> np.ndarray:
    """Pixels within `tol` of the median of their neighbours along `axis` (two either side) and of
    those across it (one either side)."""
    return (np.abs(grey - _median_along(grey, axis, 2)) <= tol) & (np.abs(grey - _median_along(grey, 1 - axis, 1)) <= tol)


def _along(band: np.ndarray, vertical: bool) -> float:
    """The white share of the least white third of a side's band (the side runs down the band's
    rows when `vertical`)."""
    n = band.shape[0] if vertical else band.shape[1]
    if n < 3:
        return 0.0
    thirds = [band[j * n // 3:(j + 1) * n // 3] if vertical else band[:, j * n // 3:(j + 1) * n // 3] for j in range(3)]
    return min(float(t.mean()) for t in thirds)


def face_share(card_bgr: np.ndarray, veiled: bool = False) -> float:
    """The share of a warped card's inside (15-85% each way) that is coloured (saturated, not dark)
    or black, against its own paper: a UNO-family face is a coloured field, or black on a wild.
    `veiled`: coloured against the card's own inks too, as _white's `ink_bar`."""
    hsv = cv2.cvtColor(card_bgr, cv2.COLOR_BGR2HSV)
    h, w = hsv.shape[:2]
    s, v = hsv[..., 1].astype(np.float32), hsv[..., 2].astype(np.float32)
    paper = max(percentile(v, 97), 40.0)
    inner = (slice(int(0.15 * h), int(0.85 * h)), slice(int(0.15 * w), int(0.85 * w)))
    bar = min(FACE_SATURATION, _ink_bar(s)) if veiled else FACE_SATURATION
    face = ((s[inner] > bar) & (v[inner] > 0.25 * paper)) | (v[inner] < 0.3 * paper)
    return float(face.mean())


def aspect_range(card_aspect: float = CARD_ASPECT) -> tuple[float, float]:
    """(least, most) long/short sides of an outline of a card `card_aspect` long for its width, seen
    at up to ~45 degrees of tilt: ASPECT_RANGE for a standard card, in proportion for another (a
    square card's outline may be as square as it is)."""
    r = card_aspect / CARD_ASPECT
    return max(1.0, ASPECT_RANGE[0] * r), ASPECT_RANGE[1] * r


def verify_quad(bgr: np.ndarray, quad: np.ndarray, look: CardLook = PRINTED) -> Verdict:
    """Whether `quad` (4x2 frame pixels) outlines one whole card of a deck whose cards look as
    `look` says; see the module docstring."""
    from ..rectify import warp_card
    from ..rectify.warp import portrait_corners
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)) or cv2.contourArea(quad) < 64:
        return Verdict(False, 0.0, "not a convex quadrilateral of any size")
    # a card held close may run off the picture: read it while most of it is in view
    if inside_share(quad, bgr.shape) < MIN_INSIDE:
        return Verdict(False, 0.0, "runs off the picture")
    long_short = aspect(quad)
    lo, hi = aspect_range(look.aspect)
    if not lo <= long_short <= hi:
        return Verdict(False, 0.0, f"not card-shaped (sides {long_short:.2f} to 1)")
    card = warp_card(bgr, quad, (VERIFY_W, VERIFY_H))
    # a card drawn small has a margin of two or three pixels, blurred into its neighbours: the
    # margin is judged less strictly, and its evenness (texture needs pixels) not at all
    even_border, border = look.even_border, look.border
    short = float(side_lengths(quad).min())
    sharp = float(np.clip((short - SMALL_PX) / (SHARP_PX - SMALL_PX), 0.0, 1.0))
    min_side = MIN_SIDE_SMALL + (MIN_SIDE - MIN_SIDE_SMALL) * sharp
    min_margin = MIN_MARGIN_SMALL + (MIN_MARGIN - MIN_MARGIN_SMALL) * sharp
    like = border.mask(card) if border is not None else None
    sides, moved, inner, depths = margin_bands(card, even_only=short >= SHARP_PX, like=like, even_depth=even_border)
    veiled = False
    if RING_CAST and like is None and not look.white_faces and inner > MAX_INNER_WHITE:
        # white inside: a shape inside a card, or a pale field taken for a colour cast of the paper
        # (a yellow card at half its saturation, as bright as the paper, made most of the bright
        # pixels: the washed real-uno-dev cell refused its yellows). Looked at again with the cast
        # measured no higher than on the outer ring, where a card's margin lies; only here: in table
        # scenes under a coloured light the ring's cast, taken everywhere, cost true outlines their
        # margin (bench tables cell, seed 2424: 2 cards lost, 6 fewer sure). Round an oval, the ring
        # is the coloured field, and the cast is as before
        sides, moved, inner, depths = margin_bands(card, even_only=short >= SHARP_PX, even_depth=even_border,
                                                   ring_cast=True)
        if INK_BAR and inner > MAX_INNER_WHITE:
            # still white inside: a veil of light over the card (haze, a smudged lens) leaves the
            # on-black print's teal field at saturation 40-55, under the paper's cast plus 70, and
            # every green outline was refused (the on-black photos under a 40% veil: 0.825 read).
            # Against the card's own inks: round a white oval, its numeral is the ink, and the
            # oval stays white
            sides, moved, inner, depths = margin_bands(card, even_only=short >= SHARP_PX, even_depth=even_border,
                                                       ring_cast=True, ink_bar=True)
            veiled = True
    # the sides in view carry the margin test: a side cut off by the frame shows no margin, and
    # says nothing either way (the warp's sides: portrait_corners' order, top first)
    corners = portrait_corners(quad)
    seen = [not side_off_picture(corners[i], corners[(i + 1) % 4], bgr.shape) for i in range(4)]
    if sum(seen) < 2:
        return Verdict(False, 0.0, "runs off the picture")
    sides_seen = [s for s, v in zip(sides, seen) if v]
    best_two = sorted(sides_seen)[-2:]
    margin = float(np.mean(sides_seen))
    colour = "white" if border is None else border.words()
    if min(best_two) < min_side or margin < min_margin:
        return Verdict(False, 0.0, f"no {colour} margin round it (sides {', '.join(f'{s:.2f}' for s in sides)})")
    if inner > (MAX_INNER_WHITE_FACES if look.white_faces else MAX_INNER_WHITE):
        return Verdict(False, 0.0, f"{colour} inside as well as round it ({inner:.2f}): a card's inner shape")
    if even_border and border is None:
        face = face_share(card, veiled)
        if face < MIN_FACE and INK_BAR and not veiled:
            # a veil of light over a card with a small white shape inside pales its field too
            face = face_share(card, veiled=True)
        if face < MIN_FACE:
            return Verdict(False, 0.0, f"no coloured or black face inside ({face:.2f}): not a card")
    # full trust from a margin white all round in card proportions; less as sides go missing
    shape = float(np.exp(-abs(np.log(long_short / look.aspect)) / 0.6))
    moved_seen = [m for m, v in zip(moved, seen) if v]
    score = min(1.0, margin / 0.7) * (0.8 + 0.2 * shape) * (1.0 - SHIFT_COST * float(np.mean(moved_seen)))
    if border is not None:
        score *= _border_kept(like, border, sides_seen)
    if (even_border or border is None) and not look.white_faces:
        # (a face white inside has no colour to measure a margin's depth to)
        # the short sides (top, bottom) in view without a margin of a print's depth (of one depth
        # all along, on a commercial print). On a deck cut by hand too: on a pale grey desk an
        # outline a third too big all round verified 0.997 (the desk passes for margin) against the
        # card's own 0.993, and was read (bench/teach.py, a dino2 whale-rabbit)
        score *= 1.0 - DEPTH_COST * sum(1 for d, v in zip(depths, (seen[0], seen[2])) if v and not d)
    if look.white_faces and EDGE_COST:
        # a card drawn on white stock has no coloured face to tell its margin from a pale table by:
        # an outline across an even grey desk verified as a white card (0.999 round half an inked
        # blue 7 and the desk beside it, the card's own outline 0.937). A card's outline lies on its edge:
        # the picture steps there from the card to what it lies on, in brightness or colour
        steps = edge_steps(bgr, quad)
        score *= 1.0 - EDGE_COST * sum(s < EDGE_STEP for s in steps) / max(len(steps), 1)
    return Verdict(True, float(np.clip(score, 0.0, 1.0)), weakest=float(min(sides_seen)))


def edge_steps(bgr: np.ndarray, quad: np.ndarray, n: int = 24) -> list[float]:
    """Each side in view of `quad`: the step (CIELAB distance) across it, between `n` pairs of points
    just inside and just outside (EDGE_OFFSET of the short side, 2 pixels at least) along its middle
    four fifths, at the EDGE_PART quantile of the pairs. A side with under a third of its pairs in the
    picture is left out."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    h, w = bgr.shape[:2]
    centre = q.mean(axis=0)
    off = max(2.0, EDGE_OFFSET * float(side_lengths(q).min()))
    t = np.linspace(0.1, 0.9, n, dtype=np.float32)[:, None]
    steps = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        normal = np.float32([a[1] - b[1], b[0] - a[0]])
        normal /= float(np.linalg.norm(normal)) + 1e-9
        if float(np.dot(centre - (a + b) / 2, normal)) < 0:
            normal = -normal                       # pointing into the card
        along = a + (b - a) * t
        inner, outer = np.rint(along + normal * off).astype(int), np.rint(along - normal * off).astype(int)
        ok = np.all((inner >= 0) & (outer >= 0) & (inner < (w, h)) & (outer < (w, h)), axis=1)
        if ok.sum() < n // 3:
            continue
        pair = np.stack([bgr[inner[ok, 1], inner[ok, 0]], bgr[outer[ok, 1], outer[ok, 0]]])
        lab = cv2.cvtColor(pair.astype(np.uint8), cv2.COLOR_BGR2LAB).astype(np.float32)
        steps.append(float(np.percentile(np.linalg.norm(lab[0] - lab[1], axis=1), EDGE_PART * 100)))
    return steps


def verify_once(memo: dict | None, bgr: np.ndarray, quad: np.ndarray, look: CardLook = PRINTED) -> Verdict:
    """verify_quad, worked out once per outline of a frame: `memo` holds one frame's verdicts (None:
    none kept). A verdict is a pure function of the frame, the outline and the look, and a frame
    meets the same outline again: the detector's looks snap several boxes onto the same edges, and
    the recognizer verifies the outline the detector chose (a quarter of the verifications on the
    296 real photos repeated one)."""
    if memo is None:
        return verify_quad(bgr, quad, look)
    q = np.asarray(quad, np.float32).reshape(4, 2)
    key = ("verdict", id(look), q.tobytes())
    if key not in memo:
        memo[key] = verify_quad(bgr, q, look)
    return memo[key]
