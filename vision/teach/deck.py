"""A taught deck in memory: prototypes per card and nearest-prototype reading.

A face is read as the card of its nearest prototype, distances measured with per-dimension
weights learned when the deck was taught (build.fisher_weights: what tells this deck's cards
apart counts, what changes with the light does not). The confidence comes from two things: the
margin, how much nearer the best card's nearest prototype is than the next card's (two cards that
look alike leave a small margin, so neither is sure), and the distance itself against the deck's
own scale (a face far from every prototype, a card never taught or no card at all, is unsure
however the margin falls). The constants were set on bench/teach.py's synthetic photos
(docs/teach.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

MARGIN_FULL = 0.5     # a relative margin (1 - best/second distance) that gives full confidence
FAR_START = 2.0       # a best distance up to this many times the deck's scale is near ...
FAR_END = 4.0         # ... and from this many times it says nothing
NEAR = 1.5            # a best distance up to this many times the scale: as near as a card's own photos


@dataclass(frozen=True)
class Match:
    card: str
    confidence: float
    best: float          # distance to the card's nearest prototype
    second: float        # distance to the next card's nearest prototype (inf with one card)
    runner_up: str | None
    near: bool = False   # the best distance is at most NEAR times the deck's scale


@dataclass
class TaughtDeck:
    deck: str
    cards: list[str]              # the taught card ids, in deck order
    protos: np.ndarray            # N x D float32 embeddings, already weighted
    labels: np.ndarray            # N int: index into cards
    photos: np.ndarray            # N int: the taught photo each prototype came from
    weights: np.ndarray           # D float32: each embedding dimension's weight
    scale: float = 1.0            # a typical distance between a card and its own prototypes
    meta: dict = field(default_factory=dict)

    def __post_init__(self):
        self.protos = np.ascontiguousarray(self.protos, np.float32)
        self.weights = np.asarray(self.weights, np.float32)
        self._sq = (self.protos ** 2).sum(axis=1)

    def card_distances(self, e: np.ndarray, exclude_photo: int | None = None) -> np.ndarray:
        """The distance from embedding `e` to each taught card's nearest prototype (inf where a
        card has none left, e.g. leaving its only photo out)."""
        x = np.asarray(e, np.float32).reshape(-1) * self.weights
        # einsum, not @: a matrix-vector product on BLAS wakes threads that fight the detector's
        d2 = self._sq - 2.0 * np.einsum("nd,d->n", self.protos, x) + float((x ** 2).sum())
        d = np.sqrt(np.maximum(d2, 0.0))
        if exclude_photo is not None:
            d = np.where(self.photos == exclude_photo, np.inf, d)
        out = np.full(len(self.cards), np.inf, np.float32)
        np.minimum.at(out, self.labels, d.astype(np.float32))
        return out

    def match(self, e: np.ndarray, exclude_photo: int | None = None) -> Match:
        d = self.card_distances(e, exclude_photo)
        order = np.argsort(d)
        best = float(d[order[0]])
        second = float(d[order[1]]) if len(d) > 1 else float("inf")
        return Match(self.cards[order[0]], confidence(best, second, self.scale), best, second,
                     self.cards[order[1]] if len(d) > 1 and np.isfinite(second) else None,
                     best <= NEAR * self.scale)


def confidence(best: float, second: float, scale: float) -> float:
    """0..1 from the margin between the best and the next card and the best distance's size."""
    if not np.isfinite(best):
        return 0.0
    margin = 1.0 if not np.isfinite(second) else 1.0 - best / max(second, 1e-9)
    by_margin = float(np.clip(margin / MARGIN_FULL, 0.0, 1.0))
    far = best / max(scale, 1e-9)
    by_distance = float(np.clip((FAR_END - far) / (FAR_END - FAR_START), 0.0, 1.0))
    return by_margin * by_distance
