"""Synthetic close-ups: one card, or a few, held in a hand or lying near the lens, the way a
player points a phone at a card to ask what it is.

The table scenes of generate.py see cards from above at 10-26% of the picture's width. Real
photos also come like this:
- a card filling 25-95% of the picture's short side, portrait or landscape;
- held in a hand: a thumb over one edge, fingertips over another, the card's plane tilted
  towards the camera by up to 50 degrees;
- a sweater, a desk with a keyboard and papers, a white or pale desk, or a table behind, often out
  of focus;
- a lamp's gradient, glare, motion blur, phone JPEG.

Everything is drawn in image space: the background, then each card through its own homography (a
card in a hand is not in the table's plane), then the fingers. Labels are the cards' full outer
quads, however covered, with the fraction of each card in view, as generate.make_scene gives them.
"""
from __future__ import annotations

import math
import random
from dataclasses import replace

import cv2
import numpy as np

from vision.art import card_ids, render_back, render_card, style_for

from .scene import SKIN, photometric
from .tables import light_surface, make_table

CARD_ASPECT = 87 / 56
LIGHT_SURFACE = 0.3     # close-ups on a white or pale desk (a card's white margin on near-white): the
                        # tables of make_table are light only now and then, and real photos often are


def _background(g: np.random.Generator, w: int, h: int, light: float = LIGHT_SURFACE) -> tuple[np.ndarray, str]:
    """A table, a knitted or woven cloth (a sweater), or a desk with things on it, maybe blurred."""
    n = int(max(w, h) * 1.2)
    if light > 0 and g.random() < light:     # (light=0 draws nothing: the tables of a seed stay as they were)
        img, kind = np.clip(light_surface(g, n), 0, 255).astype(np.uint8), "light"
    else:
        img, kind = make_table(g, n)
    img = img[:h, :w].astype(np.float32).copy()
    r = g.random()
    if r < 0.35:
        _clutter(g, img)
        kind = "desk-" + kind
    elif r < 0.55:
        _knit(g, img)
        kind = "knit"
    if g.random() < 0.45:        # the background is farther than the card: out of focus
        img = cv2.GaussianBlur(img, (0, 0), g.uniform(1.0, 5.0))
    return img, kind


def _knit(g, img):
    """A sweater: a coloured field of small vertical chevrons."""
    h, w = img.shape[:2]
    base = np.float32(cv2.cvtColor(np.uint8([[[g.uniform(0, 180), g.uniform(20, 230), g.uniform(30, 220)]]]),
                                   cv2.COLOR_HSV2BGR)[0, 0])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    p = g.uniform(3, 9)
    v = np.abs(((xx / p) % 2) - 1) + ((yy / (p * 1.4)) % 1)
    shade = 0.75 + 0.25 * np.cos(v * np.pi)
    img[:] = base[None, None] * shade[..., None]


def _clutter(g, img):
    """A desk: a keyboard's keys, sheets of paper with lines of text, a phone, a mug, pens."""
    h, w = img.shape[:2]
    for _ in range(int(g.integers(2, 7))):
        kind = g.integers(5)
        cx, cy = g.uniform(0, w), g.uniform(0, h)
        ang = g.uniform(0, 180)
        s = g.uniform(0.15, 0.6) * min(w, h)
        if kind == 0:         # a keyboard: rows of keys on a dark or light body
            body = g.uniform(20, 220)
            key = np.clip(body + g.choice([-1, 1]) * g.uniform(30, 90), 0, 255)
            pts = cv2.boxPoints(((cx, cy), (s * 2.2, s * 0.8), ang)).astype(np.int32)
            cv2.fillPoly(img, [pts], (body, body, body))
            k = max(4.0, s * g.uniform(0.1, 0.16))
            t = math.radians(ang)
            ux, uy, vx, vy = math.cos(t), math.sin(t), -math.sin(t), math.cos(t)
            for i in range(-9, 10):
                for j in range(-2, 3):
                    px, py = cx + (i * ux + j * vx) * k * 1.15, cy + (i * uy + j * vy) * k * 1.15
                    kp = cv2.boxPoints(((px, py), (k * 0.9, k * 0.9), ang)).astype(np.int32)
                    cv2.fillPoly(img, [kp], (key, key, key))
        elif kind == 1:       # paper with text: white, the nastiest look-alike of a card
            pts = cv2.boxPoints(((cx, cy), (s * 1.3, s * 1.7), ang))
            v = g.uniform(205, 250)
            cv2.fillPoly(img, [pts.astype(np.int32)], (v - g.uniform(0, 20), v, v))
            t = math.radians(ang)
            for line in range(int(g.integers(3, 12))):
                off = (line - 5) * s * 0.12
                a = np.float32([cx - math.sin(t) * off, cy + math.cos(t) * off])
                d = np.float32([math.cos(t), math.sin(t)]) * s * g.uniform(0.2, 0.55)
                cv2.line(img, tuple((a - d).astype(int)), tuple((a + d).astype(int)), (60, 60, 60),
                         max(1, int(s * 0.025)))
        elif kind == 2:       # a phone or a remote: a dark rounded slab
            pts = cv2.boxPoints(((cx, cy), (s * 0.5, s * 1.0), ang)).astype(np.int32)
            v = g.uniform(10, 60)
            cv2.fillPoly(img, [pts], (v, v, v + g.uniform(0, 20)))
        elif kind == 3:       # a mug seen from above
            col = tuple(float(c) for c in g.uniform(20, 240, 3))
            cv2.circle(img, (int(cx), int(cy)), int(s * 0.35), col, -1, cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), int(s * 0.28), tuple(c * 0.4 for c in col), -1, cv2.LINE_AA)
        else:                 # pens and cables
            col = tuple(float(c) for c in g.uniform(0, 255, 3))
            t = math.radians(ang)
            d = np.float32([math.cos(t), math.sin(t)]) * s
            cv2.line(img, (int(cx - d[0]), int(cy - d[1])), (int(cx + d[0]), int(cy + d[1])), col,
                     max(2, int(s * 0.05)), cv2.LINE_AA)


def _card_quad(g, centre, width: float, spin: float, tilt_deg: float, focal: float,
               aspect: float = CARD_ASPECT) -> np.ndarray:
    """The image quad (card TL, TR, BR, BL) of a card `width` pixels wide and `aspect` times as long
    at `centre`, turned by `spin` in its plane and that plane tilted by `tilt_deg` about a random
    axis, seen by a pinhole camera of focal length `focal` pixels."""
    hw, hh = width / 2, width * aspect / 2
    pts = np.float64([[-hw, -hh, 0], [hw, -hh, 0], [hw, hh, 0], [-hw, hh, 0]])
    c, s = math.cos(math.radians(spin)), math.sin(math.radians(spin))
    pts = pts @ np.float64([[c, s, 0], [-s, c, 0], [0, 0, 1]])
    axis = g.uniform(0, 2 * math.pi)
    ax = np.float64([math.cos(axis), math.sin(axis), 0])
    R, _ = cv2.Rodrigues(ax * math.radians(tilt_deg))
    pts = pts @ R.T
    pts[:, 2] += focal                      # the card's centre at the distance where it is `width` wide
    xy = pts[:, :2] * focal / pts[:, 2:3]
    return (xy + np.float64(centre)).astype(np.float32)


def _finger(g, img, mask, start, end, width: float, skin):
    """A finger from `start` (the hand) to a rounded tip at `end`, shaded across its width."""
    h, w = img.shape[:2]
    m = np.zeros((h, w), np.uint8)
    cv2.line(m, tuple(int(v) for v in start), tuple(int(v) for v in end), 255, max(2, int(width)), cv2.LINE_AA)
    cv2.circle(m, tuple(int(v) for v in end), max(1, int(width / 2)), 255, -1, cv2.LINE_AA)
    soft = cv2.GaussianBlur(m, (0, 0), max(0.7, width * 0.04)).astype(np.float32) / 255
    core = cv2.GaussianBlur(m, (0, 0), max(1.0, width * 0.3)).astype(np.float32) / 255
    colour = np.float32(skin)[None, None] * (0.65 + 0.45 * core[..., None])
    img[:] = img * (1 - soft[..., None]) + colour * soft[..., None]
    np.maximum(mask, m, out=mask)


def _hold(g, img, mask, quad: np.ndarray, skin):
    """A hand holding the card: the palm outside one edge, the thumb over that edge, maybe
    fingertips over the opposite one. A thumb is about a third of a card's width across."""
    centre = quad.mean(0)
    width = float(np.linalg.norm(quad[1] - quad[0]))
    side = int(g.integers(4))
    a, b = quad[side], quad[(side + 1) % 4]
    t = g.uniform(0.15, 0.85)
    edge_pt = a + (b - a) * t
    out = edge_pt - centre
    out /= max(1e-6, float(np.linalg.norm(out)))
    along = (b - a) / max(1e-6, float(np.linalg.norm(b - a)))
    fw = width * g.uniform(0.26, 0.38)
    reach = width * g.uniform(0.05, 0.3)           # how far over the edge the thumb comes
    palm = edge_pt + out * width * g.uniform(0.7, 1.0) + along * width * g.uniform(-0.3, 0.3)
    h, w = img.shape[:2]
    m = np.zeros((h, w), np.uint8)
    ang = math.degrees(math.atan2(out[1], out[0]))
    cv2.ellipse(m, tuple(int(v) for v in palm), (int(width * 0.75), int(width * 0.6)), ang, 0, 360, 255, -1,
                cv2.LINE_AA)
    soft = cv2.GaussianBlur(m, (0, 0), max(0.7, width * 0.02)).astype(np.float32) / 255
    shade = cv2.GaussianBlur(m, (0, 0), max(1.0, width * 0.25)).astype(np.float32) / 255
    colour = np.float32(skin)[None, None] * (0.6 + 0.45 * shade[..., None])
    img[:] = img * (1 - soft[..., None]) + colour * soft[..., None]
    np.maximum(mask, m, out=mask)
    _finger(g, img, mask, palm, edge_pt - out * reach, fw, skin)
    if g.random() < 0.5:                           # fingertips on the opposite edge
        c, d = quad[(side + 2) % 4], quad[(side + 3) % 4]
        for k in range(int(g.integers(1, 4))):
            p = c + (d - c) * np.clip(g.uniform(0.15, 0.85), 0, 1)
            o = p - centre
            o /= max(1e-6, float(np.linalg.norm(o)))
            _finger(g, img, mask, p + o * width * 0.6, p - o * width * g.uniform(0.02, 0.1), fw * 0.8, skin)


def _paste(img, rgba: np.ndarray, quad: np.ndarray, shadow: float, g) -> np.ndarray:
    """Warps a card (RGBA) onto `img` at `quad`; returns its mask in the image."""
    h, w = img.shape[:2]
    ch, cw = rgba.shape[:2]
    src = np.float32([[-0.5, -0.5], [cw - 0.5, -0.5], [cw - 0.5, ch - 0.5], [-0.5, ch - 0.5]])
    M = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    warped = cv2.warpPerspective(rgba, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                 borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3].astype(np.float32) / 255
    if shadow > 0:
        size = float(np.linalg.norm(quad[1] - quad[0]))
        off = g.uniform(-0.06, 0.06, 2) * size
        sh = cv2.warpAffine(alpha, np.float32([[1, 0, off[0]], [0, 1, off[1]]]), (w, h))
        sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, size * 0.04))
        img *= (1 - shadow * sh)[..., None]
    img[:] = img * (1 - alpha[..., None]) + warped[..., 2::-1].astype(np.float32) * alpha[..., None]
    return (alpha > 0.5).astype(np.uint8) * 255


def compose_closeup(deck: str, g: np.random.Generator, rng: random.Random, out_w: int, out_h: int, edge=None):
    """(image BGR, labels) of one close-up; labels as generate.compose gives them. `edge`: the
    cards' border colour (RGB) when the deck is not edged in white."""
    img, kind = _background(g, out_w, out_h)
    short = min(out_w, out_h)
    ids = card_ids(deck)
    style = style_for(deck, rng)
    if edge is not None:
        style = replace(style, edge=edge)
    # the card's short side as a fraction of the picture's short side, small sizes rarer
    frac = float(np.exp(g.uniform(np.log(0.22), np.log(0.95))))
    width = frac * short
    tilt = g.uniform(0, 50) if g.random() < 0.8 else 0.0
    focal = max(out_w, out_h) * g.uniform(0.8, 1.6)
    spin = g.uniform(0, 360) if g.random() < 0.5 else g.normal(0, 15) + g.choice([0, 90, 180, 270])
    centre = np.float32([out_w / 2, out_h / 2]) + g.uniform(-0.25, 0.25, 2).astype(np.float32) * (
        np.float32([out_w, out_h]) - width * 0.6).clip(0)
    rw = int(min(384, max(64, 16 * math.ceil(width * 1.1 / 16))))
    size = (rw, int(round(rw * CARD_ASPECT)))
    held = g.random() < 0.6
    on_table = not held

    def face(cid):
        s = replace(style, seed=rng.getrandbits(32), wear=max(0.0, style.wear + rng.uniform(-0.2, 0.2)))
        return render_card(cid, deck, style=s, size=size)

    cards, masks = [], []
    n = int(g.choice([1, 1, 1, 1, 2, 3, 4]))
    fan_pivot = g.uniform(0.3, 0.6)
    fan_step = g.uniform(8, 22) * g.choice([-1, 1])
    for k in range(n):
        cid = "back" if g.random() < 0.12 else rng.choice(ids)
        rgba = render_back(deck, rng=rng, size=size) if cid == "back" else face(cid)
        if n == 1:
            quad = _card_quad(g, centre, width, spin, tilt, focal)
        else:
            # a fan (held) or a spread (on the table): each card turned about a point below them
            turn = (k - (n - 1) / 2) * fan_step
            pivot_dist = width * CARD_ASPECT * fan_pivot
            t = math.radians(spin)
            down = np.float32([-math.sin(t), math.cos(t)])
            c = centre + down * pivot_dist
            r = math.radians(spin + turn)
            ck = c - np.float32([-math.sin(r), math.cos(r)]) * pivot_dist
            quad = _card_quad(g, ck, width, spin + turn, tilt, focal)
        masks.append(_paste(img, rgba, quad, 0.35 if on_table else g.uniform(0, 0.25), g))
        cards.append({"card": cid, "role": "single", "quad": quad})
    hand = np.zeros((out_h, out_w), np.uint8)
    if held:
        skin = SKIN[int(g.integers(len(SKIN)))]
        _hold(g, img, hand, cards[-1]["quad"], skin)
    elif g.random() < 0.2:       # a hand reaching in over a card on the table
        _hold(g, img, hand, cards[int(g.integers(len(cards)))]["quad"], SKIN[int(g.integers(len(SKIN)))])
    img = photometric(np.clip(img, 0, 255).astype(np.uint8), g)

    # what is in view of each card: its own pixels, less what lies above it and the frame's edge
    above = hand > 0
    labels = []
    for c, m in zip(reversed(cards), reversed(masks)):
        full = max(1.0, cv2.contourArea(c["quad"]))
        seen = np.count_nonzero((m > 0) & ~above)
        corners = [2 if 0 <= x < out_w and 0 <= y < out_h else 0 for x, y in c["quad"]]
        labels.append({"card": c["card"], "role": c["role"], "quad": np.round(c["quad"], 2).tolist(),
                       "visible": round(min(1.0, seen / full), 3), "corners": corners})
        above |= m > 0
    labels.reverse()
    return img, {"width": out_w, "height": out_h, "table": kind, "layout": "closeup", "cards": labels}
