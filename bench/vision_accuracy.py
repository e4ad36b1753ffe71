"""Top-1 card accuracy of the committed recognizer, with its confusion, on

1. held-out synthetic cards: fresh vision.art renders (a seed never used in training), each seen
   through vision.synth.augment.camera_view (size, lighting, blur, JPEG, corner error, 0/180 degrees),
   identified from the rectified card (colour + symbol);
2. the real development photos in ../shared/real-uno-dev (read at run time, never trained on):
   the whole path, locate + rectify + identify, on each 640x480 photo (UNO-family decks only:
   there are no photos of the designed decks dino2 and snake-cup).

    .venv/bin/python bench/vision_accuracy.py [--deck ono|uno|dino2|snake-cup] [--synthetic N] [--seed S] [--real DIR] [--json]
        [--locator detector|contour] [--symbols MODEL.npz]
"""
from __future__ import annotations

import argparse
import csv
import json
import random
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.synth.augment import camera_view  # noqa: E402
from vision.recognizer import CONFIRM_THRESHOLD, Recognizer  # noqa: E402

REAL = ROOT.parent / "shared" / "real-uno-dev"
SYMBOL = {"R": "reverse", "S": "skip", "T": "draw2"}
COLOUR = {"b": "blue", "g": "green", "r": "red", "y": "yellow"}
WILD = {"kW": "wild", "kF": "wild-draw4"}  # kB (blank) and kE (swap hands) are in no deck of ours


def real_truth(code: str) -> str | None:
    if code[0] == "k":
        return WILD.get(code)
    return f"{COLOUR[code[0]]}-{SYMBOL.get(code[1:], code[1:])}"


def summarize(pairs: list[tuple[str, str, float]]) -> dict:
    n = len(pairs)
    right = sum(t == g for t, g, _ in pairs)
    confusions = Counter((t, g) for t, g, _ in pairs if t != g)
    confirmed = [(t, g) for t, g, c in pairs if c >= CONFIRM_THRESHOLD]
    return {"n": n, "top1": right / n if n else 0.0,
            "confirmed_share": len(confirmed) / n if n else 0.0,
            "confirmed_accuracy": (sum(t == g for t, g in confirmed) / len(confirmed)) if confirmed else None,
            "wrong_but_confirmed": sum(t != g for t, g in confirmed),
            "confusions": [{"true": t, "read": g, "count": k} for (t, g), k in confusions.most_common()]}


def synthetic(rec: Recognizer, n: int, seed: int) -> dict:
    from vision.art import render_card
    ids = list(rec.deck.cards)
    rng, prng = np.random.default_rng(seed), random.Random(seed)
    pairs = []
    for i in range(n):
        cid = ids[i % len(ids)]
        w = int(rng.integers(120, 220))
        face = render_card(cid, rec.deck.id, rng=prng, size=(w, int(round(w * 87 / 56))))
        got, conf = rec.identify_card(camera_view(face, rng))
        pairs.append((cid, got, conf))
    return summarize(pairs)


def real(rec: Recognizer, folder: Path) -> dict:
    rows = list(csv.DictReader(open(folder / "labels.csv")))
    pairs, outside = [], []
    for r in rows:
        img = cv2.imread(str(folder / r["path"]))
        reads = rec.read(img)
        got, conf = (reads[0].card, reads[0].confidence) if reads else ("(none)", 0.0)
        truth = real_truth(r["code"])
        if truth is None:
            outside.append({"image": r["path"], "read": got, "confidence": round(conf, 3)})
        else:
            pairs.append((truth, got, conf))
    out = summarize(pairs)
    out["not_in_deck"] = outside
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deck", default="ono")
    ap.add_argument("--synthetic", type=int, default=1120)
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--real", default=str(REAL))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--locator", default="detector", choices=("detector", "contour"))
    ap.add_argument("--symbols", help="a symbol model to measure instead of the committed one")
    args = ap.parse_args()
    rec = Recognizer(args.deck, model_path=args.symbols, locator=args.locator)
    res = {"model": rec.model.meta, "locator": args.locator, "confirm_threshold": CONFIRM_THRESHOLD}
    if args.synthetic:
        res["synthetic"] = synthetic(rec, args.synthetic, args.seed)
    if Path(args.real).exists() and args.deck in ("uno", "ono"):  # real photos exist only of UNO cards
        res["real"] = real(rec, Path(args.real))
    if args.json:
        print(json.dumps(res, indent=1))
        return 0
    for name in ("synthetic", "real"):
        if name not in res:
            continue
        r = res[name]
        print(f"{name}: top-1 {r['top1']:.3f} on {r['n']} cards; confirmed {r['confirmed_share']:.2f} of them, "
              f"{r['wrong_but_confirmed']} wrong but confirmed")
        for c in r["confusions"]:
            print(f"    {c['true']:>16} read as {c['read']:<16} x{c['count']}")
        for o in r.get("not_in_deck", []):
            print(f"    not in deck: {o['image']} read as {o['read']} ({o['confidence']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
