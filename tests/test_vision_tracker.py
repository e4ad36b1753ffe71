"""The pile tracker on hand-written observation sequences: each physical card is reported once."""
import math

import numpy as np

from vision.track.tracker import Observation, PileTracker, Seen


def card_at(cx, cy, angle_deg, w=56, h=87):
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return np.float32([(cx + x * c - y * s, cy + x * s + y * c) for x, y in pts])


def feed(tracker, frames):
    """frames: list of (t, moving, [(card, conf, polygon), ...]) -> all events."""
    out = []
    for t, moving, cards in frames:
        out += tracker.update(Observation(t, moving, [Seen(c, p, poly) for c, p, poly in cards]))
    return out


def still(t0, t1, cards, fps=30):
    n = int(round((t1 - t0) * fps))
    return [(t0 + i / fps, False, cards) for i in range(n)]


def moving(t0, t1, fps=30):
    n = int(round((t1 - t0) * fps))
    return [(t0 + i / fps, True, []) for i in range(n)]


A, B, C = card_at(320, 240, 0), card_at(330, 236, 25), card_at(310, 250, -30)


def test_first_card_is_a_flip_then_plays_once_each():
    tr = PileTracker(settle_s=0.15)
    ev = feed(tr, still(0, 1.0, [("red-5", 0.9, A)]) + moving(1.0, 1.5)
              + still(1.5, 3.0, [("red-7", 0.9, B), ("red-5", 0.8, A)]))
    assert [e["type"] for e in ev] == ["flip", "play"]
    assert ev[0]["card"] == "red-5"
    assert ev[1]["cards"] == ["red-7"]
    # settled 0.15 s after the pile came to rest at t=1.5 (frames every 1/30 s)
    assert 1.65 <= ev[1]["t"] <= 1.70


def test_same_card_id_twice_in_a_row_is_two_plays():
    tr = PileTracker(settle_s=0.15)
    ev = feed(tr, still(0, 0.5, [("red-5", 0.9, A)]) + moving(0.5, 1.0)
              + still(1.0, 1.5, [("red-7", 0.9, B)]) + moving(1.5, 2.0)
              + still(2.0, 2.5, [("red-7", 0.9, C)]))
    assert [e.get("cards") for e in ev[1:]] == [["red-7"], ["red-7"]]


def test_doubles_give_two_plays_lower_card_first():
    tr = PileTracker(settle_s=0.15)
    # the locator lists the top card first; B (top) was put down after C
    ev = feed(tr, still(0, 0.5, [("blue-3", 0.9, A)]) + moving(0.5, 1.0)
              + still(1.0, 1.5, [("green-3", 0.9, B), ("yellow-3", 0.85, C)]))
    assert [e["cards"] for e in ev[1:]] == [["yellow-3"], ["green-3"]]
    assert ev[1]["t"] == ev[2]["t"]


def test_hand_resting_on_the_pile_sends_nothing_until_it_leaves():
    tr = PileTracker(settle_s=0.15)
    ev = feed(tr, still(0, 0.5, [("red-5", 0.9, A)]) + moving(0.5, 1.0)
              # the hand rests over the new card: no whole card outline is read under it
              + still(1.0, 3.0, []) + moving(3.0, 3.3)
              + still(3.3, 4.0, [("red-9", 0.9, B)]))
    assert [e.get("cards") for e in ev[1:]] == [["red-9"]]
    assert ev[1]["t"] >= 3.45


def test_dropped_frames_still_one_event_per_card():
    tr = PileTracker(settle_s=0.15)
    # a camera delivering irregular frames: gaps of up to 0.4 s, and a long rest afterwards
    times = [0.0, 0.05, 0.45, 0.5, 0.9]
    frames = [(t, False, [("red-5", 0.9, A)]) for t in times]
    frames += [(1.0, True, []), (1.4, True, [])]
    frames += [(t, False, [("red-7", 0.9, B), ("red-5", 0.9, A)]) for t in (1.8, 1.85, 2.6, 3.5, 7.0, 9.0)]
    ev = feed(tr, frames)
    assert [e["type"] for e in ev] == ["flip", "play"]
    assert ev[1]["t"] == 2.6   # the first frame at least 0.15 s after the rest began at 1.8


def test_low_confidence_is_sent_unconfirmed():
    tr = PileTracker(settle_s=0.15, confirm=0.6)
    ev = feed(tr, still(0, 0.5, [("red-5", 0.9, A)]) + moving(0.5, 1.0)
              + still(1.0, 1.5, [("red-8", 0.4, B)]))
    assert ev[1]["cards"] == ["red-8"] and ev[1]["unconfirmed"] is True
    assert "unconfirmed" not in ev[0]


def test_a_rest_is_judged_on_the_readers_own_confidence_then_reported_calibrated():
    # a calibration that pins everything unsure at 0.59 and everything sure at 0.99, as a fitted
    # ConfidenceMap may: averaging those would call a card read in one frame of three sure
    def calibrated(raw):
        return 0.59 if raw < 0.6 else 0.99
    tr = PileTracker(settle_s=0.15, confirm=0.6, calibration=calibrated)
    seen = [Seen("red-5", 0.99, A, 0.9)]
    flicker = [[Seen("red-8", 0.99, B, 0.62)], [Seen("red-8", 0.59, B, 0.3)], [Seen("red-8", 0.59, B, 0.3)]]
    frames = [(i / 30, False, seen) for i in range(12)] + [(0.4 + i / 30, True, []) for i in range(10)]
    frames += [(1.0 + i / 30, False, flicker[i % 3]) for i in range(6)]
    ev = []
    for t, mv, cards in frames:
        ev += tr.update(Observation(t, mv, cards))
    assert [e["type"] for e in ev] == ["flip", "play"]
    # the readers' own confidences over the rest: 0.62, 0.3, 0.3, 0.62, 0.3, 0.3 (settled at the
    # sixth frame, 0.167 s after the first) -> 0.407, unsure, reported as calibrated(0.407) = 0.59;
    # the calibrated ones averaged would have been 0.723, sure
    assert len([t for t, mv, _ in frames if t >= 1.0]) == 6
    assert ev[1]["cards"] == ["red-8"] and ev[1]["unconfirmed"] is True and ev[1]["confidence"] == 0.59
    assert ev[0]["confidence"] == 0.99 and "unconfirmed" not in ev[0]


def feed_compared(tracker, frames):
    """As feed, each frame carrying the time of the frame before it (what its motion was told
    against), as the pipeline gives them."""
    out, prev = [], None
    for t, moving, cards in frames:
        out += tracker.update(Observation(t, moving, [Seen(c, p, poly) for c, p, poly in cards], prev))
        prev = t
    return out


def starved():
    # a camera short of CPU: a frame every 0.3 s. The flip rests from 0.0; a hand brings the
    # red 7 (moving at 0.3 and 0.6: 0.6 differs from 0.3), the pile is still at 0.9 (the same as
    # at 0.6, so at rest since 0.6), and the next hand is in view at 1.2
    return ([(0.0, False, [("red-5", 0.9, A)]), (0.3, True, []), (0.6, True, []),
             (0.9, False, [("red-7", 0.9, B), ("red-5", 0.9, A)]),
             (1.2, True, []), (1.5, True, [])])


def test_a_card_covered_again_one_slow_frame_after_it_rests_is_still_reported():
    ev = feed_compared(PileTracker(settle_s=0.15), starved())
    # the flip needs a second frame to be known at rest (the first has nothing to compare with)
    assert [e.get("cards") for e in ev if e["type"] == "play"] == [["red-7"]]
    # at rest since 0.6 (frame 0.9 matches it), 0.3 s >= settle_s: reported with frame 0.9
    assert [e["t"] for e in ev if e["type"] == "play"] == [0.9]


def test_counting_the_rest_from_the_first_still_frame_misses_that_card():
    # the peer: the rest starts at 0.9 and the pile moves again before 0.9 + 0.15 is seen
    ev = feed_compared(PileTracker(settle_s=0.15, rest_from_compared=False), starved())
    assert [e for e in ev if e["type"] == "play"] == []


def test_a_still_frame_compared_with_one_long_ago_counts_no_rest_before_it_was_taken():
    # since is never later than the frame itself
    tr = PileTracker(settle_s=0.15)
    ev = tr.update(Observation(1.0, False, [Seen("red-5", 0.9, A)], since=2.0))
    assert ev == [] and tr._still_since == 1.0
