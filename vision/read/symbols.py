"""Stage 3b: the card's symbol from the rectified card, colour-blind by construction.

The rectified card (vision/rectify/warp.py) is turned into a "glyph" image: the per-pixel minimum of the
three channels, contrast-stretched. White numerals, rings and borders are bright; the coloured (or
black) face and the numeral's shadow are dark, whatever the card's colour. So one classifier serves
all four colours, and colour comes from vision/read/colour.py. Features are HOG (gradient orientation
histograms, robust to print, blur and lighting) of the glyph at 64x96, and the classifier is a
one-hidden-layer network over them, trained in numpy in minutes (vision/read/train.py). Both upright and
upside-down cards are in its training data with the same label, so 0/180 degrees need no search.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..quantile import percentile

GLYPH_W, GLYPH_H = 64, 96

def hog(img, cell=8, bins=9):
    """Unsigned-gradient HOG (polarity-blind: white-on-colour and colour-on-white digits look alike),
    cells of `cell` px, 2x2-cell blocks with L2-Hys normalisation, like Dalal & Triggs."""
    f = img.astype(np.float32)
    gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=1)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) * (bins / np.pi)
    b0 = np.floor(ang).astype(np.int32) % bins
    w1 = ang - np.floor(ang)
    b1 = (b0 + 1) % bins
    h, w = f.shape
    ch, cw = h // cell, w // cell
    hist = np.zeros((ch, cw, bins), np.float32)
    cy = (np.arange(h) // cell)[:, None].repeat(w, 1)
    cx = (np.arange(w) // cell)[None, :].repeat(h, 0)
    ok = (cy < ch) & (cx < cw)
    idx = (cy * cw + cx)[ok]
    flat = hist.reshape(-1)
    np.add.at(flat, idx * bins + b0[ok], (mag * (1 - w1))[ok])
    np.add.at(flat, idx * bins + b1[ok], (mag * w1)[ok])
    blocks = np.concatenate([hist[:-1, :-1], hist[1:, :-1], hist[:-1, 1:], hist[1:, 1:]], axis=2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=2, keepdims=True) + 1e-6)
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=2, keepdims=True) + 1e-6)
    return blocks.ravel()


OTHER = "other-deck"   # the class of a card of another deck (read/train.py make_set's `others`)


def glyph_image(card_bgr: np.ndarray) -> np.ndarray:
    """uint8 GLYPH_H x GLYPH_W: min channel, stretched between its 2nd and 98th percentiles."""
    card = cv2.resize(card_bgr, (GLYPH_W, GLYPH_H), interpolation=cv2.INTER_AREA)
    g = card.min(axis=2).astype(np.float32)
    lo, hi = np.float32(percentile(g, 2)), np.float32(percentile(g, 98))   # np.percentile keeps float32
    g = (g - lo) * (255.0 / max(hi - lo, 20.0))
    return np.clip(g, 0, 255).astype(np.uint8)


def features(card_bgr: np.ndarray) -> np.ndarray:
    """HOG of the whole glyph plus a finer HOG of its centre (where the big symbol is)."""
    return glyph_features(glyph_image(card_bgr))


def glyph_features(g: np.ndarray) -> np.ndarray:
    """features() of a glyph already made by glyph_image."""
    centre = cv2.resize(g[24:72, 16:48], (32, 48))
    return np.concatenate([hog(g), hog(centre)]).astype(np.float32)


@dataclass
class SymbolModel:
    classes: list[str]
    mean: np.ndarray
    std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    meta: dict

    def proba(self, feats: np.ndarray) -> np.ndarray:
        """Class probabilities for a batch of feature rows (N x D) -> N x C."""
        x = (np.atleast_2d(feats) - self.mean) / self.std
        # einsum, not @: for a few rows numpy's own loop takes under a millisecond, while BLAS
        # wakes its threads, which fight onnxruntime's for the two cores (measured 85-124 ms)
        h = np.maximum(np.einsum("nd,dh->nh", x, self.w1) + self.b1, 0.0)
        z = np.einsum("nh,hc->nc", h, self.w2) + self.b2
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def save(self, path: str | Path) -> None:
        import json
        np.savez_compressed(path, classes=np.array(self.classes), mean=self.mean, std=self.std,
                            w1=self.w1.astype(np.float16), b1=self.b1, w2=self.w2.astype(np.float16),
                            b2=self.b2, meta=np.array(json.dumps(self.meta)))

    @classmethod
    def load(cls, path: str | Path) -> "SymbolModel":
        import json
        z = np.load(path, allow_pickle=False)
        return cls([str(c) for c in z["classes"]], z["mean"], z["std"], z["w1"].astype(np.float32), z["b1"],
                   z["w2"].astype(np.float32), z["b2"], json.loads(str(z["meta"])))
