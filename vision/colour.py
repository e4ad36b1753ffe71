"""Stage 3a: the card's colour from its own pixels.

Colour carries over from renders to real photos almost perfectly (shared/notes/vision-probe.md), so
it needs no learning: white-balance the card against its own white border, then vote the hue of
the saturated pixels. A wild is black with several colours; it is told apart by the symbol
classifier, and this module reports how "wild-like" the pixels are as a cross-check.
"""
from __future__ import annotations

import cv2
import numpy as np

# OpenCV hue (0..180) ranges; red wraps around 0.
HUE_BUCKETS = (("red", (0, 11)), ("yellow", (11, 40)), ("green", (40, 88)), ("blue", (88, 140)), ("red", (140, 181)))
COLOURS = ("red", "yellow", "green", "blue")


def white_balance(card_bgr: np.ndarray) -> np.ndarray:
    """Scale the channels so the card's brightest unsaturated pixels (its border) are neutral grey."""
    f = card_bgr.astype(np.float32)
    lum = f.mean(axis=2)
    thr = np.percentile(lum, 90)
    ref = f[lum >= thr]
    if len(ref) < 10:
        return card_bgr
    gains = ref.mean(axis=0).mean() / np.maximum(ref.mean(axis=0), 1.0)
    gains = np.clip(gains, 0.6, 1.6)  # a coloured cast, not a coloured card, is what we correct
    return np.clip(f * gains, 0, 255).astype(np.uint8)


def colour_votes(card_bgr: np.ndarray, margin: float = 0.1) -> dict:
    """Fractions of the card's saturated pixels per colour, plus dark and colourful fractions."""
    h, w = card_bgr.shape[:2]
    my, mx = int(h * margin), int(w * margin)
    inner = white_balance(card_bgr)[my:h - my, mx:w - mx]
    hsv = cv2.cvtColor(inner, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.int32)
    hue, sat, val = hsv[:, 0], hsv[:, 1], hsv[:, 2]
    # "bright enough" follows the card's own white: a dim room darkens the colours with it
    coloured = (sat > 80) & (val > max(35.0, 0.3 * float(np.percentile(val, 95))))
    n = max(int(coloured.sum()), 1)
    votes = {c: 0.0 for c in COLOURS}
    for name, (lo, hi) in HUE_BUCKETS:
        votes[name] += float(((hue >= lo) & (hue < hi) & coloured).sum()) / n
    return {"votes": votes, "coloured": float(coloured.mean()), "dark": float((val < 60).mean())}


def card_colour(card_bgr: np.ndarray) -> tuple[str | None, float]:
    """(colour, confidence). None when too few pixels are coloured (a wild or no card at all)."""
    v = colour_votes(card_bgr)
    best = max(v["votes"], key=v["votes"].get)
    if v["coloured"] < 0.15:
        return None, 0.0
    return best, v["votes"][best]
