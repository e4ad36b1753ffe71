"""One synthetic training image: a random table, a discard pile (top card whole, the ones under it
showing in part), loose cards, a draw pile of backs, hands, a camera, the camera's look.

make_scene(deck, seed, index, imgsz) is a pure function of its arguments: the same arguments give
the same JPEG bytes and labels."""
from __future__ import annotations

import math
import random
from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np

from vision.art import card_ids, render_back, render_card, style_for
from vision.art.style import random_edge

from .scene import SKIN, Canvas, camera, footprint, photometric, to_image, visibility
from .tables import make_table

ASPECT = 3 / 4             # height / width of the images, as a phone or webcam in landscape
CARD_ASPECT = 87 / 56


@lru_cache(maxsize=8)
def class_names(deck: str) -> tuple[str, ...]:
    """Class index order of a synthetic set: the deck's card ids, then "back"."""
    return tuple(card_ids(deck)) + ("back",)


def _render_width(width: float) -> int:
    """Render the art near the size it will appear at (multiples of 16 keep the cache of sizes small)."""
    return int(min(320, max(48, 16 * math.ceil(width * 1.15 / 16))))


def _inside(fp: np.ndarray, margin: float, g: np.random.Generator) -> np.ndarray:
    """A random point inside the camera footprint, `margin` of the way in from its edges."""
    a, b = g.uniform(margin, 1 - margin, 2)
    top = fp[0] + (fp[1] - fp[0]) * a
    bot = fp[3] + (fp[2] - fp[3]) * a
    return top + (bot - top) * b


CARD_WIDTH = (0.10, 0.26)     # a card's width, as a share of the picture's near edge on the table


def compose(deck: str, g: np.random.Generator, rng: random.Random, out_w: int, out_h: int, edge=None,
            faces: dict[str, list[np.ndarray]] | None = None, card_width: tuple = CARD_WIDTH):
    """Builds the canvas and camera; returns (image BGR, labels dict). `edge`: the cards' border
    colour (RGB) when the deck is not edged in white. `faces`: card id -> RGBA pictures of that
    card's face (real cards lifted from photos, bench/vision_cells.py lift_face) to lay out instead
    of rendered ones; the scene's cards are drawn from those ids. `card_width`: the range a card's
    width is drawn from, as a share of the picture's near edge on the table (a camera higher up,
    or a wider lens, sees smaller cards)."""
    S = int(max(out_w, out_h) * 1.5)
    table, kind = make_table(g, S)
    canvas = Canvas(table.copy())
    H = camera(g, S, out_w, out_h)
    fp = footprint(H, out_w, out_h)
    fp_w = float(np.linalg.norm(fp[2] - fp[3]))          # the footprint's near edge, in canvas pixels
    ids = sorted(faces) if faces else card_ids(deck)
    style = style_for(deck, rng)                          # one print per scene, as one real deck
    if edge is not None:
        style = replace(style, edge=edge)
    cw = fp_w * g.uniform(*card_width)
    rw = _render_width(cw)
    size = (rw, int(round(rw * CARD_ASPECT)))

    def face(cid):
        if faces:
            return cv2.resize(rng.choice(faces[cid]), size, interpolation=cv2.INTER_AREA)
        s = replace(style, seed=rng.getrandbits(32), wear=max(0.0, style.wear + rng.uniform(-0.2, 0.2)))
        return render_card(cid, deck, style=s, size=size)

    # the draw pile: a stack of backs, slightly askew
    if g.random() < 0.5:
        back = render_back(deck, rng=rng, size=size)
        centre = _inside(fp, 0.2, g)
        ang = g.uniform(0, 360)
        for i in range(int(g.integers(1, 7))):
            canvas.place(back, centre + g.normal(0, cw * 0.03, 2) - i * 0.6, ang + g.normal(0, 3), cw, "back",
                         role="draw", shadow=0.3 if i == 0 else 0.15)

    # loose single cards, some cut by the frame
    for _ in range(int(g.choice([0, 0, 1, 1, 2, 3]))):
        cid = rng.choice(ids)
        canvas.place(face(cid), _inside(fp, g.uniform(-0.05, 0.3), g), g.uniform(0, 360), cw, cid, role="single")

    # the discard pile: messy or neat, the last card on top is whole
    n_pile = int(g.choice([1, 1, 2, 3, 4, 5, 6, 8]))
    centre = _inside(fp, 0.3, g)
    base = g.uniform(0, 360)
    messy = g.random() < 0.6
    for _ in range(n_pile):
        cid = rng.choice(ids)
        ang = base + (g.uniform(-180, 180) if messy else g.normal(0, 12))
        off = g.normal(0, cw * (0.35 if messy else 0.12), 2)
        canvas.place(face(cid), centre + off, ang, cw, cid, role="pile")

    # hands: reaching to the pile or the draw pile, arm off towards a frame edge
    for _ in range(int(g.choice([0, 0, 0, 1, 1, 2]))):
        tgt = centre + g.normal(0, cw * 0.6, 2)
        canvas.hand(g, tgt, g.uniform(0, 360), cw * g.uniform(0.8, 1.1), skin=SKIN[int(g.integers(len(SKIN)))],
                    sleeve=None if g.random() < 0.5 else tuple(int(v) for v in g.integers(20, 230, 3)),
                    spread=g.uniform(0.8, 1.1))

    img = to_image(canvas.img, H, out_w, out_h)
    img = photometric(img, g)
    vis = visibility(canvas.items, canvas.hand_mask, H, out_w, out_h)
    cards = []
    for it, (quad, seen, corners) in zip(canvas.items, vis):
        cards.append({"card": it.card, "role": it.role, "quad": np.round(quad, 2).tolist(),
                      "visible": round(float(seen), 3), "corners": corners})
    pile = [c for c in cards if c["role"] == "pile"]
    if pile:
        pile[-1]["top"] = True
    return img, {"width": out_w, "height": out_h, "table": kind, "cards": cards}


LAYOUTS = ("table", "closeup")


def make_scene(deck: str, seed: int, index: int, imgsz: int = 640, layout: str = "table", edged: float = 0.0):
    """(JPEG bytes, labels) of image `index` of the set made with `seed`. layout "table": a table
    seen from above (landscape); "closeup": a card or a few held or lying near the lens
    (closeup.py), portrait or landscape. `edged`: the share of scenes whose deck is edged in black
    or a colour instead of white (style.random_edge); drawn apart from the scene's own random
    numbers, so that every scene not edged is the one edged=0 renders."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
    g = np.random.default_rng([seed, index, 7919])
    rng = random.Random(seed * 1_000_003 + index)
    out_w, out_h = imgsz, int(round(imgsz * ASPECT))
    er = random.Random((seed * 1_000_003 + index) ^ 0xED6E)
    edge = random_edge(er) if edged and er.random() < edged else None
    if layout == "closeup":
        from .closeup import compose_closeup
        if g.random() < 0.5:
            out_w, out_h = out_h, out_w        # a phone held upright
        img, labels = compose_closeup(deck, g, rng, out_w, out_h, edge=edge)
    else:
        img, labels = compose(deck, g, rng, out_w, out_h, edge=edge)
    quality = int(g.integers(45, 96))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    labels["jpeg_quality"] = quality
    if edge is not None:
        labels["edge"] = list(edge)
    return buf.tobytes(), labels
