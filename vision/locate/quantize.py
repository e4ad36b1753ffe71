"""Stage 1's detector in 8-bit integers: a tool, measured and not shipped.

The detector is most of a photo's reading time (two looks of a 320 px YOLO11n-OBB). Static int8
quantization (onnxruntime, QDQ, weights per channel) makes a look about a quarter cheaper on the
2 cores here. What must stay in float is the head's decoding: its output packs box coordinates
(0-320 pixels), angles and class scores (0-1) into one tensor, and one 8-bit scale for all of them
turns every score into 0 (measured: no box survived). So the last convolution of each branch and
everything after them run in float; the backbone and neck, where the time goes, in int8.

Why it is not what the app runs (measured 2026-11-24, models/README.md): it finds as many cards
(held-out scenes 0.969 against 0.979 on tables, 0.817 against 0.794 close up), but the outlines
move a little, and on the 257 cards of the table scenes from above the reading fell from 0.864 with
none wrong and sure to 0.825 with 5 wrong and sure. Accuracy first: `python -m
vision.locate.quantize` writes models' card-detector.int8.onnx for anyone who wants to measure it
again (bench/vision_locate.py --compare, bench/vision_accuracy.py with TABLEREF_MODELS).

The activations' ranges (percentiles, see CALIBRATION_PERCENTILE) are calibrated on synthetic scenes
(tables from above and close-ups, each seen as the detector sees it: as it is and zoomed out twice),
never on the real photos.
"""
from __future__ import annotations

import contextlib
import re
import tempfile
from pathlib import Path

import cv2
import numpy as np

from ..atomic import write_atomic

CALIBRATION_SCENES = 48        # half tables, half close-ups; each seen at zoom-outs 1 and 2
CALIBRATION_SEED = 9100        # a seed no training set uses
# each activation's range: its 99.999th percentile, not its extreme. Measured on the sweep of the
# real photos at card sizes 5 and 10% and under motion blur (162 readings): min-max ranges and
# entropy calibration lost 3 small cards the float model found (156 right against 159);
# percentile ranges kept them all (160)
CALIBRATION_PERCENTILE = 99.999
# the head's decoding, and the last convolution of each of its branches (box, class, angle)
KEEP_FLOAT = re.compile(r"^/model\.\d+/(?!cv[234]\.\d/)|^/model\.\d+/cv[234]\.\d/cv[234]\.\d\.2/")


def int8_path(fp32: Path) -> Path:
    """Where the int8 twin of a detector file lives: card-detector.onnx -> card-detector.int8.onnx."""
    return fp32.with_name(fp32.stem + ".int8.onnx")


def _head_nodes(model) -> list[str]:
    """The names of the nodes of the detector's last module (its head) that stay in float."""
    last = max(int(m.group(1)) for n in model.graph.node if (m := re.match(r"^/model\.(\d+)/", n.name)))
    return [n.name for n in model.graph.node
            if n.name.startswith(f"/model.{last}/") and KEEP_FLOAT.match(n.name)]


def calibration_inputs(detector, scenes: int = CALIBRATION_SCENES, seed: int = CALIBRATION_SEED) -> list[np.ndarray]:
    """The detector's input tensors for `scenes` synthetic scenes, each at both looks."""
    from vision.synth.generate import make_scene
    xs = []
    for i in range(scenes):
        jpeg, _ = make_scene("uno", seed, i, 640, layout="closeup" if i % 2 else "table")
        img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        xs += [detector._letterbox(img, z, square=True)[0] for z in (1.0, 2.0)]
    return xs


def quantize_detector(fp32: Path, out: Path | None = None, scenes: int = CALIBRATION_SCENES,
                      seed: int = CALIBRATION_SEED) -> Path:
    """Writes the int8 twin of the detector at `fp32` (atomically) and returns its path."""
    import onnx
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                          quant_pre_process, quantize_static)

    from .detector import CardDetector
    out = out or int8_path(fp32)
    det = CardDetector(fp32)
    inputs = calibration_inputs(det, scenes, seed)

    class Reader(CalibrationDataReader):
        def __init__(self):
            self._it = iter(inputs)

        def get_next(self):
            x = next(self._it, None)
            return None if x is None else {det.input_name: x}

    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        # a free-shape model: symbolic shape inference cannot finish on it, and is not needed.
        # In the temporary folder: onnxruntime leaves its scratch files in the working directory
        with contextlib.chdir(tmp):
            quant_pre_process(str(fp32.resolve()), str(pre), skip_symbolic_shape=det.dynamic)
        keep = _head_nodes(onnx.load(str(pre)))
        part = Path(tmp) / "int8.onnx"
        quantize_static(str(pre), str(part), Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, nodes_to_exclude=keep,
                        calibrate_method=CalibrationMethod.Percentile,
                        extra_options={"CalibPercentile": CALIBRATION_PERCENTILE})
        write_atomic(out, lambda f: f.write(part.read_bytes()))
    return out


if __name__ == "__main__":
    import sys

    from .detector import DEFAULT_MODEL
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_MODEL
    print(f"wrote {quantize_detector(src)}")
