"""A teach finds each photo's outlines once a look (Recognizer.locating_once).

A teach meets each photo several times under one look (its close-up check reads it, its one card
is found, the second look finds its outlines again), and finding cards is most of a teach's time:
an inked UNO deck's 54 photos took 47-55 s, 29 s with each picture located once a look. What is
found must not change: the outlines are a pure function of the picture and the look.
"""
import random
from dataclasses import replace

import cv2
import numpy as np

from vision.art.handdrawn import random_hand
from vision.recognizer import Recognizer
from vision.synth.photo import print_photos


def _photos(n=2, seed=7200, drawn=True):
    hand = replace(random_hand(random.Random("uno/7100")), coloured_in=False) if drawn else None
    return [(cid, img) for cid, _, img, _ in print_photos("uno", ["red-6", "blue-skip", "green-1"][:n], 1,
                                                             seed=seed, hand=hand)]


def _counted(rec, monkeypatch) -> list:
    calls = []
    inner = rec._locate_all

    def counted(bgr, close_ups, memo):
        calls.append(bgr.shape)
        return inner(bgr, close_ups, memo)
    monkeypatch.setattr(rec, "_locate_all", counted)
    return calls


def _pts(quads):
    return [q.pts.tolist() for q in quads]


def test_a_picture_met_again_under_the_same_look_is_not_looked_at_again(monkeypatch):
    rec = Recognizer("uno", text=False)
    calls = _counted(rec, monkeypatch)
    (_, img), (_, other) = _photos()
    outside = rec.locate_all(img)
    with rec.locating_once():
        first = rec.locate_all(img)
        again = rec.locate_all(img.copy())          # the same photo loaded again: another array
        assert len(calls) == 2
        assert _pts(first[0]) == _pts(again[0]) == _pts(outside[0]) and _pts(first[1]) == _pts(again[1])
        again[0].clear()                            # a caller's list is its own
        assert _pts(rec.locate_all(img)[0]) == _pts(first[0]) and len(calls) == 2
        rec.locate_all(other)                       # another picture
        rec.locate_all(img, close_ups=False)        # another way of looking
        look = rec.look
        rec.set_white_faces(True)                   # another look
        white = rec.locate_all(img)
        rec.set_look(look)
        rec.locate_all(img)                         # the first look again: found already
        assert len(calls) == 5
    # outside the block every call looks
    rec.set_white_faces(True)
    assert _pts(rec.locate_all(img)[0]) == _pts(white[0]) and len(calls) == 6
    assert rec.located is None


def test_a_teach_locates_each_photo_once_a_look_and_teaches_the_same_deck(tmp_path, monkeypatch):
    import contextlib

    from vision.teach.teach import teach_folder
    for cid, img in _photos(3, drawn=False):       # a print: looked at as built, close-ups checked
        (tmp_path / cid).mkdir()
        cv2.imwrite(str(tmp_path / cid / "0.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    taught = []
    for once in (False, True):
        rec = Recognizer("uno", text=False)
        calls = _counted(rec, monkeypatch)
        if not once:
            monkeypatch.setattr(rec, "locating_once", contextlib.nullcontext)
        td, report = teach_folder(rec, tmp_path)
        taught.append((td, report, len(calls)))
    (a, ra, looked), (b, rb, once) = taught
    assert a.cards == b.cards and len(a.cards) == 3 and ra.refused == rb.refused
    assert np.array_equal(a.protos, b.protos) and np.array_equal(a.labels, b.labels)
    assert a.meta["builtin"] == b.meta["builtin"] and a.white_faces == b.white_faces
    # each photo looked at by its close-up check and for its one card, as built: once
    assert once <= looked - 3
