"""A taught deck in memory: prototypes per card and nearest-prototype reading.

A card of every deck we know is a colour and a symbol (referee.load_deck: `red-7` is red and 7,
a wild has no colour). The taught deck uses that: the shape part of a face's embedding is
compared with the prototypes of every taught card *of each symbol* (a red 7 and a blue 7 share
their drawing), the colour part with those of every taught card *of each colour*. So one photo
per card still gives a symbol four photos (one per colour) and a colour a dozen. A card's score is
its symbol's shape distance plus its colour's colour distance, each in units of its own scale
(the spread of a photo's altered copies). Distances are measured with per-dimension weights
learned when the deck was taught (build.fisher_weights: what tells symbols, or colours, apart
counts, what changes with the light does not).
Measured on 40 dino2 cards, photos with hands, glare and tilt: one score over the whole embedding
per card read 0.66 top-1 from one photo a card, this split 0.87 (bench/teach.py, docs/teach.md).

The confidence comes from the margin, how much lower the best card's score is than the next
card's (two cards that look alike leave a small margin, so neither is sure), and the score itself
(a face far from every prototype, no card or one never taught, is unsure however the margin
falls). The constants were set on bench/teach.py's synthetic photos.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .embed import shape_mask

MARGIN_FULL = 0.25    # a relative margin (1 - best/second score) that gives full confidence
FAR_START = 2.5       # a best score (shape + colour, each in its scale) up to this is near ...
FAR_END = 5.0         # ... and from this it says nothing
NEAR = 2.0            # a best score up to this: as near as a card's own photos come
BUILTIN_WRONG = 0.05  # the built-in recognizer wrong and sure on more of the teach photos than this ...
BUILTIN_RIGHT = 0.5   # ... or right on fewer than this share of them is a stranger to the deck: it never
                      # overrules it, nor do its guesses count (reader.combine). Printed decks: right
                      # 0.97-1.0, wrong and sure 0-0.03; decks drawn by hand on the teach bench: right
                      # 0.03-0.23, wrong and sure 0-0.21; held out (other hands) 0.02-0.19, but ...
BUILTIN_SURE = 0.8    # ... a snake-cup deck in ink, its names written out, 0.50 and none wrong and sure:
                      # its sure readings agreeing with the taught deck's guesses made 6 of 122 other photos
                      # wrong and sure. Right on fewer than this share, its confidence is a stranger's (at
                      # most reader.STRANGER: 0 wrong and sure there, 100 -> 106 right), its guesses still
                      # count, of the taught reading's colour only (a square DINO 2 print, which it reads
                      # in part: its red girl read right so; reader.combine `guess_colour`)
NO_COLOUR = "none"    # the colour of a card without one (a wild), as a colour of its own
BACK = "back"         # the teach folder's subfolder of photos of the deck's back (no card id of any deck)
BACK_NEAR = 3.0       # a face whose back score is at most this, and nearer the back than any card,
                      # is a back (Match.is_back); set in session 62, see docs/teach.md "The deck's back"


@dataclass(frozen=True)
class Match:
    card: str
    confidence: float
    best: float          # the best card's score
    second: float        # the next card's score (inf with one card)
    runner_up: str | None
    near: bool = False   # the best score is at most NEAR
    back: float = float("inf")   # the score of the deck's taught back (inf: none taught)

    @property
    def is_back(self) -> bool:
        """Whether the face read is the deck's back: nearer its taught back than any card, and near
        it (BACK_NEAR)."""
        return self.back <= BACK_NEAR and self.back < self.best


def trusts_builtin(photos: int, right: int, wrong_but_sure: int, least: float = BUILTIN_RIGHT) -> bool:
    """Whether a built-in recognizer right on `right` and wrong and sure on `wrong_but_sure` of a
    deck's `photos` teach photos may overrule the taught deck (right on `least` of them at least,
    BUILTIN_WRONG; under two photos say little: yes). With `least` BUILTIN_SURE: whether its sure
    readings are sure on this deck."""
    return photos < 2 or (right >= least * photos and wrong_but_sure <= BUILTIN_WRONG * photos)


@dataclass
class TaughtDeck:
    deck: str
    cards: list[str]              # the taught card ids, in deck order
    colours: list[str]            # each taught card's colour (NO_COLOUR for none)
    symbols: list[str]            # each taught card's symbol
    protos: np.ndarray            # N x D float32 embeddings, as embedded (unweighted)
    labels: np.ndarray            # N int: index into cards
    photos: np.ndarray            # N int: the taught photo each prototype came from
    weights: np.ndarray           # D float32: each dimension's weight (shape dims for symbols, colour dims for colours)
    scales: tuple = (1.0, 1.0)    # (shape, colour): a typical distance from a photo to its altered copies
    meta: dict = field(default_factory=dict)
    local: list | None = None     # each taught photo's keypoints (local.Features, None for none); None: not kept
    back: np.ndarray | None = None  # M x D embeddings of the deck's back (photos and their altered copies); None: not taught

    def __post_init__(self):
        self.protos = np.ascontiguousarray(self.protos, np.float32)
        self.weights = np.asarray(self.weights, np.float32)
        self.labels = np.asarray(self.labels, np.int32)
        self.photos = np.asarray(self.photos, np.int32)
        self._mask = shape_mask()
        if self._mask.size != self.protos.shape[1]:
            raise ValueError("prototypes of another embedding")
        self._ws, self._wc = self._weighted(self.protos)
        if self.back is not None:
            self.back = np.ascontiguousarray(self.back, np.float32)
            if self.back.ndim != 2 or self.back.shape[1] != self.protos.shape[1]:
                raise ValueError("back prototypes of another embedding")
            self._bs, self._bc = self._weighted(self.back)
        sym_names = sorted(set(self.symbols))
        col_names = sorted(set(self.colours))
        self._card_sym = np.array([sym_names.index(s) for s in self.symbols], np.int32)
        self._card_col = np.array([col_names.index(c) for c in self.colours], np.int32)
        self._proto_sym = self._card_sym[self.labels]
        self._proto_col = self._card_col[self.labels]
        self._nsym, self._ncol = len(sym_names), len(col_names)
        self._sym_names, self._col_names = sym_names, col_names
        # cards never photographed whose symbol and colour were, each on other cards (a yellow 5
        # with the red 5 and the yellow 7 taught): read by their symbol's and colour's distances
        deck_cards = _deck_cards(self.deck)
        self.composed, self._comp_sym, self._comp_col = _composable(deck_cards, set(self.cards), sym_names, col_names)
        # for local_candidates: colour -> the deck's card ids of it, and card id -> its taught photos' keypoints
        self._card_set = frozenset(self.cards)
        self._by_colour: dict = {}
        for cid, card in deck_cards.items():
            self._by_colour.setdefault(card.color or NO_COLOUR, set()).add(cid)
        self._local_by_card: dict = {}
        if self.local:
            photo_card = {int(k): self.cards[int(c)] for k, c in zip(self.photos, self.labels)}
            for k, f in enumerate(self.local):
                if f is not None and len(f) and k in photo_card:
                    self._local_by_card.setdefault(photo_card[k], []).append(f)

    def local_candidates(self, colour: str | None, symbol: str | None = None,
                         partly: bool = False) -> dict | None:
        """card id -> its taught photos' keypoints: the taught cards of `colour` (None: no colour) and
        those of `symbol` in other colours, where keypoints were kept and every card of that colour
        was taught; else None. A card never photographed may be the one a photo shows, and what it
        shares with a taught card (a print's oval and corners, a word in its name: DINO 2's skip and
        skip 2) matches that card clearly (the teach bench's DINO 2 decks, three quarters of a colour
        taught sufficing: 3 readings of 352 wrong and sure, a skip whose teach photo was refused read
        as the skip 2). The same symbol in other colours competes: keypoints are colour-blind, and a
        name written alike in orange and red matched the red card where the colour was misread.
        `partly`: the taught cards even where some of the colour were not (for a reading that stays
        unsure whatever they say: the recognizer's TAUGHT_LOCAL_PARTLY)."""
        if not self.local:
            return None
        want = colour or NO_COLOUR
        taught = {c for c, col in zip(self.cards, self.colours) if col == want}
        if not taught or not (partly or self.taught_whole(colour)):
            return None
        taught |= {c for c, sym in zip(self.cards, self.symbols) if symbol is not None and sym == symbol}
        return {c: self._local_by_card.get(c, []) for c in taught}

    def taught_whole(self, colour: str | None) -> bool:
        """Whether every card of the deck of `colour` (None: no colour) was taught."""
        return self._by_colour.get(colour or NO_COLOUR, set()) <= self._card_set

    @property
    def has_back(self) -> bool:
        """Whether the deck's back was taught."""
        return self.back is not None and len(self.back) > 0

    def back_score(self, e: np.ndarray, back: np.ndarray | None = None) -> float:
        """The taught back's score for embedding `e`, in the cards' units (card_scores): its nearest
        back prototype's shape distance plus its nearest colour distance, as a card's symbol and
        colour are scored. inf where no back was taught. The weights were learned on the faces: what
        tells faces apart weighs most, and a back differs from every face in most of it. `back`:
        other back prototypes than the deck's (the teach report's leave-one-out)."""
        if back is None and not self.has_back:
            return float("inf")
        bs, bc = (self._bs, self._bc) if back is None else self._weighted(back)
        xs, xc = self._weighted(np.asarray(e, np.float32).reshape(-1))
        return float((_distances(bs, xs) / self.scales[0]).min() + (_distances(bc, xc) / self.scales[1]).min())

    def _weighted(self, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(shape part, colour part) of embedding(s) `a` (D, or N x D), each weighted."""
        return a[..., self._mask] * self.weights[self._mask], a[..., ~self._mask] * self.weights[~self._mask]

    @property
    def border(self):
        """The deck's border colour when it is not white (vision/locate/border.py), else None."""
        from ..locate.border import Border
        b = self.meta.get("border")
        return Border.from_json(b) if b else None

    @property
    def builtin_trusted(self) -> bool:
        """Whether the built-in recognizer may overrule this deck's unsure readings: it was right on
        BUILTIN_RIGHT of the teach photos and wrong and sure on at most BUILTIN_WRONG (measured when
        taught; a deck taught before that was measured: yes)."""
        return self._builtin(BUILTIN_RIGHT)

    @property
    def builtin_sure(self) -> bool:
        """Whether the built-in recognizer's sure readings may stay sure on this deck: it was right on
        BUILTIN_SURE of the teach photos (and trusted)."""
        return self._builtin(BUILTIN_SURE)

    def _builtin(self, least: float) -> bool:
        b = self.meta.get("builtin") or {}
        return trusts_builtin(b.get("photos", 0), b.get("right", b.get("photos", 0)), b.get("wrong_but_sure", 0), least)

    @property
    def aspect(self) -> float:
        """The cards' long side over their short side: learned from the photos (shape.py) where the
        deck is not cut as a standard card, else a standard card's (1.55). ValueError where the file
        says something else than a number a card could be."""
        from ..locate.quad import CARD_ASPECT
        a = self.meta.get("aspect")
        if a is None:
            return CARD_ASPECT
        if isinstance(a, bool) or not isinstance(a, (int, float)) or not 0.9 <= a <= 3.0:
            raise ValueError(f"not a card's shape: {a!r}")
        return float(a)

    @property
    def white_faces(self) -> bool:
        """Whether the deck's faces are white inside as well as round (drawn on white card stock)."""
        return self.meta.get("faces") == "white"

    def card_scores(self, e: np.ndarray, exclude_photo: int | None = None) -> np.ndarray:
        """Each taught card's score for embedding `e` (lower is nearer; inf where nothing is left)."""
        return self._scores(e, exclude_photo)[0]

    def _scores(self, e: np.ndarray, exclude_photo: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(card_scores, the composed cards' scores)."""
        xs, xc = self._weighted(np.asarray(e, np.float32).reshape(-1))
        ds = _distances(self._ws, xs) / self.scales[0]
        dc = _distances(self._wc, xc) / self.scales[1]
        if exclude_photo is not None:
            gone = self.photos == exclude_photo
            ds, dc = np.where(gone, np.inf, ds), np.where(gone, np.inf, dc)
        sym = np.full(self._nsym, np.inf, np.float32)
        col = np.full(self._ncol, np.inf, np.float32)
        np.minimum.at(sym, self._proto_sym, ds.astype(np.float32))
        np.minimum.at(col, self._proto_col, dc.astype(np.float32))
        score = sym[self._card_sym] + col[self._card_col]
        if exclude_photo is not None:
            # a card whose only photo was left out is no candidate (its symbol and colour may be
            # known from other cards, but the leave-one-out estimate is of what was taught)
            left = np.zeros(len(self.cards), bool)
            left[self.labels[~gone]] = True
            return np.where(left, score, np.inf), np.full(0, np.inf, np.float32)
        return score, sym[self._comp_sym] + col[self._comp_col]

    def match(self, e: np.ndarray, exclude_photo: int | None = None, symbols: set | None = None,
              colours: set | None = None) -> Match:
        """The nearest card to embedding `e`, and how near the taught back is (Match.is_back); with
        `symbols`, the nearest of those symbols only (the symbol another reader read clearly: the
        taught deck then tells the colour); with `colours`, of those colours only (the face's ink
        shows one clearly: the taught deck then tells the symbol)."""
        taught, composed = self._scores(e, exclude_photo)
        if symbols is not None:
            taught = np.where([s in symbols for s in self.symbols], taught, np.inf)
            composed = np.where([self._sym_names[k] in symbols for k in self._comp_sym[:len(composed)]],
                                composed, np.inf)
        if colours is not None:
            taught = np.where([c in colours for c in self.colours], taught, np.inf)
            composed = np.where([self._col_names[k] in colours for k in self._comp_col[:len(composed)]],
                                composed, np.inf)
        d = np.concatenate([taught, composed])
        names = self.cards + self.composed[:len(composed)]
        order = np.argsort(d, kind="stable")
        best = float(d[order[0]])
        second = float(d[order[1]]) if len(d) > 1 else float("inf")
        return Match(names[order[0]], confidence(best, second), best, second,
                     names[order[1]] if len(d) > 1 and np.isfinite(second) else None, best <= NEAR,
                     self.back_score(e))


def _deck_cards(deck_id: str) -> dict:
    """The deck's cards (referee.load_deck), {} for a deck the referee does not know."""
    from referee import load_deck
    try:
        return load_deck(deck_id).cards
    except KeyError:
        return {}


def _composable(cards: dict, taught: set, sym_names: list, col_names: list) -> tuple[list, np.ndarray, np.ndarray]:
    """(ids, symbol indices, colour indices) of the deck's `cards` not taught whose symbol and colour
    both are; none for a deck the referee does not know (no cards)."""
    ids, si, ci = [], [], []
    for cid, card in cards.items():
        colour = card.color or NO_COLOUR
        if cid not in taught and card.symbol in sym_names and colour in col_names:
            ids.append(cid)
            si.append(sym_names.index(card.symbol))
            ci.append(col_names.index(colour))
    return ids, np.array(si, np.int32), np.array(ci, np.int32)


def _distances(protos: np.ndarray, x: np.ndarray) -> np.ndarray:
    # einsum, not @: a matrix-vector product on BLAS wakes threads that fight the detector's
    d2 = (protos ** 2).sum(axis=1) - 2.0 * np.einsum("nd,d->n", protos, x) + float((x ** 2).sum())
    return np.sqrt(np.maximum(d2, 0.0))


def confidence(best: float, second: float) -> float:
    """0..1 from the margin between the best and the next card and the best score's size."""
    if not np.isfinite(best):
        return 0.0
    margin = 1.0 if not np.isfinite(second) else 1.0 - best / max(second, 1e-9)
    by_margin = float(np.clip(margin / MARGIN_FULL, 0.0, 1.0))
    by_distance = float(np.clip((FAR_END - best) / (FAR_END - FAR_START), 0.0, 1.0))
    return by_margin * by_distance
