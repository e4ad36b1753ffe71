"""Speed of the vision pipeline on this machine.

1. Per-frame processing time (median, p90) of TablePipeline.process over a video (default: the
   demo recording), every frame timed, frames decoded beforehand so decoding is not counted.
2. Card settled -> event latency: for each play in demo.frames.json (the frame at which the card
   came to rest), the video time of the event minus the settle time, plus the processing time of
   the frame that produced it. Reported when the demo's frame log is present.
3. The whole still-image path (locate + rectify + identify) on a real 640x480 photo, if present,
   with each locator (the card detector, the white-border contours).
4. The card detector alone on that photo: onnxruntime (what the product runs) and, given the
   PyTorch weights it was exported from (--torch-weights, ultralytics installed), PyTorch on the
   same photo, as a ratio.

    .venv/bin/python bench/vision_speed.py [VIDEO] [--deck ono] [--torch-weights best.pt] [--json]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.track.pipeline import TablePipeline  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402


def _median_ms(fn, n: int = 30) -> float:
    fn()  # warm up
    ts = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1000)
    return round(float(np.median(ts)), 2)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("video", nargs="?", default=str(ROOT / "datasets" / "demo" / "demo.mp4"))
    ap.add_argument("--deck", default="ono")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--torch-weights", help="the detector's .pt weights, to time PyTorch against onnxruntime")
    args = ap.parse_args()
    rec = Recognizer(args.deck)
    res: dict = {}
    cap = cv2.VideoCapture(args.video)
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    frames = []
    while True:
        ok, f = cap.read()
        if not ok:
            break
        frames.append(f)
    if frames:
        pipe = TablePipeline(args.video, args.deck, recognizer=rec, realtime=False)
        times, events = [], []
        for i, f in enumerate(frames):
            t0 = time.perf_counter()
            ev = pipe.process(i / fps, f)
            dt = (time.perf_counter() - t0) * 1000
            times.append(dt)
            for e in ev:
                events.append((e, dt))
        res["frames"] = len(frames)
        res["frame_size"] = f"{frames[0].shape[1]}x{frames[0].shape[0]}"
        res["frame_ms_median"] = round(float(np.median(times)), 2)
        res["frame_ms_p90"] = round(float(np.percentile(times, 90)), 2)
        res["frame_ms_max"] = round(float(np.max(times)), 2)
        log = Path(args.video).with_suffix(".frames.json")
        if log.exists():
            meta = json.loads(log.read_text())
            settles = [c for c in meta.get("card_events", []) if c.get("type") in ("play", "flip")]
            lat = []
            plays = [(e, dt) for e, dt in events if e["type"] in ("play", "flip")]
            for c, (e, dt) in zip(settles, plays):
                # settled: the card rests and the hand is gone (the demo's settled_frame)
                settle_t = c["settled_frame"] / meta["fps"]
                lat.append((e["t"] - settle_t) * 1000 + dt)
            if lat:
                res["settle_to_event_ms_median"] = round(float(np.median(lat)), 1)
                res["settle_to_event_ms_max"] = round(float(np.max(lat)), 1)
    photo = ROOT.parent / "shared" / "real-uno-dev" / "r7.jpg"
    if photo.exists():
        img = cv2.imread(str(photo))
        res["still_image_ms_median"] = _median_ms(lambda: rec.read(img))
        contour = Recognizer(args.deck, locator="contour")
        res["still_image_contour_ms_median"] = _median_ms(lambda: contour.read(img))
        if rec.detector is not None:
            res["detector_onnx_ms_median"] = _median_ms(lambda: rec.detector.boxes(img))
            if args.torch_weights:
                from ultralytics import YOLO
                model = YOLO(args.torch_weights)
                size = rec.detector.size
                res["detector_torch_ms_median"] = _median_ms(
                    lambda: model.predict(img, imgsz=size, device="cpu", verbose=False))
                res["torch_over_onnx"] = round(res["detector_torch_ms_median"] / res["detector_onnx_ms_median"], 2)
    print(json.dumps(res, indent=None if args.json else 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
