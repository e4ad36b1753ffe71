"""What a rendered card face looks like after a camera, a table and our own locator saw it.

Used to make the symbol classifier's training data on the fly from vision.art.render_card: the
card is shrunk to a random on-screen size, put on a random background, its corners are found
again with an error like the locator's, it is warped to the canonical card (upright or upside
down), and lighting, colour cast, blur, noise and JPEG damage are added.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..rectify import CANON_H, CANON_W


# the locator's corner error, as a share of the card's width: (each corner's, the whole outline's)
CORNER_ERROR = (0.025, 0.015)
CORNER_ERROR_FAR = (0.055, 0.035)   # an outline on a pile or a snap gone astray (synthetic scenes: IoU 0.7-0.87)
FAR_SHARE = 0.2                     # the share of samples with the larger error
CARD_PX = (38, 150)                 # the card's width on screen, pixels: from far (small) to near


def rgba_to_bgr_on(rgba: np.ndarray, background: np.ndarray) -> np.ndarray:
    a = rgba[..., 3:4].astype(np.float32) / 255.0
    fg = rgba[..., 2::-1].astype(np.float32)
    return (fg * a + background.astype(np.float32) * (1 - a)).astype(np.uint8)


def _background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = rng.integers(0, 256, 3)
    if rng.random() < 0.5:
        base = base * rng.uniform(0.1, 0.5)  # dark tables are common
    img = np.ones((h, w, 3), np.float32) * base
    img += rng.normal(0, rng.uniform(2, 25), (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def camera_view(rgba: np.ndarray, rng: np.random.Generator, out_size=(CANON_W, CANON_H),
                outline_error: float = 1.0, card_px: tuple = CARD_PX, far_share: float = FAR_SHARE) -> np.ndarray:
    """The rectified card (BGR, out_size) as the pipeline would produce it from a photo of `rgba`.
    `outline_error` scales the locator's corner error (CORNER_ERROR, CORNER_ERROR_FAR): wider for a
    deck printed at home and cut by hand, whose outlines the detector's boxes leave looser.
    `card_px`: the range of the card's width on screen, in pixels. `far_share`: the share of samples
    outlined with the larger error (CORNER_ERROR_FAR)."""
    h0, w0 = rgba.shape[:2]
    cw = int(rng.uniform(*card_px))
    ch = int(round(cw * h0 / w0))
    card = cv2.resize(rgba, (cw, ch), interpolation=cv2.INTER_AREA)
    pad = max(6, cw // 5)
    bg = _background(rng, ch + 2 * pad, cw + 2 * pad)
    canvas = bg.copy()
    canvas[pad:pad + ch, pad:pad + cw] = rgba_to_bgr_on(card, bg[pad:pad + ch, pad:pad + cw])
    # lighting: a gradient across the card, and an overall colour cast (white balance)
    yy, xx = np.mgrid[0:canvas.shape[0], 0:canvas.shape[1]].astype(np.float32)
    gx, gy = rng.normal(0, 0.004, 2)
    shade = 1 + gx * (xx - xx.mean()) + gy * (yy - yy.mean())
    gain = rng.uniform(0.45, 1.25) * rng.uniform(0.85, 1.15, 3)
    img = canvas.astype(np.float32) * shade[..., None] * gain
    if rng.random() < 0.3:  # glare: a bright soft spot
        cx, cy, r = rng.uniform(0, canvas.shape[1]), rng.uniform(0, canvas.shape[0]), rng.uniform(5, cw)
        img += 120 * rng.random() * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        s = rng.uniform(0.3, 1.3)
        img = cv2.GaussianBlur(img, (0, 0), s)
    if rng.random() < 0.3:  # motion blur
        k = int(rng.integers(3, 6))
        ker = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0 / k
        m = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(ker, m, (k, k)))
    img = np.clip(img.astype(np.float32) + rng.normal(0, rng.uniform(0, 8), img.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    # corners as the locator would find them: the true ones, each off by a few percent; now and then
    # off by more, as an outline on a pile that took in part of the card below
    true = np.float32([[pad, pad], [pad + cw - 1, pad], [pad + cw - 1, pad + ch - 1], [pad, pad + ch - 1]])
    corner, shift = CORNER_ERROR_FAR if rng.random() < far_share else CORNER_ERROR
    jitter = (rng.normal(0, corner, (4, 2)) * cw + rng.normal(0, shift, 2) * cw) * outline_error
    src = true + jitter.astype(np.float32)
    dst = np.float32([[0, 0], [out_size[0] - 1, 0], [out_size[0] - 1, out_size[1] - 1], [0, out_size[1] - 1]])
    if rng.random() < 0.5:  # upside down: the other of the two orientations left after rectifying
        dst = np.roll(dst, 2, axis=0)
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(img, m, out_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
