"""Fitting the confidence map (calibrate.py) on synthetic photos: `tableref train --confidence`.

The recognizer as shipped reads fresh renders it never trained on (seeds of their own): close-ups,
one card or a few held or lying near the lens (vision/synth/closeup.py), and table scenes from above
(vision/synth/generate.py), both in random print styles. Every face-up card in view (at least 75% of
it in a close-up, 90% on a table) is judged by the reading whose outline overlaps it (IoU 0.5 or
more), at the readers' own confidence (Reading.raw); a card no reading overlaps counts as read
wrong at confidence 0. The development photos are never used: they are what the map is measured
on (bench/vision_accuracy.py prints the calibration table).
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from .calibrate import ConfidenceMap, expected_calibration_error, fit

SEED = 2027          # no detector or classifier training run rendered with this seed
IN_VIEW = {"closeup": 0.75, "table": 0.9}   # a card judged: this much of it in the picture, not under another
                     # card or a hand (a card held close: a thumb and fingertips over its edges, as users hold them)
SAME = 0.5           # the reading of a card: its outline overlaps the card's this much (IoU)


def photos(deck: str, closeups: int, scenes: int, seed: int = SEED):
    """(kind, index, picture BGR, labels) of the synthetic photos, close-ups first."""
    from vision.synth.generate import make_scene
    for kind, n in (("closeup", closeups), ("table", scenes)):
        for i in range(n):
            jpeg, labels = make_scene(deck, seed, i, 640, layout=kind)
            yield kind, i, cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR), labels


def judged(rec, img: np.ndarray, labels: dict, in_view: float = 0.9) -> list[tuple[float, bool]]:
    """(raw confidence, right) for each face-up card of one labelled photo with at least `in_view` of it seen."""
    from vision.locate import quad_iou
    reads = rec.read(img)
    out = []
    for c in labels["cards"]:
        if c["card"] == "back" or c["visible"] < in_view:
            continue
        truth = np.float32(c["quad"])
        best = max(reads, key=lambda r: quad_iou(r.quad.pts, truth), default=None)
        if best is None or quad_iou(best.quad.pts, truth) < SAME:
            out.append((0.0, False))
        else:
            out.append((best.raw, best.card == c["card"]))
    return out


def fit_confidence(rec, closeups: int = 600, scenes: int = 100, seed: int = SEED,
                   log: Callable[[str], None] = print, readings: Path | None = None) -> ConfidenceMap:
    """The confidence map of `rec`'s readers, fitted on `closeups` + `scenes` synthetic photos of its
    deck (see the module docstring). `readings`: a JSON-lines file to keep each judged card in
    ({"photo", "confidence", "right"}), to fit again or study without reading the photos again."""
    conf, right, kept = [], [], []
    t0 = time.monotonic()
    total = closeups + scenes
    for k, (kind, i, img, labels) in enumerate(photos(rec.deck.id, closeups, scenes, seed), 1):
        for c, ok in judged(rec, img, labels, IN_VIEW[kind]):
            conf.append(c)
            right.append(ok)
            kept.append(json.dumps({"photo": f"{kind} {i}", "confidence": round(c, 5), "right": ok}))
        if k % 50 == 0 or k == total:
            left = (time.monotonic() - t0) / k * (total - k)
            log(f"  {k}/{total} photos, {len(conf)} cards, {sum(right) / max(1, len(right)):.3f} right, "
                f"about {left:.0f} s left")
    if readings is not None:
        readings.parent.mkdir(parents=True, exist_ok=True)
        readings.write_text("".join(line + "\n" for line in kept))
    m = fit(conf, right)
    mapped = [m(c) for c in conf]
    meta = dict(m.meta, deck=rec.deck.id, seed=seed, closeups=closeups, scenes=scenes,
                ece_before=round(expected_calibration_error(conf, right), 4),
                ece_after=round(expected_calibration_error(mapped, right), 4))
    return ConfidenceMap(m.below, m.above, meta)
