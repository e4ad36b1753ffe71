"""Locate, rectify and identify every card in a frame: the three stages put together.

A card's confidence is the symbol classifier's probability times the colour vote's share, and a
colour/symbol contradiction (a coloured card read as a wild, a wild without its black and colours)
lowers it, so that a doubtful card is reported as doubtful and the table confirms it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .classify import SymbolModel, features
from .colour import colour_votes
from .locate import Quad, find_cards
from .rectify import warp_card

MODELS = Path(__file__).resolve().parent.parent / "models"
MODEL_FOR_DECK = {"uno": "uno-symbols.npz", "ono": "uno-symbols.npz"}
CONFIRM_THRESHOLD = 0.6  # below this a play is sent unconfirmed (tuned on synthetic + dev photos)


@dataclass
class Reading:
    card: str
    confidence: float
    quad: Quad

    def as_json(self) -> dict:
        return {"card": self.card, "confidence": round(self.confidence, 3), "polygon": self.quad.polygon()}


class Recognizer:
    def __init__(self, deck: str, model_path: str | Path | None = None):
        from referee import load_deck
        self.deck = load_deck(deck)  # KeyError with the deck list for an unknown deck
        if model_path is None:
            if deck not in MODEL_FOR_DECK:
                raise KeyError(f"no recognizer model for deck {deck!r} yet; decks with one: "
                               f"{', '.join(sorted(MODEL_FOR_DECK))}")
            model_path = MODELS / MODEL_FOR_DECK[deck]
        self.model = SymbolModel.load(model_path)
        self._wild_symbols = {c.symbol for c in self.deck.cards.values() if c.color is None}
        self._ids = {(c.color, c.symbol): c.id for c in self.deck.cards.values()}

    def identify_card(self, card_bgr: np.ndarray) -> tuple[str, float]:
        """(card id, confidence) for one rectified card image."""
        # the card and its half-turn: the classifier knows both orientations, two views agree better
        p = self.model.proba(np.stack([features(card_bgr), features(card_bgr[::-1, ::-1])])).mean(axis=0)
        v = colour_votes(card_bgr)
        votes = v["votes"]
        colour = max(votes, key=votes.get)
        colour_share = votes[colour] if v["coloured"] >= 0.15 else 0.0
        # the best reading among the deck's cards: wilds scored without colour, others with it
        best, best_p = None, -1.0
        for k, sym in enumerate(self.model.classes):
            if sym in self._wild_symbols:
                cid = self._ids.get((None, sym))
                # a wild is black or white with several colours: no single colour dominates
                score = p[k] * (1.0 - 0.8 * max(0.0, colour_share - 0.6) / 0.4)
            else:
                cid = self._ids.get((colour, sym))
                score = p[k] * colour_share
            if cid is not None and score > best_p:
                best, best_p = cid, score
        return best, float(best_p)

    def read_quads(self, bgr: np.ndarray, quads: list[Quad]) -> list[Reading]:
        out = []
        for q in quads:
            card, conf = self.identify_card(warp_card(bgr, q.pts))
            if card is not None:
                out.append(Reading(card, conf * min(1.0, q.score / 0.7), q))
        out.sort(key=lambda r: -r.confidence)
        return out

    def read(self, bgr: np.ndarray) -> list[Reading]:
        """Every card found in the frame, most confident first."""
        return self.read_quads(bgr, find_cards(bgr))
