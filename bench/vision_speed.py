"""Speed of the vision pipeline on this machine.

1. Per-frame processing time (median, p95, max) of TablePipeline.process over a video (default: the
   demo recording), every frame timed, frames decoded beforehand so decoding is not counted.
2. Card settled -> event latency (median, p95, max): for each play in demo.frames.json (the frame at
   which the card came to rest), the video time of the event minus the settle time, plus the
   processing time of the frame that produced it. Reported when the demo's frame log is present.
3. identify on still images: the whole `Recognizer.read` of each real photo in
   ../shared/real-uno-dev/*.jpg (one card each, 640x480), median and p95 per image, split into
   the card detector's network (CardDetector.boxes), outline/verify (the rest of detect: snap,
   contour, verify; and the recognizer's own verify), OCR (TextReader.read_card), classifier +
   colour (identify_card less its OCR) and the rest (warps); for the recognizer as shipped and, as
   the peer in the same run, photo by photo in turn, one without OCR (text=False), as a ratio.
   The OCR cache is emptied before each photo (a new photo is a new card).
4. The whole still-image path on one photo (r7.jpg) with each locator, and the card detector
   alone: onnxruntime (what the product runs) and, given the PyTorch weights it was exported from
   (--torch-weights, ultralytics installed), PyTorch on the same photo, as a ratio.

The load average (os.getloadavg) is printed before and after: the CPU may be shared.

    .venv/bin/python bench/vision_speed.py [VIDEO] [--deck ono] [--torch-weights best.pt] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.camera import decoded_frames  # noqa: E402
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
    res: dict = {"load_before": [round(x, 2) for x in os.getloadavg()], "cpus": os.cpu_count()}
    frames, fps = decoded_frames(args.video)
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
        res["frame_ms_p95"] = round(float(np.percentile(times, 95)), 2)
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
                res["settle_to_event_ms_p95"] = round(float(np.percentile(lat, 95)), 1)
                res["settle_to_event_ms_max"] = round(float(np.max(lat)), 1)
                res["settle_to_event_n"] = len(lat)
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
    res.update(_stills(args.deck, rec))
    res["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(res, indent=None if args.json else 1))
    if not args.json:
        print(_table(res))
    return 0


STAGES = ("detector", "outline_verify", "ocr", "classifier_colour", "other")
LABELS = {"detector": "card detector (network)", "outline_verify": "outline / verify",
          "ocr": "OCR", "classifier_colour": "classifier + colour", "other": "other (warps)"}


class _Split:
    """Seconds spent in wrapped calls, by stage, since the last reset."""

    def __init__(self):
        self.t = defaultdict(float)

    def wrap(self, obj, name: str, key: str) -> None:
        fn = getattr(obj, name)

        def timed(*a, **k):
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                self.t[key] += time.perf_counter() - t0
        setattr(obj, name, timed)


def _timed_read(rec: Recognizer, split: _Split, img: np.ndarray) -> dict:
    """One `rec.read(img)` with its stages in ms (the OCR cache emptied first)."""
    rec._text_cache = []
    split.t.clear()
    t0 = time.perf_counter()
    rec.read(img)
    total = (time.perf_counter() - t0) * 1000
    t = {k: v * 1000 for k, v in split.t.items()}
    stages = {"detector": t.get("boxes", 0.0),
              # every network run (boxes) happens inside locate_all: the rest of it is outlining
              "outline_verify": t.get("locate", 0.0) - t.get("boxes", 0.0) + t.get("verified", 0.0),
              "ocr": t.get("ocr", 0.0),
              "classifier_colour": t.get("identify", 0.0) - t.get("ocr", 0.0)}
    stages["other"] = total - sum(stages.values())
    return {"total": total, **stages}


def _stills(deck: str, rec: Recognizer) -> dict:
    photos = sorted((ROOT.parent / "shared" / "real-uno-dev").glob("*.jpg"))
    if not photos:
        return {}
    imgs = [cv2.imread(str(p)) for p in photos]
    peers = {"ocr": rec, "no_ocr": Recognizer(deck, text=False)}
    split = _Split()
    for r in peers.values():
        if r.detector is not None:
            split.wrap(r.detector, "boxes", "boxes")
        split.wrap(r, "locate_all", "locate")
        split.wrap(r, "_verified", "verified")
        split.wrap(r, "identify_card", "identify")
        if r.text_reader is not None:
            split.wrap(r.text_reader, "read_card", "ocr")
    for r in peers.values():      # warm up
        _timed_read(r, split, imgs[0])
    rows = {name: [] for name in peers}
    for img in imgs:              # photo by photo, the two in turn: the same load for both
        for name, r in peers.items():
            rows[name].append(_timed_read(r, split, img))
    out = {"still_photos": len(imgs), "still_size": f"{imgs[0].shape[1]}x{imgs[0].shape[0]}"}
    for name, rs in rows.items():
        for key in ("total",) + STAGES:
            v = [r[key] for r in rs]
            out[f"still_{name}_{key}_ms_median"] = round(float(np.median(v)), 1)
            out[f"still_{name}_{key}_ms_p95"] = round(float(np.percentile(v, 95)), 1)
    for q in ("median", "p95"):
        out[f"still_ocr_over_no_ocr_{q}"] = round(out[f"still_ocr_total_ms_{q}"] / out[f"still_no_ocr_total_ms_{q}"], 2)
    return out


def _table(res: dict) -> str:
    rows = ["| measure | median | p95 | target |", "|---|---|---|---|"]
    if "frame_ms_median" in res:
        rows.append(f"| pipeline frame, {res['frames']} frames of {res['frame_size']} (max {res['frame_ms_max']}) "
                    f"| {res['frame_ms_median']} ms | {res['frame_ms_p95']} ms | median <= 25 ms |")
    if "settle_to_event_ms_median" in res:
        rows.append(f"| card settled -> event, {res['settle_to_event_n']} plays (max {res['settle_to_event_ms_max']}) "
                    f"| {res['settle_to_event_ms_median']} ms | {res['settle_to_event_ms_p95']} ms | p95 <= 250 ms |")
    if "still_photos" in res:
        n = res["still_photos"]
        for name, label in (("ocr", "with OCR (as shipped)"), ("no_ocr", "without OCR (text=False)")):
            target = "<= 50 ms a card" if name == "ocr" else ""
            rows.append(f"| identify, {n} real photos {res['still_size']}, one card each, {label} "
                        f"| {res[f'still_{name}_total_ms_median']} ms | {res[f'still_{name}_total_ms_p95']} ms | {target} |")
            for key in STAGES:
                rows.append(f"| &nbsp;&nbsp;{LABELS[key]} "
                            f"| {res[f'still_{name}_{key}_ms_median']} ms | {res[f'still_{name}_{key}_ms_p95']} ms | |")
        rows.append(f"| identify with OCR / without | {res['still_ocr_over_no_ocr_median']} "
                    f"| {res['still_ocr_over_no_ocr_p95']} | |")
    rows.append(f"| load average (1, 5, 15 min) before / after, {res['cpus']} CPUs "
                f"| {res['load_before']} / {res['load_after']} | | |")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
