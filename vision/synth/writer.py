"""Writes a synthetic set in ultralytics' YOLO pose layout:

    DIR/data.yaml                   names (card ids, then "back"), kpt_shape [4, 3], flip_idx
    DIR/images/{train,val}/NNNNNN.jpg
    DIR/labels/{train,val}/NNNNNN.txt   one card a line: class cx cy w h  x1 y1 v1 .. x4 y4 v4 (0..1)
    DIR/meta/{train,val}/NNNNNN.json    every card, however hidden: id, role, quad in pixels,
                                        visible fraction, corner visibility, top of the pile
    DIR/contact.jpg, DIR/contact_labels.jpg (the same with the labelled quads drawn)

Keypoints are the card's corners in the order of its upright art: top-left, top-right,
bottom-right, bottom-left, so they also give the card's orientation. v is 2 for a corner in view,
1 for one in the frame but under another card or a hand, 0 (and x = y = 0) outside the frame.
Label lines are written for cards with at least MIN_VISIBLE of their area in view; the sidecar
has them all. Mirror augmentation (fliplr) mirrors the printed art, which no real card does:
train with fliplr=0 (flip_idx is there for tools that insist).
"""
from __future__ import annotations

import json
import os
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from .generate import class_names, make_scene

MIN_VISIBLE = 0.25


def yolo_lines(labels: dict, names: tuple[str, ...]) -> list[str]:
    w, h = labels["width"], labels["height"]
    index = {n: i for i, n in enumerate(names)}
    lines = []
    for c in labels["cards"]:
        if c["visible"] < MIN_VISIBLE:
            continue
        q = np.array(c["quad"], np.float64)
        x0, y0 = np.clip(q.min(0), 0, [w, h])
        x1, y1 = np.clip(q.max(0), 0, [w, h])
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        kp = []
        for (x, y), v in zip(q, c["corners"]):
            kp += [0.0, 0.0, 0] if v == 0 else [x / w, y / h, v]
        vals = [(x0 + x1) / 2 / w, (y0 + y1) / 2 / h, (x1 - x0) / w, (y1 - y0) / h]
        lines.append(" ".join([str(index[c["card"]])] + [f"{v:.6f}" for v in vals] +
                              [f"{v:.6f}" if isinstance(v, float) else str(v) for v in kp]))
    return lines


OBB_NAMES = ("card", "back")  # the card detector's classes: a face up card, a card back
OBB_MIN_VISIBLE = 0.5


def obb_lines(labels: dict, names: tuple[str, ...] | None = None) -> list[str]:
    """YOLO OBB lines (class x1 y1 .. x4 y4, 0..1) of the cards a detector should find: faces and
    backs with at least half their area in view. The corners are clipped to the frame, so a card
    running off the edge is labelled by the part in view. Classes: card/back, or with `names`
    (the deck's card ids, then "back") one class per card identity."""
    index = {n: i for i, n in enumerate(names)} if names else None
    w, h = labels["width"], labels["height"]
    lines = []
    for c in labels["cards"]:
        if c["visible"] < OBB_MIN_VISIBLE:
            continue
        q = np.clip(np.array(c["quad"], np.float64), 0, [w, h]) / [w, h]
        if np.ptp(q[:, 0]) * w < 4 or np.ptp(q[:, 1]) * h < 4:
            continue
        cls = index[c["card"]] if index else 1 if c["card"] == "back" else 0
        lines.append(" ".join([str(cls)] + [f"{v:.6f}" for v in q.ravel()]))
    return lines


def split_of(i: int, val_fraction: float) -> str:
    return "val" if int((i + 1) * val_fraction) > int(i * val_fraction) else "train"


def _one(job):
    deck, seed, i, imgsz, out, val_fraction, task, layout, edged = job
    jpeg, labels = make_scene(deck, seed, i, imgsz, layout, edged)
    split = split_of(i, val_fraction)
    stem = f"{i:06d}"
    base = Path(out)
    (base / "images" / split / f"{stem}.jpg").write_bytes(jpeg)
    lines = (obb_lines(labels) if task == "obb" else obb_lines(labels, class_names(deck)) if task == "obb-ids"
             else yolo_lines(labels, class_names(deck)))
    (base / "labels" / split / f"{stem}.txt").write_text("".join(line + "\n" for line in lines))
    labels["image"] = f"images/{split}/{stem}.jpg"
    (base / "meta" / split / f"{stem}.json").write_text(json.dumps(labels, separators=(",", ":")))
    return split, len(lines)


def data_yaml(deck: str, out: Path, task: str = "pose") -> str:
    if task in ("obb", "obb-ids"):
        names = OBB_NAMES if task == "obb" else class_names(deck)
        lines = [f"# tableref synth --deck {deck} --task {task}: oriented boxes of cards",
                 f"path: {out.resolve()}", "train: images/train", "val: images/val",
                 f"nc: {len(names)}", "names:"] + [f"  {i}: {n}" for i, n in enumerate(names)]
        return "\n".join(lines) + "\n"
    names = class_names(deck)
    lines = [f"# tableref synth --deck {deck}: YOLO pose, 4 corner keypoints per card (TL, TR, BR, BL of the art)",
             f"path: {out.resolve()}", "train: images/train", "val: images/val",
             "kpt_shape: [4, 3]", "flip_idx: [1, 0, 3, 2]", f"nc: {len(names)}", "names:"]
    lines += [f"  {i}: {n}" for i, n in enumerate(names)]
    return "\n".join(lines) + "\n"


def contact_sheet(out: Path, stems: list[tuple[str, str]], cols=6, tile=(320, 240), draw_labels=False):
    tiles = []
    for split, stem in stems:
        img = cv2.imread(str(out / "images" / split / f"{stem}.jpg"))
        if draw_labels:
            meta = json.loads((out / "meta" / split / f"{stem}.json").read_text())
            for c in meta["cards"]:
                q = np.round(np.array(c["quad"])).astype(np.int32)
                colour = (0, 220, 0) if c["visible"] > 0.9 else (0, 200, 255) if c["visible"] >= MIN_VISIBLE else (0, 0, 255)
                cv2.polylines(img, [q], True, colour, 2, cv2.LINE_AA)
                cv2.circle(img, tuple(int(v) for v in q[0]), 4, (255, 0, 255), -1)
        tiles.append(cv2.resize(img, tile, interpolation=cv2.INTER_AREA))
    while len(tiles) % cols:
        tiles.append(np.zeros_like(tiles[0]))
    sheet = np.vstack([np.hstack(tiles[r:r + cols]) for r in range(0, len(tiles), cols)])
    return sheet


def write_dataset(deck: str, out: str, n: int, seed: int = 0, imgsz: int = 640, val_fraction: float = 0.1,
                  workers: int = 2, contact: int = 24, task: str = "pose", layout: str = "table",
                  edged: float = 0.0) -> dict:
    base = Path(out)
    for sub in ("images", "labels", "meta"):
        for split in ("train", "val"):
            (base / sub / split).mkdir(parents=True, exist_ok=True)
    (base / "data.yaml").write_text(data_yaml(deck, base, task))
    jobs = [(deck, seed, i, imgsz, str(base), val_fraction, task, layout, edged) for i in range(n)]
    if workers > 1 and n > 1:
        with get_context("fork" if os.name == "posix" else "spawn").Pool(workers) as pool:
            results = pool.map(_one, jobs, chunksize=max(1, min(16, n // (workers * 4) or 1)))
    else:
        results = [_one(j) for j in jobs]
    stems = [(split_of(i, val_fraction), f"{i:06d}") for i in range(min(contact, n))]
    cv2.imwrite(str(base / "contact.jpg"), contact_sheet(base, stems), [cv2.IMWRITE_JPEG_QUALITY, 85])
    cv2.imwrite(str(base / "contact_labels.jpg"), contact_sheet(base, stems, draw_labels=True),
                [cv2.IMWRITE_JPEG_QUALITY, 85])
    return {"images": n, "cards": sum(k for _, k in results), "contact": str(base / "contact.jpg"),
            "val": sum(1 for s, _ in results if s == "val")}
