"""Turn per-frame observations of the discard pile into play events, once per physical card.

Pure logic, no OpenCV: the pipeline feeds one Observation a frame (the frame's time, whether the
pile area moved since the last frame, and the cards read there). A card counts once it has
*settled*: the pile area has been still for `settle_s` and the same reading was seen in each of
those frames (a frame still against the one before it counts the rest from that one's time). A
physical card is known by its outline (where it lies, at what angle), not by its id, so the same
id played twice in a row is two plays (the second lands at another place or
angle, or, if exactly on top, is seen by its id changing... which it does not: documented limit),
and two new outlines settling together are two plays (doubles), the lower one first.
A hand resting on the pile hides the top card's outline: nothing whole is read under it, so
nothing is sent until it leaves. Frames that never arrive (a camera dropping frames) only stretch
the time between observations; settling is measured in seconds, not frames.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np


@dataclass
class Seen:
    card: str
    confidence: float
    polygon: np.ndarray  # 4x2
    score: float | None = None   # the readers' own confidence, before calibration (None: the same)

    @property
    def raw(self) -> float:
        return self.confidence if self.score is None else self.score


@dataclass
class Observation:
    t: float
    moving: bool
    cards: list[Seen]
    # the time of the frame this one was compared with to tell motion (the pipeline's previous
    # frame), or None: a still frame shows the pile as it was then, so its rest began no later.
    # A camera short of CPU delivers frames far apart; counting the rest from the first still
    # frame only would need two still frames after the card lands, and a card covered again
    # within that time (the next player is quick) would never be reported
    since: float | None = None


def polygon_iou(a: np.ndarray, b: np.ndarray) -> float:
    import cv2
    inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
    ua = cv2.contourArea(np.float32(a)) + cv2.contourArea(np.float32(b)) - inter
    return float(inter / ua) if ua > 0 else 0.0


@dataclass
class PileTracker:
    settle_s: float = 0.15          # the pile must rest this long before a card counts
    confirm: float = 0.6            # below this confidence a play is sent unconfirmed
    # the readers' confidence as the chance of being right (the recognizer's ConfidenceMap): the
    # readers' own confidences are averaged over the rest, then mapped, as one reading's would be
    calibration: Callable[[float], float] = float
    same_place_iou: float = 0.8     # an outline overlapping a known card this much is that card
    # a rest counts from the frame a still one was compared with (Observation.since); False counts
    # it from the first still frame, as before session 50 (the peer of bench/starved_camera.py)
    rest_from_compared: bool = True
    known: list[Seen] = field(default_factory=list)   # cards on the pile already reported
    _still_since: float | None = None
    _window: list[Observation] = field(default_factory=list)
    _done_for_rest: bool = False
    flipped: bool = False

    def update(self, obs: Observation) -> list[dict]:
        if obs.moving:
            self._still_since, self._window, self._done_for_rest = None, [], False
            return []
        if self._still_since is None:
            compared = obs.since if self.rest_from_compared and obs.since is not None else obs.t
            self._still_since = min(compared, obs.t)
        self._window.append(obs)
        if self._done_for_rest or obs.t - self._still_since < self.settle_s:
            return []
        self._done_for_rest = True
        return self._settle(obs.t)

    def _is_known(self, s: Seen) -> bool:
        return any(polygon_iou(s.polygon, k.polygon) >= self.same_place_iou and k.card == s.card for k in self.known)

    def _settle(self, t: float) -> list[dict]:
        # cards read in every frame of the rest, averaged; a card seen only now and then is not sure
        last = self._window[-1].cards
        stable: list[Seen] = []
        for s in last:
            confs = []
            for o in self._window:
                m = [x for x in o.cards if x.card == s.card and polygon_iou(x.polygon, s.polygon) >= self.same_place_iou]
                confs.append(max((x.raw for x in m), default=0.0))
            raw = float(np.mean(confs))
            stable.append(Seen(s.card, self.calibration(raw), s.polygon, raw))
        new = [s for s in stable if not self._is_known(s)]
        if not stable:
            return []
        events = []
        # lower cards first: readings come top card first (the whole one reads best), so reverse
        new.reverse()
        for s in new:
            ev = {"type": "play" if self.flipped else "flip", "t": round(t, 3)}
            if self.flipped:
                ev["cards"] = [s.card]
            else:
                ev["card"] = s.card
            ev["confidence"] = round(s.confidence, 3)
            if s.confidence < self.confirm:
                ev["unconfirmed"] = True
            ev["polygon"] = [[round(float(x), 1), round(float(y), 1)] for x, y in s.polygon]
            events.append(ev)
            self.flipped = True
        self.known = stable
        return events

