"""Procedural table tops (BGR uint8, square): wood, felt, woven cloth, gingham, paper, plain
laminate and patterned cloths, dark and light. Everything is drawn from a numpy Generator, so a
seed gives the same table."""
from __future__ import annotations

import cv2
import numpy as np


def _noise(g: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """Smooth value noise in [0, 1] with about `cells` blobs across."""
    cells = max(2, int(cells))
    small = g.random((cells, cells)).astype(np.float32)
    return cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _colour(g, dark: bool, hue=None, sat=(0.1, 0.7)):
    h = g.uniform(0, 180) if hue is None else hue
    s = g.uniform(*sat) * 255
    v = g.uniform(25, 90) if dark else g.uniform(150, 240)
    hsv = np.uint8([[[h % 180, s, v]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def wood(g, n):
    base = _colour(g, g.random() < 0.5, hue=g.uniform(5, 22), sat=(0.35, 0.75))
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    warp = _noise(g, n, 4) * g.uniform(20, 60)
    freq = g.uniform(0.04, 0.12)
    grain = 0.5 + 0.5 * np.sin((yy + warp) * freq + _noise(g, n, 30) * 2.0)
    fine = _noise(g, n, n // 3)
    shade = 0.75 + 0.2 * grain + 0.1 * fine
    # planks: darker seams every so often
    plank = int(g.uniform(0.12, 0.35) * n)
    seams = ((yy.astype(int) % plank) < 2).astype(np.float32)
    shade *= 1 - 0.35 * seams
    img = base[None, None, :] * shade[..., None]
    if g.random() < 0.5:
        img = np.ascontiguousarray(np.rot90(img))
    return img


def felt(g, n):
    base = _colour(g, g.random() < 0.6, hue=g.choice([60, 100, 120, 0, 170, g.uniform(0, 180)]), sat=(0.3, 0.9))
    shade = 0.9 + 0.1 * _noise(g, n, 8) + 0.08 * (g.random((n, n)).astype(np.float32) - 0.5)
    return base[None, None, :] * shade[..., None]


def cloth(g, n):
    base = _colour(g, g.random() < 0.5)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    p = g.uniform(2.5, 5)
    weave = 0.5 + 0.25 * np.sin(xx * np.pi / p) * np.sin(yy * np.pi / p)
    shade = 0.8 + 0.25 * weave + 0.1 * _noise(g, n, 10)
    return base[None, None, :] * shade[..., None]


def gingham(g, n):
    a = _colour(g, False, sat=(0.5, 0.9))
    if g.random() < 0.5:
        a = _colour(g, True, sat=(0.5, 0.9))
    white = np.float32([235, 238, 240])
    yy, xx = np.mgrid[0:n, 0:n]
    period = int(g.uniform(0.04, 0.12) * n) + 4
    sx = ((xx // (period // 2)) % 2).astype(np.float32)
    sy = ((yy // (period // 2)) % 2).astype(np.float32)
    k = (sx + sy) / 2.0      # 0 white, 0.5 mid, 1 full colour
    img = white[None, None] * (1 - k[..., None]) + a[None, None] * k[..., None]
    return img * (0.92 + 0.08 * _noise(g, n, 6))[..., None]


def paper(g, n):
    v = g.uniform(200, 245)
    tint = np.float32([v - g.uniform(0, 25), v - g.uniform(0, 10), v])
    fibres = cv2.GaussianBlur(g.random((n, n)).astype(np.float32), (0, 0), 1.0)
    shade = 0.93 + 0.08 * fibres + 0.05 * _noise(g, n, 5)
    return tint[None, None] * shade[..., None]


def laminate(g, n):
    base = _colour(g, g.random() < 0.5, sat=(0.0, 0.35))
    shade = 0.94 + 0.06 * _noise(g, n, 3) + 0.03 * (g.random((n, n)).astype(np.float32) - 0.5)
    return base[None, None] * shade[..., None]


def pattern(g, n):
    """A printed tablecloth: dots, stripes or a diamond grid in two colours."""
    dark = g.random() < 0.5
    a, b = _colour(g, dark), _colour(g, not dark if g.random() < 0.3 else dark, sat=(0.3, 0.9))
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    period = g.uniform(0.03, 0.1) * n
    kind = g.integers(3)
    if kind == 0:
        m = (((xx % period) - period / 2) ** 2 + ((yy % period) - period / 2) ** 2) < (period * 0.25) ** 2
    elif kind == 1:
        m = ((xx + yy * g.uniform(-1, 1)) % period) < period * 0.4
    else:
        m = ((np.abs((xx % period) - period / 2) + np.abs((yy % period) - period / 2)) < period * 0.3)
    m = m.astype(np.float32)
    img = a[None, None] * (1 - m[..., None]) + b[None, None] * m[..., None]
    return img * (0.92 + 0.08 * _noise(g, n, 6))[..., None]


def light_surface(g, n):
    """A white or pale desk, counter or shelf: near-white to light grey or beige, a faint texture
    and a soft sheen. Close-ups of a card on such a desk have little contrast at the card's edge:
    its white margin against a surface nearly as white."""
    v = g.uniform(165, 250)
    tint = np.float32([v - g.uniform(0, 30), v - g.uniform(0, 15), v - g.uniform(0, 8)])
    if g.random() < 0.5:
        tint = tint[[2, 1, 0]]                       # a cool grey as often as a warm beige
    grain = cv2.GaussianBlur(g.random((n, n)).astype(np.float32), (0, 0), g.uniform(0.6, 2.0))
    shade = 0.95 + 0.05 * grain + 0.06 * _noise(g, n, 3)
    return tint[None, None] * shade[..., None]


KINDS = {"wood": wood, "felt": felt, "cloth": cloth, "gingham": gingham, "paper": paper,
         "laminate": laminate, "pattern": pattern}
WEIGHTS = {"wood": 3, "felt": 2, "cloth": 2, "gingham": 1.5, "paper": 1, "laminate": 2, "pattern": 1.5}


def make_table(g: np.random.Generator, n: int, kind: str | None = None) -> tuple[np.ndarray, str]:
    if kind is None:
        names = list(KINDS)
        p = np.array([WEIGHTS[k] for k in names], dtype=float)
        kind = names[g.choice(len(names), p=p / p.sum())]
    # drawn at half size: the camera sees the table at about that resolution anyway
    img = KINDS[kind](g, (n + 1) // 2)
    img = cv2.resize(img, (n, n), interpolation=cv2.INTER_LINEAR)
    return np.clip(img, 0, 255).astype(np.uint8), kind
