"""vision/locate/warm_start.py: the committed ONNX detector becomes trainable PyTorch weights that
compute what the ONNX file computes, so `tableref train --detector --init models/card-detector.onnx`
continues from the shipped model instead of starting over."""

import os

import cv2
import numpy as np
import pytest

pytest.importorskip("ultralytics", reason="needs the train extra: pip install -e '.[train]'")

from vision.locate.detector import DEFAULT_MODEL, CardDetector  # noqa: E402
from vision.synth.generate import make_scene  # noqa: E402


@pytest.fixture(scope="module")
def inputs():
    det = CardDetector(DEFAULT_MODEL)
    batch = []
    for i, (deck, layout) in enumerate([("uno", "table"), ("ono", "closeup"), ("dino2", "table"),
                                        ("snake-cup", "closeup"), ("uno", "closeup"), ("ono", "table")]):
        jpeg, _ = make_scene(deck, 31, i, 320, layout)
        batch.append(det._letterbox(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR), square=True)[0])
    x = np.concatenate(batch)
    ref = np.concatenate([det.session.run(None, {det.input_name: x[i:i + 1]})[0] for i in range(len(x))])
    return x, ref


def run(model, x):
    import torch
    with torch.no_grad():
        return model(torch.from_numpy(x))[0].numpy()


@pytest.mark.parametrize("calibrate", [False, True])
def test_rebuilt_model_computes_what_the_onnx_file_computes(inputs, calibrate):
    os.environ.setdefault("YOLO_OFFLINE", "true")
    from vision.locate.warm_start import rebuild
    x, ref = inputs
    model = rebuild(DEFAULT_MODEL, "yolo11n-obb.yaml", 2, calibration=x if calibrate else None)
    out = run(model, x)
    assert out.shape == ref.shape == (len(x), 7, 2100)   # 4 box values, 2 class scores, 1 angle per anchor
    # box coordinates are in input pixels (0..320), scores and angle in 0..1 and radians
    assert np.abs(out[:, 4:6] - ref[:, 4:6]).max() < 1e-3
    assert np.abs(out[:, :4] - ref[:, :4]).max() < 0.05
    assert ref[:, 4:6].max() > 0.5                        # the scenes do hold cards the model sees


def train_and_eval_heads(model, x):
    import torch
    with torch.no_grad():
        model.eval()
        ev = model(torch.from_numpy(x))[1]
        model.train()
        tr = model(torch.from_numpy(x))
    model.eval()
    return ev, tr


def test_calibrated_batch_norms_keep_the_function_in_training_mode(inputs):
    # in training mode a batch norm normalises by the batch's own statistics; calibrated on this
    # batch, the head's raw outputs match eval mode's, so training starts where the model is.
    # Without calibration they do not: the folding changed every feature's scale.
    import torch
    from vision.locate.warm_start import rebuild
    x, _ = inputs
    for calibrate, close in ((True, True), (False, False)):
        ev, tr = train_and_eval_heads(rebuild(DEFAULT_MODEL, "yolo11n-obb.yaml", 2,
                                              calibration=x if calibrate else None), x)
        for key in ("boxes", "scores", "angle"):
            same = torch.allclose(ev[key], tr[key], atol=0.05, rtol=0.02)
            assert same == close, (calibrate, key, float((ev[key] - tr[key]).abs().max()))


def test_a_model_of_another_shape_is_refused(tmp_path):
    from vision.locate.warm_start import rebuild
    with pytest.raises(ValueError, match="shape|lacks|no folded"):
        rebuild(DEFAULT_MODEL, "yolo11s-obb.yaml", 2)
