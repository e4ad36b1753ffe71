"""A deck's border when it is not white: learned from a taught deck's photos, looked for by verify.

Every deck the app knows has a white margin round the face, and verify.py finds it against the
card's own brightest paper. A deck a table owns may be edged in black (a dark edition, a home print
on black card) or in a colour. Such a deck's border is learned when the deck is taught
(vision/teach/faces.py: `candidates` from the teach photos' rough boxes, each tried, and `learn`
over the cards the best one found), kept in the taught file, and from then on verify looks for a margin of that colour instead of white.

A border is described as the camera sees it, in OpenCV's HSV: hue (0-180), saturation (0-255) and
brightness relative to the card's own brightest pixels (the 97th percentile of its warp), so a dim
room or a brighter lamp moves it little. Black is dark whatever its hue (a dark pixel's hue and
saturation are the sensor's noise); a coloured border keeps its hue under any usual light.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..quantile import percentile

COLOURED = 70       # a border this saturated (or more) is a colour, judged by its hue
DARK = 0.35         # a border this dark (relative brightness) or darker is black, judged by brightness only
HUE_TOL = 14        # a coloured border's pixels: hue within this many steps (of 180) ...
SAT_SHARE = 0.45    # ... at least this share of its saturation ...
VALUE_SHARE = 0.35  # ... and of its relative brightness (shade and a dim side allowed)
DARK_TOL = 0.22     # a black border's pixels: at most this much brighter than it
GREY_TOL = 0.22     # a grey border's pixels: within this of its brightness ...
GREY_SAT = 60       # ... and at most this much more saturated
WHITE_VALUE, WHITE_SAT = 0.75, 50   # a learned border this bright and pale is white: the built-in test
RING = 0.05         # the band sampled for a border's colour: this share of the warp's width in from the outline
AGREE = 0.6         # a border is learned when at least this share of the photos' margins look like it


@dataclass(frozen=True)
class Border:
    hue: float = 0.0      # OpenCV hue, 0..180
    sat: float = 0.0      # saturation, 0..255
    value: float = 0.0    # brightness against the card's brightest, 0..1
    depth: float = 0.0    # the margin's width as a share of the card's short side (0: not known)

    @property
    def dark(self) -> bool:
        return self.value <= DARK

    @property
    def coloured(self) -> bool:
        return not self.dark and self.sat >= COLOURED

    def mask(self, card_bgr: np.ndarray) -> np.ndarray:
        """The pixels of a warped card that look like this border."""
        hsv, top = _hsv(card_bgr)
        return _like(self, hsv, top)

    def likeness(self, bgr: np.ndarray) -> np.ndarray:
        """A grey picture (float32, 0..255) of the whole frame, bright where it looks like this
        border: the edge snap (edges.py) looks in it for the margin's outer edge, as it looks for a
        white margin in the plain grey picture. The last frame's is kept (the snap runs per box)."""
        key = (bgr.__array_interface__["data"][0], bgr.shape, self, bgr[::37, ::41].tobytes())
        if _LIKENESS[0] != key:
            hsv, _ = _hsv(bgr)
            top = max(percentile(hsv[..., 2], 97), 40.0)
            _LIKENESS[:] = [key, (255.0 * _soft(self, hsv, top)).astype(np.float32)]
        return _LIKENESS[1]

    def words(self) -> str:
        """The border in a word or two, for the teach report."""
        if self.dark:
            return "black"
        if not self.coloured:
            return "grey" if self.value < WHITE_VALUE else "white"
        names = ((10, "red"), (22, "orange"), (34, "yellow"), (85, "green"), (100, "teal"), (130, "blue"),
                 (160, "purple"), (181, "red"))
        return next(n for edge, n in names if self.hue < edge)

    def as_json(self) -> dict:
        return {"hue": round(self.hue, 1), "sat": round(self.sat, 1), "value": round(self.value, 3),
                "depth": round(self.depth, 4)}

    @classmethod
    def from_json(cls, d: dict) -> "Border":
        b = cls(float(d["hue"]), float(d["sat"]), float(d["value"]), float(d.get("depth", 0.0)))
        if not (0 <= b.hue <= 180 and 0 <= b.sat <= 255 and 0 <= b.value <= 1 and 0 <= b.depth < 0.5):
            raise ValueError(f"a border out of range: {d}")
        return b


BLACK = Border(0.0, 0.0, 0.15)      # a black border as photographed: always among the candidates


def _hsv(card_bgr: np.ndarray) -> tuple[np.ndarray, float]:
    # a little blur: sensor noise makes dark pixels look saturated, as in verify._white
    hsv = cv2.cvtColor(cv2.GaussianBlur(card_bgr, (3, 3), 0), cv2.COLOR_BGR2HSV).astype(np.float32)
    return hsv, max(percentile(hsv[..., 2], 97), 40.0)


def _like(ref: Border, hsv: np.ndarray, top: float) -> np.ndarray:
    """The pixels that look like border `ref`: its likeness (`_soft`) at its tolerance's edge or
    nearer (a black border: any likeness at all)."""
    soft = _soft(ref, hsv, top)
    return soft > 0.0 if ref.dark else soft >= 0.5


_LIKENESS: list = [None, None]      # (frame's key, its likeness map)


def _soft(ref: Border, hsv: np.ndarray, top: float) -> np.ndarray:
    """How much each pixel looks like border `ref`, 0..1, so that an edge has a slope to find: a
    black border within DARK_TOL of its brightness (darker pixels more); a coloured one within
    HUE_TOL of its hue at 0.5 or more, with its share of saturation and brightness; a grey one
    within GREY_TOL of its brightness at 0.5 or more, not much more saturated."""
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2] / top
    if ref.dark:
        return np.clip((ref.value + DARK_TOL - v) / DARK_TOL, 0.0, 1.0)
    if ref.coloured:
        dh = np.abs(h - ref.hue)
        near = np.clip(1.5 - np.minimum(dh, 180.0 - dh) / HUE_TOL, 0.0, 1.0)
        return near * (s >= SAT_SHARE * ref.sat) * (v >= VALUE_SHARE * ref.value)
    return np.clip(1.5 - np.abs(v - ref.value) / GREY_TOL, 0.0, 1.0) * (s <= ref.sat + GREY_SAT)


def band_colour(card_bgr: np.ndarray, hsv: np.ndarray | None = None, top: float | None = None) -> Border:
    """The colour of a warped card's margin: the median of a band along its four sides (their
    middle 80%: the rounded corners show the table)."""
    if hsv is None or top is None:
        hsv, top = _hsv(card_bgr)
    h, w = hsv.shape[:2]
    k = max(2, int(round(RING * w)))
    ys, xs = slice(int(0.1 * h), int(0.9 * h)), slice(int(0.1 * w), int(0.9 * w))
    band = np.concatenate([hsv[:k, xs].reshape(-1, 3), hsv[-k:, xs].reshape(-1, 3),
                           hsv[ys, :k].reshape(-1, 3), hsv[ys, -k:].reshape(-1, 3)])
    s, v = float(np.median(band[:, 1])), float(np.median(band[:, 2])) / top
    return Border(_hue_median(band[:, 0]), s, v)


def _hue_median(hue: np.ndarray) -> float:
    """The median of hues on a circle (0..180): taken where the circle is cut farthest from them."""
    hist = np.bincount(np.clip(hue.astype(int), 0, 179), minlength=180)
    # cut the circle at the middle of its emptiest stretch of 30 steps
    window = np.convolve(np.concatenate([hist, hist[:29]]), np.ones(30), "valid")[:180]
    cut = (int(np.argmin(window)) + 15) % 180
    return float((np.median((hue - cut) % 180) + cut) % 180)


def candidates(regions: list[np.ndarray], most: int = 3) -> list[Border]:
    """Borders worth trying on a deck's teach photos: black, and the hues found round the card in
    most of the photos (`regions`: BGR crops round each photo's card, the detector's box grown).
    A deck's cards differ in colour and lie on different tables, but share their border: its hue
    is in nearly every photo, a suit's in a quarter of them."""
    bins = 36                                   # hue bins of 5 steps
    present = np.zeros(bins, np.float32)
    pixels: list[np.ndarray] = []
    for crop in regions:
        hsv, top = _hsv(crop)
        px = hsv.reshape(-1, 3)
        px = px[(px[:, 1] >= COLOURED) & (px[:, 2] >= VALUE_SHARE * top)]
        px[:, 2] /= top
        hist = np.bincount((px[:, 0] // 5).astype(int).clip(0, bins - 1), minlength=bins) / max(1, len(hsv.reshape(-1, 3)))
        # a hue is in the photo when it covers a few per cent of the region (a 5-10% border does)
        present += np.convolve(np.r_[hist[-1:], hist, hist[:1]], np.ones(3), "valid") >= HUE_PRESENT
        pixels.append(px)
    allpx = np.concatenate(pixels) if pixels else np.zeros((0, 3), np.float32)
    out = [BLACK]
    # the hues present in most photos, most present first, each a peak (not its neighbour's shoulder)
    for k in np.argsort(-present, kind="stable"):
        if present[k] < HUE_IN * len(regions) or len(out) > most:
            break
        hue = 5.0 * k + 2.5
        if any(c is not BLACK and min(abs(c.hue - hue), 180 - abs(c.hue - hue)) <= 2 * HUE_TOL for c in out):
            continue
        dh = np.abs(allpx[:, 0] - hue)
        near = allpx[np.minimum(dh, 180 - dh) <= HUE_TOL]
        if len(near):
            out.append(Border(_hue_median(near[:, 0]), float(np.median(near[:, 1])), float(np.median(near[:, 2]))))
    return out


HUE_PRESENT = 0.03   # a hue covering this share of the region round a card is in that photo
HUE_IN = 0.6         # a hue in at least this share of the photos is a candidate border


def side_runs(mask: np.ndarray) -> list[np.ndarray]:
    """How far `mask` (a warp's margin pixels) runs in from each side (top, right, bottom, left):
    per line across the side's middle 70%, the first pixel not in it, counted up to 30% of the
    warp's width (that cap where it runs on). 0 where a line starts off the mask (a thumb over the
    edge, an outline cut inside the margin)."""
    h, w = mask.shape[:2]
    cap = max(3, int(round(0.3 * w)))
    bands = (mask[:cap, int(0.15 * w):int(0.85 * w)], mask[:, ::-1][int(0.15 * h):int(0.85 * h), :cap].T,
             mask[::-1][:cap, int(0.15 * w):int(0.85 * w)], mask[int(0.15 * h):int(0.85 * h), :cap].T)
    return [np.where((~band).any(axis=0), (~band).argmax(axis=0), cap) for band in bands]


def side_depths(like: np.ndarray) -> list[float | None]:
    """How deep the border runs in from each side (top, right, bottom, left) of a warp, given its
    border pixels `like`: the median of side_runs over the lines that start on it, in pixels, or
    None where fewer than a third do."""
    out: list[float | None] = []
    for depth in side_runs(like):
        lines = depth[depth > 0]
        out.append(float(np.median(lines)) if lines.size >= depth.size / 3 else None)
    return out


def deep_sides(depths: list, border: Border, width: int) -> tuple[int, int]:
    """(sides whose border runs deeper than the deck's, sides at its depth) of a warp `width` pixels
    wide: an outline that takes in a table of the border's colour on some sides runs deep there
    and not on the others."""
    if border.depth <= 0:
        return 0, 0
    limit = DEEP * border.depth * width + DEEP_PX
    known = [d for d in depths if d is not None]
    deep = sum(1 for d in known if d > limit)
    return deep, len(known) - deep


def bottomless_sides(depths: list, width: int) -> int:
    """How many sides' border runs as far in as side_runs looks (30% of the warp's `width`): no
    face begins there. A black-edged card's own outline meets its face within twice the border's
    depth (a black wild's face, at its short sides, within three times); an outline round a patch
    of dark table has nothing but "border" in it."""
    cap = max(3, int(round(0.3 * width)))
    return sum(1 for d in depths if d is not None and d >= cap - BOTTOM_PX)


BOTTOM_PX = 1.5     # bottomless_sides: within this many pixels of where the look stops (a wild's face: 4 short)


DEEP, DEEP_PX = 1.4, 1.5    # a side deeper than this share of the deck's border depth, plus pixels


def learn(samples: list[Border], depths: list[float] | None = None) -> Border | None:
    """The border most of the photos' margins share (`samples`: band_colour of each photo's card;
    `depths`: each one's median side depth as a share of its width), or None: no photos, no
    colour most of them share, or white (the built-in test serves). How many photos are enough
    is the caller's to say."""
    if not samples:
        return None
    v = float(np.median([b.value for b in samples]))
    s = float(np.median([b.sat for b in samples]))
    hues = np.array([b.hue for b in samples], np.float32)
    cand = Border(_hue_median(hues), s, v)
    if v >= WHITE_VALUE and s < WHITE_SAT:
        return None
    if np.mean([_agrees(cand, b) for b in samples]) < AGREE:
        return None
    # the depth: the median over photos (a card on a table of its border's colour reads deep)
    ds = [d for d in (depths or []) if d > 0]
    return Border(cand.hue, cand.sat, cand.value, float(np.median(ds)) if ds else 0.0)


def _agrees(a: Border, b: Border) -> bool:
    """Whether two margins' colours are one border's (within the tolerances of `_like`)."""
    if a.dark or b.dark:
        return a.dark and b.dark
    if a.coloured != b.coloured:
        return False
    if a.coloured:
        dh = abs(a.hue - b.hue)
        return min(dh, 180 - dh) <= HUE_TOL and b.sat >= SAT_SHARE * a.sat
    return abs(a.value - b.value) <= GREY_TOL
