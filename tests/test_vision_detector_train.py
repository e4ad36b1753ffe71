"""`tableref train --detector`: ultralytics trains the card detector from its yaml, offline, and the
export is a model the product's onnxruntime detector loads. A tiny run (16 scenes, 1 epoch, 64 px):
it proves the command works end to end, not that the model is good (tests/test_vision_detector.py
holds the committed model to its accuracy)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vision.locate.detector import CardDetector

REPO = Path(__file__).resolve().parents[1]

pytest.importorskip("ultralytics", reason="needs the train extra: pip install -e '.[train]'")


def test_train_detector_command_exports_a_model_the_detector_loads(tmp_path):
    out = tmp_path / "det.onnx"
    env = {k: v for k, v in os.environ.items() if not k.startswith("YOLO_")}
    r = subprocess.run([sys.executable, "-m", "web.cli", "train", "--detector", "--images", "16", "--epochs", "1",
                        "--imgsz", "64", "--seed", "5", "--out", str(out)],
                       capture_output=True, text=True, timeout=900, env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    card = json.loads(out.with_suffix(".json").read_text())
    assert card["model_yaml"] == "yolo11n-obb.yaml" and card["init"] is None
    assert card["command"].startswith("tableref train --detector --images 16")
    det = CardDetector(out)
    assert det.size == 64
    # the run's weights export again by themselves (weights trained on a GPU machine come back so)
    weights = REPO / card["weights"]
    again = tmp_path / "again.onnx"
    r = subprocess.run([sys.executable, "-m", "web.cli", "train", "--detector", "--export", str(weights),
                        "--out", str(again)], capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert json.loads(again.with_suffix(".json").read_text()) == card
    assert CardDetector(again).size == 64


def test_train_detector_export_refuses_weights_without_their_run(tmp_path):
    r = subprocess.run([sys.executable, "-m", "web.cli", "train", "--detector", "--export", str(tmp_path / "no.pt")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "no .pt weights at" in r.stderr and "Traceback" not in r.stderr
    stray = tmp_path / "weights" / "best.pt"
    stray.parent.mkdir()
    stray.write_bytes(b"not a checkpoint")
    r = subprocess.run([sys.executable, "-m", "web.cli", "train", "--detector", "--export", str(stray)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "card.json" in r.stderr and "Traceback" not in r.stderr
    # its card beside it, but the weights are no checkpoint: named, and no model written
    (tmp_path / "card.json").write_text(json.dumps({"imgsz": 64}))
    out = tmp_path / "det.onnx"
    r = subprocess.run([sys.executable, "-m", "web.cli", "train", "--detector", "--export", str(stray),
                        "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "cannot export" in r.stderr and "Traceback" not in r.stderr
    assert not out.exists()


def test_train_detector_refuses_a_gpu_this_machine_lacks():
    import torch
    n = torch.cuda.device_count() if torch.cuda.is_available() else 0
    r = subprocess.run([sys.executable, "-m", "web.cli", "train", "--detector", "--device", str(n)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and f"no GPU {n} here" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "web.cli", "train", "--detector", "--hours", "0"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "--hours" in r.stderr and "Traceback" not in r.stderr


def test_train_detector_refuses_missing_init_weights(tmp_path):
    r = subprocess.run([sys.executable, "-m", "web.cli", "train", "--detector", "--init", str(tmp_path / "no.pt")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "no weights at" in r.stderr and "Traceback" not in r.stderr


def test_train_detector_refuses_an_edged_share_outside_0_to_1():
    r = subprocess.run([sys.executable, "-m", "web.cli", "train", "--detector", "--edged", "1.5"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "--edged" in r.stderr and "Traceback" not in r.stderr


def test_training_continues_from_the_shipped_onnx_detector(tmp_path):
    # one epoch on 20 scenes: from scratch that finds nothing; continued from the shipped model's
    # weights (rebuilt from its ONNX file) it still finds the cards of scenes it never saw
    import cv2
    import numpy as np

    from vision.locate.quad import quad_iou
    from vision.synth.generate import make_scene
    out = tmp_path / "det.onnx"
    env = {k: v for k, v in os.environ.items() if not k.startswith("YOLO_")}
    r = subprocess.run([sys.executable, "-m", "web.cli", "train", "--detector", "--images", "12", "--closeups", "8",
                        "--epochs", "1", "--imgsz", "320", "--seed", "6", "--edged", "0.25",
                        "--init", "models/card-detector.onnx",
                        "--out", str(out)], capture_output=True, text=True, timeout=900, env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    card = json.loads(out.with_suffix(".json").read_text())
    assert card["init"] == "models/card-detector.onnx" and card["closeups"] == 8 and card["edged"] == 0.25
    det = CardDetector(out)
    found = whole = 0
    for i in range(12):
        jpeg, labels = make_scene("uno", 4242, i, 320)
        img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        boxes = [q for q, kind, _ in det.boxes(img) if kind == "card"]
        for c in labels["cards"]:
            if c["card"] != "back" and c["visible"] > 0.95:
                whole += 1
                found += any(quad_iou(q, np.float32(c["quad"])) >= 0.5 for q in boxes)
    assert whole >= 6 and found >= 0.8 * whole, (found, whole)
