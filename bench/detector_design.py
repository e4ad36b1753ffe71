"""The design comparison of the model card: one detector whose classes are card identities, against
our two stages (a card detector, then colour + symbol on the rectified card), trained the same way.

It renders `tableref synth --task obb-ids` scenes (deck ono, the same generator and sizes as the
card detector's data), trains YOLO11n-OBB from its yaml on them for --epochs with the card
detector's settings, and prints, epoch by epoch, its validation mAP50 beside the card detector's
(from that run's results.csv), then the top-1 card identity of the whole face-up cards of held-out
scenes: the identity detector's best box against the two-stage recognizer's reading.

    .venv/bin/python bench/detector_design.py --epochs 4 [--images 1200] [--card-run DIR]
"""
from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.locate.train import BUILD, offline_ultralytics  # noqa: E402
from vision.locate import quad_iou  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.synth.generate import class_names, make_scene  # noqa: E402
from vision.synth.writer import write_dataset  # noqa: E402


def map50_by_epoch(results_csv: Path) -> dict[int, float]:
    rows = list(csv.DictReader(open(results_csv)))
    return {int(r["epoch"]): float(r["metrics/mAP50(B)"]) for r in rows}


def held_out_top1(predict, n: int, seed: int) -> tuple[int, int]:
    right = total = 0
    for i in range(n):
        jpeg, labels = make_scene("ono", seed, i, 640)
        img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        found = predict(img)            # [(quad 4x2, card id)]
        for c in labels["cards"]:
            if c["card"] == "back" or c["visible"] < 0.9:
                continue
            total += 1
            g = np.float32(c["quad"])
            best = max(found, key=lambda f: quad_iou(f[0], g), default=None)
            right += best is not None and quad_iou(best[0], g) >= 0.5 and best[1] == c["card"]
    return right, total


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--images", type=int, default=1200)
    ap.add_argument("--imgsz", type=int, default=320)
    ap.add_argument("--scenes", type=int, default=60)
    ap.add_argument("--card-run", default=str(BUILD / "runs" / "obb-1200-15-320"))
    args = ap.parse_args()
    offline_ultralytics()
    data = BUILD / f"ids-{args.images}-{args.imgsz}"
    if not (data / "data.yaml").exists():
        write_dataset("ono", str(data), args.images, seed=0, imgsz=args.imgsz, task="obb-ids")
    from ultralytics import YOLO
    model = YOLO("yolo11n-obb.yaml")
    t0 = time.time()
    model.train(data=str(data / "data.yaml"), epochs=args.epochs, imgsz=args.imgsz, batch=16, seed=0,
                device="cpu", workers=0, amp=False, plots=False, fliplr=0.0, degrees=0.0, mosaic=0.5,
                close_mosaic=max(1, args.epochs // 5), project=str(BUILD / "runs"),
                name=f"ids-{args.images}-{args.epochs}", exist_ok=True, verbose=False)
    minutes = (time.time() - t0) / 60
    ids = map50_by_epoch(Path(model.trainer.save_dir) / "results.csv")
    card_csv = Path(args.card_run) / "results.csv"
    cards = map50_by_epoch(card_csv) if card_csv.exists() else {}
    print(f"identity detector: {args.epochs} epochs on {args.images} scenes in {minutes:.0f} min")
    print("| epoch | identity detector mAP50 (57 classes) | card detector mAP50 (card, back) |")
    print("|---:|---:|---:|")
    for e in sorted(ids):
        print(f"| {e} | {ids[e]:.3f} | {cards.get(e, float('nan')):.3f} |")

    names = class_names("ono")

    def by_ids(img):
        r = model.predict(img, imgsz=args.imgsz, device="cpu", verbose=False, conf=0.25)[0]
        if r.obb is None:
            return []
        return [(q.astype(np.float32), names[int(k)]) for q, k in
                zip(r.obb.xyxyxyxy.cpu().numpy(), r.obb.cls.cpu().numpy())]

    rec = Recognizer("ono")
    two_stage = lambda img: [(r.quad.pts, r.card) for r in rec.read(img)]  # noqa: E731
    for name, fn in (("identity detector", by_ids), ("card detector + colour + symbol (shipped)", two_stage)):
        right, total = held_out_top1(fn, args.scenes, 9090)
        print(f"held-out scenes (seed 9090, {args.scenes}): {name}: top-1 {right}/{total} = "
              f"{right / max(1, total):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
