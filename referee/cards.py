"""Decks as data: every deck is a JSON file in referee/decks/, expanded here into cards.

A deck file lists its colours, the cards every colour has (`per_color`, id `<colour>-<symbol>`),
the other cards (`other`, with explicit ids) and optional per-card attributes (ONO!'s foods).
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources


@dataclass(frozen=True)
class Card:
    id: str
    symbol: str          # "7", "skip", "wild-draw4", or a deck's own symbol ("fuego", "snake")
    kind: str            # "number", "action" or "wild" (any-colour card); decks may add kinds
    color: str | None    # None for cards without a colour of their own (wilds)
    points: int = 0
    attrs: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def number(self) -> int | None:
        return int(self.symbol) if self.kind == "number" and self.symbol.isdigit() else None

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True)
class Deck:
    id: str
    name: str
    colors: tuple[str, ...]
    cards: dict[str, Card]          # id -> card, in deck-list order
    counts: dict[str, int]          # id -> copies in the deck

    @property
    def size(self) -> int:
        return sum(self.counts.values())

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def without(self, predicate) -> "Deck":
        """The same deck with the cards matching `predicate` removed (ONO!'s shorter game)."""
        keep = {cid: c for cid, c in self.cards.items() if not predicate(c)}
        return Deck(self.id, self.name, self.colors, keep, {cid: self.counts[cid] for cid in keep})

    def multiset(self) -> Counter:
        return Counter(self.counts)

    def as_list(self) -> list[str]:
        """Every physical card, one id per card (for dealing a real deck in simulation)."""
        return [cid for cid, n in self.counts.items() for _ in range(n)]


DECK_IDS = ("uno", "ono", "dino2", "snake-cup")


def _expand(spec: dict) -> Deck:
    cards: dict[str, Card] = {}
    counts: dict[str, int] = {}
    attributes = spec.get("attributes", {})

    def add(card_id, symbol, kind, color, count, points):
        attrs = {name: table[card_id] for name, table in attributes.items() if card_id in table}
        cards[card_id] = Card(card_id, symbol, kind, color, points, attrs)
        counts[card_id] = count

    for color in spec.get("colors", []):
        for entry in spec.get("per_color", []):
            add(f"{color}-{entry['symbol']}", entry["symbol"], entry["kind"], color,
                entry["count"], entry.get("points", 0))
    for entry in spec.get("other", []):
        add(entry["id"], entry.get("symbol", entry["id"]), entry["kind"], entry.get("color"),
            entry["count"], entry.get("points", 0))
    return Deck(spec["id"], spec.get("name", spec["id"]), tuple(spec.get("colors", [])), cards, counts)


@lru_cache(maxsize=None)
def load_deck(deck_id: str) -> Deck:
    try:
        text = resources.files("referee.decks").joinpath(f"{deck_id}.json").read_text()
    except FileNotFoundError:
        raise KeyError(f"unknown deck {deck_id!r}; decks: {', '.join(available_decks())}") from None
    return _expand(json.loads(text))


def available_decks() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files("referee.decks").iterdir()
                  if p.name.endswith(".json"))
