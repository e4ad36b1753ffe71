"""Stage 1 compared: the trained card detector against the white-border contour locator.

1. Held-out synthetic scenes (seeds never trained on, all four decks, 640 px): tables seen from
   above, and close-ups (`--layout closeup`: cards held in a hand or lying near the lens,
   vision/synth/closeup.py): recall of the whole face-up cards (visible >= 0.9; in close-ups >= 0.6) at quad IoU >= 0.7,
   false finds (found quads overlapping no card), mean corner error of the matched cards, per kind
   of table. `--compare MODEL` runs a second detector on the same scenes, as a peer.
2. The real development photos (../shared/real-uno-dev, one card each, never trained on): how many
   photos give exactly one card, and the top-1 card read through the whole path with each locator.
3. Milliseconds per 640x480 frame for each locator (median of the synthetic scenes).

    .venv/bin/python bench/vision_locate.py [--scenes 200] [--seed 4242] [--layout table,closeup]
        [--model ONNX] [--compare ONNX] [--edged SHARE] [--no-contour] [--no-real] [--json]
"""
from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.locate.detector import CardDetector  # noqa: E402
from vision.locate import find_cards, order_corners, quad_iou  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.synth.generate import make_scene  # noqa: E402

REAL = ROOT.parent / "shared" / "real-uno-dev"
DECKS = ("ono", "uno", "dino2", "snake-cup")
LIGHT = {"paper", "laminate-light"}


def corner_error(a: np.ndarray, b: np.ndarray) -> float:
    """Mean corner distance between two quads, over the 4 rotations of one (a card's corner order
    is a matter of orientation, which stage 1 does not claim to know)."""
    a, b = order_corners(a), order_corners(b)
    return min(float(np.linalg.norm(np.roll(a, k, axis=0) - b, axis=1).mean()) for k in range(4))


def locators(detector: CardDetector, tag: str = "", contour: bool = True) -> dict:
    fns = {"contour": lambda img: [q.pts for q in find_cards(img)]} if contour else {}
    fns[f"detector{tag}"] = lambda img: [d.quad.pts for d in detector.detect(img, refine=False) if d.kind == "card"]
    fns[f"detector{tag}+border"] = lambda img: [d.quad.pts for d in detector.detect(img) if d.kind == "card"]
    return fns


def synthetic(fns: dict, n: int, seed: int, layout: str = "table", edged: float = 0.0) -> dict:
    stats = {name: defaultdict(lambda: {"cards": 0, "found": 0, "false": 0, "err": [], "ms": []}) for name in fns}
    for i in range(n):
        deck = DECKS[i % len(DECKS)]
        jpeg, labels = make_scene(deck, seed, i, 640, layout, edged)
        img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        cards = [c for c in labels["cards"] if c["card"] != "back"]
        # a close-up's card is in a hand: up to 40% covered is a card to find (the range)
        whole = [np.array(c["quad"], np.float32) for c in cards if c["visible"] >= (0.9 if layout == "table" else 0.6)]
        any_card = [np.array(c["quad"], np.float32) for c in labels["cards"] if c["visible"] >= 0.3]
        table = labels["table"] if layout == "table" else labels["table"].split("-")[0]
        for name, fn in fns.items():
            t0 = time.perf_counter()
            found = fn(img)
            ms = (time.perf_counter() - t0) * 1000
            for key in (table, "all"):
                s = stats[name][key]
                s["ms"].append(ms)
                s["cards"] += len(whole)
                for g in whole:
                    best = max(found, key=lambda q: quad_iou(q, g), default=None)
                    if best is not None and quad_iou(best, g) >= 0.7:
                        s["found"] += 1
                        s["err"].append(corner_error(best, g))
                s["false"] += sum(1 for q in found if all(quad_iou(q, g) < 0.3 for g in any_card))
    out = {}
    for name, per in stats.items():
        out[name] = {k: {"cards": s["cards"], "recall": s["found"] / max(1, s["cards"]), "false": s["false"],
                         "corner_err_px": statistics.fmean(s["err"]) if s["err"] else None,
                         "ms_median": statistics.median(s["ms"])} for k, s in per.items()}
    return out


def real(folder: Path, detector_path) -> dict:
    rows = [r for r in csv.DictReader(open(folder / "labels.csv"))]
    sys.path.insert(0, str(ROOT / "bench"))
    from vision_accuracy import real_truth
    out = {}
    for loc in ("contour", "detector"):
        rec = Recognizer("ono", locator=loc, detector_path=detector_path)
        one, right, n = 0, 0, 0
        for r in rows:
            img = cv2.imread(str(folder / r["path"]))
            reads = rec.read(img)
            one += len(rec.locate(img)) == 1
            truth = real_truth(r["code"])
            if truth is not None:
                n += 1
                right += bool(reads) and reads[0].card == truth
        out[loc] = {"photos": len(rows), "exactly_one": one, "cards": n, "top1": right / max(1, n)}
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=200)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--model", default=str(ROOT / "models" / "card-detector.onnx"))
    ap.add_argument("--compare", metavar="ONNX", help="a second detector, run on the same scenes as a peer")
    ap.add_argument("--layout", default="table", help="table, closeup, or both: table,closeup")
    ap.add_argument("--edged", type=float, default=0.0, metavar="SHARE",
                    help="the share of scenes whose deck is edged in black or a colour instead of white")
    ap.add_argument("--no-contour", action="store_true", help="leave the contour locator out")
    ap.add_argument("--no-real", action="store_true", help="skip the real development photos")
    ap.add_argument("--real", default=str(REAL))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    det = CardDetector(args.model)
    fns = locators(det, contour=not args.no_contour)
    if args.compare:
        fns.update(locators(CardDetector(args.compare), tag=f" ({Path(args.compare).name})", contour=False))
    layouts = [x.strip() for x in args.layout.split(",") if x.strip()]
    res = {"model": det.info, "synthetic": {}}
    for k, layout in enumerate(layouts):
        res["synthetic"][layout] = synthetic(fns, args.scenes, args.seed + k, layout, args.edged)
    if Path(args.real).exists() and not args.no_real:
        res["real"] = real(Path(args.real), args.model)
    if args.json:
        print(json.dumps(res, indent=1))
        return 0
    for k, (layout, per_locator) in enumerate(res["synthetic"].items()):
        edged = f", {args.edged:g} of them edged in black or a colour" if args.edged else ""
        print(f"\nsynthetic {layout} scenes (seed {args.seed + k}, {args.scenes} scenes{edged}, 640 px): whole face-up "
              f"cards found at quad IoU >= 0.7")
        print("| locator | table | cards | recall | false finds | corner error px | ms/frame |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for name, per in per_locator.items():
            for table in ["all"] + sorted(k for k in per if k != "all"):
                s = per[table]
                err = f"{s['corner_err_px']:.1f}" if s["corner_err_px"] is not None else "-"
                print(f"| {name} | {table} | {s['cards']} | {s['recall']:.3f} | {s['false']} | {err} | "
                      f"{s['ms_median']:.1f} |")
    if "real" in res:
        print("\nreal development photos (one card each):")
        print("| locator | photos | exactly one card found | top-1 card |")
        print("|---|---:|---:|---:|")
        for name, s in res["real"].items():
            print(f"| {name} | {s['photos']} | {s['exactly_one']} | {s['top1']:.3f} ({s['cards']} cards) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
