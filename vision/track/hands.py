"""Which hand brought the card: what reached into the picture, followed back to its edge.

Frame differencing against a background model, at the pipeline's quarter scale (160x120 for a
640x480 camera), which is cheap enough on two cores: the background is the table as it last rested
(the whole picture still for `rest_s`); what differs from it (summed over B, G, R) by more than
`diff` is foreground; a foreground blob that touches the picture's border is something that came
in from outside, an arm. Each frame, every such blob that reaches the discard pile is a
*sighting*: where it crosses the border (the border position of vision/track/seats.py, averaged
round a corner) and how much of it lies on the pile (its weight). The sightings since the pile
last rested are what the play event is charged on (`seats.name_seat`).

A card put down and left is foreground until the background catches up, but it does not touch
the border, so it is never taken for a hand. An arm at rest is kept out of the background (for
`hand_rest_s`), so a hand resting on the pile is still seen as a hand when the pile settles under
it, and the pipeline knows not to take that view as the pile's reference (`at_pile`).
"""
from __future__ import annotations

import cv2
import numpy as np

from .seats import PERIMETER, circular_mean, name_seat

FG_DIFF = 36          # change from the background (summed over B, G, R) that counts as foreground: low, as
                      # a sleeve may be near the table's colour; the quarter scale has averaged the noise away
REST_S = 0.2          # the whole picture still this long: it becomes the background (but an arm in view)
HAND_REST_S = 3.0     # ... and an arm that has not moved this long becomes background too
MIN_BLOB = 12         # quarter-scale pixels: smaller blobs are noise, not an arm
RING = 2              # quarter-scale pixels of the border an arm's blob must reach


class HandWatch:
    def __init__(self, rest_s: float = REST_S, diff: int = FG_DIFF, hand_rest_s: float = HAND_REST_S):
        self.rest_s, self.diff, self.hand_rest_s = rest_s, diff, hand_rest_s
        self.background: np.ndarray | None = None
        self.sightings: list[tuple[float, float]] = []     # (border position, weight) since the last reset
        self._still_since: float | None = None
        self._ring: tuple | None = None
        self.last_blobs: list[tuple[float, float]] = []     # this frame's sightings (for the camera view)

    def _ring_for(self, h: int, w: int):
        """Flat indexes of the border ring of an h x w picture, with cos/sin of each pixel's border
        position (so a blob's mean position is two weighted sums, wrapping round the corners)."""
        if self._ring is not None and self._ring[0] == (h, w):
            return self._ring[1:]
        ys, xs = np.mgrid[0:h, 0:w]
        ring = (xs < RING) | (ys < RING) | (xs >= w - RING) | (ys >= h - RING)
        idx = np.flatnonzero(ring)
        x, y = (xs.ravel()[idx] + 0.5) / w, (ys.ravel()[idx] + 0.5) / h
        # border position of each ring pixel: nearest side, clockwise from the top-left corner
        d = np.stack([y, 1 - x, 1 - y, x])
        side = d.argmin(axis=0)
        pos = np.choose(side, [x, 1 + y, 2 + (1 - x), 3 + (1 - y)]) % PERIMETER
        ang = 2 * np.pi * pos / PERIMETER
        self._ring = ((h, w), idx, np.cos(ang), np.sin(ang))
        return self._ring[1:]

    def update(self, t: float, small_bgr: np.ndarray, still: bool, pile_roi=None) -> None:
        """One frame at quarter scale. `still`: nothing moved anywhere since the last frame;
        `pile_roi`: (x, y, w, h) of the discard pile at quarter scale, or None (not yet found:
        anything that comes in counts)."""
        self.last_blobs = []
        if self.background is None or self.background.shape != small_bgr.shape:
            self.background, self._still_since = small_bgr, None
            return
        diff = cv2.absdiff(small_bgr, self.background).sum(axis=2, dtype=np.uint16)
        fg = (diff > self.diff).astype(np.uint8)
        n, labels = cv2.connectedComponents(fg, connectivity=8) if fg.any() else (1, None)
        arms = np.zeros(0, np.int64)
        if n > 1:
            h, w = labels.shape
            idx, cos, sin = self._ring_for(h, w)
            ring_labels = labels.ravel()[idx]
            count = np.bincount(ring_labels, minlength=n)
            sx = np.bincount(ring_labels, weights=cos, minlength=n)
            sy = np.bincount(ring_labels, weights=sin, minlength=n)
            if pile_roi is None:
                on_pile = np.bincount(labels.ravel(), minlength=n)
            else:
                x, y, rw, rh = pile_roi
                on_pile = np.bincount(labels[max(0, y):y + rh, max(0, x):x + rw].ravel(), minlength=n)
            arms = np.flatnonzero(count >= RING)
            arms = arms[arms > 0]
            for k in arms:
                if on_pile[k] < MIN_BLOB:
                    continue                     # from outside, but not at the pile
                pos = float(np.arctan2(sy[k], sx[k]) * PERIMETER / (2 * np.pi)) % PERIMETER
                self.last_blobs.append((pos, float(on_pile[k])))
            self.sightings += self.last_blobs
        self._learn(t, small_bgr, still, labels, arms)

    def _learn(self, t, small_bgr, still, labels, arms) -> None:
        """The table at rest becomes the background, except an arm resting in view: a hand left on
        the pile stays a hand (it is what will take the card's credit when it goes), unless it
        stays put for `hand_rest_s`, then it is part of the furniture."""
        if not still:
            self._still_since = None
            return
        if self._still_since is None:
            self._still_since = t
        rested = t - self._still_since
        if rested < self.rest_s:
            return
        if len(arms) and rested < self.hand_rest_s:
            keep = np.isin(labels, arms)[..., None]
            self.background = np.where(keep, self.background, small_bgr)
        else:
            self.background = small_bgr

    def at_pile(self) -> bool:
        """Something from outside reaches the pile in the latest frame (a hand resting on it)."""
        return bool(self.last_blobs)

    def attribute(self, seats: dict[str, float] | None) -> dict:
        """The seat that brought the card, from the sightings since the last reset (name_seat),
        plus `hands`: how many separate border places were seen (two hands at once: 2) and
        `hand_edge`: their mean border position (None: no hand seen)."""
        got = name_seat(self.sightings, seats or {})
        got["hands"] = _places(self.sightings)
        got["hand_edge"] = (round(circular_mean([p for p, _ in self.sightings], [w for _, w in self.sightings]), 3)
                            if self.sightings else None)
        return got

    def reset(self) -> None:
        self.sightings = []


def _places(sightings: list[tuple[float, float]], apart: float = 0.3) -> int:
    """How many distinct border places the sightings came from (clusters at least `apart` apart)."""
    from .seats import edge_distance
    centres: list[float] = []
    for pos, _ in sightings:
        if all(edge_distance(pos, c) >= apart for c in centres):
            centres.append(pos)
    return len(centres)
