"""The whole view's rests (vision/track/still.py), which "Teach this deck" takes a card on: a rest
begins with the first still frame after motion, is numbered, and its stillness is counted in the
source's seconds; the pipeline feeds it with its own motion test."""
import numpy as np
import pytest

from vision.locate.verify import PRINTED
from vision.track.still import StillWatch


def test_rests_are_numbered_and_stillness_counts_seconds():
    w = StillWatch()
    a, b = np.zeros((4, 4, 3), np.uint8), np.ones((4, 4, 3), np.uint8)
    v = w.update(0.0, False, a)
    assert (v.frames, v.rest, v.still_s) == (1, 1, 0.0) and v.image is a
    assert w.update(0.3, False, a).still_s == pytest.approx(0.3) and w.view.rest == 1
    v = w.update(0.4, True, b)                     # the card is lifted: no rest
    assert (v.rest, v.still_s) == (1, 0.0) and v.image is b
    assert w.update(0.5, True, b).still_s == 0.0
    v = w.update(0.6, False, b)                    # the next card laid: a new rest
    assert (v.frames, v.rest, v.still_s) == (5, 2, 0.0)
    assert w.update(1.4, False, b).still_s == pytest.approx(0.8)  # frames dropped in between: seconds, not frames
    assert w.view.rest == 2


class NoCards:
    """A recognizer that finds nothing: the pipeline's motion test alone is under test."""
    look = PRINTED          # the cards it would look for
    def read_all(self, frame, close_ups=False):
        return [], []

    def read(self, frame):
        return []

    def read_quads(self, frame, quads):
        return []

    def locate_all(self, frame, close_ups=False):
        return [], []


def test_the_pipeline_feeds_it_with_its_own_motion_test():
    from vision.track.pipeline import TablePipeline
    p = TablePipeline("http://127.0.0.1:9/none.mjpg", "dino2", recognizer=NoCards())
    table = np.full((480, 640, 3), 90, np.uint8)
    card = table.copy()
    card[150:330, 250:370] = 240                   # a white card laid on the table
    for i in range(4):
        p.process(i * 0.1, table)
    assert p.stillness.view.rest == 1 and abs(p.stillness.view.still_s - 0.3) < 1e-9
    p.process(0.4, card)                           # it lands: motion
    assert p.stillness.view.still_s == 0.0 and p.stillness.view.rest == 1
    for i in range(5, 11):
        p.process(i * 0.1, card)
    assert p.stillness.view.rest == 2 and abs(p.stillness.view.still_s - 0.5) < 1e-9
    assert p.stillness.view.image is card and p.stillness.view.frames == 11
    noisy = card.copy()
    noisy[0:2, 0:2] = 0                            # a few pixels of noise are not motion
    p.process(1.1, noisy)
    assert p.stillness.view.rest == 2 and p.stillness.view.still_s > 0.5


def test_while_paused_for_teaching_only_stillness_is_watched_then_the_pile_starts_afresh():
    from vision.track.pipeline import TablePipeline
    p = TablePipeline("http://127.0.0.1:9/none.mjpg", "dino2", recognizer=NoCards())
    table = np.full((480, 640, 3), 90, np.uint8)
    p.process(0.0, table)
    # the pile as a game had it: a card flipped, the pile's area found
    p.tracker.flipped, p.discard_roi = True, (100, 100, 200, 200)
    tracker = p.tracker
    paused = [True]
    p.paused = lambda: paused[0]
    card = table.copy()
    card[150:330, 250:370] = 240
    for i in range(1, 10):
        assert p.process(i * 0.1, card if i > 1 else table) == []
    assert p.tracker is tracker and p.stillness.view.rest == 2 and p.stillness.view.still_s > 0.5
    paused[0] = False
    p.process(1.0, card)
    # a new tracker, but the game's first card stays seen: the next card is a play, not a flip
    assert p.tracker is not tracker and p.tracker.flipped and p.discard_roi is None


@pytest.mark.parametrize("flipped", [False, True])
def test_the_card_left_lying_when_teaching_ends_is_no_play_and_the_next_card_is(flipped):
    """The host closes the teach page with the last card still down: the first rest after the pause
    takes what lies there as the pile, reporting nothing; the card then laid on it is the game's
    flip (before the game's first card) or a play (in the middle of a game), read by the real
    recognizer from a rendered table."""
    from vision.synth.teach_camera import TableScene
    from vision.track.pipeline import TablePipeline
    scene = TableScene("dino2", seed=4)
    p = TablePipeline("http://127.0.0.1:9/none.mjpg", "dino2")
    p.tracker.flipped = flipped
    paused = [True]
    p.paused = lambda: paused[0]
    table = scene.frame([])
    taught = scene.frame([("red-dingbat", scene.spot(0), 8.0)])
    t, events = 0.0, []
    for frame in [table] * 3 + [taught] * 5:          # the last card laid to teach, page open
        events += p.process(t, frame)
        t += 0.1
    paused[0] = False                                  # the page closed: the hold lapses
    for _ in range(12):
        events += p.process(t, taught)
        t += 0.1
    assert events == []
    both = scene.frame([("red-dingbat", scene.spot(0), 8.0), ("blue-chill", scene.spot(1), -5.0)])
    for _ in range(12):
        events += p.process(t, both)
        t += 0.1
    plays = [e for e in events if e["type"] in ("flip", "play")]
    assert len(plays) == 1, events
    assert plays[0]["type"] == ("play" if flipped else "flip")
    assert (plays[0].get("cards") or [plays[0].get("card")]) == ["blue-chill"]
