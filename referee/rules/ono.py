"""ONO! (shared/seeds/ono.txt): UNO with eight wilds and a food on every coloured card.

A card matches the top card by colour, number, food or action; docs/rules/ono.md has the foods
and every interpretation. The text says only that each coloured card bears "a vegetable or fruit
that matches the color": which food is on which card is our assumption, kept as data in
referee/decks/ono.json, and a table whose cards show other foods sets its own with the `foods`
option (a JSON object card id -> food, or the path of a JSON file holding one).
"""
from __future__ import annotations

import json
from pathlib import Path

from ..cards import Card, Deck, load_deck
from ..errors import Illegal
from ..options import Option
from ..state import TableState
from ..host_actions import uno_family
from .uno_family import WILD, UnoFamily


def _same_symbol_or_food(deck: Deck) -> dict[str, frozenset]:
    """top card id -> the ids of the coloured cards that match it by number, action or food, whatever
    the colour (a precomputed table: the hot path of matching is one set lookup)."""
    def food(c):
        return c.attrs.get("food")
    cards = [c for c in deck.cards.values() if c.kind != WILD]
    return {top.id: frozenset(c.id for c in cards if c.symbol == top.symbol or (food(c) and food(c) == food(top)))
            for top in cards}


def table_foods(value, deck: Deck) -> dict[str, str | None]:
    """The `foods` option as a checked mapping card id -> food (None: no food on that card)."""
    if value in (None, "", {}):
        return {}
    where = "the foods option"
    if isinstance(value, str):
        text = value.strip()
        if not text.startswith(("{", "[")):        # JSON text, else the path of a file
            path = Path(text).expanduser()
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise Illegal(f"the foods file {value!r} cannot be read: "
                              f"{getattr(e, 'strerror', None) or e}") from None
            where = f"the foods file {value!r}"
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            raise Illegal(f"{where} is not JSON: {e}") from None
    if not isinstance(value, dict):
        raise Illegal(f"{where} must be an object card id -> food, like {{\"red-1\": \"apple\"}}")
    foods = {}
    for cid, food in value.items():
        card = deck.cards.get(cid)
        if card is None:
            raise Illegal(f"{where} names {cid!r}, which is not a card of the ONO! deck")
        if card.color is None:
            raise Illegal(f"{where} gives {cid} a food, but wilds carry no food")
        if food is not None and not isinstance(food, str):
            raise Illegal(f"{where}: the food of {cid} is a word, not {food!r}")
        foods[cid] = (food.strip().lower() or None) if isinstance(food, str) else None
    return foods


def with_foods(deck: Deck, foods: dict[str, str | None]) -> Deck:
    """`deck` with the foods of the cards named in `foods` replaced (None removes a card's food)."""
    if not foods:
        return deck
    cards = {}
    for cid, card in deck.cards.items():
        if cid in foods:
            attrs = {k: v for k, v in card.attrs.items() if k != "food"}
            if foods[cid]:
                attrs["food"] = foods[cid]
            card = Card(card.id, card.symbol, card.kind, card.color, card.points, attrs)
        cards[cid] = card
    return Deck(deck.id, deck.name, deck.colors, cards, dict(deck.counts))


class Ono(UnoFamily):
    id = "ono"
    title = "ONO!"
    seed_text = "ono.txt"
    deck_id = "ono"
    hand_size = 7
    call_word = "ONO!"
    host_actions = uno_family("ONO!")
    options = (
        Option("points_target", 0, "play for points over several rounds: the first to reach this "
               "many points wins (500 or 1000 are usual); 0 plays a single game", minimum=0, label="Play for points (target)"),
        Option("longer_game", False, "a player who cannot play keeps drawing until a card can be played", label="Longer game: draw until a card can be played"),
        Option("shorter_game", False, "remove the coloured 6, 7, 8 and 9 from the deck", label="Shorter game: without the 6s to 9s"),
        Option("two_player_reverse_skips", True, "with two players a reverse acts as a skip", label="With two players a reverse skips"),
        Option("foods", "", "the food on each coloured card, where this table's cards differ from "
               "the assumed ones of referee/decks/ono.json: a JSON object {\"red-1\": \"apple\", ...} "
               "(null or \"\" for no food), or the path of a JSON file holding one; cards not named "
               "keep the deck's food; empty: the deck's foods", mapping=True, label="Foods on this table's cards"),
    )

    def deck(self, options: dict) -> Deck:
        shorter = bool(options.get("shorter_game"))
        foods = table_foods(options.get("foods"), load_deck(self.deck_id))
        key = (shorter, tuple(sorted(foods.items(), key=lambda kv: kv[0])) if foods else ())
        deck = self._decks.get(key)
        if deck is None:
            # decks are immutable: one deck per (shorter game, foods) serves every game
            deck = with_foods(load_deck(self.deck_id), foods)
            if shorter:
                deck = deck.without(lambda c: c.kind == "number" and c.symbol in ("6", "7", "8", "9"))
            if len(self._decks) > 16:
                self._decks.clear()
            self._decks[key] = deck
        return deck

    def __init__(self) -> None:
        self._tables: dict[int, tuple[Deck, dict[str, frozenset]]] = {}   # id(deck) -> (deck, table)
        self._decks: dict[tuple, Deck] = {}

    def match_table(self, deck: Deck) -> dict[str, frozenset]:
        entry = self._tables.get(id(deck))
        if entry is None or entry[0] is not deck:
            if len(self._tables) > 8:     # decks are shared (load_deck, _decks): this stays tiny
                self._tables.clear()
            entry = self._tables[id(deck)] = (deck, _same_symbol_or_food(deck))
        return entry[1]

    def can_play(self, st: TableState, card: Card) -> bool:
        """`mismatch(st, card) is None`, without building the reason (the legal-move generator's test)."""
        if card.kind == WILD or card.color == st.active_color:
            return True
        top = st.discard[-1]
        return card.id in self.match_table(st.deck).get(top, ())

    def mismatch(self, st: TableState, card: Card) -> str | None:
        if self.can_play(st, card):
            return None
        top = st.deck.cards[st.top]
        food = card.attrs.get("food")
        if top.kind != WILD and food and food == top.attrs.get("food"):
            return None
        reason = super().mismatch(st, card)
        if reason and top.kind != WILD:
            reason = (f"{card.id} ({food}) does not match {top.id} ({top.attrs.get('food')}) "
                      f"by colour, number, food or action")
        return reason

    # -- the legal-move generator (python-chess `legal_moves`, rlcard `get_legal_actions`) ----------
    def legal_moves(self, st: TableState, hands: list[list[str]]) -> list[dict]:
        """Every move the player the referee waits for can make now, each an event the referee
        accepts, each outcome once: a wild is listed once per colour with the colour named in the
        play (not also as a play followed by choose_color); a player who owes cards draws them all
        at once (not also in parts). One-card calls are not turn moves and are not listed (any
        player may call at any time); the first flip is the table's, not a player's (see
        simulate.play_legal). `hands` are the real hands, which the referee itself cannot see."""
        phase = st.phase
        if phase == "color":
            chooser = st.vars["chooser"]
            return [{"type": "choose_color", "player": chooser, "color": c} for c in st.deck.colors]
        if phase == "scoring":
            return [{"type": "reveal", "player": s, "cards": list(hands[s])} for s in st.vars["unrevealed"]]
        if phase != "play" and phase != "drawn":
            return []
        seat = st.current
        drawable = st.drawable()
        if st.pending_draw:
            if drawable:
                return [{"type": "draw", "player": seat, "count": min(st.pending_draw, drawable)}]
            return [{"type": "pass", "player": seat}]
        moves = []
        cards = st.deck.cards
        active = st.active_color
        same = self.match_table(st.deck).get(st.discard[-1], ())
        for cid in dict.fromkeys(hands[seat]):
            card = cards[cid]
            if card.kind == WILD:
                moves.extend([{"type": "play", "player": seat, "cards": [cid], "color": c} for c in st.deck.colors])
            elif card.color == active or cid in same:
                moves.append({"type": "play", "player": seat, "cards": [cid]})
        longer = self.draws_until_playable(st)
        if drawable and (phase == "play" or longer):
            moves.append({"type": "draw", "player": seat, "count": 1})
        if not drawable or (phase == "drawn" and not longer):
            moves.append({"type": "pass", "player": seat})
        return moves


RULESETS = [Ono()]
