"""A hand shown to the camera: the cards of one player laid out on the table, side by side in
one or two rows, slightly askew, as for a challenge or the round's scoring (issue 16, "read a
hand"). The truth for reveal mode's reading (bench/seats.py: reveal_top1).

    img, truth = shown_hand(seed, deck="ono")    # truth: [{"card", "quad" (image pixels), "visible"}]
"""
from __future__ import annotations

import math
import random

import numpy as np

from vision.art import card_ids, render_card, style_for

from .scene import Canvas, camera, footprint, photometric, to_image, visibility
from .tables import make_table


def shown_hand(seed: int, deck: str = "ono", size=(640, 480)) -> tuple[np.ndarray, list[dict]]:
    rng = random.Random(seed)
    g = np.random.default_rng([seed, 16])
    W, Hh = size
    S = int(max(W, Hh) * 1.5)
    table, _ = make_table(g, S)
    canvas = Canvas(table.copy())
    H = camera(g, S, W, Hh, tilt=rng.uniform(1.0, 1.4), yaw=rng.uniform(-180, 180), zoom=rng.uniform(0.45, 0.55))
    fp = footprint(H, W, Hh)
    centre = fp.mean(0)
    cw = float(np.linalg.norm(fp[2] - fp[3])) * 0.13
    rw = int(cw * 1.2) // 8 * 8
    style = style_for(deck, random.Random(seed))
    ids = [c for c in card_ids(deck)]
    n = rng.randint(3, 9)
    rows = 1 if n <= 5 else 2
    per_row = math.ceil(n / rows)
    # the row runs along the picture's width as the camera sees it
    along = (fp[1] - fp[0]) / (np.linalg.norm(fp[1] - fp[0]) + 1e-9)
    across = (fp[3] - fp[0]) / (np.linalg.norm(fp[3] - fp[0]) + 1e-9)
    base_ang = math.degrees(math.atan2(along[1], along[0]))
    gap = cw * rng.uniform(1.12, 1.3)
    for k in range(n):
        r, c = divmod(k, per_row)
        pos = centre + along * gap * (c - (per_row - 1) / 2) + across * cw * 1.7 * (r - (rows - 1) / 2)
        pos = pos + np.array([rng.gauss(0, cw * 0.04), rng.gauss(0, cw * 0.04)])
        cid = rng.choice(ids)
        canvas.place(render_card(cid, deck, style=style, size=(rw, int(rw * 87 / 56))), pos,
                     base_ang + rng.uniform(-8, 8), cw, cid, role="single")
    img = photometric(to_image(canvas.img, H, W, Hh), g, strength=0.5)
    vis = visibility(canvas.items, canvas.hand_mask, H, W, Hh)
    truth = [{"card": it.card, "quad": quad.tolist(), "visible": round(float(seen), 3)}
             for it, (quad, seen, _) in zip(canvas.items, vis)]
    return img, truth
