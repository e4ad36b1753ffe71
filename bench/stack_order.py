"""Which card lies on top (vision/track/stack.py `above`), on rendered table scenes whose order is known.

The synthetic scenes of vision.synth.generate.compose (a discard pile, loose cards, hands reaching
in, a camera above at a slant, its light and noise) draw their cards in order: a card drawn later
lies on those drawn before. Every pair of face-up cards that overlap (by at least 5% of the smaller,
neither mostly inside the other) is asked which lies on top, with their true outlines moved by
--jitter pixels (a located outline is not exact). Only pairs whose upper card lies whole in view
(nothing on it, visible >= 0.98) and whose lower card shows at least 30% count: there the answer
is known. Faces: the rendered prints (`synth`), or real cards lifted from the development photos
(`dev2`: ../shared/real-uno-dev2, `dev`: ../shared/real-uno-dev), as the bench's `tables` cells.

Beside it, in the same run, the peer: the test it replaced (session 47), the median contrast across
each outline inside the other, the larger by 25 grey levels on top, then the shared margin as now.

    .venv/bin/python bench/stack_order.py [--seed N] [--scenes K] [--faces synth,dev2,dev] [--jitter PX] [--json]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "bench"))   # after the packages: bench/referee.py is no package

from vision.locate import overlap  # noqa: E402
from vision.track import stack  # noqa: E402

SHARED = ROOT.parent / "shared"
FOLDERS = {"dev2": [SHARED / "real-uno-dev2" / "on-black", SHARED / "real-uno-dev2" / "hand-held"],
           "dev": [SHARED / "real-uno-dev"]}


def median_contrast(image: np.ndarray, quad: np.ndarray, other: np.ndarray, samples: int = 48) -> float | None:
    """The peer: the median largest channel difference 3 pixels either side of `quad`'s outline
    where it runs at least 4 pixels inside `other` (48 points round it, six at least)."""
    img = image.astype(np.float32)
    h, w = img.shape[:2]
    poly = np.asarray(other, np.float32).reshape(-1, 1, 2)
    got = []
    for p, n in stack._outline(quad, samples):
        if cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), True) < 4.0:
            continue
        o, i = p + n * 3.0, p - n * 3.0
        if 0 <= o[0] < w and 0 <= o[1] < h and 0 <= i[0] < w and 0 <= i[1] < h:
            got.append(float(np.max(np.abs(img[int(o[1]), int(o[0])] - img[int(i[1]), int(i[0])]))))
    return float(np.median(got)) if len(got) >= 6 else None


def peer_above(image: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool | None:
    ca, cb = median_contrast(image, a, b), median_contrast(image, b, a)
    if (ca is not None or cb is not None) and abs((ca or 0.0) - (cb or 0.0)) >= 25.0:
        return (ca or 0.0) > (cb or 0.0)
    wa, wb = stack.shared_margin(image, a, b), stack.shared_margin(image, b, a)
    if wa is None or wb is None or abs(wa - wb) < 25.0:
        return None
    return wa > wb


def pairs(img: np.ndarray, labels: dict, g: np.random.Generator, jitter: float):
    """(lower outline, upper outline) of every pair whose order is known."""
    cards = [c for c in labels["cards"] if c["card"] != "back"]
    for x in range(len(cards)):
        for y in range(x + 1, len(cards)):
            if cards[y]["visible"] < 0.98 or cards[x]["visible"] < 0.3:
                continue
            lo, up = np.float32(cards[x]["quad"]), np.float32(cards[y]["quad"])
            lo = lo + g.normal(0, jitter, lo.shape).astype(np.float32) if jitter else lo
            up = up + g.normal(0, jitter, up.shape).astype(np.float32) if jitter else up
            inter = cv2.intersectConvexConvex(lo, up)[0]
            if inter < 0.05 * min(cv2.contourArea(lo), cv2.contourArea(up)):
                continue
            if overlap.nested(lo, up) or overlap.nested(up, lo):
                continue
            yield lo, up


def run(source: str, seed: int, scenes: int, jitter: float, misses: list | None = None) -> dict:
    from vision.synth.generate import compose
    faces = None
    if source != "synth":
        import vision_accuracy as va
        from vision.recognizer import Recognizer
        faces = va.lifted_faces(Recognizer("uno"), FOLDERS[source])
    tally = {m: {"right": 0, "wrong": 0, "untold": 0} for m in ("edges and margin", "median contrast (peer)")}
    for i in range(scenes):
        g, rng = np.random.default_rng([seed, 5, i]), random.Random(seed * 31 + i)
        img, labels = compose("uno", g, rng, 640, 480, faces=faces)
        lab = overlap.to_lab(img)
        for lo, up in pairs(img, labels, g, jitter):
            for method, said in (("edges and margin", stack.above(img, up, lo, lab)),
                                 ("median contrast (peer)", peer_above(img, up, lo))):
                tally[method]["untold" if said is None else "right" if said else "wrong"] += 1
                if misses is not None and said is False and method == "edges and margin":
                    misses.append((source, seed, i, np.round(lo).astype(int).tolist(), np.round(up).astype(int).tolist()))
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=47)
    ap.add_argument("--scenes", type=int, default=200, help="scenes per source")
    ap.add_argument("--faces", default="synth,dev2,dev", help="synth (rendered prints), dev2, dev (real photos' faces)")
    ap.add_argument("--jitter", type=float, default=1.0, help="pixels (sd) by which each true corner is moved")
    ap.add_argument("--misses", action="store_true", help="list the pairs told the wrong way round (scene, outlines)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out, misses = {}, ([] if args.misses else None)
    print(f"| faces | method | pairs | right | wrong | cannot tell | wrong of told |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for k, source in enumerate(args.faces.split(",")):
        out[source] = run(source, args.seed + k, args.scenes, args.jitter, misses)
        for method, t in out[source].items():
            n, told = sum(t.values()), t["right"] + t["wrong"]
            print(f"| {source} | {method} | {n} | {t['right']} | {t['wrong']} | {t['untold']} | "
                  f"{t['wrong'] / max(1, told):.3f} |")
    for m in misses or []:
        print("told wrong: faces %s seed %d scene %d lower %s upper %s" % m)
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
