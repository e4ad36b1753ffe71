"""Synthetic data throughput: images per second of `tableref synth` (write_dataset, JPEG + labels
on disk) with 1 and 2 worker processes, and card renders per second.

    .venv/bin/python bench/synth.py [--images 200] [--imgsz 640] [--deck uno]
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.art import card_ids, render_card  # noqa: E402
from vision.synth.writer import write_dataset  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--images", type=int, default=200)
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--deck", default="uno")
    args = ap.parse_args()
    ids = card_ids(args.deck)
    rng = random.Random(0)
    t = time.perf_counter()
    n = 200
    for i in range(n):
        render_card(ids[i % len(ids)], args.deck, rng=rng, size=(224, 348))
    print(f"render_card 224x348, random style: {n / (time.perf_counter() - t):.0f} cards/s (1 process)")
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as d:
            t = time.perf_counter()
            s = write_dataset(args.deck, d, args.images, seed=1, imgsz=args.imgsz, workers=workers, contact=4)
            dt = time.perf_counter() - t
            print(f"synth {args.deck} {args.imgsz}px, {workers} worker(s): {args.images} images in {dt:.1f} s = "
                  f"{args.images / dt:.1f} images/s ({s['cards']} card labels)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
