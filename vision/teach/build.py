"""Prototypes of taught photos, and the taught deck made of them.

Each taught photo gives its rectified face, AUGMENTS altered copies (augment.py), and the half
turn of each: after rectifying, a card lies upright or upside down, so both are remembered.
"""
from __future__ import annotations

import numpy as np

from .augment import altered_faces
from .deck import NO_COLOUR, TaughtDeck
from .embed import VERSION, embed_many, face, net_digest, shape_mask

AUGMENTS = 8
SHRINK = 0.1          # the within-card variance's floor, as a share of its mean over dimensions


def photo_prototypes(bgr: np.ndarray, quad: np.ndarray, seed: int = 0, augments: int = AUGMENTS,
                     white_margin: bool = True, quarter: bool = False) -> np.ndarray:
    """(2 * (1 + augments)) x D: the face, its altered copies, and the half turn of each; row 0 is
    the face as photographed. `white_margin`: False for a deck edged in black or a colour.
    `quarter`: a deck of square cards, whose outline has no long side to set upright by: the
    quarter turns too, after those (twice the rows)."""
    faces = [face(bgr, quad)] + altered_faces(bgr, quad, augments, seed)
    if quarter:
        faces += [face(bgr, quad, quarter=True)] + altered_faces(bgr, quad, augments, seed + 7919, quarter=True)
    return embed_many(faces + [f[::-1, ::-1] for f in faces], white_margin)


def fisher_weights(x: np.ndarray, labels: np.ndarray, shrink: float = SHRINK) -> np.ndarray:
    """D weights: each dimension's spread between taught cards over its spread within a card
    (the altered copies and other photos of it: light, blur, size, an outline a few pixels off),
    as a square root so that weighted distances square to that ratio (Fisher's criterion, per
    dimension). On a deck whose cards share a frame and differ in a symbol, the frame's
    dimensions weigh little and the symbol's much. Measured: full Fisher discriminant (a D x K
    projection) overfitted the altered copies on one photo per card, 0.48 against 0.66 top-1."""
    classes, inverse = np.unique(labels, return_inverse=True)
    if len(classes) < 2:
        return np.ones(x.shape[1], np.float32)
    means = np.stack([x[inverse == i].mean(axis=0) for i in range(len(classes))])
    within = ((x - means[inverse]) ** 2).mean(axis=0)
    between = means.var(axis=0)
    w = np.sqrt(between / (within + shrink * within.mean() + 1e-12))
    return (w / max(float(np.sqrt((w ** 2).mean())), 1e-12)).astype(np.float32)


def spread(protos: np.ndarray) -> float:
    """A photo's own scale: the median distance from its face to its altered copies (upright ones)."""
    n = min(len(protos) // 2, 1 + AUGMENTS)     # (a square deck's quarter turns follow its upright copies)
    if n < 2:
        return 0.0
    return float(np.median(np.linalg.norm(protos[1:n] - protos[0], axis=1)))


def build_deck(deck, taught: list[tuple], meta: dict | None = None, backs: list | None = None) -> TaughtDeck:
    """A TaughtDeck from (card id, that photo's prototypes[, its keypoints (local.Features)]) per
    taught photo. `deck`: a referee.load_deck deck (its card order, and each card's colour and
    symbol). The keypoints are kept where any photo has them. `backs`: the prototypes of each photo
    of the deck's back (photo_prototypes), kept apart from the cards': the weights are the faces'."""
    if not taught:
        raise ValueError("no photo to teach from")
    local = [t[2] if len(t) > 2 else None for t in taught]
    taught = [(t[0], t[1]) for t in taught]
    cards = [c for c in deck.cards if any(t[0] == c for t in taught)]
    index = {c: i for i, c in enumerate(cards)}
    colours = [deck.cards[c].color or NO_COLOUR for c in cards]
    symbols = [deck.cards[c].symbol for c in cards]
    protos = np.concatenate([p for _, p in taught]).astype(np.float32)
    labels = np.concatenate([np.full(len(p), index[c], np.int32) for c, p in taught])
    photos = np.concatenate([np.full(len(p), k, np.int32) for k, (_, p) in enumerate(taught)])
    # shape weighted by what tells symbols apart, colour by what tells colours apart
    mask = shape_mask()
    w = np.zeros(protos.shape[1], np.float32)
    w[mask] = fisher_weights(protos[:, mask], np.array([symbols[i] for i in labels]))
    w[~mask] = fisher_weights(protos[:, ~mask], np.array([colours[i] for i in labels]))
    scales = tuple(max(1e-3, float(np.median([spread((protos * w)[photos == k][:, part])
                                               for k in range(len(taught))]))) for part in (mask, ~mask))
    m = {"embedding": VERSION, "augments": AUGMENTS, "network": net_digest()}
    m.update(meta or {})
    return TaughtDeck(deck.id, cards, colours, symbols, protos, labels, photos, w, scales, m,
                      local if any(f is not None for f in local) else None,
                      np.concatenate(backs).astype(np.float32) if backs else None)
