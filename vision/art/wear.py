"""Print wear on a rendered face: faded ink, scuffs, grime, whitened edges, a faint gloss band.
Deterministic from style.seed, so one style always renders the same pixels."""
from __future__ import annotations

import cv2
import numpy as np


def apply_wear(rgba: np.ndarray, wear: float, gloss: float, seed: int) -> np.ndarray:
    if wear <= 0 and gloss <= 0:
        return rgba
    g = np.random.default_rng(seed)
    h, w = rgba.shape[:2]
    rgb = rgba[..., :3].astype(np.float32)
    alpha = rgba[..., 3]
    if wear > 0:
        # faded ink: a little toward paper white
        rgb += (245 - rgb) * (0.12 * wear * g.random())
        # grime: low-frequency blotches
        blot = cv2.resize(g.random((6, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        rgb *= (1 - 0.10 * wear * blot)[..., None]
        # scuffs: thin light strokes
        layer = np.zeros((h, w), np.float32)
        for _ in range(int(2 + 14 * wear * g.random())):
            x0, y0 = g.integers(0, w), g.integers(0, h)
            ang, length = g.uniform(0, np.pi), g.uniform(0.05, 0.4) * w
            x1, y1 = int(x0 + length * np.cos(ang)), int(y0 + length * np.sin(ang))
            cv2.line(layer, (int(x0), int(y0)), (x1, y1), float(g.uniform(0.2, 0.8)), 1, cv2.LINE_AA)
        rgb += (255 - rgb) * (layer * 0.3 * wear)[..., None]
        # edge wear: white specks along the outline, where cards rub
        inner = cv2.erode((alpha > 128).astype(np.uint8), np.ones((5, 5), np.uint8))
        edge = ((alpha > 0) & (inner == 0)).astype(np.float32)
        edge = cv2.dilate(edge, np.ones((3, 3), np.uint8)) * (g.random((h, w)) < 0.25 * wear)
        rgb += (255 - rgb) * (edge * 0.6)[..., None]
    if gloss > 0:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = g.uniform(0, np.pi)
        d = (xx - w * g.uniform(0.2, 0.8)) * np.cos(ang) + (yy - h * g.uniform(0.2, 0.8)) * np.sin(ang)
        band = np.exp(-(d / (0.12 * w)) ** 2)
        rgb += (255 - rgb) * (band * 0.6 * gloss)[..., None]
    out = rgba.copy()
    out[..., :3] = np.clip(rgb, 0, 255).astype(np.uint8)
    return out
