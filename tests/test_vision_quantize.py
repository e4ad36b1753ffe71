"""vision/locate/quantize.py: the app runs the card detector's int8 twin, which must find the same
cards as the float model it was made from."""
from __future__ import annotations

import shutil

import cv2
import numpy as np

from vision.locate import quad_iou
from vision.locate.detector import DEFAULT_MODEL, CardDetector, run_time_model
from vision.locate.quantize import int8_path, quantize_detector
from vision.synth.generate import make_scene


def _scene(i: int, layout: str) -> np.ndarray:
    # seed 4242: the held-out scenes of bench/vision_locate.py, not the calibration seed
    jpeg, _ = make_scene("uno", 4242, i, 640, layout=layout)
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def _agreement(a: CardDetector, b: CardDetector, images) -> tuple[int, int]:
    """(boxes of `a` that `b` also finds at IoU >= 0.8, boxes of `a`), over both looks."""
    same = total = 0
    for img in images:
        for z in (1.0, 2.0):
            theirs = [q for q, kind, _ in b.boxes(img, zoom_out=z) if kind == "card"]
            for q, kind, _ in a.boxes(img, zoom_out=z):
                if kind == "card":
                    total += 1
                    same += any(quad_iou(q, t) >= 0.8 for t in theirs)
    return same, total


def test_the_app_runs_the_committed_int8_twin_and_it_finds_what_the_float_model_finds():
    assert run_time_model() == int8_path(DEFAULT_MODEL) and int8_path(DEFAULT_MODEL).is_file()
    fp32, int8 = CardDetector(DEFAULT_MODEL), CardDetector()
    assert int8.path.name == "card-detector.int8.onnx" and int8.info == fp32.info   # shares the float card
    images = [_scene(i, "table") for i in range(6)] + [_scene(i, "closeup") for i in range(6)]
    same, total = _agreement(fp32, int8, images)
    assert total >= 20 and same >= 0.95 * total, (same, total)


def test_without_a_twin_the_float_model_runs(tmp_path):
    shutil.copy(DEFAULT_MODEL, tmp_path / DEFAULT_MODEL.name)
    assert run_time_model(tmp_path) == tmp_path / "card-detector.onnx"


def test_quantizing_writes_a_twin_that_loads_and_agrees(tmp_path):
    # 8 calibration scenes only, to keep the test short (the committed twin used 48)
    src = tmp_path / "card-detector.onnx"
    shutil.copy(DEFAULT_MODEL, src)
    out = quantize_detector(src, scenes=8)
    assert out == tmp_path / "card-detector.int8.onnx" and not list(tmp_path.glob("*.part"))
    assert out.stat().st_size < 0.5 * src.stat().st_size          # 8-bit weights
    images = [_scene(i, "table") for i in range(4)] + [_scene(i, "closeup") for i in range(4)]
    same, total = _agreement(CardDetector(src), CardDetector(out), images)
    assert total >= 16 and same >= 0.9 * total, (same, total)
