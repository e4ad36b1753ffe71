"""Reading a card with a taught deck, and falling back to the built-in recognizer.

The taught deck reads first: its reading is taken when it is sure. Otherwise the built-in
recognizer (vision/read/) reads the card; its reading is taken when it names a card that was not
taught (the taught deck cannot know it), or when it names the taught deck's own best card (two
readers agree: the more confident of the two). When the built-in names a taught card that the
taught deck did not pick, the taught deck's reading stands, unsure: the taught photos show this
deck's print, the built-in's model was trained on other art (a re-drawn deck is read by what was
taught, not by what a classic print would mean).
"""
from __future__ import annotations

import numpy as np

from .deck import Match, TaughtDeck
from .embed import embed, face

SURE = 0.6     # vision.recognizer.CONFIRM_THRESHOLD (imported lazily there; the same number)


def taught_match(td: TaughtDeck, frame: np.ndarray | None, quad: np.ndarray, card_bgr: np.ndarray) -> Match:
    """The taught deck's reading of the card at `quad` (warped from `frame` when there is one)."""
    f = face(frame, quad) if frame is not None else card_bgr
    return td.match(embed(f))


def combine(taught: Match, builtin, taught_cards) -> tuple[str, float]:
    """(card, confidence) from the taught reading and, when it is not sure, the built-in's
    `builtin` = (card, confidence) or None (a deck without a built-in recognizer);
    `taught_cards`: the ids the taught deck knows."""
    if taught.confidence >= SURE or builtin is None or builtin[0] is None:
        return taught.card, taught.confidence
    card, conf = builtin
    if card == taught.card:
        return card, max(conf, taught.confidence)
    return (card, conf) if card not in taught_cards else (taught.card, taught.confidence)
