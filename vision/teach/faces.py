"""The card faces in a teach photo: the recognizer's own locate and verify stages, nothing new.

A taught card must be found the way it will be found when it is read, so the outline comes from
Recognizer.locate_all and is checked by the same verify step; only outlines that verify count.
"""
from __future__ import annotations

import numpy as np

from ..locate import Quad, quad_iou
from ..rectify import warp_card

SAME_CARD_IOU = 0.3      # outlines overlapping more than this are one card seen twice (two zooms)


def card_outlines(rec, bgr: np.ndarray) -> list[Quad]:
    """The verified outlines of the face-up cards in a photo, best first, one per card.
    `rec`: a vision.recognizer.Recognizer (its locator and verify step)."""
    from ..recognizer import four_coloured
    faces, backs = rec.locate_all(bgr, close_ups=True)
    # a black wild may be taken for a back, as the recognizer knows (read_all does the same)
    faces = faces + [q for q in backs if four_coloured(warp_card(bgr, q.pts))]
    found: list[tuple[float, Quad]] = []
    for q in faces:
        q2, _, verdict = rec._verified(bgr, q, warp_card(bgr, q.pts))
        if verdict.ok:
            found.append((verdict.score, q2))
    found.sort(key=lambda t: -t[0])
    out: list[Quad] = []
    for _, q in found:
        if all(quad_iou(q.pts, o.pts) < SAME_CARD_IOU for o in out):
            out.append(q)
    return out
