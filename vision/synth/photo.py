"""A phone photo of one card of a given print: the kind of photo a user teaches a deck from.

One card, any size in the picture (22-80% of its short side), any turn, tilted up to 40 degrees,
on a table or held with a thumb over an edge, then the camera's light, blur and noise. Used by
bench/teach.py and the teach tests to make teach and test photos of a deck's print (vision/art);
the pieces are vision/synth/closeup.py's and scene.py's, so these photos look like the detector's
close-ups.
"""
from __future__ import annotations

import math

import numpy as np

from .closeup import CARD_ASPECT, _background, _card_quad, _hold, _paste
from .scene import SKIN, photometric


def card_photo(rgba: np.ndarray, g: np.random.Generator, out_w: int = 640, out_h: int = 480,
               held: float = 0.3, strength: float = 1.0, aspect: float = CARD_ASPECT) -> tuple[np.ndarray, np.ndarray]:
    """(BGR photo, the card's quad TL, TR, BR, BL) of the card face `rgba` (vision.art's format).
    `held`: the chance it is held in a hand; `strength`: the camera's light and blur (scene.photometric);
    `aspect`: the card's long side over its short side (a deck cut square: 1.0; the face is drawn
    into that shape)."""
    img, _ = _background(g, out_w, out_h, light=0.0)     # as teach photos were drawn before session 10
    short = min(out_w, out_h)
    frac = float(np.exp(g.uniform(math.log(0.22), math.log(0.8))))
    width = frac * short
    # a tall card must fit: its long side at most 95% of the picture's short side when upright
    width = min(width, 0.95 * short / aspect * 1.3)
    spin = g.uniform(0, 360)
    tilt = g.uniform(0, 40) if g.random() < 0.8 else 0.0
    focal = max(out_w, out_h) * g.uniform(0.9, 1.6)
    margin = np.float32([out_w, out_h]) / 2 - width * aspect * 0.5
    centre = np.float32([out_w / 2, out_h / 2]) + g.uniform(-0.5, 0.5, 2).astype(np.float32) * margin.clip(0)
    quad = _card_quad(g, centre, width, spin, tilt, focal, aspect)
    _paste(img, rgba, quad, g.uniform(0, 0.35), g)
    if g.random() < held:
        _hold(g, img, np.zeros((out_h, out_w), np.uint8), quad, SKIN[int(g.integers(len(SKIN)))])
    img = photometric(np.clip(img, 0, 255).astype(np.uint8), g, strength)
    return img, quad


def print_photos(deck: str, cards: list[str], per_card: int, seed: int = 0, style=None, size=(640, 480),
                 held: float = 0.3, strength: float = 1.0, hand=None, aspect: float = CARD_ASPECT):
    """Yields (card id, k, BGR photo, quad): `per_card` photos of each card of one print of the
    deck (`style`, else a random print drawn from `seed`); each photo its own wear and light.
    `hand` (vision/art/handdrawn.py HandStyle): the deck drawn by that hand instead, each card
    drawn once (a player's deck has one copy of a drawing) and photographed `per_card` times."""
    import random
    from dataclasses import replace

    from vision.art import render_card, style_for
    rng = random.Random(seed)
    style = style or style_for(deck, rng)
    g = np.random.default_rng(seed)
    from vision.art.handdrawn import draw_card
    for cid in cards:
        drawing = draw_card(cid, deck, hand, seed=seed, size=(224, 348)) if hand is not None else None
        for k in range(per_card):
            if drawing is not None:
                face = drawing            # one drawing of the card, photographed per_card times
            else:
                face = render_card(cid, deck, style=replace(style, seed=rng.getrandbits(32)), size=(224, 348))
            img, quad = card_photo(face, g, size[0], size[1], held, strength, aspect)
            yield cid, k, img, quad


def write_teach_folder(out, deck: str, cards: list[str], per_card: int, seed: int = 0, **kw) -> list:
    """A teach folder (`out/CARD/K.jpg`) of print_photos; returns the paths written."""
    import cv2
    from pathlib import Path
    paths = []
    for cid, k, img, _ in print_photos(deck, cards, per_card, seed, **kw):
        p = Path(out) / cid / f"{k}.jpg"
        p.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(p), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        paths.append(p)
    return paths
