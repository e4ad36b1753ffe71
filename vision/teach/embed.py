"""The embedding of a rectified card face: what a taught card is remembered and matched by.

The face (FACE_W x FACE_H) is described in three parts, each scaled so that none drowns the others:
- regions' shape: the face cut into REGIONS_X x REGIONS_Y square regions, each with a
  gradient-orientation histogram (HOG, 2x2 cells of 8 px, L2-Hys) of the face contrast-stretched,
  each pixel's gradient from the channel where it is strongest (so a colour on white, white on a
  colour and black on a colour all show; the light's level does not count);
- regions' colour: each region's four quarters' mean in CIE Lab after white-referencing the face on
  its own white margin, so a warm lamp or a dim room moves it little while a red and an orange
  card stay apart (a deck edged in black or a colour: scaled by the face's brightest only);
- learned shapes: the symbol network's last conv block over the same glyph, averaged in 3 x 2 cells
  of the card, each cell's 128 channels at unit length (vision/read/net.py `features`). HOG sees
  where strokes lie; the network, trained on many UNO prints, sees what they make (an arrow, a
  ring, a numeral's curve) and is steadier under blur, tilt and a thumb. Measured on
  bench/teach.py's photos, the taught reading alone, from one photo a card, with session 14's
  network: dino2 0.926 -> 0.949, the real second UNO print's altered copies 0.881 -> 0.955
  (hand-held) (docs/teach.md).
- optionally (FACE_WEIGHT > 0; off as shipped) a fourth part from the face network (face_net.py):
  an embedding trained for this very question, two photos of one card's drawing near and the deck's
  other symbols far, on renders of printed decks. Measured in session 53 on bench/teach.py's decks
  drawn by hand, which it never saw: the inked UNO deck gained (0.852 -> 0.870 from one photo,
  0.926 -> 0.963 from three), the snake-cup deck and the inked DINO 2 deck from three photos lost a
  few readings; not used (docs/teach.md).
The embedding is a flat vector; shape_mask() says which dimensions are shape (the HOG and the
networks') and which colour. A pure function of the face and the shipped networks, whose digest a
taught file records (file.py): features of another network are another embedding.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import cv2
import numpy as np

from ..errors import models_dir, once_per_version
from ..read.net import FEATURE_CHANNELS, FEATURE_GRID
from ..rectify import warp_card

FACE_W, FACE_H = 64, 96        # the face is warped at this size for teaching and reading
CELL = 8                       # HOG cell, pixels; a region is 2 x 2 cells
BINS = 9
REGIONS_X, REGIONS_Y = FACE_W // (2 * CELL), FACE_H // (2 * CELL)
REGIONS = REGIONS_X * REGIONS_Y
COLOUR_WEIGHT = 1.0            # the colour part's weight against the shape part (unit length)
REGION_DIM = 4 * BINS + 12
EDGE_FLOOR = 800.0             # gradient sum of a region (glyph levels) below which it counts as plain
NET_FILE = "uno-symbols-net.onnx"   # the network whose features describe shapes, for every deck
NET_CELLS, NET_CHANNELS = FEATURE_GRID[0] * FEATURE_GRID[1], FEATURE_CHANNELS   # its features' cells
NET_WEIGHT = 1.0               # each cell's length (unit vectors), against a HOG region's (at most ~0.8)
FACE_WEIGHT = 0.0              # the face network's part (unit length) against the others; 0: left out
                               # (session 53: at 2.0, +5 of 1,136 readings on the hand-drawn decks, three
                               # rows of eight worse; not used, docs/teach.md)
VERSION = 6                    # bump when the embedding changes: a taught file of another version is refused


def face(bgr: np.ndarray, quad: np.ndarray, quarter: bool = False, ordered: bool = False) -> np.ndarray:
    """The card inside `quad` warped to FACE_W x FACE_H (upright or upside down); `quarter`: turned
    a quarter from that (a square card: which of its sides is "long" is the outline's chance);
    `ordered`: `quad`'s first side on top as it is (rectify.warp_card)."""
    return warp_card(bgr, quad, (FACE_W, FACE_H), turn=1 if quarter else 0, ordered=ordered)


DARK_MARGIN = 0.5     # a margin darker than this share of the face's brightest is not white


def white_referenced(face_bgr: np.ndarray, white_margin: bool = True) -> np.ndarray:
    """The face in float32 with its white margin scaled to 1.0 in each channel. The margin is the
    band 2-8% in from each edge (the rounded corners left out: they may show the table). A margin
    that is not white, or a deck whose border is not (`white_margin` False): the face scaled by its
    brightest instead."""
    f = face_bgr.astype(np.float32)
    top = float(np.percentile(f.mean(axis=2), 97))
    if white_margin:
        h, w = f.shape[:2]
        a, b = max(1, int(0.02 * w)), max(2, int(0.08 * w))
        band = np.concatenate([f[a:b, b:w - b].reshape(-1, 3), f[h - b:h - a, b:w - b].reshape(-1, 3),
                               f[b:h - b, a:b].reshape(-1, 3), f[b:h - b, w - b:w - a].reshape(-1, 3)])
        # the brighter half of the band: a thumb or a shadow over one side must not set the white
        lum = band.mean(axis=1)
        ref = band[lum >= np.median(lum)].mean(axis=0)
        if float(ref.mean()) >= DARK_MARGIN * top:
            return np.clip(f / np.maximum(ref, 8.0), 0.0, 1.2)
    # a deck edged in black or a colour (vision/locate/border.py), or a margin in shadow: no white to
    # go by, so only the light's level is taken out, not its colour. A purple border under a bright
    # lamp is as bright as paper, and taken for white it turned red cards yellow (the teach bench's
    # purple-edged print: a red 7 and a red 9 read as yellow, sure)
    return np.clip(f / max(top, 8.0), 0.0, 1.2)


def region_colours(face_bgr: np.ndarray, white_margin: bool = True) -> np.ndarray:
    """REGIONS x 12: each region's four quarters in Lab of the white-referenced face, about unit scale."""
    # averaged first, then to Lab: the same colour to a few units, at a tenth of the time
    small = cv2.resize(np.clip(white_referenced(face_bgr, white_margin), 0, 1), (REGIONS_X * 2, REGIONS_Y * 2),
                       interpolation=cv2.INTER_AREA)
    q = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    # lightness counts less than hue: the light varies more across a card than its print does
    q = q * np.float32([0.5, 1.0, 1.0]) / 100.0
    q = q.reshape(REGIONS_Y, 2, REGIONS_X, 2, 3).transpose(0, 2, 1, 3, 4)
    return q.reshape(REGIONS, 12)


GLYPH_BLUR = 0.8    # sigma, pixels of the face: a marker's strokes across a field coloured in by hand
                    # are texture, not shape (hand-drawn decks, the true outlines: mean confidence of
                    # right readings 0.79 -> 0.84 on DINO 2, 0.75 -> 0.81 on snake-cup; a print's the same)


def glyph(face_bgr: np.ndarray) -> np.ndarray:
    """float32 FACE_H x FACE_W x 3: the face's channels, stretched together from the darkest
    channel's 2nd percentile to the brightest channel's 98th (so the light's level does not count),
    a little blurred (GLYPH_BLUR)."""
    f = face_bgr.astype(np.float32)
    lo, hi = np.percentile(f.min(axis=2), 2), np.percentile(f.max(axis=2), 98)
    f = np.clip((f - lo) * (255.0 / max(hi - lo, 20.0)), 0, 255)
    return cv2.GaussianBlur(f, (0, 0), GLYPH_BLUR) if GLYPH_BLUR else f


def _gradient(f: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(gx, gy) of each pixel from the channel where it changes most (Dalal and Triggs' colour HOG).
    One channel would miss some inks: the darkest channel (what the symbol network reads) shows
    a colour on white and white on a colour, but black lettering on a red field hardly (black 24,
    red's darkest channel 32); the red channel shows that (24 against 206): a deck drawn by hand."""
    gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=1)
    strongest = (gx * gx + gy * gy).argmax(axis=2)[..., None]
    return np.take_along_axis(gx, strongest, 2)[..., 0], np.take_along_axis(gy, strongest, 2)[..., 0]


def region_hog(face_bgr: np.ndarray) -> np.ndarray:
    """REGIONS x 36: unsigned gradient histograms of the glyph, 2x2 cells a region, L2-Hys."""
    gx, gy = _gradient(glyph(face_bgr))
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) * (BINS / np.pi)
    b0 = np.floor(ang).astype(np.int32) % BINS
    w1 = ang - np.floor(ang)
    # soft binning into two neighbouring orientation bins, then summed per cell (bincount: a
    # tenth of np.add.at's time)
    n = mag.size
    pix = np.arange(n)
    idx = np.concatenate([b0.ravel() * n + pix, ((b0.ravel() + 1) % BINS) * n + pix])
    wts = np.concatenate([(mag * (1 - w1)).ravel(), (mag * w1).ravel()])
    planes = np.bincount(idx, weights=wts, minlength=BINS * n).reshape((BINS,) + mag.shape).astype(np.float32)
    cells = planes.reshape(BINS, FACE_H // CELL, CELL, FACE_W // CELL, CELL).sum(axis=(2, 4))
    r = cells.reshape(BINS, REGIONS_Y, 2, REGIONS_X, 2).transpose(1, 3, 2, 4, 0).reshape(REGIONS, 4 * BINS)
    # normalised per region, but a region with little gradient (plain paper, sensor noise) stays
    # short instead of being blown up to unit length: EDGE_FLOOR is about a faint edge's strength
    r = r / np.sqrt((r ** 2).sum(axis=1, keepdims=True) + EDGE_FLOOR ** 2)
    return np.minimum(r, 0.3) / 0.6


def shape_net():
    """The symbol network of the models folder (TABLEREF_MODELS or models/), loaded once (the
    recognizer's own, vision.read.net.load_net)."""
    from ..read.net import load_net
    return load_net(models_dir() / NET_FILE)


def check_networks() -> None:
    """Loads the networks the embedding needs: a ModelError names one missing or unreadable."""
    shape_net()
    if FACE_WEIGHT > 0:
        from .face_net import load
        load()


@once_per_version
def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def net_digest() -> str:
    """A short digest of the network files (the symbol network's, and the face network's when it is
    used): a taught file made with another network is refused. (check_networks has made sure they
    are there; "none" keeps a digest defined without them.)"""
    paths = [models_dir() / NET_FILE]
    if FACE_WEIGHT > 0:
        from . import face_net
        paths.append(face_net.PATH or models_dir() / face_net.FILE)
    return "+".join(_digest(p) if p.is_file() else "none" for p in paths)


def net_features(faces: list[np.ndarray]) -> np.ndarray:
    """N x NET_CELLS*NET_CHANNELS: each face's learned-shape cells, each cell at unit length."""
    from ..read.symbols import glyph_image
    f = shape_net().features(np.stack([glyph_image(x) for x in faces]))       # N x C x 3 x 2
    f = f.reshape(len(faces), NET_CHANNELS, NET_CELLS).transpose(0, 2, 1)      # N x cells x C
    f = f / (np.linalg.norm(f, axis=2, keepdims=True) + 1e-6)
    return (NET_WEIGHT * f).reshape(len(faces), -1)


def shape_mask() -> np.ndarray:
    """Bool mask of an embedding: True on the shape dimensions (HOG and the networks), False on colour."""
    regions = np.tile(np.r_[np.ones(4 * BINS, bool), np.zeros(12, bool)], REGIONS)
    return np.r_[regions, np.ones(NET_CELLS * NET_CHANNELS, bool), np.ones(_face_dims(), bool)]


def _face_dims() -> int:
    from .face_net import EMBED_DIM
    return EMBED_DIM if FACE_WEIGHT > 0 else 0


def _sized(face_bgr: np.ndarray) -> np.ndarray:
    if face_bgr.shape[:2] != (FACE_H, FACE_W):
        return cv2.resize(face_bgr, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
    return face_bgr


def embed_many(faces: list[np.ndarray], white_margin: bool = True) -> np.ndarray:
    """N x D float32 embeddings of rectified faces (any size; resized to FACE_W x FACE_H), the
    network run once for all of them. `white_margin`: the deck's border is white (its colour is
    referenced on it); False for a deck edged in black or a colour."""
    faces = [_sized(f) for f in faces]
    regions = [np.concatenate([region_hog(f), COLOUR_WEIGHT * region_colours(f, white_margin)], axis=1).ravel()
               for f in faces]
    parts = [np.stack(regions), net_features(faces)]
    if FACE_WEIGHT > 0:
        from .face_net import load
        parts.append(FACE_WEIGHT * load().embed(faces))
    return np.concatenate(parts, axis=1).astype(np.float32)


def embed(face_bgr: np.ndarray, white_margin: bool = True) -> np.ndarray:
    """The D float32 embedding of one rectified face (`white_margin`: see embed_many)."""
    return embed_many([face_bgr], white_margin)[0]
