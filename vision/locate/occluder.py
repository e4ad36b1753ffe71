"""What covers a card that is not a card: a hand, a sleeve, a pen, the table seen through a bad outline.

A card's margin is paper, printed white all round. Where something lies across the card, its margin
is broken there, and what breaks it runs on outside the card in the same colour: a finger over the
edge is skin on both sides of it. Those places seed the occluder; it is grown into the card over the
pixels of the seeds' colours that are neither the card's white nor its own field colour in another
light (a card of the same colour lying across must not take the field with it), and only as far as
it stays connected to them. Worked in the card's rectified frame, with a pad of picture round it,
then mapped back. The recognizer reads a card again with it painted out (recognizer `OCCLUDED`).
"""
from __future__ import annotations

import cv2
import numpy as np

from ..rectify.warp import portrait_corners
from .overlap import to_lab

W, H = 100, 150          # the card in its rectified frame (a UNO card is about 2:3)
PAD = 14                 # picture kept round it on each side, in the frame's pixels
IN = (2, 6)              # the margin sampled this deep inside the card's edge ...
OUT = (3, 9)             # ... against the picture this far outside it
WHITE_CHROMA = 16.0      # a pixel whiter than this (a*, b* distance from grey, 8-bit Lab) ...
WHITE_L = 0.78           # ... and at least this share of the card's white as bright is paper
SAME = 14.0              # the margin and the picture outside it this alike (Lab distance): one thing across the edge
GROW = 16.0              # a pixel this near a seed's colour belongs to the occluder, where connected to a seed
FIELD = (8, 18)          # the card's own colour: the median of what is not paper this deep inside its edge ...
FIELD_HUE = 25.0         # ... and no seed or grown pixel of its hue within this many degrees ...
FIELD_CHROMA = 0.55      # ... and this share of its chroma (light and shade change a field's lightness and depth,
                         # not its hue; skin is a red's hue at a third of its chroma)
LEAST_RUN = 4            # seeds along one side in runs at least this long (frame pixels): not a speck of noise
LEAST_PX = 48            # a card narrower than this in its picture is left alone: its margin is a pixel or two


def occluder_mask(bgr: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The picture's pixels of `quad` under something that is not a card (bool, the picture's shape),
    or None where nothing crosses the card's margin (or the card is too small to tell)."""
    h, w = bgr.shape[:2]
    src = portrait_corners(np.asarray(quad, np.float32))
    if min(float(np.linalg.norm(src[1] - src[0])), float(np.linalg.norm(src[3] - src[0]))) < LEAST_PX:
        return None
    fw, fh = W + 2 * PAD, H + 2 * PAD
    dst = np.float32([[PAD, PAD], [PAD + W - 1, PAD], [PAD + W - 1, PAD + H - 1], [PAD, PAD + H - 1]])
    m = cv2.getPerspectiveTransform(src, dst)
    frame = cv2.warpPerspective(bgr, m, (fw, fh), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT)
    seen = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (fw, fh), flags=cv2.INTER_NEAREST,
                               borderMode=cv2.BORDER_CONSTANT) > 0
    lab = to_lab(frame)
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    card = np.zeros((fh, fw), bool)
    card[PAD:PAD + H, PAD:PAD + W] = True
    # the card's white as this light shows it: its brightest pixels that are not strongly coloured
    inner = card & seen
    if inner.sum() < 50:
        return None
    bright = inner & (lab[..., 0] >= np.percentile(lab[..., 0][inner], 80)) & (chroma < 2 * WHITE_CHROMA)
    if bright.sum() < 20:
        return None
    white = np.median(lab[bright], axis=0)
    tint = np.hypot(lab[..., 1] - white[1], lab[..., 2] - white[2])
    paper = (tint < WHITE_CHROMA) & (lab[..., 0] >= WHITE_L * white[0])
    band = card & seen & ~paper
    band[PAD + FIELD[1]:PAD + H - FIELD[1], PAD + FIELD[1]:PAD + W - FIELD[1]] = False
    band[:PAD + FIELD[0]] = band[PAD + H - FIELD[0]:] = False
    band[:, :PAD + FIELD[0]] = band[:, PAD + W - FIELD[0]:] = False
    if band.sum() < 50:
        return None
    off_field = ~_field_like(lab, chroma, np.median(lab[band], axis=0))
    seeds = np.zeros((fh, fw), bool)
    for inside, outside, _ in _side_strips():
        a_in, a_out = lab[inside].mean(axis=1), lab[outside].mean(axis=1)     # (along, 3) each
        ok = seen[inside].all(axis=1) & seen[outside].all(axis=1)
        not_paper = ~paper[inside].any(axis=1) & ~paper[outside].any(axis=1)
        alike = np.linalg.norm(a_in - a_out, axis=1) < SAME
        hit = _runs(ok & not_paper & alike, LEAST_RUN)
        rows, cols = inside
        seeds[rows[hit], cols[hit]] = True
    seeds &= off_field
    if not seeds.any():
        return None
    colours = lab[seeds]
    # a pixel near some seed's colour; several colours (skin, its shadow, a sleeve) each stand for themselves
    picks = colours[np.linspace(0, len(colours) - 1, min(len(colours), 64)).astype(int)]
    grow = card & seen & ~paper & off_field
    px = lab[grow]
    d2 = (px * px).sum(1)[:, None] - 2 * px @ picks.T + (picks * picks).sum(1)[None, :]
    grow[grow] = d2.min(axis=1) < GROW * GROW
    _, labels = cv2.connectedComponents(grow.astype(np.uint8), connectivity=8)
    keep = np.unique(labels[seeds & grow])
    keep = keep[keep > 0]
    if not len(keep):
        return None
    mask = np.isin(labels, keep).astype(np.uint8)
    back = cv2.warpPerspective(mask, np.linalg.inv(m), (w, h), flags=cv2.INTER_NEAREST,
                               borderMode=cv2.BORDER_CONSTANT) > 0
    return back if back.any() else None


def _field_like(lab: np.ndarray, chroma: np.ndarray, field: np.ndarray) -> np.ndarray:
    """The pixels that may be the card's own field colour `field` (Lab) in another light or shade."""
    fa, fb = float(field[1]) - 128, float(field[2]) - 128
    fc = float(np.hypot(fa, fb))
    if fc < 2 * WHITE_CHROMA:     # a black field (a wild): dark and not coloured
        return (chroma < 2 * WHITE_CHROMA) & (lab[..., 0] < field[0] + 40)
    cos = ((lab[..., 1] - 128) * fa + (lab[..., 2] - 128) * fb) / (np.maximum(chroma, 1e-3) * fc)
    return (cos > np.cos(np.radians(FIELD_HUE))) & (chroma > FIELD_CHROMA * fc)


def _side_strips():
    """For each side of the card in the frame: (the margin's pixel indices inside, the picture's
    outside, the positions along), each index pair shaped (along, depth) for fancy indexing."""
    xs, ys = np.arange(PAD, PAD + W)[:, None], np.arange(PAD, PAD + H)[:, None]
    d_in, d_out = np.arange(*IN)[None, :], np.arange(*OUT)[None, :]
    top, bottom, left, right = PAD, PAD + H - 1, PAD, PAD + W - 1
    yield _ix(top + d_in, xs), _ix(top - 1 - d_out, xs), xs
    yield _ix(bottom - d_in, xs), _ix(bottom + 1 + d_out, xs), xs
    yield _ix(ys, left + d_in), _ix(ys, left - 1 - d_out), ys
    yield _ix(ys, right - d_in), _ix(ys, right + 1 + d_out), ys


def _ix(rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return tuple(np.broadcast_arrays(rows, cols))


def _runs(flags: np.ndarray, least: int) -> np.ndarray:
    """`flags` with the runs of True shorter than `least` cleared."""
    out = np.zeros_like(flags)
    k, n = 0, len(flags)
    while k < n:
        if flags[k]:
            j = k
            while j < n and flags[j]:
                j += 1
            if j - k >= least:
                out[k:j] = True
            k = j
        else:
            k += 1
    return out
