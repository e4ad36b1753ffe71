"""The table pipeline: frames in, card events out, plus an annotated JPEG and a status for the web.

    p = TablePipeline(source, "ono")
    p.run(on_event, stop_event)     # blocks; calls on_event(dict) per event
    p.latest_jpeg                   # bytes of the last annotated frame (MJPEG view), or None
    p.status                        # {"state": "starting|running|reconnecting|ended|error", "message": str}

Events emitted (each with `t`, the video time in seconds, and the outline it was read from):
    {"type": "flip", "card": ID, "confidence": c}                 first card seen on the discard pile
    {"type": "play", "cards": [ID], "confidence": c, "seat": NAME|None, "seat_confidence": c,
     "seat_likely": [[NAME, share], ...], "hands": n, "hand_edge": s}   a new card settled on the pile
    {"type": "play", "cards": [ID], "confidence": c, "unconfirmed": true}   the same, unsure
    {"type": "draw_hint", "t": t}                                 a hand visited the draw pile
    {"type": "reveal_cards", "cards": [{card, confidence, polygon}]}   reveal mode: all cards in view
`play` carries no `player`: the web side charges it to `seat`'s player when seats are marked
(`seats`: {name: border position}, vision/track/seats.py) and sure, asks when unsure, and adds
the current player when no seats are marked (docs/vision.md, "Who played"). Doubles
are one `play` event per card, lower card first, at the same `t`; with `doubles_together` (the
web sets it) one `play` of all the cards that settled together, as the referee takes a double.

Regions: the discard pile is found by itself around the first face-up card read (the flip), the
draw pile as a card-shaped outline that reads as no face (a card back); either can be given by
hand as (x, y, w, h) in 640-wide frame pixels.
"""
from __future__ import annotations

import threading
import time

import cv2
import numpy as np

from ..camera import FrameSource
from ..locate.quad import CARD_ASPECT
from ..recognizer import CONFIRM_THRESHOLD, Recognizer
from .hands import HandWatch
from .fan import cards_in_change, unexplained
from .seats import edge_point
from .stack import top_first
from .still import StillWatch
from .tracker import Observation, PileTracker, Seen

MOTION_DIFF = 18          # grey-level change that counts as motion (at 1/4 scale, after blur)
MOTION_FRAC = 0.004       # share of the region's pixels that must change to call it moving
HINT_REST_S = 0.4         # a draw-pile visit ends after this long without motion
LATE_S = 0.1              # a paced video file drops frames once processing is this far behind


class TablePipeline:
    def __init__(self, source, deck: str, discard_roi=None, draw_roi=None, reveal: bool = False,
                 realtime: bool | None = None, settle_s: float = 0.15, recognizer: Recognizer | None = None,
                 jpeg_every: int = 2, seats: dict[str, float] | None = None):
        self.recognizer = recognizer or Recognizer(deck)
        self.source = FrameSource(source, on_status=self._set_status)
        self.realtime = self.source.file if realtime is None else realtime
        self.discard_roi = tuple(discard_roi) if discard_roi else None
        self.draw_roi = tuple(draw_roi) if draw_roi else None
        self._auto_discard = discard_roi is None
        self.reveal = reveal
        self.tracker = PileTracker(settle_s=settle_s, confirm=CONFIRM_THRESHOLD,
                                   calibration=getattr(self.recognizer, "calibration", float))
        self.latest_jpeg: bytes | None = None
        self.latest_frame: np.ndarray | None = None   # the last frame read, as it came (teaching a deck takes it)
        self.status = {"state": "starting", "message": f"opening {source}"}
        self.jpeg_every = jpeg_every
        self.frame_ms: list[float] = []
        self.frames_dropped = 0   # paced video frames skipped because processing fell behind
        self._prev_small = None
        self._prev_t: float | None = None   # the time of the frame _prev_small was made from
        self._hint_active = False
        self._hint_last_motion = 0.0
        self._last_reveal: list[str] | None = None
        self._overlay: list = []
        self._reference: np.ndarray | None = None
        self.hands = HandWatch()
        self.stillness = StillWatch()   # the whole view's rests: "Teach this deck" takes a card on one
        # () -> True while the host teaches a deck (web/camera.py): the cards laid are no plays, so
        # the pile is not read, and afterwards the view as the pause left it is the pile
        self.paused = lambda: False
        self._was_paused = False
        self._paused_frame: np.ndarray | None = None   # the last frame seen while paused
        # {seat name: border position} (vision/track/seats.py); the web sets it when seats are marked
        self.seats: dict[str, float] = dict(seats or {})
        # cards that settle together go out as one play (a double, as the referee takes it); the
        # web sets this, `watch` keeps one event a card
        self.doubles_together = False
        self.frame_size: tuple[int, int] | None = None
        self._rest_quads: list | None = None   # the detector's outlines of this rest's new cards ([]: not needed)
        self._doubt: str | None = None         # why the cards read this frame are not sure as a whole

    def _set_status(self, state: str, message: str) -> None:
        self.status = {"state": state, "message": message}

    # -- one frame ---------------------------------------------------------------------------------
    def process(self, t: float, frame: np.ndarray) -> list[dict]:
        self.frame_size = (frame.shape[1], frame.shape[0])     # what outlines are measured in
        small_bgr = cv2.resize(frame, (frame.shape[1] // 4, frame.shape[0] // 4), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(cv2.cvtColor(small_bgr, cv2.COLOR_BGR2GRAY), (3, 3), 0)
        motion = None if self._prev_small is None else cv2.absdiff(small, self._prev_small) > MOTION_DIFF
        since, self._prev_small, self._prev_t = self._prev_t, small, t
        events: list[dict] = []
        still = motion is None or float(motion.mean()) <= MOTION_FRAC
        self.stillness.update(t, not still, frame)
        if self.paused():
            self._was_paused, self._paused_frame = True, frame
            return events
        if self._was_paused:
            self._fresh_pile()
        if not self.reveal:
            roi = None if self.discard_roi is None else tuple(v // 4 for v in self.discard_roi)
            self.hands.update(t, small_bgr, still, roi)
        if motion is None:
            return events
        if self.reveal:
            return self._reveal(t, frame, motion)
        events += self._draw_hint(t, motion)
        moving = self._moving(motion, self.discard_roi)
        if moving:
            self._rest_quads, self._doubt = None, None     # a new rest: the pile may hold new cards
        if moving or self.tracker._done_for_rest:
            self.tracker.update(Observation(t, moving, [], since))
            return events
        cards = self._read_discard(frame)
        out = self.tracker.update(Observation(t, False, cards, since))
        if self._doubt:
            # the cards read are not all that changed, or their order is unknown: the table confirms
            for e in out:
                if e["type"] == "play":
                    e["unconfirmed"], e["doubt"] = True, self._doubt
        if self.tracker._done_for_rest and not self.hands.at_pile():
            # the pile as it now rests: the next card is what differs from it. Not while a hand
            # rests on the pile: the card under it would become part of the reference and never
            # differ from it once the hand has gone
            self._reference = frame
        if out and self._auto_discard and self.discard_roi is None:
            self.discard_roi = _around(np.array(out[0]["polygon"]), frame.shape, 1.0)
        events += self._who_played(out)
        return events

    def use_recognizer(self, recognizer: Recognizer) -> None:
        """Read with `recognizer` from the next frame on (a deck just taught from the host page):
        one attribute each, so a frame being read finishes with the one it began with."""
        self.recognizer = recognizer
        self.tracker.calibration = getattr(recognizer, "calibration", float)

    def _fresh_pile(self) -> None:
        """The pile looked at afresh after a pause: what was laid while paused (cards shown to teach a
        deck) is no play, and the pile may have changed meanwhile."""
        self._was_paused = False
        # whether the game's first card was seen is kept: after a teach in the middle of a game the
        # next card is a play, not a flip the referee would refuse
        self.tracker = PileTracker(settle_s=self.tracker.settle_s, confirm=self.tracker.confirm,
                                   calibration=self.tracker.calibration, flipped=self.tracker.flipped)
        # the view as the pause left it is the pile: a card still lying there from the teach (the host
        # closed the page with the last one down) is no play; what is laid from now on differs from it
        self._reference = self._paused_frame
        self._paused_frame = None
        self._rest_quads, self._doubt, self._overlay = None, None, []
        if self._auto_discard:
            self.discard_roi = None
        self.hands.reset()

    def _who_played(self, out: list[dict]) -> list[dict]:
        """The settled events with the seat that brought the cards (vision/track/hands.py). The
        hands seen since the pile last rested are forgotten once charged, or when the pile rests
        with nothing new and no hand on it (a visit to the draw pile that crossed the pile's area)."""
        events = []
        who = self.hands.attribute(self.seats) if out else None
        for e in out:
            e = dict(e)
            e.pop("polygon", None)
            if e["type"] == "play":
                e["seat"], e["seat_confidence"] = who["seat"], who["seat_confidence"]
                e["seat_likely"], e["hands"] = who["likely"], who["hands"]
                if who["hand_edge"] is not None:
                    e["hand_edge"] = who["hand_edge"]
            events.append(e)
        if out or (self.tracker._done_for_rest and not self.hands.at_pile()):
            self.hands.reset()
        if self.doubles_together:
            events = together(events)
        return events

    def _moving(self, motion: np.ndarray, roi) -> bool:
        if roi is None:
            m = motion
            if self.draw_roi is not None:  # whole frame minus the draw pile
                m = motion.copy()
                x, y, w, h = (v // 4 for v in self.draw_roi)
                m[y:y + h, x:x + w] = False
        else:
            x, y, w, h = (v // 4 for v in roi)
            m = motion[y:y + h, x:x + w]
        return m.size > 0 and float(m.mean()) > MOTION_FRAC

    def _changed_cards(self, mask: np.ndarray) -> list:
        """changed_cards of the pixels that changed, for cards of the recognizer's deck's shape."""
        return changed_cards(None, None, mask=mask, card_aspect=self.recognizer.look.aspect)

    def _on_pile(self, quads: list) -> list:
        if self.draw_roi is not None:
            quads = [q for q in quads if not _inside(q.pts.mean(axis=0), self.draw_roi)]
        if self.discard_roi is not None:
            quads = [q for q in quads if _inside(q.pts.mean(axis=0), self.discard_roi)]
        return quads

    def _read_discard(self, frame: np.ndarray) -> list[Seen]:
        """The new cards on the pile, the top one first (the tracker reports them lower first).
        Usually the changed pixels outline one card. When they hold more than the cards read
        there (a double put down as a fan, whose union is no card's shape; a card laid on its
        twin, which changes only part of its outline), the card detector outlines the cards
        inside the change, once per rest (vision/track/fan.py); the order they lie in is
        vision/track/stack.py's."""
        if self._reference is None:
            return self._first_look(frame)
        mask = changed_mask(self._reference, frame)
        if self._rest_quads is None:
            readings = self.recognizer.read_quads(frame, self._on_pile(self._changed_cards(mask)))
            if unexplained(mask, readings, self.discard_roi, CONFIRM_THRESHOLD):
                self._rest_quads = self._on_pile(cards_in_change(self.recognizer, frame, mask))
                found = self.recognizer.read_quads(frame, self._rest_quads)
                if found and not unexplained(mask, found, self.discard_roi, CONFIRM_THRESHOLD):
                    readings = found
                elif found and sum(r.sure for r in found) > sum(r.sure for r in readings):
                    readings, self._doubt = found, "more changed on the pile than the cards read"
                else:
                    self._doubt = "more changed on the pile than the cards read" if readings else None
            else:
                self._rest_quads = []            # the change was one card: no need to look again this rest
        elif self._rest_quads:
            readings = self.recognizer.read_quads(frame, self._rest_quads)
        else:
            readings = self.recognizer.read_quads(frame, self._on_pile(self._changed_cards(mask)))
        if len(readings) > 1:
            order, known = top_first(frame, [r.quad.pts for r in readings])
            readings = [readings[i] for i in order]
            if not known and len({r.card for r in readings}) > 1:
                self._doubt = "which card lies on top"
        self._overlay = readings
        return [Seen(r.card, r.confidence, r.quad.pts, r.score) for r in readings]

    def _first_look(self, frame: np.ndarray) -> list[Seen]:
        """Before any reference: cards that read as faces are the pile's top; a card-shaped outline
        that reads as no face with confidence is the draw pile (a card back)."""
        readings, back_quads = self.recognizer.read_all(frame, close_ups=False)   # a table from above
        faces = [r for r in readings if r.confidence >= CONFIRM_THRESHOLD]
        backs = back_quads + [r.quad for r in readings if r.confidence < CONFIRM_THRESHOLD]
        if self.draw_roi is None and backs:
            self.draw_roi = _around(backs[0].pts, frame.shape, 0.15)
        self._overlay = faces
        return [Seen(r.card, r.confidence, r.quad.pts, r.score) for r in faces[:1]]

    def _draw_hint(self, t: float, motion: np.ndarray) -> list[dict]:
        if self.draw_roi is None:
            return []
        if self._moving(motion, self.draw_roi):
            self._hint_last_motion = t
            if not self._hint_active:
                self._hint_active = True
                return [{"type": "draw_hint", "t": round(t, 3)}]
        elif self._hint_active and t - self._hint_last_motion > HINT_REST_S:
            self._hint_active = False
        return []

    def set_reveal(self, on: bool) -> None:
        """Reveal mode on or off while running (the web's "read a hand"): a fresh reading each time."""
        self._last_reveal = None
        self.reveal = on

    def _reveal(self, t: float, frame: np.ndarray, motion: np.ndarray) -> list[dict]:
        if float(motion.mean()) > MOTION_FRAC:
            return []
        readings = self.recognizer.read(frame)
        self._overlay = readings
        ids = sorted(r.card for r in readings)
        if ids == self._last_reveal or not ids:
            return []
        self._last_reveal = ids
        return [{"type": "reveal_cards", "t": round(t, 3), "cards": [r.as_json() for r in readings]}]

    # -- the loop ----------------------------------------------------------------------------------
    def run(self, on_event, stop_event: threading.Event | None = None) -> None:
        stop_event = stop_event or threading.Event()
        start_wall, start_t = None, None
        n = 0
        try:
            for t, frame in self.source.frames(stop=stop_event.is_set):
                if self.realtime:
                    if start_wall is None:
                        start_wall, start_t = time.monotonic(), t
                    lag = (t - start_t) - (time.monotonic() - start_wall)
                    if lag > 0:
                        time.sleep(lag)
                    elif lag < -LATE_S:
                        # behind the recording: drop the frame, as a live camera drops what is not
                        # read in time, rather than fall further and further behind
                        self.frames_dropped += 1
                        continue
                t0 = time.perf_counter()
                self.latest_frame = frame
                events = self.process(t, frame)
                self.frame_ms.append((time.perf_counter() - t0) * 1000)
                for e in events:
                    on_event(e)
                n += 1
                if n % self.jpeg_every == 0:
                    self.latest_jpeg = self._annotate(frame)
        finally:
            self.source.close()
        if self.status["state"] == "running":
            self._set_status("ended", "stopped")

    def _annotate(self, frame: np.ndarray) -> bytes:
        img = frame.copy()
        for roi, colour in ((self.discard_roi, (0, 200, 0)), (self.draw_roi, (200, 120, 0))):
            if roi is not None:
                x, y, w, h = roi
                cv2.rectangle(img, (x, y), (x + w, y + h), colour, 1)
        self._annotate_seats(img)
        for r in self._overlay:
            pts = r.quad.pts.astype(np.int32)
            ok = r.confidence >= CONFIRM_THRESHOLD
            cv2.polylines(img, [pts], True, (0, 255, 0) if ok else (0, 165, 255), 2)
            cv2.putText(img, f"{r.card} {r.confidence:.2f}", tuple(int(v) for v in pts[0]), cv2.FONT_HERSHEY_SIMPLEX,
                        0.45, (255, 255, 255), 1, cv2.LINE_AA)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 70])
        return buf.tobytes() if ok else b""


    def _annotate_seats(self, img: np.ndarray) -> None:
        """Where the hands at the pile come in (the camera page draws the seats over the picture)."""
        h, w = img.shape[:2]
        for s, _ in self.hands.last_blobs:
            x, y = edge_point(s)
            cv2.circle(img, (int(min(w - 1, x * w)), int(min(h - 1, y * h))), 11, (255, 0, 255), 2)


def together(events: list[dict]) -> list[dict]:
    """The play events of one settle as one play of all their cards (lower card first): the
    referee takes a double as one play, and the second card alone would be a jump-in on one's own
    card. Its confidence is the least sure card's; unconfirmed if any card is."""
    plays = [e for e in events if e["type"] == "play"]
    if len(plays) < 2:
        return events
    merged = dict(plays[0])
    merged["cards"] = [c for e in plays for c in e["cards"]]
    merged["confidence"] = min(e["confidence"] for e in plays)
    if any(e.get("unconfirmed") for e in plays):
        merged["unconfirmed"] = True
    return [e for e in events if e["type"] != "play"] + [merged]


def changed_mask(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """The pixels that changed between two resting views of the table (255), closed and cleaned."""
    diff = cv2.absdiff(before, after).max(axis=2)
    diff = cv2.GaussianBlur(diff, (5, 5), 0)
    mask = (diff > 40).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))


def changed_cards(before: np.ndarray, after: np.ndarray, min_area: int = 1500, mask: np.ndarray | None = None,
                  card_aspect: float = CARD_ASPECT) -> list:
    """Card outlines among the pixels that changed between two resting views of the table: a card
    put on a messy pile is exactly the part of the picture that is new. `card_aspect`: the cards'
    long side over their short side (a taught deck's own)."""
    from ..locate import Quad
    from ..locate.contour import _quad_from_contour
    if mask is None:
        mask = changed_mask(before, after)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        if cv2.contourArea(c) < min_area:
            continue
        got = _quad_from_contour(c, card_aspect)
        if got is not None and got[1] >= 0.3:
            out.append(Quad(got[0], max(got[1], 0.7)))
    return out


def _inside(p, roi) -> bool:
    x, y, w, h = roi
    return x <= p[0] < x + w and y <= p[1] < y + h


def _around(pts: np.ndarray, shape, grow: float) -> tuple[int, int, int, int]:
    """A box around a card outline, grown by `grow` card lengths on every side (cards land loosely)."""
    pts = np.asarray(pts, np.float32)
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    g = grow * max(x1 - x0, y1 - y0)
    x0, y0 = max(0, int(x0 - g)), max(0, int(y0 - g))
    x1, y1 = min(shape[1], int(x1 + g)), min(shape[0], int(y1 + g))
    return (x0, y0, x1 - x0, y1 - y0)
