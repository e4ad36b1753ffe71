"""Altered copies of a taught photo's card: how the same card may look when it is read later.

A card is taught from one to five photos, but read under other light, at another size, at
another angle and through an outline that is off by a few pixels. Each copy re-warps the card
from the photo through a jittered outline (the locator's error and a little perspective), then
changes its light (gain, colour cast, gradient, gamma), its sharpness (blur, or shrunk and grown
back: a card seen from farther away) and adds noise and JPEG. Deterministic for a given seed.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..rectify.warp import portrait_corners
from .embed import FACE_H, FACE_W, face

OCCLUDE = 0.5       # the share of copies with a thumb or a glare spot over part of the card


def altered_faces(bgr: np.ndarray, quad: np.ndarray, n: int, seed: int = 0,
                  quarter: bool = False) -> list[np.ndarray]:
    """`n` altered rectified faces of the card at `quad` in the photo `bgr` (`quarter`: embed.face's)."""
    g = np.random.default_rng(seed)
    q = np.asarray(quad, np.float32).reshape(4, 2)
    # upright as the outline itself is: a jittered square card's outline may otherwise turn a quarter
    roll = 0 if np.array_equal(portrait_corners(q), q) else 1
    side = float(np.linalg.norm(q[0] - q[1]) + np.linalg.norm(q[1] - q[2])) / 2
    out = []
    for _ in range(n):
        jitter = (g.normal(0, 0.02, (4, 2)) + g.normal(0, 0.01, 2)) * side
        f = face(bgr, np.roll(q + jitter.astype(np.float32), -roll, axis=0), quarter, ordered=True).astype(np.float32)
        if g.random() < OCCLUDE:
            _occlude(f, g)
        out.append(_light_and_blur(f, g))
    return out


def _occlude(f: np.ndarray, g: np.random.Generator) -> None:
    """A thumb over one edge (a skin-coloured round blob from outside the card) or a glare spot:
    what spoils part of a real photo and never the same part twice."""
    yy, xx = np.mgrid[0:FACE_H, 0:FACE_W].astype(np.float32)
    if g.random() < 0.5:
        side = int(g.integers(4))
        t = g.uniform(0.15, 0.85)
        cx, cy = [(t * FACE_W, -4), (FACE_W + 4, t * FACE_H), (t * FACE_W, FACE_H + 4), (-4, t * FACE_H)][side]
        r = FACE_W * g.uniform(0.15, 0.3)
        m = np.clip((r - np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2)) / 2.0, 0, 1)
        skin = np.float32([g.uniform(40, 120), g.uniform(70, 160), g.uniform(110, 225)])
        f[:] = f * (1 - m[..., None]) + skin * m[..., None]
    else:
        cx, cy = g.uniform(0, FACE_W), g.uniform(0, FACE_H)
        sx, sy = g.uniform(4, 16), g.uniform(4, 16)
        f += (g.uniform(60, 200) * np.exp(-((xx - cx) / sx) ** 2 - ((yy - cy) / sy) ** 2))[..., None]


def _light_and_blur(f: np.ndarray, g: np.random.Generator) -> np.ndarray:
    yy, xx = np.mgrid[0:FACE_H, 0:FACE_W].astype(np.float32)
    gx, gy = g.normal(0, 0.004, 2)
    shade = 1 + gx * (xx - FACE_W / 2) + gy * (yy - FACE_H / 2)
    gain = g.uniform(0.55, 1.25) * g.uniform(0.88, 1.12, 3).astype(np.float32)
    f = f * shade[..., None] * gain
    f = 255.0 * np.clip(f / 255.0, 0, 1) ** g.uniform(0.8, 1.25)
    r = g.random()
    if r < 0.35:
        f = cv2.GaussianBlur(f, (0, 0), g.uniform(0.4, 1.2))
    elif r < 0.7:        # from farther away: fewer pixels on the card
        s = g.uniform(0.35, 0.7)
        small = cv2.resize(f, (max(8, int(FACE_W * s)), max(12, int(FACE_H * s))), interpolation=cv2.INTER_AREA)
        f = cv2.resize(small, (FACE_W, FACE_H), interpolation=cv2.INTER_LINEAR)
    f = f + g.normal(0, g.uniform(0, 6), f.shape).astype(np.float32)
    img = np.clip(f, 0, 255).astype(np.uint8)
    if g.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(g.integers(40, 90))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img
